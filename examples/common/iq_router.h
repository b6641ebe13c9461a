/* SPDX-License-Identifier: MIT */
/* iq_router.h - an input-queued virtual-channel router, a router model of
 * the simulator core (net_core.h).  Example code, not the installed
 * library.  docs/writing-a-router-model.rst walks through this file.
 *
 * The router (the canonical input-queued VC router; packets move whole,
 * with virtual cut-through flow control):
 *
 *   - every input port has vcs virtual channels, each a FIFO of packets
 *     in a buffer of nc_params.buf_flits flits (by the port's kind); the
 *     sender holds one credit per free flit and sends a packet only when
 *     the VC has room for all of it;
 *   - routing: the packet at the head of a VC asks seastar_route.h for
 *     its candidates (output port, VC range, class, sr_route_candidates)
 *     and picks a candidate and a VC by the credits of this router's free
 *     output VCs (sr_route_select_by); a packet whose routing has not decided
 *     between its minimal and non-minimal paths (UGAL at its source
 *     router, PAR in its source group) first decides by UGAL's rule
 *     (sr_ugal_minimal) on the queues of this router's output ports
 *     (UGAL-L, PAR) or of the global channels the two paths take next
 *     (UGAL-G, which reads other routers' queues: one part only);
 *     adaptive routing decides again every cycle until the packet holds
 *     an output VC; the header follows the hop taken (sr_route_advance);
 *   - VC allocation: one sa_switch allocator (seastar_arb.h) with a row
 *     per input VC and a column per output VC (ports x vcs, up to 512 x
 *     512): a head asks for the output VC it selected; an output VC is
 *     held from its allocation until its packet crosses the switch;
 *   - switch allocation: one sa_switch allocator with speedup S crossbar
 *     inputs per input port (VC v uses input v mod S) and S crossbar
 *     outputs per output port; a head with an output VC asks when that VC
 *     has credits for the whole packet, its crossbar input is free and its
 *     output port's queue (the flits waiting for the channel) holds at
 *     most (S - 1) x the largest packet; several VCs of one crossbar input
 *     asking for one output are served round-robin;
 *   - pipeline: a header that arrives at cycle t may cross the switch at
 *     t + pipeline at the earliest (the routing, VC and switch allocation
 *     stages as one delay); the packet then moves to its output port's
 *     queue and leaves on the channel at one flit per cycle;
 *   - its input buffer space goes back upstream when its tail has left.
 *
 * Timing of one hop at zero load: pipeline cycles in the router, then the
 * channel's latency; the tail follows the header size - 1 cycles later.
 */
#ifndef IQ_ROUTER_H
#define IQ_ROUTER_H

#include "../../seastar_arb.h"
#include "net_core.h"
#include "sim_bits.h"
#include "../../seastar_route.h"

/** Packet state: in an input VC of a router. */
#define IQ_IN_BUFFER NC_PKT_MODEL
/** iq_ivc.out_port: the head holds no output VC and has not chosen. */
#define IQ_NONE (-1)
/** iq_ivc.out_port: the head has chosen its output VC (cand) once and
 *  waits for it (IQ_SELECT_RANDOM). */
#define IQ_CHOSEN (-2)

/** How a head chooses among its candidates (iq_params.select): by the
 *  credits of the free output VCs, again every cycle until it holds one
 *  (adaptive), or once, uniformly at random over every candidate and VC
 *  (oblivious: it then waits for that VC). */
enum { IQ_SELECT_CREDITS = 0, IQ_SELECT_RANDOM };

/** How UGAL's decision reads queue lengths (iq_params.ugal). */
enum { IQ_UGAL_LOCAL = 0, IQ_UGAL_GLOBAL };

/** Parameters of the router. */
typedef struct iq_params {
    int pipeline;            /**< cycles from a header's arrival to the
                                  first cycle it may cross the switch,
                                  1..1000 */
    int speedup;             /**< crossbar inputs and outputs per port, 1..4 */
    sa_switch_kind va_kind;  /**< VC allocator */
    sa_switch_kind sw_kind;  /**< switch allocator */
    int iterations;          /**< iSLIP / PIM iterations (0: 1) */
    sr_routing_desc routing; /**< the routing (its vcs: the network's) */
    int ugal;                /**< IQ_UGAL_LOCAL or IQ_UGAL_GLOBAL */
    int select;              /**< IQ_SELECT_CREDITS or IQ_SELECT_RANDOM */
    int64_t ugal_bias;       /**< added to the non-minimal side of UGAL's
                                  rule (0: the seed's rule) */
} iq_params;

/** Defaults: pipeline 3, speedup 1, iSLIP-1 for both allocators,
 *  dimension-order routing. */
static inline void iq_params_default(iq_params *p) {
    memset(p, 0, sizeof *p);
    p->pipeline = 3;
    p->speedup = 1;
    p->va_kind = SA_SWITCH_ISLIP;
    p->sw_kind = SA_SWITCH_ISLIP;
    p->iterations = 1;
}

