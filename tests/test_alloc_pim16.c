/* test_alloc_pim16.c - PIM1's straight-line paths up to 16 x 8
 * (sa__pim1_16x7_sse2 at the Alpha 21364's 16 x 7, sa__pim1_16x8_sse2 at
 * the other sizes): their helpers (population-count tree, k-th set bit of
 * 16-bit and of byte lanes, the 16 x 7 column transpose, the accept, the
 * writing of the matching) against brute force, exhaustively where the
 * domain is small; whole allocations against the literal reference of the
 * draw protocol (alloc_pim_ref.h) and against sa__pim_general, with and
 * without the Rotary Rule, with unconnected cells (random and the
 * 21364's), and with Lemire rejections forced in the grant and in the
 * accept stage (the paths hand those allocations to sa__pim_sse2_small;
 * test_alloc_pim.c forces them at 11 x 7 and 1 x 6 as well). */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"
#ifndef TPIM_DRIVER /* the unity build has it from test_alloc_pim.c */
#define TPIM_DRIVER tpim16_compare
#include "alloc_pim_ref.h"
#endif

/* An allocator and the reference's view of it at n x m: iterations,
 * Rotary Rule with random network inputs, random unconnected cells (or
 * the 21364's connection matrix and network inputs).  Returns 1 if the
 * set-up fails. */
static int pim16_setup_nm(sa_alloc *al, tpim_cfg *c, int n, int m, int iterations, int rotary, int conn_kind,
                          uint64_t *seed) {
    sa_alloc_desc d;
    int i, j;
    memset(c, 0, sizeof *c);
    if (conn_kind == 2 && n == 16 && m == 7) {
        sa_alloc_desc_21364(&d, SA_ALLOC_PIM, rotary);
    } else {
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_PIM;
        d.num_inputs = n;
        d.num_outputs = m;
        d.rotary = rotary;
        d.network_inputs = st_rand(seed) & sa__low_mask(n);
        if (conn_kind >= 1)
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(seed) & st_rand(seed) & sa__low_mask(m);
    }
    d.iterations = iterations;
    d.seed = st_rand(seed);
    c->n = n;
    c->m = m;
    c->iterations = iterations;
    c->rotary = d.rotary;
    for (i = 0; i < n; i++) {
        c->net[i] = d.rotary ? (int)((d.network_inputs >> i) & 1u) : 0;
        for (j = 0; j < m; j++) c->conn[i][j] = !((d.no_connect[i] >> j) & 1u);
    }
    return sa_alloc_init(al, &d) == SA_OK ? 0 : 1;
}

static int pim16_setup(sa_alloc *al, tpim_cfg *c, int iterations, int rotary, int conn_kind, uint64_t *seed) {
    return pim16_setup_nm(al, c, 16, 7, iterations, rotary, conn_kind, seed);
}

/* One allocation of the library and of the reference (whose stream must
 * be at the library's state): the number of mismatched decisions. */
static long pim16_step(sa_alloc *al, const tpim_cfg *c, tpim_stream *st, const uint64_t *req) {
    int out_of[64], in_of[64], size, i, j;
    long bad = 0;
    sa_match mt;
    memset(&mt, 0x5A, sizeof mt); /* the path must fill all of it */
    sa_allocate(al, req, NULL, NULL, &mt);
    size = tpim_allocate(c, st, req, NULL, out_of, in_of);
    bad += size != mt.size || st->rng.state != al->rng.state;
    for (i = 0; i < c->n; i++)
        bad += out_of[i] != mt.output_of[i] || ((mt.inputs >> i) & 1u) != (uint64_t)(out_of[i] >= 0);
    for (j = 0; j < c->m; j++)
        bad += in_of[j] != mt.input_of[j] || ((mt.outputs >> j) & 1u) != (uint64_t)(in_of[j] >= 0);
    for (i = c->n; i < SA_ALLOC_MAX; i++) bad += mt.output_of[i] != -1;
    for (j = c->m; j < SA_ALLOC_MAX; j++) bad += mt.input_of[j] != -1;
    bad += (mt.inputs & ~sa__low_mask(c->n)) != 0 || (mt.outputs & ~sa__low_mask(c->m)) != 0;
    return bad;
}

