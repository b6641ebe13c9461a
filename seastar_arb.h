/* seastar_arb.h - router arbitration and switch allocation, header-only C.
 *
 * Part of seastar: a reference implementation of interconnection-network
 * router algorithms.  This header holds
 *
 *   1. the Cray XT SeaStar age-based output arbitration (Procedures 1-3 of
 *      Abts & Weisser, SC'07; seed 000 Section 2), with its configuration
 *      registers, age histograms, the occupancy metric of Eq 17 and the
 *      parameter derivation of Section 3;
 *   2. the Alpha 21364 switch allocators and the allocators they are
 *      compared with (seed 002).
 *
 * Usage: #include "seastar_arb.h" from any number of translation units.
 * Every function is static inline (see SA_API); nothing allocates memory,
 * nothing keeps global state, nothing prints.  All state is in plain structs
 * that the caller owns.
 *
 * Overridable macros (define before including):
 *   SA_API       linkage of every function (default: static inline)
 *   SA_ASSERT(c) precondition check on hot paths (default: assert(c))
 *   SA_NO_SIMD   use portable C instead of SSE2 on x86-64 (same results)
 *
 * Naming: public functions and types start with sa_, macros with SA_,
 * private helpers with sa__.
 *
 * Order of one router cycle, as the library expects it:
 *   packets arriving at input ports   -> sa_age_arrive      (Procedure 1)
 *   each output port: ages at heads   -> sa_age_at_head     (Procedure 2)
 *                     choose a winner -> sa_output_select + sa_output_update
 *                     winner leaves   -> sa_age_depart      (Procedure 2)
 *   end of the cycle                  -> sa_age_tick        (Procedure 3)
 */
#ifndef SEASTAR_ARB_H
#define SEASTAR_ARB_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(SA_NO_SIMD)
#include <emmintrin.h>
/** Defined to 1 when the output arbiter's age comparison and the switch
 *  allocators' bit-matrix helpers use SSE2 (x86-64; define SA_NO_SIMD before
 *  including to use the portable code).  Both give identical results; the
 *  tests compare them. */
#define SA_SIMD_SSE2 1
#endif

#ifndef SA_API
/** Linkage of every function of seastar_arb.h; define it before including
 *  the header to change it (for example to plain ``static``). */
#define SA_API static inline
#endif

#ifndef SA_ASSERT
#include <assert.h>
/** Precondition check used on hot paths; define it before including the
 *  header to route failures to your own handler (or to nothing). */
#define SA_ASSERT(c) assert(c)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Limits and result codes
 * ====================================================================== */

/** Largest number of router input ports that carry age biases. */
#define SA_MAX_PORTS 16
/** Number of virtual channels the aging procedures know: VC0/VC1 carry
 *  requests, VC2/VC3 responses (seed 000 Section 2.1). */
#define SA_AGE_NUM_VCS 4
/** Largest number of input sources an output arbiter chooses among. */
#define SA_MAX_SOURCES 16
/** Largest number of virtual channels per source at an output arbiter. */
#define SA_MAX_VCS 8
/** Largest number of candidates (sources x VCs) of one output arbiter; a
 *  candidate set fits one 64-bit mask. */
#define SA_MAX_CANDIDATES 64
/** Largest age bias: REQ_AGE_BIAS and RSP_AGE_BIAS are 3-bit fields. */
#define SA_MAX_AGE_BIAS 7
/** Largest packet age (ages are 8 bits and saturate). */
#define SA_MAX_AGE 255
/** Largest number of dimensions the Section 3 functions accept. */
#define SA_MAX_DIMS 8

/** Result code of every function that can fail.  ``SA_OK`` is zero. */
typedef enum sa_result {
    SA_OK = 0,                  /**< success */
    SA_ERR_NULL,                /**< a required pointer argument is NULL */
    SA_ERR_PERIOD_ZERO,         /**< AGE_CLOCK_PERIOD is 0 (a zero-initialised
                                     configuration; see sa_age_config_default) */
    SA_ERR_BIAS_RANGE,          /**< an age bias is above 7 (3-bit field) */
    SA_ERR_PORT_RANGE,          /**< a port number or port count is out of range */
    SA_ERR_VC_RANGE,            /**< a virtual channel or VC count is out of range */
    SA_ERR_SOURCE_RANGE,        /**< a source count is out of range */
    SA_ERR_CANDIDATE_RANGE,     /**< sources x VCs exceeds SA_MAX_CANDIDATES */
    SA_ERR_COUNT_UNDERFLOW,     /**< a packet departs from an epoch with no packets */
    SA_ERR_ZERO_PACKETS,        /**< a ratio has no packets to divide by */
    SA_ERR_DIM_RANGE,           /**< a dimension count is 0 or above SA_MAX_DIMS */
    SA_ERR_RADIX_RANGE,         /**< a radix is below 2 */
    SA_ERR_PARAM_RANGE,         /**< another parameter is out of its range */
    SA_ERR_SIZE_RANGE,          /**< an allocator size is 0 or above its maximum */
    SA_ERR_REQUEST_RANGE,       /**< a request names an output that is not configured */
    SA_RESULT_COUNT             /**< number of result codes (not a result) */
} sa_result;

/**
 * Turn a result code into a one-line English message.
 *
 * :param r: a result code.
 * :returns: a static string; never NULL (unknown codes give "unknown result").
 */
SA_API const char *sa_result_string(sa_result r) {
    switch (r) {
    case SA_OK: return "ok";
    case SA_ERR_NULL: return "a required pointer argument is NULL";
    case SA_ERR_PERIOD_ZERO:
        return "AGE_CLOCK_PERIOD is 0 (a zero-initialised configuration is "
               "rejected: start from sa_age_config_default)";
    case SA_ERR_BIAS_RANGE: return "an age bias is above 7 (REQ/RSP_AGE_BIAS are 3-bit fields)";
    case SA_ERR_PORT_RANGE: return "a port number or port count is out of range";
    case SA_ERR_VC_RANGE: return "a virtual channel or VC count is out of range";
    case SA_ERR_SOURCE_RANGE: return "a source count is out of range";
    case SA_ERR_CANDIDATE_RANGE: return "sources x VCs exceeds SA_MAX_CANDIDATES (64)";
    case SA_ERR_COUNT_UNDERFLOW: return "a packet departs from an epoch whose packet count is 0";
    case SA_ERR_ZERO_PACKETS: return "no packets: the ratio is undefined";
    case SA_ERR_DIM_RANGE: return "the number of dimensions is 0 or above SA_MAX_DIMS";
    case SA_ERR_RADIX_RANGE: return "a radix is below 2";
    case SA_ERR_PARAM_RANGE: return "a parameter is out of its range";
    case SA_ERR_SIZE_RANGE: return "an allocator size is 0 or above its maximum";
    case SA_ERR_REQUEST_RANGE: return "a request names an output that is not configured";
    default: return "unknown result";
    }
}

/* ----------------------------------------------------------------------
 * Bit helpers (private)
 * ---------------------------------------------------------------------- */

/* Index of the lowest set bit; x must not be 0. */
SA_API int sa__ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* Number of set bits. */
SA_API int sa__popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
#endif
}

/* Mask of the low n bits, 0 <= n <= 64. */
SA_API uint64_t sa__low_mask(int n) {
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* First set bit of mask at or after position start (cyclically), or -1.
 * This is a round-robin pick with start as the highest-priority position. */
SA_API int sa__first_from(uint64_t mask, int start) {
    uint64_t hi;
    if (mask == 0) return -1;
    hi = mask & (~(uint64_t)0 << start);
    return sa__ctz64(hi ? hi : mask);
}

/* ======================================================================
 * 1. SeaStar age-based arbitration (seed 000 Section 2)
 * ====================================================================== */

/** Bits 7:0 of the 11-bit header age field: the packet age. */
#define SA_AGE_FIELD_AGE_MASK 0xFFu
/** Bit 8 of the header age field: the carry (sign) of age minus timestamp. */
#define SA_AGE_FIELD_CARRY_BIT 8
/** Bit 9 of the header age field: the epoch the packet arrived in. */
#define SA_AGE_FIELD_EPOCH_BIT 9
/** Mask of the 11 bits of the header age field (bit 10 is unused). */
#define SA_AGE_FIELD_MASK 0x7FFu

/** AGE_CLOCK_PERIOD after reset: the paper's default of 0x1000 (seed 000
 *  Section 4, Figure 5(a)). */
#define SA_DEFAULT_AGE_CLOCK_PERIOD 0x1000u
/** The default REQ_AGE_BIAS and RSP_AGE_BIAS of every port (Section 2.1). */
#define SA_DEFAULT_AGE_BIAS 1
/** The default AGE_RR_SELECT: all ones, age-based arbitration on every
 *  grant (the paper calls its 0x1000 setting "default values for age-based
 *  arbitration", Figure 5(a)). */
#define SA_DEFAULT_AGE_RR_SELECT (~(uint64_t)0)
/** Number of input ports of a SeaStar router (six network, one processor). */
#define SA_SEASTAR_PORTS 7

/**
 * The aging registers of one router (seed 000 Section 2.1).
 *
 * A zero-initialised configuration is **rejected** by
 * sa_age_config_validate (``SA_ERR_PERIOD_ZERO``): in this configuration
 * zero is a meaningful value for a bias (footnote 5 suggests a processor
 * bias of 0) and for AGE_RR_SELECT (pure round-robin), so zero cannot also
 * mean "default".  Start from sa_age_config_default, which fills in the
 * paper's reset values, and change what you need.
 */
typedef struct sa_age_config {
    /** AGE_CLOCK_PERIOD: the 32-bit countdown reload value; the timestamp
     *  advances once every age_clock_period clock ticks.  Must not be 0. */
    uint32_t age_clock_period;
    /** AGE_RR_SELECT: bit i chooses the policy of the grant whose 6-bit
     *  grant counter is i: 1 age-based, 0 round-robin. */
    uint64_t age_rr_select;
    /** Number of input ports with a bias (1..SA_MAX_PORTS; SeaStar has 7). */
    int num_ports;
    /** REQ_AGE_BIAS per input port (PORT_CONFIG[63:61]), added on VC0/VC1. */
    uint8_t req_age_bias[SA_MAX_PORTS];
    /** RSP_AGE_BIAS per input port (PORT_CONFIG[60:58]), added on VC2/VC3. */
    uint8_t rsp_age_bias[SA_MAX_PORTS];
} sa_age_config;

/**
 * The chip-wide age clock of one router: the state of Procedure 3 and the
 * per-epoch packet counters shared by Procedures 1 and 2 (seed 000 Table 2).
 *
 * Departure from the paper: the hardware packet counters hold 0..2047; here
 * they are 32 bits wide, because a router whose 7x4x96-flit input buffers
 * and 7x24x16-flit staging buffers are full of one-flit packets holds more
 * than 2047 packets.
 */
typedef struct sa_age_clock {
    /** Copy of the software-visible AGE_CLK_PERIOD register. */
    uint32_t age_clock_period;
    /** age_clk_period_reg: the internal countdown timer. */
    uint32_t age_clock_period_reg;
    /** packet_count[e]: packets that arrived in epoch e and have not left. */
    uint32_t packet_count[2];
    /** Free-running 8-bit timestamp. */
    uint8_t timestamp;
    /** Current epoch, 0 or 1. */
    uint8_t epoch;
    /** 1 while an epoch switch waits for the other epoch to drain; age-based
     *  arbitration is replaced by round-robin meanwhile (Section 2.2). */
    uint8_t inhibit;
} sa_age_clock;

/**
 * Fill a configuration with the paper's reset values.
 *
 * AGE_CLOCK_PERIOD 0x1000, REQ_AGE_BIAS = RSP_AGE_BIAS = 1 on every port,
 * AGE_RR_SELECT all ones (age-based).
 *
 * :param cfg: the configuration to fill.
 * :param num_ports: number of input ports, 1..SA_MAX_PORTS (SeaStar: 7).
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_PORT_RANGE (cfg is then left
 *           unchanged).
 * :paper: seed 000 Section 2.1 (bias default 1), Section 4 (period 0x1000).
 */
SA_API sa_result sa_age_config_default(sa_age_config *cfg, int num_ports) {
    int p;
    if (cfg == NULL) return SA_ERR_NULL;
    if (num_ports < 1 || num_ports > SA_MAX_PORTS) return SA_ERR_PORT_RANGE;
    cfg->age_clock_period = SA_DEFAULT_AGE_CLOCK_PERIOD;
    cfg->age_rr_select = SA_DEFAULT_AGE_RR_SELECT;
    cfg->num_ports = num_ports;
    for (p = 0; p < SA_MAX_PORTS; p++) {
        cfg->req_age_bias[p] = p < num_ports ? SA_DEFAULT_AGE_BIAS : 0;
        cfg->rsp_age_bias[p] = p < num_ports ? SA_DEFAULT_AGE_BIAS : 0;
    }
    return SA_OK;
}

/**
 * Check a configuration.
 *
 * :param cfg: the configuration.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PERIOD_ZERO if AGE_CLOCK_PERIOD is 0
 *           (this is what a zero-initialised configuration gives);
 *           SA_ERR_PORT_RANGE if num_ports is not in 1..SA_MAX_PORTS;
 *           SA_ERR_BIAS_RANGE if a bias of a configured port is above 7.
 */
SA_API sa_result sa_age_config_validate(const sa_age_config *cfg) {
    int p;
    if (cfg == NULL) return SA_ERR_NULL;
    if (cfg->age_clock_period == 0) return SA_ERR_PERIOD_ZERO;
    if (cfg->num_ports < 1 || cfg->num_ports > SA_MAX_PORTS) return SA_ERR_PORT_RANGE;
    for (p = 0; p < cfg->num_ports; p++)
        if (cfg->req_age_bias[p] > SA_MAX_AGE_BIAS || cfg->rsp_age_bias[p] > SA_MAX_AGE_BIAS)
            return SA_ERR_BIAS_RANGE;
    return SA_OK;
}

/**
 * Reset an age clock: timestamp 0, epoch 0, no packets, not inhibited, and
 * the countdown loaded from the configuration's AGE_CLOCK_PERIOD.
 *
 * :param clk: the clock to reset.
 * :param cfg: a configuration; it is validated first.
 * :returns: SA_OK or the error of sa_age_config_validate; on an error the
 *           clock is still written, all zero, so that it is never left
 *           uninitialised (its period of 0 marks it as unusable).
 */
SA_API sa_result sa_age_clock_init(sa_age_clock *clk, const sa_age_config *cfg) {
    sa_result r = sa_age_config_validate(cfg);
    if (clk == NULL) return SA_ERR_NULL;
    clk->age_clock_period = r == SA_OK ? cfg->age_clock_period : 0;
    clk->age_clock_period_reg = clk->age_clock_period;
    clk->packet_count[0] = clk->packet_count[1] = 0;
    clk->timestamp = 0;
    clk->epoch = 0;
    clk->inhibit = 0;
    return r;
}

/**
 * Write AGE_CLK_PERIOD: like the hardware, the internal countdown is
 * reloaded with the new value at once (seed 000 Section 2.3.3).
 *
 * :param clk: the clock.
 * :param period: the new AGE_CLK_PERIOD, 1..2^32-1.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_PERIOD_ZERO.
 */
SA_API sa_result sa_age_clock_set_period(sa_age_clock *clk, uint32_t period) {
    if (clk == NULL) return SA_ERR_NULL;
    if (period == 0) return SA_ERR_PERIOD_ZERO;
    clk->age_clock_period = period;
    clk->age_clock_period_reg = period;
    return SA_OK;
}

/**
 * Procedure 1: a packet arrives at an input port.
 *
 * Reads the packet age from bits 7:0 of ``*age_field``, adds the port's
 * REQ_AGE_BIAS (VC0/VC1) or RSP_AGE_BIAS (VC2/VC3), saturates at 255,
 * counts the packet in the current epoch, and writes the new 11-bit field:
 * bit 9 the epoch, bits 8:0 the 9-bit two's-complement difference age minus
 * timestamp (bit 8 is the carry of Table 1), bit 10 zero.
 *
 * :param clk: the router's age clock; packet_count[epoch] is incremented.
 * :param cfg: the router's aging configuration (assumed valid).
 * :param port: input port, 0..cfg->num_ports-1.
 * :param vc: virtual channel, 0..3.
 * :param age_field: in: the header age field as it came off the link (only
 *                   bits 7:0 are read); out: the field as stored in the
 *                   input buffer.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PORT_RANGE or SA_ERR_VC_RANGE, in
 *           which case nothing is changed.
 * :paper: seed 000 Section 2.3.1, Procedure 1, lines 1-12.
 */
SA_API sa_result sa_age_arrive(sa_age_clock *clk, const sa_age_config *cfg,
                               int port, int vc, uint16_t *age_field) {
    unsigned age;
    if (clk == NULL || cfg == NULL || age_field == NULL) return SA_ERR_NULL;
    if (port < 0 || port >= cfg->num_ports || port >= SA_MAX_PORTS) return SA_ERR_PORT_RANGE;
    if (vc < 0 || vc >= SA_AGE_NUM_VCS) return SA_ERR_VC_RANGE;
    age = *age_field & SA_AGE_FIELD_AGE_MASK;                       /* line 1 */
    age += vc < 2 ? cfg->req_age_bias[port] : cfg->rsp_age_bias[port]; /* 2-6 */
    if (age > SA_MAX_AGE) age = SA_MAX_AGE;                         /* 7-9 */
    clk->packet_count[clk->epoch]++;                                /* 10 */
    *age_field = (uint16_t)(((unsigned)clk->epoch << SA_AGE_FIELD_EPOCH_BIT) /* 11 */
                 | ((age - clk->timestamp) & 0x1FFu));              /* 12 */
    return SA_OK;
}

/**
 * Procedure 2, age computation: the age the output arbiter sees for a
 * packet at the head of a staging buffer.  Changes no state, so a candidate
 * that loses arbitration is simply asked again next cycle.
 *
 * The result is min(255, age on arrival + bias + timestamp increments since
 * arrival) for every state the clock can reach.
 *
 * Departure from the printed pseudocode: line 8 reads "new_age[8] = 1 OR
 * (new_age[9] = 1 AND head_flit[8] = 1)".  With bits 8:0 holding the 9-bit
 * two's complement of age minus timestamp, that test saturates every packet
 * that arrived with an age below the timestamp (age 5 at timestamp 100, one
 * tick later, would read 255), and misses packets whose sum reaches 512 with
 * bit 8 clear (age 255 at timestamp 0, read at timestamp 1 of the next epoch,
 * would read 0).  The condition that gives the ideal age is
 * "new_age[8] = 1 OR (new_age[9] = 1 AND head_flit[8] = 0)": when bit 8 is
 * set the 9-bit value stands for a negative difference and the 10-bit sum
 * carries an extra 512 that bit 9 must not count as overflow.  The exhaustive
 * test tests/test_aging.c checks every reachable state against the ideal.
 *
 * :param clk: the router's age clock (read only).
 * :param age_field: the stored header age field written by sa_age_arrive
 *                   (bit 10 and higher bits are ignored).
 * :returns: the packet's age, 0..255.
 * :paper: seed 000 Section 2.3.2, Procedure 2, lines 1-11.
 */
SA_API unsigned sa_age_at_head(const sa_age_clock *clk, uint16_t age_field) {
    unsigned in_epoch = (age_field >> SA_AGE_FIELD_EPOCH_BIT) & 1u;     /* line 3 */
    unsigned rollover = in_epoch != clk->epoch;                         /* 1, 4-6 */
    unsigned head = age_field & 0x1FFu;
    unsigned new_age = (head + ((rollover << 8) | clk->timestamp)) & 0x3FFu; /* 7 */
    unsigned carry = (head >> SA_AGE_FIELD_CARRY_BIT) & 1u;
    if (((new_age >> 8) & 1u) || (((new_age >> 9) & 1u) && !carry))    /* 8, corrected */
        return SA_MAX_AGE;                                              /* 9-10 */
    return new_age & 0xFFu;
}

/**
 * Procedure 2, departure: the packet at the head of a staging buffer wins
 * arbitration and leaves.  Writes the age the arbiter saw into bits 7:0 of
 * the outgoing header (bits 10:8 become 0: the next router's Procedure 1
 * reads only bits 7:0) and decrements the packet count of the arrival epoch.
 *
 * :param clk: the router's age clock.
 * :param age_field: in: the stored field; out: the outgoing header field.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_COUNT_UNDERFLOW if the arrival
 *           epoch's count is already 0 (a packet that never arrived, or
 *           departed twice), in which case nothing is changed.
 * :paper: seed 000 Section 2.3.2, Procedure 2, lines 12-14.
 */
SA_API sa_result sa_age_depart(sa_age_clock *clk, uint16_t *age_field) {
    unsigned in_epoch;
    if (clk == NULL || age_field == NULL) return SA_ERR_NULL;
    in_epoch = (*age_field >> SA_AGE_FIELD_EPOCH_BIT) & 1u;
    if (clk->packet_count[in_epoch] == 0) return SA_ERR_COUNT_UNDERFLOW;
    *age_field = (uint16_t)sa_age_at_head(clk, *age_field);           /* 13 */
    clk->packet_count[in_epoch]--;                                    /* 14 */
    return SA_OK;
}

/* True when the epoch after the current one still holds packets. */
SA_API int sa__next_epoch_busy(const sa_age_clock *clk) {
    return clk->packet_count[clk->epoch ^ 1u] > 0;
}

/**
 * Procedure 3: one tick of the router clock.  Counts AGE_CLK_PERIOD down;
 * on expiry reloads it and advances the timestamp; at timestamp 255 the
 * timestamp wraps and the epoch switches only if the next epoch holds no
 * packets, otherwise the clock is inhibited (timestamp held at 255,
 * age-based arbitration replaced by round-robin) until that epoch drains.
 *
 * :param clk: the router's age clock (precondition: age_clock_period > 0,
 *             as sa_age_clock_init guarantees).
 * :paper: seed 000 Section 2.3.3, Procedure 3, lines 1-22.
 */
SA_API void sa_age_tick(sa_age_clock *clk) {
    if (clk->inhibit) {                                     /* lines 1-5 */
        clk->inhibit = (uint8_t)sa__next_epoch_busy(clk);
        return;
    }
    if (--clk->age_clock_period_reg != 0) return;           /* 7-8 */
    clk->age_clock_period_reg = clk->age_clock_period;     /* 9 */
    if (clk->timestamp == 255) {                            /* 10 */
        clk->inhibit = (uint8_t)sa__next_epoch_busy(clk);   /* 11-13 */
        if (!clk->inhibit) {
            clk->timestamp = 0;                             /* 15 */
            clk->epoch ^= 1u;                               /* 16 */
        }
    } else {
        clk->timestamp++;                                   /* 19 */
    }
}

/* ----------------------------------------------------------------------
 * Output arbitration (seed 000 Section 2.1; seed 001 "Age-based output
 * arbitration")
 * ---------------------------------------------------------------------- */

/** Policy of one grant: round-robin (an AGE_RR_SELECT bit of 0, or any grant
 *  while the age clock is inhibited). */
#define SA_POLICY_ROUND_ROBIN 0
/** Policy of one grant: age-based (an AGE_RR_SELECT bit of 1). */
#define SA_POLICY_AGE 1

/**
 * The state of one output port's arbiter.
 *
 * The candidates are the heads of the port's staging buffers, one per
 * (input source, VC); candidate ``c = source * num_vcs + vc``.  The seeds
 * describe the choice as "a 4-to-1 VC arbitration along with a 7-to-1
 * arbitration among the input ports"; this library makes it one selection
 * over all source x VC candidates in that source-major order:
 *
 * - round-robin grants take the first eligible candidate at or after
 *   ``rr_pointer``; the pointer then moves just past the winner, so the
 *   winner's remaining VCs come next, then the next source's.  With one
 *   active VC per source this is exactly a round-robin over input ports;
 *   with several, every (source, VC) pair gets an equal share;
 * - age-based grants take the largest age; ties go to the first tied
 *   candidate at or after ``age_pointer``, which then moves past the winner.
 *
 * The two pointers are independent: each moves only on grants of its own
 * policy.  ``grant_counter`` is the 6-bit counter that indexes AGE_RR_SELECT
 * and advances on every grant.
 */
typedef struct sa_output_arb {
    uint8_t num_sources;    /**< input sources (SeaStar: 6) */
    uint8_t num_vcs;        /**< VCs per source (SeaStar: 4) */
    uint8_t rr_pointer;     /**< highest-priority candidate for round-robin */
    uint8_t age_pointer;    /**< highest-priority candidate among equal ages */
    uint8_t grant_counter;  /**< 6-bit index into AGE_RR_SELECT */
    uint32_t vc_reciprocal; /**< ceil(65536 / num_vcs): candidate / num_vcs
                                 is (candidate * vc_reciprocal) >> 16, exact
                                 for every candidate below 64 */
} sa_output_arb;

/** The result of one output arbitration. */
typedef struct sa_grant {
    int candidate;  /**< winning candidate, or -1 when none was eligible */
    int source;     /**< candidate / num_vcs (or -1) */
    int vc;         /**< candidate % num_vcs (or -1) */
    int policy;     /**< SA_POLICY_ROUND_ROBIN or SA_POLICY_AGE */
    unsigned age;   /**< the winner's age as given in ages[] (0 under
                         round-robin when ages is NULL) */
} sa_grant;

/**
 * Reset an output arbiter.  Zero counts mean SeaStar's 6 sources x 4 VCs.
 *
 * :param arb: the arbiter.
 * :param num_sources: input sources, 1..SA_MAX_SOURCES, or 0 for 6.
 * :param num_vcs: VCs per source, 1..SA_MAX_VCS, or 0 for 4.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_SOURCE_RANGE; SA_ERR_VC_RANGE;
 *           SA_ERR_CANDIDATE_RANGE if sources x VCs > 64.  On an error the
 *           arbiter is left all zero (no candidates).
 */
SA_API sa_result sa_output_arb_init(sa_output_arb *arb, int num_sources, int num_vcs) {
    if (arb == NULL) return SA_ERR_NULL;
    arb->num_sources = arb->num_vcs = 0;
    arb->rr_pointer = arb->age_pointer = arb->grant_counter = 0;
    arb->vc_reciprocal = 0;
    if (num_sources == 0) num_sources = 6;
    if (num_vcs == 0) num_vcs = SA_AGE_NUM_VCS;
    if (num_sources < 1 || num_sources > SA_MAX_SOURCES) return SA_ERR_SOURCE_RANGE;
    if (num_vcs < 1 || num_vcs > SA_MAX_VCS) return SA_ERR_VC_RANGE;
    if (num_sources * num_vcs > SA_MAX_CANDIDATES) return SA_ERR_CANDIDATE_RANGE;
    arb->num_sources = (uint8_t)num_sources;
    arb->num_vcs = (uint8_t)num_vcs;
    arb->vc_reciprocal = (65536u + (uint32_t)num_vcs - 1u) / (uint32_t)num_vcs;
    return SA_OK;
}

/** Number of candidates of an output arbiter (sources x VCs). */
SA_API int sa_output_num_candidates(const sa_output_arb *arb) {
    return (int)arb->num_sources * (int)arb->num_vcs;
}

/* Mask of the eligible candidates holding the largest age; *max_age gets it.
 * Portable version: two branch-free passes, key = age + 1 when eligible. */
SA_API uint64_t sa__oldest_portable(uint64_t eligible, const uint8_t *ages, int n,
                                    unsigned *max_age) {
    unsigned best = 0;
    uint64_t ties = 0;
    int i;
    for (i = 0; i < n; i++) {
        unsigned key = ((unsigned)(eligible >> i) & 1u) * ((unsigned)ages[i] + 1u);
        best = key > best ? key : best;
    }
    for (i = 0; i < n; i++) {
        unsigned key = ((unsigned)(eligible >> i) & 1u) * ((unsigned)ages[i] + 1u);
        ties |= (uint64_t)(key == best) << i;
    }
    *max_age = best - 1u;
    return ties;
}

#ifdef SA_SIMD_SSE2

/* Load ages[0..rem-1] (at most 16 of them) into a vector, zero beyond.  The
 * copy is sized by rem so that no byte past the caller's array is read. */
SA_API __m128i sa__load_ages16(const uint8_t *ages, int rem) {
    uint8_t buf[16] = { 0 };
    memcpy(buf, ages, (size_t)(rem < 16 ? rem : 16));
    return _mm_loadu_si128((const __m128i *)(const void *)buf);
}

/* Byte mask (0xFF per set bit) of 16 eligibility bits. */
SA_API __m128i sa__expand_bits16(unsigned bits) {
    const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1,
                                     -128, 64, 32, 16, 8, 4, 2, 1);
    __m128i e = _mm_cvtsi32_si128((int)(bits & 0xFFFFu));
    e = _mm_unpacklo_epi8(e, e);
    e = _mm_unpacklo_epi16(e, e);
    e = _mm_unpacklo_epi32(e, e);          /* bits 0-7 in bytes 0-7, 8-15 in 8-15 */
    return _mm_cmpeq_epi8(_mm_and_si128(e, sel), sel);
}

/* SSE2 version of sa__oldest_portable: 16 candidates per instruction. */
SA_API uint64_t sa__oldest_sse2(uint64_t eligible, const uint8_t *ages, int n,
                                unsigned *max_age) {
    __m128i v[4], mx = _mm_setzero_si128(), b;
    uint64_t ties = 0;
    int c, chunks = (n + 15) >> 4;
    for (c = 0; c < chunks; c++) {
        v[c] = sa__load_ages16(ages + 16 * c, n - 16 * c);
        mx = _mm_max_epu8(mx, _mm_and_si128(v[c],
                          sa__expand_bits16((unsigned)(eligible >> (16 * c)))));
    }
    mx = _mm_max_epu8(mx, _mm_srli_si128(mx, 8));
    mx = _mm_max_epu8(mx, _mm_srli_si128(mx, 4));
    mx = _mm_max_epu8(mx, _mm_srli_si128(mx, 2));
    mx = _mm_max_epu8(mx, _mm_srli_si128(mx, 1));
    *max_age = (unsigned)_mm_cvtsi128_si32(mx) & 0xFFu;
    b = _mm_set1_epi8((char)*max_age);
    for (c = 0; c < chunks; c++)
        ties |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[c], b)) << (16 * c);
    /* an ineligible candidate matches only through its age, never its mask */
    return ties & eligible;
}
#endif

/* Sparse version: a loop over the few eligible candidates. */
SA_API uint64_t sa__oldest_sparse(uint64_t eligible, const uint8_t *ages, unsigned *max_age) {
    unsigned best = 0;
    uint64_t ties = 0, m;
    for (m = eligible; m; m &= m - 1) {
        int i = sa__ctz64(m);
        unsigned a = ages[i];
        if (a > best) { best = a; ties = 0; }
        if (a == best) ties |= (uint64_t)1 << i;
    }
    *max_age = best;
    return ties;
}

/* Mask of the eligible candidates holding the largest age (eligible != 0).
 * A few eligible candidates (the common case in a lightly loaded network)
 * are compared one by one; more take the branch-free or SSE2 path. */
SA_API uint64_t sa__oldest(uint64_t eligible, const uint8_t *ages, int n, unsigned *max_age) {
    uint64_t rest = eligible & (eligible - 1);     /* drop up to four bits */
    rest &= rest - 1;
    rest &= rest - 1;
    if ((rest & (rest - 1)) == 0) return sa__oldest_sparse(eligible, ages, max_age);
#ifdef SA_SIMD_SSE2
    return sa__oldest_sse2(eligible, ages, n, max_age);
#else
    return sa__oldest_portable(eligible, ages, n, max_age);
#endif
}

/**
 * Choose the winner of one output port without changing any state.
 *
 * The policy is bit ``grant_counter`` of AGE_RR_SELECT (1 age-based, 0
 * round-robin), except that while the age clock is inhibited every grant is
 * round-robin (seed 000 Section 2.2).  Apply the grant with
 * sa_output_update if the winner is actually sent.
 *
 * :param arb: the output arbiter.
 * :param cfg: the aging configuration (for AGE_RR_SELECT).
 * :param clk: the age clock (for inhibit); NULL means not inhibited.
 * :param eligible: bit c set when candidate c holds a packet that may be
 *                  sent (for SeaStar: a VC with send credits of at least the
 *                  maximum packet size).  Precondition (SA_ASSERT): no bit
 *                  at or above sa_output_num_candidates; such bits are
 *                  ignored when the assert is compiled out.
 * :param ages: ages[c] is candidate c's age from sa_age_at_head, for the
 *              sa_output_num_candidates candidates (only eligible ones are
 *              compared); NULL makes every grant round-robin.
 * :param grant: receives the winner (candidate -1 if eligible is 0).
 * :returns: the winning candidate, or -1.
 * :paper: seed 000 Sections 2.1-2.3.2; seed 001 "Key parameters".
 */
SA_API int sa_output_select(const sa_output_arb *arb, const sa_age_config *cfg,
                            const sa_age_clock *clk, uint64_t eligible,
                            const uint8_t *ages, sa_grant *grant) {
    int n = sa_output_num_candidates(arb), c;
    int inhibit = clk != NULL && clk->inhibit;
    int policy = (!inhibit && ages != NULL && ((cfg->age_rr_select >> arb->grant_counter) & 1u))
               ? SA_POLICY_AGE : SA_POLICY_ROUND_ROBIN;
    unsigned age = 0;
    SA_ASSERT((eligible & ~sa__low_mask(n)) == 0);
    eligible &= sa__low_mask(n);    /* with SA_ASSERT disabled: ignore stray bits */
    if (policy == SA_POLICY_AGE) {
        c = eligible ? sa__first_from(sa__oldest(eligible, ages, n, &age), arb->age_pointer) : -1;
    } else {
        c = sa__first_from(eligible, arb->rr_pointer);
        if (c >= 0 && ages != NULL) age = ages[c];
    }
    grant->candidate = c;
    grant->source = c < 0 ? -1 : (int)(((uint32_t)c * arb->vc_reciprocal) >> 16);
    grant->vc = c < 0 ? -1 : c - grant->source * arb->num_vcs;
    grant->policy = policy;
    grant->age = c < 0 ? 0 : age;
    return c;
}

/**
 * Apply a grant: advance the pointer of the policy used just past the
 * winner, and advance the 6-bit grant counter.  A grant with candidate -1
 * changes nothing (no grant cycle).
 *
 * :param arb: the output arbiter.
 * :param grant: a grant from sa_output_select on the same arbiter state.
 */
SA_API void sa_output_update(sa_output_arb *arb, const sa_grant *grant) {
    int n = sa_output_num_candidates(arb);
    uint8_t next;
    if (grant->candidate < 0) return;
    SA_ASSERT(grant->candidate < n);
    if (grant->candidate >= n) return;  /* with SA_ASSERT disabled: not a grant */
    next = (uint8_t)(grant->candidate + 1 == n ? 0 : grant->candidate + 1);
    if (grant->policy == SA_POLICY_AGE) arb->age_pointer = next;
    else arb->rr_pointer = next;
    arb->grant_counter = (uint8_t)((arb->grant_counter + 1u) & 63u);
}

/**
 * sa_output_select followed by sa_output_update: the usual call when the
 * winner is always sent.
 *
 * :returns: the winning candidate, or -1.
 */
SA_API int sa_output_arbitrate(sa_output_arb *arb, const sa_age_config *cfg,
                               const sa_age_clock *clk, uint64_t eligible,
                               const uint8_t *ages, sa_grant *grant) {
    int c = sa_output_select(arb, cfg, clk, eligible, ages, grant);
    sa_output_update(arb, grant);
    return c;
}

/* ----------------------------------------------------------------------
 * Performance counters (seed 000 Table 4, Eq 17)
 * ---------------------------------------------------------------------- */

/**
 * Count one packet age in the RTR_AGE_GROUP0/1 histogram registers.
 *
 * ``group[0]`` is RTR_AGE_GROUP0: bits 31:0 count ages 0-63, bits 63:32
 * ages 64-127; ``group[1]`` is RTR_AGE_GROUP1: bits 31:0 count 128-191,
 * bits 63:32 count 192-255.  Each 32-bit counter wraps modulo 2^32 on its
 * own, never carrying into its neighbour.
 *
 * :param group: the two 64-bit registers.
 * :param age: the packet age, 0..255.
 * :paper: seed 000 Table 4.
 */
SA_API void sa_age_histogram_record(uint64_t group[2], unsigned age) {
    unsigned bucket = (age & 0xFFu) >> 6;               /* 0..3 */
    uint64_t *reg = &group[bucket >> 1];
    int shift = (int)(bucket & 1u) * 32;
    uint64_t field = ((*reg >> shift) + 1u) & 0xFFFFFFFFu;
    *reg = (*reg & ~((uint64_t)0xFFFFFFFFu << shift)) | (field << shift);
}

/**
 * Read one bucket of the RTR_AGE_GROUP0/1 histogram.
 *
 * :param group: the two 64-bit registers.
 * :param bucket: 0 (ages 0-63), 1 (64-127), 2 (128-191) or 3 (192-255).
 * :returns: the 32-bit count, or 0 for a bucket outside 0..3.
 */
SA_API uint32_t sa_age_histogram_bucket(const uint64_t group[2], int bucket) {
    if (bucket < 0 || bucket > 3) return 0;
    return (uint32_t)(group[bucket >> 1] >> ((bucket & 1) * 32));
}

/**
 * The occupancy metric of Eq 17: cycles stalled per request packet,
 * T_stall / (P_VC0 + P_VC1).  Lower is better.
 *
 * :param stalled_cycles: T_stall, cycles a packet waited at the head of the
 *                        crossbar without moving (RTR_PERF_STALLED).
 * :param packets_vc0: P_VC0, packets on VC0 (RTR_PERF_VC0_PKTS).
 * :param packets_vc1: P_VC1, packets on VC1 (RTR_PERF_VC1_PKTS).
 * :param occupancy: receives the ratio (0 on error).
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_ZERO_PACKETS when P_VC0 + P_VC1 = 0.
 * :paper: seed 000 Section 4, Eq 17.
 */
SA_API sa_result sa_occupancy(uint64_t stalled_cycles, uint64_t packets_vc0,
                              uint64_t packets_vc1, double *occupancy) {
    if (occupancy == NULL) return SA_ERR_NULL;
    *occupancy = 0.0;
    if (packets_vc0 + packets_vc1 == 0) return SA_ERR_ZERO_PACKETS;
    *occupancy = (double)stalled_cycles / (double)(packets_vc0 + packets_vc1);
    return SA_OK;
}

/* ----------------------------------------------------------------------
 * Parameter derivation (seed 000 Section 3)
 * ---------------------------------------------------------------------- */

/**
 * Average hops in one dimension under uniform traffic, as the paper gives
 * them: k/4 for a torus (Eq 4-5; exact for even k, averaging over all
 * destinations including the source's own ordinate) and (k+1)/3 for a mesh
 * (Eq 6-7; exact as the average over distinct ordinates).
 *
 * :param radix: k, at least 2.
 * :param torus: non-zero for a torus dimension, 0 for a mesh dimension.
 * :param hops: receives the average.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 2, Eq 4-7.
 */
SA_API sa_result sa_average_hops_dim(int radix, int torus, double *hops) {
    if (hops == NULL) return SA_ERR_NULL;
    if (radix < 2) return SA_ERR_RADIX_RANGE;
    *hops = torus ? radix / 4.0 : (radix + 1) / 3.0;
    return SA_OK;
}

/* Validate n dimensions of radices. */
SA_API sa_result sa__check_dims(int n, const int *radix) {
    int i;
    if (radix == NULL) return SA_ERR_NULL;
    if (n < 1 || n > SA_MAX_DIMS) return SA_ERR_DIM_RANGE;
    for (i = 0; i < n; i++) if (radix[i] < 2) return SA_ERR_RADIX_RANGE;
    return SA_OK;
}

/**
 * Average hops of a mixed-radix network, each dimension a mesh or a torus:
 * the sum of sa_average_hops_dim over the dimensions (Eq 5 and Eq 7; Eq 4
 * and Eq 6 when every radix is equal).
 *
 * :param n: number of dimensions, 1..SA_MAX_DIMS.
 * :param radix: radix[i] of dimension i, each at least 2.
 * :param torus: torus[i] non-zero for a torus dimension; NULL means all tori.
 * :param hops: receives the sum.
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_DIM_RANGE or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 2, Eq 4-7.
 */
SA_API sa_result sa_average_hops(int n, const int *radix, const int *torus, double *hops) {
    int i;
    double sum = 0.0, h = 0.0;
    sa_result r = sa__check_dims(n, radix);
    if (r != SA_OK) return r;
    if (hops == NULL) return SA_ERR_NULL;
    for (i = 0; i < n; i++) {
        sa_average_hops_dim(radix[i], torus == NULL || torus[i], &h);
        sum += h;
    }
    *hops = sum;
    return SA_OK;
}

/**
 * Channel load under uniform traffic: k/8 for a torus (the average over its
 * channels, Eq 8) and k/4 for a mesh (its bisection channels, Eq 9); a
 * worst-case pattern sends all traffic across the bisection and doubles it:
 * k/4 and k/2 (footnote 8).
 *
 * :param radix: k, at least 2.
 * :param torus: non-zero for a torus, 0 for a mesh.
 * :param worst_case: non-zero for the doubled worst-case load.
 * :param load: receives gamma_c.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 2, Eq 8-9 and footnote 8.
 */
SA_API sa_result sa_channel_load(int radix, int torus, int worst_case, double *load) {
    if (load == NULL) return SA_ERR_NULL;
    if (radix < 2) return SA_ERR_RADIX_RANGE;
    *load = radix / (torus ? 8.0 : 4.0) * (worst_case ? 2.0 : 1.0);
    return SA_OK;
}

/**
 * Probability that a uniformly addressed packet leaves the network from
 * each dimension under dimension-order routing (dimension 0 routed first).
 * For three dimensions these are Px, Py, Pz of Eq 10-12: a packet leaves
 * from dimension i when its ordinate differs in i and matches in every later
 * dimension; the last dimension takes the remainder, so it also counts the
 * packets addressed to their own node.  Each dimension's share splits evenly
 * between its + and - ports (Eq 13): P(i+) = P(i-) = p[i] / 2.
 *
 * :param n: number of dimensions, 1..SA_MAX_DIMS.
 * :param radix: radix[i] of dimension i, each at least 2.
 * :param p: receives p[0..n-1].
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_DIM_RANGE or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 3.1, Eq 10-13.
 */
SA_API sa_result sa_ejection_probabilities(int n, const int *radix, double *p) {
    int i, j;
    double rest = 1.0;
    sa_result r = sa__check_dims(n, radix);
    if (r != SA_OK) return r;
    if (p == NULL) return SA_ERR_NULL;
    for (i = 0; i + 1 < n; i++) {
        double pi = (radix[i] - 1) / (double)radix[i];
        for (j = i + 1; j < n; j++) pi /= radix[j];
        p[i] = pi;
        rest -= pi;
    }
    p[n - 1] = rest;
    return SA_OK;
}

/**
 * Ejection rates of Eq 14-16, generalised to n dimensions routed in order
 * 0, 1, ..., n-1: the last dimension ejects at min(Bc * c / k, Ep) and each
 * earlier one at min(Bc * c / k, the rate of the next), with c = 8 for a
 * torus dimension and c = 4 for a mesh dimension (the mesh variant of
 * Section 3.1).  For SeaStar Bc = 4.8 GB/s and Ep is about 2 GB/s.
 *
 * :param n: number of dimensions, 1..SA_MAX_DIMS.
 * :param radix: radix[i] of dimension i, each at least 2.
 * :param torus: torus[i] non-zero for a torus dimension; NULL means all tori.
 * :param channel_bw: Bc, the channel bandwidth (any unit), > 0.
 * :param eject_bw: Ep, the processor ejection bandwidth (same unit), > 0.
 * :param u: receives u[0..n-1] (for n = 3: Ux, Uy, Uz).
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_DIM_RANGE, SA_ERR_RADIX_RANGE, or
 *           SA_ERR_PARAM_RANGE for a bandwidth that is not positive.
 * :paper: seed 000 Section 3.1, Eq 14-16.
 */
SA_API sa_result sa_ejection_rates(int n, const int *radix, const int *torus,
                                   double channel_bw, double eject_bw, double *u) {
    int i;
    double next;
    sa_result r = sa__check_dims(n, radix);
    if (r != SA_OK) return r;
    if (u == NULL) return SA_ERR_NULL;
    if (!(channel_bw > 0.0) || !(eject_bw > 0.0)) return SA_ERR_PARAM_RANGE;
    next = eject_bw;
    for (i = n - 1; i >= 0; i--) {
        double c = (torus == NULL || torus[i]) ? 8.0 : 4.0;
        double own = channel_bw * c / radix[i];
        u[i] = own < next ? own : next;
        next = u[i];
    }
    return SA_OK;
}

/**
 * The bias ordering of Section 3.1: packets in dimensions routed earlier
 * have more hops left, so bias_0 > bias_1 > ... > bias_{n-1} = 1; this
 * returns n, n-1, ..., 1 (3, 2, 1 for x, y, z, the paper's choice).
 *
 * :param n: number of dimensions, 1..SA_MAX_AGE_BIAS (biases are 3 bits).
 * :param bias: receives bias[0..n-1].
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_DIM_RANGE.
 * :paper: seed 000 Section 3.1.
 */
SA_API sa_result sa_bias_ordering(int n, uint8_t *bias) {
    int i;
    if (bias == NULL) return SA_ERR_NULL;
    if (n < 1 || n > SA_MAX_AGE_BIAS || n > SA_MAX_DIMS) return SA_ERR_DIM_RANGE;
    for (i = 0; i < n; i++) bias[i] = (uint8_t)(n - i);
    return SA_OK;
}

/**
 * Inputs of the age-clock-period estimate of Section 3.2.  Zero in a field
 * means the SeaStar value given in its comment.
 */
typedef struct sa_period_desc {
    int num_dims;                 /**< n, 1..SA_MAX_DIMS (required) */
    int radix[SA_MAX_DIMS];       /**< k_i, each at least 2 (required) */
    int mesh[SA_MAX_DIMS];        /**< non-zero: dimension i is a mesh */
    int bias[SA_MAX_DIMS];        /**< age bias per dimension (0: sa_bias_ordering) */
    int input_buffer_flits;       /**< flits per input VC buffer (96) */
    int staging_buffer_flits;     /**< flits per staging buffer (16) */
    int max_packet_flits;         /**< largest packet, header + data (9) */
    int vcs_sharing_link;         /**< VCs that share a link's bandwidth (2) */
    int target_age;               /**< centre of the age distribution (128) */
} sa_period_desc;

/** Output of the age-clock-period estimate; each step of Section 3.2. */
typedef struct sa_period_estimate {
    int hops[SA_MAX_DIMS];        /**< H_i rounded to the nearest integer */
    int total_hops;               /**< H, the sum (10 for 11x12x16) */
    int bias_total;               /**< T_bias = sum of H_i x bias_i (19) */
    int ticks_per_hop;            /**< (target - T_bias) / H, rounded (11) */
    int packets_queued;           /**< packets queued per hop (10 + 1 = 11) */
    int cycles_per_packet;        /**< VCs x packet flits (2 x 9 = 18) */
    int queue_cycles_per_hop;     /**< packets x cycles (198) */
    uint32_t age_clock_period;    /**< queue cycles / ticks per hop, rounded (18) */
} sa_period_estimate;

/* Round a positive ratio to the nearest integer (halves round up). */
SA_API int sa__round_ratio(int num, int den) {
    return (2 * num + den) / (2 * den);
}

/**
 * The age-clock-period estimate of Section 3.2, step by step: average hops
 * per dimension (Eq 4-7, rounded to whole hops as the paper does: 11/4 =
 * 2.75 counts as 3), the bias contribution T_bias, the age ticks per hop
 * that centre the age distribution on target_age, the queueing delay per
 * hop of a full input buffer plus staging buffer, and their ratio.  For the
 * 11x12x16 torus with biases 3, 2, 1 this gives 3+3+4 = 10 hops, T_bias =
 * 19, 109/10 = 11 ticks per hop, 11 x 18 = 198 cycles per hop and a period
 * of 198/11 = 18.
 *
 * :param desc: the inputs; zero fields take SeaStar's values.
 * :param est: receives every step.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_DIM_RANGE; SA_ERR_RADIX_RANGE;
 *           SA_ERR_BIAS_RANGE for a bias above 7; SA_ERR_PARAM_RANGE for a
 *           negative size, buffers smaller than one packet, or biases that
 *           alone reach the target age.
 * :paper: seed 000 Section 3.2.
 */
SA_API sa_result sa_age_clock_period_estimate(const sa_period_desc *desc,
                                              sa_period_estimate *est) {
    int i, n, in_flits, st_flits, pkt, vcs, target, ticks_num;
    uint8_t order[SA_MAX_DIMS];
    sa_result r;
    if (desc == NULL || est == NULL) return SA_ERR_NULL;
    n = desc->num_dims;
    r = sa__check_dims(n, desc->radix);
    if (r != SA_OK) return r;
    if (desc->input_buffer_flits < 0 || desc->staging_buffer_flits < 0 ||
        desc->max_packet_flits < 0 || desc->vcs_sharing_link < 0 || desc->target_age < 0)
        return SA_ERR_PARAM_RANGE;
    in_flits = desc->input_buffer_flits ? desc->input_buffer_flits : 96;
    st_flits = desc->staging_buffer_flits ? desc->staging_buffer_flits : 16;
    pkt = desc->max_packet_flits ? desc->max_packet_flits : 9;
    vcs = desc->vcs_sharing_link ? desc->vcs_sharing_link : 2;
    target = desc->target_age ? desc->target_age : 128;
    if (in_flits < pkt || st_flits < pkt) return SA_ERR_PARAM_RANGE;
    if (n <= SA_MAX_AGE_BIAS) sa_bias_ordering(n, order);
    est->total_hops = est->bias_total = 0;
    for (i = 0; i < n; i++) {
        int k = desc->radix[i], b = desc->bias[i];
        if (b < 0 || b > SA_MAX_AGE_BIAS) return SA_ERR_BIAS_RANGE;
        if (b == 0) {
            if (n > SA_MAX_AGE_BIAS) return SA_ERR_BIAS_RANGE;
            b = order[i];
        }
        /* Nearest integer of k/4 (torus) or (k+1)/3 (mesh). */
        est->hops[i] = desc->mesh[i] ? sa__round_ratio(k + 1, 3) : sa__round_ratio(k, 4);
        est->total_hops += est->hops[i];
        est->bias_total += est->hops[i] * b;
    }
    for (; i < SA_MAX_DIMS; i++) est->hops[i] = 0;
    ticks_num = target - est->bias_total;
    if (ticks_num <= 0 || est->total_hops == 0) return SA_ERR_PARAM_RANGE;
    est->ticks_per_hop = sa__round_ratio(ticks_num, est->total_hops);
    if (est->ticks_per_hop < 1) est->ticks_per_hop = 1;
    est->packets_queued = in_flits / pkt + st_flits / pkt;
    est->cycles_per_packet = vcs * pkt;
    est->queue_cycles_per_hop = est->packets_queued * est->cycles_per_packet;
    i = sa__round_ratio(est->queue_cycles_per_hop, est->ticks_per_hop);
    est->age_clock_period = (uint32_t)(i < 1 ? 1 : i);
    return SA_OK;
}

/* ======================================================================
 * 2. Switch allocators (seed 002)
 * ====================================================================== */

/* ----------------------------------------------------------------------
 * 2.1 Limits, bit helpers and the deterministic random-number generator
 * ---------------------------------------------------------------------- */

#ifndef SA_ALLOC_MAX
/** Largest number of input arbiters and of outputs of a switch allocator
 *  (1..64; a request row is one 64-bit mask).  Define it smaller before
 *  including the header to shrink sa_alloc (for example 16 for the
 *  21364's 16x7 matrix); every translation unit that shares sa_alloc
 *  objects must then use the same value. */
#define SA_ALLOC_MAX 64
#endif
#if SA_ALLOC_MAX < 1 || SA_ALLOC_MAX > 64
#error "SA_ALLOC_MAX must be between 1 and 64"
#endif

/** Value of sa_alloc_desc.iterations that makes PIM and iSLIP iterate until
 *  an iteration adds no match (the matching is then maximal). */
#define SA_ITERATE_TO_CONVERGENCE (-1)

/* Number of set bits; inline SWAR unless the target has POPCNT (a plain
 * -O2 x86-64 build would otherwise call a library routine). */
SA_API int sa__bits(uint64_t x) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* Byte-wise prefix counts of x: byte b holds the number of set bits of x in
 * bytes 0..b (so the top byte is the population count). */
SA_API uint64_t sa__prefix_counts(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return x * 0x0101010101010101ull;
}

/* First byte of p (byte-wise counts, each at most 64) that is at least c
 * (1 <= c <= 64), as a bit offset 8b; p must have such a byte. */
SA_API int sa__first_byte_at_least(uint64_t p, int c) {
    uint64_t ge = ((p | 0x8080808080808080ull) - (uint64_t)c * 0x0101010101010101ull) &
                  0x8080808080808080ull;
    return sa__ctz64(ge) & ~7;
}

/* Position of the k-th (0-based) set bit of x, given p =
 * sa__prefix_counts(x); k < number of set bits.  Branch-free: the byte is
 * found from the prefix counts, then the bit within the byte by spreading
 * its bits over the bytes of a word and counting again. */
SA_API int sa__select_bit_counted(uint64_t x, uint64_t p, int k) {
    int b = sa__first_byte_at_least(p, k + 1);
    uint64_t byte = (x >> b) & 0xFF, q;
    k -= (int)(((p << 8) >> b) & 0xFF);
    /* Bit i of byte to bit 7 of byte i, then prefix counts of those. */
    q = (byte * 0x0101010101010101ull) & 0x8040201008040201ull;
    q = ((((q & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | q) & 0x8080808080808080ull) >> 7;
    return b + (sa__first_byte_at_least(q * 0x0101010101010101ull, k + 1) >> 3);
}

/* Position of the k-th (0-based) set bit of x; k < number of set bits. */
SA_API int sa__select_bit(uint64_t x, int k) {
    return sa__select_bit_counted(x, sa__prefix_counts(x), k);
}

/* Rotate the low s bits of x right by d (bit (i + d) mod s moves to bit i);
 * 1 <= s <= 64, 0 <= d < s, x has no bit at or above s. */
SA_API uint64_t sa__rotr(uint64_t x, int d, int s) {
    if (d == 0) return x;
    return ((x >> d) | (x << (s - d))) & sa__low_mask(s);
}

/* Rotate the low s bits of x left by d (bit i moves to bit (i + d) mod s). */
SA_API uint64_t sa__rotl(uint64_t x, int d, int s) {
    return d == 0 ? x : sa__rotr(x, s - d, s);
}

/* Transpose the t x t bit matrix a (row r = a[r], column c = bit c) in place,
 * t a power of two in 1..64, by log2(t) rounds of block swaps: portable
 * version. */
SA_API void sa__transpose_portable(uint64_t *a, int t) {
    static const uint64_t keep[6] = {
        0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
        0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull };
    int j, k, lg = 0;
    while ((1 << lg) < t) lg++;
    for (j = t >> 1; j > 0; j >>= 1) {
        uint64_t m = keep[--lg];
        for (k = 0; k < t; k = (k + j + 1) & ~j) {
            uint64_t x = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= x << j;
            a[k + j] ^= x;
        }
    }
}

#ifdef SA_SIMD_SSE2
/* SSE2 version of sa__transpose_portable (t >= 4): two rows per instruction;
 * in the last round (j = 1) the even and odd rows of four are first split
 * into two vectors. */
SA_API void sa__transpose_sse2(uint64_t *a, int t) {
    static const uint64_t keep[6] = {
        0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
        0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull };
    int j, k, b, lg = 0;
    __m128i m, x, u, v, lo, hi;
    while ((1 << lg) < t) lg++;
    for (j = t >> 1; j > 1; j >>= 1) {
        __m128i cnt = _mm_cvtsi32_si128(j);
        m = _mm_set1_epi64x((long long)keep[--lg]);
        for (b = 0; b < t; b += 2 * j)
            for (k = b; k < b + j; k += 2) {
                __m128i *pu = (__m128i *)(void *)(a + k), *pv = (__m128i *)(void *)(a + k + j);
                u = _mm_loadu_si128(pu);
                v = _mm_loadu_si128(pv);
                x = _mm_and_si128(_mm_xor_si128(_mm_srl_epi64(u, cnt), v), m);
                _mm_storeu_si128(pu, _mm_xor_si128(u, _mm_sll_epi64(x, cnt)));
                _mm_storeu_si128(pv, _mm_xor_si128(v, x));
            }
    }
    m = _mm_set1_epi64x((long long)keep[0]);
    for (k = 0; k < t; k += 4) {
        __m128i *p0 = (__m128i *)(void *)(a + k), *p1 = (__m128i *)(void *)(a + k + 2);
        u = _mm_loadu_si128(p0);
        v = _mm_loadu_si128(p1);
        lo = _mm_unpacklo_epi64(u, v); /* rows k, k+2 */
        hi = _mm_unpackhi_epi64(u, v); /* rows k+1, k+3 */
        x = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(lo, 1), hi), m);
        lo = _mm_xor_si128(lo, _mm_slli_epi64(x, 1));
        hi = _mm_xor_si128(hi, x);
        _mm_storeu_si128(p0, _mm_unpacklo_epi64(lo, hi));
        _mm_storeu_si128(p1, _mm_unpackhi_epi64(lo, hi));
    }
}
#endif

/* Transpose the t x t bit matrix a in place (t a power of two in 1..64). */
SA_API void sa__transpose(uint64_t *a, int t) {
#ifdef SA_SIMD_SSE2
    if (t >= 4) {
        sa__transpose_sse2(a, t);
        return;
    }
#endif
    sa__transpose_portable(a, t);
}

/* Transpose the 8 x 8 bit matrix held in one word (row r in byte r, column
 * c at bit c of it): bit 8r + c moves to bit 8c + r. */
SA_API uint64_t sa__transpose8(uint64_t x) {
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    return x;
}

/* Smallest power of two >= n (n in 1..64). */
SA_API int sa__pow2_at_least(int n) {
    int t = 1;
    while (t < n) t <<= 1;
    return t;
}

/* Set the n words p[0..n-1] to 0 (a plain loop would become a call to
 * memset, costly for the few words an allocation clears). */
SA_API void sa__zero_words(uint64_t *p, int n) {
    int i = 0;
#ifdef SA_SIMD_SSE2
    for (; i + 2 <= n; i += 2) _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_setzero_si128());
#endif
    for (; i < n; i++) p[i] = 0;
}

/* Column masks (bit i of col[j]: rows[i] has bit j) of an n x m matrix
 * (rows have no bit at or above m); col receives max(n, m) rounded up to a
 * power of two entries, those at or above m zero.  Up to 8 columns, the rows
 * are taken 8 at a time as 8 x 8 byte matrices. */
SA_API void sa__columns(const uint64_t *rows, int n, int m, uint64_t *col) {
    int i, j, t = sa__pow2_at_least(n > m ? n : m);
    if (m <= 8) {
        sa__zero_words(col, t);
        for (i = 0; i < n; i += 8) {
            uint64_t w = 0;
            int r, rn = n - i < 8 ? n - i : 8;
            for (r = 0; r < rn; r++) w |= rows[i + r] << (8 * r);
            w = sa__transpose8(w);
            for (j = 0; j < m; j++) col[j] |= ((w >> (8 * j)) & 0xFF) << i;
        }
        return;
    }
    for (i = 0; i < n; i++) col[i] = rows[i];
    sa__zero_words(col + n, t - n);
    sa__transpose(col, t);
}

/**
 * State of the library's random-number generator (SplitMix64, Steele, Lea
 * and Flood 2014): 64 bits the caller owns and seeds.  The same seed gives
 * the same sequence on every compiler and platform (only 64-bit unsigned
 * arithmetic is used).
 */
typedef struct sa_rng {
    uint64_t state; /**< the generator state; any value is valid */
} sa_rng;

/**
 * Seed a generator.
 *
 * :param rng: the generator.
 * :param seed: any 64-bit value (0 is fine).
 */
SA_API void sa_rng_seed(sa_rng *rng, uint64_t seed) { rng->state = seed; }

/**
 * Next 64-bit output of the generator (SplitMix64).
 *
 * :param rng: the generator.
 * :returns: a uniformly distributed 64-bit value.
 */
SA_API uint64_t sa_rng_next(sa_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/**
 * Exactly uniform integer in [0, n).
 *
 * Lemire's multiply-and-reject method on the top 32 bits of one output:
 * the rare products that would make some values more likely than others are
 * rejected and redrawn, so every value has probability exactly 1/n (no
 * modulo bias).
 *
 * :param rng: the generator.
 * :param n: the number of values, 1..2^32-1.  Precondition: n > 0.
 * :returns: a value in [0, n).
 */
SA_API uint32_t sa_rng_below(sa_rng *rng, uint32_t n) {
    uint64_t m;
    SA_ASSERT(n > 0);
    m = (sa_rng_next(rng) >> 32) * (uint64_t)n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)(0u - n) % n;
        while ((uint32_t)m < threshold) m = (sa_rng_next(rng) >> 32) * (uint64_t)n;
    }
    return (uint32_t)(m >> 32);
}

/**
 * Pick one set bit of a mask, each with probability exactly 1/popcount.
 *
 * It draws an index k uniformly below the number of set bits and returns
 * the k-th set bit.  (A random start followed by "the next set bit" is not
 * uniform when the bits are unevenly spaced; this is.)  A mask with a single
 * bit consumes no random number.
 *
 * :param rng: the generator.
 * :param mask: the candidates.
 * :returns: the chosen bit position, or -1 if mask is 0.
 * :paper: seed 002 Section 3.1 (PIM's random grant and accept).
 */
SA_API int sa_rng_pick(sa_rng *rng, uint64_t mask) {
    uint64_t p;
    if (mask == 0) return -1;
    if ((mask & (mask - 1)) == 0) return sa__ctz64(mask);
    p = sa__prefix_counts(mask);
    return sa__select_bit_counted(mask, p, (int)sa_rng_below(rng, (uint32_t)(p >> 56)));
}

/* ---- PIM's chunked 16-bit draws (see "PIM draw protocol" in 2.4) ---- */

/* The SplitMix64 finaliser: sa_rng_next returns sa__rng_mix(state) of the
 * advanced state. */
SA_API uint64_t sa__rng_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The (w+1)-th output sa_rng_next would return from state s (SplitMix64's
 * state only moves by a constant, so any output can be computed directly):
 * word w of a PIM stage's block. */
SA_API uint64_t sa__rng_at(uint64_t s, uint64_t w) {
    return sa__rng_mix(s + (w + 1) * 0x9E3779B97F4A7C15ull);
}

/* A PIM stage's draws: the block (word w holds the 16-bit draws of lanes
 * 4w..4w+3, lowest bits first) and, after it, the redraw stream from which
 * rejected lanes take further draws in lane order. */
typedef struct sa__pim_draws {
    uint64_t s;    /* generator state at the start of the stage */
    uint64_t next; /* index of the next word of the redraw stream */
    uint64_t buf;  /* unused draws of the current redraw word */
    int left;      /* how many */
} sa__pim_draws;

/* Start a stage of `lanes` lanes at generator state s. */
SA_API void sa__pim_draws_start(sa__pim_draws *d, uint64_t s, int lanes) {
    d->s = s;
    d->next = (uint64_t)((lanes + 3) >> 2);
    d->buf = 0;
    d->left = 0;
}

/* Generator state after the stage (block and redraw words consumed). */
SA_API uint64_t sa__pim_draws_end(const sa__pim_draws *d) {
    return d->s + d->next * 0x9E3779B97F4A7C15ull;
}

/* Next draw of the redraw stream. */
SA_API uint32_t sa__pim_redraw(sa__pim_draws *d) {
    uint32_t u;
    if (d->left == 0) {
        d->buf = sa__rng_at(d->s, d->next++);
        d->left = 4;
    }
    u = (uint32_t)(d->buf & 0xFFFFu);
    d->buf >>= 16;
    d->left--;
    return u;
}

/* Index below c (1 <= c <= 64) from the 16-bit draw u: the high half of
 * u * c, Lemire's rejection (redraw while the low half is below 65536 mod
 * c) taking its redraws from the stage's redraw stream.  Every index has
 * probability exactly 1/c. */
SA_API int sa__pim_index(uint32_t u, uint32_t c, sa__pim_draws *d) {
    uint32_t prod = u * c;
    if ((prod & 0xFFFFu) < c) {
        uint32_t threshold = 65536u % c;
        while ((prod & 0xFFFFu) < threshold) prod = sa__pim_redraw(d) * c;
    }
    return (int)(prod >> 16);
}

/* Position of the k-th (0-based) set bit of x given p =
 * sa__prefix_counts(x) (k below the population count): the same result as
 * sa__select_bit_counted, the bit within the byte from a table (nibble k
 * of entry v: the position of the k-th set bit of the byte v). */
SA_API int sa__pim_select(uint64_t x, uint64_t p, int k) {
    static const uint32_t sel8[256] = {
        0x00000000, 0x00000000, 0x00000001, 0x00000010, 0x00000002, 0x00000020, 0x00000021, 0x00000210,
        0x00000003, 0x00000030, 0x00000031, 0x00000310, 0x00000032, 0x00000320, 0x00000321, 0x00003210,
        0x00000004, 0x00000040, 0x00000041, 0x00000410, 0x00000042, 0x00000420, 0x00000421, 0x00004210,
        0x00000043, 0x00000430, 0x00000431, 0x00004310, 0x00000432, 0x00004320, 0x00004321, 0x00043210,
        0x00000005, 0x00000050, 0x00000051, 0x00000510, 0x00000052, 0x00000520, 0x00000521, 0x00005210,
        0x00000053, 0x00000530, 0x00000531, 0x00005310, 0x00000532, 0x00005320, 0x00005321, 0x00053210,
        0x00000054, 0x00000540, 0x00000541, 0x00005410, 0x00000542, 0x00005420, 0x00005421, 0x00054210,
        0x00000543, 0x00005430, 0x00005431, 0x00054310, 0x00005432, 0x00054320, 0x00054321, 0x00543210,
        0x00000006, 0x00000060, 0x00000061, 0x00000610, 0x00000062, 0x00000620, 0x00000621, 0x00006210,
        0x00000063, 0x00000630, 0x00000631, 0x00006310, 0x00000632, 0x00006320, 0x00006321, 0x00063210,
        0x00000064, 0x00000640, 0x00000641, 0x00006410, 0x00000642, 0x00006420, 0x00006421, 0x00064210,
        0x00000643, 0x00006430, 0x00006431, 0x00064310, 0x00006432, 0x00064320, 0x00064321, 0x00643210,
        0x00000065, 0x00000650, 0x00000651, 0x00006510, 0x00000652, 0x00006520, 0x00006521, 0x00065210,
        0x00000653, 0x00006530, 0x00006531, 0x00065310, 0x00006532, 0x00065320, 0x00065321, 0x00653210,
        0x00000654, 0x00006540, 0x00006541, 0x00065410, 0x00006542, 0x00065420, 0x00065421, 0x00654210,
        0x00006543, 0x00065430, 0x00065431, 0x00654310, 0x00065432, 0x00654320, 0x00654321, 0x06543210,
        0x00000007, 0x00000070, 0x00000071, 0x00000710, 0x00000072, 0x00000720, 0x00000721, 0x00007210,
        0x00000073, 0x00000730, 0x00000731, 0x00007310, 0x00000732, 0x00007320, 0x00007321, 0x00073210,
        0x00000074, 0x00000740, 0x00000741, 0x00007410, 0x00000742, 0x00007420, 0x00007421, 0x00074210,
        0x00000743, 0x00007430, 0x00007431, 0x00074310, 0x00007432, 0x00074320, 0x00074321, 0x00743210,
        0x00000075, 0x00000750, 0x00000751, 0x00007510, 0x00000752, 0x00007520, 0x00007521, 0x00075210,
        0x00000753, 0x00007530, 0x00007531, 0x00075310, 0x00007532, 0x00075320, 0x00075321, 0x00753210,
        0x00000754, 0x00007540, 0x00007541, 0x00075410, 0x00007542, 0x00075420, 0x00075421, 0x00754210,
        0x00007543, 0x00075430, 0x00075431, 0x00754310, 0x00075432, 0x00754320, 0x00754321, 0x07543210,
        0x00000076, 0x00000760, 0x00000761, 0x00007610, 0x00000762, 0x00007620, 0x00007621, 0x00076210,
        0x00000763, 0x00007630, 0x00007631, 0x00076310, 0x00007632, 0x00076320, 0x00076321, 0x00763210,
        0x00000764, 0x00007640, 0x00007641, 0x00076410, 0x00007642, 0x00076420, 0x00076421, 0x00764210,
        0x00007643, 0x00076430, 0x00076431, 0x00764310, 0x00076432, 0x00764320, 0x00764321, 0x07643210,
        0x00000765, 0x00007650, 0x00007651, 0x00076510, 0x00007652, 0x00076520, 0x00076521, 0x00765210,
        0x00007653, 0x00076530, 0x00076531, 0x00765310, 0x00076532, 0x00765320, 0x00765321, 0x07653210,
        0x00007654, 0x00076540, 0x00076541, 0x00765410, 0x00076542, 0x00765420, 0x00765421, 0x07654210,
        0x00076543, 0x00765430, 0x00765431, 0x07654310, 0x00765432, 0x07654320, 0x07654321, 0x76543210
    };
    int b = sa__first_byte_at_least(p, k + 1);
    k -= (int)(((p << 8) >> b) & 0xFF);
    return b + (int)((sel8[(x >> b) & 0xFF] >> (4 * k)) & 15u);
}

/* ----------------------------------------------------------------------
 * 2.2 Building blocks: round-robin and matrix (least-recently-selected)
 *     arbiters, with optional priorities
 * ---------------------------------------------------------------------- */

/* Mask of the requesters holding the highest priority prio[i]: the same
 * question as the output arbiter's "oldest candidates" (section 1). */
SA_API uint64_t sa__top_priority(uint64_t req, const uint8_t *prio) {
    unsigned top;
    return sa__oldest_sparse(req, prio, &top);
}

/* sa__top_priority when prio[0..n-1] may all be read (SSE2 where present). */
SA_API uint64_t sa__top_priority_n(uint64_t req, const uint8_t *prio, int n) {
    unsigned top;
    return sa__oldest(req, prio, n, &top);
}

/**
 * A round-robin arbiter over ``size`` requesters: the requester at
 * ``pointer`` has the highest priority, then pointer+1, ... cyclically; after
 * a grant the pointer moves just past the winner.  Two bytes of state.
 */
typedef struct sa_rr_arb {
    uint8_t size;    /**< number of requesters, 1..64 */
    uint8_t pointer; /**< highest-priority requester */
} sa_rr_arb;

/**
 * Reset a round-robin arbiter (pointer 0).
 *
 * :param arb: the arbiter.
 * :param size: number of requesters, 1..64.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_SIZE_RANGE.
 */
SA_API sa_result sa_rr_arb_init(sa_rr_arb *arb, int size) {
    if (arb == NULL) return SA_ERR_NULL;
    if (size < 1 || size > 64) return SA_ERR_SIZE_RANGE;
    arb->size = (uint8_t)size;
    arb->pointer = 0;
    return SA_OK;
}

/**
 * Choose the first requester at or after the pointer, cyclically, without
 * changing the state.
 *
 * :param arb: the arbiter.
 * :param req: bit i set when requester i requests.  Precondition: no bit at
 *             or above arb->size.
 * :returns: the winner, or -1 if req is 0.
 */
SA_API int sa_rr_select(const sa_rr_arb *arb, uint64_t req) {
    SA_ASSERT((req & ~sa__low_mask(arb->size)) == 0);
    return sa__first_from(req, arb->pointer);
}

/**
 * Choose among the requesters with the highest priority, round-robin among
 * equals, without changing the state.
 *
 * :param arb: the arbiter.
 * :param req: requesters (no bit at or above arb->size).
 * :param prio: prio[i] is requester i's priority (larger wins); read only
 *              for requesters.  NULL means all equal.
 * :returns: the winner, or -1 if req is 0.
 */
SA_API int sa_rr_select_prio(const sa_rr_arb *arb, uint64_t req, const uint8_t *prio) {
    if (prio != NULL && req != 0) req = sa__top_priority(req, prio);
    return sa_rr_select(arb, req);
}

/**
 * Record a grant: the pointer moves just past the winner.
 *
 * :param arb: the arbiter.
 * :param winner: the granted requester, or -1 (no grant: nothing changes).
 */
SA_API void sa_rr_update(sa_rr_arb *arb, int winner) {
    if (winner < 0) return;
    SA_ASSERT(winner < arb->size);
    arb->pointer = (uint8_t)(winner + 1 == arb->size ? 0 : winner + 1);
}

/**
 * A matrix arbiter: grants the least-recently-selected requester.
 *
 * The hardware keeps a priority matrix (bit [a][b] set when a beats b); a
 * grant clears the winner's row and sets its column, making it the lowest.
 * Started from a total order, that matrix always holds a total order: the
 * order of the requesters' last selections.  Up to 8 requesters, that order
 * is one 64-bit word of one-hot bytes (byte k holds the bit of the k-th
 * highest-priority requester), and selection and update are a handful of
 * branch-free word operations.  Above 8, it is the rank of each requester in
 * that order (0 = highest priority); selection is the smallest rank among
 * the requesters (16 ranks per SSE2 instruction), an update moves the
 * winner to the last rank and every requester behind it up by one.  Same decisions as the matrix.
 *
 * :paper: seed 002 Section 3 ("least-recently selected ... implemented in
 *         hardware via a priority matrix").
 */
typedef struct sa_matrix_arb {
    uint8_t size;                /**< number of requesters, 1..SA_ALLOC_MAX */
    uint64_t order;              /**< size <= 8: byte k is the one-hot bit of
                                      the requester with the k-th highest
                                      priority (bytes >= size are 0) */
    uint8_t rank[(SA_ALLOC_MAX + 15) & ~15]; /**< size > 8: rank of requester
                                      i (0 = highest priority; a permutation
                                      of 0..size-1; 0 beyond size) */
} sa_matrix_arb;

/* Bit 8k+7 set for every nonzero byte k of x. */
SA_API uint64_t sa__nonzero_bytes(uint64_t x) {
    return (((x & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | x) & 0x8080808080808080ull;
}

/* The requester of req (req != 0, bits < 64) with the smallest rank:
 * portable version. */
SA_API int sa__lrs_portable(const uint8_t *rank, uint64_t req) {
    int best = sa__ctz64(req);
    unsigned best_rank = rank[best];
    for (req &= req - 1; req; req &= req - 1) {
        int i = sa__ctz64(req);
        unsigned r = rank[i];
        best = r < best_rank ? i : best;
        best_rank = r < best_rank ? r : best_rank;
    }
    return best;
}

#ifdef SA_SIMD_SSE2
/* SSE2 version of sa__lrs_portable over `size` requesters: 16 ranks per
 * instruction (rank holds a multiple of 16 bytes, so whole vectors may be
 * loaded; ranks are distinct, so the smallest one names one requester). */
SA_API int sa__lrs_sse2(const uint8_t *rank, uint64_t req, int size) {
    const __m128i ones = _mm_set1_epi8(-1);
    __m128i v[4], mn = ones;
    uint64_t hit = 0;
    int c, chunks = (size + 15) >> 4;
    for (c = 0; c < chunks; c++) {
        __m128i e = sa__expand_bits16((unsigned)(req >> (16 * c)));
        v[c] = _mm_loadu_si128((const __m128i *)(const void *)(rank + 16 * c));
        mn = _mm_min_epu8(mn, _mm_or_si128(v[c], _mm_andnot_si128(e, ones)));
    }
    mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 8));
    mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 4));
    mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 2));
    mn = _mm_min_epu8(mn, _mm_srli_si128(mn, 1));
    mn = _mm_unpacklo_epi8(mn, mn);
    mn = _mm_shufflelo_epi16(mn, 0);
    mn = _mm_unpacklo_epi64(mn, mn);
    for (c = 0; c < chunks; c++)
        hit |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[c], mn)) << (16 * c);
    return sa__ctz64(hit & req);
}
#endif

/**
 * Reset a matrix arbiter: requester 0 has the highest priority, then 1, ...
 *
 * :param arb: the arbiter.
 * :param size: number of requesters, 1..SA_ALLOC_MAX.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_SIZE_RANGE.
 */
SA_API sa_result sa_matrix_arb_init(sa_matrix_arb *arb, int size) {
    int i;
    if (arb == NULL) return SA_ERR_NULL;
    if (size < 1 || size > SA_ALLOC_MAX) return SA_ERR_SIZE_RANGE;
    arb->size = (uint8_t)size;
    arb->order = 0;
    for (i = 0; i < size && i < 8; i++) arb->order |= (uint64_t)1 << (9 * i);
    memset(arb->rank, 0, sizeof arb->rank);
    for (i = 0; i < size; i++) arb->rank[i] = (uint8_t)i;
    return SA_OK;
}

/**
 * Choose the least-recently-selected requester without changing the state.
 *
 * :param arb: the arbiter.
 * :param req: requesters (no bit at or above arb->size).
 * :returns: the winner, or -1 if req is 0.
 */
SA_API int sa_matrix_select(const sa_matrix_arb *arb, uint64_t req) {
    SA_ASSERT((req & ~sa__low_mask(arb->size)) == 0);
    if (req == 0) return -1;
    if (arb->size <= 8) {
        /* The first byte of the order that holds a requester. */
        uint64_t hits = sa__nonzero_bytes(arb->order & (req * 0x0101010101010101ull));
        int k = sa__ctz64(hits) & ~7;
        return sa__ctz64((arb->order >> k) & 0xFF);
    }
#ifdef SA_SIMD_SSE2
    return sa__lrs_sse2(arb->rank, req, arb->size);
#else
    return sa__lrs_portable(arb->rank, req);
#endif
}

/**
 * Record a selection: the winner becomes the lowest priority.
 *
 * :param arb: the arbiter.
 * :param winner: the selected requester, or -1 (nothing changes).
 */
SA_API void sa_matrix_update(sa_matrix_arb *arb, int winner) {
    int i, k, n = arb->size;
    if (winner < 0) return;
    SA_ASSERT(winner < n);
    if (n <= 8) {
        /* Remove the winner's byte, close the gap, append it at the end. */
        uint64_t w = (uint64_t)1 << winner;
        int b = sa__ctz64(sa__nonzero_bytes(arb->order & (w * 0x0101010101010101ull))) & ~7;
        uint64_t below = ((uint64_t)1 << b) - 1;
        arb->order = (arb->order & below) | ((arb->order >> 8) & ~below) | (w << (8 * (n - 1)));
        return;
    }
    /* Every requester ranked below the winner moves up one rank. */
    k = arb->rank[winner];
#ifdef SA_SIMD_SSE2
    {
        __m128i kk = _mm_set1_epi8((char)k);
        for (i = 0; i < n; i += 16) {
            __m128i *p = (__m128i *)(void *)(arb->rank + i);
            __m128i v = _mm_loadu_si128(p);
            _mm_storeu_si128(p, _mm_add_epi8(v, _mm_cmpgt_epi8(v, kk)));
        }
    }
#else
    for (i = 0; i < n; i++) arb->rank[i] = (uint8_t)(arb->rank[i] - (arb->rank[i] > k));
#endif
    arb->rank[winner] = (uint8_t)(n - 1);
}

/**
 * Choose among the requesters with the highest priority, least recently
 * selected among equals, without changing the state.
 *
 * :param arb: the arbiter.
 * :param req: requesters (no bit at or above arb->size).
 * :param prio: prio[i] is requester i's priority (larger wins); NULL means
 *              all equal.
 * :returns: the winner, or -1 if req is 0.
 */
SA_API int sa_matrix_select_prio(const sa_matrix_arb *arb, uint64_t req, const uint8_t *prio) {
    if (prio != NULL && req != 0) req = sa__top_priority(req, prio);
    return sa_matrix_select(arb, req);
}

/* ----------------------------------------------------------------------
 * 2.3 Two read ports sharing one input buffer (the 21364's constraint)
 * ---------------------------------------------------------------------- */

/**
 * What the two read ports of one input buffer need to know about its
 * packets so that they never pick the same packet.
 *
 * In the 21364 each input buffer has two read ports, each with its own
 * input arbiter (seed 002 Section 2.2); the arbiters of one buffer must not
 * dispatch the same packet (Section 3.3).  With read-port pairing on
 * (sa_alloc_desc.read_port_pairs), input arbiters 2b and 2b+1 are the read
 * ports of buffer b, and a request bit only says "some packet of the buffer
 * can use this output".  Two outputs j != k can be served by the two read
 * ports at once unless one single packet is the only one for both of them.
 * This struct records exactly that, for packets that may each use any set
 * of outputs (two in the 21364: adaptive routing within the minimal
 * rectangle):
 *
 * - ``any``: outputs at least one packet can use;
 * - ``multi``: outputs at least two packets can use (never a conflict);
 * - ``sole[k]`` for k in any but not in multi: the outputs (outside multi)
 *   of the only packet that can use k.  Once one read port takes k, its
 *   twin can no longer take any of them (sa_read_buffer_clash).
 *
 * Build it with sa_read_buffer_build each cycle from the packets that may
 * go now; entries of ``sole`` for other outputs are not read.  After the
 * allocation, sa_read_buffer_assign picks the two distinct packets.
 */
typedef struct sa_read_buffer {
    uint64_t any;                /**< outputs with at least one packet */
    uint64_t multi;              /**< outputs with at least two packets */
    uint64_t sole[SA_ALLOC_MAX]; /**< for a sole output k: outputs (not in
                                      multi) of its only packet, k included */
} sa_read_buffer;

/**
 * Build the read-port view of one input buffer from its packets.
 *
 * :param buf: receives the view.
 * :param packet_outputs: packet_outputs[p] is the mask of outputs packet p
 *                        may use this cycle (0: it may not go).
 * :param num_packets: number of packets (0 or more).
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PARAM_RANGE if num_packets < 0;
 *           SA_ERR_REQUEST_RANGE if a packet names an output at or above
 *           SA_ALLOC_MAX.
 * :paper: seed 002 Sections 2.2 and 3.3 (two read ports per input buffer,
 *         "must synchronize to ensure that they do not choose the same
 *         packet").
 */
SA_API sa_result sa_read_buffer_build(sa_read_buffer *buf, const uint64_t *packet_outputs,
                                      int num_packets) {
    int p;
    uint64_t sole;
    if (buf == NULL || (packet_outputs == NULL && num_packets > 0)) return SA_ERR_NULL;
    if (num_packets < 0) return SA_ERR_PARAM_RANGE;
    buf->any = buf->multi = 0;
    for (p = 0; p < num_packets; p++) {
        uint64_t o = packet_outputs[p];
        if (o & ~sa__low_mask(SA_ALLOC_MAX)) return SA_ERR_REQUEST_RANGE;
        buf->multi |= buf->any & o;
        buf->any |= o;
    }
    sole = buf->any & ~buf->multi;
    for (p = 0; p < num_packets && sole; p++) {
        uint64_t o = packet_outputs[p] & sole, r;
        for (r = o; r; r &= r - 1) buf->sole[sa__ctz64(r)] = o;
    }
    return SA_OK;
}

/**
 * Outputs the twin read port can no longer use once one read port of the
 * buffer has taken output k.
 *
 * :param buf: the buffer view.
 * :param k: an output in buf->any.
 * :returns: 0 if k is in multi, else sole[k] (which contains k itself).
 */
SA_API uint64_t sa_read_buffer_clash(const sa_read_buffer *buf, int k) {
    uint64_t bit = (uint64_t)1 << k;
    SA_ASSERT(k >= 0 && k < SA_ALLOC_MAX && (buf->any & bit));
    return (buf->multi & bit) ? 0 : buf->sole[k];
}

/**
 * Pick the packets that the two read ports of one buffer send, given the
 * outputs they were matched to: the first (oldest) suitable packet for each,
 * never the same packet for both.
 *
 * :param packet_outputs: as for sa_read_buffer_build, oldest packet first.
 * :param num_packets: number of packets.
 * :param out0: output of read port 0 (input arbiter 2b), or -1.
 * :param out1: output of read port 1 (input arbiter 2b+1), or -1.
 * :param pkt0: receives read port 0's packet index, or -1.
 * :param pkt1: receives read port 1's packet index, or -1.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_REQUEST_RANGE if no two distinct
 *           packets serve the two outputs (the allocation did not respect
 *           sa_read_buffer_clash).
 */
SA_API sa_result sa_read_buffer_assign(const uint64_t *packet_outputs, int num_packets,
                                       int out0, int out1, int *pkt0, int *pkt1) {
    int p, a = -1, b = -1;
    uint64_t m0 = out0 >= 0 && out0 < 64 ? (uint64_t)1 << out0 : 0;
    uint64_t m1 = out1 >= 0 && out1 < 64 ? (uint64_t)1 << out1 : 0;
    if (pkt0 == NULL || pkt1 == NULL || (packet_outputs == NULL && num_packets > 0))
        return SA_ERR_NULL;
    /* Oldest packet for out0, then the oldest other packet for out1; if that
     * fails, the other way round (which succeeds whenever any pair does). */
    for (p = 0; p < num_packets && m0 && a < 0; p++) if (packet_outputs[p] & m0) a = p;
    for (p = 0; p < num_packets && m1 && b < 0; p++) if (p != a && (packet_outputs[p] & m1)) b = p;
    if (m1 && b < 0 && a >= 0) {
        b = a;
        for (a = -1, p = 0; p < num_packets && a < 0; p++) if (p != b && (packet_outputs[p] & m0)) a = p;
    }
    *pkt0 = a;
    *pkt1 = b;
    if ((m0 && a < 0) || (m1 && b < 0)) return SA_ERR_REQUEST_RANGE;
    return SA_OK;
}

/* ----------------------------------------------------------------------
 * 2.4 Switch allocators
 * ---------------------------------------------------------------------- */

/** Which allocation algorithm an sa_alloc runs. */
typedef enum sa_alloc_kind {
    SA_ALLOC_SPAA = 0,       /**< SPAA: one nomination per input arbiter,
                                  least-recently-selected grant (seed 002 3.3) */
    SA_ALLOC_WFA,            /**< wave-front arbiter (Tamir and Chi), start
                                  cell chosen round-robin (WFA-base, 3.2) */
    SA_ALLOC_WFA_WRAPPED,    /**< wrapped wave-front arbiter: wrapped
                                  diagonals, round-robin priority diagonal */
    SA_ALLOC_PIM,            /**< parallel iterative matching, k iterations
                                  (PIM1 for k = 1) (3.1) */
    SA_ALLOC_ISLIP,          /**< iSLIP-k (McKeown): round-robin PIM whose
                                  pointers move only on accepted first-
                                  iteration grants */
    SA_ALLOC_OPF,            /**< oldest packet first (Figure 2): input-first
                                  separable allocation by priority */
    SA_ALLOC_SEP_INPUT,      /**< separable input-first, round-robin arbiters */
    SA_ALLOC_SEP_OUTPUT,     /**< separable output-first, round-robin arbiters */
    SA_ALLOC_MCM,            /**< maximum-cardinality matching (exact) */
    SA_ALLOC_KIND_COUNT      /**< number of kinds (not a kind) */
} sa_alloc_kind;

/**
 * Description of an allocator, read once by sa_alloc_init.  A
 * zero-initialised description is valid: SPAA on the 21364's 16 input
 * arbiters x 7 outputs, full crossbar, one iteration, no Rotary Rule, no
 * read-port pairing.  sa_alloc_desc_21364 fills in the whole 21364 router.
 */
typedef struct sa_alloc_desc {
    sa_alloc_kind kind;      /**< the algorithm */
    int num_inputs;          /**< input arbiters (rows), 1..SA_ALLOC_MAX; 0
                                  means 16 */
    int num_outputs;         /**< outputs (columns), 1..SA_ALLOC_MAX; 0 means 7 */
    int iterations;          /**< PIM and iSLIP: iterations k >= 1, or
                                  SA_ITERATE_TO_CONVERGENCE; 0 means 1 */
    int rotary;              /**< nonzero: the Rotary Rule (SPAA, WFA,
                                  WFA_WRAPPED and PIM only) */
    uint64_t network_inputs; /**< bit i: input arbiter i carries network
                                  (cross) traffic; the Rotary Rule favours
                                  these over the local ones */
    int read_port_pairs;     /**< nonzero: input arbiters 2b and 2b+1 are the
                                  two read ports of buffer b (num_inputs must
                                  be even; pass sa_read_buffer views) */
    uint64_t seed;           /**< PIM: seed of the allocator's sa_rng (how
                                  PIM draws from it: sa_allocate) */
    uint64_t no_connect[SA_ALLOC_MAX]; /**< bit j of no_connect[i]: input
                                  arbiter i has no connection to output j
                                  (the shaded cells of seed 002 Figure 5) */
} sa_alloc_desc;

/* ---- SPAA's state: bit-sliced banks of least-recently-selected arbiters.
 *
 * Every arbiter of a bank is one lane of 2^lw bits (lw 3..6: 8, 16, 32 or
 * 64 bits, the smallest that holds one bit per requester), lane r at bits
 * r*2^lw.. of a bit string of 64-bit words.  Plane b (words
 * b*SA__SPAA_WORDS..) holds bit b of every requester's rank (0 = least
 * recently selected); a bank has lw planes, those above the rank bits of
 * its arbiters zero (which no operation changes).  One pass over the planes
 * selects, or updates, every arbiter of the bank at once: the 21364's 16
 * input arbiters over 7 outputs are one SSE2 register per plane. */

/* Planes and words of the banks: SA__SPAA_PLANES is the lane width (log2)
 * of an arbiter over SA_ALLOC_MAX requesters; words per plane are even so
 * that SSE2 takes two at a time. */
#if SA_ALLOC_MAX > 32
#define SA__SPAA_PLANES 6
#elif SA_ALLOC_MAX > 16
#define SA__SPAA_PLANES 5
#elif SA_ALLOC_MAX > 8
#define SA__SPAA_PLANES 4
#else
#define SA__SPAA_PLANES 3
#endif
#define SA__SPAA_WORDS ((SA_ALLOC_MAX + 1) & ~1)

/* S(b) for every plane b, top plane first (S tests b < lw itself). */
#define SA__PLANES_DOWN(S) S(5) S(4) S(3) S(2) S(1) S(0)
/* S(b) for every plane b, plane 0 first. */
#define SA__PLANES_UP(S) S(0) S(1) S(2) S(3) S(4) S(5)

/* High bit of every lane of 2^lw bits (3 <= lw <= 6). */
SA_API uint64_t sa__lane_high(int lw) {
    static const uint64_t high[4] = { 0x8080808080808080ull, 0x8000800080008000ull,
                                      0x8000000080000000ull, 0x8000000000000000ull };
    return high[lw - 3];
}

/* Bit 0 of every lane of 2^lw bits. */
SA_API uint64_t sa__lane_low(int lw) {
    return sa__lane_high(lw) >> ((1 << lw) - 1);
}

/* All ones in every nonzero lane of x, zero in the others (lanes of 2^lw
 * bits; SWAR: adding ~high to the low bits carries into the high bit
 * exactly when a low bit is set). */
SA_API uint64_t sa__lanes_nonzero(uint64_t x, int lw) {
    uint64_t h = sa__lane_high(lw), l = ~h, t = (((x & l) + l) | x) & h;
    return (t - (t >> ((1 << lw) - 1))) | t;
}

/* Lane r of the bank words c (2^lw-bit lanes). */
SA_API uint64_t sa__lane_get(const uint64_t *c, int r, int lw) {
    int bit = r << lw;
    uint64_t v = c[bit >> 6] >> (bit & 63);
    return lw == 6 ? v : v & (((uint64_t)1 << (1 << lw)) - 1);
}

/* OR x (x < 2^(2^lw)) into lane r of the bank words c. */
SA_API void sa__lane_or(uint64_t *c, int r, int lw, uint64_t x) {
    int bit = r << lw;
    c[bit >> 6] |= x << (bit & 63);
}

/* Lane width (log2 of bits, 3..6) of a bank whose arbiters have `size`
 * requesters; it is also the bank's number of planes. */
SA_API int sa__lrs_bank_lw(int size) {
    return size <= 8 ? 3 : size <= 16 ? 4 : size <= 32 ? 5 : 6;
}

/* 64-bit words per plane of a bank of `rows` arbiters (even). */
SA_API int sa__lrs_bank_words(int rows, int lw) {
    return ((((rows << lw) + 63) >> 6) + 1) & ~1;
}

/* Reset a bank of `rows` arbiters over `size` requesters: requester i has
 * rank i in every arbiter (sa_matrix_arb_init's order). */
SA_API void sa__lrs_bank_init(uint64_t *plane, int rows, int size) {
    static const uint64_t bit_b[6] = {
        0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
        0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull };
    int b, r, lw = sa__lrs_bank_lw(size);
    sa__zero_words(plane, SA__SPAA_PLANES * SA__SPAA_WORDS);
    for (b = 0; (1 << b) < size; b++)
        for (r = 0; r < rows; r++)
            sa__lane_or(plane + b * SA__SPAA_WORDS, r, lw, bit_b[b] & sa__low_mask(size));
}

/* Least-recently-selected candidate of every arbiter of a bank at once,
 * portable version: lane r of c[0..words) holds the candidates of arbiter
 * r, and on return the one with the smallest rank (or 0 if none).  From
 * the top plane down, a lane keeps its candidates whose rank bit is 0 when
 * it has any; ranks being distinct, one is left.  If k is not NULL, plane
 * b of k receives the winner's rank bit b over its whole lane (all ones
 * for 1; lanes without a candidate get all ones). */
#define SA__SEL_PORT_PLANE(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        z = x & ~plane[(b) * SA__SPAA_WORDS + w]; \
        e = ~sa__lanes_nonzero(z, (LW)); \
        x = z | (x & e); \
        if (k != NULL) k[(b) * SA__SPAA_WORDS + w] = e; \
    }
#define SA__SEL_PORT_BODY(LW) { \
    int w; \
    for (w = 0; w < words; w++) { \
        uint64_t x = c[w], z, e; \
        SA__SEL_PORT_PLANE(5, LW) SA__SEL_PORT_PLANE(4, LW) SA__SEL_PORT_PLANE(3, LW) \
        SA__SEL_PORT_PLANE(2, LW) SA__SEL_PORT_PLANE(1, LW) SA__SEL_PORT_PLANE(0, LW) \
        c[w] = x; \
    } \
}
SA_API void sa__lrs_bank_select_portable_3(const uint64_t *plane, uint64_t *c, uint64_t *k,
                                           int words) SA__SEL_PORT_BODY(3)
SA_API void sa__lrs_bank_select_portable_4(const uint64_t *plane, uint64_t *c, uint64_t *k,
                                           int words) SA__SEL_PORT_BODY(4)
SA_API void sa__lrs_bank_select_portable_5(const uint64_t *plane, uint64_t *c, uint64_t *k,
                                           int words) SA__SEL_PORT_BODY(5)
SA_API void sa__lrs_bank_select_portable_6(const uint64_t *plane, uint64_t *c, uint64_t *k,
                                           int words) SA__SEL_PORT_BODY(6)
SA_API void sa__lrs_bank_select_portable(const uint64_t *plane, uint64_t *c, uint64_t *k,
                                         int words, int lw) {
    switch (lw) {
    case 3: sa__lrs_bank_select_portable_3(plane, c, k, words); break;
    case 4: sa__lrs_bank_select_portable_4(plane, c, k, words); break;
    case 5: sa__lrs_bank_select_portable_5(plane, c, k, words); break;
    default: sa__lrs_bank_select_portable_6(plane, c, k, words); break;
    }
}

/* Record one selection in every arbiter of a bank whose lane of g is
 * nonzero (one-hot: the winner), portable version: every requester ranked
 * behind the winner (rank > k, the winner's rank) moves up one, the winner
 * takes the last rank size-1.  Bit-sliced: the winner's rank bits over its
 * lane (from k, sa__lrs_bank_select's output for these winners, or from
 * the planes if k is NULL) are compared with every rank from the top bit,
 * and the ranks above are decremented with a borrow chain. */
#define SA__UPD_PORT_CMP(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        p##b = plane[(b) * SA__SPAA_WORDS + w]; \
        kb = k != NULL ? k[(b) * SA__SPAA_WORDS + w] : sa__lanes_nonzero(p##b & gg, (LW)); \
        gt |= eq & p##b & ~kb; \
        eq &= ~(p##b ^ kb); \
    }
#define SA__UPD_PORT_DEC(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        x = p##b ^ bo; \
        bo &= ~p##b; \
        plane[(b) * SA__SPAA_WORDS + w] = ((size - 1) >> (b)) & 1 ? x | gg : x & ~gg; \
    }
#define SA__UPD_PORT_BODY(LW) { \
    int w; \
    for (w = 0; w < words; w++) { \
        uint64_t p0, p1, p2, p3 = 0, p4 = 0, p5 = 0, gg = g[w], eq, gt = 0, bo, kb, x; \
        if (gg == 0) continue; \
        eq = sa__lanes_nonzero(gg, (LW)); \
        SA__UPD_PORT_CMP(5, LW) SA__UPD_PORT_CMP(4, LW) SA__UPD_PORT_CMP(3, LW) \
        SA__UPD_PORT_CMP(2, LW) SA__UPD_PORT_CMP(1, LW) SA__UPD_PORT_CMP(0, LW) \
        bo = gt; \
        SA__UPD_PORT_DEC(0, LW) SA__UPD_PORT_DEC(1, LW) SA__UPD_PORT_DEC(2, LW) \
        SA__UPD_PORT_DEC(3, LW) SA__UPD_PORT_DEC(4, LW) SA__UPD_PORT_DEC(5, LW) \
        (void)p3; (void)p4; (void)p5; \
    } \
}
SA_API void sa__lrs_bank_update_portable_3(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                           int words, int size) SA__UPD_PORT_BODY(3)
SA_API void sa__lrs_bank_update_portable_4(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                           int words, int size) SA__UPD_PORT_BODY(4)
SA_API void sa__lrs_bank_update_portable_5(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                           int words, int size) SA__UPD_PORT_BODY(5)
SA_API void sa__lrs_bank_update_portable_6(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                           int words, int size) SA__UPD_PORT_BODY(6)
SA_API void sa__lrs_bank_update_portable(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                         int words, int lw, int size) {
    switch (lw) {
    case 3: sa__lrs_bank_update_portable_3(plane, g, k, words, size); break;
    case 4: sa__lrs_bank_update_portable_4(plane, g, k, words, size); break;
    case 5: sa__lrs_bank_update_portable_5(plane, g, k, words, size); break;
    default: sa__lrs_bank_update_portable_6(plane, g, k, words, size); break;
    }
}

/* Where lane r of c has a bit of lane r of pref, keep only those bits
 * (the Rotary Rule's "network inputs first"), portable version. */
SA_API void sa__lanes_prefer_portable(uint64_t *c, int words, int lw, uint64_t pref) {
    int w;
    for (w = 0; w < words; w++) {
        uint64_t x = c[w] & pref;
        c[w] = x | (c[w] & ~sa__lanes_nonzero(x, lw));
    }
}

#ifdef SA_SIMD_SSE2
/* Unaligned SSE2 load and store of two words. */
#define SA__LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SA__ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

/* All ones in every zero lane of x (lanes of 2^lw bits). */
SA_API __m128i sa__lanes_zero_sse2(__m128i x, int lw) {
    __m128i z = _mm_setzero_si128();
    if (lw == 3) return _mm_cmpeq_epi8(x, z);
    if (lw == 4) return _mm_cmpeq_epi16(x, z);
    if (lw == 5) return _mm_cmpeq_epi32(x, z);
    /* the two halves ORed first: one instruction fewer than ANDing the
     * halves' tests */
    return _mm_cmpeq_epi32(_mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1))), z);
}

/* SSE2 versions of sa__lrs_bank_select_portable and
 * sa__lrs_bank_update_portable (two words at a time), one function per lane
 * width so that the lane tests and the plane loops fold: the bodies are
 * macros of the constant LW. */
#define SA__SEL_SSE2_PLANE(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        z = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w), x); \
        e = sa__lanes_zero_sse2(z, (LW)); \
        x = _mm_or_si128(z, _mm_and_si128(e, x)); \
        if (k != NULL) SA__ST(k + (b) * SA__SPAA_WORDS + w, e); \
    }
#define SA__SEL_SSE2_BODY(LW) { \
    int w; \
    for (w = 0; w < words; w += 2) { \
        __m128i x = SA__LD(c + w), z, e; \
        SA__SEL_SSE2_PLANE(5, LW) SA__SEL_SSE2_PLANE(4, LW) SA__SEL_SSE2_PLANE(3, LW) \
        SA__SEL_SSE2_PLANE(2, LW) SA__SEL_SSE2_PLANE(1, LW) SA__SEL_SSE2_PLANE(0, LW) \
        SA__ST(c + w, x); \
    } \
}
#define SA__UPD_SSE2_CMP(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        p##b = SA__LD(plane + (b) * SA__SPAA_WORDS + w); \
        kb = k != NULL ? SA__LD(k + (b) * SA__SPAA_WORDS + w) \
                       : _mm_andnot_si128(sa__lanes_zero_sse2(_mm_and_si128(p##b, gg), (LW)), ones); \
        gt = _mm_or_si128(gt, _mm_and_si128(eq, _mm_andnot_si128(kb, p##b))); \
        eq = _mm_andnot_si128(_mm_xor_si128(p##b, kb), eq); \
    }
#define SA__UPD_SSE2_DEC(b, LW) \
    if ((b) < (LW) && (b) < SA__SPAA_PLANES) { \
        x = _mm_xor_si128(p##b, bo); \
        bo = _mm_andnot_si128(p##b, bo); \
        SA__ST(plane + (b) * SA__SPAA_WORDS + w, \
               ((size - 1) >> (b)) & 1 ? _mm_or_si128(x, gg) : _mm_andnot_si128(gg, x)); \
    }
#define SA__UPD_SSE2_BODY(LW) { \
    int w; \
    const __m128i ones = _mm_set1_epi8(-1); \
    for (w = 0; w < words; w += 2) { \
        __m128i p0, p1, p2, p3 = ones, p4 = ones, p5 = ones, x, kb, bo; \
        __m128i gg = SA__LD(g + w), gt = _mm_setzero_si128(); \
        __m128i eq = _mm_andnot_si128(sa__lanes_zero_sse2(gg, (LW)), ones); \
        SA__UPD_SSE2_CMP(5, LW) SA__UPD_SSE2_CMP(4, LW) SA__UPD_SSE2_CMP(3, LW) \
        SA__UPD_SSE2_CMP(2, LW) SA__UPD_SSE2_CMP(1, LW) SA__UPD_SSE2_CMP(0, LW) \
        bo = gt; \
        SA__UPD_SSE2_DEC(0, LW) SA__UPD_SSE2_DEC(1, LW) SA__UPD_SSE2_DEC(2, LW) \
        SA__UPD_SSE2_DEC(3, LW) SA__UPD_SSE2_DEC(4, LW) SA__UPD_SSE2_DEC(5, LW) \
        (void)p3; (void)p4; (void)p5; \
    } \
}
SA_API void sa__lrs_bank_select_sse2_3(const uint64_t *plane, uint64_t *c, uint64_t *k, int words)
    SA__SEL_SSE2_BODY(3)
SA_API void sa__lrs_bank_select_sse2_4(const uint64_t *plane, uint64_t *c, uint64_t *k, int words)
    SA__SEL_SSE2_BODY(4)
SA_API void sa__lrs_bank_select_sse2_5(const uint64_t *plane, uint64_t *c, uint64_t *k, int words)
    SA__SEL_SSE2_BODY(5)
/* Lane width 6: two pairs of arbiters at once, their planes interleaved
 * (each pair's select is a chain of dependent steps; two chains side by
 * side keep the out-of-order core's scheduler busy). */
#define SA__SEL6_2PLANE(b) \
    z = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w), x); \
    z2 = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w + 2), x2); \
    e = sa__lanes_zero_sse2(z, 6); \
    e2 = sa__lanes_zero_sse2(z2, 6); \
    x = _mm_or_si128(z, _mm_and_si128(e, x)); \
    x2 = _mm_or_si128(z2, _mm_and_si128(e2, x2)); \
    if (k != NULL) { \
        SA__ST(k + (b) * SA__SPAA_WORDS + w, e); \
        SA__ST(k + (b) * SA__SPAA_WORDS + w + 2, e2); \
    }
SA_API void sa__lrs_bank_select_sse2_6(const uint64_t *plane, uint64_t *c, uint64_t *k, int words) {
    int w = 0;
    for (; w + 4 <= words; w += 4) {
        __m128i x = SA__LD(c + w), x2 = SA__LD(c + w + 2), z, e, z2, e2;
        SA__SEL6_2PLANE(5) SA__SEL6_2PLANE(4) SA__SEL6_2PLANE(3)
        SA__SEL6_2PLANE(2) SA__SEL6_2PLANE(1) SA__SEL6_2PLANE(0)
        SA__ST(c + w, x);
        SA__ST(c + w + 2, x2);
    }
    if (w < words) {
        /* the last pair */
        __m128i x = SA__LD(c + w), z, e;
        SA__SEL_SSE2_PLANE(5, 6) SA__SEL_SSE2_PLANE(4, 6) SA__SEL_SSE2_PLANE(3, 6)
        SA__SEL_SSE2_PLANE(2, 6) SA__SEL_SSE2_PLANE(1, 6) SA__SEL_SSE2_PLANE(0, 6)
        SA__ST(c + w, x);
    }
}
SA_API void sa__lrs_bank_update_sse2_3(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                       int words, int size) SA__UPD_SSE2_BODY(3)
SA_API void sa__lrs_bank_update_sse2_4(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                       int words, int size) SA__UPD_SSE2_BODY(4)
SA_API void sa__lrs_bank_update_sse2_5(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                       int words, int size) SA__UPD_SSE2_BODY(5)
SA_API void sa__lrs_bank_update_sse2_6(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                       int words, int size) SA__UPD_SSE2_BODY(6)

/* The SSE2 bank select and update for any lane width (lw 3..6). */
SA_API void sa__lrs_bank_select_sse2(const uint64_t *plane, uint64_t *c, uint64_t *k, int words,
                                     int lw) {
    switch (lw) {
    case 3: sa__lrs_bank_select_sse2_3(plane, c, k, words); break;
    case 4: sa__lrs_bank_select_sse2_4(plane, c, k, words); break;
    case 5: sa__lrs_bank_select_sse2_5(plane, c, k, words); break;
    default: sa__lrs_bank_select_sse2_6(plane, c, k, words); break;
    }
}
SA_API void sa__lrs_bank_update_sse2(uint64_t *plane, const uint64_t *g, const uint64_t *k,
                                     int words, int lw, int size) {
    switch (lw) {
    case 3: sa__lrs_bank_update_sse2_3(plane, g, k, words, size); break;
    case 4: sa__lrs_bank_update_sse2_4(plane, g, k, words, size); break;
    case 5: sa__lrs_bank_update_sse2_5(plane, g, k, words, size); break;
    default: sa__lrs_bank_update_sse2_6(plane, g, k, words, size); break;
    }
}

/* SSE2 version of sa__lanes_prefer_portable (two words at a time). */
SA_API void sa__lanes_prefer_sse2(uint64_t *c, int words, int lw, uint64_t pref) {
    int w;
    __m128i pr = _mm_set1_epi64x((long long)pref);
    for (w = 0; w < words; w += 2) {
        __m128i v = SA__LD(c + w), x = _mm_and_si128(v, pr);
        SA__ST(c + w, _mm_or_si128(x, _mm_and_si128(sa__lanes_zero_sse2(x, lw), v)));
    }
}
#endif

/* Bank select (SSE2 where present). */
SA_API void sa__lrs_bank_select(const uint64_t *plane, uint64_t *c, uint64_t *k, int words, int lw) {
#ifdef SA_SIMD_SSE2
    sa__lrs_bank_select_sse2(plane, c, k, words, lw);
#else
    sa__lrs_bank_select_portable(plane, c, k, words, lw);
#endif
}

/* Bank update (SSE2 where present). */
SA_API void sa__lrs_bank_update(uint64_t *plane, const uint64_t *g, const uint64_t *k, int words,
                                int lw, int size) {
#ifdef SA_SIMD_SSE2
    sa__lrs_bank_update_sse2(plane, g, k, words, lw, size);
#else
    sa__lrs_bank_update_portable(plane, g, k, words, lw, size);
#endif
}

/* Rotary-Rule preference over the lanes (SSE2 where present). */
SA_API void sa__lanes_prefer(uint64_t *c, int words, int lw, uint64_t pref) {
#ifdef SA_SIMD_SSE2
    sa__lanes_prefer_sse2(c, words, lw, pref);
#else
    sa__lanes_prefer_portable(c, words, lw, pref);
#endif
}

#if SA_ALLOC_MAX > 32
/* ---- Banks of 64-bit lanes (lw 6, arbiters of 33..64 requesters): arbiter
 * r is word r of every plane, so the arbiters one allocation touches can be
 * visited alone (a list of rows) instead of the whole bank: SPAA's output
 * bank selects and records only at the outputs that were nominated, its
 * input bank records only at the granted inputs.  Same operations as
 * sa__lrs_bank_select and sa__lrs_bank_update, lane by lane. */

/* Plane b, word r of a lw-6 bank. */
#define SA__L6(plane, b, r) ((plane)[(b) * SA__SPAA_WORDS + (r)])

/* Arbiter r of a lw-6 bank over `size` requesters, portable version: with
 * k NULL, select the least recently selected of the candidates x (nonzero);
 * with k (rank bits as sa__lrs_bank_select gives them), take x (one-hot) as
 * the winner.  Then record the selection (the requesters ranked behind the
 * winner move up one, the winner goes last); returns the winner. */
SA_API uint64_t sa__lrs6_one_portable(uint64_t *plane, int r, uint64_t x, const uint64_t *k,
                                      int size) {
    uint64_t p[6], eq = ~(uint64_t)0, gt = 0, bo;
    int b;
    for (b = 5; b >= 0; b--) {
        uint64_t z, kb;
        p[b] = SA__L6(plane, b, r);
        z = x & ~p[b];
        if (k != NULL) {
            kb = SA__L6(k, b, r);
        } else {
            kb = z != 0 ? 0 : ~(uint64_t)0;
            x = z != 0 ? z : x;
        }
        gt |= eq & p[b] & ~kb;
        eq &= ~(p[b] ^ kb);
    }
    bo = gt;
    for (b = 0; b < 6; b++) {
        uint64_t y = p[b] ^ bo;
        bo &= ~p[b];
        SA__L6(plane, b, r) = ((size - 1) >> b) & 1 ? y | x : y & ~x;
    }
    return x;
}

/* For arbiters rows[0..count) of a lw-6 bank over `size` requesters, c
 * indexed by arbiter: with k NULL, select the least recently selected
 * candidate of c[r] (nonzero) into c[r] (one-hot) and record it; with k
 * (sa__lrs_bank_select's rank bits for these winners), record the winners
 * c[r] (one-hot).  Portable version. */
SA_API void sa__lrs6_rows_portable(uint64_t *plane, uint64_t *c, const uint64_t *k,
                                   const uint8_t *rows, int count, int size) {
    int t;
    for (t = 0; t < count; t++) c[rows[t]] = sa__lrs6_one_portable(plane, rows[t], c[rows[t]], k, size);
}

#ifdef SA_SIMD_SSE2
/* All ones in every zero 64-bit lane of x. */
SA_API __m128i sa__lanes_zero64_sse2(__m128i x) {
    return _mm_cmpeq_epi32(_mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1))),
                           _mm_setzero_si128());
}

/* Words a and b as the low and high lanes of a register, and back. */
SA_API __m128i sa__ld_pair(const uint64_t *a, const uint64_t *b) {
    return _mm_castps_si128(_mm_loadh_pi(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)a)),
                                         (const __m64 *)(const void *)b));
}
SA_API void sa__st_pair(uint64_t *a, uint64_t *b, __m128i v) {
    _mm_storel_epi64((__m128i *)(void *)a, v);
    _mm_storeh_pi((__m64 *)(void *)b, _mm_castsi128_ps(v));
}

/* SSE2 version of sa__lrs6_rows_portable: two rows per register (an odd
 * count pairs the last row with itself).  One function per case so that
 * the tests fold: select (K NULL) or record given winners, and a bank over
 * 64 requesters (SZ 64: the winner's new rank 63 is all ones) or any size. */
/* Select: plane b of the winner (kb: its rank bit) and, top down, the
 * requesters ranked behind it (gt) and those equal to it so far (eq). */
#define SA__L6_SEL(b) \
    p##b = sa__ld_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS); \
    { \
        __m128i z = _mm_andnot_si128(p##b, x); \
        kb = sa__lanes_zero64_sse2(z); \
        x = _mm_or_si128(z, _mm_and_si128(kb, x)); \
    } \
    gt = _mm_or_si128(gt, _mm_and_si128(eq, _mm_andnot_si128(kb, p##b))); \
    eq = _mm_andnot_si128(_mm_xor_si128(p##b, kb), eq);
/* Select only: plane b of the pair's winners, their rank bits stored in
 * kout (plane b at kout + b * (SA_ALLOC_MAX + 2), pair at t) and the pair's
 * plane b in pout (same layout: the update reloads it with one aligned
 * load, not a load and a shuffle). */
#define SA__L6_SELK(b) \
    pv = sa__ld_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS); \
    SA__ST(pout + (b) * (SA_ALLOC_MAX + 2) + t, pv); \
    z = _mm_andnot_si128(pv, x); \
    e = sa__lanes_zero64_sse2(z); \
    x = _mm_or_si128(z, _mm_and_si128(e, x)); \
    SA__ST(kout + (b) * (SA_ALLOC_MAX + 2) + t, e);
/* As SA__L6_CMP with the planes from pout and the rank bits from kout. */
#define SA__L6_CMPC(b) \
    p##b = SA__LD(pout + (b) * (SA_ALLOC_MAX + 2) + s); \
    kb = SA__LD(kout + (b) * (SA_ALLOC_MAX + 2) + s); \
    gt = _mm_or_si128(_mm_and_si128(gt, p##b), _mm_andnot_si128(kb, _mm_or_si128(gt, p##b)));
/* Given winners: bottom up, gt over the rank bits 0..b (with a 0 bit of
 * the winner's, a 1 bit makes a requester greater; with a 1 bit, a 0 bit
 * makes it not greater; equal bits keep the lower bits' verdict). */
#define SA__L6_CMP(b) \
    p##b = sa__ld_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS); \
    kb = sa__ld_pair(k + ra + (b) * SA__SPAA_WORDS, k + rb + (b) * SA__SPAA_WORDS); \
    gt = _mm_or_si128(_mm_and_si128(gt, p##b), _mm_andnot_si128(kb, _mm_or_si128(gt, p##b)));
#define SA__L6_DEC(b, SZ) \
    y = _mm_xor_si128(p##b, bo); \
    bo = _mm_andnot_si128(p##b, bo); \
    sa__st_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS, \
                (((SZ) - 1) >> (b)) & 1 ? _mm_or_si128(y, x) : _mm_andnot_si128(x, y));
#define SA__L6_BODY(K, SZ, STORE_X) { \
    int t; \
    const uint64_t *k = (K); \
    for (t = 0; t < count; t += 2) { \
        int ra = rows[t], rb = rows[t + 1 < count ? t + 1 : t]; \
        uint64_t *pa = plane + ra, *pb = plane + rb; \
        __m128i p0, p1, p2, p3, p4, p5, kb, y, bo; \
        __m128i x = sa__ld_pair(c + ra, c + rb), eq = _mm_set1_epi8(-1), gt = _mm_setzero_si128(); \
        if (k == NULL) { \
            SA__L6_SEL(5) SA__L6_SEL(4) SA__L6_SEL(3) SA__L6_SEL(2) SA__L6_SEL(1) SA__L6_SEL(0) \
        } else { \
            SA__L6_CMP(0) SA__L6_CMP(1) SA__L6_CMP(2) SA__L6_CMP(3) SA__L6_CMP(4) SA__L6_CMP(5) \
        } \
        (void)eq; \
        bo = gt; \
        SA__L6_DEC(0, SZ) SA__L6_DEC(1, SZ) SA__L6_DEC(2, SZ) \
        SA__L6_DEC(3, SZ) SA__L6_DEC(4, SZ) SA__L6_DEC(5, SZ) \
        STORE_X; \
    } \
}
SA_API void sa__lrs6_select_rows64_sse2(uint64_t *plane, uint64_t *c, const uint8_t *rows, int count)
    SA__L6_BODY((const uint64_t *)NULL, 64, sa__st_pair(c + ra, c + rb, x))
SA_API void sa__lrs6_select_rows_sse2(uint64_t *plane, uint64_t *c, const uint8_t *rows, int count,
                                      int size)
    SA__L6_BODY((const uint64_t *)NULL, size, sa__st_pair(c + ra, c + rb, x))
SA_API void sa__lrs6_record_rows64_sse2(uint64_t *plane, const uint64_t *c, const uint64_t *kin,
                                        const uint8_t *rows, int count)
    SA__L6_BODY(kin, 64, (void)0)
SA_API void sa__lrs6_record_rows_sse2(uint64_t *plane, const uint64_t *c, const uint64_t *kin,
                                      const uint8_t *rows, int count, int size)
    SA__L6_BODY(kin, size, (void)0)
SA_API void sa__lrs6_rows_sse2(uint64_t *plane, uint64_t *c, const uint64_t *k,
                               const uint8_t *rows, int count, int size) {
    if (k == NULL) {
        if (size == 64) sa__lrs6_select_rows64_sse2(plane, c, rows, count);
        else sa__lrs6_select_rows_sse2(plane, c, rows, count, size);
    } else {
        if (size == 64) sa__lrs6_record_rows64_sse2(plane, c, k, rows, count);
        else sa__lrs6_record_rows_sse2(plane, c, k, rows, count, size);
    }
}
#endif

/* sa__lrs6_rows_sse2 where present, else sa__lrs6_rows_portable. */
SA_API void sa__lrs6_rows(uint64_t *plane, uint64_t *c, const uint64_t *k, const uint8_t *rows,
                          int count, int size) {
#ifdef SA_SIMD_SSE2
    sa__lrs6_rows_sse2(plane, c, k, rows, count, size);
#else
    sa__lrs6_rows_portable(plane, c, k, rows, count, size);
#endif
}
#endif

/**
 * An allocator: its configuration and all the state its algorithm keeps
 * between allocations.  Plain data owned by the caller; copy it to
 * checkpoint, reinitialise it to reset.
 */
typedef struct sa_alloc {
    sa_alloc_kind kind;           /**< the algorithm */
    int num_inputs;               /**< input arbiters */
    int num_outputs;              /**< outputs */
    int iterations;               /**< PIM/iSLIP iterations (-1: converge) */
    int rotary;                   /**< Rotary Rule on */
    int read_port_pairs;          /**< read-port pairing on */
    uint64_t network_inputs;      /**< network input arbiters */
    uint64_t connect[SA_ALLOC_MAX]; /**< allowed outputs of each input */
    sa_rng rng;                   /**< PIM's random numbers */
    uint8_t start_row;            /**< WFA: start row (wrapped: unused) */
    uint8_t start_col;            /**< WFA: start column; WFA_WRAPPED:
                                       priority diagonal */
    uint8_t in_ptr[SA_ALLOC_MAX];  /**< iSLIP accept pointers; separable/OPF
                                        input-arbiter pointers */
    uint8_t out_ptr[SA_ALLOC_MAX]; /**< iSLIP grant pointers; separable/OPF
                                        output-arbiter pointers */
    /* SPAA state: its two banks of least-recently-selected (matrix)
     * arbiters, bit-sliced (docs/allocators.rst, "SPAA's state"). */
    uint8_t spaa_in_lw;           /**< SPAA input bank: log2 of its lane
                                       width, 3..6 (8, 16, 32 or 64 bits,
                                       the smallest >= num_outputs), also
                                       its number of rank bit planes */
    uint8_t spaa_out_lw;          /**< SPAA output bank: log2 of its lane
                                       width (the smallest >= num_inputs) */
    uint8_t spaa_in_words;        /**< SPAA input bank: 64-bit words per
                                       plane (even) */
    uint8_t spaa_out_words;       /**< SPAA output bank: 64-bit words per
                                       plane (even) */
    uint64_t spaa_in[SA__SPAA_PLANES * SA__SPAA_WORDS]; /**< SPAA input
                                       arbiters (input i over the outputs),
                                       bit-sliced: arbiter i is lane i (bits
                                       i*W.. of a string of 64-bit words, W
                                       = 1 << spaa_in_lw); bit j of that lane
                                       in plane b (words b*SA__SPAA_WORDS..)
                                       is bit b of output j's rank in
                                       arbiter i (0 = least recently
                                       selected; a permutation of
                                       0..num_outputs-1); other bits 0 */
    uint64_t spaa_connect[SA__SPAA_WORDS]; /**< SPAA (and the WFA,
                                       iSLIP and PIM1 16 x 8 paths):
                                       connect[] in the input bank's
                                       lanes */
    uint64_t spaa_out[SA__SPAA_PLANES * SA__SPAA_WORDS]; /**< SPAA output
                                       arbiters (output j over the inputs),
                                       bit-sliced the same way: lane j, bit i
                                       of plane b is bit b of input i's rank
                                       in arbiter j */
} sa_alloc;

/** The result of one allocation: a matching of inputs to outputs. */
typedef struct sa_match {
    int size;                         /**< number of matched pairs */
    uint64_t inputs;                  /**< mask of matched inputs */
    uint64_t outputs;                 /**< mask of matched outputs */
    int8_t output_of[SA_ALLOC_MAX];   /**< output of input i, or -1 */
    int8_t input_of[SA_ALLOC_MAX];    /**< input of output j, or -1 */
} sa_match;

/** Input arbiter rows of the 21364 connection matrix (seed 002 Figure 5):
 *  read port rp of input port p is row 2p + rp, ports in this order. */
enum sa_21364_input_port {
    SA_21364_IN_NORTH = 0, /**< L-N (network) */
    SA_21364_IN_SOUTH,     /**< L-S (network) */
    SA_21364_IN_EAST,      /**< L-E (network) */
    SA_21364_IN_WEST,      /**< L-W (network) */
    SA_21364_IN_CACHE,     /**< L-Cache (local) */
    SA_21364_IN_MC0,       /**< L-MC0 (local) */
    SA_21364_IN_MC1,       /**< L-MC1 (local) */
    SA_21364_IN_IO,        /**< L-I/O (local) */
    SA_21364_IN_PORTS      /**< number of input ports (8) */
};

/** Output columns of the 21364 connection matrix (seed 002 Figure 5). */
enum sa_21364_output_port {
    SA_21364_OUT_NORTH = 0, /**< G-N */
    SA_21364_OUT_SOUTH,     /**< G-S */
    SA_21364_OUT_EAST,      /**< G-E */
    SA_21364_OUT_WEST,      /**< G-W */
    SA_21364_OUT_L0,        /**< G-L0 (memory controller 0 / cache) */
    SA_21364_OUT_L1,        /**< G-L1 (memory controller 1 / cache) */
    SA_21364_OUT_IO,        /**< G-I/O */
    SA_21364_OUT_PORTS      /**< number of output ports (7) */
};

/**
 * The 21364's connection matrix: which of the 16x7 (input arbiter, output)
 * cells have no connection.
 *
 * The extracted text of Figure 5 lost its shading; Section 3.1 says 54 of
 * the 112 cells are unshaded.  Our choice (documented in
 * docs/allocators.rst), which gives exactly 54: the two read ports of each
 * input port split the seven outputs between them, read port (p + j) mod 2
 * of port p reaching output j, so every input port reaches every output
 * through exactly one read port (56 cells); and a memory controller's input
 * has no connection to its own output (L-MC0 to G-L0, L-MC1 to G-L1),
 * leaving 54.
 *
 * :param no_connect: receives 16 masks (entries 16.. are not touched).
 * :paper: seed 002 Figure 5, Section 2.1 ("Ports"), Section 3.1 ("54").
 */
SA_API void sa_21364_no_connect(uint64_t *no_connect) {
    int p, rp, j;
    for (p = 0; p < SA_21364_IN_PORTS; p++)
        for (rp = 0; rp < 2; rp++) {
            uint64_t none = 0;
            for (j = 0; j < SA_21364_OUT_PORTS; j++) {
                int own = (p == SA_21364_IN_MC0 && j == SA_21364_OUT_L0) ||
                          (p == SA_21364_IN_MC1 && j == SA_21364_OUT_L1);
                if ((p + j) % 2 != rp || own) none |= (uint64_t)1 << j;
            }
            no_connect[2 * p + rp] = none;
        }
}

/**
 * Describe the Alpha 21364 router's allocator: 16 input arbiters (8 input
 * ports x 2 read ports, paired), 7 outputs, the connection matrix of
 * sa_21364_no_connect, the network input ports' 8 read ports as network
 * inputs for the Rotary Rule.
 *
 * :param desc: the description to fill (all of it is overwritten, even
 *              when the kind is invalid).
 * :param kind: the algorithm.
 * :param rotary: nonzero for the Rotary Rule (SPAA, WFA, WFA_WRAPPED, PIM).
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_PARAM_RANGE for a bad kind.
 * :paper: seed 002 Sections 2.1, 2.2, 3.4; Figure 5.
 */
SA_API sa_result sa_alloc_desc_21364(sa_alloc_desc *desc, sa_alloc_kind kind, int rotary) {
    int i;
    if (desc == NULL) return SA_ERR_NULL;
    for (i = 0; i < SA_ALLOC_MAX; i++) desc->no_connect[i] = 0;
    desc->kind = kind;
    desc->num_inputs = 2 * SA_21364_IN_PORTS;
    desc->num_outputs = SA_21364_OUT_PORTS;
    desc->iterations = 1;
    desc->rotary = rotary != 0;
    desc->network_inputs = 0xFF; /* rows of L-N, L-S, L-E, L-W */
    desc->read_port_pairs = 1;
    desc->seed = 0;
#if SA_ALLOC_MAX >= 16
    sa_21364_no_connect(desc->no_connect);
#endif
    return ((int)kind < 0 || kind >= SA_ALLOC_KIND_COUNT) ? SA_ERR_PARAM_RANGE : SA_OK;
}

/**
 * Set up an allocator from a description.
 *
 * :param a: the allocator (fully initialised on success).
 * :param desc: the description; NULL means all defaults.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_SIZE_RANGE for sizes outside
 *           1..SA_ALLOC_MAX (or MCM with read-port pairs and more than 8
 *           outputs); SA_ERR_PARAM_RANGE for an unknown kind, iterations
 *           below -1, network_inputs or no_connect bits outside the sizes,
 *           read_port_pairs with an odd number of inputs, or the Rotary Rule
 *           on an algorithm that does not define it.  On error a is not
 *           changed.
 * :paper: seed 002 Sections 3.1-3.4.
 */
SA_API sa_result sa_alloc_init(sa_alloc *a, const sa_alloc_desc *desc) {
    int i, n, m, k;
    sa_alloc_kind kind = desc ? desc->kind : SA_ALLOC_SPAA;
    int rotary = desc ? desc->rotary != 0 : 0, pairs = desc ? desc->read_port_pairs != 0 : 0;
    uint64_t net = desc ? desc->network_inputs : 0;
    if (a == NULL) return SA_ERR_NULL;
    n = desc && desc->num_inputs ? desc->num_inputs : 16;
    m = desc && desc->num_outputs ? desc->num_outputs : 7;
    k = desc && desc->iterations ? desc->iterations : 1;
    if ((int)kind < 0 || kind >= SA_ALLOC_KIND_COUNT) return SA_ERR_PARAM_RANGE;
    if (n < 1 || n > SA_ALLOC_MAX || m < 1 || m > SA_ALLOC_MAX) return SA_ERR_SIZE_RANGE;
    if (k < SA_ITERATE_TO_CONVERGENCE) return SA_ERR_PARAM_RANGE;
    if (net & ~sa__low_mask(n)) return SA_ERR_PARAM_RANGE;
    if (pairs && (n & 1)) return SA_ERR_PARAM_RANGE;
    if (pairs && kind == SA_ALLOC_MCM && m > 8) return SA_ERR_SIZE_RANGE;
    if (rotary && kind != SA_ALLOC_SPAA && kind != SA_ALLOC_WFA &&
        kind != SA_ALLOC_WFA_WRAPPED && kind != SA_ALLOC_PIM) return SA_ERR_PARAM_RANGE;
    for (i = 0; desc && i < SA_ALLOC_MAX; i++)
        if (i >= n ? desc->no_connect[i] != 0 : (desc->no_connect[i] & ~sa__low_mask(m)) != 0)
            return SA_ERR_PARAM_RANGE;
    a->kind = kind;
    a->num_inputs = n;
    a->num_outputs = m;
    a->iterations = k;
    a->rotary = rotary;
    a->read_port_pairs = pairs;
    a->network_inputs = net;
    sa_rng_seed(&a->rng, desc ? desc->seed : 0);
    a->start_row = a->start_col = 0;
    for (i = 0; i < SA_ALLOC_MAX; i++) {
        a->connect[i] = i < n ? sa__low_mask(m) & ~(desc ? desc->no_connect[i] : 0) : 0;
        a->in_ptr[i] = a->out_ptr[i] = 0;
    }
    a->spaa_in_lw = (uint8_t)sa__lrs_bank_lw(m);
    a->spaa_out_lw = (uint8_t)sa__lrs_bank_lw(n);
    a->spaa_in_words = (uint8_t)sa__lrs_bank_words(n, a->spaa_in_lw);
    a->spaa_out_words = (uint8_t)sa__lrs_bank_words(m, a->spaa_out_lw);
    sa__lrs_bank_init(a->spaa_in, n, m);
    sa__lrs_bank_init(a->spaa_out, m, n);
    sa__zero_words(a->spaa_connect, SA__SPAA_WORDS);
    for (i = 0; i < n; i++) sa__lane_or(a->spaa_connect, i, a->spaa_in_lw, a->connect[i]);
    if (a->rotary && a->kind == SA_ALLOC_WFA && a->network_inputs)
        a->start_row = (uint8_t)sa__ctz64(a->network_inputs);
    return SA_OK;
}

/**
 * Check a request set against an allocator's sizes (the error-returning
 * form of sa_allocate's precondition).
 *
 * :param a: the allocator.
 * :param req: num_inputs request masks.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_REQUEST_RANGE if a mask has a bit
 *           at or above num_outputs.
 */
SA_API sa_result sa_alloc_check_requests(const sa_alloc *a, const uint64_t *req) {
    int i;
    uint64_t all = 0;
    if (a == NULL || req == NULL) return SA_ERR_NULL;
    for (i = 0; i < a->num_inputs; i++) all |= req[i];
    return (all & ~sa__low_mask(a->num_outputs)) ? SA_ERR_REQUEST_RANGE : SA_OK;
}

/**
 * Human-readable name of an allocation algorithm ("SPAA", "WFA", ...).
 *
 * :param kind: the algorithm.
 * :returns: a static string; "unknown" for an invalid kind.
 */
SA_API const char *sa_alloc_kind_name(sa_alloc_kind kind) {
    static const char *names[SA_ALLOC_KIND_COUNT] = {
        "SPAA", "WFA", "WFA-wrapped", "PIM", "iSLIP", "OPF", "separable-input-first",
        "separable-output-first", "MCM" };
    return ((int)kind >= 0 && kind < SA_ALLOC_KIND_COUNT) ? names[kind] : "unknown";
}

/* Empty a matching. */
SA_API void sa__match_clear(sa_match *mt) {
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX % 16 == 0
    int i;
    for (i = 0; i < SA_ALLOC_MAX; i += 16) {
        _mm_storeu_si128((__m128i *)(void *)(mt->output_of + i), _mm_set1_epi8(-1));
        _mm_storeu_si128((__m128i *)(void *)(mt->input_of + i), _mm_set1_epi8(-1));
    }
#else
    memset(mt->output_of, 0xFF, sizeof mt->output_of);
    memset(mt->input_of, 0xFF, sizeof mt->input_of);
#endif
    mt->size = 0;
    mt->inputs = mt->outputs = 0;
}

/* Add the pair (i, j) to a matching. */
SA_API void sa__match_add(sa_match *mt, int i, int j) {
    mt->output_of[i] = (int8_t)j;
    mt->input_of[j] = (int8_t)i;
    mt->inputs |= (uint64_t)1 << i;
    mt->outputs |= (uint64_t)1 << j;
    mt->size++;
}

/* Outputs input i may not take because its twin read port holds output k
 * (k < 0: the twin holds nothing). */
SA_API uint64_t sa__twin_block(const sa_read_buffer *bufs, int i, int k) {
    return (bufs == NULL || k < 0) ? 0 : sa_read_buffer_clash(&bufs[i >> 1], k);
}

/* Outputs input i may not take given the matching so far (pairing only). */
SA_API uint64_t sa__blocked(const sa_alloc *a, const sa_read_buffer *bufs,
                            const sa_match *mt, int i) {
    if (!a->read_port_pairs || bufs == NULL) return 0;
    return sa__twin_block(bufs, i, mt->output_of[i ^ 1]);
}

/* Precondition of sa_allocate (SA_ASSERT, debug builds): no request at or
 * above num_outputs. */
SA_API void sa__assert_requests(const sa_alloc *a, const uint64_t *req) {
#ifndef NDEBUG
    uint64_t all = 0;
    int i;
    for (i = 0; i < a->num_inputs; i++) all |= req[i];
    SA_ASSERT((all & ~sa__low_mask(a->num_outputs)) == 0);
#else
    (void)a;
    (void)req;
#endif
}

/* Effective requests: requests on connected cells only. */
SA_API void sa__effective(const sa_alloc *a, const uint64_t *req, uint64_t *eff) {
    int i;
    sa__assert_requests(a, req);
#ifdef SA_SIMD_SSE2
    /* two rows per instruction (a plain -O2 build keeps the loop scalar) */
    for (i = 0; i + 2 <= a->num_inputs; i += 2)
        _mm_storeu_si128((__m128i *)(void *)(eff + i),
                         _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + i)),
                                       _mm_loadu_si128((const __m128i *)(const void *)(a->connect + i))));
    if (i < a->num_inputs) eff[i] = req[i] & a->connect[i];
#else
    for (i = 0; i < a->num_inputs; i++) eff[i] = req[i] & a->connect[i];
#endif
}

/* ---------------- SPAA (seed 002 Section 3.3) ---------------- */

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* Index of the set bit of every byte (one-hot or zero) of v; -1 for 0:
 * its three bits, each the minimum of a masked byte and the bit's value. */
SA_API __m128i sa__bit_index8_sse2(__m128i v) {
    __m128i b0 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xAA)), _mm_set1_epi8(1));
    __m128i b1 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xCC)), _mm_set1_epi8(2));
    __m128i b2 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xF0)), _mm_set1_epi8(4));
    return _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()), b0), _mm_or_si128(b1, b2));
}

/* Index of the set bit of every 16-bit lane (one-hot or zero) of v, -1 for
 * 0, as bytes 0..7 (bytes 8..15 are -1): the exponent of the lane
 * converted to float (exact for powers of two). */
SA_API __m128i sa__bit_index16_sse2(__m128i v) {
    const __m128i z = _mm_setzero_si128();
    __m128i lo = _mm_castps_si128(_mm_cvtepi32_ps(_mm_unpacklo_epi16(v, z)));
    __m128i hi = _mm_castps_si128(_mm_cvtepi32_ps(_mm_unpackhi_epi16(v, z)));
    __m128i e = _mm_packs_epi32(_mm_srli_epi32(lo, 23), _mm_srli_epi32(hi, 23));
    e = _mm_max_epi16(_mm_sub_epi16(e, _mm_set1_epi16(127)), _mm_set1_epi16(-1));
    return _mm_packs_epi16(e, _mm_set1_epi8(-1));
}

/* The output bank's lanes from one-hot nomination bytes x of up to 16
 * inputs and m <= 8 outputs (lane j: bit i set when byte i of x has bit
 * j): one movemask per output (doubling every byte moves the next lower
 * bit to the top), in two chains of doublings (bits 7..4 of x, and bits
 * 3..0 from x shifted up four bits: a 16-bit shift, whose bits carried
 * into the next byte never reach its top in three doublings), combined in
 * general registers into 16-bit lanes (lwo 4) or bytes (lwo 3, bytes
 * 8..15 of x zero).  Shorter chains than inserting each mask into its
 * lane (pinsrw). */
SA_API __m128i sa__nom_columns_sse2(__m128i x, int lwo, int m) {
    __m128i y = _mm_slli_epi16(x, 4);
    uint64_t m7 = m > 7 ? (unsigned)_mm_movemask_epi8(x) : 0, m6, m5, m4, m3, m2, m1, m0;
    m3 = (unsigned)_mm_movemask_epi8(y);
    x = _mm_add_epi8(x, x);
    y = _mm_add_epi8(y, y);
    m6 = (unsigned)_mm_movemask_epi8(x);
    m2 = (unsigned)_mm_movemask_epi8(y);
    x = _mm_add_epi8(x, x);
    y = _mm_add_epi8(y, y);
    m5 = (unsigned)_mm_movemask_epi8(x);
    m1 = (unsigned)_mm_movemask_epi8(y);
    x = _mm_add_epi8(x, x);
    y = _mm_add_epi8(y, y);
    m4 = (unsigned)_mm_movemask_epi8(x);
    m0 = (unsigned)_mm_movemask_epi8(y);
    if (lwo == 4)
        return _mm_set_epi64x((long long)(((m7 << 48) | (m6 << 32) | (m5 << 16)) | m4),
                              (long long)(((m3 << 48) | (m2 << 32) | (m1 << 16)) | m0));
    return _mm_cvtsi64_si128((long long)((((m7 << 56) | (m6 << 48)) | ((m5 << 40) | (m4 << 32)) |
                                          ((m3 << 24) | (m2 << 16)) | (m1 << 8)) | m0));
}

/* Bits 0..15 of x (in its low bytes) spread over the 16 bytes: all ones in
 * byte i when bit i is set (sa__expand_bits16 without the trip through a
 * general register). */
SA_API __m128i sa__expand_low16_sse2(__m128i e) {
    const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1,
                                     -128, 64, 32, 16, 8, 4, 2, 1);
    e = _mm_unpacklo_epi8(e, e);
    e = _mm_unpacklo_epi16(e, e);
    e = _mm_unpacklo_epi32(e, e);
    return _mm_cmpeq_epi8(_mm_and_si128(e, sel), sel);
}

/* Bank select on one register x of lanes with its planes in p[0..lw),
 * winner's rank bits to k[0..lw) (as sa__lrs_bank_select_sse2). */
#define SA__SEL_REG(b) \
    if ((b) < lw) { \
        __m128i z_ = _mm_andnot_si128(p[b], x); \
        k[b] = sa__lanes_zero_sse2(z_, lw); \
        x = _mm_or_si128(z_, _mm_and_si128(k[b], x)); \
    } else { \
        k[b] = _mm_setzero_si128(); \
    }
SA_API __m128i sa__lrs_select_regs_sse2(const __m128i *p, __m128i x, __m128i *k, int lw) {
    SA__PLANES_DOWN(SA__SEL_REG)
    return x;
}
#undef SA__SEL_REG

/* Bank update of one register of lanes with its planes in p[0..lw) and the
 * winners' rank bits in k (as sa__lrs_bank_update_sse2). */
SA_API void sa__lrs_update_regs_sse2(__m128i *p, __m128i g, const __m128i *k, int lw, int size) {
    __m128i eq = _mm_andnot_si128(sa__lanes_zero_sse2(g, lw), _mm_set1_epi8(-1));
    __m128i gt = _mm_setzero_si128(), bo;
#define SA__CMP(b) \
    if ((b) < lw) { \
        gt = _mm_or_si128(gt, _mm_and_si128(eq, _mm_andnot_si128(k[b], p[b]))); \
        if ((b) > 0) eq = _mm_andnot_si128(_mm_xor_si128(p[b], k[b]), eq); \
    }
#define SA__DEC(b) \
    if ((b) < lw) { \
        __m128i x_ = _mm_xor_si128(p[b], bo); \
        bo = _mm_andnot_si128(p[b], bo); \
        p[b] = ((size - 1) >> (b)) & 1 ? _mm_or_si128(x_, g) : _mm_andnot_si128(g, x_); \
    }
    SA__PLANES_DOWN(SA__CMP)
    bo = gt;
    SA__PLANES_UP(SA__DEC)
#undef SA__CMP
#undef SA__DEC
}

/* sa_spaa_grant's SSE2 path, n <= 16 input arbiters and m <= 8 outputs:
 * steps 2-3 in SSE2 registers (input bank: 16 byte lanes, 3 planes; output
 * bank: lwo 3 (n <= 8) or 4).  Same decisions and state as
 * sa__spaa_columns + sa__spaa_grant_lanes.  Its declarations and loads: */
#define SA__SPAA_SMALL_DECL(LWO) \
    const int S = SA__SPAA_WORDS; \
    int n = a->num_inputs, i; \
    __m128i p[6], q[6], kin[6], kout[6], x, col, g, h, gin; \
    unsigned gbits, outs; \
    for (i = 0; i < 6; i++) p[i] = q[i] = _mm_setzero_si128(); \
    for (i = 0; i < 3; i++) p[i] = SA__LD(a->spaa_in + i * S); \
    for (i = 0; i < LWO; i++) q[i] = SA__LD(a->spaa_out + i * S);
/* Steps 2-3 of the SSE2 paths up to 16 x 8, from the one-hot nominations x
 * (16 byte lanes) and their rank bits kin. */
#define SA__SPAA_SMALL_GRANT(LWO) \
    /* Nominating inputs of each output: the output bank's lanes. */ \
    col = sa__nom_columns_sse2(x, LWO, a->num_outputs); \
    if (a->rotary && a->network_inputs) { \
        __m128i nw = LWO == 4 ? _mm_set1_epi16((short)a->network_inputs) \
                              : _mm_set1_epi8((char)a->network_inputs); \
        __m128i cn = _mm_and_si128(col, nw); \
        col = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, LWO), col)); \
    } \
    /* Step 2: grants (output bank select), recorded in the output bank. */ \
    g = sa__lrs_select_regs_sse2(q, col, kout, LWO); \
    sa__lrs_update_regs_sse2(q, g, kout, LWO, n); \
    /* Granted inputs: the OR of the grant lanes, spread over the input \
     * lanes; their nominations are recorded in the input bank. */ \
    if (LWO == 4) { \
        h = _mm_or_si128(g, _mm_srli_si128(g, 8)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 4)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 2)); \
    } else { \
        h = _mm_or_si128(g, _mm_srli_si128(g, 4)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 2)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 1)); \
    } \
    gbits = (unsigned)_mm_cvtsi128_si32(h) & (LWO == 4 ? 0xFFFFu : 0xFFu); \
    gin = _mm_and_si128(x, sa__expand_low16_sse2(h)); \
    sa__lrs_update_regs_sse2(p, gin, kin, 3, a->num_outputs); \
    for (i = 0; i < 3; i++) SA__ST(a->spaa_in + i * S, p[i]); \
    for (i = 0; i < LWO; i++) SA__ST(a->spaa_out + i * S, q[i]); \
    /* The matching. */ \
    SA__ST(mt->output_of, sa__bit_index8_sse2(gin)); \
    if (LWO == 4) { \
        SA__ST(mt->input_of, sa__bit_index16_sse2(g)); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(g, _mm_setzero_si128()), g)) & 0xFFu; \
    } else { \
        SA__ST(mt->input_of, sa__bit_index8_sse2(g)); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(g, _mm_setzero_si128())) & 0xFFu; \
    } \
    for (i = 16; i + 16 <= SA_ALLOC_MAX; i += 16) { \
        SA__ST(mt->output_of + i, _mm_set1_epi8(-1)); \
        SA__ST(mt->input_of + i, _mm_set1_epi8(-1)); \
    } \
    for (; i < SA_ALLOC_MAX; i++) mt->output_of[i] = mt->input_of[i] = -1; \
    mt->inputs = gbits; \
    mt->outputs = outs; \
    mt->size = sa__bits(gbits); \
    return mt->size;
/* sa_spaa_grant's SSE2 path up to 16 x 8: the one-hot nominations from the
 * nomination bytes, their rank bits from the planes (the input arbiters
 * may have moved since the nomination). */
#define SA__SPAA_GRANT_BODY(LWO) { \
    SA__SPAA_SMALL_DECL(LWO) \
    x = sa__onehot_bytes_sse2(nomination, n); \
    for (i = 0; i < 3; i++) \
        kin[i] = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(p[i], x), _mm_setzero_si128()), \
                                  _mm_set1_epi8(-1)); \
    SA__SPAA_SMALL_GRANT(LWO) \
}
/* One-hot bytes (bit nomination[i] of byte i; 0 for -1) of n <= 16
 * nominations, each below 8. */
SA_API __m128i sa__onehot_bytes_sse2(const int8_t *nomination, int n) {
    __m128i v, x = _mm_setzero_si128();
    int j;
    if (n == 16) {
        v = SA__LD(nomination);
    } else {
        int8_t t[16];
        for (j = 0; j < 16; j++) t[j] = j < n ? nomination[j] : -1;
        v = SA__LD(t);
    }
    for (j = 0; j < 8; j++)
        x = _mm_or_si128(x, _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)j)),
                                          _mm_set1_epi8((char)(1 << j))));
    return x;
}
SA_API int sa__spaa_grant_sse2_3(sa_alloc *a, const int8_t *nomination, sa_match *mt)
    SA__SPAA_GRANT_BODY(3)
SA_API int sa__spaa_grant_sse2_4(sa_alloc *a, const int8_t *nomination, sa_match *mt)
    SA__SPAA_GRANT_BODY(4)
/* m[7-t] = bit 7-t of every byte of x (movemask after t doublings). */
SA_API void sa__byte_bit_masks_sse2(__m128i x, uint64_t *m) {
    m[7] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[6] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[5] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[4] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[3] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[2] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[1] = (unsigned)_mm_movemask_epi8(x);
    x = _mm_add_epi8(x, x);
    m[0] = (unsigned)_mm_movemask_epi8(x);
}

/* Rows req[r..r+4) (low 16 bits) as four 32-bit lanes. */
SA_API __m128i sa__rows4_32_sse2(const uint64_t *req) {
    const __m128i lo16 = _mm_set1_epi64x(0xFFFF);
    __m128i a = _mm_shuffle_epi32(_mm_and_si128(SA__LD(req), lo16), _MM_SHUFFLE(3, 1, 2, 0));
    __m128i b = _mm_shuffle_epi32(_mm_and_si128(SA__LD(req + 2), lo16), _MM_SHUFFLE(3, 1, 2, 0));
    return _mm_unpacklo_epi64(a, b);
}

/* Rows req[r..r+8) (low 16 bits) as eight 16-bit lanes (biased by 2^15 so
 * that the signed saturating pack is exact). */
SA_API __m128i sa__rows8_16_sse2(const uint64_t *req) {
    const __m128i bias = _mm_set1_epi32(0x8000);
    __m128i a = _mm_sub_epi32(sa__rows4_32_sse2(req), bias);
    __m128i b = _mm_sub_epi32(sa__rows4_32_sse2(req + 4), bias);
    return _mm_add_epi16(_mm_packs_epi32(a, b), _mm_set1_epi16(-0x8000));
}

/* SPAA, whole allocation, n <= 16 input arbiters and 9 <= m <= 16 outputs,
 * no priorities, no read-port pairing: as sa__spaa_reg_sse2_3/_4 with the
 * input bank in 16-bit lanes, two registers per plane (rows 0-7, 8-15),
 * and the output bank in two registers per plane when lwo is 4. */
#define SA__SPAA_MID_BODY(LWO) { \
    const int S = SA__SPAA_WORDS; \
    int n = a->num_inputs, i; \
    __m128i pa[6], pb[6], qa[6], qb[6], ka[6], kb[6], koa[6], kob[6]; \
    __m128i xa, xb, ca, cb, ga, gb, h, e, gia, gib; \
    uint64_t w[4], mc[16]; \
    unsigned gbits, outs; \
    for (i = 0; i < 6; i++) pa[i] = pb[i] = qa[i] = qb[i] = _mm_setzero_si128(); \
    for (i = 0; i < 4; i++) { \
        pa[i] = SA__LD(a->spaa_in + i * S); \
        pb[i] = SA__LD(a->spaa_in + i * S + 2); \
    } \
    for (i = 0; i < (LWO); i++) { \
        qa[i] = SA__LD(a->spaa_out + i * S); \
        if ((LWO) == 4) qb[i] = SA__LD(a->spaa_out + i * S + 2); \
    } \
    for (i = 0; i < n; i++) SA_ASSERT((req[i] & ~sa__low_mask(a->num_outputs)) == 0); \
    /* Step 1: the rows in 16-bit lanes, nominations. */ \
    if (n == 16) { \
        xa = sa__rows8_16_sse2(req); \
        xb = sa__rows8_16_sse2(req + 8); \
    } else { \
        w[0] = w[1] = w[2] = w[3] = 0; \
        for (i = 0; i < n; i++) w[i >> 2] |= (req[i] & 0xFFFF) << ((i & 3) << 4); \
        xa = _mm_set_epi64x((long long)w[1], (long long)w[0]); \
        xb = _mm_set_epi64x((long long)w[3], (long long)w[2]); \
    } \
    xa = _mm_and_si128(xa, SA__LD(a->spaa_connect)); \
    xb = _mm_and_si128(xb, SA__LD(a->spaa_connect + 2)); \
    xa = sa__lrs_select_regs_sse2(pa, xa, ka, 4); \
    xb = sa__lrs_select_regs_sse2(pb, xb, kb, 4); \
    /* The output bank's lanes: outputs 0-7 from the low bytes of the \
     * nominations, 8-15 from the high bytes. */ \
    sa__byte_bit_masks_sse2(_mm_packus_epi16(_mm_and_si128(xa, _mm_set1_epi16(0xFF)), \
                                             _mm_and_si128(xb, _mm_set1_epi16(0xFF))), mc); \
    sa__byte_bit_masks_sse2(_mm_packus_epi16(_mm_srli_epi16(xa, 8), _mm_srli_epi16(xb, 8)), mc + 8); \
    if ((LWO) == 4) { \
        ca = _mm_set_epi64x((long long)(mc[4] | (mc[5] << 16) | (mc[6] << 32) | (mc[7] << 48)), \
                            (long long)(mc[0] | (mc[1] << 16) | (mc[2] << 32) | (mc[3] << 48))); \
        cb = _mm_set_epi64x((long long)(mc[12] | (mc[13] << 16) | (mc[14] << 32) | (mc[15] << 48)), \
                            (long long)(mc[8] | (mc[9] << 16) | (mc[10] << 32) | (mc[11] << 48))); \
    } else { \
        ca = _mm_set_epi64x((long long)((mc[8] | (mc[9] << 8)) | ((mc[10] << 16) | (mc[11] << 24)) | \
                                        ((mc[12] << 32) | (mc[13] << 40)) | ((mc[14] << 48) | (mc[15] << 56))), \
                            (long long)((mc[0] | (mc[1] << 8)) | ((mc[2] << 16) | (mc[3] << 24)) | \
                                        ((mc[4] << 32) | (mc[5] << 40)) | ((mc[6] << 48) | (mc[7] << 56)))); \
        cb = _mm_setzero_si128(); \
    } \
    if (a->rotary && a->network_inputs) { \
        __m128i nw = (LWO) == 4 ? _mm_set1_epi16((short)a->network_inputs) \
                                : _mm_set1_epi8((char)a->network_inputs); \
        __m128i cn = _mm_and_si128(ca, nw); \
        ca = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), ca)); \
        cn = _mm_and_si128(cb, nw); \
        cb = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), cb)); \
    } \
    /* Step 2: grants, recorded in the output bank. */ \
    ga = sa__lrs_select_regs_sse2(qa, ca, koa, (LWO)); \
    sa__lrs_update_regs_sse2(qa, ga, koa, (LWO), n); \
    gb = _mm_setzero_si128(); \
    if ((LWO) == 4) { \
        gb = sa__lrs_select_regs_sse2(qb, cb, kob, (LWO)); \
        sa__lrs_update_regs_sse2(qb, gb, kob, (LWO), n); \
        h = _mm_or_si128(ga, gb); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 8)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 4)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 2)); \
    } else { \
        h = _mm_or_si128(ga, _mm_srli_si128(ga, 8)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 4)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 2)); \
        h = _mm_or_si128(h, _mm_srli_si128(h, 1)); \
    } \
    /* Granted inputs, spread over the input lanes; recorded in the input \
     * bank. */ \
    gbits = (unsigned)_mm_cvtsi128_si32(h) & ((LWO) == 4 ? 0xFFFFu : 0xFFu); \
    e = sa__expand_low16_sse2(h); \
    gia = _mm_and_si128(xa, _mm_unpacklo_epi8(e, e)); \
    gib = _mm_and_si128(xb, _mm_unpackhi_epi8(e, e)); \
    sa__lrs_update_regs_sse2(pa, gia, ka, 4, a->num_outputs); \
    sa__lrs_update_regs_sse2(pb, gib, kb, 4, a->num_outputs); \
    for (i = 0; i < 4; i++) { \
        SA__ST(a->spaa_in + i * S, pa[i]); \
        SA__ST(a->spaa_in + i * S + 2, pb[i]); \
    } \
    for (i = 0; i < (LWO); i++) { \
        SA__ST(a->spaa_out + i * S, qa[i]); \
        if ((LWO) == 4) SA__ST(a->spaa_out + i * S + 2, qb[i]); \
    } \
    /* The matching. */ \
    SA__ST(mt->output_of, _mm_unpacklo_epi64(sa__bit_index16_sse2(gia), sa__bit_index16_sse2(gib))); \
    if ((LWO) == 4) { \
        SA__ST(mt->input_of, _mm_unpacklo_epi64(sa__bit_index16_sse2(ga), sa__bit_index16_sse2(gb))); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(ga, _mm_setzero_si128()), \
                                                            _mm_cmpeq_epi16(gb, _mm_setzero_si128()))) & 0xFFFFu; \
    } else { \
        SA__ST(mt->input_of, sa__bit_index8_sse2(ga)); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(ga, _mm_setzero_si128())) & 0xFFFFu; \
    } \
    for (i = 16; i + 16 <= SA_ALLOC_MAX; i += 16) { \
        SA__ST(mt->output_of + i, _mm_set1_epi8(-1)); \
        SA__ST(mt->input_of + i, _mm_set1_epi8(-1)); \
    } \
    for (; i < SA_ALLOC_MAX; i++) mt->output_of[i] = mt->input_of[i] = -1; \
    mt->inputs = gbits; \
    mt->outputs = outs; \
    if ((LWO) == 4) { \
        /* the count: the granted input bytes of e (exact for 16-bit \
         * grant lanes) summed */ \
        e = _mm_sad_epu8(_mm_sub_epi8(_mm_setzero_si128(), e), _mm_setzero_si128()); \
        mt->size = _mm_cvtsi128_si32(_mm_add_epi32(e, _mm_shuffle_epi32(e, _MM_SHUFFLE(1, 0, 3, 2)))); \
    } else { \
        mt->size = sa__bits(gbits); \
    } \
    return mt->size; \
}
SA_API int sa__spaa_mid_sse2_3(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_MID_BODY(3)
SA_API int sa__spaa_mid_sse2_4(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_MID_BODY(4)

/* ---- SPAA straight-line register path: n <= 16 input arbiters over
 * m <= 8 outputs (input bank: 16 byte lanes, one register per plane;
 * output bank: one register per plane, lanes of 8 bits (n <= 8) or 16). */

/* Rows req[r] and req[r + 1] as one register (rows at or above n are not
 * read: zero). */
SA_API __m128i sa__row_pair_sse2(const uint64_t *req, int r, int n) {
    if (r + 1 < n) return SA__LD(req + r);
    if (r < n) return _mm_loadl_epi64((const __m128i *)(const void *)(req + r));
    return _mm_setzero_si128();
}

/* The low 32 bits of rows req[r..r+4) (zero at or above n) as four 32-bit
 * lanes. */
SA_API __m128i sa__rows4_lo32_sse2(const uint64_t *req, int r, int n) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(sa__row_pair_sse2(req, r, n)),
                                           _mm_castsi128_ps(sa__row_pair_sse2(req, r + 2, n)),
                                           _MM_SHUFFLE(2, 0, 2, 0)));
}

/* The low bytes of the rows req[0..n) (n <= 16) as the bytes of a
 * register, bytes n..15 zero (bits above 7 are dropped, as the connection
 * mask would drop them).  n is a constant in the straight-line paths. */
SA_API __m128i sa__pack_bytes16_sse2(const uint64_t *req, int n) {
    const __m128i lo8 = _mm_set1_epi32(0xFF), z = _mm_setzero_si128();
    __m128i r0 = _mm_and_si128(sa__rows4_lo32_sse2(req, 0, n), lo8), r1, r2, r3;
    if (n <= 4) return _mm_packus_epi16(_mm_packs_epi32(r0, z), z);
    r1 = _mm_and_si128(sa__rows4_lo32_sse2(req, 4, n), lo8);
    if (n <= 8) return _mm_packus_epi16(_mm_packs_epi32(r0, r1), z);
    r2 = _mm_and_si128(sa__rows4_lo32_sse2(req, 8, n), lo8);
    r3 = n <= 12 ? z : _mm_and_si128(sa__rows4_lo32_sse2(req, 12, n), lo8);
    return _mm_packus_epi16(_mm_packs_epi32(r0, r1), _mm_packs_epi32(r2, r3));
}

/* Index of the set bit of every byte of v (one-hot or zero; 0 for 0): its
 * three bits, each the minimum of a masked byte and the bit's value. */
SA_API __m128i sa__onehot_index8_sse2(__m128i v) {
    __m128i b0 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xAA)), _mm_set1_epi8(1));
    __m128i b1 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xCC)), _mm_set1_epi8(2));
    __m128i b2 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xF0)), _mm_set1_epi8(4));
    return _mm_or_si128(_mm_or_si128(b0, b1), b2);
}

/* Number of set bits of an 8-bit x, from a table. */
SA_API int sa__bits8(unsigned x) {
#define SA__B2(k) k, k + 1, k + 1, k + 2
#define SA__B4(k) SA__B2(k), SA__B2(k + 1), SA__B2(k + 1), SA__B2(k + 2)
#define SA__B6(k) SA__B4(k), SA__B4(k + 1), SA__B4(k + 1), SA__B4(k + 2)
    static const uint8_t bits[256] = { SA__B6(0), SA__B6(1), SA__B6(1), SA__B6(2) };
#undef SA__B2
#undef SA__B4
#undef SA__B6
    return bits[x & 0xFFu];
}

/* One plane of a bank select on register x (lanes of 2^LW bits, plane P):
 * D gets P xor the winner's rank bit (over its lane; the winner's bit is
 * 1 in an empty lane).  Where the lane has a candidate with bit 0, D is P
 * and the candidates with bit 1 leave; elsewhere every candidate has bit
 * 1 and D clears none of them. */
#define SA__SEL1(x, P, D, LW) do { \
        __m128i z_ = _mm_andnot_si128((P), (x)); \
        z_ = (LW) == 3 ? _mm_cmpeq_epi8(z_, _mm_setzero_si128()) \
                       : _mm_cmpeq_epi16(z_, _mm_setzero_si128()); \
        (D) = _mm_xor_si128(z_, (P)); \
        (x) = _mm_andnot_si128((D), (x)); \
    } while (0)
/* New plane P of a bank update: T is the plane with the borrow applied, G
 * the winners (one-hot lanes), bit b of SIZE - 1 the winners' new rank bit. */
#define SA__NEWBIT(T, G, SIZE, b) \
    ((((SIZE) - 1) >> (b)) & 1 ? _mm_or_si128((T), (G)) : _mm_andnot_si128((G), (T)))
/* One step of the bit-serial comparison with the winners' ranks: plane P
 * (D: P xor the winner's bit) over the result GT of the lower planes;
 * where the rank bit differs from the winner's it decides, else GT
 * stands.  (The first step, plane 0, is P and D.) */
#define SA__GT1(GT, P, D) (GT) = _mm_xor_si128((GT), _mm_and_si128(_mm_xor_si128((GT), (P)), (D)))
/* One plane of a bank update: the borrow BO of the lower planes taken
 * from plane P (its new borrow: BO and not P, i.e. BO and P ^ BO), then
 * the winners G given bit b of SIZE - 1 (their new rank), stored at D. */
#define SA__UPD1(D, P, BO, G, SIZE, b) do { \
        __m128i t_ = _mm_xor_si128((P), (BO)); \
        (BO) = _mm_and_si128((BO), t_); \
        SA__ST((D), SA__NEWBIT(t_, (G), (SIZE), (b))); \
    } while (0)

/* The bits of plane P a bank update flips where it applies: the borrow
 * BO into the plane, and the winners' bits G (one-hot lanes) that differ
 * from bit b of SIZE - 1 (their new rank). */
#define SA__FLIP(BO, P, G, SIZE, b) \
    _mm_xor_si128((BO), (((SIZE) - 1) >> (b)) & 1 ? _mm_andnot_si128((P), (G)) : _mm_and_si128((P), (G)))

/* SPAA, whole allocation, N <= 16 input arbiters and M <= 8 outputs, no
 * priorities, no read-port pairing, straight-line in SSE2 registers; N and
 * M are constants where the caller's size is known.  Same decisions and
 * state as sa__spaa_nominate_lanes + sa__spaa_columns +
 * sa__spaa_grant_lanes.  The updates compare every rank with the winner's
 * (from the selections' rank bits, ahead of the grant) and then apply a
 * borrow chain only where the lane won.  An allocation is one chain of
 * dependent steps (pack, input select, columns, output select, granted
 * inputs, input update) longer than the out-of-order window can hide, so
 * work off that chain is done beside it (the input bank's flips, the
 * indices). */
#define SA__SPAA_REG_BODY(N, M, LWO) { \
    const int S = SA__SPAA_WORDS; \
    const __m128i z = _mm_setzero_si128(); \
    __m128i p0, p1, p2, q0, q1, q2, q3, x, c, g, b, e, ne_e, gt, bo, t, d0, d1, d2, f0, f1, f2, f3; \
    unsigned outs; \
    int i; \
    for (i = 0; i < (N); i++) SA_ASSERT((req[i] & ~sa__low_mask(M)) == 0); \
    /* Step 1: nominations (input bank select; d0..d2: planes xor the \
     * nominees' rank bits), and the ranks above each nominee's in its \
     * arbiter (bit-serial comparison, plane 0 first). */ \
    x = _mm_and_si128(sa__pack_bytes16_sse2(req, (N)), SA__LD(a->spaa_connect)); \
    p2 = SA__LD(a->spaa_in + 2 * S); \
    SA__SEL1(x, p2, d2, 3); \
    p1 = SA__LD(a->spaa_in + S); \
    SA__SEL1(x, p1, d1, 3); \
    p0 = SA__LD(a->spaa_in); \
    SA__SEL1(x, p0, d0, 3); \
    gt = _mm_and_si128(p0, d0); \
    SA__GT1(gt, p1, d1); \
    SA__GT1(gt, p2, d2); \
    /* Nominating inputs of each output: the output bank's lanes. */ \
    c = sa__nom_columns_sse2(x, (LWO), (M)); \
    if (a->rotary && a->network_inputs) { \
        __m128i nw = (LWO) == 4 ? _mm_set1_epi16((short)a->network_inputs) \
                                : _mm_set1_epi8((char)a->network_inputs); \
        __m128i cn = _mm_and_si128(c, nw); \
        c = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), c)); \
    } \
    /* Step 2: grants (output bank select; f0..f3 as d0..d2) and the \
     * output bank's update: every lane with a candidate has a winner (an \
     * empty lane's rank bits are all ones, so nothing ranks above them). */ \
    g = c; \
    q2 = SA__LD(a->spaa_out + 2 * S); \
    if ((LWO) == 4) { \
        q3 = SA__LD(a->spaa_out + 3 * S); \
        SA__SEL1(g, q3, f3, 4); \
    } \
    SA__SEL1(g, q2, f2, (LWO)); \
    q1 = SA__LD(a->spaa_out + S); \
    SA__SEL1(g, q1, f1, (LWO)); \
    q0 = SA__LD(a->spaa_out); \
    SA__SEL1(g, q0, f0, (LWO)); \
    bo = _mm_and_si128(q0, f0); \
    SA__GT1(bo, q1, f1); \
    SA__GT1(bo, q2, f2); \
    if ((LWO) == 4) SA__GT1(bo, q3, f3); \
    SA__UPD1(a->spaa_out, q0, bo, g, (N), 0); \
    SA__UPD1(a->spaa_out + S, q1, bo, g, (N), 1); \
    if ((LWO) == 4) { \
        SA__UPD1(a->spaa_out + 2 * S, q2, bo, g, (N), 2); \
        SA__ST(a->spaa_out + 3 * S, SA__NEWBIT(_mm_xor_si128(q3, bo), g, (N), 3)); \
    } else { \
        SA__ST(a->spaa_out + 2 * S, SA__NEWBIT(_mm_xor_si128(q2, bo), g, (N), 2)); \
    } \
    /* Granted inputs: the OR of the grant lanes, spread over the input \
     * lanes (e: all ones where granted, ne_e: all ones elsewhere). */ \
    if ((LWO) == 4) { \
        b = _mm_or_si128(g, _mm_shuffle_epi32(g, _MM_SHUFFLE(1, 0, 3, 2))); \
        b = _mm_or_si128(b, _mm_shuffle_epi32(b, _MM_SHUFFLE(2, 3, 0, 1))); \
        b = _mm_or_si128(b, _mm_shufflelo_epi16(b, _MM_SHUFFLE(2, 3, 0, 1))); \
        b = _mm_unpacklo_epi8(b, b); \
        b = _mm_shuffle_epi32(_mm_shufflelo_epi16(b, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(1, 1, 0, 0)); \
    } else { \
        b = _mm_or_si128(g, _mm_srli_epi64(g, 32)); \
        b = _mm_or_si128(b, _mm_srli_epi64(b, 16)); \
        b = _mm_or_si128(b, _mm_srli_epi64(b, 8)); \
        b = _mm_unpacklo_epi8(b, b); \
        b = _mm_move_epi64(_mm_shufflelo_epi16(b, _MM_SHUFFLE(0, 0, 0, 0))); \
    } \
    { \
        const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1); \
        b = _mm_and_si128(b, sel); \
        e = _mm_cmpeq_epi8(b, sel); \
        ne_e = _mm_cmpeq_epi8(b, z); \
    } \
    /* Input bank update where granted: the nominees take rank M-1, the \
     * ranks above them move down one (borrow chain).  The bits that would \
     * flip are found before the grant is known (off its critical path); \
     * e selects them. */ \
    SA__ST(a->spaa_in, _mm_xor_si128(p0, _mm_and_si128(e, SA__FLIP(gt, p0, x, (M), 0)))); \
    bo = _mm_andnot_si128(p0, gt); \
    SA__ST(a->spaa_in + S, _mm_xor_si128(p1, _mm_and_si128(e, SA__FLIP(bo, p1, x, (M), 1)))); \
    bo = _mm_andnot_si128(p1, bo); \
    SA__ST(a->spaa_in + 2 * S, _mm_xor_si128(p2, _mm_and_si128(e, SA__FLIP(bo, p2, x, (M), 2)))); \
    /* The matching. */ \
    SA__ST(mt->output_of, _mm_or_si128(sa__onehot_index8_sse2(x), ne_e)); \
    t = (LWO) == 4 ? sa__bit_index16_sse2(g) : sa__bit_index8_sse2(g); \
    SA__ST(mt->input_of, t); \
    outs = (unsigned)_mm_movemask_epi8(t) ^ 0xFFFFu; \
    mt->outputs = outs; \
    for (i = 16; i + 16 <= SA_ALLOC_MAX; i += 16) { \
        SA__ST(mt->output_of + i, _mm_set1_epi8(-1)); \
        SA__ST(mt->input_of + i, _mm_set1_epi8(-1)); \
    } \
    for (; i < SA_ALLOC_MAX; i++) mt->output_of[i] = mt->input_of[i] = -1; \
    mt->inputs = (unsigned)_mm_movemask_epi8(e); \
    mt->size = sa__bits8(outs); \
    return mt->size; \
}
SA_API int sa__spaa_reg_sse2_3(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(a->num_inputs, a->num_outputs, 3)
SA_API int sa__spaa_reg_sse2_4(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(a->num_inputs, a->num_outputs, 4)
/* The Alpha 21364's size, and the square ones of the benchmarks, with
 * their sizes constant. */
SA_API int sa__spaa_16x7_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(16, 7, 4)
SA_API int sa__spaa_8x8_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(8, 8, 3)
SA_API int sa__spaa_7x7_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(7, 7, 3)
#undef SA__SEL1
#undef SA__GT1
#undef SA__UPD1
#undef SA__FLIP
#undef SA__NEWBIT

/* The SSE2 paths up to 16 x 16 (both banks' lanes at most 16 bits). */
SA_API int sa__spaa_upto16_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    if (a->spaa_in_lw == 3) {
        int n = a->num_inputs, m = a->num_outputs;
        if (n == 8 && m == 8) return sa__spaa_8x8_sse2(a, req, mt);
        if (n == 7 && m == 7) return sa__spaa_7x7_sse2(a, req, mt);
        return a->spaa_out_lw == 4 ? sa__spaa_reg_sse2_4(a, req, mt) : sa__spaa_reg_sse2_3(a, req, mt);
    }
    return a->spaa_out_lw == 4 ? sa__spaa_mid_sse2_4(a, req, mt) : sa__spaa_mid_sse2_3(a, req, mt);
}
#endif

/* SPAA step 1 for every input arbiter at once: c receives, in the input
 * bank's lanes, the nominated output of each input arbiter (one-hot) or 0;
 * k (if not NULL; not with read-port pairing) the nominations' rank bits
 * (sa__lrs_bank_select).  With read-port pairing the even rows are
 * nominated first, then the odd rows without the outputs that clash with
 * their twin's nomination. */
/* The input bank's candidate lanes when its lanes are 64 bits wide: word i
 * is req[i] & connect[i] (input i's connected requests), the word after an
 * odd num_inputs zero. */
SA_API void sa__spaa_candidates6(const sa_alloc *a, const uint64_t *req, uint64_t *c) {
    int i = 0, n = a->num_inputs, words = a->spaa_in_words;
#ifndef NDEBUG
    for (i = 0; i < n; i++) SA_ASSERT((req[i] & ~sa__low_mask(a->num_outputs)) == 0);
    i = 0;
#endif
#ifdef SA_SIMD_SSE2
    for (; i + 2 <= n; i += 2) SA__ST(c + i, _mm_and_si128(SA__LD(req + i), SA__LD(a->connect + i)));
#endif
    for (; i < words; i++) c[i] = i < n ? req[i] & a->connect[i] : 0;
}

/* The rows of sa__spaa_nominate_lanes with the lane width LW a constant. */
#define SA__NOMINATE_ROWS(LW) { \
        for (i = 0; i < n; i += step) { \
            uint64_t r = req[i] & a->connect[i]; \
            SA_ASSERT((req[i] & ~sa__low_mask(m)) == 0); \
            if (prio != NULL && r != 0) r = sa__top_priority_n(r, prio + (size_t)i * (size_t)m, m); \
            sa__lane_or(c, i, (LW), r); \
        } \
        sa__lrs_bank_select(a->spaa_in, c, pairs ? NULL : k, words, (LW)); \
        if (pairs) { \
            sa__zero_words(odd, words); \
            for (i = 1; i < n; i += 2) { \
                uint64_t r = req[i] & a->connect[i], twin = sa__lane_get(c, i - 1, (LW)); \
                SA_ASSERT((req[i] & ~sa__low_mask(m)) == 0); \
                if (twin) r &= ~sa_read_buffer_clash(&bufs[i >> 1], sa__ctz64(twin)); \
                if (prio != NULL && r != 0) r = sa__top_priority_n(r, prio + (size_t)i * (size_t)m, m); \
                sa__lane_or(odd, i, (LW), r); \
            } \
            sa__lrs_bank_select(a->spaa_in, odd, NULL, words, (LW)); \
            for (w = 0; w < words; w++) c[w] |= odd[w]; \
        } \
    }
SA_API void sa__spaa_nominate_lanes(const sa_alloc *a, const uint64_t *req, const uint8_t *prio,
                                    const sa_read_buffer *bufs, uint64_t *c, uint64_t *k) {
    int i, w, n = a->num_inputs, m = a->num_outputs, lw = a->spaa_in_lw, words = a->spaa_in_words;
    int pairs = a->read_port_pairs && bufs != NULL, step = pairs ? 2 : 1;
    uint64_t odd[SA__SPAA_WORDS];
    if (lw == 6 && prio == NULL && !pairs) {
        sa__spaa_candidates6(a, req, c);
        sa__lrs_bank_select(a->spaa_in, c, k, words, lw);
        return;
    }
    sa__zero_words(c, words);
    switch (lw) {
    case 3: SA__NOMINATE_ROWS(3) break;
    case 4: SA__NOMINATE_ROWS(4) break;
    case 5: SA__NOMINATE_ROWS(5) break;
    default: SA__NOMINATE_ROWS(6) break;
    }
}

/* Bytes 0..3 of x to the low bytes of four 16-bit lanes. */
SA_API uint64_t sa__spread_bytes16(uint64_t x) {
    x &= 0xFFFFFFFFull;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
    return (x | (x << 8)) & 0x00FF00FF00FF00FFull;
}

/* sa__spaa_columns when both banks have 64-bit lanes: col[j] (64 words)
 * receives bit i for every c[i] = 1 << j (i < n; c[i] one-hot or 0);
 * returns the mask of nominated outputs. */
SA_API uint64_t sa__spaa_columns6(const uint64_t *c, int n, uint64_t *col) {
    uint64_t outs = 0, bit = 1;
    int i;
    sa__zero_words(col, SA__SPAA_WORDS);
    for (i = 0; i < n; i++, bit <<= 1) {
        uint64_t x = c[i];
        outs |= x;
        /* x 0: ORs 0 into the last word */
        col[sa__ctz64(x | ((uint64_t)1 << (SA__SPAA_WORDS - 1)))] |= bit & (0 - (uint64_t)(x != 0));
    }
    return outs;
}

/* The output bank's candidate lanes (lane j: the input arbiters that
 * nominated output j) from the input bank's nomination lanes c. */
SA_API void sa__spaa_columns(const sa_alloc *a, const uint64_t *c, uint64_t *col) {
    int i, w, n = a->num_inputs, lwi = a->spaa_in_lw, lwo = a->spaa_out_lw;
    if (lwi == 3 && lwo <= 4) {
        /* Up to 16 x 8: two 8 x 8 bit transposes, interleaved by bytes. */
        uint64_t t0 = sa__transpose8(c[0]), t1;
        if (lwo == 3) {
            col[0] = t0;
            col[1] = 0;
            return;
        }
        t1 = sa__transpose8(c[1]);
        col[0] = sa__spread_bytes16(t0) | (sa__spread_bytes16(t1) << 8);
        col[1] = sa__spread_bytes16(t0 >> 32) | (sa__spread_bytes16(t1 >> 32) << 8);
        return;
    }
    if (lwi == 6 && lwo == 6) {
        (void)sa__spaa_columns6(c, n, col);
        return;
    }
    sa__zero_words(col, a->spaa_out_words);
    if (lwi == 6) {
        /* One word per input arbiter. */
        for (i = 0; i < n; i++) {
            uint64_t x = c[i];
            sa__lane_or(col, x ? sa__ctz64(x) : 0, lwo, (uint64_t)(x != 0) << i);
        }
        return;
    }
    for (w = 0; w < a->spaa_in_words; w++) {
        uint64_t x;
        for (x = c[w]; x; x &= x - 1) {
            int bit = (w << 6) + sa__ctz64(x);
            sa__lane_or(col, bit & ((1 << lwi) - 1), lwo, (uint64_t)1 << (bit >> lwi));
        }
    }
}

#if SA_ALLOC_MAX > 32 && defined(SA_SIMD_SSE2)
/* sa__spaa_grant_lw6 in one pass (SSE2, with the nominations' rank bits
 * kin): the nominated outputs (outs) two at a time, their grant and record
 * in the output bank, the matching, then the record of the two granted
 * inputs in the input bank.  col is read, not written (the winners stay
 * in a local buffer).  SZO, SZI: the banks' sizes (num_inputs,
 * num_outputs), constants 64 in the 64 x 64 instance. */
#define SA__GRANT6_BODY(SZO, SZI) { \
    uint64_t bits, ins = 0, kout[6 * (SA_ALLOC_MAX + 2)], xs[SA_ALLOC_MAX + 2]; \
    uint64_t pout[6 * (SA_ALLOC_MAX + 2)]; \
    uint8_t orow[SA_ALLOC_MAX + 2]; \
    const __m128i pref = _mm_set1_epi64x((long long)a->network_inputs); \
    int t, count = 0, rot = a->rotary && a->network_inputs != 0; \
    sa__match_clear(match); \
    for (bits = outs; bits != 0; bits &= bits - 1) orow[count++] = (uint8_t)sa__ctz64(bits); \
    orow[count] = orow[count - (count > 0)]; /* an odd count: the last with itself */ \
    /* Software-pipelined, two outputs at a time: the grant (select) of \
     * pair t, whose dependency chain is long, beside the independent \
     * work of pair t - 2 (its records in both banks and the matching). */ \
    for (t = 0; t < count + 2; t += 2) { \
        if (t < count) { \
            int ra = orow[t], rb = orow[t + 1]; \
            const uint64_t *pa = a->spaa_out + ra, *pb = a->spaa_out + rb; \
            __m128i x = sa__ld_pair(col + ra, col + rb), z, e, pv; \
            if (rot) { \
                __m128i xp = _mm_and_si128(x, pref); \
                x = _mm_or_si128(xp, _mm_and_si128(sa__lanes_zero64_sse2(xp), x)); \
            } \
            SA__L6_SELK(5) SA__L6_SELK(4) SA__L6_SELK(3) SA__L6_SELK(2) SA__L6_SELK(1) SA__L6_SELK(0) \
            SA__ST(xs + t, x); \
        } \
        if (t > 0) { \
            uint64_t ga = xs[t - 2], gb = xs[t - 1]; \
            int ja = orow[t - 2], jb = orow[t - 1], ia = sa__ctz64(ga), ib = sa__ctz64(gb); \
            { \
                int ra = ja, rb = jb, s = t - 2; \
                uint64_t *pa = a->spaa_out + ra, *pb = a->spaa_out + rb; \
                __m128i p0, p1, p2, p3, p4, p5, kb, y, bo, gt = _mm_setzero_si128(); \
                __m128i x = SA__LD(xs + s); \
                SA__L6_CMPC(0) SA__L6_CMPC(1) SA__L6_CMPC(2) SA__L6_CMPC(3) SA__L6_CMPC(4) SA__L6_CMPC(5) \
                bo = gt; \
                SA__L6_DEC(0, SZO) SA__L6_DEC(1, SZO) SA__L6_DEC(2, SZO) \
                SA__L6_DEC(3, SZO) SA__L6_DEC(4, SZO) SA__L6_DEC(5, SZO) \
            } \
            match->input_of[ja] = (int8_t)ia; \
            match->output_of[ia] = (int8_t)ja; \
            match->input_of[jb] = (int8_t)ib; \
            match->output_of[ib] = (int8_t)jb; \
            ins |= ga | gb; \
            { \
                int ra = ia, rb = ib; \
                const uint64_t *k = kin; \
                uint64_t *pa = a->spaa_in + ra, *pb = a->spaa_in + rb; \
                __m128i p0, p1, p2, p3, p4, p5, kb, y, bo, gt = _mm_setzero_si128(); \
                __m128i x = _mm_set_epi64x((long long)((uint64_t)1 << jb), (long long)((uint64_t)1 << ja)); \
                SA__L6_CMP(0) SA__L6_CMP(1) SA__L6_CMP(2) SA__L6_CMP(3) SA__L6_CMP(4) SA__L6_CMP(5) \
                bo = gt; \
                SA__L6_DEC(0, SZI) SA__L6_DEC(1, SZI) SA__L6_DEC(2, SZI) \
                SA__L6_DEC(3, SZI) SA__L6_DEC(4, SZI) SA__L6_DEC(5, SZI) \
            } \
        } \
    } \
    match->inputs = ins; \
    match->outputs = outs; \
    match->size = count; \
    return count; \
}
SA_API int sa__spaa_grant6_64_sse2(sa_alloc *a, uint64_t *col, uint64_t outs,
                                   const uint64_t *kin, sa_match *match)
    SA__GRANT6_BODY(64, 64)
SA_API int sa__spaa_grant6_any_sse2(sa_alloc *a, uint64_t *col, uint64_t outs,
                                    const uint64_t *kin, sa_match *match)
    SA__GRANT6_BODY(a->num_inputs, a->num_outputs)

/* Both: the 64 x 64 instance or the one for any size. */
SA_API int sa__spaa_grant6_sse2(sa_alloc *a, uint64_t *col, uint64_t outs,
                                const uint64_t *kin, sa_match *match) {
    return a->num_inputs == 64 && a->num_outputs == 64 ? sa__spaa_grant6_64_sse2(a, col, outs, kin, match)
                                                       : sa__spaa_grant6_any_sse2(a, col, outs, kin, match);
}
#endif

#if SA_ALLOC_MAX > 32 && defined(SA_SIMD_SSE2)
/* sa__spaa_candidates6 then sa__lrs_bank_select_sse2_6 (with rank bits k)
 * in one pass: each group of four input arbiters selects straight from its
 * connected requests, which never go through memory. */
SA_API void sa__spaa_select6_sse2(const sa_alloc *a, const uint64_t *req, uint64_t *c, uint64_t *k) {
    const uint64_t *plane = a->spaa_in;
    int w = 0, n = a->num_inputs, words = a->spaa_in_words;
#ifndef NDEBUG
    for (w = 0; w < n; w++) SA_ASSERT((req[w] & ~sa__low_mask(a->num_outputs)) == 0);
    w = 0;
#endif
    for (; w + 4 <= n; w += 4) {
        __m128i x = _mm_and_si128(SA__LD(req + w), SA__LD(a->connect + w));
        __m128i x2 = _mm_and_si128(SA__LD(req + w + 2), SA__LD(a->connect + w + 2)), z, e, z2, e2;
        SA__SEL6_2PLANE(5) SA__SEL6_2PLANE(4) SA__SEL6_2PLANE(3)
        SA__SEL6_2PLANE(2) SA__SEL6_2PLANE(1) SA__SEL6_2PLANE(0)
        SA__ST(c + w, x);
        SA__ST(c + w + 2, x2);
    }
    if (w < words) {
        int i;
        for (i = w; i < words; i++) c[i] = i < n ? req[i] & a->connect[i] : 0;
        sa__lrs_bank_select_sse2_6(plane + w, c + w, k + w, words - w);
    }
}

/* A whole SPAA allocation when both banks have 64-bit lanes (SSE2, no
 * priorities, no read-port pairing): the input bank's select, the columns,
 * then the grant over the nominated outputs only. */
SA_API int sa__spaa6_sse2(sa_alloc *a, const uint64_t *req, sa_match *match) {
    uint64_t nom[SA__SPAA_WORDS], col[SA__SPAA_WORDS], kin[SA__SPAA_PLANES * SA__SPAA_WORDS], outs;
    sa__spaa_select6_sse2(a, req, nom, kin);
    outs = sa__spaa_columns6(nom, a->num_inputs, col);
    return sa__spaa_grant6_sse2(a, col, outs, kin, match);
}
#endif

#if SA_ALLOC_MAX > 32
/* sa__spaa_grant_lanes when both banks have 64-bit lanes (33..64 inputs and
 * outputs): the output bank selects and records at the nominated outputs
 * only, the input bank records at the granted inputs only (sa__lrs6_rows),
 * the rest of both banks is left alone. */
SA_API int sa__spaa_grant_lw6(sa_alloc *a, uint64_t *col, const uint64_t *kin, sa_match *match) {
    uint8_t rows[SA_ALLOC_MAX], irows[SA_ALLOC_MAX];
    uint64_t gin[SA_ALLOC_MAX], ins = 0, outs = 0;
    int t, j, count = 0, m = a->num_outputs;
#ifdef SA_SIMD_SSE2
    if (kin != NULL) {
        for (j = 0; j < m; j++) outs |= (uint64_t)(col[j] != 0) << j;
        return sa__spaa_grant6_sse2(a, col, outs, kin, match);
    }
#endif
    sa__match_clear(match);
    for (j = 0; j < m; j++) {
        rows[count] = (uint8_t)j;
        count += col[j] != 0;
    }
    if (a->rotary && a->network_inputs) {
        for (t = 0; t < count; t++) {
            uint64_t x = col[rows[t]] & a->network_inputs;
            if (x != 0) col[rows[t]] = x;
        }
    }
    sa__lrs6_rows(a->spaa_out, col, NULL, rows, count, a->num_inputs);
    for (t = 0; t < count; t++) {
        int i = sa__ctz64(col[rows[t]]);
        j = rows[t];
        match->input_of[j] = (int8_t)i;
        match->output_of[i] = (int8_t)j;
        gin[i] = (uint64_t)1 << j;
        irows[t] = (uint8_t)i;
        ins |= (uint64_t)1 << i;
        outs |= (uint64_t)1 << j;
    }
    match->inputs = ins;
    match->outputs = outs;
    match->size = count;
    sa__lrs6_rows(a->spaa_in, gin, kin, irows, count, m);
    return count;
}
#endif

/* SPAA steps 2-3 on the output bank's candidate lanes col (clobbered):
 * grant, record the grants in both banks, write the matching.  kin: the
 * nominations' rank bits from sa__spaa_nominate_lanes, or NULL. */
SA_API int sa__spaa_grant_lanes(sa_alloc *a, uint64_t *col, const uint64_t *kin, sa_match *match) {
    uint64_t gin[SA__SPAA_WORDS], kout[SA__SPAA_PLANES * SA__SPAA_WORDS];
    int w, lwi = a->spaa_in_lw, lwo = a->spaa_out_lw, words = a->spaa_out_words;
#if SA_ALLOC_MAX > 32
    if (lwi == 6 && lwo == 6) return sa__spaa_grant_lw6(a, col, kin, match);
#endif
    sa__match_clear(match);
    if (a->rotary && a->network_inputs)
        sa__lanes_prefer(col, words, lwo, a->network_inputs * sa__lane_low(lwo));
    sa__lrs_bank_select(a->spaa_out, col, kout, words, lwo);
    sa__lrs_bank_update(a->spaa_out, col, kout, words, lwo, a->num_inputs);
    sa__zero_words(gin, a->spaa_in_words);
    for (w = 0; w < words; w++) {
        uint64_t x;
        for (x = col[w]; x; x &= x - 1) {
            int bit = (w << 6) + sa__ctz64(x), j = bit >> lwo, i = bit & ((1 << lwo) - 1);
            sa__match_add(match, i, j);
            sa__lane_or(gin, i, lwi, (uint64_t)1 << j);
        }
    }
    sa__lrs_bank_update(a->spaa_in, gin, kin, a->spaa_in_words, lwi, a->num_outputs);
    return match->size;
}

/**
 * SPAA step 1, Nominate: each input arbiter nominates one output (one packet)
 * among its connected requests.
 *
 * The choice is the request with the highest priority ``prio`` (for example
 * the age of the oldest packet for that output, as the 21364's input
 * arbiters pick the oldest packet), least recently selected among equals;
 * with prio NULL, the least recently selected output.  "Selected" means
 * granted: an input arbiter's order moves only when sa_spaa_grant selects
 * its nomination (moving it on every nomination would keep the inputs'
 * orders in lockstep under heavy load, all nominating the same output).
 * This function changes no state.  With read-port pairing, read port 2b nominates first and its
 * twin 2b+1 then skips the outputs that would need the same packet
 * (sa_read_buffer_clash); the paper only says the pair synchronises.
 *
 * In a pipelined model, call this in the LA stage and sa_spaa_grant two
 * cycles later; a nominated packet must not be offered again (leave it out
 * of req) until the grant is known (Step 1's rule).
 *
 * :param a: an SA_ALLOC_SPAA allocator.
 * :param req: num_inputs request masks (bit j: a packet for output j).
 *             Precondition: no bit at or above num_outputs; with pairing,
 *             req[2b] and req[2b+1] within bufs[b].any.
 * :param prio: NULL, or num_inputs x num_outputs priorities, row-major
 *              (prio[i * num_outputs + j]); larger is nominated first.
 * :param bufs: NULL, or (read-port pairing) num_inputs/2 buffer views.
 * :param nomination: receives num_inputs entries: the nominated output of
 *                    each input arbiter, or -1.
 * :returns: the number of nominations.
 * :paper: seed 002 Section 3.3 step 1; Section 3 (oldest packet from the
 *         least-recently selected virtual channel).
 */
SA_API int sa_spaa_nominate(const sa_alloc *a, const uint64_t *req, const uint8_t *prio,
                            const sa_read_buffer *bufs, int8_t *nomination) {
    uint64_t c[SA__SPAA_WORDS];
    int i, count = 0;
    sa__spaa_nominate_lanes(a, req, prio, bufs, c, NULL);
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    if (a->spaa_in_lw == 3 && a->num_inputs <= 16) {
        __m128i x = SA__LD(c);
        unsigned nz = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) & 0xFFFFu;
        if (a->num_inputs == 16) {
            SA__ST(nomination, sa__bit_index8_sse2(x));
        } else {
            int8_t t[16];
            SA__ST(t, sa__bit_index8_sse2(x));
            for (i = 0; i < a->num_inputs; i++) nomination[i] = t[i];
        }
        return sa__bits(nz);
    }
#endif
    for (i = 0; i < a->num_inputs; i++) {
        uint64_t x = sa__lane_get(c, i, a->spaa_in_lw);
        nomination[i] = (int8_t)(x ? sa__ctz64(x) : -1);
        count += x != 0;
    }
    return count;
}

/**
 * SPAA step 2, Grant: each output arbiter grants the least-recently-selected
 * input arbiter among those that nominated it; with the Rotary Rule, network
 * input arbiters first, least recently selected within each class.  The
 * winner's input arbiter then records output j as its latest selection.
 * Step 3 (Reset: the losers' packets may be nominated again) needs no state
 * here: nominations are given afresh each cycle.
 *
 * :param a: an SA_ALLOC_SPAA allocator.
 * :param nomination: num_inputs entries from sa_spaa_nominate (-1: none).
 * :param match: receives the matching.
 * :returns: the number of matches.
 * :paper: seed 002 Section 3.3 steps 2-3; Section 3.4 (SPAA-rotary).
 */
SA_API int sa_spaa_grant(sa_alloc *a, const int8_t *nomination, sa_match *match) {
    uint64_t col[SA__SPAA_WORDS];
    int i, n = a->num_inputs, lwo = a->spaa_out_lw;
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    if (a->spaa_in_lw == 3 && lwo <= 4) {
        for (i = 0; i < n; i++) SA_ASSERT(nomination[i] < a->num_outputs);
        return lwo == 4 ? sa__spaa_grant_sse2_4(a, nomination, match)
                        : sa__spaa_grant_sse2_3(a, nomination, match);
    }
#endif
    sa__zero_words(col, a->spaa_out_words);
    for (i = 0; i < n; i++) {
        int j = nomination[i];
        SA_ASSERT(j < a->num_outputs);
        sa__lane_or(col, j < 0 ? 0 : j, lwo, (uint64_t)(j >= 0) << i);
    }
    return sa__spaa_grant_lanes(a, col, NULL, match);
}

/* Hide a value from the optimiser (GCC and clang): it then cannot turn
 * the mask arithmetic of a branch-free selection back into a branch that
 * the data would make unpredictable. */
#if defined(__GNUC__) || defined(__clang__)
#define SA__OPAQUE(v) __asm__("" : "+r"(v))
#else
#define SA__OPAQUE(v) ((void)0)
#endif

/* All ones when c is nonzero, else 0, opaque to the optimiser. */
SA_API uint64_t sa__mask_if(int c) {
    uint64_t m = (uint64_t)(c != 0);
    SA__OPAQUE(m);
    return 0 - m;
}

/* First set bit of x at or after position p (cyclically): branch-free
 * sa__first_from (0 when x is 0). */
SA_API int sa__first_from_bf(uint64_t x, int p) {
    uint64_t h = x & (~(uint64_t)0 << p);
    h |= x & ~sa__mask_if(h != 0); /* h, or x when h is 0 */
    return sa__ctz64(h | (uint64_t)(h == 0));
}

/* ---------------- Wave-front arbiters (seed 002 Section 3.2) ---------------- */

/* Non-wrapped WFA over the rows of `rows` in cyclic order from `first`,
 * columns in cyclic order from `col0`.  Cell (i, j) is granted iff it is
 * requested and no cell above it in its column and no cell left of it in its
 * row was granted (Grant = Request and N and W; S = N and not Grant; E = W
 * and not Grant).  These signals only flow down and right, so evaluating the
 * rows one after the other, each taking its first free requested column,
 * gives exactly the wavefronts' result with one word operation per row.
 * This is the path with read-port pairing (the twin check needs the rows
 * in order) and when there are at least as many columns as rows;
 * sa__wfa_by_columns is the path for fewer columns. */
SA_API void sa__wfa_rows(const sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs,
                         uint64_t rows, int first, int col0, sa_match *mt) {
    /* The masks live in locals: the int8_t stores into mt may alias
     * anything, which would otherwise force reloads every row. */
    uint64_t r = rows & (~(uint64_t)0 << first);
    uint64_t taken = mt->outputs, matched = mt->inputs;
    int pass, size = mt->size, pairs = a->read_port_pairs && bufs != NULL;
    for (pass = 0; pass < 2; pass++) {
        for (; r; r &= r - 1) {
            int i = sa__ctz64(r), j;
            uint64_t f = eff[i] & ~taken;
            if (f == 0) continue;
            if (pairs) f &= ~sa__twin_block(bufs, i, mt->output_of[i ^ 1]);
            j = sa__first_from(f, col0);
            if (j < 0) continue;
            taken |= (uint64_t)1 << j;
            matched |= (uint64_t)1 << i;
            size++;
            mt->output_of[i] = (int8_t)j;
            mt->input_of[j] = (int8_t)i;
        }
        r = rows & sa__low_mask(first);
    }
    mt->outputs = taken;
    mt->inputs = matched;
    mt->size = size;
}

/* Column masks of an n x m request matrix with n <= 16 and m <= 8: col[j]
 * (bit i: rows[i] has bit j) for j = 0..7, zero at and above m.  Reads
 * rows[0..n-1] only.  Portable version: the rows as two 8 x 8 byte
 * matrices, each transposed in one word. */
SA_API void sa__columns16x8_portable(const uint64_t *rows, int n, uint64_t *col) {
    uint64_t w0 = 0, w1 = 0;
    int i, j;
    for (i = 0; i < n && i < 8; i++) w0 |= rows[i] << (8 * i);
    for (i = 8; i < n; i++) w1 |= rows[i] << (8 * (i - 8));
    w0 = sa__transpose8(w0);
    w1 = sa__transpose8(w1);
    for (j = 0; j < 8; j++) col[j] = ((w0 >> (8 * j)) & 0xFF) | (((w1 >> (8 * j)) & 0xFF) << 8);
}

#ifdef SA_SIMD_SSE2
/* The rows[0..n-1] (n <= 16, each below 256) as the 16 bytes of a vector,
 * zero beyond n. */
SA_API __m128i sa__rows_to_bytes16(const uint64_t *rows, int n) {
    __m128i v[8];
    int k;
    for (k = 0; k < 8; k++)
        v[k] = 2 * k + 1 < n ? _mm_loadu_si128((const __m128i *)(const void *)(rows + 2 * k))
             : 2 * k < n ? _mm_loadl_epi64((const __m128i *)(const void *)(rows + 2 * k))
             : _mm_setzero_si128();
    /* 64-bit lanes -> 16-bit lanes (with zero high halves) -> bytes */
    v[0] = _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
    v[1] = _mm_packus_epi16(_mm_packs_epi32(v[4], v[5]), _mm_packs_epi32(v[6], v[7]));
    return _mm_packus_epi16(v[0], v[1]);
}

/* SSE2 version of sa__columns16x8_portable: column j is the sign mask of
 * the row bytes shifted left by 7 - j. */
SA_API void sa__columns16x8_sse2(const uint64_t *rows, int n, uint64_t *col) {
    __m128i b = sa__rows_to_bytes16(rows, n);
    col[7] = (uint64_t)(unsigned)_mm_movemask_epi8(b);
    col[6] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 1));
    col[5] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 2));
    col[4] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 3));
    col[3] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 4));
    col[2] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 5));
    col[1] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 6));
    col[0] = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_slli_epi64(b, 7));
}
#endif

/* Column masks of an n x m matrix, n <= 16, m <= 8 (SSE2 where present). */
SA_API void sa__columns16x8(const uint64_t *rows, int n, uint64_t *col) {
#ifdef SA_SIMD_SSE2
    sa__columns16x8_sse2(rows, n, col);
#else
    sa__columns16x8_portable(rows, n, col);
#endif
}

/* The lowest set bit of the first nonzero of x & c1, x & c2, x (priority
 * classes; c1 within c2). */
SA_API uint64_t sa__first_in_class(uint64_t x, uint64_t c1, uint64_t c2) {
    uint64_t p = x & c2, q = x & c1;
    p = p ? p : x;
    p = q ? q : p;
    return p & (0 - p);
}

/* WFA evaluated column by column (the fast path when there are fewer
 * columns than rows, without read-port pairs).  The wavefronts' result is
 * the unique assignment in which cell (i, j) is granted iff it is requested
 * and no cell above it (in the cyclic row order) nor left of it (cyclic
 * column order) is granted; taking the columns in their cyclic order from
 * the start column, each granting its first free requesting row in the
 * cyclic row order, evaluates the cells in another order the signals allow
 * (column-major instead of row-major) and so gives the same result, in
 * min(n, m) dependent steps of a few word operations.  Row order: the rows
 * at or after `r` first, then the others (hi below); with the Rotary Rule
 * (net != all rows) the network rows before the local ones, each class in
 * that cyclic order.  mt must be empty. */
SA_API void sa__wfa_by_columns(const sa_alloc *a, const uint64_t *col, int r, int c, uint64_t net,
                               sa_match *mt) {
    int n = a->num_inputs, m = a->num_outputs, k, j = c;
    uint64_t all = sa__low_mask(n), hi = all & (~(uint64_t)0 << r), free_rows = all, outs = 0, x;
    int8_t *in_of = mt->input_of, *out_of = mt->output_of;
    if (net == all) {
        for (k = 0; k < m; k++) {
            uint64_t f = col[j] & free_rows, h = f & hi, p, g;
            int t;
            p = h ? h : f;
            g = p & (0 - p);
            free_rows ^= g;
            t = sa__ctz64(g | ((uint64_t)1 << 63));
            in_of[j] = (int8_t)(g ? t : -1);
            outs |= (uint64_t)(g != 0) << j;
            if (++j == m) j = 0;
        }
    } else {
        /* Network rows from r, network rows before r, local rows from r,
         * local rows before r. */
        uint64_t nh = net & hi, lh = hi & ~net;
        for (k = 0; k < m; k++) {
            uint64_t f = col[j] & free_rows, g, p, q;
            int t;
            q = f & net;
            p = f & lh;
            p = p ? p : f;
            p = q ? q : p;
            q = f & nh;
            p = q ? q : p;
            g = p & (0 - p);
            free_rows ^= g;
            t = sa__ctz64(g | ((uint64_t)1 << 63));
            in_of[j] = (int8_t)(g ? t : -1);
            outs |= (uint64_t)(g != 0) << j;
            if (++j == m) j = 0;
        }
    }
    for (x = outs; x; x &= x - 1) {
        int jj = sa__ctz64(x);
        out_of[in_of[jj]] = (int8_t)jj;
    }
    mt->inputs = all & ~free_rows;
    mt->outputs = outs;
    mt->size = sa__bits(outs);
}

/* Index of the lowest set bit of a 32-bit word; x must not be 0. */
SA_API unsigned sa__ctz32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* The effective requests of a 16 x 8 matrix (n <= 16, m <= 8) as bytes:
 * row i (req[i] & connect[i]) in byte i, zero beyond n.  Two rows per
 * 16-byte load (req is the caller's array, not a copy just written, so the
 * loads are not waiting on stores to forward), nothing read at or beyond
 * req[n]; each row's low byte, then the connection matrix's bytes (in
 * spaa_connect: one byte per row when m <= 8).  Idempotent on effective
 * requests (the WFA and iSLIP 16 x 8 paths take req or sa__effective's
 * copy). */
SA_API __m128i sa__req_bytes16(const sa_alloc *a, const uint64_t *req) {
    const __m128i z = _mm_setzero_si128(), ff = _mm_set1_epi64x(0xFF);
    __m128i v0, v1, v2, v3, v4, v5, v6, v7;
    int n = a->num_inputs;
#define SA__LDR(k) (2 * (k) + 2 <= n ?                                                           \
        _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 2 * (k))), ff) :   \
        2 * (k) + 1 == n ?                                                                       \
        _mm_and_si128(_mm_loadl_epi64((const __m128i *)(const void *)(req + 2 * (k))), ff) : z)
    if (n == 16) {
#define SA__LD16(k) _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 2 * (k))), ff)
        v0 = SA__LD16(0); v1 = SA__LD16(1); v2 = SA__LD16(2); v3 = SA__LD16(3);
        v4 = SA__LD16(4); v5 = SA__LD16(5); v6 = SA__LD16(6); v7 = SA__LD16(7);
#undef SA__LD16
    } else {
        v0 = SA__LDR(0); v1 = SA__LDR(1); v2 = SA__LDR(2); v3 = SA__LDR(3);
        v4 = SA__LDR(4); v5 = SA__LDR(5); v6 = SA__LDR(6); v7 = SA__LDR(7);
    }
#undef SA__LDR
    /* (row, 0) 32-bit pairs pack down to 16-bit lanes, then bytes */
    return _mm_and_si128(_mm_packus_epi16(_mm_packus_epi16(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3)),
                                          _mm_packus_epi16(_mm_packs_epi32(v4, v5), _mm_packs_epi32(v6, v7))),
                         _mm_loadu_si128((const __m128i *)(const void *)a->spaa_connect));
}
#endif

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* sa__wfa_by_columns for n <= 16, m <= 8 and no Rotary Rule, in SSE2 and
 * without branches (but on m).  The rows are packed to one byte each with
 * their bits rotated right by the start column, so that the columns come
 * in their cyclic order as bits 0, 1, ...; the column masks are the byte
 * sign masks of the row bytes shifted; the column steps are unrolled.
 * Each step writes its column at its granted row of output_of (at the
 * unused entry 16 when it grants nothing: with SA_ALLOC_MAX 16 there is no
 * such entry, and the steps write to a local copy instead) and its row
 * (16: none) to byte k of a word that is rotated into input_of at the end.
 * Same decisions as sa__wfa_by_columns (the tests compare them). */
SA_API void sa__wfa16x8_sse2(const sa_alloc *a, const uint64_t *eff, int r, int c, sa_match *mt) {
    int n = a->num_inputs, m = a->num_outputs;
    uint64_t all = ((uint64_t)1 << n) - 1, hi = all & (~(uint64_t)0 << r), fr = all, w = 0, y, jj;
    uint64_t lo8 = ~(uint64_t)0 >> (64 - 8 * m);
    __m128i v0, v4, b;
#if SA_ALLOC_MAX > 16
    int8_t *out_of = mt->output_of;
#else
    int8_t out_of[32];
    _mm_storeu_si128((__m128i *)(void *)out_of, _mm_set1_epi8(-1));
#endif
    /* rows as 16-bit lanes (high halves zero), each rotated right by c
     * within m bits, then one byte per row */
    b = sa__req_bytes16(a, eff);
    v0 = _mm_unpacklo_epi8(b, _mm_setzero_si128());
    v4 = _mm_unpackhi_epi8(b, _mm_setzero_si128());
    {
        const __m128i cm = _mm_cvtsi32_si128(m), cc = _mm_cvtsi32_si128(c);
        const __m128i mask = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)(0x10001u * ((1u << m) - 1))), 0);
        v0 = _mm_and_si128(_mm_srl_epi16(_mm_or_si128(v0, _mm_sll_epi16(v0, cm)), cc), mask);
        v4 = _mm_and_si128(_mm_srl_epi16(_mm_or_si128(v4, _mm_sll_epi16(v4, cm)), cc), mask);
    }
    b = _mm_packus_epi16(v0, v4);
    /* byte k of jj: the column of step k, (c + k) mod m */
    jj = 0x0706050403020100ull + 0x0101010101010101ull * (uint64_t)c;
    jj -= (((jj + 0x0101010101010101ull * (uint64_t)(128 - m)) >> 7) & 0x0101010101010101ull) * (uint64_t)m;
    /* Column step k (column c + k): the first free requesting row from r
     * takes it; ti = its index (16: none).  Loop-carried: fr only. */
#define SA__STEP(k, x) {                                                \
        uint64_t e = (uint64_t)(unsigned)(x), eh = e & hi;              \
        uint64_t f = e & fr, p = eh & fr, g;                            \
        unsigned ti;                                                    \
        p = p ? p : f;                                                  \
        g = p & (0 - p);                                                \
        fr ^= g;                                                        \
        ti = sa__ctz32((uint32_t)p | 0x10000u);                         \
        out_of[ti] = (int8_t)jj;                                        \
        jj >>= 8;                                                       \
        w |= (uint64_t)ti << (8 * (k));                                 \
    }
    SA__STEP(0, _mm_movemask_epi8(_mm_slli_epi64(b, 7)))
    SA__STEP(1, _mm_movemask_epi8(_mm_slli_epi64(b, 6)))
    SA__STEP(2, _mm_movemask_epi8(_mm_slli_epi64(b, 5)))
    SA__STEP(3, _mm_movemask_epi8(_mm_slli_epi64(b, 4)))
    SA__STEP(4, _mm_movemask_epi8(_mm_slli_epi64(b, 3)))
    SA__STEP(5, _mm_movemask_epi8(_mm_slli_epi64(b, 2)))
    SA__STEP(6, _mm_movemask_epi8(_mm_slli_epi64(b, 1)))
    if (m > 7) SA__STEP(7, _mm_movemask_epi8(b))
    else w |= (uint64_t)16 << 56;
#undef SA__STEP
#if SA_ALLOC_MAX > 16
    out_of[16] = -1; /* the steps that granted nothing wrote there */
#else
    memcpy(mt->output_of, out_of, 16);
#endif
    /* input_of: byte k of w belongs to column (c + k) mod m; 16 -> -1 */
    w = ((((w & lo8) << (8 * c)) | (((w & lo8) >> 1) >> (8 * (m - c) - 1))) & lo8) | (w & ~lo8);
    w |= ((w >> 4) & 0x0101010101010101ull) * 0xFF;
    memcpy(mt->input_of, &w, 8);
    y = (~w >> 7) & 0x0101010101010101ull;
    mt->outputs = (y * 0x0102040810204080ull) >> 56;
    mt->size = (int)((y * 0x0101010101010101ull) >> 56);
    mt->inputs = all & ~fr;
}
#endif

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* sa_allocate's WFA for n <= 16, m < n, m <= 8, no Rotary Rule and no
 * read-port pairs (sa__wfa's first case, without its general set-up):
 * req as given (sa__wfa16x8_sse2 ANDs it with connect), then the start
 * cell advances as in sa__wfa. */
SA_API int sa__wfa16x8(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    int n = a->num_inputs, m = a->num_outputs, r = a->start_row, c = a->start_col;
    sa__wfa16x8_sse2(a, req, r, c, mt);
    if (++r == n) {
        r = 0;
        c = c + 1 == m ? 0 : c + 1;
    }
    a->start_row = (uint8_t)r;
    a->start_col = (uint8_t)c;
    return mt->size;
}
#endif

/* WFA-base / WFA-rotary. */
SA_API int sa__wfa(sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t all = sa__low_mask(a->num_inputs), net = a->network_inputs;
    int n = a->num_inputs, m = a->num_outputs, r = a->start_row, c = a->start_col;
    int rotary = a->rotary && net;
    if (bufs == NULL && m < n) {
        /* fewer columns than rows: column by column */
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
        if (n <= 16 && m <= 8 && !rotary) return sa__wfa16x8(a, eff, mt);
#endif
        {
            uint64_t col[64];
            if (n <= 16 && m <= 8) sa__columns16x8(eff, n, col);
            else sa__columns(eff, n, m, col);
            sa__wfa_by_columns(a, col, r, c, rotary ? net : all, mt);
        }
    } else if (rotary) {
        /* row by row: its branches are well predicted when rows rarely
         * find nothing, and it costs fewer operations than a branch-free
         * row step (measured) */
        sa__wfa_rows(a, eff, bufs, net, r, c, mt);
        sa__wfa_rows(a, eff, bufs, all & ~net, r, c, mt);
    } else {
        sa__wfa_rows(a, eff, bufs, all, r, c, mt);
    }
    if (rotary) {
        /* Rotary Rule: the wavefronts start at a network input's row and all
         * network rows precede the local rows. */
        uint64_t next = r + 1 < 64 ? net & (~(uint64_t)0 << (r + 1)) : 0;
        if (next == 0) {
            next = net;
            c = c + 1 == m ? 0 : c + 1;
        }
        a->start_row = (uint8_t)sa__ctz64(next);
    } else {
        if (++r == n) {
            r = 0;
            c = c + 1 == m ? 0 : c + 1;
        }
        a->start_row = (uint8_t)r;
    }
    a->start_col = (uint8_t)c;
    return mt->size;
}

/* Wrapped WFA over the rows in `rows` (the path with read-port pairing): the s x s matrix (s = max(n, m), the
 * missing rows or columns never request) is split into the s wrapped
 * diagonals d = {(i, (i + d) mod s)}; their cells share no row and no column,
 * so a whole diagonal is evaluated at once, in the order p, p+1, ... from the
 * priority diagonal p.  diag[d] (bit i: cell (i, (i + d) mod s) requested) is
 * the transpose of the rows rotated by their index. */
SA_API void sa__wfa_wrapped_rows(const sa_alloc *a, const uint64_t *diag, const sa_read_buffer *bufs,
                                 uint64_t rows, int s, int p, sa_match *mt) {
    int k;
    int pairs = a->read_port_pairs && bufs != NULL;
    uint64_t free_rows = rows & ~mt->inputs;
    uint64_t free_cols = sa__low_mask(a->num_outputs) & ~mt->outputs;
    for (k = 0; k < s && free_rows && free_cols; k++) {
        int d = p + k < s ? p + k : p + k - s;
        uint64_t g = diag[d] & free_rows & sa__rotr(free_cols, d, s), r;
        if (g == 0) continue;
        for (r = g; r; r &= r - 1) {
            int i = sa__ctz64(r), j = i + d < s ? i + d : i + d - s;
            if (pairs && ((sa__blocked(a, bufs, mt, i) >> j) & 1u)) { g &= ~((uint64_t)1 << i); continue; }
            sa__match_add(mt, i, j);
        }
        free_rows &= ~g;
        free_cols &= ~sa__rotl(g, d, s);
    }
}

/* Rotate the low s bits of x right by d, 0 <= d < s <= 64, without a
 * branch (x has no bit at or above s). */
SA_API uint64_t sa__rotr_bf(uint64_t x, int d, int s) {
    return ((x >> d) | ((x << 1) << (s - d - 1))) & (~(uint64_t)0 >> (64 - s));
}

/* Rotate the low s bits of x left by d, 0 <= d < s <= 64, without a branch. */
SA_API uint64_t sa__rotl_bf(uint64_t x, int d, int s) {
    return ((x << d) | ((x >> 1) >> (s - d - 1))) & (~(uint64_t)0 >> (64 - s));
}

#ifdef SA_SIMD_SSE2
/* One round of the block-swap transpose of a t x t bit matrix (t = 16, 32
 * or 64) with J = the block size (J >= 2): rows k and k + J exchange their
 * J x J blocks, two row pairs per instruction, the shift count an
 * immediate. */
#define SA__TRANSPOSE_ROUND(a, t, J, M) {                                           \
        int b_, k_;                                                                 \
        const __m128i m_ = _mm_set1_epi64x((long long)(M));                         \
        for (b_ = 0; b_ < (t); b_ += 2 * (J))                                       \
            for (k_ = b_; k_ < b_ + (J); k_ += 2) {                                 \
                __m128i *pu_ = (__m128i *)(void *)((a) + k_);                       \
                __m128i *pv_ = (__m128i *)(void *)((a) + k_ + (J));                 \
                __m128i u_ = _mm_loadu_si128(pu_), v_ = _mm_loadu_si128(pv_), x_;   \
                x_ = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(u_, J), v_), m_);  \
                _mm_storeu_si128(pu_, _mm_xor_si128(u_, _mm_slli_epi64(x_, J)));    \
                _mm_storeu_si128(pv_, _mm_xor_si128(v_, x_));                       \
            }                                                                       \
    }

/* sa__transpose_sse2 for t = 16, 32 or 64 with every round's shift count
 * an immediate and no index arithmetic but the loops' (the same result). */
SA_API void sa__transpose_fixed_sse2(uint64_t *a, int t) {
    __m128i m, u, v, x, lo, hi;
    int k;
    if (t == 64) SA__TRANSPOSE_ROUND(a, 64, 32, 0x00000000FFFFFFFFull)
    if (t >= 32) SA__TRANSPOSE_ROUND(a, t, 16, 0x0000FFFF0000FFFFull)
    SA__TRANSPOSE_ROUND(a, t, 8, 0x00FF00FF00FF00FFull)
    SA__TRANSPOSE_ROUND(a, t, 4, 0x0F0F0F0F0F0F0F0Full)
    SA__TRANSPOSE_ROUND(a, t, 2, 0x3333333333333333ull)
    m = _mm_set1_epi64x(0x5555555555555555ll);
    for (k = 0; k < t; k += 4) {
        __m128i *p0 = (__m128i *)(void *)(a + k), *p1 = (__m128i *)(void *)(a + k + 2);
        u = _mm_loadu_si128(p0);
        v = _mm_loadu_si128(p1);
        lo = _mm_unpacklo_epi64(u, v); /* rows k, k+2 */
        hi = _mm_unpackhi_epi64(u, v); /* rows k+1, k+3 */
        x = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(lo, 1), hi), m);
        lo = _mm_xor_si128(lo, _mm_slli_epi64(x, 1));
        hi = _mm_xor_si128(hi, x);
        _mm_storeu_si128(p0, _mm_unpacklo_epi64(lo, hi));
        _mm_storeu_si128(p1, _mm_unpackhi_epi64(lo, hi));
    }
}
#undef SA__TRANSPOSE_ROUND
#endif

/* Transpose the square bit matrix a of t x t (t a power of two, 1..64). */
SA_API void sa__transpose_small(uint64_t *a, int t) {
    int i;
#ifdef SA_SIMD_SSE2
    if (t >= 16) {
        sa__transpose_fixed_sse2(a, t);
        return;
    }
#endif
    if (t <= 8) {
        uint64_t w = 0;
        for (i = 0; i < t; i++) w |= a[i] << (8 * i);
        w = sa__transpose8(w);
        for (i = 0; i < t; i++) a[i] = (w >> (8 * i)) & 0xFF;
    } else {
        sa__transpose(a, t);
    }
}

/* One pass of the wrapped WFA without read-port pairs over the rows of
 * `rows`: the diagonals from p, each granting at once its requested cells
 * whose row and column are free (*fr, *fc), its grants OR-ed into gd[d]
 * (bit i: cell (i, (i + d) mod s)).  No branch but the loop's: the
 * matching is read from gd afterwards. */
SA_API void sa__wfa_wrapped_pass(const uint64_t *diag, uint64_t rows, int s, int p,
                                 uint64_t *matched, uint64_t *fc_io, uint64_t *gd) {
    uint64_t fr = rows & ~*matched, fc = *fc_io, got = 0;
    int k, d = p;
    if (s == 64) {
        /* plain 64-bit rotations (one instruction each) */
        for (k = 0; k < 64 && fr && fc; k++) {
            uint64_t g = diag[d] & fr & ((fc >> d) | (fc << ((64 - d) & 63)));
            fr &= ~g;
            got |= g;
            fc &= ~((g << d) | (g >> ((64 - d) & 63)));
            gd[d] |= g;
            d = (d + 1) & 63;
        }
    } else if (s <= 32) {
        /* the free columns twice (bits j and j + s: column j), so that the
         * rotation by d is one shift */
        uint64_t fc2 = fc | (fc << s), low = sa__low_mask(s);
        for (k = 0; k < s && fr && (fc2 & low); k++) {
            uint64_t g = diag[d] & fr & (fc2 >> d), t = g << d;
            fr &= ~g;
            got |= g;
            fc2 &= ~(t | (t >> s) | (t << s));
            gd[d] |= g;
            d = d + 1 == s ? 0 : d + 1;
        }
        fc = fc2 & low;
    } else {
        for (k = 0; k < s && fr && fc; k++) {
            uint64_t g = diag[d] & fr & sa__rotr_bf(fc, d, s);
            fr &= ~g;
            got |= g;
            fc &= ~sa__rotl_bf(g, d, s);
            gd[d] |= g;
            d = d + 1 == s ? 0 : d + 1;
        }
    }
    *matched |= got;
    *fc_io = fc;
}

/* WFA wrapped (base or rotary).  Without read-port pairs the diagonals
 * record their grants (sa__wfa_wrapped_pass) and the matching is read back
 * through one more transpose, with no branch per diagonal or per grant. */
SA_API int sa__wfa_wrapped(sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t diag[64];
    int i, n = a->num_inputs, m = a->num_outputs;
    int s = n > m ? n : m, t = sa__pow2_at_least(s);
    for (i = 0; i < n; i++) diag[i] = sa__rotr_bf(eff[i], i, s); /* i < s */
    sa__zero_words(diag + n, t - n);
    sa__transpose_small(diag, t);
    if (bufs == NULL && n * m >= 256) {
        /* (below 16 x 16 the branchy diagonal loop below is faster: measured) */
        uint64_t gd[64], matched = 0, fc = sa__low_mask(m), x;
        sa__zero_words(gd, t);
        if (a->rotary && a->network_inputs) {
            sa__wfa_wrapped_pass(diag, a->network_inputs, s, a->start_col, &matched, &fc, gd);
            sa__wfa_wrapped_pass(diag, sa__low_mask(n) & ~a->network_inputs, s, a->start_col,
                                 &matched, &fc, gd);
        } else {
            sa__wfa_wrapped_pass(diag, sa__low_mask(n), s, a->start_col, &matched, &fc, gd);
        }
        sa__transpose_small(gd, t); /* gd[i]: bit d set when row i won on diagonal d */
        for (i = 0; i < n; i++) {
            uint64_t g = gd[i];
            int j = i + sa__ctz64(g | (uint64_t)(g == 0));
            j -= s & (int)sa__mask_if(j >= s);
            mt->output_of[i] = (int8_t)(j | (int)~sa__mask_if(g != 0));
        }
        for (x = matched; x; x &= x - 1) {
            i = sa__ctz64(x);
            mt->input_of[mt->output_of[i]] = (int8_t)i;
        }
        mt->inputs = matched;
        mt->outputs = sa__low_mask(m) & ~fc;
        mt->size = sa__bits(matched);
    } else if (a->rotary && a->network_inputs) {
        sa__wfa_wrapped_rows(a, diag, bufs, a->network_inputs, s, a->start_col, mt);
        sa__wfa_wrapped_rows(a, diag, bufs, sa__low_mask(n) & ~a->network_inputs, s, a->start_col, mt);
    } else {
        sa__wfa_wrapped_rows(a, diag, bufs, sa__low_mask(n), s, a->start_col, mt);
    }
    a->start_col = (uint8_t)(a->start_col + 1 >= s ? 0 : a->start_col + 1);
    return mt->size;
}

/* Drop from cand (inputs) those that may not take output j because of their
 * twin read port's current match (pairing only). */
SA_API uint64_t sa__unblocked(const sa_alloc *a, const sa_read_buffer *bufs, const sa_match *mt,
                              uint64_t cand, int j) {
    uint64_t r, keep = cand;
    if (!a->read_port_pairs || bufs == NULL) return cand;
    uint64_t twins = ((mt->inputs & 0x5555555555555555ull) << 1) |
                     ((mt->inputs >> 1) & 0x5555555555555555ull);
    for (r = cand & twins; r; r &= r - 1) {
        int i = sa__ctz64(r);
        if ((sa__blocked(a, bufs, mt, i) >> j) & 1u) keep &= ~((uint64_t)1 << i);
    }
    return keep;
}

/* ---------------- PIM-k and iSLIP-k (seed 002 Section 3.1) ---------------- */

/* One request-grant-accept iteration of round-robin arbiters over the
 * unmatched ports (PIM has its own functions below).  mode 1: iSLIP
 * (pointers move only on accepted grants and only when first = 1, the
 * first iteration); 2:
 * separable output-first (round-robin, every arbiter's pointer moves past
 * its own winner, accepted or not).  Returns the number of new matches. */
SA_API int sa__request_grant_accept(sa_alloc *a, const uint64_t *col, const sa_read_buffer *bufs,
                                    int mode, int first, sa_match *mt) {
    uint64_t grants[SA_ALLOC_MAX + 1], granted = 0, o, g;
    uint64_t free_in = sa__low_mask(a->num_inputs) & ~mt->inputs;
    int before = mt->size, m = a->num_outputs;
    sa__zero_words(grants, a->num_inputs);
    /* Grant: each unmatched output chooses one unmatched requesting input. */
    for (o = sa__low_mask(m) & ~mt->outputs; o; o &= o - 1) {
        int j = sa__ctz64(o), i;
        uint64_t c = col[j] & free_in;
        if (c == 0) continue;
        c = sa__unblocked(a, bufs, mt, c, j);
        i = sa__first_from(c, a->out_ptr[j]);
        if (mode == 2 && i >= 0) a->out_ptr[j] = (uint8_t)(i + 1 == a->num_inputs ? 0 : i + 1);
        if (i < 0) continue;
        granted |= (uint64_t)1 << i;
        grants[i] |= (uint64_t)1 << j;
    }
    /* Accept: each input with grants accepts one (even read port first, so
     * that its twin sees its choice). */
    for (g = granted; g; g &= g - 1) {
        int i = sa__ctz64(g), j;
        uint64_t gi = grants[i] & ~sa__blocked(a, bufs, mt, i);
        if (gi == 0) continue;
        j = sa__first_from(gi, a->in_ptr[i]);
        sa__match_add(mt, i, j);
        if (mode == 2) a->in_ptr[i] = (uint8_t)(j + 1 == m ? 0 : j + 1);
        if (mode == 1 && first) {
            a->out_ptr[j] = (uint8_t)(i + 1 == a->num_inputs ? 0 : i + 1);
            a->in_ptr[i] = (uint8_t)(j + 1 == m ? 0 : j + 1);
        }
    }
    return mt->size - before;
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* Byte-matrix helpers of the 16 x 8 iSLIP path: a request matrix of up to
 * 16 rows (inputs) and 8 columns (outputs) is one vector, row i in byte i,
 * column j in bit j. */

/* Every byte: the OR of all 16 bytes (the nonempty columns). */
SA_API __m128i sa__bytes_or_all(__m128i x) {
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xB1));
    x = _mm_or_si128(x, _mm_or_si128(_mm_srli_epi32(x, 16), _mm_slli_epi32(x, 16)));
    return _mm_or_si128(x, _mm_or_si128(_mm_srli_epi16(x, 8), _mm_slli_epi16(x, 8)));
}

/* Byte i: the OR of bytes 0..i (per column, the rows at or below). */
SA_API __m128i sa__bytes_prefix_or(__m128i x) {
    x = _mm_or_si128(x, _mm_slli_si128(x, 1));
    x = _mm_or_si128(x, _mm_slli_si128(x, 2));
    x = _mm_or_si128(x, _mm_slli_si128(x, 4));
    return _mm_or_si128(x, _mm_slli_si128(x, 8));
}

/* Per byte: the index of its one set bit (0 when none). */
SA_API __m128i sa__bytes_bit_index(__m128i x) {
    const __m128i z = _mm_setzero_si128();
    __m128i b0 = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xAA)), z), _mm_set1_epi8(1));
    __m128i b1 = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xCC)), z), _mm_set1_epi8(2));
    __m128i b2 = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xF0)), z), _mm_set1_epi8(4));
    return _mm_or_si128(_mm_or_si128(b0, b1), b2);
}

/* Per byte: 0xFF << p for p = the byte (0..7): the columns at or after a
 * round-robin pointer. */
SA_API __m128i sa__bytes_from(__m128i p) {
    __m128i x = _mm_set1_epi8(-1), c;
    c = _mm_cmpeq_epi8(_mm_and_si128(p, _mm_set1_epi8(1)), _mm_set1_epi8(1));
    x = _mm_xor_si128(x, _mm_and_si128(c, _mm_set1_epi8(1)));
    c = _mm_cmpeq_epi8(_mm_and_si128(p, _mm_set1_epi8(2)), _mm_set1_epi8(2));
    x = _mm_xor_si128(x, _mm_and_si128(c, _mm_xor_si128(x, _mm_and_si128(_mm_slli_epi16(x, 2), _mm_set1_epi8((char)0xFC)))));
    c = _mm_cmpeq_epi8(_mm_and_si128(p, _mm_set1_epi8(4)), _mm_set1_epi8(4));
    x = _mm_xor_si128(x, _mm_and_si128(c, _mm_xor_si128(x, _mm_and_si128(_mm_slli_epi16(x, 4), _mm_set1_epi8((char)0xF0)))));
    return x;
}

/* The byte matrix x (16 rows x 8 columns) by columns: 16-bit lane j holds
 * column j (bit i: row i), by sa__transpose8 in both 64-bit halves. */
SA_API __m128i sa__bytes_to_columns(__m128i x) {
    __m128i t;
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 7)), _mm_set1_epi64x(0x00AA00AA00AA00AAll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 7)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 14)), _mm_set1_epi64x(0x0000CCCC0000CCCCll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 14)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 28)), _mm_set1_epi64x(0x00000000F0F0F0F0ll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 28)));
    return _mm_unpacklo_epi8(x, _mm_unpackhi_epi64(x, x));
}

/* Per 16-bit lane: the index of its one set bit (0 when none). */
SA_API __m128i sa__lanes_bit_index(__m128i x) {
    const __m128i z = _mm_setzero_si128();
#define SA__BIT(mask, v) _mm_andnot_si128(_mm_cmpeq_epi16(_mm_and_si128(x, _mm_set1_epi16((short)(mask))), z), \
                                          _mm_set1_epi16(v))
    return _mm_or_si128(_mm_or_si128(SA__BIT(0xAAAA, 1), SA__BIT(0xCCCC, 2)),
                        _mm_or_si128(SA__BIT(0xF0F0, 4), SA__BIT(0xFF00, 8)));
#undef SA__BIT
}

/* The output pointers as a byte matrix: bit j of byte i set when
 * i >= out_ptr[j] (rows k and k + 8 from one byte compare each). */
SA_API __m128i sa__pointer_rows(const uint8_t *out_ptr) {
    __m128i o = _mm_loadl_epi64((const __m128i *)(const void *)out_ptr), v = _mm_setzero_si128();
    o = _mm_unpacklo_epi64(o, o);
#define SA__ROWS(k) v = _mm_insert_epi16(v, _mm_movemask_epi8(_mm_cmpgt_epi8(                    \
        _mm_set_epi8(k + 9, k + 9, k + 9, k + 9, k + 9, k + 9, k + 9, k + 9,                      \
                     k + 1, k + 1, k + 1, k + 1, k + 1, k + 1, k + 1, k + 1), o)), k)
    SA__ROWS(0); SA__ROWS(1); SA__ROWS(2); SA__ROWS(3);
    SA__ROWS(4); SA__ROWS(5); SA__ROWS(6); SA__ROWS(7);
#undef SA__ROWS
    /* word k: row k (low byte), row k + 8 (high byte) */
    return _mm_packus_epi16(_mm_and_si128(v, _mm_set1_epi16(0xFF)), _mm_srli_epi16(v, 8));
}

/* The grant phase of the 16 x 8 byte-matrix paths: per column, the first
 * requesting row of b at or after the output's pointer. */
SA_API __m128i sa__grant16x8(const sa_alloc *a, __m128i b) {
    __m128i h = _mm_and_si128(b, sa__pointer_rows(a->out_ptr));
    __m128i s = _mm_or_si128(h, _mm_andnot_si128(sa__bytes_or_all(h), b));
    return _mm_andnot_si128(_mm_slli_si128(sa__bytes_prefix_or(s), 1), s);
}

/* The accept phase: per row, the lowest grant of g at or after the input's
 * pointer ip (the pointers as bytes), else its lowest grant. */
SA_API __m128i sa__accept16x8(__m128i g, __m128i ip) {
    const __m128i z = _mm_setzero_si128();
    __m128i h = _mm_and_si128(g, sa__bytes_from(ip));
    __m128i s = _mm_or_si128(h, _mm_and_si128(_mm_cmpeq_epi8(h, z), g));
    return _mm_and_si128(s, _mm_sub_epi8(z, s));
}

/* Input pointers past each row's accepted grant ac (bits: its bit index). */
SA_API void sa__in_ptr_update16x8(sa_alloc *a, __m128i ac, __m128i bits, __m128i ip) {
    __m128i keep = _mm_cmpeq_epi8(ac, _mm_setzero_si128());
    __m128i nx = _mm_add_epi8(bits, _mm_set1_epi8(1));
    nx = _mm_andnot_si128(_mm_cmpeq_epi8(nx, _mm_set1_epi8((char)a->num_outputs)), nx);
    _mm_storeu_si128((__m128i *)(void *)a->in_ptr,
                     _mm_or_si128(_mm_and_si128(keep, ip), _mm_andnot_si128(keep, nx)));
}

/* Output pointers past each column's winner (ucol: the winner's bit per
 * 16-bit lane, upd: its index); columns without one keep theirs. */
SA_API void sa__out_ptr_update16x8(sa_alloc *a, __m128i ucol, __m128i upd) {
    __m128i keep = _mm_cmpeq_epi16(ucol, _mm_setzero_si128());
    upd = _mm_add_epi16(upd, _mm_set1_epi16(1));
    upd = _mm_andnot_si128(_mm_cmpeq_epi16(upd, _mm_set1_epi16((short)a->num_inputs)), upd);
    upd = _mm_or_si128(_mm_andnot_si128(keep, upd),
                       _mm_and_si128(keep, _mm_unpacklo_epi8(_mm_loadl_epi64(
                           (const __m128i *)(const void *)a->out_ptr), _mm_setzero_si128())));
    _mm_storel_epi64((__m128i *)(void *)a->out_ptr, _mm_packus_epi16(upd, _mm_setzero_si128()));
}

/* Write the matching of the byte-matrix paths: acc (one accepted bit per
 * row), bits (its index per row), col and lanes (the matched row's bit and
 * index per column). */
SA_API int sa__write_match16x8(sa_match *mt, __m128i acc, __m128i bits, __m128i col, __m128i lanes) {
    const __m128i z = _mm_setzero_si128();
    __m128i cnone = _mm_cmpeq_epi16(col, z), none = _mm_cmpeq_epi8(acc, z), cnt;
    _mm_storel_epi64((__m128i *)(void *)mt->input_of, _mm_packs_epi16(_mm_or_si128(lanes, cnone), z));
    _mm_storeu_si128((__m128i *)(void *)mt->output_of, _mm_or_si128(bits, none));
    mt->inputs = ~(unsigned)_mm_movemask_epi8(none) & 0xFFFFu;
    mt->outputs = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(cnone, z)) & 0xFFu;
    cnt = _mm_sad_epu8(_mm_andnot_si128(none, _mm_set1_epi8(1)), z); /* matched rows */
    mt->size = _mm_cvtsi128_si32(_mm_add_epi32(cnt, _mm_unpackhi_epi64(cnt, cnt)));
    return mt->size;
}

/* iSLIP-k (mode 1) and separable output-first (mode 2) for n <= 16 inputs
 * and m <= 8 outputs without read-port pairs, on the byte matrix, all
 * arbiters of a phase at once and without a branch on the requests: a
 * grant is, per column, the first row at or after the output's pointer
 * among the requesting rows (rows at or after it if any: a per-column
 * "any" test; then the first row: an exclusive prefix OR); an accept is,
 * per row, the lowest bit of the grants at or after the input's pointer,
 * else of all its grants.  The pointers stay indices, turned into byte
 * masks on the way in (compares; three conditional shifts) and back on the
 * way out (bit indices per byte, and per column after a transpose).  Same
 * decisions as sa__request_grant_accept (the tests compare them). */
SA_API int sa__islip16x8_sse2(sa_alloc *a, const uint64_t *eff, int mode, int iterations,
                              sa_match *mt) {
    const __m128i z = _mm_setzero_si128();
    __m128i b, acc = z, col = z, lanes = z, bits = z;
    int it, later = 0;
    b = sa__req_bytes16(a, eff); /* row i in byte i */
    for (it = 0; iterations < 0 || it < iterations; it++) {
        __m128i g = sa__grant16x8(a, b), ac, ip;
        ip = _mm_loadu_si128((const __m128i *)(const void *)a->in_ptr);
        ac = sa__accept16x8(g, ip);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(ac, z)) == 0xFFFF) break; /* no new match */
        if (it == 0) {
            bits = sa__bytes_bit_index(ac);
            sa__in_ptr_update16x8(a, ac, bits, ip);
            /* output pointers past the accepted grant (1) or the grant (2) */
            col = sa__bytes_to_columns(ac);
            lanes = sa__lanes_bit_index(col);
            if (mode == 2) {
                __m128i gcol = sa__bytes_to_columns(g);
                sa__out_ptr_update16x8(a, gcol, sa__lanes_bit_index(gcol));
            } else {
                sa__out_ptr_update16x8(a, col, lanes);
            }
        } else {
            later = 1;
        }
        acc = _mm_or_si128(acc, ac);
        if (it + 1 == iterations) break;
        /* drop the matched rows and columns */
        b = _mm_andnot_si128(sa__bytes_or_all(acc), _mm_and_si128(b, _mm_cmpeq_epi8(acc, z)));
    }
    if (later) {
        col = sa__bytes_to_columns(acc);
        lanes = sa__lanes_bit_index(col);
        bits = sa__bytes_bit_index(acc);
    }
    return sa__write_match16x8(mt, acc, bits, col, lanes);
}
#endif

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
/* sa__islip16x8_sse2 for iSLIP-1 (mode 1, one iteration), straight-line:
 * sa_allocate's iSLIP-1 for n <= 16, m <= 8 without read-port pairs, on
 * req as given (ANDed with connect here).  When nothing is accepted every
 * pointer is stored back unchanged and the matching stays empty, as in
 * sa__islip16x8_sse2's early exit. */
SA_API int sa__islip1_16x8_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    __m128i g = sa__grant16x8(a, sa__req_bytes16(a, req)), ac, ip, col, lanes, bits;
    ip = _mm_loadu_si128((const __m128i *)(const void *)a->in_ptr);
    ac = sa__accept16x8(g, ip);
    bits = sa__bytes_bit_index(ac);
    sa__in_ptr_update16x8(a, ac, bits, ip);
    col = sa__bytes_to_columns(ac);
    lanes = sa__lanes_bit_index(col);
    sa__out_ptr_update16x8(a, col, lanes);
    return sa__write_match16x8(mt, ac, bits, col, lanes);
}
#endif

/* iSLIP-k (mode 1) and separable output-first (mode 2, one iteration). */
SA_API int sa__iterative(sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs,
                         int mode, sa_match *mt) {
    uint64_t col[64];
    int it;
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    if (bufs == NULL && a->num_inputs <= 16 && a->num_outputs <= 8)
        return sa__islip16x8_sse2(a, eff, mode, a->iterations, mt);
#endif
    sa__columns(eff, a->num_inputs, a->num_outputs, col);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++)
        if (sa__request_grant_accept(a, col, bufs, mode, it == 0, mt) == 0) break;
    return mt->size;
}

/* ---------------- PIM-k and PIM1: the draw protocol (seed 002 Section 3.1) ----------------
 *
 * PIM draw protocol (also in sa_allocate's documentation and in
 * docs/allocators.rst).  One allocation runs iterations t = 0, 1, ...
 * (k of them, or until convergence).  An iteration is run only if some
 * unmatched output has a candidate (an unmatched requester, with read-port
 * pairing one whose twin's current match does not need the same packet);
 * otherwise the allocation ends and the iteration draws nothing.  An
 * iteration has two stages, grant then accept, and each stage consumes its
 * own fresh sa_rng_next outputs:
 *
 * - Grant: one lane per output j in 0..m-1.  The stage takes ceil(m/4)
 *   outputs of the generator; lane j's draw is the 16-bit field j mod 4 (bits
 *   16(j mod 4) .. 16(j mod 4)+15) of output j/4.  Every lane has its draw,
 *   whether or not it uses it (matched outputs, outputs with 0 or 1
 *   candidates).  Candidates of output j: its unmatched requesters (minus
 *   the blocked twins); with the Rotary Rule, only the network ones if there
 *   are any.  With c >= 1 candidates and draw u, the lane picks candidate
 *   number (u c) >> 16 (0-based, in increasing input order) unless the low
 *   16 bits of u c are below 65536 mod c (Lemire's rejection), in which case
 *   it redraws.
 * - Accept: the same with one lane per input i in 0..n-1 (ceil(n/4)
 *   outputs), candidates = the outputs that granted input i (minus those its
 *   twin's match now blocks: the even read port accepts first).
 * - Redraws: the lanes rejected in a stage take, in increasing lane order,
 *   further draws from the outputs that follow the stage's block (four
 *   draws per output, lowest bits first; the next rejected lane continues
 *   where the previous one stopped).  Unused draws of a stage's last output
 *   are discarded: the next stage starts on a fresh output.
 *
 * Every candidate is chosen with probability exactly 1/c and all draws are
 * independent.  Rejection is rare (below 64/65536 per lane).  sa_rng_pick
 * is not used (its protocol, one 64-bit output per pick, is unchanged). */

/* PIM, general path (any size, read-port pairing): eff are the effective
 * requests, mt is empty on entry. */
SA_API int sa__pim_general(sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t col[64], grants[SA_ALLOC_MAX + 1], words[16];
    int n = a->num_inputs, m = a->num_outputs, it, w;
    int pairs = a->read_port_pairs && bufs != NULL;
    uint64_t net = a->rotary ? a->network_inputs : 0;
    sa__columns(eff, n, m, col);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++) {
        uint64_t free_in = sa__low_mask(n) & ~mt->inputs, granted = 0, o, g;
        sa__pim_draws d;
        /* Grant (the block is computed up front; the state only moves if
         * some output has a candidate). */
        sa__pim_draws_start(&d, a->rng.state, m);
        for (w = 0; w < (m + 3) >> 2; w++) words[w] = sa__rng_at(d.s, (uint64_t)w);
        for (o = sa__low_mask(m) & ~mt->outputs; o; o &= o - 1) {
            int j = sa__ctz64(o), i;
            uint64_t c = col[j] & free_in, p;
            uint32_t u;
            if (pairs) c = sa__unblocked(a, bufs, mt, c, j);
            if (c & net) c &= net;
            if (c == 0) continue;
            if (granted == 0) sa__zero_words(grants, n);
            p = sa__prefix_counts(c);
            u = (uint32_t)(words[j >> 2] >> (16 * (j & 3))) & 0xFFFFu;
            i = sa__select_bit_counted(c, p, sa__pim_index(u, (uint32_t)(p >> 56), &d));
            granted |= (uint64_t)1 << i;
            grants[i] |= (uint64_t)1 << j;
        }
        if (granted == 0) break;
        a->rng.state = sa__pim_draws_end(&d);
        /* Accept, in increasing input order (even read port first). */
        sa__pim_draws_start(&d, a->rng.state, n);
        for (w = 0; w < (n + 3) >> 2; w++) words[w] = sa__rng_at(d.s, (uint64_t)w);
        for (g = granted; g; g &= g - 1) {
            int i = sa__ctz64(g), j;
            uint64_t gi = grants[i] & ~sa__blocked(a, bufs, mt, i), p;
            uint32_t u;
            if (gi == 0) continue;
            p = sa__prefix_counts(gi);
            u = (uint32_t)(words[i >> 2] >> (16 * (i & 3))) & 0xFFFFu;
            j = sa__select_bit_counted(gi, p, sa__pim_index(u, (uint32_t)(p >> 56), &d));
            sa__match_add(mt, i, j);
        }
        a->rng.state = sa__pim_draws_end(&d);
    }
    return mt->size;
}

#ifdef SA_SIMD_SSE2
/* m ? x : y, lane by lane (m's lanes all ones or all zeros). */
SA_API __m128i sa__sel128(__m128i m, __m128i x, __m128i y) {
    return _mm_xor_si128(y, _mm_and_si128(_mm_xor_si128(x, y), m));
}

/* sa__transpose8 on both 64-bit halves. */
SA_API __m128i sa__transpose8x2(__m128i x) {
    __m128i t;
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 7)), _mm_set1_epi64x(0x00AA00AA00AA00AAll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 7)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 14)), _mm_set1_epi64x(0x0000CCCC0000CCCCll));
    x = _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 14)));
    t = _mm_and_si128(_mm_xor_si128(x, _mm_srli_epi64(x, 28)), _mm_set1_epi64x(0x00000000F0F0F0F0ll));
    return _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64(t, 28)));
}

/* Lanes of k whose draw was (possibly) rejected: redo them in lane order
 * with sa__pim_index, which gives the same index for the others. */
SA_API __m128i sa__pim_fix16(__m128i u, __m128i cnt, __m128i k, int lanes, sa__pim_draws *d, int first) {
    uint16_t ua[8], ca[8], ka[8];
    int l;
    _mm_storeu_si128((__m128i *)(void *)ua, u);
    _mm_storeu_si128((__m128i *)(void *)ca, cnt);
    _mm_storeu_si128((__m128i *)(void *)ka, k);
    for (l = 0; l < 8 && first + l < lanes; l++)
        if (ca[l]) ka[l] = (uint16_t)sa__pim_index(ua[l], ca[l], d);
    return _mm_loadu_si128((const __m128i *)(const void *)ka);
}

#if SA_ALLOC_MAX >= 16
/* ---- PIM's 16 x 8 lanes: helpers of sa__pim_sse2_small and
 * sa__pim1_16x7_sse2 ---- */

/* Population-count tree of x's lanes, valid for 16-bit and for byte lanes
 * (no field carries into the next): *lp = the counts of the lower bit
 * pair of each nibble (2-bit fields at bits 0-1 of each nibble, the rest
 * 0), *p2 = the nibble counts, returned: the byte counts (one per byte). */
SA_API __m128i sa__pim_tree_sse2(__m128i x, __m128i *lp, __m128i *p2) {
    const __m128i m3 = _mm_set1_epi8(0x33);
    __m128i a = _mm_sub_epi8(x, _mm_and_si128(_mm_srli_epi16(x, 1), _mm_set1_epi8(0x55)));
    __m128i b = _mm_and_si128(a, m3);
    *lp = b;
    b = _mm_add_epi8(b, _mm_and_si128(_mm_srli_epi16(a, 2), m3));
    *p2 = b;
    return _mm_and_si128(_mm_add_epi8(b, _mm_srli_epi16(b, 4)), _mm_set1_epi8(0x0F));
}

/* The k-th (0-based) set bit of each 16-bit lane of x, one-hot (0 where x
 * is 0, where k must be 0; elsewhere k is below the lane's count), and in
 * *pos its position (anything where x is 0).  lp, p2, p4 are x's
 * population-count tree (sa__pim_tree_sse2).  The descent (byte, nibble,
 * pair, bit) narrows a window mask instead of shifting the lane: the count
 * of the window's lower half is the one nonzero field of a masked tree
 * level, which a multiply brings to the top; the last step takes the
 * lowest (k = 0) or the highest (k = 1) of the window's at most two bits. */
SA_API __m128i sa__pim_kth16_sse2(__m128i x, __m128i lp, __m128i p2, __m128i p4, __m128i k, __m128i *pos) {
    const __m128i zero = _mm_setzero_si128();
    __m128i L, tk, keep, ps, w, h;
    L = _mm_and_si128(p4, _mm_set1_epi16(0x00FF));
    tk = _mm_cmpgt_epi16(L, k); /* in the low byte */
    k = _mm_sub_epi16(k, _mm_andnot_si128(tk, L));
    keep = _mm_xor_si128(tk, _mm_set1_epi16((short)0xFF00));
    ps = _mm_andnot_si128(tk, _mm_set1_epi16(8));
    L = _mm_and_si128(_mm_and_si128(p2, _mm_set1_epi16(0x0F0F)), keep);
    L = _mm_srli_epi16(_mm_mullo_epi16(L, _mm_set1_epi16(0x0101)), 8);
    tk = _mm_cmpgt_epi16(L, k);
    k = _mm_sub_epi16(k, _mm_andnot_si128(tk, L));
    keep = _mm_and_si128(keep, _mm_xor_si128(tk, _mm_set1_epi16((short)0xF0F0)));
    ps = _mm_add_epi16(ps, _mm_andnot_si128(tk, _mm_set1_epi16(4)));
    L = _mm_srli_epi16(_mm_mullo_epi16(_mm_and_si128(lp, keep), _mm_set1_epi16(0x1111)), 12);
    tk = _mm_cmpgt_epi16(L, k);
    k = _mm_sub_epi16(k, _mm_andnot_si128(tk, L));
    keep = _mm_and_si128(keep, _mm_xor_si128(tk, _mm_set1_epi16((short)0xCCCC)));
    ps = _mm_add_epi16(ps, _mm_andnot_si128(tk, _mm_set1_epi16(2)));
    w = _mm_and_si128(x, keep);
    h = _mm_and_si128(w, _mm_xor_si128(_mm_add_epi16(w, _mm_set1_epi16(-1)), _mm_cmpeq_epi16(k, zero)));
    *pos = _mm_sub_epi16(ps, _mm_cmpeq_epi16(_mm_and_si128(h, _mm_set1_epi16(0x5555)), zero));
    return h;
}

/* sa__pim_kth16_sse2 for byte lanes: lp, q2 from sa__pim_tree_sse2; the
 * window's lower-pair count is the one nonzero nibble field of the masked
 * lp, ORed down. */
SA_API __m128i sa__pim_kth8_sse2(__m128i x, __m128i lp, __m128i q2, __m128i k, __m128i *pos) {
    const __m128i zero = _mm_setzero_si128();
    __m128i L, tk, keep, ps, w, h;
    L = _mm_and_si128(q2, _mm_set1_epi8(0x0F));
    tk = _mm_cmpgt_epi8(L, k); /* in the low nibble */
    k = _mm_sub_epi8(k, _mm_andnot_si128(tk, L));
    keep = _mm_xor_si128(tk, _mm_set1_epi8((char)0xF0));
    ps = _mm_andnot_si128(tk, _mm_set1_epi8(4));
    L = _mm_and_si128(lp, keep);
    L = _mm_and_si128(_mm_or_si128(L, _mm_srli_epi16(L, 4)), _mm_set1_epi8(0x03));
    tk = _mm_cmpgt_epi8(L, k);
    k = _mm_sub_epi8(k, _mm_andnot_si128(tk, L));
    keep = _mm_and_si128(keep, _mm_xor_si128(tk, _mm_set1_epi8((char)0xCC)));
    ps = _mm_add_epi8(ps, _mm_andnot_si128(tk, _mm_set1_epi8(2)));
    w = _mm_and_si128(x, keep);
    h = _mm_and_si128(w, _mm_xor_si128(_mm_add_epi8(w, _mm_set1_epi8(-1)), _mm_cmpeq_epi8(k, zero)));
    *pos = _mm_sub_epi8(ps, _mm_cmpeq_epi8(_mm_and_si128(h, _mm_set1_epi8(0x55)), zero));
    return h;
}

/* The columns of a 16 x 7 bit matrix held as 16 bytes (byte i = row i,
 * bit 7 ignored): 16-bit lane j = column j (bit i = bit j of row i) for j
 * < 7, lane 7 = 0.  Each doubling of the bytes brings the next column to
 * their top bits, which pmovmskb gathers; the seven masks are joined in two
 * 64-bit words (a chain of pinsrw would be longer). */
SA_API __m128i sa__pim_cols16x7_sse2(__m128i rows) {
    __m128i t = _mm_add_epi8(rows, rows);
    uint64_t c6 = (uint64_t)_mm_movemask_epi8(t), c5, c4, c3, c2, c1, c0;
    t = _mm_add_epi8(t, t);
    c5 = (uint64_t)_mm_movemask_epi8(t);
    t = _mm_add_epi8(t, t);
    c4 = (uint64_t)_mm_movemask_epi8(t);
    t = _mm_add_epi8(t, t);
    c3 = (uint64_t)_mm_movemask_epi8(t);
    t = _mm_add_epi8(t, t);
    c2 = (uint64_t)_mm_movemask_epi8(t);
    t = _mm_add_epi8(t, t);
    c1 = (uint64_t)_mm_movemask_epi8(t);
    t = _mm_add_epi8(t, t);
    c0 = (uint64_t)_mm_movemask_epi8(t);
    return _mm_set_epi64x((long long)(c4 | c5 << 16 | c6 << 32), (long long)(c0 | c1 << 16 | (c2 | c3 << 16) << 32));
}

/* PIM without read-port pairing for n <= 16 inputs and m <= 8 outputs, all
 * outputs at once: grant in 16-bit lanes (one per output, the column of its
 * requesters), accept in byte lanes (one per input, its grants).  The k-th
 * candidate of a lane is found by descending its population-count tree
 * (byte, nibble, pair, bit: sa__pim_kth16_sse2, sa__pim_kth8_sse2).  Same
 * decisions and draws as sa__pim_general.  Fills mt completely. */
SA_API int sa__pim_sse2_small(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(-1);
    const __m128i lanebit = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
    int n = a->num_inputs, m = a->num_outputs, it, i, rotary;
    uint64_t s = a->rng.state, free_in = sa__low_mask(n), outs = 0;
    __m128i rows, t, cols, net16, outof = ones, inof = ones;
    if (n == 16) {
        const uint64_t *c = a->connect;
        __m128i v0 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 0)), _mm_loadu_si128((const __m128i *)(const void *)(c + 0)));
        __m128i v1 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 2)), _mm_loadu_si128((const __m128i *)(const void *)(c + 2)));
        __m128i v2 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 4)), _mm_loadu_si128((const __m128i *)(const void *)(c + 4)));
        __m128i v3 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 6)), _mm_loadu_si128((const __m128i *)(const void *)(c + 6)));
        __m128i v4 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 8)), _mm_loadu_si128((const __m128i *)(const void *)(c + 8)));
        __m128i v5 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 10)), _mm_loadu_si128((const __m128i *)(const void *)(c + 10)));
        __m128i v6 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 12)), _mm_loadu_si128((const __m128i *)(const void *)(c + 12)));
        __m128i v7 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(req + 14)), _mm_loadu_si128((const __m128i *)(const void *)(c + 14)));
        /* rows are below 256: (r, 0) 32-bit pairs pack down to bytes */
        __m128i b0 = _mm_packs_epi32(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3));
        __m128i b1 = _mm_packs_epi32(_mm_packs_epi32(v4, v5), _mm_packs_epi32(v6, v7));
        rows = _mm_packus_epi16(b0, b1);
    } else {
        uint64_t w[2] = { 0, 0 };
        for (i = 0; i < n; i++) w[i >> 3] |= (req[i] & a->connect[i]) << (8 * (i & 7));
        rows = _mm_set_epi64x((long long)w[1], (long long)w[0]);
    }
    /* Columns: 8 x 8 transposes of inputs 0-7 and 8-15, then lane j =
     * column j (inputs 0-7 in its low byte). */
    t = sa__transpose8x2(rows);
    cols = _mm_unpacklo_epi8(t, _mm_unpackhi_epi64(t, t));
    net16 = _mm_set1_epi16((short)(a->rotary ? a->network_inputs : 0));
    rotary = a->rotary && a->network_inputs;
    for (it = 0; a->iterations < 0 || it < a->iterations; it++) {
        __m128i x, lp, p2, p4, cnt, u, k, lo, h, gpos, P, G, q2, c8, u0, u1, k0, k1, nz, acc, pos8, h8;
        uint64_t next;
        int nb = (m + 3) >> 2, ins;
        /* Grant. */
        x = it == 0 ? cols : _mm_and_si128(_mm_and_si128(cols, _mm_set1_epi16((short)free_in)), _mm_cmpeq_epi16(inof, ones));
        if (rotary) {
            __m128i nn = _mm_and_si128(x, net16);
            x = _mm_or_si128(nn, _mm_and_si128(x, _mm_cmpeq_epi16(nn, zero)));
        }
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(x, zero)) == 0xFFFF) break;
        p4 = sa__pim_tree_sse2(x, &lp, &p2);
        cnt = _mm_srli_epi16(_mm_mullo_epi16(p4, _mm_set1_epi16(0x0101)), 8);
        u = _mm_set_epi64x(nb > 1 ? (long long)sa__rng_at(s, 1) : 0, (long long)sa__rng_at(s, 0));
        k = _mm_mulhi_epu16(u, cnt);
        lo = _mm_mullo_epi16(u, cnt);
        next = (uint64_t)nb;
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_subs_epu16(cnt, lo), zero)) != 0xFFFF) {
            sa__pim_draws d;
            sa__pim_draws_start(&d, s, m);
            k = sa__pim_fix16(u, cnt, k, m, &d, 0);
            next = d.next;
        }
        s += next * 0x9E3779B97F4A7C15ull;
        /* k-th set bit of each lane, and its one-hot mask h (0 where no
         * candidate). */
        h = sa__pim_kth16_sse2(x, lp, p2, p4, k, &gpos);
        /* Grants per input: byte i of G = the outputs that granted input i. */
        P = _mm_packus_epi16(_mm_and_si128(h, _mm_set1_epi16(0x00FF)), _mm_srli_epi16(h, 8));
        G = sa__transpose8x2(P);
        /* Accept. */
        c8 = sa__pim_tree_sse2(G, &lp, &q2);
        nb = (n + 3) >> 2;
        u0 = _mm_set_epi64x(nb > 1 ? (long long)sa__rng_at(s, 1) : 0, (long long)sa__rng_at(s, 0));
        u1 = nb > 2 ? _mm_set_epi64x(nb > 3 ? (long long)sa__rng_at(s, 3) : 0, (long long)sa__rng_at(s, 2)) : zero;
        {
            __m128i c0 = _mm_unpacklo_epi8(c8, zero), c1 = _mm_unpackhi_epi8(c8, zero);
            __m128i r0 = _mm_cmpeq_epi16(_mm_subs_epu16(c0, _mm_mullo_epi16(u0, c0)), zero);
            __m128i r1 = _mm_cmpeq_epi16(_mm_subs_epu16(c1, _mm_mullo_epi16(u1, c1)), zero);
            k0 = _mm_mulhi_epu16(u0, c0);
            k1 = _mm_mulhi_epu16(u1, c1);
            next = (uint64_t)nb;
            if (_mm_movemask_epi8(_mm_and_si128(r0, r1)) != 0xFFFF) {
                sa__pim_draws d;
                sa__pim_draws_start(&d, s, n);
                k0 = sa__pim_fix16(u0, c0, k0, n, &d, 0);
                k1 = sa__pim_fix16(u1, c1, k1, n, &d, 8);
                next = d.next;
            }
            s += next * 0x9E3779B97F4A7C15ull;
        }
        h8 = sa__pim_kth8_sse2(G, lp, q2, _mm_packus_epi16(k0, k1), &pos8);
        /* The matches of this iteration. */
        nz = _mm_cmpeq_epi8(c8, zero);
        outof = sa__sel128(nz, outof, pos8);
        /* the accepted outputs: distinct one-hot bytes, so their OR is their sum */
        acc = _mm_sad_epu8(_mm_andnot_si128(nz, h8), zero);
        acc = _mm_add_epi64(acc, _mm_shuffle_epi32(acc, 0x4E));
        {
            __m128i nm = _mm_shuffle_epi32(_mm_shufflelo_epi16(acc, 0), 0);
            nm = _mm_cmpeq_epi16(_mm_and_si128(nm, lanebit), lanebit);
            inof = sa__sel128(nm, gpos, inof);
            outs |= (uint64_t)(_mm_cvtsi128_si32(acc) & 0xFF);
        }
        ins = ~_mm_movemask_epi8(nz) & 0xFFFF;
        free_in &= ~(uint64_t)ins;
    }
    a->rng.state = s;
    _mm_storeu_si128((__m128i *)(void *)mt->output_of, outof);
    _mm_storeu_si128((__m128i *)(void *)mt->input_of, _mm_packs_epi16(inof, ones));
    for (i = 16; i + 16 <= SA_ALLOC_MAX; i += 16) {
        _mm_storeu_si128((__m128i *)(void *)(mt->output_of + i), ones);
        _mm_storeu_si128((__m128i *)(void *)(mt->input_of + i), ones);
    }
    for (; i < SA_ALLOC_MAX; i++) mt->output_of[i] = mt->input_of[i] = -1;
    mt->inputs = sa__low_mask(n) & ~free_in;
    mt->outputs = outs;
    mt->size = sa__bits(mt->inputs);
    return mt->size;
}

/* ---- PIM1 up to 16 x 8 (the Alpha 21364's 16 x 7 first) ---- */

/* PIM1's accept on the grants G with the block draws u0 (inputs 0-7) and
 * u1 (8-15): each input's accepted output, one-hot (0: none), *pos8 its
 * position (anything where none); *rej gets the lanes whose draw may be
 * rejected ORed in. */
SA_API __m128i sa__pim1_accept_sse2(__m128i G, __m128i u0, __m128i u1, __m128i *rej, __m128i *pos8) {
    const __m128i zero = _mm_setzero_si128();
    __m128i lp, q2, c8 = sa__pim_tree_sse2(G, &lp, &q2);
    __m128i c0 = _mm_unpacklo_epi8(c8, zero), c1 = _mm_unpackhi_epi8(c8, zero);
    __m128i k0 = _mm_mulhi_epu16(u0, c0), k1 = _mm_mulhi_epu16(u1, c1);
    *rej = _mm_or_si128(*rej, _mm_subs_epu16(c0, _mm_mullo_epi16(u0, c0)));
    *rej = _mm_or_si128(*rej, _mm_subs_epu16(c1, _mm_mullo_epi16(u1, c1)));
    return sa__pim_kth8_sse2(G, lp, q2, _mm_packus_epi16(k0, k1), pos8);
}

/* Write PIM1's matching from each input's accepted output h8 (one-hot, 0:
 * none) at position pos8 and each output's granted input gpos; m8: there
 * may be an output 7.  The accepted outputs' OR is their sum, and a count
 * of the accepted inputs rides above it (above bit 7 when there is no
 * output 7).  Returns the size. */
SA_API int sa__pim1_write_sse2(sa_match *mt, __m128i h8, __m128i pos8, __m128i gpos, int m8) {
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(-1);
    __m128i nz = _mm_cmpeq_epi8(h8, zero), acc;
    int i, v, sh = m8 ? 8 : 7;
    if (m8)
        acc = _mm_add_epi64(_mm_sad_epu8(h8, zero),
                            _mm_slli_epi64(_mm_sad_epu8(_mm_andnot_si128(nz, _mm_set1_epi8(1)), zero), 8));
    else
        acc = _mm_sad_epu8(_mm_or_si128(h8, _mm_andnot_si128(nz, _mm_set1_epi8((char)0x80))), zero);
    acc = _mm_add_epi64(acc, _mm_unpackhi_epi64(acc, acc));
    v = _mm_cvtsi128_si32(acc);
    acc = _mm_shuffle_epi32(_mm_shufflelo_epi16(acc, 0), 0);
    acc = _mm_cmpeq_epi16(_mm_and_si128(acc, _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, (short)(m8 ? 128 : 0))), zero);
    _mm_storeu_si128((__m128i *)(void *)mt->output_of, _mm_or_si128(pos8, nz));
    _mm_storeu_si128((__m128i *)(void *)mt->input_of, _mm_packs_epi16(_mm_or_si128(gpos, acc), ones));
    for (i = 16; i + 16 <= SA_ALLOC_MAX; i += 16) {
        _mm_storeu_si128((__m128i *)(void *)(mt->output_of + i), ones);
        _mm_storeu_si128((__m128i *)(void *)(mt->input_of + i), ones);
    }
    for (; i < SA_ALLOC_MAX; i++) mt->output_of[i] = mt->input_of[i] = -1;
    mt->inputs = (uint64_t)(_mm_movemask_epi8(nz) ^ 0xFFFF);
    mt->outputs = (uint64_t)(v & ((1 << sh) - 1));
    mt->size = v >> sh;
    return mt->size;
}

/* The Rotary Rule on columns x: where a column has network candidates,
 * only those. */
SA_API __m128i sa__pim1_rotary_sse2(const sa_alloc *a, __m128i x) {
    if (a->rotary && a->network_inputs) {
        __m128i nn = _mm_and_si128(x, _mm_set1_epi16((short)a->network_inputs));
        x = _mm_or_si128(nn, _mm_and_si128(x, _mm_cmpeq_epi16(nn, _mm_setzero_si128())));
    }
    return x;
}

/* PIM1's grant stage on the candidate columns X (16-bit lane j: output
 * j's requesters) with the block draws U: G gets per input the outputs
 * that granted it (byte i), GPOS the granted input of each output lane,
 * REJ nonzero in the lanes whose draw may be rejected.  (A macro: GCC does
 * not inline it as a function into both of its users, and the call costs
 * PIM1 at 16 x 7 about 5% more instructions.) */
#define SA__PIM1_GRANT(X, U, REJ, GPOS, G) do { \
        __m128i lp_, p2_, p4_, cnt_, h_; \
        p4_ = sa__pim_tree_sse2((X), &lp_, &p2_); \
        cnt_ = _mm_srli_epi16(_mm_mullo_epi16(p4_, _mm_set1_epi16(0x0101)), 8); \
        (REJ) = _mm_subs_epu16(cnt_, _mm_mullo_epi16((U), cnt_)); \
        h_ = sa__pim_kth16_sse2((X), lp_, p2_, p4_, _mm_mulhi_epu16((U), cnt_), &(GPOS)); \
        (G) = sa__transpose8x2(_mm_packus_epi16(_mm_and_si128(h_, _mm_set1_epi16(0x00FF)), _mm_srli_epi16(h_, 8))); \
    } while (0)

/* PIM1 (one iteration, no read-port pairing) at exactly 16 inputs and 7
 * outputs, straight-line: the rows packed to bytes and ANDed with
 * spaa_connect (connect[] as bytes); the columns by pmovmskb; the grant in
 * 16-bit lanes (one per output) and the accept in byte lanes (one per
 * input), each a population-count tree, Lemire's multiply on the block
 * draws (the six generator outputs the two blocks take when nothing is
 * rejected) and sa__pim_kth*.  When a draw may be rejected (below 0.3% of
 * the allocations) nothing has been written yet and sa__pim_sse2_small
 * does the allocation.  Same decisions and draws as sa__pim_general.
 * Fills mt. */
SA_API int sa__pim1_16x7_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    uint64_t s = a->rng.state;
    __m128i rows, x, rej, gpos, G, pos8, h8;
    {
        /* rows are below 128 (sa_allocate's precondition): (r, 0) 32-bit
         * pairs pack down to bytes */
#define SA__R(k) _mm_loadu_si128((const __m128i *)(const void *)(req + (k)))
        __m128i b0 = _mm_packs_epi32(_mm_packs_epi32(SA__R(0), SA__R(2)), _mm_packs_epi32(SA__R(4), SA__R(6)));
        __m128i b1 = _mm_packs_epi32(_mm_packs_epi32(SA__R(8), SA__R(10)), _mm_packs_epi32(SA__R(12), SA__R(14)));
#undef SA__R
        rows = _mm_and_si128(_mm_packus_epi16(b0, b1), _mm_loadu_si128((const __m128i *)(const void *)a->spaa_connect));
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(rows, _mm_setzero_si128())) == 0xFFFF) {
        sa__match_clear(mt); /* no requests: the state does not move */
        return 0;
    }
    x = sa__pim1_rotary_sse2(a, sa__pim_cols16x7_sse2(rows));
    /* grant: generator outputs 0 and 1; accept: 2 to 5 */
    SA__PIM1_GRANT(x, _mm_set_epi64x((long long)sa__rng_at(s, 1), (long long)sa__rng_at(s, 0)), rej, gpos, G);
    h8 = sa__pim1_accept_sse2(G, _mm_set_epi64x((long long)sa__rng_at(s, 3), (long long)sa__rng_at(s, 2)),
                              _mm_set_epi64x((long long)sa__rng_at(s, 5), (long long)sa__rng_at(s, 4)), &rej, &pos8);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(rej, _mm_setzero_si128())) != 0xFFFF) return sa__pim_sse2_small(a, req, mt);
    a->rng.state = s + 6 * 0x9E3779B97F4A7C15ull;
    return sa__pim1_write_sse2(mt, h8, pos8, gpos, 0);
}

/* sa__pim1_16x7_sse2 for any n <= 16 and m <= 8: the grant block is
 * ceil(m/4) generator outputs, the accept block the next ceil(n/4) (the
 * draws of lanes beyond m or n are computed but, those lanes having no
 * candidate, not used). */
SA_API int sa__pim1_16x8_sse2(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    const uint64_t gamma = 0x9E3779B97F4A7C15ull;
    int n = a->num_inputs, m = a->num_outputs;
    uint64_t s = a->rng.state, sa = s + (uint64_t)((m + 3) >> 2) * gamma;
    __m128i rows = sa__req_bytes16(a, req), x, rej, gpos, G, pos8, h8;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(rows, _mm_setzero_si128())) == 0xFFFF) {
        sa__match_clear(mt);
        return 0;
    }
    x = sa__pim_cols16x7_sse2(rows);
    if (m == 8) x = _mm_insert_epi16(x, _mm_movemask_epi8(rows), 7);
    x = sa__pim1_rotary_sse2(a, x);
    SA__PIM1_GRANT(x, _mm_set_epi64x((long long)sa__rng_at(s, 1), (long long)sa__rng_at(s, 0)), rej, gpos, G);
    h8 = sa__pim1_accept_sse2(G, _mm_set_epi64x((long long)sa__rng_at(sa, 1), (long long)sa__rng_at(sa, 0)),
                              _mm_set_epi64x((long long)sa__rng_at(sa, 3), (long long)sa__rng_at(sa, 2)), &rej, &pos8);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(rej, _mm_setzero_si128())) != 0xFFFF) return sa__pim_sse2_small(a, req, mt);
    a->rng.state = sa + (uint64_t)((n + 3) >> 2) * gamma;
    return sa__pim1_write_sse2(mt, h8, pos8, gpos, m == 8);
}
#undef SA__PIM1_GRANT
#endif
#endif /* SA_SIMD_SSE2 */

/* Store the four 16-bit draws of the word x at u[0..3], lowest first. */
SA_API void sa__pim_put4(uint16_t *u, uint64_t x) {
#ifdef SA_SIMD_SSE2
    memcpy(u, &x, 8); /* (x86: little-endian) */
#else
    u[0] = (uint16_t)x;
    u[1] = (uint16_t)(x >> 16);
    u[2] = (uint16_t)(x >> 32);
    u[3] = (uint16_t)(x >> 48);
#endif
}

/* A PIM stage's block draws as 16-bit values: u16[l] = lane l's draw for
 * every lane l in the block words that hold a lane of the set `lanes`
 * (when ten or more words are needed, all 16 words: a loop of fixed length,
 * without a branch per word).  Other entries are not written. */
SA_API void sa__pim_draws16(const sa__pim_draws *d, uint64_t lanes, uint16_t *u16) {
    /* bit 4w: word w holds a lane of the set */
    uint64_t need = (lanes | lanes >> 1 | lanes >> 2 | lanes >> 3) & 0x1111111111111111ull;
    uint64_t z = d->s;
    size_t w4;
    if (sa__bits(need) >= 10) {
        for (w4 = 0; w4 < 64; w4 += 4) sa__pim_put4(u16 + w4, sa__rng_mix(z += 0x9E3779B97F4A7C15ull));
        return;
    }
    for (; need; need &= need - 1) {
        w4 = (size_t)sa__ctz64(need); /* 4w */
        sa__pim_put4(u16 + w4, sa__rng_mix(z + (uint64_t)((w4 >> 2) + 1) * 0x9E3779B97F4A7C15ull));
    }
}

/* One lane's pick: the position of candidate number idx(u, count) of the
 * mask x (not 0), redraws from d. */
SA_API int sa__pim_pick1(uint64_t x, uint32_t u, sa__pim_draws *d) {
    /* (no shortcut for few candidates: its branch mispredicts more than
     * the counting costs) */
    uint64_t p = sa__prefix_counts(x);
    return sa__pim_select(x, p, sa__pim_index(u, (uint32_t)(p >> 56), d));
}

#ifdef SA_SIMD_SSE2
/* Population count of each 16-bit lane. */
SA_API __m128i sa__popcnt16_sse2(__m128i x) {
    const __m128i m5 = _mm_set1_epi8(0x55), m3 = _mm_set1_epi8(0x33), m0f = _mm_set1_epi8(0x0F);
    x = _mm_sub_epi16(x, _mm_and_si128(_mm_srli_epi16(x, 1), m5));
    x = _mm_add_epi16(_mm_and_si128(x, m3), _mm_and_si128(_mm_srli_epi16(x, 2), m3));
    x = _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(x, 4)), m0f);
    return _mm_srli_epi16(_mm_add_epi16(x, _mm_slli_epi16(x, 8)), 8);
}

/* Position of set bit number k (k below the lane's population count) of
 * each 16-bit lane of x: down the lane's population-count tree (byte,
 * nibble, pair, bit), one lane-wise select per level. */
SA_API __m128i sa__select16_sse2(__m128i x, __m128i k) {
    const __m128i m5 = _mm_set1_epi8(0x55), m3 = _mm_set1_epi8(0x33), m0f = _mm_set1_epi8(0x0F);
    __m128i p1, p2, p4, L, t, pos;
    p1 = _mm_sub_epi16(x, _mm_and_si128(_mm_srli_epi16(x, 1), m5));
    p2 = _mm_add_epi16(_mm_and_si128(p1, m3), _mm_and_si128(_mm_srli_epi16(p1, 2), m3));
    p4 = _mm_and_si128(_mm_add_epi16(p2, _mm_srli_epi16(p2, 4)), m0f);
    L = _mm_and_si128(p4, _mm_set1_epi16(0x00FF));
    t = _mm_cmpgt_epi16(L, k);
    k = _mm_sub_epi16(k, _mm_andnot_si128(t, L));
    p2 = sa__sel128(t, p2, _mm_srli_epi16(p2, 8));
    p1 = sa__sel128(t, p1, _mm_srli_epi16(p1, 8));
    x = sa__sel128(t, x, _mm_srli_epi16(x, 8));
    pos = _mm_andnot_si128(t, _mm_set1_epi16(8));
    L = _mm_and_si128(p2, _mm_set1_epi16(0x000F));
    t = _mm_cmpgt_epi16(L, k);
    k = _mm_sub_epi16(k, _mm_andnot_si128(t, L));
    p1 = sa__sel128(t, p1, _mm_srli_epi16(p1, 4));
    x = sa__sel128(t, x, _mm_srli_epi16(x, 4));
    pos = _mm_add_epi16(pos, _mm_andnot_si128(t, _mm_set1_epi16(4)));
    L = _mm_and_si128(p1, _mm_set1_epi16(3));
    t = _mm_cmpgt_epi16(L, k);
    k = _mm_sub_epi16(k, _mm_andnot_si128(t, L));
    x = sa__sel128(t, x, _mm_srli_epi16(x, 2));
    pos = _mm_add_epi16(pos, _mm_andnot_si128(t, _mm_set1_epi16(2)));
    t = _mm_cmpgt_epi16(_mm_and_si128(x, _mm_set1_epi16(1)), k);
    return _mm_add_epi16(pos, _mm_andnot_si128(t, _mm_set1_epi16(1)));
}

/* The picks of eight lanes from their masks' 16-bit chunks v0..v3 (chunk q:
 * bits 16q..16q+15; only the first `chunks` may be nonzero) and draws u:
 * the draw picks the chunk from the chunks' running counts, then the bit
 * within it.  Lanes b..b+7 of a stage of `lanes` lanes (for the redraws);
 * returns the positions, -1 for an empty mask. */
SA_API __m128i sa__pim_pick8_sse2(__m128i v0, __m128i v1, __m128i v2, __m128i v3, int chunks, __m128i u,
                                  int lanes, int b, sa__pim_draws *d) {
    const __m128i zero = _mm_setzero_si128();
    __m128i n0, s1, s2, tot, k, t0, t1, t2, x, below, base;
    n0 = sa__popcnt16_sse2(v0);
    s1 = s2 = tot = n0; /* chunks beyond `chunks` are 0 */
    if (chunks > 1) s1 = s2 = tot = _mm_add_epi16(n0, sa__popcnt16_sse2(v1));
    if (chunks > 2) s2 = tot = _mm_add_epi16(s1, sa__popcnt16_sse2(v2));
    if (chunks > 3) tot = _mm_add_epi16(s2, sa__popcnt16_sse2(v3));
    k = _mm_mulhi_epu16(u, tot);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_subs_epu16(tot, _mm_mullo_epi16(u, tot)), zero)) != 0xFFFF)
        k = sa__pim_fix16(u, tot, k, lanes, d, b);
    if (chunks == 1) {
        x = sa__select16_sse2(v0, k);
    } else {
        t0 = _mm_cmpgt_epi16(n0, k);
        t1 = _mm_cmpgt_epi16(s1, k);
        t2 = _mm_cmpgt_epi16(s2, k);
        x = sa__sel128(t0, v0, sa__sel128(t1, v1, sa__sel128(t2, v2, v3)));
        below = _mm_andnot_si128(t0, sa__sel128(t1, n0, sa__sel128(t2, s1, s2)));
        base = _mm_andnot_si128(t0, sa__sel128(t1, _mm_set1_epi16(16),
                                               sa__sel128(t2, _mm_set1_epi16(32), _mm_set1_epi16(48))));
        x = _mm_add_epi16(base, sa__select16_sse2(x, _mm_sub_epi16(k, below)));
    }
    return _mm_or_si128(x, _mm_cmpeq_epi16(tot, zero));
}

/* The stage's block draws of lanes b..b+7 (b a multiple of 8). */
SA_API __m128i sa__pim_block8_sse2(const sa__pim_draws *d, int b) {
    return _mm_set_epi64x((long long)sa__rng_at(d->s, (uint64_t)(b >> 2) + 1),
                          (long long)sa__rng_at(d->s, (uint64_t)(b >> 2)));
}

/* The picks of one PIM stage's lanes 0..lanes-1 (pos[l] = the position of
 * candidate number idx(u_l, count) of mask[l], as sa__pim_pick1 gives it,
 * redraws in lane order), eight lanes at a time: each 64-bit mask is split into four 16-bit chunks (one vector per chunk; only
 * the first `chunks` may be nonzero), then sa__pim_pick8_sse2; pos gets -1
 * for an empty mask.  mask and pos hold lanes rounded up to
 * 8 entries (mask zero beyond lanes).  draws: NULL (lane l's draw is the
 * stage's block draw l), or the lanes' draws (for lanes gathered from a
 * stage's lanes, in their order). */
SA_API void sa__pim_pick_sse2(const uint64_t *mask, int lanes, int chunks, const uint16_t *draws,
                              sa__pim_draws *d, int8_t *pos) {
    const __m128i zero = _mm_setzero_si128();
    int b;
    for (b = 0; b < lanes; b += 8) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)(mask + b));
        __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(mask + b + 2));
        __m128i a2 = _mm_loadu_si128((const __m128i *)(const void *)(mask + b + 4));
        __m128i a3 = _mm_loadu_si128((const __m128i *)(const void *)(mask + b + 6));
        __m128i b0, b1, b2, b3, u, x;
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3)), zero)) == 0xFFFF) {
            _mm_storel_epi64((__m128i *)(void *)(pos + b), _mm_set1_epi8(-1));
            continue;
        }
        /* chunk q (bits 16q..16q+15) of the eight masks */
        b0 = _mm_unpacklo_epi16(a0, a1);
        b1 = _mm_unpackhi_epi16(a0, a1);
        b2 = _mm_unpacklo_epi16(a2, a3);
        b3 = _mm_unpackhi_epi16(a2, a3);
        a0 = _mm_unpacklo_epi16(b0, b1);
        a1 = _mm_unpackhi_epi16(b0, b1);
        a2 = _mm_unpacklo_epi16(b2, b3);
        a3 = _mm_unpackhi_epi16(b2, b3);
        if (draws != NULL)
            u = _mm_loadu_si128((const __m128i *)(const void *)(draws + b));
        else
            u = sa__pim_block8_sse2(d, b);
        x = sa__pim_pick8_sse2(_mm_unpacklo_epi64(a0, a2), _mm_unpackhi_epi64(a0, a2), _mm_unpacklo_epi64(a1, a3),
                               _mm_unpackhi_epi64(a1, a3), chunks, u, lanes, b, d);
        _mm_storel_epi64((__m128i *)(void *)(pos + b), _mm_packs_epi16(x, x));
    }
}

#endif

#ifdef SA_SIMD_SSE2
/* Column masks of the n x m matrix req & connect (n, m <= 64): col[j] for
 * j < m rounded up to 8.  Each group of 16 rows is byte-transposed (vector
 * x[b]: byte b of the 16 rows), then each bit of those bytes is collected
 * with movemask, most significant first. */
SA_API void sa__pim_columns_sse2(const uint64_t *req, const uint64_t *connect, int n, int m, uint64_t *col) {
    __m128i x[4][8];
    int q, b, nq = (n + 15) >> 4, nb = (m + 7) >> 3;
    for (q = 0; q < nq; q++) {
        static const uint64_t all[16] = { ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
                                          ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull };
        uint64_t rows[16];
        const uint64_t *r = req + 16 * q, *c = connect + 16 * q;
        __m128i u[8], v[8], w[8];
        int i;
        if (16 * q + 16 > n) { /* the last, partial group of rows */
            for (i = 0; i < 16; i++) rows[i] = 16 * q + i < n ? r[i] & c[i] : 0;
            r = rows;
            c = all;
        }
        for (i = 0; i < 8; i++)
            u[i] = _mm_unpacklo_epi8(
                _mm_and_si128(_mm_loadl_epi64((const __m128i *)(const void *)(r + i)),
                              _mm_loadl_epi64((const __m128i *)(const void *)(c + i))),
                _mm_and_si128(_mm_loadl_epi64((const __m128i *)(const void *)(r + i + 8)),
                              _mm_loadl_epi64((const __m128i *)(const void *)(c + i + 8))));
        for (i = 0; i < 4; i++) {
            v[i] = _mm_unpacklo_epi8(u[i], u[i + 4]);     /* bytes 0-3 of rows i, i+4, i+8, i+12 */
            v[i + 4] = _mm_unpackhi_epi8(u[i], u[i + 4]); /* bytes 4-7 */
        }
        for (i = 0; i < 2; i++) {
            w[i] = _mm_unpacklo_epi8(v[i], v[i + 2]);         /* bytes 0-1 */
            w[i + 2] = _mm_unpackhi_epi8(v[i], v[i + 2]);     /* bytes 2-3 */
            w[i + 4] = _mm_unpacklo_epi8(v[i + 4], v[i + 6]); /* bytes 4-5 */
            w[i + 6] = _mm_unpackhi_epi8(v[i + 4], v[i + 6]); /* bytes 6-7 */
        }
        for (i = 0; i < 4; i++) {
            x[q][2 * i] = _mm_unpacklo_epi8(w[2 * i], w[2 * i + 1]);
            x[q][2 * i + 1] = _mm_unpackhi_epi8(w[2 * i], w[2 * i + 1]);
        }
    }
    for (b = 0; b < nb; b++) {
        uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0;
        __m128i y;
        /* (constant shifts: a shift by a variable count costs more) */
#define SA__PIM_BIT(cj, sh) cj |= (uint64_t)(unsigned)_mm_movemask_epi8(y) << (sh); y = _mm_add_epi8(y, y)
#define SA__PIM_GROUP(q)                                                              \
        y = x[q][b];                                                                  \
        SA__PIM_BIT(c7, 16 * (q)); SA__PIM_BIT(c6, 16 * (q)); SA__PIM_BIT(c5, 16 * (q)); \
        SA__PIM_BIT(c4, 16 * (q)); SA__PIM_BIT(c3, 16 * (q)); SA__PIM_BIT(c2, 16 * (q)); \
        SA__PIM_BIT(c1, 16 * (q)); SA__PIM_BIT(c0, 16 * (q))
        SA__PIM_GROUP(0);
        if (nq > 1) { SA__PIM_GROUP(1); }
        if (nq > 2) { SA__PIM_GROUP(2); }
        if (nq > 3) { SA__PIM_GROUP(3); }
#undef SA__PIM_GROUP
#undef SA__PIM_BIT
        /* col has room for whole blocks of 8 (entries at or above m: 0) */
        col[8 * b] = c0; col[8 * b + 1] = c1; col[8 * b + 2] = c2; col[8 * b + 3] = c3;
        col[8 * b + 4] = c4; col[8 * b + 5] = c5; col[8 * b + 6] = c6; col[8 * b + 7] = c7;
    }
}
#endif

#ifdef SA_SIMD_SSE2
/* Column masks of the n x 64 matrix req & connect (n <= 64; rows at or
 * above n count as 0, and are not read): col[j] for all 64 j, by the
 * recursive 64 x 64 bit transpose (six rounds of swapping the off-diagonal
 * blocks of each 2s x 2s block, s = 32, 16, ..., 1), two rows per vector.
 * Cheaper than sa__pim_columns_sse2 when n and m are both above 32. */
SA_API void sa__pim_transpose64_sse2(const uint64_t *req, const uint64_t *connect, int n, uint64_t *col) {
    uint64_t rows[64];
    const uint64_t *src = req;
    int r, g, i;
    if (n < 64) {
        for (i = 0; i < 64; i++) rows[i] = i < n ? req[i] & connect[i] : 0;
        src = rows;
    }
    /* s: rows i and i + s; the high s bits of each 2s-bit group of row i
     * swap with the low s bits of row i + s */
#define SA__PIM_SWAP(x, y, s, mask)                                                                do {                                                                                               __m128i t_ = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(x, s), y), _mm_set1_epi64x(mask));         y = _mm_xor_si128(y, t_);                                                                      x = _mm_xor_si128(x, _mm_slli_epi64(t_, s));                                               } while (0)
#define SA__PIM_LOAD(k)                                                                             (n < 64 ? _mm_loadu_si128((const __m128i *)(const void *)(src + (k)))                                   : _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(src + (k))),                                    _mm_loadu_si128((const __m128i *)(const void *)(connect + (k)))))
    /* s = 32 and 16: rows r, r + 16, r + 32, r + 48 (r even; each vector
     * also holds the next row) */
    for (r = 0; r < 16; r += 2) {
        __m128i x0 = SA__PIM_LOAD(r), x1 = SA__PIM_LOAD(r + 16), x2 = SA__PIM_LOAD(r + 32), x3 = SA__PIM_LOAD(r + 48);
        SA__PIM_SWAP(x0, x2, 32, 0x00000000FFFFFFFFll);
        SA__PIM_SWAP(x1, x3, 32, 0x00000000FFFFFFFFll);
        SA__PIM_SWAP(x0, x1, 16, 0x0000FFFF0000FFFFll);
        SA__PIM_SWAP(x2, x3, 16, 0x0000FFFF0000FFFFll);
        _mm_storeu_si128((__m128i *)(void *)(col + r), x0);
        _mm_storeu_si128((__m128i *)(void *)(col + r + 16), x1);
        _mm_storeu_si128((__m128i *)(void *)(col + r + 32), x2);
        _mm_storeu_si128((__m128i *)(void *)(col + r + 48), x3);
    }
#undef SA__PIM_LOAD
    /* s = 8, 4, 2 within each group of 16 rows, then s = 1 (rows 2r and
     * 2r + 1 share a vector) */
    for (g = 0; g < 64; g += 16) {
        __m128i x[8];
        x[0] = _mm_loadu_si128((const __m128i *)(const void *)(col + g));
        x[1] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 2));
        x[2] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 4));
        x[3] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 6));
        x[4] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 8));
        x[5] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 10));
        x[6] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 12));
        x[7] = _mm_loadu_si128((const __m128i *)(const void *)(col + g + 14));
        SA__PIM_SWAP(x[0], x[4], 8, 0x00FF00FF00FF00FFll);
        SA__PIM_SWAP(x[1], x[5], 8, 0x00FF00FF00FF00FFll);
        SA__PIM_SWAP(x[2], x[6], 8, 0x00FF00FF00FF00FFll);
        SA__PIM_SWAP(x[3], x[7], 8, 0x00FF00FF00FF00FFll);
        SA__PIM_SWAP(x[0], x[2], 4, 0x0F0F0F0F0F0F0F0Fll);
        SA__PIM_SWAP(x[1], x[3], 4, 0x0F0F0F0F0F0F0F0Fll);
        SA__PIM_SWAP(x[4], x[6], 4, 0x0F0F0F0F0F0F0F0Fll);
        SA__PIM_SWAP(x[5], x[7], 4, 0x0F0F0F0F0F0F0F0Fll);
        SA__PIM_SWAP(x[0], x[1], 2, 0x3333333333333333ll);
        SA__PIM_SWAP(x[2], x[3], 2, 0x3333333333333333ll);
        SA__PIM_SWAP(x[4], x[5], 2, 0x3333333333333333ll);
        SA__PIM_SWAP(x[6], x[7], 2, 0x3333333333333333ll);
#define SA__PIM_PAIR(r)                                                                         \
        do {                                                                                    \
            __m128i t_ = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(x[r], 1), _mm_shuffle_epi32(x[r], 0x4E)), \
                                       _mm_set_epi64x(0, 0x5555555555555555ll)); /* low lane only */ \
            x[r] = _mm_xor_si128(x[r], _mm_or_si128(_mm_slli_epi64(t_, 1), _mm_shuffle_epi32(t_, 0x4E))); \
            _mm_storeu_si128((__m128i *)(void *)(col + g + 2 * (r)), x[r]);                     \
        } while (0)
        SA__PIM_PAIR(0); SA__PIM_PAIR(1); SA__PIM_PAIR(2); SA__PIM_PAIR(3);
        SA__PIM_PAIR(4); SA__PIM_PAIR(5); SA__PIM_PAIR(6); SA__PIM_PAIR(7);
#undef SA__PIM_PAIR
    }
#undef SA__PIM_SWAP
}

#endif

/* A PIM grant stage with more than this many lanes to pick (and fewer
 * than three quarters of all) gathers them for the eight-lane picks
 * (sa__pim_grant_list). */
#ifndef SA__PIM_GATHER
#define SA__PIM_GATHER 20
#endif

/* The inputs i < n with grants (cnt[i] > 0) and with more than one. */
SA_API void sa__pim_counted(const uint8_t *cnt, int n, uint64_t *granted, uint64_t *multi) {
    uint64_t g = 0, mu = 0;
#ifdef SA_SIMD_SSE2
    int q;
    for (q = 0; q < n; q += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(cnt + q));
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_setzero_si128())) << q;
        mu |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_set1_epi8(1))) << q;
    }
#else
    int i;
    for (i = 0; i < n; i++) {
        g |= (uint64_t)(cnt[i] > 0) << i;
        mu |= (uint64_t)(cnt[i] > 1) << i;
    }
#endif
    *granted = g & sa__low_mask(n);
    *multi = mu & sa__low_mask(n);
}

/* Set the 64 bytes p[0..63] to v. */
SA_API void sa__pim_fill64(uint8_t *p, int v) {
#ifdef SA_SIMD_SSE2
    int i;
    for (i = 0; i < 64; i += 16) _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_set1_epi8((char)v));
#else
    memset(p, v, 64);
#endif
}

/* A PIM grant stage's candidates: cand[j] = col[j] & free_in (only the
 * network ones if there are any and net != 0: Rotary Rule) for the free
 * outputs j; with SSE2 computed in pairs of lanes, the other lane of a
 * pair set to 0 (cand of the outputs not written stays as it was).
 * Returns the set of outputs with candidates. */
SA_API uint64_t sa__pim_candidates(const uint64_t *col, uint64_t free_in, uint64_t free_out, uint64_t net,
                                   uint64_t *cand) {
    uint64_t act = 0;
    int j;
#ifdef SA_SIMD_SSE2
    {
        const __m128i fin = _mm_set1_epi64x((long long)free_in), nt = _mm_set1_epi64x((long long)net);
        const __m128i zero = _mm_setzero_si128();
        static const uint64_t lane[8] = { 0, 0, ~0ull, 0, 0, ~0ull, ~0ull, ~0ull }; /* by the pair's free bits */
        uint64_t pairs = (free_out | (free_out >> 1)) & 0x5555555555555555ull;
        for (; pairs; pairs &= pairs - 1) {
            __m128i c, z;
            j = sa__ctz64(pairs);
            c = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(col + j)), fin);
            c = _mm_and_si128(c, _mm_loadu_si128((const __m128i *)(const void *)(lane + 2 * ((free_out >> j) & 3))));
            if (net) { /* Rotary Rule: the network candidates if any */
                __m128i cn = _mm_and_si128(c, nt);
                z = _mm_cmpeq_epi32(cn, zero);
                z = _mm_and_si128(z, _mm_shuffle_epi32(z, 0xB1));
                c = _mm_or_si128(cn, _mm_and_si128(c, z));
            }
            _mm_storeu_si128((__m128i *)(void *)(cand + j), c);
            z = _mm_cmpeq_epi32(c, zero);
            z = _mm_and_si128(z, _mm_shuffle_epi32(z, 0xB1));
            act |= (uint64_t)(~_mm_movemask_pd(_mm_castsi128_pd(z)) & 3) << j;
        }
    }
#else
    uint64_t o;
    for (o = free_out; o; o &= o - 1) {
        uint64_t c, cn;
        j = sa__ctz64(o);
        c = col[j] & free_in;
        cn = c & net;
        c = cn ? cn : c; /* Rotary Rule */
        cand[j] = c;
        act |= (uint64_t)(c != 0) << j;
    }
#endif
    return act;
}

/* The grant lists of PIM's accept stage: cnt[i] = how many grants input i
 * got, lst[64 r + i] = the output of its grant number r (in increasing
 * output order).  cnt has SA__PIM_CNT entries, the last one a sink for the
 * lanes without a pick (-1, read as 255), which lst also has room for. */
#define SA__PIM_CNT 256
#define SA__PIM_LST (64 * 64 + 256)

/* List the picks gp[j] of every lane j < m (-1: none; cnt zero on entry). */
SA_API void sa__pim_list_all(const int8_t *gp, int m, uint8_t *cnt, uint8_t *lst) {
    int j;
    for (j = 0; j < m; j++) {
        size_t i = (uint8_t)gp[j];
        unsigned c = cnt[i];
        lst[((size_t)c << 6) + i] = (uint8_t)j;
        cnt[i] = (uint8_t)(c + 1);
    }
}

/* List the picks gk[k] of the lanes of the set `lanes` (gk[k]: the pick of
 * the set's lane number k in increasing order, -1 for none); *granted and
 * *multi get the inputs with grants and with more than one. */
SA_API void sa__pim_list_gathered(const int8_t *gk, uint64_t lanes, uint8_t *cnt, uint8_t *lst, uint64_t *granted,
                                  uint64_t *multi) {
    uint64_t g = 0, mu = 0;
    for (; lanes; lanes &= lanes - 1, gk++) {
        size_t i = (uint8_t)*gk;
        unsigned c;
        uint64_t bit;
        if (*gk < 0) continue;
        c = cnt[i];
        bit = (uint64_t)1 << i;
        lst[((size_t)c << 6) + i] = (uint8_t)sa__ctz64(lanes);
        cnt[i] = (uint8_t)(c + 1);
        mu |= g & bit;
        g |= bit;
    }
    *granted = g;
    *multi = mu;
}

/* A PIM grant stage, its picks listed in cnt and lst (cnt zero on entry):
 * the free outputs' candidates (col[j] & free_in, or only the network ones
 * if there are any and net != 0: Rotary Rule) and picks with the stage's
 * draws d (u16: scratch).  With SSE2, eight lanes at a time when there are
 * enough of them (all lanes when most outputs are free, else, above
 * SA__PIM_GATHER free outputs, theirs gathered), else one at a time; same
 * picks and draws.  Returns the outputs with candidates (0: the stage has
 * no draws, and *granted, *multi are not set); *granted and *multi get the
 * inputs with grants and with more than one. */
SA_API uint64_t sa__pim_grant_list(const uint64_t *col, uint64_t free_in, uint64_t free_out, uint64_t net, int n,
                                   int m, sa__pim_draws *d, uint16_t *u16, uint8_t *cnt, uint8_t *lst,
                                   uint64_t *granted, uint64_t *multi) {
    uint64_t act = 0, o, g = 0, mu = 0;
#ifdef SA_SIMD_SSE2
    int c = sa__bits(free_out), chunks = (n + 15) >> 4;
    if (c > 8 && 4 * c >= 3 * m) {
        uint64_t cand[64];
        int8_t gpos[64];
        sa__zero_words(cand, (m + 7) & ~7);
        act = sa__pim_candidates(col, free_in, free_out, net, cand);
        if (act == 0) return 0;
        sa__pim_pick_sse2(cand, m, chunks, NULL, d, gpos);
        sa__pim_list_all(gpos, m, cnt, lst);
        sa__pim_counted(cnt, n, granted, multi);
        return act;
    }
    if (c > SA__PIM_GATHER) {
        uint64_t gm[64];
        uint16_t gu[64];
        int8_t gk[64];
        int k = 0;
        sa__pim_draws16(d, free_out, u16);
        for (o = free_out; o; o &= o - 1, k++) {
            int j = sa__ctz64(o);
            uint64_t x = col[j] & free_in, xn = x & net;
            x = xn ? xn : x; /* Rotary Rule */
            gm[k] = x;
            gu[k] = u16[j];
            act |= (uint64_t)(x != 0) << j;
        }
        if (act == 0) return 0;
        for (; k & 7; k++) gm[k] = gu[k] = 0;
        sa__pim_pick_sse2(gm, c, chunks, gu, d, gk); /* -1 without candidates */
        sa__pim_list_gathered(gk, free_out, cnt, lst, granted, multi);
        return act;
    }
#else
    (void)n;
    (void)m;
#endif
    sa__pim_draws16(d, free_out, u16);
    for (o = free_out; o; o &= o - 1) {
        size_t j = (size_t)sa__ctz64(o), i;
        uint64_t x = col[j] & free_in, xn = x & net;
        unsigned r;
        x = xn ? xn : x; /* Rotary Rule */
        if (x == 0) continue;
        act |= (uint64_t)1 << j;
        i = (size_t)sa__pim_pick1(x, u16[j], d);
        r = cnt[i];
        lst[((size_t)r << 6) + i] = (uint8_t)j;
        cnt[i] = (uint8_t)(r + 1);
        mu |= g & ((uint64_t)1 << i);
        g |= (uint64_t)1 << i;
    }
    *granted = g;
    *multi = mu;
    return act;
}

/* PIM without read-port pairing, any size, from the requests' column
 * masks col (m rounded up to 8 entries; changed): each grant stage takes
 * its candidates from the columns as it picks (sa__pim_grant_list).
 * The accept stage needs no masks: the grants are listed per input in
 * increasing output order (lst[64 r + i]: the output of input i's grant
 * number r; cnt[i]: how many), and input i takes grant number
 * idx(u_i, cnt[i]) (for one grant that is 0 with any draw, and no redraw).
 * first: NULL, or the first grant already made (first[j]: output j's pick,
 * -1 for none; first_end: the generator state after its draws, taken if
 * some output picked).  Same decisions and draws as sa__pim_general.
 * Fills mt except the -1 entries (mt must be empty on entry). */
SA_API int sa__pim_lanes(sa_alloc *a, uint64_t *col, const int8_t *first, uint64_t first_end, sa_match *mt) {
    uint16_t u16[64];
    uint8_t cnt[SA__PIM_CNT], lst[SA__PIM_LST];
    int n = a->num_inputs, m = a->num_outputs, mr = (m + 7) & ~7, it, j;
    uint64_t net = a->rotary ? a->network_inputs : 0, ins = 0, outs = 0;
    for (j = m; j < mr; j++) col[j] = 0;
    /* the draws of inputs with one grant are read but do not matter:
     * defined, and not 0 (0 would take the rejection check's slow path) */
    sa__pim_fill64((uint8_t *)(void *)u16, 0xFF);
    sa__pim_fill64((uint8_t *)(void *)(u16 + 32), 0xFF);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++) {
        uint64_t free_in = sa__low_mask(n) & ~ins, granted, multi, o;
        sa__pim_draws d;
        sa__pim_fill64(cnt, 0);
        cnt[SA__PIM_CNT - 1] = 0;
        if (first != NULL) { /* the first grant is done (all outputs free) */
            sa__pim_list_all(first, m, cnt, lst);
            first = NULL;
            sa__pim_counted(cnt, n, &granted, &multi);
            if (granted == 0) break; /* no requests: the state does not move */
            a->rng.state = first_end;
        } else {
            sa__pim_draws_start(&d, a->rng.state, m);
            if (sa__pim_grant_list(col, free_in, sa__low_mask(m) & ~outs, net, n, m, &d, u16, cnt, lst, &granted,
                                   &multi) == 0)
                break;
            a->rng.state = sa__pim_draws_end(&d);
        }
        /* accept: every input with grants takes one, in increasing input
         * order (the redraws' order); an input with one grant takes grant
         * number (u * 1) >> 16 = 0 whatever its draw u, so only the inputs
         * with more than one need theirs */
        sa__pim_draws_start(&d, a->rng.state, n);
        sa__pim_draws16(&d, multi, u16);
        for (o = granted; o; o &= o - 1) {
            size_t i = (size_t)sa__ctz64(o), jj;
            unsigned c = cnt[i], prod = u16[i] * c;
            if ((prod & 0xFFFFu) < c) prod = (unsigned)sa__pim_index(u16[i], c, &d) << 16;
            jj = lst[((size_t)(prod >> 16) << 6) + i];
            mt->output_of[i] = (int8_t)jj;
            mt->input_of[jj] = (int8_t)i;
            outs |= (uint64_t)1 << jj;
        }
        a->rng.state = sa__pim_draws_end(&d);
        ins |= granted;
    }
    mt->inputs = ins;
    mt->outputs = outs;
    mt->size = sa__bits(ins);
    return mt->size;
}

/* PIM without read-port pairing, straight from the requests (sa_allocate
 * calls it before its common preamble): fills mt completely. */
SA_API int sa__pim(sa_alloc *a, const uint64_t *req, sa_match *mt) {
    uint64_t col[64];
#ifdef SA_SIMD_SSE2
    sa__assert_requests(a, req);
#if SA_ALLOC_MAX >= 16
    if (a->num_inputs <= 16 && a->num_outputs <= 8)
        return a->iterations == 1 ? sa__pim1_16x8_sse2(a, req, mt) : sa__pim_sse2_small(a, req, mt);
#endif
    sa__match_clear(mt);
    {
        /* without the Rotary Rule the first grant (all outputs free,
         * candidates = columns) is taken eight lanes at a time */
        int8_t gpos[64];
        int n = a->num_inputs, m = a->num_outputs;
#if SA_ALLOC_MAX > 32
        if (n > 32 && m > 32)
            sa__pim_transpose64_sse2(req, a->connect, n, col);
        else
#endif
            sa__pim_columns_sse2(req, a->connect, n, m, col);
        if (!a->rotary || a->network_inputs == 0) {
            sa__pim_draws d;
            int j;
            for (j = m; j < ((m + 7) & ~7); j++) col[j] = 0;
            sa__pim_draws_start(&d, a->rng.state, m);
            sa__pim_pick_sse2(col, m, (n + 15) >> 4, NULL, &d, gpos);
            return sa__pim_lanes(a, col, gpos, sa__pim_draws_end(&d), mt);
        }
    }
#else
    {
        uint64_t eff[SA_ALLOC_MAX];
        sa__effective(a, req, eff);
        sa__columns(eff, a->num_inputs, a->num_outputs, col);
    }
    sa__match_clear(mt);
#endif
    return sa__pim_lanes(a, col, NULL, 0, mt);
}

/* ---------------- Separable allocators and OPF ---------------- */

#ifdef SA_SIMD_SSE2
/* The 16-byte chunks of one row's priorities prio[0..n-1], 16 <= n <= 64,
 * at 0, 16, ... and, when n is not a multiple of 16, one ending at n (it
 * overlaps the previous one, which changes neither the maximum nor the
 * ties), each byte kept only where its candidate bit of req is set (else
 * 0): v[0..3], and their bytewise maximum as the result.  The candidates'
 * bits become byte masks by spreading each byte of req over eight bytes and
 * testing one bit in each. */
SA_API __m128i sa__prio_chunks_sse2(uint64_t req, const uint8_t *prio, int n, __m128i *v) {
    __m128i e, lo, hi;
    const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    int o1 = n >= 32 ? 16 : n - 16, o2 = n >= 48 ? 32 : n - 16, o3 = n - 16;
    /* the 16 candidate bits of chunk k in bits 16k..16k+15 of w */
    uint64_t w = n == 64 ? req
        : (req & 0xFFFF) | ((req >> o1) & 0xFFFF) << 16 | ((req >> o2) & 0xFFFF) << 32 | (req >> o3) << 48;
#if defined(__x86_64__) || defined(_M_X64)
    e = _mm_cvtsi64_si128((long long)w);
#else
    e = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)(uint32_t)w), _mm_cvtsi32_si128((int)(uint32_t)(w >> 32)));
#endif
    e = _mm_unpacklo_epi8(e, e);                   /* each byte of w twice */
    lo = _mm_unpacklo_epi16(e, e);                 /* bytes 0-3 of w, 4 times each */
    hi = _mm_unpackhi_epi16(e, e);                 /* bytes 4-7 */
#define SA__CHUNK(o, x) _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(prio + (o))), \
                                      _mm_cmpeq_epi8(_mm_and_si128((x), sel), sel))
    v[0] = SA__CHUNK(0, _mm_unpacklo_epi32(lo, lo));
    v[1] = SA__CHUNK(o1, _mm_unpackhi_epi32(lo, lo));
    v[2] = SA__CHUNK(o2, _mm_unpacklo_epi32(hi, hi));
    v[3] = SA__CHUNK(o3, _mm_unpackhi_epi32(hi, hi));
#undef SA__CHUNK
    return _mm_max_epu8(_mm_max_epu8(v[0], v[1]), _mm_max_epu8(v[2], v[3]));
}

/* The candidates of req whose chunk byte (sa__prio_chunks_sse2) equals the
 * row's maximum, given in every byte of mx. */
SA_API uint64_t sa__prio_ties_sse2(const __m128i *v, __m128i mx, uint64_t req, int n) {
    int o1 = n >= 32 ? 16 : n - 16, o2 = n >= 48 ? 32 : n - 16, o3 = n - 16;
    uint64_t ties = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[0], mx)) |
                    ((uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[1], mx)) << o1) |
                    ((uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[2], mx)) << o2) |
                    ((uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[3], mx)) << o3);
    /* a non-candidate's masked byte is 0: it ties only with a maximum of 0 */
    return ties & req;
}

/* Mask of the candidates (bits of req) holding the highest priority among
 * prio[0..n-1], 16 <= n <= 64, reading only those bytes: the maximum of
 * the masked chunks is folded into every byte of one register, and the
 * ties are the byte compare masks.  Same result as sa__oldest_portable
 * (the tests compare them). */
SA_API uint64_t sa__top_priority_row_sse2(uint64_t req, const uint8_t *prio, int n) {
    __m128i v[4], mx = sa__prio_chunks_sse2(req, prio, n, v);
    mx = _mm_max_epu8(mx, _mm_shuffle_epi32(mx, 0x4E));
    mx = _mm_max_epu8(mx, _mm_shuffle_epi32(mx, 0xB1));
    mx = _mm_max_epu8(mx, _mm_or_si128(_mm_srli_epi32(mx, 16), _mm_slli_epi32(mx, 16)));
    mx = _mm_max_epu8(mx, _mm_or_si128(_mm_srli_epi16(mx, 8), _mm_slli_epi16(mx, 8)));
    return sa__prio_ties_sse2(v, mx, req, n);
}

/* sa__top_priority_row_sse2 for the four rows req[0..3], whose priorities
 * are prio + k * n (16 <= n <= 64), results in ties[0..3]: the rows'
 * horizontal maxima folded together as in sa__top_priority4x64_sse2. */
SA_API void sa__top_priority4_sse2(const uint64_t *req, const uint8_t *prio, int n, uint64_t *ties) {
    __m128i va[4], vb[4], vc[4], vd[4], a, b, c, d, z;
    a = sa__prio_chunks_sse2(req[0], prio, n, va);
    b = sa__prio_chunks_sse2(req[1], prio + n, n, vb);
    c = sa__prio_chunks_sse2(req[2], prio + 2 * n, n, vc);
    d = sa__prio_chunks_sse2(req[3], prio + 3 * n, n, vd);
    a = _mm_max_epu8(_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)); /* row 0 | row 1 */
    c = _mm_max_epu8(_mm_unpacklo_epi64(c, d), _mm_unpackhi_epi64(c, d)); /* row 2 | row 3 */
    z = _mm_max_epu8(_mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(c), 0x88)),
                     _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(c), 0xDD)));
    z = _mm_max_epu8(z, _mm_shufflehi_epi16(_mm_shufflelo_epi16(z, 0xB1), 0xB1)); /* swap 16-bit halves */
    z = _mm_max_epu8(z, _mm_or_si128(_mm_srli_epi16(z, 8), _mm_slli_epi16(z, 8)));  /* swap bytes */
    ties[0] = sa__prio_ties_sse2(va, _mm_shuffle_epi32(z, 0x00), req[0], n);
    ties[1] = sa__prio_ties_sse2(vb, _mm_shuffle_epi32(z, 0x55), req[1], n);
    ties[2] = sa__prio_ties_sse2(vc, _mm_shuffle_epi32(z, 0xAA), req[2], n);
    ties[3] = sa__prio_ties_sse2(vd, _mm_shuffle_epi32(z, 0xFF), req[3], n);
}

/* The bytewise maximum of a 64-byte row of priorities, each byte kept
 * only where its candidate bit is set (else 0), given the row's candidate
 * mask with each byte doubled (unpacklo_epi8 of the mask with itself):
 * each byte spread over eight bytes, one bit tested in each. */
SA_API __m128i sa__prio_max64_sse2(__m128i e, const uint8_t *prio) {
    const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    __m128i lo = _mm_unpacklo_epi16(e, e), hi = _mm_unpackhi_epi16(e, e);
#define SA__CHUNK(o, x) _mm_and_si128(SA__LD(prio + (o)), _mm_cmpeq_epi8(_mm_and_si128((x), sel), sel))
    /* (pshufd rather than unpack*_epi32: no register copies) */
    return _mm_max_epu8(_mm_max_epu8(SA__CHUNK(0, _mm_shuffle_epi32(lo, 0x50)), SA__CHUNK(16, _mm_shuffle_epi32(lo, 0xFA))),
                        _mm_max_epu8(SA__CHUNK(32, _mm_shuffle_epi32(hi, 0x50)), SA__CHUNK(48, _mm_shuffle_epi32(hi, 0xFA))));
#undef SA__CHUNK
}

/* The candidates of req whose priority among prio[0..63] equals the byte
 * in every byte of mx. */
SA_API uint64_t sa__prio_eq64_sse2(const uint8_t *prio, __m128i mx, uint64_t req) {
    uint64_t lo = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(SA__LD(prio), mx)) |
                  (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(SA__LD(prio + 16), mx)) << 16;
    uint64_t hi = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(SA__LD(prio + 32), mx)) |
                  (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(SA__LD(prio + 48), mx)) << 16;
    return (lo | hi << 32) & req;
}

/* sa__top_priority_row_sse2 for the four 64-candidate rows req[0..3],
 * whose priorities are prio + 64 k, results in ties[0..3].  The four rows'
 * horizontal maxima are folded together: each row's 16 bytes become 8 (the
 * 64-bit halves of two rows side by side), then 4 (a 32-bit lane per row),
 * 2 and 1, so that one register holds row k's maximum in every byte of
 * lane k (20 instructions for four rows instead of 12 for each); the ties
 * are then found among the unmasked priorities (reloaded, which keeps the
 * registers free) and masked by the candidates. */
SA_API void sa__top_priority4x64_sse2(const uint64_t *req, const uint8_t *prio, uint64_t *ties) {
    __m128i a, b, c, d, z, r01 = SA__LD(req), r23 = SA__LD(req + 2);
    a = sa__prio_max64_sse2(_mm_unpacklo_epi8(r01, r01), prio);
    b = sa__prio_max64_sse2(_mm_unpackhi_epi8(r01, r01), prio + 64);
    c = sa__prio_max64_sse2(_mm_unpacklo_epi8(r23, r23), prio + 128);
    d = sa__prio_max64_sse2(_mm_unpackhi_epi8(r23, r23), prio + 192);
    a = _mm_max_epu8(_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)); /* row 0 | row 1 */
    c = _mm_max_epu8(_mm_unpacklo_epi64(c, d), _mm_unpackhi_epi64(c, d)); /* row 2 | row 3 */
    z = _mm_max_epu8(_mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(c), 0x88)),
                     _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(c), 0xDD)));
    z = _mm_max_epu8(z, _mm_shufflehi_epi16(_mm_shufflelo_epi16(z, 0xB1), 0xB1)); /* swap 16-bit halves */
    z = _mm_max_epu8(z, _mm_or_si128(_mm_srli_epi16(z, 8), _mm_slli_epi16(z, 8)));  /* swap bytes */
    ties[0] = sa__prio_eq64_sse2(prio, _mm_shuffle_epi32(z, 0x00), req[0]);
    ties[1] = sa__prio_eq64_sse2(prio + 64, _mm_shuffle_epi32(z, 0x55), req[1]);
    ties[2] = sa__prio_eq64_sse2(prio + 128, _mm_shuffle_epi32(z, 0xAA), req[2]);
    ties[3] = sa__prio_eq64_sse2(prio + 192, _mm_shuffle_epi32(z, 0xFF), req[3]);
}
#endif

/* Mask of the candidates holding the highest priority (cand != 0; prio[0..
 * n-1] may be read): SSE2 chunks when there are at least 16 bytes (no
 * branch on the candidates), else the shared oldest-candidate search. */
SA_API uint64_t sa__top_priority_sep(uint64_t cand, const uint8_t *prio, int n) {
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16 /* (else n < 16) */
    if (n == 64) return sa__top_priority_row_sse2(cand, prio, 64); /* constant offsets */
    if (n >= 16) return sa__top_priority_row_sse2(cand, prio, n);
#endif
    return sa__top_priority_n(cand, prio, n);
}

/* Round-robin choice among the highest-priority candidates. */
SA_API int sa__rr_prio(uint64_t cand, const uint8_t *prio, int n, int pointer) {
    if (prio != NULL && cand != 0) cand = sa__top_priority_sep(cand, prio, n);
    return sa__first_from(cand, pointer);
}

/* Input-first separable allocation (OPF when prio is given) with read-port
 * pairing: as sa__separable_input, each odd read port nominating after its
 * even twin so that it can skip outputs that would need the same packet. */
SA_API int sa__separable_input_pairs(sa_alloc *a, const uint64_t *eff, const uint8_t *prio,
                                     const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t col[SA_ALLOC_MAX + 1], outs = 0, o;
    uint8_t colprio[SA_ALLOC_MAX];
    int8_t nom[SA_ALLOC_MAX];
    int i, j, n = a->num_inputs, m = a->num_outputs;
    sa__zero_words(col, m);
    for (i = 0; i < n; i++) {
        uint64_t r = eff[i];
        if (i & 1) r &= ~sa__twin_block(bufs, i, nom[i - 1]);
        j = sa__rr_prio(r, prio ? prio + (size_t)i * (size_t)m : NULL, m, a->in_ptr[i]);
        nom[i] = (int8_t)j;
        colprio[i] = 0; /* read (masked off) by the SSE2 priority search */
        if (j < 0) continue;
        outs |= (uint64_t)1 << j;
        col[j] |= (uint64_t)1 << i;
        if (prio) colprio[i] = prio[(size_t)i * (size_t)m + (size_t)j];
    }
    for (o = outs; o; o &= o - 1) {
        int w;
        j = sa__ctz64(o);
        w = sa__rr_prio(col[j], prio ? colprio : NULL, n, a->out_ptr[j]);
        if (w < 0) continue; /* not reached: col[j] != 0 */
        sa__match_add(mt, w, j);
        a->out_ptr[j] = (uint8_t)(w + 1 == n ? 0 : w + 1);
        a->in_ptr[w] = (uint8_t)(j + 1 == m ? 0 : j + 1);
    }
    return mt->size;
}

#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 64
/* One input's nomination on sa__separable_input's 64 x 64 path: the first
 * candidate from the input's pointer (a rotation and a count of trailing
 * zeros), keyed (priority << 7) | 64 | (63 - d), d the input's
 * round-robin distance from the output's pointer, into the output's 16-bit
 * maximum best[j] (a key is never 0, so best[j] != 0 marks a nomination);
 * an input without candidates offers the key 0, which changes nothing. */
SA_API void sa__sep_nominate64(const sa_alloc *a, uint16_t *best, int i, uint64_t cand,
                               const uint8_t *prow) {
    int p = a->in_ptr[i], j;
    unsigned key, b;
    uint64_t rot = (cand >> p) | (cand << ((64 - p) & 63));
    j = (p + sa__ctz64(rot | (uint64_t)1 << 63)) & 63; /* any j when cand is 0 */
    key = ((unsigned)(a->out_ptr[j] + 63 - i) & 63) + 64; /* never 0 */
    if (prow != NULL) key += (unsigned)prow[j] << 7;      /* + for lea */
    key &= 0u - (unsigned)(rot != 0);                     /* no candidate: 0 */
    b = best[j];
    best[j] = (uint16_t)(key > b ? key : b);
}

/* sa__separable_input for 64 inputs x 64 outputs without read-port
 * pairing: the same decisions, the priority searches four rows at a time
 * (sa__top_priority4x64_sse2), the nominations as in sa__sep_nominate64, the
 * outputs' winners and pointers found sixteen outputs at a time from the
 * keys; only the winners' own entries are written one by one. */
SA_API int sa__separable_input64_sse2(sa_alloc *a, const uint64_t *eff, const uint8_t *prio,
                                      sa_match *mt) {
    uint16_t best[64];
    uint8_t win[64];
    uint64_t outs = 0, ins = 0, o, t[4];
    int i, size = 0;
    const __m128i zero = _mm_setzero_si128();
    for (i = 0; i < 64; i += 8) _mm_storeu_si128((__m128i *)(void *)(best + i), zero);
    if (prio != NULL) {
        for (i = 0; i < 64; i += 4) {
            const uint8_t *p = prio + (size_t)i * 64;
            sa__top_priority4x64_sse2(eff + i, p, t);
            sa__sep_nominate64(a, best, i, t[0], p);
            sa__sep_nominate64(a, best, i + 1, t[1], p + 64);
            sa__sep_nominate64(a, best, i + 2, t[2], p + 128);
            sa__sep_nominate64(a, best, i + 3, t[3], p + 192);
        }
    } else {
        for (i = 0; i < 64; i++) sa__sep_nominate64(a, best, i, eff[i], NULL);
    }
    /* Sixteen outputs at a time: no nomination where the key is 0; else
     * the winner w = (pointer + 63 - (key & 63)) & 63, the output's
     * input_of entry (-1 without a nomination) and its pointer w + 1. */
    for (i = 0; i < 64; i += 16) {
        const __m128i low6 = _mm_set1_epi8(63);
        __m128i k0 = SA__LD(best + i), k1 = SA__LD(best + i + 8), ptr = SA__LD(a->out_ptr + i), none, w;
        none = _mm_packs_epi16(_mm_cmpeq_epi16(k0, zero), _mm_cmpeq_epi16(k1, zero));
        w = _mm_packus_epi16(_mm_and_si128(k0, _mm_set1_epi16(63)), _mm_and_si128(k1, _mm_set1_epi16(63)));
        w = _mm_and_si128(_mm_sub_epi8(_mm_add_epi8(ptr, low6), w), low6);
        _mm_storeu_si128((__m128i *)(void *)(win + i), w);
        _mm_storeu_si128((__m128i *)(void *)(mt->input_of + i), _mm_or_si128(w, none));
        w = _mm_and_si128(_mm_sub_epi8(w, _mm_cmpeq_epi8(zero, zero)), low6);
        _mm_storeu_si128((__m128i *)(void *)(a->out_ptr + i),
                         _mm_or_si128(_mm_and_si128(none, ptr), _mm_andnot_si128(none, w)));
        outs |= (uint64_t)(unsigned)_mm_movemask_epi8(none) << i;
    }
    outs = ~outs; /* the outputs with a nomination */
    for (o = outs; o; o &= o - 1) {
        int j = sa__ctz64(o), w = win[j];
        mt->output_of[w] = (int8_t)j;
        size++;
        a->in_ptr[w] = (uint8_t)((j + 1) & 63);
    }
    for (i = 0; i < 64; i += 16) /* the inputs left unmatched: output_of -1 */
        ins |= (uint64_t)(unsigned)_mm_movemask_epi8(SA__LD(mt->output_of + i)) << i;
    ins = ~ins;
    mt->inputs = ins;
    mt->outputs = outs;
    mt->size = size;
    return size;
}
#endif

/* Input-first separable allocation (OPF when prio is given): each input
 * arbiter nominates one request, each output arbiter grants one nomination;
 * the two pointers of each completed match move just past the winner (a
 * losing input keeps its pointer, as in iSLIP, so that the inputs do not
 * move in lockstep).
 *
 * The output arbiters run all at once: each nomination carries the key
 * (priority << 8) | (255 - d), d its input's round-robin distance from the
 * output's pointer, and each output keeps the largest key it receives; that
 * is exactly its highest-priority nominator, the first from its pointer
 * among equals.  No branch depends on the requests but the choice of the
 * priority search and the loops' ends. */
SA_API int sa__separable_input(sa_alloc *a, const uint64_t *eff, const uint8_t *prio,
                               const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t best[SA_ALLOC_MAX + 1], outs = 0, o, ins = 0;
    const uint64_t *cand = eff; /* the candidates of each input arbiter */
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    uint64_t top[SA_ALLOC_MAX];
#endif
    int i, n = a->num_inputs, m = a->num_outputs, size = 0;
    if (a->read_port_pairs && bufs != NULL) return sa__separable_input_pairs(a, eff, prio, bufs, mt);
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 64
    if (n == 64 && m == 64) return sa__separable_input64_sse2(a, eff, prio, mt);
#endif
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    if (prio != NULL && m >= 16) {
        /* the rows' highest-priority candidates first, four rows at a time */
        for (i = 0; i + 4 <= n; i += 4) sa__top_priority4_sse2(eff + i, prio + (size_t)i * (size_t)m, m, top + i);
        for (; i < n; i++) top[i] = sa__top_priority_row_sse2(eff[i], prio + (size_t)i * (size_t)m, m);
        cand = top;
    }
#endif
    sa__zero_words(best, m);
    for (i = 0; i < n; i++) {
        uint64_t r = cand[i], key, b, live;
        int j, d;
        if (prio != NULL && cand == eff && r != 0) r = sa__top_priority_sep(r, prio + (size_t)i * (size_t)m, m);
        j = sa__first_from_bf(r, a->in_ptr[i]); /* 0 when r is 0 */
        live = sa__mask_if(r != 0);               /* no nomination: key 0 changes nothing */
        d = i + n - a->out_ptr[j];
        d -= d >= n ? n : 0;
        key = (uint64_t)(255 - d);
        if (prio != NULL) key |= (uint64_t)prio[(size_t)i * (size_t)m + (size_t)j] << 8;
        key &= live;
        b = best[j];
        best[j] = key > b ? key : b;
        outs |= ((uint64_t)1 << j) & live;
    }
    for (o = outs; o; o &= o - 1) {
        int j = sa__ctz64(o), w = a->out_ptr[j] + 255 - (int)(best[j] & 255);
        w = w >= n ? w - n : w;
        mt->output_of[w] = (int8_t)j;
        mt->input_of[j] = (int8_t)w;
        ins |= (uint64_t)1 << w;
        size++;
        a->out_ptr[j] = (uint8_t)(w + 1 == n ? 0 : w + 1);
        a->in_ptr[w] = (uint8_t)(j + 1 == m ? 0 : j + 1);
    }
    mt->inputs = ins;
    mt->outputs = outs;
    mt->size = size;
    return size;
}

/* Output-first separable allocation: each output arbiter grants one
 * requester, each input arbiter accepts one grant; each round-robin pointer
 * moves just past its own arbiter's winner (an output's pointer moves even
 * when its grant is declined: unlike iSLIP). */
SA_API int sa__separable_output(sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs,
                                sa_match *mt) {
    uint64_t col[64];
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    if (bufs == NULL && a->num_inputs <= 16 && a->num_outputs <= 8)
        return sa__islip16x8_sse2(a, eff, 2, 1, mt);
#endif
    sa__columns(eff, a->num_inputs, a->num_outputs, col);
    sa__request_grant_accept(a, col, bufs, 2, 1, mt);
    return mt->size;
}

/* ---------------- Maximum-cardinality matching ---------------- */

/* Augmenting paths (Kuhn): for each input, a breadth-first search over
 * alternating paths with bit masks of visited outputs. */
SA_API int sa__mcm_plain(const sa_alloc *a, const uint64_t *eff, sa_match *mt) {
    int u, n = a->num_inputs;
    int8_t via[64];
    int8_t queue[64];
    for (u = 0; u < n && mt->size < a->num_outputs; u++) {
        uint64_t seen = 0;
        int head = 0, tail = 0, found = -1;
        if (eff[u] == 0) continue;
        queue[tail++] = (int8_t)u;
        while (head < tail && found < 0) {
            int x = queue[head++];
            uint64_t nxt = eff[x] & ~seen, r;
            seen |= nxt;
            for (r = nxt; r; r &= r - 1) {
                int j = sa__ctz64(r);
                via[j] = (int8_t)x;
                if (mt->input_of[j] < 0) { found = j; break; }
                queue[tail++] = mt->input_of[j];
            }
        }
        if (found < 0) continue;
        /* Flip the path: found <- via[found], whose old output moves on. */
        {
            int j = found;
            for (;;) {
                int x = via[j], old = mt->output_of[x];
                mt->output_of[x] = (int8_t)j;
                mt->input_of[j] = (int8_t)x;
                if (x == u) break;
                j = old;
            }
        }
        mt->size++;
    }
    mt->inputs = mt->outputs = 0;
    for (u = 0; u < n; u++)
        if (mt->output_of[u] >= 0) {
            mt->inputs |= (uint64_t)1 << u;
            mt->outputs |= (uint64_t)1 << mt->output_of[u];
        }
    return mt->size;
}

/* Bit set over the subsets of at most 8 outputs: bit S of w[S / 64]. */
typedef struct sa__subsets {
    uint64_t w[4];
} sa__subsets;

/* The subsets of `from` that are disjoint from the output set a, each with
 * a added (a shift by a, since S | a = S + a when S & a = 0), OR-ed into to. */
SA_API void sa__subsets_add(sa__subsets *to, const sa__subsets *from, int a) {
    static const uint64_t zero_bit[6] = {
        0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
        0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull };
    uint64_t in[4];
    int w, t, ws = a >> 6, bs = a & 63;
    for (w = 0; w < 4; w++) {
        uint64_t z = from->w[w];
        for (t = 0; t < 6; t++) if ((a >> t) & 1) z &= zero_bit[t];
        if (((a >> 6) & 1) && (w & 1)) z = 0;
        if (((a >> 7) & 1) && (w & 2)) z = 0;
        in[w] = z;
    }
    for (w = 3; w >= ws; w--) {
        uint64_t v = in[w - ws] << bs;
        if (bs && w - ws - 1 >= 0) v |= in[w - ws - 1] >> (64 - bs);
        to->w[w] |= v;
    }
}

/* Exact maximum with read-port pairing (num_outputs <= 8): dynamic
 * programming over the buffers and the set of outputs used so far, with
 * the reachable sets of each stage as 256-bit sets.  A buffer's options are
 * the (out0, out1) pairs its two read ports can take together. */
SA_API int sa__mcm_pairs(const sa_alloc *a, const uint64_t *eff, const sa_read_buffer *bufs,
                         sa_match *mt) {
    sa__subsets reach[SA_ALLOC_MAX / 2 + 1];
    int nb = a->num_inputs / 2, m = a->num_outputs, b, w, best = 0, best_bits = -1;
    for (w = 0; w < 4; w++) reach[0].w[w] = 0;
    reach[0].w[0] = 1;
    for (b = 0; b < nb; b++) {
        uint64_t r0 = eff[2 * b], r1 = eff[2 * b + 1], x, y;
        reach[b + 1] = reach[b]; /* neither read port matched */
        for (x = r0; x; x &= x - 1) {
            int o0 = sa__ctz64(x);
            uint64_t ok1 = r1 & ~sa_read_buffer_clash(&bufs[b], o0) & ~((uint64_t)1 << o0);
            sa__subsets_add(&reach[b + 1], &reach[b], 1 << o0);
            for (y = ok1; y; y &= y - 1) sa__subsets_add(&reach[b + 1], &reach[b], (1 << o0) | (1 << sa__ctz64(y)));
        }
        for (y = r1; y; y &= y - 1) sa__subsets_add(&reach[b + 1], &reach[b], 1 << sa__ctz64(y));
    }
    for (w = 0; w < 4; w++) {
        uint64_t x;
        for (x = reach[nb].w[w]; x; x &= x - 1) {
            int s = 64 * w + sa__ctz64(x), c = sa__bits((uint64_t)s);
            if (c > best_bits) { best_bits = c; best = s; }
        }
    }
    (void)m;
    /* Walk back: for each buffer an option that leads from a reachable set. */
    for (b = nb - 1; b >= 0; b--) {
        uint64_t r0 = eff[2 * b], r1 = eff[2 * b + 1], x, y;
        int o0 = -1, o1 = -1, done = 0;
#define SA__REACHED(s) ((reach[b].w[(s) >> 6] >> ((s) & 63)) & 1u)
        if (SA__REACHED(best)) done = 1;
        for (x = r0; x && !done; x &= x - 1) {
            int c0 = sa__ctz64(x);
            uint64_t ok1 = r1 & ~sa_read_buffer_clash(&bufs[b], c0) & ~((uint64_t)1 << c0);
            if (!((best >> c0) & 1)) continue;
            if (SA__REACHED(best & ~(1 << c0))) { o0 = c0; done = 1; break; }
            for (y = ok1 & (uint64_t)best; y; y &= y - 1) {
                int c1 = sa__ctz64(y);
                if (SA__REACHED(best & ~(1 << c0) & ~(1 << c1))) { o0 = c0; o1 = c1; done = 1; break; }
            }
        }
        for (y = r1 & (uint64_t)best; y && !done; y &= y - 1) {
            int c1 = sa__ctz64(y);
            if (SA__REACHED(best & ~(1 << c1))) { o1 = c1; done = 1; }
        }
#undef SA__REACHED
        SA_ASSERT(done);
        if (o0 >= 0) { sa__match_add(mt, 2 * b, o0); best &= ~(1 << o0); }
        if (o1 >= 0) { sa__match_add(mt, 2 * b + 1, o1); best &= ~(1 << o1); }
    }
    return mt->size;
}

/* sa_allocate's body after its first test: a function of its own, too
 * large for compilers to inline, so that the test and SPAA's register
 * paths need no stack frame. */
SA_API int sa__allocate_rest(sa_alloc *a, const uint64_t *req, const uint8_t *prio,
                             const sa_read_buffer *bufs, sa_match *match);

/**
 * Allocate: compute one matching of input arbiters to outputs with the
 * allocator's algorithm and update its state as that algorithm says.
 *
 * Every result is a matching of requested, connected cells; with read-port
 * pairing no two matched twins need the same packet.  Per algorithm:
 *
 * - SPAA: sa_spaa_nominate then sa_spaa_grant (prio: nomination priority).
 * - WFA: rows in cyclic order from the start row, each taking its first
 *   free requested column from the start column; the start cell moves one
 *   row per allocation and one column per sweep of the rows (every cell is
 *   the start cell once in n x m allocations).  Rotary Rule: the start row
 *   cycles over the network rows, and network rows precede local rows.
 * - WFA_WRAPPED: wrapped diagonals from a priority diagonal that advances
 *   every allocation.  Rotary Rule: network rows are allocated first.
 * - PIM: k iterations of grant (each free output picks a free requester
 *   uniformly; Rotary Rule: among network requesters if any) and accept
 *   (each input picks one of its grants uniformly), stopping early when no
 *   free output has a free requester.  Draw protocol (exactly uniform,
 *   independent draws): each stage (grant, then accept) starts on a fresh
 *   sa_rng_next output and gives every lane (output j in the grant stage,
 *   input i in the accept stage; every lane, even with 0 or 1 candidates)
 *   one 16-bit draw u, lane l taking bits 16(l mod 4)..16(l mod 4)+15 of
 *   the stage's output l/4; with c candidates the lane takes candidate
 *   number (u c) >> 16 in increasing index order, unless the low 16 bits of
 *   u c are below 65536 mod c (Lemire's rejection): then it redraws from
 *   the outputs after the stage's block, rejected lanes in increasing order,
 *   four draws per output.  A stage consumes ceil(lanes/4) outputs plus
 *   any redraw outputs; an iteration that is not run consumes none.
 * - ISLIP: as PIM with round-robin pointers, moved only by accepted grants
 *   of the first iteration.
 * - OPF: each input nominates its highest-priority request, each output
 *   grants its highest-priority nomination, round-robin among equals (prio
 *   should hold packet ages; NULL makes it SEP_INPUT).
 * - SEP_INPUT: separable input-first allocator of round-robin arbiters;
 *   the pointers of completed matches move past the winners.
 * - SEP_OUTPUT: separable output-first allocator of round-robin arbiters,
 *   each pointer moved past its own arbiter's winner even when the grant is
 *   declined (McKeown's RRM; iSLIP-1 differs only in moving pointers on
 *   accepted grants).
 * - MCM: a maximum matching (augmenting paths; with read-port pairing, an
 *   exact search over output sets).  Stateless.
 *
 * With read-port pairing, where the paper does not say how the pair
 * synchronises, the even read port decides first (in WFA, the earlier row)
 * and its twin skips outputs that would need the same packet.
 *
 * :param a: the allocator.
 * :param req: num_inputs request masks.  Precondition (SA_ASSERT): no bit at
 *             or above num_outputs (sa_alloc_check_requests returns an
 *             error instead; with SA_ASSERT compiled out such bits are no
 *             undefined behaviour but may change the matching, which is
 *             still a matching of connected cells); requests on
 *             unconnected cells are ignored.
 * :param prio: NULL, or row-major num_inputs x num_outputs priorities (SPAA
 *              and OPF only; larger first).
 * :param bufs: with read-port pairing, num_inputs/2 buffer views whose
 *              ``any`` contains both twins' requests; NULL disables the
 *              twin check (every read port then has its own packets).
 * :param match: receives the matching.
 * :returns: the number of matched pairs.
 * :paper: seed 002 Sections 3.1-3.4 (PIM, PIM1, WFA, SPAA, Rotary Rule),
 *         Section 3 (MCM), Figure 2 (OPF).
 */
SA_API int sa_allocate(sa_alloc *a, const uint64_t *req, const uint8_t *prio,
                       const sa_read_buffer *bufs, sa_match *match) {
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    /* SPAA's register paths up to 16 x 16 (no priorities, no read-port
     * pairs), the Alpha 21364's size first, before any stack frame (the
     * rest is out of line). */
    if (a->kind == SA_ALLOC_SPAA && prio == NULL && (bufs == NULL || !a->read_port_pairs)) {
        if (a->num_outputs == 7 && a->num_inputs == 16) return sa__spaa_16x7_sse2(a, req, match);
        if (a->spaa_in_lw <= 4 && a->spaa_out_lw <= 4) return sa__spaa_upto16_sse2(a, req, match);
    }
    /* PIM1 at the 21364's size likewise (sa__pim takes the other sizes up
     * to 16 x 8) */
    if (a->kind == SA_ALLOC_PIM && a->iterations == 1 && a->num_outputs == 7 && a->num_inputs == 16 &&
        (bufs == NULL || !a->read_port_pairs)) {
        sa__assert_requests(a, req);
        return sa__pim1_16x7_sse2(a, req, match);
    }
#endif
    return sa__allocate_rest(a, req, prio, bufs, match);
}

/* sa_allocate but for its first test.  (Its own test for SPAA's register
 * paths, not reached through sa_allocate, keeps it whole; it also keeps
 * sa__spaa_upto16_sse2 called from two places, which compilers then do
 * not inline into sa_allocate with the registers it needs saved.) */
SA_API int sa__allocate_rest(sa_alloc *a, const uint64_t *req, const uint8_t *prio,
                             const sa_read_buffer *bufs, sa_match *match) {
    uint64_t eff[SA_ALLOC_MAX + 1];
    if (a->kind == SA_ALLOC_SPAA) {
        /* sa_spaa_nominate then sa_spaa_grant, the nominations kept in
         * the banks' lanes. */
        uint64_t nom[SA__SPAA_WORDS], col[SA__SPAA_WORDS], kin[SA__SPAA_PLANES * SA__SPAA_WORDS];
#ifdef SA_SIMD_SSE2
        if (prio == NULL && (bufs == NULL || !a->read_port_pairs)) {
#if SA_ALLOC_MAX >= 16
            if (a->spaa_in_lw <= 4 && a->spaa_out_lw <= 4) return sa__spaa_upto16_sse2(a, req, match);
#endif
#if SA_ALLOC_MAX > 32
            if (a->spaa_in_lw == 6 && a->spaa_out_lw == 6) return sa__spaa6_sse2(a, req, match);
#endif
        }
#endif
        sa__spaa_nominate_lanes(a, req, prio, bufs, nom, kin);
        sa__spaa_columns(a, nom, col);
        return sa__spaa_grant_lanes(a, col, a->read_port_pairs && bufs != NULL ? NULL : kin, match);
    }
    /* PIM without pairing takes its own path (no effective-request copy) */
    if (a->kind == SA_ALLOC_PIM && (bufs == NULL || !a->read_port_pairs)) return sa__pim(a, req, match);
    sa__match_clear(match);
#if defined(SA_SIMD_SSE2) && SA_ALLOC_MAX >= 16
    /* WFA's and iSLIP's 16 x 8 paths AND the requests with connect
     * themselves: no effective-request copy to write and read back */
    if ((bufs == NULL || !a->read_port_pairs) && a->num_inputs <= 16 && a->num_outputs <= 8) {
        if (a->kind == SA_ALLOC_WFA && a->num_outputs < a->num_inputs &&
            !(a->rotary && a->network_inputs)) {
            sa__assert_requests(a, req);
            return sa__wfa16x8(a, req, match);
        }
        if (a->kind == SA_ALLOC_ISLIP) {
            sa__assert_requests(a, req);
            return a->iterations == 1 ? sa__islip1_16x8_sse2(a, req, match)
                                      : sa__islip16x8_sse2(a, req, 1, a->iterations, match);
        }
    }
#endif
    sa__effective(a, req, eff);
    if (!a->read_port_pairs) bufs = NULL;
#ifndef NDEBUG
    if (bufs != NULL) {
        int i;
        for (i = 0; i < a->num_inputs; i++) SA_ASSERT((eff[i] & ~bufs[i >> 1].any) == 0);
    }
#endif
    switch (a->kind) {
    case SA_ALLOC_WFA: return sa__wfa(a, eff, bufs, match);
    case SA_ALLOC_WFA_WRAPPED: return sa__wfa_wrapped(a, eff, bufs, match);
    case SA_ALLOC_PIM: return sa__pim_general(a, eff, bufs, match);
    case SA_ALLOC_ISLIP: return sa__iterative(a, eff, bufs, 1, match);
    case SA_ALLOC_OPF: return sa__separable_input(a, eff, prio, bufs, match);
    case SA_ALLOC_SEP_INPUT: return sa__separable_input(a, eff, NULL, bufs, match);
    case SA_ALLOC_SEP_OUTPUT: return sa__separable_output(a, eff, bufs, match);
    case SA_ALLOC_MCM:
        return bufs ? sa__mcm_pairs(a, eff, bufs, match) : sa__mcm_plain(a, eff, match);
    default: SA_ASSERT(0); return 0;
    }
}

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_ARB_H */