/** One input VC. */
typedef struct iq_ivc {
    sim_fifo q;          /**< its packets */
    uint64_t head_ready; /**< copies of its head packet's t_ready ... */
    uint8_t head_size;   /**< ... and size, so that a step reads no packet */
    uint8_t out_vc;      /**< the output VC its head holds ... */
    int16_t out_port;    /**< ... of this output port, or IQ_NONE, or
                              IQ_CHOSEN (oblivious selection: cand holds
                              the one VC chosen, not yet allocated) */
    uint32_t flits;      /**< flits in the buffer (the audit checks them) */
    sr_candidate cand;   /**< the candidate its head's VC belongs to */
} iq_ivc;

/** The model: every router's state, in arrays indexed router-major. */
typedef struct iq_model {
    iq_params p;
    sr_routing rt;              /**< the routing */
    int P, V, S;                /**< most ports, VCs, speedup */
    int wv, ws;                 /**< words of a VC-allocator and a switch-
                                     allocator request row */
    iq_ivc *ivc;                /**< [r][port][vc] */
    uint64_t *busy;             /**< [r][wv words]: input VCs with a packet */
    int32_t *ocred;             /**< [r][port][vc]: credits of output VCs */
    sim_rng *rng;               /**< one stream per router: intermediates,
                                     selection ties */
    uint64_t *held;             /**< [r][port]: output VCs held (bit vc) */
    uint64_t *out_free;         /**< [r][port]: first cycle the channel is
                                     free of the packets queued for it */
    uint64_t *xin_free;         /**< [r][port][S]: first cycle a crossbar
                                     input is free */
    uint8_t *xin_last;          /**< [r][port][S]: VC it served last */
    sa_switch *va, *sw;         /**< one of each per router */
    unsigned char *alloc_mem;   /**< their memory */
    size_t va_bytes, sw_bytes;  /**< per router */
    void *hdr;                  /**< sr_header per packet (parallel to the
                                     pool: nc_model.side) */
    uint32_t hdr_cap;
    /* scratch of one step */
    uint64_t *va_req, *sw_req;  /**< request rows */
    uint16_t *va_rows, *sw_rows;/**< the rows set, to clear */
    sa_match match;
    uint16_t *ready;            /**< the heads that may move this step */
    uint64_t *asked;            /**< bit port * vcs + vc: the input VCs that
                                     asked for the switch this step */
    uint16_t *port_of;          /**< [port * vcs + vc]: the port */
    uint8_t *vc_of;             /**< [port * vcs + vc]: the VC */
    uint16_t *xin_of;           /**< [port * vcs + vc]: its crossbar input */
    uint16_t *port_of_xin;      /**< [crossbar input]: its port */
    sr_candidate *cand;         /**< sr_route_max_candidates of them */
    int max_cand;
    uint64_t routed_nonmin;     /**< packets that took a non-minimal hop at
                                     their first router (statistics) */
    uint64_t moved;             /**< packets that crossed a switch */
} iq_model;

/** The header of packet pi. */
static inline sr_header *iq_hdr(const iq_model *m, uint32_t pi) { return (sr_header *)m->hdr + pi; }

/** The nc_params.wake_ahead the model needs: its pipeline and output
 *  queues (speedup x the largest packet) reach this far; the timing
 *  wheel's memory grows with it. */
static inline int iq_wake_ahead(const iq_params *p, int max_packet_flits) {
    return p->pipeline + p->speedup * max_packet_flits + 2;
}

/** Bytes the model allocates per router of a network (for netsim's
 *  memory check). */
static inline double iq_memory_bytes(const sr_net *n, int vcs, const iq_params *p) {
    sa_switch_desc d;
    double P = n->radix, V = vcs, S = p->speedup, b;
    memset(&d, 0, sizeof d);
    d.num_inputs = d.num_outputs = n->radix * vcs;
    d.kind = p->va_kind;
    b = (double)sa_switch_memory_size(&d) + 2.0 * sizeof(sa_switch) + 64;
    d.num_inputs = d.num_outputs = n->radix * p->speedup;
    d.kind = p->sw_kind;
    b += (double)sa_switch_memory_size(&d);
    return (double)n->num_routers * (b + P * V * (sizeof(iq_ivc) + 4) + P * (8 + 8) + P * S * 9 +
                                     8.0 * SA_WORDS(n->radix * vcs));
}

/* ---- the model's calls ------------------------------------------------ */

/* The select credits of an ejection port's free VC: more than any
 * buffer's, so that a packet at its router always may leave. */
#define IQ_EJECT_CREDITS 0x40000000

/* What sr_route_select_by sees of router r's output VCs: the credits of
 * a VC not held, 0 for a held one, IQ_EJECT_CREDITS for an ejection
 * port's free VC (IQ_SELECT_CREDITS); 1 for every VC (IQ_SELECT_RANDOM). */
