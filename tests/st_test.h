/* SPDX-License-Identifier: MIT */
/* st_test.h - the project's small test runner (tests only, not installed).
 *
 * A test is a function declared with ST_TEST(name) in any tests/test_*.c
 * file; the Makefile collects the names into build/<config>/tests.inc.
 * Checks stop the current test at the first failure and print the file,
 * line, expression, expected and actual values.  The runner ends with the
 * single line "N passed, N failed".
 *
 * Each test runs in a child process of its own: a test that crashes or
 * hangs is reported as a failure of that test and the run goes on.
 *
 * Usage of the runner binary:  runner [--long] [--list] [--time] [--no-fork] [FILTER...]
 *   FILTER     run only tests whose name contains one of the FILTER strings
 *   --long     run the long (exhaustive / fuzzing) variants (make check-long)
 *   --list     print the test names and exit
 *   --time     print each test's CPU time to stderr
 *   --no-fork  run every test in the runner process itself (for a debugger)
 */
#ifndef ST_TEST_H
#define ST_TEST_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

typedef struct st_ctx {
    int failed;         /* set by the first failing check */
    int long_mode;      /* --long given: run the long variants */
} st_ctx;

#define ST_TEST(name) void st_test_##name(st_ctx *st__ctx)

/* True when the runner was started with --long. */
#define ST_LONG (st__ctx->long_mode)

/* 1 in a build with AddressSanitizer (gcc's macro, clang's feature test),
 * where reads past an array are caught: tests whose point is the memory
 * they touch run whole there, and a sample elsewhere. */
#if defined(__SANITIZE_ADDRESS__)
#define ST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ST_ASAN 1
#endif
#endif
#ifndef ST_ASAN
#define ST_ASAN 0
#endif

void st_fail_begin(st_ctx *ctx, const char *file, int line, const char *what);

#define ST__FAIL_HEAD(what) st_fail_begin(st__ctx, __FILE__, __LINE__, what)

/* Check a condition. */
#define ST_CHECK(cond) do { if (!(cond)) { \
    ST__FAIL_HEAD(#cond); fprintf(stderr, "    condition is false\n"); \
    return; } } while (0)

/* Check a condition; on failure print a printf-style message too. */
#define ST_CHECKF(cond, ...) do { if (!(cond)) { \
    ST__FAIL_HEAD(#cond); fprintf(stderr, "    "); \
    fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); \
    return; } } while (0)

/* Integer equality: expected first, actual second. */
#define ST_EQ(expected, actual) do { \
    long long st__e = (long long)(expected), st__a = (long long)(actual); \
    if (st__e != st__a) { ST__FAIL_HEAD(#actual " == " #expected); \
        fprintf(stderr, "    expected: %lld\n    actual:   %lld\n", st__e, st__a); \
        return; } } while (0)

/* Unsigned 64-bit equality, printed in hex. */
#define ST_EQ_U64(expected, actual) do { \
    unsigned long long st__e = (unsigned long long)(expected); \
    unsigned long long st__a = (unsigned long long)(actual); \
    if (st__e != st__a) { ST__FAIL_HEAD(#actual " == " #expected); \
        fprintf(stderr, "    expected: 0x%llx\n    actual:   0x%llx\n", st__e, st__a); \
        return; } } while (0)

/* Floating-point equality within an absolute tolerance. */
#define ST_NEAR(expected, actual, tol) do { \
    double st__e = (double)(expected), st__a = (double)(actual); \
    if (!(fabs(st__e - st__a) <= (double)(tol))) { \
        ST__FAIL_HEAD(#actual " ~= " #expected); \
        fprintf(stderr, "    expected: %.9g (tolerance %.3g)\n    actual:   %.9g\n", \
                st__e, (double)(tol), st__a); \
        return; } } while (0)

/* String equality. */
#define ST_EQ_STR(expected, actual) do { \
    const char *st__e = (expected), *st__a = (actual); \
    if (st__e == NULL || st__a == NULL || strcmp(st__e, st__a) != 0) { \
        ST__FAIL_HEAD(#actual " == " #expected); \
        fprintf(stderr, "    expected: \"%s\"\n    actual:   \"%s\"\n", \
                st__e ? st__e : "(null)", st__a ? st__a : "(null)"); \
        return; } } while (0)

/* A small deterministic RNG for tests (splitmix64), independent of the
 * libraries' own generators so that it can serve as an oracle's source. */
static inline uint64_t st_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform integer in [0, n). */
static inline uint32_t st_rand_below(uint64_t *s, uint32_t n) {
    return (uint32_t)(((st_rand(s) >> 32) * (uint64_t)n) >> 32);
}

#endif
