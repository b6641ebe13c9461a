/* SPDX-License-Identifier: MIT */
/* test_sim.c - the SeaStar network model of examples/common/seastar_net.h:
 * delivery times worked out by hand on 2- and 4-node networks, packet
 * conservation under every traffic pattern beyond saturation, determinism,
 * and the merging shares of seed 000 Figure 4. */
#include "st_test.h"
#include "../examples/common/seastar_net.h"

/* A 1-D network with small, distinct delays so that every term of a
 * hand-computed delivery time is visible: router 3, link 5, credit 2,
 * ejection 1 flit per cycle. */
static void sim_test_params(ss_params *p, int k, int mesh) {
    ss_params_default(p, k, 1, 1);
    p->mesh[0] = mesh;
    p->router_delay = 3;
    p->link_delay = 5;
    p->credit_delay = 2;
    p->eject_bw = 1.0;
}

static void sim_quiet_traffic(sim_traffic *t) {
    sim_traffic_default(t);
    t->load = 0.0;          /* only packets the test sends */
}

/* Run until want_delivered packets have been delivered or until cycle
 * limit; returns the cycle reached, or 0 on timeout. */
static uint64_t sim_run_until_delivered(ss_net *net, uint64_t want_delivered, uint64_t limit) {
    while (net->delivered < want_delivered && net->now < limit) ss_step(net);
    return net->delivered >= want_delivered ? net->now : 0;
}

ST_TEST(sim_two_node_delivery_time_by_hand) {
    /* 2-node line: node 0 sends a 4-flit packet to node 1 at cycle 0.
     * Injected and routed at 0, arbitrates at 0+R = 3, header reaches
     * router 1 at 3+L = 8, arbitrates for the processor port at 8+R = 11,
     * and the tail is ejected 4 cycles later: 15 = 2R + L + 4. */
    ss_params p;
    sim_traffic t;
    ss_net net;
    sim_test_params(&p, 2, 1);
    sim_quiet_traffic(&t);
    ST_CHECK(ss_net_init(&net, &p, &t, 1) == NULL);
    ss_send(&net, 0, 1, 4, 0);
    ST_CHECK(sim_run_until_delivered(&net, 1, 100) > 0);
    ST_EQ(1, (int)net.delivered);
    ST_EQ_U64(15, net.st.latency.max);
    ST_EQ(1, (int)net.st.hops);
    ST_CHECK(ss_audit(&net) == NULL);
    ss_net_free(&net);
}

ST_TEST(sim_two_node_back_to_back_packets) {
    /* Two 4-flit packets sent together: the second waits 4 cycles for the
     * injection channel and then follows 4 cycles behind the first on
     * every link: delivered at 15 and 19. */
    ss_params p;
    sim_traffic t;
    ss_net net;
    sim_test_params(&p, 2, 1);
    sim_quiet_traffic(&t);
    ST_CHECK(ss_net_init(&net, &p, &t, 1) == NULL);
    ss_send(&net, 0, 1, 4, 0);
    ss_send(&net, 0, 1, 4, 0);
    ST_CHECK(sim_run_until_delivered(&net, 2, 100) > 0);
    ST_EQ_U64(15, net.st.latency.min);
    ST_EQ_U64(19, net.st.latency.max);
    ST_CHECK(ss_audit(&net) == NULL);
    ss_net_free(&net);
}

ST_TEST(sim_four_node_ring_hops_and_dateline) {
    /* 4-node ring: zero-load latency is H (R + L) + R + size for H hops.
     * 0->2 is a tie (k/2): seastar_route.h sends it + from the even
     * coordinate 0 (2 hops); 3->0 crosses the dateline (1 hop); 1->0 is 1
     * hop going -.  Each packet alone in the network. */
    static const int src[4] = { 0, 3, 1, 2 }, dst[4] = { 2, 0, 0, 1 }, hops[4] = { 2, 1, 1, 1 };
    int i;
    for (i = 0; i < 4; i++) {
        ss_params p;
        sim_traffic t;
        ss_net net;
        uint64_t want = (uint64_t)(hops[i] * (3 + 5) + 3 + 2);
        sim_test_params(&p, 4, 0);
        sim_quiet_traffic(&t);
        ST_CHECK(ss_net_init(&net, &p, &t, 1) == NULL);
        ss_send(&net, (uint32_t)src[i], (uint32_t)dst[i], 2, 0);
        ST_CHECK(sim_run_until_delivered(&net, 1, 200) > 0);
        ST_CHECKF(net.st.latency.max == want, "%d->%d: latency %llu, want %llu", src[i], dst[i],
                  (unsigned long long)net.st.latency.max, (unsigned long long)want);
        ST_EQ(hops[i], (int)net.st.hops);
        ss_net_free(&net);
    }
}

