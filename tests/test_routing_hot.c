/* SPDX-License-Identifier: MIT */
/* test_routing_hot.c - seastar_route.h's calls for a simulator's inner
 * loop (>>routing): the trusted variants of sr_route_candidates and
 * sr_route_advance against the checked calls on random walks over every
 * family and algorithm; sr_route_select_by and sr_route_select against an
 * enumeration of every (candidate, VC); sr_route_global_port against the
 * network's own port descriptions; the VC count of PAR on the seed's VC
 * levels. */
#include "st_test.h"
#include "routing_util.h"

#define HT_CAP 64

/* Walk `walks` random packets of routing rt from injection to delivery,
 * taking random candidates and VCs; at every router the trusted calls
 * must give what the checked ones give. */
static void ht_walks(st_ctx *st__ctx, const sr_routing *rt, int walks, uint64_t seed) {
    const sr_net *net = &rt->net;
    int w;
    for (w = 0; w < walks; w++) {
        uint32_t src = st_rand_below(&seed, net->num_terminals), dst = st_rand_below(&seed, net->num_terminals);
        uint32_t inter = rt->inters ? st_rand_below(&seed, rt->inters) : SR_NO_NODE, u;
        int in_port = 0, in_vc = 0, hops;
        sr_header h;
        if (src == dst) continue;
        u = sr_net_terminal_router(net, src, &in_port);
        ST_EQ(SR_OK, sr_route_header_init(rt, src, dst, inter, &h));
        for (hops = 0; hops < 64; hops++) {
            sr_candidate a[HT_CAP], b[HT_CAP];
            sr_header h1 = h, h2 = h;
            int na = -1, nb = -2, k, vc, next_port = 0, i;
            ST_EQ(SR_OK, sr_route_candidates(rt, u, in_port, in_vc, &h, a, HT_CAP, &na));
            ST_EQ(SR_OK, sr_route_candidates_trusted(rt, u, in_port, in_vc, &h, b, HT_CAP, &nb));
            ST_EQ(na, nb);
            ST_CHECK(na >= 1 && na <= sr_route_max_candidates(rt));
            for (i = 0; i < na; i++) ST_CHECK(memcmp(&a[i], &b[i], sizeof a[i]) == 0);
            k = (int)st_rand_below(&seed, (uint32_t)na);
            vc = a[k].vc_lo + (int)st_rand_below(&seed, (uint32_t)(a[k].vc_hi - a[k].vc_lo + 1));
            if (sr_net_port_info(net, u, a[k].port).kind == SR_PORT_TERMINAL) {
                ST_EQ(SR_OK, sr_route_advance(rt, u, &a[k], vc, &h1));
                ST_CHECK(memcmp(&h1, &h, sizeof h) == 0);          /* an ejection leaves it */
                ST_EQ(dst, sr_net_eject_router(net, dst, NULL) == u ? dst : SR_NO_NODE);
                break;
            }
            ST_EQ(SR_OK, sr_route_advance(rt, u, &a[k], vc, &h1));
            ST_EQ(SR_OK, sr_route_advance_trusted(rt, u, &a[k], vc, &h2));
            ST_CHECK(memcmp(&h1, &h2, sizeof h1) == 0);
            h = h1;
            u = sr_net_neighbor(net, u, a[k].port, &next_port);
            ST_CHECK(u != SR_NO_NODE);
            in_port = next_port;
            in_vc = vc;
        }
        ST_CHECK(hops < 64);
    }
}

