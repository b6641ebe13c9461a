/* SPDX-License-Identifier: MIT */
/* test_bgl_route.c - seastar_route.h >>bluegene: BlueGene/L hint bits,
 * headers, candidate sets and token flow control, against independent
 * oracles: breadth-first distances over the torus for the hint bits and the
 * candidates, every path of small tori for the clearing of hint bits, a
 * shadow ledger of charged packets for the token counters, and the
 * paper's numbers (8 and 16 tokens, 32-byte chunks, 32..256 bytes). */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

/* ---- oracles -------------------------------------------------------- */

/* Hop distances from every node to `dest` by breadth-first search over
 * sr_neighbor (dist[] has t->num_nodes entries). */
static void bfs_to(const sr_topology *t, uint32_t dest, int *dist) {
    uint32_t *q = (uint32_t *)malloc(t->num_nodes * sizeof *q), head = 0, tail = 0, u;
    int p;
    for (u = 0; u < t->num_nodes; u++) dist[u] = -1;
    dist[dest] = 0;
    q[tail++] = dest;
    while (head < tail) {
        u = q[head++];
        for (p = 0; p < t->proc_port; p++) {   /* links are symmetric: v is a neighbour of u */
            uint32_t v = sr_neighbor(t, u, p);
            if (v != SR_NO_NODE && dist[v] < 0) { dist[v] = dist[u] + 1; q[tail++] = v; }
        }
    }
    free(q);
}

/* The shapes the tests walk: tori and meshes, odd and even radices. */
typedef struct shape { int n, k[3], mesh[3], tie; } shape;
static const shape SHAPES[] = {
    { 1, { 5 }, { 0 }, SR_TIE_ALTERNATE },
    { 1, { 6 }, { 0 }, SR_TIE_ALTERNATE },
    { 2, { 4, 4 }, { 0, 0 }, SR_TIE_ALTERNATE },
    { 2, { 4, 3 }, { 0, 0 }, SR_TIE_PLUS },
    { 2, { 6, 2 }, { 0, 0 }, SR_TIE_MINUS },
    { 2, { 3, 4 }, { 1, 0 }, SR_TIE_ALTERNATE },
    { 3, { 4, 3, 2 }, { 0, 0, 0 }, SR_TIE_ALTERNATE },
    { 3, { 3, 3, 4 }, { 0, 1, 0 }, SR_TIE_PLUS },
};
#define NSHAPES ((int)(sizeof SHAPES / sizeof SHAPES[0]))

static int make_shape(sr_topology *t, const shape *s) { return rt_make_tie(t, s->n, s->k, s->mesh, NULL, s->tie); }

/* ---- configuration ---------------------------------------------------- */

ST_TEST(bgl_config_default_and_errors) {
    sr_bgl_config c, d;
    const char *msg[20];
    int i, j, n = 0;
    ST_EQ(SR_ERR_NULL, sr_bgl_config_default(NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_config_check(NULL));
    ST_EQ(SR_OK, sr_bgl_config_default(&d));
    /* seed 003 line 51: two dynamic VCs, one bubble escape VC, one high
     * priority bubble VC, 1 KB each */
    ST_EQ(2, d.num_dynamic);
    ST_EQ(SR_BGL_ESCAPE_BUBBLE, d.escape);
    ST_EQ(1024, d.dynamic_bytes);
    ST_EQ(1024, d.escape_bytes);
    ST_EQ(1024, d.priority_bytes);
    ST_EQ(SR_BGL_RULE_FULL_SIZE, d.bubble_rule);
    ST_EQ(SR_OK, sr_bgl_config_check(&d));
    memset(&c, 0, sizeof c);
    ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_config_check(&c));            /* zero-initialised */
    c = d; c.num_dynamic = 0; ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_config_check(&c));
    c = d; c.num_dynamic = -3; ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_config_check(&c));
    c = d; c.num_dynamic = SR_BGL_MAX_DYNAMIC + 1; ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_config_check(&c));
    c = d; c.num_dynamic = SR_BGL_MAX_DYNAMIC; ST_EQ(SR_OK, sr_bgl_config_check(&c));
    c = d; c.escape = 2; ST_EQ(SR_ERR_BGL_OPTION, sr_bgl_config_check(&c));
    c = d; c.escape_order = -1; ST_EQ(SR_ERR_BGL_OPTION, sr_bgl_config_check(&c));
    c = d; c.bubble_rule = 2; ST_EQ(SR_ERR_BGL_OPTION, sr_bgl_config_check(&c));
    /* a bubble VC smaller than two full-sized packets (2 x 256 bytes) */
    c = d; c.escape_bytes = 480; ST_EQ(SR_ERR_BGL_BUBBLE_BUFFER, sr_bgl_config_check(&c));
    c = d; c.escape_bytes = 512; ST_EQ(SR_OK, sr_bgl_config_check(&c));
    c = d; c.priority_bytes = 256; ST_EQ(SR_ERR_BGL_BUBBLE_BUFFER, sr_bgl_config_check(&c));
    /* the dateline pair is not a bubble: one full-sized packet will do */
    c = d; c.escape = SR_BGL_ESCAPE_DATELINE; c.escape_bytes = 256; ST_EQ(SR_OK, sr_bgl_config_check(&c));
    c.escape_bytes = 224; ST_EQ(SR_ERR_BGL_BUFFER, sr_bgl_config_check(&c));
    c = d; c.dynamic_bytes = 224; ST_EQ(SR_ERR_BGL_BUFFER, sr_bgl_config_check(&c));
    c = d; c.dynamic_bytes = 1000; ST_EQ(SR_ERR_BGL_BUFFER, sr_bgl_config_check(&c));
    c = d; c.escape_bytes = 1000; ST_EQ(SR_ERR_BGL_BUFFER, sr_bgl_config_check(&c));
    c = d; c.priority_bytes = SR_BGL_MAX_BUFFER_BYTES + 32; ST_EQ(SR_ERR_BGL_BUFFER, sr_bgl_config_check(&c));
    c = d; c.dynamic_bytes = SR_BGL_MAX_BUFFER_BYTES; ST_EQ(SR_OK, sr_bgl_config_check(&c));
    /* every code has its own message; codes shared with sr_result keep its value */
    ST_EQ(SR_OK, SR_OK);
    ST_EQ(SR_ERR_NULL, SR_ERR_NULL);
    ST_EQ(SR_ERR_NODE_RANGE, SR_ERR_NODE_RANGE);
    msg[n++] = sr_result_string(SR_OK);
    msg[n++] = sr_result_string(SR_ERR_NULL);
    msg[n++] = sr_result_string(SR_ERR_DIMS);
    msg[n++] = sr_result_string(SR_ERR_NODE_RANGE);
    msg[n++] = sr_result_string(SR_ERR_PORT_RANGE);
    for (i = SR_ERR_BGL_DYNAMIC_VCS; i <= SR_ERR_BGL_STATE; i++) msg[n++] = sr_result_string((sr_result)i);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) ST_CHECKF(strcmp(msg[i], msg[j]) != 0, "codes %d and %d share a message", i, j);
    ST_EQ_STR("unknown result", sr_result_string((sr_result)999));
    ST_EQ_STR(sr_result_string(SR_ERR_NULL), sr_result_string(SR_ERR_NULL));
}

