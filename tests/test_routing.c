/* SPDX-License-Identifier: MIT */
/* test_routing.c - seastar_route.h's candidate-set routing (>>routing):
 * every algorithm's candidates against brute force over the built
 * network (breadth-first distances, path enumeration, sr_route_dor), the
 * VC assignments of seed 004, the intermediates, UGAL's rule and hop
 * counts, selection by credits, and every error path. */
#include "st_test.h"
#include "routing_util.h"
#include "route_util.h"

#define RT_CAP 64

/* ---- init, VC counts ---- */

ST_TEST(routing_init_rejects_bad_descriptions) {
    sr_net cube, df, clos, fly, hx;
    sr_routing rt;
    sr_routing_desc d;
    sr_custom_routing cu;
    static const int k3[3] = { 4, 4, 4 }, s2[2] = { 3, 3 }, down[2] = { 2, 2 }, up[2] = { 2, 0 };
    ST_CHECK(ru_cube(&cube, 3, k3, NULL, 0) && ru_dragonfly(&df, 2, 4, 2, 0, 0) && ru_clos(&clos, 2, down, up) &&
             ru_butterfly(&fly, 2, 3) && ru_hyperx(&hx, 2, s2, 1));
    memset(&d, 0, sizeof d);
    ST_EQ(SR_ERR_NULL, sr_routing_init(NULL, &cube, &d));
    ST_EQ(SR_ERR_NULL, sr_routing_init(&rt, NULL, &d));
    ST_EQ(SR_ERR_NULL, sr_routing_init(&rt, &cube, NULL));
    d.algorithm = -1;
    ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &cube, &d));
    d.algorithm = SR_ALG_COUNT;
    ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &cube, &d));
    /* algorithms off their families */
    d.algorithm = SR_ALG_PAR;     ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &cube, &d));
    d.algorithm = SR_ALG_MINIMAL; ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &hx, &d));
    d.algorithm = SR_ALG_DOR;     ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &df, &d));
    d.algorithm = SR_ALG_UGAL;    ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &clos, &d));
    d.algorithm = SR_ALG_VALIANT; ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &fly, &d));
    d.algorithm = SR_ALG_UPDOWN;  ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &cube, &d));
    d.algorithm = SR_ALG_DEST_TAG; ST_EQ(SR_ERR_ALGORITHM, sr_routing_init(&rt, &clos, &d));
    /* options */
    d.algorithm = SR_ALG_DOR;
    d.flags = 8;                         ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.flags = SR_ROUTE_INTER_ROUTER;     ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.flags = SR_ROUTE_NO_DATELINES;     ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &hx, &d));
    d.flags = 0; d.df_vc = SR_DF_VC_LOCAL; ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.df_vc = 2;                         ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &df, &d));
    d.df_vc = 0; d.escape = SR_ESCAPE_DOR; ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.algorithm = SR_ALG_MIN_ADAPTIVE; d.escape = SR_ESCAPE_HOPS;
    ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.escape = 3;                        ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    d.escape = -1;                       ST_EQ(SR_ERR_OPTION, sr_routing_init(&rt, &cube, &d));
    /* VCs */
    d.escape = 0;
    d.vcs = SR_ROUTE_MAX_VCS + 1;        ST_EQ(SR_ERR_VCS, sr_routing_init(&rt, &cube, &d));
    d.vcs = -1;                          ST_EQ(SR_ERR_VCS, sr_routing_init(&rt, &cube, &d));
    d.vcs = 2;                           ST_EQ(SR_ERR_VCS, sr_routing_init(&rt, &cube, &d));
    d.flags = SR_ROUTE_FEWER_VCS;        ST_EQ(SR_OK, sr_routing_init(&rt, &cube, &d));
    ST_EQ(2, rt.vcs);
    d.flags = 0; d.vcs = 0;              ST_EQ(SR_OK, sr_routing_init(&rt, &cube, &d));
    ST_EQ(3, rt.vcs);                    /* 0: as many as needed */
    /* custom */
    d.algorithm = SR_ALG_CUSTOM; d.custom = NULL;
    ST_EQ(SR_ERR_NULL, sr_routing_init(&rt, &cube, &d));
    memset(&cu, 0, sizeof cu);
    d.custom = &cu;
    ST_EQ(SR_ERR_NULL, sr_routing_init(&rt, &cube, &d));
    /* messages name every new code */
    ST_CHECK(strstr(sr_route_result_string(SR_ERR_VCS), "VCs") != NULL);
    ST_CHECK(strstr(sr_route_result_string(SR_ERR_HEADER), "header") != NULL);
    ST_CHECK(strstr(sr_route_result_string(SR_ERR_DEADLOCK), "cycle") != NULL);
    ST_EQ_STR(sr_result_string(SR_ERR_NULL), sr_route_result_string(SR_ERR_NULL));
    ST_EQ_STR("unknown result", sr_route_result_string(SR_ROUTE_RESULT_END));
    ST_EQ_STR("par", sr_algorithm_name(SR_ALG_PAR));
    ST_EQ_STR("?", sr_algorithm_name(99));
}

ST_TEST(routing_vcs_needed_are_the_seeds_counts) {
    /* seed 004 Section 5.5.3: "two VCs are needed for minimal routing and
     * three VCs are required for non-minimal routing"; Section 5.5.2.2:
     * Valiant's "Two VCs, one for each phase"; Section 5.5.2.1: minimal
     * adaptive "n' VC ... based on the number of hops remaining". */
    sr_net df, hx2, hx3, cube, mesh;
    sr_routing_desc d;
    static const int s2[2] = { 4, 4 }, s3[3] = { 3, 3, 3 }, k2[2] = { 5, 5 }, m2[2] = { 1, 1 };
    ST_CHECK(ru_dragonfly(&df, 2, 4, 2, 0, 0) && ru_hyperx(&hx2, 2, s2, 1) && ru_hyperx(&hx3, 3, s3, 1) &&
             ru_cube(&cube, 2, k2, NULL, 0) && ru_cube(&mesh, 2, k2, m2, 0));
    memset(&d, 0, sizeof d);
    d.algorithm = SR_ALG_MINIMAL; ST_EQ(2, sr_routing_vcs_needed(&df, &d));
    d.algorithm = SR_ALG_VALIANT; ST_EQ(3, sr_routing_vcs_needed(&df, &d));
    d.algorithm = SR_ALG_UGAL;    ST_EQ(3, sr_routing_vcs_needed(&df, &d));
    d.algorithm = SR_ALG_VALIANT; ST_EQ(2, sr_routing_vcs_needed(&hx2, &d));
    d.algorithm = SR_ALG_MIN_ADAPTIVE; ST_EQ(2, sr_routing_vcs_needed(&hx2, &d));
    ST_EQ(3, sr_routing_vcs_needed(&hx3, &d));
    /* a torus's dateline doubles each ring's VCs; a mesh needs none */
    d.algorithm = SR_ALG_DOR;     ST_EQ(2, sr_routing_vcs_needed(&cube, &d));
    ST_EQ(1, sr_routing_vcs_needed(&mesh, &d));
    d.algorithm = SR_ALG_VALIANT; ST_EQ(4, sr_routing_vcs_needed(&cube, &d));
    ST_EQ(2, sr_routing_vcs_needed(&mesh, &d));
    d.flags = SR_ROUTE_NO_DATELINES; ST_EQ(2, sr_routing_vcs_needed(&cube, &d));
    d.flags = 0;
    d.algorithm = SR_ALG_PAR; ST_EQ(-1, sr_routing_vcs_needed(&cube, &d));
    ST_EQ(-1, sr_routing_vcs_needed(NULL, &d));
}

