/* test_alloc_pim.c - PIM-k and PIM1 (seed 002 Section 3.1) under the
 * library's documented draw protocol: decision-for-decision equality with a
 * literal reference implementation of the protocol and of PIM's
 * priorities (alloc_pim_ref.h), with
 * the Lemire redraws forced; chi-square tests that the grant and accept
 * choices themselves are uniform and independent.  (The fast kernels
 * against the reference build: test_alloc_diff.c.) */
#include "st_test.h"
/* (this file compiles only PIM: SA_SWITCH_KINDS) */
#define SA_SWITCH_KINDS ((1u << SA_SWITCH_PIM))
#include "../seastar_arb.h"
#include "alloc_test_util.h"
#define TPIM_DRIVER tpim_compare
#include "alloc_pim_ref.h"

ST_TEST(pim_matches_reference) {
    uint64_t h = 0;
    long rej = 0;
    ST_EQ(0, tpim_compare(ST_LONG ? 6000 : 600, &h, &rej));
    ST_CHECK(rej > 0); /* the random workload met some Lemire rejections */
}

/* Set up a PIM allocator and the reference's view of it: n x m, no
 * Rotary Rule, full crossbar. */
static void tpim_setup(ta_switch *al, tpim_cfg *c, int n, int m, int iterations, uint64_t seed) {
    sa_switch_desc d;
    int i, j;
    memset(&d, 0, sizeof d);
    memset(c, 0, sizeof *c);
    d.kind = SA_SWITCH_PIM;
    d.num_inputs = c->n = n;
    d.num_outputs = c->m = m;
    d.iterations = c->iterations = iterations;
    d.seed = seed;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) c->conn[i][j] = 1;
    ta_switch_init(al, &d);
}

/* Quick filter for the seed search below: how many of `lanes` lanes with
 * `cands` candidates each would reject their draw in a stage that starts
 * `skip` generator outputs after the seed. */
static int tpim_stage_rejections(uint64_t seed, int skip, int lanes, int cands) {
    tpim_stream st;
    int l, r = 0;
    sa_rng_seed(&st.rng, seed);
    st.left = 0;
    for (l = 0; l < skip; l++) sa_rng_next(&st.rng);
    for (l = 0; l < lanes; l++) {
        uint32_t u = tpim_draw(&st);
        r += (u * (uint32_t)cands) % 65536u < 65536u % (uint32_t)cands;
    }
    return r;
}

/* Search seeds until the reference rejects at least `want` draws in one
 * allocation of req (seeds are first filtered with tpim_stage_rejections
 * for the stage given by skip, lanes, cands), then compare the library
 * with it for that seed and a few more allocations.  Returns the number of
 * mismatches, or -1 if no seed was found. */
static long tpim_forced(int n, int m, int iterations, const uint64_t *req, long want, long max_seeds,
                        int skip, int lanes, int cands) {
    static tpim_cfg c;
    ta_switch al;
    long s;
    for (s = 0; s < max_seeds; s++) {
        tpim_stream st;
        int out_of[64], in_of[64];
        if (tpim_stage_rejections((uint64_t)s * 0x9E3779B97F4A7C15ull + 12345, skip, lanes, cands) < want)
            continue;
        sa_rng_seed(&st.rng, (uint64_t)s * 0x9E3779B97F4A7C15ull + 12345);
        st.left = 0;
        st.rejections = 0;
        tpim_setup(&al, &c, n, m, iterations, 0);
        tpim_allocate(&c, &st, req, NULL, NULL, out_of, in_of);
        if (st.rejections >= want) {
            long bad = 0;
            int t, i;
            tpim_setup(&al, &c, n, m, iterations, (uint64_t)s * 0x9E3779B97F4A7C15ull + 12345);
            sa_rng_seed(&st.rng, (uint64_t)s * 0x9E3779B97F4A7C15ull + 12345);
            st.left = 0;
            for (t = 0; t < 3; t++) {
                sa_match mt;
                int size = tpim_allocate(&c, &st, req, NULL, NULL, out_of, in_of);
                sa_switch_allocate(&al.a, req, NULL, NULL, &mt);
                bad += size != mt.size || st.rng.state != al.a.rng.state;
                for (i = 0; i < n; i++) bad += out_of[i] != mt.output_of[i];
            }
            return bad;
        }
    }
    return -1;
}

