/* SPDX-License-Identifier: MIT */
/* test_switch_models.c - the allocators' options and priorities against
 * literal models written here from their definitions: BookSim2's wave
 * front (mirrored diagonals, an idle allocation holds the state), BookSim2's
 * separable output-first allocator (both pointers move on a completed
 * match), iSLIP-k and the wave front with priorities, PIM with priorities
 * (its documented draw protocol), and every allocator at 65 x 65,
 * 128 x 128 and 512 x 512: valid matchings, the literal models where they
 * apply, and MCM against a maximum matching found here.  make test runs a
 * sample; make check-long at least a million request sets per model. */
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"

/* ------------------------------------------------------------ harness */

#define TM_MAX 512
#define TM_W ((TM_MAX + 63) / 64)

/* An allocator with its memory. */
typedef struct tm_switch {
    sa_switch s;
    void *memory;
} tm_switch;

static int tm_init(tm_switch *x, const sa_switch_desc *d) {
    size_t size = sa_switch_memory_size(d);
    x->memory = size ? malloc(size) : NULL;
    return x->memory != NULL && sa_switch_init(&x->s, d, x->memory, size) == SA_OK;
}

static void tm_free(tm_switch *x) { free(x->memory); }

/* A dense request matrix and its rows as the allocator reads them. */
typedef struct tm_reqs {
    int n, m, w;
    unsigned char cell[TM_MAX][TM_MAX];
    int32_t prio[TM_MAX * TM_MAX];
    uint64_t rows[TM_MAX * TM_W];
} tm_reqs;

static tm_reqs tm_r; /* (large: static) */

/* Random requests of density about p256/256 (0: one cell per row at most),
 * priorities in 0..levels-1. */
static void tm_fill(tm_reqs *r, int n, int m, uint64_t *seed, unsigned p256, int levels) {
    int i, j;
    r->n = n;
    r->m = m;
    r->w = (m + 63) / 64;
    memset(r->rows, 0, (size_t)n * (size_t)r->w * sizeof(uint64_t));
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            r->cell[i][j] = p256 == 0 ? 0 : (unsigned)st_rand_below(seed, 256) < p256;
            r->prio[i * m + j] = (int32_t)st_rand_below(seed, (uint32_t)levels) - 3;
        }
    if (p256 == 0)
        for (i = 0; i < n; i++)
            if (st_rand_below(seed, 2)) r->cell[i][st_rand_below(seed, (uint32_t)m)] = 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            if (r->cell[i][j]) r->rows[(size_t)i * r->w + (j >> 6)] |= (uint64_t)1 << (j & 63);
}

/* Every matched pair requested, no input or output twice, the sets and the
 * size consistent. */
static int tm_valid(const tm_reqs *r, const sa_match *mt) {
    int i, j, size = 0;
    static unsigned char used[TM_MAX];
    memset(used, 0, sizeof used);
    for (i = 0; i < r->n; i++) {
        j = mt->output_of[i];
        if (((mt->inputs[i >> 6] >> (i & 63)) & 1u) != (uint64_t)(j >= 0)) return 0;
        if (j < 0) continue;
        if (j >= r->m || !r->cell[i][j] || used[j] || mt->input_of[j] != i) return 0;
        used[j] = 1;
        size++;
    }
    for (j = 0; j < r->m; j++) {
        if (((mt->outputs[j >> 6] >> (j & 63)) & 1u) != (uint64_t)used[j]) return 0;
        if (!used[j] && mt->input_of[j] != -1) return 0;
    }
    return size == mt->size;
}

/* ------------------------------------------------------------ models */

/* BookSim2's wave front: diagonals {input + output = pri + p (mod s)}; an
 * allocation without requests returns at once, leaving pri. */
typedef struct tm_bwf {
    int pri;
} tm_bwf;

static void tm_bwf_allocate(tm_bwf *w, const tm_reqs *r, int *out_of) {
    static unsigned char in_used[TM_MAX], out_used[TM_MAX];
    int s = r->n > r->m ? r->n : r->m, p, q, any = 0, i, j;
    for (i = 0; i < r->n; i++) out_of[i] = -1;
    for (i = 0; i < r->n; i++)
        for (j = 0; j < r->m; j++) any |= r->cell[i][j];
    if (!any) return;
    memset(in_used, 0, sizeof in_used);
    memset(out_used, 0, sizeof out_used);
    for (p = 0; p < s; p++)
        for (q = 0; q < s; q++) {
            int in = (w->pri + p - q + s) % s, out = q;
            if (in < r->n && out < r->m && !in_used[in] && !out_used[out] && r->cell[in][out]) {
                in_used[in] = out_used[out] = 1;
                out_of[in] = out;
            }
        }
    w->pri = (w->pri + 1) % s;
}

