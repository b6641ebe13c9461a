/* SPDX-License-Identifier: MIT */
/* alpha_net.h - a timing model of a 2-D torus of Alpha 21364 routers, the
 * network of seed 002 (Mukherjee et al., ASPLOS'02) Sections 2 and 4, with
 * the switch allocators of seastar_arb.h section 2 (SPAA, WFA, PIM1 and the
 * Rotary Rule).  Example code, not the installed library: it allocates and
 * aborts on internal errors.  examples/alpha21364.c, tests/test_alpha*.c and
 * bench/bench_alpha.c include it.  It reuses the shared simulator pieces:
 * sim_pool.h (packet pool, timing wheel), sim_traffic.h (RNG, destination
 * patterns), sim_stats.h (latency statistics).
 *
 * Time.  The router clock is 1.2 GHz and the links run at 0.8 GHz, so time
 * is kept in ticks of a 2.4 GHz clock (1 tick = 1/2.4 ns): a router cycle is
 * 2 ticks (1 tick with the doubled pipeline of Figure 11a, "twice the
 * frequency"), a network clock is 3 ticks.  The simulation steps one router
 * cycle at a time; exact tick times are kept in the packets.
 *
 * Router (Section 2): input ports N, S, E, W, cache, MC0, MC1, I/O, each a
 * buffer with two read ports (16 input arbiters); output ports N, S, E, W,
 * L0, L1, I/O; the connection matrix of sa_21364_no_connect.  A packet
 * header reaching an input pin at tick h may be nominated (LA) from cycle
 * ceil((h + d_in)/R); the arbitration takes A cycles (SPAA 3, WFA and PIM1
 * 4); the crossbar transfer starts at the dispatch cycle LA + A; a network
 * output's header leaves the pin d_out cycles later, on the next edge of the
 * network clock; the link takes 3 network clocks.  With d_in = d_out = 5
 * the pin-to-pin latency is 13 cycles for SPAA (Section 2.2: "13 cycles").
 * A local input packet is eligible d_lin = 3 cycles after it is created (RT,
 * T, DW of Figure 4a); a local output delivers the tail d_lout = 2 cycles
 * after its transfer ends.  A port (output, and the read port feeding it)
 * is busy for the packet: one flit per network clock on a network output,
 * one flit per router cycle on a local output, and never faster than the
 * packet's flits arrive (virtual cut-through).
 *
 * Pipelining (Sections 3.1-3.3): SPAA nominates (LA) every cycle and grants
 * (GA) A-1 cycles later; a nominated packet is not offered again until its
 * grant is known; a nomination whose output, read port or downstream buffer
 * was taken in the meantime loses.  WFA and PIM1 compute a whole matching
 * every 3 cycles (6 with the doubled pipeline) from the state at its start,
 * and the matched packets cross the switch A cycles later.
 *
 * Routing and flow control (Section 2.1): virtual cut-through with whole-
 * packet buffers; per input port and coherence class an adaptive VC
 * (buf_adaptive packets) and the escape VCs VC0 and VC1 (buf_escape each).
 * A packet takes either productive direction of the minimal rectangle on the
 * adaptive VC when the next router has room there; only when neither has
 * room (it is blocked) does it use the escape channel: dimension order (x
 * then y), VC0 while it still has to cross the wrap-around link of the
 * dimension, VC1 after.  A packet on an escape VC may return to the
 * adaptive VC at the next router.  Classes: requests, forwards, block
 * responses (separate VC groups, so a request never blocks a response); the
 * local ports always accept (the consumption assumption), unless mc_slots
 * bounds the memory controllers or sink_slots the local-port sinks.
 *
 * Finite memory controllers (mc_slots, 0 = unbounded, the default): a
 * memory controller holds at most mc_slots requests at once, from the
 * dispatch of a request to its local output until its 73 ns access ends.
 * While it is full the local output does not accept requests for it: they
 * wait in the home router's input buffers and hold their VC buffers there,
 * so the back-pressure reaches the network.  Seed 002 gives no number for
 * the 21364's memory-controller queues; the bound is a knob, not the
 * paper's.  Responses and forwards to the cache are still always accepted.
 *
 * Local-port sinks (sink_slots, 0 = always accept, the default): "the two
 * memory controller ports are also tied to the internal cache and, hence,
 * there is no separate explicit cache output port" (Section 2.1), so each
 * local output L0, L1 feeds one sink, its memory controller and the cache
 * behind it, with sink_slots packet buffers.  A packet takes a buffer when
 * it is dispatched to the output and gives it back when the sink is done
 * with it: a block response when its tail is delivered, a forward when its
 * 25-cycle L2 access ends, a request when its 73 ns memory access ends
 * (the sink's buffer is where the packet waits while it is served; our
 * reading).  While a sink is full its output accepts no packet of any
 * class: they wait in the router's input buffers and hold their VC
 * buffers, so the back-pressure reaches the network.  No deadlock: a full
 * sink always empties, each of its packets ending after a fixed delay.
 * The paper gives no depth; the bound is a knob, not the paper's.
 *
 * Buffers (Section 2.1): "buffer space for 316 packets per input port",
 * over 19 VCs: the adaptive VC, VC0 and VC1 of six coherence classes, and
 * one for the special class; "the adaptive channels have the bulk of the
 * packet buffers, whereas the VC0 and VC1 typically have one or two
 * buffers".  With one buffer on VC0 and VC1 that leaves (316 - 1 - 6 x 2) /
 * 6 = 50 (50.5, rounded down) per adaptive VC (AL_BUFFERS_PER_PORT,
 * al_adaptive_buffers).  The traffic of Section 4.2 uses three of the six
 * classes (request, forward, block response), so the model keeps their
 * 3 x 52 = 156 buffers; the other classes' 160 stay empty and are not
 * modelled.  With buf_shared (off by default) the adaptive VCs of an input
 * port instead share one pool of 316 - 1 - 6 x 2 x buf_escape packets (303
 * with one escape buffer), taken by whichever class arrives, while VC0 and
 * VC1 stay reserved per class, so that the escape channels still guarantee
 * progress; the traffic of Section 4.2 uses three classes, so they share
 * the whole pool.
 *
 * Traffic (Section 4.2): each processor starts a miss with probability
 * miss_rate per ns while it has fewer than `outstanding` misses; the home
 * is the pattern's destination; 70% are 2-hop (3-flit request to the home's
 * memory controller, 73 ns memory, 19-flit block response) and 30% 3-hop
 * (request, after the 73 ns directory read a 3-flit forward to an owner,
 * 25 cycles of L2, 19-flit response from the owner's cache).  Latency of a
 * packet: creation (entering the local input buffer) to tail delivery.
 * Throughput: flits delivered per router per ns.
 *
 * Anti-starvation colouring (Section 3.4, threshold ours): every
 * color_period cycles a router not already draining gives a new colour to
 * the packets that arrive from then on; the packets waiting at that moment
 * are "old".  If more than color_threshold packets are old, the router
 * drains until none is left: a new-colour packet may not be nominated for
 * an output that an old packet could take now.  (Excluding new packets
 * outright, as "all the old colored packets are drained before any new
 * colored packets are routed" reads literally, deadlocks: an old packet can
 * wait for a buffer held by new packets of a draining neighbour.  Giving
 * old packets priority per output never waits on a blocked packet.)
 */
#ifndef ALPHA_NET_H
#define ALPHA_NET_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "../../seastar_arb.h"
#include "sim_bits.h"
#include "sim_pool.h"
#include "sim_traffic.h"
#include "sim_stats.h"

/** Input ports (buffers) of a router; read port rp of port b is arbiter 2b+rp. */
#define AL_IN_PORTS 8
/** Output ports of a router. */
#define AL_OUT_PORTS 7
/** Input arbiters (read ports). */
#define AL_ARBS 16
/** Coherence classes modelled: request, forward, block response. */
#define AL_CLASSES 3
/** Coherence classes of the 21364 with three VCs each (Section 2.1; the
 *  special class has one). */
#define AL_CLASSES_21364 6
/** Packet buffers per input port (Section 2.1). */
#define AL_BUFFERS_PER_PORT 316
/** VCs per class: adaptive, VC0, VC1. */
#define AL_VCS 3
/** Candidate packets an input arbiter considers per input buffer (the entry
 *  table window; the oldest ones). */
