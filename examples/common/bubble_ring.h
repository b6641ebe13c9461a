/* SPDX-License-Identifier: MIT */
/* bubble_ring.h - an exhaustive model check of the bubble rules on one ring
 * (example code, not the installed library; examples/bubble_check.c and
 * tests/test_bgl_bubble.c use it).
 *
 * The model: a unidirectional ring of n nodes.  Node i's bubble VC buffer
 * (B chunks) is the receiver of the link from node i-1.  A packet has a
 * size (1..8 chunks) and a destination node.  Three kinds of move:
 *
 *   enter    a packet of any size and destination enters the ring at node
 *            i, into node i+1's buffer: an injection, a turn from another
 *            dimension or a packet leaving a dynamic VC, all of which the
 *            bubble rule treats alike (seed 003 line 53);
 *   advance  the packet at the head of node i's buffer, not at its
 *            destination, moves on into node i+1's buffer;
 *   eject    the packet at the head of node i's buffer, at its destination,
 *            leaves the ring (into the reception FIFO, or turning into the
 *            next dimension's escape ring, which the proof of the escape
 *            network assumes always drains eventually).
 *
 * Every enter and advance is decided by the library (seastar_route.h): the
 * link's tokens are the buffer minus sr_bgl_tokens_charged of the packets
 * in it, sr_bgl_may_send with SR_BGL_MOVE_ENTER or SR_BGL_MOVE_STRAIGHT says
 * whether the move is allowed, and sr_bgl_send and sr_bgl_tokens_return
 * charge and return the tokens (checked against the recount after every
 * move).  Tokens return as soon as a packet leaves a buffer and moves are
 * atomic: delays only postpone moves, so a deadlock with them is a
 * deadlock here.
 *
 * A state is deadlocked when the ring holds packets and no advance or
 * eject is possible (entering only takes space, so it cannot help).  The
 * search is breadth-first over every state reachable from the empty ring,
 * with at most P packets entering in all or (P = 0) with no bound on them:
 * the buffers bound the states then (under the full-size rule a buffer of
 * B chunks holds at most B/8 packets), and the search covers every run of
 * any length.  The first deadlock found has the fewest moves; with none
 * found, no reachable state is deadlocked, and (every move bringing a
 * packet closer to its destination) the ring always drains once entries
 * stop.  States are stored up to rotation (a ring looks the same from
 * every node).  The search also checks that no buffer ever holds more than
 * B chunks.
 */
#ifndef BUBBLE_RING_H
#define BUBBLE_RING_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../seastar_route.h"

/** Most ring nodes. */
#define BR_MAX_NODES 8
/** Most packets one buffer holds (the bounds must keep every buffer at
 *  or below it: B / smallest size for the textbook rule, B / 8 for the
 *  full-size rule). */
#define BR_MAX_PACKETS 32
/** Longest state key: the count of entries, a length per buffer, a byte
 *  per packet. */
#define BR_MAX_KEY (1 + BR_MAX_NODES + BR_MAX_NODES * BR_MAX_PACKETS)

/** Kinds of move. */
enum { BR_ENTER = 0, BR_ADVANCE = 1, BR_EJECT = 2 };
/** Verdicts. */
enum {
    BR_FREE = 0,      /**< no reachable state is deadlocked */
    BR_DEADLOCK = 1,  /**< a deadlocked state is reachable (the witness) */
    BR_LIMIT = 2,     /**< the state limit was reached first: no verdict */
    BR_OVERFLOW = 3,  /**< a buffer held more than B chunks (a rule bug) */
    BR_TOKENS = 4     /**< the library's token counters disagreed with a
                           recount (a library bug) */
};

/** One configuration of the search. */
typedef struct br_config {
    int nodes;      /**< ring nodes n, 2..BR_MAX_NODES */
    int chunks;     /**< bubble buffer B per node, in chunks, 16..255 */
    unsigned sizes; /**< packet sizes entering: bit s-1 for s chunks
                         (0xFF: every size 1..8) */
    int packets;    /**< most packets entering in all, 1..255, or 0 for
                         no bound: then the search covers every number of
                         packets (the buffers bound the states) */
    int rule;       /**< SR_BGL_RULE_FULL_SIZE or SR_BGL_RULE_TEXTBOOK */
    uint64_t max_states; /**< stop with BR_LIMIT beyond this many states */
} br_config;

