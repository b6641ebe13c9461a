/* test_alloc_pimc.c - the helpers of PIM's later iterations (round 4:
 * PIM iterated to convergence at 64 x 64) against brute force: the block
 * draws as 16-bit values, the one-lane picks, the per-input grant lists
 * of the accept stage and their counts, the grant stage that builds its
 * candidates while it picks (all three of its paths), the candidates with
 * matched lanes masked; then whole allocations above 32 x 32, iterated to
 * convergence, against the literal reference of the documented draw
 * protocol (alloc_pim_ref.h), with the Lemire redraws of the later
 * iterations counted so the test shows they ran. */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"
#undef TPIM_DRIVER /* only the reference (the driver is test_alloc_pim.c's) */
#include "alloc_pim_ref.h"

/* Block word w of a stage that starts at generator state s, literally:
 * the (w+1)-th sa_rng_next output. */
static uint64_t pimc_word(uint64_t s, int w) {
    sa_rng g;
    uint64_t x = 0;
    int t;
    sa_rng_seed(&g, s);
    for (t = 0; t <= w; t++) x = sa_rng_next(&g);
    return x;
}

/* One PIM stage, literally from the documentation: lanes l of `set` in
 * increasing order, block draw u_l (16-bit field l mod 4 of block word
 * l / 4), candidate number floor(u c / 65536) of mask[l] unless
 * (u c) mod 65536 < 65536 mod c, then redraws from the words after the
 * block (four per word, lowest first).  pos[l] gets the pick; *end the
 * generator state after the stage; returns the number of redraws. */
static int pimc_stage(const uint64_t *mask, uint64_t set, int lanes, uint64_t s, int *pos, uint64_t *end) {
    sa_rng g;
    uint64_t block[16], word = 0;
    int w, l, left = 0, redraws = 0;
    sa_rng_seed(&g, s);
    for (w = 0; w < (lanes + 3) / 4; w++) block[w] = sa_rng_next(&g);
    for (l = 0; l < lanes; l++) {
        uint32_t u, c;
        if (!((set >> l) & 1u)) continue;
        u = (uint32_t)(block[l / 4] >> (16 * (l % 4))) & 0xFFFFu;
        c = (uint32_t)ta_bit_count(mask[l]);
        while ((u * c) % 65536u < 65536u % c) {
            if (left == 0) {
                word = sa_rng_next(&g);
                left = 4;
            }
            u = (uint32_t)(word & 0xFFFFu);
            word >>= 16;
            left--;
            redraws++;
        }
        pos[l] = ta_kth_bit(mask[l], (int)((u * c) / 65536u));
    }
    *end = g.state;
    return redraws;
}

ST_TEST(alloc_pimc_draws16_are_the_block_draws) {
    uint64_t seed = 0xC0001;
    int t, l;
    for (t = 0; t < 3000; t++) {
        uint16_t u16[64];
        uint64_t s = st_rand(&seed), set = st_rand(&seed), words[16];
        int count = 1 + (int)st_rand_below(&seed, 64), w;
        sa__pim_draws d;
        if (t & 1) set &= st_rand(&seed) & st_rand(&seed);
        set &= sa__low_mask(count);
        for (l = 0; l < 64; l++) u16[l] = 0x5A5A;
        for (w = 0; w < (count + 3) / 4; w++) words[w] = pimc_word(s, w);
        sa__pim_draws_start(&d, s, count);
        sa__pim_draws16(&d, set, u16);
        ST_EQ_U64((uint64_t)((count + 3) >> 2), d.next); /* nothing consumed */
        for (l = 0; l < count; l++) {
            int needed = (int)((set >> (l & ~3)) & 15u) != 0; /* the word holds a lane of the set */
            if (needed) ST_EQ((int)((words[l / 4] >> (16 * (l % 4))) & 0xFFFFu), (int)u16[l]);
        }
    }
}

/* The one-lane picks (sa__pim_pick1, lane by lane) follow
 * the literal stage, redraws included. */
