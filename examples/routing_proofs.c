/* SPDX-License-Identifier: MIT */
/* routing_proofs.c - the deadlock proofs and refutations of the routing
 * algorithms of seed 004 Chapter 5, by seastar_route.h's verifier
 * (sr_verify_routing), and of the BlueGene/L routing of seed 003
 * (sr_bgl_custom_routing), as a table: docs/data/routing_proofs.csv, with
 * the witness of every refutation in docs/data/routing_witnesses.txt.
 *
 * Each row is a routing (network, algorithm, VCs, options, switching
 * mode), what the literature says of it (expected: proven or refuted),
 * what the verifier found (verdict), the length of its witness (channels
 * of the dependency cycle, or steps of the failing path; 0 when proven)
 * and the wall-clock seconds of the proof.  The VC counts are those seed
 * 004 states (dragonfly 2 minimal and 3 non-minimal, Valiant 2, minimal
 * adaptive n') and one fewer, which the verifier refutes; PAR gets the
 * count the verifier proves.
 *
 * Usage: routing_proofs [--out DIR] [--check DIR] [--quiet]
 *   (no option: the table as CSV on stdout, then the witnesses)
 *   --out DIR    write DIR/routing_proofs.csv and DIR/routing_witnesses.txt
 *   --check DIR  run every row and compare with the files in DIR (every
 *                column but the seconds, and the witnesses): exit 1 on a
 *                difference (make test runs it on docs/data)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../seastar_route.h"
#include "common/cli.h"
#include "common/sim_progress.h"

/* The networks of the table. */
enum { DF9, DF33, T55, T444, HX44, HX333, FLAT, CLOS, FLY, T888, NUM_NETS };

static const char *net_label[NUM_NETS] = {
    "dragonfly p=2 a=4 h=2 g=9 (Figure 4.10)",
    "dragonfly p=4 a=8 h=4 g=33 (1056 terminals)",
    "torus 5x5",
    "torus 4x4x4",
    "HyperX 4x4",
    "HyperX 3x3x3",
    "flattened butterfly 4-ary 3-flat (n' = 2)",
    "folded Clos 3 levels (16 terminals)",
    "butterfly 4-ary 3-fly",
    "torus 8x8x8 (a BlueGene/L midplane)",
};

static void make_net(int which, sr_net *net) {
    sr_net_desc d;
    memset(&d, 0, sizeof d);
    switch (which) {
    case DF9: d.kind = SR_NET_DRAGONFLY; d.dragonfly.p = 2; d.dragonfly.a = 4; d.dragonfly.h = 2; break;
    case DF33: d.kind = SR_NET_DRAGONFLY; d.dragonfly.p = 4; d.dragonfly.a = 8; d.dragonfly.h = 4; break;
    case T55: d.kind = SR_NET_CUBE; d.cube.num_dims = 2; d.cube.radix[0] = d.cube.radix[1] = 5; break;
    case T444:
        d.kind = SR_NET_CUBE; d.cube.num_dims = 3;
        d.cube.radix[0] = d.cube.radix[1] = d.cube.radix[2] = 4;
        break;
    case T888:
        d.kind = SR_NET_CUBE; d.cube.num_dims = 3;
        d.cube.radix[0] = d.cube.radix[1] = d.cube.radix[2] = 8;
        break;
    case HX44: d.kind = SR_NET_HYPERX; d.hyperx.num_dims = 2; d.hyperx.size[0] = d.hyperx.size[1] = 4; break;
    case HX333:
        d.kind = SR_NET_HYPERX; d.hyperx.num_dims = 3;
        d.hyperx.size[0] = d.hyperx.size[1] = d.hyperx.size[2] = 3;
        break;
    case FLAT:   /* a k-ary n-flat is the HyperX (L = n-1, S = T = k) */
        d.kind = SR_NET_HYPERX; d.hyperx.num_dims = 2; d.hyperx.size[0] = d.hyperx.size[1] = 4;
        d.hyperx.terminals = 4;
        break;
    case CLOS:
        d.kind = SR_NET_CLOS; d.clos.levels = 3;
        d.clos.down[0] = 2; d.clos.down[1] = 2; d.clos.down[2] = 4; d.clos.up[0] = 2; d.clos.up[1] = 2;
        break;
    default: d.kind = SR_NET_BUTTERFLY; d.butterfly.k = 4; d.butterfly.n = 3; break;
    }
    if (sr_net_init(net, &d) != SR_OK) { fprintf(stderr, "routing_proofs: sr_net_init failed\n"); exit(1); }
}

