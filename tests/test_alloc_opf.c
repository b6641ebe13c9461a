/* test_alloc_opf.c - OPF and separable input-first at 64 x 64 (the path
 * of sa__separable_input64_sse2): its helpers against brute force and the
 * whole allocation against a literal cell-by-cell OPF, including empty
 * rows, full rows, unconnected cells, tied priorities and every pointer
 * position. */
#include "st_test.h"
#include "../seastar_arb.h"

/* A random 64-bit request row: empty, full, one bit, or about 1/8, 1/4,
 * 1/2, 3/4 of the bits. */
static uint64_t opf_rand_row(uint64_t *seed) {
    uint64_t r = st_rand(seed);
    switch (st_rand_below(seed, 8)) {
    case 0: return 0;
    case 1: return ~(uint64_t)0;
    case 2: return (uint64_t)1 << st_rand_below(seed, 64);
    case 3: return r & st_rand(seed) & st_rand(seed);
    case 4: return r & st_rand(seed);
    case 5: return r | st_rand(seed);
    default: return r;
    }
}

/* Random priorities: full range, a few values (many ties), all equal. */
static void opf_rand_prio(uint64_t *seed, uint8_t *prio, int count) {
    int kind = (int)st_rand_below(seed, 5), i;
    uint8_t c = (uint8_t)st_rand(seed);
    for (i = 0; i < count; i++) {
        if (kind <= 1) prio[i] = (uint8_t)st_rand(seed);
        else if (kind == 2) prio[i] = (uint8_t)st_rand_below(seed, 3);
        else if (kind == 3) prio[i] = (uint8_t)(255 - st_rand_below(seed, 2));
        else prio[i] = c;
    }
}

/* Brute force: the requested cells of a row holding its highest priority
 * (0 when nothing is requested), and that priority (0 then too). */
static uint64_t opf_brute_top(uint64_t req, const uint8_t *prio, int *top) {
    int j, best = -1;
    uint64_t ties = 0;
    for (j = 0; j < 64; j++) {
        if (!((req >> j) & 1u)) continue;
        if (prio[j] > best) { best = prio[j]; ties = 0; }
        if (prio[j] == best) ties |= (uint64_t)1 << j;
    }
    *top = best < 0 ? 0 : best;
    return ties;
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 64
ST_TEST(opf_prio_max64_and_eq64_equal_brute_force) {
    uint64_t seed = 801;
    int t, k;
    for (t = 0; t < 20000; t++) {
        uint8_t prio[64], got[16];
        uint64_t req = opf_rand_row(&seed), want, eq;
        __m128i w = _mm_cvtsi32_si128(0), mx;
        int top, v, j;
        opf_rand_prio(&seed, prio, 64);
        /* the row's mask in the low 64 bits, each byte doubled */
        w = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)(uint32_t)req), _mm_cvtsi32_si128((int)(uint32_t)(req >> 32)));
        mx = sa__prio_max64_sse2(_mm_unpacklo_epi8(w, w), prio);
        /* every byte of the (unfolded) result is the maximum over the
         * requested cells at its position modulo 16, so their maximum is
         * the row's maximum */
        _mm_storeu_si128((__m128i *)(void *)got, mx);
        want = opf_brute_top(req, prio, &top);
        for (k = 0; k < 16; k++) {
            int col = 0;
            for (j = k; j < 64; j += 16)
                if (((req >> j) & 1u) && prio[j] > col) col = prio[j];
            ST_EQ(col, got[k]);
        }
        /* eq64: the requested cells equal to a given byte */
        v = t & 1 ? top : (int)st_rand_below(&seed, 256);
        eq = 0;
        for (j = 0; j < 64; j++) if (((req >> j) & 1u) && prio[j] == v) eq |= (uint64_t)1 << j;
        ST_EQ_U64(eq, sa__prio_eq64_sse2(prio, _mm_set1_epi8((char)v), req));
        if (t & 1) ST_EQ_U64(want, eq);
    }
}

ST_TEST(opf_top_priority4x64_equals_brute_force) {
    static uint8_t prio[4 * 64 + 16];
    uint64_t seed = 802;
    int t, k, top;
    for (t = 0; t < 20000; t++) {
        uint64_t req[5], ties[4];
        int off = (int)st_rand_below(&seed, 16); /* any alignment */
        for (k = 0; k < 4; k++) req[k + (t & 1)] = opf_rand_row(&seed);
        opf_rand_prio(&seed, prio + off, 4 * 64);
        sa__top_priority4x64_sse2(req + (t & 1), prio + off, ties);
        for (k = 0; k < 4; k++)
            ST_EQ_U64(opf_brute_top(req[k + (t & 1)], prio + off + 64 * k, &top), ties[k]);
    }
}

/* The four-row search for rows of 16..64 candidates (the OPF path of the
 * other sizes). */
ST_TEST(opf_top_priority4_any_width_equals_brute_force) {
    static uint8_t prio[4 * 64 + 16];
    uint64_t seed = 805;
    int t, k, top;
    for (t = 0; t < 20000; t++) {
        uint64_t req[4], ties[4];
        int n = 16 + (int)st_rand_below(&seed, 49), off = (int)st_rand_below(&seed, 16);
        memset(prio, 0xEE, sizeof prio); /* the bytes after the four rows */
        for (k = 0; k < 4; k++) req[k] = opf_rand_row(&seed) & sa__low_mask(n);
        for (k = 0; k < 4; k++) opf_rand_prio(&seed, prio + off + n * k, n);
        sa__top_priority4_sse2(req, prio + off, n, ties);
        for (k = 0; k < 4; k++) {
            uint8_t row[64];
            memset(row, 0, sizeof row);
            memcpy(row, prio + off + n * k, (size_t)n);
            ST_EQ_U64(opf_brute_top(req[k], row, &top), ties[k]);
        }
    }
}

