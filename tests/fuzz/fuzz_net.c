/* SPDX-License-Identifier: MIT */
/* fuzz_net.c - the network descriptions, metrics and formulas of
 * seastar_topo.h: sr_net_init, sr_net_check, sr_net_neighbor,
 * sr_net_port_info, sr_net_port_find, sr_net_num_ports, the terminal
 * functions, sr_net_router_coords, sr_df_global_target/first, sr_net_hops,
 * sr_net_compute_metrics, and the >>formulas functions.
 *
 * Oracles: the errors sr_net_init's doc comment lists, each applicable to
 * the description (computed here in 64-bit saturating arithmetic), and the
 * network untouched on error; on success, for networks of at most 64
 * routers, every channel leads back on the same ports (a butterfly's to an
 * input of the next stage), port_find inverts port_info, the terminals
 * round-trip, and the metrics and hops equal breadth-first search over
 * sr_net_neighbor (tests/net_oracle.h); a copy with one bit flipped fails
 * sr_net_check; any int as a port gives no crash; the formula functions
 * on random arguments give SR_OK or SR_ERR_DOMAIN / SR_ERR_NO_LINK and
 * never a crash or undefined behaviour. */
#include "fuzz.h"
#include "../net_oracle.h"

#define BIG (((uint64_t)1) << 62)

static uint64_t sat_mul(uint64_t a, uint64_t b) {
    if (a && b > BIG / a) return BIG;
    return a * b;
}

/* A size: usually small, sometimes an edge value. */
static int fz_size(fz *f, int lo, int hi) {
    uint8_t k = fz_u8(f);
    if (k < 200) return fz_range(f, lo, hi);
    return fz_any_int(f);
}

