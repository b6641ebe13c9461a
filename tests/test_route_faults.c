/* SPDX-License-Identifier: MIT */
/* test_route_faults.c - seastar_route.h: fault-aware table generation
 * (search generator and SeaStar rules), checked by the verifier and by an
 * independent forward search; verification across global partitions. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

typedef struct rf_net {
    sr_topology t;
    uint8_t *tab;
    size_t tab_size;
    void *gs, *vs;
    size_t gs_size, vs_size;
    uint32_t *fstore;
    sr_faults f;
} rf_net;

static int rf_open(rf_net *n, int dims, const int *k, const int *mesh) {
    sr_topology_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.num_dims = dims;
    for (i = 0; i < dims; i++) { d.radix[i] = k[i]; d.mesh[i] = mesh ? mesh[i] : 0; }
    if (sr_topology_init(&n->t, &d) != SR_OK) return 0;
    n->tab_size = (size_t)n->t.table_size * n->t.num_nodes;
    n->tab = (uint8_t *)calloc(n->tab_size, 1);
    n->gs_size = sr_gen_scratch_size(&n->t);
    n->vs_size = sr_verify_scratch_size(&n->t);
    n->gs = malloc(n->gs_size);
    n->vs = malloc(n->vs_size);
    n->fstore = (uint32_t *)malloc(sr_faults_size(&n->t));
    return sr_faults_init(&n->f, &n->t, n->fstore, sr_faults_size(&n->t)) == SR_OK;
}

static void rf_close(rf_net *n) {
    free(n->tab); free(n->gs); free(n->vs); free(n->fstore);
}

static void rf_clear(rf_net *n) { sr_faults_init(&n->f, &n->t, n->fstore, sr_faults_size(&n->t)); }

/* Generate (0 = search, 1 = SeaStar rules) and verify. */
static int rf_gen(rf_net *n, int which, sr_gen_report *g, sr_verify_report *v) {
    int r = which == 0
        ? sr_tables_build_search(&n->t, &n->f, NULL, n->tab, n->tab_size, n->gs, n->gs_size, NULL, 0, g)
        : sr_tables_build_seastar(&n->t, &n->f, n->tab, n->tab_size, n->gs, n->gs_size, NULL, 0, g);
    int rv;
    if (!rt_gen_written(r)) return r;
    rv = sr_verify(&n->t, &n->f, n->tab, 0, n->vs, n->vs_size, v);
    if (rv != SR_OK) return rv;
    /* the generator's result is the verifier's verdict */
    return r == rt_gen_verdict(v, rt_connected_pairs(&n->t, &n->f)) ? SR_OK : 1000 + r;
}

/* Independent oracle for the search generator's completeness under a
 * direction order: does a route from s to d exist that obeys the
 * positive-first direction order (straight on, or turn to a later
 * direction of x+ y+ z+ x- y- z-; never 180 degrees) over live links --
 * or, when every dimension is a mesh, the positive-first turn model (never
 * a turn from - to +)?  Forward depth-first search over (node, last
 * direction). */
static int rf_discipline_path(const sr_topology *t, const sr_faults *f, uint32_t s, uint32_t d,
                              uint8_t *seen) {
    uint32_t stack[4096 * 8];
    int top = 0, rank[16], i, all_mesh = 1;
    for (i = 0; i < t->num_dims; i++) {
        rank[2 * i] = i;
        rank[2 * i + 1] = t->num_dims + i;
        all_mesh &= t->mesh[i];
    }
    memset(seen, 0, (size_t)t->num_nodes * 17);
    stack[top++] = s * 17 + 16;                 /* 16: no direction yet */
    seen[s * 17 + 16] = 1;
    while (top > 0) {
        uint32_t y = stack[--top], u = y / 17;
        int last = (int)(y % 17), p;
        if (u == d) return 1;
        for (p = 0; p < t->proc_port; p++) {
            uint32_t v;
            if (last != 16 && p == (last ^ 1)) continue;               /* 180 degrees */
            if (last != 16 && p != last &&
                (all_mesh ? (last & 1) && !(p & 1) : rank[p] < rank[last]))
                continue;
            v = sr_next_hop(t, f, u, p);
            if (v == SR_NO_NODE || seen[v * 17 + (uint32_t)p]) continue;
            seen[v * 17 + (uint32_t)p] = 1;
            stack[top++] = v * 17 + (uint32_t)p;
        }
    }
    return 0;
}

/* The search generator's default turn rule as docs/routing.rst states it,
 * for a packet that travelled direction `last` (dimension d) on VC `vc`
 * and wants to leave by direction p: straight on always (but never over a
 * dateline on the upper VC: a run crosses its dateline once); after x any
 * direction; after d+, any direction of a higher dimension and any -
 * direction, a lower dimension (x, or a + direction below d) only on VC0;
 * after d-, a - direction of a higher dimension, of a lower one only on
 * VC0; never a 180-degree turn. */
static int rf_turn_rule(const sr_topology *t, int last, int vc, int p, int crosses) {
    int dl = last >> 1, dp = p >> 1, low_ok = vc == 0 || t->mesh[dl];
    if (p == last) return !(crosses && vc);
    if (p == (last ^ 1)) return 0;
    if (dl == 0) return 1;
    if (last & 1) return (p & 1) && dp != 0 && (dp > dl || low_ok);
    if (dp > dl || ((p & 1) && dp != 0)) return 1;
    return low_ok;
}

