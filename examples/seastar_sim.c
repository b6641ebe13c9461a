/* SPDX-License-Identifier: MIT */
/* seastar_sim.c - a cycle-level simulator of a Cray XT SeaStar torus that
 * embeds seastar_arb.h (age-based output arbitration, Procedures 1-3) and
 * seastar_route.h (per-input-port GLUT/LUT routing tables).
 *
 * Without arguments it runs the built-in comparison of round-robin against
 * age-based arbitration (what `make demo` shows).  See --help.
 *
 * The router and network model is examples/common/seastar_net.h; traffic,
 * statistics and the packet pool are the other files of examples/common/.
 *
 * Built with SS_MPI defined (make mpi: build/mpi/seastar_sim), it runs
 * under mpirun: each rank simulates a slab of x-planes
 * (examples/common/ss_mpi.h), rank 0 prints, and the output is the
 * sequential program's, byte for byte.  --workload needs one rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/seastar_net.h"
#include "common/sim_jobs.h"
#include "common/cli.h"
#ifdef SS_MPI
#include <unistd.h>
#include "common/ss_mpi.h"
static ss_mpi g_mpi;
#endif

/* Build the network of a run: the whole of it, or this rank's part. */
static const char *net_init(ss_net *net, const ss_params *p, const sim_traffic *t, uint64_t seed) {
#ifdef SS_MPI
    return ss_mpi_net_init(&g_mpi, net, p, t, seed);
#else
    return ss_net_init(net, p, t, seed);
#endif
}

/* The end of a successful run (MPI: every rank gets here). */
static void finish(void) {
#ifdef SS_MPI
    fflush(stdout);
    ss_mpi_free(&g_mpi);
    MPI_Finalize();
#endif
}

/* The conservation audit (of every rank). */
static const char *net_audit(ss_net *net) {
    const char *err = ss_audit(net);
#ifdef SS_MPI
    const char *all = ss_mpi_audit(net);
    if (!err) err = all;
#endif
    return err;
}

typedef struct opts {
    ss_params p;
    sim_traffic t;
    uint64_t warmup, cycles, seed;
    int csv, csv_header, quiet, compare, histogram, estimate, random_faults;
    const char *per_source;       /* file for per-source bandwidth CSV */
    const char *perm_path;        /* file of --pattern perm */
    double loads[64];             /* --loads: a sweep */
    int num_loads;
    const char *label;
    sim_progress *progress;       /* over every run of the invocation */
    sj_opts wl;                   /* --workload and its companions (sim_jobs.h) */
    uint32_t nid_scatter;         /* --nid-scatter: runs of NIDs dealt out at random (0: none) */
    int rsp_bias[3], rsp_bias_given; /* --rsp-bias: RSP_AGE_BIAS of the x, y, z ports */
    int seeds;
} opts;

static const char *const usage_text =
"usage: seastar_sim [options]\n"
"\n"
"Simulates a network of Cray XT SeaStar routers cycle by cycle, with the\n"
"age-based output arbitration of Abts and Weisser, \"Age-based packet\n"
"arbitration in large-radix k-ary n-cubes\", SC'07.  Without options: the\n"
"built-in comparison of round-robin against age-based arbitration (the\n"
"`make demo` output).\n";

static const char *const notes_text =
"Every run checks packet conservation (each generated packet is delivered\n"
"or found exactly once in the network); a failure stops with exit status 3.\n"
"Progress goes to stderr every 1.5 s of a run that lasts longer (--quiet:\n"
"none).  A latency percentile in the last histogram bin prints as\n"
">=262143 (only its lower bound is known).\n";

/* The options, in the order --help lists them.  Ranges here are the ones
 * the parser enforces (ss_params_check's limits). */