ST_TEST(bgl_packet_sizes) {
    int b, ch = -1;
    ST_EQ(SR_ERR_NULL, sr_bgl_packet_chunks(64, NULL));
    for (b = -40; b <= 300; b++) {
        /* seed 003 line 43: 32 to 256 bytes in increments of 32 byte chunks */
        int ok = b >= 32 && b <= 256 && b % 32 == 0;
        ch = -1;
        ST_EQ(ok ? SR_OK : SR_ERR_BGL_PACKET_SIZE, sr_bgl_packet_chunks(b, &ch));
        ST_EQ(ok ? b / 32 : -1, ch);
    }
    ST_EQ(SR_ERR_BGL_PACKET_SIZE, sr_bgl_packet_chunks(0x7FFFFFFF, &ch));
    ST_EQ(SR_ERR_BGL_PACKET_SIZE, sr_bgl_packet_chunks(-0x7FFFFFFF - 1, &ch));
}

ST_TEST(bgl_vc_layout) {
    sr_bgl_config c;
    int D, e, vc;
    sr_bgl_config_default(&c);
    for (e = 0; e < 2; e++)
        for (D = 1; D <= SR_BGL_MAX_DYNAMIC; D++) {
            c.num_dynamic = D;
            c.escape = e ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
            c.dynamic_bytes = 512; c.escape_bytes = 768; c.priority_bytes = 1024;
            ST_EQ(D + 2 + e, sr_bgl_num_vcs(&c));
            ST_CHECK(sr_bgl_num_vcs(&c) <= SR_BGL_MAX_VCS);
            for (vc = -2; vc < D + 5; vc++) {
                int want = vc < 0 || vc >= D + 2 + e ? SR_BGL_VC_NONE : vc < D ? SR_BGL_VC_DYNAMIC
                         : vc == D + 1 + e ? SR_BGL_VC_PRIORITY : e ? SR_BGL_VC_DATELINE : SR_BGL_VC_BUBBLE;
                ST_EQ(want, sr_bgl_vc_kind(&c, vc));
                if (want != SR_BGL_VC_NONE)
                    ST_EQ(want == SR_BGL_VC_DYNAMIC ? 16 : want == SR_BGL_VC_PRIORITY ? 32 : 24, sr_bgl_vc_chunks(&c, vc));
            }
            ST_EQ(D, sr_bgl_escape_vc(&c, 0));
            ST_EQ(D + e, sr_bgl_escape_vc(&c, 1));
            ST_EQ(D + 1 + e, sr_bgl_priority_vc(&c));
        }
}

/* ---- hint bits ---------------------------------------------------------- */

/* Minimal cutoffs: every hinted direction is one BFS hop closer, exactly one
 * direction per dimension with hops, and at a tie (the destination k/2 away
 * on an even ring) the direction sr_tie names from the injecting node. */
ST_TEST(bgl_hint_bits_minimal_against_bfs) {
    int si;
    for (si = 0; si < NSHAPES; si++) {
        sr_topology t;
        int *dist;
        uint32_t u, dst;
        ST_CHECK(make_shape(&t, &SHAPES[si]));
        dist = (int *)malloc(t.num_nodes * sizeof *dist);
        for (dst = 0; dst < t.num_nodes; dst++) {
            bfs_to(&t, dst, dist);
            for (u = 0; u < t.num_nodes; u++) {
                sr_bgl_cutoffs cut;
                uint8_t h;
                int d, p;
                ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, u, &cut));
                ST_EQ(SR_OK, sr_bgl_cutoffs_check(&t, u, &cut));
                h = sr_bgl_hint_bits(&t, u, dst, &cut);
                ST_EQ(SR_OK, sr_bgl_hint_check(&t, u, dst, h));
                ST_EQ(0, h >> (2 * t.num_dims));
                for (d = 0; d < t.num_dims; d++) {
                    int cu = sr_coord(&t, u, d), cd = sr_coord(&t, dst, d), k = t.radix[d];
                    int bits = (h >> (2 * d)) & 3, plus_ok, minus_ok;
                    uint32_t vp = sr_neighbor(&t, u, 2 * d), vm = sr_neighbor(&t, u, 2 * d + 1);
                    plus_ok = vp != SR_NO_NODE && dist[vp] == dist[u] - 1 && cd != cu;
                    minus_ok = vm != SR_NO_NODE && dist[vm] == dist[u] - 1 && cd != cu;
                    if (cu == cd) { ST_EQ(0, bits); continue; }
                    ST_CHECKF(bits == 1 || bits == 2, "node %u dest %u dim %d: bits %d", u, dst, d, bits);
                    if (plus_ok && minus_ok) {   /* a tie: k even, k/2 away */
                        int neg = t.tie == SR_TIE_MINUS || (t.tie == SR_TIE_ALTERNATE && (cu & 1));
                        ST_CHECK(k % 2 == 0 && (cd - cu + k) % k == k / 2);
                        ST_EQ(neg ? 2 : 1, bits);
                    } else {
                        ST_EQ(plus_ok ? 1 : 2, bits);
                        ST_CHECK(plus_ok || minus_ok);
                    }
                }
                /* the hinted directions are exactly the dimensions that differ */
                for (p = 0; p < t.proc_port; p++)
                    if ((h >> p) & 1) ST_CHECK(sr_coord(&t, u, p / 2) != sr_coord(&t, dst, p / 2));
            }
        }
        free(dist);
    }
}

