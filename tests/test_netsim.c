/* SPDX-License-Identifier: MIT */
/* test_netsim.c - the network simulator core (examples/common/net_core.h)
 * with the input-queued router (examples/common/iq_router.h), at small
 * sizes.  Oracles: the zero-load latency of single packets worked out by
 * hand from the timing rules and a breadth-first search over the built
 * network; the conservation audit (every packet found once) and the
 * credits of a drained network (every credit back home); the sequential
 * run, which every cut into parts must reproduce packet for packet; the
 * stall check, which must find the deadlock of a torus without dateline
 * VCs and none with them. */
#include "st_test.h"
#include "../examples/common/iq_router.h"
#include "nc_parts_util.h"

/* A cube network: radices k[0..dims), mesh if mesh != 0. */
static sr_net tn_cube(int dims, const int *k, int mesh) {
    sr_net_desc d;
    sr_net n;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_CUBE;
    d.cube.num_dims = dims;
    for (i = 0; i < dims; i++) { d.cube.radix[i] = k[i]; d.cube.mesh[i] = mesh; }
    if (sr_net_init(&n, &d) != SR_OK) sim_die("tn_cube: bad description");
    return n;
}

/* Build net (part `part` of `parts`) and its router model; NULL or why not. */
static const char *tn_build(nc_net *net, iq_model *m, const sr_net *topo, const nc_params *p, const iq_params *ip,
                            const sim_traffic *t, uint64_t seed, int part, int parts) {
    const char *err = nc_net_init_part(net, topo, p, t, seed, part, parts);
    if (err) return err;
    err = iq_init(m, net, ip, seed);
    if (err) nc_net_free(net);
    return err;
}

/* Defaults without random traffic (the tests send their own packets):
 * packets up to max_packet flits, the given pipeline. */
static void tn_quiet(nc_params *p, iq_params *ip, sim_traffic *t, int max_packet, int pipeline) {
    nc_params_default(p);
    p->max_packet_flits = max_packet;
    iq_params_default(ip);
    ip->pipeline = pipeline;
    sim_traffic_default(t);
    t->load = 0;
    t->sizes[0] = 1;
}

/* Routers between a and b over the built network's channels (BFS). */
static int tn_distance(const nc_net *net, uint32_t a, uint32_t b) {
    int *dist = (int *)sim_calloc(net->routers, sizeof(int)), d;
    uint32_t *q = (uint32_t *)sim_calloc(net->routers, sizeof(uint32_t)), h = 0, t = 0, r;
    for (r = 0; r < net->routers; r++) dist[r] = -1;
    dist[a] = 0;
    q[t++] = a;
    while (h < t) {
        int p;
        r = q[h++];
        for (p = 0; p < net->nports[r]; p++) {
            const nc_chan *c = nc_out_chan(net, r, p);
            if (c->to == SR_NO_NODE || c->kind == SR_PORT_TERMINAL || dist[c->to] >= 0) continue;
            dist[c->to] = dist[r] + 1;
            q[t++] = c->to;
        }
    }
    d = dist[b];
    free(dist);
    free(q);
    return d;
}

typedef struct tn_last { uint64_t t; uint32_t src, dst, hops; } tn_last;

static void tn_note(void *ctx, const sim_packet *pk, uint64_t now) {
    tn_last *l = (tn_last *)ctx;
    l->t = now - pk->t_create;
    l->src = pk->src;
    l->dst = pk->dst;
    l->hops = pk->hops;
}

/* Zero load: a packet of s flits over H router-to-router hops takes the
 * injection channel (L_t), pipeline cycles in each of the H + 1 routers,
 * H channels of latency L, the ejection channel (L_t), and s - 1 cycles
 * for its tail. */
