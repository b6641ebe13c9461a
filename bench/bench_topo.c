/* SPDX-License-Identifier: MIT */
/* bench_topo.c - the cost of a network's metrics and of a hop count
 * (seastar_topo.h >>metrics), as a user pays it.
 *
 *   metrics  sr_net_init + sr_net_compute_metrics of one description: what
 *            a user calls once per network (the target: the radix-64
 *            dragonfly, 262,656 terminals, well under 1 s);
 *   hops     sr_net_hops between random pairs of terminals (4096 distinct
 *            pairs, cycled), what a routing decision such as UGAL's asks.
 *
 * Thread CPU time; each sample repeats the call until it has run 2 ms; the
 * median and the minimum of 15 samples.  CSV on stdout:
 *
 *   operation,network,terminals,calls,median_ns,min_ns
 *
 * Usage: bench_topo   (make bench writes bench/out/bench_topo.csv)
 */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "../seastar_route.h"

#define SAMPLES 15
#define PAIRS 4096

/* Nanoseconds per call of init + metrics: median and minimum of SAMPLES. */
static void bench_metrics(const char *name, const sr_net_desc *d) {
    double per[SAMPLES];
    long calls = 0;
    int s;
    sr_net net;
    sr_net_metrics m;
    if (sr_net_init(&net, d) != SR_OK) {
        fprintf(stderr, "bench_topo: %s does not build\n", name);
        exit(1);
    }
    for (s = 0; s < SAMPLES; s++) {
        double t0 = bench_cpu_ns(), t;
        long n = 0;
        do {
            if (sr_net_init(&net, d) != SR_OK || sr_net_compute_metrics(&net, &m) != SR_OK) exit(1);
            BENCH_USE(m.hop_sum + m.bisection);
            n++;
            t = bench_cpu_ns() - t0;
        } while (t < 2e6);
        per[s] = t / (double)n;
        calls += n;
    }
    {
        double lo = per[0];
        for (s = 1; s < SAMPLES; s++) if (per[s] < lo) lo = per[s];
        printf("metrics,%s,%u,%ld,%.0f,%.0f\n", name, net.num_terminals, calls, bench_median(per, SAMPLES), lo);
    }
}

/* Nanoseconds per sr_net_hops over PAIRS random pairs of terminals. */
static void bench_hops(const char *name, const sr_net_desc *d) {
    static uint32_t src[PAIRS], dst[PAIRS];
    double per[SAMPLES];
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    long calls = 0;
    int s, i;
    sr_net net;
    if (sr_net_init(&net, d) != SR_OK) exit(1);
    for (i = 0; i < PAIRS; i++) {
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
        src[i] = (uint32_t)(seed % net.num_terminals);
        dst[i] = (uint32_t)((seed >> 32) % net.num_terminals);
    }
    for (s = 0; s < SAMPLES; s++) {
        double t0 = bench_cpu_ns(), t;
        long n = 0;
        uint64_t acc = 0;
        do {
            for (i = 0; i < PAIRS; i++) acc += (uint64_t)sr_net_hops(&net, src[i], dst[i]);
            n += PAIRS;
            t = bench_cpu_ns() - t0;
        } while (t < 2e6);
        BENCH_USE(acc);
        per[s] = t / (double)n;
        calls += n;
    }
    {
        double lo = per[0];
        for (s = 1; s < SAMPLES; s++) if (per[s] < lo) lo = per[s];
        printf("hops,%s,%u,%ld,%.1f,%.1f\n", name, net.num_terminals, calls, bench_median(per, SAMPLES), lo);
    }
}

int main(int argc, char **argv) {
    sr_net_desc d;
    static const int clos_down[] = { 32, 32, 64 }, clos_up[] = { 32, 32, 0 }, torus[] = { 1024, 1024, 1024 };
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: bench_topo\n\nThe cost of sr_net_init + sr_net_compute_metrics per network and of\n"
               "sr_net_hops per call (thread CPU time; median and minimum of %d samples);\n"
               "CSV on stdout.  No options: the networks and samples are fixed.\n", SAMPLES);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "bench_topo: unexpected argument \"%s\": no options (see --help)\n", argv[1]);
        return 2;
    }
    printf("operation,network,terminals,calls,median_ns,min_ns\n");
    sr_net_desc_dragonfly(&d, 16, 32, 16, 0, SR_DF_CONSECUTIVE);
    bench_metrics("dragonfly p16 a32 h16 g513 consecutive (radix 64)", &d);
    d.dragonfly.arrangement = SR_DF_PALMTREE;
    bench_metrics("dragonfly p16 a32 h16 g513 palm-tree (radix 64)", &d);
    sr_net_desc_dragonfly(&d, 4, 8, 4, 33, SR_DF_CONSECUTIVE);
    bench_metrics("dragonfly p4 a8 h4 g33 consecutive", &d);
    sr_net_desc_dragonfly(&d, 8, 144, 96, 577, SR_DF_CONSECUTIVE);   /* 24 channels per pair, h = 96 */
    bench_metrics("dragonfly p8 a144 h96 g577 consecutive", &d);
    sr_net_desc_dragonfly(&d, 8, 128, 128, 0, SR_DF_CONSECUTIVE);    /* g = 16385 */
    bench_metrics("dragonfly p8 a128 h128 g16385 consecutive", &d);
    d.dragonfly.arrangement = SR_DF_PALMTREE;
    bench_metrics("dragonfly p8 a128 h128 g16385 palm-tree", &d);
    if (sr_fbfly_desc(16, 4, &d) != SR_OK) return 1;
    bench_metrics("16-ary 4-flat (radix 64)", &d);
    sr_net_desc_cube(&d, 3, torus, NULL);
    bench_metrics("1024x1024x1024 torus", &d);
    sr_net_desc_clos(&d, 3, clos_down, clos_up);
    bench_metrics("folded Clos down 32 32 64 up 32 32 0", &d);
    sr_net_desc_dragonfly(&d, 16, 32, 16, 0, SR_DF_CONSECUTIVE);
    bench_hops("dragonfly p16 a32 h16 g513 consecutive (radix 64)", &d);
    if (sr_fbfly_desc(16, 4, &d) != SR_OK) return 1;
    bench_hops("16-ary 4-flat (radix 64)", &d);
    return 0;
}
