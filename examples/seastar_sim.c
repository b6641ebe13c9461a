/* seastar_sim.c - a cycle-level simulator of a Cray XT SeaStar torus that
 * embeds seastar_arb.h (age-based output arbitration, Procedures 1-3) and
 * seastar_route.h (per-input-port GLUT/LUT routing tables).
 *
 * Without arguments it runs the built-in comparison of round-robin against
 * age-based arbitration (what `make demo` shows).  See --help.
 *
 * The router and network model is examples/common/seastar_net.h; traffic,
 * statistics and the packet pool are the other files of examples/common/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/seastar_net.h"

typedef struct opts {
    ss_params p;
    sim_traffic t;
    uint64_t warmup, cycles, seed;
    int csv, csv_header, quiet, compare, histogram, estimate, random_faults;
    const char *per_source;       /* file for per-source bandwidth CSV */
    const char *loads;            /* comma list: a sweep */
    const char *label;
} opts;

static void usage(FILE *f) {
    fprintf(f,
"usage: seastar_sim [options]\n"
"\n"
"Simulates a network of Cray XT SeaStar routers cycle by cycle.  Without\n"
"options: the built-in comparison of round-robin against age-based\n"
"arbitration (the `make demo` output).\n"
"\n"
"network\n"
"  --topo KxKxK        radices, 1 to 3 dimensions (default 8x8x8)\n"
"  --mesh DIMS         dimensions that are meshes, e.g. x or xz (default none)\n"
"  --tie plus|balanced torus routes of exactly k/2 hops: all + (as seed 000\n"
"                      Figure 4(b)) or seastar_route.h's balanced split (default)\n"
"  --fault-link N:P    fail the link of node N at port P (0-5 or +x,-x,..,-z);\n"
"                      repeatable; tables then come from a fault-aware generator\n"
"  --fault-node N      fail node N (repeatable)\n"
"  --random-link-faults K  fail K random links (chosen with --seed)\n"
"  --tables dor|search|seastar  table generator (default: dor, or search with\n"
"                      faults; seastar = the seed 001 fault rules, 3-D only)\n"
"  --router-delay N    cycles from input buffer to output arbitration (20)\n"
"  --link-delay N      cycles on a link (10)\n"
"  --credit-delay N    cycles for a credit to return (10)\n"
"  --input-buf N       flits per input port and VC (96)\n"
"  --staging-buf N     flits per staging buffer (16)\n"
"  --eject-bw F        processor port flits per cycle (0.4167 = 2/4.8 GB/s)\n"
"arbitration (seastar_arb.h)\n"
"  --arb rr|age        AGE_RR_SELECT all 0s or all 1s (default age)\n"
"  --rr-select HEX     AGE_RR_SELECT as a 64-bit hex mask\n"
"  --period N          AGE_CLOCK_PERIOD (default 0x1000; accepts 0x..)\n"
"  --bias X,Y,Z        age bias of the x, y, z ports (default 1,1,1)\n"
"  --proc-bias N       age bias of the processor port (default 1)\n"
"traffic\n"
"  --pattern NAME      uniform hotspot neighbor bitrev bitcomp transpose\n"
"                      tornado shuffle perm (default uniform)\n"
"  --load F            offered flits per node per cycle (default 0.1)\n"
"  --loads F,F,...     a sweep: one CSV line per load\n"
"  --sizes N[,N...]    packet sizes in flits, drawn uniformly (default 9)\n"
"  --rsp F             fraction of packets on the response VCs (default 0)\n"
"  --hotspot N         destination of the hotspot pattern (default 0)\n"
"  --perm FILE         permutation for --pattern perm (one node per line)\n"
"  --srcq N            cap each source queue at N packets (default unbounded)\n"
"run\n"
"  --warmup N          cycles before measuring (default 2000)\n"
"  --cycles N          measured cycles (default 10000)\n"
"  --seed N            random seed (default 1)\n"
"  --compare           run round-robin and age-based and print them side by side\n"
"  --estimate          print the Section 3 AGE_CLOCK_PERIOD estimate and exit\n"
"  --csv               one CSV line per run (with a header line)\n"
"  --no-header         omit the CSV header\n"
"  --histogram         print the RTR_AGE_GROUP age histogram\n"
"  --per-source FILE   write per-source delivered bandwidth as CSV\n"
"  --label TEXT        a label for the CSV 'label' column\n"
"  --quiet             no progress on stderr\n"
"  --help              this text\n"
"\n"
"Every run checks packet conservation (each generated packet is delivered\n"
"or found exactly once in the network); a failure stops with exit status 3.\n");
}

