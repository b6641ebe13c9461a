/* SPDX-License-Identifier: MIT */
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
 *      compared with (Mukherjee et al., ASPLOS'02; seed 002), built from
 *      round-robin and matrix arbiters.
 *   3. the BlueGene/L arbitration (Blumrich et al., IBM RC23025, 2003;
 *      seed 003 Section 2): JSQ, and SLQ at the receivers and the senders
 *      (>>bgl, between >>allocate and >>fast).
 *
 * Usage: #include "seastar_arb.h" from any number of translation units.
 * Every function is static inline (see SA_API); nothing allocates memory,
 * nothing keeps global state, nothing prints.  All state is in plain structs
 * (and, for a switch allocator, memory) that the caller owns.
 *
 * Reference first.  Everything before the section tagged >>fast is the
 * reference: each algorithm written as its paper gives it, step by step,
 * in plain C.  A build without SIMD (SA_NO_SIMD, or a target without SSE2)
 * runs exactly that.  The >>fast section at the end holds SSE2 kernels for
 * the sizes simulators use most; each says which reference it equals, the
 * one dispatch function sa__fast_allocate picks them, and the tests prove
 * that they make the same decisions as the reference.
 *
 * Overridable macros (define before including):
 *   SA_API        linkage of every function (default: static inline)
 *   SA_ASSERT(c)  precondition check on hot paths (default: assert(c))
 *   SA_NO_SIMD    use the reference code only (same decisions)
 *   SA_SWITCH_MAX largest switch allocator side, 1..512 (default 512)
 *   SA_SWITCH_KINDS the allocator kinds the translation unit compiles
 *                 (default all; see >>switch)
 *
 * Naming: public functions and types start with sa_, macros with SA_,
 * private helpers with sa__.  Sections carry searchable tags:
 *   >>config >>aging >>output >>counters >>section3 >>rng >>arbiters
 *   >>readports >>switch >>requests >>spaa >>wfa >>wrapped >>pim >>islip
 *   >>separable >>mcm >>allocate >>fast
 *
 * Order of one router cycle, as the library expects it:
 *   packets arriving at input ports   -> sa_age_arrive      (Procedure 1)
 *   each output port: ages at heads   -> sa_age_at_head     (Procedure 2)
 *                     choose a winner -> sa_output_select + sa_output_update
 *                     winner leaves   -> sa_age_depart      (Procedure 2)
 *   end of the cycle                  -> sa_age_tick        (Procedure 3)
 *   a switch allocation (21364 style) -> sa_switch_allocate
 *
 * >>index: every public function, by section (all return SA_OK or an
 * sa_result error unless another type is shown)
 *
 *   >>config    const char * sa_result_string(sa_result r)
 *   >>aging     sa_result sa_age_config_default(sa_age_config *cfg, int num_ports)
 *               sa_result sa_age_config_validate(const sa_age_config *cfg)
 *               sa_result sa_age_clock_init(sa_age_clock *clk, const sa_age_config *cfg)
 *               sa_result sa_age_clock_set_period(sa_age_clock *clk, uint32_t period)
 *               sa_result sa_age_clock_check(const sa_age_clock *clk)
 *               sa_result sa_age_arrive(sa_age_clock *clk, const sa_age_config *cfg, int port, int vc, uint16_t *age_field)
 *               unsigned  sa_age_at_head(const sa_age_clock *clk, uint16_t age_field)
 *               sa_result sa_age_depart(sa_age_clock *clk, uint16_t *age_field)
 *               void      sa_age_tick(sa_age_clock *clk)
 *   >>output    sa_result sa_output_arb_init(sa_output_arb *arb, int num_sources, int num_vcs)
 *               sa_result sa_output_arb_check(const sa_output_arb *arb)
 *               int       sa_output_num_candidates(const sa_output_arb *arb)
 *               int       sa_output_select_set(const sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk, const uint64_t *eligible, const uint8_t *ages, sa_grant *grant)
 *               int       sa_output_select(const sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk, uint64_t eligible, const uint8_t *ages, sa_grant *grant)
 *               void      sa_output_update(sa_output_arb *arb, const sa_grant *grant)
 *               int       sa_output_arbitrate(sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk, uint64_t eligible, const uint8_t *ages, sa_grant *grant)
 *               int       sa_output_arbitrate_set(sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk, const uint64_t *eligible, const uint8_t *ages, sa_grant *grant)
 *   >>counters  void      sa_age_histogram_record(uint64_t group[2], unsigned age)
 *               uint32_t  sa_age_histogram_bucket(const uint64_t group[2], int bucket)
 *               sa_result sa_occupancy(uint64_t stalled_cycles, uint64_t packets_vc0, uint64_t packets_vc1, double *occupancy)
 *   >>section3  sa_result sa_average_hops_dim(int radix, int torus, double *hops)
 *               sa_result sa_average_hops(int n, const int *radix, const int *torus, double *hops)
 *               sa_result sa_channel_load(int radix, int torus, int worst_case, double *load)
 *               sa_result sa_ejection_probabilities(int n, const int *radix, double *p)
 *               sa_result sa_ejection_rates(int n, const int *radix, const int *torus, double channel_bw, double eject_bw, double *u)
 *               sa_result sa_bias_ordering(int n, uint8_t *bias)
 *               sa_result sa_age_clock_period_estimate(const sa_period_desc *desc, sa_period_estimate *est)
 *   >>rng       void      sa_rng_seed(sa_rng *rng, uint64_t seed)
 *               uint64_t  sa_rng_next(sa_rng *rng)
 *               uint32_t  sa_rng_below(sa_rng *rng, uint32_t n)
 *               int       sa_rng_pick(sa_rng *rng, uint64_t mask)
 *   >>arbiters  sa_result sa_rr_arb_init(sa_rr_arb *arb, int size)
 *               int       sa_rr_select(const sa_rr_arb *arb, const uint64_t *req, const int32_t *prio)
 *               void      sa_rr_update(sa_rr_arb *arb, int winner)
 *               sa_result sa_rr_arb_check(const sa_rr_arb *arb)
 *               sa_result sa_matrix_arb_init(sa_matrix_arb *arb, int size, uint16_t *rank)
 *               int       sa_matrix_select(const sa_matrix_arb *arb, const uint64_t *req, const int32_t *prio)
 *               void      sa_matrix_update(sa_matrix_arb *arb, int winner)
 *               sa_result sa_matrix_arb_check(const sa_matrix_arb *arb)
 *   >>readports sa_result sa_read_buffer_build(sa_read_buffer *buf, const uint64_t *packet_outputs, int num_packets)
 *               uint64_t  sa_read_buffer_clash(const sa_read_buffer *buf, int k)
 *               sa_result sa_read_buffer_assign(const uint64_t *packet_outputs, int num_packets, int out0, int out1, int *pkt0, int *pkt1)
 *   >>switch    void      sa_21364_no_connect(uint64_t *no_connect)
 *               sa_result sa_switch_desc_21364(sa_switch_desc *desc, sa_switch_kind kind, int rotary)
 *               uint64_t  sa_switch_seed(uint64_t simulation_seed, uint64_t instance)
 *               size_t    sa_switch_memory_size(const sa_switch_desc *desc)
 *               sa_result sa_switch_init(sa_switch *a, const sa_switch_desc *desc, void *memory, size_t memory_size)
 *               sa_result sa_switch_copy(sa_switch *dst, void *dst_memory, size_t dst_memory_size, const sa_switch *src)
 *               sa_result sa_switch_check(const sa_switch *a)
 *               sa_result sa_switch_check_requests(const sa_switch *a, const uint64_t *req)
 *               const char * sa_switch_kind_name(sa_switch_kind kind)
 *               size_t    sa_switch_desc_name(const sa_switch_desc *desc, char *text, size_t size)
 *               sa_result sa_switch_desc_parse(sa_switch_desc *desc, const char *text)
 *   >>requests  size_t    sa_requests_memory_size(int num_inputs, int num_outputs)
 *               sa_result sa_requests_init(sa_requests *r, int num_inputs, int num_outputs, void *memory, size_t memory_size)
 *               void      sa_requests_clear(sa_requests *r)
 *               void      sa_requests_add(sa_requests *r, int input, int output, int32_t priority)
 *               void      sa_requests_remove(sa_requests *r, int input, int output)
 *               const uint64_t * sa_requests_rows(sa_requests *r)
 *               const int32_t * sa_requests_priorities(const sa_requests *r)
 *   >>spaa      int       sa_spaa_nominate(sa_switch *a, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs, int16_t *nomination)
 *               int       sa_spaa_grant(sa_switch *a, const int16_t *nomination, sa_match *match)
 *   >>allocate  int       sa_switch_allocate(sa_switch *a, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs, sa_match *match)
 *               int       sa_switch_allocate_requests(sa_switch *a, sa_requests *r, const sa_read_buffer *bufs, sa_match *match)
 *   >>bgl       sa_result sa_bgl_cycles_init(sa_bgl_cycles *c, uint32_t num, uint32_t den)
 *               sa_result sa_bgl_cycles_check(const sa_bgl_cycles *c)
 *               int       sa_bgl_cycles_next(sa_bgl_cycles *c)
 *               sa_result sa_bgl_ranges_quarters(uint32_t capacity, uint32_t bounds[3])
 *               sa_result sa_bgl_ranges_check(const uint32_t bounds[3])
 *               int       sa_bgl_range(uint32_t value, const uint32_t bounds[3])
 *               int       sa_bgl_jsq(uint64_t possible, uint64_t available, const uint8_t *range, int escape, sa_rng *rng)
 *               int       sa_bgl_slq_receiver(uint64_t requests, uint64_t high_priority, const uint8_t *fullness, int bypass, int slq_cycle, sa_rng *rng)
 *               int       sa_bgl_slq_sender(int ack_pending, uint64_t requests, uint64_t injection, uint64_t high_priority, const uint8_t *fullness, int network_cycle, int slq_cycle, sa_rng *rng)
 */
#ifndef SEASTAR_ARB_H
#define SEASTAR_ARB_H

/** Version of seastar_arb.h: major (incompatible API changes). */
#define SEASTAR_ARB_VERSION_MAJOR 0
/** Version of seastar_arb.h: minor (additions). */
#define SEASTAR_ARB_VERSION_MINOR 6
/** Version of seastar_arb.h: patch (fixes). */
#define SEASTAR_ARB_VERSION_PATCH 0

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(SA_NO_SIMD)
#include <emmintrin.h>
/** Defined to 1 when the SSE2 kernels of the >>fast section are compiled
 *  in (x86-64 without SA_NO_SIMD).  They make the same decisions as the
 *  reference; the tests compare the two builds. */
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

/* >>config =============================================================
 * Limits and result codes
 * ====================================================================== */

/** Largest number of router input ports that carry age biases. */
#define SA_MAX_PORTS 16
/** Virtual channels of a SeaStar link, the aging configuration's default:
 *  VC0/VC1 carry requests, VC2/VC3 responses (seed 000 Section 2.1). */
#define SA_AGE_NUM_VCS 4
/** Largest number of virtual channels the aging procedures accept. */
#define SA_MAX_AGE_VCS 16
/** Largest number of input sources an output arbiter chooses among. */
#define SA_MAX_SOURCES 64
/** Largest number of virtual channels per source at an output arbiter. */
#define SA_MAX_VCS 16
/** Largest number of candidates (sources x VCs) of one output arbiter. */
#define SA_MAX_CANDIDATES 512
/** Largest age bias: REQ_AGE_BIAS and RSP_AGE_BIAS are 3-bit fields. */
#define SA_MAX_AGE_BIAS 7
/** Largest packet age (ages are 8 bits and saturate). */
#define SA_MAX_AGE 255
/** Largest number of dimensions the Section 3 functions accept. */
#define SA_MAX_DIMS 8
/** Largest radix the Section 3 functions accept (a bound that keeps their
 *  integer arithmetic exact; SeaStar's 15-bit node IDs need at most 32K). */
#define SA_MAX_RADIX 65536
/** Largest buffer or packet size, in flits, of the Section 3.2 estimate. */
#define SA_MAX_FLITS (1 << 20)
/** Largest bandwidth of the Section 3.1 rates (any unit): finite, and far
 *  enough below the largest double that their products stay finite. */
#define SA_MAX_BANDWIDTH 1e15

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
    SA_ERR_RADIX_RANGE,         /**< a radix is below 2 or above SA_MAX_RADIX */
    SA_ERR_PARAM_RANGE,         /**< another parameter is out of its range */
    SA_ERR_SIZE_RANGE,          /**< an allocator size is 0 or above its maximum */
    SA_ERR_REQUEST_RANGE,       /**< a request names an output that is not configured */
    SA_ERR_MEMORY,              /**< the memory given is smaller than asked for,
                                     or not aligned to 8 bytes */
    SA_ERR_STATE,               /**< a state struct holds values its functions
                                     never produce (it was corrupted, or never
                                     initialised) */
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
    case SA_ERR_CANDIDATE_RANGE: return "sources x VCs exceeds SA_MAX_CANDIDATES (512)";
    case SA_ERR_COUNT_UNDERFLOW: return "a packet departs from an epoch whose packet count is 0";
    case SA_ERR_ZERO_PACKETS: return "no packets: the ratio is undefined";
    case SA_ERR_DIM_RANGE: return "the number of dimensions is 0 or above SA_MAX_DIMS";
    case SA_ERR_RADIX_RANGE: return "a radix is below 2 or above SA_MAX_RADIX (65536)";
    case SA_ERR_PARAM_RANGE: return "a parameter is out of its range";
    case SA_ERR_SIZE_RANGE: return "an allocator size is 0 or above its maximum";
    case SA_ERR_REQUEST_RANGE: return "a request names an output that is not configured";
    case SA_ERR_MEMORY:
        return "the memory given is smaller than sa_switch_memory_size or not aligned to 8 bytes";
    case SA_ERR_STATE: return "a state struct holds values its functions never produce (corrupted?)";
    default: return "unknown result";
    }
}

/* Bit helpers (private) */

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

/* Number of set bits (the builtin where the target has a POPCNT
 * instruction; elsewhere GCC would call a library routine). */
SA_API int sa__popcount64(uint64_t x) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
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
    hi = mask & (~(uint64_t)0 << (start & 63));
    return sa__ctz64(hi ? hi : mask);
}

/** 64-bit words of a set of n bits (a request row over n outputs, a mask
 *  of n inputs): bit b of the set is bit b % 64 of word b / 64. */
#define SA_WORDS(n) (((n) + 63) / 64)

/* Sets of bits over words (private): test, add, first member at or after
 * `from`, count, k-th member. */
SA_API int sa__has(const uint64_t *set, int b) { return (int)((set[b >> 6] >> (b & 63)) & 1u); }
SA_API void sa__add(uint64_t *set, int b) { set[b >> 6] |= (uint64_t)1 << (b & 63); }
SA_API void sa__clear_set(uint64_t *set, int size) {
    int w;
    for (w = 0; w < SA_WORDS(size); w++) set[w] = 0;
}
SA_API int sa__next(const uint64_t *set, int size, int from) {
    int w;
    uint64_t x;
    if (from >= size) return -1;
    w = from >> 6;
    x = set[w] & (~(uint64_t)0 << (from & 63));
    while (x == 0) {
        if (++w >= SA_WORDS(size)) return -1;
        x = set[w];
    }
    w = (w << 6) + sa__ctz64(x);
    return w < size ? w : -1;
}
SA_API int sa__count(const uint64_t *set, int size) {
    int w, c = 0;
    for (w = 0; w + 1 < SA_WORDS(size); w++) c += sa__popcount64(set[w]);
    return c + sa__popcount64(set[w] & sa__low_mask(size - 64 * w));
}
SA_API int sa__kth(const uint64_t *set, int size, int k) {
    int b = sa__next(set, size, 0);
    for (; k > 0; k--) b = sa__next(set, size, b + 1);
    return b;
}

/* The first member of the set at or after position start, cyclically: a
 * round-robin pick with start as the highest-priority position; -1 if the
 * set is empty. */
SA_API int sa__first_from_set(const uint64_t *set, int size, int start) {
    int b = sa__next(set, size, start);
    return b >= 0 ? b : sa__next(set, size, 0);
}


/* >>aging ==============================================================
 * SeaStar age-based arbitration: the aging registers and Procedures 1-3
 * (seed 000 Section 2)
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
    /** Virtual channels per link (1..SA_MAX_AGE_VCS; SeaStar has 4). */
    int num_vcs;
    /** Bit v set: VC v carries responses and takes RSP_AGE_BIAS; the others
     *  take REQ_AGE_BIAS (SeaStar: 0xC, VC2 and VC3). */
    uint16_t response_vcs;
    /** REQ_AGE_BIAS per input port (PORT_CONFIG[63:61]), added on request
     *  VCs. */
    uint8_t req_age_bias[SA_MAX_PORTS];
    /** RSP_AGE_BIAS per input port (PORT_CONFIG[60:58]), added on response
     *  VCs. */
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
 * four VCs of which VC2 and VC3 carry responses,
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
    cfg->num_vcs = SA_AGE_NUM_VCS;
    cfg->response_vcs = 0xC;
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
 *           SA_ERR_VC_RANGE if num_vcs is not in 1..SA_MAX_AGE_VCS or a
 *           response VC is not below it; SA_ERR_BIAS_RANGE if a bias of a
 *           configured port is above 7.
 */
