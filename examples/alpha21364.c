/* alpha21364.c - the Alpha 21364 network timing model of seed 002
 * (Mukherjee et al., "A Comparative Study of Arbitration Algorithms for the
 * Alpha 21364 Pipelined Router", ASPLOS'02), Figures 10 and 11: PIM1,
 * WFA-base, WFA-rotary, SPAA-base and SPAA-rotary on a 2-D torus of 21364
 * routers, as Burton Normal Form curves (average packet latency against
 * delivered flits per router per ns).  The model is examples/common/
 * alpha_net.h; this file is its command line.  CSV on stdout (or -o),
 * progress on stderr.
 *
 *   alpha21364                      4x4 uniform, the five algorithms, a sweep
 *   alpha21364 --figure all -o f.csv   every configuration of Figs 10, 11
 *   alpha21364 --size 8x8 --pattern bitrev --alg SPAA-base,PIM1 --rates 0.01,0.02
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/alpha_net.h"

/* One configuration (one panel of a figure). */
typedef struct cfg {
    const char *figure;
    int kx, ky;
    sim_pattern pattern;
    int scale;
    int outstanding;
    unsigned algs;  /* bit per al_algorithm */
} cfg;

#define ALL5 ((1u << AL_ALG_COUNT) - 1u)
#define FIG11 ((1u << AL_PIM1) | (1u << AL_WFA_ROTARY) | (1u << AL_SPAA_ROTARY))

static const cfg presets[] = {
    { "10", 4, 4, SIM_UNIFORM, 1, 16, ALL5 },
    { "10", 4, 4, SIM_BITREV, 1, 16, ALL5 },
    { "10", 4, 4, SIM_SHUFFLE, 1, 16, ALL5 },
    { "10", 8, 8, SIM_UNIFORM, 1, 16, ALL5 },
    { "10", 8, 8, SIM_BITREV, 1, 16, ALL5 },
    { "10", 8, 8, SIM_SHUFFLE, 1, 16, ALL5 },
    { "11a", 8, 8, SIM_UNIFORM, 2, 16, FIG11 },
    { "11b", 8, 8, SIM_UNIFORM, 1, 64, FIG11 },
    { "11c", 12, 12, SIM_UNIFORM, 1, 16, FIG11 },
};

static const double default_rates[] = {
    0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3
};

static void usage(FILE *f) {
    fprintf(f,
"usage: alpha21364 [options]\n"
"The Alpha 21364 timing model (seed 002 Figures 10, 11): average packet latency\n"
"against delivered throughput for PIM1, WFA-base/rotary, SPAA-base/rotary.\n"
"CSV on stdout, progress on stderr.\n"
"\n"
"  --figure F         run the paper's configurations: 10, 11a, 11b, 11c or all\n"
"                     (otherwise one configuration from the options below)\n"
"  --label L          the figure column of a single configuration (-)\n"
"  --size KxK         torus size (4x4)\n"
"  --pattern P        uniform, bitrev or shuffle (uniform)\n"
"  --alg LIST         comma-separated: PIM1,WFA-base,WFA-rotary,SPAA-base,\n"
"                     SPAA-rotary (all five)\n"
"  --rates LIST       offered loads: new misses per processor per ns\n"
"                     (default a 16-point sweep 0.002..0.3)\n"
"  --outstanding N    misses per processor (16; Fig 11b uses 64)\n"
"  --pipeline 1|2     1: the 21364; 2: twice the pipeline length at twice the\n"
"                     clock (Fig 11a: PIM1 8, WFA 8, SPAA 6 cycles) (1)\n"
"  --cycles N         router cycles per point, warm-up included (75000, as\n"
"                     the paper)\n"
"  --warmup N         cycles before measuring (10000)\n"
"  --seed N           random seed (1)\n"
"  --wfa-wrapped      the wrapped wave-front arbiter instead of the plain one\n"
"  --arb-cycles N     override the arbitration latency in cycles (SPAA 3,\n"
"                     WFA and PIM1 4; times the pipeline factor)\n"
"  --arb-interval N   override the cycles between arbitration starts (SPAA 1,\n"
"                     WFA and PIM1 3; times the pipeline factor)\n"
"  --buf-adaptive N   packets per input port and class, adaptive VC (50)\n"
"  --buf-escape N     packets per input port and class, VC0 and VC1 (1)\n"
"  --color-period N   anti-starvation colouring period in cycles, 0 off (512)\n"
"  --color-threshold N  old packets that start a drain (24)\n"
"  --audit N          conservation audit every N cycles (0: at the end only)\n"
"  -o FILE            write the CSV to FILE\n"
"  -q, --quiet        no progress\n"
"  -h, --help         this text\n"
"\n"
"CSV columns: figure,size,pattern,pipeline,outstanding,algorithm,miss_rate,\n"
"throughput (flits/router/ns),latency_ns (mean),p99_ns,outstanding_avg,\n"
"escape_fraction,packets,drains,cycles\n");
}