typedef struct iq__sel {
    const uint64_t *held;   /* [port]: the router's held output VCs */
    const int32_t *oc;      /* [port][vc]: its output credits */
    const nc_chan *chan;    /* [port]: its channels */
    int V;
} iq__sel;

static inline int32_t iq__sel_credits(const void *ctx, int o, int v) {
    const iq__sel *x = (const iq__sel *)ctx;
    if ((x->held[o] >> v) & 1u) return 0;
    return x->chan[o].kind == SR_PORT_TERMINAL ? IQ_EJECT_CREDITS : x->oc[o * x->V + v];
}

static inline int32_t iq__sel_any(const void *ctx, int o, int v) { (void)ctx; (void)o; (void)v; return 1; }

static inline void iq__arrive(void *self, nc_net *net, uint32_t r, int in_port, uint32_t pi) {
    iq_model *m = (iq_model *)self;
    sim_packet *pk = &net->pool.pkt[pi];
    uint32_t i = (uint32_t)in_port * (uint32_t)m->V + pk->vc;
    iq_ivc *iv = &m->ivc[(size_t)r * (uint32_t)(m->P * m->V) + i];
    if (nc_port_kind(net, r, in_port) == SR_PORT_TERMINAL) {   /* injected: a new header */
        uint32_t inter = sr_route_inter_count(&m->rt) ? sr_route_inter_pick(&m->rt, sim_rng_next(&m->rng[r]))
                                                      : SR_NO_NODE;
        if (sr_route_header_init(&m->rt, pk->src, pk->dst, inter, iq_hdr(m, pi)) != SR_OK)
            sim_die("iq_router: sr_route_header_init failed");
    }
    pk->t_ready = net->now + (uint64_t)m->p.pipeline;
    pk->state = IQ_IN_BUFFER;
    iv->flits += pk->size;
    sim_fifo_push(&iv->q, net->pool.pkt, pi);
    if (iv->q.head == pi) {
        iv->head_ready = pk->t_ready;
        iv->head_size = pk->size;
        m->busy[(size_t)r * (uint32_t)m->wv + i / 64] |= (uint64_t)1 << (i % 64);
        nc_wake(net, r, pk->t_ready);
    }
}

static inline void iq__credit(void *self, nc_net *net, uint32_t r, int out_port, int vc, uint32_t flits) {
    iq_model *m = (iq_model *)self;
    const uint64_t *b = m->busy + (size_t)r * (uint32_t)m->wv;
    int32_t *oc = &m->ocred[((size_t)r * (uint32_t)m->P + (uint32_t)out_port) * (uint32_t)m->V + (uint32_t)vc];
    int w, waited = *oc < net->p.max_packet_flits;
    *oc += (int32_t)flits;
    /* only a VC below the largest packet's credits can have kept a head
     * waiting (a step without a better reason to run again sleeps) */
    if (waited)
        for (w = 0; w < m->wv; w++)
            if (b[w]) { nc_wake(net, r, net->now); return; }
}

/** The queue of output port o of router r, in flits: what its credits say
 *  the buffers downstream hold, and the flits waiting for the channel
 *  (UGAL's q). */
static inline uint32_t iq_queue(const iq_model *m, const nc_net *net, uint32_t r, int o) {
    size_t k = ((size_t)r * (uint32_t)m->P + (uint32_t)o) * (uint32_t)m->V;
    uint64_t free_at = m->out_free[(size_t)r * (uint32_t)m->P + (uint32_t)o];
    int32_t room = (int32_t)nc_out_room(net, r, o), q = 0;
    int v;
    if (room == 0) return 0;                       /* an ejection port */
    for (v = 0; v < m->V; v++) q += room - m->ocred[k + (uint32_t)v];
    return (uint32_t)q + (uint32_t)(free_at > net->now ? free_at - net->now : 0);
}

/* UGAL's queue of candidate c at router r: its own port's (UGAL-L), or
 * the queue of the global channel its path takes next (UGAL-G). */
static inline uint32_t iq__ugal_queue(const iq_model *m, const nc_net *net, uint32_t r, const sr_candidate *c,
                                      const sr_header *h) {
    if (m->p.ugal == IQ_UGAL_GLOBAL && net->net.kind == SR_NET_DRAGONFLY) {
        uint32_t g = sr_route_global_channel(&m->rt, r, c, h), gr = 0;
        if (g != SR_NO_NODE) {
            int port = sr_route_global_port(&m->rt, g, &gr);
            return iq_queue(m, net, gr, port);
        }
    }
    return iq_queue(m, net, r, c->port);
}

/* UGAL's decision for a packet whose routing has not decided, at router
 * r with candidates m->cand[0..n): the class it takes, by q_m H_m <=
 * q_nm H_nm + bias over the best candidate of each class. */