SA_API sa_result sa_age_config_validate(const sa_age_config *cfg) {
    int p;
    if (cfg == NULL) return SA_ERR_NULL;
    if (cfg->age_clock_period == 0) return SA_ERR_PERIOD_ZERO;
    if (cfg->num_ports < 1 || cfg->num_ports > SA_MAX_PORTS) return SA_ERR_PORT_RANGE;
    if (cfg->num_vcs < 1 || cfg->num_vcs > SA_MAX_AGE_VCS || (cfg->response_vcs >> cfg->num_vcs) != 0)
        return SA_ERR_VC_RANGE;
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
 * Check an age clock's state: the values sa_age_clock_init and the
 * procedures produce (a clock corrupted by a stray write, or never
 * initialised, is reported instead of read past its arrays).
 *
 * :param clk: the clock.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_STATE if AGE_CLK_PERIOD is 0, the
 *           countdown is 0 or above the period, the epoch or the inhibit
 *           flag is above 1, or the clock is inhibited with a timestamp
 *           other than 255.
 */
SA_API sa_result sa_age_clock_check(const sa_age_clock *clk) {
    if (clk == NULL) return SA_ERR_NULL;
    if (clk->age_clock_period == 0 || clk->age_clock_period_reg == 0 ||
        clk->age_clock_period_reg > clk->age_clock_period || clk->epoch > 1 || clk->inhibit > 1 ||
        (clk->inhibit && clk->timestamp != 255))
        return SA_ERR_STATE;
    return SA_OK;
}

/**
 * Procedure 1: a packet arrives at an input port.
 *
 * Reads the packet age from bits 7:0 of ``*age_field``, adds the port's
 * REQ_AGE_BIAS (request VCs: SeaStar's VC0/VC1) or RSP_AGE_BIAS (the
 * configuration's response_vcs: VC2/VC3), saturates at 255,
 * counts the packet in the current epoch, and writes the new 11-bit field:
 * bit 9 the epoch, bits 8:0 the 9-bit two's-complement difference age minus
 * timestamp (bit 8 is the carry of Table 1), bit 10 zero.
 *
 * :param clk: the router's age clock; packet_count[epoch] is incremented.
 * :param cfg: the router's aging configuration (assumed valid).
 * :param port: input port, 0..cfg->num_ports-1.
 * :param vc: virtual channel, 0..cfg->num_vcs-1.
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
    if (vc < 0 || vc >= cfg->num_vcs || vc >= SA_MAX_AGE_VCS) return SA_ERR_VC_RANGE;
    age = *age_field & SA_AGE_FIELD_AGE_MASK;                       /* line 1 */
    age += (cfg->response_vcs >> vc) & 1u ? cfg->rsp_age_bias[port] /* 2-6 */
                                          : cfg->req_age_bias[port];
    if (age > SA_MAX_AGE) age = SA_MAX_AGE;                         /* 7-9 */
    clk->packet_count[clk->epoch & 1u]++;                           /* 10 */
    *age_field = (uint16_t)(((clk->epoch & 1u) << SA_AGE_FIELD_EPOCH_BIT) /* 11 */
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
    return clk->packet_count[(clk->epoch ^ 1u) & 1u] > 0;
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

/* >>output =============================================================
 * Output arbitration (seed 000 Section 2.1; seed 001 "Age-based output
 * arbitration")
 * ====================================================================== */

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
    uint16_t num_sources;   /**< input sources (SeaStar: 6) */
    uint16_t num_vcs;       /**< VCs per source (SeaStar: 4) */
    uint16_t rr_pointer;    /**< highest-priority candidate for round-robin */
    uint16_t age_pointer;   /**< highest-priority candidate among equal ages */
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
 *           SA_ERR_CANDIDATE_RANGE if sources x VCs > SA_MAX_CANDIDATES.
 *           On an error the arbiter is left all zero (no candidates).
 */
SA_API sa_result sa_output_arb_init(sa_output_arb *arb, int num_sources, int num_vcs) {
    if (arb == NULL) return SA_ERR_NULL;
    arb->num_sources = arb->num_vcs = 0;
    arb->rr_pointer = arb->age_pointer = 0;
    arb->grant_counter = 0;
    if (num_sources == 0) num_sources = 6;
    if (num_vcs == 0) num_vcs = SA_AGE_NUM_VCS;
    if (num_sources < 1 || num_sources > SA_MAX_SOURCES) return SA_ERR_SOURCE_RANGE;
    if (num_vcs < 1 || num_vcs > SA_MAX_VCS) return SA_ERR_VC_RANGE;
    if (num_sources * num_vcs > SA_MAX_CANDIDATES) return SA_ERR_CANDIDATE_RANGE;
    arb->num_sources = (uint16_t)num_sources;
    arb->num_vcs = (uint16_t)num_vcs;
    return SA_OK;
}

/**
 * Check an output arbiter's state (as sa_age_clock_check does a clock's).
 *
 * :param arb: the arbiter.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_STATE if its sizes are out of
 *           range, a pointer is not a candidate, or the grant counter is
 *           64 or more.
 */
SA_API sa_result sa_output_arb_check(const sa_output_arb *arb) {
    int n;
    if (arb == NULL) return SA_ERR_NULL;
    n = (int)arb->num_sources * (int)arb->num_vcs;
    if (arb->num_sources < 1 || arb->num_sources > SA_MAX_SOURCES || arb->num_vcs < 1 ||
        arb->num_vcs > SA_MAX_VCS || n > SA_MAX_CANDIDATES || arb->rr_pointer >= n ||
        arb->age_pointer >= n || arb->grant_counter > 63)
        return SA_ERR_STATE;
    return SA_OK;
}

/** Number of candidates of an output arbiter (sources x VCs). */
SA_API int sa_output_num_candidates(const sa_output_arb *arb) {
    return (int)arb->num_sources * (int)arb->num_vcs;
}

/* The eligible candidates holding the largest age (eligible not empty), a
 * set of n bits; *max_age gets it. */
SA_API void sa__oldest(const uint64_t *eligible, int n, const uint8_t *ages, uint64_t *ties,
                       unsigned *max_age) {
    unsigned best = 0;
    int c;
    sa__clear_set(ties, n);
    for (c = sa__next(eligible, n, 0); c >= 0; c = sa__next(eligible, n, c + 1)) {
        if (ages[c] > best) {
            best = ages[c];
            sa__clear_set(ties, n);
        }
        if (ages[c] == best) sa__add(ties, c);
    }
    *max_age = best;
}

/**
 * Choose the winner of one output port without changing any state: the
 * form for any number of candidates (up to SA_MAX_CANDIDATES), whose
 * eligible set takes SA_WORDS(sa_output_num_candidates) words.
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
 *                  maximum packet size); bits at or above
 *                  sa_output_num_candidates are ignored.
 * :param ages: ages[c] is candidate c's age from sa_age_at_head, for the
 *              sa_output_num_candidates candidates (only eligible ones are
 *              compared); NULL makes every grant round-robin.
 * :param grant: receives the winner (candidate -1 if none is eligible).
 * :returns: the winning candidate, or -1.
 * :paper: seed 000 Sections 2.1-2.3.2; seed 001 "Key parameters".
 */
SA_API int sa_output_select_set(const sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk,
                                const uint64_t *eligible, const uint8_t *ages, sa_grant *grant) {
    uint64_t oldest[SA_WORDS(SA_MAX_CANDIDATES)];
    int n = sa_output_num_candidates(arb), c;
    int inhibit = clk != NULL && clk->inhibit;
    int policy = (!inhibit && ages != NULL && ((cfg->age_rr_select >> (arb->grant_counter & 63u)) & 1u))
               ? SA_POLICY_AGE : SA_POLICY_ROUND_ROBIN;
    unsigned age = 0;
    if (policy == SA_POLICY_AGE) {
        sa__oldest(eligible, n, ages, oldest, &age);
        c = sa__first_from_set(oldest, n, arb->age_pointer);
    } else {
        c = sa__first_from_set(eligible, n, arb->rr_pointer);
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
 * Choose the winner of one output port with at most 64 candidates (the
 * eligible set in one word), as sa_output_select_set.
 *
 * :param arb: the output arbiter.
 * :param cfg: the aging configuration (for AGE_RR_SELECT).
 * :param clk: the age clock (for inhibit); NULL means not inhibited.
 * :param eligible: bit c set when candidate c may be sent.  Precondition
 *                  (SA_ASSERT): no bit at or above sa_output_num_candidates
 *                  (at most 64 of them); such bits are ignored when the
 *                  assert is compiled out.
 * :param ages: ages[c] of the candidates, or NULL (round-robin).
 * :param grant: receives the winner (candidate -1 if none is eligible).
 * :returns: the winning candidate, or -1.
 * :paper: seed 000 Sections 2.1-2.3.2; seed 001 "Key parameters".
 */
SA_API int sa_output_select(const sa_output_arb *arb, const sa_age_config *cfg,
                            const sa_age_clock *clk, uint64_t eligible,
                            const uint8_t *ages, sa_grant *grant) {
    uint64_t set[SA_WORDS(SA_MAX_CANDIDATES)];
    int w;
    SA_ASSERT(sa_output_num_candidates(arb) <= 64 &&
              (eligible & ~sa__low_mask(sa_output_num_candidates(arb))) == 0);
    set[0] = eligible;
    for (w = 1; w < SA_WORDS(SA_MAX_CANDIDATES); w++) set[w] = 0;
    return sa_output_select_set(arb, cfg, clk, set, ages, grant);
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
    uint16_t next;
    if (grant->candidate < 0) return;
    SA_ASSERT(grant->candidate < n);
    if (grant->candidate >= n) return;  /* with SA_ASSERT disabled: not a grant */
    next = (uint16_t)(grant->candidate + 1 == n ? 0 : grant->candidate + 1);
    if (grant->policy == SA_POLICY_AGE) arb->age_pointer = next;
    else arb->rr_pointer = next;
    arb->grant_counter = (uint8_t)((arb->grant_counter + 1u) & 63u);
}

/**
 * sa_output_select followed by sa_output_update: the usual call when the
 * winner is always sent (at most 64 candidates).
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

/**
 * sa_output_select_set followed by sa_output_update (any number of
 * candidates).
 *
 * :returns: the winning candidate, or -1.
 */
SA_API int sa_output_arbitrate_set(sa_output_arb *arb, const sa_age_config *cfg, const sa_age_clock *clk,
                                   const uint64_t *eligible, const uint8_t *ages, sa_grant *grant) {
    int c = sa_output_select_set(arb, cfg, clk, eligible, ages, grant);
    sa_output_update(arb, grant);
    return c;
}

/* >>counters ===========================================================
 * Performance counters (seed 000 Table 4, Eq 17)
 * ====================================================================== */

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
    if (packets_vc0 == 0 && packets_vc1 == 0) return SA_ERR_ZERO_PACKETS;
    /* (the sum in double: two 64-bit counters may add past 2^64) */
    *occupancy = (double)stalled_cycles / ((double)packets_vc0 + (double)packets_vc1);
    return SA_OK;
}

/* >>section3 ===========================================================
 * Parameter derivation (seed 000 Section 3)
 * ====================================================================== */

/**
 * Average hops in one dimension under uniform traffic, as the paper gives
 * them: k/4 for a torus (Eq 4-5; exact for even k, averaging over all
 * destinations including the source's own ordinate) and (k+1)/3 for a mesh
 * (Eq 6-7; exact as the average over distinct ordinates).
 *
 * :param radix: k, 2..SA_MAX_RADIX.
 * :param torus: non-zero for a torus dimension, 0 for a mesh dimension.
 * :param hops: receives the average.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 2, Eq 4-7.
 */
SA_API sa_result sa_average_hops_dim(int radix, int torus, double *hops) {
    if (hops == NULL) return SA_ERR_NULL;
    if (radix < 2 || radix > SA_MAX_RADIX) return SA_ERR_RADIX_RANGE;
    *hops = torus ? radix / 4.0 : (radix + 1) / 3.0;
    return SA_OK;
}

/* Validate n dimensions of radices. */
SA_API sa_result sa__check_dims(int n, const int *radix) {
    int i;
    if (radix == NULL) return SA_ERR_NULL;
    if (n < 1 || n > SA_MAX_DIMS) return SA_ERR_DIM_RANGE;
    for (i = 0; i < n; i++) if (radix[i] < 2 || radix[i] > SA_MAX_RADIX) return SA_ERR_RADIX_RANGE;
    return SA_OK;
}

/**
 * Average hops of a mixed-radix network, each dimension a mesh or a torus:
 * the sum of sa_average_hops_dim over the dimensions (Eq 5 and Eq 7; Eq 4
 * and Eq 6 when every radix is equal).
 *
 * :param n: number of dimensions, 1..SA_MAX_DIMS.
 * :param radix: radix[i] of dimension i, each 2..SA_MAX_RADIX.
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
 * :param radix: k, 2..SA_MAX_RADIX.
 * :param torus: non-zero for a torus, 0 for a mesh.
 * :param worst_case: non-zero for the doubled worst-case load.
 * :param load: receives gamma_c.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_RADIX_RANGE.
 * :paper: seed 000 Section 2, Eq 8-9 and footnote 8.
 */
SA_API sa_result sa_channel_load(int radix, int torus, int worst_case, double *load) {
    if (load == NULL) return SA_ERR_NULL;
    if (radix < 2 || radix > SA_MAX_RADIX) return SA_ERR_RADIX_RANGE;
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
 * :param radix: radix[i] of dimension i, each 2..SA_MAX_RADIX.
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
 * :param radix: radix[i] of dimension i, each 2..SA_MAX_RADIX.
 * :param torus: torus[i] non-zero for a torus dimension; NULL means all tori.
 * :param channel_bw: Bc, the channel bandwidth (any unit), above 0 and at
 *                   most SA_MAX_BANDWIDTH.
 * :param eject_bw: Ep, the processor ejection bandwidth (same unit), the
 *                  same range.
 * :param u: receives u[0..n-1] (for n = 3: Ux, Uy, Uz).
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_DIM_RANGE, SA_ERR_RADIX_RANGE, or
 *           SA_ERR_PARAM_RANGE for a bandwidth out of range (NaN and
 *           infinity included).
 * :paper: seed 000 Section 3.1, Eq 14-16.
 */
SA_API sa_result sa_ejection_rates(int n, const int *radix, const int *torus,
                                   double channel_bw, double eject_bw, double *u) {
    int i;
    double next;
    sa_result r = sa__check_dims(n, radix);
    if (r != SA_OK) return r;
    if (u == NULL) return SA_ERR_NULL;
    if (!(channel_bw > 0.0 && channel_bw <= SA_MAX_BANDWIDTH) || !(eject_bw > 0.0 && eject_bw <= SA_MAX_BANDWIDTH))
        return SA_ERR_PARAM_RANGE;
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
    int radix[SA_MAX_DIMS];       /**< k_i, each 2..SA_MAX_RADIX (required) */
    int mesh[SA_MAX_DIMS];        /**< non-zero: dimension i is a mesh */
    int bias[SA_MAX_DIMS];        /**< age bias per dimension (0: sa_bias_ordering) */
    int input_buffer_flits;       /**< flits per input VC buffer, up to
                                       SA_MAX_FLITS (96) */
    int staging_buffer_flits;     /**< flits per staging buffer, up to
                                       SA_MAX_FLITS (16) */
    int max_packet_flits;         /**< largest packet, header + data, up to
                                       SA_MAX_FLITS (9) */
    int vcs_sharing_link;         /**< VCs that share a link's bandwidth,
                                       1..64 (2) */
    int target_age;               /**< centre of the age distribution,
                                       1..SA_MAX_AGE (128) */
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
 *           negative size, a size above its bound (SA_MAX_FLITS flits, 64
 *           VCs, an age of SA_MAX_AGE), buffers smaller than one packet, or
 *           biases that alone reach the target age.  (The bounds keep every
 *           step's integer arithmetic exact.)
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
    if (in_flits > SA_MAX_FLITS || st_flits > SA_MAX_FLITS || pkt > SA_MAX_FLITS || vcs > 64 ||
        target > SA_MAX_AGE)
        return SA_ERR_PARAM_RANGE;
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

/* >>rng ================================================================
 * A deterministic random-number generator (PIM's random choices)
 * ====================================================================== */

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

/* Position of the k-th (0-based) set bit of x; k is below the number of
 * set bits. */
SA_API int sa__kth_bit(uint64_t x, int k) {
    for (; k > 0; k--) x &= x - 1;
    return sa__ctz64(x);
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
    if (mask == 0) return -1;
    if ((mask & (mask - 1)) == 0) return sa__ctz64(mask);
    return sa__kth_bit(mask, (int)sa_rng_below(rng, (uint32_t)sa__popcount64(mask)));
}

/* >>arbiters ===========================================================
 * Round-robin and matrix (least-recently-selected) arbiters, with optional
 * priorities: the building blocks of the switch allocators
 * ====================================================================== */

#ifndef SA_SWITCH_MAX
/** Largest number of requesters of an arbiter, and of input arbiters and of
 *  outputs of a switch allocator (1..512).  Define it smaller before
 *  including the header to shrink sa_match and sa_switch_desc; every
 *  translation unit that shares those objects must then use the same
 *  value. */
#define SA_SWITCH_MAX 512
#endif
#if SA_SWITCH_MAX < 1 || SA_SWITCH_MAX > 512
#error "SA_SWITCH_MAX must be between 1 and 512"
#endif

/* Keep only the members of the set (requesters) holding the highest
 * priority prio[b]; nothing changes with prio NULL. */
SA_API void sa__keep_top(uint64_t *set, int size, const int32_t *prio) {
    int32_t top = INT32_MIN;
    int b;
    if (prio == NULL) return;
    for (b = sa__next(set, size, 0); b >= 0; b = sa__next(set, size, b + 1))
        if (prio[b] > top) top = prio[b];
    for (b = sa__next(set, size, 0); b >= 0; b = sa__next(set, size, b + 1))
        if (prio[b] != top) set[b >> 6] &= ~((uint64_t)1 << (b & 63));
}

/**
 * A round-robin arbiter over ``size`` requesters: the requester at
 * ``pointer`` has the highest priority, then pointer+1, ... cyclically; after
 * a grant the pointer moves just past the winner.
 */
typedef struct sa_rr_arb {
    uint16_t size;    /**< number of requesters, 1..SA_SWITCH_MAX */
    uint16_t pointer; /**< highest-priority requester */
} sa_rr_arb;

/**
 * Reset a round-robin arbiter (pointer 0).
 *
 * :param arb: the arbiter.
 * :param size: number of requesters, 1..SA_SWITCH_MAX.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_SIZE_RANGE.
 */
SA_API sa_result sa_rr_arb_init(sa_rr_arb *arb, int size) {
    if (arb == NULL) return SA_ERR_NULL;
    if (size < 1 || size > SA_SWITCH_MAX) return SA_ERR_SIZE_RANGE;
    arb->size = (uint16_t)size;
    arb->pointer = 0;
    return SA_OK;
}

/**
 * Choose among the requesters with the highest priority the first at or
 * after the pointer, cyclically, without changing the state.
 *
 * :param arb: the arbiter.
 * :param req: the requesters, SA_WORDS(size) words (bit i: requester i
 *             requests).  Precondition: no bit at or above arb->size.
 * :param prio: NULL (all equal), or prio[i] the priority of requester i
 *              (larger wins; read only for requesters).
 * :returns: the winner, or -1 if there is no requester.
 */
SA_API int sa_rr_select(const sa_rr_arb *arb, const uint64_t *req, const int32_t *prio) {
    uint64_t top[SA_WORDS(SA_SWITCH_MAX)] = {0};
    int w;
    SA_ASSERT(arb->size >= 1 && arb->size <= SA_SWITCH_MAX);
    for (w = 0; w < SA_WORDS(arb->size); w++) top[w] = req[w];
    sa__keep_top(top, arb->size, prio);
    return sa__first_from_set(top, arb->size, arb->pointer);
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
    arb->pointer = (uint16_t)(winner + 1 == arb->size ? 0 : winner + 1);
}

/**
 * Check a round-robin arbiter's state.
 *
 * :param arb: the arbiter.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_STATE if its size is not in
 *           1..SA_SWITCH_MAX or its pointer is not below it.
 */
SA_API sa_result sa_rr_arb_check(const sa_rr_arb *arb) {
    if (arb == NULL) return SA_ERR_NULL;
    return arb->size >= 1 && arb->size <= SA_SWITCH_MAX && arb->pointer < arb->size ? SA_OK : SA_ERR_STATE;
}

/**
 * A matrix arbiter: grants the least-recently-selected requester.
 *
 * The hardware keeps a priority matrix (bit [a][b] set when a beats b); a
 * grant clears the winner's row and sets its column, making it the lowest.
 * Started from a total order, that matrix always holds a total order: the
 * order of the requesters' last selections.  This arbiter keeps that order
 * as each requester's rank in it (0 = highest priority, the least recently
 * selected), which is the same information in fewer bits, in an array the
 * caller owns (``size`` entries: a switch allocator keeps many).
 *
 * :paper: seed 002 Section 3 ("least-recently selected ... implemented in
 *         hardware via a priority matrix").
 */
typedef struct sa_matrix_arb {
    int size;       /**< number of requesters, 1..SA_SWITCH_MAX */
    uint16_t *rank; /**< rank[i] of requester i: 0 = highest priority; a
                         permutation of 0..size-1 (the caller's memory) */
} sa_matrix_arb;

/**
 * Reset a matrix arbiter: requester 0 has the highest priority, then 1, ...
 *
 * :param arb: the arbiter.
 * :param size: number of requesters, 1..SA_SWITCH_MAX.
 * :param rank: ``size`` entries the arbiter keeps its order in.
 * :returns: SA_OK, SA_ERR_NULL or SA_ERR_SIZE_RANGE.
 */
SA_API sa_result sa_matrix_arb_init(sa_matrix_arb *arb, int size, uint16_t *rank) {
    int i;
    if (arb == NULL || rank == NULL) return SA_ERR_NULL;
    if (size < 1 || size > SA_SWITCH_MAX) return SA_ERR_SIZE_RANGE;
    arb->size = size;
    arb->rank = rank;
    for (i = 0; i < size; i++) rank[i] = (uint16_t)i;
    return SA_OK;
}

/**
 * Choose among the requesters with the highest priority the least recently
 * selected, without changing the state.
 *
 * :param arb: the arbiter.
 * :param req: the requesters, SA_WORDS(size) words (no bit at or above
 *             arb->size).
 * :param prio: NULL (all equal), or prio[i] the priority of requester i
 *              (larger wins).
 * :returns: the winner, or -1 if there is no requester.
 */
SA_API int sa_matrix_select(const sa_matrix_arb *arb, const uint64_t *req, const int32_t *prio) {
    uint64_t top[SA_WORDS(SA_SWITCH_MAX)] = {0};
    int w, i, best = -1;
    SA_ASSERT(arb->size >= 1 && arb->size <= SA_SWITCH_MAX);
    if (arb->size < 1 || arb->size > SA_SWITCH_MAX) return -1;
    for (w = 0; w < SA_WORDS(arb->size); w++) top[w] = req[w];
    sa__keep_top(top, arb->size, prio);
    for (i = sa__next(top, arb->size, 0); i >= 0; i = sa__next(top, arb->size, i + 1))
        if (best < 0 || arb->rank[i] < arb->rank[best]) best = i;
    return best;
}

/**
 * Record a selection: the winner becomes the lowest priority, and every
 * requester that was behind it moves up one place.
 *
 * :param arb: the arbiter.
 * :param winner: the selected requester, or -1 (nothing changes).
 */
SA_API void sa_matrix_update(sa_matrix_arb *arb, int winner) {
    int i, k;
    if (winner < 0) return;
    SA_ASSERT(winner < arb->size);
    k = arb->rank[winner];
    for (i = 0; i < arb->size; i++)
        if (arb->rank[i] > k) arb->rank[i]--;
    arb->rank[winner] = (uint16_t)(arb->size - 1);
}

/**
 * Check a matrix arbiter's state: its ranks are a permutation of
 * 0..size-1.
 *
 * :param arb: the arbiter.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_STATE.
 */
SA_API sa_result sa_matrix_arb_check(const sa_matrix_arb *arb) {
    uint64_t seen[SA_WORDS(SA_SWITCH_MAX)];
    int i;
    if (arb == NULL || arb->rank == NULL) return SA_ERR_NULL;
    if (arb->size < 1 || arb->size > SA_SWITCH_MAX) return SA_ERR_STATE;
    sa__clear_set(seen, arb->size);
    for (i = 0; i < arb->size; i++) {
        int r = arb->rank[i];
        if (r >= arb->size || sa__has(seen, r)) return SA_ERR_STATE;
        sa__add(seen, r);
    }
    return SA_OK;
}

/* >>readports ==========================================================
 * Two read ports sharing one input buffer (the Alpha 21364's constraint)
 * ====================================================================== */

/**
 * What the two read ports of one input buffer need to know about its
 * packets so that they never pick the same packet.
 *
 * In the 21364 each input buffer has two read ports, each with its own
 * input arbiter (seed 002 Section 2.2); the arbiters of one buffer must not
 * dispatch the same packet (Section 3.3).  With read-port pairing on
 * (sa_switch_desc.read_port_pairs), input arbiters 2b and 2b+1 are the read
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
    uint64_t sole[64];           /**< for a sole output k: outputs (not in
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
 *           64.
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
        if (o & ~sa__low_mask(64)) return SA_ERR_REQUEST_RANGE;
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
    SA_ASSERT(k >= 0 && k < 64 && (buf->any & bit));
    return (buf->multi & bit) ? 0 : buf->sole[k];
}

/* The oldest packet (lowest index) that can use an output of mask, other
 * than packet skip; -1 if none. */
SA_API int sa__oldest_packet(const uint64_t *packet_outputs, int num_packets, uint64_t mask, int skip) {
    int p;
    for (p = 0; p < num_packets; p++)
        if (p != skip && (packet_outputs[p] & mask)) return p;
    return -1;
}

/**
 * Pick the packets that the two read ports of one buffer send, given the
 * outputs they were matched to: the first (oldest) suitable packet for each,
 * never the same packet for both.
 *
 * :param packet_outputs: as for sa_read_buffer_build, oldest packet first.
 * :param num_packets: number of packets (0 or more).
 * :param out0: output of read port 0 (input arbiter 2b), or -1.
 * :param out1: output of read port 1 (input arbiter 2b+1), or -1.
 * :param pkt0: receives read port 0's packet index, or -1.
 * :param pkt1: receives read port 1's packet index, or -1.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PARAM_RANGE if num_packets < 0;
 *           SA_ERR_REQUEST_RANGE if an output is below -1 or at or above
 *           64, or if no two distinct packets serve the two
 *           outputs (the allocation did not respect sa_read_buffer_clash).
 *           On an error both packets are -1.
 */
SA_API sa_result sa_read_buffer_assign(const uint64_t *packet_outputs, int num_packets,
                                       int out0, int out1, int *pkt0, int *pkt1) {
    uint64_t m0, m1;
    int a, b;
    if (pkt0 == NULL || pkt1 == NULL || (packet_outputs == NULL && num_packets > 0))
        return SA_ERR_NULL;
    *pkt0 = *pkt1 = -1;
    if (num_packets < 0) return SA_ERR_PARAM_RANGE;
    if (out0 < -1 || out0 >= 64 || out1 < -1 || out1 >= 64) return SA_ERR_REQUEST_RANGE;
    m0 = out0 >= 0 ? (uint64_t)1 << out0 : 0;
    m1 = out1 >= 0 ? (uint64_t)1 << out1 : 0;
    /* The oldest packet for out0, then the oldest other packet for out1; if
     * out1 then has none, its only packets are out0's choice: the oldest
     * packet for out1, then the oldest other one for out0.  (That second
     * try succeeds whenever any pair of distinct packets does.) */
    a = sa__oldest_packet(packet_outputs, num_packets, m0, -1);
    b = sa__oldest_packet(packet_outputs, num_packets, m1, a);
    if (m1 && b < 0) {
        b = sa__oldest_packet(packet_outputs, num_packets, m1, -1);
        a = sa__oldest_packet(packet_outputs, num_packets, m0, b);
    }
    if ((m0 && a < 0) || (m1 && b < 0)) return SA_ERR_REQUEST_RANGE;
    *pkt0 = a;
    *pkt1 = b;
    return SA_OK;
}

/* >>switch =============================================================
 * Switch allocators: description, state, requests, matching (seed 002
 * Section 3)
 *
 * Every cycle each input arbiter of a router has packets for some outputs;
 * an allocator picks a matching (each input and each output at most once,
 * only requested pairs).  A request set is one row of bits per input
 * arbiter: bit j of row i means input arbiter i has a packet for output j;
 * a row is SA_WORDS(num_outputs) 64-bit words (one word up to 64 outputs),
 * row i at req + i * SA_WORDS(num_outputs).  Priorities, when given, are
 * one int32_t per cell, row-major (prio[i * num_outputs + j]); larger goes
 * first, and each algorithm's own order decides among equals.  The
 * sections after this one hold one allocator each, as its paper describes
 * it; sa_switch_allocate (>>allocate) runs the one an sa_switch was set up
 * for.  sa_requests (>>requests) builds request sets as simulators do.
 * ====================================================================== */

/** Value of sa_switch_desc.iterations that makes PIM and iSLIP iterate
 *  until an iteration adds no match (the matching is then maximal). */
#define SA_ITERATE_TO_CONVERGENCE (-1)

/** Which allocation algorithm an sa_switch runs. */
typedef enum sa_switch_kind {
    SA_SWITCH_SPAA = 0,       /**< SPAA: one nomination per input arbiter,
                                   least-recently-selected grant (seed 002 3.3) */
    SA_SWITCH_WFA,            /**< wave-front arbiter (Tamir and Chi), start
                                   cell chosen round-robin (WFA-base, 3.2) */
    SA_SWITCH_WFA_WRAPPED,    /**< wrapped wave-front arbiter: wrapped
                                   diagonals, round-robin priority diagonal */
    SA_SWITCH_PIM,            /**< parallel iterative matching, k iterations
                                   (PIM1 for k = 1) (3.1) */
    SA_SWITCH_ISLIP,          /**< iSLIP-k (McKeown): round-robin PIM whose
                                   pointers move only on accepted first-
                                   iteration grants */
    SA_SWITCH_OPF,            /**< oldest packet first (Figure 2): input-first
                                   separable allocation by priority */
    SA_SWITCH_SEP_INPUT,      /**< separable input-first, round-robin arbiters */
    SA_SWITCH_SEP_OUTPUT,     /**< separable output-first, round-robin arbiters */
    SA_SWITCH_MCM,            /**< maximum-cardinality matching (exact) */
    SA_SWITCH_KIND_COUNT      /**< number of kinds (not a kind) */
} sa_switch_kind;

#ifndef SA_SWITCH_KINDS
/** The kinds of allocator a translation unit compiles, as a mask of
 *  ``1u << kind``; all by default.  A simulator that uses one kind defines
 *  it before including the header, for example ``#define SA_SWITCH_KINDS
 *  (1u << SA_SWITCH_ISLIP)``: sa_switch_allocate then compiles only that
 *  kind's code (a fraction of the compile time and code size), and
 *  sa_switch_init refuses the other kinds (SA_ERR_PARAM_RANGE).  Every
 *  translation unit that allocates with an allocator must name its kind. */
#define SA_SWITCH_KINDS (~0u)
#endif
/* Whether the translation unit compiles kind k (a constant where k is). */
#define SA__KIND_ON(k) ((((unsigned)(SA_SWITCH_KINDS)) >> (unsigned)(k)) & 1u)

/** sa_switch_desc.wavefront: wrapped WFA's diagonals are the cells
 *  (i, (i + d) mod s), the Tamir-Chi wrapped wave front as this library
 *  draws it (the default). */
#define SA_WAVEFRONT_DIAGONAL 0
/** sa_switch_desc.wavefront: the mirrored diagonals, cells (i, j) with
 *  (i + j) mod s = d: what BookSim2's "wavefront" allocator evaluates. */
#define SA_WAVEFRONT_ANTIDIAGONAL 1

/** sa_switch_desc.pointer_rule: separable output-first moves every
 *  arbiter's pointer past its own winner, an output's even when its grant
 *  is declined (McKeown's RRM; the default). */
#define SA_POINTER_RRM 0
/** sa_switch_desc.pointer_rule: separable output-first moves the two
 *  pointers of a completed match only (BookSim2's separable_output_first;
 *  it then makes the decisions of iSLIP-1). */
#define SA_POINTER_ON_MATCH 1

/** sa_switch_desc.idle: an allocation without requests moves the state as
 *  any other (WFA's start cell and wrapped WFA's priority diagonal advance;
 *  the default). */
#define SA_IDLE_ADVANCE 0
/** sa_switch_desc.idle: an allocation without requests leaves the state as
 *  it was (BookSim2's wave front). */
#define SA_IDLE_HOLD 1

/**
 * Description of an allocator, read once by sa_switch_memory_size and
 * sa_switch_init.  Start from all zeros (``sa_switch_desc d = {0};`` in C,
 * ``sa_switch_desc d = {};`` in C++) and set at least the two sizes; zero in
 * any other field is its default (sa__switch_defaults): SPAA, one
 * iteration, full crossbar, no Rotary Rule, no read-port pairing, seed 0,
 * the paper's diagonals and pointer rule, state that advances on every
 * call.  sa_switch_desc_21364 fills in the whole Alpha 21364 router.
 */
typedef struct sa_switch_desc {
    int num_inputs;          /**< input arbiters (rows), 1..SA_SWITCH_MAX */
    int num_outputs;         /**< outputs (columns), 1..SA_SWITCH_MAX */
    sa_switch_kind kind;     /**< the algorithm (0: SA_SWITCH_SPAA) */
    int iterations;          /**< PIM and iSLIP: iterations k >= 1, or
                                  SA_ITERATE_TO_CONVERGENCE; 0 means 1 */
    int rotary;              /**< nonzero: the Rotary Rule (SPAA, WFA,
                                  WFA_WRAPPED and PIM only) */
    int read_port_pairs;     /**< nonzero: input arbiters 2b and 2b+1 are the
                                  two read ports of buffer b (num_inputs even,
                                  both sizes at most 64; pass sa_read_buffer
                                  views) */
    int wavefront;           /**< WFA_WRAPPED: SA_WAVEFRONT_DIAGONAL or
                                  SA_WAVEFRONT_ANTIDIAGONAL */
    int pointer_rule;        /**< SEP_OUTPUT: SA_POINTER_RRM or
                                  SA_POINTER_ON_MATCH */
    int idle;                /**< SA_IDLE_ADVANCE or SA_IDLE_HOLD */
    uint64_t seed;           /**< PIM: seed of the allocator's sa_rng; give
                                  every router its own (sa_switch_seed), or
                                  all draw alike */
    uint64_t network_inputs[SA_WORDS(SA_SWITCH_MAX)]; /**< bit i: input
                                  arbiter i carries network (cross) traffic;
                                  the Rotary Rule favours these */
    const uint64_t *no_connect; /**< NULL (full crossbar), or num_inputs rows
                                  of SA_WORDS(num_outputs) words: bit j of
                                  row i, input arbiter i has no connection to
                                  output j (the shaded cells of seed 002
                                  Figure 5); read by sa_switch_init only */
} sa_switch_desc;

/**
 * An allocator: its configuration and the state its algorithm keeps between
 * allocations.  The struct is small; the arrays live in memory the caller
 * provides to sa_switch_init (sa_switch_memory_size bytes), whose size
 * depends on the algorithm and the sizes: SPAA keeps a matrix arbiter per
 * input and per output, iSLIP and the separable allocators a round-robin
 * pointer per input and per output, the others only a few numbers.  To copy
 * an allocator (a checkpoint), use sa_switch_copy.
 */
typedef struct sa_switch {
    sa_switch_kind kind;     /**< the algorithm */
    int num_inputs;          /**< input arbiters */
    int num_outputs;         /**< outputs */
    int row_words;           /**< SA_WORDS(num_outputs): words of a request row */
    int iterations;          /**< PIM/iSLIP iterations (-1: converge) */
    int rotary;              /**< Rotary Rule on */
    int read_port_pairs;     /**< read-port pairing on */
    int wavefront;           /**< SA_WAVEFRONT_* */
    int pointer_rule;        /**< SA_POINTER_* */
    int idle;                /**< SA_IDLE_* */
    uint64_t network_inputs[SA_WORDS(SA_SWITCH_MAX)]; /**< network inputs */
    sa_rng rng;              /**< PIM: its random numbers */
    int start_row;           /**< WFA: row of the start cell */
    int start_col;           /**< WFA: column of the start cell;
                                  WFA_WRAPPED: the priority diagonal */
    size_t memory_size;      /**< bytes of the caller's memory in use */
    uint64_t *connect;       /**< row i: the outputs input i reaches */
    uint16_t *in_rank;       /**< SPAA: ranks of input arbiter i's matrix
                                  arbiter over the outputs, row-major */
    uint16_t *out_rank;      /**< SPAA: output arbiter j's, over the inputs */
    uint16_t *in_ptr;        /**< iSLIP, separable, OPF: input pointers */
    uint16_t *out_ptr;       /**< iSLIP, separable, OPF: output pointers */
    uint64_t *fast;          /**< state of the fast kernels (>>fast), or NULL */
    int fast_holds_state;    /**< nonzero while SPAA's arbiters are held in
                                  the fast kernels' form (>>fast) */
} sa_switch;

/** The result of one allocation: a matching of inputs to outputs.  Read
 *  only the entries within the allocator's sizes (sa_switch_allocate). */
typedef struct sa_match {
    int size;                              /**< number of matched pairs */
    int16_t output_of[SA_SWITCH_MAX];      /**< output of input i, or -1 */
    int16_t input_of[SA_SWITCH_MAX];       /**< input of output j, or -1 */
    uint64_t inputs[SA_WORDS(SA_SWITCH_MAX)];  /**< set of matched inputs */
    uint64_t outputs[SA_WORDS(SA_SWITCH_MAX)]; /**< set of matched outputs */
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
 * :param no_connect: receives 16 rows of one word.
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
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_PARAM_RANGE for a bad kind, or
 *           SA_ERR_SIZE_RANGE when SA_SWITCH_MAX is below 16.
 * :paper: seed 002 Sections 2.1, 2.2, 3.4; Figure 5.
 */
SA_API sa_result sa_switch_desc_21364(sa_switch_desc *desc, sa_switch_kind kind, int rotary) {
    /* sa_21364_no_connect's 16 rows (the tests compare them) */
    static const uint64_t no_connect[16] = { 0x2A, 0x55, 0x55, 0x2A, 0x2A, 0x55, 0x55, 0x2A,
                                             0x2A, 0x55, 0x55, 0x3A, 0x2A, 0x75, 0x55, 0x2A };
    if (desc == NULL) return SA_ERR_NULL;
    memset(desc, 0, sizeof *desc);
    desc->kind = kind;
    desc->num_inputs = 2 * SA_21364_IN_PORTS;
    desc->num_outputs = SA_21364_OUT_PORTS;
    desc->iterations = 1;
    desc->rotary = rotary != 0;
    desc->network_inputs[0] = 0xFF; /* rows of L-N, L-S, L-E, L-W */
    desc->read_port_pairs = 1;
    desc->no_connect = no_connect;
    if (SA_SWITCH_MAX < 16) return SA_ERR_SIZE_RANGE;
    return ((int)kind < 0 || kind >= SA_SWITCH_KIND_COUNT) ? SA_ERR_PARAM_RANGE : SA_OK;
}

/**
 * A seed for one allocator of a simulation: every (simulation seed,
 * instance) pair gives its own random stream, so that routers of one run
 * do not draw alike and a run is repeated exactly by its seed.  Number the
 * instances as you like (router, or router and port).
 *
 * :param simulation_seed: the run's seed.
 * :param instance: the allocator's number.
 * :returns: a value for sa_switch_desc.seed.
 */
SA_API uint64_t sa_switch_seed(uint64_t simulation_seed, uint64_t instance) {
    sa_rng r;
    sa_rng_seed(&r, instance);
    sa_rng_seed(&r, simulation_seed ^ sa_rng_next(&r));
    return sa_rng_next(&r);
}

/* Bytes of the fast kernels' own state for an allocator (>>fast; 0 in a
 * build without them). */
SA_API size_t sa__fast_memory_size(const sa_switch_desc *desc);

/* The description with its defaults applied, checked: the one place that
 * says what a zero field means. */
SA_API sa_result sa__switch_defaults(const sa_switch_desc *desc, sa_switch_desc *d) {
    int i, j, n, m;
    if (desc == NULL || d == NULL) return SA_ERR_NULL;
    *d = *desc;
    n = d->num_inputs;
    m = d->num_outputs;
    if (d->iterations == 0) d->iterations = 1;
    d->rotary = d->rotary != 0;
    d->read_port_pairs = d->read_port_pairs != 0;
    if ((int)d->kind < 0 || d->kind >= SA_SWITCH_KIND_COUNT || !SA__KIND_ON(d->kind)) return SA_ERR_PARAM_RANGE;
    if (n < 1 || n > SA_SWITCH_MAX || m < 1 || m > SA_SWITCH_MAX) return SA_ERR_SIZE_RANGE;
    if (d->iterations < SA_ITERATE_TO_CONVERGENCE) return SA_ERR_PARAM_RANGE;
    if (d->wavefront != SA_WAVEFRONT_DIAGONAL && d->wavefront != SA_WAVEFRONT_ANTIDIAGONAL)
        return SA_ERR_PARAM_RANGE;
    if (d->pointer_rule != SA_POINTER_RRM && d->pointer_rule != SA_POINTER_ON_MATCH) return SA_ERR_PARAM_RANGE;
    if (d->idle != SA_IDLE_ADVANCE && d->idle != SA_IDLE_HOLD) return SA_ERR_PARAM_RANGE;
    for (i = n; i < 64 * SA_WORDS(SA_SWITCH_MAX); i++)
        if (sa__has(d->network_inputs, i)) return SA_ERR_PARAM_RANGE;
    if (d->read_port_pairs && (m > 64 || n > 64)) return SA_ERR_SIZE_RANGE;
    if (d->read_port_pairs && (n & 1)) return SA_ERR_PARAM_RANGE;
    if (d->read_port_pairs && d->kind == SA_SWITCH_MCM && m > 8) return SA_ERR_SIZE_RANGE;
    if (d->rotary && d->kind != SA_SWITCH_SPAA && d->kind != SA_SWITCH_WFA &&
        d->kind != SA_SWITCH_WFA_WRAPPED && d->kind != SA_SWITCH_PIM) return SA_ERR_PARAM_RANGE;
    for (i = 0; d->no_connect != NULL && i < n; i++)
        for (j = m; j < 64 * SA_WORDS(m); j++)
            if (sa__has(d->no_connect + (size_t)i * (size_t)SA_WORDS(m), j)) return SA_ERR_PARAM_RANGE;
    return SA_OK;
}

/* Where sa_switch_init puts each array in the caller's memory (byte
 * offsets; the 64-bit arrays first, so that 8-byte alignment of the block
 * suffices). */
typedef struct sa__switch_layout {
    size_t connect, fast, in_rank, out_rank, in_ptr, out_ptr, end;
} sa__switch_layout;

SA_API void sa__switch_layout_of(const sa_switch_desc *d, sa__switch_layout *l) {
    size_t n = (size_t)d->num_inputs, m = (size_t)d->num_outputs;
    int spaa = d->kind == SA_SWITCH_SPAA;
    int pointers = d->kind == SA_SWITCH_ISLIP || d->kind == SA_SWITCH_OPF ||
                   d->kind == SA_SWITCH_SEP_INPUT || d->kind == SA_SWITCH_SEP_OUTPUT;
    l->connect = 0;
    l->fast = l->connect + n * SA_WORDS(m) * sizeof(uint64_t);
    l->in_rank = l->fast + sa__fast_memory_size(d);
    l->out_rank = l->in_rank + (spaa ? n * m * sizeof(uint16_t) : 0);
    l->in_ptr = l->out_rank + (spaa ? m * n * sizeof(uint16_t) : 0);
    /* (the pointer arrays padded to whole 16-byte vectors, which the fast
     * kernels read and write) */
    l->out_ptr = l->in_ptr + (pointers ? (n + 7) / 8 * 16 : 0);
    l->end = l->out_ptr + (pointers ? (m + 7) / 8 * 16 : 0);
    l->end = (l->end + 7) / 8 * 8;
}

/**
 * Bytes of memory an allocator of this description needs (pass them to
 * sa_switch_init): a few hundred for most algorithms, about 4 n m for SPAA.
 * The value depends on the build (the fast kernels of an SSE2 build keep
 * some state of their own), so ask this function rather than storing the
 * number.
 *
 * :param desc: the description.
 * :returns: the size in bytes, or 0 if the description is invalid (the
 *           reason is what sa_switch_init returns).
 */
SA_API size_t sa_switch_memory_size(const sa_switch_desc *desc) {
    sa_switch_desc d;
    sa__switch_layout l;
    if (sa__switch_defaults(desc, &d) != SA_OK) return 0;
    sa__switch_layout_of(&d, &l);
    return l.end;
}

/* Point an allocator's arrays into memory laid out for it. */
SA_API void sa__switch_attach(sa_switch *a, const sa__switch_layout *l, void *memory) {
    unsigned char *base = (unsigned char *)memory;
    a->connect = (uint64_t *)(void *)(base + l->connect);
    a->fast = l->in_rank > l->fast ? (uint64_t *)(void *)(base + l->fast) : NULL;
    a->in_rank = l->out_rank > l->in_rank ? (uint16_t *)(void *)(base + l->in_rank) : NULL;
    a->out_rank = l->in_ptr > l->out_rank ? (uint16_t *)(void *)(base + l->out_rank) : NULL;
    a->in_ptr = l->out_ptr > l->in_ptr ? (uint16_t *)(void *)(base + l->in_ptr) : NULL;
    a->out_ptr = l->out_ptr > l->in_ptr ? (uint16_t *)(void *)(base + l->out_ptr) : NULL;
}

/* Input arbiter i's and output arbiter j's matrix arbiters (SPAA): views
 * of their ranks in the allocator's memory. */
SA_API sa_matrix_arb sa__in_arb(const sa_switch *a, int i) {
    sa_matrix_arb arb;
    arb.size = a->num_outputs;
    arb.rank = a->in_rank + (size_t)i * (size_t)a->num_outputs;
    return arb;
}
SA_API sa_matrix_arb sa__out_arb(const sa_switch *a, int j) {
    sa_matrix_arb arb;
    arb.size = a->num_inputs;
    arb.rank = a->out_rank + (size_t)j * (size_t)a->num_inputs;
    return arb;
}

/* Make the fast kernels' state from a freshly initialised allocator's
 * (>>fast; nothing in a build without them). */
SA_API void sa__fast_init(sa_switch *a);

/**
 * Set up an allocator from a description.
 *
 * :param a: the allocator (fully initialised on success).
 * :param desc: the description (see sa_switch_desc for its defaults).
 * :param memory: at least sa_switch_memory_size(desc) bytes, aligned to 8
 *                bytes (malloc's memory is), which the allocator uses until
 *                it is initialised again or the memory is freed.
 * :param memory_size: the size of memory in bytes.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_SIZE_RANGE for sizes outside
 *           1..SA_SWITCH_MAX (0 included), read-port pairs above 64 x 64,
 *           or MCM with read-port pairs and more than 8 outputs;
 *           SA_ERR_PARAM_RANGE for an unknown kind or option, iterations
 *           below -1, network inputs or unconnected cells beyond the sizes,
 *           read_port_pairs with an odd number of inputs, or the Rotary Rule
 *           on an algorithm that does not define it; SA_ERR_MEMORY if
 *           memory is too small or misaligned.  On error a and memory are
 *           not changed.
 * :paper: seed 002 Sections 3.1-3.4.
 */
SA_API sa_result sa_switch_init(sa_switch *a, const sa_switch_desc *desc, void *memory, size_t memory_size) {
    sa_switch_desc d;
    sa__switch_layout l;
    int i, w, n, m, rw;
    sa_result r = sa__switch_defaults(desc, &d);
    if (a == NULL || memory == NULL) return SA_ERR_NULL;
    if (r != SA_OK) return r;
    sa__switch_layout_of(&d, &l);
    if (memory_size < l.end || ((uintptr_t)memory & 7u) != 0) return SA_ERR_MEMORY;
    n = d.num_inputs;
    m = d.num_outputs;
    rw = SA_WORDS(m);
    a->kind = d.kind;
    a->num_inputs = n;
    a->num_outputs = m;
    a->row_words = rw;
    a->iterations = d.iterations;
    a->rotary = d.rotary;
    a->read_port_pairs = d.read_port_pairs;
    a->wavefront = d.wavefront;
    a->pointer_rule = d.pointer_rule;
    a->idle = d.idle;
    memcpy(a->network_inputs, d.network_inputs, sizeof a->network_inputs);
    sa_rng_seed(&a->rng, d.seed);
    a->start_row = a->start_col = 0;
    /* WFA-rotary: the wave fronts start at a network input's row. */
    if (a->rotary && a->kind == SA_SWITCH_WFA && sa__next(a->network_inputs, n, 0) >= 0)
        a->start_row = sa__next(a->network_inputs, n, 0);
    a->memory_size = l.end;
    memset(memory, 0, l.end);
    sa__switch_attach(a, &l, memory);
    for (i = 0; i < n; i++)
        for (w = 0; w < rw; w++)
            a->connect[(size_t)i * (size_t)rw + (size_t)w] = (w == rw - 1 ? sa__low_mask(m - 64 * w) : ~(uint64_t)0) &
                ~(d.no_connect ? d.no_connect[(size_t)i * (size_t)rw + (size_t)w] : 0);
    if (a->in_rank != NULL) {
        for (i = 0; i < n; i++) {
            sa_matrix_arb arb = sa__in_arb(a, i);
            sa_matrix_arb_init(&arb, m, arb.rank);
        }
        for (i = 0; i < m; i++) {
            sa_matrix_arb arb = sa__out_arb(a, i);
            sa_matrix_arb_init(&arb, n, arb.rank);
        }
    }
    a->fast_holds_state = 0;
    sa__fast_init(a);
    return SA_OK;
}

/**
 * Copy an allocator and its memory: the copy makes the same decisions from
 * here on and is independent of the original (a checkpoint, or one
 * allocator per router started from a template).
 *
 * :param dst: receives the copy.
 * :param dst_memory: at least src->memory_size bytes, aligned to 8.
 * :param dst_memory_size: its size in bytes.
 * :param src: an initialised allocator.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_MEMORY if dst_memory is too small
 *           or misaligned.
 */
SA_API sa_result sa_switch_copy(sa_switch *dst, void *dst_memory, size_t dst_memory_size, const sa_switch *src) {
    sa_switch_desc d;
    sa__switch_layout l;
    if (dst == NULL || dst_memory == NULL || src == NULL) return SA_ERR_NULL;
    if (dst_memory_size < src->memory_size || ((uintptr_t)dst_memory & 7u) != 0) return SA_ERR_MEMORY;
    memset(&d, 0, sizeof d);
    d.kind = src->kind;
    d.num_inputs = src->num_inputs;
    d.num_outputs = src->num_outputs;
    sa__switch_layout_of(&d, &l);
    memmove(dst_memory, src->connect, src->memory_size);
    *dst = *src;
    sa__switch_attach(dst, &l, dst_memory);
    return SA_OK;
}

/**
 * Check an allocator's state: every field within what sa_switch_init and
 * sa_switch_allocate produce (a stray write into the struct or its memory
 * is reported here instead of read past an array later).
 *
 * :param a: an initialised allocator.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_STATE if a field is out of range:
 *           the kind, sizes, iterations, flags or options; network inputs
 *           or connections beyond the sizes; the array pointers or the
 *           memory size not those of its kind and sizes; the start cell, a
 *           round-robin pointer or a matrix arbiter's ranks (while the
 *           allocator holds them) out of range.
 */
SA_API sa_result sa_switch_check(const sa_switch *a) {
    sa_switch_desc d;
    sa__switch_layout l;
    int i, n, m, s;
    if (a == NULL) return SA_ERR_NULL;
    n = a->num_inputs;
    m = a->num_outputs;
    memset(&d, 0, sizeof d);
    d.kind = a->kind;
    d.num_inputs = n;
    d.num_outputs = m;
    d.iterations = a->iterations;
    d.wavefront = a->wavefront;
    d.pointer_rule = a->pointer_rule;
    d.idle = a->idle;
    memcpy(d.network_inputs, a->network_inputs, sizeof d.network_inputs);
    if (sa__switch_defaults(&d, &d) != SA_OK || a->iterations == 0 || (a->rotary & ~1) ||
        (a->fast_holds_state & ~1) || (a->fast_holds_state && a->fast == NULL) ||
        (a->read_port_pairs & ~1) || a->row_words != SA_WORDS(m) || a->connect == NULL)
        return SA_ERR_STATE;
    sa__switch_layout_of(&d, &l);
    s = n > m ? n : m;
    if (a->memory_size != l.end || (a->in_rank != NULL) != (l.out_rank > l.in_rank) ||
        (a->in_ptr != NULL) != (l.out_ptr > l.in_ptr) || (a->fast != NULL) != (l.in_rank > l.fast) ||
        a->start_row < 0 || a->start_row >= n || a->start_col < 0 ||
        a->start_col >= (a->kind == SA_SWITCH_WFA_WRAPPED ? s : m))
        return SA_ERR_STATE;
    for (i = 0; i < n; i++) {
        sa_matrix_arb arb;
        if (sa__next(a->connect + (size_t)i * (size_t)a->row_words, 64 * a->row_words, m) >= 0) return SA_ERR_STATE;
        if (a->in_ptr != NULL && a->in_ptr[i] >= m) return SA_ERR_STATE;
        if (a->in_rank == NULL || a->fast_holds_state) continue;
        arb = sa__in_arb(a, i);
        if (sa_matrix_arb_check(&arb) != SA_OK) return SA_ERR_STATE;
    }
    for (i = 0; i < m; i++) {
        sa_matrix_arb arb;
        if (a->out_ptr != NULL && a->out_ptr[i] >= n) return SA_ERR_STATE;
        if (a->out_rank == NULL || a->fast_holds_state) continue;
        arb = sa__out_arb(a, i);
        if (sa_matrix_arb_check(&arb) != SA_OK) return SA_ERR_STATE;
    }
    return SA_OK;
}

/**
 * Check a request set against an allocator's sizes (the error-returning
 * form of sa_switch_allocate's precondition).
 *
 * :param a: the allocator.
 * :param req: num_inputs request rows.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_REQUEST_RANGE if a row has a bit
 *           at or above num_outputs.
 */
SA_API sa_result sa_switch_check_requests(const sa_switch *a, const uint64_t *req) {
    int i;
    if (a == NULL || req == NULL) return SA_ERR_NULL;
    for (i = 0; i < a->num_inputs; i++)
        if (sa__next(req + (size_t)i * (size_t)a->row_words, 64 * a->row_words, a->num_outputs) >= 0)
            return SA_ERR_REQUEST_RANGE;
    return SA_OK;
}

/**
 * Human-readable name of an allocation algorithm ("SPAA", "WFA", ...): the
 * kind alone (sa_switch_desc_name adds the options, and says PIM1 for
 * one iteration of PIM).
 *
 * :param kind: the algorithm.
 * :returns: a static string; "unknown" for an invalid kind.
 */
SA_API const char *sa_switch_kind_name(sa_switch_kind kind) {
    static const char *names[SA_SWITCH_KIND_COUNT] = {
        "SPAA", "WFA", "WFA-wrapped", "PIM", "iSLIP", "OPF", "separable-input-first",
        "separable-output-first", "MCM" };
    return ((int)kind >= 0 && kind < SA_SWITCH_KIND_COUNT) ? names[kind] : "unknown";
}

/* The options of an allocator name (sa_switch_desc_name,
 * sa_switch_desc_parse), each with the kinds that take it. */
enum { SA__OPT_ITERATIONS, SA__OPT_CONVERGE, SA__OPT_ROTARY, SA__OPT_ANTIDIAGONAL, SA__OPT_DIAGONAL,
       SA__OPT_ON_MATCH, SA__OPT_RRM, SA__OPT_IDLE_HOLD, SA__OPT_IDLE_ADVANCE, SA__OPT_SEED, SA__OPT_COUNT };
SA_API const char *sa__option_name(int o) {
    static const char *names[SA__OPT_COUNT] = { "iterations", "converge", "rotary", "antidiagonal", "diagonal",
                                               "on-match", "rrm", "idle-hold", "idle-advance", "seed" };
    return names[o];
}
SA_API int sa__option_takes(int o, sa_switch_kind k) {
    int pim = k == SA_SWITCH_PIM, wave = k == SA_SWITCH_WFA || k == SA_SWITCH_WFA_WRAPPED;
    switch (o) {
    case SA__OPT_ITERATIONS:
    case SA__OPT_CONVERGE: return pim || k == SA_SWITCH_ISLIP;
    case SA__OPT_ROTARY: return pim || wave || k == SA_SWITCH_SPAA;
    case SA__OPT_ANTIDIAGONAL:
    case SA__OPT_DIAGONAL: return k == SA_SWITCH_WFA_WRAPPED;
    case SA__OPT_ON_MATCH:
    case SA__OPT_RRM: return k == SA_SWITCH_SEP_OUTPUT;
    case SA__OPT_IDLE_HOLD:
    case SA__OPT_IDLE_ADVANCE: return wave;
    default: return pim; /* seed */
    }
}

/* Text building for sa_switch_desc_name: append s (or the decimal digits
 * of v) at position *at of text, keeping a NUL within size. */
SA_API void sa__put(char *text, size_t size, size_t *at, const char *s) {
    for (; *s; s++, (*at)++)
        if (*at + 1 < size) text[*at] = *s;
    if (size > 0) text[*at < size ? *at : size - 1] = '\0';
}
SA_API void sa__put_number(char *text, size_t size, size_t *at, uint64_t v) {
    char digits[21];
    int k = 20;
    digits[k] = '\0';
    do digits[--k] = (char)('0' + (int)(v % 10u)); while ((v /= 10u) != 0);
    sa__put(text, size, at, digits + k);
}

/**
 * Write the name of an allocator description: its kind, then in
 * parentheses, comma-separated, the options that differ from the defaults
 * (sa__switch_defaults): "PIM1", "PIM(iterations=2,seed=7)", "PIM(converge)",
 * "iSLIP(iterations=4)", "WFA-wrapped(antidiagonal,idle-hold)",
 * "separable-output-first(on-match)", "SPAA(rotary)".  One iteration of PIM
 * is named PIM1.  sa_switch_desc_parse reads the name back; the sizes,
 * connections, network inputs and read-port pairs are not part of it.
 *
 * :param desc: the description.
 * :param text: receives the name, NUL-terminated (cut to size - 1
 *              characters when it is longer); may be NULL when size is 0.
 * :param size: bytes at text.
 * :returns: the length of the whole name (text holds all of it when this
 *           is below size), or 0 if desc is NULL or its kind is unknown.
 * :paper: seed 002 Sections 3.1-3.4 (the kinds and the Rotary Rule).
 */
SA_API size_t sa_switch_desc_name(const sa_switch_desc *desc, char *text, size_t size) {
    size_t at = 0;
    int o, first = 1;
    if (desc == NULL || (int)desc->kind < 0 || desc->kind >= SA_SWITCH_KIND_COUNT) return 0;
    if (size > 0) text[0] = '\0';
    if (desc->kind == SA_SWITCH_PIM && (desc->iterations == 0 || desc->iterations == 1)) sa__put(text, size, &at, "PIM1");
    else sa__put(text, size, &at, sa_switch_kind_name(desc->kind));
    for (o = 0; o < SA__OPT_COUNT; o++) {
        int on = 0;
        switch (o) {
        case SA__OPT_ITERATIONS: on = desc->iterations > 1 && desc->kind != SA_SWITCH_PIM; break;
        case SA__OPT_CONVERGE: on = desc->iterations == SA_ITERATE_TO_CONVERGENCE; break;
        case SA__OPT_ROTARY: on = desc->rotary != 0; break;
        case SA__OPT_ANTIDIAGONAL: on = desc->wavefront == SA_WAVEFRONT_ANTIDIAGONAL; break;
        case SA__OPT_ON_MATCH: on = desc->pointer_rule == SA_POINTER_ON_MATCH; break;
        case SA__OPT_IDLE_HOLD: on = desc->idle == SA_IDLE_HOLD; break;
        case SA__OPT_SEED: on = desc->seed != 0; break;
        default: break;
        }
        if (desc->kind == SA_SWITCH_PIM && o == SA__OPT_ITERATIONS) on = desc->iterations > 1;
        if (!on || !sa__option_takes(o, desc->kind)) continue;
        sa__put(text, size, &at, first ? "(" : ",");
        sa__put(text, size, &at, sa__option_name(o));
        if (o == SA__OPT_ITERATIONS || o == SA__OPT_SEED) {
            sa__put(text, size, &at, "=");
            sa__put_number(text, size, &at, o == SA__OPT_SEED ? desc->seed : (uint64_t)desc->iterations);
        }
        first = 0;
    }
    if (!first) sa__put(text, size, &at, ")");
    return at;
}

/* Whether text[0..len) is the word w, ignoring case. */
SA_API int sa__word_is(const char *text, size_t len, const char *w) {
    size_t k;
    for (k = 0; k < len && w[k]; k++) {
        char a = text[k], b = w[k];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
        if (a != b) return 0;
    }
    return k == len && w[k] == '\0';
}

/* A decimal number text[0..len) (1 to 20 digits, at most max), or -1. */
SA_API int sa__number_is(const char *text, size_t len, uint64_t max, uint64_t *v) {
    size_t k;
    *v = 0;
    if (len == 0 || len > 20) return 0;
    for (k = 0; k < len; k++) {
        unsigned d = (unsigned)(text[k] - '0');
        if (d > 9 || *v > (max - d) / 10u) return 0;
        *v = *v * 10u + d;
    }
    return 1;
}

/**
 * Read an allocator's kind and options from a name, the inverse of
 * sa_switch_desc_name, so that a simulator can pass its configuration
 * string through: ``KIND`` or ``KIND(OPTION,OPTION,...)``, kinds and
 * options in any case, spaces around them ignored.  KIND is a name of
 * sa_switch_kind_name or PIM1 (PIM, one iteration); OPTION is one of
 * ``iterations=N`` (PIM, iSLIP; N >= 1), ``converge`` (PIM, iSLIP),
 * ``rotary`` (SPAA, WFA, WFA-wrapped, PIM), ``antidiagonal`` or
 * ``diagonal`` (WFA-wrapped), ``on-match`` or ``rrm``
 * (separable-output-first), ``idle-hold`` or ``idle-advance`` (WFA,
 * WFA-wrapped), ``seed=N`` (PIM; 0..2^64-1).  The kind and the options
 * named set desc's fields (kind, iterations, rotary, wavefront,
 * pointer_rule, idle, seed), the others return to their defaults; the
 * sizes, connections, network inputs and read-port pairs are left as they
 * were.
 *
 * :param desc: the description to set (unchanged on error).
 * :param text: the name, NUL-terminated.
 * :returns: SA_OK, SA_ERR_NULL, or SA_ERR_PARAM_RANGE for an unknown kind
 *           or option, an option the kind does not take, a bad number, or
 *           text that does not follow the form.
 * :paper: seed 002 Sections 3.1-3.4.
 */
SA_API sa_result sa_switch_desc_parse(sa_switch_desc *desc, const char *text) {
    sa_switch_desc d;
    const char *p, *end;
    size_t len;
    int k;
    if (desc == NULL || text == NULL) return SA_ERR_NULL;
    d = *desc;
    d.iterations = 1;
    d.rotary = 0;
    d.wavefront = SA_WAVEFRONT_DIAGONAL;
    d.pointer_rule = SA_POINTER_RRM;
    d.idle = SA_IDLE_ADVANCE;
    d.seed = 0;
    for (p = text; *p == ' '; p++) {}
    for (end = p; *end && *end != '(' && *end != ' '; end++) {}
    len = (size_t)(end - p);
    for (k = 0; k < SA_SWITCH_KIND_COUNT && !sa__word_is(p, len, sa_switch_kind_name((sa_switch_kind)k)); k++) {}
    if (k == SA_SWITCH_KIND_COUNT && !sa__word_is(p, len, "PIM1")) return SA_ERR_PARAM_RANGE;
    d.kind = k == SA_SWITCH_KIND_COUNT ? SA_SWITCH_PIM : (sa_switch_kind)k;
    for (p = end; *p == ' '; p++) {}
    if (*p == '(') {
        do {
            const char *eq;
            uint64_t v = 0;
            int o;
            for (p++; *p == ' '; p++) {}
            for (end = p; *end && *end != ',' && *end != ')'; end++) {}
            for (len = (size_t)(end - p); len > 0 && p[len - 1] == ' '; len--) {}
            for (eq = p; eq < p + len && *eq != '='; eq++) {}
            for (o = 0; o < SA__OPT_COUNT && !sa__word_is(p, (size_t)(eq - p), sa__option_name(o)); o++) {}
            if (o == SA__OPT_COUNT || !sa__option_takes(o, d.kind) ||
                ((o == SA__OPT_ITERATIONS || o == SA__OPT_SEED) !=
                 (eq < p + len && sa__number_is(eq + 1, (size_t)(p + len - eq - 1),
                                                o == SA__OPT_SEED ? ~(uint64_t)0 : 0x7FFFFFFF, &v))) ||
                (o == SA__OPT_ITERATIONS && v < 1) || (o != SA__OPT_ITERATIONS && o != SA__OPT_SEED && eq < p + len))
                return SA_ERR_PARAM_RANGE;
            switch (o) {
            case SA__OPT_ITERATIONS: d.iterations = (int)v; break;
            case SA__OPT_CONVERGE: d.iterations = SA_ITERATE_TO_CONVERGENCE; break;
            case SA__OPT_ROTARY: d.rotary = 1; break;
            case SA__OPT_ANTIDIAGONAL: d.wavefront = SA_WAVEFRONT_ANTIDIAGONAL; break;
            case SA__OPT_DIAGONAL: d.wavefront = SA_WAVEFRONT_DIAGONAL; break;
            case SA__OPT_ON_MATCH: d.pointer_rule = SA_POINTER_ON_MATCH; break;
            case SA__OPT_RRM: d.pointer_rule = SA_POINTER_RRM; break;
            case SA__OPT_IDLE_HOLD: d.idle = SA_IDLE_HOLD; break;
            case SA__OPT_IDLE_ADVANCE: d.idle = SA_IDLE_ADVANCE; break;
            default: d.seed = v; break;
            }
            p = end;
        } while (*p == ',');
        if (*p != ')') return SA_ERR_PARAM_RANGE;
        for (p++; *p == ' '; p++) {}
    }
    if (*p != '\0' || (k == SA_SWITCH_KIND_COUNT && d.iterations != 1)) return SA_ERR_PARAM_RANGE; /* (PIM1 names one) */
    *desc = d;
    return SA_OK;
}

/* An allocator's sizes as the functions below read them: 1..SA_SWITCH_MAX
 * (sa_switch_init guarantees it; the bound lets an optimising compiler see
 * that their arrays of SA_SWITCH_MAX suffice). */
SA_API int sa__bounded(int size) { return size < 1 ? 1 : size < SA_SWITCH_MAX ? size : SA_SWITCH_MAX; }
SA_API int sa__n(const sa_switch *a) { return sa__bounded(a->num_inputs); }
SA_API int sa__m(const sa_switch *a) { return sa__bounded(a->num_outputs); }

/* An empty matching over the allocator's sizes. */
SA_API void sa__match_clear(const sa_switch *a, sa_match *mt) {
    int i;
    for (i = 0; i < sa__n(a); i++) mt->output_of[i] = -1;
    for (i = 0; i < sa__m(a); i++) mt->input_of[i] = -1;
    sa__clear_set(mt->inputs, sa__n(a));
    sa__clear_set(mt->outputs, sa__m(a));
    mt->size = 0;
}

/* Add the pair (i, j) to a matching. */
SA_API void sa__match_add(sa_match *mt, int i, int j) {
    mt->output_of[i] = (int16_t)j;
    mt->input_of[j] = (int16_t)i;
    sa__add(mt->inputs, i);
    sa__add(mt->outputs, j);
    mt->size++;
}

/* Row i of the requests (or of another n x m set of rows). */
SA_API const uint64_t *sa__row(const sa_switch *a, const uint64_t *rows, int i) {
    return rows + (size_t)i * (size_t)a->row_words;
}

/* r receives input i's requests on connected cells (requests on
 * unconnected cells, and bits at or above num_outputs, are ignored). */
SA_API void sa__requests(const sa_switch *a, const uint64_t *req, int i, uint64_t *r) {
    const uint64_t *q = sa__row(a, req, i), *c = sa__row(a, a->connect, i);
    int w;
    for (w = 0; w < a->row_words; w++) r[w] = q[w] & c[w];
}

/* The priorities of input i's cells, or NULL. */
SA_API const int32_t *sa__prio_row(const sa_switch *a, const int32_t *prio, int i) {
    return prio != NULL ? prio + (size_t)i * (size_t)sa__m(a) : NULL;
}

/* Outputs input i may no longer take because its twin read port (input
 * i ^ 1) holds output k: they would need the same packet.  0 without
 * read-port views (bufs NULL) or when k < 0.  (Pairing has at most 64
 * outputs: one word.) */
SA_API uint64_t sa__twin_clash(const sa_read_buffer *bufs, int i, int k) {
    return (bufs == NULL || k < 0) ? 0 : sa_read_buffer_clash(&bufs[i >> 1], k);
}

/* The same for the twin's current match. */
SA_API uint64_t sa__twin_blocks(const sa_read_buffer *bufs, const sa_match *mt, int i) {
    return bufs == NULL ? 0 : sa__twin_clash(bufs, i, mt->output_of[i ^ 1]);
}

/* r receives the outputs input i may take now: its requests, less the
 * outputs already matched and those its twin's match blocks. */
SA_API void sa__free_requests(const sa_switch *a, const uint64_t *req, const sa_read_buffer *bufs,
                              const sa_match *mt, int i, uint64_t *r) {
    int w;
    sa__requests(a, req, i, r);
    for (w = 0; w < a->row_words; w++) r[w] &= ~mt->outputs[w];
    r[0] &= ~sa__twin_blocks(bufs, mt, i);
}

/* Step 1 of PIM and iSLIP, Request, as output j sees it: the unmatched
 * inputs that request it and may take it (their twin's match does not
 * block it); r receives them.  (Nothing if j is matched.) */
SA_API void sa__requesters(const sa_switch *a, const uint64_t *req, const sa_read_buffer *bufs,
                           const sa_match *mt, int j, uint64_t *r) {
    int i;
    sa__clear_set(r, sa__n(a));
    if (sa__has(mt->outputs, j)) return;
    for (i = 0; i < sa__n(a); i++)
        if (!sa__has(mt->inputs, i) && sa__has(sa__row(a, req, i), j) && sa__has(sa__row(a, a->connect, i), j) &&
            !((sa__twin_blocks(bufs, mt, i) >> (j & 63)) & (uint64_t)(j < 64)))
            sa__add(r, i);
}

/* The Rotary Rule on a set of inputs: only its network inputs if it has
 * any (cross traffic first). */
SA_API void sa__rotary(const sa_switch *a, uint64_t *inputs) {
    int w, wn = SA_WORDS(sa__n(a)), any = 0;
    if (!a->rotary) return;
    for (w = 0; w < wn; w++) any |= (inputs[w] & a->network_inputs[w]) != 0;
    if (any)
        for (w = 0; w < wn; w++) inputs[w] &= a->network_inputs[w];
}

/* Keep the members of a set of inputs whose cell (i, j) has the highest
 * priority (a column of the priorities). */
SA_API void sa__keep_top_column(const sa_switch *a, uint64_t *inputs, const int32_t *prio, int j) {
    int32_t top = INT32_MIN;
    int i, n = sa__n(a), m = sa__m(a);
    if (prio == NULL) return;
    for (i = sa__next(inputs, n, 0); i >= 0; i = sa__next(inputs, n, i + 1))
        if (prio[(size_t)i * (size_t)m + (size_t)j] > top) top = prio[(size_t)i * (size_t)m + (size_t)j];
    for (i = sa__next(inputs, n, 0); i >= 0; i = sa__next(inputs, n, i + 1))
        if (prio[(size_t)i * (size_t)m + (size_t)j] != top) inputs[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* >>requests ===========================================================
 * Request sets built as a simulator builds them
 *
 * A simulator learns its requests one (input, output) pair at a time, from
 * its buffers.  sa_requests keeps them in memory the caller provides, as
 * bits in one of two forms:
 * - rows: the request rows that sa_switch_allocate reads; an add sets the
 *   cell's bit in its row (consecutive adds of one input to one row word
 *   wait for each other);
 * - columns: the request set transposed, which the word-general PIM kernel
 *   reads; an add sets the cell's bit in its output's column (consecutive
 *   adds of one input touch different words), and sa_requests_rows builds
 *   the rows from the columns when they are asked for.
 * A set starts in rows; a clear switches it to columns once
 * sa_switch_allocate_requests has found that its allocator reads columns,
 * and back when an allocator reads rows.  Both forms give the same rows
 * and decisions.  A clear zeroes the form's words (num_inputs x
 * SA_WORDS(num_outputs) of rows, or num_outputs x SA_WORDS(num_inputs) of
 * columns: a 64th of the matrix).  While every priority added since the
 * last clear is the same, an add writes no priority; the first that
 * differs writes the common value into the cells requested before it, and
 * from then on each add writes its cell's priority (the larger, for a cell
 * added again).
 * ====================================================================== */

/** A request set being built (see >>requests).  Read
 *  ``num_inputs``/``num_outputs``; the rows come from sa_requests_rows;
 *  the other fields are the builder's own. */
typedef struct sa_requests {
    int num_inputs;       /**< rows */
    int num_outputs;      /**< columns */
    int row_words;        /**< SA_WORDS(num_outputs) */
    int col_words;        /**< SA_WORDS(num_inputs) */
    uint64_t *row_bits;   /**< the request rows (in the columns form, as
                               last built by sa_requests_rows) */
    uint64_t *cols;       /**< the columns form: word j * col_words + w
                               holds the inputs 64 w.. requesting output j */
    uint64_t *bits;       /**< where an add sets its bit: row_bits or cols */
    int bits_stride;      /**< words of one row or column */
    int by_output;        /**< 1 in the columns form */
    int rows_built;       /**< columns form: row_bits holds rows (a clear
                               zeroes them) */
    int want_columns;     /**< the form the next clear switches to */
    int32_t *prio;        /**< each cell's priority (valid where requested
                               once two priorities differ) */
    long long same;       /**< the one priority added since the last clear;
                               SA__REQUESTS_NONE before the first add,
                               SA__REQUESTS_MIXED once two differ */
} sa_requests;

/* A function kept out of its callers' loops (the request builder's rare
 * path), so that the common path stays small. */
#if defined(__GNUC__) || defined(__clang__)
#define SA__COLD __attribute__((cold))
#else
#define SA__COLD
#endif

/* A kernel's body that its callers specialise by constant arguments:
 * always inlined, and static whatever SA_API says (only the header calls
 * it). */
#if defined(__GNUC__) || defined(__clang__)
#define SA__BODY static inline __attribute__((always_inline))
#else
#define SA__BODY static inline
#endif

/* Values of sa_requests.same that no int32_t priority has. */
#define SA__REQUESTS_NONE ((long long)1 << 40)
#define SA__REQUESTS_MIXED (-((long long)1 << 40))

/* Bytes of sa_requests_init's memory before the columns (the rows) and
 * before the priorities (the rows and the columns). */
SA_API size_t sa__requests_rows_bytes(int n, int m) { return (size_t)n * (size_t)SA_WORDS(m) * sizeof(uint64_t); }
SA_API size_t sa__requests_prio_at(int n, int m) {
    return sa__requests_rows_bytes(n, m) + (size_t)m * (size_t)SA_WORDS(n) * sizeof(uint64_t);
}

/* Set the form (1: columns, 0: rows) of an empty set. */
SA_API void sa__requests_form(sa_requests *r, int columns) {
    r->by_output = columns;
    r->bits = columns ? r->cols : r->row_bits;
    r->bits_stride = columns ? r->col_words : r->row_words;
}

/**
 * Bytes of memory a request set of these sizes needs.
 *
 * :param num_inputs: rows, 1..SA_SWITCH_MAX.
 * :param num_outputs: columns, 1..SA_SWITCH_MAX.
 * :returns: the size in bytes, or 0 for sizes out of range.
 */
SA_API size_t sa_requests_memory_size(int num_inputs, int num_outputs) {
    if (num_inputs < 1 || num_inputs > SA_SWITCH_MAX || num_outputs < 1 || num_outputs > SA_SWITCH_MAX) return 0;
    return sa__requests_prio_at(num_inputs, num_outputs) + (size_t)num_inputs * (size_t)num_outputs * sizeof(int32_t);
}

/**
 * Set up an empty request set.
 *
 * :param r: the request set.
 * :param num_inputs: rows, 1..SA_SWITCH_MAX (the allocator's num_inputs).
 * :param num_outputs: columns, 1..SA_SWITCH_MAX (its num_outputs).
 * :param memory: at least sa_requests_memory_size bytes, aligned to 8.
 * :param memory_size: its size in bytes.
 * :returns: SA_OK, SA_ERR_NULL, SA_ERR_SIZE_RANGE, or SA_ERR_MEMORY.
 */
SA_API sa_result sa_requests_init(sa_requests *r, int num_inputs, int num_outputs, void *memory,
                                  size_t memory_size) {
    size_t need = sa_requests_memory_size(num_inputs, num_outputs);
    unsigned char *base = (unsigned char *)memory;
    if (r == NULL || memory == NULL) return SA_ERR_NULL;
    if (need == 0) return SA_ERR_SIZE_RANGE;
    if (memory_size < need || ((uintptr_t)memory & 7u) != 0) return SA_ERR_MEMORY;
    memset(memory, 0, need);
    memset(r, 0, sizeof *r);
    r->num_inputs = num_inputs;
    r->num_outputs = num_outputs;
    r->row_words = SA_WORDS(num_outputs);
    r->col_words = SA_WORDS(num_inputs);
    r->row_bits = (uint64_t *)memory;
    r->cols = (uint64_t *)(void *)(base + sa__requests_rows_bytes(num_inputs, num_outputs));
    r->prio = (int32_t *)(void *)(base + sa__requests_prio_at(num_inputs, num_outputs));
    r->same = SA__REQUESTS_NONE;
    sa__requests_form(r, 0);
    return SA_OK;
}

/**
 * Remove every request: the form's words zeroed (see >>requests), a 64th
 * of the request matrix, and no priority.
 *
 * :param r: the request set.
 */
SA_API void sa_requests_clear(sa_requests *r) {
    size_t rows = (size_t)r->num_inputs * (size_t)r->row_words * sizeof(uint64_t);
    if (r->by_output) {
        memset(r->cols, 0, (size_t)r->num_outputs * (size_t)r->col_words * sizeof(uint64_t));
        if (r->rows_built) memset(r->row_bits, 0, rows);
        r->rows_built = 0;
    } else {
        memset(r->row_bits, 0, rows);
    }
    r->same = SA__REQUESTS_NONE;
    if (r->want_columns != r->by_output) sa__requests_form(r, r->want_columns);
}

/* The word and bit of cell (i, j) in the request set's form. */
SA_API uint64_t *sa__requests_cell(const sa_requests *r, int i, int j, uint64_t *bit) {
    int a = r->by_output ? j : i, b = i + j - a;
    *bit = (uint64_t)1 << (b & 63);
    return r->bits + (size_t)a * (size_t)r->bits_stride + (size_t)(b >> 6);
}

/* The first priority added since the clear, or the first that differs:
 * the common value is written into the cells requested before it. */
SA__COLD SA_API void sa__requests_add_slow(sa_requests *r, int input, int output, int32_t priority) {
    int32_t *p = r->prio + (size_t)input * (size_t)r->num_outputs + (size_t)output;
    uint64_t bit, *word = sa__requests_cell(r, input, output, &bit);
    int was_set = (*word & bit) != 0, a, w, lines = r->by_output ? r->num_outputs : r->num_inputs;
    *word |= bit;
    if (r->same == SA__REQUESTS_NONE) {
        r->same = priority;
        return;
    }
    for (a = 0; a < lines; a++)
        for (w = 0; w < r->bits_stride; w++) {
            uint64_t x;
            for (x = r->bits[(size_t)a * (size_t)r->bits_stride + (size_t)w]; x; x &= x - 1) {
                size_t b = (size_t)(64 * w + sa__ctz64(x));
                r->prio[r->by_output ? b * (size_t)r->num_outputs + (size_t)a : (size_t)a * (size_t)r->num_outputs + b] =
                    (int32_t)r->same;
            }
        }
    r->same = SA__REQUESTS_MIXED;
    if (!was_set || *p < priority) *p = priority;
}

/**
 * Add a request: input ``input`` has a packet for output ``output`` with
 * priority ``priority`` (larger goes first; use one value throughout when
 * priorities do not matter).  Adding a cell again keeps the larger
 * priority.  While every priority added since the last clear is the same,
 * an add sets one bit and does nothing else; once they differ it also
 * writes the cell's priority.
 *
 * :param r: the request set.
 * :param input: 0..num_inputs-1.
 * :param output: 0..num_outputs-1.
 * :param priority: any int32_t.
 */
SA_API void sa_requests_add(sa_requests *r, int input, int output, int32_t priority) {
    SA_ASSERT(input >= 0 && input < r->num_inputs && output >= 0 && output < r->num_outputs);
    if ((long long)priority == r->same) {
        if (r->by_output)
            r->cols[(size_t)output * (size_t)r->col_words + (size_t)(input >> 6)] |= (uint64_t)1 << (input & 63);
        else
            r->row_bits[(size_t)input * (size_t)r->row_words + (size_t)(output >> 6)] |= (uint64_t)1 << (output & 63);
    } else if (r->same == SA__REQUESTS_MIXED) { /* (keep the larger priority of a cell added again) */
        int32_t *p = r->prio + (size_t)input * (size_t)r->num_outputs + (size_t)output;
        uint64_t bit, *word = sa__requests_cell(r, input, output, &bit);
        if ((*word & bit) == 0 || *p < priority) *p = priority;
        *word |= bit;
    } else {
        sa__requests_add_slow(r, input, output, priority);
    }
}

/**
 * Remove a request (nothing happens if it was not there).  The priorities
 * seen since the last clear still count for sa_requests_priorities, which
 * may then return the array although the cells left are all equal: the
 * decisions are the same, only the equal-priority fast path is lost.
 *
 * :param r: the request set.
 * :param input: 0..num_inputs-1.
 * :param output: 0..num_outputs-1.
 */
SA_API void sa_requests_remove(sa_requests *r, int input, int output) {
    uint64_t bit, *word;
    SA_ASSERT(input >= 0 && input < r->num_inputs && output >= 0 && output < r->num_outputs);
    word = sa__requests_cell(r, input, output, &bit);
    *word &= ~bit;
}

/**
 * The request rows to pass to sa_switch_allocate: num_inputs rows of
 * SA_WORDS(num_outputs) words holding every request added since the last
 * clear and not removed.  In the columns form (see >>requests) they are
 * built on this call; they stay valid until the next add, remove or clear.
 *
 * :param r: the request set.
 * :returns: the rows (in r's memory).
 */
SA_API const uint64_t *sa_requests_rows(sa_requests *r) {
    int i, j, w;
    if (!r->by_output) return r->row_bits;
    memset(r->row_bits, 0, (size_t)r->num_inputs * (size_t)r->row_words * sizeof(uint64_t));
    for (j = 0; j < r->num_outputs; j++)
        for (w = 0; w < r->col_words; w++) {
            uint64_t x;
            for (x = r->cols[(size_t)j * (size_t)r->col_words + (size_t)w]; x; x &= x - 1) {
                i = 64 * w + sa__ctz64(x);
                r->row_bits[(size_t)i * (size_t)r->row_words + (size_t)(j >> 6)] |= (uint64_t)1 << (j & 63);
            }
        }
    r->rows_built = 1;
    return r->row_bits;
}

/**
 * The priorities to pass to sa_switch_allocate: NULL while every priority
 * added since the last clear was the same (the allocators then take their
 * fast paths), the cells' priorities otherwise.
 *
 * :param r: the request set.
 * :returns: NULL or r->prio.
 */
SA_API const int32_t *sa_requests_priorities(const sa_requests *r) {
    return r->same == SA__REQUESTS_MIXED ? r->prio : NULL;
}

/* >>spaa ===============================================================
 * SPAA, the Simple Pipelined Arbitration Algorithm (seed 002 Section 3.3)
 *
 *   1. Nominate: each input port arbiter nominates a packet for only one
 *      output port arbiter, if there is one.
 *   2. Grant: an output port arbiter with several requests selects the
 *      packet from the least-recently selected input port arbiter.
 *   3. Reset: the input port arbiters reset the nominated packets that were
 *      not selected, so that they can be nominated again.
 *
 * The state is two banks of matrix arbiters (>>arbiters): input arbiter i
 * orders the outputs, output arbiter j the inputs.  Two choices the paper
 * leaves open:
 * - which output an input nominates: the one of highest priority (the
 *   caller's prio, for example the age of the oldest packet for it, as the
 *   21364's input arbiters pick the oldest packet), least recently selected
 *   among equals.  The grant stays least recently selected (step 2);
 * - when an input arbiter's order moves: when its nomination is granted.
 *   (Moving it on every nomination keeps all inputs' orders in lockstep
 *   under heavy load: they all nominate the same output, then all the next.)
 * ====================================================================== */

/* Make the allocator's own arbiters hold SPAA's state if the fast kernels
 * hold it (>>fast; nothing in a build without them). */
SA_API void sa__fast_release(sa_switch *a);

/**
 * SPAA step 1, Nominate: each input arbiter nominates one output (one packet)
 * among its connected requests.
 *
 * The choice is the request with the highest priority ``prio``, least
 * recently selected among equals; with prio NULL, the least recently
 * selected output.  This function changes no state.  With read-port
 * pairing, read port 2b nominates first and its twin 2b+1 then skips the
 * outputs that would need the same packet (sa_read_buffer_clash); the paper
 * only says the pair synchronises.
 *
 * In a pipelined model, call this in the LA stage and sa_spaa_grant two
 * cycles later; a nominated packet must not be offered again (leave it out
 * of req) until the grant is known (Step 1's rule).
 *
 * :param a: an SA_SWITCH_SPAA allocator.
 * :param req: num_inputs request rows (bit j: a packet for output j).
 *             Precondition: no bit at or above num_outputs; with pairing,
 *             rows 2b and 2b+1 within bufs[b].any.
 * :param prio: NULL, or num_inputs x num_outputs priorities, row-major;
 *              larger is nominated first.
 * :param bufs: NULL, or (read-port pairing) num_inputs/2 buffer views.
 * :param nomination: receives num_inputs entries: the nominated output of
 *                    each input arbiter, or -1.
 * :returns: the number of nominations.
 * :paper: seed 002 Section 3.3 step 1; Section 3 (oldest packet from the
 *         least-recently selected virtual channel).
 */
SA_API int sa_spaa_nominate(sa_switch *a, const uint64_t *req, const int32_t *prio,
                            const sa_read_buffer *bufs, int16_t *nomination) {
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i, count = 0;
    if (!a->read_port_pairs) bufs = NULL;
    sa__fast_release(a);
    for (i = 0; i < sa__n(a); i++) {
        sa_matrix_arb arb = sa__in_arb(a, i);
        sa__requests(a, req, i, r);
        if (i & 1) r[0] &= ~sa__twin_clash(bufs, i, nomination[i - 1]); /* the twin's packet */
        nomination[i] = (int16_t)sa_matrix_select(&arb, r, sa__prio_row(a, prio, i));
        count += nomination[i] >= 0;
    }
    return count;
}

/**
 * SPAA steps 2 and 3, Grant and Reset: each output arbiter grants the
 * least-recently-selected input arbiter among those that nominated it; with
 * the Rotary Rule, network input arbiters first, least recently selected
 * within each class.  Both arbiters of a granted pair record the selection.
 * Step 3 needs no state here: nominations are given afresh each cycle, so a
 * packet that was not selected can simply be nominated again.
 *
 * :param a: an SA_SWITCH_SPAA allocator.
 * :param nomination: num_inputs entries from sa_spaa_nominate (-1: none).
 * :param match: receives the matching.
 * :returns: the number of matches.
 * :paper: seed 002 Section 3.3 steps 2-3; Section 3.4 (SPAA-rotary).
 */
SA_API int sa_spaa_grant(sa_switch *a, const int16_t *nomination, sa_match *match) {
    int16_t first[SA_SWITCH_MAX], next[SA_SWITCH_MAX];
    uint64_t nominators[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i, j;
    sa__fast_release(a);
    sa__match_clear(a, match);
    /* each output's nominators, as lists */
    for (j = 0; j < sa__m(a); j++) first[j] = -1;
    for (i = sa__n(a) - 1; i >= 0; i--) {
        SA_ASSERT(nomination[i] < sa__m(a));
        if (nomination[i] < 0) continue;
        next[i] = first[nomination[i]];
        first[nomination[i]] = (int16_t)i;
    }
    for (j = 0; j < sa__m(a); j++) {
        sa_matrix_arb out = sa__out_arb(a, j), in;
        int w;
        if (first[j] < 0) continue;
        sa__clear_set(nominators, sa__n(a));
        for (i = first[j]; i >= 0; i = next[i]) sa__add(nominators, i);
        sa__rotary(a, nominators);                     /* Rotary Rule: cross traffic first */
        w = sa_matrix_select(&out, nominators, NULL);
        in = sa__in_arb(a, w);
        sa_matrix_update(&out, w);
        sa_matrix_update(&in, j);
        sa__match_add(match, w, j);
    }
    return match->size;
}

/* One whole SPAA allocation. */
SA_API int sa__spaa(sa_switch *a, const uint64_t *req, const int32_t *prio,
                    const sa_read_buffer *bufs, sa_match *mt) {
    int16_t nomination[SA_SWITCH_MAX];
    memset(nomination, 0xFF, (size_t)sa__n(a) * sizeof nomination[0]); /* (written below; said for the compiler) */
    sa_spaa_nominate(a, req, prio, bufs, nomination);
    return sa_spaa_grant(a, nomination, mt);
}

/* >>wfa ================================================================
 * The wave-front arbiter, WFA-base and WFA-rotary (seed 002 Section 3.2)
 *
 * The matrix is evaluated as a wave front from a start cell:
 *
 *     Grant(i,j) = Request(i,j) and N(i,j) and W(i,j)
 *     S(i,j) = N(i,j) and not Grant(i,j);  E(i,j) = W(i,j) and not Grant(i,j)
 *
 * N is true unless a cell above in the column was granted, W unless a cell
 * to the left in the row was.  The signals flow only down and right (in the
 * cyclic order of rows from the start row and of columns from the start
 * column), so evaluating whole rows one after the other gives what the wave
 * fronts give: each row takes its first requested column, from the start
 * column on, that no row above has taken.
 *
 * WFA-base moves the start cell round-robin: one row per allocation and one
 * column per sweep of the rows, so every cell is the start cell once in
 * n x m allocations.  WFA-rotary (Section 3.4): the start row cycles over
 * the network rows only, and the network rows are evaluated before the
 * local ones (each class in the cyclic order from the start row).  With
 * read-port pairing, a read port skips the outputs its twin's packet (from
 * an earlier row) needs.  With priorities, a prioritised cell goes first:
 * the wave front runs once per priority level, highest first, over the
 * cells of that level, each level on the rows and columns the levels above
 * left free.
 * ====================================================================== */

/* r receives the cells of input i's row that hold priority `level` (all of
 * them with prio NULL). */
SA_API void sa__level_cells(const sa_switch *a, const int32_t *prio, int32_t level, int i, uint64_t *r) {
    const int32_t *p = sa__prio_row(a, prio, i);
    int j;
    if (p == NULL) return;
    for (j = sa__next(r, sa__m(a), 0); j >= 0; j = sa__next(r, sa__m(a), j + 1))
        if (p[j] != level) r[j >> 6] &= ~((uint64_t)1 << (j & 63));
}

/* The highest priority below `above` among the free requests (all rows);
 * returns 0 when there is none. */
SA_API int sa__next_level(const sa_switch *a, const uint64_t *req, const int32_t *prio,
                          const sa_match *mt, int32_t above, int first, int32_t *level) {
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i, j, found = 0;
    for (i = 0; i < sa__n(a); i++) {
        const int32_t *p = sa__prio_row(a, prio, i);
        if (sa__has(mt->inputs, i)) continue;
        sa__free_requests(a, req, NULL, mt, i, r);
        for (j = sa__next(r, sa__m(a), 0); j >= 0; j = sa__next(r, sa__m(a), j + 1))
            if ((first || p[j] < above) && (!found || p[j] > *level)) {
                *level = p[j];
                found = 1;
            }
    }
    return found;
}

/* The rows of `rows` in cyclic order from r, each taking its first free
 * requested column (of priority `level`) at or after c. */
SA_API void sa__wfa_rows(const sa_switch *a, const uint64_t *req, const int32_t *prio, int32_t level,
                         const sa_read_buffer *bufs, const uint64_t *rows, int r, int c, sa_match *mt) {
    uint64_t free_cols[SA_WORDS(SA_SWITCH_MAX)];
    int k, n = sa__n(a);
    for (k = 0; k < n; k++) {
        int i = (r + k) % n, j;
        if (!sa__has(rows, i) || sa__has(mt->inputs, i)) continue;
        sa__free_requests(a, req, bufs, mt, i, free_cols);
        sa__level_cells(a, prio, level, i, free_cols);
        j = sa__first_from_set(free_cols, sa__m(a), c);   /* W: the first free column from c */
        if (j >= 0) sa__match_add(mt, i, j);
    }
}

/* The rows a wave front sweeps: all inputs, and the local ones (not
 * network inputs), which the Rotary Rule sweeps after the network ones.
 * Shared by both wave fronts. */
SA_API void sa__wave_inputs(const sa_switch *a, uint64_t *all, uint64_t *local) {
    int w, n = sa__n(a);
    for (w = 0; w < SA_WORDS(n); w++) {
        all[w] = w == SA_WORDS(n) - 1 ? sa__low_mask(n - 64 * w) : ~(uint64_t)0;
        local[w] = all[w] & ~a->network_inputs[w];
    }
}

/* Whether the request set is empty (the SA_IDLE_HOLD rule). */
SA_API int sa__no_requests(const sa_switch *a, const uint64_t *req) {
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i;
    for (i = 0; i < sa__n(a); i++) {
        sa__requests(a, req, i, r);
        if (sa__next(r, sa__m(a), 0) >= 0) return 0;
    }
    return 1;
}

SA_API int sa__wfa(sa_switch *a, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                   sa_match *mt) {
    uint64_t all[SA_WORDS(SA_SWITCH_MAX)], local[SA_WORDS(SA_SWITCH_MAX)];
    int n = sa__n(a), m = sa__m(a), r = a->start_row, c = a->start_col, first;
    int rotary = a->rotary && sa__next(a->network_inputs, n, 0) >= 0;
    int32_t level = 0;
    sa__match_clear(a, mt);
    if (a->idle == SA_IDLE_HOLD && sa__no_requests(a, req)) return 0;
    sa__wave_inputs(a, all, local);
    for (first = 1; prio == NULL ? first : sa__next_level(a, req, prio, mt, level, first, &level); first = 0) {
        if (rotary) {
            sa__wfa_rows(a, req, prio, level, bufs, a->network_inputs, r, c, mt);
            sa__wfa_rows(a, req, prio, level, bufs, local, r, c, mt);
        } else {
            sa__wfa_rows(a, req, prio, level, bufs, all, r, c, mt);
        }
    }
    /* The next start cell: the next (network) row, the next column after a
     * sweep of the rows. */
    do {
        r++;
        if (r == n) {
            r = 0;
            c = c + 1 == m ? 0 : c + 1;
        }
    } while (rotary && !sa__has(a->network_inputs, r));
    a->start_row = r;
    a->start_col = c;
    return mt->size;
}

/* >>wrapped ============================================================
 * The wrapped wave-front arbiter (Tamir and Chi; seed 002 Section 3.2)
 *
 * The s x s matrix (s = max(n, m); the missing rows or columns never
 * request) is cut into s wrapped diagonals d = {(i, (i + d) mod s)}.  The
 * cells of one diagonal share no row and no column, so a whole diagonal is
 * one wave front: its cells are granted at once where requested and their
 * row and column are still free.  The diagonals are evaluated from the
 * priority diagonal p on, and p advances every allocation.  With the Rotary
 * Rule the network rows are allocated first (all diagonals), then the local
 * rows; with read-port pairing, within a diagonal the rows go in increasing
 * order, so that the even read port decides before its twin; with
 * priorities, level by level as for WFA.  SA_WAVEFRONT_ANTIDIAGONAL
 * evaluates the mirrored diagonals {(i, (d - i) mod s)} instead.
 * ====================================================================== */

/* The wave fronts over the rows of `rows`. */
SA_API void sa__wfa_wrapped_rows(const sa_switch *a, const uint64_t *req, const int32_t *prio, int32_t level,
                                 const sa_read_buffer *bufs, const uint64_t *rows, int s, int p, sa_match *mt) {
    uint64_t free_cols[SA_WORDS(SA_SWITCH_MAX)];
    int k, i, n = sa__n(a);
    for (k = 0; k < s; k++) {
        int d = (p + k) % s;
        for (i = 0; i < n; i++) {
            int j = a->wavefront == SA_WAVEFRONT_ANTIDIAGONAL ? (d - i % s + s) % s : (i + d) % s;
            if (!sa__has(rows, i) || sa__has(mt->inputs, i) || j >= sa__m(a)) continue;
            sa__free_requests(a, req, bufs, mt, i, free_cols);
            sa__level_cells(a, prio, level, i, free_cols);
            if (sa__has(free_cols, j)) sa__match_add(mt, i, j);
        }
    }
}

SA_API int sa__wfa_wrapped(sa_switch *a, const uint64_t *req, const int32_t *prio,
                           const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t all[SA_WORDS(SA_SWITCH_MAX)], local[SA_WORDS(SA_SWITCH_MAX)];
    int n = sa__n(a), m = sa__m(a), s = n > m ? n : m, p = a->start_col, first;
    int rotary = a->rotary && sa__next(a->network_inputs, n, 0) >= 0;
    int32_t level = 0;
    sa__match_clear(a, mt);
    if (a->idle == SA_IDLE_HOLD && sa__no_requests(a, req)) return 0;
    sa__wave_inputs(a, all, local);
    for (first = 1; prio == NULL ? first : sa__next_level(a, req, prio, mt, level, first, &level); first = 0) {
        if (rotary) {
            sa__wfa_wrapped_rows(a, req, prio, level, bufs, a->network_inputs, s, p, mt);
            sa__wfa_wrapped_rows(a, req, prio, level, bufs, local, s, p, mt);
        } else {
            sa__wfa_wrapped_rows(a, req, prio, level, bufs, all, s, p, mt);
        }
    }
    a->start_col = p + 1 == s ? 0 : p + 1;
    return mt->size;
}

/* >>pim ================================================================
 * PIM-k and PIM1, parallel iterative matching (Anderson et al.; seed 002
 * Section 3.1)
 *
 *   1. Nominate: each unmatched input requests every output it has a
 *      packet for.
 *   2. Grant: each unmatched output that receives requests accepts one
 *      randomly.
 *   3. Accept: each input that receives grants selects one randomly.
 *
 * PIM repeats the three steps on the ports still unmatched, k times
 * (PIM-k; PIM1 is k = 1) or until an iteration finds nothing to grant
 * (SA_ITERATE_TO_CONVERGENCE: a maximal matching).  With the Rotary Rule an
 * output grants a network input whenever one requests it; with priorities
 * an output grants among its highest-priority requests and an input
 * accepts among its highest-priority grants; with read-port pairing an
 * input's candidates leave out the outputs its twin's match blocks, and the
 * accepts go in increasing input order (the even read port first).
 *
 * The draw protocol: "randomly" means uniformly, from the allocator's
 * sa_rng, in a fixed order that does not depend on how the code is
 * computed.  Each stage (grant, then accept) starts on a fresh generator
 * output and has one lane per output (grant) or per input (accept).
 * - Block: lane l's draw u is the 16-bit field l mod 4 (lowest bits first)
 *   of the stage's output l / 4; the stage takes ceil(lanes / 4) outputs,
 *   and every lane has its draw, used or not.
 * - Pick: a lane with c candidates takes candidate number (u c) >> 16 in
 *   increasing index order, unless the low 16 bits of u c are below
 *   65536 mod c (Lemire's rejection: then some candidates would be more
 *   likely than others); such a lane draws again, from the outputs after
 *   the block, four draws per output, the rejected lanes in increasing
 *   order, each continuing where the previous one stopped.  Every candidate
 *   thus has probability exactly 1/c.
 * - The rest of a stage's last output is discarded; an iteration that is
 *   not run draws nothing.
 * PIM1 at 16 x 7 therefore takes six generator outputs per allocation.
 * ====================================================================== */

/* The 16-bit draws of one stage: a sequential stream over the generator's
 * outputs, four draws per output. */
typedef struct sa__draws {
    sa_rng *rng;
    uint64_t word;  /* the current output's unused draws */
    int left;       /* how many */
} sa__draws;

/* Start a stage on a fresh output. */
SA_API void sa__draws_begin(sa__draws *d, sa_rng *rng) {
    d->rng = rng;
    d->left = 0;
}

SA_API uint32_t sa__draw16(sa__draws *d) {
    uint32_t u;
    if (d->left == 0) {
        d->word = sa_rng_next(d->rng);
        d->left = 4;
    }
    u = (uint32_t)(d->word & 0xFFFFu);
    d->word >>= 16;
    d->left--;
    return u;
}

/* A stage's block: one draw per lane; the redraws then start on a fresh
 * output. */
SA_API void sa__draw_block(sa__draws *d, int lanes, uint16_t *u) {
    int l;
    for (l = 0; l < lanes; l++) u[l] = (uint16_t)sa__draw16(d);
    d->left = 0;
}

/* A candidate number below c from the draw u: (u c) >> 16, drawing again
 * while the low 16 bits of u c are below 65536 mod c. */
SA_API int sa__draw_index(sa__draws *d, uint32_t u, uint32_t c) {
    while (((u * c) & 0xFFFFu) < 65536u % c) u = sa__draw16(d);
    return (int)((u * c) >> 16);
}

/* A member chosen uniformly from the set cand (of `size` bits, not empty). */
SA_API int sa__draw_pick(sa__draws *d, uint32_t u, const uint64_t *cand, int size) {
    return sa__kth(cand, size, sa__draw_index(d, u, (uint32_t)sa__count(cand, size)));
}

/* One iteration of steps 1-3; returns 0 (drawing nothing) when no unmatched
 * output has a requester. */
SA_API int sa__pim_iteration(sa_switch *a, const uint64_t *req, const int32_t *prio,
                             const sa_read_buffer *bufs, sa_match *mt) {
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 }, g[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int16_t granted_by[SA_SWITCH_MAX];
    uint16_t u[SA_SWITCH_MAX];
    sa__draws d;
    int i, j, n = sa__n(a), m = sa__m(a), any = 0;
    memset(granted_by, 0xFF, (size_t)m * sizeof granted_by[0]); /* (written below; said for the compiler) */
    for (j = 0; j < m && !any; j++) {                            /* Step 1 */
        sa__requesters(a, req, bufs, mt, j, r);
        any = sa__next(r, n, 0) >= 0;
    }
    if (!any) return 0;
    /* Step 2, Grant: one lane per output, among its requesters (Rotary
     * Rule: the network ones if any; then those of highest priority). */
    sa__draws_begin(&d, &a->rng);
    sa__draw_block(&d, m, u);
    for (j = 0; j < m; j++) {
        sa__requesters(a, req, bufs, mt, j, r);
        sa__rotary(a, r);
        sa__keep_top_column(a, r, prio, j);
        granted_by[j] = (int16_t)(sa__next(r, n, 0) >= 0 ? sa__draw_pick(&d, u[j], r, n) : -1);
    }
    /* Step 3, Accept: one lane per input, in increasing input order. */
    sa__draws_begin(&d, &a->rng);
    sa__draw_block(&d, n, u);
    for (i = 0; i < n; i++) {
        sa__clear_set(g, m);
        for (j = 0; j < m; j++)
            if (granted_by[j] == i) sa__add(g, j);
        g[0] &= ~sa__twin_blocks(bufs, mt, i);
        sa__keep_top(g, m, sa__prio_row(a, prio, i));
        if (sa__next(g, m, 0) >= 0) sa__match_add(mt, i, sa__draw_pick(&d, u[i], g, m));
    }
    return 1;
}

SA_API int sa__pim(sa_switch *a, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                   sa_match *mt) {
    int it;
    sa__match_clear(a, mt);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++)
        if (!sa__pim_iteration(a, req, prio, bufs, mt)) break;
    return mt->size;
}

/* >>islip ==============================================================
 * iSLIP-k (McKeown) and the separable output-first allocator
 *
 * iSLIP is PIM with round-robin arbiters instead of random choices:
 *   1. Request: each unmatched input requests every output it has a packet
 *      for.
 *   2. Grant: each unmatched output grants the first requester at or after
 *      its grant pointer (with priorities: among the highest-priority
 *      requests).
 *   3. Accept: each input accepts the first grant at or after its accept
 *      pointer (with priorities: among the highest-priority grants).
 * The pointers move just past the accepted partner, and only for grants
 * accepted in the first iteration (this is what desynchronises the
 * outputs).  The iterations stop after k, or when one adds no match.  With
 * read-port pairing, as for PIM.
 *
 * The separable output-first allocator (SA_SWITCH_SEP_OUTPUT) is one
 * iteration of the same steps.  With SA_POINTER_RRM (the default) it is
 * McKeown's RRM: every arbiter moves its pointer past its own winner, an
 * output's even when its grant is declined.  With SA_POINTER_ON_MATCH only
 * the two pointers of a completed match move, which makes it iSLIP-1.
 * ====================================================================== */

/* Steps 2-3 once; returns the number of new matches.  rrm: RRM's pointer
 * rule; first: the first iteration (iSLIP's pointers move). */
SA_API int sa__grant_accept(sa_switch *a, const uint64_t *req, const int32_t *prio,
                            const sa_read_buffer *bufs, int rrm, int first, sa_match *mt) {
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 }, g[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int16_t granted_by[SA_SWITCH_MAX];
    int i, j, n = sa__n(a), m = sa__m(a), before = mt->size;
    for (j = 0; j < m; j++) {                                    /* Request, Grant */
        int w;
        sa__requesters(a, req, bufs, mt, j, r);
        sa__keep_top_column(a, r, prio, j);
        w = sa__first_from_set(r, n, a->out_ptr[j]);
        granted_by[j] = (int16_t)w;
        if (w >= 0 && rrm) a->out_ptr[j] = (uint16_t)(w + 1 == n ? 0 : w + 1);
    }
    for (i = 0; i < n; i++) {                                    /* Accept */
        sa__clear_set(g, m);
        for (j = 0; j < m; j++)
            if (granted_by[j] == i) sa__add(g, j);
        g[0] &= ~sa__twin_blocks(bufs, mt, i);
        sa__keep_top(g, m, sa__prio_row(a, prio, i));
        j = sa__first_from_set(g, m, a->in_ptr[i]);
        if (j < 0) continue;
        sa__match_add(mt, i, j);
        if (rrm || first) a->in_ptr[i] = (uint16_t)(j + 1 == m ? 0 : j + 1);
        if (!rrm && first) a->out_ptr[j] = (uint16_t)(i + 1 == n ? 0 : i + 1);
    }
    return mt->size - before;
}

SA_API int sa__islip(sa_switch *a, const uint64_t *req, const int32_t *prio, const sa_read_buffer *bufs,
                     sa_match *mt) {
    int it;
    sa__match_clear(a, mt);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++)
        if (sa__grant_accept(a, req, prio, bufs, 0, it == 0, mt) == 0) break;
    return mt->size;
}

SA_API int sa__separable_output(sa_switch *a, const uint64_t *req, const int32_t *prio,
                                const sa_read_buffer *bufs, sa_match *mt) {
    sa__match_clear(a, mt);
    sa__grant_accept(a, req, prio, bufs, a->pointer_rule == SA_POINTER_RRM, 1, mt);
    return mt->size;
}

/* >>separable ==========================================================
 * The separable input-first allocator and OPF, oldest packet first (seed
 * 002 Figure 2)
 *
 *   1. Each input arbiter nominates one of its requests: the first at or
 *      after its pointer among those of highest priority (OPF: the
 *      caller's packet ages).
 *   2. Each output arbiter grants one of its nominations: the first at or
 *      after its pointer among those of highest priority.
 * The pointers of a granted pair move just past each other.  Inputs and
 * outputs interact once, so collisions (several inputs nominating one
 * output) cost matches: Figure 2's point.  With read-port pairing, read
 * port 2b+1 nominates after its twin and skips the outputs that would need
 * the same packet.  SA_SWITCH_OPF and SA_SWITCH_SEP_INPUT are the same
 * allocator; OPF names the use with packet ages.
 * ====================================================================== */

SA_API int sa__separable_input(sa_switch *a, const uint64_t *req, const int32_t *prio,
                               const sa_read_buffer *bufs, sa_match *mt) {
    int16_t nom[SA_SWITCH_MAX], first[SA_SWITCH_MAX], next[SA_SWITCH_MAX];
    int32_t nom_prio[SA_SWITCH_MAX];
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i, j, n = sa__n(a), m = sa__m(a);
    sa__match_clear(a, mt);
    memset(nom, 0xFF, (size_t)n * sizeof nom[0]); /* (written below; said for the compiler) */
    for (i = 0; i < n; i++) {                                    /* 1. nominate */
        const int32_t *p = sa__prio_row(a, prio, i);
        sa__requests(a, req, i, r);
        if (i & 1) r[0] &= ~sa__twin_clash(bufs, i, nom[i - 1]);
        sa__keep_top(r, m, p);
        nom[i] = (int16_t)sa__first_from_set(r, m, a->in_ptr[i]);
        nom_prio[i] = p != NULL && nom[i] >= 0 ? p[nom[i]] : 0;
    }
    for (j = 0; j < m; j++) first[j] = -1;
    for (i = n - 1; i >= 0; i--)
        if (nom[i] >= 0) {
            next[i] = first[nom[i]];
            first[nom[i]] = (int16_t)i;
        }
    for (j = 0; j < m; j++) {                                    /* 2. grant */
        int w;
        if (first[j] < 0) continue;
        sa__clear_set(r, n);
        for (i = first[j]; i >= 0; i = next[i]) sa__add(r, i);
        sa__keep_top(r, n, prio != NULL ? nom_prio : NULL);
        w = sa__first_from_set(r, n, a->out_ptr[j]);
        sa__match_add(mt, w, j);
        a->out_ptr[j] = (uint16_t)(w + 1 == n ? 0 : w + 1);
        a->in_ptr[w] = (uint16_t)(j + 1 == m ? 0 : j + 1);
    }
    return mt->size;
}

/* >>mcm ================================================================
 * Maximum-cardinality matching (seed 002 Section 3: "MCM exhaustively
 * searches the space for the maximum number of matches"; the upper bound;
 * priorities are not read)
 * ====================================================================== */

/* Flip the augmenting path found from input u to the free output `found`
 * (via[j]: the input that reached output j): input via[j] takes j, its old
 * output moves on, back to u. */
SA_API void sa__mcm_flip(sa_match *mt, const int16_t *via, int u, int found) {
    int j;
    for (j = found;;) {
        int x = via[j], old = mt->output_of[x];
        mt->output_of[x] = (int16_t)j;
        mt->input_of[j] = (int16_t)x;
        if (x == u) break;
        j = old;
    }
}

/* Kuhn's augmenting paths: for each input in increasing order, a
 * breadth-first search over alternating paths (outputs visited in
 * increasing order), then the path found is flipped. */
SA_API int sa__mcm_plain(const sa_switch *a, const uint64_t *req, sa_match *mt) {
    /* (one word more than the sizes need: at SA_SWITCH_MAX 64 GCC's bounds
     * analysis does not follow sa__next's loop here and warns) */
    uint64_t seen[SA_WORDS(SA_SWITCH_MAX) + 1] = { 0 }, r[SA_WORDS(SA_SWITCH_MAX) + 1] = { 0 };
    int16_t via[SA_SWITCH_MAX], queue[SA_SWITCH_MAX];
    int u, n = sa__n(a), m = sa__m(a);
    for (u = 0; u < n && mt->size < m; u++) {
        int head = 0, tail = 0, found = -1, j;
        sa__clear_set(seen, m);
        queue[tail++] = (int16_t)u;
        while (head < tail && found < 0) {
            int x = queue[head++];
            sa__requests(a, req, x, r);
            for (j = sa__next(r, m, 0); j >= 0; j = sa__next(r, m, j + 1)) {
                if (sa__has(seen, j)) continue;
                sa__add(seen, j);
                via[j] = (int16_t)x;
                if (mt->input_of[j] < 0) { found = j; break; }
                queue[tail++] = mt->input_of[j];
            }
        }
        if (found < 0) continue;
        sa__mcm_flip(mt, via, u, found);
        mt->size++;
    }
    sa__clear_set(mt->inputs, n);
    sa__clear_set(mt->outputs, m);
    for (u = 0; u < n; u++)
        if (mt->output_of[u] >= 0) {
            sa__add(mt->inputs, u);
            sa__add(mt->outputs, mt->output_of[u]);
        }
    return mt->size;
}

/* With read-port pairing (at most 8 outputs): the exact maximum by dynamic
 * programming over the buffers, reach[b][S] = 1 when buffers 0..b-1 can
 * take exactly the output set S.  A buffer's options are nothing, one read
 * port's output, or a pair of outputs its two read ports can serve with
 * distinct packets.  The largest reachable set (the smallest such S) is
 * then walked back, each buffer taking the first option that leads to it. */
SA_API int sa__mcm_pairs(const sa_switch *a, const uint64_t *req, const sa_read_buffer *bufs,
                         sa_match *mt) {
    static const int none = -1;
    uint8_t reach[64 / 2 + 1][256];
    int nb = sa__n(a) / 2, b, s, best = 0;
    memset(reach, 0, (size_t)(nb + 1) * sizeof reach[0]);
    reach[0][0] = 1;
    for (b = 0; b < nb; b++) {
        uint64_t r0, r1;
        sa__requests(a, req, 2 * b, &r0);
        sa__requests(a, req, 2 * b + 1, &r1);
        for (s = 0; s < 256; s++) {
            uint64_t x, y;
            if (!reach[b][s]) continue;
            reach[b + 1][s] = 1;
            for (x = r0 & ~(uint64_t)s; x; x &= x - 1) {
                int o0 = sa__ctz64(x);
                uint64_t ok1 = r1 & ~sa_read_buffer_clash(&bufs[b], o0) & ~((uint64_t)1 << o0);
                reach[b + 1][s | 1 << o0] = 1;
                for (y = ok1 & ~(uint64_t)s; y; y &= y - 1) reach[b + 1][s | 1 << o0 | 1 << sa__ctz64(y)] = 1;
            }
            for (y = r1 & ~(uint64_t)s; y; y &= y - 1) reach[b + 1][s | 1 << sa__ctz64(y)] = 1;
        }
    }
    for (s = 0; s < 256; s++)
        if (reach[nb][s] && sa__popcount64((uint64_t)s) > sa__popcount64((uint64_t)best)) best = s;
    for (b = nb - 1; b >= 0; b--) {
        uint64_t r0, r1, x, y;
        int o0 = none, o1 = none, done = reach[b][best];
        sa__requests(a, req, 2 * b, &r0);
        sa__requests(a, req, 2 * b + 1, &r1);
        for (x = r0 & (uint64_t)best; x && !done; x &= x - 1) {
            int c0 = sa__ctz64(x);
            uint64_t ok1 = r1 & ~sa_read_buffer_clash(&bufs[b], c0) & ~((uint64_t)1 << c0);
            if (reach[b][best & ~(1 << c0)]) { o0 = c0; done = 1; break; }
            for (y = ok1 & (uint64_t)best; y; y &= y - 1)
                if (reach[b][best & ~(1 << c0) & ~(1 << sa__ctz64(y))]) {
                    o0 = c0;
                    o1 = sa__ctz64(y);
                    done = 1;
                    break;
                }
        }
        for (y = r1 & (uint64_t)best; y && !done; y &= y - 1)
            if (reach[b][best & ~(1 << sa__ctz64(y))]) { o1 = sa__ctz64(y); done = 1; }
        SA_ASSERT(done);
        if (o0 != none) { sa__match_add(mt, 2 * b, o0); best &= ~(1 << o0); }
        if (o1 != none) { sa__match_add(mt, 2 * b + 1, o1); best &= ~(1 << o1); }
    }
    return mt->size;
}

SA_API int sa__mcm(const sa_switch *a, const uint64_t *req, const sa_read_buffer *bufs, sa_match *mt) {
    sa__match_clear(a, mt);
    return bufs != NULL ? sa__mcm_pairs(a, req, bufs, mt) : sa__mcm_plain(a, req, mt);
}

/* >>allocate ===========================================================
 * One allocation with the allocator's algorithm
 * ====================================================================== */

/* The fast kernels' dispatch (>>fast): runs the allocation and returns 1
 * when a kernel covers this call, else returns 0 without changing
 * anything. */
SA_API int sa__fast_allocate(sa_switch *a, const uint64_t *req, const int32_t *prio,
                             const sa_read_buffer *bufs, sa_match *match);

/* The same for a request set (>>fast): 1 when a kernel works from the
 * set's pairs or columns, else 0 without allocating.  Either way it sets
 * the form the set takes from its next clear (r->want_columns). */
SA_API int sa__fast_allocate_requests(sa_switch *a, sa_requests *r, const sa_read_buffer *bufs,
                                      sa_match *match);

/* Precondition of sa_switch_allocate (SA_ASSERT): no request at or above
 * num_outputs; with read-port pairs, requests within the buffers' views. */
SA_API void sa__assert_requests(const sa_switch *a, const uint64_t *req, const sa_read_buffer *bufs) {
#ifndef NDEBUG
    uint64_t r[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int i;
    SA_ASSERT(sa_switch_check_requests(a, req) == SA_OK);
    for (i = 0; i < sa__n(a) && bufs != NULL; i++) {
        sa__requests(a, req, i, r);
        SA_ASSERT((r[0] & ~bufs[i >> 1].any) == 0);
    }
    (void)r; /* (SA_ASSERT may be defined to nothing) */
#endif
    (void)a;
    (void)req;
    (void)bufs;
}

/**
 * Allocate: compute one matching of input arbiters to outputs with the
 * allocator's algorithm and update its state as that algorithm says (each
 * algorithm's section gives its steps, what it does with priorities, and
 * its choices where the paper leaves one open).
 *
 * Every result is a matching of requested, connected cells; with read-port
 * pairing no two matched twins need the same packet.  With SA_IDLE_ADVANCE
 * (the default) the state moves on every call, even one without requests:
 * WFA's start cell and wrapped WFA's priority diagonal advance once per
 * call; with SA_IDLE_HOLD a call without requests changes nothing.
 *
 * :param a: the allocator.
 * :param req: num_inputs request rows of a->row_words words.  Precondition
 *             (SA_ASSERT): no bit at or above num_outputs
 *             (sa_switch_check_requests returns an error instead; with
 *             SA_ASSERT compiled out such bits are ignored); requests on
 *             unconnected cells are ignored.
 * :param prio: NULL (all equal), or row-major num_inputs x num_outputs
 *              priorities, larger first.  Every cell must be initialised;
 *              only the requested cells' values decide.  MCM ignores them.
 * :param bufs: with read-port pairing, num_inputs/2 buffer views whose
 *              ``any`` contains both twins' requests; NULL (or an
 *              allocator without pairing) disables the twin check.
 * :param match: receives the matching (output_of and input_of beyond the
 *               sizes are not written; words of inputs and outputs wholly
 *               beyond them may be zeroed or left as they were).
 * :returns: the number of matched pairs.
 * :paper: seed 002 Sections 3.1-3.4 (PIM, PIM1, WFA, SPAA, Rotary Rule),
 *         Section 3 (MCM), Figure 2 (OPF).
 */
SA_API int sa_switch_allocate(sa_switch *a, const uint64_t *req, const int32_t *prio,
                              const sa_read_buffer *bufs, sa_match *match) {
    if (!a->read_port_pairs) bufs = NULL;
    sa__assert_requests(a, req, bufs);
    if (sa__fast_allocate(a, req, prio, bufs, match)) return match->size;
    /* (each kind only where the translation unit compiles it) */
#define SA__RUN(K, CALL) case K: if (SA__KIND_ON(K)) return CALL; break;
    switch (a->kind) {
    SA__RUN(SA_SWITCH_SPAA, sa__spaa(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_WFA, sa__wfa(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_WFA_WRAPPED, sa__wfa_wrapped(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_PIM, sa__pim(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_ISLIP, sa__islip(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_OPF, sa__separable_input(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_SEP_INPUT, sa__separable_input(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_SEP_OUTPUT, sa__separable_output(a, req, prio, bufs, match))
    SA__RUN(SA_SWITCH_MCM, sa__mcm(a, req, bufs, match))
    default: break;
    }
#undef SA__RUN
    SA_ASSERT(0); /* an unknown kind, or one this translation unit does not compile */
    sa__match_clear(a, match);
    return 0;
}

/**
 * Allocate on a request set: the same decisions and state as
 * sa_switch_allocate(a, sa_requests_rows(r), sa_requests_priorities(r),
 * bufs, match), which is what it calls, except where a kernel works from
 * the set's columns (see >>requests) without building the rows (PIM above
 * 64 ports on a fully connected switch, without priorities or read-port
 * views).
 *
 * :param a: the allocator.
 * :param r: the requests, of the allocator's sizes.
 * :param bufs: as for sa_switch_allocate.
 * :param match: receives the matching, as for sa_switch_allocate.
 * :returns: the number of matched pairs.
 * :paper: as sa_switch_allocate.
 */
SA_API int sa_switch_allocate_requests(sa_switch *a, sa_requests *r, const sa_read_buffer *bufs, sa_match *match) {
    SA_ASSERT(r->num_inputs == a->num_inputs && r->num_outputs == a->num_outputs);
    if (sa__fast_allocate_requests(a, r, a->read_port_pairs ? bufs : NULL, match)) return match->size;
    return sa_switch_allocate(a, sa_requests_rows(r), sa_requests_priorities(r), bufs, match);
}

/* >>bgl ================================================================
 * BlueGene/L arbitration: JSQ and SLQ (seed 003 Section 2, lines 59-65)
 *
 * Three phases per cycle, each a pure call:
 *
 *   1. each packet at the head of an injection or VC FIFO picks the
 *      (direction, VC) pair it will request: sa_bgl_jsq, the modified "Join
 *      the Shortest Queue" (its request masks: seastar_route.h
 *      sr_bgl_requests);
 *   2. each receiver picks which of its requesting FIFOs (VC FIFOs and the
 *      bypass) presents its request: sa_bgl_slq_receiver, the modified
 *      "Serve the Longest Queue";
 *   3. each sender picks among the receivers and injection FIFOs that
 *      request it: sa_bgl_slq_sender (token-acks first, in-network packets
 *      favoured on a programmable fraction of cycles, modified SLQ).
 *
 * The queues are seen through 2-bit indicators (sa_bgl_range): four ranges
 * of downstream tokens for JSQ, of FIFO fullness for SLQ.  The "programmable
 * fractions" of cycles are sa_bgl_cycles.  Random choices draw from an
 * sa_rng the caller owns.  Requesters are bits of a uint64_t: the caller
 * numbers them.
 * ====================================================================== */

/** Returned by sa_bgl_slq_sender: the sender sends a token-ack or ack-only
 *  packet this cycle. */
#define SA_BGL_SEND_ACK (-2)

/**
 * A programmable fraction of cycles, num / den: sa_bgl_cycles_next
 * designates exactly num of every den consecutive cycles, spread evenly
 * (an accumulator that adds num each cycle and designates the cycle when
 * it reaches den).  The paper says only "a certain (programmable) fraction
 * of the arbitration cycles"; how the hardware spreads them is not given.
 */
typedef struct sa_bgl_cycles {
    uint32_t num;  /**< designated cycles per den cycles, 0..den */
    uint32_t den;  /**< the period, 1..65536 */
    uint32_t acc;  /**< the accumulator, 0..den-1 */
} sa_bgl_cycles;

/**
 * Start a fraction of cycles.
 *
 * :param c: the state.
 * :param num: designated cycles per period (0: none; num = den: all).
 * :param den: the period, 1..65536.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PARAM_RANGE (den outside 1..65536 or
 *     num above den), c untouched.
 * :paper: seed 003 line 63 (SLQ cycles, e.g. 75%), line 65 (in-network
 *     priority, "typically 1.0").
 */
SA_API sa_result sa_bgl_cycles_init(sa_bgl_cycles *c, uint32_t num, uint32_t den) {
    if (c == NULL) return SA_ERR_NULL;
    if (den < 1 || den > 65536 || num > den) return SA_ERR_PARAM_RANGE;
    c->num = num;
    c->den = den;
    c->acc = 0;
    return SA_OK;
}

/**
 * Check a fraction's state.
 *
 * :param c: the state.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_STATE (den outside 1..65536, num
 *     above den, or acc not below den).
 */
SA_API sa_result sa_bgl_cycles_check(const sa_bgl_cycles *c) {
    if (c == NULL) return SA_ERR_NULL;
    if (c->den < 1 || c->den > 65536 || c->num > c->den || c->acc >= c->den) return SA_ERR_STATE;
    return SA_OK;
}

/**
 * Advance one cycle.
 *
 * :param c: a valid state (sa_bgl_cycles_check).
 * :returns: 1 if this cycle is designated, else 0.
 */
SA_API int sa_bgl_cycles_next(sa_bgl_cycles *c) {
    c->acc += c->num;
    if (c->acc < c->den) return 0;
    c->acc -= c->den;
    return 1;
}

/**
 * Fill the bounds of the four ranges of a 2-bit indicator with the
 * quarters of a capacity: [0, C/4), [C/4, C/2), [C/2, 3C/4), [3C/4, C]
 * (bounds rounded up).  The paper gives 2 bits "indicating one of four
 * ranges" (of downstream tokens for JSQ, of FIFO fullness for SLQ) and not
 * the ranges; quarters are this library's default.  With 1 KB buffers
 * (C = 32 chunks) the JSQ ranges are [0,8), [8,16), [16,24), [24,32]: a
 * VC is available only with 8 tokens, so JSQ ranks the available ones in
 * three steps.
 *
 * :param capacity: the buffer, in any unit (chunks), 1..2^31.
 * :param bounds: out, the three bounds (untouched on error).
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PARAM_RANGE (capacity 0 or above
 *     2^31).
 * :paper: seed 003 line 59 ("2 bits for each VC indicting one of four
 *     ranges of available downstream tokens"), line 63 ("2 bit (4 ranges)
 *     FIFO Fullness indicators").
 */
SA_API sa_result sa_bgl_ranges_quarters(uint32_t capacity, uint32_t bounds[3]) {
    int i;
    if (bounds == NULL) return SA_ERR_NULL;
    if (capacity < 1 || capacity > 0x80000000u) return SA_ERR_PARAM_RANGE;
    for (i = 0; i < 3; i++) bounds[i] = (uint32_t)(((uint64_t)capacity * (uint64_t)(i + 1) + 3) / 4);
    return SA_OK;
}

/**
 * Check the bounds of a 2-bit indicator: non-decreasing.
 *
 * :param bounds: the three bounds.
 * :returns: SA_OK; SA_ERR_NULL; SA_ERR_PARAM_RANGE.
 */
SA_API sa_result sa_bgl_ranges_check(const uint32_t bounds[3]) {
    if (bounds == NULL) return SA_ERR_NULL;
    if (bounds[0] > bounds[1] || bounds[1] > bounds[2]) return SA_ERR_PARAM_RANGE;
    return SA_OK;
}

/**
 * A 2-bit indicator: the range a value falls in.
 *
 * :param value: tokens (JSQ) or occupancy (SLQ).
 * :param bounds: three non-decreasing bounds (sa_bgl_ranges_check).
 * :returns: 0..3, the number of bounds the value reaches.
 */
SA_API int sa_bgl_range(uint32_t value, const uint32_t bounds[3]) {
    return (value >= bounds[0]) + (value >= bounds[1]) + (value >= bounds[2]);
}

/* The requesters of `mask` whose indicator is the highest. */
SA_API uint64_t sa__bgl_highest(uint64_t mask, const uint8_t *level) {
    uint64_t best = 0, m;
    int top = -1;
    for (m = mask; m; m &= m - 1) {
        int i = sa__ctz64(m), v = level[i];
        if (v > top) { top = v; best = 0; }
        if (v == top) best |= (uint64_t)1 << i;
    }
    return best;
}

/**
 * Phase 1, the modified "Join the Shortest Queue": the (direction, VC) pair
 * a packet requests.
 *
 * "Of all the possible and available dynamic direction/VC pairs, the packet
 * selects the one with the most available downstream tokens.  Ties are
 * randomly broken.  If no dynamic direction/VC combination is available,
 * the packet will request its bubble escape direction/VC pair (if
 * available), and if that is also unavailable, the packet makes no
 * arbitration request."
 *
 * :param possible: the dynamic pairs the packet may take (seastar_route.h
 *     sr_bgl_requests).
 * :param available: the pairs flow control and the links allow.
 * :param range: the 2-bit token range of each pair (sa_bgl_range), read
 *     for the possible and available pairs (indexed by pair; values 0..3).
 * :param escape: the escape pair, or -1 (a static or high-priority packet
 *     has no dynamic pair and requests its escape pair alone).
 * :param rng: the random numbers of the tie-break (drawn only when two or
 *     more pairs tie).
 * :returns: the pair to request, or -1 for no request.
 * :paper: seed 003 lines 59-61.
 */
SA_API int sa_bgl_jsq(uint64_t possible, uint64_t available, const uint8_t *range, int escape, sa_rng *rng) {
    uint64_t cand = possible & available;
    if (cand) return sa_rng_pick(rng, sa__bgl_highest(cand, range));
    if (escape >= 0 && escape < 64 && ((available >> escape) & 1u)) return escape;
    return -1;
}

/* The modified SLQ among `mask` (nonzero): on an SLQ cycle the fullest
 * (ties at random), on the other cycles any at random. */
SA_API int sa__bgl_slq_pick(uint64_t mask, const uint8_t *fullness, int slq_cycle, sa_rng *rng) {
    return sa_rng_pick(rng, slq_cycle ? sa__bgl_highest(mask, fullness) : mask);
}

/**
 * Phase 2, the modified "Serve the Longest Queue" at a receiver: which of
 * its requesting FIFOs presents its request to the senders.
 *
 * A high-priority packet wins ("If a high priority packet is requesting,
 * it wins"; two of them are ranked as below).  Otherwise the VC FIFOs
 * come first and the bypass channel last ("A packet on the bypass channel
 * always receives the lowest priority (unless it is a high priority
 * packet)"); among them, on an SLQ cycle the fullest FIFO as its 2-bit
 * indicator shows (ties at random), on the other cycles one at random.
 *
 * :param requests: the FIFOs that request (bits the caller numbers).
 * :param high_priority: the FIFOs whose head packet is high-priority.
 * :param fullness: the 2-bit fullness indicator of each FIFO (sa_bgl_range
 *     of its occupancy), read for the requesting ones.
 * :param bypass: the bypass channel's bit, or -1.
 * :param slq_cycle: nonzero on an SLQ cycle (an sa_bgl_cycles of the
 *     programmable fraction).
 * :param rng: the random numbers.
 * :returns: the winning FIFO, or -1 when none requests.
 * :paper: seed 003 line 63.
 */
SA_API int sa_bgl_slq_receiver(uint64_t requests, uint64_t high_priority, const uint8_t *fullness, int bypass,
                               int slq_cycle, sa_rng *rng) {
    uint64_t by = bypass >= 0 && bypass < 64 ? (uint64_t)1 << bypass : 0, pool;
    if (!requests) return -1;
    pool = requests & high_priority;
    if (!pool) pool = requests;
    if (pool & ~by) pool &= ~by;
    return sa__bgl_slq_pick(pool, fullness, slq_cycle, rng);
}

/**
 * Phase 3 at a sender: which request it serves (receivers, whose packets
 * are in the network, and injection FIFOs).
 *
 * "The sender gives highest priority to token-ack or ack-only packets, if
 * any.  Barring that, the senders tend to favor packets already in the
 * network ...: a certain programmable fraction of cycles (typically 1.0)
 * give priority to packets already in the network (unless the only high
 * priority packet requesting is in an injection FIFO).  On such cycles the
 * modified SLQ algorithm is used. ... On cycles in which injection packets
 * receive priority (barring in-network high priority packets), the
 * modified SLQ algorithm is also used."  So: the ack; else the
 * high-priority requests, in-network ones before injection ones; else on a
 * network cycle the in-network requests (the injection ones when there are
 * none), on an injection cycle the injection requests (the in-network ones
 * when there are none); the modified SLQ among the group chosen.
 *
 * :param ack_pending: nonzero when a token-ack or ack-only packet waits.
 * :param requests: the requesters (bits the caller numbers).
 * :param injection: which of the bits are injection FIFOs (the others are
 *     receivers).
 * :param high_priority: the requesters with a high-priority packet.
 * :param fullness: the 2-bit fullness indicator of each requester.
 * :param network_cycle: nonzero on a cycle that favours in-network packets
 *     (an sa_bgl_cycles of the in-network fraction).
 * :param slq_cycle: nonzero on an SLQ cycle.
 * :param rng: the random numbers.
 * :returns: SA_BGL_SEND_ACK, the winning requester, or -1 when there is
 *     nothing to send.
 * :paper: seed 003 line 65.
 */
SA_API int sa_bgl_slq_sender(int ack_pending, uint64_t requests, uint64_t injection, uint64_t high_priority,
                             const uint8_t *fullness, int network_cycle, int slq_cycle, sa_rng *rng) {
    uint64_t pool, net, inj;
    if (ack_pending) return SA_BGL_SEND_ACK;
    if (!requests) return -1;
    pool = requests & high_priority;
    if (pool) {
        if (pool & ~injection) pool &= ~injection;
    } else {
        net = requests & ~injection;
        inj = requests & injection;
        pool = network_cycle ? (net ? net : inj) : (inj ? inj : net);
    }
    return sa__bgl_slq_pick(pool, fullness, slq_cycle, rng);
}

/* >>fast ===============================================================
 * Fast kernels (SSE2)
 *
 * Each kernel equals one reference function above, decision for decision
 * and state for state, on the calls sa__fast_allocate (at the end of this
 * section, the one place that chooses them) gives it: no read-port views,
 * and priorities absent or all equal (the separable input-first kernels,
 * SPAA's stamps and MCM also take unequal ones).  Every other call runs
 * the reference.  tests/test_alloc_diff.c runs both builds side by side on
 * random request sets.  bench_alloc measures each kernel against its
 * reference in one run (docs/data/bench_alloc.csv):
 *
 *   kernel                  equals                    sizes
 *   sa__fast_spaa           sa__spaa                  up to 64 x 64 (bit-sliced banks; in registers
 *                                                     up to 16 x 16: sa__spaa_reg_sse2_*,
 *                                                     sa__spaa_mid_sse2_*)
 *   sa__spaa_stamps         sa__spaa                  larger (and with priorities there)
 *   sa__wfa_word            sa__wfa                   up to 64 x 64 (sa__wfa16_sse2 at 16 x 4..8)
 *   sa__wfa_wrapped_diag    sa__wfa_wrapped           up to 64 x 64, both diagonals
 *   sa__wfa_wrapped_words   sa__wfa_wrapped           larger
 *   sa__islip16x8_sse2      sa__islip, sa__separable_output   n <= 16 and m <= 8
 *   sa__islip_cols          sa__islip, sa__separable_output   up to 64 x 64
 *   sa__islip_words         sa__islip, sa__separable_output   larger
 *   sa__pim1_16x8_sse2,
 *   sa__pim_sse2_small      sa__pim                   n <= 16 and m <= 8
 *   sa__pim64               sa__pim                   up to 64 x 64
 *   sa__pim_words           sa__pim                   larger (sa__pim_cols on the request columns;
 *                                                     sa_switch_allocate_requests gives it a request
 *                                                     set's columns without building rows)
 *   sa__separable_keys      sa__separable_input       up to 64 x 64 (OPF, separable input-first;
 *                                                     sa__separable_keys64 at 64 x 64 without
 *                                                     priorities; a row's priorities compared as
 *                                                     bytes when all are in 0..255 and m >= 16)
 *   sa__separable_words     sa__separable_input       larger
 *   sa__mcm_word            sa__mcm                   up to 64 x 64
 *   sa__mcm_words           sa__mcm                   larger
 *
 * The kernels above 64 (the word-general ones) are compiled only where
 * SA_SWITCH_MAX is above 64.  The output arbiter has no kernel.  Without
 * SSE2, or with SA_NO_SIMD, this section only defines the hooks the
 * reference calls, and they do nothing.
 * ====================================================================== */

#ifndef SA_SIMD_SSE2

SA_API size_t sa__fast_memory_size(const sa_switch_desc *desc) {
    (void)desc;
    return 0;
}

SA_API void sa__fast_init(sa_switch *a) { (void)a; }

SA_API void sa__fast_release(sa_switch *a) { (void)a; }

SA_API int sa__fast_allocate(sa_switch *a, const uint64_t *req, const int32_t *prio,
                             const sa_read_buffer *bufs, sa_match *match) {
    (void)a;
    (void)req;
    (void)prio;
    (void)bufs;
    (void)match;
    return 0;
}

SA_API int sa__fast_allocate_requests(sa_switch *a, sa_requests *r, const sa_read_buffer *bufs,
                                      sa_match *match) {
    (void)a;
    (void)bufs;
    (void)match;
    r->want_columns = 0;
    return 0;
}

#else /* SA_SIMD_SSE2 */

/* The kernels' sizes: up to 64 inputs and outputs (a request row is one
 * word). */
#define SA__FAST_MAX (SA_SWITCH_MAX < 64 ? SA_SWITCH_MAX : 64)

/* Unaligned SSE2 load and store of two words. */
#define SA__LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SA__ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

/* count entries of -1 at p (count 0..SA_SWITCH_MAX), in overlapping
 * 16-, 8-, 4- or 2-byte stores, none beyond p + count. */
SA_API void sa__fill_none(int16_t *p, int count) {
    const __m128i none = _mm_set1_epi8(-1);
    int k;
    if (count >= 8) {
        for (k = 0; k + 8 <= count; k += 8) SA__ST(p + k, none);
        SA__ST(p + count - 8, none);
    } else if (count >= 4) {
        _mm_storel_epi64((__m128i *)(void *)p, none);
        _mm_storel_epi64((__m128i *)(void *)(p + count - 4), none);
    } else if (count >= 2) {
        memset(p, 0xFF, 4);
        memset(p + count - 2, 0xFF, 4);
    } else if (count == 1) {
        p[0] = -1;
    }
}

/* sa__match_clear in vector stores (the kernels' empty matching).  The
 * first words are stored on their own: a loop over one word compiles to a
 * string store whose start-up costs more than the rest of a small
 * allocation. */
SA_API void sa__match_clear_fast(const sa_switch *a, sa_match *mt) {
    int w;
    sa__fill_none(mt->output_of, sa__n(a));
    sa__fill_none(mt->input_of, sa__m(a));
    mt->inputs[0] = 0;
    mt->outputs[0] = 0;
    for (w = 1; w < SA_WORDS(sa__n(a)); w++) mt->inputs[w] = 0;
    for (w = 1; w < SA_WORDS(sa__m(a)); w++) mt->outputs[w] = 0;
    mt->size = 0;
}

/* Store 16 signed bytes as 16 int16_t (a matching's entries). */
SA_API void sa__store_i16(int16_t *p, __m128i v) {
    __m128i sign = _mm_cmplt_epi8(v, _mm_setzero_si128());
    SA__ST(p, _mm_unpacklo_epi8(v, sign));
    SA__ST(p + 8, _mm_unpackhi_epi8(v, sign));
}

/* ---- SPAA's arbiters, bit-sliced (>>spaa's sa_spaa_nominate and
 * sa_spaa_grant).
 *
 * The fast SPAA kernels keep the two banks of matrix arbiters in another
 * form.  Every arbiter of a bank is one lane of 2^lw bits (lw 3..6: 8, 16,
 * 32 or 64 bits, the smallest that holds one bit per requester), lane r at
 * bits r * 2^lw.. of a string of 64-bit words; plane b (words b * S..)
 * holds bit b of every requester's rank (the rank of sa_matrix_arb).  One
 * pass over the planes, top bit first, selects in every arbiter at once:
 * each lane keeps those of its candidates whose rank bit is 0 if it has
 * any, else all of them, so the least recently selected one is left.  The
 * update compares every rank with the winner's, bit-serially, decrements
 * those above it with a borrow chain, and gives the winner the last rank.
 * The allocator holds its arbiters in one form at a time
 * (a->fast_holds_state): the kernels convert the reference's arbiters when
 * they first run, sa__fast_release converts back when the reference runs
 * (a call with priorities, with read-port views, or the pipelined
 * functions). */

#if SA__FAST_MAX > 32
#define SA__SPAA_PLANES 6
#elif SA__FAST_MAX > 16
#define SA__SPAA_PLANES 5
#elif SA__FAST_MAX > 8
#define SA__SPAA_PLANES 4
#else
#define SA__SPAA_PLANES 3
#endif
/* Words per plane (even, so that SSE2 takes two at a time). */
#define SA__SPAA_WORDS ((SA__FAST_MAX + 1) & ~1)

/* The fast state of a SPAA allocator: both banks, and the connection
 * matrix in the input bank's lanes. */
typedef struct sa__banks {
    uint64_t connect[SA__SPAA_WORDS];               /* connect[i] in lane i (first:
                                                       the other kernels keep it too) */
    uint64_t in[SA__SPAA_PLANES * SA__SPAA_WORDS];  /* input arbiter i over the outputs */
    uint64_t out[SA__SPAA_PLANES * SA__SPAA_WORDS]; /* output arbiter j over the inputs */
} sa__banks;

#define SA__BANKS(a) ((sa__banks *)(void *)(a)->fast)

/* Lane width (log2 of bits, 3..6) of arbiters over `size` requesters. */
SA_API int sa__lane_lw(int size) {
    return size <= 8 ? 3 : size <= 16 ? 4 : size <= 32 ? 5 : 6;
}

/* The form of a SPAA allocator's fast state: 1, bit-sliced banks of
 * lanes as narrow as the sizes allow, for the kernels in registers (up to
 * 16 inputs x 16 outputs); 2, bit-sliced banks of 64-bit lanes (both sizes
 * up to 64); 3, stamps (the word-general kernel, sa__spaa_stamps). */
SA_API int sa__spaa_form(int n, int m) {
    if (SA__FAST_MAX >= 16 && n <= 16 && m <= 16) return 1;
    return SA__FAST_MAX > 32 && n <= 64 && m <= 64 ? 2 : 3;
}

/* Lane width (log2 of bits) of a bank's arbiters over `size` requesters
 * in the allocator's form. */
SA_API int sa__bank_lw(const sa_switch *a, int size) {
    return sa__spaa_form(a->num_inputs, a->num_outputs) == 1 ? sa__lane_lw(size) : 6;
}

/* A bank's planes from its arbiters' ranks (rows arbiters over `size`
 * requesters, row-major), and back. */
SA_API void sa__planes_from_ranks(uint64_t *plane, const uint16_t *rank, int rows, int size, int lw) {
    int r, c, b;
    memset(plane, 0, SA__SPAA_PLANES * SA__SPAA_WORDS * sizeof(uint64_t));
    for (r = 0; r < rows; r++)
        for (c = 0; c < size; c++)
            for (b = 0; b < lw; b++) {
                int bit = (r << lw) + c;
                plane[b * SA__SPAA_WORDS + (bit >> 6)] |=
                    (uint64_t)((rank[(size_t)r * (size_t)size + (size_t)c] >> b) & 1u) << (bit & 63);
            }
}

SA_API void sa__ranks_from_planes(uint16_t *rank, const uint64_t *plane, int rows, int size, int lw) {
    int r, c, b;
    for (r = 0; r < rows; r++)
        for (c = 0; c < size; c++) {
            int bit = (r << lw) + c, v = 0;
            for (b = 0; b < lw; b++)
                v |= (int)((plane[b * SA__SPAA_WORDS + (bit >> 6)] >> (bit & 63)) & 1u) << b;
            rank[(size_t)r * (size_t)size + (size_t)c] = (uint16_t)v;
        }
}

/* Make the banks hold SPAA's state (the kernels run next). */
SA_API void sa__spaa_hold(sa_switch *a) {
    sa__banks *k = SA__BANKS(a);
    if (a->fast_holds_state) return;
    sa__planes_from_ranks(k->in, a->in_rank, a->num_inputs, a->num_outputs, sa__bank_lw(a, a->num_outputs));
    sa__planes_from_ranks(k->out, a->out_rank, a->num_outputs, a->num_inputs, sa__bank_lw(a, a->num_inputs));
    a->fast_holds_state = 1;
}

/* Renumber an arbiter's stamps to its ranks (sa__spaa_stamps). */
SA_API void sa__stamps_to_ranks(uint16_t *stamp, int size);

SA_API void sa__fast_release(sa_switch *a) {
    sa__banks *k = SA__BANKS(a);
    int i, n = a->num_inputs, m = a->num_outputs;
    if (!a->fast_holds_state) return;
    if (sa__spaa_form(n, m) == 3) {
        for (i = 0; i < n; i++) sa__stamps_to_ranks(a->in_rank + (size_t)i * (size_t)m, m);
        for (i = 0; i < m; i++) sa__stamps_to_ranks(a->out_rank + (size_t)i * (size_t)n, n);
    } else {
        sa__ranks_from_planes(a->in_rank, k->in, n, m, sa__bank_lw(a, m));
        sa__ranks_from_planes(a->out_rank, k->out, m, n, sa__bank_lw(a, n));
    }
    a->fast_holds_state = 0;
}

/* All ones in every zero lane of x (lanes of 2^lw bits). */
SA_API __m128i sa__lanes_zero_sse2(__m128i x, int lw) {
    __m128i z = _mm_setzero_si128();
    if (lw == 3) return _mm_cmpeq_epi8(x, z);
    if (lw == 4) return _mm_cmpeq_epi16(x, z);
    if (lw == 5) return _mm_cmpeq_epi32(x, z);
    return _mm_cmpeq_epi32(_mm_or_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1))), z);
}

/* ---- SPAA up to 16 inputs x 8 outputs, in SSE2 registers: equals
 * sa__spaa without priorities or read-port views.  The input bank is 16
 * byte lanes (one register per plane), the output bank 8 lanes of 8 bits
 * (n <= 8) or 16; the whole allocation stays in registers. */

/* Rows req[r] and req[r + 1] as one register (rows at or above n: zero). */
SA_API __m128i sa__row_pair_sse2(const uint64_t *req, int r, int n) {
    if (r + 1 < n) return SA__LD(req + r);
    if (r < n) return _mm_loadl_epi64((const __m128i *)(const void *)(req + r));
    return _mm_setzero_si128();
}

/* The low 32 bits of rows req[r..r+4) (zero at or above n), four lanes. */
SA_API __m128i sa__rows4_lo32_sse2(const uint64_t *req, int r, int n) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(sa__row_pair_sse2(req, r, n)),
                                           _mm_castsi128_ps(sa__row_pair_sse2(req, r + 2, n)),
                                           _MM_SHUFFLE(2, 0, 2, 0)));
}

/* The low bytes of rows req[0..n) (n <= 16) as the bytes of a register,
 * bytes n..15 zero (higher bits dropped, as the connection mask would). */
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

/* Index of the set bit of every byte of v (one-hot or zero; 0 for 0). */
SA_API __m128i sa__onehot_index8_sse2(__m128i v) {
    __m128i b0 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xAA)), _mm_set1_epi8(1));
    __m128i b1 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xCC)), _mm_set1_epi8(2));
    __m128i b2 = _mm_min_epu8(_mm_and_si128(v, _mm_set1_epi8((char)0xF0)), _mm_set1_epi8(4));
    return _mm_or_si128(_mm_or_si128(b0, b1), b2);
}

/* The same with -1 for a zero byte. */
SA_API __m128i sa__bit_index8_sse2(__m128i v) {
    return _mm_or_si128(sa__onehot_index8_sse2(v), _mm_cmpeq_epi8(v, _mm_setzero_si128()));
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
 * j): one movemask per output, each byte doubled to bring the next lower
 * bit to its top, in two chains (bits 7..4 of x, and bits 3..0 from x
 * shifted up four bits), into 16-bit lanes (lwo 4) or bytes (lwo 3). */
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
 * D gets P xor the winner's rank bit (over its lane; 1 in an empty lane).
 * Where the lane has a candidate with bit 0, D is P and the candidates
 * with bit 1 leave; elsewhere D clears none of them. */
#define SA__SEL1(x, P, D, LW) do { \
        __m128i z_ = _mm_andnot_si128((P), (x)); \
        z_ = (LW) == 3 ? _mm_cmpeq_epi8(z_, _mm_setzero_si128()) \
                       : _mm_cmpeq_epi16(z_, _mm_setzero_si128()); \
        (D) = _mm_xor_si128(z_, (P)); \
        (x) = _mm_andnot_si128((D), (x)); \
    } while (0)