/* Bit mask of the errors applicable to d (bit e for sr_result e). */
static uint64_t applicable(const sr_net_desc *d) {
    uint64_t e = 0;
    int i;
#define ERR(c) (e |= (uint64_t)1 << (c))
    switch (d->kind) {
    case SR_NET_CUBE: {
        const sr_topology_desc *c = &d->cube;
        uint64_t n = 1;
        if (c->num_dims < 1 || c->num_dims > SR_MAX_DIMS) { ERR(SR_ERR_DIMS); break; }
        if (c->tie < 0 || c->tie > 2) ERR(SR_ERR_TIE);
        for (i = 0; i < c->num_dims; i++) {
            if (c->radix[i] < 2) ERR(SR_ERR_RADIX);
            else n = sat_mul(n, (uint64_t)c->radix[i]);
            if (c->dateline[i] < 0 || c->dateline[i] >= c->radix[i]) ERR(SR_ERR_DATELINE);
        }
        if (n > SR_NET_MAX_ROUTERS) ERR(SR_ERR_NET_SIZE);
        break;
    }
    case SR_NET_HYPERX: {
        const sr_hyperx_desc *x = &d->hyperx;
        int64_t t = x->terminals ? x->terminals : 1, ports;
        uint64_t n = 1;
        if (x->num_dims < 1 || x->num_dims > SR_MAX_DIMS) { ERR(SR_ERR_HX_SHAPE); break; }
        if (t < 1) ERR(SR_ERR_TERMINALS);
        if (t > SR_NET_MAX_PORTS) ERR(SR_ERR_PORT_LIMIT);
        ports = t;
        for (i = 0; i < x->num_dims; i++) {
            if (x->size[i] < 2) { ERR(SR_ERR_HX_SHAPE); continue; }
            ports += x->size[i] - 1;
            n = sat_mul(n, (uint64_t)x->size[i]);
        }
        if (ports > SR_NET_MAX_PORTS) ERR(SR_ERR_PORT_LIMIT);
        if (n > SR_NET_MAX_ROUTERS || (t >= 1 && sat_mul(n, (uint64_t)t) > SR_NET_MAX_ROUTERS)) ERR(SR_ERR_NET_SIZE);
        break;
    }
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &d->dragonfly;
        int64_t g = f->g;
        if (f->p < 1) ERR(SR_ERR_TERMINALS);
        if (f->a < 1 || f->h < 1) { ERR(SR_ERR_DF_SHAPE); break; }
        if (f->arrangement < 0 || f->arrangement > 1) ERR(SR_ERR_DF_ARRANGEMENT);
        if ((int64_t)f->p + f->a - 1 + f->h > SR_NET_MAX_PORTS) ERR(SR_ERR_PORT_LIMIT);
        if (g == 0 && (int64_t)f->a * f->h < (int64_t)SR_NET_MAX_ROUTERS) g = (int64_t)f->a * f->h + 1;
        if (g < 2 || g > (int64_t)f->a * f->h + 1 || ((int64_t)f->a * f->h) % (g - 1) != 0) ERR(SR_ERR_DF_GROUPS);
        else if (f->p >= 1 && sat_mul(sat_mul((uint64_t)f->a, (uint64_t)g), (uint64_t)f->p) > SR_NET_MAX_ROUTERS)
            ERR(SR_ERR_NET_SIZE);
        break;
    }
    case SR_NET_CLOS: {
        const sr_clos_desc *c = &d->clos;
        uint64_t terms = 1, routers = 0;
        int L = c->levels, l, j;
        if (L < 1 || L > SR_MAX_LEVELS) { ERR(SR_ERR_CLOS_LEVELS); break; }
        for (l = 0; l < L; l++) {
            if (c->down[l] < 1 || (l < L - 1 && c->up[l] < 1) || (l == L - 1 && c->up[l] != 0)) ERR(SR_ERR_CLOS_PORTS);
            else if ((int64_t)c->down[l] + c->up[l] > SR_NET_MAX_PORTS) ERR(SR_ERR_PORT_LIMIT);
            if (c->down[l] >= 1) terms = sat_mul(terms, (uint64_t)c->down[l]);
        }
        if (terms > SR_NET_MAX_ROUTERS) ERR(SR_ERR_NET_SIZE);
        if (e) break;
        terms = 1;
        for (l = 0; l < L; l++) {
            uint64_t lev = 1;
            terms = sat_mul(terms, (uint64_t)c->down[l]);
            for (j = l + 1; j < L; j++) lev = sat_mul(lev, (uint64_t)c->down[j]);
            for (j = 0; j < l; j++) lev = sat_mul(lev, (uint64_t)c->up[j]);
            routers += lev;
            if (routers > BIG) routers = BIG;
        }
        if (terms > SR_NET_MAX_ROUTERS || routers > SR_NET_MAX_ROUTERS) ERR(SR_ERR_NET_SIZE);
        break;
    }
    case SR_NET_BUTTERFLY: {
        const sr_butterfly_desc *b = &d->butterfly;
        uint64_t n = 1;
        if (b->k < 2 || b->n < 1 || b->n > SR_MAX_STAGES) { ERR(SR_ERR_FLY_SHAPE); break; }
        if (b->k > SR_NET_MAX_PORTS / 2) ERR(SR_ERR_PORT_LIMIT);
        for (i = 0; i < b->n; i++) n = sat_mul(n, (uint64_t)b->k);
        if (n > SR_NET_MAX_ROUTERS || sat_mul(n / (uint64_t)b->k, (uint64_t)b->n) > SR_NET_MAX_ROUTERS)
            ERR(SR_ERR_NET_SIZE);
        break;
    }
    default: ERR(SR_ERR_KIND);
    }
#undef ERR
    return e;
}

static sr_net_desc random_desc(fz *f) {
    sr_net_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = fz_u8(f) < 250 ? fz_range(f, 0, SR_NET_KIND_COUNT - 1) : fz_any_int(f);
    switch (d.kind) {
    case SR_NET_CUBE:
        d.cube.num_dims = fz_size(f, 1, 3);
        for (i = 0; i < SR_MAX_DIMS; i++) {
            d.cube.radix[i] = fz_size(f, 2, 5);
            d.cube.mesh[i] = fz_u8(f) & 1 ? fz_any_int(f) : 0;
            d.cube.dateline[i] = fz_u8(f) < 220 ? fz_range(f, 0, 1) : fz_any_int(f);
        }
        d.cube.tie = fz_u8(f) < 240 ? fz_range(f, 0, 2) : fz_any_int(f);
        break;
    case SR_NET_HYPERX:
        d.hyperx.num_dims = fz_size(f, 1, 3);
        d.hyperx.terminals = fz_size(f, 0, 3);
        for (i = 0; i < SR_MAX_DIMS; i++) d.hyperx.size[i] = fz_size(f, 2, 4);
        break;
    case SR_NET_DRAGONFLY:
        d.dragonfly.p = fz_size(f, 1, 3);
        d.dragonfly.a = fz_size(f, 1, 6);
        d.dragonfly.h = fz_size(f, 1, 4);
        d.dragonfly.g = fz_u8(f) < 60 ? 0 : fz_size(f, 2, 13);
        d.dragonfly.arrangement = fz_u8(f) < 240 ? fz_range(f, 0, 1) : fz_any_int(f);
        break;
    case SR_NET_CLOS:
        d.clos.levels = fz_size(f, 1, 4);
        for (i = 0; i < SR_MAX_LEVELS; i++) {
            d.clos.down[i] = fz_size(f, 1, 3);
            d.clos.up[i] = fz_size(f, 1, 3);
        }
        if (d.clos.levels >= 1 && d.clos.levels <= SR_MAX_LEVELS && fz_u8(f) < 240) d.clos.up[d.clos.levels - 1] = 0;
        break;
    case SR_NET_BUTTERFLY:
        d.butterfly.k = fz_size(f, 2, 4);
        d.butterfly.n = fz_size(f, 1, 4);
        break;
    default: break;
    }
    return d;
}

