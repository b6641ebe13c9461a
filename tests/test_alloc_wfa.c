/* test_alloc_wfa.c - WFA (with and without the Rotary Rule), the separable
 * allocators, OPF and iSLIP-k, through sa_switch_allocate, with and
 * without priorities, against literal oracles written here from the
 * papers: a cell-by-cell wave front with the Rotary Rule's row order
 * (once per priority level), a two-phase separable allocator, and
 * request-grant-accept iterations with iSLIP's, RRM's and the
 * on-match pointer rules. */
#include "st_test.h"
/* (this file compiles only the kinds it tests: SA_SWITCH_KINDS) */
#define SA_SWITCH_KINDS ((1u << SA_SWITCH_WFA) | (1u << SA_SWITCH_ISLIP) | (1u << SA_SWITCH_OPF) | (1u << SA_SWITCH_SEP_INPUT) | \
                         (1u << SA_SWITCH_SEP_OUTPUT))
#include "../seastar_arb.h"
#include "alloc_test_util.h"

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

/* The first network row at or after r, cyclically (net != 0). */
static int wf_next_net_row(uint64_t net, int n, int r) {
    int k;
    for (k = 0; k < n; k++)
        if ((net >> ((r + k) % n)) & 1u) return (r + k) % n;
    return -1;
}

/* sa_switch_allocate's WFA and WFA-rotary, from random start cells, over
 * sequences of request sets on unconnected cells too, with and without
 * priorities, against the literal wave front: the same matching, fully
 * consistent, and the start cell moved as documented (next row, or next
 * network row with the Rotary Rule; next column after a sweep of the
 * rows), or, with SA_IDLE_HOLD and no connected request, left alone. */
ST_TEST(wfa_equals_literal_wavefront) {
    static int32_t prio[64 * 64];
    uint64_t seed = 102, req[64], eff[64];
    int t;
    for (t = 0; t < (ST_LONG ? 40000 : 4000); t++) {
        int small = t % 3 != 0;
        int n = 1 + (int)st_rand_below(&seed, small ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, small ? 8 : 64);
        int rotary = (int)(t & 1), order[64], i, step, use_prio = (t >> 2) & 1;
        uint64_t net = st_rand(&seed) & ta_low_mask(n), nc[64];
        ta_switch x;
        sa_switch *a = &x.a;
        sa_switch_desc d;
        ta_desc_of(&d, SA_SWITCH_WFA, n, m);
        d.rotary = rotary;
        d.network_inputs[0] = net;
        d.idle = (t >> 3) & 1 ? SA_IDLE_HOLD : SA_IDLE_ADVANCE;
        for (i = 0; i < n; i++) nc[i] = t & 2 ? st_rand(&seed) & st_rand(&seed) & ta_low_mask(m) : 0;
        d.no_connect = nc;
        ST_EQ(SA_OK, ta_switch_init(&x, &d));
        if (rotary && net) ST_EQ(wf_next_net_row(net, n, 0), a->start_row);
        else ST_EQ(0, a->start_row);
        a->start_row = (int)st_rand_below(&seed, (uint32_t)n);
        if (rotary && net) a->start_row = wf_next_net_row(net, n, a->start_row);
        a->start_col = (int)st_rand_below(&seed, (uint32_t)m);
        for (step = 0; step < 4; step++) {
            int r = a->start_row, c = a->start_col, nr, levels = 1 + (int)st_rand_below(&seed, 4);
            unsigned dens = st_rand_below(&seed, 5);
            int16_t want[64];
            uint64_t any = 0;
            sa_match mt;
            const char *err;
            for (i = 0; i < n; i++) {
                req[i] = dens == 4 ? 0 : ta_rand_request_row(&seed, (int)dens, m);
                eff[i] = req[i] & ~nc[i];
                any |= eff[i];
            }
            for (i = 0; i < n * m; i++) prio[i] = (int32_t)st_rand_below(&seed, (uint32_t)levels) * 1000 - 1500;
            wf_row_order(n, r, net, rotary, order);
            ta_wfa_literal_levels(eff, n, m, order, c, use_prio ? prio : NULL, want);
            ST_EQ(sa_switch_allocate(a, req, use_prio ? prio : NULL, NULL, &mt), mt.size);
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i],
                          "n %d m %d r %d c %d rotary %d priorities %d: row %d got %d want %d",
                          n, m, r, c, rotary, use_prio, i, mt.output_of[i], want[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "n %d m %d: %s", n, m, err);
            if (d.idle == SA_IDLE_HOLD && any == 0) {
                ST_EQ(r, a->start_row);
                ST_EQ(c, a->start_col);
                continue;
            }
            nr = (r + 1) % n;
            if (rotary && net) nr = wf_next_net_row(net, n, nr);
            ST_EQ(nr, a->start_row);
            /* the column moves when the row wraps past the last row */
            ST_EQ(nr <= r ? (c + 1) % m : c, a->start_col);
        }
    }
}

