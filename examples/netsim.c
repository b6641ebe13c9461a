/* SPDX-License-Identifier: MIT */
/* netsim.c - a cycle-level network simulator for any topology of
 * seastar_route.h (k-ary n-cubes, HyperX / flattened butterflies,
 * dragonflies, folded Clos networks, butterflies), with input-queued VC
 * routers whose routing comes from seastar_route.h and whose VC and
 * switch allocators come from seastar_arb.h.
 *
 * The simulator is examples/common/net_core.h (channels, credits,
 * terminals, statistics, parts) with the router model of
 * examples/common/iq_router.h, or with --router bgl the BlueGene/L router
 * of examples/common/bgl_router.h (tori and meshes; docs/bluegene.rst);
 * this file is its command line.  See --help and docs/simulator.rst.
 *
 * Built with NC_MPI defined (make mpi: build/mpi/netsim), it runs under
 * mpirun: each rank simulates a part of the network (a dragonfly's groups,
 * else a range of routers; examples/common/nc_mpi.h), rank 0 prints, and
 * the output is the sequential program's, byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/iq_router.h"
#include "common/bgl_router.h"
#include "common/sim_jobs.h"
#include "common/cli.h"
#ifdef NC_MPI
#include <unistd.h>
#include "common/nc_mpi.h"
static sim_mpi g_mpi;
#endif

/* Exit status of a run that stalls (a deadlock). */
#define EXIT_STALL 4

/* Whether this process is an MPI rank other than 0 (which print nothing
 * but errors). */
static int quiet_rank(void) {
#ifdef NC_MPI
    return g_mpi.rank != 0;
#else
    return 0;
#endif
}

typedef struct opts {
    const char *topo_spec;      /* --topo as given */
    sr_net_desc desc;
    sr_net net;
    nc_params p;
    iq_params ip;
    sim_traffic t;
    const char *perm_path;
    double loads[64];
    int num_loads;
    uint64_t warmup, cycles, seed, stall;
    int seeds, csv, csv_header, quiet;
    double max_memory_gb;
    const char *label;
    sj_opts wl;                 /* --workload and its companions (sim_jobs.h) */
    int routing;                /* index of routing_names */
    int verify, unsafe;
    sim_progress *progress;
    int router;                 /* ROUTER_IQ or ROUTER_BGL (--router) */
    bgl_params bp;              /* --router bgl: the router */
    uint32_t bgl_inj_bytes;     /* --bgl-injection (0: infinite) */
    int bgl_arb;                /* --bgl-arbitration, index of bgl_arb_names */
    int alltoall;               /* --alltoall: an SIM_A2A_ scope, or -1 */
    int a2a_random;             /* --alltoall-order random */
    uint64_t series;            /* --series: cycles per line, or 0 */
} opts;

enum { ROUTER_IQ = 0, ROUTER_BGL };
static const char *const bgl_arb_names[] = { "base", "jsq", "slq", "jsq-slq" };

static const char *const usage_text =
"usage: netsim [options]\n"
"\n"
"Simulates a network of input-queued virtual-channel routers cycle by cycle:\n"
"any topology of seastar_route.h, its routing algorithms, seastar_arb.h's\n"
"switch allocators.  Prints a summary, or a CSV line per run (--csv).\n";

static const char *const notes_text =
"Topologies (--topo):\n"
"  torus:KxKx..K   mesh:KxK..K     k-ary n-cubes, 1 to 8 radices 2 to 1024\n"
"  hyperx:SxS..S[:T]               HyperX / flattened butterfly, T terminals\n"
"                                  per router (default 1); a k-ary n-flat is\n"
"                                  hyperx:KxK..K:K with n-1 sizes\n"
"  dragonfly:P,A,H[,G]             P terminals and H global channels per\n"
"                                  router, A routers per group, G groups\n"
"                                  (default A*H+1)\n"
"  clos:D0/U0,D1/U1,..,DL          folded Clos: down and up ports per level\n"
"                                  (the top level has no up ports)\n"
"  butterfly:K,N                   k-ary n-fly\n"
"Latency and buffer specs: N for every port kind, or KIND=N,... with kinds\n"
"terminal, dim, local, global, up, down (a channel's latency is by the kind\n"
"of the port it leaves; a buffer's size by the kind of the input port).\n"
"Every run checks packet conservation (exit status 3 on a failure) and\n"
"stops with exit status 4 when packets stay in the network and none moves\n"
"for --stall cycles (a deadlock), describing a packet that waits.\n"
"Progress goes to stderr every 1.5 s of a run that lasts longer.\n";

