/* SPDX-License-Identifier: MIT */
/* matching_study.c - the standalone matching study of the Alpha 21364
 * router (seed 002 Section 5.1, Figures 8 and 9), on seastar_arb.h.
 *
 * One 21364 router: 8 input ports, each buffer read by 2 read ports (16
 * input arbiters), 7 output ports, the connection matrix of
 * sa_21364_no_connect.  Each arbitration starts from freshly drawn buffers
 * (nothing carries over but the allocators' own state), as in the paper:
 *
 *   - all algorithms take one cycle;
 *   - 50% of the packets are local, for the memory controller and I/O
 *     outputs (G-L0, G-L1, G-I/O); the rest go uniformly to the network
 *     outputs (G-N, G-S, G-E, G-W) other than the one they came in on;
 *   - adaptive routing within the minimal rectangle: a network packet may
 *     also use one perpendicular direction (with probability --adaptive,
 *     default 0.5), so it can use one of at most two outputs;
 *   - the number of packets in each input buffer is Poisson with mean
 *     `load` (at most 64); the oldest packet comes first;
 *   - busy outputs (Figure 9) are removed from every packet's choices.
 *
 * Algorithms: MCM, PIM (converged), WFA (base), wrapped WFA, PIM1, SPAA
 * (base; 16 input arbiters, one per read port) and SPAA-8 (SPAA with one
 * nomination per input buffer: the even read port's arbiter reaches what
 * either read port reaches, the odd one is idle), which is how we read the
 * paper's standalone SPAA numbers (see docs/allocators.rst).
 *
 * Output, in the directory given by --out (default build/study, created
 * with its parents if missing):
 *   fig8.csv     matches per cycle against load / MCM saturation load
 *   fig9.csv     matches per cycle against output occupancy at saturation
 *   effects.csv  the effect of the choices the paper leaves open
 * and a summary next to the paper's numbers on stdout.
 *
 * Usage: matching_study [--arbs N] [--adaptive P] [--seed N] [--out DIR] [--bench]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "../seastar_arb.h"
#include "common/cli.h"
#include "common/sim_progress.h"

#define NPORTS SA_21364_IN_PORTS
#define NOUT SA_21364_OUT_PORTS
#define MAXPKT 64
#define NALG 7
#define SPAA8 6 /* SPAA with one nomination per input buffer */

typedef struct study_cfg {
    double adaptive;     /* probability that a network packet has 2 options */
    int shading;         /* 1: the 54-cell matrix; 0: full crossbar */
    int pairing;         /* 1: read ports must not share a packet */
    int occupancy_exact; /* 1: exactly round(f*7) busy outputs; 0: each busy with prob f */
    long arbs;           /* arbitrations per point */
} study_cfg;

/* Progress on stderr, in arbitrations of all the points. */
static sim_progress progress;

static const char *alg_name[NALG] = { "MCM", "PIM", "WFA", "WFA-wrapped", "PIM1", "SPAA", "SPAA-8" };

