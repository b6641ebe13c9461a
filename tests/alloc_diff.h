/* alloc_diff.h - the plain interface through which test_alloc_diff.c drives
 * two builds of the switch allocators in one runner:
 *
 *   ad_fast_...  alloc_diff_fast.c: the build users get by default (the
 *                >>fast kernels where the target has them);
 *   ad_ref_...   alloc_diff_ref.c: the same code with SA_NO_SIMD (the
 *                reference only).
 *
 * Both translation units define NDEBUG and SA_ASSERT(c) to nothing, as a
 * release build does, so that request bits outside the outputs reach the
 * allocators (sa_allocate documents that they are then ignored).  Only
 * public functions of seastar_arb.h are called (alloc_diff_impl.h); the
 * types crossing this interface (sa_alloc_desc, sa_read_buffer, sa_match)
 * are plain structs, the same in both builds. */
#ifndef ALLOC_DIFF_H
#define ALLOC_DIFF_H

#include "../seastar_arb.h"

/* An allocator of one build with exactly sa_alloc_memory_size bytes of
 * memory from malloc (so that ASan sees any write past it). */
typedef struct ad_alloc ad_alloc;

/* What of an allocator's state can be read without depending on how a
 * build keeps it: PIM's generator, WFA's start cell and wrapped WFA's
 * priority diagonal, the round-robin pointers of iSLIP, the separable
 * allocators and OPF (SPAA's arbiters are compared by their decisions). */
typedef struct ad_state {
    uint64_t rng;
    int start_row, start_col;
    int pointers;                  /* 1 when in_ptr/out_ptr are meaningful */
    uint8_t in_ptr[SA_ALLOC_MAX];
    uint8_t out_ptr[SA_ALLOC_MAX];
} ad_state;

#define AD_DECLARE(p)                                                                       \
    int p##simd(void);                                                                      \
    size_t p##memory_size(const sa_alloc_desc *d);                                          \
    ad_alloc *p##make(const sa_alloc_desc *d, sa_result *r);                                \
    ad_alloc *p##copy(const ad_alloc *x);                                                   \
    void p##free(ad_alloc *x);                                                              \
    int p##allocate(ad_alloc *x, const uint64_t *req, const uint8_t *prio,                  \
                    const sa_read_buffer *bufs, sa_match *mt);                              \
    int p##nominate(ad_alloc *x, const uint64_t *req, const uint8_t *prio,                  \
                    const sa_read_buffer *bufs, int8_t *nomination);                        \
    int p##grant(ad_alloc *x, const int8_t *nomination, sa_match *mt);                      \
    void p##state(const ad_alloc *x, ad_state *s);                                          \
    uint64_t p##workload_hash(int with_pim);                                                \
    uint64_t p##scenario_hash(void);

AD_DECLARE(ad_fast_)
AD_DECLARE(ad_ref_)

#endif
