/* SPDX-License-Identifier: MIT */
/* test_netsim_routing.c - every routing of seastar_route.h in the network
 * simulator (examples/common/net_core.h + iq_router.h), against the
 * verifier (sr_verify_routing).  A routing the verifier proves must run
 * beyond saturation -- offered 1 flit per terminal per cycle, accepting
 * at most two thirds of it, so at 150% of saturation or more -- without
 * a stall, with every packet accounted for, and give every credit back
 * when it drains.  A routing the verifier refutes must stall in the
 * simulator, and the stall check must say so.  Short runs here; ST_LONG
 * (make check-long) runs the proven ones for 10^6 cycles. */
#include "st_test.h"
#include "../examples/common/iq_router.h"

typedef struct tr_case {
    const char *name;
    int kind;             /* sr_net_kind */
    int a, b, c, d;       /* the description's numbers (see tr_net) */
    int algorithm;        /* sr_algorithm */
    int vcs;              /* VCs (below the need: SR_ROUTE_FEWER_VCS) */
    unsigned flags;       /* SR_ROUTE_* */
    int df_vc;            /* sr_df_vc */
    int ugal;             /* IQ_UGAL_* */
} tr_case;

static sr_net tr_net(const tr_case *k) {
    sr_net_desc d;
    sr_net n;
    int two[2], mesh[2], up[2];
    two[0] = k->a; two[1] = k->b;
    mesh[0] = mesh[1] = k->c;
    switch (k->kind) {
    case SR_NET_CUBE: sr_net_desc_cube(&d, 2, two, mesh); break;
    case SR_NET_HYPERX: sr_net_desc_hyperx(&d, 2, two, k->c); break;
    case SR_NET_DRAGONFLY: sr_net_desc_dragonfly(&d, k->a, k->b, k->c, 0, 0); break;
    case SR_NET_CLOS:
        two[1] = k->c;                        /* down ports of levels 0 and 1 */
        up[0] = k->b; up[1] = 0;
        sr_net_desc_clos(&d, 2, two, up);
        break;
    default: sr_net_desc_butterfly(&d, k->a, k->b); break;
    }
    if (sr_net_init(&n, &d) != SR_OK) sim_die("tr_net: bad description");
    return n;
}

/* The verifier's verdict (virtual cut-through): 1 proven, 0 refuted,
 * -1 when it could not run. */
static int tr_verdict(const sr_net *n, const iq_params *ip, int vcs) {
    sr_routing rt;
    sr_routing_desc d = ip->routing;
    sr_routing_report *rep = (sr_routing_report *)sim_calloc(1, sizeof *rep);
    size_t size;
    void *scratch;
    int v = -1;
    d.vcs = vcs;
    if (sr_routing_init(&rt, n, &d) == SR_OK) {
        size = sr_verify_routing_scratch_size(&rt, SR_SWITCH_VCT);
        scratch = sim_calloc(size, 1);
        if (sr_verify_routing(&rt, SR_SWITCH_VCT, scratch, size, rep) == SR_OK) v = rep->proven;
        free(scratch);
    }
    free(rep);
    return v;
}

/* Set up a case: small buffers (one largest packet per VC), short
 * channels, packets of 1 and 3 flits. */
static void tr_setup(const tr_case *k, nc_params *p, iq_params *ip, sim_traffic *t) {
    int kind;
    nc_params_default(p);
    p->vcs = k->vcs;
    p->max_packet_flits = 3;
    for (kind = 1; kind < SR_PORT_KIND_COUNT; kind++) { p->buf_flits[kind] = 3; p->latency[kind] = 1; }
    p->latency[SR_PORT_GLOBAL] = 3;
    iq_params_default(ip);
    ip->pipeline = 1;
    ip->routing.algorithm = k->algorithm;
    ip->routing.flags = k->flags;
    ip->routing.df_vc = k->df_vc;
    ip->ugal = k->ugal;
    sim_traffic_default(t);
    t->load = 1.0;
    t->sizes[0] = 1; t->sizes[1] = 3; t->num_sizes = 2;
    t->src_queue_max = 4;
}

/* Run case k for `cycles` cycles, checking for a stall every 500; the
 * stall limit is 400 cycles.  Returns 1 if it stalled, 0 if not, -1 on a
 * failed audit (with a message in *why); *accepted the share of the
 * offered load delivered; with drain, the network then drains and its
 * credits must all come home (else -1). */
static int tr_run(const tr_case *k, uint64_t cycles, int drain, double *accepted, const char **why) {
    sr_net topo = tr_net(k);
    nc_params p;
    iq_params ip;
    sim_traffic t;
    nc_net net;
    iq_model m;
    uint64_t c, offered;
    int stalled = 0;
    tr_setup(k, &p, &ip, &t);
    *why = nc_net_init(&net, &topo, &p, &t, 17);
    if (!*why) *why = iq_init(&m, &net, &ip, 17);
    if (*why) return -1;
    for (c = 0; c < cycles && !stalled; c += 500) {
        nc_run(&net, 500, NULL, NULL);
        if ((*why = nc_audit(&net)) != NULL) return -1;
        stalled = nc_stalled(&net, 400);
    }
    offered = net.created;
    *accepted = offered ? (double)net.delivered / (double)(net.terminals * (uint64_t)net.now) * 1.0 : 0;
    if (!stalled && drain) {
        net.inj_threshold = 0;
        for (c = 0; c < 200 && nc_in_flight(&net) > 0; c++) nc_run(&net, 100, NULL, NULL);
        if (nc_in_flight(&net) > 0) *why = "the network did not drain";
        else *why = iq_credits_home(&m, &net);
        if (*why) stalled = -1;
    }
    iq_free(&m);
    nc_net_free(&net);
    return stalled;
}

