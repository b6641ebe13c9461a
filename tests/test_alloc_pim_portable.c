/* test_alloc_pim_portable.c - PIM built without the SIMD paths (SA_NO_SIMD)
 * against the reference implementation of its draw protocol
 * (alloc_pim_ref.h); test_alloc_pim.c compares this build's decisions with
 * the SIMD build's. */
#define SA_NO_SIMD 1
#include "st_test.h"
#include "../seastar_arb.h"
#define TPIM_DRIVER tpim_compare_portable
#include "alloc_pim_ref.h"

uint64_t tpim_portable_hash(long trials, long *bad);
uint64_t tpim_portable_hash(long trials, long *bad) {
    uint64_t h = 0;
    long rej = 0;
    *bad = tpim_compare_portable(trials, &h, &rej);
    return h;
}

ST_TEST(pim_fast_portable_matches_reference) {
    long bad = 0;
#ifdef SA_SIMD_SSE2
    ST_CHECK(0);
#endif
    tpim_portable_hash(ST_LONG ? 6000 : 600, &bad);
    ST_EQ(0, bad);
}