/* One row: a routing and what the literature says of it. */
typedef struct row {
    int net;
    const char *routing;
    int alg, vcs;
    unsigned flags;
    int df_vc, escape, mode;
    const char *expected;
} row;

/* The BlueGene/L rows (seed 003 lines 47-53 and 93): the hint-bit routing
 * with the bubble escape or the dateline pair, dimension- or
 * direction-ordered, through sr_bgl_custom_routing; and the bubble escape
 * with its SR_CAND_BUBBLE flags cleared (the rings without the bubble
 * rule), which the verifier must refute. */
enum { BGL_NONE = 0, BGL_BUBBLE_DIM, BGL_BUBBLE_DIR, BGL_DATELINE_DIM, BGL_DATELINE_DIR, BGL_NO_RULE };

typedef struct bgl_ctx { sr_bgl_config cfg; sr_candidates_fn inner; } bgl_ctx;

/* The library's candidates with the bubble flags cleared (BGL_NO_RULE). */
static sr_result bgl_no_rule(const sr_routing *rt, uint32_t router, int in_port, int in_vc, const sr_header *h,
                             sr_candidate *out, int cap, int *n) {
    const bgl_ctx *x = (const bgl_ctx *)rt->custom.ctx;
    sr_result r = x->inner(rt, router, in_port, in_vc, h, out, cap, n);
    int i;
    for (i = 0; r == SR_OK && i < *n; i++) out[i].flags = 0;
    return r;
}

/* Fill d with the BlueGene/L routing of variant v (x and cr keep it). */
static void bgl_desc(int v, int num_dims, bgl_ctx *x, sr_custom_routing *cr, sr_routing_desc *d) {
    sr_bgl_config_default(&x->cfg);
    x->cfg.escape = v == BGL_DATELINE_DIM || v == BGL_DATELINE_DIR ? SR_BGL_ESCAPE_DATELINE : SR_BGL_ESCAPE_BUBBLE;
    x->cfg.escape_order = v == BGL_BUBBLE_DIR || v == BGL_DATELINE_DIR ? SR_BGL_ORDER_DIRECTION : SR_BGL_ORDER_DIMENSION;
    if (sr_bgl_custom_routing(&x->cfg, num_dims, cr) != SR_OK) { fprintf(stderr, "routing_proofs: sr_bgl_custom_routing failed\n"); exit(1); }
    x->inner = cr->candidates;
    cr->ctx = x;   /* its first member is the configuration */
    if (v == BGL_NO_RULE) cr->candidates = bgl_no_rule;
    d->algorithm = SR_ALG_CUSTOM;
    d->custom = cr;
}

#define FEW SR_ROUTE_FEWER_VCS
#define NODL SR_ROUTE_NO_DATELINES
#define IR SR_ROUTE_INTER_ROUTER
#define WH SR_SWITCH_WORMHOLE

