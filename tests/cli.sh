#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line checks of make test, counted like tests: every program in
# examples/ run with hostile arguments must stop within seconds with exit
# status 2 and one line on stderr that names the option; --help must exit 0
# and list every option of the program's table; and the valid runs the
# checks name must do what was asked (faults counted once, labels escaped,
# the default output folder created).
#
#   sh tests/cli.sh [BINDIR]     (default build/examples; make test builds it)
cd "$(dirname "$0")/.." || exit 2
top=$(pwd)
bin=${1:-build/examples}
case $bin in /*) ;; *) bin="$top/$bin";; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/    /' "$tmp/err" | head -n 10; }
to="timeout 10"
command -v timeout >/dev/null 2>&1 || to=""

# refuse PROG OPTION ARGS...: exit status 2, exactly one line on stderr,
# naming OPTION (or the word given as OPTION, for contradictions).
refuse() {
    prog=$1; name=$2; shift 2
    (cd "$tmp" && $to "$bin/$prog" "$@" >"$tmp/out" 2>"$tmp/err"); st=$?
    if [ "$st" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -F -e "$name" "$tmp/err" \
       && grep -q "^$prog: " "$tmp/err"; then ok
    else echo "exit status $st, stdout $(wc -c < "$tmp/out") bytes" >> "$tmp/err"; bad "$prog $* is refused (exit 2, one line naming $name)"; fi
}

# accept PROG ARGS...: exit status 0 (stdout in $tmp/out, stderr in $tmp/err)
accept() {
    prog=$1; shift
    (cd "$tmp" && $to "$bin/$prog" "$@" >"$tmp/out" 2>"$tmp/err"); st=$?
    if [ "$st" -eq 0 ]; then return 0; fi
    echo "exit status $st" >> "$tmp/err"; return 1
}

S=seastar_sim
refuse $S --topo      --topo 8x8x8x8            # ran 8x8x8
refuse $S --topo      --topo 0x8x8              # read 0x8 as hex: an 8x8 torus
refuse $S --topo      --topo 8x1                # a radix of 1
refuse $S --topo      --topo 64x64x64           # more than 32768 nodes
refuse $S --topo      --topo 8x8x             # an empty radix
refuse $S --topo      --topo 8,8,8
refuse $S --load      --load abc                # became 0
refuse $S --load      --load nan                # offered nan, sent nothing
refuse $S --load      --load inf
refuse $S --load      --load 0.1x
refuse $S --load      --load ' 0.1'
refuse $S --load      --load -0.1
refuse $S --cycles    --cycles abc              # became 0
refuse $S --cycles    --cycles -5               # hung
refuse $S --cycles    --cycles 99999999999999999999999   # hung
refuse $S --cycles    --cycles 0
refuse $S --cycles    --cycles 10k
refuse $S --cycles    --cycles ''
refuse $S --seed      --seed abc                # became 0
refuse $S --seed      --seed 18446744073709551616
refuse $S --warmup    --warmup 1e3
refuse $S --rr-select --rr-select zz            # became round-robin
refuse $S --rr-select --rr-select 0x11111111111111111
refuse $S --fault-link --fault-link 0:+w        # failed +x
refuse $S --fault-link --fault-link 0
refuse $S --fault-link --fault-link x:+x
refuse $S --fault-link --fault-link 512:+x      # node beyond 8x8x8
refuse $S --fault-link --topo 8x8 --fault-link 0:+z   # no z links in 2-D
refuse $S --fault-link --topo 8 --mesh x --fault-link 7:+x   # off the mesh edge
refuse $S --fault-node --fault-node 512
refuse $S --proc-bias --proc-bias 256           # wrapped to 0
refuse $S --proc-bias --proc-bias 8
refuse $S --bias      --bias 1,2
refuse $S --bias      --bias 1,2,8
refuse $S --rsp       --rsp 2                   # accepted
refuse $S --rsp       --topo 4x4x4 --workload alltoall --rsp 0.5   # the benchmarks send requests only
refuse $S --rsp-bias  --rsp-bias 1,2
refuse $S --rsp-bias  --rsp-bias 1,2,8
refuse $S --nid-scatter --nid-scatter 4                      # no mix
refuse $S --nid-scatter --workload mix --nid-scatter -1
refuse $S --nid-scatter --workload mix --nid-scatter 4x
refuse $S --random-link-faults --topo 4x4x4 --random-link-faults 100000   # "256 failed links" of 192
refuse $S --random-link-faults --topo 4x4x4 --random-link-faults 193
refuse $S --random-link-faults --topo 4x4x4 --fault-link 0:+x --random-link-faults 192
refuse $S --period    --period 0
refuse $S --period    --period 4294967296
refuse $S --mesh      --topo 8x8 --mesh z
refuse $S --mesh      --mesh w
refuse $S --tie       --tie minus
refuse $S --tables    --tables bfs
refuse $S --pattern   --pattern random
refuse $S --sizes     --sizes 10
refuse $S --sizes     --sizes 1,2,3,4,5,6,7,8,9
refuse $S --loads     --loads 0.1,,0.2
refuse $S --hotspot   --pattern hotspot --hotspot 512
refuse $S --input-buf --input-buf 8
refuse $S --staging-buf --staging-buf 256
refuse $S --eject-bw  --eject-bw 0
refuse $S --router-delay --router-delay 4097
refuse $S --srcq      --srcq -1
refuse $S --cycles    --cycles                  # missing value
refuse $S unknown     --cycels 10
refuse $S unexpected  10000
refuse $S --loads     --load 0.2 --loads 0.1,0.2      # contradictions
refuse $S --compare   --compare --arb rr
refuse $S --compare   --compare --loads 0.1,0.2
refuse $S --rr-select --arb rr --rr-select ff
refuse $S --no-header --no-header
refuse $S --histogram --csv --histogram
refuse $S --estimate  --estimate --compare
refuse $S --per-source --compare --per-source x.csv
refuse $S --label     --label x
refuse $S --perm      --perm x.txt
refuse $S --perm      --pattern perm
refuse $S --hotspot   --hotspot 3
refuse $S --tables    --tables dor --fault-link 0:+x
refuse $S --tables    --topo 8x8 --tables seastar
refuse $S --topo      --topo 8x8x8 --topo 4x4x4     # took the last one
refuse $S --quiet     --quiet --quiet
refuse $S --per-source --topo 4 --cycles 100000000 --per-source /nonexistent/dir/x.csv   # found out after the run
refuse $S --hotspot   --topo 4x4x4 --fault-node 0 --pattern hotspot --hotspot 0        # ran, delivered nothing
refuse $S --hotspot   --topo 4x4x4 --fault-node 0 --pattern hotspot                    # the default hotspot
printf '1\n0\n3\n3\n' > "$tmp/dup.txt"; printf '1\n0\n3x\n2\n' > "$tmp/junk.txt"
printf '1\n0\n3\n2\n0\n' > "$tmp/long.txt"; printf '1\n0\n3\n' > "$tmp/short.txt"
for f in dup junk long short; do refuse $S --perm --topo 4 --pattern perm --perm "$tmp/$f.txt"; done

M=merging
refuse $M --cycles    --cycles 0
refuse $M --cycles    --cycles abc
refuse $M --cycles    --cycles -1
refuse $M --period    --period 0
refuse $M --period    --period 99999999999
refuse $M --bias      --bias 8
refuse $M unexpected  100000                    # the old positional form
refuse $M unknown     --sweep

Q=matching_study
refuse $Q --arbs      --arbs 0                  # became 1
refuse $Q --arbs      --arbs -1
refuse $Q --arbs      --arbs abc
refuse $Q --arbs      --arbs 1.5
refuse $Q --adaptive  --adaptive 2              # accepted
refuse $Q --adaptive  --adaptive nan
refuse $Q --out       --out ''
refuse $Q --seed      --seed -1
refuse $Q --seed      --seed 18446744073709551616
refuse $Q --bench     --bench --out x
refuse $Q unknown     --arb 5

A=alpha21364
refuse $A --size      --size 4x4x4              # ran 4x4
refuse $A --size      --size 4
refuse $A --size      --size 1x4
refuse $A --size      --size 65x4
refuse $A --figure    --figure 12
refuse $A --figure    --figure 10 --size 8x8
refuse $A --pattern   --pattern tornado
refuse $A --alg       --alg foo
refuse $A --alg       --alg PIM1,,SPAA-base
refuse $A --rates     --rates 0.1,x
refuse $A --rates     --rates nan
refuse $A --cycles    --cycles 99
refuse $A --warmup    --cycles 1000 --warmup 1000
refuse $A --seed      --seed -1
refuse $A --outstanding --outstanding 65
refuse $A --pipeline  --pipeline 3
refuse $A --arb-cycles --arb-cycles 0
refuse $A -o          -o /nonexistent/dir/x.csv
refuse $A unknown     --bogus

F=topology_formulas
refuse $F --out       --out ''
refuse $F --out       --out                     # missing value
refuse $F --out       --out /nonexistent/dir
refuse $F unknown     --bogus
refuse $F unexpected  docs/data
E=topology_edges
refuse $E unknown     --out x
refuse $E unexpected  3
if accept $E --help && grep -q "usage: topology_edges" "$tmp/out"; then ok; else bad "$E --help exits 0"; fi
if accept $F --out "$tmp" && head -n 1 "$tmp/topology_formulas.csv" | grep -q '^id,seed_line,quantity,paper_value,ours,verdict' \
   && head -n 1 "$tmp/topology_metrics.csv" | grep -q '^network,family,routers'; then ok
else bad "$F --out DIR writes both tables into DIR"; fi

N=netsim
refuse $N --topo      --topo torus
refuse $N --topo      --topo torus:
refuse $N --topo      --topo ring:8
refuse $N --topo      --topo torus:8x1
refuse $N --topo      --topo torus:8xx8
refuse $N --topo      --topo torus:1025
refuse $N --topo      --topo dragonfly:4,8
refuse $N --topo      --topo dragonfly:4,8,4,7       # 7-1 does not divide a*h
refuse $N --topo      --topo dragonfly:4,8,4,1,2
refuse $N --topo      --topo clos:4,8                # level 0 without up ports
refuse $N --topo      --topo clos:4/4,8/2            # the top level with up ports
refuse $N --topo      --topo hyperx:8x8:0
refuse $N --topo      --topo butterfly:1,3
refuse $N --topo      --topo torus:64x64x64x64       # more than 2^28 channels
refuse $N --latency   --latency 0
refuse $N --latency   --latency global=x
refuse $N --latency   --latency wire=3
refuse $N --buffer    --buffer local=1,local
refuse $N --buffer    --sizes 8 --buffer 4          # cut-through: a buffer holds a packet
refuse $N --vcs       --vcs 65
refuse $N --vcs       --vcs 1                       # dor on a torus needs 2
refuse $N --vcs       --topo dragonfly:4,8,4 --routing ugal-l --vcs 2
refuse $N --vcs       --topo hyperx:16x16:16 --vcs 12        # 46 ports x 12 VCs > 512
refuse $N --routing   --routing minimal               # not defined on a torus
refuse $N --routing   --topo clos:4/4,8 --routing valiant-g
refuse $N --routing   --topo butterfly:2,3 --routing dor
refuse $N --speedup   --speedup 5
refuse $N --pipeline  --pipeline 0
refuse $N --va        --va fifo
refuse $N --sa        --sa islip,pim
refuse $N --df-vcs    --df-vcs local               # not a dragonfly
refuse $N --inter     --topo torus:4x4 --inter router
refuse $N --unsafe    --no-datelines               # needs --unsafe
refuse $N --pattern   --pattern groupshift           # not a dragonfly
refuse $N --pattern   --topo clos:4/4,8 --pattern tornado
refuse $N --hotspot   --pattern hotspot --hotspot 512
refuse $N --hotspot   --hotspot 3
refuse $N --load      --load 1.5
refuse $N --load      --load nan
refuse $N --loads     --load 0.2 --loads 0.1,0.2
refuse $N --sizes     --sizes 0
refuse $N --max-packet --sizes 4 --max-packet 3
refuse $N --cycles    --cycles 0
refuse $N --seed      --seed -1
refuse $N --seeds     --seeds 2
refuse $N --stall     --stall 5
refuse $N --max-memory --max-memory 0
refuse $N --max-memory --topo dragonfly:16,32,16 --max-memory 0.1  # the radix-64 dragonfly in 100 MB
refuse $N --no-header --no-header
refuse $N --label     --label x
refuse $N --perm      --pattern perm
refuse $N unknown     --bogus
refuse $N unexpected  8x8x8
for f in dup junk long short; do refuse $N --perm --topo torus:4 --pattern perm --perm "$tmp/$f.txt"; done
refuse $N --bgl-dynamic      --router bgl --bgl-dynamic 0          # the BlueGene/L router's impossible configurations
refuse $N --bgl-vc-bytes     --router bgl --bgl-vc-bytes 256        # a bubble VC below two full-sized packets
refuse $N --bgl-escape-bytes --router bgl --bgl-escape-bytes 480
refuse $N --bgl-bytes        --router bgl --bgl-bytes 48            # not whole 32-byte chunks
refuse $N --bgl-bytes        --router bgl --bgl-bytes 288
refuse $N --bgl-injection    --router bgl --bgl-injection 100
refuse $N --router           --router bgl --topo hyperx:4x4
refuse $N --vcs              --router bgl --vcs 4                   # an option of the other model
refuse $N --bgl-static       --bgl-static                           # needs --router bgl
refuse $N --alltoall         --router bgl --alltoall whole --load 0.2
if accept $N --topo dragonfly:2,4,2 --routing valiant --vcs 2 --unsafe --verify --cycles 10 --warmup 0 --quiet \
   && grep -q "refuted: deadlock cycle" "$tmp/err"; then ok
else bad "netsim --verify --unsafe reports a refuted routing and runs it"; fi
refuse $N --verify    --topo dragonfly:2,4,2 --routing valiant --inter router --verify
refuse $N --df-vcs    --topo dragonfly:2,4,2 --routing par --df-vcs globals
if accept $N --topo torus:4x4 --cycles 200 --warmup 0 --csv --quiet --label 'a"b,c' \
   && grep -q '^"a""b,c",torus:4x4,dor,2,uniform,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "netsim escapes a CSV label"; fi
(cd "$tmp" && $to "$bin/$N" --topo torus:8 --vcs 1 --unsafe --no-datelines --load 1 --sizes 4 --buffer 4 --stall 200 \
    --quiet > "$tmp/out" 2> "$tmp/err"); st=$?
if [ "$st" -eq 4 ] && grep -q "^netsim: deadlock: " "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then ok
else echo "exit status $st" >> "$tmp/err"; bad "netsim reports a deadlock in one line, exit status 4"; fi

# --help: exit 0, and every option of the program's table is listed.
P=routing_proofs
refuse $P --out       --out                     # no value
refuse $P --out       --out ''
refuse $P --check     --check ''
refuse $P --check     --check /nonexistent/dir
refuse $P --out       --out /nonexistent/dir/x
refuse $P --check     --out x --check y           # contradiction
refuse $P unknown     --bogus
refuse $P unexpected  docs/data                 # (a valid run: make test's proofs.log)

# --help: exit 0, and every option of the program's table is listed.
for p in $S $M $Q $A $F $N $P bubble_check; do
    opts=$(sed -n 's/^ *{ "\(-[-a-z]*\)".*/\1/p' "examples/$p.c")
    if accept $p --help && [ -n "$opts" ]; then
        miss=""
        for o in $opts; do grep -q -e " $o" "$tmp/out" || miss="$miss $o"; done
        if [ -z "$miss" ]; then ok; else echo "not listed:$miss" > "$tmp/err"; bad "$p --help lists every option"; fi
    else bad "$p --help exits 0"; fi
    if accept $p -h && [ -s "$tmp/out" ]; then ok; else bad "$p -h exits 0"; fi
