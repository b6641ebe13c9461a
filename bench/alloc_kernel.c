/* SPDX-License-Identifier: MIT */
/* alloc_kernel.c - the timed loops of bench_alloc, compiled twice: once as
 * the build users get by default (the >>fast kernels where the target has
 * SSE2; BA_PREFIX ba_fast_) and once with SA_NO_SIMD (the reference;
 * BA_PREFIX ba_ref_), so that one run of bench_alloc measures both.
 * NDEBUG is defined, as in a user's release build. */
#include <stdlib.h>
#include <string.h>
#include "../seastar_arb.h"
#include "alloc_kernel.h"

#define BA_CAT2(a, b) a##b
#define BA_CAT(a, b) BA_CAT2(a, b)
#define BA(name) BA_CAT(BA_PREFIX, name)

struct ba_alloc {
    sa_switch a;
    void *memory;
    sa_requests r;     /* the sim mode's request builder */
    void *r_memory;
    sa_match match;
};

ba_alloc *BA(make)(int kind, int n, int m, const ba_options *o, uint64_t seed) {
    sa_switch_desc d;
    ba_alloc *x = (ba_alloc *)calloc(1, sizeof *x);
    size_t size, rsize = sa_requests_memory_size(n, m);
    if (x == NULL) return NULL;
    memset(&d, 0, sizeof d);
    d.kind = (sa_switch_kind)kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = o->iterations;
    d.wavefront = o->wavefront;
    d.pointer_rule = o->pointer_rule;
    d.idle = o->idle;
    d.seed = seed;
    size = sa_switch_memory_size(&d);
    x->memory = size ? malloc(size) : NULL;
    x->r_memory = rsize ? malloc(rsize) : NULL;
    if (x->memory == NULL || x->r_memory == NULL || sa_switch_init(&x->a, &d, x->memory, size) != SA_OK ||
        sa_requests_init(&x->r, n, m, x->r_memory, rsize) != SA_OK) {
        free(x->memory);
        free(x->r_memory);
        free(x);
        return NULL;
    }
    return x;
}

void BA(free)(ba_alloc *x) {
    if (x == NULL) return;
    free(x->memory);
    free(x->r_memory);
    free(x);
}

/* One pass over the pool: every set allocated once.  Returns the total
 * number of matches (which also keeps the work alive). */
long BA(pass)(ba_alloc *x, const ba_pool *p, int sim) {
    long total = 0;
    int s, n = p->n, m = p->m;
    for (s = 0; s < p->sets; s++) {
        const int32_t *prio = p->prio ? p->prio + (size_t)(s % p->prio_sets) * (size_t)n * (size_t)m : NULL;
        if (sim) {
            /* As a simulator builds them: the requests cleared, then one
             * (input, output, priority) triple per packet that wants an
             * output, through the request builder, then the allocation
             * on the request set. */
            const uint16_t *rows = p->row_of + (size_t)s * (size_t)n;
            int i, k;
            sa_requests_clear(&x->r);
            for (i = 0; i < n; i++) {
                const uint16_t *out = p->row_outputs + (size_t)m * rows[i];
                int count = p->row_count[rows[i]];
                for (k = 0; k < count; k++)
                    sa_requests_add(&x->r, i, out[k], prio ? prio[(size_t)i * m + out[k]] : 0);
            }
            total += sa_switch_allocate_requests(&x->a, &x->r, NULL, &x->match);
        } else {
            total += sa_switch_allocate(&x->a, p->masks + (size_t)s * (size_t)n * (size_t)p->w, prio, NULL,
                                        &x->match);
        }
    }
    return total;
}

size_t BA(memory_size)(int kind, int n, int m) {
    sa_switch_desc d;
    memset(&d, 0, sizeof d);
    d.kind = (sa_switch_kind)kind;
    d.num_inputs = n;
    d.num_outputs = m;
    return sizeof(sa_switch) + sa_switch_memory_size(&d);
}
