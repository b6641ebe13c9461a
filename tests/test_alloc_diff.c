/* test_alloc_diff.c - differential tests of the switch allocators: the
 * build users get by default (the >>fast kernels of seastar_arb.h where
 * the target has them; alloc_diff_fast.c) against the reference build
 * (SA_NO_SIMD; alloc_diff_ref.c), both through the public API only, with
 * SA_ASSERT compiled out.
 *
 * Each configuration is an allocator description and a stream of random
 * request sets given to one allocator of each build.  After every call the
 * two results must be equal in every entry sa_match specifies (those
 * within the allocator's sizes), with the same return value, and the state
 * that can be read the same (PIM's generator, WFA's start cell and priority
 * diagonal, the round-robin pointers); SPAA's arbiters, which the fast
 * kernels may hold in a form of their own, are compared by the decisions
 * they lead to.  Every result must also be a matching of requested,
 * connected cells.
 *
 * What the configurations cover: every size from 1 x 1 to 64 x 64 (one
 * configuration each per round, the kind rotating), and the sizes
 * simulators use (16 x 7, 8 x 8, 5 x 5, 7 x 7, 16 x 16, 63 x 63, 64 x 64 ...)
 * and the corners of SPAA's register kernels (8 x 9, 13 x 16)
 * with every kind in six variants each; densities 0.01 to 1, uniform,
 * skewed per row, very sparse (one to three cells), very dense, hot
 * columns, none at all; unconnected cells (scattered, whole rows and
 * columns, the 21364's pattern); int32_t priorities with many ties or
 * none, over the whole range, all equal (which the fast build must treat
 * as none: such calls give the priorities to one build and NULL to the
 * other), and calls with and without them mixed on one allocator; the
 * options (either wave-front diagonals, either pointer rule of separable
 * output-first, either rule for an allocation without requests) on every
 * kind; read-port pairs with sa_read_buffer views; the Rotary Rule; 1, 2, 3
 * and converged iterations; SPAA's pipelined sa_spaa_nominate /
 * sa_spaa_grant (another allocation in between, part of the nominations
 * granted); sa_switch_copy in the middle of a stream (the copies carry on);
 * request bits at or above num_outputs.
 *
 * Beyond one word (the word-general kernels): the sizes around the word
 * boundaries (63, 64, 65, 127, 128, 511, 512, in squares and mixed with
 * each other and with small sizes) with every kind in every option that
 * changes what it computes (AD_WIDE_KINDS: both wave-front diagonals,
 * holding and advancing when idle, both pointer rules, one to many
 * iterations, the Rotary Rule), the rest drawn as above.
 *
 * make test runs three rounds of the sizes up to 64 (AD_SAMPLE_ROUNDS) and
 * the wide configurations once, about 190,000 request sets; make
 * check-long runs rounds until at least 10^7 request sets have been
 * compared, and every size from 1 to 512 (as inputs, with a random number
 * of outputs, and the square) with every kind.  Both print the count.
 * A failure names its configuration; ALLOC_DIFF_CONFIG=k runs
 * configuration k alone, ALLOC_DIFF_CONFIG=k-l configurations k to l
 * (runner alloc_diff_random). */
#include <stdlib.h>
#include "st_test.h"
#include "alloc_diff.h"
#include "alloc_test_util.h"

/* Words of the largest request row, and of a set of inputs. */
#define AD_MAXW SA_WORDS(SA_SWITCH_MAX)

/* The sizes of the second part of a round: every kind, AD_VARIANTS
 * variants. */
static const int ad_sizes[][2] = {
    { 16, 7 }, { 8, 8 }, { 5, 5 }, { 7, 7 }, { 16, 16 }, { 63, 63 }, { 64, 64 }, { 1, 1 },
    { 16, 8 }, { 64, 32 }, { 33, 64 }, { 48, 48 }, { 63, 64 }, { 64, 63 }, { 1, 64 }, { 64, 1 },
    { 8, 9 }, { 13, 16 } };
/* The sizes of the wide configurations: beyond one word, each with every
 * entry of ad_wide_kinds. */
static const int ad_wide_sizes[][2] = {
    { 65, 65 }, { 64, 65 }, { 65, 64 }, { 63, 127 }, { 127, 128 }, { 128, 127 }, { 128, 63 },
    { 16, 100 }, { 100, 7 }, { 80, 80 }, { 511, 512 }, { 512, 511 }, { 512, 3 }, { 3, 512 } };