static inline int iq__ugal(iq_model *m, const nc_net *net, uint32_t r, const sr_header *h, int n) {
    uint32_t q[2] = { UINT32_MAX, UINT32_MAX };
    int k;
    for (k = 0; k < n; k++) {
        const sr_candidate *c = &m->cand[k];
        if (c->cls == SR_CLASS_MINIMAL || c->cls == SR_CLASS_NONMINIMAL) {
            uint32_t x = iq__ugal_queue(m, net, r, c, h);
            if (x < q[c->cls]) q[c->cls] = x;
        }
    }
    if (q[SR_CLASS_NONMINIMAL] == UINT32_MAX) return SR_CLASS_MINIMAL;
    if (q[SR_CLASS_MINIMAL] == UINT32_MAX) return SR_CLASS_NONMINIMAL;
    return sr_ugal_minimal(q[SR_CLASS_MINIMAL], sr_route_hops(&m->rt, r, h, SR_CLASS_MINIMAL),
                           q[SR_CLASS_NONMINIMAL], sr_route_hops(&m->rt, r, h, SR_CLASS_NONMINIMAL), m->p.ugal_bias)
           ? SR_CLASS_MINIMAL : SR_CLASS_NONMINIMAL;
}

/* Route the head packet pi of input VC (in_port, vc) of router r: its
 * candidates (sr_route_candidates), UGAL's decision if its routing has
 * not made it, then a candidate and a free VC by credits
 * (sr_route_select_by).  Returns 1 with the candidate in *c and the VC in
 * *ovc, 0 when none of its VCs is free now. */
static inline int iq__route(iq_model *m, const nc_net *net, uint32_t r, int in_port, int vc, uint32_t pi,
                            sr_candidate *c, int *ovc) {
    const sr_header *h = iq_hdr(m, pi);
    unsigned classes = 0;
    int n = 0, k;
    iq__sel x;
    sr_result rr = sr_route_candidates_trusted(&m->rt, r, in_port, vc, h, m->cand, m->max_cand, &n);
    if (rr != SR_OK || n < 1) {
        fprintf(stderr, "iq_router: router %u gives no route to terminal %u (%s)\n", r, h->dest, sr_result_string(rr));
        sim_die("routing failed");
    }
    if (h->phase == SR_PHASE_UNDECIDED) classes = 1u << iq__ugal(m, net, r, h, n);
    x.held = m->held + (size_t)r * (uint32_t)m->P;
    x.oc = m->ocred + (size_t)r * (uint32_t)(m->P * m->V);
    x.chan = nc_out_chan(net, r, 0);
    x.V = m->V;
    if (m->p.select == IQ_SELECT_RANDOM)
        k = sr_route_select_by(m->cand, n, classes, iq__sel_any, &x, sim_rng_next(&m->rng[r]), ovc);
    else
        k = sr_route_select_by(m->cand, n, classes, iq__sel_credits, &x, sim_rng_next(&m->rng[r]), ovc);
    if (k < 0) return 0;
    *c = m->cand[k];
    return 1;
}

/* Crossbar input xin of router r serves, of its VCs that asked for output
 * port o this step (bit port * vcs + vc of m->asked), the first after the
 * VC it served last. */
static inline int iq__pick_vc(const iq_model *m, uint32_t r, int xin, int o) {
    int S = m->S, p = m->port_of_xin[xin], s = xin - p * S, V = m->V, k, v;
    int last = m->xin_last[(size_t)r * (uint32_t)(m->P * S) + (uint32_t)xin];
    const iq_ivc *base = m->ivc + ((size_t)r * (uint32_t)m->P + (uint32_t)p) * (uint32_t)V;
    for (k = 1, v = last; k <= V; k++) {
        int i;
        if (++v == V) v = 0;
        i = p * V + v;
        if (m->xin_of[i] == xin && base[v].out_port == o && ((m->asked[i >> 6] >> (i & 63)) & 1u)) return v;
    }
    (void)s;
    return -1;
}

/* Input VC (p, v) of router r sends its head across the switch now. */
static inline void iq__send(iq_model *m, nc_net *net, uint32_t r, int p, int v) {
    uint64_t now = net->now, depart;
    uint32_t PV = (uint32_t)(m->P * m->V), i = (uint32_t)p * (uint32_t)m->V + (uint32_t)v;
    iq_ivc *iv = &m->ivc[(size_t)r * PV + i];
    uint32_t pi = sim_fifo_pop(&iv->q, net->pool.pkt);
    sim_packet *pk = &net->pool.pkt[pi];
    int o = iv->out_port, ov = iv->out_vc;
    size_t oi = (size_t)r * (uint32_t)m->P + (uint32_t)o;
    sr_header *h = iq_hdr(m, pi);
    iv->flits -= pk->size;
    iv->out_port = IQ_NONE;
    m->held[oi] &= ~((uint64_t)1 << ov);
    if (nc_port_kind(net, r, o) != SR_PORT_TERMINAL) m->ocred[oi * (uint32_t)m->V + (uint32_t)ov] -= pk->size;
    depart = m->out_free[oi] > now ? m->out_free[oi] : now;
    m->out_free[oi] = depart + pk->size;
    {
        size_t x = (size_t)r * (uint32_t)(m->P * m->S) + m->xin_of[i];
        m->xin_free[x] = now + pk->size;
        m->xin_last[x] = (uint8_t)v;
    }
    if (h->hops == 0 && iv->cand.cls == SR_CLASS_NONMINIMAL) m->routed_nonmin++;
    if (nc_port_kind(net, r, o) != SR_PORT_TERMINAL && sr_route_advance_trusted(&m->rt, r, &iv->cand, ov, h) != SR_OK)
        sim_die("iq_router: sr_route_advance failed");
    nc_free_input(net, r, p, v, pk->size, now + pk->size - 1);
    nc_send(net, r, o, pi, ov, depart);
    m->moved++;
    if (iv->q.head == SIM_NIL) m->busy[(size_t)r * (uint32_t)m->wv + i / 64] &= ~((uint64_t)1 << (i % 64));
    else {
        sim_packet *nh = &net->pool.pkt[iv->q.head];
        if (nh->t_ready <= now) nh->t_ready = now + 1;
        iv->head_ready = nh->t_ready;
        iv->head_size = nh->size;
    }
}