ST_TEST(netsim_zero_load_latency_by_hand) {
    static const int k3[3] = { 4, 3, 5 }, k2[2] = { 5, 4 };
    int shape, s;
    for (shape = 0; shape < 2; shape++) {
        sr_net topo = shape == 0 ? tn_cube(3, k3, 0) : tn_cube(2, k2, 1);
        nc_params p;
        iq_params ip;
        sim_traffic t;
        nc_net net;
        iq_model m;
        tn_last last;
        uint64_t seed = 3;
        int k;
        tn_quiet(&p, &ip, &t, 8, 4);
        p.latency[SR_PORT_TERMINAL] = 2;
        p.latency[SR_PORT_DIM] = 3;
        ST_CHECK(tn_build(&net, &m, &topo, &p, &ip, &t, 1, 0, 1) == NULL);
        net.on_deliver = tn_note;
        net.on_deliver_ctx = &last;
        for (k = 0; k < 40; k++) {
            uint32_t src = (uint32_t)st_rand_below(&seed, net.terminals), dst = (uint32_t)st_rand_below(&seed, net.terminals);
            int H;
            if (src == dst) continue;
            s = 1 + (int)st_rand_below(&seed, 8);
            nc_send_packet(&net, src, dst, s);
            last.t = 0;
            nc_run(&net, 200, NULL, NULL);
            H = tn_distance(&net, src, dst);
            ST_CHECKF(last.src == src && last.dst == dst, "%u -> %u not delivered", src, dst);
            ST_EQ(H, (int)last.hops);
            ST_EQ(2 + (H + 1) * 4 + H * 3 + 2 + s - 1, (long long)last.t);
        }
        ST_CHECK(nc_audit(&net) == NULL);
        iq_free(&m);
        nc_net_free(&net);
    }
}

/* Two packets into one output: the second waits for the first's tail. */
ST_TEST(netsim_contention_by_hand) {
    static const int k1[1] = { 4 };
    sr_net topo = tn_cube(1, k1, 1);
    nc_params p;
    iq_params ip;
    sim_traffic t;
    nc_net net;
    iq_model m;
    sim_summary s;
    tn_quiet(&p, &ip, &t, 5, 2);
    ST_CHECK(tn_build(&net, &m, &topo, &p, &ip, &t, 1, 0, 1) == NULL);
    /* terminals 0 and 2 both send 5 flits to terminal 1 at cycle 0: both
     * headers reach router 1 at 1 + 2 + 1 = 4 (0 from the west over one
     * router, 2 from the east) and ask for its ejection port at 4 + 2 =
     * 6; one leaves then and is delivered at 6 + 1 + 4 = 11, the other
     * leaves when the link is free, at 11, and is delivered at 16 */
    nc_send_packet(&net, 0, 1, 5);
    nc_send_packet(&net, 2, 1, 5);
    nc_run(&net, 40, NULL, NULL);
    nc_summarize(&net, &s, NULL);
    ST_EQ(2, (long long)s.delivered);
    ST_EQ(11, (long long)net.st.latency.min);
    ST_EQ(16, (long long)net.st.latency.max);
    iq_free(&m);
    nc_net_free(&net);
}

/* Beyond saturation with mixed sizes and capped source queues: the audit
 * finds every packet once at every check; then, with injection stopped,
 * the network drains and every credit comes home. */
ST_TEST(netsim_conservation_and_credits_return) {
    static const int k2[2] = { 4, 4 }, k3[3] = { 3, 3, 2 };
    int shape;
    for (shape = 0; shape < 2; shape++) {
        sr_net topo = shape == 0 ? tn_cube(2, k2, 0) : tn_cube(3, k3, 1);
        nc_params p;
        iq_params ip;
        sim_traffic t;
        nc_net net;
        iq_model m;
        int c;
        nc_params_default(&p);
        p.vcs = 3;
        p.max_packet_flits = 8;
        p.buf_flits[SR_PORT_DIM] = 9;
        p.latency[SR_PORT_DIM] = 2;
        iq_params_default(&ip);
        ip.speedup = shape + 1;
        ip.va_kind = shape ? SA_SWITCH_PIM : SA_SWITCH_ISLIP;
        sim_traffic_default(&t);
        t.load = 0.9;
        t.sizes[0] = 1; t.sizes[1] = 3; t.sizes[2] = 8; t.num_sizes = 3;
        t.src_queue_max = 6;
        ST_CHECK(tn_build(&net, &m, &topo, &p, &ip, &t, 7, 0, 1) == NULL);
        for (c = 0; c < 8; c++) {
            const char *err;
            nc_run(&net, 250, NULL, NULL);
            err = nc_audit(&net);
            ST_CHECKF(err == NULL, "shape %d: %s", shape, err);
        }
        ST_CHECK(net.delivered > 1000 && nc_in_network(&net) > 0);
        net.inj_threshold = 0;
        for (c = 0; c < 100 && nc_in_flight(&net) > 0; c++) nc_run(&net, 100, NULL, NULL);
        ST_EQ(0, (long long)nc_in_flight(&net));
        ST_EQ(net.created, net.delivered);
        {
            const char *err = iq_credits_home(&m, &net);
            ST_CHECKF(err == NULL, "shape %d: %s", shape, err);
        }
        ST_CHECK(nc_audit(&net) == NULL);
        iq_free(&m);
        nc_net_free(&net);
    }
}