static const cli_opt options[] = {
    /* network */
    { "--topo", NULL, "KxKxK", CLI_INT, 2, 256, 0, 0,
      "1 to 3 radices separated by x, each 2 to 256, at most 32768 nodes", "8x8x8",
      "radices of the k-ary n-cube" },
    { "--mesh", NULL, "DIMS", CLI_TEXT, 0, 0, 0, 0, "letters x, y, z of dimensions of --topo", "none",
      "dimensions that are meshes, e.g. x or xz (the others are tori)" },
    { "--tie", NULL, "RULE", CLI_CHOICE, 0, 0, 0, 0, "plus|balanced", "balanced",
      "torus routes of exactly k/2 hops: all + (Abts and Weisser, SC'07, Fig 4(b)) or\n"
      "seastar_route.h's balanced split" },
    { "--fault-link", NULL, "N:P", CLI_TEXT | CLI_MANY, 0, 0, 0, 0,
      "NODE:PORT, NODE a node of --topo, PORT 0-5 or +x,-x,+y,-y,+z,-z of a link that exists", "none",
      "fail the link of node N at port P (repeatable, up to 256 links;\n"
      "a link named twice, from either end, counts once)" },
    { "--fault-node", NULL, "N", CLI_INT | CLI_MANY, 0, 32767, 0, 0, "a node of --topo (0 to nodes-1)", "none",
      "fail node N (repeatable, up to 256 nodes)" },
    { "--random-link-faults", NULL, "K", CLI_INT, 0, 256, 0, 0,
      "0 to 256, and no more than the links of --topo not failed by --fault-link", "0",
      "fail K more distinct random links (chosen with --seed)" },
    { "--tables", NULL, "GEN", CLI_CHOICE, 0, 0, 0, 0, "dor|search|seastar", "dor, or search with faults",
      "table generator (seastar: the fault rules of Abts, Springer 2010; 3-D only)" },
    { "--router-delay", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "20",
      "cycles from input buffer to output arbitration" },
    { "--link-delay", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "10", "cycles on a link" },
    { "--credit-delay", NULL, "N", CLI_INT, 1, 4096, 0, 0, NULL, "10", "cycles for a credit to return" },
    { "--input-buf", NULL, "N", CLI_INT, 9, 65535, 0, 0, NULL, "96",
      "flits per input port and VC (at least one 9-flit packet)" },
    { "--staging-buf", NULL, "N", CLI_INT, 9, 255, 0, 0, NULL, "16",
      "flits per staging buffer (at least one 9-flit packet)" },
    { "--eject-bw", NULL, "F", CLI_REAL, 0, 0, 0, 1, "above 0, at most 1", "0.4167 = 2/4.8 GB/s",
      "processor port flits per cycle" },
    /* arbitration */
    { "--arb", NULL, "POLICY", CLI_CHOICE, 0, 0, 0, 0, "rr|age", "age",
      "AGE_RR_SELECT all 0s (round-robin) or all 1s (age-based)" },
    { "--rr-select", NULL, "HEX", CLI_TEXT, 0, 0, 0, 0, "1 to 16 hexadecimal digits, 0x optional",
      "all 1s", "AGE_RR_SELECT as a 64-bit mask" },
    { "--period", NULL, "N", CLI_INT, 1, 4294967295u, 0, 0, NULL, "0x1000 (the reset value)",
      "AGE_CLOCK_PERIOD (the paper found 8 best, with --bias 3,2,1)" },
    { "--bias", NULL, "X,Y,Z", CLI_INT, 0, 7, 0, 0, "three values 0 to 7, separated by commas",
      "1,1,1 (the reset value)", "age bias of the x, y and z ports" },
    { "--proc-bias", NULL, "N", CLI_INT, 0, 7, 0, 0, NULL, "1", "age bias of the processor port" },
    { "--rsp-bias", NULL, "X,Y,Z", CLI_INT, 0, 7, 0, 0, "three values 0 to 7, separated by commas",
      "--bias", "RSP_AGE_BIAS of the x, y and z ports (packets on the response VCs)" },
    /* traffic */
    { "--pattern", NULL, "NAME", CLI_CHOICE, 0, 0, 0, 0,
      "uniform|hotspot|neighbor|bitrev|bitcomp|transpose|tornado|shuffle|perm", "uniform",
      "destination pattern" },
    { "--load", NULL, "F", CLI_REAL, 0, 0, 0, 1, NULL, "0.1", "offered flits per node per cycle" },
    { "--loads", NULL, "F,F,...", CLI_REAL, 0, 0, 0, 1, "1 to 64 loads 0 to 1, separated by commas", "none",
      "a sweep: one CSV line per load" },
    { "--sizes", NULL, "N[,N...]", CLI_INT, 1, 9, 0, 0, "1 to 8 sizes 1 to 9, separated by commas", "9",
      "packet sizes in flits, drawn uniformly" },
    { "--rsp", NULL, "F", CLI_REAL, 0, 0, 0, 1, NULL, "0",
      "fraction of packets on the response VCs (random traffic and --workload mix)" },
    { "--hotspot", NULL, "N", CLI_INT, 0, 32767, 0, 0, "a node of --topo (0 to nodes-1)", "0",
      "destination of --pattern hotspot" },
    { "--perm", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, NULL,
      "the permutation of --pattern perm: one destination node per line" },
    { "--srcq", NULL, "N", CLI_INT, 0, 1000000, 0, 0, NULL, "0 = unbounded",
      "cap each source queue at N packets" },
    /* application workloads (examples/common/sim_jobs.h) */
    SJ_CLI_OPTIONS,
    { "--nid-scatter", NULL, "N", CLI_INT, 0, 32767, 0, 0, NULL, "0 = contiguous",
      "mix: deal the node-ID order out in runs of N node IDs, in a\n"
      "random order (the free nodes of a machine that has run for days)" },
    /* run */
    { "--warmup", NULL, "N", CLI_INT, 0, 10000000000ull, 0, 0, NULL, "2000", "cycles before measuring" },
    { "--cycles", NULL, "N", CLI_INT, 1, 10000000000ull, 0, 0, NULL, "10000", "measured cycles" },
    { "--seed", NULL, "N", CLI_INT, 0, UINT64_MAX, 0, 0, NULL, "1", "random seed" },
    { "--seeds", NULL, "N", CLI_INT, 1, 1000, 0, 0, NULL, "1",
      "CSV: run seeds --seed .. --seed+N-1, one line each" },
    { "--compare", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "run round-robin and age-based and print them side by side" },
    { "--estimate", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "print the Section 3 AGE_CLOCK_PERIOD estimate and exit" },
    { "--csv", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "one CSV line per run (with a header line)" },
    { "--no-header", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "omit the CSV header" },
    { "--histogram", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "print the RTR_AGE_GROUP age histogram" },
    { "--per-source", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, NULL,
      "write per-source delivered bandwidth as CSV" },
    { "--label", NULL, "TEXT", CLI_TEXT, 0, 0, 0, 0, NULL, "empty", "the CSV 'label' column" },
    { "--quiet", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress on stderr" },
};

static void set_defaults(opts *o) {
    memset(o, 0, sizeof *o);
    ss_params_default(&o->p, 8, 8, 8);
    sim_traffic_default(&o->t);
    o->warmup = 2000;
    o->cycles = 10000;
    o->seed = 1;
    o->csv_header = 1;
    sj_opts_default(&o->wl);
    o->seeds = 1;
}

static uint32_t num_nodes(const ss_params *p) {
    uint32_t n = 1;
    int d;
    for (d = 0; d < p->dims; d++) n *= (uint32_t)p->radix[d];
    return n;
}

/* A link is named by its + end: (node, dimension).  A fault given from
 * the - end names the same link as the + port of the neighbour. */
static uint32_t link_id(const ss_params *p, uint32_t node, int port) {
    sim_shape sh;
    int c[3], d = port / 2;
    if (port & 1) {
        sim_shape_init(&sh, p->dims, p->radix, p->mesh);
        sim_coords(&sh, node, c);
        c[d] = (c[d] + p->radix[d] - 1) % p->radix[d];
        node = sim_node(&sh, c);
    }
    return node * 3u + (uint32_t)d;
}

/* Whether the link leaving node through port exists (not off a mesh edge). */
static int link_exists(const ss_params *p, uint32_t node, int port) {
    sim_shape sh;
    int c[3], d = port / 2;
    if (d >= p->dims) return 0;
    if (!p->mesh[d]) return 1;
    sim_shape_init(&sh, p->dims, p->radix, p->mesh);
    sim_coords(&sh, node, c);
    return (port & 1) ? c[d] > 0 : c[d] < p->radix[d] - 1;
}

/* The links of the network (+ ends), in node order. */
static uint32_t count_links(const ss_params *p) {
    uint32_t n = num_nodes(p), links = 0, i;
    int d;
    for (i = 0; i < n; i++)
        for (d = 0; d < p->dims; d++) links += (uint32_t)link_exists(p, i, 2 * d);
    return links;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The failed links given with --fault-link, and then --random-link-faults
 * more distinct ones: duplicates (the same link named twice, from either
 * end) count once; the random ones are drawn without replacement from the
 * links not failed yet. */
static void settle_faults(const cli *c, opts *o, char (*link_arg)[64], int nlink_args) {
    ss_params *p = &o->p;
    uint32_t ids[SS_MAX_FAULTS], n = num_nodes(p), links = count_links(p);
    int i, j, k = 0;
    for (i = 0; i < nlink_args; i++) {
        uint32_t node = p->fault_link[i][0], id;
        int port = (int)p->fault_link[i][1];
        if (node >= n) cli_bad_value(c, "--fault-link", link_arg[i], "node %u is not in the %u nodes of --topo", node, n);
        if (!link_exists(p, node, port))
            cli_bad_value(c, "--fault-link", link_arg[i], "node %u has no link at port %d on this --topo/--mesh", node, port);
        id = link_id(p, node, port);
        for (j = 0; j < k && ids[j] != id; j++) {}
        if (j < k) continue;                           /* the same link again */
        p->fault_link[k][0] = node;
        p->fault_link[k][1] = (uint32_t)port;
        ids[k++] = id;
    }
    if (o->random_faults > 0) {
        uint32_t *all, m = 0, i2;
        sim_rng fr;
        int d;
        if ((uint32_t)(o->random_faults + k) > links || o->random_faults + k > SS_MAX_FAULTS) {
            char num[32];
            snprintf(num, sizeof num, "%d", o->random_faults);
            cli_bad_value(c, "--random-link-faults", num,
                          "%s has %u links, %d of them failed by --fault-link, and at most %d failed links "
                          "are supported", "--topo", links, k, SS_MAX_FAULTS);
        }
        all = (uint32_t *)sim_calloc(links ? links : 1, sizeof(uint32_t));
        qsort(ids, (size_t)k, sizeof ids[0], cmp_u32);
        for (i2 = 0; i2 < n; i2++)
            for (d = 0; d < p->dims; d++) {
                uint32_t id = i2 * 3u + (uint32_t)d;
                if (link_exists(p, i2, 2 * d) && !bsearch(&id, ids, (size_t)k, sizeof ids[0], cmp_u32))
                    all[m++] = id;
            }
        /* a partial Fisher-Yates shuffle: K distinct links */
        sim_rng_seed(&fr, o->seed * 7919u + 17u);
        for (i = 0; i < o->random_faults; i++) {
            uint32_t r = (uint32_t)i + sim_rng_below(&fr, m - (uint32_t)i), t = all[i];
            all[i] = all[r];
            all[r] = t;
            p->fault_link[k][0] = all[i] / 3u;
            p->fault_link[k][1] = 2u * (all[i] % 3u);
            k++;
        }
        free(all);
    }
    p->num_fault_links = k;
    /* failed nodes: in range, each counted once */
    for (i = 0, k = 0; i < p->num_fault_nodes; i++) {
        char num[32];
        snprintf(num, sizeof num, "%u", p->fault_node[i]);
        if (p->fault_node[i] >= n) cli_bad_value(c, "--fault-node", num, "not one of the %u nodes of --topo", n);
        for (j = 0; j < k && p->fault_node[j] != p->fault_node[i]; j++) {}
        if (j == k) p->fault_node[k++] = p->fault_node[i];
    }
    p->num_fault_nodes = k;
}

/* --rr-select: 1 to 16 hexadecimal digits, with or without 0x. */
static uint64_t parse_rr_select(const cli *c) {
    const char *s = c->val;
    uint64_t v = 0;
    int digits = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    for (; *s; s++, digits++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
        if (d < 0) cli_bad_value(c, c->opt->name, c->val, "not a hexadecimal mask");
        v = (v << 4) | (uint64_t)d;
    }
    if (digits < 1 || digits > 16) cli_bad_value(c, c->opt->name, c->val, "%d hexadecimal digits", digits);
    return v;
}

/* --fault-link N:P */
static void parse_fault_link(const cli *c, opts *o) {
    static const char *const pn[6] = { "+x", "-x", "+y", "-y", "+z", "-z" };
    const char *colon = strchr(c->val, ':');
    uint64_t node;
    int port = -1, k;
    if (!colon) cli_bad_value(c, c->opt->name, c->val, "no colon between node and port");
    for (k = 0; k < 6; k++)
        if (!strcmp(colon + 1, pn[k]) || (colon[1] == '0' + k && colon[2] == 0)) port = k;
    if (port < 0) cli_bad_value(c, c->opt->name, c->val, "\"%s\" is not a port", colon + 1);
    if (cli__parse_u64(c->val, (size_t)(colon - c->val), &node) != 0 || node >= SR_MAX_NODES)
        cli_bad_value(c, c->opt->name, c->val, "\"%.*s\" is not a node number", (int)(colon - c->val), c->val);
    if (o->p.num_fault_links >= SS_MAX_FAULTS)
        cli_bad_value(c, c->opt->name, c->val, "more than %d --fault-link options", SS_MAX_FAULTS);
    o->p.fault_link[o->p.num_fault_links][0] = (uint32_t)node;
    o->p.fault_link[o->p.num_fault_links][1] = (uint32_t)port;
    o->p.num_fault_links++;
}

static void parse(opts *o, int argc, char **argv) {
    static char link_arg[SS_MAX_FAULTS][64];
    const char *mesh = NULL;
    int tie_plus = 0, nlinks, d;
    cli c;
    cli_init(&c, "seastar_sim", usage_text, notes_text, options, (int)(sizeof options / sizeof options[0]),
             argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--topo")) {
            uint64_t k[3];
            int n = cli_uint_list(&c, 'x', 1, 3, k);
            if (k[0] * (n > 1 ? k[1] : 1) * (n > 2 ? k[2] : 1) > SR_MAX_NODES)
                cli_bad_value(&c, c.opt->name, c.val, "%llu nodes",
                              (unsigned long long)(k[0] * (n > 1 ? k[1] : 1) * (n > 2 ? k[2] : 1)));
            o->p.dims = n;
            for (d = 0; d < 3; d++) o->p.radix[d] = d < n ? (int)k[d] : 1;
        }
        else if (cli_is(&c, "--mesh")) mesh = c.val;
        else if (cli_is(&c, "--tie")) tie_plus = cli_choice(&c) == 0;
        else if (cli_is(&c, "--fault-link")) {
            parse_fault_link(&c, o);
            snprintf(link_arg[o->p.num_fault_links - 1], sizeof link_arg[0], "%s", c.val);
        }
        else if (cli_is(&c, "--fault-node")) {
            if (o->p.num_fault_nodes >= SS_MAX_FAULTS)
                cli_bad_value(&c, c.opt->name, c.val, "more than %d --fault-node options", SS_MAX_FAULTS);
            o->p.fault_node[o->p.num_fault_nodes++] = (uint32_t)cli_uint(&c);
        }
        else if (cli_is(&c, "--random-link-faults")) o->random_faults = (int)cli_uint(&c);
        else if (cli_is(&c, "--tables")) o->p.table_gen = cli_choice(&c) + SS_TABLES_DOR;
        else if (cli_is(&c, "--router-delay")) o->p.router_delay = (int)cli_uint(&c);
        else if (cli_is(&c, "--link-delay")) o->p.link_delay = (int)cli_uint(&c);
        else if (cli_is(&c, "--credit-delay")) o->p.credit_delay = (int)cli_uint(&c);
        else if (cli_is(&c, "--input-buf")) o->p.input_buffer_flits = (int)cli_uint(&c);
        else if (cli_is(&c, "--staging-buf")) o->p.staging_buffer_flits = (int)cli_uint(&c);
        else if (cli_is(&c, "--eject-bw")) {
            o->p.eject_bw = cli_real(&c);
            if (!(o->p.eject_bw > 0)) cli_bad_value(&c, c.opt->name, c.val, "out of range");
        }
        else if (cli_is(&c, "--arb")) o->p.age.age_rr_select = cli_choice(&c) == 0 ? 0 : ~(uint64_t)0;
        else if (cli_is(&c, "--rr-select")) o->p.age.age_rr_select = parse_rr_select(&c);
        else if (cli_is(&c, "--period")) o->p.age.age_clock_period = (uint32_t)cli_uint(&c);
        else if (cli_is(&c, "--bias")) {
            uint64_t b[3];
            cli_uint_list(&c, ',', 3, 3, b);
            ss_params_set_bias(&o->p, (int)b[0], (int)b[1], (int)b[2]);
        }
        else if (cli_is(&c, "--proc-bias"))
            o->p.age.req_age_bias[SS_PROC] = o->p.age.rsp_age_bias[SS_PROC] = (uint8_t)cli_uint(&c);
        else if (cli_is(&c, "--pattern")) o->t.pattern = (sim_pattern)cli_choice(&c);
        else if (cli_is(&c, "--load")) o->t.load = cli_real(&c);
        else if (cli_is(&c, "--loads")) o->num_loads = cli_real_list(&c, ',', 1, 64, o->loads);
        else if (cli_is(&c, "--sizes")) {
            uint64_t z[8];
            int i;
            o->t.num_sizes = cli_uint_list(&c, ',', 1, 8, z);
            for (i = 0; i < o->t.num_sizes; i++) o->t.sizes[i] = (int)z[i];
        }
        else if (cli_is(&c, "--rsp")) o->t.rsp_fraction = cli_real(&c);
        else if (cli_is(&c, "--rsp-bias")) {
            uint64_t b[3];
            int d3;
            cli_uint_list(&c, ',', 3, 3, b);
            for (d3 = 0; d3 < 3; d3++) o->rsp_bias[d3] = (int)b[d3];
            o->rsp_bias_given = 1;
        }
        else if (cli_is(&c, "--nid-scatter")) o->nid_scatter = (uint32_t)cli_uint(&c);
        else if (cli_is(&c, "--hotspot")) o->t.hotspot = (uint32_t)cli_uint(&c);
        else if (cli_is(&c, "--perm")) o->perm_path = c.val;
        else if (cli_is(&c, "--srcq")) o->t.src_queue_max = (uint32_t)cli_uint(&c);
        else if (sj_opts_read(&c, &o->wl)) continue;
        else if (cli_is(&c, "--seeds")) o->seeds = (int)cli_uint(&c);
        else if (cli_is(&c, "--warmup")) o->warmup = cli_uint(&c);
        else if (cli_is(&c, "--cycles")) o->cycles = cli_uint(&c);
        else if (cli_is(&c, "--seed")) o->seed = cli_uint(&c);
        else if (cli_is(&c, "--compare")) o->compare = 1;
        else if (cli_is(&c, "--estimate")) o->estimate = 1;
        else if (cli_is(&c, "--csv")) o->csv = 1;
        else if (cli_is(&c, "--no-header")) o->csv_header = 0;
        else if (cli_is(&c, "--histogram")) o->histogram = 1;
        else if (cli_is(&c, "--per-source")) o->per_source = c.val;
        else if (cli_is(&c, "--label")) o->label = c.val;
        else if (cli_is(&c, "--quiet")) o->quiet = 1;
        else cli_unhandled(&c);
    }
    /* what depends on the topology, given in any order */
    o->p.tie_plus = tie_plus;
    if (mesh) {
        const char *m;
        if (!*mesh) cli_bad_value(&c, "--mesh", mesh, "empty");
        for (m = mesh; *m; m++) {
            if (*m < 'x' || *m > 'z' || *m - 'x' >= o->p.dims)
                cli_bad_value(&c, "--mesh", mesh, "'%c' is not a dimension of a %d-dimensional --topo", *m, o->p.dims);
            o->p.mesh[*m - 'x'] = 1;
        }
    }
    if (o->t.hotspot >= num_nodes(&o->p)) {
        char num[32];
        snprintf(num, sizeof num, "%u", o->t.hotspot);
        cli_bad_value(&c, "--hotspot", num, "not one of the %u nodes of --topo", num_nodes(&o->p));
    }
    nlinks = o->p.num_fault_links;
    settle_faults(&c, o, link_arg, nlinks);
    /* contradictions */
    if (cli_given(&c, "--load") && cli_given(&c, "--loads")) cli_fail(&c, "--load and --loads contradict each other");
    if (o->compare && (cli_given(&c, "--arb") || cli_given(&c, "--rr-select")))
        cli_fail(&c, "--compare runs both policies: it takes no --arb or --rr-select");
    if (cli_given(&c, "--arb") && cli_given(&c, "--rr-select"))
        cli_fail(&c, "--arb and --rr-select both set AGE_RR_SELECT");
    if (o->compare && o->num_loads) cli_fail(&c, "--compare and --loads cannot be combined");
    if (o->estimate && (o->compare || o->num_loads || o->csv || o->histogram || o->per_source))
        cli_fail(&c, "--estimate prints the estimate only: it takes no --compare, --loads, --csv, "
                     "--histogram or --per-source");
    if (!o->csv_header && !o->csv && !o->num_loads) cli_fail(&c, "--no-header needs CSV output (--csv or --loads)");
    if (o->histogram && (o->csv || o->num_loads)) cli_fail(&c, "--histogram prints text, not CSV (no --csv or --loads)");
    if (o->per_source && (o->compare || o->num_loads)) cli_fail(&c, "--per-source takes a single run (no --compare or --loads)");
    if (o->label && !o->csv && !o->num_loads) cli_fail(&c, "--label names a CSV line: it needs --csv or --loads");
    if (o->t.pattern == SIM_PERMUTATION && !o->perm_path) cli_fail(&c, "--pattern perm needs --perm FILE");
    if (o->per_source) cli_check_output(&c, "--per-source", o->per_source);
    if (o->seeds > 1 && !o->csv) cli_fail(&c, "--seeds N prints one CSV line per seed: it needs --csv");
    if (o->seeds > 1 && (o->compare || o->num_loads || o->per_source))
        cli_fail(&c, "--seeds takes single runs (no --compare, --loads or --per-source)");
    {
        static const char *const traffic[] = { "--pattern", "--load", "--loads", "--sizes", "--hotspot",
                                               "--perm", "--srcq", "--compare", "--per-source" };
        sj_opts_check(&c, &o->wl, num_nodes(&o->p), traffic, (int)(sizeof traffic / sizeof traffic[0]));
    }
    /* a production mix sends requests and responses (--rsp); the benchmarks
     * send requests only */
    if (o->wl.workload >= SJ_WL_ALLTOALL && cli_given(&c, "--rsp"))
        cli_fail(&c, "--workload %s sends requests only: it takes no --rsp", sj_workload_name(o->wl.workload));
    if (cli_given(&c, "--nid-scatter") && o->wl.workload != SJ_WL_MIX) cli_fail(&c, "--nid-scatter needs --workload mix");
    if (o->rsp_bias_given) {
        int d6;
        for (d6 = 0; d6 < 6; d6++) o->p.age.rsp_age_bias[d6] = (uint8_t)o->rsp_bias[d6 / 2];
    }
    if (o->perm_path && o->t.pattern != SIM_PERMUTATION) cli_fail(&c, "--perm FILE needs --pattern perm");
    if (cli_given(&c, "--hotspot") && o->t.pattern != SIM_HOTSPOT) cli_fail(&c, "--hotspot N needs --pattern hotspot");
    if (o->t.pattern == SIM_HOTSPOT && o->wl.workload == SJ_WL_NONE) {
        int i;
        for (i = 0; i < o->p.num_fault_nodes; i++)
            if (o->p.fault_node[i] == o->t.hotspot) {
                char num[32];
                snprintf(num, sizeof num, "%u", o->t.hotspot);
                cli_bad_value(&c, "--hotspot", num, "node %u%s is failed by --fault-node, so no packet could be sent",
                              o->t.hotspot, cli_given(&c, "--hotspot") ? "" : " (the default)");
            }
    }
    if (o->wl.workload == SJ_WL_NONE) {
        char note[320];
        if (sim_traffic_note(&o->t, num_nodes(&o->p), note, sizeof note)) fprintf(stderr, "seastar_sim: note: %s\n", note);
    }
    if (o->p.table_gen == SS_TABLES_DOR && (o->p.num_fault_links || o->p.num_fault_nodes))
        cli_fail(&c, "--tables dor cannot route around faults (use search or seastar)");
    if (o->p.table_gen == SS_TABLES_SEASTAR && o->p.dims != 3)
        cli_fail(&c, "--tables seastar needs a 3-dimensional --topo");
    {
        const char *err = ss_params_check(&o->p);
        if (err) cli_fail(&c, "%s", err);
    }
}

/* One run: build, warm up, measure, audit.  Exits on any error.  Its
 * cycles count in the invocation's progress (o->progress). */
static void run_one(opts *o, const ss_params *p, double load, ss_summary *s, ss_net *keep) {
    ss_net net;
    sim_traffic t = o->t;
    const char *err;
    char label[64];
    t.load = load;
    if (!o->quiet && num_nodes(p) >= 4096 && (p->num_fault_links || p->num_fault_nodes))
        fprintf(stderr, "seastar_sim: building fault-aware tables for %u routers\n", num_nodes(p));
    err = net_init(&net, p, &t, o->seed);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(1); }
    if (!o->quiet && (p->num_fault_links || p->num_fault_nodes))
        fprintf(stderr, "seastar_sim: %d failed links, %d failed nodes; %s tables; %llu of %llu pairs "
                "unroutable (not generated)\n", p->num_fault_links, p->num_fault_nodes,
                p->table_gen == SS_TABLES_SEASTAR ? "SeaStar-rule" : "search",
                (unsigned long long)net.gen.unroutable, (unsigned long long)net.gen.pairs);
    snprintf(label, sizeof label, "%s load %.3f", p->age.age_rr_select ? "age" : "rr", load);
    ss_run(&net, o->warmup, o->progress, label);
    ss_stats_reset(&net);
    ss_run(&net, o->cycles, o->progress, label);
    err = net_audit(&net);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(3); }
    ss_summarize(&net, s);
    if (keep) *keep = net;
    else ss_net_free(&net);
}

