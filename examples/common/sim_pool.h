/* SPDX-License-Identifier: MIT */
/* sim_pool.h - packet pool, intrusive FIFOs and a timing wheel for the
 * cycle-level simulators in examples/ (SeaStar network, Alpha 21364 model).
 *
 * Example code, not part of the installed library: it allocates with malloc
 * and aborts on out-of-memory.  Everything is "static inline" so tests,
 * examples and benchmarks can include it from several translation units.
 *
 * Design for speed: packets live in one flat growable array and are named by
 * 32-bit indices; every queue is a linked list threaded through the packets
 * (a packet is in exactly one queue at a time), so a router's queues cost two
 * indices each however deep they are; events are 8-byte records in a timing
 * wheel, so the work of a cycle is proportional to what happens in it.
 */
#ifndef SIM_POOL_H
#define SIM_POOL_H

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#if defined(__linux__) && defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200112L
#include <sys/mman.h>
#endif

/** No packet: the end of a list, an empty queue. */
#define SIM_NIL 0xFFFFFFFFu

/** A packet, as every model in examples/ sees it. */
typedef struct sim_packet {
    uint32_t next;        /**< next packet in the queue holding this one */
    uint32_t src;         /**< source node */
    uint32_t dst;         /**< destination node */
    uint32_t tag;         /**< the traffic source's own word (sim_jobs.h:
                               the step that sent it) */
    uint64_t t_create;    /**< cycle the source generated it */
    uint64_t t_inject;    /**< cycle its header entered the network */
    uint64_t t_hop;       /**< cycle its header reached the current router */
    uint64_t t_ready;     /**< cycle it may leave the current staging buffer */
    uint16_t age_field;   /**< the 11-bit header age field (seed 000 Table 1) */
    uint8_t size;         /**< flits: header + data (SeaStar: 1..9) */
    uint8_t vc;           /**< VC it travels on into the current router */
    uint8_t in_port;      /**< input port at the current router */
    uint8_t out_port;     /**< output port chosen by routing at this router */
    uint8_t out_vc;       /**< VC on the next link */
    uint8_t hops;         /**< links traversed so far */
    uint8_t state;        /**< SIM_PKT_FREE or the model's own state codes */
    /* The packet behind this one in a queue whose head fields a model
     * keeps apart (seastar_net.h's staging buffers): its fields, written
     * when it joins the queue, so that taking this packet out sets the new
     * head's without reading the new head. */
    uint8_t behind_vc;    /**< its out_vc */
    uint16_t behind_age;  /**< its age_field */
    uint32_t behind_ready;/**< the low 32 bits of its t_ready */
} sim_packet;

/* A packet is one 64-byte cache line. */
typedef char sim__packet_is_64_bytes[sizeof(sim_packet) == 64 ? 1 : -1];

/** Packet state of a free pool slot. */
#define SIM_PKT_FREE 0

/** The packet pool: a growable array with a free list. */
typedef struct sim_pool {
    sim_packet *pkt;      /**< the packets (64-byte aligned: one cache line
                               each) */
    void *raw;            /**< the allocation holding pkt */
    uint32_t cap;         /**< slots allocated */
    uint32_t used;        /**< slots ever handed out (high-water mark) */
    uint32_t free_head;   /**< first free slot below used, or SIM_NIL */
    uint64_t live;        /**< packets allocated and not freed */
} sim_pool;

/** Abort with a message: the simulators stop on any internal error. */
static inline void sim_die(const char *msg) {
    fprintf(stderr, "fatal: %s\n", msg);
    exit(2);
}

/** Allocate zeroed memory or abort. */
static inline void *sim_calloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) sim_die("out of memory");
    return p;
}

/** Arrays of at least this many bytes are put on transparent huge pages
 *  where the system offers them (see sim_calloc_aligned64). */
#define SIM_HUGE_MIN ((size_t)4 << 20)
/** The huge page size the large arrays are aligned to. */
#define SIM_HUGE_PAGE ((size_t)2 << 20)

/** Allocate zeroed memory for n elements of size bytes starting on a
 *  64-byte boundary (a cache line) or abort; *raw receives the pointer to
 *  pass to free().
 *
 *  An array of SIM_HUGE_MIN bytes or more is aligned to SIM_HUGE_PAGE and,
 *  on Linux with POSIX interfaces enabled, advised onto transparent huge
 *  pages (madvise advice 14, MADV_HUGEPAGE, which glibc's posix_madvise
 *  passes through).  The simulators touch their large arrays (routing
 *  tables, output ports, packets) at random; with 4 KiB pages nearly every
 *  such access of a large network also misses the TLB.  The advice changes
 *  no result; where it is refused or unknown the pages stay small. */
