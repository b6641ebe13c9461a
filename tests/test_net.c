/* SPDX-License-Identifier: MIT */
/* test_net.c - seastar_topo.h >>net: one network description for every
 * topology, against brute force and independent constructions.
 *
 * Every family at small sizes with its corners (tests/net_oracle.h's zoo):
 * channels lead back on the same ports, port kinds agree at both ends,
 * terminals attach and detach, every router is reached, the port counts
 * are the seed's; and independent constructions give the same channels:
 * the cube equals sr_neighbor, a flattened butterfly made by merging the
 * rows of a butterfly (seed 004 Section 4.3.4) and one made by Eq 4.5
 * equal the HyperX (L = n-1, S = T = k), a binary hypercube made as a
 * 2-ary mesh equals the HyperX (L = n, S = 2, T = 1), and a dragonfly has
 * a*h/(g-1) channels between every two groups.  Every error of
 * sr_net_init is reached, with a message that names the field. */
#include "st_test.h"
#include "../seastar_route.h"
#include "net_oracle.h"

/* ---------------------------------------------------------------- helpers */

/* A channel as its two ends. */
typedef struct tn_chan {
    uint32_t from, to;
    int out, in;
} tn_chan;

static int tn_chan_cmp(const void *a, const void *b) {
    const tn_chan *x = (const tn_chan *)a, *y = (const tn_chan *)b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    return 0;
}

/* The router-to-router pairs joined by a channel, each (from, to) once per
 * channel, sorted; ports dropped (relabel maps router ids first). */
static int tn_pairs(const sr_net *net, const uint32_t *relabel, tn_chan *out, int cap) {
    uint32_t r;
    int n = 0, p;
    for (r = 0; r < net->num_routers; r++)
        for (p = 0; p < sr_net_num_ports(net, r); p++) {
            uint32_t v = sr_net_neighbor(net, r, p, NULL);
            if (v == SR_NO_NODE) continue;
            if (n == cap) return -1;
            out[n].from = relabel ? relabel[r] : r;
            out[n].to = relabel ? relabel[v] : v;
            out[n].out = out[n].in = 0;
            n++;
        }
    qsort(out, (size_t)n, sizeof out[0], tn_chan_cmp);
    return n;
}

static int tn_same_pairs(const tn_chan *a, int na, const tn_chan *b, int nb) {
    int i;
    if (na != nb || na < 0) return 0;
    for (i = 0; i < na; i++)
        if (a[i].from != b[i].from || a[i].to != b[i].to) return 0;
    return 1;
}

/* ------------------------------------------------------------- the tests */

ST_TEST(net_zoo_builds) {
    sr_net_desc zoo[NO_ZOO_SIZE];
    sr_net net;
    int n = no_zoo(zoo), i;
    ST_CHECK(n > 40 && n <= NO_ZOO_SIZE);
    for (i = 0; i < n; i++) {
        ST_EQ(SR_OK, sr_net_init(&net, &zoo[i]));
        ST_EQ(SR_OK, sr_net_check(&net));
        ST_EQ_STR(sr_net_kind_name(zoo[i].kind), sr_net_kind_name(net.kind));
    }
    ST_EQ_STR("?", sr_net_kind_name(SR_NET_KIND_COUNT));
    ST_EQ_STR("?", sr_port_kind_name(-1));
    ST_EQ_STR("global", sr_port_kind_name(SR_PORT_GLOBAL));
}

/* Every channel leads back on the same ports (a butterfly's goes one way,
 * from an output of stage s to an input of stage s+1), and the port kinds
 * agree at both ends. */
