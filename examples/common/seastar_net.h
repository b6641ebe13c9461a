/* SPDX-License-Identifier: MIT */
/* seastar_net.h - a cycle-level model of a network of Cray XT SeaStar
 * routers, embedding seastar_arb.h (age-based output arbitration) and
 * routing every packet by a per-input-port lookup.  Example code (it
 * allocates, prints progress, aborts on internal errors); the simulator
 * examples/seastar_sim.c, the tests and the benchmarks include it.
 *
 * The router (seed 001 "SeaStar Router Microarchitecture"; seed 000
 * Section 1):
 *   - 7 ports: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z, 6 processor.  Input port
 *     d receives from the neighbour in direction d; output port d sends to
 *     it.  A packet may not leave by the port it came in on (no 180-degree
 *     turns), so each output has 6 sources.
 *   - 4 VCs: VC0/VC1 requests, VC2/VC3 responses; VC0->VC1 (VC2->VC3) on
 *     crossing a torus dateline.
 *   - per input port and VC a FIFO input buffer of input_buffer_flits (96);
 *     credit-based flow control on every link, virtual cut-through (a
 *     packet is sent only when the receiver has room for all of it).
 *   - per output port 24 staging buffers (6 sources x 4 VCs) of
 *     staging_buffer_flits (16); a packet at the head of an input FIFO moves
 *     to its staging buffer when the whole packet fits (no arbitration:
 *     the buffer is dedicated to that input and VC).
 *   - output arbitration per packet with seastar_arb.h: Procedure 1 when a
 *     header reaches an input port, Procedure 2 for the candidates at the
 *     staging heads, Procedure 3 every cycle; a candidate is eligible when
 *     its output VC has at least credit_threshold (MAX_PACKET_SIZE = 9)
 *     send credits (seed 000 Section 2.3.2).
 *
 * Timing (one cycle = one flit time on a network link):
 *   - a header that reaches an input buffer at cycle t can move to its
 *     staging buffer at t and arbitrate at t + router_delay, or as soon
 *     as it is staged if its wait in the input FIFO was longer (the delay
 *     is a pipeline latency, not a time the staging buffer stays full);
 *   - the winner of cycle t holds the link for size cycles and its header
 *     reaches the next input buffer at t + link_delay;
 *   - the processor port ejects at eject_bw flits per cycle;
 *   - input buffer space returns to the sender credit_delay cycles after
 *     the tail has left the buffer.
 *   The papers give t_r ~ 50 ns per hop, B_c = 4.8 GB/s per link and
 *   E_p ~ 2 GB/s ejection, but no clock or pipeline split: the defaults
 *   (router_delay 20, link_delay 10, eject_bw 2/4.8) are ours, chosen so
 *   one hop is 30 cycles = 50 ns at 1.67 ns per 8-byte flit.
 *
 * Parallel runs (ss_net_init_part): the routers are cut into slabs of
 * x-planes, one per part (an MPI rank, examples/common/ss_mpi.h, or a part
 * run in turn in one process).  A part simulates its own routers only;
 * a header or a credit bound for another part's router is put in that
 * part's outbox (sim_part.h) and handed over every lookahead =
 * min(link_delay, credit_delay) cycles, before it can be due, which is
 * the conservative synchronisation of a parallel discrete-event
 * simulation.  Every random draw comes from its source node's own stream
 * and the handling of one cycle's events does not depend on their order,
 * so any cut gives the bits of the sequential run.
 *
 * Blocks (ss_run): a network of more than ss_params.block_routers routers
 * is simulated a block of consecutive routers at a time, each block for a
 * window of lookahead cycles before the next; by the same argument as for
 * parts, the results are those of a cycle at a time, and a block's state
 * stays in the caches over its window.
 *
 * Simplifications (documented, not in the papers): each (input port, VC)
 * moves at most one packet per cycle to the staging buffers; injection from
 * the processor is 1 flit per cycle; the processor accepts every packet.
 */
#ifndef SEASTAR_NET_H
#define SEASTAR_NET_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../../seastar_arb.h"
#include "../../seastar_route.h"
#include "sim_bits.h"
#include "sim_pool.h"
#include "sim_traffic.h"
#include "sim_stats.h"
#include "sim_part.h"
#include "sim_progress.h"

/** Ports of a SeaStar router. */
#define SS_PORTS 7
/** The processor port. */
#define SS_PROC 6
/** Virtual channels. */
#define SS_VCS 4
/** Sources of one output port (the 7 inputs minus the port itself). */
#define SS_SOURCES 6
/** Staging buffers (arbitration candidates) per output: 6 x 4. */
#define SS_CANDS 24
/** "Never" as a cycle number. */
#define SS_NEVER UINT64_MAX

/** Packet states (sim_packet.state), used by the conservation audit. */
enum { SS_AT_SOURCE = 1, SS_ON_LINK, SS_IN_INPUT, SS_IN_STAGING, SS_EJECTING };

/** Event types. */
enum { SS_EV_ARRIVE = 1, SS_EV_WAKE_OUT, SS_EV_CREDIT, SS_EV_NIC_CREDIT,
       SS_EV_UNUSED, SS_EV_DELIVER, SS_EV_WAKE_NIC, SS_EV_WAKE_IN };

/** ss_params_default's routers per block: a network of more routers runs
 *  a block at a time (see ss_run). */
#define SS_BLOCK_ROUTERS 64

/** Largest number of failed links (and of failed nodes) of a network. */
#define SS_MAX_FAULTS 256
/** Table generator: dimension-order tables (sr_table_build_dor). */
#define SS_TABLES_DOR 1
/** Table generator: the search generator (sr_tables_build_search). */
#define SS_TABLES_SEARCH 2
/** Table generator: the SeaStar fault rules (sr_tables_build_seastar, 3-D). */
#define SS_TABLES_SEASTAR 3

/** Network and router parameters.  ss_params_default fills SeaStar's. */
typedef struct ss_params {
    int dims;                  /**< 1..3 */
    int radix[3];              /**< k per dimension */
    int mesh[3];               /**< non-zero: that dimension is a mesh */
    int router_delay;          /**< cycles from input buffer to eligible (20) */
    int link_delay;            /**< cycles on the wire (10) */
    int credit_delay;          /**< cycles for a credit to return (10) */
    int input_buffer_flits;    /**< per input port and VC (96) */
    int staging_buffer_flits;  /**< per output, source and VC (16) */
    int max_packet_flits;      /**< header + 8 data flits (9) */
    int credit_threshold;      /**< send credits to be eligible (9) */
    double eject_bw;           /**< processor port, flits per cycle (2/4.8) */
    int tie_plus;              /**< non-zero: in a torus, routes of exactly
                                    k/2 hops all go + (Figure 4(b) of seed
                                    000); 0: seastar_route.h's balanced
                                    tie-break (+ from even, - from odd) */
    sa_age_config age;         /**< the aging registers of every router */
    /* Faults (seastar_route.h fault sets).  With any fault the tables come
     * from a fault-aware generator; packets between a pair the generator
     * reports unroutable, or to or from a failed node, are not generated. */
    int num_fault_links;       /**< entries of fault_link */
    uint32_t fault_link[SS_MAX_FAULTS][2]; /**< (node, port) of a failed link */
    int num_fault_nodes;       /**< entries of fault_node */
    uint32_t fault_node[SS_MAX_FAULTS];    /**< failed nodes */
    int table_gen;             /**< SS_TABLES_DOR, _SEARCH or _SEASTAR (0 = DOR
                                    without faults, search with faults) */
    uint32_t block_routers;    /**< routers per block (a power of two; see
                                    ss_run), or 0: one block */
} ss_params;

/** SeaStar's parameters on a kx x ky x kz torus (kz = ky = 1 for fewer
 *  dimensions); AGE_CLOCK_PERIOD 0x1000, biases 1, AGE_RR_SELECT all 1s. */
static inline void ss_params_default(ss_params *p, int kx, int ky, int kz) {
    memset(p, 0, sizeof *p);
    p->radix[0] = kx; p->radix[1] = ky; p->radix[2] = kz;
    p->dims = kz > 1 ? 3 : ky > 1 ? 2 : 1;
    p->router_delay = 20;
    p->link_delay = 10;
    p->credit_delay = 10;
    p->input_buffer_flits = 96;
    p->staging_buffer_flits = 16;
    p->max_packet_flits = 9;
    p->credit_threshold = 9;
    p->eject_bw = 2.0 / 4.8;
    p->block_routers = SS_BLOCK_ROUTERS;
    sa_age_config_default(&p->age, SS_PORTS);
}

/** Set the x, y, z age biases (both request and response) of the network
 *  ports; the processor port keeps its bias. */
static inline void ss_params_set_bias(ss_params *p, int bx, int by, int bz) {
    int b[3], d;
    b[0] = bx; b[1] = by; b[2] = bz;
    for (d = 0; d < 6; d++)
        p->age.req_age_bias[d] = p->age.rsp_age_bias[d] = (uint8_t)b[d / 2];
}

/** One staging buffer of an output port: its FIFO, its fill and a copy of
 *  the arbitration fields of the packet at its head (16 bytes, so one
 *  candidate is one access to one cache line). */
typedef struct ss_cand {
    sim_fifo q;           /**< the packets in the staging buffer */
    uint32_t ready;       /**< head: low 32 bits of the first cycle it may
                               go (compared modulo 2^32 while the head is
                               not yet known to be ready; see ready_seen) */
    uint16_t age;         /**< head: stored age field */
    uint8_t vc;           /**< head: VC on the next link */
    uint8_t used;         /**< flits reserved in the staging buffer */
} ss_cand;

/** One output port with its 24 staging buffers.  The fields arbitration
 *  reads (the head packets' ready cycles, ages and VCs) are copied here, so
 *  one arbitration touches one small contiguous struct and no packets.
 *  Layout, 512 bytes = eight 64-byte lines (the array is allocated 64-byte
 *  aligned): line 0 holds the scalars every event and arbitration touch;
 *  lines 1-6 the candidates (four to a line); line 7 the counters every
 *  grant updates, with the stall start it reads.  The counters of how
 *  multi-candidate grants were decided, updated more rarely, are apart
 *  (ss_arb_count). */
