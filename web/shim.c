/* SPDX-License-Identifier: MIT */
/* shim.c - what the interactive page (web/index.html) asks of the library.
 *
 * Compiled to WebAssembly (make web) together with seastar_arb.h and
 * seastar_route.h: the page runs the library's own code.  The shim keeps
 * the state of the three views in static storage (the page is one user)
 * and exchanges numbers with JavaScript through one array of int32
 * (ws_io), whose layout each function states.  Every setup function
 * returns a result code of the library (0 is OK), and ws_message names
 * the error in the library's words.
 *
 *   merging    seed 000 Figure 4: P0..P6 send to P7 on an 8-node line or
 *              ring, round-robin or age-based (Procedures 1-3 at every
 *              router, the output arbiter with AGE_RR_SELECT).
 *   allocation seed 002: the same request set through SPAA (nominate and
 *              grant), WFA, wrapped WFA, PIM1, iSLIP-1 and MCM.
 *   routing    seed 001: a small torus, its SeaStar tables (dimension
 *              order, or generated around failed links), a route looked up
 *              hop by hop, and the verifier's verdict with its witness.
 *
 * tests/web_native.c compiles this file natively as well; the browser test
 * (tests/web_check.py) compares the page with that build and with direct
 * calls of the library.
 */
#include <stdint.h>
#include <string.h>

#ifdef __wasm__
#define WS_EXPORT(name) __attribute__((export_name(#name)))
/* In the browser a failed precondition stops the module (the page reports
 * it) instead of calling a libc abort that WebAssembly has no use for. */
#define SA_ASSERT(c) ((c) ? (void)0 : __builtin_trap())
#define SR_ASSERT(c) ((c) ? (void)0 : __builtin_trap())
#else
#define WS_EXPORT(name)
#endif
/* The page draws at most 64 x 64 request matrices. */
#define SA_SWITCH_MAX 64
#include "../seastar_arb.h"
#include "../seastar_route.h"
#include "../examples/common/merging_model.h"

/* The exchange array: inputs written by JavaScript, outputs by the shim. */
#define WS_IO_WORDS 65536
static int32_t ws_io_words[WS_IO_WORDS];

WS_EXPORT(ws_io) int32_t *ws_io(void) { return ws_io_words; }

/* The message of the last error (a static string of the library). */
static const char *ws_last_message = "";

WS_EXPORT(ws_message) const char *ws_message(void) { return ws_last_message; }

/* The library version the module was built from: major * 10000 + minor * 100
 * + patch of seastar_arb.h. */
WS_EXPORT(ws_version) int ws_version(void) {
    return SEASTAR_ARB_VERSION_MAJOR * 10000 + SEASTAR_ARB_VERSION_MINOR * 100 + SEASTAR_ARB_VERSION_PATCH;
}

/* Bit b of a set of 64-bit words. */
static int ws_bit(const uint64_t *set, int b) { return (int)((set[b >> 6] >> (b & 63)) & 1u); }

static int ws_arb_error(sa_result r) {
    ws_last_message = sa_result_string(r);
    return (int)r;
}

static int ws_route_error(sr_result r) {
    ws_last_message = sr_result_string(r);
    return (int)r;
}

/* >>merging ===========================================================
 * Seed 000 Figure 4: traffic merging on an 8-node line (mesh) or ring
 * (torus), examples/common/merging_model.h (the model examples/merging.c
 * runs): one-flit packets, one hop per cycle, input FIFOs of 4 packets with
 * credits, one VC; every router runs Procedure 1 on arrival, Procedure 2 at
 * the FIFO heads, the output arbiter, and Procedure 3 every cycle.
 * ====================================================================== */

#define MG_NODES MERGING_NODES
#define MG_INS MERGING_INS
#define MG_OUTS MERGING_OUTS
#define MG_DEPTH MERGING_DEPTH

static merging_net mg;

/**
 * Reset the merging network.
 *
 * :param torus: 1 ring (8-ary 1-cube), 0 line (8-ary 1-mesh).
 * :param age_based: 1 AGE_RR_SELECT all ones, 0 all zeros (round-robin).
 * :param period: AGE_CLOCK_PERIOD (as an unsigned 32-bit value).
 * :param bias: REQ_AGE_BIAS of the two network input ports.
 * :param proc_bias: REQ_AGE_BIAS of the processor port (seed 000's
 *     footnote 5 suggests 0 there).
 * :returns: 0, or the sa_result of the configuration (ws_message names it).
 */
