/* SPDX-License-Identifier: MIT */
/* fuzz_counters.c - the performance counters and result strings of
 * seastar_arb.h: sa_age_histogram_record, sa_age_histogram_bucket,
 * sa_occupancy, sa_result_string.
 *
 * Oracles: four 32-bit counters kept by the harness (seed 000 Table 4:
 * RTR_AGE_GROUP0/1, each count wrapping on its own) and the ratio of Eq 17
 * computed in long double. */
#include "fuzz.h"
#include "../../seastar_arb.h"

/* A packet or cycle count: zero, small, any, or near 2^64. */
static uint64_t count(fz *f) {
    switch (fz_u8(f) & 3) {
    case 0: return 0;
    case 1: return fz_u16(f);
    case 2: return fz_u64(f);
    default: return ~(uint64_t)0 - fz_u16(f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    uint64_t group[2];
    uint32_t want[4];
    int b, steps = 0;
    fz_init(&f, data, size);
    {
        const char *s = sa_result_string((sa_result)fz_any_int(&f));
        FZ_CHECK(s != NULL && s[0] != 0, "sa_result_string");
    }
    /* Eq 17 */
    {
        uint64_t stalled = count(&f), p0 = count(&f), p1 = count(&f);
        double occ = -1;
        sa_result r = sa_occupancy(stalled, p0, p1, &occ);
        long double total = (long double)p0 + (long double)p1;
        FZ_CHECK(sa_occupancy(1, 1, 1, NULL) == SA_ERR_NULL, "occupancy(NULL)");
        if (total == 0) {
            FZ_CHECK(r == SA_ERR_ZERO_PACKETS && occ == 0.0, "no packets: %d, %g", r, occ);
        } else if (r == SA_OK) {
            long double exact = (long double)stalled / total;
            FZ_CHECK(fabsl((long double)occ - exact) <= exact * 1e-12L,
                     "occupancy(%llu, %llu, %llu) = %.17g, expected %.17Lg", (unsigned long long)stalled,
                     (unsigned long long)p0, (unsigned long long)p1, occ, exact);
        } else {
            FZ_CHECK(r == SA_ERR_PARAM_RANGE, "occupancy(%llu, %llu, %llu) gave %d", (unsigned long long)stalled,
                     (unsigned long long)p0, (unsigned long long)p1, r);
        }
    }
    group[0] = fz_u64(&f);
    group[1] = fz_u64(&f);
    for (b = 0; b < 4; b++) want[b] = (uint32_t)(group[b >> 1] >> ((b & 1) * 32));
    while (fz_more(&f) && steps++ < 1000) {
        uint8_t op = fz_u8(&f);
        if (op < 200) {
            unsigned age = op & 1 ? fz_u8(&f) : (unsigned)(fz_u8(&f) & 3) * 64u + 63u * (fz_u8(&f) & 1);
            int k = fz_range(&f, 1, 3), i;
            for (i = 0; i < k; i++) {
                sa_age_histogram_record(group, age);
                want[age >> 6]++;
            }
        } else {
            /* a counter about to wrap */
            b = fz_range(&f, 0, 3);
            want[b] = 0xFFFFFFFFu - (uint32_t)fz_range(&f, 0, 2);
            group[b >> 1] = (group[b >> 1] & ~((uint64_t)0xFFFFFFFFu << ((b & 1) * 32))) |
                            ((uint64_t)want[b] << ((b & 1) * 32));
        }
        for (b = 0; b < 4; b++)
            FZ_CHECK(sa_age_histogram_bucket(group, b) == want[b], "bucket %d: %u, expected %u", b,
                     sa_age_histogram_bucket(group, b), want[b]);
        b = fz_any_int(&f);
        if (b < 0 || b > 3) FZ_CHECK(sa_age_histogram_bucket(group, b) == 0, "bucket %d is 0", b);
    }
    return 0;
}
