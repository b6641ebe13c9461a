/* test_alloc_spaa.c - SPAA's bit-sliced banks of least-recently-selected
 * arbiters (seastar_arb.h, sa_alloc.spaa_in / spaa_out) against a
 * brute-force model (ranks in an int array), the SSE2 bank operations
 * against the portable ones, and whole SPAA allocations (sa_allocate, the
 * SSE2 path for up to 16 x 8, and the pipelined sa_spaa_nominate /
 * sa_spaa_grant) against a literal SPAA written here from the paper's
 * steps. */
#include "st_test.h"
/* Preconditions go to a counter here (spaa_fast_bits_outside_outputs_never_match). */
static int ts_assert_failures;
#define SA_ASSERT(c) ((c) ? (void)0 : (void)ts_assert_failures++)
#include "../seastar_arb.h"
#include "spaa_model.h"

/* ------------------------------------------------------------ the banks */

/* Random banks of 1..64 arbiters over 1..64 requesters, random candidate
 * sets and grant sequences: every select and update of the portable and
 * the SSE2 bank operations against the model, and the two against each
 * other (same planes, same winners, same rank bits). */
ST_TEST(spaa_fast_banks_match_brute_force_lrs) {
    uint64_t seed = 31;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 3000 : 300); trial++) {
        static uint64_t pp[SA__SPAA_PLANES * SA__SPAA_WORDS];
        static uint64_t kp[SA__SPAA_PLANES * SA__SPAA_WORDS];
        ts_bank model;
        int rows = 1 + (int)st_rand_below(&seed, SA_ALLOC_MAX);
        int size = 1 + (int)st_rand_below(&seed, SA_ALLOC_MAX);
        int lw = sa__lrs_bank_lw(size), words = sa__lrs_bank_words(rows, lw), t, r;
#ifdef SA_SIMD_SSE2
        static uint64_t ps[SA__SPAA_PLANES * SA__SPAA_WORDS];
        static uint64_t ks[SA__SPAA_PLANES * SA__SPAA_WORDS];
#endif
        if (trial % 5 == 0) size = 1 + (int)st_rand_below(&seed, 8);
        lw = sa__lrs_bank_lw(size);
        words = sa__lrs_bank_words(rows, lw);
        ST_CHECK(words <= SA__SPAA_WORDS && lw <= SA__SPAA_PLANES);
        ts_bank_init(&model, rows, size);
        sa__lrs_bank_init(pp, rows, size);
        ST_CHECK(ts_bank_equal(&model, pp, lw, words));
#ifdef SA_SIMD_SSE2
        memcpy(ps, pp, sizeof ps);
#endif
        for (t = 0; t < 60; t++) {
            uint64_t c[SA__SPAA_WORDS], g[SA__SPAA_WORDS];
            int win[64], use_k = (int)st_rand_below(&seed, 2), w;
#ifdef SA_SIMD_SSE2
            uint64_t cs[SA__SPAA_WORDS];
#endif
            sa__zero_words(c, SA__SPAA_WORDS);
            for (r = 0; r < rows; r++) {
                uint64_t cand = st_rand_below(&seed, 5) == 0 ? 0 : ts_random_subset(&seed, size);
                sa__lane_or(c, r, lw, cand);
                win[r] = ts_bank_select(&model, r, cand);
            }
#ifdef SA_SIMD_SSE2
            memcpy(cs, c, sizeof c);
            sa__lrs_bank_select_sse2(ps, cs, ks, words, lw);
#endif
            sa__lrs_bank_select_portable(pp, c, kp, words, lw);
            for (r = 0; r < rows; r++) {
                uint64_t x = sa__lane_get(c, r, lw);
                int b;
                ST_EQ_U64(win[r] < 0 ? 0 : (uint64_t)1 << win[r], x);
                for (b = 0; b < lw && win[r] >= 0; b++) {
                    uint64_t lane = lw == 6 ? ~(uint64_t)0 : ((uint64_t)1 << (1 << lw)) - 1;
                    ST_EQ_U64((model.rank[r][win[r]] >> b) & 1 ? lane : 0,
                              sa__lane_get(kp + b * SA__SPAA_WORDS, r, lw));
                }
            }
#ifdef SA_SIMD_SSE2
            for (w = 0; w < words; w++) ST_EQ_U64(c[w], cs[w]);
            for (w = 0; w < lw * SA__SPAA_WORDS; w++) ST_EQ_U64(kp[w], ks[w]);
#endif
            /* Grant some winners (rank bits from the select), or, without
             * them, any requester of some rows. */
            sa__zero_words(g, SA__SPAA_WORDS);
            for (r = 0; r < rows; r++) {
                int pick = use_k ? win[r] : (int)st_rand_below(&seed, (uint32_t)size);
                if (pick < 0 || st_rand_below(&seed, 4) == 0) continue;
                sa__lane_or(g, r, lw, (uint64_t)1 << pick);
                ts_bank_update(&model, r, pick);
            }
            sa__lrs_bank_update_portable(pp, g, use_k ? kp : NULL, words, lw, size);
            ST_CHECK(ts_bank_equal(&model, pp, lw, words));
#ifdef SA_SIMD_SSE2
            sa__lrs_bank_update_sse2(ps, g, use_k ? ks : NULL, words, lw, size);
            for (w = 0; w < SA__SPAA_PLANES * SA__SPAA_WORDS; w++) ST_EQ_U64(pp[w], ps[w]);
#endif
        }
    }
}