ST_TEST(net_channels_lead_back_and_kinds_agree) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        uint32_t r;
        ST_CHECKF(net.num_routers > 0, "zoo %d", i);
        for (r = 0; r < net.num_routers; r++) {
            int p, ports = sr_net_num_ports(&net, r), c[SR_MAX_DIMS], cv[SR_MAX_DIMS];
            sr_net_router_coords(&net, r, c);
            ST_CHECK(ports >= 1 && ports <= net.radix);
            for (p = 0; p < ports; p++) {
                int in = -7, back_in = -7;
                uint32_t v = sr_net_neighbor(&net, r, p, &in), w;
                sr_port_info pi = sr_net_port_info(&net, r, p), qi;
                ST_CHECKF(pi.kind > SR_PORT_KIND_NONE && pi.kind < SR_PORT_KIND_COUNT, "zoo %d router %u port %d", i,
                          r, p);
                if (v == SR_NO_NODE) {
                    ST_EQ(-7, in);                                 /* untouched */
                    ST_CHECKF(pi.kind == SR_PORT_TERMINAL || pi.kind == SR_PORT_UP ||
                              (pi.kind == SR_PORT_DIM && net.desc.kind == SR_NET_CUBE && net.cube.mesh[pi.dim]),
                              "zoo %d router %u port %d (%s) leads nowhere", i, r, p, sr_port_kind_name(pi.kind));
                    continue;
                }
                ST_CHECKF(v < net.num_routers && v != r, "zoo %d: %u port %d -> %u", i, r, p, v);
                ST_CHECK(in >= 0 && in < sr_net_num_ports(&net, v));
                qi = sr_net_port_info(&net, v, in);
                sr_net_router_coords(&net, v, cv);
                if (net.desc.kind == SR_NET_BUTTERFLY) {
                    ST_CHECK(pi.kind == SR_PORT_DOWN && qi.kind == SR_PORT_UP);
                    ST_CHECK(cv[0] == c[0] + 1 && qi.dim == pi.dim + 1);
                    ST_CHECK(sr_net_neighbor(&net, v, in, NULL) == SR_NO_NODE);
                    continue;
                }
                w = sr_net_neighbor(&net, v, in, &back_in);
                ST_CHECKF(w == r && back_in == p, "zoo %d: %u:%d -> %u:%d -> %u:%d", i, r, p, v, in, w, back_in);
                switch (pi.kind) {
                case SR_PORT_DIM: {
                    int d, nd = sr_net_router_coords(&net, r, c);
                    ST_CHECK(qi.kind == SR_PORT_DIM && qi.dim == pi.dim);
                    for (d = 0; d < nd; d++) ST_CHECK(d == pi.dim ? c[d] != cv[d] : c[d] == cv[d]);
                    if (net.desc.kind == SR_NET_HYPERX) ST_CHECK(pi.index == cv[pi.dim] && qi.index == c[pi.dim]);
                    else ST_CHECK(qi.index == (pi.index ^ 1));
                    break;
                }
                case SR_PORT_LOCAL:
                    ST_CHECK(qi.kind == SR_PORT_LOCAL && c[0] == cv[0] && pi.index == cv[1] && qi.index == c[1]);
                    break;
                case SR_PORT_GLOBAL: {
                    int back;
                    ST_CHECK(qi.kind == SR_PORT_GLOBAL && c[0] != cv[0]);
                    ST_EQ(cv[0], (int)sr_df_global_target(&net, (uint32_t)c[0], pi.index, &back));
                    ST_EQ(qi.index, back);
                    break;
                }
                case SR_PORT_UP:
                    ST_CHECK(qi.kind == SR_PORT_DOWN && qi.dim == pi.dim + 1 && cv[0] == c[0] + 1);
                    break;
                case SR_PORT_DOWN:
                    ST_CHECK(qi.kind == SR_PORT_UP && qi.dim == pi.dim - 1 && cv[0] == c[0] - 1);
                    break;
                default: ST_CHECKF(0, "a %s port with a channel", sr_port_kind_name(pi.kind));
                }
            }
            /* ports past the last lead nowhere and have no kind */
            ST_EQ(SR_NO_NODE, sr_net_neighbor(&net, r, ports, NULL));
            ST_EQ(SR_NO_NODE, sr_net_neighbor(&net, r, -1, NULL));
            ST_EQ(SR_NO_NODE, sr_net_neighbor(&net, r, -0x7FFFFFFF - 1, NULL));   /* no overflow */
            ST_EQ(SR_NO_NODE, sr_net_neighbor(&net, r, 0x7FFFFFFF, NULL));
            ST_EQ(SR_NO_NODE, sr_net_port_terminal(&net, r, -0x7FFFFFFF - 1));
            ST_EQ(SR_PORT_KIND_NONE, sr_net_port_info(&net, r, 0x7FFFFFFF).kind);
            ST_EQ(SR_PORT_KIND_NONE, sr_net_port_info(&net, r, ports).kind);
            ST_EQ(SR_PORT_KIND_NONE, sr_net_port_info(&net, r, -1).kind);
            ST_EQ(SR_NO_NODE, sr_net_port_terminal(&net, r, ports));
        }
    }
}

/* Terminals: each attaches to one terminal port and back; every terminal
 * port belongs to exactly one terminal. */
ST_TEST(net_terminals_round_trip) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        uint32_t t, r, seen = 0;
        for (t = 0; t < net.num_terminals; t++) {
            int p = -1, q = -1;
            uint32_t r1 = sr_net_terminal_router(&net, t, &p), r2 = sr_net_eject_router(&net, t, &q);
            ST_CHECK(r1 < net.num_routers && r2 < net.num_routers);
            ST_EQ(t, sr_net_port_terminal(&net, r1, p));
            ST_EQ(t, sr_net_port_terminal(&net, r2, q));
            ST_EQ(SR_PORT_TERMINAL, sr_net_port_info(&net, r1, p).kind);
            ST_EQ(SR_PORT_TERMINAL, sr_net_port_info(&net, r2, q).kind);
            ST_EQ(SR_NO_NODE, sr_net_neighbor(&net, r1, p, NULL));
            if (net.desc.kind != SR_NET_BUTTERFLY) ST_CHECK(r1 == r2 && p == q);
        }
        for (r = 0; r < net.num_routers; r++) {
            int p;
            for (p = 0; p < sr_net_num_ports(&net, r); p++) {
                uint32_t t2 = sr_net_port_terminal(&net, r, p);
                ST_EQ(t2 != SR_NO_NODE, sr_net_port_info(&net, r, p).kind == SR_PORT_TERMINAL);
                if (t2 != SR_NO_NODE) seen++;
            }
        }
        /* one port per terminal; a butterfly's terminal has two */
        ST_EQ(net.num_terminals * (net.desc.kind == SR_NET_BUTTERFLY ? 2u : 1u), seen);
    }
}

