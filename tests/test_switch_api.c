/* SPDX-License-Identifier: MIT */
/* test_switch_api.c - what a simulator author uses around the allocators:
 * the request builder (sa_requests) against a dense oracle, per-router
 * seeds (sa_switch_seed), the 21364 description's connection matrix, the
 * output arbiter beyond 64 candidates against a brute-force arbiter, and
 * aging with up to 16 VCs. */
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"

/* An allocator of the kind, sizes and options (memory from malloc). */
static void *sw_make(sa_switch *a, sa_switch_kind kind, int n, int m, int iterations, int rotary) {
    sa_switch_desc d;
    size_t size;
    void *mem;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = iterations;
    d.seed = 77;
    if (rotary && n > 2) {
        d.rotary = 1;
        d.network_inputs[0] = 0x5; /* inputs 0 and 2 */
    }
    size = sa_switch_memory_size(&d);
    mem = malloc(size);
    if (mem != NULL && sa_switch_init(a, &d, mem, size) != SA_OK) {
        free(mem);
        mem = NULL;
    }
    return mem;
}

/* The builder in its two forms (see >>requests): rows while the set feeds
 * an allocator that reads rows (iSLIP), and feeds PIM above 64 ports until
 * the first clear after PIM's first allocation (rounds 0-4), columns from
 * then on.  After each round of random adds, removes
 * and clears: the rows (sa_requests_rows) and priorities against a dense
 * oracle, and sa_switch_allocate_requests against sa_switch_allocate on
 * the oracle's rows in a copy of the allocator (same matching, same
 * generator state). */
ST_TEST(switch_requests_builder_matches_a_dense_oracle) {
    static const int sizes[][2] = { { 1, 1 }, { 5, 5 }, { 16, 7 }, { 64, 64 }, { 65, 3 }, { 80, 80 }, { 512, 512 } };
    static unsigned char cell[512][512];
    static int32_t prio[512 * 512];
    static uint64_t rows[512 * 8];
    uint64_t seed = 141;
    int z, form;
    for (z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++)
        for (form = 0; form < 2; form++) {
            sa_requests r;
            sa_switch a, b;
            sa_match ma, mb;
            int n = sizes[z][0], m = sizes[z][1], w = SA_WORDS(m), round, i, j;
            size_t size = sa_requests_memory_size(n, m);
            void *mem = malloc(size), *amem, *bmem;
            ST_CHECK(mem != NULL);
            ST_EQ(SA_OK, sa_requests_init(&r, n, m, mem, size));
            amem = sw_make(&a, form ? SA_SWITCH_PIM : SA_SWITCH_ISLIP, n, m, form ? 1 + z % 2 : 1, form && z % 3 == 2);
            ST_CHECK(amem != NULL);
            bmem = malloc(a.memory_size);
            ST_CHECK(bmem != NULL);
            memset(cell, 0, sizeof cell);
            for (round = 0; round < 40; round++) {
                int ops = (int)st_rand_below(&seed, 3 * (uint32_t)(n + m)), k, uniform = 1, first = 1;
                int32_t p0 = 0;
                if (round % 5 == 0) {
                    sa_requests_clear(&r);
                    memset(cell, 0, sizeof cell);
                }
#ifdef SA_SIMD_SSE2
                ST_EQ(form && (n > 64 || m > 64) && round >= 5, r.by_output); /* (PIM's first allocation asks for columns) */
#endif
                for (k = 0; k < ops; k++) {
                    int32_t p = round % 3 == 0 ? 4 : (int32_t)st_rand_below(&seed, 3);
                    i = (int)st_rand_below(&seed, (uint32_t)n);
                    j = (int)st_rand_below(&seed, (uint32_t)m);
                    if (st_rand_below(&seed, 4) == 0) {
                        sa_requests_remove(&r, i, j);
                        cell[i][j] = 0;
                    } else {
                        sa_requests_add(&r, i, j, p);
                        if (!cell[i][j] || prio[i * m + j] < p) prio[i * m + j] = p;
                        cell[i][j] = 1;
                    }
                }
                memset(rows, 0, sizeof rows);
                for (i = 0; i < n; i++)
                    for (j = 0; j < m; j++) {
                        if (cell[i][j]) rows[(size_t)i * w + (j >> 6)] |= (uint64_t)1 << (j & 63);
                        if (!cell[i][j]) continue;
                        if (first) p0 = prio[i * m + j], first = 0;
                        uniform &= prio[i * m + j] == p0;
                        if (sa_requests_priorities(&r) != NULL) ST_EQ(prio[i * m + j], sa_requests_priorities(&r)[i * m + j]);
                    }
                /* NULL only while every priority added since the clear was the same */
                if (sa_requests_priorities(&r) == NULL) ST_CHECK(uniform);
                if (round % 3 == 0 && round % 5 == 0) ST_CHECK(sa_requests_priorities(&r) == NULL);
                ST_EQ(SA_OK, sa_switch_copy(&b, bmem, a.memory_size, &a));
                sa_switch_allocate(&b, rows, sa_requests_priorities(&r) ? prio : NULL, NULL, &mb);
                ST_EQ(mb.size, sa_switch_allocate_requests(&a, &r, NULL, &ma));
                for (i = 0; i < n; i++) ST_EQ(mb.output_of[i], ma.output_of[i]);
                ST_EQ_U64(b.rng.state, a.rng.state);
                ST_CHECK(memcmp(rows, sa_requests_rows(&r), (size_t)n * (size_t)w * sizeof(uint64_t)) == 0);
            }
            ST_EQ(SA_ERR_MEMORY, sa_requests_init(&r, n, m, mem, size - 1));
            free(mem);
            free(amem);
            free(bmem);
        }
    ST_EQ(0, (int)sa_requests_memory_size(0, 4));
    ST_EQ(0, (int)sa_requests_memory_size(4, SA_SWITCH_MAX + 1));
}