ST_TEST(alloc_pimc_lane_picks_follow_the_protocol) {
    uint64_t seed = 0xC0002;
    long t, redraws = 0;
    int l;
    for (t = 0; t < 6000; t++) {
        uint64_t mask[64], set = 0, s = st_rand(&seed), end;
        uint16_t u16[64];
        int8_t p1[64];
        int want[64];
        int lanes = 1 + (int)st_rand_below(&seed, 64), bits = 1 + (int)st_rand_below(&seed, 64);
        sa__pim_draws d1;
        for (l = 0; l < 64; l++) {
            uint64_t v = ta_rand_mask(&seed, bits);
            if (t % 3 == 0 && bits >= 59) v = sa__low_mask(59); /* 59 candidates: 46 draws in 65536 reject */
            if (l >= lanes || st_rand_below(&seed, 3) == 0) v = 0;
            mask[l] = v;
            set |= (uint64_t)(v != 0) << l;
            p1[l] = -1;
            want[l] = -1;
        }
        redraws += pimc_stage(mask, set, lanes, s, want, &end);
        sa__pim_draws_start(&d1, s, lanes);
        sa__pim_draws16(&d1, set, u16);
        ta_pim_pick_lanes(mask, set, u16, &d1, p1);
        for (l = 0; l < lanes; l++) {
            ST_EQ(want[l], p1[l]);
        }
        ST_EQ_U64(end, sa__pim_draws_end(&d1));
    }
    ST_CHECKF(redraws > 0, "no Lemire redraw was exercised (%ld)", redraws);
}

/* Check cnt/lst against the grants gp (gp[k]: the pick of the k-th lane of
 * `lanes`, lane numbers in increasing order; -1: none). */
static int pimc_lists_ok(const int8_t *gp, uint64_t lanes, int n, const uint8_t *cnt, const uint8_t *lst) {
    int i;
    for (i = 0; i < n; i++) {
        uint64_t o;
        int k = 0, r = 0;
        for (o = lanes; o; o &= o - 1, k++) {
            int j = sa__ctz64(o);
            if (gp[k] != i) continue;
            if (lst[64 * r + i] != j) return 0;
            r++;
        }
        if (cnt[i] != r) return 0;
    }
    return 1;
}

ST_TEST(alloc_pimc_grant_lists_list_the_grants) {
    uint64_t seed = 0xC0003;
    int t, k;
    for (t = 0; t < 3000; t++) {
        static uint8_t cnt[SA__PIM_CNT], lst[SA__PIM_LST];
        int8_t gp[64];
        int n = 1 + (int)st_rand_below(&seed, 64), m = 1 + (int)st_rand_below(&seed, 64);
        uint64_t lanes = t & 1 ? st_rand(&seed) & sa__low_mask(m) : sa__low_mask(m), o;
        int few = (int)st_rand_below(&seed, 2); /* many grants per input */
        for (k = 0; k < 64; k++) {
            int i = (int)st_rand_below(&seed, (uint32_t)(few ? (n < 3 ? n : 3) : n));
            gp[k] = st_rand_below(&seed, 5) == 0 ? (int8_t)-1 : (int8_t)i;
        }
        memset(cnt, 0, sizeof cnt);
        memset(lst, 0xEE, sizeof lst);
        if (t & 1) {
            uint64_t g = 0, mu = 0, wg = 0, wm = 0;
            sa__pim_list_gathered(gp, lanes, cnt, lst, &g, &mu);
            for (k = 0; k < n; k++) {
                wg |= (uint64_t)(cnt[k] > 0) << k;
                wm |= (uint64_t)(cnt[k] > 1) << k;
            }
            ST_EQ_U64(wg, g);
            ST_EQ_U64(wm, mu);
        } else {
            int8_t byl[64]; /* lane-indexed: sa__pim_list_all lists every lane < m */
            for (o = lanes, k = 0; o; o &= o - 1, k++) byl[sa__ctz64(o)] = gp[k];
            sa__pim_list_all(byl, m, cnt, lst);
        }
        ST_CHECK(pimc_lists_ok(gp, lanes, n, cnt, lst));
        for (k = n; k < 64; k++) ST_EQ(0, cnt[k]); /* picks are below n */
    }
}

ST_TEST(alloc_pimc_counted_inputs) {
    uint64_t seed = 0xC0004;
    int t, i;
    for (t = 0; t < 3000; t++) {
        uint8_t cnt[SA__PIM_CNT];
        uint64_t g = 0, mu = 0, wg = 0, wm = 0;
        int n = 1 + (int)st_rand_below(&seed, 64);
        memset(cnt, 0, sizeof cnt);
        for (i = 0; i < n; i++) {
            cnt[i] = (uint8_t)(st_rand_below(&seed, 3) == 0 ? 0 : st_rand_below(&seed, 2) ? 1 : st_rand_below(&seed, 65));
            wg |= (uint64_t)(cnt[i] > 0) << i;
            wm |= (uint64_t)(cnt[i] > 1) << i;
        }
        sa__pim_counted(cnt, n, &g, &mu);
        ST_EQ_U64(wg, g);
        ST_EQ_U64(wm, mu);
    }
}