/* Every router reaches every router (a butterfly: every input switch
 * reaches every output switch by exactly one path). */
ST_TEST(net_every_router_is_reached) {
    static int dist[NO_MAX_ROUTERS];
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        uint32_t r, v;
        for (r = 0; r < net.num_routers; r++) {
            if (net.desc.kind == SR_NET_BUTTERFLY) {
                uint32_t rows = net.num_routers / (uint32_t)net.desc.butterfly.n;
                if (r >= rows) break;
                for (v = net.num_routers - rows; v < net.num_routers; v++) ST_EQ(1, no_paths(&net, r, v));
                continue;
            }
            no_bfs(&net, r, 0, dist);
            for (v = 0; v < net.num_routers; v++) ST_CHECKF(dist[v] >= 0, "zoo %d: %u does not reach %u", i, r, v);
            if (r > 4) break;                       /* the graphs are connected from any router */
        }
    }
}

/* Ports by kind, per router: the seed's counts. */
ST_TEST(net_port_counts_are_the_seeds) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        const sr_net_desc *d = &net.desc;
        uint32_t r, routers = 1;
        int l;
        switch (d->kind) {                               /* routers, terminals */
        case SR_NET_CUBE:
            for (l = 0; l < d->cube.num_dims; l++) routers *= (uint32_t)d->cube.radix[l];
            ST_EQ(routers, net.num_terminals);
            break;
        case SR_NET_HYPERX:
            for (l = 0; l < d->hyperx.num_dims; l++) routers *= (uint32_t)d->hyperx.size[l];
            ST_EQ(routers * (uint32_t)d->hyperx.terminals, net.num_terminals);
            break;
        case SR_NET_DRAGONFLY:
            routers = (uint32_t)(d->dragonfly.a * d->dragonfly.g);
            ST_EQ(routers * (uint32_t)d->dragonfly.p, net.num_terminals);
            break;
        case SR_NET_CLOS: {
            uint32_t terms = 1, lev;
            int j;
            routers = 0;
            for (l = 0; l < d->clos.levels; l++) {
                terms *= (uint32_t)d->clos.down[l];
                lev = 1;
                for (j = l + 1; j < d->clos.levels; j++) lev *= (uint32_t)d->clos.down[j];
                for (j = 0; j < l; j++) lev *= (uint32_t)d->clos.up[j];
                routers += lev;
            }
            ST_EQ(terms, net.num_terminals);
            break;
        }
        case SR_NET_BUTTERFLY:
            routers = 1;
            for (l = 0; l < d->butterfly.n - 1; l++) routers *= (uint32_t)d->butterfly.k;
            ST_EQ(routers * (uint32_t)d->butterfly.k, net.num_terminals);   /* k^n */
            routers *= (uint32_t)d->butterfly.n;                            /* n stages of k^(n-1) */
            break;
        }
        ST_EQ(routers, net.num_routers);
        for (r = 0; r < net.num_routers; r++) {
            int count[SR_PORT_KIND_COUNT], p, c[SR_MAX_DIMS];
            memset(count, 0, sizeof count);
            sr_net_router_coords(&net, r, c);
            for (p = 0; p < sr_net_num_ports(&net, r); p++) count[sr_net_port_info(&net, r, p).kind]++;
            switch (d->kind) {
            case SR_NET_CUBE:                                          /* Eq 3.2 */
                ST_EQ(2 * d->cube.num_dims + 1, sr_net_num_ports(&net, r));
                ST_EQ(1, count[SR_PORT_TERMINAL]);
                ST_EQ(2 * d->cube.num_dims, count[SR_PORT_DIM]);
                break;
            case SR_NET_HYPERX: {
                int s = 0;
                for (l = 0; l < d->hyperx.num_dims; l++) s += d->hyperx.size[l] - 1;
                ST_EQ(d->hyperx.terminals, count[SR_PORT_TERMINAL]);
                ST_EQ(s, count[SR_PORT_DIM]);
                break;
            }
            case SR_NET_DRAGONFLY:                                     /* k = p + a + h - 1 */
                ST_EQ(d->dragonfly.p + d->dragonfly.a + d->dragonfly.h - 1, sr_net_num_ports(&net, r));
                ST_EQ(d->dragonfly.p, count[SR_PORT_TERMINAL]);
                ST_EQ(d->dragonfly.a - 1, count[SR_PORT_LOCAL]);
                ST_EQ(d->dragonfly.h, count[SR_PORT_GLOBAL]);
                break;
            case SR_NET_CLOS:
                ST_EQ(c[0] == 0 ? d->clos.down[0] : 0, count[SR_PORT_TERMINAL]);
                ST_EQ(c[0] == 0 ? 0 : d->clos.down[c[0]], count[SR_PORT_DOWN]);
                ST_EQ(d->clos.up[c[0]], count[SR_PORT_UP]);
                break;
            case SR_NET_BUTTERFLY: {
                int k = d->butterfly.k, first = c[0] == 0, last = c[0] == d->butterfly.n - 1;
                ST_EQ(2 * k, sr_net_num_ports(&net, r));
                ST_EQ(k * (first + last), count[SR_PORT_TERMINAL]);
                ST_EQ(first ? 0 : k, count[SR_PORT_UP]);
                ST_EQ(last ? 0 : k, count[SR_PORT_DOWN]);
                break;
            }
            }
        }
    }
}

