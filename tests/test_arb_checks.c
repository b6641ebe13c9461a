/* test_arb_checks.c - the bounds and state checks of seastar_arb.h: the
 * Section 3 functions refuse sizes their arithmetic cannot hold, the
 * read-port assignment never returns a packet that cannot use its output,
 * and the sa_*_check functions accept every state the library produces and
 * refuse corrupted ones (whose use would otherwise read past an array or
 * shift past a word). */
#include <limits.h>
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"

ST_TEST(checks_section3_refuses_radices_and_sizes_out_of_range) {
    double h = -1;
    int radix[3] = { 11, 12, 16 };
    sa_period_desc d;
    sa_period_estimate e;
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops_dim(INT_MAX, 0, &h));
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops_dim(SA_MAX_RADIX + 1, 1, &h));
    ST_EQ(SA_OK, sa_average_hops_dim(SA_MAX_RADIX, 0, &h));
    ST_NEAR((SA_MAX_RADIX + 1) / 3.0, h, 1e-9);
    ST_EQ(SA_ERR_RADIX_RANGE, sa_channel_load(INT_MAX, 1, 0, &h));
    radix[1] = INT_MAX;
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops(3, radix, NULL, &h));
    memset(&d, 0, sizeof d);
    d.num_dims = 3;
    d.radix[0] = 11;
    d.radix[1] = 12;
    d.radix[2] = 16;
    ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e));
    ST_EQ(18, e.age_clock_period); /* seed 000 Section 3.2's worked example */
    d.input_buffer_flits = INT_MAX;
    ST_EQ(SA_ERR_PARAM_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.input_buffer_flits = SA_MAX_FLITS;
    d.staging_buffer_flits = SA_MAX_FLITS;
    d.max_packet_flits = 1;
    d.vcs_sharing_link = 64;
    ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e)); /* the largest: exact */
    ST_EQ(2 * SA_MAX_FLITS * 64, e.queue_cycles_per_hop);
    d.vcs_sharing_link = 65;
    ST_EQ(SA_ERR_PARAM_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.vcs_sharing_link = 2;
    d.target_age = SA_MAX_AGE + 1;
    ST_EQ(SA_ERR_PARAM_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.target_age = 0;
    d.radix[2] = SA_MAX_RADIX + 1;
    ST_EQ(SA_ERR_RADIX_RANGE, sa_age_clock_period_estimate(&d, &e));
}

/* Brute force: can two distinct packets serve out0 and out1 (-1: none)? */
static int tc_pair_exists(const uint64_t *po, int np, int out0, int out1) {
    int p, q;
    for (p = -1; p < np; p++)
        for (q = -1; q < np; q++) {
            if ((out0 >= 0) != (p >= 0) || (out1 >= 0) != (q >= 0) || (p >= 0 && p == q)) continue;
            if (p >= 0 && !((po[p] >> out0) & 1u)) continue;
            if (q >= 0 && !((po[q] >> out1) & 1u)) continue;
            return 1;
        }
    return 0;
}

ST_TEST(checks_read_buffer_assign_only_returns_packets_that_serve_their_output) {
    uint64_t seed = 31, po[6] = { 0xF, 0xF };
    int p0 = 7, p1 = 7, t;
    /* both packets can use outputs 0-3; output 4 has none */
    ST_EQ(SA_ERR_REQUEST_RANGE, sa_read_buffer_assign(po, 2, 2, 4, &p0, &p1));
    ST_EQ(-1, p0);
    ST_EQ(-1, p1);
    ST_EQ(SA_ERR_REQUEST_RANGE, sa_read_buffer_assign(po, 2, 70, -1, &p0, &p1));
    ST_EQ(SA_ERR_REQUEST_RANGE, sa_read_buffer_assign(po, 2, -2, -1, &p0, &p1));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_read_buffer_assign(po, -1, 0, 1, &p0, &p1));
    for (t = 0; t < 200000; t++) {
        int np = (int)st_rand_below(&seed, 7), out0, out1, p;
        sa_result r;
        for (p = 0; p < np; p++) po[p] = st_rand(&seed) & st_rand(&seed) & 0xFF;
        out0 = (int)st_rand_below(&seed, 9) - 1;
        out1 = (int)st_rand_below(&seed, 9) - 1;
        r = sa_read_buffer_assign(po, np, out0, out1, &p0, &p1);
        ST_EQ(tc_pair_exists(po, np, out0, out1) ? SA_OK : SA_ERR_REQUEST_RANGE, r);
        if (r != SA_OK) continue;
        ST_CHECK(out0 < 0 ? p0 == -1 : p0 >= 0 && ((po[p0] >> out0) & 1u));
        ST_CHECK(out1 < 0 ? p1 == -1 : p1 >= 0 && ((po[p1] >> out1) & 1u));
        ST_CHECK(p0 < 0 || p0 != p1);
    }
}

