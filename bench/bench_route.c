/* SPDX-License-Identifier: MIT */
/* bench_route.c - seastar_route.h: time and peak memory to generate and to
 * verify all routing tables of k x k x k tori; the two fault-aware
 * generators compared on random fault sets (share of the connected pairs
 * routed, path stretch); the SeaStar rules over every single fault of
 * whole tori and over random pairs of faults.
 *
 * Usage: bench_route [--section S]... [--min-radix K] [--max-radix K]
 *                    [--generators LIST] [--sizes LIST]
 *                    [--fixed-sizes LIST] [--pairs N] [--jobs N] [--out DIR]
 *   --section S    scale, compare, single, double, prooftime, calls or all;
 *                  repeatable (default: scale and compare)
 *   --min-radix K, --max-radix K  scale: the smallest and the largest k of
 *                  the k x k x k tori, 4, 8, 16 or 32 (default 4 and 32)
 *   --generators LIST  scale: dor, search, seastar, comma-separated
 *                  (default all three)
 *   --sizes LIST   single: the tori, AxBxC[,AxBxC...], each radix 2..64
 *                  (default 4x4x4,8x8x8,11x12x16)
 *   --fixed-sizes LIST  single: the tori of --sizes also run with the
 *                  datelines left on the wrap-around links, or "none"
 *                  (default 4x4x4,8x8x8)
 *   --pairs N      double: random fault pairs on 8x8x8, 1..100000 (default 200)
 *   --jobs N       single and double: worker processes, 1..64 (default 1)
 *   --out DIR      write route_<section>.csv (and the summaries) in DIR
 *                  instead of printing to stdout
 *   --help         this text
 *
 * CSV, one row per measurement:
 *   scale, compare (one process per row, so peak_mib is its own):
 *     gen_s, gen_cpu_s        seconds (wall, CPU) to generate all tables
 *                             (median of 5 runs below 16x16x16)
 *     verify_s, verify_cpu_s  seconds for sr_verify (without the stretch,
 *                             which a second, untimed run computes)
 *     peak_mib                peak resident memory of the process
 *     proven                  1 if sr_verify proved delivery and deadlock freedom
 *     connected_pairs         ordered pairs of distinct live nodes that the
 *                             failed links and nodes leave connected
 *     routed_share            delivered pairs / connected pairs
 *     mean_stretch, max_stretch  over delivered pairs: hops / fault-free
 *                             minimal hops
 *     rounds, patched         the generator's report (search: passes over the
 *                             partitions, repaired entries; seastar: entries
 *                             its delivery check cut)
 *   compare_summary: per network and generator, over its fault sets
 *   single: per torus, the faults (every link once, every node), how many
 *     the verifier proved with every pair delivered (and the seconds that
 *     took), and for the tori of --fixed-sizes the same with the datelines
 *     left on the wrap-around links (fixed_datelines: proven with every
 *     pair delivered, deadlocked; empty for the other tori)
 *   double: per random pair of faults on 8x8x8, the verdict; a summary and
 *     the failing pairs in double_summary and double_failures
 *   prooftime: sr_verify_routing on the large instances (one process per row,
 *     so peak_mib is its own): UGAL with 3 VCs on the 1,056-terminal
 *     dragonfly (p = 4, a = 8, h = 4, g = 33), minimal adaptive routing
 *     with 3 VCs on the 16x16x16 torus, cut-through and wormhole; seconds
 *     (wall, CPU), peak memory, the scratch the size query asks for, the
 *     states, hops and dependencies explored
 *   calls: the cost of one routing call per algorithm: sr_route_candidates
 *     and sr_route_advance over 65,536 distinct (router, input, header)
 *     states per algorithm, reached by random walks from random headers at
 *     injection (ns per call: the median of 5 timings of CPU time, each
 *     over 8 passes of the inputs)
 * Progress goes to stderr.  Every value is checked; a bad one exits 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "bench.h"
#include "../seastar_route.h"

enum { GEN_DOR, GEN_SEARCH, GEN_SEASTAR };
static const char *gen_name[] = { "dor", "search", "seastar" };

static const char *usage =
    "usage: bench_route [options]\n"
    "  --section S    scale, compare, single, double, prooftime, calls or all; repeatable\n"
    "                 (default: scale, compare)\n"
    "  --min-radix K  scale: smallest k of the k x k x k tori: 4, 8, 16 or 32 (default 4)\n"
    "  --max-radix K  scale: largest k of the k x k x k tori: 4, 8, 16 or 32 (default 32)\n"
    "  --generators LIST  scale: dor, search, seastar, comma-separated (default all three)\n"
    "  --sizes LIST   single: tori AxBxC[,AxBxC...], each radix 2..64 (default 4x4x4,8x8x8,11x12x16)\n"
    "  --fixed-sizes LIST  single: the tori of --sizes also run with the datelines left on the\n"
    "                 wrap-around links, or none (default 4x4x4,8x8x8)\n"
    "  --pairs N      double: random fault pairs on 8x8x8, 1..100000 (default 200)\n"
    "  --jobs N       single, double: worker processes, 1..64 (default 1)\n"
    "  --out DIR      write DIR/route_<section>.csv (and summaries) instead of stdout\n"
    "  --help         this text\n";

static void die(const char *what, const char *value) {
    fprintf(stderr, "bench_route: %s: '%s'\n", what, value);
    exit(2);
}

/* A whole-string decimal integer in [lo, hi], or exit 2. */
static long parse_long(const char *s, long lo, long hi, const char *what) {
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) die(what, s);
    return v;
}