done

# The C++ example (examples/cpp/torus.cpp: its options are the ones its
# parser compares, o == "--name").
T=torus
refuse $T --k         --k 1
refuse $T --k         --k 17
refuse $T --k         --k 4x
refuse $T --k         --k ''
refuse $T --k         --k                       # no value
refuse $T --cycles    --cycles 0
refuse $T --cycles    --cycles 10k
refuse $T --cycles    --cycles 99999999999999999999
refuse $T --load      --load 1.5
refuse $T --load      --load nan
refuse $T --load      --load 0.1x
refuse $T --seed      --seed -1
refuse $T --seed      --seed 2147483648
refuse $T --allocator --allocator 'iSLIP(spin)'
refuse $T --bogus     --bogus 1
opts=$(sed -n 's/.*o == "\(--[a-z]*\)".*/\1/p' examples/cpp/torus.cpp | grep -v -e '--help')
if accept $T --help && [ -n "$opts" ]; then
    miss=""
    for o in $opts; do grep -q -e " $o" "$tmp/out" || miss="$miss $o"; done
    if [ -z "$miss" ]; then ok; else echo "not listed:$miss" > "$tmp/err"; bad "$T --help lists every option"; fi
else bad "$T --help exits 0"; fi

# Valid runs that give what was asked.
# A link named twice, from either end, counts once (node 16 is node 0's +x
# neighbour on 4x4x4).
if accept $S --topo 4x4x4 --fault-link 0:+x --fault-link 0:0 --fault-link 16:-x --cycles 20 --warmup 0 \
   && grep -q "1 failed links" "$tmp/err"; then ok