/* The path against the literal reference over random request sets of
 * four densities (and the empty set), every connection and Rotary Rule
 * setting; *rejections gets the reference's Lemire rejections. */
static long pim16_random(long allocators, int per, long *rejections) {
    static tpim_cfg c;
    uint64_t seed = 0x16070001;
    long a, bad = 0, rej = 0;
    for (a = 0; a < allocators; a++) {
        sa_alloc al;
        tpim_stream st;
        int t, i;
        bad += pim16_setup(&al, &c, 1, (int)(a & 1), (int)((a >> 1) % 3), &seed);
        st.rng = al.rng;
        st.left = 0;
        st.rejections = 0;
        for (t = 0; t < per; t++) {
            uint64_t req[16];
            int dens = (int)st_rand_below(&seed, 4);
            for (i = 0; i < 16; i++) req[i] = t % 17 == 16 ? 0 : ta_rand_request_row(&seed, dens, 7);
            bad += pim16_step(&al, &c, &st, req);
        }
        rej += st.rejections;
    }
    *rejections = rej;
    return bad;
}

ST_TEST(alloc_pim16_matches_reference) {
    long rej = 0;
    ST_EQ(0, pim16_random(ST_LONG ? 600 : 60, ST_LONG ? 2000 : 250, &rej));
    ST_CHECKF(!ST_LONG || rej > 0, "rejections seen: %ld", rej);
}

/* PIM1 at every other size up to 16 x 8 (sa__pim1_16x8_sse2: fewer
 * block outputs, an output 7, inputs beyond n) against the reference. */
ST_TEST(alloc_pim16_small_sizes_match_reference) {
    static tpim_cfg c;
    uint64_t seed = 0x16080001;
    long a, bad = 0;
    for (a = 0; a < (ST_LONG ? 2000 : 300); a++) {
        sa_alloc al;
        tpim_stream st;
        int t, i, n = 1 + (int)(a % 16), m = 1 + (int)((a / 16) % 8);
        bad += pim16_setup_nm(&al, &c, n, m, 1, (int)st_rand_below(&seed, 2), (int)st_rand_below(&seed, 2), &seed);
        st.rng = al.rng;
        st.left = 0;
        st.rejections = 0;
        for (t = 0; t < 40; t++) {
            uint64_t req[16];
            int dens = (int)st_rand_below(&seed, 4);
            for (i = 0; i < n; i++) req[i] = t % 13 == 12 ? 0 : ta_rand_request_row(&seed, dens, m);
            bad += pim16_step(&al, &c, &st, req);
        }
    }
    ST_EQ(0, bad);
}

/* The same allocations through sa__pim_general (from a copy of the
 * allocator, on the effective requests). */
ST_TEST(alloc_pim16_matches_general_path) {
    static tpim_cfg c;
    uint64_t seed = 0x16070002;
    int a, t, i;
    for (a = 0; a < 24; a++) {
        sa_alloc al, ag;
        ST_EQ(0, pim16_setup(&al, &c, 1, a & 1, (a >> 1) % 3, &seed));
        for (t = 0; t < 300; t++) {
            uint64_t req[16], eff[SA_ALLOC_MAX];
            sa_match m1, m2;
            int dens = (int)st_rand_below(&seed, 4);
            for (i = 0; i < 16; i++) req[i] = ta_rand_request_row(&seed, dens, 7);
            for (i = 0; i < SA_ALLOC_MAX; i++) eff[i] = i < 16 ? req[i] & al.connect[i] : 0;
            ag = al;
            sa_allocate(&al, req, NULL, NULL, &m1);
            sa__match_clear(&m2);
            sa__pim_general(&ag, eff, NULL, &m2);
            ST_EQ_U64(ag.rng.state, al.rng.state);
            ST_EQ(m2.size, m1.size);
            ST_EQ_U64(m2.inputs, m1.inputs);
            ST_EQ_U64(m2.outputs, m1.outputs);
            for (i = 0; i < SA_ALLOC_MAX; i++) {
                ST_EQ(m2.output_of[i], m1.output_of[i]);
                ST_EQ(m2.input_of[i], m1.input_of[i]);
            }
        }
    }
}

/* How many lanes of the stage starting `skip` generator outputs after
 * state s would reject with `cands` candidates each (lanes `first`..
 * `first + lanes - 1`). */
