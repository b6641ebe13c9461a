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
 *   - the peak memory of the process so far (the largest case run yet;
 *     with MPI, summed over the ranks).
 *
 * Built as make mpi's build/mpi/bench_sim and run under mpirun, each rank
 * simulates a slab of x-planes (examples/common/ss_mpi.h); the ranks
 * column gives their number, CPU time is summed over them (Open MPI polls
 * while it waits, so waits count as CPU), and these columns describe the
 * hand-overs (zero in the sequential build):
 *
 *   - windows: hand-overs during the measured cycles;
 *   - bytes_per_window: bytes all ranks sent per hand-over;
 *   - wait_ms_per_window: the time a rank spends in MPI calls per
 *     hand-over (waiting for its neighbours and moving the data), the
 *     mean over the ranks, and the largest rank's.
 *
 * Every figure is measured in this run.  CSV on stdout, progress on
 * stderr.  Set BENCH_SIM_QUICK=1 in the environment to skip radices above
 * 16.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "../examples/common/seastar_net.h"
#include "../examples/common/cli.h"
#ifdef SS_MPI
#include "../examples/common/ss_mpi.h"
static ss_mpi g_mpi;
#endif

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
    int ranks;
    uint64_t windows;           /* hand-overs in the measured cycles */
    double bytes_per_window;    /* sent by all ranks, per hand-over */
    double wait_ms_mean, wait_ms_max; /* per hand-over: mean rank, slowest rank */
    double rss_mib;             /* peak RSS, summed over the ranks */
} bresult;

static const cli_opt options[] = {
    { "--radix", NULL, "K,K,...", CLI_INT, 2, 32, 0, 0, "1 to 8 radices 2 to 32, separated by commas", "8,16,32",
      "run the KxKxK torus of each" },
    { "--flits", NULL, "N", CLI_CHOICE, 0, 0, 0, 0, "1|9|both", "both",
      "1-flit packets at load 0.2, 9-flit packets at load 0.1, or both" },
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000, 0, 0, NULL, "1000 (k<=16), 1500 (k>16)",
      "cycles before measuring" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000, 0, 0, NULL, "10000 (k<=8), 2000 (k<=16), 300; five times as many with 9 flits",
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
    memset(r, 0, sizeof *r);
    r->ranks = 1;
#ifdef SS_MPI
    err = ss_mpi_net_init(&g_mpi, &net, &p, &tr, 1);
    r->ranks = g_mpi.size;
#else
    err = ss_net_init(&net, &p, &tr, 1);
#endif
    if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
    ss_run(&net, c->warmup, pg, name);
    ss_stats_reset(&net);
    r->in_flight_start = ss_in_flight(&net);
#ifdef SS_MPI
    {   /* the in-flight count of the whole network, and a common start */
        uint64_t v = r->in_flight_start;
        MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        r->in_flight_start = v;
        MPI_Barrier(MPI_COMM_WORLD);
        g_mpi.windows = g_mpi.bytes_sent = 0;
        g_mpi.wait_s = 0;
    }
#endif
    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    ss_run(&net, c->cycles, pg, name);
#ifdef SS_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    r->wall_s = (bench_now_ns() - t0) * 1e-9;
    r->cpu_s = (bench_cpu_ns() - c0) * 1e-9;
    err = ss_audit(&net);
    if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(3); }
    r->rss_mib = bench_peak_rss_mib();
#ifdef SS_MPI
    {
        double v[4], mx;
        err = ss_mpi_audit(&net);
        if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(3); }
        v[0] = r->cpu_s; v[1] = (double)g_mpi.bytes_sent; v[2] = g_mpi.wait_s; v[3] = r->rss_mib;
        mx = g_mpi.wait_s;
        MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        r->cpu_s = v[0];
        r->rss_mib = v[3];
        r->windows = g_mpi.windows;
        if (r->windows) {
            r->bytes_per_window = v[1] / (double)r->windows;
            r->wait_ms_mean = v[2] / g_mpi.size / (double)r->windows * 1e3;
            r->wait_ms_max = mx / (double)r->windows * 1e3;
        }
    }