/* New plane of a bank update: T the plane with the borrow applied, G the
 * winners (one-hot lanes), bit b of SIZE - 1 the winners' new rank bit. */
#define SA__NEWBIT(T, G, SIZE, b) \
    ((((SIZE) - 1) >> (b)) & 1 ? _mm_or_si128((T), (G)) : _mm_andnot_si128((G), (T)))
/* One step of the bit-serial comparison with the winners' ranks: plane P
 * (D: P xor the winner's bit) over the result GT of the lower planes. */
#define SA__GT1(GT, P, D) (GT) = _mm_xor_si128((GT), _mm_and_si128(_mm_xor_si128((GT), (P)), (D)))
/* One plane of a bank update: the borrow BO taken from plane P, then the
 * winners G given bit b of SIZE - 1, stored at D. */
#define SA__UPD1(D, P, BO, G, SIZE, b) do { \
        __m128i t_ = _mm_xor_si128((P), (BO)); \
        (BO) = _mm_and_si128((BO), t_); \
        SA__ST((D), SA__NEWBIT(t_, (G), (SIZE), (b))); \
    } while (0)
/* The bits of plane P an update flips where it applies: the borrow BO, and
 * the winners' bits G that differ from bit b of SIZE - 1. */
#define SA__FLIP(BO, P, G, SIZE, b) \
    _mm_xor_si128((BO), (((SIZE) - 1) >> (b)) & 1 ? _mm_andnot_si128((P), (G)) : _mm_and_si128((P), (G)))