static int parse_list(const char *s, int *out, int max) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        long v = strtol(s, &end, 0);
        if (end == s) return -1;
        out[n++] = (int)v;
        s = end;
        if (*s == ',' || *s == 'x') s++;
        else if (*s) return -1;
    }
    return n;
}

static void die_usage(const char *msg, const char *arg) {
    fprintf(stderr, "seastar_sim: %s%s%s (see --help)\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static void set_defaults(opts *o) {
    memset(o, 0, sizeof *o);
    ss_params_default(&o->p, 8, 8, 8);
    sim_traffic_default(&o->t);
    o->warmup = 2000;
    o->cycles = 10000;
    o->seed = 1;
    o->csv_header = 1;
}

static void parse(opts *o, int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) die_usage("missing value for", a); i++; } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(0); }
        else if (!strcmp(a, "--topo")) {
            int k[3], n;
            NEEDV();
            n = parse_list(v, k, 3);
            if (n < 1) die_usage("bad --topo", v);
            ss_params_default(&o->p, k[0], n > 1 ? k[1] : 1, n > 2 ? k[2] : 1);
            o->p.dims = n;
        }
        else if (!strcmp(a, "--mesh")) {
            NEEDV();
            for (; *v; v++) {
                if (*v < 'x' || *v > 'z') die_usage("--mesh takes letters x, y, z", v);
                o->p.mesh[*v - 'x'] = 1;
            }
        }
        else if (!strcmp(a, "--tie")) {
            NEEDV();
            if (!strcmp(v, "plus")) o->p.tie_plus = 1;
            else if (!strcmp(v, "balanced")) o->p.tie_plus = 0;
            else die_usage("--tie plus|balanced", v);
        }
        else if (!strcmp(a, "--fault-link")) {
            static const char *pn[6] = { "+x", "-x", "+y", "-y", "+z", "-z" };
            char *colon;
            int port = -1, k;
            NEEDV();
            if (o->p.num_fault_links >= SS_MAX_FAULTS) die_usage("too many --fault-link", v);
            colon = strchr(v, ':');
            if (!colon) die_usage("--fault-link NODE:PORT (PORT 0-5 or +x..-z)", v);
            for (k = 0; k < 6; k++) if (!strcmp(colon + 1, pn[k])) port = k;
            if (port < 0) port = atoi(colon + 1);
            o->p.fault_link[o->p.num_fault_links][0] = (uint32_t)strtoul(v, NULL, 0);
            o->p.fault_link[o->p.num_fault_links][1] = (uint32_t)port;
            o->p.num_fault_links++;
        }
        else if (!strcmp(a, "--fault-node")) {
            NEEDV();
            if (o->p.num_fault_nodes >= SS_MAX_FAULTS) die_usage("too many --fault-node", v);
            o->p.fault_node[o->p.num_fault_nodes++] = (uint32_t)strtoul(v, NULL, 0);
        }
        else if (!strcmp(a, "--random-link-faults")) { NEEDV(); o->random_faults = atoi(v); }
        else if (!strcmp(a, "--tables")) {
            NEEDV();
            if (!strcmp(v, "dor")) o->p.table_gen = SS_TABLES_DOR;
            else if (!strcmp(v, "search")) o->p.table_gen = SS_TABLES_SEARCH;
            else if (!strcmp(v, "seastar")) o->p.table_gen = SS_TABLES_SEASTAR;
            else die_usage("--tables dor|search|seastar", v);
        }
        else if (!strcmp(a, "--router-delay")) { NEEDV(); o->p.router_delay = atoi(v); }
        else if (!strcmp(a, "--link-delay")) { NEEDV(); o->p.link_delay = atoi(v); }
        else if (!strcmp(a, "--credit-delay")) { NEEDV(); o->p.credit_delay = atoi(v); }
        else if (!strcmp(a, "--input-buf")) { NEEDV(); o->p.input_buffer_flits = atoi(v); }
        else if (!strcmp(a, "--staging-buf")) { NEEDV(); o->p.staging_buffer_flits = atoi(v); }
        else if (!strcmp(a, "--eject-bw")) { NEEDV(); o->p.eject_bw = atof(v); }
        else if (!strcmp(a, "--arb")) {
            NEEDV();
            if (!strcmp(v, "rr")) o->p.age.age_rr_select = 0;
            else if (!strcmp(v, "age")) o->p.age.age_rr_select = ~(uint64_t)0;
            else die_usage("--arb rr|age", v);
        }
        else if (!strcmp(a, "--rr-select")) { NEEDV(); o->p.age.age_rr_select = strtoull(v, NULL, 16); }
        else if (!strcmp(a, "--period")) { NEEDV(); o->p.age.age_clock_period = (uint32_t)strtoul(v, NULL, 0); }
        else if (!strcmp(a, "--bias")) {
            int b[3];
            NEEDV();
            if (parse_list(v, b, 3) != 3) die_usage("--bias X,Y,Z", v);
            ss_params_set_bias(&o->p, b[0], b[1], b[2]);
        }
        else if (!strcmp(a, "--proc-bias")) {
            NEEDV();
            o->p.age.req_age_bias[SS_PROC] = o->p.age.rsp_age_bias[SS_PROC] = (uint8_t)atoi(v);
        }
        else if (!strcmp(a, "--pattern")) {
            NEEDV();
            o->t.pattern = sim_pattern_parse(v);
            if (o->t.pattern == SIM_PATTERN_COUNT) die_usage("unknown pattern", v);
        }
        else if (!strcmp(a, "--load")) { NEEDV(); o->t.load = atof(v); }
        else if (!strcmp(a, "--loads")) { NEEDV(); o->loads = v; }
        else if (!strcmp(a, "--sizes")) {
            NEEDV();
            o->t.num_sizes = parse_list(v, o->t.sizes, 8);
            if (o->t.num_sizes < 1) die_usage("bad --sizes", v);
        }
        else if (!strcmp(a, "--rsp")) { NEEDV(); o->t.rsp_fraction = atof(v); }
        else if (!strcmp(a, "--hotspot")) { NEEDV(); o->t.hotspot = (uint32_t)strtoul(v, NULL, 0); }
        else if (!strcmp(a, "--perm")) {
            NEEDV();
            o->label = o->label ? o->label : v;
            o->t.perm = (uint32_t *)(void *)v;   /* read once the size is known */
        }
        else if (!strcmp(a, "--srcq")) { NEEDV(); o->t.src_queue_max = (uint32_t)strtoul(v, NULL, 0); }
        else if (!strcmp(a, "--warmup")) { NEEDV(); o->warmup = strtoull(v, NULL, 0); }
        else if (!strcmp(a, "--cycles")) { NEEDV(); o->cycles = strtoull(v, NULL, 0); }
        else if (!strcmp(a, "--seed")) { NEEDV(); o->seed = strtoull(v, NULL, 0); }
        else if (!strcmp(a, "--compare")) o->compare = 1;
        else if (!strcmp(a, "--estimate")) o->estimate = 1;
        else if (!strcmp(a, "--csv")) o->csv = 1;
        else if (!strcmp(a, "--no-header")) o->csv_header = 0;
        else if (!strcmp(a, "--histogram")) o->histogram = 1;
        else if (!strcmp(a, "--per-source")) { NEEDV(); o->per_source = v; }
        else if (!strcmp(a, "--label")) {
            NEEDV();
            if (strchr(v, '"')) die_usage("--label must not contain a double quote", v);
            o->label = v;
        }
        else if (!strcmp(a, "--quiet")) o->quiet = 1;
        else die_usage("unknown option", a);