ST_TEST(switch_seeds_differ_per_instance_and_repeat_per_run) {
    static uint64_t seen[20000];
    uint64_t s;
    int i, k;
    for (i = 0; i < 20000; i++) {
        seen[i] = sa_switch_seed(42, (uint64_t)i);
        ST_EQ_U64(seen[i], sa_switch_seed(42, (uint64_t)i));
        for (k = i - 8; k < i; k++) ST_CHECK(k < 0 || seen[k] != seen[i]);
    }
    /* no two of them collide (sorted neighbours) */
    for (i = 1; i < 20000; i++)
        for (k = i; k > 0 && seen[k - 1] > seen[k]; k--) s = seen[k], seen[k] = seen[k - 1], seen[k - 1] = s;
    for (i = 1; i < 20000; i++) ST_CHECK(seen[i] != seen[i - 1]);
    ST_CHECK(sa_switch_seed(1, 7) != sa_switch_seed(2, 7));
}

ST_TEST(switch_desc_21364_carries_the_connection_matrix) {
    sa_switch_desc d;
    uint64_t nc[16];
    int i, cells = 0;
    ST_EQ(SA_OK, sa_switch_desc_21364(&d, SA_SWITCH_PIM, 1));
    sa_21364_no_connect(nc);
    ST_CHECK(d.no_connect != NULL);
    for (i = 0; i < 16; i++) {
        ST_EQ_U64(nc[i], d.no_connect[i]);
        { int j; for (j = 0; j < 7; j++) cells += !((nc[i] >> j) & 1u); }
    }
    ST_EQ(54, cells); /* seed 002 Section 3.1: 54 of the 112 cells */
    ST_EQ(SA_ERR_PARAM_RANGE, sa_switch_desc_21364(&d, (sa_switch_kind)99, 0));
}

/* Brute force: the oldest eligible candidates, first from the pointer. */
static int ta_output_oracle(int n, const unsigned char *el, const uint8_t *ages, int ptr, int by_age) {
    int c, k, best = -1;
    for (k = 0; k < n; k++) {
        c = (ptr + k) % n;
        if (!el[c]) continue;
        if (best < 0 || (by_age && ages[c] > ages[best])) best = c;
    }
    return best;
}

