/* test_alloc.c - switch allocators of seastar_arb.h section 2 (seed 002).
 *
 * Oracles used here are independent of the code under test: a literal
 * cell-by-cell wavefront, a brute-force maximum matching, a literal list
 * model of least-recently-selected arbiters, packet-level feasibility of
 * read-port pairs, closed-form probabilities, and SplitMix64's published
 * outputs. */
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

/* ------------------------------------------------------------ helpers */

/* A random request set: rows n, columns m, each cell with probability
 * dens/256. */
static void ta_random_requests(uint64_t *seed, int n, int m, unsigned dens, uint64_t *req) {
    int i, j;
    for (i = 0; i < n; i++) {
        req[i] = 0;
        for (j = 0; j < m; j++)
            if (st_rand_below(seed, 256) < dens) req[i] |= (uint64_t)1 << j;
    }
}

/* Packets of one buffer for pairing tests: up to 4 packets, each with one
 * or two outputs below m. */
typedef struct ta_buffer {
    int count;
    uint64_t out[4];
} ta_buffer;

static void ta_random_buffer(uint64_t *seed, int m, ta_buffer *b) {
    int p;
    b->count = (int)st_rand_below(seed, 5);
    for (p = 0; p < b->count; p++) {
        b->out[p] = (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
        if (m > 1 && st_rand_below(seed, 2)) b->out[p] |= (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
    }
}

/* Can read ports 0/1 of a buffer take outputs j0/j1 (-1: none) with two
 * distinct packets?  Brute force over packet pairs. */
static int ta_pair_feasible(const ta_buffer *b, int j0, int j1) {
    int p, q;
    if (j0 < 0 && j1 < 0) return 1;
    for (p = 0; p < b->count; p++) {
        if (j0 >= 0 && !((b->out[p] >> j0) & 1u)) continue;
        if (j1 < 0) return 1;
        if (j0 < 0) { if ((b->out[p] >> j1) & 1u) return 1; continue; }
        for (q = 0; q < b->count; q++)
            if (q != p && ((b->out[q] >> j1) & 1u)) return 1;
    }
    return 0;
}

/* Check that mt is a valid matching of the connected requests (over the
 * allocator's sizes, the entries sa_switch_allocate specifies); with bufs
 * (packet lists), also that twins use distinct packets.  Returns 0 or a
 * message. */
static const char *ta_check_matching(const sa_match *mt, int n, int m, const uint64_t *req,
                                     const uint64_t *no_connect, const ta_buffer *bufs) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    for (i = 0; i < n; i++) {
        int o = mt->output_of[i];
        if (o == -1) continue;
        if (o < 0 || o >= m) return "an output beyond num_outputs is matched";
        if (!((req[i] >> o) & 1u)) return "a matched cell was not requested";
        if (no_connect && ((no_connect[i] >> o) & 1u)) return "a matched cell is not connected";
        if (mt->input_of[o] != i) return "input_of and output_of disagree";
        if ((outs >> o) & 1u) return "an output is matched twice";
        outs |= (uint64_t)1 << o;
        ins |= (uint64_t)1 << i;
        size++;
    }
    for (j = 0; j < m; j++) {
        int x = mt->input_of[j];
        if (x != -1 && (x < 0 || x >= n || mt->output_of[x] != j)) return "input_of has a stray entry";
    }
    if (size != mt->size) return "size is wrong";
    if (ins != (mt->inputs[0] & ta_low_mask(n)) || outs != (mt->outputs[0] & ta_low_mask(m)))
        return "inputs/outputs masks are wrong";
    if (bufs)
        for (i = 0; i < n; i += 2)
            if (!ta_pair_feasible(&bufs[i / 2], mt->output_of[i], mt->output_of[i + 1]))
                return "two read ports need the same packet";
    return 0;
}

/* Maximal: no free input and free output with a usable cell left. */
static const char *ta_check_maximal(const sa_match *mt, int n, int m, const uint64_t *eff,
                                    const ta_buffer *bufs) {
    int i, j;
    for (i = 0; i < n; i++) {
        if (mt->output_of[i] >= 0) continue;
        for (j = 0; j < m; j++) {
            if (mt->input_of[j] >= 0 || !((eff[i] >> j) & 1u)) continue;
            if (bufs) {
                int j0 = (i & 1) ? mt->output_of[i - 1] : j, j1 = (i & 1) ? j : mt->output_of[i + 1];
                if (!ta_pair_feasible(&bufs[i / 2], j0, j1)) continue;
            }
            return "not maximal: a free input and a free output could still be matched";
        }
    }
    return 0;
}

/* Brute-force maximum matching size (rows r.., used outputs), with optional
 * packet-level read-port pairs. */
static int ta_brute_max(const uint64_t *eff, int n, int m, int row, uint64_t used,
                        const ta_buffer *bufs, int *outs) {
    int best, j;
    if (row == n) return 0;
    outs[row] = -1;
    best = ta_brute_max(eff, n, m, row + 1, used, bufs, outs);
    for (j = 0; j < m; j++) {
        int v;
        if (!((eff[row] >> j) & 1u) || ((used >> j) & 1u)) continue;
        if (bufs && (row & 1) && !ta_pair_feasible(&bufs[row / 2], outs[row - 1], j)) continue;
        if (bufs && !(row & 1) && !ta_pair_feasible(&bufs[row / 2], j, -1)) continue;
        outs[row] = j;
        v = 1 + ta_brute_max(eff, n, m, row + 1, used | ((uint64_t)1 << j), bufs, outs);
        if (v > best) best = v;
        outs[row] = -1;
    }
    return best;
}

static void ta_build_views(const ta_buffer *tb, int nb, sa_read_buffer *views, uint64_t *req) {
    int b;
    for (b = 0; b < nb; b++) {
        sa_read_buffer_build(&views[b], tb[b].out, tb[b].count);
        req[2 * b] = req[2 * b + 1] = views[b].any;
    }
}

static const sa_switch_kind ta_kinds[] = {
    SA_SWITCH_SPAA, SA_SWITCH_WFA, SA_SWITCH_WFA_WRAPPED, SA_SWITCH_PIM, SA_SWITCH_ISLIP,
    SA_SWITCH_OPF, SA_SWITCH_SEP_INPUT, SA_SWITCH_SEP_OUTPUT, SA_SWITCH_MCM };
#define TA_NKINDS ((int)(sizeof ta_kinds / sizeof ta_kinds[0]))

static void ta_desc(sa_switch_desc *d, sa_switch_kind kind, int n, int m) {
    ta_desc_of(d, kind, n, m);
    d->seed = 12345;
}

/* ------------------------------------------------------------ RNG */

ST_TEST(alloc_rng_is_splitmix64) {
    /* Published SplitMix64 outputs for seed 1234567 (Vigna's reference). */
    static const uint64_t ref[5] = { 6457827717110365317ull, 3203168211198807973ull,
        9817491932198370423ull, 4593380528125082431ull, 16408922859458223821ull };
    sa_rng r;
    uint64_t s = 0xDEADBEEFull;
    int i;
    sa_rng_seed(&r, 1234567);
    for (i = 0; i < 5; i++) ST_EQ_U64(ref[i], sa_rng_next(&r));
    sa_rng_seed(&r, 0xDEADBEEFull);
    for (i = 0; i < 1000; i++) ST_EQ_U64(st_rand(&s), sa_rng_next(&r));
}

/* Chi-square statistic of counts against equal expectations. */
static double ta_chi2(const long *count, int k, long total) {
    double e = (double)total / k, x = 0;
    int i;
    for (i = 0; i < k; i++) x += ((double)count[i] - e) * ((double)count[i] - e) / e;
    return x;
}

ST_TEST(alloc_rng_below_and_pick_are_uniform) {
    /* Sparse, unevenly spaced masks: a random start followed by the next set
     * bit would give bit 63 of {0, 1, 2, 63} probability 61/64. */
    static const uint64_t masks[4] = { 0x8000000000000007ull, 0x3ull | (1ull << 40),
                                       0xF0F0F0F0F0F0F0F0ull, ~0ull };
    sa_rng r;
    long count[64];
    int t, i, k;
    long draws = ST_LONG ? 4000000 : 400000;
    sa_rng_seed(&r, 99);
    for (t = 0; t < 4; t++) {
        int c = 0, pos[64];
        uint64_t x;
        for (x = masks[t]; x; x &= x - 1) pos[c++] = ta_lowest_bit(x);
        for (i = 0; i < 64; i++) count[i] = 0;
        for (i = 0; i < draws; i++) {
            int b = sa_rng_pick(&r, masks[t]);
            ST_CHECK(b >= 0 && ((masks[t] >> b) & 1u));
            count[b]++;
        }
        for (k = 0; k < c; k++) count[k] = count[pos[k]];
        /* chi-square with c-1 degrees of freedom: mean c-1, sd sqrt(2(c-1));
         * allow mean + 8 sd (the biased picker exceeds this by orders of
         * magnitude: about 3e5 on the first mask). */
        ST_CHECKF(ta_chi2(count, c, draws) < (c - 1) + 8 * sqrt(2.0 * (c - 1)),
                  "mask %d chi2 %.1f", t, ta_chi2(count, c, draws));
    }
    for (k = 1; k <= 7; k++) {
        for (i = 0; i < k; i++) count[i] = 0;
        for (i = 0; i < draws; i++) {
            uint32_t v = sa_rng_below(&r, (uint32_t)k);
            ST_CHECK(v < (uint32_t)k);
            count[v]++;
        }
        if (k > 1) ST_CHECK(ta_chi2(count, k, draws) < (k - 1) + 8 * sqrt(2.0 * (k - 1)));
    }
    ST_EQ(-1, sa_rng_pick(&r, 0));
}

/* ------------------------------------------------------------ arbiters */

ST_TEST(alloc_rr_arbiter_serves_persistent_requester_within_size) {
    uint64_t seed = 7;
    int size;
    for (size = 1; size <= 64; size++) {
        sa_rr_arb arb;
        int me = (int)st_rand_below(&seed, (uint32_t)size), wait = 0, worst = 0, t;
        ST_EQ(SA_OK, sa_rr_arb_init(&arb, size));
        for (t = 0; t < 2000; t++) {
            uint64_t req = (st_rand(&seed) & ta_low_mask(size)) | ((uint64_t)1 << me);
            int w = sa_rr_select(&arb, &req, NULL);
            ST_CHECK(w >= 0 && ((req >> w) & 1u));
            /* Round-robin order: w is the first requester at/after the pointer. */
            {
                int k;
                for (k = arb.pointer; k != w; k = (k + 1) % size) ST_CHECK(!((req >> k) & 1u));
            }
            sa_rr_update(&arb, w);
            wait++;
            if (w == me) { if (wait > worst) worst = wait; wait = 0; }
        }
        /* Bound: each grant to another requester moves the pointer strictly
         * closer to `me` (it passes only requesters between pointer and me),
         * so me wins within `size` grants. */
        ST_CHECKF(worst <= size, "size %d worst wait %d", size, worst);
    }
}

ST_TEST(alloc_matrix_arbiter_is_least_recently_selected) {
    /* Oracle: a literal priority matrix, bit [a][b] set when a beats b,
     * initialised upper-triangular; a grant clears the winner's row and sets
     * its column (Dally & Towles). */
    uint64_t seed = 11;
    int size;
    for (size = 1; size <= 64; size += (size < 9 ? 1 : 7)) {
        sa_matrix_arb arb;
        uint64_t beats[64];
        uint16_t rank[64];
        int32_t prio[64];
        int a, b, t, me = size - 1, wait = 0, worst = 0;
        ST_EQ(SA_OK, sa_matrix_arb_init(&arb, size, rank));
        for (a = 0; a < size; a++) {
            beats[a] = 0;
            for (b = a + 1; b < size; b++) beats[a] |= (uint64_t)1 << b;
        }
        for (t = 0; t < 3000; t++) {
            uint64_t req = (st_rand(&seed) & st_rand(&seed) & ta_low_mask(size)) | ((uint64_t)1 << me);
            int w = sa_matrix_select(&arb, &req, NULL), want = -1;
            for (a = 0; a < size && want < 0; a++)
                if (((req >> a) & 1u) && ((req & ~beats[a] & ~((uint64_t)1 << a)) == 0)) want = a;
            ST_EQ(want, w);
            beats[w] = 0;
            for (a = 0; a < size; a++) if (a != w) beats[a] |= (uint64_t)1 << w;
            sa_matrix_update(&arb, w);
            wait++;
            if (w == me) { if (wait > worst) worst = wait; wait = 0; }
            /* Priorities: highest first, least recently selected among equals. */
            for (a = 0; a < size; a++) prio[a] = (int32_t)st_rand_below(&seed, 3) - 1;
            w = sa_matrix_select(&arb, &req, prio);
            for (a = 0; a < size; a++) if ((req >> a) & 1u) ST_CHECK(prio[a] <= prio[w]);
            {
                uint64_t top = 0;
                for (a = 0; a < size; a++) if (((req >> a) & 1u) && prio[a] == prio[w]) top |= (uint64_t)1 << a;
                ST_EQ(sa_matrix_select(&arb, &top, NULL), w);
            }
        }
        /* Bound: every loss moves a winner that was ahead of `me` behind
         * it, and nobody passes it otherwise, so me wins within size
         * selections. */
        ST_CHECKF(worst <= size, "size %d worst %d", size, worst);
    }
}

ST_TEST(alloc_rr_priority_highest_first_round_robin_among_equals) {
    sa_rr_arb arb;
    const int32_t prio[8] = { 1, 3, 3, 0, 3, 2, 0, 0 };
    const int32_t extreme[4] = { INT32_MIN, INT32_MIN, INT32_MIN + 1, -1 };
    const uint64_t all = 0xFF, some = 0xE9, none = 0, low2 = 0x3, low3 = 0x7;
    ST_EQ(SA_OK, sa_rr_arb_init(&arb, 8));
    ST_EQ(1, sa_rr_select(&arb, &all, prio));
    sa_rr_update(&arb, 1);
    ST_EQ(2, sa_rr_select(&arb, &all, prio));
    sa_rr_update(&arb, 2);
    ST_EQ(4, sa_rr_select(&arb, &all, prio));
    sa_rr_update(&arb, 4);
    ST_EQ(1, sa_rr_select(&arb, &all, prio));
    ST_EQ(5, sa_rr_select(&arb, &some, prio));
    ST_EQ(-1, sa_rr_select(&arb, &none, prio));
    ST_EQ(5, sa_rr_select(&arb, &all, NULL)); /* no priorities: the pointer's */
    /* the whole int32_t range */
    ST_EQ(SA_OK, sa_rr_arb_init(&arb, 4));
    ST_EQ(0, sa_rr_select(&arb, &low2, extreme));
    ST_EQ(2, sa_rr_select(&arb, &low3, extreme));
    sa_rr_update(&arb, 0);
    ST_EQ(1, sa_rr_select(&arb, &low2, extreme));
}

/* ------------------------------------------------------------ validity */

/* Every allocator on random request sets of every size n x m up to 64x64,
 * random densities and random connection masks, with and without
 * priorities: valid matchings; the maximal ones (WFA, wrapped WFA,
 * converged PIM and iSLIP, MCM) maximal; MCM at least as large as every
 * other.  (Beyond 64 x 64: test_switch_models.c.) */
ST_TEST(alloc_every_size_gives_valid_matchings) {
    uint64_t seed = 2024;
    int n, m, k, rep, reps = ST_LONG ? 40 : 2;
    long total = 0;
    for (n = 1; n <= 64; n++)
        for (m = 1; m <= 64; m++) {
            static ta_switch al[TA_NKINDS + 2];
            sa_switch_desc d;
            uint64_t req[64], eff[64], nc[64];
            unsigned dens = 20 + st_rand_below(&seed, 236);
            int conv = TA_NKINDS, conv2 = TA_NKINDS + 1, i;
            ta_desc(&d, SA_SWITCH_SPAA, n, m);
            for (i = 0; i < n; i++) nc[i] = (st_rand(&seed) & st_rand(&seed) & st_rand(&seed)) & ta_low_mask(m);
            d.no_connect = nc;
            for (k = 0; k < TA_NKINDS + 2; k++) {
                d.kind = k < TA_NKINDS ? ta_kinds[k] : (k == conv ? SA_SWITCH_PIM : SA_SWITCH_ISLIP);
                d.iterations = k >= TA_NKINDS ? SA_ITERATE_TO_CONVERGENCE : 1;
                ST_EQ(SA_OK, ta_switch_init(&al[k], &d));
            }
            (void)conv2;
            for (rep = 0; rep < reps; rep++) {
                int mcm = -1, sizes[TA_NKINDS + 2];
                int32_t prio[64 * 64];
                ta_random_requests(&seed, n, m, dens, req);
                for (i = 0; i < n * m; i++) prio[i] = (int32_t)st_rand_below(&seed, 4);
                for (i = 0; i < n; i++) eff[i] = req[i] & ~nc[i];
                for (k = 0; k < TA_NKINDS + 2; k++) {
                    sa_match mt;
                    const char *err;
                    sa_switch_kind kind = al[k].a.kind;
                    sizes[k] = sa_switch_allocate(&al[k].a, req, rep & 1 ? prio : NULL, NULL, &mt);
                    total++;
                    err = ta_check_matching(&mt, n, m, req, nc, NULL);
                    ST_CHECKF(err == 0, "%s %dx%d: %s", sa_switch_kind_name(kind), n, m, err);
                    ST_EQ(mt.size, sizes[k]);
                    if (kind == SA_SWITCH_WFA || kind == SA_SWITCH_WFA_WRAPPED || kind == SA_SWITCH_MCM ||
                        k >= TA_NKINDS) {
                        err = ta_check_maximal(&mt, n, m, eff, NULL);
                        ST_CHECKF(err == 0, "%s (k=%d) %dx%d: %s", sa_switch_kind_name(kind), k, n, m, err);
                    }
                    if (kind == SA_SWITCH_MCM) mcm = mt.size;
                }
                for (k = 0; k < TA_NKINDS + 2; k++) ST_CHECK(sizes[k] <= mcm);
            }
        }
    ST_CHECK(total > 0);
}

/* Read-port pairing: random packets (one or two outputs each) in random
 * buffers, with and without priorities; no allocator may give both read
 * ports of a buffer the same packet, and the maximal ones stay maximal
 * under the pairing rule. */
ST_TEST(alloc_read_port_pairs_never_share_a_packet) {
    uint64_t seed = 77;
    long t, trials = ST_LONG ? 400000 : 12000;
    for (t = 0; t < trials; t++) {
        int nb = 1 + (int)st_rand_below(&seed, 8), n = 2 * nb, m = 1 + (int)st_rand_below(&seed, 8);
        int k, b, i;
        ta_buffer tb[8];
        sa_read_buffer views[8];
        uint64_t req[16], eff[16], nc[16];
        int32_t prio[16 * 8];
        sa_switch_desc d;
        for (b = 0; b < nb; b++) ta_random_buffer(&seed, m, &tb[b]);
        ta_build_views(tb, nb, views, req);
        ta_desc(&d, SA_SWITCH_SPAA, n, m);
        d.read_port_pairs = 1;
        d.seed = (uint64_t)t;
        for (i = 0; i < n; i++) nc[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
        d.no_connect = nc;
        for (i = 0; i < n; i++) eff[i] = req[i] & ~nc[i];
        for (i = 0; i < n * m; i++) prio[i] = (int32_t)st_rand_below(&seed, 3);
        for (k = 0; k < TA_NKINDS + 1; k++) {
            ta_switch x;
            sa_switch *a = &x.a;
            sa_match mt;
            const char *err;
            d.kind = k < TA_NKINDS ? ta_kinds[k] : SA_SWITCH_PIM;
            d.iterations = k == TA_NKINDS ? SA_ITERATE_TO_CONVERGENCE : 1;
            d.rotary = (t & 1) && (d.kind == SA_SWITCH_SPAA || d.kind == SA_SWITCH_WFA ||
                                   d.kind == SA_SWITCH_WFA_WRAPPED || d.kind == SA_SWITCH_PIM);
            d.network_inputs[0] = st_rand(&seed) & ta_low_mask(n);
            ST_EQ(SA_OK, ta_switch_init(&x, &d));
            a->start_row = (int)st_rand_below(&seed, (uint32_t)n);
            if (d.rotary && d.kind == SA_SWITCH_WFA && d.network_inputs[0])
                a->start_row = ta_lowest_bit(d.network_inputs[0]);
            a->start_col = (int)st_rand_below(&seed, (uint32_t)(d.kind == SA_SWITCH_WFA_WRAPPED ? (n > m ? n : m) : m));
            sa_switch_allocate(a, req, t & 2 ? prio : NULL, views, &mt);
            err = ta_check_matching(&mt, n, m, req, nc, tb);
            ST_CHECKF(err == 0, "%s: %s", sa_switch_kind_name(d.kind), err);
            if (d.kind == SA_SWITCH_WFA || d.kind == SA_SWITCH_WFA_WRAPPED || k == TA_NKINDS ||
                d.kind == SA_SWITCH_MCM) {
                err = ta_check_maximal(&mt, n, m, eff, tb);
                ST_CHECKF(err == 0, "%s: %s", sa_switch_kind_name(d.kind), err);
            }
            if (d.kind == SA_SWITCH_MCM) {
                int outs[16];
                if (n <= 6 && m <= 6) ST_EQ(ta_brute_max(eff, n, m, 0, 0, tb, outs), mt.size);
            }
            /* The packets chosen afterwards are distinct and suitable. */
            for (b = 0; b < nb; b++) {
                int p0, p1;
                ST_EQ(SA_OK, sa_read_buffer_assign(tb[b].out, tb[b].count, mt.output_of[2 * b],
                                                   mt.output_of[2 * b + 1], &p0, &p1));
                if (p0 >= 0 && p1 >= 0) ST_CHECK(p0 != p1);
                if (p0 >= 0) ST_CHECK((tb[b].out[p0] >> mt.output_of[2 * b]) & 1u);
                if (p1 >= 0) ST_CHECK((tb[b].out[p1] >> mt.output_of[2 * b + 1]) & 1u);
            }
        }
    }
}

ST_TEST(alloc_read_buffer_clash_is_exact) {
    /* sa_read_buffer_clash against packet-level brute force. */
    uint64_t seed = 5;
    int t;
    for (t = 0; t < 20000; t++) {
        int m = 1 + (int)st_rand_below(&seed, 10), j, k;
        ta_buffer tb;
        sa_read_buffer v;
        ta_random_buffer(&seed, m, &tb);
        ST_EQ(SA_OK, sa_read_buffer_build(&v, tb.out, tb.count));
        for (j = 0; j < m; j++) {
            if (!((v.any >> j) & 1u)) { ST_CHECK(!ta_pair_feasible(&tb, j, -1)); continue; }
            for (k = 0; k < m; k++) {
                int blocked;
                if (k == j || !((v.any >> k) & 1u)) continue;
                blocked = (int)((sa_read_buffer_clash(&v, j) >> k) & 1u);
                ST_EQ(!ta_pair_feasible(&tb, j, k), blocked);
            }
        }
    }
}

/* ------------------------------------------------------------ MCM */

ST_TEST(alloc_mcm_equals_brute_force_up_to_6x6) {
    uint64_t seed = 31337, req[6];
    int n, m, outs[6];
    long t, per = ST_LONG ? 200000 : 2500;
    ta_switch x;
    sa_switch_desc d;
    sa_match mt;
    /* Exhaustive: every request set up to 3x4 and 4x3 (4096 sets each). */
    for (n = 1; n <= 4; n++)
        for (m = 1; m <= 4 && n * m <= 12; m++) {
            long s, sets = 1L << (n * m);
            ta_desc(&d, SA_SWITCH_MCM, n, m);
            ST_EQ(SA_OK, ta_switch_init(&x, &d));
            for (s = 0; s < sets; s++) {
                int i;
                for (i = 0; i < n; i++) req[i] = ((uint64_t)s >> (i * m)) & ta_low_mask(m);
                ST_EQ(ta_brute_max(req, n, m, 0, 0, NULL, outs), sa_switch_allocate(&x.a, req, NULL, NULL, &mt));
            }
        }
    /* Random: every size up to 6x6 at random densities. */
    for (n = 1; n <= 6; n++)
        for (m = 1; m <= 6; m++) {
            ta_desc(&d, SA_SWITCH_MCM, n, m);
            ST_EQ(SA_OK, ta_switch_init(&x, &d));
            for (t = 0; t < per; t++) {
                ta_random_requests(&seed, n, m, 30 + st_rand_below(&seed, 200), req);
                ST_EQ(ta_brute_max(req, n, m, 0, 0, NULL, outs), sa_switch_allocate(&x.a, req, NULL, NULL, &mt));
                ST_CHECK(ta_check_matching(&mt, n, m, req, NULL, NULL) == 0);
            }
        }
}

/* ------------------------------------------------------------ WFA oracle */

/* Literal Tamir-Chi wavefront, cell by cell, rows from r and columns from
 * c cyclically (ta_wfa_literal_order of alloc_test_util.h). */
static void ta_wfa_literal(const uint64_t *eff, int n, int m, int r, int c, int16_t *out) {
    int order[64], ii;
    for (ii = 0; ii < n; ii++) order[ii] = (ii + r) % n;
    ta_wfa_literal_order(eff, n, m, order, c, out);
}

/* Literal wrapped wavefront: s = max(n, m), diagonals d = p, p+1, ...;
 * all cells (i, (i + d) mod s) of a diagonal at once, or with anti the
 * cells (i, (d - i) mod s).  With priorities (NULL: none), the whole
 * sweep once per priority level, highest first, over the cells of that
 * level whose row and column the levels above left free. */
static void ta_wfa_wrapped_literal(const uint64_t *eff, int n, int m, int p, int anti, const int32_t *prio,
                                   int16_t *out) {
    int s = n > m ? n : m, k, i, j, first = 1;
    int32_t level = 0, above = 0;
    uint64_t row_taken = 0, col_taken = 0;
    for (i = 0; i < n; i++) out[i] = -1;
    for (;; first = 0, above = level) {
        if (!ta_next_level(eff, n, m, prio, row_taken, col_taken, first, above, &level)) return;
        for (k = 0; k < s; k++) {
            int d = (p + k) % s;
            uint64_t rows_now = 0, cols_now = 0;
            for (i = 0; i < n; i++) {
                j = anti ? ((d - i) % s + s) % s : (i + d) % s;
                if (j < m && ((eff[i] >> j) & 1u) && !((row_taken >> i) & 1u) && !((col_taken >> j) & 1u) &&
                    (prio == NULL || prio[i * m + j] == level)) {
                    out[i] = (int16_t)j;
                    rows_now |= (uint64_t)1 << i;
                    cols_now |= (uint64_t)1 << j;
                }
            }
            row_taken |= rows_now;
            col_taken |= cols_now;
        }
    }
}

/* WFA, and wrapped WFA with either diagonals, with and without priorities
 * and with either rule for an allocation without requests. */
ST_TEST(alloc_wfa_equals_literal_wavefront) {
    static int32_t prio[64 * 64];
    uint64_t seed = 4242, req[64];
    int t, trials = ST_LONG ? 200000 : 5000;
    for (t = 0; t < trials; t++) {
        int n = 1 + (int)st_rand_below(&seed, t % 4 ? 16 : 64);
        int m = 1 + (int)st_rand_below(&seed, t % 4 ? 16 : 64), i, step, s = n > m ? n : m;
        int anti = (int)st_rand_below(&seed, 2), hold = (int)st_rand_below(&seed, 2);
        int use_prio = (int)st_rand_below(&seed, 2);
        ta_switch xw, xww;
        sa_switch *w = &xw.a, *ww = &xww.a;
        sa_switch_desc d;
        sa_match mt;
        int16_t want[64];
        ta_desc(&d, SA_SWITCH_WFA, n, m);
        ST_EQ(SA_OK, ta_switch_init(&xw, &d));
        d.kind = SA_SWITCH_WFA_WRAPPED;
        d.wavefront = anti ? SA_WAVEFRONT_ANTIDIAGONAL : SA_WAVEFRONT_DIAGONAL;
        d.idle = hold ? SA_IDLE_HOLD : SA_IDLE_ADVANCE;
        ST_EQ(SA_OK, ta_switch_init(&xww, &d));
        w->start_row = (int)st_rand_below(&seed, (uint32_t)n);
        w->start_col = (int)st_rand_below(&seed, (uint32_t)m);
        ww->start_col = (int)st_rand_below(&seed, (uint32_t)s);
        for (step = 0; step < 4; step++) {
            int r = w->start_row, c = w->start_col, p = ww->start_col, empty = st_rand_below(&seed, 5) == 0;
            uint32_t levels = 1 + st_rand_below(&seed, 5);
            uint64_t any = 0;
            ta_random_requests(&seed, n, m, empty ? 0 : 20 + st_rand_below(&seed, 236), req);
            for (i = 0; i < n; i++) any |= req[i];
            empty = any == 0;
            for (i = 0; i < n * m; i++)
                prio[i] = levels == 5 ? ta_rand_prio32(&seed) : (int32_t)st_rand_below(&seed, levels);
            ta_wfa_literal(req, n, m, r, c, want);
            sa_switch_allocate(w, req, NULL, NULL, &mt);
            for (i = 0; i < n; i++) ST_EQ(want[i], mt.output_of[i]);
            /* The start cell moves one row, and one column per row sweep. */
            ST_EQ((r + 1) % n, w->start_row);
            ST_EQ(r + 1 == n ? (c + 1) % m : c, w->start_col);
            ta_wfa_wrapped_literal(req, n, m, p, anti, use_prio ? prio : NULL, want);
            sa_switch_allocate(ww, req, use_prio ? prio : NULL, NULL, &mt);
            for (i = 0; i < n; i++)
                ST_CHECKF(want[i] == mt.output_of[i], "%d x %d, diagonal %d, anti %d, priorities %d: row %d got %d want %d",
                          n, m, p, anti, use_prio, i, mt.output_of[i], want[i]);
            /* the priority diagonal advances, unless held on an empty set */
            ST_CHECKF(ww->start_col == (hold && empty ? p : (p + 1) % s), "%d x %d hold %d empty %d: diagonal %d -> %d",
                      n, m, hold, empty, p, ww->start_col);
        }
    }
}

/* ------------------------------------------------------------ iSLIP */

/* iSLIP's pointer rule (McKeown 1999), worked by hand at 20 x 20 with two
 * iterations: a grant pointer moves only when its grant is accepted, and
 * only in the first iteration; an accept pointer likewise.
 *
 * Allocation 1.  Requests: input 0 {0, 1}, 1 {0}, 2 {1, 2}, 3 {1}.
 *   Iteration 1, grant (all pointers 0): output 0 grants input 0 (of
 *   {0, 1}), output 1 grants input 0 (of {0, 2, 3}), output 2 grants 2.
 *   Accept: input 0 takes output 0 (of {0, 1}), input 2 takes output 2.
 *   Pointers: out_ptr[0] = 1, in_ptr[0] = 1, out_ptr[2] = 3,
 *   in_ptr[2] = 3; output 1's grant was declined, so out_ptr[1] stays 0.
 *   Iteration 2: output 1 grants its only free requester, input 3, which
 *   accepts; no pointer moves.  Matching {0-0, 2-2, 3-1}.
 * Allocation 2.  Requests: input 0 {0, 1}, 1 {0}, 2 {1}, 3 {1}, 5 {1}.
 *   Iteration 1: output 0 grants input 1 (first of {0, 1} from 1),
 *   output 1 grants input 0 (first of {0, 2, 3, 5} from 0); both accept.
 *   Iteration 2: the free inputs only want output 1, now taken.
 *   Matching {0-1, 1-0}; pointers out_ptr[0] = 2, out_ptr[1] = 1,
 *   in_ptr[0] = 2, in_ptr[1] = 1.
 * Had iteration 2 moved pointers, out_ptr[1] would be 4 and allocation 2
 * would give output 1 to input 5; had the declined grant moved it (RRM),
 * out_ptr[1] would be 1 and output 1 would go to input 2. */
ST_TEST(alloc_islip_pointer_rule_worked_example_20x20) {
    static const int16_t want1[6] = { 0, -1, 2, 1, -1, -1 }, want2[6] = { 1, 0, -1, -1, -1, -1 };
    static const uint8_t in1[4] = { 1, 0, 3, 0 }, out1[4] = { 1, 0, 3, 0 };
    static const uint8_t in2[4] = { 2, 1, 3, 0 }, out2[4] = { 2, 1, 3, 0 };
    ta_switch x;
    sa_switch_desc d;
    sa_match mt;
    uint64_t req[20];
    int i;
    ta_desc_of(&d, SA_SWITCH_ISLIP, 20, 20);
    d.iterations = 2;
    ST_EQ(SA_OK, ta_switch_init(&x, &d));
    memset(req, 0, sizeof req);
    req[0] = 0x3; req[1] = 0x1; req[2] = 0x6; req[3] = 0x2;
    ST_EQ(3, sa_switch_allocate(&x.a, req, NULL, NULL, &mt));
    for (i = 0; i < 6; i++) ST_EQ(want1[i], mt.output_of[i]);
    for (i = 0; i < 4; i++) {
        ST_EQ(in1[i], x.a.in_ptr[i]);
        ST_EQ(out1[i], x.a.out_ptr[i]);
    }
    for (i = 4; i < 20; i++) {
        ST_EQ(0, x.a.in_ptr[i]);
        ST_EQ(0, x.a.out_ptr[i]);
    }
    memset(req, 0, sizeof req);
    req[0] = 0x3; req[1] = 0x1; req[2] = 0x2; req[3] = 0x2; req[5] = 0x2;
    ST_EQ(2, sa_switch_allocate(&x.a, req, NULL, NULL, &mt));
    for (i = 0; i < 6; i++) ST_EQ(want2[i], mt.output_of[i]);
    for (i = 0; i < 4; i++) {
        ST_EQ(in2[i], x.a.in_ptr[i]);
        ST_EQ(out2[i], x.a.out_ptr[i]);
    }
}

/* ------------------------------------------------------------ memory */

/* Every kind at 64 x 64 fits the tests' bundle (ta_switch); the memory
 * asked for is exactly what sa_switch_init needs: one byte less, or an
 * address not aligned to 8, is refused and leaves the allocator alone. */
ST_TEST(alloc_memory_fits_the_test_bundle) {
    static uint64_t mem[TA_SWITCH_BYTES / 8 + 1];
    int k, pairs;
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++)
        for (pairs = 0; pairs < 2; pairs++) {
            sa_switch_desc d;
            sa_switch a, untouched;
            size_t size;
            int m = pairs && k == SA_SWITCH_MCM ? 8 : 64;
            ta_desc_of(&d, (sa_switch_kind)k, 64, m);
            d.read_port_pairs = pairs;
            size = sa_switch_memory_size(&d);
            ST_CHECKF(size > 0 && size <= TA_SWITCH_BYTES, "%s: %lu bytes", sa_switch_kind_name(d.kind),
                      (unsigned long)size);
            memset(&a, 0x3C, sizeof a);
            untouched = a;
            ST_EQ(SA_ERR_MEMORY, sa_switch_init(&a, &d, mem, size - 1));
            ST_EQ(SA_ERR_MEMORY, sa_switch_init(&a, &d, (unsigned char *)mem + 4, size));
            ST_CHECK(memcmp(&a, &untouched, sizeof a) == 0);
            ST_EQ(SA_OK, sa_switch_init(&a, &d, mem, size));
            ST_EQ(SA_OK, sa_switch_init(&a, &d, (unsigned char *)mem + 8, size));
            ST_CHECK(a.memory_size <= size);
        }
}

/* ------------------------------------------------------------ exact sizes */

/* Every kind at every size from 1 x 1 to 64 x 64, and at 65, 100, 128 and
 * 129 (rows of two and three words), with arrays of exactly the sizes
 * configured, each its own heap block (req[n * SA_WORDS(m)], prio[n m],
 * nomination[n], views[n / 2] with read-port pairs, and exactly
 * sa_switch_memory_size bytes of memory), so that the ASan build of make
 * test stops on any read or write past one of them.  The builds without
 * AddressSanitizer, where such a read goes unseen, take a third of the
 * sizes (all with --long). */
ST_TEST(alloc_exactly_sized_arrays_every_size) {
    static const int extra[] = { 65, 100, 128, 129 };
    enum { NSIZES = 64 + (int)(sizeof extra / sizeof extra[0]) };
    uint64_t seed = 4096;
    int k, ni, mi, t, i, w;
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++)
        for (ni = 0; ni < NSIZES; ni++)
            for (mi = 0; mi < NSIZES; mi++) {
                int n = ni < 64 ? ni + 1 : extra[ni - 64], m = mi < 64 ? mi + 1 : extra[mi - 64], rw = SA_WORDS(m);
                int pairs = n <= 64 && m <= 64 && n % 2 == 0 && (k != SA_SWITCH_MCM || m <= 8) && ((n + m) & 1);
                sa_switch_desc d;
                sa_switch a;
                sa_match mt;
                size_t size;
                uint64_t *req;
                int32_t *prio;
                int16_t *nom;
                sa_read_buffer *views;
                void *memory;
                if ((n > 64 || m > 64) && (n + m + k) % 4 != 0) continue; /* (a sample of the larger sizes) */
                /* (reads past the arrays are caught with AddressSanitizer:
                 * there every size, elsewhere a third of them) */
                if (!ST_ASAN && !ST_LONG && (n + 2 * m + k) % 3 != 0) continue;
                req = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(n * rw));
                prio = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n * m));
                nom = (int16_t *)malloc(sizeof(int16_t) * (size_t)n);
                views = pairs ? (sa_read_buffer *)malloc(sizeof(sa_read_buffer) * (size_t)(n / 2)) : NULL;
                ta_desc_of(&d, (sa_switch_kind)k, n, m);
                d.read_port_pairs = pairs;
                d.iterations = (n + m) % 3 == 0 ? SA_ITERATE_TO_CONVERGENCE : 1;
                size = sa_switch_memory_size(&d);
                memory = malloc(size);
                ST_CHECK(req != NULL && prio != NULL && nom != NULL && memory != NULL && (!pairs || views != NULL));
                ST_EQ(SA_OK, sa_switch_init(&a, &d, memory, size));
                for (t = 0; t < 2; t++) {
                    int dens = (int)st_rand_below(&seed, 4);
                    for (i = 0; i < n; i++)
                        for (w = 0; w < rw; w++)
                            req[i * rw + w] = ta_rand_request_row(&seed, dens, m - 64 * w < 64 ? m - 64 * w : 64);
                    for (i = 0; i < n * m; i++) prio[i] = ta_rand_prio32(&seed);
                    if (pairs)
                        for (i = 0; i < n / 2; i++) {
                            uint64_t pk[2];
                            pk[0] = (uint64_t)1 << st_rand_below(&seed, (uint32_t)m);
                            pk[1] = req[2 * i] | req[2 * i + 1];
                            ST_EQ(SA_OK, sa_read_buffer_build(&views[i], pk, 2));
                        }
                    ST_EQ(sa_switch_allocate(&a, req, prio, views, &mt), mt.size);
                    ST_EQ(sa_switch_allocate(&a, req, NULL, NULL, &mt), mt.size);
                    if (k == SA_SWITCH_SPAA) {
                        sa_spaa_nominate(&a, req, prio, views, nom);
                        ST_EQ(sa_spaa_grant(&a, nom, &mt), mt.size);
                    }
                }
                free(req);
                free(prio);
                free(nom);
                free(views);
                free(memory);
            }
}