#undef NEEDV
    }
}

/* One run: build, warm up, measure, audit.  Exits on any error. */
static void run_one(const opts *o, const ss_params *p, double load, ss_summary *s, ss_net *keep) {
    ss_net net;
    sim_traffic t = o->t;
    const char *err;
    char label[64];
    int long_run;
    t.load = load;
    err = ss_net_init(&net, p, &t, o->seed);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(1); }
    long_run = !o->quiet && (double)net.n * (double)(o->warmup + o->cycles) > 5e7;
    if (!o->quiet && (p->num_fault_links || p->num_fault_nodes))
        fprintf(stderr, "seastar_sim: %d failed links, %d failed nodes; %s tables; %llu of %llu pairs "
                "unroutable (not generated)\n", p->num_fault_links, p->num_fault_nodes,
                p->table_gen == SS_TABLES_SEASTAR ? "SeaStar-rule" : "search",
                (unsigned long long)net.gen.unroutable, (unsigned long long)net.gen.pairs);
    snprintf(label, sizeof label, "%s load %.3f", p->age.age_rr_select ? "age" : "rr", load);
    if (long_run) fprintf(stderr, "  %s: %u routers, %llu + %llu cycles\n", label, net.n,
                          (unsigned long long)o->warmup, (unsigned long long)o->cycles);
    ss_run(&net, o->warmup, long_run ? stderr : NULL, label);
    ss_stats_reset(&net);
    ss_run(&net, o->cycles, long_run ? stderr : NULL, label);
    err = ss_audit(&net);
    if (err) { fprintf(stderr, "seastar_sim: %s\n", err); exit(3); }
    ss_summarize(&net, s);
    if (keep) *keep = net;
    else ss_net_free(&net);
}

