/* SPDX-License-Identifier: MIT */
/* test_aging.c - SeaStar age-based arbitration: Procedures 1-3 against the
 * ideal age, forward progress, the output arbiter, the performance-counter
 * helpers and bad input (seed 000 Section 2). */
#include "st_test.h"
#include "../seastar_arb.h"

/* ---------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------- */

/* A configuration with every bias set to b (ports 0..6). */
static sa_age_config cfg_with_bias(int b, uint32_t period) {
    sa_age_config cfg;
    int p;
    sa_age_config_default(&cfg, SA_SEASTAR_PORTS);
    cfg.age_clock_period = period;
    for (p = 0; p < SA_SEASTAR_PORTS; p++) {
        cfg.req_age_bias[p] = (uint8_t)b;
        cfg.rsp_age_bias[p] = (uint8_t)b;
    }
    return cfg;
}

/* The ideal age: min(255, age on arrival + bias + timestamp increments). */
static unsigned ideal_age(unsigned arrival_age, unsigned bias, unsigned increments) {
    unsigned a = arrival_age + bias + increments;
    return a > 255 ? 255 : a;
}

/* Procedure 2 line 8 exactly as printed, for the record of why it changed. */
static unsigned printed_age_at_head(const sa_age_clock *clk, uint16_t field) {
    unsigned rollover = ((field >> 9) & 1u) != clk->epoch;
    unsigned new_age = ((field & 0x1FFu) + ((rollover << 8) | clk->timestamp)) & 0x3FFu;
    if (((new_age >> 8) & 1u) || (((new_age >> 9) & 1u) && ((field >> 8) & 1u)))
        return 255;
    return new_age & 0xFFu;
}

/* ---------------------------------------------------------------------
 * Procedures 1 and 2 against the ideal, exhaustively
 * --------------------------------------------------------------------- */

/* Every arrival age 0..255 and bias 0..7 on request and response VCs:
 * the field holds the epoch, age - timestamp in 9 bits, and the age seen
 * at once equals min(255, age + bias). */
ST_TEST(aging_procedure1_bias_and_saturation_exhaustive) {
    int bias, vc;
    unsigned age, ts;
    for (bias = 0; bias <= 7; bias++)
        for (vc = 0; vc < 4; vc++)
            for (ts = 0; ts < 256; ts += ST_LONG ? 1 : 17)
                for (age = 0; age < 256; age++) {
                    sa_age_config cfg = cfg_with_bias(0, 8);
                    sa_age_clock clk;
                    uint16_t f = (uint16_t)(age | 0x700u); /* junk in 10:8 is ignored */
                    unsigned biased = age + (unsigned)bias > 255 ? 255 : age + (unsigned)bias;
                    if (vc < 2) cfg.req_age_bias[3] = (uint8_t)bias;
                    else cfg.rsp_age_bias[3] = (uint8_t)bias;
                    ST_EQ(SA_OK, sa_age_clock_init(&clk, &cfg));
                    clk.timestamp = (uint8_t)ts;
                    clk.epoch = (uint8_t)(ts & 1u);
                    ST_EQ(SA_OK, sa_age_arrive(&clk, &cfg, 3, vc, &f));
                    ST_EQ(clk.epoch, (f >> 9) & 1u);
                    ST_EQ(0, f >> 10);
                    ST_EQ((biased - ts) & 0x1FFu, f & 0x1FFu);
                    ST_EQ(1, clk.packet_count[clk.epoch]);
                    ST_EQ(0, clk.packet_count[clk.epoch ^ 1u]);
                    ST_EQ(biased, sa_age_at_head(&clk, f));
                }
}

/* Every reachable combination of arrival age, arrival timestamp, arrival
 * epoch, epoch change and current timestamp: the age the arbiter sees and
 * the age written into the outgoing header equal the ideal.  (At most one
 * epoch change can separate arrival and departure: the epoch switches only
 * when the next epoch holds no packets, and this packet is counted in its
 * arrival epoch until it departs.) */
ST_TEST(aging_procedure2_matches_ideal_exhaustive) {
    sa_age_config cfg = cfg_with_bias(0, 1);
    unsigned a, ts_a, e, r, ts;
    long checked = 0;
    for (e = 0; e < 2; e++)
        for (ts_a = 0; ts_a < 256; ts_a++)
            for (a = 0; a < 256; a++) {
                sa_age_clock clk;
                uint16_t f = (uint16_t)a;
                sa_age_clock_init(&clk, &cfg);
                clk.timestamp = (uint8_t)ts_a;
                clk.epoch = (uint8_t)e;
                sa_age_arrive(&clk, &cfg, 0, 0, &f);
                for (r = 0; r < 2; r++)
                    for (ts = r ? 0 : ts_a; ts < 256; ts++) {
                        unsigned want = ideal_age(a, 0, ts + 256 * r - ts_a);
                        clk.timestamp = (uint8_t)ts;
                        clk.epoch = (uint8_t)(e ^ r);
                        ST_CHECKF(sa_age_at_head(&clk, f) == want,
                                  "age %u arrived at ts %u epoch %u, now ts %u epoch %u: got %u want %u",
                                  a, ts_a, e, ts, e ^ r, sa_age_at_head(&clk, f), want);
                        checked++;
                    }
                {   /* departure at the latest reachable state */
                    uint16_t out = f;
                    clk.timestamp = 255;
                    clk.epoch = (uint8_t)(e ^ 1u);
                    ST_EQ(SA_OK, sa_age_depart(&clk, &out));
                    ST_EQ(255, out);
                    ST_EQ(0, clk.packet_count[e]);
                }
            }
    ST_EQ(2L * 256 * ((256 * 257) / 2 + 256 * 256), checked);
}

/* The printed line 8 of Procedure 2 disagrees with the ideal; these are the
 * two cases named in the comment of sa_age_at_head. */
