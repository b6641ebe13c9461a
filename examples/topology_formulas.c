/* SPDX-License-Identifier: MIT */
/* topology_formulas.c - seed 004's topology formulas and examples (Chapters
 * 3 and 4) next to the library's values, and the metrics of example
 * networks: the two tables of docs/topologies.rst.
 *
 * Writes into --out (default docs/data, which must exist):
 *
 *   topology_formulas.csv  id,seed_line,quantity,paper_value,ours,verdict,note
 *       seed_line    the line of seeds/004_b3192961d87913b0.txt
 *       paper_value  what the seed prints (a formula evaluated at the
 *                    example's parameters where it prints a formula)
 *       ours         what the library computes (seastar_topo.h >>formulas
 *                    and >>metrics, and the networks of sr_net_init);
 *                    tests/test_net_formulas.c and test_net_metrics.c
 *                    prove each equal to brute force
 *       verdict      equal; print-error-corrected (the print is wrong and
 *                    ours holds); approximation (the print rounds or holds
 *                    for some sizes only); bound-holds (the print states a
 *                    bound that holds but is not the value); convention
 *                    (the print counts other pairs or channels); not-printed
 *   topology_metrics.csv   network,family,routers,terminals,radix,diameter,
 *                          avg_hops,hop_sum,pairs,bisection
 *       the metrics of sr_net_compute_metrics (definitions at >>metrics).
 *
 * make test reruns it and compares both files byte for byte with the
 * committed ones (tests/topo_data.sh); make results rewrites them.
 *
 * Usage: topology_formulas [--out DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../seastar_route.h"
#include "common/cli.h"

static FILE *out;

static void die(const char *what, sr_result r) {
    fprintf(stderr, "topology_formulas: %s: %s\n", what, sr_result_string(r));
    exit(1);
}

static void check(sr_result r, const char *what) {
    if (r != SR_OK) die(what, r);
}

static sr_net make(const sr_net_desc *d, const char *what) {
    sr_net net;
    check(sr_net_init(&net, d), what);
    return net;
}

static sr_net_metrics metrics_of(const sr_net_desc *d, const char *what) {
    sr_net net = make(d, what);
    sr_net_metrics m;
    check(sr_net_compute_metrics(&net, &m), what);
    return m;
}

/* One row of topology_formulas.csv. */
static void row(const char *id, int line, const char *quantity, const char *paper, const char *ours,
                const char *verdict, const char *note) {
    cli_csv_field(out, id, 0);
    fprintf(out, ",%d,", line);
    cli_csv_field(out, quantity, 0);
    fputc(',', out);
    cli_csv_field(out, paper, 0);
    fputc(',', out);
    cli_csv_field(out, ours, 0);
    fputc(',', out);
    cli_csv_field(out, verdict, 0);
    fputc(',', out);
    cli_csv_field(out, note, 0);
    fputc('\n', out);
}

/* A row whose values are numbers, with the verdict equal when they match. */
static void row_u(const char *id, int line, const char *quantity, uint64_t paper, uint64_t ours, const char *note) {
    char p[32], o[32];
    snprintf(p, sizeof p, "%llu", (unsigned long long)paper);
    snprintf(o, sizeof o, "%llu", (unsigned long long)ours);
    row(id, line, quantity, p, o, paper == ours ? "equal" : "print-error-corrected", note);
}

/* A row whose printed value is a phrase ("over 256k"): equal when ours
 * satisfies it. */
static void row_claim(const char *id, int line, const char *quantity, const char *paper, uint64_t ours, int holds,
                      const char *note) {
    char o[32];
    snprintf(o, sizeof o, "%llu", (unsigned long long)ours);
    row(id, line, quantity, paper, o, holds ? "equal" : "print-error-corrected", note);
}

static const char *fmt(char *buf, size_t n, double x, int digits) {
    snprintf(buf, n, "%.*f", digits, x);
    return buf;
}

/* A ring or line of k routers; a torus of n dimensions of radix k. */
static sr_net_desc ring(int k, int mesh) {
    sr_net_desc d;
    check(sr_net_desc_cube(&d, 1, &k, &mesh), "ring");
    return d;
}

static sr_net_desc torus(int n, int k) {
    int r[SR_MAX_DIMS], i;
    sr_net_desc d;
    for (i = 0; i < SR_MAX_DIMS; i++) r[i] = k;
    check(sr_net_desc_cube(&d, n, r, NULL), "torus");
    return d;
}

