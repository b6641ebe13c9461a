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
/** Defined to 1 when the output arbiter's age comparison uses SSE2 (x86-64;
 *  define SA_NO_SIMD before including to use the portable code).  Both give
 *  identical results; the tests compare them. */
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
    if (num_sources == 0) num_sources = 6;
    if (num_vcs == 0) num_vcs = SA_AGE_NUM_VCS;
    if (num_sources < 1 || num_sources > SA_MAX_SOURCES) return SA_ERR_SOURCE_RANGE;
    if (num_vcs < 1 || num_vcs > SA_MAX_VCS) return SA_ERR_VC_RANGE;
    if (num_sources * num_vcs > SA_MAX_CANDIDATES) return SA_ERR_CANDIDATE_RANGE;
    arb->num_sources = (uint8_t)num_sources;
    arb->num_vcs = (uint8_t)num_vcs;
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

/* Mask of the eligible candidates holding the largest age (eligible != 0). */
SA_API uint64_t sa__oldest(uint64_t eligible, const uint8_t *ages, int n, unsigned *max_age) {
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
    grant->source = c < 0 ? -1 : c / arb->num_vcs;
    grant->vc = c < 0 ? -1 : c % arb->num_vcs;
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

/* (The SPAA, WFA, PIM and reference allocators go here.) */

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_ARB_H */
