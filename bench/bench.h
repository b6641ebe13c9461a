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

/* Keep a value alive so the optimiser cannot drop the work producing it. */
static volatile uint64_t bench_sink;
#define BENCH_USE(x) (bench_sink += (uint64_t)(x))

#endif