static int is_value_option(const char *a) {
    static const char *const opts[] = { "--figure", "--size", "--pattern", "--alg", "--rates", "--outstanding",
        "--pipeline", "--cycles", "--warmup", "--seed", "--buf-adaptive", "--buf-escape", "--color-period",
        "--color-threshold", "--audit", "-o", "--label", "--arb-cycles", "--arb-interval" };
    size_t i;
    for (i = 0; i < sizeof opts / sizeof opts[0]; i++) if (!strcmp(a, opts[i])) return 1;
    return 0;
}

static int parse_size(const char *s, int *kx, int *ky) {
    return sscanf(s, "%dx%d", kx, ky) == 2 && *kx >= 2 && *ky >= 2 && *kx <= 64 && *ky <= 64;
}

static int parse_algs(const char *s, unsigned *mask) {
    char buf[256], *tok;
    if (strlen(s) >= sizeof buf) return 0;
    strcpy(buf, s);
    *mask = 0;
    for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        al_algorithm a = al_algorithm_parse(tok);
        if (a == AL_ALG_COUNT) return 0;
        *mask |= 1u << a;
    }
    return *mask != 0;
}

static int parse_rates(const char *s, double *r, int max) {
    int n = 0;
    const char *p = s;
    while (*p && n < max) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v >= 0)) return 0;
        r[n++] = v;
        p = end;
        if (*p == ',') p++;
        else if (*p) return 0;
    }
    return n;
}

