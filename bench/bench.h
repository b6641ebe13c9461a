/* SPDX-License-Identifier: MIT */
/* bench.h - timing helpers shared by the benchmarks (not installed).
 * Build with -D_POSIX_C_SOURCE=200809L (the Makefile does). */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

/* Monotonic clock in nanoseconds. */
static inline double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of the calling thread in nanoseconds: on a shared machine it
 * leaves out the time other processes hold the core (cache and memory
 * contention still show). */
static inline double bench_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench__cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of n values (sorts them in place). */
static inline double bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench__cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Peak resident set size of this process in MiB. */
static inline double bench_peak_rss_mib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static volatile uint64_t bench_sink_step;

/* Machine speed right now: CPU ns per step of a dependent add-then-xor
 * chain (two cycles per step; 0.66 ns at this machine's full 3 GHz).  It
 * follows the clock; it does not see a busy sibling hyperthread, which
 * slows throughput-bound code but not this chain. */
static inline double bench_step_ns(long steps) {
    uint64_t x = (uint64_t)steps;
    long i;
    double t0 = bench_cpu_ns(), t1;
    /* Eight steps per loop iteration: the chain, not the loop branch, sets
     * the pace wherever the code lands (this Xeon has the Skylake "JCC
     * erratum": a loop branch that crosses a 32-byte boundary runs from the
     * legacy decoders, which made a one-step loop 1.5x slower in one binary
     * than in another). */
    for (i = 0; i < steps; i += 8) {
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
        x = (x + (uint64_t)i) ^ (x >> 7);
    }
    t1 = bench_cpu_ns();
    bench_sink_step = x;
    return (t1 - t0) / (double)((steps + 7) / 8 * 8);
}

/* Keep a value alive so the optimiser cannot drop the work producing it. */
static volatile uint64_t bench_sink;
#define BENCH_USE(x) (bench_sink += (uint64_t)(x))

#endif
