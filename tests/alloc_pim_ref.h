/* alloc_pim_ref.h - a literal, slow reference implementation of PIM's
 * documented draw protocol (seastar_arb.h, >>pim, "The draw protocol"; the
 * PIM paragraph of docs/allocators.rst), written from the documentation
 * with plain loops over cells, and a driver that compares the library with
 * it.  Included by test_alloc_pim.c.  Define TPIM_DRIVER to the driver's
 * name before including (without it only the reference is defined). */
#include "alloc_test_util.h"
#ifndef ALLOC_PIM_REF_H
#define ALLOC_PIM_REF_H

/* The stream of 16-bit draws: each sa_rng_next output gives four, lowest
 * bits first; tpim_fresh discards the rest of the current output. */
typedef struct tpim_stream {
    sa_rng rng;
    uint64_t word;
    int left;
    long rejections; /* Lemire rejections seen (to show the redraws ran) */
} tpim_stream;

static uint32_t tpim_draw(tpim_stream *st) {
    uint32_t u;
    if (st->left == 0) {
        st->word = sa_rng_next(&st->rng);
        st->left = 4;
    }
    u = (uint32_t)(st->word & 0xFFFFu);
    st->word >>= 16;
    st->left--;
    return u;
}

static void tpim_fresh(tpim_stream *st) { st->left = 0; }

/* Candidate index below c from draw u: floor(u c / 65536), drawing again
 * while (u c) mod 65536 < 65536 mod c. */
static int tpim_index(uint32_t u, int c, tpim_stream *st) {
    while ((u * (uint32_t)c) % 65536u < 65536u % (uint32_t)c) {
        u = tpim_draw(st);
        st->rejections++;
    }
    return (int)((u * (uint32_t)c) / 65536u);
}

typedef struct tpim_cfg {
    int n, m, iterations, rotary, pairs;
    int net[64];
    int conn[64][64];
} tpim_cfg;

/* Input i may not take output j because its twin read port holds an
 * output that needs the same packet. */
static int tpim_blocked(const tpim_cfg *c, const sa_read_buffer *bufs, const int *out_of, int i, int j) {
    int t;
    if (!c->pairs || bufs == NULL) return 0;
    t = out_of[i ^ 1];
    if (t < 0) return 0;
    return (int)((sa_read_buffer_clash(&bufs[i >> 1], t) >> j) & 1u);
}

static int tpim_allocate(const tpim_cfg *c, tpim_stream *st, const uint64_t *req,
                         const sa_read_buffer *bufs, int *out_of, int *in_of) {
    static int cand[64][64];
    int it, i, j, size = 0;
    for (i = 0; i < 64; i++) out_of[i] = in_of[i] = -1;
    for (it = 0; c->iterations < 0 || it < c->iterations; it++) {
        int cnt[64], grant[64], u[64], any = 0;
        for (j = 0; j < c->m; j++) {
            int netc = 0;
            cnt[j] = 0;
            for (i = 0; i < c->n; i++) {
                cand[j][i] = in_of[j] < 0 && out_of[i] < 0 && c->conn[i][j] && ((req[i] >> j) & 1u) &&
                             !tpim_blocked(c, bufs, out_of, i, j);
                netc += cand[j][i] && c->net[i];
            }
            for (i = 0; i < c->n; i++) {
                if (c->rotary && netc > 0 && !c->net[i]) cand[j][i] = 0;
                cnt[j] += cand[j][i];
            }
            if (cnt[j] > 0) any = 1;
        }
        if (!any) break;
        /* Grant: the block (one draw per output), then the picks in
         * output order with redraws from the outputs after the block. */
        tpim_fresh(st);
        for (j = 0; j < c->m; j++) u[j] = (int)tpim_draw(st);
        tpim_fresh(st);
        for (j = 0; j < c->m; j++) {
            int k, seen = 0;
            grant[j] = -1;
            if (cnt[j] == 0) continue;
            k = tpim_index((uint32_t)u[j], cnt[j], st);
            for (i = 0; i < c->n; i++)
                if (cand[j][i] && seen++ == k) grant[j] = i;
        }
        /* Accept: one draw per input, picks in input order. */
        tpim_fresh(st);
        for (i = 0; i < c->n; i++) u[i] = (int)tpim_draw(st);
        tpim_fresh(st);
        for (i = 0; i < c->n; i++) {
            int count = 0, k, seen = 0, pick = -1;
            for (j = 0; j < c->m; j++) count += grant[j] == i && !tpim_blocked(c, bufs, out_of, i, j);
            if (count == 0) continue;
            k = tpim_index((uint32_t)u[i], count, st);
            for (j = 0; j < c->m; j++)
                if (grant[j] == i && !tpim_blocked(c, bufs, out_of, i, j) && seen++ == k) pick = j;
            out_of[i] = pick;
            in_of[pick] = i;
            size++;
        }
        tpim_fresh(st);
    }
    return size;
}

