/* SPDX-License-Identifier: MIT */
/* test_routing_gen.c - seastar_route.h's table generators return SR_OK
 * only for tables the verifier proves with every connected pair
 * delivered, and otherwise say which (SR_ERR_DEADLOCK,
 * SR_ERR_UNDELIVERED) with the tables written: the two 8x8x8 fault sets
 * of issue 24, a network split in two, and the search generator under a
 * direction order that cannot route every pair. */
#include "st_test.h"
#include "route_util.h"

typedef struct rg_net {
    sr_topology t;
    sr_faults f;
    uint32_t *fs;
    uint8_t *tab;
    void *gs, *vs;
    size_t tsz, gsz, vsz;
} rg_net;

static int rg_open(rg_net *n, int dims, const int *k, const int *mesh) {
    if (!rt_make(&n->t, dims, k, mesh, NULL)) return 0;
    n->fs = (uint32_t *)malloc(sr_faults_size(&n->t));
    n->tsz = (size_t)n->t.table_size * n->t.num_nodes;
    n->gsz = sr_gen_scratch_size(&n->t);
    n->vsz = sr_verify_scratch_size(&n->t);
    n->tab = (uint8_t *)malloc(n->tsz);
    n->gs = malloc(n->gsz);
    n->vs = malloc(n->vsz);
    return sr_faults_init(&n->f, &n->t, n->fs, sr_faults_size(&n->t)) == SR_OK;
}

static void rg_close(rg_net *n) { free(n->fs); free(n->tab); free(n->gs); free(n->vs); }

ST_TEST(routing_gen_seastar_says_deadlock_and_undelivered) {
    /* issue 24, item 5: on 8x8x8 the SeaStar rules with the faults
     * (233, +z) and (235, +z) leave 384 pairs undeliverable and a
     * 167-channel dependency cycle; with (158, +y) and (158, +z), 320
     * pairs undelivered.  The call says so; the tables are there. */
    static const int k[3] = { 8, 8, 8 };
    rg_net n;
    sr_gen_report g;
    sr_verify_report *v = (sr_verify_report *)malloc(sizeof *v);
    ST_CHECK(rg_open(&n, 3, k, NULL));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 233, 4));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 235, 4));
    ST_EQ(SR_ERR_DEADLOCK, sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tsz, n.gs, n.gsz, NULL, 0, &g));
    ST_EQ(384, g.unroutable);
    ST_EQ(512 * 511, g.connected);
    ST_EQ(SR_FAIL_DEADLOCK, g.failure);
    ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vsz, v));
    ST_EQ(0, v->proven);
    ST_EQ(SR_FAIL_DEADLOCK, v->failure);
    ST_CHECK(v->witness_len >= 2);          /* the verifier's cycle (its depth-first search finds one of 24) */
    sr_faults_init(&n.f, &n.t, n.fs, sr_faults_size(&n.t));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 158, 2));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 158, 4));
    ST_EQ(SR_ERR_UNDELIVERED, sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tsz, n.gs, n.gsz, NULL, 0, &g));
    ST_EQ(SR_FAIL_NONE, g.failure);
    ST_EQ(320, g.connected - g.delivered);
    ST_EQ(320, g.unroutable);
    ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vsz, v));
    ST_EQ(1, v->proven);                    /* proven, but 320 pairs declared unroutable */
    ST_EQ(320, v->unroutable);
    /* the search generator routes both fault sets */
    ST_EQ(SR_OK, sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tsz, n.gs, n.gsz, NULL, 0, &g));
    ST_EQ(g.connected, g.delivered);
    ST_EQ(512 * 511, g.connected);
    rg_close(&n);
    free(v);
}

ST_TEST(routing_gen_disconnected_pairs_are_not_a_failure) {
    /* a 4x4 mesh cut in two by failing every link between columns 1 and
     * 2: the 64 pairs across the cut cannot be delivered by any tables;
     * the search generator routes every connected pair: SR_OK */
    static const int k[2] = { 4, 4 }, m[2] = { 1, 1 };
    rg_net n;
    sr_gen_report g;
    int y;
    ST_CHECK(rg_open(&n, 2, k, m));
    for (y = 0; y < 4; y++) ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, (uint32_t)(1 * 4 + y), 0));
    ST_EQ(8 * 7 * 2, rt_connected_pairs(&n.t, &n.f));
    ST_EQ(SR_OK, sr_tables_build_search(&n.t, &n.f, NULL, n.tab, n.tsz, n.gs, n.gsz, NULL, 0, &g));
    ST_EQ(8 * 7 * 2, g.connected);
    ST_EQ(g.connected, g.delivered);
    ST_EQ(16 * 15 - 8 * 7 * 2, g.unroutable);
    rg_close(&n);
}

ST_TEST(routing_gen_search_order_says_undelivered) {
    /* the search generator under the positive-first order, on a 3x3 mesh,
     * over every pair of link faults: the result is
     * SR_ERR_UNDELIVERED exactly when a connected pair is left unrouted
     * (some pairs of faults leave one: no route keeps to the order), else
     * SR_OK; the verifier proves the tables either way */
    static const int k[2] = { 3, 3 }, m[2] = { 1, 1 };
    rg_net n;
    sr_gen_report g;
    sr_pair list[128];
    int order[SR_MAX_PORTS], a, b, undelivered = 0, ok = 0;
    sr_verify_report *v = (sr_verify_report *)malloc(sizeof *v);
    ST_CHECK(rg_open(&n, 2, k, m));
    sr_order_positive_first(&n.t, order);
    for (a = 0; a < 18; a++)
        for (b = a + 1; b < 18; b++) {
            int r;
            uint64_t conn;
            sr_faults_init(&n.f, &n.t, n.fs, sr_faults_size(&n.t));
            if (sr_fault_link(&n.f, &n.t, (uint32_t)(a / 2), (a % 2) * 2) != SR_OK ||
                sr_fault_link(&n.f, &n.t, (uint32_t)(b / 2), (b % 2) * 2) != SR_OK)
                continue;                                   /* the mesh's edge */
            r = sr_tables_build_search(&n.t, &n.f, order, n.tab, n.tsz, n.gs, n.gsz, list, 128, &g);
            conn = rt_connected_pairs(&n.t, &n.f);
            ST_EQ(conn, g.connected);
            ST_EQ(SR_OK, sr_verify(&n.t, &n.f, n.tab, 0, n.vs, n.vsz, v));
            ST_EQ(1, v->proven);
            ST_EQ(v->delivered, g.delivered);
            ST_EQ(v->delivered < conn ? SR_ERR_UNDELIVERED : SR_OK, r);
            undelivered += r == SR_ERR_UNDELIVERED;
            ok += r == SR_OK;
        }
    ST_CHECK(undelivered > 0 && ok > 0);
    rg_close(&n);
    free(v);
}
