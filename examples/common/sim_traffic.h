/* SPDX-License-Identifier: MIT */
/* sim_traffic.h - traffic patterns and Bernoulli injection for the
 * simulators in examples/ (example code, not the installed library).
 *
 * Terminals (nodes) are numbered 0..N-1.  A terminal belongs to router
 * terminal / conc (conc terminals per router; 1 in the SeaStar and Alpha
 * networks, where a node is its router), and routers are numbered in
 * mixed radix over up to SIM_MAX_DIMS dimensions, dimension 0 the most
 * significant digit, as seastar_route.h numbers the nodes of a k-ary
 * n-cube: router = (x * ky + y) * kz + z.  A pattern maps a source to a
 * destination; the random ones draw from a caller-owned sim_rng, so a run
 * is a pure function of its seed.  A packet whose destination is its own
 * source is not generated (the patterns that map a node to itself leave
 * it idle).
 *
 * The bit patterns (bit reversal, bit complement, transpose, shuffle) are
 * defined on b = ceil(log2 N) bits of the terminal number; when N is not a
 * power of two a result of N or more is reduced modulo N (so they are then
 * not permutations).  Tornado and nearest neighbour move the router in its
 * coordinates and keep the terminal's place at its router.  The group
 * shift sends every terminal of group i (shape.group consecutive
 * terminals) to a random terminal of group i + 1 (mod the groups): on a
 * dragonfly whose groups are its groups, the worst case of seed 004
 * Section 5.5.3 and of the dragonfly paper it cites.
 */