static int pim16_rejects(uint64_t s, int skip, int first, int lanes, uint32_t cands) {
    int l, r = 0;
    for (l = first; l < first + lanes; l++) {
        uint32_t u = (uint32_t)(sa__rng_at(s, (uint64_t)(skip + l / 4)) >> (16 * (l % 4))) & 0xFFFFu;
        r += (u * cands) % 65536u < 65536u % cands;
    }
    return r;
}

/* Seeds (generator states) whose first allocation of req rejects at
 * least `want` draws in the given stage, then that allocation and five
 * more against the reference: returns the mismatches, -1 if no seed was
 * found among max_seeds. */
static long pim16_forced(const uint64_t *req, int skip, int first, int lanes, uint32_t cands, int want,
                         long max_seeds) {
    static tpim_cfg c;
    uint64_t seed = 5, s = 0;
    long q, bad = 0;
    sa_alloc al;
    tpim_stream st;
    int t;
    for (q = 0; q < max_seeds; q++) {
        s = (uint64_t)q * 0xD1B54A32D192ED03ull + 99;
        if (pim16_rejects(s, skip, first, lanes, cands) >= want) break;
    }
    if (q == max_seeds) return -1;
    bad += pim16_setup(&al, &c, 1, 0, 0, &seed); /* full crossbar, no Rotary Rule */
    al.rng.state = st.rng.state = s;
    st.left = 0;
    st.rejections = 0;
    for (t = 0; t < 6; t++) bad += pim16_step(&al, &c, &st, req);
    if (st.rejections < want) return -2;
    return bad;
}

/* Lemire rejections: in the grant stage (11 requesters per output: 65536
 * mod 11 = 9), one and two in one stage; in the accept stage (input 0
 * granted by all 7 outputs: 65536 mod 7 = 2; by 6: 65536 mod 6 = 4). */
ST_TEST(alloc_pim16_redraws_match_reference) {
    uint64_t req[16];
    int i;
    for (i = 0; i < 16; i++) req[i] = i < 11 ? 0x7F : 0;
    ST_EQ(0, pim16_forced(req, 0, 0, 7, 11, 1, 100000));
    ST_EQ(0, pim16_forced(req, 0, 0, 7, 11, 2, ST_LONG ? 8000000 : 3000000));
    for (i = 0; i < 16; i++) req[i] = 0;
    req[0] = 0x7F;
    ST_EQ(0, pim16_forced(req, 2, 0, 1, 7, 1, 400000));
    req[0] = 0;
    req[13] = 0x3F; /* input 13: lane 1 of the accept block's word 3 */
    ST_EQ(0, pim16_forced(req, 2, 13, 1, 6, 1, 400000));
}

/* The generic random comparison of alloc_pim_ref.h (all sizes) still
 * holds with the 16 x 7 path in place. */
ST_TEST(alloc_pim16_generic_reference_driver) {
    uint64_t h = 0;
    long rej = 0;
    ST_EQ(0, TPIM_DRIVER(60, &h, &rej));
}

#ifdef SA_SIMD_SSE2
/* The tree of every byte and of random 16-bit lanes: pair, nibble and
 * byte counts. */
ST_TEST(alloc_pim16_tree_matches_brute_force) {
    uint64_t seed = 0x1607a;
    int t, b;
    for (t = 0; t < 2000; t++) {
        uint8_t x[16], lp[16], p2[16], p4[16];
        __m128i vlp, vp2, vp4;
        for (b = 0; b < 16; b++) x[b] = t < 16 ? (uint8_t)(16 * t + b) : (uint8_t)st_rand(&seed);
        vp4 = sa__pim_tree_sse2(_mm_loadu_si128((const __m128i *)(const void *)x), &vlp, &vp2);
        _mm_storeu_si128((__m128i *)(void *)lp, vlp);
        _mm_storeu_si128((__m128i *)(void *)p2, vp2);
        _mm_storeu_si128((__m128i *)(void *)p4, vp4);
        for (b = 0; b < 16; b++) {
            ST_EQ(ta_bit_count(x[b] & 0x3u) | ta_bit_count(x[b] & 0x30u) << 4, lp[b]);
            ST_EQ(ta_bit_count(x[b] & 0xFu) | ta_bit_count(x[b] & 0xF0u) << 4, p2[b]);
            ST_EQ(ta_bit_count(x[b]), p4[b]);
        }
    }
}

