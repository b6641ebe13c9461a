/* SPDX-License-Identifier: MIT */
/* net_core.h - the core of a cycle-level network simulator for any
 * topology seastar_route.h describes (sr_net: k-ary n-cubes, HyperX and
 * flattened butterflies, dragonflies, folded Clos networks, butterflies).
 * Example code, not the installed library: it allocates, aborts on
 * internal errors.  examples/netsim.c, the tests and bench_netsim.c
 * include it.
 *
 * The core knows no router: it moves packets between routers and
 * terminals over the channels of the network, and a router model
 * (nc_model; the input-queued VC router of iq_router.h is one) decides
 * everything inside a router.  What the core does:
 *
 *   - channels: every output port of every router leads to an input port
 *     of another router, or to a terminal; a packet sent on it at cycle t
 *     has its header at the far end at t + latency, its tail latency +
 *     size - 1 later.  The latency is a parameter per port kind (terminal,
 *     dimension, local, global, up, down: sr_port_kind);
 *   - credit-based flow control: the model frees input buffer space with
 *     nc_free_input, and the core returns the credit to the sender (a
 *     router's output port, or a terminal) over the channel's latency;
 *   - terminals: Bernoulli injection at an offered load (sim_traffic.h:
 *     one random stream per terminal; each terminal's next packet is
 *     scheduled by drawing the gap to it from the geometric distribution,
 *     the same process as a draw every cycle at a draw per packet),
 *     unbounded source queues, injection
 *     at one flit per cycle into the router's terminal input port on the
 *     VC with the most room, delivery of every packet that reaches its
 *     terminal; scripted traffic (sim_jobs.h) through nc_send_packet and
 *     on_deliver;
 *   - statistics of a measurement window (sim_stats.h) and the
 *     conservation audit;
 *   - time: a timing wheel (sim_pool.h) of events (headers arriving,
 *     credits, deliveries, wake-ups), and per cycle a work list of the
 *     routers the model asked to run (nc_wake).  Per-cycle work is
 *     proportional to the packets that move and the routers that have
 *     something to do;
 *   - parts: the routers can be cut into parts (MPI ranks through
 *     sim_mpi.h, or parts run in turn in one process), each simulating
 *     its own routers and handing the others the events bound for theirs
 *     (sim_part.h) every lookahead cycles: the smallest latency of a
 *     channel that crosses the cut.  A dragonfly is cut between groups, so
 *     only global channels cross the cut, and their latency is the
 *     lookahead.
 *
 * One cycle (net->now), in this order: the events due now (arrivals call
 * model->arrive, credits model->credit, deliveries count and free the
 * packet); new packets at the terminals; injection; then model->step for
 * every router on the cycle's work list.  A step may send packets
 * (nc_send), free input buffer space (nc_free_input) and ask to run again
 * (nc_wake), always for a later cycle.  The results do not depend on the
 * order of one cycle's events or of the work list as long as a model's
 * step touches only its own router (the contract of nc_model), which is
 * what makes every cut give the bits of the sequential run.
 */
#ifndef NET_CORE_H
#define NET_CORE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../../seastar_route.h"
#include "sim_pool.h"
#include "sim_traffic.h"
#include "sim_stats.h"
#include "sim_progress.h"
#include "sim_part.h"
#include "sim_bits.h"

/** Most VCs per port. */
#define NC_MAX_VCS 64
/** "Never" as a cycle number. */
#define NC_NEVER UINT64_MAX
/** Most channels plus terminals (channel ids travel in 28-bit event
 *  payloads). */
#define NC_MAX_CHANNELS (1u << 28)
/** Cycles ahead the generation calendar holds (nc_net.gen_head), a power
 *  of two. */
#define NC_GEN_SLOTS 1024u

/** Packet states (sim_packet.state), used by the conservation audit; a
 *  model numbers its own from NC_PKT_MODEL. */
enum { NC_AT_SOURCE = 1, NC_ON_LINK, NC_EJECTING, NC_PKT_MODEL };

/** Event types of the core's wheel. */
enum { NC_EV_ARRIVE = 1, NC_EV_CREDIT, NC_EV_DELIVER, NC_EV_WAKE, NC_EV_WAKE_TERM, NC_EV_TERM_CREDIT };

/** Parameters of the core (nc_params_default fills them). */
typedef struct nc_params {
    int vcs;                              /**< VCs per port, 1..NC_MAX_VCS */
    int buf_flits[SR_PORT_KIND_COUNT];    /**< input buffer per VC, by the
                                               kind of the input port */
    int latency[SR_PORT_KIND_COUNT];      /**< channel latency in cycles, by
                                               the kind of the port it leaves
                                               (SR_PORT_TERMINAL: injection
                                               and ejection channels) */
    int max_packet_flits;                 /**< largest packet, flits */
    int wake_ahead;                       /**< most cycles ahead a model asks
                                               to run (nc_wake), 1..100000: it
                                               sizes the timing wheel, whose
                                               slots each keep the memory of
                                               the busiest cycle they held */
    int inject_speedup;                   /**< flits per cycle a terminal's
                                               injection channel carries,
                                               0..64 (0: 1) */
} nc_params;

/** Defaults: 2 VCs, 16-flit buffers (64 on global channels), latency 1
 *  on every channel (10 on global channels), packets up to 16 flits. */
static inline void nc_params_default(nc_params *p) {
    int k;
    memset(p, 0, sizeof *p);
    p->vcs = 2;
    for (k = 0; k < SR_PORT_KIND_COUNT; k++) { p->buf_flits[k] = 16; p->latency[k] = 1; }
    p->buf_flits[SR_PORT_GLOBAL] = 64;
    p->latency[SR_PORT_GLOBAL] = 10;
    p->max_packet_flits = 16;
    p->wake_ahead = 64;
}

