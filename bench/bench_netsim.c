/* SPDX-License-Identifier: MIT */
/* bench_netsim.c - speed and memory of the network simulator for any
 * topology (examples/common/net_core.h with the input-queued router of
 * iq_router.h), with the SeaStar engine (examples/common/seastar_net.h) on
 * the same torus in the same run.  Cases (--case, default the first four),
 * each below saturation, uniform traffic, seed 1, the simulators' default
 * parameters unless said:
 *
 *   df1056   the 1,056-terminal dragonfly (p 4, a 8, h 4, g 33), UGAL-L,
 *            3 VCs, load 0.3;
 *   fbfly    a 16x16 flattened butterfly (HyperX 16x16, 16 terminals per
 *            router: 4,096 terminals, radix 46), minimal adaptive, load 0.3;
 *   torus    the 8x8x8 torus with the input-queued router, dimension
 *            order, 1-flit packets, load 0.2;
 *   seastar  the same torus, packets and load in the SeaStar engine;
 *   df64     the radix-64 dragonfly (p 16, a 32, h 16: 262,656 terminals),
 *            UGAL-L, 3 VCs, load 0.2, 1,000 measured cycles (not run by
 *            default: several minutes and several GB);
 *   bgl      the 8x8x8 torus with the BlueGene/L router (bgl_router.h,
 *            its defaults: 256-byte packets, 2 dynamic VCs and the bubble
 *            escape, JSQ and SLQ), load 0.2 flits of 4 bytes per node per
 *            cycle: about 21% link use, as the seastar case's 0.2 is about
 *            20% (not run by default; --case seastar,bgl gives both CPU
 *            costs per packet-hop in one run).
 *
 * For the measured cycles after the warm-up of each case: router-cycles
 * per second of CPU time, CPU nanoseconds per delivered packet-hop (a
 * packet of h router-to-router hops counts h), offered and accepted load,
 * packets in flight at the start and end, whether the case is
 * oversaturated (accepts under 95% of its offered load, or its packets in
 * flight grow by more than 5% of those it delivers), and the peak memory
 * of the process so far.  Every figure is measured in this run; the
 * benchmark prints no comparison with other simulators.  CSV on stdout,
 * progress on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "../examples/common/iq_router.h"
#include "../examples/common/bgl_router.h"
#include "../examples/common/seastar_net.h"
#include "../examples/common/cli.h"

enum { C_DF1056, C_FBFLY, C_TORUS, C_SEASTAR, C_DF64, C_BGL, C_COUNT };
static const char *const case_names[C_COUNT] = { "df1056", "fbfly", "torus", "seastar", "df64", "bgl" };

/* One measured case, whichever simulator runs it. */
typedef struct bn_result {
    uint64_t routers, terminals, warmup, cycles;
    double load, cpu_s, wall_s, accepted, packet_hops, rss_mib;
    uint64_t delivered, in_flight_start, in_flight_end;
} bn_result;

/* The timed part common to both simulators: run(ctx, cycles) twice, the
 * warm-up untimed. */
typedef struct bn_sim {
    void *ctx;
    void (*run)(void *ctx, uint64_t cycles, sim_progress *pg);
    void (*reset)(void *ctx);
    uint64_t (*in_flight)(void *ctx);
    void (*finish)(void *ctx, bn_result *r);   /* audit, summary, free */
} bn_sim;

/* The figures of a summary a case reports. */
static void bn_take(bn_result *r, const sim_summary *s) {
    r->accepted = s->accepted;
    r->delivered = s->delivered;
    r->packet_hops = (double)s->delivered * s->hops;
}

static void bn_measure(const bn_sim *s, bn_result *r, sim_progress *pg) {
    double t0, c0;
    s->run(s->ctx, r->warmup, pg);
    s->reset(s->ctx);
    r->in_flight_start = s->in_flight(s->ctx);
    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    s->run(s->ctx, r->cycles, pg);
    r->cpu_s = (bench_cpu_ns() - c0) * 1e-9;
    r->wall_s = (bench_now_ns() - t0) * 1e-9;
    r->rss_mib = bench_peak_rss_mib();
    s->finish(s->ctx, r);
}

/* ---- the network simulator core with the input-queued router ---- */

typedef struct bn_nc { nc_net net; iq_model m; } bn_nc;

