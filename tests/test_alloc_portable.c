/* test_alloc_portable.c - the allocator workload of alloc_workload.h built
 * without the SIMD paths (SA_NO_SIMD); test_alloc_fast.c compares its hash
 * with the SIMD build's. */
#define SA_NO_SIMD 1
#include "st_test.h"
#include "../seastar_arb.h"
#define TA_WORKLOAD_NAME ta_alloc_workload_hash_portable
#include "alloc_workload.h"

ST_TEST(alloc_portable_build_has_no_simd) {
#ifdef SA_SIMD_SSE2
    ST_CHECK(0);
#endif
    ST_CHECK(ta_alloc_workload_hash_portable(1) != 0);
}
