/* test_alloc_diff.c - differential tests of the switch allocators: the
 * build users get by default (the >>fast kernels of seastar_arb.h where
 * the target has them; alloc_diff_fast.c) against the reference build
 * (SA_NO_SIMD; alloc_diff_ref.c), both through the public API only, with
 * SA_ASSERT compiled out.
 *
 * Each configuration is an allocator description and a stream of random
 * request sets given to one allocator of each build.  After every call the
 * two results must be equal in every field of sa_match (entries beyond the
 * sizes included), with the same return value, and the state that can be
 * read the same (PIM's generator, WFA's start cell and priority diagonal,
 * the round-robin pointers); SPAA's arbiters, which the fast kernels may
 * hold in a form of their own, are compared by the decisions they lead to.
 * Every result must also be a matching of requested, connected cells.
 *
 * What the configurations cover: every size from 1 x 1 to 64 x 64 (one
 * configuration each per round, the kind rotating), and the sizes
 * simulators use (16 x 7, 8 x 8, 5 x 5, 7 x 7, 16 x 16, 63 x 63, 64 x 64 ...)
 * with every kind in six variants each; densities 0.01 to 1, uniform,
 * skewed per row, very sparse (one to three cells), very dense, hot
 * columns, none at all; unconnected cells (scattered, whole rows and columns, the
 * 21364's pattern); uint8 priorities with many ties or none, and calls with
 * and without them mixed on one allocator; read-port pairs with
 * sa_read_buffer views; the Rotary Rule; 1, 2, 3 and converged
 * iterations; SPAA's pipelined sa_spaa_nominate / sa_spaa_grant (another
 * allocation in between, part of the nominations granted); sa_alloc_copy
 * in the middle of a stream (the copies carry on); request bits at or
 * above num_outputs.
 *
 * make test runs three rounds (AD_SAMPLE_ROUNDS, about 190,000 request
 * sets); make check-long runs rounds until at least 10^7 request sets have
 * been compared.  Both print the count.
 * A failure names its configuration; ALLOC_DIFF_CONFIG=k runs
 * configuration k alone (runner alloc_diff_random). */
#include <stdlib.h>
#include "st_test.h"
#include "alloc_diff.h"
#include "alloc_test_util.h"

/* The sizes of the second part of a round: every kind, AD_VARIANTS
 * variants. */
static const int ad_sizes[][2] = {
    { 16, 7 }, { 8, 8 }, { 5, 5 }, { 7, 7 }, { 16, 16 }, { 63, 63 }, { 64, 64 }, { 1, 1 },
    { 16, 8 }, { 64, 32 }, { 33, 64 }, { 48, 48 }, { 63, 64 }, { 64, 63 }, { 1, 64 }, { 64, 1 } };
#define AD_NSIZES ((long)(sizeof ad_sizes / sizeof ad_sizes[0]))
#define AD_KINDS ((long)SA_ALLOC_KIND_COUNT)
#define AD_ALL_SIZES (64L * 64L)
#define AD_VARIANTS 6
#define AD_ROUND (AD_ALL_SIZES + AD_NSIZES * AD_KINDS * AD_VARIANTS)
/* Rounds that make test runs. */
#define AD_SAMPLE_ROUNDS 3
/* Request sets per configuration: every size, the named sizes. */
#define AD_STEPS_ALL 8
#define AD_STEPS_NAMED 32

/* Densities, in 256ths: 0.01 0.03 0.05 0.1 0.2 0.3 0.5 0.7 0.9 0.97 0.99 1. */
static const unsigned ad_density[] = { 3, 8, 13, 26, 51, 77, 128, 179, 230, 248, 253, 256 };
#define AD_NDENS ((uint32_t)(sizeof ad_density / sizeof ad_density[0]))

typedef struct ad_cfg {
    long index;
    sa_alloc_desc d;
    int steps;
    int use_bufs;     /* read-port pairs: pass the buffer views */
    int prio_mode;    /* 0: never, 1: always, 2: some calls */
    int out_of_range; /* add request bits at or above num_outputs */
    int pipelined;    /* SPAA: some steps through nominate and grant */
    uint64_t connect[64];
} ad_cfg;

