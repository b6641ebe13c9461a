/* SPDX-License-Identifier: MIT */
/* test_route_oracle.c - seastar_route.h: the verifier's verdict against an
 * independent check on a sample of fault sets and tables: every pair
 * walked hop by hop without memoisation, the dependency graph built as an
 * explicit edge set, and its cycles found by Kahn's algorithm. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

typedef struct ro_result {
    int kind;                 /* 0 proven, 1 a delivery failure, 2 a dependency cycle */
    uint32_t src, dst;        /* the first failing pair (by destination, then source) */
    uint64_t delivered, unroutable, hops, edges;
} ro_result;

/* The independent check.  A channel is (router, network port, VC): the
 * link leaving the router by that port, on that VC.  As sr_verify
 * documents it, every live source is followed, the destination itself
 * included (its own injection entry; not counted as a pair), and the
 * dependency graph has the edges of delivered packets (a pair declared
 * unroutable is never sent). */
static ro_result ro_check(const sr_topology *t, const sr_faults *f, const uint8_t *tab) {
    const uint32_t N = t->num_nodes, NP = (uint32_t)t->proc_port, C = N * NP * 2;
    uint8_t *edge = (uint8_t *)calloc((size_t)C * C / 8 + 1, 1);
    uint32_t *indeg = (uint32_t *)calloc(C, 4), *queue = (uint32_t *)malloc((size_t)C * 4);
    uint32_t *walk = (uint32_t *)malloc((size_t)(2 * N * (NP + 1) + 2) * 4);
    ro_result r;
    uint32_t dst, src, a, b, head = 0, tail = 0, removed = 0;
    memset(&r, 0, sizeof r);
    for (dst = 0; dst < N && r.kind == 0; dst++) {
        if (!sr_node_ok(f, dst)) continue;
        for (src = 0; src < N && r.kind == 0; src++) {
            uint32_t u = src, steps = 0, j;
            int ip = t->proc_port, vc = 0, bad = 0;
            if (!sr_node_ok(f, src)) continue;
            for (;;) {
                sr_entry e = sr_table_lookup(t, tab + (size_t)u * t->table_size, u, ip, dst);
                int port = sr_entry_port(e), nvc;
                uint32_t v, ch;
                if (port == SR_PORT_NONE) { r.unroutable += src != dst; break; }
                if (port == t->proc_port) {
                    if (u != dst) { bad = 1; break; }
                    r.delivered += src != dst;
                    r.hops += src != dst ? steps : 0;
                    for (j = 1; j < steps; j++)      /* its dependencies */
                        edge[((size_t)walk[j - 1] * C + walk[j]) >> 3] |=
                            (uint8_t)(1u << ((walk[j - 1] * C + walk[j]) & 7));
                    break;
                }
                if (port > t->proc_port || port == ip || steps > 2 * N * (NP + 1)) { bad = 1; break; }
                v = sr_next_hop(t, f, u, port);
                if (v == SR_NO_NODE) { bad = 1; break; }
                nvc = sr_entry_vc(e, vc);
                ch = (u * NP + (uint32_t)port) * 2 + (uint32_t)nvc;
                walk[steps] = ch;
                u = v; ip = port ^ 1; vc = nvc; steps++;
            }
            if (bad) { r.kind = 1; r.src = src; r.dst = dst; }
        }
    }
    if (r.kind == 0) {
        for (a = 0; a < C; a++)
            for (b = 0; b < C; b++)
                if ((edge[((size_t)a * C + b) >> 3] >> ((a * C + b) & 7)) & 1) { indeg[b]++; r.edges++; }
        for (a = 0; a < C; a++)
            if (!indeg[a]) queue[tail++] = a;
        while (head < tail) {
            a = queue[head++];
            removed++;
            for (b = 0; b < C; b++)
                if ((edge[((size_t)a * C + b) >> 3] >> ((a * C + b) & 7)) & 1 && --indeg[b] == 0) queue[tail++] = b;
        }
        if (removed < C) r.kind = 2;
    }
    free(edge); free(indeg); free(queue); free(walk);
    return r;
}

/* Compare sr_verify with the independent check; returns the verdict kind,
 * or -1 after a failed check. */