ST_TEST(routing_trusted_calls_equal_the_checked_ones) {
    static const int k3[3] = { 5, 4, 3 }, m3[3] = { 0, 1, 0 }, t2[2] = { 4, 6 }, s2[2] = { 4, 3 };
    static const int down[2] = { 2, 3 }, up[2] = { 3, 0 };
    sr_net net;
    sr_routing rt;
    int a;
    /* cubes: tori (even and odd rings, the tie-breaks) and a mixed one */
    ST_CHECK(ru_cube(&net, 3, k3, m3, 0));
    for (a = 0; a < 4; a++) {
        static const int alg[4] = { SR_ALG_DOR, SR_ALG_MIN_ADAPTIVE, SR_ALG_VALIANT, SR_ALG_UGAL };
        ST_CHECK(ru_routing(&rt, &net, alg[a], 0, 0, 0, 0));
        RU_CALL(ht_walks(st__ctx, &rt, 150, 11u + (uint64_t)a));
    }
    for (a = 0; a < 3; a++) {
        ST_CHECK(ru_cube(&net, 2, t2, NULL, a));
        ST_CHECK(ru_routing(&rt, &net, SR_ALG_DOR, 0, 0, 0, 0));
        RU_CALL(ht_walks(st__ctx, &rt, 150, 21u + (uint64_t)a));
        ST_CHECK(ru_routing(&rt, &net, SR_ALG_UGAL, 5, 0, 0, 0));      /* extra VCs per level */
        RU_CALL(ht_walks(st__ctx, &rt, 100, 31u + (uint64_t)a));
    }
    /* HyperX */
    ST_CHECK(ru_hyperx(&net, 2, s2, 2));
    for (a = 0; a < 4; a++) {
        static const int alg[4] = { SR_ALG_DOR, SR_ALG_MIN_ADAPTIVE, SR_ALG_VALIANT, SR_ALG_UGAL };
        ST_CHECK(ru_routing(&rt, &net, alg[a], 0, 0, 0, 0));
        RU_CALL(ht_walks(st__ctx, &rt, 150, 41u + (uint64_t)a));
    }
    /* dragonflies: every algorithm, both VC schemes, intermediate routers */
    ST_CHECK(ru_dragonfly(&net, 2, 4, 2, 0, 0));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_MINIMAL, 0, 0, 0, 0));          RU_CALL(ht_walks(st__ctx, &rt, 150, 51));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_VALIANT, 0, 0, 0, 0));          RU_CALL(ht_walks(st__ctx, &rt, 150, 52));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_UGAL, 0, 0, 0, 0));             RU_CALL(ht_walks(st__ctx, &rt, 150, 53));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_PAR, 0, 0, SR_DF_VC_LOCAL, 0)); RU_CALL(ht_walks(st__ctx, &rt, 150, 54));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_PAR, 0, SR_ROUTE_INTER_ROUTER, SR_DF_VC_LOCAL, 0));
    RU_CALL(ht_walks(st__ctx, &rt, 150, 55));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_VALIANT, 0, SR_ROUTE_INTER_ROUTER, SR_DF_VC_LOCAL, 0));
    RU_CALL(ht_walks(st__ctx, &rt, 150, 56));
    /* a folded Clos and a butterfly */
    ST_CHECK(ru_clos(&net, 2, down, up));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_UPDOWN, 0, 0, 0, 0));           RU_CALL(ht_walks(st__ctx, &rt, 100, 61));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_VALIANT, 0, 0, 0, 0));          RU_CALL(ht_walks(st__ctx, &rt, 100, 62));
    ST_CHECK(ru_butterfly(&net, 3, 3));
    ST_CHECK(ru_routing(&rt, &net, SR_ALG_DEST_TAG, 0, 0, 0, 0));         RU_CALL(ht_walks(st__ctx, &rt, 100, 63));
}

/* ---- selection ---- */

/* The oracle of selection: every (candidate, VC) of the classes asked
 * for, adaptive ones first; the largest positive credit count among the
 * adaptive ones (else among the escapes); the pick-th of those with it,
 * in candidate and VC order, pick = floor(ties * (random >> 32) / 2^32). */