static const char *port_names[SS_PORTS] = { "+x", "-x", "+y", "-y", "+z", "-z", "proc" };

static void csv_header(void) {
    printf("label,topology,pattern,arb,period,bias,offered,accepted,lat_mean,lat_std,lat_p50,"
           "lat_p99,lat_p999,lat_max,net_lat_mean,hops,q_x,q_y,q_z,occ_px,occ_mx,occ_py,occ_my,"
           "occ_pz,occ_mz,age_0_63,age_64_127,age_128_191,age_192_255,src_min,src_max,src_jain,"
           "delivered,in_flight\n");
}

static void csv_line(const opts *o, const ss_params *p, const ss_summary *s) {
    int d;
    printf("\"%s\",%dx%dx%d,%s,%s,%u,%d:%d:%d,%.4f,%.4f,%.2f,%.2f,%llu,%llu,%llu,%llu,%.2f,%.3f,%.2f,%.2f,%.2f",
           o->label ? o->label : "", p->radix[0], p->dims > 1 ? p->radix[1] : 1,
           p->dims > 2 ? p->radix[2] : 1, sim_pattern_name(o->t.pattern),
           p->age.age_rr_select == 0 ? "rr" : p->age.age_rr_select == ~(uint64_t)0 ? "age" : "mix",
           p->age.age_clock_period, p->age.req_age_bias[0], p->age.req_age_bias[2], p->age.req_age_bias[4],
           s->offered, s->accepted, s->lat_mean, s->lat_std, (unsigned long long)s->lat_p50,
           (unsigned long long)s->lat_p99, (unsigned long long)s->lat_p999, (unsigned long long)s->lat_max,
           s->net_lat_mean, s->hops, s->qdelay[0], s->qdelay[1], s->qdelay[2]);
    for (d = 0; d < 6; d++) printf(",%.3f", s->occupancy[d]);
    for (d = 0; d < 4; d++) printf(",%llu", (unsigned long long)s->age_hist[d]);
    printf(",%.5f,%.5f,%.4f,%llu,%llu\n", s->src_min, s->src_max, s->src_jain,
           (unsigned long long)s->delivered, (unsigned long long)s->in_flight);
}

static void print_summary(const char *title, const ss_summary *s) {
    int d;
    printf("%s\n", title);
    printf("  offered %.4f, accepted %.4f flits/node/cycle; %llu packets delivered\n",
           s->offered, s->accepted, (unsigned long long)s->delivered);
    printf("  latency (cycles): mean %.1f, std dev %.1f, p50 %llu, p99 %llu, p99.9 %llu, max %llu\n",
           s->lat_mean, s->lat_std, (unsigned long long)s->lat_p50, (unsigned long long)s->lat_p99,
           (unsigned long long)s->lat_p999, (unsigned long long)s->lat_max);
    printf("  hops %.2f; queueing per packet x %.1f, y %.1f, z %.1f cycles\n",
           s->hops, s->qdelay[0], s->qdelay[1], s->qdelay[2]);
    printf("  stalled cycles per request packet (Eq 17):");
    for (d = 0; d < 6; d++) printf(" %s %.2f", port_names[d], s->occupancy[d]);
    printf("\n  per-source bandwidth: min %.5f, max %.5f flits/cycle, Jain %.4f\n",
           s->src_min, s->src_max, s->src_jain);
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
    uint64_t cyc = net->wheel.now - net->st.window_start;
    if (!f) { fprintf(stderr, "seastar_sim: cannot write %s\n", path); exit(1); }
    if (!append) fprintf(f, "arb,source,flits_per_cycle,share\n");
    for (i = 0; i < net->n; i++)
        fprintf(f, "%s,%u,%.6f,%.6f\n", tag, i, (double)net->st.src_flits[i] / (double)(cyc ? cyc : 1),
                net->st.delivered_flits ? (double)net->st.src_flits[i] / (double)net->st.delivered_flits : 0.0);
    fclose(f);
}