/** One move. */
typedef struct br_move {
    uint8_t kind;   /**< BR_ENTER, BR_ADVANCE, BR_EJECT */
    uint8_t node;   /**< enter: the node entered at (the packet goes into
                         node+1's buffer); advance, eject: the buffer's node */
    uint8_t size;   /**< the packet's chunks */
    uint8_t dest;   /**< the packet's destination */
} br_move;

/** A ring state: each node's buffer, head first. */
typedef struct br_state {
    int used;                                   /**< packets entered so far */
    int len[BR_MAX_NODES];                      /**< packets in each buffer */
    uint8_t size[BR_MAX_NODES][BR_MAX_PACKETS]; /**< their chunks */
    uint8_t dest[BR_MAX_NODES][BR_MAX_PACKETS]; /**< their destinations */
} br_state;

/** What a search found. */
typedef struct br_result {
    int verdict;           /**< BR_FREE, BR_DEADLOCK, BR_LIMIT, ... */
    uint64_t states;       /**< distinct states explored */
    int witness_len;       /**< moves from the empty ring to the deadlock */
    br_move *witness;      /**< the moves (malloc; br_result_free) */
    br_state last;         /**< the deadlocked (or overflowing) state */
} br_result;

/* ---- the library's rule --------------------------------------------- */

/* The configuration the ring's bubble VC belongs to: only its escape VC
 * (num_dynamic, one bubble escape VC of B chunks) is used. */
static inline int br__lib_config(const br_config *c, sr_bgl_config *cfg) {
    sr_bgl_config_default(cfg);
    cfg->num_dynamic = 1;
    cfg->escape_bytes = c->chunks * SR_BGL_CHUNK_BYTES;
    cfg->bubble_rule = c->rule;
    return sr_bgl_config_check(cfg) == SR_OK ? 0 : -1;
}

/* The tokens of the link into buffer j: B minus what its packets are
 * charged. */
static inline void br__link(const sr_bgl_config *cfg, const br_state *s, int j, sr_bgl_link *lk) {
    int vc = sr_bgl_escape_vc(cfg, 0), i, t = sr_bgl_vc_chunks(cfg, vc);
    for (i = 0; i < s->len[j]; i++) t -= sr_bgl_tokens_charged(cfg, vc, s->size[j][i]);
    sr_bgl_link_init(cfg, lk);
    lk->tokens[vc] = (uint16_t)(t < 0 ? 0 : t);
}

/* ---- state keys --------------------------------------------------------- */

/* Most packets one buffer can hold under the bounds' rule. */
static inline int br__per_buffer(const br_config *c) {
    int smallest = 1;
    while (!((c->sizes >> (smallest - 1)) & 1u)) smallest++;
    return c->chunks / (c->rule == SR_BGL_RULE_FULL_SIZE ? SR_BGL_FULL_CHUNKS : smallest);
}

/* A state's key: the entries so far, each buffer's length, then a byte per
 * packet (size - 1, destination << 3).  Returns its length. */
static inline int br__encode(const br_config *c, const br_state *s, uint8_t *key) {
    int i, j, k = 1 + c->nodes;
    key[0] = (uint8_t)s->used;
    for (i = 0; i < c->nodes; i++) {
        key[1 + i] = (uint8_t)s->len[i];
        for (j = 0; j < s->len[i]; j++) key[k++] = (uint8_t)((s->size[i][j] - 1) | (s->dest[i][j] << 3));
    }
    return k;
}

static inline void br__decode(const br_config *c, const uint8_t *key, br_state *s) {
    int i, j, k = 1 + c->nodes;
    memset(s, 0, sizeof *s);
    s->used = key[0];
    for (i = 0; i < c->nodes; i++) {
        s->len[i] = key[1 + i];
        for (j = 0; j < s->len[i]; j++, k++) {
            s->size[i][j] = (uint8_t)((key[k] & 7) + 1);
            s->dest[i][j] = (uint8_t)(key[k] >> 3);
        }
    }
}