/* ---- application workloads (sim_jobs.h) --------------------------- */

/* What the jobs' sends need: the network, and for --rsp the fraction of
 * packets sent on the response VCs and the random stream that picks them
 * (a stream of its own, so the jobs and their timing draw as without). */
typedef struct wl_sender { ss_net *net; double rsp; sim_rng rng; } wl_sender;

static void wl_send(void *ctx, uint32_t src, uint32_t dst, int size, uint32_t tag) {
    wl_sender *ws = (wl_sender *)ctx;
    int vc = ws->rsp > 0 && sim_rng_unit(&ws->rng) < ws->rsp ? 2 : 0;
    uint32_t pi = ss_send(ws->net, src, dst, size, vc);
    ws->net->pool.pkt[pi].tag = tag;
}

static void wl_step(void *ctx) { ss_step((ss_net *)ctx); }
static uint64_t wl_now(void *ctx) { return ((ss_net *)ctx)->now; }
static void wl_reset(void *ctx) { ss_stats_reset((ss_net *)ctx); }

/* One workload run with seed: build the network without random traffic,
 * place the jobs, run them (sj_run), audit. */
static void run_workload(opts *o, const ss_params *p, uint64_t seed, ss_summary *s, sj_result *w) {
    ss_net net;
    sj_model m;
    sj_network n;
    wl_sender ws;
    sim_traffic t = o->t;
    ss_params pw = *p;
    const char *err;
    char label[64];
    t.load = 0;
    t.pattern = SIM_UNIFORM;
    /* The jobs send from on_deliver, and their sends depend on the order
     * of a cycle's deliveries: one block (see ss_run). */
    pw.block_routers = 0;
    err = net_init(&net, &pw, &t, seed);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(1); }
    sj_init(&m, net.n, seed, o->wl.jitter);
    sj_place_nids(&m, &net.shape, o->wl.nid_x);
    sj_scatter_nids(&m, o->nid_scatter, seed);
    ws.net = &net;
    ws.rsp = o->t.rsp_fraction;
    sim_rng_stream(&ws.rng, seed, 0x7E5Bu);
    m.send = wl_send;
    m.ctx = &ws;
    net.on_deliver = sj_on_deliver;
    net.on_deliver_ctx = &m;
    snprintf(label, sizeof label, "%s %s seed %llu", sj_workload_name(o->wl.workload),
             p->age.age_rr_select ? "age" : "rr", (unsigned long long)seed);
    n.ctx = &net; n.step = wl_step; n.now = wl_now; n.reset = wl_reset; n.routers = (double)net.n;
    sj_run(&m, &o->wl, &n, o->warmup, o->cycles, o->progress, label, w);
    err = net_audit(&net);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(3); }
    ss_summarize(&net, s);
    sj_free(&m);
    ss_net_free(&net);
}

