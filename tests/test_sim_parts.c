/* SPDX-License-Identifier: MIT */
/* test_sim_parts.c - a network of examples/common/seastar_net.h cut into
 * parts (slabs of x-planes, as the MPI ranks of examples/common/ss_mpi.h
 * simulate them), run in turn in one process and handing their outboxes
 * over every lookahead cycles.  The oracle is the sequential run: every
 * packet must be delivered at the same cycle, with the same hops, latency
 * and header age, whatever the cut.  (tests/mpi.sh compares the summaries
 * of real MPI runs with the sequential program's.) */
#include "st_test.h"
#include "../examples/common/seastar_net.h"

/* What a delivery shows of a packet: a source creates at most one packet
 * per cycle, so (t_create, src) names it. */
typedef struct sp_rec {
    uint64_t t_create, t_inject, t_deliver;
    uint32_t src, dst;
    uint16_t age_field;
    uint8_t size, vc, hops;
} sp_rec;

typedef struct sp_log {
    sp_rec *rec;
    size_t n, cap;
} sp_log;

static void sp_on_deliver(void *ctx, const sim_packet *pk, uint64_t now) {
    sp_log *l = (sp_log *)ctx;
    sp_rec *r;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->rec = (sp_rec *)realloc(l->rec, l->cap * sizeof(sp_rec));
        if (!l->rec) sim_die("out of memory");
    }
    r = &l->rec[l->n++];
    memset(r, 0, sizeof *r);
    r->t_create = pk->t_create; r->t_inject = pk->t_inject; r->t_deliver = now;
    r->src = pk->src; r->dst = pk->dst; r->age_field = pk->age_field;
    r->size = pk->size; r->vc = pk->vc; r->hops = pk->hops;
}

static int sp_cmp(const void *a, const void *b) {
    const sp_rec *x = (const sp_rec *)a, *y = (const sp_rec *)b;
    if (x->t_create != y->t_create) return x->t_create < y->t_create ? -1 : 1;
    return x->src < y->src ? -1 : x->src > y->src;
}

/* Run p with t for cycles cycles in `parts` parts (1: the sequential
 * run), logging every delivery into *log, sorted.  Returns 0, or -1 when a
 * part failed its audit or the hand-overs lost a packet; *handed counts
 * the packets handed over, *in_flight those in the network at the end. */
static int sp_run(const ss_params *p, const sim_traffic *t, uint64_t seed, int parts, uint64_t cycles,
                  sp_log *log, uint64_t *handed, uint64_t *in_flight) {
    ss_net net[8];
    uint64_t c, exported = 0, imported = 0;
    int q, q2, bad = 0;
    memset(log, 0, sizeof *log);
    for (q = 0; q < parts; q++) {
        if (ss_net_init_part(&net[q], p, t, seed, q, parts) != NULL) return -1;
        net[q].on_deliver = sp_on_deliver;
        net[q].on_deliver_ctx = log;
    }
    for (c = 0; c < cycles; c++) {
        for (q = 0; q < parts; q++) ss_step(&net[q]);
        /* A hand-over every lookahead cycles, as ss_run does with an
         * exchange function (and every part sees the same cycle). */
        if (net[0].now % net[0].lookahead == 0 || c + 1 == cycles)
            for (q = 0; q < parts; q++)
                for (q2 = 0; q2 < parts; q2++) {
                    sim_outbox *b = &net[q].outbox[q2];
                    if (q2 == q) { bad |= b->len != 0; continue; }
                    ss_import(&net[q2], b->buf, b->len);
                    b->len = 0;
                }
    }
    *in_flight = 0;
    for (q = 0; q < parts; q++) {
        bad |= ss_audit(&net[q]) != NULL;
        *in_flight += ss_in_flight(&net[q]);
        exported += net[q].exported;
        imported += net[q].imported;
        ss_net_free(&net[q]);
    }
    *handed = exported;
    qsort(log->rec, log->n, sizeof(sp_rec), sp_cmp);
    return bad || exported != imported ? -1 : 0;
}

