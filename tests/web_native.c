/* SPDX-License-Identifier: MIT */
/* web_native.c - what the interactive page should show, computed natively,
 * for the browser test (tests/web_check.py).
 *
 *   web_native merging line|ring rr|age PERIOD BIAS CYCLES [PROC_BIAS]
 *       packets delivered to P7 per source P0..P6 after CYCLES cycles: the
 *       page's merging model (web/shim.c) built natively (BIAS on the
 *       network ports, PROC_BIAS, BIAS unless given, on the processor's);
 *   web_native alloc 21364|NxM NETWORK ROTARY SEED CELLS[/CELLS...]
 *       allocations of the request sets CELLS (n*m characters 0/1, row by
 *       row), one after the other, by SPAA, WFA, wrapped WFA, PIM1, iSLIP-1
 *       and MCM allocators that keep their state, straight through
 *       sa_switch_allocate: per allocation one line per allocator,
 *       "size o0,o1,...";
 *   web_native route XxYxZ dor|seastar|fixed|search SRC DST [NODE:PORT,...]
 *       the verifier's verdict on the tables ("proven F") and the route
 *       from SRC to DST looked up router by router ("node:in:out:vc;...").
 *
 * The alloc and route commands call the library directly, not the shim.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../web/shim.c"

static int usage(void) {
    fprintf(stderr, "web_native: usage: web_native merging|alloc|route ... (see tests/web_native.c)\n");
    return 2;
}

static long number(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "web_native: bad number \"%s\" (%ld..%ld)\n", s, lo, hi);
        exit(2);
    }
    return v;
}

static int merging(int argc, char **a) {
    int i;
    int bias = (int)number(a[3], 0, 7), proc_bias = argc > 5 ? (int)number(a[5], 0, 7) : bias;
    if (mg_setup(strcmp(a[0], "ring") == 0, strcmp(a[1], "age") == 0, (uint32_t)number(a[2], 1, 4294967295L),
                 bias, proc_bias) != 0)
        return 2;
    mg_run((int)number(a[4], 0, 1000000));
    for (i = 0; i < 7; i++) printf("%ld%s", mg.delivered[i], i < 6 ? " " : "\n");
    return 0;
}

static int alloc(char **a) {
    static const sa_switch_kind kinds[] = { SA_SWITCH_SPAA, SA_SWITCH_WFA, SA_SWITCH_WFA_WRAPPED,
                                            SA_SWITCH_PIM, SA_SWITCH_ISLIP, SA_SWITCH_MCM };
    static uint64_t memory[6][1 << 14];
    sa_switch s[6];
    uint64_t req[SA_SWITCH_MAX * SA_WORDS(SA_SWITCH_MAX)];
    char *cells;
    int k, i, j, n = 0, m = 0, rotary = (int)number(a[2], 0, 1), network = (int)number(a[1], 0, SA_SWITCH_MAX);
    for (k = 0; k < 6; k++) {
        sa_switch_desc d;
        if (strcmp(a[0], "21364") == 0) {
            sa_switch_desc_21364(&d, kinds[k], rotary);
            d.read_port_pairs = 0;
        } else {
            memset(&d, 0, sizeof d);
            if (sscanf(a[0], "%dx%d", &d.num_inputs, &d.num_outputs) != 2) return usage();
            d.kind = kinds[k];
            d.rotary = rotary;
            for (i = 0; i < network; i++) d.network_inputs[i / 64] |= (uint64_t)1 << (i % 64);
        }
        if (kinds[k] == SA_SWITCH_ISLIP || kinds[k] == SA_SWITCH_MCM) d.rotary = 0;
        d.iterations = 1;
        d.seed = (uint64_t)number(a[3], 0, 4294967295L);
        if (sa_switch_init(&s[k], &d, memory[k], sizeof memory[k]) != SA_OK) return 2;
        n = d.num_inputs;
        m = d.num_outputs;
    }
    /* one allocation per request set, each allocator keeping its state */
    for (cells = strtok(a[4], "/"); cells; cells = strtok(NULL, "/")) {
        if ((int)strlen(cells) != n * m) return usage();
        memset(req, 0, sizeof req);
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++)
                if (cells[i * m + j] == '1') req[i * SA_WORDS(m) + j / 64] |= (uint64_t)1 << (j % 64);
        for (k = 0; k < 6; k++) {
            sa_match mt;
            sa_switch_allocate(&s[k], req, NULL, NULL, &mt);
            printf("%d ", mt.size);
            for (i = 0; i < n; i++) printf("%d%s", mt.output_of[i], i < n - 1 ? "," : "\n");
        }
    }
    return 0;
}