/* ---- dimension order ---- */

/* The cube's dimension-order candidates are sr_route_dor's routes, hop by
 * hop (port and VC), for every pair. */
static void rt_dor_equals(st_ctx *st__ctx, int n, const int *k, const int *mesh, int tie) {
    sr_net net;
    sr_topology t;
    sr_routing rt;
    uint32_t s, dst;
    ST_CHECK(ru_cube(&net, n, k, mesh, tie));
    ST_CHECK(rt_make_tie(&t, n, k, mesh, NULL, tie));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_DOR, 0, 0, 0, 0));
    for (s = 0; s < t.num_nodes; s++)
        for (dst = 0; dst < t.num_nodes; dst++) {
            sr_header h;
            sr_candidate c[RT_CAP];
            uint32_t u = s;
            int in_port = t.proc_port, in_vc = 0, hops = 0, cnt;
            ST_EQ(SR_OK, sr_route_header_init(&rt, s, dst, SR_NO_NODE, &h));
            for (;;) {
                sr_route want = sr_route_dor(&t, u, in_port, dst, in_vc);
                ST_EQ(SR_OK, sr_route_candidates(&rt, u, in_port, in_vc, &h, c, RT_CAP, &cnt));
                ST_EQ(1, cnt);
                ST_EQ(want.port, c[0].port);
                if (want.port == t.proc_port) break;
                ST_EQ(want.vc, c[0].vc_lo);
                ST_EQ(want.vc, c[0].vc_hi);
                ST_EQ(SR_OK, sr_route_advance(&rt, u, &c[0], c[0].vc_lo, &h));
                in_vc = c[0].vc_lo;
                in_port = c[0].port ^ 1;
                u = sr_neighbor(&t, u, c[0].port);
                ST_CHECK(++hops <= 64);
            }
            ST_EQ(dst, u);
            ST_EQ(hops, h.hops);
        }
}

ST_TEST(routing_dor_cube_equals_sr_route_dor_for_every_pair) {
    static const int k1[3] = { 4, 5, 3 }, m0[3] = { 0, 0, 0 }, m1[3] = { 0, 1, 0 }, k2[2] = { 6, 4 },
                     m2[2] = { 1, 1 }, k3[1] = { 8 };
    RU_CALL(rt_dor_equals(st__ctx, 3, k1, m0, SR_TIE_ALTERNATE));
    RU_CALL(rt_dor_equals(st__ctx, 3, k1, m1, SR_TIE_ALTERNATE));
    RU_CALL(rt_dor_equals(st__ctx, 2, k2, NULL, SR_TIE_PLUS));
    RU_CALL(rt_dor_equals(st__ctx, 2, k2, NULL, SR_TIE_MINUS));
    RU_CALL(rt_dor_equals(st__ctx, 2, k2, m2, SR_TIE_ALTERNATE));
    RU_CALL(rt_dor_equals(st__ctx, 1, k3, NULL, SR_TIE_ALTERNATE));
}

ST_TEST(routing_dor_hyperx_corrects_dimensions_in_increasing_order) {
    /* oracle: from router u the only candidate leads one hop closer (BFS)
     * and changes the lowest dimension whose coordinate differs */
    static const int s3[3] = { 3, 4, 2 };
    sr_net net;
    sr_routing rt;
    int *dist;
    uint32_t u, dst, R;
    ST_CHECK(ru_hyperx(&net, 3, s3, 2));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_DOR, 0, 0, 0, 0));
    dist = ru_bfs_all(&net);
    R = net.num_routers;
    for (u = 0; u < R; u++)
        for (dst = 0; dst < net.num_terminals; dst++) {
            sr_header h;
            sr_candidate c[RT_CAP];
            int cnt, cu[SR_MAX_DIMS], cv[SR_MAX_DIMS], cd[SR_MAX_DIMS], d, first = -1;
            uint32_t dr = sr_net_eject_router(&net, dst, NULL), v;
            ST_EQ(SR_OK, sr_route_header_init(&rt, 0, dst, SR_NO_NODE, &h));
            ST_EQ(SR_OK, sr_route_candidates(&rt, u, 0, 0, &h, c, RT_CAP, &cnt));
            ST_EQ(1, cnt);
            if (u == dr) { ST_EQ(sr_net_port_terminal(&net, u, c[0].port), dst); continue; }
            v = sr_net_neighbor(&net, u, c[0].port, NULL);
            ST_CHECK(v != SR_NO_NODE);
            ST_EQ(dist[(size_t)u * R + dr] - 1, dist[(size_t)v * R + dr]);
            sr_net_router_coords(&net, u, cu); sr_net_router_coords(&net, v, cv); sr_net_router_coords(&net, dr, cd);
            for (d = 0; d < 3; d++) if (cu[d] != cd[d] && first < 0) first = d;
            for (d = 0; d < 3; d++) ST_EQ(d == first ? cd[d] : cu[d], cv[d]);
        }
    free(dist);
}

/* ---- minimal candidates against breadth-first distances ---- */

/* Every (router, destination): the minimal-class candidates are exactly
 * the ports whose neighbour is one hop closer to the destination's router
 * (BFS); an escape candidate, if any, is one of them. */
