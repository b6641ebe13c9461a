/* SPDX-License-Identifier: MIT */
/* sim_jobs.h - application workloads for the SeaStar simulator: jobs that
 * exchange messages in barrier-synchronised phases (example code, not the
 * installed library).
 *
 * Seed 000 measured Table 5 "on a machine running a mix of production jobs
 * over a period of several days" and Table 6 on three communication-
 * intensive benchmarks (MPI-FFTE, MPI Alltoall, MPI Allreduce), and notes
 * that for synchronised communication "performance is optimized by
 * minimizing the maximum time for a processor to reach the barrier".  This
 * file models that setting:
 *
 *   - A job owns a contiguous range of node IDs (NIDs), as the machine's
 *     scheduler hands them out; rank i of a job runs on the job's i-th NID.
 *     How NIDs map to torus coordinates is the caller's (sj_place_nids).
 *   - A job repeats a program of phases.  A communication phase is a
 *     sequence of steps; in each step a rank sends one message (`packets`
 *     9-flit packets) to each of its peers and waits for the messages its
 *     peers send it.  A rank starts its next step when its own packets of
 *     the step have been delivered and it has received all it expects
 *     (the way an MPI send-receive pair completes); the phase ends when its
 *     last rank has finished, so its time is set by the slowest packet, and
 *     all ranks start the next phase together (an ideal barrier: it costs
 *     no network traffic).  A compute phase idles for a fixed time.
 *   - Phases: nearest-neighbour halo exchange on the job's 3-D rank grid
 *     (one step, up to 6 peers); allreduce by recursive doubling (log2 P
 *     exchange steps between ranks i and i XOR 2^s, with one step before
 *     and after for the ranks beyond the largest power of two); all-to-all
 *     by pairwise exchange (step s: send to i XOR s when the group size is
 *     a power of two, else to i + s, receiving from i - s; a phase may take
 *     an evenly spread sample of the steps); the row and column transposes
 *     of a 2-D FFT as all-to-alls within the rows and within the columns of
 *     a rows x cols rank grid.
 *   - Each step of each rank starts after a random software delay of 0 to
 *     `jitter` cycles, the only randomness of a benchmark run; a
 *     production mix also draws its jobs from the seed (sj_mix).
 *
 * The model talks to a network only through two calls: it asks the caller
 * to send a packet (sj_model.send, with a tag naming the step) and the
 * caller tells it when a packet has been delivered (sj_delivered).
 *
 * The programs that run workloads (seastar_sim, netsim) share their
 * command line (SJ_CLI_OPTIONS, sj_opts_read, sj_opts_check: --workload
 * and its companions) and the run itself (sj_run: a production mix for a
 * warm-up and a measured window, or one benchmark job until its timed
 * iterations are done), through a small interface to the network
 * (sj_network).
 */
#ifndef SIM_JOBS_H
#define SIM_JOBS_H

#include <stdint.h>
#include <string.h>
#include "sim_pool.h"
#include "sim_traffic.h"
#include "sim_progress.h"
#include "cli.h"

/** Phase kinds. */
enum { SJ_HALO, SJ_ALLTOALL, SJ_ALLREDUCE, SJ_ROW_A2A, SJ_COL_A2A, SJ_COMPUTE, SJ_KINDS };

/** Name of a phase kind. */
static inline const char *sj_kind_name(int k) {
    static const char *const n[SJ_KINDS] = { "halo", "alltoall", "allreduce", "row_transpose",
                                             "column_transpose", "compute" };
    return k >= 0 && k < SJ_KINDS ? n[k] : "?";
}

/** One phase of a job's program. */
typedef struct sj_phase {
    int kind;          /**< SJ_HALO ... SJ_COMPUTE */
    int packets;       /**< packets per message (communication phases) */
    uint32_t cycles;   /**< SJ_COMPUTE: idle cycles */
    uint32_t sample;   /**< all-to-all kinds: steps taken, evenly spread
                            over the G-1 of a group of G (0: all) */
} sj_phase;

/** Largest program. */
#define SJ_MAX_PHASES 8
/** Most jobs of a model. */
#define SJ_MAX_JOBS 256
/** Iteration end times kept per job (sj_job.t_iter). */
#define SJ_MAX_ITER 64

/** Statistics of the phases of one kind. */
typedef struct sj_kind_stats {
    uint64_t count;    /**< phases completed */
    double sum, sumsq; /**< of their times, cycles */
    uint64_t max;      /**< longest */
} sj_kind_stats;

/** A job. */
typedef struct sj_job {
    uint32_t first;         /**< its first rank (index into sj_model.rank) */
    uint32_t ranks;         /**< ranks, one per node */
    int grid[3];            /**< halo rank grid: rank = x + gx (y + gy z) */
    int rows, cols;         /**< transposes: rank = row * cols + col */
    int type;               /**< the program type (sj_mix) or -1 */
    int nphases;            /**< entries of prog */
    sj_phase prog[SJ_MAX_PHASES]; /**< one iteration */
    /* state */
    int phase;              /**< the phase running */
    uint32_t nsteps;        /**< its steps */
    uint32_t done;          /**< ranks that finished it */
    uint64_t t_start;       /**< cycle it started */
    uint32_t max_steps;     /**< steps of the longest phase of prog */
    uint16_t *recv;         /**< packets received: [local rank][step] */
    uint64_t iterations;    /**< passes over prog completed */
    uint64_t t_iter[SJ_MAX_ITER]; /**< cycle each of the first passes ended */
} sj_job;

