/* SPDX-License-Identifier: MIT */
/* bench_route.c - seastar_route.h: time and peak memory to generate and to
 * verify all routing tables of k x k x k tori, fault-free and with 1% failed
 * links; and a comparison of the two fault-aware generators on random fault
 * sets (fraction of pairs routed, path stretch).
 *
 * Usage: bench_route [MAX_RADIX]   (default 32: 4x4x4 .. 32x32x32)
 *
 * Each configuration runs in a child process, so that its peak resident
 * set size (getrusage ru_maxrss, printed by the child) is its own.
 * CSV on stdout, one row per (section, topology, fault set, generator):
 *   section      scale (4x4x4..32x32x32) or compare (8x8x8 fault sets)
 *   gen_s        seconds to generate all tables (median of repeats for
 *                small networks, one run from 16x16x16 up); gen_cpu_s the
 *                same in CPU time of the process (the machine may be shared)
 *   verify_s     seconds for sr_verify (delivery of every pair and the
 *                channel dependency graph); verify_cpu_s in CPU time
 *   peak_mib     peak resident memory of the child process
 *   proven       1 if sr_verify proved delivery and deadlock freedom
 *   routed_frac  delivered pairs / pairs of distinct live nodes
 *   avg_hops, avg_stretch, max_stretch  over delivered pairs; stretch is
 *                hops / fault-free minimal hops (not computed, 0, for
 *                32x32x32: it costs a third of the verification time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "bench.h"
#include "../seastar_route.h"

enum { GEN_DOR, GEN_SEARCH, GEN_SEASTAR };
static const char *gen_name[] = { "dor", "search", "seastar" };

typedef struct job {
    const char *section;
    int k, mesh, gen, reps;
    double link_frac;     /* fraction of links failed */
    int nodes_failed;
    uint64_t seed;
} job;

/* CPU seconds of this process: the machine may be shared, so both wall
 * and CPU time are reported. */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s) {   /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void run_job(const job *j) {
    sr_topology_desc d;
    sr_topology t;
    sr_faults f;
    sr_gen_report g;
    sr_verify_report v;
    uint32_t *fstore, u, links = 0, target, failed = 0;
    uint8_t *tab;
    size_t tsize, gsize, vsize;
    void *gs, *vs;
    double times[5], cpus[5], gen_s, gen_cpu, t0, c0, verify_s, verify_cpu;
    int r, i;
    uint64_t seed = j->seed;
    memset(&d, 0, sizeof d);
    d.num_dims = 3;
    for (i = 0; i < 3; i++) { d.radix[i] = j->k; d.mesh[i] = j->mesh; }
    if (sr_topology_init(&t, &d) != SR_OK) exit(2);
    tsize = (size_t)t.table_size * t.num_nodes;
    tab = (uint8_t *)malloc(tsize);
    fstore = (uint32_t *)malloc(sr_faults_size(&t));
    if (!tab || !fstore || sr_faults_init(&f, &t, fstore, sr_faults_size(&t)) != SR_OK) exit(2);
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
    for (i = 0; i < j->reps; i++) {
        c0 = cpu_now();
        t0 = bench_now_ns();
        if (j->gen == GEN_DOR) {
            for (u = 0; u < t.num_nodes; u++)
                sr_table_build_dor(&t, u, tab + (size_t)u * t.table_size, t.table_size);
        } else if (j->gen == GEN_SEARCH) {
            r = sr_tables_build_search(&t, &f, NULL, tab, tsize, gs, gsize, NULL, 0, &g);
            if (r != SR_OK) exit(3);
        } else {
            r = sr_tables_build_seastar(&t, &f, tab, tsize, gs, gsize, NULL, 0, &g);
            if (r != SR_OK) exit(3);
        }
        times[i] = (bench_now_ns() - t0) * 1e-9;
        cpus[i] = cpu_now() - c0;
    }
    gen_s = bench_median(times, j->reps);
    gen_cpu = bench_median(cpus, j->reps);
    free(gs);
    vsize = sr_verify_scratch_size(&t);
    vs = malloc(vsize);
    if (!vs) exit(2);
    c0 = cpu_now();
    t0 = bench_now_ns();
    if (sr_verify(&t, &f, tab, j->k <= 16 ? SR_VERIFY_STRETCH : 0, vs, vsize, &v) != SR_OK) exit(4);
    verify_s = (bench_now_ns() - t0) * 1e-9;
    verify_cpu = cpu_now() - c0;
    printf("%s,%dx%dx%d%s,%u,%u,%d,%s,%.4f,%.4f,%.4f,%.4f,%.1f,%d,%s,%.6f,%.3f,%.4f,%.3f\n",
           j->section, j->k, j->k, j->k, j->mesh ? " mesh" : " torus", t.num_nodes, failed,
           j->nodes_failed, gen_name[j->gen], gen_s, gen_cpu, verify_s, verify_cpu,
           bench_peak_rss_mib(), v.proven,
           v.proven ? "" : sr_failure_string(v.failure),
           v.pairs ? (double)v.delivered / (double)v.pairs : 0.0,
           v.delivered ? (double)v.total_hops / (double)v.delivered : 0.0,
           v.delivered ? v.stretch_sum / (double)v.delivered : 0.0, v.stretch_max);
    fflush(stdout);
    free(vs);
    free(tab);
    free(fstore);
}

/* Run a job in a child so that its peak memory is measured alone. */
static void spawn(const job *j) {
    pid_t pid;
    fflush(stdout);
    pid = fork();
    if (pid == 0) { run_job(j); exit(0); }
    if (pid > 0) {
        int status;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "bench_route: job k=%d gen=%s failed\n", j->k, gen_name[j->gen]);
    }
}

int main(int argc, char **argv) {
    int max_k = argc > 1 ? atoi(argv[1]) : 32, k, s;
    printf("section,topology,nodes,failed_links,failed_nodes,generator,gen_s,gen_cpu_s,verify_s,"
           "verify_cpu_s,peak_mib,proven,failure,routed_frac,avg_hops,avg_stretch,max_stretch\n");
    /* scaling: fault-free DOR tables, and 1% failed links with the search
     * generator (deadlock-free by construction) and, up to 16x16x16, the
     * SeaStar rules */
    for (k = 4; k <= max_k; k *= 2) {
        job j;
        memset(&j, 0, sizeof j);
        j.section = "scale";
        j.k = k;
        j.reps = k >= 16 ? 1 : 5;
        j.seed = 1;
        j.gen = GEN_DOR;
        spawn(&j);
        j.link_frac = 0.01;
        j.gen = GEN_SEARCH;
        spawn(&j);
        if (k <= 16) {
            j.gen = GEN_SEASTAR;
            spawn(&j);
        }
    }
    /* comparison on random fault sets of 8x8x8 tori and meshes */
    for (s = 0; s < 5; s++) {
        static const double fr[] = { 0.01, 0.02, 0.05 };
        int m, fi;
        for (m = 0; m < 2; m++)
            for (fi = 0; fi < 3; fi++) {
                job j;
                memset(&j, 0, sizeof j);
                j.section = "compare";
                j.k = 8;
                j.mesh = m;
                j.reps = 1;
                j.link_frac = fr[fi];
                j.nodes_failed = s % 2;
                j.seed = 1000 + (uint64_t)s;
                j.gen = GEN_SEARCH;
                spawn(&j);
                j.gen = GEN_SEASTAR;
                spawn(&j);
            }
    }
    return 0;
}
