// SPDX-License-Identifier: MIT
// torus.cpp - seastar_arb.h embedded in C++ the way a C++ network simulator
// would embed it: the classes of seastar_arb.hpp, shaped like a simulator's
// own switch allocator and output arbiter (clear, add a request, allocate,
// read the grants), in a 2-D torus of input-queued routers.  The same traffic runs three times: with a switch allocator
// (iSLIP by default), with the same allocator given the packets' ages as
// priorities, and with SeaStar's age-based output arbiters (Procedures 1-3).
//
//   torus [--k K] [--cycles N] [--load L] [--seed S] [--allocator NAME]
//
// Build: c++ -std=c++11 -I. examples/cpp/torus.cpp (make examples does).
#include "seastar_arb.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using seastar::AgeArbiter;
using seastar::SwitchAllocator;

struct Packet {
    int dest;
    long born;
    uint16_t age_field; // the header's age field (Procedures 1 and 2)
};

enum { kPorts = 5, kVcs = 2, kLocal = 4 }; // +x, -x, +y, -y, local; VC = dateline class
const int kDepth = 4;                       // packets per input VC

struct Router {
    std::deque<Packet> in[kPorts][kVcs];
    sa_age_clock clock;
};

class Torus {
public:
    // mode 0: the allocator; 1: the allocator, ages as priorities; 2: the
    // age-based output arbiters.
    Torus(int k, int mode, const sa_switch_desc &alloc, uint64_t seed)
        : k_(k), mode_(mode), routers_(static_cast<size_t>(k * k)) {
        sa_age_config_default(&cfg_, kPorts);
        cfg_.num_vcs = kVcs;
        cfg_.response_vcs = 0;
        cfg_.age_clock_period = 8;
        for (size_t r = 0; r < routers_.size(); r++) {
            sa_age_clock_init(&routers_[r].clock, &cfg_);
            sa_switch_desc d = alloc;
            d.num_inputs = kPorts * kVcs;
            d.num_outputs = kPorts;
            d.seed = sa_switch_seed(seed, static_cast<uint64_t>(r)); // per router (read by PIM)
            allocators_.push_back(SwitchAllocator(d));
            for (int o = 0; o < kPorts; o++) arbiters_.push_back(AgeArbiter(kPorts, kVcs));
        }
        rng_.state = seed;
    }

    // Dimension order: x first, the shorter way round (ties go +).
    int Route(int node, int dest) const {
        int x = node % k_, y = node / k_, dx = dest % k_, dy = dest / k_;
        if (x != dx) return ((dx - x + k_) % k_) <= k_ / 2 ? 0 : 1;
        if (y != dy) return ((dy - y + k_) % k_) <= k_ / 2 ? 2 : 3;
        return kLocal;
    }
    int Neighbour(int node, int port) const {
        int x = node % k_, y = node / k_;
        if (port == 0) x = (x + 1) % k_;
        if (port == 1) x = (x + k_ - 1) % k_;
        if (port == 2) y = (y + 1) % k_;
        if (port == 3) y = (y + k_ - 1) % k_;
        return y * k_ + x;
    }

    void Cycle(long now, double load) {
        std::vector<std::pair<int, Packet> > moves; // ((node * kPorts + port) * kVcs + VC, packet)
        for (int n = 0; n < k_ * k_; n++) Inject(n, now, load);
        for (int n = 0; n < k_ * k_; n++) Switch(n, now, &moves);
        for (size_t i = 0; i < moves.size(); i++) {
            int at = moves[i].first, node = at / (kPorts * kVcs), port = at / kVcs % kPorts, vc = at % kVcs;
            Packet p = moves[i].second;
            sa_age_arrive(&routers_[static_cast<size_t>(node)].clock, &cfg_, port, vc, &p.age_field); // Procedure 1
            routers_[static_cast<size_t>(node)].in[port][vc].push_back(p);
        }
        for (size_t n = 0; n < routers_.size(); n++) sa_age_tick(&routers_[n].clock); // Procedure 3
    }