/* Three 2-flit packets meet at router 2's +x output of a 4-node line:
 * A1 and A2 from node 1 (sent together at cycle 0, so A2 follows 2 cycles
 * behind A1: ready at router 2 at 11 and 13) and B from node 2 (sent at
 * cycle 8, ready at 11).  Round-robin grants A1 at 11 (its pointer starts
 * at candidate 0, the -x input), then B at 13 (the pointer has moved past
 * A1's candidate), then A2 at 15.  Age-based grants A1, A2, then B: A1 and
 * A2 have age 2 (bias 1 at each of the two input ports they crossed), B
 * has age 1, and the timestamp does not move (AGE_CLOCK_PERIOD 0x1000).
 * The three leave router 2 at 11, 13, 15 and are ejected at node 3 at 21,
 * 23, 25 (leave + L + R + 2).  Latencies, sorted: round-robin A1 21, B 23-8
 * = 15, A2 25; age-based A1 21, A2 23, B 25-8 = 17. */
static void sim_meet(int age, uint64_t *lat) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    uint32_t v, k = 0;
    sim_test_params(&p, 4, 1);
    p.age.age_rr_select = age ? ~(uint64_t)0 : 0;
    sim_quiet_traffic(&t);
    lat[0] = lat[1] = lat[2] = 0;
    if (ss_net_init(&net, &p, &t, 1) != NULL) return;
    ss_send(&net, 1, 3, 2, 0);
    ss_send(&net, 1, 3, 2, 0);
    while (net.now < 8) ss_step(&net);
    ss_send(&net, 2, 3, 2, 0);
    ss_run(&net, 60, NULL, NULL);
    for (v = 0; v < 100 && k < 3; v++) {
        uint32_t c = net.st.latency.hist[v];
        while (c-- && k < 3) lat[k++] = v;
    }
    ss_net_free(&net);
}

ST_TEST(sim_four_node_contention_round_robin_vs_age) {
    uint64_t rr[3], ag[3];
    sim_meet(0, rr);
    sim_meet(1, ag);
    ST_EQ_U64(15, rr[0]);
    ST_EQ_U64(21, rr[1]);
    ST_EQ_U64(25, rr[2]);
    ST_EQ_U64(17, ag[0]);
    ST_EQ_U64(21, ag[1]);
    ST_EQ_U64(23, ag[2]);
}

/* Conservation: every pattern, beyond saturation, mesh and torus; the
 * audit walks every queue and pending event every 300 cycles. */
static const char *sim_conserve(sim_pattern pat, int mesh, int age, uint64_t seed) {
    static uint32_t perm[64];
    ss_params p;
    sim_traffic t;
    ss_net net;
    const char *err;
    int c;
    uint64_t s = seed;
    ss_params_default(&p, 4, 4, 4);
    p.mesh[1] = mesh;
    p.age.age_rr_select = age ? ~(uint64_t)0 : 0;
    p.age.age_clock_period = 2;       /* wraps the timestamp: epochs change */
    sim_traffic_default(&t);
    t.pattern = pat;
    t.load = 0.9;                     /* far beyond saturation */
    t.sizes[0] = 1; t.sizes[1] = 5; t.sizes[2] = 9; t.num_sizes = 3;
    t.rsp_fraction = 0.3;
    t.hotspot = 5;
    t.src_queue_max = 8;
    for (c = 0; c < 64; c++) perm[c] = (uint32_t)c;
    for (c = 63; c > 0; c--) {
        int j = (int)st_rand_below(&s, (uint64_t)(c + 1));
        uint32_t x = perm[c]; perm[c] = perm[j]; perm[j] = x;
    }
    t.perm = perm;
    err = ss_net_init(&net, &p, &t, seed);
    if (err) return err;
    for (c = 0; c < 6; c++) {
        ss_run(&net, 300, NULL, NULL);
        err = ss_audit(&net);
        if (err) break;
    }
    if (!err && net.delivered == 0) err = "nothing delivered";
    if (!err && net.created <= net.delivered) err = "no packets in flight beyond saturation";
    ss_net_free(&net);
    return err;
}

