/* SPDX-License-Identifier: MIT */
/* fuzz_routing.c - the candidate-set routing of seastar_route.h:
 * sr_routing_init, sr_routing_vcs_needed, sr_algorithm_name,
 * sr_route_max_candidates, sr_route_inter_count, sr_route_inter_pick,
 * sr_route_header_init, sr_route_candidates, sr_route_advance,
 * sr_route_hops, sr_ugal_minimal, sr_route_global_channel,
 * sr_route_select, sr_result_string, sr_rfailure_string,
 * sr_verify_routing_scratch_size, sr_verify_routing.
 *
 * Random small networks of every family, random algorithms, VC counts
 * and options, random headers (also states no routing produces: phases
 * past the last, intermediates and destinations out of range, counters
 * out of range) and random arguments.  Oracles: a call either returns an
 * error or gives candidates that name a port of the router with a channel
 * (or the destination's own terminal port at its router), a VC range
 * inside the routing's VCs, a known class, no more than
 * sr_route_max_candidates; minimal candidates of dimension order, minimal
 * adaptive routing, up/down and destination tags lead one hop closer by
 * breadth-first search over the built network; packets walked from their
 * injection header along random candidates reach their destination within
 * a bound; the selection returns a candidate that has a credit, or -1 when
 * none has; the verifier on tiny networks returns a verdict or
 * SR_ERR_BUFFER_SIZE for any scratch size, and refutes a built-in
 * algorithm only by a dependency cycle (they all deliver). */
#include "fuzz.h"
#include "../../seastar_route.h"

#define MAXR 64
#define CAP 64

static int dist[MAXR][MAXR];

static void bfs(const sr_net *net) {
    uint32_t s, q[MAXR];
    for (s = 0; s < net->num_routers; s++) {
        uint32_t head = 0, tail = 0, i;
        for (i = 0; i < net->num_routers; i++) dist[s][i] = -1;
        dist[s][s] = 0;
        q[tail++] = s;
        while (head < tail) {
            uint32_t u = q[head++];
            int p;
            for (p = 0; p < sr_net_num_ports(net, u); p++) {
                uint32_t v = sr_net_neighbor(net, u, p, NULL);
                if (v != SR_NO_NODE && dist[s][v] < 0) { dist[s][v] = dist[s][u] + 1; q[tail++] = v; }
            }
        }
    }
}

/* A random small network (0 if the description is refused). */
static int make_net(fz *f, sr_net *net) {
    sr_net_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = fz_range(f, 0, SR_NET_KIND_COUNT - 1);
    switch (d.kind) {
    case SR_NET_CUBE:
        d.cube.num_dims = fz_range(f, 1, 3);
        for (i = 0; i < d.cube.num_dims; i++) {
            d.cube.radix[i] = fz_range(f, 2, d.cube.num_dims == 1 ? 9 : d.cube.num_dims == 2 ? 5 : 3);
            d.cube.mesh[i] = fz_u8(f) & 1;
            d.cube.dateline[i] = fz_range(f, 0, d.cube.radix[i] - 1);
        }
        d.cube.tie = fz_range(f, 0, 2);
        break;
    case SR_NET_HYPERX:
        d.hyperx.num_dims = fz_range(f, 1, 3);
        for (i = 0; i < d.hyperx.num_dims; i++) d.hyperx.size[i] = fz_range(f, 2, d.hyperx.num_dims == 3 ? 3 : 4);
        d.hyperx.terminals = fz_range(f, 1, 3);
        break;
    case SR_NET_DRAGONFLY:
        d.dragonfly.p = fz_range(f, 1, 2); d.dragonfly.a = fz_range(f, 1, 4); d.dragonfly.h = fz_range(f, 1, 2);
        d.dragonfly.g = fz_range(f, 0, d.dragonfly.a * d.dragonfly.h + 1);
        d.dragonfly.arrangement = fz_range(f, 0, 1);
        break;
    case SR_NET_CLOS:
        d.clos.levels = fz_range(f, 1, 3);
        for (i = 0; i < d.clos.levels; i++) {
            d.clos.down[i] = fz_range(f, 1, 3);
            d.clos.up[i] = i == d.clos.levels - 1 ? 0 : fz_range(f, 1, 2);
        }
        break;
    default:
        d.butterfly.k = fz_range(f, 2, 3);
        d.butterfly.n = fz_range(f, 1, 3);
        break;
    }
    return sr_net_init(net, &d) == SR_OK && net->num_routers <= MAXR && net->num_terminals <= 4 * MAXR;
}