/* A round-robin arbiter as BookSim2 keeps it: the last winner (-1 at
 * first); the highest priority wins, ties to the first after the last
 * winner. */
static int tm_rr_pick(int last, int size, const unsigned char *req, const int32_t *prio, int stride) {
    int best = -1, k;
    for (k = 1; k <= size; k++) {
        int x = (last + k) % size;
        if (x < 0) x += size;
        if (!req[x]) continue;
        if (best < 0 || (prio != NULL && prio[x * stride] > prio[best * stride])) best = x;
    }
    return best;
}

/* Separable output-first with pointers moved on completed matches
 * (BookSim2's separable_output_first with round-robin arbiters), or
 * iSLIP-k (iterations > 1: the later iterations on the unmatched ports,
 * pointers moving in the first only).  prio NULL: all equal. */
typedef struct tm_isl {
    int out_last[TM_MAX], in_last[TM_MAX];
} tm_isl;

static void tm_isl_init(tm_isl *x, int n, int m) {
    int i;
    for (i = 0; i < n; i++) x->in_last[i] = -1;
    for (i = 0; i < m; i++) x->out_last[i] = -1;
}

static void tm_isl_allocate(tm_isl *x, const tm_reqs *r, const int32_t *prio, int iterations, int *out_of) {
    static unsigned char col[TM_MAX], grants[TM_MAX];
    static int32_t pcol[TM_MAX];
    int in_of[TM_MAX], granted_by[TM_MAX], it, i, j, n = r->n, m = r->m;
    for (i = 0; i < n; i++) out_of[i] = -1;
    for (j = 0; j < m; j++) in_of[j] = -1;
    for (it = 0; iterations < 0 || it < iterations; it++) {
        int added = 0;
        for (j = 0; j < m; j++) {
            granted_by[j] = -1;
            if (in_of[j] >= 0) continue;
            for (i = 0; i < n; i++) {
                col[i] = out_of[i] < 0 && r->cell[i][j];
                pcol[i] = prio ? prio[i * m + j] : 0;
            }
            granted_by[j] = tm_rr_pick(x->out_last[j], n, col, prio ? pcol : NULL, 1);
        }
        for (i = 0; i < n; i++) {
            int acc;
            if (out_of[i] >= 0) continue;
            for (j = 0; j < m; j++) grants[j] = granted_by[j] == i;
            acc = tm_rr_pick(x->in_last[i], m, grants, prio ? prio + i * m : NULL, 1);
            if (acc < 0) continue;
            out_of[i] = acc;
            in_of[acc] = i;
            added++;
            if (it == 0) {
                x->in_last[i] = acc;
                x->out_last[acc] = i;
            }
        }
        if (!added) break;
    }
}

/* The wave front with priority levels: level by level from the highest,
 * the literal cell-by-cell wave (waves w = ii + jj over the rows in cyclic
 * order from r and the columns from c) over the cells of that level. */
static void tm_wfa_levels(const tm_reqs *r, const int32_t *prio, int sr, int sc, int *out_of) {
    static unsigned char in_used[TM_MAX], out_used[TM_MAX];
    int i, j, wv, ii, n = r->n, m = r->m;
    int32_t level = 0, above = 0;
    int first = 1;
    memset(in_used, 0, sizeof in_used);
    memset(out_used, 0, sizeof out_used);
    for (i = 0; i < n; i++) out_of[i] = -1;
    for (;;) {
        int found = 0;
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++)
                if (r->cell[i][j] && !in_used[i] && !out_used[j] && (first || prio[i * m + j] < above) &&
                    (!found || prio[i * m + j] > level)) {
                    level = prio[i * m + j];
                    found = 1;
                }
        if (!found) return;
        for (wv = 0; wv <= n + m - 2; wv++)
            for (ii = 0; ii < n; ii++) {
                int jj = wv - ii;
                if (jj < 0 || jj >= m) continue;
                i = (sr + ii) % n;
                j = (sc + jj) % m;
                if (r->cell[i][j] && prio[i * m + j] == level && !in_used[i] && !out_used[j]) {
                    in_used[i] = out_used[j] = 1;
                    out_of[i] = j;
                }
            }
        above = level;
        first = 0;
    }
}

