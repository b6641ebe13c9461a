/* SPDX-License-Identifier: MIT */
/* test_net_metrics.c - seastar_topo.h >>metrics against brute force.
 *
 * sr_net_hops against breadth-first search over sr_net_neighbor (for a
 * dragonfly, paths with at most one global channel), every field of
 * sr_net_compute_metrics against the search over every pair of terminals,
 * the bisection against an exhaustive search of balanced cuts (and the two
 * documented cases where a smaller cut exists), the exact 128-bit hop sums
 * of the largest rings, Table 3.1's formulas in the conventions of each of
 * its rows, and Figure 3.3's printed hop matrices. */
#include "st_test.h"
#include "../seastar_route.h"
#include "net_oracle.h"

/* ------------------------------------------------------------- the tests */

ST_TEST(net_hops_match_breadth_first_search) {
    static int dist[NO_MAX_ROUTERS];
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        uint32_t s, t, last = SR_NO_NODE;
        for (s = 0; s < net.num_terminals; s++) {
            uint32_t rs = sr_net_terminal_router(&net, s, NULL);
            if (rs != last) { no_bfs(&net, rs, net.kind == SR_NET_DRAGONFLY, dist); last = rs; }
            for (t = 0; t < net.num_terminals; t++)
                ST_CHECKF(sr_net_hops(&net, s, t) == dist[sr_net_eject_router(&net, t, NULL)],
                          "zoo %d (%s): %u -> %u: %d hops, search %d", i, sr_net_kind_name(net.kind), s, t,
                          sr_net_hops(&net, s, t), dist[sr_net_eject_router(&net, t, NULL)]);
        }
    }
}

/* In a dragonfly the graph can be shorter than minimal routing: a path
 * through a third group's two global channels.  Figure 4.10's dragonfly
 * (p = h = 2, a = 4, g = 9) has such pairs in both arrangements; the
 * metrics follow minimal routing (the definition at >>metrics). */
ST_TEST(net_dragonfly_graph_is_shorter_than_minimal_routing) {
    static int graph[NO_MAX_ROUTERS], one[NO_MAX_ROUTERS];
    int arr;
    for (arr = 0; arr < SR_DF_ARRANGEMENT_COUNT; arr++) {
        sr_net_desc d = no_dragonfly(2, 4, 2, 9, arr);
        sr_net net = no_make(&d);
        uint32_t r, v;
        int shorter = 0;
        for (r = 0; r < net.num_routers; r++) {
            no_bfs(&net, r, 0, graph);
            no_bfs(&net, r, 1, one);
            for (v = 0; v < net.num_routers; v++) {
                ST_CHECK(graph[v] <= one[v] && one[v] <= 3);
                shorter += graph[v] < one[v];
            }
        }
        ST_CHECKF(shorter > 0, "arrangement %d", arr);
    }
}

/* Every field against the brute-force metrics. */
ST_TEST(net_metrics_match_brute_force) {
    int i;
    for (i = 0; i < no_zoo_count(); i++) {
        sr_net net = no_zoo_net(i);
        sr_net_metrics m;
        no_metrics_t b = no_metrics(&net);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ(0, b.unreachable);
        ST_EQ(net.num_routers, m.routers);
        ST_EQ(net.num_terminals, m.terminals);
        ST_EQ(b.pairs, m.pairs);
        ST_EQ((uint64_t)net.num_terminals * (net.num_terminals - 1), m.pairs);
        ST_CHECKF(m.hop_sum == b.hop_sum && m.hop_sum_high == 0, "zoo %d (%s): hop sum %llu, search %llu", i,
                  sr_net_kind_name(net.kind), (unsigned long long)m.hop_sum, (unsigned long long)b.hop_sum);
        ST_CHECKF(m.diameter == b.diameter, "zoo %d: diameter %d, search %d", i, m.diameter, b.diameter);
        ST_EQ(b.radix, m.radix);
        if (m.pairs) ST_NEAR((double)b.hop_sum / (double)b.pairs, m.avg_hops, 1e-12);
        else ST_NEAR(0.0, m.avg_hops, 0.0);
    }
    ST_EQ(SR_ERR_NULL, sr_net_compute_metrics(NULL, NULL));
}

/* Larger dragonflies: the closed form's sum against sr_net_hops over every
 * pair of routers (sr_net_hops is checked against search above), in both
 * arrangements, with blocks of channels that start inside a router. */