static int ht_select_oracle(const sr_candidate *c, int n, unsigned classes, const int32_t *cr, int vcs,
                            uint64_t random, int *vc) {
    int escape, i, v;
    if (!classes) classes = ~0u;
    for (escape = 0; escape < 2; escape++) {
        int idx[512], vv[512], m = 0, j;
        int32_t best = 0;
        for (i = 0; i < n; i++)
            for (v = c[i].vc_lo; v <= c[i].vc_hi; v++) {
                int32_t k = v < vcs ? cr[c[i].port * vcs + v] : 0;
                if (((classes >> c[i].cls) & 1) && (c[i].cls == SR_CLASS_ESCAPE) == escape && k > best) best = k;
            }
        if (best <= 0) continue;
        for (i = 0; i < n; i++)
            for (v = c[i].vc_lo; v <= c[i].vc_hi; v++)
                if (((classes >> c[i].cls) & 1) && (c[i].cls == SR_CLASS_ESCAPE) == escape && v < vcs &&
                    cr[c[i].port * vcs + v] == best) { idx[m] = i; vv[m] = v; m++; }
        j = (int)((double)m * (double)(random >> 32) / 4294967296.0);
        *vc = vv[j];
        return idx[j];
    }
    return -1;
}

typedef struct ht_cr { const int32_t *cr; int vcs; int calls; } ht_cr;

static int32_t ht_credit(const void *ctx, int port, int vc) {
    ht_cr *x = (ht_cr *)(uintptr_t)ctx;
    x->calls++;
    return vc < x->vcs ? x->cr[port * x->vcs + vc] : 0;
}

ST_TEST(routing_select_by_and_select_equal_an_enumeration) {
    uint64_t seed = 7;
    int t;
    for (t = 0; t < 4000; t++) {
        sr_candidate c[8];
        int32_t cr[8 * 6];
        int n = 1 + (int)st_rand_below(&seed, 8), vcs = 1 + (int)st_rand_below(&seed, 6), i, want, got, got2;
        int wvc = -1, gvc = -1, gvc2 = -1;
        unsigned classes = st_rand_below(&seed, 4) == 0 ? 0u : st_rand_below(&seed, 8);
        uint64_t random = st_rand(&seed);
        ht_cr x;
        memset(c, 0, sizeof c);
        for (i = 0; i < n; i++) {
            int lo = (int)st_rand_below(&seed, 6);
            c[i].port = (int16_t)st_rand_below(&seed, 8);
            c[i].vc_lo = (uint8_t)lo;                          /* VCs at or above vcs: unavailable */
            c[i].vc_hi = (uint8_t)(lo + (int)st_rand_below(&seed, (uint32_t)(6 - lo)));
            c[i].cls = (uint8_t)st_rand_below(&seed, 3);
        }
        /* few distinct values, so that ties, zeros and negatives are common */
        for (i = 0; i < 8 * 6; i++) cr[i] = (int32_t)st_rand_below(&seed, 4) - 1;
        if (t % 7 == 0) random = t % 14 ? ~(uint64_t)0 : 0;        /* the ends of the range */
        x.cr = cr; x.vcs = vcs; x.calls = 0;
        want = ht_select_oracle(c, n, classes, cr, vcs, random, &wvc);
        got = sr_route_select_by(c, n, classes, ht_credit, &x, random, &gvc);
        got2 = sr_route_select(c, n, classes, cr, vcs, random, &gvc2);
        ST_EQ(want, got);
        ST_EQ(want, got2);
        if (want >= 0) { ST_EQ(wvc, gvc); ST_EQ(wvc, gvc2); }
        /* it reads each candidate VC at most twice per round */
        {
            int cells = 0;
            for (i = 0; i < n; i++) cells += c[i].vc_hi - c[i].vc_lo + 1;
            ST_CHECK(x.calls <= 4 * cells);
        }
    }
    ST_EQ(-1, sr_route_select_by(NULL, 1, 0, ht_credit, NULL, 0, NULL));
    {
        sr_candidate c1;
        memset(&c1, 0, sizeof c1);
        ST_EQ(-1, sr_route_select_by(&c1, 1, 0, NULL, NULL, 0, NULL));
    }
}

/* ---- UGAL-G's channels ---- */

