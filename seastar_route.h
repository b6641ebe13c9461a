/* SPDX-License-Identifier: MIT */
/* seastar_route.h - routing over the networks of seastar_topo.h: routing
 * as candidate sets for every topology, with deadlock proofs; dimension-
 * order routing, SeaStar routing tables, fault-aware table generation and
 * verification, header-only C.
 *
 * Part of seastar: a reference implementation of interconnection-network
 * router algorithms.  This header is the one to include for networks and
 * routing; it includes seastar_topo.h (the network descriptions: k-ary
 * n-cubes, HyperX, dragonflies, folded Clos networks, butterflies; the
 * limits and result codes) and holds
 *
 *   1. dimension-order routing (x, then y, then z, ...) with dateline
 *      virtual channels: VC0->VC1 and VC2->VC3 across a dateline
 *      (seed 000 Section 1.1, seed 001 "Routing") (>>dor);
 *   2. the SeaStar hierarchical routing tables: one table per input port,
 *      an 8-entry global table (GLUT) indexed by destination[14:12] and a
 *      local table (LUT) indexed by destination[11:0] (seed 001, seed 004
 *      Chapter 8.2.2 and 8.2.4) (>>tables);
 *   3. fault-aware table generation: the SeaStar rules for X, Y and Z links
 *      (seed 001), with the datelines placed from the fault set (>>xtrules),
 *      and a search-based generator that goes beyond them, routing every
 *      connected pair it can under a deadlock-free turn discipline
 *      (>>search); both prove their tables before they return SR_OK;
 *   4. a verifier of tables that proves or refutes delivery of every pair
 *      and the absence of cycles in the channel dependency graph (Dally and
 *      Seitz) (>>verify);
 *   5. routing as candidate sets over any sr_net (>>candidates, >>routing):
 *      dimension order, minimal adaptive with escape channels, the
 *      dragonfly's minimal routing, Valiant, UGAL, PAR, up/down, destination
 *      tags (seed 004 Chapter 5), and routings of the caller's own;
 *   6. a verifier of candidate-set routing: delivery, and deadlock freedom
 *      by Dally and Seitz or, with escape channels, Duato's condition, for
 *      cut-through and wormhole switching, with a witness when it fails
 *      (>>rverify);
 *   7. BlueGene/L's hint-bit routing with the bubble (or dateline-pair)
 *      escape channel and its token flow control with the bubble rules
 *      (seed 003) (>>bluegene).
 *
 * Usage, in order (see docs/routing.rst and docs/routing-beyond.rst):
 *
 *   sr_topology_desc d = {0};                 // zero = torus, dateline 0
 *   sr_topology t;
 *   d.num_dims = 3; d.radix[0] = d.radix[1] = d.radix[2] = 8;
 *   if (sr_topology_init(&t, &d) != SR_OK) ...;
 *
 *   // the routing function: (node, input port, destination, VC)
 *   sr_route r = sr_route_dor(&t, node, t.proc_port, dest, 0);
 *   // r.port is the output port (t.proc_port = eject), r.vc the new VC
 *
 *   // the same routes as SeaStar tables, one router at a time
 *   size_t bytes = sr_table_size(&t);        // per router, all input ports
 *   uint8_t *tab = malloc(bytes);
 *   sr_table_build_dor(&t, node, tab, bytes);
 *   sr_entry e = sr_table_lookup(&t, tab, node, in_port, dest);
 *   int out_port = sr_entry_port(e), out_vc = sr_entry_vc(e, in_vc);
 *
 *   // whole-network tables (N * bytes) can be checked by sr_verify, and
 *   // generated around faults by sr_tables_build_seastar (_opt: options)
 *   // or sr_tables_build_search.
 *
 *   // any network, any algorithm: candidates for a header the packet
 *   // carries, then the header after the hop taken
 *   sr_routing rt;                            // from sr_net and sr_routing_desc
 *   sr_routing_init(&rt, &net, &rdesc);
 *   sr_route_header_init(&rt, src, dest, sr_route_inter_pick(&rt, rnd), &h);
 *   sr_route_candidates(&rt, router, in_port, in_vc, &h, cand, cap, &n);
 *   sr_route_advance(&rt, router, &cand[chosen], vc, &h);
 *   // and the proof: sr_verify_routing(&rt, SR_SWITCH_VCT, ...)
 *
 * Sections (search for the tag): >>faults >>dor >>tables >>verify
 * >>generators >>search >>xtrules >>candidates >>routing >>rverify
 * >>bluegene.
 *
 * Ports of a cube (sr_topology): for dimension d, port 2d is "+d" (towards
 * coordinate c+1) and port 2d+1 is "-d"; port 2n (t.proc_port) is the
 * processor port.  An input port is named after the link it is attached
 * to: a packet that arrives on input port 2d came from the neighbour at
 * c+1.  Leaving by the port one arrived on is a 180-degree turn.  The
 * other families' ports: seastar_topo.h, >>net.
 *
 * Overridable macros (define before including):
 *   SR_API       linkage of every function (default: static inline)
 *   SR_ASSERT(c) precondition check on hot paths (default: assert(c))
 *
 * Naming: public functions and types start with sr_, macros with SR_,
 * private helpers with sr__.
 *
 * >>index: every public function of this header, by section (seastar_topo.h
 * has its own)
 *
 *   >>faults     size_t       sr_faults_size(const sr_topology *t)
 *                sr_result    sr_faults_init(sr_faults *f, const sr_topology *t, void *storage, size_t size)
 *                sr_result    sr_fault_link(sr_faults *f, const sr_topology *t, uint32_t node, int port)
 *                sr_result    sr_fault_node(sr_faults *f, const sr_topology *t, uint32_t node)
 *                int          sr_node_ok(const sr_faults *f, uint32_t node)
 *                uint32_t     sr_next_hop(const sr_topology *t, const sr_faults *f, uint32_t node, int port)
 *   >>dor        sr_entry     sr_entry_make(int port, int vc_update)
 *                int          sr_entry_port(sr_entry e)
 *                int          sr_entry_vc_update(sr_entry e)
 *                int          sr_entry_vc(sr_entry e, int in_vc)
 *                sr_entry     sr_dor_entry(const sr_topology *t, uint32_t node, int in_port, uint32_t dest)
 *                sr_route     sr_route_dor(const sr_topology *t, uint32_t node, int in_port, uint32_t dest, int vc)
 *   >>tables     size_t       sr_table_size(const sr_topology *t)
 *                sr_entry     sr_table_lookup(const sr_topology *t, const uint8_t *tables, uint32_t node, int in_port, uint32_t dest)
 *                uint8_t *    sr_table_port(const sr_topology *t, uint8_t *tables, int in_port)
 *                sr_result    sr_table_build_dor(const sr_topology *t, uint32_t node, uint8_t *tables, size_t size)
 *   >>verify     const char * sr_failure_string(sr_failure f)
 *                size_t       sr_verify_scratch_size(const sr_topology *t)
 *                sr_result    sr_verify(const sr_topology *t, const sr_faults *faults, const uint8_t *tables, int flags, void *scratch, size_t scratch_size, sr_verify_report *rep)
 *   >>generators size_t       sr_gen_scratch_size(const sr_topology *t)
 *   >>search     void         sr_order_positive_first(const sr_topology *t, int *order)
 *                sr_result    sr_tables_build_search(const sr_topology *t, const sr_faults *faults, const int *order, uint8_t *tables, size_t tables_size, void *scratch, size_t scratch_size, sr_pair *list, size_t capacity, sr_gen_report *rep)
 *   >>xtrules    void         sr_seastar_datelines(const sr_topology *t, const sr_faults *f, sr_topology *out)
 *                sr_entry     sr_seastar_entry(const sr_topology *t, const sr_faults *f, const sr_seastar_options *opt, uint32_t u, int in_port, uint32_t dst)
 *                sr_result    sr_tables_build_seastar_opt(const sr_topology *t, const sr_faults *faults, const sr_seastar_options *opt, uint8_t *tables, size_t tables_size, void *scratch, size_t scratch_size, sr_pair *list, size_t capacity, sr_gen_report *rep)
 *                sr_result    sr_tables_build_seastar(const sr_topology *t, const sr_faults *faults, uint8_t *tables, size_t tables_size, void *scratch, size_t scratch_size, sr_pair *list, size_t capacity, sr_gen_report *rep)
 *   >>routing    const char * sr_algorithm_name(int alg)
 *                int          sr_routing_vcs_needed(const sr_net *net, const sr_routing_desc *d)
 *                sr_result    sr_routing_init(sr_routing *rt, const sr_net *net, const sr_routing_desc *d)
 *                int          sr_route_max_candidates(const sr_routing *rt)
 *                uint32_t     sr_route_inter_count(const sr_routing *rt)
 *                uint32_t     sr_route_inter_pick(const sr_routing *rt, uint64_t random)
 *                sr_result    sr_route_candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc, const sr_header *h, sr_candidate *out, int cap, int *n)
 *                sr_result    sr_route_candidates_trusted(const sr_routing *rt, uint32_t router, int in_port, int in_vc, const sr_header *h, sr_candidate *out, int cap, int *n)
 *                sr_result    sr_route_advance(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc, sr_header *h)
 *                sr_result    sr_route_advance_trusted(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc, sr_header *h)
 *                sr_result    sr_route_header_init(const sr_routing *rt, uint32_t src, uint32_t dest, uint32_t inter, sr_header *h)
 *                int          sr_route_hops(const sr_routing *rt, uint32_t router, const sr_header *h, int cls)
 *                int          sr_ugal_minimal(uint32_t q_min, int h_min, uint32_t q_nonmin, int h_nonmin, int64_t bias)
 *                uint32_t     sr_route_global_channel(const sr_routing *rt, uint32_t router, const sr_candidate *c, const sr_header *h)
 *                int          sr_route_global_port(const sr_routing *rt, uint32_t channel, uint32_t *router)
 *                int          sr_route_select_by(const sr_candidate *c, int n, unsigned classes, sr_credit_fn credit, const void *ctx, uint64_t random, int *vc)
 *                int          sr_route_select(const sr_candidate *c, int n, unsigned classes, const int32_t *credits, int vcs, uint64_t random, int *vc)
 *   >>rverify    const char * sr_rfailure_string(int f)
 *                size_t       sr_verify_routing_scratch_size(const sr_routing *rt, int mode)
 *                sr_result    sr_verify_routing(const sr_routing *rt, int mode, void *scratch, size_t scratch_size, sr_routing_report *rep)
 *   >>bluegene   sr_result    sr_bgl_config_default(sr_bgl_config *cfg)
 *                sr_result    sr_bgl_config_check(const sr_bgl_config *cfg)
 *                int          sr_bgl_num_vcs(const sr_bgl_config *cfg)
 *                int          sr_bgl_vc_kind(const sr_bgl_config *cfg, int vc)
 *                int          sr_bgl_escape_vc(const sr_bgl_config *cfg, int upper)
 *                int          sr_bgl_priority_vc(const sr_bgl_config *cfg)
 *                int          sr_bgl_vc_chunks(const sr_bgl_config *cfg, int vc)
 *                sr_result    sr_bgl_packet_chunks(int bytes, int *chunks)
 *                sr_result    sr_bgl_cutoffs_minimal(const sr_topology *t, uint32_t node, sr_bgl_cutoffs *c)
 *                sr_result    sr_bgl_cutoffs_check(const sr_topology *t, uint32_t node, const sr_bgl_cutoffs *c)
 *                uint8_t      sr_bgl_hint_bits(const sr_topology *t, uint32_t node, uint32_t dest, const sr_bgl_cutoffs *c)
 *                sr_result    sr_bgl_hint_check(const sr_topology *t, uint32_t node, uint32_t dest, uint8_t hint)
 *                uint8_t      sr_bgl_hint_leave(const sr_topology *t, uint32_t node, int port, uint32_t dest, uint8_t hint)
 *                int          sr_bgl_escape_port(int order, uint8_t hint)
 *                sr_result    sr_bgl_header_init(const sr_topology *t, const sr_bgl_cutoffs *c, uint32_t node, uint32_t dest, unsigned vclass, sr_header *h)
 *                sr_result    sr_bgl_header_check(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, const sr_header *h)
 *                void         sr_bgl_header_advance(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, int port, sr_header *h)
 *                int          sr_bgl_candidates(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, int in_port, int in_vc, const sr_header *h, sr_candidate *out, int max_out)
 *                int          sr_bgl_move_kind(const sr_bgl_config *cfg, int in_port, int in_vc, int out_port, int out_vc)
 *                int          sr_bgl_tokens_needed(const sr_bgl_config *cfg, int vc, int move)
 *                int          sr_bgl_tokens_charged(const sr_bgl_config *cfg, int vc, int chunks)
 *                sr_result    sr_bgl_link_init(const sr_bgl_config *cfg, sr_bgl_link *lk)
 *                sr_result    sr_bgl_link_check(const sr_bgl_config *cfg, const sr_bgl_link *lk)
 *                int          sr_bgl_may_send(const sr_bgl_config *cfg, const sr_bgl_link *lk, int vc, int move)
 *                sr_result    sr_bgl_send(const sr_bgl_config *cfg, sr_bgl_link *lk, int vc, int move, int chunks)
 *                sr_result    sr_bgl_tokens_return(const sr_bgl_config *cfg, sr_bgl_link *lk, int vc, int chunks)
 *                sr_result    sr_bgl_requests(const sr_topology *t, const sr_bgl_config *cfg, const sr_candidate *cand, int num_cand, int in_port, int in_vc, const sr_bgl_link *links, uint64_t *possible, uint64_t *available, int *escape)
 *                sr_result    sr_bgl_custom_routing(const sr_bgl_config *cfg, int num_dims, sr_custom_routing *out)
 */
#ifndef SEASTAR_ROUTE_H
#define SEASTAR_ROUTE_H

/** Major version of seastar_route.h (the seastar release: both headers
 *  carry the same numbers, see CHANGELOG.md). */
#define SEASTAR_ROUTE_VERSION_MAJOR 0
/** Minor version of seastar_route.h. */
#define SEASTAR_ROUTE_VERSION_MINOR 6
/** Patch version of seastar_route.h. */
#define SEASTAR_ROUTE_VERSION_PATCH 0

#include <stdint.h>
#include <stddef.h>
#include <string.h>

/* The network descriptions, limits and result codes (and SR_API,
 * SR_ASSERT). */
#include "seastar_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* >>faults =============================================================
 * Faults
 * ====================================================================== */

/** Bit of sr_faults.mask marking a failed node. */
#define SR_FAULT_NODE 0x80000000u

/**
 * A set of failed links and nodes over caller-owned storage.
 *
 * ``mask[node]`` has bit ``p`` set when the link leaving ``node`` through
 * network port ``p`` has failed (links fail in both directions), and
 * SR_FAULT_NODE when the node itself has failed.
 */
typedef struct sr_faults {
    uint32_t *mask;      /**< one word per node (caller storage) */
    uint32_t num_nodes;  /**< number of words */
} sr_faults;

/**
 * Bytes of storage a fault set of this topology needs.
 *
 * :param t: the topology.
 * :returns: 4 * t->num_nodes.
 */
SR_API size_t sr_faults_size(const sr_topology *t) {
    return (size_t)t->num_nodes * sizeof(uint32_t);
}

/**
 * Make an empty fault set over caller storage.
 *
 * :param f: the fault set to fill.
 * :param t: the topology.
 * :param storage: at least sr_faults_size(t) bytes, aligned for uint32_t.
 * :param size: size of storage in bytes.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BUFFER_SIZE (nothing written).
 */
SR_API sr_result sr_faults_init(sr_faults *f, const sr_topology *t, void *storage, size_t size) {
    if (!f || !t || !storage) return SR_ERR_NULL;
    if (size < sr_faults_size(t)) return SR_ERR_BUFFER_SIZE;
    f->mask = (uint32_t *)storage;
    f->num_nodes = t->num_nodes;
    memset(storage, 0, sr_faults_size(t));
    return SR_OK;
}

/**
 * Mark a link as failed, in both directions.
 *
 * :param f: the fault set.
 * :param t: the topology.
 * :param node: one end of the link.
 * :param port: the network port of ``node`` the link leaves by.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE; SR_ERR_PORT_RANGE (not
 *     a network port); SR_ERR_NO_LINK (edge of a mesh).  Nothing is written
 *     on error.
 */
SR_API sr_result sr_fault_link(sr_faults *f, const sr_topology *t, uint32_t node, int port) {
    uint32_t other;
    if (!f || !t || !f->mask) return SR_ERR_NULL;
    if (node >= t->num_nodes || f->num_nodes != t->num_nodes) return SR_ERR_NODE_RANGE;
    if (port < 0 || port >= t->proc_port) return SR_ERR_PORT_RANGE;
    other = sr_neighbor(t, node, port);
    if (other == SR_NO_NODE) return SR_ERR_NO_LINK;
    f->mask[node] |= 1u << port;
    f->mask[other] |= 1u << (port ^ 1);
    return SR_OK;
}

/**
 * Mark a node as failed (all its links become unusable).
 *
 * :param f: the fault set.
 * :param t: the topology.
 * :param node: the node.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE (nothing written).
 */
SR_API sr_result sr_fault_node(sr_faults *f, const sr_topology *t, uint32_t node) {
    if (!f || !t || !f->mask) return SR_ERR_NULL;
    if (node >= t->num_nodes || f->num_nodes != t->num_nodes) return SR_ERR_NODE_RANGE;
    f->mask[node] |= SR_FAULT_NODE;
    return SR_OK;
}

/**
 * Whether a node is alive.
 *
 * :param f: a fault set, or NULL for none.
 * :param node: node id (< number of nodes).
 * :returns: 1 if the node has not failed.
 */
SR_API int sr_node_ok(const sr_faults *f, uint32_t node) {
    return !f || !(f->mask[node] & SR_FAULT_NODE);
}

/**
 * Usable next hop: the neighbour through ``port`` if the link exists, has
 * not failed and both of its ends are alive.
 *
 * :param t: the topology.
 * :param f: a fault set, or NULL for none.
 * :param node: node id (< t->num_nodes, asserted).
 * :param port: any port.
 * :returns: the neighbour, or SR_NO_NODE.
 */
SR_API uint32_t sr_next_hop(const sr_topology *t, const sr_faults *f, uint32_t node, int port) {
    uint32_t v = sr_neighbor(t, node, port);
    if (v == SR_NO_NODE || !f) return v;
    if ((f->mask[node] & (SR_FAULT_NODE | (1u << port))) || (f->mask[v] & SR_FAULT_NODE))
        return SR_NO_NODE;
    return v;
}

/* >>dor ===============================================================
 * Table entries and dimension-order routing
 * ====================================================================== */

/**
 * One routing-table entry: output port in bits 0-4, VC update in bits 5-6.
 *
 * Departure: seed 001 says an entry gives "the destination port and
 * virtual channel" but not how the VC is encoded.  One table serves both
 * VC classes (request VC0/VC1, response VC2/VC3) and both VCs of a class,
 * and the VC a packet must leave on can depend on the VC it arrived on
 * (a packet keeps VC1 after a dateline until it turns), so the entry holds
 * an update of the VC within its class: keep, lower (VC0/VC2) or upper
 * (VC1/VC3).  The class never changes.
 */
typedef uint8_t sr_entry;

/** VC update of an entry: keep the arrival VC. */
#define SR_VC_KEEP 0
/** VC update of an entry: the lower VC of the class (VC0 or VC2). */
#define SR_VC_LOWER 1
/** VC update of an entry: the upper VC of the class (VC1 or VC3). */
#define SR_VC_UPPER 2
/** An entry that routes nowhere: the destination is unroutable here. */
#define SR_ENTRY_NONE ((sr_entry)SR_PORT_NONE)

/**
 * Make an entry.
 *
 * :param port: output port, 0..SR_MAX_PORTS-1 or SR_PORT_NONE.
 * :param vc_update: SR_VC_KEEP, SR_VC_LOWER or SR_VC_UPPER.
 * :returns: the entry.
 */
SR_API sr_entry sr_entry_make(int port, int vc_update) {
    return (sr_entry)((unsigned)port | ((unsigned)vc_update << 5));
}

/**
 * Output port of an entry.
 *
 * :param e: an entry.
 * :returns: the port (SR_PORT_NONE for an unroutable entry).
 */
SR_API int sr_entry_port(sr_entry e) { return e & 31; }

/**
 * VC update field of an entry.
 *
 * :param e: an entry.
 * :returns: SR_VC_KEEP, SR_VC_LOWER or SR_VC_UPPER.
 */
SR_API int sr_entry_vc_update(sr_entry e) { return (e >> 5) & 3; }

/**
 * VC a packet leaves on, given the VC it arrived on.
 *
 * :param e: an entry.
 * :param in_vc: arrival VC, 0..3 (the class is in_vc / 2).
 * :returns: the output VC, in the same class.
 * :paper: seed 000 Section 1.1 (VC0->VC1, VC2->VC3 at a dateline).
 */
SR_API int sr_entry_vc(sr_entry e, int in_vc) {
    int u = (e >> 5) & 3;
    return u == SR_VC_KEEP ? in_vc : ((in_vc & ~1) | (u == SR_VC_UPPER));
}

/** Output of the routing function: a port and a virtual channel. */
typedef struct sr_route {
    int port;  /**< output port; t->proc_port ejects; SR_PORT_NONE: no route */
    int vc;    /**< output virtual channel, 0..3 */
} sr_route;

/* Direction (0 = +, 1 = -) of a route k/2 away from coordinate c: the
 * topology's tie-break (SR_TIE_ALTERNATE: even coordinates go +). */
SR_API int sr__tie_negative(const sr_topology *t, int c) {
    return t->tie == SR_TIE_PLUS ? 0 : t->tie == SR_TIE_MINUS ? 1 : (c & 1);
}

/* Direction to take in ring/line dimension `dim` from coordinate c towards
 * 2*target2/2 (targets are given doubled so that a partition's middle can be
 * half-way between two planes).  Returns 0 for +, 1 for -. */
SR_API int sr__direction2(const sr_topology *t, int dim, int c, int target2) {
    int k2 = 2 * t->radix[dim], plus;
    if (t->mesh[dim]) return target2 < 2 * c;
    plus = ((target2 - 2 * c) % k2 + k2) % k2;
    if (plus < t->radix[dim]) return 0;
    if (plus > t->radix[dim]) return 1;
    return sr__tie_negative(t, c);
}

/**
 * The dimension-order routing function as a table entry.
 *
 * Routes in dimension 0 (x) until the coordinate matches, then 1 (y), and
 * so on, then ejects at the processor port.  In a torus dimension it takes
 * the shorter direction; when both are equally long (an even radix, the
 * destination k/2 away) the topology's tie-break decides (by default +
 * from an even coordinate and - from an odd one, which splits those routes
 * evenly over the two directions of every ring; see sr_tie).  A packet already travelling in the dimension it must
 * correct keeps its direction (never a 180-degree turn).  VC update: upper
 * when the hop crosses the dimension's dateline, keep when continuing in
 * the same dimension, lower when turning into a new dimension or
 * injected.
 *
 * When the network has more than one global partition and the node is not
 * in the destination's partition, the x direction is the shorter one to
 * the middle of that partition (ties as above), because one GLUT entry
 * serves the whole partition.  Departure forced by the table format: for
 * a destination plane on the far side of the ring's antipode this is up
 * to half a partition's width longer than the shortest path.
 *
 * :param t: the topology.
 * :param node: current node (< t->num_nodes, asserted).
 * :param in_port: input port the packet arrived on (t->proc_port when
 *     injected), < t->num_ports (asserted).
 * :param dest: destination (< t->num_nodes, asserted).
 * :returns: the entry (port t->proc_port with SR_VC_KEEP at the destination).
 * :paper: seed 001 "Routing" (DOR x, then y, then z; datelines); seed 000
 *     Section 1.1 (VC0->VC1 and VC2->VC3 when crossing a dateline).
 */
SR_API sr_entry sr_dor_entry(const sr_topology *t, uint32_t node, int in_port, uint32_t dest) {
    int d, c = 0, target2 = 0, neg, port, in_dim;
    SR_ASSERT(node < t->num_nodes && dest < t->num_nodes);
    SR_ASSERT(in_port >= 0 && in_port < t->num_ports);
    if (node == dest) return sr_entry_make(t->proc_port, SR_VC_KEEP);
    in_dim = in_port == t->proc_port ? -1 : in_port >> 1;
    if ((node >> SR_PARTITION_SHIFT) != (dest >> SR_PARTITION_SHIFT)) {
        /* outside the destination's partition: a whole x slab */
        uint32_t first = dest & ~(uint32_t)(SR_LUT_ENTRIES - 1);
        uint32_t last = first + SR_LUT_ENTRIES - 1;
        if (last >= t->num_nodes) last = t->num_nodes - 1;
        d = 0;
        c = (int)(node / t->stride[0]);
        target2 = (int)(first / t->stride[0] + last / t->stride[0]);
    } else {
        for (d = 0; d < t->num_dims; d++) {
            int cd = (int)((dest / t->stride[d]) % (uint32_t)t->radix[d]);
            c = (int)((node / t->stride[d]) % (uint32_t)t->radix[d]);
            if (c != cd) { target2 = 2 * cd; break; }
        }
    }
    if (in_dim == d && !t->mesh[d]) neg = !(in_port & 1);   /* keep direction */
    else neg = sr__direction2(t, d, c, target2);
    port = 2 * d + neg;
    if (sr_crosses_dateline(t, port, c)) return sr_entry_make(port, SR_VC_UPPER);
    return sr_entry_make(port, in_dim == d ? SR_VC_KEEP : SR_VC_LOWER);
}

/**
 * The dimension-order routing function: (node, input port, destination,
 * VC) to (output port, VC).
 *
 * :param t: the topology.
 * :param node: current node (< t->num_nodes, asserted).
 * :param in_port: input port (t->proc_port when injected).
 * :param dest: destination node.
 * :param vc: arrival VC (the injection VC when injected: 0 for requests,
 *     2 for responses), 0..3 (asserted).
 * :returns: output port and VC; see sr_dor_entry for the rules.
 * :paper: seed 001 "Routing"; seed 000 Section 1.1.
 */
SR_API sr_route sr_route_dor(const sr_topology *t, uint32_t node, int in_port, uint32_t dest, int vc) {
    sr_route r;
    sr_entry e;
    SR_ASSERT(vc >= 0 && vc < SR_NUM_VCS);
    e = sr_dor_entry(t, node, in_port, dest);
    r.port = sr_entry_port(e);
    r.vc = sr_entry_vc(e, vc);
    return r;
}

/* >>tables ============================================================
 * SeaStar hierarchical tables
 * ====================================================================== */

/**
 * Bytes of one router's tables: for each of the 2n+1 input ports, an
 * 8-entry GLUT followed by the LUT.
 *
 * The LUT holds min(N, 4096) entries: the hardware LUT has 4096, but ids
 * beyond the network's size can never be a destination.  A 32x32x32
 * network needs 7 x 4104 = 28,728 bytes per router (941 MB for all 32K).
 *
 * :param t: the topology.
 * :returns: t->table_size.
 * :paper: seed 001 "Routing", "SeaStar Router Microarchitecture".
 */
SR_API size_t sr_table_size(const sr_topology *t) { return t->table_size; }

/**
 * Read a router's table exactly as the SeaStar input port does.
 *
 * If destination[14:12] differs from the router's own partition (its id's
 * bits 14:12) the entry is GLUT[destination[14:12]], otherwise
 * LUT[destination[11:0]].
 *
 * :param t: the topology.
 * :param tables: this router's tables (sr_table_size(t) bytes).
 * :param node: this router's node id (< t->num_nodes, asserted).
 * :param in_port: input port (< t->num_ports, asserted).
 * :param dest: destination (< t->num_nodes, asserted).
 * :returns: the entry.
 * :paper: seed 001 "Routing" (GLUT indexed by destination[14:12], local
 *     table by destination[11:0]; one table per input port).
 */
SR_API sr_entry sr_table_lookup(const sr_topology *t, const uint8_t *tables, uint32_t node,
                                int in_port, uint32_t dest) {
    const uint8_t *tab;
    uint32_t part = dest >> SR_PARTITION_SHIFT;
    SR_ASSERT(node < t->num_nodes && dest < t->num_nodes);
    SR_ASSERT(in_port >= 0 && in_port < t->num_ports);
    tab = tables + (size_t)in_port * t->table_stride;
    if (part != (node >> SR_PARTITION_SHIFT)) return tab[part];
    return tab[SR_GLUT_ENTRIES + (dest & (SR_LUT_ENTRIES - 1))];
}

/**
 * Pointer to one input port's GLUT (8 entries, then the LUT follows).
 *
 * :param t: the topology.
 * :param tables: a router's tables.
 * :param in_port: input port.
 * :returns: tables + in_port * t->table_stride.
 */
SR_API uint8_t *sr_table_port(const sr_topology *t, uint8_t *tables, int in_port) {
    return tables + (size_t)in_port * t->table_stride;
}

/* DOR entry for the first differing dimension `d`, own coordinate c,
 * destination coordinate cd (neg decided by the caller). */
SR_API sr_entry sr__dor_make(const sr_topology *t, int in_port, int d, int c, int neg) {
    int port = 2 * d + neg;
    if (sr_crosses_dateline(t, port, c)) return sr_entry_make(port, SR_VC_UPPER);
    return sr_entry_make(port, (in_port != t->proc_port && (in_port >> 1) == d) ? SR_VC_KEEP
                                                                              : SR_VC_LOWER);
}

/**
 * Build one router's fault-free dimension-order tables.
 *
 * Fills, for every input port, the GLUT (entries for other partitions; the
 * router's own partition and partitions beyond the network get
 * SR_ENTRY_NONE) and the LUT (the router's own partition), so that
 * sr_table_lookup gives sr_dor_entry for every (input port, destination).
 * Runs of destinations that share an entry are written with memset, so a
 * router costs about its table size in memory bandwidth.
 *
 * :param t: the topology.
 * :param node: the router (< t->num_nodes).
 * :param tables: out, sr_table_size(t) bytes.
 * :param size: size of ``tables`` in bytes.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE; SR_ERR_BUFFER_SIZE
 *     (size < sr_table_size(t)); nothing is written on error.
 * :paper: seed 001 "Routing" (tables constructed from DOR; per input port).
 */
SR_API sr_result sr_table_build_dor(const sr_topology *t, uint32_t node, uint8_t *tables, size_t size) {
    int coords[SR_MAX_DIMS];
    int ip, d, v;
    uint32_t base = node & ~(uint32_t)(SR_LUT_ENTRIES - 1), q;
    if (!t || !tables) return SR_ERR_NULL;
    if (node >= t->num_nodes) return SR_ERR_NODE_RANGE;
    if (size < t->table_size) return SR_ERR_BUFFER_SIZE;
    sr_node_coords(t, node, coords);
    for (ip = 0; ip < t->num_ports; ip++) {
        uint8_t *glut = tables + (size_t)ip * t->table_stride;
        uint8_t *lut = glut + SR_GLUT_ENTRIES;
        for (q = 0; q < SR_GLUT_ENTRIES; q++)
            glut[q] = (q < t->num_partitions && q != (node >> SR_PARTITION_SHIFT))
                          ? sr_dor_entry(t, node, ip, q << SR_PARTITION_SHIFT)
                          : SR_ENTRY_NONE;
        /* Destinations in [lo, lo + stride[d-1]) share coordinates 0..d-1
         * with the node; inside, each value v of coordinate d is a run of
         * stride[d] destinations with one entry. */
        for (d = 0; d < t->num_dims; d++) {
            uint32_t span = t->stride[d];
            uint32_t lo = node - (node % (span * (uint32_t)t->radix[d]));
            int c = coords[d];
            int keep = ip != t->proc_port && (ip >> 1) == d && !t->mesh[d];
            int vlo = 0, vhi = t->radix[d], run_e = -1, k = t->radix[d];
            uint32_t run_from = 0, run_to = 0;
            sr_entry ent[2];
            if (base > lo) vlo = (int)((base - lo) / span);
            if (base + t->lut_entries < lo + (uint32_t)vhi * span)
                vhi = (int)((base + t->lut_entries - lo + span - 1) / span);
            ent[0] = sr__dor_make(t, ip, d, c, 0);
            ent[1] = sr__dor_make(t, ip, d, c, 1);
            for (v = vlo; v < vhi; v++) {
                uint32_t from = lo + (uint32_t)v * span, to = from + span;
                int neg;
                if (v == c) continue;
                if (from < base) from = base;
                if (to > base + t->lut_entries) to = base + t->lut_entries;
                if (keep) neg = !(ip & 1);
                else if (t->mesh[d]) neg = v < c;
                else {   /* shorter way round; ties by parity (sr__direction2) */
                    int up = v > c ? v - c : v - c + k;
                    neg = 2 * up < k ? 0 : 2 * up > k ? 1 : sr__tie_negative(t, c);
                }
                if (ent[neg] == run_e && from == run_to) { run_to = to; continue; }
                if (run_e >= 0) memset(lut + (run_from - base), run_e, run_to - run_from);
                run_e = ent[neg]; run_from = from; run_to = to;
            }
            if (run_e >= 0) memset(lut + (run_from - base), run_e, run_to - run_from);
        }
        lut[node - base] = sr_entry_make(t->proc_port, SR_VC_KEEP);
    }
    return SR_OK;
}

/* >>verify ============================================================
 * Verifier of tables: delivery of every pair and an acyclic channel
 * dependency graph
 * ====================================================================== */

/** What went wrong, in a verification report. */
typedef enum sr_failure {
    SR_FAIL_NONE = 0,     /**< nothing: the tables are proven */
    SR_FAIL_LOOP,         /**< a path revisits a (router, input port, VC) state */
    SR_FAIL_DEAD_END,     /**< an entry names a port with no link or no such port */
    SR_FAIL_FAULTY_LINK,  /**< an entry sends the packet over a failed link */
    SR_FAIL_FAILED_NODE,  /**< an entry sends the packet into a failed node */
    SR_FAIL_TURN_180,     /**< an entry sends the packet back out of its input port */
    SR_FAIL_WRONG_EJECT,  /**< an entry ejects the packet at a node that is not
                               its destination */
    SR_FAIL_DEADLOCK,     /**< the channel dependency graph has a cycle */
    SR_FAIL_COUNT         /**< number of failure kinds (not a failure) */
} sr_failure;

/**
 * Name of a failure kind.
 *
 * :param f: a failure kind.
 * :returns: a static string such as "loop" or "deadlock cycle".
 */
SR_API const char *sr_failure_string(sr_failure f) {
    switch (f) {
    case SR_FAIL_NONE: return "none";
    case SR_FAIL_LOOP: return "loop";
    case SR_FAIL_DEAD_END: return "dead end (no link)";
    case SR_FAIL_FAULTY_LINK: return "faulty link";
    case SR_FAIL_FAILED_NODE: return "failed node";
    case SR_FAIL_TURN_180: return "180-degree turn";
    case SR_FAIL_WRONG_EJECT: return "ejected at the wrong node";
    case SR_FAIL_DEADLOCK: return "deadlock cycle";
    case SR_FAIL_COUNT: break;
    }
    return "unknown failure";
}

/** One step of a witness: a packet at ``node`` that arrived on ``in_port``
 *  with ``vc`` and leaves by ``out_port``; for a dependency cycle, the
 *  channel leaving ``node`` by ``out_port`` on ``vc`` (in_port unused). */
typedef struct sr_hop {
    uint32_t node;   /**< router */
    int in_port;     /**< input port (t->proc_port at the source) */
    int out_port;    /**< output port the entry names */
    int vc;          /**< arrival VC (path) or channel VC (cycle), class 0 */
} sr_hop;

/** Ask sr_verify for path stretch against the fault-free minimal distance. */
#define SR_VERIFY_STRETCH 1

/**
 * Result of sr_verify: a proof (``proven`` = 1) or a refutation with a
 * concrete witness, plus path statistics.
 */
typedef struct sr_verify_report {
    int proven;             /**< 1: every pair of live nodes is delivered or hits
                                 an SR_ENTRY_NONE entry (declared unroutable),
                                 and the dependency graph is acyclic */
    sr_failure failure;     /**< the first failure found (SR_FAIL_NONE if proven) */
    uint32_t src;           /**< source of the failing pair (delivery failures) */
    uint32_t dst;           /**< destination of the failing pair */
    int witness_len;        /**< hops of the path or channels of the cycle */
    int witness_truncated;  /**< 1 if only the last SR_MAX_WITNESS steps are kept */
    sr_hop witness[SR_MAX_WITNESS]; /**< the path from src (last step is the
                                 failing one) or the dependency cycle */
    uint64_t pairs;         /**< ordered pairs of distinct live nodes checked */
    uint64_t delivered;     /**< pairs delivered */
    uint64_t unroutable;    /**< pairs that reach an SR_ENTRY_NONE entry */
    uint64_t total_hops;    /**< sum of hops over delivered pairs */
    uint32_t max_hops;      /**< longest delivered path */
    double stretch_sum;     /**< sum over delivered pairs of hops / fault-free
                                 minimal hops (with SR_VERIFY_STRETCH) */
    double stretch_max;     /**< largest such ratio (with SR_VERIFY_STRETCH) */
    uint64_t channels;      /**< channels (link x VC) that carry traffic */
    uint64_t dependencies;  /**< edges of the channel dependency graph */
} sr_verify_report;

/* Per-state scratch words of the verifier. */
#define SR__V_WORDS 10
/* Destinations whose LUT entries the verifier gathers at once (four cache
 * lines of every LUT): the walk of one destination then reads a small
 * contiguous array instead of one byte per line of the whole table set. */
#define SR__V_BLOCK 256

/* Bytes between two destinations' rows of the gathered LUT block: the
 * entries of every (router of a partition, input port), padded to an odd
 * number of cache lines so that the rows do not share cache sets. */
SR_API size_t sr__v_row(const sr_topology *t) {
    size_t lines = ((size_t)t->lut_entries * (size_t)t->num_ports + 63) / 64;
    return (lines | 1) * 64;
}

/**
 * Bytes of scratch memory sr_verify needs.
 *
 * About 42 bytes per (router, input port, VC) state plus 256 copies of
 * one LUT entry per (router in a partition, input port): 27 MB for 32x32x32.
 *
 * :param t: the topology.
 * :returns: the size in bytes.
 */
SR_API size_t sr_verify_scratch_size(const sr_topology *t) {
    size_t states = (size_t)t->num_nodes * (size_t)t->num_ports * 2;
    size_t nbrs = (size_t)t->num_nodes * (size_t)(t->num_ports - 1);
    size_t glut = (size_t)t->num_nodes * (size_t)t->num_ports;
    size_t block = (size_t)SR__V_BLOCK * sr__v_row(t);
    return states * (SR__V_WORDS * 4 + 2) + nbrs * 4 + glut + block;
}

/* Minimal hops between two nodes without faults (sum of ring distances). */
SR_API int sr__min_hops(const sr_topology *t, uint32_t a, uint32_t b) {
    int d, h = 0;
    for (d = 0; d < t->num_dims; d++) {
        int k = t->radix[d];
        int x = (int)((a / t->stride[d]) % (uint32_t)k), y = (int)((b / t->stride[d]) % (uint32_t)k);
        int dd = x > y ? x - y : y - x;
        if (!t->mesh[d] && k - dd < dd) dd = k - dd;
        h += dd;
    }
    return h;
}

/* Fill the witness by walking src -> dst again through the tables, with
 * `seen` (one byte per state, zeroed here) to stop at the first repeat;
 * keeps the last SR_MAX_WITNESS steps. */
SR_API void sr__witness_walk(const sr_topology *t, const sr_faults *f, const uint8_t *tables,
                             uint32_t src, uint32_t dst, uint8_t *seen, sr_verify_report *rep) {
    const uint32_t P = (uint32_t)t->num_ports;
    uint32_t u = src, steps = 0;
    int ip = t->proc_port, vb = 0;
    memset(seen, 0, (size_t)t->num_nodes * P * 2);
    rep->src = src;
    rep->dst = dst;
    for (;;) {
        uint32_t x = (u * P + (uint32_t)ip) * 2 + (uint32_t)vb, v;
        sr_entry e = sr_table_lookup(t, tables + (size_t)u * t->table_size, u, ip, dst);
        int port = sr_entry_port(e);
        sr_hop *h = &rep->witness[steps % SR_MAX_WITNESS];
        h->node = u; h->in_port = ip; h->vc = vb; h->out_port = port;
        steps++;
        if (seen[x] || port >= t->proc_port || port == ip) break;
        seen[x] = 1;
        v = sr_next_hop(t, f, u, port);
        if (v == SR_NO_NODE) break;
        vb = sr_entry_vc(e, vb);
        ip = port ^ 1;
        u = v;
    }
    rep->witness_truncated = steps > SR_MAX_WITNESS;
    rep->witness_len = steps > SR_MAX_WITNESS ? SR_MAX_WITNESS : (int)steps;
    if (rep->witness_truncated) {   /* rotate so that the oldest kept step is first */
        sr_hop tmp[SR_MAX_WITNESS];
        uint32_t k;
        for (k = 0; k < SR_MAX_WITNESS; k++) tmp[k] = rep->witness[(steps + k) % SR_MAX_WITNESS];
        memcpy(rep->witness, tmp, sizeof tmp);
    }
}

/* n / P by a multiply (exact for n < 2^32 / 17 and P <= 17, which covers
 * every (router, input port) index); m = sr__divp_magic(P). */
SR_API uint32_t sr__divp_magic(uint32_t p) { return (uint32_t)((0xFFFFFFFFull + p) / p); }
SR_API uint32_t sr__divp(uint32_t n, uint32_t m) { return (uint32_t)(((uint64_t)n * m) >> 32); }

/* The verifier's working state (private). */
typedef struct sr__vctx {
    const sr_topology *t;
    const uint8_t *glut;     /* GLUT entry of the current partition per (u, ip) */
    const uint32_t *nbr;     /* usable neighbour per (u, port) or SR_NO_NODE */
    uint32_t *gst, *gex, *gh, *gmark, *gpath, *dep;
    uint32_t part, pgen;
    uint64_t deps;
} sr__vctx;

/* Follow GLUT entries from state y (a router outside the current
 * partition) until the packet enters the partition; memoised per
 * partition: gh[y] = hops << 2 | 2 with gex[y] the state entered, or 3
 * for unroutable.  Returns the failure found on the way, if any. */
SR_API sr_failure sr__v_glut(sr__vctx *c, uint32_t y) {
    const sr_topology *t = c->t;
    const uint32_t P = (uint32_t)t->num_ports, NP = P - 1;
    uint32_t x = y, res = 3, ex = 0, h = 0;
    int len = 0, j;
    for (;;) {
        uint32_t u, v, z;
        int ip, vb, port, vb2;
        sr_entry e;
        if (c->gst[x] == c->pgen) {
            if (c->gh[x] == 1) return SR_FAIL_LOOP;
            res = c->gh[x];
            ex = c->gex[x];
            h = res >> 2;
            break;
        }
        c->gst[x] = c->pgen;
        c->gh[x] = 1;
        c->gpath[len++] = x;
        u = (x >> 1) / P;
        ip = (int)((x >> 1) % P);
        vb = (int)(x & 1);
        e = c->glut[u * P + (uint32_t)ip];
        port = e & 31;
        if (port == SR_PORT_NONE) { res = 3; break; }
        if (port == t->proc_port) return SR_FAIL_WRONG_EJECT;
        if (port > t->proc_port || port == ip) return port == ip ? SR_FAIL_TURN_180 : SR_FAIL_DEAD_END;
        v = c->nbr[u * NP + (uint32_t)port];
        if (v == SR_NO_NODE) return SR_FAIL_DEAD_END;   /* refined by the caller */
        vb2 = sr_entry_vc(e, vb);
        z = (v * P + (uint32_t)(port ^ 1)) * 2 + (uint32_t)vb2;
        if ((v >> SR_PARTITION_SHIFT) == c->part) { res = 2; ex = z; h = 0; break; }
        x = z;
    }
    for (j = len - 1; j >= 0; j--) {
        if (res == 3) { c->gh[c->gpath[j]] = 3; continue; }
        h++;
        c->gh[c->gpath[j]] = 2 | (h << 2);
        c->gex[c->gpath[j]] = ex;
    }
    return SR_FAIL_NONE;
}

/* Record the dependencies of the GLUT segment from state y (once per
 * partition). */
SR_API void sr__v_glut_edges(sr__vctx *c, uint32_t y) {
    const sr_topology *t = c->t;
    const uint32_t P = (uint32_t)t->num_ports, NP = P - 1;
    while (c->gmark[y] != c->pgen) {
        uint32_t u = (y >> 1) / P, v;
        int ip = (int)((y >> 1) % P), port;
        sr_entry e = c->glut[u * P + (uint32_t)ip];
        int vb2 = sr_entry_vc(e, (int)(y & 1));
        c->gmark[y] = c->pgen;
        port = e & 31;
        if (ip != t->proc_port) {
            uint32_t bit = 1u << (port * 2 + vb2);
            if (!(c->dep[y] & bit)) { c->dep[y] |= bit; c->deps++; }
        }
        v = c->nbr[u * NP + (uint32_t)port];
        if ((v >> SR_PARTITION_SHIFT) == c->part) break;
        y = (v * P + (uint32_t)(port ^ 1)) * 2 + (uint32_t)vb2;
    }
}

/**
 * Prove or refute that a full set of tables delivers every packet and
 * cannot deadlock.
 *
 * (a) Delivery: for every destination and every live source (the
 * destination itself included: its own injection entry is followed too,
 * though it is not counted as a pair) the packet is followed through the
 * tables from injection (processor input port, VC0)
 * until it is ejected; it must never revisit a (router, input port, VC)
 * state, use a missing or failed link, enter a failed node, make a
 * 180-degree turn, or be ejected anywhere but at its destination.  An
 * SR_ENTRY_NONE entry ends the walk as "unroutable" (a pair the generator
 * declared it cannot route), which is counted, not a failure.  States are
 * memoised per destination, so the cost is the number of distinct states
 * the destination's traffic uses, not the sum of path lengths.
 *
 * (b) Deadlock freedom (Dally and Seitz): the channel dependency graph has
 * a vertex per (link, VC) and an edge from the channel a delivered packet
 * arrives on to the channel the table sends it out on; it must be
 * acyclic.  Checked by an iterative depth-first search.
 *
 * Only the request class (VC0/VC1) is walked: entries update the VC within
 * its class, so the response class (VC2/VC3) takes exactly the same paths
 * with VC numbers plus 2, and the two classes share no dependency.
 *
 * :param t: the topology.
 * :param faults: failed links and nodes, or NULL for none.
 * :param tables: all routers' tables, router ``u`` at
 *     ``tables + u * sr_table_size(t)``.
 * :param flags: 0 or SR_VERIFY_STRETCH.
 * :param scratch: at least sr_verify_scratch_size(t) bytes, aligned for
 *     uint32_t.
 * :param scratch_size: its size in bytes.
 * :param rep: out, the report (proof, or the first failure and a witness).
 * :returns: SR_OK when the check ran (see rep->proven); SR_ERR_NULL;
 *     SR_ERR_BUFFER_SIZE; SR_ERR_NODE_RANGE (fault set of another size).
 * :paper: seed 001 "Routing" (tables must avoid deadlock, no 180-degree
 *     turns; Dally and Seitz [7]).
 */
SR_API sr_result sr_verify(const sr_topology *t, const sr_faults *faults, const uint8_t *tables,
                           int flags, void *scratch, size_t scratch_size, sr_verify_report *rep) {
    const uint32_t P = (uint32_t)t->num_ports, N = t->num_nodes, NP = P - 1;
    const uint32_t S = N * P * 2, L = t->lut_entries, PM = sr__divp_magic(P);
    const size_t LP = sr__v_row(t);
    uint32_t *sv, *dep, *path, *stk, *stkmask, *nbr;
    uint8_t *color, *outbit, *glut, *block;
    uint32_t dst, src, i, t0 = 0xFFFFFFFFu, part = 0xFFFFFFFFu, base = 0;
    sr__vctx c;
    if (!t || !tables || !scratch || !rep) return SR_ERR_NULL;
    if (scratch_size < sr_verify_scratch_size(t)) return SR_ERR_BUFFER_SIZE;
    if (faults && faults->num_nodes != N) return SR_ERR_NODE_RANGE;
    memset(rep, 0, sizeof *rep);
    sv = (uint32_t *)scratch;          /* per state: stamp, then status */
    dep = sv + 2 * (size_t)S;
    path = dep + S;
    stk = path + S;                    /* phase (a): GLUT state jumped to */
    stkmask = stk + S;
    c.gst = stkmask + S;
    c.gex = c.gst + S;
    c.gh = c.gex + S;
    c.gmark = c.gh + S;
    nbr = c.gmark + S;
    color = (uint8_t *)(nbr + (size_t)N * NP);
    outbit = color + S;
    glut = outbit + S;
    block = glut + (size_t)N * P;
    c.t = t; c.glut = glut; c.nbr = nbr; c.dep = dep; c.gpath = stkmask; c.deps = 0;
    c.part = 0; c.pgen = 0;
    memset(sv, 0, (size_t)S * 8);
    memset(dep, 0, (size_t)S * 4);
    memset(c.gst, 0, (size_t)S * 4);
    memset(c.gmark, 0, (size_t)S * 4);
    for (i = 0; i < N; i++) {
        int p;
        for (p = 0; p < (int)NP; p++) nbr[i * NP + (uint32_t)p] = sr_next_hop(t, faults, i, p);
    }
    /* ---- (a) delivery, one destination at a time ---- */
    for (dst = 0; dst < N; dst++) {
        uint32_t gen = dst + 1;
        const uint8_t *row;
        if (!sr_node_ok(faults, dst)) continue;
        if ((dst & ~(uint32_t)(SR__V_BLOCK - 1)) != t0) {
            /* gather the LUT entries of destinations t0..t0+255 */
            uint32_t u, off, cnt;
            int ip;
            t0 = dst & ~(uint32_t)(SR__V_BLOCK - 1);
            off = t0 & (SR_LUT_ENTRIES - 1);
            cnt = L - off < SR__V_BLOCK ? L - off : SR__V_BLOCK;
            if ((t0 >> SR_PARTITION_SHIFT) != part) {
                part = t0 >> SR_PARTITION_SHIFT;
                base = part << SR_PARTITION_SHIFT;
                c.part = part;
                c.pgen = part + 1;
                for (u = 0; u < N; u++)
                    for (ip = 0; ip < (int)P; ip++)
                        glut[u * P + (uint32_t)ip] =
                            tables[(size_t)u * t->table_size + (size_t)ip * t->table_stride + part];
            }
            for (u = base; u < base + L && u < N; u++)
                for (ip = 0; ip < (int)P; ip++) {
                    const uint8_t *from = tables + (size_t)u * t->table_size +
                                          (size_t)ip * t->table_stride + SR_GLUT_ENTRIES + off;
                    uint8_t *to = block + (u - base) * P + (uint32_t)ip;
                    uint32_t b;
                    for (b = 0; b < cnt; b++) to[(size_t)b * LP] = from[b];
                }
        }
        row = block + (size_t)(dst - t0) * LP;
        for (src = 0; src < N; src++) {
            uint32_t x, x0, u, result = 0, pre = 0;
            int ip, vb, len = 0, j, ejected = 0;
            sr_failure fail = SR_FAIL_NONE;
            if (!sr_node_ok(faults, src)) continue;
            x0 = x = (src * P + (uint32_t)t->proc_port) * 2;
            if ((src >> SR_PARTITION_SHIFT) != part) {
                /* the GLUT part of the path, shared by the whole partition */
                fail = sr__v_glut(&c, x0);
                if (fail == SR_FAIL_NONE && c.gh[x0] == 3) result = 3;
                else if (fail == SR_FAIL_NONE) { pre = c.gh[x0] >> 2; x = c.gex[x0]; }
            }
            u = sr__divp(x >> 1, PM); ip = (int)((x >> 1) - u * P); vb = (int)(x & 1);
            while (fail == SR_FAIL_NONE && result == 0) {
                sr_entry e;
                int port, vb2;
                uint32_t v;
                if (sv[2 * x] == gen) {
                    if ((sv[2 * x + 1] & 3) == 1) fail = SR_FAIL_LOOP;
                    else result = sv[2 * x + 1];
                    break;
                }
                sv[2 * x] = gen;
                sv[2 * x + 1] = 1;
                stk[len] = SR_NO_NODE;
                path[len++] = x;
                e = row[(u - base) * P + (uint32_t)ip];
                port = e & 31;
                if (port == SR_PORT_NONE) { result = 3; break; }
                if (port == t->proc_port) {
                    if (u == dst) { result = 2; ejected = 1; break; }
                    fail = SR_FAIL_WRONG_EJECT;
                    break;
                }
                if (port > t->proc_port) { fail = SR_FAIL_DEAD_END; break; }
                if (port == ip) { fail = SR_FAIL_TURN_180; break; }
                v = nbr[u * NP + (uint32_t)port];
                if (v == SR_NO_NODE) { fail = SR_FAIL_DEAD_END; break; }
                vb2 = sr_entry_vc(e, vb);
                outbit[x] = ip == t->proc_port ? 0xFF : (uint8_t)(port * 2 + vb2);
                x = (v * P + (uint32_t)(port ^ 1)) * 2 + (uint32_t)vb2;
                u = v; ip = port ^ 1; vb = vb2;
                if ((v >> SR_PARTITION_SHIFT) != part) {
                    /* the route leaves the partition: jump over the GLUT part */
                    stk[len - 1] = x;
                    fail = sr__v_glut(&c, x);
                    if (fail != SR_FAIL_NONE) break;
                    if (c.gh[x] == 3) { result = 3; break; }
                    x = c.gex[x];
                    u = sr__divp(x >> 1, PM); ip = (int)((x >> 1) - u * P); vb = (int)(x & 1);
                }
            }
            if (fail != SR_FAIL_NONE) {
                sr__witness_walk(t, faults, tables, src, dst, color, rep);
                /* name a missing link precisely from the last step */
                if (fail == SR_FAIL_DEAD_END && rep->witness_len > 0) {
                    const sr_hop *h = &rep->witness[rep->witness_len - 1];
                    uint32_t w = sr_neighbor(t, h->node, h->out_port);
                    if (w != SR_NO_NODE)
                        fail = sr_node_ok(faults, w) ? SR_FAIL_FAULTY_LINK : SR_FAIL_FAILED_NODE;
                }
                rep->failure = fail;
                rep->dependencies = c.deps;
                return SR_OK;
            }
            /* unwind: every state of this walk gets the walk's outcome */
            if ((result & 3) == 2) {
                uint32_t hops = result >> 2;
                if (ejected) { sv[2 * path[--len] + 1] = 2; hops = 0; }  /* 0 hops to go */
                for (j = len - 1; j >= 0; j--) {
                    uint32_t y = path[j];
                    hops++;
                    if (stk[j] != SR_NO_NODE) {
                        hops += c.gh[stk[j]] >> 2;
                        sr__v_glut_edges(&c, stk[j]);
                    }
                    sv[2 * y + 1] = 2 | (hops << 2);
                    if (outbit[y] != 0xFF) {             /* arrived on a link */
                        uint32_t bit = 1u << outbit[y];
                        if (!(dep[y] & bit)) { dep[y] |= bit; c.deps++; }
                    }
                }
                if ((src >> SR_PARTITION_SHIFT) != part) sr__v_glut_edges(&c, x0);
                hops += pre;
                if (src != dst) {
                    rep->delivered++;
                    rep->total_hops += hops;
                    if (hops > rep->max_hops) rep->max_hops = hops;
                    if (flags & SR_VERIFY_STRETCH) {
                        double r = (double)hops / (double)sr__min_hops(t, src, dst);
                        rep->stretch_sum += r;
                        if (r > rep->stretch_max) rep->stretch_max = r;
                    }
                }
            } else {
                for (j = len - 1; j >= 0; j--) sv[2 * path[j] + 1] = 3;
                if (src != dst) rep->unroutable++;
            }
            if (src != dst) rep->pairs++;
        }
    }
    rep->dependencies = c.deps;
    /* ---- (b) the channel dependency graph must be acyclic ---- */
    memset(color, 0, (size_t)S);
    for (i = 0; i < S; i++) {
        uint32_t top = 0;
        if (!dep[i] || color[i]) continue;
        if (dep[i]) rep->channels++;
        color[i] = 1;
        stk[0] = i;
        stkmask[0] = dep[i];
        top = 1;
        while (top > 0) {
            uint32_t y = stk[top - 1], m = stkmask[top - 1], z, u, b;
            int port, vb2;
            if (!m) { color[y] = 2; top--; continue; }
            b = 0;
            while (!(m & (1u << b))) b++;
            stkmask[top - 1] = m & (m - 1);
            port = (int)(b >> 1);
            vb2 = (int)(b & 1);
            u = (y >> 1) / P;
            z = (nbr[u * NP + (uint32_t)port] * P + (uint32_t)(port ^ 1)) * 2 + (uint32_t)vb2;
            if (color[z] == 1) {
                /* a cycle: the stack from z to the top */
                uint32_t k0 = top - 1, n, q;
                while (stk[k0] != z) k0--;
                n = top - k0;
                rep->failure = SR_FAIL_DEADLOCK;
                rep->witness_len = n > SR_MAX_WITNESS ? SR_MAX_WITNESS : (int)n;
                rep->witness_truncated = n > SR_MAX_WITNESS;
                for (q = 0; q < (uint32_t)rep->witness_len; q++) {
                    uint32_t w = stk[k0 + q], wu = (w >> 1) / P;
                    int wip = (int)((w >> 1) % P);
                    sr_hop *h = &rep->witness[q];
                    /* the channel arriving at wu on wip: it leaves the
                     * neighbour through the opposite port */
                    h->node = sr_neighbor(t, wu, wip);
                    h->out_port = wip ^ 1;
                    h->in_port = -1;
                    h->vc = (int)(w & 1);
                }
                return SR_OK;
            }
            if (color[z] == 0) {
                color[z] = 1;
                if (dep[z]) rep->channels++;
                stk[top] = z;
                stkmask[top] = dep[z];
                top++;
            }
        }
    }
    rep->proven = 1;
    return SR_OK;
}

/* >>generators ========================================================
 * Fault-aware table generation: shared parts
 * ====================================================================== */

/** A (source, destination) pair. */
typedef struct sr_pair {
    uint32_t src;  /**< source node */
    uint32_t dst;  /**< destination node */
} sr_pair;

/** What a fault-aware generator reports. */
typedef struct sr_gen_report {
    uint64_t pairs;       /**< ordered pairs of distinct live nodes */
    uint64_t unroutable;  /**< pairs the generator could not route (their
                               tables end in SR_ENTRY_NONE) */
    size_t listed;        /**< unroutable pairs written to the caller's list
                               (at most its capacity; the first ones by
                               destination, then source) */
    uint64_t patched;     /**< SeaStar rules: entries the generator's own
                               delivery check turned into SR_ENTRY_NONE
                               because the rules led into a loop or a dead
                               end; search: entries its repairs added */
    int dateline[SR_MAX_DIMS]; /**< the dateline of each dimension the tables
                               use (the SeaStar rules choose the y and z
                               datelines from the fault set) */
    int rounds;           /**< search generator: passes over the partitions
                               (more than one per partition when a GLUT entry
                               first led into a state that cannot reach every
                               destination; see sr_tables_build_search) */
    uint64_t connected;   /**< ordered pairs of distinct live nodes that the
                               faults leave connected (a route exists) */
    uint64_t delivered;   /**< pairs the verifier followed to delivery */
    int failure;          /**< the verifier's verdict on the tables (an
                               sr_failure): SR_FAIL_NONE when it proved them;
                               the generator then returns SR_ERR_DEADLOCK for
                               a cycle, SR_ERR_UNDELIVERED for another
                               failure or when delivered < connected */
} sr_gen_report;

/* Destinations whose LUT entries the generators collect at once. */
#define SR__GEN_BLOCK 256

/* Byte offsets of the generators' scratch areas.  A "state" is a
 * (router, input port) pair (np of them), a "partition state" one of a
 * router of one global partition (lp); a "sub-state" a state and a VC.
 * The search uses the first group, the SeaStar rules' delivery check the
 * second (they overlap); both use the neighbour table at the end. */
typedef struct sr__gen_layout {
    /* search */
    size_t queue;    /* BFS queue: 2 words per state */
    size_t tgt;      /* GLUT target per state (word) */
    size_t glen;     /* GLUT hops to the target per state (word) */
    size_t e;        /* entry per state (byte) */
    size_t lab;      /* GLUT label per state (byte) */
    size_t reach;    /* sub-states reached per partition state (byte) */
    size_t save;     /* a copy of a partition's entries and reach (2 bytes) */
    size_t dep;      /* dependency graph: per sub-state, out-edges (word) */
    size_t reserved; /* per sub-state, a reserved last hop (bit) */
    size_t fail;     /* per node, a destination to repair (bit) */
    size_t gres;     /* per sub-state, where its GLUT route enters (word) */
    size_t starts;   /* sub-states GLUT routes enter in (2 words per partition state) */
    size_t cnt;      /* per partition state, injections entering there (word) */
    size_t used;     /* the targets in use (word per partition state) */
    size_t xhead;    /* exit lists: heads (word per partition state, + 1) */
    size_t xitem;    /* exit lists: items (word per partition state) */
    size_t cstate;   /* candidates: item (4 words per partition state) */
    size_t cnext;    /* candidates: next (4 words per partition state) */
    size_t centry;   /* candidates: entry (4 bytes per partition state) */
    size_t bad;      /* per state, a GLUT target to avoid (byte) */
    size_t bhead;    /* candidate buckets: heads (word per state, + 2) */
    size_t btail;    /* candidate buckets: tails (word per state, + 2) */
    size_t sblock;   /* the entries of 256 destinations (256 bytes per partition state) */
    /* the SeaStar rules' delivery check */
    size_t glut;     /* a partition's GLUT entries per state (byte) */
    size_t sv;       /* walk: stamp and status per sub-state (2 words) */
    size_t path;     /* walk: path (word per sub-state) */
    size_t fblock;   /* 256 destinations' LUT entries per partition state */
    size_t quiet;    /* per node: quiet router, clean z line (2 bytes) */
    size_t nbr;      /* usable neighbour per (node, network port) (word) */
    size_t total;
} sr__gen_layout;

SR_API size_t sr__align8(size_t n) { return (n + 7) & ~(size_t)7; }

SR_API sr__gen_layout sr__gen_offsets(const sr_topology *t) {
    sr__gen_layout o;
    size_t np = (size_t)t->num_nodes * (size_t)t->num_ports;
    size_t lp = (size_t)t->lut_entries * (size_t)t->num_ports, a;
    o.queue = 0;
    o.tgt = o.queue + np * 2 * 4;
    o.glen = o.tgt + np * 4;
    o.e = o.glen + np * 4;
    o.lab = o.e + np;
    o.reach = o.lab + np;
    o.save = o.reach + lp;
    o.dep = sr__align8(o.save + 2 * lp);
    o.reserved = o.dep + np * 2 * 4;
    o.fail = o.reserved + (np * 2 + 7) / 8;
    o.gres = sr__align8(o.fail + (t->num_nodes + 7) / 8);
    o.starts = o.gres + np * 2 * 4;
    o.cnt = o.starts + lp * 2 * 4;
    o.used = o.cnt + lp * 4;
    o.xhead = o.used + lp * 4;
    o.xitem = o.xhead + (lp + 1) * 4;
    o.cstate = o.xitem + lp * 4;
    o.cnext = o.cstate + 4 * lp * 4;
    o.centry = o.cnext + 4 * lp * 4;
    o.bad = o.centry + 4 * lp;
    o.bhead = sr__align8(o.bad + np);
    o.btail = o.bhead + (np + 2) * 4;
    o.sblock = sr__align8(o.btail + (np + 2) * 4);
    a = o.sblock + lp * SR__GEN_BLOCK;
    o.glut = 0;
    o.sv = sr__align8(np);
    o.path = o.sv + np * 2 * 8;
    o.fblock = sr__align8(o.path + np * 2 * 4);
    if (o.fblock + SR__GEN_BLOCK * sr__v_row(t) > a) a = o.fblock + SR__GEN_BLOCK * sr__v_row(t);
    o.quiet = a;                                           /* quiet routers, clean z lines */
    a = o.quiet + 2 * (size_t)t->num_nodes;
    o.nbr = sr__align8(a);
    o.total = o.nbr + (size_t)t->num_nodes * (size_t)(t->num_ports - 1) * 4;
    return o;
}

/**
 * Bytes of scratch memory the fault-aware generators need: for the
 * generation, and for the proof of the tables by sr_verify that follows
 * it (the larger of the two).
 *
 * :param t: the topology.
 * :returns: the size in bytes: sr_verify_scratch_size(t) or, where it is
 *     larger, about 47 per (router, input port) plus about 330 per (router
 *     of one global partition, input port): 27 MB for 32x32x32, 1.3 MB for
 *     8x8x8.
 */
SR_API size_t sr_gen_scratch_size(const sr_topology *t) {
    size_t g = sr__gen_offsets(t).total, v = sr_verify_scratch_size(t);
    return g > v ? g : v;
}

/* Ordered pairs of distinct live nodes that the faults leave connected
 * (components over usable links, by breadth-first search; 2N words of
 * scratch). */
SR_API uint64_t sr__gen_connected(const sr_topology *t, const sr_faults *f, void *scratch) {
    uint32_t N = t->num_nodes, *comp = (uint32_t *)scratch, *q = comp + N, s;
    uint64_t pairs = 0;
    for (s = 0; s < N; s++) comp[s] = SR_NO_NODE;
    for (s = 0; s < N; s++) {
        uint32_t head = 0, tail = 0;
        if (comp[s] != SR_NO_NODE || !sr_node_ok(f, s)) continue;
        comp[s] = s;
        q[tail++] = s;
        while (head < tail) {
            uint32_t u = q[head++];
            int p;
            for (p = 0; p < t->proc_port; p++) {
                uint32_t v = sr_next_hop(t, f, u, p);
                if (v != SR_NO_NODE && comp[v] == SR_NO_NODE) { comp[v] = s; q[tail++] = v; }
            }
        }
        pairs += (uint64_t)tail * (tail - 1);
    }
    return pairs;
}

/* The proof every generator ends with: sr_verify over the tables (in the
 * generator's scratch), and the connected pairs.  SR_ERR_DEADLOCK when
 * the dependency graph has a cycle, SR_ERR_UNDELIVERED when the verifier
 * finds another failure or a connected pair is not delivered, else
 * SR_OK; the report gets the counts and the verdict. */
SR_API sr_result sr__gen_verdict(const sr_topology *t, const sr_faults *f, const uint8_t *tables, void *scratch,
                                 sr_gen_report *rep) {
    sr_verify_report v;
    rep->connected = sr__gen_connected(t, f, scratch);
    if (sr_verify(t, f, tables, 0, scratch, sr_verify_scratch_size(t), &v) != SR_OK) return SR_ERR_BUFFER_SIZE;
    rep->failure = (int)v.failure;
    rep->delivered = v.delivered;
    if (!v.proven) return v.failure == SR_FAIL_DEADLOCK ? SR_ERR_DEADLOCK : SR_ERR_UNDELIVERED;
    return v.delivered < rep->connected ? SR_ERR_UNDELIVERED : SR_OK;
}

/* The generators' table of usable neighbours per (node, network port), or
 * SR_NO_NODE; bit 30 is set when the link is a dateline link. */
SR_API uint32_t *sr__gen_nbr(const sr_topology *t, void *scratch, const sr_faults *f) {
    uint32_t *nbr = (uint32_t *)((uint8_t *)scratch + sr__gen_offsets(t).nbr);
    uint32_t u, NP = (uint32_t)t->num_ports - 1;
    int p;
    for (u = 0; u < t->num_nodes; u++)
        for (p = 0; p < (int)NP; p++) {
            uint32_t v = sr_next_hop(t, f, u, p);
            if (v != SR_NO_NODE && sr_crosses_dateline(t, p, sr_coord(t, u, p >> 1))) v |= 1u << 30;
            nbr[u * NP + (uint32_t)p] = v;
        }
    return nbr;
}

/* Check the arguments every generator shares. */
SR_API sr_result sr__gen_args(const sr_topology *t, const sr_faults *f, uint8_t *tables,
                              size_t tables_size, void *scratch, size_t scratch_size,
                              sr_gen_report *rep) {
    if (!t || !tables || !scratch || !rep) return SR_ERR_NULL;
    if (tables_size / t->table_size < t->num_nodes) return SR_ERR_BUFFER_SIZE;
    if (scratch_size < sr_gen_scratch_size(t)) return SR_ERR_BUFFER_SIZE;
    if (f && f->num_nodes != t->num_nodes) return SR_ERR_NODE_RANGE;
    return SR_OK;
}

/* Record an unroutable pair in the report (and the caller's list). */
SR_API void sr__gen_unroutable(sr_gen_report *rep, sr_pair *list, size_t capacity, uint32_t src,
                               uint32_t dst) {
    if (list && rep->listed < capacity) {
        list[rep->listed].src = src;
        list[rep->listed].dst = dst;
        rep->listed++;
    }
    rep->unroutable++;
}

/* The SeaStar generator's delivery check: follow every live pair through
 * the tables; where a walk loops, dead-ends, uses a failed link or node,
 * turns 180 degrees or ejects at the wrong node, the entry of the failing
 * state becomes SR_ENTRY_NONE (and the walk is retried), so that every
 * pair ends delivered or explicitly unroutable.  Lists the unroutable
 * pairs.  As in sr_verify, the LUT entries of 256 destinations are
 * gathered into a block first, and the GLUT entries of one partition.
 * A cut GLUT entry serves a whole partition, so after one the partition's
 * destinations are checked (and counted) again. */
SR_API void sr__gen_finish(const sr_topology *t, const sr_faults *f, uint8_t *tables, void *scratch,
                           const uint32_t *nbr, sr_pair *list, size_t capacity, sr_gen_report *rep) {
    const sr__gen_layout o = sr__gen_offsets(t);
    const uint32_t P = (uint32_t)t->num_ports, N = t->num_nodes, S = N * P * 2, NP = P - 1;
    const uint32_t L = t->lut_entries;
    const size_t LP = sr__v_row(t);
    uint32_t *sv = (uint32_t *)((uint8_t *)scratch + o.sv), *path = (uint32_t *)((uint8_t *)scratch + o.path);
    uint8_t *glut = (uint8_t *)scratch + o.glut, *block = (uint8_t *)scratch + o.fblock;
    uint32_t part, gen = 0;
    memset(sv, 0, (size_t)S * 8);
    for (part = 0; part < t->num_partitions; part++) {
        uint32_t lo = part << SR_PARTITION_SHIFT, hi = lo + L < N ? lo + L : N;
        uint64_t pairs0 = rep->pairs, unr0 = rep->unroutable;
        size_t listed0 = rep->listed;
        int again = 1;
        while (again) {
            uint32_t dst, u;
            int ip;
            again = 0;
            rep->pairs = pairs0; rep->unroutable = unr0; rep->listed = listed0;
            for (u = 0; u < N; u++)
                for (ip = 0; ip < (int)P; ip++)
                    glut[u * P + (uint32_t)ip] = tables[(size_t)u * t->table_size + (size_t)ip * t->table_stride + part];
            for (dst = lo; dst < hi; dst++) {
                uint32_t src;
                const uint8_t *row;
                uint8_t *wrow;
                if ((dst - lo) % SR__GEN_BLOCK == 0) {   /* gather the block's LUT entries */
                    uint32_t cnt = hi - dst < SR__GEN_BLOCK ? hi - dst : SR__GEN_BLOCK, b;
                    for (u = lo; u < hi; u++)
                        for (ip = 0; ip < (int)P; ip++) {
                            const uint8_t *from = tables + (size_t)u * t->table_size +
                                                  (size_t)ip * t->table_stride + SR_GLUT_ENTRIES + (dst - lo);
                            uint8_t *to = block + (u - lo) * P + (uint32_t)ip;
                            for (b = 0; b < cnt; b++) to[(size_t)b * LP] = from[b];
                        }
                }
                if (!sr_node_ok(f, dst)) continue;
                gen++;
                wrow = block + (size_t)((dst - lo) % SR__GEN_BLOCK) * LP;
                row = wrow;
                for (src = 0; src < N; src++) {
                    uint32_t x, u2, result;
                    int ip2, vb, len, j, bad;
                    if (!sr_node_ok(f, src)) continue;
                retry:
                    u2 = src; ip2 = t->proc_port; vb = 0; len = 0; bad = 0; result = 3;
                    x = (u2 * P + (uint32_t)ip2) * 2;
                    for (;;) {
                        sr_entry e;
                        int port;
                        uint32_t v;
                        if (sv[2 * x] == gen) {
                            if (sv[2 * x + 1] == 1) bad = 1;
                            else result = sv[2 * x + 1];
                            break;
                        }
                        sv[2 * x] = gen;
                        sv[2 * x + 1] = 1;
                        path[len++] = x;
                        e = (u2 >> SR_PARTITION_SHIFT) == part ? row[(u2 - lo) * P + (uint32_t)ip2]
                                                               : glut[u2 * P + (uint32_t)ip2];
                        port = e & 31;
                        if (port == SR_PORT_NONE) { result = 3; break; }
                        if (port == t->proc_port) { if (u2 == dst) result = 2; else bad = 1; break; }
                        v = port < t->proc_port && port != ip2 ? nbr[u2 * NP + (uint32_t)port] : SR_NO_NODE;
                        if (v == SR_NO_NODE) { bad = 1; break; }
                        v &= ~(1u << 30);
                        vb = sr_entry_vc(e, vb);
                        u2 = v; ip2 = port ^ 1;
                        x = (u2 * P + (uint32_t)ip2) * 2 + (uint32_t)vb;
                    }
                    if (bad) {
                        /* cut the walk at its last state and try again */
                        uint32_t y = path[len - 1], yu = (y >> 1) / P, yi = (y >> 1) % P;
                        if ((yu >> SR_PARTITION_SHIFT) == part) {
                            wrow[(yu - lo) * P + yi] = SR_ENTRY_NONE;
                            tables[(size_t)yu * t->table_size + (size_t)yi * t->table_stride +
                                   SR_GLUT_ENTRIES + (dst - lo)] = SR_ENTRY_NONE;
                        } else {
                            glut[yu * P + yi] = SR_ENTRY_NONE;
                            tables[(size_t)yu * t->table_size + (size_t)yi * t->table_stride + part] =
                                SR_ENTRY_NONE;
                            again = 1;
                        }
                        rep->patched++;
                        for (j = 0; j < len; j++) sv[2 * path[j]] = 0;
                        goto retry;
                    }
                    for (j = 0; j < len; j++) sv[2 * path[j] + 1] = result;
                    if (src == dst) continue;
                    rep->pairs++;
                    if (result == 3) sr__gen_unroutable(rep, list, capacity, src, dst);
                }
            }
        }
    }
}

/* >>search ============================================================
 * Fault-aware tables by search (beyond the paper)
 * ====================================================================== */

/**
 * Default direction order of sr_tables_build_search: positive first,
 * then negative (x+, y+, z+, ..., x-, y-, z-, ...).
 *
 * :param t: the topology.
 * :param order: out, t->num_ports - 1 ports, lowest rank first.
 */
SR_API void sr_order_positive_first(const sr_topology *t, int *order) {
    int d;
    for (d = 0; d < t->num_dims; d++) {
        order[d] = 2 * d;
        order[t->num_dims + d] = 2 * d + 1;
    }
}

/* The search's working state (private). */
typedef struct sr__sctx {
    const sr_topology *t;
    const uint32_t *nbr;
    const int *rank;            /* direction ranks, or NULL: the XT turn rule */
    int all_mesh;
    uint32_t P, NP, PM, part, lo, hi, multi;
    uint8_t *E;                 /* entry per state (u * P + ip) */
    uint8_t *lab;               /* per state outside the partition (GLUT): 1 if
                                   only lower-VC packets may arrive */
    uint8_t *reach;             /* per state of the partition: sub-states reached */
    uint32_t *queue, *tgt, *glen;
    uint32_t *xhead, *xitem, *cstate, *cnext, *bhead, *btail;
    uint8_t *centry;
    uint32_t ring, ncand;
    int retarget;               /* may a state change its entry (see sr__search_reach) */
    uint8_t turn[SR_MAX_PORTS][SR_MAX_PORTS]; /* sr__search_turn for every (i, q) */
} sr__sctx;

/* Whether a packet that arrived on input port i may leave by port q:
 * 0 never, 1 yes, 2 only if it arrived on the lower VC of its class.
 * Never 180 degrees; injection may take any port; straight on always.
 * With a direction order: a turn only to a direction of higher rank (all
 * meshes: any turn but from a negative to a positive direction).  The
 * default turn rule (no order), for a packet that travelled direction
 * `from` of dimension d (docs/routing.rst gives the channel ranks that
 * prove it deadlock-free):
 *   d = 0 (x):  any direction;
 *   d+ (d > 0): any direction of a higher dimension and any - direction;
 *               x or a + direction of a lower dimension only on the lower
 *               VC (this run has not crossed d's dateline);
 *   d- (d > 0): a - direction of a higher dimension; a - direction of a
 *               lower one only on the lower VC; never x or a + direction. */
SR_API int sr__search_turn(const sr__sctx *c, int i, int q) {
    int from, df, dq;
    if (i == q) return 0;
    if (i == c->t->proc_port) return 1;
    from = i ^ 1;                              /* the direction it travelled */
    if (from == q) return 1;
    if (c->rank) return c->all_mesh ? !((from & 1) && !(q & 1)) : c->rank[q] > c->rank[from];
    df = from >> 1;
    dq = q >> 1;
    if (df == 0) return 1;
    if (from & 1) {
        if (!(q & 1) || dq == 0) return 0;
        if (dq > df) return 1;
    } else if (dq > df || ((q & 1) && dq > 0)) return 1;
    return c->t->mesh[df] ? 1 : 2;
}

/* The entry for leaving by q over the link whose nbr word is `link`,
 * after arriving on input port i. */
SR_API sr_entry sr__search_entry(const sr__sctx *c, int i, int q, uint32_t link) {
    int straight = i != c->t->proc_port && (i ^ 1) == q;
    return sr_entry_make(q, (link >> 30) & 1 ? SR_VC_UPPER : straight ? SR_VC_KEEP : SR_VC_LOWER);
}

/* The label a predecessor state (node w, arrived on i, leaving by q over
 * `link`) needs to route into a state labelled `to`: 0 any VC may arrive,
 * 1 only the lower VC, or -1 if it cannot route into it at all.  A state
 * labelled 1 takes only packets on the lower VC: none may reach it over a
 * dateline hop, and one that goes straight on into it must itself hold
 * only lower-VC packets.  A state that packets enter over a dateline hop
 * holds upper-VC packets only, so it can never be labelled 1; one that
 * goes straight on over a dateline hop holds lower-VC packets only (a run
 * never crosses its dateline twice). */
SR_API int sr__search_label(const sr__sctx *c, uint32_t w, int i, int q, uint32_t link, int to) {
    int turn = sr__search_turn(c, i, q), straight, need;
    if (!turn) return -1;
    straight = i != c->t->proc_port && (i ^ 1) == q;
    if (to && (link >> 30) & 1) return -1;
    need = turn == 2 || (to && straight) || (straight && (link >> 30) & 1);
    if (need && i != c->t->proc_port && (c->nbr[w * c->NP + (uint32_t)i] >> 30) & 1) return -1;
    return need;
}

/* Offer state z the entry e with label l at distance d (dist[] for
 * states of the partition, glen[] outside).  A free state takes it; a
 * state that already has an entry at the same distance but takes only
 * lower-VC packets trades it for one that takes any.  Returns 1 if z is
 * new (to be queued), 2 if it traded, 0 otherwise. */
SR_API int sr__search_offer(sr__sctx *c, uint32_t z, sr_entry e, int l, uint32_t d, uint32_t *dz) {
    if (c->E[z] == SR_ENTRY_NONE) {
        c->E[z] = e;
        c->lab[z] = (uint8_t)l;
        *dz = d;
        return 1;
    }
    if ((c->lab[z] & 1) && !l && *dz == d) { c->E[z] = e; c->lab[z] = 0; return 2; }
    return 0;
}

/* GLUT routes into partition c->part: backward breadth-first search over
 * the states outside it, from the targets already in the queue (states
 * of the partition entered over an x link, with tgt[z] = z and glen[z] =
 * 0).  A reached state gets its entry, the target its route enters at
 * (tgt) and the hops to it (glen). */
SR_API void sr__search_glut_bfs(sr__sctx *c, uint32_t head, uint32_t tail) {
    const sr_topology *t = c->t;
    while (head < tail) {
        uint32_t y = c->queue[head++], v = sr__divp(y, c->PM), w, lw;
        int j = (int)(y - v * c->P), q, i;
        if (j == t->proc_port) continue;
        w = c->nbr[v * c->NP + (uint32_t)j];          /* the node the packet came from */
        if (w == SR_NO_NODE) continue;
        lw = w & ~(1u << 30);
        q = j ^ 1;                                    /* the port it left w by */
        if ((lw >> SR_PARTITION_SHIFT) == c->part) continue;
        for (i = 0; i < (int)c->P; i++) {
            uint32_t z = lw * c->P + (uint32_t)i;
            int l = sr__search_label(c, lw, i, q, w, c->lab[y] & 1), got;
            if (l < 0) continue;
            got = sr__search_offer(c, z, sr__search_entry(c, i, q, w), l, c->glen[y] + 1, &c->glen[z]);
            if (got) c->tgt[z] = c->tgt[y];
            if (got == 1 && i != t->proc_port) c->queue[tail++] = z;
        }
    }
}

/* The routes of one destination inside its partition are searched over
 * sub-states (state, VC): whether a packet that arrives at a state on
 * that VC reaches the destination depends on the VC (a turn back into a
 * lower dimension is allowed on the lower VC only), while the table has
 * one entry per state for both.  reach[] holds, per state of the
 * partition, bit 0 and bit 1 for its VC0 and VC1 sub-states reached, and
 * bit 2 once its exits have been offered. */

/* Whether the entry e of state z (node u, input port i) serves a packet
 * that arrives on VC v: the turn is allowed on v and the sub-state it
 * leads to is reached (a route out of the partition: any). */
SR_API int sr__search_serves(const sr__sctx *c, uint32_t u, int i, sr_entry e, int v) {
    const sr_topology *t = c->t;
    int q = sr_entry_port(e), turn, nv;
    uint32_t link, n;
    if (q == t->proc_port) return 1;
    turn = sr__search_turn(c, i, q);
    if (!turn || (turn == 2 && v)) return 0;
    link = c->nbr[u * c->NP + (uint32_t)q];
    if (v && (link >> 30) & 1 && (i ^ 1) == q) return 0;     /* a run never crosses twice */
    n = link & ~(1u << 30);
    if ((n >> SR_PARTITION_SHIFT) != c->part) return 1;
    nv = sr_entry_vc(e, v);
    return (c->reach[n * c->P + (uint32_t)(q ^ 1) - c->lo * c->P] >> nv) & 1;
}

/* Give state z (of the partition) the entry e instead of its own, if e
 * serves every VC already reached at z and the route from z then still
 * reaches the destination without coming back to z (a route out of the
 * partition continues at its GLUT target).  Only z's entry changes, so
 * any loop would pass through z. */
SR_API int sr__search_retarget(sr__sctx *c, uint32_t z, sr_entry e) {
    const sr_topology *t = c->t;
    const uint32_t off = c->lo * c->P;
    sr_entry old = c->E[z];
    uint32_t s = z, steps = 0, limit = (c->hi - c->lo) * c->P + 1, u = sr__divp(z, c->PM);
    int i = (int)(z - u * c->P), v;
    for (v = 0; v < 2; v++)
        if (((c->reach[z - off] >> v) & 1) && !sr__search_serves(c, u, i, e, v)) return 0;
    c->E[z] = e;
    for (;;) {
        uint32_t w, n;
        int port = sr_entry_port(c->E[s]);
        if (port == t->proc_port) return 1;
        if (port == SR_PORT_NONE || ++steps > limit) break;
        w = sr__divp(s, c->PM);
        n = c->nbr[w * c->NP + (uint32_t)port] & ~(1u << 30);
        s = n * c->P + (uint32_t)(port ^ 1);
        if ((n >> SR_PARTITION_SHIFT) != c->part) s = c->tgt[s];
        if (s == z) break;
    }
    c->E[z] = old;
    return 0;
}

/* Offer the sub-states of z in `mask` (bit v: VC v) the entry e: a state
 * without an entry takes it; a state whose entry is e gains the
 * sub-states; a state with another entry changes to e if that keeps its
 * other sub-states and makes no loop (only when c->retarget).  Returns
 * the sub-states newly reached. */
SR_API int sr__search_reach(sr__sctx *c, uint32_t z, int mask, sr_entry e) {
    const uint32_t zl = z - c->lo * c->P;
    int want = mask & ~c->reach[zl] & 3;
    if (!want) return 0;
    if (c->E[z] == SR_ENTRY_NONE) c->E[z] = e;
    else if (c->E[z] != e && (!c->retarget || !sr__search_retarget(c, z, e))) return 0;
    c->reach[zl] |= (uint8_t)want;
    return want;
}

/* Routes to one destination of the partition, whose states are seeded in
 * the queue (tail items of 4 * state + 3, distance 0): backward search over
 * the partition's sub-states, shortest routes first.  A queue item is a
 * state with the sub-states reached at one distance.  A state steps to a
 * neighbouring state of the partition (one hop), or out of the partition
 * onto a GLUT route, which brings it back at the route's target after
 * 1 + glen hops; those candidates wait in buckets by distance (Dial's
 * algorithm) and join the search when it reaches their distance.  Entries
 * go to E; states outside the partition are never written. */
SR_API void sr__search_dst_bfs(sr__sctx *c, uint32_t tail) {
    const sr_topology *t = c->t;
    const uint32_t off = c->lo * c->P;
    uint32_t head = 0, level = 0, level_end = tail, pending = 0, b;
    for (b = 0; b < c->ring; b++) c->bhead[b] = SR_NO_NODE;
    c->ncand = 0;
    for (;;) {
        uint32_t y, v, w, lw;
        int j, q, i, up, ymask;
        if (head == level_end) {
            /* a level done: the items it found (one hop further) are the
             * next level, and that level's candidates join them first;
             * levels with nothing are skipped */
            do {
                uint32_t k;
                if (head == tail && !pending) return;
                level++;
                k = c->bhead[level % c->ring];
                c->bhead[level % c->ring] = SR_NO_NODE;
                while (k != SR_NO_NODE) {
                    uint32_t zs = c->cstate[k];
                    int got = sr__search_reach(c, zs >> 2, (int)(zs & 3), (sr_entry)c->centry[k]);
                    pending--;
                    if (got) c->queue[tail++] = (zs & ~3u) | (uint32_t)got;
                    k = c->cnext[k];
                }
            } while (head == tail);
            level_end = tail;
        }
        y = c->queue[head] >> 2;
        ymask = (int)(c->queue[head++] & 3);
        v = sr__divp(y, c->PM);
        j = (int)(y - v * c->P);
        /* out of the partition and back through y: every exit state whose
         * GLUT route enters at y (once per state; y is entered over an x
         * link, where both VCs are routed alike) */
        if (c->multi && !(c->reach[y - off] & 4) && c->xhead[y - off] != c->xhead[y - off + 1]) {
            uint32_t k;
            c->reach[y - off] |= 4;
            for (k = c->xhead[y - off]; k < c->xhead[y - off + 1]; k++) {
                uint32_t x = c->xitem[k], xw = sr__divp(x, c->PM), link, v2;
                int xj = (int)(x - xw * c->P), q2 = xj ^ 1, i2;
                uint32_t d2 = level + 1 + c->glen[x];
                link = c->nbr[xw * c->NP + (uint32_t)xj];
                v2 = link & ~(1u << 30);                 /* the node inside that exits */
                for (i2 = 0; i2 < (int)c->P; i2++) {
                    uint32_t z = v2 * c->P + (uint32_t)i2, s = d2 % c->ring, n;
                    int turn = c->turn[i2][q2], zm;
                    if (!turn) continue;
                    /* VC1 only where the turn allows it, and not straight
                     * on over a dateline (a run never crosses it twice) */
                    zm = turn == 2 || i2 == t->proc_port || ((link >> 30) & 1 && (i2 ^ 1) == q2) ? 1 : 3;
                    zm &= ~c->reach[z - off];
                    if (!zm) continue;
                    n = c->ncand++;
                    c->cstate[n] = 4 * z + (uint32_t)zm;
                    c->centry[n] = sr__search_entry(c, i2, q2, link);
                    c->cnext[n] = SR_NO_NODE;
                    if (c->bhead[s] == SR_NO_NODE) c->bhead[s] = n;
                    else c->cnext[c->btail[s]] = n;
                    c->btail[s] = n;
                    pending++;
                }
            }
        }
        if (j == t->proc_port) continue;
        w = c->nbr[v * c->NP + (uint32_t)j];             /* the node the packet came from */
        if (w == SR_NO_NODE) continue;
        lw = w & ~(1u << 30);
        if ((lw >> SR_PARTITION_SHIFT) != c->part) continue;   /* entered from outside: GLUT */
        q = j ^ 1;
        up = (int)(w >> 30) & 1;
        for (i = 0; i < (int)c->P; i++) {
            uint32_t z = lw * c->P + (uint32_t)i;
            int turn = c->turn[i][q], straight = (i ^ 1) == q, zm = 0, got;
            if (!turn) continue;
            /* the VCs z's packets may hold so that they arrive at y in one
             * of y's sub-states: straight on (not over the dateline) keeps
             * the VC; a turn arrives on VC0, a dateline hop on VC1; only
             * VC0 where the turn needs it, and not straight on over a
             * dateline */
            if (straight && !up) zm = ymask & (turn == 2 ? 1 : 3);
            else if ((ymask >> up) & 1) zm = turn == 2 || straight || i == t->proc_port ? 1 : 3;
            if (!zm) continue;
            got = sr__search_reach(c, z, zm, sr__search_entry(c, i, q, w));
            if (got && i != t->proc_port) c->queue[tail++] = 4 * z + (uint32_t)got;
        }
    }
}

/* One destination's search: reset the partition's entries, seed the
 * destination's states (both VCs, distance 0) and search. */
SR_API void sr__search_dst(sr__sctx *c, uint32_t dst, int retarget) {
    const uint32_t P = c->P, off = c->lo * P;
    uint32_t tail = 0;
    int i;
    memset(c->E + off, SR_ENTRY_NONE, (size_t)(c->hi - c->lo) * P);
    memset(c->reach, 0, (size_t)(c->hi - c->lo) * P);
    for (i = 0; i < (int)P; i++) {
        uint32_t z = dst * P + (uint32_t)i, zl = z - off;
        c->E[z] = sr_entry_make(c->t->proc_port, SR_VC_KEEP);
        c->reach[zl] = 3;
        if (i != c->t->proc_port) c->queue[tail++] = 4 * z + 3;
    }
    c->retarget = retarget;
    sr__search_dst_bfs(c, tail);
}

/* Live routers of the partition whose injection misses the destination
 * just searched, plus used GLUT targets that miss it. */
SR_API uint32_t sr__search_missed(const sr__sctx *c, const sr_faults *f, const uint32_t *used,
                                  uint32_t nused) {
    const uint32_t P = c->P, off = c->lo * P;
    uint32_t u, k, n = 0;
    for (u = c->lo; u < c->hi; u++)
        n += sr_node_ok(f, u) && !(c->reach[u * P + (uint32_t)c->t->proc_port - off] & 1);
    for (k = 0; k < nused; k++) n += !(c->reach[used[k] - off] & 3);
    return n;
}

/* The GLUT entries of partition c->part: shortest routes (under the
 * discipline) from every state outside it to a state of the partition
 * entered over an x link -- first to targets not marked `bad`, then, for
 * states that reach none of those, to any.  Writes them to the tables and
 * prepares the destination searches: the exit lists (per target, the
 * states just outside whose GLUT route enters there), the ring of
 * candidate buckets, `cnt` (per target, the live routers outside whose
 * injection route enters there), `used` (the targets some route enters
 * at, *nused of them) and *none_out (live routers outside with no route
 * into the partition). */
SR_API void sr__search_glut(sr__sctx *c, const uint8_t *bad, uint32_t *cnt, uint32_t *used,
                            uint32_t *nused, uint32_t *none_out, const sr_faults *f, uint8_t *tables) {
    const sr_topology *t = c->t;
    const uint32_t N = t->num_nodes, P = c->P, off = c->lo * P, lp = (c->hi - c->lo) * P;
    uint32_t u, z, maxglen = 0, k;
    int pass, i;
    memset(c->E, SR_ENTRY_NONE, (size_t)N * P);
    for (pass = 0; pass < 2; pass++) {
        uint32_t tail = 0;
        for (u = c->lo; u < c->hi; u++)
            for (i = 0; i < 2; i++) {
                z = u * P + (uint32_t)i;
                if (!sr_node_ok(f, u) || c->E[z] != SR_ENTRY_NONE || (pass == 0 && bad[z - off])) continue;
                c->E[z] = 0;                       /* a target, not an entry */
                c->lab[z] = 0;
                c->tgt[z] = z;
                c->glen[z] = 0;
                c->queue[tail++] = z;
            }
        sr__search_glut_bfs(c, 0, tail);
    }
    memset(cnt, 0, (size_t)lp * 4);
    memset(c->xhead, 0, (size_t)(lp + 1) * 4);
    *none_out = 0;
    for (u = 0; u < N; u++) {
        if ((u >> SR_PARTITION_SHIFT) == c->part) continue;
        for (i = 0; i < (int)P; i++) {
            uint8_t e;
            z = u * P + (uint32_t)i;
            e = c->E[z];
            tables[(size_t)u * t->table_size + (size_t)i * t->table_stride + c->part] = e;
            if (e == SR_ENTRY_NONE) {
                if (i == t->proc_port && sr_node_ok(f, u)) (*none_out)++;
                continue;
            }
            if (c->glen[z] > maxglen) maxglen = c->glen[z];
            if (i == t->proc_port) { if (sr_node_ok(f, u)) cnt[c->tgt[z] - off]++; }
            else if (((c->nbr[u * c->NP + (uint32_t)i] & ~(1u << 30)) >> SR_PARTITION_SHIFT) == c->part)
                c->xhead[c->tgt[z] - off + 1]++;   /* an exit state */
        }
    }
    for (k = 0, *nused = 0; k < lp; k++) {
        if (cnt[k] || c->xhead[k + 1]) used[(*nused)++] = k + off;
        c->xhead[k + 1] += c->xhead[k];
    }
    for (u = 0; u < N; u++) {                     /* fill the exit lists */
        if ((u >> SR_PARTITION_SHIFT) == c->part) continue;
        for (i = 0; i < t->proc_port; i++) {
            uint32_t s;
            z = u * P + (uint32_t)i;
            if (c->E[z] == SR_ENTRY_NONE ||
                ((c->nbr[u * c->NP + (uint32_t)i] & ~(1u << 30)) >> SR_PARTITION_SHIFT) != c->part)
                continue;
            s = c->tgt[z] - off;
            c->xitem[c->xhead[s]++] = z;
        }
    }
    for (k = lp; k > 0; k--) c->xhead[k] = c->xhead[k - 1];   /* back to starts */
    c->xhead[0] = 0;
    c->ring = maxglen + 2;
}

/* One destination's routes inside its partition: a search that keeps
 * every entry once set (shortest routes), and, if an injection or a used
 * GLUT target then misses the destination, a second one that may change
 * entries (sr__search_retarget); the better of the two stays. */
SR_API void sr__search_route(sr__sctx *c, const sr_faults *f, uint32_t dst, const uint32_t *used,
                             uint32_t nused, uint8_t *save) {
    size_t n = (size_t)(c->hi - c->lo) * c->P;
    uint32_t miss;
    sr__search_dst(c, dst, 0);
    miss = sr__search_missed(c, f, used, nused);
    if (!miss) return;
    memcpy(save, c->E + (size_t)c->lo * c->P, n);
    memcpy(save + n, c->reach, n);
    sr__search_dst(c, dst, 1);
    if (sr__search_missed(c, f, used, nused) > miss) {
        memcpy(c->E + (size_t)c->lo * c->P, save, n);
        memcpy(c->reach, save + n, n);
    }
}

/* The dependency graph of the tables (dep[]: per channel -- a (state, VC)
 * a packet arrives in -- a bit per (output port, VC) it leaves on) is
 * built exactly, by following the routes actually taken: from every live
 * router's injection, through the entries, with the VC each packet holds.
 * Every route follows the discipline, so the graph is acyclic (the channel
 * ranks in docs/routing.rst); the repairs need to know which channels no
 * packet goes on from. */

/* Follow the GLUT route from sub-state x = 2 * state + VC outside the
 * partition until it enters the partition; return the sub-state it enters
 * in (or SR_NO_NODE), adding the route's dependencies to dep[].  gres[]
 * memoises the answer per sub-state for the current GLUT entries. */
SR_API uint32_t sr__search_walk_glut(const sr__sctx *c, uint32_t x, uint32_t *dep, uint32_t *gres) {
    const uint32_t P = c->P;
    uint32_t start = x, res;
    for (;;) {
        uint32_t z = x >> 1, u = sr__divp(z, c->PM), n;
        int v = (int)(x & 1), q;
        sr_entry e;
        if (gres[x] != SR_NO_NODE - 1) { res = gres[x]; break; }
        e = c->E[z];
        if (e == SR_ENTRY_NONE) { res = SR_NO_NODE; break; }
        q = sr_entry_port(e);
        if (z - u * P != (uint32_t)c->t->proc_port) dep[x] |= 1u << (2 * q + sr_entry_vc(e, v));
        n = c->nbr[u * c->NP + (uint32_t)q] & ~(1u << 30);
        x = 2 * (n * P + (uint32_t)(q ^ 1)) + (uint32_t)sr_entry_vc(e, v);
        if ((n >> SR_PARTITION_SHIFT) == c->part) { res = x; break; }
    }
    /* the same answer for every sub-state on the way */
    for (x = start; gres[x] == SR_NO_NODE - 1;) {
        uint32_t z = x >> 1, u = sr__divp(z, c->PM), n;
        int q = sr_entry_port(c->E[z]);
        gres[x] = res;
        if (c->E[z] == SR_ENTRY_NONE) break;
        n = c->nbr[u * c->NP + (uint32_t)q] & ~(1u << 30);
        x = 2 * (n * P + (uint32_t)(q ^ 1)) + (uint32_t)sr_entry_vc(c->E[z], (int)(x & 1));
        if ((n >> SR_PARTITION_SHIFT) == c->part) break;
    }
    return res;
}

/* Follow the routes to the destination just searched from sub-state x
 * (inside the partition), adding their dependencies; bits 4 and 5 of
 * reach mark the sub-states already followed. */
SR_API void sr__search_walk(sr__sctx *c, uint32_t x, uint32_t *dep, uint32_t *gres) {
    const uint32_t P = c->P, off = c->lo * P;
    while (x != SR_NO_NODE) {
        uint32_t z = x >> 1, u = sr__divp(z, c->PM), n;
        int v = (int)(x & 1), q;
        sr_entry e = c->E[z];
        if ((c->reach[z - off] >> (4 + v)) & 1) return;
        c->reach[z - off] |= (uint8_t)(16 << v);
        q = sr_entry_port(e);
        if (e == SR_ENTRY_NONE || q == c->t->proc_port) return;
        if (z - u * P != (uint32_t)c->t->proc_port) dep[x] |= 1u << (2 * q + sr_entry_vc(e, v));
        n = c->nbr[u * c->NP + (uint32_t)q] & ~(1u << 30);
        x = 2 * (n * P + (uint32_t)(q ^ 1)) + (uint32_t)sr_entry_vc(e, v);
        if ((n >> SR_PARTITION_SHIFT) != c->part) x = sr__search_walk_glut(c, x, dep, gres);
    }
}

/* The dependencies of every route to the destination just searched: from
 * the injection of each live router of the partition, and from the
 * sub-states that the GLUT routes of the routers outside enter in
 * (starts[0..nstarts-1]). */
SR_API void sr__search_walk_dst(sr__sctx *c, const sr_faults *f, uint32_t *dep, uint32_t *gres,
                                const uint32_t *starts, uint32_t nstarts) {
    uint32_t u, k;
    for (u = c->lo; u < c->hi; u++)
        if (sr_node_ok(f, u)) sr__search_walk(c, 2 * (u * c->P + (uint32_t)c->t->proc_port), dep, gres);
    for (k = 0; k < nstarts; k++) sr__search_walk(c, starts[k], dep, gres);
}

/* For a new set of GLUT entries: forget the memo, follow the GLUT route of
 * every live router outside the partition from its injection (adding
 * those dependencies), and list the distinct sub-states they enter in. */
SR_API uint32_t sr__search_walk_gluts(sr__sctx *c, const sr_faults *f, uint32_t *dep, uint32_t *gres,
                                      uint32_t *starts, uint8_t *seen) {
    const uint32_t N = c->t->num_nodes, P = c->P, off = c->lo * P;
    uint32_t u, n = 0;
    for (u = 0; u < N * P * 2; u++) gres[u] = SR_NO_NODE - 1;   /* not yet followed */
    memset(seen, 0, (size_t)(c->hi - c->lo) * P * 2);
    for (u = 0; u < N; u++) {
        uint32_t x;
        if ((u >> SR_PARTITION_SHIFT) == c->part || !sr_node_ok(f, u)) continue;
        x = sr__search_walk_glut(c, 2 * (u * P + (uint32_t)c->t->proc_port), dep, gres);
        if (x != SR_NO_NODE && !seen[x - 2 * off]) { seen[x - 2 * off] = 1; starts[n++] = x; }
    }
    return n;
}

/* Repair routes to the destination just searched, where the discipline
 * leaves sources without one.  The last hop into the destination may be
 * any hop, on a VC whose channel (that link, that VC) has no dependency at
 * all yet -- no packet goes on from it -- and that is then reserved so
 * that none ever will; states of the partition without an entry are then
 * routed to those last hops, or to any sub-state that reaches the
 * destination, by the discipline (the same search, breadth-first
 * backwards, assigning only states without an entry; bit 3 of reach marks
 * them).  Every dependency a repair adds either follows the discipline or
 * ends in a reserved channel, which no cycle can pass, so the dependency
 * graph stays acyclic; each is added to dep[].  Returns the number of
 * states repaired. */
SR_API uint32_t sr__search_repair(sr__sctx *c, uint32_t dst, uint32_t *dep, uint8_t *reserved) {
    const sr_topology *t = c->t;
    const uint32_t P = c->P, off = c->lo * P;
    uint32_t z, head = 0, tail = 0, fixed = 0;
    int p, i, v;
    /* the sub-states that reach the destination */
    for (z = off; z < c->hi * P; z++) {
        if (z % P == (uint32_t)t->proc_port) continue;
        for (v = 0; v < 2; v++)
            if ((c->reach[z - off] >> v) & 1) c->queue[tail++] = 2 * z + (uint32_t)v;
    }
    /* free last hops into the destination over channels nothing goes on from */
    for (p = 0; p < t->proc_port; p++) {
        uint32_t link = c->nbr[dst * c->NP + (uint32_t)p], a = link & ~(1u << 30);
        int q = p ^ 1;
        if (link == SR_NO_NODE || (a >> SR_PARTITION_SHIFT) != c->part) continue;
        for (v = 0; v < 2; v++) {
            uint32_t ch = 2 * (dst * P + (uint32_t)p) + (uint32_t)v;
            sr_entry e = sr_entry_make(q, v ? SR_VC_UPPER : SR_VC_LOWER);
            if (dep[ch] || (reserved[ch >> 3] >> (ch & 7)) & 1) continue;
            for (i = 0; i < (int)P; i++) {
                int vz;
                z = a * P + (uint32_t)i;
                if (i == q || (c->E[z] != SR_ENTRY_NONE && (!(c->reach[z - off] & 8) || c->E[z] != e))) continue;
                for (vz = 0; vz < (i == t->proc_port ? 1 : 2); vz++) {
                    uint32_t cz = 2 * z + (uint32_t)vz;
                    if (((c->reach[z - off] >> vz) & 1) || (i != t->proc_port && (reserved[cz >> 3] >> (cz & 7)) & 1))
                        continue;
                    if (c->E[z] == SR_ENTRY_NONE) fixed++;
                    c->E[z] = e;
                    c->reach[z - off] |= (uint8_t)(8 | (1 << vz));
                    reserved[ch >> 3] |= (uint8_t)(1u << (ch & 7));
                    if (i == t->proc_port) continue;
                    dep[cz] |= 1u << (2 * q + v);
                    c->queue[tail++] = cz;
                }
            }
        }
    }
    /* routes to them by the discipline */
    while (head < tail) {
        uint32_t yv = c->queue[head++], y = yv >> 1, u = sr__divp(y, c->PM), w, lw;
        int j = (int)(y - u * P), q, up, vy = (int)(yv & 1);
        w = c->nbr[u * c->NP + (uint32_t)j];
        if (w == SR_NO_NODE) continue;
        lw = w & ~(1u << 30);
        if ((lw >> SR_PARTITION_SHIFT) != c->part) continue;
        q = j ^ 1;
        up = (int)(w >> 30) & 1;
        for (i = 0; i < (int)P; i++) {
            int turn = c->turn[i][q], straight = (i ^ 1) == q, vz;
            sr_entry e = sr__search_entry(c, i, q, w);
            z = lw * P + (uint32_t)i;
            if (!turn || (c->E[z] != SR_ENTRY_NONE && (!(c->reach[z - off] & 8) || c->E[z] != e))) continue;
            for (vz = 0; vz < (i == t->proc_port ? 1 : 2); vz++) {
                uint32_t cz = 2 * z + (uint32_t)vz;
                /* the discipline's VC rules, as in sr__search_dst_bfs */
                if ((up ? 1 : straight ? vz : 0) != vy || (turn == 2 && vz) || (straight && up && vz)) continue;
                if (((c->reach[z - off] >> vz) & 1) || (i != t->proc_port && (reserved[cz >> 3] >> (cz & 7)) & 1))
                    continue;
                if (c->E[z] == SR_ENTRY_NONE) fixed++;
                c->E[z] = e;
                c->reach[z - off] |= (uint8_t)(8 | (1 << vz));
                if (i == t->proc_port) continue;
                dep[cz] |= 1u << (2 * q + sr_entry_vc(e, vz));
                c->queue[tail++] = cz;
            }
        }
    }
    return fixed;
}

/* Count (and list) the sources that do not reach `dst` in the current
 * search: inside the partition, by their injection sub-state; outside, by
 * the sub-state their GLUT route enters the partition in (followed from
 * injection on VC0), or no GLUT route at all. */
SR_API uint64_t sr__search_count(const sr__sctx *c, const sr_faults *f, uint32_t dst, sr_pair *list,
                                 size_t capacity, sr_gen_report *rep) {
    const sr_topology *t = c->t;
    const uint32_t P = c->P, off = c->lo * P;
    uint32_t src;
    uint64_t n = 0;
    for (src = 0; src < t->num_nodes; src++) {
        uint32_t x = src * P + (uint32_t)t->proc_port;
        int ok, vc = 0;
        if (src == dst || !sr_node_ok(f, src)) continue;
        if ((src >> SR_PARTITION_SHIFT) == c->part) ok = c->reach[x - off] & 1;
        else {
            uint32_t s = x, lim = t->num_nodes * P;
            ok = 0;
            while (c->E[s] != SR_ENTRY_NONE && lim--) {  /* the GLUT route, VC included */
                int q = sr_entry_port(c->E[s]);
                uint32_t u = sr__divp(s, c->PM), v2 = c->nbr[u * c->NP + (uint32_t)q] & ~(1u << 30);
                vc = sr_entry_vc(c->E[s], vc);
                s = v2 * P + (uint32_t)(q ^ 1);
                if ((v2 >> SR_PARTITION_SHIFT) == c->part) { ok = (c->reach[s - off] >> vc) & 1; break; }
            }
        }
        if (!ok) { sr__gen_unroutable(rep, list, capacity, src, dst); n++; }
    }
    return n;
}

/* Write the entries of n destinations from `first` on, collected in blk
 * (n rows of the partition's states), into the LUTs: a run of n entries
 * per (router, input port), transposed 16 states at a time. */
SR_API void sr__search_flush(const sr__sctx *c, uint8_t *tables, const uint8_t *blk, uint32_t first, uint32_t n) {
    const uint32_t lp = (c->hi - c->lo) * c->P, off = c->lo * c->P;
    uint8_t tile[16][SR__GEN_BLOCK];
    uint32_t z0, j, b;
    for (z0 = 0; z0 < lp; z0 += 16) {
        uint32_t m = lp - z0 < 16 ? lp - z0 : 16;
        for (b = 0; b < n; b++)
            for (j = 0; j < m; j++) tile[j][b] = blk[(size_t)b * lp + z0 + j];
        for (j = 0; j < m; j++) {
            uint32_t z = off + z0 + j, u = sr__divp(z, c->PM), i = z - u * c->P;
            memcpy(tables + (size_t)u * c->t->table_size + (size_t)i * c->t->table_stride + SR_GLUT_ENTRIES +
                       (first - c->lo),
                   tile[j], n);
        }
    }
}

/* Write the entries of the partition's states for `dst` into its LUTs. */
SR_API void sr__search_write_dst(const sr__sctx *c, uint8_t *tables, uint32_t dst) {
    uint32_t u;
    int i;
    for (u = c->lo; u < c->hi; u++)
        for (i = 0; i < (int)c->P; i++)
            tables[(size_t)u * c->t->table_size + (size_t)i * c->t->table_stride + SR_GLUT_ENTRIES +
                   (dst - c->lo)] = c->E[u * c->P + (uint32_t)i];
}

/**
 * Fault-aware tables by search ("beyond the paper"): for every destination,
 * shortest routes in the graph of (router, input port) states under a
 * turn discipline with dateline VCs, then repairs where that discipline
 * leaves a connected pair unrouted.
 *
 * Discipline (``order`` NULL, the default), for a packet that travelled
 * direction ``from`` of dimension d (x is dimension 0): after x, any
 * direction; after d+ (d > 0), any direction of a higher dimension and any
 * - direction, and x or a + direction of a lower dimension only on the
 * lower VC (the run has not crossed d's dateline); after d- (d > 0), a -
 * direction of a higher dimension, and a - direction of a lower one only
 * on the lower VC.  Never 180 degrees.  VCs: the lower VC of the class on
 * every new direction, the upper VC from the hop over that dimension's
 * dateline on.  docs/routing.rst gives the rank of every channel that
 * grows along every such route, which makes the dependency graph of all
 * destinations together acyclic whatever the faults.  It contains
 * dimension-order routes (fault-free tables are minimal), lets a packet
 * go either way in x after any + detour (so that it can enter a global
 * partition from either side and still move freely) and detour around a
 * failed link in every dimension.  Whether a packet may turn back into a
 * lower dimension depends on its VC, so each destination is searched over
 * (state, VC) sub-states, with one entry per state serving both.
 *
 * With ``order`` (the 2n directions, lowest rank first): a packet goes
 * straight on or turns to a direction of higher rank only; when every
 * dimension is a mesh, the positive-first turn model of Glass and Ni [9]
 * instead (any turn but from a negative to a positive direction).
 *
 * Global partitions.  A router outside a destination's partition reads
 * the GLUT entry, one per (router, input port) for the whole partition.
 * The GLUT entries of a partition are computed first: the shortest route
 * into a state of the partition entered over an x link (a "target"),
 * preferring targets from which every destination of the partition is
 * reachable.  Routes to a destination may then leave its partition and
 * come back: a state next to the border may step out onto a GLUT route,
 * which enters again at its target after a known number of hops (Dial's
 * algorithm treats that as one long edge).  If a target that a GLUT route
 * uses misses some destination, it is marked, the partition's GLUT entries
 * are computed again without it, and the partition is searched again
 * (``rep->rounds`` counts the passes).
 *
 * Repairs (default rule only).  A few pairs may still have no route
 * under the discipline (with 1% of the links failed: destinations whose
 * y+ and z+ links have both failed, from sources that would have to come
 * down to them).  The dependencies of every route of every destination are
 * collected (dep[], per channel: the channels packets go on to); then, for
 * each such destination, the last hop into it may be any hop, over a link
 * and VC that no dependency leaves, and that channel is reserved so that
 * none ever will; the states of its partition without an entry are routed
 * to those last hops, or to any state that reaches the destination, by
 * the discipline.  Every added dependency follows the discipline or ends
 * in a reserved channel, which no cycle can pass, so the graph stays
 * acyclic (``rep->patched`` counts the repaired entries).
 *
 * Completeness: with 1% of the links of 16x16x16 and 32x32x32 failed,
 * every connected pair is routed (docs/routing.rst lists the runs); for a
 * single partition without repairs, the tests check that a pair is left
 * unrouted only if no route under the discipline exists.
 *
 * Departure from seed 001: this is not the SeaStar rule set (see
 * sr_tables_build_seastar) but a generator that routes what the rules do
 * not.
 *
 * The tables are then proven by sr_verify (delivery, an acyclic
 * dependency graph) and every pair the faults leave connected must be
 * delivered; otherwise the call says which, with the tables written.
 *
 * :param t: the topology.
 * :param faults: failed links and nodes, or NULL.
 * :param order: the 2n network ports, lowest rank first, or NULL for the
 *     default turn rule above.
 * :param tables: out, N * sr_table_size(t) bytes.
 * :param tables_size: size of ``tables``.
 * :param scratch: sr_gen_scratch_size(t) bytes, aligned for uint32_t.
 * :param scratch_size: its size.
 * :param list: out, unroutable pairs (may be NULL).
 * :param capacity: entries of ``list``.
 * :param rep: out, counts, the connected and delivered pairs, the verdict.
 * :returns: SR_OK (proven, every connected pair delivered); SR_ERR_DEADLOCK
 *     (the dependency graph has a cycle: sr_verify gives it);
 *     SR_ERR_UNDELIVERED (a connected pair is not delivered, or
 *     rep->failure says how the tables fail); both with the tables and
 *     ``rep`` written.  SR_ERR_NULL; SR_ERR_BUFFER_SIZE; SR_ERR_NODE_RANGE;
 *     SR_ERR_ORDER (order is not a permutation of the network ports):
 *     nothing is written on these.
 * :paper: beyond seed 001 (same table format; deadlock freedom by channel
 *     ranks as in Dally and Seitz [7], turn restrictions as in Glass and
 *     Ni [9], dateline VCs).
 */
SR_API sr_result sr_tables_build_search(const sr_topology *t, const sr_faults *faults,
                                        const int *order, uint8_t *tables, size_t tables_size,
                                        void *scratch, size_t scratch_size, sr_pair *list,
                                        size_t capacity, sr_gen_report *rep) {
    const uint32_t P = (uint32_t)t->num_ports, N = t->num_nodes;
    int rank[SR_MAX_PORTS], i, all_mesh = 1, failing = 0;
    uint32_t *cnt, *used, *dep, *gres, *starts, part, live = 0, u;
    uint8_t *base8 = (uint8_t *)scratch, *blk, *bad_all, *save, *fail, *reserved;
    sr__gen_layout o;
    sr__sctx c;
    sr_result r = sr__gen_args(t, faults, tables, tables_size, scratch, scratch_size, rep);
    if (r != SR_OK) return r;
    if (order) {
        for (i = 0; i < (int)P; i++) rank[i] = -1;
        for (i = 0; i < (int)P - 1; i++) {
            if (order[i] < 0 || order[i] >= (int)P - 1 || rank[order[i]] >= 0) return SR_ERR_ORDER;
            rank[order[i]] = i;
        }
    }
    for (i = 0; i < t->num_dims; i++) all_mesh &= t->mesh[i];
    memset(rep, 0, sizeof *rep);
    for (i = 0; i < t->num_dims; i++) rep->dateline[i] = t->dateline[i];
    o = sr__gen_offsets(t);
    memset(&c, 0, sizeof c);
    c.t = t; c.rank = order ? rank : NULL; c.all_mesh = all_mesh;
    c.P = P; c.NP = P - 1; c.PM = sr__divp_magic(P);
    c.nbr = sr__gen_nbr(t, scratch, faults);
    c.queue = (uint32_t *)(base8 + o.queue); c.tgt = (uint32_t *)(base8 + o.tgt);
    c.glen = (uint32_t *)(base8 + o.glen); c.E = base8 + o.e; c.lab = base8 + o.lab;
    c.reach = base8 + o.reach;
    c.xhead = (uint32_t *)(base8 + o.xhead); c.xitem = (uint32_t *)(base8 + o.xitem);
    c.cstate = (uint32_t *)(base8 + o.cstate); c.cnext = (uint32_t *)(base8 + o.cnext);
    c.centry = base8 + o.centry;
    c.bhead = (uint32_t *)(base8 + o.bhead); c.btail = (uint32_t *)(base8 + o.btail);
    c.multi = t->num_partitions > 1;
    c.ring = 2;
    for (i = 0; i < (int)P; i++) {
        int q;
        for (q = 0; q < (int)P; q++) c.turn[i][q] = (uint8_t)sr__search_turn(&c, i, q);
    }
    cnt = (uint32_t *)(base8 + o.cnt); used = (uint32_t *)(base8 + o.used);
    dep = (uint32_t *)(base8 + o.dep); reserved = base8 + o.reserved;
    gres = (uint32_t *)(base8 + o.gres); starts = (uint32_t *)(base8 + o.starts);
    bad_all = base8 + o.bad; blk = base8 + o.sblock; save = base8 + o.save; fail = base8 + o.fail;
    for (u = 0; u < N; u++) live += (uint32_t)sr_node_ok(faults, u);
    memset(tables, SR_ENTRY_NONE, (size_t)N * t->table_size);
    memset(dep, 0, (size_t)N * P * 2 * 4);
    memset(fail, 0, (size_t)(N + 7) / 8);
    memset(bad_all, 0, (size_t)N * P);
    if (!c.multi) memset(c.E, SR_ENTRY_NONE, (size_t)N * P);
    /* ---- every destination under the discipline ---- */
    for (part = 0; part < t->num_partitions; part++) {
        uint32_t lo = part << SR_PARTITION_SHIFT, hi = lo + t->lut_entries, nused = 0, none_out = 0;
        uint32_t nstarts = 0;
        uint8_t *bad = bad_all + (size_t)lo * P;
        int again = 1;
        if (hi > N) hi = N;
        c.part = part; c.lo = lo; c.hi = hi;
        while (again) {
            uint32_t dst;
            again = 0;
            rep->rounds++;
            if (c.multi) {
                sr__search_glut(&c, bad, cnt, used, &nused, &none_out, faults, tables);
                nstarts = sr__search_walk_gluts(&c, faults, dep, gres, starts, save);
            }
            for (dst = lo; dst < hi; dst++) {
                uint32_t b = (dst - lo) % SR__GEN_BLOCK, dlive = (uint32_t)sr_node_ok(faults, dst), k;
                if (dlive) {
                    sr__search_route(&c, faults, dst, used, nused, save);
                    sr__search_walk_dst(&c, faults, dep, gres, starts, nstarts);
                    /* a destination some source misses waits for the repairs */
                    if (none_out || sr__search_missed(&c, faults, used, nused)) {
                        fail[dst >> 3] |= (uint8_t)(1u << (dst & 7));
                        failing = 1;
                    }
                    /* targets that miss it are avoided in another round */
                    for (k = 0; k < nused; k++)
                        if ((c.reach[used[k] - lo * P] & 3) != 3 && !bad[used[k] - lo * P]) {
                            bad[used[k] - lo * P] = 1;
                            again = 1;
                        }
                }
                /* the entries of 256 destinations are collected, then
                 * written as runs of the LUTs */
                if (dlive) memcpy(blk + (size_t)b * (hi - lo) * P, c.E + (size_t)lo * P, (size_t)(hi - lo) * P);
                else memset(blk + (size_t)b * (hi - lo) * P, SR_ENTRY_NONE, (size_t)(hi - lo) * P);
                if (b == SR__GEN_BLOCK - 1 || dst == hi - 1) sr__search_flush(&c, tables, blk, dst - b, b + 1);
            }
        }
    }
    for (u = 0; u < N; u++)
        if (sr_node_ok(faults, u)) rep->pairs += live - 1;
    if (!failing) return sr__gen_verdict(t, faults, tables, scratch, rep);
    /* ---- repairs (default rule), destination by destination, in order ---- */
    memset(reserved, 0, (size_t)(2 * N * P + 7) / 8);
    for (part = 0; part < t->num_partitions; part++) {
        uint32_t lo = part << SR_PARTITION_SHIFT, hi = lo + t->lut_entries, nused = 0, none_out = 0, dst;
        uint32_t nstarts = 0;
        int any = 0;
        if (hi > N) hi = N;
        for (dst = lo; dst < hi; dst++) any |= (fail[dst >> 3] >> (dst & 7)) & 1;
        if (!any) continue;
        c.part = part; c.lo = lo; c.hi = hi;
        if (c.multi) {
            sr__search_glut(&c, bad_all + (size_t)lo * P, cnt, used, &nused, &none_out, faults, tables);
            nstarts = sr__search_walk_gluts(&c, faults, dep, gres, starts, save);
        }
        for (dst = lo; dst < hi; dst++) {
            if (!((fail[dst >> 3] >> (dst & 7)) & 1)) continue;
            sr__search_route(&c, faults, dst, used, nused, save);
            if (!order) rep->patched += sr__search_repair(&c, dst, dep, reserved);
            sr__search_walk_dst(&c, faults, dep, gres, starts, nstarts);   /* the repaired routes' */
            sr__search_write_dst(&c, tables, dst);
            sr__search_count(&c, faults, dst, list, capacity, rep);
        }
    }
    return sr__gen_verdict(t, faults, tables, scratch, rep);
}

/* >>xtrules ===========================================================
 * Fault-aware tables by the SeaStar (Cray XT) rules
 *
 * Seed 001, "Avoiding deadlock in the presence of faults and turn
 * constraints" and "Routing rules for X / Y / Z links".  Each rule is one
 * function below, in the paper's order, with the sentences it implements.
 * What the printed rules leave open, and the two places where the library
 * extends them, are marked "Extension" (see also docs/routing.rst).
 * ====================================================================== */

/**
 * Options of the SeaStar rules; zero-initialised means the defaults.
 *
 * :paper: seed 001 "Avoiding deadlock in the presence of faults and turn
 *     constraints" (the Ymax dodge), "Routing rules for X links" (the z
 *     dateline chosen from the faults).
 */
typedef struct sr_seastar_options {
    int ymax_dodge;       /**< nonzero: at y = Ymax, where the wanted X link is
                               broken and y+ cannot be taken, "dodge y- then go
                               x+/x-" before trying z+ (default: off) */
    int fixed_datelines;  /**< nonzero: keep the topology's datelines instead of
                               choosing the y and z datelines from the fault
                               set (default: chosen, see sr_seastar_datelines) */
} sr_seastar_options;

/* Bit c of a bit set of 32-bit words. */
#define SR__BIT(set, c) (((set)[(c) >> 5] >> ((c) & 31)) & 1u)

/* A broken link on port b of a node at coordinate c of dimension d (1: y,
 * 2: z): count, in viol[], the dateline positions p (the dateline is the
 * link p-1 -> p) that would put a packet across a dateline in front of a
 * detour after which it routes in a higher dimension.
 *   y: a broken X link: the y+ detour would cross a dateline at c+1 and
 *      then route in X;
 *   z: a broken X or Y link: the z+ detour (X rule, Y rule) would cross a
 *      dateline at c+1 and then route in X or Y;
 *      a broken z+ link: the y+ detour comes back over c -> c+1 and turns
 *      into Y (a dateline at c+1), and a packet that crossed a dateline at
 *      c+2-k/2 .. c, still on its z+ run (at most k/2 hops), would meet
 *      the fault and detour in Y. */
SR_API void sr__xt_dateline_broken(int d, int k, int c, int b, uint16_t *viol) {
    int j;
    if (b >> 1 == 0 || (b >> 1 == 1 && d == 2)) viol[(c + 1) % k]++;
    if (b == 4 && d == 2)
        for (j = 2 - k / 2; j <= 1; j++) viol[((c + j) % k + k) % k]++;
}

/* For dimension d: the dateline positions the faults argue against
 * (viol[0..k-1], see sr__xt_dateline_broken) and, as bits of `mark`, the
 * coordinates next to a fault (both ends of a failed link, a failed node
 * and its neighbours in d).  Returns how many coordinates are marked. */
SR_API int sr__xt_dateline_faults(const sr_topology *t, const sr_faults *f, int d, uint16_t *viol,
                                  uint32_t *mark) {
    const int k = t->radix[d];
    int c, n = 0, i, p;
    uint32_t u;
    memset(mark, 0, (size_t)(k + 31) / 32 * 4);
    memset(viol, 0, (size_t)k * sizeof *viol);
    for (u = 0; f && u < t->num_nodes; u++) {
        uint32_t m = f->mask[u];
        int dead = (m & SR_FAULT_NODE) != 0;
        if (!m) continue;
        c = sr_coord(t, u, d);
        for (i = dead ? -1 : 0; i <= dead; i++) {
            int mm = (c + i + k) % k;
            mark[mm >> 5] |= 1u << (mm & 31);
        }
        for (p = 0; p < 2 * t->num_dims; p++) {
            uint32_t w = sr_neighbor(t, u, p);
            if (w == SR_NO_NODE) continue;
            if (dead) sr__xt_dateline_broken(d, k, sr_coord(t, w, d), p ^ 1, viol);  /* w lost p^1 */
            else if ((m >> p) & 1) sr__xt_dateline_broken(d, k, c, p, viol);
        }
    }
    for (c = 0; c < k; c++) n += (int)SR__BIT(mark, c);
    return n;
}

/**
 * The datelines the SeaStar rules place for a fault set.
 *
 * Seed 001: "the dateline in Z is chosen so that there are no nodes with a
 * broken X link and a broken y+ link" -- so that the z+ detour of the X
 * rule never crosses it -- and "once a dateline is crossed in a given
 * dimension, routing in a higher dimension (e.g. X is 'higher' than Y) is
 * not permitted".  Routing tables cannot see whether a packet has crossed
 * a dateline, so the rules hold only if no detour that leads back into a
 * higher dimension crosses one, and no packet that has crossed one meets a
 * fault that makes it detour into a higher dimension.
 *
 * Extension: the printed criterion says nothing for a single fault (no
 * node has two broken links), yet with the datelines on the wrap-around
 * links a fifth of the single faults of an 8x8x8 torus lose pairs or
 * deadlock (the y+ detour of an X fault crosses the y dateline, or packets
 * that crossed the z dateline meet a z+ fault and detour in Y).  So the y
 * and the z dateline are each placed where the fewest faults argue against
 * them:
 *
 * - y: not just above a node with a broken X link (its y+ detour);
 * - z: not just above a node with a broken X or Y link (its z+ detour),
 *   nor within k/2 planes below and one above a node with a broken z+ link
 *   (a z+ run that crossed it would reach the fault; the y+ detour climbs
 *   one plane);
 *
 * and among those, as far as the ring allows from every node next to a
 * fault (an end of a failed link, a failed node or its neighbour in that
 * dimension), ties going to the first position from the topology's
 * dateline on.  With no fault the topology's datelines stay.  The x
 * dateline stays where the topology puts it: no dimension is higher than
 * X, so crossing it restricts nothing.
 *
 * :param t: the topology (3 dimensions, asserted).
 * :param f: faults, or NULL (the datelines stay).
 * :param out: out, a copy of ``*t`` with the chosen datelines (may be ``t``).
 * :paper: seed 001 "Routing rules for X links", "Avoiding deadlock in the
 *     presence of faults and turn constraints" (datelines).
 */
SR_API void sr_seastar_datelines(const sr_topology *t, const sr_faults *f, sr_topology *out) {
    uint32_t mark[SR_MAX_NODES / 4 / 32];
    uint16_t viol[SR_MAX_NODES / 4];
    sr_topology r = *t;
    int d;
    SR_ASSERT(t->num_dims == 3);
    for (d = 1; d <= 2; d++) {
        int k = t->radix[d], best = -1, best_viol = 0, best_clear = -1, i;
        if (t->mesh[d] || sr__xt_dateline_faults(t, f, d, viol, mark) == 0) continue;
        for (i = 0; i < k; i++) {
            int p = (t->dateline[d] + i) % k, clear = k, j;
            /* the distance from the dateline link {p-1, p} to the nearest
             * marked coordinate, either way round */
            for (j = 0; j < k && clear == k; j++)
                if (SR__BIT(mark, (p + j) % k) || SR__BIT(mark, ((p - 1 - j) % k + k) % k)) clear = j;
            if (best < 0 || viol[p] < best_viol || (viol[p] == best_viol && clear > best_clear)) {
                best = p; best_viol = viol[p]; best_clear = clear;
            }
        }
        r.dateline[d] = best;
    }
    *out = r;
}

/* "Available": the link exists, has not failed, the node behind it is
 * alive, and it is not the port the packet arrived on ("the SeaStar router
 * does not allow 180 degree turns within the network"). */
SR_API int sr__xt_available(const sr_topology *t, const sr_faults *f, uint32_t u, int in_port, int port) {
    return port != in_port && sr_next_hop(t, f, u, port) != SR_NO_NODE;
}

/* A detour hop into a lower dimension, after which the packet routes in a
 * higher one again: available, and not across the dimension's dateline
 * ("once a dateline is crossed in a given dimension, routing in a higher
 * dimension is not permitted"). */
SR_API int sr__xt_detour_available(const sr_topology *t, const sr_faults *f, uint32_t u, int in_port,
                                   int port) {
    return sr__xt_available(t, f, u, in_port, port) &&
           !sr_crosses_dateline(t, port, sr_coord(t, u, port >> 1));
}

/* The entry that leaves u by `port`: the upper VC over the dateline, the
 * arrival VC when going straight on, the lower VC after a turn. */
SR_API sr_entry sr__xt_take(const sr_topology *t, uint32_t u, int in_port, int port) {
    int straight = in_port != t->proc_port && (in_port ^ 1) == port;
    if (sr_crosses_dateline(t, port, sr_coord(t, u, port >> 1))) return sr_entry_make(port, SR_VC_UPPER);
    return sr_entry_make(port, straight ? SR_VC_KEEP : SR_VC_LOWER);
}

/* Routing rules for X links; q is the X port dimension order wants. */
SR_API sr_entry sr__xt_x_link_rule(const sr_topology *t, const sr_faults *f, const sr_seastar_options *o,
                                   uint32_t u, int in_port, uint32_t dst, int q) {
    const int YP = 2, YM = 3, ZP = 4;
    uint32_t v, pd = dst >> SR_PARTITION_SHIFT;
    if (!sr__xt_available(t, f, u, in_port, q)) {
        /* "When x+ or x- is desired, but that link is broken, y+ is taken
         * if available." (A y+ hop across the y dateline is not: X
         * routing follows it.) */
        if (sr__xt_detour_available(t, f, u, in_port, YP)) return sr__xt_take(t, u, in_port, YP);
        /* Option: "when y = Ymax, it is permissible to dodge y- then go
         * x+/x-" (seed 001 on the turn rule). */
        if (o && o->ymax_dodge && sr_coord(t, u, 1) == t->radix[1] - 1 &&
            sr__xt_detour_available(t, f, u, in_port, YM))
            return sr__xt_take(t, u, in_port, YM);
        /* "If y+ is not available, z+ is taken.  This z+ link must not
         * cross a dateline." */
        if (sr__xt_detour_available(t, f, u, in_port, ZP)) return sr__xt_take(t, u, in_port, ZP);
        return SR_ENTRY_NONE;
    }
    /* "Although the desired X link is available, the routing algorithm may
     * choose to take an alternate path when the node at the other side of
     * the X link has a broken y+ and z+ link ..., then an early detour
     * toward z+ is considered.  If the X link crosses a partition boundary
     * into the destination partition or the current partition matches the
     * destination partition and the current Y matches the destination Y
     * coordinate, route in z+ instead." */
    v = sr_neighbor(t, u, q);
    if (sr_next_hop(t, f, v, YP) == SR_NO_NODE && sr_next_hop(t, f, v, ZP) == SR_NO_NODE &&
        sr__xt_detour_available(t, f, u, in_port, ZP)) {
        int enters = (v >> SR_PARTITION_SHIFT) == pd && (u >> SR_PARTITION_SHIFT) != pd;
        int here = (u >> SR_PARTITION_SHIFT) == pd && sr_coord(t, u, 1) == sr_coord(t, dst, 1);
        if (enters || here) return sr__xt_take(t, u, in_port, ZP);
    }
    return sr__xt_take(t, u, in_port, q);
}

/* Routing rules for Y links; q is the Y port dimension order wants. */
SR_API sr_entry sr__xt_y_link_rule(const sr_topology *t, const sr_faults *f, uint32_t u, int in_port,
                                   uint32_t dst, int q) {
    const int ZP = 4;
    uint32_t v;
    int zp = sr__xt_detour_available(t, f, u, in_port, ZP);
    if (!sr__xt_available(t, f, u, in_port, q)) {
        /* "When the desired route follows a Y link that is broken, the
         * preference is to travel in z+ to find a good Y link." */
        if (zp) return sr__xt_take(t, u, in_port, ZP);
        /* "If z+ is also broken, it is feasible to travel in the opposite
         * direction in the Y dimension.  However, the routing in the node
         * in that direction must now look ahead to avoid a 180 degree
         * turn": that node finds its wanted Y port is the one the packet
         * came in on, which is never available, and applies this rule. */
        if (sr__xt_available(t, f, u, in_port, q ^ 1)) return sr__xt_take(t, u, in_port, q ^ 1);
        return SR_ENTRY_NONE;
    }
    /* The Y look-ahead: "if the default direction for this destination in
     * the next node is z+ and the z+ link is broken there, the routing
     * choice at this node would be changed from the default Y link to
     * z+." */
    v = sr_neighbor(t, u, q);
    if (v != dst && zp && sr_entry_port(sr_dor_entry(t, v, q ^ 1, dst)) == ZP &&
        sr_next_hop(t, f, v, ZP) == SR_NO_NODE)
        return sr__xt_take(t, u, in_port, ZP);
    return sr__xt_take(t, u, in_port, q);
}

/* Routing rules for Z links; q is the Z port dimension order wants. */
SR_API sr_entry sr__xt_z_link_rule(const sr_topology *t, const sr_faults *f, uint32_t u, int in_port,
                                   uint32_t dst, int q) {
    const int YP = 2, YM = 3, ZP = 4;
    uint32_t w = u;
    int clean;
    if (q == ZP) {
        if (sr__xt_available(t, f, u, in_port, ZP)) return sr__xt_take(t, u, in_port, ZP);
        /* "When the desired route follows a z+ link that is broken, the
         * preference is to travel in y+ to find a good z+ link.  In this
         * scenario, the Y link look ahead is relied up to avoid the node at
         * y+ from sending the packet right back along y-." */
        if (sr__xt_available(t, f, u, in_port, YP)) return sr__xt_take(t, u, in_port, YP);
        /* "When the y+ link is not present (at the edge of the mesh), the
         * second choice is y-." */
        if (sr__xt_available(t, f, u, in_port, YM)) return sr__xt_take(t, u, in_port, YM);
        return SR_ENTRY_NONE;
    }
    /* "When the desired route is to travel in the z- direction, the logic
     * must follow the z- path to ensure there are no broken links at all on
     * the path to the final destination.  If one is found, the route is
     * forced to z+, effectively forcing the packet to go the long way
     * around the Z torus." */
    clean = sr__xt_available(t, f, u, in_port, q);
    while (clean && sr_coord(t, w, 2) != sr_coord(t, dst, 2)) {
        uint32_t x = sr_next_hop(t, f, w, q);
        if (x == SR_NO_NODE) clean = 0;
        else w = x;
    }
    if (clean) return sr__xt_take(t, u, in_port, q);
    if (sr__xt_available(t, f, u, in_port, ZP)) return sr__xt_take(t, u, in_port, ZP);
    return SR_ENTRY_NONE;
}

/**
 * One entry of the SeaStar fault-routing rules (3 dimensions).
 *
 * Starts from the dimension-order choice (sr_dor_entry) and applies the
 * rules of seed 001 for the dimension it wants:
 *
 * - X link wanted but broken: y+ if available, else (option) the Ymax
 *   dodge y-, else z+, else no route.  X link available but the node
 *   across it has neither y+ nor z+: z+ now if the X link enters the
 *   destination's partition from outside, or the packet is in the
 *   destination's partition at the destination's y.
 * - Y link wanted but broken: z+, else the opposite Y direction.  Y link
 *   available but the next node would want its broken z+: z+ now (the Y
 *   look-ahead).
 * - z+ wanted but broken: y+, else y-.  z- wanted: only if the whole z-
 *   path to the destination's z is clean, else z+ (the long way round).
 *
 * "Available" means a live link that is not the input port (no 180-degree
 * turn).  A detour hop that the packet follows with a turn back into a
 * higher dimension (the y+ and z+ detours of the X rule, the z+ detours of
 * the Y rule) is not taken across its dimension's dateline: seed 001
 * forbids routing in a higher dimension after a dateline, and a table
 * cannot see the crossing later.  VC: upper across a dateline, keep when
 * going straight on, lower on a turn.  Where no listed choice applies the
 * entry is SR_ENTRY_NONE.
 *
 * The datelines are the topology's: to use the ones the SeaStar generator
 * chooses, pass the topology sr_seastar_datelines returns.
 *
 * :param t: the topology (3 dimensions, asserted).
 * :param f: faults, or NULL.
 * :param opt: options, or NULL for the defaults.
 * :param u: the router.
 * :param in_port: the input port.
 * :param dst: the destination (for a GLUT entry: any node of the partition).
 * :returns: the entry.
 * :paper: seed 001 "Routing rules for X links", "... Y links", "... Z links";
 *     seed 004 Chapter 8.2.2.2-8.2.2.4.
 */
SR_API sr_entry sr_seastar_entry(const sr_topology *t, const sr_faults *f, const sr_seastar_options *opt,
                                 uint32_t u, int in_port, uint32_t dst) {
    sr_entry def;
    int q;
    SR_ASSERT(t->num_dims == 3);
    if (!sr_node_ok(f, u)) return SR_ENTRY_NONE;
    def = sr_dor_entry(t, u, in_port, dst);
    q = sr_entry_port(def);
    if (q == t->proc_port) return def;
    switch (q >> 1) {
    case 0: return sr__xt_x_link_rule(t, f, opt, u, in_port, dst, q);
    case 1: return sr__xt_y_link_rule(t, f, u, in_port, dst, q);
    default: return sr__xt_z_link_rule(t, f, u, in_port, dst, q);
    }
}

/* A router whose every entry is its dimension-order entry, except those
 * that would turn 180 degrees: it is alive with every link usable, the
 * nodes across its X links have y+ or z+ (no early z+ detour), the nodes
 * across its Y links have z+ or none at all (no Y look-ahead detour), and
 * its whole z line is clean (every z- path is).  Each rule above then
 * takes the wanted port. */
SR_API int sr__xt_quiet(const sr_topology *t, const sr_faults *f, uint32_t u, const uint8_t *zline_clean) {
    int p;
    if (!f) return 1;
    if (!sr_node_ok(f, u)) return 0;
    for (p = 0; p < t->proc_port; p++) {
        uint32_t v = sr_neighbor(t, u, p);
        if (v == SR_NO_NODE) continue;
        if (sr_next_hop(t, f, u, p) == SR_NO_NODE) return 0;
        if (p < 2 && sr_next_hop(t, f, v, 2) == SR_NO_NODE && sr_next_hop(t, f, v, 4) == SR_NO_NODE) return 0;
        if ((p == 2 || p == 3) && sr_next_hop(t, f, v, 4) == SR_NO_NODE && sr_neighbor(t, v, 4) != SR_NO_NODE)
            return 0;
    }
    return zline_clean[u / t->stride[1]];
}

/* The delivery check of sr__gen_finish, for a torus of one partition,
 * where only routes through routers that are not quiet can go wrong: a
 * quiet router's entries are its dimension-order ones over usable links,
 * which deliver or bring the packet to a router that is not quiet.  So
 * every destination's routes are followed from every state a packet can
 * enter of the routers that are not quiet (cutting loops and dead ends as
 * there).  If
 * no entry was cut and no route met an unroutable entry, every pair is
 * delivered; returns 1 then (the report filled), else 0 (the caller runs
 * the full check, which also counts and lists). */
SR_API int sr__xt_check_quiet(const sr_topology *t, const sr_faults *f, uint8_t *tables, void *scratch,
                              const uint32_t *nbr, const uint8_t *quiet, sr_gen_report *rep) {
    const sr__gen_layout o = sr__gen_offsets(t);
    const uint32_t P = (uint32_t)t->num_ports, N = t->num_nodes, S = N * P * 2, NP = P - 1;
    uint32_t *sv = (uint32_t *)((uint8_t *)scratch + o.sv), *path = (uint32_t *)((uint8_t *)scratch + o.path);
    uint32_t dst, r, gen = 0, live = 0;
    int none = 0;
    uint64_t patched0 = rep->patched;
    memset(sv, 0, (size_t)S * 8);
    for (dst = 0; dst < N; dst++) {
        if (!sr_node_ok(f, dst)) continue;
        live++;
        gen++;
        for (r = 0; r < N; r++) {
            int ip0;
            if (quiet[r] || !sr_node_ok(f, r)) continue;
            for (ip0 = 0; ip0 < (int)P; ip0++) {
                uint32_t x, u;
                int ip, vb, len, j, bad;
                if (ip0 != t->proc_port && nbr[r * NP + (uint32_t)ip0] == SR_NO_NODE) continue;  /* no way in */
            retry:
                u = r; ip = ip0; vb = 0; len = 0; bad = 0;
                x = (u * P + (uint32_t)ip) * 2;
                for (;;) {
                    sr_entry e;
                    int port;
                    uint32_t v;
                    if (sv[2 * x] == gen) { bad = sv[2 * x + 1] == 1; break; }
                    sv[2 * x] = gen;
                    sv[2 * x + 1] = 1;
                    path[len++] = x;
                    e = tables[(size_t)u * t->table_size + (size_t)ip * t->table_stride + SR_GLUT_ENTRIES + dst];
                    port = e & 31;
                    if (port == SR_PORT_NONE) {
                        /* unroutable from here: fine if no entry of the
                         * node behind leads here */
                        uint32_t w = ip == t->proc_port ? SR_NO_NODE : nbr[u * NP + (uint32_t)ip] & ~(1u << 30);
                        int i2;
                        if (w == SR_NO_NODE) { none = 1; break; }
                        for (i2 = 0; i2 < (int)P; i2++)
                            if (sr_entry_port(tables[(size_t)w * t->table_size + (size_t)i2 * t->table_stride +
                                                     SR_GLUT_ENTRIES + dst]) == (ip ^ 1))
                                none = 1;
                        break;
                    }
                    if (port == t->proc_port) { bad = u != dst; break; }
                    v = port < t->proc_port && port != ip ? nbr[u * NP + (uint32_t)port] : SR_NO_NODE;
                    if (v == SR_NO_NODE) { bad = 1; break; }
                    vb = sr_entry_vc(e, vb);
                    u = v & ~(1u << 30); ip = port ^ 1;
                    x = (u * P + (uint32_t)ip) * 2 + (uint32_t)vb;
                }
                if (bad) {
                    uint32_t y = path[len - 1];
                    tables[(size_t)((y >> 1) / P) * t->table_size + (size_t)((y >> 1) % P) * t->table_stride +
                           SR_GLUT_ENTRIES + dst] = SR_ENTRY_NONE;
                    rep->patched++;
                    for (j = 0; j < len; j++) sv[2 * path[j]] = 0;
                    goto retry;
                }
                for (j = 0; j < len; j++) sv[2 * path[j] + 1] = 2;
            }
        }
    }
    if (none || rep->patched != patched0) return 0;
    rep->pairs = (uint64_t)live * (live - 1);
    return 1;
}

/**
 * Fault-aware tables by the SeaStar rules (3 dimensions), with options.
 *
 * First the y and z datelines are chosen from the fault set
 * (sr_seastar_datelines; ``opt->fixed_datelines`` keeps the topology's)
 * and reported in ``rep->dateline``.  Every entry of every router and
 * input port is then sr_seastar_entry over the topology with those
 * datelines (GLUT entries with the partition's first node as the
 * destination).  Routers far from every fault (alive, every link usable,
 * no look-ahead that would trigger, a clean z line) get their
 * dimension-order tables (sr_table_build_dor), which equal the rules'
 * entries there, and only their 180-degree entries are evaluated; the
 * tests compare this with evaluating every entry.
 *
 * Then every pair of live nodes is followed through the tables; where the
 * rules lead into a loop, a dead end, a failed link or node, or a
 * 180-degree turn, the entry of the failing state becomes SR_ENTRY_NONE
 * (counted in ``rep->patched``), so the tables deliver every pair they do
 * not declare unroutable.  The rules do not cover every fault set, so the
 * tables are then proven by sr_verify, and the call says when they fail:
 * SR_ERR_DEADLOCK when their dependency graph has a cycle (on 8x8x8 the
 * faults (233, +z) and (235, +z) give one), SR_ERR_UNDELIVERED when a pair
 * the faults leave connected is not delivered (the faults (158, +y) and
 * (158, +z)).  With the chosen datelines every single link fault and
 * every single node fault of the 4x4x4, 8x8x8 and 11x12x16 tori is proven
 * (the test suite checks all of them, the larger two under ``make
 * check-long``).
 *
 * :param t: the topology (3 dimensions).
 * :param faults: failed links and nodes, or NULL.
 * :param opt: options, or NULL for the defaults.
 * :param tables: out, N * sr_table_size(t) bytes.
 * :param tables_size: size of ``tables``.
 * :param scratch: sr_gen_scratch_size(t) bytes, aligned for uint32_t.
 * :param scratch_size: its size.
 * :param list: out, unroutable pairs (may be NULL).
 * :param capacity: entries of ``list``.
 * :param rep: out, counts, the datelines used, the connected and
 *     delivered pairs, the verdict.
 * :returns: SR_OK (proven, every connected pair delivered); SR_ERR_DEADLOCK
 *     (the dependency graph has a cycle: sr_verify gives it);
 *     SR_ERR_UNDELIVERED (a connected pair is not delivered, or
 *     rep->failure says how the tables fail); both with the tables and
 *     ``rep`` written.  SR_ERR_NULL; SR_ERR_DIMS (not 3 dimensions);
 *     SR_ERR_BUFFER_SIZE; SR_ERR_NODE_RANGE: nothing is written on these.
 * :paper: seed 001 "Avoiding deadlock in the presence of faults and turn
 *     constraints" and the routing rules for X, Y and Z links.
 */
SR_API sr_result sr_tables_build_seastar_opt(const sr_topology *t, const sr_faults *faults,
                                             const sr_seastar_options *opt, uint8_t *tables,
                                             size_t tables_size, void *scratch, size_t scratch_size,
                                             sr_pair *list, size_t capacity, sr_gen_report *rep) {
    sr_topology tt;
    uint32_t u, q, dst, *nbr, lines, line;
    uint8_t *zline_clean, *quiet;
    int ip, d, torus = 1;
    sr_result r = sr__gen_args(t, faults, tables, tables_size, scratch, scratch_size, rep);
    if (r != SR_OK) return r;
    if (t->num_dims != 3) return SR_ERR_DIMS;
    memset(rep, 0, sizeof *rep);
    if (opt && opt->fixed_datelines) tt = *t;
    else sr_seastar_datelines(t, faults, &tt);
    for (d = 0; d < t->num_dims; d++) rep->dateline[d] = tt.dateline[d];
    nbr = sr__gen_nbr(&tt, scratch, faults);
    /* clean z lines (every node alive, every z link usable), then quiet
     * routers */
    quiet = (uint8_t *)scratch + sr__gen_offsets(&tt).quiet;
    zline_clean = quiet + tt.num_nodes;
    lines = tt.num_nodes / tt.stride[1];
    for (line = 0; line < lines; line++) {
        int c, ok = 1;
        for (c = 0; c < tt.radix[2] && ok; c++) {
            uint32_t w = line * tt.stride[1] + (uint32_t)c;
            ok = sr_node_ok(faults, w) &&
                 (c + 1 < tt.radix[2] || !tt.mesh[2] ? sr_next_hop(&tt, faults, w, 4) != SR_NO_NODE : 1);
        }
        zline_clean[line] = (uint8_t)ok;
    }
    for (d = 0; d < tt.num_dims; d++) torus &= !tt.mesh[d];
    for (u = 0; u < tt.num_nodes; u++) {
        uint32_t base = u & ~(uint32_t)(SR_LUT_ENTRIES - 1);
        uint8_t *tab = tables + (size_t)u * tt.table_size;
        quiet[u] = (uint8_t)sr__xt_quiet(&tt, faults, u, zline_clean);
        if (quiet[u]) sr_table_build_dor(&tt, u, tab, tt.table_size);
        for (ip = 0; ip < tt.num_ports; ip++) {
            uint8_t *glut = tab + (size_t)ip * tt.table_stride;
            for (q = 0; q < SR_GLUT_ENTRIES; q++)
                glut[q] = (q < tt.num_partitions && q != (u >> SR_PARTITION_SHIFT))
                              ? sr_seastar_entry(&tt, faults, opt, u, ip, q << SR_PARTITION_SHIFT)
                              : SR_ENTRY_NONE;
            if (quiet[u] && torus) continue;      /* a torus's DOR entry never turns back */
            for (dst = base; dst < base + tt.lut_entries; dst++) {
                uint8_t *e = glut + SR_GLUT_ENTRIES + (dst - base);
                if (dst >= tt.num_nodes) *e = SR_ENTRY_NONE;
                else if (!quiet[u] || sr_entry_port(*e) == ip)
                    *e = sr_seastar_entry(&tt, faults, opt, u, ip, dst);
            }
        }
    }
    if (!(tt.num_partitions == 1 && torus && sr__xt_check_quiet(&tt, faults, tables, scratch, nbr, quiet, rep)))
        sr__gen_finish(&tt, faults, tables, scratch, nbr, list, capacity, rep);
    return sr__gen_verdict(&tt, faults, tables, scratch, rep);
}

/**
 * Fault-aware tables by the SeaStar rules (3 dimensions), default options:
 * sr_tables_build_seastar_opt with ``opt`` NULL (datelines chosen from the
 * fault set, no Ymax dodge).
 *
 * :param t: the topology (3 dimensions).
 * :param faults: failed links and nodes, or NULL.
 * :param tables: out, N * sr_table_size(t) bytes.
 * :param tables_size: size of ``tables``.
 * :param scratch: sr_gen_scratch_size(t) bytes, aligned for uint32_t.
 * :param scratch_size: its size.
 * :param list: out, unroutable pairs (may be NULL).
 * :param capacity: entries of ``list``.
 * :param rep: out, counts and the datelines used.
 * :returns: as sr_tables_build_seastar_opt.
 * :paper: seed 001 (see sr_tables_build_seastar_opt).
 */
SR_API sr_result sr_tables_build_seastar(const sr_topology *t, const sr_faults *faults,
                                         uint8_t *tables, size_t tables_size, void *scratch,
                                         size_t scratch_size, sr_pair *list, size_t capacity,
                                         sr_gen_report *rep) {
    return sr_tables_build_seastar_opt(t, faults, NULL, tables, tables_size, scratch, scratch_size,
                                       list, capacity, rep);
}

/* >>candidates =========================================================
 * Routing as candidate sets over an sr_net
 *
 * A routing function looks at a packet at a router and returns its
 * candidates: every (output port, VC range, class) the packet may take
 * next.  It reads only the router, the input port and VC the packet
 * arrived on, and a header state that the caller owns and carries with
 * the packet (sr_header).  Decisions that need randomness or congestion
 * are separate pure calls: which intermediate a Valiant packet goes
 * through, whether UGAL routes minimally, which candidate to take given
 * credits.  So the same function drives a simulator and the deadlock
 * proof of the verifier, which enumerates every choice.
 * ====================================================================== */

/** Candidate class: on a minimal path to the destination (or to the
 *  current phase's target). */
#define SR_CLASS_MINIMAL 0
/** Candidate class: a non-minimal hop (Valiant's first phase, a UGAL or
 *  PAR packet leaving its minimal path). */
#define SR_CLASS_NONMINIMAL 1
/** Candidate class: an escape channel (the deadlock-free sub-function of
 *  an adaptive routing, Duato). */
#define SR_CLASS_ESCAPE 2

/** Candidate flag: the channel is a bubble escape channel (seed 003: the
 *  bubble rule, not a dateline, keeps its ring free of deadlock). */
#define SR_CAND_BUBBLE 1u

/** Header phase: the routing has not chosen between minimal and
 *  non-minimal yet (UGAL before its decision, PAR in the source group). */
#define SR_PHASE_UNDECIDED 0
/** Header phase: routing minimally to the destination. */
#define SR_PHASE_MINIMAL 1
/** Header phase: Valiant's first phase, towards the intermediate. */
#define SR_PHASE_TO_INTER 2
/** Header phase: Valiant's second phase, from the intermediate to the
 *  destination. */
#define SR_PHASE_TO_DEST 3

/**
 * The routing state a packet carries (the caller owns it; a simulator
 * keeps one per packet).  sr_route_header_init fills it at injection and
 * sr_route_advance updates it at every hop; the routing functions only
 * read it.
 */
typedef struct sr_header {
    uint32_t dest;      /**< destination terminal */
    uint32_t inter;     /**< Valiant intermediate: a router, or a group for
                             the dragonfly (SR_NO_NODE: none chosen) */
    uint8_t phase;      /**< SR_PHASE_UNDECIDED .. SR_PHASE_TO_DEST */
    uint8_t globals;    /**< dragonfly: global channels crossed so far */
    uint8_t hops;       /**< router-to-router hops so far (saturates at 255) */
    uint8_t hint;       /**< BlueGene/L hint bits: bit 2d for +d, 2d+1 for -d */
    uint8_t vclass;     /**< what the routing's VC choice needs of the path:
                             cube, bit d = dimension d's dateline crossed
                             (cleared when the dimension is done);
                             dragonfly under SR_DF_VC_LOCAL, the local hops
                             that followed a local hop and whether the last
                             hop was local (see >>routing) */
    uint8_t spare[3];   /**< zero; room for algorithms to come */
} sr_header;

/** One candidate of a routing function: the packet may leave by ``port``
 *  on any VC ``vc_lo`` .. ``vc_hi``. */
typedef struct sr_candidate {
    int16_t port;     /**< output port (a terminal port: delivery) */
    uint8_t vc_lo;    /**< lowest VC allowed */
    uint8_t vc_hi;    /**< highest VC allowed (>= vc_lo) */
    uint8_t cls;      /**< SR_CLASS_MINIMAL, _NONMINIMAL or _ESCAPE */
    uint8_t flags;    /**< SR_CAND_BUBBLE or 0 */
    uint16_t spare;   /**< zero */
} sr_candidate;

/* >>routing ============================================================
 * Routing algorithms as candidate sets
 *
 * One routing object (sr_routing, filled by sr_routing_init from a network
 * and an sr_routing_desc) and one signature for every algorithm:
 *
 *   sr_route_header_init(rt, src, dest, inter, &h)   at injection
 *   sr_route_candidates(rt, router, in_port, in_vc, &h, out, cap, &n)
 *   ... the caller chooses one candidate and one VC of its range
 *       (sr_ugal_minimal, sr_route_select: pure calls on its numbers) ...
 *   sr_route_advance(rt, router, &chosen, vc, &h)    for the hop taken
 *
 * The algorithms and the networks they are defined on:
 *
 *   SR_ALG_DOR           dimension order: cube (x, then y, ...; datelines),
 *                        HyperX (increasing dimension);
 *   SR_ALG_MIN_ADAPTIVE  every productive port: cube, with a dimension-order
 *                        escape on dateline VCs (Duato); HyperX, with the
 *                        VC chosen by the hops remaining (n' VCs, seed 004
 *                        Section 5.5.2.1) or a dimension-order escape;
 *   SR_ALG_MINIMAL       the dragonfly's minimal routing (seed 004 Section
 *                        5.5.3, steps 1-3);
 *   SR_ALG_VALIANT       to a random intermediate, then to the destination:
 *                        cube and HyperX (a router, dimension order in each
 *                        phase, one VC set per phase), dragonfly (a group,
 *                        seed 004 Section 5.5.3, steps 1-5), folded Clos (a
 *                        top switch);
 *   SR_ALG_UGAL          minimal or Valiant, decided at the source router
 *                        (seed 004 Section 5.3.2): cube, HyperX, dragonfly;
 *   SR_ALG_PAR           UGAL re-evaluated at every hop in the source group
 *                        until the packet commits (Section 5.3.3): dragonfly;
 *   SR_ALG_UPDOWN        up to a common ancestor, then down (Section 5.5.1):
 *                        folded Clos;
 *   SR_ALG_DEST_TAG      the destination's digits select the outputs:
 *                        butterfly;
 *   SR_ALG_CUSTOM        the caller's own functions (sr_custom_routing), so
 *                        that sr_verify_routing proves a routing of the
 *                        caller's.
 *
 * VCs.  An algorithm numbers the VC classes a hop may use ("levels": the
 * dateline VCs of a ring, Valiant's phases, the dragonfly's global channels
 * crossed); with V VCs per port and L levels, level l uses the VCs
 * l*V/L .. (l+1)*V/L - 1, so extra VCs add adaptivity within a level.
 * sr_routing_vcs_needed says how many levels an algorithm uses.  With the
 * flag SR_ROUTE_FEWER_VCS a routing may be built with fewer (levels V-1 and
 * above then share the last VC): such a routing is for the verifier to
 * refute, not for use.
 *
 * The header a packet carries (sr_header) holds what the algorithms need:
 * the destination; Valiant's intermediate and the phase; the dragonfly's
 * global channels crossed; in ``vclass`` the cube's datelines crossed (bit
 * d: the packet has crossed dimension d's dateline on its way in that
 * dimension) or, under SR_DF_VC_LOCAL, the dragonfly's local hops that
 * followed a local hop (bits 0-6) and whether the last hop was local (bit
 * 7).  ``hops`` counts hops for statistics; no algorithm reads it
 * (the verifier relies on that).  sr_route_advance keeps the header in a
 * normal form (an intermediate no longer needed is SR_NO_NODE, the
 * dateline bit of a finished dimension is 0) so that equal situations give
 * equal headers.
 *
 * Classes of the candidates: hops towards the destination are
 * SR_CLASS_MINIMAL, hops towards a Valiant intermediate
 * SR_CLASS_NONMINIMAL, the deadlock-free sub-function of an adaptive
 * routing SR_CLASS_ESCAPE.  A packet at its destination's router gets one
 * candidate: the terminal port (VC 0, class minimal).
 * ====================================================================== */

/** Most VCs per port of a routing. */
#define SR_ROUTE_MAX_VCS 64

/** Returned by sr_routing_vcs_needed: no number of VCs makes the routing
 *  free of deadlock under its options (PAR with SR_DF_VC_GLOBALS). */
#define SR_ROUTE_VCS_NONE (-2)

/** A routing algorithm (sr_routing_desc.algorithm). */
typedef enum sr_algorithm {
    SR_ALG_DOR = 0,        /**< dimension order (cube, HyperX) */
    SR_ALG_MIN_ADAPTIVE,   /**< minimal adaptive with escape (cube, HyperX) */
    SR_ALG_MINIMAL,        /**< the dragonfly's minimal routing */
    SR_ALG_VALIANT,        /**< Valiant (cube, HyperX, dragonfly, folded Clos) */
    SR_ALG_UGAL,           /**< UGAL (cube, HyperX, dragonfly) */
    SR_ALG_PAR,            /**< progressive adaptive routing (dragonfly) */
    SR_ALG_UPDOWN,         /**< up/down through a common ancestor (folded Clos) */
    SR_ALG_DEST_TAG,       /**< destination-tag routing (butterfly) */
    SR_ALG_CUSTOM,         /**< the caller's functions (sr_custom_routing) */
    SR_ALG_COUNT           /**< number of algorithms (not one) */
} sr_algorithm;

/** Routing flag: no dateline VCs on the cube's tori (one VC level per ring
 *  instead of two; deadlocks on rings of 5 or more, for the verifier to
 *  show). */
#define SR_ROUTE_NO_DATELINES 1u
/** Routing flag: accept fewer VCs than the algorithm's levels; levels V-1
 *  and above share VC V-1 (a routing to refute, not to use).  Also
 *  required for a routing no number of VCs makes deadlock-free
 *  (sr_routing_vcs_needed returns SR_ROUTE_VCS_NONE). */
#define SR_ROUTE_FEWER_VCS 2u
/** Routing flag (dragonfly Valiant, UGAL, PAR): the intermediate is a
 *  random router, not a random group, so Valiant also routes inside the
 *  intermediate group. */
#define SR_ROUTE_INTER_ROUTER 4u

/** How the dragonfly assigns VCs to hops (sr_routing_desc.df_vc). */
typedef enum sr_df_vc {
    SR_DF_VC_GLOBALS = 0,  /**< seed 004 Figure 5.4: the VC level of a hop is
                                the number of global channels crossed before
                                it (minimal VC0, VC0, VC1; Valiant VC0, VC0,
                                VC1, VC1, VC2): 2 VCs minimal, 3 non-minimal */
    SR_DF_VC_LOCAL,        /**< the level of a hop is the global channels
                                crossed before it plus the local hops that
                                followed a local hop (this one included): the
                                seed's levels on the seed's paths, and a new
                                one for PAR's second local hop in the source
                                group or Valiant's inside the intermediate
                                group: PAR 4, Valiant to a router 4 */
    SR_DF_VC_COUNT         /**< number of schemes (not one) */
} sr_df_vc;

/** The escape of minimal adaptive routing (sr_routing_desc.escape). */
typedef enum sr_escape {
    SR_ESCAPE_DEFAULT = 0, /**< cube: SR_ESCAPE_DOR; HyperX: SR_ESCAPE_HOPS */
    SR_ESCAPE_DOR,         /**< a dimension-order escape (class escape) on its
                                own VCs (cube: the two dateline VCs; HyperX:
                                one), the adaptive candidates on the others */
    SR_ESCAPE_HOPS,        /**< HyperX: no escape; every candidate's VC is
                                chosen by the hops remaining (n' levels, seed
                                004 Section 5.5.2.1) */
    SR_ESCAPE_COUNT        /**< number of kinds (not one) */
} sr_escape;

struct sr_routing;

/**
 * A caller's routing function (SR_ALG_CUSTOM): the same contract as
 * sr_route_candidates, which calls it after checking router, in_port and
 * in_vc.
 *
 * :param rt: the routing (``rt->custom.ctx`` is the caller's context).
 * :param router: the router.
 * :param in_port: the port the packet arrived on.
 * :param in_vc: the VC it arrived on.
 * :param h: its header.
 * :param out: out, the candidates (the first ``cap``).
 * :param cap: entries of ``out``.
 * :param n: out, the number of candidates (also when above ``cap``).
 * :returns: SR_OK; SR_ERR_BUFFER_SIZE (more than ``cap``); SR_ERR_HEADER.
 */
typedef sr_result (*sr_candidates_fn)(const struct sr_routing *rt, uint32_t router, int in_port, int in_vc,
                                      const sr_header *h, sr_candidate *out, int cap, int *n);

/**
 * A caller's header update for a hop (SR_ALG_CUSTOM; NULL: the default,
 * which counts, on a dragonfly, the global channels crossed).
 * sr_route_advance calls it for a hop over a channel (not for an
 * ejection) and then counts the hop in ``hops`` itself.
 *
 * :param rt: the routing.
 * :param router: the router the hop leaves.
 * :param c: the candidate taken.
 * :param vc: the VC taken, in c's range.
 * :param h: in/out, the header.
 * :returns: SR_OK or an error.
 */
typedef sr_result (*sr_advance_fn)(const struct sr_routing *rt, uint32_t router, const sr_candidate *c, int vc,
                                   sr_header *h);

/**
 * A caller's header at injection (SR_ALG_CUSTOM; NULL: the default, phase
 * SR_PHASE_MINIMAL and no intermediate).
 *
 * :param rt: the routing.
 * :param src: source terminal.
 * :param dest: destination terminal.
 * :param inter: an intermediate 0 .. custom.inters - 1, or SR_NO_NODE.
 * :param h: out, the header.
 * :returns: SR_OK or an error.
 */
typedef sr_result (*sr_header_fn)(const struct sr_routing *rt, uint32_t src, uint32_t dest, uint32_t inter,
                                  sr_header *h);

/**
 * A routing of the caller's own (SR_ALG_CUSTOM): its functions and what
 * the verifier needs to know about them.
 */
typedef struct sr_custom_routing {
    sr_candidates_fn candidates;  /**< the routing function (required) */
    sr_advance_fn advance;        /**< header update (NULL: the default) */
    sr_header_fn header_init;     /**< header at injection (NULL: the default) */
    const void *ctx;              /**< the caller's context */
    uint32_t inters;              /**< intermediates header_init takes
                                       (0: none; the verifier tries each) */
    int vcs_needed;               /**< VCs per port the routing needs (>= 1) */
    int max_candidates;           /**< most candidates of one call (>= 1) */
    int escape;                   /**< nonzero: the routing offers escape
                                       candidates (SR_CLASS_ESCAPE), and the
                                       verifier checks Duato's condition */
    int input_free;               /**< nonzero: candidates and advance read
                                       neither in_port nor in_vc (the
                                       verifier then keys states by router
                                       and header only) */
    uint32_t states_per_router;   /**< most distinct headers (hops aside) a
                                       packet for one destination has at one
                                       router, times the input (port, VC)
                                       pairs unless input_free; sizes the
                                       verifier's scratch (0: 64) */
} sr_custom_routing;

/** Description of a routing; zero-initialised fields take their defaults. */
typedef struct sr_routing_desc {
    int algorithm;     /**< an sr_algorithm */
    int vcs;           /**< VCs per port, 1..SR_ROUTE_MAX_VCS (0: as many as
                            the algorithm needs) */
    unsigned flags;    /**< SR_ROUTE_NO_DATELINES, SR_ROUTE_FEWER_VCS,
                            SR_ROUTE_INTER_ROUTER */
    int df_vc;         /**< dragonfly: an sr_df_vc (0: SR_DF_VC_GLOBALS) */
    int escape;        /**< minimal adaptive: an sr_escape (0: the default) */
    const sr_custom_routing *custom;  /**< SR_ALG_CUSTOM: the functions
                            (copied by sr_routing_init) */
} sr_routing_desc;

/** A validated routing (filled by sr_routing_init; read-only afterwards). */
typedef struct sr_routing {
    sr_net net;               /**< a copy of the network */
    sr_routing_desc desc;     /**< the description, defaults applied */
    sr_custom_routing custom; /**< SR_ALG_CUSTOM: a copy of the functions */
    int vcs;                  /**< VCs per port */
    int levels;               /**< VC levels the algorithm uses */
    int dl;                   /**< cube: VC levels per ring (2 with datelines
                                   on a torus dimension, else 1) */
    int escape;               /**< 1: the routing offers escape candidates */
    int input_free;           /**< 1: candidates read neither in_port nor in_vc */
    int max_candidates;       /**< most candidates of one call */
    uint32_t inters;          /**< intermediates (0: the algorithm has none) */
    uint8_t level_lo[16];     /**< VCs of level l: level_lo[l] .. level_hi[l]
                                   (levels up to 16; sr_routing_init) */
    uint8_t level_hi[16];     /**< see level_lo */
} sr_routing;

/* Levels whose VCs sr_routing_init tabulates (sr_routing.level_lo). */
#define SR__LEVEL_TABLE 16

/* Does the algorithm use intermediates? */
SR_API int sr__alg_inters(int alg) { return alg == SR_ALG_VALIANT || alg == SR_ALG_UGAL || alg == SR_ALG_PAR; }

/* The VC levels of an algorithm on a network (-1: not defined there,
 * -2: an option that does not apply); *dl gets the cube's levels per ring. */
SR_API int sr__route_levels(const sr_net *net, const sr_routing_desc *d, int *dl) {
    int a = d->algorithm, esc = d->escape, torus = 0, i, router_inter = (d->flags & SR_ROUTE_INTER_ROUTER) != 0;
    *dl = 1;
    if (router_inter && (net->kind != SR_NET_DRAGONFLY || !sr__alg_inters(a))) return -2;
    if (d->df_vc != SR_DF_VC_GLOBALS && net->kind != SR_NET_DRAGONFLY) return -2;
    if (esc != SR_ESCAPE_DEFAULT && a != SR_ALG_MIN_ADAPTIVE) return -2;
    if ((d->flags & SR_ROUTE_NO_DATELINES) && net->kind != SR_NET_CUBE) return -2;
    switch (net->kind) {
    case SR_NET_CUBE:
        for (i = 0; i < net->cube.num_dims; i++) torus |= !net->cube.mesh[i];
        *dl = torus && !(d->flags & SR_ROUTE_NO_DATELINES) ? 2 : 1;
        if (a == SR_ALG_DOR) return *dl;
        if (a == SR_ALG_MIN_ADAPTIVE) return esc == SR_ESCAPE_HOPS ? -2 : *dl + 1;
        if (a == SR_ALG_VALIANT || a == SR_ALG_UGAL) return 2 * *dl;
        return -1;
    case SR_NET_HYPERX:
        if (a == SR_ALG_DOR) return 1;
        if (a == SR_ALG_MIN_ADAPTIVE) return esc == SR_ESCAPE_DOR ? 2 : net->desc.hyperx.num_dims;
        if (a == SR_ALG_VALIANT || a == SR_ALG_UGAL) return 2;
        return -1;
    case SR_NET_DRAGONFLY:
        if (a == SR_ALG_MINIMAL) return 2;
        if (a == SR_ALG_VALIANT || a == SR_ALG_UGAL)
            return d->df_vc == SR_DF_VC_LOCAL && router_inter ? 4 : 3;
        if (a == SR_ALG_PAR) return d->df_vc == SR_DF_VC_GLOBALS ? 3 : router_inter ? 5 : 4;
        return -1;
    case SR_NET_CLOS: return a == SR_ALG_UPDOWN || a == SR_ALG_VALIANT ? 1 : -1;
    case SR_NET_BUTTERFLY: return a == SR_ALG_DEST_TAG ? 1 : -1;
    default: return -1;
    }
}

/* Whether no number of VCs makes the algorithm deadlock-free under the
 * description's options: PAR with the seed's VC levels (SR_DF_VC_GLOBALS). */
SR_API int sr__route_no_vcs_enough(const sr_net *net, const sr_routing_desc *d) {
    return net->kind == SR_NET_DRAGONFLY && d->algorithm == SR_ALG_PAR && d->df_vc == SR_DF_VC_GLOBALS;
}

/**
 * Name of an algorithm.
 *
 * :param alg: an sr_algorithm.
 * :returns: "dor", "min-adaptive", "minimal", "valiant", "ugal", "par",
 *     "updown", "dest-tag", "custom"; "?" for other values.
 */
SR_API const char *sr_algorithm_name(int alg) {
    switch (alg) {
    case SR_ALG_DOR: return "dor";
    case SR_ALG_MIN_ADAPTIVE: return "min-adaptive";
    case SR_ALG_MINIMAL: return "minimal";
    case SR_ALG_VALIANT: return "valiant";
    case SR_ALG_UGAL: return "ugal";
    case SR_ALG_PAR: return "par";
    case SR_ALG_UPDOWN: return "updown";
    case SR_ALG_DEST_TAG: return "dest-tag";
    case SR_ALG_CUSTOM: return "custom";
    default: return "?";
    }
}

/**
 * How many VCs per port an algorithm needs on a network: its VC levels.
 *
 * cube: dimension order 2 with datelines on a torus, else 1; minimal
 * adaptive the escape's levels + 1; Valiant and UGAL twice dimension
 * order's.  HyperX: dimension order 1; minimal adaptive n' (the number of
 * dimensions, SR_ESCAPE_HOPS) or 2 (SR_ESCAPE_DOR); Valiant and UGAL 2.
 * Dragonfly: minimal 2; Valiant and UGAL 3 (4 with SR_DF_VC_LOCAL and
 * SR_ROUTE_INTER_ROUTER); PAR 4 with SR_DF_VC_LOCAL (5 with
 * SR_ROUTE_INTER_ROUTER) and none with SR_DF_VC_GLOBALS: a PAR packet may
 * take two local hops in its source group before its global one, both on
 * level 0, and local channels of one group then wait for each other in a
 * cycle whatever the VCs per level (the verifier refutes it; see
 * docs/routing-beyond.rst).  Folded Clos and butterfly 1.
 *
 * :param net: the network.
 * :param d: the description (its vcs field is not read).
 * :returns: the VCs; -1 if the algorithm is not defined on this network
 *     or an option does not apply; SR_ROUTE_VCS_NONE if no number of VCs
 *     is enough (sr_routing_init then builds the routing only with
 *     SR_ROUTE_FEWER_VCS, for the verifier to refute).
 * :paper: seed 004 Section 5.5.2 ("two VCs, one for each phase"; "n' VC
 *     ... selected based on the number of hops remaining") and Section
 *     5.5.3 ("two VCs are needed for minimal routing and three VCs are
 *     required for non-minimal routing").
 */
SR_API int sr_routing_vcs_needed(const sr_net *net, const sr_routing_desc *d) {
    int dl, l;
    if (!net || !d) return -1;
    if (d->algorithm == SR_ALG_CUSTOM) return d->custom && d->custom->vcs_needed >= 1 ? d->custom->vcs_needed : -1;
    if (d->algorithm < 0 || d->algorithm >= SR_ALG_COUNT) return -1;
    l = sr__route_levels(net, d, &dl);
    if (l < 0) return -1;
    return sr__route_no_vcs_enough(net, d) ? SR_ROUTE_VCS_NONE : l;
}

/* Most candidates one call of a built-in algorithm returns. */
SR_API int sr__route_max_cand(const sr_net *net, int alg) {
    int m;
    switch (net->kind) {
    case SR_NET_CUBE: return alg == SR_ALG_MIN_ADAPTIVE ? 2 * net->cube.num_dims + 1 : 2;
    case SR_NET_HYPERX: return alg == SR_ALG_MIN_ADAPTIVE ? net->desc.hyperx.num_dims + 1 : 2;
    case SR_NET_DRAGONFLY:
        /* towards a group: the router's own channels to it (at most h),
         * or the routers with one (at most a-1); at most df_links either way */
        m = net->desc.dragonfly.a - 1 > net->desc.dragonfly.h ? net->desc.dragonfly.a - 1 : net->desc.dragonfly.h;
        if (net->df_links < m) m = net->df_links;
        if (m < 1) m = 1;
        return 2 * m;
    case SR_NET_CLOS: {
        int l, u = 1;
        for (l = 0; l < net->desc.clos.levels; l++)
            if (net->desc.clos.up[l] > u) u = net->desc.clos.up[l];
        return u;
    }
    default: return 1;
    }
}

/* Intermediates of an algorithm on a network. */
SR_API uint32_t sr__route_inters(const sr_net *net, const sr_routing_desc *d) {
    if (!sr__alg_inters(d->algorithm)) return 0;
    switch (net->kind) {
    case SR_NET_DRAGONFLY:
        return d->flags & SR_ROUTE_INTER_ROUTER ? net->num_routers : (uint32_t)net->desc.dragonfly.g;
    case SR_NET_CLOS: return net->up_span[net->desc.clos.levels - 1];
    default: return net->num_routers;
    }
}

/**
 * Validate a routing description for a network and fill a routing.
 *
 * :param rt: the routing to fill (untouched on error).
 * :param net: a network filled by sr_net_init (copied into ``rt``).
 * :param d: the description.
 * :returns: SR_OK; SR_ERR_NULL (also SR_ALG_CUSTOM without custom or
 *     custom->candidates); SR_ERR_KIND (net->kind is not a family);
 *     SR_ERR_ALGORITHM (unknown, or not defined on this family); SR_ERR_OPTION
 *     (unknown flag, df_vc or escape, or one that does not apply, such as
 *     SR_ROUTE_INTER_ROUTER off the dragonfly; custom: vcs_needed or
 *     max_candidates below 1); SR_ERR_VCS (vcs above SR_ROUTE_MAX_VCS or
 *     negative, or below sr_routing_vcs_needed without
 *     SR_ROUTE_FEWER_VCS; also any number for a routing that
 *     sr_routing_vcs_needed says no number is enough for).
 * :paper: seed 004 Chapter 5.
 */
SR_API sr_result sr_routing_init(sr_routing *rt, const sr_net *net, const sr_routing_desc *d) {
    sr_routing r;
    int need, dl = 1;
    if (!rt || !net || !d) return SR_ERR_NULL;
    if (net->kind < 0 || net->kind >= SR_NET_KIND_COUNT) return SR_ERR_KIND;
    if (d->algorithm < 0 || d->algorithm >= SR_ALG_COUNT) return SR_ERR_ALGORITHM;
    if (d->flags & ~(SR_ROUTE_NO_DATELINES | SR_ROUTE_FEWER_VCS | SR_ROUTE_INTER_ROUTER)) return SR_ERR_OPTION;
    if (d->df_vc < 0 || d->df_vc >= SR_DF_VC_COUNT || d->escape < 0 || d->escape >= SR_ESCAPE_COUNT)
        return SR_ERR_OPTION;
    memset(&r, 0, sizeof r);
    r.net = *net;
    r.desc = *d;
    if (d->algorithm == SR_ALG_CUSTOM) {
        if (!d->custom || !d->custom->candidates) return SR_ERR_NULL;
        if (d->custom->vcs_needed < 1 || d->custom->max_candidates < 1 ||
            d->custom->vcs_needed > SR_ROUTE_MAX_VCS)
            return SR_ERR_OPTION;
        if (d->flags & (SR_ROUTE_NO_DATELINES | SR_ROUTE_INTER_ROUTER)) return SR_ERR_OPTION;
        r.custom = *d->custom;
        need = r.custom.vcs_needed;
        r.escape = r.custom.escape != 0;
        r.input_free = r.custom.input_free != 0;
        r.max_candidates = r.custom.max_candidates;
        r.inters = r.custom.inters;
    } else {
        need = sr__route_levels(net, d, &dl);
        if (need == -1) return SR_ERR_ALGORITHM;
        if (need < 0) return SR_ERR_OPTION;
        r.escape = d->algorithm == SR_ALG_MIN_ADAPTIVE &&
                   (net->kind == SR_NET_CUBE || d->escape == SR_ESCAPE_DOR);
        r.input_free = 1;
        r.max_candidates = sr__route_max_cand(net, d->algorithm);
        r.inters = sr__route_inters(net, d);
    }
    if (d->vcs < 0 || d->vcs > SR_ROUTE_MAX_VCS) return SR_ERR_VCS;
    r.vcs = d->vcs ? d->vcs : need;
    r.desc.vcs = r.vcs;
    if ((r.vcs < need || (d->algorithm != SR_ALG_CUSTOM && sr__route_no_vcs_enough(net, d))) &&
        !(d->flags & SR_ROUTE_FEWER_VCS))
        return SR_ERR_VCS;
    r.levels = need;
    r.dl = dl;
    if (need <= SR__LEVEL_TABLE) {
        int l, V = r.vcs;
        for (l = 0; l < need; l++) {
            r.level_lo[l] = (uint8_t)(V >= need ? l * V / need : l < V ? l : V - 1);
            r.level_hi[l] = (uint8_t)(V >= need ? (l + 1) * V / need - 1 : l < V ? l : V - 1);
        }
    }
    *rt = r;
    return SR_OK;
}

/**
 * Most candidates one call of sr_route_candidates returns: the size of the
 * caller's array.
 *
 * :param rt: the routing.
 * :returns: the bound (>= 1).
 */
SR_API int sr_route_max_candidates(const sr_routing *rt) { return rt->max_candidates; }

/**
 * Number of intermediates the algorithm chooses from: the routers (cube,
 * HyperX, dragonfly with SR_ROUTE_INTER_ROUTER), the groups (dragonfly),
 * the top switches (folded Clos); 0 for algorithms without one.  The
 * intermediates are 0 .. count-1, in those units.
 *
 * :param rt: the routing.
 * :returns: the count.
 * :paper: seed 004 Section 5.3.1 ("a random node"), Section 5.5.3 ("a
 *     randomly-selected intermediate group").
 */
SR_API uint32_t sr_route_inter_count(const sr_routing *rt) { return rt->inters; }

/**
 * Choose an intermediate from a caller-supplied random number, uniformly
 * (to within 2^-32) over 0 .. sr_route_inter_count - 1.
 *
 * :param rt: the routing.
 * :param random: a uniformly random 64-bit number (its high 32 bits are
 *     used).
 * :returns: the intermediate, or SR_NO_NODE when the algorithm has none.
 */
SR_API uint32_t sr_route_inter_pick(const sr_routing *rt, uint64_t random) {
    if (!rt->inters) return SR_NO_NODE;
    return (uint32_t)(((random >> 32) * (uint64_t)rt->inters) >> 32);
}

/* ---- network helpers of the algorithms ---- */

/* The router a terminal is delivered at. */
SR_API uint32_t sr__dest_router(const sr_net *net, uint32_t dest) { return sr_net_eject_router(net, dest, NULL); }

/* Cube / HyperX: coordinate of router r in dimension d. */
SR_API int sr__rcoord(const sr_net *net, uint32_t r, int d) {
    if (net->kind == SR_NET_CUBE) return (int)((r / net->cube.stride[d]) % (uint32_t)net->cube.radix[d]);
    return (int)((r / net->stride[d]) % (uint32_t)net->desc.hyperx.size[d]);
}

/* Cube: hops from a to b (each dimension the shorter way round a ring). */
SR_API int sr__cube_dist(const sr_topology *t, uint32_t a, uint32_t b) {
    int d, h = 0;
    for (d = 0; d < t->num_dims; d++) {
        int x = (int)((a / t->stride[d]) % (uint32_t)t->radix[d]), y = (int)((b / t->stride[d]) % (uint32_t)t->radix[d]);
        int up = ((y - x) % t->radix[d] + t->radix[d]) % t->radix[d];
        h += t->mesh[d] ? (y > x ? y - x : x - y) : (up < t->radix[d] - up ? up : t->radix[d] - up);
    }
    return h;
}

/* HyperX: hops from a to b (dimensions in which they differ). */
SR_API int sr__hx_dist(const sr_net *net, uint32_t a, uint32_t b) {
    int d, h = 0;
    for (d = 0; d < net->desc.hyperx.num_dims; d++) h += sr__rcoord(net, a, d) != sr__rcoord(net, b, d);
    return h;
}

/* HyperX: the port of router r to coordinate c2 of dimension d. */
SR_API int sr__hx_port(const sr_net *net, uint32_t r, int d, int c2) {
    int c = sr__rcoord(net, r, d);
    return net->port_base[d] + (c2 < c ? c2 : c2 - 1);
}

/* Cube: the dimension-order port from r towards target (-1 at target),
 * and in *coord (may be NULL) r's coordinate in that port's dimension.
 * Dimension 0 has the largest stride, so the coordinates come from the
 * top down with one division each (quotient and remainder of one
 * division); the direction in a ring is sr__direction2's: the shorter
 * way, the topology's tie-break at k/2. */
SR_API int sr__cube_dor_port(const sr_topology *t, uint32_t r, uint32_t target, int *coord) {
    int d;
    for (d = 0; d < t->num_dims; d++) {
        uint32_t s = t->stride[d];
        int c = (int)(r / s), cd = (int)(target / s), k = t->radix[d], up;
        r %= s;
        target %= s;
        if (c == cd) continue;
        if (coord) *coord = c;
        if (t->mesh[d]) return 2 * d + (cd < c);
        up = cd - c < 0 ? cd - c + k : cd - c;
        return 2 * d + (2 * up < k ? 0 : 2 * up > k ? 1 : sr__tie_negative(t, c));
    }
    return -1;
}

/* HyperX: the dimension-order port from r towards target (-1 at target). */
SR_API int sr__hx_dor_port(const sr_net *net, uint32_t r, uint32_t target) {
    int d;
    for (d = 0; d < net->desc.hyperx.num_dims; d++) {
        int cd = sr__rcoord(net, target, d);
        if (sr__rcoord(net, r, d) != cd) return sr__hx_port(net, r, d, cd);
    }
    return -1;
}

/* Dragonfly: the local port of router r to router x of its group. */
SR_API int sr__df_local_port(const sr_net *net, uint32_t r, uint32_t x) {
    uint32_t a = (uint32_t)net->desc.dragonfly.a;
    int i = (int)(r % a), j = (int)(x % a);
    return net->desc.dragonfly.p + (j < i ? j : j - 1);
}

/* Dragonfly: the router a global channel c of group grp lands on. */
SR_API uint32_t sr__df_landing(const sr_net *net, uint32_t grp, int c) {
    int back;
    uint32_t tg = sr_df_global_target(net, grp, c, &back);
    return tg * (uint32_t)net->desc.dragonfly.a + (uint32_t)(back / net->desc.dragonfly.h);
}

/* Dragonfly: hops of the minimal routing (steps 1-3) from router r to
 * router x. */
SR_API int sr__df_dist(const sr_net *net, uint32_t r, uint32_t x) {
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    uint32_t a = (uint32_t)f->a, gr = r / a, gx = x / a;
    int first, m = net->df_links, c, own = 0, best = 1 << 30;
    if (r == x) return 0;
    if (gr == gx) return 1;
    first = sr_df_global_first(net, gr, gx);
    for (c = first; c < first + m; c++) own |= (uint32_t)(c / f->h) == r % a;
    for (c = first; c < first + m; c++) {
        int hops;
        if (own && (uint32_t)(c / f->h) != r % a) continue;
        hops = ((uint32_t)(c / f->h) != r % a) + 1 + (sr__df_landing(net, gr, c) != x);
        if (hops < best) best = hops;
    }
    return best;
}

/* ---- candidate emission ---- */

typedef struct sr__emit {
    sr_candidate *out;
    int cap;
    int n;
} sr__emit;

SR_API void sr__put(sr__emit *e, int port, int lo, int hi, int cls) {
    if (e->n < e->cap) {
        sr_candidate *c = &e->out[e->n];
        c->port = (int16_t)port;
        c->vc_lo = (uint8_t)lo;
        c->vc_hi = (uint8_t)hi;
        c->cls = (uint8_t)cls;
        c->flags = 0;
        c->spare = 0;
    }
    e->n++;
}

/* The VCs of a level. */
SR_API void sr__level_vcs(const sr_routing *rt, int level, int *lo, int *hi) {
    int V = rt->vcs, L = rt->levels;
    if (level >= L) level = L - 1;
    if (L <= SR__LEVEL_TABLE) {       /* sr_routing_init's table of the below */
        *lo = rt->level_lo[level];
        *hi = rt->level_hi[level];
    } else if (V >= L) {
        *lo = level * V / L;
        *hi = (level + 1) * V / L - 1;
    } else {
        *lo = *hi = level < V ? level : V - 1;
    }
}

SR_API void sr__put_level(const sr_routing *rt, sr__emit *e, int port, int level, int cls) {
    int lo, hi;
    sr__level_vcs(rt, level, &lo, &hi);
    sr__put(e, port, lo, hi, cls);
}

/* The terminal port of a packet at its destination's router. */
SR_API void sr__put_eject(const sr_routing *rt, sr__emit *e, uint32_t dest) {
    int port;
    sr_net_eject_router(&rt->net, dest, &port);
    sr__put(e, port, 0, 0, SR_CLASS_MINIMAL);
}

/* The phase of a packet and the target of its current leg: the
 * intermediate (router, or group of the dragonfly) in SR_PHASE_TO_INTER,
 * else the destination's router. */
SR_API uint32_t sr__leg_target(const sr_routing *rt, const sr_header *h) {
    return h->phase == SR_PHASE_TO_INTER ? h->inter : sr__dest_router(&rt->net, h->dest);
}

/* Check a header against what the built-in algorithm can produce. */
SR_API sr_result sr__header_check(const sr_routing *rt, const sr_header *h) {
    const sr_net *net = &rt->net;
    int a = rt->desc.algorithm;
    if (h->dest >= net->num_terminals || h->phase > SR_PHASE_TO_DEST) return SR_ERR_HEADER;
    if (sr__alg_inters(a)) {
        if ((h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED) && h->inter >= rt->inters)
            return SR_ERR_HEADER;
        if (h->phase == SR_PHASE_UNDECIDED && a == SR_ALG_VALIANT) return SR_ERR_HEADER;
        if (h->phase == SR_PHASE_MINIMAL && a == SR_ALG_VALIANT) return SR_ERR_HEADER;
    } else if (h->phase != SR_PHASE_MINIMAL) {
        return SR_ERR_HEADER;
    }
    if (net->kind == SR_NET_DRAGONFLY) {
        if (h->globals > 2 || (a == SR_ALG_MINIMAL && h->globals > 1)) return SR_ERR_HEADER;
        if (rt->desc.df_vc == SR_DF_VC_GLOBALS ? h->vclass != 0 : (h->vclass & 0x7F) > 2) return SR_ERR_HEADER;
    } else if (net->kind == SR_NET_CUBE) {
        if (net->cube.num_dims < 8 && (h->vclass >> net->cube.num_dims)) return SR_ERR_HEADER;
    }
    return SR_OK;
}

/* ---- cube ---- */

/* VC level of a cube hop through port from a router at coordinate c of
 * the port's dimension: the dateline bit after the hop, within the set
 * (0: Valiant's first phase, 1: the rest). */
SR_API int sr__cube_level(const sr_routing *rt, int c, int port, const sr_header *h, int set) {
    int bit = 0;
    if (rt->dl == 2) bit = ((h->vclass >> (port >> 1)) & 1) | sr_crosses_dateline(&rt->net.cube, port, c);
    return set * rt->dl + bit;
}

/* Cube: the dimension-order candidate towards target, class cls, in the
 * VC set of the leg. */
SR_API void sr__cube_dor(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h, uint32_t target,
                         int set, int cls) {
    int c = 0, port = sr__cube_dor_port(&rt->net.cube, r, target, &c);
    if (port >= 0) sr__put_level(rt, e, port, sr__cube_level(rt, c, port, h, set), cls);
}

/* Cube, minimal adaptive: every productive direction on the adaptive VCs
 * (dl .. V-1; both ways round a ring at distance k/2), then the
 * dimension-order escape on VC 0 or 1 (the dateline bit). */
SR_API void sr__cube_min_adaptive(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    const sr_topology *t = &rt->net.cube;
    uint32_t dr = sr__dest_router(&rt->net, h->dest);
    int d, lo = rt->dl < rt->vcs - 1 ? rt->dl : rt->vcs - 1, esc, port, c = 0;
    for (d = 0; d < t->num_dims; d++) {
        int k = t->radix[d];
        c = (int)((r / t->stride[d]) % (uint32_t)k);
        int cd = (int)((dr / t->stride[d]) % (uint32_t)k), up = ((cd - c) % k + k) % k;
        if (c == cd) continue;
        if (t->mesh[d]) { sr__put(e, 2 * d + (cd < c), lo, rt->vcs - 1, SR_CLASS_MINIMAL); continue; }
        if (2 * up <= k) sr__put(e, 2 * d, lo, rt->vcs - 1, SR_CLASS_MINIMAL);
        if (2 * up >= k) sr__put(e, 2 * d + 1, lo, rt->vcs - 1, SR_CLASS_MINIMAL);
    }
    port = sr__cube_dor_port(t, r, dr, &c);
    esc = sr__cube_level(rt, c, port, h, 0);
    if (esc > rt->vcs - 1) esc = rt->vcs - 1;
    sr__put(e, port, esc, esc, SR_CLASS_ESCAPE);
}

SR_API sr_result sr__cube_candidates(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    int a = rt->desc.algorithm;
    uint32_t dr = sr__dest_router(&rt->net, h->dest);
    if (h->phase != SR_PHASE_TO_INTER && r == dr) { sr__put_eject(rt, e, h->dest); return SR_OK; }
    /* sr_route_advance switches the phase at the intermediate */
    if ((h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED) && r == h->inter) return SR_ERR_HEADER;
    switch (a) {
    case SR_ALG_DOR: sr__cube_dor(rt, e, r, h, dr, 0, SR_CLASS_MINIMAL); break;
    case SR_ALG_MIN_ADAPTIVE: sr__cube_min_adaptive(rt, e, r, h); break;
    default:   /* Valiant, UGAL: set 0 towards the intermediate, set 1 to the destination */
        if (h->phase != SR_PHASE_TO_INTER) sr__cube_dor(rt, e, r, h, dr, 1, SR_CLASS_MINIMAL);
        if (h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED)
            sr__cube_dor(rt, e, r, h, h->inter, 0, SR_CLASS_NONMINIMAL);
        break;
    }
    return SR_OK;
}

/* ---- HyperX ---- */

SR_API sr_result sr__hx_candidates(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    const sr_net *net = &rt->net;
    uint32_t dr = sr__dest_router(net, h->dest);
    int a = rt->desc.algorithm, d, port;
    if (h->phase != SR_PHASE_TO_INTER && r == dr) { sr__put_eject(rt, e, h->dest); return SR_OK; }
    if ((h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED) && r == h->inter) return SR_ERR_HEADER;
    if (a == SR_ALG_DOR) {
        sr__put_level(rt, e, sr__hx_dor_port(net, r, dr), 0, SR_CLASS_MINIMAL);
    } else if (a == SR_ALG_MIN_ADAPTIVE) {
        /* seed 004 Section 5.5.2.1: "the productive channel"; a channel in
         * dimension j is productive if c_j != d_j before the hop and
         * c_j = d_j after it (the print lost the "!=") */
        int remaining = sr__hx_dist(net, r, dr), esc = rt->desc.escape == SR_ESCAPE_DOR;
        int lo = esc ? (1 < rt->vcs - 1 ? 1 : rt->vcs - 1) : 0, hi = rt->vcs - 1, level = net->desc.hyperx.num_dims - remaining;
        if (!esc) sr__level_vcs(rt, level, &lo, &hi);
        for (d = 0; d < net->desc.hyperx.num_dims; d++) {
            int cd = sr__rcoord(net, dr, d);
            if (sr__rcoord(net, r, d) != cd) sr__put(e, sr__hx_port(net, r, d, cd), lo, hi, SR_CLASS_MINIMAL);
        }
        if (esc) sr__put(e, sr__hx_dor_port(net, r, dr), 0, 0, SR_CLASS_ESCAPE);
    } else {   /* Valiant, UGAL: one VC level per phase */
        if (h->phase != SR_PHASE_TO_INTER) sr__put_level(rt, e, sr__hx_dor_port(net, r, dr), 1, SR_CLASS_MINIMAL);
        if (h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED) {
            port = sr__hx_dor_port(net, r, h->inter);
            sr__put_level(rt, e, port, 0, SR_CLASS_NONMINIMAL);
        }
    }
    return SR_OK;
}

/* ---- dragonfly ---- */

/* Under SR_DF_VC_LOCAL, bit 7 of vclass: the last hop was local; bits
 * 0-6: the local hops so far that followed a local hop. */
#define SR__DF_LAST_LOCAL 0x80u

/* VC level of a dragonfly hop (local or global) for a packet with header
 * h: SR_DF_VC_GLOBALS, the global channels crossed before it (seed 004
 * Figure 5.4); SR_DF_VC_LOCAL, that plus the local hops that followed a
 * local hop, this one included. */
SR_API int sr__df_level(const sr_routing *rt, const sr_header *h, int global) {
    if (rt->desc.df_vc == SR_DF_VC_GLOBALS) return h->globals;
    return h->globals + (h->vclass & 0x7F) + (!global && (h->vclass & SR__DF_LAST_LOCAL) ? 1 : 0);
}

/* Steps 1-2 of seed 004 Section 5.5.3 towards group g from router r of
 * another group: "If Gs != Gd [printed "="] and Rs does not have a
 * connection to Gd, route within Gs from Rs to Ra, a router that has a
 * global channel to Gd"; "If Gs != Gd [printed "="], traverse the global
 * channel from Ra".  Every router with a channel to g is a candidate (a
 * dragonfly below the maximum size has several), and r's own channels if
 * it has any. */
SR_API void sr__df_to_group(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h, uint32_t g,
                            int cls) {
    const sr_net *net = &rt->net;
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    uint32_t a = (uint32_t)f->a, gr = r / a, idx = r % a;
    int first = sr_df_global_first(net, gr, g), m = net->df_links, c, own = 0, last = -1;
    for (c = first; c < first + m; c++) own |= (uint32_t)(c / f->h) == idx;
    for (c = first; c < first + m; c++) {
        int x = c / f->h;
        if (own) {
            if ((uint32_t)x == idx) sr__put_level(rt, e, f->p + f->a - 1 + c % f->h, sr__df_level(rt, h, 1), cls);
        } else if (x != last) {
            sr__put_level(rt, e, sr__df_local_port(net, r, gr * a + (uint32_t)x), sr__df_level(rt, h, 0), cls);
            last = x;
        }
    }
}

/* Towards router x: step 3 ("If Rb != Rd [printed "="], route within Gd
 * from Rb to Rd") inside x's group, else steps 1-2 to its group. */
SR_API void sr__df_to_router(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h, uint32_t x, int cls) {
    uint32_t a = (uint32_t)rt->net.desc.dragonfly.a;
    if (r / a == x / a) sr__put_level(rt, e, sr__df_local_port(&rt->net, r, x), sr__df_level(rt, h, 0), cls);
    else sr__df_to_group(rt, e, r, h, x / a, cls);
}

SR_API sr_result sr__df_candidates(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    uint32_t a = (uint32_t)rt->net.desc.dragonfly.a, dr = sr__dest_router(&rt->net, h->dest);
    int router_inter = (rt->desc.flags & SR_ROUTE_INTER_ROUTER) != 0;
    if (h->phase != SR_PHASE_TO_INTER && r == dr) { sr__put_eject(rt, e, h->dest); return SR_OK; }
    /* the minimal routing's steps 1-3; for Valiant (Section 5.5.3, steps
     * 3-5: "If Gi = Gd and Rx does not have a connection to Gd, route
     * within Gi from Rx to Ry", "If Gi = Gd, traverse the global channel",
     * "If Rb = Rd, route within Gd", each printed "=" for "!=") the same
     * steps from wherever the packet landed in the intermediate group */
    if (h->phase != SR_PHASE_TO_INTER) sr__df_to_router(rt, e, r, h, dr, SR_CLASS_MINIMAL);
    if (h->phase == SR_PHASE_TO_INTER || h->phase == SR_PHASE_UNDECIDED) {
        /* Valiant's steps 1-2 towards the intermediate ("If Gs = Gi",
         * printed for "!="); sr_route_advance switches the phase on
         * arrival, so a packet in SR_PHASE_TO_INTER at its intermediate is
         * a state that cannot occur */
        if (router_inter ? r == h->inter : r / a == h->inter) return SR_ERR_HEADER;
        if (router_inter) sr__df_to_router(rt, e, r, h, h->inter, SR_CLASS_NONMINIMAL);
        else sr__df_to_group(rt, e, r, h, h->inter, SR_CLASS_NONMINIMAL);
    }
    return SR_OK;
}

/* ---- folded Clos ---- */

/* Clos: does router r (level l) have terminal dest below it? */
SR_API int sr__clos_covers(const sr_net *net, uint32_t r, int l, uint32_t dest) {
    const sr_clos_desc *c = &net->desc.clos;
    uint32_t i = r - net->level_first[l], A = i / net->up_span[l], A0 = dest / (uint32_t)c->down[0];
    int j;
    for (j = 1; j <= l; j++) A0 /= (uint32_t)c->down[j];
    return A == A0;
}

/* Clos: the down port of router r (level l >= 1, covering dest) towards
 * dest, or its terminal port at level 0. */
SR_API int sr__clos_down_port(const sr_net *net, int l, uint32_t dest) {
    const sr_clos_desc *c = &net->desc.clos;
    uint32_t A = dest / (uint32_t)c->down[0];
    int j;
    if (l == 0) return (int)(dest % (uint32_t)c->down[0]);
    for (j = 1; j < l; j++) A /= (uint32_t)c->down[j];
    return (int)(A % (uint32_t)c->down[l]);
}

SR_API sr_result sr__clos_candidates(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    const sr_net *net = &rt->net;
    const sr_clos_desc *c = &net->desc.clos;
    int l = sr__clos_level(net, r), u;
    if (h->phase == SR_PHASE_TO_INTER) {
        if (l == c->levels - 1) return SR_ERR_HEADER;   /* at the top: advance switched the phase */
        /* Valiant: up to top switch inter; going up from level l through up
         * port u adds digit u * up_span[l] to the switch's index */
        u = (int)((h->inter / net->up_span[l]) % (uint32_t)c->up[l]);
        sr__put_level(rt, e, c->down[l] + u, 0, SR_CLASS_NONMINIMAL);
    } else if (sr__clos_covers(net, r, l, h->dest)) {
        /* seed 004 Section 5.5.1: "routed from the selected middle-stage
         * switch (or common ancestor) to its destination output port. This
         * routing is deterministic" */
        if (l == 0) sr__put_eject(rt, e, h->dest);
        else sr__put_level(rt, e, sr__clos_down_port(net, l, h->dest), 0, SR_CLASS_MINIMAL);
    } else {
        /* "Any middle-stage switch (or common ancestor switch) can be
         * selected during the input phase": every up port */
        for (u = 0; u < c->up[l]; u++) sr__put_level(rt, e, c->down[l] + u, 0, SR_CLASS_MINIMAL);
    }
    return SR_OK;
}

/* ---- butterfly ---- */

SR_API sr_result sr__fly_candidates(const sr_routing *rt, sr__emit *e, uint32_t r, const sr_header *h) {
    const sr_net *net = &rt->net;
    int k = net->desc.butterfly.k, n = net->desc.butterfly.n;
    uint32_t s = r / net->fly_rows, row = r % net->fly_rows, drow = h->dest / (uint32_t)k;
    if ((int)s == n - 1) {
        if (row != drow) return SR_ERR_HEADER;   /* on the last stage, at the wrong switch */
        sr__put_eject(rt, e, h->dest);
        return SR_OK;
    }
    /* destination-tag routing: stage s's output sets digit n-2-s of the row
     * (sr_net_neighbor), so it is that digit of the destination's row */
    sr__put_level(rt, e, k + (int)((drow / net->fly_pow[n - 2 - (int)s]) % (uint32_t)k), 0, SR_CLASS_MINIMAL);
    return SR_OK;
}

/* The candidates of a routing whose arguments are known to be in range
 * (sr_route_candidates checks them and returns a code, the trusted
 * variant asserts them): the one copy of the dispatch. */
SR_API sr_result sr__candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc, const sr_header *h,
                                sr_candidate *out, int cap, int *n) {
    sr__emit e;
    sr_result r;
    if (rt->desc.algorithm == SR_ALG_CUSTOM) {
        r = rt->custom.candidates(rt, router, in_port, in_vc, h, out, cap, n);
        if (r == SR_OK && *n > cap) r = SR_ERR_BUFFER_SIZE;
        return r;
    }
    e.out = out; e.cap = cap; e.n = 0;
    switch (rt->net.kind) {
    case SR_NET_CUBE: r = sr__cube_candidates(rt, &e, router, h); break;
    case SR_NET_HYPERX: r = sr__hx_candidates(rt, &e, router, h); break;
    case SR_NET_DRAGONFLY: r = sr__df_candidates(rt, &e, router, h); break;
    case SR_NET_CLOS: r = sr__clos_candidates(rt, &e, router, h); break;
    default: r = sr__fly_candidates(rt, &e, router, h); break;
    }
    if (r != SR_OK) return r;
    *n = e.n;
    return e.n > cap ? SR_ERR_BUFFER_SIZE : SR_OK;
}

/**
 * The routing function: every candidate (output port, VC range, class) of
 * a packet at a router.
 *
 * Reads only the router, the input port and VC, and the header; the
 * built-in algorithms read neither in_port nor in_vc (their state is in
 * the header).  Candidates come in a fixed order: minimal ones, then
 * non-minimal ones, then the escape.  See the section comment for each
 * algorithm and docs/routing-beyond.rst.
 *
 * :param rt: the routing.
 * :param router: the router, < rt->net.num_routers.
 * :param in_port: the port the packet arrived on (its terminal's port at
 *     injection), < sr_net_num_ports(router).
 * :param in_vc: the VC it arrived on (0 at injection), < rt->vcs.
 * :param h: the packet's header.
 * :param out: out, the candidates (the first ``cap`` of them).
 * :param cap: entries of ``out`` (sr_route_max_candidates is enough).
 * :param n: out, the number of candidates, also when above ``cap``.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE (router);
 *     SR_ERR_PORT_RANGE (in_port); SR_ERR_VCS (in_vc); SR_ERR_HEADER (a
 *     state the routing cannot produce: never an out-of-range port);
 *     SR_ERR_BUFFER_SIZE (more than ``cap`` candidates: ``out`` holds the
 *     first ``cap``).
 * :paper: seed 004 Sections 5.2.1, 5.3.1-5.3.3, 5.5.1-5.5.3.
 */
SR_API sr_result sr_route_candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc,
                                     const sr_header *h, sr_candidate *out, int cap, int *n) {
    sr_result r;
    if (!rt || !h || !n || (!out && cap > 0)) return SR_ERR_NULL;
    *n = 0;
    if (router >= rt->net.num_routers) return SR_ERR_NODE_RANGE;
    if (in_port < 0 || in_port >= sr_net_num_ports(&rt->net, router)) return SR_ERR_PORT_RANGE;
    if (in_vc < 0 || in_vc >= rt->vcs) return SR_ERR_VCS;
    if (cap < 0) cap = 0;
    if (rt->desc.algorithm != SR_ALG_CUSTOM) {
        r = sr__header_check(rt, h);
        if (r != SR_OK) return r;
    }
    return sr__candidates(rt, router, in_port, in_vc, h, out, cap, n);
}

/**
 * sr_route_candidates for a simulator's inner loop: the same candidates,
 * with the argument checks of sr_route_candidates as preconditions
 * (SR_ASSERT) instead of result codes.
 *
 * Use it where the arguments come from the library itself: a router and
 * ports of the network, a header that sr_route_header_init and
 * sr_route_advance produced, ``out`` of sr_route_max_candidates entries.
 * The codes that remain are the routing's own: SR_ERR_HEADER (a built-in
 * algorithm asked for a state it cannot produce, such as a packet at its
 * intermediate before its phase moved on) and what a custom routing
 * returns.
 *
 * :param rt: the routing.
 * :param router: the router, < rt->net.num_routers (SR_ASSERT).
 * :param in_port: the port the packet arrived on, < sr_net_num_ports
 *     (SR_ASSERT).
 * :param in_vc: the VC it arrived on, < rt->vcs (SR_ASSERT).
 * :param h: the packet's header, a state the routing produces (SR_ASSERT).
 * :param out: out, the candidates.
 * :param cap: entries of ``out``, >= sr_route_max_candidates (SR_ASSERT).
 * :param n: out, the number of candidates.
 * :returns: SR_OK; SR_ERR_HEADER; a custom routing's error.
 * :paper: seed 004 Sections 5.2.1, 5.3.1-5.3.3, 5.5.1-5.5.3.
 */
SR_API sr_result sr_route_candidates_trusted(const sr_routing *rt, uint32_t router, int in_port, int in_vc,
                                             const sr_header *h, sr_candidate *out, int cap, int *n) {
    SR_ASSERT(rt && h && n && out);
    SR_ASSERT(router < rt->net.num_routers);
    SR_ASSERT(in_port >= 0 && in_port < sr_net_num_ports(&rt->net, router));
    SR_ASSERT(in_vc >= 0 && in_vc < rt->vcs);
    SR_ASSERT(cap >= rt->max_candidates);
    SR_ASSERT(rt->desc.algorithm == SR_ALG_CUSTOM || sr__header_check(rt, h) == SR_OK);
    *n = 0;
    return sr__candidates(rt, router, in_port, in_vc, h, out, cap, n);
}

/* Has a packet of leg target `target` (a router; a group for the
 * dragonfly without SR_ROUTE_INTER_ROUTER) arrived at router v? */
SR_API int sr__at_inter(const sr_routing *rt, uint32_t v, uint32_t inter) {
    if (rt->net.kind == SR_NET_DRAGONFLY && !(rt->desc.flags & SR_ROUTE_INTER_ROUTER))
        return v / (uint32_t)rt->net.desc.dragonfly.a == inter;
    if (rt->net.kind == SR_NET_CLOS) {
        int top = rt->net.desc.clos.levels - 1;
        return v >= rt->net.level_first[top] && v - rt->net.level_first[top] == inter;
    }
    return v == inter;
}

/* The router a hop from r through port arrives at: *v, found once (a
 * hop's update reads it only in some phases). */
SR_API uint32_t sr__hop_target(const sr_routing *rt, uint32_t r, int port, uint32_t *v) {
    if (*v == SR_NO_NODE) *v = sr_net_neighbor(&rt->net, r, port, NULL);
    return *v;
}

/* The header after a hop of a built-in algorithm (router r, port, VC
 * level computed before the hop for SR_DF_VC_LOCAL), arriving at v
 * (SR_NO_NODE: not known yet, found when needed). */
SR_API void sr__advance(const sr_routing *rt, uint32_t r, const sr_candidate *c, sr_header *h, uint32_t v) {
    const sr_net *net = &rt->net;
    int a = rt->desc.algorithm, global = 0, cc = 0;
    if (net->kind == SR_NET_DRAGONFLY) {
        global = c->port >= net->desc.dragonfly.p + net->desc.dragonfly.a - 1;
        if (rt->desc.df_vc == SR_DF_VC_LOCAL) {
            unsigned extra = (h->vclass & 0x7Fu) + (!global && (h->vclass & SR__DF_LAST_LOCAL) ? 1u : 0u);
            h->vclass = (uint8_t)(extra | (global ? 0u : SR__DF_LAST_LOCAL));
        }
        if (global) h->globals++;
    }
    if (net->kind == SR_NET_CUBE && rt->dl == 2) {
        const sr_topology *t = &net->cube;
        int d = c->port >> 1;
        cc = (int)((r / t->stride[d]) % (uint32_t)t->radix[d]);
        if (sr_crosses_dateline(t, c->port, cc)) h->vclass = (uint8_t)(h->vclass | (1u << d));
    }
    /* the phase: UGAL decides at the source router; PAR stays undecided
     * while it takes minimal hops inside the source group */
    if (h->phase == SR_PHASE_UNDECIDED) {
        if (c->cls == SR_CLASS_NONMINIMAL) h->phase = SR_PHASE_TO_INTER;
        else if (a != SR_ALG_PAR || global || sr__at_inter(rt, sr__hop_target(rt, r, c->port, &v), h->inter)) {
            /* (a PAR packet that reaches an intermediate router on its
             * minimal path has nothing left to decide) */
            h->phase = SR_PHASE_MINIMAL;
            h->inter = SR_NO_NODE;
        }
    }
    if (h->phase == SR_PHASE_TO_INTER && sr__at_inter(rt, sr__hop_target(rt, r, c->port, &v), h->inter)) {
        h->phase = SR_PHASE_TO_DEST;
        h->inter = SR_NO_NODE;
        if (net->kind == SR_NET_CUBE) h->vclass = 0;   /* phase 2: a new VC set */
    }
    if (net->kind == SR_NET_CUBE && rt->dl == 2 && h->vclass) {
        /* normal form: the bit of a dimension the leg has finished is 0
         * (the coordinate after the hop is cc + 1 or cc - 1 round the
         * ring) */
        const sr_topology *t = &net->cube;
        int d = c->port >> 1, k = t->radix[d], next = c->port & 1 ? (cc == 0 ? k - 1 : cc - 1) : (cc == k - 1 ? 0 : cc + 1);
        uint32_t target = sr__leg_target(rt, h);
        if ((uint32_t)next == (target / t->stride[d]) % (uint32_t)k) h->vclass = (uint8_t)(h->vclass & ~(1u << d));
    }
}

/* The header after a hop over a channel from router to v (SR_NO_NODE: to
 * be found when needed; arguments in range): the one copy of the update behind sr_route_advance and its
 * trusted variant. */
SR_API sr_result sr__hop(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc, sr_header *h,
                         uint32_t v) {
    sr_header x = *h;
    if (rt->desc.algorithm == SR_ALG_CUSTOM) {
        if (rt->custom.advance) {
            sr_result r = rt->custom.advance(rt, router, c, vc, &x);
            if (r != SR_OK) return r;
        } else if (rt->net.kind == SR_NET_DRAGONFLY &&
                   sr_net_port_info(&rt->net, router, c->port).kind == SR_PORT_GLOBAL && x.globals < 255)
            x.globals++;
    } else {
        sr__advance(rt, router, c, &x, v);
    }
    if (x.hops < 255) x.hops++;
    *h = x;
    return SR_OK;
}

/**
 * Update a packet's header for the hop it takes: the candidate chosen and
 * the VC (in the candidate's range).
 *
 * Counts the hop (``hops``, saturating at 255) and, on a dragonfly, the
 * global channels crossed; sets the cube's dateline bit of the dimension
 * when the hop crosses its dateline (and clears it when the leg finishes
 * the dimension); under SR_DF_VC_LOCAL records the hop's VC level; moves
 * the phase: UGAL commits at its first hop (a non-minimal candidate:
 * SR_PHASE_TO_INTER, a minimal one: SR_PHASE_MINIMAL), PAR commits when it
 * takes a non-minimal candidate or leaves the source group; a packet that
 * reaches its intermediate (router, group, top switch) goes on in
 * SR_PHASE_TO_DEST.  An ejection leaves the header as it is.
 *
 * :param rt: the routing.
 * :param router: the router the hop leaves.
 * :param c: the candidate taken (as sr_route_candidates gave it).
 * :param vc: the VC taken, in c->vc_lo .. c->vc_hi.
 * :param h: in/out, the header.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE; SR_ERR_PORT_RANGE
 *     (c->port is not a port of the router); SR_ERR_NO_LINK (no channel
 *     there); SR_ERR_VCS (vc outside c's range or the routing's VCs);
 *     SR_ERR_HEADER (h is a state the routing cannot produce).  The header
 *     is unchanged on error.
 * :paper: seed 004 Sections 5.3.1 (Valiant's two phases), 5.3.2 (UGAL's
 *     decision "is not revisited"), 5.3.3 (PAR "revisited at each hop"),
 *     5.5.3 and Figure 5.4 (the VC of a hop).
 */
SR_API sr_result sr_route_advance(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc,
                                  sr_header *h) {
    uint32_t v;
    if (!rt || !c || !h) return SR_ERR_NULL;
    if (router >= rt->net.num_routers) return SR_ERR_NODE_RANGE;
    if (c->port < 0 || c->port >= sr_net_num_ports(&rt->net, router)) return SR_ERR_PORT_RANGE;
    if (vc < c->vc_lo || vc > c->vc_hi || vc >= rt->vcs) return SR_ERR_VCS;
    if (sr_net_port_info(&rt->net, router, c->port).kind == SR_PORT_TERMINAL) return SR_OK;
    v = sr_net_neighbor(&rt->net, router, c->port, NULL);
    if (v == SR_NO_NODE) return SR_ERR_NO_LINK;
    if (rt->desc.algorithm != SR_ALG_CUSTOM) {
        sr_result r = sr__header_check(rt, h);
        if (r != SR_OK) return r;
    }
    return sr__hop(rt, router, c, vc, h, v);
}

/**
 * sr_route_advance for a simulator's inner loop: the same update, with the
 * argument checks of sr_route_advance as preconditions (SR_ASSERT) instead
 * of result codes.
 *
 * Use it where the arguments come from the library itself: the candidate
 * sr_route_candidates (or its trusted variant) gave for this router and
 * header, a VC of its range, for a hop to another router: the caller,
 * which knows its ports, does not call it for an ejection (which
 * sr_route_advance leaves as it is).
 *
 * :param rt: the routing.
 * :param router: the router the hop leaves, < rt->net.num_routers
 *     (SR_ASSERT).
 * :param c: the candidate taken: a port of the router with a channel to
 *     another router, not a terminal port (SR_ASSERT).
 * :param vc: the VC taken, in c->vc_lo .. c->vc_hi and < rt->vcs
 *     (SR_ASSERT).
 * :param h: in/out, the header, a state the routing produces (SR_ASSERT).
 * :returns: SR_OK, or what a custom routing's advance returns (the header
 *     is then unchanged).
 * :paper: seed 004 Sections 5.3.1-5.3.3, 5.5.3 and Figure 5.4.
 */
SR_API sr_result sr_route_advance_trusted(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc,
                                          sr_header *h) {
    SR_ASSERT(rt && c && h);
    SR_ASSERT(router < rt->net.num_routers);
    SR_ASSERT(c->port >= 0 && c->port < sr_net_num_ports(&rt->net, router));
    SR_ASSERT(vc >= c->vc_lo && vc <= c->vc_hi && vc < rt->vcs);
    SR_ASSERT(rt->desc.algorithm == SR_ALG_CUSTOM || sr__header_check(rt, h) == SR_OK);
    SR_ASSERT(sr_net_port_info(&rt->net, router, c->port).kind != SR_PORT_TERMINAL);
    SR_ASSERT(sr_net_neighbor(&rt->net, router, c->port, NULL) != SR_NO_NODE);
    return sr__hop(rt, router, c, vc, h, SR_NO_NODE);
}

/**
 * The header of a packet at injection.
 *
 * Valiant starts in SR_PHASE_TO_INTER, or SR_PHASE_TO_DEST when the
 * intermediate is where the packet already is (its router, group, or the
 * single switch of a one-level Clos: "VAL degenerates into minimal
 * routing").  UGAL and PAR start SR_PHASE_UNDECIDED, or SR_PHASE_MINIMAL
 * when the Valiant path through the intermediate would be the minimal one
 * (the intermediate is the source's or the destination's router or
 * group).  The other algorithms start in SR_PHASE_MINIMAL.
 *
 * :param rt: the routing.
 * :param src: source terminal.
 * :param dest: destination terminal.
 * :param inter: for Valiant, UGAL and PAR an intermediate (0 ..
 *     sr_route_inter_count - 1, for example from sr_route_inter_pick);
 *     ignored by the others (pass SR_NO_NODE).
 * :param h: out, the header (untouched on error).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_NODE_RANGE (src, dest or inter out
 *     of range); for SR_ALG_CUSTOM, what its header_init returns.
 * :paper: seed 004 Section 5.3.1 ("If the random node happens to be either
 *     the source or the destination, VAL degenerates into minimal
 *     routing").
 */
SR_API sr_result sr_route_header_init(const sr_routing *rt, uint32_t src, uint32_t dest, uint32_t inter,
                                      sr_header *h) {
    sr_header x;
    uint32_t sr0, dr;
    if (!rt || !h) return SR_ERR_NULL;
    if (src >= rt->net.num_terminals || dest >= rt->net.num_terminals) return SR_ERR_NODE_RANGE;
    memset(&x, 0, sizeof x);
    x.dest = dest;
    x.inter = SR_NO_NODE;
    x.phase = SR_PHASE_MINIMAL;
    if (rt->desc.algorithm == SR_ALG_CUSTOM) {
        if (rt->custom.inters && inter != SR_NO_NODE && inter >= rt->custom.inters) return SR_ERR_NODE_RANGE;
        if (rt->custom.header_init) {
            sr_result r = rt->custom.header_init(rt, src, dest, inter, &x);
            if (r != SR_OK) return r;
        }
        *h = x;
        return SR_OK;
    }
    if (rt->inters) {
        int a = rt->desc.algorithm;
        if (inter >= rt->inters) return SR_ERR_NODE_RANGE;
        sr0 = sr_net_terminal_router(&rt->net, src, NULL);
        dr = sr__dest_router(&rt->net, dest);
        x.inter = inter;
        if (a == SR_ALG_VALIANT) {
            x.phase = SR_PHASE_TO_INTER;
            if (sr__at_inter(rt, sr0, inter)) { x.phase = SR_PHASE_TO_DEST; x.inter = SR_NO_NODE; }
        } else {
            x.phase = SR_PHASE_UNDECIDED;
            if (sr__at_inter(rt, sr0, inter) || sr__at_inter(rt, dr, inter)) {
                x.phase = SR_PHASE_MINIMAL;
                x.inter = SR_NO_NODE;
            }
        }
    }
    *h = x;
    return SR_OK;
}

/**
 * Hops from a router to the destination along the algorithm's routes: the
 * H_m and H_nm of UGAL's rule.
 *
 * ``cls`` SR_CLASS_MINIMAL: the minimal route (cube: the ring distances;
 * HyperX: the dimensions that differ; dragonfly: steps 1-3; folded Clos: up
 * to the nearest common ancestor and down; butterfly: the stages left).
 * SR_CLASS_NONMINIMAL: through the header's intermediate, the fewest hops
 * of the routing's paths through it (dragonfly: the best of the global
 * channels to the intermediate group).  The ejection is not counted.
 *
 * :param rt: the routing.
 * :param router: the router.
 * :param h: the header (its intermediate for SR_CLASS_NONMINIMAL).
 * :param cls: SR_CLASS_MINIMAL or SR_CLASS_NONMINIMAL.
 * :returns: the hops, or -1 (a router or header out of range, no
 *     intermediate, or another class).
 * :paper: seed 004 Section 5.3.2 ("minimal hop count (Hm)", "the sum of the
 *     hop count from the source to the intermediate node and the hop count
 *     from the intermediate node to the destination (Hnm)").
 */
SR_API int sr_route_hops(const sr_routing *rt, uint32_t router, const sr_header *h, int cls) {
    const sr_net *net;
    uint32_t dr, I = 0;
    if (!rt || !h || router >= rt->net.num_routers || h->dest >= rt->net.num_terminals) return -1;
    net = &rt->net;
    dr = sr__dest_router(net, h->dest);
    if (cls == SR_CLASS_NONMINIMAL) {
        if (h->inter == SR_NO_NODE || h->inter >= rt->inters || rt->desc.algorithm == SR_ALG_CUSTOM) return -1;
        I = h->inter;
    } else if (cls != SR_CLASS_MINIMAL) {
        return -1;
    }
    switch (net->kind) {
    case SR_NET_CUBE:
        return cls == SR_CLASS_MINIMAL ? sr__cube_dist(&net->cube, router, dr)
                                       : sr__cube_dist(&net->cube, router, I) + sr__cube_dist(&net->cube, I, dr);
    case SR_NET_HYPERX:
        return cls == SR_CLASS_MINIMAL ? sr__hx_dist(net, router, dr)
                                       : sr__hx_dist(net, router, I) + sr__hx_dist(net, I, dr);
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &net->desc.dragonfly;
        uint32_t a = (uint32_t)f->a, g = router / a;
        int first, c, own = 0, best = 1 << 30;
        if (cls == SR_CLASS_MINIMAL) return sr__df_dist(net, router, dr);
        if (rt->desc.flags & SR_ROUTE_INTER_ROUTER) return sr__df_dist(net, router, I) + sr__df_dist(net, I, dr);
        if (g == I) return sr__df_dist(net, router, dr);
        first = sr_df_global_first(net, g, I);
        for (c = first; c < first + net->df_links; c++) own |= (uint32_t)(c / f->h) == router % a;
        for (c = first; c < first + net->df_links; c++) {
            int hops;
            if (own && (uint32_t)(c / f->h) != router % a) continue;
            hops = !own + 1 + sr__df_dist(net, sr__df_landing(net, g, c), dr);
            if (hops < best) best = hops;
        }
        return best;
    }
    case SR_NET_CLOS: {
        int l = sr__clos_level(net, router), top = net->desc.clos.levels - 1, m = l;
        if (cls == SR_CLASS_NONMINIMAL) return 2 * top - l;
        /* the nearest common ancestor: the lowest level m >= l whose
         * switches above `router` have the destination below them */
        {
            uint32_t A = (router - net->level_first[l]) / net->up_span[l];
            uint32_t A0 = h->dest / (uint32_t)net->desc.clos.down[0];
            int j;
            for (j = 1; j <= l; j++) A0 /= (uint32_t)net->desc.clos.down[j];
            while (A != A0) {
                m++;
                A /= (uint32_t)net->desc.clos.down[m];
                A0 /= (uint32_t)net->desc.clos.down[m];
            }
        }
        return (m - l) + m;
    }
    default:
        return net->desc.butterfly.n - 1 - (int)(router / net->fly_rows);
    }
}

/**
 * UGAL's decision: route minimally when q_m * H_m <= q_nm * H_nm + bias.
 *
 * UGAL-L passes the router's own queue lengths (the output queue of the
 * minimal candidate and of the non-minimal one); UGAL-G passes the queues
 * of the global channels the two paths take (sr_route_global_channel says
 * which).  The hop counts come from sr_route_hops.  A positive bias
 * favours the minimal path (0 is the seed's rule).
 *
 * :param q_min: queue length on the minimal path (q_m).
 * :param h_min: its hops (H_m, >= 0).
 * :param q_nonmin: queue length on the non-minimal path (q_nm).
 * :param h_nonmin: its hops (H_nm, >= 0).
 * :param bias: added to the non-minimal side (0 by default).
 * :returns: 1 to route minimally, 0 to route non-minimally.
 * :paper: seed 004 Section 5.3.2: "if (qmHm <= qnmHnm) route minimally;
 *     else route nonminimally".
 */
SR_API int sr_ugal_minimal(uint32_t q_min, int h_min, uint32_t q_nonmin, int h_nonmin, int64_t bias) {
    int64_t m = (int64_t)q_min * (int64_t)(h_min < 0 ? 0 : h_min);
    int64_t nm = (int64_t)q_nonmin * (int64_t)(h_nonmin < 0 ? 0 : h_nonmin);
    return m <= nm + bias;
}

/**
 * Dragonfly (UGAL-G): the global channel a candidate's path takes next.
 *
 * A global candidate is its own channel; a local one leads to a router
 * whose channel to the candidate's target group (the destination's for a
 * minimal candidate, the intermediate's for a non-minimal one) comes next
 * (the first such channel of that router).
 *
 * :param rt: a dragonfly routing.
 * :param router: the router.
 * :param c: a candidate of this router for header h.
 * :param h: the header.
 * :returns: the channel as router * h + j (router r's global port j, the
 *     numbering of the whole network), or SR_NO_NODE when the path takes
 *     no global channel next (inside the target group, an ejection, or not
 *     a dragonfly).
 * :paper: seed 004 Section 5.4 and Figure 5.1 (the queues of the global
 *     channels, q0 and q3, are at other routers than R1).
 */
SR_API uint32_t sr_route_global_channel(const sr_routing *rt, uint32_t router, const sr_candidate *c,
                                        const sr_header *h) {
    const sr_net *net;
    const sr_dragonfly_desc *f;
    uint32_t a, x, g;
    int j, first, ch;
    if (!rt || !c || !h || rt->net.kind != SR_NET_DRAGONFLY || router >= rt->net.num_routers) return SR_NO_NODE;
    net = &rt->net;
    f = &net->desc.dragonfly;
    a = (uint32_t)f->a;
    j = c->port - f->p;
    if (j < 0 || j >= f->a - 1 + f->h) return SR_NO_NODE;
    if (j >= f->a - 1) return router * (uint32_t)f->h + (uint32_t)(j - (f->a - 1));
    x = sr_net_neighbor(net, router, c->port, NULL);
    if (c->cls == SR_CLASS_NONMINIMAL) {
        if (h->inter == SR_NO_NODE || h->inter >= rt->inters) return SR_NO_NODE;
        g = rt->desc.flags & SR_ROUTE_INTER_ROUTER ? h->inter / a : h->inter;
    } else {
        if (h->dest >= net->num_terminals) return SR_NO_NODE;
        g = sr__dest_router(net, h->dest) / a;
    }
    if (g == x / a) return SR_NO_NODE;
    first = sr_df_global_first(net, x / a, g);
    for (ch = first; ch < first + net->df_links; ch++)
        if ((uint32_t)(ch / f->h) == x % a) return (x / a * a + (uint32_t)(ch / f->h)) * (uint32_t)f->h + (uint32_t)(ch % f->h);
    return SR_NO_NODE;
}

/**
 * Dragonfly: where a global channel numbered as sr_route_global_channel
 * numbers it leaves: its router and that router's output port (so that a
 * caller reads the channel's queue without knowing the port layout).
 *
 * :param rt: a dragonfly routing.
 * :param channel: a channel, below ``num_routers * h``.
 * :param router: out (may be NULL), the router it leaves.
 * :returns: the output port, or -1 (not a dragonfly, or channel out of
 *     range; ``*router`` untouched).
 * :paper: seed 004 Section 5.4 (UGAL-G reads the queues of the global
 *     channels).
 */
SR_API int sr_route_global_port(const sr_routing *rt, uint32_t channel, uint32_t *router) {
    const sr_dragonfly_desc *f;
    if (!rt || rt->net.kind != SR_NET_DRAGONFLY) return -1;
    f = &rt->net.desc.dragonfly;
    if (channel / (uint32_t)f->h >= rt->net.num_routers) return -1;
    if (router) *router = channel / (uint32_t)f->h;
    return f->p + f->a - 1 + (int)(channel % (uint32_t)f->h);
}

/**
 * The credits of one output VC as the caller's selection sees them
 * (sr_route_select_by): the free credits of VC ``vc`` of output port
 * ``port``, 0 or less when the VC cannot be taken now (held by another
 * packet, or full).
 *
 * :param ctx: the caller's context (its router's state).
 * :param port: an output port of a candidate.
 * :param vc: a VC of that candidate's range.
 * :returns: the credits.
 */
typedef int32_t (*sr_credit_fn)(const void *ctx, int port, int vc);

/**
 * Selection among candidates by credits, read through the caller's
 * function: the (candidate, VC) with the most credits among the adaptive
 * candidates (classes minimal and non-minimal); an escape candidate only
 * when no adaptive one has a credit; ties broken by a caller-supplied
 * random number.
 *
 * It reads the credits of the candidates' VCs only, each twice at most
 * (once to find the best, once to pick among the ties), so a simulator
 * passes a function over its own router state instead of keeping an
 * array of every (port, VC) up to date.
 *
 * :param c: the candidates.
 * :param n: how many.
 * :param classes: a mask of the classes to consider, bit 1 << class (for
 *     example 1u << SR_CLASS_MINIMAL), 0 for all; UGAL passes the class of
 *     its decision.
 * :param credit: the credits of (port, VC); it must return the same value
 *     for the same arguments within one call.
 * :param ctx: its first argument.
 * :param random: a uniformly random 64-bit number (its high 32 bits are
 *     used).
 * :param vc: out (may be NULL), the VC chosen.
 * :returns: the index of the candidate chosen, or -1 when none is
 *     available (also for NULL c or credit).
 * :paper: seed 003 line 63 (JSQ: "the one with the most available
 *     downstream tokens. Ties are randomly broken. If no dynamic
 *     direction/VC combination is available, the packet will request its
 *     bubble escape"); seed 004 Section 5.5.2.1 ("the productive channel
 *     with the shortest queue").
 */
SR_API int sr_route_select_by(const sr_candidate *c, int n, unsigned classes, sr_credit_fn credit, const void *ctx,
                              uint64_t random, int *vc) {
    int round, i, v;
    if (!c || !credit) return -1;
    if (!classes) classes = ~0u;
    for (round = 0; round < 2; round++) {
        int32_t best = 0;
        uint32_t ties = 0, pick;
        int first = -1, first_vc = 0;   /* the first (candidate, VC) with the best */
        for (i = 0; i < n; i++) {
            if (!((classes >> c[i].cls) & 1) || (c[i].cls == SR_CLASS_ESCAPE) != round) continue;
            for (v = c[i].vc_lo; v <= c[i].vc_hi; v++) {
                int32_t k = credit(ctx, c[i].port, v);
                if (k <= 0 || k < best) continue;
                if (k > best) { best = k; ties = 0; first = i; first_vc = v; }
                ties++;
            }
        }
        if (!ties) continue;
        if (ties == 1) {                /* the pick below would find it */
            if (vc) *vc = first_vc;
            return first;
        }
        pick = (uint32_t)(((random >> 32) * (uint64_t)ties) >> 32);
        for (i = 0; i < n; i++) {
            if (!((classes >> c[i].cls) & 1) || (c[i].cls == SR_CLASS_ESCAPE) != round) continue;
            for (v = c[i].vc_lo; v <= c[i].vc_hi; v++)
                if (credit(ctx, c[i].port, v) == best && pick-- == 0) {
                    if (vc) *vc = v;
                    return i;
                }
        }
    }
    return -1;
}

/* sr_route_select's view of its array: credits and VCs per port. */
typedef struct sr__credit_array {
    const int32_t *credits;
    int vcs;
} sr__credit_array;

SR_API int32_t sr__credit_of_array(const void *ctx, int port, int vc) {
    const sr__credit_array *a = (const sr__credit_array *)ctx;
    return vc < a->vcs ? a->credits[(size_t)port * (size_t)a->vcs + (size_t)vc] : 0;
}

/**
 * Selection among candidates by credits from an array of every (port,
 * VC): sr_route_select_by over ``credits[port * vcs + vc]`` (VCs at or
 * above ``vcs`` count as unavailable).
 *
 * :param c: the candidates.
 * :param n: how many.
 * :param classes: a mask of the classes to consider, bit 1 << class, 0
 *     for all.
 * :param credits: free credits of every (port, VC), at port * vcs + vc
 *     (0 or less: not available).
 * :param vcs: VCs per port in ``credits``.
 * :param random: a uniformly random 64-bit number.
 * :param vc: out (may be NULL), the VC chosen.
 * :returns: the index of the candidate chosen, or -1 when none is
 *     available (also for NULL c or credits, or vcs below 1).
 * :paper: seed 003 line 63 (JSQ); seed 004 Section 5.5.2.1.
 */
SR_API int sr_route_select(const sr_candidate *c, int n, unsigned classes, const int32_t *credits, int vcs,
                           uint64_t random, int *vc) {
    sr__credit_array a;
    if (!c || !credits || vcs < 1) return -1;
    a.credits = credits;
    a.vcs = vcs;
    return sr_route_select_by(c, n, classes, sr__credit_of_array, &a, random, vc);
}

/* >>rverify ============================================================
 * Deadlock proofs for candidate-set routing
 *
 * sr_verify_routing proves or refutes, for a routing (any sr_routing,
 * SR_ALG_CUSTOM included), delivery and freedom from deadlock, by
 * exhaustive enumeration:
 *
 *   1. States.  For every destination terminal, every source terminal and
 *      every intermediate (sr_route_inter_count), the header at injection;
 *      from each, every candidate and every VC of its range, the header
 *      after the hop (sr_route_advance), and so on: every reachable state
 *      (router, header; and the input port and VC unless the routing is
 *      input-free).  The header's ``hops`` is not part of the state (no
 *      routing reads it).
 *   2. Delivery.  Every reachable state has a candidate; every candidate
 *      names a port of the router, a VC range inside the routing's VCs,
 *      and a channel (or the destination's own terminal port); no path
 *      revisits a state (the states of one destination form a DAG), so
 *      every path ends at the destination.  Otherwise: the failure and the
 *      path from the source to it.
 *   3. Deadlock.  A channel is (router, output port, VC).  Without escape
 *      candidates the routing is checked as a whole (Dally and Seitz): the
 *      channel dependency graph -- c1 -> c2 when a packet that arrived on
 *      c1 may request c2 -- must be acyclic.  A routing that offers escape
 *      candidates is checked by Duato's condition on its escape
 *      sub-function R1 (the candidates of class SR_CLASS_ESCAPE, channels
 *      C1): every reachable state that does not eject offers an escape
 *      candidate (with 2, R1 then delivers from every state), and the
 *      extended dependency graph of R1 is acyclic.  Its edges, for the
 *      switching mode given:
 *        SR_SWITCH_VCT (virtual cut-through, store-and-forward: a blocked
 *          packet holds one channel): c1 -> c2, c2 in C1, whenever a
 *          packet that may occupy c1 (however it got there: direct and
 *          direct cross dependencies) may request c2 as an escape hop;
 *        SR_SWITCH_WORMHOLE (a blocked packet holds every channel from its
 *          tail to its head): also c1 -> c2 when a packet that occupies c1
 *          (c1 in C1) may go on over channels not in C1 only and then
 *          request c2 as an escape hop (indirect and indirect cross
 *          dependencies).
 *      On failure: the cycle, each edge with a packet state that creates it
 *      (and for an indirect edge the path over adaptive channels).
 *   4. Bubble escape channels (SR_CAND_BUBBLE, on the cube).  The bubble
 *      rule of seed 003 (line 53: a packet needs room for two packets to
 *      enter a ring's bubble VC, on injection, on a turn or from a dynamic
 *      VC, and room for one to go on along it) keeps one packet's room free
 *      on every ring, so the packets on a ring can always move; it stands
 *      in for a dateline.  The verifier therefore drops the dependency
 *      between two consecutive bubble channels of the same ring (the same
 *      port, so the same dimension and direction, and the same VC: a packet
 *      going straight on); every other dependency stays.  The proof then
 *      assumes that the flow control applies the bubble rule at every entry
 *      into each such ring, that every bubble buffer holds two full-sized
 *      packets, and that a packet needs buffer room for all of itself
 *      (virtual cut-through); the rule itself is model-checked elsewhere.
 *      The rule needs room for whole packets, so under SR_SWITCH_WORMHOLE
 *      the flag is ignored.
 *
 * The wormhole check.  Listing every indirect dependency would take
 * (states x escape channels reachable) edges.  Instead: take G, the
 * dependency graph so far (first the cut-through edges), and a
 * topological order of it (rank).  For every destination, over the DAG of
 * its states, compute for each state s the least rank minR(s) of the
 * escape channels requested from s or from a state reachable from s over
 * channels not in C1 (one integer per state, in reverse topological
 * order).  A packet entering s over c1 in C1 creates the dependencies
 * c1 -> x for every such x; all of them agree with the order iff
 * rank(c1) < minR(s).  If every arc agrees, G plus all the indirect edges
 * has the same topological order: proven.  Otherwise the violating edge
 * c1 -> argmin (a real dependency, with its path) joins G, G is ordered
 * again (a cycle: refuted), and the pass repeats.  Each pass adds edges
 * that were missing, so it ends; report.passes counts them.
 *
 * Memory: the dependency graph (a bit set per channel over the head
 * router's channels) and a hash table of one destination's states at a
 * time; sr_verify_routing_scratch_size gives a size that holds every
 * built-in algorithm's states.
 * ====================================================================== */

/** Switching mode of sr_verify_routing: virtual cut-through or
 *  store-and-forward (a blocked packet holds one channel). */
#define SR_SWITCH_VCT 0
/** Switching mode of sr_verify_routing: wormhole (a blocked packet holds
 *  a chain of channels). */
#define SR_SWITCH_WORMHOLE 1

/** Longest path (hops) the routing verifier follows; a longer one is a
 *  failure (SR_RFAIL_TOO_LONG). */
#define SR_RV_MAX_DEPTH 1024

/** What went wrong, in a routing verification report. */
typedef enum sr_rfailure {
    SR_RFAIL_NONE = 0,      /**< nothing: proven */
    SR_RFAIL_ROUTE_ERROR,   /**< the routing function, sr_route_advance or
                                 sr_route_header_init returned an error
                                 (report.error) */
    SR_RFAIL_NO_CANDIDATE,  /**< a reachable state has no candidate */
    SR_RFAIL_BAD_PORT,      /**< a candidate names a port the router does not
                                 have */
    SR_RFAIL_NO_LINK,       /**< a candidate names a port without a channel */
    SR_RFAIL_BAD_VC,        /**< a candidate's VC range is empty or beyond the
                                 routing's VCs, or its class is unknown */
    SR_RFAIL_WRONG_EJECT,   /**< a candidate ejects at a terminal port that is
                                 not the destination's */
    SR_RFAIL_LOOP,          /**< a path revisits a state (livelock) */
    SR_RFAIL_TOO_LONG,      /**< a path is longer than SR_RV_MAX_DEPTH hops */
    SR_RFAIL_HEADER_DEST,   /**< sr_route_advance changed the destination */
    SR_RFAIL_NO_ESCAPE,     /**< a reachable state that does not eject offers
                                 no escape candidate (R1 is not connected) */
    SR_RFAIL_DEADLOCK,      /**< the (extended) channel dependency graph has a
                                 cycle */
    SR_RFAIL_COUNT          /**< number of failure kinds (not one) */
} sr_rfailure;

/**
 * Name of a routing verification failure.
 *
 * :param f: an sr_rfailure.
 * :returns: a static string such as "deadlock cycle"; "unknown failure"
 *     for other values.
 */
SR_API const char *sr_rfailure_string(int f) {
    switch (f) {
    case SR_RFAIL_NONE: return "none";
    case SR_RFAIL_ROUTE_ERROR: return "routing function error";
    case SR_RFAIL_NO_CANDIDATE: return "dead end (no candidate)";
    case SR_RFAIL_BAD_PORT: return "candidate port out of range";
    case SR_RFAIL_NO_LINK: return "candidate port without a channel";
    case SR_RFAIL_BAD_VC: return "candidate VC range or class out of range";
    case SR_RFAIL_WRONG_EJECT: return "ejected at the wrong terminal";
    case SR_RFAIL_LOOP: return "loop";
    case SR_RFAIL_TOO_LONG: return "path too long";
    case SR_RFAIL_HEADER_DEST: return "advance changed the destination";
    case SR_RFAIL_NO_ESCAPE: return "no escape candidate";
    case SR_RFAIL_DEADLOCK: return "deadlock cycle";
    default: return "unknown failure";
    }
}

/** One step of a routing witness: a packet at ``router`` that arrived on
 *  ``in_port`` / ``in_vc`` with ``header`` and leaves (or requests to
 *  leave) by ``out_port`` on ``out_vc``. */
typedef struct sr_rstep {
    uint32_t router;   /**< the router */
    int in_port;       /**< the port it arrived on */
    int in_vc;         /**< the VC it arrived on */
    int out_port;      /**< the port of the hop (requested) */
    int out_vc;        /**< the VC of the hop */
    sr_header header;  /**< the header at this router, before the hop */
} sr_rstep;

/** A channel of a dependency cycle: it leaves ``router`` by ``port`` on
 *  ``vc``. */
typedef struct sr_rchannel {
    uint32_t router;  /**< the router the channel leaves */
    int port;         /**< its output port */
    int vc;           /**< its VC */
} sr_rchannel;

/**
 * Result of sr_verify_routing: a proof (``proven`` = 1) or a refutation
 * with a witness, and counts.
 *
 * A delivery failure gives ``path``: the steps from the source (step 0 at
 * the source router, arrived on the terminal port); the last step is the
 * failing one (for SR_RFAIL_LOOP its hop leads back to step
 * ``loop_from``).  A deadlock gives ``cycle``: channel i depends on channel
 * i+1 (and the last on the first); ``why[i]`` is a packet that holds
 * channel i (it arrived on it: router = the channel's head, in_port /
 * in_vc) with its header, requesting channel i+1 (out_port / out_vc) --
 * directly when ``why_indirect[i]`` is 0, else after the adaptive hops
 * ``detour[detour_first[i]]`` .. (``detour_len[i]`` steps; the last step
 * requests channel i+1).
 */
typedef struct sr_routing_report {
    int proven;             /**< 1: delivery and deadlock freedom proven */
    int failure;            /**< an sr_rfailure (SR_RFAIL_NONE if proven) */
    int mode;               /**< SR_SWITCH_VCT or SR_SWITCH_WORMHOLE */
    int escape;             /**< 1: checked by Duato's condition (the routing
                                 offers escape candidates), 0: as a whole */
    sr_result error;        /**< SR_RFAIL_ROUTE_ERROR: the code returned */
    uint32_t src;           /**< delivery failure: source terminal */
    uint32_t dst;           /**< delivery failure: destination terminal */
    sr_header initial;      /**< delivery failure: the header at injection */
    int path_len;           /**< steps in ``path`` */
    int path_truncated;     /**< 1 if only the first SR_MAX_WITNESS are kept */
    int loop_from;          /**< SR_RFAIL_LOOP: the step the last hop returns to */
    sr_rstep path[SR_MAX_WITNESS];        /**< the delivery witness */
    int cycle_len;          /**< channels in ``cycle`` */
    int cycle_truncated;    /**< 1 if only the first SR_MAX_WITNESS are kept */
    sr_rchannel cycle[SR_MAX_WITNESS];    /**< the dependency cycle */
    sr_rstep why[SR_MAX_WITNESS];         /**< a packet behind each edge */
    uint8_t why_indirect[SR_MAX_WITNESS]; /**< 1: the edge is indirect */
    uint8_t why_found[SR_MAX_WITNESS];    /**< 1: why[i] is filled */
    int detour_first[SR_MAX_WITNESS];     /**< indirect edge: first step */
    int detour_len[SR_MAX_WITNESS];       /**< indirect edge: steps */
    int detour_used;                      /**< steps of ``detour`` in use */
    sr_rstep detour[SR_MAX_WITNESS];      /**< the adaptive paths */
    uint64_t pairs;         /**< (source, destination) terminal pairs */
    uint64_t headers;       /**< headers at injection enumerated */
    uint64_t states;        /**< states explored (all destinations) */
    uint64_t arcs;          /**< (state, candidate, VC) hops explored */
    uint32_t max_states;    /**< most states of one destination */
    uint64_t channels;      /**< channels some packet may occupy */
    uint64_t escape_channels; /**< channels offered as escape (C1) */
    uint64_t dependencies;  /**< edges of the dependency graph (direct) */
    uint64_t indirect;      /**< indirect edges added (wormhole) */
    int passes;             /**< wormhole passes over the states */
} sr_routing_report;

/* Words of a state key: router, input (port + 1, VC << 16; 0 when
 * input-free), inter, phase | globals | hint | vclass, spare. */
#define SR__RV_KEY 5

/* The verifier's memory, laid out in the caller's scratch. */
typedef struct sr__rv_layout {
    size_t dep, c1, used, ccol, rank, aux, cstk, ihead, iedge, frames, pool, stamp, keys, col, minr, minc,
        esc, bub, total;
    uint32_t slots;     /* state slots (power of two) */
    uint32_t W;         /* 64-bit words per channel set of a router */
    uint64_t C;         /* channels */
    uint32_t iedges;    /* capacity of the indirect edge list */
} sr__rv_layout;

/* One frame of the verifier's depth-first search over states. */
typedef struct sr__rv_frame {
    sr_header h;        /* header (hops included, for the witness) */
    uint32_t slot;      /* the state's slot */
    uint32_t router;
    int in_port, in_vc;
    int n, ci, v;       /* candidates, the current one, its current VC */
    uint32_t arc;       /* channel from the parent (SR_NO_NODE at a root) */
    uint32_t minr, minc;
} sr__rv_frame;

/* The most states of one destination at one router, times the routers:
 * the headers a built-in algorithm can give a packet there (hops aside).
 * Per intermediate: Valiant's phase to it; UGAL's and PAR's undecided
 * phase too; the dragonfly's global channels crossed (0-2) and, under
 * SR_DF_VC_LOCAL, its local-hop counter (at most 6 values); the cube's
 * dateline bits (one per torus dimension). */
SR_API uint32_t sr__rv_states_bound(const sr_routing *rt) {
    const sr_net *net = &rt->net;
    uint64_t per = 1, R = net->num_routers, b, inter = rt->inters;
    int a = rt->desc.algorithm, d;
    if (a == SR_ALG_UGAL || a == SR_ALG_PAR) inter *= 2;
    inter = inter ? inter + 2 : 1;   /* and the phases without one */
    if (a == SR_ALG_CUSTOM) {
        per = rt->custom.states_per_router ? rt->custom.states_per_router : 64;
    } else if (net->kind == SR_NET_CUBE) {
        if (rt->dl == 2)
            for (d = 0; d < net->cube.num_dims; d++) per *= net->cube.mesh[d] ? 1 : 2;
        per *= inter;
    } else if (net->kind == SR_NET_DRAGONFLY) {
        per = 3 * inter;
        if (rt->desc.df_vc == SR_DF_VC_LOCAL) per *= 6;
    } else {
        per = inter;
    }
    b = R * per;
    return b > 0x40000000u ? 0x40000000u : (uint32_t)b;
}

SR_API sr__rv_layout sr__rv_offsets(const sr_routing *rt, int mode, uint32_t slots) {
    sr__rv_layout o;
    const sr_net *net = &rt->net;
    uint64_t C = (uint64_t)net->num_routers * (uint64_t)net->radix * (uint64_t)rt->vcs;
    size_t W = ((size_t)net->radix * (size_t)rt->vcs + 63) / 64, D = SR_RV_MAX_DEPTH;
    o.C = C;
    o.W = (uint32_t)W;
    o.slots = slots;
    /* the wormhole check's indirect edges: room for two per channel */
    o.iedges = mode != SR_SWITCH_WORMHOLE || !rt->escape ? 0 : (uint32_t)(C < 2048 ? 4096 : C > 0x8000000u ? 0x10000000u : 2 * C);
    o.dep = 0;
    o.c1 = o.dep + (size_t)C * W * 8;
    o.used = o.c1 + (size_t)(C + 63) / 64 * 8;
    o.ccol = o.used + (size_t)(C + 63) / 64 * 8;
    o.rank = sr__align8(o.ccol + (size_t)C);
    o.aux = o.rank + (size_t)C * 4;
    o.cstk = o.aux + (size_t)C * 4;
    o.ihead = o.cstk + (size_t)C * 12;
    o.iedge = sr__align8(o.ihead + (size_t)C * 4);
    o.frames = sr__align8(o.iedge + (size_t)o.iedges * 12);
    o.pool = sr__align8(o.frames + D * sizeof(sr__rv_frame));
    o.esc = sr__align8(o.pool + D * (size_t)rt->max_candidates * sizeof(sr_candidate));
    o.bub = o.esc + (size_t)slots * W * 8;
    o.stamp = o.bub + (size_t)slots * W * 8;
    o.keys = o.stamp + (size_t)slots * 4;
    o.minr = o.keys + (size_t)slots * 4 * SR__RV_KEY;
    o.minc = o.minr + (size_t)slots * 4;
    o.col = o.minc + (size_t)slots * 4;
    o.total = o.col + (size_t)slots;
    return o;
}

/* The state slots for a bound: a power of two, at most 3/4 full. */
SR_API uint32_t sr__rv_slots_for(uint32_t bound) {
    uint64_t s = 64;
    while (s * 3 < (uint64_t)bound * 4 && s < 0x80000000u) s *= 2;
    return (uint32_t)s;
}

/**
 * Bytes of scratch memory sr_verify_routing needs for a routing.
 *
 * The dependency graph (a bit set per channel, (router, port, VC), over
 * its head router's channels) and per-channel arrays, a list for the
 * indirect edges, and a hash table that holds every state of one
 * destination of a built-in algorithm (for SR_ALG_CUSTOM, as many as
 * custom.states_per_router says).  A smaller scratch also works while one
 * destination's states fit (else SR_ERR_BUFFER_SIZE).  The 1,056-terminal
 * dragonfly with UGAL and 3 VCs needs 6.9 MB, the 16x16x16 torus with
 * minimal adaptive routing and 3 VCs 6.2 MB (8.3 MB for wormhole).
 *
 * :param rt: the routing.
 * :param mode: SR_SWITCH_VCT or SR_SWITCH_WORMHOLE (which adds a list of
 *     two indirect edges per channel for a routing with escapes).
 * :returns: the size in bytes.
 */
SR_API size_t sr_verify_routing_scratch_size(const sr_routing *rt, int mode) {
    return sr__rv_offsets(rt, mode, sr__rv_slots_for(sr__rv_states_bound(rt))).total;
}

/* The verifier's context. */
typedef struct sr__rv {
    const sr_routing *rt;
    const sr_net *net;
    sr_routing_report *rep;
    sr__rv_layout o;
    uint8_t *base;
    uint64_t *dep, *c1, *used, *esc, *bub;
    uint8_t *ccol, *col;
    uint32_t *rank, *aux, *cstk, *ihead, *iedge, *stamp, *keys, *minr, *minc;
    sr__rv_frame *fr;
    sr_candidate *pool;
    uint32_t P, V, W, mask, gen, nused, nie;
    uint32_t dest;
    int pass;           /* 0: cut-through edges; 1: wormhole ranks; 2: explain */
    int depth_hit;
} sr__rv;

SR_API uint32_t sr__rv_chan(const sr__rv *v, uint32_t router, int port, int vc) {
    return (router * v->P + (uint32_t)port) * v->V + (uint32_t)vc;
}

/* The state key of (router, input, header). */
SR_API void sr__rv_key(const sr__rv *v, uint32_t router, int in_port, int in_vc, const sr_header *h, uint32_t *k) {
    k[0] = router;
    k[1] = v->rt->input_free ? 0 : (uint32_t)(in_port + 1) | (uint32_t)in_vc << 16;
    k[2] = h->inter;
    k[3] = (uint32_t)h->phase | (uint32_t)h->globals << 8 | (uint32_t)h->hint << 16 | (uint32_t)h->vclass << 24;
    k[4] = (uint32_t)h->spare[0] | (uint32_t)h->spare[1] << 8 | (uint32_t)h->spare[2] << 16;
}

/* Find or insert a state; *fresh says which.  SR_NO_NODE when full. */
SR_API uint32_t sr__rv_slot(sr__rv *v, const uint32_t *k, int *fresh) {
    uint32_t hsh = 0x9E3779B9u, i, s;
    for (i = 0; i < SR__RV_KEY; i++) {
        hsh ^= k[i];
        hsh *= 0x85EBCA6Bu;
        hsh ^= hsh >> 15;
    }
    s = hsh & v->mask;
    for (;;) {
        uint32_t *q = v->keys + (size_t)s * SR__RV_KEY;
        if (v->stamp[s] != v->gen) break;
        if (q[0] == k[0] && q[1] == k[1] && q[2] == k[2] && q[3] == k[3] && q[4] == k[4]) { *fresh = 0; return s; }
        s = (s + 1) & v->mask;
    }
    if ((uint64_t)(v->nused + 1) * 4 > (uint64_t)(v->mask + 1) * 3) return SR_NO_NODE;
    v->stamp[s] = v->gen;
    memcpy(v->keys + (size_t)s * SR__RV_KEY, k, SR__RV_KEY * 4);
    v->col[s] = 0;
    v->nused++;
    *fresh = 1;
    return s;
}

/* Bit set of one router's channels: set (port, vc). */
SR_API void sr__rv_setbit(uint64_t *w, uint32_t V, int port, int vc) {
    uint32_t b = (uint32_t)port * V + (uint32_t)vc;
    w[b >> 6] |= 1ull << (b & 63);
}

/* Record a delivery failure with the search stack as the path. */
SR_API void sr__rv_fail_path(sr__rv *v, int top, int failure, int out_port, int out_vc, uint32_t src,
                             const sr_header *initial) {
    sr_routing_report *rep = v->rep;
    int i, n = top + 1;
    rep->failure = failure;
    rep->src = src;
    rep->dst = v->dest;
    rep->initial = *initial;
    rep->path_len = n > SR_MAX_WITNESS ? SR_MAX_WITNESS : n;
    rep->path_truncated = n > SR_MAX_WITNESS;
    for (i = 0; i < rep->path_len; i++) {
        const sr__rv_frame *f = &v->fr[i];
        sr_rstep *s = &rep->path[i];
        s->router = f->router;
        s->in_port = f->in_port;
        s->in_vc = f->in_vc;
        s->header = f->h;
        if (i < top) {
            s->out_port = v->pool[(size_t)i * (size_t)v->rt->max_candidates + (size_t)f->ci].port;
            s->out_vc = f->v;
        } else {
            s->out_port = out_port;
            s->out_vc = out_vc;
        }
    }
}

/* Index of the lowest set bit of a nonzero word. */
SR_API uint32_t sr__ctz64(uint64_t m) {
    uint32_t b = 0;
    if (!(m & 0xFFFFFFFFu)) { m >>= 32; b = 32; }
    while (!(m & 1)) { m >>= 1; b++; }
    return b;
}

/* The least rank among the channels of a bit set at router r. */
SR_API void sr__rv_minrank(const sr__rv *v, uint32_t r, const uint64_t *w, uint32_t *minr, uint32_t *minc) {
    uint32_t i;
    for (i = 0; i < v->W; i++) {
        uint64_t m = w[i];
        while (m) {
            uint32_t b = i * 64 + sr__ctz64(m), c;
            m &= m - 1;
            c = (r * v->P + b / v->V) * v->V + b % v->V;
            if (v->rank[c] < *minr) { *minr = v->rank[c]; *minc = c; }
        }
    }
}

/* Expand a state: its candidates into the pool, checked; its escape
 * channel set (all candidates' channels when the routing has no escape)
 * and bubble set into the slot.  Returns an sr_rfailure (0: fine) with
 * *bad_port / *bad_vc naming the failing candidate. */
SR_API int sr__rv_expand(sr__rv *v, int top, int *bad_port, int *bad_vc) {
    sr__rv_frame *f = &v->fr[top];
    const sr_routing *rt = v->rt;
    sr_candidate *c = v->pool + (size_t)top * (size_t)rt->max_candidates;
    uint64_t *esc = v->esc + (size_t)f->slot * v->W, *bub = v->bub + (size_t)f->slot * v->W;
    int n = 0, i, np = sr_net_num_ports(v->net, f->router), ejects = 0, eport;
    uint32_t er = sr_net_eject_router(v->net, v->dest, &eport);
    sr_result r = sr_route_candidates(rt, f->router, f->in_port, f->in_vc, &f->h, c, rt->max_candidates, &n);
    *bad_port = -1; *bad_vc = -1;
    if (r != SR_OK) { v->rep->error = r; return SR_RFAIL_ROUTE_ERROR; }
    if (n == 0) return SR_RFAIL_NO_CANDIDATE;
    f->n = n; f->ci = 0; f->v = c[0].vc_lo;
    f->minr = 0xFFFFFFFFu; f->minc = SR_NO_NODE;
    memset(esc, 0, v->W * 8);
    memset(bub, 0, v->W * 8);
    for (i = 0; i < n; i++) {
        int p = c[i].port, vc;
        *bad_port = p; *bad_vc = c[i].vc_lo;
        if (p < 0 || p >= np) return SR_RFAIL_BAD_PORT;
        if (c[i].vc_lo > c[i].vc_hi || c[i].vc_hi >= rt->vcs || c[i].cls > SR_CLASS_ESCAPE) return SR_RFAIL_BAD_VC;
        if (sr_net_port_info(v->net, f->router, p).kind == SR_PORT_TERMINAL) {
            if (f->router != er || p != eport) return SR_RFAIL_WRONG_EJECT;
            ejects = 1;
            continue;
        }
        if (sr_net_neighbor(v->net, f->router, p, NULL) == SR_NO_NODE) return SR_RFAIL_NO_LINK;
        if (rt->escape && c[i].cls != SR_CLASS_ESCAPE) continue;
        for (vc = c[i].vc_lo; vc <= c[i].vc_hi; vc++) {
            sr__rv_setbit(esc, v->V, p, vc);
            if (c[i].flags & SR_CAND_BUBBLE) sr__rv_setbit(bub, v->V, p, vc);
            if (v->pass == 0) {
                uint32_t ch = sr__rv_chan(v, f->router, p, vc);
                v->c1[ch >> 6] |= 1ull << (ch & 63);
            }
        }
    }
    *bad_port = -1;
    if (rt->escape && !ejects) {
        uint32_t w, any = 0;
        for (w = 0; w < v->W; w++) any |= esc[w] != 0;
        if (!any) return SR_RFAIL_NO_ESCAPE;
    }
    if (v->pass == 1) sr__rv_minrank(v, f->router, esc, &f->minr, &f->minc);
    return 0;
}

/* Add an indirect edge c1 -> c2 (no duplicates).  0 when the list is full. */
SR_API int sr__rv_add_indirect(sr__rv *v, uint32_t c1, uint32_t c2) {
    uint32_t e;
    for (e = v->ihead[c1]; e != SR_NO_NODE; e = v->iedge[(size_t)e * 3 + 1])
        if (v->iedge[(size_t)e * 3] == c2) return 1;
    if (v->nie >= v->o.iedges) return 0;
    e = v->nie++;
    v->iedge[(size_t)e * 3] = c2;
    v->iedge[(size_t)e * 3 + 1] = v->ihead[c1];
    v->iedge[(size_t)e * 3 + 2] = v->dest;
    v->ihead[c1] = e;
    v->rep->indirect++;
    return 1;
}

/* The dependencies of an arc over channel c (its candidate bubble or
 * not, port `port`, VC vc) into the state in `slot`: pass 0 adds
 * c -> esc(slot); pass 1 checks the arc against the ranks (c in C1) or
 * passes the state's minimum up (c not in C1).  Returns 0, or -1 when the
 * indirect list is full. */
SR_API int sr__rv_arc(sr__rv *v, sr__rv_frame *parent, uint32_t c, int bubble, int port, int vc, uint32_t slot,
                      uint32_t minr, uint32_t minc) {
    uint32_t w;
    v->used[c >> 6] |= 1ull << (c & 63);
    if (v->pass == 0) {
        const uint64_t *esc = v->esc + (size_t)slot * v->W;
        uint64_t *d = v->dep + (size_t)c * v->W;
        for (w = 0; w < v->W; w++) d[w] |= esc[w];
        if (bubble && v->net->kind == SR_NET_CUBE && v->rep->mode == SR_SWITCH_VCT) {
            /* the bubble rule stands in for the ring's dateline: a packet
             * going straight on along the same bubble VC adds no
             * dependency (unless the same channel is also requested
             * otherwise: an escape candidate without the flag) */
            const uint64_t *bub = v->bub + (size_t)slot * v->W;
            uint32_t b = (uint32_t)port * v->V + (uint32_t)vc;
            if ((bub[b >> 6] >> (b & 63)) & 1) d[b >> 6] &= ~(1ull << (b & 63));
        }
    } else if (v->pass == 1) {
        if (v->rt->escape && ((v->c1[c >> 6] >> (c & 63)) & 1)) {
            if (minr != 0xFFFFFFFFu && minr <= v->rank[c] && !sr__rv_add_indirect(v, c, minc)) return -1;
        } else if (minr < parent->minr) {
            parent->minr = minr;
            parent->minc = minc;
        }
    }
    return 0;
}

/* Explore every state of destination v->dest.  Returns 0 (done), 1 (a
 * failure, reported), 2 (state table full), 3 (indirect list full). */
SR_API int sr__rv_dest(sr__rv *v) {
    const sr_routing *rt = v->rt;
    const sr_net *net = v->net;
    uint32_t src, T = net->num_terminals, ninter = rt->inters ? rt->inters : 1, it;
    int M = rt->max_candidates;
    v->gen++;
    if (v->gen == 0) { memset(v->stamp, 0, (size_t)v->o.slots * 4); v->gen = 1; }
    v->nused = 0;
    for (src = 0; src < T; src++) {
        int sport;
        uint32_t sr0;
        if (src == v->dest) continue;
        sr0 = sr_net_terminal_router(net, src, &sport);
        if (v->pass == 0) v->rep->pairs++;
        for (it = 0; it < ninter; it++) {
            sr_header h0;
            uint32_t k[SR__RV_KEY], slot;
            int fresh, top, bp, bv, fail;
            sr_result r = sr_route_header_init(rt, src, v->dest, rt->inters ? it : SR_NO_NODE, &h0);
            if (v->pass == 0) v->rep->headers++;
            if (r != SR_OK) {
                v->rep->error = r;
                v->rep->failure = SR_RFAIL_ROUTE_ERROR;
                v->rep->src = src;
                v->rep->dst = v->dest;
                return 1;
            }
            if (h0.dest != v->dest) {
                v->rep->failure = SR_RFAIL_HEADER_DEST;
                v->rep->src = src;
                v->rep->dst = v->dest;
                v->rep->initial = h0;
                return 1;
            }
            sr__rv_key(v, sr0, sport, 0, &h0, k);
            slot = sr__rv_slot(v, k, &fresh);
            if (slot == SR_NO_NODE) { if (v->nused > v->rep->max_states) v->rep->max_states = v->nused; return 2; }
            if (!fresh) continue;
            top = 0;
            v->fr[0].h = h0; v->fr[0].slot = slot; v->fr[0].router = sr0;
            v->fr[0].in_port = sport; v->fr[0].in_vc = 0; v->fr[0].arc = SR_NO_NODE;
            v->col[slot] = 1;
            if (v->pass == 0) v->rep->states++;
            fail = sr__rv_expand(v, 0, &bp, &bv);
            if (fail) { sr__rv_fail_path(v, 0, fail, bp, bv, src, &h0); return 1; }
            while (top >= 0) {
                sr__rv_frame *f = &v->fr[top];
                const sr_candidate *c;
                sr_header h2;
                uint32_t nb, ch, k2[SR__RV_KEY], s2;
                int ip, vc, fr2;
                if (f->ci >= f->n) {
                    /* the state is finished */
                    v->col[f->slot] = 2;
                    if (v->pass == 1) { v->minr[f->slot] = f->minr; v->minc[f->slot] = f->minc; }
                    if (top > 0) {
                        sr__rv_frame *p = &v->fr[top - 1];
                        const sr_candidate *pc = v->pool + (size_t)(top - 1) * (size_t)M + (size_t)p->ci;
                        if (v->pass == 1 &&
                            sr__rv_arc(v, p, f->arc, pc->flags & SR_CAND_BUBBLE, pc->port, p->v, f->slot, f->minr,
                                       f->minc) < 0)
                            return 3;
                        /* the parent's next VC or candidate */
                        if (p->v < pc->vc_hi) p->v++;
                        else if (++p->ci < p->n) p->v = v->pool[(size_t)(top - 1) * (size_t)M + (size_t)p->ci].vc_lo;
                    }
                    top--;
                    continue;
                }
                c = v->pool + (size_t)top * (size_t)M + (size_t)f->ci;
                vc = f->v;
                if (sr_net_port_info(net, f->router, c->port).kind == SR_PORT_TERMINAL) {
                    f->ci++;
                    if (f->ci < f->n) f->v = c[1].vc_lo;
                    continue;
                }
                nb = sr_net_neighbor(net, f->router, c->port, &ip);
                h2 = f->h;
                {
                    sr_result r2 = sr_route_advance(rt, f->router, c, vc, &h2);
                    if (r2 != SR_OK) {
                        v->rep->error = r2;
                        sr__rv_fail_path(v, top, SR_RFAIL_ROUTE_ERROR, c->port, vc, src, &h0);
                        return 1;
                    }
                }
                if (h2.dest != v->dest) { sr__rv_fail_path(v, top, SR_RFAIL_HEADER_DEST, c->port, vc, src, &h0); return 1; }
                if (v->pass == 0) v->rep->arcs++;
                ch = sr__rv_chan(v, f->router, c->port, vc);
                sr__rv_key(v, nb, ip, vc, &h2, k2);
                s2 = sr__rv_slot(v, k2, &fr2);
                if (s2 == SR_NO_NODE) { if (v->nused > v->rep->max_states) v->rep->max_states = v->nused; return 2; }
                if (fr2) {
                    sr__rv_frame *g;
                    if (top + 1 >= SR_RV_MAX_DEPTH) {
                        sr__rv_fail_path(v, top, SR_RFAIL_TOO_LONG, c->port, vc, src, &h0);
                        return 1;
                    }
                    g = &v->fr[top + 1];
                    g->h = h2; g->slot = s2; g->router = nb; g->in_port = ip; g->in_vc = vc; g->arc = ch;
                    v->col[s2] = 1;
                    if (v->pass == 0) v->rep->states++;
                    top++;
                    fail = sr__rv_expand(v, top, &bp, &bv);
                    if (fail) { sr__rv_fail_path(v, top, fail, bp, bv, src, &h0); return 1; }
                    if (v->pass == 0) sr__rv_arc(v, f, ch, c->flags & SR_CAND_BUBBLE, c->port, vc, s2, 0, 0);
                    continue;   /* the child first; it moves this frame on when it finishes */
                }
                if (v->col[s2] == 1) {
                    int j;
                    for (j = 0; j <= top && v->fr[j].slot != s2; j++) {}
                    sr__rv_fail_path(v, top, SR_RFAIL_LOOP, c->port, vc, src, &h0);
                    v->rep->loop_from = j;
                    return 1;
                }
                if (sr__rv_arc(v, f, ch, c->flags & SR_CAND_BUBBLE, c->port, vc, s2, v->minr[s2], v->minc[s2]) < 0)
                    return 3;
                if (f->v < c->vc_hi) f->v++;
                else if (++f->ci < f->n) f->v = c[1].vc_lo;
            }
        }
    }
    if (v->nused > v->rep->max_states) v->rep->max_states = v->nused;
    return 0;
}

/* The head router of a channel, and the channel of bit b of its set. */
SR_API uint32_t sr__rv_target(const sr__rv *v, uint32_t c, uint32_t b) {
    uint32_t r = c / v->V / v->P;
    int port = (int)(c / v->V % v->P);
    uint32_t head = sr_net_neighbor(v->net, r, port, NULL);
    return (head * v->P + b / v->V) * v->V + b % v->V;
}

/* Calls fn(v, z, arg) for every successor z of channel c (bit-set and
 * indirect edges). */
#define SR__RV_EACH_SUCC(v, c, z, body) do { \
    const uint64_t *sr__d = (v)->dep + (size_t)(c) * (v)->W; \
    uint32_t sr__w, sr__e; \
    for (sr__w = 0; sr__w < (v)->W; sr__w++) { \
        uint64_t sr__m = sr__d[sr__w]; \
        while (sr__m) { \
            uint32_t z = sr__rv_target((v), (c), sr__w * 64 + sr__ctz64(sr__m)); \
            sr__m &= sr__m - 1; \
            body; \
        } \
    } \
    for (sr__e = (v)->ihead[c]; sr__e != SR_NO_NODE; sr__e = (v)->iedge[(size_t)sr__e * 3 + 1]) { \
        uint32_t z = (v)->iedge[(size_t)sr__e * 3]; \
        body; \
    } \
} while (0)

/* Re-rank an acyclic dependency graph by the longest path that ends at
 * each channel (ties by the depth-first order): still a topological
 * order, and one in which the channels along a chain come in the chain's
 * order whatever ring or plane they are on, so that the wormhole check
 * meets few indirect edges that disagree with it. */
SR_API void sr__rv_depth_ranks(sr__rv *v) {
    uint64_t C = v->o.C, i;
    uint32_t *ord = v->cstk, *cnt = v->cstk + C, *depth = v->aux, maxd = 0;
    for (i = 0; i < C; i++) { ord[v->rank[i]] = (uint32_t)i; depth[i] = 0; }
    for (i = 0; i < C; i++) {
        uint32_t u = ord[i], du = depth[u] + 1;
        SR__RV_EACH_SUCC(v, u, z, if (depth[z] < du) depth[z] = du);
    }
    for (i = 0; i < C; i++) if (depth[i] > maxd) maxd = depth[i];
    memset(cnt, 0, ((size_t)maxd + 2) * 4);
    for (i = 0; i < C; i++) cnt[depth[i] + 1]++;
    for (i = 1; i <= maxd + 1; i++) cnt[i] += cnt[i - 1];
    for (i = 0; i < C; i++) {   /* in the old order within a depth */
        uint32_t u = ord[i];
        v->rank[u] = cnt[depth[u]]++;
    }
}

/* Depth-first search of the dependency graph (bit sets and indirect
 * edges): ranks in topological order (rank[c1] < rank[c2] along every
 * edge), or a cycle into the report.  Returns 1 if acyclic. */
SR_API int sr__rv_order(sr__rv *v) {
    uint64_t C = v->o.C, i;
    uint32_t post = 0, Wb = v->W * 64;
    memset(v->ccol, 0, (size_t)C);
    for (i = 0; i < C; i++) {
        uint32_t top;
        if (v->ccol[i]) continue;
        v->ccol[i] = 1;
        v->cstk[0] = (uint32_t)i; v->cstk[1] = 0; v->cstk[2] = SR_NO_NODE;
        top = 1;
        while (top > 0) {
            uint32_t *fr = v->cstk + (size_t)(top - 1) * 3, c = fr[0], z = SR_NO_NODE;
            const uint64_t *d = v->dep + (size_t)c * v->W;
            while (fr[1] < Wb) {   /* the bit-set edges */
                uint32_t b = fr[1]++;
                if ((d[b >> 6] >> (b & 63)) & 1) { z = sr__rv_target(v, c, b); break; }
                if (!(b & 63) && !d[b >> 6]) fr[1] = b + 64;   /* skip an empty word */
            }
            if (z == SR_NO_NODE) {   /* the indirect edges */
                uint32_t e = fr[1] == Wb ? v->ihead[c] : fr[2];
                fr[1] = Wb + 1;
                if (e != SR_NO_NODE) { z = v->iedge[(size_t)e * 3]; fr[2] = v->iedge[(size_t)e * 3 + 1]; }
                else fr[2] = SR_NO_NODE;
            }
            if (z == SR_NO_NODE) {
                v->ccol[c] = 2;
                v->rank[c] = (uint32_t)(C - 1 - post++);
                top--;
                continue;
            }
            if (v->ccol[z] == 1) {
                /* a cycle: the stack from z up */
                uint32_t k0 = top - 1, n, q;
                while (v->cstk[(size_t)k0 * 3] != z) k0--;
                n = top - k0;
                v->rep->cycle_len = n > SR_MAX_WITNESS ? SR_MAX_WITNESS : (int)n;
                v->rep->cycle_truncated = n > SR_MAX_WITNESS;
                for (q = 0; q < (uint32_t)v->rep->cycle_len; q++) {
                    uint32_t w = v->cstk[(size_t)(k0 + q) * 3];
                    v->rep->cycle[q].router = w / v->V / v->P;
                    v->rep->cycle[q].port = (int)(w / v->V % v->P);
                    v->rep->cycle[q].vc = (int)(w % v->V);
                }
                return 0;
            }
            if (v->ccol[z] == 0) {
                uint32_t *nf = v->cstk + (size_t)top * 3;
                v->ccol[z] = 1;
                nf[0] = z; nf[1] = 0; nf[2] = SR_NO_NODE;
                top++;
            }
        }
    }
    sr__rv_depth_ranks(v);
    return 1;
}

/* Explain the edges of the cycle in the report: for each, a state whose
 * packet holds channel i and requests channel i+1 (directly, or over
 * channels not in C1 for an indirect edge). */
SR_API void sr__rv_explain(sr__rv *v) {
    sr_routing_report *rep = v->rep;
    const sr_routing *rt = v->rt;
    const sr_net *net = v->net;
    int n = rep->cycle_len, i, left = 0, M = rt->max_candidates;
    uint32_t dest, s;
    if (rep->cycle_truncated) n = SR_MAX_WITNESS - 1;
    memset(v->aux, 0xFF, (size_t)v->o.C * 4);
    for (i = 0; i < n; i++) {
        uint32_t c = sr__rv_chan(v, rep->cycle[i].router, rep->cycle[i].port, rep->cycle[i].vc);
        uint32_t c2 = sr__rv_chan(v, rep->cycle[(i + 1) % rep->cycle_len].router,
                                  rep->cycle[(i + 1) % rep->cycle_len].port, rep->cycle[(i + 1) % rep->cycle_len].vc);
        uint32_t b = c2 - c2 / (v->P * v->V) * (v->P * v->V);
        v->aux[c] = (uint32_t)i;
        rep->why_indirect[i] = !((v->dep[(size_t)c * v->W + (b >> 6)] >> (b & 63)) & 1);
        left++;
    }
    v->pass = 2;
    for (dest = 0; dest < net->num_terminals && left > 0; dest++) {
        v->dest = dest;
        if (sr__rv_dest(v) != 0) return;
        for (s = 0; s <= v->mask && left > 0; s++) {
            const uint32_t *k = v->keys + (size_t)s * SR__RV_KEY;
            sr_header h;
            sr_candidate *cand = v->pool;
            int nc = 0, ci, vc, in_port, in_vc;
            uint32_t r;
            if (v->stamp[s] != v->gen) continue;
            r = k[0];
            memset(&h, 0, sizeof h);
            h.dest = dest; h.inter = k[2]; h.phase = (uint8_t)k[3]; h.globals = (uint8_t)(k[3] >> 8);
            h.hint = (uint8_t)(k[3] >> 16); h.vclass = (uint8_t)(k[3] >> 24);
            h.spare[0] = (uint8_t)k[4]; h.spare[1] = (uint8_t)(k[4] >> 8); h.spare[2] = (uint8_t)(k[4] >> 16);
            in_port = rt->input_free ? 0 : (int)(k[1] & 0xFFFF) - 1;
            in_vc = rt->input_free ? 0 : (int)(k[1] >> 16);
            if (sr_route_candidates(rt, r, in_port, in_vc, &h, cand, M, &nc) != SR_OK) continue;
            for (ci = 0; ci < nc && left > 0; ci++) {
                if (sr_net_port_info(net, r, cand[ci].port).kind == SR_PORT_TERMINAL) continue;
                for (vc = cand[ci].vc_lo; vc <= cand[ci].vc_hi && left > 0; vc++) {
                    uint32_t c = sr__rv_chan(v, r, cand[ci].port, vc), e = v->aux[c], nb, k2[SR__RV_KEY], t;
                    const sr_rchannel *nx;
                    sr_header h2 = h;
                    int ip, fresh, found = 0, depth = 0;
                    if (e == SR_NO_NODE || rep->why_found[e]) continue;
                    nb = sr_net_neighbor(net, r, cand[ci].port, &ip);
                    if (sr_route_advance(rt, r, &cand[ci], vc, &h2) != SR_OK) continue;
                    sr__rv_key(v, nb, ip, vc, &h2, k2);
                    t = sr__rv_slot(v, k2, &fresh);
                    if (t == SR_NO_NODE || fresh) continue;
                    nx = &rep->cycle[(e + 1) % (uint32_t)rep->cycle_len];
                    if (!rep->why_indirect[e]) {
                        uint32_t b = (uint32_t)nx->port * v->V + (uint32_t)nx->vc;
                        found = nb == nx->router && ((v->esc[(size_t)t * v->W + (b >> 6)] >> (b & 63)) & 1);
                        /* not an arc whose dependency the bubble rule drops */
                        if (found && (cand[ci].flags & SR_CAND_BUBBLE) && net->kind == SR_NET_CUBE &&
                            nx->port == cand[ci].port && nx->vc == vc &&
                            ((v->bub[(size_t)t * v->W + (b >> 6)] >> (b & 63)) & 1))
                            found = 0;
                    } else {
                        /* depth-first over arcs on channels outside C1 from
                         * t to a state requesting the next channel as an
                         * escape; the frames hold the path */
                        sr__rv_frame *f0 = &v->fr[0];
                        f0->h = h2; f0->slot = t; f0->router = nb; f0->in_port = ip; f0->in_vc = vc;
                        f0->ci = -1; f0->n = 0; f0->v = 0;
                        v->col[t] = 3;
                        while (depth >= 0 && !found) {
                            sr__rv_frame *f = &v->fr[depth];
                            sr_candidate *pc = v->pool + (size_t)(depth + 1) * (size_t)M;
                            if (f->ci < 0) {
                                uint32_t b = (uint32_t)nx->port * v->V + (uint32_t)nx->vc;
                                if (f->router == nx->router && ((v->esc[(size_t)f->slot * v->W + (b >> 6)] >> (b & 63)) & 1)) {
                                    found = 1;
                                    break;
                                }
                                if (sr_route_candidates(rt, f->router, f->in_port, f->in_vc, &f->h, pc, M, &f->n) != SR_OK)
                                    f->n = 0;
                                f->ci = 0; f->v = f->n ? pc[0].vc_lo : 0;
                            }
                            if (f->ci >= f->n || depth + 2 >= SR_RV_MAX_DEPTH) { depth--; continue; }
                            {
                                sr_candidate *q = &pc[f->ci];
                                uint32_t qc, nb2, k3[SR__RV_KEY], t2;
                                sr_header h3 = f->h;
                                int ip2, fr3, ok = sr_net_port_info(net, f->router, q->port).kind != SR_PORT_TERMINAL;
                                int qv = f->v;
                                if (f->v < q->vc_hi) f->v++;
                                else if (++f->ci < f->n) f->v = pc[f->ci].vc_lo;
                                if (!ok) continue;
                                qc = sr__rv_chan(v, f->router, q->port, qv);
                                if ((v->c1[qc >> 6] >> (qc & 63)) & 1) continue;
                                nb2 = sr_net_neighbor(net, f->router, q->port, &ip2);
                                if (sr_route_advance(rt, f->router, q, qv, &h3) != SR_OK) continue;
                                sr__rv_key(v, nb2, ip2, qv, &h3, k3);
                                t2 = sr__rv_slot(v, k3, &fr3);
                                if (t2 == SR_NO_NODE || fr3 || v->col[t2] == 3) continue;
                                v->col[t2] = 3;
                                depth++;
                                v->fr[depth].h = h3; v->fr[depth].slot = t2; v->fr[depth].router = nb2;
                                v->fr[depth].in_port = ip2; v->fr[depth].in_vc = qv; v->fr[depth].ci = -1;
                                v->fr[depth].arc = (uint32_t)q->port; v->fr[depth].minr = (uint32_t)qv;
                            }
                        }
                        for (s = 0; s <= v->mask; s++)
                            if (v->stamp[s] == v->gen && v->col[s] == 3) v->col[s] = 2;
                        if (found && rep->detour_used + depth + 1 <= SR_MAX_WITNESS) {
                            int j;
                            rep->detour_first[e] = rep->detour_used;
                            rep->detour_len[e] = depth + 1;
                            for (j = 0; j <= depth; j++) {
                                sr_rstep *st = &rep->detour[rep->detour_used++];
                                st->router = v->fr[j].router;
                                st->in_port = v->fr[j].in_port;
                                st->in_vc = v->fr[j].in_vc;
                                st->header = v->fr[j].h;
                                st->out_port = j < depth ? (int)v->fr[j + 1].arc : nx->port;
                                st->out_vc = j < depth ? (int)v->fr[j + 1].minr : nx->vc;
                            }
                        } else {
                            found = 0;
                        }
                    }
                    if (found) {
                        sr_rstep *w = &rep->why[e];
                        w->router = nb; w->in_port = ip; w->in_vc = vc; w->header = h2;
                        w->out_port = rep->why_indirect[e] ? rep->detour[rep->detour_first[e]].out_port : nx->port;
                        w->out_vc = rep->why_indirect[e] ? rep->detour[rep->detour_first[e]].out_vc : nx->vc;
                        rep->why_found[e] = 1;
                        left--;
                    }
                }
            }
        }
    }
}

/**
 * Prove or refute a routing: delivery of every pair and freedom from
 * deadlock (Dally and Seitz for a routing without escape candidates;
 * Duato's condition for one with them), for virtual cut-through or
 * wormhole switching.  See the section comment for what is checked and
 * how; docs/routing-beyond.rst for the proofs of the built-in algorithms.
 *
 * :param rt: the routing.
 * :param mode: SR_SWITCH_VCT or SR_SWITCH_WORMHOLE.
 * :param scratch: at least the bytes the routing's states need
 *     (sr_verify_routing_scratch_size gives enough), aligned for uint64_t.
 * :param scratch_size: its size.
 * :param rep: out, the report: proven, or the first failure with its
 *     witness; counts.
 * :returns: SR_OK when the check ran to a verdict (see rep->proven);
 *     SR_ERR_NULL; SR_ERR_OPTION (mode); SR_ERR_NET_SIZE (2^32 channels or
 *     more); SR_ERR_BUFFER_SIZE (the scratch is smaller than the fixed
 *     part, or one destination's states or the wormhole check's indirect
 *     edges did not fit: rep->max_states says how many states were seen).
 * :paper: seed 004 Section 5.5.3 (VCs to avoid routing deadlock); Dally
 *     and Seitz (an acyclic channel dependency graph); Duato (a connected
 *     escape sub-function with an acyclic extended dependency graph);
 *     seed 003 line 53 (the bubble rule).
 */
SR_API sr_result sr_verify_routing(const sr_routing *rt, int mode, void *scratch, size_t scratch_size,
                                   sr_routing_report *rep) {
    sr__rv v;
    uint32_t slots, dest;
    uint64_t i;
    int r;
    if (!rt || !scratch || !rep) return SR_ERR_NULL;
    if (mode != SR_SWITCH_VCT && mode != SR_SWITCH_WORMHOLE) return SR_ERR_OPTION;
    if ((uint64_t)rt->net.num_routers * (uint64_t)rt->net.radix * (uint64_t)rt->vcs >= 0xFFFFFFFFull)
        return SR_ERR_NET_SIZE;
    memset(rep, 0, sizeof *rep);
    rep->mode = mode;
    rep->escape = rt->escape;
    memset(&v, 0, sizeof v);
    v.o = sr__rv_offsets(rt, mode, 64);
    if (scratch_size < v.o.total) return SR_ERR_BUFFER_SIZE;
    slots = 64;
    while (slots < 0x80000000u && sr__rv_offsets(rt, mode, slots * 2).total <= scratch_size) slots *= 2;
    v.o = sr__rv_offsets(rt, mode, slots);
    v.rt = rt; v.net = &rt->net; v.rep = rep;
    v.base = (uint8_t *)scratch;
    v.dep = (uint64_t *)(v.base + v.o.dep);
    v.c1 = (uint64_t *)(v.base + v.o.c1);
    v.used = (uint64_t *)(v.base + v.o.used);
    v.ccol = v.base + v.o.ccol;
    v.rank = (uint32_t *)(v.base + v.o.rank);
    v.aux = (uint32_t *)(v.base + v.o.aux);
    v.cstk = (uint32_t *)(v.base + v.o.cstk);
    v.ihead = (uint32_t *)(v.base + v.o.ihead);
    v.iedge = (uint32_t *)(v.base + v.o.iedge);
    v.fr = (sr__rv_frame *)(void *)(v.base + v.o.frames);
    v.pool = (sr_candidate *)(void *)(v.base + v.o.pool);
    v.esc = (uint64_t *)(v.base + v.o.esc);
    v.bub = (uint64_t *)(v.base + v.o.bub);
    v.stamp = (uint32_t *)(v.base + v.o.stamp);
    v.keys = (uint32_t *)(v.base + v.o.keys);
    v.minr = (uint32_t *)(v.base + v.o.minr);
    v.minc = (uint32_t *)(v.base + v.o.minc);
    v.col = v.base + v.o.col;
    v.P = (uint32_t)rt->net.radix; v.V = (uint32_t)rt->vcs; v.W = v.o.W;
    v.mask = slots - 1;
    memset(v.base, 0, v.o.ccol);                       /* dep, c1, used */
    memset(v.ihead, 0xFF, (size_t)v.o.C * 4);
    memset(v.stamp, 0, (size_t)slots * 4);
    /* ---- delivery, and the direct (cut-through) dependencies ---- */
    v.pass = 0;
    for (dest = 0; dest < rt->net.num_terminals; dest++) {
        v.dest = dest;
        r = sr__rv_dest(&v);
        if (r == 1) return SR_OK;
        if (r) return SR_ERR_BUFFER_SIZE;
    }
    for (i = 0; i < v.o.C; i++) {
        uint32_t w;
        rep->channels += (v.used[i >> 6] >> (i & 63)) & 1;
        rep->escape_channels += (v.c1[i >> 6] >> (i & 63)) & 1;
        for (w = 0; w < v.W; w++) {
            uint64_t m = v.dep[i * v.W + w];
            while (m) { m &= m - 1; rep->dependencies++; }
        }
    }
    if (!rt->escape) rep->escape_channels = 0;
    /* ---- the dependency graph must be acyclic ---- */
    if (!sr__rv_order(&v)) goto refuted;
    if (mode == SR_SWITCH_WORMHOLE && rt->escape) {
        for (;;) {
            uint32_t before = v.nie;
            rep->passes++;
            v.pass = 1;
            for (dest = 0; dest < rt->net.num_terminals; dest++) {
                v.dest = dest;
                r = sr__rv_dest(&v);
                if (r) return SR_ERR_BUFFER_SIZE;   /* a failure here was found in pass 0 */
            }
            if (v.nie == before) break;
            if (!sr__rv_order(&v)) goto refuted;
        }
    }
    rep->proven = 1;
    return SR_OK;
refuted:
    rep->failure = SR_RFAIL_DEADLOCK;
    sr__rv_explain(&v);
    return SR_OK;
}

/* >>bluegene ===========================================================
 * BlueGene/L: hint-bit routing, the bubble escape channel and token flow
 * control (seed 003 Section 2, lines 47-53 and 93-95)
 *
 * A BlueGene/L router has, on each of its 2n receivers, ``num_dynamic``
 * dynamic VCs, one escape VC and one high-priority VC (the machine: two
 * dynamic VCs, 1 KB each, n = 3).  The VCs of a link are numbered
 *
 *   0 .. D-1     the dynamic VCs (D = num_dynamic; adaptive, minimal)
 *   D            the bubble escape VC (SR_BGL_ESCAPE_BUBBLE), or
 *   D, D+1       the dateline pair (SR_BGL_ESCAPE_DATELINE): the lower one
 *                before the packet crosses its dimension's dateline, the
 *                upper one from the hop that crosses it on
 *   last         the high-priority bubble VC
 *
 * What a packet carries is an sr_header: the destination, the six (here up
 * to eight: two per dimension, n <= 4) hint bits in ``hint`` (bit 2d for
 * +d, 2d+1 for -d: the paper's "100100" for x+ and y- is bits 0 and 3),
 * and in ``vclass`` whether it is high-priority or statically routed and,
 * with the dateline pair, which dateline it has crossed.  The functions:
 *
 *   sr_bgl_cutoffs_minimal, sr_bgl_hint_bits   the hint bits at injection
 *       (the two registers per dimension; see sr_bgl_cutoffs)
 *   sr_bgl_header_init, sr_bgl_header_advance  the header at injection and
 *       at every hop (the hint bits of a finished dimension cleared)
 *   sr_bgl_candidates   the candidate set of a packet at the head of a FIFO:
 *       every dynamic VC in every hinted direction, the escape VC in the
 *       escape direction (flagged SR_CAND_BUBBLE for the bubble), the
 *       high-priority VC for a high-priority packet, the reception FIFO at
 *       the destination
 *   sr_bgl_link_init, sr_bgl_may_send, sr_bgl_send, sr_bgl_tokens_return
 *       the token counters of a link and the bubble rules
 *   sr_bgl_requests     the JSQ request masks of a packet (seastar_arb.h's
 *       sa_bgl_jsq chooses among them)
 *
 * The bubble rules, both kinds (bubble_rule):
 *
 *   SR_BGL_RULE_FULL_SIZE  the paper's: every packet on a bubble VC is
 *       charged 8 tokens whatever its size (line 53, "each packet on the
 *       bubble is accounted for as if it were a full-sized (8 chunk)
 *       packet");
 *   SR_BGL_RULE_TEXTBOOK   the rule of the paper's references [10, 11]
 *       applied to variable-sized packets: charged by size.  It deadlocks;
 *       examples/bubble_check.c finds the deadlock and proves the paper's
 *       rule on every small ring it searches (docs/bluegene.rst).
 *
 * Every function here reads the topology (an sr_topology, or the ``cube``
 * of an sr_net of kind SR_NET_CUBE) and caller-owned state; none allocates
 * or keeps state.  They accept 1..SR_BGL_MAX_DIMS dimensions, each a torus
 * or a mesh.
 * ====================================================================== */

/** Bytes of a chunk, the unit of packet sizes and of tokens ("Each token
 *  represents a 32B chunk", seed 003 line 53). */
#define SR_BGL_CHUNK_BYTES 32
/** Chunks of a full-sized packet: 8 (256 bytes). */
#define SR_BGL_FULL_CHUNKS 8
/** Smallest packet, in bytes ("from 32 to 256 bytes in increments of 32
 *  byte chunks", seed 003 line 43). */
#define SR_BGL_MIN_PACKET_BYTES 32
/** Largest packet, in bytes. */
#define SR_BGL_MAX_PACKET_BYTES 256
/** Most dimensions: the hint bits of a header are one byte, two per
 *  dimension (BlueGene/L has three: six hint bits). */
#define SR_BGL_MAX_DIMS 4
/** Most dynamic VCs of a configuration. */
#define SR_BGL_MAX_DYNAMIC 8
/** Most VCs of a link: dynamic VCs, two escape VCs and the high-priority
 *  VC fit. */
#define SR_BGL_MAX_VCS 16
/** Largest VC buffer, in bytes (32768 chunks: the token counters are 16
 *  bits). */
#define SR_BGL_MAX_BUFFER_BYTES (1 << 20)
/** Most candidates sr_bgl_candidates returns: one per hinted direction
 *  (at most one per dimension) and the escape. */
#define SR_BGL_MAX_CANDIDATES (SR_BGL_MAX_DIMS + 1)

/** Escape architecture: one bubble escape VC per direction (BlueGene/L). */
#define SR_BGL_ESCAPE_BUBBLE 0
/** Escape architecture: two escape VCs per direction, the lower before
 *  the dimension's dateline and the upper after it (seed 003 line 93). */
#define SR_BGL_ESCAPE_DATELINE 1

/** Escape order: x first, then y if no x hops remain, then z (the
 *  default; seed 003 line 93, "dimension ordered"). */
#define SR_BGL_ORDER_DIMENSION 0
/** Escape order: x+, y+, z+, x-, y-, z- (seed 003 line 93, "direction
 *  ordered"). */
#define SR_BGL_ORDER_DIRECTION 1

/** Bubble rule: every packet on a bubble VC counts as full-sized (8
 *  tokens), the paper's fix (the default). */
#define SR_BGL_RULE_FULL_SIZE 0
/** Bubble rule: packets on a bubble VC are charged by size, the rule of
 *  the paper's references applied as it stands (it can deadlock). */
#define SR_BGL_RULE_TEXTBOOK 1

/** Kind of a VC: a dynamic (adaptive) VC. */
#define SR_BGL_VC_DYNAMIC 0
/** Kind of a VC: the bubble escape VC. */
#define SR_BGL_VC_BUBBLE 1
/** Kind of a VC: one of the dateline pair of escape VCs. */
#define SR_BGL_VC_DATELINE 2
/** Kind of a VC: the high-priority bubble VC. */
#define SR_BGL_VC_PRIORITY 3
/** Kind of a VC: not a VC of the configuration. */
#define SR_BGL_VC_NONE (-1)

/** How a packet moves onto a VC: it is on this bubble VC already and goes
 *  on in the same direction (one full-sized packet's tokens needed). */
#define SR_BGL_MOVE_STRAIGHT 0
/** How a packet moves onto a VC: it enters the VC, on injection, on a turn
 *  into a new direction or from another VC (two full-sized packets'
 *  tokens needed on a bubble VC). */
#define SR_BGL_MOVE_ENTER 1

/** sr_header.vclass bit: a high-priority packet (it travels on the
 *  high-priority bubble VC only). */
#define SR_BGL_CLASS_PRIORITY 0x80u
/** sr_header.vclass bit: a statically routed packet (it travels on the
 *  escape VC only, in the escape order: xyz under the default dimension
 *  order). */
#define SR_BGL_CLASS_STATIC 0x40u
/** sr_header.vclass bits 0..3: bit d set once the packet has crossed the
 *  dateline of dimension d (kept with the dateline-pair escape only). */
#define SR_BGL_CLASS_CROSSED 0x0Fu

/**
 * A BlueGene/L router configuration.  A zero-initialised one is rejected
 * (no dynamic VC): start from sr_bgl_config_default.
 *
 * :paper: seed 003 line 51 (two dynamic VCs, one bubble escape VC, one
 *     high-priority bubble VC, 1 KB each), line 53 (the bubble rules),
 *     line 93 (the dateline pair; dimension or direction order).
 */
typedef struct sr_bgl_config {
    int num_dynamic;     /**< dynamic VCs, 1..SR_BGL_MAX_DYNAMIC (BlueGene/L: 2) */
    int escape;          /**< SR_BGL_ESCAPE_BUBBLE or SR_BGL_ESCAPE_DATELINE */
    int escape_order;    /**< SR_BGL_ORDER_DIMENSION or SR_BGL_ORDER_DIRECTION */
    int bubble_rule;     /**< SR_BGL_RULE_FULL_SIZE or SR_BGL_RULE_TEXTBOOK */
    int dynamic_bytes;   /**< buffer of each dynamic VC, bytes (1024) */
    int escape_bytes;    /**< buffer of each escape VC, bytes (1024) */
    int priority_bytes;  /**< buffer of the high-priority VC, bytes (1024) */
} sr_bgl_config;

/**
 * Fill a configuration with the BlueGene/L values: two dynamic VCs, the
 * bubble escape in dimension order, the full-size bubble rule, 1 KB per VC.
 *
 * :param cfg: the configuration to fill.
 * :returns: SR_OK or SR_ERR_NULL.
 * :paper: seed 003 line 51, line 53.
 */
SR_API sr_result sr_bgl_config_default(sr_bgl_config *cfg) {
    if (!cfg) return SR_ERR_NULL;
    cfg->num_dynamic = 2;
    cfg->escape = SR_BGL_ESCAPE_BUBBLE;
    cfg->escape_order = SR_BGL_ORDER_DIMENSION;
    cfg->bubble_rule = SR_BGL_RULE_FULL_SIZE;
    cfg->dynamic_bytes = cfg->escape_bytes = cfg->priority_bytes = 1024;
    return SR_OK;
}

/* A buffer size: a multiple of 32 bytes from `least` to the maximum. */
SR_API int sr__bgl_buffer_ok(int bytes, int least) {
    return bytes >= least && bytes <= SR_BGL_MAX_BUFFER_BYTES && bytes % SR_BGL_CHUNK_BYTES == 0;
}

/**
 * Check a configuration.
 *
 * :param cfg: the configuration.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BGL_DYNAMIC_VCS (fewer than
 *     one dynamic VC); SR_ERR_BGL_OPTION; SR_ERR_BGL_BUBBLE_BUFFER (a bubble
 *     VC below two full-sized packets, 512 bytes: the rule for entering a
 *     bubble could never be met); SR_ERR_BGL_BUFFER (a buffer not a
 *     multiple of 32 bytes, below one full-sized packet -- a VC is
 *     available only with 8 tokens -- or above SR_BGL_MAX_BUFFER_BYTES).
 *     The first failing check, in that order.
 * :paper: seed 003 line 53.
 */
SR_API sr_result sr_bgl_config_check(const sr_bgl_config *cfg) {
    const int full = SR_BGL_FULL_CHUNKS * SR_BGL_CHUNK_BYTES;
    if (!cfg) return SR_ERR_NULL;
    if (cfg->num_dynamic < 1 || cfg->num_dynamic > SR_BGL_MAX_DYNAMIC) return SR_ERR_BGL_DYNAMIC_VCS;
    if ((cfg->escape != SR_BGL_ESCAPE_BUBBLE && cfg->escape != SR_BGL_ESCAPE_DATELINE) ||
        (cfg->escape_order != SR_BGL_ORDER_DIMENSION && cfg->escape_order != SR_BGL_ORDER_DIRECTION) ||
        (cfg->bubble_rule != SR_BGL_RULE_FULL_SIZE && cfg->bubble_rule != SR_BGL_RULE_TEXTBOOK))
        return SR_ERR_BGL_OPTION;
    if (cfg->priority_bytes < 2 * full || (cfg->escape == SR_BGL_ESCAPE_BUBBLE && cfg->escape_bytes < 2 * full))
        return SR_ERR_BGL_BUBBLE_BUFFER;
    if (!sr__bgl_buffer_ok(cfg->dynamic_bytes, full) || !sr__bgl_buffer_ok(cfg->escape_bytes, full) ||
        !sr__bgl_buffer_ok(cfg->priority_bytes, full))
        return SR_ERR_BGL_BUFFER;
    return SR_OK;
}

/**
 * Number of VCs of a link.
 *
 * :param cfg: a valid configuration (sr_bgl_config_check).
 * :returns: num_dynamic + 2 (bubble escape) or + 3 (dateline pair).
 */
SR_API int sr_bgl_num_vcs(const sr_bgl_config *cfg) {
    return cfg->num_dynamic + (cfg->escape == SR_BGL_ESCAPE_DATELINE ? 3 : 2);
}

/**
 * Kind of a VC.
 *
 * :param cfg: a valid configuration.
 * :param vc: any int.
 * :returns: SR_BGL_VC_DYNAMIC, SR_BGL_VC_BUBBLE, SR_BGL_VC_DATELINE,
 *     SR_BGL_VC_PRIORITY, or SR_BGL_VC_NONE outside 0..sr_bgl_num_vcs-1.
 */
SR_API int sr_bgl_vc_kind(const sr_bgl_config *cfg, int vc) {
    int nv = sr_bgl_num_vcs(cfg);
    if (vc < 0 || vc >= nv) return SR_BGL_VC_NONE;
    if (vc < cfg->num_dynamic) return SR_BGL_VC_DYNAMIC;
    if (vc == nv - 1) return SR_BGL_VC_PRIORITY;
    return cfg->escape == SR_BGL_ESCAPE_DATELINE ? SR_BGL_VC_DATELINE : SR_BGL_VC_BUBBLE;
}

/**
 * The escape VC.
 *
 * :param cfg: a valid configuration.
 * :param upper: with the dateline pair, nonzero for the upper VC (after the
 *     dateline); ignored with the bubble escape.
 * :returns: num_dynamic, or num_dynamic + 1 for the upper dateline VC.
 */
SR_API int sr_bgl_escape_vc(const sr_bgl_config *cfg, int upper) {
    return cfg->num_dynamic + (cfg->escape == SR_BGL_ESCAPE_DATELINE && upper ? 1 : 0);
}

/**
 * The high-priority VC: the last VC of a link.
 *
 * :param cfg: a valid configuration.
 * :returns: sr_bgl_num_vcs(cfg) - 1.
 */
SR_API int sr_bgl_priority_vc(const sr_bgl_config *cfg) { return sr_bgl_num_vcs(cfg) - 1; }

/**
 * Buffer of a VC in chunks (its token count when empty).
 *
 * :param cfg: a valid configuration.
 * :param vc: a VC of the configuration (asserted).
 * :returns: the VC's buffer bytes / 32.
 */
SR_API int sr_bgl_vc_chunks(const sr_bgl_config *cfg, int vc) {
    int kind = sr_bgl_vc_kind(cfg, vc);
    SR_ASSERT(kind != SR_BGL_VC_NONE);
    if (kind == SR_BGL_VC_DYNAMIC) return cfg->dynamic_bytes / SR_BGL_CHUNK_BYTES;
    if (kind == SR_BGL_VC_PRIORITY) return cfg->priority_bytes / SR_BGL_CHUNK_BYTES;
    return cfg->escape_bytes / SR_BGL_CHUNK_BYTES;
}

/**
 * Chunks of a packet.
 *
 * :param bytes: the packet size in bytes, header and trailer included.
 * :param chunks: out, bytes / 32 (untouched on error).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BGL_PACKET_SIZE (outside
 *     32..256 or not a multiple of 32).
 * :paper: seed 003 line 43.
 */
SR_API sr_result sr_bgl_packet_chunks(int bytes, int *chunks) {
    if (!chunks) return SR_ERR_NULL;
    if (bytes < SR_BGL_MIN_PACKET_BYTES || bytes > SR_BGL_MAX_PACKET_BYTES || bytes % SR_BGL_CHUNK_BYTES != 0)
        return SR_ERR_BGL_PACKET_SIZE;
    *chunks = bytes / SR_BGL_CHUNK_BYTES;
    return SR_OK;
}

/* ---- hint bits --------------------------------------------------------- */

/**
 * The "two registers per dimension" a node sets hint bits with (seed 003
 * line 47: "if done by hardware, a set of two registers per dimension is
 * used to determine the appropriate directions.  These registers can be
 * configured to provide minimal hop routing").
 *
 * The paper does not say what the registers hold.  This library reads them
 * as a plus cutoff and a minus cutoff, coordinates compared with the
 * destination's by plain comparisons (no arithmetic modulo k):
 *
 *   destination coordinate t above the node's s:   + if t <= plus,  else -
 *   destination coordinate t below the node's s:   - if t >= minus, else +
 *   t == s:                                        no hint bit
 *
 * so ``plus`` is the farthest coordinate above s that the node reaches
 * going +, and ``minus`` the farthest below s that it reaches going -; a
 * destination beyond a cutoff is reached the other way round the ring.  On
 * a ring of radix k, minimal hop routing is plus = min(s + P, k-1) and
 * minus = max(s - M, 0) with P + M = k - 1: P = M = (k-1)/2 for an odd k,
 * and for an even k the destination k/2 away, equally far both ways, goes
 * the way sr_tie says (sr_bgl_cutoffs_minimal).  On a mesh dimension,
 * plus = k-1 and minus = 0: always towards the destination.  Other values
 * route some destinations the long way round a ring, which the paper
 * allows ("software can set the hint bits appropriately").
 */
typedef struct sr_bgl_cutoffs {
    int32_t plus[SR_BGL_MAX_DIMS];   /**< the plus cutoff of each dimension,
                                          from the node's coordinate to k-1 */
    int32_t minus[SR_BGL_MAX_DIMS];  /**< the minus cutoff, from 0 to the
                                          node's coordinate */
} sr_bgl_cutoffs;

/**
 * The cutoffs of a node for minimal hop routing.
 *
 * :param t: the topology (1..SR_BGL_MAX_DIMS dimensions).
 * :param node: the node, < t->num_nodes.
 * :param c: out, the node's registers (untouched on error).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS;
 *     SR_ERR_NODE_RANGE.
 * :paper: seed 003 line 47 ("can be configured to provide minimal hop
 *     routing"); the tie-break of an even radix is the topology's sr_tie.
 */
SR_API sr_result sr_bgl_cutoffs_minimal(const sr_topology *t, uint32_t node, sr_bgl_cutoffs *c) {
    sr_bgl_cutoffs r;
    int d;
    if (!t || !c) return SR_ERR_NULL;
    if (t->num_dims < 1 || t->num_dims > SR_BGL_MAX_DIMS) return SR_ERR_DIMS;
    if (node >= t->num_nodes) return SR_ERR_NODE_RANGE;
    memset(&r, 0, sizeof r);
    for (d = 0; d < t->num_dims; d++) {
        int k = t->radix[d], s = sr_coord(t, node, d), P, M;
        if (t->mesh[d]) { r.plus[d] = k - 1; r.minus[d] = 0; continue; }
        P = (k - 1) / 2;
        if (k % 2 == 0 && !sr__tie_negative(t, s)) P = k / 2;   /* the k/2 tie goes + */
        M = k - 1 - P;
        r.plus[d] = s + P < k - 1 ? s + P : k - 1;
        r.minus[d] = s - M > 0 ? s - M : 0;
    }
    *c = r;
    return SR_OK;
}

/**
 * Check a node's cutoffs.
 *
 * :param t: the topology.
 * :param node: the node, < t->num_nodes.
 * :param c: the registers.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS;
 *     SR_ERR_NODE_RANGE; SR_ERR_BGL_CUTOFF (plus outside [s, k-1] or
 *     minus outside [0, s] for the node's coordinate s, or a mesh
 *     dimension's other than k-1 and 0: a mesh cannot go round).
 */
SR_API sr_result sr_bgl_cutoffs_check(const sr_topology *t, uint32_t node, const sr_bgl_cutoffs *c) {
    int d;
    if (!t || !c) return SR_ERR_NULL;
    if (t->num_dims < 1 || t->num_dims > SR_BGL_MAX_DIMS) return SR_ERR_DIMS;
    if (node >= t->num_nodes) return SR_ERR_NODE_RANGE;
    for (d = 0; d < t->num_dims; d++) {
        int k = t->radix[d], s = sr_coord(t, node, d);
        if (c->plus[d] < s || c->plus[d] > k - 1 || c->minus[d] < 0 || c->minus[d] > s) return SR_ERR_BGL_CUTOFF;
        if (t->mesh[d] && (c->plus[d] != k - 1 || c->minus[d] != 0)) return SR_ERR_BGL_CUTOFF;
    }
    return SR_OK;
}

/**
 * The hint bits of a packet injected at ``node`` for ``dest``, set by the
 * node's registers (see sr_bgl_cutoffs for the rule).
 *
 * :param t: the topology (1..SR_BGL_MAX_DIMS dimensions, asserted).
 * :param node: the injecting node (< t->num_nodes, asserted).
 * :param dest: the destination (< t->num_nodes, asserted).
 * :param c: the node's registers (valid: sr_bgl_cutoffs_check).
 * :returns: the hint bits: bit 2d for +d, 2d+1 for -d; none for a
 *     dimension in which node and dest agree.
 * :paper: seed 003 line 47.
 */
SR_API uint8_t sr_bgl_hint_bits(const sr_topology *t, uint32_t node, uint32_t dest, const sr_bgl_cutoffs *c) {
    unsigned hint = 0;
    int d;
    SR_ASSERT(t->num_dims <= SR_BGL_MAX_DIMS && node < t->num_nodes && dest < t->num_nodes);
    for (d = 0; d < t->num_dims; d++) {
        int s = sr_coord(t, node, d), x = sr_coord(t, dest, d), minus;
        if (x == s) continue;
        minus = x > s ? x > c->plus[d] : x >= c->minus[d];
        hint |= 1u << sr_port(d, minus);
    }
    return (uint8_t)hint;
}

/**
 * Check hint bits for a packet at ``node`` bound for ``dest`` (hint bits
 * that software set, or a header read back from a simulator).
 *
 * :param t: the topology.
 * :param node: where the packet is, < t->num_nodes.
 * :param dest: its destination, < t->num_nodes.
 * :param hint: the hint bits.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS;
 *     SR_ERR_NODE_RANGE; SR_ERR_BGL_HINT: a bit above the topology's
 *     2n directions, both bits of a dimension ("Either the x+ or x- hint
 *     bits, but not both, may be set"), a bit for a dimension without hops
 *     ("If no x hops are required, the x hint bits are set to 0"), no bit
 *     for a dimension with hops, or on a mesh the direction away from the
 *     destination.
 * :paper: seed 003 line 47.
 */
SR_API sr_result sr_bgl_hint_check(const sr_topology *t, uint32_t node, uint32_t dest, uint8_t hint) {
    int d;
    if (!t) return SR_ERR_NULL;
    if (t->num_dims < 1 || t->num_dims > SR_BGL_MAX_DIMS) return SR_ERR_DIMS;
    if (node >= t->num_nodes || dest >= t->num_nodes) return SR_ERR_NODE_RANGE;
    if (hint >> (2 * t->num_dims)) return SR_ERR_BGL_HINT;
    for (d = 0; d < t->num_dims; d++) {
        int s = sr_coord(t, node, d), x = sr_coord(t, dest, d);
        unsigned bits = (hint >> (2 * d)) & 3u;
        if (x == s ? bits != 0 : bits == 0 || bits == 3) return SR_ERR_BGL_HINT;
        if (t->mesh[d] && x != s && bits != (x > s ? 1u : 2u)) return SR_ERR_BGL_HINT;
    }
    return SR_OK;
}

/**
 * The hint bits after the packet leaves ``node`` by ``port``: the bits of
 * the port's dimension are cleared when the neighbour reached has the
 * destination's coordinate in that dimension ("hint bits are set to 0 when
 * a packet leaves a node in a direction such that it will arrive at its
 * destination in that dimension").
 *
 * :param t: the topology (asserted: at most SR_BGL_MAX_DIMS dimensions).
 * :param node: the node the packet leaves (< t->num_nodes, asserted).
 * :param port: a network port with a link (asserted).
 * :param dest: the destination (< t->num_nodes, asserted).
 * :param hint: the hint bits before the hop.
 * :returns: the hint bits after it.
 * :paper: seed 003 line 47 (each node compares with the registers that
 *     hold its neighbours' coordinates).
 */
SR_API uint8_t sr_bgl_hint_leave(const sr_topology *t, uint32_t node, int port, uint32_t dest, uint8_t hint) {
    int d = sr_port_dim(port), k, s;
    SR_ASSERT(t->num_dims <= SR_BGL_MAX_DIMS && node < t->num_nodes && dest < t->num_nodes);
    SR_ASSERT(port >= 0 && port < t->proc_port && sr_neighbor(t, node, port) != SR_NO_NODE);
    k = t->radix[d];
    s = sr_coord(t, node, d);
    s = port & 1 ? (s == 0 ? k - 1 : s - 1) : (s == k - 1 ? 0 : s + 1);   /* the neighbour's */
    if (s == sr_coord(t, dest, d)) hint = (uint8_t)(hint & ~(3u << (2 * d)));
    return hint;
}

/* Index of the lowest set bit of a nonzero byte (it runs for every
 * candidate of every head): the compiler's count of trailing zeros where
 * there is one, else three halvings of the byte. */
SR_API int sr__bgl_low_bit(unsigned x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    if (!(x & 0x0Fu)) { x >>= 4; i += 4; }
    if (!(x & 0x03u)) { x >>= 2; i += 2; }
    return (x & 1u) ? i : i + 1;
#endif
}

/**
 * The escape direction of a packet: the port its escape VC (and a static
 * or high-priority packet) takes next.
 *
 * :param order: SR_BGL_ORDER_DIMENSION: the first dimension with a hint
 *     bit, in its hinted direction ("x first, then y if no x hops remain,
 *     then z if no x or y hops remain"); SR_BGL_ORDER_DIRECTION: the first
 *     hinted direction of x+, y+, z+, x-, y-, z- (seed 003 line 93).
 * :param hint: the hint bits.
 * :returns: the port, or -1 when no hint bit is set.
 * :paper: seed 003 line 93.
 */
SR_API int sr_bgl_escape_port(int order, uint8_t hint) {
    unsigned plus = hint & 0x55u;
    if (!hint) return -1;
    if (order == SR_BGL_ORDER_DIRECTION) return sr__bgl_low_bit(plus ? plus : hint & 0xAAu);
    return sr__bgl_low_bit(hint);
}

/* ---- the header -------------------------------------------------------- */

/**
 * Fill the header of a packet injected at ``node`` for ``dest``.
 *
 * :param t: the topology (1..SR_BGL_MAX_DIMS dimensions).
 * :param c: the injecting node's registers (sr_bgl_cutoffs_minimal for
 *     minimal hop routing).
 * :param node: the injecting node.
 * :param dest: the destination.
 * :param vclass: 0 for a dynamically routed packet, SR_BGL_CLASS_STATIC
 *     for a statically (xyz) routed one, SR_BGL_CLASS_PRIORITY for a
 *     high-priority one (it travels on the high-priority VC).
 * :param h: out: dest, the hint bits, vclass, phase SR_PHASE_MINIMAL,
 *     inter SR_NO_NODE, everything else 0 (untouched on error).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS;
 *     SR_ERR_NODE_RANGE; SR_ERR_BGL_CUTOFF; SR_ERR_BGL_HEADER (vclass
 *     other than those three).
 * :paper: seed 003 line 47 ("Packets may be either dynamically or
 *     statically (xyz) routed"), line 49 (high-priority FIFOs).
 */
SR_API sr_result sr_bgl_header_init(const sr_topology *t, const sr_bgl_cutoffs *c, uint32_t node, uint32_t dest,
                                        unsigned vclass, sr_header *h) {
    sr_result e;
    if (!t || !c || !h) return SR_ERR_NULL;
    e = sr_bgl_cutoffs_check(t, node, c);
    if (e != SR_OK) return e;
    if (dest >= t->num_nodes) return SR_ERR_NODE_RANGE;
    if (vclass != 0 && vclass != SR_BGL_CLASS_STATIC && vclass != SR_BGL_CLASS_PRIORITY) return SR_ERR_BGL_HEADER;
    memset(h, 0, sizeof *h);
    h->dest = dest;
    h->inter = SR_NO_NODE;
    h->phase = SR_PHASE_MINIMAL;
    h->hint = sr_bgl_hint_bits(t, node, dest, c);
    h->vclass = (uint8_t)vclass;
    return SR_OK;
}

/**
 * Check a header for a packet at ``node``: what sr_bgl_header_init and
 * sr_bgl_header_advance can produce.
 *
 * :param t: the topology.
 * :param cfg: the configuration (it says whether dateline bits may be set).
 * :param node: where the packet is.
 * :param h: the header.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS;
 *     SR_ERR_NODE_RANGE (node or dest); the errors of
 *     sr_bgl_hint_check; SR_ERR_BGL_HEADER (phase not SR_PHASE_MINIMAL,
 *     inter not SR_NO_NODE, globals or spare not 0, vclass with bits other
 *     than SR_BGL_CLASS_PRIORITY, SR_BGL_CLASS_STATIC (not both) and -- with
 *     the dateline pair -- a crossed bit of a torus dimension).
 */
SR_API sr_result sr_bgl_header_check(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node,
                                         const sr_header *h) {
    unsigned crossed, allowed = 0;
    int d;
    sr_result e;
    if (!t || !cfg || !h) return SR_ERR_NULL;
    e = sr_bgl_hint_check(t, node, h->dest, h->hint);
    if (e != SR_OK) return e;
    if (cfg->escape == SR_BGL_ESCAPE_DATELINE)
        for (d = 0; d < t->num_dims; d++)
            if (!t->mesh[d]) allowed |= 1u << d;
    crossed = h->vclass & SR_BGL_CLASS_CROSSED;
    if (h->phase != SR_PHASE_MINIMAL || h->inter != SR_NO_NODE || h->globals || h->spare[0] || h->spare[1] ||
        h->spare[2] || (h->vclass & 0x30u) || (crossed & ~allowed) ||
        (h->vclass & (SR_BGL_CLASS_PRIORITY | SR_BGL_CLASS_STATIC)) == (SR_BGL_CLASS_PRIORITY | SR_BGL_CLASS_STATIC))
        return SR_ERR_BGL_HEADER;
    return SR_OK;
}

/**
 * Update a header for the hop from ``node`` through ``port``: the hint
 * bits (sr_bgl_hint_leave), the crossed-dateline bit of the port's
 * dimension (dateline pair only) and the hop count (saturating at 255).
 *
 * :param t: the topology.
 * :param cfg: the configuration.
 * :param node: the node the packet leaves (< t->num_nodes, asserted).
 * :param port: a network port with a link (asserted).
 * :param h: the header, updated.
 * :paper: seed 003 line 47, line 93.
 */
SR_API void sr_bgl_header_advance(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, int port,
                                  sr_header *h) {
    int d = sr_port_dim(port);
    if (cfg->escape == SR_BGL_ESCAPE_DATELINE && sr_crosses_dateline(t, port, sr_coord(t, node, d)))
        h->vclass = (uint8_t)(h->vclass | (1u << d));
    h->hint = sr_bgl_hint_leave(t, node, port, h->dest, h->hint);
    if (h->hops < 255) h->hops++;
}

/* ---- candidates -------------------------------------------------------- */

/* The escape VC of the hop from `node` through `port`: the bubble VC, or
 * of the dateline pair the upper one when the packet has crossed the
 * port's dateline or crosses it on this hop. */
SR_API int sr__bgl_escape_vc_of(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, int port,
                                unsigned vclass) {
    int d = sr_port_dim(port);
    if (cfg->escape != SR_BGL_ESCAPE_DATELINE) return cfg->num_dynamic;
    return sr_bgl_escape_vc(cfg, ((vclass >> d) & 1u) || sr_crosses_dateline(t, port, sr_coord(t, node, d)));
}

SR_API void sr__bgl_cand(sr_candidate *c, int port, int lo, int hi, int cls, unsigned flags) {
    c->port = (int16_t)port;
    c->vc_lo = (uint8_t)lo;
    c->vc_hi = (uint8_t)hi;
    c->cls = (uint8_t)cls;
    c->flags = (uint8_t)flags;
    c->spare = 0;
}

/**
 * The candidates of a packet at the head of a FIFO.
 *
 * In this order:
 *
 * - at the destination, only the reception FIFO: port t->proc_port, class
 *   SR_CLASS_MINIMAL, VC = the reception FIFO, which is the one dedicated
 *   to the input port the packet came in on (``in_port``; t->proc_port
 *   for a packet sent to its own node), or t->num_ports for a
 *   high-priority packet ("one high priority and one dedicated to each of
 *   the incoming directions", seed 003 line 49);
 * - a high-priority packet: the high-priority bubble VC in the escape
 *   direction (class SR_CLASS_ESCAPE, flag SR_CAND_BUBBLE);
 * - a statically routed packet: the escape VC in the escape direction
 *   (class SR_CLASS_ESCAPE; flag SR_CAND_BUBBLE with the bubble escape).
 *   Under the default dimension order this is the paper's static "xyz"
 *   routing on the bubble VC ("one bubble escape VC that can be used both
 *   for deadlock prevention and static routing", line 51).  Under the
 *   direction order static packets follow it too: xyz static packets and
 *   direction-ordered escape packets on one VC depend on each other in a
 *   cycle (x- before y+ for the first, y+ before x- for the second;
 *   tests/test_bgl_torus.c finds it);
 * - a dynamically routed packet: in every hinted direction, by increasing
 *   port, the dynamic VCs 0..num_dynamic-1 (class SR_CLASS_MINIMAL: each
 *   hop in a hinted direction brings the packet closer when the hint bits
 *   are minimal), then the escape VC in the escape direction (class
 *   SR_CLASS_ESCAPE; SR_CAND_BUBBLE with the bubble escape; with the
 *   dateline pair the lower VC before the dateline and the upper one from
 *   the hop that crosses it).
 *
 * Which candidate to take is JSQ's choice (seastar_arb.h sa_bgl_jsq, fed
 * by sr_bgl_requests): a dynamic VC when one is available, the escape VC
 * only when none is ("Dynamic packets can only enter the bubble escape VC
 * if no valid dynamic VCs are available", seed 003 line 51).  A packet on
 * an escape VC may move back to a dynamic VC: the paper does not restrict
 * it, and Duato's condition does not need it.
 *
 * :param t: the topology (at most SR_BGL_MAX_DIMS dimensions, asserted).
 * :param cfg: a valid configuration.
 * :param node: where the packet is (< t->num_nodes, asserted).
 * :param in_port: the input port it arrived on, t->proc_port when injected
 *     (< t->num_ports, asserted).
 * :param in_vc: the VC it arrived on (asserted to be a VC of the
 *     configuration when in_port is a network port; any value when
 *     injected).
 * :param h: its header.
 * :param out: out, the candidates.
 * :param max_out: room in out, at least SR_BGL_MAX_CANDIDATES (asserted).
 * :returns: the number of candidates (1 or more), or -1 for a header that
 *     cannot occur at this node (hint bits of no direction, both of a
 *     dimension, bits above the network's, bits at the destination or none
 *     away from it, or a hinted direction off a mesh edge).  The candidates
 *     do not depend on in_port and in_vc (except the reception FIFO); the
 *     bubble rule does (sr_bgl_move_kind).
 * :paper: seed 003 line 47 (hint bits), line 51 (the VCs), line 61 ("when
 *     a packet reaches its destination, the direction requested is simply
 *     the corresponding reception FIFO"), line 93 (escape orders, the
 *     dateline pair).
 */
SR_API int sr_bgl_candidates(const sr_topology *t, const sr_bgl_config *cfg, uint32_t node, int in_port, int in_vc,
                             const sr_header *h, sr_candidate *out, int max_out) {
    unsigned hint = h->hint, both = hint & (hint >> 1) & 0x55u, rest;
    int n = 0, port, esc_flags = cfg->escape == SR_BGL_ESCAPE_BUBBLE ? SR_CAND_BUBBLE : 0;
    SR_ASSERT(t->num_dims <= SR_BGL_MAX_DIMS && node < t->num_nodes && max_out >= SR_BGL_MAX_CANDIDATES);
    SR_ASSERT(in_port >= 0 && in_port < t->num_ports);
    SR_ASSERT(in_port == t->proc_port || (in_vc >= 0 && in_vc < sr_bgl_num_vcs(cfg)));
    (void)in_vc;
    (void)max_out;
    if (both || (hint >> (2 * t->num_dims))) return -1;
    if (node == h->dest) {
        if (hint) return -1;
        sr__bgl_cand(out, t->proc_port, 0, 0, SR_CLASS_MINIMAL, 0);
        out->vc_lo = out->vc_hi = (uint8_t)(h->vclass & SR_BGL_CLASS_PRIORITY ? t->num_ports : in_port);
        return 1;
    }
    if (!hint) return -1;
    for (rest = hint; rest; rest &= rest - 1) {      /* off a mesh edge (a torus has none) */
        port = sr__bgl_low_bit(rest);
        if (t->mesh[sr_port_dim(port)] && sr_neighbor(t, node, port) == SR_NO_NODE) return -1;
    }
    if (h->vclass & SR_BGL_CLASS_PRIORITY) {
        port = sr_bgl_escape_port(cfg->escape_order, (uint8_t)hint);
        sr__bgl_cand(out, port, sr_bgl_priority_vc(cfg), sr_bgl_priority_vc(cfg), SR_CLASS_ESCAPE, SR_CAND_BUBBLE);
        return 1;
    }
    if (!(h->vclass & SR_BGL_CLASS_STATIC))
        for (rest = hint; rest; rest &= rest - 1)
            sr__bgl_cand(&out[n++], sr__bgl_low_bit(rest), 0, cfg->num_dynamic - 1, SR_CLASS_MINIMAL, 0);
    port = sr_bgl_escape_port(cfg->escape_order, (uint8_t)hint);
    {
        int vc = sr__bgl_escape_vc_of(t, cfg, node, port, h->vclass);
        sr__bgl_cand(&out[n++], port, vc, vc, SR_CLASS_ESCAPE, (unsigned)esc_flags);
    }
    return n;
}

/* ---- token flow control and the bubble rules --------------------------- */

/**
 * How a packet moves onto an output VC, for the bubble rule.
 *
 * :param cfg: a valid configuration.
 * :param in_port: the input port the packet arrived on, or the processor
 *     port when it is injected.
 * :param in_vc: the VC it arrived on.
 * :param out_port: the output port.
 * :param out_vc: the output VC.
 * :returns: SR_BGL_MOVE_STRAIGHT when the packet is on the bubble VC
 *     ``out_vc`` already (escape or high-priority) and goes on in the
 *     direction it came (out_port is the port opposite in_port:
 *     ``out_port == (in_port ^ 1)``), else SR_BGL_MOVE_ENTER (injection, a
 *     turn, or from another VC).  On a dynamic or dateline VC the
 *     distinction does not matter.
 * :paper: seed 003 line 53.
 */
SR_API int sr_bgl_move_kind(const sr_bgl_config *cfg, int in_port, int in_vc, int out_port, int out_vc) {
    int kind = sr_bgl_vc_kind(cfg, out_vc);
    if ((kind == SR_BGL_VC_BUBBLE || kind == SR_BGL_VC_PRIORITY) && in_vc == out_vc && in_port >= 0 &&
        out_port == (in_port ^ 1))
        return SR_BGL_MOVE_STRAIGHT;
    return SR_BGL_MOVE_ENTER;
}

/* Whether a VC kind is a bubble VC. */
SR_API int sr__bgl_is_bubble(int kind) { return kind == SR_BGL_VC_BUBBLE || kind == SR_BGL_VC_PRIORITY; }

/**
 * Tokens a VC must have for a move onto it.
 *
 * :param cfg: a valid configuration.
 * :param vc: a VC of the configuration (asserted).
 * :param move: SR_BGL_MOVE_STRAIGHT or SR_BGL_MOVE_ENTER.
 * :returns: 8 (one full-sized packet: "a VC is marked as unavailable
 *     unless 8 tokens (a full-sized packet) are available", and on a bubble
 *     VC "tokens for one full-sized packet are required for a packet
 *     already on the bubble VC to advance"); 16 for SR_BGL_MOVE_ENTER onto
 *     a bubble VC ("tokens for two full-sized packets are required for a
 *     packet to enter the bubble VC").
 * :paper: seed 003 line 53.
 */
SR_API int sr_bgl_tokens_needed(const sr_bgl_config *cfg, int vc, int move) {
    int kind = sr_bgl_vc_kind(cfg, vc);
    SR_ASSERT(kind != SR_BGL_VC_NONE);
    return sr__bgl_is_bubble(kind) && move == SR_BGL_MOVE_ENTER ? 2 * SR_BGL_FULL_CHUNKS : SR_BGL_FULL_CHUNKS;
}

/**
 * Tokens a packet is charged on a VC (and returns when it leaves the
 * VC's buffer).
 *
 * :param cfg: a valid configuration.
 * :param vc: a VC of the configuration (asserted).
 * :param chunks: the packet's chunks, 1..8 (asserted).
 * :returns: ``chunks`` on a dynamic or dateline VC ("token counts for
 *     packets on dynamic VCs are incremented and decremented according to
 *     the size of the packet") and on a bubble VC under
 *     SR_BGL_RULE_TEXTBOOK; 8 on a bubble VC under SR_BGL_RULE_FULL_SIZE
 *     ("each packet on the bubble is accounted for as if it were a
 *     full-sized (8 chunk) packet").
 * :paper: seed 003 line 53.
 */
SR_API int sr_bgl_tokens_charged(const sr_bgl_config *cfg, int vc, int chunks) {
    int kind = sr_bgl_vc_kind(cfg, vc);
    SR_ASSERT(kind != SR_BGL_VC_NONE && chunks >= 1 && chunks <= SR_BGL_FULL_CHUNKS);
    return sr__bgl_is_bubble(kind) && cfg->bubble_rule == SR_BGL_RULE_FULL_SIZE ? SR_BGL_FULL_CHUNKS : chunks;
}

/**
 * The token counters a sender keeps for one link: the free chunks of each
 * VC buffer at the receiver, as far as the sender knows (tokens come back
 * in token-ack packets).
 */
typedef struct sr_bgl_link {
    uint16_t tokens[SR_BGL_MAX_VCS]; /**< free chunks downstream, per VC
                                          (0 for VCs the configuration
                                          does not have) */
} sr_bgl_link;

/**
 * Start a link with every VC buffer empty.
 *
 * :param cfg: the configuration (checked).
 * :param lk: the link (untouched on error).
 * :returns: SR_OK; SR_ERR_NULL; the errors of sr_bgl_config_check.
 */
SR_API sr_result sr_bgl_link_init(const sr_bgl_config *cfg, sr_bgl_link *lk) {
    sr_result e = sr_bgl_config_check(cfg);
    int vc;
    if (!lk) return SR_ERR_NULL;
    if (e != SR_OK) return e;
    memset(lk, 0, sizeof *lk);
    for (vc = 0; vc < sr_bgl_num_vcs(cfg); vc++) lk->tokens[vc] = (uint16_t)sr_bgl_vc_chunks(cfg, vc);
    return SR_OK;
}

/**
 * Check a link's counters: what sends and returns can produce.
 *
 * :param cfg: the configuration (checked).
 * :param lk: the link.
 * :returns: SR_OK; SR_ERR_NULL; the errors of sr_bgl_config_check;
 *     SR_ERR_BGL_STATE (a count above its VC's buffer, a count for a VC the
 *     configuration does not have, or, on a bubble VC under the full-size
 *     rule, a count that is not the buffer minus a multiple of 8).
 */
SR_API sr_result sr_bgl_link_check(const sr_bgl_config *cfg, const sr_bgl_link *lk) {
    sr_result e = sr_bgl_config_check(cfg);
    int vc, nv;
    if (!lk) return SR_ERR_NULL;
    if (e != SR_OK) return e;
    nv = sr_bgl_num_vcs(cfg);
    for (vc = 0; vc < SR_BGL_MAX_VCS; vc++) {
        int cap = vc < nv ? sr_bgl_vc_chunks(cfg, vc) : 0;
        if (lk->tokens[vc] > cap) return SR_ERR_BGL_STATE;
        if (vc < nv && sr__bgl_is_bubble(sr_bgl_vc_kind(cfg, vc)) && cfg->bubble_rule == SR_BGL_RULE_FULL_SIZE &&
            (cap - lk->tokens[vc]) % SR_BGL_FULL_CHUNKS != 0)
            return SR_ERR_BGL_STATE;
    }
    return SR_OK;
}

/**
 * Whether flow control lets a packet move onto a VC: the VC has the
 * tokens sr_bgl_tokens_needed asks.  With SR_BGL_MOVE_STRAIGHT (or any move
 * onto a dynamic or dateline VC) this is the availability bit the senders
 * give the arbiters.
 *
 * :param cfg: a valid configuration.
 * :param lk: the link's counters.
 * :param vc: a VC of the configuration (asserted).
 * :param move: SR_BGL_MOVE_STRAIGHT or SR_BGL_MOVE_ENTER (sr_bgl_move_kind).
 * :returns: 1 if allowed, else 0.
 * :paper: seed 003 line 53, line 59 ("a bit indicating both link and token
 *     availability for each VC in each direction"; link availability is
 *     the caller's).
 */
SR_API int sr_bgl_may_send(const sr_bgl_config *cfg, const sr_bgl_link *lk, int vc, int move) {
    return lk->tokens[vc] >= sr_bgl_tokens_needed(cfg, vc, move);
}

/**
 * Send a packet onto a VC: check the rule and charge its tokens.
 *
 * :param cfg: a valid configuration.
 * :param lk: the link's counters.
 * :param vc: the VC.
 * :param move: SR_BGL_MOVE_STRAIGHT or SR_BGL_MOVE_ENTER.
 * :param chunks: the packet's chunks, 1..8.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BGL_VC_RANGE;
 *     SR_ERR_BGL_PACKET_SIZE (chunks outside 1..8); SR_ERR_BGL_OPTION
 *     (move); SR_ERR_BGL_TOKENS (the rule forbids the move).  Nothing
 *     changes on error.
 * :paper: seed 003 line 53.
 */
SR_API sr_result sr_bgl_send(const sr_bgl_config *cfg, sr_bgl_link *lk, int vc, int move, int chunks) {
    if (!cfg || !lk) return SR_ERR_NULL;
    if (sr_bgl_vc_kind(cfg, vc) == SR_BGL_VC_NONE) return SR_ERR_BGL_VC_RANGE;
    if (chunks < 1 || chunks > SR_BGL_FULL_CHUNKS) return SR_ERR_BGL_PACKET_SIZE;
    if (move != SR_BGL_MOVE_STRAIGHT && move != SR_BGL_MOVE_ENTER) return SR_ERR_BGL_OPTION;
    if (!sr_bgl_may_send(cfg, lk, vc, move)) return SR_ERR_BGL_TOKENS;
    lk->tokens[vc] = (uint16_t)(lk->tokens[vc] - sr_bgl_tokens_charged(cfg, vc, chunks));
    return SR_OK;
}

/**
 * Return a packet's tokens: the packet has left the VC's buffer at the
 * receiver (a token-ack came back).
 *
 * :param cfg: a valid configuration.
 * :param lk: the link's counters.
 * :param vc: the VC.
 * :param chunks: the packet's chunks, 1..8.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BGL_VC_RANGE;
 *     SR_ERR_BGL_PACKET_SIZE; SR_ERR_BGL_STATE (the count would exceed the
 *     buffer: tokens returned that were never charged).  Nothing changes on
 *     error.
 * :paper: seed 003 line 53, line 55 (token-ack packets).
 */
SR_API sr_result sr_bgl_tokens_return(const sr_bgl_config *cfg, sr_bgl_link *lk, int vc, int chunks) {
    int back;
    if (!cfg || !lk) return SR_ERR_NULL;
    if (sr_bgl_vc_kind(cfg, vc) == SR_BGL_VC_NONE) return SR_ERR_BGL_VC_RANGE;
    if (chunks < 1 || chunks > SR_BGL_FULL_CHUNKS) return SR_ERR_BGL_PACKET_SIZE;
    back = sr_bgl_tokens_charged(cfg, vc, chunks);
    if (lk->tokens[vc] + back > sr_bgl_vc_chunks(cfg, vc)) return SR_ERR_BGL_STATE;
    lk->tokens[vc] = (uint16_t)(lk->tokens[vc] + back);
    return SR_OK;
}

/**
 * The arbitration request of a packet at the head of a FIFO, as JSQ
 * (seastar_arb.h sa_bgl_jsq) reads it: the (direction, VC) pairs it may
 * take and those flow control allows now.  A pair is the bit
 * ``port * sr_bgl_num_vcs(cfg) + vc``.
 *
 * :param t: the topology.
 * :param cfg: a valid configuration.
 * :param cand: the packet's candidates (sr_bgl_candidates).
 * :param num_cand: their number.
 * :param in_port: the input port the packet arrived on (or the processor
 *     port), for the bubble rule.
 * :param in_vc: the VC it arrived on.
 * :param links: the node's token counters, indexed by output port
 *     (t->proc_port entries at least).
 * :param possible: out, the dynamic pairs ("a bit vector of possible moves
 *     constructed from the packet's hint bits and VC").
 * :param available: out, the possible pairs, and the escape pair, that flow
 *     control allows (the "bit indicating both link and token
 *     availability", without the link: and it with the links that are
 *     free).
 * :param escape: out, the escape pair (the high-priority VC for a
 *     high-priority packet), or -1 (at the destination: the request is the
 *     reception FIFO, which is the caller's).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_BGL_VC_RANGE (a candidate VC
 *     outside the configuration, or a pair beyond bit 63: 2n times the VCs
 *     above 64); SR_ERR_PORT_RANGE (a candidate port that is not a port
 *     of the topology).
 * :paper: seed 003 lines 59-61.
 */
SR_API sr_result sr_bgl_requests(const sr_topology *t, const sr_bgl_config *cfg, const sr_candidate *cand,
                                     int num_cand, int in_port, int in_vc, const sr_bgl_link *links,
                                     uint64_t *possible, uint64_t *available, int *escape) {
    int i, vc, nv;
    if (!t || !cfg || (!cand && num_cand > 0) || !links || !possible || !available || !escape)
        return SR_ERR_NULL;
    nv = sr_bgl_num_vcs(cfg);
    *possible = *available = 0;
    *escape = -1;
    for (i = 0; i < num_cand; i++) {
        const sr_candidate *c = &cand[i];
        if (c->port == t->proc_port) continue;   /* the reception FIFO */
        if (c->port < 0 || c->port > t->proc_port) return SR_ERR_PORT_RANGE;
        if (c->vc_hi >= nv || c->vc_lo > c->vc_hi || (int)c->port * nv + c->vc_hi > 63) return SR_ERR_BGL_VC_RANGE;
        for (vc = c->vc_lo; vc <= c->vc_hi; vc++) {
            int bit = c->port * nv + vc;
            /* a dynamic VC needs a full-size packet's tokens whatever the
             * move (sr_bgl_tokens_needed), the common case in one compare */
            int ok = vc < cfg->num_dynamic
                         ? links[c->port].tokens[vc] >= SR_BGL_FULL_CHUNKS
                         : sr_bgl_may_send(cfg, &links[c->port], vc, sr_bgl_move_kind(cfg, in_port, in_vc, c->port, vc));
            if (c->cls == SR_CLASS_ESCAPE) *escape = bit;
            else *possible |= (uint64_t)1 << bit;
            if (ok) *available |= (uint64_t)1 << bit;
        }
    }
    return SR_OK;
}

/* ---- the routing for the verifier ------------------------------------- */

/* sr_custom_routing.candidates of sr_bgl_custom_routing: sr_bgl_candidates
 * on the network's cube, with the reception FIFO named VC 0 (the
 * verifier's terminal channel; which FIFO it is does not matter to a
 * proof), so the candidates read neither in_port nor in_vc. */
SR_API sr_result sr__bgl_rt_candidates(const sr_routing *rt, uint32_t router, int in_port, int in_vc,
                                       const sr_header *h, sr_candidate *out, int cap, int *n) {
    const sr_bgl_config *cfg = (const sr_bgl_config *)rt->custom.ctx;
    const sr_topology *t = &rt->net.cube;
    sr_candidate c[SR_BGL_MAX_CANDIDATES];
    int k, m;
    if (rt->net.kind != SR_NET_CUBE || sr_bgl_header_check(t, cfg, router, h) != SR_OK) return SR_ERR_HEADER;
    m = sr_bgl_candidates(t, cfg, router, t->proc_port, 0, h, c, SR_BGL_MAX_CANDIDATES);
    (void)in_port;
    (void)in_vc;
    if (m < 1) return SR_ERR_HEADER;
    *n = m;
    for (k = 0; k < m && k < cap; k++) {
        out[k] = c[k];
        if (c[k].port == t->proc_port) out[k].vc_lo = out[k].vc_hi = 0;
    }
    return m > cap ? SR_ERR_BUFFER_SIZE : SR_OK;
}

/* sr_custom_routing.advance of sr_bgl_custom_routing: sr_bgl_header_advance
 * without the hop count (sr_route_advance counts it). */
SR_API sr_result sr__bgl_rt_advance(const sr_routing *rt, uint32_t router, const sr_candidate *c, int vc,
                                    sr_header *h) {
    const sr_bgl_config *cfg = (const sr_bgl_config *)rt->custom.ctx;
    uint8_t hops = h->hops;
    (void)vc;
    sr_bgl_header_advance(&rt->net.cube, cfg, router, c->port, h);
    h->hops = hops;
    return SR_OK;
}

/* sr_custom_routing.header_init of sr_bgl_custom_routing: minimal cutoffs
 * at the source; the "intermediate" names the packet's class. */
SR_API sr_result sr__bgl_rt_header(const sr_routing *rt, uint32_t src, uint32_t dest, uint32_t inter,
                                   sr_header *h) {
    static const unsigned cls[3] = { 0, SR_BGL_CLASS_STATIC, SR_BGL_CLASS_PRIORITY };
    sr_bgl_cutoffs c;
    sr_result e;
    if (rt->net.kind != SR_NET_CUBE) return SR_ERR_KIND;
    e = sr_bgl_cutoffs_minimal(&rt->net.cube, src, &c);
    if (e != SR_OK) return e;
    return sr_bgl_header_init(&rt->net.cube, &c, src, dest, inter == SR_NO_NODE ? 0 : cls[inter % 3], h);
}

/**
 * The BlueGene/L routing as an SR_ALG_CUSTOM routing of seastar_route.h,
 * so that sr_verify_routing proves or refutes it on a cube (sr_net of kind
 * SR_NET_CUBE): the candidates of sr_bgl_candidates, the header of
 * sr_bgl_header_init (minimal cutoffs at every source,
 * sr_bgl_cutoffs_minimal) and of sr_bgl_header_advance.  The escape
 * candidates are class SR_CLASS_ESCAPE, the bubble VCs flagged
 * SR_CAND_BUBBLE, so the verifier checks Duato's condition with the bubble
 * rule standing in for a dateline on each bubble ring (see >>rverify, item
 * 4).  The verifier's "intermediates" are the packet classes: 0 dynamic,
 * 1 static (SR_BGL_CLASS_STATIC), 2 high-priority (SR_BGL_CLASS_PRIORITY),
 * so every class is injected at every source.  The reception FIFO is the
 * terminal port's VC 0: the candidates then read neither in_port nor in_vc
 * (input_free).
 *
 * :param cfg: the configuration (checked); the routing keeps the pointer
 *     (``ctx``), so it must outlive every use of the routing.
 * :param num_dims: dimensions of the cube it will route, 1..SR_BGL_MAX_DIMS
 *     (it sizes ``states_per_router``).
 * :param out: out, the functions and what the verifier needs to know
 *     (untouched on error): vcs_needed sr_bgl_num_vcs, max_candidates
 *     SR_BGL_MAX_CANDIDATES, escape 1, input_free 1, inters 3.  Give it to
 *     sr_routing_init as sr_routing_desc.custom with algorithm
 *     SR_ALG_CUSTOM.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS; the errors of
 *     sr_bgl_config_check.  The candidate function returns SR_ERR_HEADER
 *     for a header sr_bgl_header_check refuses or a network that is not a
 *     cube.
 * :paper: seed 003 lines 47-53 (hint bits, the VCs, the bubble rules),
 *     line 93 (the dateline pair, dimension and direction order).
 */
SR_API sr_result sr_bgl_custom_routing(const sr_bgl_config *cfg, int num_dims, sr_custom_routing *out) {
    sr_result e;
    uint32_t per = 3;
    int d;
    if (!cfg || !out) return SR_ERR_NULL;
    e = sr_bgl_config_check(cfg);
    if (e != SR_OK) return e;
    if (num_dims < 1 || num_dims > SR_BGL_MAX_DIMS) return SR_ERR_DIMS;
    /* headers of one destination at one router: 3 classes, per dimension
     * its hint (+, - or none) and with the dateline pair its crossed bit */
    for (d = 0; d < num_dims; d++) per *= cfg->escape == SR_BGL_ESCAPE_DATELINE ? 6u : 3u;
    memset(out, 0, sizeof *out);
    out->candidates = sr__bgl_rt_candidates;
    out->advance = sr__bgl_rt_advance;
    out->header_init = sr__bgl_rt_header;
    out->ctx = cfg;
    out->inters = 3;
    out->vcs_needed = sr_bgl_num_vcs(cfg);
    out->max_candidates = SR_BGL_MAX_CANDIDATES;
    out->escape = 1;
    out->input_free = 1;
    out->states_per_router = per;
    return SR_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_ROUTE_H */