#define AL_SCAN 64
/** SPAA nomination pipeline slots (A - 1 <= AL_PIPE). */
#define AL_PIPE 8
/** Ticks per network clock (0.8 GHz at 2.4 GHz ticks). */
#define AL_NET_TICKS 3
/** Ticks per ns. */
#define AL_TICKS_PER_NS 2.4

/** Coherence classes. */
enum { AL_REQ = 0, AL_FWD = 1, AL_RSP = 2 };
/** VCs within a class. */
enum { AL_VC_ADAPTIVE = 0, AL_VC_0 = 1, AL_VC_1 = 2 };
/** Ports (the seastar_arb.h 21364 numbering). */
enum { AL_N = 0, AL_S = 1, AL_E = 2, AL_W = 3, AL_L0 = 4, AL_L1 = 5, AL_IO = 6,
       AL_IN_CACHE = 4, AL_IN_MC0 = 5, AL_IN_MC1 = 6, AL_IN_IO = 7 };
/** Packet states (sim_packet.state). */
enum { AL_WAITING = 1, AL_NOMINATED, AL_ON_LINK, AL_EJECTING };
/** Event types. */
enum { AL_EV_ARRIVE = 1, AL_EV_DELIVER, AL_EV_MEMORY, AL_EV_L2, AL_EV_CREDIT };
/** Algorithms of the timing study. */
typedef enum al_algorithm {
    AL_PIM1 = 0, AL_WFA_BASE, AL_WFA_ROTARY, AL_SPAA_BASE, AL_SPAA_ROTARY, AL_ALG_COUNT
} al_algorithm;

/** Name of an algorithm as the paper writes it. */
static inline const char *al_algorithm_name(al_algorithm a) {
    static const char *const n[AL_ALG_COUNT] = { "PIM1", "WFA-base", "WFA-rotary", "SPAA-base", "SPAA-rotary" };
    return (int)a >= 0 && a < AL_ALG_COUNT ? n[a] : "?";
}

/** Parse an algorithm name (case-sensitive, as printed); AL_ALG_COUNT if unknown. */
static inline al_algorithm al_algorithm_parse(const char *s) {
    int i;
    for (i = 0; i < AL_ALG_COUNT; i++)
        if (strcmp(s, al_algorithm_name((al_algorithm)i)) == 0) return (al_algorithm)i;
    return AL_ALG_COUNT;
}

/** Model parameters; al_params_default fills the paper's. */
typedef struct al_params {
    int kx, ky;            /**< torus radices (2..64) */
    al_algorithm alg;      /**< the arbitration algorithm */
    int wfa_wrapped;       /**< use the wrapped WFA instead of the plain one */
    int scale;             /**< 1: the 21364; 2: the doubled pipeline (Fig 11a) */
    int arb_cycles;        /**< A; 0: SPAA 3, WFA/PIM1 4 (times scale) */
    int arb_interval;      /**< cycles between arbitrations; 0: SPAA 1, others 3*scale */
    int d_in, d_out;       /**< network input / output pipeline cycles (5, 5; times scale) */
    int d_lin, d_lout;     /**< local input / output pipeline cycles (3, 2; times scale) */
    int link_ticks;        /**< link latency (3 network clocks = 9 ticks) */
    int mem_ticks;         /**< memory response (73 ns = 175 ticks) */
    int l2_ticks;          /**< L2 response (25 cycles of 1.2 GHz = 50 ticks) */
    int outstanding;       /**< misses per processor (16; 64 for Fig 11b; <= 64) */
    double miss_rate;      /**< new misses per processor per ns (offered load) */
    double three_hop;      /**< fraction of 3-hop transactions (0.3) */
    sim_pattern pattern;   /**< destination of requests (and forwards) */
    int req_flits, fwd_flits, rsp_flits; /**< 3, 3, 19 */
    int buf_adaptive;      /**< packets per input port and class, adaptive VC (50) */
    int buf_escape;        /**< packets per input port and class, VC0 and VC1 each (1) */
    int buf_shared;        /**< 1: the adaptive VCs of an input port share one pool
                                (al_shared_buffers); buf_adaptive is then unused */
    int color_period;      /**< anti-starvation colouring period, cycles (512; 0 off) */
    int color_threshold;   /**< old packets that trigger a drain (24) */
    int mc_slots;          /**< requests a memory controller holds at once (0: unbounded) */
    int sink_slots;        /**< packets a local output's sink holds at once (0: always accepts) */
    uint64_t seed;         /**< the run's seed */
} al_params;

/** Packets per adaptive VC when AL_BUFFERS_PER_PORT are divided as
 *  Section 2.1 says: one buffer for the special class, `escape` each for
 *  VC0 and VC1 of the six classes, the rest evenly over their adaptive VCs
 *  (rounded down); 50 with one escape buffer. */
static inline int al_adaptive_buffers(int escape) {
    return (AL_BUFFERS_PER_PORT - 1 - AL_CLASSES_21364 * 2 * escape) / AL_CLASSES_21364;
}

/** Packets in the pool the adaptive VCs of an input port share when
 *  buf_shared is set: AL_BUFFERS_PER_PORT less the special class's buffer
 *  and `escape` each for VC0 and VC1 of the six classes (303 with one). */
static inline int al_shared_buffers(int escape) {
    return AL_BUFFERS_PER_PORT - 1 - AL_CLASSES_21364 * 2 * escape;
}

/* Which class's counter of credits[][][] holds a (class, VC): the
 * shared pool is counted under class 0. */
#define AL__CCLS(net, cls, vc) ((net)->p.buf_shared && (vc) == AL_VC_ADAPTIVE ? 0 : (cls))

/** The paper's parameters on a kx x ky torus with algorithm alg. */
static inline void al_params_default(al_params *p, int kx, int ky, al_algorithm alg) {
    memset(p, 0, sizeof *p);
    p->kx = kx; p->ky = ky; p->alg = alg;
    p->scale = 1;
    p->d_in = 5; p->d_out = 5; p->d_lin = 3; p->d_lout = 2;
    p->link_ticks = 3 * AL_NET_TICKS;
    p->mem_ticks = 175;
    p->l2_ticks = 50;
    p->outstanding = 16;
    p->miss_rate = 0.01;
    p->three_hop = 0.3;
    p->pattern = SIM_UNIFORM;
    p->req_flits = 3; p->fwd_flits = 3; p->rsp_flits = 19;
    p->buf_escape = 1;
    p->buf_adaptive = al_adaptive_buffers(p->buf_escape);
    p->color_period = 512;
    p->color_threshold = 24;
    p->seed = 1;
}

/** Check parameters; NULL or a message. */
static inline const char *al_params_check(const al_params *p) {
    if (p->kx < 2 || p->ky < 2 || p->kx > 64 || p->ky > 64) return "radices must be 2..64";
    if ((int)p->alg < 0 || p->alg >= AL_ALG_COUNT) return "unknown algorithm";
    if (p->scale < 1 || p->scale > 2) return "scale must be 1 or 2";
    if (p->arb_cycles < 0 || p->arb_cycles > AL_PIPE) return "arbitration cycles must be 1..8";
    if (p->arb_interval < 0 || p->arb_interval > 64) return "arbitration interval must be 1..64";
    if (p->outstanding < 1 || p->outstanding > 64) return "outstanding misses must be 1..64";
    if (!(p->miss_rate >= 0)) return "miss rate must be >= 0";
    if (!(p->three_hop >= 0 && p->three_hop <= 1)) return "3-hop fraction must be in 0..1";
    if (p->buf_adaptive < 1 || p->buf_escape < 1 || p->buf_adaptive > 1000 || p->buf_escape > 1000)
        return "buffers must be 1..1000 packets";
    if (p->buf_shared != 0 && p->buf_shared != 1) return "buf_shared must be 0 or 1";
    if (p->buf_shared && al_shared_buffers(p->buf_escape) < 1) return "no shared adaptive buffers left";
    if (p->req_flits < 1 || p->fwd_flits < 1 || p->rsp_flits < 1 ||
        p->req_flits > 255 || p->fwd_flits > 255 || p->rsp_flits > 255) return "packet sizes must be 1..255";
    if (p->d_in < 0 || p->d_out < 0 || p->d_lin < 0 || p->d_lout < 0 || p->link_ticks < 1 ||
        p->mem_ticks < 1 || p->l2_ticks < 1) return "delays must be positive";
    if (p->mem_ticks > 4000 || p->l2_ticks > 4000 || p->link_ticks > 400) return "delays too long";
    if (p->color_period < 0 || p->color_threshold < 0) return "colouring parameters must be >= 0";
    if (p->mc_slots < 0 || p->mc_slots > 1000) return "memory-controller slots must be 0..1000";
    if (p->sink_slots < 0 || p->sink_slots > 1000) return "sink_slots (local-port sink buffers) must be 0..1000";
    if ((int)p->pattern < 0 || p->pattern >= SIM_PATTERN_COUNT || p->pattern == SIM_PERMUTATION)
        return "unsupported pattern";
    return NULL;
}

