/* SPDX-License-Identifier: MIT */
/* fuzz_bgl_route.c - the BlueGene/L section of seastar_route.h:
 * sr_result_string, sr_bgl_config_check, sr_bgl_num_vcs,
 * sr_bgl_vc_kind, sr_bgl_vc_chunks, sr_bgl_packet_chunks,
 * sr_bgl_cutoffs_minimal, sr_bgl_cutoffs_check, sr_bgl_hint_bits,
 * sr_bgl_hint_check, sr_bgl_escape_port, sr_bgl_header_init,
 * sr_bgl_header_check, sr_bgl_header_advance, sr_bgl_candidates,
 * sr_bgl_requests, sr_bgl_link_init, sr_bgl_link_check, sr_bgl_may_send,
 * sr_bgl_send, sr_bgl_tokens_return.
 *
 * Oracles: the configuration rules of sr_bgl_config_check's doc comment
 * (each error applicable to the description); the cutoff rule written out
 * (plus above, minus below, plain comparisons); candidates that are either
 * refused (-1) or ports with links and VCs of the configuration, never
 * anything else, for arbitrary headers; for valid headers, every hinted
 * direction one hop closer to the destination along its ring; a walk of
 * escape candidates that arrives; and the token counters against a ledger
 * of charged packets. */
#include "fuzz.h"
#include "../../seastar_route.h"