static int ro_compare(st_ctx *st__ctx, const sr_topology *t, const sr_faults *f, const uint8_t *tab,
                      const char *what) {
    size_t n = sr_verify_scratch_size(t);
    void *scratch = malloc(n);
    sr_verify_report v;
    ro_result o = ro_check(t, f, tab);
    int ok;
    memset(&v, 0, sizeof v);
    ok = sr_verify(t, f, tab, 0, scratch, n, &v) == SR_OK;
    free(scratch);
    if (ok && o.kind == 0)
        ok = v.proven && v.delivered == o.delivered && v.unroutable == o.unroutable &&
             v.total_hops == o.hops && v.dependencies == o.edges;
    else if (ok && o.kind == 1)
        ok = !v.proven && v.failure != SR_FAIL_DEADLOCK && v.src == o.src && v.dst == o.dst;
    else if (ok)
        ok = !v.proven && v.failure == SR_FAIL_DEADLOCK && v.delivered == o.delivered &&
             v.unroutable == o.unroutable;
    if (!ok) {
        st_fail_begin(st__ctx, __FILE__, __LINE__, "sr_verify agrees with the independent check");
        fprintf(stderr, "    %s: check kind %d (pair %u -> %u, %llu delivered, %llu unroutable, %llu edges);"
                        " verifier %s (%s, pair %u -> %u, %llu delivered, %llu unroutable, %llu edges)\n",
                what, o.kind, o.src, o.dst, (unsigned long long)o.delivered, (unsigned long long)o.unroutable,
                (unsigned long long)o.edges, v.proven ? "proven" : "refuted", sr_failure_string(v.failure), v.src,
                v.dst, (unsigned long long)v.delivered, (unsigned long long)v.unroutable,
                (unsigned long long)v.dependencies);
        return -1;
    }
    return o.kind;
}

ST_TEST(route_verifier_agrees_with_an_independent_walk) {
    /* 36 fault sets of one to six faults on 4x4x4 and 5x4x3 (y a mesh)
     * tori; for each, SeaStar tables (datelines placed, and left on the
     * wrap links), search tables, and the SeaStar tables with three
     * entries overwritten at random.  The verdicts, counts and dependency
     * totals agree, and the sample holds proofs, delivery failures and
     * dependency cycles. */
    static const int shapes[2][3] = { { 4, 4, 4 }, { 5, 4, 3 } }, meshes[2][3] = { { 0, 0, 0 }, { 0, 1, 0 } };
    uint64_t seed = 17;
    int trial, seen[3] = { 0, 0, 0 };
    for (trial = 0; trial < 36; trial++) {
        sr_topology t;
        sr_faults f;
        sr_seastar_options fixed;
        sr_gen_report g;
        uint32_t *fs;
        uint8_t *tab;
        void *gs;
        size_t tsz, gsz;
        int i, nf, variant;
        ST_CHECK(rt_make(&t, 3, shapes[trial % 2], meshes[trial % 2], NULL));
        fs = (uint32_t *)malloc(sr_faults_size(&t));
        ST_EQ(SR_OK, sr_faults_init(&f, &t, fs, sr_faults_size(&t)));
        nf = 1 + (int)st_rand_below(&seed, 6);
        for (i = 0; i < nf; i++) {
            uint32_t u = st_rand_below(&seed, t.num_nodes);
            if (st_rand_below(&seed, 5) == 0) sr_fault_node(&f, &t, u);
            else sr_fault_link(&f, &t, u, (int)st_rand_below(&seed, 6));
        }
        tsz = (size_t)t.table_size * t.num_nodes;
        gsz = sr_gen_scratch_size(&t);
        tab = (uint8_t *)malloc(tsz);
        gs = malloc(gsz);
        memset(&fixed, 0, sizeof fixed);
        fixed.fixed_datelines = 1;
        for (variant = 0; variant < 4; variant++) {
            int kind;
            if (variant == 2) ST_CHECK(rt_gen_written(sr_tables_build_search(&t, &f, NULL, tab, tsz, gs, gsz, NULL, 0, &g)));
            else ST_CHECK(rt_gen_written(sr_tables_build_seastar_opt(&t, &f, variant == 1 ? &fixed : NULL, tab, tsz, gs,
                                                                     gsz, NULL, 0, &g)));
            if (variant == 3)
                for (i = 0; i < 3; i++) {
                    uint32_t u = st_rand_below(&seed, t.num_nodes), d;
                    int ip = (int)st_rand_below(&seed, (uint32_t)t.num_ports), port, vcu;
                    d = st_rand_below(&seed, t.num_nodes);
                    port = (int)st_rand_below(&seed, (uint32_t)t.num_ports);
                    vcu = 1 + (int)st_rand_below(&seed, 2);
                    tab[(size_t)u * t.table_size + (size_t)ip * t.table_stride + SR_GLUT_ENTRIES + d] =
                        sr_entry_make(port, vcu);
                }
            kind = ro_compare(st__ctx, &t, &f, tab, variant == 3 ? "overwritten" : "generated");
            if (kind < 0) { free(tab); free(gs); free(fs); return; }
            seen[kind]++;
        }
        free(tab); free(gs); free(fs);
    }
    ST_CHECK(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
}
