/* SPDX-License-Identifier: MIT */
/* test_route_verify.c - seastar_route.h: the delivery and deadlock
 * verifier, proven on dimension-order tables with datelines and refuted
 * (with checked witnesses) on deliberately broken ones; fault sets. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

static uint8_t *rv_dor_tables(const sr_topology *t) {
    uint8_t *tab = (uint8_t *)calloc((size_t)t->table_size * t->num_nodes, 1);
    uint32_t u;
    for (u = 0; u < t->num_nodes; u++)
        sr_table_build_dor(t, u, tab + (size_t)u * t->table_size, t->table_size);
    return tab;
}

/* Replace every "upper VC" update by "keep"/"lower" as the dimension-order
 * function would without datelines. */
static void rv_strip_datelines(const sr_topology *t, uint8_t *tab) {
    size_t i, n = (size_t)t->table_size * t->num_nodes;
    for (i = 0; i < n; i++)
        if (sr_entry_vc_update(tab[i]) == SR_VC_UPPER)
            tab[i] = sr_entry_make(sr_entry_port(tab[i]), SR_VC_LOWER);
}

static int rv_verify(const sr_topology *t, const sr_faults *f, const uint8_t *tab, int flags,
                     sr_verify_report *rep) {
    size_t n = sr_verify_scratch_size(t);
    void *scratch = malloc(n);
    int r = sr_verify(t, f, tab, flags, scratch, n, rep);
    free(scratch);
    return r;
}

/* Independent oracle: breadth-first distances in the fault-free graph. */
static uint64_t rv_bfs_total(const sr_topology *t) {
    uint32_t *dist = (uint32_t *)malloc(t->num_nodes * sizeof(uint32_t));
    uint32_t *q = (uint32_t *)malloc(t->num_nodes * sizeof(uint32_t));
    uint64_t total = 0;
    uint32_t s;
    for (s = 0; s < t->num_nodes; s++) {
        uint32_t head = 0, tail = 0, i;
        for (i = 0; i < t->num_nodes; i++) dist[i] = 0xFFFFFFFFu;
        dist[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            uint32_t u = q[head++];
            int p;
            total += dist[u];
            for (p = 0; p < t->proc_port; p++) {
                uint32_t v = sr_neighbor(t, u, p);
                if (v != SR_NO_NODE && dist[v] == 0xFFFFFFFFu) {
                    dist[v] = dist[u] + 1;
                    q[tail++] = v;
                }
            }
        }
    }
    free(dist);
    free(q);
    return total;
}

/* A witness path is connected: it starts at src's processor port and each
 * hop enters the neighbour through the opposite port. */
static int rv_path_connected(const sr_topology *t, const sr_verify_report *rep) {
    int i;
    if (rep->witness_truncated) return 1;
    if (rep->witness_len < 1 || rep->witness[0].node != rep->src ||
        rep->witness[0].in_port != t->proc_port)
        return 0;
    for (i = 0; i + 1 < rep->witness_len; i++) {
        const sr_hop *a = &rep->witness[i], *b = &rep->witness[i + 1];
        if (sr_neighbor(t, a->node, a->out_port) != b->node) return 0;
        if (b->in_port != sr_port_opposite(a->out_port)) return 0;
    }
    return 1;
}

ST_TEST(route_verify_dor_with_datelines_is_proven) {
    /* rings of radix 2..16, 2-D tori 2..16, 3-D tori 2..8 (16 under
     * --long), mixed radix, mixed mesh and torus, datelines anywhere */
    uint64_t seed = 3;
    int n, k, m;
    for (n = 1; n <= 3; n++)
        for (k = 2; k <= (n == 3 && !ST_LONG ? 8 : 16); k++)
            for (m = 0; m < 2; m++) {
                sr_topology t;
                int ks[3], mesh[3], dl[3], i;
                uint8_t *tab;
                sr_verify_report rep;
                for (i = 0; i < n; i++) {
                    ks[i] = m ? 2 + (int)st_rand_below(&seed, (uint32_t)k - 1) : k;
                    mesh[i] = m ? (int)(st_rand(&seed) & 1) : 0;
                    dl[i] = m ? (int)st_rand_below(&seed, (uint32_t)ks[i]) : 0;
                }
                ST_CHECK(rt_make(&t, n, ks, mesh, dl));
                tab = rv_dor_tables(&t);
                ST_EQ(SR_OK, rv_verify(&t, NULL, tab, SR_VERIFY_STRETCH, &rep));
                ST_CHECKF(rep.proven, "n=%d k=%d m=%d: %s", n, k, m, sr_failure_string(rep.failure));
                ST_NEAR((double)rep.delivered, rep.stretch_sum, 1e-6);   /* stretch 1 */
                ST_NEAR(1.0, rep.stretch_max, 0.0);
                ST_EQ((uint64_t)t.num_nodes * (t.num_nodes - 1), rep.pairs);
                ST_EQ(rep.pairs, rep.delivered);
                ST_EQ(0, rep.unroutable);
                /* dimension order is minimal: same total as BFS */
                ST_EQ_U64(rv_bfs_total(&t), rep.total_hops);
                free(tab);
            }
}

