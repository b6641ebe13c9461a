/* test_alloc_names.c - allocator names: sa_switch_desc_parse reads back
 * what sa_switch_desc_name writes, for every kind with every combination
 * of the options it takes; the documented names parse to the documented
 * fields; malformed names and options a kind does not take are refused
 * and leave the description alone; names are cut as documented. */
#include <stdlib.h>
#include "st_test.h"
#include "../seastar_arb.h"
#include "alloc_test_util.h"

/* The fields a name carries. */
static int an_same(const sa_switch_desc *a, const sa_switch_desc *b) {
    return a->kind == b->kind && (a->iterations ? a->iterations : 1) == (b->iterations ? b->iterations : 1) &&
           (a->rotary != 0) == (b->rotary != 0) && a->wavefront == b->wavefront &&
           a->pointer_rule == b->pointer_rule && a->idle == b->idle && a->seed == b->seed;
}

ST_TEST(alloc_names_read_back_every_kind_and_option) {
    static const int iterations[] = { 1, 2, 7, SA_ITERATE_TO_CONVERGENCE };
    static const uint64_t seeds[] = { 0, 1, 18446744073709551615ull };
    int k, v, count = 0;
    for (k = 0; k < SA_SWITCH_KIND_COUNT; k++)
        for (v = 0; v < 4 * 2 * 2 * 2 * 2 * 3; v++) {
            sa_switch_desc d, e;
            char text[96];
            size_t len;
            int pim = k == SA_SWITCH_PIM, wave = k == SA_SWITCH_WFA || k == SA_SWITCH_WFA_WRAPPED;
            ta_desc_of(&d, (sa_switch_kind)k, 16, 7);
            d.iterations = pim || k == SA_SWITCH_ISLIP ? iterations[v % 4] : 1;
            d.rotary = (pim || wave || k == SA_SWITCH_SPAA) && (v / 4) % 2;
            d.wavefront = k == SA_SWITCH_WFA_WRAPPED && (v / 8) % 2 ? SA_WAVEFRONT_ANTIDIAGONAL : 0;
            d.pointer_rule = k == SA_SWITCH_SEP_OUTPUT && (v / 16) % 2 ? SA_POINTER_ON_MATCH : 0;
            d.idle = wave && (v / 32) % 2 ? SA_IDLE_HOLD : 0;
            d.seed = pim ? seeds[(v / 64) % 3] : 0;
            len = sa_switch_desc_name(&d, text, sizeof text);
            ST_CHECK(len > 0 && len < sizeof text && strlen(text) == len);
            ta_desc_of(&e, SA_SWITCH_MCM, 16, 7);
            e.rotary = 1;
            e.seed = 99;
            ST_CHECKF(sa_switch_desc_parse(&e, text) == SA_OK, "'%s' is refused", text);
            ST_CHECKF(an_same(&d, &e), "'%s' reads back differently", text);
            ST_EQ(16, e.num_inputs);
            /* one iteration of PIM is PIM1, any other PIM is PIM(...) */
            if (pim) ST_EQ(d.iterations == 1, strncmp(text, "PIM1", 4) == 0);
            count++;
        }
    ST_EQ(SA_SWITCH_KIND_COUNT * 192, count);
}

ST_TEST(alloc_names_documented_forms) {
    sa_switch_desc d;
    char text[64];
    ta_desc_of(&d, SA_SWITCH_SPAA, 5, 5);
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, " wfa-WRAPPED ( antidiagonal , idle-hold ) "));
    ST_EQ(SA_SWITCH_WFA_WRAPPED, d.kind);
    ST_EQ(SA_WAVEFRONT_ANTIDIAGONAL, d.wavefront);
    ST_EQ(SA_IDLE_HOLD, d.idle);
    ST_EQ(5, d.num_inputs);
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, "PIM1"));
    ST_EQ(SA_SWITCH_PIM, d.kind);
    ST_EQ(1, d.iterations);
    ST_EQ(0, d.idle); /* the options not named return to their defaults */
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, "pim(converge,seed=42)"));
    ST_EQ(SA_ITERATE_TO_CONVERGENCE, d.iterations);
    ST_EQ_U64(42, d.seed);
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, "separable-output-first(on-match)"));
    ST_EQ(SA_POINTER_ON_MATCH, d.pointer_rule);
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, "iSLIP(iterations=4)"));
    ST_EQ(4, d.iterations);
    ST_EQ(19, (int)sa_switch_desc_name(&d, text, sizeof text));
    ST_CHECK(strcmp(text, "iSLIP(iterations=4)") == 0);
    ST_EQ(SA_OK, sa_switch_desc_parse(&d, "PIM(iterations=1)"));
    ST_EQ(4, (int)sa_switch_desc_name(&d, text, sizeof text));
    ST_CHECK(strcmp(text, "PIM1") == 0);
}