static inline void *sim_calloc_aligned64(size_t n, size_t size, void **raw);

/* sim_calloc_aligned64, but a large array's contents are left as the
 * allocator returns them (zero only if zero is non-zero): its pages are
 * then committed as they are first written, not all up front. */
static inline void *sim__alloc_aligned64(size_t n, size_t size, void **raw, int zero) {
    unsigned char *p;
    size_t bytes = (n ? n : 1) * (size ? size : 1);
    (void)zero;   /* the small-array path always zeroes (calloc) */
    if (size && bytes / size != (n ? n : 1)) sim_die("out of memory");
#if defined(__linux__) && defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200112L
    if (bytes >= SIM_HUGE_MIN) {
        void *q = NULL;
        size_t len = (bytes + SIM_HUGE_PAGE - 1) & ~(SIM_HUGE_PAGE - 1);
        if (posix_memalign(&q, SIM_HUGE_PAGE, len) != 0 || q == NULL) sim_die("out of memory");
        (void)posix_madvise(q, len, 14 /* MADV_HUGEPAGE */);
        if (zero) memset(q, 0, len);
        *raw = q;
        return q;
    }
#endif
    p = (unsigned char *)sim_calloc(bytes + 64, 1);
    *raw = p;
    return p + ((64u - ((uintptr_t)p & 63u)) & 63u);
}

static inline void *sim_calloc_aligned64(size_t n, size_t size, void **raw) {
    return sim__alloc_aligned64(n, size, raw, 1);
}

/** Initialise an empty pool with room for cap packets (it grows). */
static inline void sim_pool_init(sim_pool *p, uint32_t cap) {
    if (cap < 64) cap = 64;
    /* Slots are zeroed by sim_pool_alloc as they are handed out. */
    p->pkt = (sim_packet *)sim__alloc_aligned64(cap, sizeof(sim_packet), &p->raw, 0);
    p->cap = cap;
    p->used = 0;
    p->free_head = SIM_NIL;
    p->live = 0;
}

/** Free a pool's memory. */
static inline void sim_pool_free(sim_pool *p) {
    free(p->raw);
    memset(p, 0, sizeof *p);
}

/** Take a packet slot; its fields are zero except next = SIM_NIL. */
static inline uint32_t sim_pool_alloc(sim_pool *p) {
    uint32_t i;
    if (p->free_head != SIM_NIL) {
        i = p->free_head;
        p->free_head = p->pkt[i].next;
    } else {
        if (p->used == p->cap) {
            uint32_t ncap = p->cap * 2u;
            sim_packet *np;
            void *nraw;
            if (ncap <= p->cap) sim_die("packet pool overflow");
            np = (sim_packet *)sim__alloc_aligned64(ncap, sizeof(sim_packet), &nraw, 0);
            memcpy(np, p->pkt, (size_t)p->cap * sizeof(sim_packet));
            free(p->raw);
            p->raw = nraw;
            p->pkt = np;
            p->cap = ncap;
        }
        i = p->used++;
    }
    memset(&p->pkt[i], 0, sizeof(sim_packet));
    p->pkt[i].next = SIM_NIL;
    p->live++;
    return i;
}

/** Return a packet slot to the pool. */
static inline void sim_pool_release(sim_pool *p, uint32_t i) {
    if (p->pkt[i].state == SIM_PKT_FREE) sim_die("packet freed twice");
    p->pkt[i].state = SIM_PKT_FREE;
    p->pkt[i].next = p->free_head;
    p->free_head = i;
    p->live--;
}

/** Grow *side, an array of elem-byte entries parallel to the pool's
 *  packets (a model's own data per packet), to the pool's capacity; *cap
 *  is its number of entries.  Call after every sim_pool_alloc (it returns
 *  at once when nothing grew). */
static inline void sim_pool_side(const sim_pool *p, void **side, uint32_t *cap, size_t elem) {
    void *n;
    if (*cap >= p->cap) return;
    n = realloc(*side, (size_t)p->cap * elem);
    if (n == NULL) sim_die("out of memory (packet data)");
    *side = n;
    *cap = p->cap;
}

/** A FIFO of packets linked through sim_packet.next. */
typedef struct sim_fifo {
    uint32_t head;  /**< first packet or SIM_NIL */
    uint32_t tail;  /**< last packet or SIM_NIL */
} sim_fifo;

