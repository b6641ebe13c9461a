/* SPDX-License-Identifier: MIT */
/* bubble_check.c - the bubble rules of seed 003 line 53, model-checked on
 * one ring: the textbook rule deadlocks with variable-sized packets, the
 * paper's full-size rule does not.
 *
 * Each configuration is a unidirectional ring of n nodes with bubble VC
 * buffers of B chunks, packets of a set of sizes (1..8 chunks) entering at
 * any node for any destination (an injection, a turn, or a packet leaving
 * a dynamic VC), advancing and ejecting; every move is allowed or refused
 * by seastar_route.h's bubble rule (sr_bgl_may_send, sr_bgl_send,
 * sr_bgl_tokens_return).  The search (examples/common/bubble_ring.h) visits
 * every reachable state, breadth first, with at most P packets entering in
 * all or with no bound on them.  It reports a deadlock with the shortest
 * sequence of moves that leads to it, or that none is reachable.
 *
 * Usage:
 *   bubble_check                 the grid docs/bluegene.rst shows: writes
 *                                docs/data/bubble_check.csv (one row per
 *                                configuration and rule) and
 *                                docs/data/bubble_witness.csv (the moves of
 *                                the first deadlock found)
 *   bubble_check --small         the grid's rows that make test reruns
 *   bubble_check --nodes 3 --chunks 17 --sizes 1,8 [--packets P] [--rule R]
 *                                one configuration, the witness printed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/bubble_ring.h"
#include "common/cli.h"
#include "common/sim_progress.h"

/* One configuration of the grid, run under the rules it names. */
typedef struct row {
    int nodes, chunks;
    unsigned sizes;
    int packets;   /* 0: any number */
    int rules;     /* bit 0: textbook, bit 1: full-size */
    int small;     /* also in --small */
} row;

/* The grid: every configuration completes within the state limit under the
 * rules it lists (the textbook rule explodes sooner: it lets a buffer hold
 * up to B one-chunk packets where the full-size rule allows B/8). */
static const row grid[] = {
    { 3, 16, 0x81u, 0, 3, 1 },   /* textbook free: n = 3 is too small with B = 16 */
    { 3, 17, 0x81u, 0, 3, 1 },   /* the smallest deadlock: the witness */
    { 3, 16, 0xFFu, 0, 2, 0 },
    { 3, 16, 0xFFu, 6, 3, 0 },
    { 3, 17, 0xFFu, 0, 2, 0 },
    { 3, 24, 0x81u, 0, 2, 0 },
    { 3, 24, 0x81u, 9, 3, 0 },
    { 3, 32, 0x81u, 0, 2, 0 },
    { 4, 16, 0x81u, 0, 3, 0 },   /* B = 16: two full-sized packets, the least the rule allows */
    { 4, 17, 0x81u, 0, 2, 0 },
};

static const cli_opt options[] = {
    { "--small", NULL, NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL,
      "run only the grid's rows that make test reruns" },
    { "--out", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, "docs/data/bubble_check.csv",
      "the grid's CSV (\"-\": stdout)" },
    { "--witness", NULL, "FILE", CLI_TEXT, 0, 0, 0, 0, NULL, "docs/data/bubble_witness.csv",
      "the first deadlock's moves and states, as CSV" },
    { "--nodes", NULL, "N", CLI_INT, 2, BR_MAX_NODES, 0, 0, NULL, NULL,
      "one configuration: ring nodes (with --chunks and --sizes)" },
    { "--chunks", NULL, "B", CLI_INT, 16, 255, 0, 0, NULL, NULL,
      "one configuration: bubble buffer per node, 32-byte chunks\n(16: two full-sized packets, the least the rule allows)" },
    { "--sizes", NULL, "LIST", CLI_INT, 1, 8, 0, 0, "1 to 8, comma-separated (1,8 or 1,2,3,4,5,6,7,8)", NULL,
      "one configuration: the packet sizes that enter, in chunks" },
    { "--packets", NULL, "P", CLI_INT, 0, 255, 0, 0, NULL, "0",
      "one configuration: most packets entering in all (0: any number)" },
    { "--rule", NULL, "RULE", CLI_CHOICE, 0, 0, 0, 0, "textbook|full-size|both", "both",
      "one configuration: the bubble rule(s) to check" },
    { "--max-states", NULL, "N", CLI_INT, 1000, 400000000, 0, 0, NULL, "10000000",
      "stop a search beyond this many states (no verdict: \"limit\")" },
    { "--quiet", "-q", NULL, CLI_FLAG, 0, 0, 0, 0, NULL, NULL, "no progress on stderr" },
};

