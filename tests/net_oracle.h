/* SPDX-License-Identifier: MIT */
/* net_oracle.h - brute-force oracles for the network descriptions of
 * seastar_topo.h (tests and fuzz harnesses only).
 *
 * Everything here reads a network only through sr_net_neighbor,
 * sr_net_port_info, sr_net_num_ports and the terminal functions, never
 * through the closed forms it checks:
 *
 *   no_bfs        hops from one router to every other, over the channels
 *                 (for a dragonfly optionally with at most one global
 *                 channel, the minimal routing of seed 004 Section 5.5.3);
 *   no_metrics    diameter, hop sum and radix over every pair of terminals;
 *   no_min_cut    the fewest channels crossing a balanced cut, by trying
 *                 every cut (Gray code order);
 *   no_paths      the shortest paths between two routers, counted.
 */
#ifndef NET_ORACLE_H
#define NET_ORACLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_route.h"

/* Most routers the oracles handle (BFS arrays); most cut units. */
#define NO_MAX_ROUTERS 4096
#define NO_MAX_UNITS 30

/* Descriptions, through the library's builders (a count out of range
 * leaves a zero description, which sr_net_init refuses). */
static inline sr_net_desc no_cube(int n, const int *k, const int *mesh) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    (void)sr_net_desc_cube(&d, n, k, mesh);
    return d;
}

static inline sr_net_desc no_hyperx(int n, const int *s, int terminals) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    (void)sr_net_desc_hyperx(&d, n, s, terminals);
    return d;
}

static inline sr_net_desc no_dragonfly(int p, int a, int h, int g, int arrangement) {
    sr_net_desc d;
    (void)sr_net_desc_dragonfly(&d, p, a, h, g, arrangement);
    return d;
}

static inline sr_net_desc no_clos(int levels, const int *down, const int *up) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    (void)sr_net_desc_clos(&d, levels, down, up);
    return d;
}

static inline sr_net_desc no_fly(int k, int n) {
    sr_net_desc d;
    (void)sr_net_desc_butterfly(&d, k, n);
    return d;
}

/* A description from one row of a table: { SR_NET_CUBE, n, k0, k1, k2,
 * mesh0, mesh1, mesh2 }, { SR_NET_HYPERX, L, T, S0, S1, S2, S3 },
 * { SR_NET_DRAGONFLY, p, a, h, g, arrangement }, { SR_NET_CLOS, levels,
 * down0..3, up0..3 }, { SR_NET_BUTTERFLY, k, n }. */
#define NO_SPEC 11
static inline sr_net_desc no_from_spec(const int *s) {
    switch (s[0]) {
    case SR_NET_CUBE: return no_cube(s[1], s + 2, s + 5);
    case SR_NET_HYPERX: return no_hyperx(s[1], s + 3, s[2]);
    case SR_NET_DRAGONFLY: return no_dragonfly(s[1], s[2], s[3], s[4], s[5]);
    case SR_NET_CLOS: return no_clos(s[1], s + 2, s + 6);
    default: return no_fly(s[1], s[2]);
    }
}

/* The network of a description that sr_net_init accepts (0 routers if it
 * does not). */
static inline sr_net no_make(const sr_net_desc *d) {
    sr_net net;
    memset(&net, 0, sizeof net);
    if (sr_net_init(&net, d) != SR_OK) net.num_routers = 0;
    return net;
}

/* Small networks of every family, with the corners: 1-D, mesh and torus
 * dimensions, radix 2 (a torus ring of 2 has two links), HyperX of one
 * dimension and a binary hypercube, dragonflies of maximum size and
 * smaller (g = 2, one router per group, blocks of channels that do and do
 * not start on a router boundary) in both arrangements, Clos networks of 1
 * to 4 levels with unequal and oversubscribed ports, butterflies of 1 to 3
 * stages.  Fills list (at least NO_ZOO_SIZE entries); returns the count. */