/* A kind and the options that change what it computes. */
typedef struct ad_kind_options {
    sa_switch_kind kind;
    int iterations, wavefront, pointer_rule, idle, rotary;
} ad_kind_options;
static const ad_kind_options ad_wide_kinds[] = {
    { SA_SWITCH_SPAA, 1, 0, 0, 0, 0 },
    { SA_SWITCH_SPAA, 1, 0, 0, 0, 1 },
    { SA_SWITCH_WFA, 1, 0, 0, 0, 0 },
    { SA_SWITCH_WFA, 1, 0, 0, SA_IDLE_HOLD, 1 },
    { SA_SWITCH_WFA_WRAPPED, 1, SA_WAVEFRONT_DIAGONAL, 0, SA_IDLE_ADVANCE, 0 },
    { SA_SWITCH_WFA_WRAPPED, 1, SA_WAVEFRONT_DIAGONAL, 0, SA_IDLE_HOLD, 1 },
    { SA_SWITCH_WFA_WRAPPED, 1, SA_WAVEFRONT_ANTIDIAGONAL, 0, SA_IDLE_HOLD, 0 },
    { SA_SWITCH_WFA_WRAPPED, 1, SA_WAVEFRONT_ANTIDIAGONAL, 0, SA_IDLE_ADVANCE, 1 },
    { SA_SWITCH_PIM, 1, 0, 0, 0, 0 },
    { SA_SWITCH_PIM, 2, 0, 0, 0, 1 },
    { SA_SWITCH_PIM, SA_ITERATE_TO_CONVERGENCE, 0, 0, 0, 0 },
    { SA_SWITCH_ISLIP, 1, 0, 0, 0, 0 },
    { SA_SWITCH_ISLIP, 3, 0, 0, 0, 0 },
    { SA_SWITCH_ISLIP, SA_ITERATE_TO_CONVERGENCE, 0, 0, 0, 0 },
    { SA_SWITCH_OPF, 1, 0, 0, 0, 0 },
    { SA_SWITCH_SEP_INPUT, 1, 0, 0, 0, 0 },
    { SA_SWITCH_SEP_OUTPUT, 1, 0, SA_POINTER_RRM, 0, 0 },
    { SA_SWITCH_SEP_OUTPUT, 1, 0, SA_POINTER_ON_MATCH, 0, 0 },
    { SA_SWITCH_MCM, 1, 0, 0, 0, 0 } };
#define AD_NSIZES ((long)(sizeof ad_sizes / sizeof ad_sizes[0]))
#define AD_NWIDE ((long)(sizeof ad_wide_sizes / sizeof ad_wide_sizes[0]))
#define AD_WIDE_KINDS ((long)(sizeof ad_wide_kinds / sizeof ad_wide_kinds[0]))
#define AD_KINDS ((long)SA_SWITCH_KIND_COUNT)
#define AD_ALL_SIZES (64L * 64L)
#define AD_VARIANTS 6
#define AD_NAMED (AD_NSIZES * AD_KINDS * AD_VARIANTS)
#define AD_ROUND (AD_ALL_SIZES + AD_NAMED)
/* The wide configurations, after every round: AD_WIDE of them, then (long
 * runs) every size 1..512 as inputs with a random number of outputs and as
 * the square, every kind (AD_EVERY). */
#define AD_WIDE (AD_NWIDE * AD_WIDE_KINDS)
#define AD_EVERY (512L * 2L * AD_KINDS)
/* Rounds that make test runs. */
#define AD_SAMPLE_ROUNDS 3
/* Request sets per configuration: every size, the named sizes, the wide
 * ones (fewer from 20,000 cells). */
#define AD_STEPS_ALL 8
#define AD_STEPS_NAMED 32
#define AD_STEPS_WIDE 6
#define AD_STEPS_HUGE 2

/* Densities, in 256ths: 0.01 0.03 0.05 0.1 0.2 0.3 0.5 0.7 0.9 0.97 0.99 1. */
static const unsigned ad_density[] = { 3, 8, 13, 26, 51, 77, 128, 179, 230, 248, 253, 256 };
#define AD_NDENS ((uint32_t)(sizeof ad_density / sizeof ad_density[0]))