#endif /* ALLOC_PIM_REF_H */

#ifdef TPIM_DRIVER
/* Random configurations (sizes 1x1..64x64, biased towards n <= 16,
 * m <= 8, the sizes simulators use most), densities, iterations 1, 3 and converged, Rotary Rule
 * on/off, no_connect, read-port pairs; the library against the reference,
 * decision by decision, and the generator state after every allocation.
 * Returns the number of mismatches; *hash gets an FNV-1a hash of every
 * decision, *rejections the number of Lemire rejections seen. */
static long TPIM_DRIVER(long trials, uint64_t *hash, long *rejections) {
    static tpim_cfg c;
    static sa_read_buffer views[32];
    uint64_t seed = 0x5eed0001, h = 1469598103934665603ull;
    long tr, bad = 0, rej = 0;
    for (tr = 0; tr < trials; tr++) {
        ta_alloc x;
        sa_alloc *al = &x.a;
        sa_alloc_desc d;
        tpim_stream st;
        int n, m, i, j, t, small = (int)(tr % 3) != 0;
        n = small ? 1 + (int)st_rand_below(&seed, 16) : 1 + (int)st_rand_below(&seed, 64);
        m = small ? 1 + (int)st_rand_below(&seed, 8) : 1 + (int)st_rand_below(&seed, 64);
        memset(&d, 0, sizeof d);
        memset(&c, 0, sizeof c);
        d.kind = SA_ALLOC_PIM;
        d.num_inputs = c.n = n;
        d.num_outputs = c.m = m;
        d.iterations = c.iterations = tr % 4 == 0 ? 1 : tr % 4 == 1 ? 3 : tr % 4 == 2 ? SA_ITERATE_TO_CONVERGENCE : 1 + (int)st_rand_below(&seed, 2);
        d.rotary = c.rotary = (int)st_rand_below(&seed, 2);
        d.network_inputs = d.rotary || st_rand_below(&seed, 2) ? st_rand(&seed) & ta_low_mask(n) : 0;
        d.read_port_pairs = c.pairs = (n % 2 == 0) && st_rand_below(&seed, 3) == 0;
        d.seed = st_rand(&seed);
        if (st_rand_below(&seed, 2))
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
        for (i = 0; i < n; i++) {
            c.net[i] = (int)((d.network_inputs >> i) & 1u);
            for (j = 0; j < m; j++) c.conn[i][j] = !((d.no_connect[i] >> j) & 1u);
        }
        if (ta_alloc_init(&x, &d) != SA_OK) return -1;
        sa_rng_seed(&st.rng, d.seed);
        st.left = 0;
        st.rejections = 0;
        for (t = 0; t < 12; t++) {
            uint64_t req[64];
            int out_of[64], in_of[64], size, dens = (int)st_rand_below(&seed, 4);
            int use_bufs = c.pairs && st_rand_below(&seed, 4) != 0;
            sa_match mt;
            for (i = 0; i < n; i++) req[i] = ta_rand_request_row(&seed, dens, m);
            if (use_bufs)
                for (i = 0; i < n / 2; i++) {
                    uint64_t pk[4];
                    int p;
                    for (p = 0; p < 4; p++)
                        pk[p] = ((uint64_t)1 << st_rand_below(&seed, (uint32_t)m)) |
                                ((uint64_t)1 << st_rand_below(&seed, (uint32_t)m));
                    sa_read_buffer_build(&views[i], pk, (int)st_rand_below(&seed, 5));
                    req[2 * i] &= views[i].any;
                    req[2 * i + 1] &= views[i].any;
                    if (st_rand_below(&seed, 2)) req[2 * i] = req[2 * i + 1] = views[i].any;
                }
            sa_allocate(al, req, NULL, use_bufs ? views : NULL, &mt);
            size = tpim_allocate(&c, &st, req, use_bufs ? views : NULL, out_of, in_of);
            if (size != mt.size || al->rng.state != st.rng.state) bad++;
            for (i = 0; i < n; i++) {
                if (out_of[i] != mt.output_of[i] || ((mt.inputs >> i) & 1u) != (uint64_t)(out_of[i] >= 0)) bad++;
                h ^= (uint64_t)(uint8_t)mt.output_of[i];
                h *= 1099511628211ull;
            }
            for (j = 0; j < m; j++)
                if (in_of[j] != mt.input_of[j] || ((mt.outputs >> j) & 1u) != (uint64_t)(in_of[j] >= 0)) bad++;
            for (i = n; i < SA_ALLOC_MAX; i++) if (mt.output_of[i] != -1) bad++;
            for (j = m; j < SA_ALLOC_MAX; j++) if (mt.input_of[j] != -1) bad++;
            h ^= al->rng.state;
            h *= 1099511628211ull;
        }
        rej += st.rejections;
    }
    *hash = h;
    *rejections = rej;
    return bad;
}
#endif /* TPIM_DRIVER */
