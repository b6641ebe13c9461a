/* SPDX-License-Identifier: MIT */
/* test_bgl_bubble.c - the bubble model check (examples/common/bubble_ring.h,
 * every move decided by seastar_route.h's rule): the textbook rule
 * deadlocks, the paper's full-size rule does not (seed 003 line 53).  The
 * witness is replayed with the rules written out again here: every move
 * legal under the textbook rule, the last state deadlocked.  The long
 * variants (runner --long) search larger rings. */
#include "st_test.h"
#include "../examples/common/bubble_ring.h"

/* The textbook rule as seed 003 line 53 states it, for a ring of n nodes
 * with buffers of B chunks: a packet enters only where two full-sized
 * packets fit (16 chunks free), advances only where one fits (8 free); a
 * packet takes its size. */
typedef struct ring { int n, B, len[8], size[8][64], dest[8][64]; } ring;

static int ring_free(const ring *r, int i) {
    int j, f = r->B;
    for (j = 0; j < r->len[i]; j++) f -= r->size[i][j];
    return f;
}

/* Apply a move of the witness; 0 if the textbook rule forbids it. */
static int ring_move(ring *r, const br_move *m) {
    int i = m->node, j = (i + 1) % r->n, k;
    if (m->kind == BR_ENTER) {
        if (ring_free(r, j) < 16 || m->size < 1 || m->size > 8 || m->dest == i) return 0;
        r->size[j][r->len[j]] = m->size; r->dest[j][r->len[j]] = m->dest; r->len[j]++;
        return 1;
    }
    if (!r->len[i] || r->size[i][0] != m->size || r->dest[i][0] != m->dest) return 0;
    if (m->kind == BR_EJECT) { if (m->dest != i) return 0; }
    else {
        if (m->dest == i || ring_free(r, j) < 8) return 0;
        r->size[j][r->len[j]] = m->size; r->dest[j][r->len[j]] = m->dest; r->len[j]++;
    }
    for (k = 1; k < r->len[i]; k++) { r->size[i][k - 1] = r->size[i][k]; r->dest[i][k - 1] = r->dest[i][k]; }
    r->len[i]--;
    return 1;
}

/* Deadlocked: packets in the ring, no head at its destination, and no head
 * with 8 chunks free in the next buffer. */
static int ring_deadlocked(const ring *r) {
    int i, any = 0;
    for (i = 0; i < r->n; i++) {
        if (!r->len[i]) continue;
        any = 1;
        if (r->dest[i][0] == i || ring_free(r, (i + 1) % r->n) >= 8) return 0;
    }
    return any;
}

static br_config bounds(int n, int B, unsigned sizes, int packets, int rule) {
    br_config c;
    c.nodes = n; c.chunks = B; c.sizes = sizes; c.packets = packets; c.rule = rule; c.max_states = 20000000;
    return c;
}

/* A search whose verdict is all that matters. */
static void expect(st_ctx *st__ctx, br_config c, int verdict) {
    br_result res;
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    br_result_free(&res);
    ST_EQ(verdict, res.verdict);
}

/* A textbook deadlock, replayed and checked independently. */
static void check_witness(st_ctx *st__ctx, const br_config *c, const br_result *res) {
    ring r;
    int i, total_free = 0;
    memset(&r, 0, sizeof r);
    r.n = c->nodes; r.B = c->chunks;
    ST_CHECK(res->witness_len > 0);
    for (i = 0; i < res->witness_len; i++) {
        ST_CHECKF(!ring_deadlocked(&r), "deadlocked before move %d", i);
        ST_CHECKF(ring_move(&r, &res->witness[i]), "move %d is not legal under the textbook rule", i);
    }
    ST_CHECK(ring_deadlocked(&r));
    for (i = 0; i < r.n; i++) {
        int j;
        ST_EQ(r.len[i], res->last.len[i]);
        for (j = 0; j < r.len[i]; j++) {
            ST_EQ(r.size[i][j], res->last.size[i][j]);
            ST_EQ(r.dest[i][j], res->last.dest[i][j]);
        }
        total_free += ring_free(&r, i);
    }
    /* the fragmentation of line 53: room for a full-sized packet in all,
     * split so that no buffer has it */
    ST_CHECKF(total_free >= 8, "total free %d", total_free);
}