static int ad_rotary_kind(sa_alloc_kind k) {
    return k == SA_ALLOC_SPAA || k == SA_ALLOC_WFA || k == SA_ALLOC_WFA_WRAPPED || k == SA_ALLOC_PIM;
}

/* Each bit set with probability p256 / 256 (0..256): the bits of p256 from
 * the lowest, each an OR (1) or an AND (0) with a fresh random word. */
static uint64_t ad_row(uint64_t *seed, unsigned p256) {
    uint64_t r = 0;
    int b;
    if (p256 >= 256) return ~(uint64_t)0;
    for (b = 0; b < 8; b++) r = ((p256 >> b) & 1u) ? (r | st_rand(seed)) : (r & st_rand(seed));
    return r;
}

static unsigned ad_rand_density(uint64_t *seed) { return ad_density[st_rand_below(seed, AD_NDENS)]; }

/* The configuration of index k: its kind and size from the schedule of a
 * round, everything else drawn from a generator seeded by k. */
static void ad_config(long k, ad_cfg *c) {
    long o = k % AD_ROUND, round = k / AD_ROUND;
    uint64_t seed = 0xd1ffd1ffull ^ ((uint64_t)k * 0x9E3779B97F4A7C15ull);
    int n, m, variant = -1, i;
    sa_alloc_kind kind;
    sa_alloc_desc *d = &c->d;
    if (o < AD_ALL_SIZES) {
        n = (int)(o / 64) + 1;
        m = (int)(o % 64) + 1;
        kind = (sa_alloc_kind)((o + round) % AD_KINDS);
        c->steps = AD_STEPS_ALL;
    } else {
        long q = o - AD_ALL_SIZES;
        n = ad_sizes[q % AD_NSIZES][0];
        m = ad_sizes[q % AD_NSIZES][1];
        kind = (sa_alloc_kind)((q / AD_NSIZES) % AD_KINDS);
        variant = (int)(q / (AD_NSIZES * AD_KINDS));  /* 0 .. AD_VARIANTS - 1 */
        c->steps = AD_STEPS_NAMED;
    }
    c->index = k;
    ta_desc_of(d, kind, n, m);
    st_rand(&seed);
    d->seed = st_rand(&seed);
    switch (st_rand_below(&seed, 4)) {
    case 0: d->iterations = 1; break;
    case 1: d->iterations = 3; break;
    case 2: d->iterations = SA_ITERATE_TO_CONVERGENCE; break;
    default: d->iterations = 2; break;
    }
    switch (st_rand_below(&seed, 4)) {
    case 0: d->network_inputs = 0; break;
    case 1: d->network_inputs = ta_low_mask(n); break;
    case 2: d->network_inputs = 0xFFull & ta_low_mask(n); break;
    default: d->network_inputs = st_rand(&seed) & ta_low_mask(n); break;
    }
    d->rotary = ad_rotary_kind(kind) && st_rand_below(&seed, 2);
    d->read_port_pairs = n % 2 == 0 && (kind != SA_ALLOC_MCM || m <= 8) && st_rand_below(&seed, 3) == 0;
    switch (st_rand_below(&seed, 6)) {
    case 3: /* scattered */
        for (i = 0; i < n; i++) d->no_connect[i] = st_rand(&seed) & st_rand(&seed) & st_rand(&seed);
        break;
    case 4: /* dense, or the 21364's pattern */
        if (n == 16 && m == 7) sa_21364_no_connect(d->no_connect);
        else for (i = 0; i < n; i++) d->no_connect[i] = st_rand(&seed);
        break;
    case 5: { /* whole rows and columns */
        uint64_t cols = st_rand(&seed) & st_rand(&seed);
        for (i = 0; i < n; i++) d->no_connect[i] = st_rand_below(&seed, 8) == 0 ? ~(uint64_t)0 : cols;
        break;
    }
    default: break;
    }
    c->prio_mode = (int)st_rand_below(&seed, 3);
    c->out_of_range = m < 64 && st_rand_below(&seed, 2) == 0;
    c->pipelined = kind == SA_ALLOC_SPAA && st_rand_below(&seed, 2);
    /* The named sizes' variants: 0 plain, 1 the Rotary Rule and network
     * inputs, 2 unconnected cells and read-port pairs, 3 request bits
     * outside the outputs, 4 converged, 5 as drawn. */
    if (variant == 0) {
        d->iterations = 1;
        d->rotary = d->read_port_pairs = 0;
        memset(d->no_connect, 0, sizeof d->no_connect);
        c->prio_mode = 2;
    } else if (variant == 1) {
        d->rotary = ad_rotary_kind(kind);
        d->network_inputs = n > 1 ? (st_rand(&seed) & ta_low_mask(n)) | 1u : 1u;
        c->prio_mode = 1;
    } else if (variant == 2) {
        if (n == 16 && m == 7) sa_21364_no_connect(d->no_connect);
        else for (i = 0; i < n; i++) d->no_connect[i] = st_rand(&seed) & st_rand(&seed);
        d->read_port_pairs = n % 2 == 0 && (kind != SA_ALLOC_MCM || m <= 8);
        c->prio_mode = 2;
    } else if (variant == 3) {
        d->iterations = 1;
        c->out_of_range = m < 64;
        c->prio_mode = 2;
    } else if (variant == 4) {
        d->iterations = SA_ITERATE_TO_CONVERGENCE;
    }
    for (i = 0; i < n; i++) {
        d->no_connect[i] &= ta_low_mask(m);
        c->connect[i] = ta_low_mask(m) & ~d->no_connect[i];
    }
    c->use_bufs = d->read_port_pairs && st_rand_below(&seed, 4) != 0;
}

