/* SPDX-License-Identifier: MIT */
/* merging_model.h - the traffic-merging network of Abts and Weisser, SC'07
 * (seed 000), Figure 4: an 8-node line (8-ary 1-mesh) or ring (8-ary
 * 1-cube) where processors P0..P6 all send to P7 as fast as they can.
 *
 * One copy of the model, used by examples/merging.c (the table of shares)
 * and web/shim.c (the interactive page, which shows its state cycle by
 * cycle).  The model is small on purpose: one-flit packets, one cycle per
 * hop, per-input FIFOs of 4 packets with credit flow control, one virtual
 * channel.  Each router runs the SeaStar aging procedures of seastar_arb.h:
 * Procedure 1 when a packet enters an input FIFO, Procedure 2 at the head of
 * the FIFO, the output arbiter with AGE_RR_SELECT, and Procedure 3 every
 * cycle.  On the ring, P3 is 4 hops from P7 either way; it goes the +x way,
 * the tie-break that gives the paper's torus shares.
 *
 * Include seastar_arb.h first when the caller configures it (the web shim
 * sets SA_SWITCH_MAX); otherwise this header includes it.
 */
#ifndef MERGING_MODEL_H
#define MERGING_MODEL_H

#include <stdint.h>
#include <string.h>
#include "../../seastar_arb.h"

#define MERGING_NODES 8
#define MERGING_DEST 7
#define MERGING_DEPTH 4
/* Input ports of a router and, in the same numbering, output ports. */
enum { MERGING_IN_PROC, MERGING_IN_LEFT, MERGING_IN_RIGHT, MERGING_INS };
enum { MERGING_OUT_PLUS, MERGING_OUT_MINUS, MERGING_OUT_EJECT, MERGING_OUTS };

typedef struct merging_packet { int src; uint16_t age_field; } merging_packet;
typedef struct merging_fifo { merging_packet slot[MERGING_DEPTH]; int head, len; } merging_fifo;

typedef struct merging_router {
    sa_age_clock clk;
    sa_output_arb arb[MERGING_OUTS];
    merging_fifo in[MERGING_INS];
    sa_grant last[MERGING_OUTS];    /* each output's grant in the last cycle (candidate -1: none) */
} merging_router;

typedef struct merging_net {
    int torus;                       /* 1 ring, 0 line */
    long cycle;                      /* cycles run */
    sa_age_config cfg;
    merging_router r[MERGING_NODES];
    long delivered[MERGING_NODES];   /* packets delivered to P7, per source */
} merging_net;

/* The output a packet at `node` takes toward P7: +x on the line; on the
 * ring the shorter way, +x when both are 4 hops. */
static int merging_output(const merging_net *net, int node) {
    int plus = (MERGING_DEST - node + MERGING_NODES) % MERGING_NODES;
    if (node == MERGING_DEST) return MERGING_OUT_EJECT;
    if (!net->torus || plus <= MERGING_NODES - plus) return MERGING_OUT_PLUS;
    return MERGING_OUT_MINUS;
}

/* The router and input port behind output `out` of `node`; 0 when there is
 * none (ejection, or the end of the line). */
static int merging_next(const merging_net *net, int node, int out, int *next, int *port) {
    if (out == MERGING_OUT_PLUS && (net->torus || node < MERGING_NODES - 1)) {
        *next = (node + 1) % MERGING_NODES;
        *port = MERGING_IN_LEFT;
        return 1;
    }
    if (out == MERGING_OUT_MINUS && (net->torus || node > 0)) {
        *next = (node + MERGING_NODES - 1) % MERGING_NODES;
        *port = MERGING_IN_RIGHT;
        return 1;
    }
    return 0;
}

static void merging_enqueue(merging_net *net, int node, int port, merging_packet p) {
    merging_router *r = &net->r[node];
    merging_fifo *f = &r->in[port];
    sa_age_arrive(&r->clk, &net->cfg, port, 0, &p.age_field);           /* Procedure 1 */
    f->slot[(f->head + f->len) % MERGING_DEPTH] = p;
    f->len++;
}

/* Set up the network, empty.  age_based: AGE_RR_SELECT all ones (1) or all
 * zeros (0, round-robin); bias: REQ_AGE_BIAS of the two network inputs;
 * proc_bias: that of the processor port (seed 000's footnote 5 suggests 0
 * there).  Returns the configuration's sa_result (a bias above 7 is
 * refused). */
