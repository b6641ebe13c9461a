/* test_alloc_spaa.c - whole SPAA allocations (sa_allocate, and the
 * pipelined sa_spaa_nominate / sa_spaa_grant) against a literal SPAA
 * written from the paper's steps (spaa_model.h), decision by decision and
 * with the arbiters' orders read back through the public API; and request
 * bits outside the outputs, for every allocator kind. */
#include "st_test.h"
/* Preconditions go to a counter here (the tests of request bits outside the outputs). */
static int ts_assert_failures;
#define SA_ASSERT(c) ((c) ? (void)0 : (void)ts_assert_failures++)
#include "../seastar_arb.h"
#include "alloc_test_util.h"
#include "spaa_model.h"

/* ------------------------------------------------------------ whole SPAA */

/* sa_allocate (priorities or not) against the literal SPAA, matching and
 * state, over random sizes 1..SA_ALLOC_MAX. */
ST_TEST(spaa_allocate_matches_literal_spaa) {
    ts_assert_failures = 0;
    ST_CHECK(ts_allocate_vs_literal(33, ST_LONG ? 2000 : 200));
    ST_EQ(0, ts_assert_failures);
}

/* Request bits at or above num_outputs break sa_allocate's precondition
 * (SA_ASSERT fires); with the check disabled they are ignored: the same
 * matching as without them. */
ST_TEST(spaa_bits_outside_outputs_never_match) {
    static const int sizes[4][2] = { { 16, 7 }, { 7, 7 }, { 16, 16 }, { 64, 64 } };
    uint64_t seed = 36;
    int s, t, i;
    for (s = 0; s < 4; s++) {
        static ta_alloc al, ref;
        sa_alloc_desc d;
        int n = sizes[s][0], m = sizes[s][1];
        if (n > SA_ALLOC_MAX || m > SA_ALLOC_MAX) continue;
        ta_desc_of(&d, SA_ALLOC_SPAA, n, m);
        ST_EQ(SA_OK, ta_alloc_init(&al, &d));
        for (t = 0; t < 50; t++) {
            uint64_t req[64], clean[64];
            sa_match mt, want;
            ST_EQ(SA_OK, ta_alloc_copy(&ref, &al));
            for (i = 0; i < n; i++) {
                clean[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
                req[i] = clean[i] | (st_rand(&seed) & ~ta_low_mask(m));
            }
            ts_assert_failures = 0;
            sa_allocate(&ref.a, clean, NULL, NULL, &want);
            ST_EQ(0, ts_assert_failures);
            sa_allocate(&al.a, req, NULL, NULL, &mt);
            ST_CHECK(m == 64 || ts_assert_failures > 0);
            ST_EQ(want.size, mt.size);
            ST_EQ_U64(want.outputs, mt.outputs);
            for (i = 0; i < n; i++) ST_EQ(want.output_of[i], mt.output_of[i]);
        }
    }
}

/* The same precondition for every allocator kind: out-of-range bits make
 * SA_ASSERT fire and, with the check disabled, are no undefined behaviour
 * (ASan/UBSan build) and still give a matching of requested, connected
 * cells, with consistent masks and size, as sa_allocate's documentation
 * says (test_alloc_diff.c compares the builds on such requests). */
ST_TEST(alloc_bits_outside_outputs_give_a_matching_of_connected_cells) {
    static const int sizes[6][2] = { { 16, 7 }, { 7, 7 }, { 8, 8 }, { 16, 16 }, { 33, 20 }, { 64, 64 } };
    static uint8_t prio[64 * 64];
    uint64_t seed = 37;
    int s, kind, t, i;
    for (i = 0; i < 64 * 64; i++) prio[i] = (uint8_t)st_rand(&seed);
    for (kind = 0; kind < SA_ALLOC_KIND_COUNT; kind++)
        for (s = 0; s < 6; s++) {
            static ta_alloc al;
            sa_alloc_desc d;
            int n = sizes[s][0], m = sizes[s][1];
            if (n > SA_ALLOC_MAX || m > SA_ALLOC_MAX) continue;
            ta_desc_of(&d, (sa_alloc_kind)kind, n, m);
            d.iterations = (s & 1) ? SA_ITERATE_TO_CONVERGENCE : 1;
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
            ST_EQ(SA_OK, ta_alloc_init(&al, &d));
            for (t = 0; t < 20; t++) {
                uint64_t req[64], ins = 0, outs = 0;
                sa_match mt;
                int size = 0;
                for (i = 0; i < n; i++) req[i] = st_rand(&seed) | ((m < 64) ? (uint64_t)1 << m : 0);
                ts_assert_failures = 0;
                ST_EQ(sa_allocate(&al.a, req, kind == SA_ALLOC_OPF ? prio : NULL, NULL, &mt), mt.size);
                ST_CHECK(m == 64 || ts_assert_failures > 0);
                for (i = 0; i < n; i++) {
                    int j = mt.output_of[i];
                    if (j < 0) continue;
                    ST_CHECKF(j < m && ((req[i] >> j) & 1u) && !((d.no_connect[i] >> j) & 1u) && mt.input_of[j] == i,
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
ST_TEST(spaa_pipelined_and_paired_match_literal_spaa) {
    ST_CHECK(ts_pipelined_vs_literal(34, ST_LONG ? 1000 : 100));
}

/* The probe of the arbiters' orders fails when the allocator has moved on
 * without the model (it can tell states apart): a few allocations on the
 * allocator alone, of input arbiters only (one output) and of output
 * arbiters only (one input), then the probe. */
ST_TEST(spaa_probe_tells_states_apart) {
    static const int sizes[3][2] = { { 1, 5 }, { 5, 1 }, { 16, 7 } };
    int s;
    for (s = 0; s < 3; s++) {
        static ta_alloc x;
        sa_alloc_desc d;
        ts_spaa ref;
        sa_match mt;
        uint64_t req[16];
        int i;
        ta_desc_of(&d, SA_ALLOC_SPAA, sizes[s][0], sizes[s][1]);
        ST_EQ(SA_OK, ta_alloc_init(&x, &d));
        ts_spaa_init(&ref, &d);
        ST_CHECK(ts_probe(&x, &ref));
        for (i = 0; i < d.num_inputs; i++) req[i] = ta_low_mask(d.num_outputs);
        sa_allocate(&x.a, req, NULL, NULL, &mt);
        ST_CHECK(mt.size > 0);
        ST_CHECK(!ts_probe(&x, &ref));
    }
}