/* Draw from Poisson(mean) with the library's generator (Knuth's method). */
static int poisson(sa_rng *r, double mean) {
    double l = exp(-mean), p = 1.0;
    int k = 0;
    do {
        k++;
        p *= (double)(sa_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    } while (p > l && k < 10 * MAXPKT);
    k--;
    return k > MAXPKT ? MAXPKT : k;
}

static double uniform01(sa_rng *r) { return (double)(sa_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* The outputs an input port may route a packet to (no U-turn, no memory
 * controller to itself). */
static uint64_t port_reach(int port) {
    uint64_t all = ((uint64_t)1 << NOUT) - 1;
    if (port <= SA_21364_IN_WEST) all &= ~((uint64_t)1 << port); /* N in -> not back N */
    if (port == SA_21364_IN_MC0) all &= ~((uint64_t)1 << SA_21364_OUT_L0);
    if (port == SA_21364_IN_MC1) all &= ~((uint64_t)1 << SA_21364_OUT_L1);
    return all;
}

/* One packet's candidate outputs (before busy outputs are removed). */
static uint64_t draw_packet(sa_rng *r, int port, double adaptive) {
    uint64_t reach = port_reach(port), net = reach & 0xF, loc = reach & 0x70, opts;
    int first, second;
    if (sa_rng_below(r, 2) == 0) return (uint64_t)1 << sa_rng_pick(r, loc);
    first = sa_rng_pick(r, net);
    opts = (uint64_t)1 << first;
    if (uniform01(r) < adaptive) {
        /* Perpendicular directions: N/S (0/1) pair with E/W (2/3). */
        uint64_t perp = (first < 2 ? 0xCu : 0x3u) & net;
        second = sa_rng_pick(r, perp);
        if (second >= 0) opts |= (uint64_t)1 << second;
    }
    return opts;
}

/* The allocators and their memory (malloc'd by router_init, which frees the
 * previous memory: start from a zeroed router_state). */
typedef struct router_state {
    sa_switch alloc[NALG];
    void *memory[NALG];
} router_state;

static void router_init(router_state *st, const study_cfg *cfg) {
    static const sa_switch_kind kinds[NALG] = { SA_SWITCH_MCM, SA_SWITCH_PIM, SA_SWITCH_WFA,
                                               SA_SWITCH_WFA_WRAPPED, SA_SWITCH_PIM, SA_SWITCH_SPAA,
                                               SA_SWITCH_SPAA };
    int a;
    for (a = 0; a < NALG; a++) {
        sa_switch_desc d;
        uint64_t no_connect[2 * NPORTS];
        size_t size;
        sa_switch_desc_21364(&d, kinds[a], 0);
        if (a == 1) d.iterations = SA_ITERATE_TO_CONVERGENCE;
        sa_21364_no_connect(no_connect);
        if (!cfg->shading) memset(no_connect, 0, sizeof no_connect);
        if (a == SPAA8) {
            /* One SPAA input arbiter per buffer, reaching what either read
             * port reaches; the odd rows get no requests. */
            int p;
            for (p = 0; p < NPORTS; p++) no_connect[2 * p] &= no_connect[2 * p + 1];
        }
        d.no_connect = no_connect;
        d.seed = 1000 + (uint64_t)a;
        size = sa_switch_memory_size(&d);
        free(st->memory[a]);
        st->memory[a] = malloc(size ? size : 1);
        if (st->memory[a] == NULL || sa_switch_init(&st->alloc[a], &d, st->memory[a], size) != SA_OK) {
            fprintf(stderr, "sa_switch_init failed\n");
            exit(1);
        }
    }
}

/* Mean matches per cycle of every algorithm at one (load, occupancy). */
static void run_point(const study_cfg *cfg, router_state *st, sa_rng *rng, double load,
                      double occupancy, double *mean, double *ns) {
    long t, total[NALG] = { 0 };
    double spent[NALG] = { 0 };
    int a;
    for (t = 0; t < cfg->arbs; t++) {
        uint64_t pkts[NPORTS][MAXPKT], req[2 * NPORTS], busy = 0;
        int32_t prio[2 * NPORTS * NOUT];
        sa_read_buffer views[NPORTS];
        int count[NPORTS], p, k, j;
        if (cfg->occupancy_exact) {
            int nbusy = (int)floor(occupancy * NOUT + 0.5), c = 0;
            while (c < nbusy) {
                uint64_t bit = (uint64_t)1 << sa_rng_below(rng, NOUT);
                c += (busy & bit) == 0;
                busy |= bit;
            }
        } else {
            for (j = 0; j < NOUT; j++) if (uniform01(rng) < occupancy) busy |= (uint64_t)1 << j;
        }
        for (p = 0; p < NPORTS; p++) {
            count[p] = poisson(rng, load);
            for (k = 0; k < count[p]; k++) pkts[p][k] = draw_packet(rng, p, cfg->adaptive) & ~busy;
            sa_read_buffer_build(&views[p], pkts[p], count[p]);
            req[2 * p] = req[2 * p + 1] = views[p].any;
            /* SPAA's input arbiters pick the oldest packet: priority of a
             * cell = age rank of the oldest packet that can use it. */
            for (j = 0; j < NOUT; j++) {
                int32_t pr = 0;
                for (k = 0; k < count[p]; k++)
                    if ((pkts[p][k] >> j) & 1u) { pr = 255 - (k < 255 ? k : 254); break; }
                prio[(2 * p) * NOUT + j] = prio[(2 * p + 1) * NOUT + j] = pr;
            }
        }
        sim_progress_add(&progress, 1.0, NULL);
        for (a = 0; a < NALG; a++) {
            sa_match mt;
            struct timespec t0, t1;
            uint64_t one[2 * NPORTS];
            const uint64_t *r = req;
            if (a == SPAA8) {
                for (p = 0; p < 2 * NPORTS; p++) one[p] = (p & 1) ? 0 : req[p];
                r = one;
            }
            if (ns) clock_gettime(CLOCK_MONOTONIC, &t0);
            total[a] += sa_switch_allocate(&st->alloc[a], r, a >= 5 ? prio : NULL,
                                    cfg->pairing ? views : NULL, &mt);
            if (ns) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                spent[a] += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
            }
        }
    }
    for (a = 0; a < NALG; a++) {
        mean[a] = (double)total[a] / (double)cfg->arbs;
        if (ns) ns[a] = spent[a] / (double)cfg->arbs;
    }
}

/* MCM's saturation load: the smallest load (to 0.02 packets per buffer,
 * found by bisection; MCM's matches grow with the load) at which MCM's mean
 * matches reach 99% of the 7 outputs. */
static double saturation_load(const study_cfg *cfg, sa_rng *rng) {
    double lo = 0.0, hi = 40.0, mean[NALG];
    router_state st;
    int a;
    memset(&st, 0, sizeof st);
    router_init(&st, cfg);
    while (hi - lo > 0.02) {
        double mid = 0.5 * (lo + hi);
        run_point(cfg, &st, rng, mid, 0.0, mean, NULL);
        if (mean[0] >= 0.99 * NOUT) hi = mid;
        else lo = mid;
    }
    for (a = 0; a < NALG; a++) free(st.memory[a]);
    return hi;
}

/* Create dir and its parents, as mkdir -p. */
static void make_dirs(const char *dir) {
    char path[1024], *s;
    snprintf(path, sizeof path, "%s", dir);
    for (s = path + 1; ; s++) {
        if (*s == '/' || *s == 0) {
            char keep = *s;
            *s = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "matching_study: cannot create %s: %s\n", path, strerror(errno));
                exit(1);
            }
            *s = keep;
            if (!keep) break;
        }
    }
}

