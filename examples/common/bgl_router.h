/* SPDX-License-Identifier: MIT */
/* bgl_router.h - the BlueGene/L torus router (seed 003, Blumrich et al.),
 * a router model of the simulator core (net_core.h).  Example code, not
 * the installed library: every decision is a call of seastar_route.h's
 * >>bluegene section (hint bits, candidates, tokens and the bubble rules)
 * or seastar_arb.h's >>bgl section (JSQ, SLQ); this file holds the
 * buffers, the links and the clock.  docs/bluegene.rst shows its results
 * next to the paper's.
 *
 * Units.  The paper's network cycle moves one byte (line 71); here a core
 * cycle moves one "flit" of BGL_FLIT_BYTES = 4 bytes, so a 256-byte packet
 * is 64 flits and a 32-byte chunk (a token) is 8.  Packets are 32 to 256
 * bytes in 32-byte chunks ("from 32 to 256 bytes in increments of 32 byte
 * chunks", line 43); the core's packet size is the packet's flits.
 *
 * The router, per node (line 49-65):
 *
 *   - six receivers, one per incoming link, each with the VCs of an
 *     sr_bgl_config (2 dynamic, the bubble escape or the dateline pair, the
 *     high-priority bubble VC; 1 KB each by default, line 51) as FIFOs of
 *     packets, and ``paths`` transfer buses to the senders (2: "two
 *     transfer busses (paths) coming out of each receiver", line 57) and
 *     one to the reception FIFO ("a dedicated bus between each receiver and
 *     its corresponding reception FIFO", line 49);
 *   - the bypass: a packet that arrives at an empty VC FIFO is on the
 *     bypass until the first cycle it may request; it may request
 *     ``bypass_pipeline`` cycles after its arrival instead of ``pipeline``,
 *     and SLQ serves it last (line 51, line 63).  This reading of "under
 *     appropriate circumstances" is the model's;
 *   - injection FIFOs: the core's terminal input port, with nc_params.vcs
 *     FIFOs of nc_params.buf_flits[SR_PORT_TERMINAL] flits (1,000,000: the
 *     paper's "infinite", line 77) fed at nc_params.inject_speedup flits
 *     per cycle from the core's unbounded source queue ("packets are placed
 *     in these FIFOs as early as possible");
 *   - six senders, one per outgoing link, with the token counters of the
 *     VCs at the far end (sr_bgl_link);
 *   - arbitration, the three phases of lines 59-65, every cycle: (1) each
 *     packet at the head of a FIFO that may request asks sr_bgl_candidates
 *     and sr_bgl_requests for its possible and available (direction, VC)
 *     pairs, ands the latter with the links that are free, and chooses by
 *     sa_bgl_jsq (with ``jsq`` off, the "base" random policy of Figure 2:
 *     every pair's range equal, so JSQ's random tie-break picks); at its
 *     destination it requests its receiver's reception bus; (2) each
 *     receiver presents at most one request, chosen by sa_bgl_slq_receiver
 *     (``slq`` fraction of SLQ cycles, the rest random); (3) each free
 *     sender chooses by sa_bgl_slq_sender among the receivers and injection
 *     FIFOs that request it, a token-ack first;
 *   - the arbitration pipeline as a delay: a packet may first request
 *     ``pipeline`` cycles after its header arrived ("modeled as a delay of
 *     several cycles followed by presentation of the arbitration request",
 *     line 77);
 *   - virtual cut-through: a granted packet's header leaves at once; the
 *     link is busy for its flits and a CRC trailer (``crc_bytes``, line 45);
 *     its FIFO and the receiver's bus are busy until its tail has left;
 *   - tokens: the sender charges the VC downstream (sr_bgl_send, with the
 *     bubble rule of the configuration); when the tail has left the
 *     downstream buffer, that router owes the sender a token-ack
 *     (``ack_bytes`` on the reverse link, ahead of any packet, line 55 and
 *     65), and the tokens come back when the ack has crossed the link
 *     (sr_bgl_tokens_return).
 *
 * What the model does not do: the error recovery protocol and ack-only
 * packets (the paper's simulator did not either, line 79), broadcast,
 * high-priority traffic (the candidates and rules support it; no traffic
 * pattern sends it), and the cycle-level detail of the pipelined arbiters.
 */
#ifndef BGL_ROUTER_H
#define BGL_ROUTER_H

#include "../../seastar_arb.h"
#include "net_core.h"
#include "sim_bits.h"
#include "../../seastar_route.h"

/** Bytes a link moves per core cycle. */
#define BGL_FLIT_BYTES 4
/** Flits of a 32-byte chunk (one token). */
#define BGL_CHUNK_FLITS (SR_BGL_CHUNK_BYTES / BGL_FLIT_BYTES)
/** Packet state: in a FIFO of a router. */
#define BGL_IN_FIFO NC_PKT_MODEL
/** Most token-acks a receiver may owe at once. */
#define BGL_MAX_ACKS 64
/** Most receiver paths. */
#define BGL_MAX_PATHS 4

/** Parameters of the router (bgl_params_default fills them). */
typedef struct bgl_params {
    sr_bgl_config cfg;     /**< VCs, escape, order, bubble rule, buffers */
    int paths;             /**< transfer buses from a receiver to the
                                senders, 1..BGL_MAX_PATHS (2) */
    int pipeline;          /**< cycles from a header's arrival to its first
                                request, 1..1000 (4: 16 byte-times) */
    int bypass_pipeline;   /**< the same on the bypass, 1..pipeline (2) */
    int crc_bytes;         /**< trailer bytes on the link per packet (4) */
    int ack_bytes;         /**< link bytes of the token-ack of a packet
                                (12: 8 bytes and a trailer; see
                                docs/bluegene.rst) */
    int payload_overhead;  /**< bytes of a packet that are not payload (16:
                                a 256-byte packet carries 240, line 89) */
    int jsq;               /**< 1: JSQ (line 61); 0: random among the
                                available pairs (the "base" policy) */
    uint32_t slq_num, slq_den;   /**< fraction of SLQ cycles at receivers
                                      and senders (0/1: random, "base") */
    uint32_t net_num, net_den;   /**< fraction of cycles a sender favours
                                      in-network packets (1/1, line 65) */
    int static_routing;    /**< 1: every packet statically (xyz) routed */
} bgl_params;

