/* test_alloc_spaa.c - SPAA's bit-sliced banks of least-recently-selected
 * arbiters (seastar_arb.h, sa_alloc.spaa_in / spaa_out) against a
 * brute-force model (ranks in an int array), the SSE2 bank operations
 * against the portable ones, and whole SPAA allocations (sa_allocate, the
 * SSE2 path for up to 16 x 8, and the pipelined sa_spaa_nominate /
 * sa_spaa_grant) against a literal SPAA written here from the paper's
 * steps. */
#include "st_test.h"
#include "../seastar_arb.h"

/* ------------------------------------------------------------ the model */

/* Brute-force bank: rank[r][c] of requester c in arbiter r (0 = least
 * recently selected). */
typedef struct ts_bank {
    int rows, size;
    int rank[64][64];
} ts_bank;

static void ts_bank_init(ts_bank *b, int rows, int size) {
    int r, c;
    b->rows = rows;
    b->size = size;
    for (r = 0; r < rows; r++)
        for (c = 0; c < size; c++) b->rank[r][c] = c;
}

/* Least-recently-selected member of cand in arbiter r, or -1. */
static int ts_bank_select(const ts_bank *b, int r, uint64_t cand) {
    int c, best = -1;
    for (c = 0; c < b->size; c++)
        if (((cand >> c) & 1u) && (best < 0 || b->rank[r][c] < b->rank[r][best])) best = c;
    return best;
}

/* Arbiter r selected w: w goes last, everything behind it moves up. */
static void ts_bank_update(ts_bank *b, int r, int w) {
    int c, k = b->rank[r][w];
    for (c = 0; c < b->size; c++)
        if (b->rank[r][c] > k) b->rank[r][c]--;
    b->rank[r][w] = b->size - 1;
}

/* Rank of requester c in arbiter r as the planes hold it. */
static int ts_plane_rank(const uint64_t *plane, int lw, int r, int c) {
    int b, v = 0, bit = (r << lw) + c;
    for (b = 0; b < lw; b++)
        v |= (int)((plane[b * SA__SPAA_WORDS + (bit >> 6)] >> (bit & 63)) & 1u) << b;
    return v;
}

/* The planes hold exactly the model's ranks, and nothing outside the
 * lanes' requesters and rank bits. */
static int ts_bank_equal(const ts_bank *b, const uint64_t *plane, int lw, int words) {
    int r, c, w, p;
    uint64_t used[SA__SPAA_WORDS];
    for (w = 0; w < SA__SPAA_WORDS; w++) used[w] = 0;
    for (r = 0; r < b->rows; r++)
        for (c = 0; c < b->size; c++) {
            int bit = (r << lw) + c;
            used[bit >> 6] |= (uint64_t)1 << (bit & 63);
            if (ts_plane_rank(plane, lw, r, c) != b->rank[r][c]) return 0;
        }
    for (p = 0; p < SA__SPAA_PLANES; p++)
        for (w = 0; w < SA__SPAA_WORDS; w++)
            if (plane[p * SA__SPAA_WORDS + w] & ~(w < words && p < lw ? used[w] : 0)) return 0;
    return 1;
}

static uint64_t ts_random_subset(uint64_t *seed, int size) {
    uint64_t x = st_rand(seed);
    switch (st_rand_below(seed, 4)) {
    case 0: x &= st_rand(seed) & st_rand(seed); break;
    case 1: x &= st_rand(seed); break;
    case 2: x = (uint64_t)1 << st_rand_below(seed, 64); break;
    default: break;
    }
    return x & sa__low_mask(size);
}

/* ------------------------------------------------------------ the banks */

/* Random banks of 1..64 arbiters over 1..64 requesters, random candidate
 * sets and grant sequences: every select and update of the portable and
 * the SSE2 bank operations against the model, and the two against each
 * other (same planes, same winners, same rank bits). */
