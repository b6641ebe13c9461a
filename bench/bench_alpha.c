/* SPDX-License-Identifier: MIT */
/* bench_alpha.c - speed of the Alpha 21364 timing model
 * (examples/common/alpha_net.h): simulated router-cycles per second for each
 * algorithm on an 8x8 torus, at a moderate load and beyond saturation.
 * Median of 5 runs of 5000 cycles after a 2000-cycle warm-up.
 * CSV: benchmark,size,algorithm,miss_rate,router_cycles_per_s,ns_per_router_cycle
 */
#include <stdio.h>
#include "bench.h"
#include "../examples/common/alpha_net.h"

#define REPS 5
#define WARM 2000
#define CYCLES 5000

int main(void) {
    static const double rates[2] = { 0.02, 0.3 };
    int a, k, rep;
    printf("benchmark,size,algorithm,miss_rate,router_cycles_per_s,ns_per_router_cycle\n");
    for (k = 0; k < 2; k++)
        for (a = 0; a < AL_ALG_COUNT; a++) {
            double v[REPS];
            al_params p;
            al_net net;
            int t;
            al_params_default(&p, 8, 8, (al_algorithm)a);
            p.miss_rate = rates[k];
            if (al_net_init(&net, &p) != NULL) return 1;
            for (t = 0; t < WARM; t++) al_step(&net);
            for (rep = 0; rep < REPS; rep++) {
                double t0 = bench_now_ns();
                for (t = 0; t < CYCLES; t++) al_step(&net);
                v[rep] = (bench_now_ns() - t0) / ((double)CYCLES * (double)net.n);
            }
            BENCH_USE(net.st.flits);
            al_net_free(&net);
            {
                double ns = bench_median(v, REPS);
                printf("alpha_model,8x8,%s,%g,%.0f,%.1f\n", al_algorithm_name((al_algorithm)a), rates[k],
                       1e9 / ns, ns);
            }
        }
    return 0;
}
