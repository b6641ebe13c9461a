/* SPDX-License-Identifier: MIT */
/* test_route.c - seastar_route.h: topology, validation, dimension-order
 * routing against a brute-force oracle, SeaStar table build and lookup. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

/* ---------------------------------------------------------------- helpers */


/* ------------------------------------------------------------- the tests */

ST_TEST(route_result_strings_cover_every_code) {
    int r;
    for (r = 0; r < SR_RESULT_COUNT; r++)
        ST_CHECKF(strcmp(sr_result_string((sr_result)r), "unknown result") != 0,
                  "code %d has no message", r);
    ST_EQ_STR("unknown result", sr_result_string(SR_RESULT_COUNT));
}

ST_TEST(route_topology_rejects_bad_descriptions) {
    sr_topology_desc d;
    sr_topology t, before;
    memset(&d, 0, sizeof d);
    memset(&t, 0xAB, sizeof t);
    before = t;
    d.num_dims = 3;
    d.radix[0] = 4; d.radix[1] = 4; d.radix[2] = 0;
    ST_EQ(SR_ERR_RADIX, sr_topology_init(&t, &d));
    d.radix[2] = 1;
    ST_EQ(SR_ERR_RADIX, sr_topology_init(&t, &d));
    d.radix[2] = 4;
    d.num_dims = 0;
    ST_EQ(SR_ERR_DIMS, sr_topology_init(&t, &d));
    d.num_dims = SR_MAX_DIMS + 1;
    ST_EQ(SR_ERR_DIMS, sr_topology_init(&t, &d));
    d.num_dims = -1;
    ST_EQ(SR_ERR_DIMS, sr_topology_init(&t, &d));
    d.num_dims = 3;
    d.radix[0] = 33; d.radix[1] = 32; d.radix[2] = 32;     /* 33,792 > 32K */
    ST_EQ(SR_ERR_TOO_MANY_NODES, sr_topology_init(&t, &d));
    d.radix[0] = 1 << 20; d.radix[1] = 1 << 20; d.radix[2] = 1 << 20; /* overflow guard */
    ST_EQ(SR_ERR_TOO_MANY_NODES, sr_topology_init(&t, &d));
    d.radix[0] = 16; d.radix[1] = 16; d.radix[2] = 24;     /* 6144 nodes, planes of 384 */
    ST_EQ(SR_ERR_PARTITION, sr_topology_init(&t, &d));
    d.radix[0] = 4; d.radix[1] = 4; d.radix[2] = 4;
    d.dateline[1] = 4;
    ST_EQ(SR_ERR_DATELINE, sr_topology_init(&t, &d));
    d.dateline[1] = -1;
    ST_EQ(SR_ERR_DATELINE, sr_topology_init(&t, &d));
    ST_EQ(SR_ERR_NULL, sr_topology_init(NULL, &d));
    ST_EQ(SR_ERR_NULL, sr_topology_init(&t, NULL));
    ST_CHECK(memcmp(&t, &before, sizeof t) == 0);          /* untouched on error */
    d.dateline[1] = 3;
    ST_EQ(SR_OK, sr_topology_init(&t, &d));
    /* limits that are accepted: SeaStar's 32K, 8 dimensions, a 32K ring */
    d.radix[0] = 32; d.radix[1] = 32; d.radix[2] = 32; d.dateline[1] = 0;
    ST_EQ(SR_OK, sr_topology_init(&t, &d));
    ST_EQ(32768, t.num_nodes);
    ST_EQ(8, t.num_partitions);
    ST_EQ(7 * (8 + 4096), (long long)sr_table_size(&t));
    memset(&d, 0, sizeof d);
    d.num_dims = 8;
    { int i; for (i = 0; i < 8; i++) d.radix[i] = 2; }
    ST_EQ(SR_OK, sr_topology_init(&t, &d));
    ST_EQ(17, t.num_ports);
    memset(&d, 0, sizeof d);
    d.num_dims = 1; d.radix[0] = 32768;
    ST_EQ(SR_OK, sr_topology_init(&t, &d));
    d.radix[0] = 32769;
    ST_EQ(SR_ERR_TOO_MANY_NODES, sr_topology_init(&t, &d));
}

