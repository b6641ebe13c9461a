/* bench_alloc.c - nanoseconds per allocation of every switch allocator of
 * seastar_arb.h, on the reference path (the header built with SA_NO_SIMD)
 * and on the fast path (the default build: the >>fast kernels where they
 * apply), measured side by side in one run.
 *
 * Each case allocates every set of a pool of distinct random request sets
 * (65,536 by default, enough that the branch predictor cannot learn them;
 * each cell requested independently with the given density), in two modes:
 *
 *   masks  sa_allocate on request masks already in memory;
 *   sim    as a simulator calls it: each input's mask built from its list
 *          of requested outputs, then sa_allocate.
 *
 * The time of a case is the median, over --repeats passes over the pool, of
 * the thread CPU time per allocation; the reference and fast passes
 * alternate so that both see the same machine.  CSV on stdout:
 *
 *   allocator,inputs,outputs,density,mode,ref_ns,fast_ns,ref_over_fast,mean_matches,state_bytes
 *
 * ref_over_fast is ref_ns / fast_ns of this run; state_bytes is the size of
 * the sa_alloc struct plus its memory (sa_alloc_memory_size) on the fast
 * build.  The run stops with exit 1 if the two paths ever disagree on the
 * number of matches.  Progress goes to stderr.
 *
 * Usage: bench_alloc [--quick] [--only NAME] [--size NxM] [--density D]
 *                    [--pool SETS] [--repeats R] [--help]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "alloc_kernel.h"

/* The kinds, as numbered by sa_alloc_kind (alloc_kernel.c builds from
 * them; this file does not include the header, which the two kernel
 * objects include in two builds). */
enum { K_SPAA, K_WFA, K_WFA_WRAPPED, K_PIM, K_ISLIP, K_OPF, K_SEP_INPUT, K_SEP_OUTPUT, K_MCM };

typedef struct variant {
    const char *name;
    int kind, iterations;
} variant;

static const variant variants[] = {
    { "SPAA", K_SPAA, 1 },
    { "WFA", K_WFA, 1 },
    { "WFA-wrapped", K_WFA_WRAPPED, 1 },
    { "PIM1", K_PIM, 1 },
    { "PIM-converged", K_PIM, -1 },
    { "iSLIP-1", K_ISLIP, 1 },
    { "iSLIP-4", K_ISLIP, 4 },
    { "OPF", K_OPF, 1 },
    { "separable-input-first", K_SEP_INPUT, 1 },
    { "separable-output-first", K_SEP_OUTPUT, 1 },
    { "MCM", K_MCM, 1 },
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static const int sizes[][2] = { { 1, 1 }, { 5, 5 }, { 7, 7 }, { 16, 7 }, { 8, 8 }, { 16, 16 }, { 64, 64 } };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const double densities[] = { 0.25, 0.5, 0.9 };
#define TABLE_ROWS 4096
#define PRIO_SETS 256

static uint64_t rng_state = 0x5EED;
static uint64_t next_rand(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: bench_alloc [options]\n"
            "  --quick        4,096 sets and 3 repeats (a smoke run)\n"
            "  --only NAME    one allocator, as named in the CSV (default: all)\n"
            "  --size NxM     one size, N and M in 1..64 (default: 1x1 5x5 7x7 16x7 8x8 16x16 64x64)\n"
            "  --density D    one density, 0 < D <= 1 (default: 0.25 0.5 0.9)\n"
            "  --pool SETS    request sets per pool, 1..1048576 (default 65536)\n"
            "  --repeats R    timed passes per case and path, 1..99 (default 7)\n"
            "  --help         this text\n");
}

static void fail(const char *msg, const char *arg) {
    fprintf(stderr, "bench_alloc: %s: '%s' (see --help)\n", msg, arg);
    exit(2);
}

static long parse_long(const char *s, long lo, long hi, const char *what) {
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi) fail(what, s);
    return v;
}

/* A size 1..64, the whole string. */
static int parse_dim(const char *s, int *v) {
    char *end;
    long x;
    errno = 0;
    x = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || x < 1 || x > 64) return 0;
    *v = (int)x;
    return 1;
}