static FILE *open_out(const char *dir, const char *name) {
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    return f;
}

static void print_row(FILE *f, const char *prefix, double x, const double *mean) {
    int a;
    fprintf(f, "%s%.4f", prefix, x);
    for (a = 0; a < NALG; a++) fprintf(f, ",%.4f", mean[a]);
    fprintf(f, "\n");
    fflush(f);      /* each point is in the file as soon as it is done */
}

static const cli_opt options[] = {
    { "--arbs", NULL, "N", CLI_INT, 1, 100000000, 0, 0, NULL, "5000",
      "arbitrations per point (the paper: 1000)" },
    { "--adaptive", NULL, "P", CLI_REAL, 0, 0, 0, 1, NULL, "0.5",
      "probability that a network packet may also use a second output" },
    { "--out", NULL, "DIR", CLI_TEXT, 0, 0, 0, 0, "a directory (created with its parents if missing)",
      "build/study", "where the CSV files go" },
    { "--seed", NULL, "N", CLI_INT, 0, UINT64_MAX, 0, 0, NULL, "21364",
      "random seed of the requests and occupied outputs" },
    { "--bench", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "time one arbitration of each algorithm at MCM's saturation load\n"
      "(CSV on stdout; no files)" },
};

/* Bisection steps of saturation_load: 40 halved down to 0.02. */
#define SAT_STEPS 11