/** Where a channel leads: the channel of output port p of router r is
 *  chan[r * radix + p]; the injection channel of terminal t is
 *  chan[routers * radix + t]. */
typedef struct nc_chan {
    uint32_t to;          /**< router reached; for an ejection port the
                               terminal; SR_NO_NODE: no channel */
    uint16_t to_port;     /**< input port there (ejection: 0) */
    uint8_t kind;         /**< sr_port_kind of the port it leaves */
    uint8_t spare;
    uint32_t latency;     /**< cycles */
    uint32_t spare2;
} nc_chan;

/** Where the credits of an input port go: the sender of the channel that
 *  arrives there (up[r * radix + p]). */
typedef struct nc_up {
    uint32_t from;        /**< the router whose output port it is, or the
                               terminal whose injection channel it is;
                               SR_NO_NODE: no channel arrives there */
    uint16_t port;        /**< that output port (a terminal: 0) */
    uint8_t terminal;     /**< 1: the sender is a terminal */
    uint8_t spare;
    uint32_t latency;     /**< the channel's latency, cycles */
} nc_up;

/** A terminal: its source queue and injection channel. */
typedef struct nc_term {
    sim_fifo srcq;        /**< generated, not yet injected */
    uint32_t srcq_len;    /**< packets in srcq */
    uint32_t router;      /**< the router it injects into */
    uint64_t inj_free;    /**< first cycle the injection channel is free */
    uint64_t next_wake;   /**< pending wake-up or NC_NEVER */
    uint64_t dirty_at;    /**< cycle last put on the injection list */
    uint64_t next_gen;    /**< cycle of its next Bernoulli success */
} nc_term;

struct nc_net;

/**
 * A router model.  The core calls it for the routers of its part only;
 * every call may touch the state of that one router, send packets on its
 * output ports (nc_send), free its input buffers (nc_free_input) and wake
 * it (nc_wake), and nothing else of the network.
 */
typedef struct nc_model {
    void *self;        /**< the model's state, first argument of each call */
    /** The header of packet pi reaches input port in_port of router r on
     *  VC pk->vc at cycle net->now (its tail size - 1 cycles later). */
    void (*arrive)(void *self, struct nc_net *net, uint32_t r, int in_port, uint32_t pi);
    /** flits of room came back to VC vc of output port out_port of router r. */
    void (*credit)(void *self, struct nc_net *net, uint32_t r, int out_port, int vc, uint32_t flits);
    /** Router r runs this cycle (it asked with nc_wake). */
    void (*step)(void *self, struct nc_net *net, uint32_t r);
    /** Find (sim_audit_see, sim_audit_fifo) every packet router r holds,
     *  checking the model's own invariants (credits, queues); NULL or a
     *  message. */
    const char *(*audit)(void *self, const struct nc_net *net, uint32_t r, sim_audit *a);
    /** Describe into buf (n bytes) a packet router r holds that cannot
     *  move, and what it waits for; 0 if there is none (the report of a
     *  stalled network). */
    int (*waiting)(void *self, const struct nc_net *net, uint32_t r, char *buf, size_t n);
    /** The model's bytes of data per packet that travel with it between
     *  parts (0: none) and where they live: entry pi of *side. */
    size_t side_bytes;
    void **side;
    uint32_t *side_cap;
} nc_model;

/** The whole network, or one part of it. */
typedef struct nc_net {
    nc_params p;
    sr_net net;                /**< the topology (seastar_topo.h) */
    uint32_t routers, terminals;
    int radix;                 /**< most ports of a router */
    int vcs;
    nc_chan *chan;             /**< routers * radix + terminals channels */
    nc_up *up;                 /**< up[r * radix + p]: the sender of the
                                    channel arriving at input port p of
                                    router r */
    uint16_t *nports;          /**< ports of each router */
    nc_term *term;             /**< one per terminal */
    uint32_t *term_credits;    /**< [t * vcs + v]: room in VC v of t's
                                    router input port */
    nc_model model;
    sim_pool pool;
    sim_wheel wheel;
    uint64_t now;              /**< the cycle being simulated; between
                                    nc_run calls, the next one */
    int in_step;               /**< non-zero inside nc_run */
    uint32_t *work;            /**< routers to step this cycle */
    uint32_t n_work;
    uint64_t *listed_at;       /**< per router: cycle it is on the work list */
    uint64_t *next_wake;       /**< per router: pending wake-up or NC_NEVER */
    uint32_t *inject;          /**< terminals to inject this cycle */
    uint32_t n_inject;
    uint32_t *my_terms;        /**< the terminals of this part */
    uint32_t n_my_terms;
    sim_rng *rng;              /**< one stream per terminal */
    sim_traffic traffic;
    sim_shape shape;           /**< for the traffic patterns */
    uint64_t inj_threshold;    /**< Bernoulli threshold per terminal and
                                    cycle; set it to 0 to stop generation
                                    (any change takes effect next cycle) */
    uint64_t gen_threshold;    /**< the threshold the pending gaps were
                                    drawn for */
    double gen_log1m_p;        /**< ln(1 - p) of gen_threshold */
    uint32_t *gen_head;        /**< the generation calendar: per cycle
                                    modulo NC_GEN_SLOTS, the first of the
                                    terminals whose next success is then
                                    (far ones parked at the horizon and
                                    put back when reached) */
    uint32_t *gen_link;        /**< per terminal: the next of its list */
    uint32_t *gen_order;       /**< scratch: one cycle's terminals */
    uint64_t *gen_bits;        /**< scratch: one bit per terminal */
    uint64_t created, injected, delivered; /**< since the start (this part) */
    uint64_t last_move;        /**< last cycle a packet was injected or sent
                                    on by a router (the stall check) */
    sim_window st;             /**< the measurement window */
    /** Called for every delivered packet before it is freed (NULL: none);
     *  scripted traffic (sim_jobs.h) learns of deliveries here. */
    void (*on_deliver)(void *ctx, const sim_packet *pk, uint64_t now);
    void *on_deliver_ctx;      /**< its first argument */
    /* parts */
    int part, parts;           /**< this part, number of parts */
    uint16_t *part_of;         /**< the part of every router */
    uint32_t lookahead;        /**< cycles between hand-overs */
    sim_outbox *outbox;        /**< outbox[q]: events for part q */
    uint64_t exported, imported; /**< packets handed over, received */
    sim_reduce_fn reduce;      /**< over the parts (NULL: one part) */
    void *reduce_ctx;
    /** Hands every outbox to its part and imports (nc_import) what the
     *  others sent this one (NULL with one part); nc_run calls it at every
     *  multiple of lookahead and at its end. */
    void (*exchange)(void *ctx, struct nc_net *net);
    void *exchange_ctx;
} nc_net;