/** Per-packet data beyond sim_packet (indexed like the pool). */
typedef struct al_pkt_ext {
    uint64_t tail;     /**< tick its tail reaches the current router's pin
                            (local input: the tick its last flit is there) */
    uint64_t done;     /**< tick its tail is delivered (when ejecting) */
    uint32_t txn;      /**< its transaction */
    uint32_t epoch;    /**< colour epoch of the router when it arrived */
    uint8_t cls;       /**< AL_REQ, AL_FWD, AL_RSP */
    uint8_t sink;      /**< local outputs it may leave by at its destination */
    uint8_t tie;       /**< bit d: in dimension d a half-way tie goes - (else +) */
    uint8_t want;      /**< outputs that lead towards the destination from here */
} al_pkt_ext;

/** A coherence transaction (one miss). */
typedef struct al_txn {
    uint32_t requester, home, owner; /**< nodes (owner only for 3-hop) */
    uint8_t mc;                      /**< home memory controller 0/1 */
    uint8_t three_hop;               /**< 1: request, forward, response */
    uint8_t fwd_sink;                /**< the owner's sink (0/1) its forward took */
    uint8_t busy;                    /**< slot in use */
} al_txn;

/** A router. */
typedef struct al_router {
    uint32_t *q[AL_IN_PORTS];  /**< waiting packets per input port, arrival order */
    uint32_t qn[AL_IN_PORTS];  /**< their number */
    uint32_t qcap[AL_IN_PORTS];/**< allocated */
    uint32_t waiting;          /**< packets in all q */
    uint32_t old_count;        /**< packets of the old colour still waiting */
    uint32_t epoch;            /**< current colour epoch */
    int drain;                 /**< draining the old colour */
    uint16_t credits[4][AL_CLASSES][AL_VCS]; /**< free downstream buffers */
    uint64_t out_free[AL_OUT_PORTS]; /**< tick each output is free */
    uint64_t rp_free[AL_ARBS];       /**< tick each read port is free */
    uint32_t nbr[4];           /**< neighbour through each network output */
    int x, y;                  /**< coordinates */
    sa_switch alloc;            /**< the switch allocator */
    void *alloc_memory;        /**< its memory (sa_switch_memory_size bytes) */
    int16_t nom_out[AL_PIPE][AL_ARBS];   /**< SPAA nominations in flight */
    uint32_t nom_pkt[AL_PIPE][AL_ARBS];  /**< their packets */
    int noms;                  /**< nominations in flight */
    uint32_t mc_busy[2];       /**< requests each memory controller holds (mc_slots) */
    uint32_t sink_busy[2];     /**< packets each local output's sink holds (sink_slots) */
} al_router;

/** Measurement counters of a window. */
typedef struct al_stats {
    uint64_t start_cycle;      /**< window start */
    uint64_t flits;            /**< flits delivered */
    uint64_t packets;          /**< packets delivered */
    uint64_t txns;             /**< transactions completed */
    uint64_t misses;           /**< misses started */
    uint64_t stalled;          /**< miss attempts refused (limit reached) */
    uint64_t drains;           /**< anti-starvation drains started */
    uint64_t escape_hops;      /**< hops on VC0/VC1 */
    uint64_t hops;             /**< network hops */
    double outstanding_sum;    /**< sum over cycles of outstanding misses */
    sim_latency lat;           /**< packet latency in ticks */
} al_stats;

/** The whole model. */
typedef struct al_net {
    al_params p;               /**< parameters */
    int n;                     /**< routers */
    int R;                     /**< ticks per router cycle */
    int A, S;                  /**< arbitration cycles, interval */
    sim_pool pool;             /**< packets */
    al_pkt_ext *ext;           /**< per-packet extra data */
    uint32_t ext_cap;          /**< entries of ext */
    sim_wheel wheel;           /**< events, in router cycles */
    al_router *rt;             /**< routers */
    al_txn *txn;               /**< n * outstanding transactions */
    uint64_t *txn_free;        /**< per node: free transaction slots */
    uint32_t *busy_txns;       /**< per node: outstanding misses */
    sim_shape shape;           /**< for the traffic patterns */
    sim_traffic traffic;       /**< the pattern (sim_traffic_dest) */
    sim_rng rng;               /**< traffic randomness */
    uint64_t miss_threshold;   /**< Bernoulli threshold per node per cycle */
    uint64_t created, delivered; /**< packets, since the start */
    uint64_t outstanding_now;  /**< misses outstanding, all nodes */
    al_stats st;               /**< the current window */
} al_net;

/* ---------------------------------------------------------------- helpers */

static inline uint64_t al__ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static inline uint64_t al__max(uint64_t a, uint64_t b) { return a > b ? a : b; }
/** Current router cycle. */
static inline uint64_t al_now(const al_net *net) { return net->wheel.now; }

/* Schedule an event at the cycle containing tick t (at least next cycle). */
static inline void al__at_tick(al_net *net, uint64_t t, int type, uint32_t a, uint32_t payload) {
    uint64_t c = al__ceil_div(t, (uint64_t)net->R);
    if (c <= net->wheel.now) c = net->wheel.now + 1;
    sim_wheel_at(&net->wheel, c, a, SIM_EV_B(type, payload));
}

static inline uint32_t al__alloc_packet(al_net *net) {
    uint32_t i = sim_pool_alloc(&net->pool);
    void *ext = net->ext;
    sim_pool_side(&net->pool, &ext, &net->ext_cap, sizeof(al_pkt_ext));
    net->ext = (al_pkt_ext *)ext;
    memset(&net->ext[i], 0, sizeof(al_pkt_ext));
    return i;
}

static inline void al__q_push(al_router *r, int b, uint32_t pi) {
    if (r->qn[b] == r->qcap[b]) {
        uint32_t nc = r->qcap[b] ? r->qcap[b] * 2u : 16u;
        uint32_t *nq = (uint32_t *)realloc(r->q[b], (size_t)nc * sizeof(uint32_t));
        if (nq == NULL) sim_die("out of memory (queue)");
        r->q[b] = nq;
        r->qcap[b] = nc;
    }
    r->q[b][r->qn[b]++] = pi;
    r->waiting++;
}

static inline void al__q_remove(al_router *r, int b, uint32_t pi) {
    uint32_t k, n = r->qn[b];
    for (k = 0; k < n && r->q[b][k] != pi; k++) {}
    if (k == n) sim_die("packet not in its input buffer");
    memmove(&r->q[b][k], &r->q[b][k + 1], (size_t)(n - k - 1) * sizeof(uint32_t));
    r->qn[b] = n - 1;
    r->waiting--;
}

/* Productive direction in one dimension from c to d on a ring of k: +1, -1
 * or 0.  A tie (distance k/2, both rectangles minimal) goes + unless neg;
 * the packet draws neg once per dimension at creation, so ties spread
 * evenly over both directions and a packet keeps its direction.
 * *wrap: the way crosses the wrap-around link. */
static inline int al__dir(int c, int d, int k, int neg, int *wrap) {
    int fwd = ((d - c) % k + k) % k;
    if (fwd == 0) { *wrap = 0; return 0; }
    if (2 * fwd < k || (2 * fwd == k && !neg)) { *wrap = d < c; return 1; }
    *wrap = d > c;
    return -1;
}

/* Outputs that lead packet pi towards its destination from router rt (the
 * productive directions, or its local outputs at the destination). */
static inline uint8_t al__want(const al_net *net, const al_router *rt, uint32_t pi) {
    const sim_packet *pk = &net->pool.pkt[pi];
    int tx = (int)(pk->dst % (uint32_t)net->p.kx), ty = (int)(pk->dst / (uint32_t)net->p.kx), w, m = 0;
    int dx, dy;
    if (tx == rt->x && ty == rt->y) return net->ext[pi].sink;
    dx = al__dir(rt->x, tx, net->p.kx, net->ext[pi].tie & 1, &w);
    dy = al__dir(rt->y, ty, net->p.ky, (net->ext[pi].tie >> 1) & 1, &w);
    if (dx) m |= 1 << (dx > 0 ? AL_E : AL_W);
    if (dy) m |= 1 << (dy > 0 ? AL_N : AL_S);
    return (uint8_t)m;
}

