/* SPDX-License-Identifier: MIT */
/* seastar_topo.h - network descriptions: k-ary n-cubes, HyperX and
 * flattened butterflies, dragonflies, folded Clos networks and butterflies,
 * header-only C.
 *
 * Part of seastar: a reference implementation of interconnection-network
 * router algorithms.  This header is included by seastar_route.h, which is
 * the one to include; it holds what routing stands on:
 *
 *   1. the limits and result codes of both (>>limits);
 *   2. k-ary n-cube topologies: 1 to SR_MAX_DIMS dimensions, mixed radix,
 *      each dimension a mesh or a torus, with the datelines and node ids
 *      the SeaStar tables use (seed 000 Section 1.1, seed 001) (>>cube);
 *   3. one network description for every topology of seed 004: the cube,
 *      HyperX / flattened butterfly, dragonfly, folded Clos and butterfly,
 *      with a neighbour function and a kind for every port (>>net);
 *   4. their metrics in closed form: routers, terminals, radix, diameter,
 *      exact average hops, bisection (>>metrics);
 *   5. seed 004's formulas and examples of Chapters 3 and 4 as functions,
 *      with the printing errors corrected and documented (>>formulas).
 *
 * Usage:
 *
 *   sr_net_desc d = {0};
 *   sr_net net;
 *   d.kind = SR_NET_DRAGONFLY;
 *   d.dragonfly.p = 4; d.dragonfly.a = 8; d.dragonfly.h = 4;  // g = a*h+1
 *   if (sr_net_init(&net, &d) != SR_OK) ...;
 *   int in_port;
 *   uint32_t next = sr_net_neighbor(&net, router, port, &in_port);
 *   sr_port_info pi = sr_net_port_info(&net, router, port);  // kind, dim
 *   sr_net_metrics m;
 *   sr_net_compute_metrics(&net, &m);        // diameter, avg_hops, bisection
 *
 * Naming: public functions and types start with sr_, macros with SR_,
 * private helpers with sr__ (the prefix of seastar_route.h: one library).
 *
 * Sections (search for the tag): >>limits >>cube >>net >>metrics >>formulas
 *
 * >>index: every public function, by section (all return SR_OK or an
 * sr_result error unless another type is shown)
 *
 *   >>limits   const char * sr_result_string(sr_result r)
 *   >>cube     sr_result    sr_topology_init(sr_topology *t, const sr_topology_desc *d)
 *              int          sr_coord(const sr_topology *t, uint32_t node, int dim)
 *              void         sr_node_coords(const sr_topology *t, uint32_t node, int *coords)
 *              uint32_t     sr_node_id(const sr_topology *t, const int *coords)
 *              int          sr_port(int dim, int negative)
 *              int          sr_port_dim(int port)
 *              int          sr_port_opposite(int port)
 *              const char * sr_port_name(const sr_topology *t, int port)
 *              uint32_t     sr_neighbor(const sr_topology *t, uint32_t node, int port)
 *              int          sr_crosses_dateline(const sr_topology *t, int port, int c)
 *   >>net      const char * sr_net_kind_name(int kind)
 *              const char * sr_port_kind_name(int kind)
 *              sr_result    sr_net_init(sr_net *net, const sr_net_desc *d)
 *              sr_result    sr_net_desc_cube(sr_net_desc *d, int num_dims, const int *radix, const int *mesh)
 *              sr_result    sr_net_desc_hyperx(sr_net_desc *d, int num_dims, const int *size, int terminals)
 *              sr_result    sr_net_desc_dragonfly(sr_net_desc *d, int p, int a, int h, int g, int arrangement)
 *              sr_result    sr_net_desc_clos(sr_net_desc *d, int levels, const int *down, const int *up)
 *              sr_result    sr_net_desc_butterfly(sr_net_desc *d, int k, int n)
 *              int          sr_net_num_ports(const sr_net *net, uint32_t router)
 *              uint32_t     sr_df_global_target(const sr_net *net, uint32_t group, int channel, int *back)
 *              int          sr_df_global_first(const sr_net *net, uint32_t group, uint32_t target)
 *              uint32_t     sr_net_neighbor(const sr_net *net, uint32_t router, int port, int *in_port)
 *              uint32_t     sr_net_terminal_router(const sr_net *net, uint32_t terminal, int *port)
 *              uint32_t     sr_net_eject_router(const sr_net *net, uint32_t terminal, int *port)
 *              uint32_t     sr_net_port_terminal(const sr_net *net, uint32_t router, int port)
 *              sr_port_info sr_net_port_info(const sr_net *net, uint32_t router, int port)
 *              int          sr_net_router_coords(const sr_net *net, uint32_t router, int *coords)
 *              int          sr_net_port_find(const sr_net *net, uint32_t router, int kind, int dim, int index)
 *              sr_result    sr_net_check(const sr_net *net)
 *   >>metrics  int          sr_net_hops(const sr_net *net, uint32_t src, uint32_t dst)
 *              sr_result    sr_net_compute_metrics(const sr_net *net, sr_net_metrics *m)
 *   >>formulas sr_result    sr_cube_nodes(int n, const int *radix, uint64_t *nodes)
 *              sr_result    sr_cube_router_radix(int n, int *radix)
 *              sr_result    sr_hypercube_router_radix(uint64_t nodes, int *radix)
 *              sr_result    sr_radix_latency(double tr, double nodes, double k, double length, double bandwidth, double *latency)
 *              sr_result    sr_aspect_ratio(double bandwidth, double tr, double nodes, double length, double *aspect)
 *              sr_result    sr_optimal_radix(double aspect, double *k)
 *              sr_result    sr_fbfly_router_radix(int k, int n, int *radix)
 *              sr_result    sr_fbfly_neighbor(int k, int n, uint32_t i, int d, int m, uint32_t *j)
 *              sr_result    sr_fbfly_desc(int k, int n, sr_net_desc *d)
 *              sr_result    sr_hypercube_desc(int n, sr_net_desc *d)
 *              sr_result    sr_df_size(int p, int a, int h, int *k, int *k_virtual, uint64_t *max_terminals)
 *              sr_result    sr_df_group_channels(int a, int h, int g, int *channels)
 *              sr_result    sr_fbfly_max_size(int radix, int dims, int *k, uint64_t *terminals)
 *              sr_result    sr_df_max_size(int radix, int *p, uint64_t *terminals)
 *              sr_result    sr_fly_stages(int k, uint64_t terminals, int *stages)
 *              sr_result    sr_minimal_routes(const sr_net *net, uint32_t src, uint32_t dst, uint64_t *routes)
 */
#ifndef SEASTAR_TOPO_H
#define SEASTAR_TOPO_H

/** Major version of seastar_topo.h (the same numbers as seastar_route.h
 *  and seastar_arb.h: one release). */
#define SEASTAR_TOPO_VERSION_MAJOR 0
/** Minor version of seastar_topo.h. */
#define SEASTAR_TOPO_VERSION_MINOR 6
/** Patch version of seastar_topo.h. */
#define SEASTAR_TOPO_VERSION_PATCH 0

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#ifndef SR_API
/** Linkage of every function of seastar_topo.h and seastar_route.h; define
 *  it before including either to change it (for example to plain
 *  ``static``). */
#define SR_API static inline
#endif

#ifndef SR_ASSERT
#include <assert.h>
/** Precondition check used on hot paths; define it before including the
 *  header to route failures to your own handler (or to nothing). */
#define SR_ASSERT(c) assert(c)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* >>limits =============================================================
 * Limits, result codes
 * ====================================================================== */

/** Largest number of dimensions of a topology (SeaStar uses 3). */
#define SR_MAX_DIMS 8
/** Largest number of router ports: two per dimension plus the processor. */
#define SR_MAX_PORTS (2 * SR_MAX_DIMS + 1)
/** Largest number of nodes: the SeaStar destination field is 15 bits
 *  (destination[14:0]), so node ids are 0..32767. */
#define SR_MAX_NODES 32768
/** Number of virtual channels: VC0/VC1 (requests), VC2/VC3 (responses). */
#define SR_NUM_VCS 4
/** Entries of the global lookup table (GLUT), indexed by destination[14:12]. */
#define SR_GLUT_ENTRIES 8
/** Entries of the hardware local lookup table (LUT), indexed by
 *  destination[11:0]; also the number of node ids in a global partition. */
#define SR_LUT_ENTRIES 4096
/** Shift that turns a node id into its global partition (id >> 12). */
#define SR_PARTITION_SHIFT 12
/** "No node": returned by sr_neighbor for a missing link. */
#define SR_NO_NODE 0xFFFFFFFFu
/** Port field of an entry that routes nowhere (an unroutable destination). */
#define SR_PORT_NONE 31
/** Longest witness (path hops or dependency-cycle channels) a report keeps. */
#define SR_MAX_WITNESS 256

/** Result code of every function that can fail.  ``SR_OK`` is zero. */
typedef enum sr_result {
    SR_OK = 0,               /**< success */
    SR_ERR_NULL,             /**< a required pointer argument is NULL */
    SR_ERR_DIMS,             /**< number of dimensions is 0 or above SR_MAX_DIMS
                                  (or not 3 where only 3 is supported) */
    SR_ERR_RADIX,            /**< a radix is below 2 */
    SR_ERR_TOO_MANY_NODES,   /**< more than SR_MAX_NODES nodes (15-bit ids) */
    SR_ERR_DATELINE,         /**< a dateline position is outside 0..radix-1 */
    SR_ERR_PARTITION,        /**< more than 4096 nodes and the global partitions
                                  are not whole slabs of dimension 0 */
    SR_ERR_NODE_RANGE,       /**< a node id is outside the network */
    SR_ERR_PORT_RANGE,       /**< a port is not a network port of this topology */
    SR_ERR_NO_LINK,          /**< the link does not exist (edge of a mesh) */
    SR_ERR_BUFFER_SIZE,      /**< a caller buffer is smaller than its size query */
    SR_ERR_ORDER,            /**< a direction order is not a permutation of the
                                  network ports */
    SR_ERR_TIE,              /**< the tie-break is not one of SR_TIE_ALTERNATE,
                                  SR_TIE_PLUS, SR_TIE_MINUS */
    SR_ERR_KIND,             /**< sr_net_desc.kind is not an sr_net_kind */
    SR_ERR_TERMINALS,        /**< terminals per router (hyperx.terminals,
                                  dragonfly.p) below 1 */
    SR_ERR_HX_SHAPE,         /**< hyperx.num_dims outside 1..SR_MAX_DIMS or a
                                  hyperx.size[d] below 2 */
    SR_ERR_DF_SHAPE,         /**< dragonfly.a or dragonfly.h below 1 */
    SR_ERR_DF_GROUPS,        /**< dragonfly.g outside 2..a*h+1, or g-1 does not
                                  divide a*h (the global channels cannot be
                                  spread evenly over the groups) */
    SR_ERR_DF_ARRANGEMENT,   /**< dragonfly.arrangement is not an
                                  sr_df_arrangement */
    SR_ERR_CLOS_LEVELS,      /**< clos.levels outside 1..SR_MAX_LEVELS */
    SR_ERR_CLOS_PORTS,       /**< a clos.down[l] below 1, a clos.up[l] below 1
                                  under the top level, or clos.up[levels-1]
                                  not 0 */
    SR_ERR_FLY_SHAPE,        /**< butterfly.k below 2, or butterfly.n outside
                                  1..SR_MAX_STAGES */
    SR_ERR_PORT_LIMIT,       /**< a router would have more than
                                  SR_NET_MAX_PORTS ports */
    SR_ERR_NET_SIZE,         /**< more than SR_NET_MAX_ROUTERS routers or
                                  terminals */
    SR_ERR_STATE,            /**< a caller-owned struct holds values its init
                                  function never produces (sr_net_check) */
    SR_ERR_DOMAIN,           /**< an argument of a seed 004 formula function
                                  (>>formulas) is outside the domain its doc
                                  comment gives */
    SR_ERR_ALGORITHM,        /**< the routing algorithm is not an sr_algorithm,
                                  or it is not defined on this network's
                                  family (sr_routing_init) */
    SR_ERR_VCS,              /**< fewer VCs than the routing needs
                                  (sr_routing_vcs_needed), more than
                                  SR_ROUTE_MAX_VCS, or a VC outside the
                                  routing's VCs */
    SR_ERR_OPTION,           /**< an option of sr_routing_desc (flags, df_vc,
                                  escape) is unknown or does not apply to the
                                  algorithm and network */
    SR_ERR_HEADER,           /**< a header state the routing cannot produce (a
                                  phase past the last or not used by the
                                  algorithm, an intermediate outside the
                                  network, a destination out of range, a
                                  counter out of range) */
    SR_ERR_UNDELIVERED,      /**< a table generator's tables leave a pair of
                                  live nodes that the faults leave connected
                                  undelivered (the tables are still written) */
    SR_ERR_DEADLOCK,         /**< a table generator's tables have a cycle in
                                  their channel dependency graph (the tables
                                  are still written; sr_verify gives the
                                  cycle) */
    SR_ERR_BGL_DYNAMIC_VCS,  /**< num_dynamic is below 1 (or above
                                  SR_BGL_MAX_DYNAMIC) */
    SR_ERR_BGL_BUBBLE_BUFFER, /**< a bubble VC (the escape VC of
                                  SR_BGL_ESCAPE_BUBBLE, the high-priority VC)
                                  holds fewer than two full-sized packets */
    SR_ERR_BGL_BUFFER,       /**< a VC buffer is not a multiple of 32 bytes,
                                  holds less than one full-sized packet, or is
                                  above SR_BGL_MAX_BUFFER_BYTES */
    SR_ERR_BGL_PACKET_SIZE,  /**< a packet size is outside 32..256 bytes or
                                  not a multiple of 32 */
    SR_ERR_BGL_OPTION,       /**< escape, escape_order or bubble_rule is not
                                  one of its values */
    SR_ERR_BGL_VC_RANGE,     /**< a VC is not a VC of the configuration */
    SR_ERR_BGL_CUTOFF,       /**< a hint-bit register is outside its range */
    SR_ERR_BGL_HINT,         /**< hint bits that cannot occur for this node
                                  and destination */
    SR_ERR_BGL_HEADER,       /**< another header field that cannot occur */
    SR_ERR_BGL_TOKENS,       /**< the VC has too few tokens for the move */
    SR_ERR_BGL_STATE,        /**< token counters no send and return can
                                  produce */
    SR_RESULT_COUNT          /**< number of result codes (not a result) */
} sr_result;

/**
 * Turn a result code into a one-line English message.
 *
 * :param r: a result code.
 * :returns: a static string; never NULL (unknown codes give "unknown result").
 */