/* The state turned r nodes forward: node i's buffer becomes node i+r's,
 * every destination d becomes d+r. */
static inline void br__rotate(const br_config *c, const br_state *s, int r, br_state *o) {
    int i, j, n = c->nodes;
    memset(o, 0, sizeof *o);
    o->used = s->used;
    for (i = 0; i < n; i++) {
        int k = (i + r) % n;
        o->len[k] = s->len[i];
        for (j = 0; j < s->len[i]; j++) {
            o->size[k][j] = s->size[i][j];
            o->dest[k][j] = (uint8_t)((s->dest[i][j] + r) % n);
        }
    }
}

/* The key of a state up to rotation: the smallest key of its n rotations
 * (a ring looks the same from every node).  Sets *rot to the rotation that
 * gives it; returns the key's length. */
static inline int br__canon(const br_config *c, const br_state *s, uint8_t *key, int *rot) {
    uint8_t k2[BR_MAX_KEY];
    br_state o;
    int r, kb = br__encode(c, s, key);
    *rot = 0;
    for (r = 1; r < c->nodes; r++) {
        br__rotate(c, s, r, &o);
        br__encode(c, &o, k2);
        if (memcmp(k2, key, (size_t)kb) < 0) { memcpy(key, k2, (size_t)kb); *rot = r; }
    }
    return kb;
}

/* ---- the search's store: states, parents, a hash set ------------------- */

typedef struct br__store {
    int nodes;              /* ring nodes (a key's length follows from them) */
    uint8_t *arena;         /* the keys, one after the other */
    uint64_t arena_used, arena_cap;
    uint32_t *off;          /* each state's key in the arena */
    uint32_t *parent;       /* parent state index (UINT32_MAX: the root) */
    br_move *move;          /* the move from the parent (in its frame) */
    uint8_t *rot;           /* the rotation that made the child canonical */
    uint64_t count, cap;    /* states stored, room */
    uint32_t *table;        /* hash set: index + 1, 0 empty */
    uint64_t mask;          /* table size - 1 */
} br__store;

static inline int br__key_len(const br__store *st, const uint8_t *key) {
    int i, n = 1 + st->nodes;
    for (i = 0; i < st->nodes; i++) n += key[1 + i];
    return n;
}

static inline uint64_t br__hash(const uint8_t *k, int n) {
    uint64_t h = 1469598103934665603ull;
    int i;
    for (i = 0; i < n; i++) { h ^= k[i]; h *= 1099511628211ull; }
    return h ^ (h >> 29);
}

static inline const uint8_t *br__key(const br__store *st, uint64_t i) { return st->arena + st->off[i]; }

static inline int br__grow(br__store *st) {
    uint64_t cap = st->cap ? 2 * st->cap : 4096, i;
    void *p;
    if (cap > UINT32_MAX / 2) return -1;
    if (!(p = realloc(st->off, (size_t)cap * sizeof *st->off))) return -1;
    st->off = (uint32_t *)p;
    if (!(p = realloc(st->parent, (size_t)cap * sizeof *st->parent))) return -1;
    st->parent = (uint32_t *)p;
    if (!(p = realloc(st->move, (size_t)cap * sizeof *st->move))) return -1;
    st->move = (br_move *)p;
    if (!(p = realloc(st->rot, (size_t)cap))) return -1;
    st->rot = (uint8_t *)p;
    st->cap = cap;
    free(st->table);
    st->mask = 2 * cap - 1;   /* load at most 1/2 */
    st->table = (uint32_t *)calloc((size_t)(st->mask + 1), sizeof *st->table);
    if (!st->table) return -1;
    for (i = 0; i < st->count; i++) {
        const uint8_t *k = br__key(st, i);
        uint64_t h = br__hash(k, br__key_len(st, k)) & st->mask;
        while (st->table[h]) h = (h + 1) & st->mask;
        st->table[h] = (uint32_t)(i + 1);
    }
    return 0;
}