/** Defaults: the machine's configuration (sr_bgl_config_default), 2
 *  paths, pipeline 4, bypass 2, CRC 4, token-ack 12, payload overhead 16,
 *  JSQ on, SLQ on 3 of 4 cycles (Figure 5's 75%), in-network priority on
 *  every cycle, dynamic routing. */
static inline void bgl_params_default(bgl_params *p) {
    memset(p, 0, sizeof *p);
    sr_bgl_config_default(&p->cfg);
    p->paths = 2;
    p->pipeline = 4;
    p->bypass_pipeline = 2;
    p->crc_bytes = 4;
    p->ack_bytes = 12;
    p->payload_overhead = 16;
    p->jsq = 1;
    p->slq_num = 3; p->slq_den = 4;
    p->net_num = 1; p->net_den = 1;
}

/** Check the parameters; NULL or a message naming the field. */
static inline const char *bgl_params_check(const bgl_params *p) {
    sr_result e = sr_bgl_config_check(&p->cfg);
    uint32_t b[3];
    if (e == SR_ERR_BGL_DYNAMIC_VCS) return "at least one dynamic VC (and at most 8)";
    if (e == SR_ERR_BGL_BUBBLE_BUFFER) return "a bubble VC must hold two full-sized packets (512 bytes)";
    if (e != SR_OK) return sr_result_string(e);
    if (p->paths < 1 || p->paths > BGL_MAX_PATHS) return "paths must be 1..4";
    if (p->pipeline < 1 || p->pipeline > 1000) return "the arbitration pipeline must be 1..1000 cycles";
    if (p->bypass_pipeline < 1 || p->bypass_pipeline > p->pipeline) return "the bypass pipeline must be 1..pipeline cycles";
    if (p->crc_bytes < 0 || p->crc_bytes > 64 || p->crc_bytes % BGL_FLIT_BYTES)
        return "the CRC trailer must be 0..64 bytes, a multiple of 4";
    if (p->ack_bytes < 0 || p->ack_bytes > 64 || p->ack_bytes % BGL_FLIT_BYTES)
        return "the token-ack must be 0..64 bytes, a multiple of 4";
    if (p->payload_overhead < 0 || p->payload_overhead >= SR_BGL_MIN_PACKET_BYTES)
        return "the payload overhead must be 0..31 bytes";
    if (sa_bgl_ranges_quarters(32, b) != SA_OK) return "ranges";
    if (p->slq_den < 1 || p->slq_num > p->slq_den) return "the SLQ fraction must be num/den with num <= den";
    if (p->net_den < 1 || p->net_num > p->net_den) return "the in-network fraction must be num/den with num <= den";
    return NULL;
}

/** Check a packet size in flits: 32..256 bytes in 32-byte chunks. */
static inline const char *bgl_size_check(int flits) {
    int chunks;
    if (sr_bgl_packet_chunks(flits * BGL_FLIT_BYTES, &chunks) != SR_OK)
        return "packet sizes must be 32 to 256 bytes, a multiple of 32 (8 to 64 flits of 4 bytes, a multiple of 8)";
    return NULL;
}

/** Injection FIFOs of a node (line 49: six normal-priority FIFOs). */
#define BGL_INJECTION_FIFOS 6

/** The core's parameters for the router: BGL_INJECTION_FIFOS injection
 *  FIFOs (or the configuration's VCs, if more) of ``inj_bytes`` each (0:
 *  the paper's "infinite", 4,000,000 bytes, the most the core takes), fed
 *  at BGL_INJECTION_FIFOS flits per cycle ("Up to six injection ... FIFOs
 *  may be simultaneously active"), packets up to 256 bytes, latency 1 on
 *  every channel.  Network buffers are the model's (nc_params.buf_flits of
 *  the dimension ports only has to hold the largest packet). */
static inline void bgl_nc_params(nc_params *p, const bgl_params *bp, uint32_t inj_bytes) {
    int k, nv = sr_bgl_num_vcs(&bp->cfg);
    nc_params_default(p);
    p->vcs = nv > BGL_INJECTION_FIFOS ? nv : BGL_INJECTION_FIFOS;
    p->max_packet_flits = SR_BGL_MAX_PACKET_BYTES / BGL_FLIT_BYTES;
    for (k = 0; k < SR_PORT_KIND_COUNT; k++) { p->buf_flits[k] = p->max_packet_flits; p->latency[k] = 1; }
    p->buf_flits[SR_PORT_TERMINAL] = inj_bytes ? (int)(inj_bytes / BGL_FLIT_BYTES) : 1000000;
    p->inject_speedup = BGL_INJECTION_FIFOS;
    p->wake_ahead = 2 * p->max_packet_flits + bp->pipeline + 32;
}

/** One FIFO: a VC of a receiver, or an injection FIFO. */
typedef struct bgl_fifo {
    sim_fifo q;           /**< its packets */
    uint64_t free_at;     /**< first cycle its next packet may leave (the
                               one before has left by then) */
    uint64_t head_at;     /**< first cycle its head may request: the later
                               of free_at and the head's t_ready (kept
                               here so that a step need not read the
                               packet) */
    uint32_t chunks;      /**< chunks of the packets in it */
    uint8_t bypass;       /**< its head is on the bypass */
    uint8_t spare[3];
} bgl_fifo;

