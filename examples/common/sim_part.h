/* SPDX-License-Identifier: MIT */
/* sim_part.h - the hand-over between the parts of a parallel run, shared
 * by the network models of examples/ (seastar_net.h, net_core.h); example
 * code, not the installed library.
 *
 * A parallel run cuts the routers of a network into parts (MPI ranks, or
 * parts simulated in turn in one process).  A part simulates its own
 * routers only; an event bound for another part's router -- a packet on a
 * link that crosses the cut, a credit going back over it -- goes into
 * that part's outbox and is handed over every lookahead cycles, before it
 * can be due (the conservative synchronisation of parallel discrete-event
 * simulation: every such event is due at least lookahead cycles after it
 * was sent).  An outbox is a sequence of records: an event (sim_xrec) for
 * the receiving part's timing wheel, followed, for a packet, by the packet
 * and the model's own bytes for it.
 */
#ifndef SIM_PART_H
#define SIM_PART_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sim_pool.h"

/** Events for the routers of one other part, not yet handed over. */
typedef struct sim_outbox {
    unsigned char *buf;        /**< the records */
    size_t len, cap;           /**< bytes used, allocated */
} sim_outbox;

/** One record of an outbox: an event for the receiving part's wheel. */
typedef struct sim_xrec {
    uint64_t t;                /**< cycle it is due */
    uint32_t a, b;             /**< the event (a packet's a is replaced by
                                    its index in the receiver's pool) */
} sim_xrec;

/* Room for len more bytes in outbox b. */
static inline unsigned char *sim__outbox_room(sim_outbox *b, size_t len) {
    if (b->len + len > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 4096;
        unsigned char *nb;
        while (ncap < b->len + len) ncap *= 2;
        nb = (unsigned char *)realloc(b->buf, ncap);
        if (nb == NULL) sim_die("out of memory (outbox)");
        b->buf = nb;
        b->cap = ncap;
    }
    b->len += len;
    return b->buf + b->len - len;
}

/** Append event (a, b) due at cycle t to outbox box; with pk non-NULL,
 *  the packet follows it, then extra_len bytes of extra (the model's own
 *  data for the packet, or nothing). */
static inline void sim_outbox_put(sim_outbox *box, uint64_t t, uint32_t a, uint32_t b,
                                  const sim_packet *pk, const void *extra, size_t extra_len) {
    sim_xrec x;
    size_t plen = pk ? sizeof(sim_packet) + extra_len : 0;
    unsigned char *w = sim__outbox_room(box, sizeof x + plen);
    x.t = t; x.a = a; x.b = b;
    memcpy(w, &x, sizeof x);
    if (pk) {
        memcpy(w + sizeof x, pk, sizeof(sim_packet));
        if (extra_len) memcpy(w + sizeof x + sizeof(sim_packet), extra, extra_len);
    }
}

/** Free the outboxes of a run (n of them) and the array. */
static inline void sim_outboxes_free(sim_outbox *box, int n) {
    int q;
    if (!box) return;
    for (q = 0; q < n; q++) free(box[q].buf);
    free(box);
}

/** Read the record at *at of buf (len bytes, what another part's outbox
 *  held for this one) into x and move past it.  Returns 0 at the end. */
static inline int sim_inbox_next(const unsigned char *buf, size_t len, size_t *at, sim_xrec *x) {
    if (*at >= len) return 0;
    if (len - *at < sizeof *x) sim_die("hand-over: truncated record");
    memcpy(x, buf + *at, sizeof *x);
    *at += sizeof *x;
    return 1;
}

/** The packet following the record just read: into a new slot of pool,
 *  whose index is returned; *at moves past it. */
static inline uint32_t sim_inbox_packet(const unsigned char *buf, size_t len, size_t *at, sim_pool *pool) {
    uint32_t pi, next;
    if (len - *at < sizeof(sim_packet)) sim_die("hand-over: truncated packet");
    pi = sim_pool_alloc(pool);
    next = pool->pkt[pi].next;
    memcpy(&pool->pkt[pi], buf + *at, sizeof(sim_packet));
    pool->pkt[pi].next = next;
    *at += sizeof(sim_packet);
    return pi;
}

/** The model's n bytes for the packet just read, into dst. */
static inline void sim_inbox_bytes(const unsigned char *buf, size_t len, size_t *at, void *dst, size_t n) {
    if (len - *at < n) sim_die("hand-over: truncated packet data");
    memcpy(dst, buf + *at, n);
    *at += n;
}

#endif /* SIM_PART_H */