typedef struct ad_cfg {
    long index;
    sa_switch_desc d;
    int steps;
    int w;            /* words of a request row */
    int use_bufs;     /* read-port pairs: pass the buffer views */
    int prio_mode;    /* 0: never, 1: always, 2: some calls */
    int out_of_range; /* add request bits at or above num_outputs */
    int pipelined;    /* SPAA: some steps through nominate and grant */
    uint64_t no_connect[SA_SWITCH_MAX * AD_MAXW]; /* d.no_connect points here */
    uint64_t connect[SA_SWITCH_MAX * AD_MAXW];
} ad_cfg;

static int ad_rotary_kind(sa_switch_kind k) {
    return k == SA_SWITCH_SPAA || k == SA_SWITCH_WFA || k == SA_SWITCH_WFA_WRAPPED || k == SA_SWITCH_PIM;
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

/* Mask of the bits of word k of a row over m outputs. */
static uint64_t ad_word_mask(int m, int k) { return ta_low_mask(m - 64 * k < 0 ? 0 : m - 64 * k); }

static void ad_set(uint64_t *row, int j) { row[j >> 6] |= (uint64_t)1 << (j & 63); }
static void ad_clear(uint64_t *row, int j) { row[j >> 6] &= ~((uint64_t)1 << (j & 63)); }
static int ad_has(const uint64_t *row, int j) { return (int)((row[j >> 6] >> (j & 63)) & 1u); }

/* The configuration of index k: its kind and size from the schedule of a
 * round (k below AD_ROUNDS_MAX * AD_ROUND), or the wide configuration
 * k - AD_ROUNDS_MAX * AD_ROUND, everything else drawn from a generator
 * seeded by k. */
#define AD_ROUNDS_MAX 1000L
static void ad_config(long k, ad_cfg *c) {
    long o = k % AD_ROUND, round = k / AD_ROUND;
    uint64_t seed = 0xd1ffd1ffull ^ ((uint64_t)k * 0x9E3779B97F4A7C15ull);
    int n, m, variant = -1, wide = 0, i, w, x;
    const ad_kind_options *ko = NULL;
    sa_switch_kind kind;
    sa_switch_desc *d = &c->d;
    if (round >= AD_ROUNDS_MAX) {
        long q = k - AD_ROUNDS_MAX * AD_ROUND;
        wide = 1;
        if (q < AD_WIDE) {
            n = ad_wide_sizes[q % AD_NWIDE][0];
            m = ad_wide_sizes[q % AD_NWIDE][1];
            ko = &ad_wide_kinds[q / AD_NWIDE];
            kind = ko->kind;
        } else { /* every size */
            q -= AD_WIDE;
            n = (int)(q / (2 * AD_KINDS)) % 512 + 1;
            kind = (sa_switch_kind)(q % AD_KINDS);
            m = (q / AD_KINDS) % 2 ? n : (int)st_rand_below(&seed, 512) + 1;
        }
        c->steps = n * m >= 20000 ? AD_STEPS_HUGE : AD_STEPS_WIDE;
    } else if (o < AD_ALL_SIZES) {
        n = (int)(o / 64) + 1;
        m = (int)(o % 64) + 1;
        kind = (sa_switch_kind)((o + round) % AD_KINDS);
        c->steps = AD_STEPS_ALL;
    } else { /* (o < AD_ALL_SIZES + AD_NAMED = AD_ROUND) */
        long q = o - AD_ALL_SIZES;
        n = ad_sizes[q % AD_NSIZES][0];
        m = ad_sizes[q % AD_NSIZES][1];
        kind = (sa_switch_kind)((q / AD_NSIZES) % AD_KINDS);
        variant = (int)(q / (AD_NSIZES * AD_KINDS));  /* 0 .. AD_VARIANTS - 1 */
        c->steps = AD_STEPS_NAMED;
    }
    c->index = k;
    c->w = w = SA_WORDS(m);
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
    case 0: break;
    case 1: for (i = 0; i < n; i++) ad_set(d->network_inputs, i); break;
    case 2: for (i = 0; i < n && i < 8; i++) ad_set(d->network_inputs, i); break;
    default:
        for (i = 0; i < SA_WORDS(n); i++) d->network_inputs[i] = st_rand(&seed) & ad_word_mask(n, i);
        break;
    }
    d->rotary = ad_rotary_kind(kind) && st_rand_below(&seed, 2);
    d->read_port_pairs = n % 2 == 0 && n <= 64 && m <= 64 && (kind != SA_SWITCH_MCM || m <= 8) &&
                         st_rand_below(&seed, 3) == 0;
    memset(c->no_connect, 0, sizeof c->no_connect);
    switch (st_rand_below(&seed, 6)) {
    case 3: /* scattered */
        for (i = 0; i < n * w; i++) c->no_connect[i] = st_rand(&seed) & st_rand(&seed) & st_rand(&seed);
        break;
    case 4: /* dense, or the 21364's pattern */
        if (n == 16 && m == 7) sa_21364_no_connect(c->no_connect);
        else for (i = 0; i < n * w; i++) c->no_connect[i] = st_rand(&seed);
        break;
    case 5: { /* whole rows and columns */
        uint64_t cols[AD_MAXW];
        for (x = 0; x < w; x++) cols[x] = st_rand(&seed) & st_rand(&seed);
        for (i = 0; i < n; i++) {
            int whole = st_rand_below(&seed, 8) == 0;
            for (x = 0; x < w; x++) c->no_connect[i * w + x] = whole ? ~(uint64_t)0 : cols[x];
        }
        break;
    }
    default: break;
    }
    c->prio_mode = (int)st_rand_below(&seed, 3);
    c->out_of_range = m % 64 != 0 && st_rand_below(&seed, 2) == 0;
    c->pipelined = kind == SA_SWITCH_SPAA && st_rand_below(&seed, 2);
    d->wavefront = (int)st_rand_below(&seed, 2);
    d->pointer_rule = (int)st_rand_below(&seed, 2);
    d->idle = (int)st_rand_below(&seed, 2);
    /* The named sizes' variants: 0 plain, 1 the Rotary Rule and network
     * inputs, 2 unconnected cells and read-port pairs, 3 request bits
     * outside the outputs, 4 converged, 5 as drawn. */
    if (variant == 0) {
        d->iterations = 1;
        d->rotary = d->read_port_pairs = 0;
        d->wavefront = d->pointer_rule = d->idle = 0;
        memset(c->no_connect, 0, sizeof c->no_connect);
        c->prio_mode = 2;
    } else if (variant == 1) {
        d->rotary = ad_rotary_kind(kind);
        d->network_inputs[0] = n > 1 ? (st_rand(&seed) & ta_low_mask(n)) | 1u : 1u;
        c->prio_mode = 1;
    } else if (variant == 2) {
        if (n == 16 && m == 7) sa_21364_no_connect(c->no_connect);
        else for (i = 0; i < n; i++) c->no_connect[i] = st_rand(&seed) & st_rand(&seed);
        d->read_port_pairs = n % 2 == 0 && (kind != SA_SWITCH_MCM || m <= 8);
        c->prio_mode = 2;
    } else if (variant == 3) {
        d->iterations = 1;
        c->out_of_range = m < 64;
        c->prio_mode = 2;
    } else if (variant == 4) {
        d->iterations = SA_ITERATE_TO_CONVERGENCE;
    }
    if (wide) d->rotary = ad_rotary_kind(kind) && (d->rotary || st_rand_below(&seed, 2));
    if (ko != NULL) {
        int any = 0;
        d->iterations = ko->iterations;
        d->wavefront = ko->wavefront;
        d->pointer_rule = ko->pointer_rule;
        d->idle = ko->idle;
        d->rotary = ko->rotary;
        for (x = 0; x < SA_WORDS(n); x++) any |= d->network_inputs[x] != 0;
        if (ko->rotary && !any) ad_set(d->network_inputs, n / 2);
    }
    for (i = 0; i < n; i++)
        for (x = 0; x < w; x++) {
            c->no_connect[i * w + x] &= ad_word_mask(m, x);
            c->connect[i * w + x] = ad_word_mask(m, x) & ~c->no_connect[i * w + x];
        }
    d->no_connect = c->no_connect;
    c->use_bufs = d->read_port_pairs && st_rand_below(&seed, 4) != 0;
}

