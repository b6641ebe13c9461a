/* test_alloc_pim64.c - the helpers of PIM's large-size path (64 x 64 and
 * the sizes above 32 x 32) against brute force: the 64 x 64 bit transpose
 * and the table select, and whole allocations of the fast path against the
 * general path (itself compared with the literal reference in
 * test_alloc_pim.c).  The one-lane picks against a literal walk of the draw
 * protocol: test_alloc_pimc.c. */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

ST_TEST(alloc_pim64_select_matches_scan) {
    uint64_t seed = 0x64001;
    int t, k;
    for (t = 0; t < 20000; t++) {
        uint64_t x = ta_rand_mask(&seed, 1 + (int)st_rand_below(&seed, 64));
        int c = ta_bit_count(x);
        if (c == 0) continue;
        k = (int)st_rand_below(&seed, (uint32_t)c);
        ST_EQ(ta_kth_bit(x, k), sa__pim_select(x, sa__prefix_counts(x), k));
    }
    for (k = 0; k < 64; k++) /* every position of the full mask */
        ST_EQ(k, sa__pim_select(~(uint64_t)0, sa__prefix_counts(~(uint64_t)0), k));
}

#ifdef SA_SIMD_SSE2
ST_TEST(alloc_pim64_transpose_is_the_transpose) {
    uint64_t seed = 0x64004, req[64], conn[64], col[64];
    int t, i;
    for (t = 0; t < 600; t++) {
        int n = t < 100 ? 64 : 1 + (int)st_rand_below(&seed, 64);
        for (i = 0; i < 64; i++) {
            req[i] = i < n ? st_rand(&seed) : 0xA5A5A5A5A5A5A5A5ull; /* beyond n: not read */
            conn[i] = st_rand(&seed) | st_rand(&seed);
        }
        sa__pim_transpose64_sse2(req, conn, n, col);
        ST_EQ(-1, ta_wrong_column(req, conn, n, 64, col));
    }
}

#endif

/* Whole allocations above 32 x 32 (the transpose and the first grant taken
 * from the columns), iterations 1, 2 and converged, with and without
 * no_connect and the Rotary Rule: the fast path (sa_allocate) against the
 * general path (sa__pim_general on the effective requests), decision for
 * decision and generator state. */
ST_TEST(alloc_pim64_fast_path_equals_general_path) {
    uint64_t seed = 0x64006;
    int t, i;
    for (t = 0; t < 300; t++) {
        sa_alloc a1, a2;
        sa_alloc_desc d;
        sa_match m1, m2;
        uint64_t req[64], eff[64];
        int n = t < 60 ? 64 : 33 + (int)st_rand_below(&seed, 32);
        int m = t < 60 ? 64 : 33 + (int)st_rand_below(&seed, 32), r;
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_PIM;
        d.num_inputs = n;
        d.num_outputs = m;
        d.iterations = t % 3 == 0 ? 1 : t % 3 == 1 ? 2 : SA_ITERATE_TO_CONVERGENCE;
        d.seed = st_rand(&seed);
        d.rotary = t % 5 == 4;
        d.network_inputs = d.rotary ? st_rand(&seed) & sa__low_mask(n) : 0;
        if (t % 4 == 1)
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(m);
        ST_EQ(SA_OK, sa_alloc_init(&a1, &d));
        ST_EQ(SA_OK, sa_alloc_init(&a2, &d));
        for (r = 0; r < 8; r++) {
            int s1, s2;
            uint64_t dens = st_rand(&seed);
            for (i = 0; i < n; i++) {
                req[i] = st_rand(&seed) & sa__low_mask(m);
                if (dens & 1u) req[i] &= st_rand(&seed);
                if (dens & 2u) req[i] &= st_rand(&seed) & st_rand(&seed);
                if ((dens & 12u) == 12u && (i & 1)) req[i] = 0;
            }
            s1 = sa_allocate(&a1, req, NULL, NULL, &m1);
            sa__effective(&a2, req, eff);
            sa__match_clear(&m2);
            s2 = sa__pim_general(&a2, eff, NULL, &m2);
            ST_EQ(s2, s1);
            ST_EQ_U64(m2.inputs, m1.inputs);
            ST_EQ_U64(m2.outputs, m1.outputs);
            for (i = 0; i < n; i++) ST_EQ(m2.output_of[i], m1.output_of[i]);
            for (i = 0; i < m; i++) ST_EQ(m2.input_of[i], m1.input_of[i]);
            ST_EQ_U64(a2.rng.state, a1.rng.state);
        }
    }
}