WS_EXPORT(mg_setup) int mg_setup(int torus, int age_based, uint32_t period, int bias, int proc_bias) {
    sa_result res = merging_setup(&mg, torus, age_based, period, bias, proc_bias);
    return res == SA_OK ? 0 : ws_arb_error(res);
}

/** Forget the packets delivered so far (after a warm-up). */
WS_EXPORT(mg_clear) void mg_clear(void) { memset(mg.delivered, 0, sizeof mg.delivered); }

/** Number of int32 words of one router in ws_io after mg_run. */
#define MG_NODE_WORDS (3 + MG_INS * (2 + MG_DEPTH) + MG_OUTS * 3)

/**
 * Run cycles, then write the state into ws_io:
 *   [0] cycles run, [1..8] packets delivered to P7 per source;
 *   from [9], MG_NODE_WORDS words per router: timestamp, epoch, inhibit;
 *   per input port: FIFO length, age of the head packet (Procedure 2, or
 *   -1), the sources of the 4 slots from the head (-1 empty); per output:
 *   the input port granted in the last cycle (-1 none), its policy (0
 *   round-robin, 1 age-based), its age.
 *
 * :param cycles: cycles to run first, 0..1000000.
 * :returns: MG_NODE_WORDS.
 */
WS_EXPORT(mg_run) int mg_run(int cycles) {
    int32_t *w = ws_io_words;
    int c, i, p, o, k;
    for (c = 0; c < cycles && c < 1000000; c++) merging_cycle(&mg, 1);
    *w++ = (int32_t)mg.cycle;
    for (i = 0; i < MG_NODES; i++) *w++ = (int32_t)mg.delivered[i];
    for (i = 0; i < MG_NODES; i++) {
        const merging_router *r = &mg.r[i];
        *w++ = r->clk.timestamp;
        *w++ = r->clk.epoch;
        *w++ = r->clk.inhibit;
        for (p = 0; p < MG_INS; p++) {
            const merging_fifo *f = &r->in[p];
            *w++ = f->len;
            *w++ = f->len ? (int32_t)sa_age_at_head(&r->clk, f->slot[f->head].age_field) : -1;
            for (k = 0; k < MG_DEPTH; k++) *w++ = k < f->len ? f->slot[(f->head + k) % MG_DEPTH].src : -1;
        }
        for (o = 0; o < MG_OUTS; o++) {
            *w++ = r->last[o].candidate;
            *w++ = r->last[o].candidate >= 0 ? r->last[o].policy : -1;
            *w++ = r->last[o].candidate >= 0 ? (int32_t)r->last[o].age : -1;
        }
    }
    return MG_NODE_WORDS;
}

/* >>allocation ========================================================
 * Seed 002: one request set through several switch allocators, each keeping
 * its own state from one allocation to the next.
 * ====================================================================== */

/* The allocators of the view, in the order the page shows them. */
static const sa_switch_kind al_kinds[] = { SA_SWITCH_SPAA, SA_SWITCH_WFA, SA_SWITCH_WFA_WRAPPED,
                                           SA_SWITCH_PIM, SA_SWITCH_ISLIP, SA_SWITCH_MCM };
#define AL_KINDS ((int)(sizeof al_kinds / sizeof al_kinds[0]))
#define AL_MEMORY 65536

static struct {
    sa_switch_desc desc;
    uint64_t no_connect[SA_SWITCH_MAX];
    sa_switch sw[AL_KINDS];
    uint64_t memory[AL_KINDS][AL_MEMORY / 8];
    uint64_t req[SA_SWITCH_MAX * SA_WORDS(SA_SWITCH_MAX)];
} al;

/* Whether the Rotary Rule applies to a kind (seed 002 Section 3.4: SPAA and
 * WFA; the library also gives it to wrapped WFA and PIM). */
static int al_rotary_applies(sa_switch_kind k) {
    return k == SA_SWITCH_SPAA || k == SA_SWITCH_WFA || k == SA_SWITCH_WFA_WRAPPED || k == SA_SWITCH_PIM;
}