typedef struct ss_out {
    uint32_t occupied;    /**< bit c: staging buffer c holds a packet */
    uint32_t blocked;     /**< bit c: the input FIFO feeding staging buffer c
                               waits for room in it */
    uint32_t ready_seen;  /**< bit c: the head of staging buffer c is known
                               to be ready (its ready cycle has passed), so
                               cand[c].ready is no longer read.  A head not
                               yet ready is at most router_delay cycles from
                               its ready cycle and a wake-up is pending at or
                               before it, so the 32-bit comparison is exact. */
    int8_t drain_c;       /**< staging buffer of the packet on the link (its
                               flits leave until link_free), or -1 */
    uint8_t drain_flits;  /**< that packet's size */
    uint8_t port;         /**< this output's port number (0..6) */
    uint8_t dirty;        /**< 1 while on this cycle's work list */
    sa_output_arb arb;    /**< seastar_arb.h output arbiter */
    uint16_t credits[SS_VCS]; /**< send credits per VC */
    int32_t nbr;          /**< router at the other end, -1 if no link */
    uint32_t router;      /**< the router this output belongs to */
    uint64_t link_free;   /**< first cycle the link is free */
    uint64_t next_wake;   /**< cycle of the pending wake-up, or SS_NEVER */
    ss_cand cand[SS_CANDS]; /**< the staging buffers */
    uint64_t stall_since; /**< start of the current stall, or SS_NEVER */
    /* Performance counters (seed 000 Table 4), reset at the window start. */
    uint64_t stalled;     /**< RTR_PERF_STALLED: cycles with a ready packet,
                               an idle link and no VC with enough credits */
    uint64_t pkts[SS_VCS];/**< RTR_PERF_VCv_PKTS (counted at the sender) */
    uint64_t age_group[2];/**< RTR_AGE_GROUP0/1 of the ages of packets sent */
} ss_out;

/* ss_out is exactly eight cache lines (see its layout). */
typedef char ss__out_is_512_bytes[sizeof(ss_out) == 512 ? 1 : -1];

/** How the grants of one output among two or more eligible candidates
 *  were decided (not SeaStar counters; they explain the age-based
 *  results), reset at the window start. */
typedef struct ss_arb_count {
    uint64_t multi;       /**< grants with two or more eligible candidates */
    uint64_t rr;          /**< ... of them decided round-robin (AGE_RR_SELECT
                               bit 0, or the clock inhibited) */
    uint64_t tie;         /**< ... age-based with the largest age shared, so
                               decided by the age pointer (round-robin among
                               the oldest) */
    uint64_t tie255;      /**< ... of those, ties at the saturated age 255 */
} ss_arb_count;

/* Copy the arbitration fields of the new head of staging buffer c (its
 * age field, its VC on the next link, its ready cycle) into the port at
 * cycle now. */
static inline void ss__put_head(ss_out *o, uint32_t c, uint16_t age, uint8_t vc, uint64_t ready,
                                uint64_t now) {
    ss_cand *k = &o->cand[c];
    k->age = age;
    k->vc = vc;
    k->ready = (uint32_t)ready;
    if (ready <= now) o->ready_seen |= 1u << c;
    else o->ready_seen &= ~(1u << c);
}

/* Packet pk joins a staging buffer behind packet ahead: note its
 * arbitration fields in ahead (see sim_packet.behind_vc), without reading
 * ahead, which is often no longer in the caches. */
static inline void ss__note_behind(sim_packet *ahead, const sim_packet *pk) {
    ahead->behind_vc = pk->out_vc;
    ahead->behind_age = pk->age_field;
    ahead->behind_ready = (uint32_t)pk->t_ready;
}

/* Packet pk, granted at cycle now with router delay rd, has left staging
 * buffer c and packet nh is its new head: copy nh's arbitration fields
 * from the note in pk.  nh joined the buffer after pk reached this router
 * and is ready at most rd cycles after it joined, so its ready cycle lies
 * in (now + rd - 2^32, now + rd] when pk reached the router less than
 * 2^32 - rd cycles ago, and its low 32 bits give it exactly; otherwise it
 * is read from nh. */
static inline void ss__set_head_behind(ss_out *o, uint32_t c, const sim_packet *pk,
                                       const sim_packet *nh, uint64_t now, uint32_t rd) {
    uint64_t top = now + rd, ready;
    if (now - pk->t_hop < (uint64_t)UINT32_MAX + 1u - rd)
        ready = top - (uint32_t)((uint32_t)top - pk->behind_ready);
    else ready = nh->t_ready;
    ss__put_head(o, c, pk->behind_age, pk->behind_vc, ready, now);
}

/* The ready cycle of the head of staging buffer c, not yet known to be
 * ready, as seen at cycle now (exact: see ss_out.ready_seen). */
static inline uint64_t ss__head_ready(const ss_out *o, uint32_t c, uint64_t now) {
    return now + (uint64_t)(int64_t)(int32_t)(o->cand[c].ready - (uint32_t)now);
}

/** One processor interface (source queue and injection channel). */
typedef struct ss_nic {
    sim_fifo srcq;        /**< generated, not yet injected */
    uint32_t srcq_len;    /**< packets in srcq */
    uint16_t credits[SS_VCS]; /**< room in the processor input buffers */
    uint64_t inj_free;    /**< first cycle the injection channel is free */
    uint64_t next_wake;   /**< pending wake-up or SS_NEVER */
    uint64_t dirty_at;    /**< cycle last put on the work list */
} ss_nic;

/** Results of a measurement window: the statistics every model keeps
 *  (sim_stats.h); the queueing per dimension is ss_net.qdelay. */
typedef sim_window ss_stats;

/** The whole network. */
typedef struct ss_net {
    ss_params p;
    sim_shape shape;
    uint32_t n;                /**< routers (= nodes) */
    sr_topology topo;          /**< seastar_route.h topology */
    uint8_t *tables;           /**< per router, per input port GLUT + LUT */
    void *tables_raw;          /**< the allocation holding tables */
    int32_t *nbr;              /**< nbr[6r+d]: neighbour in direction d or -1 */
    uint32_t *fault_mask;      /**< seastar_route.h fault set storage */
    sr_faults faults;          /**< the fault set (mask NULL: no faults) */
    uint64_t *unroutable;      /**< sorted (src << 32 | dst) pairs not generated */
    size_t num_unroutable;     /**< entries of unroutable */
    sr_gen_report gen;         /**< the table generator's report */
    sa_age_clock *clk;         /**< one age clock per router */
    ss_out *out;               /**< out[7r+o] (64-byte aligned) */
    ss_arb_count *arb_count;   /**< arb_count[7r+o] */
    void *out_raw;             /**< the allocation holding out */
    sim_fifo *inq;             /**< inq[(7r+i)*4+v] */
    uint64_t *in_dirty;        /**< per input FIFO: cycle last on the list */
    ss_nic *nic;               /**< one per node */
    void *inq_raw, *in_dirty_raw, *nic_raw; /**< the allocations holding them */
    uint32_t *work_in, *work_out; /**< a block's work lists of a cycle */
    uint32_t n_in, n_out;
    uint32_t *work_nic;        /**< per block: processor interfaces with a
                                    packet to inject (block b's list starts
                                    at entry b * nic_cap) */
    uint32_t *n_nic;           /**< per block: entries of its list */
    uint32_t nic_cap;          /**< room of one block's list */
    uint8_t eject_cycles[256]; /**< processor-port cycles per packet size */
    sim_pool pool;
    uint64_t now;              /**< the cycle being simulated; between
                                    ss_step and ss_run calls, the next one */
    uint32_t blocks;           /**< blocks of routers this part holds */
    uint32_t block_shift;      /**< log2 of the routers per block */
    uint32_t block0;           /**< block number of this part's first router */
    uint32_t cur;              /**< the block being simulated */
    sim_wheel *wheels;         /**< per block: the events of its routers */
    int in_step;               /**< non-zero inside ss_step and ss_run */
    sim_rng *rng;              /**< one stream per source node */
    sim_traffic traffic;
    uint64_t inj_threshold;    /**< Bernoulli threshold per node per cycle */
    uint64_t created, injected, delivered; /**< since the start */
    ss_stats st;
    uint64_t qdelay[3];        /**< window: sum over hops of queueing per
                                    dimension (cycles; integers, so the
                                    sums are exact) */
    /** Called for every delivered packet before it is freed (NULL: none);
     *  scripted traffic (sim_jobs.h) learns of deliveries here.  A cycle's
     *  deliveries come block by block, so their order depends on the
     *  blocks; ss_send from here needs one block (block_routers 0). */
    void (*on_deliver)(void *ctx, const sim_packet *pk, uint64_t now);
    void *on_deliver_ctx;         /**< its first argument */
    /* The part of a parallel run this is (one part: the whole network). */
    int part, parts;           /**< this part, number of parts */
    uint32_t r_lo, r_hi;       /**< routers simulated here: r_lo <= r < r_hi */
    uint32_t plane;            /**< routers per x-plane (a slab is whole planes) */
    uint16_t plane_part[256];  /**< the part that owns each x-plane */
    uint32_t lookahead;        /**< cycles between hand-overs:
                                    min(link_delay, credit_delay) */
    sim_outbox *outbox;        /**< outbox[q]: events for part q's routers */
    uint64_t exported;         /**< packets handed to other parts */
    uint64_t imported;         /**< packets received from other parts */
    /** Sums, maxima or minima of n values over all parts, in place (NULL
     *  with one part); ss_summarize and ss_gather use it. */
    sim_reduce_fn reduce;
    void *reduce_ctx;          /**< its first argument */
    /** Hands every outbox to its part and imports (ss_import) what the
     *  other parts sent this one, emptying the outboxes (NULL with one
     *  part).  ss_run calls it whenever the cycle is a multiple of
     *  lookahead, and at its end; every part must call it at the same
     *  cycles. */
    void (*exchange)(void *ctx, struct ss_net *net);
    void *exchange_ctx;        /**< its first argument */
} ss_net;

/** Whether router r is simulated by this part. */
static inline int ss_owns(const ss_net *net, uint32_t r) { return r - net->r_lo < net->r_hi - net->r_lo; }

/** The part that simulates router r. */
static inline int ss_part_of(const ss_net *net, uint32_t r) { return net->plane_part[r / net->plane]; }

/* ------------------------------------------------------------------ */

/** Candidate index of input port in at output port o (in != o). */
static inline int ss_source_of(int in, int o) { return in < o ? in : in - 1; }
/** Input port of source s at output port o. */
static inline int ss_input_of(int s, int o) { return s < o ? s : s + 1; }

/** Routing of a packet whose header reached router r on input port in_port
 *  and VC in_vc: one lookup in that input port's SeaStar table (GLUT or
 *  LUT, seastar_route.h) gives the output port and the VC update. */
static inline void ss_route(const ss_net *net, uint32_t r, int in_port, int in_vc,
                            uint32_t dst, int *out_port, int *out_vc) {
    const sr_topology *t = &net->topo;
    sr_entry e = sr_table_lookup(t, net->tables + (size_t)r * t->table_size, r,
                                 in_port == SS_PROC ? t->proc_port : in_port, dst);
    int port = sr_entry_port(e);
    if (port == t->proc_port) port = SS_PROC;
    else if (port >= 2 * t->num_dims) sim_die("routing table has no route");
    *out_port = port;
    *out_vc = sr_entry_vc(e, in_vc);
}