static const cli_opt options[] = {
    /* network */
    { "--topo", NULL, "SPEC", CLI_TEXT, 0, 0, 0, 0, "a topology spec (see below)", "torus:8x8x8",
      "the network" },
    { "--router", NULL, "MODEL", CLI_CHOICE, 0, 0, 0, 0, "iq|bgl", "iq",
      "the router model: input-queued VC router (iq_router.h), or the\n"
      "BlueGene/L torus router (bgl_router.h; tori and meshes, its own\n"
      "--bgl-* options; --pipeline is its arbitration delay)" },
    { "--bgl-dynamic", NULL, "N", CLI_INT, 0, 100, 0, 0, "1 to 8", "2", "bgl: dynamic VCs per link" },
    { "--bgl-escape", NULL, "KIND", CLI_CHOICE, 0, 0, 0, 0, "bubble|dateline", "bubble",
      "bgl: the escape VC, or the dateline pair (seed 003 line 93)" },
    { "--bgl-order", NULL, "ORDER", CLI_CHOICE, 0, 0, 0, 0, "dimension|direction", "dimension",
      "bgl: the escape order" },
    { "--bgl-rule", NULL, "RULE", CLI_CHOICE, 0, 0, 0, 0, "paper|textbook", "paper",
      "bgl: the bubble rule (every bubble packet counted full-sized, or\n"
      "by its size: it can deadlock)" },
    { "--bgl-vc-bytes", NULL, "N", CLI_INT, 0, 1048576, 0, 0,
      "a multiple of 32, at least 256 (512 for a bubble VC), at most 1048576", "1024",
      "bgl: buffer of each dynamic and escape VC" },
    { "--bgl-escape-bytes", NULL, "N", CLI_INT, 0, 1048576, 0, 0,
      "as --bgl-vc-bytes", "--bgl-vc-bytes", "bgl: buffer of each escape VC (after --bgl-vc-bytes)" },
    { "--bgl-bytes", NULL, "B[,B...]", CLI_INT, 0, 100000, 0, 0, "1 to 8 sizes 32 to 256, multiples of 32", "256",
      "bgl: packet sizes in bytes, drawn uniformly (a flit is 4 bytes)" },
    { "--bgl-arbitration", NULL, "POLICY", CLI_CHOICE, 0, 0, 0, 0, "base|jsq|slq|jsq-slq", "jsq-slq",
      "bgl: random choices (base), JSQ, SLQ on 75% of cycles, or both" },
    { "--bgl-paths", NULL, "N", CLI_INT, 1, 4, 0, 0, NULL, "2", "bgl: buses from a receiver to the senders" },
    { "--bgl-static", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "bgl: every packet statically (xyz) routed" },
    { "--bgl-injection", NULL, "BYTES", CLI_INT, 0, 4000000, 0, 0, "0, or 256 to 4000000, a multiple of 4", "0 = infinite",
      "bgl: each injection FIFO's size" },
    { "--alltoall", NULL, "GROUP", CLI_CHOICE, 0, 0, 0, 0, "whole|plane|line", "none",
      "bgl: instead of random traffic, an all-to-all (every node sends a\n"
      "packet of the largest --bgl-bytes to every other of its group: the\n"
      "machine, its x-y plane, its x line) queued at the start; runs until\n"
      "it is delivered (--cycles bounds it) and reports link use" },
    { "--alltoall-order", NULL, "ORDER", CLI_CHOICE, 0, 0, 0, 0, "shifted|random", "shifted",
      "bgl: the order of a node's all-to-all messages: i+1, i+2, ...\n"
      "(the same for every node), or a random permutation per node" },
    { "--series", NULL, "N", CLI_INT, 1, 100000000, 0, 0, NULL, "none",
      "bgl: a CSV line every N cycles of the run (throughput over time)" },
    { "--arrangement", NULL, "NAME", CLI_CHOICE, 0, 0, 0, 0, "consecutive|palmtree", "consecutive",
      "dragonfly: how global channels are wired between groups" },
    { "--latency", NULL, "SPEC", CLI_TEXT, 0, 0, 0, 0, "N or KIND=N,... with N 1 to 100000",
      "1 (global 10)", "channel latencies in cycles" },
    { "--buffer", NULL, "SPEC", CLI_TEXT, 0, 0, 0, 0, "N or KIND=N,... with N the largest packet to 1000000",
      "16 (global 64)", "input buffer per VC, flits" },
    /* router */
    { "--vcs", NULL, "N", CLI_INT, 1, 64, 0, 0, "1 to 64, at least what --routing needs, and ports x VCs at most 512",
      "what --routing needs", "virtual channels per port" },
    { "--routing", NULL, "NAME", CLI_CHOICE, 0, 0, 0, 0,
      "dor|min-adaptive|minimal|valiant|ugal-l|ugal-g|par|updown|dest-tag",
      "dor (torus, mesh, hyperx), minimal (dragonfly), updown (clos), dest-tag (butterfly)",
      "routing algorithm (seastar_route.h); ugal-l decides on this router's\n"
      "queues, ugal-g on the global channels' (one process only)" },
    { "--df-vcs", NULL, "SCHEME", CLI_CHOICE, 0, 0, 0, 0, "globals|local", "local for par, else globals",
      "dragonfly VC assignment: by global channels crossed (seed 004\n"
      "Figure 5.4), or a new VC after every local hop that follows one" },
    { "--escape", NULL, "KIND", CLI_CHOICE, 0, 0, 0, 0, "default|dor|hops", "default",
      "min-adaptive: its escape (cube: dor; hyperx: hops, n' VCs)" },
    { "--inter", NULL, "UNIT", CLI_CHOICE, 0, 0, 0, 0, "group|router", "group",
      "dragonfly valiant, ugal, par: the intermediate is a group or a router" },
    { "--select", NULL, "HOW", CLI_CHOICE, 0, 0, 0, 0, "credits|random", "credits",
      "how a packet chooses among its candidates: the free VC with the\n"
      "most credits, again each cycle (adaptive), or once at random\n"
      "(oblivious; random up-routing in a folded Clos)" },
    { "--ugal-bias", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "0",
      "flits added to the non-minimal side of UGAL's rule" },
    { "--no-datelines", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "torus: no dateline VCs (deadlocks; needs --unsafe)" },
    { "--verify", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "prove the routing deadlock-free first (sr_verify_routing, virtual\n"
      "cut-through): its verdict on stderr; a refuted routing is refused" },
    { "--unsafe", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "run a routing that can deadlock: fewer VCs than it needs (the\n"
      "highest VC levels share the last VC), --no-datelines, or one\n"
      "--verify refutes" },
    { "--pipeline", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "3",
      "router delay: cycles from a header's arrival to the switch" },
    { "--speedup", NULL, "N", CLI_INT, 1, 4, 0, 0, "1 to 4, and ports x speedup at most 512", "1",
      "crossbar inputs and outputs per port" },
    { "--va", NULL, "ALLOC", CLI_CHOICE, 0, 0, 0, 0, "spaa|wfa|wfa-wrapped|pim|islip|opf|sep-input|sep-output|mcm",
      "islip", "VC allocator (seastar_arb.h)" },
    { "--sa", NULL, "ALLOC", CLI_CHOICE, 0, 0, 0, 0, "spaa|wfa|wfa-wrapped|pim|islip|opf|sep-input|sep-output|mcm",
      "islip", "switch allocator (seastar_arb.h)" },
    { "--iterations", NULL, "N", CLI_INT, 1, 16, 0, 0, NULL, "1", "iSLIP and PIM iterations" },
    /* traffic */
    { "--pattern", NULL, "NAME", CLI_CHOICE, 0, 0, 0, 0,
      "uniform|hotspot|neighbor|bitrev|bitcomp|transpose|tornado|shuffle|perm|groupshift|hotregion", "uniform",
      "destination pattern (groupshift: a random terminal of the next\n"
      "group, the dragonfly worst case; hotregion: 25% of the packets into\n"
      "the lower half of the first three dimensions, seed 003)" },
    { "--load", NULL, "F", CLI_REAL, 0, 0, 0, 1, NULL, "0.1", "offered flits per terminal per cycle" },
    { "--loads", NULL, "F,F,...", CLI_REAL, 0, 0, 0, 1, "1 to 64 loads 0 to 1, separated by commas", "none",
      "a sweep: one CSV line per load" },
    { "--sizes", NULL, "N[,N...]", CLI_INT, 1, 255, 0, 0, "1 to 8 sizes 1 to 255, at most --max-packet", "1",
      "packet sizes in flits, drawn uniformly" },
    { "--max-packet", NULL, "N", CLI_INT, 1, 255, 0, 0, NULL, "the largest of --sizes",
      "largest packet, flits (sizes the output queues with --speedup)" },
    { "--hotspot", NULL, "N", CLI_INT, 0, 0xFFFFFFFFu, 0, 0, "a terminal of --topo", "0",
      "destination of --pattern hotspot" },
    { "--perm", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, NULL,
      "the permutation of --pattern perm: one destination terminal per line" },
    { "--srcq", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "0 = unbounded",
      "cap each source queue at N packets" },
    /* application workloads (examples/common/sim_jobs.h; packets of the
     * largest of --sizes flits; --nid-order on tori and meshes only) */
    SJ_CLI_OPTIONS,
    /* run */
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000000ull, 0, 0, NULL, "1000", "cycles before measuring" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000000ull, 0, 0, NULL, "10000", "measured cycles" },
    { "--seed", NULL, "N", CLI_INT, 0, UINT64_MAX, 0, 0, NULL, "1", "random seed" },
    { "--seeds", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "1",
      "CSV: run seeds --seed .. --seed+N-1, one line each" },
    { "--stall", NULL, "N", CLI_INT, 10, 100000000, 0, 0, NULL, "10000",
      "cycles without any packet moving that count as a deadlock" },
    { "--max-memory", NULL, "GB", CLI_REAL, 0, 0, 0.01, 4096, "0.01 to 4096", "16",
      "refuse a network whose state would need more memory (what the\n"
      "simulator allocates up front and 16 packets per terminal)" },
    { "--csv", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "one CSV line per run (with a header line)" },
    { "--no-header", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "omit the CSV header" },
    { "--label", NULL, "TEXT", CLI_TEXT, 0, 0, 0, 0, NULL, "empty", "the CSV 'label' column" },
    { "--quiet", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress on stderr" },
};

/* --routing: the algorithm, and whether UGAL reads global queues. */
static const int routing_alg[] = { SR_ALG_DOR, SR_ALG_MIN_ADAPTIVE, SR_ALG_MINIMAL, SR_ALG_VALIANT, SR_ALG_UGAL,
                                   SR_ALG_UGAL, SR_ALG_PAR, SR_ALG_UPDOWN, SR_ALG_DEST_TAG };
static const char *const routing_names[] = { "dor", "min-adaptive", "minimal", "valiant", "ugal-l", "ugal-g", "par",
                                             "updown", "dest-tag" };

static const sa_switch_kind alloc_kinds[] = {
    SA_SWITCH_SPAA, SA_SWITCH_WFA, SA_SWITCH_WFA_WRAPPED, SA_SWITCH_PIM, SA_SWITCH_ISLIP, SA_SWITCH_OPF,
    SA_SWITCH_SEP_INPUT, SA_SWITCH_SEP_OUTPUT, SA_SWITCH_MCM };
static const char *const kind_names[SR_PORT_KIND_COUNT] = { "none", "terminal", "dim", "local", "global", "up", "down" };

