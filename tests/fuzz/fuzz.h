/* SPDX-License-Identifier: MIT */
/* fuzz.h - helpers of the fuzz harnesses in tests/fuzz/ (tests only).
 *
 * A harness is one file fuzz_NAME.c that defines LLVMFuzzerTestOneInput:
 * it reads its parameters from the input bytes with the fz_ readers (which
 * give zeros once the input runs out), calls public functions of the
 * headers, and checks what they return against an oracle written in the
 * harness (a model of the paper's rule, brute force, or an invariant).  A
 * failed check prints what differed and aborts, which libFuzzer (with
 * clang) or tests/fuzz/driver.c (without) reports as a crash.  Built with
 * AddressSanitizer and UndefinedBehaviorSanitizer, so out-of-bounds
 * accesses and signed overflows are crashes too.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef __cplusplus
}
#endif

/** The input being read. */
typedef struct fz {
    const uint8_t *p;   /**< next byte */
    size_t n;           /**< bytes left */
} fz;

static inline void fz_init(fz *f, const uint8_t *data, size_t size) { f->p = data; f->n = size; }

/** Whether input is left. */
static inline int fz_more(const fz *f) { return f->n > 0; }

static inline uint8_t fz_u8(fz *f) {
    if (!f->n) return 0;
    f->n--;
    return *f->p++;
}
static inline uint16_t fz_u16(fz *f) { uint16_t v = fz_u8(f); return (uint16_t)(v | (uint16_t)fz_u8(f) << 8); }
static inline uint32_t fz_u32(fz *f) { uint32_t v = fz_u16(f); return v | (uint32_t)fz_u16(f) << 16; }
static inline uint64_t fz_u64(fz *f) { uint64_t v = fz_u32(f); return v | (uint64_t)fz_u32(f) << 32; }

/** An int in lo..hi (hi - lo < 2^32). */
static inline int fz_range(fz *f, int lo, int hi) {
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1u;
    return (int)((int64_t)lo + (int64_t)(fz_u32(f) % span));
}

/** Any int, with the edge values (0, 1, -1, INT_MAX, INT_MIN, ...) often. */
static inline int fz_any_int(fz *f) {
    static const int edge[] = { 0, 1, -1, 2, 0x7FFFFFFF, -0x7FFFFFFF - 1, 0x7FFFFFFE, 0x40000000, 0x10000, 255, 256 };
    uint8_t k = fz_u8(f);
    if (k < 64) return edge[k % (sizeof edge / sizeof edge[0])];
    if (k < 160) return fz_range(f, -4, 300);
    return (int)fz_u32(f);
}

/** A double: a small or big finite value, or (when allowed) an edge value. */
static inline double fz_double(fz *f, int allow_nonfinite) {
    uint8_t k = fz_u8(f);
    if (allow_nonfinite && k < 16) {
        static const double edge[] = { 0.0, -0.0, -1.0, 1e308, -1e308, 5e-324 };
        if (k < 6) return edge[k];
        if (k < 10) return (double)NAN;
        return k & 1 ? (double)INFINITY : -(double)INFINITY;
    }
    if (k < 128) return (double)fz_range(f, -10, 10000) / 16.0;
    {
        uint64_t bits = fz_u64(f);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d == d && d - d == 0 ? d : 1.0;
    }
}

/** A check of the harness: print and abort when it fails. */
#define FZ_CHECK(cond, ...) do { if (!(cond)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n    ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); abort(); } } while (0)

#endif