/* The Rotary Rule's candidates of one output, literally. */
static uint64_t pimc_cands(uint64_t colj, uint64_t free_in, uint64_t net) {
    uint64_t c = colj & free_in;
    return (c & net) ? (c & net) : c;
}

ST_TEST(alloc_pimc_candidates_of_free_outputs) {
    uint64_t seed = 0xC0005;
    int t, j;
    for (t = 0; t < 3000; t++) {
        uint64_t col[64], cand[64], act, want = 0;
        int n = 1 + (int)st_rand_below(&seed, 64), m = 1 + (int)st_rand_below(&seed, 64);
        uint64_t free_in = st_rand(&seed) & sa__low_mask(n), free_out = st_rand(&seed) & sa__low_mask(m);
        uint64_t net = t & 1 ? st_rand(&seed) & sa__low_mask(n) : 0;
        for (j = 0; j < 64; j++) {
            col[j] = j < m ? ta_rand_mask(&seed, n) : 0;
            cand[j] = 0x7777;
        }
        act = sa__pim_candidates(col, free_in, free_out, net, cand);
        for (j = 0; j < m; j++) {
            uint64_t c = pimc_cands(col[j], free_in, net);
            if ((free_out >> j) & 1u) {
                ST_EQ_U64(c, cand[j]);
                want |= (uint64_t)(c != 0) << j;
            } else {
                ST_CHECK(cand[j] == 0x7777 || cand[j] == 0); /* not written, or the other lane of a pair */
            }
        }
        ST_EQ_U64(want, act);
    }
}

/* A grant stage (sa__pim_grant_list) against the literal stage on the
 * free outputs' candidates: the set of outputs with candidates, the grant
 * lists, the generator state after the stage.  The numbers of free
 * outputs cover all three paths (all lanes, gathered, one at a time). */
ST_TEST(alloc_pimc_grant_stage_follows_the_protocol) {
    uint64_t seed = 0xC0006;
    long redraws = 0;
    int t, j, paths[3] = { 0, 0, 0 };
    for (t = 0; t < 4000; t++) {
        static uint8_t cnt[SA__PIM_CNT], lst[SA__PIM_LST];
        uint64_t col[64], mask[64], free_in, free_out, net, set = 0, s = st_rand(&seed), end, act, o, g = 0, mu = 0;
        uint16_t u16[64];
        int8_t gp[64];
        int pos[64], k;
        int n = 1 + (int)st_rand_below(&seed, 64), m = t % 4 == 0 ? 1 + (int)st_rand_below(&seed, 64) : 33 + (int)st_rand_below(&seed, 32);
        int nf = (int)st_rand_below(&seed, (uint32_t)m + 1);
        sa__pim_draws d;
        free_in = t % 5 == 0 ? sa__low_mask(n) : st_rand(&seed) & sa__low_mask(n);
        free_out = 0; /* nf free outputs */
        while (ta_bit_count(free_out) < nf) free_out |= (uint64_t)1 << st_rand_below(&seed, (uint32_t)m);
        net = t % 3 == 0 ? st_rand(&seed) & sa__low_mask(n) : 0;
        for (j = 0; j < 64; j++) {
            col[j] = j < m ? ta_rand_mask(&seed, n) : 0;
            if (j < m && t % 7 == 0 && n >= 59) col[j] = sa__low_mask(59); /* rejections */
            mask[j] = ((free_out >> j) & 1u) ? pimc_cands(col[j], free_in, net) : 0;
            set |= (uint64_t)(mask[j] != 0) << j;
            pos[j] = -1;
        }
        redraws += pimc_stage(mask, set, m, s, pos, &end);
        memset(cnt, 0, sizeof cnt);
        sa__pim_draws_start(&d, s, m);
        act = sa__pim_grant_list(col, free_in, free_out, net, n, m, &d, u16, cnt, lst, &g, &mu);
        ST_EQ_U64(set, act);
        if (set == 0) continue;
        ST_EQ_U64(end, sa__pim_draws_end(&d));
        for (o = set, k = 0; o; o &= o - 1, k++) {
            gp[k] = (int8_t)pos[sa__ctz64(o)];
        }
        ST_CHECK(pimc_lists_ok(gp, set, n, cnt, lst));
        {
            uint64_t wg = 0, wm = 0;
            for (k = 0; k < n; k++) {
                wg |= (uint64_t)(cnt[k] > 0) << k;
                wm |= (uint64_t)(cnt[k] > 1) << k;
            }
            ST_EQ_U64(wg, g);
            ST_EQ_U64(wm, mu);
        }
        paths[nf > 8 && 4 * nf >= 3 * m ? 0 : nf > SA__PIM_GATHER ? 1 : 2]++;
    }
    ST_CHECKF(redraws > 0, "no Lemire redraw was exercised (%ld)", redraws);
    ST_CHECKF(paths[0] > 100 && paths[1] > 100 && paths[2] > 100, "paths %d %d %d", paths[0], paths[1], paths[2]);
}

