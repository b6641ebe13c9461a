/* SPDX-License-Identifier: MIT */
/* test_trust_stats.c - latency percentiles of the simulators
 * (examples/common/sim_stats.h) that fall in the histogram's last bin are
 * reported as a lower bound, not as a number that looks measured. */
#include "st_test.h"
#include "../examples/common/sim_stats.h"

ST_TEST(trust_quantile_in_last_bin_is_a_bound) {
    sim_latency l;
    char buf[32];
    int i;
    sim_latency_init(&l);
    /* 10 samples of 100 cycles and 90 far beyond the histogram: the median
     * and the 99th percentile are only known to be >= the bound, the 5th
     * percentile is exact, the maximum is exact. */
    for (i = 0; i < 10; i++) sim_latency_add(&l, 100);
    for (i = 0; i < 90; i++) sim_latency_add(&l, SIM_LAT_BOUND + 1000u + (uint64_t)i);
    ST_EQ(100, sim_latency_quantile(&l, 0.05));
    ST_EQ_U64(SIM_LAT_BOUND, sim_latency_quantile(&l, 0.5));
    ST_EQ_U64(SIM_LAT_BOUND, sim_latency_quantile(&l, 0.99));
    ST_EQ_U64(SIM_LAT_BOUND + 1089u, l.max);
    ST_EQ_STR("100", sim_quantile_text(sim_latency_quantile(&l, 0.05), 1, 0, buf, sizeof buf));
    snprintf(buf, sizeof buf, ">=%llu", (unsigned long long)SIM_LAT_BOUND);
    {
        char got[32];
        ST_EQ_STR(buf, sim_quantile_text(sim_latency_quantile(&l, 0.5), 1, 0, got, sizeof got));
        ST_EQ_STR(">=131071.5", sim_quantile_text(sim_latency_quantile(&l, 0.99), 2.0, 1, got, sizeof got));
    }
    /* a sample exactly at the bound is in the last bin too */
    sim_latency_reset(&l);
    sim_latency_add(&l, SIM_LAT_BOUND);
    ST_EQ_U64(SIM_LAT_BOUND, sim_latency_quantile(&l, 1.0));
    sim_latency_free(&l);
}