/** Whether router r is simulated by this part. */
static inline int nc_owns(const nc_net *net, uint32_t r) { return net->part_of[r] == net->part; }

/** The channel of output port p of router r. */
static inline const nc_chan *nc_out_chan(const nc_net *net, uint32_t r, int p) {
    return &net->chan[(size_t)r * (uint32_t)net->radix + (uint32_t)p];
}

/** The kind of port p of router r (an sr_port_kind). */
static inline int nc_port_kind(const nc_net *net, uint32_t r, int p) { return nc_out_chan(net, r, p)->kind; }

/** The room per VC of the input buffer at the far end of output port p
 *  of router r (what its credits start at); 0 for an ejection port (a
 *  terminal accepts everything) or a port without a channel. */
static inline uint32_t nc_out_room(const nc_net *net, uint32_t r, int p) {
    const nc_chan *c = nc_out_chan(net, r, p);
    if (c->to == SR_NO_NODE || c->kind == SR_PORT_TERMINAL) return 0;
    return (uint32_t)net->p.buf_flits[nc_out_chan(net, c->to, c->to_port)->kind];
}

/** Check the parameters; NULL or a message. */
static inline const char *nc_params_check(const nc_params *p) {
    int k;
    if (p->vcs < 1 || p->vcs > NC_MAX_VCS) return "VCs per port must be 1..64";
    if (p->max_packet_flits < 1 || p->max_packet_flits > 255) return "the largest packet must be 1..255 flits";
    if (p->wake_ahead < 1 || p->wake_ahead > 100000) return "wake_ahead must be 1..100000 cycles";
    if (p->inject_speedup < 0 || p->inject_speedup > 64) return "the injection speedup must be 0..64 flits per cycle";
    for (k = 1; k < SR_PORT_KIND_COUNT; k++) {
        if (p->latency[k] < 1 || p->latency[k] > 100000) return "channel latencies must be 1..100000 cycles";
        if (p->buf_flits[k] < p->max_packet_flits || p->buf_flits[k] > 1000000)
            return "input buffers must hold the largest packet (virtual cut-through), at most 1000000 flits";
    }
    return NULL;
}

/* ---- set-up ----------------------------------------------------------- */

/* The part of router r when the routers are cut into `parts`: a dragonfly
 * by whole groups (only global channels cross the cut), anything else
 * into ranges of consecutive routers. */
static inline int nc__part_of(const sr_net *n, uint32_t r, int parts) {
    if (n->kind == SR_NET_DRAGONFLY) {
        uint32_t g = r / (uint32_t)n->desc.dragonfly.a;
        return (int)((uint64_t)g * (uint64_t)parts / (uint64_t)n->desc.dragonfly.g);
    }
    return (int)((uint64_t)r * (uint64_t)parts / (uint64_t)n->num_routers);
}

/** The most parts a network can be cut into (a dragonfly: its groups). */
static inline uint32_t nc_max_parts(const sr_net *n) {
    return n->kind == SR_NET_DRAGONFLY ? (uint32_t)n->desc.dragonfly.g : n->num_routers;
}

/** Bytes the core allocates for a network (without the router model, the
 *  packets and the statistics' fixed 2 MiB), for the memory check of
 *  netsim. */
static inline double nc_memory_bytes(const sr_net *n, int vcs) {
    double R = n->radix, N = n->num_routers, T = n->num_terminals;
    return (N * R + T) * sizeof(nc_chan) + N * R * 4.0 + N * 2.0 + T * (sizeof(nc_term) + 4.0 * vcs + 8 + 4 + 8)
         + N * (4 + 8 + 8 + 2);
}

static inline void nc_net_free(nc_net *net);

/** Build part `part` of `parts` of a network (one part: the whole), with
 *  traffic t (load 0: no random traffic) and seed.  The model is attached
 *  afterwards (nc_set_model).  NULL on success, else a message (the
 *  network then needs no nc_net_free). */