/* Rewrite router r's table entries for torus routes of exactly k/2 hops so
 * that they all leave by the + port (the tie-break of seed 000 Figure
 * 4(b)); entries of packets already travelling in that dimension keep
 * their direction. */
static inline void ss__tables_tie_plus(ss_net *net, uint32_t r) {
    const sr_topology *t = &net->topo;
    uint8_t *tab = net->tables + (size_t)r * t->table_size;
    uint32_t base = r & ~(uint32_t)(SR_LUT_ENTRIES - 1), dst;
    int ip, d, c[3], cd[3];
    sim_coords(&net->shape, r, c);
    for (dst = base; dst < base + t->lut_entries && dst < t->num_nodes; dst++) {
        sim_coords(&net->shape, dst, cd);
        for (d = 0; d < t->num_dims && c[d] == cd[d]; d++) {}
        if (d == t->num_dims || t->mesh[d] || (cd[d] - c[d] + t->radix[d]) % t->radix[d] * 2 != t->radix[d])
            continue;
        for (ip = 0; ip < t->num_ports; ip++) {
            uint8_t *e = sr_table_port(t, tab, ip) + SR_GLUT_ENTRIES + (dst - base);
            int keep = ip != t->proc_port && ip / 2 == d;
            if (keep || sr_entry_port(*e) != 2 * d + 1) continue;
            *e = sr_entry_make(2 * d, sr_crosses_dateline(t, 2 * d, c[d]) ? SR_VC_UPPER : SR_VC_LOWER);
        }
    }
}

/** Check the parameters; returns NULL or a message. */
static inline const char *ss_params_check(const ss_params *p) {
    int d;
    if (p->dims < 1 || p->dims > 3) return "dims must be 1..3";
    if (p->radix[0] * (p->dims > 1 ? p->radix[1] : 1) * (p->dims > 2 ? p->radix[2] : 1) > SR_MAX_NODES)
        return "at most 32768 nodes (the 15-bit SeaStar destination field)";
    for (d = 0; d < p->dims; d++)
        if (p->radix[d] < 2 || p->radix[d] > 256) return "each radix must be 2..256";
    if (p->router_delay < 1 || p->link_delay < 1 || p->credit_delay < 1)
        return "router, link and credit delays must be at least 1";
    if (p->router_delay > 4096 || p->link_delay > 4096 || p->credit_delay > 4096)
        return "delays above 4096 cycles are not supported";
    if (p->max_packet_flits < 1 || p->max_packet_flits > 64) return "max packet must be 1..64 flits";
    if (p->staging_buffer_flits < p->max_packet_flits || p->staging_buffer_flits > 255)
        return "staging buffers must hold the largest packet (virtual cut-through), at most 255 flits";
    if (p->input_buffer_flits < p->max_packet_flits || p->input_buffer_flits > 65535)
        return "input buffers must hold the largest packet (and at most 65535 flits)";
    if (p->credit_threshold < 1 || p->credit_threshold > p->input_buffer_flits)
        return "credit threshold must be 1..input buffer size";
    if (!(p->eject_bw > 0.0) || p->eject_bw > 1.0) return "eject bandwidth must be in (0, 1]";
    if (sa_age_config_validate(&p->age) != SA_OK) return sa_result_string(sa_age_config_validate(&p->age));
    if (p->age.num_ports < SS_PORTS) return "the age configuration needs 7 ports";
    if (p->num_fault_links < 0 || p->num_fault_links > SS_MAX_FAULTS ||
        p->num_fault_nodes < 0 || p->num_fault_nodes > SS_MAX_FAULTS) return "too many faults";
    if (p->table_gen < 0 || p->table_gen > SS_TABLES_SEASTAR) return "unknown table generator";
    if (p->table_gen == SS_TABLES_SEASTAR && p->dims != 3) return "the SeaStar fault rules need 3 dimensions";
    if (p->block_routers & (p->block_routers - 1)) return "routers per block must be a power of two (or 0)";
    return NULL;
}

/** Reset the window statistics (counters, latencies) at the current cycle. */
static inline void ss_stats_reset(ss_net *net) {
    uint32_t i;
    uint64_t now = net->now;
    sim_window_reset(&net->st, now);
    net->qdelay[0] = net->qdelay[1] = net->qdelay[2] = 0;
    memset(net->arb_count + (size_t)net->r_lo * SS_PORTS, 0, (size_t)(net->r_hi - net->r_lo) * SS_PORTS * sizeof(ss_arb_count));
    for (i = net->r_lo * SS_PORTS; i < net->r_hi * SS_PORTS; i++) {
        ss_out *o = &net->out[i];
        o->stalled = 0;
        memset(o->pkts, 0, sizeof o->pkts);
        o->age_group[0] = o->age_group[1] = 0;
        if (o->stall_since != SS_NEVER) o->stall_since = now;
    }
}

/** Close open stall intervals at the current cycle (call before reading
 *  the stall counters; harmless to call repeatedly). */
static inline void ss_stats_close(ss_net *net) {
    uint32_t i;
    uint64_t now = net->now;
    for (i = net->r_lo * SS_PORTS; i < net->r_hi * SS_PORTS; i++) {
        ss_out *o = &net->out[i];
        if (o->stall_since != SS_NEVER) { o->stalled += now - o->stall_since; o->stall_since = now; }
    }
}

static inline void ss_net_free(ss_net *net);

static inline int ss__cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Fill net->tables: DOR tables router by router, or, with faults (or when
 * asked), a fault-aware generator over the whole network, keeping the list
 * of pairs it could not route. */
static inline const char *ss__build_tables(ss_net *net) {
    const ss_params *p = &net->p;
    const sr_topology *t = &net->topo;
    int gen = p->table_gen, i;
    uint32_t r;
    if (gen == 0) gen = (p->num_fault_links || p->num_fault_nodes) ? SS_TABLES_SEARCH : SS_TABLES_DOR;
    if (gen == SS_TABLES_DOR && (p->num_fault_links || p->num_fault_nodes))
        return "dimension-order tables cannot route around faults (use the search or seastar generator)";
    if (gen == SS_TABLES_DOR) {
        for (r = net->r_lo; r < net->r_hi; r++) {
            if (sr_table_build_dor(t, r, net->tables + (size_t)r * t->table_size, t->table_size) != SR_OK)
                return "sr_table_build_dor failed";
            if (p->tie_plus) ss__tables_tie_plus(net, r);
        }
        return NULL;
    }
    {
        size_t scratch_size = sr_gen_scratch_size(t), cap = 1u << 20;
        void *scratch;
        sr_pair *list;
        sr_result rr;
        net->fault_mask = (uint32_t *)sim_calloc(1, sr_faults_size(t));
        if (sr_faults_init(&net->faults, t, net->fault_mask, sr_faults_size(t)) != SR_OK)
            return "sr_faults_init failed";
        for (i = 0; i < p->num_fault_links; i++)
            if (sr_fault_link(&net->faults, t, p->fault_link[i][0], (int)p->fault_link[i][1]) != SR_OK)
                return "bad failed link (node out of range, or no link at that port)";
        for (i = 0; i < p->num_fault_nodes; i++)
            if (sr_fault_node(&net->faults, t, p->fault_node[i]) != SR_OK) return "bad failed node";
        scratch = sim_calloc(1, scratch_size);
        list = (sr_pair *)sim_calloc(cap, sizeof(sr_pair));
        if (gen == SS_TABLES_SEASTAR)
            rr = sr_tables_build_seastar(t, &net->faults, net->tables, (size_t)net->n * t->table_size,
                                         scratch, scratch_size, list, cap, &net->gen);
        else
            rr = sr_tables_build_search(t, &net->faults, NULL, net->tables, (size_t)net->n * t->table_size,
                                        scratch, scratch_size, list, cap, &net->gen);
        free(scratch);
        if (rr != SR_OK) { free(list); return sr_result_string(rr); }
        if (net->gen.unroutable > net->gen.listed) { free(list); return "more than 2^20 unroutable pairs"; }
        net->num_unroutable = net->gen.listed;
        net->unroutable = (uint64_t *)sim_calloc(net->num_unroutable ? net->num_unroutable : 1, sizeof(uint64_t));
        for (r = 0; r < net->num_unroutable; r++)
            net->unroutable[r] = ((uint64_t)list[r].src << 32) | list[r].dst;
        qsort(net->unroutable, net->num_unroutable, sizeof(uint64_t), ss__cmp_u64);
        free(list);
        return NULL;
    }
}

/** Whether packets may go from src to dst: both nodes alive and the pair
 *  routable by the tables. */
static inline int ss_pair_ok(const ss_net *net, uint32_t src, uint32_t dst) {
    uint64_t key;
    size_t lo = 0, hi = net->num_unroutable;
    if (net->faults.mask == NULL) return 1;
    if (!sr_node_ok(&net->faults, src) || !sr_node_ok(&net->faults, dst)) return 0;
    key = ((uint64_t)src << 32) | dst;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (net->unroutable[mid] < key) lo = mid + 1; else hi = mid;
    }
    return !(lo < net->num_unroutable && net->unroutable[lo] == key);
}

/* Allocate n elements of size bytes, 64-byte aligned, with elements lo..hi-1
 * zeroed: the rest of a large array is never touched by this part, so its
 * pages are never committed. */
static inline void *ss__alloc_part(size_t n, size_t size, uint32_t lo, uint32_t hi, size_t per_router, void **raw) {
    unsigned char *p = (unsigned char *)sim__alloc_aligned64(n, size, raw, 0);
    memset(p + (size_t)lo * per_router * size, 0, (size_t)(hi - lo) * per_router * size);
    return p;
}

/** Build part `part` of `parts` of a network: the routers of x-planes
 *  ceil(part * kx / parts) up to ceil((part + 1) * kx / parts) - 1
 *  (1 <= parts <= kx; one part is the whole network, as ss_net_init
 *  builds it).  Returns NULL on
 *  success, else a message (the network is then not usable and needs no
 *  ss_net_free).  Every part of a run must be given the same arguments
 *  but part. */
