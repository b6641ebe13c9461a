/* SPDX-License-Identifier: MIT */
/* fuzz_rng.c - the deterministic generator of seastar_arb.h: sa_rng_seed,
 * sa_rng_next, sa_rng_below, sa_rng_pick.
 *
 * Oracles: SplitMix64 written out in the harness (the sequence is part of
 * the contract: the same seed gives the same draws everywhere); below(n) is
 * under n; pick(mask) is a set bit of mask, -1 for an empty mask, and uses
 * no draw for a single bit. */
#include "fuzz.h"
#include "../../seastar_arb.h"

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sa_rng r;
    uint64_t model, seed;
    int steps = 0;
    fz_init(&f, data, size);
    seed = fz_u64(&f);
    sa_rng_seed(&r, seed);
    model = seed;
    while (fz_more(&f) && steps++ < 500) {
        uint8_t op = fz_u8(&f) % 3;
        if (op == 0) {
            uint64_t v = sa_rng_next(&r);
            FZ_CHECK(v == splitmix(&model), "draw differs from SplitMix64");
        } else if (op == 1) {
            uint32_t n = fz_u8(&f) & 1 ? fz_u32(&f) : (uint32_t)fz_range(&f, 1, 40), v;
            if (n == 0) n = 1;
            v = sa_rng_below(&r, n);
            FZ_CHECK(v < n, "below(%u) = %u", n, v);
            model = r.state;
        } else {
            uint64_t mask = fz_u8(&f) & 1 ? fz_u64(&f) : (uint64_t)1 << fz_range(&f, 0, 63), before = r.state;
            int b = sa_rng_pick(&r, mask);
            if (mask == 0) FZ_CHECK(b == -1 && r.state == before, "pick(0) = %d", b);
            else FZ_CHECK(b >= 0 && b < 64 && ((mask >> b) & 1u), "pick(0x%llx) = %d", (unsigned long long)mask, b);
            if ((mask & (mask - 1)) == 0) FZ_CHECK(r.state == before, "pick of a single bit drew a number");
            model = r.state;
        }
    }
    return 0;
}