/* One request set of the configuration, rows of c->w words (and the buffer
 * views with read-port pairs, which have one-word rows). */
static void ad_requests(uint64_t *seed, const ad_cfg *c, uint64_t *req, sa_read_buffer *views) {
    int n = c->d.num_inputs, m = c->d.num_outputs, w = c->w, i, b, t, x;
    unsigned p = ad_rand_density(seed);
    uint64_t hot[AD_MAXW];
    switch (st_rand_below(seed, 9)) {
    case 8: /* nothing requested */
        for (i = 0; i < n * w; i++) req[i] = 0;
        break;
    case 3: /* skewed: every row its own density, some empty, some full */
        for (i = 0; i < n; i++) {
            uint32_t r = st_rand_below(seed, 8);
            unsigned rd = r > 1 ? ad_rand_density(seed) : 0;
            for (x = 0; x < w; x++) req[i * w + x] = r == 0 ? 0 : r == 1 ? ~(uint64_t)0 : ad_row(seed, rd);
        }
        break;
    case 4: /* very sparse: one to three cells */
        for (i = 0; i < n * w; i++) req[i] = 0;
        for (t = 0; t <= (int)st_rand_below(seed, 3); t++) {
            i = (int)st_rand_below(seed, (uint32_t)n);
            ad_set(req + i * w, (int)st_rand_below(seed, (uint32_t)m));
        }
        break;
    case 5: /* very dense: all but one to three cells */
        for (i = 0; i < n * w; i++) req[i] = ~(uint64_t)0;
        for (t = 0; t <= (int)st_rand_below(seed, 3); t++) {
            i = (int)st_rand_below(seed, (uint32_t)n);
            ad_clear(req + i * w, (int)st_rand_below(seed, (uint32_t)m));
        }
        break;
    case 6: /* hot columns over a sparse background */
        for (x = 0; x < w; x++) hot[x] = 0;
        ad_set(hot, (int)st_rand_below(seed, (uint32_t)m));
        ad_set(hot, (int)st_rand_below(seed, (uint32_t)m));
        for (i = 0; i < n; i++)
            for (x = 0; x < w; x++) req[i * w + x] = (hot[x] & ad_row(seed, p)) | ad_row(seed, 8);
        break;
    case 7: /* rows almost empty or almost full */
        for (i = 0; i < n; i++) {
            unsigned rd = st_rand_below(seed, 2) ? 5 : 251;
            for (x = 0; x < w; x++) req[i * w + x] = ad_row(seed, rd);
        }
        break;
    default: /* uniform */
        for (i = 0; i < n * w; i++) req[i] = ad_row(seed, p);
        break;
    }
    for (i = 0; i < n; i++)
        for (x = 0; x < w; x++) req[i * w + x] &= ad_word_mask(m, x);
    if (c->use_bufs) /* (read-port pairs: n and m at most 64, one word a row) */
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
            if (st_rand_below(seed, 3) == 0) req[i * w + w - 1] |= st_rand(seed) & ~ad_word_mask(m, w - 1);
}