/* sr_net_port_find inverts sr_net_port_info, and finds nothing else. */
ST_TEST(net_port_find_inverts_port_info) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        uint32_t r;
        for (r = 0; r < net.num_routers; r++) {
            int p, kind, ports = sr_net_num_ports(&net, r);
            for (p = 0; p < ports; p++) {
                sr_port_info pi = sr_net_port_info(&net, r, p);
                int want = p;
                if (net.desc.kind == SR_NET_BUTTERFLY && net.desc.butterfly.n == 1 && p >= net.desc.butterfly.k)
                    want = p - net.desc.butterfly.k;          /* the input of the same terminal */
                ST_EQ(want, sr_net_port_find(&net, r, pi.kind, pi.dim, pi.index));
            }
            /* every other (kind, dim, index) in a window finds no port */
            for (kind = 0; kind < SR_PORT_KIND_COUNT + 1; kind++) {
                int dim, index;
                for (dim = -2; dim < 10; dim++)
                    for (index = -2; index < 3 * ports + 3; index++) {
                        int q = sr_net_port_find(&net, r, kind, dim, index);
                        if (q >= 0) {
                            sr_port_info qi = sr_net_port_info(&net, r, q);
                            ST_CHECK(q < ports && qi.kind == kind && qi.dim == dim && qi.index == index);
                        }
                    }
            }
            ST_EQ(-1, sr_net_port_find(&net, r, SR_PORT_TERMINAL, -1, 0x7FFFFFFF));
            if (r > 8) break;
        }
    }
}

/* The cube of sr_net is the sr_topology of sr_neighbor. */
ST_TEST(net_cube_equals_sr_neighbor) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        sr_topology t;
        uint32_t r;
        if (net.kind != SR_NET_CUBE) continue;
        ST_EQ(SR_OK, sr_topology_init(&t, &net.desc.cube));
        ST_EQ(t.num_nodes, net.num_routers);
        for (r = 0; r < t.num_nodes; r++) {
            int p;
            for (p = -1; p <= t.num_ports; p++) {
                int in = -1;
                uint32_t v = sr_net_neighbor(&net, r, p, &in);
                ST_EQ(sr_neighbor(&t, r, p), v);
                if (v != SR_NO_NODE) ST_EQ(sr_port_opposite(p), in);
            }
        }
    }
}

/* A flattened butterfly three ways: the rows of a k-ary n-fly merged into
 * single routers (seed 004 Section 4.3.4: "channels entirely local to the
 * row are eliminated; all other channels remain"), Eq 4.5, and the HyperX
 * of sr_fbfly_desc (L = n-1, S = T = k).  The same channels. */
