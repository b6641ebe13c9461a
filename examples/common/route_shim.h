/* SPDX-License-Identifier: MIT */
/* route_shim.h - TEMPORARY: the routing calls the input-queued router
 * makes, until seastar_route.h's candidate-set routing functions land
 * (issue 24).  To be replaced at integration by the library's calls; it
 * holds no routing logic of its own: dimension order on a k-ary n-cube is
 * the library's sr_route_dor, wrapped as one candidate.
 */
#ifndef ROUTE_SHIM_H
#define ROUTE_SHIM_H

#include "../../seastar_route.h"

/** Routing algorithms the shim knows. */
enum { NR_DOR = 0, NR_ALGORITHMS };

/** A routing over one network. */
typedef struct nr_routing {
    const sr_net *net;
    int algorithm;
    int vcs;
} nr_routing;

/** Name of an algorithm. */
static inline const char *nr_algorithm_name(int a) { return a == NR_DOR ? "dor" : "?"; }

/** VCs the algorithm needs on the network. */
static inline int nr_vcs_needed(const sr_net *net, int algorithm) {
    int d;
    (void)algorithm;
    if (net->kind != SR_NET_CUBE) return 0;
    for (d = 0; d < net->cube.num_dims; d++)
        if (!net->cube.mesh[d]) return 2;
    return 1;
}

/** Set up a routing; NULL or a message naming what is wrong. */
static inline const char *nr_routing_init(nr_routing *rt, const sr_net *net, int algorithm, int vcs) {
    if (algorithm != NR_DOR) return "unknown routing algorithm";
    if (net->kind != SR_NET_CUBE) return "dor (the shim) routes k-ary n-cubes only";
    if (vcs < nr_vcs_needed(net, algorithm)) return "too few VCs";
    rt->net = net;
    rt->algorithm = algorithm;
    rt->vcs = vcs;
    return NULL;
}

/** The header of a new packet from terminal src to terminal dst. */
static inline void nr_header_init(const nr_routing *rt, sr_header *h, uint32_t src, uint32_t dst) {
    (void)rt; (void)src;
    memset(h, 0, sizeof *h);
    h->dest = dst;
    h->inter = SR_NO_NODE;
    h->phase = SR_PHASE_MINIMAL;
}

/** The candidates of a packet at router on in_port, in_vc: their number. */
static inline int nr_candidates(const nr_routing *rt, uint32_t router, int in_port, int in_vc,
                                const sr_header *h, sr_candidate *out, int cap) {
    sr_route r = sr_route_dor(&rt->net->cube, router, in_port, h->dest, in_vc & 1);
    (void)cap;
    memset(out, 0, sizeof *out);
    out->port = (int16_t)r.port;
    out->vc_lo = out->vc_hi = (uint8_t)(r.port == rt->net->cube.proc_port ? 0 : r.vc);
    if (r.port == rt->net->cube.proc_port) out->vc_hi = (uint8_t)(rt->vcs - 1);
    out->cls = SR_CLASS_MINIMAL;
    return 1;
}

/** Update the header for the hop taken. */
static inline void nr_advance(const nr_routing *rt, sr_header *h, uint32_t router, int port, int vc) {
    (void)rt; (void)router; (void)port; (void)vc;
    if (h->hops < 255) h->hops++;
}

#endif /* ROUTE_SHIM_H */