/** A rank. */
typedef struct sj_rank {
    uint32_t node;          /**< its node in the network */
    uint32_t job;           /**< its job */
    uint32_t step;          /**< its current step */
    uint32_t sends_out;     /**< its packets of the step not yet delivered */
    uint32_t expect;        /**< packets it expects in the step */
    uint8_t issued;         /**< it has sent the step's packets */
} sj_rank;

/** A pending action: a rank's next step, or the end of a compute phase. */
typedef struct sj_event { uint64_t t; uint32_t who; } sj_event;
/** sj_event.who of a job's timer (the job number in the low bits). */
#define SJ_TIMER 0x80000000u

/** The send call: queue one packet of `size` flits from node src to node
 *  dst, carrying tag, now. */
typedef void (*sj_send_fn)(void *ctx, uint32_t src, uint32_t dst, int size, uint32_t tag);

/** A workload. */
typedef struct sj_model {
    uint32_t nodes;          /**< nodes of the network */
    uint32_t *nid_node;      /**< node of each NID (sj_place_nids) */
    int32_t *node_rank;      /**< rank on each node, or -1 (idle) */
    sj_rank *rank;           /**< all ranks, job by job */
    uint32_t nranks;
    sj_job job[SJ_MAX_JOBS];
    int njobs;
    uint32_t jitter;         /**< largest software delay before a step */
    int packet_flits;        /**< flits per packet (9) */
    sim_rng rng;
    sj_event *heap;          /**< pending actions, a binary min-heap */
    uint32_t nheap, capheap;
    sj_send_fn send;
    void *ctx;
    uint64_t window_start;   /**< phases starting from here are counted */
    sj_kind_stats stats[SJ_KINDS];
    uint64_t packets_sent;
} sj_model;

/* ---- heap ------------------------------------------------------------ */

static inline void sj__push(sj_model *m, uint64_t t, uint32_t who) {
    uint32_t i;
    if (m->nheap == m->capheap) {
        uint32_t nc = m->capheap ? 2 * m->capheap : 1024;
        sj_event *h = (sj_event *)sim_calloc(nc, sizeof(sj_event));
        if (m->nheap) memcpy(h, m->heap, m->nheap * sizeof(sj_event));
        free(m->heap);
        m->heap = h;
        m->capheap = nc;
    }
    i = m->nheap++;
    /* ties in time keep the order of who, so runs do not depend on the
     * heap's internal layout */
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (m->heap[p].t < t || (m->heap[p].t == t && m->heap[p].who < who)) break;
        m->heap[i] = m->heap[p];
        i = p;
    }
    m->heap[i].t = t;
    m->heap[i].who = who;
}

static inline sj_event sj__pop(sj_model *m) {
    sj_event top = m->heap[0], last = m->heap[--m->nheap];
    uint32_t i = 0, n = m->nheap;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && (m->heap[c + 1].t < m->heap[c].t ||
                          (m->heap[c + 1].t == m->heap[c].t && m->heap[c + 1].who < m->heap[c].who))) c++;
        if (last.t < m->heap[c].t || (last.t == m->heap[c].t && last.who < m->heap[c].who)) break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n) m->heap[i] = last;
    return top;
}

/* ---- set-up ------------------------------------------------------------ */

/** Start an empty model of `nodes` nodes; NIDs are node numbers until
 *  sj_place_nids says otherwise. */
static inline void sj_init(sj_model *m, uint32_t nodes, uint64_t seed, uint32_t jitter) {
    uint32_t i;
    memset(m, 0, sizeof *m);
    m->nodes = nodes;
    m->nid_node = (uint32_t *)sim_calloc(nodes, sizeof(uint32_t));
    m->node_rank = (int32_t *)sim_calloc(nodes, sizeof(int32_t));
    m->rank = (sj_rank *)sim_calloc(nodes, sizeof(sj_rank));
    for (i = 0; i < nodes; i++) { m->nid_node[i] = i; m->node_rank[i] = -1; }
    m->jitter = jitter;
    m->packet_flits = 9;
    sim_rng_seed(&m->rng, seed * 0x9E3779B97F4A7C15ull + 0x5EA57A2ull);
}

/** Number the nodes of a network of shape s: with x_first the NIDs run
 *  through x first (NID = x + kx (y + ky z)), else through z first (NID =
 *  the simulator's node number, (x ky + y) kz + z).  Call before adding
 *  jobs. */
static inline void sj_place_nids(sj_model *m, const sim_shape *s, int x_first) {
    uint32_t nid;
    for (nid = 0; nid < m->nodes; nid++) {
        int c[SIM_MAX_DIMS] = { 0 };
        if (x_first) {
            uint32_t v = nid;
            c[0] = (int)(v % (uint32_t)s->radix[0]); v /= (uint32_t)s->radix[0];
            c[1] = (int)(v % (uint32_t)s->radix[1]);
            c[2] = (int)(v / (uint32_t)s->radix[1]);
            m->nid_node[nid] = sim_node(s, c);
        } else m->nid_node[nid] = nid;
    }
}

/** Scatter the NIDs of a long-running machine: cut the NID order made by
 *  sj_place_nids into runs of `chunk` consecutive NIDs and deal the runs
 *  out in a random order drawn from seed (the order of the last, shorter
 *  run included), so that a job's contiguous NID range covers runs spread
 *  over the machine, as the free nodes of a machine that has run jobs for
 *  days are.  Seed 000 says only that Table 5 ran "a mix of production
 *  jobs over a period of several days"; the run length is the model's
 *  knob for how far a job's traffic leaves its x rows.  chunk 0 (or at
 *  least the node count) keeps the order.  Uses its own random stream, so
 *  the jobs sj_mix draws do not change.  Call after sj_place_nids and
 *  before adding jobs. */
