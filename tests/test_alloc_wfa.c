/* test_alloc_wfa.c - the fast paths of WFA, OPF and the separable
 * allocators (seastar_arb.h section 2) against independent oracles: a
 * literal cell-by-cell wavefront (with the Rotary Rule's row order), a
 * literal two-phase separable allocator, brute-force bit helpers; and each
 * SIMD path against its portable twin. */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

/* Full consistency of a matching: output_of and input_of inverse, the masks
 * and the size agree, entries beyond the sizes are -1. */
static const char *wf_consistent(const sa_match *mt, int n, int m) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    for (i = 0; i < SA_ALLOC_MAX; i++) {
        j = mt->output_of[i];
        if (j < 0) continue;
        if (i >= n || j >= m) return "output_of beyond the sizes";
        if (mt->input_of[j] != i) return "input_of is not the inverse of output_of";
        ins |= (uint64_t)1 << i;
        outs |= (uint64_t)1 << j;
        size++;
    }
    for (j = 0; j < SA_ALLOC_MAX; j++) {
        i = mt->input_of[j];
        if (i >= 0 && (j >= m || mt->output_of[i] != j)) return "input_of has a pair output_of lacks";
    }
    if (ins != mt->inputs || outs != mt->outputs) return "masks disagree";
    if (size != mt->size) return "size disagrees";
    return 0;
}

/* The row order of the WFA: rows from r cyclically; with the Rotary Rule
 * (net != 0) the network rows first, then the local ones, each from r. */
static int wf_row_order(int n, int r, uint64_t net, int rotary, int *order) {
    int k = 0, pass, ii;
    for (pass = 0; pass < 2; pass++)
        for (ii = 0; ii < n; ii++) {
            int i = (r + ii) % n, is_net = (int)((net >> i) & 1u);
            if (rotary && net && is_net != (pass == 0)) continue;
            if ((!rotary || !net) && pass == 1) continue;
            order[k++] = i;
        }
    return k;
}

ST_TEST(wfa_fast_columns16x8_equal_brute_force) {
    uint64_t seed = 101, rows[16], col[8];
    int t, n, i, j;
    for (t = 0; t < 20000; t++) {
        int m = 1 + (int)st_rand_below(&seed, 8);
        n = 1 + (int)st_rand_below(&seed, 16);
        for (i = 0; i < n; i++) rows[i] = st_rand(&seed) & sa__low_mask(m);
        sa__columns16x8_portable(rows, n, col);
        for (j = 0; j < 8; j++) {
            uint64_t want = 0;
            for (i = 0; i < n; i++) want |= ((rows[i] >> j) & 1u) << i;
            ST_EQ_U64(want, col[j]);
        }
#ifdef SA_SIMD_SSE2
        {
            uint64_t col2[8];
            sa__columns16x8_sse2(rows, n, col2);
            for (j = 0; j < 8; j++) ST_EQ_U64(col[j], col2[j]);
        }
#endif
    }
}

/* sa__wfa_by_columns (every size; Rotary Rule or not), sa__wfa_rows and
 * the SSE2 16x8 path each equal the literal wavefront, with a fully
 * consistent matching. */
ST_TEST(wfa_fast_paths_equal_literal_wavefront) {
    uint64_t seed = 102, eff[64], col[64];
    int t;
    for (t = 0; t < (ST_LONG ? 200000 : 20000); t++) {
        int small = t % 3 != 0;
        int n = 1 + (int)st_rand_below(&seed, small ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, small ? 8 : 64);
        int rotary = (int)(t & 1), order[64], i, path;
        uint64_t net = st_rand(&seed) & sa__low_mask(n), all = sa__low_mask(n);
        int r = (int)st_rand_below(&seed, (uint32_t)n), c = (int)st_rand_below(&seed, (uint32_t)m);
        unsigned dens = st_rand_below(&seed, 4);
        int8_t want[64];
        sa_alloc a;
        sa_alloc_desc d;
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_WFA;
        d.num_inputs = n;
        d.num_outputs = m;
        ST_EQ(SA_OK, sa_alloc_init(&a, &d));
        if (rotary && net) r = sa__first_from(net, r); /* the start row is a network row */
        for (i = 0; i < n; i++) eff[i] = ta_rand_request_row(&seed, (int)dens, m);
        wf_row_order(n, r, net, rotary, order);
        ta_wfa_literal_order(eff, n, m, order, c, want);
        for (path = 0; path < 3; path++) {
            sa_match mt;
            const char *err;
            uint64_t pri = rotary && net ? net : all;
            sa__match_clear(&mt);
            if (path == 0) {
                sa__columns(eff, n, m, col);
                sa__wfa_by_columns(&a, col, r, c, pri, &mt);
            } else if (path == 1) {
                sa__wfa_rows(&a, eff, NULL, pri, r, c, &mt);
                if (pri != all) sa__wfa_rows(&a, eff, NULL, all & ~pri, r, c, &mt);
            } else {
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX > 16
                if (n > 16 || m > 8 || pri != all) continue;
                sa__wfa16x8_sse2(&a, eff, r, c, &mt);
#else
                continue;
#endif
            }
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i], "path %d n %d m %d r %d c %d rotary %d: row %d got %d want %d",
                          path, n, m, r, c, rotary, i, mt.output_of[i], want[i]);
            err = wf_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "path %d n %d m %d: %s", path, n, m, err);
        }
    }
}