/* Add a key of kb bytes; returns 1 if new, 0 if known, -1 out of memory. */
static inline int br__add(br__store *st, const uint8_t *key, int kb, uint32_t parent, br_move mv, int rot) {
    uint64_t h;
    if (st->count == st->cap && br__grow(st)) return -1;
    if (st->arena_used + (uint64_t)kb > st->arena_cap) {
        uint64_t cap = st->arena_cap ? 2 * st->arena_cap : 65536;
        void *p;
        if (cap > UINT32_MAX) return -1;
        if (!(p = realloc(st->arena, (size_t)cap))) return -1;
        st->arena = (uint8_t *)p;
        st->arena_cap = cap;
    }
    h = br__hash(key, kb) & st->mask;
    while (st->table[h]) {
        const uint8_t *k = br__key(st, st->table[h] - 1);
        if (br__key_len(st, k) == kb && !memcmp(k, key, (size_t)kb)) return 0;
        h = (h + 1) & st->mask;
    }
    memcpy(st->arena + st->arena_used, key, (size_t)kb);
    st->off[st->count] = (uint32_t)st->arena_used;
    st->arena_used += (uint64_t)kb;
    st->parent[st->count] = parent;
    st->move[st->count] = mv;
    st->rot[st->count] = (uint8_t)rot;
    st->table[h] = (uint32_t)(++st->count);
    return 1;
}

static inline void br__store_free(br__store *st) {
    free(st->arena); free(st->off); free(st->parent); free(st->move); free(st->rot); free(st->table);
    memset(st, 0, sizeof *st);
}

/* ---- moves ---------------------------------------------------------------- */

/* Remove the head of buffer i; its tokens go back to the link into i. */
static inline int br__pop(const sr_bgl_config *cfg, br_state *s, int i, sr_bgl_link *links) {
    int vc = sr_bgl_escape_vc(cfg, 0), j, r = sr_bgl_tokens_return(cfg, &links[i], vc, s->size[i][0]);
    for (j = 1; j < s->len[i]; j++) { s->size[i][j - 1] = s->size[i][j]; s->dest[i][j - 1] = s->dest[i][j]; }
    s->len[i]--;
    return r;
}

/* Append a packet to buffer j, charging the link into j for the move. */
static inline int br__push(const sr_bgl_config *cfg, br_state *s, int j, int size, int dest, int move,
                           sr_bgl_link *links) {
    int r = sr_bgl_send(cfg, &links[j], sr_bgl_escape_vc(cfg, 0), move, size);
    s->size[j][s->len[j]] = (uint8_t)size;
    s->dest[j][s->len[j]] = (uint8_t)dest;
    s->len[j]++;
    return r;
}

/** Apply a move to a state, with the library's rule; returns BR_FREE when
 *  it is allowed and applied, BR_DEADLOCK when the rule (or the bounds)
 *  forbids it (the state is then unspecified), BR_TOKENS when the
 *  library's counters disagree with a recount afterwards. */
static inline int br_apply(const br_config *c, br_state *s, br_move m) {
    sr_bgl_config cfg;
    sr_bgl_link links[BR_MAX_NODES], re;
    int n = c->nodes, i = m.node, j = (m.node + 1) % c->nodes, vc, k;
    if (br__lib_config(c, &cfg) || i >= n) return BR_DEADLOCK;
    vc = sr_bgl_escape_vc(&cfg, 0);
    for (k = 0; k < n; k++) br__link(&cfg, s, k, &links[k]);
    if (m.kind == BR_ENTER) {
        if ((c->packets && s->used >= c->packets) || m.size < 1 || m.size > 8 || !((c->sizes >> (m.size - 1)) & 1u) ||
            m.dest >= n || m.dest == i ||
            s->len[j] >= BR_MAX_PACKETS || !sr_bgl_may_send(&cfg, &links[j], vc, SR_BGL_MOVE_ENTER))
            return BR_DEADLOCK;
        if (br__push(&cfg, s, j, m.size, m.dest, SR_BGL_MOVE_ENTER, links)) return BR_TOKENS;
        if (c->packets) s->used++;
    } else {
        if (!s->len[i] || s->size[i][0] != m.size || s->dest[i][0] != m.dest) return BR_DEADLOCK;
        if (m.kind == BR_EJECT) {
            if (m.dest != i) return BR_DEADLOCK;
            if (br__pop(&cfg, s, i, links)) return BR_TOKENS;
        } else {
            if (m.dest == i || !sr_bgl_may_send(&cfg, &links[j], vc, SR_BGL_MOVE_STRAIGHT)) return BR_DEADLOCK;
            if (br__pop(&cfg, s, i, links)) return BR_TOKENS;
            if (br__push(&cfg, s, j, m.size, m.dest, SR_BGL_MOVE_STRAIGHT, links)) return BR_TOKENS;
        }
    }
    for (k = 0; k < n; k++) {   /* the library's counters equal a recount */
        br__link(&cfg, s, k, &re);
        if (re.tokens[vc] != links[k].tokens[vc] || sr_bgl_link_check(&cfg, &links[k]) != SR_OK) return BR_TOKENS;
    }
    return BR_FREE;
}