/** A token-ack a receiver owes the sender of its link. */
typedef struct bgl_ack { uint64_t due; uint8_t vc, chunks, spare[6]; } bgl_ack;

/** What the model counts in a measurement window. */
typedef struct bgl_stats {
    uint64_t start;          /**< first cycle */
    uint64_t packet_flits;   /**< link flits of packets (with trailers) */
    uint64_t ack_flits;      /**< link flits of token-acks */
    uint64_t payload_bytes;  /**< payload bytes over links */
    uint64_t hops;           /**< packet hops */
    uint64_t escape_hops;    /**< hops on an escape VC (bubble or dateline) */
    uint64_t acks;           /**< token-acks that came back */
    uint64_t unblocking;     /**< of them, those that made a packet that
                                  waited for their VC's tokens able to go */
} bgl_stats;

/** The model. */
typedef struct bgl_model {
    bgl_params p;
    sr_topology t;           /**< the torus (the core's cube) */
    int P, NP, V, NV, F;     /**< ports, network ports, FIFO slots per port
                                  (nc vcs), VCs of a link, injection FIFOs */
    int crc_flits, ack_flits;
    bgl_fifo *fifo;          /**< [r][P][V] */
    uint64_t *busy;          /**< [r]: FIFOs with a packet (bit p * V + v) */
    sr_bgl_link *tok;        /**< [r][NP]: the senders' token counters */
    uint64_t *link_free;     /**< [r][NP]: first cycle the link is free */
    uint64_t *bus_free;      /**< [r][NP][paths]: receiver transfer buses */
    uint64_t *rx_free;       /**< [r][NP]: reception buses */
    bgl_ack *acks;           /**< [BGL_MAX_ACKS][r][NP] (bgl__ack): the
                                  first of every port's side by side */
    size_t ports;            /**< routers times NP (the stride of acks) */
    uint8_t *nacks;          /**< [r][NP] */
    uint64_t *ack_first;     /**< [r][NP]: the earliest due of the
                                  token-acks owed (read while some are) */
    uint32_t *owed;          /**< [r]: ports with a token-ack owed (bit) */
    uint64_t *waits;         /**< [r][NP]: VCs (bit) whose tokens a ready head
                                  waits for (the unblocking statistics) */
    sr_bgl_cutoffs *cut;     /**< [r]: the two registers per dimension */
    sa_rng *rng;             /**< [r] */
    sa_bgl_cycles *slq;      /**< [r]: SLQ cycles */
    sa_bgl_cycles *netc;     /**< [r]: in-network cycles */
    uint32_t tok_bounds[SR_BGL_MAX_VCS][3];  /**< JSQ's ranges per VC */
    uint32_t fill_bounds[SR_BGL_MAX_VCS][3]; /**< SLQ's fullness ranges */
    uint32_t inj_bounds[3];
    uint8_t fifo_port[64];   /**< the port of FIFO bit b (b / V) */
    uint8_t pair_port[64], pair_vc[64]; /**< the (port, VC) of request
                                  pair bit b (b / NV, b % NV) */
    uint64_t recv_bits;      /**< the FIFO bits of the receivers */
    void *hdr;               /**< sr_header per packet (nc_model.side) */
    uint32_t hdr_cap;
    bgl_stats st;
    uint64_t *link_flits;    /**< [r][NP]: link flits (packets and acks) in
                                  the window, per link */
    uint64_t moved;          /**< packets that left a FIFO */
} bgl_model;

/** The header of packet pi. */
static inline sr_header *bgl_hdr(const bgl_model *m, uint32_t pi) { return (sr_header *)m->hdr + pi; }

/* Token-ack i of port k (= r * NP + p). */
static inline bgl_ack *bgl__ack(const bgl_model *m, size_t k, int i) { return &m->acks[(size_t)i * m->ports + k]; }

static inline bgl_fifo *bgl__fifo(bgl_model *m, uint32_t r, int p, int v) {
    return &m->fifo[((size_t)r * (uint32_t)m->P + (uint32_t)p) * (uint32_t)m->V + (uint32_t)v];
}

/** Start a measurement window now. */
static inline void bgl_stats_reset(bgl_model *m, uint64_t now, uint32_t routers) {
    memset(&m->st, 0, sizeof m->st);
    m->st.start = now;
    memset(m->link_flits, 0, (size_t)routers * (uint32_t)m->NP * sizeof(uint64_t));
}

/** Links between routers of the network (the denominator of link use). */
static inline uint64_t bgl_links(const nc_net *net) {
    uint64_t n = 0;
    uint32_t r;
    int p;
    for (r = 0; r < net->routers; r++)
        for (p = 0; p < net->nports[r]; p++)
            if (nc_port_kind(net, r, p) != SR_PORT_TERMINAL && nc_out_chan(net, r, p)->to != SR_NO_NODE) n++;
    return n;
}

/* ---- the model's calls ------------------------------------------------ */