/* ------------------------------------------------------------ Chapter 3 */

/* Figure 3.3: the hops of every pair of a 9-node mesh or torus, as the
 * rows of digits the figure prints. */
static void hop_matrix(const sr_net *net, char *buf, size_t n) {
    uint32_t s, t;
    size_t at = 0;
    for (s = 0; s < 9; s++) {
        for (t = 0; t < 9 && at + 2 < n; t++) buf[at++] = (char)('0' + sr_net_hops(net, s, t));
        if (s < 8 && at + 2 < n) buf[at++] = ' ';
    }
    buf[at] = 0;
}

/* Whether the binary n-cube is the radix-4 torus of n/2 dimensions: the
 * Gray code 0, 1, 3, 2 of each coordinate maps every channel of the torus
 * onto one of the hypercube; returns the channels mapped, *total the
 * torus's channels and *hyper the hypercube's. */
static uint32_t hypercube_as_torus(int n, uint32_t *total, uint32_t *hyper) {
    static const uint32_t gray[4] = { 0, 1, 3, 2 };
    sr_net_desc td = torus(n / 2, 4), hd;
    sr_net torus = make(&td, "4-ary torus"), hx;
    uint32_t r, mapped = 0;
    int i, p, q;
    check(sr_hypercube_desc(n, &hd), "hypercube");
    hx = make(&hd, "hypercube");
    *total = *hyper = 0;
    for (r = 0; r < torus.num_routers; r++) {
        int c[SR_MAX_DIMS] = { 0 }, cv[SR_MAX_DIMS] = { 0 };
        uint32_t image = 0, vimage = 0;
        sr_net_router_coords(&torus, r, c);
        for (i = 0; i < n / 2; i++) image |= gray[c[i]] << (2 * i);
        for (p = 0; p < sr_net_num_ports(&torus, r); p++) {
            uint32_t v = sr_net_neighbor(&torus, r, p, NULL);
            if (v == SR_NO_NODE) continue;
            (*total)++;
            sr_net_router_coords(&torus, v, cv);
            vimage = 0;
            for (i = 0; i < n / 2; i++) vimage |= gray[cv[i]] << (2 * i);
            for (q = 0; q < sr_net_num_ports(&hx, image); q++)
                if (sr_net_neighbor(&hx, image, q, NULL) == vimage) { mapped++; break; }
        }
        for (q = 0; q < sr_net_num_ports(&hx, r); q++) *hyper += sr_net_neighbor(&hx, r, q, NULL) != SR_NO_NODE;
    }
    return mapped;
}