else bad "seastar_sim counts a link given three times once"; fi
if accept $S --topo 4x4x4 --fault-node 5 --fault-node 5 --cycles 20 --warmup 0 \
   && grep -q "1 failed nodes" "$tmp/err"; then ok
else bad "seastar_sim counts a node given twice once"; fi
# All 192 links of a 4x4x4 torus, distinct.
if accept $S --topo 4x4x4 --random-link-faults 192 --cycles 10 --warmup 0 \
   && grep -q "192 failed links" "$tmp/err"; then ok
else bad "seastar_sim --random-link-faults 192 fails 192 distinct links of 4x4x4"; fi
# --topo 8 is one dimension; 0x10 is hexadecimal where a number is.
if accept $S --topo 8 --period 0x10 --cycles 200 --warmup 0 --csv --quiet \
   && grep -q '^"",8x1x1,uniform,age,16,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "seastar_sim --topo 8 --period 0x10 runs an 8-node ring at period 16"; fi
# CSV labels with a quote and a comma come out escaped.
if accept $S --topo 4 --cycles 100 --warmup 0 --csv --quiet --label 'a"b,c' \
   && grep -q '^"a""b,c",4x1x1,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "seastar_sim escapes a CSV label"; fi
if accept $A --label 'a"b,c' --rates 0.01 --alg PIM1 --cycles 300 --warmup 100 -q \
   && grep -q '^"a""b,c",4x4,uniform,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "alpha21364 escapes a CSV label"; fi