/* Maximum matching size by augmenting paths (depth first). */
static int tm_aug(const tm_reqs *r, int i, unsigned char *seen, int *match_of_out) {
    int j;
    for (j = 0; j < r->m; j++) {
        if (!r->cell[i][j] || seen[j]) continue;
        seen[j] = 1;
        if (match_of_out[j] < 0 || tm_aug(r, match_of_out[j], seen, match_of_out)) {
            match_of_out[j] = i;
            return 1;
        }
    }
    return 0;
}

static int tm_max_matching(const tm_reqs *r) {
    static unsigned char seen[TM_MAX];
    int match_of_out[TM_MAX], i, size = 0;
    for (i = 0; i < r->m; i++) match_of_out[i] = -1;
    for (i = 0; i < r->n; i++) {
        memset(seen, 0, sizeof seen);
        size += tm_aug(r, i, seen, match_of_out);
    }
    return size;
}

/* ------------------------------------------------------------ tests */

static int tm_same(const sa_switch *s, const sa_match *mt, const int *out_of) {
    int i;
    for (i = 0; i < s->num_inputs; i++)
        if (mt->output_of[i] != out_of[i]) return 0;
    return 1;
}

ST_TEST(switch_booksim_wavefront_option_matches_its_literal_model) {
    uint64_t seed = 131;
    long sets = 0, goal = ST_LONG ? 1000000 : 40000;
    int trial;
    for (trial = 0; sets < goal; trial++) {
        sa_switch_desc d;
        tm_switch x;
        tm_bwf w;
        int n = 1 + (int)st_rand_below(&seed, trial % 4 == 0 ? 64 : 20);
        int m = 1 + (int)st_rand_below(&seed, trial % 4 == 0 ? 64 : 20), t;
        memset(&d, 0, sizeof d);
        d.kind = SA_SWITCH_WFA_WRAPPED;
        d.num_inputs = n;
        d.num_outputs = m;
        d.wavefront = SA_WAVEFRONT_ANTIDIAGONAL;
        d.idle = SA_IDLE_HOLD;
        ST_CHECK(tm_init(&x, &d));
        w.pri = 0;
        for (t = 0; t < 50; t++, sets++) {
            sa_match mt;
            int out_of[TM_MAX];
            unsigned dens[] = { 0, 0, 16, 64, 128, 230, 256 };
            tm_fill(&tm_r, n, m, &seed, dens[st_rand_below(&seed, 7)], 1);
            if (st_rand_below(&seed, 8) == 0) memset(tm_r.cell, 0, sizeof tm_r.cell), memset(tm_r.rows, 0, sizeof tm_r.rows);
            sa_switch_allocate(&x.s, tm_r.rows, NULL, NULL, &mt);
            tm_bwf_allocate(&w, &tm_r, out_of);
            ST_CHECK(tm_valid(&tm_r, &mt));
            ST_CHECKF(tm_same(&x.s, &mt, out_of), "%d x %d, set %d", n, m, t);
            ST_EQ(w.pri, x.s.start_col);
        }
        tm_free(&x);
    }
}

ST_TEST(switch_booksim_separable_output_first_matches_its_literal_model) {
    uint64_t seed = 132;
    long sets = 0, goal = ST_LONG ? 1000000 : 40000;
    int trial;
    for (trial = 0; sets < goal; trial++) {
        sa_switch_desc d;
        tm_switch x;
        static tm_isl model;
        int n = 1 + (int)st_rand_below(&seed, trial % 4 == 0 ? 64 : 20);
        int m = 1 + (int)st_rand_below(&seed, trial % 4 == 0 ? 64 : 20), t, use_prio = trial & 1;
        memset(&d, 0, sizeof d);
        d.kind = SA_SWITCH_SEP_OUTPUT;
        d.num_inputs = n;
        d.num_outputs = m;
        d.pointer_rule = SA_POINTER_ON_MATCH;
        ST_CHECK(tm_init(&x, &d));
        tm_isl_init(&model, n, m);
        for (t = 0; t < 50; t++, sets++) {
            sa_match mt;
            int out_of[TM_MAX];
            tm_fill(&tm_r, n, m, &seed, (unsigned)st_rand_below(&seed, 257), 3);
            sa_switch_allocate(&x.s, tm_r.rows, use_prio ? tm_r.prio : NULL, NULL, &mt);
            tm_isl_allocate(&model, &tm_r, use_prio ? tm_r.prio : NULL, 1, out_of);
            ST_CHECK(tm_valid(&tm_r, &mt));
            ST_CHECKF(tm_same(&x.s, &mt, out_of), "%d x %d, set %d, priorities %d", n, m, t, use_prio);
        }
        tm_free(&x);
    }
}