static inline void bgl__arrive(void *self, nc_net *net, uint32_t r, int in_port, uint32_t pi) {
    bgl_model *m = (bgl_model *)self;
    sim_packet *pk = &net->pool.pkt[pi];
    bgl_fifo *f = bgl__fifo(m, r, in_port, pk->vc);
    int empty = f->q.head == SIM_NIL;
    if (in_port == m->NP) {                       /* injected: a new header */
        /* sr_bgl_header_init without its checks of the registers (bgl_init
         * made them with sr_bgl_cutoffs_minimal) */
        sr_header *h = bgl_hdr(m, pi);
        memset(h, 0, sizeof *h);
        h->dest = pk->dst;
        h->inter = SR_NO_NODE;
        h->phase = SR_PHASE_MINIMAL;
        h->hint = sr_bgl_hint_bits(&m->t, r, pk->dst, &m->cut[r]);
        h->vclass = (uint8_t)(m->p.static_routing ? SR_BGL_CLASS_STATIC : 0);
        empty = 0;                                /* no bypass from injection */
    }
    pk->in_port = (uint8_t)in_port;
    pk->state = BGL_IN_FIFO;
    pk->t_ready = net->now + (uint64_t)(empty ? m->p.bypass_pipeline : m->p.pipeline);
    f->chunks += pk->size / BGL_CHUNK_FLITS;
    sim_fifo_push(&f->q, net->pool.pkt, pi);
    if (f->q.head == pi) {
        m->busy[r] |= (uint64_t)1 << (in_port * m->V + pk->vc);
        f->bypass = (uint8_t)empty;
        f->head_at = pk->t_ready > f->free_at ? pk->t_ready : f->free_at;
        nc_wake(net, r, f->head_at);
    }
}

static inline void bgl__credit(void *self, nc_net *net, uint32_t r, int out_port, int vc, uint32_t chunks) {
    bgl_model *m = (bgl_model *)self;
    sr_bgl_link *lk = &m->tok[(size_t)r * (uint32_t)m->NP + (uint32_t)out_port];
    uint64_t *w = &m->waits[(size_t)r * (uint32_t)m->NP + (uint32_t)out_port];
    int before = sr_bgl_may_send(&m->p.cfg, lk, vc, SR_BGL_MOVE_STRAIGHT);
    if (sr_bgl_tokens_return(&m->p.cfg, lk, vc, (int)chunks) != SR_OK) sim_die("bgl_router: tokens returned twice");
    m->st.acks++;
    /* only a head that found this VC short of tokens can be waiting for
     * them (heads blocked otherwise run again when what they wait for is
     * due) */
    if ((*w >> vc) & 1u) {
        if (!before && sr_bgl_may_send(&m->p.cfg, lk, vc, SR_BGL_MOVE_STRAIGHT)) m->st.unblocking++;
        *w &= ~((uint64_t)1 << vc);
        nc_wake(net, r, net->now);
    }
}

/* A receiver's or injection FIFO's request of this cycle. */
typedef struct bgl__req {
    int port, vc;            /* FIFO */
    int out, ovc;            /* requested pair; out = NP: reception */
    uint32_t pi;
} bgl__req;

/* Phase 1 for the head pi of FIFO (p, v) of router r: its request, or 0
 * (nothing possible and available now; *why_tokens set when a free link's
 * tokens are what it lacks). */
static inline int bgl__jsq(bgl_model *m, nc_net *net, uint32_t r, int p, int v, uint32_t pi, bgl__req *q,
                           uint64_t *next) {
    const sr_header *h = bgl_hdr(m, pi);
    const uint64_t now = net->now;
    sr_candidate cand[SR_BGL_MAX_CANDIDATES];
    const sr_bgl_link *links = m->tok + (size_t)r * (uint32_t)m->NP;
    const uint64_t *lf = m->link_free + (size_t)r * (uint32_t)m->NP;
    uint64_t possible, available, linkmask = 0, wait, rest;
    uint8_t range[64];                  /* read only at the pairs set below */
    int n, escape, pair, o, k, nv = m->NV, in_vc = p == m->NP ? 0 : v;
    n = sr_bgl_candidates(&m->t, &m->p.cfg, r, p, in_vc, h, cand, SR_BGL_MAX_CANDIDATES);
    if (n < 1) sim_die("bgl_router: a header without candidates");
    q->port = p; q->vc = v; q->pi = pi;
    if (cand[0].port == m->t.proc_port) {           /* the reception FIFO */
        uint64_t rx = p < m->NP ? m->rx_free[(size_t)r * (uint32_t)m->NP + (uint32_t)p] : now;
        if (rx > now) { if (rx < *next) *next = rx; return 0; }
        q->out = m->NP; q->ovc = 0;
        return 1;
    }
    for (k = 0; k < n; k++) {
        o = cand[k].port;
        if (lf[o] <= now) linkmask |= (((uint64_t)1 << nv) - 1) << (o * nv);
        else if (lf[o] < *next) *next = lf[o];
    }
    /* every link it may take is busy: nothing is available (sa_bgl_jsq
     * would return -1 without a draw) and no token is waited for */
    if (!linkmask) return 0;
    if (sr_bgl_requests(&m->t, &m->p.cfg, cand, n, p, in_vc, links, &possible, &available, &escape) != SR_OK)
        sim_die("bgl_router: sr_bgl_requests failed");
    wait = (possible | (escape >= 0 ? (uint64_t)1 << escape : 0)) & linkmask & ~available;
    available &= linkmask;
    /* the indicators JSQ compares: those of the pairs it chooses among */
    for (rest = possible & available; rest; rest &= rest - 1) {
        int b = sim_ctz64(rest), vc = m->pair_vc[b];
        range[b] = (uint8_t)(m->p.jsq ? sa_bgl_range(links[m->pair_port[b]].tokens[vc], m->tok_bounds[vc]) : 0);
    }
    pair = sa_bgl_jsq(possible, available, range, escape, &m->rng[r]);
    if (pair < 0) {
        /* waiting for tokens on free links: a token-ack wakes the router */
        for (; wait; wait &= wait - 1) {
            int b = sim_ctz64(wait);
            m->waits[(size_t)r * (uint32_t)m->NP + (uint32_t)(b / nv)] |= (uint64_t)1 << (b % nv);
        }
        return 0;
    }
    q->out = pair / nv; q->ovc = pair % nv;
    return 1;
}

/* Owe the sender of input port p a token-ack for a packet of `chunks` on
 * VC vc, due when its tail has left (cycle due). */
