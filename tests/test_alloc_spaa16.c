/* test_alloc_spaa16.c - SPAA's straight-line SSE2 register path for up to
 * 16 input arbiters and 8 outputs (the Alpha 21364's 16 x 7 among them):
 * every helper it adds against brute force, and every instance of the
 * path (16 x 7, 8 x 8, 7 x 7 with their sizes constant, the two general
 * ones) against the literal SPAA of spaa_model.h, and sa_allocate's
 * dispatch to them (the Alpha 21364's own configuration, every size up to
 * 16 x 16). */
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"
#include "spaa_model.h"

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16

/* ------------------------------------------------------------ helpers */

static void t16_bytes(__m128i v, uint8_t *out) {
    _mm_storeu_si128((__m128i *)(void *)out, v);
}

/* Random 64-bit rows, every n from 0 to 16, read from an allocation of
 * exactly n rows (ASan catches a read past them): byte i is row i's low
 * byte, bytes from n on are zero. */
ST_TEST(spaa16_pack_bytes_takes_low_bytes_of_n_rows) {
    uint64_t seed = 1601;
    int n, t, i;
    for (t = 0; t < 50; t++)
        for (n = 0; n <= 16; n++) {
            uint64_t *req = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(n > 0 ? n : 1));
            uint8_t got[16];
            ST_CHECK(req != NULL);
            for (i = 0; i < n; i++) req[i] = t & 1 ? st_rand(&seed) : st_rand(&seed) & 0xFF;
            t16_bytes(sa__pack_bytes16_sse2(req, n), got);
            for (i = 0; i < 16; i++) {
                unsigned want = i < n ? (unsigned)(req[i] & 0xFF) : 0u;
                ST_CHECKF(got[i] == want, "n %d row %d: %u, want %u", n, i, got[i], want);
            }
            free(req);
        }
}

/* Every byte value the index helpers take (0 and the eight one-hot ones)
 * in every byte position: sa__onehot_index8_sse2 gives the bit's index
 * (0 for 0), sa__bit_index8_sse2 the index or -1. */
ST_TEST(spaa16_byte_indices_of_one_hot_bytes) {
    int v, pos;
    for (v = -1; v < 8; v++)
        for (pos = 0; pos < 16; pos++) {
            uint8_t in[16], a[16], b[16];
            int i;
            for (i = 0; i < 16; i++) in[i] = (uint8_t)((i * 5 + pos) % 9 == 8 ? 0 : 1u << ((i * 5 + pos) % 9));
            in[pos] = (uint8_t)(v < 0 ? 0 : 1u << v);
            t16_bytes(sa__onehot_index8_sse2(_mm_loadu_si128((const __m128i *)(const void *)in)), a);
            t16_bytes(sa__bit_index8_sse2(_mm_loadu_si128((const __m128i *)(const void *)in)), b);
            for (i = 0; i < 16; i++) {
                int want = -1, j;
                for (j = 0; j < 8; j++) if (in[i] == (1u << j)) want = j;
                ST_EQ(want < 0 ? 0 : want, a[i]);
                ST_EQ(want, (int8_t)b[i]);
            }
        }
}

/* The 16-bit version: one-hot or zero lanes, indices in bytes 0..7, -1
 * for a zero lane and in bytes 8..15. */
ST_TEST(spaa16_word_indices_of_one_hot_lanes) {
    uint64_t seed = 1602;
    int t;
    for (t = 0; t < 2000; t++) {
        uint16_t in[8];
        int8_t out[16];
        int i;
        for (i = 0; i < 8; i++) {
            int b = (int)st_rand_below(&seed, 17);
            in[i] = (uint16_t)(b == 16 ? 0 : 1u << b);
        }
        _mm_storeu_si128((__m128i *)(void *)out,
                         sa__bit_index16_sse2(_mm_loadu_si128((const __m128i *)(const void *)in)));
        for (i = 0; i < 16; i++) {
            int want = -1, j;
            if (i < 8)
                for (j = 0; j < 16; j++) if (in[i] == (1u << j)) want = j;
            ST_EQ(want, out[i]);
        }
    }
}

