/* SPDX-License-Identifier: MIT */
/* fuzz_bgl_arb.c - the BlueGene/L arbitration of seastar_arb.h:
 * sa_bgl_cycles_init, sa_bgl_cycles_check, sa_bgl_cycles_next,
 * sa_bgl_ranges_quarters, sa_bgl_ranges_check, sa_bgl_range, sa_bgl_jsq,
 * sa_bgl_slq_receiver, sa_bgl_slq_sender.
 *
 * Oracles: the fraction num/den designates exactly num of every den
 * consecutive cycles; the quarter bounds are the capacity's quarters
 * rounded up and the indicator counts the bounds reached; JSQ, SLQ at the
 * receivers and at the senders return a member of the set their rule (seed
 * 003 lines 59-65, written out here) allows: the best by indicator on SLQ
 * cycles and for JSQ, any of the pool on random cycles, the escape only
 * without a dynamic pair, the ack first. */
#include "fuzz.h"
#include "../../seastar_arb.h"

static uint64_t best_of(uint64_t mask, const uint8_t *level) {
    uint64_t best = 0;
    int i, top = -1;
    for (i = 0; i < 64; i++)
        if ((mask >> i) & 1) {
            if (level[i] > top) { top = level[i]; best = 0; }
            if (level[i] == top) best |= (uint64_t)1 << i;
        }
    return best;
}

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
        uint64_t m1 = fz_u64(&f), m2 = fz_u64(&f), m3 = fz_u64(&f), pool;
        int op = fz_u8(&f) % 3, x = fz_range(&f, -2, 66), flag1 = fz_u8(&f) & 1, flag2 = fz_u8(&f) & 1, got;
        for (i = 0; i < 64; i++) level[i] = fz_u8(&f) & (fz_u8(&f) < 200 ? 3 : 0xFF);
        if (op == 0) {
            got = sa_bgl_jsq(m1, m2, level, x, &rng);
            if (m1 & m2) FZ_CHECK(got >= 0 && ((best_of(m1 & m2, level) >> got) & 1), "jsq %d", got);
            else if (x >= 0 && x < 64 && ((m2 >> x) & 1)) FZ_CHECK(got == x, "jsq escape %d", got);
            else FZ_CHECK(got == -1, "jsq %d without a request", got);
        } else if (op == 1) {
            uint64_t by = x >= 0 && x < 64 ? (uint64_t)1 << x : 0;
            got = sa_bgl_slq_receiver(m1, m2, level, x, flag1, &rng);
            if (!m1) { FZ_CHECK(got == -1, "receiver %d", got); continue; }
            pool = (m1 & m2) ? m1 & m2 : m1;
            if (pool & ~by) pool &= ~by;
            FZ_CHECK(got >= 0 && got < 64 && (((flag1 ? best_of(pool, level) : pool) >> got) & 1), "receiver %d", got);
        } else {
            int ack = x < 0;
            got = sa_bgl_slq_sender(ack, m1, m3, m2, level, flag1, flag2, &rng);
            if (ack) { FZ_CHECK(got == SA_BGL_SEND_ACK, "sender %d with an ack", got); continue; }
            if (!m1) { FZ_CHECK(got == -1, "sender %d", got); continue; }
            if (m1 & m2) pool = (m1 & m2 & ~m3) ? m1 & m2 & ~m3 : m1 & m2;
            else if (flag1) pool = (m1 & ~m3) ? m1 & ~m3 : m1 & m3;
            else pool = (m1 & m3) ? m1 & m3 : m1 & ~m3;
            FZ_CHECK(got >= 0 && got < 64 && (((flag2 ? best_of(pool, level) : pool) >> got) & 1), "sender %d", got);
        }
    }
    return 0;
}
