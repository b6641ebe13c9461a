/* test_alloc_spaa64.c - SPAA's paths for banks of 64-bit lanes (33..64
 * inputs and outputs): the row-list select/record kernels
 * (sa__lrs6_rows_portable, sa__lrs6_rows_sse2), the two-pairs-at-once
 * bank select (sa__lrs_bank_select_sse2_6), the columns
 * (sa__spaa_columns6), each against brute force (the int-rank bank of
 * spaa_model.h), and whole allocations at those sizes (the software-
 * pipelined grant, priorities, Rotary Rule, the pipelined
 * sa_spaa_nominate / sa_spaa_grant) against the literal SPAA. */
#include <string.h>
#include "st_test.h"
#include "../seastar_arb.h"
#include "spaa_model.h"

#if SA_ALLOC_MAX > 32

/* A random nonempty subset of 0..size-1. */
static uint64_t s64_nonempty(uint64_t *seed, int size) {
    uint64_t x = ts_random_subset(seed, size);
    return x != 0 ? x : (uint64_t)1 << st_rand_below(seed, (uint32_t)size);
}

/* `count` distinct random rows of 0..63 in random order. */
static void s64_rows(uint64_t *seed, uint8_t *rows, int count) {
    uint8_t all[64];
    int i;
    for (i = 0; i < 64; i++) all[i] = (uint8_t)i;
    for (i = 0; i < count; i++) {
        int j = i + (int)st_rand_below(seed, (uint32_t)(64 - i));
        uint8_t t = all[i];
        all[i] = all[j];
        all[j] = t;
        rows[i] = all[i];
    }
}

/* One trial of the row kernels on a bank of 64 arbiters over `size`
 * requesters: select (k NULL) or record given winners (k from the
 * portable bank select), checked against the int-rank model. */
static int s64_rows_trial(uint64_t *seed, ts_bank *model, uint64_t *plane, int size, int record,
                          int sse2) {
    uint64_t c[SA__SPAA_WORDS], want[SA__SPAA_WORDS], k[SA__SPAA_PLANES * SA__SPAA_WORDS];
    uint8_t rows[64];
    int t, count = (int)st_rand_below(seed, 65);
    s64_rows(seed, rows, count);
    memset(c, 0, sizeof c);
    for (t = 0; t < count; t++) {
        int r = rows[t], w;
        c[r] = s64_nonempty(seed, size);
        w = ts_bank_select(model, r, c[r]);
        want[r] = (uint64_t)1 << w;
        if (record) c[r] = want[r];
    }
    if (record) {
        /* the winners' rank bits, as the nominations' select gives them */
        uint64_t cc[SA__SPAA_WORDS];
        memcpy(cc, c, sizeof cc);
        sa__lrs_bank_select_portable(plane, cc, k, 64, 6);
    }
#ifdef SA_SIMD_SSE2
    if (sse2) sa__lrs6_rows_sse2(plane, c, record ? k : NULL, rows, count, size);
    else
#endif
        sa__lrs6_rows_portable(plane, c, record ? k : NULL, rows, count, size);
    (void)sse2;
    for (t = 0; t < count; t++) {
        int r = rows[t];
        if (c[r] != want[r]) return 0;
        ts_bank_update(model, r, sa__ctz64(want[r]));
    }
    return ts_bank_equal(model, plane, 6, 64);
}

static int s64_rows_vs_model(uint64_t seed, int sse2, int trials) {
    static const int sizes[] = { 33, 40, 63, 64 };
    int s, trial;
    for (s = 0; s < 4; s++) {
        static ts_bank model;
        uint64_t plane[SA__SPAA_PLANES * SA__SPAA_WORDS];
        ts_bank_init(&model, 64, sizes[s]);
        sa__lrs_bank_init(plane, 64, sizes[s]);
        for (trial = 0; trial < trials; trial++)
            if (!s64_rows_trial(&seed, &model, plane, sizes[s], trial & 1, sse2)) return 0;
    }
    return 1;
}