ST_TEST(aging_printed_line8_is_wrong_and_library_is_right) {
    sa_age_config cfg = cfg_with_bias(0, 1);
    sa_age_clock clk;
    uint16_t f = 5;
    sa_age_clock_init(&clk, &cfg);
    clk.timestamp = 100;
    sa_age_arrive(&clk, &cfg, 0, 0, &f);      /* age 5 at timestamp 100 */
    clk.timestamp = 101;                      /* one increment later */
    ST_EQ(255, printed_age_at_head(&clk, f)); /* printed: saturates */
    ST_EQ(6, sa_age_at_head(&clk, f));        /* ideal: 5 + 1 */

    f = 255;
    clk.timestamp = 0; clk.epoch = 0;
    sa_age_arrive(&clk, &cfg, 0, 0, &f);      /* age 255 at timestamp 0 */
    clk.timestamp = 1; clk.epoch = 1;         /* 257 increments later */
    ST_EQ(0, printed_age_at_head(&clk, f));   /* printed: wraps to 0 */
    ST_EQ(255, sa_age_at_head(&clk, f));
}

/* Computing an age changes no state: asking again gives the same answer and
 * the clock is untouched. */
ST_TEST(aging_age_at_head_is_pure) {
    sa_age_config cfg = cfg_with_bias(1, 3);
    sa_age_clock clk, before;
    uint16_t f = 77;
    int i;
    sa_age_clock_init(&clk, &cfg);
    sa_age_arrive(&clk, &cfg, 2, 1, &f);
    for (i = 0; i < 50; i++) sa_age_tick(&clk);
    before = clk;
    ST_EQ(sa_age_at_head(&clk, f), sa_age_at_head(&clk, f));
    ST_CHECK(memcmp(&before, &clk, sizeof clk) == 0);
    ST_EQ(78 + 50 / 3, sa_age_at_head(&clk, f));
}

/* ---------------------------------------------------------------------
 * Procedure 3 and the whole cycle against an independent reference clock
 * --------------------------------------------------------------------- */

/* Reference model of the age clock, written from the paper's description
 * rather than its pseudocode: an unbounded count of timestamp increments,
 * one every `period` ticks; the increment that would wrap 255 -> 0 waits,
 * with the countdown stopped, until the next epoch is empty; the countdown
 * restarts from `period` the tick after it became empty. */
typedef struct ref_clock {
    uint64_t increments;  /* timestamp increments so far */
    uint32_t countdown;   /* ticks to the next expiry */
    int waiting;          /* an expiry at 255 is waiting for a drain */
    int epoch;
    uint32_t count[2];
} ref_clock;

static void ref_tick(ref_clock *rc, uint32_t period) {
    if (rc->waiting) {
        if (rc->count[rc->epoch ^ 1] == 0) rc->waiting = 0;
        return;
    }
    if (--rc->countdown) return;
    rc->countdown = period;
    if (rc->increments % 256 == 255) {
        if (rc->count[rc->epoch ^ 1]) { rc->waiting = 1; return; }
        rc->epoch ^= 1;
    }
    rc->increments++;
}

typedef struct live_pkt {
    uint16_t field;
    unsigned arrival_age;     /* after bias */
    uint64_t arrival_incs;    /* reference increments at arrival */
    int epoch;
} live_pkt;

/* Random arrivals and departures over many epochs with periods 1..5:
 * timestamp and epoch follow the reference clock, every packet's age at
 * every step equals the ideal, the epoch never switches while the next
 * epoch holds packets, and the per-epoch counts are exact. */
ST_TEST(aging_clock_and_ages_follow_reference_model) {
    uint64_t seed = 12345;
    uint32_t period;
    for (period = 1; period <= 5; period++) {
        sa_age_config cfg = cfg_with_bias(2, period);
        sa_age_clock clk;
        ref_clock rc;
        live_pkt live[64];
        int nlive = 0, t, i, steps = ST_LONG ? 2000000 : 200000;
        sa_age_clock_init(&clk, &cfg);
        memset(&rc, 0, sizeof rc);
        rc.countdown = period;
        for (t = 0; t < steps; t++) {
            uint32_t u = st_rand_below(&seed, 100);
            if (u < 3 && nlive < 64) {                 /* arrival */
                live_pkt *p = &live[nlive++];
                unsigned age = st_rand_below(&seed, 256);
                p->field = (uint16_t)age;
                ST_EQ(SA_OK, sa_age_arrive(&clk, &cfg, (int)(u % 7), (int)(u % 4), &p->field));
                p->arrival_age = age + 2 > 255 ? 255 : age + 2;
                p->arrival_incs = rc.increments;
                p->epoch = rc.epoch;
                rc.count[rc.epoch]++;
            } else if (u < 6 && nlive > 0) {           /* departure */
                int k = (int)st_rand_below(&seed, (uint32_t)nlive);
                live_pkt *p = &live[k];
                uint16_t out = p->field;
                unsigned want = ideal_age(p->arrival_age, 0, (unsigned)(rc.increments - p->arrival_incs));
                ST_EQ(SA_OK, sa_age_depart(&clk, &out));
                ST_EQ(want, out);
                rc.count[p->epoch]--;
                live[k] = live[--nlive];
            }
            /* occasionally hold one packet for a long time, forcing inhibit */
            {
                uint8_t old_epoch = clk.epoch;
                sa_age_tick(&clk);
                ref_tick(&rc, period);
                if (clk.epoch != old_epoch)
                    ST_CHECKF(clk.packet_count[clk.epoch] == 0,
                              "epoch switched to %d holding %u packets",
                              clk.epoch, (unsigned)clk.packet_count[clk.epoch]);
            }
            ST_EQ(rc.increments % 256, clk.timestamp);
            ST_EQ(rc.epoch, clk.epoch);
            ST_EQ(rc.waiting, clk.inhibit);
            ST_EQ(rc.count[0], clk.packet_count[0]);
            ST_EQ(rc.count[1], clk.packet_count[1]);
            for (i = 0; i < nlive; i++) {
                unsigned want = ideal_age(live[i].arrival_age, 0,
                                          (unsigned)(rc.increments - live[i].arrival_incs));
                ST_CHECKF(sa_age_at_head(&clk, live[i].field) == want,
                          "period %u step %d: got %u want %u", (unsigned)period, t,
                          sa_age_at_head(&clk, live[i].field), want);
            }
        }
        ST_CHECKF(rc.increments > 3 * 256, "only %llu increments: too few epochs",
                  (unsigned long long)rc.increments);
    }
}