ST_TEST(route_verify_ring_cycle_without_datelines_needs_k_above_4) {
    /* Seed 001: ring VC dependency deadlock "only applies to k-ary
     * n-cubes, where k > 4".  Without datelines the shortest-direction
     * rings of radix 2..4 are still acyclic; from 5 on the verifier finds
     * the ring cycle, whose channels follow each other around one ring. */
    int k;
    for (k = 2; k <= 16; k++) {
        sr_topology t;
        int ks[2] = { k, 3 };
        uint8_t *tab;
        sr_verify_report rep;
        int i;
        ST_CHECK(rt_make(&t, 2, ks, NULL, NULL));
        tab = rv_dor_tables(&t);
        rv_strip_datelines(&t, tab);
        ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
        ST_EQ(rep.pairs, rep.delivered);       /* delivery still holds */
        if (k <= 4) {
            ST_CHECKF(rep.proven, "k=%d", k);
        } else {
            ST_CHECKF(!rep.proven && rep.failure == SR_FAIL_DEADLOCK, "k=%d", k);
            ST_CHECK(rep.witness_len >= 5 && !rep.witness_truncated);
            for (i = 0; i < rep.witness_len; i++) {
                const sr_hop *a = &rep.witness[i];
                const sr_hop *b = &rep.witness[(i + 1) % rep.witness_len];
                ST_EQ(sr_neighbor(&t, a->node, a->out_port), b->node);
                ST_EQ(a->out_port, b->out_port);   /* one ring, one direction */
                ST_EQ(a->vc, b->vc);
            }
        }
        free(tab);
    }
}

ST_TEST(route_verify_finds_a_y_z_turn_cycle_in_hand_built_tables) {
    /* A dependency cycle across two dimensions, in a 2x2x2 mesh whose
     * dimension-order tables are changed in two entries.  In the plane
     * x = 0, with A = (0,0,0), B = (0,1,0), C = (0,1,1), D = (0,0,1):
     *   A -> C goes y+ then z+ (dimension order),
     *   C -> A goes y- then z- (dimension order),
     *   B -> D goes z+ then y-  (B's injection entry for D changed to z+),
     *   D -> B goes z- then y+  (D's injection entry for B changed to z-),
     * so the channels A->B (y+), B->C (z+), C->D (y-), D->A (z-) each wait
     * for the next: the turn cycle of Glass and Ni.  Every packet is
     * delivered; the verifier reports the cycle, and its witness is those
     * four channels, in order. */
    sr_topology t;
    int ks[3] = { 2, 2, 2 }, mesh[3] = { 1, 1, 1 }, i, found = 0;
    uint8_t *tab;
    sr_verify_report rep;
    const uint32_t A = 0, B = 2, C = 3, D = 1;       /* ids (x * 2 + y) * 2 + z */
    static const int want_port[4] = { 2, 4, 3, 5 }; /* y+ at A, z+ at B, y- at C, z- at D */
    const uint32_t want_node[4] = { A, B, C, D };
    ST_CHECK(rt_make(&t, 3, ks, mesh, NULL));
    tab = rv_dor_tables(&t);
    tab[(size_t)B * t.table_size + (size_t)t.proc_port * t.table_stride + SR_GLUT_ENTRIES + D] =
        sr_entry_make(4, SR_VC_LOWER);
    tab[(size_t)D * t.table_size + (size_t)t.proc_port * t.table_stride + SR_GLUT_ENTRIES + B] =
        sr_entry_make(5, SR_VC_LOWER);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_CHECK(!rep.proven);
    ST_EQ(SR_FAIL_DEADLOCK, rep.failure);
    ST_EQ(rep.pairs, rep.delivered);
    ST_EQ(4, rep.witness_len);
    /* the witness is the cycle, starting anywhere in it */
    for (i = 0; i < 4; i++) found |= rep.witness[0].node == want_node[i] && rep.witness[0].out_port == want_port[i];
    ST_CHECK(found);
    for (i = 0; i < 4; i++) {
        const sr_hop *a = &rep.witness[i], *b = &rep.witness[(i + 1) % 4];
        int k;
        for (k = 0; k < 4 && want_node[k] != a->node; k++) {}
        ST_CHECK(k < 4);
        ST_EQ(want_port[k], a->out_port);
        ST_EQ(want_node[(k + 1) % 4], b->node);
        ST_EQ(sr_neighbor(&t, a->node, a->out_port), b->node);
        ST_EQ(0, a->vc);
    }
    /* without the two changed entries the same tables are proven */
    free(tab);
    tab = rv_dor_tables(&t);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_CHECK(rep.proven);
    free(tab);
}