static void chapter3(void) {
    static const int k888[] = { 8, 8, 8 };
    static const char *const fig33a = "012345678 101234567 210123456 321012345 432101234 543210123 654321012 "
                                      "765432101 876543210";
    static const char *const fig33b = "012344321 101234432 210123443 321012344 432101234 443210123 344321012 "
                                      "234432101 123443210";
    char a[128], b[128], p[64];
    uint64_t N = 0;
    int r = 0;
    uint32_t total, hyper, mapped;
    sr_net_desc d;
    sr_net net;
    sr_net_metrics m, m8, m9;

    check(sr_cube_nodes(3, k888, &N), "Eq 3.1");
    row_u("eq3.1", 799, "nodes N of the 8x8x8 3-D torus (Eq 3.1)", 512, N, "");
    check(sr_cube_router_radix(3, &r), "Eq 3.2");
    row_u("eq3.2", 837, "router ports of a 512-node 3-D torus (Eq 3.2)", 7, (uint64_t)r, "");
    check(sr_hypercube_router_radix(512, &r), "Eq 3.3");
    row_u("eq3.3", 838, "router ports of a 512-node hypercube (Eq 3.3)", 10, (uint64_t)r, "");
    row("eq3.3-n", 838, "dimensions n of the 512-node hypercube", "n = lg2(512) + 1 = 10", "9",
        "print-error-corrected", "the print labels the port count r = n + 1 = 10 as n");
    mapped = hypercube_as_torus(6, &total, &hyper);
    snprintf(a, sizeof a, "%s: %u of %u channels map, %u in the hypercube",
             mapped == total && total == hyper ? "isomorphic" : "not isomorphic", mapped, total, hyper);
    row("hypercube-torus", 838, "binary 6-cube against the radix-4 3-D torus", "isomorphic", a,
        mapped == total && total == hyper ? "equal" : "print-error-corrected", "Gray code 0,1,3,2 per coordinate");

    /* Table 3.1, k = 9 as in Figure 3.3, and k = 8 */
    d = ring(9, 1);
    m = metrics_of(&d, "9-ary 1-mesh");
    row_u("table3.1-mesh-diameter", 859, "mesh diameter, k = 9 (k - 1)", 8, (uint64_t)m.diameter, "");
    row("table3.1-mesh-average", 859, "mesh average hops, k = 9 ((k + 1)/3)", fmt(p, sizeof p, 10.0 / 3.0, 4),
        fmt(a, sizeof a, m.avg_hops, 4), "equal", "over the k(k-1) pairs of distinct nodes, as the text divides");
    d = ring(8, 0);
    m8 = metrics_of(&d, "8-ary 1-cube");
    d = ring(9, 0);
    m9 = metrics_of(&d, "9-ary 1-cube");
    row_u("table3.1-torus-diameter-8", 860, "torus diameter, k = 8 (k/2)", 4, (uint64_t)m8.diameter, "");
    row("table3.1-torus-diameter-9", 860, "torus diameter, k = 9 (k/2)", "4.5", "4", "approximation",
        "floor(k/2); k/2 holds for even k");
    row("table3.1-torus-average-8", 860, "torus average hops, k = 8 (k/4)", "2.0000",
        fmt(a, sizeof a, (double)m8.hop_sum / 64.0, 4), "equal",
        "over all k^2 pairs, self pairs included; over the k(k-1) distinct pairs 2.2857");
    snprintf(b, sizeof b, "over all k^2 pairs (exact for even k only); over the k(k-1) distinct pairs %.4f, "
             "the text's own method on Figure 3.3(b)", m9.avg_hops);
    row("table3.1-torus-average-9", 860, "torus average hops, k = 9 (k/4)", "2.2500",
        fmt(a, sizeof a, (double)m9.hop_sum / 81.0, 4), "approximation", b);
    check(sr_hypercube_desc(3, &d), "hypercube");
    m = metrics_of(&d, "binary 3-cube");
    row_u("table3.1-hypercube-diameter", 861, "hypercube diameter, n = 3 (n)", 3, (uint64_t)m.diameter, "");
    snprintf(b, sizeof b, "over all N^2 pairs, self pairs included; over the N(N-1) distinct pairs %.4f", m.avg_hops);
    row("table3.1-hypercube-average", 861, "hypercube average hops, n = 3 (n/2)", "1.5000",
        fmt(a, sizeof a, (double)m.hop_sum / 64.0, 4), "equal", b);
    check(sr_fbfly_desc(4, 3, &d), "4-ary 3-flat");
    m = metrics_of(&d, "4-ary 3-flat");
    row_u("table3.1-fbfly-diameter", 862, "flattened butterfly diameter, 4-ary 3-flat (n + 1)", 4,
          (uint64_t)m.diameter + 2, "the two terminal channels counted: 2 router-to-router hops + 2");
    snprintf(b, sizeof b, "over all N^2 pairs with the two terminal channels counted; router-to-router hops over "
             "the N(N-1) distinct pairs %.4f", m.avg_hops);
    row("table3.1-fbfly-average", 862, "flattened butterfly average hops, 4-ary 3-flat (n + 1 - (n-1)/k)", "3.5000",
        fmt(a, sizeof a, (double)m.hop_sum / (double)(m.terminals * m.terminals) + 2.0, 4), "equal", b);

    d = ring(9, 1);
    net = make(&d, "9-ary 1-mesh");
    hop_matrix(&net, a, sizeof a);
    row("figure3.3a", 863, "hops of every pair, radix-9 mesh (rows)", fig33a, a, strcmp(a, fig33a) ? "differs" : "equal",
        "");
    d = ring(9, 0);
    net = make(&d, "9-ary 1-cube");
    hop_matrix(&net, b, sizeof b);
    row("figure3.3b", 873, "hops of every pair, radix-9 torus (rows)", fig33b, b, strcmp(b, fig33b) ? "differs" : "equal",
        "");
    snprintf(b, sizeof b, "%.4f", m9.avg_hops);
    row("torus-average-text", 892, "average distance of the radix-9 torus by the text's method (sum / k(k-1))",
        "k/4 = 2.2500", b, "convention", "k/4 is the average over all k^2 pairs for even k");
}

