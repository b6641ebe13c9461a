/* bench_alloc.c - nanoseconds per allocation of every switch allocator in
 * seastar_arb.h, at 7x7, 16x7, 8x8, 16x16, 32x32 and 64x64 and request
 * densities 0.25, 0.5 and 0.9 (each cell requested independently), median
 * of repeated runs of thread CPU time.  CSV on stdout:
 *
 *   allocator,inputs,outputs,density,ns_per_alloc,mean_matches,ns_per_step,steps_per_alloc
 *
 * ns_per_step is the machine's speed measured just before each timed run
 * (bench_step_ns: a latency-bound chain of two cycles per step, 0.66 ns at
 * this machine's full 3 GHz) and steps_per_alloc the cost in those steps.
 * The steps follow clock-speed changes, not a busy sibling hyperthread:
 * that halves the throughput of the allocators (about three instructions
 * per cycle) but not the latency-bound chain, so measure on a quiet
 * machine (both of this machine's vCPUs appear to share one core).
 *
 * followed by a second table comparing mean matching sizes at 8x8 and
 * density 0.5 with the values BookSim2's allocators reach on the same kind
 * of sets (issue 3).  Usage:
 *
 *   bench_alloc [--quick] [--only NAME] [--size NxM] [--density D]
 *
 * --only/--size/--density restrict the first table to one allocator (its
 * name as printed), one size, one density (to iterate fast); with any of
 * them the second table and the calibration row are left out.
 */
#include <stdio.h>
#include <string.h>
#include "../seastar_arb.h"
#include "bench.h"

#define POOL 256

typedef struct variant {
    const char *name;
    sa_alloc_kind kind;
    int iterations;
} variant;