/* What a delivery shows of a packet. */
/* Run topo in `parts` parts in turn in one process, handing the outboxes
 * over at every multiple of the lookahead; the sorted delivery log in
 * *log.  Returns 0, or -1 when an audit fails or packets were lost in
 * the hand-overs. */
static int tn_run_parts(const sr_net *topo, const nc_params *p, const iq_params *ip, const sim_traffic *t,
                        int parts, uint64_t cycles, nc_tlog *log) {
    nc_net net[4];
    iq_model m[4];
    int q, bad;
    memset(log, 0, sizeof *log);
    for (q = 0; q < parts; q++)
        if (tn_build(&net[q], &m[q], topo, p, ip, t, 5, q, parts) != NULL) return -1;
    bad = nc_tparts_run(net, parts, cycles, log);
    for (q = 0; q < parts; q++) {
        iq_free(&m[q]);
        nc_net_free(&net[q]);
    }
    return bad;
}

/* Every cut of a network into parts delivers every packet at the same
 * cycle, with the same hops, as the sequential run. */
ST_TEST(netsim_parts_deliver_as_sequential) {
    static const int k3[3] = { 4, 3, 3 };
    sr_net topo = tn_cube(3, k3, 0);
    nc_params p;
    iq_params ip;
    sim_traffic t;
    nc_tlog ref, got;
    int parts;
    nc_params_default(&p);
    p.latency[SR_PORT_DIM] = 3;
    p.max_packet_flits = 4;
    iq_params_default(&ip);
    ip.va_kind = SA_SWITCH_PIM;          /* per-router random numbers too */
    sim_traffic_default(&t);
    t.load = 0.5;
    t.sizes[0] = 1; t.sizes[1] = 4; t.num_sizes = 2;
    ST_CHECK(tn_run_parts(&topo, &p, &ip, &t, 1, 1500, &ref) == 0);
    ST_CHECK(ref.n > 3000);
    for (parts = 2; parts <= 3; parts++) {
        size_t k, diff = 0;
        ST_CHECK(tn_run_parts(&topo, &p, &ip, &t, parts, 1500, &got) == 0);
        ST_EQ((long long)ref.n, (long long)got.n);
        for (k = 0; k < ref.n; k++) diff += memcmp(&ref.rec[k], &got.rec[k], sizeof(nc_trec)) != 0;
        free(got.rec);
        ST_EQ(0, (long long)diff);
    }
    free(ref.rec);
}

/* The creation times of every packet delivered, by source (on_deliver). */
typedef struct tn_created { uint64_t *t; uint32_t n, cap; } tn_created;
static void tn_on_create_log(void *ctx, const sim_packet *pk, uint64_t now) {
    tn_created *c = (tn_created *)ctx + pk->src;
    (void)now;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->t = (uint64_t *)realloc(c->t, c->cap * sizeof(uint64_t));
        if (c->t == NULL) sim_die("out of memory");
    }
    c->t[c->n++] = pk->t_create;
}
static int tn_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Each terminal creates a packet in a cycle with probability p, the same
 * every cycle and independent of the past (Bernoulli trials), whatever
 * the core does to draw them.  Oracles from the binomial and geometric
 * laws: the packets created over C cycles by T terminals (mean TCp), the
 * share of packets created the cycle after the one before at the same
 * terminal (p), the mean gap between them (1/p), each within 5 standard
 * errors; and a threshold set to 0 mid-run stops creation at once, a
 * threshold set back starts it again at the same rate. */
