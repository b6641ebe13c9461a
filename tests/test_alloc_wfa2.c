/* test_alloc_wfa2.c - sa_allocate's direct WFA and iSLIP-1 16 x 8 paths
 * (the requests ANDed with connect inside the path, no effective-request
 * copy) against the general paths run on the effective requests: the whole
 * matching (every entry of both arrays, the masks, the size) and the
 * allocator state (start cell, round-robin pointers) must agree, over
 * random sizes up to 16 x 8, random unconnected cells (no_connect), random
 * start cells and pointers. */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

static int wfa2_same_match(const sa_match *x, const sa_match *y) {
    return x->size == y->size && x->inputs == y->inputs && x->outputs == y->outputs &&
           memcmp(x->output_of, y->output_of, sizeof x->output_of) == 0 &&
           memcmp(x->input_of, y->input_of, sizeof x->input_of) == 0;
}

static void wfa2_setup(uint64_t *seed, sa_alloc_kind kind, int n, int m, sa_alloc *a) {
    sa_alloc_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = 1;
    d.seed = 1;
    if (st_rand_below(seed, 2))
        for (i = 0; i < n; i++) d.no_connect[i] = st_rand(seed) & st_rand(seed) & sa__low_mask(m);
    (void)sa_alloc_init(a, &d);
    a->start_row = (uint8_t)st_rand_below(seed, (uint32_t)n);
    a->start_col = (uint8_t)st_rand_below(seed, (uint32_t)m);
    for (i = 0; i < m; i++) a->out_ptr[i] = (uint8_t)st_rand_below(seed, (uint32_t)n);
    for (i = 0; i < n; i++) a->in_ptr[i] = (uint8_t)st_rand_below(seed, (uint32_t)m);
}

static void wfa2_requests(uint64_t *seed, int n, int m, uint64_t *req) {
    unsigned dens = st_rand_below(seed, 4);
    int i;
    for (i = 0; i < n; i++) req[i] = ta_rand_request_row(seed, (int)dens, m);
}

ST_TEST(alloc_wfa2_direct_wfa_equals_columns_on_effective) {
    uint64_t seed = 2026112201u;
    int t;
    for (t = 0; t < 20000; t++) {
        int n = 2 + (int)st_rand_below(&seed, 15), m = 1 + (int)st_rand_below(&seed, 8), i, r, c;
        uint64_t req[16], eff[64], col[64];
        sa_alloc a;
        sa_match got, want;
        if (m >= n) m = n - 1;
        wfa2_setup(&seed, SA_ALLOC_WFA, n, m, &a);
        wfa2_requests(&seed, n, m, req);
        r = a.start_row;
        c = a.start_col;
        for (i = 0; i < 64; i++) eff[i] = i < n ? req[i] & a.connect[i] : 0;
        sa__match_clear(&want);
        sa__columns(eff, n, m, col);
        sa__wfa_by_columns(&a, col, r, c, sa__low_mask(n), &want);
        ST_EQ(want.size, sa_allocate(&a, req, NULL, NULL, &got));
        ST_CHECKF(wfa2_same_match(&got, &want), "n %d m %d r %d c %d", n, m, r, c);
        /* the start cell moves one row down, one column on after the last row */
        ST_EQ(r + 1 == n ? 0 : r + 1, a.start_row);
        ST_EQ(r + 1 == n ? (c + 1 == m ? 0 : c + 1) : c, a.start_col);
    }
}

ST_TEST(alloc_wfa2_direct_islip1_equals_request_grant_accept) {
    uint64_t seed = 2026112202u;
    int t;
    for (t = 0; t < 20000; t++) {
        int n = 1 + (int)st_rand_below(&seed, 16), m = 1 + (int)st_rand_below(&seed, 8), i;
        uint64_t req[16], eff[64], col[64];
        sa_alloc a, b;
        sa_match got, want;
        wfa2_setup(&seed, SA_ALLOC_ISLIP, n, m, &a);
        wfa2_requests(&seed, n, m, req);
        b = a;
        for (i = 0; i < 64; i++) eff[i] = i < n ? req[i] & a.connect[i] : 0;
        sa__match_clear(&want);
        sa__columns(eff, n, m, col);
        sa__request_grant_accept(&b, col, NULL, 1, 1, &want);
        ST_EQ(want.size, sa_allocate(&a, req, NULL, NULL, &got));
        ST_CHECKF(wfa2_same_match(&got, &want), "n %d m %d", n, m);
        ST_CHECK(memcmp(a.in_ptr, b.in_ptr, sizeof a.in_ptr) == 0);
        ST_CHECK(memcmp(a.out_ptr, b.out_ptr, sizeof a.out_ptr) == 0);
    }
}