static const char *port_names[SS_PORTS] = { "+x", "-x", "+y", "-y", "+z", "-z", "proc" };

static void csv_header(void) {
    printf("label,topology,pattern,arb,period,bias,offered,accepted,lat_mean,lat_std,lat_p50,"
           "lat_p99,lat_p999,lat_max,net_lat_mean,hops,q_x,q_y,q_z,occ_px,occ_mx,occ_py,occ_my,"
           "occ_pz,occ_mz,age_0_63,age_64_127,age_128_191,age_192_255,src_min,src_max,src_jain,"
           "delivered,in_flight,seed,workload,jobs,t_halo,t_alltoall,t_allreduce,t_transpose,t_iter,"
           "arb_multi,tie_frac,tie255_frac,rr_frac\n");
}

static void csv_line(const opts *o, const ss_params *p, const ss_summary *s, uint64_t seed, const sj_result *w) {
    char q[3][32];
    int d;
    cli_csv_field(stdout, o->label ? o->label : "", 1);
    printf(",%dx%dx%d,%s,%s,%u,%d:%d:%d,%.4f,%.4f,%.2f,%.2f,%s,%s,%s,%llu,%.2f,%.3f,%.2f,%.2f,%.2f",
           p->radix[0], p->dims > 1 ? p->radix[1] : 1,
           p->dims > 2 ? p->radix[2] : 1, sim_pattern_name(o->t.pattern),
           p->age.age_rr_select == 0 ? "rr" : p->age.age_rr_select == ~(uint64_t)0 ? "age" : "mix",
           p->age.age_clock_period, p->age.req_age_bias[0], p->age.req_age_bias[2], p->age.req_age_bias[4],
           s->w.offered, s->w.accepted, s->w.lat_mean, s->w.lat_std, sim_quantile_text(s->w.lat_p50, 1, 0, q[0], sizeof q[0]),
           sim_quantile_text(s->w.lat_p99, 1, 0, q[1], sizeof q[1]), sim_quantile_text(s->w.lat_p999, 1, 0, q[2], sizeof q[2]),
           (unsigned long long)s->w.lat_max, s->w.net_lat_mean, s->w.hops, s->qdelay[0], s->qdelay[1], s->qdelay[2]);
    for (d = 0; d < 6; d++) printf(",%.3f", s->occupancy[d]);
    for (d = 0; d < 4; d++) printf(",%llu", (unsigned long long)s->age_hist[d]);
    printf(",%.5f,%.5f,%.4f,%llu,%llu", s->w.src_min, s->w.src_max, s->w.src_jain,
           (unsigned long long)s->w.delivered, (unsigned long long)s->in_flight);
    printf(",%llu,%s,%d", (unsigned long long)seed, sj_workload_name(o->wl.workload), w ? w->jobs : 0);
    sj_result_csv(w);
    printf(",%llu,%.4f,%.4f,%.4f\n", (unsigned long long)s->arb_multi, s->tie_frac, s->tie255_frac, s->rr_frac);
}