/* ------------------------------------------------------------ Chapter 4 */

static void chapter4(void) {
    static const int fig46_down[] = { 4, 4 }, fig46_up[] = { 4, 0 };
    char a[160], b[256];
    double A = 0, k = 0;
    int r = 0, kv = 0, m = 0, stages = 0, pp = 0;
    uint64_t N = 0;
    uint32_t j1 = 0, j2 = 0, j3 = 0, src, dst;
    sr_net_desc d;
    sr_net net;
    sr_net_metrics m16, m44;
    uint64_t routes = 0;

    /* Figure 4.1: a radix-16 ring of L-lane links against a 4x4 torus of
     * L/2-lane links */
    d = ring(16, 0);
    m16 = metrics_of(&d, "16-ary 1-cube");
    d = torus(2, 4);
    m44 = metrics_of(&d, "4-ary 2-cube");
    row("figure4.1-bisection", 950, "bisection bandwidth, 4x4 torus (L/2 lanes) over 16-node ring (L lanes)",
        "2 (doubled)", fmt(a, sizeof a, (double)m44.bisection * 0.5 / (double)m16.bisection, 4), "equal",
        "bisection channels times lanes");
    row("figure4.1-hops", 951, "average hops, 4x4 torus over 16-node ring", "0.5 (halved)",
        fmt(a, sizeof a, m44.avg_hops / m16.avg_hops, 4), "equal", "");

    /* Eq 4.3 and the aspect ratios */
    check(sr_optimal_radix(652.0, &k), "Eq 4.3");
    snprintf(b, sizeof b, "solves k (ln k)^2 = A; the printed k log2 k = A would give 98.5");
    row("eq4.3-652", 984, "optimal radix for aspect ratio 652 (Eq 4.3)", "45", fmt(a, sizeof a, k, 1),
        "print-error-corrected", b);
    check(sr_optimal_radix(3013.0, &k), "Eq 4.3");
    row("eq4.3-3013", 1095, "optimal radix for aspect ratio 3013 (Eq 4.3)", "128", fmt(a, sizeof a, k, 1), "equal",
        "k (ln k)^2 = A");
    check(sr_aspect_ratio(1e12, 10e-9, 4096, 128, &A), "aspect ratio");
    check(sr_optimal_radix(A, &k), "Eq 4.3");
    snprintf(b, sizeof b, "A = B tr ln N / L with the footnote's 2003 parameters (1 Tb/s, 10 ns, 4096, L = 128); "
             "optimum %.1f; the text says 2004 technology, its figures and footnote 2003", k);
    row("aspect-2003", 1096, "aspect ratio of 2003 technology", "652", fmt(a, sizeof a, A, 1), "approximation", b);
    check(sr_aspect_ratio(20e12, 2e-9, 8192, 128, &A), "aspect ratio");
    check(sr_optimal_radix(A, &k), "Eq 4.3");
    snprintf(b, sizeof b, "the footnote's 2010 parameters (20 Tb/s, 2 ns, 8192, L = 128) give this ratio, "
             "optimum %.1f, not 3013 and 128", k);
    row("aspect-2010", 1097, "aspect ratio of 2010 technology", "3013", fmt(a, sizeof a, A, 1), "print-error-corrected",
        b);
    check(sr_aspect_ratio(48e9, 40e-9, 2048, 128, &A), "aspect ratio");
    check(sr_optimal_radix(A, &k), "Eq 4.3");
    snprintf(b, sizeof b, "the footnote's 1996 parameters (48 Gb/s, 40 ns, 2048, L = 128); optimum %.1f", k);
    row("aspect-1996", 1096, "aspect ratio of 1996 technology", "(plotted only)", fmt(a, sizeof a, A, 1),
        "not-printed", b);

    /* Butterfly */
    check(sr_net_desc_butterfly(&d, 4, 3), "4-ary 3-fly");
    net = make(&d, "4-ary 3-fly");
    check(sr_fly_stages(4, net.num_terminals, &stages), "stages");
    row_u("butterfly-stages", 1176, "stages of the 4-ary 3-fly of Figure 4.5 (log_k N + 1)", 4, (uint64_t)stages,
          "a k-ary n-fly has log_k N = n stages; Figure 4.5 draws 3 columns of 16 routers");
    row_u("butterfly-routers", 1177, "routers per stage, 4-ary 3-fly (N/k)", 16,
          net.num_routers / (uint32_t)stages, "");
    check(sr_net_desc_clos(&d, 2, fig46_down, fig46_up), "folded Clos");
    net = make(&d, "folded Clos");
    row_u("clos-top-radix", 1694, "ports of a top-level switch of a folded Clos of radix-8 switches (Figure 4.6(b))",
          4, (uint64_t)sr_net_num_ports(&net, net.num_routers - 1), "clos down 4,4 up 4,0");

    /* Flattened butterfly */
    check(sr_fbfly_router_radix(4, 3, &r), "k'");
    row_u("fbfly-radix", 2055, "router radix k' = n(k-1)+1 of the 4-ary 3-flat", 10, (uint64_t)r, "");
    check(sr_fbfly_desc(4, 3, &d), "4-ary 3-flat");
    row_u("fbfly-dimensions", 2056, "dimensions n' = n - 1 of the 4-ary 3-flat", 2, (uint64_t)d.hyperx.num_dims, "");
    check(sr_fbfly_neighbor(2, 4, 4, 1, 1, &j1), "Eq 4.5");
    check(sr_fbfly_neighbor(2, 4, 4, 2, 1, &j2), "Eq 4.5");
    check(sr_fbfly_neighbor(2, 4, 4, 3, 0, &j3), "Eq 4.5");
    snprintf(a, sizeof a, "R%u' R%u' R%u'", j1, j2, j3);
    row("eq4.5-r4", 2069, "R4' reaches in dimensions 1, 2, 3 (Eq 4.5, 2-ary 4-flat)", "R5' R6' R0'", a,
        strcmp(a, "R5' R6' R0'") ? "differs" : "equal",
        "the example's Figure 4.7(d) is not printed: Figure 4.7 has (a) and (b)");
    check(sr_fbfly_max_size(64, 3, &r, &N), "3-D flattened butterfly");
    row_claim("fbfly-3d-radix64", 2077, "terminals of the largest 3-D flattened butterfly with radix-64 routers",
              "64k", N, N == 65536, "16-ary 4-flat; 64k = 65,536");

    /* Dragonfly */
    check(sr_df_size(2, 4, 2, &r, &kv, &N), "k");
    row_u("dragonfly-radix", 2168, "router radix k = p+a+h-1, Figure 4.10 (p = h = 2, a = 4)", 7, (uint64_t)r, "");
    row_u("dragonfly-virtual-radix", 2170, "virtual router radix k' = a(p+h), Figure 4.10", 16, (uint64_t)kv, "");
    check(sr_net_desc_dragonfly(&d, 2, 4, 2, 0, SR_DF_CONSECUTIVE), "Figure 4.10");
    net = make(&d, "Figure 4.10");
    row_u("dragonfly-size", 2168, "terminals N = ap(ah+1), Figure 4.10", 72, N, "");
    row_u("dragonfly-groups", 2122, "groups g = ah+1, Figure 4.10", 9, (uint64_t)net.desc.dragonfly.g, "");
    check(sr_df_group_channels(4, 2, 9, &m), "channels");
    row_u("dragonfly-max-channels", 2125, "channels between two groups, maximum size (a = 4, h = 2, g = 9)", 1,
          (uint64_t)m, "");
    check(sr_df_group_channels(4, 2, 5, &m), "channels");
    snprintf(b, sizeof b, "at least floor((ah+1)/g) = %d", (4 * 2 + 1) / 5);
    row("dragonfly-channels", 2128, "channels between two groups, a = 4, h = 2, g = 5", b,
        (snprintf(a, sizeof a, "%d", m), a), "bound-holds",
        "exactly ah/(g-1) when the channels are spread evenly, never below the print's bound");
    check(sr_df_max_size(64, &pp, &N), "dragonfly");
    row_claim("dragonfly-radix64", 2162, "terminals of the largest balanced dragonfly of radix-64 routers",
              "over 256k", N, N > 262144, "p = h = 16, a = 32; 256k = 262,144");
    check(sr_net_desc_dragonfly(&d, pp, 2 * pp, pp, 0, SR_DF_CONSECUTIVE), "radix-64 dragonfly");
    m16 = metrics_of(&d, "radix-64 dragonfly");
    row_u("dragonfly-radix64-diameter", 2162, "diameter of that dragonfly (three hops)", 3, (uint64_t)m16.diameter, "");
    check(sr_fbfly_max_size(64, 2, &r, &N), "2-D flattened butterfly");
    row_claim("fbfly-2d-radix64", 2163, "terminals of the largest 2-D flattened butterfly with radix-64 routers",
              "approximately 10k", N, N > 9000 && N < 11000, "22-ary 3-flat");
    check(sr_fbfly_max_size(64, 3, &r, &N), "3-D flattened butterfly");
    row_claim("fbfly-3d-radix64-b", 2164, "terminals of the largest 3-D flattened butterfly with radix-64 routers",
              "64k", N, N == 65536, "");

    /* HyperX */
    check(sr_hypercube_desc(4, &d), "hypercube");
    snprintf(a, sizeof a, "(L = %d, S = %d, K = 1, T = %d)", d.hyperx.num_dims, d.hyperx.size[0], d.hyperx.terminals);
    row("hyperx-hypercube", 2230, "binary 4-cube as a HyperX", "(L = 4, S = 2, K = 1, T = 1)", a,
        strcmp(a, "(L = 4, S = 2, K = 1, T = 1)") ? "differs" : "equal", "");
    check(sr_fbfly_desc(4, 3, &d), "4-ary 3-flat");
    snprintf(a, sizeof a, "(L = %d, T = S = %d, K = 1)", d.hyperx.num_dims, d.hyperx.size[0]);
    row("hyperx-fbfly", 2231, "4-ary 3-flat as a HyperX", "(L = 3, T = S = 4, K = 2)", a, "print-error-corrected",
        "a k-ary n-flat has n - 1 dimensions; its channels have terminal bandwidth (K = 1 by the print's "
        "definition of K)");

    /* Minimal routes, node 0 to node 10 of the 2-ary 4-flat */
    check(sr_fbfly_desc(2, 4, &d), "2-ary 4-flat");
    net = make(&d, "2-ary 4-flat");
    src = sr_net_terminal_router(&net, 0, NULL);
    dst = sr_net_terminal_router(&net, 10, NULL);
    {
        int cs[SR_MAX_DIMS] = { 0 }, cd[SR_MAX_DIMS] = { 0 }, i, n = sr_net_router_coords(&net, src, cs);
        sr_net_router_coords(&net, dst, cd);
        a[0] = 0;
        for (i = 0; i < n; i++)
            if (cs[i] != cd[i]) snprintf(a + strlen(a), sizeof a - strlen(a), "%s%d", a[0] ? " and " : "", i + 1);
    }
    row("routes-dimensions", 3165, "dimensions node 0 (0000) to node 10 (1010) crosses", "1 and 3", a,
        strcmp(a, "1 and 3") ? "differs" : "equal", "");
    check(sr_minimal_routes(&net, 0, 10, &routes), "routes");
    row_u("routes-j-factorial", 3168, "minimal routes node 0 to node 10 (j! with j = 2)", 2, routes, "");
}