ST_TEST(net_flattened_butterfly_three_ways) {
    static tn_chan a[8192], b[8192], c[8192];
    static const int kn[][2] = { { 2, 2 }, { 2, 4 }, { 3, 3 }, { 4, 3 }, { 2, 5 }, { 5, 2 }, { 3, 4 } };
    int t;
    for (t = 0; t < (int)(sizeof kn / sizeof kn[0]); t++) {
        int k = kn[t][0], nn = kn[t][1], na = 0, nb = 0, nc, d, m;
        sr_net_desc dd, fd = no_fly(k, nn);
        sr_net fly = no_make(&fd), hx;
        uint32_t r, rows = fly.num_routers / (uint32_t)nn;
        /* merge: router (stage, row) -> row; drop channels inside a row */
        for (r = 0; r < fly.num_routers; r++) {
            int p, cr[SR_MAX_DIMS], cv[SR_MAX_DIMS];
            sr_net_router_coords(&fly, r, cr);
            for (p = 0; p < 2 * k; p++) {
                uint32_t v = sr_net_neighbor(&fly, r, p, NULL);
                if (v == SR_NO_NODE) continue;
                sr_net_router_coords(&fly, v, cv);
                if (cv[1] == cr[1]) continue;
                a[na].from = (uint32_t)cr[1];
                a[na].to = (uint32_t)cv[1];
                na++;
            }
        }
        qsort(a, (size_t)na, sizeof a[0], tn_chan_cmp);
        /* Eq 4.5 */
        for (r = 0; r < rows; r++)
            for (d = 1; d <= nn - 1; d++)
                for (m = 0; m < k; m++) {
                    uint32_t j = 0;
                    sr_result e = sr_fbfly_neighbor(k, nn, r, d, m, &j);
                    if (e == SR_ERR_NO_LINK) continue;
                    ST_EQ(SR_OK, e);
                    b[nb].from = r;
                    b[nb].to = j;
                    nb++;
                }
        qsort(b, (size_t)nb, sizeof b[0], tn_chan_cmp);
        ST_EQ(SR_OK, sr_fbfly_desc(k, nn, &dd));
        hx = no_make(&dd);
        ST_EQ(rows, hx.num_routers);
        ST_EQ(fly.num_terminals, hx.num_terminals);
        nc = tn_pairs(&hx, NULL, c, 8192);
        ST_CHECKF(tn_same_pairs(a, na, c, nc), "%d-ary %d-flat: merged butterfly != HyperX (%d, %d channels)", k, nn,
                  na, nc);
        ST_CHECKF(tn_same_pairs(b, nb, c, nc), "%d-ary %d-flat: Eq 4.5 != HyperX", k, nn);
        /* and its radix k' = n(k-1)+1 */
        ST_EQ((nn) * (k - 1) + 1, hx.radix);
    }
}

/* A binary n-cube made as a 2-ary n-mesh (SR_NET_CUBE) is the HyperX
 * (L = n, S = 2, T = 1) of sr_hypercube_desc, with the digits reversed
 * (the cube's dimension 0 is its most significant digit, HyperX's its
 * least). */
ST_TEST(net_hypercube_is_hyperx) {
    static tn_chan a[4096], b[4096];
    static uint32_t relabel[256];
    int n;
    for (n = 1; n <= 8; n++) {
        int k[SR_MAX_DIMS], mesh[SR_MAX_DIMS], i, na, nb;
        sr_net_desc cd, hd;
        sr_net cube, hx;
        uint32_t r;
        for (i = 0; i < n; i++) { k[i] = 2; mesh[i] = 1; }
        cd = no_cube(n, k, mesh);
        cube = no_make(&cd);
        ST_EQ(SR_OK, sr_hypercube_desc(n, &hd));
        hx = no_make(&hd);
        ST_EQ(cube.num_routers, hx.num_routers);
        for (r = 0; r < cube.num_routers; r++) {
            uint32_t rev = 0;
            for (i = 0; i < n; i++) rev |= ((r >> i) & 1u) << (n - 1 - i);
            relabel[r] = rev;
        }
        na = tn_pairs(&cube, relabel, a, 4096);
        nb = tn_pairs(&hx, NULL, b, 4096);
        ST_CHECKF(tn_same_pairs(a, na, b, nb), "binary %d-cube", n);
        ST_EQ(n * (1 << n), nb);                       /* n 2^(n-1) links, both ways */
        ST_EQ(n + 1, hx.radix);                        /* Eq 3.3 */
    }
}

/* Global channels: between every two groups of a maximum-size dragonfly
 * exactly one, of a smaller one exactly a*h/(g-1); counted over
 * sr_net_neighbor, and sr_df_global_first names the first of them. */
ST_TEST(net_dragonfly_channels_between_groups) {
    static int links[64][64];
    static const int sizes[][3] = { { 4, 2, 9 }, { 4, 2, 5 }, { 4, 2, 3 }, { 4, 2, 2 }, { 2, 3, 7 }, { 2, 3, 4 },
                                    { 2, 3, 3 }, { 6, 4, 9 }, { 3, 4, 5 }, { 1, 4, 3 }, { 1, 1, 2 }, { 5, 4, 11 },
                                    { 4, 6, 9 }, { 4, 6, 25 }, { 3, 2, 4 } };
    int t, arr;
    for (t = 0; t < (int)(sizeof sizes / sizeof sizes[0]); t++)
        for (arr = 0; arr < SR_DF_ARRANGEMENT_COUNT; arr++) {
            int a = sizes[t][0], h = sizes[t][1], g = sizes[t][2], i, j, want = a * h / (g - 1), m = -1;
            sr_net_desc d = no_dragonfly(1, a, h, g, arr);
            sr_net net = no_make(&d);
            uint32_t r;
            memset(links, 0, sizeof links);
            ST_EQ(SR_OK, sr_df_group_channels(a, h, g, &m));
            ST_EQ(want, m);
            ST_EQ(want, net.df_links);
            for (r = 0; r < net.num_routers; r++) {
                int p;
                for (p = 0; p < sr_net_num_ports(&net, r); p++)
                    if (sr_net_port_info(&net, r, p).kind == SR_PORT_GLOBAL)
                        links[r / (uint32_t)a][sr_net_neighbor(&net, r, p, NULL) / (uint32_t)a]++;
            }
            for (i = 0; i < g; i++)
                for (j = 0; j < g; j++) {
                    ST_EQ(i == j ? 0 : want, links[i][j]);
                    if (i != j) {
                        int c, e;
                        c = sr_df_global_first(&net, (uint32_t)i, (uint32_t)j);
                        for (e = 0; e < want; e++)
                            ST_EQ(j, (int)sr_df_global_target(&net, (uint32_t)i, c + e, NULL));
                    }
                }
            if (g == a * h + 1) ST_EQ(1, want);
        }
}