static void rt_minimal_is_bfs(st_ctx *st__ctx, const sr_routing *rt) {
    const sr_net *net = &rt->net;
    int *dist = ru_bfs_all(net);
    uint32_t u, dst, R = net->num_routers;
    for (u = 0; u < R; u++)
        for (dst = 0; dst < net->num_terminals; dst++) {
            sr_header h;
            sr_candidate c[RT_CAP];
            uint8_t mark[SR_NET_MAX_PORTS];
            int cnt, i, p, np = sr_net_num_ports(net, u), eport;
            uint32_t dr = sr_net_eject_router(net, dst, &eport);
            if (dist[(size_t)u * R + dr] < 0) continue;        /* butterfly: not upstream */
            ST_EQ(SR_OK, sr_route_header_init(rt, 0, dst, SR_NO_NODE, &h));
            ST_EQ(SR_OK, sr_route_candidates(rt, u, 0, 0, &h, c, RT_CAP, &cnt));
            memset(mark, 0, sizeof mark);
            if (u == dr) { ST_EQ(1, cnt); ST_EQ(eport, c[0].port); continue; }
            for (i = 0; i < cnt; i++) {
                ST_CHECK(c[i].port >= 0 && c[i].port < np);
                ST_CHECK(c[i].vc_lo <= c[i].vc_hi && c[i].vc_hi < rt->vcs);
                if (c[i].cls == SR_CLASS_MINIMAL) mark[c[i].port] |= 1;
                if (c[i].cls == SR_CLASS_ESCAPE) mark[c[i].port] |= 2;
            }
            for (p = 0; p < np; p++) {
                uint32_t v = sr_net_neighbor(net, u, p, NULL);
                int closer = v != SR_NO_NODE && dist[(size_t)v * R + dr] == dist[(size_t)u * R + dr] - 1;
                ST_CHECKF(closer == (mark[p] & 1), "router %u dest %u port %d: closer %d, candidate %d", u, dst, p,
                          closer, mark[p] & 1);
                if (mark[p] & 2) ST_CHECK(closer);
            }
        }
    free(dist);
}

ST_TEST(routing_minimal_adaptive_offers_every_productive_port) {
    static const int k[3] = { 4, 5, 3 }, m[3] = { 0, 1, 0 }, s[3] = { 3, 2, 4 };
    sr_net net;
    sr_routing rt;
    ST_CHECK(ru_cube(&net, 3, k, m, 0));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_MIN_ADAPTIVE, 4, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
    ST_CHECK(ru_hyperx(&net, 3, s, 2));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_MIN_ADAPTIVE, 0, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_MIN_ADAPTIVE, 3, 0, 0, SR_ESCAPE_DOR));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
}

ST_TEST(routing_updown_and_dest_tag_follow_breadth_first_distances) {
    /* folded Clos: up ports until a common ancestor, then the one down
     * port; butterfly: the single path */
    static const int down[3] = { 2, 3, 2 }, up[3] = { 2, 2, 0 }, down2[2] = { 3, 4 }, up2[2] = { 3, 0 };
    sr_net net;
    sr_routing rt;
    ST_CHECK(ru_clos(&net, 3, down, up));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_UPDOWN, 0, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
    ST_CHECK(ru_clos(&net, 2, down2, up2));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_UPDOWN, 0, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
    ST_CHECK(ru_butterfly(&net, 3, 3));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_DEST_TAG, 0, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
    ST_CHECK(ru_butterfly(&net, 2, 1));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_DEST_TAG, 0, 0, 0, 0));
    RU_CALL(rt_minimal_is_bfs(st__ctx, &rt));
}

/* ---- the dragonfly ---- */

/* Oracle of the seed's minimal routing, by enumeration over the built
 * network: the first ports of the paths from u to dr made of at most one
 * local hop, exactly one global hop, at most one local hop (in that
 * order; a single local hop inside a group); when u itself has a global
 * channel to dr's group, only those. */
static void rt_df_oracle(const sr_net *net, uint32_t u, uint32_t dr, uint8_t *want) {
    int np = sr_net_num_ports(net, u), p, q, r, own = 0;
    uint32_t a = (uint32_t)net->desc.dragonfly.a;
    memset(want, 0, SR_NET_MAX_PORTS);
    for (p = 0; p < np; p++) {
        sr_port_info pi = sr_net_port_info(net, u, p);
        uint32_t v = sr_net_neighbor(net, u, p, NULL);
        if (pi.kind == SR_PORT_GLOBAL && v / a == dr / a) own = 1;
    }
    for (p = 0; p < np; p++) {
        sr_port_info pi = sr_net_port_info(net, u, p);
        uint32_t v = sr_net_neighbor(net, u, p, NULL);
        if (v == SR_NO_NODE) continue;
        if (u / a == dr / a) { want[p] = pi.kind == SR_PORT_LOCAL && v == dr; continue; }
        if (pi.kind == SR_PORT_GLOBAL) {
            if (v / a != dr / a) continue;
            if (v == dr) { want[p] = 1; continue; }
            for (q = 0; q < sr_net_num_ports(net, v); q++)
                if (sr_net_port_info(net, v, q).kind == SR_PORT_LOCAL && sr_net_neighbor(net, v, q, NULL) == dr)
                    want[p] = 1;
        } else if (pi.kind == SR_PORT_LOCAL && !own) {
            for (q = 0; q < sr_net_num_ports(net, v); q++) {
                uint32_t w = sr_net_neighbor(net, v, q, NULL);
                if (sr_net_port_info(net, v, q).kind != SR_PORT_GLOBAL || w / a != dr / a) continue;
                if (w == dr) want[p] = 1;
                for (r = 0; r < sr_net_num_ports(net, w); r++)
                    if (sr_net_port_info(net, w, r).kind == SR_PORT_LOCAL && sr_net_neighbor(net, w, r, NULL) == dr)
                        want[p] = 1;
            }
        }
    }
}

ST_TEST(routing_dragonfly_minimal_is_the_seeds_three_steps) {
    /* every (router, destination), on a maximum-size dragonfly and on
     * smaller ones with several channels between two groups, both global
     * arrangements */
    static const int shapes[4][5] = { { 2, 4, 2, 0, 0 }, { 1, 4, 2, 5, 1 }, { 1, 3, 2, 3, 0 }, { 1, 2, 3, 4, 1 } };
    int sh;
    for (sh = 0; sh < 4; sh++) {
        sr_net net;
        sr_routing rt;
        uint32_t u, dst;
        ST_CHECK(ru_dragonfly(&net, shapes[sh][0], shapes[sh][1], shapes[sh][2], shapes[sh][3], shapes[sh][4]));
        ST_CHECK(ru_routing(&rt, &net, SR_ALG_MINIMAL, 0, 0, 0, 0));
        for (u = 0; u < net.num_routers; u++)
            for (dst = 0; dst < net.num_terminals; dst++) {
                sr_header h;
                sr_candidate c[RT_CAP];
                uint8_t want[SR_NET_MAX_PORTS], got[SR_NET_MAX_PORTS];
                int cnt, i, p;
                uint32_t dr = sr_net_eject_router(&net, dst, NULL);
                ST_EQ(SR_OK, sr_route_header_init(&rt, 0, dst, SR_NO_NODE, &h));
                ST_EQ(SR_OK, sr_route_candidates(&rt, u, 0, 0, &h, c, RT_CAP, &cnt));
                ST_CHECK(cnt <= sr_route_max_candidates(&rt));
                if (u == dr) { ST_EQ(1, cnt); ST_EQ(dst, sr_net_port_terminal(&net, u, c[0].port)); continue; }
                rt_df_oracle(&net, u, dr, want);
                memset(got, 0, sizeof got);
                for (i = 0; i < cnt; i++) { ST_EQ(SR_CLASS_MINIMAL, c[i].cls); got[c[i].port] = 1; }
                for (p = 0; p < sr_net_num_ports(&net, u); p++)
                    ST_CHECKF(want[p] == got[p], "shape %d router %u dest %u port %d: oracle %d, routing %d", sh, u, dst,
                              p, want[p], got[p]);
            }
    }
}