/* ------------------------------------------------------------ chapter 5 */

/* The fewest VCs with which sr_verify_routing proves a routing (cut-through):
 * below what the algorithm needs, SR_ROUTE_FEWER_VCS builds it with its
 * upper VC levels sharing the last VC; 0 if none up to 8 is proven. */
static int fewest_vcs(const sr_net *net, int alg, int escape) {
    int v;
    for (v = 1; v <= 8; v++) {
        sr_routing rt;
        sr_routing_desc d;
        sr_routing_report *rep;
        void *scratch;
        size_t size;
        int proven;
        memset(&d, 0, sizeof d);
        d.algorithm = alg; d.vcs = v; d.escape = escape;
        if (v < sr_routing_vcs_needed(net, &d)) d.flags = SR_ROUTE_FEWER_VCS;
        check(sr_routing_init(&rt, net, &d), "sr_routing_init");
        size = sr_verify_routing_scratch_size(&rt, SR_SWITCH_VCT);
        scratch = malloc(size);
        rep = (sr_routing_report *)malloc(sizeof *rep);
        if (!scratch || !rep) { fprintf(stderr, "topology_formulas: out of memory\n"); exit(1); }
        check(sr_verify_routing(&rt, SR_SWITCH_VCT, scratch, size, rep), "sr_verify_routing");
        proven = rep->proven;
        free(scratch);
        free(rep);
        if (proven) return v;
    }
    return 0;
}