static const row rows[] = {
    /* seed 004 Section 5.5.3 and Figure 5.4: VC = global channels crossed */
    { DF9, "minimal", SR_ALG_MINIMAL, 2, 0, 0, 0, 0, "proven" },
    { DF9, "minimal", SR_ALG_MINIMAL, 1, FEW, 0, 0, 0, "refuted" },
    { DF9, "valiant to a group", SR_ALG_VALIANT, 3, 0, 0, 0, 0, "proven" },
    { DF9, "valiant to a group", SR_ALG_VALIANT, 2, FEW, 0, 0, 0, "refuted" },
    { DF9, "ugal", SR_ALG_UGAL, 3, 0, 0, 0, 0, "proven" },
    { DF9, "ugal", SR_ALG_UGAL, 2, FEW, 0, 0, 0, "refuted" },
    { DF9, "valiant to a router (VC = global channels crossed)", SR_ALG_VALIANT, 3, IR, 0, 0, 0, "refuted" },
    { DF9, "ugal to a router (VC = global channels crossed)", SR_ALG_UGAL, 3, IR, 0, 0, 0, "refuted" },
    { DF9, "valiant to a router (a VC per local hop after a local hop)", SR_ALG_VALIANT, 4, IR, SR_DF_VC_LOCAL, 0,
      0, "proven" },
    { DF9, "par (VC = global channels crossed)", SR_ALG_PAR, 3, FEW, 0, 0, 0, "refuted" },
    { DF9, "par (a VC per local hop after a local hop)", SR_ALG_PAR, 4, 0, SR_DF_VC_LOCAL, 0, 0, "proven" },
    { DF9, "par (a VC per local hop after a local hop)", SR_ALG_PAR, 3, FEW, SR_DF_VC_LOCAL, 0, 0, "refuted" },
    { DF33, "ugal", SR_ALG_UGAL, 3, 0, 0, 0, 0, "proven" },
    /* tori: dateline VCs (seed 000 Section 1.1); Duato's escape */
    { T55, "dor with datelines", SR_ALG_DOR, 2, 0, 0, 0, 0, "proven" },
    { T55, "dor without datelines", SR_ALG_DOR, 1, NODL, 0, 0, 0, "refuted" },
    { T55, "min-adaptive with a dor escape on dateline VCs (cut-through)", SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0, 0,
      "proven" },
    { T55, "min-adaptive with a dor escape on dateline VCs (wormhole)", SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0, WH, "proven" },
    { T55, "min-adaptive with a dor escape without datelines", SR_ALG_MIN_ADAPTIVE, 2, NODL, 0, 0, 0, "refuted" },
    { T55, "valiant with datelines (two VC sets)", SR_ALG_VALIANT, 4, 0, 0, 0, 0, "proven" },
    { T55, "valiant with one VC per phase and no datelines", SR_ALG_VALIANT, 2, NODL, 0, 0, 0, "refuted" },
    { T55, "ugal with datelines", SR_ALG_UGAL, 4, 0, 0, 0, 0, "proven" },
    { T444, "min-adaptive with a dor escape on dateline VCs (cut-through)", SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0, 0,
      "proven" },
    { T444, "min-adaptive with a dor escape on dateline VCs (wormhole)", SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0, WH, "proven" },
    /* HyperX and the flattened butterfly: seed 004 Section 5.5.2 */
    { HX44, "dor", SR_ALG_DOR, 1, 0, 0, 0, 0, "proven" },
    { HX44, "valiant (two VC sets)", SR_ALG_VALIANT, 2, 0, 0, 0, 0, "proven" },
    { HX44, "valiant (one VC set)", SR_ALG_VALIANT, 1, FEW, 0, 0, 0, "refuted" },
    { HX44, "ugal", SR_ALG_UGAL, 2, 0, 0, 0, 0, "proven" },
    { HX44, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 2, 0, 0, 0, 0, "proven" },
    { HX44, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 1, FEW, 0, 0, 0, "refuted" },
    { HX44, "min-adaptive with a dor escape (wormhole)", SR_ALG_MIN_ADAPTIVE, 2, 0, 0, SR_ESCAPE_DOR, WH, "proven" },
    { HX333, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 3, 0, 0, 0, 0, "proven" },
    { HX333, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 2, FEW, 0, 0, 0, "refuted" },
    { FLAT, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 2, 0, 0, 0, 0, "proven" },
    { FLAT, "min-adaptive (VC by hops remaining)", SR_ALG_MIN_ADAPTIVE, 1, FEW, 0, 0, 0, "refuted" },
    { FLAT, "valiant (two VC sets)", SR_ALG_VALIANT, 2, 0, 0, 0, 0, "proven" },
    /* folded Clos (seed 004 Section 5.5.1) and butterfly */
    { CLOS, "updown", SR_ALG_UPDOWN, 1, 0, 0, 0, 0, "proven" },
    { CLOS, "valiant to a top switch", SR_ALG_VALIANT, 1, 0, 0, 0, 0, "proven" },
    { FLY, "dest-tag", SR_ALG_DEST_TAG, 1, 0, 0, 0, 0, "proven" },
};

#define NUM_ROWS ((int)(sizeof rows / sizeof rows[0]))

/* One BlueGene/L row: a row and its BGL_ variant. */
typedef struct bgl_row { row r; int variant; } bgl_row;