/* Walk every (source, destination[, intermediate]) pair of a dragonfly
 * routing down every branch of its candidates (the first VC of each),
 * checking each hop's VC level: seed 004 Figure 5.4 -- the VC is the
 * number of global channels crossed before the hop (SR_DF_VC_GLOBALS);
 * SR_DF_VC_LOCAL adds the local hops that followed a local hop.  *maxhops
 * gets the most hops seen. */
static void rt_df_walk(st_ctx *st__ctx, const sr_routing *rt, uint32_t u, sr_header h, int globals, int extra,
                       int last_local, int depth, int *maxhops) {
    sr_candidate c[RT_CAP];
    int cnt, i;
    uint32_t dr = sr_net_eject_router(&rt->net, h.dest, NULL);
    ST_CHECK(depth <= 8);
    ST_EQ(SR_OK, sr_route_candidates(rt, u, 0, 0, &h, c, RT_CAP, &cnt));
    ST_CHECK(cnt >= 1);
    for (i = 0; i < cnt; i++) {
        sr_port_info pi = sr_net_port_info(&rt->net, u, c[i].port);
        sr_header h2 = h;
        int level, local = pi.kind == SR_PORT_LOCAL;
        if (pi.kind == SR_PORT_TERMINAL) {
            ST_EQ(dr, u);
            if (depth > *maxhops) *maxhops = depth;
            continue;
        }
        level = globals + (rt->desc.df_vc == SR_DF_VC_LOCAL ? extra + (local && last_local) : 0);
        ST_EQ(level, c[i].vc_lo);
        ST_EQ(level, c[i].vc_hi);
        ST_EQ(SR_OK, sr_route_advance(rt, u, &c[i], c[i].vc_lo, &h2));
        RU_CALL(rt_df_walk(st__ctx, rt, sr_net_neighbor(&rt->net, u, c[i].port, NULL), h2,
                           globals + (pi.kind == SR_PORT_GLOBAL), extra + (local && last_local), local, depth + 1,
                           maxhops));
    }
}

ST_TEST(routing_dragonfly_vc_assignment_of_figure_5_4) {
    /* minimal: VC0, VC0, VC1 (at most 3 hops); Valiant to a group: VC0,
     * VC0, VC1, VC1, VC2 (at most 5); PAR under SR_DF_VC_LOCAL: a new VC
     * for its second local hop in the source group (at most 6 hops, 4 VCs) */
    sr_net net;
    sr_routing rt;
    int alg, most[3] = { 3, 5, 6 }, a;
    ST_CHECK(ru_dragonfly(&net, 1, 4, 2, 0, 0));
    for (a = 0; a < 3; a++) {
        uint32_t s, dst, i;
        int maxhops = 0;
        alg = a == 0 ? SR_ALG_MINIMAL : a == 1 ? SR_ALG_VALIANT : SR_ALG_PAR;
        ST_CHECK(ru_routing(&rt, &net, alg, 0, 0, a == 2 ? SR_DF_VC_LOCAL : 0, 0));
        ST_EQ(a == 0 ? 2 : a == 1 ? 3 : 4, rt.vcs);
        for (s = 0; s < net.num_terminals; s++)
            for (dst = 0; dst < net.num_terminals; dst++)
                for (i = 0; i < (rt.inters ? rt.inters : 1); i++) {
                    sr_header h;
                    ST_EQ(SR_OK, sr_route_header_init(&rt, s, dst, rt.inters ? i : SR_NO_NODE, &h));
                    RU_CALL(rt_df_walk(st__ctx, &rt, sr_net_terminal_router(&net, s, NULL), h, 0, 0, 0, 0, &maxhops));
                }
        ST_EQ(most[a], maxhops);
    }
}

/* ---- Valiant, UGAL, PAR ---- */

ST_TEST(routing_intermediates_enumerate_the_network) {
    /* cube and HyperX: every router; dragonfly: every group (or router);
     * folded Clos: every top switch (the routers without up ports) */
    static const int k[2] = { 3, 4 }, down[3] = { 2, 2, 3 }, up[3] = { 2, 3, 0 };
    sr_net cube, hx, df, clos;
    sr_routing rt;
    uint32_t u, tops = 0, i;
    uint64_t r;
    ST_CHECK(ru_cube(&cube, 2, k, NULL, 0) && ru_hyperx(&hx, 2, k, 1) && ru_dragonfly(&df, 2, 4, 2, 0, 0) &&
             ru_clos(&clos, 3, down, up));
    ST_CHECK(ru_routing(&rt, &cube, SR_ALG_VALIANT, 0, 0, 0, 0));
    ST_EQ(cube.num_routers, sr_route_inter_count(&rt));
    ST_CHECK(ru_routing(&rt, &hx, SR_ALG_UGAL, 0, 0, 0, 0));
    ST_EQ(hx.num_routers, sr_route_inter_count(&rt));
    ST_CHECK(ru_routing(&rt, &df, SR_ALG_PAR, 0, 0, SR_DF_VC_LOCAL, 0));
    ST_EQ(9, sr_route_inter_count(&rt));
    ST_CHECK(ru_routing(&rt, &df, SR_ALG_VALIANT, 0, SR_ROUTE_INTER_ROUTER, 0, 0));
    ST_EQ(df.num_routers, sr_route_inter_count(&rt));
    for (u = 0; u < clos.num_routers; u++) {
        int p, ups = 0;
        for (p = 0; p < sr_net_num_ports(&clos, u); p++) ups += sr_net_port_info(&clos, u, p).kind == SR_PORT_UP;
        tops += ups == 0;
    }
    ST_CHECK(ru_routing(&rt, &clos, SR_ALG_VALIANT, 0, 0, 0, 0));
    ST_EQ(tops, sr_route_inter_count(&rt));
    ST_CHECK(ru_routing(&rt, &clos, SR_ALG_UPDOWN, 0, 0, 0, 0));
    ST_EQ(0, sr_route_inter_count(&rt));
    ST_EQ(SR_NO_NODE, sr_route_inter_pick(&rt, 12345));
    /* the pick: in range at the extremes, and every intermediate for the
     * random numbers i * 2^64 / count */
    ST_CHECK(ru_routing(&rt, &cube, SR_ALG_VALIANT, 0, 0, 0, 0));
    ST_EQ(0, sr_route_inter_pick(&rt, 0));
    ST_EQ(cube.num_routers - 1, sr_route_inter_pick(&rt, ~0ull));
    for (i = 0; i < cube.num_routers; i++) {
        r = ((((uint64_t)i << 32) + (1ull << 32) - 1) / cube.num_routers) << 32;
        ST_EQ(i, sr_route_inter_pick(&rt, r + (1ull << 31)));
    }
}