static void print_summary(const char *title, const ss_summary *s) {
    char q[3][32];
    int d;
    printf("%s\n", title);
    printf("  offered %.4f, accepted %.4f flits/node/cycle; %llu packets delivered\n",
           s->w.offered, s->w.accepted, (unsigned long long)s->w.delivered);
    printf("  latency (cycles): mean %.1f, std dev %.1f, p50 %s, p99 %s, p99.9 %s, max %llu\n",
           s->w.lat_mean, s->w.lat_std, sim_quantile_text(s->w.lat_p50, 1, 0, q[0], sizeof q[0]),
           sim_quantile_text(s->w.lat_p99, 1, 0, q[1], sizeof q[1]),
           sim_quantile_text(s->w.lat_p999, 1, 0, q[2], sizeof q[2]), (unsigned long long)s->w.lat_max);
    printf("  hops %.2f; queueing per packet x %.1f, y %.1f, z %.1f cycles\n",
           s->w.hops, s->qdelay[0], s->qdelay[1], s->qdelay[2]);
    printf("  stalled cycles per request packet (Eq 17):");
    for (d = 0; d < 6; d++) printf(" %s %.2f", port_names[d], s->occupancy[d]);
    printf("\n  per-source bandwidth: min %.5f, max %.5f flits/cycle, Jain %.4f\n",
           s->w.src_min, s->w.src_max, s->w.src_jain);
}