/* Does a route from s to d exist under that rule, with the VCs of the
 * tables (VC0 after a turn or at injection, VC1 from a dateline hop on,
 * kept straight on)?  Forward search over (node, last direction, VC). */
static int rf_rule_path(const sr_topology *t, const sr_faults *f, uint32_t s, uint32_t d,
                        uint8_t *seen, uint32_t *stack) {
    int top = 0;
    memset(seen, 0, (size_t)t->num_nodes * 34);
    stack[top++] = s * 34 + 32;                 /* 32: injected, no direction yet */
    seen[s * 34 + 32] = 1;
    while (top > 0) {
        uint32_t y = stack[--top], u = y / 34;
        int last = (int)(y % 34) / 2, vc = (int)(y % 34) % 2, p;
        if (u == d) return 1;
        for (p = 0; p < t->proc_port; p++) {
            uint32_t v, z;
            int cross = sr_crosses_dateline(t, p, sr_coord(t, u, p >> 1)), nvc;
            if (last != 16 && !rf_turn_rule(t, last, vc, p, cross)) continue;
            v = sr_next_hop(t, f, u, p);
            if (v == SR_NO_NODE) continue;
            nvc = cross ? 1 : (last == p ? vc : 0);
            z = v * 34 + (uint32_t)(2 * p + nvc);
            if (seen[z]) continue;
            seen[z] = 1;
            stack[top++] = z;
        }
    }
    return 0;
}

ST_TEST(route_search_fault_free_is_minimal_and_proven) {
    static const int shapes[][4] = { { 3, 4, 4, 4 }, { 3, 3, 4, 5 }, { 2, 5, 6, 0 }, { 1, 9, 0, 0 } };
    int s;
    for (s = 0; s < 4; s++) {
        int m;
        for (m = 0; m < 2; m++) {
            rf_net n;
            int k[3], mesh[3] = { m, 0, m }, i;
            sr_gen_report g;
            sr_verify_report v;
            uint64_t bfs = 0;
            uint32_t a, b;
            for (i = 0; i < shapes[s][0]; i++) k[i] = shapes[s][1 + i];
            ST_CHECK(rf_open(&n, shapes[s][0], k, mesh));
            ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
            ST_CHECK(v.proven);
            ST_EQ(0, g.unroutable);
            ST_EQ(0, v.unroutable);
            ST_EQ(v.pairs, v.delivered);
            for (a = 0; a < n.t.num_nodes; a++)
                for (b = 0; b < n.t.num_nodes; b++) bfs += (uint64_t)sr__min_hops(&n.t, a, b);
            ST_EQ_U64(bfs, v.total_hops);       /* every route is a shortest one */
            rf_close(&n);
        }
    }
}

ST_TEST(route_search_every_single_fault_4x4x4) {
    /* every link and every node of a 4x4x4 torus: the tables are proven
     * deadlock-free and deliver every pair of live nodes */
    rf_net n;
    int k[3] = { 4, 4, 4 }, p;
    uint32_t u;
    ST_CHECK(rf_open(&n, 3, k, NULL));
    for (u = 0; u < n.t.num_nodes; u++)
        for (p = -1; p < n.t.proc_port; p += 2) {
            sr_gen_report g;
            sr_verify_report v;
            rf_clear(&n);
            if (p < 0) ST_EQ(SR_OK, sr_fault_node(&n.f, &n.t, u));
            else ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, u, p - 1));
            ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
            ST_CHECKF(v.proven, "node %u port %d: %s", u, p - 1, sr_failure_string(v.failure));
            ST_EQ(0, g.unroutable);
            ST_EQ(v.pairs, v.delivered);
            ST_EQ(p < 0 ? 63 * 62 : 64 * 63, (long long)v.pairs);
        }
    rf_close(&n);
}

ST_TEST(route_search_single_faults_8x8x8) {
    /* 8x8x8: 2 random single faults (every link and node under --long) */
    rf_net n;
    int k[3] = { 8, 8, 8 }, i, count;
    uint64_t seed = 77;
    ST_CHECK(rf_open(&n, 3, k, NULL));
    count = ST_LONG ? (int)n.t.num_nodes * 4 : 2;
    for (i = 0; i < count; i++) {
        sr_gen_report g;
        sr_verify_report v;
        uint32_t u = ST_LONG ? (uint32_t)i / 4 : st_rand_below(&seed, n.t.num_nodes);
        int p = ST_LONG ? i % 4 - 1 : (int)st_rand_below(&seed, 4) - 1;   /* -1: node */
        rf_clear(&n);
        if (p < 0) ST_EQ(SR_OK, sr_fault_node(&n.f, &n.t, u));
        else ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, u, 2 * p));
        ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
        ST_CHECKF(v.proven, "node %u port %d", u, 2 * p);
        ST_EQ(0, g.unroutable);
    }
    rf_close(&n);
}

