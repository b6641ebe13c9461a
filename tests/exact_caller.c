/* exact_caller.c - a caller of the switch allocators that passes arrays of
 * exactly the sizes it configures: uint64_t req[N], int8_t nomination[N],
 * uint8_t prio[N * M], sa_read_buffer views[N / 2], for N x M = 1 x 1,
 * 5 x 5, 7 x 7, 16 x 7 (the 21364, read-port pairs) and 64 x 64, every
 * allocator kind.  tests/contract.sh compiles it with gcc and clang at -O2
 * and -O3, -Wall -Wextra -Werror, as C and as C++, and runs it: inlining
 * makes the sizes constants inside the header, where an access past them
 * would draw -Warray-bounds or -Wstringop-overflow.  Define
 * EXACT_ASSERT_OFF to compile with SA_ASSERT(c) defined to nothing. */
#ifdef EXACT_ASSERT_OFF
#define SA_ASSERT(c)
#endif
#include <stdio.h>
#include <stdlib.h>
#include "../seastar_arb.h"

/* One allocator of kind K at N x M, its memory from malloc; a few
 * allocations with and without priorities, and SPAA's two steps.
 * Returns the matches, or -1. */
#define EXACT_CALLER(N, M)                                                              \
    static int exact_##N##x##M(sa_alloc_kind kind) {                                    \
        sa_alloc_desc d;                                                                \
        sa_alloc a;                                                                     \
        sa_match mt;                                                                    \
        uint64_t req[N];                                                                \
        uint8_t prio[N * M];                                                            \
        int8_t nomination[N];                                                           \
        size_t size;                                                                    \
        void *memory;                                                                   \
        int i, t, total = 0;                                                            \
        memset(&d, 0, sizeof d);                                                        \
        d.kind = kind;                                                                  \
        d.num_inputs = N;                                                               \
        d.num_outputs = M;                                                              \
        d.iterations = kind == SA_ALLOC_ISLIP ? SA_ITERATE_TO_CONVERGENCE : 1;          \
        size = sa_alloc_memory_size(&d);                                                \
        memory = malloc(size ? size : 1);                                               \
        if (memory == NULL || sa_alloc_init(&a, &d, memory, size) != SA_OK) {           \
            free(memory);                                                               \
            return -1;                                                                  \
        }                                                                               \
        for (i = 0; i < N * M; i++) prio[i] = (uint8_t)(i * 37 + 11);                   \
        for (t = 0; t < 4; t++) {                                                       \
            for (i = 0; i < N; i++)                                                     \
                req[i] = ((uint64_t)0x9E3779B97F4A7C15ull * (uint64_t)(i + 7 * t + 1)) \
                         >> (64 - M);                                                   \
            total += sa_allocate(&a, req, (t & 1) ? prio : NULL, NULL, &mt);            \
            if (kind == SA_ALLOC_SPAA) {                                                \
                sa_spaa_nominate(&a, req, (t & 1) ? NULL : prio, NULL, nomination);     \
                total += sa_spaa_grant(&a, nomination, &mt);                            \
            }                                                                           \
        }                                                                               \
        free(memory);                                                                   \
        return total;                                                                   \
    }

EXACT_CALLER(1, 1)
EXACT_CALLER(5, 5)
EXACT_CALLER(7, 7)
EXACT_CALLER(16, 7)
EXACT_CALLER(64, 64)

/* The 21364: 16 x 7 with read-port pairs and eight buffer views. */
static int exact_21364(sa_alloc_kind kind) {
    sa_alloc_desc d;
    sa_alloc a;
    sa_match mt;
    sa_read_buffer views[8];
    uint64_t req[16], packets[3];
    uint8_t prio[16 * 7];
    int8_t nomination[16];
    size_t size;
    void *memory;
    int b, i, total = 0;
    if (sa_alloc_desc_21364(&d, kind, kind == SA_ALLOC_SPAA || kind == SA_ALLOC_PIM) != SA_OK) return -1;
    size = sa_alloc_memory_size(&d);
    memory = malloc(size ? size : 1);
    if (memory == NULL || sa_alloc_init(&a, &d, memory, size) != SA_OK) {
        free(memory);
        return -1;
    }
    for (b = 0; b < 8; b++) {
        packets[0] = (uint64_t)1 << (b % 7);
        packets[1] = (uint64_t)3 << (b % 6);
        packets[2] = (uint64_t)0x41 >> (b % 2);
        if (sa_read_buffer_build(&views[b], packets, 3) != SA_OK) return -1;
        req[2 * b] = req[2 * b + 1] = views[b].any;
    }
    for (i = 0; i < 16 * 7; i++) prio[i] = (uint8_t)(i * 13);
    total += sa_allocate(&a, req, prio, views, &mt);
    total += sa_allocate(&a, req, NULL, views, &mt);
    if (kind == SA_ALLOC_SPAA) {
        sa_spaa_nominate(&a, req, prio, views, nomination);
        total += sa_spaa_grant(&a, nomination, &mt);
    }
    free(memory);
    return total;
}

int main(void) {
    int k, i;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
        sa_alloc_kind kind = (sa_alloc_kind)k;
        int r[6];
        r[0] = exact_1x1(kind);
        r[1] = exact_5x5(kind);
        r[2] = exact_7x7(kind);
        r[3] = exact_16x7(kind);
        r[4] = exact_64x64(kind);
        r[5] = exact_21364(kind);
        for (i = 0; i < 6; i++)
            if (r[i] < 0) {
                printf("%s: case %d failed\n", sa_alloc_kind_name(kind), i);
                return 1;
            }
    }
    return 0;
}
