/* SPDX-License-Identifier: MIT */
/* fuzz_output_arb.c - the output arbiter of seastar_arb.h:
 * sa_output_arb_init, sa_output_num_candidates, sa_output_select,
 * sa_output_update, sa_output_arbitrate.
 *
 * Oracle: a model of the arbiter written from its specification (seed 000
 * Section 2.1 and the doc comments): the policy of a grant is bit
 * grant_counter of AGE_RR_SELECT (round-robin while the clock is inhibited
 * or without ages); round-robin takes the first eligible candidate at or
 * after its pointer, age-based the oldest, ties to the first at or after
 * the age pointer; the pointer of the policy used moves just past the
 * winner and the 6-bit grant counter advances, on applied grants only. */
#include "fuzz.h"
#include "../../seastar_arb.h"

typedef struct model { int rr, age, counter; } model;

static int first_from(uint64_t m, int start, int n) {
    int i;
    for (i = 0; i < n; i++) {
        int c = (start + i) % n;
        if ((m >> c) & 1u) return c;
    }
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f;
    sa_output_arb arb;
    sa_age_config cfg;
    sa_age_clock clk;
    model m = { 0, 0, 0 };
    int ns, nv, es, ev, n, steps = 0;
    sa_result r, want;
    fz_init(&f, data, size);
    ns = fz_range(&f, -1, 18);
    nv = fz_range(&f, -1, 10);
    memset(&arb, 0x77, sizeof arb);
    r = sa_output_arb_init(&arb, ns, nv);
    es = ns == 0 ? 6 : ns;
    ev = nv == 0 ? 4 : nv;
    want = es < 1 || es > SA_MAX_SOURCES ? SA_ERR_SOURCE_RANGE : ev < 1 || ev > SA_MAX_VCS ? SA_ERR_VC_RANGE
         : es * ev > SA_MAX_CANDIDATES ? SA_ERR_CANDIDATE_RANGE : SA_OK;
    FZ_CHECK(r == want, "init(%d, %d) gave %d, expected %d", ns, nv, r, want);
    FZ_CHECK(sa_output_arb_init(NULL, 1, 1) == SA_ERR_NULL, "init(NULL)");
    if (r != SA_OK) {
        FZ_CHECK(sa_output_num_candidates(&arb) == 0, "a failed init leaves no candidates");
        return 0;
    }
    n = es * ev;
    FZ_CHECK(sa_output_num_candidates(&arb) == n, "num_candidates %d, expected %d", sa_output_num_candidates(&arb), n);
    sa_age_config_default(&cfg, 7);
    cfg.age_rr_select = fz_u64(&f);
    memset(&clk, 0, sizeof clk);
    while (fz_more(&f) && steps++ < 2000) {
        uint8_t ages[SA_MAX_CANDIDATES], mode = fz_u8(&f);
        uint64_t eligible = fz_u64(&f) & (n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1));
        int use_ages = (mode & 3) != 0, i, c, policy;
        unsigned age = 0;
        sa_grant g;
        sa_output_arb keep = arb;
        clk.inhibit = (mode >> 2) & 1;
        if (mode & 0x40) cfg.age_rr_select = fz_u64(&f);
        for (i = 0; i < n; i++) ages[i] = (mode & 0x80) ? (uint8_t)(fz_u8(&f) & 3) : fz_u8(&f);
        /* the model's choice */
        policy = !((mode & 16) && clk.inhibit) && use_ages && ((cfg.age_rr_select >> m.counter) & 1u) ? SA_POLICY_AGE
                                                                                   : SA_POLICY_ROUND_ROBIN;
        if (policy == SA_POLICY_AGE) {
            uint64_t oldest = 0;
            int best = -1;
            for (i = 0; i < n; i++)
                if ((eligible >> i) & 1u) {
                    if (ages[i] > best) { best = ages[i]; oldest = 0; }
                    if (ages[i] == best) oldest |= (uint64_t)1 << i;
                }
            c = first_from(oldest, m.age, n);
        } else c = first_from(eligible, m.rr, n);
        if (c >= 0 && use_ages) age = ages[c];
        /* the library's */
        if (mode & 8) {
            i = sa_output_select(&arb, &cfg, (mode & 16) ? &clk : NULL, eligible, use_ages ? ages : NULL, &g);
            FZ_CHECK(!memcmp(&keep, &arb, sizeof arb), "select changed the arbiter");
            if (!(mode & 32)) {
                sa_output_update(&arb, &g);
                goto applied;
            }
        } else {
            i = sa_output_arbitrate(&arb, &cfg, (mode & 16) ? &clk : NULL, eligible, use_ages ? ages : NULL, &g);
        applied:
            if (c >= 0) {
                if (policy == SA_POLICY_AGE) m.age = (c + 1) % n; else m.rr = (c + 1) % n;
                m.counter = (m.counter + 1) % 64;
            }
        }
        FZ_CHECK(i == g.candidate, "returned %d, grant says %d", i, g.candidate);
        FZ_CHECK(g.candidate == c && g.policy == policy, "candidate %d policy %d, model %d %d", g.candidate,
                 g.policy, c, policy);
        FZ_CHECK(g.candidate < 0 ? g.source == -1 && g.vc == -1 && g.age == 0
                                 : g.source == c / ev && g.vc == c % ev && g.age == age,
                 "grant source %d vc %d age %u", g.source, g.vc, g.age);
        FZ_CHECK(arb.rr_pointer == m.rr && arb.age_pointer == m.age && arb.grant_counter == m.counter,
                 "pointers %d %d counter %d, model %d %d %d", arb.rr_pointer, arb.age_pointer, arb.grant_counter,
                 m.rr, m.age, m.counter);
        FZ_CHECK(arb.rr_pointer < n && arb.age_pointer < n && arb.grant_counter < 64 && arb.num_sources == es &&
                 arb.num_vcs == ev, "state out of range");
    }
    return 0;
}