static const tr_case proven[] = {
    { "torus 4x4 dor", SR_NET_CUBE, 4, 4, 0, 0, SR_ALG_DOR, 2, 0, 0, 0 },
    { "torus 5x4 min-adaptive", SR_NET_CUBE, 5, 4, 0, 0, SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0 },
    { "mesh 4x3 min-adaptive", SR_NET_CUBE, 4, 3, 1, 0, SR_ALG_MIN_ADAPTIVE, 2, 0, 0, 0 },
    { "hyperx 3x4:2 dor", SR_NET_HYPERX, 3, 4, 2, 0, SR_ALG_DOR, 1, 0, 0, 0 },
    { "hyperx 3x4:2 min-adaptive", SR_NET_HYPERX, 3, 4, 2, 0, SR_ALG_MIN_ADAPTIVE, 2, 0, 0, 0 },
    { "hyperx 3x3:2 valiant", SR_NET_HYPERX, 3, 3, 2, 0, SR_ALG_VALIANT, 2, 0, 0, 0 },
    { "hyperx 3x3:2 ugal-l", SR_NET_HYPERX, 3, 3, 2, 0, SR_ALG_UGAL, 2, 0, 0, IQ_UGAL_LOCAL },
    { "dragonfly 2,4,2 minimal", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_MINIMAL, 2, 0, 0, 0 },
    { "dragonfly 2,4,2 valiant", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_VALIANT, 3, 0, 0, 0 },
    { "dragonfly 2,4,2 ugal-l", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_UGAL, 3, 0, 0, IQ_UGAL_LOCAL },
    { "dragonfly 2,4,2 ugal-g", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_UGAL, 3, 0, 0, IQ_UGAL_GLOBAL },
    { "dragonfly 2,4,2 par (local VCs)", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_PAR, 4, 0, SR_DF_VC_LOCAL, 0 },
    { "clos 2/3,4 updown", SR_NET_CLOS, 2, 3, 4, 0, SR_ALG_UPDOWN, 1, 0, 0, 0 },
    { "butterfly 2,3 dest-tag", SR_NET_BUTTERFLY, 2, 3, 0, 0, SR_ALG_DEST_TAG, 1, 0, 0, 0 },
};

/* Refuted routings that deadlock in the simulator within the short run:
 * the torus without dateline VCs, the dragonfly's Valiant on two VCs, and
 * Valiant through an intermediate router (not group) on three. */
static const tr_case refuted[] = {
    { "torus 6x4 dor without datelines", SR_NET_CUBE, 6, 4, 0, 0, SR_ALG_DOR, 1, SR_ROUTE_NO_DATELINES, 0, 0 },
    { "dragonfly 2,4,2 valiant on 2 VCs", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_VALIANT, 2, SR_ROUTE_FEWER_VCS, 0, 0 },
    { "dragonfly 2,4,2 valiant via a router, 3 VCs", SR_NET_DRAGONFLY, 2, 4, 2, 0, SR_ALG_VALIANT, 3,
      SR_ROUTE_INTER_ROUTER | SR_ROUTE_FEWER_VCS, SR_DF_VC_GLOBALS, 0 },
};

/* Case k: the verifier's verdict must be `proven`; a proven routing then
 * runs `cycles` cycles beyond saturation without a stall and drains, a
 * refuted one stalls within `cycles`. */
static void tr_check(st_ctx *st__ctx, const tr_case *k, int proven_, uint64_t cycles) {
    sr_net topo = tr_net(k);
    nc_params p;
    iq_params ip;
    sim_traffic t;
    double acc = 0;
    const char *why = NULL;
    int r;
    tr_setup(k, &p, &ip, &t);
    ST_CHECKF(tr_verdict(&topo, &ip, k->vcs) == proven_, "%s: the verifier %s it", k->name,
              proven_ ? "does not prove" : "does not refute");
    r = tr_run(k, cycles, proven_, &acc, &why);
    if (proven_) {
        ST_CHECKF(r == 0, "%s: %s", k->name, r > 0 ? "stalled (deadlock)" : why);
        ST_CHECKF(acc > 0.05 && acc <= 1.0 / 1.5, "%s: accepted %.3f of an offered 1.0", k->name, acc);
    } else
        ST_CHECKF(r == 1, "%s: no stall found in %llu cycles (%s)", k->name, (unsigned long long)cycles,
                  why ? why : "ran on");
}

ST_TEST(netsim_proven_routings_do_not_stall_beyond_saturation) {
    size_t i;
    for (i = 0; i < sizeof proven / sizeof proven[0]; i++) {
        tr_check(st__ctx, &proven[i], 1, ST_LONG ? 1000000 : 3000);
        if (st__ctx->failed) return;
    }
}

ST_TEST(netsim_refuted_routings_deadlock_and_are_reported) {
    size_t i;
    for (i = 0; i < sizeof refuted / sizeof refuted[0]; i++) {
        tr_check(st__ctx, &refuted[i], 0, 40000);
        if (st__ctx->failed) return;
    }
}
