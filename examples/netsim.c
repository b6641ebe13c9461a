/* SPDX-License-Identifier: MIT */
/* netsim.c - a cycle-level network simulator for any topology of
 * seastar_route.h (k-ary n-cubes, HyperX / flattened butterflies,
 * dragonflies, folded Clos networks, butterflies), with input-queued VC
 * routers whose routing comes from seastar_route.h and whose VC and
 * switch allocators come from seastar_arb.h.
 *
 * The simulator is examples/common/net_core.h (channels, credits,
 * terminals, statistics, parts) with the router model of
 * examples/common/iq_router.h; this file is its command line.  See --help
 * and docs/simulator.rst.
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
} opts;

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
      "uniform|hotspot|neighbor|bitrev|bitcomp|transpose|tornado|shuffle|perm|groupshift", "uniform",
      "destination pattern (groupshift: a random terminal of the next\n"
      "group, the dragonfly worst case)" },
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
}

/* Bytes a run of the network needs: what the core and the routers allocate
 * up front, and 16 packets per terminal (a run below saturation holds far
 * fewer; a saturated one with unbounded source queues grows past it). */
static double memory_bytes(const opts *o) {
    double pk = sizeof(sim_packet) + sizeof(sr_header);
    return nc_memory_bytes(&o->net, o->p.vcs) + iq_memory_bytes(&o->net, o->p.vcs, &o->ip) +
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
    /* sizes and buffers */
    for (i = 0; i < o->t.num_sizes; i++) if (o->t.sizes[i] > max_size) max_size = o->t.sizes[i];
    if (!cli_given(&c, "--max-packet")) o->p.max_packet_flits = max_size;
    else if (max_size > o->p.max_packet_flits) {
        char num[32];
        snprintf(num, sizeof num, "%d", o->p.max_packet_flits);
        cli_bad_value(&c, "--max-packet", num, "a packet of --sizes is larger (%d flits)", max_size);
    }
    o->p.wake_ahead = o->ip.pipeline + o->ip.speedup * o->p.max_packet_flits + 2;
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
        if (o->verify) verify(&c, o, &rt);
        if (o->net.radix * o->p.vcs > SA_SWITCH_MAX)
            cli_fail(&c, "--vcs %d: routers of %d ports would need a %d x %d VC allocator (at most 512)", o->p.vcs,
                     o->net.radix, o->net.radix * o->p.vcs, o->net.radix * o->p.vcs);
    }
    /* traffic */
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
static void stalled(nc_net *net, iq_model *m, const opts *o) {
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
static void run_checked(nc_net *net, iq_model *m, const opts *o, uint64_t cycles, const char *label) {
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
    int err_fd = -1;
    MPI_Init(&argc, &argv);
    sim_mpi_init(&g_mpi);
    /* Rank 0 prints; the others compute silently, and report only errors
     * found after the command line (which every rank reads alike). */
    if (g_mpi.rank != 0) {
        if (freopen("/dev/null", "w", stdout) == NULL) sim_die("cannot silence a rank's output");
        err_fd = dup(2);
        if (err_fd < 0 || dup2(fileno(stdout), 2) < 0) sim_die("cannot silence a rank's output");
    }
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
    if (g_mpi.rank != 0) { o.quiet = 1; if (dup2(err_fd, 2) < 0) sim_die("cannot restore stderr"); close(err_fd); }
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
    if (o.csv && o.csv_header) csv_header();
    fflush(stdout);
    for (k = 0; k < o.seeds; k++)
        for (i = 0; i < (o.num_loads ? o.num_loads : 1); i++) {
            sim_summary s;
            sj_result w;
            uint64_t in_flight, seed = o.seed + (uint64_t)k;
            memset(&w, 0, sizeof w);
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