static inline const char *nc_net_init_part(nc_net *net, const sr_net *topo, const nc_params *p,
                                           const sim_traffic *t, uint64_t seed, int part, int parts) {
    const char *err = nc_params_check(p);
    uint32_t r, i, N, T, R;
    uint64_t nchan;
    int s, d;
    uint32_t horizon = 0, lookahead = UINT32_MAX;
    if (err) return err;
    if (parts < 1 || (uint32_t)parts > nc_max_parts(topo) || part < 0 || part >= parts)
        return "more parts than the network can be cut into (a dragonfly: its groups; else its routers)";
    if (parts > 65535) return "at most 65535 parts";
    if (t->num_sizes < 1 || t->num_sizes > 8) return "1..8 packet sizes";
    for (s = 0; s < t->num_sizes; s++)
        if (t->sizes[s] < 1 || t->sizes[s] > p->max_packet_flits) return "packet size out of 1..max packet";
    if (!(t->load >= 0)) return "negative load";
    N = topo->num_routers; T = topo->num_terminals; R = (uint32_t)topo->radix;
    nchan = (uint64_t)N * R + T;
    if (nchan >= NC_MAX_CHANNELS) return "more than 2^28 channels and terminals";
    if (t->pattern == SIM_HOTSPOT && t->hotspot >= T) return "hot spot terminal out of range";
    if (t->pattern == SIM_PERMUTATION && t->perm == NULL) return "no permutation";
    memset(net, 0, sizeof *net);
    net->p = *p;
    net->net = *topo;
    net->routers = N; net->terminals = T; net->radix = (int)R; net->vcs = p->vcs;
    net->traffic = *t;
    net->part = part; net->parts = parts;
    net->chan = (nc_chan *)sim_calloc((size_t)nchan, sizeof(nc_chan));
    net->up = (nc_up *)sim_calloc((size_t)N * R, sizeof(nc_up));
    net->nports = (uint16_t *)sim_calloc(N, sizeof(uint16_t));
    net->part_of = (uint16_t *)sim_calloc(N, sizeof(uint16_t));
    for (i = 0; i < (uint32_t)((uint64_t)N * R); i++) net->up[i].from = SR_NO_NODE;
    for (r = 0; r < N; r++) {
        int np = sr_net_num_ports(topo, r);
        net->nports[r] = (uint16_t)np;
        net->part_of[r] = (uint16_t)nc__part_of(topo, r, parts);
        for (d = 0; d < (int)R; d++) {
            nc_chan *c = &net->chan[(size_t)r * R + (uint32_t)d];
            sr_port_info pi = sr_net_port_info(topo, r, d);
            int in_port = 0;
            c->to = SR_NO_NODE;
            c->kind = (uint8_t)pi.kind;
            if (pi.kind == SR_PORT_KIND_NONE) continue;
            c->latency = (uint32_t)p->latency[pi.kind];
            if (pi.kind == SR_PORT_TERMINAL) {
                uint32_t term = sr_net_port_terminal(topo, r, d);
                int ep;
                /* a terminal port ejects only where the terminal receives */
                if (term != SR_NO_NODE && sr_net_eject_router(topo, term, &ep) == r && ep == d) c->to = term;
                continue;
            }
            c->to = sr_net_neighbor(topo, r, d, &in_port);
            if (c->to == SR_NO_NODE) continue;
            c->to_port = (uint16_t)in_port;
            {
                nc_up *u = &net->up[(size_t)c->to * R + (uint32_t)in_port];
                u->from = r; u->port = (uint16_t)d; u->terminal = 0; u->latency = c->latency;
            }
        }
    }
    for (i = 0; i < T; i++) {
        int ip;
        nc_chan *c = &net->chan[(size_t)N * R + i];
        c->to = sr_net_terminal_router(topo, i, &ip);
        c->to_port = (uint16_t)ip;
        c->kind = SR_PORT_TERMINAL;
        c->latency = (uint32_t)p->latency[SR_PORT_TERMINAL];
        {
            nc_up *u = &net->up[(size_t)c->to * R + (uint32_t)ip];
            u->from = i; u->port = 0; u->terminal = 1; u->latency = c->latency;
        }
    }
    /* the lookahead: the smallest latency of a channel between parts */
    for (i = 0; i < (uint32_t)((uint64_t)N * R); i++) {
        const nc_chan *c = &net->chan[i];
        if (c->to == SR_NO_NODE) continue;
        if (c->latency > horizon) horizon = c->latency;
        if (c->kind != SR_PORT_TERMINAL && net->part_of[i / R] != net->part_of[c->to] && c->latency < lookahead)
            lookahead = c->latency;
    }
    if ((uint32_t)p->latency[SR_PORT_TERMINAL] > horizon) horizon = (uint32_t)p->latency[SR_PORT_TERMINAL];
    net->lookahead = lookahead == UINT32_MAX ? 1024 : lookahead;
    net->outbox = (sim_outbox *)sim_calloc((size_t)parts, sizeof(sim_outbox));
    net->term = (nc_term *)sim_calloc(T, sizeof(nc_term));
    net->term_credits = (uint32_t *)sim_calloc((size_t)T * (uint32_t)p->vcs, sizeof(uint32_t));
    net->rng = (sim_rng *)sim_calloc(T, sizeof(sim_rng));
    net->my_terms = (uint32_t *)sim_calloc(T, sizeof(uint32_t));
    net->inject = (uint32_t *)sim_calloc(T, sizeof(uint32_t));
    for (i = 0; i < T; i++) {
        nc_term *m = &net->term[i];
        const nc_chan *c = &net->chan[(size_t)N * R + i];
        uint32_t v;
        m->router = c->to;
        sim_fifo_init(&m->srcq);
        m->next_wake = m->dirty_at = NC_NEVER;
        if (!nc_owns(net, m->router)) continue;
        net->my_terms[net->n_my_terms++] = i;
        sim_rng_stream(&net->rng[i], seed, i);
        for (v = 0; v < (uint32_t)p->vcs; v++)
            net->term_credits[(size_t)i * (uint32_t)p->vcs + v] = (uint32_t)p->buf_flits[SR_PORT_TERMINAL];
    }
    net->work = (uint32_t *)sim_calloc(N, sizeof(uint32_t));
    net->listed_at = (uint64_t *)sim_calloc(N, sizeof(uint64_t));
    net->next_wake = (uint64_t *)sim_calloc(N, sizeof(uint64_t));
    for (r = 0; r < N; r++) net->listed_at[r] = net->next_wake[r] = NC_NEVER;
    /* The farthest event: a header or credit on the slowest channel, a
     * delivery (latency + size), or a wake-up (the model's).  An event
     * handed over from another part is due within a channel latency of
     * the hand-over. */
    horizon += (uint32_t)p->max_packet_flits + 2 + (uint32_t)p->wake_ahead;
    sim_wheel_init(&net->wheel, horizon);
    sim_pool_init(&net->pool, net->n_my_terms * 8u + 64u);
    sim_window_init(&net->st, T);
    /* traffic patterns: the routers with terminals in the family's
     * coordinates (cube, HyperX), else in one dimension */
    {
        int dims = 1, radix[SIM_MAX_DIMS], mesh[SIM_MAX_DIMS];
        memset(radix, 0, sizeof radix);
        memset(mesh, 0, sizeof mesh);
        radix[0] = (int)(T / (uint32_t)topo->concentration);
        if (topo->kind == SR_NET_CUBE) {
            dims = topo->cube.num_dims;
            for (d = 0; d < dims; d++) { radix[d] = topo->cube.radix[d]; mesh[d] = topo->cube.mesh[d]; }
        } else if (topo->kind == SR_NET_HYPERX) {
            /* dimension 0 of a HyperX is its least significant digit */
            dims = topo->desc.hyperx.num_dims;
            for (d = 0; d < dims; d++) radix[d] = topo->desc.hyperx.size[dims - 1 - d];
        }
        sim_shape_init_conc(&net->shape, dims, radix, mesh, (uint32_t)topo->concentration);
        if (topo->kind == SR_NET_DRAGONFLY)
            net->shape.group = (uint32_t)topo->desc.dragonfly.a * (uint32_t)topo->desc.dragonfly.p;
        if (net->shape.nodes != T) { nc_net_free(net); return "terminals are not evenly spread over the routers"; }
    }
    net->inj_threshold = sim_bernoulli_threshold(t->load / sim_traffic_mean_size(t));
    net->gen_head = (uint32_t *)sim_calloc(NC_GEN_SLOTS, sizeof(uint32_t));
    net->gen_link = (uint32_t *)sim_calloc(T, sizeof(uint32_t));
    net->gen_order = (uint32_t *)sim_calloc(T, sizeof(uint32_t));
    net->gen_bits = (uint64_t *)sim_calloc((T + 63) / 64, sizeof(uint64_t));
    return NULL;
}