ST_TEST(bgl_cutoffs_hand_worked) {
    /* A ring of 8, node 2: P = 4 (the tie at 6 goes + from an even
     * coordinate), M = 3: plus = 6, minus = max(2 - 3, 0) = 0.  Node 5: P = 3
     * (odd: the tie at 1 goes -), M = 4: plus = min(8, 7) = 7, minus = 1. */
    sr_topology t;
    sr_bgl_cutoffs c;
    int k = 8;
    ST_CHECK(rt_make(&t, 1, &k, NULL, NULL));
    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, 2, &c));
    ST_EQ(6, c.plus[0]);
    ST_EQ(0, c.minus[0]);
    /* from 2: 6 is 4 away both ways -> +; 7 is 3 away going - (2,1,0,7) -> -;
     * 0 and 1 below -> - (>= minus 0) */
    ST_EQ(0x1, sr_bgl_hint_bits(&t, 2, 6, &c));
    ST_EQ(0x2, sr_bgl_hint_bits(&t, 2, 7, &c));
    ST_EQ(0x2, sr_bgl_hint_bits(&t, 2, 0, &c));
    ST_EQ(0x1, sr_bgl_hint_bits(&t, 2, 3, &c));
    ST_EQ(0x0, sr_bgl_hint_bits(&t, 2, 2, &c));
    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, 5, &c));
    ST_EQ(7, c.plus[0]);
    ST_EQ(1, c.minus[0]);
    ST_EQ(0x2, sr_bgl_hint_bits(&t, 5, 1, &c));   /* the tie from an odd node: - */
    ST_EQ(0x1, sr_bgl_hint_bits(&t, 5, 0, &c));   /* below minus 1: + round the ring */
    /* seed 003 line 47: "hint bits of 100100 means that the packet can be
     * routed in the x+ and y- directions": bits 0 and 3 here */
    {
        int kk[3] = { 8, 8, 8 }, co[3];
        uint32_t a, b;
        sr_topology t3;
        ST_CHECK(rt_make(&t3, 3, kk, NULL, NULL));
        co[0] = 1; co[1] = 5; co[2] = 3; a = sr_node_id(&t3, co);
        co[0] = 3; co[1] = 4; co[2] = 3; b = sr_node_id(&t3, co);
        ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t3, a, &c));
        ST_EQ(0x09, sr_bgl_hint_bits(&t3, a, b, &c));
    }
}

ST_TEST(bgl_cutoffs_and_hint_errors) {
    sr_topology t, t5;
    sr_bgl_cutoffs c;
    int k[3] = { 4, 4, 4 }, m[3] = { 1, 0, 0 }, k5[5] = { 2, 2, 2, 2, 2 }, co[3];
    ST_CHECK(rt_make(&t, 3, k, m, NULL));
    ST_CHECK(rt_make(&t5, 5, k5, NULL, NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_cutoffs_minimal(NULL, 0, &c));
    ST_EQ(SR_ERR_NULL, sr_bgl_cutoffs_minimal(&t, 0, NULL));
    ST_EQ(SR_ERR_DIMS, sr_bgl_cutoffs_minimal(&t5, 0, &c));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_cutoffs_minimal(&t, 64, &c));
    co[0] = 1; co[1] = 2; co[2] = 0;
    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, sr_node_id(&t, co), &c));
    ST_EQ(SR_ERR_NULL, sr_bgl_cutoffs_check(&t, 0, NULL));
    ST_EQ(SR_ERR_DIMS, sr_bgl_cutoffs_check(&t5, 0, &c));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_cutoffs_check(&t, 99, &c));
    {
        sr_bgl_cutoffs b = c;
        uint32_t u = sr_node_id(&t, co);
        b.plus[1] = 1; ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_cutoffs_check(&t, u, &b));   /* below the node's 2 */
        b = c; b.plus[1] = 4; ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_cutoffs_check(&t, u, &b));
        b = c; b.minus[2] = 1; ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_cutoffs_check(&t, u, &b));  /* above the node's 0 */
        b = c; b.minus[1] = -1; ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_cutoffs_check(&t, u, &b));
        b = c; b.plus[0] = 2; ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_cutoffs_check(&t, u, &b));   /* a mesh cannot wrap */
        b = c; b.plus[1] = 2; b.minus[1] = 2; ST_EQ(SR_OK, sr_bgl_cutoffs_check(&t, u, &b));
    }
    /* hint bits that cannot occur */
    ST_EQ(SR_ERR_NULL, sr_bgl_hint_check(NULL, 0, 0, 0));
    ST_EQ(SR_ERR_DIMS, sr_bgl_hint_check(&t5, 0, 1, 1));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_hint_check(&t, 0, 64, 0));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_hint_check(&t, 64, 0, 0));
    ST_EQ(SR_OK, sr_bgl_hint_check(&t, 5, 5, 0));
    ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, 5, 5, 0x01));        /* a bit at the destination */
    ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, 0, 0, 0x40));        /* a bit beyond 3 dimensions */
    co[0] = 0; co[1] = 0; co[2] = 0;
    {
        uint32_t a = sr_node_id(&t, co), b;
        co[1] = 1; b = sr_node_id(&t, co);
        ST_EQ(SR_OK, sr_bgl_hint_check(&t, a, b, 0x04));          /* y+ */
        ST_EQ(SR_OK, sr_bgl_hint_check(&t, a, b, 0x08));          /* y- the long way: a torus allows it */
        ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, a, b, 0x0C));    /* both */
        ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, a, b, 0x00));    /* none */
        ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, a, b, 0x05));    /* x without hops */
        co[1] = 0; co[0] = 2; b = sr_node_id(&t, co);
        ST_EQ(SR_OK, sr_bgl_hint_check(&t, a, b, 0x01));
        ST_EQ(SR_ERR_BGL_HINT, sr_bgl_hint_check(&t, a, b, 0x02));    /* x- on the mesh: away from 2 */
    }
}

/* Every path of dynamic candidates, every escape-only path, on small
 * networks: the hint bits after each hop are those of the dimensions whose
 * coordinate still differs, in the directions set at injection; paths are
 * minimal (BFS); a packet at its destination has no hint bits left. */
typedef struct walk_ctx {
    const sr_topology *t;
    const sr_bgl_config *cfg;
    const int *dist;
    uint8_t first;          /* the hint bits at injection */
    int fails, paths;
} walk_ctx;

