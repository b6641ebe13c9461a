/* test_alloc_props.c - statistical, fairness, Rotary Rule, determinism and
 * bad-input properties of the switch allocators (seed 002). */
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

#define tp_desc ta_desc_of

/* Minimal validity check (the full one is in test_alloc.c). */
static int tp_valid(const sa_match *mt, int n, int m, const uint64_t *req) {
    int i, size = 0;
    uint64_t outs = 0;
    for (i = 0; i < n; i++) {
        int o = mt->output_of[i];
        if (o < 0) continue;
        if (o >= m || !((req[i] >> o) & 1u) || ((outs >> o) & 1u) || mt->input_of[o] != i) return 0;
        outs |= (uint64_t)1 << o;
        size++;
    }
    return size == mt->size && outs == mt->outputs;
}

/* Millions of random request sets at the sizes simulators use most. */
ST_TEST(alloc_bulk_random_sets_are_valid_matchings) {
    static const int sizes[][2] = { {7, 7}, {16, 7}, {8, 8}, {16, 16}, {5, 3}, {3, 9} };
    uint64_t seed = 99, req[16];
    long per = ST_LONG ? 2000000 : 25000, t, total = 0;
    int s, k;
    for (s = 0; s < 6; s++)
        for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
            int n = sizes[s][0], m = sizes[s][1], i;
            ta_alloc x;
            sa_alloc_desc d;
            sa_match mt;
            tp_desc(&d, (sa_alloc_kind)k, n, m);
            d.seed = (uint64_t)k;
            ST_EQ(SA_OK, ta_alloc_init(&x, &d));
            for (t = 0; t < per; t++) {
                uint64_t mask = st_rand(&seed);
                for (i = 0; i < n; i++) req[i] = st_rand(&seed) & (t & 1 ? mask : ~0ull) & ta_low_mask(m);
                sa_allocate(&x.a, req, NULL, NULL, &mt);
                ST_CHECKF(tp_valid(&mt, n, m, req), "%s %dx%d", sa_alloc_kind_name(x.a.kind), n, m);
                total++;
            }
        }
    ST_CHECK(total >= 6L * SA_ALLOC_KIND_COUNT * per);
}

/* ------------------------------------------------------------ PIM1 */

/* On a full N x N request matrix, PIM1's N outputs each grant a uniformly
 * random input; the matched outputs are the distinct granted inputs, whose
 * expected fraction is 1 - (1 - 1/N)^N (occupancy of N balls in N bins).
 * The number of empty bins E has Var(E) = N a + N(N-1) b - N^2 a^2 with
 * a = (1-1/N)^N, b = (1-2/N)^N, so the mean over T trials of the matched
 * fraction has standard deviation sqrt(Var(E)/T)/N; we allow 6 of them. */
ST_TEST(alloc_pim1_full_matrix_matches_one_minus_one_minus_1_over_n_to_the_n) {
    static const int ns[] = { 2, 3, 4, 7, 8, 16, 32, 64 };
    int q;
    for (q = 0; q < 8; q++) {
        int n = ns[q], i;
        long t, trials = (ST_LONG ? 400000L : 40000L) * 8 / n;
        double sum = 0, a, b, var, sd, want;
        ta_alloc alx;
        sa_alloc *al = &alx.a;
        sa_alloc_desc d;
        sa_match mt;
        uint64_t req[64];
        tp_desc(&d, SA_ALLOC_PIM, n, n);
        d.seed = 1000 + (uint64_t)n;
        ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
        for (i = 0; i < n; i++) req[i] = ta_low_mask(n);
        for (t = 0; t < trials; t++) sum += sa_allocate(al, req, NULL, NULL, &mt);
        a = pow(1.0 - 1.0 / n, n);
        b = pow(1.0 - 2.0 / n, n);
        var = n * a + (double)n * (n - 1) * b - (double)n * n * a * a;
        sd = sqrt(var / (double)trials) / n;
        want = 1.0 - a;
        ST_NEAR(want, sum / trials / n, 6 * sd + 1e-12);
    }
}

/* PIM's grant is exactly uniform over sparse, unevenly spaced requesters:
 * output 0 requested by inputs {0, 1, 2, 40}; each should win 1/4. */