/* How many of got's deliveries differ from ref's (both sorted), among the
 * first of the shorter log; *n_got is got's count.  Frees got's records
 * and says how many differ, when any do, with what. */
static size_t sp_diff(const sp_log *ref, sp_log *got, size_t *n_got, const char *what) {
    size_t k, diff = 0;
    for (k = 0; k < ref->n && k < got->n; k++) diff += memcmp(&ref->rec[k], &got->rec[k], sizeof(sp_rec)) != 0;
    *n_got = got->n;
    free(got->rec);
    if (diff) printf("    %s: %zu of %zu deliveries differ\n", what, diff, ref->n);
    return diff;
}

/* Whether every cut of p into 2, 3 and kx parts delivers every packet as
 * the sequential run does. */
static void sp_check_cuts(st_ctx *st__ctx, const ss_params *p, const sim_traffic *t, uint64_t seed, uint64_t cycles) {
    sp_log ref, cut;
    uint64_t handed, in_flight, in_flight_ref;
    int cuts[3], i;
    cuts[0] = 2; cuts[1] = 3; cuts[2] = p->radix[0] < 8 ? p->radix[0] : 8;
    if (sp_run(p, t, seed, 1, cycles, &ref, &handed, &in_flight_ref) != 0 || handed != 0 || ref.n <= 100) {
        free(ref.rec);
        ST_CHECK(!"the sequential run fails its audit, hands packets over or delivers 100 packets or fewer");
    }
    for (i = 0; i < 3; i++) {
        size_t diff, n_cut;
        char what[64];
        int ok;
        if (cuts[i] > p->radix[0]) continue;
        ok = sp_run(p, t, seed, cuts[i], cycles, &cut, &handed, &in_flight) == 0 && in_flight == in_flight_ref;
        snprintf(what, sizeof what, "%d parts, against the sequential run", cuts[i]);
        diff = sp_diff(&ref, &cut, &n_cut, what);
        if (!ok || handed == 0 || n_cut != ref.n || diff) free(ref.rec);
        ST_CHECK(ok);
        ST_CHECK(handed > 0);
        ST_EQ_U64(ref.n, n_cut);
        ST_EQ_U64(0, diff);
    }
    free(ref.rec);
}

/* The networks both kinds of cut are checked on. */

/* A 4x4x4 torus past saturation: full buffers, stalls, mixed sizes and
 * responses, a short age-clock period. */
static void sp_torus(ss_params *p, sim_traffic *t) {
    ss_params_default(p, 4, 4, 4);
    p->age.age_clock_period = 8;
    sim_traffic_default(t);
    t->load = 0.5;
    t->sizes[0] = 1; t->sizes[1] = 9; t->num_sizes = 2;
    t->rsp_fraction = 0.3;
}

/* Lookahead 3 (the link delay), a longer credit delay, meshes in x and z,
 * 5 planes (cut unevenly into 2 and 3 parts). */
static void sp_uneven(ss_params *p, sim_traffic *t) {
    ss_params_default(p, 5, 4, 3);
    p->mesh[0] = p->mesh[2] = 1;
    p->link_delay = 3;
    p->credit_delay = 7;
    p->router_delay = 5;
    p->age.age_rr_select = 0x5555555555555555ull;
    sim_traffic_default(t);
    t->load = 0.4;
    t->pattern = SIM_TORNADO;
    t->sizes[0] = 3; t->sizes[1] = 9; t->num_sizes = 2;
}

/* An 8x8 torus with link and credit delays of 1: lookahead 1. */
static void sp_lookahead1(ss_params *p, sim_traffic *t) {
    ss_params_default(p, 8, 8, 1);
    p->link_delay = 1;
    p->credit_delay = 1;
    sim_traffic_default(t);
    t->load = 0.3;
    t->sizes[0] = 1; t->num_sizes = 1;
}