static const char *PROG = "bubble_check";

/* Progress of one search: a line at most every SIM_PROGRESS_SECONDS. */
typedef struct progress_ctx { int quiet; double t0, last; const char *what; } progress_ctx;

static void on_progress(void *v, uint64_t states) {
    progress_ctx *p = (progress_ctx *)v;
    double now = sim_wall_seconds();
    if (p->quiet || now - p->last < SIM_PROGRESS_SECONDS) return;
    p->last = now;
    fprintf(stderr, "%s: %s: %.2fM states, %.0f s\n", PROG, p->what, (double)states / 1e6, now - p->t0);
}

static const char *rule_name(int rule) { return rule == SR_BGL_RULE_TEXTBOOK ? "textbook" : "full_size"; }

static const char *verdict_name(int v) {
    switch (v) {
    case BR_FREE: return "free";
    case BR_DEADLOCK: return "deadlock";
    case BR_LIMIT: return "limit";
    case BR_OVERFLOW: return "overflow";
    default: return "tokens";
    }
}

/* "1-8" for every size, else the sizes joined by '+'. */
static const char *sizes_text(unsigned sizes, char *buf, size_t n) {
    size_t k = 0;
    int s;
    if (sizes == 0xFFu) { snprintf(buf, n, "1-8"); return buf; }
    buf[0] = 0;
    for (s = 1; s <= 8; s++)
        if ((sizes >> (s - 1)) & 1u) k += (size_t)snprintf(buf + k, n - k, "%s%d", k ? "+" : "", s);
    return buf;
}

static const char *packets_text(int p, char *buf, size_t n) {
    if (p) snprintf(buf, n, "%d", p);
    else snprintf(buf, n, "any");
    return buf;
}

/* A buffer as "size>dest size>dest ...", head first. */
static const char *buffer_text(const br_state *s, int i, char *buf, size_t n) {
    size_t k = 0;
    int j;
    buf[0] = 0;
    for (j = 0; j < s->len[i] && k < n; j++)
        k += (size_t)snprintf(buf + k, n - k, "%s%d>%d", j ? " " : "", s->size[i][j], s->dest[i][j]);
    return buf;
}

static void print_state(const br_config *c, const br_state *s) {
    char b[512];
    int i;
    for (i = 0; i < c->nodes; i++)
        printf("    node %d: [%s] %d of %d chunks, %d tokens\n", i, buffer_text(s, i, b, sizeof b),
               br_occupancy(s, i), c->chunks, br_tokens(c, s, i));
}

static void print_move(const br_config *c, const br_move *m) {
    if (m->kind == BR_ENTER)
        printf("  enter at node %d: a packet of %d chunks for node %d, into node %d's buffer\n", m->node, m->size,
               m->dest, (m->node + 1) % c->nodes);
    else if (m->kind == BR_ADVANCE)
        printf("  advance: the head of node %d (%d chunks, for node %d) into node %d's buffer\n", m->node, m->size,
               m->dest, (m->node + 1) % c->nodes);
    else
        printf("  eject: the head of node %d (%d chunks) at its destination\n", m->node, m->size);
}

static int run(const br_config *c, br_result *r, int quiet) {
    char a[32], b[32], what[128];
    progress_ctx p;
    snprintf(what, sizeof what, "n=%d B=%d sizes %s packets %s, %s", c->nodes, c->chunks,
             sizes_text(c->sizes, a, sizeof a), packets_text(c->packets, b, sizeof b), rule_name(c->rule));
    p.quiet = quiet; p.t0 = p.last = sim_wall_seconds(); p.what = what;
    if (br_search(c, r, on_progress, &p)) {
        fprintf(stderr, "%s: %s: out of memory\n", PROG, what);
        exit(1);
    }
    if (r->verdict == BR_OVERFLOW || r->verdict == BR_TOKENS) {
        fprintf(stderr, "%s: %s: %s\n", PROG, what, r->verdict == BR_OVERFLOW ?
                "a buffer held more than B chunks: the library's bubble rule let a packet in without room" :
                "the library's token counters disagreed with a recount");
        exit(1);
    }
    return 0;
}

