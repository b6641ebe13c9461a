/* SPDX-License-Identifier: MIT */
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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/alpha_net.h"
#include "common/cli.h"
#include "common/sim_progress.h"

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

static const char *const usage_text =
"usage: alpha21364 [options]\n"
"\n"
"The Alpha 21364 timing model of Mukherjee et al., \"A comparative study of\n"
"arbitration algorithms for the Alpha 21364 pipelined router\", ASPLOS'02\n"
"(Figures 10, 11): average packet latency against delivered throughput for\n"
"PIM1, WFA-base/rotary, SPAA-base/rotary.\n"
"CSV on stdout (a line per point as soon as it is done), progress on stderr.\n";

static const char *const notes_text =
"Without --figure, one configuration from --label, --size, --pattern, --alg,\n"
"--outstanding and --pipeline; with --figure, the paper's configurations\n"
"(those options are then refused).\n"
"\n"
"CSV columns: figure,size,pattern,pipeline,outstanding,algorithm,miss_rate,\n"
"throughput (flits/router/ns),latency_ns (mean),p99_ns,outstanding_avg,\n"
"escape_fraction,packets,drains,cycles.  A p99 in the latency histogram's last\n"
"bin prints as >=bound (only the bound is known).\n";

static const cli_opt options[] = {
    { "--figure", NULL, "F", CLI_CHOICE, 0, 0, 0, 0, "10|11a|11b|11c|all", "none",
      "run the paper's configurations of a figure" },
    { "--label", NULL, "L", CLI_TEXT, 0, 0, 0, 0, NULL, "-", "the figure column of a single configuration" },
    { "--size", NULL, "KxK", CLI_INT, 2, 64, 0, 0, "two radices 2 to 64 separated by x", "4x4", "torus size" },
    { "--pattern", NULL, "P", CLI_CHOICE, 0, 0, 0, 0, "uniform|bitrev|shuffle", "uniform", "traffic pattern" },
    { "--alg", NULL, "LIST", CLI_TEXT, 0, 0, 0, 0,
      "one or more of PIM1, WFA-base, WFA-rotary, SPAA-base, SPAA-rotary separated by commas",
      "all five", "algorithms" },
    { "--rates", NULL, "LIST", CLI_REAL, 0, 0, 0, 10, "1 to 64 rates 0 to 10, separated by commas",
      "16 rates 0.002..0.3", "offered loads: new misses per processor per ns" },
    { "--outstanding", NULL, "N", CLI_INT, 1, 64, 0, 0, NULL, "16", "misses per processor (Fig 11b: 64)" },
    { "--pipeline", NULL, "N", CLI_INT, 1, 2, 0, 0, NULL, "1",
      "1: the 21364; 2: twice the pipeline length at twice the clock\n"
      "(Fig 11a: PIM1 8, WFA 8, SPAA 6 cycles)" },
    { "--cycles", NULL, "N", CLI_INT, 100, 100000000, 0, 0, NULL, "75000, as the paper",
      "router cycles per point, warm-up included" },
    { "--warmup", NULL, "N", CLI_INT, 0, 100000000, 0, 0, "0 to 100000000, below --cycles", "10000",
      "cycles before measuring" },
    { "--seed", NULL, "N", CLI_INT, 0, UINT64_MAX, 0, 0, NULL, "1", "random seed" },
    { "--wfa-wrapped", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "the wrapped wave-front arbiter instead of the plain one" },
    { "--arb-cycles", NULL, "N", CLI_INT, 1, AL_PIPE, 0, 0, NULL, "SPAA 3, WFA and PIM1 4",
      "arbitration latency in cycles (times the pipeline factor)" },
    { "--arb-interval", NULL, "N", CLI_INT, 1, 64, 0, 0, NULL, "SPAA 1, WFA and PIM1 3",
      "cycles between arbitration starts (times the pipeline factor)" },
    { "--buf-adaptive", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "50 = (316 - 1 - 12) / 6",
      "packets per input port and class, adaptive VC" },
    { "--buf-escape", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "1",
      "packets per input port and class, VC0 and VC1" },
    { "--color-period", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "512",
      "anti-starvation colouring period in cycles, 0 off" },
    { "--color-threshold", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "24", "old packets that start a drain" },
    { "--buf-shared", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "the adaptive VCs of an input port share one pool of 316 - 1 - 12 x\n"
      "the escape buffers (303); VC0 and VC1 stay reserved per class" },
    { "--mc-slots", NULL, "N", CLI_INT, 0, 1000, 0, 0, NULL, "0 = unbounded",
      "requests a memory controller holds at once (from its local output\n"
      "to the end of its 73 ns access); full, it refuses requests (back-pressure)" },
    { "--sink-slots", NULL, "N", CLI_INT, 0, 1000, 0, 0, NULL, "0 = always accepts",
      "packets each local output's sink (memory controller and cache) holds\n"
      "at once: a request to the end of its memory access, a forward to the\n"
      "end of its L2 access, a response until delivered; full, it refuses\n"
      "every class (back-pressure)" },
    { "--audit", NULL, "N", CLI_INT, 0, 100000000, 0, 0, NULL, "0: at the end only",
      "conservation audit every N cycles" },
    { "-o", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, "stdout", "write the CSV to FILE" },
    { "--quiet", "-q", NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress" },
};

/* --alg: a comma-separated list of algorithm names. */
static unsigned parse_algs(const cli *c) {
    char buf[256], *tok;
    unsigned mask = 0;
    if (strlen(c->val) >= sizeof buf) cli_bad_value(c, c->opt->name, c->val, "too long");
    strcpy(buf, c->val);
    if (!*buf || buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
        cli_bad_value(c, c->opt->name, c->val, "an empty item");
    for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        al_algorithm a = al_algorithm_parse(tok);
        if (a == AL_ALG_COUNT) cli_bad_value(c, c->opt->name, c->val, "\"%s\" is not an algorithm", tok);
        mask |= 1u << a;
    }
    return mask;
}

int main(int argc, char **argv) {
    static const char *const figures[] = { "10", "11a", "11b", "11c", "all" };
    static const sim_pattern patterns[] = { SIM_UNIFORM, SIM_BITREV, SIM_SHUFFLE };
    cfg one = { "-", 4, 4, SIM_UNIFORM, 1, 16, ALL5 };
    const char *figure = NULL, *out_path = NULL;
    double rates[64], total_work = 0;
    int nrates = 0, cycles = 75000, warmup = 10000, quiet = 0, audit = 0, wrapped = 0;
    int buf_adaptive = 50, buf_escape = 1, color_period = 512, color_threshold = 24, mc_slots = 0, buf_shared = 0, sink_slots = 0;
    int arb_cycles = 0, arb_interval = 0;
    unsigned long long seed = 1;
    FILE *out = stdout;
    int i, c, nc = 0, total = 0, done = 0;
    cfg run[16];
    time_t t0 = time(NULL);
    sim_progress prog;
    cli cl;

    cli_init(&cl, "alpha21364", usage_text, notes_text, options, (int)(sizeof options / sizeof options[0]),
             argc, argv);
    while (cli_next(&cl)) {
        if (cli_is(&cl, "--figure")) figure = figures[cli_choice(&cl)];
        else if (cli_is(&cl, "--label")) one.figure = cl.val;
        else if (cli_is(&cl, "--size")) {
            uint64_t k[2];
            cli_uint_list(&cl, 'x', 2, 2, k);
            one.kx = (int)k[0];
            one.ky = (int)k[1];
        }
        else if (cli_is(&cl, "--pattern")) one.pattern = patterns[cli_choice(&cl)];
        else if (cli_is(&cl, "--alg")) one.algs = parse_algs(&cl);
        else if (cli_is(&cl, "--rates")) nrates = cli_real_list(&cl, ',', 1, 64, rates);
        else if (cli_is(&cl, "--outstanding")) one.outstanding = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--pipeline")) one.scale = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--cycles")) cycles = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--warmup")) warmup = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--seed")) seed = cli_uint(&cl);
        else if (cli_is(&cl, "--wfa-wrapped")) wrapped = 1;
        else if (cli_is(&cl, "--arb-cycles")) arb_cycles = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--arb-interval")) arb_interval = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--buf-adaptive")) buf_adaptive = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--buf-escape")) buf_escape = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--color-period")) color_period = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--color-threshold")) color_threshold = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--mc-slots")) mc_slots = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--buf-shared")) buf_shared = 1;
        else if (cli_is(&cl, "--sink-slots")) sink_slots = (int)cli_uint(&cl);
        else if (cli_is(&cl, "--audit")) audit = (int)cli_uint(&cl);
        else if (cli_is(&cl, "-o")) out_path = cl.val;
        else if (cli_is(&cl, "--quiet")) quiet = 1;
        else cli_unhandled(&cl);
    }
    if (warmup >= cycles) {
        char num[32];
        snprintf(num, sizeof num, "%d", warmup);
        cli_bad_value(&cl, "--warmup", num, "not below --cycles %d", cycles);
    }
    if (figure) {
        static const char *const single[] = { "--label", "--size", "--pattern", "--alg", "--outstanding", "--pipeline" };
        for (i = 0; i < (int)(sizeof single / sizeof single[0]); i++)
            if (cli_given(&cl, single[i]))
                cli_fail(&cl, "--figure runs the paper's configurations: it takes no %s", single[i]);
    }
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
    if (out_path && (out = fopen(out_path, "w")) == NULL) {
        fprintf(stderr, "alpha21364: -o \"%s\": cannot write: %s\n", out_path, strerror(errno));
        return 2;
    }

    for (c = 0; c < nc; c++)
        for (i = 0; i < AL_ALG_COUNT; i++)
            if (run[c].algs >> i & 1u) {
                total += nrates;
                total_work += (double)nrates * cycles * run[c].kx * run[c].ky;
            }
    sim_progress_init(&prog, quiet ? NULL : stderr, "alpha21364", "router-cycles", total_work);
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
                char what[128], p99[32];
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
                p.mc_slots = mc_slots;
                p.buf_shared = buf_shared;
                p.sink_slots = sink_slots;
                p.arb_cycles = arb_cycles;
                p.arb_interval = arb_interval;
                if ((err = al_net_init(&net, &p)) != NULL) { fprintf(stderr, "alpha21364: %s\n", err); return 2; }
                snprintf(what, sizeof what, "fig %s %dx%d %s %s rate %g", run[c].figure, run[c].kx, run[c].ky,
                         sim_pattern_name(run[c].pattern), al_algorithm_name((al_algorithm)a), rates[k]);
                for (t = 0; t < cycles; t++) {
                    if (t == warmup) al_stats_reset(&net);
                    al_step(&net);
                    sim_progress_add(&prog, (double)net.n, what);
                    if (audit && (t + 1) % audit == 0 && (err = al_audit(&net)) != NULL) {
                        fprintf(stderr, "alpha21364: %s\n", err);
                        return 1;
                    }
                }
                if ((err = al_audit(&net)) != NULL) { fprintf(stderr, "alpha21364: %s\n", err); return 1; }
                al_result_get(&net, &res);
                cli_csv_field(out, run[c].figure, 0);
                fprintf(out, ",%dx%d,%s,%d,%d,%s,%g,%.4f,%.2f,%s,%.2f,%.4f,%llu,%llu,%d\n",
                        run[c].kx, run[c].ky, sim_pattern_name(run[c].pattern), run[c].scale,
                        run[c].outstanding, al_algorithm_name((al_algorithm)a), rates[k], res.throughput,
                        res.latency_ns, sim_quantile_text(res.p99_ticks, AL_TICKS_PER_NS, 1, p99, sizeof p99),
                        res.outstanding, res.escape_fraction,
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
    sim_progress_end(&prog);
    if (out != stdout) fclose(out);
    return 0;
}