ST_TEST(sim_conservation_every_pattern_beyond_saturation) {
    int pat, mesh, age;
    for (pat = 0; pat < SIM_PATTERN_COUNT; pat++)
        for (mesh = 0; mesh < 2; mesh++)
            for (age = 0; age < 2; age++) {
                const char *err = sim_conserve((sim_pattern)pat, mesh, age, 11u + (uint64_t)pat);
                ST_CHECKF(err == NULL, "%s mesh=%d age=%d: %s", sim_pattern_name((sim_pattern)pat),
                          mesh, age, err);
            }
}

/* A 4x4 torus run 500 cycles beyond saturation (load 1.0), so that its
 * source queues and staging buffers hold several packets; 1-flit packets
 * (up to 16 in a staging buffer) if one_flit, else the default sizes.
 * Returns whether the audit passes. */
static int sim_saturated_4x4(ss_net *net, int one_flit) {
    ss_params p;
    sim_traffic t;
    ss_params_default(&p, 4, 4, 1);
    sim_traffic_default(&t);
    t.load = 1.0;
    if (one_flit) { t.num_sizes = 1; t.sizes[0] = 1; }
    if (ss_net_init(net, &p, &t, 3) != NULL) return 0;
    ss_run(net, 500, NULL, NULL);
    return ss_audit(net) == NULL;
}

ST_TEST(sim_audit_catches_a_lost_packet) {
    /* The audit is the oracle of the test above: make sure it can fail. */
    ss_net net;
    uint32_t r, i, found = 0;
    ST_CHECK(sim_saturated_4x4(&net, 0));
    /* unlink the second packet of some non-empty source queue */
    for (r = 0; r < net.n && !found; r++) {
        sim_fifo *q = &net.nic[r].srcq;
        if (q->head != SIM_NIL && net.pool.pkt[q->head].next != SIM_NIL) {
            i = net.pool.pkt[q->head].next;
            net.pool.pkt[q->head].next = net.pool.pkt[i].next;
            if (q->tail == i) q->tail = q->head;
            found = 1;
        }
    }
    ST_CHECK(found);
    ST_CHECK(ss_audit(&net) != NULL);
    ss_net_free(&net);
}

ST_TEST(sim_audit_catches_a_stale_copy) {
    /* Arbitration reads copies of the staged packets' fields (a head's in
     * its output port, the others' in the packet ahead): the audit compares
     * them with the packets, and must fail when one is stale. */
    ss_net net;
    uint32_t oi, c, found = 0;
    ST_CHECK(sim_saturated_4x4(&net, 1));
    for (oi = 0; oi < net.n * SS_PORTS && !found; oi++)
        for (c = 0; c < SS_CANDS && !found; c++) {
            ss_out *o = &net.out[oi];
            uint32_t h = o->cand[c].q.head;
            if (h == SIM_NIL || net.pool.pkt[h].next == SIM_NIL) continue;
            found = 1;
            net.pool.pkt[h].behind_age ^= 1u;       /* the note of the second */
            ST_CHECK(ss_audit(&net) != NULL);
            net.pool.pkt[h].behind_age ^= 1u;
            ST_CHECK(ss_audit(&net) == NULL);
            o->cand[c].vc ^= 1u;                    /* the head's copy */
            ST_CHECK(ss_audit(&net) != NULL);
            o->cand[c].vc ^= 1u;
            ST_CHECK(ss_audit(&net) == NULL);
        }
    ST_CHECK(found);
    ss_net_free(&net);
}

static void sim_fingerprint(uint64_t seed, uint64_t out[4]) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    uint32_t i;
    ss_params_default(&p, 4, 4, 4);
    p.age.age_clock_period = 8;
    sim_traffic_default(&t);
    t.load = 0.3;
    t.sizes[0] = 1; t.sizes[1] = 9; t.num_sizes = 2;
    out[0] = out[1] = out[2] = out[3] = 0;
    if (ss_net_init(&net, &p, &t, seed) != NULL) return;
    ss_run(&net, 3000, NULL, NULL);
    out[0] = net.delivered;
    out[1] = (uint64_t)net.st.latency.sum;
    out[2] = net.st.latency.max;
    for (i = 0; i < net.n; i++) out[3] = out[3] * 1000003u + net.st.src_flits[i];
    ss_net_free(&net);
}