/* Every 16-bit lane value and every valid k (k = 0 for the lane 0): the
 * one-hot k-th set bit and its position, eight (x, k) pairs at a time. */
ST_TEST(alloc_pim16_kth16_exhaustive) {
    uint16_t xs[8], ks[8], hs[8], ps[8];
    long x, n = 0, bad = 0;
    int k, l;
    for (x = 0; x < 65536; x++)
        for (k = 0; k < (x ? ta_bit_count((uint64_t)x) : 1); k++) {
            xs[n % 8] = (uint16_t)x;
            ks[n % 8] = (uint16_t)k;
            if (++n % 8 == 0 || (x == 65535 && k == 15)) {
                __m128i vx = _mm_loadu_si128((const __m128i *)(const void *)xs), lp, p2, p4, pos, h;
                p4 = sa__pim_tree_sse2(vx, &lp, &p2);
                h = sa__pim_kth16_sse2(vx, lp, p2, p4, _mm_loadu_si128((const __m128i *)(const void *)ks), &pos);
                _mm_storeu_si128((__m128i *)(void *)hs, h);
                _mm_storeu_si128((__m128i *)(void *)ps, pos);
                for (l = 0; l < (n % 8 ? (int)(n % 8) : 8); l++) {
                    int want = ta_kth_bit(xs[l], ks[l]);
                    if (want < 0) bad += hs[l] != 0;
                    else bad += hs[l] != (1u << want) || ps[l] != want;
                }
            }
        }
    ST_EQ(0, bad);
    ST_EQ(524289, n); /* 16 * 2^15 set bits over all values, plus the k = 0 of 0 */
}

/* Every byte and every valid k, sixteen pairs at a time. */
ST_TEST(alloc_pim16_kth8_exhaustive) {
    uint8_t xs[16], ks[16], hs[16], ps[16];
    int x, k, l, n = 0;
    for (x = 0; x < 256; x++)
        for (k = 0; k < (x ? ta_bit_count((uint64_t)x) : 1); k++) {
            xs[n % 16] = (uint8_t)x;
            ks[n % 16] = (uint8_t)k;
            if (++n % 16 == 0 || (x == 255 && k == 7)) {
                __m128i vx = _mm_loadu_si128((const __m128i *)(const void *)xs), lp, q2, pos, h;
                sa__pim_tree_sse2(vx, &lp, &q2);
                h = sa__pim_kth8_sse2(vx, lp, q2, _mm_loadu_si128((const __m128i *)(const void *)ks), &pos);
                _mm_storeu_si128((__m128i *)(void *)hs, h);
                _mm_storeu_si128((__m128i *)(void *)ps, pos);
                for (l = 0; l < (n % 16 ? n % 16 : 16); l++) {
                    int want = ta_kth_bit(xs[l], ks[l]);
                    if (want < 0) ST_EQ(0, hs[l]);
                    else {
                        ST_EQ(1 << want, hs[l]);
                        ST_EQ(want, ps[l]);
                    }
                }
            }
        }
    ST_EQ(1025, n);
}

/* The columns of random 16 x 8 byte matrices (bit 7 ignored). */
ST_TEST(alloc_pim16_columns_match_brute_force) {
    uint64_t seed = 0x1607c;
    int t, i, j;
    for (t = 0; t < 3000; t++) {
        uint8_t rows[16];
        uint16_t cols[8];
        for (i = 0; i < 16; i++) rows[i] = (uint8_t)st_rand(&seed);
        if (t & 1) rows[t % 16] = 0xFF;
        _mm_storeu_si128((__m128i *)(void *)cols,
                         sa__pim_cols16x7_sse2(_mm_loadu_si128((const __m128i *)(const void *)rows)));
        for (j = 0; j < 8; j++) {
            unsigned want = 0;
            for (i = 0; i < 16; i++) want |= j < 7 ? ((rows[i] >> j) & 1u) << i : 0;
            ST_EQ(want, cols[j]);
        }
    }
}
/* The accept helper: per input, the count of its grants, Lemire's index
 * from its draw (k = high half of u c), the k-th grant; the rejection flag
 * is set wherever the low half of u c is below c. */
