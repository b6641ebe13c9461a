/* alloc_workload.h - two fixed random workloads over every switch
 * allocator of seastar_arb.h, each hashed (FNV-1a over every matching, and
 * the RNG state for the first).  Included by alloc_diff_impl.h, so that
 * both builds (alloc_diff_fast.c, alloc_diff_ref.c) compute them;
 * test_alloc_diff.c pins the values.
 *
 * TA_WORKLOAD_NAME(with_pim): every kind at 12 sizes, 3 variants each, and
 * the 21364 with read-port pairs.  with_pim = 0 leaves SA_ALLOC_PIM out
 * (its decisions changed on purpose with its draw protocol).
 *
 * TA_SCENARIO_NAME(): every kind on the 21364 (read-port pairs) and on
 * 13 x 29, 200 allocations each.
 *
 * Define both names before including; include after st_test.h,
 * seastar_arb.h and alloc_test_util.h. */
static const int ta_wl_sizes[][2] = {
    { 7, 7 }, { 16, 7 }, { 8, 8 }, { 16, 16 }, { 32, 32 }, { 64, 64 },
    { 13, 29 }, { 5, 64 }, { 64, 3 }, { 1, 1 }, { 9, 17 }, { 40, 8 } };

uint64_t TA_WORKLOAD_NAME(int with_pim);
uint64_t TA_WORKLOAD_NAME(int with_pim) {
    static uint8_t prio[64 * 64];
    uint64_t h = 1469598103934665603ull, seed = 20261122;
    int k, si, var, t, i;
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++)
        for (si = 0; si < (int)(sizeof ta_wl_sizes / sizeof ta_wl_sizes[0]); si++)
            for (var = 0; var < 3; var++) {
                ta_alloc x;
                sa_alloc_desc d;
                int n = ta_wl_sizes[si][0], m = ta_wl_sizes[si][1];
                int rot_ok = k == SA_ALLOC_SPAA || k == SA_ALLOC_WFA || k == SA_ALLOC_WFA_WRAPPED ||
                             k == SA_ALLOC_PIM;
                if (k == SA_ALLOC_PIM && !with_pim) continue;
                memset(&d, 0, sizeof d);
                d.kind = (sa_alloc_kind)k;
                d.num_inputs = n;
                d.num_outputs = m;
                d.iterations = var == 0 ? 1 : var == 1 ? 3 : SA_ITERATE_TO_CONVERGENCE;
                d.seed = st_rand(&seed);
                d.rotary = rot_ok && var > 0;
                d.network_inputs = var > 0 ? st_rand(&seed) & ta_low_mask(n) : 0;
                if (var == 2)
                    for (i = 0; i < n; i++) d.no_connect[i] = st_rand(&seed) & st_rand(&seed) & ta_low_mask(m);
                if (ta_alloc_init(&x, &d) != SA_OK) return 0;
                for (t = 0; t < (n * m > 1024 ? 40 : 120); t++) {
                    uint64_t req[64];
                    sa_match mt;
                    int dens = (int)st_rand_below(&seed, 4);
                    for (i = 0; i < n; i++) req[i] = ta_rand_request_row(&seed, dens, m);
                    for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, t & 2 ? 4 : 256);
                    sa_allocate(&x.a, req, (t & 1) ? prio : NULL, NULL, &mt);
                    for (i = 0; i < n; i++) { h ^= (uint64_t)(uint8_t)mt.output_of[i]; h *= 1099511628211ull; }
                    h ^= (uint64_t)mt.size;
                    h *= 1099511628211ull;
                }
                h ^= x.a.rng.state;
                h *= 1099511628211ull;
            }
    /* The 21364 with read-port pairs (every kind; Rotary Rule where defined). */
    for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
        ta_alloc x;
        sa_alloc_desc d;
        sa_read_buffer views[8];
        if (k == SA_ALLOC_PIM && !with_pim) continue;
        sa_alloc_desc_21364(&d, (sa_alloc_kind)k, k == SA_ALLOC_SPAA || k == SA_ALLOC_WFA ||
                                                      k == SA_ALLOC_WFA_WRAPPED || k == SA_ALLOC_PIM);
        d.seed = 99;
        if (ta_alloc_init(&x, &d) != SA_OK) return 0;
        for (t = 0; t < 300; t++) {
            uint64_t req[16], pk[4];
            sa_match mt;
            int b, p;
            for (b = 0; b < 8; b++) {
                for (p = 0; p < 4; p++)
                    pk[p] = ((uint64_t)1 << st_rand_below(&seed, 7)) | ((uint64_t)1 << st_rand_below(&seed, 7));
                sa_read_buffer_build(&views[b], pk, (int)st_rand_below(&seed, 5));
                req[2 * b] = views[b].any & st_rand(&seed);
                req[2 * b + 1] = views[b].any & st_rand(&seed);
            }
            for (i = 0; i < 16 * 7; i++) prio[i] = (uint8_t)st_rand_below(&seed, 8);
            sa_allocate(&x.a, req, (t & 1) ? prio : NULL, views, &mt);
            for (i = 0; i < 16; i++) { h ^= (uint64_t)(uint8_t)mt.output_of[i]; h *= 1099511628211ull; }
        }
        h ^= x.a.rng.state;
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t TA_SCENARIO_NAME(void);
uint64_t TA_SCENARIO_NAME(void) {
    uint64_t h = 1469598103934665603ull, seed = 4711;
    int k, t, i, shape;
    for (shape = 0; shape < 2; shape++)
        for (k = 0; k < SA_ALLOC_KIND_COUNT; k++) {
            ta_alloc x;
            sa_alloc_desc d;
            sa_read_buffer views[8];
            int n, m;
            if (shape == 0) {
                sa_alloc_desc_21364(&d, (sa_alloc_kind)k, k == SA_ALLOC_SPAA || k == SA_ALLOC_WFA ||
                                                              k == SA_ALLOC_PIM);
            } else {
                ta_desc_of(&d, (sa_alloc_kind)k, 13, 29);
                d.iterations = 3;
            }
            d.seed = 77;
            if (ta_alloc_init(&x, &d) != SA_OK) return 0;
            n = x.a.num_inputs;
            m = x.a.num_outputs;
            for (t = 0; t < 200; t++) {
                uint64_t req[16], pk[4];
                sa_match mt;
                uint8_t prio[16 * 29];
                for (i = 0; i < n * m; i++) prio[i] = (uint8_t)st_rand_below(&seed, 8);
                if (shape == 0) {
                    int b, p;
                    for (b = 0; b < 8; b++) {
                        for (p = 0; p < 4; p++)
                            pk[p] = ((uint64_t)1 << st_rand_below(&seed, 7)) | ((uint64_t)1 << st_rand_below(&seed, 7));
                        sa_read_buffer_build(&views[b], pk, (int)st_rand_below(&seed, 5));
                        req[2 * b] = req[2 * b + 1] = views[b].any;
                    }
                } else {
                    for (i = 0; i < n; i++) req[i] = st_rand(&seed) & ta_low_mask(m);
                }
                sa_allocate(&x.a, req, (t & 1) ? prio : NULL, shape == 0 ? views : NULL, &mt);
                for (i = 0; i < n; i++) { h ^= (uint64_t)(uint8_t)mt.output_of[i]; h *= 1099511628211ull; }
            }
        }
    return h;
}
