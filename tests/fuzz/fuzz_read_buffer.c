/* SPDX-License-Identifier: MIT */
/* fuzz_read_buffer.c - the read-port view of a 21364 input buffer in
 * seastar_arb.h: sa_read_buffer_build, sa_read_buffer_clash,
 * sa_read_buffer_assign.
 *
 * Oracle: brute force over the packets (seed 002 Section 3.3: the two read
 * ports of a buffer must not send the same packet).  The view must say
 * which outputs some packet can use (any) and which two or more can
 * (multi); clash(k) must be exactly the outputs j the twin read port can
 * no longer serve once one port took k (no two distinct packets serve k
 * and j); assign must find two distinct packets for (out0, out1) whenever
 * some pair exists, each able to use its output, and return
 * SA_ERR_REQUEST_RANGE otherwise or for an output that is neither -1 nor
 * below SA_ALLOC_MAX. */
#include "fuzz.h"
#include "../../seastar_arb.h"

#define MAXPKT 12

static int serves(const uint64_t *pk, int p, int out) { return out >= 0 && out < 64 && ((pk[p] >> out) & 1u); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    uint64_t pk[MAXPKT], any = 0, multi = 0, width;
    int n, i, j, k, outs;
    sa_read_buffer buf;
    sa_result r;
    fz_init(&f, data, size);
    n = fz_range(&f, -1, MAXPKT);
    outs = fz_range(&f, 1, 64 < SA_ALLOC_MAX ? 64 : SA_ALLOC_MAX);
    width = outs >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << outs) - 1);
    for (i = 0; i < MAXPKT; i++) {
        uint8_t how = fz_u8(&f);
        pk[i] = how < 64 ? 0 : how < 192 ? (uint64_t)1 << fz_range(&f, 0, outs - 1) | (uint64_t)1 << fz_range(&f, 0, outs - 1)
              : fz_u64(&f) & width;
    }
    memset(&buf, 0xEE, sizeof buf);
    {
        sa_read_buffer tmp;
        FZ_CHECK(sa_read_buffer_build(NULL, pk, 1) == SA_ERR_NULL && sa_read_buffer_build(&tmp, NULL, 1) == SA_ERR_NULL,
                 "build(NULL)");
    }
    r = sa_read_buffer_build(&buf, pk, n);
    if (n < 0) {
        FZ_CHECK(r == SA_ERR_PARAM_RANGE, "build(%d packets) gave %d", n, r);
        return 0;
    }
    FZ_CHECK(r == SA_OK, "build gave %d", r);
    for (i = 0; i < n; i++) {
        multi |= any & pk[i];
        any |= pk[i];
    }
    FZ_CHECK(buf.any == any && buf.multi == multi, "any 0x%llx multi 0x%llx, expected 0x%llx 0x%llx",
             (unsigned long long)buf.any, (unsigned long long)buf.multi, (unsigned long long)any,
             (unsigned long long)multi);
    /* clash(k) against brute force */
    for (k = 0; k < 64; k++) {
        uint64_t want = 0, got;
        if (!((any >> k) & 1u)) continue;
        for (j = 0; j < 64; j++) {
            int a, b, pair = 0;
            if (!((any >> j) & 1u)) continue;
            for (a = 0; a < n && !pair; a++)
                for (b = 0; b < n && !pair; b++)
                    pair = a != b && serves(pk, a, k) && serves(pk, b, j);
            if (!pair) want |= (uint64_t)1 << j;
        }
        got = sa_read_buffer_clash(&buf, k);
        FZ_CHECK(got == want, "clash(%d) = 0x%llx, expected 0x%llx", k, (unsigned long long)got,
                 (unsigned long long)want);
    }
    /* assign */
    for (i = 0; i < 8 && fz_more(&f); i++) {
        int o0 = fz_u8(&f) < 200 ? fz_range(&f, -1, outs - 1) : fz_any_int(&f);
        int o1 = fz_u8(&f) < 200 ? fz_range(&f, -1, outs - 1) : fz_any_int(&f);
        int p0 = -7, p1 = -7, a, b, exists = 0, valid;
        valid = (o0 == -1 || (o0 >= 0 && o0 < SA_ALLOC_MAX)) && (o1 == -1 || (o1 >= 0 && o1 < SA_ALLOC_MAX));
        if (o0 == -1 && o1 == -1) exists = 1;
        else if (o1 == -1) for (a = 0; a < n; a++) exists |= serves(pk, a, o0);
        else if (o0 == -1) for (b = 0; b < n; b++) exists |= serves(pk, b, o1);
        else
            for (a = 0; a < n; a++)
                for (b = 0; b < n; b++) exists |= a != b && serves(pk, a, o0) && serves(pk, b, o1);
        r = sa_read_buffer_assign(pk, n, o0, o1, &p0, &p1);
        if (!valid || !exists) {
            FZ_CHECK(r == SA_ERR_REQUEST_RANGE, "assign(%d, %d) over %d packets gave %d with packets %d, %d "
                     "(%s)", o0, o1, n, r, p0, p1, valid ? "no two distinct packets serve them" : "an output out of range");
            continue;
        }
        FZ_CHECK(r == SA_OK, "assign(%d, %d) gave %d", o0, o1, r);
        FZ_CHECK(o0 == -1 ? p0 == -1 : (p0 >= 0 && p0 < n && serves(pk, p0, o0)), "assign(%d, %d): packet %d for %d",
                 o0, o1, p0, o0);
        FZ_CHECK(o1 == -1 ? p1 == -1 : (p1 >= 0 && p1 < n && serves(pk, p1, o1)), "assign(%d, %d): packet %d for %d "
                 "(its outputs 0x%llx)", o0, o1, p1, o1, p1 >= 0 && p1 < n ? (unsigned long long)pk[p1] : 0ull);
        FZ_CHECK(p0 < 0 || p0 != p1, "assign(%d, %d): the same packet %d twice", o0, o1, p0);
    }
    FZ_CHECK(sa_read_buffer_assign(pk, n, -1, -1, NULL, &i) == SA_ERR_NULL, "assign(NULL)");
    return 0;
}