static void check_small(const sr_net *net, fz *f) {
    static int dist[NO_MAX_ROUTERS];
    uint32_t r, t;
    no_metrics_t b;
    sr_net_metrics m;
    for (r = 0; r < net->num_routers; r++) {
        int p, ports = sr_net_num_ports(net, r);
        FZ_CHECK(ports >= 1 && ports <= net->radix, "router %u: %d ports", r, ports);
        for (p = 0; p < ports; p++) {
            int in = -1, back = -1;
            uint32_t v = sr_net_neighbor(net, r, p, &in), w;
            sr_port_info pi = sr_net_port_info(net, r, p);
            int want = p;
            if (net->kind == SR_NET_BUTTERFLY && net->desc.butterfly.n == 1 && p >= net->desc.butterfly.k)
                want = p - net->desc.butterfly.k;
            FZ_CHECK(sr_net_port_find(net, r, pi.kind, pi.dim, pi.index) == want, "port_find of %u:%d", r, p);
            if (v == SR_NO_NODE) continue;
            FZ_CHECK(v < net->num_routers && in >= 0 && in < sr_net_num_ports(net, v), "%u:%d -> %u:%d", r, p, v, in);
            if (net->kind == SR_NET_BUTTERFLY) {
                FZ_CHECK(sr_net_port_info(net, v, in).kind == SR_PORT_UP, "butterfly input");
                continue;
            }
            w = sr_net_neighbor(net, v, in, &back);
            FZ_CHECK(w == r && back == p, "%u:%d -> %u:%d -> %u:%d", r, p, v, in, w, back);
        }
    }
    for (t = 0; t < net->num_terminals; t++) {
        int p = -1, q = -1;
        uint32_t a = sr_net_terminal_router(net, t, &p), e = sr_net_eject_router(net, t, &q);
        FZ_CHECK(sr_net_port_terminal(net, a, p) == t && sr_net_port_terminal(net, e, q) == t, "terminal %u", t);
    }
    FZ_CHECK(sr_net_compute_metrics(net, &m) == SR_OK, "metrics");
    if (net->num_terminals <= 256) {
        b = no_metrics(net);
        FZ_CHECK(b.unreachable == 0 && b.hop_sum == m.hop_sum && m.hop_sum_high == 0 && b.diameter == m.diameter &&
                 b.radix == m.radix && b.pairs == m.pairs, "metrics: sum %llu/%llu diameter %d/%d radix %d/%d",
                 (unsigned long long)m.hop_sum, (unsigned long long)b.hop_sum, m.diameter, b.diameter, m.radix,
                 b.radix);
    }
    for (t = 0; t < 8 && fz_more(f); t++) {
        uint32_t s = fz_u32(f) % net->num_terminals, u = fz_u32(f) % net->num_terminals;
        no_bfs(net, sr_net_terminal_router(net, s, NULL), net->kind == SR_NET_DRAGONFLY, dist);
        FZ_CHECK(sr_net_hops(net, s, u) == dist[sr_net_eject_router(net, u, NULL)], "hops %u -> %u", s, u);
    }
    if (net->num_routers <= 20 && net->kind != SR_NET_BUTTERFLY) {
        long best = no_min_cut(net);
        int exception = (net->kind == SR_NET_DRAGONFLY && net->desc.dragonfly.a < 2 * net->desc.dragonfly.h) ||
                        net->kind == SR_NET_CLOS;
        FZ_CHECK(best >= 0 && (exception ? (long)m.bisection >= best : (long)m.bisection == best),
                 "bisection %llu, minimum %ld", (unsigned long long)m.bisection, best);
    }
}