/**
 * Set up the allocators.
 *
 * :param preset: 1 the Alpha 21364's 16 x 7 connection matrix with its
 *     network inputs (read ports of L-N, L-S, L-E, L-W; read-port pairing
 *     is left off: every cell stands for its own packet); 0 a full n x m
 *     crossbar whose first `network` inputs are network inputs.
 * :param n: input arbiters (ignored with the preset).
 * :param m: outputs (ignored with the preset).
 * :param network: network inputs of the crossbar, 0..n.
 * :param rotary: 1 the Rotary Rule on (for the kinds that have it).
 * :param seed: seed of PIM's random numbers.
 * :returns: 0 or the sa_result (ws_message names it).  ws_io receives
 *     [0] n, [1] m, then n x m cells: 1 connected, 0 not; then n flags: 1
 *     network input.
 */
WS_EXPORT(al_setup) int al_setup(int preset, int n, int m, int network, int rotary, uint32_t seed) {
    int k, i, j;
    memset(&al, 0, sizeof al);
    if (preset) {
        sa_switch_desc_21364(&al.desc, SA_SWITCH_SPAA, rotary);
        al.desc.read_port_pairs = 0;
    } else {
        al.desc.num_inputs = n;
        al.desc.num_outputs = m;
        al.desc.rotary = rotary != 0;
        if (network < 0 || network > n || network > SA_SWITCH_MAX) return ws_arb_error(SA_ERR_PARAM_RANGE);
        for (i = 0; i < network; i++) al.desc.network_inputs[i >> 6] |= (uint64_t)1 << (i & 63);
    }
    al.desc.iterations = 1;
    al.desc.seed = seed;
    for (k = 0; k < AL_KINDS; k++) {
        sa_switch_desc d = al.desc;
        sa_result r;
        d.kind = al_kinds[k];
        d.rotary = al.desc.rotary && al_rotary_applies(d.kind);
        if (sa_switch_memory_size(&d) > AL_MEMORY) return ws_arb_error(SA_ERR_SIZE_RANGE);
        r = sa_switch_init(&al.sw[k], &d, al.memory[k], AL_MEMORY);
        if (r != SA_OK) return ws_arb_error(r);
    }
    n = al.sw[0].num_inputs;
    m = al.sw[0].num_outputs;
    ws_io_words[0] = n;
    ws_io_words[1] = m;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) ws_io_words[2 + i * m + j] = ws_bit(al.sw[0].connect + (size_t)i * (size_t)al.sw[0].row_words, j);
    for (i = 0; i < n; i++) ws_io_words[2 + n * m + i] = ws_bit(al.sw[0].network_inputs, i);
    return 0;
}

/**
 * Draw a request set: each connected cell is requested with probability
 * density / 1000 (sa_rng seeded with `seed`, cells row by row).
 *
 * :param seed: the draw's seed.
 * :param density: requests per thousand cells, 0..1000.
 * :returns: the number of requests; ws_io receives the n x m cells (1
 *     requested).
 */
WS_EXPORT(al_draw) int al_draw(uint32_t seed, int density) {
    const sa_switch *a = &al.sw[0];
    sa_rng rng;
    int i, j, count = 0;
    sa_rng_seed(&rng, seed);
    for (i = 0; i < a->num_inputs; i++)
        for (j = 0; j < a->num_outputs; j++) {
            int on = (int)sa_rng_below(&rng, 1000) < density &&
                     ws_bit(a->connect + (size_t)i * (size_t)a->row_words, j);
            ws_io_words[i * a->num_outputs + j] = on;
            count += on;
        }
    return count;
}

/* PIM1's grants, which sa_switch_allocate does not report, worked out
 * from the allocator's sa_rng by the draw protocol of the >>pim section of
 * seastar_arb.h, with its own draw helpers (sa__draws_begin,
 * sa__draw_block, sa__draw_index).  al_allocate shows them only when the
 * accepts worked out the same way are the library's matching, cell for
 * cell. */
/* PIM1 on the request set: grant_of[j] the input output j grants (-1),
 * accepted[i] the output input i accepts (-1); rng is the allocator's
 * generator before the allocation. */
