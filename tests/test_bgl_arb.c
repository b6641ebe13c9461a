/* SPDX-License-Identifier: MIT */
/* test_bgl_arb.c - seastar_arb.h >>bgl: JSQ and SLQ of BlueGene/L (seed
 * 003 lines 59-65), a case of each worked by hand, then random inputs
 * against the rules written out again (tests/bgl_oracle.h), and the
 * fractions of cycles counted. */
#include "st_test.h"
#include "../seastar_arb.h"
#include "bgl_oracle.h"

/* ---- the 2-bit indicators and the fractions of cycles ------------------ */

ST_TEST(bgl_ranges_quarters) {
    uint32_t b[3];
    uint32_t v;
    /* by hand: a 1 KB VC is 32 chunks: [0,8) [8,16) [16,24) [24,32] */
    ST_EQ(SA_OK, sa_bgl_ranges_quarters(32, b));
    ST_EQ(8, b[0]); ST_EQ(16, b[1]); ST_EQ(24, b[2]);
    ST_EQ(0, sa_bgl_range(7, b));
    ST_EQ(1, sa_bgl_range(8, b));
    ST_EQ(1, sa_bgl_range(15, b));
    ST_EQ(2, sa_bgl_range(16, b));
    ST_EQ(3, sa_bgl_range(24, b));
    ST_EQ(3, sa_bgl_range(32, b));
    /* 10: 2.5, 5, 7.5 rounded up */
    ST_EQ(SA_OK, sa_bgl_ranges_quarters(10, b));
    ST_EQ(3, b[0]); ST_EQ(5, b[1]); ST_EQ(8, b[2]);
    ST_EQ(SA_OK, sa_bgl_ranges_quarters(0x80000000u, b));
    ST_EQ_U64(0x20000000u, b[0]); ST_EQ_U64(0x60000000u, b[2]);
    ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_ranges_quarters(0, b));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_ranges_quarters(0x80000001u, b));
    ST_EQ(SA_ERR_NULL, sa_bgl_ranges_quarters(32, NULL));
    ST_EQ(SA_ERR_NULL, sa_bgl_ranges_check(NULL));
    b[0] = 4; b[1] = 4; b[2] = 9; ST_EQ(SA_OK, sa_bgl_ranges_check(b));
    b[1] = 10; ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_ranges_check(b));
    b[0] = 5; b[1] = 3; b[2] = 9; ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_ranges_check(b));
    /* the indicator is monotone and counts the bounds reached */
    b[0] = 3; b[1] = 3; b[2] = 70;
    for (v = 0; v < 100; v++) ST_EQ((v >= 3) * 2 + (v >= 70), sa_bgl_range(v, b));
}

ST_TEST(bgl_cycles_fraction) {
    sa_bgl_cycles c;
    uint32_t num, den;
    int i;
    ST_EQ(SA_ERR_NULL, sa_bgl_cycles_init(NULL, 1, 2));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_cycles_init(&c, 0, 0));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_cycles_init(&c, 3, 2));
    ST_EQ(SA_ERR_PARAM_RANGE, sa_bgl_cycles_init(&c, 1, 65537));
    ST_EQ(SA_ERR_NULL, sa_bgl_cycles_check(NULL));
    /* 75% SLQ cycles (seed 003 line 87): 3 of every 4, by hand 0,1,1,1 */
    ST_EQ(SA_OK, sa_bgl_cycles_init(&c, 3, 4));
    ST_EQ(0, sa_bgl_cycles_next(&c));
    ST_EQ(1, sa_bgl_cycles_next(&c));
    ST_EQ(1, sa_bgl_cycles_next(&c));
    ST_EQ(1, sa_bgl_cycles_next(&c));
    ST_EQ(0, sa_bgl_cycles_next(&c));
    /* every fraction: exactly num of every den consecutive cycles, from any start */
    for (den = 1; den <= 12; den++)
        for (num = 0; num <= den; num++) {
            int hist[64], total = 0;
            ST_EQ(SA_OK, sa_bgl_cycles_init(&c, num, den));
            for (i = 0; i < 64; i++) { hist[i] = sa_bgl_cycles_next(&c); ST_EQ(SA_OK, sa_bgl_cycles_check(&c)); }
            for (i = 0; i + (int)den <= 64; i++) {
                int j, w = 0;
                for (j = 0; j < (int)den; j++) w += hist[i + j];
                ST_EQ(num, w);
            }
            for (i = 0; i < 64; i++) total += hist[i];
            ST_CHECK(total * (int)den >= 64 * (int)num - (int)den && total * (int)den <= 64 * (int)num + (int)den);
        }
    ST_EQ(SA_OK, sa_bgl_cycles_init(&c, 65536, 65536));
    for (i = 0; i < 100; i++) ST_EQ(1, sa_bgl_cycles_next(&c));
    c.acc = 65536; ST_EQ(SA_ERR_STATE, sa_bgl_cycles_check(&c));
    c.acc = 0; c.num = 70000; ST_EQ(SA_ERR_STATE, sa_bgl_cycles_check(&c));
    c.num = 1; c.den = 0; ST_EQ(SA_ERR_STATE, sa_bgl_cycles_check(&c));
}

