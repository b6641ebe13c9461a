/* SPDX-License-Identifier: MIT */
/* test_route_seastar.c - seastar_route.h: the SeaStar fault rules (seed
 * 001) with the datelines placed from the fault set -- every single link
 * and node fault proven by the verifier (4x4x4 here, 8x8x8 and 11x12x16
 * under --long), the printed rules' failing cases with the datelines left
 * on the wrap-around links, the dateline placement against its statement,
 * the generator's fast path against evaluating every entry, and the Ymax
 * dodge option. */
#include "st_test.h"
#include "../seastar_route.h"
#include "route_util.h"
#include <stdlib.h>

typedef struct rs_net {
    sr_topology t;
    uint8_t *tab;
    size_t tab_size, gs_size, vs_size;
    void *gs, *vs;
    uint32_t *fstore;
    sr_faults f;
} rs_net;

static int rs_open(rs_net *n, const int *k, const int *mesh) {
    if (!rt_make(&n->t, 3, k, mesh, NULL)) return 0;
    n->tab_size = (size_t)n->t.table_size * n->t.num_nodes;
    n->tab = (uint8_t *)malloc(n->tab_size);
    n->gs_size = sr_gen_scratch_size(&n->t);
    n->vs_size = sr_verify_scratch_size(&n->t);
    n->gs = malloc(n->gs_size);
    n->vs = malloc(n->vs_size);
    n->fstore = (uint32_t *)malloc(sr_faults_size(&n->t));
    return n->tab && n->gs && n->vs && n->fstore &&
           sr_faults_init(&n->f, &n->t, n->fstore, sr_faults_size(&n->t)) == SR_OK;
}

static void rs_close(rs_net *n) {
    free(n->tab); free(n->gs); free(n->vs); free(n->fstore);
}

static void rs_clear(rs_net *n) { sr_faults_init(&n->f, &n->t, n->fstore, sr_faults_size(&n->t)); }

/* SeaStar tables with options (NULL: defaults), then the verifier. */
static int rs_gen(rs_net *n, const sr_seastar_options *o, sr_gen_report *g, sr_verify_report *v) {
    int r = sr_tables_build_seastar_opt(&n->t, &n->f, o, n->tab, n->tab_size, n->gs, n->gs_size, NULL,
                                        0, g), rv;
    if (!rt_gen_written(r)) return r;
    rv = sr_verify(&n->t, &n->f, n->tab, 0, n->vs, n->vs_size, v);
    if (rv != SR_OK) return rv;
    /* the generator's result is the verifier's verdict */
    return r == rt_gen_verdict(v, rt_connected_pairs(&n->t, &n->f)) ? SR_OK : 1000 + r;
}

/* Every single link fault (each link once) and every single node fault of
 * a torus: the tables are proven (delivery and no dependency cycle) and
 * every pair of live nodes is delivered.  Returns the number of faults
 * checked, or -1 after a failed check. */
static long rs_every_single_fault(st_ctx *st__ctx, const int *k) {
    rs_net n;
    long count = 0;
    uint32_t u;
    int p;
    if (!rs_open(&n, k, NULL)) return -1;
    for (u = 0; u < n.t.num_nodes; u++)
        for (p = -1; p < n.t.proc_port; p += 2) {          /* -1: the node; else +x, +y, +z */
            sr_gen_report g;
            sr_verify_report v;
            uint64_t live = n.t.num_nodes - (p < 0);
            rs_clear(&n);
            if (p < 0) sr_fault_node(&n.f, &n.t, u);
            else sr_fault_link(&n.f, &n.t, u, p - 1);
            if (rs_gen(&n, NULL, &g, &v) != SR_OK) { rs_close(&n); return -1; }
            if (!v.proven || v.unroutable || v.pairs != live * (live - 1) || v.delivered != v.pairs ||
                g.unroutable || g.patched) {
                st_fail_begin(st__ctx, __FILE__, __LINE__, "every single fault proven");
                fprintf(stderr, "    %dx%dx%d, node %u (%d,%d,%d), %s: %s, %llu unroutable, %llu patched\n",
                        k[0], k[1], k[2], u, sr_coord(&n.t, u, 0), sr_coord(&n.t, u, 1),
                        sr_coord(&n.t, u, 2), p < 0 ? "node fault" : sr_port_name(&n.t, p - 1),
                        v.proven ? "proven" : sr_failure_string(v.failure),
                        (unsigned long long)v.unroutable, (unsigned long long)g.patched);
                rs_close(&n);
                return -1;
            }
            count++;
        }
    rs_close(&n);
    return count;
}