static void print_histogram(const ss_summary *s) {
    uint64_t tot = s->age_hist[0] + s->age_hist[1] + s->age_hist[2] + s->age_hist[3];
    int b, d;
    printf("  RTR_AGE_GROUP (network ports):");
    for (b = 0; b < 4; b++)
        printf(" %d-%d: %llu (%.1f%%)", b * 64, b * 64 + 63, (unsigned long long)s->age_hist[b],
               tot ? 100.0 * (double)s->age_hist[b] / (double)tot : 0.0);
    printf("\n  per port (0-63 / 64-127 / 128-191 / 192-255):\n");
    for (d = 0; d < SS_PORTS; d++)
        printf("    %-4s %llu / %llu / %llu / %llu\n", port_names[d],
               (unsigned long long)s->age_hist_port[d][0], (unsigned long long)s->age_hist_port[d][1],
               (unsigned long long)s->age_hist_port[d][2], (unsigned long long)s->age_hist_port[d][3]);
}

static void write_per_source(const char *path, const ss_net *net, const char *tag, int append) {
    FILE *f = fopen(path, append ? "a" : "w");
    uint32_t i;
    uint64_t cyc = net->now - net->st.window_start;
    if (!f) { fprintf(stderr, "seastar_sim: cannot write %s\n", path); exit(1); }
    if (!append) fprintf(f, "arb,source,flits_per_cycle,share\n");
    for (i = 0; i < net->n; i++)
        fprintf(f, "%s,%u,%.6f,%.6f\n", tag, i, (double)net->st.src_flits[i] / (double)(cyc ? cyc : 1),
                net->st.delivered_flits ? (double)net->st.src_flits[i] / (double)net->st.delivered_flits : 0.0);
    fclose(f);
}

/* ---- the built-in comparison (make demo) ---------------------------- */

