/* alloc_test_util.h - pieces the allocator tests share: an allocator
 * bundled with its memory (ta_alloc), bit helpers written here rather than
 * borrowed from the header under test, random request rows of four
 * densities, and the literal cell-by-cell wave front (the oracle of the
 * WFA tests).  Include after st_test.h and seastar_arb.h. */
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

/* ------------------------------------------------------------ ta_alloc */

/* Bytes of memory a ta_alloc carries: more than any allocator of up to
 * 64 x 64 asks for (alloc_memory_fits_the_test_bundle checks it). */
#define TA_ALLOC_BYTES 32768

/* An allocator and its memory in one object, for tests that make many.
 * Copy one only with ta_alloc_copy: the allocator's arrays point into its
 * own memory. */
typedef struct ta_alloc {
    sa_alloc a;
    uint64_t memory[TA_ALLOC_BYTES / 8];
} ta_alloc;

static inline sa_result ta_alloc_init(ta_alloc *x, const sa_alloc_desc *d) {
    return sa_alloc_init(&x->a, d, x->memory, sizeof x->memory);
}

static inline sa_result ta_alloc_copy(ta_alloc *dst, const ta_alloc *src) {
    return sa_alloc_copy(&dst->a, dst->memory, sizeof dst->memory, &src->a);
}

/* A description of kind, n x m, everything else zero (the defaults). */
static inline void ta_desc_of(sa_alloc_desc *d, sa_alloc_kind kind, int n, int m) {
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

/* ------------------------------------------------------------ oracles */

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

/* The whole matching struct is consistent: output_of and input_of are
 * inverse, entries beyond the sizes are -1, the masks and the size agree.
 * Returns 0 or a message. */
static inline const char *ta_match_consistent(const sa_match *mt, int n, int m) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    for (i = 0; i < SA_ALLOC_MAX; i++) {
        j = mt->output_of[i];
        if (j == -1) continue;
        if (i >= n || j < 0 || j >= m) return "output_of beyond the sizes";
        if (mt->input_of[j] != i) return "input_of is not the inverse of output_of";
        ins |= (uint64_t)1 << i;
        outs |= (uint64_t)1 << j;
        size++;
    }
    for (j = 0; j < SA_ALLOC_MAX; j++) {
        i = mt->input_of[j];
        if (i != -1 && (j >= m || i < 0 || i >= n || mt->output_of[i] != j))
            return "input_of has a pair output_of lacks";
    }
    if (ins != mt->inputs || outs != mt->outputs) return "the inputs/outputs masks disagree";
    if (size != mt->size) return "size disagrees";
    return 0;
}

#endif