/* Add row `row` asking for columns [c0, c0 + n) to a request matrix of w
 * words per row; rows[] lists the rows set. */
static inline void iq__request(uint64_t *req, int w, uint16_t *rows, int *nrows, int row, int c0, int n) {
    uint64_t *q = req + (size_t)row * (uint32_t)w;
    int c, empty = 1, k;
    for (k = 0; k < w; k++) empty &= q[k] == 0;
    if (empty) rows[(*nrows)++] = (uint16_t)row;
    for (c = c0; c < c0 + n; c++) q[c / 64] |= (uint64_t)1 << (c % 64);
}

/* Run allocator a on the request rows rows[0..n) of req (w words each),
 * then clear those rows for the next step. */
static inline void iq__allocate(sa_switch *a, uint64_t *req, int w, const uint16_t *rows, int n, sa_match *match) {
    int k, j;
    sa_switch_allocate(a, req, NULL, NULL, match);
    for (k = 0; k < n; k++)
        for (j = 0; j < w; j++) req[(size_t)rows[k] * (uint32_t)w + (uint32_t)j] = 0;
}

/* One cycle of router r: the heads that may move now; routing and VC
 * allocation for those that hold no output VC; switch allocation for
 * those that do; the winners cross the switch.  The router runs again
 * next cycle if a head lost an allocation, when a head that is not ready
 * yet becomes ready, or when a busy crossbar input or output queue frees;
 * a head waiting for credits sleeps until a credit comes back. */