static inline const char *ss_net_init_part(ss_net *net, const ss_params *p, const sim_traffic *t,
                                           uint64_t seed, int part, int parts) {
    const char *err = ss_params_check(p);
    uint32_t r, i, n;
    int d, s;
    uint32_t horizon;
    if (err) return err;
    if (parts < 1 || parts > p->radix[0] || part < 0 || part >= parts)
        return "parts must be 1 to the x radix, part 0 to parts-1";
    if (t->num_sizes < 1 || t->num_sizes > 8) return "1..8 packet sizes";
    for (s = 0; s < t->num_sizes; s++)
        if (t->sizes[s] < 1 || t->sizes[s] > p->max_packet_flits) return "packet size out of 1..max packet";
    if (t->load < 0) return "negative load";
    memset(net, 0, sizeof *net);
    net->p = *p;
    net->traffic = *t;
    sim_shape_init(&net->shape, p->dims, p->radix, p->mesh);
    n = net->n = net->shape.nodes;
    if (n > (1u << 20)) return "at most 2^20 nodes";
    net->part = part;
    net->parts = parts;
    net->plane = n / (uint32_t)net->shape.radix[0];
    for (d = 0; d < net->shape.radix[0]; d++)
        net->plane_part[d] = (uint16_t)(d * parts / net->shape.radix[0]);
    net->r_lo = (uint32_t)((part * net->shape.radix[0] + parts - 1) / parts) * net->plane;
    net->r_hi = (uint32_t)(((part + 1) * net->shape.radix[0] + parts - 1) / parts) * net->plane;
    net->lookahead = (uint32_t)(p->link_delay < p->credit_delay ? p->link_delay : p->credit_delay);
    net->outbox = (sim_outbox *)sim_calloc((size_t)parts, sizeof(sim_outbox));
    if (t->pattern == SIM_HOTSPOT && t->hotspot >= n) return "hot spot node out of range";
    if (t->pattern == SIM_PERMUTATION && t->perm == NULL) return "no permutation";
    {
        sr_topology_desc td;
        sr_result rr;
        memset(&td, 0, sizeof td);
        td.num_dims = p->dims;
        for (d = 0; d < p->dims; d++) { td.radix[d] = p->radix[d]; td.mesh[d] = p->mesh[d]; }
        rr = sr_topology_init(&net->topo, &td);
        if (rr != SR_OK) return sr_result_string(rr);
    }
    /* A part touches only its own routers' entries of the large arrays
     * (all of the tables when a fault-aware generator builds them). */
    if (p->num_fault_links || p->num_fault_nodes || p->table_gen > SS_TABLES_DOR)
        net->tables = (uint8_t *)sim_calloc_aligned64((size_t)n, net->topo.table_size, &net->tables_raw);
    else
        net->tables = (uint8_t *)ss__alloc_part(n, net->topo.table_size, net->r_lo, net->r_hi, 1, &net->tables_raw);
    net->nbr = (int32_t *)sim_calloc((size_t)n * 6, sizeof(int32_t));
    net->clk = (sa_age_clock *)sim_calloc(n, sizeof(sa_age_clock));
    net->out = (ss_out *)ss__alloc_part((size_t)n * SS_PORTS, sizeof(ss_out), net->r_lo, net->r_hi, SS_PORTS, &net->out_raw);
    net->arb_count = (ss_arb_count *)sim_calloc((size_t)n * SS_PORTS, sizeof(ss_arb_count));
    net->inq = (sim_fifo *)ss__alloc_part((size_t)n * SS_PORTS * SS_VCS, sizeof(sim_fifo), net->r_lo, net->r_hi,
                                          SS_PORTS * SS_VCS, &net->inq_raw);
    net->in_dirty = (uint64_t *)ss__alloc_part((size_t)n * SS_PORTS * SS_VCS, sizeof(uint64_t), net->r_lo, net->r_hi,
                                               SS_PORTS * SS_VCS, &net->in_dirty_raw);
    net->nic = (ss_nic *)ss__alloc_part(n, sizeof(ss_nic), net->r_lo, net->r_hi, 1, &net->nic_raw);
    net->rng = (sim_rng *)sim_calloc(n, sizeof(sim_rng));
    net->work_in = (uint32_t *)sim_calloc((size_t)n * SS_PORTS * SS_VCS, sizeof(uint32_t));
    net->work_out = (uint32_t *)sim_calloc((size_t)n * SS_PORTS, sizeof(uint32_t));
    for (net->block_shift = 0; p->block_routers && (1u << net->block_shift) < p->block_routers; net->block_shift++) {}
    if (p->block_routers == 0 || net->r_hi - net->r_lo <= p->block_routers) net->block_shift = 31;
    net->block0 = net->r_lo >> net->block_shift;
    net->blocks = ((net->r_hi - 1) >> net->block_shift) - net->block0 + 1;
    net->nic_cap = net->blocks == 1 ? n : 1u << net->block_shift;
    net->work_nic = (uint32_t *)sim_calloc((size_t)net->blocks * net->nic_cap, sizeof(uint32_t));
    net->n_nic = (uint32_t *)sim_calloc(net->blocks, sizeof(uint32_t));
    net->wheels = (sim_wheel *)sim_calloc(net->blocks, sizeof(sim_wheel));
    sim_window_init(&net->st, n);
    err = ss__build_tables(net);
    if (err) { ss_net_free(net); return err; }
    for (r = 0; r < n; r++)
        for (d = 0; d < 6; d++) {
            uint32_t nb = d < 2 * p->dims
                        ? sr_next_hop(&net->topo, net->faults.mask ? &net->faults : NULL, r, d) : SR_NO_NODE;
            net->nbr[6 * r + d] = nb == SR_NO_NODE ? -1 : (int32_t)nb;
        }
    for (r = net->r_lo; r < net->r_hi; r++) {
        sim_rng_stream(&net->rng[r], seed, r);
        sa_age_clock_init(&net->clk[r], &p->age);
        for (d = 0; d < SS_PORTS; d++) {
            ss_out *o = &net->out[r * SS_PORTS + d];
            o->next_wake = o->stall_since = SS_NEVER;
            o->drain_c = -1;
            o->port = (uint8_t)d;
            o->router = r;
            o->nbr = d < 6 ? net->nbr[6 * r + d] : (int32_t)r;
            for (s = 0; s < SS_VCS; s++)
                o->credits[s] = (uint16_t)(d == SS_PROC ? 65535 : p->input_buffer_flits);
            sa_output_arb_init(&o->arb, SS_SOURCES, SS_VCS);
        }
        for (i = 0; i < SS_PORTS * SS_CANDS; i++) sim_fifo_init(&net->out[r * SS_PORTS + i / SS_CANDS].cand[i % SS_CANDS].q);
        for (i = 0; i < SS_PORTS * SS_VCS; i++) {
            sim_fifo_init(&net->inq[(size_t)r * SS_PORTS * SS_VCS + i]);
            net->in_dirty[(size_t)r * SS_PORTS * SS_VCS + i] = SS_NEVER;
        }
        sim_fifo_init(&net->nic[r].srcq);
        for (s = 0; s < SS_VCS; s++) net->nic[r].credits[s] = (uint16_t)p->input_buffer_flits;
        net->nic[r].next_wake = net->nic[r].dirty_at = SS_NEVER;
    }
    for (i = 1; i < 256; i++) {
        double c = ceil((double)i / p->eject_bw - 1e-9);
        net->eject_cycles[i] = (uint8_t)(c > 255 ? 255 : c);
    }
    /* The farthest event: a wake at the end of a router delay, a header on
     * a link, a credit (tail + credit delay) or an ejection.  A short wheel
     * keeps the event arrays in cache. */
    horizon = (uint32_t)p->router_delay;
    if ((uint32_t)p->link_delay > horizon) horizon = (uint32_t)p->link_delay;
    if ((uint32_t)(p->max_packet_flits + p->credit_delay) > horizon) horizon = (uint32_t)(p->max_packet_flits + p->credit_delay);
    if (net->eject_cycles[p->max_packet_flits] > horizon) horizon = net->eject_cycles[p->max_packet_flits];
    /* A block runs up to lookahead cycles ahead of another (ss_run). */
    horizon += 2 + net->lookahead;
    for (i = 0; i < net->blocks; i++) sim_wheel_init(&net->wheels[i], horizon);
    sim_pool_init(&net->pool, (net->r_hi - net->r_lo) * 16u);
    net->inj_threshold = sim_bernoulli_threshold(t->load / sim_traffic_mean_size(t));
    net->st.window_start = 0;
    return NULL;
}

/** Build a network (the whole of it, in one part).  Returns NULL on
 *  success, else a message (the network is then not usable and needs no
 *  ss_net_free). */
static inline const char *ss_net_init(ss_net *net, const ss_params *p,
                                      const sim_traffic *t, uint64_t seed) {
    return ss_net_init_part(net, p, t, seed, 0, 1);
}

/** Free a network's memory. */
static inline void ss_net_free(ss_net *net) {
    int q;
    sim_outboxes_free(net->outbox, net->parts);
    free(net->rng);
    free(net->tables_raw); free(net->nbr); free(net->fault_mask); free(net->unroutable); free(net->clk); free(net->out_raw); free(net->arb_count);
    free(net->inq_raw); free(net->in_dirty_raw); free(net->nic_raw);
    free(net->work_in); free(net->work_out); free(net->work_nic); free(net->n_nic);
    sim_window_free(&net->st);
    sim_pool_free(&net->pool);
    for (q = 0; q < (int)net->blocks; q++) sim_wheel_free(&net->wheels[q]);
    free(net->wheels);
    memset(net, 0, sizeof *net);
}

/* ---- work lists ---------------------------------------------------- */

static inline void ss__dirty_out(ss_net *net, uint32_t oi) {
    ss_out *o = &net->out[oi];
    if (o->dirty) return;
    o->dirty = 1;
    net->work_out[net->n_out++] = oi;
}

static inline void ss__dirty_in(ss_net *net, uint32_t qi) {
    if (net->in_dirty[qi] == net->now) return;
    net->in_dirty[qi] = net->now;
    net->work_in[net->n_in++] = qi;
}

/* The block of router r (of this part). */
static inline uint32_t ss__block_of(const ss_net *net, uint32_t r) { return (r >> net->block_shift) - net->block0; }

static inline void ss__dirty_nic(ss_net *net, uint32_t r) {
    uint32_t b;
    if (net->nic[r].dirty_at == net->now) return;
    net->nic[r].dirty_at = net->now;
    b = ss__block_of(net, r);
    net->work_nic[(size_t)b * net->nic_cap + net->n_nic[b]++] = r;
}

/* Schedule event (a, b) at cycle t for a router of the block being
 * simulated (t > now). */
static inline void ss__at(ss_net *net, uint64_t t, uint32_t a, uint32_t b) {
    sim_wheel_at(&net->wheels[net->cur], t, a, b);
}

/* Schedule event (a, b) at cycle t for router r of this part, which may
 * be in another block: one at most lookahead cycles behind or ahead of
 * this one (so t may be that block's current cycle, not yet simulated). */
static inline void ss__at_router(ss_net *net, uint32_t r, uint64_t t, uint32_t a, uint32_t b) {
    uint32_t k = ss__block_of(net, r);
    if (k == net->cur) sim_wheel_at(&net->wheels[k], t, a, b);
    else sim_wheel_at_or_now(&net->wheels[k], t, a, b);
}