ST_TEST(checks_accept_every_state_the_library_produces) {
    uint64_t seed = 32;
    int t, k;
    sa_age_config cfg;
    sa_age_clock clk;
    sa_output_arb arb;
    sa_rr_arb rr;
    sa_matrix_arb mx;
    uint16_t f[64];
    int nf = 0;
    sa_age_config_default(&cfg, 7);
    cfg.age_clock_period = 3;
    ST_EQ(SA_OK, sa_age_clock_init(&clk, &cfg));
    ST_EQ(SA_OK, sa_output_arb_init(&arb, 6, 4));
    ST_EQ(SA_OK, sa_rr_arb_init(&rr, 37));
    ST_EQ(SA_OK, sa_matrix_arb_init(&mx, 37));
    for (t = 0; t < 200000; t++) {
        uint8_t ages[24];
        sa_grant g;
        if (nf < 64 && st_rand_below(&seed, 2)) {
            f[nf] = (uint16_t)st_rand_below(&seed, 256);
            ST_EQ(SA_OK, sa_age_arrive(&clk, &cfg, (int)st_rand_below(&seed, 7), (int)st_rand_below(&seed, 4), &f[nf]));
            nf++;
        } else if (nf > 0) {
            ST_EQ(SA_OK, sa_age_depart(&clk, &f[--nf]));
        }
        sa_age_tick(&clk);
        for (k = 0; k < 24; k++) ages[k] = (uint8_t)st_rand(&seed);
        sa_output_arbitrate(&arb, &cfg, &clk, st_rand(&seed) & 0xFFFFFF, ages, &g);
        sa_rr_update(&rr, sa_rr_select(&rr, st_rand(&seed) & (((uint64_t)1 << 37) - 1)));
        sa_matrix_update(&mx, sa_matrix_select(&mx, st_rand(&seed) & (((uint64_t)1 << 37) - 1)));
        if (t % 97 == 0) {
            ST_EQ(SA_OK, sa_age_clock_check(&clk));
            ST_EQ(SA_OK, sa_output_arb_check(&arb));
            ST_EQ(SA_OK, sa_rr_arb_check(&rr));
            ST_EQ(SA_OK, sa_matrix_arb_check(&mx));
        }
    }
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
        sa_alloc_desc d;
        sa_alloc a;
        sa_match mt;
        uint64_t req[64], mem[4096];
        uint8_t prio[64 * 64];
        int i;
        memset(&d, 0, sizeof d);
        d.kind = (sa_alloc_kind)k;
        d.num_inputs = k == SA_ALLOC_MCM ? 12 : 40;
        d.num_outputs = 33;
        d.iterations = 2;
        ST_CHECK(sa_alloc_memory_size(&d) <= sizeof mem);
        ST_EQ(SA_OK, sa_alloc_init(&a, &d, mem, sizeof mem));
        for (t = 0; t < 300; t++) {
            for (i = 0; i < d.num_inputs; i++) req[i] = st_rand(&seed) & (((uint64_t)1 << d.num_outputs) - 1);
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 4);
            sa_allocate(&a, req, t & 1 ? prio : NULL, NULL, &mt);
            ST_EQ(SA_OK, sa_alloc_check(&a));
        }
    }
}