/* Put a packet into router r's input buffer b; its header is at the pin at
 * tick h and its tail at tick tail. */
static inline void al__enter(al_net *net, uint32_t r, int b, uint32_t pi, uint64_t h, uint64_t tail) {
    al_router *rt = &net->rt[r];
    sim_packet *pk = &net->pool.pkt[pi];
    int pre = b < 4 ? net->p.d_in : net->p.d_lin;
    pk->state = AL_WAITING;
    pk->in_port = (uint8_t)b;
    pk->t_hop = h;
    pk->t_ready = al__ceil_div(h + (uint64_t)pre * (uint64_t)net->p.scale * (uint64_t)net->R, (uint64_t)net->R);
    net->ext[pi].tail = tail;
    net->ext[pi].epoch = rt->epoch;
    net->ext[pi].want = al__want(net, rt, pi);
    al__q_push(rt, b, pi);
}

/* Create a packet of class cls for transaction t at node src's local input
 * port b, to node dst, leaving there by one of the outputs in sink. */
static inline void al__create(al_net *net, uint32_t t, int cls, uint32_t src, int b, uint32_t dst,
                              int sink, uint64_t tick) {
    uint32_t pi = al__alloc_packet(net);
    sim_packet *pk = &net->pool.pkt[pi];
    int size = cls == AL_REQ ? net->p.req_flits : cls == AL_FWD ? net->p.fwd_flits : net->p.rsp_flits;
    pk->src = src;
    pk->dst = dst;
    pk->t_create = tick;
    pk->size = (uint8_t)size;
    pk->vc = AL_VC_ADAPTIVE;
    net->ext[pi].txn = t;
    net->ext[pi].cls = (uint8_t)cls;
    net->ext[pi].sink = (uint8_t)sink;
    net->ext[pi].tie = (uint8_t)(sim_rng_next(&net->rng) >> 62);
    net->created++;
    al__enter(net, src, b, pi, tick, tick + (uint64_t)(size - 1) * (uint64_t)net->R);
}

/* Outputs packet pi may take at router r now, given the downstream buffers
 * (adaptive where possible, else the escape channel); *vc_of receives the VC
 * for each network output.  Does not look at output or read-port busy. */
static inline uint32_t al__route(const al_net *net, const al_router *rt, uint32_t pi, uint8_t *vc_of) {
    const sim_packet *pk = &net->pool.pkt[pi];
    int cls = net->ext[pi].cls, wx = 0, wy = 0, dx, dy, esc, evc;
    int tx = (int)(pk->dst % (uint32_t)net->p.kx), ty = (int)(pk->dst / (uint32_t)net->p.kx);
    uint32_t m = 0;
    if ((int)pk->dst == rt->y * net->p.kx + rt->x) {
        uint32_t sink = net->ext[pi].sink;
        if (cls == AL_REQ && net->p.mc_slots) {      /* a full memory controller refuses */
            if (rt->mc_busy[0] >= (uint32_t)net->p.mc_slots) sink &= ~(1u << AL_L0);
            if (rt->mc_busy[1] >= (uint32_t)net->p.mc_slots) sink &= ~(1u << AL_L1);
        }
        if (net->p.sink_slots) {                      /* a full sink refuses every class */
            if (rt->sink_busy[0] >= (uint32_t)net->p.sink_slots) sink &= ~(1u << AL_L0);
            if (rt->sink_busy[1] >= (uint32_t)net->p.sink_slots) sink &= ~(1u << AL_L1);
        }
        return sink;
    }
    dx = al__dir(rt->x, tx, net->p.kx, net->ext[pi].tie & 1, &wx);
    dy = al__dir(rt->y, ty, net->p.ky, (net->ext[pi].tie >> 1) & 1, &wy);
    if (dx && rt->credits[dx > 0 ? AL_E : AL_W][AL__CCLS(net, cls, AL_VC_ADAPTIVE)][AL_VC_ADAPTIVE]) {
        m |= 1u << (dx > 0 ? AL_E : AL_W);
        vc_of[dx > 0 ? AL_E : AL_W] = AL_VC_ADAPTIVE;
    }
    if (dy && rt->credits[dy > 0 ? AL_N : AL_S][AL__CCLS(net, cls, AL_VC_ADAPTIVE)][AL_VC_ADAPTIVE]) {
        m |= 1u << (dy > 0 ? AL_N : AL_S);
        vc_of[dy > 0 ? AL_N : AL_S] = AL_VC_ADAPTIVE;
    }
    if (m) return m;
    /* Blocked: the escape channel, dimension order, dateline VCs. */
    if (dx) { esc = dx > 0 ? AL_E : AL_W; evc = wx ? AL_VC_0 : AL_VC_1; }
    else { esc = dy > 0 ? AL_N : AL_S; evc = wy ? AL_VC_0 : AL_VC_1; }
    if (rt->credits[esc][cls][evc] == 0) return 0;
    vc_of[esc] = (uint8_t)evc;
    return 1u << esc;
}

/* Read port (input arbiter) of buffer b that reaches output j. */
static inline int al__read_port(const al_router *rt, int b, int j) {
    return ((rt->alloc.connect[2 * b] >> j) & 1u) ? 2 * b : 2 * b + 1;
}

/* Send packet pi from router r through output j on VC vc, its transfer
 * starting at tick D (the dispatch cycle's tick). */
static inline void al__dispatch(al_net *net, uint32_t r, uint32_t pi, int j, int vc, uint64_t D) {
    al_router *rt = &net->rt[r];
    sim_packet *pk = &net->pool.pkt[pi];
    al_pkt_ext *e = &net->ext[pi];
    int b = pk->in_port, R = net->R, sc = net->p.scale;
    uint64_t F = pk->size, out_flit = j < 4 ? AL_NET_TICKS : (uint64_t)R;
    uint64_t pre = (uint64_t)(b < 4 ? net->p.d_in : net->p.d_lin) * (uint64_t)sc * (uint64_t)R;
    uint64_t s = D, end;
    if (j < 4 && (vc < 0 || rt->credits[j][AL__CCLS(net, e->cls, vc)][vc] == 0))
        sim_die("dispatch without a downstream buffer");
    if (!((rt->alloc.connect[al__read_port(rt, b, j)] >> j) & 1u)) sim_die("no crossbar connection");
    al__q_remove(rt, b, pi);
    if (e->epoch != rt->epoch) {
        if (rt->old_count == 0) sim_die("colour count underflow");
        rt->old_count--;
    }
    if (j < 4) {
        /* The header leaves the pin on a network clock edge. */
        uint64_t pin = D + (uint64_t)net->p.d_out * (uint64_t)sc * (uint64_t)R;
        s = D + (al__ceil_div(pin, AL_NET_TICKS) * AL_NET_TICKS - pin);
    }
    end = al__max(s + F * out_flit, e->tail + pre + (uint64_t)net->A * (uint64_t)R + out_flit);
    rt->out_free[j] = end;
    rt->rp_free[al__read_port(rt, b, j)] = end;
    if (b < 4) {
        /* Return the buffer to the upstream router when the tail has left. */
        uint32_t up = rt->nbr[b];
        int up_out = b ^ 1; /* N<->S, E<->W */
        al__at_tick(net, end + (uint64_t)net->p.link_ticks, AL_EV_CREDIT, up * 4u + (uint32_t)up_out,
                    (uint32_t)(e->cls * AL_VCS + pk->vc));
    }
    if (pk->hops == 0 && pk->t_inject == 0) pk->t_inject = s;
    if (j < 4) {
        uint64_t h = s + (uint64_t)net->p.d_out * (uint64_t)sc * (uint64_t)R + (uint64_t)net->p.link_ticks;
        rt->credits[j][AL__CCLS(net, e->cls, vc)][vc]--;
        pk->vc = (uint8_t)vc;
        pk->out_port = (uint8_t)j;
        pk->hops++;
        net->st.hops++;
        if (vc != AL_VC_ADAPTIVE) net->st.escape_hops++;
        pk->state = AL_ON_LINK;
        e->tail = h + (end - s) - out_flit;
        al__at_tick(net, h, AL_EV_ARRIVE, pi, rt->nbr[j] * 8u + (uint32_t)(j ^ 1));
        pk->t_hop = h;
    } else {
        if (e->cls == AL_REQ) rt->mc_busy[j - AL_L0]++;     /* j is L0 or L1: a memory controller */
        if (e->cls == AL_FWD) net->txn[e->txn].fwd_sink = (uint8_t)(j - AL_L0);
        rt->sink_busy[j - AL_L0]++;
        pk->state = AL_EJECTING;
        pk->out_port = (uint8_t)j;
        e->done = end + (uint64_t)net->p.d_lout * (uint64_t)sc * (uint64_t)R;
        al__at_tick(net, e->done, AL_EV_DELIVER, pi, 0);
    }
}