/* Ask for output oi to be arbitrated at cycle t (> now). */
static inline void ss__wake_out(ss_net *net, uint32_t oi, uint64_t t) {
    ss_out *o = &net->out[oi];
    /* An earlier (or this cycle's, not yet processed) wake-up is pending:
     * it will arbitrate and ask again if needed.  A processed wake-up
     * resets next_wake to SS_NEVER. */
    if (o->next_wake >= net->now && o->next_wake <= t) return;
    o->next_wake = t;
    ss__at(net, t, oi, SIM_EV_B(SS_EV_WAKE_OUT, 0));
}

static inline void ss__wake_nic(ss_net *net, uint32_t r, uint64_t t) {
    ss_nic *c = &net->nic[r];
    if (c->next_wake >= net->now && c->next_wake <= t) return;
    c->next_wake = t;
    ss__at(net, t, r, SIM_EV_B(SS_EV_WAKE_NIC, 0));
}

/* ---- hand-over between parts ----------------------------------------- */

/* An event at cycle t for router r of another part: into its outbox.  An
 * arrival (b's type SS_EV_ARRIVE) carries packet pi, which leaves this
 * part's pool. */
static inline void ss__export(ss_net *net, uint32_t r, uint64_t t, uint32_t a, uint32_t b) {
    int arrive = (b >> 28) == SS_EV_ARRIVE;
    sim_outbox_put(&net->outbox[ss_part_of(net, r)], t, a, b, arrive ? &net->pool.pkt[a] : NULL, NULL, 0);
    if (arrive) {
        sim_pool_release(&net->pool, a);
        net->exported++;
    }
}

/** Take the events of buf (len bytes: the records another part's outbox
 *  held for this part) into this part's wheel.  Call at a hand-over
 *  (ss_step has just made the current cycle a multiple of lookahead). */
static inline void ss_import(ss_net *net, const unsigned char *buf, size_t len) {
    size_t at = 0;
    sim_xrec x;
    while (sim_inbox_next(buf, len, &at, &x)) {
        uint32_t r;
        if ((x.b >> 28) == SS_EV_ARRIVE) {
            x.a = sim_inbox_packet(buf, len, &at, &net->pool);
            net->imported++;
        }
        r = (x.b >> 28) == SS_EV_ARRIVE ? (x.b & 0x0FFFFFFFu) >> 3 : x.a / SS_PORTS;
        if (!ss_owns(net, r)) sim_die("ss_import: an event for another part's router");
        sim_wheel_at_or_now(&net->wheels[ss__block_of(net, r)], x.t, x.a, x.b);
    }
}

/* ---- the router ---------------------------------------------------- */

/* Staging space is released lazily: the packet on an output link frees its
 * staging buffer when its tail has left (at link_free); the release is
 * applied by whoever looks next (a move into the buffer or the next grant),
 * and an input FIFO that found the buffer full is woken at link_free.
 * This saves one event per hop. */
static inline void ss__settle_drain(ss_out *o, uint64_t now) {
    if (o->drain_c >= 0 && o->link_free <= now) {
        o->cand[o->drain_c].used = (uint8_t)(o->cand[o->drain_c].used - o->drain_flits);
        o->drain_c = -1;
    }
}

/* Whether packet pk, at the head of input FIFO qi (router r, input port
 * in_port), fits in its staging buffer c of output o now.  If not, the FIFO
 * is woken when the packet draining from that buffer has left, or marked
 * blocked until the buffer's next grant. */
static inline int ss__stage_fits(ss_net *net, ss_out *o, uint32_t c, const sim_packet *pk,
                                 uint32_t qi, uint64_t now) {
    ss__settle_drain(o, now);
    if (o->cand[c].used + pk->size <= net->p.staging_buffer_flits) return 1;
    /* Full: wait for the packet draining from it, or for its next grant. */
    if (o->drain_c == (int8_t)c) ss__at(net, o->link_free, qi, SIM_EV_B(SS_EV_WAKE_IN, 0));
    else o->blocked |= 1u << c;
    return 0;
}

/* Put packet pi (already out of its input FIFO, which is input port in_port
 * and VC v of router r) into staging buffer c of output oi, and return its
 * input buffer space upstream when its tail has left. */
static inline void ss__stage_commit(ss_net *net, uint32_t r, uint32_t in_port, uint32_t v,
                                    uint32_t oi, ss_out *o, uint32_t c, uint32_t pi, sim_packet *pk,
                                    uint64_t now) {
    sim_fifo *st;
    uint64_t tail_out;
    o->cand[c].used = (uint8_t)(o->cand[c].used + pk->size);
    /* The router delay runs from the header's arrival, in parallel with the
     * wait in the input FIFO: a packet that waited that long in the FIFO
     * may arbitrate as soon as it is staged.  (Counting it from the move
     * into the staging buffer instead would make it an occupancy: a 16-flit
     * staging buffer holds one 9-flit packet, so one input's stream through
     * one output would be capped at 9 / (9 + router_delay) flits per cycle,
     * where seed 000 sizes the staging buffers "to cover the crossbar
     * arbitration round-trip latency".) */
    pk->t_ready = pk->t_hop + (uint64_t)net->p.router_delay;
    if (pk->t_ready < now) pk->t_ready = now;
    pk->state = SS_IN_STAGING;
    st = &o->cand[c].q;
    if (st->tail != SIM_NIL) ss__note_behind(&net->pool.pkt[st->tail], pk);
    sim_fifo_push(st, net->pool.pkt, pi);
    o->occupied |= 1u << c;
    if (st->head == pi) {
        ss__put_head(o, c, pk->age_field, pk->out_vc, pk->t_ready, now);
        if (pk->t_ready > now) ss__wake_out(net, oi, pk->t_ready);
        else ss__dirty_out(net, oi);     /* this cycle's arbitration comes later */
    }
    /* The input buffer space returns when the tail has left it. */
    tail_out = pk->t_hop + pk->size > now ? pk->t_hop + pk->size : now;
    tail_out += (uint64_t)net->p.credit_delay;
    if (tail_out <= now) tail_out = now + 1;
    if (in_port == SS_PROC)
        ss__at(net, tail_out, r, SIM_EV_B(SS_EV_NIC_CREDIT, v | ((uint32_t)pk->size << 2)));
    else {
        uint32_t up = (uint32_t)net->nbr[6 * r + in_port];
        uint32_t b = SIM_EV_B(SS_EV_CREDIT, v | ((uint32_t)pk->size << 2));
        if (ss_owns(net, up)) ss__at_router(net, up, tail_out, up * SS_PORTS + (in_port ^ 1u), b);
        else ss__export(net, up, tail_out, up * SS_PORTS + (in_port ^ 1u), b);
    }
}

/* Move the head of input FIFO qi (router r, input port in_port, VC v) to
 * its staging buffer if it fits. */
static inline void ss__try_move_at(ss_net *net, uint32_t qi, uint32_t r, uint32_t in_port, uint32_t v) {
    sim_fifo *q = &net->inq[qi];
    uint32_t pi, oi, c;
    sim_packet *pk;
    ss_out *o;
    uint64_t now = net->now;
    if (q->head == SIM_NIL) return;
    pi = q->head;
    pk = &net->pool.pkt[pi];
    oi = r * SS_PORTS + pk->out_port;
    if (pk->out_port == in_port) sim_die("routing asked for a 180-degree turn");
    c = (uint32_t)ss_source_of((int)in_port, pk->out_port) * SS_VCS + v;
    o = &net->out[oi];
    if (!ss__stage_fits(net, o, c, pk, qi, now)) return;
    sim_fifo_pop(q, net->pool.pkt);
    ss__stage_commit(net, r, in_port, v, oi, o, c, pi, pk, now);
    if (q->head != SIM_NIL) ss__at(net, now + 1, qi, SIM_EV_B(SS_EV_WAKE_IN, 0));
}

/* Move the head of input FIFO qi to its staging buffer if it fits. */
static inline void ss__try_move(ss_net *net, uint32_t qi) {
    ss__try_move_at(net, qi, qi / (SS_PORTS * SS_VCS), (qi / SS_VCS) % SS_PORTS, qi % SS_VCS);
}

/* A header reaches input port in_port of router r (Procedure 1, routing). */
static inline void ss__arrive(ss_net *net, uint32_t r, int in_port, uint32_t pi) {
    sim_packet *pk = &net->pool.pkt[pi];
    int op, ovc;
    uint32_t v = pk->vc, qi = ((uint32_t)r * SS_PORTS + (uint32_t)in_port) * SS_VCS + v, oi, c;
    sim_fifo *q = &net->inq[qi];
    ss_out *o;
    uint64_t now = net->now;
    sa_age_arrive(&net->clk[r], &net->p.age, in_port, (int)v, &pk->age_field);
    ss_route(net, r, in_port, (int)v, pk->dst, &op, &ovc);
    pk->in_port = (uint8_t)in_port;
    pk->out_port = (uint8_t)op;
    pk->out_vc = (uint8_t)ovc;
    pk->t_hop = now;
    pk->state = SS_IN_INPUT;
    /* Behind other packets: wait in the input FIFO. */
    if (q->head != SIM_NIL) { sim_fifo_push(q, net->pool.pkt, pi); return; }
    /* At the head: move it to its staging buffer now.  Doing it here rather
     * than in the move phase of the cycle changes nothing (a staging buffer
     * has one feeding FIFO and its room is released by time, not by event)
     * and saves a pass over the work list; a packet that moves at once
     * never enters the (empty) input FIFO. */
    if (op == in_port) sim_die("routing asked for a 180-degree turn");
    oi = r * SS_PORTS + (uint32_t)op;
    c = (uint32_t)ss_source_of(in_port, op) * SS_VCS + v;
    o = &net->out[oi];
    if (!ss__stage_fits(net, o, c, pk, qi, now)) { sim_fifo_push(q, net->pool.pkt, pi); return; }
    pk->next = SIM_NIL;
    ss__stage_commit(net, r, (uint32_t)in_port, v, oi, o, c, pi, pk, now);
}