/* The whole allocation, N <= 16 inputs and M <= 8 outputs (constants in the
 * 16 x 7, 8 x 8 and 7 x 7 instances).  It is one chain of dependent steps
 * (pack, input select, columns, output select, granted inputs, input
 * update), so the work off that chain is done beside it: the input bank's
 * flips are computed before the grant is known and selected by it. */
#define SA__SPAA_REG_BODY(N, M, LWO) { \
    const int S = SA__SPAA_WORDS; \
    const __m128i z = _mm_setzero_si128(); \
    sa__banks *k_ = SA__BANKS(a); \
    __m128i p0, p1, p2, q0, q1, q2, q3, x, c, g, b, e, ne_e, gt, bo, t, d0, d1, d2, f0, f1, f2, f3; \
    unsigned outs; \
    /* Step 1: nominations (input bank select; d0..d2: planes xor the \
     * nominees' rank bits), and the ranks above each nominee's. */ \
    x = _mm_and_si128(sa__pack_bytes16_sse2(req, (N)), SA__LD(k_->connect)); \
    p2 = SA__LD(k_->in + 2 * S); \
    SA__SEL1(x, p2, d2, 3); \
    p1 = SA__LD(k_->in + S); \
    SA__SEL1(x, p1, d1, 3); \
    p0 = SA__LD(k_->in); \
    SA__SEL1(x, p0, d0, 3); \
    gt = _mm_and_si128(p0, d0); \
    SA__GT1(gt, p1, d1); \
    SA__GT1(gt, p2, d2); \
    /* Nominating inputs of each output: the output bank's lanes. */ \
    c = sa__nom_columns_sse2(x, (LWO), (M)); \
    if (a->rotary && a->network_inputs[0]) { \
        __m128i nw = (LWO) == 4 ? _mm_set1_epi16((short)a->network_inputs[0]) \
                                : _mm_set1_epi8((char)a->network_inputs[0]); \
        __m128i cn = _mm_and_si128(c, nw); \
        c = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), c)); \
    } \
    /* Step 2: grants (output bank select) and the output bank's update. */ \
    g = c; \
    q2 = SA__LD(k_->out + 2 * S); \
    if ((LWO) == 4) { \
        q3 = SA__LD(k_->out + 3 * S); \
        SA__SEL1(g, q3, f3, 4); \
    } \
    SA__SEL1(g, q2, f2, (LWO)); \
    q1 = SA__LD(k_->out + S); \
    SA__SEL1(g, q1, f1, (LWO)); \
    q0 = SA__LD(k_->out); \
    SA__SEL1(g, q0, f0, (LWO)); \
    bo = _mm_and_si128(q0, f0); \
    SA__GT1(bo, q1, f1); \
    SA__GT1(bo, q2, f2); \
    if ((LWO) == 4) SA__GT1(bo, q3, f3); \
    SA__UPD1(k_->out, q0, bo, g, (N), 0); \
    SA__UPD1(k_->out + S, q1, bo, g, (N), 1); \
    if ((LWO) == 4) { \
        SA__UPD1(k_->out + 2 * S, q2, bo, g, (N), 2); \
        SA__ST(k_->out + 3 * S, SA__NEWBIT(_mm_xor_si128(q3, bo), g, (N), 3)); \
    } else { \
        SA__ST(k_->out + 2 * S, SA__NEWBIT(_mm_xor_si128(q2, bo), g, (N), 2)); \
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
     * ranks above them move down one. */ \
    SA__ST(k_->in, _mm_xor_si128(p0, _mm_and_si128(e, SA__FLIP(gt, p0, x, (M), 0)))); \
    bo = _mm_andnot_si128(p0, gt); \
    SA__ST(k_->in + S, _mm_xor_si128(p1, _mm_and_si128(e, SA__FLIP(bo, p1, x, (M), 1)))); \
    bo = _mm_andnot_si128(p1, bo); \
    SA__ST(k_->in + 2 * S, _mm_xor_si128(p2, _mm_and_si128(e, SA__FLIP(bo, p2, x, (M), 2)))); \
    /* The matching. */ \
    sa__store_i16(mt->output_of, _mm_or_si128(sa__onehot_index8_sse2(x), ne_e)); \
    t = (LWO) == 4 ? sa__bit_index16_sse2(g) : sa__bit_index8_sse2(g); \
    sa__store_i16(mt->input_of, t); \
    outs = (unsigned)_mm_movemask_epi8(t) ^ 0xFFFFu; \
    mt->outputs[0] = outs; \
    mt->inputs[0] = (unsigned)_mm_movemask_epi8(e); \
    mt->size = sa__bits8(outs); \
    return mt->size; \
}
#if SA__FAST_MAX >= 16
SA_API int sa__spaa_reg_sse2_3(sa_switch *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(a->num_inputs, a->num_outputs, 3)
SA_API int sa__spaa_reg_sse2_4(sa_switch *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_REG_BODY(a->num_inputs, a->num_outputs, 4)
#endif
#undef SA__SEL1
#undef SA__GT1
#undef SA__UPD1
#undef SA__FLIP
#undef SA__NEWBIT

#if SA__FAST_MAX >= 16
/* ---- SPAA up to 16 inputs x 9..16 outputs, in SSE2 registers: equals
 * sa__spaa without priorities or read-port views.  The input bank is 16
 * lanes of 16 bits, two registers per plane (inputs 0-7, 8-15); the output
 * bank 16 lanes of 8 bits (n <= 8, one register per plane) or of 16 bits
 * (two registers per plane). */

/* Bits 0..15 of e (its low two bytes) spread over the 16 bytes: all ones
 * in byte i when bit i is set. */
SA_API __m128i sa__expand_low16_sse2(__m128i e) {
    const __m128i sel = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    e = _mm_unpacklo_epi8(e, e);
    e = _mm_unpacklo_epi16(e, e);
    e = _mm_unpacklo_epi32(e, e);
    return _mm_cmpeq_epi8(_mm_and_si128(e, sel), sel);
}

/* Bank select on the lanes x of one register, its planes in p[0..lw):
 * keeps each lane's least recently selected candidate (as SA__SEL1), and
 * k[b] all ones in a lane whose winner has rank bit b (or that is empty). */
SA_API __m128i sa__select_regs_sse2(const __m128i *p, __m128i x, __m128i *k, int lw) {
    int b;
    for (b = lw - 1; b >= 0; b--) {
        __m128i z = _mm_andnot_si128(p[b], x);
        k[b] = sa__lanes_zero_sse2(z, lw);
        x = _mm_or_si128(z, _mm_and_si128(k[b], x));
    }
    return x;
}

/* Bank update of one register of lanes, planes p[0..lw), winners g
 * (one-hot lanes) with rank bits k: the ranks above the winner's move down
 * one, the winner takes size - 1. */
SA_API void sa__update_regs_sse2(__m128i *p, __m128i g, const __m128i *k, int lw, int size) {
    __m128i eq = _mm_andnot_si128(sa__lanes_zero_sse2(g, lw), _mm_set1_epi8(-1));
    __m128i gt = _mm_setzero_si128(), bo;
    int b;
    for (b = lw - 1; b >= 0; b--) {
        gt = _mm_or_si128(gt, _mm_and_si128(eq, _mm_andnot_si128(k[b], p[b])));
        if (b > 0) eq = _mm_andnot_si128(_mm_xor_si128(p[b], k[b]), eq);
    }
    bo = gt;
    for (b = 0; b < lw; b++) {
        __m128i x = _mm_xor_si128(p[b], bo);
        bo = _mm_andnot_si128(p[b], bo);
        p[b] = ((size - 1) >> b) & 1 ? _mm_or_si128(x, g) : _mm_andnot_si128(g, x);
    }
}

/* m[t] = bit t of every byte of x, as a 16-bit mask (movemask after 7 - t
 * doublings). */
SA_API void sa__byte_bit_masks_sse2(__m128i x, uint64_t *m) {
    int t;
    for (t = 7; t >= 0; t--) {
        m[t] = (unsigned)_mm_movemask_epi8(x);
        x = _mm_add_epi8(x, x);
    }
}

/* Rows req[0..8) (low 16 bits) as eight 16-bit lanes (biased by 2^15 so
 * that the signed saturating pack is exact). */
SA_API __m128i sa__rows8_16_sse2(const uint64_t *req) {
    const __m128i lo16 = _mm_set1_epi64x(0xFFFF), bias = _mm_set1_epi32(0x8000);
    __m128i r[4];
    int h;
    for (h = 0; h < 4; h++)
        r[h] = _mm_sub_epi32(_mm_shuffle_epi32(_mm_and_si128(SA__LD(req + 2 * h), lo16), _MM_SHUFFLE(3, 1, 2, 0)),
                             bias);
    return _mm_add_epi16(_mm_packs_epi32(_mm_unpacklo_epi64(r[0], r[1]), _mm_unpacklo_epi64(r[2], r[3])),
                         _mm_set1_epi16(-0x8000));
}

/* The whole allocation; LWO is the output bank's lane width (3 or 4). */
#define SA__SPAA_MID_BODY(LWO) { \
    const int S = SA__SPAA_WORDS; \
    sa__banks *k_ = SA__BANKS(a); \
    int n = a->num_inputs, i; \
    __m128i pa[4], pb[4], qa[4], qb[4], ka[4], kb[4], koa[4], kob[4]; \
    __m128i xa, xb, ca, cb, ga, gb, h, e, gia, gib; \
    uint64_t w[4], mc[16]; \
    unsigned gbits, outs; \
    for (i = 0; i < 4; i++) { \
        pa[i] = SA__LD(k_->in + i * S); \
        pb[i] = SA__LD(k_->in + i * S + 2); \
        qa[i] = qb[i] = _mm_setzero_si128(); \
    } \
    for (i = 0; i < (LWO); i++) { \
        qa[i] = SA__LD(k_->out + i * S); \
        if ((LWO) == 4) qb[i] = SA__LD(k_->out + i * S + 2); \
    } \
    /* Step 1: the rows in 16-bit lanes (bits at or above m dropped by the \
     * connections), nominations. */ \
    if (n == 16) { \
        xa = sa__rows8_16_sse2(req); \
        xb = sa__rows8_16_sse2(req + 8); \
    } else { \
        w[0] = w[1] = w[2] = w[3] = 0; \
        for (i = 0; i < n; i++) w[i >> 2] |= (req[i] & 0xFFFF) << ((i & 3) << 4); \
        xa = _mm_set_epi64x((long long)w[1], (long long)w[0]); \
        xb = _mm_set_epi64x((long long)w[3], (long long)w[2]); \
    } \
    xa = _mm_and_si128(xa, SA__LD(k_->connect)); \
    xb = _mm_and_si128(xb, SA__LD(k_->connect + 2)); \
    xa = sa__select_regs_sse2(pa, xa, ka, 4); \
    xb = sa__select_regs_sse2(pb, xb, kb, 4); \
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
    if (a->rotary && a->network_inputs[0]) { \
        __m128i nw = (LWO) == 4 ? _mm_set1_epi16((short)a->network_inputs[0]) \
                                : _mm_set1_epi8((char)a->network_inputs[0]); \
        __m128i cn = _mm_and_si128(ca, nw); \
        ca = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), ca)); \
        cn = _mm_and_si128(cb, nw); \
        cb = _mm_or_si128(cn, _mm_and_si128(sa__lanes_zero_sse2(cn, (LWO)), cb)); \
    } \
    /* Step 2: grants, recorded in the output bank. */ \
    ga = sa__select_regs_sse2(qa, ca, koa, (LWO)); \
    sa__update_regs_sse2(qa, ga, koa, (LWO), n); \
    gb = _mm_setzero_si128(); \
    if ((LWO) == 4) { \
        gb = sa__select_regs_sse2(qb, cb, kob, (LWO)); \
        sa__update_regs_sse2(qb, gb, kob, (LWO), n); \
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
    sa__update_regs_sse2(pa, gia, ka, 4, a->num_outputs); \
    sa__update_regs_sse2(pb, gib, kb, 4, a->num_outputs); \
    for (i = 0; i < 4; i++) { \
        SA__ST(k_->in + i * S, pa[i]); \
        SA__ST(k_->in + i * S + 2, pb[i]); \
    } \
    for (i = 0; i < (LWO); i++) { \
        SA__ST(k_->out + i * S, qa[i]); \
        if ((LWO) == 4) SA__ST(k_->out + i * S + 2, qb[i]); \
    } \
    /* The matching. */ \
    sa__store_i16(mt->output_of, _mm_unpacklo_epi64(sa__bit_index16_sse2(gia), sa__bit_index16_sse2(gib))); \
    if ((LWO) == 4) { \
        sa__store_i16(mt->input_of, _mm_unpacklo_epi64(sa__bit_index16_sse2(ga), sa__bit_index16_sse2(gb))); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(ga, _mm_setzero_si128()), \
                                                            _mm_cmpeq_epi16(gb, _mm_setzero_si128()))) & 0xFFFFu; \
    } else { \
        sa__store_i16(mt->input_of, sa__bit_index8_sse2(ga)); \
        outs = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(ga, _mm_setzero_si128())) & 0xFFFFu; \
    } \
    mt->inputs[0] = gbits; \
    mt->outputs[0] = outs; \
    mt->size = sa__popcount64(gbits); \
    return mt->size; \
}
SA_API int sa__spaa_mid_sse2_3(sa_switch *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_MID_BODY(3)
SA_API int sa__spaa_mid_sse2_4(sa_switch *a, const uint64_t *req, sa_match *mt)
    SA__SPAA_MID_BODY(4)
#undef SA__SPAA_MID_BODY
#endif

#if SA__FAST_MAX > 32
/* ---- SPAA from 33 to 64 inputs and outputs (64-bit lanes: arbiter r is
 * word r of every plane): equals sa__spaa without priorities or read-port
 * views.  The input bank selects four arbiters at a time straight from the
 * requests; the output bank selects and updates only at the nominated
 * outputs, two at a time, and the input bank updates only at the granted
 * inputs. */

/* Plane b of a pair of arbiters (words a and b) as one register, and back. */
SA_API __m128i sa__ld_pair(const uint64_t *a, const uint64_t *b) {
    return _mm_castps_si128(_mm_loadh_pi(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)a)),
                                         (const __m64 *)(const void *)b));
}
SA_API void sa__st_pair(uint64_t *a, uint64_t *b, __m128i v) {
    _mm_storel_epi64((__m128i *)(void *)a, v);
    _mm_storeh_pi((__m64 *)(void *)b, _mm_castsi128_ps(v));
}