/* One request set of the configuration (and the buffer views with read-port
 * pairs). */
static void ad_requests(uint64_t *seed, const ad_cfg *c, uint64_t *req, sa_read_buffer *views) {
    int n = c->d.num_inputs, m = c->d.num_outputs, i, b, t;
    unsigned p = ad_rand_density(seed);
    uint64_t hot;
    switch (st_rand_below(seed, 9)) {
    case 8: /* nothing requested */
        for (i = 0; i < n; i++) req[i] = 0;
        break;
    case 3: /* skewed: every row its own density, some empty, some full */
        for (i = 0; i < n; i++) {
            uint32_t r = st_rand_below(seed, 8);
            req[i] = r == 0 ? 0 : r == 1 ? ~(uint64_t)0 : ad_row(seed, ad_rand_density(seed));
        }
        break;
    case 4: /* very sparse: one to three cells */
        for (i = 0; i < n; i++) req[i] = 0;
        for (t = 0; t <= (int)st_rand_below(seed, 3); t++)
            req[st_rand_below(seed, (uint32_t)n)] |= (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
        break;
    case 5: /* very dense: all but one to three cells */
        for (i = 0; i < n; i++) req[i] = ~(uint64_t)0;
        for (t = 0; t <= (int)st_rand_below(seed, 3); t++)
            req[st_rand_below(seed, (uint32_t)n)] &= ~((uint64_t)1 << st_rand_below(seed, (uint32_t)m));
        break;
    case 6: /* hot columns over a sparse background */
        hot = ((uint64_t)1 << st_rand_below(seed, (uint32_t)m)) | ((uint64_t)1 << st_rand_below(seed, (uint32_t)m));
        for (i = 0; i < n; i++) req[i] = (hot & ad_row(seed, p)) | ad_row(seed, 8);
        break;
    case 7: /* rows almost empty or almost full */
        for (i = 0; i < n; i++) req[i] = ad_row(seed, st_rand_below(seed, 2) ? 5 : 251);
        break;
    default: /* uniform */
        for (i = 0; i < n; i++) req[i] = ad_row(seed, p);
        break;
    }
    for (i = 0; i < n; i++) req[i] &= ta_low_mask(m);
    if (c->use_bufs)
        for (b = 0; b < n / 2; b++) {
            uint64_t pk[6];
            int count = (int)st_rand_below(seed, 7), same = st_rand_below(seed, 2) == 0;
            for (t = 0; t < count; t++) {
                pk[t] = (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
                if (st_rand_below(seed, 2)) pk[t] |= (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
                if (st_rand_below(seed, 8) == 0) pk[t] |= (uint64_t)1 << st_rand_below(seed, (uint32_t)m);
            }
            memset(&views[b], 0, sizeof views[b]);
            sa_read_buffer_build(&views[b], pk, count);
            req[2 * b] = same ? views[b].any : req[2 * b] & views[b].any;
            req[2 * b + 1] = same ? views[b].any : req[2 * b + 1] & views[b].any;
        }
    if (c->out_of_range && st_rand_below(seed, 2))
        for (i = 0; i < n; i++)
            if (st_rand_below(seed, 3) == 0) req[i] |= st_rand(seed) & ~ta_low_mask(m);
}

/* Priorities for one call, or NULL: uint8, with 2, 4, 16 or 256 values. */
static const uint8_t *ad_prio(uint64_t *seed, const ad_cfg *c, uint8_t *prio) {
    static const uint8_t masks[4] = { 1, 3, 15, 255 };
    int cells = c->d.num_inputs * c->d.num_outputs, i;
    uint8_t mask;
    if (c->prio_mode == 0 || (c->prio_mode == 2 && st_rand_below(seed, 2))) return NULL;
    mask = masks[st_rand_below(seed, 4)];
    for (i = 0; i < cells; i += 8) {
        uint64_t r = st_rand(seed);
        int b;
        for (b = 0; b < 8 && i + b < cells; b++) prio[i + b] = (uint8_t)((r >> (8 * b)) & mask);
    }
    return prio;
}

/* ------------------------------------------------------------ comparing */

typedef struct ad_run {
    st_ctx *ctx;
    const ad_cfg *c;
    int step;
    const char *op;
    const uint64_t *req;
    long compared;
} ad_run;

static void ad_print_config(const ad_cfg *c) {
    const sa_alloc_desc *d = &c->d;
    int i;
    fprintf(stderr, "    configuration %ld (rerun alone: ALLOC_DIFF_CONFIG=%ld runner alloc_diff_random)\n",
            c->index, c->index);
    fprintf(stderr, "    %s %d x %d, iterations %d, rotary %d, network_inputs 0x%llx, read_port_pairs %d "
                    "(views %s), seed 0x%llx\n",
            sa_alloc_kind_name(d->kind), d->num_inputs, d->num_outputs, d->iterations, d->rotary,
            (unsigned long long)d->network_inputs, d->read_port_pairs, c->use_bufs ? "passed" : "NULL",
            (unsigned long long)d->seed);
    fprintf(stderr, "    no_connect:");
    for (i = 0; i < d->num_inputs; i++) fprintf(stderr, " %llx", (unsigned long long)d->no_connect[i]);
    fprintf(stderr, "\n");
}

static void ad_fail(ad_run *r, const char *what, const sa_match *fast, const sa_match *ref) {
    int i;
    st_fail_begin(r->ctx, __FILE__, __LINE__, what);
    ad_print_config(r->c);
    fprintf(stderr, "    step %d (%s); requests:", r->step, r->op);
    for (i = 0; i < r->c->d.num_inputs && r->req; i++) fprintf(stderr, " %llx", (unsigned long long)r->req[i]);
    fprintf(stderr, "\n");
    if (fast && ref) {
        fprintf(stderr, "    output_of fast/ref:");
        for (i = 0; i < r->c->d.num_inputs; i++)
            if (fast->output_of[i] != ref->output_of[i])
                fprintf(stderr, " [%d] %d/%d", i, fast->output_of[i], ref->output_of[i]);
        fprintf(stderr, "\n    size %d/%d\n", fast->size, ref->size);
    }
}

/* Every field of the two matchings equal, and the result a matching of
 * requested, connected cells. */
static int ad_same_match(ad_run *r, int ret_fast, int ret_ref, const sa_match *f, const sa_match *g) {
    const ad_cfg *c = r->c;
    const char *err;
    int i;
    r->compared++;
    if (ret_fast != ret_ref || f->size != g->size || f->inputs != g->inputs || f->outputs != g->outputs ||
        memcmp(f->output_of, g->output_of, sizeof f->output_of) != 0 ||
        memcmp(f->input_of, g->input_of, sizeof f->input_of) != 0) {
        ad_fail(r, "the fast and the reference build return different matchings", f, g);
        return 0;
    }
    if (ret_ref != g->size) { ad_fail(r, "the return value is not the matching's size", f, g); return 0; }
    err = ta_match_consistent(g, c->d.num_inputs, c->d.num_outputs);
    if (err != 0) { ad_fail(r, err, f, g); return 0; }
    for (i = 0; i < c->d.num_inputs && r->req; i++) {
        int j = g->output_of[i];
        if (j >= 0 && !((r->req[i] & c->connect[i]) >> j & 1u)) {
            ad_fail(r, "a matched cell was not requested, or is not connected", f, g);
            return 0;
        }
    }
    return 1;
}

static int ad_same_state(ad_run *r, const ad_alloc *fast, const ad_alloc *ref) {
    ad_state a, b;
    ad_fast_state(fast, &a);
    ad_ref_state(ref, &b);
    if (a.rng != b.rng || a.start_row != b.start_row || a.start_col != b.start_col || a.pointers != b.pointers ||
        memcmp(a.in_ptr, b.in_ptr, sizeof a.in_ptr) != 0 || memcmp(a.out_ptr, b.out_ptr, sizeof a.out_ptr) != 0) {
        ad_fail(r, "the fast and the reference build leave different states (rng, start cell or pointers)", NULL, NULL);
        return 0;
    }
    return 1;
}

/* One configuration; returns the number of request sets compared, or -1
 * after a failure. */
static long ad_run_config(st_ctx *ctx, long k) {
    uint8_t prio[64 * 64];
    ad_cfg c;
    ad_run r;
    ad_alloc *f, *g;
    sa_result rf, rg;
    uint64_t seed;
    int n, step, i, ok = 1;
    ad_config(k, &c);
    n = c.d.num_inputs;
    seed = 0x5eedull + (uint64_t)k * 0xBF58476D1CE4E5B9ull;
    r.ctx = ctx;
    r.c = &c;
    r.step = -1;
    r.op = "sa_alloc_init";
    r.req = NULL;
    r.compared = 0;
    f = ad_fast_make(&c.d, &rf);
    g = ad_ref_make(&c.d, &rg);
    if (f == NULL || g == NULL) {
        ad_fail(&r, "sa_alloc_init failed", NULL, NULL);
        fprintf(stderr, "    fast: %s; reference: %s\n", sa_result_string(rf), sa_result_string(rg));
        ad_fast_free(f);
        ad_ref_free(g);
        return -1;
    }
    for (step = 0; step < c.steps && ok; step++) {
        uint64_t req[64], req2[64];
        sa_read_buffer views[32];
        const sa_read_buffer *bufs = c.use_bufs ? views : NULL;
        const uint8_t *p;
        sa_match mf, mg;
        int nf, ng;
        ad_requests(&seed, &c, req, views);
        p = ad_prio(&seed, &c, prio);
        r.step = step;
        r.req = req;
        memset(&mf, 0x5A, sizeof mf);
        memset(&mg, 0xA5, sizeof mg);
        if (c.pipelined && st_rand_below(&seed, 2)) {
            int8_t nom_f[64], nom_g[64];
            r.op = "sa_spaa_nominate";
            nf = ad_fast_nominate(f, req, p, bufs, nom_f);
            ng = ad_ref_nominate(g, req, p, bufs, nom_g);
            r.compared++;
            if (nf != ng || memcmp(nom_f, nom_g, (size_t)n) != 0) {
                ad_fail(&r, "sa_spaa_nominate: the builds nominate differently", NULL, NULL);
                break;
            }
            for (i = 0; i < n; i++)
                if (nom_g[i] >= 0 && !((req[i] & c.connect[i]) >> nom_g[i] & 1u)) {
                    ad_fail(&r, "sa_spaa_nominate: a nomination was not requested or not connected", NULL, NULL);
                    ok = 0;
                    break;
                }
            if (!ok) break;
            if (st_rand_below(&seed, 3) == 0) {
                /* another allocation before the grant */
                const uint8_t *p2;
                ad_requests(&seed, &c, req2, views);
                p2 = ad_prio(&seed, &c, prio);
                r.op = "sa_allocate between nominate and grant";
                r.req = req2;
                nf = ad_fast_allocate(f, req2, p2, bufs, &mf);
                ng = ad_ref_allocate(g, req2, p2, bufs, &mg);
                ok = ad_same_match(&r, nf, ng, &mf, &mg);
                r.req = req;
            }
            for (i = 0; i < n; i++)
                if (st_rand_below(&seed, 4) == 0) nom_f[i] = nom_g[i] = -1;
            r.op = "sa_spaa_grant";
            nf = ad_fast_grant(f, nom_f, &mf);
            ng = ad_ref_grant(g, nom_g, &mg);
            ok = ok && ad_same_match(&r, nf, ng, &mf, &mg);
        } else {
            r.op = p ? "sa_allocate with priorities" : "sa_allocate without priorities";
            nf = ad_fast_allocate(f, req, p, bufs, &mf);
            ng = ad_ref_allocate(g, req, p, bufs, &mg);
            ok = ad_same_match(&r, nf, ng, &mf, &mg);
        }
        ok = ok && ad_same_state(&r, f, g);
        if (ok && st_rand_below(&seed, 16) == 0) {
            /* Carry on with copies; the originals' memory is freed. */
            ad_alloc *f2 = ad_fast_copy(f), *g2 = ad_ref_copy(g);
            ad_fast_free(f);
            ad_ref_free(g);
            f = f2;
            g = g2;
            r.op = "sa_alloc_copy";
            if (f == NULL || g == NULL) { ad_fail(&r, "sa_alloc_copy failed", NULL, NULL); ok = 0; }
            else ok = ad_same_state(&r, f, g);
        }
    }
    ad_fast_free(f);
    ad_ref_free(g);
    return ok ? r.compared : -1;
}

/* Configurations [first, last); returns the request sets compared, or -1. */
static long ad_run_range(st_ctx *ctx, long first, long last) {
    long k, total = 0;
    for (k = first; k < last; k++) {
        long got = ad_run_config(ctx, k);
        if (got < 0) return -1;
        total += got;
    }
    return total;
}

ST_TEST(alloc_diff_random_sets_fast_equals_reference) {
    const char *only = getenv("ALLOC_DIFF_CONFIG");
    /* make test: AD_SAMPLE_ROUNDS rounds; --long: until 10^7 request sets */
    long total = 0, rounds = 0, target = ST_LONG ? 10000000L : 0;
    if (only != NULL && *only != 0) {
        char *end;
        long k = strtol(only, &end, 10);
        ST_CHECKF(*end == 0 && k >= 0, "ALLOC_DIFF_CONFIG=%s is not a configuration number", only);
        ST_CHECK(ad_run_config(st__ctx, k) >= 0);
        return;
    }
    do {
        long got = ad_run_range(st__ctx, rounds * AD_ROUND, (rounds + 1) * AD_ROUND);
        if (got < 0) return;
        total += got;
        rounds++;
        if (ST_LONG) fprintf(stderr, "  alloc_diff: round %ld, %ld request sets compared\n", rounds, total);
    } while (total < target || (!ST_LONG && rounds < AD_SAMPLE_ROUNDS));
    printf("alloc_diff: %ld request sets compared in %ld configurations (%s build against SA_NO_SIMD)\n",
           total, rounds * AD_ROUND, ad_fast_simd() ? "SSE2" : "reference");
    ST_CHECK(total >= AD_ALL_SIZES * AD_STEPS_ALL);
}

/* ------------------------------------------------------------ builds */

ST_TEST(alloc_diff_builds_are_what_they_say) {
    ST_EQ(0, ad_ref_simd());
#if defined(__SSE2__) || defined(_M_X64)
    ST_EQ(1, ad_fast_simd());
#endif
}

/* The regression hashes of alloc_workload.h, in both builds.  Pinned from
 * the allocators of commit 28299a2 (the last before the reference-first
 * rewrite; gcc C11): without PIM the value every build of it gave (first
 * computed from the allocators before any speed work, header of commit
 * dc2fa2c); with PIM its SA_NO_SIMD build's value; the scenario hash is the
 * value every build gave. */
ST_TEST(alloc_diff_pinned_regression_hashes) {
    ST_EQ_U64(0xa6dcfcdeebb81ad0ull, ad_ref_workload_hash(0));
    ST_EQ_U64(0xa6dcfcdeebb81ad0ull, ad_fast_workload_hash(0));
    ST_EQ_U64(0x5d1b8db9fa0da0fbull, ad_ref_workload_hash(1));
    ST_EQ_U64(0x5d1b8db9fa0da0fbull, ad_fast_workload_hash(1));
    ST_EQ_U64(0xb6a8734843235bbfull, ad_ref_scenario_hash());
    ST_EQ_U64(0xb6a8734843235bbfull, ad_fast_scenario_hash());
}
