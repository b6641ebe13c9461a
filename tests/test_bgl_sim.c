/* SPDX-License-Identifier: MIT */
/* test_bgl_sim.c - the BlueGene/L router model (examples/common/
 * bgl_router.h) in the simulator core, at small sizes.  Oracles: the
 * zero-load latency of single packets worked out by hand from the timing
 * rules and the torus distance; the conservation audit (every packet found
 * once), every token back home and no token-ack owed once the network has
 * drained; the stall check, which must find no deadlock at overload with
 * the configurations the verifier proves (bubble escape under the paper's
 * rule, the dateline pair), with packets of every size. */
#include "st_test.h"
#include "../examples/common/bgl_router.h"
#include "nc_parts_util.h"

/* A k x k x k torus. */
static sr_net tb_torus(int k) {
    sr_net_desc d;
    sr_net n;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_CUBE;
    d.cube.num_dims = 3;
    d.cube.radix[0] = d.cube.radix[1] = d.cube.radix[2] = k;
    if (sr_net_init(&n, &d) != SR_OK) sim_die("tb_torus: bad description");
    return n;
}

/* Build a network of the model; NULL or why not. */
static const char *tb_build(nc_net *net, bgl_model *m, const sr_net *topo, const bgl_params *bp,
                            const sim_traffic *t, uint64_t seed) {
    nc_params p;
    const char *err;
    bgl_nc_params(&p, bp, 0);
    err = nc_net_init(net, topo, &p, t, seed);
    if (err) return err;
    err = bgl_init(m, net, bp, seed);
    if (err) nc_net_free(net);
    return err;
}

typedef struct tb_last { uint64_t t; uint32_t hops; } tb_last;

static void tb_note(void *ctx, const sim_packet *pk, uint64_t now) {
    tb_last *l = (tb_last *)ctx;
    l->t = now - pk->t_create;
    l->hops = pk->hops;
}

/* Ring distance on a torus of radix k. */
static int tb_ring(int a, int b, int k) {
    int d = a > b ? a - b : b - a;
    return d < k - d ? d : k - d;
}

/* One packet at a time on an empty 4x4x4 torus: its latency is the
 * injection channel (1 cycle), the arbitration pipeline at the source,
 * per hop the link (1) and at every later router the bypass pipeline, the
 * ejection channel (1) and the tail (size - 1). */
ST_TEST(bgl_sim_zero_load_latency) {
    sr_net topo = tb_torus(4);
    bgl_params bp;
    sim_traffic t;
    nc_net net;
    bgl_model m;
    tb_last last;
    uint32_t s, d;
    bgl_params_default(&bp);
    bp.pipeline = 5;
    bp.bypass_pipeline = 3;
    sim_traffic_default(&t);
    t.load = 0;
    t.sizes[0] = 64;
    ST_CHECK(tb_build(&net, &m, &topo, &bp, &t, 1) == NULL);
    net.on_deliver = tb_note;
    net.on_deliver_ctx = &last;
    for (s = 0; s < 64; s += 7)
        for (d = 0; d < 64; d += 5) {
            int h, size = 8 * (int)(1 + (s + d) % 8);
            uint64_t want;
            if (s == d) continue;
            h = tb_ring((int)s / 16, (int)d / 16, 4) + tb_ring((int)s / 4 % 4, (int)d / 4 % 4, 4) +
                tb_ring((int)s % 4, (int)d % 4, 4);
            nc_send_packet(&net, s, d, size);
            last.t = 0;
            nc_run(&net, 400, NULL, NULL);
            want = 1 + 5 + 1 + (uint64_t)(h - 1) * (3 + 1) + 3 + 1 + (uint64_t)size - 1;
            ST_CHECKF(last.t == want && last.hops == (uint32_t)h, "%u to %u (%d bytes): latency %llu, want %llu; hops %u, want %d",
                      s, d, size * 4, (unsigned long long)last.t, (unsigned long long)want, last.hops, h);
            if (st__ctx->failed) break;
        }
    ST_CHECK(nc_audit(&net) == NULL);
    ST_CHECK(bgl_tokens_home(&m, &net) == NULL);
    bgl_free(&m);
    nc_net_free(&net);
}

/* Overload (the hot region at full load, every packet size), then no new
 * packets until the network drains: packets keep moving, the audit finds
 * every packet once, and at the end every packet is delivered, every
 * token is back and no token-ack is owed. */
static void tb_overload(st_ctx *st__ctx, int escape, int order, int dynamic) {
    sr_net topo = tb_torus(4);
    bgl_params bp;
    sim_traffic t;
    nc_net net;
    bgl_model m;
    int i, c;
    bgl_params_default(&bp);
    bp.cfg.escape = escape;
    bp.cfg.escape_order = order;
    bp.cfg.num_dynamic = dynamic;
    bp.cfg.dynamic_bytes = 256;      /* small buffers fill fast */
    bp.cfg.escape_bytes = 512;
    sim_traffic_default(&t);
    t.pattern = SIM_HOT_REGION;
    t.load = 1.0;
    t.num_sizes = 8;
    for (i = 0; i < 8; i++) t.sizes[i] = 8 * (i + 1);
    ST_CHECK(tb_build(&net, &m, &topo, &bp, &t, 7) == NULL);
    for (c = 0; c < 6; c++) {
        nc_run(&net, 1000, NULL, NULL);
        ST_CHECK(!nc_stalled(&net, 500));
        ST_CHECK(nc_audit(&net) == NULL);
    }
    ST_CHECK(m.st.escape_hops > 0);
    net.inj_threshold = 0;
    for (c = 0; c < 400 && nc_in_flight(&net) > 0; c++) {
        nc_run(&net, 1000, NULL, NULL);
        ST_CHECK(!nc_stalled(&net, 500));
    }
    ST_EQ(0, (long long)nc_in_flight(&net));
    ST_CHECK(nc_audit(&net) == NULL);
    ST_CHECK(bgl_tokens_home(&m, &net) == NULL);
    bgl_free(&m);
    nc_net_free(&net);
}