/* One whole number s[0..len) in lo..hi, or stop naming opt. */
static uint64_t num_in(const cli *c, const char *s, size_t len, uint64_t lo, uint64_t hi, const char *what) {
    uint64_t v = 0;
    if (cli__parse_u64(s, len, &v) != 0 || v < lo || v > hi)
        cli_bad_value(c, c->opt->name, c->val, "%s \"%.*s\" is not a whole number %llu to %llu", what,
                      (int)(len < 40 ? len : 40), s, (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

/* Split s at sep into at most max items (start, length); stops on an
 * empty item or too many. */
static int split(const cli *c, const char *s, char sep, int max, const char **start, size_t *len) {
    int n = 0;
    for (;;) {
        const char *e = strchr(s, sep);
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l == 0) cli_bad_value(c, c->opt->name, c->val, "an empty item");
        if (n == max) cli_bad_value(c, c->opt->name, c->val, "more than %d items", max);
        start[n] = s; len[n] = l; n++;
        if (!e) return n;
        s = e + 1;
    }
}

/* --topo SPEC into o->desc. */
static void parse_topo(const cli *c, opts *o) {
    const char *v = c->val, *colon = strchr(v, ':'), *st[SR_MAX_LEVELS + 1];
    size_t ln[SR_MAX_LEVELS + 1], kl = colon ? (size_t)(colon - v) : 0;
    char body[256];
    int n, i;
    sr_net_desc *d = &o->desc;
    memset(d, 0, sizeof *d);
    if (!colon || !colon[1]) cli_bad_value(c, c->opt->name, v, "not KIND:PARAMETERS");
    if (strlen(colon + 1) >= sizeof body) cli_bad_value(c, c->opt->name, v, "too long");
    strcpy(body, colon + 1);
    if ((kl == 5 && !strncmp(v, "torus", 5)) || (kl == 4 && !strncmp(v, "mesh", 4))) {
        d->kind = SR_NET_CUBE;
        n = split(c, body, 'x', SR_MAX_DIMS, st, ln);
        d->cube.num_dims = n;
        for (i = 0; i < n; i++) {
            d->cube.radix[i] = (int)num_in(c, st[i], ln[i], 2, 1024, "radix");
            d->cube.mesh[i] = kl == 4;
        }
    } else if (kl == 6 && !strncmp(v, "hyperx", 6)) {
        char *t = strchr(body, ':');
        d->kind = SR_NET_HYPERX;
        if (t) {
            *t = 0;
            d->hyperx.terminals = (int)num_in(c, t + 1, strlen(t + 1), 1, 512, "terminals");
        } else d->hyperx.terminals = 1;
        n = split(c, body, 'x', SR_MAX_DIMS, st, ln);
        d->hyperx.num_dims = n;
        for (i = 0; i < n; i++) d->hyperx.size[i] = (int)num_in(c, st[i], ln[i], 2, 512, "size");
    } else if (kl == 9 && !strncmp(v, "dragonfly", 9)) {
        d->kind = SR_NET_DRAGONFLY;
        n = split(c, body, ',', 4, st, ln);
        if (n < 3) cli_bad_value(c, c->opt->name, v, "a dragonfly needs P,A,H[,G]");
        d->dragonfly.p = (int)num_in(c, st[0], ln[0], 1, 512, "P");
        d->dragonfly.a = (int)num_in(c, st[1], ln[1], 1, 512, "A");
        d->dragonfly.h = (int)num_in(c, st[2], ln[2], 1, 512, "H");
        if (n == 4) d->dragonfly.g = (int)num_in(c, st[3], ln[3], 2, 262145, "G");
    } else if (kl == 4 && !strncmp(v, "clos", 4)) {
        d->kind = SR_NET_CLOS;
        n = split(c, body, ',', SR_MAX_LEVELS, st, ln);
        d->clos.levels = n;
        for (i = 0; i < n; i++) {
            const char *slash = (const char *)memchr(st[i], '/', ln[i]);
            if ((slash != NULL) != (i < n - 1))
                cli_bad_value(c, c->opt->name, v, "level %d: every level but the top is DOWN/UP, the top DOWN", i);
            if (slash) {
                d->clos.down[i] = (int)num_in(c, st[i], (size_t)(slash - st[i]), 1, 512, "down ports");
                d->clos.up[i] = (int)num_in(c, slash + 1, ln[i] - (size_t)(slash - st[i]) - 1, 1, 512, "up ports");
            } else d->clos.down[i] = (int)num_in(c, st[i], ln[i], 1, 512, "down ports");
        }
    } else if (kl == 9 && !strncmp(v, "butterfly", 9)) {
        d->kind = SR_NET_BUTTERFLY;
        n = split(c, body, ',', 2, st, ln);
        if (n < 2) cli_bad_value(c, c->opt->name, v, "a butterfly needs K,N");
        d->butterfly.k = (int)num_in(c, st[0], ln[0], 2, 256, "K");
        d->butterfly.n = (int)num_in(c, st[1], ln[1], 1, SR_MAX_STAGES, "N");
    } else cli_bad_value(c, c->opt->name, v, "unknown topology \"%.*s\"", (int)(kl < 20 ? kl : 20), v);
}

/* --latency / --buffer SPEC into per-kind values in lo..hi. */
static void parse_kinds(const cli *c, int *out, uint64_t lo, uint64_t hi) {
    const char *st[SR_PORT_KIND_COUNT];
    size_t ln[SR_PORT_KIND_COUNT];
    int n, i, k;
    if (!strchr(c->val, '=')) {
        uint64_t v = num_in(c, c->val, strlen(c->val), lo, hi, "value");
        for (k = 1; k < SR_PORT_KIND_COUNT; k++) out[k] = (int)v;
        return;
    }
    n = split(c, c->val, ',', SR_PORT_KIND_COUNT - 1, st, ln);
    for (i = 0; i < n; i++) {
        const char *eq = (const char *)memchr(st[i], '=', ln[i]);
        size_t kl = eq ? (size_t)(eq - st[i]) : 0;
        for (k = 1; k < SR_PORT_KIND_COUNT; k++)
            if (eq && strlen(kind_names[k]) == kl && !strncmp(st[i], kind_names[k], kl)) break;
        if (!eq || k == SR_PORT_KIND_COUNT)
            cli_bad_value(c, c->opt->name, c->val, "\"%.*s\" is not KIND=N with a port kind", (int)(ln[i] < 40 ? ln[i] : 40), st[i]);
        out[k] = (int)num_in(c, eq + 1, ln[i] - kl - 1, lo, hi, kind_names[k]);
    }
}

static void set_defaults(opts *o) {
    memset(o, 0, sizeof *o);
    o->topo_spec = "torus:8x8x8";
    o->desc.kind = SR_NET_CUBE;
    o->desc.cube.num_dims = 3;
    o->desc.cube.radix[0] = o->desc.cube.radix[1] = o->desc.cube.radix[2] = 8;
    nc_params_default(&o->p);
    iq_params_default(&o->ip);
    sim_traffic_default(&o->t);
    o->t.sizes[0] = 1;
    o->warmup = 1000;
    o->cycles = 10000;
    o->seed = 1;
    o->seeds = 1;
    o->stall = 10000;
    o->csv_header = 1;
    o->max_memory_gb = 16;
    sj_opts_default(&o->wl);
    bgl_params_default(&o->bp);
    o->bgl_arb = 3;
    o->alltoall = -1;
}

/* Bytes a run of the network needs: what the core and the routers allocate
 * up front, and 16 packets per terminal (a run below saturation holds far
 * fewer; a saturated one with unbounded source queues grows past it). */
static double memory_bytes(const opts *o) {
    double pk = sizeof(sim_packet) + sizeof(sr_header);
    return nc_memory_bytes(&o->net, o->p.vcs) +
           (o->router == ROUTER_BGL ? bgl_memory_bytes(&o->net, o->p.vcs) : iq_memory_bytes(&o->net, o->p.vcs, &o->ip)) +
           (double)o->net.num_terminals * (16.0 * pk + 8) + 4.0 * SIM_LAT_BINS * 2;
}

/* --verify: prove the routing (virtual cut-through) and say so on
 * stderr; a refuted routing stops the program unless --unsafe. */
static void verify(const cli *c, const opts *o, const sr_routing *rt) {
    size_t size = sr_verify_routing_scratch_size(rt, SR_SWITCH_VCT);
    void *scratch = sim_calloc(size ? size : 8, 1);
    sr_routing_report *rep = (sr_routing_report *)sim_calloc(1, sizeof *rep);
    sr_result rr = sr_verify_routing(rt, SR_SWITCH_VCT, scratch, size, rep);
    char what[200];
    free(scratch);
    if (rr != SR_OK) cli_fail(c, "--verify: %s", sr_result_string(rr));
    if (rep->failure == SR_RFAIL_DEADLOCK && rep->cycle_len > 0)
        snprintf(what, sizeof what, "%s of %d channels, one of them router %u port %d VC %d",
                 sr_rfailure_string(rep->failure), rep->cycle_len, rep->cycle[0].router, rep->cycle[0].port,
                 rep->cycle[0].vc);
    else snprintf(what, sizeof what, "%s (terminal %u to %u)", sr_rfailure_string(rep->failure), rep->src, rep->dst);
    if (!quiet_rank() || !rep->proven)
        fprintf(stderr, "netsim: --verify: routing %s on %s with %d VCs: %s%s\n", routing_names[o->routing],
                o->topo_spec, o->p.vcs, rep->proven ? "proven deadlock-free and delivering" : "refuted: ",
                rep->proven ? "" : what);
    if (!rep->proven && !o->unsafe) { free(rep); exit(CLI_EXIT_USAGE); }
    free(rep);
}

/* The options of each router model, refused with the other. */
static const char *const iq_only[] = { "--vcs", "--routing", "--df-vcs", "--escape", "--inter", "--select",
                                       "--ugal-bias", "--no-datelines", "--speedup", "--va", "--sa", "--iterations",
                                       "--sizes", "--max-packet", "--buffer", "--unsafe", "--srcq" };
static const char *const bgl_only[] = { "--bgl-dynamic", "--bgl-escape", "--bgl-order", "--bgl-rule",
                                        "--bgl-vc-bytes", "--bgl-escape-bytes", "--bgl-bytes", "--bgl-arbitration", "--bgl-paths",
                                        "--bgl-static", "--bgl-injection", "--alltoall", "--alltoall-order",
                                        "--series" };

static void bgl_refuse(const cli *c) {
    size_t i;
    for (i = 0; i < sizeof bgl_only / sizeof bgl_only[0]; i++)
        if (cli_given(c, bgl_only[i])) cli_fail(c, "%s is an option of the BlueGene/L router: it needs --router bgl", bgl_only[i]);
}

/* --router bgl: check its options, set the core's parameters and the
 * traffic's packet sizes; --verify proves its routing. */
static void bgl_setup(const cli *c, opts *o) {
    const char *err;
    size_t i;
    for (i = 0; i < sizeof iq_only / sizeof iq_only[0]; i++)
        if (cli_given(c, iq_only[i]))
            cli_fail(c, "%s is an option of the input-queued router; --router bgl has its --bgl-* options", iq_only[i]);
    if (o->desc.kind != SR_NET_CUBE || o->desc.cube.num_dims > SR_BGL_MAX_DIMS)
        cli_fail(c, "--router bgl needs a torus or mesh --topo of 1 to 4 dimensions");
    if (o->wl.workload != SJ_WL_NONE) cli_fail(c, "--workload runs with the input-queued router only (--alltoall is the bgl one)");
    if (!cli_given(c, "--bgl-bytes")) { o->t.num_sizes = 1; o->t.sizes[0] = SR_BGL_MAX_PACKET_BYTES / BGL_FLIT_BYTES; }
    if (cli_given(c, "--pipeline")) {
        o->bp.pipeline = o->ip.pipeline;
        o->bp.bypass_pipeline = (o->ip.pipeline + 1) / 2;
    }
    o->bp.jsq = o->bgl_arb == 1 || o->bgl_arb == 3;
    if (o->bgl_arb < 2) { o->bp.slq_num = 0; o->bp.slq_den = 1; }
    {   /* the impossible configurations, each named by its option */
        const sr_bgl_config *g = &o->bp.cfg;
        const char *vo = cli_given(c, "--bgl-escape-bytes") ? "--bgl-escape-bytes" : "--bgl-vc-bytes";
        if (g->num_dynamic < 1 || g->num_dynamic > SR_BGL_MAX_DYNAMIC)
            cli_fail(c, "--bgl-dynamic %d: at least one dynamic VC, at most %d", g->num_dynamic, SR_BGL_MAX_DYNAMIC);
        if (g->escape == SR_BGL_ESCAPE_BUBBLE && g->escape_bytes < 2 * SR_BGL_MAX_PACKET_BYTES)
            cli_fail(c, "%s %d: a bubble VC must hold two full-sized packets (512 bytes)", vo, g->escape_bytes);
        if (g->dynamic_bytes % SR_BGL_CHUNK_BYTES || g->dynamic_bytes < SR_BGL_MAX_PACKET_BYTES)
            cli_fail(c, "--bgl-vc-bytes %d: a VC buffer is whole 32-byte chunks and holds a full-sized packet (256 "
                     "bytes)", g->dynamic_bytes);
        if (g->escape_bytes % SR_BGL_CHUNK_BYTES || g->escape_bytes < SR_BGL_MAX_PACKET_BYTES)
            cli_fail(c, "%s %d: a VC buffer is whole 32-byte chunks and holds a full-sized packet (256 bytes)", vo,
                     g->escape_bytes);
    }
    err = bgl_params_check(&o->bp);
    if (err) cli_fail(c, "--router bgl: %s", err);
    bgl_nc_params(&o->p, &o->bp, o->bgl_inj_bytes);
    if (cli_given(c, "--alltoall-order") && o->alltoall < 0) cli_fail(c, "--alltoall-order needs --alltoall");
    if (o->alltoall >= 0) {
        static const char *const traffic[] = { "--pattern", "--load", "--loads", "--hotspot", "--perm", "--warmup" };
        for (i = 0; i < sizeof traffic / sizeof traffic[0]; i++)
            if (cli_given(c, traffic[i])) cli_fail(c, "--alltoall is the traffic: %s contradicts it", traffic[i]);
        o->warmup = 0;
    }
    if (o->verify) {
        sr_custom_routing cr;
        sr_routing_desc rd;
        sr_routing rt;
        sr_routing_report *rep = (sr_routing_report *)sim_calloc(1, sizeof *rep);
        size_t size;
        void *scratch;
        sr_result rr = sr_bgl_custom_routing(&o->bp.cfg, o->desc.cube.num_dims, &cr);
        memset(&rd, 0, sizeof rd);
        rd.algorithm = SR_ALG_CUSTOM;
        rd.custom = &cr;
        if (rr == SR_OK) rr = sr_routing_init(&rt, &o->net, &rd);
        if (rr != SR_OK) cli_fail(c, "--verify: %s", sr_result_string(rr));
        size = sr_verify_routing_scratch_size(&rt, SR_SWITCH_VCT);
        scratch = sim_calloc(size, 1);
        rr = sr_verify_routing(&rt, SR_SWITCH_VCT, scratch, size, rep);
        free(scratch);
        if (rr != SR_OK) cli_fail(c, "--verify: %s", sr_result_string(rr));
        if (!quiet_rank() || !rep->proven)
            fprintf(stderr, "netsim: --verify: BlueGene/L routing (%s escape, %s order) on %s: %s%s\n",
                    o->bp.cfg.escape == SR_BGL_ESCAPE_BUBBLE ? "bubble" : "dateline-pair",
                    o->bp.cfg.escape_order == SR_BGL_ORDER_DIMENSION ? "dimension" : "direction", o->topo_spec,
                    rep->proven ? "proven deadlock-free and delivering (cut-through)" : "refuted: ",
                    rep->proven ? "" : sr_rfailure_string(rep->failure));
        if (!rep->proven) { free(rep); exit(CLI_EXIT_USAGE); }
        free(rep);
    }
}

static void parse(opts *o, int argc, char **argv) {
    cli c;
    int max_size = 0, i;
    cli_init(&c, "netsim", usage_text, notes_text, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--topo")) { o->topo_spec = c.val; parse_topo(&c, o); }
        else if (cli_is(&c, "--arrangement")) o->desc.dragonfly.arrangement = cli_choice(&c);
        else if (cli_is(&c, "--latency")) parse_kinds(&c, o->p.latency, 1, 100000);
        else if (cli_is(&c, "--buffer")) parse_kinds(&c, o->p.buf_flits, 1, 1000000);
        else if (cli_is(&c, "--vcs")) o->p.vcs = (int)cli_uint(&c);
        else if (cli_is(&c, "--routing")) o->routing = cli_choice(&c);
        else if (cli_is(&c, "--df-vcs")) o->ip.routing.df_vc = cli_choice(&c);
        else if (cli_is(&c, "--escape")) o->ip.routing.escape = cli_choice(&c);
        else if (cli_is(&c, "--inter")) { if (cli_choice(&c)) o->ip.routing.flags |= SR_ROUTE_INTER_ROUTER; }
        else if (cli_is(&c, "--ugal-bias")) o->ip.ugal_bias = (int64_t)cli_uint(&c);
        else if (cli_is(&c, "--select")) o->ip.select = cli_choice(&c) == 0 ? IQ_SELECT_CREDITS : IQ_SELECT_RANDOM;
        else if (cli_is(&c, "--no-datelines")) o->ip.routing.flags |= SR_ROUTE_NO_DATELINES;
        else if (cli_is(&c, "--verify")) o->verify = 1;
        else if (cli_is(&c, "--unsafe")) o->unsafe = 1;
        else if (cli_is(&c, "--pipeline")) o->ip.pipeline = (int)cli_uint(&c);
        else if (cli_is(&c, "--speedup")) o->ip.speedup = (int)cli_uint(&c);
        else if (cli_is(&c, "--va")) o->ip.va_kind = alloc_kinds[cli_choice(&c)];
        else if (cli_is(&c, "--sa")) o->ip.sw_kind = alloc_kinds[cli_choice(&c)];
        else if (cli_is(&c, "--iterations")) o->ip.iterations = (int)cli_uint(&c);
        else if (cli_is(&c, "--pattern")) o->t.pattern = (sim_pattern)cli_choice(&c);
        else if (cli_is(&c, "--load")) o->t.load = cli_real(&c);
        else if (cli_is(&c, "--loads")) o->num_loads = cli_real_list(&c, ',', 1, 64, o->loads);
        else if (cli_is(&c, "--sizes")) {
            uint64_t z[8];
            o->t.num_sizes = cli_uint_list(&c, ',', 1, 8, z);
            for (i = 0; i < o->t.num_sizes; i++) o->t.sizes[i] = (int)z[i];
        }
        else if (cli_is(&c, "--max-packet")) o->p.max_packet_flits = (int)cli_uint(&c);
        else if (cli_is(&c, "--hotspot")) o->t.hotspot = (uint32_t)cli_uint(&c);
        else if (cli_is(&c, "--perm")) o->perm_path = c.val;
        else if (cli_is(&c, "--srcq")) o->t.src_queue_max = (uint32_t)cli_uint(&c);
        else if (cli_is(&c, "--warmup")) o->warmup = cli_uint(&c);
        else if (cli_is(&c, "--cycles")) o->cycles = cli_uint(&c);
        else if (cli_is(&c, "--seed")) o->seed = cli_uint(&c);
        else if (cli_is(&c, "--seeds")) o->seeds = (int)cli_uint(&c);
        else if (cli_is(&c, "--stall")) o->stall = cli_uint(&c);
        else if (cli_is(&c, "--max-memory")) o->max_memory_gb = cli_real(&c);
        else if (cli_is(&c, "--csv")) o->csv = 1;
        else if (cli_is(&c, "--no-header")) o->csv_header = 0;
        else if (cli_is(&c, "--label")) o->label = c.val;
        else if (cli_is(&c, "--quiet")) o->quiet = 1;
        else if (cli_is(&c, "--router")) o->router = cli_choice(&c);
        else if (cli_is(&c, "--bgl-dynamic")) o->bp.cfg.num_dynamic = (int)cli_uint(&c);
        else if (cli_is(&c, "--bgl-escape")) o->bp.cfg.escape = cli_choice(&c) ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
        else if (cli_is(&c, "--bgl-order")) o->bp.cfg.escape_order = cli_choice(&c) ? SR_BGL_ORDER_DIRECTION : SR_BGL_ORDER_DIMENSION;
        else if (cli_is(&c, "--bgl-rule")) o->bp.cfg.bubble_rule = cli_choice(&c) ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
        else if (cli_is(&c, "--bgl-vc-bytes")) {
            o->bp.cfg.dynamic_bytes = (int)cli_uint(&c);
            if (!cli_given(&c, "--bgl-escape-bytes")) o->bp.cfg.escape_bytes = o->bp.cfg.dynamic_bytes;
        }
        else if (cli_is(&c, "--bgl-escape-bytes")) o->bp.cfg.escape_bytes = (int)cli_uint(&c);
        else if (cli_is(&c, "--bgl-bytes")) {
            uint64_t z[8];
            o->t.num_sizes = cli_uint_list(&c, ',', 1, 8, z);
            for (i = 0; i < o->t.num_sizes; i++) {
                if (z[i] % SR_BGL_CHUNK_BYTES || z[i] < SR_BGL_MIN_PACKET_BYTES || z[i] > SR_BGL_MAX_PACKET_BYTES)
                    cli_bad_value(&c, "--bgl-bytes", c.val, "packet sizes must be 32 to 256 bytes in 32-byte chunks "
                                  "(%llu is not)", (unsigned long long)z[i]);
                o->t.sizes[i] = (int)(z[i] / BGL_FLIT_BYTES);
            }
        }
        else if (cli_is(&c, "--bgl-arbitration")) o->bgl_arb = cli_choice(&c);
        else if (cli_is(&c, "--bgl-paths")) o->bp.paths = (int)cli_uint(&c);
        else if (cli_is(&c, "--bgl-static")) o->bp.static_routing = 1;
        else if (cli_is(&c, "--bgl-injection")) {
            o->bgl_inj_bytes = (uint32_t)cli_uint(&c);
            if (o->bgl_inj_bytes && (o->bgl_inj_bytes < SR_BGL_MAX_PACKET_BYTES || o->bgl_inj_bytes % BGL_FLIT_BYTES))
                cli_bad_value(&c, "--bgl-injection", c.val, "an injection FIFO must hold a full-sized packet (256 "
                              "bytes) in 4-byte flits, or be 0 (infinite)");
        }
        else if (cli_is(&c, "--alltoall")) o->alltoall = cli_choice(&c);
        else if (cli_is(&c, "--alltoall-order")) o->a2a_random = cli_choice(&c);
        else if (cli_is(&c, "--series")) o->series = cli_uint(&c);
        else if (sj_opts_read(&c, &o->wl)) continue;
        else cli_unhandled(&c);
    }
    /* the network */
    {
        sr_result rr = sr_net_init(&o->net, &o->desc);
        if (rr != SR_OK) cli_bad_value(&c, "--topo", o->topo_spec, "%s", sr_result_string(rr));
        if ((uint64_t)o->net.num_routers * (uint64_t)o->net.radix + o->net.num_terminals >= NC_MAX_CHANNELS)
            cli_bad_value(&c, "--topo", o->topo_spec, "more than 2^28 channels and terminals");
    }
    if (cli_given(&c, "--arrangement") && o->desc.kind != SR_NET_DRAGONFLY)
        cli_fail(&c, "--arrangement wires a dragonfly: it needs --topo dragonfly:...");
    if (o->router == ROUTER_BGL) { bgl_setup(&c, o); goto traffic; }
    bgl_refuse(&c);
    /* sizes and buffers */
    for (i = 0; i < o->t.num_sizes; i++) if (o->t.sizes[i] > max_size) max_size = o->t.sizes[i];
    if (!cli_given(&c, "--max-packet")) o->p.max_packet_flits = max_size;
    else if (max_size > o->p.max_packet_flits) {
        char num[32];
        snprintf(num, sizeof num, "%d", o->p.max_packet_flits);
        cli_bad_value(&c, "--max-packet", num, "a packet of --sizes is larger (%d flits)", max_size);
    }
    o->p.wake_ahead = iq_wake_ahead(&o->ip, o->p.max_packet_flits);
    for (i = 1; i < SR_PORT_KIND_COUNT; i++)
        if (o->p.buf_flits[i] < o->p.max_packet_flits)
            cli_fail(&c, "--buffer: %s input buffers of %d flits cannot hold a %d-flit packet (virtual cut-through)",
                     kind_names[i], o->p.buf_flits[i], o->p.max_packet_flits);
    /* the router */
    if (o->net.radix * o->ip.speedup > SA_SWITCH_MAX)
        cli_fail(&c, "--speedup %d: routers of %d ports would need a %d x %d switch allocator (at most 512)",
                 o->ip.speedup, o->net.radix, o->net.radix * o->ip.speedup, o->net.radix * o->ip.speedup);
    {
        sr_routing rt;
        sr_result rr;
        int need;
        if (!cli_given(&c, "--routing"))
            o->routing = o->desc.kind == SR_NET_DRAGONFLY ? 2 : o->desc.kind == SR_NET_CLOS ? 7
                       : o->desc.kind == SR_NET_BUTTERFLY ? 8 : 0;
        o->ip.routing.algorithm = routing_alg[o->routing];
        o->ip.ugal = o->routing == 5 ? IQ_UGAL_GLOBAL : IQ_UGAL_LOCAL;
        if (o->ip.routing.algorithm == SR_ALG_PAR && !cli_given(&c, "--df-vcs")) o->ip.routing.df_vc = SR_DF_VC_LOCAL;
        if ((o->ip.routing.flags & SR_ROUTE_NO_DATELINES) && !o->unsafe)
            cli_fail(&c, "--no-datelines lets a torus deadlock: it needs --unsafe");
        if (cli_given(&c, "--df-vcs") && o->desc.kind != SR_NET_DRAGONFLY)
            cli_fail(&c, "--df-vcs assigns a dragonfly's VCs: it needs --topo dragonfly:...");
        if (cli_given(&c, "--inter") && o->desc.kind != SR_NET_DRAGONFLY)
            cli_fail(&c, "--inter chooses a dragonfly's intermediates: it needs --topo dragonfly:...");
        need = sr_routing_vcs_needed(&o->net, &o->ip.routing);
        if (need == SR_ROUTE_VCS_NONE) {
            if (!o->unsafe)
                cli_fail(&c, "--routing %s with --df-vcs globals deadlocks with any number of VCs (two local hops "
                         "share a VC level): use --df-vcs local (--unsafe runs it anyway)", routing_names[o->routing]);
            o->ip.routing.flags |= SR_ROUTE_FEWER_VCS;
            need = cli_given(&c, "--vcs") ? o->p.vcs : 0;     /* 0: sr_routing_init's levels */
        }
        if (need < 0)
            cli_fail(&c, "--routing %s is not defined on --topo %s (or an option of it does not apply there)",
                     routing_names[o->routing], o->topo_spec);
        if (!cli_given(&c, "--vcs")) o->p.vcs = need;
        else if (need > o->p.vcs && !o->unsafe)
            cli_fail(&c, "--routing %s needs %d VCs on --topo %s: --vcs %d is too few (--unsafe runs it anyway)",
                     routing_names[o->routing], need, o->topo_spec, o->p.vcs);
        if (need > o->p.vcs) o->ip.routing.flags |= SR_ROUTE_FEWER_VCS;
        o->ip.routing.vcs = o->p.vcs;
        rr = sr_routing_init(&rt, &o->net, &o->ip.routing);
        if (rr != SR_OK) cli_fail(&c, "--routing %s: %s", routing_names[o->routing], sr_result_string(rr));
        o->p.vcs = o->ip.routing.vcs = rt.vcs;
        if (o->verify) verify(&c, o, &rt);
        if (o->net.radix * o->p.vcs > SA_SWITCH_MAX)
            cli_fail(&c, "--vcs %d: routers of %d ports would need a %d x %d VC allocator (at most 512)", o->p.vcs,
                     o->net.radix, o->net.radix * o->p.vcs, o->net.radix * o->p.vcs);
    }
traffic:
    if (cli_given(&c, "--load") && cli_given(&c, "--loads")) cli_fail(&c, "--load and --loads contradict each other");
    if (o->t.pattern == SIM_PERMUTATION && !o->perm_path) cli_fail(&c, "--pattern perm needs --perm FILE");
    if (o->perm_path && o->t.pattern != SIM_PERMUTATION) cli_fail(&c, "--perm FILE needs --pattern perm");
    if (cli_given(&c, "--hotspot") && o->t.pattern != SIM_HOTSPOT) cli_fail(&c, "--hotspot N needs --pattern hotspot");
    if (o->t.hotspot >= o->net.num_terminals) {
        char num[32];
        snprintf(num, sizeof num, "%u", o->t.hotspot);
        cli_bad_value(&c, "--hotspot", num, "not one of the %u terminals of --topo", o->net.num_terminals);
    }
    if (o->wl.workload == SJ_WL_NONE) {
        char note[320];
        if (sim_traffic_note(&o->t, o->net.num_terminals, note, sizeof note)) fprintf(stderr, "netsim: note: %s\n", note);
    }
    if (o->t.pattern == SIM_GROUP_SHIFT && o->desc.kind != SR_NET_DRAGONFLY)
        cli_fail(&c, "--pattern groupshift sends to the next group of a dragonfly: it needs --topo dragonfly:...");
    if ((o->t.pattern == SIM_TORNADO || o->t.pattern == SIM_NEIGHBOR) &&
        o->desc.kind != SR_NET_CUBE && o->desc.kind != SR_NET_HYPERX)
        cli_fail(&c, "--pattern %s moves in router coordinates: it needs a torus, mesh or hyperx --topo",
                 sim_pattern_name(o->t.pattern));
    /* workloads */
    {
        static const char *const traffic[] = { "--pattern", "--load", "--loads", "--hotspot", "--perm", "--srcq" };
        sj_opts_check(&c, &o->wl, o->net.num_terminals, traffic, (int)(sizeof traffic / sizeof traffic[0]));
        if (o->desc.kind != SR_NET_CUBE) {
            if (cli_given(&c, "--nid-order")) cli_fail(&c, "--nid-order numbers the nodes of a torus or mesh only");
            o->wl.nid_x = 0;
        }
    }
    /* output */
    if (!o->csv_header && !o->csv && !o->num_loads) cli_fail(&c, "--no-header needs CSV output (--csv or --loads)");
    if (o->label && !o->csv && !o->num_loads) cli_fail(&c, "--label names a CSV line: it needs --csv or --loads");
    if (o->seeds > 1 && !o->csv && !o->num_loads) cli_fail(&c, "--seeds N prints one CSV line per seed: it needs --csv");
    if (o->num_loads) o->csv = 1;
    /* memory */
    {
        double need = memory_bytes(o) / 1e9;
        if (need > o->max_memory_gb)
            cli_fail(&c, "--topo %s needs about %.1f GB of simulator state, above --max-memory %g", o->topo_spec,
                     need, o->max_memory_gb);
    }
}

/* Build a run's network: the whole of it, or this rank's part. */
static const char *net_init(nc_net *net, const opts *o, const sim_traffic *t, uint64_t seed) {
#ifdef NC_MPI
    return nc_mpi_net_init(&g_mpi, net, &o->net, &o->p, t, seed);
#else
    return nc_net_init(net, &o->net, &o->p, t, seed);
#endif
}

/* The conservation audit (of every rank). */
static const char *net_audit(nc_net *net) {
    const char *err = nc_audit(net);
#ifdef NC_MPI
    const char *all = sim_mpi_check_handover(net->exported, net->imported);
    if (!err) err = all;
#endif
    return err;
}

/* The end of a run (MPI: every rank gets here). */
static void finish(int status) {
#ifdef NC_MPI
    fflush(stdout);
    sim_mpi_free(&g_mpi);
    MPI_Finalize();
#endif
    if (status) exit(status);
}

/* The stall report: one line, exit status 4. */
static void stalled(nc_net *net, void *m, const opts *o) {
    char why[256] = "";
    uint32_t r;
    for (r = 0; r < net->routers; r++)
        if (nc_owns(net, r) && net->model.waiting(m, net, r, why, sizeof why)) break;
    fprintf(stderr, "netsim: deadlock: no packet has moved for %llu cycles at cycle %llu with %llu packets "
            "in the network%s%s\n", (unsigned long long)o->stall, (unsigned long long)net->now,
            (unsigned long long)nc_in_network(net), why[0] ? "; for example " : "", why);
    finish(EXIT_STALL);
}

/* Run `cycles` cycles in chunks, checking for a stall after each. */
static void run_checked(nc_net *net, void *m, const opts *o, uint64_t cycles, const char *label) {
    uint64_t done = 0, chunk = o->stall / 2 < 1000 ? o->stall / 2 : 1000;
    while (done < cycles) {
        uint64_t len = cycles - done < chunk ? cycles - done : chunk;
        nc_run(net, len, o->progress, label);
        done += len;
        if (nc_stalled(net, o->stall)) stalled(net, m, o);
    }
}

/* One run: build, warm up, measure, audit; exits on any error. */
static void run_one(const opts *o, double load, uint64_t seed, sim_summary *s, uint64_t *in_flight) {
    nc_net net;
    iq_model m;
    sim_traffic t = o->t;
    const char *err;
    char label[64];
    t.load = load;
    err = net_init(&net, o, &t, seed);
    if (!err) err = iq_init(&m, &net, &o->ip, seed);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(1); exit(1); }
    snprintf(label, sizeof label, "load %.3f seed %llu", load, (unsigned long long)seed);
    run_checked(&net, &m, o, o->warmup, label);
    nc_stats_reset(&net);
    run_checked(&net, &m, o, o->cycles, label);
    err = net_audit(&net);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(3); }
    nc_summarize(&net, s, in_flight);
    iq_free(&m);
    nc_net_free(&net);
}