static inline void bgl__owe(bgl_model *m, nc_net *net, uint32_t r, int p, int vc, int chunks, uint64_t due) {
    size_t k = (size_t)r * (uint32_t)m->NP + (uint32_t)p;
    bgl_ack *a;
    if (m->nacks[k] >= BGL_MAX_ACKS) sim_die("bgl_router: too many token-acks owed");
    a = bgl__ack(m, k, m->nacks[k]++);
    a->due = due; a->vc = (uint8_t)vc; a->chunks = (uint8_t)chunks;
    if (m->nacks[k] == 1 || due < m->ack_first[k]) m->ack_first[k] = due;
    m->owed[r] |= 1u << p;
    nc_wake(net, r, due);
}

/* Grant request q at router r: the packet leaves its FIFO. */
static inline void bgl__grant(bgl_model *m, nc_net *net, uint32_t r, const bgl__req *q) {
    const uint64_t now = net->now;
    sim_packet *pk = &net->pool.pkt[q->pi];
    bgl_fifo *f = bgl__fifo(m, r, q->port, q->vc);
    int chunks = pk->size / BGL_CHUNK_FLITS, L = pk->size + m->crc_flits, k;
    if (sim_fifo_pop(&f->q, net->pool.pkt) != q->pi) sim_die("bgl_router: granted a packet not at its FIFO's head");
    f->chunks -= (uint32_t)chunks;
    f->free_at = now + (uint64_t)L;
    f->bypass = 0;
    m->moved++;
    if (q->port < m->NP) {
        uint64_t *bus = q->out == m->NP ? &m->rx_free[(size_t)r * (uint32_t)m->NP + (uint32_t)q->port]
                                        : m->bus_free + ((size_t)r * (uint32_t)m->NP + (uint32_t)q->port) * BGL_MAX_PATHS;
        if (q->out != m->NP) {
            for (k = 0; k < m->p.paths && bus[k] > now; k++) {}
            if (k == m->p.paths) sim_die("bgl_router: a grant without a free path");
            bus += k;
        }
        *bus = now + (uint64_t)(q->out == m->NP ? pk->size : L);
        bgl__owe(m, net, r, q->port, q->vc, chunks, now + (uint64_t)L);
    } else {
        nc_free_input(net, r, q->port, q->vc, pk->size, now + (uint64_t)L - 1);
    }
    if (f->q.head != SIM_NIL) {
        const sim_packet *nx = &net->pool.pkt[f->q.head];
        f->head_at = nx->t_ready > f->free_at ? nx->t_ready : f->free_at;
        nc_wake(net, r, f->head_at);
    } else m->busy[r] &= ~((uint64_t)1 << (q->port * m->V + q->vc));
    if (q->out == m->NP) {                                  /* delivery */
        nc_send(net, r, m->t.proc_port, q->pi, 0, now);
        return;
    }
    {
        sr_bgl_link *lk = &m->tok[(size_t)r * (uint32_t)m->NP + (uint32_t)q->out];
        int move = sr_bgl_move_kind(&m->p.cfg, q->port, q->port == m->NP ? 0 : q->vc, q->out, q->ovc);
        int kind = sr_bgl_vc_kind(&m->p.cfg, q->ovc);
        if (sr_bgl_send(&m->p.cfg, lk, q->ovc, move, chunks) != SR_OK) sim_die("bgl_router: the bubble rule refused a grant");
        m->link_free[(size_t)r * (uint32_t)m->NP + (uint32_t)q->out] = now + (uint64_t)L;
        m->st.packet_flits += (uint64_t)L;
        m->link_flits[(size_t)r * (uint32_t)m->NP + (uint32_t)q->out] += (uint64_t)L;
        m->st.payload_bytes += (uint64_t)(pk->size * BGL_FLIT_BYTES - m->p.payload_overhead);
        m->st.hops++;
        if (kind == SR_BGL_VC_BUBBLE || kind == SR_BGL_VC_DATELINE) m->st.escape_hops++;
        sr_bgl_header_advance(&m->t, &m->p.cfg, r, q->out, bgl_hdr(m, q->pi));
        nc_send(net, r, q->out, q->pi, q->ovc, now);
    }
}

/* Whether the head of a (nonempty) FIFO may request now: its pipeline is
 * done and the packet before it has left; else *next gets the cycle it
 * may. */
static inline int bgl__head_ready(const nc_net *net, const bgl_fifo *f, uint64_t *next) {
    uint64_t t = f->head_at;
    if (t <= net->now) return 1;
    if (t < *next) *next = t;
    return 0;
}