ST_TEST(route_verify_finds_a_loop_in_a_broken_table) {
    /* 6-ring, destination 3: node 3 sends packets arriving on -x onwards
     * over +x instead of ejecting, so they go round for ever. */
    sr_topology t;
    int ks[1] = { 6 }, i, j;
    uint8_t *tab;
    sr_verify_report rep;
    ST_CHECK(rt_make(&t, 1, ks, NULL, NULL));
    tab = rv_dor_tables(&t);
    for (i = 0; i < 6; i++)             /* everyone goes + towards 3 */
        for (j = 0; j < t.num_ports; j++)
            if (i != 3 || j == 1)
                tab[(size_t)i * t.table_size + (size_t)j * t.table_stride + 8 + 3] =
                    sr_entry_make(0, SR_VC_KEEP);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_CHECK(!rep.proven);
    ST_EQ(SR_FAIL_LOOP, rep.failure);
    ST_EQ(3, rep.dst);
    ST_CHECK(rv_path_connected(&t, &rep));
    {   /* the last state repeats an earlier one */
        const sr_hop *last = &rep.witness[rep.witness_len - 1];
        int found = 0;
        for (i = 0; i + 1 < rep.witness_len; i++)
            found |= rep.witness[i].node == last->node && rep.witness[i].in_port == last->in_port &&
                     rep.witness[i].vc == last->vc;
        ST_CHECK(found);
    }
    free(tab);
}

ST_TEST(route_verify_names_each_delivery_failure) {
    sr_topology t;
    int ks[2] = { 4, 4 }, mesh[2] = { 1, 0 };
    uint8_t *tab;
    sr_verify_report rep;
    uint32_t fstore[16];
    sr_faults f;
    size_t at;
    ST_CHECK(rt_make(&t, 2, ks, mesh, NULL));
    /* dead end: node (0,0) sends packets for 5 = (1,1) out of the mesh by -x */
    tab = rv_dor_tables(&t);
    at = 0 * t.table_size + (size_t)t.proc_port * t.table_stride + 8 + 5;
    tab[at] = sr_entry_make(1, SR_VC_LOWER);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_EQ(SR_FAIL_DEAD_END, rep.failure);
    ST_EQ(0, rep.src); ST_EQ(5, rep.dst);
    ST_EQ(1, rep.witness_len);
    ST_EQ(1, rep.witness[0].out_port);
    /* 180-degree turn: node 4 = (1,0) sends a packet that came from
     * (0,0) on input -x back out of -x */
    tab[at] = sr_entry_make(0, SR_VC_LOWER);
    tab[4 * t.table_size + 1 * t.table_stride + 8 + 5] = sr_entry_make(1, SR_VC_KEEP);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_EQ(SR_FAIL_TURN_180, rep.failure);
    ST_CHECK(rv_path_connected(&t, &rep));
    ST_EQ(4, rep.witness[rep.witness_len - 1].node);
    free(tab);
    /* wrong ejection */
    tab = rv_dor_tables(&t);
    tab[2 * t.table_size + (size_t)t.proc_port * t.table_stride + 8 + 9] =
        sr_entry_make(t.proc_port, SR_VC_KEEP);
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_EQ(SR_FAIL_WRONG_EJECT, rep.failure);
    ST_EQ(2, rep.src); ST_EQ(9, rep.dst);
    free(tab);
    /* fault-free tables over a failed link and a failed node */
    tab = rv_dor_tables(&t);
    ST_EQ(SR_OK, sr_faults_init(&f, &t, fstore, sizeof fstore));
    ST_EQ(SR_OK, sr_fault_link(&f, &t, 0, 0));            /* (0,0) +x */
    ST_EQ(SR_OK, rv_verify(&t, &f, tab, 0, &rep));
    ST_EQ(SR_FAIL_FAULTY_LINK, rep.failure);
    ST_CHECK(rv_path_connected(&t, &rep));
    {
        const sr_hop *h = &rep.witness[rep.witness_len - 1];
        ST_CHECK((h->node == 0 && h->out_port == 0) || (h->node == 4 && h->out_port == 1));
    }
    ST_EQ(SR_OK, sr_faults_init(&f, &t, fstore, sizeof fstore));
    ST_EQ(SR_OK, sr_fault_node(&f, &t, 6));
    ST_EQ(SR_OK, rv_verify(&t, &f, tab, 0, &rep));
    ST_EQ(SR_FAIL_FAILED_NODE, rep.failure);
    ST_EQ(6, sr_neighbor(&t, rep.witness[rep.witness_len - 1].node,
                         rep.witness[rep.witness_len - 1].out_port));
    free(tab);
}