/** Make a FIFO empty. */
static inline void sim_fifo_init(sim_fifo *q) { q->head = q->tail = SIM_NIL; }

/** Append packet i. */
static inline void sim_fifo_push(sim_fifo *q, sim_packet *pk, uint32_t i) {
    pk[i].next = SIM_NIL;
    if (q->tail == SIM_NIL) q->head = i;
    else pk[q->tail].next = i;
    q->tail = i;
}

/** Remove and return the first packet (the queue must not be empty). */
static inline uint32_t sim_fifo_pop(sim_fifo *q, sim_packet *pk) {
    uint32_t i = q->head;
    q->head = pk[i].next;
    if (q->head == SIM_NIL) q->tail = SIM_NIL;
    pk[i].next = SIM_NIL;
    return i;
}

/** One event: a type and two payload words, meaning up to the model. */
typedef struct sim_event {
    uint32_t a;     /**< first payload word */
    uint32_t b;     /**< bits 31:28 the type, bits 27:0 the second payload */
} sim_event;

/** Build the b word of an event. */
#define SIM_EV_B(type, payload) (((uint32_t)(type) << 28) | ((uint32_t)(payload) & 0x0FFFFFFFu))
/** Type of an event. */
#define SIM_EV_TYPE(e) ((e).b >> 28)
/** Second payload of an event. */
#define SIM_EV_PAYLOAD(e) ((e).b & 0x0FFFFFFFu)

/** One slot of the timing wheel: a growable array of events. */
typedef struct sim_slot {
    sim_event *ev;  /**< events due at this slot's cycle */
    uint32_t n;     /**< number of events */
    uint32_t cap;   /**< allocated */
} sim_slot;

/** A timing wheel: events at most size-1 cycles in the future. */
typedef struct sim_wheel {
    sim_slot *slot;   /**< the slots, size a power of two */
    uint32_t mask;    /**< size - 1 */
    uint64_t now;     /**< the current cycle */
    uint64_t pending; /**< events scheduled and not yet taken */
} sim_wheel;

/** Initialise a wheel that can hold events up to horizon cycles ahead. */
static inline void sim_wheel_init(sim_wheel *w, uint32_t horizon) {
    uint32_t size = 1;
    while (size <= horizon + 1u) size <<= 1;
    w->slot = (sim_slot *)sim_calloc(size, sizeof(sim_slot));
    w->mask = size - 1;
    w->now = 0;
    w->pending = 0;
}

/** Free a wheel's memory. */
static inline void sim_wheel_free(sim_wheel *w) {
    uint32_t i;
    if (w->slot)
        for (i = 0; i <= w->mask; i++) free(w->slot[i].ev);
    free(w->slot);
    memset(w, 0, sizeof *w);
}

/* Grow a wheel slot's event array (the rare path of sim_wheel_at). */
#if defined(__GNUC__)
__attribute__((noinline, unused)) static void sim__slot_grow
#else
static inline void sim__slot_grow
#endif
(sim_slot *s) {
    uint32_t ncap = s->cap ? s->cap * 2u : 16u;
    sim_event *ne = (sim_event *)realloc(s->ev, (size_t)ncap * sizeof(sim_event));
    if (ne == NULL) sim_die("out of memory (timing wheel)");
    s->ev = ne;
    s->cap = ncap;
}

/* Append event (a, b) to the slot of cycle t (the callers check t). */
static inline void sim__wheel_put(sim_wheel *w, uint64_t t, uint32_t a, uint32_t b) {
    sim_slot *s = &w->slot[t & w->mask];
    sim_event *e;
    if (s->n == s->cap) sim__slot_grow(s);
    e = &s->ev[s->n++];
    e->a = a;
    e->b = b;
    w->pending++;
}

/** Schedule an event at cycle t, now < t <= now + mask. */
static inline void sim_wheel_at(sim_wheel *w, uint64_t t, uint32_t a, uint32_t b) {
    /* One unsigned comparison: t <= now wraps round to a huge value. */
    if (t - w->now - 1u >= (uint64_t)w->mask) sim_die("event outside the timing wheel");
    sim__wheel_put(w, t, a, b);
}

/** Schedule an event at cycle t, now <= t <= now + mask - 1: like
 *  sim_wheel_at, but t may be the current cycle while its events are not
 *  yet taken (events handed over from another part of a parallel run). */