ST_TEST(wfa_fast_first_from_branch_free_equals_first_from) {
    uint64_t seed = 103;
    int t;
    for (t = 0; t < 100000; t++) {
        uint64_t x = st_rand(&seed);
        int p = (int)st_rand_below(&seed, 64), want;
        if (t & 1) x &= st_rand(&seed) & st_rand(&seed);
        if (t % 5 == 0) x = 0;
        want = sa__first_from(x, p);
        ST_EQ(want < 0 ? 0 : want, sa__first_from_bf(x, p));
        ST_EQ_U64(x ? ~(uint64_t)0 : 0, sa__mask_if(x != 0));
    }
}

#ifdef SA_SIMD_SSE2
ST_TEST(wfa_fast_top_priority_row_sse2_equals_portable) {
    uint64_t seed = 104;
    int t;
    for (t = 0; t < 50000; t++) {
        uint8_t prio[64];
        int n = 16 + (int)st_rand_below(&seed, 49), i;
        uint64_t req = st_rand(&seed) & sa__low_mask(n);
        unsigned top;
        if (t & 1) req &= st_rand(&seed);
        if (t % 7 == 0) req &= st_rand(&seed) & st_rand(&seed);
        if (req == 0) continue;
        for (i = 0; i < 64; i++) prio[i] = (uint8_t)st_rand_below(&seed, t & 2 ? 4 : 256);
        if (t % 11 == 0) memset(prio, 0, sizeof prio);
        ST_EQ_U64(sa__oldest_portable(req, prio, n, &top), sa__top_priority_row_sse2(req, prio, n));
    }
}
#endif

/* Literal separable input-first allocation: each input's round-robin arbiter
 * (highest priority first) nominates, each output's grants; the pointers of
 * the matched pairs move past the winners. */
static void wf_sep_input_literal(int n, int m, const uint64_t *eff, const uint8_t *prio,
                                 uint8_t *in_ptr, uint8_t *out_ptr, int8_t *out) {
    int nom[64], i, j, k;
    for (i = 0; i < n; i++) {
        int best = -1, pick = -1;
        out[i] = -1;
        for (k = 0; k < m; k++) {
            j = (in_ptr[i] + k) % m;
            if (!((eff[i] >> j) & 1u)) continue;
            if (prio == NULL ? pick < 0 : prio[i * m + j] > best) {
                best = prio ? prio[i * m + j] : 0;
                pick = j;
            }
        }
        nom[i] = pick;
    }
    for (j = 0; j < m; j++) {
        int best = -1, pick = -1;
        for (k = 0; k < n; k++) {
            i = (out_ptr[j] + k) % n;
            if (nom[i] != j) continue;
            if (prio == NULL ? pick < 0 : prio[i * m + j] > best) {
                best = prio ? prio[i * m + j] : 0;
                pick = i;
            }
        }
        if (pick < 0) continue;
        out[pick] = (int8_t)j;
        out_ptr[j] = (uint8_t)((pick + 1) % n);
        in_ptr[pick] = (uint8_t)((j + 1) % m);
    }
}