/* Output arbitration of output oi at the current cycle (Procedure 2). */
static inline void ss__arbitrate(ss_net *net, uint32_t oi) {
    ss_out *o = &net->out[oi];
    uint32_t r = o->router, op = o->port;
    uint64_t now = net->now, next_ready = SS_NEVER;
    uint64_t eligible = 0;
    uint32_t m = o->occupied, ready_blocked = 0;
    uint8_t ages[SS_CANDS];
    sim_packet *pkt = net->pool.pkt;
    const sa_age_clock *clk = &net->clk[r];
    sa_grant g;
    uint32_t pi, c, to = SIM_NIL;
    sim_packet *pk;
    unsigned ser, flits;
    if (m == 0) return;
    if (o->link_free > now) { ss__wake_out(net, oi, o->link_free); return; }
    while (m) {
        int cc = sim_ctz64(m);
        const ss_cand *k = &o->cand[cc];
        m &= m - 1;
        if (!(o->ready_seen & (1u << cc))) {
            uint64_t rt = ss__head_ready(o, (uint32_t)cc, now);
            if (rt > now) { if (rt < next_ready) next_ready = rt; continue; }
            o->ready_seen |= 1u << cc;
        }
        if (o->credits[k->vc] < net->p.credit_threshold) { ready_blocked = 1; continue; }
        eligible |= (uint64_t)1 << cc;
        ages[cc] = (uint8_t)sa_age_at_head(clk, k->age);
    }
    if (eligible == 0) {
        if (ready_blocked && o->stall_since == SS_NEVER) o->stall_since = now;
        if (next_ready != SS_NEVER) ss__wake_out(net, oi, next_ready);
        return;   /* credit returns wake the port */
    }
    if (o->stall_since != SS_NEVER) { o->stalled += now - o->stall_since; o->stall_since = SS_NEVER; }
    ss__settle_drain(o, now);
    if ((eligible & (eligible - 1)) == 0) {
        /* One eligible candidate: it wins under either policy, so only the
         * arbiter's state update is needed.  The policy that update records
         * is sa_output_select's: age-based when the clock is not inhibited
         * and AGE_RR_SELECT bit grant_counter is 1, else round-robin. */
        c = (uint32_t)sim_ctz64(eligible);
        g.candidate = (int)c;
        g.policy = (!clk->inhibit && ((net->p.age.age_rr_select >> o->arb.grant_counter) & 1u))
                 ? SA_POLICY_AGE : SA_POLICY_ROUND_ROBIN;
        sa_output_update(&o->arb, &g);
    } else {
        sa_output_arbitrate(&o->arb, &net->p.age, clk, eligible, ages, &g);
        c = (uint32_t)g.candidate;
        /* how the grant was decided (for the counters below) */
        ss_arb_count *ac = &net->arb_count[oi];
        ac->multi++;
        if (g.policy == SA_POLICY_AGE) {
            uint64_t m2 = eligible;
            unsigned top = 0, at_top = 0;
            while (m2) {
                int cc = sim_ctz64(m2);
                m2 &= m2 - 1;
                if (ages[cc] > top) { top = ages[cc]; at_top = 1; }
                else if (ages[cc] == top) at_top++;
            }
            if (at_top > 1) { ac->tie++; if (top == SA_MAX_AGE) ac->tie255++; }
        } else ac->rr++;
    }
    pi = sim_fifo_pop(&o->cand[c].q, pkt);
    pk = &pkt[pi];
    if (o->cand[c].q.head == SIM_NIL) o->occupied &= ~(1u << c);
    else ss__set_head_behind(o, c, pk, &pkt[o->cand[c].q.head], now, (uint32_t)net->p.router_delay);
    if (sa_age_depart(&net->clk[r], &pk->age_field) != SA_OK) sim_die("age packet count underflow");
    sa_age_histogram_record(o->age_group, pk->age_field);
    o->pkts[pk->out_vc]++;
    if (op != SS_PROC) {
        uint64_t q = now - pk->t_hop - (uint64_t)net->p.router_delay;
        net->qdelay[op / 2] += q;
        ser = pk->size;
        o->credits[pk->out_vc] = (uint16_t)(o->credits[pk->out_vc] - pk->size);
        pk->vc = pk->out_vc;
        pk->hops++;
        pk->state = SS_ON_LINK;
        if (ss_owns(net, (uint32_t)o->nbr))
            ss__at_router(net, (uint32_t)o->nbr, now + (uint64_t)net->p.link_delay, pi,
                         SIM_EV_B(SS_EV_ARRIVE, (uint32_t)o->nbr * 8u + (op ^ 1u)));
        else to = (uint32_t)o->nbr;   /* handed over below, when pk is no longer read */
    } else {
        ser = net->eject_cycles[pk->size];
        pk->state = SS_EJECTING;
        ss__at(net, now + ser, pi, SIM_EV_B(SS_EV_DELIVER, 0));
    }
    flits = pk->size;
    if (to != SIM_NIL)
        ss__export(net, to, now + (uint64_t)net->p.link_delay, pi, SIM_EV_B(SS_EV_ARRIVE, to * 8u + (op ^ 1u)));
    o->link_free = now + ser;
    o->drain_c = (int8_t)c;
    o->drain_flits = (uint8_t)flits;
    if (o->blocked & (1u << c)) {      /* wake the input FIFO waiting for room */
        uint32_t in_port = (uint32_t)ss_input_of((int)(c / SS_VCS), (int)op);
        o->blocked &= ~(1u << c);
        ss__at(net, o->link_free, (r * SS_PORTS + in_port) * SS_VCS + c % SS_VCS,
                     SIM_EV_B(SS_EV_WAKE_IN, 0));
    }
    /* Wake again when the link is free, if a packet is ready by then or
     * (for the stall counter) one is waiting for credits; a head that is
     * not ready yet asks for its own ready cycle; credits wake the rest. */
    if (!o->occupied) return;
    if ((eligible & ~((uint64_t)1 << c)) || ready_blocked) { ss__wake_out(net, oi, o->link_free); return; }
    if (o->occupied & (1u << c)) {
        if (o->ready_seen & (1u << c)) { if (o->credits[o->cand[c].vc] >= net->p.credit_threshold) next_ready = now; }
        else { uint64_t rt = ss__head_ready(o, c, now); if (rt < next_ready) next_ready = rt; }
    }
    if (next_ready != SS_NEVER) ss__wake_out(net, oi, next_ready > o->link_free ? next_ready : o->link_free);
}

/* The processor interface of router r injects its next packet if it can. */
static inline void ss__inject(ss_net *net, uint32_t r) {
    ss_nic *c = &net->nic[r];
    uint64_t now = net->now;
    uint32_t pi;
    sim_packet *pk;
    if (c->srcq.head == SIM_NIL) return;
    if (c->inj_free > now) { ss__wake_nic(net, r, c->inj_free); return; }
    pk = &net->pool.pkt[c->srcq.head];
    if (c->credits[pk->vc] < pk->size) return;   /* NIC_CREDIT wakes it */
    pi = sim_fifo_pop(&c->srcq, net->pool.pkt);
    c->srcq_len--;
    c->credits[pk->vc] = (uint16_t)(c->credits[pk->vc] - pk->size);
    c->inj_free = now + pk->size;
    pk->t_inject = now;
    net->injected++;
    ss__arrive(net, r, SS_PROC, pi);
    if (c->srcq.head != SIM_NIL) ss__wake_nic(net, r, c->inj_free);
}

/* A packet's tail reaches the processor. */
static inline void ss__deliver(ss_net *net, uint32_t pi) {
    sim_packet *pk = &net->pool.pkt[pi];
    uint64_t now = net->now;
    net->delivered++;
    sim_window_deliver(&net->st, pk, now);
    if (net->on_deliver) net->on_deliver(net->on_deliver_ctx, pk, now);
    sim_pool_release(&net->pool, pi);
}

/* Generate this cycle's packets at nodes r0..r1-1 (Bernoulli per node). */
static inline void ss__generate(ss_net *net, uint32_t r0, uint32_t r1) {
    uint32_t r;
    const sim_traffic *t = &net->traffic;
    uint64_t th = net->inj_threshold;
    if (th == 0) return;
    for (r = r0; r < r1; r++) {
        uint32_t dst, pi;
        sim_packet *pk;
        ss_nic *c;
        sim_rng *rng = &net->rng[r];
        int rsp;
        dst = sim_traffic_draw(t, &net->shape, r, rng, th, &net->nic[r].srcq_len);
        if (dst == SIM_NIL || !ss_pair_ok(net, r, dst)) continue;
        c = &net->nic[r];
        pi = sim_pool_alloc(&net->pool);
        pk = &net->pool.pkt[pi];
        pk->src = r;
        pk->dst = dst;
        pk->t_create = net->now;
        pk->size = (uint8_t)sim_traffic_size(t, rng, &rsp);
        pk->vc = rsp ? 2 : 0;
        pk->state = SS_AT_SOURCE;
        sim_fifo_push(&c->srcq, net->pool.pkt, pi);
        c->srcq_len++;
        net->created++;
        net->st.created++;
        if (c->srcq.head == pi) ss__dirty_nic(net, r);
    }
}

/** Add a packet to node src's source queue now (tests and scripted
 *  traffic); vc 0 for a request, 2 for a response.  Returns its index
 *  (its tag field is 0; set it before the next ss_step). */
static inline uint32_t ss_send(ss_net *net, uint32_t src, uint32_t dst, int size, int vc) {
    uint32_t pi;
    sim_packet *pk;
    ss_nic *c = &net->nic[src];
    if (src == dst || src >= net->n || dst >= net->n || !ss_pair_ok(net, src, dst) || !ss_owns(net, src))
        sim_die("ss_send: bad, failed, unroutable or another part's source or destination");
    if (net->in_step && net->blocks > 1)
        sim_die("ss_send during a step (from on_deliver) needs one block: set ss_params.block_routers to 0");
    pi = sim_pool_alloc(&net->pool);
    pk = &net->pool.pkt[pi];
    pk->src = src; pk->dst = dst;
    pk->t_create = net->now;
    pk->size = (uint8_t)size;
    pk->vc = (uint8_t)vc;
    pk->state = SS_AT_SOURCE;
    sim_fifo_push(&c->srcq, net->pool.pkt, pi);
    c->srcq_len++;
    net->created++;
    net->st.created++;
    if (c->srcq.head == pi) ss__dirty_nic(net, src);
    return pi;
}

/* SS__PREFETCH(p, rw) asks the cache for the line at p (for writing if
 * rw is 1) where the compiler offers prefetch hints, and does nothing
 * elsewhere.  The prefetch helpers below (SS__PREFETCHER) are always
 * inlined: a function whose only effect is __builtin_prefetch looks free of
 * side effects to GCC, which then deletes the calls to it before inlining
 * them, and with them the prefetches. */
#if defined(__GNUC__)
#define SS__PREFETCHER static inline __attribute__((always_inline)) void
#define SS__PREFETCH(p, rw) __builtin_prefetch((p), (rw))
#else
#define SS__PREFETCHER static inline void
#define SS__PREFETCH(p, rw) ((void)(p))
#endif

/** How far ahead the event loop and the move and arbitration work lists
 *  prefetch: a first stage this many entries ahead of the one being
 *  handled, a second stage half as far and a third a quarter as far (each
 *  stage reads what the one before asked for). */
#ifndef SS_PREFETCH_AHEAD
#define SS_PREFETCH_AHEAD 8
#endif

/* The output port op of router r and the staging buffer there of input
 * port in_port and VC v. */
SS__PREFETCHER ss__prefetch_staging(const ss_net *net, uint32_t r, int in_port, int op, uint32_t v) {
    const ss_out *o = &net->out[r * SS_PORTS + (uint32_t)op];
    SS__PREFETCH(o, 1);
    SS__PREFETCH(&o->cand[(uint32_t)ss_source_of(in_port, op) * SS_VCS + v], 1);
}

