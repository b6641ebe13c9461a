/* SPDX-License-Identifier: MIT */
/* route_util.h - helpers shared by the routing tests (tests only). */
#ifndef ROUTE_UTIL_H
#define ROUTE_UTIL_H

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

#endif