/* Random one-hot-or-zero nomination bytes of n inputs over m outputs:
 * lane j of the columns has bit i exactly when input i nominated j (16-bit
 * lanes when lwo is 4, bytes when it is 3 with n <= 8), nothing else. */
ST_TEST(spaa16_columns_are_the_transposed_nominations) {
    uint64_t seed = 1603;
    int t;
    for (t = 0; t < 3000; t++) {
        int lwo = 3 + (int)(t & 1), n = 1 + (int)st_rand_below(&seed, lwo == 4 ? 16 : 8);
        int m = 1 + (int)st_rand_below(&seed, 8), i, j;
        uint8_t x[16], got[16];
        for (i = 0; i < 16; i++) {
            int j0 = (int)st_rand_below(&seed, (uint64_t)m + 1);
            x[i] = (uint8_t)(i < n && j0 < m ? 1u << j0 : 0u);
        }
        t16_bytes(sa__nom_columns_sse2(_mm_loadu_si128((const __m128i *)(const void *)x), lwo, m), got);
        for (j = 0; j < 8; j++) {
            unsigned want = 0, have;
            for (i = 0; i < 16; i++) if (x[i] == (1u << j)) want |= 1u << i;
            have = lwo == 4 ? (unsigned)got[2 * j] | (unsigned)got[2 * j + 1] << 8 : got[j];
            ST_EQ(want, have);
        }
        if (lwo == 3)
            for (j = 8; j < 16; j++) ST_EQ(0, got[j]);
    }
}

/* The count of the matching: every 8-bit mask against a bit loop. */
ST_TEST(spaa16_count_of_eight_bits_by_multiplication) {
    unsigned x;
    for (x = 0; x < 256; x++) {
        int want = 0, b;
        for (b = 0; b < 8; b++) want += (int)((x >> b) & 1u);
        ST_EQ(want, sa__bits8(x));
    }
}

/* ------------------------------------------------------------ whole SPAA */

typedef int (*t16_path)(sa_alloc *a, const uint64_t *req, sa_match *mt);

/* 60 random request sets through `path` (NULL: sa_allocate without
 * priorities or buffer views) on an allocator made from d: matching and
 * state equal to the literal SPAA's after every one. */
static int t16_desc_vs_literal(t16_path path, const sa_alloc_desc *d, uint64_t *seed) {
    sa_alloc al;
    ts_spaa ref;
    int t, i;
    if (sa_alloc_init(&al, d) != SA_OK) return 0;
    ts_spaa_init(&ref, d);
    for (t = 0; t < 60; t++) {
        uint64_t req[16];
        int8_t nom[16], input_of[16];
        sa_match mt;
        int got;
        for (i = 0; i < ref.n; i++) {
            req[i] = st_rand(seed);
            if (t % 3 == 0) req[i] &= st_rand(seed);
            if (t % 3 == 1) req[i] |= st_rand(seed);
            req[i] &= sa__low_mask(ref.m);
        }
        memset(&mt, 0x5A, sizeof mt);
        got = path ? path(&al, req, &mt) : sa_allocate(&al, req, NULL, NULL, &mt);
        ts_spaa_nominate(&ref, req, NULL, NULL, nom);
        ts_spaa_grant(&ref, nom, input_of);
        if (got != mt.size || !ts_match_is(&mt, input_of, ref.n, ref.m) ||
            !ts_bank_equal(&ref.in, al.spaa_in, al.spaa_in_lw, al.spaa_in_words) ||
            !ts_bank_equal(&ref.out, al.spaa_out, al.spaa_out_lw, al.spaa_out_words)) {
            printf("    %d x %d rotary %d, allocation %d differs from the literal SPAA\n",
                   ref.n, ref.m, ref.rotary, t);
            return 0;
        }
    }
    return 1;
}

