// SPDX-License-Identifier: MIT
/* seastar_arb.hpp - C++ classes over seastar_arb.h, shaped like a network
 * simulator's own allocator and arbiter (clear, add a request, allocate,
 * read the grants), so that a C++ simulator embeds the library without
 * writing them again.  C++11; header-only, like the C header it includes.
 *
 *   seastar::SwitchAllocator  a switch allocator (sa_switch) with its own
 *                             memory and request builder (sa_requests): the
 *                             memory is freed with the object, a copy is an
 *                             independent allocator (sa_switch_copy) that
 *                             makes the same decisions from there on, a move
 *                             keeps the allocator; built from a description
 *                             or from a name (sa_switch_desc_parse).
 *   seastar::AgeArbiter       SeaStar's age-based output arbiter
 *                             (sa_output_arb) over (source, VC) candidates.
 *
 * Errors in construction throw std::invalid_argument with the library's
 * message (sa_result_string); the per-cycle calls check their arguments
 * with SA_ASSERT, as the C functions do. */
#ifndef SEASTAR_ARB_HPP
#define SEASTAR_ARB_HPP

#include "seastar_arb.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace seastar {

/** A switch allocator and the request set of its next allocation. */
class SwitchAllocator {
public:
    /** An allocator of this description (its sizes, kind and options). */
    explicit SwitchAllocator(const sa_switch_desc &desc) : desc_(desc) { Init(); }

    /** An allocator named as sa_switch_desc_parse reads names ("iSLIP",
     *  "PIM1", "WFA-wrapped(antidiagonal,idle-hold)", ...) at these sizes;
     *  seed: its random stream (sa_switch_seed), read by PIM only. */
    SwitchAllocator(const std::string &name, int inputs, int outputs, uint64_t seed = 0) {
        std::memset(&desc_, 0, sizeof desc_);
        desc_.num_inputs = inputs;
        desc_.num_outputs = outputs;
        Check(sa_switch_desc_parse(&desc_, name.c_str()));
        if (seed != 0) desc_.seed = seed;
        Init();
    }

    /** An independent copy: the same state, its own memory. */
    SwitchAllocator(const SwitchAllocator &o)
        : desc_(o.desc_), memory_(o.memory_.size()), requests_memory_(o.requests_memory_), match_(o.match_) {
        Check(sa_switch_copy(&sw_, memory_.data(), Bytes(memory_), &o.sw_));
        Check(sa_requests_init(&requests_, desc_.num_inputs, desc_.num_outputs, requests_memory_.data(),
                               Bytes(requests_memory_)));
        std::memcpy(requests_memory_.data(), o.requests_memory_.data(), Bytes(requests_memory_));
        requests_.same = o.requests_.same;
        requests_.rows_built = o.requests_.rows_built;
        requests_.want_columns = o.requests_.want_columns;
        sa__requests_form(&requests_, o.requests_.by_output);
    }

    /** Become an independent copy of o. */
    SwitchAllocator &operator=(const SwitchAllocator &o) {
        if (this != &o) {
            SwitchAllocator copy(o);
            *this = static_cast<SwitchAllocator &&>(copy);
        }
        return *this;
    }

    /* (A move keeps the memory blocks, so the C structs' pointers stay
     * valid.) */
    SwitchAllocator(SwitchAllocator &&) = default;
    SwitchAllocator &operator=(SwitchAllocator &&) = default;

    /** Start the requests of the next allocation (sa_requests_clear). */
    void Clear() { sa_requests_clear(&requests_); }

    /** Input `in` has a packet for output `out` (sa_requests_add; larger
     *  priorities go first, one value throughout when they do not matter). */
    void AddRequest(int in, int out, int32_t priority = 0) { sa_requests_add(&requests_, in, out, priority); }

    /** Withdraw a request (sa_requests_remove). */
    void RemoveRequest(int in, int out) { sa_requests_remove(&requests_, in, out); }

    /** Allocate on the requests added since Clear
     *  (sa_switch_allocate_requests); returns the number of matched pairs. */
    int Allocate() { return sa_switch_allocate_requests(&sw_, &requests_, NULL, &match_); }

    /** The output the last allocation gave input `in`, or -1. */
    int OutputAssigned(int in) const { return match_.output_of[in]; }

    /** The input the last allocation gave output `out`, or -1. */
    int InputAssigned(int out) const { return match_.input_of[out]; }

    /** The name of the allocator's kind and options (sa_switch_desc_name). */
    std::string Name() const {
        char text[128];
        sa_switch_desc_name(&desc_, text, sizeof text);
        return text;
    }

    /** The last allocation's matching. */
    const sa_match &Match() const { return match_; }

    /** The C allocator, for the library's other calls (sa_switch_check,
     *  sa_spaa_nominate, ...). */
    sa_switch &Raw() { return sw_; }
    /** The C allocator (read only). */
    const sa_switch &Raw() const { return sw_; }

private:
    static size_t Bytes(const std::vector<uint64_t> &v) { return v.size() * sizeof(uint64_t); }
    static void Check(sa_result r) {
        if (r != SA_OK) throw std::invalid_argument(sa_result_string(r));
    }
    void Init() {
        size_t size = sa_switch_memory_size(&desc_), rsize;
        uint64_t none;
        if (size == 0) Check(sa_switch_init(&sw_, &desc_, &none, 0)); /* (the description's error) */
        memory_.assign((size + 7) / 8, 0);
        Check(sa_switch_init(&sw_, &desc_, memory_.data(), Bytes(memory_)));
        rsize = sa_requests_memory_size(desc_.num_inputs, desc_.num_outputs);
        requests_memory_.assign((rsize + 7) / 8, 0);
        Check(sa_requests_init(&requests_, desc_.num_inputs, desc_.num_outputs, requests_memory_.data(),
                               Bytes(requests_memory_)));
        std::memset(&match_, 0, sizeof match_);
    }

    sa_switch_desc desc_;
    std::vector<uint64_t> memory_, requests_memory_;
    sa_switch sw_;
    sa_requests requests_;
    sa_match match_;
};

/** SeaStar's age-based output arbiter of one output port, over the
 *  (source, VC) heads that want it. */
class AgeArbiter {
public:
    /** An arbiter over sources x vcs candidates (candidate source * vcs +
     *  vc; sa_output_arb_init). */
    AgeArbiter(int sources, int vcs) {
        sa_result r = sa_output_arb_init(&arb_, sources, vcs);
        if (r != SA_OK) throw std::invalid_argument(sa_result_string(r));
        eligible_.assign(static_cast<size_t>(SA_WORDS(sources * vcs)), 0);
        ages_.assign(static_cast<size_t>(sources * vcs), 0);
    }

    /** Start the candidates of the next arbitration. */
    void Clear() { eligible_.assign(eligible_.size(), 0); }

    /** Candidate `c` competes with this age (sa_age_at_head). */
    void AddRequest(int c, unsigned age) {
        eligible_[static_cast<size_t>(c / 64)] |= uint64_t(1) << (c % 64);
        ages_[static_cast<size_t>(c)] = static_cast<uint8_t>(age);
    }

    /** Choose and record the grant (sa_output_arbitrate_set); returns the
     *  candidate, or -1. */
    int Arbitrate(const sa_age_config &cfg, const sa_age_clock &clk) {
        sa_grant g;
        return sa_output_arbitrate_set(&arb_, &cfg, &clk, eligible_.data(), ages_.data(), &g);
    }

private:
    sa_output_arb arb_;
    std::vector<uint64_t> eligible_;
    std::vector<uint8_t> ages_;
};

} // namespace seastar

#endif
