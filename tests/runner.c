/* SPDX-License-Identifier: MIT */
/* runner.c - main() of the test runner; see st_test.h. */
#include "st_test.h"
#include <stdlib.h>
#include <time.h>

/* Both headers are included twice, as a user's program may, to prove the
 * include guards and the static-inline API (see DESIGN.md). */
#include "../seastar_arb.h"
#include "../seastar_arb.h"
#include "../seastar_route.h"
#include "../seastar_route.h"

#define ST_ENTRY(name) void st_test_##name(st_ctx *st__ctx);
#include "tests.inc"
#undef ST_ENTRY

typedef struct st_entry { const char *name; void (*fn)(st_ctx *); } st_entry;

#define ST_ENTRY(name) { #name, st_test_##name },
static const st_entry st_tests[] = {
#include "tests.inc"
    { NULL, NULL }
};
#undef ST_ENTRY

static const char *st_current;

void st_fail_begin(st_ctx *ctx, const char *file, int line, const char *what) {
    ctx->failed = 1;
    fprintf(stderr, "FAIL %s\n  %s:%d: %s\n", st_current, file, line, what);
}

static int st_selected(const char *name, int argc, char **argv) {
    int i, any = 0;
    for (i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        any = 1;
        if (strstr(name, argv[i]) != NULL) return 1;
    }
    return !any;
}

int main(int argc, char **argv) {
    int i, passed = 0, failed = 0, long_mode = 0, list = 0, timing = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--long") == 0) long_mode = 1;
        else if (strcmp(argv[i], "--list") == 0) list = 1;
        else if (strcmp(argv[i], "--time") == 0) timing = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--long] [--list] [--time] [FILTER...]\n", argv[0]);
            return 2;
        }
    }
    for (i = 0; st_tests[i].name != NULL; i++) {
        st_ctx ctx;
        if (!st_selected(st_tests[i].name, argc, argv)) continue;
        if (list) { printf("%s\n", st_tests[i].name); continue; }
        ctx.failed = 0;
        ctx.long_mode = long_mode;
        st_current = st_tests[i].name;
        {
            clock_t t0 = clock();
            st_tests[i].fn(&ctx);
            if (timing)
                fprintf(stderr, "%8.3f s  %s\n", (double)(clock() - t0) / CLOCKS_PER_SEC,
                        st_tests[i].name);
        }
        if (ctx.failed) failed++; else passed++;
        fflush(stderr);
    }
    if (list) return 0;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
