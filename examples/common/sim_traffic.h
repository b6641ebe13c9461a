/* SPDX-License-Identifier: MIT */
/* sim_traffic.h - traffic patterns and Bernoulli injection for the
 * simulators in examples/ (example code, not the installed library).
 *
 * Nodes are numbered 0..N-1 in a k-ary n-cube as seastar_route.h numbers
 * them, x the most significant digit: node = (x * ky + y) * kz + z.  A pattern maps a source to a destination;
 * the random ones draw from a caller-owned sim_rng, so a run is a pure
 * function of its seed.  A packet whose destination is its own source is
 * not generated (the patterns that map a node to itself leave it idle).
 *
 * The bit patterns (bit reversal, bit complement, transpose, shuffle) are
 * defined on b = ceil(log2 N) bits; when N is not a power of two a result
 * of N or more is reduced modulo N (so they are then not permutations).
 */
#ifndef SIM_TRAFFIC_H
#define SIM_TRAFFIC_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "sim_pool.h"

/** A small deterministic RNG (splitmix64). */
typedef struct sim_rng { uint64_t s; } sim_rng;

/** Seed an RNG. */
static inline void sim_rng_seed(sim_rng *r, uint64_t seed) { r->s = seed; }

/** Next 64 random bits. */
static inline uint64_t sim_rng_next(sim_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/** Seed r with stream number stream of seed: the streams of one seed
 *  start at unrelated points of the generator's cycle, so one stream per
 *  source node gives every node its own draws whatever the order in which
 *  nodes are visited (and whichever process simulates them). */
static inline void sim_rng_stream(sim_rng *r, uint64_t seed, uint64_t stream) {
    sim_rng h;
    h.s = seed ^ (stream * 0xD1B54A32D192ED03ull);
    r->s = sim_rng_next(&h) ^ stream;
}

/** Uniform integer in 0..n-1 (n >= 1), by multiply-shift. */
static inline uint32_t sim_rng_below(sim_rng *r, uint32_t n) {
    return (uint32_t)(((sim_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/** Bernoulli threshold: an event of probability p happens when
 *  sim_rng_next() < threshold (p clamped to 0..1). */
static inline uint64_t sim_bernoulli_threshold(double p) {
    if (!(p > 0.0)) return 0;
    if (p >= 1.0) return ~(uint64_t)0;
    return (uint64_t)(p * 18446744073709551616.0);
}

/** Traffic patterns. */
typedef enum sim_pattern {
    SIM_UNIFORM = 0,    /**< uniform random over the other nodes */
    SIM_HOTSPOT,        /**< all-to-one: every node sends to one node */
    SIM_NEIGHBOR,       /**< nearest neighbour: a random adjacent node */
    SIM_BITREV,         /**< bit reversal of the node number */
    SIM_BITCOMP,        /**< bit complement of the node number */
    SIM_TRANSPOSE,      /**< swap the two halves of the node number's bits */
    SIM_TORNADO,        /**< each coordinate + ceil(k/2) - 1 (mod k) */
    SIM_SHUFFLE,        /**< perfect shuffle: rotate the bits left by one */
    SIM_PERMUTATION,    /**< a permutation read from a file */
    SIM_PATTERN_COUNT   /**< number of patterns */
} sim_pattern;

/** Names of the patterns, as the command lines spell them. */
static inline const char *sim_pattern_name(sim_pattern p) {
    static const char *const names[SIM_PATTERN_COUNT] = {
        "uniform", "hotspot", "neighbor", "bitrev", "bitcomp",
        "transpose", "tornado", "shuffle", "perm" };
    return (int)p >= 0 && p < SIM_PATTERN_COUNT ? names[p] : "?";
}

/** Parse a pattern name; returns SIM_PATTERN_COUNT if unknown. */
static inline sim_pattern sim_pattern_parse(const char *s) {
    int i;
    for (i = 0; i < SIM_PATTERN_COUNT; i++)
        if (strcmp(s, sim_pattern_name((sim_pattern)i)) == 0) return (sim_pattern)i;
    return SIM_PATTERN_COUNT;
}

/** What a pattern needs to know about the network. */
typedef struct sim_shape {
    int dims;           /**< 1..3 */
    int radix[3];       /**< k per dimension (1 for unused ones) */
    int mesh[3];        /**< non-zero: the dimension has no wrap-around link */
    uint32_t nodes;     /**< product of the radices */
    int bits;           /**< ceil(log2 nodes) */
} sim_shape;

/** Fill a shape; unused dimensions get radix 1. */
static inline void sim_shape_init(sim_shape *s, int dims, const int *radix, const int *mesh) {
    int d;
    s->dims = dims;
    s->nodes = 1;
    for (d = 0; d < 3; d++) {
        s->radix[d] = d < dims ? radix[d] : 1;
        s->mesh[d] = d < dims && mesh != NULL ? mesh[d] : 0;
        s->nodes *= (uint32_t)s->radix[d];
    }
    s->bits = 0;
    while ((1u << s->bits) < s->nodes) s->bits++;
}

/** The traffic of a run. */
typedef struct sim_traffic {
    sim_pattern pattern;    /**< the destination pattern */
    double load;            /**< offered load, flits per node per cycle */
    int sizes[8];           /**< packet sizes in flits, chosen uniformly */
    int num_sizes;          /**< entries of sizes (1..8) */
    double rsp_fraction;    /**< fraction of packets in the response class
                                 (VC2/VC3); the rest are requests (VC0/VC1) */
    uint32_t hotspot;       /**< destination of SIM_HOTSPOT */
    uint32_t *perm;         /**< destination of each node for SIM_PERMUTATION */
    uint32_t src_queue_max; /**< 0: unbounded source queues; else a source
                                 whose queue holds this many packets skips
                                 generation (closed-loop throttle) */
} sim_traffic;

/** Defaults: uniform, load 0.1, 9-flit packets, all requests. */
static inline void sim_traffic_default(sim_traffic *t) {
    memset(t, 0, sizeof *t);
    t->pattern = SIM_UNIFORM;
    t->load = 0.1;
    t->sizes[0] = 9;
    t->num_sizes = 1;
}

/** Mean packet size in flits. */
static inline double sim_traffic_mean_size(const sim_traffic *t) {
    int i;
    double s = 0;
    for (i = 0; i < t->num_sizes; i++) s += t->sizes[i];
    return s / t->num_sizes;
}

/** Coordinates of a node (c[0] = x; unused dimensions get 0). */
static inline void sim_coords(const sim_shape *s, uint32_t node, int *c) {
    c[2] = (int)(node % (uint32_t)s->radix[2]);
    node /= (uint32_t)s->radix[2];
    c[1] = (int)(node % (uint32_t)s->radix[1]);
    c[0] = (int)(node / (uint32_t)s->radix[1]);
}

/** Node of coordinates. */
static inline uint32_t sim_node(const sim_shape *s, const int *c) {
    return (uint32_t)((c[0] * s->radix[1] + c[1]) * s->radix[2] + c[2]);
}

/** A random neighbour of src (over the links that exist); src if none. */
static inline uint32_t sim_neighbor(const sim_shape *s, uint32_t src, sim_rng *rng) {
    int c[3], cand[6][3], n = 0, d, dir;
    sim_coords(s, src, c);
    for (d = 0; d < s->dims; d++) {
        int k = s->radix[d];
        if (k < 2) continue;
        for (dir = -1; dir <= 1; dir += 2) {
            int x = c[d] + dir;
            if (x < 0 || x >= k) {
                if (s->mesh[d]) continue;
                x = (x + k) % k;
            }
            memcpy(cand[n], c, sizeof c);
            cand[n][d] = x;
            n++;
        }
    }
    if (n == 0) return src;
    return sim_node(s, cand[sim_rng_below(rng, (uint32_t)n)]);
}

/** Destination of a packet from src under the traffic's pattern. */
static inline uint32_t sim_traffic_dest(const sim_traffic *t, const sim_shape *s,
                                        uint32_t src, sim_rng *rng) {
    uint32_t n = s->nodes, d = src, mask = (s->bits >= 32) ? 0xFFFFFFFFu : ((1u << s->bits) - 1u);
    int b = s->bits, i, c[3];
    switch (t->pattern) {
    case SIM_UNIFORM:
        if (n < 2) return src;
        d = sim_rng_below(rng, n - 1);
        return d >= src ? d + 1 : d;
    case SIM_HOTSPOT: return t->hotspot;
    case SIM_NEIGHBOR: return sim_neighbor(s, src, rng);
    case SIM_BITREV:
        d = 0;
        for (i = 0; i < b; i++) d |= ((src >> i) & 1u) << (b - 1 - i);
        break;
    case SIM_BITCOMP: d = ~src & mask; break;
    case SIM_TRANSPOSE: {
        int h = b / 2;
        uint32_t lo = src & ((1u << h) - 1u), hi = src >> h;
        d = (lo << (b - h)) | hi;
        break;
    }
    case SIM_TORNADO:
        sim_coords(s, src, c);
        for (i = 0; i < s->dims; i++) {
            int k = s->radix[i];
            c[i] = (c[i] + (k + 1) / 2 - 1) % k;
        }
        return sim_node(s, c);
    case SIM_SHUFFLE:
        d = b ? (((src << 1) | (src >> (b - 1))) & mask) : src;
        break;
    case SIM_PERMUTATION: return t->perm ? t->perm[src] : src;
    default: return src;
    }
    return d % n;
}

/** Read a permutation: one destination per line (node i's on line i), '#'
 *  comments and blank lines allowed.  Returns a malloc'd array of nodes
 *  entries, or NULL with a message in err (size errlen) if the file is
 *  unreadable, short or long, has a line that is not one decimal node
 *  number, names a node out of range, or names a destination twice. */
static inline uint32_t *sim_permutation_read(const char *path, uint32_t nodes,
                                             char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    uint32_t *perm, i = 0;
    unsigned char *used;
    char line[256];
    long lineno = 0;
    if (f == NULL) { snprintf(err, errlen, "cannot open %s", path); return NULL; }
    perm = (uint32_t *)sim_calloc(nodes, sizeof(uint32_t));
    used = (unsigned char *)sim_calloc(nodes, 1);
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        unsigned long v;
        lineno++;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
        if (!(*p >= '0' && *p <= '9')) end = p;
        while (end != p && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')) end++;
        if (end == p || *end || v >= nodes || i >= nodes || used[v]) {
            snprintf(err, errlen, "%s line %ld: %s", path, lineno,
                     end == p || *end ? "not a node number" : v >= nodes ? "node out of range"
                     : i >= nodes ? "more destinations than nodes" : "a destination given twice (not a permutation)");
            fclose(f); free(perm); free(used); return NULL;
        }
        used[v] = 1;
        perm[i++] = (uint32_t)v;
    }
    fclose(f);
    free(used);
    if (i < nodes) {
        snprintf(err, errlen, "%s: %u destinations for %u nodes", path, i, nodes);
        free(perm); return NULL;
    }
    return perm;
}

#endif /* SIM_TRAFFIC_H */