/* One cycle of router r. */
static inline void bgl__step(void *self, nc_net *net, uint32_t r) {
    bgl_model *m = (bgl_model *)self;
    const uint64_t now = net->now;
    const int NP = m->NP;
    uint64_t next = NC_NEVER, *lf = m->link_free + (size_t)r * (uint32_t)NP;
    bgl__req req[64];                   /* one per receiver, one per injection FIFO */
    int nreq = 0, p, v, o, k, lost = 0, slq_cycle = sa_bgl_cycles_next(&m->slq[r]);
    int net_cycle = sa_bgl_cycles_next(&m->netc[r]);
    unsigned sent = 0, due_ports = 0;   /* senders busy this cycle, ports with a
                                           token-ack due (bit o) */
    uint64_t rest, busy = m->busy[r];
    /* token-acks first (line 65): the ports with one due */
    for (rest = m->owed[r]; rest; rest &= rest - 1) {
        uint64_t first;
        o = sim_ctz64(rest);
        first = m->ack_first[(size_t)r * (uint32_t)NP + (uint32_t)o];
        due_ports |= (unsigned)(first <= now) << o;
        next = first > now && first < next ? first : next;   /* none due yet */
    }
    for (rest = due_ports; rest; rest &= rest - 1) {
        size_t kk;
        int i, best = -1;
        o = sim_ctz64(rest);
        kk = (size_t)r * (uint32_t)NP + (uint32_t)o;
        if (lf[o] > now && m->nacks[kk] == 1) {  /* the one owed is due; the link is busy */
            if (lf[o] < next) next = lf[o];
            continue;
        }
        for (i = 0; i < m->nacks[kk]; i++) {
            uint64_t due = bgl__ack(m, kk, i)->due;
            if (due <= now && (best < 0 || due < bgl__ack(m, kk, best)->due)) best = i;
        }
        if (best < 0 || lf[o] > now) {
            uint64_t t = best >= 0 ? lf[o] : NC_NEVER;
            for (i = 0; i < m->nacks[kk]; i++) {
                uint64_t due = bgl__ack(m, kk, i)->due;
                if (due > now && due < t) t = due;
            }
            if (t < next) next = t;
            continue;
        }
        lf[o] = now + (uint64_t)m->ack_flits;
        m->st.ack_flits += (uint64_t)m->ack_flits;
        m->link_flits[(size_t)r * (uint32_t)NP + (uint32_t)o] += (uint64_t)m->ack_flits;
        nc_free_input(net, r, o, bgl__ack(m, kk, best)->vc, bgl__ack(m, kk, best)->chunks,
                      now + (uint64_t)(m->ack_flits ? m->ack_flits - 1 : 0));
        --m->nacks[kk];
        *bgl__ack(m, kk, best) = *bgl__ack(m, kk, m->nacks[kk]);
        if (!m->nacks[kk]) m->owed[r] &= ~(1u << o);
        for (i = 0, m->ack_first[kk] = NC_NEVER; i < m->nacks[kk]; i++)
            if (bgl__ack(m, kk, i)->due < m->ack_first[kk]) m->ack_first[kk] = bgl__ack(m, kk, i)->due;
        sent |= 1u << o;
        if (m->nacks[kk]) next = now + 1;
    }
    /* phases 1 and 2: each receiver's request */
    for (rest = busy & m->recv_bits; rest;) {
        bgl__req cand[SR_BGL_MAX_VCS];
        const uint64_t vmask = ((uint64_t)1 << m->V) - 1;
        uint64_t reqmask = 0, hp = 0, *bus, here;
        uint8_t full[SR_BGL_MAX_VCS];
        int path_free = 0, bypass = -1, w;
        p = m->fifo_port[sim_ctz64(rest)];       /* the receivers with a packet, in order */
        here = (busy >> (p * m->V)) & vmask;
        rest &= ~(vmask << (p * m->V));
        bus = m->bus_free + ((size_t)r * (uint32_t)NP + (uint32_t)p) * BGL_MAX_PATHS;
        for (k = 0; k < m->p.paths; k++) {
            if (bus[k] <= now) path_free = 1;
            else if (bus[k] < next) next = bus[k];
        }
        for (; here; here &= here - 1) {
            bgl_fifo *f;
            v = sim_ctz64(here);
            f = bgl__fifo(m, r, p, v);
            if (!bgl__head_ready(net, f, &next)) continue;
            if (!bgl__jsq(m, net, r, p, v, f->q.head, &cand[v], &next)) { f->bypass = 0; continue; }
            if (cand[v].out != NP && !path_free) { f->bypass = 0; continue; }
            reqmask |= 1u << v;
            if (bgl_hdr(m, f->q.head)->vclass & SR_BGL_CLASS_PRIORITY) hp |= 1u << v;
            if (f->bypass) bypass = v;
            full[v] = (uint8_t)sa_bgl_range(f->chunks, m->fill_bounds[v]);
        }
        if (!reqmask) continue;
        w = sa_bgl_slq_receiver(reqmask, hp, full, bypass, slq_cycle, &m->rng[r]);
        for (here = reqmask; here; here &= here - 1) bgl__fifo(m, r, p, sim_ctz64(here))->bypass = 0;
        if (reqmask & ~((uint64_t)1 << w)) lost = 1;
        if (cand[w].out == NP) { bgl__grant(m, net, r, &cand[w]); continue; }   /* its own reception bus */
        req[nreq++] = cand[w];
    }
    /* injection FIFOs request directly */
    for (rest = busy >> (NP * m->V); rest; rest &= rest - 1) {
        bgl_fifo *f;
        v = sim_ctz64(rest);
        f = bgl__fifo(m, r, NP, v);
        if (!bgl__head_ready(net, f, &next)) continue;
        if (bgl__jsq(m, net, r, NP, v, f->q.head, &req[nreq], &next)) nreq++;
    }
    /* phase 3: each sender chooses among the requests for it */
    if (nreq) {
        uint64_t rq[SR_BGL_MAX_DIMS * 2] = { 0 }, inj[SR_BGL_MAX_DIMS * 2] = { 0 }, hp[SR_BGL_MAX_DIMS * 2] = { 0 };
        uint8_t full[64];
        unsigned outs = 0;                           /* senders with requests */
        int i, w;
        for (i = 0; i < nreq; i++) {
            const bgl_fifo *f = bgl__fifo(m, r, req[i].port, req[i].vc);
            o = req[i].out;
            outs |= 1u << o;
            rq[o] |= (uint64_t)1 << i;
            if (req[i].port == NP) inj[o] |= (uint64_t)1 << i;
            if (bgl_hdr(m, req[i].pi)->vclass & SR_BGL_CLASS_PRIORITY) hp[o] |= (uint64_t)1 << i;
            full[i] = (uint8_t)sa_bgl_range(f->chunks, req[i].port == NP ? m->inj_bounds : m->fill_bounds[req[i].vc]);
        }
        if (sent) lost = 1;                          /* a sender sent a token-ack */
        for (outs &= ~sent; outs; outs &= outs - 1) {
            o = sim_ctz64(outs);
            w = sa_bgl_slq_sender(0, rq[o], inj[o], hp[o], full, net_cycle, slq_cycle, &m->rng[r]);
            if (rq[o] & ~((uint64_t)1 << w)) lost = 1;
            bgl__grant(m, net, r, &req[w]);
        }
    }
    if (lost && now + 1 < next) next = now + 1;
    if (next != NC_NEVER) nc_wake(net, r, next > now ? next : now + 1);
}