    long delivered = 0, latency_sum = 0;

private:
    void Inject(int n, long now, double load) {
        Router &r = routers_[static_cast<size_t>(n)];
        if ((sa_rng_next(&rng_) >> 11) * (1.0 / 9007199254740992.0) >= load) return;
        if (r.in[kLocal][0].size() >= static_cast<size_t>(kDepth)) return; // source queue full: no offer
        Packet p;
        p.dest = static_cast<int>(sa_rng_below(&rng_, static_cast<uint32_t>(k_ * k_)));
        p.born = now;
        p.age_field = 0;
        sa_age_arrive(&r.clock, &cfg_, kLocal, 0, &p.age_field);
        r.in[kLocal][0].push_back(p);
    }

    // The VC a packet from input port p, VC v takes on the hop from node n
    // through output port o: the dateline classes of a torus (VC 1 after the
    // wraparound link of the dimension it travels in, VC 0 when it turns).
    int NextVc(int n, int p, int v, int o) const {
        int x = n % k_, y = n / k_;
        bool same_dimension = p != kLocal && p / 2 == o / 2;
        bool wraps = (o == 0 && x == k_ - 1) || (o == 1 && x == 0) || (o == 2 && y == k_ - 1) || (o == 3 && y == 0);
        return wraps ? 1 : same_dimension ? v : 0;
    }

    // Room in the next router's input VC (each output sends at most one
    // packet a cycle, and each input port has one upstream output).
    bool HasRoom(int n, int o, int vc) const {
        return routers_[static_cast<size_t>(Neighbour(n, o))].in[o ^ 1][vc].size() < static_cast<size_t>(kDepth);
    }

    void Switch(int n, long now, std::vector<std::pair<int, Packet> > *moves) {
        Router &r = routers_[static_cast<size_t>(n)];
        int out_of[kPorts * kVcs];
        for (int i = 0; i < kPorts * kVcs; i++) out_of[i] = -1;
        // Requests: the head of every input VC whose next hop has room.
        if (mode_ < 2) {
            SwitchAllocator &a = allocators_[static_cast<size_t>(n)];
            a.Clear();
            for (int p = 0; p < kPorts; p++)
                for (int v = 0; v < kVcs; v++) {
                    if (r.in[p][v].empty()) continue;
                    const Packet &h = r.in[p][v].front();
                    int o = Route(n, h.dest);
                    if (o != kLocal && !HasRoom(n, o, NextVc(n, p, v, o))) continue;
                    a.AddRequest(p * kVcs + v, o, mode_ == 1 ? static_cast<int>(sa_age_at_head(&r.clock, h.age_field)) : 0);
                }
            a.Allocate();
            for (int i = 0; i < kPorts * kVcs; i++) out_of[i] = a.OutputAssigned(i);
        } else {
            for (int o = 0; o < kPorts; o++) {
                AgeArbiter &arb = arbiters_[static_cast<size_t>(n * kPorts + o)];
                arb.Clear();
                bool any = false;
                for (int p = 0; p < kPorts; p++)
                    for (int v = 0; v < kVcs; v++) {
                        if (r.in[p][v].empty() || out_of[p * kVcs + v] >= 0) continue;
                        const Packet &h = r.in[p][v].front();
                        if (Route(n, h.dest) != o || (o != kLocal && !HasRoom(n, o, NextVc(n, p, v, o)))) continue;
                        arb.AddRequest(p * kVcs + v, sa_age_at_head(&r.clock, h.age_field)); // Procedure 2
                        any = true;
                    }
                if (!any) continue;
                int c = arb.Arbitrate(cfg_, r.clock);
                if (c >= 0) out_of[c] = o;
            }
        }
        for (int i = 0; i < kPorts * kVcs; i++) {
            int o = out_of[i], p = i / kVcs, v = i % kVcs;
            if (o < 0) continue;
            Packet h = r.in[p][v].front();
            r.in[p][v].pop_front();
            sa_age_depart(&r.clock, &h.age_field); // Procedure 2: the age leaves in the header
            if (o == kLocal) {
                delivered++;
                latency_sum += now - h.born;
                continue;
            }
            int next = Neighbour(n, o), in_port = o ^ 1; // leaving by +x arrives on the -x side
            moves->push_back(std::make_pair((next * kPorts + in_port) * kVcs + NextVc(n, p, v, o), h));
        }
    }

