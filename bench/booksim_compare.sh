#!/bin/sh
# SPDX-License-Identifier: MIT
# booksim_compare.sh - CPU cost per delivered packet-hop of BookSim2 and of
# examples/netsim on the same network, router configuration and load, the
# two programs run alternately, RUNS times each.  BookSim2 is not part of
# this repository: build it yourself and pass its binary.  CSV on stdout,
# progress on stderr; not run by make.
#
# Usage: BOOKSIM=/path/to/booksim sh bench/booksim_compare.sh [CASE...] \
#            > docs/data/booksim_compare.csv
#   CASE    torus (default) and/or df1056
#   RUNS    runs of each program per case (default 3)
#   NETSIM  default build/examples/netsim; BENCH default
#           build/bench/bench_netsim (make build/examples/netsim
#           build/bench/bench_netsim)
#
# Cases (both programs: 1-flit packets, uniform traffic, iSLIP-1 VC and
# switch allocators, speed-up 1, 1 terminal per router port as the topology
# gives, a Bernoulli source per terminal):
#   torus   the 8x8x8 torus, dimension order with dateline VCs, 2 VCs of 16
#           flits, channel latency 1, load 0.2 packets per terminal per
#           cycle; 1,000 warm-up + 10,000 measured cycles;
#   df1056  BookSim2's dragonflynew with p = 4 (a = 8, h = 4, g = 33, 1,056
#           terminals), UGAL with 3 VCs of 256 flits, channel latencies
#           terminal 1, local 10, global 100 (what dragonflynew builds),
#           load 0.3; 1,000 warm-up + 3,000 measured cycles.
#
# How a row's figures are obtained.  cpu_s is the whole process's user +
# system time (/usr/bin/time), set-up, warm-up and (BookSim2) the final
# drain included, so the packet-hops it is divided by are those of the
# whole run: accepted x terminals x cycles x hops, with
#   BookSim2: accepted = its last "Accepted packet rate average" (packets
#     per terminal per cycle over its measured periods), cycles = its "Time
#     taken is N cycles", hops = its last "Hops average" minus 1 (BookSim2
#     counts one hop per router a packet crosses, ejection included; the
#     column is router-to-router channels, as netsim counts them);
#   netsim: accepted and hops from its CSV line, cycles = warm-up +
#     measured cycles.
# A third row per torus run, bench_netsim, is the benchmark's own figure: CPU
# time of the measured cycles only, divided by the packet-hops delivered in
# them.  The last rows give each simulator's median over the runs and the
# ratio BookSim2 / netsim of the medians (how many times netsim's cost per
# packet-hop BookSim2's is), both measured in this run of the script.
#
# Columns: date,load1,case,simulator,run,cpu_s,cycles,terminals,accepted,
#          hops,latency,packet_hops,cpu_ns_per_packet_hop
# (load1: the machine's 1-minute load average when the row was measured;
# latency: mean packet latency in cycles, to check that the two
# configurations behave alike.)
set -u
cd "$(dirname "$0")/.." || exit 2
if [ -z "${BOOKSIM:-}" ] || [ ! -x "$BOOKSIM" ]; then
    echo "booksim_compare.sh: set BOOKSIM to a BookSim2 binary" >&2
    exit 2
fi
RUNS=${RUNS:-3}
NETSIM=${NETSIM:-build/examples/netsim}
BENCH=${BENCH:-build/bench/bench_netsim}
case $RUNS in ''|*[!0-9]*|0) echo "booksim_compare.sh: RUNS must be a positive whole number" >&2; exit 2;; esac
for p in "$NETSIM" "$BENCH"; do
    [ -x "$p" ] || { echo "booksim_compare.sh: $p not built (make $p)" >&2; exit 2; }
done
[ $# -gt 0 ] || set -- torus
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
day=$(date -u +%Y-%m-%d)

# BookSim2 configurations: the settings netsim takes on its command line.
# Fixed run length: one warm-up period, then sample periods until
# max_samples; stopping thresholds of 0 so that it never stops early.
cat > "$tmp/torus.cfg" <<'EOF'
topology = torus;
k = 8;
n = 3;
c = 1;
routing_function = dim_order;
router = iq;
num_vcs = 2;
vc_buf_size = 16;
wait_for_tail_credit = 0;
vc_allocator = islip;
sw_allocator = islip;
alloc_iters = 1;
routing_delay = 1;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
credit_delay = 0;
input_speedup = 1;
output_speedup = 1;
internal_speedup = 1.0;
traffic = uniform;
packet_size = 1;
injection_rate = 0.2;
injection_rate_uses_flits = 0;
injection_process = bernoulli;
sim_type = latency;
warmup_periods = 1;
sample_period = 1000;
max_samples = 11;
stopping_thres = 0.0;
acc_stopping_thres = 0.0;
seed = 1;
EOF
sed -e 's/^topology = .*/topology = dragonflynew;/' -e 's/^k = .*/k = 4;/' \
    -e 's/^n = .*/n = 1;/' -e 's/^routing_function = .*/routing_function = ugal;/' \
    -e 's/^num_vcs = .*/num_vcs = 3;/' -e 's/^vc_buf_size = .*/vc_buf_size = 256;/' \
    -e 's/^injection_rate = .*/injection_rate = 0.3;/' -e 's/^max_samples = .*/max_samples = 4;/' \
    "$tmp/torus.cfg" > "$tmp/df1056.cfg"

common="--sizes 1 --va islip --sa islip --speedup 1 --pipeline 3 --seed 1 --csv --quiet"
netsim_args() {
    case $1 in
    torus)  echo "--topo torus:8x8x8 --routing dor --vcs 2 --buffer 16 --latency 1 --load 0.2 --warmup 1000 --cycles 10000 $common";;
    df1056) echo "--topo dragonfly:4,8,4 --routing ugal-l --inter router --ugal-bias 30 --vcs 3 --buffer 256 --latency terminal=1,local=10,global=100 --load 0.3 --warmup 1000 --cycles 3000 $common";;
    esac
}
terminals() { case $1 in torus) echo 512;; df1056) echo 1056;; esac; }