ST_TEST(net_dragonfly_metrics_larger) {
    static const int sizes[][4] = { { 2, 8, 4, 33 }, { 1, 8, 4, 17 }, { 1, 8, 4, 9 }, { 3, 6, 4, 13 },
                                    { 1, 6, 4, 7 }, { 1, 7, 6, 15 }, { 2, 5, 6, 16 }, { 1, 9, 2, 7 } };
    int t, arr;
    for (t = 0; t < (int)(sizeof sizes / sizeof sizes[0]); t++)
        for (arr = 0; arr < SR_DF_ARRANGEMENT_COUNT; arr++) {
            sr_net_desc d = no_dragonfly(sizes[t][0], sizes[t][1], sizes[t][2], sizes[t][3], arr);
            sr_net net = no_make(&d);
            sr_net_metrics m;
            uint64_t sum = 0, p = (uint64_t)sizes[t][0];
            uint32_t x, y;
            int diameter = 0;
            ST_CHECK(net.num_routers > 0);
            for (x = 0; x < net.num_routers; x++)
                for (y = 0; y < net.num_routers; y++) {
                    int h = sr_net_hops(&net, x * (uint32_t)p, y * (uint32_t)p);
                    sum += (uint64_t)h;
                    if (h > diameter) diameter = h;
                }
            ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
            ST_EQ(sum * p * p, m.hop_sum);
            ST_EQ(diameter, m.diameter);
        }
}

/* The radix-64 dragonfly of seed 004 Section 4.3.5: p = 16, a = 32, h = 16,
 * 513 groups, 262,656 terminals, diameter 3 (and, in the long run, the hop
 * sum against sr_net_hops over all 16,416^2 router pairs). */
ST_TEST(net_radix64_dragonfly) {
    int arr;
    for (arr = 0; arr < SR_DF_ARRANGEMENT_COUNT; arr++) {
        sr_net_desc d = no_dragonfly(16, 32, 16, 0, arr);
        sr_net net = no_make(&d);
        sr_net_metrics m;
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ(262656, m.terminals);
        ST_EQ(16416, m.routers);
        ST_EQ(63, m.radix);
        ST_EQ(3, m.diameter);
        ST_CHECK(m.avg_hops > 2.0 && m.avg_hops < 3.0);
        ST_EQ(2 * 256 * 256 + 2 * 16 * 16, m.bisection);     /* 256 groups a side, the middle group halved */
        if (ST_LONG) {
            uint64_t sum = 0;
            uint32_t x, y;
            for (x = 0; x < net.num_routers; x++)
                for (y = 0; y < net.num_routers; y++) sum += (uint64_t)sr_net_hops(&net, x * 16, y * 16);
            ST_EQ(sum * 256, m.hop_sum);
        }
    }
}

/* 128-bit sums: a ring of 2^30 routers has N floor(N^2/4) = 2^88 hops, a
 * line of 2^30 (N-1)N(N+1)/3 = 2^30 (2^60-1)/3. */
ST_TEST(net_metrics_exact_past_64_bits) {
    static const int ring[] = { 1 << 30 }, line[] = { 1 };
    sr_net_desc d = no_cube(1, ring, NULL), e = no_cube(1, ring, line);
    sr_net net = no_make(&d), lin = no_make(&e);
    sr_net_metrics m;
    uint64_t q = (((uint64_t)1 << 60) - 1) / 3;
    ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
    ST_EQ_U64((uint64_t)1 << 24, m.hop_sum_high);
    ST_EQ_U64(0, m.hop_sum);
    ST_EQ(1 << 29, m.diameter);
    ST_NEAR(268435456.25, m.avg_hops, 1e-3);                 /* 2^88 / (2^30 (2^30 - 1)) */
    ST_EQ(4, m.bisection);
    ST_EQ(SR_OK, sr_net_compute_metrics(&lin, &m));
    ST_EQ_U64(q >> 34, m.hop_sum_high);
    ST_EQ_U64(q << 30, m.hop_sum);
    ST_EQ((1 << 30) - 1, m.diameter);
    ST_EQ(2, m.bisection);
}

/* The bisection is the minimum balanced cut wherever an exhaustive search
 * reaches (units: routers, a butterfly row's two switches counting as
 * one), except the two cases sr_net_metrics.bisection names, where it is
 * larger than the minimum.  The long run searches larger networks. */