static inline void sj_scatter_nids(sj_model *m, uint32_t chunk, uint64_t seed) {
    uint32_t runs, r, i, k = 0, *perm, *old;
    sim_rng rng;
    if (chunk == 0 || chunk >= m->nodes) return;
    runs = (m->nodes + chunk - 1) / chunk;
    perm = (uint32_t *)sim_calloc(runs, sizeof(uint32_t));
    old = (uint32_t *)sim_calloc(m->nodes, sizeof(uint32_t));
    memcpy(old, m->nid_node, m->nodes * sizeof(uint32_t));
    for (r = 0; r < runs; r++) perm[r] = r;
    sim_rng_stream(&rng, seed, 0x5CA7u);
    for (r = runs - 1; r > 0; r--) {             /* Fisher-Yates */
        uint32_t j = sim_rng_below(&rng, r + 1), t = perm[r];
        perm[r] = perm[j]; perm[j] = t;
    }
    for (r = 0; r < runs; r++)
        for (i = perm[r] * chunk; i < m->nodes && i < (perm[r] + 1) * chunk; i++) m->nid_node[k++] = old[i];
    free(perm);
    free(old);
}

/* The most nearly cubic grid of p ranks (largest factor first). */
static inline void sj__grid(uint32_t p, int *g) {
    uint32_t a, b, best = 0xFFFFFFFFu;
    g[0] = (int)p; g[1] = g[2] = 1;
    for (a = 1; a * a * a <= p; a++) {
        if (p % a) continue;
        for (b = a; a * b * b <= p; b++) {
            uint32_t c;
            if ((p / a) % b) continue;
            c = p / a / b;
            if (c - a < best) { best = c - a; g[0] = (int)c; g[1] = (int)b; g[2] = (int)a; }
        }
    }
}

/* Steps of a phase for job j. */
static inline uint32_t sj__steps(const sj_job *j, const sj_phase *ph) {
    uint32_t g, p2 = 1;
    switch (ph->kind) {
    case SJ_HALO: return 1;
    case SJ_ALLREDUCE: {
        uint32_t l = 0;
        while (p2 * 2 <= j->ranks) { p2 *= 2; l++; }
        return l + (p2 < j->ranks ? 2u : 0u);
    }
    case SJ_ALLTOALL: g = j->ranks; break;
    case SJ_ROW_A2A: g = (uint32_t)j->cols; break;
    case SJ_COL_A2A: g = (uint32_t)j->rows; break;
    default: return 0;
    }
    if (g < 2) return 0;
    return ph->sample && ph->sample < g - 1 ? ph->sample : g - 1;
}

/** Add a job of `ranks` ranks on the next `ranks` NIDs, running prog
 *  (nphases phases) over and over.  Returns the job number or -1 when
 *  the nodes or the job table are exhausted. */
static inline int sj_add_job(sj_model *m, uint32_t ranks, const sj_phase *prog, int nphases) {
    sj_job *j;
    uint32_t i, r;
    int k;
    if (m->njobs >= SJ_MAX_JOBS || ranks == 0 || ranks > m->nodes - m->nranks ||
        nphases < 1 || nphases > SJ_MAX_PHASES) return -1;
    j = &m->job[m->njobs];
    memset(j, 0, sizeof *j);
    j->first = m->nranks;
    j->ranks = ranks;
    j->type = -1;
    sj__grid(ranks, j->grid);
    /* transposes: the most nearly square rows x cols grid */
    for (r = 1; r * r <= ranks; r++) if (ranks % r == 0) j->rows = (int)r;
    j->cols = (int)(ranks / (uint32_t)j->rows);
    j->nphases = nphases;
    memcpy(j->prog, prog, (size_t)nphases * sizeof(sj_phase));
    for (k = 0; k < nphases; k++) {
        uint32_t s = sj__steps(j, &prog[k]);
        if (s > j->max_steps) j->max_steps = s;
    }
    j->recv = (uint16_t *)sim_calloc((size_t)ranks * (j->max_steps ? j->max_steps : 1), sizeof(uint16_t));
    for (i = 0; i < ranks; i++) {
        sj_rank *rk = &m->rank[m->nranks + i];
        memset(rk, 0, sizeof *rk);
        rk->node = m->nid_node[m->nranks + i];
        rk->job = (uint32_t)m->njobs;
        m->node_rank[rk->node] = (int32_t)(m->nranks + i);
    }
    m->nranks += ranks;
    return m->njobs++;
}

/** Free a model's memory. */
static inline void sj_free(sj_model *m) {
    int k;
    for (k = 0; k < m->njobs; k++) free(m->job[k].recv);
    free(m->nid_node); free(m->node_rank); free(m->rank); free(m->heap);
    memset(m, 0, sizeof *m);
}

/* ---- the steps --------------------------------------------------------- */

/* Peers rank i (local to job j) sends to in step s of phase ph (into
 * dst[], local ranks, at most 6) and the number of messages it receives. */