/* Whole allocations above 32 x 32 (mostly iterated to convergence; also
 * 1, 2 and 3 iterations), with no_connect and the Rotary Rule sometimes:
 * sa_allocate against the literal reference, decision by decision and
 * generator state.  The reference is also run for the first iteration
 * alone from the same state, to count the Lemire redraws of the later
 * iterations (which must have run). */
ST_TEST(alloc_pimc_converged_allocations_match_reference) {
    static tpim_cfg c, c1;
    uint64_t seed = 0xC0007;
    long later = 0, bad = 0;
    int t, i, j, r;
    for (t = 0; t < 260; t++) {
        sa_alloc al;
        sa_alloc_desc d;
        tpim_stream st;
        int n = t < 60 ? 64 : 33 + (int)st_rand_below(&seed, 32);
        int m = t < 60 ? 64 : 33 + (int)st_rand_below(&seed, 32);
        memset(&d, 0, sizeof d);
        memset(&c, 0, sizeof c);
        d.kind = SA_ALLOC_PIM;
        d.num_inputs = c.n = n;
        d.num_outputs = c.m = m;
        d.iterations = c.iterations = t % 8 == 5 ? 1 : t % 8 == 6 ? 2 : t % 8 == 7 ? 3 : SA_ITERATE_TO_CONVERGENCE;
        d.rotary = c.rotary = t % 6 == 1;
        d.network_inputs = d.rotary ? st_rand(&seed) & sa__low_mask(n) : 0;
        d.seed = st_rand(&seed);
        if (t % 4 == 3)
            for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & sa__low_mask(m);
        for (i = 0; i < n; i++) {
            c.net[i] = (int)((d.network_inputs >> i) & 1u);
            for (j = 0; j < m; j++) c.conn[i][j] = !((d.no_connect[i] >> j) & 1u);
        }
        c1 = c;
        c1.iterations = 1;
        ST_EQ(SA_OK, sa_alloc_init(&al, &d));
        sa_rng_seed(&st.rng, d.seed);
        st.left = 0;
        for (r = 0; r < 8; r++) {
            uint64_t req[64];
            int out_of[64], in_of[64], o1[64], i1[64], size;
            int dens = (int)st_rand_below(&seed, 4);
            tpim_stream s1 = st;
            sa_match mt;
            for (i = 0; i < n; i++) req[i] = ta_rand_request_row(&seed, dens, m);
            sa_allocate(&al, req, NULL, NULL, &mt);
            st.rejections = s1.rejections = 0;
            size = tpim_allocate(&c, &st, req, NULL, out_of, in_of);
            tpim_allocate(&c1, &s1, req, NULL, o1, i1);
            later += st.rejections - s1.rejections;
            if (size != mt.size || al.rng.state != st.rng.state) bad++;
            for (i = 0; i < n; i++) bad += out_of[i] != mt.output_of[i];
            for (j = 0; j < m; j++) bad += in_of[j] != mt.input_of[j];
            ST_EQ(0, bad);
        }
    }
    ST_CHECKF(later > 0, "no Lemire redraw in a later iteration (%ld)", later);
}

/* The 16-bit draw number `lane` of generator word `word` after seed s. */
static uint32_t pimc_draw_at(uint64_t s, int word, int lane) {
    return (uint32_t)(pimc_word(s, word) >> (16 * lane)) & 0xFFFFu;
}