/* One plane of the input bank's select of two pairs (x, x2) at word w;
 * the winners' rank bits (all ones for 1) go to k. */
#define SA__SEL6_2PLANE(b) \
    z = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w), x); \
    z2 = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w + 2), x2); \
    e = sa__lanes_zero_sse2(z, 6); \
    e2 = sa__lanes_zero_sse2(z2, 6); \
    x = _mm_or_si128(z, _mm_and_si128(e, x)); \
    x2 = _mm_or_si128(z2, _mm_and_si128(e2, x2)); \
    SA__ST(k + (b) * SA__SPAA_WORDS + w, e); \
    SA__ST(k + (b) * SA__SPAA_WORDS + w + 2, e2);
/* The same for the last pair alone. */
#define SA__SEL6_PLANE(b) \
    z = _mm_andnot_si128(SA__LD(plane + (b) * SA__SPAA_WORDS + w), x); \
    e = sa__lanes_zero_sse2(z, 6); \
    x = _mm_or_si128(z, _mm_and_si128(e, x)); \
    SA__ST(k + (b) * SA__SPAA_WORDS + w, e);

/* Step 1 for every input: c[i] receives input i's nomination (one-hot, or
 * 0), k the nominations' rank bits (plane b at k + b * SA__SPAA_WORDS). */
