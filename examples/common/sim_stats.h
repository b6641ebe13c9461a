/* SPDX-License-Identifier: MIT */
/* sim_stats.h - the statistics of the simulators in examples/: latency
 * statistics, the measurement window every network model keeps (packets
 * and flits delivered, latencies, hops, per-source bandwidth), its summary
 * and its gathering over the parts of a parallel run (example code, not
 * the installed library).
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

/** Operations of a sim_reduce_fn. */
enum { SIM_REDUCE_SUM = 0, SIM_REDUCE_MAX = 1, SIM_REDUCE_MIN = 2 };

/** Sums (SIM_REDUCE_SUM), maxima or minima of v[0..n) over all parts of a
 *  parallel run, in place (ss_mpi.h and sim_mpi.h give one over MPI
 *  ranks); every part calls it at the same point with the same n. */
typedef void (*sim_reduce_fn)(void *ctx, uint64_t *v, size_t n, int op);

/** A latency statistic summed over the parts, in place (reduce NULL: one
 *  part, nothing to do). */
static inline void sim_latency_gather(sim_latency *l, sim_reduce_fn reduce, void *ctx) {
    uint64_t v[4], *h;
    uint32_t i;
    if (!reduce) return;
    h = (uint64_t *)sim_calloc(SIM_LAT_BINS, sizeof(uint64_t));
    l->sumsq_hi += l->sumsq_lo >> 32;      /* so the low words' sum cannot overflow */
    l->sumsq_lo &= 0xFFFFFFFFu;
    v[0] = l->count; v[1] = l->sum; v[2] = l->sumsq_lo; v[3] = l->sumsq_hi;
    reduce(ctx, v, 4, SIM_REDUCE_SUM);
    l->count = v[0]; l->sum = v[1]; l->sumsq_lo = v[2]; l->sumsq_hi = v[3];
    reduce(ctx, &l->max, 1, SIM_REDUCE_MAX);
    reduce(ctx, &l->min, 1, SIM_REDUCE_MIN);
    for (i = 0; i < SIM_LAT_BINS; i++) h[i] = l->hist[i];
    reduce(ctx, h, SIM_LAT_BINS, SIM_REDUCE_SUM);
    for (i = 0; i < SIM_LAT_BINS; i++) l->hist[i] = (uint32_t)(h[i] > UINT32_MAX ? UINT32_MAX : h[i]);
    free(h);
}

/** The statistics of a measurement window, as every network model keeps
 *  them: counted when a packet is generated (created) and when its tail
 *  is delivered (the rest). */
typedef struct sim_window {
    uint64_t window_start;     /**< first cycle of the window */
    uint64_t delivered;        /**< packets delivered in the window */
    uint64_t delivered_flits;  /**< flits delivered in the window */
    uint64_t created;          /**< packets generated in the window */
    sim_latency latency;       /**< creation to delivery of the tail */
    sim_latency net_latency;   /**< injection to delivery of the tail */
    uint64_t hops;             /**< sum of router-to-router hops of the
                                    delivered packets */
    uint64_t *src_flits;       /**< flits delivered per source node */
    uint32_t nodes;            /**< entries of src_flits */
} sim_window;

/** Initialise an empty window over `nodes` sources, starting at cycle 0. */
static inline void sim_window_init(sim_window *w, uint32_t nodes) {
    memset(w, 0, sizeof *w);
    w->nodes = nodes;
    w->src_flits = (uint64_t *)sim_calloc(nodes, sizeof(uint64_t));
    sim_latency_init(&w->latency);
    sim_latency_init(&w->net_latency);
}

/** Forget everything and start a new window at cycle now. */
static inline void sim_window_reset(sim_window *w, uint64_t now) {
    w->window_start = now;
    w->delivered = w->delivered_flits = w->created = 0;
    sim_latency_reset(&w->latency);
    sim_latency_reset(&w->net_latency);
    w->hops = 0;
    memset(w->src_flits, 0, (size_t)w->nodes * sizeof(uint64_t));
}