static void demo_merging(sim_progress *pg) {
    static const char *mesh_paper[7] = { "1/64", "1/64", "1/32", "1/16", "1/8", "1/4", "1/2" };
    static const char *torus_paper[7] = { "1/4", "1/8", "1/8", "1/16", "1/16", "1/8", "1/4" };
    int topo, a, i;
    double share[2][2][7];
    for (topo = 0; topo < 2; topo++)
        for (a = 0; a < 2; a++) {
            opts o;
            ss_net net;
            ss_summary s;
            set_defaults(&o);
            ss_params_default(&o.p, 8, 1, 1);
            o.p.mesh[0] = topo == 0;
            o.p.tie_plus = 1;
            o.p.age.age_rr_select = a ? ~(uint64_t)0 : 0;
            o.p.age.age_clock_period = 18;      /* seed 000 Section 3's estimate */
            o.t.pattern = SIM_HOTSPOT;
            o.t.hotspot = 7;
            o.t.load = 1.0;
            o.t.src_queue_max = 16;
            o.warmup = 5000;
            o.cycles = 40000;
            o.quiet = 1;
            o.progress = pg;
            run_one(&o, &o.p, 1.0, &s, &net);
            for (i = 0; i < 7; i++)
                share[topo][a][i] = (double)net.st.src_flits[i] / (double)net.st.delivered_flits;
            ss_net_free(&net);
        }
    printf("1. Merging traffic (Abts and Weisser, SC'07, Figure 4): P0..P6 all send to P7\n"
           "   at saturation.  Share of P7's delivered bandwidth per source.\n\n");
    printf("          8-ary 1-mesh                        8-ary 1-torus\n");
    printf("   src   paper   round-robin  age-based       paper   round-robin  age-based\n");
    for (i = 0; i < 7; i++)
        printf("   P%d    %-5s   %8.4f     %8.4f        %-5s   %8.4f     %8.4f\n", i,
               mesh_paper[i], share[0][0][i], share[0][1][i], torus_paper[i], share[1][0][i], share[1][1][i]);
    {
        double mn[2][2], mx[2][2], jain[2][2];
        int far[2], mitigates[2];
        for (topo = 0; topo < 2; topo++)
            for (a = 0; a < 2; a++) {
                double sum = 0, sq = 0;
                mn[topo][a] = 1; mx[topo][a] = 0;
                for (i = 0; i < 7; i++) {
                    if (share[topo][a][i] < mn[topo][a]) mn[topo][a] = share[topo][a][i];
                    if (share[topo][a][i] > mx[topo][a]) mx[topo][a] = share[topo][a][i];
                    sum += share[topo][a][i];
                    sq += share[topo][a][i] * share[topo][a][i];
                }
                jain[topo][a] = sum * sum / (7.0 * sq);   /* Jain's index: 1 when every share is equal */
            }
        printf("   max/min         %6.1fx      %6.2fx                 %6.1fx      %6.2fx\n",
               mx[0][0] / mn[0][0], mx[0][1] / mn[0][1], mx[1][0] / mn[1][0], mx[1][1] / mn[1][1]);
        printf("   Jain's index    %7.3f      %7.3f                 %7.3f      %7.3f\n",
               jain[0][0], jain[0][1], jain[1][0], jain[1][1]);
        for (topo = 0; topo < 2; topo++) {
            /* the source age-based favours most */
            far[topo] = 0;
            for (i = 1; i < 7; i++)
                if (share[topo][1][i] > share[topo][1][far[topo]]) far[topo] = i;
            mitigates[topo] = mx[topo][1] / mn[topo][1] < mx[topo][0] / mn[topo][0] && jain[topo][1] > jain[topo][0];
        }
        printf("\n   The paper: age-based arbitration \"mitigates\" the unfairness of merging.\n"
               "   This run (1/7 = %.4f is a fair share; Jain's index is 1 when fair):\n", 1.0 / 7);
        for (topo = 0; topo < 2; topo++)
            printf("   - %s: age-based %s (max/min %.1fx -> %.2fx, Jain %.3f -> %.3f);\n"
                   "     it does not even the shares out: P%d, %d hops from P7, gets the most (%.4f).\n",
                   topo ? "torus" : "mesh", mitigates[topo] ? "mitigates it" : "does not mitigate it",
                   mx[topo][0] / mn[topo][0], mx[topo][1] / mn[topo][1], jain[topo][0], jain[topo][1], far[topo],
                   topo ? (far[topo] <= 3 ? far[topo] + 1 : 7 - far[topo]) : 7 - far[topo],
                   share[topo][1][far[topo]]);
        printf("   Age-based here: biases 1 and the Section 3 AGE_CLOCK_PERIOD 18.  An age\n"
               "   counts time in full FIFOs, and a FIFO that more traffic drains empties\n"
               "   faster, so far sources look older.  docs/results.rst has the period sweep.\n"
               "   Reproduce (mesh; drop --mesh x for the torus, --arb rr for round-robin):\n"
               "     seastar_sim --topo 8 --mesh x --tie plus --pattern hotspot --hotspot 7 \\\n"
               "       --load 1 --srcq 16 --period 18 --warmup 5000 --cycles 40000 --per-source FILE\n\n");
    }
}

static void demo_torus(sim_progress *pg) {
    opts o;
    ss_summary s[2];
    int a;
    const char *names[2] = { "round-robin", "AGE_CLOCK_PERIOD 8, biases x,y,z = 3,2,1" };
    set_defaults(&o);
    ss_params_default(&o.p, 8, 8, 8);
    o.t.pattern = SIM_UNIFORM;
    o.warmup = 3000;
    o.cycles = 12000;
    o.quiet = 1;
    o.progress = pg;
    for (a = 0; a < 2; a++) {
        ss_params p = o.p;
        if (a == 0) p.age.age_rr_select = 0;
        else { p.age.age_clock_period = 8; ss_params_set_bias(&p, 3, 2, 1); }
        run_one(&o, &p, 0.34, &s[a], NULL);
    }
    printf("2. An 8x8x8 torus (512 SeaStar routers), uniform random traffic near\n"
           "   saturation (0.34 flits/node/cycle offered, 9-flit packets).\n\n");
    printf("                                   %-14s %s\n", "round-robin", "age-based");
    printf("   accepted (flits/node/cycle)     %-14.4f %.4f\n", s[0].w.accepted, s[1].w.accepted);
    printf("   mean latency (cycles)           %-14.1f %.1f\n", s[0].w.lat_mean, s[1].w.lat_mean);
    printf("   std dev of latency              %-14.1f %.1f\n", s[0].w.lat_std, s[1].w.lat_std);
    {
        char q[2][32];
        printf("   99th percentile                 %-14s %s\n", sim_quantile_text(s[0].w.lat_p99, 1, 0, q[0], sizeof q[0]),
               sim_quantile_text(s[1].w.lat_p99, 1, 0, q[1], sizeof q[1]));
    }
    printf("   maximum latency                 %-14llu %llu\n", (unsigned long long)s[0].w.lat_max, (unsigned long long)s[1].w.lat_max);
    printf("   +x stalled cycles/packet (Eq17) %-14.2f %.2f\n", s[0].occupancy[0], s[1].occupancy[0]);
    printf("   slowest/fastest source          %-14.3f %.3f\n", s[0].w.src_min / s[0].w.src_max, s[1].w.src_min / s[1].w.src_max);
    printf("   (age-based: %s,\n"
           "   the settings Abts and Weisser found best, Table 5.  Reproduce:\n"
           "     seastar_sim --load 0.34 --period 8 --bias 3,2,1 --warmup 3000 --cycles 12000 --compare\n"
           "   With the reset value AGE_CLOCK_PERIOD 0x1000 and biases 1,1,1, the simulator's\n"
           "   defaults, the paper saw \"very little benefit\", and `seastar_sim --compare`\n"
           "   alone compares those.)\n\n", names[1]);
    printf("   In this run age-based arbitration %s the mean latency (%.1f -> %.1f cycles),\n"
           "   %s the largest latency (%llu -> %llu) and %s the slowest/fastest source\n"
           "   ratio (%.3f -> %.3f, 1 is even).\n\n",
           s[1].w.lat_mean < s[0].w.lat_mean ? "lowers" : "does not lower", s[0].w.lat_mean, s[1].w.lat_mean,
           s[1].w.lat_max < s[0].w.lat_max ? "cuts" : "does not cut",
           (unsigned long long)s[0].w.lat_max, (unsigned long long)s[1].w.lat_max,
           s[1].w.src_min / s[1].w.src_max > s[0].w.src_min / s[0].w.src_max ? "raises" : "does not raise",
           s[0].w.src_min / s[0].w.src_max, s[1].w.src_min / s[1].w.src_max);
}