/** Build a whole network (one part). */
static inline const char *nc_net_init(nc_net *net, const sr_net *topo, const nc_params *p,
                                      const sim_traffic *t, uint64_t seed) {
    return nc_net_init_part(net, topo, p, t, seed, 0, 1);
}

/** Attach the router model (after nc_net_init, before the first cycle). */
static inline void nc_set_model(nc_net *net, const nc_model *m) { net->model = *m; }

/** Free a network's memory (not the model's). */
static inline void nc_net_free(nc_net *net) {
    sim_outboxes_free(net->outbox, net->parts);
    free(net->chan); free(net->up); free(net->nports); free(net->part_of);
    free(net->term); free(net->term_credits); free(net->rng); free(net->my_terms); free(net->inject);
    free(net->work); free(net->listed_at); free(net->next_wake);
    if (net->wheel.slot) sim_wheel_free(&net->wheel);
    free(net->gen_head); free(net->gen_link); free(net->gen_order); free(net->gen_bits);
    if (net->pool.pkt) sim_pool_free(&net->pool);
    if (net->st.src_flits) sim_window_free(&net->st);
    memset(net, 0, sizeof *net);
}

/* ---- what a model calls ---------------------------------------------- */

/** Run router r at cycle t (t >= now; t == now only from model->arrive
 *  and model->credit, before the cycle's steps).  An earlier pending
 *  wake-up covers a later one: the model asks again when it runs. */
static inline void nc_wake(nc_net *net, uint32_t r, uint64_t t) {
    uint64_t *nw = &net->next_wake[r];
    if (t == net->now) {
        if (net->listed_at[r] == t) return;
        net->listed_at[r] = t;
        net->work[net->n_work++] = r;
        return;
    }
    if (*nw >= net->now && *nw <= t) return;
    *nw = t;
    sim_wheel_at(&net->wheel, t, r, SIM_EV_B(NC_EV_WAKE, 0));
}

/* An event for the router (or terminal) at the end of channel ch, due at
 * t: into this part's wheel, or handed to the part that owns it.  A
 * packet (an arrival, a = its index) leaves this part's pool. */
static inline void nc__to(nc_net *net, uint32_t owner, uint64_t t, uint32_t a, uint32_t b) {
    int q = net->part_of[owner];
    if (q == net->part) { sim_wheel_at(&net->wheel, t, a, b); return; }
    if ((b >> 28) == NC_EV_ARRIVE) {
        const void *side = net->model.side_bytes ? (const unsigned char *)*net->model.side + (size_t)a * net->model.side_bytes : NULL;
        sim_outbox_put(&net->outbox[q], t, a, b, &net->pool.pkt[a], side, net->model.side_bytes);
        sim_pool_release(&net->pool, a);
        net->exported++;
    } else sim_outbox_put(&net->outbox[q], t, a, b, NULL, NULL, 0);
}

/** Router r sends packet pi on output port p, VC vc, its header leaving
 *  at cycle t (>= now): it reaches the next router at t + latency, or,
 *  on an ejection port, its terminal, where its tail is delivered at
 *  t + latency + size - 1. */
static inline void nc_send(nc_net *net, uint32_t r, int p, uint32_t pi, int vc, uint64_t t) {
    uint32_t ch = r * (uint32_t)net->radix + (uint32_t)p;
    const nc_chan *c = &net->chan[ch];
    sim_packet *pk = &net->pool.pkt[pi];
    if (c->to == SR_NO_NODE) sim_die("a packet sent on a port without a channel");
    if (c->kind == SR_PORT_TERMINAL) {
        if (c->to != pk->dst) sim_die("a packet ejected at the wrong terminal");
        pk->state = NC_EJECTING;
        net->last_move = net->now;
        sim_wheel_at(&net->wheel, t + c->latency + pk->size - 1, pi, SIM_EV_B(NC_EV_DELIVER, 0));
        return;
    }
    pk->vc = (uint8_t)vc;
    pk->hops++;
    pk->state = NC_ON_LINK;
    net->last_move = net->now;
    nc__to(net, c->to, t + c->latency, pi, SIM_EV_B(NC_EV_ARRIVE, ch));
}

