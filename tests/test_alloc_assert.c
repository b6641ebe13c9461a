/* test_alloc_assert.c - hot-path preconditions of the allocators fire the
 * overridable SA_ASSERT (this translation unit routes it to a counter). */
#include "st_test.h"
/* (this file compiles only the kinds it tests: SA_SWITCH_KINDS) */
#define SA_SWITCH_KINDS ((1u << SA_SWITCH_SPAA) | (1u << SA_SWITCH_PIM) | (1u << SA_SWITCH_MCM))
static int ta_assert_failures;
#define SA_ASSERT(c) ((c) ? (void)0 : (void)ta_assert_failures++)
#include "../seastar_arb.h"
#include "alloc_test_util.h"

ST_TEST(alloc_request_outside_outputs_fails_the_precondition) {
    static const sa_switch_kind kinds[3] = { SA_SWITCH_SPAA, SA_SWITCH_PIM, SA_SWITCH_MCM };
    int k;
    for (k = 0; k < 3; k++) {
        ta_switch x;
        sa_switch_desc d;
        sa_match mt;
        uint64_t req[4] = { 1, 2, 4, 8 };
        int i;
        memset(&d, 0, sizeof d);
        d.kind = kinds[k];
        d.num_inputs = 4;
        d.num_outputs = 3;
        ST_EQ(SA_OK, ta_switch_init(&x, &d));
        ta_assert_failures = 0;
        req[3] = 0;
        sa_switch_allocate(&x.a, req, NULL, NULL, &mt);
        ST_EQ(0, ta_assert_failures);
        req[3] = 8; /* output 3 of a 3-output allocator */
        sa_switch_allocate(&x.a, req, NULL, NULL, &mt);
        ST_CHECK(ta_assert_failures > 0);
        /* Even with the check disabled, the bit is never matched. */
        for (i = 0; i < 4; i++) ST_CHECK(mt.output_of[i] < 3);
    }
}