/* Palm-tree: channel 0 of every group goes to the group before it; the
 * consecutive arrangement's group 0 starts at group 1 (the definitions of
 * sr_df_arrangement). */
ST_TEST(net_dragonfly_arrangements_as_documented) {
    sr_net_desc d = no_dragonfly(2, 4, 2, 9, SR_DF_PALMTREE), c = no_dragonfly(2, 4, 2, 9, SR_DF_CONSECUTIVE);
    sr_net pt = no_make(&d), cs = no_make(&c);
    uint32_t i;
    for (i = 0; i < 9; i++) {
        ST_EQ((i + 8) % 9, sr_df_global_target(&pt, i, 0, NULL));
        ST_EQ((i + 1) % 9, sr_df_global_target(&pt, i, 7, NULL));
        ST_EQ(i == 0 ? 1u : 0u, sr_df_global_target(&cs, i, 0, NULL));
        ST_EQ(i == 8 ? 7u : 8u, sr_df_global_target(&cs, i, 7, NULL));
    }
}

/* Every error of sr_net_init, with a message that names the field; the
 * network is untouched on error. */
ST_TEST(net_init_errors_name_the_field) {
    struct {
        sr_net_desc d;
        sr_result want;
        const char *field;
    } c[40];
    int n = 0, i;
    sr_net net, before;
    static const int k3[] = { 4, 4, 4 }, big[] = { 2048, 2048, 2048 }, one[] = { 1 }, s2[] = { 2, 2 };
    static const int s12[] = { 1, 2 }, d02[] = { 0, 2 }, s16[] = { 16, 16, 16, 16, 16, 16, 16, 16 };
    static const int down2[] = { 2, 2 }, up_bad[] = { 0, 0 }, up_top[] = { 2, 1 }, up_ok[] = { 2, 0 };
    static const int huge_down[] = { 256, 256, 256, 256 }, huge_up[] = { 0, 0, 0, 0 };
#define TN_CASE(desc, code, name) do { c[n].d = (desc); c[n].want = (code); c[n].field = (name); n++; } while (0)
    memset(c, 0, sizeof c);
    TN_CASE(no_cube(0, k3, NULL), SR_ERR_DIMS, "num_dims");
    c[n].d = no_cube(3, k3, NULL); c[n].d.cube.num_dims = 9;
    TN_CASE(c[n].d, SR_ERR_DIMS, "num_dims");
    TN_CASE(no_cube(1, one, NULL), SR_ERR_RADIX, "radix");
    TN_CASE(no_cube(3, big, NULL), SR_ERR_NET_SIZE, "cube.radix");
    c[n].d = no_cube(3, k3, NULL); c[n].d.cube.dateline[2] = 4;
    TN_CASE(c[n].d, SR_ERR_DATELINE, "dateline");
    c[n].d = no_cube(3, k3, NULL); c[n].d.cube.tie = 3;
    TN_CASE(c[n].d, SR_ERR_TIE, "tie");
    c[n].d = no_cube(3, k3, NULL); c[n].d.kind = SR_NET_KIND_COUNT;
    TN_CASE(c[n].d, SR_ERR_KIND, "kind");
    c[n].d = no_cube(3, k3, NULL); c[n].d.kind = -1;
    TN_CASE(c[n].d, SR_ERR_KIND, "kind");
    c[n].d = no_hyperx(2, s2, 1); c[n].d.hyperx.num_dims = 0;
    TN_CASE(c[n].d, SR_ERR_HX_SHAPE, "hyperx.num_dims");
    c[n].d = no_hyperx(2, s2, 1); c[n].d.hyperx.num_dims = 9;
    TN_CASE(c[n].d, SR_ERR_HX_SHAPE, "hyperx.num_dims");
    TN_CASE(no_hyperx(2, s12, 1), SR_ERR_HX_SHAPE, "hyperx.size");
    TN_CASE(no_hyperx(2, s2, -1), SR_ERR_TERMINALS, "hyperx.terminals");
    TN_CASE(no_hyperx(2, s2, 512), SR_ERR_PORT_LIMIT, "hyperx.terminals");
    TN_CASE(no_hyperx(2, s2, 0x7FFFFFFF), SR_ERR_PORT_LIMIT, "hyperx.terminals");
    TN_CASE(no_hyperx(3, k3, 1 << 30), SR_ERR_PORT_LIMIT, "hyperx.terminals");
    TN_CASE(no_hyperx(3, huge_down, 1), SR_ERR_PORT_LIMIT, "hyperx.size");
    TN_CASE(no_hyperx(2, big, 1), SR_ERR_PORT_LIMIT, "hyperx.size");
    c[n].d = no_hyperx(1, s2, 1); c[n].d.hyperx.size[0] = 256; c[n].d.hyperx.num_dims = 1;
    c[n].d.hyperx.terminals = 256;
    TN_CASE(c[n].d, SR_OK, "");                                  /* 511 ports: accepted */
    TN_CASE(no_dragonfly(0, 4, 2, 9, 0), SR_ERR_TERMINALS, "dragonfly.p");
    TN_CASE(no_dragonfly(1, 0, 2, 9, 0), SR_ERR_DF_SHAPE, "dragonfly.a");
    TN_CASE(no_dragonfly(1, 4, 0, 9, 0), SR_ERR_DF_SHAPE, "dragonfly.h");
    TN_CASE(no_dragonfly(1, 4, 2, 10, 0), SR_ERR_DF_GROUPS, "dragonfly.g");
    TN_CASE(no_dragonfly(1, 4, 2, 1, 0), SR_ERR_DF_GROUPS, "dragonfly.g");
    TN_CASE(no_dragonfly(1, 4, 2, 4, 0), SR_ERR_DF_GROUPS, "dragonfly.g");      /* 3 does not divide 8 */
    TN_CASE(no_dragonfly(1, 4, 2, 9, 2), SR_ERR_DF_ARRANGEMENT, "dragonfly.arrangement");
    TN_CASE(no_dragonfly(1, 4, 2, 9, -1), SR_ERR_DF_ARRANGEMENT, "dragonfly.arrangement");
    TN_CASE(no_dragonfly(400, 100, 20, 2, 0), SR_ERR_PORT_LIMIT, "dragonfly.p");
    c[n].d = no_hyperx(8, s16, 1);
    TN_CASE(c[n].d, SR_ERR_NET_SIZE, "hyperx.size");                           /* 16^8 routers */
    c[n].d = no_clos(2, down2, up_ok); c[n].d.clos.levels = 0;
    TN_CASE(c[n].d, SR_ERR_CLOS_LEVELS, "clos.levels");
    c[n].d = no_clos(2, down2, up_ok); c[n].d.clos.levels = 9;
    TN_CASE(c[n].d, SR_ERR_CLOS_LEVELS, "clos.levels");
    TN_CASE(no_clos(2, down2, up_bad), SR_ERR_CLOS_PORTS, "clos.up");
    TN_CASE(no_clos(2, down2, up_top), SR_ERR_CLOS_PORTS, "clos.up");
    TN_CASE(no_clos(2, d02, up_ok), SR_ERR_CLOS_PORTS, "clos.down");
    TN_CASE(no_clos(4, huge_down, huge_up), SR_ERR_CLOS_PORTS, "clos.up");
    c[n].d = no_clos(4, huge_down, huge_up); c[n].d.clos.up[0] = c[n].d.clos.up[1] = c[n].d.clos.up[2] = 1;
    TN_CASE(c[n].d, SR_ERR_NET_SIZE, "clos.down");
    c[n].d = no_clos(2, down2, up_ok); c[n].d.clos.up[0] = 511;
    TN_CASE(c[n].d, SR_ERR_PORT_LIMIT, "clos.down[l]+up[l]");
    TN_CASE(no_fly(1, 3), SR_ERR_FLY_SHAPE, "butterfly.k");
    TN_CASE(no_fly(2, 31), SR_ERR_FLY_SHAPE, "butterfly.n");
    TN_CASE(no_fly(257, 1), SR_ERR_PORT_LIMIT, "butterfly.k");
    TN_CASE(no_fly(4, 16), SR_ERR_NET_SIZE, "butterfly.k and n");
#undef TN_CASE
    ST_CHECK(n <= 40);
    for (i = 0; i < n; i++) {
        sr_result e;
        memset(&net, 0x5A, sizeof net);
        before = net;
        e = sr_net_init(&net, &c[i].d);
        if (c[i].want == SR_OK) { ST_EQ(SR_OK, e); continue; }
        ST_CHECKF(e == c[i].want, "case %d: %s, expected %s", i, sr_result_string(e), sr_result_string(c[i].want));
        ST_CHECK(memcmp(&net, &before, sizeof net) == 0);
        ST_CHECKF(strstr(sr_result_string(e), c[i].field) != NULL, "case %d: \"%s\" does not name %s", i,
                  sr_result_string(e), c[i].field);
    }
    ST_EQ(SR_ERR_NULL, sr_net_init(NULL, &c[0].d));
    ST_EQ(SR_ERR_NULL, sr_net_init(&net, NULL));
}