ST_TEST(alloc_names_refuse_what_is_not_a_name) {
    static const char *bad[] = { "", "SPAAA", "PIM1(converge)", "PIM1(iterations=2)", "SPAA(on-match)",
                                 "iSLIP(iterations=0)", "iSLIP(iterations=2147483648)", "iSLIP(iterations)",
                                 "iSLIP(iterations=x)", "PIM(seed=18446744073709551616)", "PIM(seed=-1)",
                                 "MCM(rotary)", "WFA(antidiagonal)", "PIM()", "PIM(rotary", "PIM(rotary) x",
                                 "PIM(rotary,)", "PIM(,rotary)", "PIM(rotary=1)", "separable-output-first(x)",
                                 "PIM(rotary)(seed=1)", "SPAA x", NULL };
    sa_switch_desc d, before;
    int i;
    ta_desc_of(&d, SA_SWITCH_MCM, 3, 4);
    d.seed = 5;
    before = d;
    for (i = 0; bad[i] != NULL; i++) {
        ST_CHECKF(sa_switch_desc_parse(&d, bad[i]) == SA_ERR_PARAM_RANGE, "'%s' is accepted", bad[i]);
        ST_CHECK(memcmp(&d, &before, sizeof d) == 0);
    }
    ST_EQ(SA_ERR_NULL, sa_switch_desc_parse(NULL, "PIM1"));
    ST_EQ(SA_ERR_NULL, sa_switch_desc_parse(&d, NULL));
}

ST_TEST(alloc_names_are_cut_to_the_buffer) {
    sa_switch_desc d;
    char text[8];
    size_t k;
    ta_desc_of(&d, SA_SWITCH_WFA_WRAPPED, 4, 4);
    d.wavefront = SA_WAVEFRONT_ANTIDIAGONAL;
    for (k = 0; k <= sizeof text; k++) {
        memset(text, 'x', sizeof text);
        ST_EQ(25, (int)sa_switch_desc_name(&d, text, k)); /* "WFA-wrapped(antidiagonal)" */
        if (k > 0) ST_EQ((int)(k - 1), (int)strlen(text));
        if (k > 0) ST_CHECK(strncmp(text, "WFA-wrapped(antidiagonal)", k - 1) == 0);
        if (k < sizeof text) ST_EQ('x', text[k]); /* nothing written past size */
    }
    ST_EQ(25, (int)sa_switch_desc_name(&d, NULL, 0));
    d.kind = SA_SWITCH_KIND_COUNT;
    ST_EQ(0, (int)sa_switch_desc_name(&d, text, sizeof text));
    ST_EQ(0, (int)sa_switch_desc_name(NULL, text, sizeof text));
}

/* The request builder's list of row words in use: a word emptied by
 * removes and filled again, many times within one cycle, and a clear after
 * it, leave the rows exactly as a dense oracle says (the clear zeroes only
 * the listed words, so a word missing from the list would keep a stale
 * bit), and priorities that begin to differ late in a cycle reach every
 * cell (the larger of a cell's adds since it was last removed). */
ST_TEST(alloc_requests_list_empties_and_refills) {
    enum { N = 70, M = 130, W = SA_WORDS(130) };
    static unsigned char on[N][M];
    static int32_t pri[N][M];
    sa_requests r;
    size_t size = sa_requests_memory_size(N, M);
    void *mem = malloc(size);
    uint64_t seed = 77;
    int round, k, i, j;
    ST_CHECK(mem != NULL);
    ST_EQ(SA_OK, sa_requests_init(&r, N, M, mem, size));
    for (round = 0; round < 30; round++) {
        int word_row = (int)st_rand_below(&seed, N), word = (int)st_rand_below(&seed, W);
        sa_requests_clear(&r);
        memset(on, 0, sizeof on);
        for (k = 0; k < 400; k++) {
            /* half the operations on one word: it empties and fills again */
            int focus = k % 2 == 0;
            i = focus ? word_row : (int)st_rand_below(&seed, N);
            j = focus ? 64 * word + (int)st_rand_below(&seed, (uint32_t)(M - 64 * word < 64 ? M - 64 * word : 64))
                      : (int)st_rand_below(&seed, M);
            if (st_rand_below(&seed, 2)) {
                sa_requests_remove(&r, i, j);
                on[i][j] = 0;
            } else {
                int32_t p = round % 3 == 0 && k > 300 ? (int32_t)(k % 5) : 9;
                sa_requests_add(&r, i, j, p);
                if (!on[i][j] || pri[i][j] < p) pri[i][j] = p;
                on[i][j] = 1;
            }
        }
        for (i = 0; i < N; i++)
            for (j = 0; j < M; j++) {
                ST_EQ(on[i][j], (int)((sa_requests_rows(&r)[(size_t)i * W + (j >> 6)] >> (j & 63)) & 1u));
                if (on[i][j] && sa_requests_priorities(&r) != NULL) ST_EQ(pri[i][j], sa_requests_priorities(&r)[i * M + j]);
            }
    }
    sa_requests_clear(&r);
    for (i = 0; i < N * W; i++) ST_EQ_U64(0, sa_requests_rows(&r)[i]);
    free(mem);
}