ST_TEST(sim_determinism_same_seed_same_result) {
    uint64_t a[4], b[4], c[4];
    int i;
    sim_fingerprint(42, a);
    sim_fingerprint(42, b);
    sim_fingerprint(43, c);
    ST_CHECK(a[0] > 0);
    for (i = 0; i < 4; i++) ST_EQ_U64(a[i], b[i]);
    ST_CHECK(a[0] != c[0] || a[1] != c[1] || a[3] != c[3]);
}

/* Figure 4: P0..P6 send to P7 at saturation; shares of P7's bandwidth. */
static int sim_shares(int mesh, int age, uint32_t period, double *share, uint64_t *pkts) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    int i;
    ss_params_default(&p, 8, 1, 1);
    p.mesh[0] = mesh;
    p.tie_plus = 1;
    p.age.age_rr_select = age ? ~(uint64_t)0 : 0;
    p.age.age_clock_period = period;
    sim_traffic_default(&t);
    t.pattern = SIM_HOTSPOT;
    t.hotspot = 7;
    t.load = 1.0;
    t.src_queue_max = 16;
    if (ss_net_init(&net, &p, &t, 7) != NULL) return 0;
    ss_run(&net, 5000, NULL, NULL);
    ss_stats_reset(&net);
    ss_run(&net, 40000, NULL, NULL);
    for (i = 0; i < 7; i++) share[i] = (double)net.st.src_flits[i] / (double)net.st.delivered_flits;
    *pkts = net.st.delivered;
    i = ss_audit(&net) == NULL;
    ss_net_free(&net);
    return i;
}

ST_TEST(sim_merging_shares_round_robin_mesh_and_torus) {
    /* Round-robin merging gives the paper's shares in steady state: each
     * merge point alternates between its two inputs.  A measurement window
     * cuts each source's stream at its two ends (up to one packet each),
     * and a through packet that reaches a merge just after the output
     * freed lets the other input go twice, which moves one more packet
     * between the two: tolerance 3 / (packets delivered) (about 0.0017 for
     * the ~1,800 packets here, against 1/64 = 0.0156 for the smallest
     * share). */
    static const double mesh[7] = { 1 / 64., 1 / 64., 1 / 32., 1 / 16., 1 / 8., 1 / 4., 1 / 2. };
    static const double torus[7] = { 1 / 4., 1 / 8., 1 / 8., 1 / 16., 1 / 16., 1 / 8., 1 / 4. };
    double s[7], tol;
    uint64_t n;
    int i;
    ST_CHECK(sim_shares(1, 0, 8, s, &n));
    tol = 3.0 / (double)n;
    for (i = 0; i < 7; i++) ST_NEAR(mesh[i], s[i], tol);
    ST_CHECK(sim_shares(0, 0, 8, s, &n));
    tol = 3.0 / (double)n;
    for (i = 0; i < 7; i++) ST_NEAR(torus[i], s[i], tol);
}

/* The shares age-based merging should give when every FIFO on the way is
 * full, ages do not saturate and the bias is small next to the queueing
 * time: the arbiter at each merge makes the head packets' ages equal, and
 * by Little's law the age of a head is the time it spent in full FIFOs, a
 * FIFO's length over its drain rate, summed along its path.  A source that
 * merges into a stream of total rate S, after a source of rate s_prev, so
 * gets 1/s = 1/s_prev + 1/S (all FIFOs hold the same number of packets).
 * mesh: the chain P0, P1, ..., P6; torus (ties going +): the chains P3..P6
 * and P2, P1, P0, which merge once more at P7's processor port. */
static void sim_littles_law_chain(int n, double *s, double *total) {
    int i;
    s[0] = 1;
    *total = 1;
    for (i = 1; i < n; i++) { s[i] = 1 / (1 / s[i - 1] + 1 / *total); *total += s[i]; }
}

static void sim_littles_law(int mesh, double *share) {
    double a[7], b[3], ta, tb, ratio, kb;
    int i;
    if (mesh) {
        sim_littles_law_chain(7, a, &ta);
        for (i = 0; i < 7; i++) share[i] = a[i] / ta;
        return;
    }
    sim_littles_law_chain(4, a, &ta);
    sim_littles_law_chain(3, b, &tb);
    ratio = (1 / a[3] + 1 / ta) / (1 / b[2] + 1 / tb);
    kb = 1 / (ratio * ta + tb);
    for (i = 0; i < 4; i++) share[3 + i] = ratio * kb * a[i];
    for (i = 0; i < 3; i++) share[2 - i] = kb * b[i];
}