ST_TEST(wfa_fast_separable_input_equals_literal) {
    static uint8_t prio[64 * 64];
    uint64_t seed = 105, req[64];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 3000 : 300); trial++) {
        int n = 1 + (int)st_rand_below(&seed, trial & 1 ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, trial & 1 ? 8 : 64), t, i;
        int use_prio = (trial >> 1) & 1;
        uint8_t in_ptr[64], out_ptr[64];
        sa_alloc a;
        sa_alloc_desc d;
        memset(&d, 0, sizeof d);
        d.kind = use_prio ? SA_ALLOC_OPF : SA_ALLOC_SEP_INPUT;
        d.num_inputs = n;
        d.num_outputs = m;
        ST_EQ(SA_OK, sa_alloc_init(&a, &d));
        for (i = 0; i < 64; i++) {
            a.in_ptr[i] = in_ptr[i] = i < n ? (uint8_t)st_rand_below(&seed, (uint32_t)m) : 0;
            a.out_ptr[i] = out_ptr[i] = i < m ? (uint8_t)st_rand_below(&seed, (uint32_t)n) : 0;
        }
        for (t = 0; t < 20; t++) {
            sa_match mt;
            int8_t want[64];
            const char *err;
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & (t & 1 ? st_rand(&seed) : ~(uint64_t)0) & sa__low_mask(m);
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, t & 2 ? 3 : 256);
            wf_sep_input_literal(n, m, req, use_prio ? prio : NULL, in_ptr, out_ptr, want);
            sa_allocate(&a, req, use_prio ? prio : NULL, NULL, &mt);
            for (i = 0; i < n; i++) ST_EQ(want[i], mt.output_of[i]);
            for (i = 0; i < n; i++) ST_EQ(in_ptr[i], a.in_ptr[i]);
            for (i = 0; i < m; i++) ST_EQ(out_ptr[i], a.out_ptr[i]);
            err = wf_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}

/* The generic iSLIP-k / separable output-first (sa__request_grant_accept
 * over column masks): the portable twin of the SSE2 16x8 path. */