/* Literal separable input-first allocation: each input's round-robin arbiter
 * (highest priority first) nominates, each output's grants; the pointers of
 * the matched pairs move past the winners. */
static void wf_sep_input_literal(int n, int m, const uint64_t *eff, const int32_t *prio,
                                 uint16_t *in_ptr, uint16_t *out_ptr, int16_t *out) {
    int nom[64], i, j, k;
    for (i = 0; i < n; i++) {
        int32_t best = 0;
        int pick = -1;
        out[i] = -1;
        for (k = 0; k < m; k++) {
            j = (in_ptr[i] + k) % m;
            if (!((eff[i] >> j) & 1u)) continue;
            if (pick < 0 || (prio != NULL && prio[i * m + j] > best)) {
                best = prio ? prio[i * m + j] : 0;
                pick = j;
            }
        }
        nom[i] = pick;
    }
    for (j = 0; j < m; j++) {
        int32_t best = 0;
        int pick = -1;
        for (k = 0; k < n; k++) {
            i = (out_ptr[j] + k) % n;
            if (nom[i] != j) continue;
            if (pick < 0 || (prio != NULL && prio[i * m + j] > best)) {
                best = prio ? prio[i * m + j] : 0;
                pick = i;
            }
        }
        if (pick < 0) continue;
        out[pick] = (int16_t)j;
        out_ptr[j] = (uint16_t)((pick + 1) % n);
        in_ptr[pick] = (uint16_t)((j + 1) % m);
    }
}

/* OPF and separable input-first, each with and without priorities (the
 * same allocator: OPF names its use with packet ages). */
