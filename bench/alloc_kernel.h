/* SPDX-License-Identifier: MIT */
/* alloc_kernel.h - interface of bench_alloc's timed loops (alloc_kernel.c,
 * compiled once per build of the header: ba_fast_ and ba_ref_). */
#ifndef ALLOC_KERNEL_H
#define ALLOC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* A pool of request sets, each in two forms: its request rows (w words a
 * row), and, for each input, the list of outputs it has packets for, from
 * which a simulator builds the rows.  Input i of set s takes its requests
 * from row row_of[s * n + i] of a table of random rows (so the sets are
 * distinct while the lists stay in cache, as a simulator's state would). */
typedef struct ba_pool {
    int n, m, w, sets;
    const uint64_t *masks;       /* sets x n rows of w words */
    const uint16_t *row_of;      /* sets x n table rows */
    const uint16_t *row_outputs; /* m outputs per table row */
    const uint16_t *row_count;   /* outputs of each table row */
    const int32_t *prio;         /* NULL, or prio_sets x n x m priorities */
    int prio_sets;
} ba_pool;

typedef struct ba_alloc ba_alloc;

/* An allocator's options beyond its kind and sizes (sa_switch_desc's
 * fields of the same names). */
typedef struct ba_options {
    int iterations, wavefront, pointer_rule, idle;
} ba_options;

#define BA_DECLARE(p) \
    ba_alloc *p##make(int kind, int n, int m, const ba_options *o, uint64_t seed); \
    void p##free(ba_alloc *x); \
    long p##pass(ba_alloc *x, const ba_pool *pool, int sim); \
    size_t p##memory_size(int kind, int n, int m);

BA_DECLARE(ba_fast_)
BA_DECLARE(ba_ref_)

#endif