/* Ask the cache for the state an event will touch: the packet of an
 * arrival or delivery, the output port of a wake-up or a credit, the
 * input FIFO (and its work-list mark) of an input wake-up.  A hint
 * only (no effect on results); the events of one cycle touch routers all
 * over the network, so their state is rarely in the nearest caches. */
SS__PREFETCHER ss__prefetch_event(const ss_net *net, sim_event e) {
    uint32_t t = SIM_EV_TYPE(e);
    if (t == SS_EV_ARRIVE || t == SS_EV_DELIVER) SS__PREFETCH(&net->pool.pkt[e.a], 1);
    else if (t == SS_EV_WAKE_OUT || t == SS_EV_CREDIT) SS__PREFETCH(&net->out[e.a], 1);
    else if (t == SS_EV_WAKE_IN) {
        SS__PREFETCH(&net->in_dirty[e.a], 1);
        SS__PREFETCH(&net->inq[e.a], 1);
    }
}

/* Second stage for an arrival (its packet was asked for earlier): the
 * routing table entry sr_table_lookup will read (the GLUT entry of the
 * destination's partition, or the LUT entry within the router's own), the
 * input FIFO and the router's age clock. */
SS__PREFETCHER ss__prefetch_arrival(const ss_net *net, sim_event e) {
    if (SIM_EV_TYPE(e) == SS_EV_ARRIVE) {
        const sim_packet *pk = &net->pool.pkt[e.a];
        uint32_t pay = SIM_EV_PAYLOAD(e), r = pay >> 3, in_port = pay & 7u, dst = pk->dst;
        const sr_topology *t = &net->topo;
        const uint8_t *tab = net->tables + (size_t)r * t->table_size
                           + (size_t)(in_port == SS_PROC ? (uint32_t)t->proc_port : in_port) * t->table_stride;
        uint32_t part = dst >> SR_PARTITION_SHIFT;
        SS__PREFETCH(part != (r >> SR_PARTITION_SHIFT) ? tab + part
                           : tab + SR_GLUT_ENTRIES + (dst & (SR_LUT_ENTRIES - 1)), 0);
        SS__PREFETCH(&net->inq[(r * SS_PORTS + in_port) * SS_VCS + pk->vc], 1);
        SS__PREFETCH(&net->clk[r], 1);
    }
}

/* Third stage for an arrival (packet and table entry asked for earlier):
 * the output port it is routed to and the staging buffer it moves to. */
SS__PREFETCHER ss__prefetch_route(const ss_net *net, sim_event e) {
    if (SIM_EV_TYPE(e) == SS_EV_ARRIVE) {
        const sim_packet *pk = &net->pool.pkt[e.a];
        uint32_t pay = SIM_EV_PAYLOAD(e), r = pay >> 3;
        int in_port = (int)(pay & 7u), op;
        const sr_topology *t = &net->topo;
        op = sr_entry_port(sr_table_lookup(t, net->tables + (size_t)r * t->table_size, r,
                                           in_port == SS_PROC ? t->proc_port : in_port, pk->dst));
        if (op == t->proc_port) op = SS_PROC;
        else if (op >= 2 * t->num_dims || op == in_port) return;   /* ss__arrive reports it */
        ss__prefetch_staging(net, r, in_port, op, pk->vc);
    }
}

/* Second stage for an output on the arbitration work list (its first
 * line was asked for earlier): the lines of its occupied staging buffers,
 * its counters, its router's age clock. */
SS__PREFETCHER ss__prefetch_arb(const ss_net *net, uint32_t oi) {
    const ss_out *o = &net->out[oi];
    uint32_t m = o->occupied, l;
    if (m == 0) return;
    for (l = 0; l < SS_CANDS / 4; l++)
        if ((m >> (4 * l)) & 15u) SS__PREFETCH(&o->cand[4 * l], 1);
    SS__PREFETCH(&o->stall_since, 1);
    SS__PREFETCH(&net->clk[o->router], 1);
    if (m & (m - 1)) SS__PREFETCH(&net->arb_count[oi], 1);
}

/* Third stage (its staging buffers' lines were asked for earlier): the
 * head packets of up to two of them (the grant takes one out). */
SS__PREFETCHER ss__prefetch_arb_heads(const ss_net *net, uint32_t oi) {
    const ss_out *o = &net->out[oi];
    uint32_t m = o->occupied, k;
    for (k = 0; m && k < 2; k++) {
        int c = sim_ctz64(m);
        m &= m - 1;
        SS__PREFETCH(&net->pool.pkt[o->cand[c].q.head], 1);
    }
}

/* First stage for an input FIFO on the move work list (the FIFO was asked
 * for by its wake-up event): its head packet. */
SS__PREFETCHER ss__prefetch_move(const ss_net *net, uint32_t qi) {
    uint32_t pi = net->inq[qi].head;
    if (pi != SIM_NIL) SS__PREFETCH(&net->pool.pkt[pi], 1);
}

/* Second stage (its head packet was asked for earlier): the output port
 * and the staging buffer the packet moves to. */
SS__PREFETCHER ss__prefetch_move_out(const ss_net *net, uint32_t qi) {
    uint32_t pi = net->inq[qi].head, r = qi / (SS_PORTS * SS_VCS), in_port = (qi / SS_VCS) % SS_PORTS;
    const sim_packet *pk;
    if (pi == SIM_NIL) return;
    pk = &net->pool.pkt[pi];
    if (pk->out_port == in_port || pk->out_port >= SS_PORTS) return;   /* ss__try_move_at reports it */
    ss__prefetch_staging(net, r, (int)in_port, pk->out_port, qi % SS_VCS);
}

/* One cycle (net->now) of the routers of block b: 1. their events due
 * now, in the order they were scheduled; 2. new packets; 3. injection;
 * 4. input buffers to staging buffers; 5. output arbitration;
 * 6. Procedure 3. */
static inline void ss__block_cycle(ss_net *net, uint32_t b) {
    sim_wheel *w = &net->wheels[b];
    sim_slot *s = sim_wheel_current(w);
    uint64_t now = net->now;
    uint32_t i, r, *nic = net->work_nic + (size_t)b * net->nic_cap;
    uint32_t r0 = (net->block0 + b) << net->block_shift, r1 = (net->block0 + b + 1) << net->block_shift;
    if (r0 < net->r_lo) r0 = net->r_lo;   /* the part's first and last blocks may be cut */
    if (r1 > net->r_hi) r1 = net->r_hi;
    for (i = 0; i < s->n; i++) {
        sim_event e = s->ev[i];
        if (i + SS_PREFETCH_AHEAD < s->n) ss__prefetch_event(net, s->ev[i + SS_PREFETCH_AHEAD]);
        if (i + SS_PREFETCH_AHEAD / 2 < s->n) ss__prefetch_arrival(net, s->ev[i + SS_PREFETCH_AHEAD / 2]);
        if (i + SS_PREFETCH_AHEAD / 4 < s->n) ss__prefetch_route(net, s->ev[i + SS_PREFETCH_AHEAD / 4]);
        uint32_t pay = SIM_EV_PAYLOAD(e);
        switch (SIM_EV_TYPE(e)) {
        case SS_EV_ARRIVE: ss__arrive(net, pay >> 3, (int)(pay & 7u), e.a); break;
        case SS_EV_WAKE_OUT:
            if (net->out[e.a].next_wake == now) { net->out[e.a].next_wake = SS_NEVER; ss__dirty_out(net, e.a); }
            break;
        case SS_EV_CREDIT: {
            /* Only a return that lifts the VC to the threshold can make a
             * candidate eligible; above it, a busy link or a not-yet-ready
             * head already has its own wake-up. */
            ss_out *o = &net->out[e.a];
            unsigned before = o->credits[pay & 3u];
            o->credits[pay & 3u] = (uint16_t)(before + (pay >> 2));
            if (o->occupied && before < (unsigned)net->p.credit_threshold &&
                o->credits[pay & 3u] >= net->p.credit_threshold)
                ss__dirty_out(net, e.a);
            break;
        }
        case SS_EV_NIC_CREDIT:
            net->nic[e.a].credits[pay & 3u] = (uint16_t)(net->nic[e.a].credits[pay & 3u] + (pay >> 2));
            if (net->nic[e.a].srcq.head != SIM_NIL) ss__dirty_nic(net, e.a);
            break;
        case SS_EV_DELIVER: ss__deliver(net, e.a); break;
        case SS_EV_WAKE_NIC:
            if (net->nic[e.a].next_wake == now) { net->nic[e.a].next_wake = SS_NEVER; ss__dirty_nic(net, e.a); }
            break;
        case SS_EV_WAKE_IN: ss__dirty_in(net, e.a); break;
        default: sim_die("unknown event");
        }
    }
    w->pending -= s->n;
    s->n = 0;
    ss__generate(net, r0, r1);
    for (i = 0; i < net->n_nic[b]; i++) ss__inject(net, nic[i]);
    net->n_nic[b] = 0;
    for (i = 0; i < net->n_in; i++) {
        if (i + SS_PREFETCH_AHEAD / 2 < net->n_in) ss__prefetch_move(net, net->work_in[i + SS_PREFETCH_AHEAD / 2]);
        if (i + SS_PREFETCH_AHEAD / 4 < net->n_in) ss__prefetch_move_out(net, net->work_in[i + SS_PREFETCH_AHEAD / 4]);
        ss__try_move(net, net->work_in[i]);
    }
    net->n_in = 0;
    for (i = 0; i < net->n_out; i++) {
        if (i + SS_PREFETCH_AHEAD < net->n_out) SS__PREFETCH(&net->out[net->work_out[i + SS_PREFETCH_AHEAD]], 1);
        if (i + SS_PREFETCH_AHEAD / 2 < net->n_out) ss__prefetch_arb(net, net->work_out[i + SS_PREFETCH_AHEAD / 2]);
        if (i + SS_PREFETCH_AHEAD / 4 < net->n_out) ss__prefetch_arb_heads(net, net->work_out[i + SS_PREFETCH_AHEAD / 4]);
        net->out[net->work_out[i]].dirty = 0;
        ss__arbitrate(net, net->work_out[i]);
    }
    net->n_out = 0;
    for (r = r0; r < r1; r++) sa_age_tick(&net->clk[r]);
    w->now++;
}

/* Simulate cycles now..now+len-1 (len <= lookahead), a block at a time:
 * every block's len cycles before the next block's.  A router affects
 * another only through an arrival or a credit, due at least lookahead
 * cycles after it was sent, so no block's window needs an event another
 * block sends in the same window, and the results are those of a cycle
 * at a time.  A block's routers keep their lines in the cache over the
 * window, where a cycle of the whole of a large network would push them
 * out before the next cycle comes back to them. */