/* The SWAR lane tests and the Rotary-Rule preference, every lane width,
 * against a lane-by-lane loop (and SSE2 against portable). */
ST_TEST(spaa_fast_lane_helpers_match_brute_force) {
    uint64_t seed = 32;
    int t, lw;
    for (t = 0; t < 4000; t++)
        for (lw = 3; lw <= 6; lw++) {
            uint64_t x[2], pref = 0, want[2], got[2];
            int W = 1 << lw, l, w;
            uint64_t lane = lw == 6 ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
            for (w = 0; w < 2; w++) {
                x[w] = st_rand(&seed);
                for (l = 0; l < 64 / W; l++)
                    if (st_rand_below(&seed, 3) == 0) x[w] &= ~(lane << (l * W));
                    else if (st_rand_below(&seed, 3) == 0) x[w] &= ~(lane << (l * W)) | ((uint64_t)1 << (l * W + (int)st_rand_below(&seed, (uint32_t)W)));
            }
            pref = st_rand(&seed) & lane;
            for (w = 0; w < 2; w++) {
                uint64_t nz = 0;
                want[w] = 0;
                for (l = 0; l < 64 / W; l++) {
                    uint64_t v = (x[w] >> (l * W)) & lane, p = v & pref;
                    if (v) nz |= lane << (l * W);
                    want[w] |= (p ? p : v) << (l * W);
                }
                ST_EQ_U64(nz, sa__lanes_nonzero(x[w], lw));
                got[w] = x[w];
            }
            sa__lanes_prefer_portable(got, 2, lw, pref * sa__lane_low(lw));
            ST_EQ_U64(want[0], got[0]);
            ST_EQ_U64(want[1], got[1]);
#ifdef SA_SIMD_SSE2
            got[0] = x[0];
            got[1] = x[1];
            sa__lanes_prefer_sse2(got, 2, lw, pref * sa__lane_low(lw));
            ST_EQ_U64(want[0], got[0]);
            ST_EQ_U64(want[1], got[1]);
#endif
        }
}

/* ------------------------------------------------------------ whole SPAA */

/* sa_allocate (whichever path it takes: the SSE2 one up to 16 x 8, the
 * general banks otherwise, priorities or not) against the literal SPAA,
 * matching and state, over random sizes 1..SA_ALLOC_MAX. */
ST_TEST(spaa_fast_allocate_matches_literal_spaa) {
    ts_assert_failures = 0;
    ST_CHECK(ts_allocate_vs_literal(33, ST_LONG ? 2000 : 200));
    ST_EQ(0, ts_assert_failures);
}

/* Request bits at or above num_outputs break sa_allocate's precondition
 * (SA_ASSERT fires); with the check disabled they are ignored: the same
 * matching as without them, on the SSE2 path up to 16 x 8 (which packs
 * rows into bytes) as on the others. */