/* Procedure 3 step by step: the timestamp advances exactly every period
 * ticks, wraps into the other epoch when it is empty, and is held at 255
 * (inhibit) while it is not; inhibit clears on the first tick after the
 * drain and the switch follows one full period later. */
ST_TEST(aging_procedure3_countdown_inhibit_and_switch) {
    sa_age_config cfg = cfg_with_bias(1, 4);
    sa_age_clock clk;
    uint16_t f = 0;
    int t;
    sa_age_clock_init(&clk, &cfg);
    for (t = 1; t <= 4 * 255; t++) {
        sa_age_tick(&clk);
        ST_EQ(t / 4, clk.timestamp);
    }
    ST_EQ(255, clk.timestamp);
    /* a packet in epoch 0 and one forced into epoch 1's count */
    clk.packet_count[1] = 1;
    for (t = 0; t < 4; t++) sa_age_tick(&clk);
    ST_EQ(1, clk.inhibit);
    ST_EQ(255, clk.timestamp);
    ST_EQ(0, clk.epoch);
    for (t = 0; t < 100; t++) sa_age_tick(&clk);    /* held while busy */
    ST_EQ(1, clk.inhibit);
    ST_EQ(255, clk.timestamp);
    f = (uint16_t)(1u << 9);                        /* a packet of epoch 1 */
    ST_EQ(SA_OK, sa_age_depart(&clk, &f));
    sa_age_tick(&clk);
    ST_EQ(0, clk.inhibit);
    for (t = 0; t < 3; t++) { sa_age_tick(&clk); ST_EQ(255, clk.timestamp); }
    sa_age_tick(&clk);
    ST_EQ(0, clk.timestamp);
    ST_EQ(1, clk.epoch);
    ST_EQ(0, clk.inhibit);
}

/* A write to AGE_CLK_PERIOD reloads the countdown at once. */
ST_TEST(aging_set_period_reloads_countdown) {
    sa_age_config cfg = cfg_with_bias(1, 1000);
    sa_age_clock clk;
    int t;
    sa_age_clock_init(&clk, &cfg);
    for (t = 0; t < 999; t++) sa_age_tick(&clk);
    ST_EQ(0, clk.timestamp);
    ST_EQ(SA_OK, sa_age_clock_set_period(&clk, 2));
    sa_age_tick(&clk);
    ST_EQ(0, clk.timestamp);
    sa_age_tick(&clk);
    ST_EQ(1, clk.timestamp);
}

/* ---------------------------------------------------------------------
 * Forward progress
 * --------------------------------------------------------------------- */

#define FP_N 24      /* candidates: 6 sources x 4 VCs */
#define FP_Q 4       /* packets per staging buffer */

typedef struct fp_fifo { uint16_t field[FP_Q]; long born[FP_Q]; int head, len; } fp_fifo;

/* One output port with 24 always-refilled staging buffers, one grant per
 * cycle, pure age-based AGE_RR_SELECT, and an adversary: half the buffers
 * receive packets that arrive with age 255, the rest age 0.  Returns the
 * longest wait of any packet. */
static long fp_run(uint32_t period, int cycles, uint64_t seed) {
    sa_age_config cfg = cfg_with_bias(0, period);
    sa_age_clock clk;
    sa_output_arb arb;
    fp_fifo q[FP_N];
    long t, worst = 0;
    int c;
    memset(q, 0, sizeof q);
    sa_age_clock_init(&clk, &cfg);
    sa_output_arb_init(&arb, 6, 4);
    for (t = 0; t < cycles; t++) {
        uint64_t eligible = 0;
        uint8_t ages[FP_N];
        sa_grant g;
        for (c = 0; c < FP_N; c++) {
            fp_fifo *f = &q[c];
            if (f->len < FP_Q && st_rand_below(&seed, 4) != 0) {
                int slot = (f->head + f->len++) % FP_Q;
                f->field[slot] = (uint16_t)(c < FP_N / 2 ? 255 : 0);
                f->born[slot] = t;
                sa_age_arrive(&clk, &cfg, c % 7, c % 4, &f->field[slot]);
            }
            if (f->len) {
                eligible |= (uint64_t)1 << c;
                ages[c] = (uint8_t)sa_age_at_head(&clk, f->field[f->head]);
            } else {
                ages[c] = 0;
            }
        }
        if (sa_output_arbitrate(&arb, &cfg, &clk, eligible, ages, &g) >= 0) {
            fp_fifo *f = &q[g.candidate];
            long wait = t - f->born[f->head];
            if (wait > worst) worst = wait;
            sa_age_depart(&clk, &f->field[f->head]);
            f->head = (f->head + 1) % FP_Q;
            f->len--;
        }
        sa_age_tick(&clk);
    }
    /* packets still waiting count too */
    for (c = 0; c < FP_N; c++) {
        int k;
        for (k = 0; k < q[c].len; k++) {
            long wait = cycles - q[c].born[(q[c].head + k) % FP_Q];
            if (wait > worst) worst = wait;
        }
    }
    return worst;
}

