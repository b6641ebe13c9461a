/* SPDX-License-Identifier: MIT */
/* route_shim.h - TEMPORARY, to be deleted at integration: the part of
 * seastar_route.h's candidate-set routing API (issue 24: sr_routing_init,
 * sr_route_header_init, sr_route_candidates, sr_route_advance,
 * sr_route_select, ...) that the input-queued router calls, for a build
 * against a seastar_route.h that does not have it yet.  It compiles to
 * nothing when the library defines SR_ROUTE_MAX_VCS.  It holds no routing
 * of its own: it offers dimension order on a k-ary n-cube only, as the
 * library's sr_route_dor gives it, as one candidate.
 */
#ifndef ROUTE_SHIM_H
#define ROUTE_SHIM_H

#include "../../seastar_route.h"

#ifndef SR_ROUTE_MAX_VCS
#define SR_ROUTE_MAX_VCS 64
#define SR_ERR_VCS SR_ERR_BUFFER_SIZE
#define SR_ERR_ALGORITHM SR_ERR_KIND
typedef enum sr_algorithm { SR_ALG_DOR = 0, SR_ALG_MIN_ADAPTIVE, SR_ALG_MINIMAL, SR_ALG_VALIANT, SR_ALG_UGAL,
                            SR_ALG_PAR, SR_ALG_UPDOWN, SR_ALG_DEST_TAG, SR_ALG_CUSTOM, SR_ALG_COUNT } sr_algorithm;
#define SR_ROUTE_NO_DATELINES 1u
#define SR_ROUTE_FEWER_VCS 2u
#define SR_ROUTE_INTER_ROUTER 4u
typedef struct sr_routing_desc { int algorithm, vcs; unsigned flags; int df_vc, escape; const void *custom; } sr_routing_desc;
#define SR_ERR_OPTION SR_ERR_KIND
typedef struct sr_routing { sr_net net; sr_routing_desc desc; int vcs, levels; uint32_t inters; } sr_routing;

static inline const char *sr_algorithm_name(int alg) {
    static const char *const n[SR_ALG_COUNT] = { "dor", "min-adaptive", "minimal", "valiant", "ugal", "par",
                                                 "updown", "dest-tag", "custom" };
    return alg >= 0 && alg < SR_ALG_COUNT ? n[alg] : "?";
}

static inline int sr_routing_vcs_needed(const sr_net *net, const sr_routing_desc *d) {
    int k;
    if (d->algorithm != SR_ALG_DOR || net->kind != SR_NET_CUBE) return -1;
    for (k = 0; k < net->cube.num_dims; k++)
        if (!net->cube.mesh[k] && !(d->flags & SR_ROUTE_NO_DATELINES)) return 2;
    return 1;
}

static inline sr_result sr_routing_init(sr_routing *rt, const sr_net *net, const sr_routing_desc *d) {
    int need = sr_routing_vcs_needed(net, d);
    if (need < 0) return SR_ERR_ALGORITHM;
    if (d->vcs < need && !(d->flags & SR_ROUTE_FEWER_VCS)) return SR_ERR_VCS;
    memset(rt, 0, sizeof *rt);
    rt->net = *net;
    rt->desc = *d;
    rt->vcs = d->vcs ? d->vcs : need;
    rt->levels = need;
    return SR_OK;
}

static inline int sr_route_max_candidates(const sr_routing *rt) { (void)rt; return 1; }
static inline uint32_t sr_route_inter_count(const sr_routing *rt) { return rt->inters; }
static inline uint32_t sr_route_inter_pick(const sr_routing *rt, uint64_t random) { (void)rt; (void)random; return SR_NO_NODE; }

static inline sr_result sr_route_header_init(const sr_routing *rt, uint32_t src, uint32_t dest, uint32_t inter,
                                             sr_header *h) {
    (void)rt; (void)src; (void)inter;
    memset(h, 0, sizeof *h);
    h->dest = dest;
    h->inter = SR_NO_NODE;
    h->phase = SR_PHASE_MINIMAL;
    return SR_OK;
}

static inline sr_result sr_route_candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc,
                                            const sr_header *h, sr_candidate *out, int cap, int *n) {
    sr_route r = sr_route_dor(&rt->net.cube, router, in_port, h->dest,
                              rt->desc.flags & SR_ROUTE_NO_DATELINES ? 0 : in_vc & 1);
    int top = (rt->desc.flags & SR_ROUTE_NO_DATELINES) || rt->vcs < 2 ? 0 : 1;
    *n = 1;
    if (cap < 1) return SR_ERR_BUFFER_SIZE;
    memset(out, 0, sizeof *out);
    out->port = (int16_t)r.port;
    out->vc_lo = out->vc_hi = (uint8_t)(r.vc > top ? top : r.vc);
    if (r.port == rt->net.cube.proc_port) out->vc_lo = out->vc_hi = 0;
    out->cls = SR_CLASS_MINIMAL;
    return SR_OK;
}

static inline sr_result sr_route_advance(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc,
                                         sr_header *h) {
    (void)rt; (void)router; (void)c; (void)vc;
    if (h->hops < 255) h->hops++;
    return SR_OK;
}

static inline int sr_route_hops(const sr_routing *rt, uint32_t router, const sr_header *h, int cls) {
    (void)rt; (void)router; (void)h; (void)cls;
    return -1;
}

static inline int sr_ugal_minimal(uint32_t q_min, int h_min, uint32_t q_nonmin, int h_nonmin, int64_t bias) {
    return (int64_t)q_min * h_min <= (int64_t)q_nonmin * h_nonmin + bias;
}

static inline uint32_t sr_route_global_channel(const sr_routing *rt, uint32_t router, const sr_candidate *c,
                                               const sr_header *h) {
    (void)rt; (void)router; (void)c; (void)h;
    return SR_NO_NODE;
}

static inline int sr_route_select(const sr_candidate *c, int n, unsigned classes, const int32_t *credits, int vcs,
                                  uint64_t random, int *vc) {
    int i, v;
    (void)classes; (void)random;
    for (i = 0; i < n; i++)
        for (v = c[i].vc_lo; v <= c[i].vc_hi && v < vcs; v++)
            if (credits[(size_t)c[i].port * (size_t)vcs + (size_t)v] > 0) { *vc = v; return i; }
    return -1;
}
#endif /* SR_ROUTE_MAX_VCS */

#endif /* ROUTE_SHIM_H */