/* The pool of one size and density: the table rows, then the sets. */
typedef struct pool_mem {
    uint64_t *masks, table_mask[TABLE_ROWS];
    uint16_t *row_of;
    uint8_t row_outputs[TABLE_ROWS * 64], row_count[TABLE_ROWS];
    uint8_t *prio;
    ba_pool p;
} pool_mem;

static void pool_fill(pool_mem *pm, int n, int m, double density, int sets) {
    uint64_t thr = (uint64_t)(density * 18446744073709551615.0);
    int r, j, s, i;
    for (r = 0; r < TABLE_ROWS; r++) {
        pm->table_mask[r] = 0;
        pm->row_count[r] = 0;
        for (j = 0; j < m; j++)
            if (density >= 1.0 || next_rand() < thr) {
                pm->table_mask[r] |= (uint64_t)1 << j;
                pm->row_outputs[64 * r + pm->row_count[r]++] = (uint8_t)j;
            }
    }
    for (s = 0; s < sets; s++)
        for (i = 0; i < n; i++) {
            uint16_t row = (uint16_t)(next_rand() % TABLE_ROWS);
            pm->row_of[(size_t)s * (size_t)n + (size_t)i] = row;
            pm->masks[(size_t)s * (size_t)n + (size_t)i] = pm->table_mask[row];
        }
    for (i = 0; i < PRIO_SETS * n * m; i++) pm->prio[i] = (uint8_t)next_rand();
    pm->p.n = n;
    pm->p.m = m;
    pm->p.sets = sets;
    pm->p.masks = pm->masks;
    pm->p.row_of = pm->row_of;
    pm->p.row_outputs = pm->row_outputs;
    pm->p.row_count = pm->row_count;
    pm->p.prio = NULL;
    pm->p.prio_sets = PRIO_SETS;
}

/* Median ns per allocation of the two paths over `repeats` alternating
 * passes; 0 on a disagreement. */
static int time_case(const variant *v, const ba_pool *p, int sim, int repeats, double *ref_ns,
                     double *fast_ns, double *mean) {
    double tr[99], tf[99];
    ba_alloc *ref = ba_ref_make(v->kind, p->n, p->m, v->iterations, 1);
    ba_alloc *fast = ba_fast_make(v->kind, p->n, p->m, v->iterations, 1);
    long a, b;
    int r, ok = 1;
    if (ref == NULL || fast == NULL) {
        fprintf(stderr, "bench_alloc: %s %dx%d does not initialise\n", v->name, p->n, p->m);
        exit(1);
    }
    /* A warm-up pass each (the same sets, so both must agree). */
    a = ba_ref_pass(ref, p, sim);
    b = ba_fast_pass(fast, p, sim);
    ok = a == b;
    *mean = (double)b / p->sets;
    for (r = 0; r < repeats && ok; r++) {
        double t0 = bench_cpu_ns(), t1, t2;
        a = ba_ref_pass(ref, p, sim);
        t1 = bench_cpu_ns();
        b = ba_fast_pass(fast, p, sim);
        t2 = bench_cpu_ns();
        ok = a == b;
        tr[r] = (t1 - t0) / p->sets;
        tf[r] = (t2 - t1) / p->sets;
    }
    ba_ref_free(ref);
    ba_fast_free(fast);
    if (!ok) return 0;
    *ref_ns = bench_median(tr, repeats);
    *fast_ns = bench_median(tf, repeats);
    return 1;
}