SA_API void sa__spaa_select6_sse2(const sa_switch *a, const uint64_t *req, uint64_t *c, uint64_t *k) {
    const uint64_t *plane = SA__BANKS(a)->in;
    int w = 0, n = a->num_inputs, words = (n + 1) & ~1;
    __m128i x, x2, z, e, z2, e2;
    for (; w + 4 <= n; w += 4) {
        x = _mm_and_si128(SA__LD(req + w), SA__LD(a->connect + w));
        x2 = _mm_and_si128(SA__LD(req + w + 2), SA__LD(a->connect + w + 2));
        SA__SEL6_2PLANE(5) SA__SEL6_2PLANE(4) SA__SEL6_2PLANE(3)
        SA__SEL6_2PLANE(2) SA__SEL6_2PLANE(1) SA__SEL6_2PLANE(0)
        SA__ST(c + w, x);
        SA__ST(c + w + 2, x2);
    }
    for (; w < words; w += 2) {
        c[w] = w < n ? req[w] & a->connect[w] : 0;
        c[w + 1] = w + 1 < n ? req[w + 1] & a->connect[w + 1] : 0;
        x = SA__LD(c + w);
        SA__SEL6_PLANE(5) SA__SEL6_PLANE(4) SA__SEL6_PLANE(3)
        SA__SEL6_PLANE(2) SA__SEL6_PLANE(1) SA__SEL6_PLANE(0)
        SA__ST(c + w, x);
    }
}
#undef SA__SEL6_2PLANE
#undef SA__SEL6_PLANE

/* The output bank's candidates: col[j] gets bit i for every c[i] = 1 << j
 * (i < n); returns the nominated outputs. */
SA_API uint64_t sa__spaa_columns6(const uint64_t *c, int n, uint64_t *col) {
    uint64_t outs = 0, bit = 1;
    int i;
    memset(col, 0, SA__SPAA_WORDS * sizeof(uint64_t));
    for (i = 0; i < n; i++, bit <<= 1) {
        uint64_t x = c[i];
        outs |= x;
        /* x 0: ORs 0 into the last word */
        col[sa__ctz64(x | ((uint64_t)1 << (SA__SPAA_WORDS - 1)))] |= bit & (0 - (uint64_t)(x != 0));
    }
    return outs;
}

/* All ones in every zero 64-bit lane of x. */
#define SA__ZERO64(x) sa__lanes_zero_sse2((x), 6)
/* Select in a pair of output arbiters: plane b of the pair (pv, stored in
 * pout for the update), the winners' rank bits stored in kout. */
#define SA__L6_SELK(b) \
    pv = sa__ld_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS); \
    SA__ST(pout + (b) * (SA__FAST_MAX + 2) + t, pv); \
    z = _mm_andnot_si128(pv, x); \
    e = SA__ZERO64(z); \
    x = _mm_or_si128(z, _mm_and_si128(e, x)); \
    SA__ST(kout + (b) * (SA__FAST_MAX + 2) + t, e);
/* Bottom up, gt over rank bits 0..b: the requesters ranked behind the
 * winner whose rank bits are kb (from the saved planes and bits, or from
 * the bank and k). */
#define SA__L6_CMPC(b) \
    p##b = SA__LD(pout + (b) * (SA__FAST_MAX + 2) + s); \
    kb = SA__LD(kout + (b) * (SA__FAST_MAX + 2) + s); \
    gt = _mm_or_si128(_mm_and_si128(gt, p##b), _mm_andnot_si128(kb, _mm_or_si128(gt, p##b)));
#define SA__L6_CMP(b) \
    p##b = sa__ld_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS); \
    kb = sa__ld_pair(k + ra + (b) * SA__SPAA_WORDS, k + rb + (b) * SA__SPAA_WORDS); \
    gt = _mm_or_si128(_mm_and_si128(gt, p##b), _mm_andnot_si128(kb, _mm_or_si128(gt, p##b)));
/* The update of plane b: the borrow, and the winners' new rank SZ - 1. */
#define SA__L6_DEC(b, SZ) \
    y = _mm_xor_si128(p##b, bo); \
    bo = _mm_andnot_si128(p##b, bo); \
    sa__st_pair(pa + (b) * SA__SPAA_WORDS, pb + (b) * SA__SPAA_WORDS, \
                (((SZ) - 1) >> (b)) & 1 ? _mm_or_si128(y, x) : _mm_andnot_si128(x, y));

/* Steps 2-3 over the nominated outputs outs, two at a time and
 * software-pipelined: the grant (select) of pair t, a long dependency
 * chain, beside the independent work of pair t - 2 (its updates in both
 * banks and the matching).  kin: the nominations' rank bits.  SZO, SZI:
 * num_inputs and num_outputs (constants in the 64 x 64 instance). */
#define SA__GRANT6_BODY(SZO, SZI) { \
    sa__banks *k_ = SA__BANKS(a); \
    uint64_t bits, ins = 0, kout[6 * (SA__FAST_MAX + 2)], xs[SA__FAST_MAX + 2]; \
    uint64_t pout[6 * (SA__FAST_MAX + 2)]; \
    uint8_t orow[SA__FAST_MAX + 2]; \
    const __m128i pref = _mm_set1_epi64x((long long)a->network_inputs[0]); \
    int t, count = 0, rot = a->rotary && a->network_inputs[0] != 0; \
    sa__match_clear_fast(a, match); \
    orow[0] = 0; \
    for (bits = outs; bits != 0; bits &= bits - 1) orow[count++] = (uint8_t)sa__ctz64(bits); \
    orow[count] = orow[count - (count > 0)]; /* an odd count: the last with itself */ \
    for (t = 0; t < count + 2; t += 2) { \
        if (t < count) { \
            int ra = orow[t], rb = orow[t + 1]; \
            const uint64_t *pa = k_->out + ra, *pb = k_->out + rb; \
            __m128i x = sa__ld_pair(col + ra, col + rb), z, e, pv; \
            if (rot) { \
                __m128i xp = _mm_and_si128(x, pref); \
                x = _mm_or_si128(xp, _mm_and_si128(SA__ZERO64(xp), x)); \
            } \
            SA__L6_SELK(5) SA__L6_SELK(4) SA__L6_SELK(3) SA__L6_SELK(2) SA__L6_SELK(1) SA__L6_SELK(0) \
            SA__ST(xs + t, x); \
        } \
        if (t > 0) { \
            uint64_t ga = xs[t - 2], gb = xs[t - 1]; \
            int ja = orow[t - 2], jb = orow[t - 1], ia = sa__ctz64(ga), ib = sa__ctz64(gb); \
            { \
                int s = t - 2; \
                uint64_t *pa = k_->out + ja, *pb = k_->out + jb; \
                __m128i p0, p1, p2, p3, p4, p5, kb, y, bo, gt = _mm_setzero_si128(); \
                __m128i x = SA__LD(xs + s); \
                SA__L6_CMPC(0) SA__L6_CMPC(1) SA__L6_CMPC(2) SA__L6_CMPC(3) SA__L6_CMPC(4) SA__L6_CMPC(5) \
                bo = gt; \
                SA__L6_DEC(0, SZO) SA__L6_DEC(1, SZO) SA__L6_DEC(2, SZO) \
                SA__L6_DEC(3, SZO) SA__L6_DEC(4, SZO) SA__L6_DEC(5, SZO) \
            } \
            match->input_of[ja] = (int16_t)ia; \
            match->output_of[ia] = (int16_t)ja; \
            match->input_of[jb] = (int16_t)ib; \
            match->output_of[ib] = (int16_t)jb; \
            ins |= ga | gb; \
            { \
                int ra = ia, rb = ib; \
                const uint64_t *k = kin; \
                uint64_t *pa = k_->in + ra, *pb = k_->in + rb; \
                __m128i p0, p1, p2, p3, p4, p5, kb, y, bo, gt = _mm_setzero_si128(); \
                __m128i x = _mm_set_epi64x((long long)((uint64_t)1 << jb), (long long)((uint64_t)1 << ja)); \
                SA__L6_CMP(0) SA__L6_CMP(1) SA__L6_CMP(2) SA__L6_CMP(3) SA__L6_CMP(4) SA__L6_CMP(5) \
                bo = gt; \
                SA__L6_DEC(0, SZI) SA__L6_DEC(1, SZI) SA__L6_DEC(2, SZI) \
                SA__L6_DEC(3, SZI) SA__L6_DEC(4, SZI) SA__L6_DEC(5, SZI) \
            } \
        } \
    } \
    match->inputs[0] = ins; \
    match->outputs[0] = outs; \
    match->size = count; \
    return count; \
}
SA_API int sa__spaa_grant6_any_sse2(sa_switch *a, const uint64_t *col, uint64_t outs,
                                    const uint64_t *kin, sa_match *match)
    SA__GRANT6_BODY(a->num_inputs, a->num_outputs)
#undef SA__L6_SELK
#undef SA__L6_CMPC
#undef SA__L6_CMP
#undef SA__L6_DEC
#undef SA__ZERO64

SA_API int sa__spaa6_sse2(sa_switch *a, const uint64_t *req, sa_match *match) {
    uint64_t nom[SA__SPAA_WORDS], col[SA__SPAA_WORDS], kin[SA__SPAA_PLANES * SA__SPAA_WORDS], outs;
    sa__spaa_select6_sse2(a, req, nom, kin);
    outs = sa__spaa_columns6(nom, a->num_inputs, col);
    return sa__spaa_grant6_any_sse2(a, col, outs, kin, match);
}
#endif /* SA__FAST_MAX > 32 */

/* ---- Shared pieces of the kernels below: bit-matrix transposes, the
 * request matrix by columns, and branch-free selections. */

/* Hide a value from the optimiser (GCC and clang), so that it cannot turn
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

/* sa__first_from without a branch (0 when x is 0). */
SA_API int sa__first_from_bf(uint64_t x, int p) {
    uint64_t h = x & (~(uint64_t)0 << p);
    h |= x & ~sa__mask_if(h != 0);
    return sa__ctz64(h | (uint64_t)(h == 0));
}

/* Transpose the 8 x 8 bit matrix held in one word (row r in byte r): bit
 * 8r + c moves to bit 8c + r. */
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

/* One round of the block-swap transpose of a t x t bit matrix (t = 16, 32
 * or 64), J the block size (J >= 2): rows k and k + J exchange their J x J
 * blocks, two row pairs per instruction. */
#define SA__TRANSPOSE_ROUND(a, t, J, M) {                                           \
        int b_, k_;                                                                 \
        const __m128i m_ = _mm_set1_epi64x((long long)(M));                         \
        for (b_ = 0; b_ < (t); b_ += 2 * (J))                                       \
            for (k_ = b_; k_ < b_ + (J); k_ += 2) {                                 \
                __m128i u_ = SA__LD((a) + k_), v_ = SA__LD((a) + k_ + (J)), x_;     \
                x_ = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(u_, J), v_), m_);  \
                SA__ST((a) + k_, _mm_xor_si128(u_, _mm_slli_epi64(x_, J)));         \
                SA__ST((a) + k_ + (J), _mm_xor_si128(v_, x_));                      \
            }                                                                       \
    }

/* Transpose the t x t bit matrix a in place (row r = a[r], column c = bit
 * c), t a power of two in 1..64. */
SA_API void sa__transpose(uint64_t *a, int t) {
    __m128i m, u, v, x, lo, hi;
    int k;
    if (t <= 8) {
        uint64_t w = 0;
        for (k = 0; k < t; k++) w |= a[k] << (8 * k);
        w = sa__transpose8(w);
        for (k = 0; k < t; k++) a[k] = (w >> (8 * k)) & 0xFF;
        return;
    }
    if (t == 64) SA__TRANSPOSE_ROUND(a, 64, 32, 0x00000000FFFFFFFFull)
    if (t >= 32) SA__TRANSPOSE_ROUND(a, t, 16, 0x0000FFFF0000FFFFull)
    SA__TRANSPOSE_ROUND(a, t, 8, 0x00FF00FF00FF00FFull)
    SA__TRANSPOSE_ROUND(a, t, 4, 0x0F0F0F0F0F0F0F0Full)
    SA__TRANSPOSE_ROUND(a, t, 2, 0x3333333333333333ull)
    m = _mm_set1_epi64x(0x5555555555555555ll);
    for (k = 0; k < t; k += 4) {
        u = SA__LD(a + k);
        v = SA__LD(a + k + 2);
        lo = _mm_unpacklo_epi64(u, v); /* rows k, k+2 */
        hi = _mm_unpackhi_epi64(u, v); /* rows k+1, k+3 */
        x = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64(lo, 1), hi), m);
        lo = _mm_xor_si128(lo, _mm_slli_epi64(x, 1));
        hi = _mm_xor_si128(hi, x);
        SA__ST(a + k, _mm_unpacklo_epi64(lo, hi));
        SA__ST(a + k + 2, _mm_unpackhi_epi64(lo, hi));
    }
}
#undef SA__TRANSPOSE_ROUND

/* Smallest power of two >= n (n in 1..64). */
SA_API int sa__pow2_at_least(int n) {
    int t = 1;
    while (t < n) t <<= 1;
    return t;
}

/* The connected requests by columns: bit i of col[j] set when input i
 * requests output j on a connected cell.  col receives max(n, m) rounded
 * up to a power of two entries, those at and above m zero. */
SA_API void sa__columns(const sa_switch *a, const uint64_t *req, uint64_t *col) {
    int i, n = sa__n(a), m = sa__m(a), t = sa__pow2_at_least(n > m ? n : m);
    /* (whole 16-byte stores, which the transpose's 16-byte loads can take
     * straight from the store buffer) */
    for (i = 0; i + 2 <= n; i += 2) SA__ST(col + i, _mm_and_si128(SA__LD(req + i), SA__LD(a->connect + i)));
    if (i < n) {
        SA__ST(col + i, _mm_and_si128(_mm_loadl_epi64((const __m128i *)(const void *)(req + i)),
                                      _mm_loadl_epi64((const __m128i *)(const void *)(a->connect + i))));
        i += 2;
    }
    for (; i < t; i += 2) SA__ST(col + i, _mm_setzero_si128());
    sa__transpose(col, t);
}

/* ---- iSLIP-k and separable output-first (>>islip: sa__islip and
 * sa__separable_output, without read-port views). */

/* Steps 2-3 on the request columns (the reference's sa__grant_accept
 * without twins): grants and accepts are word operations per output and
 * per input. */
SA_API int sa__grant_accept_cols(sa_switch *a, const uint64_t *col, int rrm, int first, sa_match *mt) {
    uint64_t grants[SA__FAST_MAX], granted = 0, o, g;
    uint64_t free_in = sa__low_mask(a->num_inputs) & ~mt->inputs[0];
    int before = mt->size, n = a->num_inputs, m = a->num_outputs;
    memset(grants, 0, (size_t)n * sizeof grants[0]);
    for (o = sa__low_mask(m) & ~mt->outputs[0]; o; o &= o - 1) {
        int j = sa__ctz64(o), i;
        uint64_t c = col[j] & free_in;
        if (c == 0) continue;
        i = sa__first_from(c, a->out_ptr[j]);
        if (rrm) a->out_ptr[j] = (uint16_t)(i + 1 == n ? 0 : i + 1);
        granted |= (uint64_t)1 << i;
        grants[i] |= (uint64_t)1 << j;
    }
    for (g = granted; g; g &= g - 1) {
        int i = sa__ctz64(g), j = sa__first_from(grants[i], a->in_ptr[i]);
        sa__match_add(mt, i, j);
        if (rrm || first) a->in_ptr[i] = (uint16_t)(j + 1 == m ? 0 : j + 1);
        if (!rrm && first) a->out_ptr[j] = (uint16_t)(i + 1 == n ? 0 : i + 1);
    }
    return mt->size - before;
}

SA_API int sa__islip_cols(sa_switch *a, const uint64_t *req, int rrm, int k, sa_match *mt) {
    uint64_t col[64];
    int it;
    sa__columns(a, req, col);
    sa__match_clear_fast(a, mt);
    for (it = 0; k < 0 || it < k; it++)
        if (sa__grant_accept_cols(a, col, rrm, it == 0, mt) == 0) break;
    return mt->size;
}

#if SA__FAST_MAX >= 16
/* Up to 16 inputs x 8 outputs the request matrix is one vector, row i in
 * byte i, and every arbiter of a step works at once without a branch on
 * the requests: a grant is, per column, the first requesting row at or
 * after the output's pointer (rows at or after it if any, then an
 * exclusive prefix OR); an accept is, per row, the lowest grant at or
 * after the input's pointer, else its lowest grant. */

/* Every byte: the OR of all 16 bytes (the nonempty columns). */
SA_API __m128i sa__bytes_or_all(__m128i x) {
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xB1));
    x = _mm_or_si128(x, _mm_or_si128(_mm_srli_epi32(x, 16), _mm_slli_epi32(x, 16)));
    return _mm_or_si128(x, _mm_or_si128(_mm_srli_epi16(x, 8), _mm_slli_epi16(x, 8)));
}

/* Byte i: the OR of bytes 0..i. */
SA_API __m128i sa__bytes_prefix_or(__m128i x) {
    x = _mm_or_si128(x, _mm_slli_si128(x, 1));
    x = _mm_or_si128(x, _mm_slli_si128(x, 2));
    x = _mm_or_si128(x, _mm_slli_si128(x, 4));
    return _mm_or_si128(x, _mm_slli_si128(x, 8));
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
 * column j (bit i: row i). */
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
 * i >= out_ptr[j]. */
SA_API __m128i sa__pointer_rows(const uint16_t *out_ptr) {
    __m128i o = _mm_packus_epi16(SA__LD(out_ptr), _mm_setzero_si128()), v = _mm_setzero_si128();
    o = _mm_unpacklo_epi64(o, o);
#define SA__ROWS(k) v = _mm_or_si128(v, _mm_slli_si128(_mm_cvtsi32_si128(_mm_movemask_epi8(_mm_cmpgt_epi8( \
        _mm_set_epi8(k + 9, k + 9, k + 9, k + 9, k + 9, k + 9, k + 9, k + 9,                      \
                     k + 1, k + 1, k + 1, k + 1, k + 1, k + 1, k + 1, k + 1), o))), 2 * (k)))
    SA__ROWS(0); SA__ROWS(1); SA__ROWS(2); SA__ROWS(3);
    SA__ROWS(4); SA__ROWS(5); SA__ROWS(6); SA__ROWS(7);
#undef SA__ROWS
    return _mm_packus_epi16(_mm_and_si128(v, _mm_set1_epi16(0xFF)), _mm_srli_epi16(v, 8));
}

/* Grant: per column, the first requesting row of b at or after the
 * output's pointer. */
SA_API __m128i sa__grant16x8(const sa_switch *a, __m128i b) {
    __m128i h = _mm_and_si128(b, sa__pointer_rows(a->out_ptr));
    __m128i s = _mm_or_si128(h, _mm_andnot_si128(sa__bytes_or_all(h), b));
    return _mm_andnot_si128(_mm_slli_si128(sa__bytes_prefix_or(s), 1), s);
}

/* Accept: per row, the lowest grant of g at or after the input's pointer
 * (ip: the pointers as bytes), else its lowest grant. */
SA_API __m128i sa__accept16x8(__m128i g, __m128i ip) {
    const __m128i z = _mm_setzero_si128();
    __m128i h = _mm_and_si128(g, sa__bytes_from(ip));
    __m128i s = _mm_or_si128(h, _mm_and_si128(_mm_cmpeq_epi8(h, z), g));
    return _mm_and_si128(s, _mm_sub_epi8(z, s));
}

/* Input pointers past each row's accepted grant ac (bits: its index). */
SA_API void sa__in_ptr_update16x8(sa_switch *a, __m128i ac, __m128i bits, __m128i ip) {
    __m128i keep = _mm_cmpeq_epi8(ac, _mm_setzero_si128());
    __m128i nx = _mm_add_epi8(bits, _mm_set1_epi8(1));
    nx = _mm_andnot_si128(_mm_cmpeq_epi8(nx, _mm_set1_epi8((char)a->num_outputs)), nx);
    nx = _mm_or_si128(_mm_and_si128(keep, ip), _mm_andnot_si128(keep, nx));
    SA__ST(a->in_ptr, _mm_unpacklo_epi8(nx, _mm_setzero_si128()));
    SA__ST(a->in_ptr + 8, _mm_unpackhi_epi8(nx, _mm_setzero_si128()));
}

/* Output pointers past each column's winner (ucol: the winner's bit per
 * 16-bit lane, upd: its index); columns without one keep theirs. */
SA_API void sa__out_ptr_update16x8(sa_switch *a, __m128i ucol, __m128i upd) {
    __m128i keep = _mm_cmpeq_epi16(ucol, _mm_setzero_si128());
    upd = _mm_add_epi16(upd, _mm_set1_epi16(1));
    upd = _mm_andnot_si128(_mm_cmpeq_epi16(upd, _mm_set1_epi16((short)a->num_inputs)), upd);
    SA__ST(a->out_ptr, _mm_or_si128(_mm_andnot_si128(keep, upd), _mm_and_si128(keep, SA__LD(a->out_ptr))));
}

/* Write the matching: acc (one accepted bit per row), bits (its index per
 * row), col and lanes (the matched row's bit and index per column). */
SA_API int sa__write_match16x8(sa_match *mt, __m128i acc, __m128i bits, __m128i col, __m128i lanes) {
    const __m128i z = _mm_setzero_si128();
    __m128i cnone = _mm_cmpeq_epi16(col, z), none = _mm_cmpeq_epi8(acc, z), cnt;
    SA__ST(mt->input_of, _mm_or_si128(lanes, cnone));
    sa__store_i16(mt->output_of, _mm_or_si128(bits, none));
    mt->inputs[0] = ~(unsigned)_mm_movemask_epi8(none) & 0xFFFFu;
    mt->outputs[0] = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(cnone, z)) & 0xFFu;
    cnt = _mm_sad_epu8(_mm_andnot_si128(none, _mm_set1_epi8(1)), z);
    mt->size = _mm_cvtsi128_si32(_mm_add_epi32(cnt, _mm_unpackhi_epi64(cnt, cnt)));
    return mt->size;
}

/* The requests of up to 16 inputs, connected cells only, one byte each. */
SA_API __m128i sa__req_bytes16(const sa_switch *a, const uint64_t *req) {
    return _mm_and_si128(sa__pack_bytes16_sse2(req, a->num_inputs), SA__LD(a->fast));
}

/* iSLIP-k (rrm 0) and separable output-first (rrm 1, one iteration). */
SA_API int sa__islip16x8_sse2(sa_switch *a, const uint64_t *req, int rrm, int iterations, sa_match *mt) {
    const __m128i z = _mm_setzero_si128();
    __m128i b = sa__req_bytes16(a, req), acc = z, col = z, lanes = z, bits = z;
    int it, later = 0;
    for (it = 0; iterations < 0 || it < iterations; it++) {
        __m128i g = sa__grant16x8(a, b), ac, ip;
        ip = _mm_packus_epi16(SA__LD(a->in_ptr), SA__LD(a->in_ptr + 8));
        ac = sa__accept16x8(g, ip);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(ac, z)) == 0xFFFF) break; /* no new match */
        if (it == 0) {
            bits = sa__bit_index8_sse2(ac);
            bits = _mm_andnot_si128(_mm_cmpeq_epi8(ac, z), bits);
            sa__in_ptr_update16x8(a, ac, bits, ip);
            col = sa__bytes_to_columns(ac);
            lanes = sa__lanes_bit_index(col);
            if (rrm) {
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
        /* drop the matched rows and columns; none left, no new match */
        b = _mm_andnot_si128(sa__bytes_or_all(acc), _mm_and_si128(b, _mm_cmpeq_epi8(acc, z)));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(b, z)) == 0xFFFF) break;
    }
    if (later) {
        col = sa__bytes_to_columns(acc);
        lanes = sa__lanes_bit_index(col);
    }
    bits = _mm_andnot_si128(_mm_cmpeq_epi8(acc, z), sa__bit_index8_sse2(acc));
    return sa__write_match16x8(mt, acc, bits, col, lanes);
}
#endif /* SA__FAST_MAX >= 16 */

/* Whether the connected requests are none. */
SA_API int sa__fast_empty(const sa_switch *a, const uint64_t *req) {
    uint64_t any = 0;
    int i;
    for (i = 0; i < a->num_inputs; i++) any |= req[i] & a->connect[i];
    return any == 0;
}

/* ---- The wave-front arbiter, WFA-base and WFA-rotary (>>wfa: sa__wfa
 * without read-port views or priorities).  The same row-by-row sweep as
 * the reference, with each row and the set of taken columns in one word. */

/* The rows of `rows` in cyclic order from r, each taking its first free
 * requested column at or after c (cyclically; taken: the columns taken),
 * written into mt's entries; returns the rows that took one.  A row
 * without a free request is skipped by a branch: at the densities
 * simulators see it is well predicted, and it costs fewer operations than
 * a branch-free row (measured with bench_alloc). */
SA_API uint64_t sa__wfa_word_rows(const sa_switch *a, const uint64_t *req, uint64_t rows, int r, int c,
                                  uint64_t *taken, sa_match *mt) {
    const uint64_t *connect = a->connect;
    uint64_t x, part[2], t = *taken, from = ~(uint64_t)0 << c, got = 0;
    int k;
    part[0] = rows & ~sa__low_mask(r); /* rows r..n-1, then 0..r-1 */
    part[1] = rows & sa__low_mask(r);
    for (k = 0; k < 2; k++)
        for (x = part[k]; x; x &= x - 1) {
            int i = sa__ctz64(x), j;
            uint64_t v = req[i] & connect[i] & ~t, h = v & from;
            if (v == 0) continue;
            j = sa__ctz64(h ? h : v);
            t |= (uint64_t)1 << j;
            got |= (uint64_t)1 << i;
            mt->output_of[i] = (int16_t)j;
            mt->input_of[j] = (int16_t)i;
        }
    *taken = t;
    return got;
}

/* With fewer columns than rows: column by column, in the cyclic order
 * from c, each column granting its first free requesting row in the row
 * order (the rows of the class `first` from r, then the others of it, then
 * the other rows from r, then the others; without the Rotary Rule `first`
 * is every row).  A cell is granted when it is requested and no cell
 * before it in its row or in its column is; row-major and column-major
 * evaluation both give that, so this makes the reference's grants in m
 * steps instead of n.  Returns the rows that took one (col_of[i]: its
 * column; col_of has 65 entries); *taken gets the columns taken. */
SA_API uint64_t sa__wfa_word_cols(const sa_switch *a, const uint64_t *req, uint64_t first, int r, int c,
                                  uint64_t *taken, int8_t *col_of) {
    uint64_t col[64], all = sa__low_mask(a->num_inputs), hi = all & ~sa__low_mask(r), fr = all, outs = 0;
    uint64_t fh = first & hi, oh = hi & ~first;
    int k, j = c, m = a->num_outputs;
    sa__columns(a, req, col);
    for (k = 0; k < m; k++) {
        uint64_t f = col[j] & fr, p = f & oh, q, g;
        p = p ? p : f;
        q = f & first;
        p = q ? q : p;
        q = f & fh;
        p = q ? q : p;
        g = p & (0 - p);
        fr ^= g;
        col_of[sa__ctz64(g | ((uint64_t)1 << 63)) + (g == 0)] = (int8_t)j; /* (none: entry 64) */
        outs |= (uint64_t)(g != 0) << j;
        j = j + 1 == m ? 0 : j + 1;
    }
    *taken = outs;
    return all & ~fr;
}

#if SA__FAST_MAX >= 16
/* WFA at 16 rows x 4..8 columns without the Rotary Rule: sa__wfa_word_cols
 * in SSE2 registers.  The rows are one byte each, rotated right by the
 * start column (so that the columns come in their cyclic order as bits 0,
 * 1, ...); column step k's rows are a byte sign mask of the rows shifted;
 * the steps are unrolled.  Each step writes its column at its granted row
 * of out8 (entry 16 when it grants nothing) and its row (16: none) to
 * byte k of w, which is rotated into input_of at the end. */
SA_API void sa__wfa16_sse2(const sa_switch *a, const uint64_t *req, int r, int c, sa_match *mt) {
    int m = a->num_outputs;
    uint64_t all = 0xFFFF, hi = all & ~sa__low_mask(r), fr = all, w = 0, y, jj;
    uint64_t lo8 = ~(uint64_t)0 >> (64 - 8 * m);
    int8_t out8[32];
    __m128i v0, v4, b = _mm_and_si128(sa__pack_bytes16_sse2(req, 16), SA__LD(a->fast)); /* (16 rows) */
    SA__ST(out8, _mm_set1_epi8(-1));
    SA__ST(out8 + 16, _mm_set1_epi8(-1));
    v0 = _mm_unpacklo_epi8(b, _mm_setzero_si128());
    v4 = _mm_unpackhi_epi8(b, _mm_setzero_si128());
    {
        const __m128i cm = _mm_cvtsi32_si128(m), cc = _mm_cvtsi32_si128(c);
        const __m128i mask = _mm_set1_epi16((short)((1 << m) - 1));
        v0 = _mm_and_si128(_mm_srl_epi16(_mm_or_si128(v0, _mm_sll_epi16(v0, cm)), cc), mask);
        v4 = _mm_and_si128(_mm_srl_epi16(_mm_or_si128(v4, _mm_sll_epi16(v4, cm)), cc), mask);
    }
    b = _mm_packus_epi16(v0, v4);
    /* byte k of jj: the column of step k, (c + k) mod m */
    jj = 0x0706050403020100ull + 0x0101010101010101ull * (uint64_t)(unsigned)c;
    jj -= (((jj + 0x0101010101010101ull * (uint64_t)(unsigned)(128 - m)) >> 7) & 0x0101010101010101ull) * (uint64_t)(unsigned)m;
#define SA__STEP(k, x) {                                                \
        uint64_t e = (uint64_t)(unsigned)(x), f = e & fr, p = e & hi & fr, g; \
        int ti;                                                         \
        p = p ? p : f;                                                  \
        g = p & (0 - p);                                                \
        fr ^= g;                                                        \
        ti = sa__ctz64(p | 0x10000u);                                   \
        out8[ti] = (int8_t)jj;                                          \
        jj >>= 8;                                                       \
        w |= (uint64_t)ti << (8 * (k));                                 \
    }
    SA__STEP(0, _mm_movemask_epi8(_mm_slli_epi64(b, 7)))
    SA__STEP(1, _mm_movemask_epi8(_mm_slli_epi64(b, 6)))
    SA__STEP(2, _mm_movemask_epi8(_mm_slli_epi64(b, 5)))
    SA__STEP(3, _mm_movemask_epi8(_mm_slli_epi64(b, 4)))
    if (m > 4) SA__STEP(4, _mm_movemask_epi8(_mm_slli_epi64(b, 3)))
    if (m > 5) SA__STEP(5, _mm_movemask_epi8(_mm_slli_epi64(b, 2)))
    if (m > 6) SA__STEP(6, _mm_movemask_epi8(_mm_slli_epi64(b, 1)))
    if (m > 7) SA__STEP(7, _mm_movemask_epi8(b))