/* ---- application workloads (sim_jobs.h) ---- */

typedef struct wl_ctx { nc_net *net; iq_model *m; const opts *o; const char *label; } wl_ctx;

static void wl_send(void *ctx, uint32_t src, uint32_t dst, int size, uint32_t tag) {
    nc_net *net = ((wl_ctx *)ctx)->net;
    uint32_t pi = nc_send_packet(net, src, dst, size);
    net->pool.pkt[pi].tag = tag;
}
static void wl_step(void *ctx) {
    wl_ctx *w = (wl_ctx *)ctx;
    nc_run(w->net, 1, NULL, NULL);
    if (w->net->now % 1000 == 0 && nc_stalled(w->net, w->o->stall)) stalled(w->net, w->m, w->o);
}
static uint64_t wl_now(void *ctx) { return ((wl_ctx *)ctx)->net->now; }
static void wl_reset(void *ctx) { nc_stats_reset(((wl_ctx *)ctx)->net); }

/* One workload run with seed: the network without random traffic, the
 * jobs on its terminals (sj_run), the audit. */
static void run_workload(const opts *o, uint64_t seed, sim_summary *s, uint64_t *in_flight, sj_result *w) {
    nc_net net;
    iq_model m;
    sj_model jm;
    sj_network n;
    wl_ctx x;
    sim_traffic t = o->t;
    const char *err;
    char label[64];
    t.load = 0;
    t.pattern = SIM_UNIFORM;
    err = net_init(&net, o, &t, seed);
    if (!err) err = iq_init(&m, &net, &o->ip, seed);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(1); exit(1); }
    sj_init(&jm, net.terminals, seed, o->wl.jitter);
    sj_place_nids(&jm, &net.shape, o->wl.nid_x);
    jm.packet_flits = o->p.max_packet_flits;
    x.net = &net; x.m = &m; x.o = o; x.label = label;
    jm.send = wl_send;
    jm.ctx = &x;
    net.on_deliver = sj_on_deliver;
    net.on_deliver_ctx = &jm;
    snprintf(label, sizeof label, "%s seed %llu", sj_workload_name(o->wl.workload), (unsigned long long)seed);
    n.ctx = &x; n.step = wl_step; n.now = wl_now; n.reset = wl_reset; n.routers = (double)net.routers;
    sj_run(&jm, &o->wl, &n, o->warmup, o->cycles, o->progress, label, w);
    err = net_audit(&net);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(3); }
    nc_summarize(&net, s, in_flight);
    sj_free(&jm);
    iq_free(&m);
    nc_net_free(&net);
}