/* The bound: a packet arriving in epoch e at timestamp ts waits at most
 *   256P      for the timestamp to reach 255 in e (then one more expiry, P),
 *   NQ + 1    for older packets of the other epoch to drain by round-robin
 *             (they are at the fronts of the FIFOs; round-robin serves every
 *             non-empty FIFO once in N grants; inhibit clears one tick later),
 *   P         for the countdown to expire again and switch epochs,
 *   255P + P  for the timestamp to reach 255 in the new epoch and expire,
 *   NQ        to be drained itself by round-robin while inhibited,
 * so 514P + 2NQ + 1 cycles, whatever the adversary sends. */
ST_TEST(aging_forward_progress_within_derived_bound) {
    uint32_t periods[3] = { 1, 2, 5 };
    int i, cycles = ST_LONG ? 2000000 : 150000;
    for (i = 0; i < 3; i++) {
        long bound = 514L * periods[i] + 2L * FP_N * FP_Q + 1;
        long worst = fp_run(periods[i], cycles, 99 + (uint64_t)i);
        ST_CHECKF(worst <= bound, "period %u: a packet waited %ld cycles, bound %ld",
                  (unsigned)periods[i], worst, bound);
        ST_CHECKF(worst > FP_N, "period %u: worst wait %ld is implausibly small",
                  (unsigned)periods[i], worst);
    }
}

/* ---------------------------------------------------------------------
 * Output arbitration
 * --------------------------------------------------------------------- */

static sa_age_config cfg_rr_select(uint64_t sel) {
    sa_age_config cfg = cfg_with_bias(1, 8);
    cfg.age_rr_select = sel;
    return cfg;
}

/* All-zero AGE_RR_SELECT is pure round-robin: N always-eligible candidates
 * each get exactly M of N*M grants, for every N and random candidate sets. */
ST_TEST(arb_all_zero_select_is_round_robin) {
    sa_age_config cfg = cfg_rr_select(0);
    uint64_t seed = 5;
    int trial;
    for (trial = 0; trial < 200; trial++) {
        sa_output_arb arb;
        uint8_t ages[64];
        uint64_t eligible = 0;
        int counts[64] = { 0 }, n, i, c, m = 7;
        int sources = 1 + (int)st_rand_below(&seed, 16), vcs = 1 + (int)st_rand_below(&seed, 4);
        sa_grant g;
        ST_EQ(SA_OK, sa_output_arb_init(&arb, sources, vcs));
        n = sources * vcs;
        for (c = 0; c < n; c++) {
            ages[c] = (uint8_t)st_rand_below(&seed, 256);
            if (st_rand_below(&seed, 2)) eligible |= (uint64_t)1 << c;
        }
        if (!eligible) eligible = 1;
        for (i = 0; i < sa__popcount64(eligible) * m; i++) {
            ST_CHECK(sa_output_arbitrate(&arb, &cfg, NULL, eligible, ages, &g) >= 0);
            ST_EQ(SA_POLICY_ROUND_ROBIN, g.policy);
            counts[g.candidate]++;
        }
        for (c = 0; c < n; c++)
            ST_EQ((eligible >> c) & 1u ? m : 0, counts[c]);
    }
}

/* All ones picks the oldest eligible candidate (brute-force maximum). */
ST_TEST(arb_all_ones_picks_the_oldest) {
    sa_age_config cfg = cfg_rr_select(~(uint64_t)0);
    sa_output_arb arb;
    uint64_t seed = 11;
    int trial;
    sa_output_arb_init(&arb, 6, 4);
    for (trial = 0; trial < 20000; trial++) {
        uint8_t ages[24];
        uint64_t eligible = st_rand(&seed) & 0xFFFFFF;
        int c, oldest = -1;
        sa_grant g;
        for (c = 0; c < 24; c++) ages[c] = (uint8_t)st_rand_below(&seed, trial % 2 ? 8 : 256);
        for (c = 0; c < 24; c++)
            if (((eligible >> c) & 1u) && (oldest < 0 || ages[c] > ages[oldest])) oldest = c;
        c = sa_output_arbitrate(&arb, &cfg, NULL, eligible, ages, &g);
        ST_EQ(oldest < 0 ? -1 : 1, c < 0 ? -1 : 1);
        if (c >= 0) {
            ST_EQ(ages[oldest], ages[c]);
            ST_EQ(ages[c], g.age);
            ST_EQ(SA_POLICY_AGE, g.policy);
            ST_EQ(c / 4, g.source);
            ST_EQ(c % 4, g.vc);
        }
    }
}

/* Ties between equally old packets are broken round-robin: 24 candidates
 * of equal age each win exactly 10 of 240 grants, in rotating order. */
ST_TEST(arb_age_ties_broken_round_robin) {
    sa_age_config cfg = cfg_rr_select(~(uint64_t)0);
    sa_output_arb arb;
    uint8_t ages[24];
    int counts[24] = { 0 }, i, last = -1;
    sa_grant g;
    memset(ages, 200, sizeof ages);
    ages[5] = 3;                                  /* younger: never wins */
    sa_output_arb_init(&arb, 6, 4);
    for (i = 0; i < 230; i++) {
        int c = sa_output_arbitrate(&arb, &cfg, NULL, 0xFFFFFF, ages, &g);
        ST_CHECK(c != 5);
        if (last >= 0) ST_EQ((last + 1) % 24 == 5 ? (last + 2) % 24 : (last + 1) % 24, c);
        counts[c]++;
        last = c;
    }
    for (i = 0; i < 24; i++) ST_EQ(i == 5 ? 0 : 10, counts[i]);
}

/* 0101... alternates the policies grant by grant (bit i of AGE_RR_SELECT
 * decides grant i of every 64), and the two pointers move independently. */
