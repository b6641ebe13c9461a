/* SPDX-License-Identifier: MIT */
/* test_bgl_torus.c - BlueGene/L routing on small tori and meshes checked by
 * brute force against Duato's condition for virtual cut-through, as an
 * independent oracle for the library's verifier (sr_verify_routing on
 * sr_bgl_custom_routing), whose verdicts the tests compare with it.
 *
 * Every packet state reachable from any injection (node, input port, VC,
 * header) is enumerated by following every candidate sr_bgl_candidates
 * gives.  The escape channels (the bubble VC, the dateline pair, the
 * high-priority VC) with their dependencies form the escape sub-function's
 * channel dependency graph: an edge from the escape channel a packet
 * arrived on to each escape channel it may take next.  Under virtual
 * cut-through a packet waiting for a channel occupies only the buffer it
 * is in, so Duato's condition is: the escape sub-function is offered in
 * every state, it delivers every packet, and its dependency graph has no
 * cycle.  For a bubble VC the dependency between consecutive channels of
 * one ring, going straight, is left out: the bubble rule (model-checked on
 * one ring by tests/test_bgl_bubble.c) keeps such a ring moving, as a
 * dateline would.  The negative controls show that the check can fail:
 * the same graph with those ring dependencies kept, the dateline pair with
 * its upper VC read as the lower one, every channel treated as an escape
 * channel, and static packets routed xyz on a direction-ordered escape VC
 * each have a cycle. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

/* What to check, and how the dependency graph is drawn. */
enum { TG_PROOF = 0, TG_KEEP_RINGS = 1, TG_FOLD_DATELINE = 2, TG_ALL_CHANNELS = 3, TG_STATIC_XYZ = 4 };

typedef struct tg_result {
    int failures;            /* states without an escape, escapes that do not deliver, bad candidates */
    int cycle;               /* the dependency graph has a cycle */
    uint64_t states, edges;  /* reachable states, dependency edges */
} tg_result;

typedef struct tg_set { uint64_t *keys; size_t cap, n; } tg_set;

static int tg_add(tg_set *s, uint64_t k);

static void tg_grow(tg_set *s) {
    tg_set b;
    size_t i;
    b.cap = 2 * s->cap;
    b.n = 0;
    b.keys = (uint64_t *)calloc(b.cap, sizeof *b.keys);
    for (i = 0; i < s->cap; i++) if (s->keys[i]) tg_add(&b, s->keys[i] - 1);
    free(s->keys);
    *s = b;
}

