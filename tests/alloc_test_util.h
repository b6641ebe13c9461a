/* alloc_test_util.h - pieces the allocator tests share: an allocator
 * bundled with its memory (ta_switch), bit helpers written here rather than
 * borrowed from the header under test, random request rows of four
 * densities, and the literal cell-by-cell wave front (the oracle of the
 * WFA tests).  Include after st_test.h and seastar_arb.h.
 *
 * The tests that use these helpers run at up to 64 x 64, where a request
 * row is one 64-bit word (req[i] is row i) and a matching's sets are their
 * word 0; test_switch_models.c and test_alloc_diff.c go beyond. */
#ifndef ALLOC_TEST_UTIL_H
#define ALLOC_TEST_UTIL_H

/* ------------------------------------------------------------ bits */

/* Mask of the low n bits, 0 <= n <= 64. */
static inline uint64_t ta_low_mask(int n) {
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* Number of set bits of x, by scanning. */
static inline int ta_bit_count(uint64_t x) {
    int c = 0;
    for (; x; x >>= 1) c += (int)(x & 1u);
    return c;
}

/* Index of the lowest set bit of x, by scanning; -1 if x is 0. */
static inline int ta_lowest_bit(uint64_t x) {
    int b;
    for (b = 0; b < 64; b++)
        if ((x >> b) & 1u) return b;
    return -1;
}

/* ------------------------------------------------------------ ta_switch */

/* Bytes of memory a ta_switch carries: more than any allocator of up to
 * 64 x 64 asks for (alloc_memory_fits_the_test_bundle checks it). */
#define TA_SWITCH_BYTES 32768

/* An allocator and its memory in one object, for tests that make many.
 * Copy one only with ta_switch_copy: the allocator's arrays point into its
 * own memory. */
typedef struct ta_switch {
    sa_switch a;
    uint64_t memory[TA_SWITCH_BYTES / 8];
} ta_switch;

static inline sa_result ta_switch_init(ta_switch *x, const sa_switch_desc *d) {
    return sa_switch_init(&x->a, d, x->memory, sizeof x->memory);
}

static inline sa_result ta_switch_copy(ta_switch *dst, const ta_switch *src) {
    return sa_switch_copy(&dst->a, dst->memory, sizeof dst->memory, &src->a);
}

/* A description of kind, n x m, everything else zero (the defaults). */
static inline void ta_desc_of(sa_switch_desc *d, sa_switch_kind kind, int n, int m) {
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->num_inputs = n;
    d->num_outputs = m;
}

/* ------------------------------------------------------------ requests */

/* One random request row over m outputs; dens 0..3 gives densities of
 * about 1/8, 1/4, 1/2 and 3/4.  The st_rand calls come in a fixed order
 * (the regression workloads depend on it). */
static inline uint64_t ta_rand_request_row(uint64_t *seed, int dens, int m) {
    uint64_t r = st_rand(seed);
    if (dens == 0) r &= st_rand(seed) & st_rand(seed);
    if (dens == 1) r &= st_rand(seed);
    if (dens == 3) r |= st_rand(seed);
    return r & ta_low_mask(m);
}

/* A random priority: INT32_MIN or INT32_MAX one time in 16 each, else
 * uniform in [-2^30, 2^30). */
static inline int32_t ta_rand_prio32(uint64_t *seed) {
    uint64_t u = st_rand(seed);
    if ((u & 15) == 0) return INT32_MIN;
    if ((u & 15) == 1) return INT32_MAX;
    return (int32_t)(u >> 33) - 0x40000000;
}

/* ------------------------------------------------------------ oracles */

/* The literal wave fronts' next priority level: the highest priority
 * below `above` (any, on the first sweep) among the requested cells whose
 * row and column are free; 0 when there is none.  Without priorities one
 * sweep, at no particular level. */
static inline int ta_next_level(const uint64_t *eff, int n, int m, const int32_t *prio, uint64_t row_taken,
                                uint64_t col_taken, int first, int32_t above, int32_t *level) {
    int i, j, found = 0;
    if (prio == NULL) return first;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            if (((eff[i] >> j) & 1u) && !((row_taken >> i) & 1u) && !((col_taken >> j) & 1u) &&
                (first || prio[i * m + j] < above) && (!found || prio[i * m + j] > *level)) {
                *level = prio[i * m + j];
                found = 1;
            }
    return found;
}

/* Literal Tamir-Chi wave front over the rows in `order` (order[ii] is the
 * ii-th row of the wave; n of them) and the columns from c: waves
 * w = ii + jj of the renumbered cells, Grant = Request and N and W.
 * With priorities (prio[i * m + j], NULL for none) the wave runs once per
 * priority level, highest first, over the cells of that level whose row
 * and column the levels above left free.  out[i] receives row i's column
 * or -1. */
static inline void ta_wfa_literal_levels(const uint64_t *eff, int n, int m, const int *order, int c,
                                         const int32_t *prio, int16_t *out) {
    int w, ii, first = 1;
    int32_t level = 0, above = 0;
    uint64_t row_taken = 0, col_taken = 0;
    for (ii = 0; ii < n; ii++) out[order[ii]] = -1;
    for (;;) {
        if (!ta_next_level(eff, n, m, prio, row_taken, col_taken, first, above, &level)) return;
        for (w = 0; w <= n + m - 2; w++)
            for (ii = 0; ii < n; ii++) {
                int jj = w - ii, i, j;
                if (jj < 0 || jj >= m) continue;
                i = order[ii];
                j = (jj + c) % m;
                if (((eff[i] >> j) & 1u) && !((row_taken >> i) & 1u) && !((col_taken >> j) & 1u) &&
                    (prio == NULL || prio[i * m + j] == level)) {
                    row_taken |= (uint64_t)1 << i;
                    col_taken |= (uint64_t)1 << j;
                    out[i] = (int16_t)j;
                }
            }
        above = level;
        first = 0;
    }
}

/* The same without priorities. */
static inline void ta_wfa_literal_order(const uint64_t *eff, int n, int m, const int *order, int c,
                                        int16_t *out) {
    ta_wfa_literal_levels(eff, n, m, order, c, NULL, out);
}

/* The matching struct is consistent over the allocator's sizes (the only
 * entries sa_switch_allocate specifies): output_of and input_of are
 * inverse, the masks and the size agree.  n and m are at most 64.
 * Returns 0 or a message. */
static inline const char *ta_match_consistent(const sa_match *mt, int n, int m) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    for (i = 0; i < n; i++) {
        j = mt->output_of[i];
        if (j == -1) continue;
        if (j < 0 || j >= m) return "output_of beyond the sizes";
        if (mt->input_of[j] != i) return "input_of is not the inverse of output_of";
        ins |= (uint64_t)1 << i;
        outs |= (uint64_t)1 << j;
        size++;
    }
    for (j = 0; j < m; j++) {
        i = mt->input_of[j];
        if (i != -1 && (i < 0 || i >= n || mt->output_of[i] != j))
            return "input_of has a pair output_of lacks";
    }
    if (ins != (mt->inputs[0] & ta_low_mask(n)) || outs != (mt->outputs[0] & ta_low_mask(m)))
        return "the inputs/outputs masks disagree";
    if (size != mt->size) return "size disagrees";
    return 0;
}

#endif