/* Check a candidate set for header h at router r; 1 if it ejects. */
static int check_set(const sr_routing *rt, uint32_t r, const sr_header *h, const sr_candidate *c, int n, int exact) {
    const sr_net *net = &rt->net;
    int i, ejects = 0, ep, np = sr_net_num_ports(net, r);
    uint32_t er = sr_net_eject_router(net, h->dest, &ep);
    FZ_CHECK(n >= 1 && n <= sr_route_max_candidates(rt), "%s: %d candidates (max %d)", sr_algorithm_name(rt->desc.algorithm),
             n, sr_route_max_candidates(rt));
    for (i = 0; i < n; i++) {
        sr_port_info pi;
        FZ_CHECK(c[i].port >= 0 && c[i].port < np, "port %d of %d", c[i].port, np);
        FZ_CHECK(c[i].vc_lo <= c[i].vc_hi && c[i].vc_hi < rt->vcs, "VCs %d..%d of %d", c[i].vc_lo, c[i].vc_hi, rt->vcs);
        FZ_CHECK(c[i].cls <= SR_CLASS_ESCAPE, "class %d", c[i].cls);
        pi = sr_net_port_info(net, r, c[i].port);
        if (pi.kind == SR_PORT_TERMINAL) {
            FZ_CHECK(r == er && c[i].port == ep, "ejects at r%u port %d, destination at r%u port %d", r, c[i].port, er, ep);
            ejects = 1;
        } else {
            uint32_t v = sr_net_neighbor(net, r, c[i].port, NULL);
            FZ_CHECK(v != SR_NO_NODE, "a candidate without a channel at r%u port %d", r, c[i].port);
            /* minimal routings: one hop closer (breadth-first) */
            if (exact && c[i].cls != SR_CLASS_NONMINIMAL)
                FZ_CHECK(dist[v][er] == dist[r][er] - 1, "%s: r%u port %d is not one hop closer to r%u",
                         sr_algorithm_name(rt->desc.algorithm), r, c[i].port, er);
        }
    }
    return ejects;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sr_net net;
    sr_routing rt;
    sr_routing_desc d;
    sr_result r;
    int need, w, exact;
    fz_init(&f, data, size);
    FZ_CHECK(sr_result_string((sr_result)fz_any_int(&f)) != NULL, "result string");
    FZ_CHECK(sr_rfailure_string(fz_any_int(&f)) != NULL && sr_algorithm_name(fz_any_int(&f)) != NULL, "names");
    {
        uint32_t qm = fz_u32(&f), qn = fz_u32(&f);
        int hm = fz_any_int(&f), hn = fz_any_int(&f);
        int64_t bias = (int64_t)fz_any_int(&f), m, nm;
        m = (int64_t)qm * (hm < 0 ? 0 : hm);
        nm = (int64_t)qn * (hn < 0 ? 0 : hn);
        FZ_CHECK(sr_ugal_minimal(qm, hm, qn, hn, bias) == (m <= nm + bias), "UGAL rule");
    }
    if (!make_net(&f, &net)) return 0;
    bfs(&net);
    memset(&d, 0, sizeof d);
    d.algorithm = fz_u8(&f) < 240 ? fz_range(&f, 0, SR_ALG_CUSTOM - 1) : fz_any_int(&f);
    d.flags = fz_u8(&f) < 200 ? (unsigned)fz_range(&f, 0, 7) : (unsigned)fz_any_int(&f);
    d.df_vc = fz_u8(&f) < 240 ? fz_range(&f, 0, 1) : fz_any_int(&f);
    d.escape = fz_u8(&f) < 240 ? fz_range(&f, 0, 2) : fz_any_int(&f);
    need = sr_routing_vcs_needed(&net, &d);
    d.vcs = fz_u8(&f) < 200 ? fz_range(&f, 0, 6) : fz_any_int(&f);
    r = sr_routing_init(&rt, &net, &d);
    if (r != SR_OK) {
        FZ_CHECK(r == SR_ERR_ALGORITHM || r == SR_ERR_OPTION || r == SR_ERR_VCS ||
                 (r == SR_ERR_NULL && d.algorithm == SR_ALG_CUSTOM), "init gave %d", r);
        if (r == SR_ERR_VCS) FZ_CHECK(need > 0 || need == SR_ROUTE_VCS_NONE, "SR_ERR_VCS for a routing that is not defined");
        return 0;
    }
    FZ_CHECK((need >= 1 && (rt.vcs >= need || (d.flags & SR_ROUTE_FEWER_VCS))) ||
             (need == SR_ROUTE_VCS_NONE && (d.flags & SR_ROUTE_FEWER_VCS)), "VCs %d, needed %d", rt.vcs, need);
    exact = d.algorithm == SR_ALG_DOR || d.algorithm == SR_ALG_MIN_ADAPTIVE || d.algorithm == SR_ALG_UPDOWN ||
            d.algorithm == SR_ALG_DEST_TAG;
    /* walks from injection headers */
    for (w = 0; w < 24; w++) {
        uint32_t src = fz_u32(&f) % net.num_terminals, dst = fz_u32(&f) % net.num_terminals, u;
        uint32_t inter = sr_route_inter_pick(&rt, fz_u64(&f));
        sr_header h;
        int hops = 0, in_port, in_vc = 0;
        if (rt.inters) FZ_CHECK(inter < rt.inters, "pick %u of %u", inter, rt.inters);
        else FZ_CHECK(inter == SR_NO_NODE, "pick without intermediates");
        r = sr_route_header_init(&rt, src, dst, inter, &h);
        FZ_CHECK(r == SR_OK, "header_init gave %d", r);
        u = sr_net_terminal_router(&net, src, &in_port);
        if (net.kind == SR_NET_BUTTERFLY && dist[u][sr_net_eject_router(&net, dst, NULL)] < 0) continue;
        for (;;) {
            sr_candidate c[CAP];
            int n, k, vc, ip;
            int32_t credits[SR_NET_MAX_PORTS * 2];
            r = sr_route_candidates(&rt, u, in_port, in_vc, &h, c, CAP, &n);
            FZ_CHECK(r == SR_OK, "%s on %s: candidates gave %s", sr_algorithm_name(d.algorithm), sr_net_kind_name(net.kind),
                     sr_result_string(r));
            if (check_set(&rt, u, &h, c, n, exact && h.phase == SR_PHASE_MINIMAL)) break;
            /* (a Valiant packet may pass its destination's router on the
             * way to the intermediate) */
            FZ_CHECK(sr_route_hops(&rt, u, &h, SR_CLASS_MINIMAL) >= (u != sr_net_eject_router(&net, dst, NULL)),
                     "hops to the destination");
            /* selection: credits on some (port, VC) */
            if (rt.vcs <= 2 && net.radix <= SR_NET_MAX_PORTS) {
                int i, vsel = -1, sel, any = 0;
                for (i = 0; i < net.radix * rt.vcs; i++) credits[i] = fz_u8(&f) < 128 ? 0 : fz_range(&f, -2, 9);
                for (i = 0; i < n; i++)
                    for (vc = c[i].vc_lo; vc <= c[i].vc_hi; vc++) any |= credits[c[i].port * rt.vcs + vc] > 0;
                sel = sr_route_select(c, n, 0, credits, rt.vcs, fz_u64(&f), &vsel);
                if (!any) FZ_CHECK(sel == -1, "select without credits gave %d", sel);
                else FZ_CHECK(sel >= 0 && sel < n && vsel >= c[sel].vc_lo && vsel <= c[sel].vc_hi &&
                              credits[c[sel].port * rt.vcs + vsel] > 0, "select gave %d", sel);
            }
            if (net.kind == SR_NET_DRAGONFLY) (void)sr_route_global_channel(&rt, u, &c[0], &h);
            k = (int)(fz_u32(&f) % (uint32_t)n);
            vc = c[k].vc_lo + (int)(fz_u32(&f) % (uint32_t)(c[k].vc_hi - c[k].vc_lo + 1));
            {
                sr_header g = h;
                FZ_CHECK(sr_route_advance(&rt, u, &c[k], c[k].vc_hi + 1, &g) == SR_ERR_VCS &&
                         sr_route_advance(&rt, u, &c[k], c[k].vc_lo - 1, &g) == SR_ERR_VCS,
                         "advance took a VC outside the candidate's range");
            }
            r = sr_route_advance(&rt, u, &c[k], vc, &h);
            FZ_CHECK(r == SR_OK, "advance gave %d", r);
            FZ_CHECK(h.dest == dst, "advance changed the destination");
            u = sr_net_neighbor(&net, u, c[k].port, &ip);
            in_port = ip;
            in_vc = vc;
            FZ_CHECK(++hops <= 4 * (int)net.num_routers + 8, "%s: no delivery after %d hops", sr_algorithm_name(d.algorithm),
                     hops);
        }
    }
    /* arbitrary headers and arguments: an error or a sound set, never an
     * out-of-range port */
    for (w = 0; w < 32; w++) {
        sr_header h;
        sr_candidate c[CAP], one;
        uint32_t u = fz_u8(&f) < 240 ? fz_u32(&f) % net.num_routers : fz_u32(&f);
        int in_port = fz_u8(&f) < 230 ? fz_range(&f, 0, net.radix - 1) : fz_any_int(&f);
        int in_vc = fz_u8(&f) < 230 ? fz_range(&f, 0, rt.vcs - 1) : fz_any_int(&f), n = -1, cap = fz_range(&f, 0, CAP);
        memset(&h, 0, sizeof h);
        h.dest = fz_u8(&f) < 220 ? fz_u32(&f) % net.num_terminals : fz_u32(&f);
        h.inter = fz_u8(&f) < 128 ? (rt.inters ? fz_u32(&f) % (rt.inters + 1) : SR_NO_NODE) : fz_u32(&f);
        h.phase = (uint8_t)(fz_u8(&f) < 200 ? fz_range(&f, 0, 3) : fz_u8(&f));
        h.globals = (uint8_t)(fz_u8(&f) < 200 ? fz_range(&f, 0, 2) : fz_u8(&f));
        h.vclass = fz_u8(&f) < 128 ? 0 : fz_u8(&f);
        h.hops = fz_u8(&f);
        r = sr_route_candidates(&rt, u, in_port, in_vc, &h, c, cap, &n);
        if (r == SR_OK) {
            check_set(&rt, u, &h, c, n, 0);
            FZ_CHECK(n <= cap, "%d candidates in %d", n, cap);
        } else if (r == SR_ERR_BUFFER_SIZE) {
            FZ_CHECK(n > cap && n <= sr_route_max_candidates(&rt), "buffer size with %d for %d", n, cap);
        } else {
            FZ_CHECK(r == SR_ERR_HEADER || r == SR_ERR_NODE_RANGE || r == SR_ERR_PORT_RANGE || r == SR_ERR_VCS,
                     "candidates gave %d", r);
        }
        memset(&one, 0, sizeof one);
        one.port = (int16_t)fz_range(&f, -2, net.radix + 1);
        one.vc_lo = fz_u8(&f); one.vc_hi = fz_u8(&f);
        one.cls = (uint8_t)fz_range(&f, 0, 3);
        if (u < net.num_routers) {
            sr_header g = h;
            r = sr_route_advance(&rt, u, &one, fz_range(&f, -1, rt.vcs), &g);
            (void)sr_route_hops(&rt, u, &h, fz_range(&f, 0, 3));
            (void)sr_route_global_channel(&rt, u, &one, &h);
        }
    }
    /* the verifier on tiny networks, any scratch size */
    if (net.num_terminals <= 12 && fz_u8(&f) < 64) {
        int mode = fz_range(&f, 0, 1);
        size_t need_s = sr_verify_routing_scratch_size(&rt, mode), give = fz_u8(&f) < 128 ? need_s : fz_u32(&f) % (need_s + 1);
        void *s = malloc(give ? give : 1);
        sr_routing_report *rep = (sr_routing_report *)malloc(sizeof *rep);
        r = sr_verify_routing(&rt, mode, s, give, rep);
        FZ_CHECK(r == SR_OK || (r == SR_ERR_BUFFER_SIZE && give < need_s), "verify gave %d with %zu of %zu bytes", r,
                 give, need_s);
        /* the built-in algorithms deliver: only a deadlock can refute them */
        if (r == SR_OK && !rep->proven)
            FZ_CHECK(rep->failure == SR_RFAIL_DEADLOCK && rep->cycle_len >= 1, "%s on %s refuted: %s",
                     sr_algorithm_name(d.algorithm), sr_net_kind_name(net.kind), sr_rfailure_string(rep->failure));
        free(s);
        free(rep);
    }
    return 0;
}