/* ---- the built-in comparison (make demo) ---------------------------- */

static void demo_merging(void) {
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
            o.p.age.age_clock_period = topo == 0 ? 13 : 8;   /* best of a sweep */
            o.t.pattern = SIM_HOTSPOT;
            o.t.hotspot = 7;
            o.t.load = 1.0;
            o.t.src_queue_max = 16;
            o.warmup = 5000;
            o.cycles = 40000;
            o.quiet = 1;
            run_one(&o, &o.p, 1.0, &s, &net);
            for (i = 0; i < 7; i++)
                share[topo][a][i] = (double)net.st.src_flits[i] / (double)net.st.delivered_flits;
            ss_net_free(&net);
        }
    printf("1. Merging traffic (seed 000 Figure 4): P0..P6 all send to P7 at saturation.\n"
           "   Share of P7's delivered bandwidth per source.\n\n");
    printf("          8-ary 1-mesh                        8-ary 1-torus\n");
    printf("   src   paper   round-robin  age-based       paper   round-robin  age-based\n");
    for (i = 0; i < 7; i++)
        printf("   P%d    %-5s   %8.4f     %8.4f        %-5s   %8.4f     %8.4f\n", i,
               mesh_paper[i], share[0][0][i], share[0][1][i], torus_paper[i], share[1][0][i], share[1][1][i]);
    {
        double mn[2][2], mx[2][2];
        for (topo = 0; topo < 2; topo++)
            for (a = 0; a < 2; a++) {
                mn[topo][a] = 1; mx[topo][a] = 0;
                for (i = 0; i < 7; i++) {
                    if (share[topo][a][i] < mn[topo][a]) mn[topo][a] = share[topo][a][i];
                    if (share[topo][a][i] > mx[topo][a]) mx[topo][a] = share[topo][a][i];
                }
            }
        printf("   max/min         %6.1fx      %6.2fx                 %6.1fx      %6.2fx\n",
               mx[0][0] / mn[0][0], mx[0][1] / mn[0][1], mx[1][0] / mn[1][0], mx[1][1] / mn[1][1]);
        printf("   (a fair share is 1/7 = %.4f; age-based: biases 1, AGE_CLOCK_PERIOD 13 on\n"
           "   the mesh and 8 on the torus, the best of a sweep: see docs/simulator.rst)\n\n", 1.0 / 7);
    }
}

static void demo_torus(void) {
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
    for (a = 0; a < 2; a++) {
        ss_params p = o.p;
        if (a == 0) p.age.age_rr_select = 0;
        else { p.age.age_clock_period = 8; ss_params_set_bias(&p, 3, 2, 1); }
        run_one(&o, &p, 0.34, &s[a], NULL);
    }
    printf("2. An 8x8x8 torus (512 SeaStar routers), uniform random traffic near\n"
           "   saturation (0.34 flits/node/cycle offered, 9-flit packets).\n\n");
    printf("                                   %-14s %s\n", "round-robin", "age-based");
    printf("   accepted (flits/node/cycle)     %-14.4f %.4f\n", s[0].accepted, s[1].accepted);
    printf("   mean latency (cycles)           %-14.1f %.1f\n", s[0].lat_mean, s[1].lat_mean);
    printf("   std dev of latency              %-14.1f %.1f\n", s[0].lat_std, s[1].lat_std);
    printf("   99th percentile                 %-14llu %llu\n", (unsigned long long)s[0].lat_p99, (unsigned long long)s[1].lat_p99);
    printf("   maximum latency                 %-14llu %llu\n", (unsigned long long)s[0].lat_max, (unsigned long long)s[1].lat_max);
    printf("   +x stalled cycles/packet (Eq17) %-14.2f %.2f\n", s[0].occupancy[0], s[1].occupancy[0]);
    printf("   slowest/fastest source          %-14.3f %.3f\n", s[0].src_min / s[0].src_max, s[1].src_min / s[1].src_max);
    printf("   (age-based: %s)\n\n", names[1]);
}