/* The rare Lemire rejections and their redraws (which the random workload
 * seldom meets: below 64/65536 per lane), at n <= 16, m <= 8 and beyond,
 * in the grant stage and in the accept stage, and two rejected lanes in
 * one stage (the second continues the redraw stream where the first
 * stopped). */
ST_TEST(pim_redraws_match_reference) {
    uint64_t req[64];
    int i;
    /* Grant: 11 candidates per output (65536 mod 11 = 9). */
    for (i = 0; i < 11; i++) req[i] = 0x7F;
    ST_EQ(0, tpim_forced(11, 7, 1, req, 1, 200000, 0, 7, 11));
    ST_EQ(0, tpim_forced(11, 7, SA_ITERATE_TO_CONVERGENCE, req, 1, 200000, 0, 7, 11));
    ST_EQ(0, tpim_forced(11, 7, 1, req, 2, 4000000, 0, 7, 11));
    /* Accept: one input granted by all 6 outputs (65536 mod 6 = 4); its
     * stage starts after the grant stage's 2 outputs. */
    req[0] = 0x3F;
    ST_EQ(0, tpim_forced(1, 6, 1, req, 1, 400000, 2, 1, 6));
    /* 63 x 40: 63 candidates (65536 mod 63 = 16), twice in a stage. */
    for (i = 0; i < 63; i++) req[i] = ta_low_mask(40);
    ST_EQ(0, tpim_forced(63, 40, 1, req, 1, 40000, 0, 40, 63));
    ST_EQ(0, tpim_forced(63, 40, 1, req, 2, 400000, 0, 40, 63));
    /* Accept at 1 x 63: 63 grants (after 16 grant outputs). */
    req[0] = ta_low_mask(63);
    ST_EQ(0, tpim_forced(1, 63, 1, req, 1, 100000, 16, 1, 63));
}

/* Chi-square statistic of counts against equal expectations; every count
 * outside `allowed` must be 0 (returns -1 otherwise). */
static double tpim_chi2(const long *count, int cells, uint64_t allowed, long trials) {
    int i, k = ta_bit_count(allowed);
    double chi = 0, e = (double)trials / k;
    for (i = 0; i < cells; i++) {
        if (!((allowed >> i) & 1u)) {
            if (count[i] != 0) return -1;
            continue;
        }
        chi += (count[i] - e) * (count[i] - e) / e;
    }
    return chi;
}

/* A bound that a correct sampler exceeds with negligible probability
 * (mean df, sd sqrt(2 df); 8 sd) and a biased one fails. */
static double tpim_chi2_bound(int df) { return df + 8.0 * sqrt(2.0 * df); }

/* The grant: one output requested by the inputs of `who` (n inputs); its
 * grant is always accepted, so input_of[0] is the grant. */
static double tpim_grant_chi2(int n, uint64_t who, long trials, uint64_t seed) {
    static tpim_cfg c;
    ta_switch al;
    sa_match mt;
    uint64_t req[64];
    long count[64], t;
    int i;
    tpim_setup(&al, &c, n, 1, 1, seed);
    for (i = 0; i < 64; i++) {
        req[i] = i < n ? (who >> i) & 1u : 0;
        count[i] = 0;
    }
    for (t = 0; t < trials; t++) {
        sa_switch_allocate(&al.a, req, NULL, NULL, &mt);
        if (mt.input_of[0] < 0) return -1;
        count[mt.input_of[0]]++;
    }
    return tpim_chi2(count, 64, who, trials);
}

/* The accept: one input requesting the outputs of `what` (m outputs), each
 * output's only requester, so it is granted by all of them. */
static double tpim_accept_chi2(int m, uint64_t what, long trials, uint64_t seed) {
    static tpim_cfg c;
    ta_switch al;
    sa_match mt;
    uint64_t req[1];
    long count[64], t;
    int i;
    tpim_setup(&al, &c, 1, m, 1, seed);
    req[0] = what;
    for (i = 0; i < 64; i++) count[i] = 0;
    for (t = 0; t < trials; t++) {
        sa_switch_allocate(&al.a, req, NULL, NULL, &mt);
        if (mt.output_of[0] < 0) return -1;
        count[mt.output_of[0]]++;
    }
    return tpim_chi2(count, 64, what, trials);
}