ST_TEST(arb_alternating_select_alternates_policies) {
    sa_age_config cfg = cfg_rr_select(0x5555555555555555ull);
    sa_output_arb arb;
    uint8_t ages[24];
    int i;
    sa_grant g;
    for (i = 0; i < 24; i++) ages[i] = (uint8_t)i;   /* candidate 23 is oldest */
    sa_output_arb_init(&arb, 6, 4);
    for (i = 0; i < 200; i++) {
        int c = sa_output_arbitrate(&arb, &cfg, NULL, 0xFFFFFF, ages, &g);
        if (i % 2 == 0) {
            ST_EQ(SA_POLICY_AGE, g.policy);
            ST_EQ(23, c);
        } else {
            ST_EQ(SA_POLICY_ROUND_ROBIN, g.policy);
            ST_EQ((i / 2) % 24, c);               /* the rr pointer alone */
        }
    }
    ST_EQ(200 % 64, arb.grant_counter);
}

/* While the age clock is inhibited, age-based grants become round-robin and
 * move only the round-robin pointer. */
ST_TEST(arb_inhibit_forces_round_robin) {
    sa_age_config cfg = cfg_rr_select(~(uint64_t)0);
    sa_age_clock clk;
    sa_output_arb arb;
    uint8_t ages[24];
    int i;
    sa_grant g;
    for (i = 0; i < 24; i++) ages[i] = (uint8_t)(255 - i);  /* 0 is oldest */
    sa_age_clock_init(&clk, &cfg);
    sa_output_arb_init(&arb, 6, 4);
    clk.inhibit = 1;
    for (i = 0; i < 48; i++) {
        ST_EQ(i % 24, sa_output_arbitrate(&arb, &cfg, &clk, 0xFFFFFF, ages, &g));
        ST_EQ(SA_POLICY_ROUND_ROBIN, g.policy);
        ST_EQ(0, arb.age_pointer);
    }
    clk.inhibit = 0;
    ST_EQ(0, sa_output_arbitrate(&arb, &cfg, &clk, 0xFFFFFF, ages, &g));
    ST_EQ(SA_POLICY_AGE, g.policy);
}

/* No eligible candidate: no grant, no grant cycle, no state change; select
 * alone changes nothing. */
ST_TEST(arb_select_is_pure_and_empty_is_no_grant) {
    sa_age_config cfg = cfg_rr_select(0x3);
    sa_output_arb arb, before;
    uint8_t ages[24] = { 0 };
    sa_grant g;
    sa_output_arb_init(&arb, 6, 4);
    arb.rr_pointer = 7; arb.age_pointer = 9; arb.grant_counter = 63;
    before = arb;
    ST_EQ(-1, sa_output_arbitrate(&arb, &cfg, NULL, 0, ages, &g));
    ST_EQ(-1, g.candidate);
    ST_CHECK(memcmp(&before, &arb, sizeof arb) == 0);
    ST_EQ(7, sa_output_select(&arb, &cfg, NULL, 0xFFFFFF, ages, &g));
    ST_CHECK(memcmp(&before, &arb, sizeof arb) == 0);
    sa_output_update(&arb, &g);
    ST_EQ(0, arb.grant_counter);                  /* 6-bit counter wraps */
    ST_EQ(8, arb.rr_pointer);
    ST_EQ(9, arb.age_pointer);
}

/* ---------------------------------------------------------------------
 * Performance counters
 * --------------------------------------------------------------------- */

ST_TEST(aging_histogram_layout_of_table4) {
    uint64_t g[2] = { 0, 0 };
    unsigned age;
    int b;
    sa_age_histogram_record(g, 70);
    ST_EQ_U64((uint64_t)1 << 32, g[0]);
    ST_EQ_U64(0, g[1]);
    sa_age_histogram_record(g, 128);
    sa_age_histogram_record(g, 255);
    ST_EQ_U64(((uint64_t)1 << 32) | 1u, g[1]);
    g[0] = g[1] = 0;
    for (age = 0; age < 256; age++) {
        int k;
        for (k = 0; k < 3; k++) sa_age_histogram_record(g, age);
    }
    for (b = 0; b < 4; b++) ST_EQ(3 * 64, sa_age_histogram_bucket(g, b));
    ST_EQ(0, sa_age_histogram_bucket(g, 4));
    ST_EQ(0, sa_age_histogram_bucket(g, -1));
    /* a 32-bit counter wraps without carrying into its neighbour */
    g[0] = 0xFFFFFFFFull;
    sa_age_histogram_record(g, 0);
    ST_EQ_U64(0, g[0]);
}

ST_TEST(aging_occupancy_eq17) {
    double occ = -1;
    ST_EQ(SA_OK, sa_occupancy(300, 20, 10, &occ));
    ST_NEAR(10.0, occ, 1e-12);
    ST_EQ(SA_ERR_ZERO_PACKETS, sa_occupancy(5, 0, 0, &occ));
    ST_NEAR(0.0, occ, 0);
    ST_EQ(SA_ERR_NULL, sa_occupancy(5, 1, 1, NULL));
}

/* ---------------------------------------------------------------------
 * Section 3 parameter derivation
 * --------------------------------------------------------------------- */

/* The 11x12x16 worked example of Section 3.2, every step. */
ST_TEST(aging_section3_worked_example_11x12x16) {
    sa_period_desc d;
    sa_period_estimate e;
    memset(&d, 0, sizeof d);
    d.num_dims = 3;
    d.radix[0] = 11; d.radix[1] = 12; d.radix[2] = 16;
    d.bias[0] = 3; d.bias[1] = 2; d.bias[2] = 1;
    ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e));
    ST_EQ(3, e.hops[0]); ST_EQ(3, e.hops[1]); ST_EQ(4, e.hops[2]);
    ST_EQ(10, e.total_hops);
    ST_EQ(19, e.bias_total);
    ST_EQ(11, e.ticks_per_hop);
    ST_EQ(11, e.packets_queued);
    ST_EQ(18, e.cycles_per_packet);
    ST_EQ(198, e.queue_cycles_per_hop);
    ST_EQ(18, e.age_clock_period);
    /* zero biases take the ordering 3, 2, 1 */
    d.bias[0] = d.bias[1] = d.bias[2] = 0;
    ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e));
    ST_EQ(19, e.bias_total);
    ST_EQ(18, e.age_clock_period);
}