ST_TEST(sim_merging_shares_age_based_follow_littles_law) {
    /* At seed 000's Section 3 period (18) and the default bias 1 the ages
     * neither saturate nor are ruled by the bias (a hop queues for hundreds
     * of cycles at saturation), so the shares are the prediction above:
     * mesh 0.341, 0.170, 0.128, 0.107, 0.093, 0.084, 0.077 for P0..P6 --
     * uneven, and favouring the far sources.  Tolerance 0.01 per share. */
    double s[7], want[7];
    uint64_t n;
    int i, mesh;
    for (mesh = 1; mesh >= 0; mesh--) {
        ST_CHECK(sim_shares(mesh, 1, 18, s, &n));
        sim_littles_law(mesh, want);
        for (i = 0; i < 7; i++)
            ST_CHECKF(fabs(s[i] - want[i]) < 0.01, "%s P%d: share %.4f, Little's law %.4f",
                      mesh ? "mesh" : "torus", i, s[i], want[i]);
    }
}

ST_TEST(sim_merging_shares_reset_period_farthest_wins) {
    /* At the reset value 0x1000 the timestamp moves once in 4096 cycles, so
     * an age is the packet's hop count: at every merge the through stream
     * is older, and the farthest source (P0 on the mesh; P3, 4 hops the +
     * way, on the torus) takes most of P7's bandwidth: more than the other
     * six sources together.  (On the mesh every merge favours the through
     * stream, so P0 takes far more: over 3/4.) */
    double s[7];
    uint64_t n;
    ST_CHECK(sim_shares(1, 1, 0x1000, s, &n));
    ST_CHECKF(s[0] > 0.75, "mesh P0 share %.4f", s[0]);
    ST_CHECK(sim_shares(0, 1, 0x1000, s, &n));
    ST_CHECKF(s[3] > 0.5, "torus P3 share %.4f", s[3]);
}

/* Faults: tables from seastar_route.h's fault-aware generators; no packet
 * may use a failed link or touch a failed node, and conservation holds
 * beyond saturation. */
static const char *sim_faulty(int gen) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    const char *err;
    uint32_t r;
    int d, i;
    ss_params_default(&p, 4, 4, 4);
    p.table_gen = gen;
    p.num_fault_links = 3;
    p.fault_link[0][0] = 0;  p.fault_link[0][1] = 0;    /* node 0, +x */
    p.fault_link[1][0] = 5;  p.fault_link[1][1] = 2;    /* node 5, +y */
    p.fault_link[2][0] = 42; p.fault_link[2][1] = 5;    /* node 42, -z */
    p.num_fault_nodes = 1;
    p.fault_node[0] = 21;
    sim_traffic_default(&t);
    t.load = 0.8;
    t.sizes[0] = 1; t.sizes[1] = 9; t.num_sizes = 2;
    t.src_queue_max = 8;
    err = ss_net_init(&net, &p, &t, 5);
    if (err) return err;
    ss_run(&net, 2000, NULL, NULL);
    err = ss_audit(&net);
    if (!err && net.delivered == 0) err = "nothing delivered";
    for (r = 0; r < net.n && !err; r++)
        for (d = 0; d < 6; d++) {
            int dead = r == 21 || sr_neighbor(&net.topo, r, d) == 21;
            for (i = 0; i < 3; i++) {
                uint32_t other = sr_neighbor(&net.topo, p.fault_link[i][0], (int)p.fault_link[i][1]);
                if ((r == p.fault_link[i][0] && d == (int)p.fault_link[i][1]) ||
                    (r == other && d == ((int)p.fault_link[i][1] ^ 1)))
                    dead = 1;
            }
            if (dead) {
                const ss_out *o = &net.out[r * SS_PORTS + d];
                if (o->pkts[0] + o->pkts[1] + o->pkts[2] + o->pkts[3] != 0) err = "a packet crossed a failed link or node";
            }
        }
    if (!err && net.st.src_flits[21] != 0) err = "the failed node sent packets";
    ss_net_free(&net);
    return err;
}

ST_TEST(sim_faults_avoided_and_conserved) {
    const char *e = sim_faulty(SS_TABLES_SEARCH);
    ST_CHECKF(e == NULL, "search tables: %s", e);
    e = sim_faulty(SS_TABLES_SEASTAR);
    ST_CHECKF(e == NULL, "SeaStar-rule tables: %s", e);
}