ST_TEST(route_node_ids_put_x_most_significant) {
    sr_topology t;
    int k[3] = { 4, 3, 2 }, c[3], i;
    uint32_t n, expect = 0;
    ST_CHECK(rt_make(&t, 3, k, NULL, NULL));
    c[0] = 1; c[1] = 2; c[2] = 1;
    ST_EQ(1 * 6 + 2 * 2 + 1, sr_node_id(&t, c));
    /* counting ids up runs z fastest, then y, then x */
    for (c[0] = 0; c[0] < 4; c[0]++)
        for (c[1] = 0; c[1] < 3; c[1]++)
            for (c[2] = 0; c[2] < 2; c[2]++) {
                int back[3];
                ST_EQ(expect, sr_node_id(&t, c));
                sr_node_coords(&t, expect, back);
                for (i = 0; i < 3; i++) {
                    ST_EQ(c[i], back[i]);
                    ST_EQ(c[i], sr_coord(&t, expect, i));
                }
                expect++;
            }
    c[1] = 3;
    ST_EQ(SR_NO_NODE, sr_node_id(&t, c));
    c[1] = -1;
    ST_EQ(SR_NO_NODE, sr_node_id(&t, c));
    n = t.num_nodes;
    ST_EQ(24, n);
}

ST_TEST(route_neighbours_in_seven_dimensions) {
    /* 7 dimensions, mixed radix, mixed mesh and torus */
    sr_topology t;
    int k[7] = { 2, 3, 4, 2, 3, 5, 2 }, mesh[7] = { 0, 1, 0, 1, 0, 1, 0 };
    uint32_t n;
    ST_CHECK(rt_make(&t, 7, k, mesh, NULL));
    ST_EQ(2 * 3 * 4 * 2 * 3 * 5 * 2, t.num_nodes);
    ST_EQ(15, t.num_ports);
    ST_EQ_STR("proc", sr_port_name(&t, 14));
    ST_EQ_STR("-u", sr_port_name(&t, 7));
    for (n = 0; n < t.num_nodes; n++) {
        int c[7], p;
        sr_node_coords(&t, n, c);
        ST_EQ(SR_NO_NODE, sr_neighbor(&t, n, t.proc_port));
        for (p = 0; p < t.proc_port; p++) {
            int d = p / 2, c2[7], i, want = c[d] + ((p & 1) ? -1 : 1);
            uint32_t v = sr_neighbor(&t, n, p);
            if (want < 0 || want >= k[d]) {
                if (mesh[d]) { ST_EQ(SR_NO_NODE, v); continue; }
                want = (want + k[d]) % k[d];
            }
            ST_CHECK(v != SR_NO_NODE);
            sr_node_coords(&t, v, c2);
            for (i = 0; i < 7; i++) ST_EQ(i == d ? want : c[i], c2[i]);
            ST_EQ(n, sr_neighbor(&t, v, sr_port_opposite(p)));
        }
    }
}

/* The oracle: walk dimension by dimension, trying both directions of each
 * ring step by step and keeping the shorter (ties: + from an even
 * coordinate, or always + / always - as the topology's tie says); the VC is the class's lower VC at the start of each
 * dimension and the upper one from the hop over the dateline link
 * {p-1, p} on.  Returns the number of hops, fills ports and vcs. */