ST_TEST(route_search_direction_order_is_complete_within_it) {
    /* random multi-fault sets on small tori and meshes, with the
     * positive-first direction order given: a pair is reported unroutable
     * exactly when no route obeying the direction order exists (forward
     * search oracle), the tables are proven, and generator and verifier
     * agree on the count */
    uint64_t seed = 2024;
    int trial;
    for (trial = 0; trial < 12; trial++) {
        rf_net n;
        int k[3], mesh[3], dims = 2 + trial % 2, i, nf, order[SR_MAX_PORTS], r;
        sr_gen_report g;
        sr_verify_report v;
        sr_pair list[4096];
        uint8_t *seen;
        uint32_t a, b;
        uint64_t expect = 0;
        size_t li = 0;
        for (i = 0; i < dims; i++) {
            k[i] = 3 + (int)st_rand_below(&seed, 3);
            mesh[i] = trial % 4 == 1 ? 1 : (int)(st_rand(&seed) % 3 == 0);
        }
        ST_CHECK(rf_open(&n, dims, k, mesh));
        sr_order_positive_first(&n.t, order);
        nf = 1 + (int)st_rand_below(&seed, 5);
        for (i = 0; i < nf; i++) {
            uint32_t u = st_rand_below(&seed, n.t.num_nodes);
            if (i == 0 && trial % 3 == 0) sr_fault_node(&n.f, &n.t, u);
            else sr_fault_link(&n.f, &n.t, u, (int)st_rand_below(&seed, (uint32_t)n.t.proc_port));
        }
        r = sr_tables_build_search(&n.t, &n.f, order, n.tab, n.tab_size, n.gs, n.gs_size, list, 4096, &g);
        ST_CHECK(rt_gen_written(r));
        ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, &v));
        ST_CHECK(v.proven);
        ST_EQ(rt_gen_verdict(&v, rt_connected_pairs(&n.t, &n.f)), r);   /* unrouted connected pairs: said */
        ST_EQ(g.unroutable, v.unroutable);
        ST_EQ(g.unroutable, (long long)g.listed);
        seen = (uint8_t *)malloc((size_t)n.t.num_nodes * 17);
        for (b = 0; b < n.t.num_nodes; b++)
            for (a = 0; a < n.t.num_nodes; a++) {
                int reported;
                if (a == b || !sr_node_ok(&n.f, a) || !sr_node_ok(&n.f, b)) continue;
                reported = li < g.listed && list[li].src == a && list[li].dst == b;
                if (reported) li++;
                if (!rf_discipline_path(&n.t, &n.f, a, b, seen)) expect++;
                ST_CHECKF(reported == !rf_discipline_path(&n.t, &n.f, a, b, seen),
                          "trial %d pair %u -> %u", trial, a, b);
            }
        ST_EQ(expect, g.unroutable);
        free(seen);
        rf_close(&n);
    }
}

ST_TEST(route_search_default_rule_routes_every_pair_the_rule_allows) {
    /* random multi-fault sets (up to 12% of the links, a failed node) on
     * small tori and meshes of 2 and 3 dimensions with the default turn
     * rule: every pair for which a route under the rule exists (forward
     * search oracle over node, direction and VC) is routed; the tables are
     * proven; generator and verifier count the same unroutable pairs, and
     * the generator lists them, none of which has a route under the rule
     * (some have one only through the repairs, which the trials use). */
    uint64_t seed = 99;
    int trial, repaired = 0;
    for (trial = 0; trial < 24; trial++) {
        rf_net n;
        int k[3], mesh[3], dims = 2 + trial % 2, i, nf, r;
        sr_gen_report g;
        sr_verify_report v;
        sr_pair list[4096];
        uint8_t *seen;
        uint32_t *stack, a, b;
        size_t li = 0;
        for (i = 0; i < dims; i++) {
            k[i] = 3 + (int)st_rand_below(&seed, 4);
            mesh[i] = trial % 4 == 1 ? 1 : (int)(st_rand(&seed) % 4 == 0);
        }
        ST_CHECK(rf_open(&n, dims, k, mesh));
        nf = 1 + (int)st_rand_below(&seed, (uint32_t)n.t.num_nodes / 4);
        for (i = 0; i < nf; i++) {
            uint32_t u = st_rand_below(&seed, n.t.num_nodes);
            if (i == 0 && trial % 3 == 0) sr_fault_node(&n.f, &n.t, u);
            else sr_fault_link(&n.f, &n.t, u, (int)st_rand_below(&seed, (uint32_t)n.t.proc_port));
        }
        r = sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tab_size, n.gs, n.gs_size, list, 4096, &g);
        ST_CHECK(rt_gen_written(r));
        ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, &v));
        ST_CHECKF(v.proven, "trial %d: %s", trial, sr_failure_string(v.failure));
        ST_EQ(rt_gen_verdict(&v, rt_connected_pairs(&n.t, &n.f)), r);
        ST_EQ(g.unroutable, v.unroutable);
        ST_EQ(g.unroutable, (long long)g.listed);
        repaired += g.patched > 0;
        seen = (uint8_t *)malloc((size_t)n.t.num_nodes * 34);
        stack = (uint32_t *)malloc((size_t)n.t.num_nodes * 34 * 4);
        for (b = 0; b < n.t.num_nodes; b++)
            for (a = 0; a < n.t.num_nodes; a++) {
                int reported;
                if (a == b || !sr_node_ok(&n.f, a) || !sr_node_ok(&n.f, b)) continue;
                reported = li < g.listed && list[li].src == a && list[li].dst == b;
                if (reported) li++;
                ST_CHECKF(!reported || !rf_rule_path(&n.t, &n.f, a, b, seen, stack),
                          "trial %d pair %u -> %u has a route under the rule", trial, a, b);
            }
        free(seen);
        free(stack);
        rf_close(&n);
    }
    ST_CHECK(repaired > 0);          /* the repairs were exercised */
}