ST_TEST(spaa_fast_banks_match_brute_force_lrs) {
    uint64_t seed = 31;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 3000 : 300); trial++) {
        static uint64_t pp[SA__SPAA_PLANES * SA__SPAA_WORDS];
        static uint64_t kp[SA__SPAA_PLANES * SA__SPAA_WORDS];
        ts_bank model;
        int rows = 1 + (int)st_rand_below(&seed, SA_ALLOC_MAX);
        int size = 1 + (int)st_rand_below(&seed, SA_ALLOC_MAX);
        int lw = sa__lrs_bank_lw(size), words = sa__lrs_bank_words(rows, lw), t, r;
#ifdef SA_SIMD_SSE2
        static uint64_t ps[SA__SPAA_PLANES * SA__SPAA_WORDS];
        static uint64_t ks[SA__SPAA_PLANES * SA__SPAA_WORDS];
#endif
        if (trial % 5 == 0) size = 1 + (int)st_rand_below(&seed, 8);
        lw = sa__lrs_bank_lw(size);
        words = sa__lrs_bank_words(rows, lw);
        ST_CHECK(words <= SA__SPAA_WORDS && lw <= SA__SPAA_PLANES);
        ts_bank_init(&model, rows, size);
        sa__lrs_bank_init(pp, rows, size);
        ST_CHECK(ts_bank_equal(&model, pp, lw, words));
#ifdef SA_SIMD_SSE2
        memcpy(ps, pp, sizeof ps);
#endif
        for (t = 0; t < 60; t++) {
            uint64_t c[SA__SPAA_WORDS], g[SA__SPAA_WORDS];
            int win[64], use_k = (int)st_rand_below(&seed, 2), w;
#ifdef SA_SIMD_SSE2
            uint64_t cs[SA__SPAA_WORDS];
#endif
            sa__zero_words(c, SA__SPAA_WORDS);
            for (r = 0; r < rows; r++) {
                uint64_t cand = st_rand_below(&seed, 5) == 0 ? 0 : ts_random_subset(&seed, size);
                sa__lane_or(c, r, lw, cand);
                win[r] = ts_bank_select(&model, r, cand);
            }
#ifdef SA_SIMD_SSE2
            memcpy(cs, c, sizeof c);
            sa__lrs_bank_select_sse2(ps, cs, ks, words, lw);
#endif
            sa__lrs_bank_select_portable(pp, c, kp, words, lw);
            for (r = 0; r < rows; r++) {
                uint64_t x = sa__lane_get(c, r, lw);
                int b;
                ST_EQ_U64(win[r] < 0 ? 0 : (uint64_t)1 << win[r], x);
                for (b = 0; b < lw && win[r] >= 0; b++) {
                    uint64_t lane = lw == 6 ? ~(uint64_t)0 : ((uint64_t)1 << (1 << lw)) - 1;
                    ST_EQ_U64((model.rank[r][win[r]] >> b) & 1 ? lane : 0,
                              sa__lane_get(kp + b * SA__SPAA_WORDS, r, lw));
                }
            }
#ifdef SA_SIMD_SSE2
            for (w = 0; w < words; w++) ST_EQ_U64(c[w], cs[w]);
            for (w = 0; w < lw * SA__SPAA_WORDS; w++) ST_EQ_U64(kp[w], ks[w]);
#endif
            /* Grant some winners (rank bits from the select), or, without
             * them, any requester of some rows. */
            sa__zero_words(g, SA__SPAA_WORDS);
            for (r = 0; r < rows; r++) {
                int pick = use_k ? win[r] : (int)st_rand_below(&seed, (uint32_t)size);
                if (pick < 0 || st_rand_below(&seed, 4) == 0) continue;
                sa__lane_or(g, r, lw, (uint64_t)1 << pick);
                ts_bank_update(&model, r, pick);
            }
            sa__lrs_bank_update_portable(pp, g, use_k ? kp : NULL, words, lw, size);
            ST_CHECK(ts_bank_equal(&model, pp, lw, words));
#ifdef SA_SIMD_SSE2
            sa__lrs_bank_update_sse2(ps, g, use_k ? ks : NULL, words, lw, size);
            for (w = 0; w < SA__SPAA_PLANES * SA__SPAA_WORDS; w++) ST_EQ_U64(pp[w], ps[w]);
#endif
        }
    }
}

/* The SWAR lane tests and the Rotary-Rule preference, every lane width,
 * against a lane-by-lane loop (and SSE2 against portable). */
