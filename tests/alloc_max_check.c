/* alloc_max_check.c - built by tests/contract.sh with -O2 -Werror for
 * several values of SA_ALLOC_MAX (and with SA_NO_SIMD): every allocator
 * initialises at the largest size the value allows and returns valid
 * matchings (each matched pair requested, no input or output twice) on
 * random request sets.  Exit status 0 when all hold. */
#include <stdio.h>
#include <string.h>
#include "../seastar_arb.h"

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(void) {
    uint64_t seed = 1, req[SA_ALLOC_MAX];
    uint8_t prio[SA_ALLOC_MAX * SA_ALLOC_MAX];
    int k, t, i, n = SA_ALLOC_MAX, m = SA_ALLOC_MAX > 8 ? 8 : SA_ALLOC_MAX;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
        sa_alloc a;
        sa_alloc_desc d;
        memset(&d, 0, sizeof d);
        d.kind = (sa_alloc_kind)k;
        d.num_inputs = n;
        d.num_outputs = m;
        if (sa_alloc_init(&a, &d) != SA_OK) { printf("init %s\n", sa_alloc_kind_name(d.kind)); return 1; }
        for (t = 0; t < 200; t++) {
            sa_match mt;
            uint64_t ins = 0, outs = 0;
            int size;
            for (i = 0; i < n; i++) req[i] = next(&seed) & sa__low_mask(m);
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)next(&seed);
            size = sa_allocate(&a, req, prio, NULL, &mt);
            for (i = 0; i < n; i++) {
                int j = mt.output_of[i];
                if (j < 0) continue;
                if (!((req[i] >> j) & 1u) || ((outs >> j) & 1u) || mt.input_of[j] != i) {
                    printf("%s: bad pair (%d, %d)\n", sa_alloc_kind_name(d.kind), i, j);
                    return 1;
                }
                outs |= (uint64_t)1 << j;
                ins |= (uint64_t)1 << i;
            }
            if (size != sa__bits(ins) || mt.inputs != ins || mt.outputs != outs) {
                printf("%s: size or masks disagree\n", sa_alloc_kind_name(d.kind));
                return 1;
            }
        }
    }
    return 0;
}
