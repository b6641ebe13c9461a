/* SPDX-License-Identifier: MIT */
/* fuzz_route_tables.c - faults, tables, generators and the verifier of
 * seastar_route.h: sr_faults_init, sr_fault_link, sr_fault_node,
 * sr_node_ok, sr_next_hop, sr_table_build_dor, sr_table_lookup,
 * sr_table_port, sr_order_positive_first, sr_tables_build_search,
 * sr_seastar_entry, sr_tables_build_seastar, sr_verify.
 *
 * Small networks (up to 96 nodes, 1 to 3 dimensions, random faults).
 * Oracles: the fault rules of the doc comments; DOR tables equal to
 * sr_dor_entry; and, for every table set (DOR, search, SeaStar rules, and
 * copies with a few entries overwritten at random), an independent check
 * written here: every live pair is walked through the tables (it must be
 * ejected at its destination or stop at an SR_ENTRY_NONE entry, never loop,
 * use a missing or failed link, enter a failed node or turn back), and the
 * channel dependency graph of the delivered walks is searched for a cycle.
 * sr_verify must prove exactly the table sets this check finds sound, with
 * the same counts, and report a delivery failure or a real cycle
 * otherwise.  The search generator must always give sound tables (its doc
 * comment: deadlock-free whatever the faults) that declare exactly the
 * pairs the walk finds unroutable; the SeaStar rules must deliver every
 * pair they do not declare unroutable (a dependency cycle is allowed, as
 * documented).  Either generator returns SR_OK exactly when the check
 * finds the tables sound and every pair the faults leave connected
 * (rt_connected_pairs of tests/route_util.h) delivered, SR_ERR_DEADLOCK
 * for a cycle, SR_ERR_UNDELIVERED otherwise. */
#include "fuzz.h"
#include "../../seastar_route.h"
#include "../route_util.h"

#define MAXN 96

typedef struct check {
    int failure;            /* a delivery failure was found */
    int cycle;              /* the dependency graph has a cycle */
    uint64_t pairs, delivered, unroutable;
} check;

static uint8_t *dep;        /* adjacency matrix of channels */
static uint32_t nch;

static uint32_t chan(const sr_topology *t, uint32_t u, int port, int vc) {
    return (u * (uint32_t)(t->num_ports - 1) + (uint32_t)port) * 2u + (uint32_t)(vc & 1);
}

static int dfs(uint32_t c, uint8_t *color) {
    uint32_t x;
    color[c] = 1;
    for (x = 0; x < nch; x++)
        if (dep[(size_t)c * nch + x]) {
            if (color[x] == 1) return 1;
            if (color[x] == 0 && dfs(x, color)) return 1;
        }
    color[c] = 2;
    return 0;
}

/* The independent check of a table set. */
static void walk_all(const sr_topology *t, const sr_faults *fl, const uint8_t *tables, check *k) {
    uint32_t s, dst, x;
    uint8_t *color;
    nch = t->num_nodes * (uint32_t)(t->num_ports - 1) * 2u;
    dep = (uint8_t *)calloc((size_t)nch * nch, 1);
    color = (uint8_t *)calloc(nch, 1);
    memset(k, 0, sizeof *k);
    for (dst = 0; dst < t->num_nodes; dst++) {
        if (!sr_node_ok(fl, dst)) continue;
        for (s = 0; s < t->num_nodes; s++) {
            uint32_t u = s, path[8 * MAXN];
            int in_port = t->proc_port, vc = 0, len = 0, i, self = s == dst;
            /* a node's own entry for itself is walked too (sr_verify's doc:
             * its injection entry), but is not a pair */
            if (!sr_node_ok(fl, s)) continue;
            k->pairs += !self;
            for (;;) {
                sr_entry e = sr_table_lookup(t, tables + (size_t)u * t->table_size, u, in_port, dst);
                int port = sr_entry_port(e);
                uint32_t w;
                if (port == SR_PORT_NONE) { k->unroutable += !self; break; }   /* whatever its VC bits */
                if (port == t->proc_port) {
                    if (u != dst) { k->failure = 1; break; }
                    k->delivered += !self;
                    for (i = 1; i < len; i++) dep[(size_t)path[i - 1] * nch + path[i]] = 1;
                    break;
                }
                if (port >= t->proc_port || port == in_port) { k->failure = 1; break; }
                w = sr_next_hop(t, fl, u, port);
                if (w == SR_NO_NODE) { k->failure = 1; break; }
                vc = sr_entry_vc(e, vc);
                if (len == 8 * MAXN) { k->failure = 1; break; }      /* a loop */
                path[len++] = chan(t, u, port, vc);
                in_port = port ^ 1;
                u = w;
            }
        }
    }
    for (x = 0; x < nch && !k->cycle; x++)
        if (color[x] == 0) k->cycle = dfs(x, color);
    free(color);
    free(dep);
}