if accept $A --size 6x4 --rates 0.01 --alg PIM1 --cycles 300 --warmup 100 -q \
   && grep -q '^-,6x4,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "alpha21364 --size 6x4 runs 6x4"; fi
# A production mix with requests and responses on scattered node IDs runs.
if accept $S --topo 4x4x4 --workload mix --jobs 8,16 --rsp 0.5 --rsp-bias 2,2,2 --nid-scatter 8 \
     --warmup 200 --cycles 800 --csv --quiet && grep -q '^"",4x4x4,uniform,age,' "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "seastar_sim runs --workload mix with --rsp, --rsp-bias and --nid-scatter"; fi
printf '# a permutation\n1\n0\n\n3\n2\n' > "$tmp/perm.txt"
if accept $S --topo 4 --pattern perm --perm "$tmp/perm.txt" --cycles 500 --warmup 0 --quiet; then ok
else bad "seastar_sim runs a valid --perm file"; fi
# matching_study run on its own creates its default output folder.
if accept $Q --arbs 1 && [ -s "$tmp/build/study/fig8.csv" ] && [ -s "$tmp/build/study/effects.csv" ]; then ok
else bad "matching_study creates its default output folder build/study"; fi
if accept $Q --arbs 1 --out "$tmp/a/b/c" && [ -s "$tmp/a/b/c/fig9.csv" ]; then ok
else bad "matching_study --out creates a nested folder"; fi
if accept $M --cycles 2000 --period 8 --bias 1 && grep -q "period 8, bias 1" "$tmp/out" \
   && ! grep -q "Jain index of the mesh" "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "merging --cycles --period --bias runs the table without the sweep"; fi