static int rt_oracle(const sr_topology *t, uint32_t s, uint32_t dst, int *ports, int *vcs) {
    int cs[SR_MAX_DIMS], cd[SR_MAX_DIMS], d, h = 0;
    sr_node_coords(t, s, cs);
    sr_node_coords(t, dst, cd);
    for (d = 0; d < t->num_dims; d++) {
        int k = t->radix[d], up = -1, down = -1, steps, x, neg, vc = 0, j;
        if (cs[d] == cd[d]) continue;
        for (steps = 0, x = cs[d]; steps <= k; steps++, x++) {
            if (x == k) { if (t->mesh[d]) break; x = 0; }
            if (x == cd[d]) { up = steps; break; }
        }
        for (steps = 0, x = cs[d]; steps <= k; steps++, x--) {
            if (x < 0) { if (t->mesh[d]) break; x = k - 1; }
            if (x == cd[d]) { down = steps; break; }
        }
        if (up < 0) neg = 1;
        else if (down < 0) neg = 0;
        else if (up != down) neg = down < up;
        else if (t->tie == SR_TIE_PLUS) neg = 0;
        else if (t->tie == SR_TIE_MINUS) neg = 1;
        else neg = cs[d] % 2;
        x = cs[d];
        for (j = 0; j < (neg ? down : up); j++) {
            /* link i joins i and i+1 (mod k); the dateline is link p-1 */
            int y = neg ? (x + k - 1) % k : (x + 1) % k;
            int link = neg ? y : x;
            if (!t->mesh[d] && link == (t->dateline[d] + k - 1) % k) vc = 1;
            ports[h] = 2 * d + neg;
            vcs[h] = vc;
            h++;
            x = y;
        }
    }
    return h;
}

static int rt_dor_matches_oracle(const sr_topology *t, int cls) {
    uint32_t s, dst;
    int ports[256], vcs[256];
    for (s = 0; s < t->num_nodes; s++)
        for (dst = 0; dst < t->num_nodes; dst++) {
            int h = rt_oracle(t, s, dst, ports, vcs), i, in = t->proc_port, vc = 2 * cls;
            uint32_t u = s;
            for (i = 0; i <= h; i++) {
                sr_route r = sr_route_dor(t, u, in, dst, vc);
                if (i == h) {
                    if (r.port != t->proc_port || u != dst || r.vc != vc) return 0;
                    break;
                }
                if (r.port != ports[i] || r.vc != 2 * cls + vcs[i]) return 0;
                u = sr_neighbor(t, u, r.port);
                in = sr_port_opposite(r.port);
                vc = r.vc;
            }
        }
    return 1;
}

ST_TEST(route_dor_equals_brute_force_shortest_dimension_order) {
    static const int shapes[][4] = {
        /* dims, k0, k1, k2 */
        { 1, 2, 0, 0 }, { 1, 7, 0, 0 }, { 1, 8, 0, 0 }, { 2, 5, 6, 0 },
        { 3, 4, 4, 4 }, { 3, 3, 5, 6 }, { 3, 8, 2, 7 }, { 2, 16, 9, 0 } };
    uint64_t seed = 11;
    int s, m, tie;
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
        for (m = 0; m < 3; m++)
            for (tie = SR_TIE_ALTERNATE; tie <= SR_TIE_MINUS; tie++) {
                sr_topology t;
                int n = shapes[s][0], k[3], mesh[3], dl[3], i;
                for (i = 0; i < n; i++) {
                    k[i] = shapes[s][1 + i];
                    mesh[i] = m == 1 ? 1 : m == 2 ? (int)(st_rand(&seed) & 1) : 0;
                    dl[i] = m == 0 ? 0 : (int)st_rand_below(&seed, (uint32_t)k[i]);
                }
                ST_CHECK(rt_make_tie(&t, n, k, mesh, dl, tie));
                ST_CHECKF(rt_dor_matches_oracle(&t, m & 1), "shape %d mesh mode %d tie %d", s, m, tie);
            }
}

ST_TEST(route_dor_equals_brute_force_in_six_dimensions) {
    sr_topology t;
    int k[6] = { 3, 2, 4, 2, 3, 2 }, mesh[6] = { 0, 0, 1, 0, 0, 1 }, dl[6] = { 1, 0, 0, 1, 2, 0 };
    ST_CHECK(rt_make(&t, 6, k, mesh, dl));
    ST_CHECK(rt_dor_matches_oracle(&t, 0));
}