/* The result a generator owes for tables the independent check judged. */
static sr_result owed(const check *k, uint64_t connected) {
    if (k->cycle && !k->failure) return SR_ERR_DEADLOCK;
    if (k->failure || k->delivered < connected) return SR_ERR_UNDELIVERED;
    return SR_OK;
}

/* sr_verify against the independent check. */
static void verify_matches(const sr_topology *t, const sr_faults *fl, const uint8_t *tables, const char *what,
                           check *k) {
    size_t ss = sr_verify_scratch_size(t);
    void *scratch = malloc(ss);
    sr_verify_report *rep = (sr_verify_report *)malloc(sizeof *rep);
    sr_result r;
    int i;
    walk_all(t, fl, tables, k);
    FZ_CHECK(sr_verify(t, fl, tables, 0, scratch, ss - 1, rep) == SR_ERR_BUFFER_SIZE, "small scratch");
    r = sr_verify(t, fl, tables, SR_VERIFY_STRETCH, scratch, ss, rep);
    FZ_CHECK(r == SR_OK, "%s: verify gave %d", what, r);
    FZ_CHECK(rep->proven == (!k->failure && !k->cycle), "%s: verify proven %d, walk: failure %d, cycle %d "
             "(verify says %s)", what, rep->proven, k->failure, k->cycle, sr_failure_string(rep->failure));
    if (rep->proven) {
        FZ_CHECK(rep->failure == SR_FAIL_NONE && rep->pairs == k->pairs && rep->delivered == k->delivered &&
                 rep->unroutable == k->unroutable, "%s: verify counts %llu %llu %llu, walk %llu %llu %llu", what,
                 (unsigned long long)rep->pairs, (unsigned long long)rep->delivered,
                 (unsigned long long)rep->unroutable, (unsigned long long)k->pairs, (unsigned long long)k->delivered,
                 (unsigned long long)k->unroutable);
        FZ_CHECK(rep->delivered == 0 || (rep->stretch_max >= 1.0 && rep->max_hops >= 1), "%s: stretch", what);
    } else if (k->failure) {
        FZ_CHECK(rep->failure != SR_FAIL_NONE && rep->failure != SR_FAIL_DEADLOCK,
                 "%s: a delivery failure reported as %s", what, sr_failure_string(rep->failure));
    } else {
        FZ_CHECK(rep->failure == SR_FAIL_DEADLOCK && rep->witness_len >= 2, "%s: a cycle reported as %s", what,
                 sr_failure_string(rep->failure));
        /* the witness is a cycle of channels of this table set */
        if (!rep->witness_truncated)
            for (i = 0; i < rep->witness_len; i++) {
                const sr_hop *h = &rep->witness[i], *nx = &rep->witness[(i + 1) % rep->witness_len];
                FZ_CHECK(h->node < t->num_nodes && h->out_port >= 0 && h->out_port < t->proc_port &&
                         sr_next_hop(t, fl, h->node, h->out_port) == nx->node, "%s: witness step %d is not a link",
                         what, i);
            }
    }
    free(rep);
    free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sr_topology_desc d;
    sr_topology t;
    sr_faults fl;
    uint32_t *mask, u, model[MAXN];
    uint8_t *tables, *tab;
    size_t tsize, gsize;
    void *scratch;
    sr_pair list[64];
    sr_gen_report g;
    check k;
    int i, n, nf;
    sr_result r;
    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    n = d.num_dims = fz_range(&f, 1, 3);
    for (i = 0; i < n; i++) {
        d.radix[i] = fz_range(&f, 2, n == 1 ? 12 : n == 2 ? 8 : 4);
        d.mesh[i] = fz_u8(&f) & 1;
        d.dateline[i] = fz_range(&f, 0, d.radix[i] - 1);
    }
    if (sr_topology_init(&t, &d) != SR_OK || t.num_nodes > MAXN) return 0;
    tsize = (size_t)t.num_nodes * t.table_size;
    tables = (uint8_t *)malloc(tsize);
    tab = (uint8_t *)malloc(t.table_size);

    /* DOR tables, router by router */
    FZ_CHECK(sr_table_build_dor(&t, t.num_nodes, tab, t.table_size) == SR_ERR_NODE_RANGE &&
             sr_table_build_dor(&t, 0, tab, t.table_size - 1) == SR_ERR_BUFFER_SIZE &&
             sr_table_build_dor(&t, 0, NULL, t.table_size) == SR_ERR_NULL, "build_dor errors");
    for (u = 0; u < t.num_nodes; u++)
        FZ_CHECK(sr_table_build_dor(&t, u, tables + (size_t)u * t.table_size, t.table_size) == SR_OK, "build_dor");
    for (i = 0; i < 32; i++) {
        uint32_t a = fz_u32(&f) % t.num_nodes, b = fz_u32(&f) % t.num_nodes;
        int ip = fz_range(&f, 0, t.num_ports - 1);
        uint8_t *tb = tables + (size_t)a * t.table_size;
        FZ_CHECK(sr_table_lookup(&t, tb, a, ip, b) == sr_dor_entry(&t, a, ip, b), "DOR table entry");
        FZ_CHECK(sr_table_port(&t, tb, ip) == tb + (size_t)ip * t.table_stride, "table_port");
    }
    verify_matches(&t, NULL, tables, "DOR tables", &k);
    FZ_CHECK(!k.failure && !k.cycle && k.unroutable == 0, "DOR tables of a fault-free network are sound");

    /* faults */
    mask = (uint32_t *)malloc(sr_faults_size(&t));
    FZ_CHECK(sr_faults_init(&fl, &t, mask, sr_faults_size(&t) - 1) == SR_ERR_BUFFER_SIZE, "small fault storage");
    FZ_CHECK(sr_faults_init(&fl, &t, mask, sr_faults_size(&t)) == SR_OK, "faults_init");
    memset(model, 0, sizeof model);
    nf = fz_range(&f, 0, 5);
    for (i = 0; i < nf; i++) {
        if (fz_u8(&f) < 200) {
            uint32_t node = fz_u8(&f) < 250 ? fz_u32(&f) % t.num_nodes : fz_u32(&f);
            int port = fz_range(&f, -1, t.num_ports), exp;
            uint32_t w = node < t.num_nodes ? sr_neighbor(&t, node, port) : SR_NO_NODE;
            exp = node >= t.num_nodes ? SR_ERR_NODE_RANGE : port < 0 || port >= t.proc_port ? SR_ERR_PORT_RANGE
                : w == SR_NO_NODE ? SR_ERR_NO_LINK : SR_OK;
            r = sr_fault_link(&fl, &t, node, port);
            FZ_CHECK((int)r == exp, "fault_link(%u, %d) gave %d, expected %d", node, port, r, exp);
            if (r == SR_OK) { model[node] |= 1u << port; model[w] |= 1u << (port ^ 1); }
        } else {
            uint32_t node = fz_u32(&f) % (t.num_nodes + 1);
            r = sr_fault_node(&fl, &t, node);
            FZ_CHECK(r == (node < t.num_nodes ? SR_OK : SR_ERR_NODE_RANGE), "fault_node(%u)", node);
            if (r == SR_OK) model[node] |= SR_FAULT_NODE;
        }
    }
    for (u = 0; u < t.num_nodes; u++) {
        int p;
        FZ_CHECK(mask[u] == model[u] && sr_node_ok(&fl, u) == !(model[u] & SR_FAULT_NODE), "fault mask of %u", u);
        for (p = 0; p <= t.proc_port; p++) {
            uint32_t w = sr_neighbor(&t, u, p), want = w;
            if (w != SR_NO_NODE && ((model[u] & (SR_FAULT_NODE | (1u << p))) || (model[w] & SR_FAULT_NODE)))
                want = SR_NO_NODE;
            FZ_CHECK(sr_next_hop(&t, &fl, u, p) == want && sr_next_hop(&t, NULL, u, p) == w, "next_hop(%u, %d)", u, p);
        }
    }

    /* the search generator */
    gsize = sr_gen_scratch_size(&t);
    scratch = malloc(gsize);
    {
        int order[SR_MAX_PORTS], j;
        int *op = NULL;
        sr_order_positive_first(&t, order);
        {
            unsigned seen = 0;
            for (j = 0; j < t.num_ports - 1; j++) seen |= 1u << order[j];
            FZ_CHECK(seen == (1u << (t.num_ports - 1)) - 1, "positive-first order is a permutation");
        }
        if (fz_u8(&f) & 1) {
            for (j = t.num_ports - 2; j > 0; j--) {     /* a random permutation */
                int x = fz_range(&f, 0, j), tmp = order[j];
                order[j] = order[x];
                order[x] = tmp;
            }
            op = order;
            if (fz_u8(&f) < 16) {                       /* sometimes not a permutation */
                uint8_t first = tables[0];
                int keep = order[0];
                order[0] = order[t.num_ports - 2];
                tables[0] = (uint8_t)(first ^ 0x55);
                r = sr_tables_build_search(&t, &fl, order, tables, tsize, scratch, gsize, list, 64, &g);
                FZ_CHECK(r == SR_ERR_ORDER && tables[0] == (uint8_t)(first ^ 0x55),
                         "a repeated direction gave %d (or wrote the tables)", r);
                order[0] = keep;
            }
        }
        FZ_CHECK(sr_tables_build_search(&t, &fl, op, tables, tsize - 1, scratch, gsize, list, 64, &g) ==
                 SR_ERR_BUFFER_SIZE, "search: small tables");
        r = sr_tables_build_search(&t, &fl, op, tables, tsize, scratch, gsize, list, 64, &g);
        verify_matches(&t, &fl, tables, "search tables", &k);
        FZ_CHECK(r == owed(&k, rt_connected_pairs(&t, &fl)), "search gave %d, owed %d", r, owed(&k, rt_connected_pairs(&t, &fl)));
        FZ_CHECK(!k.failure && !k.cycle, "search tables are sound (failure %d, cycle %d)", k.failure, k.cycle);
        FZ_CHECK(g.pairs == k.pairs && g.unroutable == k.unroutable &&
                 g.listed == (g.unroutable < 64 ? g.unroutable : 64), "search report %llu %llu %zu, walk %llu %llu",
                 (unsigned long long)g.pairs, (unsigned long long)g.unroutable, g.listed,
                 (unsigned long long)k.pairs, (unsigned long long)k.unroutable);
        if (nf == 0) FZ_CHECK(g.unroutable == 0, "search without faults routes every pair");
    }
    /* the SeaStar rules (3 dimensions) */
    if (n == 3) {
        for (i = 0; i < 16; i++) {
            uint32_t a = fz_u32(&f) % t.num_nodes, b = fz_u32(&f) % t.num_nodes;
            int ip = fz_range(&f, 0, t.num_ports - 1), p = sr_entry_port(sr_seastar_entry(&t, &fl, NULL, a, ip, b));
            FZ_CHECK(p == SR_PORT_NONE || (p >= 0 && p <= t.proc_port), "seastar_entry port %d", p);
        }
        r = sr_tables_build_seastar(&t, &fl, tables, tsize, scratch, gsize, list, 64, &g);
        verify_matches(&t, &fl, tables, "SeaStar-rule tables", &k);
        FZ_CHECK(r == owed(&k, rt_connected_pairs(&t, &fl)), "seastar tables gave %d, owed %d", r,
                 owed(&k, rt_connected_pairs(&t, &fl)));
        FZ_CHECK(!k.failure, "SeaStar-rule tables deliver every pair they route");
        FZ_CHECK(g.unroutable == k.unroutable && g.pairs == k.pairs, "seastar report %llu, walk %llu",
                 (unsigned long long)g.unroutable, (unsigned long long)k.unroutable);
    } else {
        r = sr_tables_build_seastar(&t, &fl, tables, tsize, scratch, gsize, list, 64, &g);
        FZ_CHECK(r == SR_ERR_DIMS, "seastar tables on %d dimensions gave %d", n, r);
    }
    /* a few entries overwritten: sr_verify must still agree with the walk */
    for (i = fz_range(&f, 0, 4); i > 0; i--) {
        size_t at = fz_u32(&f) % tsize;
        tables[at] = fz_u8(&f) & 1 ? (uint8_t)sr_entry_make(fz_range(&f, 0, t.proc_port), fz_range(&f, 0, 2))
                                   : fz_u8(&f);
    }
    verify_matches(&t, &fl, tables, "tables with overwritten entries", &k);
    free(scratch);
    free(mask);
    free(tab);
    free(tables);
    return 0;
}