int main(int argc, char **argv) {
    opts o;
    if (argc == 1) {
        clock_t t0 = clock();
        printf("SeaStar network simulator: round-robin against age-based output arbitration\n"
               "(seastar_arb.h Procedures 1-3 + seastar_route.h tables; see docs/simulator.rst)\n\n");
        demo_merging();
        demo_torus();
        printf("Age-based arbitration evens out the bandwidth of near and far sources and\n"
               "cuts the tail of the latency distribution.  (%.1f s; --help for options)\n",
               (double)(clock() - t0) / CLOCKS_PER_SEC);
        return 0;
    }
    set_defaults(&o);
    parse(&o, argc, argv);
    if (o.random_faults > 0) {
        sim_rng fr;
        int dims = o.p.dims, added = 0, tries = 0;
        uint32_t n = (uint32_t)o.p.radix[0] * (uint32_t)(dims > 1 ? o.p.radix[1] : 1) *
                     (uint32_t)(dims > 2 ? o.p.radix[2] : 1);
        sim_rng_seed(&fr, o.seed * 7919u + 17u);
        while (added < o.random_faults && tries++ < 100000 && o.p.num_fault_links < SS_MAX_FAULTS) {
            uint32_t node = sim_rng_below(&fr, n);
            int port = (int)sim_rng_below(&fr, (uint32_t)(2 * dims)), c[3], d = port / 2;
            sim_shape sh;
            sim_shape_init(&sh, dims, o.p.radix, o.p.mesh);
            sim_coords(&sh, node, c);
            if (o.p.mesh[d] && ((port & 1) ? c[d] == 0 : c[d] == o.p.radix[d] - 1)) continue;
            o.p.fault_link[o.p.num_fault_links][0] = node;
            o.p.fault_link[o.p.num_fault_links][1] = (uint32_t)port;
            o.p.num_fault_links++;
            added++;
        }
    }
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
        return 0;
    }
    if (o.t.pattern == SIM_PERMUTATION) {
        char err[256];
        uint32_t n = (uint32_t)o.p.radix[0] * (uint32_t)(o.p.dims > 1 ? o.p.radix[1] : 1) *
                     (uint32_t)(o.p.dims > 2 ? o.p.radix[2] : 1);
        const char *path = (const char *)(void *)o.t.perm;
        if (!path) die_usage("--pattern perm needs --perm FILE", NULL);
        o.t.perm = sim_permutation_read(path, n, err, sizeof err);
        if (!o.t.perm) { fprintf(stderr, "seastar_sim: %s\n", err); return 1; }
    }
    if (o.compare) {
        ss_summary s[2];
        ss_params p = o.p;
        p.age.age_rr_select = 0;
        run_one(&o, &p, o.t.load, &s[0], NULL);
        p.age.age_rr_select = ~(uint64_t)0;
        run_one(&o, &p, o.t.load, &s[1], NULL);
        if (o.csv) { if (o.csv_header) csv_header(); csv_line(&o, &o.p, &s[0]); csv_line(&o, &p, &s[1]); }
        else {
            print_summary("round-robin", &s[0]);
            if (o.histogram) print_histogram(&s[0]);
            print_summary("age-based", &s[1]);
            if (o.histogram) print_histogram(&s[1]);
        }
    } else if (o.loads) {
        double loads[64];
        int n = 0, i;
        const char *q = o.loads;
        while (*q && n < 64) { char *end; loads[n++] = strtod(q, &end); if (end == q) die_usage("bad --loads", o.loads); q = *end == ',' ? end + 1 : end; }
        if (o.csv_header) csv_header();
        for (i = 0; i < n; i++) {
            ss_summary s;
            run_one(&o, &o.p, loads[i], &s, NULL);
            csv_line(&o, &o.p, &s);
            fflush(stdout);
        }
    } else {
        ss_summary s;
        ss_net net;
        run_one(&o, &o.p, o.t.load, &s, &net);
        if (o.csv) { if (o.csv_header) csv_header(); csv_line(&o, &o.p, &s); }
        else {
            print_summary(o.p.age.age_rr_select ? "age-based" : "round-robin", &s);
            if (o.histogram) print_histogram(&s);
        }
        if (o.per_source) write_per_source(o.per_source, &net, o.p.age.age_rr_select ? "age" : "rr", 0);
        ss_net_free(&net);
    }
    if (o.t.pattern == SIM_PERMUTATION) free(o.t.perm);
    return 0;
}