static int ring_gap(int a, int b, int k, int plus) { return plus ? ((b - a) % k + k) % k : ((a - b) % k + k) % k; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sr_topology_desc td;
    sr_topology t;
    sr_bgl_config cfg;
    sr_result e, want;
    int i, n, full = 256, steps;
    fz_init(&f, data, size);
    FZ_CHECK(sr_result_string((sr_result)fz_any_int(&f)) != NULL, "result string");
    {   /* packet sizes */
        int b = fz_any_int(&f), ch = -7;
        e = sr_bgl_packet_chunks(b, &ch);
        if (b >= 32 && b <= 256 && b % 32 == 0) FZ_CHECK(e == SR_OK && ch == b / 32, "%d bytes", b);
        else FZ_CHECK(e == SR_ERR_BGL_PACKET_SIZE && ch == -7, "%d bytes gave %d", b, e);
    }
    /* the configuration, often valid */
    sr_bgl_config_default(&cfg);
    if (fz_u8(&f) < 90) cfg.num_dynamic = fz_u8(&f) < 200 ? fz_range(&f, 1, 8) : fz_any_int(&f);
    if (fz_u8(&f) < 90) cfg.escape = fz_u8(&f) < 200 ? fz_range(&f, 0, 1) : fz_any_int(&f);
    if (fz_u8(&f) < 90) cfg.escape_order = fz_u8(&f) < 200 ? fz_range(&f, 0, 1) : fz_any_int(&f);
    if (fz_u8(&f) < 90) cfg.bubble_rule = fz_u8(&f) < 200 ? fz_range(&f, 0, 1) : fz_any_int(&f);
    if (fz_u8(&f) < 60) cfg.dynamic_bytes = fz_u8(&f) < 200 ? 32 * fz_range(&f, 6, 40) : fz_any_int(&f);
    if (fz_u8(&f) < 60) cfg.escape_bytes = fz_u8(&f) < 200 ? 32 * fz_range(&f, 6, 40) : fz_any_int(&f);
    if (fz_u8(&f) < 60) cfg.priority_bytes = fz_u8(&f) < 200 ? 32 * fz_range(&f, 6, 40) : fz_any_int(&f);
    e = sr_bgl_config_check(&cfg);
    if (cfg.num_dynamic < 1 || cfg.num_dynamic > SR_BGL_MAX_DYNAMIC) want = SR_ERR_BGL_DYNAMIC_VCS;
    else if ((cfg.escape != 0 && cfg.escape != 1) || (cfg.escape_order != 0 && cfg.escape_order != 1) ||
             (cfg.bubble_rule != 0 && cfg.bubble_rule != 1)) want = SR_ERR_BGL_OPTION;
    else if (cfg.priority_bytes < 2 * full || (cfg.escape == SR_BGL_ESCAPE_BUBBLE && cfg.escape_bytes < 2 * full))
        want = SR_ERR_BGL_BUBBLE_BUFFER;
    else if (cfg.dynamic_bytes < full || cfg.escape_bytes < full || cfg.dynamic_bytes % 32 || cfg.escape_bytes % 32 ||
             cfg.priority_bytes % 32 || cfg.dynamic_bytes > SR_BGL_MAX_BUFFER_BYTES ||
             cfg.escape_bytes > SR_BGL_MAX_BUFFER_BYTES || cfg.priority_bytes > SR_BGL_MAX_BUFFER_BYTES)
        want = SR_ERR_BGL_BUFFER;
    else want = SR_OK;
    FZ_CHECK(e == want, "config check gave %d, the rules say %d", e, want);
    if (e != SR_OK) return 0;
    n = sr_bgl_num_vcs(&cfg);
    FZ_CHECK(n == cfg.num_dynamic + 2 + cfg.escape, "num_vcs %d", n);
    for (i = -2; i < n + 2; i++) {
        int k = sr_bgl_vc_kind(&cfg, i);
        FZ_CHECK((i < 0 || i >= n) == (k == SR_BGL_VC_NONE), "vc %d kind %d", i, k);
        if (k != SR_BGL_VC_NONE) FZ_CHECK(sr_bgl_vc_chunks(&cfg, i) >= 8, "vc %d chunks", i);
    }
    /* the topology: 1..4 dimensions of radix 2..6 */
    memset(&td, 0, sizeof td);
    td.num_dims = fz_range(&f, 1, 4);
    td.tie = fz_range(&f, 0, 2);
    for (i = 0; i < td.num_dims; i++) {
        td.radix[i] = fz_range(&f, 2, 6);
        td.mesh[i] = fz_u8(&f) & 1;
        td.dateline[i] = fz_range(&f, 0, td.radix[i] - 1);
    }
    if (sr_topology_init(&t, &td) != SR_OK) return 0;
    for (steps = 0; steps < 40 && fz_more(&f); steps++) {
        uint32_t node = (uint32_t)fz_range(&f, 0, (int)t.num_nodes - 1), dest = (uint32_t)fz_range(&f, 0, (int)t.num_nodes - 1);
        sr_bgl_cutoffs c;
        sr_header h;
        sr_candidate cand[SR_BGL_MAX_CANDIDATES];
        int d, in_port = fz_range(&f, 0, t.proc_port), in_vc = fz_range(&f, 0, n - 1), nc, cut_ok = 1;
        unsigned vclass = fz_range(&f, 0, 2) == 0 ? 0 : fz_u8(&f) & 1 ? SR_BGL_CLASS_STATIC : SR_BGL_CLASS_PRIORITY;
        FZ_CHECK(sr_bgl_cutoffs_minimal(&t, node, &c) == SR_OK, "minimal cutoffs");
        FZ_CHECK(sr_bgl_cutoffs_check(&t, node, &c) == SR_OK, "minimal cutoffs check");
        if (fz_u8(&f) < 100)   /* registers set by hand, maybe wrongly */
            for (d = 0; d < t.num_dims; d++) {
                int s = sr_coord(&t, node, d), k = t.radix[d];
                c.plus[d] = fz_range(&f, -1, k);
                c.minus[d] = fz_range(&f, -1, k);
                if (c.plus[d] < s || c.plus[d] > k - 1 || c.minus[d] < 0 || c.minus[d] > s ||
                    (t.mesh[d] && (c.plus[d] != k - 1 || c.minus[d] != 0)))
                    cut_ok = 0;
            }
        FZ_CHECK((sr_bgl_cutoffs_check(&t, node, &c) == SR_OK) == cut_ok, "cutoffs check");
        if (cut_ok) {
            uint8_t hb = sr_bgl_hint_bits(&t, node, dest, &c);
            for (d = 0; d < t.num_dims; d++) {
                int s = sr_coord(&t, node, d), x = sr_coord(&t, dest, d);
                unsigned bits = (hb >> (2 * d)) & 3u, wb = x == s ? 0u : x > s ? (x <= c.plus[d] ? 1u : 2u)
                                                                                 : (x >= c.minus[d] ? 2u : 1u);
                FZ_CHECK(bits == wb, "dim %d: bits %u, the rule %u", d, bits, wb);
            }
            FZ_CHECK(sr_bgl_hint_check(&t, node, dest, hb) == SR_OK, "hint check of set bits");
            FZ_CHECK(sr_bgl_header_init(&t, &c, node, dest, vclass, &h) == SR_OK, "header init");
        } else {
            FZ_CHECK(sr_bgl_header_init(&t, &c, node, dest, vclass, &h) == SR_ERR_BGL_CUTOFF, "header init, bad cutoffs");
            memset(&h, 0, sizeof h);
            h.dest = dest; h.inter = SR_NO_NODE; h.phase = SR_PHASE_MINIMAL;
        }
        if (fz_u8(&f) < 80) { h.hint = fz_u8(&f); h.vclass = fz_u8(&f); }   /* anything */
        nc = sr_bgl_candidates(&t, &cfg, node, in_port, in_vc, &h, cand, SR_BGL_MAX_CANDIDATES);
        FZ_CHECK(nc == -1 || (nc >= 1 && nc <= SR_BGL_MAX_CANDIDATES), "%d candidates", nc);
        for (i = 0; i < nc; i++) {
            if (cand[i].port == t.proc_port) {
                FZ_CHECK(node == h.dest && nc == 1, "delivery away from the destination");
                continue;
            }
            FZ_CHECK(cand[i].port >= 0 && cand[i].port < t.proc_port && sr_neighbor(&t, node, cand[i].port) != SR_NO_NODE,
                     "port %d", cand[i].port);
            FZ_CHECK(cand[i].vc_lo <= cand[i].vc_hi && cand[i].vc_hi < n, "vcs %d..%d", cand[i].vc_lo, cand[i].vc_hi);
            FZ_CHECK(cand[i].cls == SR_CLASS_ESCAPE ? cand[i].vc_lo >= cfg.num_dynamic
                                                    : cand[i].cls == SR_CLASS_MINIMAL && cand[i].vc_hi < cfg.num_dynamic,
                     "class %d on VCs %d..%d", cand[i].cls, cand[i].vc_lo, cand[i].vc_hi);
        }
        if (sr_bgl_header_check(&t, &cfg, node, &h) == SR_OK) {
            sr_bgl_link links[SR_MAX_PORTS];
            uint64_t possible, available;
            int esc, hops;
            sr_header g = h;
            uint32_t u = node;
            FZ_CHECK(nc >= 1, "a valid header got %d candidates", nc);
            for (i = 0; i < nc; i++) {
                int p = cand[i].port, dd = p / 2;
                if (p == t.proc_port) continue;
                /* one hop along the ring towards the destination coordinate */
                FZ_CHECK(ring_gap(sr_coord(&t, sr_neighbor(&t, node, p), dd), sr_coord(&t, h.dest, dd), t.radix[dd], !(p & 1)) ==
                         ring_gap(sr_coord(&t, node, dd), sr_coord(&t, h.dest, dd), t.radix[dd], !(p & 1)) - 1,
                         "port %d does not close in", p);
            }
            for (i = 0; i < t.proc_port; i++) {
                int v;
                sr_bgl_link_init(&cfg, &links[i]);
                for (v = 0; v < n; v++) links[i].tokens[v] = (uint16_t)fz_range(&f, 0, sr_bgl_vc_chunks(&cfg, v));
            }
            e = sr_bgl_requests(&t, &cfg, cand, nc, in_port, in_vc, links, &possible, &available, &esc);
            if (e == SR_OK) {
                FZ_CHECK(!(available & ~(possible | (esc >= 0 ? (uint64_t)1 << esc : 0))), "available outside possible");
                FZ_CHECK(esc == -1 ? node == h.dest : esc >= 0 && esc < 64, "escape pair %d", esc);
            } else FZ_CHECK(e == SR_ERR_BGL_VC_RANGE && t.proc_port * n > 64, "requests gave %d", e);
            /* the escape alone arrives, in at most the sum of the radices */
            for (hops = 0; u != g.dest && hops <= 4 * 6; hops++) {
                int m = sr_bgl_candidates(&t, &cfg, u, t.proc_port, 0, &g, cand, SR_BGL_MAX_CANDIDATES);
                FZ_CHECK(m >= 1 && cand[m - 1].cls == SR_CLASS_ESCAPE, "no escape at %u", u);
                sr_bgl_header_advance(&t, &cfg, u, cand[m - 1].port, &g);
                u = sr_neighbor(&t, u, cand[m - 1].port);
                FZ_CHECK(sr_bgl_header_check(&t, &cfg, u, &g) == SR_OK, "header after a hop");
            }
            FZ_CHECK(u == g.dest && g.hint == 0, "the escape did not arrive");
        }
    }
    /* token counters against a ledger */
    {
        sr_bgl_link lk;
        int held[SR_BGL_MAX_VCS][64], nh[SR_BGL_MAX_VCS];
        memset(nh, 0, sizeof nh);
        FZ_CHECK(sr_bgl_link_init(&cfg, &lk) == SR_OK, "link init");
        for (steps = 0; steps < 200 && fz_more(&f); steps++) {
            int vc = fz_u8(&f) < 240 ? fz_range(&f, 0, n - 1) : fz_any_int(&f), ch = fz_u8(&f) < 240 ? fz_range(&f, 1, 8) : fz_any_int(&f);
            int move = fz_u8(&f) < 240 ? fz_range(&f, 0, 1) : fz_any_int(&f), bubble, left = 0, j;
            int vc_ok = vc >= 0 && vc < n, ch_ok = ch >= 1 && ch <= 8;
            bubble = vc_ok && (vc == n - 1 || (cfg.escape == SR_BGL_ESCAPE_BUBBLE && vc == cfg.num_dynamic));
            if (vc_ok) {
                left = sr_bgl_vc_chunks(&cfg, vc);
                for (j = 0; j < nh[vc]; j++) left -= bubble && cfg.bubble_rule == SR_BGL_RULE_FULL_SIZE ? 8 : held[vc][j];
                FZ_CHECK(lk.tokens[vc] == left, "vc %d: %d tokens, the ledger %d", vc, lk.tokens[vc], left);
            }
            if (fz_u8(&f) & 1) {
                int need = bubble && move == SR_BGL_MOVE_ENTER ? 16 : 8;
                e = sr_bgl_send(&cfg, &lk, vc, move, ch);
                if (!vc_ok) FZ_CHECK(e == SR_ERR_BGL_VC_RANGE, "send vc %d gave %d", vc, e);
                else if (!ch_ok) FZ_CHECK(e == SR_ERR_BGL_PACKET_SIZE, "send %d chunks gave %d", ch, e);
                else if (move != 0 && move != 1) FZ_CHECK(e == SR_ERR_BGL_OPTION, "send move %d gave %d", move, e);
                else if (left < need) FZ_CHECK(e == SR_ERR_BGL_TOKENS, "send with %d of %d tokens gave %d", left, need, e);
                else {
                    FZ_CHECK(e == SR_OK, "send gave %d", e);
                    if (nh[vc] < 64) held[vc][nh[vc]++] = ch;
                    else return 0;
                }
            } else if (vc_ok && nh[vc] && ch_ok) {
                FZ_CHECK(sr_bgl_tokens_return(&cfg, &lk, vc, held[vc][0]) == SR_OK, "return");
                for (j = 1; j < nh[vc]; j++) held[vc][j - 1] = held[vc][j];
                nh[vc]--;
            } else if (vc_ok && ch_ok && !nh[vc]) {
                FZ_CHECK(sr_bgl_tokens_return(&cfg, &lk, vc, ch) == SR_ERR_BGL_STATE, "a return with nothing charged");
            }
            FZ_CHECK(sr_bgl_link_check(&cfg, &lk) == SR_OK, "link check");
        }
    }
    return 0;
}
