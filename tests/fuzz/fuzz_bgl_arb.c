/* SPDX-License-Identifier: MIT */
/* fuzz_bgl_arb.c - the BlueGene/L arbitration of seastar_arb.h:
 * sa_bgl_cycles_init, sa_bgl_cycles_check, sa_bgl_cycles_next,
 * sa_bgl_ranges_quarters, sa_bgl_ranges_check, sa_bgl_range, sa_bgl_jsq,
 * sa_bgl_slq_receiver, sa_bgl_slq_sender.
 *
 * Oracles: the fraction num/den designates exactly num of every den
 * consecutive cycles; the quarter bounds are the capacity's quarters
 * rounded up and the indicator counts the bounds reached; JSQ, SLQ at the
 * receivers and at the senders return an answer their rule (seed 003
 * lines 59-65, written out again in tests/bgl_oracle.h) allows. */
#include "fuzz.h"
#include "../../seastar_arb.h"
#include "../bgl_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sa_bgl_cycles c;
    sa_rng rng;
    uint8_t level[64];
    uint32_t b[3], cap;
    int i, steps;
    fz_init(&f, data, size);
    sa_rng_seed(&rng, fz_u64(&f));
    {   /* fractions of cycles */
        uint32_t num = fz_u8(&f) < 200 ? (uint32_t)fz_range(&f, 0, 20) : fz_u32(&f);
        uint32_t den = fz_u8(&f) < 200 ? (uint32_t)fz_range(&f, 0, 20) : fz_u32(&f);
        sa_result r = sa_bgl_cycles_init(&c, num, den);
        if (den < 1 || den > 65536 || num > den) FZ_CHECK(r == SA_ERR_PARAM_RANGE, "init %u/%u gave %d", num, den, r);
        else {
            int hist[200], w, j;
            FZ_CHECK(r == SA_OK, "init %u/%u gave %d", num, den, r);
            for (i = 0; i < 200; i++) { hist[i] = sa_bgl_cycles_next(&c); FZ_CHECK(sa_bgl_cycles_check(&c) == SA_OK, "check"); }
            for (i = 0; den <= 100 && i + (int)den <= 200; i++) {
                for (w = 0, j = 0; j < (int)den; j++) w += hist[i + j];
                FZ_CHECK(w == (int)num, "%u/%u: %d in a window", num, den, w);
            }
        }
    }
    /* indicator bounds */
    cap = fz_u8(&f) < 200 ? (uint32_t)fz_range(&f, 0, 2000) : fz_u32(&f);
    if (sa_bgl_ranges_quarters(cap, b) == SA_OK) {
        FZ_CHECK(cap >= 1 && cap <= 0x80000000u, "quarters of %u accepted", cap);
        for (i = 0; i < 3; i++)
            FZ_CHECK((uint64_t)b[i] * 4 >= (uint64_t)cap * (uint64_t)(i + 1) && (uint64_t)b[i] * 4 < (uint64_t)cap * (uint64_t)(i + 1) + 4,
                     "bound %d of %u: %u", i, cap, b[i]);
        FZ_CHECK(sa_bgl_ranges_check(b) == SA_OK, "quarters not ordered");
    } else FZ_CHECK(cap < 1 || cap > 0x80000000u, "quarters of %u refused", cap);
    for (i = 0; i < 3; i++) b[i] = fz_u8(&f) < 128 ? (uint32_t)fz_range(&f, 0, 40) : fz_u32(&f);
    if (sa_bgl_ranges_check(b) == SA_OK) {
        uint32_t v = fz_u8(&f) < 200 ? (uint32_t)fz_range(&f, 0, 50) : fz_u32(&f);
        FZ_CHECK(b[0] <= b[1] && b[1] <= b[2], "unordered bounds accepted");
        FZ_CHECK(sa_bgl_range(v, b) == (v >= b[0]) + (v >= b[1]) + (v >= b[2]), "range of %u", v);
    } else FZ_CHECK(b[0] > b[1] || b[1] > b[2], "ordered bounds refused");
    for (steps = 0; steps < 60 && fz_more(&f); steps++) {
        uint64_t m1 = fz_u64(&f), m2 = fz_u64(&f), m3 = fz_u64(&f);
        int op = fz_u8(&f) % 3, x = fz_range(&f, -2, 66), flag1 = fz_u8(&f) & 1, flag2 = fz_u8(&f) & 1, got;
        for (i = 0; i < 64; i++) level[i] = fz_u8(&f) & (fz_u8(&f) < 200 ? 3 : 0xFF);
        if (op == 0) {
            got = sa_bgl_jsq(m1, m2, level, x, &rng);
            FZ_CHECK(bo_jsq_ok(m1, m2, level, x, got), "jsq %d", got);
        } else if (op == 1) {
            got = sa_bgl_slq_receiver(m1, m2, level, x, flag1, &rng);
            FZ_CHECK(bo_receiver_ok(m1, m2, level, x, flag1, got), "receiver %d", got);
        } else {
            got = sa_bgl_slq_sender(x < 0, m1, m3, m2, level, flag1, flag2, &rng);
            FZ_CHECK(bo_sender_ok(x < 0, m1, m3, m2, level, flag1, flag2, got), "sender %d", got);
        }
    }
    return 0;
}