/* splitmix64 */
static uint64_t rng(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double cpu_now(void) { return bench_cpu_ns() * 1e-9; }

/* A generator wrote its tables: proven (SR_OK) or with its verdict
 * (SR_ERR_DEADLOCK, SR_ERR_UNDELIVERED), which the rows take from
 * sr_verify's report. */
static int gen_written(sr_result r) { return r == SR_OK || r == SR_ERR_DEADLOCK || r == SR_ERR_UNDELIVERED; }

static FILE *out_open(const char *dir, const char *name) {
    char path[4096];
    FILE *f;
    if (!dir) return stdout;
    snprintf(path, sizeof path, "%s/route_%s.csv", dir, name);
    f = fopen(path, "w");
    if (!f) { fprintf(stderr, "bench_route: cannot write %s\n", path); exit(1); }
    return f;
}

static void out_close(FILE *f) {
    if (f != stdout) fclose(f);
    else fflush(f);
}

/* Progress on stderr at most every 2 seconds. */
typedef struct progress { const char *what; double t0, last; long total; } progress;

static void progress_start(progress *p, const char *what, long total) {
    p->what = what; p->total = total; p->t0 = p->last = bench_now_ns() * 1e-9;
}

static void progress_tick(progress *p, long done) {
    double now = bench_now_ns() * 1e-9;
    if (now - p->last < 2.0 && done < p->total) return;
    p->last = now;
    fprintf(stderr, "  %s: %ld/%ld, %.1f/s, about %.0f s left\n", p->what, done, p->total,
            done / (now - p->t0 + 1e-9), done ? (now - p->t0) * (double)(p->total - done) / (double)done : 0.0);
}

/* ------------------------------------------------------------------ runs */

typedef struct job {
    const char *section;
    int k, mesh, gen, reps;
    double link_frac;     /* fraction of links failed */
    int nodes_failed;
    uint64_t seed;
} job;

/* One result row, as the child sends it to the parent. */
typedef struct row {
    double gen_s, gen_cpu, verify_s, verify_cpu, peak, share, mean_stretch, max_stretch;
    uint64_t connected;
    int proven, failure, rounds, ok;
    uint32_t failed_links;
    uint64_t patched;
} row;

static void run_job(const job *j, row *res) {
    sr_topology_desc d;
    sr_topology t;
    sr_faults f;
    sr_gen_report g;
    sr_verify_report v;
    uint32_t *fstore, u, links = 0, target, failed = 0;
    uint8_t *tab;
    size_t tsize, gsize, vsize;
    void *gs, *vs;
    double times[5], cpus[5], t0, c0;
    int r, i;
    uint64_t seed = j->seed;
    memset(&d, 0, sizeof d);
    memset(res, 0, sizeof *res);
    d.num_dims = 3;
    for (i = 0; i < 3; i++) { d.radix[i] = j->k; d.mesh[i] = j->mesh; }
    if (sr_topology_init(&t, &d) != SR_OK) exit(2);
    tsize = (size_t)t.table_size * t.num_nodes;
    tab = (uint8_t *)malloc(tsize);
    fstore = (uint32_t *)malloc(sr_faults_size(&t));
    if (!tab || !fstore || sr_faults_init(&f, &t, fstore, sr_faults_size(&t)) != SR_OK) exit(1);
    for (u = 0; u < t.num_nodes; u++)
        for (i = 0; i < 6; i += 2) links += sr_neighbor(&t, u, i) != SR_NO_NODE;
    target = (uint32_t)(j->link_frac * links + 0.5);
    while (failed < target) {
        uint32_t n = (uint32_t)(rng(&seed) % t.num_nodes);
        int p = (int)(rng(&seed) % 6);
        if (sr_next_hop(&t, &f, n, p) == SR_NO_NODE) continue;   /* absent or already failed */
        sr_fault_link(&f, &t, n, p);
        failed++;
    }
    for (i = 0; i < j->nodes_failed; i++) sr_fault_node(&f, &t, (uint32_t)(rng(&seed) % t.num_nodes));
    gsize = sr_gen_scratch_size(&t);
    gs = j->gen == GEN_DOR ? NULL : malloc(gsize);
    memset(&g, 0, sizeof g);
    for (i = 0; i < j->reps; i++) {
        if (j->k >= 16) fprintf(stderr, "    generating the tables (%zu MB)\n", tsize >> 20);
        c0 = cpu_now();
        t0 = bench_now_ns();
        if (j->gen == GEN_DOR) {
            for (u = 0; u < t.num_nodes; u++)
                sr_table_build_dor(&t, u, tab + (size_t)u * t.table_size, t.table_size);
        } else if (j->gen == GEN_SEARCH) {
            r = sr_tables_build_search(&t, &f, NULL, tab, tsize, gs, gsize, NULL, 0, &g);
            if (!gen_written(r)) exit(3);
        } else {
            r = sr_tables_build_seastar(&t, &f, tab, tsize, gs, gsize, NULL, 0, &g);
            if (!gen_written(r)) exit(3);
        }
        times[i] = (bench_now_ns() - t0) * 1e-9;
        cpus[i] = cpu_now() - c0;
    }
    res->gen_s = bench_median(times, j->reps);
    res->gen_cpu = bench_median(cpus, j->reps);
    free(gs);
    vsize = sr_verify_scratch_size(&t);
    vs = malloc(vsize);
    if (!vs) exit(1);
    if (j->k >= 16) fprintf(stderr, "    verifying (generation took %.1f s)\n", res->gen_s);
    c0 = cpu_now();
    t0 = bench_now_ns();
    if (sr_verify(&t, &f, tab, 0, vs, vsize, &v) != SR_OK) exit(4);
    res->verify_s = (bench_now_ns() - t0) * 1e-9;
    res->verify_cpu = cpu_now() - c0;
    /* the stretch costs the verifier about as much again: a second run,
     * not timed */
    if (j->k >= 16) fprintf(stderr, "    the stretch (verification took %.1f s)\n", res->verify_s);
    if (sr_verify(&t, &f, tab, SR_VERIFY_STRETCH, vs, vsize, &v) != SR_OK) exit(4);
    res->peak = bench_peak_rss_mib();
    /* the generators count the pairs the faults leave connected; the DOR
     * rows have no faults */
    res->connected = j->gen == GEN_DOR ? (uint64_t)t.num_nodes * (t.num_nodes - 1) : g.connected;
    res->proven = v.proven;
    res->failure = (int)v.failure;
    res->share = res->connected ? (double)v.delivered / (double)res->connected : 1.0;
    res->mean_stretch = v.delivered ? v.stretch_sum / (double)v.delivered : 0.0;
    res->max_stretch = v.stretch_max;
    res->rounds = g.rounds;
    res->patched = g.patched;
    res->failed_links = failed;
    res->ok = 1;
    free(vs);
    free(tab);
    free(fstore);
}

/* Run fn(arg, res) in a child, so that its peak memory is its own; the
 * result (size bytes) comes back through a pipe.  Returns 1 if the child
 * finished and sent it. */
static int in_child(void (*fn)(const void *arg, void *res), const void *arg, void *res, size_t size) {
    int fd[2], ok = 0;
    pid_t pid;
    memset(res, 0, size);
    fflush(NULL);
    if (pipe(fd) != 0) exit(1);
    pid = fork();
    if (pid == 0) {
        close(fd[0]);
        fn(arg, res);
        if (write(fd[1], res, size) != (ssize_t)size) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (pid > 0) {
        int status;
        ok = read(fd[0], res, size) == (ssize_t)size;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ok = 0;
    }
    close(fd[0]);
    return ok;
}

static void job_in_child(const void *arg, void *res) { run_job((const job *)arg, (row *)res); }

/* Run a job in a child. */
static row spawn(const job *j) {
    row res;
    if (!in_child(job_in_child, j, &res, sizeof res)) res.ok = 0;
    if (!res.ok) fprintf(stderr, "bench_route: job k=%d gen=%s failed\n", j->k, gen_name[j->gen]);
    return res;
}

static const char *run_header =
    "section,topology,nodes,failed_links,failed_nodes,generator,gen_s,gen_cpu_s,verify_s,verify_cpu_s,"
    "peak_mib,proven,failure,connected_pairs,routed_share,mean_stretch,max_stretch,rounds,patched\n";

static void print_run(FILE *o, const job *j, const row *r) {
    fprintf(o, "%s,%dx%dx%d %s,%u,%u,%d,%s,%.4f,%.4f,%.4f,%.4f,%.1f,%d,%s,%llu,%.8f,%.4f,%.3f,%d,%llu\n",
            j->section, j->k, j->k, j->k, j->mesh ? "mesh" : "torus", (unsigned)(j->k * j->k * j->k),
            r->failed_links, j->nodes_failed, gen_name[j->gen], r->gen_s, r->gen_cpu, r->verify_s,
            r->verify_cpu, r->peak, r->proven, r->proven ? "" : sr_failure_string((sr_failure)r->failure),
            (unsigned long long)r->connected, r->share, r->mean_stretch, r->max_stretch, r->rounds,
            (unsigned long long)r->patched);
    fflush(o);
}

/* scale: fault-free DOR tables, and 1% failed links with the search
 * generator and the SeaStar rules, for 4x4x4 .. max x max x max */
static void section_scale(const char *dir, int min_k, int max_k, const int *gens) {
    FILE *o = out_open(dir, "scale");
    int k, gen;
    fputs(run_header, o);
    for (k = min_k; k <= max_k; k *= 2)
        for (gen = GEN_DOR; gen <= GEN_SEASTAR; gen++) {
            job j;
            row r;
            if (!gens[gen]) continue;
            memset(&j, 0, sizeof j);
            j.section = "scale";
            j.k = k;
            j.reps = k >= 16 ? 1 : 5;
            j.seed = 1;
            j.gen = gen;
            j.link_frac = gen == GEN_DOR ? 0.0 : 0.01;
            fprintf(stderr, "  scale: %dx%dx%d %s\n", k, k, k, gen_name[gen]);
            r = spawn(&j);
            if (r.ok) print_run(o, &j, &r);
        }
    out_close(o);
}

/* compare: 8x8x8 tori and meshes, 1%, 2% and 5% failed links, with and
 * without a failed node, five seeds each; then per network and generator
 * the number of fault sets proven, the routed share (mean, lowest) and the
 * stretch (mean over the fault sets, highest) */
static void section_compare(const char *dir) {
    static const double fr[] = { 0.01, 0.02, 0.05 };
    FILE *o = out_open(dir, "compare"), *so;
    int s, m, fi, gen, n[2][3];
    double share_sum[2][3], share_min[2][3], st_sum[2][3], st_max[2][3];
    int proven[2][3];
    memset(n, 0, sizeof n); memset(share_sum, 0, sizeof share_sum); memset(st_sum, 0, sizeof st_sum);
    memset(st_max, 0, sizeof st_max); memset(proven, 0, sizeof proven);
    for (m = 0; m < 2; m++) for (gen = 0; gen < 3; gen++) share_min[m][gen] = 1.0;
    fputs(run_header, o);
    for (s = 0; s < 5; s++)
        for (m = 0; m < 2; m++)
            for (fi = 0; fi < 3; fi++)
                for (gen = GEN_SEARCH; gen <= GEN_SEASTAR; gen++) {
                    job j;
                    row r;
                    memset(&j, 0, sizeof j);
                    j.section = "compare";
                    j.k = 8;
                    j.mesh = m;
                    j.reps = 1;
                    j.link_frac = fr[fi];
                    j.nodes_failed = s % 2;
                    j.seed = 1000 + (uint64_t)s;
                    j.gen = gen;
                    r = spawn(&j);
                    if (!r.ok) continue;
                    print_run(o, &j, &r);
                    n[m][gen]++;
                    proven[m][gen] += r.proven;
                    share_sum[m][gen] += r.share;
                    if (r.share < share_min[m][gen]) share_min[m][gen] = r.share;
                    st_sum[m][gen] += r.mean_stretch;
                    if (r.max_stretch > st_max[m][gen]) st_max[m][gen] = r.max_stretch;
                }
    out_close(o);
    so = dir ? out_open(dir, "compare_summary") : stdout;
    fputs("network,generator,fault_sets,proven,routed_share_mean,routed_share_lowest,mean_stretch,"
          "max_stretch\n", so);
    for (m = 0; m < 2; m++)
        for (gen = GEN_SEARCH; gen <= GEN_SEASTAR; gen++)
            if (n[m][gen])
                fprintf(so, "8x8x8 %s,%s,%d,%d,%.6f,%.6f,%.4f,%.3f\n", m ? "mesh" : "torus", gen_name[gen],
                        n[m][gen], proven[m][gen], share_sum[m][gen] / n[m][gen], share_min[m][gen],
                        st_sum[m][gen] / n[m][gen], st_max[m][gen]);
    out_close(so);
}

/* ------------------------------------------ single and double fault sweeps */

/* A fault: a node (port -1) or the link leaving it by port. */
typedef struct fault { uint32_t node; int port; } fault;

typedef struct verdict { int proven, failure, dl_y, dl_z; uint64_t unroutable, pairs, delivered; } verdict;

/* A network kept across many fault sets. */
typedef struct net {
    sr_topology t;
    uint8_t *tab;
    size_t tsize, gsize, vsize;
    void *gs, *vs;
    uint32_t *fstore;
    sr_faults f;
} net;

static void net_open(net *n, const int *k) {
    sr_topology_desc d;
    memset(&d, 0, sizeof d);
    d.num_dims = 3;
    d.radix[0] = k[0]; d.radix[1] = k[1]; d.radix[2] = k[2];
    if (sr_topology_init(&n->t, &d) != SR_OK) exit(2);
    n->tsize = (size_t)n->t.table_size * n->t.num_nodes;
    n->gsize = sr_gen_scratch_size(&n->t);
    n->vsize = sr_verify_scratch_size(&n->t);
    n->tab = (uint8_t *)malloc(n->tsize);
    n->gs = malloc(n->gsize);
    n->vs = malloc(n->vsize);
    n->fstore = (uint32_t *)malloc(sr_faults_size(&n->t));
    if (!n->tab || !n->gs || !n->vs || !n->fstore) exit(1);
}

static void net_close(net *n) { free(n->tab); free(n->gs); free(n->vs); free(n->fstore); }

/* SeaStar tables for a fault set (options: NULL for the defaults), and the
 * verifier's verdict. */
static verdict net_check(net *n, const fault *fs, int count, const sr_seastar_options *opt) {
    sr_gen_report g;
    sr_verify_report v;
    verdict r;
    int i;
    sr_faults_init(&n->f, &n->t, n->fstore, sr_faults_size(&n->t));
    for (i = 0; i < count; i++) {
        if (fs[i].port < 0) sr_fault_node(&n->f, &n->t, fs[i].node);
        else sr_fault_link(&n->f, &n->t, fs[i].node, fs[i].port);
    }
    if (!gen_written(sr_tables_build_seastar_opt(&n->t, &n->f, opt, n->tab, n->tsize, n->gs, n->gsize, NULL, 0, &g)))
        exit(3);
    if (sr_verify(&n->t, &n->f, n->tab, 0, n->vs, n->vsize, &v) != SR_OK) exit(4);
    memset(&r, 0, sizeof r);
    r.proven = v.proven;
    r.failure = (int)v.failure;
    r.unroutable = v.unroutable;
    r.pairs = v.pairs;
    r.delivered = v.delivered;
    r.dl_y = g.dateline[1];
    r.dl_z = g.dateline[2];
    return r;
}

/* Check item i of `count` in worker processes (item i by worker i % jobs),
 * collecting the verdicts in order; `item(i, n, faults)` gives the fault
 * set of item i. */
typedef int (*item_fn)(long i, const net *n, fault *fs, void *ctx);

static void sweep(const int *k, long count, int jobs, item_fn item, void *ctx, const sr_seastar_options *opt,
                  verdict *out, const char *what) {
    int w, fds[64];
    pid_t pids[64];
    long done = 0, i;
    progress pr;
    if (jobs > count) jobs = (int)count;
    progress_start(&pr, what, count);
    fflush(NULL);
    for (w = 0; w < jobs; w++) {
        int fd[2];
        if (pipe(fd) != 0) exit(1);
        pids[w] = fork();
        if (pids[w] < 0) exit(1);
        if (pids[w] == 0) {
            net n;
            close(fd[0]);
            net_open(&n, k);
            for (i = w; i < count; i += jobs) {
                fault fs[4];
                verdict r;
                int c = item(i, &n, fs, ctx);
                r = net_check(&n, fs, c, opt);
                if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
            }
            net_close(&n);
            _exit(0);
        }
        close(fd[1]);
        fds[w] = fd[0];
    }
    /* results arrive in each worker's order; read round robin */
    for (i = 0; i < count; i++) {
        if (read(fds[i % jobs], &out[i], sizeof out[i]) != (ssize_t)sizeof out[i]) {
            fprintf(stderr, "bench_route: a worker failed\n");
            exit(1);
        }
        progress_tick(&pr, ++done);
    }
    for (w = 0; w < jobs; w++) {
        int status;
        close(fds[w]);
        waitpid(pids[w], &status, 0);
    }
}

/* single: item i is the node fault of node i / 4 (i % 4 == 0) or the
 * link fault of its +x, +y or +z link */
static int single_item(long i, const net *n, fault *fs, void *ctx) {
    (void)n; (void)ctx;
    fs[0].node = (uint32_t)(i / 4);
    fs[0].port = i % 4 == 0 ? -1 : 2 * (int)(i % 4 - 1);
    return 1;
}

/* A list of tori "AxBxC[,AxBxC...]" (each radix 2..64, at most 32768
 * nodes, at most 16 tori) into k[][3]; "none" when none_ok is an empty
 * list.  Returns the number of tori; exits 2 on anything else. */
#define MAX_SIZES 16
static int parse_sizes(const char *opt, const char *list, int none_ok, int (*k)[3]) {
    const char *s = list;
    int n = 0;
    char what[80];
    if (none_ok && !strcmp(list, "none")) return 0;
    snprintf(what, sizeof what, "%s: not AxBxC[,AxBxC...], each radix 2..64", opt);
    for (;;) {
        char buf[64], *p = buf, *x;
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int i;
        if (len == 0 || len >= sizeof buf || n == MAX_SIZES) die(what, list);
        memcpy(buf, s, len);
        buf[len] = 0;
        for (i = 0; i < 3; i++) {
            x = strchr(p, 'x');
            if ((i < 2) != (x != NULL)) die(what, list);
            if (x) *x = 0;
            {
                char *end;
                long v;
                errno = 0;
                v = strtol(p, &end, 10);
                if (errno || *p < '0' || *p > '9' || *end || v < 2 || v > 64) die(what, list);
                k[n][i] = (int)v;
            }
            p = x ? x + 1 : p;
        }
        if ((long)k[n][0] * k[n][1] * k[n][2] > SR_MAX_NODES) {
            snprintf(what, sizeof what, "%s: a torus of more than 32768 nodes", opt);
            die(what, list);
        }
        n++;
        if (!e) return n;
        s = e + 1;
    }
}

static void section_single(const char *dir, int (*sizes)[3], int nsizes, int (*fixed_sizes)[3], int nfixed,
                           int jobs) {
    FILE *o = out_open(dir, "single");
    int si;
    fputs("torus,faults,link_faults,node_faults,proven_all_delivered,seconds,"
          "fixed_datelines_proven_all_delivered,fixed_datelines_deadlock\n", o);
    for (si = 0; si < nsizes; si++) {
        const int *k = sizes[si];
        char what[80];
        long count, ok = 0, nodes, fixed_ok = 0, fixed_cycles = 0, i;
        int fixed_too = 0;
        verdict *res;
        sr_seastar_options fixed;
        double t0 = bench_now_ns(), secs;
        for (i = 0; i < nfixed; i++)
            fixed_too |= !memcmp(fixed_sizes[i], k, sizeof fixed_sizes[i]);
        nodes = (long)k[0] * k[1] * k[2];
        count = 4 * nodes;
        res = (verdict *)malloc((size_t)count * sizeof *res);
        if (!res) exit(1);
        snprintf(what, sizeof what, "single %dx%dx%d", k[0], k[1], k[2]);
        sweep(k, count, jobs, single_item, NULL, NULL, res, what);
        for (i = 0; i < count; i++)
            ok += res[i].proven && res[i].unroutable == 0 && res[i].delivered == res[i].pairs;
        secs = (bench_now_ns() - t0) * 1e-9;
        fprintf(o, "%dx%dx%d,%ld,%ld,%ld,%ld,%.1f,", k[0], k[1], k[2], count, count - nodes, nodes, ok, secs);
        if (fixed_too) {
            /* the same with the datelines left on the wrap-around links */
            memset(&fixed, 0, sizeof fixed);
            fixed.fixed_datelines = 1;
            snprintf(what, sizeof what, "single %dx%dx%d, fixed datelines", k[0], k[1], k[2]);
            sweep(k, count, jobs, single_item, NULL, &fixed, res, what);
            for (i = 0; i < count; i++) {
                fixed_ok += res[i].proven && res[i].unroutable == 0 && res[i].delivered == res[i].pairs;
                fixed_cycles += !res[i].proven && res[i].failure == SR_FAIL_DEADLOCK;
            }
            fprintf(o, "%ld,%ld\n", fixed_ok, fixed_cycles);
        } else
            fputs(",\n", o);
        fflush(o);
        free(res);
    }
    out_close(o);
}

/* double: item i is the i-th pair of random faults (seed 5): each a node
 * fault (one in four) or a +x, +y or +z link fault of a random node */
typedef struct pairs_ctx { fault (*f)[2]; } pairs_ctx;

static int double_item(long i, const net *n, fault *fs, void *ctx) {
    (void)n;
    fs[0] = ((pairs_ctx *)ctx)->f[i][0];
    fs[1] = ((pairs_ctx *)ctx)->f[i][1];
    return 2;
}

static void fault_name(const sr_topology *t, const fault *f, char *buf, size_t size) {
    snprintf(buf, size, "(%d %d %d) %s", sr_coord(t, f->node, 0), sr_coord(t, f->node, 1), sr_coord(t, f->node, 2),
             f->port < 0 ? "node" : sr_port_name(t, f->port));
}

static void section_double(const char *dir, long count, int jobs) {
    static const int k[3] = { 8, 8, 8 };
    FILE *o = out_open(dir, "double"), *so, *fo;
    fault (*fs)[2] = (fault (*)[2])malloc((size_t)count * sizeof *fs);
    verdict *res = (verdict *)malloc((size_t)count * sizeof *res);
    pairs_ctx ctx;
    sr_topology t;
    sr_topology_desc d;
    uint64_t seed = 5;
    long i, ok = 0, cycles = 0, lose = 0;
    memset(&d, 0, sizeof d);
    d.num_dims = 3; d.radix[0] = d.radix[1] = d.radix[2] = 8;
    if (!fs || !res || sr_topology_init(&t, &d) != SR_OK) exit(1);
    for (i = 0; i < count; i++) {
        int j;
        for (j = 0; j < 2; j++) {
            fs[i][j].node = (uint32_t)(rng(&seed) % t.num_nodes);
            fs[i][j].port = (int)(rng(&seed) % 4) - 1;
            if (fs[i][j].port >= 0) fs[i][j].port *= 2;
        }
    }
    ctx.f = fs;
    sweep(k, count, jobs, double_item, &ctx, NULL, res, "double 8x8x8");
    fputs("pair,fault_a,fault_b,dateline_y,dateline_z,proven,failure,unroutable\n", o);
    for (i = 0; i < count; i++) {
        char a[40], b[40];
        int good = res[i].proven && res[i].unroutable == 0;
        fault_name(&t, &fs[i][0], a, sizeof a);
        fault_name(&t, &fs[i][1], b, sizeof b);
        fprintf(o, "%ld,%s,%s,%d,%d,%d,%s,%llu\n", i + 1, a, b, res[i].dl_y, res[i].dl_z, res[i].proven,
                res[i].proven ? "" : sr_failure_string((sr_failure)res[i].failure),
                (unsigned long long)res[i].unroutable);
        ok += good;
        cycles += !res[i].proven && res[i].failure == SR_FAIL_DEADLOCK;
        lose += res[i].proven && res[i].unroutable;
    }
    out_close(o);
    so = dir ? out_open(dir, "double_summary") : stdout;
    fputs("torus,fault_pairs,proven_all_delivered,share,deadlock,pairs_lost,other\n", so);
    fprintf(so, "8x8x8,%ld,%ld,%.4f,%ld,%ld,%ld\n", count, ok, (double)ok / (double)count, cycles, lose,
            count - ok - cycles - lose);
    out_close(so);
    fo = dir ? out_open(dir, "double_failures") : stdout;
    fputs("pair,fault_a,fault_b,dateline_y,dateline_z,verdict\n", fo);
    for (i = 0; i < count; i++) {
        char a[40], b[40];
        if (res[i].proven && res[i].unroutable == 0) continue;
        fault_name(&t, &fs[i][0], a, sizeof a);
        fault_name(&t, &fs[i][1], b, sizeof b);
        fprintf(fo, "%ld,%s,%s,%d,%d,%s\n", i + 1, a, b, res[i].dl_y, res[i].dl_z,
                res[i].proven ? "pairs lost" : sr_failure_string((sr_failure)res[i].failure));
    }
    out_close(fo);
    free(fs);
    free(res);
}

/* ------------------------------------------------ candidate-set routing */

/* A network of the routing sections. */
static void routing_net(sr_net *nw, int kind, int a, int b, int c) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    if (kind == SR_NET_CUBE) {
        d.cube.num_dims = 3;
        d.cube.radix[0] = a; d.cube.radix[1] = b; d.cube.radix[2] = c;
    } else if (kind == SR_NET_HYPERX) {
        d.hyperx.num_dims = 2; d.hyperx.size[0] = a; d.hyperx.size[1] = b; d.hyperx.terminals = c;
    } else if (kind == SR_NET_DRAGONFLY) {
        d.dragonfly.p = a; d.dragonfly.a = b; d.dragonfly.h = c;
    } else if (kind == SR_NET_CLOS) {
        d.clos.levels = 3;
        d.clos.down[0] = a; d.clos.down[1] = a; d.clos.down[2] = 2 * a; d.clos.up[0] = a; d.clos.up[1] = a;
    } else {
        d.butterfly.k = a; d.butterfly.n = b;
    }
    if (sr_net_init(nw, &d) != SR_OK) exit(2);
}

static int routing_make(sr_routing *rt, const sr_net *nw, int alg, int vcs, int df_vc) {
    sr_routing_desc d;
    memset(&d, 0, sizeof d);
    d.algorithm = alg; d.vcs = vcs; d.df_vc = df_vc;
    return sr_routing_init(rt, nw, &d) == SR_OK;
}

/* One proof, as the child sends it to the parent. */
typedef struct proof_row {
    double s, cpu, peak, scratch;
    uint64_t states, arcs, deps, indirect;
    int proven, passes, ok;
} proof_row;

static const struct {
    const char *label, *routing;
    int kind, a, b, c, alg, vcs, mode;
} proof_jobs[] = {
    { "dragonfly p=4 a=8 h=4 g=33 (1056 terminals)", "ugal", SR_NET_DRAGONFLY, 4, 8, 4, SR_ALG_UGAL, 3, SR_SWITCH_VCT },
    { "torus 16x16x16", "min-adaptive (dor escape on dateline VCs)", SR_NET_CUBE, 16, 16, 16, SR_ALG_MIN_ADAPTIVE, 3,
      SR_SWITCH_VCT },
    { "torus 16x16x16", "min-adaptive (dor escape on dateline VCs)", SR_NET_CUBE, 16, 16, 16, SR_ALG_MIN_ADAPTIVE, 3,
      SR_SWITCH_WORMHOLE },
};

static void run_proof(const void *arg, void *out) {
    int i = *(const int *)arg;
    proof_row *res = (proof_row *)out;
    sr_net nw;
    sr_routing rt;
    sr_routing_report *rep = (sr_routing_report *)malloc(sizeof *rep);
    size_t size;
    void *scratch;
    double t0, c0;
    memset(res, 0, sizeof *res);
    routing_net(&nw, proof_jobs[i].kind, proof_jobs[i].a, proof_jobs[i].b, proof_jobs[i].c);
    if (!rep || !routing_make(&rt, &nw, proof_jobs[i].alg, proof_jobs[i].vcs, 0)) exit(1);
    size = sr_verify_routing_scratch_size(&rt, proof_jobs[i].mode);
    scratch = malloc(size);
    if (!scratch) exit(1);
    c0 = cpu_now();
    t0 = bench_now_ns();
    if (sr_verify_routing(&rt, proof_jobs[i].mode, scratch, size, rep) != SR_OK) exit(3);
    res->s = (bench_now_ns() - t0) * 1e-9;
    res->cpu = cpu_now() - c0;
    res->peak = bench_peak_rss_mib();
    res->scratch = (double)size / 1048576.0;
    res->states = rep->states; res->arcs = rep->arcs; res->deps = rep->dependencies;
    res->indirect = rep->indirect; res->passes = rep->passes; res->proven = rep->proven;
    res->ok = 1;
    free(scratch);
    free(rep);
}

/* prooftime: the verifier on the large instances, each in its own process */
static void section_prooftime(const char *dir) {
    FILE *o = out_open(dir, "prooftime");
    int i;
    fputs("network,routing,vcs,switching,proven,seconds,cpu_seconds,peak_mib,scratch_mib,states,hops,dependencies,"
          "indirect,passes\n", o);
    for (i = 0; i < (int)(sizeof proof_jobs / sizeof proof_jobs[0]); i++) {
        proof_row res;
        fprintf(stderr, "  prooftime: %s, %s, %s\n", proof_jobs[i].label, proof_jobs[i].routing,
                proof_jobs[i].mode == SR_SWITCH_VCT ? "cut-through" : "wormhole");
        if (!in_child(run_proof, &i, &res, sizeof res) || !res.ok) {
            fprintf(stderr, "bench_route: proof %d failed\n", i);
            continue;
        }
        fprintf(o, "%s,%s,%d,%s,%d,%.2f,%.2f,%.1f,%.1f,%llu,%llu,%llu,%llu,%d\n", proof_jobs[i].label,
                proof_jobs[i].routing, proof_jobs[i].vcs, proof_jobs[i].mode == SR_SWITCH_VCT ? "cut-through" : "wormhole",
                res.proven, res.s, res.cpu, res.peak, res.scratch, (unsigned long long)res.states,
                (unsigned long long)res.arcs, (unsigned long long)res.deps, (unsigned long long)res.indirect, res.passes);
        fflush(o);
    }
    out_close(o);
}

/* One input of a routing call: a packet at a router. */
typedef struct call_in {
    uint32_t router;
    int in_port, in_vc, k, vc;    /* k, vc: the candidate taken there, for advance */
    sr_header h;
} call_in;

#define CALL_INPUTS 65536
#define CALL_PASSES 8
#define CALL_CAP 64

/* 65,536 distinct states of a routing: random headers at injection and a
 * random number of random hops (each input is a state of a different
 * packet). */
static void call_inputs(const sr_routing *rt, call_in *in, uint64_t seed) {
    const sr_net *nw = &rt->net;
    int i;
    for (i = 0; i < CALL_INPUTS; i++) {
        uint32_t src = (uint32_t)(rng(&seed) % nw->num_terminals), dst = (uint32_t)(rng(&seed) % nw->num_terminals);
        sr_header h;
        sr_candidate c[CALL_CAP];
        uint32_t u;
        int in_port, in_vc = 0, hops = (int)(rng(&seed) % 8), n, k, vc;
        if (sr_route_header_init(rt, src, dst, sr_route_inter_pick(rt, rng(&seed)), &h) != SR_OK) exit(3);
        u = sr_net_terminal_router(nw, src, &in_port);
        for (;;) {
            if (sr_route_candidates(rt, u, in_port, in_vc, &h, c, CALL_CAP, &n) != SR_OK) exit(3);
            k = (int)(rng(&seed) % (uint64_t)n);
            vc = c[k].vc_lo + (int)(rng(&seed) % (uint64_t)(c[k].vc_hi - c[k].vc_lo + 1));
            if (hops-- <= 0 || sr_net_port_info(nw, u, c[k].port).kind == SR_PORT_TERMINAL) break;
            if (sr_route_advance(rt, u, &c[k], vc, &h) != SR_OK) exit(3);
            u = sr_net_neighbor(nw, u, c[k].port, &in_port);
            in_vc = vc;
        }
        in[i].router = u; in[i].in_port = in_port; in[i].in_vc = in_vc; in[i].h = h; in[i].k = k; in[i].vc = vc;
    }
}

/* calls: ns per sr_route_candidates and per sr_route_advance */
static void section_calls(const char *dir) {
    static const struct {
        const char *label;
        int kind, a, b, c, alg, vcs, df_vc;
    } cj[] = {
        { "torus 8x8x8", SR_NET_CUBE, 8, 8, 8, SR_ALG_DOR, 2, 0 },
        { "torus 8x8x8", SR_NET_CUBE, 8, 8, 8, SR_ALG_MIN_ADAPTIVE, 3, 0 },
        { "torus 8x8x8", SR_NET_CUBE, 8, 8, 8, SR_ALG_VALIANT, 4, 0 },
        { "torus 8x8x8", SR_NET_CUBE, 8, 8, 8, SR_ALG_UGAL, 4, 0 },
        { "HyperX 16x16 (T=16)", SR_NET_HYPERX, 16, 16, 16, SR_ALG_DOR, 1, 0 },
        { "HyperX 16x16 (T=16)", SR_NET_HYPERX, 16, 16, 16, SR_ALG_MIN_ADAPTIVE, 2, 0 },
        { "HyperX 16x16 (T=16)", SR_NET_HYPERX, 16, 16, 16, SR_ALG_VALIANT, 2, 0 },
        { "HyperX 16x16 (T=16)", SR_NET_HYPERX, 16, 16, 16, SR_ALG_UGAL, 2, 0 },
        { "dragonfly p=4 a=8 h=4 g=33", SR_NET_DRAGONFLY, 4, 8, 4, SR_ALG_MINIMAL, 2, 0 },
        { "dragonfly p=4 a=8 h=4 g=33", SR_NET_DRAGONFLY, 4, 8, 4, SR_ALG_VALIANT, 3, 0 },
        { "dragonfly p=4 a=8 h=4 g=33", SR_NET_DRAGONFLY, 4, 8, 4, SR_ALG_UGAL, 3, 0 },
        { "dragonfly p=4 a=8 h=4 g=33", SR_NET_DRAGONFLY, 4, 8, 4, SR_ALG_PAR, 4, SR_DF_VC_LOCAL },
        { "folded Clos 8-8-16 down 8-8 up", SR_NET_CLOS, 8, 0, 0, SR_ALG_UPDOWN, 1, 0 },
        { "folded Clos 8-8-16 down 8-8 up", SR_NET_CLOS, 8, 0, 0, SR_ALG_VALIANT, 1, 0 },
        { "butterfly 4-ary 4-fly", SR_NET_BUTTERFLY, 4, 4, 0, SR_ALG_DEST_TAG, 1, 0 },
    };
    FILE *o = out_open(dir, "calls");
    call_in *in = (call_in *)malloc(CALL_INPUTS * sizeof *in);
    int j;
    if (!in) exit(1);
    fputs("network,algorithm,vcs,inputs,candidates_ns,advance_ns,mean_candidates\n", o);
    for (j = 0; j < (int)(sizeof cj / sizeof cj[0]); j++) {
        sr_net nw;
        sr_routing rt;
        double tc[5], ta[5];
        uint64_t total = 0, ncand = 0;
        int rep, i;
        routing_net(&nw, cj[j].kind, cj[j].a, cj[j].b, cj[j].c);
        if (!routing_make(&rt, &nw, cj[j].alg, cj[j].vcs, cj[j].df_vc)) exit(3);
        fprintf(stderr, "  calls: %s, %s\n", cj[j].label, sr_algorithm_name(cj[j].alg));
        call_inputs(&rt, in, 1000 + (uint64_t)j);
        for (rep = 0; rep < 5; rep++) {
            sr_candidate c[CALL_CAP];
            double c0 = cpu_now();
            int n;
            int pass;
            total = 0;
            ncand = 0;
            for (pass = 0; pass < CALL_PASSES; pass++)
                for (i = 0; i < CALL_INPUTS; i++) {
                    sr_route_candidates(&rt, in[i].router, in[i].in_port, in[i].in_vc, &in[i].h, c, CALL_CAP, &n);
                    ncand += (uint64_t)n;
                    total += (uint64_t)c[0].port;
                }
            ncand /= CALL_PASSES;
            tc[rep] = (cpu_now() - c0) * 1e9 / CALL_INPUTS / CALL_PASSES;
            BENCH_USE(total);
        }
        for (rep = 0; rep < 5; rep++) {
            sr_candidate c[CALL_CAP];
            double c0;
            int n, pass;
            uint64_t sum = 0;
            /* the candidate each input takes, computed outside the timing */
            static sr_candidate taken[CALL_INPUTS];
            if (rep == 0)
                for (i = 0; i < CALL_INPUTS; i++) {
                    sr_route_candidates(&rt, in[i].router, in[i].in_port, in[i].in_vc, &in[i].h, c, CALL_CAP, &n);
                    taken[i] = c[in[i].k < n ? in[i].k : 0];
                }
            c0 = cpu_now();
            for (pass = 0; pass < CALL_PASSES; pass++)
                for (i = 0; i < CALL_INPUTS; i++) {
                    sr_header h = in[i].h;
                    int vc = in[i].vc < taken[i].vc_lo || in[i].vc > taken[i].vc_hi ? taken[i].vc_lo : in[i].vc;
                    sr_route_advance(&rt, in[i].router, &taken[i], vc, &h);
                    sum += h.hops + h.phase;
                }
            ta[rep] = (cpu_now() - c0) * 1e9 / CALL_INPUTS / CALL_PASSES;
            BENCH_USE(sum);
        }
        fprintf(o, "%s,%s,%d,%d,%.1f,%.1f,%.2f\n", cj[j].label, sr_algorithm_name(cj[j].alg), rt.vcs, CALL_INPUTS,
                bench_median(tc, 5), bench_median(ta, 5), (double)ncand / CALL_INPUTS);
        fflush(o);
    }
    free(in);
    out_close(o);
}

int main(int argc, char **argv) {
    int i, min_k = 4, max_k = 32, gens[3] = { 1, 1, 1 }, jobs = 1, want[6] = { 0, 0, 0, 0, 0, 0 }, any = 0, nsizes, nfixed;
    int sizes[MAX_SIZES][3], fixed_sizes[MAX_SIZES][3];
    long pairs = 200;
    const char *dir = NULL;
    nsizes = parse_sizes("--sizes", "4x4x4,8x8x8,11x12x16", 0, sizes);
    nfixed = parse_sizes("--fixed-sizes", "4x4x4,8x8x8", 1, fixed_sizes);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage, stdout); return 0; }
        if (!v) die("a value is missing after", a);
        i++;
        if (!strcmp(a, "--section")) {
            any = 1;
            if (!strcmp(v, "scale")) want[0] = 1;
            else if (!strcmp(v, "compare")) want[1] = 1;
            else if (!strcmp(v, "single")) want[2] = 1;
            else if (!strcmp(v, "double")) want[3] = 1;
            else if (!strcmp(v, "prooftime")) want[4] = 1;
            else if (!strcmp(v, "calls")) want[5] = 1;
            else if (!strcmp(v, "all")) want[0] = want[1] = want[2] = want[3] = want[4] = want[5] = 1;
            else die("--section: not scale, compare, single, double, prooftime, calls or all", v);
        } else if (!strcmp(a, "--max-radix")) {
            max_k = (int)parse_long(v, 4, 32, "--max-radix: not 4, 8, 16 or 32");
            if (max_k & (max_k - 1)) die("--max-radix: not 4, 8, 16 or 32", v);
        } else if (!strcmp(a, "--min-radix")) {
            min_k = (int)parse_long(v, 4, 32, "--min-radix: not 4, 8, 16 or 32");
            if (min_k & (min_k - 1)) die("--min-radix: not 4, 8, 16 or 32", v);
        } else if (!strcmp(a, "--generators")) {
            const char *g = v;
            gens[0] = gens[1] = gens[2] = 0;
            for (;;) {
                size_t len = strcspn(g, ",");
                int n, hit = 0;
                for (n = 0; n < 3; n++)
                    if (len == strlen(gen_name[n]) && !strncmp(g, gen_name[n], len)) { gens[n] = 1; hit = 1; }
                if (!hit) die("--generators: not dor, search, seastar, comma-separated", v);
                if (!g[len]) break;
                g += len + 1;
            }
        } else if (!strcmp(a, "--sizes")) nsizes = parse_sizes("--sizes", v, 0, sizes);
        else if (!strcmp(a, "--fixed-sizes")) nfixed = parse_sizes("--fixed-sizes", v, 1, fixed_sizes);
        else if (!strcmp(a, "--pairs")) pairs = parse_long(v, 1, 100000, "--pairs: not 1..100000");
        else if (!strcmp(a, "--jobs")) jobs = (int)parse_long(v, 1, 64, "--jobs: not 1..64");
        else if (!strcmp(a, "--out")) dir = v;
        else die("unknown option (see --help)", a);
    }
    if (!any) want[0] = want[1] = 1;
    if (min_k > max_k) {
        fprintf(stderr, "bench_route: --min-radix %d is above --max-radix %d\n", min_k, max_k);
        return 2;
    }
    if (want[0]) section_scale(dir, min_k, max_k, gens);
    if (want[1]) section_compare(dir);
    if (want[2]) section_single(dir, sizes, nsizes, fixed_sizes, nfixed, jobs);
    if (want[3]) section_double(dir, pairs, jobs);
    if (want[4]) section_prooftime(dir);
    if (want[5]) section_calls(dir);
    return 0;
}
