/* SPDX-License-Identifier: MIT */
/* fuzz_switch.c - the switch allocators and the request builder of
 * seastar_arb.h: sa_switch_memory_size, sa_switch_init, sa_switch_copy,
 * sa_switch_allocate, sa_switch_check, sa_switch_check_requests and
 * sa_requests_init/clear/add/remove/rows/priorities and
 * sa_switch_allocate_requests, at any size up to SA_SWITCH_MAX (mostly up
 * to 200) with every option.
 *
 * Oracles, each written from the doc comments, not from the code:
 *  - init: the result a model of sa_switch_init's documented checks gives;
 *  - the builder: a plain array of cells (present, priority), where adding
 *    a present cell keeps the larger priority and the priorities are
 *    returned iff two different ones were added since the last clear;
 *  - every allocation: a matching of requested, connected cells whose
 *    output_of, input_of, inputs, outputs and size agree;
 *  - WFA, wrapped WFA (without the Rotary Rule) and PIM/iSLIP iterated to
 *    convergence: a maximal matching; WFA also maximal among the cells of
 *    the greatest priority (they go first);
 *  - MCM: as large as the augmenting-path maximum computed here;
 *  - SA_IDLE_HOLD: a call without requests changes nothing (the allocator
 *    then decides as a copy taken before the call);
 *  - sa_switch_allocate_requests: a copy taken before the allocation
 *    decides on the request set as the original on its rows. */
#include "fuzz.h"
#include "../../seastar_arb.h"

#define NMAX SA_SWITCH_MAX
#define WMAX SA_WORDS(NMAX)

typedef struct cells {
    uint8_t on[NMAX][NMAX];
    int32_t prio[NMAX][NMAX];
    int32_t low, high;
} cells;

static int bit(const uint64_t *row, int j) { return (int)((row[j >> 6] >> (j & 63)) & 1u); }

/* Kuhn's augmenting paths: the size of a maximum matching. */
static int kuhn_try(const cells *c, const uint64_t *conn, int rw, int m, int i, int *match_of_out, uint8_t *seen) {
    int j;
    for (j = 0; j < m; j++) {
        if (!c->on[i][j] || !bit(conn + (size_t)i * rw, j) || seen[j]) continue;
        seen[j] = 1;
        if (match_of_out[j] < 0 || kuhn_try(c, conn, rw, m, match_of_out[j], match_of_out, seen)) {
            match_of_out[j] = i;
            return 1;
        }
    }
    return 0;
}

static int max_matching(const cells *c, const uint64_t *conn, int rw, int n, int m) {
    int match_of_out[NMAX], i, size = 0;
    uint8_t seen[NMAX];
    for (i = 0; i < m; i++) match_of_out[i] = -1;
    for (i = 0; i < n; i++) {
        memset(seen, 0, sizeof seen);
        size += kuhn_try(c, conn, rw, m, i, match_of_out, seen);
    }
    return size;
}