static inline void iq__step(void *self, nc_net *net, uint32_t r) {
    iq_model *m = (iq_model *)self;
    uint64_t now = net->now, next = NC_NEVER;
    int V = m->V, S = m->S, PV = m->P * m->V, nva = 0, nsw = 0, nready = 0, poll = 0, w, k;
    uint64_t *busy = m->busy + (size_t)r * (uint32_t)m->wv;
    iq_ivc *ivc = m->ivc + (size_t)r * (uint32_t)PV;
    int32_t *oc = m->ocred + (size_t)r * (uint32_t)PV;
    uint64_t *held = m->held + (size_t)r * (uint32_t)m->P, *ofree = m->out_free + (size_t)r * (uint32_t)m->P;
    uint64_t *xfree = m->xin_free + (size_t)r * (uint32_t)(m->P * S);
    uint64_t lim = (uint64_t)(S - 1) * (uint64_t)net->p.max_packet_flits;
    /* 1. routing and VC allocation */
    for (w = 0; w < m->wv; w++) {
        uint64_t bits = busy[w];
        while (bits) {
            int i = 64 * w + sim_ctz64(bits), v;
            iq_ivc *iv = &ivc[i];
            bits &= bits - 1;
            if (iv->head_ready > now) { if (iv->head_ready < next) next = iv->head_ready; continue; }
            m->ready[nready++] = (uint16_t)i;
            if (iv->out_port >= 0) continue;
            if (iv->out_port == IQ_CHOSEN) v = iv->cand.vc_lo;
            else if (!iq__route(m, net, r, m->port_of[i], m->vc_of[i], iv->q.head, &iv->cand, &v)) { poll = 1; continue; }
            else if (m->p.select == IQ_SELECT_RANDOM) {
                iv->cand.vc_lo = iv->cand.vc_hi = (uint8_t)v;    /* chosen once (within its range) */
                iv->out_port = IQ_CHOSEN;
            }
            if ((held[iv->cand.port] >> v) & 1u) { poll = 1; continue; }   /* the chosen VC is held */
            {
                int col = iv->cand.port * V + v;
                m->va_req[(size_t)i * (uint32_t)m->wv + (uint32_t)(col / 64)] |= (uint64_t)1 << (col % 64);
                m->va_rows[nva++] = (uint16_t)i;
            }
        }
    }
    if (nva) {
        iq__allocate(&m->va[r], m->va_req, m->wv, m->va_rows, nva, &m->match);
        for (k = 0; k < nva; k++) {
            int i = m->va_rows[k], j = m->match.output_of[i], o, v;
            if (j < 0) { poll = 1; continue; }
            o = m->port_of[j];
            v = m->vc_of[j];
            ivc[i].out_port = (int16_t)o;
            ivc[i].out_vc = (uint8_t)v;
            held[o] |= (uint64_t)1 << v;
        }
    }
    /* 2. switch allocation */
    for (k = 0; k < nready; k++) {
        int i = m->ready[k], o, xin;
        const iq_ivc *iv = &ivc[i];
        if (iv->out_port < 0) continue;
        o = iv->out_port;
        xin = m->xin_of[i];
        if (xfree[xin] > now) { if (xfree[xin] < next) next = xfree[xin]; continue; }
        if (ofree[o] > now + lim) { if (ofree[o] - lim < next) next = ofree[o] - lim; continue; }
        if (oc[o * V + iv->out_vc] < iv->head_size && nc_port_kind(net, r, o) != SR_PORT_TERMINAL) continue;
        iq__request(m->sw_req, m->ws, m->sw_rows, &nsw, xin, o * S, S);
        m->asked[i / 64] |= (uint64_t)1 << (i % 64);
    }
    if (nsw) {
        iq__allocate(&m->sw[r], m->sw_req, m->ws, m->sw_rows, nsw, &m->match);
        for (k = 0; k < nsw; k++) {
            int xin = m->sw_rows[k], j = m->match.output_of[xin], v, i;
            if (j < 0) { poll = 1; continue; }
            v = iq__pick_vc(m, r, xin, j / S);
            if (v < 0) sim_die("iq_router: a switch grant without a requesting VC");
            iq__send(m, net, r, xin / S, v);
            /* the VC's next packet, or another VC of this crossbar input */
            i = (xin / S) * V + v;
            if (ivc[i].q.head != SIM_NIL && ivc[i].head_ready < next) next = ivc[i].head_ready;
            if (xfree[xin] < next) next = xfree[xin];
        }
    }
    if (nsw) for (w = 0; w < m->wv; w++) m->asked[w] = 0;
    if (poll) next = now + 1;
    if (next != NC_NEVER) nc_wake(net, r, next > now ? next : now + 1);
}

/* The audit of router r: every packet in its input VCs, in state; the
 * VCs' flit counts and busy bits; credits within the buffers' room. */
static inline const char *iq__audit(void *self, const nc_net *net, uint32_t r, sim_audit *a) {
    const iq_model *m = (const iq_model *)self;
    uint32_t PV = (uint32_t)(m->P * m->V), i;
    const sim_packet *pk = net->pool.pkt;
    for (i = 0; i < PV; i++) {
        const iq_ivc *iv = &m->ivc[(size_t)r * PV + i];
        uint32_t j, flits = 0, busy = (uint32_t)(m->busy[(size_t)r * (uint32_t)m->wv + i / 64] >> (i % 64)) & 1u;
        int port = m->port_of[i];
        if (!sim_audit_fifo(a, &iv->q, IQ_IN_BUFFER)) return a->err;
        for (j = iv->q.head; j != SIM_NIL; j = pk[j].next) flits += pk[j].size;
        if (flits != iv->flits) return "iq_router: an input VC's flit count is wrong";
        if (busy != (iv->q.head != SIM_NIL)) return "iq_router: an input VC's busy bit is wrong";
        if (iv->q.head != SIM_NIL && (iv->head_size != pk[iv->q.head].size || iv->head_ready != pk[iv->q.head].t_ready))
            return "iq_router: an input VC's copy of its head packet's fields is wrong";
        if (iv->flits > (uint32_t)net->p.buf_flits[nc_port_kind(net, r, port)])
            return "iq_router: an input VC holds more than its buffer";
        if (port < net->nports[r] && nc_port_kind(net, r, port) != SR_PORT_TERMINAL &&
            (m->ocred[(size_t)r * PV + i] < 0 || m->ocred[(size_t)r * PV + i] > (int32_t)nc_out_room(net, r, port)))
            return "iq_router: an output VC's credits are outside 0 .. the room of the buffer it feeds";
    }
    return NULL;
}

/* A packet at the head of an input VC of router r that is ready and
 * cannot move, for the stall report. */