static const bgl_row bgl_rows[] = {
    /* BlueGene/L (seed 003): hint bits with the bubble escape (line 51, 53)
     * or the dateline pair (line 93), dimension- and direction-ordered; a
     * bubble VC needs whole-packet buffers, so wormhole is refuted (the
     * high-priority VC is a bubble VC with the dateline pair too) */
    { { T888, "bgl hint bits with a bubble escape (dimension order)", SR_ALG_CUSTOM, 4, 0, 0, 0, 0, "proven" }, BGL_BUBBLE_DIM },
    { { T444, "bgl hint bits with a bubble escape (dimension order)", SR_ALG_CUSTOM, 4, 0, 0, 0, 0, "proven" }, BGL_BUBBLE_DIM },
    { { T444, "bgl hint bits with a bubble escape (direction order)", SR_ALG_CUSTOM, 4, 0, 0, 0, 0, "proven" }, BGL_BUBBLE_DIR },
    { { T444, "bgl hint bits with a dateline-pair escape (dimension order)", SR_ALG_CUSTOM, 5, 0, 0, 0, 0, "proven" }, BGL_DATELINE_DIM },
    { { T444, "bgl hint bits with a dateline-pair escape (direction order)", SR_ALG_CUSTOM, 5, 0, 0, 0, 0, "proven" }, BGL_DATELINE_DIR },
    { { T55, "bgl hint bits with a bubble escape without the bubble rule", SR_ALG_CUSTOM, 4, 0, 0, 0, 0, "refuted" }, BGL_NO_RULE },
    { { T55, "bgl hint bits with a bubble escape (wormhole)", SR_ALG_CUSTOM, 4, 0, 0, 0, WH, "refuted" }, BGL_BUBBLE_DIM },
    { { T55, "bgl hint bits with a dateline-pair escape (wormhole)", SR_ALG_CUSTOM, 5, 0, 0, 0, WH, "refuted" }, BGL_DATELINE_DIM },
};

#define NUM_BGL_ROWS ((int)(sizeof bgl_rows / sizeof bgl_rows[0]))

/* A port, in words. */
static void port_words(const sr_net *net, uint32_t r, int port, char *buf, size_t n) {
    sr_port_info pi = sr_net_port_info(net, r, port);
    uint32_t v = sr_net_neighbor(net, r, port, NULL);
    if (pi.kind == SR_PORT_TERMINAL) snprintf(buf, n, "port %d (terminal %u)", port, sr_net_port_terminal(net, r, port));
    else if (net->kind == SR_NET_CUBE) snprintf(buf, n, "port %d (%s to r%u)", port, sr_port_name(&net->cube, port), v);
    else snprintf(buf, n, "port %d (%s to r%u)", port, sr_port_kind_name(pi.kind), v);
}

static const char *phase_name(int p) {
    static const char *const names[4] = { "undecided", "minimal", "to the intermediate", "to the destination" };
    return p >= 0 && p < 4 ? names[p] : "?";
}

/* A header, in words. */
static void header_words(const sr_header *h, char *buf, size_t n) {
    char inter[32] = "";
    if (h->inter != SR_NO_NODE) snprintf(inter, sizeof inter, ", intermediate %u", h->inter);
    char hint[32] = "";
    if (h->hint) snprintf(hint, sizeof hint, ", hint bits 0x%02x", h->hint);
    snprintf(buf, n, "for terminal %u, phase %s%s, %u global channel%s crossed, vclass 0x%02x%s", h->dest,
             phase_name(h->phase), inter, h->globals, h->globals == 1 ? "" : "s", h->vclass, hint);
}

/* One step of a path: the packet at a router and the hop it takes. */
static void step_words(FILE *f, const sr_net *net, const sr_rstep *s, const char *indent) {
    char a[96], b[96], hw[160];
    port_words(net, s->router, s->in_port, a, sizeof a);
    port_words(net, s->router, s->out_port, b, sizeof b);
    header_words(&s->header, hw, sizeof hw);
    fprintf(f, "%sat r%u, arrived on %s VC %d (%s): %s VC %d\n", indent, s->router, a, s->in_vc, hw, b, s->out_vc);
}