static void al_pim1(const sa_switch *a, sa_rng rng, int16_t *grant_of, int16_t *accepted) {
    sa__draws d;
    uint16_t u[SA_SWITCH_MAX];
    int cand[SA_SWITCH_MAX], n = a->num_inputs, m = a->num_outputs, i, j, c, net, any = 0;
    for (j = 0; j < m; j++) grant_of[j] = -1;
    for (i = 0; i < n; i++) accepted[i] = -1;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) any |= ws_bit(al.req + (size_t)i * (size_t)a->row_words, j) &&
                                      ws_bit(a->connect + (size_t)i * (size_t)a->row_words, j);
    if (!any) return;                                /* no iteration, no draws */
    sa__draws_begin(&d, &rng);
    sa__draw_block(&d, m, u);                        /* 2. grant */
    for (j = 0; j < m; j++) {
        for (c = net = i = 0; i < n; i++)
            if (ws_bit(al.req + (size_t)i * (size_t)a->row_words, j) &&
                ws_bit(a->connect + (size_t)i * (size_t)a->row_words, j)) {
                cand[c++] = i;
                net |= ws_bit(a->network_inputs, i);
            }
        if (a->rotary && net) {                      /* Rotary Rule: network inputs only */
            int k, kept = 0;
            for (k = 0; k < c; k++)
                if (ws_bit(a->network_inputs, cand[k])) cand[kept++] = cand[k];
            c = kept;
        }
        if (c > 0) grant_of[j] = (int16_t)cand[sa__draw_index(&d, u[j], (uint32_t)c)];
    }
    sa__draw_block(&d, n, u);                        /* 3. accept */
    for (i = 0; i < n; i++) {
        for (c = j = 0; j < m; j++)
            if (grant_of[j] == i) cand[c++] = j;
        if (c > 0) accepted[i] = (int16_t)cand[sa__draw_index(&d, u[i], (uint32_t)c)];
    }
}

/** Words per allocator in ws_io after al_allocate. */
#define AL_WORDS(n, m) (4 + 2 * (n) + (m))

/**
 * Allocate the request set in ws_io (n x m cells, nonzero requested) with
 * every allocator of the view, each from its own state.
 *
 * ws_io receives, per allocator in the order SPAA, WFA, wrapped WFA, PIM1,
 * iSLIP-1, MCM, AL_WORDS(n, m) words: the matching's size; the state
 * before the allocation (WFA: start row and start column; wrapped WFA: -1
 * and the priority diagonal; the others -1, -1); per input its matched
 * output (-1 none); per input its SPAA nomination (SPAA only; -1 none or
 * another kind); per output the input PIM1 granted (PIM1 only; -1 none or
 * another kind); last, for PIM1, 1 when the grants shown are those whose
 * accepts give the library's matching (0 otherwise, and for the others).
 *
 * :returns: AL_WORDS(n, m).
 */
WS_EXPORT(al_allocate) int al_allocate(void) {
    int n = al.sw[0].num_inputs, m = al.sw[0].num_outputs, rw = al.sw[0].row_words, i, j, k;
    memset(al.req, 0, sizeof al.req);
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            if (ws_io_words[i * m + j]) al.req[(size_t)i * (size_t)rw + (size_t)(j >> 6)] |= (uint64_t)1 << (j & 63);
    for (k = 0; k < AL_KINDS; k++) {
        sa_switch *a = &al.sw[k];
        int32_t *w = ws_io_words + k * AL_WORDS(n, m);
        int16_t nomination[SA_SWITCH_MAX], grant_of[SA_SWITCH_MAX], accepted[SA_SWITCH_MAX];
        int agree = a->kind == SA_SWITCH_PIM;
        sa_match match;
        w[1] = a->kind == SA_SWITCH_WFA ? a->start_row : -1;
        w[2] = a->kind == SA_SWITCH_WFA || a->kind == SA_SWITCH_WFA_WRAPPED ? a->start_col : -1;
        if (a->kind == SA_SWITCH_PIM) al_pim1(a, a->rng, grant_of, accepted);
        if (a->kind == SA_SWITCH_SPAA) {
            sa_spaa_nominate(a, al.req, NULL, NULL, nomination);   /* step 1 */
            sa_spaa_grant(a, nomination, &match);                   /* steps 2-3 */
        } else {
            sa_switch_allocate(a, al.req, NULL, NULL, &match);
        }
        w[0] = match.size;
        for (i = 0; i < n; i++) {
            w[3 + i] = match.output_of[i];
            w[3 + n + i] = a->kind == SA_SWITCH_SPAA ? nomination[i] : -1;
            if (a->kind == SA_SWITCH_PIM && accepted[i] != match.output_of[i]) agree = 0;
        }
        for (j = 0; j < m; j++) w[3 + 2 * n + j] = agree ? grant_of[j] : -1;
        w[3 + 2 * n + m] = agree;
    }
    return AL_WORDS(n, m);
}

