/* SPDX-License-Identifier: MIT */
/* sim_stats.h - latency statistics and small CSV helpers for the simulators
 * in examples/ (example code, not the installed library).
 *
 * Latencies are whole cycles.  The mean and variance come from exact
 * integer sums (so statistics gathered in parts, in any order, add up to
 * the same bits);
 * percentiles come from a one-cycle-wide histogram up to SIM_LAT_BINS-1
 * cycles (anything longer counts in the last bin, so a percentile there is
 * only known to be at least that bound; the maximum is exact).
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include "sim_pool.h"

/** Histogram bins of a latency statistic (one cycle each). */
#define SIM_LAT_BINS (1u << 18)

/** A latency statistic. */
typedef struct sim_latency {
    uint64_t count;     /**< samples */
    uint64_t sum;       /**< sum of samples */
    uint64_t sumsq_lo;  /**< sum of squares = sumsq_hi * 2^32 + sumsq_lo
                             (sim_latency_add keeps sumsq_lo below 2^62) */
    uint64_t sumsq_hi;
    uint64_t max;       /**< largest sample */
    uint64_t min;       /**< smallest sample */
    uint32_t *hist;     /**< SIM_LAT_BINS bins */
} sim_latency;

/** Initialise an empty statistic. */
static inline void sim_latency_init(sim_latency *l) {
    l->count = 0; l->sum = l->sumsq_lo = l->sumsq_hi = 0; l->max = 0; l->min = UINT64_MAX;
    l->hist = (uint32_t *)sim_calloc(SIM_LAT_BINS, sizeof(uint32_t));
}

/** Forget all samples. */
static inline void sim_latency_reset(sim_latency *l) {
    l->count = 0; l->sum = l->sumsq_lo = l->sumsq_hi = 0; l->max = 0; l->min = UINT64_MAX;
    memset(l->hist, 0, SIM_LAT_BINS * sizeof(uint32_t));
}

/** Free a statistic's memory. */
static inline void sim_latency_free(sim_latency *l) { free(l->hist); l->hist = NULL; }

/** Add one sample. */
static inline void sim_latency_add(sim_latency *l, uint64_t v) {
    uint64_t lo = v & 0xFFFFFFFFu, hi = v >> 32, ll = lo * lo;
    l->count++;
    l->sum += v;
    /* v^2 = hi^2 2^64 + 2 lo hi 2^32 + lo^2, in units of 2^32 and 1 */
    l->sumsq_lo += ll & 0xFFFFFFFFu;
    l->sumsq_hi += (ll >> 32) + 2u * lo * hi + ((hi * hi) << 32);
    if (l->sumsq_lo >> 62) { l->sumsq_hi += l->sumsq_lo >> 32; l->sumsq_lo &= 0xFFFFFFFFu; }
    if (v > l->max) l->max = v;
    if (v < l->min) l->min = v;
    l->hist[v < SIM_LAT_BINS ? v : SIM_LAT_BINS - 1]++;
}

/** Mean (0 without samples). */
static inline double sim_latency_mean(const sim_latency *l) {
    return l->count ? (double)l->sum / (double)l->count : 0.0;
}

/** Population variance (0 without samples). */
static inline double sim_latency_var(const sim_latency *l) {
    double m;
    if (l->count == 0) return 0.0;
    m = (double)l->sum / (double)l->count;
    m = ((double)l->sumsq_hi * 4294967296.0 + (double)l->sumsq_lo) / (double)l->count - m * m;
    return m > 0 ? m : 0.0;
}

/** The largest latency the histogram tells apart: the last bin counts
 *  every latency of SIM_LAT_BOUND cycles or more. */
#define SIM_LAT_BOUND ((uint64_t)SIM_LAT_BINS - 1u)

/** The q-quantile (0 < q <= 1): the smallest v with at least q of the
 *  samples <= v (nearest-rank).  0 without samples.  A quantile that falls
 *  in the last bin is returned as SIM_LAT_BOUND, which then means "at
 *  least SIM_LAT_BOUND" (sim_quantile_text prints it so). */
static inline uint64_t sim_latency_quantile(const sim_latency *l, double q) {
    uint64_t need, seen = 0;
    uint32_t i;
    if (l->count == 0) return 0;
    need = (uint64_t)ceil(q * (double)l->count);
    if (need < 1) need = 1;
    for (i = 0; i < SIM_LAT_BINS; i++) {
        seen += l->hist[i];
        if (seen >= need) return i;
    }
    return SIM_LAT_BOUND;
}

/** A quantile from sim_latency_quantile as text: v / per_unit with the
 *  given decimals, or ">=" and the bound when v is SIM_LAT_BOUND (the
 *  quantile is in the last bin and only its lower bound is known). */
static inline const char *sim_quantile_text(uint64_t v, double per_unit, int decimals, char *buf, size_t n) {
    snprintf(buf, n, "%s%.*f", v >= SIM_LAT_BOUND ? ">=" : "", decimals, (double)v / per_unit);
    return buf;
}

/** Jain's fairness index of n values: (sum x)^2 / (n sum x^2), 1 = equal. */
static inline double sim_jain(const double *x, int n) {
    double s = 0, s2 = 0;
    int i;
    for (i = 0; i < n; i++) { s += x[i]; s2 += x[i] * x[i]; }
    return s2 > 0 ? s * s / (n * s2) : 1.0;
}

#endif /* SIM_STATS_H */
