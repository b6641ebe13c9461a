/* test_alloc_spaa_portable.c - SPAA built without the SIMD paths
 * (SA_NO_SIMD) against the literal SPAA of spaa_model.h: whole allocations,
 * the pipelined sa_spaa_nominate / sa_spaa_grant, read-port pairs and
 * priorities.  test_alloc_spaa.c runs the same comparisons on the SSE2
 * build. */
#define SA_NO_SIMD 1
#include "st_test.h"
#include "../seastar_arb.h"
#include "spaa_model.h"

ST_TEST(spaa_fast_portable_build_has_no_simd) {
#ifdef SA_SIMD_SSE2
    ST_CHECK(0);
#endif
    ST_CHECK(1);
}

ST_TEST(spaa_fast_portable_allocate_matches_literal_spaa) {
    ST_CHECK(ts_allocate_vs_literal(43, ST_LONG ? 2000 : 200));
}

ST_TEST(spaa_fast_portable_pipelined_and_paired_match_literal_spaa) {
    ST_CHECK(ts_pipelined_vs_literal(44, ST_LONG ? 1000 : 100));
}
