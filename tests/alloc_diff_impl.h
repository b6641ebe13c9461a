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
    sa_alloc a;
    void *memory;
};

int AD(simd)(void) {
#ifdef SA_SIMD_SSE2
    return 1;
#else
    return 0;
#endif
}

size_t AD(memory_size)(const sa_alloc_desc *d) { return sa_alloc_memory_size(d); }

ad_alloc *AD(make)(const sa_alloc_desc *d, sa_result *r) {
    size_t size = sa_alloc_memory_size(d);
    ad_alloc *x = (ad_alloc *)calloc(1, sizeof *x);
    *r = SA_ERR_MEMORY;
    if (x == NULL) return NULL;
    x->memory = malloc(size ? size : 1);
    if (x->memory == NULL || (*r = sa_alloc_init(&x->a, d, x->memory, size)) != SA_OK) {
        free(x->memory);
        free(x);
        return NULL;
    }
    return x;
}

ad_alloc *AD(copy)(const ad_alloc *src) {
    ad_alloc *x = (ad_alloc *)calloc(1, sizeof *x);
    if (x == NULL) return NULL;
    x->memory = malloc(src->a.memory_size);
    if (x->memory == NULL || sa_alloc_copy(&x->a, x->memory, src->a.memory_size, &src->a) != SA_OK) {
        free(x->memory);
        free(x);
        return NULL;
    }
    return x;
}

void AD(free)(ad_alloc *x) {
    if (x == NULL) return;
    free(x->memory);
    free(x);
}

int AD(allocate)(ad_alloc *x, const uint64_t *req, const uint8_t *prio, const sa_read_buffer *bufs,
                 sa_match *mt) {
    return sa_allocate(&x->a, req, prio, bufs, mt);
}

int AD(nominate)(ad_alloc *x, const uint64_t *req, const uint8_t *prio, const sa_read_buffer *bufs,
                 int8_t *nomination) {
    return sa_spaa_nominate(&x->a, req, prio, bufs, nomination);
}

int AD(grant)(ad_alloc *x, const int8_t *nomination, sa_match *mt) {
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
