/* SPDX-License-Identifier: MIT */
/* test_trust_aging.c - the AGE_RR_SELECT grant counter over its whole 6-bit
 * range, and the Section 3.2 age-clock-period estimate with buffers other
 * than SeaStar's.  Each of these once let a one-line bug pass the suite:
 * a counter wrapping at 32 (no test used a mask whose two halves differ)
 * and a period estimate that ignores the staging-buffer size, the input
 * buffer size or the VCs per link (only the 11x12x16 example was checked). */
#include "st_test.h"
#include "../seastar_arb.h"

/* Grants of one output arbiter with two candidates that are always
 * eligible: candidate 0 is old (age 200), candidate 1 young (age 10).  The
 * policy of grant g is bit (g mod 64) of AGE_RR_SELECT (seed 000 Section
 * 2.1: "a 64-bit AGE_RR_SELECT" indexed by a 6-bit grant counter).  An
 * age-based grant takes candidate 0; round-robin grants alternate 0, 1, 0,
 * ... from the round-robin pointer, which only round-robin grants move. */
static void st_grant_sequence(st_ctx *st__ctx, uint64_t mask, int grants) {
    sa_age_config cfg;
    sa_output_arb arb;
    sa_grant g;
    uint8_t ages[2] = { 200, 10 };
    int i, rr_next = 0;
    ST_EQ(SA_OK, sa_age_config_default(&cfg, 7));
    cfg.age_rr_select = mask;
    ST_EQ(SA_OK, sa_output_arb_init(&arb, 2, 1));
    for (i = 0; i < grants; i++) {
        int age_based = (int)((mask >> (i % 64)) & 1u), want;
        if (age_based) want = 0;
        else { want = rr_next; rr_next ^= 1; }
        sa_output_arbitrate(&arb, &cfg, NULL, 0x3u, ages, &g);
        ST_CHECKF(g.policy == (age_based ? SA_POLICY_AGE : SA_POLICY_ROUND_ROBIN),
                  "mask 0x%016llx, grant %d: policy %d, expected %d", (unsigned long long)mask, i, g.policy,
                  age_based);
        ST_CHECKF(g.candidate == want, "mask 0x%016llx, grant %d: candidate %d, expected %d",
                  (unsigned long long)mask, i, g.candidate, want);
    }
}

ST_TEST(trust_age_rr_select_counter_spans_64_grants) {
    /* Lower half age-based, upper half round-robin, and the other way
     * round; three rounds of 64 so that the wrap at 64 is crossed twice. */
    static const uint64_t masks[] = {
        0x00000000FFFFFFFFull, 0xFFFFFFFF00000000ull,
        0x8000000000000001ull, 0x0000000100000000ull, 0x5555555500000000ull,
    };
    size_t m;
    for (m = 0; m < sizeof masks / sizeof masks[0] && !st__ctx->failed; m++)
        st_grant_sequence(st__ctx, masks[m], 192);
}

/* The Section 3.2 estimate, step by step, as seed 000 words it:
 *   H_i = k_i / 4 for a torus dimension ((k_i + 1) / 3 for a mesh one),
 *         to the nearest whole hop;  H = sum of H_i;
 *   T_bias = sum of H_i x bias_i;
 *   ticks per hop = (128 - T_bias) / H, to the nearest tick;
 *   packets queued per hop = the maximum-sized packets that fit in an
 *         input buffer plus those that fit in a staging buffer;
 *   cycles per packet = VCs sharing the link x packet flits;
 *   queueing per hop = packets x cycles per packet;
 *   period = queueing per hop / ticks per hop, to the nearest cycle.
 * Written here from the paper's text with whole-number arithmetic of its
 * own (nearest = floor(x + 1/2)). */
typedef struct st_period {
    int hops, t_bias, ticks, packets, cycles_per_packet, queue_cycles;
    unsigned period;
} st_period;

static int st_nearest(int num, int den) {
    int q = num / den, r = num % den;
    return 2 * r >= den ? q + 1 : q;
}

static st_period st_period_by_hand(int n, const int *k, const int *mesh, const int *bias, int in_flits,
                                   int staging_flits, int pkt, int vcs) {
    st_period p;
    int i;
    p.hops = p.t_bias = 0;
    for (i = 0; i < n; i++) {
        int h = mesh[i] ? st_nearest(k[i] + 1, 3) : st_nearest(k[i], 4);
        p.hops += h;
        p.t_bias += h * bias[i];
    }
    p.ticks = st_nearest(128 - p.t_bias, p.hops);
    p.packets = in_flits / pkt + staging_flits / pkt;
    p.cycles_per_packet = vcs * pkt;
    p.queue_cycles = p.packets * p.cycles_per_packet;
    p.period = (unsigned)st_nearest(p.queue_cycles, p.ticks);
    return p;
}