ST_TEST(pim_grant_is_uniform) {
    static const struct { int n; uint64_t who; } cases[] = {
        { 16, 0x8007 },                 /* sparse, uneven: {0, 1, 2, 15} */
        { 16, 0xFFFF },                 /* dense */
        { 11, 0x7FF },                  /* 11 candidates */
        { 13, 0x1A4B },                 /* 6 scattered candidates */
        { 64, 0x8000000000000007ull },  /* {0, 1, 2, 63} */
        { 63, 0x7FFFFFFFFFFFFFFFull },  /* 63 candidates */
        { 40, 0x8421084210ull } };      /* 8 evenly spread */
    int q;
    for (q = 0; q < 7; q++) {
        long trials = cases[q].n <= 16 ? 200000 : 60000;
        double chi = tpim_grant_chi2(cases[q].n, cases[q].who, trials, 100 + (uint64_t)q);
        int df = ta_bit_count(cases[q].who) - 1;
        ST_CHECKF(chi >= 0 && chi < tpim_chi2_bound(df), "case %d: chi2 %.1f, df %d", q, chi, df);
    }
}

ST_TEST(pim_accept_is_uniform) {
    static const struct { int m; uint64_t what; } cases[] = {
        { 7, 0x49 },                    /* {0, 3, 6} */
        { 8, 0xFF },                    /* dense */
        { 7, 0x7E },                    /* 6 grants */
        { 64, 0x8000000000000007ull },  /* {0, 1, 2, 63} */
        { 63, 0x7FFFFFFFFFFFFFFFull },  /* 63 grants */
        { 20, 0xA5A5Aull } };           /* 10 */
    int q;
    for (q = 0; q < 6; q++) {
        long trials = cases[q].m <= 8 ? 200000 : 60000;
        double chi = tpim_accept_chi2(cases[q].m, cases[q].what, trials, 200 + (uint64_t)q);
        int df = ta_bit_count(cases[q].what) - 1;
        ST_CHECKF(chi >= 0 && chi < tpim_chi2_bound(df), "case %d: chi2 %.1f, df %d", q, chi, df);
    }
}

/* Independence of the draws: two outputs (lanes in the same 64-bit output
 * of the generator and lanes in different ones) with three requesters
 * each, and two inputs with three grants each: the 9 joint outcomes are
 * equally likely. */
ST_TEST(pim_draws_are_independent) {
    static const int lane_b[3] = { 1, 5, 7 };
    int q;
    for (q = 0; q < 4; q++) {
        static tpim_cfg c;
        ta_switch al;
        sa_match mt;
        uint64_t req[8];
        long count[9], t, trials = 180000;
        int i, cell;
        double chi = 0;
        if (q < 3) {
            /* outputs 0 and lane_b[q]; inputs 0-2 request the first, 3-5 the second */
            int b = lane_b[q];
            tpim_setup(&al, &c, 6, 8, 1, 300 + (uint64_t)q);
            for (i = 0; i < 6; i++) req[i] = (uint64_t)1 << (i < 3 ? 0 : b);
            for (i = 0; i < 9; i++) count[i] = 0;
            for (t = 0; t < trials; t++) {
                sa_switch_allocate(&al.a, req, NULL, NULL, &mt);
                cell = mt.input_of[0] * 3 + (mt.input_of[b] - 3);
                if (cell < 0 || cell > 8) { ST_CHECK(0); return; }
                count[cell]++;
            }
        } else {
            /* inputs 0 and 9 (different generator outputs) accept among 3 grants each */
            tpim_setup(&al, &c, 10, 6, 1, 333);
            for (i = 0; i < 10; i++) req[i % 8] = 0;
            {
                uint64_t r10[10] = { 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0x38 };
                for (i = 0; i < 9; i++) count[i] = 0;
                for (t = 0; t < trials; t++) {
                    sa_switch_allocate(&al.a, r10, NULL, NULL, &mt);
                    cell = mt.output_of[0] * 3 + (mt.output_of[9] - 3);
                    if (cell < 0 || cell > 8) { ST_CHECK(0); return; }
                    count[cell]++;
                }
            }
        }
        for (i = 0; i < 9; i++) {
            double e = trials / 9.0;
            chi += (count[i] - e) * (count[i] - e) / e;
        }
        ST_CHECKF(chi < tpim_chi2_bound(8), "case %d: chi2 %.1f", q, chi);
    }
}