/* ------------------------------------------------------------ transactions */

static inline void al__txn_done(al_net *net, uint32_t t) {
    uint32_t node = net->txn[t].requester;
    uint32_t slot = t - node * (uint32_t)net->p.outstanding;
    if (!net->txn[t].busy) sim_die("transaction completed twice");
    net->txn[t].busy = 0;
    net->txn_free[node] |= (uint64_t)1 << slot;
    net->busy_txns[node]--;
    net->outstanding_now--;
    net->st.txns++;
}

/* Sink k (local output L0 + k) of router r is done with a packet. */
static inline void al__sink_release(al_net *net, uint32_t r, int k) {
    if (net->rt[r].sink_busy[k] == 0) sim_die("sink count underflow");
    net->rt[r].sink_busy[k]--;
}

static inline void al__deliver(al_net *net, uint32_t pi) {
    sim_packet *pk = &net->pool.pkt[pi];
    al_pkt_ext *e = &net->ext[pi];
    uint32_t t = e->txn;
    al_txn *tx = &net->txn[t];
    if (pk->state != AL_EJECTING) sim_die("delivery of a packet that is not ejecting");
    net->st.flits += pk->size;
    net->st.packets++;
    sim_latency_add(&net->st.lat, e->done - pk->t_create);
    net->delivered++;
    if (e->cls == AL_REQ) al__at_tick(net, e->done + (uint64_t)net->p.mem_ticks, AL_EV_MEMORY, t, 0);
    else if (e->cls == AL_FWD) al__at_tick(net, e->done + (uint64_t)net->p.l2_ticks, AL_EV_L2, t, 0);
    else {
        al__sink_release(net, pk->dst, pk->out_port - AL_L0);   /* a response: consumed */
        al__txn_done(net, t);
    }
    (void)tx;
    sim_pool_release(&net->pool, pi);
}

/* A destination other than a and b (uniform). */
static inline uint32_t al__other(al_net *net, uint32_t a, uint32_t b) {
    uint32_t n = (uint32_t)net->n, d;
    if (n < 3) return a == b ? (a + 1) % n : a;
    do d = sim_rng_below(&net->rng, n); while (d == a || d == b);
    return d;
}

/* Start a miss at node r if it has a free slot (a processor at its limit
 * stalls: the attempt is counted and dropped). */
/* Take a free transaction slot of requester r (it has one: the caller
 * checked the outstanding-miss limit) and count the miss; returns its index. */
static inline uint32_t al__take_txn(al_net *net, uint32_t r) {
    uint32_t slot = (uint32_t)sim_ctz64(net->txn_free[r]);
    net->txn_free[r] &= ~((uint64_t)1 << slot);
    net->busy_txns[r]++;
    net->outstanding_now++;
    net->st.misses++;
    return r * (uint32_t)net->p.outstanding + slot;
}

static inline void al__miss(al_net *net, uint32_t r, uint64_t tick) {
    uint32_t home, t;
    al_txn *tx;
    if (net->busy_txns[r] >= (uint32_t)net->p.outstanding) { net->st.stalled++; return; }
    home = sim_traffic_dest(&net->traffic, &net->shape, r, &net->rng);
    if (home == r) return; /* a pattern's fixed point stays idle */
    t = al__take_txn(net, r);
    tx = &net->txn[t];
    tx->busy = 1;
    tx->requester = r;
    tx->home = home;
    tx->mc = (uint8_t)(sim_rng_next(&net->rng) >> 63);
    tx->three_hop = (uint8_t)(sim_rng_unit(&net->rng) < net->p.three_hop);
    tx->owner = home;
    if (tx->three_hop) {
        uint32_t o = net->p.pattern == SIM_UNIFORM ? home
                     : sim_traffic_dest(&net->traffic, &net->shape, home, &net->rng);
        tx->owner = (o == home || o == r) ? al__other(net, home, r) : o;
    }
    al__create(net, t, AL_REQ, r, AL_IN_CACHE, home, 1 << (AL_L0 + tx->mc), tick);
}

/* The memory (or directory) of the home answers: a block response to the
 * requester or, for a 3-hop miss, a forward to the owner. */
static inline void al__memory(al_net *net, uint32_t t, uint64_t tick) {
    al_txn *tx = &net->txn[t];
    int b = AL_IN_MC0 + tx->mc, sink = (1 << AL_L0) | (1 << AL_L1);
    if (net->rt[tx->home].mc_busy[tx->mc] == 0) sim_die("memory controller count underflow");
    net->rt[tx->home].mc_busy[tx->mc]--;
    al__sink_release(net, tx->home, tx->mc);
    if (tx->three_hop) al__create(net, t, AL_FWD, tx->home, b, tx->owner, sink, tick);
    else al__create(net, t, AL_RSP, tx->home, b, tx->requester, sink, tick);
}

/* ------------------------------------------------------------ arbitration */

/* Candidates of one arbitration at a router: per input buffer the packets
 * that may be nominated at tick L and the outputs each may use.  An output
 * (and the read port that feeds it) is ready for arbitration only once all
 * flits of its previous packet have gone (Section 2.1: "An output port is
 * ready for re-arbitration once all flits of a packet are delivered via the
 * port"), so each packet costs its port the arbitration latency; this is
 * what makes every extra pipeline cycle cost throughput (Section 1: "each
 * additional cycle ... degraded the network throughput by roughly 5%"). */
typedef struct al_cands {
    uint64_t outs[AL_IN_PORTS][AL_SCAN];  /**< outputs of each candidate */
    uint32_t pkt[AL_IN_PORTS][AL_SCAN];   /**< the candidate packets */
    int n[AL_IN_PORTS];                   /**< candidates per buffer */
    sa_read_buffer buf[AL_IN_PORTS];      /**< read-port views */
    uint64_t req[AL_ARBS];                /**< request rows */
    int32_t prio[AL_ARBS * AL_OUT_PORTS]; /**< oldest-packet priority */
} al_cands;

static inline void al__candidates(al_net *net, al_router *rt, uint64_t c, uint64_t L, al_cands *cd) {
    int b, k, j;
    uint32_t old_outs = 0, free_out = 0;
    uint64_t is_old[AL_IN_PORTS];
    for (j = 0; j < AL_OUT_PORTS; j++) if (rt->out_free[j] <= L) free_out |= 1u << j;
    for (b = 0; b < AL_IN_PORTS; b++) {
        uint32_t q, qn = rt->qn[b], ok = 0;
        int n = 0;
        is_old[b] = 0;
        cd->n[b] = 0;
        if (rt->rp_free[2 * b] <= L) ok |= (uint32_t)rt->alloc.connect[2 * b];
        if (rt->rp_free[2 * b + 1] <= L) ok |= (uint32_t)rt->alloc.connect[2 * b + 1];
        ok &= free_out;
        if (ok == 0) continue;
        if (qn > AL_SCAN) qn = AL_SCAN; /* the entry table: oldest packets */
        for (q = 0; q < qn; q++) {
            uint32_t pi = rt->q[b][q];
            const sim_packet *pk = &net->pool.pkt[pi];
            uint8_t vc_of[AL_OUT_PORTS];
            uint32_t m;
            if (!(net->ext[pi].want & ok) || pk->state != AL_WAITING || pk->t_ready > c) continue;
            m = al__route(net, rt, pi, vc_of) & ok;
            if (m == 0) continue;
            if (rt->drain && net->ext[pi].epoch != rt->epoch) {
                is_old[b] |= (uint64_t)1 << n;
                old_outs |= m;
            }
            cd->outs[b][n] = m;
            cd->pkt[b][n] = pi;
            n++;
        }
        cd->n[b] = n;
    }
    for (b = 0; b < AL_IN_PORTS; b++) {
        int n = 0;
        uint32_t seen = 0, mm;
        cd->req[2 * b] = cd->req[2 * b + 1] = 0;
        for (k = 0; k < cd->n[b]; k++) {
            uint64_t m = cd->outs[b][k];
            /* Draining: new-colour packets may not use an output an old one
             * can use now (old first; never waiting on a blocked packet). */
            if (rt->drain && !((is_old[b] >> k) & 1u)) m &= ~(uint64_t)old_outs;
            if (m == 0) continue;
            cd->outs[b][n] = m;
            cd->pkt[b][n] = cd->pkt[b][k];
            /* Priority of an output: how old its oldest packet is. */
            for (mm = (uint32_t)m & ~seen; mm; mm &= mm - 1) {
                j = sim_ctz64(mm);
                cd->prio[2 * b * AL_OUT_PORTS + j] = cd->prio[(2 * b + 1) * AL_OUT_PORTS + j] =
                    255 - (n < 255 ? n : 255);
            }
            seen |= (uint32_t)m;
            n++;
        }
        cd->n[b] = n;
        if (n == 0) continue;
        if (sa_read_buffer_build(&cd->buf[b], cd->outs[b], n) != SA_OK) sim_die("read buffer view");
        cd->req[2 * b] = cd->buf[b].any & rt->alloc.connect[2 * b];
        cd->req[2 * b + 1] = cd->buf[b].any & rt->alloc.connect[2 * b + 1];
    }
}