static inline int iq__waiting(void *self, const nc_net *net, uint32_t r, char *buf, size_t n) {
    const iq_model *m = (const iq_model *)self;
    uint32_t PV = (uint32_t)(m->P * m->V), i;
    for (i = 0; i < PV; i++) {
        const iq_ivc *iv = &m->ivc[(size_t)r * PV + i];
        const sim_packet *pk;
        if (iv->q.head == SIM_NIL) continue;
        pk = &net->pool.pkt[iv->q.head];
        if (pk->t_ready > net->now) continue;
        if (iv->out_port < 0)
            snprintf(buf, n, "router %u, input port %u VC %u: a packet to terminal %u holds no output VC "
                     "(those it may take are held)", r, i / (uint32_t)m->V, i % (uint32_t)m->V, pk->dst);
        else
            snprintf(buf, n, "router %u, input port %u VC %u: a packet to terminal %u waits for credits of "
                     "output port %d VC %d (%u flits of room, needs %u)", r, i / (uint32_t)m->V, i % (uint32_t)m->V,
                     pk->dst, iv->out_port, iv->out_vc,
                     m->ocred[((size_t)r * (uint32_t)m->P + (uint32_t)iv->out_port) * (uint32_t)m->V + iv->out_vc],
                     pk->size);
        return 1;
    }
    return 0;
}

/** Whether every output VC of every router of this part has all its
 *  credits back (a drained network): NULL or a message. */
static inline const char *iq_credits_home(const iq_model *m, const nc_net *net) {
    uint32_t r, v;
    int p;
    for (r = 0; r < net->routers; r++) {
        if (!nc_owns(net, r)) continue;
        for (p = 0; p < net->nports[r]; p++) {
            if (nc_port_kind(net, r, p) == SR_PORT_TERMINAL || nc_out_chan(net, r, p)->to == SR_NO_NODE) continue;
            for (v = 0; v < (uint32_t)m->V; v++)
                if (m->ocred[((size_t)r * (uint32_t)m->P + (uint32_t)p) * (uint32_t)m->V + v] != (int32_t)nc_out_room(net, r, p))
                    return "iq_router: an output VC's credits did not all come back";
        }
    }
    for (r = 0; r < net->n_my_terms; r++)
        for (v = 0; v < (uint32_t)m->V; v++)
            if (net->term_credits[(size_t)net->my_terms[r] * (uint32_t)m->V + v] != (uint32_t)net->p.buf_flits[SR_PORT_TERMINAL])
                return "iq_router: a terminal's credits did not all come back";
    return NULL;
}

/** Free the model's memory. */
static inline void iq_free(iq_model *m) {
    free(m->ivc); free(m->busy); free(m->ocred); free(m->rng); free(m->cand); free(m->held); free(m->out_free);
    free(m->xin_free); free(m->xin_last); free(m->va); free(m->sw); free(m->alloc_mem); free(m->hdr);
    free(m->va_req); free(m->sw_req); free(m->va_rows); free(m->sw_rows);
    free(m->ready); free(m->asked); free(m->port_of_xin); free(m->port_of); free(m->vc_of); free(m->xin_of);
    memset(m, 0, sizeof *m);
}

/** Set up the model over network net (nc_net_init done) and attach it;
 *  seed gives the allocators' random numbers (PIM).  NULL or a message. */
