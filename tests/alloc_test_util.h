/* alloc_test_util.h - pieces several allocator test files share: random
 * request rows of four densities and the literal cell-by-cell wave front
 * (the oracle of the WFA tests).  Include after st_test.h and
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

#endif