ST_TEST(bgl_bubble_textbook_rule_deadlocks) {
    br_config c = bounds(3, 17, 0x81u, 0, SR_BGL_RULE_TEXTBOOK);
    br_result res;
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    ST_EQ(BR_DEADLOCK, res.verdict);
    check_witness(st__ctx, &c, &res);
    br_result_free(&res);
}

ST_TEST(bgl_bubble_full_size_rule_never_deadlocks) {
    /* the configuration the textbook rule deadlocks, and every packet size */
    br_config c = bounds(3, 17, 0x81u, 0, SR_BGL_RULE_FULL_SIZE);
    br_result res;
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    ST_EQ(BR_FREE, res.verdict);
    ST_CHECK(res.states > 100);
    expect(st__ctx, bounds(3, 16, 0xFFu, 3, SR_BGL_RULE_FULL_SIZE), BR_FREE);
    /* ... and the textbook rule is not refuted where the ring is too small */
    expect(st__ctx, bounds(3, 16, 0x81u, 0, SR_BGL_RULE_TEXTBOOK), BR_FREE);
}

/* The search is complete for what it claims: with a bound of P packets,
 * every state it stores is reachable and it finds all of them (the count
 * with P = 2 equals a plain enumeration of the reachable rings, written
 * independently below without rotation). */
typedef struct plain { int n; int nstates; uint8_t keys[20000][16]; } plain;

static void plain_key(const ring *r, int used, uint8_t *k) {
    int i, j, p = 2;
    memset(k, 0xFF, 16);
    k[0] = (uint8_t)used;
    for (i = 0; i < r->n; i++) {
        k[p++] = (uint8_t)(0xE0 | r->len[i]);
        for (j = 0; j < r->len[i]; j++) k[p++] = (uint8_t)(r->size[i][j] * 16 + r->dest[i][j]);
    }
}

static void plain_walk(plain *pl, const ring *r, int used, int P, int rule_full) {
    uint8_t k[16];
    int i, s, d;
    plain_key(r, used, k);
    for (i = 0; i < pl->nstates; i++) if (!memcmp(pl->keys[i], k, 16)) return;
    if (pl->nstates >= 20000) return;
    memcpy(pl->keys[pl->nstates++], k, 16);
    for (i = 0; i < r->n; i++) {
        int j = (i + 1) % r->n, charged = 0, m;
        for (m = 0; m < r->len[j]; m++) charged += rule_full ? 8 : r->size[j][m];
        if (r->len[i]) {
            ring t = *r;
            br_move mv;
            mv.node = (uint8_t)i; mv.size = (uint8_t)r->size[i][0]; mv.dest = (uint8_t)r->dest[i][0];
            mv.kind = (uint8_t)(mv.dest == i ? BR_EJECT : BR_ADVANCE);
            if (mv.kind == BR_EJECT || r->B - charged >= 8) {
                int q;
                if (mv.kind == BR_ADVANCE) { t.size[j][t.len[j]] = mv.size; t.dest[j][t.len[j]] = mv.dest; t.len[j]++; }
                for (q = 1; q < t.len[i]; q++) { t.size[i][q - 1] = t.size[i][q]; t.dest[i][q - 1] = t.dest[i][q]; }
                t.len[i]--;
                plain_walk(pl, &t, used, P, rule_full);
            }
        }
        if (used < P && r->B - charged >= 16)
            for (s = 1; s <= 8; s += 7)
                for (d = 0; d < r->n; d++) {
                    ring t = *r;
                    if (d == i) continue;
                    t.size[j][t.len[j]] = s; t.dest[j][t.len[j]] = d; t.len[j]++;
                    plain_walk(pl, &t, used + 1, P, rule_full);
                }
    }
}