static void walk(walk_ctx *w, uint32_t u, int in_port, int in_vc, sr_header h, int hops, int escape_only, int last_dim) {
    sr_candidate cand[SR_BGL_MAX_CANDIDATES];
    int n = sr_bgl_candidates(w->t, w->cfg, u, in_port, in_vc, &h, cand, SR_BGL_MAX_CANDIDATES), i, d;
    uint8_t want = 0;
    for (d = 0; d < w->t->num_dims; d++)
        if (sr_coord(w->t, u, d) != sr_coord(w->t, h.dest, d)) want |= (uint8_t)(w->first & (3u << (2 * d)));
    (void)hops;
    if (h.hint != want || n < 1) { w->fails++; return; }
    if (u == h.dest) {
        w->paths++;
        if (n != 1 || cand[0].port != w->t->proc_port || w->dist[u] != 0) w->fails++;
        return;
    }
    for (i = 0; i < n; i++) {
        sr_header g = h;
        uint32_t v;
        if (escape_only != (cand[i].cls == SR_CLASS_ESCAPE)) continue;
        v = sr_neighbor(w->t, u, cand[i].port);
        if (v == SR_NO_NODE || w->dist[v] != w->dist[u] - 1) { w->fails++; continue; }
        /* dimension-ordered escape: dimensions never go back */
        if (escape_only && cand[i].port / 2 < last_dim) w->fails++;
        sr_bgl_header_advance(w->t, w->cfg, u, cand[i].port, &g);
        walk(w, v, cand[i].port ^ 1, cand[i].vc_lo, g, hops + 1, escape_only, cand[i].port / 2);
    }
}

ST_TEST(bgl_hint_clearing_on_every_path) {
    int si, esc;
    sr_bgl_config cfg;
    sr_bgl_config_default(&cfg);
    for (si = 0; si < NSHAPES; si++) {
        sr_topology t;
        int *dist;
        uint32_t s, dst;
        long paths = 0;
        ST_CHECK(make_shape(&t, &SHAPES[si]));
        if (t.num_nodes > 24) continue;   /* every path: kept small */
        dist = (int *)malloc(t.num_nodes * sizeof *dist);
        for (dst = 0; dst < t.num_nodes; dst++) {
            bfs_to(&t, dst, dist);
            for (s = 0; s < t.num_nodes; s++)
                for (esc = 0; esc < 2; esc++) {
                    sr_bgl_cutoffs c;
                    sr_header h;
                    walk_ctx w;
                    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, s, &c));
                    ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, s, dst, 0, &h));
                    w.t = &t; w.cfg = &cfg; w.dist = dist; w.first = h.hint; w.fails = 0; w.paths = 0;
                    walk(&w, s, t.proc_port, 0, h, 0, esc, 0);
                    ST_CHECKF(w.fails == 0, "shape %d, %u -> %u, %s: %d failures", si, s, dst,
                              esc ? "escape" : "dynamic", w.fails);
                    ST_CHECK(w.paths >= 1);
                    if (esc) ST_EQ(1, w.paths);   /* the escape is deterministic */
                    paths += w.paths;
                }
        }
        ST_CHECK(paths > 0);
        free(dist);
    }
}

/* Cutoffs that send every packet the long way round each ring: the hint
 * bits are still cleared exactly on arrival in each dimension, after
 * (k - minimal distance) hops there. */
ST_TEST(bgl_hint_long_way_round) {
    sr_topology t;
    sr_bgl_config cfg;
    int k[2] = { 5, 4 };
    uint32_t s, dst;
    sr_bgl_config_default(&cfg);
    ST_CHECK(rt_make(&t, 2, k, NULL, NULL));
    for (s = 0; s < t.num_nodes; s++)
        for (dst = 0; dst < t.num_nodes; dst++) {
            sr_bgl_cutoffs c;
            sr_header h;
            uint32_t u = s;
            int d, hops = 0, want = 0;
            memset(&c, 0, sizeof c);
            for (d = 0; d < 2; d++) {
                int a = sr_coord(&t, s, d), b = sr_coord(&t, dst, d);
                c.plus[d] = a; c.minus[d] = a;          /* above goes -, below goes +: round the ring */
                if (a != b) want += k[d] - (b > a ? b - a : a - b);
            }
            ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, s, dst, SR_BGL_CLASS_STATIC, &h));
            for (d = 0; d < 2; d++) {
                int a = sr_coord(&t, s, d), b = sr_coord(&t, dst, d);
                if (a != b) ST_EQ(b > a ? 2 : 1, (h.hint >> (2 * d)) & 3);
            }
            /* follow the static (escape) candidate to the end */
            while (u != dst && hops < 20) {
                sr_candidate cand[SR_BGL_MAX_CANDIDATES];
                int n = sr_bgl_candidates(&t, &cfg, u, t.proc_port, 0, &h, cand, SR_BGL_MAX_CANDIDATES);
                ST_EQ(1, n);
                ST_EQ(SR_OK, sr_bgl_hint_check(&t, u, dst, h.hint));
                sr_bgl_header_advance(&t, &cfg, u, cand[0].port, &h);
                u = sr_neighbor(&t, u, cand[0].port);
                hops++;
            }
            ST_EQ(dst, u);
            ST_EQ(0, h.hint);
            ST_EQ(want, hops);
        }
}

/* ---- headers ------------------------------------------------------------- */