/* >>routing ===========================================================
 * Seed 001: a small torus, its routing tables, a route, and the verdict.
 * ====================================================================== */

#define RT_MAX_NODES 512
#define RT_SCRATCH (4u << 20)

static struct {
    sr_topology t;
    sr_faults f;
    uint32_t fault_words[RT_MAX_NODES];
    uint8_t tables[2u << 20];
    uint32_t scratch[RT_SCRATCH / 4];
    sr_verify_report rep;
    sr_gen_report gen;
    int built;
} rt;

/**
 * Set up a torus of x * y * z routers, dateline at 0, no faults.
 *
 * :param x: radix of x, 2..SR limits.
 * :param y: radix of y.
 * :param z: radix of z.
 * :returns: 0 or the sr_result (ws_message names it).
 */
WS_EXPORT(rt_setup) int rt_setup(int x, int y, int z) {
    sr_topology_desc d;
    sr_result r;
    memset(&d, 0, sizeof d);
    memset(&rt.t, 0, sizeof rt.t);
    rt.built = 0;
    d.num_dims = 3;
    d.radix[0] = x;
    d.radix[1] = y;
    d.radix[2] = z;
    r = sr_topology_init(&rt.t, &d);
    if (r != SR_OK) return ws_route_error(r);
    if (rt.t.num_nodes > RT_MAX_NODES || (size_t)rt.t.num_nodes * sr_table_size(&rt.t) > sizeof rt.tables ||
        sr_gen_scratch_size(&rt.t) > RT_SCRATCH) {
        rt.t.num_nodes = 0;
        return ws_route_error(SR_ERR_NODE_RANGE);
    }
    return ws_route_error(sr_faults_init(&rt.f, &rt.t, rt.fault_words, sizeof rt.fault_words));
}

/**
 * Fail a link (both directions).
 *
 * :param node: one end.
 * :param port: its network port (2d: +d, 2d+1: -d).
 * :returns: 0 or the sr_result.
 */
WS_EXPORT(rt_fail_link) int rt_fail_link(int node, int port) {
    if (rt.t.num_nodes == 0) return ws_route_error(SR_ERR_NULL);
    if (node < 0) return ws_route_error(SR_ERR_NODE_RANGE);
    rt.built = 0;
    return ws_route_error(sr_fault_link(&rt.f, &rt.t, (uint32_t)node, port));
}

/** rt_build's methods: the tables of dimension-order routing, blind to the
 *  faults (sr_table_build_dor at every router). */
#define RT_DOR 0
/** SeaStar's fault rules, datelines chosen from the fault set. */
#define RT_SEASTAR 1
/** SeaStar's fault rules with the datelines kept at 0. */
#define RT_SEASTAR_FIXED 2
/** The search-based generator. */
#define RT_SEARCH 3

/**
 * Build every router's tables with a method, then verify them against the
 * faults.
 *
 * :param method: RT_DOR, RT_SEASTAR, RT_SEASTAR_FIXED or RT_SEARCH.
 * :returns: the generator's sr_result (RT_DOR: SR_OK once built), or -1
 *     for an unknown method.  ws_io receives: [0] proven, [1] the
 *     sr_failure, [2] src, [3] dst, [4] witness length, [5] truncated,
 *     [6] pairs, [7] delivered, [8] unroutable, [9..11] the datelines
 *     used, then per witness step: node, in_port, out_port, vc.
 */