static int wf_rga_generic(sa_alloc *a, const uint64_t *eff, int mode, int iterations, sa_match *mt) {
    uint64_t col[64];
    int it;
    sa__match_clear(mt);
    sa__columns(eff, a->num_inputs, a->num_outputs, col);
    for (it = 0; iterations < 0 || it < iterations; it++)
        if (sa__request_grant_accept(a, col, NULL, mode, it == 0, mt) == 0) break;
    return mt->size;
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
static __m128i wf_vec(const uint8_t *b) { return _mm_loadu_si128((const __m128i *)(const void *)b); }
static void wf_store(uint8_t *b, __m128i v) { _mm_storeu_si128((__m128i *)(void *)b, v); }

ST_TEST(wfa_fast_byte_matrix_helpers_equal_brute_force) {
    uint64_t seed = 106;
    int t, i, j, k;
    for (t = 0; t < 20000; t++) {
        uint8_t x[16], y[16], ptr[16], want;
        uint16_t lanes[8];
        for (i = 0; i < 16; i++) {
            x[i] = (uint8_t)st_rand(&seed);
            if (t & 1) x[i] &= (uint8_t)st_rand(&seed);
            ptr[i] = (uint8_t)st_rand_below(&seed, 8);
        }
        /* OR of all bytes, prefix OR */
        wf_store(y, sa__bytes_or_all(wf_vec(x)));
        for (want = 0, i = 0; i < 16; i++) want |= x[i];
        for (i = 0; i < 16; i++) ST_EQ(want, y[i]);
        wf_store(y, sa__bytes_prefix_or(wf_vec(x)));
        for (want = 0, i = 0; i < 16; i++) { want |= x[i]; ST_EQ(want, y[i]); }
        /* pointers as byte masks */
        wf_store(y, sa__bytes_from(wf_vec(ptr)));
        for (i = 0; i < 16; i++) ST_EQ((uint8_t)(0xFFu << ptr[i]), y[i]);
        /* bit index of one-hot bytes */
        for (i = 0; i < 16; i++) y[i] = (uint8_t)(x[i] & 1u ? 0 : (1u << st_rand_below(&seed, 8)));
        memcpy(x, y, 16);
        wf_store(y, sa__bytes_bit_index(wf_vec(x)));
        for (i = 0; i < 16; i++) {
            int idx = 0;
            while (x[i] && !((x[i] >> idx) & 1u)) idx++;
            ST_EQ(idx, y[i]);
        }
        /* columns of the byte matrix */
        {
            __m128i c = sa__bytes_to_columns(wf_vec(x));
            _mm_storeu_si128((__m128i *)(void *)lanes, c);
            for (j = 0; j < 8; j++) {
                unsigned w = 0;
                for (i = 0; i < 16; i++) w |= (unsigned)((x[i] >> j) & 1u) << i;
                ST_EQ(w, lanes[j]);
            }
        }
        /* output pointers as a byte matrix */
        {
            uint8_t op[16];
            for (j = 0; j < 16; j++) op[j] = (uint8_t)st_rand_below(&seed, 16);
            wf_store(y, sa__pointer_rows(op));
            for (i = 0; i < 16; i++) {
                for (want = 0, k = 0; k < 8; k++) want |= (uint8_t)((op[k] <= i) << k);
                ST_EQ(want, y[i]);
            }
        }
    }
}

ST_TEST(wfa_fast_lanes_bit_index_equals_brute_force) {
    int b;
    for (b = 0; b < 16; b++) {
        uint16_t lanes[8];
        int j;
        for (j = 0; j < 8; j++) lanes[j] = (uint16_t)(1u << ((b + j) % 16));
        _mm_storeu_si128((__m128i *)(void *)lanes, sa__lanes_bit_index(_mm_loadu_si128((const __m128i *)(const void *)lanes)));
        for (j = 0; j < 8; j++) ST_EQ((b + j) % 16, lanes[j]);
    }
}
#endif

/* iSLIP-k and separable output-first: the 16x8 path (SSE2 where present)
 * and the generic one make the same matchings and leave the same pointers,
 * from random pointer states, over sequences of request sets. */
ST_TEST(wfa_fast_islip_paths_agree) {
    uint64_t seed = 107, eff[16];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 20000 : 2000); trial++) {
        int n = 1 + (int)st_rand_below(&seed, 16), m = 1 + (int)st_rand_below(&seed, 8);
        int mode = 1 + (int)(trial & 1), t, i;
        int iterations = mode == 2 ? 1 : (trial >> 1) % 3 == 0 ? 1 : (trial >> 1) % 3 == 1 ? 3 : -1;
        sa_alloc a1, a2;
        sa_alloc_desc d;
        memset(&d, 0, sizeof d);
        d.kind = mode == 1 ? SA_ALLOC_ISLIP : SA_ALLOC_SEP_OUTPUT;
        d.num_inputs = n;
        d.num_outputs = m;
        d.iterations = iterations;
        ST_EQ(SA_OK, sa_alloc_init(&a1, &d));
        for (i = 0; i < n; i++) a1.in_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a1.out_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)n);
        a2 = a1;
        for (t = 0; t < 10; t++) {
            sa_match m1, m2;
            const char *err;
            unsigned dens = st_rand_below(&seed, 4);
            for (i = 0; i < n; i++) eff[i] = ta_rand_request_row(&seed, (int)dens, m);
            sa_allocate(&a1, eff, NULL, NULL, &m1);
            wf_rga_generic(&a2, eff, mode, iterations, &m2);
            for (i = 0; i < 64; i++) {
                ST_EQ(m2.output_of[i], m1.output_of[i]);
                ST_EQ(m2.input_of[i], m1.input_of[i]);
                ST_EQ(a2.in_ptr[i], a1.in_ptr[i]);
                ST_EQ(a2.out_ptr[i], a1.out_ptr[i]);
            }
            ST_EQ(m2.size, m1.size);
            ST_EQ_U64(m2.inputs, m1.inputs);
            ST_EQ_U64(m2.outputs, m1.outputs);
            err = wf_consistent(&m1, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}

/* The branch-free rotations equal the branchy ones; the transposes of the
 * wrapped WFA equal brute force (and, for t >= 16, the SSE2 one with
 * immediate shift counts equals the portable one). */
ST_TEST(wfa_fast_rotations_and_transposes_equal_brute_force) {
    uint64_t seed = 108, a[64], b[64];
    int t, rep, i, j;
    for (rep = 0; rep < 20000; rep++) {
        int s = 1 + (int)st_rand_below(&seed, 64), d = (int)st_rand_below(&seed, (uint32_t)s);
        uint64_t x = st_rand(&seed) & sa__low_mask(s);
        ST_EQ_U64(sa__rotr(x, d, s), sa__rotr_bf(x, d, s));
        ST_EQ_U64(sa__rotl(x, d, s), sa__rotl_bf(x, d, s));
    }
    for (t = 1; t <= 64; t <<= 1)
        for (rep = 0; rep < 100; rep++) {
            for (i = 0; i < t; i++) a[i] = b[i] = st_rand(&seed) & sa__low_mask(t);
            sa__transpose_small(a, t);
            for (i = 0; i < t; i++)
                for (j = 0; j < t; j++) ST_EQ((b[j] >> i) & 1u, (a[i] >> j) & 1u);
#ifdef SA_SIMD_SSE2
            if (t >= 16) {
                sa__transpose_portable(b, t);
                for (i = 0; i < t; i++) ST_EQ_U64(b[i], a[i]);
            }
#endif
        }
}