/* A random SPAA description with 33..64 inputs and outputs. */
static void s64_desc(uint64_t *seed, sa_alloc_desc *d, int trial) {
    int i;
    memset(d, 0, sizeof *d);
    d->kind = SA_ALLOC_SPAA;
    d->num_inputs = trial % 3 == 0 ? 64 : 33 + (int)st_rand_below(seed, 32);
    d->num_outputs = trial % 3 == 0 ? 64 : 33 + (int)st_rand_below(seed, 32);
    d->rotary = (int)st_rand_below(seed, 2);
    d->network_inputs = st_rand(seed) & sa__low_mask(d->num_inputs);
    if (st_rand_below(seed, 2))
        for (i = 0; i < d->num_inputs; i++)
            d->no_connect[i] = st_rand(seed) & st_rand(seed) & sa__low_mask(d->num_outputs);
}


#endif

ST_TEST(alloc_spaa64_rows_portable_select_and_record_match_brute_force) {
#if SA_ALLOC_MAX > 32
    ST_CHECK(s64_rows_vs_model(641, 0, ST_LONG ? 2000 : 200));
#else
    ST_CHECK(1); /* not in this build */
#endif
}

ST_TEST(alloc_spaa64_rows_sse2_select_and_record_match_brute_force) {
#if SA_ALLOC_MAX > 32 && defined(SA_SIMD_SSE2)
    ST_CHECK(s64_rows_vs_model(642, 1, ST_LONG ? 2000 : 200));
#else
    ST_CHECK(1); /* not in this build */
#endif
}

/* The lw-6 SSE2 bank select (two pairs per step, a lone last pair) gives
 * the model's winners and the same rank bits as the portable select, for
 * every even word count. */
ST_TEST(alloc_spaa64_bank_select_sse2_6_matches_brute_force_and_portable) {
#if SA_ALLOC_MAX > 32 && defined(SA_SIMD_SSE2)
    uint64_t seed = 643;
    int words, trial;
    for (words = 2; words <= 64; words += 2)
        for (trial = 0; trial < 8; trial++) {
            static ts_bank model;
            uint64_t plane[SA__SPAA_PLANES * SA__SPAA_WORDS], c[SA__SPAA_WORDS], cp[SA__SPAA_WORDS];
            uint64_t cand[SA__SPAA_WORDS], k[SA__SPAA_PLANES * SA__SPAA_WORDS], kp[SA__SPAA_PLANES * SA__SPAA_WORDS];
            int r, t, b, size = 33 + (int)st_rand_below(&seed, 32);
            ts_bank_init(&model, words, size);
            sa__lrs_bank_init(plane, words, size);
            /* scramble the ranks with some selections first */
            for (t = 0; t < 20; t++) {
                r = (int)st_rand_below(&seed, (uint32_t)words);
                b = ts_bank_select(&model, r, s64_nonempty(&seed, size));
                ts_bank_update(&model, r, b);
                {
                    uint64_t g[SA__SPAA_WORDS];
                    uint8_t row = (uint8_t)r;
                    g[r] = (uint64_t)1 << b;
                    sa__lrs6_rows_portable(plane, g, NULL, &row, 1, size);
                }
            }
            ST_CHECK(ts_bank_equal(&model, plane, 6, 64));
            for (r = 0; r < words; r++) c[r] = st_rand_below(&seed, 4) ? ts_random_subset(&seed, size) : 0;
            memcpy(cp, c, sizeof cp);
            memcpy(cand, c, sizeof cand);
            sa__lrs_bank_select_sse2_6(plane, c, trial & 1 ? NULL : k, words);
            sa__lrs_bank_select_portable_6(plane, cp, kp, words);
            for (r = 0; r < words; r++) {
                int w = ts_bank_select(&model, r, cand[r]);
                ST_EQ_U64((w < 0 ? 0 : (uint64_t)1 << w), c[r]);
                ST_EQ_U64(cp[r], c[r]);
            }
            if (!(trial & 1))
                for (b = 0; b < 6; b++)
                    for (r = 0; r < words; r++) ST_EQ_U64(kp[b * SA__SPAA_WORDS + r], k[b * SA__SPAA_WORDS + r]);
        }
#else
    ST_CHECK(1); /* not in this build */
#endif
}