/* The witness of a refutation, in words. */
static void print_witness(FILE *f, const row *w, const sr_net *net, const sr_routing_report *rep) {
    int i, j;
    fprintf(f, "%s / %s / %d VC%s / %s: %s", net_label[w->net], w->routing, w->vcs, w->vcs > 1 ? "s" : "",
            w->mode == WH ? "wormhole" : "cut-through", sr_rfailure_string(rep->failure));
    if (rep->failure != SR_RFAIL_DEADLOCK) {
        fprintf(f, ", terminal %u to terminal %u\n", rep->src, rep->dst);
        for (i = 0; i < rep->path_len; i++) step_words(f, net, &rep->path[i], "  ");
        fprintf(f, "\n");
        return;
    }
    fprintf(f, " of %d channels%s\n", rep->cycle_len, rep->cycle_truncated ? " (the first shown)" : "");
    for (i = 0; i < rep->cycle_len; i++) {
        const sr_rchannel *c = &rep->cycle[i];
        char a[96], hw[160];
        port_words(net, c->router, c->port, a, sizeof a);
        fprintf(f, "  channel %d: r%u %s VC %d\n", i, c->router, a, c->vc);
        if (!rep->why_found[i]) continue;
        header_words(&rep->why[i].header, hw, sizeof hw);
        if (!rep->why_indirect[i]) {
            fprintf(f, "    a packet %s holds it at r%u and requests channel %d\n", hw, rep->why[i].router,
                    (i + 1) % rep->cycle_len);
        } else {
            fprintf(f, "    a packet %s holds it at r%u, goes on over channels outside the escape set, and "
                       "requests channel %d:\n", hw, rep->why[i].router, (i + 1) % rep->cycle_len);
            for (j = 0; j < rep->detour_len[i]; j++) step_words(f, net, &rep->detour[rep->detour_first[i] + j], "      ");
        }
    }
    fprintf(f, "\n");
}

/* Run every row: the CSV into csv, the witnesses into wit. */
static void run_all(FILE *csv, FILE *wit, sim_progress *pr) {
    sr_routing_report *rep = (sr_routing_report *)malloc(sizeof *rep);
    int i;
    if (!rep) { fprintf(stderr, "routing_proofs: out of memory\n"); exit(1); }
    fprintf(csv, "topology,routing,vcs,expected,verdict,witness_length,seconds\n");
    for (i = 0; i < NUM_ROWS + NUM_BGL_ROWS; i++) {
        const row *w = i < NUM_ROWS ? &rows[i] : &bgl_rows[i - NUM_ROWS].r;
        sr_net net;
        sr_routing rt;
        sr_routing_desc d;
        size_t size;
        void *scratch;
        double t0;
        sr_result r;
        int len;
        bgl_ctx bx;
        sr_custom_routing bcr;
        make_net(w->net, &net);
        memset(&d, 0, sizeof d);
        d.algorithm = w->alg; d.vcs = w->vcs; d.flags = w->flags; d.df_vc = w->df_vc; d.escape = w->escape;
        if (i >= NUM_ROWS) bgl_desc(bgl_rows[i - NUM_ROWS].variant, net.cube.num_dims, &bx, &bcr, &d);
        r = sr_routing_init(&rt, &net, &d);
        if (r != SR_OK) {
            fprintf(stderr, "routing_proofs: row %d: %s\n", i + 1, sr_result_string(r));
            exit(1);
        }
        size = sr_verify_routing_scratch_size(&rt, w->mode);
        scratch = malloc(size);
        if (!scratch) { fprintf(stderr, "routing_proofs: out of memory (%zu bytes)\n", size); exit(1); }
        t0 = sim_wall_seconds();
        r = sr_verify_routing(&rt, w->mode, scratch, size, rep);
        if (r != SR_OK) {
            fprintf(stderr, "routing_proofs: row %d: sr_verify_routing: %s\n", i + 1, sr_result_string(r));
            exit(1);
        }
        len = rep->proven ? 0 : rep->failure == SR_RFAIL_DEADLOCK ? rep->cycle_len : rep->path_len;
        fprintf(csv, "%s,%s%s,%d,%s,%s,%d,%.3f\n", net_label[w->net], w->routing,
                w->vcs < sr_routing_vcs_needed(&net, &d) ? " (fewer VCs than it needs)" : "", w->vcs, w->expected,
                rep->proven ? "proven" : "refuted", len, sim_wall_seconds() - t0);
        if (!rep->proven) print_witness(wit, w, &net, rep);
        free(scratch);
        sim_progress_add(pr, 1.0, w->routing);
    }
    free(rep);
}

/* The whole text of a file; NULL if it cannot be read. */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (char *)malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Compare two CSV texts line by line, all but the last field. */
static int same_but_seconds(const char *a, const char *b, int *line) {
    *line = 1;
    for (;;) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n'), *ca, *cb;
        if (!ea || !eb) return !ea && !eb && !*a && !*b;
        ca = ea; cb = eb;
        if (*line > 1) {   /* the header keeps its last field */
            while (ca > a && ca[-1] != ',') ca--;
            while (cb > b && cb[-1] != ',') cb--;
        }
        if (ca - a != cb - b || memcmp(a, b, (size_t)(ca - a))) return 0;
        a = ea + 1; b = eb + 1;
        (*line)++;
    }
}

