/* test_alloc_fast.c - the word-parallel and SIMD helpers behind the switch
 * allocators (seastar_arb.h section 2) against brute force, the SIMD paths
 * against the portable ones, and a regression hash: the allocators must
 * make exactly the decisions (and random-number draws) they made before
 * their speed-up. */
#include "st_test.h"
#include "../seastar_arb.h"
#define TA_WORKLOAD_NAME ta_alloc_workload_hash
#include "alloc_workload.h"

uint64_t ta_alloc_workload_hash_portable(int with_pim); /* test_alloc_portable.c */

ST_TEST(alloc_fast_select_bit_is_the_kth_set_bit) {
    uint64_t seed = 5;
    int t;
    for (t = 0; t < 20000; t++) {
        uint64_t x = st_rand(&seed), r;
        int k = 0, pos;
        if (t & 1) x &= st_rand(&seed);
        if (t & 2) x &= st_rand(&seed) & st_rand(&seed);
        if (t % 7 == 0) x = (uint64_t)1 << st_rand_below(&seed, 64);
        if (x == 0) continue;
        ST_EQ(sa__bits(x), (int)(sa__prefix_counts(x) >> 56));
        for (r = x; r; r &= r - 1, k++) {
            pos = 0;
            while (!((r >> pos) & 1u)) pos++;
            ST_EQ(pos, sa__select_bit(x, k));
        }
    }
}

ST_TEST(alloc_fast_transpose_and_columns_match_brute_force) {
    uint64_t seed = 6, a[64], b[64], col[64];
    int t, n, m, i, j, rep;
    for (t = 1; t <= 64; t <<= 1)
        for (rep = 0; rep < 50; rep++) {
            for (i = 0; i < t; i++) a[i] = b[i] = st_rand(&seed) & sa__low_mask(t);
            sa__transpose_portable(a, t);
            for (i = 0; i < t; i++)
                for (j = 0; j < t; j++) ST_EQ((b[j] >> i) & 1u, (a[i] >> j) & 1u);
#ifdef SA_SIMD_SSE2
            if (t >= 4) {
                sa__transpose_sse2(b, t);
                for (i = 0; i < t; i++) ST_EQ_U64(a[i], b[i]);
            }
#endif
        }
    for (rep = 0; rep < 3000; rep++) {
        n = 1 + (int)st_rand_below(&seed, 64);
        m = 1 + (int)st_rand_below(&seed, rep & 1 ? 8 : 64);
        for (i = 0; i < n; i++) a[i] = st_rand(&seed) & sa__low_mask(m);
        sa__columns(a, n, m, col);
        for (j = 0; j < m; j++) {
            uint64_t want = 0;
            for (i = 0; i < n; i++) want |= ((a[i] >> j) & 1u) << i;
            ST_EQ_U64(want, col[j]);
        }
    }
}

ST_TEST(alloc_fast_least_recently_selected_simd_equals_portable) {
    uint64_t seed = 7;
    int rep;
    for (rep = 0; rep < 20000; rep++) {
        uint8_t rank[64];
        int size = 1 + (int)st_rand_below(&seed, 64), i, want, best = 256;
        uint64_t req = st_rand(&seed) & sa__low_mask(size);
        if (rep & 1) req &= st_rand(&seed);
        if (req == 0) continue;
        memset(rank, 0, sizeof rank);
        for (i = 0; i < size; i++) rank[i] = (uint8_t)i;
        for (i = size - 1; i > 0; i--) {
            int s = (int)st_rand_below(&seed, (uint32_t)(i + 1));
            uint8_t x = rank[i];
            rank[i] = rank[s];
            rank[s] = x;
        }
        want = -1;
        for (i = 0; i < size; i++)
            if (((req >> i) & 1u) && rank[i] < best) { best = rank[i]; want = i; }
        ST_EQ(want, sa__lrs_portable(rank, req));
#ifdef SA_SIMD_SSE2
        ST_EQ(want, sa__lrs_sse2(rank, req, size));
#endif
    }
}

ST_TEST(alloc_fast_same_decisions_as_before_and_as_portable) {
    uint64_t h = ta_alloc_workload_hash(0);
    /* Every allocator but PIM (whose draw protocol changed on purpose; it
     * is checked against a reference of its protocol in test_alloc_pim.c):
     * this value was computed with the allocators before any speed work,
     * the header of commit dc2fa2c, building this workload (with_pim = 0)
     * against it (gcc C11); so every decision and random draw is unchanged.
     * (The same workload with PIM gives that header's earlier pinned value,
     * 0xa400c726c762b1c0.) */
    ST_EQ_U64(0xa6dcfcdeebb81ad0ull, h);
    ST_EQ_U64(h, ta_alloc_workload_hash_portable(0));
    ST_EQ_U64(ta_alloc_workload_hash(1), ta_alloc_workload_hash_portable(1));
}
