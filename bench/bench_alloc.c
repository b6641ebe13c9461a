/* SPDX-License-Identifier: MIT */
/* bench_alloc.c - nanoseconds per allocation of every switch allocator of
 * seastar_arb.h, on the reference path (the header built with SA_NO_SIMD)
 * and on the fast path (the default build: the >>fast kernels where they
 * apply), measured side by side in one run.
 *
 * Each case allocates every set of a pool of distinct random request sets
 * (65,536 by default, enough that the branch predictor cannot learn them;
 * 256 above 64 x 64 and 64 above 128 x 128, where one set has more cells
 * than the predictor could ever learn; each cell requested independently with the given density),
 * in two modes:
 *
 *   masks  sa_switch_allocate on request rows already in memory;
 *   sim    as a simulator calls it: the request builder (sa_requests)
 *          cleared, one sa_requests_add per (input, output) pair, then
 *          sa_switch_allocate_requests.
 *
 * The time of a case is the median, over --repeats passes over the pool, of
 * the thread CPU time per allocation; the reference and fast passes
 * alternate so that both see the same machine.  CSV on stdout:
 *
 *   allocator,inputs,outputs,density,mode,sets,ref_ns,fast_ns,ref_over_fast,mean_matches,state_bytes
 *
 * ref_over_fast is ref_ns / fast_ns of this run; state_bytes is the size of
 * the sa_switch struct plus its memory (sa_switch_memory_size) on the fast
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

/* The kinds, as numbered by sa_switch_kind, and sa_switch_desc's option
 * values (alloc_kernel.c builds from them; this file does not include the
 * header, which the two kernel objects include in two builds). */
enum { K_SPAA, K_WFA, K_WFA_WRAPPED, K_PIM, K_ISLIP, K_OPF, K_SEP_INPUT, K_SEP_OUTPUT, K_MCM };
enum { ANTIDIAGONAL = 1, ON_MATCH = 1, IDLE_HOLD = 1 };

typedef struct variant {
    const char *name;
    int kind;
    ba_options o; /* iterations, wavefront, pointer_rule, idle */
} variant;

/* Every allocator, and the options a simulator picks to make the decisions
 * of BookSim2's allocators (docs/embedding.rst): its wavefront (the
 * antidiagonal wave front that holds its state when idle) and its
 * separable_output_first (pointers moved by completed matches). */
static const variant variants[] = {
    { "SPAA", K_SPAA, { 1, 0, 0, 0 } },
    { "WFA", K_WFA, { 1, 0, 0, 0 } },
    { "WFA-wrapped", K_WFA_WRAPPED, { 1, 0, 0, 0 } },
    { "WFA-wrapped-antidiagonal", K_WFA_WRAPPED, { 1, ANTIDIAGONAL, 0, IDLE_HOLD } },
    { "PIM1", K_PIM, { 1, 0, 0, 0 } },
    { "PIM-converged", K_PIM, { -1, 0, 0, 0 } },
    { "iSLIP-1", K_ISLIP, { 1, 0, 0, 0 } },
    { "iSLIP-4", K_ISLIP, { 4, 0, 0, 0 } },
    { "OPF", K_OPF, { 1, 0, 0, 0 } },
    { "separable-input-first", K_SEP_INPUT, { 1, 0, 0, 0 } },
    { "separable-output-first", K_SEP_OUTPUT, { 1, 0, 0, 0 } },
    { "separable-output-first-on-match", K_SEP_OUTPUT, { 1, 0, ON_MATCH, 0 } },
    { "MCM", K_MCM, { 1, 0, 0, 0 } },
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

#define MAX_LIST 16
static const int default_sizes[][2] = { { 5, 5 }, { 16, 7 }, { 8, 8 }, { 16, 16 }, { 64, 64 },
                                        { 80, 80 }, { 128, 128 }, { 512, 512 } };
static const double default_densities[] = { 0.1, 0.5 };
#define TABLE_ROWS 4096 /* (uint16_t row numbers) */
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
            "  --quick          4,096 sets and 3 repeats (a smoke run)\n"
            "  --only NAME,...  these allocators, as named in the CSV (default: all)\n"
            "  --size NxM,...   these sizes, N and M in 1..512 (default: 5x5 16x7 8x8 16x16 64x64\n"
            "                   80x80 128x128 512x512)\n"
            "  --density D,...  these densities, 0 < D <= 1 (default: 0.1 0.5)\n"
            "  --pool SETS      request sets per pool, 1..1048576 (default 65536; at most 256 above\n"
            "                   64x64, 64 above 128x128)\n"
            "  --repeats R      timed passes per case and path, 1..99 (default 7; 3 above 64x64)\n"
            "  --help           this text\n");
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

