/* spaa_model.h - a literal SPAA (seed 002 Section 3.3) over brute-force
 * least-recently-selected arbiters (ranks in int arrays), and whole-SPAA
 * comparisons of sa_allocate and sa_spaa_nominate / sa_spaa_grant against
 * it, decision by decision, with the arbiters' orders read back through
 * the public functions (ts_probe); included by test_alloc_spaa.c. */
#ifndef SPAA_MODEL_H
#define SPAA_MODEL_H

/* The whole-SPAA comparisons at the end: a file that includes this one
 * only for the model need not call them. */
#if defined(__GNUC__)
#define TS_MAYBE_UNUSED __attribute__((unused))
#else
#define TS_MAYBE_UNUSED
#endif

/* ------------------------------------------------------------ the model */

/* Brute-force bank: rank[r][c] of requester c in arbiter r (0 = least
 * recently selected). */
typedef struct ts_bank {
    int rows, size;
    int rank[64][64];
} ts_bank;

static void ts_bank_init(ts_bank *b, int rows, int size) {
    int r, c;
    b->rows = rows;
    b->size = size;
    for (r = 0; r < rows; r++)
        for (c = 0; c < size; c++) b->rank[r][c] = c;
}

/* Least-recently-selected member of cand in arbiter r, or -1. */
static int ts_bank_select(const ts_bank *b, int r, uint64_t cand) {
    int c, best = -1;
    for (c = 0; c < b->size; c++)
        if (((cand >> c) & 1u) && (best < 0 || b->rank[r][c] < b->rank[r][best])) best = c;
    return best;
}

/* Arbiter r selected w: w goes last, everything behind it moves up. */
static void ts_bank_update(ts_bank *b, int r, int w) {
    int c, k = b->rank[r][w];
    for (c = 0; c < b->size; c++)
        if (b->rank[r][c] > k) b->rank[r][c]--;
    b->rank[r][w] = b->size - 1;
}

static uint64_t ts_random_subset(uint64_t *seed, int size) {
    uint64_t x = st_rand(seed);
    switch (st_rand_below(seed, 4)) {
    case 0: x &= st_rand(seed) & st_rand(seed); break;
    case 1: x &= st_rand(seed); break;
    case 2: x = (uint64_t)1 << st_rand_below(seed, 64); break;
    default: break;
    }
    return x & ta_low_mask(size);
}

/* ------------------------------------------------------------ whole SPAA */


/* A literal SPAA (seed 002 Section 3.3): per input arbiter and per output
 * arbiter, ranks in int arrays. */
typedef struct ts_spaa {
    int n, m, rotary, pairs;
    uint64_t net, connect[64];
    ts_bank in, out;
} ts_spaa;

static void ts_spaa_init(ts_spaa *s, const sa_alloc_desc *d) {
    int i;
    s->n = d->num_inputs;
    s->m = d->num_outputs;
    s->rotary = d->rotary;
    s->pairs = d->read_port_pairs;
    s->net = d->network_inputs;
    for (i = 0; i < s->n; i++) s->connect[i] = ta_low_mask(s->m) & ~d->no_connect[i];
    ts_bank_init(&s->in, s->n, s->m);
    ts_bank_init(&s->out, s->m, s->n);
}

/* Step 1: the highest priority among the connected requests, least
 * recently selected among those; the odd read port after its twin,
 * without the outputs that clash with the twin's nomination. */
static void ts_spaa_nominate(const ts_spaa *s, const uint64_t *req, const uint8_t *prio,
                             const sa_read_buffer *bufs, int8_t *nom) {
    int i, j;
    for (i = 0; i < s->n; i++) {
        uint64_t r = req[i] & s->connect[i];
        if (s->pairs && bufs != NULL && (i & 1) && nom[i - 1] >= 0)
            r &= ~sa_read_buffer_clash(&bufs[i >> 1], nom[i - 1]);
        if (prio != NULL && r != 0) {
            int top = -1;
            for (j = 0; j < s->m; j++)
                if (((r >> j) & 1u) && prio[i * s->m + j] > top) top = prio[i * s->m + j];
            for (j = 0; j < s->m; j++)
                if (((r >> j) & 1u) && prio[i * s->m + j] != top) r &= ~((uint64_t)1 << j);
        }
        nom[i] = (int8_t)ts_bank_select(&s->in, i, r);
    }
}

/* Steps 2-3: each output grants its least recently selected nominator
 * (network ones first with the Rotary Rule); both arbiters move. */
static void ts_spaa_grant(ts_spaa *s, const int8_t *nom, int8_t *input_of) {
    int i, j;
    for (j = 0; j < s->m; j++) {
        uint64_t c = 0;
        int w;
        for (i = 0; i < s->n; i++) if (nom[i] == j) c |= (uint64_t)1 << i;
        if (s->rotary && (c & s->net)) c &= s->net;
        w = ts_bank_select(&s->out, j, c);
        input_of[j] = (int8_t)w;
        if (w >= 0) {
            ts_bank_update(&s->out, j, w);
            ts_bank_update(&s->in, w, j);
        }
    }
}