ST_TEST(routing_valiant_visits_its_intermediate) {
    /* every (source, destination, intermediate) of a 4x3 torus and a 3x3
     * HyperX: the path passes the intermediate, switches phase there, uses
     * VC set 0 before and set 1 after, ends at the destination, and is as
     * long as the breadth-first distances through the intermediate */
    static const int k[2] = { 4, 3 };
    int which;
    for (which = 0; which < 2; which++) {
        sr_net net;
        sr_routing rt;
        int *dist;
        uint32_t s, dst, i, R;
        ST_CHECK(which ? ru_hyperx(&net, 2, k, 1) : ru_cube(&net, 2, k, NULL, 0));
        ST_CHECK(ru_routing(&rt, &net, SR_ALG_VALIANT, 0, 0, 0, 0));
        dist = ru_bfs_all(&net);
        R = net.num_routers;
        for (s = 0; s < net.num_terminals; s++)
            for (dst = 0; dst < net.num_terminals; dst++)
                for (i = 0; i < rt.inters; i++) {
                    sr_header h;
                    sr_candidate c[RT_CAP];
                    uint32_t u = sr_net_terminal_router(&net, s, NULL), dr = sr_net_eject_router(&net, dst, NULL);
                    int hops = 0, seen = u == i, cnt, want;
                    ST_EQ(SR_OK, sr_route_header_init(&rt, s, dst, i, &h));
                    want = dist[(size_t)u * R + i] + dist[(size_t)i * R + dr];
                    ST_EQ(want, sr_route_hops(&rt, u, &h, h.phase == SR_PHASE_TO_INTER ? SR_CLASS_NONMINIMAL : SR_CLASS_MINIMAL));
                    for (;;) {
                        int set;
                        ST_EQ(SR_OK, sr_route_candidates(&rt, u, 0, 0, &h, c, RT_CAP, &cnt));
                        ST_EQ(1, cnt);
                        if (sr_net_port_info(&net, u, c[0].port).kind == SR_PORT_TERMINAL) break;
                        set = c[0].vc_lo / (rt.vcs / 2);
                        ST_EQ(seen ? 1 : 0, set);
                        ST_EQ(seen ? SR_CLASS_MINIMAL : SR_CLASS_NONMINIMAL, c[0].cls);
                        ST_EQ(SR_OK, sr_route_advance(&rt, u, &c[0], c[0].vc_lo, &h));
                        u = sr_net_neighbor(&net, u, c[0].port, NULL);
                        if (u == i) { seen = 1; ST_EQ(SR_PHASE_TO_DEST, h.phase); ST_EQ(SR_NO_NODE, h.inter); }
                        ST_CHECK(++hops <= 32);
                    }
                    ST_CHECK(seen);
                    ST_EQ(dr, u);
                    ST_EQ(want, hops);
                }
        free(dist);
    }
}

/* Every path of a routing from router u for header h, down every branch
 * (first VC), restricted at the first hop to candidates of class cls:
 * the fewest hops to the destination. */
static int rt_fewest(const sr_routing *rt, uint32_t u, const sr_header *h, int cls, int depth) {
    sr_candidate c[RT_CAP];
    int cnt, i, best = 1 << 20;
    if (depth > 12 || sr_route_candidates(rt, u, 0, 0, h, c, RT_CAP, &cnt) != SR_OK) return 1 << 20;
    for (i = 0; i < cnt; i++) {
        sr_header h2 = *h;
        int x;
        if (cls >= 0 && c[i].cls != cls) continue;
        if (sr_net_port_info(&rt->net, u, c[i].port).kind == SR_PORT_TERMINAL) return 0;
        if (sr_route_advance(rt, u, &c[i], c[i].vc_lo, &h2) != SR_OK) return -1;
        x = 1 + rt_fewest(rt, sr_net_neighbor(&rt->net, u, c[i].port, NULL), &h2, -1, depth + 1);
        if (x < best) best = x;
    }
    return best;
}

ST_TEST(routing_ugal_hop_counts_are_the_routings_paths) {
    /* H_m against breadth-first distances on every family; H_m and H_nm
     * against the fewest hops of the routing's own paths (every branch) of
     * each class from an undecided header (dragonfly: both arrangements,
     * a smaller dragonfly with two channels between groups) */
    static const int k[2] = { 4, 3 };
    sr_net nets[4];
    int which;
    ST_CHECK(ru_cube(&nets[0], 2, k, NULL, 0) && ru_hyperx(&nets[1], 2, k, 2) &&
             ru_dragonfly(&nets[2], 1, 4, 2, 0, 1) && ru_dragonfly(&nets[3], 2, 3, 2, 4, 0));
    int shorter = 0;
    for (which = 0; which < 4; which++) {
        sr_routing rt;
        int *dist = ru_bfs_all(&nets[which]);
        uint32_t s, dst, i, R = nets[which].num_routers;
        ST_CHECK(ru_routing(&rt, &nets[which], SR_ALG_UGAL, 0, 0, 0, 0));
        for (s = 0; s < nets[which].num_terminals; s++)
            for (dst = 0; dst < nets[which].num_terminals; dst++)
                for (i = 0; i < rt.inters; i++) {
                    sr_header h;
                    uint32_t u = sr_net_terminal_router(&rt.net, s, NULL), dr = sr_net_eject_router(&rt.net, dst, NULL);
                    ST_EQ(SR_OK, sr_route_header_init(&rt, s, dst, i, &h));
                    ST_EQ(rt_fewest(&rt, u, &h, SR_CLASS_MINIMAL, 0), sr_route_hops(&rt, u, &h, SR_CLASS_MINIMAL));
                    /* (the dragonfly's minimal routing crosses one global
                     * channel; two global channels can be fewer hops) */
                    if (which < 2) ST_EQ(dist[(size_t)u * R + dr], sr_route_hops(&rt, u, &h, SR_CLASS_MINIMAL));
                    else {
                        ST_CHECK(dist[(size_t)u * R + dr] <= sr_route_hops(&rt, u, &h, SR_CLASS_MINIMAL));
                        shorter += dist[(size_t)u * R + dr] < sr_route_hops(&rt, u, &h, SR_CLASS_MINIMAL);
                    }
                    if (h.phase != SR_PHASE_UNDECIDED) ST_EQ(-1, sr_route_hops(&rt, u, &h, SR_CLASS_NONMINIMAL));
                    else if (u != dr)   /* (at the destination's router UGAL only ejects) */
                        ST_EQ(rt_fewest(&rt, u, &h, SR_CLASS_NONMINIMAL, 0), sr_route_hops(&rt, u, &h, SR_CLASS_NONMINIMAL));
                }
        free(dist);
    }
    ST_CHECK(shorter > 0);   /* two global channels are fewer hops for some pairs */
}