/** Router r frees `flits` of VC vc of input port p, the last of them at
 *  cycle t (>= now): the room comes back to the sender a channel latency
 *  later. */
static inline void nc_free_input(nc_net *net, uint32_t r, int p, int vc, uint32_t flits, uint64_t t) {
    const nc_up *u = &net->up[(size_t)r * (uint32_t)net->radix + (uint32_t)p];
    if (u->from == SR_NO_NODE) sim_die("credit for an input port without a channel");
    t += u->latency;
    if (t <= net->now) t = net->now + 1;
    /* a credit names its output port (9 bits), VC (6) and flits (8) */
    if (u->terminal) nc__to(net, r, t, u->from, SIM_EV_B(NC_EV_TERM_CREDIT, (uint32_t)vc | (flits << 8)));
    else nc__to(net, u->from, t, u->from, SIM_EV_B(NC_EV_CREDIT, (uint32_t)u->port | ((uint32_t)vc << 9) | (flits << 15)));
}

/* ---- terminals --------------------------------------------------------- */

static inline void nc__dirty_term(nc_net *net, uint32_t i) {
    if (net->term[i].dirty_at == net->now) return;
    net->term[i].dirty_at = net->now;
    net->inject[net->n_inject++] = i;
}

static inline void nc__wake_term(nc_net *net, uint32_t i, uint64_t t) {
    nc_term *m = &net->term[i];
    if (m->next_wake >= net->now && m->next_wake <= t) return;
    m->next_wake = t;
    sim_wheel_at(&net->wheel, t, i, SIM_EV_B(NC_EV_WAKE_TERM, 0));
}

/* Packet pi joins terminal src's source queue now. */
static inline void nc__enqueue(nc_net *net, uint32_t src, uint32_t pi) {
    nc_term *m = &net->term[src];
    net->pool.pkt[pi].state = NC_AT_SOURCE;
    sim_fifo_push(&m->srcq, net->pool.pkt, pi);
    m->srcq_len++;
    net->created++;
    net->st.created++;
    if (m->srcq.head == pi) nc__dirty_term(net, src);
}

/* A new packet from src to dst of size flits, created now. */
static inline uint32_t nc__new_packet(nc_net *net, uint32_t src, uint32_t dst, int size) {
    uint32_t pi = sim_pool_alloc(&net->pool);
    sim_packet *pk = &net->pool.pkt[pi];
    if (net->model.side_bytes)
        sim_pool_side(&net->pool, net->model.side, net->model.side_cap, net->model.side_bytes);
    pk->src = src;
    pk->dst = dst;
    pk->t_create = net->now;
    pk->size = (uint8_t)size;
    return pi;
}

/* Put terminal i in the calendar at its next success (next_gen), or at
 * the calendar's horizon if that is farther (it is put back then). */
static inline void nc__gen_at(nc_net *net, uint32_t i) {
    uint64_t t = net->term[i].next_gen, last = net->now + NC_GEN_SLOTS - 1u;
    uint32_t *head = &net->gen_head[(t < last ? t : last) & (NC_GEN_SLOTS - 1u)];
    net->gen_link[i] = *head;
    *head = i;
}

/* Draw terminal i's next success: the failed trials after cycle `after`
 * (after + 1 is the first trial), from its own stream. */
static inline void nc__gen_draw(nc_net *net, uint32_t i, uint64_t after) {
    net->term[i].next_gen = after + 1u + sim_geometric_gap(&net->rng[i], net->gen_log1m_p);
    nc__gen_at(net, i);
}

/* The threshold changed (the first cycle's included: gen_threshold starts
 * at 0): empty the calendar
 * and draw every terminal's next success from this cycle on.  The process
 * is memoryless, so nothing drawn before matters. */
static inline void nc__gen_rearm(nc_net *net) {
    uint32_t k;
    for (k = 0; k < NC_GEN_SLOTS; k++) net->gen_head[k] = SIM_NIL;
    net->gen_threshold = net->inj_threshold;
    if (net->gen_threshold == 0) return;
    net->gen_log1m_p = sim_geometric_log1m(net->gen_threshold);
    for (k = 0; k < net->n_my_terms; k++) nc__gen_draw(net, net->my_terms[k], net->now - 1u);
}

/* This cycle's terminals, taken off the calendar into gen_order in the
 * order of their numbers; returns how many.  A few are sorted by
 * insertion, many through a bitmap of the terminals. */
static inline uint32_t nc__gen_take(nc_net *net) {
    uint32_t *head = &net->gen_head[net->now & (NC_GEN_SLOTS - 1u)], *o = net->gen_order, n = 0, i, j;
    for (i = *head; i != SIM_NIL; i = net->gen_link[i]) o[n++] = i;
    *head = SIM_NIL;
    if (n <= 32) {
        for (i = 1; i < n; i++) {
            uint32_t x = o[i];
            for (j = i; j > 0 && o[j - 1] > x; j--) o[j] = o[j - 1];
            o[j] = x;
        }
        return n;
    }
    for (i = 0; i < n; i++) net->gen_bits[o[i] >> 6] |= (uint64_t)1 << (o[i] & 63u);
    for (i = 0, j = 0; j < n; i++) {
        uint64_t w = net->gen_bits[i];
        net->gen_bits[i] = 0;
        for (; w; w &= w - 1) o[j++] = i * 64u + (uint32_t)sim_ctz64(w);
    }
    return n;
}