/* Eq 4-7 against brute-force averages of ring and line distances: the
 * torus formula k/4 is the average over all destinations (even k), the mesh
 * formula (k+1)/3 the average over distinct destinations. */
ST_TEST(aging_section3_average_hops_brute_force) {
    int k;
    for (k = 2; k <= 40; k++) {
        double h, ring = 0, line = 0;
        int s, d;
        for (s = 0; s < k; s++)
            for (d = 0; d < k; d++) {
                int fwd = (d - s + k) % k;
                ring += fwd < k - fwd ? fwd : k - fwd;
                line += s > d ? s - d : d - s;
            }
        ST_EQ(SA_OK, sa_average_hops_dim(k, 0, &h));
        ST_NEAR(line / (k * (k - 1)), h, 1e-12);
        if (k % 2 == 0) {
            ST_EQ(SA_OK, sa_average_hops_dim(k, 1, &h));
            ST_NEAR(ring / (k * k), h, 1e-12);
        }
    }
    {
        int radix[3] = { 11, 12, 16 }, mixed[3] = { 1, 0, 1 };
        double h;
        ST_EQ(SA_OK, sa_average_hops(3, radix, NULL, &h));
        ST_NEAR(11 / 4.0 + 3 + 4, h, 1e-12);
        ST_EQ(SA_OK, sa_average_hops(3, radix, mixed, &h));
        ST_NEAR(11 / 4.0 + 13 / 3.0 + 4, h, 1e-12);
    }
}

/* Eq 8-9 against brute force: uniform traffic (one packet from every node
 * to a uniformly chosen destination), minimal routes, ties on the ring split
 * evenly; the torus's average channel load is k/8 and the mesh's bisection
 * channel load k/4; all traffic across the bisection doubles both. */
ST_TEST(aging_section3_channel_load_brute_force) {
    int k;
    for (k = 2; k <= 32; k += 2) {
        double ring_total = 0, bisect = 0, g;
        int s, d;
        for (s = 0; s < k; s++)
            for (d = 0; d < k; d++) {
                int fwd = (d - s + k) % k;
                ring_total += fwd < k - fwd ? fwd : k - fwd;   /* hops, either way */
                if (s < k / 2 && d >= k / 2) bisect += 1;       /* crosses rightwards */
            }
        /* 2k unidirectional ring channels, each source sends 1/k per dest */
        ST_EQ(SA_OK, sa_channel_load(k, 1, 0, &g));
        ST_NEAR(ring_total / k / (2.0 * k), g, 1e-12);
        ST_EQ(SA_OK, sa_channel_load(k, 0, 0, &g));
        ST_NEAR(bisect / k, g, 1e-12);
        ST_EQ(SA_OK, sa_channel_load(k, 0, 1, &g));
        ST_NEAR(2 * bisect / k, g, 1e-12);
        ST_EQ(SA_OK, sa_channel_load(k, 1, 1, &g));
        ST_NEAR(2 * ring_total / k / (2.0 * k), g, 1e-12);
    }
}

/* Eq 10-13 against enumeration of every (source, destination) pair of a
 * dimension-order routed 3-D network: the dimension a packet leaves from is
 * the last dimension in which source and destination differ. */
ST_TEST(aging_section3_ejection_probabilities_enumerated) {
    int radix[3] = { 5, 3, 4 };
    double p[3], count[3] = { 0, 0, 0 }, total = 0;
    int sx, sy, sz, dx, dy, dz;
    for (sx = 0; sx < 5; sx++) for (sy = 0; sy < 3; sy++) for (sz = 0; sz < 4; sz++)
    for (dx = 0; dx < 5; dx++) for (dy = 0; dy < 3; dy++) for (dz = 0; dz < 4; dz++) {
        int last = 2;                     /* own node: counted with z (Eq 12) */
        if (sz != dz) last = 2;
        else if (sy != dy) last = 1;
        else if (sx != dx) last = 0;
        count[last] += 1;
        total += 1;
    }
    ST_EQ(SA_OK, sa_ejection_probabilities(3, radix, p));
    ST_NEAR(count[0] / total, p[0], 1e-12);
    ST_NEAR(count[1] / total, p[1], 1e-12);
    ST_NEAR(count[2] / total, p[2], 1e-12);
    /* Eq 10 and 11 literally */
    ST_NEAR((4.0 / 5) * (1.0 / 3) * (1.0 / 4), p[0], 1e-12);
    ST_NEAR((2.0 / 3) * (1.0 / 4), p[1], 1e-12);
}

/* Eq 14-16 on hand-worked numbers: SeaStar's Bc = 4.8, Ep = 2 on 11x12x16
 * is ejection-limited (2, 2, 2); on a 16x24x32 torus the z channels limit
 * everything to 4.8*8/32 = 1.2; as a mesh the terms become 4/k: z gives 0.6. */
ST_TEST(aging_section3_ejection_rates) {
    int r1[3] = { 11, 12, 16 }, r2[3] = { 16, 24, 32 }, mesh[3] = { 0, 0, 0 };
    double u[3];
    ST_EQ(SA_OK, sa_ejection_rates(3, r1, NULL, 4.8, 2.0, u));
    ST_NEAR(2.0, u[0], 1e-12); ST_NEAR(2.0, u[1], 1e-12); ST_NEAR(2.0, u[2], 1e-12);
    ST_EQ(SA_OK, sa_ejection_rates(3, r2, NULL, 4.8, 2.0, u));
    ST_NEAR(1.2, u[0], 1e-12); ST_NEAR(1.2, u[1], 1e-12); ST_NEAR(1.2, u[2], 1e-12);
    ST_EQ(SA_OK, sa_ejection_rates(3, r2, mesh, 4.8, 2.0, u));
    ST_NEAR(0.6, u[0], 1e-12); ST_NEAR(0.6, u[1], 1e-12); ST_NEAR(0.6, u[2], 1e-12);
    r2[2] = 4;                            /* z no longer limits: y does */
    ST_EQ(SA_OK, sa_ejection_rates(3, r2, NULL, 4.8, 2.0, u));
    ST_NEAR(2.0, u[2], 1e-12); ST_NEAR(1.6, u[1], 1e-12); ST_NEAR(1.6, u[0], 1e-12);
    ST_EQ(SA_ERR_PARAM_RANGE, sa_ejection_rates(3, r1, NULL, 0.0, 2.0, u));
}