static void check_match(const sa_switch *a, const cells *c, const uint64_t *conn, const sa_match *mt, int prio_given) {
    int n = a->num_inputs, m = a->num_outputs, rw = a->row_words, i, j, count = 0;
    int32_t top = INT32_MIN;
    for (i = 0; i < n; i++) {
        j = mt->output_of[i];
        FZ_CHECK(j >= -1 && j < m, "output_of[%d] = %d", i, j);
        FZ_CHECK(bit(mt->inputs, i) == (j >= 0), "inputs bit %d", i);
        if (j < 0) continue;
        count++;
        FZ_CHECK(c->on[i][j] && bit(conn + (size_t)i * rw, j), "%s matched (%d, %d) not requested or not connected",
                 sa_switch_kind_name(a->kind), i, j);
        FZ_CHECK(mt->input_of[j] == i, "input_of[%d] = %d, expected %d", j, mt->input_of[j], i);
    }
    for (j = 0; j < m; j++) {
        FZ_CHECK(mt->input_of[j] >= -1 && mt->input_of[j] < n, "input_of[%d] = %d", j, mt->input_of[j]);
        FZ_CHECK(bit(mt->outputs, j) == (mt->input_of[j] >= 0), "outputs bit %d", j);
        if (mt->input_of[j] >= 0) FZ_CHECK(mt->output_of[mt->input_of[j]] == j, "output %d not matched back", j);
    }
    FZ_CHECK(mt->size == count, "size %d, %d matched inputs", mt->size, count);
    if (a->kind == SA_SWITCH_MCM)
        FZ_CHECK(count == max_matching(c, conn, rw, n, m), "MCM matched %d of a maximum %d", count,
                 max_matching(c, conn, rw, n, m));
    {
        int wave = (a->kind == SA_SWITCH_WFA || a->kind == SA_SWITCH_WFA_WRAPPED) && !a->rotary;
        int converged = (a->kind == SA_SWITCH_PIM || a->kind == SA_SWITCH_ISLIP) &&
                        a->iterations == SA_ITERATE_TO_CONVERGENCE && !a->rotary;
        if (!wave && !converged) return;
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++)
                if (c->on[i][j] && bit(conn + (size_t)i * rw, j) && c->prio[i][j] > top) top = c->prio[i][j];
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++) {
                if (!c->on[i][j] || !bit(conn + (size_t)i * rw, j)) continue;
                FZ_CHECK(mt->output_of[i] >= 0 || mt->input_of[j] >= 0,
                         "%s left (%d, %d) free at both ends (not maximal)", sa_switch_kind_name(a->kind), i, j);
                if (wave && prio_given && c->prio[i][j] == top) {
                    int oi = mt->output_of[i], ij = mt->input_of[j];
                    FZ_CHECK((oi >= 0 && c->prio[i][oi] == top) || (ij >= 0 && c->prio[ij][j] == top),
                             "%s: top-priority cell (%d, %d) lost to a lower one", sa_switch_kind_name(a->kind), i, j);
                }
            }
    }
}

/* What sa_switch_init documents it returns for this description. */
static sa_result expected_init(const sa_switch_desc *d) {
    int k = (int)d->kind, n = d->num_inputs, m = d->num_outputs;
    if (k < 0 || k >= SA_SWITCH_KIND_COUNT) return SA_ERR_PARAM_RANGE;
    if (n < 1 || n > SA_SWITCH_MAX || m < 1 || m > SA_SWITCH_MAX) return SA_ERR_SIZE_RANGE;
    if (d->iterations < -1 || (d->wavefront & ~1) || (d->pointer_rule & ~1) || (d->idle & ~1))
        return SA_ERR_PARAM_RANGE;
    if (d->rotary && k != SA_SWITCH_SPAA && k != SA_SWITCH_WFA && k != SA_SWITCH_WFA_WRAPPED && k != SA_SWITCH_PIM)
        return SA_ERR_PARAM_RANGE;
    return SA_OK;
}