ST_TEST(net_bisection_is_the_minimum_cut) {
    enum { C = SR_NET_CUBE, X = SR_NET_HYPERX, D = SR_NET_DRAGONFLY, F = SR_NET_BUTTERFLY };
    static const int spec[][NO_SPEC] = {
        { C, 2, 3, 3 }, { C, 2, 3, 3, 0, 1, 1 }, { C, 2, 3, 5, 0, 0, 1 }, { C, 3, 2, 5, 5 }, { C, 2, 4, 5, 0, 0, 1 },
        { C, 3, 3, 3, 3 }, { C, 3, 3, 3, 3, 1, 1, 1 }, { X, 2, 2, 3, 3 }, { X, 3, 1, 2, 3, 5 }, { X, 2, 1, 3, 7 },
        { X, 2, 1, 5, 5 }, { D, 1, 4, 1, 5, 0 }, { D, 1, 6, 1, 3, 1 }, { D, 1, 5, 2, 3, 0 }, { D, 1, 6, 3, 4, 1 },
        { D, 1, 7, 2, 3, 1 }, { D, 1, 5, 2, 6, 0 }, { F, 5, 2 }, { F, 7, 2 },
    };
    sr_net_desc zoo[NO_ZOO_SIZE], extra[32];
    int n = no_zoo(zoo), ne, i, limit = ST_LONG ? 30 : 19;
    for (ne = 0; ne < (int)(sizeof spec / sizeof spec[0]); ne++) extra[ne] = no_from_spec(spec[ne]);
    for (i = 0; i < n + ne; i++) {
        const sr_net_desc *d = i < n ? &zoo[i] : &extra[i - n];
        sr_net net = no_make(d);
        sr_net_metrics m;
        long best;
        int units = (int)net.num_routers;
        int counter = 0;
        if (d->kind == SR_NET_BUTTERFLY) units -= (int)(net.num_routers / (uint32_t)d->butterfly.n);
        if (d->kind == SR_NET_BUTTERFLY && d->butterfly.n == 1) units = 1;
        if (units > limit) continue;
        best = no_min_cut(&net);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        /* the documented exceptions: a dragonfly with a < 2h, an
         * oversubscribed Clos */
        if ((d->kind == SR_NET_DRAGONFLY && d->dragonfly.a == 3 && d->dragonfly.h == 2 && d->dragonfly.g == 4) ||
            (d->kind == SR_NET_CLOS && d->clos.levels == 3 && d->clos.up[0] == 1 && d->clos.up[1] == 3))
            counter = 1;
        if (counter) {
            ST_CHECKF((long)m.bisection > best, "case %d: %llu, minimum %ld", i, (unsigned long long)m.bisection,
                      best);
            continue;
        }
        if (d->kind == SR_NET_DRAGONFLY && d->dragonfly.a < 2 * d->dragonfly.h) {
            ST_CHECK((long)m.bisection >= best);          /* an upper bound */
            continue;
        }
        ST_CHECKF((long)m.bisection == best, "case %d (%s): natural cut %llu, minimum %ld", i,
                  sr_net_kind_name(net.kind), (unsigned long long)m.bisection, best);
    }
}

/* HyperX: the natural cut equals Lindsey's bound, the edge boundary of the
 * first floor(R/2) routers in lexicographic order with the smallest
 * dimension most significant (products of cliques; Lindsey 1964), on
 * sizes an exhaustive search cannot reach. */
static uint64_t tm_lex_boundary(const int *s, int n, uint64_t m) {
    uint64_t rest = 1, q, r;
    int i;
    if (n == 0 || m == 0) return 0;
    for (i = 1; i < n; i++) rest *= (uint64_t)s[i];
    q = m / rest;
    r = m % rest;
    if (q == (uint64_t)s[0]) return 0;
    return r * (q + 1) * ((uint64_t)s[0] - q - 1) + (rest - r) * q * ((uint64_t)s[0] - q) +
           tm_lex_boundary(s + 1, n - 1, r);
}

ST_TEST(net_hyperx_bisection_is_lindseys_bound) {
    uint64_t seed = 4;
    int t;
    for (t = 0; t < 300; t++) {
        int n = 1 + (int)st_rand_below(&seed, 5), s[SR_MAX_DIMS], sorted[SR_MAX_DIMS], i, j;
        sr_net_desc d;
        sr_net net;
        sr_net_metrics m;
        uint64_t R = 1;
        for (i = 0; i < n; i++) {
            s[i] = 2 + (int)st_rand_below(&seed, 9);
            R *= (uint64_t)s[i];
            sorted[i] = s[i];
        }
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++)
                if (sorted[j] < sorted[i]) { int x = sorted[i]; sorted[i] = sorted[j]; sorted[j] = x; }
        d = no_hyperx(n, s, 1);
        net = no_make(&d);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ(2 * tm_lex_boundary(sorted, n, R / 2), m.bisection);
    }
}