static void nc_run_(void *ctx, uint64_t cycles, sim_progress *pg) { nc_run(&((bn_nc *)ctx)->net, cycles, pg, NULL); }
static void nc_reset_(void *ctx) { nc_stats_reset(&((bn_nc *)ctx)->net); }
static uint64_t nc_flight_(void *ctx) { return nc_in_flight(&((bn_nc *)ctx)->net); }
static void nc_finish_(void *ctx, bn_result *r) {
    bn_nc *b = (bn_nc *)ctx;
    sim_summary s;
    const char *err = nc_audit(&b->net);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(3); }
    nc_summarize(&b->net, &s, &r->in_flight_end);
    bn_take(r, &s);
    iq_free(&b->m);
    nc_net_free(&b->net);
}

/* --va: the VC allocator of the netsim cases (the switch allocator is
 * iSLIP-1, the default, in every case). */
static sa_switch_kind g_va = SA_SWITCH_ISLIP;

static void case_nc(int c, bn_result *r, sim_progress *pg) {
    sr_net_desc d;
    sr_net topo;
    nc_params p;
    iq_params ip;
    sim_traffic t;
    bn_nc b;
    bn_sim s = { NULL, nc_run_, nc_reset_, nc_flight_, nc_finish_ };
    const char *err;
    memset(&d, 0, sizeof d);
    nc_params_default(&p);
    iq_params_default(&ip);
    ip.va_kind = g_va;
    sim_traffic_default(&t);
    t.sizes[0] = 1;
    if (c == C_DF1056 || c == C_DF64) {
        d.kind = SR_NET_DRAGONFLY;
        d.dragonfly.p = c == C_DF64 ? 16 : 4;
        d.dragonfly.a = c == C_DF64 ? 32 : 8;
        d.dragonfly.h = c == C_DF64 ? 16 : 4;
        ip.routing.algorithm = SR_ALG_UGAL;
        p.vcs = 3;
        t.load = c == C_DF64 ? 0.2 : 0.3;
    } else if (c == C_FBFLY) {
        d.kind = SR_NET_HYPERX;
        d.hyperx.num_dims = 2;
        d.hyperx.size[0] = d.hyperx.size[1] = 16;
        d.hyperx.terminals = 16;
        ip.routing.algorithm = SR_ALG_MIN_ADAPTIVE;
        p.vcs = 2;
        t.load = 0.3;
    } else {
        d.kind = SR_NET_CUBE;
        d.cube.num_dims = 3;
        d.cube.radix[0] = d.cube.radix[1] = d.cube.radix[2] = 8;
        ip.routing.algorithm = SR_ALG_DOR;
        p.vcs = 2;
        t.load = 0.2;
    }
    if (sr_net_init(&topo, &d) != SR_OK) { fprintf(stderr, "bench_netsim: bad network\n"); exit(1); }
    p.max_packet_flits = 1;
    p.wake_ahead = iq_wake_ahead(&ip, p.max_packet_flits);   /* as netsim does */
    err = nc_net_init(&b.net, &topo, &p, &t, 1);
    if (!err) err = iq_init(&b.m, &b.net, &ip, 1);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(1); }
    r->routers = topo.num_routers;
    r->terminals = topo.num_terminals;
    r->load = t.load;
    s.ctx = &b;
    bn_measure(&s, r, pg);
}

/* ---- the network simulator core with the BlueGene/L router ---- */

typedef struct bn_bgl { nc_net net; bgl_model m; } bn_bgl;

static void bgl_run_(void *ctx, uint64_t cycles, sim_progress *pg) { nc_run(&((bn_bgl *)ctx)->net, cycles, pg, NULL); }
static void bgl_reset_(void *ctx) { nc_stats_reset(&((bn_bgl *)ctx)->net); }
static uint64_t bgl_flight_(void *ctx) { return nc_in_flight(&((bn_bgl *)ctx)->net); }
static void bgl_finish_(void *ctx, bn_result *r) {
    bn_bgl *b = (bn_bgl *)ctx;
    sim_summary s;
    const char *err = nc_audit(&b->net);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(3); }
    nc_summarize(&b->net, &s, &r->in_flight_end);
    bn_take(r, &s);
    bgl_free(&b->m);
    nc_net_free(&b->net);
}