int main(int argc, char **argv) {
    const char *only = NULL;
    int only_n = 0, only_m = 0, sets = 65536, repeats = 7, arg, si, di, v, mode, cases = 0, done = 0;
    double only_d = -1, t_start = bench_now_ns();
    pool_mem *pm;
    for (arg = 1; arg < argc; arg++) {
        const char *o = argv[arg];
        if (strcmp(o, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(o, "--quick") == 0) {
            sets = 4096;
            repeats = 3;
        } else if (arg + 1 >= argc) {
            fail("unknown option or missing value", o);
        } else if (strcmp(o, "--only") == 0) {
            only = argv[++arg];
            for (v = 0; v < NVARIANTS && strcmp(variants[v].name, only) != 0; v++) {}
            if (v == NVARIANTS) fail("--only: no such allocator", only);
        } else if (strcmp(o, "--size") == 0) {
            char buf[32], *x;
            const char *s = argv[++arg];
            if (strlen(s) >= sizeof buf || (x = strchr(strcpy(buf, s), 'x')) == NULL)
                fail("--size: expected NxM with N, M in 1..64", s);
            *x = '\0';
            if (!parse_dim(buf, &only_n) || !parse_dim(x + 1, &only_m))
                fail("--size: expected NxM with N, M in 1..64", s);
        } else if (strcmp(o, "--density") == 0) {
            char *end;
            const char *s = argv[++arg];
            errno = 0;
            only_d = strtod(s, &end);
            if (errno || end == s || *end != '\0' || !(only_d > 0.0 && only_d <= 1.0))
                fail("--density: expected a number in (0, 1]", s);
        } else if (strcmp(o, "--pool") == 0) {
            sets = (int)parse_long(argv[++arg], 1, 1048576, "--pool: expected 1..1048576");
        } else if (strcmp(o, "--repeats") == 0) {
            repeats = (int)parse_long(argv[++arg], 1, 99, "--repeats: expected 1..99");
        } else {
            fail("unknown option", o);
        }
    }
    pm = (pool_mem *)calloc(1, sizeof *pm);
    if (pm == NULL || !(pm->masks = (uint64_t *)malloc((size_t)sets * 64 * sizeof(uint64_t))) ||
        !(pm->row_of = (uint16_t *)malloc((size_t)sets * 64 * sizeof(uint16_t))) ||
        !(pm->prio = (uint8_t *)malloc((size_t)PRIO_SETS * 64 * 64))) {
        fprintf(stderr, "bench_alloc: out of memory for %d sets\n", sets);
        return 1;
    }
    cases = 2 * (only_n ? 1 : NSIZES) * (only_d > 0 ? 1 : 3) * (only ? 1 : NVARIANTS);
    printf("allocator,inputs,outputs,density,mode,ref_ns,fast_ns,ref_over_fast,mean_matches,state_bytes\n");
    for (si = 0; si < NSIZES; si++)
        for (di = 0; di < 3; di++) {
            int n = only_n ? only_n : sizes[si][0], m = only_n ? only_m : sizes[si][1];
            double d = only_d > 0 ? only_d : densities[di];
            if ((only_n && si > 0) || (only_d > 0 && di > 0)) continue;
            pool_fill(pm, n, m, d, sets);
            for (v = 0; v < NVARIANTS; v++) {
                if (only && strcmp(only, variants[v].name) != 0) continue;
                pm->p.prio = variants[v].kind == K_OPF ? pm->prio : NULL;
                for (mode = 0; mode < 2; mode++) {
                    double ref_ns = 0, fast_ns = 0, mean = 0, el;
                    if (!time_case(&variants[v], &pm->p, mode, repeats, &ref_ns, &fast_ns, &mean)) {
                        fprintf(stderr, "bench_alloc: %s %dx%d: the reference and fast paths disagree\n",
                                variants[v].name, n, m);
                        return 1;
                    }
                    printf("%s,%d,%d,%.2f,%s,%.1f,%.1f,%.2f,%.3f,%zu\n", variants[v].name, n, m, d,
                           mode ? "sim" : "masks", ref_ns, fast_ns, ref_ns / fast_ns, mean,
                           ba_fast_memory_size(variants[v].kind, n, m));
                    fflush(stdout);
                    done++;
                    el = (bench_now_ns() - t_start) / 1e9;
                    fprintf(stderr, "\rbench_alloc: %d/%d cases, %.0f s, about %.0f s left   ", done, cases, el,
                            el / done * (cases - done));
                }
            }
        }
    fprintf(stderr, "\n");
    return 0;
}