/* The whole matching struct agrees with input_of. */
static int ts_match_is(const sa_match *mt, const int8_t *input_of, int n, int m) {
    int i, j, size = 0;
    uint64_t ins = 0, outs = 0;
    int8_t output_of[SA_ALLOC_MAX];
    for (i = 0; i < SA_ALLOC_MAX; i++) output_of[i] = -1;
    for (j = 0; j < m; j++)
        if (input_of[j] >= 0) {
            output_of[input_of[j]] = (int8_t)j;
            ins |= (uint64_t)1 << input_of[j];
            outs |= (uint64_t)1 << j;
            size++;
        }
    (void)n;
    for (i = 0; i < SA_ALLOC_MAX; i++) {
        if (mt->output_of[i] != output_of[i]) return 0;
        if (mt->input_of[i] != (i < m ? input_of[i] : -1)) return 0;
    }
    return mt->size == size && mt->inputs == ins && mt->outputs == outs;
}

/* The model's requester of rank k in arbiter r. */
static int ts_bank_at_rank(const ts_bank *b, int r, int k) {
    int c;
    for (c = 0; c < b->size; c++)
        if (b->rank[r][c] == k) return c;
    return -1;
}

/* The allocator's arbiters hold the model's orders, read through the
 * public API.  sa_spaa_nominate (which changes no state) with each input's
 * connected requests narrowed one output at a time reveals every input
 * arbiter's order.  For the output arbiters, sa_spaa_grant on copies
 * (sa_alloc_copy), every input nominating output j but those already
 * revealed, reveals output j's order (with the Rotary Rule, within each
 * class of inputs: a network input always beats a local one); only when
 * n x m <= 256, as it takes one copy per grant. */
static int ts_probe(const ta_alloc *src, const ts_spaa *s) {
    static ta_alloc x, y;
    uint64_t req[64], seen[64];
    int8_t nom[64];
    int i, j, k, cls;
    if (ta_alloc_copy(&x, src) != SA_OK) return 0;
    for (i = 0; i < s->n; i++) seen[i] = 0;
    for (k = 0; k < s->m; k++) {
        for (i = 0; i < s->n; i++) req[i] = s->connect[i] & ~seen[i];
        sa_spaa_nominate(&x.a, req, NULL, NULL, nom);
        for (i = 0; i < s->n; i++) {
            int want = -1, r;
            for (r = 0; r < s->m && want < 0; r++) {
                int c = ts_bank_at_rank(&s->in, i, r);
                if ((req[i] >> c) & 1u) want = c;
            }
            if (nom[i] != want) return 0;
            if (want >= 0) seen[i] |= (uint64_t)1 << want;
        }
    }
    if (s->n * s->m > 256) return 1;
    for (j = 0; j < s->m; j++)
        for (cls = 0; cls < 2; cls++) {
            /* the inputs probed together: all, or one class of the Rotary Rule */
            uint64_t group = ta_low_mask(s->n), revealed = 0;
            if (s->rotary && s->net) group &= cls ? s->net : ~s->net;
            else if (cls) break;
            for (k = 0; k < ta_bit_count(group); k++) {
                sa_match mt;
                int want = -1, r;
                for (i = 0; i < s->n; i++) nom[i] = (int8_t)(((group & ~revealed) >> i) & 1u ? j : -1);
                if (ta_alloc_copy(&y, &x) != SA_OK) return 0;
                sa_spaa_grant(&y.a, nom, &mt);
                for (r = 0; r < s->n && want < 0; r++) {
                    int c = ts_bank_at_rank(&s->out, j, r);
                    if (((group & ~revealed) >> c) & 1u) want = c;
                }
                if (mt.input_of[j] != want) return 0;
                revealed |= (uint64_t)1 << want;
            }
        }
    return 1;
}

static void ts_random_desc(uint64_t *seed, sa_alloc_desc *d, int trial) {
    int i;
    memset(d, 0, sizeof *d);
    d->kind = SA_ALLOC_SPAA;
    if (trial % 4 == 0) {
        d->num_inputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 16 ? SA_ALLOC_MAX : 16);
        d->num_outputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 8 ? SA_ALLOC_MAX : 8);
    } else if (trial % 4 == 1) {
        d->num_inputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 16 ? SA_ALLOC_MAX : 16);
        d->num_outputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX < 16 ? SA_ALLOC_MAX : 16);
    } else {
        d->num_inputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX);
        d->num_outputs = 1 + (int)st_rand_below(seed, SA_ALLOC_MAX);
    }
    d->rotary = (int)st_rand_below(seed, 2);
    d->network_inputs = st_rand(seed) & ta_low_mask(d->num_inputs);
    if (st_rand_below(seed, 2))
        for (i = 0; i < d->num_inputs; i++)
            d->no_connect[i] = st_rand(seed) & st_rand(seed) & ta_low_mask(d->num_outputs);
}

