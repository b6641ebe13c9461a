/* SPDX-License-Identifier: MIT */
/* fuzz_aging.c - the aging registers and Procedures 1-3 of seastar_arb.h:
 * sa_age_config_default, sa_age_config_validate, sa_age_clock_init,
 * sa_age_clock_set_period, sa_age_arrive, sa_age_at_head, sa_age_depart,
 * sa_age_tick.
 *
 * Oracles: the validation rules as the doc comments state them; for the
 * procedures, a model that keeps each live packet's ideal age (seed 000
 * Section 2.3: age on arrival plus the port's bias, plus one for every
 * timestamp increment since, saturating at 255) and the number of packets
 * of each epoch, driven by a random sequence of arrivals, ticks and
 * departures. */
#include "fuzz.h"
#include "../../seastar_arb.h"

#define MAXP 64

typedef struct live {
    uint16_t field;     /* the stored header age field */
    unsigned base;      /* age on arrival + bias, at most 255 */
    unsigned incs;      /* timestamp increments since arrival */
    unsigned epoch;     /* epoch of arrival */
} live;

static unsigned ideal(const live *l) {
    unsigned a = l->base + l->incs;
    return a > 255 ? 255 : a;
}

static sa_result expected_validate(const sa_age_config *c) {
    int p;
    if (c->age_clock_period == 0) return SA_ERR_PERIOD_ZERO;
    if (c->num_ports < 1 || c->num_ports > SA_MAX_PORTS) return SA_ERR_PORT_RANGE;
    for (p = 0; p < c->num_ports; p++)
        if (c->req_age_bias[p] > 7 || c->rsp_age_bias[p] > 7) return SA_ERR_BIAS_RANGE;
    return SA_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sa_age_config cfg, before;
    sa_age_clock clk;
    live pk[MAXP];
    int np = 0, i, ports, steps = 0;
    sa_result r;
    unsigned count[2] = { 0, 0 };
    fz_init(&f, data, size);

    /* configuration: the defaults for any port count, then raw fields */
    ports = fz_range(&f, -2, 20);
    memset(&cfg, 0xA5, sizeof cfg);
    before = cfg;
    r = sa_age_config_default(&cfg, ports);
    if (ports < 1 || ports > SA_MAX_PORTS) {
        FZ_CHECK(r == SA_ERR_PORT_RANGE && !memcmp(&cfg, &before, sizeof cfg), "default(%d) gave %d", ports, r);
        return 0;
    }
    FZ_CHECK(r == SA_OK && cfg.age_clock_period == 0x1000u && cfg.age_rr_select == ~(uint64_t)0 &&
             cfg.num_ports == ports, "default(%d)", ports);
    for (i = 0; i < SA_MAX_PORTS; i++)
        FZ_CHECK(cfg.req_age_bias[i] == (i < ports) && cfg.rsp_age_bias[i] == (i < ports), "default bias %d", i);
    FZ_CHECK(sa_age_config_validate(NULL) == SA_ERR_NULL, "validate(NULL)");
    if (fz_u8(&f) & 1) cfg.age_clock_period = fz_u8(&f) & 1 ? fz_u32(&f) : 0;
    if (fz_u8(&f) & 1) cfg.num_ports = fz_range(&f, -1, 17);
    for (i = 0; i < 3; i++) {
        int p = fz_range(&f, 0, SA_MAX_PORTS - 1);
        if (fz_u8(&f) & 1) cfg.req_age_bias[p] = fz_u8(&f) & 1 ? fz_u8(&f) : (uint8_t)(fz_u8(&f) & 7);
        if (fz_u8(&f) & 1) cfg.rsp_age_bias[p] = fz_u8(&f) & 1 ? fz_u8(&f) : (uint8_t)(fz_u8(&f) & 7);
    }
    r = sa_age_config_validate(&cfg);
    FZ_CHECK(r == expected_validate(&cfg), "validate gave %d, expected %d", r, expected_validate(&cfg));
    memset(&clk, 0x5A, sizeof clk);
    FZ_CHECK(sa_age_clock_init(&clk, &cfg) == r, "clock_init disagrees with validate");
    if (r != SA_OK) {
        FZ_CHECK(clk.age_clock_period == 0 && clk.packet_count[0] == 0 && clk.timestamp == 0 && clk.epoch == 0 &&
                 clk.inhibit == 0, "a failed clock_init leaves a zero clock");
        return 0;
    }
    FZ_CHECK(clk.age_clock_period == cfg.age_clock_period && clk.age_clock_period_reg == cfg.age_clock_period &&
             clk.timestamp == 0 && clk.epoch == 0 && !clk.inhibit && !clk.packet_count[0] && !clk.packet_count[1],
             "clock_init state");
    /* a short period so that the timestamp moves */
    FZ_CHECK(sa_age_clock_set_period(&clk, 0) == SA_ERR_PERIOD_ZERO && clk.age_clock_period == cfg.age_clock_period,
             "set_period(0)");
    FZ_CHECK(sa_age_clock_set_period(NULL, 5) == SA_ERR_NULL, "set_period(NULL)");
    {
        uint32_t period = (uint32_t)fz_range(&f, 1, 6);
        FZ_CHECK(sa_age_clock_set_period(&clk, period) == SA_OK && clk.age_clock_period == period &&
                 clk.age_clock_period_reg == period, "set_period(%u)", period);
    }

    while (fz_more(&f) && steps++ < 4000) {
        uint8_t op = fz_u8(&f) % 8;
        if (op <= 1 && np < MAXP) {                         /* Procedure 1 */
            int port = fz_range(&f, -1, cfg.num_ports), vc = fz_range(&f, -1, 4);
            uint16_t in = fz_u16(&f), field = in;
            r = sa_age_arrive(&clk, &cfg, port, vc, &field);
            if (port < 0 || port >= cfg.num_ports) {
                FZ_CHECK(r == SA_ERR_PORT_RANGE && field == in, "arrive port %d gave %d", port, r);
                continue;
            }
            if (vc < 0 || vc > 3) {
                FZ_CHECK(r == SA_ERR_VC_RANGE && field == in, "arrive vc %d gave %d", vc, r);
                continue;
            }
            FZ_CHECK(r == SA_OK && (field >> 10) == 0 && ((field >> 9) & 1u) == clk.epoch, "arrive: %d, field 0x%x",
                     r, field);
            pk[np].field = field;
            pk[np].base = (in & 0xFFu) + (vc < 2 ? cfg.req_age_bias[port] : cfg.rsp_age_bias[port]);
            if (pk[np].base > 255) pk[np].base = 255;
            pk[np].incs = 0;
            pk[np].epoch = clk.epoch;
            count[clk.epoch]++;
            np++;
        } else if (op <= 4) {                               /* Procedure 3 */
            int n = op == 2 ? 1 : fz_range(&f, 1, 600), t;
            for (t = 0; t < n; t++) {
                uint8_t ts = clk.timestamp, ep = clk.epoch;
                sa_age_tick(&clk);
                if (clk.timestamp != ts || clk.epoch != ep) {
                    FZ_CHECK(clk.timestamp == (uint8_t)(ts + 1) && (clk.epoch == ep) == (ts != 255),
                             "tick from timestamp %u epoch %u to %u %u", ts, ep, clk.timestamp, clk.epoch);
                    for (i = 0; i < np; i++) pk[i].incs++;
                }
                FZ_CHECK(!clk.inhibit || clk.timestamp == 255, "inhibited at timestamp %u", clk.timestamp);
                FZ_CHECK(!clk.inhibit || count[clk.epoch ^ 1u] > 0, "inhibited with the next epoch empty");
            }
        } else if (op <= 6 && np > 0) {                     /* Procedure 2: departure */
            int k = fz_range(&f, 0, np - 1);
            uint16_t field = pk[k].field;
            r = sa_age_depart(&clk, &field);
            FZ_CHECK(r == SA_OK && field == ideal(&pk[k]), "depart gave %d, age %u, ideal %u", r, field, ideal(&pk[k]));
            count[pk[k].epoch]--;
            pk[k] = pk[--np];
        } else {                                            /* a departure nobody arrived for */
            unsigned e = count[0] == 0 ? 0u : count[1] == 0 ? 1u : 2u;
            if (e < 2) {
                uint16_t field = (uint16_t)((e << 9) | (fz_u16(&f) & 0x1FFu)), keep = field;
                sa_age_clock c0 = clk;
                FZ_CHECK(sa_age_depart(&clk, &field) == SA_ERR_COUNT_UNDERFLOW && field == keep &&
                         !memcmp(&c0, &clk, sizeof clk), "underflowing departure");
            }
        }
        FZ_CHECK(clk.packet_count[0] == count[0] && clk.packet_count[1] == count[1] && clk.epoch <= 1 &&
                 clk.inhibit <= 1, "counts %u %u, model %u %u", clk.packet_count[0], clk.packet_count[1],
                 count[0], count[1]);
        for (i = 0; i < np; i++)                           /* Procedure 2: age at the head */
            FZ_CHECK(sa_age_at_head(&clk, pk[i].field) == ideal(&pk[i]),
                     "packet %d: age %u, ideal %u (base %u, %u increments)", i, sa_age_at_head(&clk, pk[i].field),
                     ideal(&pk[i]), pk[i].base, pk[i].incs);
    }
    return 0;
}