ST_TEST(wfa_separable_input_and_opf_equal_literal) {
    static int32_t prio[64 * 64];
    uint64_t seed = 105, req[64];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 3000 : 300); trial++) {
        int n = 1 + (int)st_rand_below(&seed, trial & 1 ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, trial & 1 ? 8 : 64), t, i;
        int use_prio = (trial >> 1) & 1;
        uint16_t in_ptr[64], out_ptr[64];
        ta_switch x;
        sa_switch *a = &x.a;
        sa_switch_desc d;
        ta_desc_of(&d, (trial >> 2) & 1 ? SA_SWITCH_OPF : SA_SWITCH_SEP_INPUT, n, m);
        ST_EQ(SA_OK, ta_switch_init(&x, &d));
        for (i = 0; i < n; i++) a->in_ptr[i] = in_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a->out_ptr[i] = out_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)n);
        for (t = 0; t < 20; t++) {
            sa_match mt;
            int16_t want[64];
            const char *err;
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & (t & 1 ? st_rand(&seed) : ~(uint64_t)0) & ta_low_mask(m);
            for (i = 0; i < n * m; i++)
                prio[i] = t & 2 ? (int32_t)st_rand_below(&seed, 3) - 1 : ta_rand_prio32(&seed);
            wf_sep_input_literal(n, m, req, use_prio ? prio : NULL, in_ptr, out_ptr, want);
            sa_switch_allocate(a, req, use_prio ? prio : NULL, NULL, &mt);
            for (i = 0; i < n; i++) ST_EQ(want[i], mt.output_of[i]);
            for (i = 0; i < n; i++) ST_EQ(in_ptr[i], a->in_ptr[i]);
            for (i = 0; i < m; i++) ST_EQ(out_ptr[i], a->out_ptr[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}

/* The first member of `cand` (n flags) at or after position from,
 * cyclically, among those whose priority prio[x * stride] is the highest
 * (all with prio NULL); -1 if cand is empty. */
static int wf_first_top(const int *cand, int n, int from, const int32_t *prio, int stride) {
    int k, pick = -1;
    for (k = 0; k < n; k++) {
        int x = (from + k) % n;
        if (cand[x] && (pick < 0 || (prio != NULL && prio[x * stride] > prio[pick * stride]))) pick = x;
    }
    return pick;
}

/* Literal request-grant-accept (McKeown): unmatched inputs request every
 * free output they want; each free output grants the first requester from
 * its pointer among those of highest priority; each input accepts the
 * first grant from its pointer among those of highest priority.
 * iSLIP (rrm 0): the pointers of accepted first-iteration grants move past
 * the partner; iterations stop after k or when one adds nothing (with one
 * iteration this is also separable output-first with SA_POINTER_ON_MATCH).
 * RRM (rrm 1, one iteration): every output's pointer moves past its grant,
 * accepted or not, every accepting input's past its output. */
static void wf_rga_literal(int n, int m, const uint64_t *eff, const int32_t *prio, int iterations, int rrm,
                           uint16_t *in_ptr, uint16_t *out_ptr, int16_t *out) {
    int in_of[64], grant[64], cand[64], it, i, j;
    for (i = 0; i < n; i++) out[i] = -1;
    for (j = 0; j < m; j++) in_of[j] = -1;
    for (it = 0; iterations < 0 || it < iterations; it++) {
        int added = 0;
        for (j = 0; j < m; j++) {
            grant[j] = -1;
            if (in_of[j] >= 0) continue;
            for (i = 0; i < n; i++) cand[i] = out[i] < 0 && ((eff[i] >> j) & 1u);
            grant[j] = wf_first_top(cand, n, out_ptr[j], prio ? prio + j : NULL, m);
            if (rrm && grant[j] >= 0) out_ptr[j] = (uint16_t)((grant[j] + 1) % n);
        }
        for (i = 0; i < n; i++) {
            int pick;
            if (out[i] >= 0) continue;
            for (j = 0; j < m; j++) cand[j] = grant[j] == i;
            pick = wf_first_top(cand, m, in_ptr[i], prio ? prio + i * m : NULL, 1);
            if (pick < 0) continue;
            out[i] = (int16_t)pick;
            in_of[pick] = i;
            added++;
            if (rrm || it == 0) in_ptr[i] = (uint16_t)((pick + 1) % m);
            if (!rrm && it == 0) out_ptr[pick] = (uint16_t)((i + 1) % n);
        }
        if (added == 0) break;
    }
}

/* iSLIP-k, separable output-first (RRM) and separable output-first with
 * SA_POINTER_ON_MATCH, each with and without priorities. */
ST_TEST(wfa_islip_and_separable_output_equal_literal) {
    static int32_t prio[64 * 64];
    uint64_t seed = 107, req[64];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 30000 : 3000); trial++) {
        int small = trial % 5 > 1, kind = trial % 3, use_prio = (trial / 3) & 1;
        int n = 1 + (int)st_rand_below(&seed, small ? 16 : 64), m = 1 + (int)st_rand_below(&seed, small ? 8 : 64);
        int rrm = kind == 1, t, i;
        int iterations = kind != 0 ? 1 : (trial / 6) % 4 == 0 ? 1 : (trial / 6) % 4 == 1 ? 3 :
                         (trial / 6) % 4 == 2 ? 2 : SA_ITERATE_TO_CONVERGENCE;
        uint16_t in_ptr[64], out_ptr[64];
        ta_switch x;
        sa_switch *a = &x.a;
        sa_switch_desc d;
        ta_desc_of(&d, kind == 0 ? SA_SWITCH_ISLIP : SA_SWITCH_SEP_OUTPUT, n, m);
        d.iterations = iterations;
        d.pointer_rule = kind == 2 ? SA_POINTER_ON_MATCH : SA_POINTER_RRM;
        ST_EQ(SA_OK, ta_switch_init(&x, &d));
        for (i = 0; i < n; i++) a->in_ptr[i] = in_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a->out_ptr[i] = out_ptr[i] = (uint16_t)st_rand_below(&seed, (uint32_t)n);
        for (t = 0; t < 10; t++) {
            sa_match mt;
            int16_t want[64];
            const char *err;
            unsigned dens = st_rand_below(&seed, 4);
            uint32_t levels = 1 + st_rand_below(&seed, 4);
            for (i = 0; i < n; i++) req[i] = ta_rand_request_row(&seed, (int)dens, m);
            for (i = 0; i < n * m; i++)
                prio[i] = levels == 4 ? ta_rand_prio32(&seed) : (int32_t)st_rand_below(&seed, levels);
            wf_rga_literal(n, m, req, use_prio ? prio : NULL, iterations, rrm, in_ptr, out_ptr, want);
            sa_switch_allocate(a, req, use_prio ? prio : NULL, NULL, &mt);
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i], "%s-%d rule %d %dx%d priorities %d step %d input %d: got %d want %d",
                          sa_switch_kind_name(d.kind), iterations, d.pointer_rule, n, m, use_prio, t, i,
                          mt.output_of[i], want[i]);
            for (i = 0; i < n; i++) ST_EQ(in_ptr[i], a->in_ptr[i]);
            for (i = 0; i < m; i++) ST_EQ(out_ptr[i], a->out_ptr[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}