/* The audit of router r: every packet in its FIFOs, in state; chunk
 * counts; token counters valid and within what the buffers downstream
 * can hold. */
static inline const char *bgl__audit(void *self, const nc_net *net, uint32_t r, sim_audit *a) {
    bgl_model *m = (bgl_model *)self;
    int p, v;
    for (p = 0; p < m->P; p++)
        for (v = 0; v < m->V; v++) {
            const bgl_fifo *f = bgl__fifo(m, r, p, v);
            uint32_t j, ch = 0;
            if (!sim_audit_fifo(a, &f->q, BGL_IN_FIFO)) return a->err;
            for (j = f->q.head; j != SIM_NIL; j = net->pool.pkt[j].next) ch += net->pool.pkt[j].size / BGL_CHUNK_FLITS;
            if (ch != f->chunks) return "bgl_router: a FIFO's chunk count is wrong";
            if (f->q.head != SIM_NIL && f->head_at != (net->pool.pkt[f->q.head].t_ready > f->free_at
                                                       ? net->pool.pkt[f->q.head].t_ready : f->free_at))
                return "bgl_router: a FIFO's head_at is not the later of free_at and its head's t_ready";
            if (((m->busy[r] >> (p * m->V + v)) & 1u) != (f->q.head != SIM_NIL)) return "bgl_router: a FIFO's busy bit is wrong";
            if (p < m->NP && v < m->NV && ch > (uint32_t)sr_bgl_vc_chunks(&m->p.cfg, v))
                return "bgl_router: a VC FIFO holds more than its buffer";
        }
    for (p = 0; p < m->NP; p++) {
        size_t k = (size_t)r * (uint32_t)m->NP + (uint32_t)p;
        uint64_t first = NC_NEVER;
        int i;
        if (sr_bgl_link_check(&m->p.cfg, &m->tok[k]) != SR_OK)
            return "bgl_router: a link's token counters are invalid";
        for (i = 0; i < m->nacks[k]; i++)
            if (bgl__ack(m, k, i)->due < first) first = bgl__ack(m, k, i)->due;
        if (((m->owed[r] >> p) & 1u) != (m->nacks[k] != 0) || (m->nacks[k] && first != m->ack_first[k]))
            return "bgl_router: a port's token-acks owed are out of step with its owed bit or earliest due";
    }
    return NULL;
}

/* A ready head of router r that cannot move, for the stall report. */
static inline int bgl__waiting(void *self, const nc_net *net, uint32_t r, char *buf, size_t n) {
    bgl_model *m = (bgl_model *)self;
    int p, v;
    for (p = 0; p < m->P; p++)
        for (v = 0; v < m->V; v++) {
            const bgl_fifo *f = bgl__fifo(m, r, p, v);
            const sim_packet *pk;
            const sr_header *h;
            if (f->q.head == SIM_NIL) continue;
            pk = &net->pool.pkt[f->q.head];
            h = bgl_hdr(m, f->q.head);
            snprintf(buf, n, "router %u, %s %d FIFO %d: a packet of %d bytes to node %u (hint bits 0x%02x) waits "
                     "for tokens or a link", r, p == m->NP ? "injection" : "receiver", p, v, pk->size * BGL_FLIT_BYTES,
                     pk->dst, h->hint);
            return 1;
        }
    return 0;
}

/** Whether every token came back and no token-ack is owed (a drained
 *  network): NULL or a message. */
static inline const char *bgl_tokens_home(const bgl_model *m, const nc_net *net) {
    uint32_t r;
    int p, v;
    for (r = 0; r < net->routers; r++)
        for (p = 0; p < m->NP; p++) {
            size_t k = (size_t)r * (uint32_t)m->NP + (uint32_t)p;
            if (nc_out_chan(net, r, p)->to == SR_NO_NODE) continue;
            if (m->nacks[k]) return "bgl_router: a token-ack is still owed";
            for (v = 0; v < m->NV; v++)
                if (m->tok[k].tokens[v] != sr_bgl_vc_chunks(&m->p.cfg, v))
                    return "bgl_router: a VC's tokens did not all come back";
        }
    return NULL;
}

/** Free the model's memory. */
static inline void bgl_free(bgl_model *m) {
    free(m->fifo); free(m->busy); free(m->tok); free(m->link_free); free(m->bus_free); free(m->rx_free); free(m->acks);
    free(m->nacks); free(m->ack_first); free(m->owed); free(m->waits); free(m->link_flits); free(m->cut); free(m->rng); free(m->slq); free(m->netc); free(m->hdr);
    memset(m, 0, sizeof *m);
}

/** Bytes the model allocates for a network (netsim's memory check). */
static inline double bgl_memory_bytes(const sr_net *n, int vcs) {
    double P = n->radix, R = n->num_routers;
    return R * (P * vcs * sizeof(bgl_fifo) + (P - 1) * (sizeof(sr_bgl_link) + 8.0 * (3 + BGL_MAX_PATHS) +
                BGL_MAX_ACKS * sizeof(bgl_ack) + 1 + 16) + sizeof(sr_bgl_cutoffs) + 8 + 2 * sizeof(sa_bgl_cycles));
}

/** Set up the model over network net (nc_net_init done, a torus or mesh
 *  of at most SR_BGL_MAX_DIMS dimensions, nc_params.vcs at least the
 *  configuration's VCs) and attach it; seed gives the arbiters' random
 *  numbers.  NULL or a message. */