static int parse_int(const char *s, long lo, long hi, int *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

int main(int argc, char **argv) {
    cfg one = { "-", 4, 4, SIM_UNIFORM, 1, 16, ALL5 };
    const char *figure = NULL, *out_path = NULL;
    double rates[64];
    int nrates = 0, cycles = 75000, warmup = 10000, quiet = 0, audit = 0, wrapped = 0;
    int buf_adaptive = 50, buf_escape = 1, color_period = 512, color_threshold = 24;
    int arb_cycles = 0, arb_interval = 0;
    unsigned long long seed = 1;
    FILE *out = stdout;
    int i, c, nc = 0, total = 0, done = 0;
    cfg run[16];
    time_t t0 = time(NULL);

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1, takes = 1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) { quiet = 1; takes = 0; }
        else if (!strcmp(a, "--wfa-wrapped")) { wrapped = 1; takes = 0; }
        else if (!is_value_option(a)) { fprintf(stderr, "alpha21364: unknown option %s (try --help)\n", a); return 2; }
        else if (v == NULL) ok = 0;
        else if (!strcmp(a, "--figure")) figure = v;
        else if (!strcmp(a, "--label")) one.figure = v;
        else if (!strcmp(a, "--size")) ok = parse_size(v, &one.kx, &one.ky);
        else if (!strcmp(a, "--pattern")) {
            one.pattern = sim_pattern_parse(v);
            ok = one.pattern == SIM_UNIFORM || one.pattern == SIM_BITREV || one.pattern == SIM_SHUFFLE;
        }
        else if (!strcmp(a, "--alg")) ok = parse_algs(v, &one.algs);
        else if (!strcmp(a, "--rates")) ok = (nrates = parse_rates(v, rates, 64)) > 0;
        else if (!strcmp(a, "--outstanding")) ok = parse_int(v, 1, 64, &one.outstanding);
        else if (!strcmp(a, "--pipeline")) ok = parse_int(v, 1, 2, &one.scale);
        else if (!strcmp(a, "--cycles")) ok = parse_int(v, 100, 100000000, &cycles);
        else if (!strcmp(a, "--warmup")) ok = parse_int(v, 0, 100000000, &warmup);
        else if (!strcmp(a, "--seed")) { char *end; seed = strtoull(v, &end, 10); ok = end != v && !*end; }
        else if (!strcmp(a, "--buf-adaptive")) ok = parse_int(v, 1, 1000, &buf_adaptive);
        else if (!strcmp(a, "--buf-escape")) ok = parse_int(v, 1, 1000, &buf_escape);
        else if (!strcmp(a, "--color-period")) ok = parse_int(v, 0, 1000000, &color_period);
        else if (!strcmp(a, "--color-threshold")) ok = parse_int(v, 0, 1000000, &color_threshold);
        else if (!strcmp(a, "--audit")) ok = parse_int(v, 0, 100000000, &audit);
        else if (!strcmp(a, "--arb-cycles")) ok = parse_int(v, 1, AL_PIPE, &arb_cycles);
        else if (!strcmp(a, "--arb-interval")) ok = parse_int(v, 1, 64, &arb_interval);
        else if (!strcmp(a, "-o")) out_path = v;
        if (!ok) { fprintf(stderr, "alpha21364: bad or missing value for %s (try --help)\n", a); return 2; }
        i += takes;
    }
    if (warmup >= cycles) { fprintf(stderr, "alpha21364: --warmup must be below --cycles\n"); return 2; }
    if (nrates == 0) {
        nrates = (int)(sizeof default_rates / sizeof default_rates[0]);
        memcpy(rates, default_rates, sizeof default_rates);
    }
    if (figure) {
        int all = !strcmp(figure, "all");
        for (i = 0; i < (int)(sizeof presets / sizeof presets[0]); i++)
            if (all || !strcmp(figure, presets[i].figure)) run[nc++] = presets[i];
        if (nc == 0) { fprintf(stderr, "alpha21364: --figure must be 10, 11a, 11b, 11c or all\n"); return 2; }
    } else run[nc++] = one;
    if (out_path && (out = fopen(out_path, "w")) == NULL) { perror(out_path); return 2; }

    for (c = 0; c < nc; c++)
        for (i = 0; i < AL_ALG_COUNT; i++) if (run[c].algs >> i & 1u) total += nrates;
    fprintf(out, "figure,size,pattern,pipeline,outstanding,algorithm,miss_rate,throughput,latency_ns,"
                 "p99_ns,outstanding_avg,escape_fraction,packets,drains,cycles\n");
    fflush(out);
    for (c = 0; c < nc; c++) {
        int a, k;
        for (a = 0; a < AL_ALG_COUNT; a++) {
            if (!(run[c].algs >> a & 1u)) continue;
            for (k = 0; k < nrates; k++) {
                al_params p;
                al_net net;
                al_result res;
                const char *err;
                int t;
                al_params_default(&p, run[c].kx, run[c].ky, (al_algorithm)a);
                p.pattern = run[c].pattern;
                p.scale = run[c].scale;
                p.outstanding = run[c].outstanding;
                p.miss_rate = rates[k];
                p.seed = seed;
                p.wfa_wrapped = wrapped;
                p.buf_adaptive = buf_adaptive;
                p.buf_escape = buf_escape;
                p.color_period = color_period;
                p.color_threshold = color_threshold;
                p.arb_cycles = arb_cycles;
                p.arb_interval = arb_interval;
                if ((err = al_net_init(&net, &p)) != NULL) { fprintf(stderr, "alpha21364: %s\n", err); return 2; }
                for (t = 0; t < cycles; t++) {
                    if (t == warmup) al_stats_reset(&net);
                    al_step(&net);
                    if (audit && (t + 1) % audit == 0 && (err = al_audit(&net)) != NULL) {
                        fprintf(stderr, "alpha21364: %s\n", err);
                        return 1;
                    }
                }
                if ((err = al_audit(&net)) != NULL) { fprintf(stderr, "alpha21364: %s\n", err); return 1; }
                al_result_get(&net, &res);
                fprintf(out, "%s,%dx%d,%s,%d,%d,%s,%g,%.4f,%.2f,%.1f,%.2f,%.4f,%llu,%llu,%d\n",
                        run[c].figure, run[c].kx, run[c].ky, sim_pattern_name(run[c].pattern), run[c].scale,
                        run[c].outstanding, al_algorithm_name((al_algorithm)a), rates[k], res.throughput,
                        res.latency_ns, res.p99_ns, res.outstanding, res.escape_fraction,
                        (unsigned long long)res.packets, (unsigned long long)net.st.drains, cycles - warmup);
                fflush(out);
                al_net_free(&net);
                done++;
                if (!quiet)
                    fprintf(stderr, "[%d/%d %lds] fig %s %dx%d %s %s rate %g: %.3f flits/router/ns, %.1f ns\n",
                            done, total, (long)(time(NULL) - t0), run[c].figure, run[c].kx, run[c].ky,
                            sim_pattern_name(run[c].pattern), al_algorithm_name((al_algorithm)a), rates[k],
                            res.throughput, res.latency_ns);
            }
        }
    }
    if (out != stdout) fclose(out);
    return 0;
}