static inline int sj__peers(const sj_job *j, const sj_phase *ph, uint32_t i, uint32_t s,
                            uint32_t *dst, uint32_t *recv_msgs) {
    int n = 0;
    *recv_msgs = 0;
    switch (ph->kind) {
    case SJ_HALO: {
        int c[3], d, dir, k;
        c[0] = (int)(i % (uint32_t)j->grid[0]);
        c[1] = (int)(i / (uint32_t)j->grid[0] % (uint32_t)j->grid[1]);
        c[2] = (int)(i / (uint32_t)j->grid[0] / (uint32_t)j->grid[1]);
        for (d = 0; d < 3; d++) {
            if (j->grid[d] < 2) continue;
            for (dir = -1; dir <= 1; dir += 2) {
                int e[3];
                uint32_t q;
                memcpy(e, c, sizeof e);
                e[d] = (e[d] + dir + j->grid[d]) % j->grid[d];
                q = (uint32_t)(e[0] + j->grid[0] * (e[1] + j->grid[1] * e[2]));
                for (k = 0; k < n && dst[k] != q; k++) {}
                if (k == n) dst[n++] = q;        /* a grid of 2: one peer */
            }
        }
        *recv_msgs = (uint32_t)n;              /* the relation is symmetric */
        return n;
    }
    case SJ_ALLREDUCE: {
        uint32_t p2 = 1, l = 0, extra;
        while (p2 * 2 <= j->ranks) { p2 *= 2; l++; }
        extra = j->ranks - p2;
        if (extra) {
            if (s == 0) {                       /* the extra ranks hand in */
                if (i >= p2) dst[n++] = i - p2;
                else if (i < extra) *recv_msgs = 1;
                return n;
            }
            if (s == l + 1) {                   /* and get the result back */
                if (i < extra) dst[n++] = i + p2;
                else if (i >= p2) *recv_msgs = 1;
                return n;
            }
            s--;
        }
        if (i < p2) { dst[n++] = i ^ (1u << s); *recv_msgs = 1; }
        return n;
    }
    case SJ_ALLTOALL: case SJ_ROW_A2A: case SJ_COL_A2A: {
        uint32_t g, me, base = 0, stride = 1, total, off, to;
        if (ph->kind == SJ_ALLTOALL) { g = j->ranks; me = i; }
        else if (ph->kind == SJ_ROW_A2A) { g = (uint32_t)j->cols; me = i % g; base = i - me; }
        else { g = (uint32_t)j->rows; stride = (uint32_t)j->cols; me = i / stride; base = i % stride; }
        total = g - 1;
        off = ph->sample && ph->sample < total ? 1 + (uint32_t)((uint64_t)s * total / ph->sample) : s + 1;
        if ((g & (g - 1)) == 0) to = me ^ off;
        else to = (me + off) % g;
        dst[n++] = base + to * stride;
        *recv_msgs = 1;
        return n;
    }
    default: return 0;
    }
}

static inline void sj__phase_start(sj_model *m, int jn, uint64_t now);

/* Whether rank r can finish its step; if so move it on (and on until it
 * cannot), ending the phase when it is the last. */
static inline void sj__advance(sj_model *m, uint32_t r, uint64_t now) {
    sj_rank *k = &m->rank[r];
    sj_job *j = &m->job[k->job];
    uint32_t local = r - j->first;
    if (k->step >= j->nsteps || !k->issued || k->sends_out) return;
    if (j->recv[(size_t)local * j->max_steps + k->step] < k->expect) return;
    k->step++;
    k->issued = 0;
    if (k->step == j->nsteps) {
        if (++j->done == j->ranks) {
            const sj_phase *ph = &j->prog[j->phase];
            if (j->t_start >= m->window_start) {
                sj_kind_stats *st = &m->stats[ph->kind];
                double t = (double)(now - j->t_start);
                st->count++;
                st->sum += t;
                st->sumsq += t * t;
                if (now - j->t_start > st->max) st->max = now - j->t_start;
            }
            sj__phase_start(m, (int)k->job, now);
        }
        return;
    }
    sj__push(m, now + 1 + (m->jitter ? sim_rng_below(&m->rng, m->jitter + 1) : 0), r);
}

/* Start job jn's next phase at cycle now (the barrier after the last). */
static inline void sj__phase_begin(sj_model *m, int jn, uint64_t now) {
    sj_job *j = &m->job[jn];
    const sj_phase *ph = &j->prog[j->phase];
    uint32_t i;
    j->t_start = now;
    j->done = 0;
    if (ph->kind == SJ_COMPUTE) {
        j->nsteps = 0;
        sj__push(m, now + (ph->cycles ? ph->cycles : 1), SJ_TIMER | (uint32_t)jn);
        return;
    }
    j->nsteps = sj__steps(j, ph);
    if (j->nsteps == 0) {                     /* nothing to exchange */
        sj__push(m, now + 1, SJ_TIMER | (uint32_t)jn);
        return;
    }
    memset(j->recv, 0, (size_t)j->ranks * j->max_steps * sizeof(uint16_t));
    for (i = 0; i < j->ranks; i++) {
        sj_rank *k = &m->rank[j->first + i];
        k->step = 0;
        k->issued = 0;
        k->sends_out = 0;
        sj__push(m, now + 1 + (m->jitter ? sim_rng_below(&m->rng, m->jitter + 1) : 0), j->first + i);
    }
}

/* The phase of job jn has ended at now: go on with the next. */
static inline void sj__phase_start(sj_model *m, int jn, uint64_t now) {
    sj_job *j = &m->job[jn];
    if (++j->phase == j->nphases) {
        j->phase = 0;
        if (j->iterations < SJ_MAX_ITER) j->t_iter[j->iterations] = now;
        j->iterations++;
    }
    sj__phase_begin(m, jn, now);
}