ST_TEST(alloc_pim_grant_uniform_over_sparse_requesters) {
    ta_alloc alx;
    sa_alloc *al = &alx.a;
    sa_alloc_desc d;
    sa_match mt;
    uint64_t req[41];
    long count[41], t, trials = ST_LONG ? 2000000 : 200000;
    double chi = 0;
    int i;
    tp_desc(&d, SA_ALLOC_PIM, 41, 1);
    d.seed = 5;
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    for (i = 0; i < 41; i++) { req[i] = 0; count[i] = 0; }
    req[0] = req[1] = req[2] = req[40] = 1;
    for (t = 0; t < trials; t++) {
        sa_allocate(al, req, NULL, NULL, &mt);
        count[mt.input_of[0]]++;
    }
    for (i = 0; i < 41; i++) {
        double e = (i < 3 || i == 40) ? trials / 4.0 : 0;
        if (e > 0) chi += (count[i] - e) * (count[i] - e) / e;
        else ST_EQ(0, count[i]);
    }
    /* 3 degrees of freedom: mean 3, sd 2.45; "random start + next requester"
     * would give input 0 a share of 25/64 and fail by thousands. */
    ST_CHECKF(chi < 3 + 8 * 2.45, "chi2 %.1f", chi);
}

/* ------------------------------------------------------------ iSLIP */

/* iSLIP-1 on a persistently full N x N matrix: once the N grant pointers
 * are all different, every output grants a different input, every grant is
 * accepted, and every pointer moves one step, so they stay different and
 * every later matching is full (McKeown 1999).  Reaching that state: an
 * output's pointer moves only when its grant is accepted, to one past the
 * accepting input; the accepted grants of one cycle go to distinct inputs,
 * so the outputs matched in a cycle get distinct pointers and (as above)
 * keep them.  We assert the consequence, from the all-zero state and from
 * random pointer states: no partial matching from cycle N on (checked for
 * 4N further cycles). */
ST_TEST(alloc_islip_desynchronises_to_full_matchings) {
    uint64_t seed = 8;
    int n, trial, worst = 0;
    for (n = 1; n <= 64; n += (n < 16 ? 1 : 16)) {
        for (trial = 0; trial < (ST_LONG ? 200 : 20); trial++) {
            ta_alloc alx;
            sa_alloc *al = &alx.a;
            sa_alloc_desc d;
            sa_match mt;
            uint64_t req[64];
            int i, t, last_partial = -1;
            tp_desc(&d, SA_ALLOC_ISLIP, n, n);
            ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
            for (i = 0; i < n; i++) {
                req[i] = ta_low_mask(n);
                if (trial) {
                    al->in_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)n);
                    al->out_ptr[i] = (uint8_t)st_rand_below(&seed, (uint32_t)n);
                }
            }
            for (t = 0; t < 5 * n; t++)
                if (sa_allocate(al, req, NULL, NULL, &mt) != n) last_partial = t;
            ST_CHECKF(last_partial < n, "n %d trial %d: partial matching at cycle %d", n, trial, last_partial);
            if (last_partial + 1 > worst) worst = last_partial + 1;
        }
    }
    ST_CHECK(worst >= 1); /* the synchronised start does give partial matchings */
}

/* ------------------------------------------------------------ SPAA fairness */

/* SPAA-base never starves a persistent request (i, j).  Bound: input i
 * nominates its least-recently-granted requested output k and keeps
 * nominating k until granted (its order only moves on grants).  At output k
 * every nomination i loses moves an input that was ahead of i behind it and
 * nothing moves ahead of i, so i wins k within n cycles; k then goes behind
 * j in i's order.  At most m-1 outputs are ahead of j, so j is nominated
 * after at most (m-1)n cycles and granted within n more: (i, j) is granted
 * at least once every n*m cycles. */