ST_TEST(route_seastar_rules_fault_free_equals_dor) {
    /* without faults the SeaStar rules are dimension-order routing */
    rf_net n;
    int k[3] = { 5, 4, 6 }, mesh[3] = { 0, 1, 0 }, ip;
    sr_gen_report g;
    sr_verify_report v;
    uint32_t u, d;
    ST_CHECK(rf_open(&n, 3, k, mesh));
    ST_EQ(SR_OK, rf_gen(&n, 1, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(0, g.unroutable);
    ST_EQ(0, (long long)g.patched);
    /* every entry, except where the DOR entry itself would be a 180-degree
     * turn (states no dimension-order route reaches: arriving from a mesh
     * neighbour that is closer to the destination) */
    for (u = 0; u < n.t.num_nodes; u++)
        for (ip = 0; ip < n.t.num_ports; ip++)
            for (d = 0; d < n.t.num_nodes; d++) {
                sr_entry e = sr_dor_entry(&n.t, u, ip, d);
                if (sr_entry_port(e) == ip) continue;
                ST_EQ(e, sr_table_lookup(&n.t, n.tab + (size_t)u * n.t.table_size, u, ip, d));
            }
    rf_close(&n);
}

ST_TEST(route_generators_random_fault_sets) {
    /* 6x6x6 torus, 3% failed links and a failed node: the search tables
     * are always proven; the SeaStar tables always deliver what they do
     * not declare unroutable (the count agrees with the verifier's). */
    rf_net n;
    int k[3] = { 6, 6, 6 }, trial;
    uint64_t seed = 99;
    ST_CHECK(rf_open(&n, 3, k, NULL));
    for (trial = 0; trial < (ST_LONG ? 40 : 4); trial++) {
        sr_gen_report g;
        sr_verify_report v;
        int i;
        rf_clear(&n);
        for (i = 0; i < 20; i++)
            sr_fault_link(&n.f, &n.t, st_rand_below(&seed, n.t.num_nodes),
                          (int)st_rand_below(&seed, 6));
        sr_fault_node(&n.f, &n.t, st_rand_below(&seed, n.t.num_nodes));
        ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
        ST_CHECK(v.proven);
        ST_EQ(g.unroutable, v.unroutable);
        ST_EQ(SR_OK, rf_gen(&n, 1, &g, &v));
        if (v.failure != SR_FAIL_DEADLOCK) {
            ST_CHECKF(v.proven, "%s", sr_failure_string(v.failure));
            ST_EQ(g.unroutable, v.unroutable);
        }
    }
    rf_close(&n);
}

ST_TEST(route_generators_reject_bad_arguments) {
    rf_net n;
    int k[3] = { 3, 3, 3 }, order[6] = { 0, 1, 2, 3, 4, 4 };
    sr_gen_report g;
    size_t i;
    ST_CHECK(rf_open(&n, 3, k, NULL));
    memset(n.tab, 0x42, n.tab_size);
    ST_EQ(SR_ERR_ORDER, sr_tables_build_search(&n.t, NULL, order, n.tab, n.tab_size, n.gs,
                                               n.gs_size, NULL, 0, &g));
    order[5] = 6;
    ST_EQ(SR_ERR_ORDER, sr_tables_build_search(&n.t, NULL, order, n.tab, n.tab_size, n.gs,
                                               n.gs_size, NULL, 0, &g));
    ST_EQ(SR_ERR_BUFFER_SIZE, sr_tables_build_search(&n.t, NULL, NULL, n.tab, n.tab_size - 1,
                                                     n.gs, n.gs_size, NULL, 0, &g));
    ST_EQ(SR_ERR_BUFFER_SIZE, sr_tables_build_seastar(&n.t, NULL, n.tab, n.tab_size, n.gs,
                                                      n.gs_size - 1, NULL, 0, &g));
    ST_EQ(SR_ERR_NULL, sr_tables_build_seastar(&n.t, NULL, NULL, n.tab_size, n.gs, n.gs_size,
                                               NULL, 0, &g));
    n.f.num_nodes = 26;
    ST_EQ(SR_ERR_NODE_RANGE, sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tab_size, n.gs,
                                                     n.gs_size, NULL, 0, &g));
    for (i = 0; i < n.tab_size; i++) ST_EQ(0x42, n.tab[i]);
    rf_close(&n);
    {
        int k2[2] = { 4, 4 };
        ST_CHECK(rf_open(&n, 2, k2, NULL));
        ST_EQ(SR_ERR_DIMS, sr_tables_build_seastar(&n.t, NULL, n.tab, n.tab_size, n.gs,
                                                   n.gs_size, NULL, 0, &g));
        rf_close(&n);
    }
}

ST_TEST(route_verify_across_global_partitions) {
    /* A ring of 4100 nodes: partitions 0 (4096 nodes) and 1 (4 nodes).
     * Under --long the DOR tables are proven and their hop total matches a
     * closed form of the partition rule; then a loop that runs through
     * both partitions' LUTs and GLUTs is found. */
    rf_net n;
    int k[1] = { 4100 };
    sr_verify_report v;
    uint32_t u, a, b;
    uint64_t expect = 0;
    ST_CHECK(rf_open(&n, 1, k, NULL));
    ST_EQ(2, n.t.num_partitions);
    for (u = 0; u < n.t.num_nodes; u++)
        sr_table_build_dor(&n.t, u, n.tab + (size_t)u * n.t.table_size, n.t.table_size);
    if (!ST_LONG) goto loop;   /* the proof and hop total: --long only */
    ST_EQ(SR_OK, sr_verify(&n.t, NULL, n.tab, 0, n.vs, n.vs_size, &v));
    ST_CHECK(v.proven);
    ST_EQ(v.pairs, v.delivered);
    for (a = 0; a < 4100; a++)
        for (b = 0; b < 4100; b++) {
            /* target: b itself, or the middle of b's partition (doubled:
             * 0..4095 -> 4095, 4096..4099 -> 8195) */
            long up2, tgt2 = (a < 4096) == (b < 4096) ? 2 * (long)b : b < 4096 ? 4095 : 8195;
            long up;
            int plus;
            if (a == b) continue;
            up2 = ((tgt2 - 2 * (long)a) % 8200 + 8200) % 8200;
            plus = up2 < 4100 || (up2 == 4100 && a % 2 == 0);
            up = ((long)b - (long)a + 4100) % 4100;
            expect += (uint64_t)(plus ? up : 4100 - up);
        }
    ST_EQ_U64(expect, v.total_hops);
loop:
    /* the loop: packets for node 2 that arrive travelling + are sent on
     * past it, round through partition 1, whose GLUT entries for
     * partition 0 send them on + again, back into partition 0 */
    for (u = 0; u < 4096; u++)
        n.tab[(size_t)u * n.t.table_size + 1 * n.t.table_stride + 8 + 2] = sr_entry_make(0, SR_VC_KEEP);
    for (u = 4096; u < 4100; u++) {
        n.tab[(size_t)u * n.t.table_size + 1 * n.t.table_stride + 0] = sr_entry_make(0, SR_VC_KEEP);
        n.tab[(size_t)u * n.t.table_size + 2 * n.t.table_stride + 0] = sr_entry_make(0, SR_VC_LOWER);
    }
    ST_EQ(SR_OK, sr_verify(&n.t, NULL, n.tab, 0, n.vs, n.vs_size, &v));
    ST_CHECK(!v.proven);
    ST_EQ(SR_FAIL_LOOP, v.failure);
    ST_EQ(2, v.dst);
    ST_EQ(2 * 4099, (long long)v.pairs);   /* destinations 0 and 1 proven first */
    ST_EQ(v.pairs, v.delivered);
    ST_CHECK(v.witness_truncated);          /* the loop is 4100 hops round */
    rf_close(&n);
}

ST_TEST(route_search_routes_leave_and_reenter_a_partition_long) {
    /* --long only (about 6 s).  A ring of 4100 nodes: partition 0 holds
     * 0..4095, partition 1 the four nodes 4096..4099.  With the link
     * 1000-1001 failed, packets from 1000 to 1001 must go the long way
     * round, out of partition 0, through partition 1 (on its GLUT
     * entries) and back in: that route is taken (through 4097), every
     * pair with a source in partition 0 is routed, and the tables are
     * proven.  Sources in partition 1 have one GLUT entry for all of
     * partition 0, one way round the ring, and a ring cannot turn back:
     * two of them miss the far side of the failed link (the table format
     * allows no more). */
    rf_net n;
    int k[1] = { 4100 }, ip;
    sr_gen_report g;
    sr_verify_report v;
    sr_pair *list = (sr_pair *)malloc(20000 * sizeof(sr_pair));
    uint32_t u, hops = 0, through = 0;
    size_t i;
    if (!ST_LONG) { free(list); return; }
    ST_CHECK(rf_open(&n, 1, k, NULL));
    ST_EQ(2, n.t.num_partitions);
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 1000, 0));
    ip = sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tab_size, n.gs, n.gs_size, list, 20000, &g);
    ST_CHECK(rt_gen_written(ip));
    ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, &v));
    ST_EQ(rt_gen_verdict(&v, rt_connected_pairs(&n.t, &n.f)), ip);
    ST_CHECKF(v.proven, "%s", sr_failure_string(v.failure));
    ST_EQ(g.unroutable, v.unroutable);
    ST_EQ(g.unroutable, (long long)g.listed);
    for (i = 0; i < g.listed; i++) ST_CHECK(list[i].src >= 4096 && list[i].dst < 4096);
    ST_CHECK(g.unroutable <= 2 * 4096);
    for (u = 1000, ip = n.t.proc_port; u != 1001 && hops < 5000; hops++) {
        sr_entry e = sr_table_lookup(&n.t, n.tab + (size_t)u * n.t.table_size, u, ip, 1001);
        through |= u == 4097;
        ip = sr_entry_port(e) ^ 1;
        u = sr_neighbor(&n.t, u, sr_entry_port(e));
    }
    ST_EQ(4099, hops);
    ST_CHECK(through);
    free(list);
    rf_close(&n);
}

