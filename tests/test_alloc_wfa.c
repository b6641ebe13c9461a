/* test_alloc_wfa.c - WFA (with and without the Rotary Rule), the separable
 * allocators, OPF and iSLIP-k, through sa_allocate, against literal oracles
 * written here from the papers: a cell-by-cell wave front with the Rotary
 * Rule's row order, a two-phase separable allocator, and request-grant-
 * accept iterations with iSLIP's and RRM's pointer rules. */
#include "st_test.h"
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

/* sa_allocate's WFA and WFA-rotary, from random start cells, over
 * sequences of request sets on unconnected cells too, against the literal
 * wave front: the same matching, fully consistent, and the start cell
 * moved as documented (next row, or next network row with the Rotary
 * Rule; next column after a sweep of the rows). */
ST_TEST(wfa_equals_literal_wavefront) {
    uint64_t seed = 102, req[64], eff[64];
    int t;
    for (t = 0; t < (ST_LONG ? 40000 : 4000); t++) {
        int small = t % 3 != 0;
        int n = 1 + (int)st_rand_below(&seed, small ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, small ? 8 : 64);
        int rotary = (int)(t & 1), order[64], i, step;
        uint64_t net = st_rand(&seed) & ta_low_mask(n);
        ta_alloc x;
        sa_alloc *a = &x.a;
        sa_alloc_desc d;
        ta_desc_of(&d, SA_ALLOC_WFA, n, m);
        d.rotary = rotary;
        d.network_inputs = net;
        if (t & 2)
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
        ST_EQ(SA_OK, ta_alloc_init(&x, &d));
        if (rotary && net) ST_EQ(wf_next_net_row(net, n, 0), a->start_row);
        else ST_EQ(0, a->start_row);
        a->start_row = (int)st_rand_below(&seed, (uint32_t)n);
        if (rotary && net) a->start_row = wf_next_net_row(net, n, a->start_row);
        a->start_col = (int)st_rand_below(&seed, (uint32_t)m);
        for (step = 0; step < 4; step++) {
            int r = a->start_row, c = a->start_col, nr;
            unsigned dens = st_rand_below(&seed, 4);
            int8_t want[64];
            sa_match mt;
            const char *err;
            for (i = 0; i < n; i++) {
                req[i] = ta_rand_request_row(&seed, (int)dens, m);
                eff[i] = req[i] & ~d.no_connect[i];
            }
            wf_row_order(n, r, net, rotary, order);
            ta_wfa_literal_order(eff, n, m, order, c, want);
            ST_EQ(sa_allocate(a, req, NULL, NULL, &mt), mt.size);
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i], "n %d m %d r %d c %d rotary %d: row %d got %d want %d",
                          n, m, r, c, rotary, i, mt.output_of[i], want[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "n %d m %d: %s", n, m, err);
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

ST_TEST(wfa_separable_input_and_opf_equal_literal) {
    static uint8_t prio[64 * 64];
    uint64_t seed = 105, req[64];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 3000 : 300); trial++) {
        int n = 1 + (int)st_rand_below(&seed, trial & 1 ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, trial & 1 ? 8 : 64), t, i;
        int use_prio = (trial >> 1) & 1;
        uint8_t in_ptr[64], out_ptr[64];
        ta_alloc x;
        sa_alloc *a = &x.a;
        sa_alloc_desc d;
        ta_desc_of(&d, use_prio ? SA_ALLOC_OPF : SA_ALLOC_SEP_INPUT, n, m);
        ST_EQ(SA_OK, ta_alloc_init(&x, &d));
        for (i = 0; i < n; i++) a->in_ptr[i] = in_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a->out_ptr[i] = out_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)n);
        for (t = 0; t < 20; t++) {
            sa_match mt;
            int8_t want[64];
            const char *err;
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & (t & 1 ? st_rand(&seed) : ~(uint64_t)0) & ta_low_mask(m);
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, t & 2 ? 3 : 256);
            wf_sep_input_literal(n, m, req, use_prio ? prio : NULL, in_ptr, out_ptr, want);
            sa_allocate(a, req, use_prio ? prio : NULL, NULL, &mt);
            for (i = 0; i < n; i++) ST_EQ(want[i], mt.output_of[i]);
            for (i = 0; i < n; i++) ST_EQ(in_ptr[i], a->in_ptr[i]);
            for (i = 0; i < m; i++) ST_EQ(out_ptr[i], a->out_ptr[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}

/* Literal request-grant-accept (McKeown): unmatched inputs request every
 * free output they want; each free output grants the first requester from
 * its pointer; each input accepts the first grant from its pointer.
 * iSLIP (rrm 0): the pointers of accepted first-iteration grants move past
 * the partner; iterations stop after k or when one adds nothing.  RRM
 * (rrm 1, one iteration): every output's pointer moves past its grant,
 * accepted or not, every accepting input's past its output. */
static void wf_rga_literal(int n, int m, const uint64_t *eff, int iterations, int rrm, uint8_t *in_ptr,
                           uint8_t *out_ptr, int8_t *out) {
    int in_of[64], grant[64], it, i, j, k;
    for (i = 0; i < n; i++) out[i] = -1;
    for (j = 0; j < m; j++) in_of[j] = -1;
    for (it = 0; iterations < 0 || it < iterations; it++) {
        int added = 0;
        for (j = 0; j < m; j++) {
            grant[j] = -1;
            if (in_of[j] >= 0) continue;
            for (k = 0; k < n && grant[j] < 0; k++) {
                i = (out_ptr[j] + k) % n;
                if (out[i] < 0 && ((eff[i] >> j) & 1u)) grant[j] = i;
            }
            if (rrm && grant[j] >= 0) out_ptr[j] = (uint8_t)((grant[j] + 1) % n);
        }
        for (i = 0; i < n; i++) {
            int pick = -1;
            if (out[i] >= 0) continue;
            for (k = 0; k < m && pick < 0; k++) {
                j = (in_ptr[i] + k) % m;
                if (grant[j] == i) pick = j;
            }
            if (pick < 0) continue;
            out[i] = (int8_t)pick;
            in_of[pick] = i;
            added++;
            if (rrm || it == 0) in_ptr[i] = (uint8_t)((pick + 1) % m);
            if (!rrm && it == 0) out_ptr[pick] = (uint8_t)((i + 1) % n);
        }
        if (added == 0) break;
    }
}

ST_TEST(wfa_islip_and_separable_output_equal_literal) {
    uint64_t seed = 107, req[64];
    int trial;
    for (trial = 0; trial < (ST_LONG ? 20000 : 2000); trial++) {
        int small = trial % 3 != 0;
        int n = 1 + (int)st_rand_below(&seed, small ? 16 : 64), m = 1 + (int)st_rand_below(&seed, small ? 8 : 64);
        int rrm = (int)(trial & 1), t, i;
        int iterations = rrm ? 1 : (trial >> 1) % 4 == 0 ? 1 : (trial >> 1) % 4 == 1 ? 3 :
                         (trial >> 1) % 4 == 2 ? 2 : SA_ITERATE_TO_CONVERGENCE;
        uint8_t in_ptr[64], out_ptr[64];
        ta_alloc x;
        sa_alloc *a = &x.a;
        sa_alloc_desc d;
        ta_desc_of(&d, rrm ? SA_ALLOC_SEP_OUTPUT : SA_ALLOC_ISLIP, n, m);
        d.iterations = iterations;
        ST_EQ(SA_OK, ta_alloc_init(&x, &d));
        for (i = 0; i < n; i++) a->in_ptr[i] = in_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)m);
        for (i = 0; i < m; i++) a->out_ptr[i] = out_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)n);
        for (t = 0; t < 10; t++) {
            sa_match mt;
            int8_t want[64];
            const char *err;
            unsigned dens = st_rand_below(&seed, 4);
            for (i = 0; i < n; i++) req[i] = ta_rand_request_row(&seed, (int)dens, m);
            wf_rga_literal(n, m, req, iterations, rrm, in_ptr, out_ptr, want);
            sa_allocate(a, req, NULL, NULL, &mt);
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i], "%s-%d %dx%d step %d input %d: got %d want %d",
                          sa_alloc_kind_name(d.kind), iterations, n, m, t, i, mt.output_of[i], want[i]);
            for (i = 0; i < n; i++) ST_EQ(in_ptr[i], a->in_ptr[i]);
            for (i = 0; i < m; i++) ST_EQ(out_ptr[i], a->out_ptr[i]);
            err = ta_match_consistent(&mt, n, m);
            ST_CHECKF(err == 0, "%s", err);
        }
    }
}