ST_TEST(alloc_spaa_never_starves_a_persistent_requester) {
    uint64_t seed = 17;
    int trial;
    for (trial = 0; trial < (ST_LONG ? 2000 : 200); trial++) {
        int n = 1 + (int)st_rand_below(&seed, 20), m = 1 + (int)st_rand_below(&seed, 10);
        int me = (int)st_rand_below(&seed, (uint32_t)n), j = (int)st_rand_below(&seed, (uint32_t)m);
        int t, wait = 0, worst = 0, cycles = 20 * n * m + 50, i;
        unsigned dens = 64 + st_rand_below(&seed, 192);
        ta_alloc alx;
        sa_alloc *al = &alx.a;
        sa_alloc_desc d;
        sa_match mt;
        uint64_t req[20];
        tp_desc(&d, SA_ALLOC_SPAA, n, m);
        ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
        for (t = 0; t < cycles; t++) {
            for (i = 0; i < n; i++) {
                int k;
                req[i] = 0;
                for (k = 0; k < m; k++) if (st_rand_below(&seed, 256) < dens) req[i] |= (uint64_t)1 << k;
            }
            req[me] |= (uint64_t)1 << j;
            sa_allocate(al, req, NULL, NULL, &mt);
            wait++;
            if (mt.output_of[me] == j) { if (wait > worst) worst = wait; wait = 0; }
        }
        if (wait > worst) worst = wait;
        ST_CHECKF(worst <= n * m, "%dx%d: (%d,%d) waited %d > %d", n, m, me, j, worst, n * m);
    }
}

/* ------------------------------------------------------------ Rotary Rule */

/* SPAA-rotary's output arbiters, against a literal model: for each output a
 * list of inputs in least-recently-selected order (winner moved to the
 * back); the winner is the first listed network nominator if there is one,
 * else the first listed nominator. */
ST_TEST(alloc_spaa_rotary_prefers_network_inputs_exactly) {
    uint64_t seed = 23;
    int trial;
    for (trial = 0; trial < 40; trial++) {
        int n = 2 + (int)st_rand_below(&seed, 30), m = 1 + (int)st_rand_below(&seed, 12), i, j, t;
        uint8_t order[16][64];
        uint64_t req[32];
        int8_t nom[32];
        ta_alloc alx;
        sa_alloc *al = &alx.a;
        sa_alloc_desc d;
        sa_match mt;
        tp_desc(&d, SA_ALLOC_SPAA, n, m);
        d.rotary = 1;
        d.network_inputs = st_rand(&seed) & ta_low_mask(n);
        ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
        for (j = 0; j < m; j++) for (i = 0; i < n; i++) order[j][i] = (uint8_t)i;
        for (t = 0; t < 300; t++) {
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & ta_low_mask(m);
            sa_spaa_nominate(al, req, NULL, NULL, nom);
            sa_spaa_grant(al, nom, &mt);
            ST_CHECK(tp_valid(&mt, n, m, req));
            for (j = 0; j < m; j++) {
                uint64_t noms = 0;
                int want = -1, pos = -1, cls;
                for (i = 0; i < n; i++) if (nom[i] == j) noms |= (uint64_t)1 << i;
                for (cls = 1; cls >= 0 && want < 0; cls--)
                    for (i = 0; i < n && want < 0; i++) {
                        int x = order[j][i];
                        if (((noms >> x) & 1u) && (int)((d.network_inputs >> x) & 1u) == cls) { want = x; pos = i; }
                    }
                ST_EQ(want, mt.input_of[j]);
                if (want >= 0) {
                    for (i = pos; i < n - 1; i++) order[j][i] = order[j][i + 1];
                    order[j][n - 1] = (uint8_t)want;
                }
            }
        }
    }
}

/* WFA-rotary, wrapped WFA-rotary and PIM-rotary (1 iteration and
 * converged): a local input never holds an output that an unmatched network
 * input requested.  (In WFA the network rows are evaluated first and the
 * start cell is in a network row; in PIM an output grants a network
 * requester whenever one is unmatched.) */