/* The portable lw-6 select itself against the model (the reference the
 * SSE2 test above compares with). */
ST_TEST(alloc_spaa64_bank_select_portable_6_matches_brute_force) {
#if SA_ALLOC_MAX > 32
    uint64_t seed = 644;
    int trial;
    for (trial = 0; trial < 50; trial++) {
        static ts_bank model;
        uint64_t plane[SA__SPAA_PLANES * SA__SPAA_WORDS], c[SA__SPAA_WORDS], cand[SA__SPAA_WORDS];
        int r, size = 33 + (int)st_rand_below(&seed, 32);
        ts_bank_init(&model, 64, size);
        sa__lrs_bank_init(plane, 64, size);
        for (r = 0; r < 64; r++) {
            int t;
            for (t = 0; t < 3; t++) {
                uint8_t row = (uint8_t)r;
                uint64_t g[SA__SPAA_WORDS];
                int w = ts_bank_select(&model, r, s64_nonempty(&seed, size));
                ts_bank_update(&model, r, w);
                g[r] = (uint64_t)1 << w;
                sa__lrs6_rows_portable(plane, g, NULL, &row, 1, size);
            }
        }
        for (r = 0; r < 64; r++) cand[r] = c[r] = ts_random_subset(&seed, size);
        sa__lrs_bank_select_portable_6(plane, c, NULL, 64);
        for (r = 0; r < 64; r++) {
            int w = ts_bank_select(&model, r, cand[r]);
            ST_EQ_U64((w < 0 ? 0 : (uint64_t)1 << w), c[r]);
        }
    }
#else
    ST_CHECK(1); /* not in this build */
#endif
}

/* sa__spaa_columns6 is the transpose of one-hot (or empty) nominations. */
ST_TEST(alloc_spaa64_columns6_is_the_transpose) {
#if SA_ALLOC_MAX > 32
    uint64_t seed = 645;
    int trial;
    for (trial = 0; trial < 200; trial++) {
        uint64_t c[SA__SPAA_WORDS], col[SA__SPAA_WORDS], outs = 0, got;
        int i, j, n = 1 + (int)st_rand_below(&seed, 64), m = 1 + (int)st_rand_below(&seed, 64);
        for (i = 0; i < n; i++) {
            c[i] = st_rand_below(&seed, 5) ? (uint64_t)1 << st_rand_below(&seed, (uint32_t)m) : 0;
            outs |= c[i];
        }
        for (j = 0; j < SA__SPAA_WORDS; j++) col[j] = ~(uint64_t)0; /* must be cleared */
        got = sa__spaa_columns6(c, n, col);
        ST_EQ_U64(outs, got);
        for (j = 0; j < SA__SPAA_WORDS; j++) {
            uint64_t want = 0;
            for (i = 0; i < n; i++)
                if (c[i] == (uint64_t)1 << j) want |= (uint64_t)1 << i;
            ST_EQ_U64(want, col[j]);
        }
    }
#else
    ST_CHECK(1); /* not in this build */
#endif
}


/* sa__spaa_select6_sse2 (one pass straight from the requests) gives the
 * nominations and rank bits of the two passes it replaces,
 * sa__spaa_candidates6 then sa__lrs_bank_select_sse2_6 (the select checked
 * against brute force above), on banks scrambled by earlier allocations;
 * every nomination is one connected request of its input. */