SR_API const char *sr_result_string(sr_result r) {
    switch (r) {
    case SR_OK: return "ok";
    case SR_ERR_NULL: return "a required pointer argument is NULL";
    case SR_ERR_DIMS:
        return "num_dims (sr_topology_desc, sr_net_desc.cube) is 0, above SR_MAX_DIMS (8), "
               "or not supported here";
    case SR_ERR_RADIX: return "a radix[d] (sr_topology_desc, sr_net_desc.cube) is below 2";
    case SR_ERR_TOO_MANY_NODES: return "more than 32768 nodes: node ids must fit the 15-bit destination field";
    case SR_ERR_DATELINE: return "a dateline[d] (sr_topology_desc, sr_net_desc.cube) is outside 0..radix[d]-1";
    case SR_ERR_PARTITION:
        return "more than 4096 nodes and the 4096-node global partitions are not whole "
               "slabs of dimension 0 (the product of the other radices must divide 4096)";
    case SR_ERR_NODE_RANGE: return "a node id is outside the network";
    case SR_ERR_PORT_RANGE: return "a port is not a network port of this topology";
    case SR_ERR_NO_LINK: return "the link does not exist (edge of a mesh dimension)";
    case SR_ERR_BUFFER_SIZE: return "a buffer is smaller than its size query says";
    case SR_ERR_ORDER: return "a direction order is not a permutation of the network ports";
    case SR_ERR_TIE: return "the tie-break (tie) is not SR_TIE_ALTERNATE, SR_TIE_PLUS or SR_TIE_MINUS";
    case SR_ERR_KIND: return "sr_net_desc.kind is not an sr_net_kind (SR_NET_CUBE .. SR_NET_BUTTERFLY)";
    case SR_ERR_TERMINALS: return "the terminals per router (hyperx.terminals, dragonfly.p) are below 1";
    case SR_ERR_HX_SHAPE: return "hyperx.num_dims is outside 1..8 or a hyperx.size[d] is below 2";
    case SR_ERR_DF_SHAPE: return "dragonfly.a or dragonfly.h is below 1";
    case SR_ERR_DF_GROUPS:
        return "dragonfly.g is outside 2..a*h+1, or g-1 does not divide a*h: the a*h global channels "
               "of a group cannot be spread evenly over the g-1 other groups";
    case SR_ERR_DF_ARRANGEMENT: return "dragonfly.arrangement is not SR_DF_CONSECUTIVE or SR_DF_PALMTREE";
    case SR_ERR_CLOS_LEVELS: return "clos.levels is outside 1..8";
    case SR_ERR_CLOS_PORTS:
        return "a clos.down[l] is below 1, a clos.up[l] below the top level is below 1, "
               "or clos.up[levels-1] is not 0 (the top level has no up ports)";
    case SR_ERR_FLY_SHAPE: return "butterfly.k is below 2 or butterfly.n is outside 1..30";
    case SR_ERR_PORT_LIMIT:
        return "a router would have more than 512 ports (SR_NET_MAX_PORTS): hyperx.terminals + the sum of "
               "hyperx.size[d]-1, dragonfly.p+a+h-1, clos.down[l]+up[l] or 2*butterfly.k is too large";
    case SR_ERR_NET_SIZE:
        return "the sizes in sr_net_desc (cube.radix, hyperx.size and terminals, dragonfly.p, a, g, "
               "clos.down and up, butterfly.k and n) give more than 2^30 routers or terminals "
               "(SR_NET_MAX_ROUTERS)";
    case SR_ERR_STATE: return "a struct holds values its init function never produces (corrupted, or never initialised?)";
    case SR_ERR_DOMAIN: return "an argument of a formula function is outside the domain its doc comment gives";
    case SR_ERR_ALGORITHM: return "the routing algorithm is unknown or not defined on this network's family";
    case SR_ERR_VCS:
        return "fewer VCs than the routing needs (sr_routing_vcs_needed), more than SR_ROUTE_MAX_VCS (64), "
               "or a VC outside the routing's VCs";
    case SR_ERR_OPTION:
        return "an option of sr_routing_desc (flags, df_vc, escape) is unknown or does not apply to this "
               "algorithm and network";
    case SR_ERR_HEADER:
        return "a header state the routing cannot produce (phase, intermediate, destination or a counter "
               "out of range)";
    case SR_ERR_UNDELIVERED: return "a pair of live nodes that the faults leave connected is not delivered";
    case SR_ERR_DEADLOCK: return "the channel dependency graph of the tables has a cycle (deadlock)";
    case SR_ERR_BGL_DYNAMIC_VCS:
        return "num_dynamic is below 1 or above 8: a BlueGene/L router needs a dynamic VC";
    case SR_ERR_BGL_BUBBLE_BUFFER:
        return "a bubble VC (escape_bytes with the bubble escape, priority_bytes) is below 512 bytes: "
               "the bubble rule needs room for two full-sized packets";
    case SR_ERR_BGL_BUFFER:
        return "a VC buffer (dynamic_bytes, escape_bytes, priority_bytes) is not a multiple of 32 bytes, "
               "is below one full-sized packet (256 bytes), or is above 1 MiB";
    case SR_ERR_BGL_PACKET_SIZE:
        return "a packet size is outside 32..256 bytes or not a multiple of 32";
    case SR_ERR_BGL_OPTION:
        return "escape, escape_order or bubble_rule is not one of SR_BGL_ESCAPE_*, SR_BGL_ORDER_*, SR_BGL_RULE_*";
    case SR_ERR_BGL_VC_RANGE:
        return "a VC is not a VC of the configuration (or the requests do not fit 64 bits)";
    case SR_ERR_BGL_CUTOFF:
        return "a hint-bit register is outside its range (plus in [coordinate, k-1], minus in [0, coordinate], "
               "k-1 and 0 on a mesh)";
    case SR_ERR_BGL_HINT:
        return "hint bits that cannot occur: both directions of a dimension, a dimension without hops, "
               "a dimension with hops and no bit, or a mesh direction away from the destination";
    case SR_ERR_BGL_HEADER:
        return "a header field that BlueGene/L routing never sets (phase, inter, globals, vclass)";
    case SR_ERR_BGL_TOKENS:
        return "the VC has too few tokens for this move";
    case SR_ERR_BGL_STATE:
        return "token counters above the buffer, or not a multiple of 8 below it under the full-size rule";
    case SR_RESULT_COUNT: break;
    }
    return "unknown result";
}

/* >>cube ===============================================================
 * k-ary n-cube topologies
 * ====================================================================== */

/**
 * Which way a torus route goes when both ways round a ring are equally
 * long (an even radix k, the destination k/2 away).
 */
typedef enum sr_tie {
    SR_TIE_ALTERNATE = 0,  /**< the + way from an even coordinate, the - way
                                from an odd one: the routes split evenly over
                                both directions of every ring (the default) */
    SR_TIE_PLUS,           /**< always +, as in the torus merging example of
                                seed 004 Figure 4(b) */
    SR_TIE_MINUS           /**< always - */
} sr_tie;

/**
 * Description of a k-ary n-cube; a zero-initialised field means its default.
 *
 * Every dimension is a torus unless ``mesh[d]`` is nonzero.  The dateline of
 * a torus dimension is the link between coordinates ``dateline[d]-1`` and
 * ``dateline[d]`` (mod radix); the default 0 puts it on the wrap-around
 * link between radix-1 and 0.  ``tie`` chooses the direction of routes that
 * are equally long both ways round a ring (default SR_TIE_ALTERNATE).
 *
 * :paper: seed 000 Section 1.1 (mixed radix kx, ky, kz; each dimension a
 *     mesh or a torus), seed 001 "Topology"; seed 004 Figure 4(b) (the
 *     torus tie-break its merging shares need).
 */
typedef struct sr_topology_desc {
    int num_dims;                /**< number of dimensions, 1..SR_MAX_DIMS */
    int radix[SR_MAX_DIMS];      /**< radix k of each dimension, >= 2 */
    int mesh[SR_MAX_DIMS];       /**< nonzero: dimension d is a mesh (no wrap link) */
    int dateline[SR_MAX_DIMS];   /**< dateline position of a torus dimension, 0..k-1 */
    int tie;                     /**< an sr_tie: the direction of a k/2 route */
} sr_topology_desc;

/**
 * A validated topology (filled by sr_topology_init; read-only afterwards).
 *
 * Node ids are mixed-radix numbers with dimension 0 (x) the MOST
 * significant digit, so that the 4096-node global partitions selected by
 * destination[14:12] are slabs of whole yz planes, as on the Cray XT
 * ("the localities are split with yz planes", seed 001).
 */
typedef struct sr_topology {
    int num_dims;                 /**< number of dimensions n */
    int num_ports;                /**< ports per router: 2n + 1 */
    int proc_port;                /**< the processor port, 2n */
    int radix[SR_MAX_DIMS];       /**< radix of each dimension */
    int mesh[SR_MAX_DIMS];        /**< 1 if the dimension is a mesh, 0 if a torus */
    int dateline[SR_MAX_DIMS];    /**< dateline position (torus dimensions) */
    int tie;                      /**< the sr_tie of the description */
    uint32_t stride[SR_MAX_DIMS]; /**< id = sum of coord[d] * stride[d] */
    uint32_t num_nodes;           /**< number of nodes N */
    uint32_t num_partitions;      /**< global partitions in use: ceil(N / 4096) */
    uint32_t lut_entries;         /**< LUT entries stored: min(N, 4096) */
    uint32_t table_stride;        /**< entries per input port: 8 + lut_entries */
    uint32_t table_size;          /**< bytes of one router's tables (all ports) */
} sr_topology;

/* Validate a description and fill a topology: sr_topology_init with the
 * SeaStar limits (max_nodes = SR_MAX_NODES, tables = 1: the 15-bit node id
 * and the 4096-node partitions), sr_net_init without them. */
SR_API sr_result sr__topology_fill(sr_topology *t, const sr_topology_desc *d, uint64_t max_nodes, int tables) {
    sr_topology r;
    uint64_t n = 1;
    int i;
    if (!t || !d) return SR_ERR_NULL;
    if (d->num_dims < 1 || d->num_dims > SR_MAX_DIMS) return SR_ERR_DIMS;
    if (d->tie < SR_TIE_ALTERNATE || d->tie > SR_TIE_MINUS) return SR_ERR_TIE;
    memset(&r, 0, sizeof r);
    r.tie = d->tie;
    r.num_dims = d->num_dims;
    r.num_ports = 2 * d->num_dims + 1;
    r.proc_port = 2 * d->num_dims;
    for (i = d->num_dims - 1; i >= 0; i--) {
        if (d->radix[i] < 2) return SR_ERR_RADIX;
        if ((uint64_t)d->radix[i] > max_nodes) return tables ? SR_ERR_TOO_MANY_NODES : SR_ERR_NET_SIZE;
        if (d->dateline[i] < 0 || d->dateline[i] >= d->radix[i]) return SR_ERR_DATELINE;
        r.radix[i] = d->radix[i];
        r.mesh[i] = d->mesh[i] ? 1 : 0;
        r.dateline[i] = d->dateline[i];
        r.stride[i] = (uint32_t)n;
        n *= (uint64_t)d->radix[i];
        if (n > max_nodes) return tables ? SR_ERR_TOO_MANY_NODES : SR_ERR_NET_SIZE;
    }
    r.num_nodes = (uint32_t)n;
    if (tables && n > SR_LUT_ENTRIES && (SR_LUT_ENTRIES % r.stride[0]) != 0) return SR_ERR_PARTITION;
    r.num_partitions = (uint32_t)((n + SR_LUT_ENTRIES - 1) / SR_LUT_ENTRIES);
    r.lut_entries = n < SR_LUT_ENTRIES ? (uint32_t)n : SR_LUT_ENTRIES;
    r.table_stride = SR_GLUT_ENTRIES + r.lut_entries;
    r.table_size = (uint32_t)r.num_ports * r.table_stride;
    *t = r;
    return SR_OK;
}

/**
 * Validate a description and fill a topology.
 *
 * :param t: the topology to fill (untouched on error).
 * :param d: the description.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS (0 or more than SR_MAX_DIMS
 *     dimensions); SR_ERR_RADIX (a radix of 0 or 1); SR_ERR_TOO_MANY_NODES
 *     (more than 32768 nodes, the 15-bit node id); SR_ERR_DATELINE;
 *     SR_ERR_TIE (tie is not an sr_tie);
 *     SR_ERR_PARTITION (more than 4096 nodes and the product of the radices
 *     of dimensions 1..n-1 does not divide 4096, so a global partition
 *     would not be a set of whole yz planes and a GLUT entry could not
 *     follow dimension order).
 * :paper: seed 000 Section 1.1; seed 001 "Routing" (15-bit destination,
 *     partitions split with yz planes).
 */
SR_API sr_result sr_topology_init(sr_topology *t, const sr_topology_desc *d) {
    return sr__topology_fill(t, d, SR_MAX_NODES, 1);
}

/**
 * Coordinate of a node in one dimension.
 *
 * :param t: the topology.
 * :param node: node id, < t->num_nodes (asserted).
 * :param dim: dimension, < t->num_dims (asserted).
 * :returns: the coordinate, 0..radix-1.
 */
SR_API int sr_coord(const sr_topology *t, uint32_t node, int dim) {
    SR_ASSERT(node < t->num_nodes && dim >= 0 && dim < t->num_dims);
    return (int)((node / t->stride[dim]) % (uint32_t)t->radix[dim]);
}

/**
 * Node id to coordinates.
 *
 * :param t: the topology.
 * :param node: node id, < t->num_nodes (asserted).
 * :param coords: out, t->num_dims coordinates (coords[0] is x).
 */
SR_API void sr_node_coords(const sr_topology *t, uint32_t node, int *coords) {
    int d;
    SR_ASSERT(node < t->num_nodes);
    for (d = t->num_dims - 1; d >= 0; d--) {
        coords[d] = (int)(node % (uint32_t)t->radix[d]);
        node /= (uint32_t)t->radix[d];
    }
}

/**
 * Coordinates to node id.
 *
 * :param t: the topology.
 * :param coords: t->num_dims coordinates.
 * :returns: the node id, or SR_NO_NODE if a coordinate is out of range.
 */
SR_API uint32_t sr_node_id(const sr_topology *t, const int *coords) {
    uint32_t id = 0;
    int d;
    for (d = 0; d < t->num_dims; d++) {
        if (coords[d] < 0 || coords[d] >= t->radix[d]) return SR_NO_NODE;
        id += (uint32_t)coords[d] * t->stride[d];
    }
    return id;
}

/**
 * Port number of a direction.
 *
 * :param dim: dimension.
 * :param negative: 0 for the + direction, nonzero for the - direction.
 * :returns: 2*dim for +, 2*dim+1 for -.
 */