ST_TEST(alloc_rotary_rule_network_inputs_first) {
    static const sa_alloc_kind kinds[4] = { SA_ALLOC_WFA, SA_ALLOC_WFA_WRAPPED, SA_ALLOC_PIM, SA_ALLOC_PIM };
    uint64_t seed = 29;
    int trial, k;
    for (k = 0; k < 4; k++)
        for (trial = 0; trial < 60; trial++) {
            int n = 2 + (int)st_rand_below(&seed, 40), m = 1 + (int)st_rand_below(&seed, 40), i, j, t;
            uint64_t req[64];
            ta_alloc alx;
            sa_alloc *al = &alx.a;
            sa_alloc_desc d;
            sa_match mt;
            tp_desc(&d, kinds[k], n, m);
            d.rotary = 1;
            d.iterations = k == 3 ? SA_ITERATE_TO_CONVERGENCE : 1;
            d.network_inputs = st_rand(&seed) & ta_low_mask(n);
            d.seed = (uint64_t)trial;
            ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
            for (t = 0; t < 100; t++) {
                for (i = 0; i < n; i++) req[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
                if (kinds[k] == SA_ALLOC_WFA && d.network_inputs)
                    ST_CHECK((d.network_inputs >> al->start_row) & 1u);
                sa_allocate(al, req, NULL, NULL, &mt);
                ST_CHECK(tp_valid(&mt, n, m, req));
                for (i = 0; i < n; i++) {
                    if (!((d.network_inputs >> i) & 1u) || mt.output_of[i] >= 0) continue;
                    for (j = 0; j < m; j++) {
                        int holder = mt.input_of[j];
                        if (((req[i] >> j) & 1u) && holder >= 0)
                            ST_CHECKF((d.network_inputs >> holder) & 1u,
                                      "%s: local input %d holds output %d wanted by free network input %d",
                                      sa_alloc_kind_name(kinds[k]), holder, j, i);
                    }
                }
            }
        }
}

/* Without the Rotary Rule, local inputs do win against network inputs
 * (the property above is not vacuous). */
ST_TEST(alloc_rotary_rule_off_lets_local_inputs_win) {
    ta_alloc alx;
    sa_alloc *al = &alx.a;
    sa_alloc_desc d;
    sa_match mt;
    uint64_t req[2] = { 1, 1 };
    int t, local_wins = 0, net_wins = 0;
    tp_desc(&d, SA_ALLOC_SPAA, 2, 1);
    d.network_inputs = 2;
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    for (t = 0; t < 10; t++) { sa_allocate(al, req, NULL, NULL, &mt); local_wins += mt.input_of[0] == 0; }
    ST_EQ(5, local_wins);
    d.rotary = 1;
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    for (t = 0; t < 10; t++) { sa_allocate(al, req, NULL, NULL, &mt); net_wins += mt.input_of[0] == 1; }
    ST_EQ(10, net_wins);
}

/* ------------------------------------------------------------ 21364 */

ST_TEST(alloc_21364_connection_matrix_has_54_connections) {
    /* Seed 002 Section 3.1: "the total nominations for the matrix could be
     * up to 54 (unshaded boxes in Figure 5)". */
    sa_alloc_desc d;
    ta_alloc alx;
    sa_alloc *al = &alx.a;
    int i, j, cells = 0;
    ST_EQ(SA_OK, sa_alloc_desc_21364(&d, SA_ALLOC_SPAA, 1));
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    ST_EQ(16, al->num_inputs);
    ST_EQ(7, al->num_outputs);
    for (i = 0; i < 16; i++) cells += ta_bit_count(al->connect[i]);
    ST_EQ(54, cells);
    /* Every input port reaches every output through one of its read ports,
     * except the memory controllers' own outputs. */
    for (i = 0; i < 8; i++)
        for (j = 0; j < 7; j++) {
            int own = (i == SA_21364_IN_MC0 && j == SA_21364_OUT_L0) || (i == SA_21364_IN_MC1 && j == SA_21364_OUT_L1);
            int reach = (int)(((al->connect[2 * i] | al->connect[2 * i + 1]) >> j) & 1u);
            ST_EQ(!own, reach);
            ST_CHECK(!((al->connect[2 * i] & al->connect[2 * i + 1]) >> j & 1u));
        }
}

/* ------------------------------------------------------------ determinism */

ST_TEST(alloc_pim_seed_changes_the_matchings) {
    ta_alloc a1, a2, a3;
    sa_alloc_desc d;
    sa_match m1, m2, m3;
    uint64_t req[16], seed = 3;
    int t, i, same12 = 1, same13 = 1;
    tp_desc(&d, SA_ALLOC_PIM, 16, 16);
    d.seed = 1;
    ST_EQ(SA_OK, ta_alloc_init(&a1, &d));
    ST_EQ(SA_OK, ta_alloc_init(&a2, &d));
    d.seed = 2;
    ST_EQ(SA_OK, ta_alloc_init(&a3, &d));
    for (t = 0; t < 100; t++) {
        for (i = 0; i < 16; i++) req[i] = st_rand(&seed) & 0xFFFF;
        sa_allocate(&a1.a, req, NULL, NULL, &m1);
        sa_allocate(&a2.a, req, NULL, NULL, &m2);
        sa_allocate(&a3.a, req, NULL, NULL, &m3);
        for (i = 0; i < 16; i++) {
            same12 &= m1.output_of[i] == m2.output_of[i];
            same13 &= m1.output_of[i] == m3.output_of[i];
        }
    }
    ST_CHECK(same12);
    ST_CHECK(!same13);
}

/* sa_alloc_copy: a copy taken in the middle of a stream makes the same
 * decisions as the original from there on, and is independent of it: the
 * original runs a stream first, then the copy runs the same stream (had the
 * copy shared the original's memory, it would start from the original's
 * later state). */
ST_TEST(alloc_copy_carries_on_like_the_original) {
    static const int sizes[][2] = { { 16, 7 }, { 8, 8 }, { 64, 64 }, { 5, 5 }, { 20, 13 } };
    static ta_alloc orig, copy;
    static uint8_t prio[64 * 64];
    uint64_t seed = 61;
    int k, s, t, i;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++)
        for (s = 0; s < 5; s++) {
            int n = sizes[s][0], m = sizes[s][1];
            sa_alloc_desc d;
            sa_match mo[12], mc;
            uint64_t req[12][64];
            int8_t nom[64];
            tp_desc(&d, (sa_alloc_kind)k, n, m);
            d.seed = (uint64_t)(k * 10 + s);
            d.iterations = s & 1 ? SA_ITERATE_TO_CONVERGENCE : 1;
            ST_EQ(SA_OK, ta_alloc_init(&orig, &d));
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, 4);
            for (t = 0; t < 7; t++) {
                for (i = 0; i < n; i++) req[0][i] = st_rand(&seed) & ta_low_mask(m);
                sa_allocate(&orig.a, req[0], t & 1 ? prio : NULL, NULL, &mc);
            }
            ST_EQ(SA_OK, ta_alloc_copy(&copy, &orig));
            for (t = 0; t < 12; t++) {
                for (i = 0; i < n; i++) req[t][i] = st_rand(&seed) & ta_low_mask(m);
                sa_allocate(&orig.a, req[t], t & 1 ? prio : NULL, NULL, &mo[t]);
            }
            for (t = 0; t < 12; t++) {
                sa_allocate(&copy.a, req[t], t & 1 ? prio : NULL, NULL, &mc);
                ST_EQ(mo[t].size, mc.size);
                ST_EQ_U64(mo[t].inputs, mc.inputs);
                for (i = 0; i < n; i++)
                    ST_CHECKF(mo[t].output_of[i] == mc.output_of[i], "%s %dx%d step %d input %d",
                              sa_alloc_kind_name(d.kind), n, m, t, i);
            }
            ST_EQ_U64(orig.a.rng.state, copy.a.rng.state);
            ST_EQ(orig.a.start_row, copy.a.start_row);
            ST_EQ(orig.a.start_col, copy.a.start_col);
            if (k == SA_ALLOC_SPAA) {
                /* and SPAA's nominations from the same state */
                int8_t nom2[64];
                for (i = 0; i < n; i++) req[0][i] = ta_low_mask(m);
                sa_spaa_nominate(&orig.a, req[0], NULL, NULL, nom);
                sa_spaa_nominate(&copy.a, req[0], NULL, NULL, nom2);
                ST_CHECK(memcmp(nom, nom2, (size_t)n) == 0);
            }
        }
    /* Bad arguments leave the destination alone. */
    {
        static uint64_t mem[TA_ALLOC_BYTES / 8];
        sa_alloc dst;
        ST_EQ(SA_ERR_NULL, sa_alloc_copy(NULL, mem, sizeof mem, &orig.a));
        ST_EQ(SA_ERR_NULL, sa_alloc_copy(&dst, NULL, sizeof mem, &orig.a));
        ST_EQ(SA_ERR_NULL, sa_alloc_copy(&dst, mem, sizeof mem, NULL));
        ST_EQ(SA_ERR_MEMORY, sa_alloc_copy(&dst, mem, orig.a.memory_size - 1, &orig.a));
        ST_EQ(SA_ERR_MEMORY, sa_alloc_copy(&dst, (unsigned char *)mem + 4, orig.a.memory_size, &orig.a));
        ST_EQ(SA_OK, sa_alloc_copy(&dst, mem, orig.a.memory_size, &orig.a));
    }
}