ST_TEST(route_tie_break_balances_the_ring) {
    /* radix 8 ring: the 8 pairs 4 apart split 4 each way, and every
     * directed link carries the same number of tie routes. */
    sr_topology t;
    int k[1] = { 8 }, load[16], i, plus = 0;
    uint32_t s;
    ST_CHECK(rt_make(&t, 1, k, NULL, NULL));
    memset(load, 0, sizeof load);
    for (s = 0; s < 8; s++) {
        uint32_t u = s, dst = (s + 4) % 8;
        int in = t.proc_port, hops = 0;
        sr_route r = sr_route_dor(&t, u, in, dst, 0);
        plus += r.port == 0;
        while (r.port != t.proc_port) {
            load[u * 2 + (uint32_t)r.port]++;
            u = sr_neighbor(&t, u, r.port);
            in = r.port ^ 1;
            r = sr_route_dor(&t, u, in, dst, r.vc);
            hops++;
        }
        ST_EQ(4, hops);
    }
    ST_EQ(4, plus);
    for (i = 0; i < 16; i++) ST_EQ(2, load[i]);
}

ST_TEST(route_tie_break_options_all_plus_all_minus) {
    /* The tie-break of the topology description: with SR_TIE_PLUS every
     * route k/2 away goes + (the torus of seed 004 Figure 4(b): P3 -> P7
     * on an 8-ring as 3, 4, 5, 6, 7), with SR_TIE_MINUS every one goes -;
     * routes shorter one way are unchanged.  Rings of 2, 6 and 8 (a tie
     * from every coordinate) and 7 (no ties). */
    static const int radices[] = { 2, 6, 8, 7 };
    int r, tie;
    for (r = 0; r < 4; r++)
        for (tie = SR_TIE_ALTERNATE; tie <= SR_TIE_MINUS; tie++) {
            sr_topology t;
            int k[1];
            uint32_t s, dst;
            k[0] = radices[r];
            ST_CHECK(rt_make_tie(&t, 1, k, NULL, NULL, tie));
            for (s = 0; s < t.num_nodes; s++)
                for (dst = 0; dst < t.num_nodes; dst++) {
                    int up = (int)((dst + t.num_nodes - s) % t.num_nodes), want;
                    sr_route rt = sr_route_dor(&t, s, t.proc_port, dst, 0);
                    if (s == dst) continue;
                    if (2 * up < k[0]) want = 0;
                    else if (2 * up > k[0]) want = 1;
                    else want = tie == SR_TIE_PLUS ? 0 : tie == SR_TIE_MINUS ? 1 : (int)(s & 1);
                    ST_CHECKF(rt.port == want, "k=%d tie=%d %u -> %u", k[0], tie, s, dst);
                }
        }
    {   /* an unknown tie-break is refused */
        sr_topology_desc d;
        sr_topology t;
        memset(&d, 0, sizeof d);
        d.num_dims = 1; d.radix[0] = 4;
        d.tie = 3;
        ST_EQ(SR_ERR_TIE, sr_topology_init(&t, &d));
        d.tie = -1;
        ST_EQ(SR_ERR_TIE, sr_topology_init(&t, &d));
        d.tie = SR_TIE_MINUS;
        ST_EQ(SR_OK, sr_topology_init(&t, &d));
        ST_EQ(SR_TIE_MINUS, t.tie);
    }
}