ST_TEST(bgl_header_init_and_check) {
    sr_topology t, t5;
    sr_bgl_config cfg;
    sr_bgl_cutoffs c;
    sr_header h, g;
    int k[3] = { 4, 4, 4 }, m[3] = { 0, 0, 1 }, k5[5] = { 2, 2, 2, 2, 2 };
    ST_CHECK(rt_make(&t, 3, k, m, NULL));
    ST_CHECK(rt_make(&t5, 5, k5, NULL, NULL));
    sr_bgl_config_default(&cfg);
    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, 0, &c));
    ST_EQ(SR_ERR_NULL, sr_bgl_header_init(&t, &c, 0, 5, 0, NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_header_init(NULL, &c, 0, 5, 0, &h));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_header_init(&t, &c, 0, 64, 0, &h));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_header_init(&t, &c, 64, 5, 0, &h));
    ST_EQ(SR_ERR_DIMS, sr_bgl_header_init(&t5, &c, 0, 5, 0, &h));
    ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_init(&t, &c, 0, 5, 0x01, &h));
    ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_init(&t, &c, 0, 5, SR_BGL_CLASS_STATIC | SR_BGL_CLASS_PRIORITY, &h));
    c.plus[2] = 2;
    ST_EQ(SR_ERR_BGL_CUTOFF, sr_bgl_header_init(&t, &c, 0, 5, 0, &h));   /* a mesh dimension that wraps */
    sr_bgl_cutoffs_minimal(&t, 0, &c);
    memset(&h, 0xAB, sizeof h);
    ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, 0, 21, SR_BGL_CLASS_PRIORITY, &h));
    ST_EQ(21, h.dest);
    ST_EQ(SR_NO_NODE, h.inter);
    ST_EQ(SR_PHASE_MINIMAL, h.phase);
    ST_EQ(0, h.globals);
    ST_EQ(0, h.hops);
    ST_EQ(SR_BGL_CLASS_PRIORITY, h.vclass);
    ST_EQ(0, h.spare[0] | h.spare[1] | h.spare[2]);
    ST_EQ(0x15, h.hint);   /* 21 = (1, 1, 1): x+, y+, z+ */
    ST_EQ(SR_OK, sr_bgl_header_check(&t, &cfg, 0, &h));
    ST_EQ(SR_ERR_NULL, sr_bgl_header_check(&t, &cfg, 0, NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_header_check(&t, NULL, 0, &h));
    g = h; g.dest = 64; ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_header_check(&t, &cfg, 0, &g));
    ST_EQ(SR_ERR_NODE_RANGE, sr_bgl_header_check(&t, &cfg, 64, &h));
    g = h; g.hint = 0x3F; ST_EQ(SR_ERR_BGL_HINT, sr_bgl_header_check(&t, &cfg, 0, &g));
    ST_EQ(SR_ERR_DIMS, sr_bgl_header_check(&t5, &cfg, 0, &h));
    g = h; g.phase = SR_PHASE_TO_INTER; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    g = h; g.inter = 3; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    g = h; g.globals = 1; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    g = h; g.spare[1] = 1; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    g = h; g.vclass = 0x10; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    g = h; g.vclass = SR_BGL_CLASS_STATIC | SR_BGL_CLASS_PRIORITY;
    ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    /* crossed-dateline bits: only with the dateline pair, only for tori */
    g = h; g.vclass = 0x01; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
    cfg.escape = SR_BGL_ESCAPE_DATELINE;
    ST_EQ(SR_OK, sr_bgl_header_check(&t, &cfg, 0, &g));
    g.vclass = 0x03; ST_EQ(SR_OK, sr_bgl_header_check(&t, &cfg, 0, &g));
    g.vclass = 0x04; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));   /* z is a mesh */
    g.vclass = 0x08; ST_EQ(SR_ERR_BGL_HEADER, sr_bgl_header_check(&t, &cfg, 0, &g));
}

ST_TEST(bgl_header_advance_datelines_and_hops) {
    /* a ring of 4, dateline 0 (the link 3 -> 0): a packet from 2 to 1 the
     * long way (+: 2, 3, 0, 1) crosses it on its second hop */
    sr_topology t;
    sr_bgl_config cfg;
    sr_bgl_cutoffs c;
    sr_header h;
    int k = 4, i;
    ST_CHECK(rt_make(&t, 1, &k, NULL, NULL));
    sr_bgl_config_default(&cfg);
    cfg.escape = SR_BGL_ESCAPE_DATELINE;
    c.plus[0] = 2; c.minus[0] = 2;             /* 1 is below 2 and below minus: + */
    ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, 2, 1, 0, &h));
    ST_EQ(0x1, h.hint);
    sr_bgl_header_advance(&t, &cfg, 2, 0, &h);
    ST_EQ(0x00, h.vclass);
    ST_EQ(0x1, h.hint);
    sr_bgl_header_advance(&t, &cfg, 3, 0, &h);
    ST_EQ(0x01, h.vclass);                     /* crossed */
    ST_EQ(0x1, h.hint);
    sr_bgl_header_advance(&t, &cfg, 0, 0, &h);
    ST_EQ(0x0, h.hint);                        /* arrives at 1 */
    ST_EQ(3, h.hops);
    /* the bubble escape keeps no dateline bits */
    cfg.escape = SR_BGL_ESCAPE_BUBBLE;
    ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, 2, 1, 0, &h));
    sr_bgl_header_advance(&t, &cfg, 2, 0, &h);
    sr_bgl_header_advance(&t, &cfg, 3, 0, &h);
    ST_EQ(0x00, h.vclass);
    for (i = 0; i < 300; i++) sr_bgl_header_advance(&t, &cfg, 0, 0, &h);
    ST_EQ(255, h.hops);                        /* saturates */
}

/* ---- candidates ------------------------------------------------------- */

/* The candidate sets of every (node, destination, class) of small
 * networks against a brute-force construction: the dynamic candidates are
 * the hinted directions (each one BFS hop closer), every dynamic VC, in
 * increasing port order; then one escape candidate in the escape direction
 * (first dimension / first of x+,y+,z+,x-,y-,z-) on the escape VC (the
 * dateline pair's upper VC exactly when the packet has crossed or crosses
 * the dateline of that dimension); a high-priority packet: the
 * high-priority VC only; a static packet: the escape VC only; at the
 * destination the reception FIFO of the input port. */