static int tg_add(tg_set *s, uint64_t k) {
    size_t h;
    if (2 * (s->n + 1) > s->cap) tg_grow(s);
    h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (s->cap - 1);
    k += 1;   /* 0 marks an empty slot */
    while (s->keys[h]) {
        if (s->keys[h] == k) return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->keys[h] = k;
    s->n++;
    return 1;
}

static uint64_t tg_key(uint32_t node, int in_port, int in_vc, const sr_header *h) {
    return (uint64_t)node | (uint64_t)in_port << 16 | (uint64_t)in_vc << 21 | (uint64_t)h->hint << 25 |
           (uint64_t)h->vclass << 33 | (uint64_t)h->dest << 41;
}

typedef struct tg_state { uint32_t node; int in_port, in_vc; sr_header h; } tg_state;

/* The escape channels a packet takes from this state to its destination,
 * following the escape candidate only; 1 if it arrives within `limit` hops. */
static int tg_escape_delivers(const sr_topology *t, const sr_bgl_config *cfg, tg_state s, int limit) {
    int hops;
    for (hops = 0; hops <= limit; hops++) {
        sr_candidate c[SR_BGL_MAX_CANDIDATES];
        int n = sr_bgl_candidates(t, cfg, s.node, s.in_port, s.in_vc, &s.h, c, SR_BGL_MAX_CANDIDATES), i, e = -1;
        if (n < 1) return 0;
        if (s.node == s.h.dest) return n == 1 && c[0].port == t->proc_port;
        for (i = 0; i < n; i++) if (c[i].cls == SR_CLASS_ESCAPE) e = i;
        if (e < 0 || c[e].vc_lo != c[e].vc_hi) return 0;
        sr_bgl_header_advance(t, cfg, s.node, c[e].port, &s.h);
        s.node = sr_neighbor(t, s.node, c[e].port);
        if (s.node == SR_NO_NODE) return 0;
        s.in_port = c[e].port ^ 1;
        s.in_vc = c[e].vc_lo;
    }
    return 0;
}

/* Kahn's algorithm over an adjacency bit matrix of nc channels. */
static int tg_has_cycle(const uint8_t *adj, uint32_t nc) {
    uint32_t *indeg = (uint32_t *)calloc(nc, sizeof *indeg), *q = (uint32_t *)malloc(nc * sizeof *q);
    uint32_t a, b, head = 0, tail = 0;
    for (a = 0; a < nc; a++)
        for (b = 0; b < nc; b++)
            if ((adj[((size_t)a * nc + b) >> 3] >> ((a * nc + b) & 7)) & 1) indeg[b]++;
    for (a = 0; a < nc; a++) if (!indeg[a]) q[tail++] = a;
    while (head < tail) {
        a = q[head++];
        for (b = 0; b < nc; b++)
            if (((adj[((size_t)a * nc + b) >> 3] >> ((a * nc + b) & 7)) & 1) && --indeg[b] == 0) q[tail++] = b;
    }
    free(indeg);
    free(q);
    return tail != nc;
}

static tg_result tg_check(const sr_topology *t, const sr_bgl_config *cfg, int mode) {
    const int P = t->proc_port, nv = sr_bgl_num_vcs(cfg);
    const uint32_t N = t->num_nodes, nc = N * (uint32_t)P * (uint32_t)nv;
    uint8_t *adj = (uint8_t *)calloc(((size_t)nc * nc + 7) / 8, 1);
    size_t qcap = 1 << 16, qn = 0, qh = 0;
    tg_state *queue = (tg_state *)malloc(qcap * sizeof *queue);
    tg_set seen;
    tg_result r;
    uint32_t src, dst;
    int cls;
    memset(&r, 0, sizeof r);
    seen.cap = (size_t)1 << 16;
    seen.n = 0;
    seen.keys = (uint64_t *)calloc(seen.cap, sizeof *seen.keys);
    for (src = 0; src < N; src++)
        for (dst = 0; dst < N; dst++)
            for (cls = 0; cls < 3; cls++) {
                sr_bgl_cutoffs c;
                tg_state s;
                sr_bgl_cutoffs_minimal(t, src, &c);
                memset(&s, 0, sizeof s);
                sr_bgl_header_init(t, &c, src, dst, cls == 0 ? 0 : cls == 1 ? SR_BGL_CLASS_STATIC : SR_BGL_CLASS_PRIORITY, &s.h);
                s.node = src; s.in_port = P; s.in_vc = 0;
                if (tg_add(&seen, tg_key(s.node, s.in_port, s.in_vc, &s.h))) queue[qn++] = s;
                while (qh < qn) {
                    tg_state u = queue[qh++];
                    sr_candidate cand[SR_BGL_MAX_CANDIDATES];
                    int n = sr_bgl_candidates(t, cfg, u.node, u.in_port, u.in_vc, &u.h, cand, SR_BGL_MAX_CANDIDATES);
                    int i, vc, has_escape = 0;
                    r.states++;
                    if (n < 1) { r.failures++; continue; }
                    if (mode == TG_STATIC_XYZ && (u.h.vclass & SR_BGL_CLASS_STATIC) && u.node != u.h.dest)
                        cand[0].port = (int16_t)sr_bgl_escape_port(SR_BGL_ORDER_DIMENSION, u.h.hint);
                    if (u.node == u.h.dest) {
                        if (n != 1 || cand[0].port != P) r.failures++;
                        continue;
                    }
                    if (!tg_escape_delivers(t, cfg, u, 4 * (int)N)) r.failures++;
                    for (i = 0; i < n; i++) {
                        uint32_t v = sr_neighbor(t, u.node, cand[i].port);
                        if (cand[i].port < 0 || cand[i].port >= P || v == SR_NO_NODE || cand[i].vc_hi >= nv) {
                            r.failures++;
                            continue;
                        }
                        if (cand[i].cls == SR_CLASS_ESCAPE) has_escape = 1;
                        for (vc = cand[i].vc_lo; vc <= cand[i].vc_hi; vc++) {
                            tg_state w = u;
                            int in_escape = u.in_port != P && u.in_vc >= cfg->num_dynamic;
                            int to_escape = cand[i].cls == SR_CLASS_ESCAPE;
                            /* a dependency: the channel the packet is in, on the one it asks for */
                            if (u.in_port != P && ((in_escape && to_escape) || mode == TG_ALL_CHANNELS)) {
                                uint32_t from_node = sr_neighbor(t, u.node, u.in_port);
                                int from_vc = u.in_vc, to_vc = vc;
                                int straight = cand[i].port == (u.in_port ^ 1) && from_vc == to_vc;
                                int bubble = (cand[i].flags & SR_CAND_BUBBLE) != 0;
                                if (mode == TG_FOLD_DATELINE && cfg->escape == SR_BGL_ESCAPE_DATELINE) {
                                    if (from_vc == cfg->num_dynamic + 1) from_vc--;
                                    if (to_vc == cfg->num_dynamic + 1) to_vc--;
                                }
                                if (!(mode == TG_PROOF && bubble && straight)) {
                                    uint32_t a = ((from_node * (uint32_t)P) + (uint32_t)(u.in_port ^ 1)) * (uint32_t)nv + (uint32_t)from_vc;
                                    uint32_t b = ((u.node * (uint32_t)P) + (uint32_t)cand[i].port) * (uint32_t)nv + (uint32_t)to_vc;
                                    size_t bit = (size_t)a * nc + b;
                                    if (!((adj[bit >> 3] >> (bit & 7)) & 1)) { adj[bit >> 3] |= (uint8_t)(1u << (bit & 7)); r.edges++; }
                                }
                            }
                            sr_bgl_header_advance(t, cfg, u.node, cand[i].port, &w.h);
                            w.node = v; w.in_port = cand[i].port ^ 1; w.in_vc = vc;
                            if (tg_add(&seen, tg_key(w.node, w.in_port, w.in_vc, &w.h))) {
                                if (qn == qcap) {
                                    qcap *= 2;
                                    queue = (tg_state *)realloc(queue, qcap * sizeof *queue);
                                }
                                queue[qn++] = w;
                            }
                        }
                    }
                    if (!has_escape) r.failures++;
                }
                qn = qh = 0;
            }
    r.cycle = tg_has_cycle(adj, nc);
    free(adj);
    free(queue);
    free(seen.keys);
    return r;
}

typedef struct tshape { int n, k[3], mesh[3], dl[3]; } tshape;

/* The library's verifier on the same routing (below): 1 proven, 0 refuted. */
enum { TV_AS_IS = 0, TV_NO_BUBBLE, TV_FOLD_DATELINE, TV_STATIC_XYZ };
static int tv_verify(const sr_topology *t, const sr_bgl_config *cfg, int variant, int mode, int *failure);

static void tg_prove(st_ctx *st__ctx, const tshape *sh, int long_only) {
    int e, o, f[2] = { 0, 0 };
    sr_topology t;
    (void)long_only;
    ST_CHECK(rt_make(&t, sh->n, sh->k, sh->mesh, sh->dl));
    for (e = 0; e < 2; e++)
        for (o = 0; o < 2; o++) {
            sr_bgl_config cfg;
            tg_result r;
            sr_bgl_config_default(&cfg);
            cfg.escape = e ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
            cfg.escape_order = o ? SR_BGL_ORDER_DIRECTION : SR_BGL_ORDER_DIMENSION;
            r = tg_check(&t, &cfg, TG_PROOF);
            /* the verifier and the brute force agree */
            ST_EQ(1, tv_verify(&t, &cfg, TV_AS_IS, SR_SWITCH_VCT, f));
            ST_CHECKF(r.failures == 0 && !r.cycle, "%dx%dx%d %s %s: %d failures, cycle %d (%llu states, %llu edges)",
                      sh->k[0], sh->n > 1 ? sh->k[1] : 1, sh->n > 2 ? sh->k[2] : 1, e ? "dateline pair" : "bubble",
                      o ? "direction order" : "dimension order", r.failures, r.cycle, (unsigned long long)r.states,
                      (unsigned long long)r.edges);
            ST_CHECK(r.states > t.num_nodes && (t.num_nodes < 3 || r.edges > 0));
        }
}

/* Hint-bit dynamic routing with each escape architecture of seed 003 line
 * 93 (the bubble and the dateline pair, each dimension- and
 * direction-ordered) satisfies Duato's condition on these networks. */
ST_TEST(bgl_duato_small_tori) {
    static const tshape shapes[] = {
        { 2, { 4, 4 }, { 0, 0 }, { 0, 0 } },
        { 2, { 5, 4 }, { 0, 1 }, { 2, 0 } },
        { 2, { 3, 6 }, { 0, 0 }, { 1, 5 } },
        { 3, { 3, 2, 4 }, { 0, 0, 0 }, { 0, 1, 2 } },
    };
    int i;
    for (i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++) {
        tg_prove(st__ctx, &shapes[i], 0);
        if (st__ctx->failed) return;
    }
}

ST_TEST(bgl_duato_negative_controls) {
    int k[2] = { 5, 5 };
    sr_topology t;
    sr_bgl_config cfg;
    tg_result r;
    ST_CHECK(rt_make(&t, 2, k, NULL, NULL));   /* odd rings: two hops + from every node */
    sr_bgl_config_default(&cfg);
    /* the bubble's rings without the bubble rule: the ring is a cycle */
    r = tg_check(&t, &cfg, TG_KEEP_RINGS);
    ST_EQ(0, r.failures);
    ST_EQ(1, r.cycle);
    /* every channel as an escape: adaptive minimal routing alone has cycles */
    r = tg_check(&t, &cfg, TG_ALL_CHANNELS);
    ST_EQ(1, r.cycle);
    /* static packets xyz (x- before y+) with direction-ordered escape
     * packets (y+ before x-) on the one bubble VC */
    cfg.escape_order = SR_BGL_ORDER_DIRECTION;
    r = tg_check(&t, &cfg, TG_PROOF);
    ST_EQ(0, r.cycle);
    r = tg_check(&t, &cfg, TG_STATIC_XYZ);
    ST_EQ(1, r.cycle);
    cfg.escape_order = SR_BGL_ORDER_DIMENSION;
    /* the dateline pair with one VC where it needs two */
    cfg.escape = SR_BGL_ESCAPE_DATELINE;
    r = tg_check(&t, &cfg, TG_PROOF);
    ST_EQ(0, r.cycle);
    r = tg_check(&t, &cfg, TG_FOLD_DATELINE);
    ST_EQ(1, r.cycle);
}

/* ---- the library's verifier, against this oracle ----------------------- */

/* What a verifier run is asked to prove (TV_*): the library's routing as
 * it is, or one of the broken variants the negative controls above draw. */
typedef struct tv_ctx { sr_bgl_config cfg; int variant; sr_candidates_fn inner; } tv_ctx;

/* The library's candidates (sr_bgl_custom_routing's function), then the
 * variant's change. */
static sr_result tv_candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc, const sr_header *h,
                               sr_candidate *out, int cap, int *n) {
    const tv_ctx *x = (const tv_ctx *)rt->custom.ctx;   /* its first member is the configuration */
    sr_result r = x->inner(rt, router, in_port, in_vc, h, out, cap, n);
    int i;
    if (r != SR_OK) return r;
    for (i = 0; i < *n; i++) {
        if (x->variant == TV_NO_BUBBLE) out[i].flags = 0;
        if (x->variant == TV_FOLD_DATELINE && out[i].vc_lo == x->cfg.num_dynamic + 1) out[i].vc_lo = out[i].vc_hi = (uint8_t)x->cfg.num_dynamic;
        if (x->variant == TV_STATIC_XYZ && (h->vclass & SR_BGL_CLASS_STATIC) && out[i].port != rt->net.cube.proc_port)
            out[i].port = (int16_t)sr_bgl_escape_port(SR_BGL_ORDER_DIMENSION, h->hint);
    }
    return SR_OK;
}

