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
    sa_alloc a;
    void *memory;
};

ba_alloc *BA(make)(int kind, int n, int m, int iterations, uint64_t seed) {
    sa_alloc_desc d;
    ba_alloc *x = (ba_alloc *)calloc(1, sizeof *x);
    size_t size;
    if (x == NULL) return NULL;
    memset(&d, 0, sizeof d);
    d.kind = (sa_alloc_kind)kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = iterations;
    d.seed = seed;
    size = sa_alloc_memory_size(&d);
    x->memory = size ? malloc(size) : NULL;
    if (x->memory == NULL || sa_alloc_init(&x->a, &d, x->memory, size) != SA_OK) {
        free(x->memory);
        free(x);
        return NULL;
    }
    return x;
}

void BA(free)(ba_alloc *x) {
    if (x == NULL) return;
    free(x->memory);
    free(x);
}

/* One pass over the pool: every set allocated once.  Returns the total
 * number of matches (which also keeps the work alive). */
long BA(pass)(ba_alloc *x, const ba_pool *p, int sim) {
    sa_match mt;
    uint64_t req[64];
    long total = 0;
    int s, n = p->n;
    for (s = 0; s < p->sets; s++) {
        const uint8_t *prio = p->prio ? p->prio + (size_t)(s % p->prio_sets) * (size_t)(n * p->m) : NULL;
        if (sim) {
            /* As a simulator builds them: each input's row cleared, then one
             * bit per output it has a packet for. */
            const uint16_t *rows = p->row_of + (size_t)s * (size_t)n;
            int i, k;
            for (i = 0; i < n; i++) {
                const uint8_t *out = p->row_outputs + 64 * (size_t)rows[i];
                int count = p->row_count[rows[i]];
                req[i] = 0;
                for (k = 0; k < count; k++) req[i] |= (uint64_t)1 << out[k];
            }
            total += sa_allocate(&x->a, req, prio, NULL, &mt);
        } else {
            total += sa_allocate(&x->a, p->masks + (size_t)s * (size_t)n, prio, NULL, &mt);
        }
    }
    return total;
}

size_t BA(memory_size)(int kind, int n, int m) {
    sa_alloc_desc d;
    memset(&d, 0, sizeof d);
    d.kind = (sa_alloc_kind)kind;
    d.num_inputs = n;
    d.num_outputs = m;
    return sizeof(sa_alloc) + sa_alloc_memory_size(&d);
}