ST_TEST(bgl_candidates_brute_force) {
    int si, e, o;
    for (si = 0; si < NSHAPES; si++)
        for (e = 0; e < 2; e++)
            for (o = 0; o < 2; o++) {
                sr_topology t;
                sr_bgl_config cfg;
                int *dist, cls;
                uint32_t s, dst;
                ST_CHECK(make_shape(&t, &SHAPES[si]));
                sr_bgl_config_default(&cfg);
                cfg.num_dynamic = 1 + (si % 3);
                cfg.escape = e ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
                cfg.escape_order = o ? SR_BGL_ORDER_DIRECTION : SR_BGL_ORDER_DIMENSION;
                dist = (int *)malloc(t.num_nodes * sizeof *dist);
                for (dst = 0; dst < t.num_nodes; dst++) {
                    bfs_to(&t, dst, dist);
                    for (s = 0; s < t.num_nodes; s++)
                        for (cls = 0; cls < 3; cls++) {
                            unsigned vclass = cls == 0 ? 0 : cls == 1 ? SR_BGL_CLASS_STATIC : SR_BGL_CLASS_PRIORITY;
                            sr_bgl_cutoffs c;
                            sr_header h;
                            sr_candidate cand[SR_BGL_MAX_CANDIDATES], want[SR_BGL_MAX_CANDIDATES];
                            int n, nw = 0, p, i, in_port = (int)((s + dst) % (uint32_t)t.num_ports), crossed;
                            ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, s, &c));
                            memset(&h, 0, sizeof h);
                            ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, s, dst, vclass, &h));
                            crossed = e && (s & 1) ? 0x0F & ((1 << t.num_dims) - 1) : 0;
                            for (p = 0; p < t.num_dims; p++) if (t.mesh[p]) crossed &= ~(1 << p);
                            h.vclass = (uint8_t)(h.vclass | crossed);
                            ST_EQ(SR_OK, sr_bgl_header_check(&t, &cfg, s, &h));
                            n = sr_bgl_candidates(&t, &cfg, s, in_port, 0, &h, cand, SR_BGL_MAX_CANDIDATES);
                            if (s == dst) {
                                want[nw].port = (int16_t)t.proc_port;
                                want[nw].vc_lo = want[nw].vc_hi = (uint8_t)(cls == 2 ? t.num_ports : in_port);
                                want[nw].cls = SR_CLASS_MINIMAL; want[nw].flags = 0; nw++;
                            } else {
                                int first = -1, eport, d, ev;
                                if (cls == 0)
                                    for (p = 0; p < t.proc_port; p++) {
                                        uint32_t v = sr_neighbor(&t, s, p);
                                        if (!((h.hint >> p) & 1)) continue;
                                        ST_CHECK(v != SR_NO_NODE && dist[v] == dist[s] - 1);
                                        want[nw].port = (int16_t)p; want[nw].vc_lo = 0;
                                        want[nw].vc_hi = (uint8_t)(cfg.num_dynamic - 1);
                                        want[nw].cls = SR_CLASS_MINIMAL; want[nw].flags = 0; nw++;
                                    }
                                /* the escape direction, by its definition */
                                if (o) {
                                    for (d = 0; d < t.num_dims && first < 0; d++) if ((h.hint >> (2 * d)) & 1) first = 2 * d;
                                    for (d = 0; d < t.num_dims && first < 0; d++) if ((h.hint >> (2 * d + 1)) & 1) first = 2 * d + 1;
                                } else {
                                    for (p = 0; p < t.proc_port && first < 0; p++) if ((h.hint >> p) & 1) first = p;
                                }
                                eport = first;
                                d = eport / 2;
                                ev = cfg.num_dynamic;
                                if (cls == 2) ev = sr_bgl_num_vcs(&cfg) - 1;
                                else if (e && (((crossed >> d) & 1) || sr_crosses_dateline(&t, eport, sr_coord(&t, s, d)))) ev++;
                                want[nw].port = (int16_t)eport; want[nw].vc_lo = want[nw].vc_hi = (uint8_t)ev;
                                want[nw].cls = SR_CLASS_ESCAPE;
                                want[nw].flags = (uint8_t)(cls == 2 || !e ? SR_CAND_BUBBLE : 0);
                                nw++;
                            }
                            ST_EQ(nw, n);
                            for (i = 0; i < n; i++) {
                                ST_EQ(want[i].port, cand[i].port);
                                ST_EQ(want[i].vc_lo, cand[i].vc_lo);
                                ST_EQ(want[i].vc_hi, cand[i].vc_hi);
                                ST_EQ(want[i].cls, cand[i].cls);
                                ST_EQ(want[i].flags, cand[i].flags);
                                ST_EQ(0, cand[i].spare);
                            }
                        }
                }
                free(dist);
            }
}

/* The escape direction of every hint byte (the lowest set bit, or the
 * first plus direction, found by a scan of the bits). */
ST_TEST(bgl_escape_port_every_hint_byte) {
    unsigned h;
    int p;
    ST_EQ(-1, sr_bgl_escape_port(SR_BGL_ORDER_DIMENSION, 0));
    ST_EQ(-1, sr_bgl_escape_port(SR_BGL_ORDER_DIRECTION, 0));
    for (h = 1; h < 256; h++) {
        int low = -1, plus = -1, minus = -1;
        for (p = 7; p >= 0; p--)
            if ((h >> p) & 1u) {
                low = p;
                if (p & 1) minus = p; else plus = p;
            }
        ST_EQ(low, sr_bgl_escape_port(SR_BGL_ORDER_DIMENSION, (uint8_t)h));
        ST_EQ(plus >= 0 ? plus : minus, sr_bgl_escape_port(SR_BGL_ORDER_DIRECTION, (uint8_t)h));
    }
}

ST_TEST(bgl_candidates_impossible_headers) {
    sr_topology t;
    sr_bgl_config cfg;
    sr_bgl_cutoffs c;
    sr_header h, g;
    sr_candidate cand[SR_BGL_MAX_CANDIDATES];
    int k[2] = { 4, 4 }, m[2] = { 1, 0 }, co[2];
    uint32_t a, b;
    ST_CHECK(rt_make(&t, 2, k, m, NULL));
    sr_bgl_config_default(&cfg);
    co[0] = 3; co[1] = 1; a = sr_node_id(&t, co);
    co[0] = 1; co[1] = 2; b = sr_node_id(&t, co);
    memset(&h, 0, sizeof h);
    ST_EQ(SR_OK, sr_bgl_cutoffs_minimal(&t, a, &c));
    ST_EQ(SR_OK, sr_bgl_header_init(&t, &c, a, b, 0, &h));
    ST_EQ(0x06, h.hint);                        /* x- (mesh), y+ */
    ST_EQ(3, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &h, cand, SR_BGL_MAX_CANDIDATES));
    g = h; g.hint = 0x07; ST_EQ(-1, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES));
    g = h; g.hint = 0x16; ST_EQ(-1, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES));
    g = h; g.hint = 0x00; ST_EQ(-1, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES));
    g = h; g.hint = 0x05; /* x+ off the mesh edge at x = 3 */
    ST_EQ(-1, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES));
    g = h; g.dest = a; /* at the destination with hint bits */
    ST_EQ(-1, sr_bgl_candidates(&t, &cfg, a, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES));
    g.hint = 0; ST_EQ(1, sr_bgl_candidates(&t, &cfg, a, 2, 1, &g, cand, SR_BGL_MAX_CANDIDATES));
    ST_EQ(t.proc_port, cand[0].port);
    ST_EQ(2, cand[0].vc_lo);                    /* the reception FIFO of input port 2 */
}

/* ---- tokens and the bubble rules --------------------------------------- */