ST_TEST(route_search_across_partitions_long) {
    /* --long only (about 15 s): 16x16x32 (two global partitions of 8 x
     * planes) with 1% of its links failed: every pair is routed and the
     * tables are proven. */
    rf_net n;
    int k[3] = { 16, 16, 32 }, i;
    uint64_t seed = 8;
    sr_gen_report g;
    sr_verify_report v;
    if (!ST_LONG) return;
    ST_CHECK(rf_open(&n, 3, k, NULL));
    ST_EQ(2, n.t.num_partitions);
    for (i = 0; i < 250; i++)
        sr_fault_link(&n.f, &n.t, st_rand_below(&seed, n.t.num_nodes), (int)st_rand_below(&seed, 6));
    ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
    ST_CHECKF(v.proven, "%s", sr_failure_string(v.failure));
    ST_EQ(0, g.unroutable);
    ST_EQ(g.pairs, v.pairs);
    ST_EQ(v.pairs, v.delivered);
    rf_close(&n);
}

/* 1% of the links of a k x k x k torus failed, placed as bench_route's
 * scale section places them (splitmix64 from `seed`, a random node and
 * port per try, a link failed once). */
static uint64_t rf_splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void rf_one_percent(rf_net *n, uint64_t seed) {
    uint32_t target = (uint32_t)(0.01 * 3 * n->t.num_nodes + 0.5), failed = 0;
    while (failed < target) {
        uint32_t u = (uint32_t)(rf_splitmix(&seed) % n->t.num_nodes);
        int p = (int)(rf_splitmix(&seed) % 6);
        if (sr_next_hop(&n->t, &n->f, u, p) == SR_NO_NODE) continue;
        sr_fault_link(&n->f, &n->t, u, p);
        failed++;
    }
}