/** Whether a state is deadlocked: packets in the ring, none can advance
 *  or eject (by the library's rule). */
static inline int br_deadlocked(const br_config *c, const br_state *s) {
    sr_bgl_config cfg;
    sr_bgl_link lk;
    int i, any = 0;
    if (br__lib_config(c, &cfg)) return 0;
    for (i = 0; i < c->nodes; i++) {
        if (!s->len[i]) continue;
        any = 1;
        if (s->dest[i][0] == i) return 0;
        br__link(&cfg, s, (i + 1) % c->nodes, &lk);
        if (sr_bgl_may_send(&cfg, &lk, sr_bgl_escape_vc(&cfg, 0), SR_BGL_MOVE_STRAIGHT)) return 0;
    }
    return any;
}

/** The tokens of the link into buffer i, as the library counts them. */
static inline int br_tokens(const br_config *c, const br_state *s, int i) {
    sr_bgl_config cfg;
    sr_bgl_link lk;
    if (br__lib_config(c, &cfg)) return -1;
    br__link(&cfg, s, i, &lk);
    return lk.tokens[sr_bgl_escape_vc(&cfg, 0)];
}

/** Chunks in a buffer. */
static inline int br_occupancy(const br_state *s, int i) {
    int j, o = 0;
    for (j = 0; j < s->len[i]; j++) o += s->size[i][j];
    return o;
}

/** Whether a configuration is within the model's bounds and the library
 *  accepts its buffer (B >= 16 chunks: two full-sized packets). */
static inline int br_config_ok(const br_config *c) {
    sr_bgl_config cfg;
    return c->nodes >= 2 && c->nodes <= BR_MAX_NODES && c->chunks >= 1 && c->chunks <= 255 && c->sizes >= 1 &&
           c->sizes <= 0xFFu && c->packets >= 0 && c->packets <= 255 && (c->rule == SR_BGL_RULE_FULL_SIZE || c->rule == SR_BGL_RULE_TEXTBOOK) &&
           br__lib_config(c, &cfg) == 0 && br__per_buffer(c) <= BR_MAX_PACKETS;
}

static inline void br_result_free(br_result *r) {
    free(r->witness);
    r->witness = NULL;
    r->witness_len = 0;
}

/* The moves from the empty ring to state x, into r->witness, and the
 * state they lead to (the stored states are canonical rotations: each
 * move is turned back into the frame of the first move's ring). */
static inline int br__witness(const br_config *c, const br__store *st, uint64_t x, br_result *r) {
    uint64_t y;
    int n = 0, i, g = 0, nodes = c->nodes;
    uint32_t *chain;
    for (y = x; st->parent[y] != UINT32_MAX; y = st->parent[y]) n++;
    r->witness = (br_move *)malloc((size_t)(n ? n : 1) * sizeof *r->witness);
    chain = (uint32_t *)malloc((size_t)(n ? n : 1) * sizeof *chain);
    if (!r->witness || !chain) { free(chain); return -1; }
    r->witness_len = n;
    for (y = x, i = n - 1; st->parent[y] != UINT32_MAX; y = st->parent[y], i--) chain[i] = (uint32_t)y;
    memset(&r->last, 0, sizeof r->last);
    for (i = 0; i < n; i++) {
        br_move m = st->move[chain[i]];
        m.node = (uint8_t)((m.node + g) % nodes);
        m.dest = (uint8_t)((m.dest + g) % nodes);
        r->witness[i] = m;
        if (br_apply(c, &r->last, m) != BR_FREE) { free(chain); return -1; }
        g = (g - st->rot[chain[i]] + nodes) % nodes;
    }
    free(chain);
    return 0;
}