ST_TEST(switch_output_arbiter_beyond_64_candidates) {
    static const int shapes[][2] = { { 10, 8 }, { 64, 8 }, { 32, 16 }, { 5, 13 } };
    uint64_t seed = 142;
    int z;
    for (z = 0; z < 4; z++) {
        sa_age_config cfg;
        sa_output_arb arb;
        int src = shapes[z][0], vcs = shapes[z][1], n = src * vcs, t;
        uint64_t el[SA_WORDS(SA_MAX_CANDIDATES)];
        unsigned char e[SA_MAX_CANDIDATES];
        uint8_t ages[SA_MAX_CANDIDATES];
        sa_age_config_default(&cfg, 7);
        cfg.age_rr_select = st_rand(&seed);
        ST_EQ(SA_OK, sa_output_arb_init(&arb, src, vcs));
        ST_EQ(n, sa_output_num_candidates(&arb));
        for (t = 0; t < 3000; t++) {
            sa_grant g;
            int c, want, by_age = (int)((cfg.age_rr_select >> arb.grant_counter) & 1u);
            memset(el, 0, sizeof el);
            for (c = 0; c < n; c++) {
                e[c] = st_rand_below(&seed, 8) == 0;
                ages[c] = (uint8_t)st_rand_below(&seed, 4);
                if (e[c]) el[c >> 6] |= (uint64_t)1 << (c & 63);
            }
            want = ta_output_oracle(n, e, ages, by_age ? arb.age_pointer : arb.rr_pointer, by_age);
            c = sa_output_arbitrate_set(&arb, &cfg, NULL, el, ages, &g);
            ST_EQ(want, c);
            if (c >= 0) {
                ST_EQ(c / vcs, g.source);
                ST_EQ(c % vcs, g.vc);
            }
            ST_EQ(SA_OK, sa_output_arb_check(&arb));
        }
    }
    {
        sa_output_arb arb;
        ST_EQ(SA_ERR_CANDIDATE_RANGE, sa_output_arb_init(&arb, 64, 16));
        ST_EQ(SA_ERR_SOURCE_RANGE, sa_output_arb_init(&arb, 65, 1));
        ST_EQ(SA_ERR_VC_RANGE, sa_output_arb_init(&arb, 2, 17));
    }
}

ST_TEST(switch_aging_with_up_to_16_vcs) {
    sa_age_config cfg;
    sa_age_clock clk;
    int vc;
    sa_age_config_default(&cfg, 7);
    ST_EQ(SA_AGE_NUM_VCS, cfg.num_vcs);
    cfg.num_vcs = 16;
    cfg.response_vcs = 0xFF00; /* VCs 8..15 carry responses */
    cfg.req_age_bias[2] = 1;
    cfg.rsp_age_bias[2] = 5;
    ST_EQ(SA_OK, sa_age_clock_init(&clk, &cfg));
    for (vc = 0; vc < 16; vc++) {
        uint16_t f = 10;
        ST_EQ(SA_OK, sa_age_arrive(&clk, &cfg, 2, vc, &f));
        ST_EQ(vc >= 8 ? 15 : 11, (int)sa_age_at_head(&clk, f));
    }
    {
        uint16_t f = 0;
        ST_EQ(SA_ERR_VC_RANGE, sa_age_arrive(&clk, &cfg, 2, 16, &f));
    }
    cfg.num_vcs = 17;
    ST_EQ(SA_ERR_VC_RANGE, sa_age_config_validate(&cfg));
    cfg.num_vcs = 4;
    ST_EQ(SA_ERR_VC_RANGE, sa_age_config_validate(&cfg)); /* response VCs above num_vcs */
    cfg.response_vcs = 0xC;
    ST_EQ(SA_OK, sa_age_config_validate(&cfg));
}
