/* SPDX-License-Identifier: MIT */
/* bench_sim.c - speed and memory of the SeaStar network simulator
 * (examples/common/seastar_net.h) as the network grows.  For each cube
 * radix k of --radix (default 8, 16 and 32: 512, 4,096 and 32,768 routers)
 * it runs two uniform-traffic cases below saturation, with the simulator's
 * default SeaStar parameters (the parameters seastar_sim runs without
 * options) and seed 1:
 *
 *   - 1-flit packets at load 0.2 flits per node per cycle;
 *   - 9-flit packets at load 0.1.
 *
 * For the measured cycles after the warm-up of each case it reports:
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
 *   - the peak memory of the process so far (the largest case run yet).
 *
 * Every run is sequential (the ranks column is 1).  Every figure is
 * measured in this run.  CSV on stdout, progress on stderr.  Set
 * BENCH_SIM_QUICK=1 in the environment to skip radices above 16.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "../examples/common/seastar_net.h"
#include "../examples/common/cli.h"

typedef struct bcase {
    int k;
    int flits;
    double load;
    uint64_t warmup, cycles;
} bcase;

typedef struct bresult {
    double wall_s, cpu_s;
    double accepted;            /* flits per node per cycle */
    double packet_hops;         /* delivered packets x their hops */
    uint64_t delivered;
    uint64_t in_flight_start, in_flight_end; /* packets generated, not delivered */
} bresult;

static const cli_opt options[] = {
    { "--radix", NULL, "K,K,...", CLI_INT, 2, 32, 0, 0, "1 to 8 radices 2 to 32, separated by commas", "8,16,32",
      "run the KxKxK torus of each" },
    { "--flits", NULL, "N", CLI_CHOICE, 0, 0, 0, 0, "1|9|both", "both",
      "1-flit packets at load 0.2, 9-flit packets at load 0.1, or both" },
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000, 0, 0, NULL, "1000 (k<=16), 1500 (k>16)",
      "cycles before measuring" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000, 0, 0, NULL, "10000 (k<=8), 2000 (k<=16), 300",
      "measured cycles" },
};

static const char *const usage_text =
"usage: bench_sim [options]\n"
"\n"
"Speed and memory of the SeaStar network model on KxKxK tori, as CSV.\n";

static void run_case(const bcase *c, sim_progress *pg, const char *name, bresult *r) {
    ss_params p;
    sim_traffic tr;
    ss_net net;
    ss_summary s;
    const char *err;
    double t0, c0;
    ss_params_default(&p, c->k, c->k, c->k);
    sim_traffic_default(&tr);
    tr.load = c->load;
    tr.sizes[0] = c->flits;
    tr.num_sizes = 1;
    err = ss_net_init(&net, &p, &tr, 1);
    if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    ss_run(&net, c->warmup, pg, name);
    ss_stats_reset(&net);
    r->in_flight_start = ss_in_flight(&net);
    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    ss_run(&net, c->cycles, pg, name);
    r->wall_s = (bench_now_ns() - t0) * 1e-9;
    r->cpu_s = (bench_cpu_ns() - c0) * 1e-9;
    err = ss_audit(&net);
    if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(3); }
    ss_summarize(&net, &s);
    r->accepted = s.accepted;
    r->packet_hops = (double)s.delivered * s.hops;
    r->delivered = s.delivered;
    r->in_flight_end = s.in_flight;
    ss_net_free(&net);
}

int main(int argc, char **argv) {
    uint64_t radix[8] = { 8, 16, 32 }, warmup = 0, cycles = 0;
    int num_radix = 3, flits = 2, have_warmup = 0, have_cycles = 0, i, j, n = 0;
    bcase cases[16];
    const char *quick = getenv("BENCH_SIM_QUICK");
    double total = 0;
    sim_progress pg;
    cli c;
    cli_init(&c, "bench_sim", usage_text, NULL, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--radix")) num_radix = cli_uint_list(&c, ',', 1, 8, radix);
        else if (cli_is(&c, "--flits")) flits = cli_choice(&c);
        else if (cli_is(&c, "--warmup")) { warmup = cli_uint(&c); have_warmup = 1; }
        else if (cli_is(&c, "--cycles")) { cycles = cli_uint(&c); have_cycles = 1; }
        else cli_unhandled(&c);
    }
    for (i = 0; i < num_radix; i++) {
        int k = (int)radix[i];
        if (quick && quick[0] == '1' && k > 16) continue;
        for (j = 0; j < 2; j++) {
            bcase *b = &cases[n];
            if (flits != 2 && flits != j) continue;
            b->k = k;
            b->flits = j == 0 ? 1 : 9;
            b->load = j == 0 ? 0.2 : 0.1;
            b->warmup = have_warmup ? warmup : k <= 16 ? 1000 : 1500;
            b->cycles = have_cycles ? cycles : k <= 8 ? 10000 : k <= 16 ? 2000 : 300;
            total += (double)k * k * k * (double)(b->warmup + b->cycles);
            n++;
        }
    }
    sim_progress_init(&pg, stderr, "bench_sim", "router-cycles", total);
    printf("case,routers,ranks,packet_flits,warmup,cycles,wall_s,router_cycles_per_s,cpu_s,router_cycles_per_cpu_s,"
           "delivered,packet_hops,cpu_ns_per_packet_hop,offered,accepted,in_flight_start,in_flight_end,"
           "oversaturated,peak_rss_mib\n");
    for (i = 0; i < n; i++) {
        const bcase *b = &cases[i];
        double routers = (double)b->k * b->k * b->k;
        char name[64];
        bresult r;
        int over;
        snprintf(name, sizeof name, "%dx%dx%d_%dflit_load%.1f", b->k, b->k, b->k, b->flits, b->load);
        fprintf(stderr, "bench_sim: %s\n", name);
        run_case(b, &pg, name, &r);
        over = r.accepted < 0.95 * b->load ||
               (double)r.in_flight_end - (double)r.in_flight_start > 0.05 * (double)r.delivered;
        printf("%s,%.0f,1,%d,%llu,%llu,%.3f,%.0f,%.3f,%.0f,%llu,%.0f,%.1f,%.3f,%.4f,%llu,%llu,%s,%.0f\n", name, routers,
               b->flits, (unsigned long long)b->warmup, (unsigned long long)b->cycles, r.wall_s,
               routers * (double)b->cycles / r.wall_s, r.cpu_s, routers * (double)b->cycles / r.cpu_s,
               (unsigned long long)r.delivered, r.packet_hops, r.packet_hops > 0 ? r.cpu_s * 1e9 / r.packet_hops : 0.0,
               b->load, r.accepted, (unsigned long long)r.in_flight_start, (unsigned long long)r.in_flight_end,
               over ? "yes" : "no", bench_peak_rss_mib());
        fflush(stdout);
    }
    sim_progress_end(&pg);
    return 0;
}