/* Table 3.1, each row in its own convention (seed 004 Section 3.3.2):
 * mesh (k+1)/3 over the k(k-1) distinct pairs; torus k/4 over all k^2
 * pairs, exact for even k; hypercube n/2 over all N^2 pairs; flattened
 * butterfly n+1-(n-1)/k over all N^2 pairs with the two terminal channels
 * counted; and the diameters k-1, floor(k/2), n, and n-1 (n+1 with the
 * terminal channels). */
ST_TEST(net_table_3_1_in_its_conventions) {
    int k, n;
    for (k = 2; k <= 24; k++) {
        int kk[1], mesh[1] = { 1 };
        sr_net_desc d;
        sr_net net;
        sr_net_metrics m;
        kk[0] = k;
        d = no_cube(1, kk, mesh);
        net = no_make(&d);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ((uint64_t)(k + 1) * m.pairs, 3 * m.hop_sum);          /* (k+1)/3 exactly */
        ST_EQ(k - 1, m.diameter);
        d = no_cube(1, kk, NULL);
        net = no_make(&d);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ(k / 2, m.diameter);
        if (k % 2 == 0) ST_EQ((uint64_t)k * k * k, 4 * m.hop_sum);  /* k/4 over k^2 pairs */
        else ST_EQ((uint64_t)k * (k * k - 1), 4 * m.hop_sum);       /* (k^2-1)/(4k): below k/4 */
    }
    for (n = 1; n <= 8; n++) {
        sr_net_desc d;
        sr_net net;
        sr_net_metrics m;
        uint64_t N = (uint64_t)1 << n;
        ST_EQ(SR_OK, sr_hypercube_desc(n, &d));
        net = no_make(&d);
        ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
        ST_EQ((uint64_t)n * N * N, 2 * m.hop_sum);                  /* n/2 over N^2 pairs */
        ST_EQ(n, m.diameter);
    }
    for (k = 2; k <= 6; k++)
        for (n = 2; n <= 5; n++) {
            sr_net_desc d;
            sr_net net;
            sr_net_metrics m;
            uint64_t N;
            ST_EQ(SR_OK, sr_fbfly_desc(k, n, &d));
            if (sr_net_init(&net, &d) != SR_OK) continue;
            N = net.num_terminals;
            ST_EQ(SR_OK, sr_net_compute_metrics(&net, &m));
            /* (hop_sum + 2 N^2) / N^2 = n+1 - (n-1)/k */
            ST_EQ((uint64_t)(n - 1) * (uint64_t)(k - 1) * N * N, (uint64_t)k * m.hop_sum);
            ST_EQ(n - 1, m.diameter);
        }
}

/* Figure 3.3: the printed hops between every pair of nodes of the radix-9
 * mesh (a) and torus (b), row by row. */
ST_TEST(net_figure_3_3_hop_matrices) {
    static const char *const mesh[9] = { "012345678", "101234567", "210123456", "321012345", "432101234",
                                         "543210123", "654321012", "765432101", "876543210" };
    static const char *const torus[9] = { "012344321", "101234432", "210123443", "321012344", "432101234",
                                          "443210123", "344321012", "234432101", "123443210" };
    int kind;
    for (kind = 0; kind < 2; kind++) {
        int k[1] = { 9 }, mflag[1] = { 1 };
        sr_net_desc d = no_cube(1, k, kind == 0 ? mflag : NULL);
        sr_net net = no_make(&d);
        uint32_t s, t;
        int sum = 0;
        for (s = 0; s < 9; s++)
            for (t = 0; t < 9; t++) {
                int printed = (kind == 0 ? mesh : torus)[s][t] - '0';
                ST_CHECKF(sr_net_hops(&net, s, t) == printed, "%s %u -> %u", kind ? "torus" : "mesh", s, t);
                sum += printed;
            }
        /* the text's own method: the sum over k(k-1) = 72 packets */
        ST_EQ(kind == 0 ? 240 : 180, sum);
    }
}
