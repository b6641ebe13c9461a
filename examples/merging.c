#include <stdio.h>
#include "../seastar_arb.h"
int main(void) { puts("merging demo: coming"); return 0; }