/* Priorities for one call, or NULL: a few values (2, 4, 16 or 256, some
 * negative), the whole int32_t range, the two extremes only, or all equal
 * (*equal set; the extremes among the values).  From 20,000 cells only two
 * values or all equal: every priority level costs the wave fronts a sweep
 * of the matrix (wrapped WFA at 512 x 512: some 50 ms a level). */
static const int32_t *ad_prio(uint64_t *seed, const ad_cfg *c, int32_t *prio, int *equal) {
    static const uint8_t masks[4] = { 1, 3, 15, 255 };
    static const int32_t constants[5] = { INT32_MIN, -1, 0, 7, INT32_MAX };
    int cells = c->d.num_inputs * c->d.num_outputs, i, how;
    *equal = 0;
    if (c->prio_mode == 0 || (c->prio_mode == 2 && st_rand_below(seed, 2))) return NULL;
    how = (int)st_rand_below(seed, 8);
    if (cells >= 20000 && how != 0) how = 7;
    if (how < 4) {
        uint8_t mask = masks[how];
        int32_t bias = st_rand_below(seed, 2) ? 0 : (int32_t)mask / 2 + 1;
        for (i = 0; i < cells; i += 8) {
            uint64_t r = st_rand(seed);
            int b;
            for (b = 0; b < 8 && i + b < cells; b++) prio[i + b] = (int32_t)((r >> (8 * b)) & mask) - bias;
        }
    } else if (how == 4) {
        for (i = 0; i < cells; i++) prio[i] = ta_rand_prio32(seed);
    } else if (how == 5) {
        for (i = 0; i < cells; i++) prio[i] = st_rand_below(seed, 2) ? INT32_MIN : INT32_MAX;
    } else {
        int32_t v = constants[st_rand_below(seed, 5)];
        for (i = 0; i < cells; i++) prio[i] = v;
        *equal = 1;
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

static void ad_print_words(const char *what, const uint64_t *x, int rows, int w) {
    int i, k;
    fprintf(stderr, "    %s:", what);
    for (i = 0; i < rows; i++) {
        fprintf(stderr, " ");
        for (k = w - 1; k >= 0; k--) fprintf(stderr, k == w - 1 ? "%llx" : "_%016llx", (unsigned long long)x[i * w + k]);
    }
    fprintf(stderr, "\n");
}

static void ad_print_config(const ad_cfg *c) {
    const sa_switch_desc *d = &c->d;
    fprintf(stderr, "    configuration %ld (rerun alone: ALLOC_DIFF_CONFIG=%ld runner alloc_diff_random)\n",
            c->index, c->index);
    fprintf(stderr, "    %s %d x %d, iterations %d, rotary %d, read_port_pairs %d (views %s), wavefront %d, "
                    "pointer_rule %d, idle %d, seed 0x%llx\n",
            sa_switch_kind_name(d->kind), d->num_inputs, d->num_outputs, d->iterations, d->rotary,
            d->read_port_pairs, c->use_bufs ? "passed" : "NULL", d->wavefront, d->pointer_rule, d->idle,
            (unsigned long long)d->seed);
    ad_print_words("network_inputs", d->network_inputs, 1, SA_WORDS(d->num_inputs));
    ad_print_words("no_connect", c->no_connect, d->num_inputs, c->w);
}

static void ad_fail(ad_run *r, const char *what, const sa_match *fast, const sa_match *ref) {
    int i;
    st_fail_begin(r->ctx, __FILE__, __LINE__, what);
    ad_print_config(r->c);
    fprintf(stderr, "    step %d (%s)\n", r->step, r->op);
    if (r->req) ad_print_words("requests", r->req, r->c->d.num_inputs, r->c->w);
    if (fast && ref) {
        fprintf(stderr, "    output_of fast/ref:");
        for (i = 0; i < r->c->d.num_inputs; i++)
            if (fast->output_of[i] != ref->output_of[i])
                fprintf(stderr, " [%d] %d/%d", i, fast->output_of[i], ref->output_of[i]);
        fprintf(stderr, "\n    size %d/%d\n", fast->size, ref->size);
    }
}

/* The words of a set of `size` members, the last masked (sa_match
 * specifies only the members within the sizes). */
static int ad_same_set(const uint64_t *a, const uint64_t *b, int size) {
    int k;
    for (k = 0; k < SA_WORDS(size); k++)
        if ((a[k] & ad_word_mask(size, k)) != (b[k] & ad_word_mask(size, k))) return 0;
    return 1;
}

/* A matching of requested, connected cells over the sizes, its sets and
 * size consistent with its pairs; 0 or a message. */
static const char *ad_matching_error(const ad_cfg *c, const uint64_t *req, const sa_match *mt) {
    static unsigned char taken[SA_SWITCH_MAX];
    int n = c->d.num_inputs, m = c->d.num_outputs, i, j, size = 0;
    memset(taken, 0, sizeof taken);
    for (i = 0; i < n; i++) {
        j = mt->output_of[i];
        if (ad_has(mt->inputs, i) != (j >= 0)) return "the set of matched inputs disagrees with output_of";
        if (j == -1) continue;
        if (j < 0 || j >= m) return "output_of beyond the sizes";
        if (taken[j] || mt->input_of[j] != i) return "input_of is not the inverse of output_of";
        if (req != NULL && !(ad_has(req + i * c->w, j) && ad_has(c->connect + i * c->w, j)))
            return "a matched cell was not requested, or is not connected";
        taken[j] = 1;
        size++;
    }
    for (j = 0; j < m; j++) {
        if (ad_has(mt->outputs, j) != taken[j]) return "the set of matched outputs disagrees with input_of";
        if (!taken[j] && mt->input_of[j] != -1) return "input_of has a pair output_of lacks";
    }
    return size == mt->size ? 0 : "size disagrees with the pairs";
}

/* Every entry the two matchings specify equal, and the result a matching of
 * requested, connected cells. */
static int ad_same_match(ad_run *r, int ret_fast, int ret_ref, const sa_match *f, const sa_match *g) {
    const ad_cfg *c = r->c;
    int n = c->d.num_inputs, m = c->d.num_outputs;
    const char *err;
    r->compared++;
    if (ret_fast != ret_ref || f->size != g->size || !ad_same_set(f->inputs, g->inputs, n) ||
        !ad_same_set(f->outputs, g->outputs, m) ||
        memcmp(f->output_of, g->output_of, (size_t)n * sizeof f->output_of[0]) != 0 ||
        memcmp(f->input_of, g->input_of, (size_t)m * sizeof f->input_of[0]) != 0) {
        ad_fail(r, "the fast and the reference build return different matchings", f, g);
        return 0;
    }
    if (ret_ref != g->size) { ad_fail(r, "the return value is not the matching's size", f, g); return 0; }
    err = ad_matching_error(c, r->req, g);
    if (err != 0) { ad_fail(r, err, f, g); return 0; }
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
    static int32_t prio[SA_SWITCH_MAX * SA_SWITCH_MAX];
    static uint64_t req[SA_SWITCH_MAX * AD_MAXW], req2[SA_SWITCH_MAX * AD_MAXW];
    static ad_cfg c;
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
    r.op = "sa_switch_init";
    r.req = NULL;
    r.compared = 0;
    f = ad_fast_make(&c.d, &rf);
    g = ad_ref_make(&c.d, &rg);
    if (f == NULL || g == NULL) {
        ad_fail(&r, "sa_switch_init failed", NULL, NULL);
        fprintf(stderr, "    fast: %s; reference: %s\n", sa_result_string(rf), sa_result_string(rg));
        ad_fast_free(f);
        ad_ref_free(g);
        return -1;
    }
    for (step = 0; step < c.steps && ok; step++) {
        sa_read_buffer views[32];
        const sa_read_buffer *bufs = c.use_bufs ? views : NULL;
        const int32_t *p, *pf, *pg;
        sa_match mf, mg;
        int nf, ng, equal;
        ad_requests(&seed, &c, req, views);
        p = ad_prio(&seed, &c, prio, &equal);
        /* all-equal priorities decide as none: one build gets NULL */
        pf = equal && st_rand_below(&seed, 2) ? NULL : p;
        pg = equal && pf != NULL ? NULL : p;
        r.step = step;
        r.req = req;
        memset(&mf, 0x5A, sizeof mf);
        memset(&mg, 0xA5, sizeof mg);
        if (c.pipelined && st_rand_below(&seed, 2)) {
            int16_t nom_f[SA_SWITCH_MAX], nom_g[SA_SWITCH_MAX];
            r.op = "sa_spaa_nominate";
            nf = ad_fast_nominate(f, req, pf, bufs, nom_f);
            ng = ad_ref_nominate(g, req, pg, bufs, nom_g);
            r.compared++;
            if (nf != ng || memcmp(nom_f, nom_g, (size_t)n * sizeof nom_f[0]) != 0) {
                ad_fail(&r, "sa_spaa_nominate: the builds nominate differently", NULL, NULL);
                break;
            }
            for (i = 0; i < n; i++)
                if (nom_g[i] >= 0 && !(ad_has(req + i * c.w, nom_g[i]) && ad_has(c.connect + i * c.w, nom_g[i]))) {
                    ad_fail(&r, "sa_spaa_nominate: a nomination was not requested or not connected", NULL, NULL);
                    ok = 0;
                    break;
                }
            if (!ok) break;
            if (st_rand_below(&seed, 3) == 0) {
                /* another allocation before the grant */
                const int32_t *p2;
                int equal2;
                ad_requests(&seed, &c, req2, views);
                p2 = ad_prio(&seed, &c, prio, &equal2);
                r.op = "sa_switch_allocate between nominate and grant";
                r.req = req2;
                nf = ad_fast_allocate(f, req2, p2, bufs, &mf);
                ng = ad_ref_allocate(g, req2, equal2 ? NULL : p2, bufs, &mg);
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
            r.op = equal ? (pf ? "sa_switch_allocate with equal priorities (fast) and without (reference)"
                               : "sa_switch_allocate without priorities (fast) and with equal ones (reference)")
                 : p ? "sa_switch_allocate with priorities" : "sa_switch_allocate without priorities";
            nf = ad_fast_allocate(f, req, pf, bufs, &mf);
            ng = ad_ref_allocate(g, req, pg, bufs, &mg);
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
            r.op = "sa_switch_copy";
            if (f == NULL || g == NULL) { ad_fail(&r, "sa_switch_copy failed", NULL, NULL); ok = 0; }
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
    /* make test: AD_SAMPLE_ROUNDS rounds and the wide configurations;
     * --long: rounds until 10^7 request sets, then every size too */
    long total = 0, rounds = 0, target = ST_LONG ? 10000000L : 0, got;
    if (only != NULL && *only != 0) { /* K, or K-L: configurations K to L */
        char *end, *end2;
        long k = strtol(only, &end, 10), l = k;
        if (*end == '-') l = strtol(end + 1, &end2, 10), end = end2;
        ST_CHECKF(*end == 0 && k >= 0 && l >= k, "ALLOC_DIFF_CONFIG=%s is not a configuration number or range", only);
        ST_CHECK(ad_run_range(st__ctx, k, l + 1) >= 0);
        return;
    }
    do {
        got = ad_run_range(st__ctx, rounds * AD_ROUND, (rounds + 1) * AD_ROUND);
        if (got < 0) return;
        total += got;
        rounds++;
        if (ST_LONG) fprintf(stderr, "  alloc_diff: round %ld, %ld request sets compared\n", rounds, total);
    } while (rounds < AD_ROUNDS_MAX && (total < target || (!ST_LONG && rounds < AD_SAMPLE_ROUNDS)));
    got = ad_run_range(st__ctx, AD_ROUNDS_MAX * AD_ROUND, AD_ROUNDS_MAX * AD_ROUND + AD_WIDE + (ST_LONG ? AD_EVERY : 0));
    if (got < 0) return;
    total += got;
    printf("alloc_diff: %ld request sets compared in %ld configurations (%s build against SA_NO_SIMD)\n",
           total, rounds * AD_ROUND + AD_WIDE + (ST_LONG ? AD_EVERY : 0), ad_fast_simd() ? "SSE2" : "reference");
    ST_CHECK(total >= AD_ALL_SIZES * AD_STEPS_ALL);
}

/* ------------------------------------------------------------ builds */

ST_TEST(alloc_diff_builds_are_what_they_say) {
    ST_EQ(0, ad_ref_simd());
#if defined(__SSE2__) || defined(_M_X64)
    ST_EQ(1, ad_fast_simd());
#endif
}

/* The regression hashes of alloc_workload.h, in both builds.
 *
 * Priorities given to SPAA, OPF and MCM only (prio_to_all 0): the
 * decisions that integer priorities on every allocator left alone.
 * Pinned from the allocators of commit 28299a2 (the last before the
 * reference-first rewrite; gcc C11): without PIM the value every build of
 * it gave (first computed from the allocators before any speed work,
 * header of commit dc2fa2c); with PIM its SA_NO_SIMD build's value; the
 * scenario hash is the value every build gave.
 *
 * Priorities given to every allocator (prio_to_all 1): WFA, wrapped WFA,
 * PIM, iSLIP and both separable allocators now use them, so these
 * workloads decide differently.  Pinned from the allocators of commit
 * 28bfe1f (gcc C11, both builds alike), after their priorities were
 * checked against literal models: the wave front level by level with the
 * Rotary Rule and wrapped WFA with either diagonals (test_alloc_wfa.c,
 * test_alloc.c), PIM under its draw protocol (alloc_pim_ref.h), iSLIP-k,
 * RRM and the on-match rule, separable input-first as OPF
 * (test_alloc_wfa.c, test_alloc_opf.c), and test_switch_models.c. */
ST_TEST(alloc_diff_pinned_regression_hashes) {
    ST_EQ_U64(0xa6dcfcdeebb81ad0ull, ad_ref_workload_hash(0, 0));
    ST_EQ_U64(0xa6dcfcdeebb81ad0ull, ad_fast_workload_hash(0, 0));
    ST_EQ_U64(0x5d1b8db9fa0da0fbull, ad_ref_workload_hash(1, 0));
    ST_EQ_U64(0x5d1b8db9fa0da0fbull, ad_fast_workload_hash(1, 0));
    ST_EQ_U64(0xb6a8734843235bbfull, ad_ref_scenario_hash(0));
    ST_EQ_U64(0xb6a8734843235bbfull, ad_fast_scenario_hash(0));
    ST_EQ_U64(0x75f3a5c854d65d93ull, ad_ref_workload_hash(0, 1));
    ST_EQ_U64(0x75f3a5c854d65d93ull, ad_fast_workload_hash(0, 1));
    ST_EQ_U64(0x89a1c7ef69b5fe6aull, ad_ref_workload_hash(1, 1));
    ST_EQ_U64(0x89a1c7ef69b5fe6aull, ad_fast_workload_hash(1, 1));
    ST_EQ_U64(0x17bea4a0aaf48a21ull, ad_ref_scenario_hash(1));
    ST_EQ_U64(0x17bea4a0aaf48a21ull, ad_fast_scenario_hash(1));
}