/* Rings equal up to rotation: br_search stores one of each class. */
static int plain_classes(const plain *pl, int n) {
    int i, r, classes = 0;
    for (i = 0; i < pl->nstates; i++) {
        ring a, b;
        int seen = 0, j, p, q, k;
        memset(&a, 0, sizeof a);
        a.n = n;
        p = 2;
        for (j = 0; j < n; j++) {
            a.len[j] = pl->keys[i][p++] & 0x1F;
            for (q = 0; q < a.len[j]; q++, p++) { a.size[j][q] = pl->keys[i][p] / 16; a.dest[j][q] = pl->keys[i][p] % 16; }
        }
        for (r = 1; r < n && !seen; r++) {   /* an earlier state that is a rotation of this one? */
            uint8_t kk[16];
            memset(&b, 0, sizeof b);
            b.n = n;
            for (j = 0; j < n; j++) {
                int to = (j + r) % n;
                b.len[to] = a.len[j];
                for (q = 0; q < a.len[j]; q++) { b.size[to][q] = a.size[j][q]; b.dest[to][q] = (a.dest[j][q] + r) % n; }
            }
            plain_key(&b, pl->keys[i][0], kk);
            for (k = 0; k < i && !seen; k++) if (!memcmp(pl->keys[k], kk, 16)) seen = 1;
        }
        classes += !seen;
    }
    return classes;
}

ST_TEST(bgl_bubble_search_counts_every_state) {
    static plain pl;
    int rule;
    for (rule = 0; rule < 2; rule++) {
        br_config c = bounds(3, 16, 0x81u, 2, rule ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE);
        br_result res;
        ring r;
        memset(&r, 0, sizeof r);
        r.n = 3; r.B = 16;
        pl.nstates = 0;
        plain_walk(&pl, &r, 0, 2, !rule);
        ST_CHECK(pl.nstates < 20000);
        ST_EQ(0, br_search(&c, &res, NULL, NULL));
        ST_EQ(BR_FREE, res.verdict);
        ST_EQ(plain_classes(&pl, 3), res.states);
    }
}

ST_TEST(bgl_bubble_bad_bounds) {
    br_config c = bounds(3, 16, 0x81u, 0, SR_BGL_RULE_TEXTBOOK);
    br_result res;
    c.chunks = 15; ST_EQ(-1, br_search(&c, &res, NULL, NULL));       /* below two full-sized packets */
    c.chunks = 16; c.nodes = 1; ST_EQ(-1, br_search(&c, &res, NULL, NULL));
    c.nodes = 9; ST_EQ(-1, br_search(&c, &res, NULL, NULL));
    c.nodes = 3; c.sizes = 0; ST_EQ(-1, br_search(&c, &res, NULL, NULL));
    c.sizes = 0x1FF; ST_EQ(-1, br_search(&c, &res, NULL, NULL));
    c.sizes = 0x01; c.chunks = 40; ST_EQ(-1, br_search(&c, &res, NULL, NULL));   /* 40 one-chunk packets */
    c.rule = SR_BGL_RULE_FULL_SIZE; c.packets = 2;
    ST_EQ(0, br_search(&c, &res, NULL, NULL));   /* 5 under the full-size rule */
    ST_EQ(BR_FREE, res.verdict);
    c.rule = 7; ST_EQ(-1, br_search(&c, &res, NULL, NULL));
    c = bounds(4, 16, 0x81u, 0, SR_BGL_RULE_TEXTBOOK);
    c.max_states = 1000;
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    ST_EQ(BR_LIMIT, res.verdict);
}

/* Larger rings (runner --long; make results runs them all through
 * examples/bubble_check.c): n = 4 with 512-byte buffers deadlocks under the
 * textbook rule, never under the full-size rule; every size 1..8 on n = 3. */
ST_TEST(bgl_bubble_long) {
    br_config c;
    br_result res;
    if (!ST_LONG) return;
    c = bounds(4, 16, 0x81u, 0, SR_BGL_RULE_TEXTBOOK);
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    ST_EQ(BR_DEADLOCK, res.verdict);
    check_witness(st__ctx, &c, &res);
    br_result_free(&res);
    if (st__ctx->failed) return;
    expect(st__ctx, bounds(4, 16, 0x81u, 0, SR_BGL_RULE_FULL_SIZE), BR_FREE);
    expect(st__ctx, bounds(3, 17, 0xFFu, 0, SR_BGL_RULE_FULL_SIZE), BR_FREE);
    if (st__ctx->failed) return;
    c = bounds(3, 24, 0x81u, 9, SR_BGL_RULE_TEXTBOOK);
    ST_EQ(0, br_search(&c, &res, NULL, NULL));
    ST_EQ(BR_DEADLOCK, res.verdict);
    check_witness(st__ctx, &c, &res);
    br_result_free(&res);
}