ST_TEST(route_dor_vc_rules) {
    /* 8-ring with the dateline at 3 (link 2-3): 1 -> 4 crosses it on the
     * second hop; a turn into y returns to the class's lower VC. */
    sr_topology t;
    int k[2] = { 8, 8 }, dl[2] = { 3, 0 }, c[2];
    uint32_t u, dst;
    sr_route r;
    ST_CHECK(rt_make(&t, 2, k, NULL, dl));
    c[0] = 1; c[1] = 0; u = sr_node_id(&t, c);
    c[0] = 4; c[1] = 2; dst = sr_node_id(&t, c);
    r = sr_route_dor(&t, u, t.proc_port, dst, 2);            /* response class */
    ST_EQ(0, r.port); ST_EQ(2, r.vc);                        /* 1 -> 2 */
    u = sr_neighbor(&t, u, 0);
    r = sr_route_dor(&t, u, 1, dst, r.vc);
    ST_EQ(0, r.port); ST_EQ(3, r.vc);                        /* 2 -> 3 crosses */
    u = sr_neighbor(&t, u, 0);
    r = sr_route_dor(&t, u, 1, dst, r.vc);
    ST_EQ(0, r.port); ST_EQ(3, r.vc);                        /* keeps VC3 */
    u = sr_neighbor(&t, u, 0);
    r = sr_route_dor(&t, u, 1, dst, r.vc);
    ST_EQ(2, r.port); ST_EQ(2, r.vc);                        /* turn: back to VC2 */
    /* crossing -x: from 3 to 2 */
    c[0] = 3; c[1] = 0; u = sr_node_id(&t, c);
    c[0] = 0; dst = sr_node_id(&t, c);
    r = sr_route_dor(&t, u, t.proc_port, dst, 0);
    ST_EQ(1, r.port); ST_EQ(1, r.vc);
    ST_EQ(1, sr_crosses_dateline(&t, 1, 3));
    ST_EQ(1, sr_crosses_dateline(&t, 0, 2));
    ST_EQ(0, sr_crosses_dateline(&t, 0, 3));
    ST_EQ(1, sr_crosses_dateline(&t, 2, 7));                 /* y wrap 7 -> 0 */
}

ST_TEST(route_entry_vc_update) {
    int vc;
    for (vc = 0; vc < 4; vc++) {
        ST_EQ(vc, sr_entry_vc(sr_entry_make(3, SR_VC_KEEP), vc));
        ST_EQ(vc & 2, sr_entry_vc(sr_entry_make(3, SR_VC_LOWER), vc));
        ST_EQ((vc & 2) | 1, sr_entry_vc(sr_entry_make(3, SR_VC_UPPER), vc));
    }
    ST_EQ(5, sr_entry_port(sr_entry_make(5, SR_VC_UPPER)));
    ST_EQ(SR_PORT_NONE, sr_entry_port(SR_ENTRY_NONE));
}

/* Compare lookup with the routing function for every input port and
 * destination of the routers r0, r0 + rstep, ...; returns the number of
 * mismatches. */
static long rt_table_vs_function(const sr_topology *t, uint8_t *buf, uint32_t r0, uint32_t rstep) {
    uint32_t u, dst;
    long bad = 0;
    int ip;
    for (u = r0; u < t->num_nodes; u += rstep) {
        if (sr_table_build_dor(t, u, buf, t->table_size) != SR_OK) return -1;
        for (ip = 0; ip < t->num_ports; ip++)
            for (dst = 0; dst < t->num_nodes; dst++)
                bad += sr_table_lookup(t, buf, u, ip, dst) != sr_dor_entry(t, u, ip, dst);
    }
    return bad;
}