ST_TEST(routing_global_port_names_the_global_channel_s_port) {
    static const int shapes[3][5] = { { 2, 4, 2, 0, 0 }, { 1, 4, 2, 5, 1 }, { 1, 3, 3, 0, 0 } };
    int s;
    for (s = 0; s < 3; s++) {
        sr_net net;
        sr_routing rt;
        uint32_t r, at = 12345;
        int h = shapes[s][2], port;
        ST_CHECK(ru_dragonfly(&net, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], shapes[s][4]));
        ST_CHECK(ru_routing(&rt, &net, SR_ALG_UGAL, 0, 0, 0, 0));
        for (r = 0; r < net.num_routers; r++) {
            int seen = 0;
            /* the network's own description: router r's global ports, in
             * port order, are its channels r * h .. r * h + h - 1 */
            for (port = 0; port < sr_net_num_ports(&net, r); port++) {
                uint32_t gr = SR_NO_NODE;
                if (sr_net_port_info(&net, r, port).kind != SR_PORT_GLOBAL) continue;
                ST_EQ(port, sr_route_global_port(&rt, r * (uint32_t)h + (uint32_t)seen, &gr));
                ST_EQ(r, gr);
                seen++;
            }
            ST_EQ(h, seen);
        }
        ST_EQ(-1, sr_route_global_port(&rt, net.num_routers * (uint32_t)h, &at));
        ST_EQ(12345u, at);
        /* a global candidate's channel leaves from the candidate's own port */
        for (r = 0; r < net.num_routers; r++) {
            sr_header hd;
            sr_candidate c[HT_CAP];
            int n = 0, k;
            uint32_t dst = (r * 7u + 3u) % net.num_terminals;
            ST_EQ(SR_OK, sr_route_header_init(&rt, 0, dst, 0, &hd));
            hd.phase = SR_PHASE_MINIMAL;                /* at r, routing minimally */
            hd.inter = SR_NO_NODE;
            ST_EQ(SR_OK, sr_route_candidates(&rt, r, 0, 0, &hd, c, HT_CAP, &n));
            for (k = 0; k < n; k++) {
                uint32_t ch = sr_route_global_channel(&rt, r, &c[k], &hd), gr = 0;
                if (sr_net_port_info(&net, r, c[k].port).kind != SR_PORT_GLOBAL) continue;
                ST_CHECK(ch != SR_NO_NODE);
                ST_EQ(c[k].port, sr_route_global_port(&rt, ch, &gr));
                ST_EQ(r, gr);
            }
        }
    }
    {
        static const int k2[2] = { 4, 4 };
        sr_net cube;
        sr_routing rt;
        ST_CHECK(ru_cube(&cube, 2, k2, NULL, 0));
        ST_CHECK(ru_routing(&rt, &cube, SR_ALG_DOR, 0, 0, 0, 0));
        ST_EQ(-1, sr_route_global_port(&rt, 0, NULL));
        ST_EQ(-1, sr_route_global_port(NULL, 0, NULL));
    }
}

/* ---- PAR's VCs ---- */

ST_TEST(routing_par_on_the_seed_s_levels_needs_more_than_any_vcs) {
    sr_net df;
    sr_routing rt;
    sr_routing_desc d;
    ST_CHECK(ru_dragonfly(&df, 2, 4, 2, 0, 0));
    memset(&d, 0, sizeof d);
    d.algorithm = SR_ALG_PAR;
    ST_EQ(SR_ROUTE_VCS_NONE, sr_routing_vcs_needed(&df, &d));
    d.vcs = 8;
    ST_EQ(SR_ERR_VCS, sr_routing_init(&rt, &df, &d));
    d.flags = SR_ROUTE_FEWER_VCS;                       /* to refute it */
    ST_EQ(SR_OK, sr_routing_init(&rt, &df, &d));
    d.vcs = 0;
    ST_EQ(SR_OK, sr_routing_init(&rt, &df, &d));
    ST_EQ(3, rt.vcs);                                   /* the scheme's levels */
    d.flags = 0;
    d.df_vc = SR_DF_VC_LOCAL;
    ST_EQ(4, sr_routing_vcs_needed(&df, &d));
    d.flags = SR_ROUTE_INTER_ROUTER;
    ST_EQ(5, sr_routing_vcs_needed(&df, &d));
    d.algorithm = SR_ALG_UGAL;                          /* UGAL is not affected */
    d.flags = 0;
    d.df_vc = SR_DF_VC_GLOBALS;
    ST_EQ(3, sr_routing_vcs_needed(&df, &d));
}