/* sa_allocate (priorities or not, so that a build with fast kernels
 * switches between them and the reference) against the literal SPAA,
 * matching and state, over random sizes 1..SA_ALLOC_MAX. */
TS_MAYBE_UNUSED static int ts_allocate_vs_literal(uint64_t seed, int trials) {
    int trial;
    for (trial = 0; trial < trials; trial++) {
        static uint8_t prio[64 * 64];
        static ta_alloc x;
        sa_alloc *al = &x.a;
        sa_alloc_desc d;
        ts_spaa ref;
        int t, i;
        ts_random_desc(&seed, &d, trial);
        if (ta_alloc_init(&x, &d) != SA_OK) return 0;
        ts_spaa_init(&ref, &d);
        for (t = 0; t < 40; t++) {
            uint64_t req[64];
            int8_t nom[64], input_of[64];
            sa_match mt;
            int use_prio = (int)st_rand_below(&seed, 3) == 0;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 4);
            sa_allocate(al, req, use_prio ? prio : NULL, NULL, &mt);
            ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, NULL, nom);
            ts_spaa_grant(&ref, nom, input_of);
            if (!ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs)) return 0;
        }
        if (!ts_probe(&x, &ref)) return 0;
    }
    return 1;
}

/* The pipelined use (examples/common/alpha_net.h): nominate now, other
 * allocations in between, then grant a subset of those nominations; and
 * the 21364 with read-port pairs and priorities. */
TS_MAYBE_UNUSED static int ts_pipelined_vs_literal(uint64_t seed, int trials) {
    int trial;
    for (trial = 0; trial < trials; trial++) {
        static uint8_t prio[64 * 64];
        static ta_alloc x;
        sa_alloc *al = &x.a;
        sa_alloc_desc d;
        ts_spaa ref;
        int t, i, paired = trial & 1;
        if (paired && SA_ALLOC_MAX >= 16) sa_alloc_desc_21364(&d, SA_ALLOC_SPAA, (trial >> 1) & 1);
        else ts_random_desc(&seed, &d, trial);
        if (ta_alloc_init(&x, &d) != SA_OK) return 0;
        ts_spaa_init(&ref, &d);
        for (t = 0; t < 40; t++) {
            uint64_t req[64], pk[4];
            int8_t nom[64], rnom[64], input_of[64];
            sa_read_buffer views[32];
            sa_match mt;
            int b, p, use_prio = (int)st_rand_below(&seed, 2);
            int pairs = d.read_port_pairs && SA_ALLOC_MAX >= 16;
            for (i = 0; i < d.num_inputs; i++) req[i] = ts_random_subset(&seed, d.num_outputs);
            if (pairs)
                for (b = 0; b < d.num_inputs / 2; b++) {
                    for (p = 0; p < 4; p++)
                        pk[p] = ((uint64_t)1 << st_rand_below(&seed, 7)) | ((uint64_t)1 << st_rand_below(&seed, 7));
                    sa_read_buffer_build(&views[b], pk, (int)st_rand_below(&seed, 5));
                    req[2 * b] &= views[b].any;
                    req[2 * b + 1] &= views[b].any;
                }
            for (i = 0; i < d.num_inputs * d.num_outputs; i++) prio[i] = (uint8_t)st_rand_below(&seed, 8);
            if (t % 3 == 2) {
                /* A whole allocation in between. */
                sa_allocate(al, req, use_prio ? prio : NULL, pairs ? views : NULL, &mt);
                ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, pairs ? views : NULL, rnom);
                ts_spaa_grant(&ref, rnom, input_of);
                if (!ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs)) return 0;
                continue;
            }
            {
                int count = sa_spaa_nominate(al, req, use_prio ? prio : NULL, pairs ? views : NULL, nom), want = 0;
                ts_spaa_nominate(&ref, req, use_prio ? prio : NULL, pairs ? views : NULL, rnom);
                for (i = 0; i < d.num_inputs; i++) {
                    if (rnom[i] != nom[i]) return 0;
                    want += rnom[i] >= 0;
                }
                if (want != count) return 0;
            }
            /* Something else allocates before this grant (another request
             * set), then part of the nominations is granted. */
            if (t % 3 == 1) {
                uint64_t req2[64];
                int8_t nom2[64];
                for (i = 0; i < d.num_inputs; i++) req2[i] = ts_random_subset(&seed, d.num_outputs);
                sa_allocate(al, req2, NULL, NULL, &mt);
                ts_spaa_nominate(&ref, req2, NULL, NULL, nom2);
                ts_spaa_grant(&ref, nom2, input_of);
                if (!ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs)) return 0;
            }
            for (i = 0; i < d.num_inputs; i++) if (st_rand_below(&seed, 4) == 0) nom[i] = -1;
            sa_spaa_grant(al, nom, &mt);
            ts_spaa_grant(&ref, nom, input_of);
            if (!ts_match_is(&mt, input_of, d.num_inputs, d.num_outputs)) return 0;
        }
        if (!ts_probe(&x, &ref)) return 0;
    }
    return 1;
}

#endif