/* `trials` random allocators of n x m (0: random sizes up to 16 x 8 with
 * lane widths lwo), with or without the Rotary Rule and unconnected
 * cells, through t16_desc_vs_literal. */
static int t16_path_vs_literal(t16_path path, int n0, int m0, int lwo, uint64_t seed, int trials) {
    int trial;
    for (trial = 0; trial < trials; trial++) {
        sa_alloc_desc d;
        int i;
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_SPAA;
        d.num_inputs = n0 ? n0 : lwo == 4 ? 9 + (int)st_rand_below(&seed, 8) : 1 + (int)st_rand_below(&seed, 8);
        d.num_outputs = m0 ? m0 : 1 + (int)st_rand_below(&seed, 8);
        d.rotary = (int)st_rand_below(&seed, 2);
        d.network_inputs = st_rand(&seed) & sa__low_mask(d.num_inputs);
        if (st_rand_below(&seed, 2))
            for (i = 0; i < d.num_inputs; i++)
                d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(d.num_outputs);
        if (!t16_desc_vs_literal(path, &d, &seed)) return 0;
    }
    return 1;
}

ST_TEST(spaa16_alpha_16x7_path_matches_literal_spaa) {
    ST_CHECK(t16_path_vs_literal(sa__spaa_16x7_sse2, 16, 7, 4, 1610, 40));
    /* and sa_allocate's dispatch to it */
    ST_CHECK(t16_path_vs_literal(NULL, 16, 7, 4, 1611, 20));
}

ST_TEST(spaa16_square_8x8_and_7x7_paths_match_literal_spaa) {
    ST_CHECK(t16_path_vs_literal(sa__spaa_8x8_sse2, 8, 8, 3, 1612, 40));
    ST_CHECK(t16_path_vs_literal(sa__spaa_7x7_sse2, 7, 7, 3, 1613, 40));
    ST_CHECK(t16_path_vs_literal(NULL, 8, 8, 3, 1614, 10));
    ST_CHECK(t16_path_vs_literal(NULL, 7, 7, 3, 1615, 10));
}

ST_TEST(spaa16_general_register_paths_match_literal_spaa) {
    ST_CHECK(t16_path_vs_literal(sa__spaa_reg_sse2_3, 0, 0, 3, 1616, 150));
    ST_CHECK(t16_path_vs_literal(sa__spaa_reg_sse2_4, 0, 0, 4, 1617, 150));
}

/* sa_allocate's dispatch before its out-of-line rest: the Alpha 21364's
 * own configuration (read-port pairs, its connection matrix, with and
 * without the Rotary Rule) without buffer views takes the 16 x 7 path
 * (pairing needs the views); every size up to 16 x 16 without priorities
 * takes a register path; all as the literal SPAA decides. */
ST_TEST(spaa16_sa_allocate_dispatch_matches_literal_spaa) {
    uint64_t seed = 1618;
    int rotary, n, m;
    for (rotary = 0; rotary < 2; rotary++) {
        sa_alloc_desc d;
        ST_EQ(SA_OK, sa_alloc_desc_21364(&d, SA_ALLOC_SPAA, rotary));
        ST_CHECK(d.read_port_pairs && d.num_inputs == 16 && d.num_outputs == 7);
        ST_CHECK(t16_desc_vs_literal(NULL, &d, &seed));
    }
    for (n = 1; n <= 16; n++)
        for (m = 1; m <= 16; m++) {
            sa_alloc_desc d;
            int i;
            memset(&d, 0, sizeof d);
            d.kind = SA_ALLOC_SPAA;
            d.num_inputs = n;
            d.num_outputs = m;
            d.rotary = (n + m) & 1;
            d.network_inputs = st_rand(&seed) & sa__low_mask(n);
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(m);
            ST_CHECKF(t16_desc_vs_literal(NULL, &d, &seed), "%d x %d", n, m);
        }
}

#endif
