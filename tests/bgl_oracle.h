/* SPDX-License-Identifier: MIT */
/* bgl_oracle.h - the BlueGene/L arbitration rules of seed 003 lines 59-65
 * written out a second time, from the paper and not from seastar_arb.h: the
 * oracle of tests/test_bgl_arb.c and tests/fuzz/fuzz_bgl_arb.c (tests
 * only).  Each function says whether an answer is one the rule allows. */
#ifndef BGL_ORACLE_H
#define BGL_ORACLE_H

#include <stdint.h>

/* The members of `mask` with the highest level. */
static inline uint64_t bo_best(uint64_t mask, const uint8_t *level) {
    uint64_t best = 0;
    int i, top = -1;
    for (i = 0; i < 64; i++)
        if ((mask >> i) & 1) {
            if (level[i] > top) { top = level[i]; best = 0; }
            if (level[i] == top) best |= (uint64_t)1 << i;
        }
    return best;
}

static inline int bo_in(uint64_t mask, int got) { return got >= 0 && got < 64 && ((mask >> got) & 1); }

/* JSQ: the most tokens among the possible and available dynamic pairs;
 * else the escape if available; else no request (-1). */
static inline int bo_jsq_ok(uint64_t possible, uint64_t available, const uint8_t *range, int escape, int got) {
    if (possible & available) return bo_in(bo_best(possible & available, range), got);
    if (escape >= 0 && escape < 64 && ((available >> escape) & 1)) return got == escape;
    return got == -1;
}

/* SLQ at a receiver: the high-priority requests if any; the bypass only
 * when nothing else of that group requests; the fullest on SLQ cycles, any
 * on the others; -1 without requests. */
static inline int bo_receiver_ok(uint64_t req, uint64_t hp, const uint8_t *full, int bypass, int slq, int got) {
    uint64_t by = bypass >= 0 && bypass < 64 ? (uint64_t)1 << bypass : 0, pool;
    if (!req) return got == -1;
    pool = (req & hp) ? req & hp : req;
    if (pool & ~by) pool &= ~by;
    return bo_in(slq ? bo_best(pool, full) : pool, got);
}

/* SLQ at a sender: the ack first (-2); the high-priority requests, those
 * in the network before those in injection FIFOs; else the group the cycle
 * favours (in-network on a network cycle, injection on the others), the
 * other group when it is empty; the fullest on SLQ cycles. */
static inline int bo_sender_ok(int ack, uint64_t req, uint64_t inj, uint64_t hp, const uint8_t *full, int network_cycle,
                               int slq, int got) {
    uint64_t pool, net = req & ~inj, in = req & inj;
    if (ack) return got == -2;
    if (!req) return got == -1;
    if (req & hp) pool = (req & hp & ~inj) ? req & hp & ~inj : req & hp;
    else if (network_cycle) pool = net ? net : in;
    else pool = in ? in : net;
    return bo_in(slq ? bo_best(pool, full) : pool, got);
}

#endif