/* A size 1..512, the whole string. */
static int parse_dim(const char *s, int *v) {
    char *end;
    long x;
    errno = 0;
    x = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || x < 1 || x > 512) return 0;
    *v = (int)x;
    return 1;
}

/* The comma-separated items of a list (at most MAX_LIST, none empty) into
 * items[], in buf; returns their number or 0. */
static int split_list(const char *s, char *buf, size_t size, char **items) {
    int count = 0;
    char *p;
    if (strlen(s) >= size) return 0;
    strcpy(buf, s);
    for (p = buf;;) {
        char *c = strchr(p, ',');
        if (c != NULL) *c = '\0';
        if (*p == '\0' || count == MAX_LIST) return 0;
        items[count++] = p;
        if (c == NULL) return count;
        p = c + 1;
    }
}

/* The pool of one size and density: the table rows, then the sets. */
typedef struct pool_mem {
    uint64_t *masks, *table_mask;
    uint16_t *row_of, *row_outputs, *row_count;
    int32_t *prio;
    ba_pool p;
} pool_mem;

static void pool_fill(pool_mem *pm, int n, int m, double density, int sets) {
    uint64_t thr = (uint64_t)(density * 18446744073709551615.0);
    int r, j, s, i, w = (m + 63) / 64, prio_sets = 64 * 1024 * 1024 / (4 * n * m);
    if (prio_sets > PRIO_SETS) prio_sets = PRIO_SETS;
    if (prio_sets < 1) prio_sets = 1;
    for (r = 0; r < TABLE_ROWS; r++) {
        uint64_t *row = pm->table_mask + (size_t)r * w;
        memset(row, 0, (size_t)w * sizeof(uint64_t));
        pm->row_count[r] = 0;
        for (j = 0; j < m; j++)
            if (density >= 1.0 || next_rand() < thr) {
                row[j >> 6] |= (uint64_t)1 << (j & 63);
                pm->row_outputs[(size_t)m * r + pm->row_count[r]++] = (uint16_t)j;
            }
    }
    for (s = 0; s < sets; s++)
        for (i = 0; i < n; i++) {
            uint16_t row = (uint16_t)(next_rand() % TABLE_ROWS);
            pm->row_of[(size_t)s * (size_t)n + (size_t)i] = row;
            memcpy(pm->masks + ((size_t)s * (size_t)n + (size_t)i) * w, pm->table_mask + (size_t)row * w,
                   (size_t)w * sizeof(uint64_t));
        }
    for (i = 0; i < prio_sets * n * m; i++) pm->prio[i] = (int32_t)(next_rand() & 255);
    pm->p.n = n;
    pm->p.m = m;
    pm->p.w = w;
    pm->p.sets = sets;
    pm->p.masks = pm->masks;
    pm->p.row_of = pm->row_of;
    pm->p.row_outputs = pm->row_outputs;
    pm->p.row_count = pm->row_count;
    pm->p.prio = NULL;
    pm->p.prio_sets = prio_sets;
}

/* Median ns per allocation of the two paths over `repeats` alternating
 * passes; 0 on a disagreement. */
