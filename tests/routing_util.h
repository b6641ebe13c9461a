/* SPDX-License-Identifier: MIT */
/* routing_util.h - helpers of the candidate-set routing tests (tests
 * only): small networks of every family, breadth-first distances over the
 * built network (the oracle of minimal routing), a routing with its
 * verifier scratch. */
#ifndef ROUTING_UTIL_H
#define ROUTING_UTIL_H

#include <stdlib.h>
#include <string.h>
#include "../seastar_route.h"

/* Call a void check helper of a test (one that takes st__ctx and uses the
 * ST_ macros) and stop the test when it failed. */
#define RU_CALL(call) do { call; if (st__ctx->failed) return; } while (0)

/* A cube (kind SR_NET_CUBE: radices k, mesh flags or NULL for tori, a
 * tie-break) or a HyperX (SR_NET_HYPERX: sizes k, terminals per router). */
static inline int ru_grid(sr_net *net, int kind, int n, const int *k, const int *mesh, int tie, int terminals) {
    sr_net_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.cube.num_dims = d.hyperx.num_dims = n;
    d.cube.tie = tie;
    d.hyperx.terminals = terminals;
    for (i = 0; i < n; i++) {
        d.cube.radix[i] = d.hyperx.size[i] = k[i];
        d.cube.mesh[i] = mesh ? mesh[i] : 0;
    }
    return sr_net_init(net, &d) == SR_OK;
}

static inline int ru_cube(sr_net *net, int n, const int *k, const int *mesh, int tie) {
    return ru_grid(net, SR_NET_CUBE, n, k, mesh, tie, 0);
}

static inline int ru_hyperx(sr_net *net, int n, const int *s, int terminals) {
    return ru_grid(net, SR_NET_HYPERX, n, s, NULL, 0, terminals);
}

static inline int ru_dragonfly(sr_net *net, int p, int a, int h, int g, int arrangement) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_DRAGONFLY;
    d.dragonfly.p = p; d.dragonfly.a = a; d.dragonfly.h = h; d.dragonfly.g = g;
    d.dragonfly.arrangement = arrangement;
    return sr_net_init(net, &d) == SR_OK;
}

static inline int ru_clos(sr_net *net, int levels, const int *down, const int *up) {
    sr_net_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_CLOS;
    d.clos.levels = levels;
    for (i = 0; i < levels; i++) { d.clos.down[i] = down[i]; d.clos.up[i] = up[i]; }
    return sr_net_init(net, &d) == SR_OK;
}

static inline int ru_butterfly(sr_net *net, int k, int n) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_BUTTERFLY;
    d.butterfly.k = k; d.butterfly.n = n;
    return sr_net_init(net, &d) == SR_OK;
}

/* A routing; 0 on error. */
static inline int ru_routing(sr_routing *rt, const sr_net *net, int alg, int vcs, unsigned flags, int df_vc,
                             int escape) {
    sr_routing_desc d;
    memset(&d, 0, sizeof d);
    d.algorithm = alg; d.vcs = vcs; d.flags = flags; d.df_vc = df_vc; d.escape = escape;
    return sr_routing_init(rt, net, &d) == SR_OK;
}

/* Breadth-first hop distances between all routers over the network's
 * channels (sr_net_neighbor; a butterfly's channels go one way):
 * dist[a * R + b], -1 when b cannot be reached.  The caller frees it. */
static inline int *ru_bfs_all(const sr_net *net) {
    uint32_t R = net->num_routers, s, *q = (uint32_t *)malloc(R * sizeof(uint32_t));
    int *dist = (int *)malloc((size_t)R * R * sizeof(int));
    for (s = 0; s < R; s++) {
        int *d = dist + (size_t)s * R;
        uint32_t head = 0, tail = 0, i;
        for (i = 0; i < R; i++) d[i] = -1;
        d[s] = 0;
        q[tail++] = s;
        while (head < tail) {
            uint32_t u = q[head++];
            int p, np = sr_net_num_ports(net, u);
            for (p = 0; p < np; p++) {
                uint32_t v = sr_net_neighbor(net, u, p, NULL);
                if (v != SR_NO_NODE && d[v] < 0) { d[v] = d[u] + 1; q[tail++] = v; }
            }
        }
    }
    free(q);
    return dist;
}

/* Verify a routing with a scratch of the size the query gives. */
static inline sr_result ru_verify(const sr_routing *rt, int mode, sr_routing_report *rep) {
    size_t n = sr_verify_routing_scratch_size(rt, mode);
    void *s = malloc(n);
    sr_result r = sr_verify_routing(rt, mode, s, n, rep);
    free(s);
    return r;
}

#endif