/* Rank r sends the packets of its current step. */
static inline void sj__issue(sj_model *m, uint32_t r, uint64_t now) {
    sj_rank *k = &m->rank[r];
    sj_job *j = &m->job[k->job];
    const sj_phase *ph = &j->prog[j->phase];
    uint32_t dst[6], recv_msgs, local = r - j->first;
    int n = sj__peers(j, ph, local, k->step, dst, &recv_msgs), p, d;
    k->expect = recv_msgs * (uint32_t)ph->packets;
    k->issued = 1;
    for (p = 0; p < ph->packets; p++)
        for (d = 0; d < n; d++) {
            k->sends_out++;
            m->packets_sent++;
            m->send(m->ctx, k->node, m->rank[j->first + dst[d]].node, m->packet_flits, k->step);
        }
    sj__advance(m, r, now);
}

/** Start every job at cycle now (phase 0). */
static inline void sj_start(sj_model *m, uint64_t now) {
    int k;
    for (k = 0; k < m->njobs; k++) { m->job[k].phase = 0; sj__phase_begin(m, k, now); }
}

/** Do what is due at cycle now (call once per cycle, before the network
 *  steps). */
static inline void sj_tick(sj_model *m, uint64_t now) {
    while (m->nheap && m->heap[0].t <= now) {
        sj_event e = sj__pop(m);
        if (e.who & SJ_TIMER) sj__phase_start(m, (int)(e.who & ~SJ_TIMER), now);
        else sj__issue(m, e.who, now);
    }
}

/** A packet from node src to node dst with tag has been delivered at now. */
static inline void sj_delivered(sj_model *m, uint32_t src, uint32_t dst, uint32_t tag, uint64_t now) {
    int32_t sr = m->node_rank[src], dr = m->node_rank[dst];
    sj_job *j;
    if (sr < 0 || dr < 0) sim_die("sj_delivered: a packet between nodes without ranks");
    j = &m->job[m->rank[dr].job];
    if (m->rank[sr].sends_out == 0 || tag >= j->max_steps) sim_die("sj_delivered: a packet the model did not send");
    m->rank[sr].sends_out--;
    j->recv[(size_t)((uint32_t)dr - j->first) * j->max_steps + tag]++;
    sj__advance(m, (uint32_t)sr, now);
    if (dr != sr) sj__advance(m, (uint32_t)dr, now);
}

/** Count phases from cycle now on (and forget the ones before). */
static inline void sj_window(sj_model *m, uint64_t now) {
    m->window_start = now;
    memset(m->stats, 0, sizeof m->stats);
}

/* ---- a production mix --------------------------------------------------- */

/** Parameters of a production mix (sj_mix). */
typedef struct sj_mix_params {
    uint32_t sizes[8];       /**< job sizes drawn uniformly */
    int num_sizes;
    int halo_packets;        /**< packets per halo message */
    int a2a_packets;         /**< packets per all-to-all message */
    int reduce_packets;      /**< packets per allreduce message */
    uint32_t a2a_sample;     /**< all-to-all steps taken (0: all) */
    uint32_t compute;        /**< cycles of each compute phase */
} sj_mix_params;

/** The program types of a production mix. */
enum { SJ_TYPE_STENCIL, SJ_TYPE_SPECTRAL, SJ_TYPE_MIXED, SJ_TYPES };

/** Name of a program type. */
static inline const char *sj_type_name(int t) {
    static const char *const n[SJ_TYPES] = { "stencil", "spectral", "mixed" };
    return t >= 0 && t < SJ_TYPES ? n[t] : "?";
}

/** Fill the machine with jobs in NID order: sizes drawn from mp->sizes
 *  (a draw larger than the nodes left is drawn again among the sizes
 *  that fit; nodes fewer than the smallest size stay idle), each job's
 *  program type drawn with probabilities 1/2 stencil, 1/4 spectral, 1/4
 *  mixed:
 *    stencil:  halo, compute, allreduce, compute
 *    spectral: row transpose, compute, column transpose, compute
 *    mixed:    halo, compute, all-to-all, compute, allreduce, compute
 *  Draws from the model's RNG. */
static inline void sj_mix(sj_model *m, const sj_mix_params *mp) {
    for (;;) {
        uint32_t left = m->nodes - m->nranks, fit[8], size;
        int nfit = 0, i, type, np = 0, jn;
        sj_phase prog[SJ_MAX_PHASES];
        uint64_t r;
        for (i = 0; i < mp->num_sizes; i++) if (mp->sizes[i] <= left) fit[nfit++] = mp->sizes[i];
        if (nfit == 0) return;
        size = fit[sim_rng_below(&m->rng, (uint32_t)nfit)];
        r = sim_rng_below(&m->rng, 4);
        type = r < 2 ? SJ_TYPE_STENCIL : r == 2 ? SJ_TYPE_SPECTRAL : SJ_TYPE_MIXED;
        memset(prog, 0, sizeof prog);
#define SJ__PH(k, pk) (prog[np].kind = (k), prog[np].packets = (pk), prog[np].sample = mp->a2a_sample, np++, \
                       prog[np].kind = SJ_COMPUTE, prog[np].cycles = mp->compute, np++)
        if (type == SJ_TYPE_STENCIL) { SJ__PH(SJ_HALO, mp->halo_packets); SJ__PH(SJ_ALLREDUCE, mp->reduce_packets); }
        else if (type == SJ_TYPE_SPECTRAL) { SJ__PH(SJ_ROW_A2A, mp->a2a_packets); SJ__PH(SJ_COL_A2A, mp->a2a_packets); }
        else {
            SJ__PH(SJ_HALO, mp->halo_packets);
            SJ__PH(SJ_ALLTOALL, mp->a2a_packets);
            SJ__PH(SJ_ALLREDUCE, mp->reduce_packets);
        }
#undef SJ__PH
        jn = sj_add_job(m, size, prog, np);
        if (jn < 0) return;
        m->job[jn].type = type;
    }
}