static void chapter5(void) {
    sr_net_desc d;
    sr_net df, fb;
    check(sr_net_desc_dragonfly(&d, 2, 4, 2, 0, SR_DF_CONSECUTIVE), "Figure 4.10");
    df = make(&d, "Figure 4.10");
    check(sr_fbfly_desc(4, 3, &d), "4-ary 3-flat");
    fb = make(&d, "4-ary 3-flat");
    row_u("vcs-dragonfly-minimal", 3261, "VCs the dragonfly's minimal routing needs (Figure 4.10 network)", 2,
          (uint64_t)fewest_vcs(&df, SR_ALG_MINIMAL, 0),
          "the fewest with which sr_verify_routing proves it, VC = global channels crossed (Figure 5.4)");
    row_u("vcs-dragonfly-nonminimal", 3262, "VCs the dragonfly's Valiant routing needs (Figure 4.10 network)", 3,
          (uint64_t)fewest_vcs(&df, SR_ALG_VALIANT, 0),
          "the fewest with which sr_verify_routing proves it, VC = global channels crossed (Figure 5.4)");
    row_u("vcs-fbfly-valiant", 3198, "VCs Valiant needs on the flattened butterfly (4-ary 3-flat)", 2,
          (uint64_t)fewest_vcs(&fb, SR_ALG_VALIANT, 0),
          "the fewest with which sr_verify_routing proves it, dimension order in each phase");
    row_u("vcs-fbfly-min-adaptive", 3179, "VCs minimal adaptive routing needs on the 4-ary 3-flat (n' = 2)", 2,
          (uint64_t)fewest_vcs(&fb, SR_ALG_MIN_ADAPTIVE, SR_ESCAPE_HOPS),
          "the fewest with which sr_verify_routing proves it, the VC chosen by the hops remaining");
}