/* ---- JSQ ------------------------------------------------------------------ */

/* Worked by hand (the pairs of tests/test_bgl_route.c's requests case: a
 * 3-D torus, pair = port * 4 + VC, 1 KB VCs, quarter ranges 8/16/24).
 * Possible dynamic pairs x- VC0, x- VC1, y+ VC0, y+ VC1 = pairs 4, 5, 8, 9;
 * the escape is pair 6.
 *   1. tokens 12, 7, 30, 8: available 4, 8, 9 (VC1 of x- has 7 < 8);
 *      ranges 1, -, 3, 1: pair 8, the only one in range 3 (no draw);
 *   2. tokens 20, 7, 17, 9: ranges 2, -, 2, 1: a tie of 4 and 8, each about
 *      half of the time, 9 never, the escape never;
 *   3. no dynamic pair available, the escape is: 6;
 *   4. nothing available: no request (-1);
 *   5. a static packet (no dynamic pair), its escape available: 6. */
ST_TEST(bgl_jsq_hand_worked) {
    uint32_t b[3];
    uint8_t range[64];
    uint16_t tok[64];
    uint64_t possible = (1u << 4) | (1u << 5) | (1u << 8) | (1u << 9), avail;
    sa_rng r;
    int i, count[64];
    sa_bgl_ranges_quarters(32, b);
    memset(range, 0, sizeof range);
    memset(tok, 0, sizeof tok);
    tok[4] = 12; tok[5] = 7; tok[8] = 30; tok[9] = 8; tok[6] = 16;
    avail = 0;
    for (i = 0; i < 64; i++) {
        range[i] = (uint8_t)sa_bgl_range(tok[i], b);
        if (tok[i] >= 8) avail |= (uint64_t)1 << i;
    }
    ST_EQ_U64((1u << 4) | (1u << 6) | (1u << 8) | (1u << 9), avail);
    sa_rng_seed(&r, 7);
    {
        uint64_t before = r.state;
        ST_EQ(8, sa_bgl_jsq(possible, avail, range, 6, &r));
        ST_EQ_U64(before, r.state);
    }
    tok[4] = 20; tok[8] = 17; tok[9] = 9;
    for (i = 0; i < 64; i++) range[i] = (uint8_t)sa_bgl_range(tok[i], b);
    memset(count, 0, sizeof count);
    for (i = 0; i < 4000; i++) count[sa_bgl_jsq(possible, avail, range, 6, &r)]++;
    ST_EQ(4000, count[4] + count[8]);
    ST_CHECKF(count[4] > 1800 && count[8] > 1800, "tie split %d / %d", count[4], count[8]);
    ST_EQ(6, sa_bgl_jsq(possible, (uint64_t)1 << 6, range, 6, &r));
    ST_EQ(-1, sa_bgl_jsq(possible, 0, range, 6, &r));
    ST_EQ(-1, sa_bgl_jsq(possible, (uint64_t)1 << 6, range, -1, &r));
    ST_EQ(6, sa_bgl_jsq(0, avail, range, 6, &r));
    ST_EQ(63, sa_bgl_jsq(0, (uint64_t)1 << 63, range, 63, &r));
    ST_EQ(-1, sa_bgl_jsq(0, ~(uint64_t)0, range, 64, &r));
}