static inline void ss__window(ss_net *net, uint64_t len) {
    uint64_t t0 = net->now, i;
    uint32_t b;
    net->in_step = 1;
    for (b = 0; b < net->blocks; b++) {
        net->cur = b;
        for (i = 0; i < len; i++) {
            net->now = t0 + i;
            ss__block_cycle(net, b);
        }
    }
    net->cur = 0;
    net->now = t0 + len;
    net->in_step = 0;
}

/** Simulate one cycle. */
static inline void ss_step(ss_net *net) { ss__window(net, 1); }

/** Packets generated and not yet delivered (source queues + network): of
 *  this part, those it holds (created + imported - delivered - exported);
 *  after ss_gather, of the whole network. */
static inline uint64_t ss_in_flight(const ss_net *net) {
    return net->created + net->imported - net->delivered - net->exported;
}

/* The copies of the arbitration fields of the packets in staging buffer c
 * of output o: the head's in the output port (ss_cand; ready_seen only for
 * a head whose ready cycle has passed), each other packet's in the packet
 * ahead of it (sim_packet.behind_vc).  NULL when they all match. */
static inline const char *ss__audit_staging(const ss_net *net, const ss_out *o, uint32_t c) {
    const sim_packet *pk = net->pool.pkt;
    const ss_cand *k = &o->cand[c];
    uint32_t h = k->q.head, j;
    if (h == SIM_NIL) return (o->occupied >> c) & 1u ? "an empty staging buffer is marked occupied" : NULL;
    if (!((o->occupied >> c) & 1u)) return "a staging buffer with packets is not marked occupied";
    if (k->age != pk[h].age_field || k->vc != pk[h].out_vc || k->ready != (uint32_t)pk[h].t_ready ||
        (((o->ready_seen >> c) & 1u) && pk[h].t_ready > net->now))
        return "a staging head's copied arbitration fields differ from its packet's";
    for (j = h; pk[j].next != SIM_NIL; j = pk[j].next) {
        const sim_packet *n = &pk[pk[j].next];
        if (pk[j].behind_vc != n->out_vc || pk[j].behind_age != n->age_field ||
            pk[j].behind_ready != (uint32_t)n->t_ready)
            return "a staged packet's note of the packet behind it differs from that packet";
    }
    return NULL;
}

/** The conservation audit: walks every queue and every pending event and
 *  checks that each live packet is found exactly once, in the state its
 *  location says, and that created + imported = delivered + exported +
 *  in flight (of this part; with one part nothing is imported or
 *  exported), and that the arbitration fields copied from the staged
 *  packets (ss_cand, sim_packet.behind_vc) match them.  Call it at a
 *  hand-over, when the outboxes are empty.
 *  Returns NULL or a message describing the first violation. */
static inline const char *ss_audit(ss_net *net) {
    uint32_t i, r;
    sim_audit a;
    sim_audit_begin(&a, &net->pool);
    for (r = net->r_lo; r < net->r_hi && !a.err; r++) {
        if (!sim_audit_fifo(&a, &net->nic[r].srcq, SS_AT_SOURCE)) break;
        for (i = 0; i < SS_PORTS * SS_VCS; i++)
            if (!sim_audit_fifo(&a, &net->inq[(size_t)r * SS_PORTS * SS_VCS + i], SS_IN_INPUT)) break;
        for (i = 0; i < SS_PORTS * SS_CANDS && !a.err; i++) {
            const ss_out *o = &net->out[r * SS_PORTS + i / SS_CANDS];
            if (sim_audit_fifo(&a, &o->cand[i % SS_CANDS].q, SS_IN_STAGING)) a.err = ss__audit_staging(net, o, i % SS_CANDS);
        }
    }
    for (r = 0; r < net->blocks && !a.err; r++)
        sim_audit_wheel(&a, &net->wheels[r], SS_EV_ARRIVE, SS_ON_LINK, SS_EV_DELIVER, SS_EJECTING);
    return sim_audit_report(&a, net->now, net->created, net->delivered, net->created + net->imported,
                            net->delivered + net->exported);
}

/** Summary of a measurement window (ss_summarize): the figures every
 *  model reports, and the SeaStar router's own. */
typedef struct ss_summary {
    sim_summary w;              /**< offered and accepted load, latencies,
                                     hops, per-source bandwidth */
    double qdelay[3];           /**< mean queueing per packet in x, y, z */
    double occupancy[SS_PORTS]; /**< Eq 17 per port direction: stalled
                                     cycles / (VC0 + VC1 packets), summed
                                     over all routers */
    uint64_t stalled[SS_PORTS]; /**< stalled cycles per port direction */
    uint64_t req_pkts[SS_PORTS];/**< VC0 + VC1 packets per port direction */
    uint64_t age_hist[4];       /**< RTR_AGE_GROUP buckets over all network
                                     output ports (0-63, 64-127, ...) */
    uint64_t age_hist_port[SS_PORTS][4]; /**< the same per port direction
                                     (summed over routers) */
    double src_min, src_max;    /**< smallest / largest per-source delivered
                                     flits per cycle among sending sources */
    double src_jain;            /**< Jain's index of per-source bandwidth */
    uint64_t in_flight;         /**< packets generated, not yet delivered */
    uint64_t arb_multi;         /**< grants among two or more candidates */
    double tie_frac;            /**< share of them decided age-based by a tie
                                     at the largest age */
    double tie255_frac;         /**< share of them tied at age 255 */
    double rr_frac;             /**< share of them decided round-robin */
} ss_summary;

/* Sum, maximum or minimum of v[0..n) over the parts. */
static inline void ss__reduce(ss_net *net, uint64_t *v, size_t n, int op) {
    if (net->reduce && net->parts > 1) net->reduce(net->reduce_ctx, v, n, op);
}

/** Make this part's window statistics (net->st, net->qdelay) and packet
 *  totals (created, delivered, imported, exported) those of the whole
 *  network: sums over the parts, through net->reduce, which every part
 *  must call at the same cycle.  With one part it changes nothing.  The
 *  simulation must not go on after it, as each part then holds the
 *  others' counts too. */
static inline void ss_gather(ss_net *net) {
    uint64_t v[7];
    if (!(net->reduce && net->parts > 1)) return;
    v[0] = net->qdelay[0]; v[1] = net->qdelay[1]; v[2] = net->qdelay[2];
    v[3] = net->created; v[4] = net->delivered; v[5] = net->imported; v[6] = net->exported;
    ss__reduce(net, v, 7, SIM_REDUCE_SUM);
    net->qdelay[0] = v[0]; net->qdelay[1] = v[1]; net->qdelay[2] = v[2];
    net->created = v[3]; net->delivered = v[4]; net->imported = v[5]; net->exported = v[6];
    sim_window_gather(&net->st, net->reduce, net->reduce_ctx);
}

/** Summarise the window from its start to now.  The sources counted in the
 *  per-source figures are those that delivered anything or, if none did,
 *  all nodes.  With several parts every part must call it at the same
 *  cycle: it gathers the statistics (ss_gather) and then each part holds
 *  the whole network's summary. */
static inline void ss_summarize(ss_net *net, ss_summary *s) {
    const ss_stats *st = &net->st;
    uint64_t tally[SS_PORTS * 6 + 4];
    uint32_t r;
    int d, b;
    memset(s, 0, sizeof *s);
    ss_stats_close(net);
    ss_gather(net);
    sim_window_summarize(st, net->now, net->traffic.load, &s->w);
    for (d = 0; d < 3; d++) s->qdelay[d] = st->delivered ? (double)net->qdelay[d] / (double)st->delivered : 0;
    /* The per-port counters of this part's routers, summed over the parts:
     * tally holds stalled, request packets and the four age buckets per
     * port direction, then multi, tie, tie255 and rr. */
    memset(tally, 0, sizeof tally);
    for (r = net->r_lo; r < net->r_hi; r++)
        for (d = 0; d < SS_PORTS; d++) {
            const ss_out *o = &net->out[r * SS_PORTS + d];
            const ss_arb_count *ac = &net->arb_count[r * SS_PORTS + d];
            tally[6 * d] += o->stalled;
            tally[6 * d + 1] += o->pkts[0] + o->pkts[1];
            for (b = 0; b < 4; b++) tally[6 * d + 2 + b] += sa_age_histogram_bucket(o->age_group, b);
            tally[6 * SS_PORTS] += ac->multi;
            tally[6 * SS_PORTS + 1] += ac->tie;
            tally[6 * SS_PORTS + 2] += ac->tie255;
            tally[6 * SS_PORTS + 3] += ac->rr;
        }
    ss__reduce(net, tally, sizeof tally / sizeof tally[0], 0);
    for (d = 0; d < SS_PORTS; d++) {
        s->stalled[d] = tally[6 * d];
        s->req_pkts[d] = tally[6 * d + 1];
        for (b = 0; b < 4; b++) {
            s->age_hist_port[d][b] = tally[6 * d + 2 + b];
            if (d != SS_PROC) s->age_hist[b] += tally[6 * d + 2 + b];
        }
    }
    s->arb_multi = tally[6 * SS_PORTS];
    s->tie_frac = (double)tally[6 * SS_PORTS + 1];
    s->tie255_frac = (double)tally[6 * SS_PORTS + 2];
    s->rr_frac = (double)tally[6 * SS_PORTS + 3];
    if (s->arb_multi) {
        s->tie_frac /= (double)s->arb_multi;
        s->tie255_frac /= (double)s->arb_multi;
        s->rr_frac /= (double)s->arb_multi;
    }
    for (d = 0; d < SS_PORTS; d++)
        if (sa_occupancy(s->stalled[d], s->req_pkts[d], 0, &s->occupancy[d]) != SA_OK) s->occupancy[d] = 0;
    s->in_flight = ss_in_flight(net);
}

/** Run cycles cycles, counting each cycle of each router (router-cycles)
 *  in progress (NULL: none); label says what runs in the progress lines.
 *  A network in blocks runs in windows that end at the multiples of
 *  lookahead (and at the end of the call), a block at a time.  With
 *  several parts, it hands events over (net->exchange) every lookahead
 *  cycles and when it returns, so the outboxes are then empty. */
static inline void ss_run(ss_net *net, uint64_t cycles, sim_progress *progress, const char *label) {
    uint64_t c, len;
    int parted = net->exchange && net->parts > 1;
    for (c = 0; c < cycles; c += len) {
        /* up to the next multiple of lookahead: a window */
        len = net->lookahead - net->now % net->lookahead;
        if (len > cycles - c) len = cycles - c;
        ss__window(net, len);
        if (parted && net->now % net->lookahead == 0 && c + len < cycles) net->exchange(net->exchange_ctx, net);
        sim_progress_add(progress, (double)net->n * (double)len, label);
    }
    if (parted) net->exchange(net->exchange_ctx, net);
}

#endif /* SEASTAR_NET_H */