/* Search-generator tables around two failed links and a failed node. */
static void sp_faults(ss_params *p, sim_traffic *t) {
    ss_params_default(p, 4, 4, 4);
    p->num_fault_links = 2;
    p->fault_link[0][0] = 5;  p->fault_link[0][1] = 0;
    p->fault_link[1][0] = 40; p->fault_link[1][1] = 3;
    p->num_fault_nodes = 1;
    p->fault_node[0] = 22;
    sim_traffic_default(t);
    t->load = 0.3;
}

ST_TEST(sim_parts_torus_deliveries_equal_sequential) {
    ss_params p; sim_traffic t;
    sp_torus(&p, &t);
    sp_check_cuts(st__ctx, &p, &t, 11, 3000);
}

ST_TEST(sim_parts_uneven_delays_and_mesh_equal_sequential) {
    ss_params p; sim_traffic t;
    sp_uneven(&p, &t);
    sp_check_cuts(st__ctx, &p, &t, 5, 2500);
}

ST_TEST(sim_parts_one_cycle_lookahead_2d_equal_sequential) {
    ss_params p; sim_traffic t;
    sp_lookahead1(&p, &t);
    sp_check_cuts(st__ctx, &p, &t, 3, 1500);
}

ST_TEST(sim_parts_faults_equal_sequential) {
    ss_params p; sim_traffic t;
    sp_faults(&p, &t);
    sp_check_cuts(st__ctx, &p, &t, 9, 2000);
}

/* Run p (one part, routers in blocks of p->block_routers) with t for
 * cycles cycles by ss_run calls of chunk cycles, so windows are cut
 * short at the calls' ends; with sends, node (i * 7) % n also sends a
 * 3-flit packet to node (i * 5 + 1) % n between calls.  Logs every
 * delivery into *log, sorted; returns 0, or -1 when the audit fails. */
static int sb_run(const ss_params *p, const sim_traffic *t, uint64_t seed, uint64_t cycles, uint64_t chunk,
                  int sends, sp_log *log, uint64_t *in_flight) {
    ss_net net;
    uint64_t c, i = 0;
    int bad;
    memset(log, 0, sizeof *log);
    if (ss_net_init(&net, p, t, seed) != NULL) return -1;
    net.on_deliver = sp_on_deliver;
    net.on_deliver_ctx = log;
    for (c = 0; c < cycles; c += chunk) {
        ss_run(&net, chunk, NULL, NULL);
        for (; sends && i < c / 50; i++) {
            uint32_t src = (uint32_t)(i * 7) % net.n, dst = (uint32_t)(i * 5 + 1) % net.n;
            if (src != dst && ss_pair_ok(&net, src, dst)) ss_send(&net, src, dst, 3, 0);
        }
    }
    bad = ss_audit(&net) != NULL;
    *in_flight = ss_in_flight(&net);
    ss_net_free(&net);
    qsort(log->rec, log->n, sizeof(sp_rec), sp_cmp);
    return bad ? -1 : 0;
}

/* Whether p run in blocks of 1, 4 and 16 routers, with windows cut short
 * by ss_run calls of 23 cycles, delivers every packet as one block does. */
static void sb_check_blocks(st_ctx *st__ctx, const ss_params *p0, const sim_traffic *t, uint64_t seed,
                            uint64_t cycles, int sends) {
    static const uint32_t sizes[3] = { 1, 4, 16 };
    ss_params p = *p0;
    sp_log ref, blk;
    uint64_t in_flight, in_flight_ref;
    int i;
    p.block_routers = 0;
    if (sb_run(&p, t, seed, cycles, 23, sends, &ref, &in_flight_ref) != 0 || ref.n <= 100) {
        free(ref.rec);
        ST_CHECK(!"the one-block run fails its audit or delivers 100 packets or fewer");
    }
    for (i = 0; i < 3; i++) {
        size_t diff, n_blk;
        char what[64];
        int ok;
        p.block_routers = sizes[i];
        ok = sb_run(&p, t, seed, cycles, 23, sends, &blk, &in_flight) == 0 && in_flight == in_flight_ref;
        snprintf(what, sizeof what, "blocks of %u, against one block", (unsigned)sizes[i]);
        diff = sp_diff(&ref, &blk, &n_blk, what);
        if (!ok || n_blk != ref.n || diff) free(ref.rec);
        ST_CHECK(ok);
        ST_EQ_U64(ref.n, n_blk);
        ST_EQ_U64(0, diff);
    }
    free(ref.rec);
}