/* ---- the BlueGene/L router (--router bgl) ---- */

/* What a bgl run reports besides the core's summary. */
typedef struct bgl_out {
    double link_use, payload_use, escape_share, unblocking;
    double hot_in_use;      /* --pattern hotregion: use of the links into the region */
    uint64_t cycles;        /* --alltoall: cycles until the last delivery */
} bgl_out;

/* v[0..n) reduced over the MPI ranks (op SIM_REDUCE_SUM or
 * SIM_REDUCE_MAX); as it is in one process.  Every rank calls it at the
 * same point of the run. */
static void bgl_reduce(nc_net *net, uint64_t *v, size_t n, int op) {
    if (net->reduce && net->parts > 1) net->reduce(net->reduce_ctx, v, n, op);
}

/* The model's counters over the whole network (every rank calls it). */
static bgl_stats bgl_totals(nc_net *net, const bgl_model *m) {
    bgl_stats s = m->st;
    uint64_t v[7];
    v[0] = s.packet_flits; v[1] = s.ack_flits; v[2] = s.payload_bytes; v[3] = s.hops;
    v[4] = s.escape_hops; v[5] = s.acks; v[6] = s.unblocking;
    bgl_reduce(net, v, 7, SIM_REDUCE_SUM);
    s.packet_flits = v[0]; s.ack_flits = v[1]; s.payload_bytes = v[2]; s.hops = v[3];
    s.escape_hops = v[4]; s.acks = v[5]; s.unblocking = v[6];
    return s;
}