/* ---- SLQ at the receivers --------------------------------------------- */

/* Worked by hand.  A receiver's FIFOs: 0, 1 dynamic VCs, 2 the bubble, 3 the
 * high-priority VC, 4 the bypass.  Occupancies out of 32 chunks: 20, 27, 5,
 * -, 0 -> fullness 2, 3, 0, 0, 0.
 *   1. requests 0, 1, 2, 4 on an SLQ cycle: 1 (the fullest);
 *   2. the same on a random cycle: 0, 1 or 2 about a third each, never the
 *      bypass;
 *   3. only the bypass: 4;
 *   4. 0 and the high-priority 3: 3;
 *   5. 0 and a high-priority packet on the bypass: 4;
 *   6. 3 and 4 both high-priority: 3 (the bypass last);
 *   7. VC0 at 27 too: 0 and 1 tie on an SLQ cycle, half each. */
ST_TEST(bgl_slq_receiver_hand_worked) {
    uint8_t full[8] = { 2, 3, 0, 0, 0, 0, 0, 0 };
    sa_rng r;
    int i, count[8];
    sa_rng_seed(&r, 5);
    ST_EQ(1, sa_bgl_slq_receiver(0x17, 0, full, 4, 1, &r));
    memset(count, 0, sizeof count);
    for (i = 0; i < 3000; i++) count[sa_bgl_slq_receiver(0x17, 0, full, 4, 0, &r)]++;
    ST_EQ(0, count[4] + count[3]);
    ST_CHECKF(count[0] > 850 && count[1] > 850 && count[2] > 850, "%d %d %d", count[0], count[1], count[2]);
    ST_EQ(4, sa_bgl_slq_receiver(0x10, 0, full, 4, 1, &r));
    ST_EQ(3, sa_bgl_slq_receiver(0x09, 0x08, full, 4, 1, &r));
    ST_EQ(3, sa_bgl_slq_receiver(0x09, 0x08, full, 4, 0, &r));
    ST_EQ(4, sa_bgl_slq_receiver(0x11, 0x10, full, 4, 1, &r));
    ST_EQ(3, sa_bgl_slq_receiver(0x18, 0x18, full, 4, 0, &r));
    ST_EQ(-1, sa_bgl_slq_receiver(0, 0x18, full, 4, 1, &r));
    full[0] = 3;
    memset(count, 0, sizeof count);
    for (i = 0; i < 2000; i++) count[sa_bgl_slq_receiver(0x17, 0, full, 4, 1, &r)]++;
    ST_EQ(2000, count[0] + count[1]);
    ST_CHECKF(count[0] > 850 && count[1] > 850, "%d %d", count[0], count[1]);
    /* no bypass at all */
    ST_EQ(1, sa_bgl_slq_receiver(0x06, 0, full, -1, 1, &r));
}


/* ---- SLQ at the senders ------------------------------------------------ */

/* Worked by hand.  Requesters 0..5 are the receivers (in the network), 6
 * and 7 injection FIFOs.  Fullness: receiver 0 -> 1, receiver 2 -> 3,
 * injection 6 -> 3, injection 7 -> 2.
 *   1. a token-ack waits: it goes first;
 *   2. requests 0, 2, 6, 7, a network cycle, SLQ: 2 (fullest in-network);
 *   3. the same on an injection cycle: 6 (fullest injection FIFO);
 *   4. a network cycle, only injection requests: 6;
 *   5. the only high-priority packet is in injection FIFO 6: 6 even on a
 *      network cycle;
 *   6. high-priority packets in receiver 0 and FIFO 6 on an injection
 *      cycle: 0 ("barring in-network high priority packets");
 *   7. a network cycle, random: 0 and 2 about half each, never 6 or 7. */