int main(int argc, char **argv) {
    opts o;
    sim_progress prog;
#ifdef SS_MPI
    int err_fd;
    MPI_Init(&argc, &argv);
    ss_mpi_init(&g_mpi);
    err_fd = sim_mpi_mute(g_mpi.rank);
#endif
    if (argc == 1) {
        clock_t t0 = clock();
        /* router-cycles of the four merging runs and the two torus runs */
        sim_progress_init(&prog, stderr, "seastar_sim", "router-cycles", 4 * 45000.0 * 8 + 2 * 15000.0 * 512);
        printf("SeaStar network simulator: round-robin against age-based output arbitration\n"
               "(seastar_arb.h Procedures 1-3 + seastar_route.h tables; see docs/simulator.rst)\n\n");
        demo_merging(&prog);
        demo_torus(&prog);
        printf("(%.1f s of CPU; --help for options; docs/results.rst compares every result\n"
               "of the papers with these simulators.)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
        sim_progress_end(&prog);
        finish();
        return 0;
    }
    set_defaults(&o);
    parse(&o, argc, argv);
#ifdef SS_MPI
    /* Every rank reaches these checks alike: rank 0 says why, and all
     * leave MPI together, so the message is out before any rank exits. */
    if (g_mpi.size > 1 && o.wl.workload != SJ_WL_NONE) {
        fprintf(stderr, "seastar_sim: --workload runs in one process (scripted traffic is not split over ranks)\n");
        MPI_Finalize();
        exit(2);
    }
    if (g_mpi.size > o.p.radix[0]) {
        fprintf(stderr, "seastar_sim: %d MPI ranks but only %d x-planes (each rank takes at least one)\n",
                g_mpi.size, o.p.radix[0]);
        MPI_Finalize();
        exit(2);
    }
    if (g_mpi.rank != 0) o.quiet = 1;
    sim_mpi_unmute(g_mpi.rank, err_fd);
#endif
    if (o.estimate) {
        sa_period_desc pd;
        sa_period_estimate pe;
        sa_result rr;
        int d;
        memset(&pd, 0, sizeof pd);
        pd.num_dims = o.p.dims;
        for (d = 0; d < o.p.dims; d++) {
            pd.radix[d] = o.p.radix[d];
            pd.mesh[d] = o.p.mesh[d];
            pd.bias[d] = o.p.age.req_age_bias[2 * d];
        }
        pd.input_buffer_flits = o.p.input_buffer_flits;
        pd.staging_buffer_flits = o.p.staging_buffer_flits;
        pd.max_packet_flits = o.p.max_packet_flits;
        rr = sa_age_clock_period_estimate(&pd, &pe);
        if (rr != SA_OK) { fprintf(stderr, "seastar_sim: %s\n", sa_result_string(rr)); return 1; }
        printf("Section 3 estimate: hops %d, T_bias %d, %d age ticks per hop, %d packets x %d cycles = "
               "%d cycles per hop: AGE_CLOCK_PERIOD %u\n", pe.total_hops, pe.bias_total, pe.ticks_per_hop,
               pe.packets_queued, pe.cycles_per_packet, pe.queue_cycles_per_hop, pe.age_clock_period);
        finish();
        return 0;
    }
    if (o.t.pattern == SIM_PERMUTATION) {
        char err[256];
        o.t.perm = sim_permutation_read(o.perm_path, num_nodes(&o.p), err, sizeof err);
        if (!o.t.perm) { fprintf(stderr, "seastar_sim: --perm: %s\n", err); return 2; }
    }
    if (o.wl.workload >= SJ_WL_ALLTOALL) {
        /* a guess of the cycles a benchmark takes: steps x (serialising a
         * message at the ejection rate + a round trip) */
        sim_progress_init(&prog, o.quiet ? NULL : stderr, "seastar_sim", "cycles",
                          (double)o.seeds * sj_opts_cycles_guess(&o.wl, 9, o.p.eject_bw, 600));
    } else {
        int runs = o.compare ? 2 : o.num_loads ? o.num_loads : o.seeds;
        sim_progress_init(&prog, o.quiet ? NULL : stderr, "seastar_sim", "router-cycles",
                          (double)runs * (double)(o.warmup + o.cycles) * num_nodes(&o.p));
    }
    o.progress = &prog;
    if (o.compare) {
        ss_summary s[2];
        ss_params p = o.p;
        p.age.age_rr_select = 0;
        run_one(&o, &p, o.t.load, &s[0], NULL);
        p.age.age_rr_select = ~(uint64_t)0;
        run_one(&o, &p, o.t.load, &s[1], NULL);
        if (o.csv) { if (o.csv_header) csv_header(); csv_line(&o, &o.p, &s[0], o.seed, NULL); csv_line(&o, &p, &s[1], o.seed, NULL); }
        else {
            const uint8_t *bias = o.p.age.req_age_bias;
            int reset = o.p.age.age_clock_period == 0x1000 && bias[0] == 1 && bias[2] == 1 && bias[4] == 1;
            printf("age-based: AGE_CLOCK_PERIOD %llu, biases x,y,z = %d,%d,%d\n%s\n",
                   (unsigned long long)o.p.age.age_clock_period, bias[0], bias[2], bias[4],
                   reset ? "(the reset values: Abts and Weisser, SC'07, saw \"very little benefit\" from\n"
                   "them; the settings they found best are --period 8 --bias 3,2,1, which\n"
                   "`make demo` runs)\n" : "");
            print_summary("round-robin", &s[0]);
            if (o.histogram) print_histogram(&s[0]);
            print_summary("age-based", &s[1]);
            if (o.histogram) print_histogram(&s[1]);
        }
    } else if (o.num_loads) {
        int i;
        if (o.csv_header) csv_header();
        fflush(stdout);
        for (i = 0; i < o.num_loads; i++) {
            ss_summary s;
            run_one(&o, &o.p, o.loads[i], &s, NULL);
            csv_line(&o, &o.p, &s, o.seed, NULL);
            fflush(stdout);
        }
    } else if (o.wl.workload != SJ_WL_NONE || o.seeds > 1) {
        int k;
        if (o.csv && o.csv_header) csv_header();
        fflush(stdout);
        for (k = 0; k < o.seeds; k++) {
            ss_summary s;
            sj_result w;
            opts o2 = o;
            memset(&w, 0, sizeof w);
            o2.seed = o.seed + (uint64_t)k;
            if (o.wl.workload != SJ_WL_NONE) run_workload(&o2, &o2.p, o2.seed, &s, &w);
            else run_one(&o2, &o2.p, o2.t.load, &s, NULL);
            if (o.csv) { csv_line(&o, &o.p, &s, o2.seed, o.wl.workload != SJ_WL_NONE ? &w : NULL); fflush(stdout); }
            else {
                print_summary(o.p.age.age_rr_select ? "age-based" : "round-robin", &s);
                sj_result_print(&o.wl, &w);
                if (o.histogram) print_histogram(&s);
            }
        }
    } else {
        ss_summary s;
        ss_net net;
        run_one(&o, &o.p, o.t.load, &s, &net);
        if (o.csv) { if (o.csv_header) csv_header(); csv_line(&o, &o.p, &s, o.seed, NULL); }
        else {
            print_summary(o.p.age.age_rr_select ? "age-based" : "round-robin", &s);
            if (o.histogram) print_histogram(&s);
        }
        if (o.per_source) write_per_source(o.per_source, &net, o.p.age.age_rr_select ? "age" : "rr", 0);
        ss_net_free(&net);
    }
    sim_progress_end(&prog);
    if (o.t.pattern == SIM_PERMUTATION) free(o.t.perm);
    finish();
    return 0;
}