static void one(const br_config *base, int rules, int quiet) {
    char a[32], b[32];
    int rule;
    printf("ring of %d nodes, bubble buffers of %d chunks, packet sizes %s chunks, %s packets\n", base->nodes,
           base->chunks, sizes_text(base->sizes, a, sizeof a),
           base->packets ? packets_text(base->packets, b, sizeof b) : "any number of");
    for (rule = 0; rule < 2; rule++) {
        br_config c = *base;
        br_result r;
        int i;
        if (!((rules >> rule) & 1)) continue;
        c.rule = rule == 0 ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
        run(&c, &r, quiet);
        printf("%s rule: ", rule == 0 ? "textbook" : "full-size");
        if (r.verdict == BR_FREE)
            printf("no deadlock (%llu states: every reachable state)\n", (unsigned long long)r.states);
        else if (r.verdict == BR_LIMIT)
            printf("no verdict: more than %llu states\n", (unsigned long long)c.max_states);
        else {
            br_state s;
            memset(&s, 0, sizeof s);
            printf("DEADLOCK after %d moves (%llu states explored)\n", r.witness_len, (unsigned long long)r.states);
            for (i = 0; i < r.witness_len; i++) {
                print_move(&c, &r.witness[i]);
                br_apply(&c, &s, r.witness[i]);
                print_state(&c, &s);
            }
            printf("  every head waits for %d tokens of the next buffer, and none has them\n", SR_BGL_FULL_CHUNKS);
        }
        br_result_free(&r);
    }
}

static FILE *open_out(const cli *c, const char *opt, const char *path) {
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) cli_bad_value(c, opt, path, "cannot be written");
    return f;
}

static void write_witness(FILE *f, const br_config *c, const br_result *r) {
    br_state s;
    int i, k;
    memset(&s, 0, sizeof s);
    for (i = 0; i <= r->witness_len; i++) {
        const char *kind = "start";
        char b[512];
        if (i > 0) {
            const br_move *m = &r->witness[i - 1];
            kind = m->kind == BR_ENTER ? "enter" : m->kind == BR_ADVANCE ? "advance" : "eject";
            br_apply(c, &s, *m);
            fprintf(f, "%d,%d,%s,%d,%s,%d,%d,%d,", c->nodes, c->chunks, rule_name(c->rule), i, kind, m->node,
                    m->size, m->dest);
        } else {
            fprintf(f, "%d,%d,%s,%d,%s,,,,", c->nodes, c->chunks, rule_name(c->rule), i, kind);
        }
        for (k = 0; k < c->nodes; k++) fprintf(f, "%s%s", k ? "|" : "", buffer_text(&s, k, b, sizeof b));
        fputc(',', f);
        for (k = 0; k < c->nodes; k++) fprintf(f, "%s%d", k ? "|" : "", br_tokens(c, &s, k));
        fputc('\n', f);
    }
}