/* ---- the workload of a command line, and its run ----------------------- */

/** --workload: none, or a production mix, or one benchmark job. */
enum { SJ_WL_NONE, SJ_WL_MIX, SJ_WL_ALLTOALL, SJ_WL_ALLREDUCE, SJ_WL_FFTE, SJ_WL_COUNT };

/** Name of a --workload choice. */
static inline const char *sj_workload_name(int w) {
    static const char *const n[SJ_WL_COUNT] = { "none", "mix", "alltoall", "allreduce", "ffte" };
    return w >= 0 && w < SJ_WL_COUNT ? n[w] : "?";
}

/** What the workload options of a command line set. */
typedef struct sj_opts {
    int workload;            /**< SJ_WL_NONE .. SJ_WL_FFTE */
    int nid_x;               /**< NIDs run through x first (sj_place_nids) */
    sj_mix_params mix;       /**< mix: the jobs */
    uint32_t jitter;         /**< largest software delay before a step */
    uint32_t ranks;          /**< benchmarks: ranks */
    uint32_t sample;         /**< all-to-all steps taken (0: all) */
    int msg;                 /**< benchmarks: packets per message */
    int iterations;          /**< benchmarks: timed iterations */
} sj_opts;

/** The rows of a program's option table for the workload options (its
 *  table also needs --topo, --warmup and --cycles). */
#define SJ_CLI_OPTIONS \
    { "--workload", NULL, "NAME", CLI_CHOICE, 0, 0, 0, 0, "none|mix|alltoall|allreduce|ffte", "none", \
      "instead of --pattern: a production mix of jobs (mix), or one\n" \
      "benchmark job on --ranks nodes, timed over --iterations" }, \
    { "--nid-order", NULL, "D", CLI_CHOICE, 0, 0, 0, 0, "x|z", "x", \
      "workloads: node IDs run through x first or z first; jobs take\n" \
      "contiguous node-ID ranges" }, \
    { "--jobs", NULL, "N,N,...", CLI_INT, 1, 32768, 0, 0, "1 to 8 sizes, each 1 to 32768", "64,128,256,512", \
      "mix: job sizes, drawn uniformly" }, \
    { "--halo", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "32", "mix: packets per halo message" }, \
    { "--a2a", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "4", "mix: packets per all-to-all message" }, \
    { "--reduce", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "4", "mix: packets per allreduce message" }, \
    { "--a2a-sample", NULL, "N", CLI_INT, 0, 32767, 0, 0, NULL, "32 (mix), 64 (alltoall)", \
      "all-to-all steps taken, evenly spread (0: all)" }, \
    { "--compute", NULL, "N", CLI_INT, 1, 100000000, 0, 0, NULL, "250", "mix: cycles of each compute phase" }, \
    { "--jitter", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "32", \
      "workloads: largest random delay before each step of a rank" }, \
    { "--ranks", NULL, "N", CLI_INT, 2, 32768, 0, 0, "2 to the nodes of --topo", "2048 or the nodes", \
      "benchmarks: ranks (nodes 0..N-1 in node-ID order)" }, \
    { "--msg", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "8", "benchmarks: packets per message" }, \
    { "--iterations", NULL, "N", CLI_INT, 1, 60, 0, 0, NULL, "3", \
      "benchmarks: timed iterations (after one untimed)" }

/** The defaults of the workload options. */
static inline void sj_opts_default(sj_opts *o) {
    memset(o, 0, sizeof *o);
    o->nid_x = 1;
    o->mix.sizes[0] = 64; o->mix.sizes[1] = 128; o->mix.sizes[2] = 256; o->mix.sizes[3] = 512;
    o->mix.num_sizes = 4;
    /* A communication-heavy mix: round-robin's mean packet latency comes
     * out several times the zero-load latency, the regime of seed 000's
     * Table 5 (7,301 ns against about 500 ns for ten 50 ns hops). */
    o->mix.halo_packets = 32;
    o->mix.a2a_packets = 4;
    o->mix.reduce_packets = 4;
    o->mix.compute = 250;
    o->jitter = 32;
    o->msg = 8;
    o->iterations = 3;
}

/** Read the option just read by cli_next if it is a workload option;
 *  returns 1 if it was. */
static inline int sj_opts_read(const cli *c, sj_opts *o) {
    const char *n = c->opt->name;
    if (!strcmp(n, "--workload")) o->workload = cli_choice(c);
    else if (!strcmp(n, "--nid-order")) o->nid_x = cli_choice(c) == 0;
    else if (!strcmp(n, "--jobs")) {
        uint64_t z[8];
        int i;
        o->mix.num_sizes = cli_uint_list(c, ',', 1, 8, z);
        for (i = 0; i < o->mix.num_sizes; i++) o->mix.sizes[i] = (uint32_t)z[i];
    }
    else if (!strcmp(n, "--halo")) o->mix.halo_packets = (int)cli_uint(c);
    else if (!strcmp(n, "--a2a")) o->mix.a2a_packets = (int)cli_uint(c);
    else if (!strcmp(n, "--reduce")) o->mix.reduce_packets = (int)cli_uint(c);
    else if (!strcmp(n, "--a2a-sample")) o->sample = (uint32_t)cli_uint(c);
    else if (!strcmp(n, "--compute")) o->mix.compute = (uint32_t)cli_uint(c);
    else if (!strcmp(n, "--jitter")) o->jitter = (uint32_t)cli_uint(c);
    else if (!strcmp(n, "--ranks")) o->ranks = (uint32_t)cli_uint(c);
    else if (!strcmp(n, "--msg")) o->msg = (int)cli_uint(c);
    else if (!strcmp(n, "--iterations")) o->iterations = (int)cli_uint(c);
    else return 0;
    return 1;
}

