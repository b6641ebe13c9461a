/* SPDX-License-Identifier: MIT */
/* nc_parts_util.h - what the tests of a network cut into parts share
 * (test_netsim.c, test_bgl_sim.c): a log of delivered packets to compare
 * runs by, and one cycle of parts run in turn in one process. */
#ifndef NC_PARTS_UTIL_H
#define NC_PARTS_UTIL_H

#include "../examples/common/net_core.h"

/* A delivered packet, as runs are compared. */
typedef struct nc_trec { uint64_t t_create, t_inject, t_deliver; uint32_t src, dst, hops; } nc_trec;
typedef struct nc_tlog { nc_trec *rec; size_t n, cap; } nc_tlog;

/* on_deliver: append the packet to the nc_tlog ctx. */
static void nc_tlog_deliver(void *ctx, const sim_packet *pk, uint64_t now) {
    nc_tlog *l = (nc_tlog *)ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->rec = (nc_trec *)realloc(l->rec, l->cap * sizeof(nc_trec));
        if (!l->rec) sim_die("out of memory");
    }
    memset(&l->rec[l->n], 0, sizeof(nc_trec));
    l->rec[l->n].t_create = pk->t_create; l->rec[l->n].t_inject = pk->t_inject; l->rec[l->n].t_deliver = now;
    l->rec[l->n].src = pk->src; l->rec[l->n].dst = pk->dst; l->rec[l->n].hops = pk->hops;
    l->n++;
}

static int nc_trec_cmp(const void *a, const void *b) {
    const nc_trec *x = (const nc_trec *)a, *y = (const nc_trec *)b;
    if (x->t_create != y->t_create) return x->t_create < y->t_create ? -1 : 1;
    return x->src < y->src ? -1 : x->src > y->src;
}

/* Sort a log by creation, then source (one packet per source and cycle). */
static void nc_tlog_sort(nc_tlog *l) { qsort(l->rec, l->n, sizeof(nc_trec), nc_trec_cmp); }

/* One cycle of the parts net[0..parts), run in turn, handing every
 * outbox to its part at each multiple of the lookahead and when `last`;
 * returns non-zero if a part wrote to its own outbox. */
static int nc_tparts_cycle(nc_net *net, int parts, int last) {
    int q, q2, bad = 0;
    for (q = 0; q < parts; q++) nc_run(&net[q], 1, NULL, NULL);
    if (net[0].now % net[0].lookahead == 0 || last)
        for (q = 0; q < parts; q++)
            for (q2 = 0; q2 < parts; q2++) {
                sim_outbox *b = &net[q].outbox[q2];
                if (q2 == q) { bad |= b->len != 0; continue; }
                nc_import(&net[q2], b->buf, b->len);
                b->len = 0;
            }
    return bad;
}

/* Run the built parts net[0..parts) for `cycles` cycles, logging every
 * delivery into *log (sorted at the end); returns 0, or -1 when a part
 * wrote to its own outbox, an audit fails or packets were lost in the
 * hand-overs (none handed over at all with several parts counts as lost).
 * The caller frees the parts and their models. */
static int nc_tparts_run(nc_net *net, int parts, uint64_t cycles, nc_tlog *log) {
    uint64_t c, ex = 0, im = 0;
    int q, bad = 0;
    for (q = 0; q < parts; q++) {
        net[q].on_deliver = nc_tlog_deliver;
        net[q].on_deliver_ctx = log;
    }
    for (c = 0; c < cycles; c++) bad |= nc_tparts_cycle(net, parts, c + 1 == cycles);
    for (q = 0; q < parts; q++) {
        bad |= nc_audit(&net[q]) != NULL;
        ex += net[q].exported;
        im += net[q].imported;
    }
    nc_tlog_sort(log);
    return bad || ex != im || (parts > 1 && ex == 0) ? -1 : 0;
}

#endif