/* ------------------------------------------------------------ bad input */

ST_TEST(alloc_bad_configuration_is_rejected) {
    ta_alloc alx;
    sa_alloc *al = &alx.a;
    sa_alloc_desc d;
    uint64_t req[16];
    sa_read_buffer v;
    uint64_t pk[2] = { 1, 2 };
    int i;
    ST_EQ(SA_ERR_NULL, sa_alloc_init(NULL, NULL, NULL, 0));
    ST_EQ(SA_ERR_NULL, sa_alloc_init(al, NULL, alx.memory, sizeof alx.memory));
    ST_EQ(0, (long)sa_alloc_memory_size(NULL));
    /* Zero sizes are an error (no silent default size): an all-zero
     * description is refused. */
    {
        sa_alloc_desc z;
        memset(&z, 0, sizeof z);
        ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &z));
        ST_EQ(0, (long)sa_alloc_memory_size(&z));
        z.num_inputs = 3;
        ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &z));
        z.num_inputs = 0;
        z.num_outputs = 3;
        ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &z));
        z.num_inputs = 3;
        ST_EQ(SA_OK, ta_alloc_init(&alx, &z));
        /* the other zero fields are the defaults: SPAA, one iteration */
        ST_EQ(SA_ALLOC_SPAA, al->kind);
        ST_EQ(1, al->iterations);
        ST_EQ(0, al->rotary);
        ST_EQ(0, al->read_port_pairs);
        ST_EQ_U64(7, al->connect[0] | al->connect[1] | al->connect[2]);
        ST_EQ(SA_ERR_NULL, sa_alloc_init(al, &z, NULL, 64));
    }
    tp_desc(&d, SA_ALLOC_PIM, 65, 4);
    ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &d));
    d.num_inputs = 4; d.num_outputs = 65;
    ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &d));
    d.num_outputs = -1;
    ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &d));
    d.num_outputs = 4; d.iterations = -2;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.iterations = 1; d.kind = (sa_alloc_kind)99;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.kind = SA_ALLOC_PIM; d.network_inputs = 1u << 4;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.network_inputs = 0; d.no_connect[1] = 1u << 4;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.no_connect[1] = 0; d.no_connect[4] = 1;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.no_connect[4] = 0; d.num_inputs = 3; d.read_port_pairs = 1;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    d.num_inputs = 4; d.kind = SA_ALLOC_MCM; d.num_outputs = 9;
    ST_EQ(SA_ERR_SIZE_RANGE, ta_alloc_init(&alx, &d));
    d.read_port_pairs = 0;
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    d.kind = SA_ALLOC_ISLIP; d.rotary = 1;
    ST_EQ(SA_ERR_PARAM_RANGE, ta_alloc_init(&alx, &d));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_alloc_desc_21364(&d, SA_ALLOC_KIND_COUNT, 0));
    ST_EQ(SA_ERR_NULL, sa_alloc_desc_21364(NULL, SA_ALLOC_SPAA, 0));
    /* Request bits beyond the configured outputs. */
    tp_desc(&d, SA_ALLOC_WFA, 4, 5);
    ST_EQ(SA_OK, ta_alloc_init(&alx, &d));
    for (i = 0; i < 16; i++) req[i] = 0;
    ST_EQ(SA_OK, sa_alloc_check_requests(al, req));
    req[3] = 1u << 5;
    ST_EQ(SA_ERR_REQUEST_RANGE, sa_alloc_check_requests(al, req));
    ST_EQ(SA_ERR_NULL, sa_alloc_check_requests(al, NULL));
    /* Arbiters and buffers. */
    {
        sa_rr_arb rr;
        sa_matrix_arb mx;
        int p0, p1;
        ST_EQ(SA_ERR_SIZE_RANGE, sa_rr_arb_init(&rr, 0));
        ST_EQ(SA_ERR_SIZE_RANGE, sa_rr_arb_init(&rr, 65));
        ST_EQ(SA_ERR_SIZE_RANGE, sa_matrix_arb_init(&mx, 0));
        ST_EQ(SA_ERR_SIZE_RANGE, sa_matrix_arb_init(&mx, SA_ALLOC_MAX + 1));
        ST_EQ(SA_ERR_NULL, sa_matrix_arb_init(NULL, 3));
        ST_EQ(SA_ERR_PARAM_RANGE, sa_read_buffer_build(&v, pk, -1));
        ST_EQ(SA_ERR_NULL, sa_read_buffer_build(&v, NULL, 2));
        ST_EQ(SA_OK, sa_read_buffer_build(&v, pk, 0));
        ST_EQ_U64(0, v.any);
        pk[0] = pk[1] = 3; /* two packets, both for outputs 0 and 1 */
        ST_EQ(SA_OK, sa_read_buffer_build(&v, pk, 2));
        ST_EQ_U64(3, v.multi);
        ST_EQ(SA_OK, sa_read_buffer_assign(pk, 2, 0, 1, &p0, &p1));
        ST_CHECK(p0 != p1);
        pk[0] = 3; /* one packet for outputs 0 and 1: cannot serve both */
        ST_EQ(SA_OK, sa_read_buffer_build(&v, pk, 1));
        ST_EQ_U64(3, sa_read_buffer_clash(&v, 0));
        ST_EQ(SA_ERR_REQUEST_RANGE, sa_read_buffer_assign(pk, 1, 0, 1, &p0, &p1));
    }
}