static inline void sim_wheel_at_or_now(sim_wheel *w, uint64_t t, uint32_t a, uint32_t b) {
    if (t - w->now >= (uint64_t)w->mask) sim_die("event outside the timing wheel");
    sim__wheel_put(w, t, a, b);
}

/** The slot of the current cycle (events are consumed by the caller, which
 *  must set its n to 0 when done). */
static inline sim_slot *sim_wheel_current(sim_wheel *w) {
    return &w->slot[w->now & w->mask];
}

/** A conservation audit in progress: which packets of a pool have been
 *  found where they belong (sim_audit_begin .. sim_audit_end). */
typedef struct sim_audit {
    const sim_pool *pool;  /**< the pool audited */
    uint8_t *seen;         /**< one byte per slot ever handed out */
    uint64_t found;        /**< packets found so far */
    const char *err;       /**< the first violation, or NULL */
} sim_audit;

/** Start an audit of pool p. */
static inline void sim_audit_begin(sim_audit *a, const sim_pool *p) {
    a->pool = p;
    a->seen = (uint8_t *)sim_calloc(p->used ? p->used : 1, 1);
    a->found = 0;
    a->err = NULL;
}

/** Packet j is found where a packet in state `want` belongs: returns 0
 *  (and notes the violation) if it is no live slot, is in another state,
 *  or was found before. */
static inline int sim_audit_see(sim_audit *a, uint32_t j, int want) {
    if (j >= a->pool->used || a->seen[j] || a->pool->pkt[j].state != want) {
        if (!a->err) a->err = "packet lost, duplicated or misplaced";
        return 0;
    }
    a->seen[j] = 1;
    a->found++;
    return 1;
}

/** Every packet of FIFO q is found, in state want: 0 at a violation. */
static inline int sim_audit_fifo(sim_audit *a, const sim_fifo *q, int want) {
    uint32_t j;
    for (j = q->head; j != SIM_NIL; j = a->pool->pkt[j].next)
        if (!sim_audit_see(a, j, want)) return 0;
    return 1;
}

/** The packets the pending events of wheel w carry are found: an event of
 *  type t1 carries (in its a word) a packet in state s1, one of type t2 a
 *  packet in state s2.  0 at a violation. */
static inline int sim_audit_wheel(sim_audit *a, const sim_wheel *w, uint32_t t1, int s1, uint32_t t2, int s2) {
    uint32_t i, j;
    for (i = 0; i <= w->mask; i++) {
        const sim_slot *s = &w->slot[i];
        for (j = 0; j < s->n; j++) {
            uint32_t t = SIM_EV_TYPE(s->ev[j]);
            if ((t == t1 && !sim_audit_see(a, s->ev[j].a, s1)) || (t == t2 && !sim_audit_see(a, s->ev[j].a, s2)))
                return 0;
        }
    }
    return 1;
}

/** End an audit: unless a violation was noted, every live packet must have
 *  been found, the pool's count must agree, and the packets that came in
 *  (created, or handed over from other parts) must equal those that went
 *  out (delivered, handed over) plus those found.  Frees the audit and
 *  returns the first violation, or NULL. */
static inline const char *sim_audit_end(sim_audit *a, uint64_t in, uint64_t out) {
    uint32_t i;
    if (!a->err)
        for (i = 0; i < a->pool->used; i++)
            if (!a->seen[i] && a->pool->pkt[i].state != SIM_PKT_FREE) { a->err = "a live packet is in no queue (lost)"; break; }
    if (!a->err && a->found != a->pool->live) a->err = "pool count disagrees with the packets found";
    if (!a->err && in != out + a->found) a->err = "created + imported != delivered + exported + in flight";
    free(a->seen);
    a->seen = NULL;
    return a->err;
}

/** sim_audit_end, with the violation as a one-line message naming the
 *  cycle and the counts (in a static buffer), or NULL. */
static inline const char *sim_audit_report(sim_audit *a, uint64_t now, uint64_t created, uint64_t delivered,
                                           uint64_t in, uint64_t out) {
    static char msg[200];
    uint64_t found = a->found;
    const char *err = sim_audit_end(a, in, out);
    if (!err) return NULL;
    snprintf(msg, sizeof msg, "conservation check failed at cycle %llu: %s (created %llu, delivered %llu, found %u)",
             (unsigned long long)now, err, (unsigned long long)created, (unsigned long long)delivered,
             (unsigned)found);
    return msg;
}

#endif /* SIM_POOL_H */