ST_TEST(route_verify_counts_declared_unroutable_pairs) {
    /* 5x5 torus: every entry for destination 7 at node 8 becomes NONE, so
     * exactly the sources whose DOR path passes node 8 are unroutable. */
    sr_topology t;
    int ks[2] = { 5, 5 }, p;
    uint8_t *tab;
    sr_verify_report rep;
    uint32_t s, expect = 0;
    ST_CHECK(rt_make(&t, 2, ks, NULL, NULL));
    tab = rv_dor_tables(&t);
    for (s = 0; s < 25; s++) {       /* oracle: follow sr_route_dor */
        uint32_t u = s;
        int in = t.proc_port, through = 0;
        if (s == 7) continue;
        while (u != 7) {
            sr_route r = sr_route_dor(&t, u, in, 7, 0);
            through |= u == 8;
            in = r.port ^ 1;
            u = sr_neighbor(&t, u, r.port);
        }
        expect += (uint32_t)through;
    }
    ST_CHECK(expect > 1);
    for (p = 0; p < t.num_ports; p++) tab[8 * t.table_size + (size_t)p * t.table_stride + 8 + 7] = SR_ENTRY_NONE;
    ST_EQ(SR_OK, rv_verify(&t, NULL, tab, 0, &rep));
    ST_CHECK(rep.proven);
    ST_EQ(expect, rep.unroutable);
    ST_EQ(rep.pairs - expect, rep.delivered);
    free(tab);
}

ST_TEST(route_verify_rejects_small_scratch_and_bad_faults) {
    sr_topology t;
    int ks[3] = { 4, 4, 4 }, mesh[3] = { 0, 0, 1 };
    uint8_t *tab, *scratch;
    sr_verify_report rep;
    size_t need, i;
    uint32_t fstore[65];
    sr_faults f;
    ST_CHECK(rt_make(&t, 3, ks, mesh, NULL));
    tab = rv_dor_tables(&t);
    need = sr_verify_scratch_size(&t);
    scratch = (uint8_t *)malloc(need + 64);
    memset(scratch, 0x77, need + 64);
    ST_EQ(SR_ERR_BUFFER_SIZE, sr_verify(&t, NULL, tab, 0, scratch, need - 1, &rep));
    for (i = 0; i < need + 64; i++) ST_EQ(0x77, scratch[i]);
    ST_EQ(SR_OK, sr_verify(&t, NULL, tab, 0, scratch, need, &rep));
    ST_CHECK(rep.proven);
    for (i = need; i < need + 64; i++) ST_EQ(0x77, scratch[i]);   /* no overrun */
    /* fault sets */
    memset(fstore, 0x33, sizeof fstore);
    ST_EQ(SR_ERR_BUFFER_SIZE, sr_faults_init(&f, &t, fstore, 64 * 4 - 1));
    for (i = 0; i < 65; i++) ST_EQ(0x33333333u, fstore[i]);
    ST_EQ(SR_OK, sr_faults_init(&f, &t, fstore, 64 * 4));
    ST_EQ(0x33333333u, fstore[64]);
    ST_EQ(SR_ERR_NODE_RANGE, sr_fault_link(&f, &t, 64, 0));
    ST_EQ(SR_ERR_NODE_RANGE, sr_fault_node(&f, &t, 64));
    ST_EQ(SR_ERR_PORT_RANGE, sr_fault_link(&f, &t, 0, t.proc_port));
    ST_EQ(SR_ERR_PORT_RANGE, sr_fault_link(&f, &t, 0, -1));
    ST_EQ(SR_ERR_NO_LINK, sr_fault_link(&f, &t, 0, 5));     /* -z at z = 0 of a mesh */
    for (i = 0; i < 64; i++) ST_EQ(0, fstore[i]);           /* nothing marked */
    ST_EQ(0x33333333u, fstore[64]);
    ST_EQ(SR_OK, sr_fault_link(&f, &t, 0, 4));              /* +z of node 0 */
    ST_EQ(1u << 4, fstore[0]);
    ST_EQ(1u << 5, fstore[1]);                              /* and -z of node 1 */
    ST_EQ(SR_NO_NODE, sr_next_hop(&t, &f, 0, 4));
    ST_EQ(1, sr_next_hop(&t, NULL, 0, 4));
    /* a fault set of another topology is refused */
    f.num_nodes = 63;
    ST_EQ(SR_ERR_NODE_RANGE, sr_verify(&t, &f, tab, 0, scratch, need, &rep));
    free(scratch);
    free(tab);
}
