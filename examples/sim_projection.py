#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Project the speed of the MPI simulator on many hosts from what
bench_sim measured at 1 and 2 ranks (make sim-results).

    /usr/bin/python3 examples/sim_projection.py BENCH_CSV OUT_CSV

BENCH_CSV is bench_sim's output with rows for 32x32x32, 1-flit packets at
load 0.2, with 1 and 2 ranks (docs/data/bench_sim.csv).  From the 2-rank
row it takes:

  - the CPU time a rank spends simulating, per router-cycle (its CPU time
    less its time in the exchanges);
  - the bytes a rank sends per hand-over per router on a cut face (the
    2-rank torus has four faces of 32 x 32 routers);
  - the peak memory per router.

The projection assumes: hosts connected by links of BANDWIDTH bytes/s with
LATENCY s per message; a rank sends one message to each neighbour per
hand-over, one after the other; the ranks are equally loaded (uniform
traffic); and the cost of simulating a router-cycle stays what it was
with 2 ranks (a smaller part per host would fit its caches better, so
this is the pessimistic side).  A 64x64x64 network (262,144 routers: the
15-bit SeaStar address lifted for simulation only) is run at load 0.1,
where its links carry what 32x32x32's carry at 0.2 (80% of the
bisection limit of uniform traffic, 8/k flits per node per cycle) and a
router does the same number of packet-hops per cycle; the two-level
table (a global table of partitions plus a 4,096-entry local one) keeps
the memory per router the same.

Cuts: slabs of x-planes (what ss_mpi.h implements; at most k hosts) and,
for a cube number of hosts, cubes of routers (six faces; not implemented:
the rows say so)."""
import csv
import sys

BANDWIDTH = 12.5e9      # bytes/s per host link (100 Gb/s)
LATENCY = 2e-6          # s per message
LOOKAHEAD = 10          # cycles per hand-over (min(link delay, credit delay))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sim_projection.py BENCH_CSV OUT_CSV")
    rows = list(csv.DictReader(open(sys.argv[1])))
    two = [r for r in rows if r["case"] == "32x32x32_1flit_load0.2" and r["ranks"] == "2"]
    if not two:
        sys.exit("sim_projection.py: no 2-rank row of 32x32x32_1flit_load0.2 in " + sys.argv[1])
    r = two[-1]
    routers, ranks = float(r["routers"]), int(r["ranks"])
    cycles, windows = float(r["cycles"]), float(r["windows"])
    wait_s = float(r["wait_ms_per_window"]) / 1e3 * windows * ranks
    cpu_per_rc = (float(r["cpu_s"]) - wait_s) / (routers * cycles)
    face_routers = 32 * 32
    bytes_per_face_router = float(r["bytes_per_window"]) / (ranks * 2 * face_routers)
    mib_per_router = float(r["peak_rss_mib"]) / routers
    out = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
    out.writerow(["network", "load", "hosts", "cut", "implemented", "routers_per_host", "face_routers_per_host",
                  "compute_ms_per_window", "kib_sent_per_window_per_host", "exchange_ms_per_window",
                  "router_cycles_per_s", "s_per_1e4_cycles", "h_per_1e6_cycles", "gib_per_host",
                  "assumed_link_gbytes_per_s", "assumed_latency_us"])
    for k, load in ((32, 0.2), (64, 0.1)):
        n = k ** 3
        for hosts in (1, 2, 8, 64, 512):
            # (cut, implemented, messages per hand-over, routers on cut faces):
            # a slab has two faces (none alone), to two neighbours (one
            # when there are only two ranks); a cube six faces, six neighbours
            cuts = []
            if hosts <= k:
                faces = 0 if hosts == 1 else 2
                cuts.append(("slab", "yes", min(faces, hosts - 1), faces * k * k))
            side = round(hosts ** (1 / 3))
            if side ** 3 == hosts and hosts > 1 and k % side == 0:
                b = k // side
                cuts.append(("cube", "no", 6, 6 * b * b))
            for cut, impl, messages, face in cuts:
                per_host = n / hosts
                compute = per_host * LOOKAHEAD * cpu_per_rc
                sent = face * bytes_per_face_router
                exchange = messages * LATENCY + sent / BANDWIDTH
                window = compute + exchange
                rate = n * LOOKAHEAD / window
                out.writerow(["%dx%dx%d" % (k, k, k), load, hosts, cut, impl, int(per_host), int(face),
                              "%.2f" % (compute * 1e3), "%.0f" % (sent / 1024), "%.3f" % (exchange * 1e3),
                              "%.0f" % rate, "%.0f" % (1e4 * n / rate), "%.2f" % (1e6 * n / rate / 3600),
                              "%.2f" % (per_host * mib_per_router / 1024), "%.1f" % (BANDWIDTH / 1e9),
                              "%.0f" % (LATENCY * 1e6)])


if __name__ == "__main__":
    main()
