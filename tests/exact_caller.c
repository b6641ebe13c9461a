/* exact_caller.c - a caller of the switch allocators that passes arrays of
 * exactly the sizes it configures: uint64_t req[N * SA_WORDS(M)],
 * int16_t nomination[N], int32_t prio[N * M], uint64_t no_connect[N *
 * SA_WORDS(M)], sa_read_buffer views[N / 2], for N x M = 1 x 1, 5 x 5,
 * 7 x 7, 16 x 7 (the 21364, read-port pairs), 64 x 64, 65 x 65 and
 * 130 x 129, every allocator kind, with the options; and the request
 * builder with exactly its memory.  tests/contract.sh compiles it with gcc
 * and clang at -O2 and -O3, -Wall -Wextra -Werror, as C and as C++, and
 * runs it: inlining makes the sizes constants inside the header, where an
 * access past them would draw -Warray-bounds or -Wstringop-overflow.
 * Define EXACT_ASSERT_OFF to compile with SA_ASSERT(c) defined to
 * nothing. */
#ifdef EXACT_ASSERT_OFF
#define SA_ASSERT(c)
#endif
#include <stdio.h>
#include <stdlib.h>
#include "../seastar_arb.h"

/* Bits b..b+63 of row i's requests at step t over m outputs (0 beyond m). */
static uint64_t exact_bits(int i, int t, int b, int m) {
    uint64_t x = (uint64_t)0x9E3779B97F4A7C15ull * (uint64_t)(i + 7 * t + 1 + b);
    x ^= x >> 29;
    if (m - b >= 64) return x;
    return m - b <= 0 ? 0 : x & (((uint64_t)1 << (m - b)) - 1);
}

/* One allocator of kind K at N x M (W words a row), its memory from
 * malloc; a few allocations with and without priorities, SPAA's two
 * steps, unconnected cells, the options; the same requests built with
 * sa_requests.  Returns the matches, or -1. */
#define EXACT_CALLER(N, M, W)                                                           \
    static int exact_##N##x##M(sa_switch_kind kind, int option) {                       \
        sa_switch_desc d;                                                               \
        sa_switch a;                                                                    \
        sa_requests rq;                                                                 \
        sa_match mt;                                                                    \
        uint64_t req[N * W], no_connect[N * W];                                         \
        int32_t prio[N * M];                                                            \
        int16_t nomination[N];                                                          \
        size_t size, rsize;                                                             \
        void *memory, *rmemory;                                                         \
        int i, j, t, total = 0;                                                         \
        memset(&d, 0, sizeof d);                                                        \
        d.kind = kind;                                                                  \
        d.num_inputs = N;                                                               \
        d.num_outputs = M;                                                              \
        d.iterations = kind == SA_SWITCH_ISLIP ? SA_ITERATE_TO_CONVERGENCE : 1;         \
        d.wavefront = d.pointer_rule = d.idle = option;                                 \
        for (i = 0; i < N * W; i++) no_connect[i] = exact_bits(i, 9, 64 * (i % W), M) & 0x1111111111111111ull; \
        d.no_connect = option ? no_connect : NULL;                                      \
        size = sa_switch_memory_size(&d);                                               \
        memory = malloc(size ? size : 1);                                               \
        rsize = sa_requests_memory_size(N, M);                                          \
        rmemory = malloc(rsize ? rsize : 1);                                            \
        if (memory == NULL || rmemory == NULL || sa_switch_init(&a, &d, memory, size) != SA_OK || \
            sa_requests_init(&rq, N, M, rmemory, rsize) != SA_OK) {                     \
            free(memory);                                                               \
            free(rmemory);                                                              \
            return -1;                                                                  \
        }                                                                               \
        for (i = 0; i < N * M; i++) prio[i] = (int32_t)(i * 37 + 11) % 5;              \
        for (t = 0; t < 4; t++) {                                                       \
            for (i = 0; i < N; i++)                                                     \
                for (j = 0; j < W; j++) req[i * W + j] = exact_bits(i, t, 64 * j, M);   \
            total += sa_switch_allocate(&a, req, (t & 1) ? prio : NULL, NULL, &mt);     \
            if (kind == SA_SWITCH_SPAA) {                                               \
                sa_spaa_nominate(&a, req, (t & 1) ? NULL : prio, NULL, nomination);     \
                total += sa_spaa_grant(&a, nomination, &mt);                            \
            }                                                                           \
            sa_requests_clear(&rq);                                                     \
            for (i = 0; i < N; i++)                                                     \
                for (j = 0; j < M; j++)                                                 \
                    if ((req[i * W + j / 64] >> (j % 64)) & 1u) sa_requests_add(&rq, i, j, prio[i * M + j]); \
            if (N > 1) sa_requests_remove(&rq, 1, M - 1);                               \
            total += sa_switch_allocate_requests(&a, &rq, NULL, &mt);                    \
        }                                                                               \
        free(memory);                                                                   \
        free(rmemory);                                                                  \
        return total;                                                                   \
    }

EXACT_CALLER(1, 1, 1)
EXACT_CALLER(5, 5, 1)
EXACT_CALLER(7, 7, 1)
EXACT_CALLER(16, 7, 1)
EXACT_CALLER(64, 64, 1)
EXACT_CALLER(65, 65, 2)
EXACT_CALLER(130, 129, 3)

/* The 21364: 16 x 7 with read-port pairs and eight buffer views. */
static int exact_21364(sa_switch_kind kind) {
    sa_switch_desc d;
    sa_switch a;
    sa_match mt;
    sa_read_buffer views[8];
    uint64_t req[16], packets[3];
    int32_t prio[16 * 7];
    int16_t nomination[16];
    size_t size;
    void *memory;
    int b, i, total = 0;
    if (sa_switch_desc_21364(&d, kind, kind == SA_SWITCH_SPAA || kind == SA_SWITCH_PIM) != SA_OK) return -1;
    size = sa_switch_memory_size(&d);
    memory = malloc(size ? size : 1);
    if (memory == NULL || sa_switch_init(&a, &d, memory, size) != SA_OK) {
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
    for (i = 0; i < 16 * 7; i++) prio[i] = (int32_t)(i * 13) % 7;
    total += sa_switch_allocate(&a, req, prio, views, &mt);
    total += sa_switch_allocate(&a, req, NULL, views, &mt);
    if (kind == SA_SWITCH_SPAA) {
        sa_spaa_nominate(&a, req, prio, views, nomination);
        total += sa_spaa_grant(&a, nomination, &mt);
    }
    free(memory);
    return total;
}

int main(void) {
    int k, i;
    for (k = 0; k < 2 * SA_SWITCH_KIND_COUNT; k++) {
        sa_switch_kind kind = (sa_switch_kind)(k % SA_SWITCH_KIND_COUNT);
        int option = k >= SA_SWITCH_KIND_COUNT, r[8];
        r[0] = exact_1x1(kind, option);
        r[1] = exact_5x5(kind, option);
        r[2] = exact_7x7(kind, option);
        r[3] = exact_16x7(kind, option);
        r[4] = exact_64x64(kind, option);
        r[5] = exact_65x65(kind, option);
        r[6] = exact_130x129(kind, option);
        r[7] = exact_21364(kind);
        for (i = 0; i < 8; i++)
            if (r[i] < 0) {
                printf("%s: case %d failed\n", sa_switch_kind_name(kind), i);
                return 1;
            }
    }
    return 0;
}