SR_API int sr_port(int dim, int negative) { return 2 * dim + (negative ? 1 : 0); }

/**
 * Dimension of a network port.
 *
 * :param port: a network port (not the processor port).
 * :returns: port / 2.
 */
SR_API int sr_port_dim(int port) { return port >> 1; }

/**
 * The port on the other end of a link: +d <-> -d.
 *
 * :param port: a network port.
 * :returns: port ^ 1 (the input port at the neighbour for a packet that
 *     leaves by ``port``; leaving by the input port itself is a 180-degree
 *     turn).
 */
SR_API int sr_port_opposite(int port) { return port ^ 1; }

/**
 * Short name of a port: "+x", "-x", "+y", "-y", "+z", "-z", "+u", "-u",
 * "+v", "-v", "+w", "-w", "+d6", "-d6", "+d7", "-d7", or "proc".
 *
 * :param t: the topology (for the processor port number).
 * :param port: a port.
 * :returns: a static string; "none" for SR_PORT_NONE, "?" for other values.
 */
SR_API const char *sr_port_name(const sr_topology *t, int port) {
    static const char *const names[2 * SR_MAX_DIMS] = {
        "+x", "-x", "+y", "-y", "+z", "-z", "+u", "-u",
        "+v", "-v", "+w", "-w", "+d6", "-d6", "+d7", "-d7" };
    if (port == t->proc_port) return "proc";
    if (port == SR_PORT_NONE) return "none";
    if (port < 0 || port >= t->proc_port) return "?";
    return names[port];
}

/**
 * Neighbour of a node through a network port.
 *
 * :param t: the topology.
 * :param node: node id, < t->num_nodes (asserted).
 * :param port: any port.
 * :returns: the neighbour's id, or SR_NO_NODE for the processor port, an
 *     invalid port, or a missing link at the edge of a mesh dimension.
 */
SR_API uint32_t sr_neighbor(const sr_topology *t, uint32_t node, int port) {
    int dim, c, k;
    SR_ASSERT(node < t->num_nodes);
    if (port < 0 || port >= t->proc_port) return SR_NO_NODE;
    dim = port >> 1;
    k = t->radix[dim];
    c = (int)((node / t->stride[dim]) % (uint32_t)k);
    if (port & 1) {
        if (c > 0) return node - t->stride[dim];
        return t->mesh[dim] ? SR_NO_NODE : node + (uint32_t)(k - 1) * t->stride[dim];
    }
    if (c < k - 1) return node + t->stride[dim];
    return t->mesh[dim] ? SR_NO_NODE : node - (uint32_t)(k - 1) * t->stride[dim];
}

/**
 * Whether the hop from coordinate ``c`` through ``port`` crosses the
 * dateline of that port's dimension.
 *
 * The dateline of dimension d at position p is the link between p-1 and p
 * (mod k); it exists only in a torus dimension.
 *
 * :param t: the topology.
 * :param port: a network port.
 * :param c: the coordinate, in the port's dimension, of the node the hop
 *     leaves from.
 * :returns: 1 if the hop crosses the dateline, else 0.
 * :paper: seed 000 Section 1.1 (VC datelines).
 */
SR_API int sr_crosses_dateline(const sr_topology *t, int port, int c) {
    int dim = port >> 1, k = t->radix[dim], p = t->dateline[dim];
    if (t->mesh[dim]) return 0;
    if (port & 1) return c == p;                 /* p -> p-1 */
    return (c + 1 == k ? 0 : c + 1) == p;        /* p-1 -> p */
}

/* >>net ================================================================
 * One network description for every topology
 *
 * An sr_net describes the routers of a network, their ports and the
 * channels between them, for five families:
 *
 *   SR_NET_CUBE       a k-ary n-cube (the sr_topology above: mixed radix,
 *                     each dimension a mesh or a torus), one terminal per
 *                     router (seed 004 Chapter 3);
 *   SR_NET_HYPERX     a HyperX / flattened butterfly: L dimensions of S_d
 *                     routers each, every dimension fully connected, T
 *                     terminals per router (seed 004 Sections 4.3.4, 4.3.6);
 *   SR_NET_DRAGONFLY  p terminals, a routers per group (fully connected),
 *                     h global channels per router, g groups
 *                     (seed 004 Section 4.3.5);
 *   SR_NET_CLOS       a folded Clos (fat tree) of L switch levels, with
 *                     down[l] down ports and up[l] up ports at level l
 *                     (seed 004 Section 4.3.3);
 *   SR_NET_BUTTERFLY  a k-ary n-fly: n stages of k^(n-1) switches of k
 *                     inputs and k outputs (seed 004 Section 4.3.2).
 *
 * Everything is computed from the description: no table is stored, so the
 * struct is the same size for a 16-router network and a 262,656-terminal
 * dragonfly.  Routers are numbered 0..num_routers-1 and terminals
 * 0..num_terminals-1.  A channel leaves a router by an output port; at the
 * other end it arrives on an input port of the same number space
 * (sr_net_neighbor returns both).  Every channel of the first four families
 * has a channel back on the same pair of ports; a butterfly's channels go
 * one way only, from stage s to stage s+1.
 *
 * Port layout, per family (each port has a kind, sr_net_port_info):
 *
 *   cube       2d = +d, 2d+1 = -d (SR_PORT_DIM), 2n = the terminal
 *              (as the sr_topology above: the input port is named after the
 *              link, so +d arrives on the neighbour's -d port and back);
 *   hyperx     0..T-1 terminals, then for each dimension d the S_d - 1
 *              ports to the other routers of the dimension, in increasing
 *              coordinate (SR_PORT_DIM, index = the coordinate reached);
 *   dragonfly  0..p-1 terminals, then a-1 local ports to the other routers
 *              of the group in increasing order (SR_PORT_LOCAL), then h
 *              global ports (SR_PORT_GLOBAL);
 *   clos       0..down[l]-1 down ports (terminals at level 0), then
 *              up[l] up ports (SR_PORT_UP); the top level has none;
 *   butterfly  0..k-1 inputs (terminals at stage 0, else SR_PORT_UP: they
 *              receive from the previous stage), k..2k-1 outputs
 *              (terminals at the last stage, else SR_PORT_DOWN).
 *
 * Router numbering, per family (sr_net_router_coords gives the parts):
 *
 *   cube       mixed radix, dimension 0 the MOST significant digit (the
 *              SeaStar order of sr_topology);
 *   hyperx     mixed radix, dimension 0 the LEAST significant digit: the
 *              order of Eq 4.5, where router i's digit d-1 is its
 *              coordinate in dimension d (HyperX dimension d-1);
 *   dragonfly  group * a + the router's index in its group;
 *   clos       level by level from level 0; inside level l,
 *              A * up_span[l] + B, where A names the level-l subtree (the
 *              terminals A * down[0]*...*down[l] onwards) and B the switch
 *              inside it (the up ports taken from level 0 to level l);
 *   butterfly  stage * k^(n-1) + row.
 *
 * Terminal t sends from router t / concentration, port t % concentration
 * (the cube: port 2n), and receives there too, except in a butterfly: it
 * sends into stage 0 (row t / k, input t % k) and receives from the last
 * stage (row t / k, output k + t % k).
 * ====================================================================== */

/** Most ports of one router of an sr_net (the largest switch allocator of
 *  seastar_arb.h is 512 x 512). */
#define SR_NET_MAX_PORTS 512
/** Most switch levels of a folded Clos. */
#define SR_MAX_LEVELS 8
/** Most stages of a butterfly. */
#define SR_MAX_STAGES 30
/** Most routers, and most terminals, of an sr_net (2^30). */
#define SR_NET_MAX_ROUTERS 0x40000000u

/** The family of a network description. */
typedef enum sr_net_kind {
    SR_NET_CUBE = 0,      /**< k-ary n-cube (mesh or torus per dimension) */
    SR_NET_HYPERX,        /**< HyperX / flattened butterfly */
    SR_NET_DRAGONFLY,     /**< dragonfly */
    SR_NET_CLOS,          /**< folded Clos (fat tree) */
    SR_NET_BUTTERFLY,     /**< k-ary n-fly (unidirectional) */
    SR_NET_KIND_COUNT     /**< number of families (not a family) */
} sr_net_kind;

/**
 * How a dragonfly's global channels are wired between groups.
 *
 * Group i numbers its a*h global channels c = r*h + j (router r of the
 * group, its global port j).  With m = a*h/(g-1) channels between each
 * pair of groups, channel c belongs to the t-th other group, t = c / m:
 *
 * - SR_DF_CONSECUTIVE: the other groups in increasing order (t-th other
 *   group = t if t < i, else t + 1); group 0's first channels go to group
 *   1, group 1's first channels to group 0.
 * - SR_DF_PALMTREE: the groups before i, going down: the t-th is group
 *   (i - t - 1) mod g, so every group's channel 0 goes to the group just
 *   before it and its last channels to the group just after it.
 *
 * Both are involutions: the channel at the far end leads back.
 */
typedef enum sr_df_arrangement {
    SR_DF_CONSECUTIVE = 0,  /**< t-th other group in increasing order (default) */
    SR_DF_PALMTREE,         /**< t-th other group is (i - t - 1) mod g */
    SR_DF_ARRANGEMENT_COUNT /**< number of arrangements (not one) */
} sr_df_arrangement;

/** The kind of a router port. */
typedef enum sr_port_kind {
    SR_PORT_KIND_NONE = 0,  /**< not a port of this router */
    SR_PORT_TERMINAL,       /**< to or from a terminal */
    SR_PORT_DIM,            /**< a dimension of a cube or a HyperX */
    SR_PORT_LOCAL,          /**< a dragonfly channel inside the group */
    SR_PORT_GLOBAL,         /**< a dragonfly channel to another group */
    SR_PORT_UP,             /**< Clos: towards the top level; butterfly:
                                 an input from the previous stage */
    SR_PORT_DOWN,           /**< Clos: towards the terminals; butterfly:
                                 an output to the next stage */
    SR_PORT_KIND_COUNT      /**< number of kinds (not a kind) */
} sr_port_kind;

/** HyperX / flattened butterfly parameters (L, S, T of seed 004 Section
 *  4.3.6, with K = 1: one channel between two routers of a dimension). */
typedef struct sr_hyperx_desc {
    int num_dims;            /**< L, the number of dimensions, 1..SR_MAX_DIMS */
    int size[SR_MAX_DIMS];   /**< S_d, routers in dimension d, >= 2 */
    int terminals;           /**< T, terminals per router (0 means 1) */
} sr_hyperx_desc;

/** Dragonfly parameters (seed 004 Section 4.3.5). */
typedef struct sr_dragonfly_desc {
    int p;            /**< terminals per router, >= 1 */
    int a;            /**< routers per group, >= 1 */
    int h;            /**< global channels per router, >= 1 */
    int g;            /**< groups, 2..a*h+1 with g-1 dividing a*h (0 means
                           the maximum a*h+1) */
    int arrangement;  /**< an sr_df_arrangement (0: SR_DF_CONSECUTIVE) */
} sr_dragonfly_desc;

/** Folded Clos parameters: switch level 0 holds the terminals, level
 *  levels-1 is the top. */
typedef struct sr_clos_desc {
    int levels;               /**< switch levels, 1..SR_MAX_LEVELS */
    int down[SR_MAX_LEVELS];  /**< down ports of a level-l switch (terminals
                                   at level 0), >= 1 */
    int up[SR_MAX_LEVELS];    /**< up ports of a level-l switch, >= 1 below
                                   the top level, 0 at the top */
} sr_clos_desc;

/** Butterfly (k-ary n-fly) parameters. */
typedef struct sr_butterfly_desc {
    int k;  /**< switch radix (inputs = outputs = k), >= 2 */
    int n;  /**< stages, 1..SR_MAX_STAGES; k^n terminals */
} sr_butterfly_desc;

/**
 * Description of a network: ``kind`` chooses which of the other members is
 * read.  A zero-initialised field means its default (see each member).
 */
typedef struct sr_net_desc {
    int kind;                     /**< an sr_net_kind */
    sr_topology_desc cube;        /**< SR_NET_CUBE: as for sr_topology_init */
    sr_hyperx_desc hyperx;        /**< SR_NET_HYPERX */
    sr_dragonfly_desc dragonfly;  /**< SR_NET_DRAGONFLY */
    sr_clos_desc clos;            /**< SR_NET_CLOS */
    sr_butterfly_desc butterfly;  /**< SR_NET_BUTTERFLY */
} sr_net_desc;

/**
 * A validated network (filled by sr_net_init; read-only afterwards).
 *
 * The derived fields are what the neighbour functions need; the
 * description, with its defaults applied, is kept in ``desc``.
 */
typedef struct sr_net {
    int kind;                    /**< the sr_net_kind */
    uint32_t num_routers;        /**< routers */
    uint32_t num_terminals;      /**< terminals */
    int radix;                   /**< most ports on any router */
    int concentration;           /**< terminals per router that has any
                                      (cube 1, HyperX T, dragonfly p, Clos
                                      down[0], butterfly k) */
    sr_net_desc desc;            /**< the description: its family's member
                                      with defaults applied; the entries past
                                      its dimensions or levels and the other
                                      members zero */
    sr_topology cube;            /**< SR_NET_CUBE: the topology (its table
                                      fields are meaningful only when
                                      sr_topology_init accepts the same
                                      description) */
    uint32_t stride[SR_MAX_DIMS];     /**< HyperX: router id = sum of
                                           coordinate[d] * stride[d]
                                           (dimension 0 least significant) */
    int port_base[SR_MAX_DIMS + 1];   /**< HyperX: first port of dimension d;
                                           port_base[L] = radix */
    int df_links;                     /**< dragonfly: channels between each
                                           pair of groups, a*h/(g-1) */
    uint32_t level_first[SR_MAX_LEVELS + 1]; /**< Clos: id of the first
                                           router of level l (and the total) */
    uint32_t up_span[SR_MAX_LEVELS];  /**< Clos: up[0] * ... * up[l-1] */
    uint32_t fly_rows;                /**< butterfly: switches per stage, k^(n-1) */
    uint32_t fly_pow[SR_MAX_STAGES];  /**< butterfly: k^j */
} sr_net;

/** What a port is: its kind and where it leads, from sr_net_port_info. */
typedef struct sr_port_info {
    int kind;   /**< an sr_port_kind (SR_PORT_KIND_NONE: no such port) */
    int dim;    /**< SR_PORT_DIM: the dimension; SR_PORT_UP/DOWN: the level
                     (Clos) or stage (butterfly) of this router; else -1 */
    int index;  /**< cube: 0 for +, 1 for -; HyperX: the coordinate reached;
                     local: the index in the group of the router reached;
                     global: the group's channel number r*h + j; terminal,
                     up, down: the port's number among its kind */
} sr_port_info;