/* New packets at the terminals whose Bernoulli trial succeeds this cycle,
 * in the order of their numbers. */
static inline void nc__generate(nc_net *net) {
    uint32_t k, n;
    const sim_traffic *t = &net->traffic;
    if (net->inj_threshold != net->gen_threshold) nc__gen_rearm(net);
    if (net->gen_threshold == 0) return;
    n = nc__gen_take(net);
    for (k = 0; k < n; k++) {
        uint32_t src = net->gen_order[k], dst;
        int rsp;
        if (net->term[src].next_gen != net->now) { nc__gen_at(net, src); continue; }  /* parked */
        dst = sim_traffic_pick(t, &net->shape, src, &net->rng[src], &net->term[src].srcq_len);
        if (dst != SIM_NIL)
            nc__enqueue(net, src, nc__new_packet(net, src, dst, sim_traffic_size(t, &net->rng[src], &rsp)));
        nc__gen_draw(net, src, net->now);
    }
}

/** Add a packet from terminal src to terminal dst to src's source queue
 *  now (tests and scripted traffic).  Returns its index (its tag is 0;
 *  set it before the next cycle). */
static inline uint32_t nc_send_packet(nc_net *net, uint32_t src, uint32_t dst, int size) {
    uint32_t pi;
    if (src == dst || src >= net->terminals || dst >= net->terminals || !nc_owns(net, net->term[src].router))
        sim_die("nc_send_packet: bad or another part's source or destination");
    if (size < 1 || size > net->p.max_packet_flits) sim_die("nc_send_packet: bad packet size");
    pi = nc__new_packet(net, src, dst, size);
    nc__enqueue(net, src, pi);
    return pi;
}

/* Terminal i injects its head packet if its channel is free and a VC of
 * its router's input port has room for it: the VC with the most room
 * (the lowest of those with as much). */
static inline void nc__inject(nc_net *net, uint32_t i) {
    nc_term *m = &net->term[i];
    uint32_t *cr = net->term_credits + (size_t)i * (uint32_t)net->vcs, best = 0, pi;
    int v, bv = -1;
    sim_packet *pk;
    if (m->srcq.head == SIM_NIL) return;
    if (m->inj_free > net->now) { nc__wake_term(net, i, m->inj_free); return; }
    pk = &net->pool.pkt[m->srcq.head];
    for (v = 0; v < net->vcs; v++)
        if (cr[v] >= pk->size && cr[v] > best) { best = cr[v]; bv = v; }
    if (bv < 0) return;                    /* a credit wakes it */
    pi = sim_fifo_pop(&m->srcq, net->pool.pkt);
    m->srcq_len--;
    cr[bv] -= pk->size;
    m->inj_free = net->now + (net->p.inject_speedup > 1
                              ? (uint64_t)((pk->size + net->p.inject_speedup - 1) / net->p.inject_speedup) : pk->size);
    pk->t_inject = net->now;
    pk->vc = (uint8_t)bv;
    pk->state = NC_ON_LINK;
    net->injected++;
    net->last_move = net->now;
    sim_wheel_at(&net->wheel, net->now + net->chan[(size_t)net->routers * (uint32_t)net->radix + i].latency, pi,
                 SIM_EV_B(NC_EV_ARRIVE, net->routers * (uint32_t)net->radix + i));
    if (m->srcq.head != SIM_NIL) nc__wake_term(net, i, m->inj_free);
}

/* A packet's tail reaches its terminal. */
static inline void nc__deliver(nc_net *net, uint32_t pi) {
    sim_packet *pk = &net->pool.pkt[pi];
    net->delivered++;
    sim_window_deliver(&net->st, pk, net->now);
    if (net->on_deliver) net->on_deliver(net->on_deliver_ctx, pk, net->now);
    sim_pool_release(&net->pool, pi);
}

/* ---- the cycle ----------------------------------------------------------- */

/* One cycle (net->now): events, generation, injection, router steps. */
static inline void nc__cycle(nc_net *net) {
    sim_slot *s = sim_wheel_current(&net->wheel);
    uint64_t now = net->now;
    uint32_t i;
    nc_model *m = &net->model;
    for (i = 0; i < s->n; i++) {
        sim_event e = s->ev[i];
        uint32_t pay = SIM_EV_PAYLOAD(e);
        switch (SIM_EV_TYPE(e)) {
        case NC_EV_ARRIVE: {
            const nc_chan *c = &net->chan[pay];
            net->pool.pkt[e.a].t_hop = now;
            m->arrive(m->self, net, c->to, c->to_port, e.a);
            break;
        }
        case NC_EV_CREDIT: m->credit(m->self, net, e.a, (int)(pay & 511u), (int)((pay >> 9) & 63u), pay >> 15); break;
        case NC_EV_TERM_CREDIT:                /* a terminal's injection channel */
            net->term_credits[(size_t)e.a * (uint32_t)net->vcs + (pay & 255u)] += pay >> 8;
            if (net->term[e.a].srcq.head != SIM_NIL) nc__dirty_term(net, e.a);
            break;
        case NC_EV_DELIVER: nc__deliver(net, e.a); break;
        case NC_EV_WAKE:
            if (net->next_wake[e.a] == now) { net->next_wake[e.a] = NC_NEVER; nc_wake(net, e.a, now); }
            break;
        case NC_EV_WAKE_TERM:
            if (net->term[e.a].next_wake == now) { net->term[e.a].next_wake = NC_NEVER; nc__dirty_term(net, e.a); }
            break;
        default: sim_die("unknown event");
        }
    }
    net->wheel.pending -= s->n;
    s->n = 0;
    nc__generate(net);
    for (i = 0; i < net->n_inject; i++) nc__inject(net, net->inject[i]);
    net->n_inject = 0;
    for (i = 0; i < net->n_work; i++) m->step(m->self, net, net->work[i]);
    net->n_work = 0;
    net->wheel.now++;
    net->now++;
}