/* sr_verify_routing on the BlueGene/L routing of a torus: 1 proven, 0
 * refuted (failure[0] the failure, failure[1] the VC of the cycle's first
 * channel), -1 set-up error. */
static int tv_verify(const sr_topology *t, const sr_bgl_config *cfg, int variant, int mode, int *failure) {
    sr_net_desc nd;
    sr_net net;
    sr_routing_desc rd;
    sr_routing rt;
    sr_custom_routing cr;
    sr_routing_report *rep = (sr_routing_report *)calloc(1, sizeof *rep);
    tv_ctx x;
    size_t sz;
    void *scratch;
    int ok = -1, i;
    memset(&nd, 0, sizeof nd);
    nd.kind = SR_NET_CUBE;
    nd.cube.num_dims = t->num_dims;
    nd.cube.tie = t->tie;
    for (i = 0; i < t->num_dims; i++) {
        nd.cube.radix[i] = t->radix[i];
        nd.cube.mesh[i] = t->mesh[i];
        nd.cube.dateline[i] = t->dateline[i];
    }
    x.cfg = *cfg;
    x.variant = variant;
    if (sr_net_init(&net, &nd) != SR_OK || sr_bgl_custom_routing(&x.cfg, t->num_dims, &cr) != SR_OK) { free(rep); return -1; }
    x.inner = cr.candidates;
    cr.candidates = tv_candidates;
    cr.ctx = &x;
    memset(&rd, 0, sizeof rd);
    rd.algorithm = SR_ALG_CUSTOM;
    rd.custom = &cr;
    if (sr_routing_init(&rt, &net, &rd) != SR_OK) { free(rep); return -1; }
    sz = sr_verify_routing_scratch_size(&rt, mode);
    scratch = malloc(sz);
    if (scratch && sr_verify_routing(&rt, mode, scratch, sz, rep) == SR_OK) {
        ok = rep->proven;
        failure[0] = rep->failure;
        failure[1] = rep->cycle_len > 0 ? rep->cycle[0].vc : -1;
    }
    free(scratch);
    free(rep);
    return ok;
}