ST_TEST(spaa_fast_lane_helpers_match_brute_force) {
    uint64_t seed = 32;
    int t, lw;
    for (t = 0; t < 4000; t++)
        for (lw = 3; lw <= 6; lw++) {
            uint64_t x[2], pref = 0, want[2], got[2];
            int W = 1 << lw, l, w;
            uint64_t lane = lw == 6 ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
            for (w = 0; w < 2; w++) {
                x[w] = st_rand(&seed);
                for (l = 0; l < 64 / W; l++)
                    if (st_rand_below(&seed, 3) == 0) x[w] &= ~(lane << (l * W));
                    else if (st_rand_below(&seed, 3) == 0) x[w] &= ~(lane << (l * W)) | ((uint64_t)1 << (l * W + (int)st_rand_below(&seed, (uint32_t)W)));
            }
            pref = st_rand(&seed) & lane;
            for (w = 0; w < 2; w++) {
                uint64_t nz = 0;
                want[w] = 0;
                for (l = 0; l < 64 / W; l++) {
                    uint64_t v = (x[w] >> (l * W)) & lane, p = v & pref;
                    if (v) nz |= lane << (l * W);
                    want[w] |= (p ? p : v) << (l * W);
                }
                ST_EQ_U64(nz, sa__lanes_nonzero(x[w], lw));
                got[w] = x[w];
            }
            sa__lanes_prefer_portable(got, 2, lw, pref * sa__lane_low(lw));
            ST_EQ_U64(want[0], got[0]);
            ST_EQ_U64(want[1], got[1]);
#ifdef SA_SIMD_SSE2
            got[0] = x[0];
            got[1] = x[1];
            sa__lanes_prefer_sse2(got, 2, lw, pref * sa__lane_low(lw));
            ST_EQ_U64(want[0], got[0]);
            ST_EQ_U64(want[1], got[1]);
#endif
        }
}

/* ------------------------------------------------------------ whole SPAA */

/* A literal SPAA (seed 002 Section 3.3): per input arbiter and per output
 * arbiter, ranks in int arrays. */
typedef struct ts_spaa {
    int n, m, rotary, pairs;
    uint64_t net, connect[64];
    ts_bank in, out;
} ts_spaa;

static void ts_spaa_init(ts_spaa *s, const sa_alloc_desc *d) {
    int i;
    s->n = d->num_inputs;
    s->m = d->num_outputs;
    s->rotary = d->rotary;
    s->pairs = d->read_port_pairs;
    s->net = d->network_inputs;
    for (i = 0; i < s->n; i++) s->connect[i] = sa__low_mask(s->m) & ~d->no_connect[i];
    ts_bank_init(&s->in, s->n, s->m);
    ts_bank_init(&s->out, s->m, s->n);
}

/* Step 1: the highest priority among the connected requests, least
 * recently selected among those; the odd read port after its twin,
 * without the outputs that clash with the twin's nomination. */
static void ts_spaa_nominate(const ts_spaa *s, const uint64_t *req, const uint8_t *prio,
                             const sa_read_buffer *bufs, int8_t *nom) {
    int i, j;
    for (i = 0; i < s->n; i++) {
        uint64_t r = req[i] & s->connect[i];
        if (s->pairs && bufs != NULL && (i & 1) && nom[i - 1] >= 0)
            r &= ~sa_read_buffer_clash(&bufs[i >> 1], nom[i - 1]);
        if (prio != NULL && r != 0) {
            int top = -1;
            for (j = 0; j < s->m; j++)
                if (((r >> j) & 1u) && prio[i * s->m + j] > top) top = prio[i * s->m + j];
            for (j = 0; j < s->m; j++)
                if (((r >> j) & 1u) && prio[i * s->m + j] != top) r &= ~((uint64_t)1 << j);
        }
        nom[i] = (int8_t)ts_bank_select(&s->in, i, r);
    }
}

/* Steps 2-3: each output grants its least recently selected nominator
 * (network ones first with the Rotary Rule); both arbiters move. */
static void ts_spaa_grant(ts_spaa *s, const int8_t *nom, int8_t *input_of) {
    int i, j;
    for (j = 0; j < s->m; j++) {
        uint64_t c = 0;
        int w;
        for (i = 0; i < s->n; i++) if (nom[i] == j) c |= (uint64_t)1 << i;
        if (s->rotary && (c & s->net)) c &= s->net;
        w = ts_bank_select(&s->out, j, c);
        input_of[j] = (int8_t)w;
        if (w >= 0) {
            ts_bank_update(&s->out, j, w);
            ts_bank_update(&s->in, w, j);
        }
    }
}