/* ------------------------------------------------------------- metrics */

static void metric_row(FILE *f, const char *name, const sr_net_desc *d) {
    sr_net_metrics m = metrics_of(d, name);
    if (m.hop_sum_high != 0) { fprintf(stderr, "topology_formulas: %s: hop sum past 64 bits\n", name); exit(1); }
    cli_csv_field(f, name, 0);
    fprintf(f, ",%s,%llu,%llu,%d,%d,%.6f,%llu,%llu,%llu\n", sr_net_kind_name(d->kind),
            (unsigned long long)m.routers, (unsigned long long)m.terminals, m.radix, m.diameter, m.avg_hops,
            (unsigned long long)m.hop_sum, (unsigned long long)m.pairs, (unsigned long long)m.bisection);
}

static void metrics_table(FILE *f) {
    static const int fig411[] = { 2, 4 }, clos3_down[] = { 32, 32, 64 }, clos3_up[] = { 32, 32, 0 },
                     fig46_down[] = { 4, 4 }, fig46_up[] = { 4, 0 };
    static const struct { const char *name; int p, a, h, g, arrangement; } dragonflies[] = {
        { "dragonfly p 2 a 4 h 2 g 9 consecutive (Figure 4.10)", 2, 4, 2, 9, SR_DF_CONSECUTIVE },
        { "dragonfly p 2 a 4 h 2 g 9 palm-tree", 2, 4, 2, 9, SR_DF_PALMTREE },
        { "dragonfly p 2 a 4 h 2 g 5 consecutive", 2, 4, 2, 5, SR_DF_CONSECUTIVE },
        { "dragonfly p 2 a 4 h 2 g 5 palm-tree", 2, 4, 2, 5, SR_DF_PALMTREE },
        { "dragonfly p 1 a 6 h 4 g 9 consecutive", 1, 6, 4, 9, SR_DF_CONSECUTIVE },
        { "dragonfly p 1 a 6 h 4 g 9 palm-tree", 1, 6, 4, 9, SR_DF_PALMTREE },
        { "dragonfly p 4 a 8 h 4 g 33 consecutive", 4, 8, 4, 33, SR_DF_CONSECUTIVE },
        { "dragonfly p 16 a 32 h 16 g 513 consecutive (radix 64)", 16, 32, 16, 513, SR_DF_CONSECUTIVE },
        { "dragonfly p 16 a 32 h 16 g 513 palm-tree (radix 64)", 16, 32, 16, 513, SR_DF_PALMTREE },
    };
    static const struct { const char *name; int k, n; } flats[] = {
        { "4-ary 3-flat", 4, 3 }, { "22-ary 3-flat (radix 64)", 22, 3 }, { "16-ary 4-flat (radix 64)", 16, 4 },
    };
    sr_net_desc d;
    int i;
    fprintf(f, "network,family,routers,terminals,radix,diameter,avg_hops,hop_sum,pairs,bisection\n");
    d = ring(9, 1);
    metric_row(f, "9-ary 1-mesh (Figure 3.3a)", &d);
    d = ring(9, 0);
    metric_row(f, "9-ary 1-cube (Figure 3.3b)", &d);
    d = ring(16, 0);
    metric_row(f, "16-ary 1-cube (Figure 4.1a)", &d);
    d = torus(2, 4);
    metric_row(f, "4-ary 2-cube (Figure 4.1b)", &d);
    d = torus(3, 8);
    metric_row(f, "8-ary 3-cube (512 nodes)", &d);
    check(sr_hypercube_desc(8, &d), "hypercube");
    metric_row(f, "binary 8-cube", &d);
    check(sr_net_desc_hyperx(&d, 2, fig411, 4), "Figure 4.11");
    metric_row(f, "HyperX L = 2 S = 2 4 T = 4 (Figure 4.11)", &d);
    for (i = 0; i < (int)(sizeof flats / sizeof flats[0]); i++) {
        check(sr_fbfly_desc(flats[i].k, flats[i].n, &d), flats[i].name);
        metric_row(f, flats[i].name, &d);
    }
    for (i = 0; i < (int)(sizeof dragonflies / sizeof dragonflies[0]); i++) {
        check(sr_net_desc_dragonfly(&d, dragonflies[i].p, dragonflies[i].a, dragonflies[i].h, dragonflies[i].g,
                                    dragonflies[i].arrangement), dragonflies[i].name);
        metric_row(f, dragonflies[i].name, &d);
    }
    check(sr_net_desc_clos(&d, 2, fig46_down, fig46_up), "Figure 4.6");
    metric_row(f, "folded Clos down 4 4 up 4 0 (Figure 4.6b)", &d);
    check(sr_net_desc_clos(&d, 3, clos3_down, clos3_up), "Clos");
    metric_row(f, "folded Clos down 32 32 64 up 32 32 0 (radix 64)", &d);
    check(sr_net_desc_butterfly(&d, 4, 3), "4-ary 3-fly");
    metric_row(f, "4-ary 3-fly (Figure 4.5)", &d);
    check(sr_net_desc_butterfly(&d, 2, 4), "2-ary 4-fly");
    metric_row(f, "2-ary 4-fly", &d);
}