ST_TEST(route_seastar_every_single_fault_4x4x4) {
    /* 64 node faults and 192 link faults */
    static const int k[3] = { 4, 4, 4 };
    ST_EQ(256, rs_every_single_fault(st__ctx, k));
}

ST_TEST(route_seastar_every_single_fault_8x8x8_long) {
    /* --long: 512 node faults and 1536 link faults */
    static const int k[3] = { 8, 8, 8 };
    if (!ST_LONG) return;
    ST_EQ(2048, rs_every_single_fault(st__ctx, k));
}

ST_TEST(route_seastar_every_single_fault_11x12x16_long) {
    /* --long: 2112 node faults and 6336 link faults */
    static const int k[3] = { 11, 12, 16 };
    if (!ST_LONG) return;
    ST_EQ(8448, rs_every_single_fault(st__ctx, k));
}

ST_TEST(route_seastar_printed_rules_fail_with_datelines_on_the_wrap_links) {
    /* The failing cases behind the dateline extension: with the datelines
     * left on the wrap-around links (fixed_datelines), a failed +z link of
     * (0,0,0) in 8x8x8 -- just past the z dateline, so that packets that
     * crossed it detour in Y -- deadlocks, and a failed +x link of (0,3,3)
     * in 4x4x4 -- whose y+ and z+ detours would both cross a dateline --
     * loses 64 pairs.  With the datelines placed from the faults both are
     * proven with every pair delivered. */
    static const int k8[3] = { 8, 8, 8 }, k4[3] = { 4, 4, 4 };
    sr_seastar_options fixed;
    rs_net n;
    sr_gen_report g;
    sr_verify_report v;
    memset(&fixed, 0, sizeof fixed);
    fixed.fixed_datelines = 1;
    ST_CHECK(rs_open(&n, k8, NULL));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 0, 4));
    ST_EQ(SR_OK, rs_gen(&n, &fixed, &g, &v));
    ST_EQ(0, g.dateline[2]);
    ST_CHECK(!v.proven);
    ST_EQ(SR_FAIL_DEADLOCK, v.failure);
    ST_EQ(SR_OK, rs_gen(&n, NULL, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(v.pairs, v.delivered);
    rs_close(&n);
    ST_CHECK(rs_open(&n, k4, NULL));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, 0 * 16 + 3 * 4 + 3, 0));
    ST_EQ(SR_OK, rs_gen(&n, &fixed, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(64, v.unroutable);
    ST_EQ(SR_OK, rs_gen(&n, NULL, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(0, v.unroutable);
    rs_close(&n);
}

/* The dateline placement as docs/routing.rst states it, computed from the
 * statement: for each position p of dimension d (the dateline is the link
 * p-1 -> p), count the faults that argue against it -- a node with a
 * broken X link at y = p-1 (y); a node with a broken X or Y link at
 * z = p-1, and a node with a broken z+ link whose z is 0 .. k/2-1 planes
 * on from p-1 (z) -- and take the positions with the fewest, then the one
 * farthest from every coordinate next to a fault (hops from the link to
 * the nearest one, either way round), then the first from the topology's
 * dateline on.  A failed node counts as the broken links of its
 * neighbours, and marks its own coordinate and its neighbours'. */
static int rs_oracle_dateline(const sr_topology *t, const sr_faults *f, int d, int *fewest) {
    int k = t->radix[d], p, best = -1, best_v = 0, best_c = 0, any = 0, i;
    uint8_t marked[64];
    uint32_t u;
    memset(marked, 0, sizeof marked);
    for (u = 0; u < t->num_nodes; u++) {
        int c = sr_coord(t, u, d);
        if (!f->mask[u]) continue;
        any = 1;
        marked[c] = 1;
        if (f->mask[u] & SR_FAULT_NODE) { marked[(c + 1) % k] = 1; marked[(c + k - 1) % k] = 1; }
    }
    if (fewest) *fewest = 0;
    if (!any || t->mesh[d]) return t->dateline[d];
    for (i = 0; i < k; i++) {
        int v = 0, clear;
        p = (t->dateline[d] + i) % k;
        for (u = 0; u < t->num_nodes; u++) {
            int b;
            for (b = 0; b < 6; b++) {
                uint32_t w = sr_neighbor(t, u, b);
                int broken, c = sr_coord(t, u, d);
                if (w == SR_NO_NODE || (f->mask[u] & SR_FAULT_NODE)) continue;
                broken = ((f->mask[u] >> b) & 1) || (f->mask[w] & SR_FAULT_NODE);
                if (!broken) continue;
                if (d == 1 && b < 2 && p == (c + 1) % k) v++;
                if (d == 2 && b < 4 && p == (c + 1) % k) v++;
                if (d == 2 && b == 4 && (c + 1 - p + k) % k < k / 2) v++;
            }
        }
        for (clear = 0; clear < k; clear++)
            if (marked[(p + clear) % k] || marked[((p - 1 - clear) % k + k) % k]) break;
        if (best < 0 || v < best_v || (v == best_v && clear > best_c)) { best = p; best_v = v; best_c = clear; }
    }
    if (fewest) *fewest = best_v;
    return best;
}

ST_TEST(route_seastar_datelines_placed_as_stated) {
    /* random fault sets of one to four faults (links and nodes) on tori
     * of 8x8x8, 4x6x5 and 5x7x8, datelines of the topology anywhere: the
     * generator reports the datelines the statement gives (x stays) */
    static const int shapes[3][3] = { { 8, 8, 8 }, { 4, 6, 5 }, { 5, 7, 8 } };
    uint64_t seed = 31;
    int trial;
    for (trial = 0; trial < 30; trial++) {
        rs_net n;
        sr_topology_desc dd;
        sr_gen_report g;
        int i, nf = 1 + (int)st_rand_below(&seed, 4);
        memset(&dd, 0, sizeof dd);
        dd.num_dims = 3;
        for (i = 0; i < 3; i++) {
            dd.radix[i] = shapes[trial % 3][i];
            dd.dateline[i] = (int)st_rand_below(&seed, (uint32_t)dd.radix[i]);
        }
        ST_CHECK(rs_open(&n, dd.radix, NULL));
        ST_EQ(SR_OK, sr_topology_init(&n.t, &dd));
        for (i = 0; i < nf; i++) {
            uint32_t u = st_rand_below(&seed, n.t.num_nodes);
            if (st_rand_below(&seed, 4) == 0) sr_fault_node(&n.f, &n.t, u);
            else sr_fault_link(&n.f, &n.t, u, (int)st_rand_below(&seed, 6));
        }
        ST_CHECK(rt_gen_written(sr_tables_build_seastar(&n.t, &n.f, n.tab, n.tab_size, n.gs, n.gs_size, NULL, 0, &g)));
        ST_EQ(dd.dateline[0], g.dateline[0]);
        ST_EQ(rs_oracle_dateline(&n.t, &n.f, 1, NULL), g.dateline[1]);
        ST_EQ(rs_oracle_dateline(&n.t, &n.f, 2, NULL), g.dateline[2]);
        rs_close(&n);
    }
}

ST_TEST(route_seastar_fast_path_equals_every_entry_evaluated) {
    /* The generator gives routers far from every fault their
     * dimension-order tables and evaluates only their 180-degree entries.
     * On random fault sets (tori and meshes, up to six faults, with and
     * without the Ymax dodge) every entry of every router equals
     * sr_seastar_entry over the topology with the reported datelines,
     * except the entries the delivery check cut to SR_ENTRY_NONE, whose
     * number is the report's `patched`. */
    uint64_t seed = 5;
    int trial;
    for (trial = 0; trial < 12; trial++) {
        rs_net n;
        int k[3], mesh[3], i, ip, nf;
        sr_seastar_options o;
        sr_gen_report g;
        sr_topology tt;
        uint32_t u, d;
        uint64_t cut = 0;
        for (i = 0; i < 3; i++) {
            k[i] = 3 + (int)st_rand_below(&seed, 4);
            mesh[i] = trial % 3 == 1 ? (int)(st_rand(&seed) & 1) : 0;
        }
        ST_CHECK(rs_open(&n, k, mesh));
        memset(&o, 0, sizeof o);
        o.ymax_dodge = trial & 1;
        nf = 1 + (int)st_rand_below(&seed, 6);
        for (i = 0; i < nf; i++) {
            uint32_t w = st_rand_below(&seed, n.t.num_nodes);
            if (st_rand_below(&seed, 5) == 0) sr_fault_node(&n.f, &n.t, w);
            else sr_fault_link(&n.f, &n.t, w, (int)st_rand_below(&seed, 6));
        }
        ST_CHECK(rt_gen_written(sr_tables_build_seastar_opt(&n.t, &n.f, &o, n.tab, n.tab_size, n.gs, n.gs_size,
                                                            NULL, 0, &g)));
        tt = n.t;
        for (i = 0; i < 3; i++) tt.dateline[i] = g.dateline[i];
        for (u = 0; u < n.t.num_nodes; u++)
            for (ip = 0; ip < n.t.num_ports; ip++)
                for (d = 0; d < n.t.num_nodes; d++) {
                    sr_entry want = sr_seastar_entry(&tt, &n.f, &o, u, ip, d);
                    sr_entry got = sr_table_lookup(&n.t, n.tab + (size_t)u * n.t.table_size, u, ip, d);
                    if (got == want) continue;
                    ST_CHECKF(got == SR_ENTRY_NONE, "trial %d router %u port %d dst %u: %d, rule %d",
                              trial, u, ip, d, got, want);
                    cut++;
                }
        ST_EQ((long long)g.patched, (long long)cut);
        rs_close(&n);
    }
}

ST_TEST(route_seastar_ymax_dodge_option) {
    /* 4x4x4 with y a mesh: the +x link of (1,3,1) has failed, at y = Ymax,
     * where there is no y+ link.  By default a packet there for (2,3,1)
     * (it wants x+) takes z+; with the Ymax dodge ("when y = Ymax, it is
     * permissible to dodge y- then go x+/x-") it takes y-, and the node
     * below sends it on in x.  Both are proven and deliver every pair. */
    static const int k[3] = { 4, 4, 4 }, mesh[3] = { 0, 1, 0 };
    rs_net n;
    sr_seastar_options o;
    sr_gen_report g;
    sr_verify_report v;
    uint32_t at = 1 * 16 + 3 * 4 + 1, dst = 2 * 16 + 3 * 4 + 1, below = 1 * 16 + 2 * 4 + 1;
    sr_entry e;
    ST_CHECK(rs_open(&n, k, mesh));
    ST_EQ(SR_OK, sr_fault_link(&n.f, &n.t, at, 0));
    memset(&o, 0, sizeof o);
    ST_EQ(SR_OK, rs_gen(&n, &o, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(v.pairs, v.delivered);
    e = sr_table_lookup(&n.t, n.tab + (size_t)at * n.t.table_size, at, n.t.proc_port, dst);
    ST_EQ(4, sr_entry_port(e));                      /* z+ */
    o.ymax_dodge = 1;
    ST_EQ(SR_OK, rs_gen(&n, &o, &g, &v));
    ST_CHECK(v.proven);
    ST_EQ(v.pairs, v.delivered);
    e = sr_table_lookup(&n.t, n.tab + (size_t)at * n.t.table_size, at, n.t.proc_port, dst);
    ST_EQ(3, sr_entry_port(e));                      /* y- */
    e = sr_table_lookup(&n.t, n.tab + (size_t)below * n.t.table_size, below, 2, dst);
    ST_EQ(0, sr_entry_port(e));                      /* then x+ */
    rs_close(&n);
}

/* The counts docs/routing.rst shows come from docs/data (make
 * route-results); the cheap ones are computed again here so that code and
 * docs do not drift apart: the 4x4x4 row of route_single.csv, and the
 * first fault pairs of route_double.csv. */
static int rs_read_line(FILE *f, char *buf, int size) {
    if (!fgets(buf, size, f)) return 0;
    buf[strcspn(buf, "\r\n")] = 0;
    return 1;
}

/* "(x y z) +x" or "(x y z) node" of an 8x8x8 network. */
static int rs_parse_fault(const sr_topology *t, const char *s, uint32_t *node, int *port) {
    int c[3], n = 0;
    char what[8];
    if (sscanf(s, "(%d %d %d) %7s%n", &c[0], &c[1], &c[2], what, &n) != 4) return 0;
    *node = sr_node_id(t, c);
    if (*node == SR_NO_NODE) return 0;
    if (!strcmp(what, "node")) *port = -1;
    else if (!strcmp(what, "+x")) *port = 0;
    else if (!strcmp(what, "+y")) *port = 2;
    else if (!strcmp(what, "+z")) *port = 4;
    else return 0;
    return 1;
}

ST_TEST(route_seastar_docs_data_matches_the_code) {
    static const int k4[3] = { 4, 4, 4 }, k8[3] = { 8, 8, 8 };
    char line[512];
    FILE *f = fopen("docs/data/route_single.csv", "r");
    long faults = -1, links, nodes, ok, fixed_ok, fixed_cycles, got_fixed_ok = 0, got_fixed_cycles = 0;
    double secs;
    int found = 0, row;
    rs_net n;
    sr_seastar_options fixed;
    uint32_t u;
    int p;
    ST_CHECKF(f != NULL, "docs/data/route_single.csv missing (run from the top directory; make route-results)");
    while (rs_read_line(f, line, sizeof line))
        if (sscanf(line, "4x4x4,%ld,%ld,%ld,%ld,%lf,%ld,%ld", &faults, &links, &nodes, &ok, &secs, &fixed_ok,
                   &fixed_cycles) == 7) { found = 1; break; }
    fclose(f);
    ST_CHECK(found);
    ST_EQ(256, faults);
    ST_EQ(192, links);
    ST_EQ(64, nodes);
    ST_EQ(rs_every_single_fault(st__ctx, k4), ok);
    /* the fixed-dateline columns, recounted */
    memset(&fixed, 0, sizeof fixed);
    fixed.fixed_datelines = 1;
    ST_CHECK(rs_open(&n, k4, NULL));
    for (u = 0; u < n.t.num_nodes; u++)
        for (p = -1; p < n.t.proc_port; p += 2) {
            sr_gen_report g;
            sr_verify_report v;
            rs_clear(&n);
            if (p < 0) sr_fault_node(&n.f, &n.t, u);
            else sr_fault_link(&n.f, &n.t, u, p - 1);
            ST_EQ(SR_OK, rs_gen(&n, &fixed, &g, &v));
            got_fixed_ok += v.proven && v.unroutable == 0 && v.delivered == v.pairs;
            got_fixed_cycles += !v.proven && v.failure == SR_FAIL_DEADLOCK;
        }
    rs_close(&n);
    ST_EQ(fixed_ok, got_fixed_ok);
    ST_EQ(fixed_cycles, got_fixed_cycles);
    /* the first four fault pairs of 8x8x8 */
    f = fopen("docs/data/route_double.csv", "r");
    ST_CHECKF(f != NULL, "docs/data/route_double.csv missing (make route-results)");
    ST_CHECK(rs_read_line(f, line, sizeof line));             /* header */
    ST_CHECK(rs_open(&n, k8, NULL));
    for (row = 1; row <= 4 && rs_read_line(f, line, sizeof line); row++) {
        char *fa = strchr(line, ','), *fb, *rest;
        int idx, dy, dz, proven, port;
        unsigned long long unr;
        uint32_t node;
        char failure[64];
        sr_gen_report g;
        sr_verify_report v;
        ST_CHECK(fa != NULL);
        fb = strchr(fa + 1, ',');
        ST_CHECK(fb != NULL);
        rest = strchr(fb + 1, ',');
        ST_CHECK(rest != NULL);
        *fb = 0;
        *rest = 0;
        idx = atoi(line);
        ST_EQ(row, idx);
        rs_clear(&n);
        ST_CHECK(rs_parse_fault(&n.t, fa + 1, &node, &port));
        if (port < 0) sr_fault_node(&n.f, &n.t, node); else sr_fault_link(&n.f, &n.t, node, port);
        ST_CHECK(rs_parse_fault(&n.t, fb + 1, &node, &port));
        if (port < 0) sr_fault_node(&n.f, &n.t, node); else sr_fault_link(&n.f, &n.t, node, port);
        failure[0] = 0;
        ST_CHECK(sscanf(rest + 1, "%d,%d,%d,", &dy, &dz, &proven) == 3);
        {
            const char *c = strchr(rest + 1, ',');
            c = c ? strchr(c + 1, ',') : NULL;
            c = c ? strchr(c + 1, ',') : NULL;
            ST_CHECK(c != NULL);
            ST_CHECK(sscanf(c + 1, "%63[^,],%llu", failure, &unr) == 2 || sscanf(c + 1, ",%llu", &unr) == 1);
        }
        ST_EQ(SR_OK, rs_gen(&n, NULL, &g, &v));
        ST_EQ(dy, g.dateline[1]);
        ST_EQ(dz, g.dateline[2]);
        ST_EQ(proven, v.proven);
        if (!v.proven) ST_EQ_STR(failure, sr_failure_string(v.failure));
        ST_EQ((long long)unr, (long long)v.unroutable);
    }
    ST_EQ(5, row);
    fclose(f);
    rs_close(&n);
}

ST_TEST(route_seastar_docs_double_failures_have_the_stated_pattern) {
    /* docs/routing.rst says of the fault pairs of docs/data/route_double.csv
     * that every pair the verifier did not prove with every pair delivered
     * (a) leaves no z dateline position free of faults that argue against
     * it (the placement statement, recounted by rs_oracle_dateline), and
     * (b) breaks two z+ links of live nodes (a failed +z link, or the one
     * into a failed node from below) k/2 - 1 or k/2 planes apart; and that
     * every pair with a free y and z position was proven.  Checked on every
     * row of the file. */
    static const int k8[3] = { 8, 8, 8 };
    char line[512];
    FILE *f = fopen("docs/data/route_double.csv", "r");
    rs_net n;
    int rows = 0, failing = 0;
    ST_CHECKF(f != NULL, "docs/data/route_double.csv missing (make route-results)");
    ST_CHECK(rs_open(&n, k8, NULL));
    ST_CHECK(rs_read_line(f, line, sizeof line));             /* header */
    while (rs_read_line(f, line, sizeof line)) {
        char *fa = strchr(line, ','), *fb, *rest;
        uint32_t node[2];
        int port[2], dy, dz, proven, good, fy, fz, planes[2], np = 0, i, gap;
        unsigned long long unr;
        const char *c;
        ST_CHECK(fa != NULL);
        fb = strchr(fa + 1, ',');
        ST_CHECK(fb != NULL);
        rest = strchr(fb + 1, ',');
        ST_CHECK(rest != NULL);
        *fb = 0;
        *rest = 0;
        ST_CHECK(rs_parse_fault(&n.t, fa + 1, &node[0], &port[0]));
        ST_CHECK(rs_parse_fault(&n.t, fb + 1, &node[1], &port[1]));
        ST_CHECK(sscanf(rest + 1, "%d,%d,%d,", &dy, &dz, &proven) == 3);
        c = strrchr(rest + 1, ',');
        ST_CHECK(c != NULL && sscanf(c + 1, "%llu", &unr) == 1);
        good = proven && unr == 0;
        rs_clear(&n);
        for (i = 0; i < 2; i++) {
            if (port[i] < 0) sr_fault_node(&n.f, &n.t, node[i]);
            else sr_fault_link(&n.f, &n.t, node[i], port[i]);
        }
        rs_oracle_dateline(&n.t, &n.f, 1, &fy);
        rs_oracle_dateline(&n.t, &n.f, 2, &fz);
        if (fy == 0 && fz == 0) ST_CHECKF(good, "pair %d: free datelines, not proven", atoi(line));
        rows++;
        if (good) continue;
        failing++;
        ST_CHECKF(fz > 0, "pair %d: a free z dateline position", atoi(line));
        for (i = 0; i < 2; i++) {
            int z = sr_coord(&n.t, node[i], 2);
            if (port[i] == 4) planes[np++] = z;
            else if (port[i] < 0) planes[np++] = (z + 7) % 8;
        }
        ST_EQ(2, np);
        gap = (planes[0] - planes[1] + 8) % 8;
        if (gap > 4) gap = 8 - gap;
        ST_CHECKF(gap == 3 || gap == 4, "pair %d: z+ links %d planes apart", atoi(line), gap);
    }
    fclose(f);
    rs_close(&n);
    ST_CHECK(rows >= 200);
    ST_CHECK(failing > 0);
}

/* Does docs/routing.rst contain `want` (every run of spaces and line
 * breaks read as one space)? */
static int rs_docs_say(const char *want) {
    static char text[1 << 17];
    static int loaded;
    if (!loaded) {
        FILE *f = fopen("docs/routing.rst", "r");
        size_t n, i;
        if (!f) return 0;
        size_t j = 0;
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        for (i = 0; i < n; i++) {
            char c = text[i] == '\n' ? ' ' : text[i];
            if (c == ' ' && j > 0 && text[j - 1] == ' ') continue;
            text[j++] = c;
        }
        text[j] = 0;
        loaded = 1;
    }
    return strstr(text, want) != NULL;
}

/* n with thousands separators, into buf (at least 32 bytes). */
static void rs_thousands(size_t n, char *buf) {
    char digits[24];
    int len, i, j = 0;
    len = snprintf(digits, sizeof digits, "%lu", (unsigned long)n);
    for (i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0) buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = 0;
}

ST_TEST(route_docs_sizes_match_the_code) {
    /* The sizes docs/routing.rst gives for 32x32x32 are the size
     * functions' (bytes per router, MB of all tables and of the scratch
     * of the verifier and the generators, 1 MB = 10^6 bytes, rounded
     * down), and its partitions are 4 planes thick. */
    static const int k[3] = { 32, 32, 32 };
    sr_topology t;
    char buf[96], num[32];
    ST_CHECK(rt_make(&t, 3, k, NULL, NULL));
    rs_thousands(sr_table_size(&t), num);
    snprintf(buf, sizeof buf, "%s bytes for a 32x32x32 router, %u MB for all 32K routers", num,
             (unsigned)(sr_table_size(&t) * t.num_nodes / 1000000));
    ST_CHECKF(rs_docs_say(buf), "docs/routing.rst does not say \"%s\"", buf);
    snprintf(buf, sizeof buf, "the tables are %u MB at 32x32x32", (unsigned)(sr_table_size(&t) * t.num_nodes / 1000000));
    ST_CHECKF(rs_docs_say(buf), "docs/routing.rst does not say \"%s\"", buf);
    snprintf(buf, sizeof buf, "(:c:func:`sr_verify_scratch_size`; %u MB for 32x32x32)",
             (unsigned)(sr_verify_scratch_size(&t) / 1000000));
    ST_CHECKF(rs_docs_say(buf), "docs/routing.rst does not say \"%s\"", buf);
    snprintf(buf, sizeof buf, "(:c:func:`sr_gen_scratch_size`; %u MB for 32x32x32)",
             (unsigned)(sr_gen_scratch_size(&t) / 1000000));
    ST_CHECKF(rs_docs_say(buf), "docs/routing.rst does not say \"%s\"", buf);
    snprintf(buf, sizeof buf, "whose partitions are %u planes thick", (unsigned)(32 / t.num_partitions));
    ST_CHECKF(rs_docs_say(buf), "docs/routing.rst does not say \"%s\"", buf);
}