#endif
    ss_summarize(&net, &s);
    r->accepted = s.w.accepted;
    r->packet_hops = (double)s.w.delivered * s.w.hops;
    r->delivered = s.w.delivered;
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
#ifdef SS_MPI
    MPI_Init(&argc, &argv);
    ss_mpi_init(&g_mpi);
    if (g_mpi.rank != 0 && freopen("/dev/null", "w", stdout) == NULL) sim_die("cannot silence a rank's output");
#endif
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
            /* 9-flit packets at load 0.1 come 18 times as rarely as 1-flit
             * packets at 0.2: run them 5 times as long, so that both
             * measure about as much work. */
            b->cycles = have_cycles ? cycles : (k <= 8 ? 10000 : k <= 16 ? 2000 : 300) * (j == 0 ? 1 : 5);
            total += (double)k * k * k * (double)(b->warmup + b->cycles);
            n++;
        }
    }
#ifdef SS_MPI
    for (i = 0; i < n; i++)
        if (cases[i].k < g_mpi.size) {
            if (g_mpi.rank == 0)
                fprintf(stderr, "bench_sim: %d MPI ranks but radix %d has only %d x-planes\n", g_mpi.size, cases[i].k, cases[i].k);
            MPI_Finalize();
            exit(2);
        }
    sim_progress_init(&pg, g_mpi.rank == 0 ? stderr : NULL, "bench_sim", "router-cycles", total);
#else
    sim_progress_init(&pg, stderr, "bench_sim", "router-cycles", total);
#endif
    printf("case,routers,ranks,packet_flits,warmup,cycles,wall_s,router_cycles_per_s,cpu_s,router_cycles_per_cpu_s,"
           "delivered,packet_hops,cpu_ns_per_packet_hop,offered,accepted,in_flight_start,in_flight_end,"
           "oversaturated,peak_rss_mib,windows,bytes_per_window,wait_ms_per_window,wait_ms_per_window_max\n");
    for (i = 0; i < n; i++) {
        const bcase *b = &cases[i];
        double routers = (double)b->k * b->k * b->k;
        char name[64];
        bresult r;
        int over;
        snprintf(name, sizeof name, "%dx%dx%d_%dflit_load%.1f", b->k, b->k, b->k, b->flits, b->load);
#ifdef SS_MPI
        if (g_mpi.rank == 0)
#endif
        fprintf(stderr, "bench_sim: %s\n", name);
        run_case(b, &pg, name, &r);
        over = r.accepted < 0.95 * b->load ||
               (double)r.in_flight_end - (double)r.in_flight_start > 0.05 * (double)r.delivered;
        printf("%s,%.0f,%d,%d,%llu,%llu,%.3f,%.0f,%.3f,%.0f,%llu,%.0f,%.1f,%.3f,%.4f,%llu,%llu,%s,%.0f,%llu,%.0f,%.3f,%.3f\n",
               name, routers, r.ranks, b->flits, (unsigned long long)b->warmup, (unsigned long long)b->cycles, r.wall_s,
               routers * (double)b->cycles / r.wall_s, r.cpu_s, routers * (double)b->cycles / r.cpu_s,
               (unsigned long long)r.delivered, r.packet_hops, r.packet_hops > 0 ? r.cpu_s * 1e9 / r.packet_hops : 0.0,
               b->load, r.accepted, (unsigned long long)r.in_flight_start, (unsigned long long)r.in_flight_end,
               over ? "yes" : "no", r.rss_mib, (unsigned long long)r.windows, r.bytes_per_window,
               r.wait_ms_mean, r.wait_ms_max);
        fflush(stdout);
    }
    sim_progress_end(&pg);
#ifdef SS_MPI
    ss_mpi_free(&g_mpi);
    MPI_Finalize();
#endif
    return 0;
}