load1() { awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo NA; }
cpu() { awk 'END { printf "%.3f", $1 + $2 }' "$1"; }
# row CASE SIM RUN CPU CYCLES TERMINALS ACCEPTED HOPS LATENCY
row() {
    awk -v d="$day" -v l="$(load1)" -v c="$1" -v s="$2" -v r="$3" -v t="$4" -v cy="$5" \
        -v n="$6" -v a="$7" -v h="$8" -v lat="$9" 'BEGIN {
        ph = a * n * cy * h
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%.0f,%.1f\n", d, l, c, s, r, t, cy, n, a, h, lat, ph, t * 1e9 / ph }'
}

echo "date,load1,case,simulator,run,cpu_s,cycles,terminals,accepted,hops,latency,packet_hops,cpu_ns_per_packet_hop"
for cs in "$@"; do
    case $cs in torus|df1056) ;; *) echo "booksim_compare.sh: unknown case '$cs' (torus, df1056)" >&2; exit 2;; esac
    n=$(terminals "$cs")
    i=1
    while [ "$i" -le "$RUNS" ]; do
        echo "booksim_compare.sh: $cs run $i of $RUNS: BookSim2" >&2
        /usr/bin/time -f '%U %S' -o "$tmp/t" nice "$BOOKSIM" "$tmp/$cs.cfg" > "$tmp/bs.out" 2>&1 \
            || { echo "booksim_compare.sh: BookSim2 failed (its output: $tmp/bs.out)" >&2; trap - EXIT; exit 1; }
        awk '/Time taken is/ { cy = $4 }
             /Accepted packet rate average =/ { a = $6 }
             /Hops average =/ { h = $4 }
             /Packet latency average =/ { l = $5 }
             END { if (cy == "" || a == "" || h == "") exit 1; print cy, a, h - 1, l }' "$tmp/bs.out" > "$tmp/bs.f" \
            || { echo "booksim_compare.sh: BookSim2's statistics not found in $tmp/bs.out" >&2; trap - EXIT; exit 1; }
        read -r cy a h l < "$tmp/bs.f"
        row "$cs" booksim2 "$i" "$(cpu "$tmp/t")" "$cy" "$n" "$a" "$h" "$l" | tee -a "$tmp/rows"

        echo "booksim_compare.sh: $cs run $i of $RUNS: netsim" >&2
        # shellcheck disable=SC2046
        /usr/bin/time -f '%U %S' -o "$tmp/t" nice "$NETSIM" $(netsim_args "$cs") > "$tmp/ns.out" \
            || { echo "booksim_compare.sh: netsim failed" >&2; exit 1; }
        # (quoted fields, such as a dragonfly's topology, hold commas)
        sed 's/"[^"]*"/q/g' "$tmp/ns.out" | awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
             { print $(col["accepted"]), $(col["hops"]), $(col["lat_mean"]) }' > "$tmp/ns.f"
        read -r a h l < "$tmp/ns.f"
        cyc=$(netsim_args "$cs" | awk '{ for (k = 1; k < NF; k++) { if ($k == "--warmup") w = $(k+1); if ($k == "--cycles") c = $(k+1) } print w + c }')
        row "$cs" netsim "$i" "$(cpu "$tmp/t")" "$cyc" "$n" "$a" "$h" "$l" | tee -a "$tmp/rows"

        i=$((i + 1))
        # bench_netsim's df1056 case has netsim's default latencies and
        # buffers, not dragonflynew's: its row is given for the torus only.
        [ "$cs" = torus ] || continue
        echo "booksim_compare.sh: $cs run $((i - 1)) of $RUNS: bench_netsim" >&2
        nice "$BENCH" --case "$cs" 2>/dev/null | awk -F, -v d="$day" -v l="$(load1)" -v r="$((i - 1))" -v n="$n" '
            NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
            { printf "%s,%s,%s,bench_netsim,%s,%s,%s,%s,%s,%.3f,,%s,%s\n", d, l, $(col["case"]), r,
                     $(col["cpu_s"]), $(col["cycles"]), n, $(col["accepted"]),
                     $(col["packet_hops"]) / $(col["delivered"]), $(col["packet_hops"]),
                     $(col["cpu_ns_per_packet_hop"]) }' | tee -a "$tmp/rows"
    done
    # medians over the runs, and the ratio of the medians
    for sim in booksim2 netsim bench_netsim; do
        [ "$sim" != bench_netsim ] || [ "$cs" = torus ] || continue
        awk -F, -v c="$cs" -v s="$sim" '$3 == c && $4 == s { print $13 }' "$tmp/rows" | sort -g |
            awk -v d="$day" -v c="$cs" -v s="$sim" '{ v[NR] = $1 }
                END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                      printf "%s,,%s,%s,median,,,,,,,,%.1f\n", d, c, s, m }' | tee -a "$tmp/med"
    done
    awk -F, -v d="$day" -v c="$cs" '$3 == c && $4 == "booksim2" { b = $13 } $3 == c && $4 == "netsim" { s = $13 }
        END { printf "%s,,%s,booksim2/netsim,ratio,,,,,,,,%.1f\n", d, c, b / s }' "$tmp/med"
done