# An option given twice is refused by every program of the shared parser.
refuse $M --cycles    --cycles 10 --cycles 20
refuse $Q --arbs      --arbs 1 --arbs 2
refuse $A --seed      --seed 1 --seed 2
refuse $F --out       --out a --out b
refuse $N --topo      --topo torus:4 --topo torus:8
refuse $N --csv       --csv --csv
refuse $P --out       --out a --out b
refuse bubble_check --nodes --nodes 3 --nodes 4
# The bit patterns on a node count that is not a power of two take results
# modulo N (examples/common/sim_traffic.h): the run says so.  Bit reversal
# on 5 bits maps the palindromes 0, 4, 10, 14, 17, 21 (all below 27) to
# themselves, and no other node below 27 to itself plus 27.
if accept $S --topo 3x3x3 --pattern bitrev --cycles 200 --warmup 0 --quiet \
   && grep -q "^seastar_sim: note: --pattern bitrev on 27 terminals .*: 6 terminals map to themselves" "$tmp/err"; then ok
else bad "seastar_sim explains bitrev on 3x3x3"; fi
if accept $N --topo torus:3x3x3 --pattern bitrev --cycles 200 --warmup 0 --quiet \
   && grep -q "^netsim: note: --pattern bitrev on 27 terminals .*: 6 terminals map to themselves" "$tmp/err"; then ok