ST_TEST(checks_refuse_corrupted_states) {
    sa_age_config cfg;
    sa_age_clock clk, c2;
    sa_output_arb arb, a2;
    sa_rr_arb rr;
    sa_matrix_arb mx;
    sa_alloc al, b;
    sa_alloc_desc d;
    uint64_t mem[1024];
    sa_age_config_default(&cfg, 7);
    ST_EQ(SA_OK, sa_age_clock_init(&clk, &cfg));
    c2 = clk; c2.epoch = 2;                   ST_EQ(SA_ERR_STATE, sa_age_clock_check(&c2));
    c2 = clk; c2.inhibit = 1;                 ST_EQ(SA_ERR_STATE, sa_age_clock_check(&c2));
    c2 = clk; c2.age_clock_period_reg = 0;    ST_EQ(SA_ERR_STATE, sa_age_clock_check(&c2));
    c2 = clk; c2.age_clock_period_reg = clk.age_clock_period + 1; ST_EQ(SA_ERR_STATE, sa_age_clock_check(&c2));
    ST_EQ(SA_ERR_NULL, sa_age_clock_check(NULL));
    ST_EQ(SA_OK, sa_output_arb_init(&arb, 6, 4));
    a2 = arb; a2.grant_counter = 64;          ST_EQ(SA_ERR_STATE, sa_output_arb_check(&a2));
    a2 = arb; a2.rr_pointer = 24;             ST_EQ(SA_ERR_STATE, sa_output_arb_check(&a2));
    a2 = arb; a2.num_vcs = 9;                 ST_EQ(SA_ERR_STATE, sa_output_arb_check(&a2));
    a2 = arb; a2.vc_reciprocal = 1;           ST_EQ(SA_ERR_STATE, sa_output_arb_check(&a2));
    sa_rr_arb_init(&rr, 5);
    rr.pointer = 5;                           ST_EQ(SA_ERR_STATE, sa_rr_arb_check(&rr));
    sa_matrix_arb_init(&mx, 5);
    mx.rank[3] = mx.rank[4];                  ST_EQ(SA_ERR_STATE, sa_matrix_arb_check(&mx));
    memset(&d, 0, sizeof d);
    d.kind = SA_ALLOC_ISLIP;
    d.num_inputs = 6;
    d.num_outputs = 5;
    ST_EQ(SA_OK, sa_alloc_init(&al, &d, mem, sizeof mem));
    ST_EQ(SA_OK, sa_alloc_check(&al));
    b = al; b.num_outputs = 65;               ST_EQ(SA_ERR_STATE, sa_alloc_check(&b));
    b = al; b.start_row = 6;                  ST_EQ(SA_ERR_STATE, sa_alloc_check(&b));
    b = al; b.iterations = 0;                 ST_EQ(SA_ERR_STATE, sa_alloc_check(&b));
    b = al; b.memory_size = 1;                ST_EQ(SA_ERR_STATE, sa_alloc_check(&b));
    al.out_ptr[2] = 6;                        ST_EQ(SA_ERR_STATE, sa_alloc_check(&al));
    al.out_ptr[2] = 0;
    al.connect[1] = 1u << 5;                  ST_EQ(SA_ERR_STATE, sa_alloc_check(&al));
}

ST_TEST(checks_corrupted_hot_path_fields_stay_in_bounds) {
    /* A grant counter past 63 and an epoch past 1 must not shift past the
     * word or write past packet_count (UBSan and ASan run this test). */
    sa_age_config cfg;
    sa_age_clock clk;
    sa_output_arb arb;
    sa_grant g;
    uint8_t ages[24] = { 0 };
    uint16_t f = 3;
    int c;
    sa_age_config_default(&cfg, 7);
    sa_age_clock_init(&clk, &cfg);
    sa_output_arb_init(&arb, 6, 4);
    arb.grant_counter = 200;
    c = sa_output_select(&arb, &cfg, &clk, 0xF0, ages, &g);
    ST_CHECK(c >= 4 && c < 8);
    clk.epoch = 7;
    ST_EQ(SA_OK, sa_age_arrive(&clk, &cfg, 0, 0, &f));
    ST_EQ(1, (int)(clk.packet_count[0] + clk.packet_count[1]));
    ST_EQ(SA_ERR_STATE, sa_age_clock_check(&clk));
}