/* Packets of buffer b for the outputs of its two read ports. */
static inline void al__assign(const al_cands *cd, int b, int out0, int out1, uint32_t *p0, uint32_t *p1) {
    int k0 = -1, k1 = -1;
    if (sa_read_buffer_assign(cd->outs[b], cd->n[b], out0, out1, &k0, &k1) != SA_OK)
        sim_die("read ports given the same packet");
    *p0 = k0 >= 0 ? cd->pkt[b][k0] : SIM_NIL;
    *p1 = k1 >= 0 ? cd->pkt[b][k1] : SIM_NIL;
}

/* VC for packet pi on output j now (the route is re-evaluated). */
static inline int al__vc_for(const al_net *net, const al_router *rt, uint32_t pi, int j) {
    uint8_t vc_of[AL_OUT_PORTS];
    uint32_t m = al__route(net, rt, pi, vc_of);
    if (!((m >> j) & 1u)) return -1;
    return j < 4 ? vc_of[j] : 0;
}

/* WFA / PIM1: one whole matching; the packets cross A cycles later. */
static inline void al__arbitrate_matrix(al_net *net, uint32_t r, uint64_t c, al_cands *cd) {
    al_router *rt = &net->rt[r];
    uint64_t D = (c + (uint64_t)net->A) * (uint64_t)net->R;
    sa_match mt;
    int b;
    al__candidates(net, rt, c, c * (uint64_t)net->R, cd);
    sa_switch_allocate(&rt->alloc, cd->req, NULL, cd->buf, &mt);
    if (mt.size == 0) return;
    for (b = 0; b < AL_IN_PORTS; b++) {
        int o0 = mt.output_of[2 * b], o1 = mt.output_of[2 * b + 1];
        uint32_t p0, p1;
        if (o0 < 0 && o1 < 0) continue;
        al__assign(cd, b, o0, o1, &p0, &p1);
        if (p0 != SIM_NIL) al__dispatch(net, r, p0, o0, al__vc_for(net, rt, p0, o0), D);
        if (p1 != SIM_NIL) al__dispatch(net, r, p1, o1, al__vc_for(net, rt, p1, o1), D);
    }
}

/* SPAA: nominate now (LA); grant the nominations of A-1 cycles ago (GA). */
static inline void al__arbitrate_spaa(al_net *net, uint32_t r, uint64_t c, al_cands *cd) {
    al_router *rt = &net->rt[r];
    int A = net->A, i, b;
    if (rt->waiting > (uint32_t)rt->noms) {
        int16_t nom[AL_ARBS];
        int s = (int)(c % AL_PIPE);
        al__candidates(net, rt, c, c * (uint64_t)net->R, cd);
        sa_spaa_nominate(&rt->alloc, cd->req, cd->prio, cd->buf, nom);
        for (b = 0; b < AL_IN_PORTS; b++) {
            uint32_t p[2];
            int k;
            if (nom[2 * b] < 0 && nom[2 * b + 1] < 0) continue;
            al__assign(cd, b, nom[2 * b], nom[2 * b + 1], &p[0], &p[1]);
            for (k = 0; k < 2; k++) {
                if (p[k] == SIM_NIL) continue;
                net->pool.pkt[p[k]].state = AL_NOMINATED;
                rt->nom_out[s][2 * b + k] = nom[2 * b + k];
                rt->nom_pkt[s][2 * b + k] = p[k];
                rt->noms++;
            }
        }
    }
    if (rt->noms && c + 1 >= (uint64_t)A) {
        int s = (int)((c + 1 - (uint64_t)A) % AL_PIPE);
        uint64_t D = (c + 1) * (uint64_t)net->R;
        int16_t nom[AL_ARBS];
        int vc[AL_ARBS];
        sa_match mt;
        int any = 0;
        for (i = 0; i < AL_ARBS; i++) {
            int j = rt->nom_out[s][i];
            uint32_t pi = rt->nom_pkt[s][i];
            nom[i] = -1;
            if (j < 0) continue;
            vc[i] = al__vc_for(net, rt, pi, j);
            if (rt->out_free[j] <= D && rt->rp_free[i] <= D && vc[i] >= 0) { nom[i] = (int16_t)j; any = 1; }
            else net->pool.pkt[pi].state = AL_WAITING; /* Reset: offered again */
        }
        if (any) sa_spaa_grant(&rt->alloc, nom, &mt);
        for (i = 0; i < AL_ARBS; i++) {
            uint32_t pi = rt->nom_pkt[s][i];
            if (rt->nom_out[s][i] < 0) continue;
            rt->noms--;
            rt->nom_out[s][i] = -1;
            if (nom[i] < 0) continue;
            if (mt.output_of[i] == nom[i]) al__dispatch(net, r, pi, nom[i], vc[i], D);
            else net->pool.pkt[pi].state = AL_WAITING;
        }
    }
}

/* --------------------------------------------------------------- the model */

