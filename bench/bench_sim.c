/* SPDX-License-Identifier: MIT */
/* bench_sim.c - speed and memory of the SeaStar network simulator
 * (examples/common/seastar_net.h): simulated router-cycles per second on
 * 8x8x8 and 32x32x32 tori at 30% uniform load, the BookSim2 comparison
 * configuration, and peak memory.  CSV on stdout, progress on stderr.
 *
 * Load is offered flits per node per cycle (BookSim's injection rate).
 * BookSim2, measured on this project's machine on an 8x8x8 torus
 * (dimension-order routing, 4 VCs, 8-flit VC buffers, 1-flit packets,
 * uniform load 0.2), ran at about 71,000 router-cycles/s and on an 8x8
 * torus at about 210,000; the target is 40x on the 8x8x8 torus.
 *
 * Set BENCH_SIM_QUICK=1 in the environment to skip the 32x32x32 run.
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
    double booksim;     /* BookSim2 router-cycles/s on the same case, or 0 */
} bcase;

/* Wall-clock seconds and CPU seconds of the measured cycles: on a shared
 * machine the CPU time is the fairer figure; both are printed. */
static double run_case(const bcase *c, double *seconds_out, double *cpu_out, uint64_t *delivered) {
    double t[5], cpu[5];
    int rep;
    for (rep = 0; rep < c->repeats; rep++) {
        ss_params p;
        sim_traffic tr;
        ss_net net;
        const char *err;
        double t0;
        clock_t c0;
        ss_params_default(&p, c->k[0], c->k[1], c->k[2]);
        p.age.age_clock_period = 8;
        ss_params_set_bias(&p, 3, 2, 1);
        sim_traffic_default(&tr);
        tr.load = c->load;
        tr.sizes[0] = c->flits;
        err = ss_net_init(&net, &p, &tr, 1 + (uint64_t)rep);
        if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(1); }
        ss_run(&net, c->warmup, NULL, NULL);
        t0 = bench_now_ns();
        c0 = clock();
        ss_run(&net, c->cycles, NULL, NULL);
        t[rep] = (bench_now_ns() - t0) * 1e-9;
        cpu[rep] = (double)(clock() - c0) / CLOCKS_PER_SEC;
        err = ss_audit(&net);
        if (err) { fprintf(stderr, "bench_sim: %s\n", err); exit(3); }
        *delivered = net.delivered;
        ss_net_free(&net);
    }
    *seconds_out = bench_median(t, c->repeats);
    *cpu_out = bench_median(cpu, c->repeats);
    return (double)c->k[0] * c->k[1] * c->k[2] * (double)c->cycles / *seconds_out;
}

int main(void) {
    static const bcase cases[] = {
        { "seastar_8x8x8_load0.3", { 8, 8, 8 }, 9, 0.3, 2000, 20000, 3, 0 },
        { "booksim_cfg_8x8x8_1flit_load0.2", { 8, 8, 8 }, 1, 0.2, 1000, 5000, 3, 71000 },
        { "booksim_cfg_8x8x8_1flit_load0.3", { 8, 8, 8 }, 1, 0.3, 1000, 5000, 3, 0 },
        { "booksim_cfg_8x8_1flit_load0.2", { 8, 8, 1 }, 1, 0.2, 1000, 20000, 3, 210000 },
        { "seastar_32x32x32_load0.3", { 32, 32, 32 }, 9, 0.3, 0, 10000, 1, 0 },
    };
    int i, n = (int)(sizeof cases / sizeof cases[0]);
    const char *quick = getenv("BENCH_SIM_QUICK");
    printf("case,routers,packet_flits,load,cycles,seconds,router_cycles_per_s,x_booksim2,"
           "cpu_seconds,router_cycles_per_cpu_s,x_booksim2_cpu,delivered,peak_rss_mib\n");
    for (i = 0; i < n; i++) {
        const bcase *c = &cases[i];
        double sec, cpu, rate, rate_cpu;
        uint64_t delivered = 0;
        if (quick && quick[0] == '1' && c->k[0] == 32) continue;
        fprintf(stderr, "bench_sim: %s\n", c->name);
        rate = run_case(c, &sec, &cpu, &delivered);
        rate_cpu = (double)c->k[0] * c->k[1] * c->k[2] * (double)c->cycles / cpu;
        printf("%s,%d,%d,%.2f,%llu,%.3f,%.0f,", c->name, c->k[0] * c->k[1] * c->k[2], c->flits,
               c->load, (unsigned long long)c->cycles, sec, rate);
        if (c->booksim > 0) printf("%.1f", rate / c->booksim);
        printf(",%.3f,%.0f,", cpu, rate_cpu);
        if (c->booksim > 0) printf("%.1f", rate_cpu / c->booksim);
        printf(",%llu,%.0f\n", (unsigned long long)delivered, bench_peak_rss_mib());
        fflush(stdout);
    }
    return 0;
}
