/* test_alloc_kinds.c - a translation unit that names the kinds it compiles
 * (SA_SWITCH_KINDS: iSLIP and the wrapped wave front) allocates exactly as
 * the full build (alloc_diff_fast.c, every kind) on the same request sets,
 * and refuses the kinds it does not compile. */
#define SA_SWITCH_KINDS ((1u << SA_SWITCH_ISLIP) | (1u << SA_SWITCH_WFA_WRAPPED))
#include <stdlib.h>
#include "st_test.h"
#include "alloc_diff.h"
#include "alloc_test_util.h"

ST_TEST(alloc_kinds_named_kinds_decide_as_the_full_build) {
    static const int sizes[][2] = { { 16, 7 }, { 64, 64 }, { 80, 80 } };
    static uint64_t req[80 * 2];
    uint64_t seed = 2828;
    int z, k, t, i;
    for (z = 0; z < 3; z++)
        for (k = 0; k < 2; k++) {
            int n = sizes[z][0], m = sizes[z][1], w = SA_WORDS(m);
            sa_switch_desc d;
            sa_switch a;
            sa_result r;
            ad_alloc *full;
            void *memory;
            size_t size;
            ta_desc_of(&d, k ? SA_SWITCH_WFA_WRAPPED : SA_SWITCH_ISLIP, n, m);
            d.iterations = k ? 1 : 2;
            d.wavefront = k ? SA_WAVEFRONT_ANTIDIAGONAL : 0;
            d.idle = k ? SA_IDLE_HOLD : 0;
            size = sa_switch_memory_size(&d);
            memory = malloc(size);
            ST_CHECK(memory != NULL);
            ST_EQ(SA_OK, sa_switch_init(&a, &d, memory, size));
            full = ad_fast_make(&d, &r);
            ST_CHECK(full != NULL);
            for (t = 0; t < 200; t++) {
                sa_match x, y;
                for (i = 0; i < n * w; i++)
                    req[i] = st_rand(&seed) & st_rand(&seed) & (i % w == w - 1 ? ta_low_mask(m - 64 * (w - 1)) : ~(uint64_t)0);
                ST_EQ(ad_fast_allocate(full, req, NULL, NULL, &y), sa_switch_allocate(&a, req, NULL, NULL, &x));
                ST_CHECK(memcmp(x.output_of, y.output_of, (size_t)n * sizeof x.output_of[0]) == 0);
            }
            ad_fast_free(full);
            free(memory);
        }
}

ST_TEST(alloc_kinds_the_others_are_refused) {
    sa_switch_desc d;
    int k;
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++) {
        int named = k == SA_SWITCH_ISLIP || k == SA_SWITCH_WFA_WRAPPED;
        ta_desc_of(&d, (sa_switch_kind)k, 8, 8);
        ST_EQ(named, sa_switch_memory_size(&d) != 0);
        if (!named) {
            sa_switch a;
            uint64_t memory[1024];
            ST_EQ(SA_ERR_PARAM_RANGE, sa_switch_init(&a, &d, memory, sizeof memory));
        }
    }
}