/* The whole matching struct agrees with input_of. */
static int ts_match_is(const sa_match *mt, const int8_t *input_of, int n, int m) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    int8_t output_of[SA_ALLOC_MAX];
    for (i = 0; i < SA_ALLOC_MAX; i++) output_of[i] = -1;
    for (j = 0; j < m; j++)
        if (input_of[j] >= 0) {
            output_of[input_of[j]] = (int8_t)j;
            ins |= (uint64_t)1 << input_of[j];
            outs |= (uint64_t)1 << j;
            size++;
        }
    (void)n;
    for (i = 0; i < SA_ALLOC_MAX; i++) {
        if (mt->output_of[i] != output_of[i]) return 0;
        if (mt->input_of[i] != (i < m ? input_of[i] : -1)) return 0;
    }
    return mt->size == size && mt->inputs == ins && mt->outputs == outs;
}

static void ts_random_desc(uint64_t *seed, sa_alloc_desc *d, int trial) {
    int i;
    memset(d, 0, sizeof *d);
    d->kind = SA_ALLOC_SPAA;
    if (trial % 4 == 0) {
        d->num_inputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 16 ? SA_ALLOC_MAX : 16);
        d->num_outputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 8 ? SA_ALLOC_MAX : 8);
    } else {
        d->num_inputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX);
        d->num_outputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX);
    }
    d->rotary = (int)st_rand_below(seed, 2);
    d->network_inputs = st_rand(seed) & sa__low_mask(d->num_inputs);
    if (st_rand_below(seed, 2))
        for (i = 0; i < d->num_inputs; i++)
            d->no_connect[i] = st_rand(seed) & st_rand(seed) & sa__low_mask(d->num_outputs);
}

/* sa_allocate (whichever path it takes: the SSE2 one up to 16 x 8, the
 * general banks otherwise, priorities or not) against the literal SPAA,
 * matching and state, over random sizes 1..SA_ALLOC_MAX. */
ST_TEST(spaa_fast_allocate_matches_literal_spaa) {
    uint64_t seed = 33;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 2000 : 200); trial++) {
        static uint8_t prio[64 * 64];
        sa_alloc al;
        sa_alloc_desc d;
        ts_spaa ref;
        int t, i;
        ts_random_desc(&seed, &d, trial);
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        ts_spaa_init(&ref, &d);
        for (t = 0; t < 40; t++) {
            uint64_t req[64];
            int8_t nom[64], input_of[64];
            sa_match mt;
            int use_prio = (int)st_rand_below(&seed, 3) == 0;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 4);
            sa_allocate(&al, req, use_prio ? prio : NULL, NULL, &mt);
            ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, NULL, nom);
            ts_spaa_grant(&ref, nom, input_of);
            ST_CHECKF(ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs),
                      "%dx%d trial %d step %d", d.num_inputs, d.num_outputs, trial, t);
        }
        ST_CHECK(ts_bank_equal(&ref.in, al.spaa_in, al.spaa_in_lw, al.spaa_in_words));
        ST_CHECK(ts_bank_equal(&ref.out, al.spaa_out, al.spaa_out_lw, al.spaa_out_words));
    }
}

/* The pipelined use (examples/common/alpha_net.h): nominate now, other
 * allocations in between, then grant a subset of those nominations; and
 * the 21364 with read-port pairs and priorities. */