ST_TEST(routing_ugal_rule_on_hand_worked_cases) {
    /* seed 004 Section 5.3.2: minimal iff q_m * H_m <= q_nm * H_nm */
    ST_EQ(1, sr_ugal_minimal(2, 3, 1, 6, 0));    /* 6 <= 6 */
    ST_EQ(0, sr_ugal_minimal(3, 3, 1, 6, 0));    /* 9 > 6 */
    ST_EQ(1, sr_ugal_minimal(3, 3, 1, 6, 3));    /* 9 <= 6 + 3 */
    ST_EQ(0, sr_ugal_minimal(3, 3, 1, 6, 2));
    ST_EQ(1, sr_ugal_minimal(0, 5, 0, 9, 0));    /* empty queues: minimal */
    ST_EQ(0, sr_ugal_minimal(1, 1, 0, 9, 0));
    ST_EQ(1, sr_ugal_minimal(7, 0, 1, 1, 0));    /* at the destination */
    ST_EQ(1, sr_ugal_minimal(7, -4, 1, 1, 0));   /* negative hops count as 0 */
    ST_EQ(1, sr_ugal_minimal(0xFFFFFFFFu, 1000, 0xFFFFFFFFu, 1000, 0));
    ST_EQ(0, sr_ugal_minimal(5, 2, 1, 2, -8));   /* a negative bias favours Valiant */
}

ST_TEST(routing_ugal_and_par_decide_as_the_seed_says) {
    /* the source's candidates are the minimal ones (class minimal) and
     * Valiant's first hop (class non-minimal); UGAL commits at the first
     * hop; PAR stays undecided over minimal local hops in the source group
     * and commits on a non-minimal hop or on leaving the group */
    sr_net net;
    sr_routing ugal, par, minr, val;
    uint32_t s, dst, i;
    int checked_par = 0;
    ST_CHECK(ru_dragonfly(&net, 1, 4, 2, 0, 0));
    ST_CHECK(ru_routing(&ugal, &net, SR_ALG_UGAL, 0, 0, 0, 0) && ru_routing(&par, &net, SR_ALG_PAR, 0, 0, SR_DF_VC_LOCAL, 0) &&
             ru_routing(&minr, &net, SR_ALG_MINIMAL, 0, 0, 0, 0) && ru_routing(&val, &net, SR_ALG_VALIANT, 0, 0, 0, 0));
    for (s = 0; s < net.num_terminals; s++)
        for (dst = 0; dst < net.num_terminals; dst++)
            for (i = 0; i < ugal.inters; i++) {
                sr_header hu, hm, hv, hp;
                sr_candidate cu[RT_CAP], cm[RT_CAP], cv[RT_CAP], cp[RT_CAP];
                int nu, nm, nv, np, j, nmin = 0;
                uint32_t u = sr_net_terminal_router(&net, s, NULL);
                ST_EQ(SR_OK, sr_route_header_init(&ugal, s, dst, i, &hu));
                ST_EQ(SR_OK, sr_route_header_init(&minr, s, dst, SR_NO_NODE, &hm));
                ST_EQ(SR_OK, sr_route_header_init(&val, s, dst, i, &hv));
                ST_EQ(SR_OK, sr_route_candidates(&ugal, u, 0, 0, &hu, cu, RT_CAP, &nu));
                ST_EQ(SR_OK, sr_route_candidates(&minr, u, 0, 0, &hm, cm, RT_CAP, &nm));
                ST_EQ(SR_OK, sr_route_candidates(&val, u, 0, 0, &hv, cv, RT_CAP, &nv));
                if (hu.phase != SR_PHASE_UNDECIDED) {
                    /* the intermediate is the source's or the destination's group */
                    ST_CHECK(i == u / 4 || i == sr_net_eject_router(&net, dst, NULL) / 4);
                    continue;
                }
                if (u == sr_net_eject_router(&net, dst, NULL)) {
                    /* at the destination's router: the ejection only */
                    ST_EQ(1, nu);
                    ST_EQ(SR_PORT_TERMINAL, sr_net_port_info(&net, u, cu[0].port).kind);
                    continue;
                }
                ST_EQ(nm + nv, nu);
                for (j = 0; j < nu; j++) {
                    const sr_candidate *want = j < nm ? &cm[j] : &cv[j - nm];
                    sr_header h2 = hu;
                    ST_EQ(want->port, cu[j].port);
                    ST_EQ(j < nm ? SR_CLASS_MINIMAL : SR_CLASS_NONMINIMAL, cu[j].cls);
                    ST_EQ(SR_OK, sr_route_advance(&ugal, u, &cu[j], cu[j].vc_lo, &h2));
                    if (j < nm) ST_EQ(SR_PHASE_MINIMAL, h2.phase);
                    else ST_EQ(sr_net_neighbor(&net, u, cu[j].port, NULL) / 4 == i ? SR_PHASE_TO_DEST : SR_PHASE_TO_INTER,
                               h2.phase);
                    nmin += j < nm;
                }
                ST_CHECK(nmin >= 1);
                /* PAR */
                ST_EQ(SR_OK, sr_route_header_init(&par, s, dst, i, &hp));
                ST_EQ(SR_OK, sr_route_candidates(&par, u, 0, 0, &hp, cp, RT_CAP, &np));
                for (j = 0; j < np; j++) {
                    sr_header h2 = hp;
                    int global = sr_net_port_info(&net, u, cp[j].port).kind == SR_PORT_GLOBAL;
                    uint32_t v = sr_net_neighbor(&net, u, cp[j].port, NULL);
                    ST_EQ(SR_OK, sr_route_advance(&par, u, &cp[j], cp[j].vc_lo, &h2));
                    if (cp[j].cls == SR_CLASS_NONMINIMAL) ST_CHECK(h2.phase == SR_PHASE_TO_INTER || h2.phase == SR_PHASE_TO_DEST);
                    else if (global) ST_EQ(SR_PHASE_MINIMAL, h2.phase);
                    else if (v != sr_net_eject_router(&net, dst, NULL)) {
                        /* re-evaluated at the next router: both kinds again */
                        sr_candidate c2[RT_CAP];
                        int n2, k2, kinds = 0;
                        ST_EQ(SR_PHASE_UNDECIDED, h2.phase);
                        ST_EQ(SR_OK, sr_route_candidates(&par, v, 0, 0, &h2, c2, RT_CAP, &n2));
                        for (k2 = 0; k2 < n2; k2++) kinds |= 1 << c2[k2].cls;
                        ST_EQ(3, kinds);
                        checked_par++;
                    }
                }
            }
    ST_CHECK(checked_par > 0);
}