ST_TEST(bgl_slq_sender_hand_worked) {
    uint8_t full[8] = { 1, 0, 3, 0, 0, 0, 3, 2 };
    const uint64_t inj = 0xC0, req = 0xC5;
    sa_rng r;
    int i, count[8];
    sa_rng_seed(&r, 13);
    ST_EQ(SA_BGL_SEND_ACK, sa_bgl_slq_sender(1, req, inj, 0, full, 1, 1, &r));
    ST_EQ(SA_BGL_SEND_ACK, sa_bgl_slq_sender(1, 0, inj, 0, full, 1, 1, &r));
    ST_EQ(2, sa_bgl_slq_sender(0, req, inj, 0, full, 1, 1, &r));
    ST_EQ(6, sa_bgl_slq_sender(0, req, inj, 0, full, 0, 1, &r));
    ST_EQ(6, sa_bgl_slq_sender(0, 0xC0, inj, 0, full, 1, 1, &r));
    ST_EQ(2, sa_bgl_slq_sender(0, 0x05, inj, 0, full, 0, 1, &r));
    ST_EQ(6, sa_bgl_slq_sender(0, req, inj, 0x40, full, 1, 1, &r));
    ST_EQ(0, sa_bgl_slq_sender(0, req, inj, 0x41, full, 0, 1, &r));
    ST_EQ(-1, sa_bgl_slq_sender(0, 0, inj, 0x41, full, 0, 1, &r));
    memset(count, 0, sizeof count);
    for (i = 0; i < 2000; i++) count[sa_bgl_slq_sender(0, req, inj, 0, full, 1, 0, &r)]++;
    ST_EQ(2000, count[0] + count[2]);
    ST_CHECKF(count[0] > 850 && count[2] > 850, "%d %d", count[0], count[2]);
}

/* Random inputs for the three arbiters against the rules written out
 * again (tests/bgl_oracle.h). */
ST_TEST(bgl_arbiters_random_against_rules) {
    uint64_t seed = 3;
    sa_rng r;
    int trial;
    sa_rng_seed(&r, 11);
    for (trial = 0; trial < 9000; trial++) {
        uint64_t m1 = st_rand(&seed) & st_rand(&seed), m2 = st_rand(&seed) | st_rand(&seed), m3 = st_rand(&seed);
        uint8_t level[64];
        int x = (int)st_rand_below(&seed, 67) - 2, f1 = (int)st_rand_below(&seed, 2), f2 = (int)st_rand_below(&seed, 2);
        int i, got;
        for (i = 0; i < 64; i++) level[i] = (uint8_t)st_rand_below(&seed, 4);
        if (trial % 7 == 0) m2 &= ~m1;             /* no dynamic pair available */
        if (trial % 5 == 0) m1 &= m3;              /* injection requests only */
        switch (trial % 3) {
        case 0:
            got = sa_bgl_jsq(m1, m2, level, x, &r);
            ST_CHECKF(bo_jsq_ok(m1, m2, level, x, got), "trial %d: jsq %d", trial, got);
            break;
        case 1:
            m2 &= st_rand(&seed) & st_rand(&seed);  /* a few high-priority requests */
            got = sa_bgl_slq_receiver(m1, m2, level, x, f1, &r);
            ST_CHECKF(bo_receiver_ok(m1, m2, level, x, f1, got), "trial %d: receiver %d", trial, got);
            break;
        default:
            m2 &= st_rand(&seed) & st_rand(&seed);
            got = sa_bgl_slq_sender(x == -2, m1, m3, m2, level, f1, f2, &r);
            ST_CHECKF(bo_sender_ok(x == -2, m1, m3, m2, level, f1, f2, got), "trial %d: sender %d", trial, got);
            break;
        }
    }
}