    int k_;
    int mode_;
    sa_age_config cfg_;
    std::vector<Router> routers_;
    std::vector<SwitchAllocator> allocators_;
    std::vector<AgeArbiter> arbiters_;
    sa_rng rng_;
};

[[noreturn]] void Fail(const std::string &what) {
    std::cerr << "torus: " << what << " (see --help)\n";
    std::exit(2);
}

long ParseLong(const char *s, long lo, long hi, const char *option) {
    char *end = NULL;
    errno = 0;
    long v = std::strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        Fail(std::string(option) + ": expected a whole number in " + std::to_string(lo) + ".." + std::to_string(hi) +
             ", got '" + s + "'");
    return v;
}

} // namespace

int main(int argc, char **argv) {
    int k = 4;
    long cycles = 2000;
    double load = 0.2;
    uint64_t seed = 1;
    sa_switch_desc alloc = {};
    alloc.kind = SA_SWITCH_ISLIP;
    for (int i = 1; i < argc; i++) {
        std::string o = argv[i];
        if (o == "--help") {
            std::cout << "usage: torus [options]\n"
                         "  --k K             torus side, 2..16 (default 4)\n"
                         "  --cycles N        cycles to run, 1..1000000 (default 2000)\n"
                         "  --load L          packets offered per node per cycle, 0..1 (default 0.2)\n"
                         "  --seed S          simulation seed, 0..2^31-1 (default 1)\n"
                         "  --allocator NAME  the switch allocator of the first two runs, a kind and its\n"
                         "                    options as sa_switch_desc_parse reads them: SPAA, WFA,\n"
                         "                    WFA-wrapped, PIM1, PIM, iSLIP, OPF, separable-input-first,\n"
                         "                    separable-output-first or MCM, for example\n"
                         "                    'iSLIP(iterations=2)' or 'WFA-wrapped(antidiagonal,idle-hold)'\n"
                         "                    (default iSLIP)\n";
            return 0;
        }
        if (i + 1 >= argc) Fail("missing value after " + o);
        const char *v = argv[++i];
        if (o == "--k") k = static_cast<int>(ParseLong(v, 2, 16, "--k"));
        else if (o == "--cycles") cycles = ParseLong(v, 1, 1000000, "--cycles");
        else if (o == "--seed") seed = static_cast<uint64_t>(ParseLong(v, 0, 2147483647L, "--seed"));
        else if (o == "--load") {
            char *end = NULL;
            errno = 0;
            load = std::strtod(v, &end);
            if (errno || end == v || *end != '\0' || !(load >= 0.0 && load <= 1.0))
                Fail(std::string("--load: expected a number in 0..1, got '") + v + "'");
        } else if (o == "--allocator") {
            if (sa_switch_desc_parse(&alloc, v) != SA_OK) Fail(std::string("--allocator: no allocator named '") + v + "'");
        } else {
            Fail("unknown option " + o);
        }
    }
    char text[128];
    sa_switch_desc_name(&alloc, text, sizeof text);
    std::cout << "run,nodes,cycles,offered,accepted,mean_latency\n";
    for (int run = 0; run < 3; run++) {
        static const char *const names[3] = { "", "+ages", "age-based" };
        Torus t(k, run, alloc, seed);
        for (long c = 0; c < cycles; c++) t.Cycle(c, load);
        std::string label = (run < 2 ? std::string(text) : std::string()) + names[run];
        if (label.find(',') != std::string::npos) label = '"' + label + '"'; // (one CSV field)
        std::cout << label << ',' << k * k << ',' << cycles << ','
                  << load << ',' << static_cast<double>(t.delivered) / (static_cast<double>(cycles) * k * k) << ','
                  << (t.delivered ? static_cast<double>(t.latency_sum) / static_cast<double>(t.delivered) : 0.0)
                  << '\n';
    }
    return 0;
}
