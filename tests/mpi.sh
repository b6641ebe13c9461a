#!/bin/sh
# SPDX-License-Identifier: MIT
# The MPI builds of the simulators against the sequential ones (make
# test): small networks run under mpirun with 2 and 3 ranks must print
# exactly what the sequential seastar_sim (or netsim) prints for the same
# command line, and write the same per-source file.  Counted like tests;
# ends with "N passed, N failed".
#
#   sh tests/mpi.sh [BUILDDIR]   (default build; needs BUILDDIR/mpi/seastar_sim,
#                                 BUILDDIR/mpi/netsim and their sequential
#                                 builds in BUILDDIR/examples)
cd "$(dirname "$0")/.." || exit 2
top=$(pwd)
b=${1:-build}
case $b in /*) ;; *) b="$top/$b";; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/    /' "$tmp/err" | head -n 20; }

# Open MPI refuses root unless told, and wants a slot per rank: these runs
# are small, so oversubscribing a 2-core machine is fine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun="mpirun --oversubscribe -np"
to="timeout 300"
command -v timeout >/dev/null 2>&1 || to=""

# same_as PROG NP ARGS...: the sequential and the NP-rank outputs of PROG
# are equal
same_as() {
    prog=$1; np=$2; shift 2
    : > "$tmp/err"
    if ! (cd "$tmp" && $to "$b/examples/$prog" "$@" > "$tmp/seq" 2>> "$tmp/err"); then
        bad "sequential $prog $* runs"; return
    fi
    [ -f "$tmp/src.csv" ] && mv "$tmp/src.csv" "$tmp/seq_src.csv"
    if ! (cd "$tmp" && $to $mpirun "$np" "$b/mpi/$prog" "$@" > "$tmp/par" 2>> "$tmp/err"); then
        bad "mpirun -np $np $prog $* runs"; return
    fi
    if [ -f "$tmp/seq_src.csv" ] && ! cmp -s "$tmp/seq_src.csv" "$tmp/src.csv"; then
        echo "per-source files differ" >> "$tmp/err"; bad "mpirun -np $np $prog $* = sequential"; return
    fi
    rm -f "$tmp/seq_src.csv" "$tmp/src.csv"
    if [ -s "$tmp/seq" ] && cmp -s "$tmp/seq" "$tmp/par"; then ok
    else
        diff "$tmp/seq" "$tmp/par" >> "$tmp/err"
        bad "mpirun -np $np $prog $* prints what the sequential run prints"
    fi
}
same() { same_as seastar_sim "$@"; }

q="--quiet"
same 2 --topo 6x4x4 --load 0.3 --sizes 1,9 --cycles 2000 --warmup 300 --csv $q
same 3 --topo 6x4x4 --load 0.3 --sizes 1,9 --cycles 2000 --warmup 300 --csv $q
same 2 --topo 4x4x4 --load 0.6 --rsp 0.5 --sizes 1,5,9 --arb rr --cycles 1500 --histogram $q
same 3 --topo 5x4x3 --mesh xz --load 0.4 --random-link-faults 4 --cycles 1500 --csv $q
same 2 --topo 8x8 --pattern tornado --load 0.5 --period 8 --cycles 1500 --compare $q
same 2 --topo 8 --mesh x --pattern hotspot --hotspot 7 --srcq 16 --loads 0.2,1 --cycles 2000 $q
same 3 --topo 6x3x3 --load 0.3 --cycles 1500 --per-source src.csv $q
same 2 --topo 4x4x4 --link-delay 3 --credit-delay 7 --load 0.4 --seeds 2 --csv --cycles 1500 $q
# 128 routers per rank, two blocks each (the sequential run: six blocks)
same 3 --topo 6x8x8 --load 0.3 --sizes 1,9 --cycles 1000 --csv $q

# netsim: a dragonfly cut between groups (only global channels cross the
# cut: 9 groups over 2 and 3 ranks), with adaptive and oblivious routing
# and adversarial traffic; a HyperX, a folded Clos and a butterfly cut into
# ranges of routers; a torus sweep and seeds.
same_as netsim 2 --topo dragonfly:2,4,2 --routing ugal-l --pattern groupshift --load 0.3 --cycles 1500 --warmup 300 --csv $q
same_as netsim 3 --topo dragonfly:2,4,2 --routing ugal-l --pattern groupshift --load 0.3 --cycles 1500 --warmup 300 --csv $q
same_as netsim 3 --topo dragonfly:2,4,2 --routing par --load 0.5 --sizes 1,3 --cycles 1500 --warmup 300 --csv $q
same_as netsim 2 --topo dragonfly:2,4,2 --routing valiant --va pim --load 0.4 --latency global=5 --cycles 1500 --csv $q
same_as netsim 3 --topo hyperx:4x3:2 --routing min-adaptive --load 0.6 --cycles 1500 --csv $q
same_as netsim 2 --topo clos:3/3,4 --pattern bitrev --load 0.5 --cycles 1500 --csv $q
same_as netsim 3 --topo butterfly:2,4 --load 0.4 --cycles 1500 $q
same_as netsim 2 --topo torus:6x4 --loads 0.2,0.6 --seeds 2 --sizes 1,4 --cycles 1000 $q
# the BlueGene/L model: random traffic, the dateline pair in direction
# order with mixed sizes, the hot region's series, an all-to-all to the end
same_as netsim 2 --router bgl --topo torus:6x4x4 --load 0.6 --warmup 300 --cycles 1500 --csv $q
same_as netsim 3 --router bgl --topo torus:6x4x4 --load 0.8 --bgl-escape dateline --bgl-order direction --bgl-bytes 32,128,256 --warmup 300 --cycles 1500 --csv $q
same_as netsim 3 --router bgl --topo torus:6x4x4 --pattern hotregion --load 1 --warmup 0 --cycles 3000 --series 500 --csv $q
same_as netsim 2 --router bgl --topo torus:4x4x4 --alltoall whole --cycles 100000 --csv $q

# bench_sim under MPI simulates what the sequential bench_sim simulates
# (delivered packets, packet-hops, accepted load, packets in flight) and
# reports its hand-overs: one every 10 cycles (the default lookahead).
: > "$tmp/err"
if (cd "$tmp" && $to "$b/bench/bench_sim" --radix 4 --flits 9 --warmup 500 --cycles 1000 > "$tmp/seq" 2>> "$tmp/err") &&
   (cd "$tmp" && $to $mpirun 2 "$b/mpi/bench_sim" --radix 4 --flits 9 --warmup 500 --cycles 1000 > "$tmp/par" 2>> "$tmp/err") &&
   [ "$(cut -d, -f11,12,15,16,17 "$tmp/seq")" = "$(cut -d, -f11,12,15,16,17 "$tmp/par")" ] &&
   awk -F, 'NR == 2 && $3 == 2 && $20 == 100 && $21 > 0 { f = 1 } END { exit !f }' "$tmp/par"; then ok
else cat "$tmp/seq" "$tmp/par" >> "$tmp/err"; bad "mpirun -np 2 bench_sim simulates what bench_sim does and counts its hand-overs"; fi

# what the MPI build refuses, with exit status 2 and one line
: > "$tmp/err"
(cd "$tmp" && $to $mpirun 2 "$b/mpi/seastar_sim" --workload mix --topo 4x4x4 > "$tmp/out" 2> "$tmp/err2"); st=$?
grep "seastar_sim:" "$tmp/err2" | sort -u > "$tmp/err"
if [ "$st" -ne 0 ] && grep -q "workload" "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok
else echo "exit status $st" >> "$tmp/err"; bad "mpirun -np 2 seastar_sim --workload mix is refused with one line"; fi
(cd "$tmp" && $to $mpirun 3 "$b/mpi/seastar_sim" --topo 2x4x4 > "$tmp/out" 2> "$tmp/err2"); st=$?
grep "seastar_sim:" "$tmp/err2" | sort -u > "$tmp/err"
if [ "$st" -ne 0 ] && grep -q "x-planes" "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok
else echo "exit status $st" >> "$tmp/err"; bad "mpirun -np 3 on 2 x-planes is refused with one line"; fi

(cd "$tmp" && $to $mpirun 2 "$b/mpi/netsim" --topo dragonfly:2,4,2 --routing ugal-g > "$tmp/out" 2> "$tmp/err2"); st=$?
grep "netsim:" "$tmp/err2" | sort -u > "$tmp/err"
if [ "$st" -ne 0 ] && grep -q "UGAL-G" "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok
else echo "exit status $st" >> "$tmp/err"; bad "mpirun -np 2 netsim --routing ugal-g is refused with one line"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