static int route(int argc, char **a) {
    static uint8_t tables[4 << 20];
    static uint32_t scratch[1 << 20], fault_words[4096];
    sr_topology_desc d;
    sr_topology t;
    sr_faults f;
    sr_verify_report rep;
    sr_gen_report gen;
    sr_seastar_options opt;
    size_t per;
    sr_result built = SR_OK;
    uint32_t u, node, dst;
    int in_port, vc, steps;
    memset(&d, 0, sizeof d);
    memset(&opt, 0, sizeof opt);
    d.num_dims = 3;
    if (sscanf(a[0], "%dx%dx%d", &d.radix[0], &d.radix[1], &d.radix[2]) != 3) return usage();
    if (sr_topology_init(&t, &d) != SR_OK || sr_faults_init(&f, &t, fault_words, sizeof fault_words) != SR_OK) return 2;
    if (argc > 4 && a[4][0]) {
        char *list = a[4], *item;
        for (item = strtok(list, ","); item; item = strtok(NULL, ",")) {
            int fn, fp;
            if (sscanf(item, "%d:%d", &fn, &fp) != 2 || sr_fault_link(&f, &t, (uint32_t)fn, fp) != SR_OK) return 2;
        }
    }
    per = sr_table_size(&t);
    if (strcmp(a[1], "dor") == 0) {
        for (u = 0; u < t.num_nodes && built == SR_OK; u++) built = sr_table_build_dor(&t, u, tables + u * per, per);
    } else if (strcmp(a[1], "search") == 0) {
        built = sr_tables_build_search(&t, &f, NULL, tables, sizeof tables, scratch, sizeof scratch, NULL, 0, &gen);
    } else {
        opt.fixed_datelines = strcmp(a[1], "fixed") == 0;
        built = sr_tables_build_seastar_opt(&t, &f, &opt, tables, sizeof tables, scratch, sizeof scratch, NULL, 0, &gen);
    }
    if (built != SR_OK && built != SR_ERR_DEADLOCK && built != SR_ERR_UNDELIVERED) {
        fprintf(stderr, "web_native: the tables were not built: %s\n", sr_result_string(built));
        return 2;
    }
    sr_verify(&t, &f, tables, 0, scratch, sizeof scratch, &rep);
    printf("%d %d\n", rep.proven, (int)rep.failure);
    node = (uint32_t)number(a[2], 0, (long)t.num_nodes - 1);
    dst = (uint32_t)number(a[3], 0, (long)t.num_nodes - 1);
    in_port = t.proc_port;
    vc = 0;
    for (steps = 0; steps < 4 * (int)t.num_nodes; steps++) {
        sr_entry e = sr_table_lookup(&t, tables + node * per, node, in_port, dst);
        int port = sr_entry_port(e), out_vc = port == SR_PORT_NONE ? vc : sr_entry_vc(e, vc);
        printf("%s%u:%d:%d:%d", steps ? ";" : "", node, in_port, port, out_vc);
        if (port == t.proc_port || port == SR_PORT_NONE) break;
        node = sr_next_hop(&t, &f, node, port);
        if (node == SR_NO_NODE) break;
        in_port = port ^ 1;
        vc = out_vc;
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    if ((argc == 7 || argc == 8) && strcmp(argv[1], "merging") == 0) return merging(argc - 2, argv + 2);
    if (argc == 7 && strcmp(argv[1], "alloc") == 0) return alloc(argv + 2);
    if ((argc == 6 || argc == 7) && strcmp(argv[1], "route") == 0) return route(argc - 2, argv + 2);
    return usage();
}