/* One allocation of req by the library and by the reference from seed s
 * (n x m, Rotary Rule with the network inputs net, iterated to
 * convergence); returns the mismatches, *later the reference's Lemire
 * redraws after the first iteration. */
static long pimc_one(int n, int m, uint64_t net, const uint64_t *req, uint64_t s, long *later) {
    static tpim_cfg c, c1;
    sa_alloc al;
    sa_alloc_desc d;
    sa_match mt;
    tpim_stream st, s1;
    int out_of[64], in_of[64], o1[64], i1[64], i, j, size;
    long bad = 0;
    memset(&d, 0, sizeof d);
    memset(&c, 0, sizeof c);
    d.kind = SA_ALLOC_PIM;
    d.num_inputs = c.n = n;
    d.num_outputs = c.m = m;
    d.iterations = c.iterations = SA_ITERATE_TO_CONVERGENCE;
    d.rotary = c.rotary = net != 0;
    d.network_inputs = net;
    d.seed = s;
    for (i = 0; i < n; i++) {
        c.net[i] = (int)((net >> i) & 1u);
        for (j = 0; j < m; j++) c.conn[i][j] = 1;
    }
    c1 = c;
    c1.iterations = 1;
    if (sa_alloc_init(&al, &d) != SA_OK) return 1;
    sa_rng_seed(&st.rng, s);
    st.left = 0;
    st.rejections = 0;
    s1 = st;
    sa_allocate(&al, req, NULL, NULL, &mt);
    size = tpim_allocate(&c, &st, req, NULL, out_of, in_of);
    tpim_allocate(&c1, &s1, req, NULL, o1, i1);
    *later = st.rejections - s1.rejections;
    if (size != mt.size || al.rng.state != st.rng.state) bad++;
    for (i = 0; i < n; i++) bad += out_of[i] != mt.output_of[i];
    for (j = 0; j < m; j++) bad += in_of[j] != mt.input_of[j];
    return bad;
}

/* Redraws forced where random sets almost never have them: in the accept
 * stages (few grants per input: 65536 mod c is small) and in the later
 * iterations.  With the Rotary Rule and input 0 the only network input,
 * requests of inputs 0 and 1 (or 0..59) for outputs 0..58 make every
 * output grant input 0 first (input 0 accepts one of 59 grants), then the
 * other 58 outputs grant input 1 (which accepts one of 58 grants: 54 draws
 * in 65536 reject), or pick among inputs 1..59 (59 candidates each: 46 in
 * 65536).  Seeds are searched (a quick look at the right draw first, the
 * reference decides) until the reference redraws there; then the library
 * must equal it. */
ST_TEST(alloc_pimc_forced_redraws_in_accept_and_later_iterations) {
    uint64_t req[64];
    long s, later, found1 = 0, found2 = 0, found3 = 0;
    int i, n = 64, m = 60;
    memset(req, 0, sizeof req);
    req[0] = req[1] = sa__low_mask(59);
    for (s = 0; s < 400000 && (found1 < 2 || found2 < 2); s++) {
        uint64_t seed = (uint64_t)s * 0x9E3779B97F4A7C15ull + 777;
        /* input 0's accept draw (iteration 1: after the 15-word grant
         * block), and input 1's in iteration 2 (after 15 + 16 + 15 words) */
        uint32_t u0 = pimc_draw_at(seed, 15, 0), u1 = pimc_draw_at(seed, 46, 1);
        int r0 = (u0 * 59u) % 65536u < 65536u % 59u, r1 = (u1 * 58u) % 65536u < 65536u % 58u;
        if (!(r0 && found1 < 2) && !(r1 && found2 < 2)) continue;
        ST_EQ(0, pimc_one(n, m, 1, req, seed, &later));
        if (r0) found1++;
        if (r1 && later > 0) found2++;
    }
    ST_CHECKF(found1 >= 2 && found2 >= 2, "accept redraws forced: %ld in iteration 1, %ld in iteration 2", found1,
              found2);
    for (i = 1; i < 60; i++) req[i] = sa__low_mask(59);
    for (s = 0; s < 2000 && found3 < 3; s++) {
        ST_EQ(0, pimc_one(n, m, 1, req, (uint64_t)s * 0x9E3779B97F4A7C15ull + 99, &later));
        found3 += later > 0;
    }
    ST_CHECKF(found3 >= 3, "grant redraws in iteration 2: %ld", found3);
}
