/* test_alloc_assert.c - hot-path preconditions of the allocators fire the
 * overridable SA_ASSERT (this translation unit routes it to a counter). */
#include "st_test.h"
static int ta_assert_failures;
#define SA_ASSERT(c) ((c) ? (void)0 : (void)ta_assert_failures++)
#include "../seastar_arb.h"
#include "alloc_test_util.h"

ST_TEST(alloc_request_outside_outputs_fails_the_precondition) {
    static const sa_alloc_kind kinds[3] = { SA_ALLOC_SPAA, SA_ALLOC_PIM, SA_ALLOC_MCM };
    int k;
    for (k = 0; k < 3; k++) {
        ta_alloc x;
        sa_alloc_desc d;
        sa_match mt;
        uint64_t req[4] = { 1, 2, 4, 8 };
        int i;
        memset(&d, 0, sizeof d);
        d.kind = kinds[k];
        d.num_inputs = 4;
        d.num_outputs = 3;
        ST_EQ(SA_OK, ta_alloc_init(&x, &d));
        ta_assert_failures = 0;
        req[3] = 0;
        sa_allocate(&x.a, req, NULL, NULL, &mt);
        ST_EQ(0, ta_assert_failures);
        req[3] = 8; /* output 3 of a 3-output allocator */
        sa_allocate(&x.a, req, NULL, NULL, &mt);
        ST_CHECK(ta_assert_failures > 0);
        /* Even with the check disabled, the bit is never matched. */
        for (i = 0; i < 4; i++) ST_CHECK(mt.output_of[i] < 3);
    }
}