static void case_bgl(bn_result *r, sim_progress *pg) {
    sr_net_desc d;
    sr_net topo;
    nc_params p;
    bgl_params bp;
    sim_traffic t;
    bn_bgl b;
    bn_sim s = { NULL, bgl_run_, bgl_reset_, bgl_flight_, bgl_finish_ };
    const char *err;
    memset(&d, 0, sizeof d);
    d.kind = SR_NET_CUBE;
    d.cube.num_dims = 3;
    d.cube.radix[0] = d.cube.radix[1] = d.cube.radix[2] = 8;
    if (sr_net_init(&topo, &d) != SR_OK) { fprintf(stderr, "bench_netsim: bad network\n"); exit(1); }
    bgl_params_default(&bp);
    bgl_nc_params(&p, &bp, 0);
    sim_traffic_default(&t);
    t.sizes[0] = SR_BGL_MAX_PACKET_BYTES / BGL_FLIT_BYTES;
    t.load = 0.2;
    err = nc_net_init(&b.net, &topo, &p, &t, 1);
    if (!err) err = bgl_init(&b.m, &b.net, &bp, 1);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(1); }
    r->routers = r->terminals = 512;
    r->load = t.load;
    s.ctx = &b;
    bn_measure(&s, r, pg);
}

/* ---- the SeaStar engine ---- */

static void ss_run_(void *ctx, uint64_t cycles, sim_progress *pg) { ss_run((ss_net *)ctx, cycles, pg, NULL); }
static void ss_reset_(void *ctx) { ss_stats_reset((ss_net *)ctx); }
static uint64_t ss_flight_(void *ctx) { return ss_in_flight((ss_net *)ctx); }
static void ss_finish_(void *ctx, bn_result *r) {
    ss_net *net = (ss_net *)ctx;
    ss_summary s;
    const char *err = ss_audit(net);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(3); }
    ss_summarize(net, &s);
    bn_take(r, &s.w);
    r->in_flight_end = s.in_flight;
    ss_net_free(net);
}

static void case_seastar(bn_result *r, sim_progress *pg) {
    ss_params p;
    sim_traffic t;
    ss_net net;
    bn_sim s = { NULL, ss_run_, ss_reset_, ss_flight_, ss_finish_ };
    const char *err;
    ss_params_default(&p, 8, 8, 8);
    sim_traffic_default(&t);
    t.sizes[0] = 1;
    t.load = 0.2;
    err = ss_net_init(&net, &p, &t, 1);
    if (err) { fprintf(stderr, "bench_netsim: %s\n", err); exit(1); }
    r->routers = r->terminals = 512;
    r->load = t.load;
    s.ctx = &net;
    bn_measure(&s, r, pg);
}

static const cli_opt options[] = {
    { "--case", NULL, "NAME,...", CLI_TEXT, 0, 0, 0, 0, "1 to 6 of df1056, fbfly, torus, seastar, df64, bgl",
      "df1056,fbfly,torus,seastar", "the cases to run, in order" },
    { "--va", NULL, "ALLOC", CLI_CHOICE, 0, 0, 0, 0, "islip|sep-input|wfa", "islip",
      "the VC allocator of the input-queued router (switch allocation: iSLIP-1)" },
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000, 0, 0, NULL, "1000 (df64: 500)", "cycles before measuring" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000, 0, 0, NULL, "10000 (torus, seastar), 50000 (bgl), 3000 (df1056, fbfly), 1000 (df64)",
      "measured cycles" },
};

static const char *const usage_text =
"usage: bench_netsim [options]\n"
"\n"
"Speed and memory of the network simulator (input-queued routers) on a\n"
"dragonfly, a flattened butterfly and a torus, and of the SeaStar engine on\n"
"the same torus, as CSV; --case bgl: the BlueGene/L router on that torus.\n";