ST_TEST(bgl_token_rules_table) {
    sr_bgl_config c;
    int vc, ch, rule, e;
    for (e = 0; e < 2; e++)
        for (rule = 0; rule < 2; rule++) {
            sr_bgl_config_default(&c);
            c.escape = e ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
            c.bubble_rule = rule ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
            for (vc = 0; vc < sr_bgl_num_vcs(&c); vc++) {
                int bubble = (!e && vc == 2) || vc == sr_bgl_num_vcs(&c) - 1;
                /* seed 003 line 53: 8 tokens to be available; on a bubble 8 to
                 * advance and 16 to enter */
                ST_EQ(8, sr_bgl_tokens_needed(&c, vc, SR_BGL_MOVE_STRAIGHT));
                ST_EQ(bubble ? 16 : 8, sr_bgl_tokens_needed(&c, vc, SR_BGL_MOVE_ENTER));
                for (ch = 1; ch <= 8; ch++)
                    ST_EQ(bubble && !rule ? 8 : ch, sr_bgl_tokens_charged(&c, vc, ch));
            }
        }
    /* move kinds: straight only on the same bubble VC, out of the port
     * opposite the one it came in by */
    sr_bgl_config_default(&c);
    ST_EQ(SR_BGL_MOVE_STRAIGHT, sr_bgl_move_kind(&c, 1, 2, 0, 2));   /* in on port 1 (from x-1), on by +x */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, 0, 2, 0, 2));      /* a 180-degree turn */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, 1, 2, 2, 2));      /* a turn into y */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, 1, 0, 0, 2));      /* from a dynamic VC */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, 6, 2, 0, 2));      /* injected (processor port 6) */
    ST_EQ(SR_BGL_MOVE_STRAIGHT, sr_bgl_move_kind(&c, 4, 3, 5, 3));   /* the high-priority bubble */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, 1, 0, 0, 0));      /* dynamic VCs: no distinction */
    ST_EQ(SR_BGL_MOVE_ENTER, sr_bgl_move_kind(&c, -1, 2, -2, 2));
}

/* A random walk of sends and returns against a shadow ledger: the packets
 * on each VC, and the rule written out independently. */
ST_TEST(bgl_token_accounting_ledger) {
    int trial;
    uint64_t seed = 42;
    for (trial = 0; trial < 24; trial++) {
        sr_bgl_config c;
        sr_bgl_link lk;
        int held[SR_BGL_MAX_VCS][64], nheld[SR_BGL_MAX_VCS], cap[SR_BGL_MAX_VCS], nv, step, vc;
        sr_bgl_config_default(&c);
        c.num_dynamic = 1 + (int)st_rand_below(&seed, 4);
        c.escape = trial & 1 ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
        c.bubble_rule = trial & 2 ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
        c.dynamic_bytes = 32 * (8 + (int)st_rand_below(&seed, 30));
        c.escape_bytes = 32 * (16 + (int)st_rand_below(&seed, 20));
        c.priority_bytes = 32 * (16 + (int)st_rand_below(&seed, 20));
        ST_EQ(SR_OK, sr_bgl_link_init(&c, &lk));
        ST_EQ(SR_OK, sr_bgl_link_check(&c, &lk));
        nv = c.num_dynamic + (c.escape == SR_BGL_ESCAPE_DATELINE ? 3 : 2);
        for (vc = 0; vc < nv; vc++) {
            nheld[vc] = 0;
            cap[vc] = (vc < c.num_dynamic ? c.dynamic_bytes : vc == nv - 1 ? c.priority_bytes : c.escape_bytes) / 32;
            ST_EQ(cap[vc], lk.tokens[vc]);
        }
        for (vc = nv; vc < SR_BGL_MAX_VCS; vc++) ST_EQ(0, lk.tokens[vc]);
        for (step = 0; step < 400; step++) {
            int bubble, move, ch, free_tokens, need, charge, i, r;
            vc = (int)st_rand_below(&seed, (uint32_t)nv);
            bubble = vc == nv - 1 || (c.escape == SR_BGL_ESCAPE_BUBBLE && vc == c.num_dynamic);
            free_tokens = cap[vc];
            for (i = 0; i < nheld[vc]; i++) free_tokens -= bubble && c.bubble_rule == SR_BGL_RULE_FULL_SIZE ? 8 : held[vc][i];
            ST_EQ(free_tokens, lk.tokens[vc]);
            if (nheld[vc] && st_rand_below(&seed, 5) < 2) {   /* the oldest packet leaves */
                ch = held[vc][0];
                ST_EQ(SR_OK, sr_bgl_tokens_return(&c, &lk, vc, ch));
                for (i = 1; i < nheld[vc]; i++) held[vc][i - 1] = held[vc][i];
                nheld[vc]--;
            } else {
                move = (int)st_rand_below(&seed, 2);
                ch = 1 + (int)st_rand_below(&seed, 8);
                need = bubble && move == SR_BGL_MOVE_ENTER ? 16 : 8;
                charge = bubble && c.bubble_rule == SR_BGL_RULE_FULL_SIZE ? 8 : ch;
                ST_EQ(free_tokens >= need, sr_bgl_may_send(&c, &lk, vc, move));
                r = sr_bgl_send(&c, &lk, vc, move, ch);
                if (free_tokens >= need) {
                    ST_EQ(SR_OK, r);
                    ST_EQ(free_tokens - charge, lk.tokens[vc]);
                    held[vc][nheld[vc]++] = ch;
                    ST_CHECK(nheld[vc] < 64);
                } else {
                    ST_EQ(SR_ERR_BGL_TOKENS, r);
                    ST_EQ(free_tokens, lk.tokens[vc]);
                }
            }
            ST_EQ(SR_OK, sr_bgl_link_check(&c, &lk));
        }
    }
}