/** After the walk: refuse what contradicts the workload (an option of
 *  another workload, or one of the program's `ntraffic` random-traffic
 *  options `traffic`, when a workload makes the traffic), and settle the
 *  defaults that depend on it and on the network's `nodes`. */
static inline void sj_opts_check(const cli *c, sj_opts *o, uint32_t nodes, const char *const *traffic, int ntraffic) {
    static const char *const mix_only[] = { "--jobs", "--halo", "--a2a", "--reduce", "--compute" };
    static const char *const bench_only[] = { "--ranks", "--msg", "--iterations" };
    size_t i;
    for (i = 0; i < sizeof mix_only / sizeof mix_only[0]; i++)
        if (cli_given(c, mix_only[i]) && o->workload != SJ_WL_MIX) cli_fail(c, "%s needs --workload mix", mix_only[i]);
    for (i = 0; i < sizeof bench_only / sizeof bench_only[0]; i++)
        if (cli_given(c, bench_only[i]) && o->workload < SJ_WL_ALLTOALL)
            cli_fail(c, "%s needs --workload alltoall, allreduce or ffte", bench_only[i]);
    if (o->workload == SJ_WL_NONE) {
        if (cli_given(c, "--nid-order") || cli_given(c, "--jitter") || cli_given(c, "--a2a-sample"))
            cli_fail(c, "--nid-order, --jitter and --a2a-sample need a --workload");
    } else
        for (i = 0; i < (size_t)ntraffic; i++)
            if (cli_given(c, traffic[i])) cli_fail(c, "--workload %s makes its own traffic: it takes no %s",
                                                   sj_workload_name(o->workload), traffic[i]);
    if (o->workload >= SJ_WL_ALLTOALL && (cli_given(c, "--warmup") || cli_given(c, "--cycles")))
        cli_fail(c, "--workload %s runs until --iterations are done: it takes no --warmup or --cycles",
                 sj_workload_name(o->workload));
    if (o->workload >= SJ_WL_ALLTOALL) {
        if (!cli_given(c, "--ranks")) o->ranks = nodes < 2048 ? nodes : 2048;
        else if (o->ranks > nodes) {
            char num[32];
            snprintf(num, sizeof num, "%u", o->ranks);
            cli_bad_value(c, "--ranks", num, "more than the %u nodes of --topo", nodes);
        }
        if (!cli_given(c, "--a2a-sample")) o->sample = 64;
    } else if (o->workload == SJ_WL_MIX && !cli_given(c, "--a2a-sample")) o->sample = 32;
    if (o->workload == SJ_WL_MIX) {
        int k, fits = 0;
        for (k = 0; k < o->mix.num_sizes; k++) fits |= o->mix.sizes[k] <= nodes;
        if (!fits) {
            char num[32];
            snprintf(num, sizeof num, "%u", o->mix.sizes[0]);
            cli_bad_value(c, "--jobs", num, "no job size fits the %u nodes of --topo", nodes);
        }
    }
    o->mix.a2a_sample = o->sample;
}

/** A guess of the cycles a benchmark run takes, for the progress lines:
 *  its steps x (serialising a message at flits_per_cycle, plus a round
 *  trip of round_trip cycles), over its 1 + iterations passes. */
static inline double sj_opts_cycles_guess(const sj_opts *o, int packet_flits, double flits_per_cycle, double round_trip) {
    sj_job j;
    sj_phase ph;
    double steps;
    memset(&j, 0, sizeof j);
    memset(&ph, 0, sizeof ph);
    j.ranks = o->ranks;
    for (j.rows = 1; (uint32_t)((j.rows + 1) * (j.rows + 1)) <= o->ranks; j.rows++) {}
    while (o->ranks % (uint32_t)j.rows) j.rows--;
    j.cols = (int)(o->ranks / (uint32_t)j.rows);
    ph.sample = o->sample;
    ph.kind = o->workload == SJ_WL_ALLTOALL ? SJ_ALLTOALL : o->workload == SJ_WL_ALLREDUCE ? SJ_ALLREDUCE : SJ_ROW_A2A;
    steps = sj__steps(&j, &ph);
    if (o->workload == SJ_WL_FFTE) { ph.kind = SJ_COL_A2A; steps += sj__steps(&j, &ph); }
    return (1.0 + o->iterations) * steps * (o->msg * packet_flits / flits_per_cycle + round_trip);
}

/** What a workload run needs of a network. */
typedef struct sj_network {
    void *ctx;                                   /**< first argument of each */
    void (*step)(void *ctx);                     /**< simulate one cycle */
    uint64_t (*now)(void *ctx);                  /**< the cycle to simulate next */
    void (*reset)(void *ctx);                    /**< start the measurement window */
    double routers;                              /**< router-cycles of a cycle */
} sj_network;