ST_TEST(route_search_routes_every_pair_at_one_percent_long) {
    /* --long only (about 3 minutes, 1.1 GB): 16x16x16 (seeds 1 to 3) and
     * 32x32x32 (seed 1, eight global partitions) with 1% of the links
     * failed: every pair is routed (the network stays connected) and the
     * tables are proven. */
    static const int ks[4] = { 16, 16, 16, 32 };
    int r;
    if (!ST_LONG) return;
    for (r = 0; r < 4; r++) {
        rf_net n;
        int k[3];
        sr_gen_report g;
        sr_verify_report v;
        k[0] = k[1] = k[2] = ks[r];
        ST_CHECK(rf_open(&n, 3, k, NULL));
        rf_one_percent(&n, r < 3 ? (uint64_t)r + 1 : 1);
        ST_EQ(SR_OK, rf_gen(&n, 0, &g, &v));
        ST_CHECKF(v.proven, "%d^3: %s", ks[r], sr_failure_string(v.failure));
        ST_EQ(0, g.unroutable);
        ST_EQ(v.pairs, v.delivered);
        rf_close(&n);
    }
}

/* ---------------------------------------------- docs/data against the code
 * docs/routing.rst shows docs/data/route_scale.csv and route_compare.csv
 * (bench_route).  The rows that take well under a second are computed
 * again here, fault set placed as bench_route places it, and every field
 * but the timings and the memory must equal the file's. */

/* bench_route's fault set: `frac` of the links failed (a random node and
 * port per try, each link once), then `nodes` random nodes.  Returns the
 * number of failed links. */
static uint32_t rf_bench_faults(rf_net *n, double frac, int nodes, uint64_t seed) {
    uint32_t u, links = 0, target, failed = 0;
    int i;
    for (u = 0; u < n->t.num_nodes; u++)
        for (i = 0; i < 6; i += 2) links += sr_neighbor(&n->t, u, i) != SR_NO_NODE;
    target = (uint32_t)(frac * links + 0.5);
    while (failed < target) {
        uint32_t w = (uint32_t)(rf_splitmix(&seed) % n->t.num_nodes);
        int p = (int)(rf_splitmix(&seed) % 6);
        if (sr_next_hop(&n->t, &n->f, w, p) == SR_NO_NODE) continue;
        sr_fault_link(&n->f, &n->t, w, p);
        failed++;
    }
    for (i = 0; i < nodes; i++) sr_fault_node(&n->f, &n->t, (uint32_t)(rf_splitmix(&seed) % n->t.num_nodes));
    return failed;
}

/* Ordered pairs of distinct live nodes joined by live links (flood fill). */
static uint64_t rf_connected_pairs(const rf_net *n) { return rt_connected_pairs(&n->t, &n->f); }

/* Split a CSV line (no quoting) into at most `max` fields; returns the count. */
static int rf_fields(char *line, char **f, int max) {
    int n = 0;
    f[n++] = line;
    while (*line && n < max) {
        if (*line == ',') { *line = 0; f[n++] = line + 1; }
        line++;
    }
    return n;
}