/* Check the library's estimate against the hand derivation. */
static void st_period_matches(st_ctx *st__ctx, int n, const int *k, const int *mesh, const int *bias,
                             int in_flits, int staging_flits, int pkt, int vcs) {
    sa_period_desc d;
    sa_period_estimate e;
    st_period want = st_period_by_hand(n, k, mesh, bias, in_flits, staging_flits, pkt, vcs);
    int i;
    memset(&d, 0, sizeof d);
    d.num_dims = n;
    for (i = 0; i < n; i++) { d.radix[i] = k[i]; d.mesh[i] = mesh[i]; d.bias[i] = bias[i]; }
    d.input_buffer_flits = in_flits;
    d.staging_buffer_flits = staging_flits;
    d.max_packet_flits = pkt;
    d.vcs_sharing_link = vcs;
    ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e));
    ST_CHECKF(e.total_hops == want.hops && e.bias_total == want.t_bias && e.ticks_per_hop == want.ticks,
              "in %d, staging %d, packet %d, VCs %d: hops %d/%d, T_bias %d/%d, ticks %d/%d (library/hand)",
              in_flits, staging_flits, pkt, vcs, e.total_hops, want.hops, e.bias_total, want.t_bias,
              e.ticks_per_hop, want.ticks);
    ST_CHECKF(e.packets_queued == want.packets && e.cycles_per_packet == want.cycles_per_packet &&
              e.queue_cycles_per_hop == want.queue_cycles && e.age_clock_period == want.period,
              "in %d, staging %d, packet %d, VCs %d: packets %d/%d, cycles/packet %d/%d, queueing %d/%d, "
              "period %u/%u (library/hand)", in_flits, staging_flits, pkt, vcs, e.packets_queued, want.packets,
              e.cycles_per_packet, want.cycles_per_packet, e.queue_cycles_per_hop, want.queue_cycles,
              e.age_clock_period, want.period);
}

ST_TEST(trust_period_estimate_worked_by_hand) {
    /* 11x12x16 torus, biases 3,2,1 (3+3+4 = 10 hops, T_bias 19, 11 ticks
     * per hop), worked by hand with other buffers:
     *   staging 32 flits: 96/9 + 32/9 = 10 + 3 = 13 packets x 18 = 234
     *     cycles per hop; 234/11 = 21.3 -> period 21;
     *   input 64, staging 16, 5-flit packets, 4 VCs: 64/5 + 16/5 = 12 + 3
     *     = 15 packets x 20 cycles = 300; 300/11 = 27.3 -> 27;
     *   input 9, staging 9, 9-flit packets, 1 VC: 1 + 1 = 2 packets x 9 =
     *     18; 18/11 = 1.6 -> 2. */
    static const int k[3] = { 11, 12, 16 }, mesh[3] = { 0, 0, 0 }, bias[3] = { 3, 2, 1 };
    static const struct { int in, st, pkt, vcs, packets, cpp, queue; unsigned period; } c[] = {
        { 96, 32, 9, 2, 13, 18, 234, 21 },
        { 64, 16, 5, 4, 15, 20, 300, 27 },
        { 9, 9, 9, 1, 2, 9, 18, 2 },
    };
    size_t i;
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        sa_period_desc d;
        sa_period_estimate e;
        int j;
        memset(&d, 0, sizeof d);
        d.num_dims = 3;
        for (j = 0; j < 3; j++) { d.radix[j] = k[j]; d.mesh[j] = mesh[j]; d.bias[j] = bias[j]; }
        d.input_buffer_flits = c[i].in;
        d.staging_buffer_flits = c[i].st;
        d.max_packet_flits = c[i].pkt;
        d.vcs_sharing_link = c[i].vcs;
        ST_EQ(SA_OK, sa_age_clock_period_estimate(&d, &e));
        ST_EQ(10, e.total_hops);
        ST_EQ(19, e.bias_total);
        ST_EQ(11, e.ticks_per_hop);
        ST_EQ(c[i].packets, e.packets_queued);
        ST_EQ(c[i].cpp, e.cycles_per_packet);
        ST_EQ(c[i].queue, e.queue_cycles_per_hop);
        ST_EQ(c[i].period, e.age_clock_period);
        st_period_matches(st__ctx, 3, k, mesh, bias, c[i].in, c[i].st, c[i].pkt, c[i].vcs);
        if (st__ctx->failed) return;
    }
}

ST_TEST(trust_period_estimate_over_buffer_sizes) {
    /* Every combination of these buffers on three networks, against the
     * hand derivation: staging buffers of one to several packets, input
     * buffers that are and are not multiples of the packet, 1 to 4 VCs. */
    static const int ins[] = { 9, 17, 64, 96, 200, 1000 }, sts[] = { 9, 16, 18, 27, 40, 255 };
    static const int pkts[] = { 1, 4, 9 }, vcss[] = { 1, 2, 3, 4 };
    static const int k1[3] = { 11, 12, 16 }, m1[3] = { 0, 0, 0 }, b1[3] = { 3, 2, 1 };
    static const int k2[3] = { 8, 8, 8 }, m2[3] = { 0, 0, 0 }, b2[3] = { 1, 1, 1 };
    static const int k3[2] = { 16, 5 }, m3[2] = { 1, 0 }, b3[2] = { 2, 7 };
    size_t a, b, p, v;
    for (a = 0; a < sizeof ins / sizeof ins[0]; a++)
        for (b = 0; b < sizeof sts / sizeof sts[0]; b++)
            for (p = 0; p < sizeof pkts / sizeof pkts[0]; p++)
                for (v = 0; v < sizeof vcss / sizeof vcss[0]; v++) {
                    if (ins[a] < pkts[p] || sts[b] < pkts[p]) continue;
                    st_period_matches(st__ctx, 3, k1, m1, b1, ins[a], sts[b], pkts[p], vcss[v]);
                    if (!st__ctx->failed) st_period_matches(st__ctx, 3, k2, m2, b2, ins[a], sts[b], pkts[p], vcss[v]);
                    if (!st__ctx->failed) st_period_matches(st__ctx, 2, k3, m3, b3, ins[a], sts[b], pkts[p], vcss[v]);
                    if (st__ctx->failed) return;
                }
}