static int time_case(const variant *v, const ba_pool *p, int sim, int repeats, double *ref_ns,
                     double *fast_ns, double *mean) {
    double tr[99], tf[99];
    ba_alloc *ref = ba_ref_make(v->kind, p->n, p->m, &v->o, 1);
    ba_alloc *fast = ba_fast_make(v->kind, p->n, p->m, &v->o, 1);
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
    static char buf[3][512];
    char *items[MAX_LIST];
    int only[NVARIANTS], size_n[MAX_LIST], size_m[MAX_LIST], nsizes = 0, ndens = 0, sets = 65536, repeats = 7;
    int arg, si, di, v, mode, cases = 0, done = 0, k, count;
    double dens[MAX_LIST], t_start = bench_now_ns();
    pool_mem *pm;
    for (v = 0; v < NVARIANTS; v++) only[v] = 1;
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
            const char *s = argv[++arg];
            if ((count = split_list(s, buf[0], sizeof buf[0], items)) == 0) fail("--only: expected NAME[,NAME...]", s);
            for (v = 0; v < NVARIANTS; v++) only[v] = 0;
            for (k = 0; k < count; k++) {
                for (v = 0; v < NVARIANTS && strcmp(variants[v].name, items[k]) != 0; v++) {}
                if (v == NVARIANTS) fail("--only: no such allocator", items[k]);
                only[v] = 1;
            }
        } else if (strcmp(o, "--size") == 0) {
            const char *s = argv[++arg];
            if ((nsizes = split_list(s, buf[1], sizeof buf[1], items)) == 0) fail("--size: expected NxM[,NxM...]", s);
            for (k = 0; k < nsizes; k++) {
                char *x = strchr(items[k], 'x');
                if (x == NULL) fail("--size: expected NxM with N, M in 1..512", s);
                *x = '\0';
                if (!parse_dim(items[k], &size_n[k]) || !parse_dim(x + 1, &size_m[k]))
                    fail("--size: expected NxM with N, M in 1..512", s);
            }
        } else if (strcmp(o, "--density") == 0) {
            const char *s = argv[++arg];
            if ((ndens = split_list(s, buf[2], sizeof buf[2], items)) == 0) fail("--density: expected D[,D...]", s);
            for (k = 0; k < ndens; k++) {
                char *end;
                errno = 0;
                dens[k] = strtod(items[k], &end);
                if (errno || end == items[k] || *end != '\0' || !(dens[k] > 0.0 && dens[k] <= 1.0))
                    fail("--density: expected numbers in (0, 1]", s);
            }
        } else if (strcmp(o, "--pool") == 0) {
            sets = (int)parse_long(argv[++arg], 1, 1048576, "--pool: expected 1..1048576");
        } else if (strcmp(o, "--repeats") == 0) {
            repeats = (int)parse_long(argv[++arg], 1, 99, "--repeats: expected 1..99");
        } else {
            fail("unknown option", o);
        }
    }
    if (nsizes == 0)
        for (; nsizes < (int)(sizeof default_sizes / sizeof default_sizes[0]); nsizes++) {
            size_n[nsizes] = default_sizes[nsizes][0];
            size_m[nsizes] = default_sizes[nsizes][1];
        }
    if (ndens == 0)
        for (; ndens < (int)(sizeof default_densities / sizeof default_densities[0]); ndens++)
            dens[ndens] = default_densities[ndens];
    pm = (pool_mem *)calloc(1, sizeof *pm);
    {
        /* room for the largest pool: 64 x 64 with `sets` sets, or 512 x 512
         * with 256 */
        size_t rows = (size_t)sets * 64 > (size_t)256 * 512 ? (size_t)sets * 64 : (size_t)256 * 512;
        if (pm == NULL || !(pm->masks = (uint64_t *)malloc(rows * 8 * sizeof(uint64_t))) ||
            !(pm->row_of = (uint16_t *)malloc(rows * sizeof(uint16_t))) ||
            !(pm->table_mask = (uint64_t *)malloc((size_t)TABLE_ROWS * 8 * sizeof(uint64_t))) ||
            !(pm->row_outputs = (uint16_t *)malloc((size_t)TABLE_ROWS * 512 * sizeof(uint16_t))) ||
            !(pm->row_count = (uint16_t *)malloc((size_t)TABLE_ROWS * sizeof(uint16_t))) ||
            !(pm->prio = (int32_t *)malloc((size_t)64 * 1024 * 1024 + (size_t)PRIO_SETS * 64 * 64 * 4))) {
            fprintf(stderr, "bench_alloc: out of memory for %d sets\n", sets);
            return 1;
        }
    }
    for (v = 0; v < NVARIANTS; v++) cases += 2 * only[v];
    cases *= nsizes * ndens;
    printf("allocator,inputs,outputs,density,mode,sets,ref_ns,fast_ns,ref_over_fast,mean_matches,state_bytes\n");
    for (si = 0; si < nsizes; si++)
        for (di = 0; di < ndens; di++) {
            int n = size_n[si], m = size_m[si];
            double d = dens[di];
            int big = n * m > 64 * 64, cap = n * m > 128 * 128 ? 64 : 256, case_sets = big && sets > cap ? cap : sets;
            pool_fill(pm, n, m, d, case_sets);
            for (v = 0; v < NVARIANTS; v++) {
                if (!only[v]) continue;
                pm->p.prio = variants[v].kind == K_OPF ? pm->prio : NULL;
                for (mode = 0; mode < 2; mode++) {
                    double ref_ns = 0, fast_ns = 0, mean = 0, el;
                    if (!time_case(&variants[v], &pm->p, mode, big && repeats > 3 ? 3 : repeats, &ref_ns, &fast_ns,
                                   &mean)) {
                        fprintf(stderr, "bench_alloc: %s %dx%d: the reference and fast paths disagree\n",
                                variants[v].name, n, m);
                        return 1;
                    }
                    printf("%s,%d,%d,%.2f,%s,%d,%.1f,%.1f,%.2f,%.3f,%zu\n", variants[v].name, n, m, d,
                           mode ? "sim" : "masks", case_sets, ref_ns, fast_ns, ref_ns / fast_ns, mean,
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