/** Build a model; NULL on success, else a message (nothing to free then). */
static inline const char *al_net_init(al_net *net, const al_params *p) {
    const char *err = al_params_check(p);
    int r, radix[2];
    double p_cycle;
    memset(net, 0, sizeof *net);
    if (err) return err;
    net->p = *p;
    net->n = p->kx * p->ky;
    net->R = 2 / p->scale;
    net->A = p->arb_cycles ? p->arb_cycles
             : (p->alg >= AL_SPAA_BASE ? 3 : 4) * p->scale;
    net->S = p->arb_interval ? p->arb_interval : (p->alg >= AL_SPAA_BASE ? 1 : 3 * p->scale);
    if (net->A > AL_PIPE) return "arbitration longer than the nomination pipeline";
    sim_pool_init(&net->pool, 1024);
    net->ext_cap = 0;
    net->ext = NULL;
    sim_wheel_init(&net->wheel, 2048);
    net->rt = (al_router *)sim_calloc((size_t)net->n, sizeof(al_router));
    net->txn = (al_txn *)sim_calloc((size_t)net->n * (size_t)p->outstanding, sizeof(al_txn));
    net->txn_free = (uint64_t *)sim_calloc((size_t)net->n, sizeof(uint64_t));
    net->busy_txns = (uint32_t *)sim_calloc((size_t)net->n, sizeof(uint32_t));
    radix[0] = p->kx; radix[1] = p->ky;
    sim_shape_init(&net->shape, 2, radix, NULL);
    sim_traffic_default(&net->traffic);
    net->traffic.pattern = p->pattern;
    sim_rng_seed(&net->rng, p->seed);
    p_cycle = p->miss_rate * (double)net->R / AL_TICKS_PER_NS;
    net->miss_threshold = sim_bernoulli_threshold(p_cycle);
    sim_latency_init(&net->st.lat);
    for (r = 0; r < net->n; r++) {
        al_router *rt = &net->rt[r];
        sa_switch_desc d;
        sa_switch_kind kind;
        int x = r % p->kx, y = r / p->kx, j, k, v;
        rt->x = x; rt->y = y;
        rt->nbr[AL_N] = (uint32_t)(((y + 1) % p->ky) * p->kx + x);
        rt->nbr[AL_S] = (uint32_t)(((y + p->ky - 1) % p->ky) * p->kx + x);
        rt->nbr[AL_E] = (uint32_t)(y * p->kx + (x + 1) % p->kx);
        rt->nbr[AL_W] = (uint32_t)(y * p->kx + (x + p->kx - 1) % p->kx);
        for (j = 0; j < 4; j++)
            for (k = 0; k < AL_CLASSES; k++)
                for (v = 0; v < AL_VCS; v++)
                    rt->credits[j][k][v] = (uint16_t)(v != AL_VC_ADAPTIVE ? p->buf_escape
                                                     : !p->buf_shared ? p->buf_adaptive
                                                     : k == 0 ? al_shared_buffers(p->buf_escape) : 0);
        kind = p->alg == AL_PIM1 ? SA_SWITCH_PIM
             : p->alg >= AL_SPAA_BASE ? SA_SWITCH_SPAA
             : p->wfa_wrapped ? SA_SWITCH_WFA_WRAPPED : SA_SWITCH_WFA;
        sa_switch_desc_21364(&d, kind, p->alg == AL_WFA_ROTARY || p->alg == AL_SPAA_ROTARY);
        d.seed = p->seed * 0x9E3779B97F4A7C15ull + (uint64_t)r + 1;
        {
            size_t size = sa_switch_memory_size(&d);
            rt->alloc_memory = sim_calloc(size, 1);
            if (sa_switch_init(&rt->alloc, &d, rt->alloc_memory, size) != SA_OK) sim_die("sa_switch_init");
        }
        memset(rt->nom_out, -1, sizeof rt->nom_out);
    }
    for (r = 0; r < net->n; r++)
        net->txn_free[r] = p->outstanding == 64 ? ~(uint64_t)0 : (((uint64_t)1 << p->outstanding) - 1);
    return NULL;
}

/** Free a model's memory. */
static inline void al_net_free(al_net *net) {
    int r, b;
    for (r = 0; net->rt && r < net->n; r++) {
        for (b = 0; b < AL_IN_PORTS; b++) free(net->rt[r].q[b]);
        free(net->rt[r].alloc_memory);
    }
    free(net->rt);
    free(net->txn);
    free(net->txn_free);
    free(net->busy_txns);
    free(net->ext);
    if (net->pool.pkt) sim_pool_free(&net->pool);
    if (net->wheel.slot) sim_wheel_free(&net->wheel);
    if (net->st.lat.hist) sim_latency_free(&net->st.lat);
    memset(net, 0, sizeof *net);
}

/** Start a new measurement window now. */
static inline void al_stats_reset(al_net *net) {
    sim_latency lat = net->st.lat;
    sim_latency_reset(&lat);
    memset(&net->st, 0, sizeof net->st);
    net->st.lat = lat;
    net->st.start_cycle = net->wheel.now;
}

/** Start a transaction of node r now (tests and scripted traffic);
 *  three_hop selects the kind, owner its third node.  Returns 0 if node r
 *  is at its outstanding-miss limit. */
static inline int al_send_miss(al_net *net, uint32_t r, uint32_t home, int three_hop, uint32_t owner, int mc) {
    uint32_t t;
    al_txn *tx;
    if (net->busy_txns[r] >= (uint32_t)net->p.outstanding) return 0;
    if (home == r || (three_hop && (owner == home || owner == r))) sim_die("al_send_miss: bad nodes");
    t = al__take_txn(net, r);
    tx = &net->txn[t];
    tx->busy = 1; tx->requester = r; tx->home = home; tx->owner = three_hop ? owner : home;
    tx->mc = (uint8_t)(mc & 1); tx->three_hop = (uint8_t)(three_hop != 0);
    al__create(net, t, AL_REQ, r, AL_IN_CACHE, home, 1 << (AL_L0 + tx->mc), net->wheel.now * (uint64_t)net->R);
    return 1;
}

/** Simulate one router cycle. */
static inline void al_step(al_net *net) {
    sim_wheel *w = &net->wheel;
    sim_slot *s = sim_wheel_current(w);
    uint64_t c = w->now, tick = c * (uint64_t)net->R;
    uint32_t i, r, n = (uint32_t)net->n;
    al_cands cd;
    for (i = 0; i < s->n; i++) {
        sim_event e = s->ev[i];
        uint32_t pay = SIM_EV_PAYLOAD(e);
        switch (SIM_EV_TYPE(e)) {
        case AL_EV_ARRIVE: {
            sim_packet *pk = &net->pool.pkt[e.a];
            if (pk->state != AL_ON_LINK) sim_die("arrival of a packet not on a link");
            al__enter(net, pay >> 3, (int)(pay & 7u), e.a, pk->t_hop, net->ext[e.a].tail);
            break;
        }
        case AL_EV_DELIVER: al__deliver(net, e.a); break;
        case AL_EV_MEMORY: al__memory(net, e.a, tick); break;
        case AL_EV_L2: {
            al_txn *tx = &net->txn[e.a];
            al__sink_release(net, tx->owner, tx->fwd_sink);
            al__create(net, e.a, AL_RSP, tx->owner, AL_IN_CACHE, tx->requester,
                       (1 << AL_L0) | (1 << AL_L1), tick);
            break;
        }
        case AL_EV_CREDIT: {
            al_router *rt = &net->rt[e.a >> 2];
            uint16_t *cr = &rt->credits[e.a & 3u][AL__CCLS(net, pay / AL_VCS, pay % AL_VCS)][pay % AL_VCS];
            (*cr)++;
            break;
        }
        default: sim_die("unknown event");
        }
    }
    w->pending -= s->n;
    s->n = 0;
    /* Anti-starvation colouring. */
    if (net->p.color_period > 0 && c % (uint64_t)net->p.color_period == 0 && c > 0) {
        for (r = 0; r < n; r++) {
            al_router *rt = &net->rt[r];
            if (rt->drain) continue;
            rt->epoch++;
            rt->old_count = rt->waiting;
            if (rt->old_count > (uint32_t)net->p.color_threshold) { rt->drain = 1; net->st.drains++; }
        }
    }
    /* New misses. */
    if (net->miss_threshold)
        for (r = 0; r < n; r++)
            if (sim_rng_next(&net->rng) < net->miss_threshold) al__miss(net, r, tick);
    /* Arbitration. */
    for (r = 0; r < n; r++) {
        al_router *rt = &net->rt[r];
        if (rt->drain && rt->old_count == 0) rt->drain = 0;
        if (rt->waiting == 0) continue;
        if (net->p.alg >= AL_SPAA_BASE) al__arbitrate_spaa(net, r, c, &cd);
        else if (c % (uint64_t)net->S == 0) al__arbitrate_matrix(net, r, c, &cd);
    }
    net->st.outstanding_sum += (double)net->outstanding_now;
    w->now++;
}

/** Results of the current window. */
typedef struct al_result {
    double ns;              /**< window length in ns */
    double throughput;      /**< delivered flits per router per ns */
    double latency_ns;      /**< mean packet latency */
    double p99_ns;          /**< 99th percentile packet latency */
    uint64_t p99_ticks;     /**< the same in ticks as sim_latency_quantile
                                 gives it (SIM_LAT_BOUND: at least that) */
    double outstanding;     /**< mean outstanding misses per processor */
    double escape_fraction; /**< hops taken on VC0/VC1 */
    uint64_t packets;       /**< packets delivered */
} al_result;

/** Summarise the current window. */
static inline void al_result_get(const al_net *net, al_result *res) {
    uint64_t cyc = net->wheel.now - net->st.start_cycle;
    res->ns = (double)cyc * (double)net->R / AL_TICKS_PER_NS;
    res->throughput = res->ns > 0 ? (double)net->st.flits / ((double)net->n * res->ns) : 0;
    res->latency_ns = sim_latency_mean(&net->st.lat) / AL_TICKS_PER_NS;
    res->p99_ticks = sim_latency_quantile(&net->st.lat, 0.99);
    res->p99_ns = (double)res->p99_ticks / AL_TICKS_PER_NS;
    res->outstanding = cyc ? net->st.outstanding_sum / ((double)cyc * (double)net->n) : 0;
    res->escape_fraction = net->st.hops ? (double)net->st.escape_hops / (double)net->st.hops : 0;
    res->packets = net->st.packets;
}