ST_TEST(bgl_token_errors) {
    sr_bgl_config c;
    sr_bgl_link lk, b;
    sr_bgl_config_default(&c);
    ST_EQ(SR_ERR_NULL, sr_bgl_link_init(&c, NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_link_init(NULL, &lk));
    ST_EQ(SR_OK, sr_bgl_link_init(&c, &lk));
    ST_EQ(SR_ERR_NULL, sr_bgl_link_check(&c, NULL));
    ST_EQ(SR_ERR_NULL, sr_bgl_send(NULL, &lk, 0, 0, 1));
    ST_EQ(SR_ERR_NULL, sr_bgl_tokens_return(&c, NULL, 0, 1));
    ST_EQ(SR_ERR_BGL_VC_RANGE, sr_bgl_send(&c, &lk, 4, 0, 1));
    ST_EQ(SR_ERR_BGL_VC_RANGE, sr_bgl_send(&c, &lk, -1, 0, 1));
    ST_EQ(SR_ERR_BGL_PACKET_SIZE, sr_bgl_send(&c, &lk, 0, 0, 0));
    ST_EQ(SR_ERR_BGL_PACKET_SIZE, sr_bgl_send(&c, &lk, 0, 0, 9));
    ST_EQ(SR_ERR_BGL_OPTION, sr_bgl_send(&c, &lk, 0, 2, 1));
    ST_EQ(SR_ERR_BGL_VC_RANGE, sr_bgl_tokens_return(&c, &lk, 7, 1));
    ST_EQ(SR_ERR_BGL_PACKET_SIZE, sr_bgl_tokens_return(&c, &lk, 0, 9));
    ST_EQ(SR_ERR_BGL_STATE, sr_bgl_tokens_return(&c, &lk, 0, 1));   /* never charged */
    c.num_dynamic = 0;
    ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_link_init(&c, &b));
    ST_EQ(SR_ERR_BGL_DYNAMIC_VCS, sr_bgl_link_check(&c, &lk));
    sr_bgl_config_default(&c);
    b = lk; b.tokens[0] = 33; ST_EQ(SR_ERR_BGL_STATE, sr_bgl_link_check(&c, &b));    /* above 1 KB */
    b = lk; b.tokens[4] = 1; ST_EQ(SR_ERR_BGL_STATE, sr_bgl_link_check(&c, &b));     /* no VC 4 */
    b = lk; b.tokens[2] = 31; ST_EQ(SR_ERR_BGL_STATE, sr_bgl_link_check(&c, &b));    /* full-size: 32 - 8k */
    b.tokens[2] = 24; ST_EQ(SR_OK, sr_bgl_link_check(&c, &b));
    c.bubble_rule = SR_BGL_RULE_TEXTBOOK;
    b.tokens[2] = 31; ST_EQ(SR_OK, sr_bgl_link_check(&c, &b));
    b.tokens[1] = 5; ST_EQ(SR_OK, sr_bgl_link_check(&c, &b));
}

/* sr_bgl_requests, worked by hand.  A 3-D torus, BlueGene/L's default
 * configuration (VCs 0,1 dynamic, 2 bubble, 3 high-priority: pair = port*4
 * + VC).  The packet at node 0 came in on input port 0 (from x+1, so it
 * travels -x) on the bubble VC; hint bits x- and y+ (0x06).  Candidates:
 * x- (port 1) VCs 0-1, y+ (port 2) VCs 0-1, escape x- VC 2.
 *   x-: tokens 12, 7, 9 -> VC0 available (12 >= 8), VC1 not (7),
 *       the bubble VC: straight (x- after x-, same VC), 9 >= 8: available;
 *   y+: tokens 30, 8 -> both available.
 * possible = bits 4, 5, 8, 9 = 0x330; available = bits 4, 8, 9, 6 = 0x350;
 * escape = pair 6.  The same packet injected (in_port 6) must enter the
 * bubble: 9 < 16, not available: 0x310. */
ST_TEST(bgl_requests_hand_worked) {
    sr_topology t;
    sr_bgl_config cfg;
    sr_bgl_link links[7];
    sr_candidate cand[SR_BGL_MAX_CANDIDATES];
    sr_header h;
    uint64_t possible, available;
    int k[3] = { 4, 4, 4 }, esc, n, i, co[3] = { 3, 1, 0 };
    ST_CHECK(rt_make(&t, 3, k, NULL, NULL));
    sr_bgl_config_default(&cfg);
    for (i = 0; i < 7; i++) sr_bgl_link_init(&cfg, &links[i]);
    links[1].tokens[0] = 12; links[1].tokens[1] = 7; links[1].tokens[2] = 9;
    links[2].tokens[0] = 30; links[2].tokens[1] = 8;
    memset(&h, 0, sizeof h);
    h.dest = sr_node_id(&t, co); h.inter = SR_NO_NODE; h.phase = SR_PHASE_MINIMAL; h.hint = 0x06;
    ST_EQ(SR_OK, sr_bgl_header_check(&t, &cfg, 0, &h));
    n = sr_bgl_candidates(&t, &cfg, 0, 0, 2, &h, cand, SR_BGL_MAX_CANDIDATES);
    ST_EQ(3, n);
    ST_EQ(SR_OK, sr_bgl_requests(&t, &cfg, cand, n, 0, 2, links, &possible, &available, &esc));
    ST_EQ_U64(0x330, possible);
    ST_EQ_U64(0x350, available);
    ST_EQ(6, esc);
    ST_EQ(SR_OK, sr_bgl_requests(&t, &cfg, cand, n, t.proc_port, 0, links, &possible, &available, &esc));
    ST_EQ_U64(0x310, available);
    /* at the destination: no pair, the reception FIFO is the caller's */
    h.dest = 0; h.hint = 0;
    n = sr_bgl_candidates(&t, &cfg, 0, 1, 2, &h, cand, SR_BGL_MAX_CANDIDATES);
    ST_EQ(SR_OK, sr_bgl_requests(&t, &cfg, cand, n, 1, 2, links, &possible, &available, &esc));
    ST_EQ_U64(0, possible | available);
    ST_EQ(-1, esc);
    /* errors */
    ST_EQ(SR_ERR_NULL, sr_bgl_requests(&t, &cfg, cand, n, 1, 2, NULL, &possible, &available, &esc));
    ST_EQ(SR_ERR_NULL, sr_bgl_requests(NULL, &cfg, cand, n, 1, 2, links, &possible, &available, &esc));
    cand[0].port = -1;
    ST_EQ(SR_ERR_PORT_RANGE, sr_bgl_requests(&t, &cfg, cand, 1, 1, 2, links, &possible, &available, &esc));
    cand[0].port = 2; cand[0].vc_lo = 0; cand[0].vc_hi = 4; cand[0].cls = SR_CLASS_MINIMAL;
    ST_EQ(SR_ERR_BGL_VC_RANGE, sr_bgl_requests(&t, &cfg, cand, 1, 1, 2, links, &possible, &available, &esc));
    cand[0].port = 7;
    ST_EQ(SR_ERR_PORT_RANGE, sr_bgl_requests(&t, &cfg, cand, 1, 1, 2, links, &possible, &available, &esc));
    /* 8 dynamic VCs and the dateline pair (11 VCs a link): the escape pair
     * of port 5 would be bit 5 * 11 + 9 = 64 */
    cfg.num_dynamic = 8;
    cfg.escape = SR_BGL_ESCAPE_DATELINE;
    cand[0].port = 5; cand[0].vc_lo = cand[0].vc_hi = 9; cand[0].cls = SR_CLASS_ESCAPE;
    ST_EQ(SR_ERR_BGL_VC_RANGE, sr_bgl_requests(&t, &cfg, cand, 1, 1, 2, links, &possible, &available, &esc));
}
