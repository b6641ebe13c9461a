/* alloc_test_util.h - pieces several allocator test files share: random
 * request rows of four densities, the literal cell-by-cell wave front
 * (the oracle of the WFA tests) and a bit-by-bit column check.  Include after st_test.h and
 * seastar_arb.h. */
#ifndef ALLOC_TEST_UTIL_H
#define ALLOC_TEST_UTIL_H

/* One random request row over m outputs; dens 0..3 gives densities of
 * about 1/8, 1/4, 1/2 and 3/4.  The st_rand calls come in a fixed order
 * (the regression workloads depend on it). */
static inline uint64_t ta_rand_request_row(uint64_t *seed, int dens, int m) {
    uint64_t r = st_rand(seed);
    if (dens == 0) r &= st_rand(seed) & st_rand(seed);
    if (dens == 1) r &= st_rand(seed);
    if (dens == 3) r |= st_rand(seed);
    return r & sa__low_mask(m);
}

/* Literal Tamir-Chi wave front over the rows in `order` (order[ii] is the
 * ii-th row of the wave; n of them) and the columns from c: waves
 * w = ii + jj of the renumbered cells, Grant = Request and N and W.
 * out[i] receives row i's column or -1. */
static inline void ta_wfa_literal_order(const uint64_t *eff, int n, int m, const int *order, int c,
                                        int8_t *out) {
    int w, ii;
    uint64_t row_taken = 0, col_taken = 0;
    for (ii = 0; ii < n; ii++) out[order[ii]] = -1;
    for (w = 0; w <= n + m - 2; w++)
        for (ii = 0; ii < n; ii++) {
            int jj = w - ii, i, j;
            if (jj < 0 || jj >= m) continue;
            i = order[ii];
            j = (jj + c) % m;
            if (((eff[i] >> j) & 1u) && !((row_taken >> i) & 1u) && !((col_taken >> j) & 1u)) {
                row_taken |= (uint64_t)1 << i;
                col_taken |= (uint64_t)1 << j;
                out[i] = (int8_t)j;
            }
        }
}

/* The first of the m columns (bit i of col[j]: row i requests j on a
 * connected cell) that disagrees with the rows, bit by bit; -1 if none. */
static inline int ta_wrong_column(const uint64_t *req, const uint64_t *conn, int n, int m,
                                  const uint64_t *col) {
    int i, j;
    for (j = 0; j < m; j++) {
        uint64_t want = 0;
        for (i = 0; i < n; i++) want |= ((req[i] & conn[i]) >> j & 1u) << i;
        if (want != col[j]) return j;
    }
    return -1;
}

/* Number of set bits of x, by scanning (an oracle for the library's
 * population counts). */
static inline int ta_bit_count(uint64_t x) {
    int c = 0;
    for (; x; x >>= 1) c += (int)(x & 1u);
    return c;
}

/* The k-th (0-based) set bit of x by scanning; -1 if there is none. */
static inline int ta_kth_bit(uint64_t x, int k) {
    int b;
    for (b = 0; b < 64; b++)
        if ((x >> b) & 1u) {
            if (k == 0) return b;
            k--;
        }
    return -1;
}

/* A random mask below bit `bits`: dense, sparse, or one to three bits. */
static inline uint64_t ta_rand_mask(uint64_t *seed, int bits) {
    uint64_t v = st_rand(seed) & sa__low_mask(bits);
    int kind = (int)st_rand_below(seed, 4), t;
    if (kind == 1) v &= st_rand(seed) & st_rand(seed);
    if (kind >= 2) {
        v = 0;
        for (t = 0; t <= kind - 1; t++) v |= (uint64_t)1 << st_rand_below(seed, (uint32_t)bits);
    }
    return v;
}

/* One PIM stage's picks one lane at a time through sa__pim_pick1 (the
 * library's one-lane pick): pos[l] for each lane l of the set `lanes` in
 * increasing order (the redraws' order), with the lanes' block draws u16;
 * mask[l] must not be 0. */
static inline void ta_pim_pick_lanes(const uint64_t *mask, uint64_t lanes, const uint16_t *u16, sa__pim_draws *d,
                                     int8_t *pos) {
    for (; lanes; lanes &= lanes - 1) {
        int l = sa__ctz64(lanes);
        pos[l] = (int8_t)sa__pim_pick1(mask[l], u16[l], d);
    }
}

#endif