static const variant variants[] = {
    { "SPAA", SA_ALLOC_SPAA, 1 },
    { "WFA", SA_ALLOC_WFA, 1 },
    { "WFA-wrapped", SA_ALLOC_WFA_WRAPPED, 1 },
    { "PIM1", SA_ALLOC_PIM, 1 },
    { "PIM-converged", SA_ALLOC_PIM, SA_ITERATE_TO_CONVERGENCE },
    { "iSLIP-1", SA_ALLOC_ISLIP, 1 },
    { "iSLIP-4", SA_ALLOC_ISLIP, 4 },
    { "OPF", SA_ALLOC_OPF, 1 },
    { "separable-input-first", SA_ALLOC_SEP_INPUT, 1 },
    { "separable-output-first", SA_ALLOC_SEP_OUTPUT, 1 },
    { "MCM", SA_ALLOC_MCM, 1 },
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static uint64_t rng_state = 0x5EED;
static uint64_t next_rand(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t pool[POOL][64];
static uint8_t ages[POOL][64 * 64];

static void fill_pool(int n, int m, double density) {
    int s, i, j;
    uint64_t thr = (uint64_t)(density * 18446744073709551615.0);
    for (s = 0; s < POOL; s++)
        for (i = 0; i < n; i++) {
            pool[s][i] = 0;
            for (j = 0; j < m; j++) {
                if (next_rand() < thr) pool[s][i] |= (uint64_t)1 << j;
                ages[s][i * m + j] = (uint8_t)(next_rand() & 255);
            }
        }
}

/* Median ns per allocation over `repeats` runs of `iters` allocations;
 * *mean gets the mean matching size of one pass over the pool, *step the
 * median machine speed (bench_step_ns, measured just before every run) and
 * *steps the median of each run's ns divided by its own step time. */
static double time_variant(const variant *v, int n, int m, int iters, int repeats, double *mean,
                           double *step, double *steps) {
    double cal[64], ratio[64];
    sa_alloc a;
    sa_alloc_desc d;
    sa_match mt;
    double runs[64];
    long total = 0;
    int r, k;
    memset(&d, 0, sizeof d);
    d.kind = v->kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = v->iterations;
    d.seed = 1;
    if (sa_alloc_init(&a, &d) != SA_OK) return -1;
    for (k = 0; k < POOL; k++) {
        int s = k & (POOL - 1);
        total += sa_allocate(&a, pool[s], v->kind == SA_ALLOC_OPF ? ages[s] : NULL, NULL, &mt);
    }
    *mean = (double)total / POOL;
    for (r = 0; r < repeats; r++) {
        double c = bench_step_ns(1000000L), t0 = bench_cpu_ns(), t1;
        uint64_t acc = 0;
        for (k = 0; k < iters; k++) {
            int s = k & (POOL - 1);
            acc += (uint64_t)sa_allocate(&a, pool[s], v->kind == SA_ALLOC_OPF ? ages[s] : NULL, NULL, &mt);
        }
        t1 = bench_cpu_ns();
        BENCH_USE(acc);
        runs[r] = (t1 - t0) / iters;
        cal[r] = c;
        ratio[r] = runs[r] / c;
    }
    *step = bench_median(cal, repeats);
    *steps = bench_median(ratio, repeats);
    return bench_median(runs, repeats);
}

int main(int argc, char **argv) {
    static const int sizes[][2] = { {7, 7}, {16, 7}, {8, 8}, {16, 16}, {32, 32}, {64, 64} };
    static const double dens[] = { 0.25, 0.5, 0.9 };
    int quick = 0, filtered = 0, only_n = 0, only_m = 0, arg;
    const char *only = NULL;
    double only_d = -1;
    int si, di, v;
    for (arg = 1; arg < argc; arg++) {
        if (strcmp(argv[arg], "--quick") == 0) quick = 1;
        else if (strcmp(argv[arg], "--only") == 0 && arg + 1 < argc) only = argv[++arg], filtered = 1;
        else if (strcmp(argv[arg], "--size") == 0 && arg + 1 < argc) {
            if (sscanf(argv[++arg], "%dx%d", &only_n, &only_m) != 2) return 2;
            filtered = 1;
        } else if (strcmp(argv[arg], "--density") == 0 && arg + 1 < argc) {
            only_d = atof(argv[++arg]);
            filtered = 1;
        } else {
            fprintf(stderr, "usage: bench_alloc [--quick] [--only NAME] [--size NxM] [--density D]\n");
            return 2;
        }
    }
    printf("allocator,inputs,outputs,density,ns_per_alloc,mean_matches,ns_per_step,steps_per_alloc\n");
    for (si = 0; si < 6; si++)
        for (di = 0; di < 3; di++) {
            int n = sizes[si][0], m = sizes[si][1];
            fill_pool(n, m, dens[di]); /* always: the same pools as a full run */
            if (only_n && (n != only_n || m != only_m)) continue;
            if (only_d >= 0 && (only_d < dens[di] - 0.001 || only_d > dens[di] + 0.001)) continue;
            for (v = 0; v < NVARIANTS; v++) {
                double mean = 0, ns, step = 0, steps = 0;
                if (only && strcmp(only, variants[v].name) != 0) continue;
                int cells = n * m;
                int iters = (quick ? 20000 : 200000) / (cells / 49 + 1);
                if (variants[v].kind == SA_ALLOC_MCM || variants[v].iterations != 1) iters /= 4;
                if (iters < 1000) iters = 1000;
                ns = time_variant(&variants[v], n, m, iters, quick ? 5 : 15, &mean, &step, &steps);
                printf("%s,%d,%d,%.2f,%.1f,%.3f,%.3f,%.1f\n", variants[v].name, n, m, dens[di], ns, mean,
                       step, steps);
                fflush(stdout);
            }
        }
    if (filtered) return 0;
    /* Mean matching sizes at 8x8, density 0.5, over 100000 sets, next to the
     * values BookSim2's allocators give on the same kind of sets. */
    {
        static const struct { const char *name; double booksim; } ref[] = {
            { "MCM", 7.93 }, { "WFA-wrapped", 6.84 }, { "iSLIP-1", 5.45 }, { "PIM1", 5.25 } };
        int q, s;
        printf("\nallocator,mean_matches_8x8_d0.5,booksim2\n");
        for (v = 0; v < NVARIANTS; v++) {
            sa_alloc a;
            sa_alloc_desc d;
            sa_match mt;
            long total = 0, sets = quick ? 20000 : 100000;
            double bs = -1;
            memset(&d, 0, sizeof d);
            d.kind = variants[v].kind;
            d.num_inputs = d.num_outputs = 8;
            d.iterations = variants[v].iterations;
            d.seed = 2;
            sa_alloc_init(&a, &d);
            for (s = 0; s < sets; s++) {
                uint64_t req[8];
                int i;
                for (i = 0; i < 8; i++) {
                    int j;
                    req[i] = 0;
                    for (j = 0; j < 8; j++) if (next_rand() >> 63) req[i] |= (uint64_t)1 << j;
                }
                total += sa_allocate(&a, req, NULL, NULL, &mt);
            }
            for (q = 0; q < 4; q++) if (strcmp(ref[q].name, variants[v].name) == 0) bs = ref[q].booksim;
            if (bs > 0) printf("%s,%.3f,%.2f\n", variants[v].name, (double)total / sets, bs);
            else printf("%s,%.3f,\n", variants[v].name, (double)total / sets);
        }
    }
    /* Machine speed at the end of the run (bench_step_ns). */
    printf("\ncalibration,ns_per_dependent_add_xor_step\nloop,%.3f\n",
           bench_step_ns(quick ? 20000000L : 100000000L));
    return 0;
}