ST_TEST(alloc_pim16_accept_matches_brute_force) {
    uint64_t seed = 0x1607d;
    int t, i;
    for (t = 0; t < 3000; t++) {
        uint8_t g[16], h8[16], pos8[16];
        uint16_t u[16], rj[8];
        __m128i rej = _mm_setzero_si128(), vpos, vh;
        int flagged = 0, want_flag = 0;
        for (i = 0; i < 16; i++) {
            g[i] = (uint8_t)(st_rand(&seed) & st_rand(&seed));
            u[i] = (uint16_t)st_rand(&seed);
            if (t % 7 == 0) u[i] = (uint16_t)(u[i] & 0xF); /* low draws: flagged lanes */
        }
        vh = sa__pim1_accept_sse2(_mm_loadu_si128((const __m128i *)(const void *)g),
                                  _mm_loadu_si128((const __m128i *)(const void *)u),
                                  _mm_loadu_si128((const __m128i *)(const void *)(u + 8)), &rej, &vpos);
        _mm_storeu_si128((__m128i *)(void *)h8, vh);
        _mm_storeu_si128((__m128i *)(void *)pos8, vpos);
        _mm_storeu_si128((__m128i *)(void *)rj, rej);
        for (i = 0; i < 8; i++) flagged |= rj[i] != 0;
        for (i = 0; i < 16; i++) {
            uint32_t c = (uint32_t)ta_bit_count(g[i]), k = ((uint32_t)u[i] * c) >> 16;
            want_flag |= (((uint32_t)u[i] * c) & 0xFFFFu) < c;
            if (c == 0) {
                ST_EQ(0, h8[i]);
                continue;
            }
            ST_EQ(1 << ta_kth_bit(g[i], (int)k), h8[i]);
            ST_EQ(ta_kth_bit(g[i], (int)k), pos8[i]);
        }
        ST_EQ(want_flag, flagged);
    }
}

/* Writing the matching: random matchings (each input's output one-hot,
 * distinct outputs), with and without an output 7, against the fields
 * built one by one. */
ST_TEST(alloc_pim16_write_matches_brute_force) {
    uint64_t seed = 0x1607e;
    int t, i, j;
    for (t = 0; t < 3000; t++) {
        int m8 = t & 1, m = m8 ? 8 : 7, size = 0;
        int8_t out_of[16], in_of[8];
        uint8_t h8[16], pos8[16];
        uint16_t gpos[8];
        uint64_t used = 0, ins = 0;
        sa_match mt;
        for (j = 0; j < 8; j++) {
            in_of[j] = -1;
            gpos[j] = (uint16_t)st_rand_below(&seed, 16); /* granted input: any, used only if accepted */
        }
        for (i = 0; i < 16; i++) {
            out_of[i] = -1;
            h8[i] = 0;
            pos8[i] = (uint8_t)st_rand(&seed); /* anything where nothing was accepted */
            j = (int)st_rand_below(&seed, (uint32_t)m);
            if (st_rand_below(&seed, 3) != 0 && !((used >> j) & 1u)) {
                used |= (uint64_t)1 << j;
                ins |= (uint64_t)1 << i;
                out_of[i] = (int8_t)j;
                in_of[j] = (int8_t)i;
                h8[i] = (uint8_t)(1u << j);
                pos8[i] = (uint8_t)j;
                gpos[j] = (uint16_t)i;
                size++;
            }
        }
        memset(&mt, 0x5A, sizeof mt);
        ST_EQ(size, sa__pim1_write_sse2(&mt, _mm_loadu_si128((const __m128i *)(const void *)h8),
                                        _mm_loadu_si128((const __m128i *)(const void *)pos8),
                                        _mm_loadu_si128((const __m128i *)(const void *)gpos), m8));
        ST_EQ(size, mt.size);
        ST_EQ_U64(ins, mt.inputs);
        ST_EQ_U64(used, mt.outputs);
        for (i = 0; i < SA_ALLOC_MAX; i++) ST_EQ(i < 16 ? out_of[i] : -1, mt.output_of[i]);
        for (j = 0; j < SA_ALLOC_MAX; j++) ST_EQ(j < 8 ? in_of[j] : -1, mt.input_of[j]);
    }
}
#endif