/* sr_net_check accepts what sr_net_init made and refuses any change. */
ST_TEST(net_check_refuses_a_corrupted_net) {
    int i;
    uint64_t seed = 24;
    /* no padding: the members add up to the struct */
    ST_EQ(sizeof(sr_net), 4 * 5 + sizeof(sr_net_desc) + sizeof(sr_topology) + 4 * (SR_MAX_DIMS + SR_MAX_DIMS + 1 + 1 +
                                                                                   SR_MAX_LEVELS + 1 + SR_MAX_LEVELS +
                                                                                   1 + SR_MAX_STAGES));
    ST_EQ(SR_ERR_NULL, sr_net_check(NULL));
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i), bad;
        unsigned char *b = (unsigned char *)&bad;
        int j;
        ST_EQ(SR_OK, sr_net_check(&net));
        for (j = 0; j < 40; j++) {
            size_t at = st_rand_below(&seed, (uint32_t)sizeof bad);
            bad = net;
            b[at] ^= (unsigned char)(1u << st_rand_below(&seed, 8));
            ST_CHECKF(sr_net_check(&bad) == SR_ERR_STATE, "zoo %d: byte %d changed", i, (int)at);
        }
    }
}

/* The builders fill exactly the fields a hand-written description sets,
 * and refuse a count they would read arrays past. */