/* Recompute one row of route_scale.csv / route_compare.csv (fields as
 * bench_route prints them) whose network has at most 512 nodes; returns 1
 * if it was checked, 0 if it is too large, -1 after a failed check. */
static int rf_check_bench_row(st_ctx *st__ctx, char **f, uint64_t seed) {
    int k, gen, ok = 1;
    char topo[32], want[160], got[160];
    const char *mesh;
    rf_net n;
    sr_gen_report g;
    sr_verify_report v;
    int kk[3];
    uint32_t links;
    uint64_t conn;
    double frac;
    if (sscanf(f[1], "%dx%*dx%*d %31s", &k, topo) != 2 || k * k * k > 512) return 0;
    mesh = strcmp(topo, "mesh") == 0 ? "mesh" : "torus";
    gen = !strcmp(f[5], "search") ? 0 : !strcmp(f[5], "seastar") ? 1 : 2;
    kk[0] = kk[1] = kk[2] = k;
    {
        int m[3];
        m[0] = m[1] = m[2] = mesh[0] == 'm';
        if (!rf_open(&n, 3, kk, m)) return -1;
    }
    /* the fraction bench_route used: the smallest of 0, 1%, 2%, 5% that
     * gives the row's number of failed links */
    {
        static const double fr[4] = { 0.0, 0.01, 0.02, 0.05 };
        uint32_t all = (uint32_t)(3 * k * k * (mesh[0] == 'm' ? k - 1 : k)), i;
        frac = -1;
        for (i = 0; i < 4 && frac < 0; i++)
            if ((uint32_t)(fr[i] * all + 0.5) == (uint32_t)atoi(f[3])) frac = fr[i];
        if (frac < 0) { rf_close(&n); return -1; }
    }
    links = rf_bench_faults(&n, frac, atoi(f[4]), seed);
    if (gen == 2) {
        uint32_t u;
        for (u = 0; u < n.t.num_nodes; u++)
            sr_table_build_dor(&n.t, u, n.tab + (size_t)u * n.t.table_size, n.t.table_size);
    } else if (gen == 0)
        ok = rt_gen_written(sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    else
        ok = rt_gen_written(sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    if (gen == 2) memset(&g, 0, sizeof g);
    ok = ok && sr_verify(&n.t, &n.f, n.tab, SR_VERIFY_STRETCH, n.vs, n.vs_size, &v) == SR_OK;
    conn = rf_connected_pairs(&n);
    rf_close(&n);
    if (!ok) return -1;
    snprintf(want, sizeof want, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", f[3], f[11], f[12], f[13], f[14], f[15], f[16],
             f[17], f[18], f[4]);
    snprintf(got, sizeof got, "%u,%d,%s,%llu,%.8f,%.4f,%.3f,%d,%llu,%s", links, v.proven,
             v.proven ? "" : sr_failure_string(v.failure), (unsigned long long)conn,
             conn ? (double)v.delivered / (double)conn : 1.0, v.delivered ? v.stretch_sum / (double)v.delivered : 0.0,
             v.stretch_max, g.rounds, (unsigned long long)g.patched, f[4]);
    if (strcmp(want, got)) {
        st_fail_begin(st__ctx, __FILE__, __LINE__, "a bench_route row equals the code");
        fprintf(stderr, "    %s %s %s: file %s, code %s\n", f[0], f[1], f[5], want, got);
        return -1;
    }
    return 1;
}

ST_TEST(route_docs_data_scale_and_compare_match_the_code) {
    /* route_scale.csv: every row up to 8x8x8 (seed 1); route_compare.csv:
     * the first eight rows (seeds 1000, 1001: five seeds of the twelve
     * networks, in order).  docs/routing.rst also says that the search
     * routes every connected pair of every torus run at 1% and 2% failed
     * links, and at 32x32x32: checked on the files. */
    static const char *files[2] = { "docs/data/route_scale.csv", "docs/data/route_compare.csv" };
    int which, checked = 0;
    for (which = 0; which < 2; which++) {
        FILE *fp = fopen(files[which], "r");
        char line[512];
        int row = 0;
        ST_CHECKF(fp != NULL, "%s missing (make route-results)", files[which]);
        ST_CHECK(fgets(line, sizeof line, fp) != NULL);            /* header */
        while (fgets(line, sizeof line, fp)) {
            char *f[24];
            int r;
            line[strcspn(line, "\r\n")] = 0;
            ST_EQ(19, rf_fields(line, f, 24));
            if (!strcmp(f[5], "search") && strstr(f[1], "torus") &&
                (strstr(f[1], "32x32x32") || (which == 1 && atoi(f[3]) <= 31)))
                ST_CHECKF(!strcmp(f[14], "1.00000000") && !strcmp(f[11], "1"), "%s %s %s links: share %s",
                          f[0], f[1], f[3], f[14]);
            /* compare rows come four per seed and network kind; seed
             * 1000 + (row / 12) */
            if (which == 1 && row >= 8) { row++; continue; }
            r = rf_check_bench_row(st__ctx, f, which == 0 ? 1 : 1000 + (uint64_t)(row / 12));
            if (r < 0) { fclose(fp); return; }
            checked += r;
            row++;
        }
        fclose(fp);
    }
    ST_EQ(6 + 8, checked);
}

/* ---- the generators say when their tables fail (issue 24, item 5) ----
 * They return SR_OK only for tables the verifier proves with every pair
 * the faults leave connected delivered, else SR_ERR_DEADLOCK or
 * SR_ERR_UNDELIVERED with the tables written. */

ST_TEST(routing_gen_seastar_says_deadlock_and_undelivered) {
    /* issue 24, item 5: on 8x8x8 the SeaStar rules with the faults
     * (233, +z) and (235, +z) leave 384 pairs undeliverable and a
     * 167-channel dependency cycle; with (158, +y) and (158, +z), 320
     * pairs undelivered.  The call says so; the tables are there. */
    static const int k[3] = { 8, 8, 8 };
    rf_net n;
    sr_gen_report g;
    sr_verify_report *v = (sr_verify_report *)malloc(sizeof *v);
    ST_CHECK(rf_open(&n, 3, k, NULL));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 233, 4));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 235, 4));
    ST_EQ(SR_ERR_DEADLOCK, sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    ST_EQ(384, g.unroutable);
    ST_EQ(512 * 511, g.connected);
    ST_EQ(SR_FAIL_DEADLOCK, g.failure);
    ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, v));
    ST_EQ(0, v->proven);
    ST_EQ(SR_FAIL_DEADLOCK, v->failure);
    ST_CHECK(v->witness_len >= 2);          /* the verifier's cycle (its depth-first search finds one of 24) */
    rf_clear(&n);
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 158, 2));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 158, 4));
    ST_EQ(SR_ERR_UNDELIVERED, sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    ST_EQ(SR_FAIL_NONE, g.failure);
    ST_EQ(320, g.connected - g.delivered);
    ST_EQ(320, g.unroutable);
    ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, v));
    ST_EQ(1, v->proven);                    /* proven, but 320 pairs declared unroutable */
    ST_EQ(320, v->unroutable);
    /* the search generator routes both fault sets */
    ST_EQ(SR_OK, sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    ST_EQ(g.connected, g.delivered);
    ST_EQ(512 * 511, g.connected);
    rf_close(&n);
    free(v);
}

