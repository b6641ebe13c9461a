/* SPDX-License-Identifier: MIT */
/* sim_bits.h - bit helpers of the example simulators (examples only; the
 * library's own helpers are private to its headers). */
#ifndef SIM_BITS_H
#define SIM_BITS_H

#include <stdint.h>

/* Index of the lowest set bit of x (x != 0). */
static inline int sim_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

#endif