/* A count of this rank summed over the ranks (every rank calls it). */
static uint64_t bgl_sum(nc_net *net, uint64_t x) {
    bgl_reduce(net, &x, 1, SIM_REDUCE_SUM);
    return x;
}

/* The window figures of counters st over `cycles` cycles of `links`
 * links. */
static void bgl_figures(const bgl_stats *st, uint64_t links, uint64_t cycles, bgl_out *b) {
    double cap = (double)links * (double)(cycles ? cycles : 1);
    b->link_use = (double)(st->packet_flits + st->ack_flits) / cap;
    b->payload_use = (double)st->payload_bytes / (cap * BGL_FLIT_BYTES);
    b->escape_share = st->hops ? (double)st->escape_hops / (double)st->hops : 0;
    b->unblocking = st->acks ? (double)st->unblocking / (double)st->acks : 0;
}

/* Whether router r is in the hot region (sim_traffic.h SIM_HOT_REGION). */
static int bgl_in_region(const sim_shape *sh, uint32_t r) {
    int c[SIM_MAX_DIMS], i;
    sim_coords(sh, r, c);
    for (i = 0; i < sh->dims && i < 3; i++)
        if (sh->radix[i] > 1 && c[i] >= sh->radix[i] / 2) return 0;
    return 1;
}