static inline const char *bgl_init(bgl_model *m, nc_net *net, const bgl_params *p, uint64_t seed) {
    const char *err = bgl_params_check(p);
    uint32_t r, N = net->routers;
    int o, v;
    memset(m, 0, sizeof *m);
    if (err) return err;
    if (net->net.kind != SR_NET_CUBE || net->net.cube.num_dims > SR_BGL_MAX_DIMS)
        return "the BlueGene/L router needs a torus or mesh of 1 to 4 dimensions";
    if (net->vcs < sr_bgl_num_vcs(&p->cfg)) return "nc_params.vcs is below the configuration's VCs";
    if (net->net.num_terminals != N) return "the BlueGene/L router needs one node per router";
    m->p = *p;
    m->t = net->net.cube;
    m->P = net->radix; m->NP = m->t.proc_port; m->V = net->vcs; m->NV = sr_bgl_num_vcs(&p->cfg); m->F = net->vcs;
    if (m->NP + m->F > 64 || m->NP * m->NV > 64 || m->P * m->V > 64)
        return "too many ports or VCs for the arbiters' 64-bit masks";
    for (v = 0; v < 64; v++) {
        m->fifo_port[v] = (uint8_t)(v / m->V);
        m->pair_port[v] = (uint8_t)(v / m->NV);
        m->pair_vc[v] = (uint8_t)(v % m->NV);
    }
    m->recv_bits = m->NP * m->V == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m->NP * m->V)) - 1;
    m->crc_flits = p->crc_bytes / BGL_FLIT_BYTES;
    m->ack_flits = p->ack_bytes / BGL_FLIT_BYTES;
    if (net->p.max_packet_flits < SR_BGL_MAX_PACKET_BYTES / BGL_FLIT_BYTES &&
        net->p.max_packet_flits + m->crc_flits + p->pipeline + 2 > net->p.wake_ahead)
        return "the pipeline and the packets reach further than nc_params.wake_ahead";
    if (SR_BGL_MAX_PACKET_BYTES / BGL_FLIT_BYTES + m->crc_flits + m->ack_flits + p->pipeline + 2 > net->p.wake_ahead)
        return "the pipeline and the packets reach further than nc_params.wake_ahead";
    m->fifo = (bgl_fifo *)sim_calloc((size_t)N * (uint32_t)(m->P * m->V), sizeof(bgl_fifo));
    m->busy = (uint64_t *)sim_calloc(N, sizeof(uint64_t));
    m->tok = (sr_bgl_link *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(sr_bgl_link));
    m->link_free = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(uint64_t));
    m->bus_free = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP * BGL_MAX_PATHS, sizeof(uint64_t));
    m->rx_free = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(uint64_t));
    m->ports = (size_t)N * (uint32_t)m->NP;
    m->acks = (bgl_ack *)sim_calloc(m->ports * BGL_MAX_ACKS, sizeof(bgl_ack));
    m->nacks = (uint8_t *)sim_calloc((size_t)N * (uint32_t)m->NP, 1);
    m->ack_first = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(uint64_t));
    m->owed = (uint32_t *)sim_calloc(N, sizeof(uint32_t));
    m->waits = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(uint64_t));
    m->link_flits = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->NP, sizeof(uint64_t));
    m->cut = (sr_bgl_cutoffs *)sim_calloc(N, sizeof(sr_bgl_cutoffs));
    m->rng = (sa_rng *)sim_calloc(N, sizeof(sa_rng));
    m->slq = (sa_bgl_cycles *)sim_calloc(N, sizeof(sa_bgl_cycles));
    m->netc = (sa_bgl_cycles *)sim_calloc(N, sizeof(sa_bgl_cycles));
    for (v = 0; v < m->NV; v++) {
        sa_bgl_ranges_quarters((uint32_t)sr_bgl_vc_chunks(&p->cfg, v), m->tok_bounds[v]);
        sa_bgl_ranges_quarters((uint32_t)sr_bgl_vc_chunks(&p->cfg, v), m->fill_bounds[v]);
    }
    sa_bgl_ranges_quarters((uint32_t)(net->p.buf_flits[SR_PORT_TERMINAL] / BGL_CHUNK_FLITS + 1), m->inj_bounds);
    for (r = 0; r < N; r++) {
        for (o = 0; o < m->P; o++)
            for (v = 0; v < m->V; v++) sim_fifo_init(&bgl__fifo(m, r, o, v)->q);
        for (o = 0; o < m->NP; o++) sr_bgl_link_init(&p->cfg, &m->tok[(size_t)r * (uint32_t)m->NP + (uint32_t)o]);
        if (sr_bgl_cutoffs_minimal(&m->t, r, &m->cut[r]) != SR_OK) { bgl_free(m); return "cannot set the hint-bit registers"; }
        sa_rng_seed(&m->rng[r], seed ^ (0xB61ull << 40) ^ ((uint64_t)r * 0x9E3779B97F4A7C15ull));
        sa_bgl_cycles_init(&m->slq[r], p->slq_num, p->slq_den);
        sa_bgl_cycles_init(&m->netc[r], p->net_num, p->net_den);
    }
    {
        nc_model nm = { NULL, bgl__arrive, bgl__credit, bgl__step, bgl__audit, bgl__waiting, sizeof(sr_header), NULL, NULL };
        nm.self = m;
        nm.side = &m->hdr;
        nm.side_cap = &m->hdr_cap;
        nc_set_model(net, &nm);
    }
    sim_pool_side(&net->pool, &m->hdr, &m->hdr_cap, sizeof(sr_header));
    m->st.start = net->now;
    return NULL;
}

#endif /* BGL_ROUTER_H */