ST_TEST(net_desc_builders_fill_the_fields) {
    static const int k[] = { 4, 3, 5 }, mesh[] = { 1, 0, 1 }, down[] = { 2, 3, 4 }, up[] = { 3, 2, 0 };
    sr_net_desc got, want;
/* the builder's description against want, over a poisoned one */
#define TN_BUILT(call) do { memset(&got, 0x77, sizeof got); ST_EQ(SR_OK, (call)); \
                            ST_CHECK(memcmp(&got, &want, sizeof got) == 0); memset(&want, 0, sizeof want); } while (0)
    memset(&want, 0, sizeof want);
    want.kind = SR_NET_CUBE; want.cube.num_dims = 3;
    want.cube.radix[0] = 4; want.cube.radix[1] = 3; want.cube.radix[2] = 5;
    want.cube.mesh[0] = 1; want.cube.mesh[2] = 1;
    TN_BUILT(sr_net_desc_cube(&got, 3, k, mesh));
    want.kind = SR_NET_HYPERX; want.hyperx.num_dims = 3; want.hyperx.terminals = 7;
    want.hyperx.size[0] = 4; want.hyperx.size[1] = 3; want.hyperx.size[2] = 5;
    TN_BUILT(sr_net_desc_hyperx(&got, 3, k, 7));
    want.kind = SR_NET_DRAGONFLY;
    want.dragonfly.p = 2; want.dragonfly.a = 4; want.dragonfly.h = 2; want.dragonfly.g = 5;
    want.dragonfly.arrangement = SR_DF_PALMTREE;
    TN_BUILT(sr_net_desc_dragonfly(&got, 2, 4, 2, 5, SR_DF_PALMTREE));
    want.kind = SR_NET_CLOS; want.clos.levels = 3;
    want.clos.down[0] = 2; want.clos.down[1] = 3; want.clos.down[2] = 4;
    want.clos.up[0] = 3; want.clos.up[1] = 2;
    TN_BUILT(sr_net_desc_clos(&got, 3, down, up));
    want.kind = SR_NET_BUTTERFLY;
    want.butterfly.k = 4; want.butterfly.n = 3;
    TN_BUILT(sr_net_desc_butterfly(&got, 4, 3));
#undef TN_BUILT
    ST_EQ(SR_OK, sr_net_desc_cube(&got, 3, k, NULL));
    ST_EQ(0, got.cube.mesh[0] + got.cube.mesh[2]);
    ST_EQ(SR_ERR_DIMS, sr_net_desc_cube(&got, 0, k, NULL));
    ST_EQ(SR_ERR_DIMS, sr_net_desc_cube(&got, SR_MAX_DIMS + 1, k, NULL));
    ST_EQ(SR_ERR_HX_SHAPE, sr_net_desc_hyperx(&got, SR_MAX_DIMS + 1, k, 1));
    ST_EQ(SR_ERR_CLOS_LEVELS, sr_net_desc_clos(&got, 0, down, up));
    ST_EQ(SR_ERR_NULL, sr_net_desc_cube(NULL, 3, k, NULL));
    ST_EQ(SR_ERR_NULL, sr_net_desc_hyperx(&got, 3, NULL, 1));
    ST_EQ(SR_ERR_NULL, sr_net_desc_dragonfly(NULL, 1, 1, 1, 2, 0));
    ST_EQ(SR_ERR_NULL, sr_net_desc_clos(&got, 3, down, NULL));
    ST_EQ(SR_ERR_NULL, sr_net_desc_butterfly(NULL, 2, 2));
}