int main(int argc, char **argv) {
    study_cfg cfg;
    const char *out = "build/study";
    int i, a, bench = 0;
    uint64_t seed = 21364;
    double sat, mean[NALG], at_sat[NALG], at75[NALG];
    sa_rng rng;
    router_state st;
    FILE *f;
    cli cl;
    cfg.adaptive = 0.5;
    cfg.shading = 1;
    cfg.pairing = 1;
    cfg.occupancy_exact = 1;
    cfg.arbs = 5000;
    cli_init(&cl, "matching_study",
             "usage: matching_study [options]\n"
             "\n"
             "The standalone matching study of the Alpha 21364 router (Mukherjee et al.,\n"
             "ASPLOS'02, Section 5.1, Figures 8 and 9): matches per cycle of MCM, PIM, WFA,\n"
             "PIM1 and SPAA against load and output occupancy.\n",
             "Writes fig8.csv, fig9.csv and effects.csv into --out and a summary next to\n"
             "the paper's numbers on stdout; progress on stderr every 1.5 s.\n",
             options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&cl)) {
        if (cli_is(&cl, "--arbs")) cfg.arbs = (long)cli_uint(&cl);
        else if (cli_is(&cl, "--adaptive")) cfg.adaptive = cli_real(&cl);
        else if (cli_is(&cl, "--out")) {
            out = cl.val;
            if (!*out) cli_bad_value(&cl, "--out", out, "empty");
        }
        else if (cli_is(&cl, "--seed")) seed = cli_uint(&cl);
        else if (cli_is(&cl, "--bench")) bench = 1;
        else cli_unhandled(&cl);
    }
    memset(&st, 0, sizeof st);
    if (bench && cli_given(&cl, "--out")) cli_fail(&cl, "--bench writes no files: it takes no --out");
    if (!bench) make_dirs(out);
    /* points: saturation, Figure 8 (20), Figure 9 (16), six variants of
     * (saturation + 3 occupancies); --bench: saturation + 1 */
    sim_progress_init(&progress, stderr, "matching_study", "arbitrations",
                      (double)cfg.arbs * (bench ? SAT_STEPS + 1 : SAT_STEPS + 20 + 16 + 6 * (SAT_STEPS + 3)));
    sa_rng_seed(&rng, seed);
    sat = saturation_load(&cfg, &rng);

    if (bench) {
        double ns[NALG];
        router_init(&st, &cfg);
        run_point(&cfg, &st, &rng, sat, 0.0, mean, ns);
        printf("algorithm,ns_per_arbitration,matches_per_cycle\n");
        for (a = 0; a < NALG; a++) printf("%s,%.1f,%.3f\n", alg_name[a], ns[a], mean[a]);
        sim_progress_end(&progress);
        return 0;
    }

    /* Figure 8: load as a fraction of MCM's saturation load, all outputs free. */
    f = open_out(out, "fig8.csv");
    fprintf(f, "load_fraction,MCM,PIM,WFA,WFA_wrapped,PIM1,SPAA,SPAA_8\n");
    router_init(&st, &cfg);
    for (i = 1; i <= 20; i++) {
        run_point(&cfg, &st, &rng, sat * i / 10.0, 0.0, mean, NULL);
        print_row(f, "", i / 10.0, mean);
        if (i == 10) memcpy(at_sat, mean, sizeof mean);
    }
    fclose(f);

    /* Figure 9: output occupancy 0..75% at MCM's saturation load. */
    f = open_out(out, "fig9.csv");
    fprintf(f, "occupancy,MCM,PIM,WFA,WFA_wrapped,PIM1,SPAA,SPAA_8\n");
    router_init(&st, &cfg);
    for (i = 0; i <= 15; i++) {
        run_point(&cfg, &st, &rng, sat, i * 0.05, mean, NULL);
        print_row(f, "", i * 0.05, mean);
        if (i == 15) memcpy(at75, mean, sizeof mean);
    }
    fclose(f);

    printf("MCM saturation load: %.2f packets per input buffer (MCM reaches 99%% of 7)\n", sat);
    printf("arbitrations per point: %ld\n\n", cfg.arbs);
    printf("at MCM saturation, all outputs free (Figure 8):\n");
    printf("  %-12s %8s %10s %10s %14s\n", "algorithm", "matches", "vs SPAA", "vs SPAA-8", "paper vs SPAA");
    for (a = 0; a < NALG; a++) {
        const char *paper = a == 0 || a == 1 || a == 2 ? "+36%" : a == 4 ? "+14%" : a == 5 ? "0%" : "-";
        printf("  %-12s %8.3f %+9.1f%% %+9.1f%% %14s\n", alg_name[a], at_sat[a],
               100.0 * (at_sat[a] / at_sat[5] - 1.0), 100.0 * (at_sat[a] / at_sat[SPAA8] - 1.0), paper);
    }
    printf("\nat 75%% output occupancy (Figure 9; the paper: differences vanish):\n");
    for (a = 0; a < NALG; a++)
        printf("  %-12s %8.3f %+9.1f%% %+9.1f%%\n", alg_name[a], at75[a], 100.0 * (at75[a] / at75[5] - 1.0),
               100.0 * (at75[a] / at75[SPAA8] - 1.0));

    /* The choices the paper leaves open, and their effect at saturation
     * (0% occupancy) and at 50% and 75% occupancy. */
    f = open_out(out, "effects.csv");
    fprintf(f, "variant,occupancy,saturation_load,MCM,PIM,WFA,WFA_wrapped,PIM1,SPAA,SPAA_8\n");
    printf("\neffect of the open choices (matches per cycle; gap = MCM/SPAA - 1 and MCM/SPAA-8 - 1)\n"
           "baseline: 54-cell matrix, read-port pairs, exactly round(f*7) busy outputs, adaptive 0.5\n");
    {
        static const struct { const char *name; int shading, pairing, exact; double adaptive; } v[] = {
            { "baseline", 1, 1, 1, 0.5 },
            { "full-crossbar", 0, 1, 1, 0.5 },
            { "no-read-port-pairing", 1, 0, 1, 0.5 },
            { "bernoulli-occupancy", 1, 1, 0, 0.5 },
            { "adaptive=0", 1, 1, 1, 0.0 },
            { "adaptive=1", 1, 1, 1, 1.0 },
        };
        int k;
        static const double occ[3] = { 0.0, 0.5, 0.75 };
        for (k = 0; k < (int)(sizeof v / sizeof v[0]); k++) {
            study_cfg c = cfg;
            double s;
            int o;
            c.shading = v[k].shading;
            c.pairing = v[k].pairing;
            c.occupancy_exact = v[k].exact;
            c.adaptive = v[k].adaptive;
            s = saturation_load(&c, &rng);
            router_init(&st, &c);
            for (o = 0; o < 3; o++) {
                run_point(&c, &st, &rng, s, occ[o], mean, NULL);
                fprintf(f, "%s,%.2f,%.2f", v[k].name, occ[o], s);
                for (a = 0; a < NALG; a++) fprintf(f, ",%.4f", mean[a]);
                fprintf(f, "\n");
                fflush(f);
                printf("  %-22s occ %3.0f%% sat %5.2f  MCM %.2f PIM %.2f WFA %.2f PIM1 %.2f SPAA %.2f SPAA-8 %.2f"
                       "  gap %+.0f%% / %+.0f%%\n",
                       v[k].name, 100 * occ[o], s, mean[0], mean[1], mean[2], mean[4], mean[5], mean[6],
                       100.0 * (mean[0] / mean[5] - 1.0), 100.0 * (mean[0] / mean[6] - 1.0));
            }
        }
    }
    fclose(f);
    printf("\nCSV written to %s/{fig8,fig9,effects}.csv\n", out);
    sim_progress_end(&progress);
    return 0;
}