/* The nomination: the first candidate from the input's pointer, its key
 * (priority, then the input's round-robin distance from the output's
 * pointer, smaller first) kept in best[j] if larger; no candidate leaves
 * best[0..63] alone. */
ST_TEST(opf_nominate64_equals_brute_force) {
    uint64_t seed = 803;
    int t, j;
    for (t = 0; t < 20000; t++) {
        sa_alloc a;
        uint16_t best[72], before[72];
        uint8_t prow[64];
        int i = (int)st_rand_below(&seed, 64), use_prio = t & 1, want = -1, k;
        uint64_t cand = opf_rand_row(&seed);
        memset(&a, 0, sizeof a);
        for (j = 0; j < 64; j++) {
            a.in_ptr[j] = (uint8_t)st_rand_below(&seed, 64);
            a.out_ptr[j] = (uint8_t)st_rand_below(&seed, 64);
            prow[j] = (uint8_t)st_rand(&seed);
        }
        for (j = 0; j < 72; j++) before[j] = best[j] = (uint16_t)(t & 2 ? st_rand_below(&seed, 32768) : 0);
        sa__sep_nominate64(&a, best, i, cand, use_prio ? prow : NULL);
        for (k = 0; k < 64 && want < 0; k++)
            if ((cand >> ((a.in_ptr[i] + k) % 64)) & 1u) want = (a.in_ptr[i] + k) % 64;
        for (j = 0; j < 64; j++) {
            unsigned key, d;
            if (j != want) { ST_EQ(before[j], best[j]); continue; }
            d = (unsigned)((i - a.out_ptr[j] + 64) % 64);
            key = (use_prio ? (unsigned)prow[j] * 128 : 0) + 64 + (63 - d);
            ST_EQ(key > before[j] ? key : before[j], best[j]);
        }
    }
}
#endif

/* Literal OPF (prio != NULL) or separable input-first (prio == NULL):
 * each input scans its outputs from its pointer and nominates the first
 * requested one of highest priority; each output scans its nominators from
 * its pointer and grants the first of highest priority; the two pointers
 * of each match move past the winners. */
static void opf_literal(int n, int m, const uint64_t *eff, const uint8_t *prio, uint8_t *in_ptr,
                        uint8_t *out_ptr, int8_t *out) {
    int nom[64], i, j, k;
    for (i = 0; i < n; i++) {
        int best = -1;
        nom[i] = -1;
        out[i] = -1;
        for (k = 0; k < m; k++) {
            int p;
            j = (in_ptr[i] + k) % m;
            p = prio ? prio[i * m + j] : 0;
            if (((eff[i] >> j) & 1u) && p > best) { best = p; nom[i] = j; }
        }
    }
    for (j = 0; j < m; j++) {
        int best = -1, pick = -1;
        for (k = 0; k < n; k++) {
            int p;
            i = (out_ptr[j] + k) % n;
            p = prio ? prio[i * m + j] : 0;
            if (nom[i] == j && p > best) { best = p; pick = i; }
        }
        if (pick < 0) continue;
        out[pick] = (int8_t)j;
        out_ptr[j] = (uint8_t)((pick + 1) % n);
        in_ptr[pick] = (uint8_t)((j + 1) % m);
    }
}

ST_TEST(opf_64x64_equals_literal) {
    static uint8_t prio[64 * 64];
    uint64_t seed = 804;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 400 : 40); trial++) {
        int use_prio = trial & 1, t, i, j;
        uint8_t in_ptr[64], out_ptr[64];
        uint64_t nc[64];
        sa_alloc a;
        sa_alloc_desc d;
        memset(&d, 0, sizeof d);
        d.kind = use_prio ? SA_ALLOC_OPF : SA_ALLOC_SEP_INPUT;
        d.num_inputs = d.num_outputs = 64;
        for (i = 0; i < 64; i++) d.no_connect[i] = nc[i] = trial & 2 ? st_rand(&seed) & st_rand(&seed) : 0;
        ST_EQ(SA_OK, sa_alloc_init(&a, &d));
        for (i = 0; i < 64; i++) {
            a.in_ptr[i] = in_ptr[i] = (uint8_t)st_rand_below(&seed, 64);
            a.out_ptr[i] = out_ptr[i] = (uint8_t)st_rand_below(&seed, 64);
        }
        for (t = 0; t < 25; t++) {
            uint64_t req[64], eff[64], ins = 0, outs = 0;
            int8_t want[64];
            sa_match mt;
            int size = 0;
            for (i = 0; i < 64; i++) {
                req[i] = opf_rand_row(&seed);
                eff[i] = req[i] & ~nc[i];
            }
            opf_rand_prio(&seed, prio, 64 * 64);
            opf_literal(64, 64, eff, use_prio ? prio : NULL, in_ptr, out_ptr, want);
            ST_EQ(size = sa_allocate(&a, req, use_prio ? prio : NULL, NULL, &mt), mt.size);
            for (i = 0; i < 64; i++) {
                ST_EQ(want[i], mt.output_of[i]);
                ST_EQ(in_ptr[i], a.in_ptr[i]);
                ST_EQ(out_ptr[i], a.out_ptr[i]);
                if (want[i] >= 0) {
                    ST_EQ(i, mt.input_of[want[i]]);
                    ins |= (uint64_t)1 << i;
                    outs |= (uint64_t)1 << want[i];
                    size--;
                }
            }
            ST_EQ(0, size);
            ST_EQ_U64(ins, mt.inputs);
            ST_EQ_U64(outs, mt.outputs);
            for (j = 0; j < 64; j++) if (!((outs >> j) & 1u)) ST_EQ(-1, mt.input_of[j]);
        }
    }
}