ST_TEST(routing_global_channel_of_a_candidate) {
    /* UGAL-G's input: the channel named is a global port whose far end is
     * in the candidate's target group, at the candidate's own router (a
     * global candidate) or at the neighbour it leads to (a local one) */
    sr_net net;
    sr_routing rt;
    uint32_t s, dst, i, checked = 0;
    ST_CHECK(ru_dragonfly(&net, 1, 4, 2, 0, 1));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_UGAL, 0, 0, 0, 0));
    for (s = 0; s < net.num_terminals; s++)
        for (dst = 0; dst < net.num_terminals; dst++)
            for (i = 0; i < rt.inters; i++) {
                sr_header h;
                sr_candidate c[RT_CAP];
                int n, j;
                uint32_t u = sr_net_terminal_router(&net, s, NULL);
                ST_EQ(SR_OK, sr_route_header_init(&rt, s, dst, i, &h));
                ST_EQ(SR_OK, sr_route_candidates(&rt, u, 0, 0, &h, c, RT_CAP, &n));
                for (j = 0; j < n; j++) {
                    uint32_t ch = sr_route_global_channel(&rt, u, &c[j], &h), at, far, target;
                    int port;
                    sr_port_info pi = sr_net_port_info(&net, u, c[j].port);
                    target = c[j].cls == SR_CLASS_NONMINIMAL ? i : sr_net_eject_router(&net, dst, NULL) / 4;
                    if (pi.kind == SR_PORT_TERMINAL ||
                        (pi.kind == SR_PORT_LOCAL && sr_net_neighbor(&net, u, c[j].port, NULL) / 4 == target)) {
                        ST_EQ(SR_NO_NODE, ch);
                        continue;
                    }
                    ST_CHECK(ch != SR_NO_NODE);
                    at = ch / 2;
                    port = 1 + 3 + (int)(ch % 2);
                    ST_EQ(SR_PORT_GLOBAL, sr_net_port_info(&net, at, port).kind);
                    far = sr_net_neighbor(&net, at, port, NULL);
                    ST_EQ(target, far / 4);
                    ST_EQ(pi.kind == SR_PORT_GLOBAL ? u : sr_net_neighbor(&net, u, c[j].port, NULL), at);
                    checked++;
                }
            }
    ST_CHECK(checked > 100);
}

/* ---- selection ---- */

ST_TEST(routing_select_most_credits_escape_last_ties_at_random) {
    /* candidates: port 0 VCs 1-2 (minimal), port 1 VC 1 (minimal), port 2
     * VC 0 (escape), port 3 VC 2 (non-minimal); 3 VCs per port */
    sr_candidate c[4];
    int32_t cr[4 * 3];
    int vc = -1, hits[2] = { 0, 0 }, k;
    memset(c, 0, sizeof c);
    c[0].port = 0; c[0].vc_lo = 1; c[0].vc_hi = 2; c[0].cls = SR_CLASS_MINIMAL;
    c[1].port = 1; c[1].vc_lo = 1; c[1].vc_hi = 1; c[1].cls = SR_CLASS_MINIMAL;
    c[2].port = 2; c[2].vc_lo = 0; c[2].vc_hi = 0; c[2].cls = SR_CLASS_ESCAPE;
    c[3].port = 3; c[3].vc_lo = 2; c[3].vc_hi = 2; c[3].cls = SR_CLASS_NONMINIMAL;
    memset(cr, 0, sizeof cr);
    cr[0 * 3 + 1] = 3; cr[0 * 3 + 2] = 5; cr[1 * 3 + 1] = 4; cr[2 * 3 + 0] = 9; cr[3 * 3 + 2] = 1;
    ST_EQ(0, sr_route_select(c, 4, 0, cr, 3, 0, &vc));            /* port 0 VC 2: 5 credits */
    ST_EQ(2, vc);
    ST_EQ(3, sr_route_select(c, 4, 1u << SR_CLASS_NONMINIMAL, cr, 3, 0, &vc));   /* UGAL chose Valiant */
    ST_EQ(2, vc);
    ST_EQ(0, sr_route_select(c, 4, 1u << SR_CLASS_MINIMAL, cr, 3, 0, NULL));
    cr[0 * 3 + 1] = cr[0 * 3 + 2] = cr[1 * 3 + 1] = cr[3 * 3 + 2] = 0;
    ST_EQ(2, sr_route_select(c, 4, 0, cr, 3, 0, &vc));            /* nothing adaptive: the escape */
    ST_EQ(0, vc);
    cr[1 * 3 + 1] = 1;
    ST_EQ(1, sr_route_select(c, 4, 0, cr, 3, 0, &vc));            /* one credit beats the escape's nine */
    cr[1 * 3 + 1] = 0; cr[2 * 3 + 0] = 0;
    ST_EQ(-1, sr_route_select(c, 4, 0, cr, 3, 0, &vc));
    ST_EQ(-1, sr_route_select(NULL, 4, 0, cr, 3, 0, &vc));
    /* ties: port 0 VC 2 and port 1 VC 1 both 6; the random number picks */
    cr[0 * 3 + 2] = 6; cr[1 * 3 + 1] = 6;
    for (k = 0; k < 64; k++) {
        uint64_t r = (uint64_t)k << 58;
        int i = sr_route_select(c, 4, 0, cr, 3, r, &vc);
        ST_CHECK(i == 0 || i == 1);
        ST_EQ(k < 32 ? 0 : 1, i);
        hits[i]++;
    }
    ST_EQ(32, hits[0]);
}

/* ---- errors ---- */