#define NO_ZOO_SIZE 64
static inline int no_zoo(sr_net_desc *list) {
    enum { C = SR_NET_CUBE, X = SR_NET_HYPERX, D = SR_NET_DRAGONFLY, L = SR_NET_CLOS, F = SR_NET_BUTTERFLY };
    static const int spec[][NO_SPEC] = {
        { C, 1, 5 }, { C, 1, 5, 0, 0, 1 }, { C, 1, 2 }, { C, 1, 2, 0, 0, 1 }, { C, 2, 4, 3 }, { C, 2, 4, 3, 0, 0, 1 },
        { C, 3, 3, 3, 3, 1, 0, 1 }, { C, 3, 2, 2, 2 }, { C, 3, 2, 3, 4, 1, 1, 1 }, { C, 3, 4, 4, 4 },
        { X, 1, 1, 2 }, { X, 1, 3, 5 }, { X, 2, 4, 2, 4 }, { X, 2, 2, 3, 3 }, { X, 3, 1, 2, 3, 4 },
        { X, 4, 1, 2, 2, 2, 2 }, { X, 2, 4, 4, 4 },
        { D, 1, 1, 1, 2, 0 }, { D, 2, 4, 2, 9, 0 }, { D, 2, 4, 2, 9, 1 }, { D, 1, 4, 2, 5, 0 }, { D, 1, 4, 2, 5, 1 },
        { D, 1, 4, 2, 3, 0 }, { D, 1, 4, 2, 3, 1 }, { D, 2, 4, 2, 2, 0 }, { D, 1, 2, 3, 7, 1 }, { D, 1, 2, 3, 4, 0 },
        { D, 1, 3, 2, 4, 0 }, { D, 1, 3, 2, 7, 1 }, { D, 3, 1, 4, 5, 0 }, { D, 1, 1, 4, 3, 1 }, { D, 1, 6, 4, 9, 0 },
        { D, 1, 6, 4, 9, 1 }, { D, 1, 3, 4, 5, 0 }, { D, 2, 5, 4, 11, 1 }, { D, 1, 4, 6, 9, 0 },
        { L, 1, 4, 0, 0, 0, 0 }, { L, 2, 2, 2, 0, 0, 3, 0 }, { L, 2, 4, 4, 0, 0, 4, 0 }, { L, 3, 2, 2, 2, 0, 2, 2, 0 },
        { L, 3, 2, 2, 3, 0, 2, 1, 0 }, { L, 3, 2, 2, 2, 0, 1, 3, 0 }, { L, 4, 2, 2, 1, 1, 1, 3, 2, 0 },
        { L, 4, 2, 2, 2, 2, 2, 2, 1, 0 },
        { F, 2, 1 }, { F, 3, 1 }, { F, 2, 3 }, { F, 3, 2 }, { F, 4, 3 }, { F, 3, 3 },
    };
    int n;
    for (n = 0; n < (int)(sizeof spec / sizeof spec[0]); n++) list[n] = no_from_spec(spec[n]);
    return n;
}

/* The zoo's networks, one at a time (built by sr_net_init). */
static inline int no_zoo_count(void) {
    sr_net_desc list[NO_ZOO_SIZE];
    return no_zoo(list);
}

static inline sr_net no_zoo_net(int i) {
    sr_net_desc list[NO_ZOO_SIZE];
    (void)no_zoo(list);
    return no_make(&list[i]);
}

/* Hops from router `from` to every router (dist[r], -1 if unreachable),
 * breadth first over sr_net_neighbor.  one_global: a dragonfly path may
 * take at most one global channel (states: router x globals used). */
static inline void no_bfs(const sr_net *net, uint32_t from, int one_global, int *dist) {
    static uint32_t queue[2 * NO_MAX_ROUTERS];
    static int d2[2 * NO_MAX_ROUTERS];
    uint32_t n = net->num_routers, head = 0, tail = 0, r;
    int layers = one_global ? 2 : 1;
    for (r = 0; r < (uint32_t)layers * n; r++) d2[r] = -1;
    d2[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        uint32_t s = queue[head++], u = s % n, layer = s / n;
        int p, ports = sr_net_num_ports(net, u);
        for (p = 0; p < ports; p++) {
            uint32_t v = sr_net_neighbor(net, u, p, NULL), l2 = layer, st;
            if (v == SR_NO_NODE) continue;
            if (one_global && sr_net_port_info(net, u, p).kind == SR_PORT_GLOBAL) {
                if (layer) continue;
                l2 = 1;
            }
            st = l2 * n + v;
            if (d2[st] < 0) {
                d2[st] = d2[s] + 1;
                queue[tail++] = st;
            }
        }
    }
    for (r = 0; r < n; r++) {
        dist[r] = d2[r];
        if (one_global && d2[n + r] >= 0 && (dist[r] < 0 || d2[n + r] < dist[r])) dist[r] = d2[n + r];
    }
}

/* Metrics by brute force: every ordered pair of distinct terminals. */
typedef struct no_metrics_t {
    uint64_t hop_sum, pairs;
    int diameter, radix, unreachable;
} no_metrics_t;