/** Longest time any live packet has existed, in router cycles (the
 *  deadlock watchdog compares it with a bound). */
static inline uint64_t al_oldest_cycles(const al_net *net) {
    uint64_t now = net->wheel.now * (uint64_t)net->R, best = 0;
    uint32_t i;
    for (i = 0; i < net->pool.used; i++) {
        const sim_packet *pk = &net->pool.pkt[i];
        if (pk->state != SIM_PKT_FREE && now > pk->t_create && now - pk->t_create > best)
            best = now - pk->t_create;
    }
    return best / (uint64_t)net->R;
}

/** Packets created and not yet delivered. */
static inline uint64_t al_in_flight(const al_net *net) { return net->created - net->delivered; }

/** The conservation audit: every live packet is found exactly once (in an
 *  input buffer, on a link or ejecting) in the state its place says;
 *  created = delivered + found; every outstanding miss has exactly one live
 *  packet or pending memory/L2 access and no other transaction has any; for
 *  every link, VC and class, free buffers + packets holding one + credits on
 *  their way back = the buffer size; each memory controller's count of
 *  requests (mc_busy) = its requests ejecting + its accesses pending; each
 *  local-port sink's count (sink_busy) = its packets ejecting + its memory
 *  and L2 accesses pending, and at most sink_slots when that is set.  NULL
 *  or a message. */
static inline const char *al_audit(const al_net *net) {
    static char msg[200];
    uint32_t used = net->pool.used, i, r, cnt = 0, nt = (uint32_t)net->n * (uint32_t)net->p.outstanding;
    uint8_t *seen = (uint8_t *)sim_calloc(used ? used : 1, 1);
    uint8_t *tcount = (uint8_t *)sim_calloc(nt, 1);
    uint32_t *hold = (uint32_t *)sim_calloc((size_t)net->n * 4 * AL_CLASSES * AL_VCS, sizeof(uint32_t));
    uint32_t *mcount = (uint32_t *)sim_calloc((size_t)net->n * 2, sizeof(uint32_t));
    uint32_t *scount = (uint32_t *)sim_calloc((size_t)net->n * 2, sizeof(uint32_t));
    const sim_packet *pk = net->pool.pkt;
    const char *err = NULL;
    uint64_t outstanding = 0;
#define AL__HOLD(rr, out, cls, vc) hold[(((size_t)(rr) * 4 + (size_t)(out)) * AL_CLASSES + (size_t)(cls)) * AL_VCS + (size_t)(vc)]
#define AL__SEE(idx, ok) do { uint32_t j_ = (idx); \
        if (j_ >= used || seen[j_] || !(ok)) { err = "packet lost, duplicated or misplaced"; goto done; } \
        seen[j_] = 1; cnt++; tcount[net->ext[j_].txn]++; } while (0)
    for (r = 0; r < (uint32_t)net->n; r++) {
        const al_router *rt = &net->rt[r];
        uint32_t b, k, w = 0;
        for (b = 0; b < AL_IN_PORTS; b++)
            for (k = 0; k < rt->qn[b]; k++) {
                uint32_t pi = rt->q[b][k];
                AL__SEE(pi, (pk[pi].state == AL_WAITING || pk[pi].state == AL_NOMINATED) && pk[pi].in_port == b);
                w++;
                if (b < 4) AL__HOLD(rt->nbr[b], b ^ 1, net->ext[pi].cls, pk[pi].vc)++;
            }
        if (w != rt->waiting) { err = "router waiting count wrong"; goto done; }
    }
    for (i = 0; i <= net->wheel.mask; i++) {
        const sim_slot *s = &net->wheel.slot[i];
        uint32_t j;
        for (j = 0; j < s->n; j++) {
            uint32_t t = SIM_EV_TYPE(s->ev[j]), a = s->ev[j].a, pay = SIM_EV_PAYLOAD(s->ev[j]);
            if (t == AL_EV_ARRIVE) {
                AL__SEE(a, pk[a].state == AL_ON_LINK);
                AL__HOLD(net->rt[pay >> 3].nbr[pay & 7u], (pay & 7u) ^ 1u, net->ext[a].cls, pk[a].vc)++;
            } else if (t == AL_EV_DELIVER) {
                AL__SEE(a, pk[a].state == AL_EJECTING);
                if (pk[a].out_port != AL_L0 && pk[a].out_port != AL_L1) { err = "ejecting by no local output"; goto done; }
                scount[pk[a].dst * 2 + (uint32_t)(pk[a].out_port - AL_L0)]++;
                if (net->ext[a].cls == AL_REQ) {
                    if (pk[a].out_port != AL_L0 && pk[a].out_port != AL_L1) { err = "request ejected by no memory controller"; goto done; }
                    mcount[pk[a].dst * 2 + (uint32_t)(pk[a].out_port - AL_L0)]++;
                }
            }
            else if (t == AL_EV_MEMORY || t == AL_EV_L2) {
                if (a >= nt) { err = "bad event"; goto done; }
                tcount[a]++;
                if (t == AL_EV_MEMORY) mcount[net->txn[a].home * 2 + net->txn[a].mc]++;
                if (t == AL_EV_MEMORY) scount[net->txn[a].home * 2 + net->txn[a].mc]++;
                else scount[net->txn[a].owner * 2 + net->txn[a].fwd_sink]++;
            }
            else if (t == AL_EV_CREDIT) AL__HOLD(a >> 2, a & 3u, pay / AL_VCS, pay % AL_VCS)++;
        }
    }
    for (i = 0; i < used; i++)
        if (!seen[i] && pk[i].state != SIM_PKT_FREE) { err = "a live packet is in no queue (lost)"; goto done; }
    if (cnt != net->pool.live) { err = "pool count disagrees with the packets found"; goto done; }
    if (net->created != net->delivered + cnt) { err = "created != delivered + in flight"; goto done; }
    for (i = 0; i < nt; i++) {
        if (tcount[i] != (net->txn[i].busy ? 1 : 0)) { err = "a transaction has no or several packets"; goto done; }
        outstanding += net->txn[i].busy;
    }
    if (outstanding != net->outstanding_now) { err = "outstanding miss count wrong"; goto done; }
    for (r = 0; r < (uint32_t)net->n; r++) {
        uint32_t j, k, v;
        for (j = 0; j < 4; j++)
            for (k = 0; k < AL_CLASSES; k++)
                for (v = 0; v < AL_VCS; v++) {
                    uint32_t cap = (uint32_t)(v == AL_VC_ADAPTIVE ? net->p.buf_adaptive : net->p.buf_escape), held;
                    held = AL__HOLD(r, j, k, v);
                    if (net->p.buf_shared && v == AL_VC_ADAPTIVE) {
                        /* the pool, counted under class 0, holds every class's packets */
                        uint32_t k2;
                        if (k > 0) continue;
                        cap = (uint32_t)al_shared_buffers(net->p.buf_escape);
                        for (k2 = 1; k2 < AL_CLASSES; k2++) {
                            held += AL__HOLD(r, j, k2, v);
                            if (net->rt[r].credits[j][k2][v] != 0) { err = "shared buffer credits under a class"; goto done; }
                        }
                    }
                    if (net->rt[r].credits[j][k][v] + held != cap) { err = "buffer credits lost or duplicated"; goto done; }
                }
        for (j = 0; j < 2; j++)
            if (net->rt[r].mc_busy[j] != mcount[r * 2 + j]) { err = "memory-controller request count wrong"; goto done; }
        for (j = 0; j < 2; j++)
            if (net->rt[r].sink_busy[j] != scount[r * 2 + j] ||
                (net->p.sink_slots && scount[r * 2 + j] > (uint32_t)net->p.sink_slots)) {
                err = "local-port sink count wrong or above sink_slots"; goto done;
            }
    }
done:
#undef AL__SEE
#undef AL__HOLD
    free(seen);
    free(tcount);
    free(hold);
    free(mcount);
    free(scount);
    if (err) {
        snprintf(msg, sizeof msg, "audit failed at cycle %llu: %s (created %llu, delivered %llu, found %u)",
                 (unsigned long long)net->wheel.now, err, (unsigned long long)net->created,
                 (unsigned long long)net->delivered, cnt);
        return msg;
    }
    return NULL;
}

#endif /* ALPHA_NET_H */