ST_TEST(routing_calls_reject_impossible_states) {
    sr_net df, cube, clos, fly;
    sr_routing rt, rc, rcl, rf;
    sr_header h, g;
    sr_candidate c[RT_CAP];
    int n = -1;
    static const int k[2] = { 4, 4 }, down[2] = { 2, 2 }, up[2] = { 2, 0 };
    ST_CHECK(ru_dragonfly(&df, 1, 4, 2, 0, 0) && ru_cube(&cube, 2, k, NULL, 0) && ru_clos(&clos, 2, down, up) &&
             ru_butterfly(&fly, 2, 2));
    ST_CHECK(ru_routing(&rt, &df, SR_ALG_VALIANT, 0, 0, 0, 0) && ru_routing(&rc, &cube, SR_ALG_DOR, 0, 0, 0, 0) &&
             ru_routing(&rcl, &clos, SR_ALG_VALIANT, 0, 0, 0, 0) && ru_routing(&rf, &fly, SR_ALG_DEST_TAG, 0, 0, 0, 0));
    /* header_init */
    ST_EQ(SR_ERR_NULL, sr_route_header_init(&rt, 0, 1, 0, NULL));
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_header_init(&rt, df.num_terminals, 1, 0, &h));
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_header_init(&rt, 0, df.num_terminals, 0, &h));
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_header_init(&rt, 0, 1, 9, &h));          /* 9 groups: 0..8 */
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_header_init(&rt, 0, 1, SR_NO_NODE, &h)); /* Valiant needs one */
    ST_EQ(SR_OK, sr_route_header_init(&rt, 0, 20, 5, &h));
    ST_EQ(SR_PHASE_TO_INTER, h.phase);
    /* candidates: arguments */
    ST_EQ(SR_ERR_NULL, sr_route_candidates(&rt, 0, 0, 0, NULL, c, RT_CAP, &n));
    ST_EQ(SR_ERR_NULL, sr_route_candidates(&rt, 0, 0, 0, &h, c, RT_CAP, NULL));
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_candidates(&rt, df.num_routers, 0, 0, &h, c, RT_CAP, &n));
    ST_EQ(SR_ERR_PORT_RANGE, sr_route_candidates(&rt, 0, sr_net_num_ports(&df, 0), 0, &h, c, RT_CAP, &n));
    ST_EQ(SR_ERR_PORT_RANGE, sr_route_candidates(&rt, 0, -1, 0, &h, c, RT_CAP, &n));
    ST_EQ(SR_ERR_VCS, sr_route_candidates(&rt, 0, 0, 3, &h, c, RT_CAP, &n));
    ST_EQ(SR_ERR_VCS, sr_route_candidates(&rt, 0, 0, -1, &h, c, RT_CAP, &n));
    /* candidates: headers that cannot occur */
    g = h; g.phase = 4;                 ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.phase = 255;               ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.inter = 9;                 ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.inter = SR_NO_NODE;        ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.dest = df.num_terminals;   ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.phase = SR_PHASE_UNDECIDED; ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.phase = SR_PHASE_MINIMAL;  ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.globals = 3;               ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.vclass = 1;                ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    g = h; g.inter = 0;                 /* group 0, where router 0 is */
    ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rt, 0, 0, 0, &g, c, RT_CAP, &n));
    ST_EQ(SR_OK, sr_route_header_init(&rc, 0, 5, SR_NO_NODE, &g));
    g.phase = SR_PHASE_TO_DEST;         ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rc, 0, 4, 0, &g, c, RT_CAP, &n));
    g.phase = SR_PHASE_MINIMAL; g.vclass = 4;   /* bit 2 of a 2-D cube */
    ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rc, 0, 4, 0, &g, c, RT_CAP, &n));
    ST_EQ(SR_OK, sr_route_header_init(&rcl, 0, 3, 1, &g));
    ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rcl, clos.level_first[1], 0, 0, &g, c, RT_CAP, &n));  /* TO_INTER at the top */
    ST_EQ(SR_OK, sr_route_header_init(&rf, 0, 0, SR_NO_NODE, &g));
    ST_EQ(SR_ERR_HEADER, sr_route_candidates(&rf, fly.num_routers - 1, 2, 0, &g, c, RT_CAP, &n));   /* wrong last switch */
    /* a small array: the count and the first ones */
    ST_EQ(SR_OK, sr_route_header_init(&rt, 0, 20, 5, &h));
    {
        sr_routing ru;
        sr_header hu;
        int full;
        ST_CHECK(ru_routing(&ru, &df, SR_ALG_UGAL, 0, 0, 0, 0));
        ST_EQ(SR_OK, sr_route_header_init(&ru, 0, 20, 3, &hu));
        ST_EQ(SR_OK, sr_route_candidates(&ru, 0, 0, 0, &hu, c, RT_CAP, &full));
        ST_CHECK(full >= 2);
        ST_EQ(SR_ERR_BUFFER_SIZE, sr_route_candidates(&ru, 0, 0, 0, &hu, c, 1, &n));
        ST_EQ(full, n);
        ST_EQ(SR_ERR_BUFFER_SIZE, sr_route_candidates(&ru, 0, 0, 0, &hu, NULL, 0, &n));
        ST_EQ(full, n);
    }
    /* advance */
    ST_EQ(SR_OK, sr_route_candidates(&rt, 0, 0, 0, &h, c, RT_CAP, &n));
    g = h;
    ST_EQ(SR_ERR_VCS, sr_route_advance(&rt, 0, &c[0], c[0].vc_hi + 1, &g));
    ST_EQ(SR_ERR_NODE_RANGE, sr_route_advance(&rt, df.num_routers, &c[0], c[0].vc_lo, &g));
    ST_EQ(SR_ERR_NULL, sr_route_advance(&rt, 0, NULL, 0, &g));
    {
        sr_candidate bad = c[0];
        bad.port = (int16_t)sr_net_num_ports(&df, 0);
        ST_EQ(SR_ERR_PORT_RANGE, sr_route_advance(&rt, 0, &bad, bad.vc_lo, &g));
        bad.port = -1;
        ST_EQ(SR_ERR_PORT_RANGE, sr_route_advance(&rt, 0, &bad, bad.vc_lo, &g));
    }
    g.phase = 7;
    ST_EQ(SR_ERR_HEADER, sr_route_advance(&rt, 0, &c[0], c[0].vc_lo, &g));
    ST_EQ(7, g.phase);                                            /* unchanged on error */
    /* a mesh edge has no link */
    {
        sr_net mesh;
        sr_routing rm;
        sr_candidate e;
        static const int m[2] = { 1, 1 };
        ST_CHECK(ru_cube(&mesh, 2, k, m, 0) && ru_routing(&rm, &mesh, SR_ALG_DOR, 0, 0, 0, 0));
        ST_EQ(SR_OK, sr_route_header_init(&rm, 0, 5, SR_NO_NODE, &g));
        memset(&e, 0, sizeof e);
        e.port = 1;                                               /* -x from x = 0 */
        ST_EQ(SR_ERR_NO_LINK, sr_route_advance(&rm, 0, &e, 0, &g));
    }
    ST_EQ(-1, sr_route_hops(&rt, df.num_routers, &h, SR_CLASS_MINIMAL));
    ST_EQ(-1, sr_route_hops(&rt, 0, &h, SR_CLASS_ESCAPE));
    ST_EQ(SR_NO_NODE, sr_route_global_channel(&rc, 0, &c[0], &h));
}