static sa_result merging_setup(merging_net *net, int torus, int age_based, uint32_t period,
                               int bias, int proc_bias) {
    sa_result res;
    int i, o, p;
    memset(net, 0, sizeof *net);
    net->torus = torus != 0;
    sa_age_config_default(&net->cfg, MERGING_INS);
    net->cfg.age_clock_period = period;
    net->cfg.age_rr_select = age_based ? ~(uint64_t)0 : 0;
    net->cfg.num_vcs = 1;
    net->cfg.response_vcs = 0;
    for (p = 0; p < MERGING_INS; p++) {
        int b = p == MERGING_IN_PROC ? proc_bias : bias;
        net->cfg.req_age_bias[p] = (uint8_t)(b < 0 || b > 255 ? 255 : b);
    }
    res = sa_age_config_validate(&net->cfg);
    if (res != SA_OK) return res;
    for (i = 0; i < MERGING_NODES; i++) {
        sa_age_clock_init(&net->r[i].clk, &net->cfg);
        for (o = 0; o < MERGING_OUTS; o++) {
            sa_output_arb_init(&net->r[i].arb[o], MERGING_INS, 1);
            net->r[i].last[o].candidate = -1;
        }
    }
    return SA_OK;
}

/* One output's arbitration: the heads routed to it compete by their ages
 * (Procedure 2) under the policy AGE_RR_SELECT gives this grant.  Returns
 * the input port granted, or -1. */
static int merging_arbitrate(merging_net *net, int node, int out) {
    merging_router *r = &net->r[node];
    uint8_t ages[MERGING_INS];
    uint64_t eligible = 0;
    int p;
    for (p = 0; p < MERGING_INS; p++) {
        const merging_fifo *f = &r->in[p];
        ages[p] = 0;
        if (f->len == 0 || merging_output(net, node) != out) continue;
        eligible |= (uint64_t)1 << p;
        ages[p] = (uint8_t)sa_age_at_head(&r->clk, f->slot[f->head].age_field);
    }
    return sa_output_arbitrate(&r->arb[out], &net->cfg, &r->clk, eligible, ages, &r->last[out]);
}

/* One cycle: each output of each router grants one head packet whose next
 * FIFO has room at the start of the cycle (so a packet moves one hop per
 * cycle); the winners move; the processors P0..P6 refill their injection
 * FIFOs; every age clock ticks.  Deliveries count only when `counting`. */
static void merging_cycle(merging_net *net, int counting) {
    int room[MERGING_NODES][MERGING_INS], won[MERGING_NODES][MERGING_OUTS];
    int i, o, p;
    for (i = 0; i < MERGING_NODES; i++)
        for (p = 0; p < MERGING_INS; p++) room[i][p] = MERGING_DEPTH - net->r[i].in[p].len;
    for (i = 0; i < MERGING_NODES; i++)
        for (o = 0; o < MERGING_OUTS; o++) {
            int next = 0, port = 0, linked = merging_next(net, i, o, &next, &port);
            won[i][o] = -1;
            net->r[i].last[o].candidate = -1;
            if (o != MERGING_OUT_EJECT && (!linked || room[next][port] == 0)) continue;
            won[i][o] = merging_arbitrate(net, i, o);
            if (won[i][o] >= 0 && linked) room[next][port]--;
        }
    for (i = 0; i < MERGING_NODES; i++)
        for (o = 0; o < MERGING_OUTS; o++) {
            merging_router *r = &net->r[i];
            merging_fifo *f;
            merging_packet pk;
            int next = 0, port = 0;
            if (won[i][o] < 0) continue;
            f = &r->in[won[i][o]];
            pk = f->slot[f->head];
            f->head = (f->head + 1) % MERGING_DEPTH;
            f->len--;
            sa_age_depart(&r->clk, &pk.age_field);                   /* Procedure 2: age out */
            if (merging_next(net, i, o, &next, &port)) merging_enqueue(net, next, port, pk);
            else if (counting) net->delivered[pk.src]++;
        }
    for (i = 0; i < MERGING_NODES; i++) {
        if (i != MERGING_DEST && net->r[i].in[MERGING_IN_PROC].len < MERGING_DEPTH) {
            merging_packet pk;
            pk.src = i;
            pk.age_field = 0;                                       /* new packets start at age 0 */
            merging_enqueue(net, i, MERGING_IN_PROC, pk);
        }
        sa_age_tick(&net->r[i].clk);                                /* Procedure 3 */
    }
    net->cycle++;
}

#endif /* MERGING_MODEL_H */