int main(int argc, char **argv) {
    int cases[C_COUNT], n = 0, i, k;
    uint64_t warmup = 0, cycles = 0;
    int have_warmup = 0, have_cycles = 0;
    sim_progress pg;
    double total = 0;
    cli c;
    cases[n++] = C_DF1056; cases[n++] = C_FBFLY; cases[n++] = C_TORUS; cases[n++] = C_SEASTAR;
    cli_init(&c, "bench_netsim", usage_text, NULL, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--case")) {
            const char *v = c.val;
            n = 0;
            while (*v) {
                const char *e = strchr(v, ',');
                size_t l = e ? (size_t)(e - v) : strlen(v);
                for (k = 0; k < C_COUNT; k++)
                    if (strlen(case_names[k]) == l && !strncmp(v, case_names[k], l)) break;
                if (k == C_COUNT || n == C_COUNT) cli_bad_value(&c, "--case", c.val, "not a list of case names");
                cases[n++] = k;
                v = e ? e + 1 : v + l;
                if (e && !*v) cli_bad_value(&c, "--case", c.val, "an empty item");
            }
            if (n == 0) cli_bad_value(&c, "--case", c.val, "no case");
        }
        else if (cli_is(&c, "--va")) {
            static const sa_switch_kind k3[3] = { SA_SWITCH_ISLIP, SA_SWITCH_SEP_INPUT, SA_SWITCH_WFA };
            g_va = k3[cli_choice(&c)];
        }
        else if (cli_is(&c, "--warmup")) { warmup = cli_uint(&c); have_warmup = 1; }
        else if (cli_is(&c, "--cycles")) { cycles = cli_uint(&c); have_cycles = 1; }
        else cli_unhandled(&c);
    }
    for (i = 0; i < n; i++) {
        int cs = cases[i];
        double routers = cs == C_DF1056 ? 264 : cs == C_FBFLY ? 256 : cs == C_DF64 ? 16416 : 512;
        uint64_t wu = have_warmup ? warmup : cs == C_DF64 ? 500 : 1000;
        uint64_t cy = have_cycles ? cycles : cs == C_DF64 ? 1000 : cs == C_BGL ? 50000 : cs == C_TORUS || cs == C_SEASTAR ? 10000 : 3000;
        total += routers * (double)(wu + cy);
    }
    sim_progress_init(&pg, stderr, "bench_netsim", "router-cycles", total);
    printf("case,simulator,va,routers,terminals,load,warmup,cycles,wall_s,cpu_s,router_cycles_per_cpu_s,delivered,"
           "packet_hops,cpu_ns_per_packet_hop,accepted,in_flight_start,in_flight_end,oversaturated,peak_rss_mib\n");
    for (i = 0; i < n; i++) {
        int cs = cases[i], over;
        bn_result r;
        memset(&r, 0, sizeof r);
        r.warmup = have_warmup ? warmup : cs == C_DF64 ? 500 : 1000;
        r.cycles = have_cycles ? cycles : cs == C_DF64 ? 1000 : cs == C_BGL ? 50000 : cs == C_TORUS || cs == C_SEASTAR ? 10000 : 3000;
        fprintf(stderr, "bench_netsim: %s\n", case_names[cs]);
        if (cs == C_SEASTAR) case_seastar(&r, &pg);
        else if (cs == C_BGL) case_bgl(&r, &pg);
        else case_nc(cs, &r, &pg);
        over = r.accepted < 0.95 * r.load ||
               (double)r.in_flight_end - (double)r.in_flight_start > 0.05 * (double)r.delivered;
        printf("%s,%s,%s,%llu,%llu,%.2f,%llu,%llu,%.3f,%.3f,%.0f,%llu,%.0f,%.1f,%.4f,%llu,%llu,%s,%.0f\n",
               case_names[cs], cs == C_SEASTAR ? "seastar_net" : cs == C_BGL ? "net_core+bgl_router" : "net_core+iq_router",
               cs == C_SEASTAR || cs == C_BGL ? "" : sa_switch_kind_name(g_va),
               (unsigned long long)r.routers, (unsigned long long)r.terminals, r.load,
               (unsigned long long)r.warmup, (unsigned long long)r.cycles, r.wall_s, r.cpu_s,
               (double)r.routers * (double)r.cycles / r.cpu_s, (unsigned long long)r.delivered, r.packet_hops,
               r.packet_hops > 0 ? r.cpu_s * 1e9 / r.packet_hops : 0.0, r.accepted,
               (unsigned long long)r.in_flight_start, (unsigned long long)r.in_flight_end, over ? "yes" : "no",
               r.rss_mib);
        fflush(stdout);
    }
    sim_progress_end(&pg);
    return 0;
}