ST_TEST(bgl_sim_overload_bubble) { tb_overload(st__ctx, SR_BGL_ESCAPE_BUBBLE, SR_BGL_ORDER_DIMENSION, 1); }
ST_TEST(bgl_sim_overload_dateline) { tb_overload(st__ctx, SR_BGL_ESCAPE_DATELINE, SR_BGL_ORDER_DIRECTION, 2); }

/* Run the model on topo in `parts` parts in turn in one process, handing
 * the outboxes over at every multiple of the lookahead; the sorted
 * delivery log in *log and the model's counters summed over the parts in
 * *st.  Returns 0, or -1 when an audit fails or packets were lost in the
 * hand-overs. */
static int tb_run_parts(const sr_net *topo, const bgl_params *bp, const sim_traffic *t, int parts,
                        uint64_t cycles, nc_tlog *log, bgl_stats *st) {
    nc_net net[3];
    bgl_model m[3];
    nc_params p;
    int q, bad;
    memset(log, 0, sizeof *log);
    memset(st, 0, sizeof *st);
    bgl_nc_params(&p, bp, 0);
    for (q = 0; q < parts; q++) {
        if (nc_net_init_part(&net[q], topo, &p, t, 5, q, parts) != NULL) return -1;
        if (bgl_init(&m[q], &net[q], bp, 5) != NULL) return -1;
    }
    bad = nc_tparts_run(net, parts, cycles, log);
    for (q = 0; q < parts; q++) {
        st->hops += m[q].st.hops;
        st->escape_hops += m[q].st.escape_hops;
        st->acks += m[q].st.acks;
        st->unblocking += m[q].st.unblocking;
        st->packet_flits += m[q].st.packet_flits;
        st->ack_flits += m[q].st.ack_flits;
        bgl_free(&m[q]);
        nc_net_free(&net[q]);
    }
    return bad;
}

/* Every cut of the torus into parts delivers every packet at the same
 * cycle, with the same hops, as the sequential run, and the model's
 * counters summed over the parts equal the sequential run's: the model
 * touches only the router it is called for, as the core's contract asks
 * (JSQ and SLQ draw from per-router streams, the header travels with the
 * packet).  Dynamic routing under the hot region with mixed sizes, then
 * the dateline pair in direction order. */
ST_TEST(bgl_sim_parts_deliver_as_sequential) {
    sr_net topo = tb_torus(4);
    int cfg;
    for (cfg = 0; cfg < 2; cfg++) {
        bgl_params bp;
        sim_traffic t;
        nc_tlog ref, got;
        bgl_stats sref, sgot;
        int parts, i;
        bgl_params_default(&bp);
        if (cfg) { bp.cfg.escape = SR_BGL_ESCAPE_DATELINE; bp.cfg.escape_order = SR_BGL_ORDER_DIRECTION; }
        sim_traffic_default(&t);
        t.pattern = cfg ? SIM_UNIFORM : SIM_HOT_REGION;
        t.load = 0.7;
        t.num_sizes = 4;
        for (i = 0; i < 4; i++) t.sizes[i] = 16 * (i + 1);
        ST_CHECK(tb_run_parts(&topo, &bp, &t, 1, 1500, &ref, &sref) == 0);
        ST_CHECK(ref.n > 500 && sref.acks > 0);
        for (parts = 2; parts <= 3; parts++) {
            size_t k, diff = 0;
            ST_CHECK(tb_run_parts(&topo, &bp, &t, parts, 1500, &got, &sgot) == 0);
            ST_EQ((long long)ref.n, (long long)got.n);
            for (k = 0; k < ref.n && k < got.n; k++) diff += memcmp(&ref.rec[k], &got.rec[k], sizeof(nc_trec)) != 0;
            free(got.rec);
            ST_EQ(0, (long long)diff);
            ST_EQ((long long)sref.hops, (long long)sgot.hops);
            ST_EQ((long long)sref.escape_hops, (long long)sgot.escape_hops);
            ST_EQ((long long)sref.acks, (long long)sgot.acks);
            ST_EQ((long long)sref.unblocking, (long long)sgot.unblocking);
            ST_EQ((long long)sref.packet_flits + (long long)sref.ack_flits,
                  (long long)sgot.packet_flits + (long long)sgot.ack_flits);
        }
        free(ref.rec);
    }
}

/* The model refuses what cannot work, one message each. */
ST_TEST(bgl_sim_bad_input) {
    bgl_params bp;
    bgl_params_default(&bp);
    ST_CHECK(bgl_params_check(&bp) == NULL);
    bp.cfg.num_dynamic = 0;
    ST_CHECK(strstr(bgl_params_check(&bp), "dynamic VC") != NULL);
    bgl_params_default(&bp);
    bp.cfg.escape_bytes = 256;
    ST_CHECK(strstr(bgl_params_check(&bp), "two full-sized packets") != NULL);
    bgl_params_default(&bp);
    bp.paths = 0;
    ST_CHECK(bgl_params_check(&bp) != NULL);
    ST_CHECK(bgl_size_check(8) == NULL && bgl_size_check(64) == NULL);
    ST_CHECK(bgl_size_check(12) != NULL && bgl_size_check(72) != NULL && bgl_size_check(0) != NULL);
}