/** Take the events of buf (what another part's outbox held for this
 *  part) into this part's wheel; call at a hand-over. */
static inline void nc_import(nc_net *net, const unsigned char *buf, size_t len) {
    size_t at = 0;
    sim_xrec x;
    while (sim_inbox_next(buf, len, &at, &x)) {
        if ((x.b >> 28) == NC_EV_ARRIVE) {
            x.a = sim_inbox_packet(buf, len, &at, &net->pool);
            if (net->model.side_bytes) {
                sim_pool_side(&net->pool, net->model.side, net->model.side_cap, net->model.side_bytes);
                sim_inbox_bytes(buf, len, &at, (unsigned char *)*net->model.side + (size_t)x.a * net->model.side_bytes,
                                net->model.side_bytes);
            }
            net->imported++;
        }
        sim_wheel_at_or_now(&net->wheel, x.t, x.a, x.b);
    }
}

/** Run `cycles` cycles, counting router-cycles in progress (NULL: none).
 *  With several parts it hands events over (net->exchange) at every
 *  multiple of lookahead and when it returns, so the outboxes are then
 *  empty. */
static inline void nc_run(nc_net *net, uint64_t cycles, sim_progress *progress, const char *label) {
    uint64_t c, len;
    int parted = net->exchange && net->parts > 1;
    for (c = 0; c < cycles; c += len) {
        uint64_t i;
        len = net->lookahead - net->now % net->lookahead;
        if (len > cycles - c) len = cycles - c;
        net->in_step = 1;
        for (i = 0; i < len; i++) nc__cycle(net);
        net->in_step = 0;
        if (parted && net->now % net->lookahead == 0 && c + len < cycles) net->exchange(net->exchange_ctx, net);
        sim_progress_add(progress, (double)net->routers * (double)len, label);
    }
    if (parted) net->exchange(net->exchange_ctx, net);
}

/** Packets generated and not yet delivered (source queues + network) of
 *  this part (after nc_gather: of the whole network). */
static inline uint64_t nc_in_flight(const nc_net *net) {
    return net->created + net->imported - net->delivered - net->exported;
}

/** Packets injected and not yet delivered, of this part: those in the
 *  routers' buffers and on the channels. */
static inline uint64_t nc_in_network(const nc_net *net) {
    return net->injected + net->imported - net->delivered - net->exported;
}

/** The stall check: whether packets are in the network (over all parts)
 *  and none has moved for more than `limit` cycles (the network is
 *  deadlocked, or has lost a wake-up).  Every part must call it at the
 *  same cycle. */
static inline int nc_stalled(nc_net *net, uint64_t limit) {
    uint64_t v[2];
    v[0] = nc_in_network(net);
    v[1] = net->last_move;
    if (net->reduce && net->parts > 1) {
        net->reduce(net->reduce_ctx, &v[0], 1, SIM_REDUCE_SUM);
        net->reduce(net->reduce_ctx, &v[1], 1, SIM_REDUCE_MAX);
    }
    return v[0] > 0 && net->now - v[1] > limit;
}

/** Start the measurement window now. */
static inline void nc_stats_reset(nc_net *net) { sim_window_reset(&net->st, net->now); }

/** The conservation audit: every live packet is found exactly once (a
 *  source queue, the model's buffers, a pending arrival or delivery), the
 *  model's own checks pass, and created + imported = delivered +
 *  exported + in flight.  Call at a hand-over.  NULL or a message. */
static inline const char *nc_audit(nc_net *net) {
    uint32_t i, r;
    sim_audit a;
    sim_audit_begin(&a, &net->pool);
    for (i = 0; i < net->n_my_terms && !a.err; i++) {
        const nc_term *m = &net->term[net->my_terms[i]];
        uint64_t before = a.found;
        if (sim_audit_fifo(&a, &m->srcq, NC_AT_SOURCE) && a.found - before != m->srcq_len)
            a.err = "a source queue's length is wrong";
    }
    for (r = 0; r < net->routers && !a.err; r++)
        if (nc_owns(net, r) && net->model.audit) a.err = net->model.audit(net->model.self, net, r, &a);
    if (!a.err) sim_audit_wheel(&a, &net->wheel, NC_EV_ARRIVE, NC_ON_LINK, NC_EV_DELIVER, NC_EJECTING);
    return sim_audit_report(&a, net->now, net->created, net->delivered, net->created + net->imported,
                            net->delivered + net->exported);
}

/** Make this part's window statistics and packet totals those of the
 *  whole network (sums over the parts through net->reduce, which every
 *  part must call at the same cycle; nothing with one part).  The
 *  simulation must not go on afterwards. */
static inline void nc_gather(nc_net *net) {
    uint64_t v[4];
    if (!(net->reduce && net->parts > 1)) return;
    v[0] = net->created; v[1] = net->delivered; v[2] = net->imported; v[3] = net->exported;
    net->reduce(net->reduce_ctx, v, 4, SIM_REDUCE_SUM);
    net->created = v[0]; net->delivered = v[1]; net->imported = v[2]; net->exported = v[3];
    sim_window_gather(&net->st, net->reduce, net->reduce_ctx);
}

/** Summarise the window (gathering it over the parts first: every part
 *  must call it at the same cycle); *in_flight receives the packets in
 *  flight in the whole network. */
static inline void nc_summarize(nc_net *net, sim_summary *s, uint64_t *in_flight) {
    nc_gather(net);
    sim_window_summarize(&net->st, net->now, net->traffic.load, s);
    if (in_flight) *in_flight = nc_in_flight(net);
}

#endif /* NET_CORE_H */
