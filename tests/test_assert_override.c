/* SPDX-License-Identifier: MIT */
/* test_assert_override.c - SA_ASSERT can be redirected by the user, and a
 * broken precondition on a hot path is reported, never undefined. */
static int assert_hits;
#define SA_ASSERT(c) ((c) ? (void)0 : (void)assert_hits++)
#include "st_test.h"
#include "../seastar_arb.h"

ST_TEST(arb_assert_override_catches_stray_eligible_bits) {
    sa_age_config cfg;
    sa_output_arb arb;
    sa_grant g;
    uint8_t ages[6] = { 1, 2, 3, 4, 5, 6 };
    sa_age_config_default(&cfg, 7);
    sa_output_arb_init(&arb, 3, 2);              /* 6 candidates */
    assert_hits = 0;
    ST_EQ(5, sa_output_select(&arb, &cfg, NULL, 0xFFFFu, ages, &g)); /* bits 6-15 stray */
    ST_EQ(1, assert_hits);
    ST_EQ(-1, sa_output_select(&arb, &cfg, NULL, 0xFFC0u, ages, &g)); /* only stray bits */
    ST_EQ(2, assert_hits);
}

ST_TEST(arb_assert_override_catches_bad_grant) {
    sa_output_arb arb, before;
    sa_grant g;
    sa_output_arb_init(&arb, 3, 2);
    before = arb;
    assert_hits = 0;
    g.candidate = 6; g.policy = SA_POLICY_AGE; g.source = 3; g.vc = 0; g.age = 0;
    sa_output_update(&arb, &g);
    ST_EQ(1, assert_hits);
    ST_CHECK(memcmp(&before, &arb, sizeof arb) == 0);
}