ST_TEST(aging_section3_bias_ordering) {
    uint8_t b[7];
    ST_EQ(SA_OK, sa_bias_ordering(3, b));
    ST_EQ(3, b[0]); ST_EQ(2, b[1]); ST_EQ(1, b[2]);
    ST_EQ(SA_OK, sa_bias_ordering(7, b));
    ST_EQ(7, b[0]); ST_EQ(1, b[6]);
    ST_EQ(SA_ERR_DIM_RANGE, sa_bias_ordering(8, b));
    ST_EQ(SA_ERR_DIM_RANGE, sa_bias_ordering(0, b));
}

/* ---------------------------------------------------------------------
 * Bad input: an error code and a message, nothing written
 * --------------------------------------------------------------------- */

ST_TEST(aging_bad_config_rejected) {
    sa_age_config cfg;
    sa_age_clock clk;
    memset(&cfg, 0, sizeof cfg);                   /* zero-initialised */
    ST_EQ(SA_ERR_PERIOD_ZERO, sa_age_config_validate(&cfg));
    memset(&clk, 0xAB, sizeof clk);
    ST_EQ(SA_ERR_PERIOD_ZERO, sa_age_clock_init(&clk, &cfg));
    ST_EQ(0, clk.age_clock_period);                     /* zeroed, not garbage */
    ST_EQ(0, clk.age_clock_period_reg);
    ST_EQ(0, clk.packet_count[0] + clk.packet_count[1]);
    ST_EQ(0, clk.timestamp + clk.epoch + clk.inhibit);
    ST_CHECK(strstr(sa_result_string(SA_ERR_PERIOD_ZERO), "AGE_CLOCK_PERIOD") != NULL);

    sa_age_config_default(&cfg, 7);
    ST_EQ(SA_OK, sa_age_config_validate(&cfg));
    ST_EQ(0x1000, cfg.age_clock_period);
    ST_EQ(1, cfg.req_age_bias[6]);
    ST_EQ(1, cfg.rsp_age_bias[0]);
    ST_EQ_U64(~(uint64_t)0, cfg.age_rr_select);
    cfg.rsp_age_bias[6] = 8;
    ST_EQ(SA_ERR_BIAS_RANGE, sa_age_config_validate(&cfg));
    cfg.rsp_age_bias[6] = 7;
    ST_EQ(SA_OK, sa_age_config_validate(&cfg));
    cfg.num_ports = SA_MAX_PORTS + 1;
    ST_EQ(SA_ERR_PORT_RANGE, sa_age_config_validate(&cfg));
    cfg.num_ports = 0;
    ST_EQ(SA_ERR_PORT_RANGE, sa_age_config_validate(&cfg));
    ST_EQ(SA_ERR_PORT_RANGE, sa_age_config_default(&cfg, 17));
    ST_EQ(SA_ERR_NULL, sa_age_config_validate(NULL));
    ST_EQ(SA_ERR_NULL, sa_age_config_default(NULL, 7));
    sa_age_config_default(&cfg, 7);
    ST_EQ(SA_OK, sa_age_clock_init(&clk, &cfg));
    ST_EQ(SA_ERR_PERIOD_ZERO, sa_age_clock_set_period(&clk, 0));
    ST_EQ(0x1000, clk.age_clock_period);
}

ST_TEST(aging_bad_port_or_vc_changes_nothing) {
    sa_age_config cfg;
    sa_age_clock clk, before;
    uint16_t f = 42;
    int bad_ports[4] = { -1, 7, 16, 1000 }, bad_vcs[3] = { -1, 4, 99 }, i;
    sa_age_config_default(&cfg, 7);
    sa_age_clock_init(&clk, &cfg);
    before = clk;
    for (i = 0; i < 4; i++) {
        ST_EQ(SA_ERR_PORT_RANGE, sa_age_arrive(&clk, &cfg, bad_ports[i], 0, &f));
        ST_EQ(42, f);
    }
    for (i = 0; i < 3; i++) {
        ST_EQ(SA_ERR_VC_RANGE, sa_age_arrive(&clk, &cfg, 0, bad_vcs[i], &f));
        ST_EQ(42, f);
    }
    ST_CHECK(memcmp(&before, &clk, sizeof clk) == 0);
    ST_EQ(SA_ERR_NULL, sa_age_arrive(&clk, &cfg, 0, 0, NULL));
    ST_EQ(SA_ERR_COUNT_UNDERFLOW, sa_age_depart(&clk, &f));  /* never arrived */
    ST_EQ(42, f);
}

ST_TEST(arb_bad_counts_rejected) {
    sa_output_arb arb;
    memset(&arb, 0x5A, sizeof arb);
    ST_EQ(SA_ERR_SOURCE_RANGE, sa_output_arb_init(&arb, 17, 4));
    ST_EQ(0, sa_output_num_candidates(&arb));            /* zeroed */
    ST_EQ(0, arb.rr_pointer + arb.age_pointer + arb.grant_counter);
    ST_EQ(SA_ERR_SOURCE_RANGE, sa_output_arb_init(&arb, -1, 4));
    ST_EQ(SA_ERR_VC_RANGE, sa_output_arb_init(&arb, 6, 9));
    ST_EQ(SA_ERR_CANDIDATE_RANGE, sa_output_arb_init(&arb, 16, 8));
    ST_EQ(0, sa_output_num_candidates(&arb));
    ST_EQ(SA_ERR_NULL, sa_output_arb_init(NULL, 6, 4));
    ST_EQ(SA_OK, sa_output_arb_init(&arb, 0, 0));  /* zero: SeaStar 6 x 4 */
    ST_EQ(24, sa_output_num_candidates(&arb));
    ST_EQ(SA_OK, sa_output_arb_init(&arb, 16, 4));
    ST_EQ(64, sa_output_num_candidates(&arb));
}