ST_TEST(spaa_fast_bits_outside_outputs_never_match) {
    static const int sizes[4][2] = { { 16, 7 }, { 7, 7 }, { 16, 16 }, { 64, 64 } };
    uint64_t seed = 36;
    int s, t, i;
    for (s = 0; s < 4; s++) {
        sa_alloc al;
        sa_alloc_desc d;
        int n = sizes[s][0], m = sizes[s][1];
        if (n > SA_ALLOC_MAX || m > SA_ALLOC_MAX) continue;
        memset(&d, 0, sizeof d);
        d.num_inputs = n;
        d.num_outputs = m;
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        for (t = 0; t < 50; t++) {
            uint64_t req[64], clean[64];
            sa_match mt, want;
            sa_alloc ref = al;
            for (i = 0; i < n; i++) {
                clean[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(m);
                req[i] = clean[i] | (st_rand(&seed) & ~sa__low_mask(m));
            }
            ts_assert_failures = 0;
            sa_allocate(&ref, clean, NULL, NULL, &want);
            ST_EQ(0, ts_assert_failures);
            sa_allocate(&al, req, NULL, NULL, &mt);
            ST_CHECK(m == 64 || ts_assert_failures > 0);
            ST_EQ(want.size, mt.size);
            ST_EQ_U64(want.outputs, mt.outputs);
            for (i = 0; i < n; i++) ST_EQ(want.output_of[i], mt.output_of[i]);
        }
    }
}

/* The same precondition for every allocator kind (the fast paths of all
 * sizes, PIM1's 16 x 7 path that packs rows with saturation among them):
 * out-of-range bits make SA_ASSERT fire and, with the check disabled, are
 * no undefined behaviour (ASan/UBSan build) and still give a matching of
 * connected cells, with consistent masks and size, as sa_allocate's
 * documentation says. */
ST_TEST(alloc_bits_outside_outputs_give_a_matching_of_connected_cells) {
    static const int sizes[6][2] = { { 16, 7 }, { 7, 7 }, { 8, 8 }, { 16, 16 }, { 33, 20 }, { 64, 64 } };
    static uint8_t prio[64 * 64];
    uint64_t seed = 37;
    int s, kind, t, i;
    for (i = 0; i < 64 * 64; i++) prio[i] = (uint8_t)st_rand(&seed);
    for (kind = 0; kind < SA_ALLOC_KIND_COUNT; kind++)
        for (s = 0; s < 6; s++) {
            sa_alloc al;
            sa_alloc_desc d;
            int n = sizes[s][0], m = sizes[s][1];
            if (n > SA_ALLOC_MAX || m > SA_ALLOC_MAX) continue;
            memset(&d, 0, sizeof d);
            d.kind = (sa_alloc_kind)kind;
            d.num_inputs = n;
            d.num_outputs = m;
            d.iterations = (s & 1) ? SA_ITERATE_TO_CONVERGENCE : 1;
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(m);
            ST_EQ(SA_OK, sa_alloc_init(&al, &d));
            for (t = 0; t < 20; t++) {
                uint64_t req[64], ins = 0, outs = 0;
                sa_match mt;
                int size = 0;
                for (i = 0; i < n; i++) req[i] = st_rand(&seed) | ((m < 64) ? (uint64_t)1 << m : 0);
                ts_assert_failures = 0;
                ST_EQ(sa_allocate(&al, req, kind == SA_ALLOC_OPF ? prio : NULL, NULL, &mt), mt.size);
                ST_CHECK(m == 64 || ts_assert_failures > 0);
                for (i = 0; i < n; i++) {
                    int j = mt.output_of[i];
                    if (j < 0) continue;
                    ST_CHECKF(j < m && !((d.no_connect[i] >> j) & 1u) && mt.input_of[j] == i,
                              "kind %d %dx%d input %d output %d", kind, n, m, i, j);
                    ins |= (uint64_t)1 << i;
                    outs |= (uint64_t)1 << j;
                    size++;
                }
                ST_EQ(size, mt.size);
                ST_EQ_U64(ins, mt.inputs);
                ST_EQ_U64(outs, mt.outputs);
                for (i = 0; i < m; i++) ST_CHECK(mt.input_of[i] < 0 || mt.output_of[mt.input_of[i]] == i);
            }
        }
}

/* The pipelined use (examples/common/alpha_net.h): nominate now, other
 * allocations in between, then grant a subset of those nominations; and
 * the 21364 with read-port pairs and priorities. */
ST_TEST(spaa_fast_pipelined_and_paired_match_literal_spaa) {
    ST_CHECK(ts_pipelined_vs_literal(34, ST_LONG ? 1000 : 100));
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* The SSE2 paths up to 16 x 16 against the general bank path (lanes
 * through sa__spaa_nominate_lanes, sa__spaa_columns, sa__spaa_grant_lanes):
 * the same matching struct, byte for byte, and the same state. */
ST_TEST(spaa_fast_small_path_equals_general_path) {
    uint64_t seed = 35;
    int trial;
    for (trial = 0; trial < 300; trial++) {
        sa_alloc a, b;
        sa_alloc_desc d;
        int t, i;
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_SPAA;
        d.num_inputs = 1 + (int)st_rand_below(&seed, 16);
        d.num_outputs = 1 + (int)st_rand_below(&seed, trial & 1 ? 16 : 8);
        d.rotary = (int)st_rand_below(&seed, 2);
        d.network_inputs = st_rand(&seed) & sa__low_mask(d.num_inputs);
        for (i = 0; i < d.num_inputs; i++)
            d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(d.num_outputs);
        ST_EQ(SA_OK, sa_alloc_init(&a, &d));
        b = a;
        for (t = 0; t < 50; t++) {
            uint64_t req[16], nom[SA__SPAA_WORDS], col[SA__SPAA_WORDS];
            uint64_t kin[SA__SPAA_PLANES * SA__SPAA_WORDS];
            sa_match ma, mb;
            int ra, rb;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            memset(&ma, 0x5A, sizeof ma);
            memset(&mb, 0x5A, sizeof mb);
            ra = sa__spaa_upto16_sse2(&a, req, &ma);
            sa__spaa_nominate_lanes(&b, req, NULL, NULL, nom, kin);
            sa__spaa_columns(&b, nom, col);
            rb = sa__spaa_grant_lanes(&b, col, kin, &mb);
            ST_EQ(rb, ra);
            ST_EQ(mb.size, ma.size);
            ST_EQ_U64(mb.inputs, ma.inputs);
            ST_EQ_U64(mb.outputs, ma.outputs);
            ST_CHECK(memcmp(ma.output_of, mb.output_of, sizeof ma.output_of) == 0);
            ST_CHECK(memcmp(ma.input_of, mb.input_of, sizeof ma.input_of) == 0);
            ST_CHECK(memcmp(a.spaa_in, b.spaa_in, sizeof a.spaa_in) == 0);
            ST_CHECK(memcmp(a.spaa_out, b.spaa_out, sizeof a.spaa_out) == 0);
        }
    }
}
#endif