ST_TEST(sim_blocks_torus_deliveries_equal_one_block) {
    ss_params p; sim_traffic t;
    sp_torus(&p, &t);
    sb_check_blocks(st__ctx, &p, &t, 11, 3000, 0);
}

ST_TEST(sim_blocks_uneven_delays_mesh_and_sends_equal_one_block) {
    /* windows of 3 cycles cut at every 23rd, and packets sent with
     * ss_send between ss_run calls */
    ss_params p; sim_traffic t;
    sp_uneven(&p, &t);
    sb_check_blocks(st__ctx, &p, &t, 5, 2500, 1);
}

ST_TEST(sim_blocks_one_cycle_lookahead_and_faults_equal_one_block) {
    ss_params p; sim_traffic t;
    sp_lookahead1(&p, &t);
    sb_check_blocks(st__ctx, &p, &t, 3, 1500, 0);
    sp_faults(&p, &t);
    sb_check_blocks(st__ctx, &p, &t, 9, 2000, 1);
}

ST_TEST(sim_blocks_counts_and_bad_sizes) {
    /* 7x3x2 cut into 3 parts: x-planes 0-2, 3-4 and 5-6, of 6 routers each */
    ss_params p;
    sim_traffic t;
    ss_net net;
    sim_traffic_default(&t);
    ss_params_default(&p, 7, 3, 2);
    p.block_routers = 1;              /* one router per block */
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 0, 3) == NULL);
    ST_EQ(18, (int)net.blocks);
    ss_net_free(&net);
    p.block_routers = 16;             /* more than the part's 12: one block */
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 1, 3) == NULL);
    ST_EQ(1, (int)net.blocks);
    ss_net_free(&net);
    p.block_routers = 0;              /* none asked for: one block */
    ST_CHECK(ss_net_init(&net, &p, &t, 1) == NULL);
    ST_EQ(1, (int)net.blocks);
    ss_net_free(&net);
    p.block_routers = 12;             /* not a power of two */
    ST_CHECK(ss_net_init(&net, &p, &t, 1) != NULL);
}

ST_TEST(sim_parts_rejects_bad_cuts) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    ss_params_default(&p, 4, 4, 4);
    sim_traffic_default(&t);
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 0, 5) != NULL);   /* more parts than x-planes */
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 0, 0) != NULL);
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 4, 4) != NULL);
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, -1, 2) != NULL);
    ST_CHECK(ss_net_init_part(&net, &p, &t, 1, 3, 4) == NULL);
    ST_EQ(48, (int)net.r_lo);
    ST_EQ(64, (int)net.r_hi);
    ss_net_free(&net);
}

ST_TEST(sim_parts_slabs_cover_every_router_once) {
    /* every router is owned by exactly one part, the part ss_part_of names */
    ss_params p;
    sim_traffic t;
    int k, parts, q;
    sim_traffic_default(&t);
    for (k = 2; k <= 9; k++)
        for (parts = 1; parts <= k; parts++) {
            uint32_t r, owners_bad = 0, n = 0;
            ss_net net[9];
            ss_params_default(&p, k, 2, 1);
            for (q = 0; q < parts; q++) ST_CHECK(ss_net_init_part(&net[q], &p, &t, 1, q, parts) == NULL);
            n = net[0].n;
            for (r = 0; r < n; r++) {
                int owners = 0;
                for (q = 0; q < parts; q++)
                    if (ss_owns(&net[q], r)) { owners++; owners_bad += ss_part_of(&net[0], r) != q; }
                owners_bad += owners != 1;
            }
            ST_EQ(0, (int)owners_bad);
            for (q = 0; q < parts; q++) ss_net_free(&net[q]);
        }
}
