/* alloc_diff_impl.h - the body of alloc_diff_fast.c and alloc_diff_ref.c:
 * the interface of alloc_diff.h over the public API of seastar_arb.h.
 * The including file defines AD_PREFIX (and SA_NO_SIMD for the reference
 * build), NDEBUG and SA_ASSERT(c) before including this. */
#include <stdlib.h>
#include "st_test.h"
#include "alloc_diff.h"
#include "alloc_test_util.h"

#define AD_CAT2(a, b) a##b
#define AD_CAT(a, b) AD_CAT2(a, b)
#define AD(name) AD_CAT(AD_PREFIX, name)

struct ad_alloc {
    sa_switch a;
    void *memory;
#ifdef AD_VIA_REQUESTS
    sa_requests r;  /* the request set some allocations go through */
    void *r_memory;
    unsigned calls;
#endif
};

#ifdef AD_VIA_REQUESTS
/* The allocator's request set (its memory from malloc). */
static int ad_requests_make(ad_alloc *x) {
    int n = x->a.num_inputs, m = x->a.num_outputs;
    size_t size = sa_requests_memory_size(n, m);
    x->r_memory = malloc(size);
    return x->r_memory != NULL && sa_requests_init(&x->r, n, m, x->r_memory, size) == SA_OK;
}

/* Two of every three allocations without request bits beyond the outputs
 * go through the request set (made afresh, in rows, for every fourth call,
 * so that both forms meet every allocator): cleared, the requests added (rows in
 * increasing or decreasing order, each with its cell's priority or 0),
 * the first one again with a lower priority, and an unrequested cell added
 * and removed; then sa_switch_allocate_requests.  The set's form follows
 * the allocator (see >>requests).  Returns -1 when the call is not taken. */
static int ad_via_requests(ad_alloc *x, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                           sa_match *mt) {
    int n = x->a.num_inputs, m = x->a.num_outputs, rw = SA_WORDS(m), i, j, k, down = (int)(x->calls & 2u) != 0;
    int fi = -1, fj = -1;
    if (x->calls++ % 3 == 0) return -1;
    for (i = 0; i < n; i++)
        if (req[(size_t)i * (size_t)rw + (size_t)(rw - 1)] >> 1 >> ((m - 1) & 63)) return -1;
    if (x->calls % 4 == 2) /* a fresh set, in rows whatever the allocator reads */
        sa_requests_init(&x->r, n, m, x->r_memory, sa_requests_memory_size(n, m));
    sa_requests_clear(&x->r);
    for (k = 0; k < n; k++) {
        i = down ? n - 1 - k : k;
        for (j = 0; j < m; j++)
            if ((req[(size_t)i * (size_t)rw + (size_t)(j >> 6)] >> (j & 63)) & 1u) {
                sa_requests_add(&x->r, i, j, prio ? prio[(size_t)i * (size_t)m + (size_t)j] : 0);
                if (fi < 0) fi = i, fj = j;
            }
    }
    if (fi >= 0) {
        int32_t p = prio ? prio[(size_t)fi * (size_t)m + (size_t)fj] : 0;
        sa_requests_add(&x->r, fi, fj, p > INT32_MIN ? p - 1 : p);
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            if (!((req[(size_t)i * (size_t)rw + (size_t)(j >> 6)] >> (j & 63)) & 1u)) {
                sa_requests_add(&x->r, i, j, prio ? prio[(size_t)i * (size_t)m + (size_t)j] : 0);
                sa_requests_remove(&x->r, i, j);
                i = n;
                break;
            }
    return sa_switch_allocate_requests(&x->a, &x->r, bufs, mt);
}
#endif

int AD(simd)(void) {
#ifdef SA_SIMD_SSE2
    return 1;
#else
    return 0;
#endif
}

size_t AD(memory_size)(const sa_switch_desc *d) { return sa_switch_memory_size(d); }

ad_alloc *AD(make)(const sa_switch_desc *d, sa_result *r) {
    size_t size = sa_switch_memory_size(d);
    ad_alloc *x = (ad_alloc *)calloc(1, sizeof *x);
    *r = SA_ERR_MEMORY;
    if (x == NULL) return NULL;
    x->memory = malloc(size ? size : 1);
    if (x->memory == NULL || (*r = sa_switch_init(&x->a, d, x->memory, size)) != SA_OK) {
        free(x->memory);
        free(x);
        return NULL;
    }
#ifdef AD_VIA_REQUESTS
    if (!ad_requests_make(x)) {
        *r = SA_ERR_MEMORY;
        AD(free)(x);
        return NULL;
    }
#endif
    return x;
}

ad_alloc *AD(copy)(const ad_alloc *src) {
    ad_alloc *x = (ad_alloc *)calloc(1, sizeof *x);
    if (x == NULL) return NULL;
    x->memory = malloc(src->a.memory_size);
    if (x->memory == NULL || sa_switch_copy(&x->a, x->memory, src->a.memory_size, &src->a) != SA_OK) {
        free(x->memory);
        free(x);
        return NULL;
    }
#ifdef AD_VIA_REQUESTS
    x->calls = src->calls;
    if (!ad_requests_make(x)) {
        AD(free)(x);
        return NULL;
    }
#endif
    return x;
}

void AD(free)(ad_alloc *x) {
    if (x == NULL) return;
    free(x->memory);
#ifdef AD_VIA_REQUESTS
    free(x->r_memory);
#endif
    free(x);
}

int AD(allocate)(ad_alloc *x, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                 sa_match *mt) {
#ifdef AD_VIA_REQUESTS
    int got = ad_via_requests(x, req, prio, bufs, mt);
    if (got >= 0) return got;
#endif
    return sa_switch_allocate(&x->a, req, prio, bufs, mt);
}

int AD(nominate)(ad_alloc *x, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                 int16_t *nomination) {
    return sa_spaa_nominate(&x->a, req, prio, bufs, nomination);
}

int AD(grant)(ad_alloc *x, const int16_t *nomination, sa_match *mt) {
    return sa_spaa_grant(&x->a, nomination, mt);
}

void AD(state)(const ad_alloc *x, ad_state *s) {
    int i;
    memset(s, 0, sizeof *s);
    s->rng = x->a.rng.state;
    s->start_row = x->a.start_row;
    s->start_col = x->a.start_col;
    s->pointers = x->a.in_ptr != NULL;
    if (s->pointers) {
        for (i = 0; i < x->a.num_inputs; i++) s->in_ptr[i] = x->a.in_ptr[i];
        for (i = 0; i < x->a.num_outputs; i++) s->out_ptr[i] = x->a.out_ptr[i];
    }
}

#define TA_WORKLOAD_NAME AD(workload_hash)
#define TA_SCENARIO_NAME AD(scenario_hash)
#include "alloc_workload.h"