/**
 * Search every state reachable from the empty ring.
 *
 * :param c: the bounds (br_config_ok).
 * :param r: out: the verdict, the states explored, the witness (free it
 *     with br_result_free).
 * :param progress: called every 2^18 states with the count (or NULL).
 * :param ctx: passed to progress.
 * :returns: 0, or -1 for bad bounds or no memory.
 */
static inline int br_search(const br_config *c, br_result *r, void (*progress)(void *ctx, uint64_t states),
                            void *ctx) {
    br__store st;
    br_state s, t;
    uint8_t key[BR_MAX_KEY];
    uint64_t x;
    int n = c->nodes, i, size, d, v, rot, kb;
    br_move root = { 0, 0, 0, 0 };
    memset(r, 0, sizeof *r);
    if (!br_config_ok(c)) return -1;
    memset(&st, 0, sizeof st);
    st.nodes = n;
    memset(&s, 0, sizeof s);
    if (br__add(&st, key, br__encode(c, &s, key), UINT32_MAX, root, 0) < 0) { br__store_free(&st); return -1; }
    for (x = 0; x < st.count; x++) {
        br_move mv[BR_MAX_NODES * (1 + 8 * BR_MAX_NODES) + BR_MAX_NODES];
        int nm = 0, m;
        if (progress && (x & 0x3FFFF) == 0 && x) progress(ctx, x);
        br__decode(c, br__key(&st, x), &s);
        for (i = 0; i < n; i++)
            if (br_occupancy(&s, i) > c->chunks) { r->verdict = BR_OVERFLOW; goto found; }
        if (br_deadlocked(c, &s)) { r->verdict = BR_DEADLOCK; goto found; }
        for (i = 0; i < n; i++) {
            if (s.len[i]) {
                br_move a;
                a.kind = (uint8_t)(s.dest[i][0] == i ? BR_EJECT : BR_ADVANCE);
                a.node = (uint8_t)i; a.size = s.size[i][0]; a.dest = s.dest[i][0];
                mv[nm++] = a;
            }
            if (!c->packets || s.used < c->packets)
                for (size = 1; size <= 8; size++)
                    for (d = 0; d < n; d++) {
                        if (d == i || !((c->sizes >> (size - 1)) & 1u)) continue;
                        mv[nm].kind = BR_ENTER; mv[nm].node = (uint8_t)i;
                        mv[nm].size = (uint8_t)size; mv[nm].dest = (uint8_t)d;
                        nm++;
                    }
        }
        for (m = 0; m < nm; m++) {
            t = s;
            v = br_apply(c, &t, mv[m]);
            if (v == BR_DEADLOCK) continue;      /* not allowed here */
            if (v == BR_TOKENS) { r->verdict = BR_TOKENS; s = t; goto found; }
            kb = br__canon(c, &t, key, &rot);
            if (br__add(&st, key, kb, (uint32_t)x, mv[m], rot) < 0) { br__store_free(&st); return -1; }
        }
        if (st.count > c->max_states) { r->verdict = BR_LIMIT; r->states = st.count; br__store_free(&st); return 0; }
    }
    r->verdict = BR_FREE;
    r->states = st.count;
    br__store_free(&st);
    return 0;
found:
    r->states = st.count;
    if (r->verdict == BR_TOKENS) {   /* the move that failed is not stored */
        r->last = s;
        br__store_free(&st);
        return 0;
    }
    if (br__witness(c, &st, x, r)) { br__store_free(&st); return -1; }
    br__store_free(&st);
    return 0;
}

#endif /* BUBBLE_RING_H */