ST_TEST(alloc_spaa64_select6_is_candidates_then_bank_select) {
#if SA_ALLOC_MAX > 32 && defined(SA_SIMD_SSE2)
    uint64_t seed = 646;
    int trial, t, i, b;
    for (trial = 0; trial < 300; trial++) {
        sa_alloc al;
        sa_alloc_desc d;
        sa_match mt;
        uint64_t req[64], c1[SA__SPAA_WORDS], c2[SA__SPAA_WORDS];
        uint64_t k1[SA__SPAA_PLANES * SA__SPAA_WORDS], k2[SA__SPAA_PLANES * SA__SPAA_WORDS];
        int n, m, words;
        s64_desc(&seed, &d, trial);
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        n = d.num_inputs;
        m = d.num_outputs;
        for (t = 0; t < trial % 7; t++) {
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & sa__low_mask(m);
            sa_allocate(&al, req, NULL, NULL, &mt);
        }
        for (i = 0; i < n; i++)
            req[i] = st_rand_below(&seed, 4) ? st_rand(&seed) & st_rand(&seed) & sa__low_mask(m) : 0;
        words = al.spaa_in_words;
        sa__spaa_select6_sse2(&al, req, c1, k1);
        sa__spaa_candidates6(&al, req, c2);
        sa__lrs_bank_select_sse2_6(al.spaa_in, c2, k2, words);
        for (i = 0; i < words; i++) {
            ST_EQ_U64(c2[i], c1[i]);
            ST_CHECK((c1[i] & (c1[i] - 1)) == 0);
            ST_EQ_U64(i < n ? c1[i] & req[i] & al.connect[i] : 0, c1[i]);
            ST_CHECK(i >= n || (req[i] & al.connect[i]) == 0 || c1[i] != 0);
            for (b = 0; b < 6; b++) ST_EQ_U64(k2[b * SA__SPAA_WORDS + i], k1[b * SA__SPAA_WORDS + i]);
        }
    }
#else
    ST_CHECK(1); /* not in this build */
#endif
}

/* Whole allocations (plain, with priorities, and the pipelined
 * sa_spaa_nominate / sa_spaa_grant) against the literal SPAA: every
 * matching and, at the end, both banks. */
ST_TEST(alloc_spaa64_allocate_matches_literal_spaa) {
#if SA_ALLOC_MAX > 32
    uint64_t seed = 646;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 300 : 30); trial++) {
        static uint8_t prio[64 * 64];
        static ts_spaa ref;
        sa_alloc al;
        sa_alloc_desc d;
        int t, i;
        s64_desc(&seed, &d, trial);
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        ts_spaa_init(&ref, &d);
        for (t = 0; t < 30; t++) {
            uint64_t req[64];
            int8_t nom[64], rnom[64], input_of[64];
            sa_match mt;
            int mode = (int)st_rand_below(&seed, 4); /* 0, 1: plain; 2: prio; 3: pipelined */
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 4);
            ts_spaa_nominate(&ref, req, mode == 2 ? prio : NULL, NULL, rnom);
            ts_spaa_grant(&ref, rnom, input_of);
            if (mode == 3) {
                sa_spaa_nominate(&al, req, NULL, NULL, nom);
                for (i = 0; i < d.num_inputs; i++) ST_EQ(rnom[i], nom[i]);
                sa_spaa_grant(&al, nom, &mt);
            } else {
                sa_allocate(&al, req, mode == 2 ? prio : NULL, NULL, &mt);
            }
            ST_CHECKF(ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs), "trial %d step %d", trial, t);
        }
        ST_CHECK(ts_bank_equal(&ref.in, al.spaa_in, al.spaa_in_lw, al.spaa_in_words));
        ST_CHECK(ts_bank_equal(&ref.out, al.spaa_out, al.spaa_out_lw, al.spaa_out_words));
    }
#else
    ST_CHECK(1); /* not in this build */
#endif
}

/* spaa_model.h's whole-SPAA comparisons over random sizes 1..64 (the
 * other SPAA test files run them too, with other seeds). */
ST_TEST(alloc_spaa64_random_sizes_match_literal_spaa) {
#if SA_ALLOC_MAX > 32
    ST_CHECK(ts_allocate_vs_literal(647, 24));
    ST_CHECK(ts_pipelined_vs_literal(648, 24));
#else
    ST_CHECK(1); /* not in this build */
#endif
}