static const cli_opt options[] = {
    { "--out", NULL, "DIR", CLI_TEXT, 0, 0, 0, 0, "an existing directory", "docs/data",
      "where topology_formulas.csv and topology_metrics.csv go" },
};

/* Open DIR/name for writing; a directory that cannot take it is a bad
 * --out (exit 2). */
static FILE *open_out(const cli *cl, const char *dir, const char *name) {
    char path[1024];
    FILE *f = NULL;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path) f = fopen(path, "w");
    if (!f) cli_bad_value(cl, "--out", dir, "cannot write %s there", name);
    return f;
}

int main(int argc, char **argv) {
    const char *dir = "docs/data";
    FILE *f;
    cli cl;
    cli_init(&cl, "topology_formulas",
             "usage: topology_formulas [--out DIR]\n"
             "\n"
             "Seed 004's topology formulas and examples (Chapters 3 and 4) and the VC\n"
             "counts of its routing (Chapter 5, proven by sr_verify_routing) next to the\n"
             "library's values, and the metrics of example networks.\n",
             "Writes topology_formulas.csv and topology_metrics.csv into --out.\n", options,
             (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&cl)) {
        if (cli_is(&cl, "--out")) {
            dir = cl.val;
            if (!*dir) cli_bad_value(&cl, "--out", dir, "empty");
        } else cli_unhandled(&cl);
    }
    out = open_out(&cl, dir, "topology_formulas.csv");
    fprintf(out, "id,seed_line,quantity,paper_value,ours,verdict,note\n");
    chapter3();
    chapter4();
    chapter5();
    if (fclose(out) != 0) { fprintf(stderr, "topology_formulas: cannot write topology_formulas.csv\n"); return 1; }
    f = open_out(&cl, dir, "topology_metrics.csv");
    metrics_table(f);
    if (fclose(f) != 0) { fprintf(stderr, "topology_formulas: cannot write topology_metrics.csv\n"); return 1; }
    return 0;
}