static inline const char *iq_init(iq_model *m, nc_net *net, const iq_params *p, uint64_t seed) {
    uint32_t r, N = net->routers;
    int P = net->radix, V = net->vcs, S = p->speedup, o, v;
    sa_switch_desc d;
    const char *err;
    memset(m, 0, sizeof *m);
    if (p->pipeline < 1 || p->pipeline > 1000) return "the pipeline must be 1..1000 cycles";
    if (S < 1 || S > 4) return "the speedup must be 1..4";
    if (P * V > SA_SWITCH_MAX) return "ports x VCs above 512: too large for the VC allocator";
    if (P * S > SA_SWITCH_MAX) return "ports x speedup above 512: too large for the switch allocator";
    if (V > 64) return "at most 64 VCs";
    if (p->pipeline + S * net->p.max_packet_flits + 1 > net->p.wake_ahead)
        return "the pipeline and the output queues reach further than nc_params.wake_ahead";
    {
        sr_routing_desc rd = p->routing;
        sr_result rr;
        rd.vcs = V;
        rr = sr_routing_init(&m->rt, &net->net, &rd);
        if (rr != SR_OK) return sr_result_string(rr);
        if (p->ugal == IQ_UGAL_GLOBAL && net->parts > 1)
            return "UGAL-G reads the queues of other routers: it runs in one part only";
    }
    (void)err;
    m->p = *p;
    m->max_cand = sr_route_max_candidates(&m->rt);
    m->cand = (sr_candidate *)sim_calloc((size_t)m->max_cand, sizeof(sr_candidate));
    m->P = P; m->V = V; m->S = S;
    m->wv = SA_WORDS(P * V);
    m->ws = SA_WORDS(P * S);
    m->ivc = (iq_ivc *)sim_calloc((size_t)N * (uint32_t)(P * V), sizeof(iq_ivc));
    m->busy = (uint64_t *)sim_calloc((size_t)N * (uint32_t)m->wv, sizeof(uint64_t));
    m->ocred = (int32_t *)sim_calloc((size_t)N * (uint32_t)(P * V), sizeof(int32_t));
    m->rng = (sim_rng *)sim_calloc(N, sizeof(sim_rng));
    m->held = (uint64_t *)sim_calloc((size_t)N * (uint32_t)P, sizeof(uint64_t));
    m->out_free = (uint64_t *)sim_calloc((size_t)N * (uint32_t)P, sizeof(uint64_t));
    m->xin_free = (uint64_t *)sim_calloc((size_t)N * (uint32_t)(P * S), sizeof(uint64_t));
    m->xin_last = (uint8_t *)sim_calloc((size_t)N * (uint32_t)(P * S), 1);
    m->va = (sa_switch *)sim_calloc(N, sizeof(sa_switch));
    m->sw = (sa_switch *)sim_calloc(N, sizeof(sa_switch));
    m->va_req = (uint64_t *)sim_calloc((size_t)(P * V) * (uint32_t)m->wv, sizeof(uint64_t));
    m->sw_req = (uint64_t *)sim_calloc((size_t)(P * S) * (uint32_t)m->ws, sizeof(uint64_t));
    m->va_rows = (uint16_t *)sim_calloc((size_t)(P * V), sizeof(uint16_t));
    m->sw_rows = (uint16_t *)sim_calloc((size_t)(P * S), sizeof(uint16_t));
    m->ready = (uint16_t *)sim_calloc((size_t)(P * V), sizeof(uint16_t));
    m->asked = (uint64_t *)sim_calloc((size_t)m->wv, sizeof(uint64_t));
    m->port_of = (uint16_t *)sim_calloc((size_t)(P * V), sizeof(uint16_t));
    m->vc_of = (uint8_t *)sim_calloc((size_t)(P * V), 1);
    m->xin_of = (uint16_t *)sim_calloc((size_t)(P * V), sizeof(uint16_t));
    m->port_of_xin = (uint16_t *)sim_calloc((size_t)(P * S), sizeof(uint16_t));
    for (o = 0; o < P * S; o++) m->port_of_xin[o] = (uint16_t)(o / S);
    for (o = 0; o < P * V; o++) {
        m->port_of[o] = (uint16_t)(o / V);
        m->vc_of[o] = (uint8_t)(o % V);
        m->xin_of[o] = (uint16_t)((o / V) * S + (o % V) % S);
    }
    memset(&d, 0, sizeof d);
    d.num_inputs = d.num_outputs = P * V;
    d.kind = p->va_kind;
    d.iterations = p->iterations;
    m->va_bytes = (sa_switch_memory_size(&d) + 63) & ~(size_t)63;
    d.num_inputs = d.num_outputs = P * S;
    d.kind = p->sw_kind;
    m->sw_bytes = (sa_switch_memory_size(&d) + 63) & ~(size_t)63;
    m->alloc_mem = (unsigned char *)sim_calloc((size_t)N, m->va_bytes + m->sw_bytes);
    for (r = 0; r < N; r++) {
        unsigned char *mem = m->alloc_mem + (size_t)r * (m->va_bytes + m->sw_bytes);
        for (o = 0; o < P; o++) {
            for (v = 0; v < V; v++) {
                m->ivc[((size_t)r * (uint32_t)P + (uint32_t)o) * (uint32_t)V + (uint32_t)v].out_port = IQ_NONE;
                sim_fifo_init(&m->ivc[((size_t)r * (uint32_t)P + (uint32_t)o) * (uint32_t)V + (uint32_t)v].q);
                m->ocred[((size_t)r * (uint32_t)P + (uint32_t)o) * (uint32_t)V + (uint32_t)v] =
                    o < net->nports[r] ? (int32_t)nc_out_room(net, r, o) : 0;
            }
        }
        sim_rng_stream(&m->rng[r], seed ^ 0x5EED0F1A7E5ull, r);
        if (!nc_owns(net, r)) continue;
        d.num_inputs = d.num_outputs = P * V;
        d.kind = p->va_kind;
        d.seed = sa_switch_seed(seed, 2u * r);
        if (sa_switch_init(&m->va[r], &d, mem, m->va_bytes) != SA_OK) { iq_free(m); return "cannot set up the VC allocator"; }
        d.num_inputs = d.num_outputs = P * S;
        d.kind = p->sw_kind;
        d.seed = sa_switch_seed(seed, 2u * r + 1u);
        if (sa_switch_init(&m->sw[r], &d, mem + m->va_bytes, m->sw_bytes) != SA_OK) { iq_free(m); return "cannot set up the switch allocator"; }
    }
    {
        nc_model nm = { NULL, iq__arrive, iq__credit, iq__step, iq__audit, iq__waiting, sizeof(sr_header), NULL, NULL };
        nm.self = m;
        nm.side = &m->hdr;
        nm.side_cap = &m->hdr_cap;
        nc_set_model(net, &nm);
    }
    sim_pool_side(&net->pool, &m->hdr, &m->hdr_cap, sizeof(sr_header));
    return NULL;
}

#endif /* IQ_ROUTER_H */