static inline no_metrics_t no_metrics(const sr_net *net) {
    static int dist[NO_MAX_ROUTERS];
    no_metrics_t m;
    uint32_t s, t, last = SR_NO_NODE;
    int one_global = net->kind == SR_NET_DRAGONFLY;
    memset(&m, 0, sizeof m);
    for (s = 0; s < net->num_routers; s++) {
        int ports = sr_net_num_ports(net, s);
        if (net->kind == SR_NET_BUTTERFLY) ports /= 2;     /* k inputs and k outputs: radix k */
        if (ports > m.radix) m.radix = ports;
    }
    for (s = 0; s < net->num_terminals; s++) {
        uint32_t rs = sr_net_terminal_router(net, s, NULL);
        if (rs != last) { no_bfs(net, rs, one_global, dist); last = rs; }
        for (t = 0; t < net->num_terminals; t++) {
            int h;
            if (s == t) continue;
            h = dist[sr_net_eject_router(net, t, NULL)];
            if (h < 0) { m.unreachable++; continue; }
            m.hop_sum += (uint64_t)h;
            m.pairs++;
            if (h > m.diameter) m.diameter = h;
        }
    }
    return m;
}

/* The fewest channels crossing a balanced cut (both directions counted),
 * by trying every cut: the routers with terminals split floor/ceil in
 * half, the others free, a butterfly's input and output switch of a row
 * together.  Returns -1 if the network has more than NO_MAX_UNITS units. */
static inline long no_min_cut(const sr_net *net) {
    static int unit_of[NO_MAX_ROUTERS];
    static long w[NO_MAX_UNITS][NO_MAX_UNITS];
    int has_t[NO_MAX_UNITS], side[NO_MAX_UNITS];
    uint32_t r;
    int units = 0, total = 0, want, u, v, lim, count = 0;
    long cut = 0, best = -1;
    uint64_t i;
    if (net->num_routers > NO_MAX_ROUTERS) return -1;
    for (r = 0; r < net->num_routers; r++) {
        int c[SR_MAX_DIMS];
        if (net->kind == SR_NET_BUTTERFLY && net->desc.butterfly.n > 1 && sr_net_router_coords(net, r, c) &&
            c[0] == net->desc.butterfly.n - 1) {
            unit_of[r] = unit_of[(uint32_t)c[1]];     /* with the row's input switch */
            continue;
        }
        if (units == NO_MAX_UNITS) return -1;
        unit_of[r] = units++;
    }
    memset(w, 0, sizeof w);
    memset(has_t, 0, sizeof has_t);
    for (r = 0; r < net->num_routers; r++) {
        int p, ports = sr_net_num_ports(net, r);
        for (p = 0; p < ports; p++) {
            uint32_t x = sr_net_neighbor(net, r, p, NULL);
            if (sr_net_port_terminal(net, r, p) != SR_NO_NODE) has_t[unit_of[r]] = 1;
            if (x != SR_NO_NODE && unit_of[x] != unit_of[r]) {
                w[unit_of[r]][unit_of[x]]++;
                w[unit_of[x]][unit_of[r]]++;
            }
        }
    }
    for (u = 0; u < units; u++) { total += has_t[u]; side[u] = 0; }
    want = total / 2;
    /* With an even split the two sides are interchangeable: keep the last
     * unit on side 0. */
    lim = total % 2 == 0 ? units - 1 : units;
    if (want == 0) best = 0;
    for (i = 1; i < ((uint64_t)1 << lim); i++) {
        u = 0;
        while (!((i >> u) & 1u)) u++;              /* Gray code: flip unit u */
        for (v = 0; v < units; v++)
            if (w[u][v]) cut += side[v] == side[u] ? w[u][v] : -w[u][v];
        side[u] ^= 1;
        count += side[u] ? has_t[u] : -has_t[u];
        if (count == want && (best < 0 || cut < best)) best = cut;
    }
    return best;
}

/* Shortest paths from router a to router b, counted (BFS layers). */
static inline uint64_t no_paths(const sr_net *net, uint32_t a, uint32_t b) {
    static int dist[NO_MAX_ROUTERS];
    static uint64_t ways[NO_MAX_ROUTERS];
    static uint32_t order[NO_MAX_ROUTERS];
    uint32_t n = net->num_routers, r, cnt = 0, i;
    int level;
    no_bfs(net, a, 0, dist);
    memset(ways, 0, sizeof(uint64_t) * n);
    ways[a] = 1;
    for (level = 0; level <= dist[b]; level++)
        for (r = 0; r < n; r++)
            if (dist[r] == level) order[cnt++] = r;
    for (i = 0; i < cnt; i++) {
        int p, ports = sr_net_num_ports(net, order[i]);
        for (p = 0; p < ports; p++) {
            uint32_t v = sr_net_neighbor(net, order[i], p, NULL);
            if (v != SR_NO_NODE && dist[v] == dist[order[i]] + 1) ways[v] += ways[order[i]];
        }
    }
    return ways[b];
}

#endif