static cells model;
static uint64_t conn[NMAX * WMAX], noconn[NMAX * WMAX], keep[NMAX * WMAX];
static sa_match mt, mt2;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sa_switch_desc d;
    sa_switch a, b;
    sa_requests rq;
    sa_result r, want;
    void *mem = NULL, *mem2 = NULL, *rmem = NULL;
    size_t msize;
    sa_rng g;
    int n, m, rw, i, j, steps, nsteps;
    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    {   /* the description: a byte or so a field */
        uint8_t s = fz_u8(&f), o;
        n = s < 8 ? fz_any_int(&f) : s < 160 ? 1 + fz_u8(&f) % 70 : 1 + fz_u8(&f) % 200;
        s = fz_u8(&f);
        m = s < 8 ? fz_any_int(&f) : s < 160 ? 1 + fz_u8(&f) % 70 : 1 + fz_u8(&f) % 200;
        d.num_inputs = n;
        d.num_outputs = m;
        d.kind = (sa_switch_kind)(fz_u8(&f) % (SA_SWITCH_KIND_COUNT + 2) - 1);
        d.iterations = fz_u8(&f) % 7 - 2;
        o = fz_u8(&f);
        d.rotary = (o & 7) == 0;
        d.wavefront = (o >> 3) & 1;
        d.pointer_rule = (o >> 4) & 1;
        d.idle = (o >> 5) & 1;
        if ((o & 0xC0) == 0xC0) { /* one option out of range */
            if ((o & 0x18) == 0) d.wavefront = 2;
            else if ((o & 0x18) == 0x08) d.pointer_rule = -1;
            else d.idle = 3;
        }
        sa_rng_seed(&g, fz_u64(&f));
        d.seed = sa_rng_next(&g);
    }
    want = expected_init(&d);
    msize = sa_switch_memory_size(&d);
    FZ_CHECK((msize == 0) == (want != SA_OK), "memory_size %zu for a description whose init gives %d", msize, want);
    mem = malloc(msize ? msize : 8);
    FZ_CHECK(mem != NULL, "malloc");
    if (msize > 8) FZ_CHECK(sa_switch_init(&a, &d, mem, msize - 8) == SA_ERR_MEMORY, "too little memory accepted");
    r = sa_switch_init(&a, &d, mem, msize);
    FZ_CHECK(r == want, "init(%s %dx%d it %d rot %d) gave %d, expected %d", sa_switch_kind_name(d.kind), n, m,
             d.iterations, d.rotary, r, want);
    if (r != SA_OK) goto done;
    FZ_CHECK(sa_switch_check(&a) == SA_OK, "fresh allocator fails its check");
    rw = SA_WORDS(m);
    /* unconnected cells: a second allocator over the same sizes */
    if (fz_u8(&f) < 64) {
        for (i = 0; i < n * rw; i++) noconn[i] = sa_rng_next(&g) & sa_rng_next(&g) & sa_rng_next(&g);
        for (i = 0; i < n; i++) noconn[(size_t)i * rw + rw - 1] &= sa__low_mask(m - 64 * (rw - 1));
        d.no_connect = noconn;
        FZ_CHECK(sa_switch_init(&a, &d, mem, msize) == SA_OK, "init with no_connect");
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < rw; j++)
            conn[(size_t)i * rw + j] = (j == rw - 1 ? sa__low_mask(m - 64 * j) : ~(uint64_t)0) &
                                       ~(d.no_connect ? noconn[(size_t)i * rw + j] : 0);
    rmem = malloc(sa_requests_memory_size(n, m));
    mem2 = malloc(msize);
    FZ_CHECK(rmem != NULL && mem2 != NULL, "malloc");
    FZ_CHECK(sa_requests_init(&rq, n, m, rmem, sa_requests_memory_size(n, m)) == SA_OK, "requests_init");
    memset(&model, 0, sizeof model);
    model.low = INT32_MAX;
    model.high = INT32_MIN;
    /* the steps: their shape from the input, the cells from a stream it seeds */
    nsteps = 1 + fz_u8(&f) % 24;
    for (steps = 0; steps < nsteps; steps++) {
        uint8_t op = fz_more(&f) ? fz_u8(&f) : (uint8_t)sa_rng_next(&g);
        int adds = (int)sa_rng_below(&g, op & 0x80 ? (uint32_t)(n * m) + 1 : 41), x;
        int32_t level = (int32_t)fz_any_int(&f);
        const int32_t *prio;
        const uint64_t *rows;
        if (op & 1) {
            sa_requests_clear(&rq);
            memset(model.on, 0, sizeof model.on);
            model.low = INT32_MAX;
            model.high = INT32_MIN;
        }
        for (x = 0; x < adds; x++) {
            uint64_t v = sa_rng_next(&g);
            int32_t p = (op & 6) == 0 ? level : (op & 6) == 2 ? level - (level > INT32_MIN && (v & 1))
                      : (op & 6) == 4 ? (int32_t)(v >> 40) % 4 - 2 : (int32_t)(uint32_t)(v >> 32);
            i = (int)sa_rng_below(&g, (uint32_t)n);
            j = (int)sa_rng_below(&g, (uint32_t)m);
            if ((op & 8) && (v & 0x700) == 0) {
                sa_requests_remove(&rq, i, j);
                model.on[i][j] = 0;
                continue;
            }
            sa_requests_add(&rq, i, j, p);
            if (!model.on[i][j] || model.prio[i][j] < p) model.prio[i][j] = p;
            model.on[i][j] = 1;
            if (p < model.low) model.low = p;
            if (p > model.high) model.high = p;
        }
        rows = sa_requests_rows(&rq);
        prio = sa_requests_priorities(&rq); /* (the cells' priorities, where they differ) */
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++) {
                FZ_CHECK(bit(rows + (size_t)i * rw, j) == model.on[i][j], "builder row %d bit %d", i, j);
                if (model.on[i][j] && prio != NULL)
                    FZ_CHECK(prio[(size_t)i * m + j] == model.prio[i][j], "priority (%d, %d)", i, j);
            }
        FZ_CHECK((prio != NULL) == (model.low < model.high), "priorities %s with low %d high %d",
                 prio ? "given" : "NULL", model.low, model.high);
        FZ_CHECK(sa_switch_check_requests(&a, rows) == SA_OK, "builder rows out of range");
        memcpy(keep, rows, (size_t)n * rw * sizeof(uint64_t));
        if (op & 0x40) FZ_CHECK(sa_switch_copy(&b, mem2, msize, &a) == SA_OK, "copy");
        sa_switch_allocate(&a, rows, prio, NULL, &mt);
        FZ_CHECK(memcmp(keep, rows, (size_t)n * rw * sizeof(uint64_t)) == 0, "allocate wrote the requests");
        check_match(&a, &model, conn, &mt, prio != NULL);
        if (op & 0x40) { /* the same allocation on the request set (its rows or, PIM above 64, its columns) */
            FZ_CHECK(sa_switch_allocate_requests(&b, &rq, NULL, &mt2) == mt.size, "allocate_requests: size");
            for (i = 0; i < n; i++)
                FZ_CHECK(mt.output_of[i] == mt2.output_of[i], "allocate_requests: input %d decided differently", i);
            FZ_CHECK(a.rng.state == b.rng.state && a.start_row == b.start_row && a.start_col == b.start_col,
                     "allocate_requests: the state moved differently");
            FZ_CHECK(memcmp(keep, sa_requests_rows(&rq), (size_t)n * rw * sizeof(uint64_t)) == 0,
                     "allocate_requests changed the rows");
        }
        FZ_CHECK(sa_switch_check(&a) == SA_OK, "state check after an allocation");
        /* an empty call: with SA_IDLE_HOLD the allocator goes on as a copy that never saw it */
        if ((op & 0x30) == 0x30) {
            static const uint64_t none[NMAX * WMAX];
            FZ_CHECK(sa_switch_copy(&b, mem2, msize, &a) == SA_OK, "copy");
            FZ_CHECK(sa_switch_allocate(&a, none, NULL, NULL, &mt) == 0, "matched without requests");
            if (a.idle == SA_IDLE_HOLD) {
                sa_switch_allocate(&a, rows, prio, NULL, &mt);
                sa_switch_allocate(&b, rows, prio, NULL, &mt2);
                FZ_CHECK(mt.size == mt2.size, "SA_IDLE_HOLD: an empty call changed the next decision");
                for (i = 0; i < n; i++)
                    FZ_CHECK(mt.output_of[i] == mt2.output_of[i], "SA_IDLE_HOLD: input %d decided differently", i);
            }
        }
    }
done:
    free(mem);
    free(mem2);
    free(rmem);
    return 0;
}