#ifndef SIM_TRAFFIC_H
#define SIM_TRAFFIC_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/** A uniform double in [0, 1) from the top 53 of the next 64 bits. */
static inline double sim_rng_unit(sim_rng *r) {
    return (double)(sim_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
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

/** Most dimensions of a sim_shape. */
#define SIM_MAX_DIMS 8

/** Traffic patterns. */
typedef enum sim_pattern {
    SIM_UNIFORM = 0,    /**< uniform random over the other nodes */
    SIM_HOTSPOT,        /**< all-to-one: every node sends to one node */
    SIM_NEIGHBOR,       /**< nearest neighbour: a random adjacent router */
    SIM_BITREV,         /**< bit reversal of the node number */
    SIM_BITCOMP,        /**< bit complement of the node number */
    SIM_TRANSPOSE,      /**< swap the two halves of the node number's bits */
    SIM_TORNADO,        /**< each coordinate + ceil(k/2) - 1 (mod k) */
    SIM_SHUFFLE,        /**< perfect shuffle: rotate the bits left by one */
    SIM_PERMUTATION,    /**< a permutation read from a file */
    SIM_GROUP_SHIFT,    /**< a random node of the next group (the dragonfly
                             worst case) */
    SIM_HOT_REGION,     /**< hot region: hot_fraction of the packets (0:
                             25%) to a random node of the sub-mesh of the
                             lower halves of the first three dimensions (from
                             the origin; 12.5% of a 3-D machine of even
                             radices), the rest uniform (seed 003 line 85) */
    SIM_PATTERN_COUNT   /**< number of patterns */
} sim_pattern;

/** Names of the patterns, as the command lines spell them. */
static inline const char *sim_pattern_name(sim_pattern p) {
    static const char *const names[SIM_PATTERN_COUNT] = {
        "uniform", "hotspot", "neighbor", "bitrev", "bitcomp",
        "transpose", "tornado", "shuffle", "perm", "groupshift", "hotregion" };
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
    int dims;                  /**< 1..SIM_MAX_DIMS */
    int radix[SIM_MAX_DIMS];   /**< routers per dimension (1 for unused ones) */
    int mesh[SIM_MAX_DIMS];    /**< non-zero: the dimension has no wrap-around link */
    uint32_t nodes;            /**< terminals: the product of the radices x conc */
    int bits;                  /**< ceil(log2 nodes) */
    uint32_t conc;             /**< terminals per router */
    uint32_t group;            /**< terminals per group (SIM_GROUP_SHIFT; nodes
                                    by default: one group) */
} sim_shape;

/** Fill a shape of conc terminals per router; unused dimensions get radix
 *  1.  mesh may be NULL (every dimension a torus). */
static inline void sim_shape_init_conc(sim_shape *s, int dims, const int *radix, const int *mesh,
                                       uint32_t conc) {
    int d;
    s->dims = dims;
    s->conc = conc;
    s->nodes = conc;
    for (d = 0; d < SIM_MAX_DIMS; d++) {
        s->radix[d] = d < dims ? radix[d] : 1;
        s->mesh[d] = d < dims && mesh != NULL ? mesh[d] : 0;
        s->nodes *= (uint32_t)s->radix[d];
    }
    s->group = s->nodes;
    s->bits = 0;
    while (s->bits < 32 && ((uint64_t)1 << s->bits) < s->nodes) s->bits++;
}

/** Fill a shape of one terminal per router (a node is its router). */
static inline void sim_shape_init(sim_shape *s, int dims, const int *radix, const int *mesh) {
    sim_shape_init_conc(s, dims, radix, mesh, 1);
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
    double hot_fraction;    /**< SIM_HOT_REGION: share of the packets sent
                                 into the region (0: 0.25) */
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

/** Coordinates of a router (c[0] the most significant; dims entries). */
static inline void sim_coords(const sim_shape *s, uint32_t router, int *c) {
    int d;
    for (d = s->dims - 1; d > 0; d--) {
        c[d] = (int)(router % (uint32_t)s->radix[d]);
        router /= (uint32_t)s->radix[d];
    }
    c[0] = (int)router;
}

/** Router of coordinates (dims entries). */
static inline uint32_t sim_node(const sim_shape *s, const int *c) {
    uint32_t r = (uint32_t)c[0];
    int d;
    for (d = 1; d < s->dims; d++) r = r * (uint32_t)s->radix[d] + (uint32_t)c[d];
    return r;
}

/* The j-th neighbour of router src (dimension 0 first, - before +, over
 * the links that exist); with j = -1, the number of neighbours. */
static inline uint32_t sim__neighbor_at(const sim_shape *s, uint32_t src, int j) {
    int c[SIM_MAX_DIMS], n = 0, d, dir;
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
            if (n++ == j) { c[d] = x; return sim_node(s, c); }
        }
    }
    return (uint32_t)n;
}

/** A random neighbour of router src (over the links that exist); src if
 *  none. */
static inline uint32_t sim_neighbor(const sim_shape *s, uint32_t src, sim_rng *rng) {
    uint32_t n = sim__neighbor_at(s, src, -1);
    if (n == 0) return src;
    return sim__neighbor_at(s, src, (int)sim_rng_below(rng, n));
}

/** Destination of a packet from src under the traffic's pattern. */
static inline uint32_t sim_traffic_dest(const sim_traffic *t, const sim_shape *s,
                                        uint32_t src, sim_rng *rng) {
    uint32_t n = s->nodes, d = src, mask = (s->bits >= 32) ? 0xFFFFFFFFu : ((1u << s->bits) - 1u);
    uint32_t router = src / s->conc, local = src % s->conc;
    int b = s->bits, i, c[SIM_MAX_DIMS];
    switch (t->pattern) {
    case SIM_UNIFORM:
        if (n < 2) return src;
        d = sim_rng_below(rng, n - 1);
        return d >= src ? d + 1 : d;
    case SIM_HOTSPOT: return t->hotspot;
    case SIM_NEIGHBOR: return sim_neighbor(s, router, rng) * s->conc + local;
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
        sim_coords(s, router, c);
        for (i = 0; i < s->dims; i++) {
            int k = s->radix[i];
            c[i] = (c[i] + (k + 1) / 2 - 1) % k;
        }
        return sim_node(s, c) * s->conc + local;
    case SIM_SHUFFLE:
        d = b ? (((src << 1) | (src >> (b - 1))) & mask) : src;
        break;
    case SIM_PERMUTATION: return t->perm ? t->perm[src] : src;
    case SIM_HOT_REGION: {
        double f = t->hot_fraction > 0 ? t->hot_fraction : 0.25;
        if (sim_rng_unit(rng) < f) {
            sim_coords(s, router, c);
            for (i = 0; i < s->dims; i++) {
                int k = s->radix[i], half = i < 3 && k > 1 ? k / 2 : k;
                c[i] = (int)sim_rng_below(rng, (uint32_t)half);
            }
            return sim_node(s, c) * s->conc + sim_rng_below(rng, s->conc);
        }
        if (n < 2) return src;
        d = sim_rng_below(rng, n - 1);
        return d >= src ? d + 1 : d;
    }
    case SIM_GROUP_SHIFT: {
        uint32_t g = src / s->group, groups = n / s->group;
        return (g + 1 == groups ? 0 : g + 1) * s->group + sim_rng_below(rng, s->group);
    }
    default: return src;
    }
    return d % n;
}

/** All-to-all groups (sim_alltoall_dest): the whole machine, a plane
 *  (dimensions 0 and 1 vary, the others are the source's), a line
 *  (dimension 0 varies): MPI AlltoAll and the transposes of a 3-D FFT
 *  (seed 003 line 89). */
enum { SIM_A2A_ALL = 0, SIM_A2A_PLANE, SIM_A2A_LINE, SIM_A2A_COUNT };

/* The dimensions an all-to-all group spans. */
static inline int sim__a2a_dims(const sim_shape *s, int scope) {
    return scope == SIM_A2A_LINE ? 1 : scope == SIM_A2A_PLANE ? (s->dims < 2 ? s->dims : 2) : s->dims;
}

/** Terminals of a node's all-to-all group (itself included). */
static inline uint32_t sim_alltoall_size(const sim_shape *s, int scope) {
    uint32_t n = s->conc;
    int d;
    for (d = 0; d < sim__a2a_dims(s, scope); d++) n *= (uint32_t)s->radix[d];
    return n;
}

/** The destination of src's j-th message of an all-to-all (j = 1 ..
 *  sim_alltoall_size - 1): the member j places after src in the group's
 *  order, wrapping (rank i sends to i+1, i+2, ...). */
static inline uint32_t sim_alltoall_dest(const sim_shape *s, int scope, uint32_t src, uint32_t j) {
    int c[SIM_MAX_DIMS], d, g = sim__a2a_dims(s, scope);
    uint32_t size = sim_alltoall_size(s, scope), rank = src % s->conc, mul = s->conc, local;
    sim_coords(s, src / s->conc, c);
    for (d = g - 1; d >= 0; d--) { rank += (uint32_t)c[d] * mul; mul *= (uint32_t)s->radix[d]; }
    rank = (rank + j) % size;
    local = rank % s->conc;
    rank /= s->conc;
    for (d = g - 1; d >= 0; d--) { c[d] = (int)(rank % (uint32_t)s->radix[d]); rank /= (uint32_t)s->radix[d]; }
    return sim_node(s, c) * s->conc + local;
}

/** What a bit pattern does on `nodes` terminals that are not a power of
 *  two (the header's definition: results of N or more taken modulo N), as
 *  one sentence in buf for a program to print before its run: how many
 *  terminals map to themselves and send nothing, so what fraction of the
 *  offered load is generated, and how many sources the busiest
 *  destination has.  Returns 0 (buf untouched) for the other patterns and
 *  for a power of two, where the bit patterns are permutations. */
static inline int sim_traffic_note(const sim_traffic *t, uint32_t nodes, char *buf, size_t size) {
    sim_shape s;
    uint32_t src, idle = 0, most = 0, *into;
    int dims = 1, radix = 1;
    if ((t->pattern != SIM_BITREV && t->pattern != SIM_BITCOMP && t->pattern != SIM_TRANSPOSE &&
         t->pattern != SIM_SHUFFLE) || nodes < 2 || (nodes & (nodes - 1)) == 0)
        return 0;
    /* the bit patterns read only the terminal count and its bits */
    sim_shape_init_conc(&s, dims, &radix, NULL, nodes);
    into = (uint32_t *)calloc(nodes, sizeof *into);
    if (into == NULL) return 0;
    for (src = 0; src < nodes; src++) {
        uint32_t d = sim_traffic_dest(t, &s, src, NULL);
        if (d == src) idle++;
        else if (++into[d] > most) most = into[d];
    }
    free(into);
    snprintf(buf, size,
             "--pattern %s on %u terminals (not a power of two) takes destinations of %u and more modulo %u, "
             "so it is not a permutation: %u terminals map to themselves and send nothing (%.3f of the offered "
             "load is generated), and the busiest destination has %u sources",
             sim_pattern_name(t->pattern), nodes, nodes, nodes, idle, (double)(nodes - idle) / nodes, most);
    return 1;
}

/** The destination of the packet node src creates now, once the arrival
 *  process has said it creates one (the second half of sim_traffic_draw):
 *  SIM_NIL if its queue holds src_queue_max packets (*queued is read only
 *  then) or the pattern maps it to itself. */
static inline uint32_t sim_traffic_pick(const sim_traffic *t, const sim_shape *s, uint32_t src,
                                        sim_rng *rng, const uint32_t *queued) {
    uint32_t dst;
    if (t->src_queue_max && *queued >= t->src_queue_max) return SIM_NIL;
    dst = sim_traffic_dest(t, s, src, rng);
    return dst == src ? SIM_NIL : dst;
}

/** The Bernoulli draw of source src for one cycle, then its destination:
 *  the destination of the packet src generates now, or SIM_NIL when it
 *  generates none (the draw failed, its queue holds src_queue_max packets
 *  -- *queued is read only then -- or the pattern maps it to itself).
 *  The draws a generated packet then needs come from sim_traffic_size. */
static inline uint32_t sim_traffic_draw(const sim_traffic *t, const sim_shape *s, uint32_t src,
                                        sim_rng *rng, uint64_t threshold, const uint32_t *queued) {
    if (sim_rng_next(rng) >= threshold) return SIM_NIL;
    return sim_traffic_pick(t, s, src, rng, queued);
}

/** The number of failed trials before the next success of a Bernoulli
 *  process whose trials succeed with probability threshold / 2^64 (the
 *  threshold of sim_bernoulli_threshold): a geometric variate drawn by
 *  inversion from one draw, floor(ln U / ln(1 - p)) with U uniform on
 *  (0, 1].  log1m_p is ln(1 - p) (sim_geometric_log1m); a threshold of
 *  2^64 - 1 gives 0 always, and gaps beyond 2^62 are clamped there.  One
 *  draw per success instead of one per trial: the same process as
 *  sim_traffic_draw's, on another random stream.  threshold > 0. */
static inline uint64_t sim_geometric_gap(sim_rng *rng, double log1m_p) {
    double u = (double)((sim_rng_next(rng) >> 11) + 1) * (1.0 / 9007199254740992.0), k;
    if (!(log1m_p < 0.0)) return 0;
    k = floor(log(u) / log1m_p);
    return k >= 4611686018427387904.0 ? (uint64_t)4611686018427387904ull : (uint64_t)k;
}

/** ln(1 - p) for sim_geometric_gap, p = threshold / 2^64 (0 for a
 *  threshold of 2^64 - 1, which succeeds on every trial). */
static inline double sim_geometric_log1m(uint64_t threshold) {
    if (threshold == ~(uint64_t)0) return 0.0;
    return log1p(-(double)threshold * (1.0 / 18446744073709551616.0));
}

/** The size in flits of a packet sim_traffic_draw generated, drawn
 *  uniformly from the traffic's sizes; *rsp receives whether it is in the
 *  response class (drawn only when rsp_fraction is above 0). */
static inline int sim_traffic_size(const sim_traffic *t, sim_rng *rng, int *rsp) {
    int size = t->num_sizes == 1 ? t->sizes[0] : t->sizes[sim_rng_below(rng, (uint32_t)t->num_sizes)];
    *rsp = t->rsp_fraction > 0 && sim_rng_unit(rng) < t->rsp_fraction;
    return size;
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