/* The mean use of the links that enter the hot region, from link flit
 * counts now minus those of `before` (NULL: zero), over `len` cycles
 * (every rank calls it: a rank counts the links of its routers). */
static double bgl_hot_in(nc_net *net, const bgl_model *m, const uint64_t *before, uint64_t len) {
    uint64_t sum = 0;
    uint32_t r, n = 0;
    int p;
    if (net->traffic.pattern != SIM_HOT_REGION) return 0;
    for (r = 0; r < net->routers; r++)
        for (p = 0; p < m->NP; p++) {
            const nc_chan *c = nc_out_chan(net, r, p);
            size_t k = (size_t)r * (uint32_t)m->NP + (uint32_t)p;
            if (c->to == SR_NO_NODE || bgl_in_region(&net->shape, r) || !bgl_in_region(&net->shape, c->to)) continue;
            if (nc_owns(net, r)) sum += m->link_flits[k] - (before ? before[k] : 0);
            n++;
        }
    sum = bgl_sum(net, sum);
    return n && len ? (double)sum / ((double)n * (double)len) : 0;
}

/* --series: a CSV line per interval (its figures alone). */
static void bgl_series_line(const opts *o, uint64_t seed, nc_net *net, const bgl_model *m, uint64_t links,
                            uint64_t len, uint64_t flits0, const bgl_stats *s0, const uint64_t *lf0) {
    bgl_stats d = bgl_totals(net, m);
    uint64_t flits = bgl_sum(net, net->st.delivered_flits);
    double hot = bgl_hot_in(net, m, lf0, len);
    bgl_out b;
    d.packet_flits -= s0->packet_flits; d.ack_flits -= s0->ack_flits; d.payload_bytes -= s0->payload_bytes;
    d.hops -= s0->hops; d.escape_hops -= s0->escape_hops; d.acks -= s0->acks; d.unblocking -= s0->unblocking;
    bgl_figures(&d, links, len, &b);
    cli_csv_field(stdout, o->label ? o->label : "", 1);
    printf(",%llu,%llu,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f\n", (unsigned long long)seed, (unsigned long long)net->now,
           (double)(flits - flits0) / ((double)net->terminals * (double)len), b.link_use,
           b.payload_use, b.escape_share, b.unblocking, hot);
}

/* Run `cycles` cycles of a bgl network, with --series lines. */
static void bgl_run_span(nc_net *net, bgl_model *m, const opts *o, uint64_t seed, uint64_t cycles, uint64_t links,
                         const char *label, int until_empty) {
    uint64_t done = 0, *lf0 = o->series ? (uint64_t *)sim_calloc((size_t)net->routers * (uint32_t)m->NP, 8) : NULL;
    while (done < cycles && !(until_empty && bgl_sum(net, nc_in_flight(net)) == 0)) {
        uint64_t len = o->series ? o->series : 1000, flits0 = o->series ? bgl_sum(net, net->st.delivered_flits) : 0;
        bgl_stats s0 = o->series ? bgl_totals(net, m) : m->st;
        if (len > cycles - done) len = cycles - done;
        if (until_empty && !o->series && len > 100) len = 100;
        if (lf0) memcpy(lf0, m->link_flits, (size_t)net->routers * (uint32_t)m->NP * 8);
        run_checked(net, m, o, len, label);
        done += len;
        if (o->series) bgl_series_line(o, seed, net, m, links, len, flits0, &s0, lf0);
    }
    free(lf0);
}

/* on_deliver of an all-to-all: the cycle of the last delivery. */
static void bgl_last_delivery(void *ctx, const sim_packet *pk, uint64_t now) {
    (void)pk;
    *(uint64_t *)ctx = now;
}

/* One bgl run: random traffic (warm-up, then the window), or an
 * all-to-all queued at cycle 0 and run until delivered. */
static void bgl_run_one(const opts *o, double load, uint64_t seed, sim_summary *s, uint64_t *in_flight, bgl_out *b) {
    nc_net net;
    bgl_model m;
    sim_traffic t = o->t;
    const char *err;
    char label[64];
    uint64_t links, last = 0;
    t.load = o->alltoall >= 0 ? 0 : load;
    err = net_init(&net, o, &t, seed);
    if (!err) err = bgl_init(&m, &net, &o->bp, seed);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(1); exit(1); }
    links = bgl_links(&net);
    memset(b, 0, sizeof *b);
    if (o->alltoall >= 0) {
        uint32_t src, j, peers = sim_alltoall_size(&net.shape, o->alltoall);
        uint32_t *order = (uint32_t *)sim_calloc(peers, sizeof(uint32_t));
        int size = o->t.sizes[0];
        for (j = 1; j < (uint32_t)o->t.num_sizes; j++) if (o->t.sizes[j] > size) size = o->t.sizes[j];
        for (src = 0; src < net.terminals; src++) {
            if (!nc_owns(&net, net.term[src].router)) continue;
            for (j = 1; j < peers; j++) order[j] = j;
            if (o->a2a_random) {              /* Fisher-Yates over 1..peers-1 */
                sim_rng g;
                sim_rng_stream(&g, seed ^ 0xA2A0A2A0ull, src);
                for (j = peers - 1; j > 1; j--) {
                    uint32_t x = 1 + sim_rng_below(&g, j), tmp = order[j];
                    order[j] = order[x]; order[x] = tmp;
                }
            }
            for (j = 1; j < peers; j++)
                nc_send_packet(&net, src, sim_alltoall_dest(&net.shape, o->alltoall, src, order[j]), size);
        }
        free(order);
        snprintf(label, sizeof label, "all-to-all seed %llu", (unsigned long long)seed);
        nc_stats_reset(&net);
        bgl_stats_reset(&m, net.now, net.routers);
        net.on_deliver = bgl_last_delivery;
        net.on_deliver_ctx = &last;
        bgl_run_span(&net, &m, o, seed, o->cycles, links, label, 1);
        bgl_reduce(&net, &last, 1, SIM_REDUCE_MAX);
        if (bgl_sum(&net, nc_in_flight(&net))) {
            b->cycles = net.now;
            if (!quiet_rank())
                fprintf(stderr, "netsim: the all-to-all did not finish in --cycles %llu\n", (unsigned long long)o->cycles);
        } else b->cycles = last + 1;
    } else {
        snprintf(label, sizeof label, "load %.3f seed %llu", load, (unsigned long long)seed);
        bgl_run_span(&net, &m, o, seed, o->warmup, links, label, 0);
        nc_stats_reset(&net);
        bgl_stats_reset(&m, net.now, net.routers);
        bgl_run_span(&net, &m, o, seed, o->cycles, links, label, 0);
        b->cycles = o->cycles;
    }
    {
        bgl_stats all = bgl_totals(&net, &m);
        bgl_figures(&all, links, b->cycles, b);
    }
    b->hot_in_use = bgl_hot_in(&net, &m, NULL, b->cycles);
    err = net_audit(&net);
    if (err) { fprintf(stderr, "netsim: %s\n", err); finish(3); }
    nc_summarize(&net, s, in_flight);
    if (o->alltoall >= 0 && !*in_flight) {
        /* the last token-acks come home: the model's state alone is read
         * after these cycles, not the core's gathered counts */
        nc_run(&net, 1000, NULL, NULL);
        err = bgl_tokens_home(&m, &net);
        if (err) { fprintf(stderr, "netsim: %s\n", err); finish(3); }
    }
    bgl_free(&m);
    nc_net_free(&net);
}

static void bgl_csv_header(const opts *o) {
    if (o->series) printf("label,seed,cycle,accepted,link_use,payload_use,escape_share,unblocking,hot_in_use\n");
    else printf("label,topology,router,escape,order,rule,dynamic,vc_bytes,arbitration,routing,pattern,offered,accepted,"
                "lat_mean,lat_p99,net_lat_mean,hops,delivered,in_flight,link_use,payload_use,escape_share,unblocking,"
                "hot_in_use,cycles,seed\n");
}

static void bgl_csv_line(const opts *o, const sim_summary *s, uint64_t in_flight, uint64_t seed, const bgl_out *b) {
    char q[32];
    static const char *const a2a[] = { "alltoall", "alltoall-plane", "alltoall-line" };
    cli_csv_field(stdout, o->label ? o->label : "", 1);
    putchar(',');
    cli_csv_field(stdout, o->topo_spec, 0);
    printf(",bgl,%s,%s,%s,%d,%d,%s,%s,%s,%.4f,%.4f,%.2f,%s,%.2f,%.3f,%llu,%llu,%.5f,%.5f,%.5f,%.5f,%.5f,%llu,%llu\n",
           o->bp.cfg.escape == SR_BGL_ESCAPE_BUBBLE ? "bubble" : "dateline",
           o->bp.cfg.escape_order == SR_BGL_ORDER_DIMENSION ? "dimension" : "direction",
           o->bp.cfg.bubble_rule == SR_BGL_RULE_FULL_SIZE ? "paper" : "textbook", o->bp.cfg.num_dynamic,
           o->bp.cfg.dynamic_bytes, bgl_arb_names[o->bgl_arb], o->bp.static_routing ? "static" : "dynamic",
           o->alltoall >= 0 ? a2a[o->alltoall] : sim_pattern_name(o->t.pattern), s->offered, s->accepted, s->lat_mean,
           sim_quantile_text(s->lat_p99, 1, 0, q, sizeof q), s->net_lat_mean, s->hops, (unsigned long long)s->delivered,
           (unsigned long long)in_flight, b->link_use, b->payload_use, b->escape_share, b->unblocking,
           b->hot_in_use, (unsigned long long)b->cycles, (unsigned long long)seed);
}