WS_EXPORT(rt_build) int rt_build(int method) {
    size_t per = sr_table_size(&rt.t), all = (size_t)rt.t.num_nodes * per;
    sr_result r = SR_OK;
    sr_seastar_options opt;
    int32_t *w = ws_io_words;
    int i;
    uint32_t u;
    if (rt.t.num_nodes == 0) return ws_route_error(SR_ERR_NULL);
    memset(&rt.gen, 0, sizeof rt.gen);
    memset(&opt, 0, sizeof opt);
    for (i = 0; i < 3; i++) rt.gen.dateline[i] = rt.t.dateline[i];
    if (method == RT_DOR) {
        for (u = 0; u < rt.t.num_nodes && r == SR_OK; u++) r = sr_table_build_dor(&rt.t, u, rt.tables + u * per, per);
    } else if (method == RT_SEASTAR || method == RT_SEASTAR_FIXED) {
        opt.fixed_datelines = method == RT_SEASTAR_FIXED;
        r = sr_tables_build_seastar_opt(&rt.t, &rt.f, &opt, rt.tables, all, rt.scratch, sizeof rt.scratch, NULL, 0, &rt.gen);
    } else if (method == RT_SEARCH) {
        r = sr_tables_build_search(&rt.t, &rt.f, NULL, rt.tables, all, rt.scratch, sizeof rt.scratch, NULL, 0, &rt.gen);
    } else {
        ws_last_message = "unknown table method";
        return -1;
    }
    if (r != SR_OK && r != SR_ERR_DEADLOCK && r != SR_ERR_UNDELIVERED) return ws_route_error(r);
    rt.built = 1;
    sr_verify(&rt.t, &rt.f, rt.tables, 0, rt.scratch, sizeof rt.scratch, &rt.rep);
    w[0] = rt.rep.proven;
    w[1] = (int32_t)rt.rep.failure;
    w[2] = (int32_t)rt.rep.src;
    w[3] = (int32_t)rt.rep.dst;
    w[4] = rt.rep.witness_len;
    w[5] = rt.rep.witness_truncated;
    w[6] = (int32_t)rt.rep.pairs;
    w[7] = (int32_t)rt.rep.delivered;
    w[8] = (int32_t)rt.rep.unroutable;
    for (i = 0; i < 3; i++) w[9 + i] = rt.gen.dateline[i];
    for (i = 0; i < rt.rep.witness_len; i++) {
        w[12 + 4 * i] = (int32_t)rt.rep.witness[i].node;
        w[13 + 4 * i] = rt.rep.witness[i].in_port;
        w[14 + 4 * i] = rt.rep.witness[i].out_port;
        w[15 + 4 * i] = rt.rep.witness[i].vc;
    }
    ws_last_message = sr_failure_string(rt.rep.failure);
    return (int)r;
}

/** The message of an sr_failure (the verifier's words). */
WS_EXPORT(rt_failure_string) const char *rt_failure_string(int f) {
    return sr_failure_string((sr_failure)f);
}

/**
 * Follow the built tables from src to dst, VC 0 at injection: at each
 * router the entry for (input port, dst) gives the output port and the VC
 * update (sr_table_lookup, sr_entry_vc), and the next router is the usable
 * neighbour on that port (sr_next_hop).
 *
 * :param src: source router.
 * :param dst: destination router.
 * :returns: the number of hops written to ws_io (node, in_port, out_port,
 *     vc out, four words each; the last is the ejection or the failing
 *     step), or -1 if src or dst is not a router or nothing is built.
 *     ws_io[0] holds the outcome: 1 delivered, 0 no route (an unroutable
 *     entry, a dead end or a failed link), 2 a loop.
 */
WS_EXPORT(rt_route) int rt_route(int src, int dst) {
    uint32_t node = (uint32_t)src;
    int in_port = rt.t.proc_port, vc = 0, hops = 0, outcome = 0;
    int32_t *w = ws_io_words + 1;
    if (!rt.built || src < 0 || dst < 0 || (uint32_t)src >= rt.t.num_nodes || (uint32_t)dst >= rt.t.num_nodes) return -1;
    for (;;) {
        sr_entry e = sr_table_lookup(&rt.t, rt.tables + (size_t)node * sr_table_size(&rt.t), node, in_port,
                                     (uint32_t)dst);
        int port = sr_entry_port(e);
        uint32_t next;
        w[4 * hops] = (int32_t)node;
        w[4 * hops + 1] = in_port;
        w[4 * hops + 2] = port;
        w[4 * hops + 3] = port == SR_PORT_NONE ? vc : sr_entry_vc(e, vc);
        hops++;
        if (port == rt.t.proc_port) { outcome = node == (uint32_t)dst; break; }
        if (port == SR_PORT_NONE || port > rt.t.proc_port) break;
        next = sr_next_hop(&rt.t, &rt.f, node, port);
        if (next == SR_NO_NODE) break;
        if (hops > 4 * (int)rt.t.num_nodes) { outcome = 2; break; }
        vc = sr_entry_vc(e, vc);
        in_port = port ^ 1;      /* arriving on the link's other end */
        node = next;
    }
    ws_io_words[0] = outcome;
    return hops;
}