static void formulas(fz *f) {
    int n = fz_any_int(f), k = fz_any_int(f), a = fz_any_int(f), h = fz_any_int(f), g = fz_any_int(f), r = 0;
    int radix[SR_MAX_DIMS], i;
    uint64_t N = 0;
    uint32_t j = 0;
    double x = 0;
    sr_net_desc d;
    sr_result e;
    for (i = 0; i < SR_MAX_DIMS; i++) radix[i] = fz_any_int(f);
#define OKD(call) do { e = (call); FZ_CHECK(e == SR_OK || e == SR_ERR_DOMAIN, #call " gave %d", e); } while (0)
    OKD(sr_cube_nodes(n, radix, &N));
    OKD(sr_cube_router_radix(n, &r));
    OKD(sr_hypercube_router_radix(fz_u64(f), &r));
    OKD(sr_radix_latency(fz_double(f, 1), fz_double(f, 1), fz_double(f, 1), fz_double(f, 1), fz_double(f, 1), &x));
    OKD(sr_aspect_ratio(fz_double(f, 1), fz_double(f, 1), fz_double(f, 1), fz_double(f, 1), &x));
    OKD(sr_optimal_radix(fz_double(f, 1), &x));
    if (e == SR_OK) FZ_CHECK(x >= 1.0, "optimal radix %g", x);
    OKD(sr_fbfly_router_radix(k, n, &r));
    e = sr_fbfly_neighbor(k, n, fz_u32(f), a, h, &j);
    FZ_CHECK(e == SR_OK || e == SR_ERR_DOMAIN || e == SR_ERR_NO_LINK, "fbfly_neighbor gave %d", e);
    OKD(sr_fbfly_desc(k, n, &d));
    OKD(sr_hypercube_desc(n, &d));
    OKD(sr_df_size(a, h, g, &r, &i, &N));
    OKD(sr_df_group_channels(a, h, g, &r));
    OKD(sr_fbfly_max_size(k, n, &r, &N));
    OKD(sr_df_max_size(k, &r, &N));
    OKD(sr_fly_stages(k, fz_u64(f), &r));
#undef OKD
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sr_net_desc d;
    sr_net net, sentinel;
    sr_result r;
    uint64_t app;
    fz_init(&f, data, size);
    d = random_desc(&f);
    app = applicable(&d);
    memset(&net, 0x3C, sizeof net);
    sentinel = net;
    r = sr_net_init(&net, &d);
    if (app) {
        FZ_CHECK(r != SR_OK && r < 64 && ((app >> r) & 1), "kind %d: init gave %d (%s), applicable 0x%llx", d.kind, r,
                 sr_result_string(r), (unsigned long long)app);
        FZ_CHECK(!memcmp(&net, &sentinel, sizeof net), "a failed init wrote the network");
        formulas(&f);
        return 0;
    }
    FZ_CHECK(r == SR_OK, "kind %d: init gave %d (%s)", d.kind, r, sr_result_string(r));
    FZ_CHECK(sr_net_check(&net) == SR_OK, "check of a fresh network");
    {
        sr_net bad = net;
        size_t at = fz_u32(&f) % sizeof bad;
        ((unsigned char *)&bad)[at] ^= (unsigned char)(1u << (fz_u8(&f) & 7));
        FZ_CHECK(sr_net_check(&bad) == SR_ERR_STATE, "a flipped bit at byte %u passes sr_net_check", (unsigned)at);
    }
    {   /* any int as a port, on any router */
        uint32_t rt = fz_u32(&f) % net.num_routers;
        int port = fz_any_int(&f);
        sr_port_info pi = sr_net_port_info(&net, rt, port);
        uint32_t v = sr_net_neighbor(&net, rt, port, NULL);
        FZ_CHECK(v == SR_NO_NODE || v < net.num_routers, "neighbour %u", v);
        FZ_CHECK(pi.kind >= 0 && pi.kind < SR_PORT_KIND_COUNT, "kind %d", pi.kind);
        (void)sr_net_port_terminal(&net, rt, port);
        (void)sr_net_port_find(&net, rt, fz_any_int(&f), fz_any_int(&f), fz_any_int(&f));
    }
    {   /* metrics of any accepted network (they never fail) */
        sr_net_metrics m;
        FZ_CHECK(sr_net_compute_metrics(&net, &m) == SR_OK && m.terminals == net.num_terminals, "metrics");
        FZ_CHECK(m.pairs == (uint64_t)net.num_terminals * (net.num_terminals - 1), "pairs");
    }
    if (net.num_routers <= 64) check_small(&net, &f);
    formulas(&f);
    return 0;
}