#undef SA__STEP
    w |= ~lo8 & 0x1010101010101010ull; /* steps not taken: none */
    sa__store_i16(mt->output_of, SA__LD(out8));
    /* input_of: byte k of w belongs to column (c + k) mod m; 16 -> -1 */
    w = ((((w & lo8) << (8 * c)) | (((w & lo8) >> 1) >> (8 * (m - c) - 1))) & lo8) | (w & ~lo8);
    w |= ((w >> 4) & 0x0101010101010101ull) * 0xFF;
    {
        /* entries 0..3 and m-4..m-1, from registers (nothing read back) */
        __m128i x = _mm_cvtsi64_si128((long long)w), v = _mm_unpacklo_epi8(x, _mm_cmplt_epi8(x, _mm_setzero_si128()));
        uint64_t q0 = (uint64_t)_mm_cvtsi128_si64(v), q1 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
        uint64_t tail = m == 4 ? q0 : m == 8 ? q1 : (q0 >> (16 * (m - 4))) | (q1 << (64 - 16 * (m - 4)));
        memcpy(mt->input_of, &q0, 8);
        memcpy(mt->input_of + m - 4, &tail, 8);
    }
    y = (~w >> 7) & 0x0101010101010101ull & lo8;
    mt->outputs[0] = (y * 0x0102040810204080ull) >> 56;
    mt->size = (int)((y * 0x0101010101010101ull) >> 56);
    mt->inputs[0] = all & ~fr;
}

/* sa__wfa_word at 16 x 4..8 without the Rotary Rule, idling as
 * SA_IDLE_ADVANCE: sa__wfa16_sse2, then the next start cell (a call of
 * its own, so that the 21364's size pays for no other set-up). */
SA_API void sa__wfa16(sa_switch *a, const uint64_t *req, sa_match *mt) {
    int r = a->start_row, c = a->start_col;
    sa__wfa16_sse2(a, req, r, c, mt);
    if (++r == 16) {
        r = 0;
        c = c + 1 == a->num_outputs ? 0 : c + 1;
    }
    a->start_row = r;
    a->start_col = c;
}
#endif

SA_API int sa__wfa_word(sa_switch *a, const uint64_t *req, sa_match *mt) {
    int n = a->num_inputs, m = a->num_outputs, r = a->start_row, c = a->start_col;
    uint64_t all = sa__low_mask(n), net = a->network_inputs[0], taken = 0, got, x;
    int8_t col_of[65];
    int rotary = a->rotary && net != 0;
    if (a->idle == SA_IDLE_HOLD && sa__fast_empty(a, req)) {
        sa__match_clear_fast(a, mt);
        return 0;
    }
#if SA__FAST_MAX >= 16
    if (n == 16 && m >= 4 && m <= 8 && !rotary) {
        sa__wfa16_sse2(a, req, r, c, mt);
        got = mt->inputs[0];
        goto next;
    }
#endif
    sa__match_clear_fast(a, mt);
    if (m < n) {
        got = sa__wfa_word_cols(a, req, rotary ? net : all, r, c, &taken, col_of);
        for (x = got; x; x &= x - 1) {
            int i = sa__ctz64(x), j = col_of[i];
            mt->output_of[i] = (int16_t)j;
            mt->input_of[j] = (int16_t)i;
        }
    } else if (rotary) {
        got = sa__wfa_word_rows(a, req, net, r, c, &taken, mt);
        got |= sa__wfa_word_rows(a, req, all & ~net, r, c, &taken, mt);
    } else {
        got = sa__wfa_word_rows(a, req, all, r, c, &taken, mt);
    }
    mt->inputs[0] = got;
    mt->outputs[0] = taken;
    mt->size = sa__popcount64(got);
#if SA__FAST_MAX >= 16
next:
#endif
    do { /* the next start cell, as sa__wfa */
        r++;
        if (r == n) {
            r = 0;
            c = c + 1 == m ? 0 : c + 1;
        }
    } while (rotary && !((net >> r) & 1u));
    a->start_row = r;
    a->start_col = c;
    return mt->size;
}

/* ---- The wrapped wave-front arbiter up to 64 x 64 (>>wrapped:
 * sa__wfa_wrapped without read-port views).  The request matrix, each row
 * rotated by its index and transposed once, gives every wrapped diagonal
 * as a mask of rows (diag[d], bit i: its cell in row i requested); a
 * diagonal is then three word operations on the free rows and columns.
 * With SA_WAVEFRONT_ANTIDIAGONAL the rows rotate the other way and the
 * free columns are kept backwards (bit s - 1 - j for column j), so that
 * the same operations, rotated by s - 1 - d, give cell (i, (d - i) mod s)
 * of diagonal d. */

/* Rotate the low s bits of x right (left) by d, 0 <= d < s <= 64, without
 * a branch (x has no bit at or above s). */
SA_API uint64_t sa__rotr_bf(uint64_t x, int d, int s) {
    return ((x >> d) | ((x << 1) << (s - d - 1))) & (~(uint64_t)0 >> (64 - s));
}
SA_API uint64_t sa__rotl_bf(uint64_t x, int d, int s) {
    return ((x << d) | ((x >> 1) >> (s - d - 1))) & (~(uint64_t)0 >> (64 - s));
}

/* One pass over the rows of `rows`: the diagonals from p, each granting at
 * once its requested cells whose row and column are free, its grants ORed
 * into gd[d].  No branch but the loop's. */
SA_API void sa__wfa_wrapped_pass(const uint64_t *diag, uint64_t rows, int s, int p, int anti,
                                 uint64_t *matched, uint64_t *fc_io, uint64_t *gd) {
    uint64_t fr = rows & ~*matched, fc = *fc_io, got = 0;
    int k, d = p;
    if (s <= 32) {
        /* the free columns twice (bits x and x + s), so that a rotation is
         * one shift */
        uint64_t fc2 = fc | (fc << s), low = sa__low_mask(s);
        for (k = 0; k < s && fr && (fc2 & low); k++) {
            int t = anti ? s - 1 - d : d;
            uint64_t g = diag[d] & fr & (fc2 >> t), u = g << t;
            fr &= ~g;
            got |= g;
            fc2 &= ~(u | (u >> s) | (u << s));
            gd[d] |= g;
            d = d + 1 == s ? 0 : d + 1;
        }
        fc = fc2 & low;
    } else if (s == 64) { /* plain rotations */
        for (k = 0; k < 64 && fr && fc; k++) {
            int t = anti ? 63 - d : d;
            uint64_t g = diag[d] & fr & ((fc >> t) | (fc << ((64 - t) & 63)));
            fr &= ~g;
            got |= g;
            fc &= ~((g << t) | (g >> ((64 - t) & 63)));
            gd[d] |= g;
            d = (d + 1) & 63;
        }
    } else {
        for (k = 0; k < s && fr && fc; k++) {
            int t = anti ? s - 1 - d : d;
            uint64_t g = diag[d] & fr & sa__rotr_bf(fc, t, s);
            fr &= ~g;
            got |= g;
            fc &= ~sa__rotl_bf(g, t, s);
            gd[d] |= g;
            d = d + 1 == s ? 0 : d + 1;
        }
    }
    *matched |= got;
    *fc_io = fc;
}

SA_API int sa__wfa_wrapped_diag(sa_switch *a, const uint64_t *req, sa_match *mt) {
    uint64_t diag[64], gd[64], matched = 0, outs = 0, x;
    int i, n = a->num_inputs, m = a->num_outputs, s = n > m ? n : m, t = sa__pow2_at_least(s);
    int anti = a->wavefront == SA_WAVEFRONT_ANTIDIAGONAL;
    uint64_t fc = anti ? sa__low_mask(m) << (s - m) : sa__low_mask(m);
    for (i = 0; i < n; i++) diag[i] = anti ? sa__rotl_bf(req[i] & a->connect[i], i, s) : sa__rotr_bf(req[i] & a->connect[i], i, s);
    for (; i < t; i++) diag[i] = 0;
    sa__transpose(diag, t);
    for (i = 0; i < t; i++) gd[i] = 0;
    if (a->rotary && a->network_inputs[0]) {
        sa__wfa_wrapped_pass(diag, a->network_inputs[0], s, a->start_col, anti, &matched, &fc, gd);
        sa__wfa_wrapped_pass(diag, sa__low_mask(n) & ~a->network_inputs[0], s, a->start_col, anti, &matched, &fc, gd);
    } else {
        sa__wfa_wrapped_pass(diag, sa__low_mask(n), s, a->start_col, anti, &matched, &fc, gd);
    }
    sa__transpose(gd, t); /* gd[i]: bit d set when row i won on diagonal d */
    sa__match_clear_fast(a, mt);
    for (x = matched; x; x &= x - 1) {
        int j, d;
        i = sa__ctz64(x);
        d = sa__ctz64(gd[i]);
        j = anti ? (d - i < 0 ? d - i + s : d - i) : (i + d) % s;
        mt->output_of[i] = (int16_t)j;
        mt->input_of[j] = (int16_t)i;
        outs |= (uint64_t)1 << j;
    }
    mt->inputs[0] = matched;
    mt->outputs[0] = outs;
    mt->size = sa__popcount64(matched);
    a->start_col = a->start_col + 1 >= s ? 0 : a->start_col + 1;
    return mt->size;
}

/* ---- The separable input-first allocator and OPF (>>separable:
 * sa__separable_input without read-port views).  The output arbiters run
 * all at once: each nomination carries the key (p << 8) | (255 - d), p its
 * priority as an unsigned number in the same order and d its input's
 * round-robin distance from the output's pointer, and each output keeps
 * the largest key it receives: exactly its highest-priority nominator, the
 * first from its pointer among equals. */

/* The first member of r at or after start, cyclically, among those of the
 * highest priority p[j] (one pass, the two segments in order); 0 when r is
 * 0. */
SA_API int sa__first_top_word(uint64_t r, const int32_t *p, int start) {
    uint64_t seg[2], v;
    int64_t top = (int64_t)INT32_MIN - 1;
    int k, best = 0;
    seg[0] = r & (~(uint64_t)0 << start);
    seg[1] = r & ~seg[0];
    for (k = 0; k < 2; k++)
        for (v = seg[k]; v; v &= v - 1) {
            int j = sa__ctz64(v);
            int better = p[j] > top;
            top = better ? p[j] : top;
            best = better ? j : best;
        }
    return best;
}

/* One nomination: input i's key for output j (0 when r, its candidates,
 * is empty: a key 0 changes nothing) into best[j]; the outputs with one
 * in *outs. */
SA_API void sa__nominate_key(const sa_switch *a, uint64_t *best, uint64_t *outs, int i, int j, uint64_t r,
                             uint64_t high) {
    uint64_t live = sa__mask_if(r != 0), key, b;
    int n = a->num_inputs, d = i + n - a->out_ptr[j];
    d -= d >= n ? n : 0;
    key = (high | (uint64_t)(255 - d)) & live;
    b = best[j];
    best[j] = key > b ? key : b;
    *outs |= ((uint64_t)1 << j) & live;
}

#if SA__FAST_MAX >= 64
/* sa__separable_keys at 64 x 64 without priorities: the round-robin
 * distance is a difference modulo 64, so a key fits 16 bits, (63 - d) + 64
 * (never 0: an output without a nomination keeps 0), and the outputs'
 * winners, input_of entries and pointers come eight outputs at a time from
 * the keys; only the winners' own entries are written one by one. */
SA_API int sa__separable_keys64(sa_switch *a, const uint64_t *req, sa_match *mt) {
    const uint64_t *connect = a->connect;
    uint16_t *in_ptr = a->in_ptr, *out_ptr = a->out_ptr, best[64], win[64];
    const __m128i zero = _mm_setzero_si128(), low6 = _mm_set1_epi16(63);
    uint64_t outs = 0, ins = 0, o;
    int i, size = 0;
    for (i = 0; i < 64; i += 8) SA__ST(best + i, zero);
    for (i = 0; i < 64; i++) {
        uint64_t r = req[i] & connect[i];
        int p = in_ptr[i], j;
        uint64_t rot = (r >> p) | (r << ((64 - p) & 63));
        unsigned key, b;
        j = (p + sa__ctz64(rot | (uint64_t)1 << 63)) & 63; /* any j when r is 0 */
        key = ((unsigned)(out_ptr[j] + 63 - i) & 63) + 64;
        key &= 0u - (unsigned)(rot != 0); /* no candidate: 0 changes nothing */
        b = best[j];
        best[j] = (uint16_t)(key > b ? key : b);
    }
    sa__match_clear_fast(a, mt);
    for (i = 0; i < 64; i += 8) {
        __m128i k = SA__LD(best + i), ptr = SA__LD(out_ptr + i), none = _mm_cmpeq_epi16(k, zero), w;
        w = _mm_and_si128(_mm_sub_epi16(_mm_add_epi16(ptr, low6), _mm_and_si128(k, low6)), low6);
        SA__ST(win + i, w);
        SA__ST(mt->input_of + i, _mm_or_si128(w, none));
        w = _mm_and_si128(_mm_sub_epi16(w, _mm_cmpeq_epi16(zero, zero)), low6); /* w + 1 mod 64 */
        SA__ST(out_ptr + i, _mm_or_si128(_mm_and_si128(none, ptr), _mm_andnot_si128(none, w)));
        outs |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_packs_epi16(none, none)) << i & ((uint64_t)0xFF << i);
    }
    outs = ~outs; /* the outputs with a nomination */
    for (o = outs; o; o &= o - 1) {
        int j = sa__ctz64(o), w = win[j];
        mt->output_of[w] = (int16_t)j;
        ins |= (uint64_t)1 << w;
        size++;
        in_ptr[w] = (uint16_t)((j + 1) & 63);
    }
    mt->inputs[0] = ins;
    mt->outputs[0] = outs;
    mt->size = size;
    return size;
}
#endif

#if SA__FAST_MAX >= 16
/* The members of r holding the highest of the row's m (16..64) priorities
 * p[0..m), compared as bytes: when every one of the m is in 0..255 (the
 * ranks of ages, say) they are packed to bytes in 16-byte chunks, each
 * chunk's non-members cleared, the maximum folded into every byte and the
 * ties taken by a byte compare; the same members as a comparison of the
 * int32_t values.  Otherwise *fits is 0 (and the result 0). */
SA_API uint64_t sa__top_bytes_sse2(uint64_t r, const int32_t *p, int m, int *fits) {
    const __m128i zero = _mm_setzero_si128();
    __m128i v[4], any = zero, mx = zero;
    int32_t tail[16];
    uint64_t ties = 0;
    int c, u, chunks = (m + 15) >> 4;
    for (c = 0; c < chunks; c++) {
        const int32_t *q = p + c * 16;
        __m128i q0, q1, q2, q3;
        if (c * 16 + 16 > m) { /* the row's end: zeros beyond it (non-members) */
            for (u = 0; u < 16; u++) tail[u] = c * 16 + u < m ? q[u] : 0;
            q = tail;
        }
        q0 = SA__LD(q);
        q1 = SA__LD(q + 4);
        q2 = SA__LD(q + 8);
        q3 = SA__LD(q + 12);
        any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(q0, q1), _mm_or_si128(q2, q3)));
        v[c] = _mm_packus_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3));
        mx = _mm_max_epu8(mx, _mm_and_si128(v[c], sa__expand_low16_sse2(_mm_cvtsi32_si128((int)((r >> (c * 16)) & 0xFFFFu)))));
    }
    *fits = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(any, _mm_set1_epi32(~0xFF)), zero)) == 0xFFFF;
    mx = _mm_max_epu8(mx, _mm_shuffle_epi32(mx, _MM_SHUFFLE(1, 0, 3, 2)));
    mx = _mm_max_epu8(mx, _mm_shuffle_epi32(mx, _MM_SHUFFLE(2, 3, 0, 1)));
    mx = _mm_max_epu8(mx, _mm_or_si128(_mm_srli_epi32(mx, 16), _mm_slli_epi32(mx, 16)));
    mx = _mm_max_epu8(mx, _mm_or_si128(_mm_srli_epi16(mx, 8), _mm_slli_epi16(mx, 8)));
    for (c = 0; c < chunks; c++)
        ties |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[c], mx)) << (c * 16);
    /* (a non-member's byte may equal the maximum: r masks the ties) */
    return *fits ? ties & r : 0;
}
#endif

SA_API int sa__separable_keys(sa_switch *a, const uint64_t *req, const int32_t *prio, sa_match *mt) {
    uint64_t best[SA__FAST_MAX + 1], outs = 0, ins = 0, o;
    int i, n = a->num_inputs, m = a->num_outputs, size = 0;
#if SA__FAST_MAX >= 64
    if (prio == NULL && n == 64 && m == 64) return sa__separable_keys64(a, req, mt);
#endif
    for (i = 0; i < m; i += 2) SA__ST(best + i, _mm_setzero_si128());
    if (prio == NULL) {
        /* (the nominations with the state's arrays in locals: no store
         * here can change them) */
        const uint64_t *connect = a->connect;
        const uint16_t *in_ptr = a->in_ptr, *out_ptr = a->out_ptr;
        for (i = 0; i < n; i++) {
            uint64_t r = req[i] & connect[i], live = sa__mask_if(r != 0), key, b;
            int j = sa__first_from_bf(r, in_ptr[i]), d = i + n - out_ptr[j];
            d -= d >= n ? n : 0;
            key = (uint64_t)(255 - d) & live;
            b = best[j];
            best[j] = key > b ? key : b;
            outs |= ((uint64_t)1 << j) & live;
        }
    } else {
        for (i = 0; i < n; i++) {
            uint64_t r = req[i] & a->connect[i];
            const int32_t *p = prio + (size_t)i * (size_t)m;
            int j = 0, fits = 0;
#if SA__FAST_MAX >= 16
            if (m >= 16) {
                uint64_t top = sa__top_bytes_sse2(r, p, m, &fits);
                j = sa__first_from_bf(top, a->in_ptr[i]);
            }
#endif
            if (!fits) j = sa__first_top_word(r, p, a->in_ptr[i]);
            sa__nominate_key(a, best, &outs, i, j, r, (uint64_t)((uint32_t)p[j] ^ 0x80000000u) << 8);
        }
    }
    sa__match_clear_fast(a, mt);
    for (o = outs; o; o &= o - 1) {
        int j = sa__ctz64(o), w = a->out_ptr[j] + 255 - (int)(best[j] & 255);
        w = w >= n ? w - n : w;
        mt->output_of[w] = (int16_t)j;
        mt->input_of[j] = (int16_t)w;
        ins |= (uint64_t)1 << w;
        size++;
        a->out_ptr[j] = (uint16_t)(w + 1 == n ? 0 : w + 1);
        a->in_ptr[w] = (uint16_t)(j + 1 == m ? 0 : j + 1);
    }
    mt->inputs[0] = ins;
    mt->outputs[0] = outs;
    mt->size = size;
    return size;
}

/* ---- PIM-k and PIM1 (>>pim: sa__pim without read-port views).  The
 * draw protocol is computed by position instead of by stream: SplitMix64's
 * state only moves by a constant, so word w of a stage's block is
 * sa__rng_at(s, w), and a stage's lanes can draw at once. */

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
    uint64_t ge = ((p | 0x8080808080808080ull) - (uint64_t)(unsigned)c * 0x0101010101010101ull) &
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
#if SA__FAST_MAX >= 16
/* ---- PIM's 16 x 8 lanes: helpers of sa__pim_sse2_small and
 * sa__pim1_16x8_sse2 ---- */

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
SA_API int sa__pim_sse2_small(sa_switch *a, const uint64_t *req, sa_match *mt) {
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
    net16 = _mm_set1_epi16((short)(a->rotary ? a->network_inputs[0] : 0));
    rotary = a->rotary && a->network_inputs[0];
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
    sa__store_i16(mt->output_of, outof);
    SA__ST(mt->input_of, inof);
    mt->inputs[0] = sa__low_mask(n) & ~free_in;
    mt->outputs[0] = outs;
    mt->size = sa__popcount64(mt->inputs[0]);
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
    const __m128i zero = _mm_setzero_si128();
    __m128i nz = _mm_cmpeq_epi8(h8, zero), acc;
    int v, sh = m8 ? 8 : 7;
    if (m8)
        acc = _mm_add_epi64(_mm_sad_epu8(h8, zero),
                            _mm_slli_epi64(_mm_sad_epu8(_mm_andnot_si128(nz, _mm_set1_epi8(1)), zero), 8));
    else
        acc = _mm_sad_epu8(_mm_or_si128(h8, _mm_andnot_si128(nz, _mm_set1_epi8((char)0x80))), zero);
    acc = _mm_add_epi64(acc, _mm_unpackhi_epi64(acc, acc));
    v = _mm_cvtsi128_si32(acc);
    acc = _mm_shuffle_epi32(_mm_shufflelo_epi16(acc, 0), 0);
    acc = _mm_cmpeq_epi16(_mm_and_si128(acc, _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, (short)(m8 ? 128 : 0))), zero);
    sa__store_i16(mt->output_of, _mm_or_si128(pos8, nz));
    SA__ST(mt->input_of, _mm_or_si128(gpos, acc));
    mt->inputs[0] = (uint64_t)(_mm_movemask_epi8(nz) ^ 0xFFFF);
    mt->outputs[0] = (uint64_t)(v & ((1 << sh) - 1));
    mt->size = v >> sh;
    return mt->size;
}

/* The Rotary Rule on columns x: where a column has network candidates,
 * only those. */
SA_API __m128i sa__pim1_rotary_sse2(const sa_switch *a, __m128i x) {
    if (a->rotary && a->network_inputs[0]) {
        __m128i nn = _mm_and_si128(x, _mm_set1_epi16((short)a->network_inputs[0]));
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

/* PIM1 (one iteration, no read-port pairing) up to 16 inputs and 8
 * outputs, straight-line: the rows packed to bytes and ANDed with the
 * connections (as bytes); the columns by pmovmskb; the grant in 16-bit
 * lanes (one per output) and the accept in byte lanes (one per input),
 * each a population-count tree, Lemire's multiply on the block draws (the
 * grant block is ceil(m/4) generator outputs, the accept block the next
 * ceil(n/4); the draws of lanes beyond m or n are computed but, those
 * lanes having no candidate, not used) and sa__pim_kth*.  When a draw may
 * be rejected (rarely) nothing has been written yet and
 * sa__pim_sse2_small does the allocation.  Same decisions and draws as
 * sa__pim.  Fills mt. */
SA__BODY int sa__pim1_16x8_body(sa_switch *a, const uint64_t *req, sa_match *mt, int n, int m) {
    const uint64_t gamma = 0x9E3779B97F4A7C15ull;
    uint64_t s = a->rng.state, sa = s + (uint64_t)((m + 3) >> 2) * gamma;
    __m128i rows = sa__req_bytes16(a, req), x, rej, gpos, G, pos8, h8;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(rows, _mm_setzero_si128())) == 0xFFFF) {
        sa__match_clear_fast(a, mt);
        return 0;
    }
    x = sa__pim_cols16x7_sse2(rows);
    if (m == 8) x = _mm_or_si128(x, _mm_slli_si128(_mm_cvtsi32_si128(_mm_movemask_epi8(rows)), 14)); /* (lane 7 was 0) */
    x = sa__pim1_rotary_sse2(a, x);
    SA__PIM1_GRANT(x, _mm_set_epi64x((long long)sa__rng_at(s, 1), (long long)sa__rng_at(s, 0)), rej, gpos, G);
    h8 = sa__pim1_accept_sse2(G, _mm_set_epi64x((long long)sa__rng_at(sa, 1), (long long)sa__rng_at(sa, 0)),
                              _mm_set_epi64x((long long)sa__rng_at(sa, 3), (long long)sa__rng_at(sa, 2)), &rej, &pos8);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(rej, _mm_setzero_si128())) != 0xFFFF) return sa__pim_sse2_small(a, req, mt);
    a->rng.state = sa + (uint64_t)((n + 3) >> 2) * gamma;
    return sa__pim1_write_sse2(mt, h8, pos8, gpos, m == 8);
}

/* sa__pim1_16x8_body with the sizes as constants at the Alpha 21364's
 * 16 x 7 (the rows packed without a test per pair), as variables
 * elsewhere. */
SA_API int sa__pim1_16x8_sse2(sa_switch *a, const uint64_t *req, sa_match *mt) {
    if (a->num_inputs == 16 && a->num_outputs == 7) return sa__pim1_16x8_body(a, req, mt, 16, 7);
    return sa__pim1_16x8_body(a, req, mt, a->num_inputs, a->num_outputs);
}
#undef SA__PIM1_GRANT
#endif
/* Store the four 16-bit draws of the word x at u[0..3], lowest first. */
SA_API void sa__pim_put4(uint16_t *u, uint64_t x) {
    memcpy(u, &x, 8); /* (x86: little-endian) */
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
    if (sa__popcount64(need) >= 10) {
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

/* A PIM grant stage with more than this many lanes to pick (and fewer
 * than three quarters of all) gathers them for the eight-lane picks
 * (sa__pim_grant_list). */
#ifndef SA__PIM_GATHER
#define SA__PIM_GATHER 20
#endif

/* The inputs i < n with grants (cnt[i] > 0) and with more than one. */
SA_API void sa__pim_counted(const uint8_t *cnt, int n, uint64_t *granted, uint64_t *multi) {
    uint64_t g = 0, mu = 0;
    int q;
    for (q = 0; q < n; q += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(cnt + q));
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_setzero_si128())) << q;
        mu |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_set1_epi8(1))) << q;
    }
    *granted = g & sa__low_mask(n);
    *multi = mu & sa__low_mask(n);
}

/* Set the 64 bytes p[0..63] to v. */
SA_API void sa__pim_fill64(uint8_t *p, int v) {
    int i;
    for (i = 0; i < 64; i += 16) _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_set1_epi8((char)v));
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
    return act;
}

/* The grant lists of PIM's accept stage: cnt[i] = how many grants input i
 * got, lst[128 r + i] = the output of its grant number r (in increasing
 * output order).  Entry 127 of cnt, and column 127 of lst, are a sink for
 * the lanes without a pick (-1, masked to 127): a column of its own, which
 * no input's list shares. */
#define SA__PIM_CNT 128
#define SA__PIM_LST (65 * 128)

