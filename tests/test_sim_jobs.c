/* SPDX-License-Identifier: MIT */
/* test_sim_jobs.c - the node-ID placement of the workload model
 * (examples/common/sim_jobs.h): sj_scatter_nids deals the NID order out
 * in runs, checked against the order it started from. */
#include "st_test.h"
#include "../examples/common/sim_jobs.h"

/* Check that after = before cut into runs of chunk NIDs (the last one
 * shorter) and put in some order: every run of before appears whole and
 * once, starting at a multiple of chunk in before. */
static int sj_test_is_run_shuffle(const uint32_t *before, const uint32_t *after, uint32_t n, uint32_t chunk) {
    uint32_t *at = (uint32_t *)sim_calloc(n, sizeof(uint32_t));
    uint32_t k = 0, i, ok = 1;
    for (i = 0; i < n; i++) at[before[i]] = i;      /* before is a permutation of 0..n-1 */
    while (k < n && ok) {
        uint32_t start = at[after[k]], len = start + chunk <= n ? chunk : n - start;
        if (start % chunk != 0 || k + len > n) ok = 0;
        for (i = 0; ok && i < len; i++) ok = after[k + i] == before[start + i];
        k += len;
    }
    free(at);
    return ok && k == n;
}

ST_TEST(sim_jobs_scatter_deals_whole_runs) {
    static const int radix[3] = { 5, 4, 3 }, mesh[3] = { 0, 0, 0 };
    static const uint32_t chunks[] = { 1, 4, 5, 7, 59, 60 };
    sim_shape sh;
    sj_model m;
    uint32_t before[60], n = 60, c, i;
    int seen[60];
    sim_shape_init(&sh, 3, radix, mesh);
    for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        sj_init(&m, n, 7, 0);
        sj_place_nids(&m, &sh, 1);
        memcpy(before, m.nid_node, sizeof before);
        sj_scatter_nids(&m, chunks[c], 7);
        memset(seen, 0, sizeof seen);
        for (i = 0; i < n; i++) seen[m.nid_node[i]]++;
        for (i = 0; i < n; i++) ST_CHECKF(seen[i] == 1, "chunk %u: node %u placed %d times", chunks[c], i, seen[i]);
        ST_CHECKF(sj_test_is_run_shuffle(before, m.nid_node, n, chunks[c]),
                  "chunk %u: not the runs of the x-first order", chunks[c]);
        sj_free(&m);
    }
}

ST_TEST(sim_jobs_scatter_zero_keeps_order_and_seed_decides) {
    static const int radix[3] = { 4, 4, 4 }, mesh[3] = { 0, 0, 0 };
    sim_shape sh;
    sj_model a, b, d;
    uint32_t i, differ = 0, moved = 0;
    uint64_t rng_before;
    sim_shape_init(&sh, 3, radix, mesh);
    sj_init(&a, 64, 3, 0); sj_place_nids(&a, &sh, 1);
    sj_init(&b, 64, 3, 0); sj_place_nids(&b, &sh, 1);
    sj_init(&d, 64, 3, 0); sj_place_nids(&d, &sh, 1);
    sj_scatter_nids(&b, 0, 3);                      /* 0: no change */
    sj_scatter_nids(&d, 64, 3);                     /* one run: no change */
    for (i = 0; i < 64; i++) ST_CHECK(a.nid_node[i] == b.nid_node[i] && a.nid_node[i] == d.nid_node[i]);
    /* seeds 3 and 4 deal 16 runs of 4 in orders that differ (16! orders);
     * seed 3 twice deals the same; the model's own stream is untouched */
    rng_before = b.rng.s;
    sj_scatter_nids(&b, 4, 3);
    sj_scatter_nids(&d, 4, 4);
    ST_CHECK(b.rng.s == rng_before);
    sj_scatter_nids(&a, 4, 3);
    for (i = 0; i < 64; i++) {
        ST_CHECK(a.nid_node[i] == b.nid_node[i]);
        differ += b.nid_node[i] != d.nid_node[i];
        moved += b.nid_node[i] != i;
    }
    ST_CHECK(differ > 0);
    ST_CHECK(moved > 0);
    sj_free(&a); sj_free(&b); sj_free(&d);
}
