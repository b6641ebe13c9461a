/* SPDX-License-Identifier: MIT */
/* test_smoke.c - result strings exist for every code. */
#include "st_test.h"
#include "../seastar_arb.h"

ST_TEST(arb_result_strings_cover_every_code) {
    int r;
    for (r = 0; r < SA_RESULT_COUNT; r++)
        ST_CHECKF(strcmp(sa_result_string((sa_result)r), "unknown result") != 0,
                  "code %d has no message", r);
    ST_EQ_STR("unknown result", sa_result_string(SA_RESULT_COUNT));
}
