/* SPDX-License-Identifier: MIT */
/* bench_aging.c - nanoseconds per SeaStar aging operation (seed 000
 * Section 2): Procedure 1 (arrival), Procedure 2 (age at head), Procedure 2
 * departure, Procedure 3 (tick) and one output arbitration over 24
 * candidates (6 sources x 4 VCs) under three AGE_RR_SELECT policies.
 * Median of repeated runs of thread CPU time (--runs, --ops; --help lists
 * them); CSV on stdout.
 * Targets: < 5 ns per procedure call, < 25 ns per 24-candidate arbitration. */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "../seastar_arb.h"
#include "../examples/common/cli.h"

#define MAX_RUNS 99
#define NSET 1024

static int ops_per_run = 1000000;
static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

static sa_age_config cfg;
static uint16_t fields[NSET];
static uint64_t eligible[NSET], sparse[NSET];
static uint8_t ages[NSET][24];

static double run_arrive(void) {
    sa_age_clock clk;
    double t0;
    int i;
    unsigned acc = 0;
    sa_age_clock_init(&clk, &cfg);
    t0 = bench_cpu_ns();
    for (i = 0; i < ops_per_run; i++) {
        uint16_t f = fields[i & (NSET - 1)];
        sa_age_arrive(&clk, &cfg, i & 7, (i >> 3) & 3, &f);
        acc += f;
    }
    BENCH_USE(acc);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

static double run_at_head(void) {
    sa_age_clock clk;
    double t0;
    unsigned acc = 0;
    int i;
    sa_age_clock_init(&clk, &cfg);
    clk.timestamp = 77;
    t0 = bench_cpu_ns();
    for (i = 0; i < ops_per_run; i++) {
        clk.timestamp = (uint8_t)(i >> 12);
        clk.epoch = (uint8_t)((i >> 20) & 1);
        acc += sa_age_at_head(&clk, fields[i & (NSET - 1)]);
    }
    BENCH_USE(acc);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

static double run_depart(void) {
    sa_age_clock clk;
    double t0;
    int i;
    sa_age_clock_init(&clk, &cfg);
    unsigned acc = 0;
    clk.packet_count[0] = clk.packet_count[1] = 0x7FFFFFFF;
    t0 = bench_cpu_ns();
    for (i = 0; i < ops_per_run; i++) {
        uint16_t f = fields[i & (NSET - 1)];
        sa_age_depart(&clk, &f);
        acc += f;
    }
    BENCH_USE(acc);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

static double run_tick(void) {
    sa_age_clock clk;
    double t0;
    int i;
    sa_age_clock_init(&clk, &cfg);
    sa_age_clock_set_period(&clk, 3);
    t0 = bench_cpu_ns();
    for (i = 0; i < ops_per_run; i++) sa_age_tick(&clk);
    BENCH_USE(clk.timestamp);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

static double run_arbitrate_masks(uint64_t select, const uint64_t *masks) {
    sa_output_arb arb;
    sa_age_config c = cfg;
    sa_grant g;
    double t0;
    int i, acc = 0;
    c.age_rr_select = select;
    sa_output_arb_init(&arb, 6, 4);
    t0 = bench_cpu_ns();
    for (i = 0; i < ops_per_run; i++) {
        int k = i & (NSET - 1);
        acc += sa_output_arbitrate(&arb, &c, NULL, masks[k], ages[k], &g);
    }
    BENCH_USE(acc);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

static double run_arbitrate(uint64_t select) { return run_arbitrate_masks(select, eligible); }

/* Calibration: one dependent 64-bit multiply-add (about 4 cycles; 1.6 ns
 * on an idle 2.5 GHz core): compare rows only with the same calibration. */
static double run_calibration(void) {
    uint64_t x = rng;
    double t0 = bench_cpu_ns();
    int i;
    for (i = 0; i < ops_per_run; i++) x = x * 0x9E3779B97F4A7C15ull + (uint64_t)i;
    BENCH_USE(x);
    return (bench_cpu_ns() - t0) / ops_per_run;
}

typedef double (*bench_fn)(void);
static double run_arb_sparse(void) { return run_arbitrate_masks(~(uint64_t)0, sparse); }
static double run_arb_age(void) { return run_arbitrate(~(uint64_t)0); }
static double run_arb_rr(void) { return run_arbitrate(0); }
static double run_arb_mixed(void) { return run_arbitrate(0x5555555555555555ull); }

static const cli_opt options[] = {
    { "--runs", NULL, "N", CLI_INT, 1, MAX_RUNS, 0, 0, NULL, "21", "timed runs per operation (median, min, max)" },
    { "--ops", NULL, "N", CLI_INT, 1000, 100000000, 0, 0, NULL, "1000000", "operations per timed run" },
};

static const char *const usage_text =
"usage: bench_aging [options]\n"
"\n"
"Nanoseconds per SeaStar aging operation (Procedures 1-3) and per\n"
"24-candidate output arbitration, as CSV on stdout.\n";

int main(int argc, char **argv) {
    struct { const char *name; bench_fn fn; double target; } rows[] = {
        { "calibration_dependent_muladd", run_calibration, 0 },
        { "procedure1_arrive", run_arrive, 5 },
        { "procedure2_age_at_head", run_at_head, 5 },
        { "procedure2_depart", run_depart, 5 },
        { "procedure3_tick", run_tick, 5 },
        { "arbitrate24_age_based", run_arb_age, 25 },
        { "arbitrate24_age_based_1to3_eligible", run_arb_sparse, 25 },
        { "arbitrate24_round_robin", run_arb_rr, 25 },
        { "arbitrate24_alternating", run_arb_mixed, 25 },
    };
    int i, r, c, runs = 21;
    cli cl;
    cli_init(&cl, "bench_aging", usage_text, NULL, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&cl)) {
        if (cli_is(&cl, "--runs")) runs = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--ops")) ops_per_run = (int)cli_uint(&cl);
        else cli_unhandled(&cl);
    }
    sa_age_config_default(&cfg, 8);
    for (i = 0; i < NSET; i++) {
        sa_age_clock clk;
        uint16_t f = (uint16_t)(next_rand() & 0xFF);
        sa_age_clock_init(&clk, &cfg);
        clk.timestamp = (uint8_t)next_rand();
        clk.epoch = (uint8_t)(next_rand() & 1);
        sa_age_arrive(&clk, &cfg, 0, 0, &f);
        fields[i] = f;
        eligible[i] = next_rand() & next_rand() & 0xFFFFFF;   /* ~25% ... */
        if (i & 1) eligible[i] |= next_rand() & 0xFFFFFF;       /* ... to ~60% */
        sparse[i] = 0;
        for (c = 0; c <= (int)(next_rand() % 3); c++) sparse[i] |= (uint64_t)1 << (next_rand() % 24);
        for (c = 0; c < 24; c++) ages[i][c] = (uint8_t)(next_rand() % 64 + 100);
    }
    printf("operation,ns_median,ns_min,ns_max,runs,ops_per_run,target_ns,meets_target\n");
    for (i = 0; i < (int)(sizeof rows / sizeof rows[0]); i++) {
        double v[MAX_RUNS], lo = 1e30, hi = 0, med;
        for (r = 0; r < runs; r++) {
            v[r] = rows[i].fn();
            if (v[r] < lo) lo = v[r];
            if (v[r] > hi) hi = v[r];
        }
        med = bench_median(v, runs);
        printf("%s,%.2f,%.2f,%.2f,%d,%d,%.0f,%s\n", rows[i].name, med, lo, hi, runs, ops_per_run,
               rows[i].target, rows[i].target == 0 ? "" : med < rows[i].target ? "yes" : "no");
    }
    return 0;
}