/* List the picks gp[j] of every lane j < m (-1: none; cnt zero on entry). */
SA_API void sa__pim_list_all(const int8_t *gp, int m, uint8_t *cnt, uint8_t *lst) {
    int j;
    for (j = 0; j < m; j++) {
        size_t i = (uint8_t)gp[j] & 127u;
        unsigned c = cnt[i];
        lst[((size_t)c << 7) + i] = (uint8_t)j;
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
        lst[((size_t)c << 7) + i] = (uint8_t)sa__ctz64(lanes);
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
    int c = sa__popcount64(free_out), chunks = (n + 15) >> 4;
    if (c > 8 && 4 * c >= 3 * m) {
        uint64_t cand[64];
        int8_t gpos[64];
        memset(cand, 0, (size_t)((m + 7) & ~7) * sizeof(uint64_t));
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
        lst[((size_t)r << 7) + i] = (uint8_t)j;
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
 * increasing output order (lst[128 r + i]: the output of input i's grant
 * number r; cnt[i]: how many), and input i takes grant number
 * idx(u_i, cnt[i]) (for one grant that is 0 with any draw, and no redraw).
 * first: NULL, or the first grant already made (first[j]: output j's pick,
 * -1 for none; first_end: the generator state after its draws, taken if
 * some output picked).  Same decisions and draws as sa__pim_general.
 * Fills mt except the -1 entries (mt must be empty on entry). */
SA_API int sa__pim_lanes(sa_switch *a, uint64_t *col, const int8_t *first, uint64_t first_end, sa_match *mt) {
    uint16_t u16[64];
    uint8_t cnt[SA__PIM_CNT], lst[SA__PIM_LST];
    int n = a->num_inputs, m = a->num_outputs, mr = (m + 7) & ~7, it, j;
    uint64_t net = a->rotary ? a->network_inputs[0] : 0, ins = 0, outs = 0;
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
            jj = lst[((size_t)(prod >> 16) << 7) + i];
            mt->output_of[i] = (int16_t)jj;
            mt->input_of[jj] = (int16_t)i;
            outs |= (uint64_t)1 << jj;
        }
        a->rng.state = sa__pim_draws_end(&d);
        ins |= granted;
    }
    mt->inputs[0] = ins;
    mt->outputs[0] = outs;
    mt->size = sa__popcount64(ins);
    return mt->size;
}

/* PIM above 16 x 8: the first grant (all outputs free, no Rotary Rule)
 * eight lanes at a time straight from the columns, then sa__pim_lanes. */
SA_API int sa__pim64(sa_switch *a, const uint64_t *req, sa_match *mt) {
    uint64_t col[64];
    int n = a->num_inputs, m = a->num_outputs;
    sa__columns(a, req, col);
    sa__match_clear_fast(a, mt);
    if (!a->rotary || a->network_inputs[0] == 0) {
        sa__pim_draws d;
        int8_t gpos[64];
        int j;
        for (j = m; j < ((m + 7) & ~7); j++) col[j] = 0;
        sa__pim_draws_start(&d, a->rng.state, m);
        sa__pim_pick_sse2(col, m, (n + 15) >> 4, NULL, &d, gpos);
        return sa__pim_lanes(a, col, gpos, sa__pim_draws_end(&d), mt);
    }
    return sa__pim_lanes(a, col, NULL, 0, mt);
}

#if SA_SWITCH_MAX > 64
/* ---- Word-general kernels: every size up to SA_SWITCH_MAX, on sets of
 * SA_WORDS(size) 64-bit words (the kernels above hold a row in one word,
 * or in registers).  Their scratch (the request columns, the wrapped
 * diagonals) is part of the allocator's memory (sa__fast_memory_size). */

/* The first member of x & y (`words` words) at or after start, cyclically;
 * -1 if there is none. */
SA_API int sa__first_from_and(const uint64_t *x, const uint64_t *y, int words, int start) {
    int w0 = start >> 6, w = w0;
    uint64_t v = x[w] & y[w] & (~(uint64_t)0 << (start & 63));
    for (;;) {
        if (v) return (w << 6) + sa__ctz64(v);
        if (++w == words) break;
        v = x[w] & y[w];
    }
    for (w = 0; w <= w0; w++) { /* (bits at or after start were empty) */
        v = x[w] & y[w];
        if (v) return (w << 6) + sa__ctz64(v);
    }
    return -1;
}

/* The k-th (0-based) member of x & y, in increasing order (k below the
 * number of members). */
SA_API int sa__kth_and(const uint64_t *x, const uint64_t *y, int k) {
    int w;
    for (w = 0;; w++) {
        uint64_t v = x[w] & y[w];
        int c = sa__popcount64(v);
        if (k < c) return (w << 6) + sa__select_bit_counted(v, sa__prefix_counts(v), k);
        k -= c;
    }
}

/* All members of a set of `size` bits, word w. */
SA_API uint64_t sa__all_word(int size, int w) {
    return size - 64 * w >= 64 ? ~(uint64_t)0 : sa__low_mask(size - 64 * w);
}

/* The connected requests by columns: word w of column j (cols[j * cw + w],
 * cw = SA_WORDS(num_inputs)) holds the inputs 64 w.. that request output j
 * on a connected cell.  One bit transpose per 64 x 64 block; a block
 * without requests is written as zeros. */
SA_API void sa__columns_words(const sa_switch *a, const uint64_t *req, uint64_t *cols) {
    int n = sa__n(a), m = sa__m(a), rw = a->row_words, cw = SA_WORDS(n), bi, bj, k;
    uint64_t t[64];
    for (bi = 0; bi < cw; bi++)
        for (bj = 0; bj < rw; bj++) {
            int rows = n - 64 * bi < 64 ? n - 64 * bi : 64, cs = m - 64 * bj < 64 ? m - 64 * bj : 64;
            int size = sa__pow2_at_least(rows > cs ? rows : cs);
            uint64_t any = 0;
            for (k = 0; k < rows; k++) {
                size_t at = (size_t)(64 * bi + k) * (size_t)rw + (size_t)bj;
                t[k] = req[at] & a->connect[at];
                any |= t[k];
            }
            if (any) {
                for (; k < size; k++) t[k] = 0;
                sa__transpose(t, size);
            }
            for (k = 0; k < cs; k++) cols[(size_t)(64 * bj + k) * (size_t)cw + (size_t)bi] = any ? t[k] : 0;
        }
}

/* ---- iSLIP-k and separable output-first at any size (>>islip's
 * sa__grant_accept without read-port views, on the request columns): an
 * output's grant is one cyclic scan of its column's free words; the grants
 * are listed per input, and an input accepts the one nearest after its
 * pointer. */
SA_API int sa__grant_accept_words(sa_switch *a, const uint64_t *cols, int rrm, int first, sa_match *mt) {
    uint64_t free_in[SA_WORDS(SA_SWITCH_MAX)], granted[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int16_t head[SA_SWITCH_MAX], next[SA_SWITCH_MAX];
    int n = sa__n(a), m = sa__m(a), cw = SA_WORDS(n), w, before = mt->size;
    for (w = 0; w < cw; w++) free_in[w] = sa__all_word(n, w) & ~mt->inputs[w];
    for (w = 0; w < SA_WORDS(m); w++) {                          /* Request, Grant */
        uint64_t o;
        for (o = sa__all_word(m, w) & ~mt->outputs[w]; o; o &= o - 1) {
            int j = 64 * w + sa__ctz64(o), i = sa__first_from_and(cols + (size_t)j * (size_t)cw, free_in, cw, a->out_ptr[j]);
            if (i < 0) continue;
            if (rrm) a->out_ptr[j] = (uint16_t)(i + 1 == n ? 0 : i + 1);
            next[j] = sa__has(granted, i) ? head[i] : (int16_t)-1;
            head[i] = (int16_t)j;
            sa__add(granted, i);
        }
    }
    for (w = 0; w < cw; w++) {                                    /* Accept */
        uint64_t g;
        for (g = granted[w]; g; g &= g - 1) {
            int i = 64 * w + sa__ctz64(g), p = a->in_ptr[i], j, best = head[i], near = m;
            for (j = head[i]; j >= 0; j = next[j]) {
                int dist = j - p < 0 ? j - p + m : j - p;
                if (dist < near) {
                    near = dist;
                    best = j;
                }
            }
            sa__match_add(mt, i, best);
            if (rrm || first) a->in_ptr[i] = (uint16_t)(best + 1 == m ? 0 : best + 1);
            if (!rrm && first) a->out_ptr[best] = (uint16_t)(i + 1 == n ? 0 : i + 1);
        }
    }
    return mt->size - before;
}

SA_API int sa__islip_words(sa_switch *a, const uint64_t *req, int rrm, int k, sa_match *mt) {
    int it;
    sa__columns_words(a, req, a->fast);
    sa__match_clear_fast(a, mt);
    for (it = 0; k < 0 || it < k; it++)
        if (sa__grant_accept_words(a, a->fast, rrm, it == 0, mt) == 0) break;
    return mt->size;
}

/* ---- PIM-k and PIM1 at any size (>>pim's sa__pim without read-port
 * views), on the request columns: a grant stage counts and picks each free
 * output's free requesters in output order; an accept stage picks each
 * input's grants, listed per input, in input order.  The
 * draws are the protocol's, computed by position (sa__pim_draws), so that
 * lanes without candidates cost nothing. */

/* Lane l's block draw of a stage. */
SA_API uint32_t sa__pim_block_draw(const sa__pim_draws *d, int l) {
    return (uint32_t)(sa__rng_at(d->s, (uint64_t)(l >> 2)) >> (16 * (l & 3))) & 0xFFFFu;
}

/* The k-th (0-based) member of x & y in increasing order, given the
 * population counts cnt of its first `words` - 1 words (k below the number
 * of members): the word found without a branch per word. */
SA_API int sa__kth_and_counted(const uint64_t *x, const uint64_t *y, const int *cnt, int words, int k) {
    int w, at = 0, before = 0, sum = 0;
    uint64_t v;
    for (w = 0; w + 1 < words; w++) {
        int past;
        sum += cnt[w];
        past = k >= sum;
        at += past;
        before = past ? sum : before;
    }
    v = x[at] & y[at];
    return (at << 6) + sa__pim_select(v, sa__prefix_counts(v), k - before);
}

/* The iterations on request columns (sa__columns_words, sa__columns_list,
 * or a request set's columns form).  The grant stage counts each free
 * output's free requesters (and the network ones, with the Rotary Rule)
 * and picks one; the accept stage draws each granted input's index among
 * its grants in input order, then finds that grant in one pass over the
 * outputs in increasing order. */
SA_API int sa__pim_cols(sa_switch *a, const uint64_t *cols, sa_match *mt) {
    uint64_t free_in[SA_WORDS(SA_SWITCH_MAX)], cand[SA_WORDS(SA_SWITCH_MAX)], granted[SA_WORDS(SA_SWITCH_MAX)];
    int cnt[SA_WORDS(SA_SWITCH_MAX)], cnet[SA_WORDS(SA_SWITCH_MAX)];
    int16_t pick[SA_SWITCH_MAX], chosen[SA_SWITCH_MAX];
    uint16_t count[SA_SWITCH_MAX], seen[SA_SWITCH_MAX], want[SA_SWITCH_MAX];
    int n = sa__n(a), m = sa__m(a), cw = SA_WORDS(n), rw = SA_WORDS(m), it, w, k;
    int rotary = a->rotary && sa__next(a->network_inputs, n, 0) >= 0;
    sa__match_clear_fast(a, mt);
    for (it = 0; a->iterations < 0 || it < a->iterations; it++) {
        sa__pim_draws d;
        uint64_t block = 0;
        int any = 0, at = -1;
        for (w = 0; w < cw; w++) {
            free_in[w] = sa__all_word(n, w) & ~mt->inputs[w];
            granted[w] = 0;
        }
        /* Step 1: does any free output have a free requester?  (If not,
         * the iteration draws nothing.) */
        for (w = 0; w < rw && !any; w++) {
            uint64_t o;
            for (o = sa__all_word(m, w) & ~mt->outputs[w]; o && !any; o &= o - 1) {
                const uint64_t *c = cols + (size_t)(64 * w + sa__ctz64(o)) * (size_t)cw;
                for (k = 0; k < cw; k++) any |= (c[k] & free_in[k]) != 0;
            }
        }
        if (!any) break;
        memset(count, 0, (size_t)n * sizeof count[0]);
        memset(seen, 0, (size_t)n * sizeof seen[0]);
        /* Step 2, Grant: lane j picks among output j's free requesters
         * (Rotary Rule: the network ones if any); its draw is field j mod 4
         * of the block's word j / 4. */
        sa__pim_draws_start(&d, a->rng.state, m);
        for (w = 0; w < rw; w++) {
            uint64_t o;
            for (o = sa__all_word(m, w) & ~mt->outputs[w]; o; o &= o - 1) {
                int j = 64 * w + sa__ctz64(o), c = 0, cn = 0, i;
                const uint64_t *col = cols + (size_t)j * (size_t)cw, *mask = free_in;
                const int *pc = cnt;
                pick[j] = -1;
                for (k = 0; k < cw; k++) {
                    cand[k] = col[k] & free_in[k];
                    cnt[k] = sa__popcount64(cand[k]);
                    c += cnt[k];
                }
                if (c == 0) continue;
                if (rotary) {
                    for (k = 0; k < cw; k++) {
                        cnet[k] = sa__popcount64(cand[k] & a->network_inputs[k]);
                        cn += cnet[k];
                    }
                    if (cn > 0) {
                        c = cn;
                        mask = a->network_inputs;
                        pc = cnet;
                    }
                }
                if (j >> 2 != at) {
                    at = j >> 2;
                    block = sa__rng_at(d.s, (uint64_t)at);
                }
                i = sa__kth_and_counted(cand, mask, pc, cw,
                                        sa__pim_index((uint32_t)(block >> (16 * (j & 3))) & 0xFFFFu, (uint32_t)c, &d));
                pick[j] = (int16_t)i;
                count[i]++;
                granted[i >> 6] |= (uint64_t)1 << (i & 63);
            }
        }
        a->rng.state = sa__pim_draws_end(&d);
        /* Step 3, Accept: lane i (in input order) draws the index of the
         * grant it takes among its grants in increasing output order. */
        sa__pim_draws_start(&d, a->rng.state, n);
        at = -1;
        for (w = 0; w < cw; w++) {
            uint64_t g;
            for (g = granted[w]; g; g &= g - 1) {
                int i = 64 * w + sa__ctz64(g);
                if (i >> 2 != at) {
                    at = i >> 2;
                    block = sa__rng_at(d.s, (uint64_t)at);
                }
                want[i] = (uint16_t)sa__pim_index((uint32_t)(block >> (16 * (i & 3))) & 0xFFFFu, count[i], &d);
                chosen[i] = -1;
            }
        }
        a->rng.state = sa__pim_draws_end(&d);
        for (w = 0; w < rw; w++) {
            uint64_t o;
            for (o = sa__all_word(m, w) & ~mt->outputs[w]; o; o &= o - 1) {
                int j = 64 * w + sa__ctz64(o), i = pick[j];
                int take;
                if (i < 0) continue;
                take = -(int)(seen[i] == want[i]); /* (no branch: which grant is taken is random) */
                chosen[i] = (int16_t)((j & take) | (chosen[i] & ~take));
                seen[i]++;
            }
        }
        for (w = 0; w < cw; w++) {
            uint64_t g;
            for (g = granted[w]; g; g &= g - 1) sa__match_add(mt, 64 * w + sa__ctz64(g), chosen[64 * w + sa__ctz64(g)]);
        }
    }
    return mt->size;
}

SA_API int sa__pim_words(sa_switch *a, const uint64_t *req, sa_match *mt) {
    sa__columns_words(a, req, a->fast);
    return sa__pim_cols(a, a->fast, mt);
}

/* Whether every cell of the switch is connected. */
SA_API int sa__all_connected(const sa_switch *a) {
    int i, w, rw = a->row_words;
    for (i = 0; i < sa__n(a); i++)
        for (w = 0; w < rw; w++)
            if (a->connect[(size_t)i * (size_t)rw + (size_t)w] != sa__all_word(sa__m(a), w)) return 0;
    return 1;
}

/* ---- The wrapped wave-front arbiter at any size, both diagonals
 * (>>wrapped's sa__wfa_wrapped without read-port views).  Every wrapped
 * diagonal d as a set of rows (bit i: its cell in row i is requested),
 * from bit transposes of the request rows rotated by their index; the free
 * columns as a set of 2s bits (the s columns twice, in the order of the
 * diagonals' cells), so that the free columns of diagonal d's cells are
 * s bits of it from position d.  A diagonal is then a few word operations
 * on the free rows.  With SA_WAVEFRONT_ANTIDIAGONAL the columns are
 * numbered backwards (position s - 1 - j) and the diagonals' positions run
 * down (s - 1 - d): cell (i, (d - i) mod s) is position i of them. */

/* 64 bits of the s-bit set x (no bit at or above s; s > 64) from bit o
 * on, cyclically (0 <= o < s): bit k is bit (o + k) mod s of x. */
SA_API uint64_t sa__cyclic_word(const uint64_t *x, int s, int o) {
    int q = o >> 6, r = o & 63, len = s - o;
    uint64_t v = x[q] >> r;
    if (r && q + 1 < SA_WORDS(s)) v |= x[q + 1] << (64 - r);
    if (len < 64) v = (v & sa__low_mask(len)) | (x[0] << len);
    return v;
}

/* The free rows' cells of diagonal d whose columns are free, granted. */
SA_API void sa__wrapped_pass_words(sa_switch *a, const uint64_t *diag, const uint64_t *rows, int s, int anti,
                                   uint64_t *ff, sa_match *mt) {
    uint64_t fr[SA_WORDS(SA_SWITCH_MAX)];
    int n = sa__n(a), cw = SA_WORDS(n), k, w, left = 0, cols_left = 0, p = a->start_col;
    for (w = 0; w < cw; w++) {
        fr[w] = rows[w] & sa__all_word(n, w) & ~mt->inputs[w];
        left += sa__popcount64(fr[w]);
    }
    for (w = 0; w < SA_WORDS(2 * s); w++) cols_left += sa__popcount64(ff[w]);
    for (k = 0; k < s && left > 0 && cols_left > 0; k++) {
        int d = p + k >= s ? p + k - s : p + k, t = anti ? s - 1 - d : d, q = t >> 6, r = t & 63;
        const uint64_t *dg = diag + (size_t)d * (size_t)cw;
        for (w = 0; w < cw; w++) {
            uint64_t f = r ? (ff[q + w] >> r) | (ff[q + w + 1] << (64 - r)) : ff[q + w], g = dg[w] & fr[w] & f;
            for (fr[w] &= ~g; g; g &= g - 1) {
                int i = 64 * w + sa__ctz64(g), pos = i + t >= s ? i + t - s : i + t;
                int j = anti ? s - 1 - pos : pos;
                sa__match_add(mt, i, j);
                ff[pos >> 6] &= ~((uint64_t)1 << (pos & 63));
                ff[(pos + s) >> 6] &= ~((uint64_t)1 << ((pos + s) & 63));
                left--;
                cols_left -= 2;
            }
        }
    }
}

SA_API int sa__wfa_wrapped_words(sa_switch *a, const uint64_t *req, sa_match *mt) {
    uint64_t *diag = a->fast, t[64], ff[2 * SA_WORDS(SA_SWITCH_MAX) + 1], all[SA_WORDS(SA_SWITCH_MAX)],
             local[SA_WORDS(SA_SWITCH_MAX)];
    int n = sa__n(a), m = sa__m(a), s = n > m ? n : m, cw = SA_WORDS(n), sw = SA_WORDS(s), rw = a->row_words;
    int anti = a->wavefront == SA_WAVEFRONT_ANTIDIAGONAL, bi, bj, k, j;
    uint64_t any = 0;
    sa__match_clear_fast(a, mt);
    for (bi = 0; bi < cw; bi++)
        for (bj = 0; bj < sw; bj++) {
            int rows = n - 64 * bi < 64 ? n - 64 * bi : 64, ds = s - 64 * bj < 64 ? s - 64 * bj : 64;
            uint64_t blk = 0;
            for (k = 0; k < rows; k++) {
                int i = 64 * bi + k, o = (anti ? (s - i) % s : i) + 64 * bj;
                const uint64_t *r = req + (size_t)i * (size_t)rw, *c = a->connect + (size_t)i * (size_t)rw;
                uint64_t row[SA_WORDS(SA_SWITCH_MAX)];
                int x;
                for (x = 0; x < rw; x++) row[x] = r[x] & c[x];
                for (; x < sw; x++) row[x] = 0;
                t[k] = sa__cyclic_word(row, s, o >= s ? o - s : o) & sa__low_mask(ds);
                blk |= t[k];
            }
            for (; k < 64; k++) t[k] = 0;
            if (blk) sa__transpose(t, 64);
            any |= blk;
            for (k = 0; k < ds; k++) diag[(size_t)(64 * bj + k) * (size_t)cw + (size_t)bi] = blk ? t[k] : 0;
        }
    if (a->idle == SA_IDLE_HOLD && any == 0) return 0; /* nothing requested: nothing moves */
    memset(ff, 0, sizeof ff);
    for (j = 0; j < m; j++) {
        int pos = anti ? s - 1 - j : j;
        ff[pos >> 6] |= (uint64_t)1 << (pos & 63);
        ff[(pos + s) >> 6] |= (uint64_t)1 << ((pos + s) & 63);
    }
    sa__wave_inputs(a, all, local);
    if (a->rotary && sa__next(a->network_inputs, n, 0) >= 0) {
        sa__wrapped_pass_words(a, diag, a->network_inputs, s, anti, ff, mt);
        sa__wrapped_pass_words(a, diag, local, s, anti, ff, mt);
    } else {
        sa__wrapped_pass_words(a, diag, all, s, anti, ff, mt);
    }
    a->start_col = a->start_col + 1 >= s ? 0 : a->start_col + 1;
    return mt->size;
}

/* ---- Separable input-first and OPF at any size (>>separable's
 * sa__separable_input without read-port views): each input's nomination
 * in one cyclic scan of its row from its pointer (with priorities, the
 * first of the highest), and the output arbiters all at once, each keeping
 * the largest key (priority, then 65535 - round-robin distance from its
 * pointer) of its nominations. */

/* The first member of x & y at or after start, cyclically, among those of
 * the highest priority p[j]; -1 if there is none. */
SA_API int sa__first_top_from(const uint64_t *x, const uint64_t *y, int words, int start, const int32_t *p) {
    int w0 = start >> 6, k, best = -1;
    int32_t top = INT32_MIN;
    for (k = 0; k <= words; k++) { /* word w0 from start, the others, word w0 below start */
        int w = w0 + k >= words ? w0 + k - words : w0 + k;
        uint64_t v = x[w] & y[w];
        if (k == 0) v &= ~(uint64_t)0 << (start & 63);
        else if (k == words) v &= sa__low_mask(start & 63);
        for (; v; v &= v - 1) {
            int j = (w << 6) + sa__ctz64(v);
            if (best < 0 || p[j] > top) {
                top = p[j];
                best = j;
            }
        }
    }
    return best;
}

SA_API int sa__separable_words(sa_switch *a, const uint64_t *req, const int32_t *prio, sa_match *mt) {
    uint64_t best[SA_SWITCH_MAX], outs[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int n = sa__n(a), m = sa__m(a), rw = a->row_words, i, w;
    for (i = 0; i < n; i++) {
        const uint64_t *r = req + (size_t)i * (size_t)rw, *c = a->connect + (size_t)i * (size_t)rw;
        const int32_t *p = prio != NULL ? prio + (size_t)i * (size_t)m : NULL;
        int j = p != NULL ? sa__first_top_from(r, c, rw, a->in_ptr[i], p) : sa__first_from_and(r, c, rw, a->in_ptr[i]);
        int dist;
        uint64_t key;
        if (j < 0) continue;
        dist = i - a->out_ptr[j] < 0 ? i - a->out_ptr[j] + n : i - a->out_ptr[j];
        key = (uint64_t)(0xFFFF - dist);
        if (p != NULL) key |= (uint64_t)((uint32_t)p[j] ^ 0x80000000u) << 16;
        if (!sa__has(outs, j)) {
            sa__add(outs, j);
            best[j] = key;
        } else if (key > best[j]) {
            best[j] = key;
        }
    }
    sa__match_clear_fast(a, mt);
    for (w = 0; w < SA_WORDS(m); w++) {
        uint64_t o;
        for (o = outs[w]; o; o &= o - 1) {
            int j = 64 * w + sa__ctz64(o), v = a->out_ptr[j] + 0xFFFF - (int)(best[j] & 0xFFFF);
            v = v >= n ? v - n : v;
            sa__match_add(mt, v, j);
            a->out_ptr[j] = (uint16_t)(v + 1 == n ? 0 : v + 1);
            a->in_ptr[v] = (uint16_t)(j + 1 == m ? 0 : j + 1);
        }
    }
    return mt->size;
}

#endif /* SA_SWITCH_MAX > 64 */

/* ---- MCM at any size (>>mcm's sa__mcm_plain): the same search for
 * augmenting paths, each step over a row's words at once: its unseen
 * outputs in one operation, the first free one ending the search, the
 * matched ones before it queued in increasing order.  An input with a free
 * requested output takes the first (the search's first step). */
/* sa__mcm_words with a row in one word (up to 64 outputs): the sets in
 * locals, which no store into mt can change. */
SA_API int sa__mcm_word(const sa_switch *a, const uint64_t *req, sa_match *mt) {
    const uint64_t *connect = a->connect;
    int16_t via[64], queue[65];
    uint64_t ins = 0, outs = 0;
    int u, n = sa__n(a), m = sa__m(a), size = 0;
    sa__match_clear_fast(a, mt);
    for (u = 0; u < n && size < m; u++) {
        uint64_t f = req[u] & connect[u] & ~outs, seen = 0;
        int head = 0, tail = 0, found = -1, j;
        if (f) { /* a free output in u's own row */
            j = sa__ctz64(f);
            mt->output_of[u] = (int16_t)j;
            mt->input_of[j] = (int16_t)u;
            ins |= (uint64_t)1 << u;
            outs |= (uint64_t)1 << j;
            size++;
            continue;
        }
        queue[tail++] = (int16_t)u;
        while (head < tail && found < 0) {
            int x = queue[head++];
            uint64_t v = req[x] & connect[x] & ~seen, g = v & ~outs;
            if (g) { /* the first free one ends the search; the matched before it are queued */
                g &= 0 - g;
                v &= g - 1;
                found = sa__ctz64(g);
                via[found] = (int16_t)x;
            }
            seen |= v;
            for (; v; v &= v - 1) {
                j = sa__ctz64(v);
                via[j] = (int16_t)x;
                queue[tail++] = mt->input_of[j];
            }
        }
        if (found < 0) continue;
        ins |= (uint64_t)1 << u;
        outs |= (uint64_t)1 << found;
        size++;
        sa__mcm_flip(mt, via, u, found);
    }
    mt->inputs[0] = ins;
    mt->outputs[0] = outs;
    mt->size = size;
    return size;
}

SA_API int sa__mcm_words(const sa_switch *a, const uint64_t *req, sa_match *mt) {
    uint64_t seen[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int16_t via[SA_SWITCH_MAX], queue[SA_SWITCH_MAX];
    int u, n = sa__n(a), m = sa__m(a), rw = a->row_words, w;
    sa__match_clear_fast(a, mt);
    for (u = 0; u < n && mt->size < m; u++) {
        const uint64_t *ru = req + (size_t)u * (size_t)rw, *cu = a->connect + (size_t)u * (size_t)rw;
        int head = 0, tail = 0, found = -1, j;
        for (w = 0; w < rw; w++) {
            uint64_t f = ru[w] & cu[w] & ~mt->outputs[w];
            if (f) {
                found = 64 * w + sa__ctz64(f);
                break;
            }
        }
        if (found >= 0) { /* a free output in u's own row */
            sa__match_add(mt, u, found);
            continue;
        }
        for (w = 0; w < rw; w++) seen[w] = 0;
        queue[tail++] = (int16_t)u;
        while (head < tail && found < 0) {
            int x = queue[head++];
            const uint64_t *r = req + (size_t)x * (size_t)rw, *c = a->connect + (size_t)x * (size_t)rw;
            for (w = 0; w < rw && found < 0; w++) {
                uint64_t v = r[w] & c[w] & ~seen[w], f = v & ~mt->outputs[w];
                if (f) { /* the first free one ends the search; the matched before it are queued */
                    f &= 0 - f;
                    v &= f - 1;
                    found = 64 * w + sa__ctz64(f);
                    via[found] = (int16_t)x;
                }
                seen[w] |= v;
                for (; v; v &= v - 1) {
                    j = 64 * w + sa__ctz64(v);
                    via[j] = (int16_t)x;
                    queue[tail++] = mt->input_of[j];
                }
            }
        }
        if (found < 0) continue;
        sa__add(mt->inputs, u);
        sa__add(mt->outputs, found);
        mt->size++;
        sa__mcm_flip(mt, via, u, found);
    }
    return mt->size;
}

/* ---- SPAA at the sizes the bit-sliced kernels do not take (>>spaa's
 * sa_spaa_nominate and sa_spaa_grant without read-port views).  Each
 * matrix arbiter's order is kept as stamps in the place of its ranks: the
 * requester with the smallest stamp is the least recently selected, and a
 * selection gives the winner its arbiter's next stamp (constant time; the
 * ranks take a pass over the arbiter).  Every arbiter's last stamp is kept
 * in the fast state; an arbiter whose stamps reach 65535 is renumbered to
 * its ranks.  The allocator holds one form at a time (a->fast_holds_state;
 * sa__fast_release). */

SA_API void sa__stamps_to_ranks(uint16_t *stamp, int size) {
    uint64_t seen[1024];
    uint16_t below[1024];
    int i, w, c = 0;
    memset(seen, 0, sizeof seen);
    for (i = 0; i < size; i++) seen[stamp[i] >> 6] |= (uint64_t)1 << (stamp[i] & 63);
    for (w = 0; w < 1024; w++) {
        below[w] = (uint16_t)c;
        c += sa__popcount64(seen[w]);
    }
    for (i = 0; i < size; i++)
        stamp[i] = (uint16_t)(below[stamp[i] >> 6] + sa__popcount64(seen[stamp[i] >> 6] & sa__low_mask(stamp[i] & 63)));
}

/* A selection in an arbiter held as stamps: the winner takes the next. */
SA_API void sa__stamp(uint16_t *stamp, uint16_t *last, int size, int winner) {
    if (*last == 0xFFFF) {
        sa__stamps_to_ranks(stamp, size);
        *last = (uint16_t)(size - 1);
    }
    stamp[winner] = ++*last;
}

SA_API int sa__spaa_stamps(sa_switch *a, const uint64_t *req, const int32_t *prio, sa_match *mt) {
    int16_t first[SA_SWITCH_MAX], next[SA_SWITCH_MAX];
    uint16_t *last_in = (uint16_t *)(void *)a->fast, *last_out = last_in + a->num_inputs;
    uint64_t outs[SA_WORDS(SA_SWITCH_MAX)] = { 0 };
    int n = sa__n(a), m = sa__m(a), rw = a->row_words, i, w;
    int rotary = a->rotary && sa__next(a->network_inputs, n, 0) >= 0;
    memset(next, 0xFF, (size_t)n * sizeof next[0]); /* (written below; said for the compiler) */
    if (!a->fast_holds_state) { /* the stamps start as the ranks */
        for (i = 0; i < n; i++) last_in[i] = (uint16_t)(m - 1);
        for (i = 0; i < m; i++) last_out[i] = (uint16_t)(n - 1);
        a->fast_holds_state = 1;
    }
    /* Step 1, Nominate: the request of highest priority, least recently
     * selected (smallest stamp) among equals. */
    for (i = n - 1; i >= 0; i--) {
        const uint64_t *r = req + (size_t)i * (size_t)rw, *c = a->connect + (size_t)i * (size_t)rw;
        const uint16_t *st = a->in_rank + (size_t)i * (size_t)m;
        const int32_t *p = prio != NULL ? prio + (size_t)i * (size_t)m : NULL;
        int best = -1;
        for (w = 0; w < rw; w++) {
            uint64_t v;
            for (v = r[w] & c[w]; v; v &= v - 1) {
                int j = 64 * w + sa__ctz64(v);
                if (best < 0 || (p != NULL && p[j] > p[best]) ||
                    ((p == NULL || p[j] == p[best]) && st[j] < st[best]))
                    best = j;
            }
        }
        if (best < 0) continue;
        next[i] = sa__has(outs, best) ? first[best] : (int16_t)-1;
        first[best] = (int16_t)i;
        sa__add(outs, best);
    }
    /* Steps 2-3, Grant: the least recently selected nominator (Rotary
     * Rule: among the network ones if any). */
    sa__match_clear_fast(a, mt);
    for (w = 0; w < SA_WORDS(m); w++) {
        uint64_t o;
        for (o = outs[w]; o; o &= o - 1) {
            int j = 64 * w + sa__ctz64(o), win = -1, net = 0;
            uint16_t *st = a->out_rank + (size_t)j * (size_t)n;
            if (rotary)
                for (i = first[j]; i >= 0 && !net; i = next[i]) net = sa__has(a->network_inputs, i);
            for (i = first[j]; i >= 0; i = next[i])
                if ((!net || sa__has(a->network_inputs, i)) && (win < 0 || st[i] < st[win])) win = i;
            sa__stamp(st, &last_out[j], n, win);
            sa__stamp(a->in_rank + (size_t)win * (size_t)m, &last_in[win], m, j);
            sa__match_add(mt, win, j);
        }
    }
    return mt->size;
}

/* SPAA in the bit-sliced banks: which kernel. */
SA_API int sa__fast_spaa(sa_switch *a, const uint64_t *req, sa_match *mt) {
    int n = a->num_inputs, m = a->num_outputs;
    sa__spaa_hold(a);
#if SA__FAST_MAX >= 16
    if (n <= 16 && m <= 8) return n > 8 ? sa__spaa_reg_sse2_4(a, req, mt) : sa__spaa_reg_sse2_3(a, req, mt);
    if (n <= 16 && m <= 16) return n > 8 ? sa__spaa_mid_sse2_4(a, req, mt) : sa__spaa_mid_sse2_3(a, req, mt);
#endif
#if SA__FAST_MAX > 32
    return sa__spaa6_sse2(a, req, mt);
#else
    (void)n;
    (void)m;
    (void)req;
    (void)mt;
    return 0;
#endif
}

/* ---- The dispatch. */

/* Whether a kernel of the WFA, ISLIP, SEP_OUTPUT and PIM kinds works on
 * the 16 x 8 byte matrix (its fast state then holds the connections as 16
 * bytes). */
SA_API int sa__fast_small(int n, int m) { return SA__FAST_MAX >= 16 && n <= 16 && m <= 8; }

/* Fast state: SPAA's banks or stamps' last values; the connection matrix
 * as 16 bytes for the kernels up to 16 x 8 (WFA, iSLIP, separable
 * output-first, PIM); the request columns (iSLIP,
 * separable output-first, PIM; for PIM then a word saying whether every
 * cell is connected) or the wrapped diagonals of the word-general kernels
 * above 64. */
SA_API size_t sa__fast_memory_size(const sa_switch_desc *desc) {
    int n = desc->num_inputs, m = desc->num_outputs, s = n > m ? n : m;
    int word = n <= SA__FAST_MAX && m <= SA__FAST_MAX;
    switch (desc->kind) {
    case SA_SWITCH_SPAA:
        return sa__spaa_form(n, m) == 3 ? ((size_t)(n + m) * sizeof(uint16_t) + 7) / 8 * 8 : sizeof(sa__banks);
    case SA_SWITCH_WFA:
        return sa__fast_small(n, m) ? 2 * sizeof(uint64_t) : 0;
    case SA_SWITCH_ISLIP:
    case SA_SWITCH_SEP_OUTPUT:
    case SA_SWITCH_PIM:
        if (sa__fast_small(n, m)) return 2 * sizeof(uint64_t);
        /* (PIM: and whether every cell is connected, after the columns) */
        return word ? 0 : ((size_t)m * (size_t)SA_WORDS(n) + (desc->kind == SA_SWITCH_PIM)) * sizeof(uint64_t);
    case SA_SWITCH_WFA_WRAPPED:
        return word ? 0 : (size_t)s * (size_t)SA_WORDS(n) * sizeof(uint64_t);
    default:
        return 0;
    }
}

SA_API void sa__fast_init(sa_switch *a) {
    int i, lw = sa__lane_lw(a->num_outputs), spaa = a->kind == SA_SWITCH_SPAA;
    uint64_t *connect = a->fast; /* sa__banks' first member */
#if SA_SWITCH_MAX > 64
    if (a->kind == SA_SWITCH_PIM && a->fast != NULL && (a->num_inputs > SA__FAST_MAX || a->num_outputs > SA__FAST_MAX))
        a->fast[(size_t)a->num_outputs * (size_t)SA_WORDS(a->num_inputs)] = (uint64_t)sa__all_connected(a);
#endif
    if (a->fast == NULL || (spaa && sa__spaa_form(a->num_inputs, a->num_outputs) == 3) ||
        (!spaa && !sa__fast_small(a->num_inputs, a->num_outputs)))
        return; /* stamps start from the ranks; scratch needs nothing */
    memset(connect, 0, (spaa ? SA__SPAA_WORDS : 2) * sizeof(uint64_t));
    for (i = 0; i < a->num_inputs && i < SA__FAST_MAX; i++) {
        int bit = i << lw;
        connect[bit >> 6] |= a->connect[i] << (bit & 63);
    }
}

/* Whether the count priorities are all equal (an allocation then decides
 * as without them). */
SA_API int sa__uniform(const int32_t *prio, int count) {
    __m128i first = _mm_set1_epi32(prio[0]), diff = _mm_setzero_si128();
    int k = 0;
    for (; k + 4 <= count; k += 4) diff = _mm_or_si128(diff, _mm_xor_si128(SA__LD(prio + k), first));
    for (; k < count; k++) diff = _mm_or_si128(diff, _mm_cvtsi32_si128(prio[k] ^ prio[0]));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) == 0xFFFF;
}

SA_API int sa__fast_allocate(sa_switch *a, const uint64_t *req, const int32_t *prio,
                             const sa_read_buffer *bufs, sa_match *match) {
    int n = a->num_inputs, m = a->num_outputs, small = sa__fast_small(n, m);
    int word = n <= SA__FAST_MAX && m <= SA__FAST_MAX;
    int rrm = a->kind == SA_SWITCH_SEP_OUTPUT && a->pointer_rule == SA_POINTER_RRM;
    if (bufs != NULL) return 0; /* read-port views: the reference */
    /* Priorities: the reference, except for the kernels that take them
     * (separable input-first, SPAA's stamps) and MCM, which reads none;
     * all equal, they decide as none. */
    if (prio != NULL && a->kind != SA_SWITCH_OPF && a->kind != SA_SWITCH_SEP_INPUT && a->kind != SA_SWITCH_MCM &&
        !(a->kind == SA_SWITCH_SPAA && sa__spaa_form(n, m) == 3)) {
        if (!sa__uniform(prio, n * m)) return 0;
        prio = NULL;
    }
    switch (a->kind) {
    case SA_SWITCH_WFA:
        if (!SA__KIND_ON(SA_SWITCH_WFA)) return 0;
        if (!word) return 0;
#if SA__FAST_MAX >= 16
        if (n == 16 && m >= 4 && m <= 8 && a->idle != SA_IDLE_HOLD && !(a->rotary && a->network_inputs[0] != 0)) {
            sa__wfa16(a, req, match);
            return 1;
        }
#endif
        sa__wfa_word(a, req, match);
        return 1;
    case SA_SWITCH_SPAA:
        if (!SA__KIND_ON(SA_SWITCH_SPAA)) return 0;
        if (sa__spaa_form(n, m) == 3) sa__spaa_stamps(a, req, prio, match);
        else sa__fast_spaa(a, req, match);
        return 1;
    case SA_SWITCH_WFA_WRAPPED:
        if (!SA__KIND_ON(SA_SWITCH_WFA_WRAPPED)) return 0;
#if SA_SWITCH_MAX > 64
        if (!word) {
            sa__wfa_wrapped_words(a, req, match);
            return 1;
        }
#endif
        if (a->idle == SA_IDLE_HOLD && sa__fast_empty(a, req)) {
            sa__match_clear_fast(a, match); /* nothing to do, nothing moves */
        } else {
            sa__wfa_wrapped_diag(a, req, match);
        }
        return 1;
    case SA_SWITCH_ISLIP:
    case SA_SWITCH_SEP_OUTPUT:
        if (!SA__KIND_ON(SA_SWITCH_ISLIP) && !SA__KIND_ON(SA_SWITCH_SEP_OUTPUT)) return 0;
        /* (separable output-first with SA_POINTER_ON_MATCH is iSLIP-1) */
#if SA__FAST_MAX >= 16
        if (small) sa__islip16x8_sse2(a, req, rrm, a->kind == SA_SWITCH_ISLIP ? a->iterations : 1, match);
        else
#endif
#if SA_SWITCH_MAX > 64
        if (!word) sa__islip_words(a, req, rrm, a->kind == SA_SWITCH_ISLIP ? a->iterations : 1, match);
        else
#endif
            sa__islip_cols(a, req, rrm, a->kind == SA_SWITCH_ISLIP ? a->iterations : 1, match);
        return 1;
    case SA_SWITCH_PIM:
        if (!SA__KIND_ON(SA_SWITCH_PIM)) return 0;
#if SA__FAST_MAX >= 16
        if (small) {
            if (a->iterations != 1) sa__pim_sse2_small(a, req, match);
            else sa__pim1_16x8_sse2(a, req, match);
            return 1;
        }
#endif
#if SA_SWITCH_MAX > 64
        if (!word) sa__pim_words(a, req, match);
        else
#endif
            sa__pim64(a, req, match);
        return 1;
    case SA_SWITCH_OPF:
    case SA_SWITCH_SEP_INPUT:
        if (!SA__KIND_ON(SA_SWITCH_OPF) && !SA__KIND_ON(SA_SWITCH_SEP_INPUT)) return 0;
#if SA_SWITCH_MAX > 64
        if (!word) sa__separable_words(a, req, prio, match);
        else
#endif
            sa__separable_keys(a, req, prio, match);
        return 1;
    case SA_SWITCH_MCM:
        if (!SA__KIND_ON(SA_SWITCH_MCM)) return 0;
        if (word) sa__mcm_word(a, req, match);
        else sa__mcm_words(a, req, match);
        return 1;
    default:
        (void)small;
        return 0;
    }
}

/* PIM above 64 ports on a fully connected switch without read-port pairs
 * reads columns: from the set's columns form, or made from its pairs.
 * Every other call takes the rows. */
SA_API int sa__fast_allocate_requests(sa_switch *a, sa_requests *r, const sa_read_buffer *bufs,
                                      sa_match *match) {
#if SA_SWITCH_MAX > 64
    int n = a->num_inputs, m = a->num_outputs;
    r->want_columns = SA__KIND_ON(SA_SWITCH_PIM) && a->kind == SA_SWITCH_PIM && !a->read_port_pairs &&
                      (n > SA__FAST_MAX || m > SA__FAST_MAX) && a->fast[(size_t)m * (size_t)SA_WORDS(n)] != 0;
    if (!r->by_output || bufs != NULL || sa_requests_priorities(r) != NULL) return 0;
    sa__pim_cols(a, r->cols, match);
    return 1;
#else
    (void)a;
    (void)bufs;
    (void)match;
    r->want_columns = 0;
    return 0;
#endif
}

#endif /* SA_SIMD_SSE2 */

#ifdef __cplusplus
}
#endif

#endif /* SEASTAR_ARB_H */