ST_TEST(route_table_lookup_equals_routing_function) {
    /* Every (router, input port, destination) of a single-partition
     * network; then networks of 3 global partitions: every input port and
     * destination of every 97th (ring: 211th) router, every router under
     * --long. */
    sr_topology t;
    uint8_t *buf;
    {
        int k[3] = { 6, 6, 8 }, mesh[3] = { 0, 1, 0 }, dl[3] = { 2, 0, 6 }, tie;
        for (tie = SR_TIE_ALTERNATE; tie <= SR_TIE_MINUS; tie++) {
            ST_CHECK(rt_make_tie(&t, 3, k, mesh, dl, tie));
            buf = (uint8_t *)malloc(t.table_size);
            ST_EQ(0, rt_table_vs_function(&t, buf, 0, 1));
            free(buf);
        }
    }
    {   /* 6 x 4 x 512 = 12,288 nodes: partitions are slabs of 2 x planes;
         * all-minus ties (the partition middles too) */
        int k[3] = { 6, 4, 512 }, dl[3] = { 3, 1, 100 };
        ST_CHECK(rt_make_tie(&t, 3, k, NULL, dl, SR_TIE_MINUS));
        ST_EQ(3, t.num_partitions);
        buf = (uint8_t *)malloc(t.table_size);
        ST_EQ(0, rt_table_vs_function(&t, buf, 5, ST_LONG ? 1 : 97));
        free(buf);
    }
    {   /* a ring of 9000: 3 partitions, the last one partly used */
        int k[1] = { 9000 };
        ST_CHECK(rt_make(&t, 1, k, NULL, NULL));
        buf = (uint8_t *)malloc(t.table_size);
        ST_EQ(0, rt_table_vs_function(&t, buf, 3, ST_LONG ? 1 : 211));
        free(buf);
    }
}

ST_TEST(route_partition_rule_outside_destination_partition) {
    /* 16 x 16 x 32: partitions are slabs of 8 x planes; from x = 0 the
     * partition x in [8, 15] has its middle at 11.5: - is shorter
     * (4.5 < 11.5), even for x = 8 where + is the shortest path. */
    sr_topology t;
    int k[3] = { 16, 16, 32 }, c[3];
    uint32_t u, dst;
    sr_entry e;
    ST_CHECK(rt_make(&t, 3, k, NULL, NULL));
    ST_EQ(2, t.num_partitions);
    c[0] = 0; c[1] = 0; c[2] = 0; u = sr_node_id(&t, c);
    c[0] = 8; dst = sr_node_id(&t, c);
    e = sr_dor_entry(&t, u, t.proc_port, dst);
    ST_EQ(1, sr_entry_port(e));
    ST_EQ(SR_VC_UPPER, sr_entry_vc_update(e));               /* 0 -> 15 crosses */
    /* from x = 4: middle 11.5 is 7.5 up, 8.5 down: + */
    c[0] = 4; u = sr_node_id(&t, c);
    ST_EQ(0, sr_entry_port(sr_dor_entry(&t, u, t.proc_port, dst)));
    /* once inside the partition the route is the shortest again: x = 8
     * to x = 15 goes + (7 hops, not 9) */
    c[0] = 8; u = sr_node_id(&t, c);
    c[0] = 15; dst = sr_node_id(&t, c);
    ST_EQ(0, sr_entry_port(sr_dor_entry(&t, u, t.proc_port, dst)));
}

ST_TEST(route_table_build_rejects_bad_buffers) {
    sr_topology t;
    int k[3] = { 4, 4, 4 };
    uint8_t buf[7 * (8 + 64) + 16];
    size_t i;
    ST_CHECK(rt_make(&t, 3, k, NULL, NULL));
    ST_EQ(7 * (8 + 64), (long long)sr_table_size(&t));
    memset(buf, 0x5A, sizeof buf);
    ST_EQ(SR_ERR_BUFFER_SIZE, sr_table_build_dor(&t, 0, buf, sr_table_size(&t) - 1));
    ST_EQ(SR_ERR_NODE_RANGE, sr_table_build_dor(&t, 64, buf, sizeof buf));
    ST_EQ(SR_ERR_NULL, sr_table_build_dor(&t, 0, NULL, sizeof buf));
    for (i = 0; i < sizeof buf; i++) ST_EQ(0x5A, buf[i]);
    ST_EQ(SR_OK, sr_table_build_dor(&t, 0, buf, sr_table_size(&t)));
    for (i = sr_table_size(&t); i < sizeof buf; i++) ST_EQ(0x5A, buf[i]);  /* no overrun */
}