ST_TEST(aging_bad_section3_input) {
    int radix[3] = { 11, 1, 16 };
    double h, p[3];
    sa_period_desc d;
    sa_period_estimate e;
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops_dim(1, 1, &h));
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops_dim(0, 0, &h));
    ST_EQ(SA_ERR_RADIX_RANGE, sa_average_hops(3, radix, NULL, &h));
    ST_EQ(SA_ERR_DIM_RANGE, sa_average_hops(0, radix, NULL, &h));
    ST_EQ(SA_ERR_DIM_RANGE, sa_ejection_probabilities(SA_MAX_DIMS + 1, radix, p));
    ST_EQ(SA_ERR_RADIX_RANGE, sa_channel_load(1, 1, 0, &h));
    memset(&d, 0, sizeof d);
    ST_EQ(SA_ERR_DIM_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.num_dims = 1; d.radix[0] = 8; d.bias[0] = 8;
    ST_EQ(SA_ERR_BIAS_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.bias[0] = 1; d.max_packet_flits = 200;
    ST_EQ(SA_ERR_PARAM_RANGE, sa_age_clock_period_estimate(&d, &e));
    d.max_packet_flits = 0; d.target_age = 3; d.radix[0] = 64; d.bias[0] = 7;
    ST_EQ(SA_ERR_PARAM_RANGE, sa_age_clock_period_estimate(&d, &e)); /* biases reach target */
}

/* Age-based grants against brute force, on random output arbiters of every
 * shape (sources x VCs up to 64 candidates), candidate sets of every
 * density and ages with many ties or none: the winner is the first
 * eligible candidate of the largest age at or after the age pointer, and
 * the grant reports its age, source and VC. */
ST_TEST(arb_age_grant_is_oldest_first_from_the_pointer) {
    sa_age_config cfg = cfg_rr_select(~(uint64_t)0);
    uint64_t seed = 2024;
    int trial;
    for (trial = 0; trial < 100000; trial++) {
        sa_output_arb arb;
        sa_grant g;
        uint8_t ages[64];
        int vcs = 1 + (int)st_rand_below(&seed, SA_MAX_VCS), i, k, want = -1, c;
        int sources = 1 + (int)st_rand_below(&seed, (uint32_t)(64 / vcs < SA_MAX_SOURCES ? 64 / vcs : SA_MAX_SOURCES));
        int n = sources * vcs, range = trial % 3 ? 256 : 3;
        uint64_t eligible = st_rand(&seed) & (n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1));
        unsigned best = 0;
        ST_EQ(SA_OK, sa_output_arb_init(&arb, sources, vcs));
        arb.age_pointer = (uint8_t)st_rand_below(&seed, (uint32_t)n);
        for (i = 0; i < n; i++) ages[i] = (uint8_t)st_rand_below(&seed, (uint32_t)range);
        if (trial % 5 == 0) eligible &= st_rand(&seed);
        if (trial % 7 == 0) eligible &= st_rand(&seed) & st_rand(&seed) & st_rand(&seed);
        if (trial % 11 == 0) eligible = 0;
        for (i = 0; i < n; i++)
            if (((eligible >> i) & 1u) && ages[i] > best) best = ages[i];
        for (k = 0; k < n && want < 0; k++) {
            i = (arb.age_pointer + k) % n;
            if (((eligible >> i) & 1u) && ages[i] == best) want = i;
        }
        c = sa_output_select(&arb, &cfg, NULL, eligible, ages, &g);
        ST_EQ(want, c);
        ST_EQ(want, g.candidate);
        ST_EQ(SA_POLICY_AGE, g.policy);
        ST_EQ(want < 0 ? 0u : best, g.age);
        ST_EQ(want < 0 ? -1 : want / vcs, g.source);
        ST_EQ(want < 0 ? -1 : want % vcs, g.vc);
    }
}

/* Without ages every grant is round-robin, even with AGE_RR_SELECT all ones. */
ST_TEST(arb_null_ages_means_round_robin) {
    sa_age_config cfg = cfg_rr_select(~(uint64_t)0);
    sa_output_arb arb;
    sa_grant g;
    int i;
    sa_output_arb_init(&arb, 2, 2);
    for (i = 0; i < 8; i++) {
        ST_EQ(i % 4, sa_output_arbitrate(&arb, &cfg, NULL, 0xF, NULL, &g));
        ST_EQ(SA_POLICY_ROUND_ROBIN, g.policy);
    }
}

/* The grant's source and VC (computed with a reciprocal, not a division)
 * are candidate / num_vcs and candidate % num_vcs for every configuration. */
ST_TEST(arb_grant_source_and_vc_exhaustive) {
    sa_age_config cfg = cfg_rr_select(0);
    int sources, vcs, c;
    for (vcs = 1; vcs <= SA_MAX_VCS; vcs++)
        for (sources = 1; sources <= SA_MAX_SOURCES && sources * vcs <= 64; sources++) {
            sa_output_arb arb;
            ST_EQ(SA_OK, sa_output_arb_init(&arb, sources, vcs));
            for (c = 0; c < sources * vcs; c++) {
                sa_grant g;
                arb.rr_pointer = (uint8_t)c;
                ST_EQ(c, sa_output_select(&arb, &cfg, NULL, (uint64_t)1 << c, NULL, &g));
                ST_EQ(c / vcs, g.source);
                ST_EQ(c % vcs, g.vc);
            }
        }
}