/**
 * Name of a network family.
 *
 * :param kind: an sr_net_kind.
 * :returns: "cube", "hyperx", "dragonfly", "clos", "butterfly"; "?" for
 *     other values.
 */
SR_API const char *sr_net_kind_name(int kind) {
    switch (kind) {
    case SR_NET_CUBE: return "cube";
    case SR_NET_HYPERX: return "hyperx";
    case SR_NET_DRAGONFLY: return "dragonfly";
    case SR_NET_CLOS: return "clos";
    case SR_NET_BUTTERFLY: return "butterfly";
    default: return "?";
    }
}

/**
 * Name of a port kind.
 *
 * :param kind: an sr_port_kind.
 * :returns: "none", "terminal", "dim", "local", "global", "up", "down";
 *     "?" for other values.
 */
SR_API const char *sr_port_kind_name(int kind) {
    switch (kind) {
    case SR_PORT_KIND_NONE: return "none";
    case SR_PORT_TERMINAL: return "terminal";
    case SR_PORT_DIM: return "dim";
    case SR_PORT_LOCAL: return "local";
    case SR_PORT_GLOBAL: return "global";
    case SR_PORT_UP: return "up";
    case SR_PORT_DOWN: return "down";
    default: return "?";
    }
}

/* The description as sr_net keeps it: the member of its family with every
 * zero "default" field replaced by its default (the one place defaults are
 * applied), the entries past its dimensions or levels and the other
 * families' members zero, so that sr_net_check sees any change. */
SR_API sr_net_desc sr__net_desc_defaults(const sr_net_desc *d) {
    sr_net_desc r;
    int i;
    memset(&r, 0, sizeof r);
    r.kind = d->kind;
    switch (d->kind) {
    case SR_NET_CUBE:
        r.cube.num_dims = d->cube.num_dims;
        r.cube.tie = d->cube.tie;
        for (i = 0; i < d->cube.num_dims && i < SR_MAX_DIMS; i++) {
            r.cube.radix[i] = d->cube.radix[i];
            r.cube.mesh[i] = d->cube.mesh[i] ? 1 : 0;
            r.cube.dateline[i] = d->cube.dateline[i];
        }
        break;
    case SR_NET_HYPERX:
        r.hyperx.num_dims = d->hyperx.num_dims;
        r.hyperx.terminals = d->hyperx.terminals ? d->hyperx.terminals : 1;
        for (i = 0; i < d->hyperx.num_dims && i < SR_MAX_DIMS; i++) r.hyperx.size[i] = d->hyperx.size[i];
        break;
    case SR_NET_DRAGONFLY:
        r.dragonfly = d->dragonfly;
        if (r.dragonfly.g == 0 && r.dragonfly.a > 0 && r.dragonfly.h > 0 &&
            (uint64_t)r.dragonfly.a * (uint64_t)r.dragonfly.h < SR_NET_MAX_ROUTERS)
            r.dragonfly.g = r.dragonfly.a * r.dragonfly.h + 1;
        break;
    case SR_NET_CLOS:
        r.clos.levels = d->clos.levels;
        for (i = 0; i < d->clos.levels && i < SR_MAX_LEVELS; i++) {
            r.clos.down[i] = d->clos.down[i];
            r.clos.up[i] = d->clos.up[i];
        }
        break;
    case SR_NET_BUTTERFLY: r.butterfly = d->butterfly; break;
    default: break;
    }
    return r;
}