ST_TEST(netsim_generation_is_bernoulli_per_terminal) {
    static const int k2[2] = { 4, 4 };
    static const double ps[2] = { 0.02, 0.25 };
    sr_net topo = tn_cube(2, k2, 0);
    int which;
    for (which = 0; which < 2; which++) {
        const double pr = ps[which];
        const uint64_t C = which == 0 ? 20000 : 3000, stop_at = C, resume_at = C + 500, end = 2 * C + 500;
        tn_created log[16];
        nc_params p;
        iq_params ip;
        sim_traffic t;
        nc_net net;
        iq_model m;
        uint64_t th, created = 0, adjacent = 0, gaps = 0, gap_sum = 0, in_stop = 0;
        double mean, sd;
        uint32_t i, k;
        memset(log, 0, sizeof log);
        tn_quiet(&p, &ip, &t, 1, 1);
        t.load = pr;                          /* one-flit packets: p = load */
        ST_CHECK(tn_build(&net, &m, &topo, &p, &ip, &t, 11 + (uint64_t)which, 0, 1) == NULL);
        net.on_deliver = tn_on_create_log;
        net.on_deliver_ctx = log;
        th = net.inj_threshold;
        nc_run(&net, stop_at, NULL, NULL);
        net.inj_threshold = 0;
        nc_run(&net, resume_at - stop_at, NULL, NULL);
        net.inj_threshold = th;
        nc_run(&net, end - resume_at, NULL, NULL);
        net.inj_threshold = 0;
        for (k = 0; k < 100 && nc_in_flight(&net) > 0; k++) nc_run(&net, 100, NULL, NULL);
        ST_EQ(0, (long long)nc_in_flight(&net));
        for (i = 0; i < 16; i++) {
            qsort(log[i].t, log[i].n, sizeof(uint64_t), tn_cmp_u64);
            created += log[i].n;
            for (k = 0; k < log[i].n; k++) {
                if (log[i].t[k] >= stop_at && log[i].t[k] < resume_at) in_stop++;
                if (k > 0 && log[i].t[k - 1] >= resume_at) {   /* gaps of the second run */
                    uint64_t g = log[i].t[k] - log[i].t[k - 1];
                    adjacent += g == 1;
                    gap_sum += g;
                    gaps++;
                }
            }
            free(log[i].t);
        }
        ST_EQ(0, (long long)in_stop);
        ST_EQ((long long)net.created, (long long)created);
        mean = 16.0 * (double)(2 * C) * pr;
        sd = sqrt(16.0 * (double)(2 * C) * pr * (1 - pr));
        ST_CHECKF(fabs((double)created - mean) < 5 * sd, "p %.2f: %llu created, mean %.0f sd %.1f", pr,
                  (unsigned long long)created, mean, sd);
        sd = sqrt(pr * (1 - pr) / (double)gaps);
        ST_CHECKF(fabs((double)adjacent / (double)gaps - pr) < 5 * sd, "p %.2f: %.4f of gaps are 1", pr,
                  (double)adjacent / (double)gaps);
        sd = sqrt((1 - pr) / (pr * pr) / (double)gaps);
        ST_CHECKF(fabs((double)gap_sum / (double)gaps - 1 / pr) < 5 * sd, "p %.2f: mean gap %.3f", pr,
                  (double)gap_sum / (double)gaps);
        iq_free(&m);
        nc_net_free(&net);
    }
}

/* A torus routed in dimension order on one VC deadlocks at high load (the
 * verifier refutes it: a ring of channels waiting on each other); the
 * stall check says so, and the waiting packet is described.  With its
 * two dateline VCs the same traffic, at twice the saturation load, moves
 * on. */
ST_TEST(netsim_stall_check_finds_the_deadlock) {
    static const int k2[2] = { 8, 4 };
    sr_net topo = tn_cube(2, k2, 0);
    int safe;
    for (safe = 0; safe < 2; safe++) {
        nc_params p;
        iq_params ip;
        sim_traffic t;
        nc_net net;
        iq_model m;
        int c, stalled = 0;
        char why[256] = "";
        uint32_t r;
        nc_params_default(&p);
        p.vcs = safe ? 2 : 1;
        p.max_packet_flits = 4;
        p.buf_flits[SR_PORT_DIM] = 4;
        iq_params_default(&ip);
        ip.routing.algorithm = SR_ALG_DOR;
        if (!safe) ip.routing.flags = SR_ROUTE_FEWER_VCS;
        sim_traffic_default(&t);
        t.load = 1.0;
        t.sizes[0] = 4;
        t.src_queue_max = 4;
        ST_CHECK(tn_build(&net, &m, &topo, &p, &ip, &t, 9, 0, 1) == NULL);
        for (c = 0; c < 40 && !stalled; c++) {
            nc_run(&net, 500, NULL, NULL);
            stalled = nc_stalled(&net, 300);
        }
        ST_CHECK(nc_audit(&net) == NULL);
        ST_EQ(!safe, stalled);
        for (r = 0; r < net.routers && !safe; r++)
            if (m.p.pipeline && net.model.waiting(&m, &net, r, why, sizeof why)) break;
        if (!safe) ST_CHECKF(strstr(why, "router ") != NULL, "no waiting packet described: %s", why);
        iq_free(&m);
        nc_net_free(&net);
    }
}