static const cli_opt options[] = {
    { "--out", NULL, "DIR", CLI_TEXT, 0, 0, 0, 0, NULL, "stdout",
      "write DIR/routing_proofs.csv and DIR/routing_witnesses.txt (DIR is created)" },
    { "--check", NULL, "DIR", CLI_TEXT, 0, 0, 0, 0, NULL, NULL,
      "compare every row (all columns but the seconds) and the witnesses with the files in DIR; exit 1 on a "
      "difference" },
    { "--quiet", "-q", NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress on stderr" },
};

static const char usage[] =
    "usage: routing_proofs [options]\n\n"
    "The deadlock proofs and refutations of seed 004's routing algorithms by\n"
    "seastar_route.h's verifier: a CSV row per routing (topology, routing, vcs,\n"
    "expected, verdict, witness_length, seconds) and the witness of every\n"
    "refutation.\n";
static const char notes[] =
    "Without --out or --check: the CSV on stdout, then the witnesses.  Progress\n"
    "goes to stderr (about 5 s in all).\n";

int main(int argc, char **argv) {
    const char *out = NULL, *check = NULL;
    int quiet = 0;
    sim_progress pr;
    cli c;
    cli_init(&c, "routing_proofs", usage, notes, options, (int)(sizeof options / sizeof options[0]), argc, argv);
    while (cli_next(&c)) {
        if (cli_is(&c, "--out")) out = c.val;
        else if (cli_is(&c, "--check")) check = c.val;
        else if (cli_is(&c, "--quiet")) quiet = 1;
        else cli_unhandled(&c);
    }
    if (out && check) cli_fail(&c, "--out and --check exclude each other");
    if ((out && !*out) || (check && !*check)) cli_bad_value(&c, out ? "--out" : "--check", "", "an empty folder name");
    sim_progress_init(&pr, quiet ? NULL : stderr, "routing_proofs", "routings", (double)(NUM_ROWS + NUM_BGL_ROWS));
    if (!out && !check) {
        run_all(stdout, stdout, &pr);
    } else {
        char pcsv[4096], pwit[4096];
        const char *dir = out ? out : check;
        FILE *fc, *fw;
        if (out && mkdir(out, 0777) != 0 && errno != EEXIST) cli_bad_value(&c, "--out", out, "cannot create it");
        snprintf(pcsv, sizeof pcsv, "%s/routing_proofs.csv", dir);
        snprintf(pwit, sizeof pwit, "%s/routing_witnesses.txt", dir);
        if (out) {
            fc = fopen(pcsv, "w");
            fw = fopen(pwit, "w");
            if (!fc || !fw) cli_bad_value(&c, "--out", out, "cannot write its files");
            run_all(fc, fw, &pr);
            fclose(fc);
            fclose(fw);
        } else {
            char *want_csv = slurp(pcsv), *want_wit = slurp(pwit), *got_csv, *got_wit;
            size_t ncsv, nwit;
            int line;
            if (!want_csv || !want_wit) cli_bad_value(&c, "--check", check, "no routing_proofs.csv and routing_witnesses.txt in it");
            fc = open_memstream(&got_csv, &ncsv);
            fw = open_memstream(&got_wit, &nwit);
            if (!fc || !fw) { fprintf(stderr, "routing_proofs: out of memory\n"); return 1; }
            run_all(fc, fw, &pr);
            fclose(fc);
            fclose(fw);
            if (!same_but_seconds(want_csv, got_csv, &line)) {
                fprintf(stderr, "routing_proofs: %s differs from the code at line %d (make routing-proofs writes it)\n",
                        pcsv, line);
                return 1;
            }
            if (strcmp(want_wit, got_wit)) {
                fprintf(stderr, "routing_proofs: %s differs from the code (make routing-proofs writes it)\n", pwit);
                return 1;
            }
            printf("routing_proofs: %d rows and their witnesses match %s\n", NUM_ROWS + NUM_BGL_ROWS, dir);
            free(want_csv); free(want_wit); free(got_csv); free(got_wit);
        }
    }
    sim_progress_end(&pr);
    return 0;
}