/** What a workload run reports besides the packet statistics. */
typedef struct sj_result {
    int jobs;                    /**< jobs placed */
    uint32_t ranks;              /**< nodes with a rank */
    double phase_mean[SJ_KINDS]; /**< mean time of the phases of each kind
                                      that started in the window (cycles) */
    uint64_t phase_max[SJ_KINDS];/**< the longest of them */
    uint64_t phases[SJ_KINDS];   /**< how many */
    double iter_time;            /**< benchmarks: cycles per timed iteration */
} sj_result;

/** The workload columns of a CSV line: mean phase times of halo,
 *  all-to-all, allreduce and the transposes, and the cycles per timed
 *  iteration (",0,0,0,0,0" without a workload, w NULL). */
static inline void sj_result_csv(const sj_result *w) {
    if (w) {
        double tr = w->phases[SJ_ROW_A2A] + w->phases[SJ_COL_A2A]
                  ? (w->phase_mean[SJ_ROW_A2A] * (double)w->phases[SJ_ROW_A2A] +
                     w->phase_mean[SJ_COL_A2A] * (double)w->phases[SJ_COL_A2A]) /
                    (double)(w->phases[SJ_ROW_A2A] + w->phases[SJ_COL_A2A]) : 0;
        printf(",%.1f,%.1f,%.1f,%.1f,%.1f", w->phase_mean[SJ_HALO], w->phase_mean[SJ_ALLTOALL],
               w->phase_mean[SJ_ALLREDUCE], tr, w->iter_time);
    } else printf(",0,0,0,0,0");
}

/** One line of text on a workload run: its jobs and phase times. */
static inline void sj_result_print(const sj_opts *o, const sj_result *w) {
    int q;
    printf("  %s: %d jobs on %u nodes; mean phase time (cycles):", sj_workload_name(o->workload), w->jobs, w->ranks);
    for (q = 0; q < SJ_COMPUTE; q++)
        if (w->phases[q]) printf(" %s %.0f (%llu phases, max %llu)", sj_kind_name(q), w->phase_mean[q],
                                 (unsigned long long)w->phases[q], (unsigned long long)w->phase_max[q]);
    if (o->workload >= SJ_WL_ALLTOALL) printf("; %.0f cycles per iteration", w->iter_time);
    printf("\n");
}

/** The delivery callback of a network running model ctx (an sj_model):
 *  the network's on_deliver. */
static inline void sj_on_deliver(void *ctx, const sim_packet *pk, uint64_t now) {
    sj_delivered((sj_model *)ctx, pk->src, pk->dst, pk->tag, now);
}

/** Run workload o on model m (sj_init and sj_place_nids done, m->send and
 *  the network's on_deliver wired): a mix for warmup cycles, then the
 *  window of `cycles`; a benchmark until one untimed and o->iterations
 *  timed passes are done (the window starts after the untimed one).
 *  Progress counts router-cycles (a mix) or a guess of the cycles
 *  (benchmarks, 1024 at a time).  Fills *w. */
static inline void sj_run(sj_model *m, const sj_opts *o, const sj_network *n, uint64_t warmup, uint64_t cycles,
                          sim_progress *pg, const char *label, sj_result *w) {
    int k;
    memset(w, 0, sizeof *w);
    if (o->workload == SJ_WL_MIX) {
        uint64_t c;
        sj_mix(m, &o->mix);
        sj_start(m, 0);
        for (c = 0; c < warmup + cycles; c++) {
            if (c == warmup) { n->reset(n->ctx); sj_window(m, n->now(n->ctx)); }
            sj_tick(m, n->now(n->ctx));
            n->step(n->ctx);
            sim_progress_add(pg, n->routers, label);
        }
    } else {
        sj_phase prog[2];
        int np = 0, timed = 0;
        uint64_t limit = 2000000000ull;
        memset(prog, 0, sizeof prog);
        if (o->workload == SJ_WL_ALLTOALL) { prog[0].kind = SJ_ALLTOALL; np = 1; }
        else if (o->workload == SJ_WL_ALLREDUCE) { prog[0].kind = SJ_ALLREDUCE; np = 1; }
        else { prog[0].kind = SJ_ROW_A2A; prog[1].kind = SJ_COL_A2A; np = 2; }
        for (k = 0; k < np; k++) { prog[k].packets = o->msg; prog[k].sample = o->sample; }
        if (sj_add_job(m, o->ranks, prog, np) < 0) sim_die("cannot place the benchmark job");
        sj_start(m, 0);
        while (m->job[0].iterations < (uint64_t)(1 + o->iterations)) {
            uint64_t now = n->now(n->ctx);
            if (!timed && m->job[0].iterations == 1) { n->reset(n->ctx); sj_window(m, now); timed = 1; }
            sj_tick(m, now);
            n->step(n->ctx);
            /* progress counts busy cycles in packets delivered, a guess */
            if (((now + 1) & 1023) == 0) sim_progress_add(pg, 1024.0, label);
            if (now + 1 > limit) sim_die("benchmark did not finish in 2e9 cycles");
        }
        w->iter_time = (double)(m->job[0].t_iter[o->iterations] - m->job[0].t_iter[0]) / o->iterations;
    }
    w->jobs = m->njobs;
    w->ranks = m->nranks;
    for (k = 0; k < SJ_KINDS; k++) {
        w->phases[k] = m->stats[k].count;
        w->phase_mean[k] = m->stats[k].count ? m->stats[k].sum / (double)m->stats[k].count : 0;
        w->phase_max[k] = m->stats[k].max;
    }
}

#endif /* SIM_JOBS_H */