/* The verifier refutes every negative control the brute force refutes
 * (bgl_duato_small_tori and bgl_duato_long compare the proofs). */
ST_TEST(bgl_verifier_negative_controls) {
    int f[2] = { 0, 0 };
    {
        int k[2] = { 5, 5 };
        sr_topology t;
        sr_bgl_config cfg;
        ST_CHECK(rt_make(&t, 2, k, NULL, NULL));
        sr_bgl_config_default(&cfg);
        /* the bubble rings without the rule */
        ST_EQ(1, tg_check(&t, &cfg, TG_KEEP_RINGS).cycle);
        ST_EQ(0, tv_verify(&t, &cfg, TV_NO_BUBBLE, SR_SWITCH_VCT, f));
        ST_EQ(SR_RFAIL_DEADLOCK, f[0]);
        /* the bubble needs room for whole packets: under wormhole the
         * verifier ignores the flag, and the rings are cycles */
        ST_EQ(0, tv_verify(&t, &cfg, TV_AS_IS, SR_SWITCH_WORMHOLE, f));
        ST_EQ(SR_RFAIL_DEADLOCK, f[0]);
        /* static xyz packets on a direction-ordered escape VC */
        cfg.escape_order = SR_BGL_ORDER_DIRECTION;
        ST_EQ(1, tg_check(&t, &cfg, TG_STATIC_XYZ).cycle);
        ST_EQ(0, tv_verify(&t, &cfg, TV_STATIC_XYZ, SR_SWITCH_VCT, f));
        ST_EQ(SR_RFAIL_DEADLOCK, f[0]);
        /* the dateline pair folded into one VC */
        cfg.escape_order = SR_BGL_ORDER_DIMENSION;
        cfg.escape = SR_BGL_ESCAPE_DATELINE;
        ST_EQ(1, tg_check(&t, &cfg, TG_FOLD_DATELINE).cycle);
        ST_EQ(0, tv_verify(&t, &cfg, TV_FOLD_DATELINE, SR_SWITCH_VCT, f));
        ST_EQ(SR_RFAIL_DEADLOCK, f[0]);
        /* under wormhole the dateline pair is refuted too, on the one
         * bubble it keeps: the high-priority VC's rings */
        ST_EQ(0, tv_verify(&t, &cfg, TV_AS_IS, SR_SWITCH_WORMHOLE, f));
        ST_EQ(SR_RFAIL_DEADLOCK, f[0]);
        ST_EQ(sr_bgl_priority_vc(&cfg), f[1]);
    }
}