static void bgl_print(const opts *o, const sim_summary *s, uint64_t in_flight, const bgl_out *b) {
    printf("%s, %u nodes; BlueGene/L router: %d dynamic VCs of %d bytes, %s escape (%s order, %s rule), %s "
           "arbitration, %s routing; %s traffic\n", o->topo_spec, o->net.num_routers, o->bp.cfg.num_dynamic,
           o->bp.cfg.dynamic_bytes, o->bp.cfg.escape == SR_BGL_ESCAPE_BUBBLE ? "bubble" : "dateline-pair",
           o->bp.cfg.escape_order == SR_BGL_ORDER_DIMENSION ? "dimension" : "direction",
           o->bp.cfg.bubble_rule == SR_BGL_RULE_FULL_SIZE ? "paper's" : "textbook", bgl_arb_names[o->bgl_arb],
           o->bp.static_routing ? "static" : "dynamic", o->alltoall >= 0 ? "all-to-all" : sim_pattern_name(o->t.pattern));
    printf("  offered %.4f, accepted %.4f flits/node/cycle (a flit is 4 bytes); %llu packets delivered, %llu in flight\n",
           s->offered, s->accepted, (unsigned long long)s->delivered, (unsigned long long)in_flight);
    printf("  latency (cycles): mean %.1f, in the network %.1f; hops %.2f\n", s->lat_mean, s->net_lat_mean, s->hops);
    printf("  link use %.4f (payload %.4f) over %llu cycles; %.4f of the hops on the escape VCs; unblocking "
           "probability %.4f\n", b->link_use, b->payload_use, (unsigned long long)b->cycles, b->escape_share,
           b->unblocking);
}

static void csv_header(void) {
    printf("label,topology,routing,vcs,pattern,offered,accepted,lat_mean,lat_std,lat_p50,lat_p99,lat_p999,"
           "lat_max,net_lat_mean,hops,src_min,src_max,src_jain,delivered,in_flight,seed,workload,jobs,t_halo,"
           "t_alltoall,t_allreduce,t_transpose,t_iter\n");
}

static void csv_line(const opts *o, const sim_summary *s, uint64_t in_flight, uint64_t seed, const sj_result *w) {
    char q[3][32];
    cli_csv_field(stdout, o->label ? o->label : "", 1);
    putchar(',');
    cli_csv_field(stdout, o->topo_spec, 0);
    printf(",%s,%d,%s,%.4f,%.4f,%.2f,%.2f,%s,%s,%s,%llu,%.2f,%.3f,%.5f,%.5f,%.4f,%llu,%llu,%llu",
           routing_names[o->routing], o->p.vcs, sim_pattern_name(o->t.pattern), s->offered, s->accepted,
           s->lat_mean, s->lat_std, sim_quantile_text(s->lat_p50, 1, 0, q[0], sizeof q[0]),
           sim_quantile_text(s->lat_p99, 1, 0, q[1], sizeof q[1]), sim_quantile_text(s->lat_p999, 1, 0, q[2], sizeof q[2]),
           (unsigned long long)s->lat_max, s->net_lat_mean, s->hops, s->src_min, s->src_max, s->src_jain,
           (unsigned long long)s->delivered, (unsigned long long)in_flight, (unsigned long long)seed);
    printf(",%s,%d", sj_workload_name(o->wl.workload), w ? w->jobs : 0);
    sj_result_csv(w);
    putchar('\n');
}

static void print_summary(const opts *o, const sim_summary *s, uint64_t in_flight) {
    char q[3][32];
    printf("%s, %u routers, %u terminals; routing %s, %d VCs; %s traffic\n", o->topo_spec, o->net.num_routers,
           o->net.num_terminals, routing_names[o->routing], o->p.vcs, sim_pattern_name(o->t.pattern));
    printf("  offered %.4f, accepted %.4f flits/terminal/cycle; %llu packets delivered, %llu in flight\n",
           s->offered, s->accepted, (unsigned long long)s->delivered, (unsigned long long)in_flight);
    printf("  latency (cycles): mean %.1f, std dev %.1f, p50 %s, p99 %s, p99.9 %s, max %llu; in the network %.1f\n",
           s->lat_mean, s->lat_std, sim_quantile_text(s->lat_p50, 1, 0, q[0], sizeof q[0]),
           sim_quantile_text(s->lat_p99, 1, 0, q[1], sizeof q[1]),
           sim_quantile_text(s->lat_p999, 1, 0, q[2], sizeof q[2]), (unsigned long long)s->lat_max, s->net_lat_mean);
    printf("  hops %.2f; per-terminal bandwidth: min %.5f, max %.5f flits/cycle, Jain %.4f\n",
           s->hops, s->src_min, s->src_max, s->src_jain);
}

int main(int argc, char **argv) {
    opts o;
    sim_progress prog;
    int runs, k, i;
#ifdef NC_MPI
    int err_fd;
    MPI_Init(&argc, &argv);
    sim_mpi_init(&g_mpi);
    err_fd = sim_mpi_mute(g_mpi.rank);
#endif
    set_defaults(&o);
    parse(&o, argc, argv);
#ifdef NC_MPI
    if ((uint32_t)g_mpi.size > nc_max_parts(&o.net)) {
        fprintf(stderr, "netsim: %d MPI ranks but the network can be cut into only %u parts (a dragonfly's groups, "
                "else its routers)\n", g_mpi.size, nc_max_parts(&o.net));
        MPI_Finalize();
        exit(2);
    }
    if (g_mpi.size > 1 && o.wl.workload != SJ_WL_NONE) {
        fprintf(stderr, "netsim: --workload runs in one process (scripted traffic is not split over ranks)\n");
        MPI_Finalize();
        exit(2);
    }
    if (g_mpi.size > 1 && o.ip.ugal == IQ_UGAL_GLOBAL) {
        fprintf(stderr, "netsim: --routing ugal-g reads the queues of other routers (UGAL-G): it runs in one process\n");
        MPI_Finalize();
        exit(2);
    }
    if (g_mpi.rank != 0) o.quiet = 1;
    sim_mpi_unmute(g_mpi.rank, err_fd);
#endif
    if (o.t.pattern == SIM_PERMUTATION) {
        char err[256];
        o.t.perm = sim_permutation_read(o.perm_path, o.net.num_terminals, err, sizeof err);
        if (!o.t.perm) { fprintf(stderr, "netsim: --perm: %s\n", err); finish(2); }
    }
    runs = (o.num_loads ? o.num_loads : 1) * o.seeds;
    if (o.wl.workload >= SJ_WL_ALLTOALL)
        sim_progress_init(&prog, o.quiet ? NULL : stderr, "netsim", "cycles",
                          (double)o.seeds * sj_opts_cycles_guess(&o.wl, o.p.max_packet_flits, 1.0, 100));
    else
        sim_progress_init(&prog, o.quiet ? NULL : stderr, "netsim", "router-cycles",
                          (double)runs * (double)(o.warmup + o.cycles) * o.net.num_routers);
    o.progress = &prog;
    if (o.csv && o.csv_header) { if (o.router == ROUTER_BGL) bgl_csv_header(&o); else csv_header(); }
    else if (o.series && o.csv_header) bgl_csv_header(&o);
    fflush(stdout);
    for (k = 0; k < o.seeds; k++)
        for (i = 0; i < (o.num_loads ? o.num_loads : 1); i++) {
            sim_summary s;
            sj_result w;
            uint64_t in_flight, seed = o.seed + (uint64_t)k;
            memset(&w, 0, sizeof w);
            if (o.router == ROUTER_BGL) {
                bgl_out b;
                bgl_run_one(&o, o.num_loads ? o.loads[i] : o.t.load, seed, &s, &in_flight, &b);
                if (o.csv && !o.series) bgl_csv_line(&o, &s, in_flight, seed, &b);
                else if (!o.series) bgl_print(&o, &s, in_flight, &b);
                fflush(stdout);
                continue;
            }
            if (o.wl.workload != SJ_WL_NONE) run_workload(&o, seed, &s, &in_flight, &w);
            else run_one(&o, o.num_loads ? o.loads[i] : o.t.load, seed, &s, &in_flight);
            if (o.csv) csv_line(&o, &s, in_flight, seed, o.wl.workload != SJ_WL_NONE ? &w : NULL);
            else {
                print_summary(&o, &s, in_flight);
                if (o.wl.workload != SJ_WL_NONE) sj_result_print(&o.wl, &w);
            }
            fflush(stdout);
        }
    sim_progress_end(&prog);
    free(o.t.perm);
    finish(0);
    return 0;
}