int main(int argc, char **argv) {
    const char *out = "docs/data/bubble_check.csv", *wpath = "docs/data/bubble_witness.csv";
    int small = 0, quiet = 0, rules = 3, single = 0, i, wrote_witness = 0;
    uint64_t max_states = 10000000, list[64];
    br_config one_cfg;
    FILE *f, *wf;
    cli c;
    memset(&one_cfg, 0, sizeof one_cfg);
    cli_init(&c, PROG,
             "usage: bubble_check [options]\n"
             "\n"
             "The bubble rules of BlueGene/L (seed 003 line 53), model-checked on one ring:\n"
             "every state reachable from the empty ring, breadth first.  With no option it\n"
             "runs the grid of docs/bluegene.rst and writes its CSV files.\n",
             "Verdicts: \"deadlock\" (a reachable state in which the ring holds packets and\n"
             "none can move; the witness is the shortest sequence of moves to it), \"free\"\n"
             "(no reachable state is deadlocked), \"limit\" (the state limit came first).\n"
             "Exit status 1 if the library's rule ever let a buffer overflow.\n",
             options, (int)(sizeof options / sizeof options[0]), argc, argv);
    one_cfg.packets = 0;
    while (cli_next(&c)) {
        if (cli_is(&c, "--small")) small = 1;
        else if (cli_is(&c, "--out")) out = c.val;
        else if (cli_is(&c, "--witness")) wpath = c.val;
        else if (cli_is(&c, "--nodes")) { one_cfg.nodes = (int)cli_uint(&c); single = 1; }
        else if (cli_is(&c, "--chunks")) { one_cfg.chunks = (int)cli_uint(&c); single = 1; }
        else if (cli_is(&c, "--sizes")) {
            int n = cli_uint_list(&c, ',', 1, 8, list), k;
            one_cfg.sizes = 0;
            for (k = 0; k < n; k++) {
                if ((one_cfg.sizes >> (list[k] - 1)) & 1u) cli_bad_value(&c, "--sizes", c.val, "a size is given twice");
                one_cfg.sizes |= 1u << (list[k] - 1);
            }
            single = 1;
        }
        else if (cli_is(&c, "--packets")) { one_cfg.packets = (int)cli_uint(&c); single = 1; }
        else if (cli_is(&c, "--rule")) { rules = 1 << cli_choice(&c); if (rules == 4) rules = 3; single = 1; }
        else if (cli_is(&c, "--max-states")) max_states = cli_uint(&c);
        else if (cli_is(&c, "--quiet")) quiet = 1;
        else cli_unhandled(&c);
    }
    if (single) {
        if (small) cli_fail(&c, "--small runs the grid; it does not go with --nodes, --chunks, --sizes, --packets, --rule");
        if (cli_given(&c, "--out") || cli_given(&c, "--witness"))
            cli_fail(&c, "--out and --witness are the grid's files; one configuration prints its witness");
        if (!cli_given(&c, "--nodes") || !cli_given(&c, "--chunks") || !cli_given(&c, "--sizes"))
            cli_fail(&c, "one configuration needs --nodes, --chunks and --sizes");
        one_cfg.max_states = max_states;
        one_cfg.rule = rules & 1 ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
        if (!br_config_ok(&one_cfg))
            cli_fail(&c, "--chunks %d with --sizes %s: a buffer could hold more than %d packets (the model's limit)",
                     one_cfg.chunks, sizes_text(one_cfg.sizes, (char *)list, sizeof list), BR_MAX_PACKETS);
        one(&one_cfg, rules, quiet);
        return 0;
    }
    f = open_out(&c, "--out", out);
    wf = open_out(&c, "--witness", wpath);
    fprintf(f, "nodes,chunks,sizes,packets,rule,verdict,states,witness_moves,seconds\n");
    fprintf(wf, "nodes,chunks,rule,step,move,node,size,dest,buffers,tokens\n");
    for (i = 0; i < (int)(sizeof grid / sizeof grid[0]); i++) {
        int rule;
        if (small && !grid[i].small) continue;
        for (rule = 0; rule < 2; rule++) {
            br_config cfg;
            br_result r;
            char a[32], b[32], w[32];
            double t0;
            if (!((grid[i].rules >> rule) & 1)) continue;
            cfg.nodes = grid[i].nodes; cfg.chunks = grid[i].chunks; cfg.sizes = grid[i].sizes;
            cfg.packets = grid[i].packets; cfg.max_states = max_states;
            cfg.rule = rule == 0 ? SR_BGL_RULE_TEXTBOOK : SR_BGL_RULE_FULL_SIZE;
            t0 = sim_wall_seconds();
            run(&cfg, &r, quiet);
            w[0] = 0;
            if (r.verdict == BR_DEADLOCK) snprintf(w, sizeof w, "%d", r.witness_len);
            fprintf(f, "%d,%d,%s,%s,%s,%s,%llu,%s,%.2f\n", cfg.nodes, cfg.chunks, sizes_text(cfg.sizes, a, sizeof a),
                    packets_text(cfg.packets, b, sizeof b), rule_name(cfg.rule), verdict_name(r.verdict),
                    (unsigned long long)r.states, w, sim_wall_seconds() - t0);
            fflush(f);
            if (!quiet)
                fprintf(stderr, "%s: n=%d B=%d sizes %s packets %s %s: %s, %llu states%s%s%s\n", PROG, cfg.nodes,
                        cfg.chunks, a, b, rule_name(cfg.rule), verdict_name(r.verdict), (unsigned long long)r.states,
                        w[0] ? ", witness of " : "", w, w[0] ? " moves" : "");
            if (r.verdict == BR_DEADLOCK && !wrote_witness) { write_witness(wf, &cfg, &r); wrote_witness = 1; }
            br_result_free(&r);
        }
    }
    if (f != stdout) fclose(f);
    if (wf != stdout) fclose(wf);
    return 0;
}
