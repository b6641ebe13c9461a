/* SPDX-License-Identifier: MIT */
/* route_util.h - helpers shared by the routing tests (tests only). */
#ifndef ROUTE_UTIL_H
#define ROUTE_UTIL_H

#include <stdlib.h>
#include <string.h>
#include "../seastar_route.h"

/* Build an n-dimensional topology: radices k, mesh flags and dateline
 * positions (NULL: all tori, datelines at 0), tie-break `tie` (an sr_tie).
 * Returns 1 on success. */
static inline int rt_make_tie(sr_topology *t, int n, const int *k, const int *mesh, const int *dl,
                              int tie) {
    sr_topology_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.num_dims = n;
    d.tie = tie;
    for (i = 0; i < n; i++) {
        d.radix[i] = k[i];
        d.mesh[i] = mesh ? mesh[i] : 0;
        d.dateline[i] = dl ? dl[i] : 0;
    }
    return sr_topology_init(t, &d) == SR_OK;
}

/* rt_make_tie with the default tie-break (SR_TIE_ALTERNATE). */
static inline int rt_make(sr_topology *t, int n, const int *k, const int *mesh, const int *dl) {
    return rt_make_tie(t, n, k, mesh, dl, SR_TIE_ALTERNATE);
}

/* Ordered pairs of distinct live nodes that the faults leave connected:
 * the live nodes joined by their usable links (union-find), then the
 * sizes of the sets. */
static inline uint32_t rt__root(uint32_t *up, uint32_t x) {
    while (up[x] != x) { up[x] = up[up[x]]; x = up[x]; }
    return x;
}
static inline uint64_t rt_connected_pairs(const sr_topology *t, const sr_faults *f) {
    uint32_t N = t->num_nodes, *up = (uint32_t *)malloc(N * 4), *size = (uint32_t *)calloc(N, 4), u;
    uint64_t total = 0;
    int p;
    for (u = 0; u < N; u++) up[u] = u;
    for (u = 0; u < N; u++)
        for (p = 0; p < t->proc_port; p++) {
            uint32_t v = sr_next_hop(t, f, u, p);
            if (v != SR_NO_NODE) up[rt__root(up, u)] = rt__root(up, v);
        }
    for (u = 0; u < N; u++) if (sr_node_ok(f, u)) size[rt__root(up, u)]++;
    for (u = 0; u < N; u++) total += (uint64_t)size[u] * (size[u] ? size[u] - 1 : 0);
    free(up);
    free(size);
    return total;
}

/* Whether a table generator's result means "tables written": SR_OK, or
 * the verdicts SR_ERR_DEADLOCK and SR_ERR_UNDELIVERED. */
static inline int rt_gen_written(int r) { return r == SR_OK || r == SR_ERR_DEADLOCK || r == SR_ERR_UNDELIVERED; }

/* The result a generator owes for tables that sr_verify judged as in v:
 * SR_ERR_DEADLOCK for a dependency cycle, SR_ERR_UNDELIVERED for another
 * failure or a connected pair not delivered, else SR_OK. */
static inline int rt_gen_verdict(const sr_verify_report *v, uint64_t connected) {
    if (!v->proven) return v->failure == SR_FAIL_DEADLOCK ? SR_ERR_DEADLOCK : SR_ERR_UNDELIVERED;
    return v->delivered < connected ? SR_ERR_UNDELIVERED : SR_OK;
}

#endif