SR_API sr_result sr__net_init_hyperx(sr_net *r) {
    const sr_hyperx_desc *x = &r->desc.hyperx;
    uint64_t n = 1;
    int d, ports;
    if (x->num_dims < 1 || x->num_dims > SR_MAX_DIMS) return SR_ERR_HX_SHAPE;
    if (x->terminals < 1) return SR_ERR_TERMINALS;
    if (x->terminals > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
    ports = x->terminals;
    for (d = 0; d < x->num_dims; d++) {
        if (x->size[d] < 2) return SR_ERR_HX_SHAPE;
        if (x->size[d] > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
        r->stride[d] = (uint32_t)n;
        r->port_base[d] = ports;
        ports += x->size[d] - 1;
        if (ports > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
        n *= (uint64_t)x->size[d];
        if (n > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    }
    r->port_base[x->num_dims] = ports;
    if (n * (uint64_t)x->terminals > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    r->num_routers = (uint32_t)n;
    r->num_terminals = (uint32_t)n * (uint32_t)x->terminals;
    r->radix = ports;
    r->concentration = x->terminals;
    return SR_OK;
}

SR_API sr_result sr__net_init_dragonfly(sr_net *r) {
    const sr_dragonfly_desc *f = &r->desc.dragonfly;
    uint64_t ah, routers;
    if (f->p < 1) return SR_ERR_TERMINALS;
    if (f->a < 1 || f->h < 1) return SR_ERR_DF_SHAPE;
    if (f->arrangement < 0 || f->arrangement >= SR_DF_ARRANGEMENT_COUNT) return SR_ERR_DF_ARRANGEMENT;
    if ((uint64_t)f->p + (uint64_t)f->a - 1 + (uint64_t)f->h > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
    ah = (uint64_t)f->a * (uint64_t)f->h;
    if (f->g < 2 || (uint64_t)f->g > ah + 1 || ah % (uint64_t)(f->g - 1) != 0) return SR_ERR_DF_GROUPS;
    routers = (uint64_t)f->a * (uint64_t)f->g;
    if (routers * (uint64_t)f->p > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    r->num_routers = (uint32_t)routers;
    r->num_terminals = (uint32_t)(routers * (uint64_t)f->p);
    r->radix = f->p + f->a - 1 + f->h;
    r->concentration = f->p;
    r->df_links = (int)(ah / (uint64_t)(f->g - 1));
    return SR_OK;
}

SR_API sr_result sr__net_init_clos(sr_net *r) {
    const sr_clos_desc *c = &r->desc.clos;
    uint64_t terms = 1, first = 0;
    int l, L = c->levels;
    if (L < 1 || L > SR_MAX_LEVELS) return SR_ERR_CLOS_LEVELS;
    for (l = 0; l < L; l++) {
        if (c->down[l] < 1 || (l < L - 1 && c->up[l] < 1) || (l == L - 1 && c->up[l] != 0))
            return SR_ERR_CLOS_PORTS;
        if ((uint64_t)c->down[l] + (uint64_t)c->up[l] > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
        if (c->down[l] + c->up[l] > r->radix) r->radix = c->down[l] + c->up[l];
        terms *= (uint64_t)c->down[l];
        if (terms > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    }
    /* Level l holds (down[l+1] * ... * down[L-1]) * (up[0] * ... * up[l-1])
     * switches: the extended generalized fat tree XGFT(L; down; 1, up). */
    for (l = 0; l < L; l++) {
        uint64_t above = 1, span = 1;
        int j;
        for (j = l + 1; j < L; j++) above *= (uint64_t)c->down[j];
        for (j = 0; j < l; j++) {
            span *= (uint64_t)c->up[j];
            if (span > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
        }
        r->level_first[l] = (uint32_t)first;
        r->up_span[l] = (uint32_t)span;
        first += above * span;
        if (first > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    }
    r->level_first[L] = (uint32_t)first;
    r->num_routers = (uint32_t)first;
    r->num_terminals = (uint32_t)terms;
    r->concentration = c->down[0];
    return SR_OK;
}

SR_API sr_result sr__net_init_butterfly(sr_net *r) {
    const sr_butterfly_desc *b = &r->desc.butterfly;
    uint64_t pw = 1;
    int j;
    if (b->k < 2 || b->n < 1 || b->n > SR_MAX_STAGES) return SR_ERR_FLY_SHAPE;
    if (2 * (uint64_t)b->k > SR_NET_MAX_PORTS) return SR_ERR_PORT_LIMIT;
    for (j = 0; j < b->n; j++) {
        r->fly_pow[j] = (uint32_t)pw;
        pw *= (uint64_t)b->k;
        if (pw > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    }
    r->fly_rows = r->fly_pow[b->n - 1];
    if ((uint64_t)r->fly_rows * (uint64_t)b->n > SR_NET_MAX_ROUTERS) return SR_ERR_NET_SIZE;
    r->num_routers = r->fly_rows * (uint32_t)b->n;
    r->num_terminals = (uint32_t)pw;
    r->radix = 2 * b->k;
    r->concentration = b->k;
    return SR_OK;
}

/**
 * Validate a network description and fill a network.
 *
 * :param net: the network to fill (untouched on error).
 * :param d: the description; zero fields take their defaults.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_KIND; for a cube, the errors of
 *     sr_topology_init except that the node limit is SR_NET_MAX_ROUTERS
 *     (SR_ERR_NET_SIZE) and no partition rule applies; SR_ERR_TERMINALS;
 *     SR_ERR_HX_SHAPE; SR_ERR_DF_SHAPE; SR_ERR_DF_GROUPS (g outside
 *     2..a*h+1, or the a*h global channels of a group cannot be spread
 *     evenly over the g-1 other groups); SR_ERR_DF_ARRANGEMENT;
 *     SR_ERR_CLOS_LEVELS; SR_ERR_CLOS_PORTS; SR_ERR_FLY_SHAPE;
 *     SR_ERR_PORT_LIMIT (a router with more than SR_NET_MAX_PORTS ports);
 *     SR_ERR_NET_SIZE (more than SR_NET_MAX_ROUTERS routers or terminals).
 * :paper: seed 004 Chapter 3 (k-ary n-cube), Sections 4.3.2 (butterfly),
 *     4.3.3 (folded Clos), 4.3.4 (flattened butterfly), 4.3.5
 *     (dragonfly), 4.3.6 (HyperX).
 */
SR_API sr_result sr_net_init(sr_net *net, const sr_net_desc *d) {
    sr_net r;
    sr_result e;
    if (!net || !d) return SR_ERR_NULL;
    memset(&r, 0, sizeof r);
    r.desc = sr__net_desc_defaults(d);
    r.kind = d->kind;
    switch (d->kind) {
    case SR_NET_CUBE:
        e = sr__topology_fill(&r.cube, &r.desc.cube, SR_NET_MAX_ROUTERS, 0);
        if (e == SR_OK) {
            r.num_routers = r.num_terminals = r.cube.num_nodes;
            r.radix = r.cube.num_ports;
            r.concentration = 1;
        }
        break;
    case SR_NET_HYPERX: e = sr__net_init_hyperx(&r); break;
    case SR_NET_DRAGONFLY: e = sr__net_init_dragonfly(&r); break;
    case SR_NET_CLOS: e = sr__net_init_clos(&r); break;
    case SR_NET_BUTTERFLY: e = sr__net_init_butterfly(&r); break;
    default: e = SR_ERR_KIND; break;
    }
    if (e != SR_OK) return e;
    *net = r;
    return SR_OK;
}

/* A zero description of one family: where every builder starts. */
SR_API void sr__desc_start(sr_net_desc *d, int kind) {
    memset(d, 0, sizeof *d);
    d->kind = kind;
}

/**
 * Fill a k-ary n-cube description (datelines 0, the default tie-break; the
 * other fields zero).  sr_net_init validates the values.
 *
 * :param d: out, the description.
 * :param num_dims: dimensions, 1..SR_MAX_DIMS.
 * :param radix: num_dims radices.
 * :param mesh: num_dims flags, nonzero for a mesh dimension, or NULL (all
 *     tori).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DIMS (num_dims out of range: the
 *     arrays are not read).
 * :paper: seed 004 Section 3.3.
 */
SR_API sr_result sr_net_desc_cube(sr_net_desc *d, int num_dims, const int *radix, const int *mesh) {
    int i;
    if (!d || !radix) return SR_ERR_NULL;
    if (num_dims < 1 || num_dims > SR_MAX_DIMS) return SR_ERR_DIMS;
    sr__desc_start(d, SR_NET_CUBE);
    d->cube.num_dims = num_dims;
    for (i = 0; i < num_dims; i++) {
        d->cube.radix[i] = radix[i];
        d->cube.mesh[i] = mesh ? mesh[i] : 0;
    }
    return SR_OK;
}

/**
 * Fill a HyperX description (the other fields zero).  sr_net_init
 * validates the values.
 *
 * :param d: out, the description.
 * :param num_dims: L, 1..SR_MAX_DIMS.
 * :param size: L sizes S_d.
 * :param terminals: T, terminals per router.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_HX_SHAPE (num_dims out of range: the
 *     array is not read).
 * :paper: seed 004 Section 4.3.6.
 */
SR_API sr_result sr_net_desc_hyperx(sr_net_desc *d, int num_dims, const int *size, int terminals) {
    int i;
    if (!d || !size) return SR_ERR_NULL;
    if (num_dims < 1 || num_dims > SR_MAX_DIMS) return SR_ERR_HX_SHAPE;
    sr__desc_start(d, SR_NET_HYPERX);
    d->hyperx.num_dims = num_dims;
    d->hyperx.terminals = terminals;
    for (i = 0; i < num_dims; i++) d->hyperx.size[i] = size[i];
    return SR_OK;
}

/**
 * Fill a dragonfly description (the other fields zero).  sr_net_init
 * validates the values.
 *
 * :param d: out, the description.
 * :param p: terminals per router.
 * :param a: routers per group.
 * :param h: global channels per router.
 * :param g: groups (0: the maximum a*h + 1).
 * :param arrangement: an sr_df_arrangement.
 * :returns: SR_OK; SR_ERR_NULL.
 * :paper: seed 004 Section 4.3.5.
 */
SR_API sr_result sr_net_desc_dragonfly(sr_net_desc *d, int p, int a, int h, int g, int arrangement) {
    if (!d) return SR_ERR_NULL;
    sr__desc_start(d, SR_NET_DRAGONFLY);
    d->dragonfly.p = p;
    d->dragonfly.a = a;
    d->dragonfly.h = h;
    d->dragonfly.g = g;
    d->dragonfly.arrangement = arrangement;
    return SR_OK;
}

/**
 * Fill a folded Clos description (the other fields zero).  sr_net_init
 * validates the values.
 *
 * :param d: out, the description.
 * :param levels: switch levels, 1..SR_MAX_LEVELS.
 * :param down: ``levels`` down port counts (terminals at level 0).
 * :param up: ``levels`` up port counts (0 at the top).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_CLOS_LEVELS (levels out of range:
 *     the arrays are not read).
 * :paper: seed 004 Section 4.3.3.
 */
SR_API sr_result sr_net_desc_clos(sr_net_desc *d, int levels, const int *down, const int *up) {
    int l;
    if (!d || !down || !up) return SR_ERR_NULL;
    if (levels < 1 || levels > SR_MAX_LEVELS) return SR_ERR_CLOS_LEVELS;
    sr__desc_start(d, SR_NET_CLOS);
    d->clos.levels = levels;
    for (l = 0; l < levels; l++) {
        d->clos.down[l] = down[l];
        d->clos.up[l] = up[l];
    }
    return SR_OK;
}

/**
 * Fill a k-ary n-fly description (the other fields zero).  sr_net_init
 * validates the values.
 *
 * :param d: out, the description.
 * :param k: switch radix.
 * :param n: stages.
 * :returns: SR_OK; SR_ERR_NULL.
 * :paper: seed 004 Section 4.3.2.
 */
SR_API sr_result sr_net_desc_butterfly(sr_net_desc *d, int k, int n) {
    if (!d) return SR_ERR_NULL;
    sr__desc_start(d, SR_NET_BUTTERFLY);
    d->butterfly.k = k;
    d->butterfly.n = n;
    return SR_OK;
}

/* Clos: the level of a router (the top level for an id past the last
 * router, so that a bad id never reads past level_first). */
SR_API int sr__clos_level(const sr_net *net, uint32_t router) {
    int l = 0;
    while (l < net->desc.clos.levels - 1 && router >= net->level_first[l + 1]) l++;
    return l;
}

/**
 * Number of ports of a router (ports are 0..n-1).
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :returns: the router's ports; net->radix except at the top level of a
 *     Clos whose top switches have fewer ports than the others.
 */
SR_API int sr_net_num_ports(const sr_net *net, uint32_t router) {
    SR_ASSERT(router < net->num_routers);
    if (net->kind == SR_NET_CLOS) {
        int l = sr__clos_level(net, router);
        return net->desc.clos.down[l] + net->desc.clos.up[l];
    }
    return net->radix;
}

/**
 * Dragonfly: the group a global channel leads to, and the channel's number
 * in that group (the channel back).
 *
 * :param net: a dragonfly.
 * :param group: a group, < g (asserted).
 * :param channel: the group's global channel r*h + j, < a*h (asserted).
 * :param back: out (may be NULL), the channel number at the far group.
 * :returns: the group reached.
 * :paper: seed 004 Section 4.3.5 (global channels; the arrangement is not
 *     specified there, see sr_df_arrangement).
 */
SR_API uint32_t sr_df_global_target(const sr_net *net, uint32_t group, int channel, int *back) {
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    int m = net->df_links, t = channel / m, rest = channel % m, g = f->g;
    uint32_t tg;
    SR_ASSERT(net->kind == SR_NET_DRAGONFLY && group < (uint32_t)g && channel >= 0 && channel < f->a * f->h);
    if (f->arrangement == SR_DF_PALMTREE) {
        tg = (uint32_t)(((int)group - t - 1 + g) % g);
        if (back) *back = (g - 2 - t) * m + rest;
    } else {
        tg = (uint32_t)t < group ? (uint32_t)t : (uint32_t)t + 1;
        if (back) *back = (int)(group < tg ? group : group - 1) * m + rest;
    }
    return tg;
}

/**
 * Dragonfly: the global channels of a group that lead to another group.
 *
 * They are ``first``, ``first`` + 1, ... ``first`` + net->df_links - 1;
 * channel c leaves router c / h of the group by its global port c % h.
 *
 * :param net: a dragonfly.
 * :param group: the group the channels leave, < g (asserted).
 * :param target: another group, < g and != group (asserted).
 * :returns: the first channel, r*h + j.
 */
SR_API int sr_df_global_first(const sr_net *net, uint32_t group, uint32_t target) {
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    int t;
    SR_ASSERT(net->kind == SR_NET_DRAGONFLY && group < (uint32_t)f->g && target < (uint32_t)f->g && target != group);
    if (f->arrangement == SR_DF_PALMTREE) t = ((int)group - (int)target - 1 + 2 * f->g) % f->g;
    else t = (int)(target < group ? target : target - 1);
    return t * net->df_links;
}

/**
 * Neighbour through an output port.
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :param port: any int.
 * :param in_port: out (may be NULL), the port the channel arrives on at the
 *     neighbour; untouched when there is none.
 * :returns: the router the channel leads to, or SR_NO_NODE for a terminal
 *     port, a missing link (edge of a mesh dimension), a butterfly input,
 *     or a port outside 0..sr_net_num_ports-1.
 * :paper: seed 004 Chapter 3 and Section 4.3 (each topology's wiring);
 *     Eq 4.5 for the flattened butterfly.
 */
SR_API uint32_t sr_net_neighbor(const sr_net *net, uint32_t router, int port, int *in_port) {
    uint32_t v;
    SR_ASSERT(router < net->num_routers);
    switch (net->kind) {
    case SR_NET_CUBE:
        v = sr_neighbor(&net->cube, router, port);
        if (v != SR_NO_NODE && in_port) *in_port = port ^ 1;
        return v;
    case SR_NET_HYPERX: {
        const sr_hyperx_desc *x = &net->desc.hyperx;
        int d, c, c2, j;
        if (port < x->terminals || port >= net->radix) return SR_NO_NODE;
        for (d = 0; port >= net->port_base[d + 1]; d++) {}
        c = (int)((router / net->stride[d]) % (uint32_t)x->size[d]);
        j = port - net->port_base[d];
        c2 = j < c ? j : j + 1;
        if (in_port) *in_port = net->port_base[d] + (c < c2 ? c : c - 1);
        return router - (uint32_t)c * net->stride[d] + (uint32_t)c2 * net->stride[d];
    }
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &net->desc.dragonfly;
        uint32_t group = router / (uint32_t)f->a;
        int idx = (int)(router % (uint32_t)f->a), j;
        if (port < f->p || port >= net->radix) return SR_NO_NODE;
        j = port - f->p;
        if (j < f->a - 1) {                      /* local */
            int idx2 = j < idx ? j : j + 1;
            if (in_port) *in_port = f->p + (idx < idx2 ? idx : idx - 1);
            return group * (uint32_t)f->a + (uint32_t)idx2;
        } else {                                 /* global */
            int back;
            uint32_t tg = sr_df_global_target(net, group, idx * f->h + (j - (f->a - 1)), &back);
            if (in_port) *in_port = f->p + f->a - 1 + back % f->h;
            return tg * (uint32_t)f->a + (uint32_t)(back / f->h);
        }
    }
    case SR_NET_CLOS: {
        const sr_clos_desc *c = &net->desc.clos;
        int l = sr__clos_level(net, router);
        uint32_t i = router - net->level_first[l], span = net->up_span[l];
        uint32_t A = i / span, B = i % span;
        if (port < 0 || port >= c->down[l] + c->up[l]) return SR_NO_NODE;
        if (port >= c->down[l]) {                /* up: drop a_{l+1}, add b_l */
            uint32_t u = (uint32_t)(port - c->down[l]), dn = (uint32_t)c->down[l + 1];
            if (in_port) *in_port = (int)(A % dn);
            return net->level_first[l + 1] + (A / dn) * net->up_span[l + 1] + u * span + B;
        }
        if (l == 0) return SR_NO_NODE;           /* a terminal */
        {                                        /* down: add a_l, drop b_{l-1} */
            uint32_t lspan = net->up_span[l - 1], b = B / lspan;
            if (in_port) *in_port = c->down[l - 1] + (int)b;
            return net->level_first[l - 1] + (A * (uint32_t)c->down[l] + (uint32_t)port) * lspan + B % lspan;
        }
    }
    case SR_NET_BUTTERFLY: {
        const sr_butterfly_desc *b = &net->desc.butterfly;
        uint32_t s = router / net->fly_rows, row = router % net->fly_rows, pw, digit;
        int j;
        if (port < b->k || port >= 2 * b->k || (int)s == b->n - 1) return SR_NO_NODE;
        j = port - b->k;
        pw = net->fly_pow[b->n - 2 - (int)s];
        digit = (row / pw) % (uint32_t)b->k;
        if (in_port) *in_port = (int)digit;
        return (s + 1) * net->fly_rows + row - digit * pw + (uint32_t)j * pw;
    }
    default: return SR_NO_NODE;
    }
}

/**
 * The router and port where a terminal injects its packets.
 *
 * :param net: the network.
 * :param terminal: a terminal, < net->num_terminals (asserted).
 * :param port: out (may be NULL), the router's port of the terminal.
 * :returns: the router.
 */
SR_API uint32_t sr_net_terminal_router(const sr_net *net, uint32_t terminal, int *port) {
    SR_ASSERT(terminal < net->num_terminals);
    if (net->kind == SR_NET_CUBE) {
        if (port) *port = net->cube.proc_port;
        return terminal;
    }
    if (port) *port = (int)(terminal % (uint32_t)net->concentration);
    return terminal / (uint32_t)net->concentration;
}

/**
 * The router and port where a terminal receives its packets: the router
 * of sr_net_terminal_router, except in a butterfly, whose terminals send
 * into stage 0 and receive from the last stage.
 *
 * :param net: the network.
 * :param terminal: a terminal, < net->num_terminals (asserted).
 * :param port: out (may be NULL), the router's port of the terminal.
 * :returns: the router.
 */
SR_API uint32_t sr_net_eject_router(const sr_net *net, uint32_t terminal, int *port) {
    SR_ASSERT(terminal < net->num_terminals);
    if (net->kind == SR_NET_BUTTERFLY) {
        uint32_t k = (uint32_t)net->desc.butterfly.k;
        if (port) *port = (int)(k + terminal % k);
        return (uint32_t)(net->desc.butterfly.n - 1) * net->fly_rows + terminal / k;
    }
    return sr_net_terminal_router(net, terminal, port);
}

/**
 * The terminal attached to a router's port.
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :param port: any int.
 * :returns: the terminal, or SR_NO_NODE if the port is not a terminal port.
 */
SR_API uint32_t sr_net_port_terminal(const sr_net *net, uint32_t router, int port) {
    uint32_t conc = (uint32_t)net->concentration;
    SR_ASSERT(router < net->num_routers);
    switch (net->kind) {
    case SR_NET_CUBE: return port == net->cube.proc_port ? router : SR_NO_NODE;
    case SR_NET_CLOS:
        if (router >= net->level_first[1]) return SR_NO_NODE;
        break;
    case SR_NET_BUTTERFLY: {
        uint32_t s = router / net->fly_rows, row = router % net->fly_rows;
        int k = net->desc.butterfly.k;
        if (s == 0 && port >= 0 && port < k) return row * (uint32_t)k + (uint32_t)port;
        if ((int)s == net->desc.butterfly.n - 1 && port >= k && port < 2 * k)
            return row * (uint32_t)k + (uint32_t)(port - k);
        return SR_NO_NODE;
    }
    default: break;
    }
    if (port < 0 || port >= (int)conc) return SR_NO_NODE;
    return router * conc + (uint32_t)port;
}

/**
 * Kind of a port, and where it leads.
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :param port: any int.
 * :returns: the port's kind, dimension or level, and index (see
 *     sr_port_info); kind SR_PORT_KIND_NONE for a port the router does not
 *     have.  A mesh edge port is still SR_PORT_DIM (sr_net_neighbor says
 *     that it has no link).
 */
SR_API sr_port_info sr_net_port_info(const sr_net *net, uint32_t router, int port) {
    sr_port_info r;
    r.kind = SR_PORT_KIND_NONE; r.dim = -1; r.index = 0;
    SR_ASSERT(router < net->num_routers);
    if (port < 0 || port >= sr_net_num_ports(net, router)) return r;
    switch (net->kind) {
    case SR_NET_CUBE:
        if (port == net->cube.proc_port) { r.kind = SR_PORT_TERMINAL; break; }
        r.kind = SR_PORT_DIM; r.dim = port >> 1; r.index = port & 1;
        break;
    case SR_NET_HYPERX: {
        int d, c;
        if (port < net->concentration) { r.kind = SR_PORT_TERMINAL; r.index = port; break; }
        for (d = 0; port >= net->port_base[d + 1]; d++) {}
        c = (int)((router / net->stride[d]) % (uint32_t)net->desc.hyperx.size[d]);
        r.kind = SR_PORT_DIM; r.dim = d;
        r.index = port - net->port_base[d] < c ? port - net->port_base[d] : port - net->port_base[d] + 1;
        break;
    }
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &net->desc.dragonfly;
        int idx = (int)(router % (uint32_t)f->a), j = port - f->p;
        if (port < f->p) { r.kind = SR_PORT_TERMINAL; r.index = port; }
        else if (j < f->a - 1) { r.kind = SR_PORT_LOCAL; r.index = j < idx ? j : j + 1; }
        else { r.kind = SR_PORT_GLOBAL; r.index = idx * f->h + j - (f->a - 1); }
        break;
    }
    case SR_NET_CLOS: {
        int l = sr__clos_level(net, router), dn = net->desc.clos.down[l];
        if (port < dn) { r.kind = l == 0 ? SR_PORT_TERMINAL : SR_PORT_DOWN; r.index = port; }
        else { r.kind = SR_PORT_UP; r.index = port - dn; }
        if (r.kind != SR_PORT_TERMINAL) r.dim = l;
        break;
    }
    case SR_NET_BUTTERFLY: {
        int s = (int)(router / net->fly_rows), k = net->desc.butterfly.k, n = net->desc.butterfly.n;
        if (port < k) { r.kind = s == 0 ? SR_PORT_TERMINAL : SR_PORT_UP; r.index = port; }
        else { r.kind = s == n - 1 ? SR_PORT_TERMINAL : SR_PORT_DOWN; r.index = port - k; }
        if (r.kind != SR_PORT_TERMINAL) r.dim = s;
        break;
    }
    default: break;
    }
    return r;
}

/**
 * Coordinates of a router in its family's terms.
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :param coords: out, up to SR_MAX_DIMS values: cube and HyperX, the
 *     coordinate in each dimension (coords[0] is dimension 0); dragonfly,
 *     (group, index in the group); Clos, (level, index in the level);
 *     butterfly, (stage, row).
 * :returns: the number of values written.
 */
SR_API int sr_net_router_coords(const sr_net *net, uint32_t router, int *coords) {
    int d;
    SR_ASSERT(router < net->num_routers);
    switch (net->kind) {
    case SR_NET_CUBE:
        sr_node_coords(&net->cube, router, coords);
        return net->cube.num_dims;
    case SR_NET_HYPERX:
        for (d = 0; d < net->desc.hyperx.num_dims; d++)
            coords[d] = (int)((router / net->stride[d]) % (uint32_t)net->desc.hyperx.size[d]);
        return net->desc.hyperx.num_dims;
    case SR_NET_DRAGONFLY:
        coords[0] = (int)(router / (uint32_t)net->desc.dragonfly.a);
        coords[1] = (int)(router % (uint32_t)net->desc.dragonfly.a);
        return 2;
    case SR_NET_CLOS:
        coords[0] = sr__clos_level(net, router);
        coords[1] = (int)(router - net->level_first[coords[0]]);
        return 2;
    case SR_NET_BUTTERFLY:
        coords[0] = (int)(router / net->fly_rows);
        coords[1] = (int)(router % net->fly_rows);
        return 2;
    default: return 0;
    }
}

/**
 * The port of a router that has a given kind, dimension and index: the
 * inverse of sr_net_port_info.
 *
 * :param net: the network.
 * :param router: a router, < net->num_routers (asserted).
 * :param kind: an sr_port_kind.
 * :param dim: the dimension, level or stage, as sr_net_port_info gives it
 *     (-1 for terminal, local and global ports).
 * :param index: the index, as sr_net_port_info gives it (HyperX: the
 *     coordinate reached; dragonfly local: the index in the group of the
 *     router reached; global: the group's channel number r*h + j).
 * :returns: the lowest port p whose sr_net_port_info is (kind, dim,
 *     index), or -1 if the router has none (for example a global channel
 *     that another router of the group owns).  The only two ports with
 *     equal infos are a one-stage butterfly's input j and output k + j
 *     (both a terminal's); the input is returned.
 */
SR_API int sr_net_port_find(const sr_net *net, uint32_t router, int kind, int dim, int index) {
    int port = -1, ports;
    sr_port_info pi;
    SR_ASSERT(router < net->num_routers);
    ports = sr_net_num_ports(net, router);
    if (index < 0 || index >= SR_NET_MAX_PORTS * SR_NET_MAX_PORTS) return -1;
    switch (net->kind) {
    case SR_NET_CUBE:
        if (kind == SR_PORT_TERMINAL) port = net->cube.proc_port + index;
        else if (kind == SR_PORT_DIM && dim >= 0 && dim < net->cube.num_dims) port = 2 * dim + index;
        break;
    case SR_NET_HYPERX:
        if (kind == SR_PORT_TERMINAL) port = index;
        else if (kind == SR_PORT_DIM && dim >= 0 && dim < net->desc.hyperx.num_dims) {
            int c = (int)((router / net->stride[dim]) % (uint32_t)net->desc.hyperx.size[dim]);
            port = net->port_base[dim] + (index < c ? index : index - 1);
        }
        break;
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &net->desc.dragonfly;
        int idx = (int)(router % (uint32_t)f->a);
        if (kind == SR_PORT_TERMINAL) port = index;
        else if (kind == SR_PORT_LOCAL) port = f->p + (index < idx ? index : index - 1);
        else if (kind == SR_PORT_GLOBAL) port = f->p + f->a - 1 + index - idx * f->h;
        break;
    }
    case SR_NET_CLOS:
        if (kind == SR_PORT_UP) port = net->desc.clos.down[sr__clos_level(net, router)] + index;
        else port = index;                       /* terminal or down */
        break;
    case SR_NET_BUTTERFLY: {
        int k = net->desc.butterfly.k, s = (int)(router / net->fly_rows);
        if (kind == SR_PORT_DOWN || (kind == SR_PORT_TERMINAL && s > 0)) port = k + index;
        else port = index;                       /* up, or a terminal of stage 0 */
        break;
    }
    default: return -1;
    }
    if (port < 0 || port >= ports) return -1;
    pi = sr_net_port_info(net, router, port);
    return pi.kind == kind && pi.dim == dim && pi.index == index ? port : -1;
}

/**
 * Check a network kept in the caller's memory: that it holds exactly what
 * sr_net_init makes of its own ``desc`` (a struct corrupted by a stray
 * write, or never initialised, is reported instead of read past its
 * arrays by the neighbour functions).
 *
 * :param net: the network.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_STATE if ``desc`` is not a valid
 *     description or any other member differs from what sr_net_init
 *     computes from it.
 */
SR_API sr_result sr_net_check(const sr_net *net) {
    sr_net r;
    if (!net) return SR_ERR_NULL;
    if (sr_net_init(&r, &net->desc) != SR_OK) return SR_ERR_STATE;
    /* Every member of sr_net is a 4-byte integer (or a struct of them), so
     * the struct has no padding and memcmp compares values only. */
    return memcmp(&r, net, sizeof r) == 0 ? SR_OK : SR_ERR_STATE;
}

/* >>metrics ============================================================
 * Metrics of a network: size, radix, diameter, average hops, bisection
 *
 * Each family has closed forms (no search, no memory): sr_net_hops gives
 * the hops between two terminals, sr_net_compute_metrics the whole table.
 * The tests check every value against brute force (breadth-first search
 * over sr_net_neighbor, an exhaustive search of balanced cuts).
 *
 * Definitions:
 *
 *   hops(s, t)  router-to-router channels on a minimal path from the
 *               router where terminal s sends (sr_net_terminal_router) to
 *               the router where terminal t receives (sr_net_eject_router).
 *               Terminal channels are not counted; two terminals of one
 *               router are 0 hops apart.  In a dragonfly the path is
 *               minimal among those with at most one global channel, the
 *               minimal routing of seed 004 Section 5.5.3 ("traverses a
 *               single global channel"); the graph itself can hold a
 *               shorter path through a third group's two global channels.
 *   diameter    the most hops between two distinct terminals.
 *   average     the hops summed over the N(N-1) ordered pairs of distinct
 *               terminals, divided by N(N-1): the mean of uniform random
 *               traffic in which no terminal sends to itself.  (Table 3.1
 *               mixes conventions: its mesh row divides by k(k-1) like
 *               this; its torus and hypercube rows include the N self
 *               pairs, and its torus row k/4 is exact for even k only, for
 *               odd k a large-k approximation of (k^2-1)/4k; its flattened
 *               butterfly row also counts the two terminal channels and
 *               includes the self pairs; its torus diameter k/2 holds
 *               for even k (floor(k/2) in general), and its flattened
 *               butterfly diameter n + 1 counts the terminal channels.
 *               docs/topologies.rst compares them row by row.)
 *   radix       the most ports of one router, terminal ports included
 *               (Eq 3.2's 2n + 1, the dragonfly's k, the flattened
 *               butterfly's k'); a butterfly switch has k inputs and k
 *               outputs: radix k.
 *   bisection   the channels that cross a balanced cut, each direction of
 *               a link counted (a cut link counts 2; a butterfly channel
 *               goes one way and counts 1).  A balanced cut splits the
 *               routers that have terminals floor/ceil in half (they all
 *               have the same number, so the terminals split as evenly as
 *               whole routers allow); routers without terminals may go to
 *               either side; a butterfly keeps the input and the output
 *               switch of a row together (they serve the same terminals).
 *               The value is the natural cut of each family (the doc of
 *               sr_net_metrics.bisection), the minimum balanced cut in
 *               every exhaustive search of the tests except the two
 *               cases it names.
 * ====================================================================== */

/** Metrics of a network (sr_net_compute_metrics; the definitions are at
 *  the top of the >>metrics section). */
typedef struct sr_net_metrics {
    uint64_t routers;       /**< routers */
    uint64_t terminals;     /**< terminals N */
    int radix;              /**< most ports of one router, terminal ports
                                 included (butterfly: k) */
    int diameter;           /**< most hops between two distinct terminals */
    uint64_t pairs;         /**< ordered pairs of distinct terminals,
                                 N(N-1) */
    uint64_t hop_sum;       /**< the hops summed over those pairs: the low
                                 64 bits */
    uint64_t hop_sum_high;  /**< the high 64 bits of the sum (0 unless it
                                 exceeds 2^64 - 1, as in large tori) */
    double avg_hops;        /**< the sum divided by ``pairs`` (0 with a
                                 single terminal) */
    uint64_t bisection;     /**< channels crossing the natural balanced cut,
                                 both directions.  Cube and HyperX: cut
                                 across the dimension that costs least; if
                                 its size is odd, the middle layer is cut
                                 the same way, recursively (HyperX: this
                                 equals Lindsey's edge-isoperimetric bound
                                 for products of cliques).  Dragonfly:
                                 whole groups, g/2 on each side; with g
                                 odd, the middle group's routers below
                                 a/2 join the lower groups.  Clos: the
                                 down[L-1] top subtrees split in half; with
                                 down[L-1] odd, the middle subtree is split
                                 the same way.  Butterfly: the rows split
                                 by their most significant digit (the one
                                 stage 0 sets); with k odd, the middle
                                 value's rows by the next digit.  Smaller
                                 cuts exist for dragonflies with a < 2h
                                 (a = 3, h = 2, g = 4: 12 channels, not 16)
                                 and for oversubscribed Clos networks
                                 (down 2,2,2, up 1,3: 4, not 6). */
} sr_net_metrics;

/* An unsigned 128-bit integer: exact hop sums of the largest networks. */
typedef struct sr__u128 {
    uint64_t hi, lo;
} sr__u128;

SR_API sr__u128 sr__mul64(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    sr__u128 r;
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

/* x * b, for products below 2^128. */
SR_API sr__u128 sr__u128_mul(sr__u128 x, uint64_t b) {
    sr__u128 r = sr__mul64(x.lo, b);
    r.hi += x.hi * b;
    return r;
}

SR_API void sr__u128_add(sr__u128 *acc, sr__u128 x) {
    acc->lo += x.lo;
    acc->hi += x.hi + (acc->lo < x.lo ? 1u : 0u);
}

/* Hops between coordinates a and b of a line (mesh) or ring (torus) of k. */
SR_API int sr__line_hops(int a, int b, int k, int mesh) {
    int d = a > b ? a - b : b - a;
    return mesh || d <= k - d ? d : k - d;
}

/* Hops summed over the k*k ordered pairs of coordinates of one dimension:
 * a line of k, sum |a - b| = (k-1)k(k+1)/3; a ring of k, k * floor(k^2/4)
 * (from each coordinate the distances 0, 1, 1, 2, 2, ... sum to
 * floor(k^2/4)). */
SR_API sr__u128 sr__line_pair_hops(uint64_t k, int mesh) {
    uint64_t f[3];
    int i;
    if (!mesh) return sr__mul64(k, k * k / 4);
    f[0] = k - 1; f[1] = k; f[2] = k + 1;
    for (i = 0; i < 3; i++)
        if (f[i] % 3 == 0) { f[i] /= 3; break; }
    return sr__mul64(f[0] * f[1], f[2]);
}

/* The natural cut of a product of lines, rings (cube) or cliques (HyperX):
 * the links crossing a cut across dimension d are cut_per_line[d] times the
 * lines of that dimension; if size[d] is odd, one side takes the middle
 * layer's smaller half, the layer (the product of the other dimensions) cut
 * the same way.  cut[S], over the subsets S of the dimensions, is the
 * cheapest of those choices.  Returns links. */
SR_API uint64_t sr__product_cut(int n, const uint64_t *size, const uint64_t *cut_per_line) {
    uint64_t cut[1u << SR_MAX_DIMS];
    unsigned s, full = (1u << n) - 1u;
    int d;
    cut[0] = 0;
    for (s = 1; s <= full; s++) {
        uint64_t nodes = 1;
        for (d = 0; d < n; d++)
            if (s >> d & 1u) nodes *= size[d];
        cut[s] = UINT64_MAX;
        for (d = 0; d < n; d++) {
            uint64_t c;
            if (!(s >> d & 1u)) continue;
            c = cut_per_line[d] * (nodes / size[d]) + (size[d] % 2 ? cut[s & ~(1u << d)] : 0);
            if (c < cut[s]) cut[s] = c;
        }
    }
    return cut[full];
}

/* Dragonfly: hops from router x to router y on a path with at most one
 * global channel (seed 004 Section 5.5.3, minimal routing). */
SR_API int sr__df_hops(const sr_net *net, uint32_t x, uint32_t y) {
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    uint32_t gx = x / (uint32_t)f->a, gy = y / (uint32_t)f->a;
    int ix = (int)(x % (uint32_t)f->a), iy = (int)(y % (uint32_t)f->a), m = net->df_links, h = f->h;
    int first, back, lo, hi;
    if (x == y) return 0;
    if (gx == gy) return 1;
    /* Channels first+e (e < m) of group gx lead to gy and land on channels
     * back+e there: channel first+e leaves router (first+e)/h and lands on
     * router (back+e)/h. */
    first = sr_df_global_first(net, gx, gy);
    sr_df_global_target(net, gx, first, &back);
    lo = ix * h - first;                          /* the e with x -> y directly */
    if (iy * h - back > lo) lo = iy * h - back;
    if (lo < 0) lo = 0;
    hi = ix * h + h - 1 - first;
    if (iy * h + h - 1 - back < hi) hi = iy * h + h - 1 - back;
    if (hi > m - 1) hi = m - 1;
    if (lo <= hi) return 1;                                         /* global */
    if (ix * h + h - 1 >= first && ix * h <= first + m - 1) return 2;  /* global, local */
    if (iy * h + h - 1 >= back && iy * h <= back + m - 1) return 2;    /* local, global */
    return 3;                                                       /* local, global, local */
}

/**
 * Hops between two terminals: the router-to-router channels on a minimal
 * path from the router where ``src`` sends to the router where ``dst``
 * receives (the definitions at the top of >>metrics).
 *
 * :param net: the network.
 * :param src: a terminal, < net->num_terminals (asserted).
 * :param dst: a terminal, < net->num_terminals (asserted).
 * :returns: the hops (cube: the ring or line distance summed over the
 *     dimensions; HyperX: the dimensions whose coordinates differ;
 *     dragonfly: 0, 1 in a group, else 1 to 3 with one global channel;
 *     Clos: twice the level of the lowest common ancestor; butterfly:
 *     n - 1, even from a terminal to itself).
 * :paper: seed 004 Section 3.3.2 (Table 3.1, Figure 3.3), 5.5.1 (common
 *     ancestor), 5.5.2.1 (one hop per differing digit), 5.5.3 (dragonfly
 *     minimal routing).
 */
SR_API int sr_net_hops(const sr_net *net, uint32_t src, uint32_t dst) {
    uint32_t s, t;
    int d, hops = 0;
    SR_ASSERT(src < net->num_terminals && dst < net->num_terminals);
    s = sr_net_terminal_router(net, src, NULL);
    t = sr_net_eject_router(net, dst, NULL);
    switch (net->kind) {
    case SR_NET_CUBE:
        for (d = 0; d < net->cube.num_dims; d++)
            hops += sr__line_hops(sr_coord(&net->cube, s, d), sr_coord(&net->cube, t, d), net->cube.radix[d],
                                  net->cube.mesh[d]);
        return hops;
    case SR_NET_HYPERX:
        for (d = 0; d < net->desc.hyperx.num_dims; d++) {
            uint32_t k = (uint32_t)net->desc.hyperx.size[d];
            hops += (s / net->stride[d]) % k != (t / net->stride[d]) % k;
        }
        return hops;
    case SR_NET_DRAGONFLY: return sr__df_hops(net, s, t);
    case SR_NET_CLOS:
        /* s and t are level-0 switches, whose ids are their subtree numbers
         * A; the level-l subtree of one is A / (down[1] * ... * down[l]). */
        for (d = 0; s != t; d++) {
            s /= (uint32_t)net->desc.clos.down[d + 1];
            t /= (uint32_t)net->desc.clos.down[d + 1];
        }
        return 2 * d;
    case SR_NET_BUTTERFLY: return net->desc.butterfly.n - 1;
    default: return 0;
    }
}

/* Dragonfly: count the router pairs (x, y) of two different groups by their
 * hops, times `times`, for the m channels between the groups that start at
 * channel f (f mod h = r) of x's group and land at channel f2 (f2 mod h =
 * r2) of y's.  The sources are routers r/h .. (r+m-1)/h counted from f's
 * router (nA of them), the landing routers nB likewise; a pair is 1 hop
 * apart if one channel joins them, 2 if x has a channel to y's group or y
 * one from x's, else 3.  Channel f+e leaves router (f+e)/h and lands on
 * router (f2+e)/h: the pairs change where either crosses a multiple of h,
 * on the same e for both exactly when r = r2. */
SR_API void sr__df_count_block(int a, int h, int m, int r, int r2, uint64_t times, uint64_t *count) {
    uint64_t na = (uint64_t)((r + m - 1) / h + 1), nb = (uint64_t)((r2 + m - 1) / h + 1), A = (uint64_t)a;
    uint64_t one = r == r2 ? na : na + nb - 1;
    uint64_t within_two = na * A + A * nb - na * nb;
    count[1] += one * times;
    count[2] += (within_two - one) * times;
    count[3] += (A * A - within_two) * times;
}

SR_API uint64_t sr__gcd(uint64_t a, uint64_t b) {
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

/* Dragonfly: router pairs by hops, count[0..3], over all ordered pairs. */
SR_API void sr__df_count(const sr_net *net, uint64_t *count) {
    const sr_dragonfly_desc *f = &net->desc.dragonfly;
    int a = f->a, h = f->h, g = f->g, m = net->df_links;
    count[0] = (uint64_t)a * (uint64_t)g;
    count[1] = (uint64_t)g * (uint64_t)a * (uint64_t)(a - 1);
    count[2] = count[3] = 0;
    if (f->arrangement == SR_DF_PALMTREE) {
        /* Group i's t-th block goes to group i-t-1 and lands as that group's
         * (g-2-t)-th block: the same for every i. */
        int t;
        for (t = 0; t <= g - 2; t++)
            sr__df_count_block(a, h, m, (t * m) % h, ((g - 2 - t) * m) % h, (uint64_t)g, count);
    } else {
        /* Consecutive: the ordered pairs (i, j) give the blocks (t, t2) =
         * (index of j among i's others, index of i among j's others): every
         * (t, t2) in [0, g-2]^2 once, and t = t2 once more.  Block t starts
         * at channel t*m, whose residue mod h repeats with period P. */
        int P = (int)((uint64_t)h / sr__gcd((uint64_t)m, (uint64_t)h)), u, v;
        for (u = 0; u < P && u <= g - 2; u++) {
            uint64_t cu = (uint64_t)((g - 1) / P + (u < (g - 1) % P));
            for (v = 0; v < P && v <= g - 2; v++) {
                uint64_t cv = (uint64_t)((g - 1) / P + (v < (g - 1) % P));
                sr__df_count_block(a, h, m, (int)(((uint64_t)u * (uint64_t)m) % (uint64_t)h),
                                   (int)(((uint64_t)v * (uint64_t)m) % (uint64_t)h), cu * cv, count);
            }
            sr__df_count_block(a, h, m, (int)(((uint64_t)u * (uint64_t)m) % (uint64_t)h),
                               (int)(((uint64_t)u * (uint64_t)m) % (uint64_t)h), cu, count);
        }
    }
}

/**
 * Compute the metrics of a network in closed form.
 *
 * Fast at any size (the 262,656-terminal radix-64 dragonfly takes
 * microseconds; bench/bench_topo.c measures it).
 *
 * :param net: the network (from sr_net_init).
 * :param m: out, the metrics (the definitions are at the top of >>metrics).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_KIND (net->kind is no family: not a
 *     network sr_net_init made).
 * :paper: seed 004 Section 3.3 (Eq 3.1-3.3, Table 3.1), 4.3 (each
 *     family's size and radix).
 */
SR_API sr_result sr_net_compute_metrics(const sr_net *net, sr_net_metrics *m) {
    sr__u128 sum = { 0, 0 };
    uint64_t N, cut = 0, size[SR_MAX_DIMS], per_line[SR_MAX_DIMS];
    int d, diameter = 0;
    if (!net || !m) return SR_ERR_NULL;
    N = net->num_terminals;
    switch (net->kind) {
    case SR_NET_CUBE: {
        const sr_topology *t = &net->cube;
        for (d = 0; d < t->num_dims; d++) {
            uint64_t k = (uint64_t)t->radix[d], lines = N / k;
            sr__u128_add(&sum, sr__u128_mul(sr__line_pair_hops(k, t->mesh[d]), lines * lines));
            diameter += t->mesh[d] ? t->radix[d] - 1 : t->radix[d] / 2;
            size[d] = k;
            per_line[d] = t->mesh[d] ? 1 : 2;     /* a ring of 2 has two links */
        }
        cut = 2 * sr__product_cut(t->num_dims, size, per_line);
        break;
    }
    case SR_NET_HYPERX: {
        const sr_hyperx_desc *x = &net->desc.hyperx;
        uint64_t R = net->num_routers, T = (uint64_t)x->terminals;
        for (d = 0; d < x->num_dims; d++) {
            uint64_t S = (uint64_t)x->size[d], lines = R / S;
            sr__u128_add(&sum, sr__u128_mul(sr__mul64(lines * lines, S * (S - 1)), T * T));
            size[d] = S;
            per_line[d] = (S / 2) * ((S + 1) / 2);
        }
        diameter = x->num_dims;
        cut = 2 * sr__product_cut(x->num_dims, size, per_line);
        break;
    }
    case SR_NET_DRAGONFLY: {
        const sr_dragonfly_desc *f = &net->desc.dragonfly;
        uint64_t count[4], P = (uint64_t)f->p, a = (uint64_t)f->a, g = (uint64_t)f->g;
        uint64_t links = (uint64_t)net->df_links;
        sr__df_count(net, count);
        for (d = 1; d <= 3; d++) {
            sr__u128_add(&sum, sr__u128_mul(sr__mul64(count[d], P * P), (uint64_t)d));
            if (count[d]) diameter = d;
        }
        if (g % 2 == 0) cut = links * (g / 2) * (g / 2);
        else cut = links * ((g - 1) / 2) * ((g - 1) / 2) + (a / 2) * ((a + 1) / 2) +
                   (a % 2 ? (uint64_t)f->h / 2 : 0);
        cut *= 2;
        break;
    }
    case SR_NET_CLOS: {
        const sr_clos_desc *c = &net->desc.clos;
        uint64_t below = (uint64_t)c->down[0], half = 0;   /* terminals of a level-l subtree */
        for (d = 1; d < c->levels; d++) {
            uint64_t here = below * (uint64_t)c->down[d];
            sr__u128_add(&sum, sr__u128_mul(sr__mul64(N, here - below), (uint64_t)(2 * d)));
            if (c->down[d] > 1) diameter = 2 * d;
            half = (uint64_t)net->up_span[d] * (uint64_t)(c->down[d] / 2) + (c->down[d] % 2 ? half : 0);
            below = here;
        }
        cut = 2 * half;
        break;
    }
    case SR_NET_BUTTERFLY: {
        uint64_t k = (uint64_t)net->desc.butterfly.k, lines = 1;
        sum = sr__mul64(N * (N - 1), (uint64_t)(net->desc.butterfly.n - 1));
        diameter = net->desc.butterfly.n - 1;
        /* Stage j rewrites row digit n-2-j; splitting the rows by the digit
         * stage 0 rewrites cuts 2 floor(k/2) ceil(k/2) of each k*k block of
         * channels, k^(n-2) blocks; with k odd the middle digit's rows are
         * split by the next digit, and so on. */
        for (d = 2; d <= net->desc.butterfly.n; d++) {
            cut = 2 * (k / 2) * ((k + 1) / 2) * lines + (k % 2 ? cut : 0);
            lines *= k;
        }
        break;
    }
    default: return SR_ERR_KIND;
    }
    m->routers = net->num_routers;
    m->terminals = N;
    m->radix = net->kind == SR_NET_BUTTERFLY ? net->desc.butterfly.k : net->radix;
    m->diameter = N > 1 ? diameter : 0;
    m->pairs = N * (N - 1);
    m->hop_sum = sum.lo;
    m->hop_sum_high = sum.hi;
    m->avg_hops = N > 1 ? ((double)sum.hi * 18446744073709551616.0 + (double)sum.lo) / (double)m->pairs : 0.0;
    m->bisection = cut;
    return SR_OK;
}

/* >>formulas ===========================================================
 * Seed 004's formulas and examples, as functions
 *
 * Chapters 3 and 4 size their networks with closed formulas.  Each
 * function here computes what holds, quoting the equation; where the
 * printed text differs, its doc comment says how (docs/topologies.rst
 * lists every printing error, and examples/topology_formulas.c writes each
 * formula's printed and computed value to docs/data/topology_formulas.csv).
 * The tests check every value against brute force on small networks.
 * Arguments outside a formula's domain give SR_ERR_DOMAIN.
 * ====================================================================== */

/* ln x for a finite x > 0, without <math.h> (which would add -lm to the
 * callers' link): x = m * 2^e with m in [1, 2), ln m = 2 atanh((m-1)/(m+1))
 * by its series, whose ratio is at most 1/9. */
SR_API double sr__ln(double x) {
    double z, z2, term, sum = 0.0;
    int e = 0, i;
    while (x >= 2.0) { x *= 0.5; e++; }
    while (x < 1.0) { x *= 2.0; e--; }
    z = (x - 1.0) / (x + 1.0);
    z2 = z * z;
    term = z;
    for (i = 1; i < 80; i += 2) {
        sum += term / (double)i;
        term *= z2;
    }
    return 2.0 * sum + (double)e * 0.69314718055994530942;
}

/* Whether x is a finite double above lo. */
SR_API int sr__above(double x, double lo) {
    return x > lo && x - x == 0.0;
}

/**
 * Eq 3.1: the nodes of a k-ary n-cube of mixed radix, N = k_0 * ... * k_{n-1}.
 *
 * :param n: dimensions, 1..SR_MAX_DIMS.
 * :param radix: n radices, each >= 2.
 * :param nodes: out, N.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (n or a radix out of range,
 *     or N above 2^64 - 1).
 * :paper: seed 004 Section 3.3, Eq 3.1.
 */
SR_API sr_result sr_cube_nodes(int n, const int *radix, uint64_t *nodes) {
    uint64_t N = 1;
    int i;
    if (!radix || !nodes) return SR_ERR_NULL;
    if (n < 1 || n > SR_MAX_DIMS) return SR_ERR_DOMAIN;
    for (i = 0; i < n; i++) {
        if (radix[i] < 2 || N > UINT64_MAX / (uint64_t)radix[i]) return SR_ERR_DOMAIN;
        N *= (uint64_t)radix[i];
    }
    *nodes = N;
    return SR_OK;
}

/**
 * Eq 3.2: the ports of a mesh or torus router, r = 2n + 1 (two per
 * dimension and the processor).
 *
 * :param n: dimensions, 1..SR_MAX_DIMS.
 * :param radix: out, r.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Section 3.3, Eq 3.2 (a 3-D torus: 7 ports).
 */
SR_API sr_result sr_cube_router_radix(int n, int *radix) {
    if (!radix) return SR_ERR_NULL;
    if (n < 1 || n > SR_MAX_DIMS) return SR_ERR_DOMAIN;
    *radix = 2 * n + 1;
    return SR_OK;
}

/**
 * Eq 3.3: the ports of a binary hypercube router, r = n + 1 = lg2(N) + 1.
 *
 * The print's example reads "a hypercube requires n = lg2(512) + 1 = 10
 * ports": that is r; n = lg2(512) = 9 dimensions.
 *
 * :param nodes: N, a power of two, >= 2.
 * :param radix: out, r.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (N not a power of two).
 * :paper: seed 004 Section 3.3, Eq 3.3 (512 nodes: 10 ports).
 */
SR_API sr_result sr_hypercube_router_radix(uint64_t nodes, int *radix) {
    int n = 0;
    if (!radix) return SR_ERR_NULL;
    if (nodes < 2 || (nodes & (nodes - 1)) != 0) return SR_ERR_DOMAIN;
    while (nodes > 1) { nodes >>= 1; n++; }
    *radix = n + 1;
    return SR_OK;
}

/**
 * Eq 4.2: the zero-load latency of a network of radix-k routers,
 * T = 2 tr log_k N + 2 k L / B (header latency over 2 log_k N hops, plus
 * serialization over channels of B / 2k).
 *
 * :param tr: per-hop router delay (s), >= 0.
 * :param nodes: N, > 1.
 * :param k: router radix, > 1 (real-valued, as in the derivation).
 * :param length: packet length L (bits), > 0.
 * :param bandwidth: router bandwidth B (bits/s), > 0.
 * :param latency: out, T (s).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (an argument out of range or
 *     not finite).
 * :paper: seed 004 Section 4.2.1, Eq 4.1-4.2.
 */
SR_API sr_result sr_radix_latency(double tr, double nodes, double k, double length, double bandwidth,
                                  double *latency) {
    if (!latency) return SR_ERR_NULL;
    if (!(tr == 0.0 || sr__above(tr, 0.0)) || !sr__above(nodes, 1.0) || !sr__above(k, 1.0) ||
        !sr__above(length, 0.0) || !sr__above(bandwidth, 0.0))
        return SR_ERR_DOMAIN;
    *latency = 2.0 * tr * sr__ln(nodes) / sr__ln(k) + 2.0 * k * length / bandwidth;
    return SR_OK;
}

/**
 * The aspect ratio of a router, A = B tr ln N / L (the right-hand side of
 * Eq 4.3; the log is natural, see sr_optimal_radix).
 *
 * :param bandwidth: B (bits/s), > 0.
 * :param tr: router delay (s), > 0.
 * :param nodes: N, > 1.
 * :param length: packet length L (bits), > 0.
 * :param aspect: out, A.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Section 4.2.1 (the aspect ratio after Eq 4.4; the
 *     footnote's 2003 parameters, 1 Tb/s, 10 ns, 4096 nodes and L = 128,
 *     give 650, the text's 652; its 2010 ones, 20 Tb/s, 2 ns, 8192, give
 *     2816, not the text's 3013).
 */
SR_API sr_result sr_aspect_ratio(double bandwidth, double tr, double nodes, double length, double *aspect) {
    if (!aspect) return SR_ERR_NULL;
    if (!sr__above(bandwidth, 0.0) || !sr__above(tr, 0.0) || !sr__above(nodes, 1.0) || !sr__above(length, 0.0))
        return SR_ERR_DOMAIN;
    *aspect = bandwidth * tr * sr__ln(nodes) / length;
    return SR_OK;
}

/**
 * Eq 4.3: the radix that minimizes the latency of Eq 4.2,
 * k (ln k)^2 = B tr ln N / L = A.
 *
 * The print reads "k log2 k = B tr log N / L": the square of the log was
 * lost.  Setting dT/dk of Eq 4.2 to zero gives k (ln k)^2 = A, and the
 * text's optima satisfy it (45 (ln 45)^2 = 652, 128 (ln 128)^2 = 3013),
 * while k log2 k = 652 would give 98.  Solved by bisection: k (ln k)^2
 * increases for k > 1.
 *
 * :param aspect: A, > 0.
 * :param k: out, the optimal radix (real-valued).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Section 4.2.1, Eq 4.3, Figure 4.2.
 */
SR_API sr_result sr_optimal_radix(double aspect, double *k) {
    double lo = 1.0, hi;
    int i;
    if (!k) return SR_ERR_NULL;
    if (!sr__above(aspect, 0.0)) return SR_ERR_DOMAIN;
    hi = aspect > 2.718281828459045 ? aspect : 2.718281828459045;   /* hi (ln hi)^2 >= A */
    for (i = 0; i < 200 && lo < hi; i++) {
        double mid = 0.5 * (lo + hi), l = sr__ln(mid);
        if (mid == lo || mid == hi) break;
        if (mid * l * l < aspect) lo = mid;
        else hi = mid;
    }
    *k = 0.5 * (lo + hi);
    return SR_OK;
}

/* k^e for the formula functions: SR_ERR_DOMAIN above 2^62. */
SR_API sr_result sr__pow(uint64_t k, int e, uint64_t *out) {
    uint64_t r = 1;
    int i;
    for (i = 0; i < e; i++) {
        if (r > ((uint64_t)1 << 62) / k) return SR_ERR_DOMAIN;
        r *= k;
    }
    *out = r;
    return SR_OK;
}

/**
 * The radix of a k-ary n-flat router, k' = n(k - 1) + 1: k terminals and
 * k - 1 channels in each of the n' = n - 1 dimensions.
 *
 * :param k: >= 2.
 * :param n: >= 1, with the result below 2^31.
 * :param radix: out, k'.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Section 4.3.4.
 */
SR_API sr_result sr_fbfly_router_radix(int k, int n, int *radix) {
    if (!radix) return SR_ERR_NULL;
    if (k < 2 || n < 1 || (int64_t)n * (int64_t)(k - 1) + 1 > 0x7FFFFFFF) return SR_ERR_DOMAIN;
    *radix = n * (k - 1) + 1;
    return SR_OK;
}

/**
 * Eq 4.5: the router a k-ary n-flat router i reaches in dimension d,
 * j = i + (m - (floor(i / k^(d-1)) mod k)) k^(d-1): the router whose
 * digit d-1 is m and whose other digits are i's.
 *
 * sr_net's HyperX numbers its routers the same way (its dimension d-1 is
 * digit d-1), so sr_fbfly_desc's network has exactly these channels.
 *
 * :param k: >= 2.
 * :param n: >= 2 (n - 1 dimensions), with k^(n-1) <= 2^32 - 1.
 * :param i: a router, < k^(n-1).
 * :param d: a dimension, 1..n-1.
 * :param m: the digit reached, 0..k-1.
 * :param j: out, the router reached.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN; SR_ERR_NO_LINK when m is
 *     i's own digit ("the connection from i to itself is omitted").
 * :paper: seed 004 Section 4.3.4, Eq 4.5 (the R4' example: 2-ary 4-flat).
 */
SR_API sr_result sr_fbfly_neighbor(int k, int n, uint32_t i, int d, int m, uint32_t *j) {
    uint64_t routers = 0, w = 1;
    int64_t digit;
    int e;
    if (!j) return SR_ERR_NULL;
    if (k < 2 || n < 2 || n > 64 || d < 1 || d > n - 1 || m < 0 || m >= k) return SR_ERR_DOMAIN;
    if (sr__pow((uint64_t)k, n - 1, &routers) != SR_OK || routers > 0xFFFFFFFFu || i >= routers)
        return SR_ERR_DOMAIN;
    for (e = 1; e < d; e++) w *= (uint64_t)k;          /* k^(d-1) < k^(n-1) */
    digit = (int64_t)((i / w) % (uint64_t)k);
    if (digit == m) return SR_ERR_NO_LINK;
    *j = (uint32_t)((int64_t)i + ((int64_t)m - digit) * (int64_t)w);
    return SR_OK;
}

/**
 * A k-ary n-flat as a network description: the HyperX with L = n - 1
 * dimensions of S = k routers and T = k terminals per router (one
 * channel, of terminal bandwidth, between two routers of a dimension).
 *
 * The print says "(L = n, T = S = k, K = 2)": a k-ary n-flat has n' = n - 1
 * dimensions (Section 4.3.4's own words), and by the print's definition of
 * K (channel bandwidth in units of the terminal bandwidth) its channels,
 * those of the butterfly it flattens, have K = 1.
 *
 * :param k: >= 2.
 * :param n: 2..SR_MAX_DIMS+1.
 * :param d: out, the description (all other fields zero).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.  sr_net_init validates the
 *     sizes.
 * :paper: seed 004 Sections 4.3.4 and 4.3.6.
 */
SR_API sr_result sr_fbfly_desc(int k, int n, sr_net_desc *d) {
    int size[SR_MAX_DIMS], i;
    if (!d) return SR_ERR_NULL;
    if (k < 2 || n < 2 || n > SR_MAX_DIMS + 1) return SR_ERR_DOMAIN;
    for (i = 0; i < n - 1; i++) size[i] = k;
    return sr_net_desc_hyperx(d, n - 1, size, k);
}

/**
 * A binary n-cube as a network description: the HyperX (L = n, S = 2,
 * K = 1, T = 1), one port per dimension plus the terminal (Eq 3.3).
 *
 * :param n: 1..SR_MAX_DIMS.
 * :param d: out, the description (all other fields zero).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Sections 3.3 and 4.3.6.
 */
SR_API sr_result sr_hypercube_desc(int n, sr_net_desc *d) {
    static const int two[SR_MAX_DIMS] = { 2, 2, 2, 2, 2, 2, 2, 2 };
    if (!d) return SR_ERR_NULL;
    if (n < 1 || n > SR_MAX_DIMS) return SR_ERR_DOMAIN;
    return sr_net_desc_hyperx(d, n, two, 1);
}

/**
 * The sizes of a dragonfly of given routers: the radix of a router,
 * k = p + a + h - 1 (p terminals, a - 1 local and h global channels); the
 * radix of a group seen as one virtual router, k' = a(p + h) (its terminal
 * and global channels); and the terminals of the largest such dragonfly,
 * g = ah + 1 groups with one global channel between each pair,
 * N = ap(ah + 1).
 *
 * :param p: terminals per router, >= 1.
 * :param a: routers per group, >= 1.
 * :param h: global channels per router, >= 1.
 * :param k: out (may be NULL), k.
 * :param k_virtual: out (may be NULL), k'.
 * :param max_terminals: out (may be NULL), N.
 * :returns: SR_OK; SR_ERR_DOMAIN (an argument below 1, or k' above
 *     2^31 - 1; k' >= k).
 * :paper: seed 004 Section 4.3.5 (Figure 4.10: k = 7, k' = 16, N = 72).
 */
SR_API sr_result sr_df_size(int p, int a, int h, int *k, int *k_virtual, uint64_t *max_terminals) {
    if (p < 1 || a < 1 || h < 1 || (int64_t)a * ((int64_t)p + h) > 0x7FFFFFFF) return SR_ERR_DOMAIN;
    if (k) *k = (int)((int64_t)p + a + h - 1);
    if (k_virtual) *k_virtual = (int)((int64_t)a * ((int64_t)p + h));
    /* a p a h <= (a (p + h))^2 / 4 < 2^60: no overflow */
    if (max_terminals) *max_terminals = (uint64_t)a * (uint64_t)p * ((uint64_t)a * (uint64_t)h + 1);
    return SR_OK;
}

/**
 * The global channels between two groups of a dragonfly of g groups whose
 * a*h global channels per group are spread evenly: a*h / (g - 1).
 *
 * The print says each pair is connected "by at least floor((ah+1)/g)"
 * channels.  That bound holds (ah/(g-1) >= (ah+1)/g whenever g <= ah + 1)
 * but is not the count: a = 4, h = 2, g = 5 gives 2 channels between every
 * pair, the print's bound 1.  A maximum-size dragonfly (g = ah + 1) has
 * exactly one.
 *
 * :param a: routers per group, >= 1.
 * :param h: global channels per router, >= 1.
 * :param g: groups, 2..ah+1, with g - 1 dividing ah.
 * :param channels: out, a*h / (g - 1).
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (as sr_net_init's
 *     SR_ERR_DF_GROUPS).
 * :paper: seed 004 Section 4.3.5.
 */
SR_API sr_result sr_df_group_channels(int a, int h, int g, int *channels) {
    int64_t ah;
    if (!channels) return SR_ERR_NULL;
    if (a < 1 || h < 1 || g < 2) return SR_ERR_DOMAIN;
    ah = (int64_t)a * (int64_t)h;
    if (g > ah + 1 || ah % (g - 1) != 0 || ah / (g - 1) > 0x7FFFFFFF) return SR_ERR_DOMAIN;
    *channels = (int)(ah / (g - 1));
    return SR_OK;
}

/**
 * The largest k-ary n-flat whose routers have at most ``radix`` ports:
 * n = dims + 1 and the largest k with n(k - 1) + 1 <= radix; N = k^n.
 *
 * :param radix: ports per router, >= dims + 2 (k >= 2).
 * :param dims: the flattened butterfly's dimensions n' = n - 1, >= 1.
 * :param k: out, k.
 * :param terminals: out, N.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (also N above 2^62).
 * :paper: seed 004 Section 4.3.5 (radix 64: 2-D "approximately 10k"
 *     nodes, 22^3 = 10,648; 3-D "64k", 16^4 = 65,536).
 */
SR_API sr_result sr_fbfly_max_size(int radix, int dims, int *k, uint64_t *terminals) {
    int kk;
    if (!k || !terminals) return SR_ERR_NULL;
    if (dims < 1 || dims > 62 || radix < dims + 2) return SR_ERR_DOMAIN;
    kk = (radix - 1) / (dims + 1) + 1;
    if (sr__pow((uint64_t)kk, dims + 1, terminals) != SR_OK) return SR_ERR_DOMAIN;
    *k = kk;
    return SR_OK;
}

/**
 * The largest balanced dragonfly (a = 2p = 2h) whose routers have at most
 * ``radix`` ports: k = p + a + h - 1 = 4p - 1, so p = floor((radix+1)/4);
 * N = ap(ah + 1).
 *
 * :param radix: ports per router, 3..92682 (k' = a(p + h) = 4p^2 must fit
 *     an int, as for sr_df_size).
 * :param p: out, p (= h; a = 2p).
 * :param terminals: out, N.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN.
 * :paper: seed 004 Section 4.3.5 (radix 64: "over 256k nodes", p = 16,
 *     a = 32, h = 16, 262,656 terminals).
 */
SR_API sr_result sr_df_max_size(int radix, int *p, uint64_t *terminals) {
    int pp;
    if (!p || !terminals) return SR_ERR_NULL;
    if (radix < 3 || radix > 0x3FFFFFFF) return SR_ERR_DOMAIN;
    pp = (radix + 1) / 4;                     /* sr_df_size refuses 4p^2 >= 2^31 */
    if (sr_df_size(pp, 2 * pp, pp, NULL, NULL, terminals) != SR_OK) return SR_ERR_DOMAIN;
    *p = pp;
    return SR_OK;
}

/**
 * The stages of a k-ary n-fly with N terminals: n = log_k N.
 *
 * The print says "log_k(N) + 1 stages with N/k routers in each stage";
 * its own Figure 4.5, the 4-ary 3-fly of 64 nodes, has 3 = log_4 64 stages
 * of 16 routers (48 routers).  A k-ary n-fly has n + 1 columns of channels
 * (terminal channels included), which may be where the "+ 1" comes from.
 *
 * :param k: switch radix, >= 2.
 * :param terminals: N, a power of k, >= k.
 * :param stages: out, n.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_DOMAIN (N not a power of k).
 * :paper: seed 004 Section 4.3.2, Figure 4.5.
 */
SR_API sr_result sr_fly_stages(int k, uint64_t terminals, int *stages) {
    int n = 0;
    if (!stages) return SR_ERR_NULL;
    if (k < 2 || terminals < (uint64_t)k) return SR_ERR_DOMAIN;
    while (terminals > 1) {
        if (terminals % (uint64_t)k) return SR_ERR_DOMAIN;
        terminals /= (uint64_t)k;
        n++;
    }
    *stages = n;
    return SR_OK;
}

/**
 * The minimal routes between two terminals of a HyperX (flattened
 * butterfly): j! when their routers differ in j dimensions, since the
 * dimensions can be taken in any order (one channel joins two routers of a
 * dimension, so each order is one route).
 *
 * :param net: a HyperX.
 * :param src: a terminal.
 * :param dst: a terminal.
 * :param routes: out, j!.
 * :returns: SR_OK; SR_ERR_NULL; SR_ERR_KIND (not a HyperX);
 *     SR_ERR_NODE_RANGE (a terminal outside the network).
 * :paper: seed 004 Section 5.5.2.1 (node 0 to node 10 of the 2-ary 4-flat:
 *     2 routes).
 */
SR_API sr_result sr_minimal_routes(const sr_net *net, uint32_t src, uint32_t dst, uint64_t *routes) {
    uint64_t r = 1;
    int j;
    if (!net || !routes) return SR_ERR_NULL;
    if (net->kind != SR_NET_HYPERX) return SR_ERR_KIND;
    if (src >= net->num_terminals || dst >= net->num_terminals) return SR_ERR_NODE_RANGE;
    for (j = sr_net_hops(net, src, dst); j > 1; j--) r *= (uint64_t)j;
    *routes = r;
    return SR_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_TOPO_H */