/* ------------------------------------------------------------ priorities */

/* SPAA nominates, and OPF's matched inputs hold, the highest-priority
 * connected request of their row (for example the oldest packet). */
ST_TEST(alloc_spaa_and_opf_follow_request_priorities) {
    uint64_t seed = 41;
    int trial;
    for (trial = 0; trial < 300; trial++) {
        int n = 1 + (int)st_rand_below(&seed, 24), m = 1 + (int)st_rand_below(&seed, 24), i, j, t;
        uint8_t prio[24 * 24];
        uint64_t req[24];
        int8_t nom[24];
        ta_alloc spaa, opf;
        sa_alloc_desc d;
        sa_match mt;
        tp_desc(&d, SA_ALLOC_SPAA, n, m);
        for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
        ST_EQ(SA_OK, ta_alloc_init(&spaa, &d));
        d.kind = SA_ALLOC_OPF;
        ST_EQ(SA_OK, ta_alloc_init(&opf, &d));
        for (t = 0; t < 20; t++) {
            for (i = 0; i < n; i++) req[i] = st_rand(&seed) & ta_low_mask(m);
            for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, 6);
            sa_spaa_nominate(&spaa.a, req, prio, NULL, nom);
            sa_spaa_grant(&spaa.a, nom, &mt);
            sa_allocate(&opf.a, req, prio, NULL, &mt);
            for (i = 0; i < n; i++) {
                int best = -1;
                uint64_t eff = req[i] & ~d.no_connect[i];
                for (j = 0; j < m; j++) if (((eff >> j) & 1u) && prio[i * m + j] > best) best = prio[i * m + j];
                if (best < 0) { ST_EQ(-1, nom[i]); ST_EQ(-1, mt.output_of[i]); continue; }
                ST_CHECK(nom[i] >= 0 && ((eff >> nom[i]) & 1u));
                ST_EQ(best, prio[i * m + nom[i]]);
                if (mt.output_of[i] >= 0) ST_EQ(best, prio[i * m + mt.output_of[i]]);
            }
        }
    }
}