/** Free a window's memory. */
static inline void sim_window_free(sim_window *w) {
    free(w->src_flits);
    w->src_flits = NULL;
    sim_latency_free(&w->latency);
    sim_latency_free(&w->net_latency);
}

/** Count packet pk, whose tail is delivered at cycle now. */
static inline void sim_window_deliver(sim_window *w, const sim_packet *pk, uint64_t now) {
    w->delivered++;
    w->delivered_flits += pk->size;
    w->src_flits[pk->src] += pk->size;
    w->hops += pk->hops;
    sim_latency_add(&w->latency, now - pk->t_create);
    sim_latency_add(&w->net_latency, now - pk->t_inject);
}

/** Make a part's window that of the whole network: sums over the parts
 *  (reduce NULL: one part, nothing to do).  The part must not count on in
 *  it afterwards. */
static inline void sim_window_gather(sim_window *w, sim_reduce_fn reduce, void *ctx) {
    uint64_t v[4];
    if (!reduce) return;
    v[0] = w->delivered; v[1] = w->delivered_flits; v[2] = w->created; v[3] = w->hops;
    reduce(ctx, v, 4, SIM_REDUCE_SUM);
    w->delivered = v[0]; w->delivered_flits = v[1]; w->created = v[2]; w->hops = v[3];
    sim_latency_gather(&w->latency, reduce, ctx);
    sim_latency_gather(&w->net_latency, reduce, ctx);
    reduce(ctx, w->src_flits, w->nodes, SIM_REDUCE_SUM);
}

/** The figures of a window every model reports (sim_window_summarize). */
typedef struct sim_summary {
    uint64_t cycles;            /**< window length */
    double offered;             /**< offered load, flits per node per cycle */
    double accepted;            /**< delivered flits per node per cycle */
    uint64_t delivered;         /**< packets delivered in the window */
    double lat_mean, lat_std;   /**< creation-to-delivery latency, cycles */
    uint64_t lat_p50, lat_p99, lat_p999, lat_max; /**< its percentiles (see
                                     sim_latency_quantile) and maximum */
    double net_lat_mean;        /**< injection-to-delivery latency */
    double hops;                /**< mean router-to-router hops */
    double src_min, src_max;    /**< smallest / largest per-source delivered
                                     flits per cycle among sending sources */
    double src_jain;            /**< Jain's index of per-source bandwidth */
} sim_summary;

/** Summarise window w at cycle now, offered load `offered`.  The sources
 *  counted in the per-source figures are those that delivered anything
 *  or, if none did, all nodes. */
static inline void sim_window_summarize(const sim_window *w, uint64_t now, double offered, sim_summary *s) {
    uint64_t cyc = now - w->window_start;
    double *bw;
    uint32_t i, k = 0;
    memset(s, 0, sizeof *s);
    s->cycles = cyc;
    s->offered = offered;
    if (cyc == 0) cyc = 1;
    s->accepted = (double)w->delivered_flits / ((double)w->nodes * (double)cyc);
    s->delivered = w->delivered;
    s->lat_mean = sim_latency_mean(&w->latency);
    s->lat_std = sqrt(sim_latency_var(&w->latency));
    s->lat_p50 = sim_latency_quantile(&w->latency, 0.5);
    s->lat_p99 = sim_latency_quantile(&w->latency, 0.99);
    s->lat_p999 = sim_latency_quantile(&w->latency, 0.999);
    s->lat_max = w->latency.max;
    s->net_lat_mean = sim_latency_mean(&w->net_latency);
    s->hops = w->delivered ? (double)w->hops / (double)w->delivered : 0;
    bw = (double *)sim_calloc(w->nodes, sizeof(double));
    for (i = 0; i < w->nodes; i++) if (w->src_flits[i]) bw[k++] = (double)w->src_flits[i] / (double)cyc;
    if (k == 0) k = w->nodes;
    s->src_min = s->src_max = bw[0];
    for (i = 0; i < k; i++) {
        if (bw[i] < s->src_min) s->src_min = bw[i];
        if (bw[i] > s->src_max) s->src_max = bw[i];
    }
    s->src_jain = sim_jain(bw, (int)k);
    free(bw);
}

#endif /* SIM_STATS_H */