/* Bad input of sr_bgl_custom_routing. */
ST_TEST(bgl_custom_routing_checks) {
    sr_bgl_config cfg;
    sr_custom_routing cr;
    sr_bgl_config_default(&cfg);
    ST_EQ(SR_ERR_NULL, sr_bgl_custom_routing(NULL, 3, &cr));
    ST_EQ(SR_ERR_NULL, sr_bgl_custom_routing(&cfg, 3, NULL));
    ST_EQ(SR_ERR_DIMS, sr_bgl_custom_routing(&cfg, 0, &cr));
    ST_EQ(SR_ERR_DIMS, sr_bgl_custom_routing(&cfg, SR_BGL_MAX_DIMS + 1, &cr));
    cfg.num_dynamic = 0;
    ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_custom_routing(&cfg, 3, &cr));
    sr_bgl_config_default(&cfg);
    ST_EQ(SR_OK, sr_bgl_custom_routing(&cfg, 3, &cr));
    ST_EQ(4, cr.vcs_needed);
    ST_EQ(1, cr.escape);
}

/* Larger networks (runner --long). */
ST_TEST(bgl_duato_long) {
    static const tshape shapes[] = {
        { 2, { 8, 8 }, { 0, 0 }, { 0, 0 } },
        { 2, { 7, 6 }, { 0, 0 }, { 3, 0 } },
        { 3, { 4, 4, 4 }, { 0, 0, 0 }, { 0, 0, 0 } },
        { 3, { 5, 4, 3 }, { 0, 1, 0 }, { 2, 0, 1 } },
        { 3, { 6, 6, 6 }, { 0, 0, 0 }, { 0, 3, 5 } },
    };
    int i;
    if (!ST_LONG) return;
    for (i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++) {
        tg_prove(st__ctx, &shapes[i], 1);
        if (st__ctx->failed) return;
    }
}