ST_TEST(switch_islip_with_priorities_matches_its_literal_model) {
    uint64_t seed = 133;
    long sets = 0, goal = ST_LONG ? 1000000 : 30000;
    int trial;
    for (trial = 0; sets < goal; trial++) {
        sa_switch_desc d;
        tm_switch x;
        static tm_isl model;
        int n = 1 + (int)st_rand_below(&seed, 24), m = 1 + (int)st_rand_below(&seed, 24), t;
        memset(&d, 0, sizeof d);
        d.kind = SA_SWITCH_ISLIP;
        d.num_inputs = n;
        d.num_outputs = m;
        d.iterations = trial % 3 == 0 ? SA_ITERATE_TO_CONVERGENCE : 1 + trial % 3;
        ST_CHECK(tm_init(&x, &d));
        tm_isl_init(&model, n, m);
        for (t = 0; t < 40; t++, sets++) {
            sa_match mt;
            int out_of[TM_MAX];
            tm_fill(&tm_r, n, m, &seed, (unsigned)st_rand_below(&seed, 257), 1 + trial % 4);
            sa_switch_allocate(&x.s, tm_r.rows, tm_r.prio, NULL, &mt);
            tm_isl_allocate(&model, &tm_r, tm_r.prio, d.iterations, out_of);
            ST_CHECK(tm_valid(&tm_r, &mt));
            ST_CHECKF(tm_same(&x.s, &mt, out_of), "%d x %d, %d iterations, set %d", n, m, d.iterations, t);
        }
        tm_free(&x);
    }
}

ST_TEST(switch_wave_front_with_priorities_matches_its_literal_model) {
    uint64_t seed = 134;
    long sets = 0, goal = ST_LONG ? 1000000 : 30000;
    int trial;
    for (trial = 0; sets < goal; trial++) {
        sa_switch_desc d;
        tm_switch x;
        int n = 1 + (int)st_rand_below(&seed, 24), m = 1 + (int)st_rand_below(&seed, 24), t;
        memset(&d, 0, sizeof d);
        d.kind = SA_SWITCH_WFA;
        d.num_inputs = n;
        d.num_outputs = m;
        ST_CHECK(tm_init(&x, &d));
        for (t = 0; t < 40; t++, sets++) {
            sa_match mt;
            int out_of[TM_MAX], sr = x.s.start_row, sc = x.s.start_col;
            tm_fill(&tm_r, n, m, &seed, (unsigned)st_rand_below(&seed, 257), 1 + trial % 4);
            sa_switch_allocate(&x.s, tm_r.rows, tm_r.prio, NULL, &mt);
            tm_wfa_levels(&tm_r, tm_r.prio, sr, sc, out_of);
            ST_CHECK(tm_valid(&tm_r, &mt));
            ST_CHECKF(tm_same(&x.s, &mt, out_of), "%d x %d, set %d", n, m, t);
        }
        tm_free(&x);
    }
}

/* PIM with priorities: every grant and every accept holds the highest
 * priority among its candidates, and with one priority level the
 * decisions are those without priorities. */
