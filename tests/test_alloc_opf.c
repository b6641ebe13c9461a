/* test_alloc_opf.c - OPF and separable input-first (seed 002 Figure 2)
 * at 64 x 64 and the other sizes simulators use, through sa_switch_allocate,
 * against a literal cell-by-cell OPF, including empty rows, full rows,
 * unconnected cells, tied priorities and every pointer position. */
#include "st_test.h"
/* (this file compiles only OPF and separable input-first: SA_SWITCH_KINDS) */
#define SA_SWITCH_KINDS ((1u << SA_SWITCH_OPF) | (1u << SA_SWITCH_SEP_INPUT))
#include "../seastar_arb.h"
#include "alloc_test_util.h"

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

/* Random priorities: a wide range (the extremes included), a few values
 * (many ties), the two largest, all equal. */
static void opf_rand_prio(uint64_t *seed, int32_t *prio, int count) {
    int kind = (int)st_rand_below(seed, 5), i;
    int32_t c = ta_rand_prio32(seed);
    for (i = 0; i < count; i++) {
        if (kind <= 1) prio[i] = ta_rand_prio32(seed);
        else if (kind == 2) prio[i] = (int32_t)st_rand_below(seed, 3) - 1;
        else if (kind == 3) prio[i] = INT32_MAX - (int32_t)st_rand_below(seed, 2);
        else prio[i] = c;
    }
}

/* Literal OPF (prio != NULL) or separable input-first (prio == NULL):
 * each input scans its outputs from its pointer and nominates the first
 * requested one of highest priority; each output scans its nominators from
 * its pointer and grants the first of highest priority; the two pointers
 * of each match move past the winners. */
static void opf_literal(int n, int m, const uint64_t *eff, const int32_t *prio, uint16_t *in_ptr,
                        uint16_t *out_ptr, int16_t *out) {
    int nom[64], i, j, k;
    for (i = 0; i < n; i++) {
        int32_t best = INT32_MIN;
        nom[i] = -1;
        out[i] = -1;
        for (k = 0; k < m; k++) {
            int32_t p;
            j = (in_ptr[i] + k) % m;
            p = prio ? prio[i * m + j] : 0;
            if (((eff[i] >> j) & 1u) && (nom[i] < 0 || p > best)) { best = p; nom[i] = j; }
        }
    }
    for (j = 0; j < m; j++) {
        int32_t best = INT32_MIN;
        int pick = -1;
        for (k = 0; k < n; k++) {
            int32_t p;
            i = (out_ptr[j] + k) % n;
            p = prio ? prio[i * m + j] : 0;
            if (nom[i] == j && (pick < 0 || p > best)) { best = p; pick = i; }
        }
        if (pick < 0) continue;
        out[pick] = (int16_t)j;
        out_ptr[j] = (uint16_t)((pick + 1) % n);
        in_ptr[pick] = (uint16_t)((j + 1) % m);
    }
}

ST_TEST(opf_equals_literal) {
    static const int sizes[][2] = { { 64, 64 }, { 63, 63 }, { 16, 7 }, { 8, 8 }, { 64, 17 }, { 5, 64 } };
    static int32_t prio[64 * 64];
    uint64_t seed = 804;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 1200 : 120); trial++) {
        int use_prio = trial & 1, t, i, j;
        int n = sizes[(trial >> 2) % 6][0], m = sizes[(trial >> 2) % 6][1];
        uint16_t in_ptr[64], out_ptr[64];
        uint64_t nc[64];
        ta_switch x;
        sa_switch *a = &x.a;
        sa_switch_desc d;
        /* OPF and separable input-first are one allocator: each kind with
         * and without priorities, at every size */
        ta_desc_of(&d, (trial / 24) & 1 ? SA_SWITCH_SEP_INPUT : SA_SWITCH_OPF, n, m);
        for (i = 0; i < n; i++) nc[i] = trial & 2 ? st_rand(&seed) & st_rand(&seed) & ta_low_mask(m) : 0;
        d.no_connect = nc;
        ST_EQ(SA_OK, ta_switch_init(&x, &d));
        for (i = 0; i < n; i++) a->in_ptr[i] = in_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a->out_ptr[i] = out_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)n);
        for (t = 0; t < 25; t++) {
            uint64_t req[64], eff[64], ins = 0, outs = 0;
            int16_t want[64];
            sa_match mt;
            int size = 0;
            for (i = 0; i < n; i++) {
                req[i] = opf_rand_row(&seed) & ta_low_mask(m);
                eff[i] = req[i] & ~nc[i];
            }
            opf_rand_prio(&seed, prio, n * m);
            opf_literal(n, m, eff, use_prio ? prio : NULL, in_ptr, out_ptr, want);
            ST_EQ(size = sa_switch_allocate(a, req, use_prio ? prio : NULL, NULL, &mt), mt.size);
            for (i = 0; i < n; i++) {
                ST_EQ(want[i], mt.output_of[i]);
                ST_EQ(in_ptr[i], a->in_ptr[i]);
                if (want[i] >= 0) {
                    ST_EQ(i, mt.input_of[want[i]]);
                    ins |= (uint64_t)1 << i;
                    outs |= (uint64_t)1 << want[i];
                    size--;
                }
            }
            for (j = 0; j < m; j++) ST_EQ(out_ptr[j], a->out_ptr[j]);
            ST_EQ(0, size);
            ST_EQ_U64(ins, mt.inputs[0] & ta_low_mask(n));
            ST_EQ_U64(outs, mt.outputs[0] & ta_low_mask(m));
            for (j = 0; j < m; j++) if (!((outs >> j) & 1u)) ST_EQ(-1, mt.input_of[j]);
        }
    }
}
