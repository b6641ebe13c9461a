/* SPDX-License-Identifier: MIT */
/* fuzz_section3.c - the parameter derivation of seed 000 Sections 2-3 in
 * seastar_arb.h: sa_average_hops_dim, sa_average_hops, sa_channel_load,
 * sa_ejection_probabilities, sa_ejection_rates, sa_bias_ordering,
 * sa_age_clock_period_estimate.
 *
 * Inputs include every int (INT_MAX radices and buffers).  Oracles: the
 * paper's equations evaluated by the harness in long double or 64-bit
 * integers, so a function either returns an error code or the exact value
 * (Eq 4-9 hop counts and channel loads; Eq 10-13 probabilities that sum to
 * 1; Eq 14-16 rates that never exceed the next dimension's; Section 3.2's
 * steps, each one). */
#include <float.h>
#include "fuzz.h"
#include "../../seastar_arb.h"

static int radix_of(fz *f) {
    uint8_t k = fz_u8(f);
    if (k < 160) return fz_range(f, -1, 40);
    return fz_any_int(f);
}

/* Section 3.2 in 64-bit integers; 0 if a step is not a positive int. */
static int period_by_hand(const sa_period_desc *d, sa_period_estimate *e) {
    int64_t hops = 0, tb = 0, in = d->input_buffer_flits ? d->input_buffer_flits : 96;
    int64_t st = d->staging_buffer_flits ? d->staging_buffer_flits : 16;
    int64_t pkt = d->max_packet_flits ? d->max_packet_flits : 9, vcs = d->vcs_sharing_link ? d->vcs_sharing_link : 2;
    int64_t target = d->target_age ? d->target_age : 128, ticks, packets, cpp, q, per;
    int i;
    for (i = 0; i < d->num_dims; i++) {
        int64_t k = d->radix[i], b = d->bias[i] ? d->bias[i] : d->num_dims - i;
        int64_t h = d->mesh[i] ? (2 * (k + 1) + 3) / 6 : (2 * k + 4) / 8;     /* nearest */
        e->hops[i] = (int)h;
        hops += h;
        tb += h * b;
    }
    if (target - tb <= 0 || hops == 0) return 0;
    ticks = (2 * (target - tb) + hops) / (2 * hops);
    if (ticks < 1) ticks = 1;
    packets = in / pkt + st / pkt;
    cpp = vcs * pkt;
    q = packets * cpp;
    per = (2 * q + ticks) / (2 * ticks);
    if (per < 1) per = 1;
    if (hops > 0x7FFFFFFF || tb > 0x7FFFFFFF || packets > 0x7FFFFFFF || cpp > 0x7FFFFFFF || q > 0x7FFFFFFF ||
        per > 0xFFFFFFFFll)
        return 0;
    e->total_hops = (int)hops;
    e->bias_total = (int)tb;
    e->ticks_per_hop = (int)ticks;
    e->packets_queued = (int)packets;
    e->cycles_per_packet = (int)cpp;
    e->queue_cycles_per_hop = (int)q;
    e->age_clock_period = (uint32_t)per;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    int n, i, radix[SA_MAX_DIMS + 2], torus[SA_MAX_DIMS + 2], bad_dims, bad_radix = 0;
    double h, out[SA_MAX_DIMS + 2];
    sa_result r;
    fz_init(&f, data, size);

    /* Eq 4-7: one dimension */
    {
        int k = radix_of(&f), t = fz_u8(&f) & 1;
        h = -1;
        r = sa_average_hops_dim(k, t, &h);
        if (k < 2) FZ_CHECK(r == SA_ERR_RADIX_RANGE, "hops_dim(%d) gave %d", k, r);
        else if (r == SA_OK) {
            long double want = t ? (long double)k / 4 : ((long double)k + 1) / 3;
            FZ_CHECK(fabsl((long double)h - want) <= want * 1e-15L, "hops_dim(%d, %d) = %.17g, expected %.17Lg", k, t,
                     h, want);
        } else FZ_CHECK(r == SA_ERR_RADIX_RANGE, "hops_dim(%d) gave %d", k, r);
        FZ_CHECK(sa_average_hops_dim(4, 1, NULL) == SA_ERR_NULL, "hops_dim NULL");
    }
    /* Eq 8-9 */
    {
        int k = radix_of(&f), t = fz_u8(&f) & 1, w = fz_u8(&f) & 1;
        double load = -1;
        r = sa_channel_load(k, t, w, &load);
        if (k < 2 || k > SA_MAX_RADIX) FZ_CHECK(r == SA_ERR_RADIX_RANGE, "channel_load(%d) gave %d", k, r);
        else {
            long double want = (long double)k / (t ? 8 : 4) * (w ? 2 : 1);
            FZ_CHECK(r == SA_OK && fabsl((long double)load - want) <= want * 1e-15L, "channel_load(%d) = %g", k, load);
        }
    }
    /* Eq 4-7 summed, 10-13, 14-16: n dimensions */
    n = fz_u8(&f) < 200 ? fz_range(&f, 0, SA_MAX_DIMS + 1) : fz_any_int(&f);
    for (i = 0; i < SA_MAX_DIMS + 2; i++) {
        radix[i] = fz_u8(&f) < 230 ? fz_range(&f, 2, 20) : radix_of(&f);
        torus[i] = fz_u8(&f) & 1;
        if (i < n && (radix[i] < 2 || radix[i] > SA_MAX_RADIX)) bad_radix = 1;
    }
    bad_dims = n < 1 || n > SA_MAX_DIMS;
    h = -1;
    r = sa_average_hops(n, radix, fz_u8(&f) & 1 ? torus : NULL, &h);
    if (bad_dims) FZ_CHECK(r == SA_ERR_DIM_RANGE, "average_hops(n %d) gave %d", n, r);
    else if (bad_radix) FZ_CHECK(r == SA_ERR_RADIX_RANGE, "average_hops: a radix outside 2..SA_MAX_RADIX gave %d", r);
    else FZ_CHECK(r == SA_OK && h > 0, "average_hops gave %d, %g", r, h);
    r = sa_ejection_probabilities(n, radix, out);
    if (bad_dims) FZ_CHECK(r == SA_ERR_DIM_RANGE, "ejection_probabilities(n %d) gave %d", n, r);
    else if (bad_radix) FZ_CHECK(r == SA_ERR_RADIX_RANGE, "ejection_probabilities gave %d", r);
    else {
        long double sum = 0;
        FZ_CHECK(r == SA_OK, "ejection_probabilities gave %d", r);
        for (i = 0; i < n; i++) {
            long double want = 1;
            int j;
            if (i + 1 < n) {
                want = ((long double)radix[i] - 1) / radix[i];
                for (j = i + 1; j < n; j++) want /= radix[j];
                FZ_CHECK(fabsl((long double)out[i] - want) <= 1e-12L, "P[%d] = %.17g, expected %.17Lg", i, out[i], want);
            }
            FZ_CHECK(out[i] >= -1e-12 && out[i] <= 1 + 1e-12, "P[%d] = %g", i, out[i]);
            sum += out[i];
        }
        FZ_CHECK(fabsl(sum - 1) <= 1e-9L, "probabilities sum to %.17Lg", sum);
    }
    {
        double bc = fz_double(&f, 1), ep = fz_double(&f, 1);
        int *tp = fz_u8(&f) & 1 ? torus : NULL;
        r = sa_ejection_rates(n, radix, tp, bc, ep, out);
        if (bad_dims) FZ_CHECK(r == SA_ERR_DIM_RANGE, "ejection_rates(n %d) gave %d", n, r);
        else if (bad_radix) FZ_CHECK(r == SA_ERR_RADIX_RANGE, "ejection_rates gave %d", r);
        else if (!(bc > 0) || !(ep > 0)) FZ_CHECK(r == SA_ERR_PARAM_RANGE, "ejection_rates(%g, %g) gave %d", bc, ep, r);
        else if (r == SA_OK) {
            for (i = n - 1; i >= 0; i--) {
                long double own = (long double)bc * ((tp == NULL || tp[i]) ? 8 : 4) / radix[i];
                long double next = i == n - 1 ? (long double)ep : (long double)out[i + 1];
                long double want = own < next ? own : next;
                FZ_CHECK(out[i] == out[i] && out[i] - out[i] == 0, "U[%d] = %g from Bc %g, Ep %g", i, out[i], bc, ep);
                /* (relative to 1e-12, or within a few units of the smallest
                 * normal double where the rates are subnormal) */
                FZ_CHECK(fabsl((long double)out[i] - want) <= want * 1e-12L + 4 * (long double)DBL_MIN,
                         "U[%d] = %.17g, expected %.17Lg", i, out[i], want);
            }
        } else FZ_CHECK(r == SA_ERR_PARAM_RANGE, "ejection_rates(%g, %g) gave %d", bc, ep, r);
    }
    {
        uint8_t bias[SA_MAX_DIMS + 2];
        int m = fz_u8(&f) < 200 ? fz_range(&f, -1, 10) : fz_any_int(&f);
        r = sa_bias_ordering(m, bias);
        if (m < 1 || m > 7) FZ_CHECK(r == SA_ERR_DIM_RANGE, "bias_ordering(%d) gave %d", m, r);
        else {
            FZ_CHECK(r == SA_OK, "bias_ordering(%d) gave %d", m, r);
            for (i = 0; i < m; i++) FZ_CHECK(bias[i] == m - i, "bias[%d] = %d", i, bias[i]);
        }
    }
    /* Section 3.2 */
    {
        sa_period_desc d;
        sa_period_estimate e, want;
        int pick = fz_u8(&f);
        memset(&d, 0, sizeof d);
        d.num_dims = n;
        for (i = 0; i < SA_MAX_DIMS; i++) {
            d.radix[i] = radix[i];
            d.mesh[i] = !torus[i];
            d.bias[i] = fz_u8(&f) < 200 ? fz_range(&f, 0, 7) : fz_any_int(&f);
        }
        d.input_buffer_flits = pick & 1 ? fz_any_int(&f) : fz_range(&f, 0, 300);
        d.staging_buffer_flits = pick & 2 ? fz_any_int(&f) : fz_range(&f, 0, 300);
        d.max_packet_flits = pick & 4 ? fz_any_int(&f) : fz_range(&f, 0, 20);
        d.vcs_sharing_link = pick & 8 ? fz_any_int(&f) : fz_range(&f, 0, 8);
        d.target_age = pick & 16 ? fz_any_int(&f) : fz_range(&f, 0, 255);
        memset(&e, 0, sizeof e);
        r = sa_age_clock_period_estimate(&d, &e);
        if (r == SA_OK) {
            int ok;
            FZ_CHECK(!bad_dims && !bad_radix, "estimate OK with bad dimensions");
            for (i = 0; i < n; i++) FZ_CHECK(d.bias[i] >= 0 && d.bias[i] <= 7, "estimate OK with bias %d", d.bias[i]);
            FZ_CHECK(d.input_buffer_flits >= 0 && d.staging_buffer_flits >= 0 && d.max_packet_flits >= 0 &&
                     d.vcs_sharing_link >= 0 && d.target_age >= 0, "estimate OK with a negative size");
            memset(&want, 0, sizeof want);
            ok = period_by_hand(&d, &want);
            FZ_CHECK(ok, "estimate OK where a step does not fit an int (in %d, staging %d, packet %d, VCs %d, "
                     "target %d)", d.input_buffer_flits, d.staging_buffer_flits, d.max_packet_flits, d.vcs_sharing_link,
                     d.target_age);
            FZ_CHECK(e.total_hops == want.total_hops && e.bias_total == want.bias_total &&
                     e.ticks_per_hop == want.ticks_per_hop && e.packets_queued == want.packets_queued &&
                     e.cycles_per_packet == want.cycles_per_packet &&
                     e.queue_cycles_per_hop == want.queue_cycles_per_hop && e.age_clock_period == want.age_clock_period,
                     "estimate: hops %d/%d T_bias %d/%d ticks %d/%d packets %d/%d cycles %d/%d queue %d/%d period %u/%u",
                     e.total_hops, want.total_hops, e.bias_total, want.bias_total, e.ticks_per_hop, want.ticks_per_hop,
                     e.packets_queued, want.packets_queued, e.cycles_per_packet, want.cycles_per_packet,
                     e.queue_cycles_per_hop, want.queue_cycles_per_hop, e.age_clock_period, want.age_clock_period);
        } else {
            FZ_CHECK(r == SA_ERR_DIM_RANGE || r == SA_ERR_RADIX_RANGE || r == SA_ERR_BIAS_RANGE ||
                     r == SA_ERR_PARAM_RANGE, "estimate gave %d", r);
        }
    }
    return 0;
}