ST_TEST(spaa_fast_pipelined_and_paired_match_literal_spaa) {
    uint64_t seed = 34;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 1000 : 100); trial++) {
        static uint8_t prio[64 * 64];
        sa_alloc al;
        sa_alloc_desc d;
        ts_spaa ref;
        int t, i, paired = trial & 1;
        if (paired && SA_ALLOC_MAX >= 16) sa_alloc_desc_21364(&d, SA_ALLOC_SPAA, (trial >> 1) & 1);
        else ts_random_desc(&seed, &d, trial);
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        ts_spaa_init(&ref, &d);
        for (t = 0; t < 40; t++) {
            uint64_t req[64], pk[4];
            int8_t nom[64], rnom[64], input_of[64];
            sa_read_buffer views[32];
            sa_match mt;
            int b, p, use_prio = (int)st_rand_below(&seed, 2);
            int pairs = d.read_port_pairs && SA_ALLOC_MAX >= 16;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            if (pairs)
                for (b = 0; b < d.num_inputs / 2; b++) {
                    for (p = 0; p < 4; p++)
                        pk[p] = ((uint64_t)1 << st_rand_below(&seed, 7)) | ((uint64_t)1 << st_rand_below(&seed, 7));
                    sa_read_buffer_build(&views[b], pk, (int)st_rand_below(&seed, 5));
                    req[2 * b] &= views[b].any;
                    req[2 * b + 1] &= views[b].any;
                }
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 8);
            if (t % 3 == 2) {
                /* A whole allocation in between. */
                sa_allocate(&al, req, use_prio ? prio : NULL, pairs ? views : NULL, &mt);
                ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, pairs ? views : NULL, rnom);
                ts_spaa_grant(&ref, rnom, input_of);
                ST_CHECK(ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs));
                continue;
            }
            {
                int count = sa_spaa_nominate(&al, req, use_prio ? prio : NULL, pairs ? views : NULL, nom), want = 0;
                ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, pairs ? views : NULL, rnom);
                for (i = 0; i < d.num_inputs; i++) {
                    ST_EQ(rnom[i], nom[i]);
                    want += rnom[i] >= 0;
                }
                ST_EQ(want, count);
            }
            /* Something else allocates before this grant (another request
             * set), then part of the nominations is granted. */
            if (t % 3 == 1) {
                uint64_t req2[64];
                int8_t nom2[64];
                for (i = 0; i < d.num_inputs; i++) req2[i] = ts_random_subset(&seed, d.num_outputs);
                sa_allocate(&al, req2, NULL, NULL, &mt);
                ts_spaa_nominate(&ref, req2, NULL, NULL, nom2);
                ts_spaa_grant(&ref, nom2, input_of);
                ST_CHECK(ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs));
            }
            for (i = 0; i < d.num_inputs; i++) if (st_rand_below(&seed, 4) == 0) nom[i] = -1;
            sa_spaa_grant(&al, nom, &mt);
            ts_spaa_grant(&ref, nom, input_of);
            ST_CHECK(ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs));
        }
        ST_CHECK(ts_bank_equal(&ref.in, al.spaa_in, al.spaa_in_lw, al.spaa_in_words));
        ST_CHECK(ts_bank_equal(&ref.out, al.spaa_out, al.spaa_out_lw, al.spaa_out_words));
    }
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* The SSE2 path for up to 16 x 8 against the general bank path (lanes
 * through sa__spaa_nominate_lanes, sa__spaa_columns, sa__spaa_grant_lanes):
 * the same matching struct, byte for byte, and the same state. */
ST_TEST(spaa_fast_small_path_equals_general_path) {
    uint64_t seed = 35;
    int trial;
    for (trial = 0; trial < 300; trial++) {
        sa_alloc a, b;
        sa_alloc_desc d;
        int t, i;
        memset(&d, 0, sizeof d);
        d.kind = SA_ALLOC_SPAA;
        d.num_inputs = 1 + (int)st_rand_below(&seed, 16);
        d.num_outputs = 1 + (int)st_rand_below(&seed, 8);
        d.rotary = (int)st_rand_below(&seed, 2);
        d.network_inputs = st_rand(&seed) & sa__low_mask(d.num_inputs);
        for (i = 0; i < d.num_inputs; i++)
            d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(d.num_outputs);
        ST_EQ(SA_OK, sa_alloc_init(&a, &d));
        b = a;
        for (t = 0; t < 50; t++) {
            uint64_t req[16], nom[SA__SPAA_WORDS], col[SA__SPAA_WORDS];
            uint64_t kin[SA__SPAA_PLANES * SA__SPAA_WORDS];
            sa_match ma, mb;
            int ra, rb;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            memset(&ma, 0x5A, sizeof ma);
            memset(&mb, 0x5A, sizeof mb);
            ra = sa__spaa_small_sse2(&a, req, &ma, a.spaa_out_lw);
            sa__spaa_nominate_lanes(&b, req, NULL, NULL, nom, kin);
            sa__spaa_columns(&b, nom, col);
            rb = sa__spaa_grant_lanes(&b, col, kin, &mb);
            ST_EQ(rb, ra);
            ST_EQ(mb.size, ma.size);
            ST_EQ_U64(mb.inputs, ma.inputs);
            ST_EQ_U64(mb.outputs, ma.outputs);
            ST_CHECK(memcmp(ma.output_of, mb.output_of, sizeof ma.output_of) == 0);
            ST_CHECK(memcmp(ma.input_of, mb.input_of, sizeof ma.input_of) == 0);
            ST_CHECK(memcmp(a.spaa_in, b.spaa_in, sizeof a.spaa_in) == 0);
            ST_CHECK(memcmp(a.spaa_out, b.spaa_out, sizeof a.spaa_out) == 0);
        }
    }
}
#endif