else bad "netsim explains bitrev on 3x3x3"; fi
if accept $S --topo 4x4x4 --pattern bitrev --cycles 200 --warmup 0 --quiet && ! grep -q "note:" "$tmp/err"; then ok
else bad "seastar_sim runs bitrev on 4x4x4 (a permutation) without a note"; fi

# bubble_check (examples/bubble_check.c): the grid, or one configuration.
U=bubble_check
refuse $U --nodes     --nodes 1 --chunks 16 --sizes 1,8
refuse $U --nodes     --nodes 9 --chunks 16 --sizes 1,8
refuse $U --nodes     --nodes 3x --chunks 16 --sizes 1,8
refuse $U --chunks    --nodes 3 --chunks 15 --sizes 1,8          # below two full-sized packets
refuse $U --chunks    --nodes 3 --chunks 256 --sizes 1,8
refuse $U --chunks    --nodes 3 --chunks 40 --sizes 1            # 40 one-chunk packets in a buffer
refuse $U --sizes     --nodes 3 --chunks 16 --sizes 0
refuse $U --sizes     --nodes 3 --chunks 16 --sizes 9
refuse $U --sizes     --nodes 3 --chunks 16 --sizes 1,,8
refuse $U --sizes     --nodes 3 --chunks 16 --sizes 1,1
refuse $U --sizes     --nodes 3 --chunks 16                      # one configuration needs its sizes
refuse $U --packets   --nodes 3 --chunks 16 --sizes 8 --packets 256
refuse $U --packets   --nodes 3 --chunks 16 --sizes 8 --packets -1
refuse $U --rule      --nodes 3 --chunks 16 --sizes 8 --rule bubble
refuse $U --max-states --max-states 10
refuse $U --small     --small --nodes 3 --chunks 16 --sizes 8
refuse $U --out       --nodes 3 --chunks 16 --sizes 8 --out x.csv
refuse $U --out       --small --out /nonexistent/dir/x.csv
refuse $U unknown     --bogus
refuse $U unexpected  3
if accept $U --nodes 3 --chunks 17 --sizes 1,8 -q && grep -q "^textbook rule: DEADLOCK after 10 moves" "$tmp/out" \
   && grep -q "^full-size rule: no deadlock" "$tmp/out"; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "$U --nodes 3 --chunks 17 --sizes 1,8 finds the textbook deadlock and none under the full-size rule"; fi
if accept $U --small -q --out "$tmp/b.csv" --witness "$tmp/w.csv" && [ "$(wc -l < "$tmp/b.csv")" -eq 5 ] \
   && grep -q "^3,17,1+8,any,textbook,deadlock," "$tmp/b.csv" && [ -s "$tmp/w.csv" ]; then ok
else bad "$U --small writes its four rows and the witness"; fi

