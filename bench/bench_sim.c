/* SPDX-License-Identifier: MIT */
/* bench_sim.c - speed and memory of the SeaStar network simulator
 * (examples/common/seastar_net.h).  For each case it reports, for the
 * measured cycles after a warm-up:
 *
 *   - simulated router-cycles per second, of wall time and of CPU time (on
 *     a shared machine the CPU time is the fairer figure);
 *   - CPU nanoseconds per delivered packet-hop (a delivered packet of h hops
 *     counts h), the cost of moving traffic rather than of ticking routers;
 *   - offered and accepted load (flits per node per cycle) and whether the
 *     case is oversaturated: it accepts less than 95% of what it is
 *     offered, or the packets in flight (source queues included) grow
 *     during the measured cycles by more than 5% of those delivered; the
 *     figures then describe a network that is filling up, not a steady
 *     state;
 *   - peak memory.
 *
 * Every figure is measured in this run; nothing is compared with numbers
 * measured elsewhere (peer comparisons, with how and when they were made,
 * are in docs/simulator.rst).  CSV on stdout, progress on stderr.
 *
 * Load is offered flits per node per cycle.  Set BENCH_SIM_QUICK=1 in the
 * environment to skip the 32x32x32 run (about 1.6 GB and minutes of CPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bench.h"
#include "../examples/common/seastar_net.h"

typedef struct bcase {
    const char *name;
    int k[3];
    int flits;
    double load;
    uint64_t warmup, cycles;
    int repeats;
} bcase;

typedef struct bresult {
    double wall_s, cpu_s;       /* medians over the repeats */
    double accepted;            /* flits per node per cycle (last repeat) */
    double packet_hops;         /* delivered packets x their hops (last repeat) */
    uint64_t delivered;
    uint64_t in_flight_start, in_flight_end; /* packets generated, not delivered */
} bresult;

static void run_case(const bcase *c, sim_progress *pg, bresult *r) {
    double t[5], cpu[5];
    int rep;
    for (rep = 0; rep < c->repeats; rep++) {
        ss_params p;
        sim_traffic tr;
        ss_net net;
        ss_summary s;
        const char *err;
        double t0, c0;
        ss_params_default(&p, c->k[0], c->k[1], c->k[2]);
        p.age.age_clock_period = 8;
        ss_params_set_bias(&p, 3, 2, 1);
        sim_traffic_default(&tr);
        tr.load = c->load;
        tr.sizes[0] = c->flits;
        err = ss_net_init(&net, &p, &tr, 1 + (uint64_t)rep);
        if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
        ss_run(&net, c->warmup, pg, c->name);
        ss_stats_reset(&net);
        r->in_flight_start = ss_in_flight(&net);
        t0 = bench_now_ns();
        c0 = bench_cpu_ns();
        ss_run(&net, c->cycles, pg, c->name);
        t[rep] = (bench_now_ns() - t0) * 1e-9;
        cpu[rep] = (bench_cpu_ns() - c0) * 1e-9;
        err = ss_audit(&net);
        if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(3); }
        ss_summarize(&net, &s);
        r->accepted = s.accepted;
        r->packet_hops = (double)s.delivered * s.hops;
        r->delivered = s.delivered;
        r->in_flight_end = s.in_flight;
        ss_net_free(&net);
    }
    r->wall_s = bench_median(t, c->repeats);
    r->cpu_s = bench_median(cpu, c->repeats);
}

int main(void) {
    static const bcase cases[] = {
        { "8x8x8_9flit_load0.3", { 8, 8, 8 }, 9, 0.3, 2000, 20000, 3 },
        { "8x8x8_1flit_load0.2", { 8, 8, 8 }, 1, 0.2, 1000, 5000, 3 },
        { "8x8x8_1flit_load0.3", { 8, 8, 8 }, 1, 0.3, 1000, 5000, 3 },
        { "8x8_1flit_load0.2", { 8, 8, 1 }, 1, 0.2, 1000, 20000, 3 },
        { "32x32x32_9flit_load0.3", { 32, 32, 32 }, 9, 0.3, 0, 10000, 1 },
    };
    int i, n = (int)(sizeof cases / sizeof cases[0]);
    const char *quick = getenv("BENCH_SIM_QUICK");
    double total = 0;
    sim_progress pg;
    for (i = 0; i < n; i++)
        if (!(quick && quick[0] == '1' && cases[i].k[0] == 32))
            total += (double)cases[i].k[0] * cases[i].k[1] * cases[i].k[2] *
                     (double)(cases[i].warmup + cases[i].cycles) * cases[i].repeats;
    sim_progress_init(&pg, stderr, "bench_sim", "router-cycles", total);
    printf("case,routers,packet_flits,warmup,cycles,wall_s,router_cycles_per_s,cpu_s,router_cycles_per_cpu_s,"
           "delivered,packet_hops,cpu_ns_per_packet_hop,offered,accepted,in_flight_start,in_flight_end,oversaturated,"
           "peak_rss_mib\n");
    for (i = 0; i < n; i++) {
        const bcase *c = &cases[i];
        double routers = (double)c->k[0] * c->k[1] * c->k[2];
        bresult r;
        int over;
        if (quick && quick[0] == '1' && c->k[0] == 32) continue;
        fprintf(stderr, "bench_sim: %s\n", c->name);
        run_case(c, &pg, &r);
        over = r.accepted < 0.95 * c->load ||
               (double)r.in_flight_end - (double)r.in_flight_start > 0.05 * (double)r.delivered;
        printf("%s,%.0f,%d,%llu,%llu,%.3f,%.0f,%.3f,%.0f,%llu,%.0f,%.1f,%.3f,%.4f,%llu,%llu,%s,%.0f\n", c->name, routers,
               c->flits, (unsigned long long)c->warmup, (unsigned long long)c->cycles, r.wall_s,
               routers * (double)c->cycles / r.wall_s, r.cpu_s, routers * (double)c->cycles / r.cpu_s,
               (unsigned long long)r.delivered, r.packet_hops, r.packet_hops > 0 ? r.cpu_s * 1e9 / r.packet_hops : 0.0,
               c->load, r.accepted, (unsigned long long)r.in_flight_start, (unsigned long long)r.in_flight_end,
               over ? "yes" : "no", bench_peak_rss_mib());
        fflush(stdout);
    }
    sim_progress_end(&pg);
    return 0;
}
