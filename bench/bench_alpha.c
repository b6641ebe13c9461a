/* SPDX-License-Identifier: MIT */
/* bench_alpha.c - speed of the Alpha 21364 timing model
 * (examples/common/alpha_net.h): simulated router-cycles per second for each
 * algorithm on an 8x8 torus, at a moderate load and beyond saturation.
 * Median of 5 runs of 5000 cycles after a 2000-cycle warm-up (--runs,
 * --cycles, --warmup; --help lists them).
 * CSV: benchmark,size,algorithm,miss_rate,router_cycles_per_s,ns_per_router_cycle
 */
#include <stdio.h>
#include "bench.h"
#include "../examples/common/cli.h"
#include "../examples/common/alpha_net.h"

static const cli_opt options[] = {
    { "--runs", NULL, "N", CLI_INT, 1, 99, 0, 0, NULL, "5", "timed runs per case (the median is printed)" },
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000, 0, 0, NULL, "2000", "cycles before the timed runs" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000, 0, 0, NULL, "5000", "cycles of each timed run" },
};

static const char *const usage_text =
"usage: bench_alpha [options]\n"
"\n"
"Speed of the Alpha 21364 timing model on an 8x8 torus, for each\n"
"arbitration algorithm at miss rates 0.02 and 0.3, as CSV on stdout.\n";

int main(int argc, char **argv) {
    static const double rates[2] = { 0.02, 0.3 };
    uint64_t runs = 5, warmup = 2000, cycles = 5000;
    int a, k;
    uint64_t rep, t;
    cli c;
    cli_init(&c, "bench_alpha", usage_text, NULL, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--runs")) runs = cli_uint(&c);
        else if (cli_is(&c, "--warmup")) warmup = cli_uint(&c);
        else if (cli_is(&c, "--cycles")) cycles = cli_uint(&c);
        else cli_unhandled(&c);
    }
    printf("benchmark,size,algorithm,miss_rate,router_cycles_per_s,ns_per_router_cycle\n");
    for (k = 0; k < 2; k++)
        for (a = 0; a < AL_ALG_COUNT; a++) {
            double v[99];
            al_params p;
            al_net net;
            al_params_default(&p, 8, 8, (al_algorithm)a);
            p.miss_rate = rates[k];
            if (al_net_init(&net, &p) != NULL) return 1;
            for (t = 0; t < warmup; t++) al_step(&net);
            for (rep = 0; rep < runs; rep++) {
                double t0 = bench_now_ns();
                for (t = 0; t < cycles; t++) al_step(&net);
                v[rep] = (bench_now_ns() - t0) / ((double)cycles * (double)net.n);
            }
            BENCH_USE(net.st.flits);
            al_net_free(&net);
            {
                double ns = bench_median(v, (int)runs);
                printf("alpha_model,8x8,%s,%g,%.0f,%.1f\n", al_algorithm_name((al_algorithm)a), rates[k],
                       1e9 / ns, ns);
            }
        }
    return 0;
}