# bench_route (build/bench, next to BINDIR): its routing results take
# hours, so a bad value must stop it before any run.
bin_ex=$bin; bin="$bin/../bench"; R=bench_route
if [ -x "$bin/$R" ]; then
    refuse $R --section     --section scales
    refuse $R --sizes       --section single --sizes 4x4
    refuse $R --sizes       --section single --sizes 4x4x4,,8x8x8
    refuse $R --sizes       --section single --sizes 4x4x65
    refuse $R --sizes       --section single --sizes 4x4x+4
    refuse $R --sizes       --section single --sizes 64x64x64
    refuse $R --fixed-sizes --section single --fixed-sizes nonex
    refuse $R --pairs       --section double --pairs 0
    refuse $R --jobs        --jobs 65
    refuse $R --max-radix   --max-radix 12
    refuse $R --min-radix   --min-radix 16 --max-radix 8
    refuse $R --generators  --generators search,
    refuse $R --out         --out
    refuse $R unknown       --bogus 1
    if accept $R --help && grep -q -e "--fixed-sizes" "$tmp/out"; then ok; else bad "$R --help exits 0"; fi
    if accept $R --section single --sizes 3x3x3 --fixed-sizes none && grep -q '^3x3x3,108,81,27,108,[0-9.]*,,$' "$tmp/out"
    then ok; else cat "$tmp/out" >> "$tmp/err"; bad "$R proves every single fault of 3x3x3"; fi
else
    echo "no $bin/$R" > "$tmp/err"; bad "$R is built"
fi
bin=$bin_ex

# bench_aging and bench_alpha (build/bench): a strict command line, and a
# short valid run that prints every row.
bin_ex=$bin; bin="$bin/../bench"
for b in bench_aging bench_alpha; do
    refuse $b unknown   --bogus
    refuse $b unexpected 5
    refuse $b --runs    --runs 0
    refuse $b --runs    --runs abc
    refuse $b --runs    --runs 1 --runs 2
    if accept $b --help && grep -q -e "--runs" "$tmp/out"; then ok; else bad "$b --help exits 0 and lists --runs"; fi
done
refuse bench_aging --ops --ops 10k
refuse bench_alpha --cycles --cycles -1              # ran on
refuse bench_alpha --warmup --warmup 1e3
if accept bench_aging --runs 1 --ops 1000 && [ "$(wc -l < "$tmp/out")" -eq 10 ]; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "bench_aging --runs 1 --ops 1000 prints its nine rows"; fi
if accept bench_alpha --runs 1 --warmup 0 --cycles 2 && [ "$(grep -c '^alpha_model,8x8,' "$tmp/out")" -gt 1 ]; then ok
else cat "$tmp/out" >> "$tmp/err"; bad "bench_alpha --runs 1 --warmup 0 --cycles 2 prints its rows"; fi
bin=$bin_ex

# bench_sim (build/bench, next to build/examples): a strict command line
# and a short valid run.  The 9-flit case of a 4x4x4 torus at load 0.1 is
# far below saturation, so it delivers what it is offered (to within the
# Bernoulli noise of 2,000 cycles).
bin_ex=$bin
if [ -x "$bin/../bench/bench_sim" ]; then
    bin="$bin/../bench"
    refuse bench_sim --radix --radix 40
    refuse bench_sim --radix --radix 8,x
    refuse bench_sim --radix --radix 1,2,3,4,5,6,7,8,9
    refuse bench_sim --flits --flits 3
    refuse bench_sim --cycles --cycles 0
    refuse bench_sim --warmup --warmup -1
    refuse bench_sim --bogus --bogus
    if accept bench_sim --help && grep -q -e "--radix" "$tmp/out" && grep -q -e "--flits" "$tmp/out"; then ok
    else bad "bench_sim --help exits 0 and lists its options"; fi
    if accept bench_sim --radix 4 --flits 9 --warmup 500 --cycles 2000 \
       && [ "$(wc -l < "$tmp/out")" -eq 2 ] \
       && awk -F, 'NR == 2 && $1 == "4x4x4_9flit_load0.1" && $2 == 64 && $3 == 1 && $4 == 9 && $6 == 2000 &&
                   $15 > 0.09 && $15 < 0.11 && $18 == "no" { f = 1 } END { exit !f }' "$tmp/out"; then ok
    else cat "$tmp/out" >> "$tmp/err"; bad "bench_sim --radix 4 --flits 9 runs one case below saturation"; fi
else
    echo "no $bin/../bench/bench_sim" > "$tmp/err"; bad "bench_sim is built"
fi
bin=$bin_ex

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