ST_TEST(routing_gen_disconnected_pairs_are_not_a_failure) {
    /* a 4x4 mesh cut in two by failing every link between columns 1 and
     * 2: the 64 pairs across the cut cannot be delivered by any tables;
     * the search generator routes every connected pair: SR_OK */
    static const int k[2] = { 4, 4 }, m[2] = { 1, 1 };
    rf_net n;
    sr_gen_report g;
    int y;
    ST_CHECK(rf_open(&n, 2, k, m));
    for (y = 0; y < 4; y++) ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, (uint32_t)(1 * 4 + y), 0));
    ST_EQ(8 * 7 * 2, rt_connected_pairs(&n.t, &n.f));
    ST_EQ(SR_OK, sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g));
    ST_EQ(8 * 7 * 2, g.connected);
    ST_EQ(g.connected, g.delivered);
    ST_EQ(16 * 15 - 8 * 7 * 2, g.unroutable);
    rf_close(&n);
}

ST_TEST(routing_gen_search_order_says_undelivered) {
    /* the search generator under the positive-first order, on a 3x3 mesh,
     * over every pair of link faults: the result is
     * SR_ERR_UNDELIVERED exactly when a connected pair is left unrouted
     * (some pairs of faults leave one: no route keeps to the order), else
     * SR_OK; the verifier proves the tables either way */
    static const int k[2] = { 3, 3 }, m[2] = { 1, 1 };
    rf_net n;
    sr_gen_report g;
    sr_pair list[128];
    int order[SR_MAX_PORTS], a, b, undelivered = 0, ok = 0;
    sr_verify_report *v = (sr_verify_report *)malloc(sizeof *v);
    ST_CHECK(rf_open(&n, 2, k, m));
    sr_order_positive_first(&n.t, order);
    for (a = 0; a < 18; a++)
        for (b = a + 1; b < 18; b++) {
            int r;
            uint64_t conn;
            rf_clear(&n);
            if (sr_fault_link(&n.f, &n.t, (uint32_t)(a / 2), (a % 2) * 2) != SR_OK ||
                sr_fault_link(&n.f, &n.t, (uint32_t)(b / 2), (b % 2) * 2) != SR_OK)
                continue;                                   /* the mesh's edge */
            r = sr_tables_build_search(&n.t, &n.f, order, n.tab, n.tab_size, n.gs, n.gs_size, list, 128, &g);
            conn = rt_connected_pairs(&n.t, &n.f);
            ST_EQ(conn, g.connected);
            ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vs_size, v));
            ST_EQ(1, v->proven);
            ST_EQ(v->delivered, g.delivered);
            ST_EQ(v->delivered < conn ? SR_ERR_UNDELIVERED : SR_OK, r);
            undelivered += r == SR_ERR_UNDELIVERED;
            ok += r == SR_OK;
        }
    ST_CHECK(undelivered > 0 && ok > 0);
    rf_close(&n);
    free(v);
}