ST_TEST(switch_pim_grants_and_accepts_the_highest_priority) {
    uint64_t seed = 135;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 4000 : 300); trial++) {
        sa_switch_desc d;
        tm_switch x, y;
        int n = 1 + (int)st_rand_below(&seed, 40), m = 1 + (int)st_rand_below(&seed, 40), t, i;
        memset(&d, 0, sizeof d);
        d.kind = SA_SWITCH_PIM;
        d.num_inputs = n;
        d.num_outputs = m;
        d.seed = st_rand(&seed);
        ST_CHECK(tm_init(&x, &d));
        ST_CHECK(tm_init(&y, &d));
        for (t = 0; t < 30; t++) {
            sa_match mt;
            tm_fill(&tm_r, n, m, &seed, (unsigned)st_rand_below(&seed, 257), 4);
            sa_switch_allocate(&x.s, tm_r.rows, tm_r.prio, NULL, &mt);
            ST_CHECK(tm_valid(&tm_r, &mt));
            /* PIM1: output j granted a requester of the highest priority
             * in its column (every requester was unmatched) */
            for (i = 0; i < n; i++) {
                int j = mt.output_of[i], k;
                if (j < 0) continue;
                for (k = 0; k < n; k++)
                    ST_CHECK(!tm_r.cell[k][j] || tm_r.prio[k * m + j] <= tm_r.prio[i * m + j]);
            }
        }
        /* equal priorities decide as none (two allocators in the same state) */
        tm_free(&x);
        tm_free(&y);
        ST_CHECK(tm_init(&x, &d));
        ST_CHECK(tm_init(&y, &d));
        for (t = 0; t < 30; t++) {
            sa_match mt, mu;
            static int32_t flat[TM_MAX * TM_MAX];
            tm_fill(&tm_r, n, m, &seed, (unsigned)st_rand_below(&seed, 257), 1);
            for (i = 0; i < n * m; i++) flat[i] = -5;
            sa_switch_allocate(&x.s, tm_r.rows, flat, NULL, &mt);
            sa_switch_allocate(&y.s, tm_r.rows, NULL, NULL, &mu);
            for (i = 0; i < n; i++) ST_EQ(mu.output_of[i], mt.output_of[i]);
        }
        tm_free(&x);
        tm_free(&y);
    }
}

ST_TEST(switch_every_allocator_at_65_128_and_512) {
    static const int sizes[] = { 65, 128, 512 };
    uint64_t seed = 136;
    int k, z;
    for (z = 0; z < 3; z++)
        for (k = 0; k < SA_SWITCH_KIND_COUNT; k++) {
            sa_switch_desc d;
            tm_switch x;
            static tm_isl model;
            int n = sizes[z], m = sizes[z] - (k & 1), t, steps = z == 2 ? (ST_LONG ? 12 : 3) : (ST_LONG ? 60 : 10);
            memset(&d, 0, sizeof d);
            d.kind = (sa_switch_kind)k;
            d.num_inputs = n;
            d.num_outputs = m;
            d.iterations = k == SA_SWITCH_PIM || k == SA_SWITCH_ISLIP ? SA_ITERATE_TO_CONVERGENCE : 1;
            d.seed = 5;
            ST_CHECKF(tm_init(&x, &d), "%s %d x %d", sa_switch_kind_name(d.kind), n, m);
            tm_isl_init(&model, n, m);
            for (t = 0; t < steps; t++) {
                sa_match mt;
                int out_of[TM_MAX], sr = x.s.start_row, sc = x.s.start_col, i, size = 0;
                tm_fill(&tm_r, n, m, &seed, t % 3 == 0 ? 3 : t % 3 == 1 ? 40 : 200, 3);
                sa_switch_allocate(&x.s, tm_r.rows, t & 1 ? tm_r.prio : NULL, NULL, &mt);
                ST_CHECKF(tm_valid(&tm_r, &mt), "%s %d x %d", sa_switch_kind_name(d.kind), n, m);
                if (k == SA_SWITCH_MCM) ST_EQ(tm_max_matching(&tm_r), mt.size);
                if (k == SA_SWITCH_ISLIP) {
                    tm_isl_allocate(&model, &tm_r, t & 1 ? tm_r.prio : NULL, d.iterations, out_of);
                    ST_CHECK(tm_same(&x.s, &mt, out_of));
                }
                if (k == SA_SWITCH_WFA && (t & 1)) {
                    tm_wfa_levels(&tm_r, tm_r.prio, sr, sc, out_of);
                    ST_CHECK(tm_same(&x.s, &mt, out_of));
                }
                if (k == SA_SWITCH_PIM || k == SA_SWITCH_ISLIP) {
                    /* converged: maximal (no free input requests a free output) */
                    for (i = 0; i < n; i++) {
                        int j;
                        if (mt.output_of[i] >= 0) continue;
                        for (j = 0; j < m; j++) ST_CHECK(!tm_r.cell[i][j] || mt.input_of[j] >= 0);
                    }
                }
                size += mt.size;
                (void)size;
            }
            ST_EQ(SA_OK, sa_switch_check(&x.s));
            tm_free(&x);
        }
}
