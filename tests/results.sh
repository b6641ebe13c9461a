#!/bin/sh
# SPDX-License-Identifier: MIT
# The drift check of make test: rerun the small configuration of every
# experiment of `make results` (examples/results.py --small: the same
# experiments on small networks, short windows, 2 seeds) and compare every
# file it writes, byte for byte, with the committed docs/data/small/.  A
# change to the simulators, the workload model or the tables that moves a
# result makes this fail until `make results` is rerun and its output
# committed, so the numbers the docs show cannot drift from the code.
# Each compared file counts as one test.
#
#   sh tests/results.sh            (needs build/examples/seastar_sim)
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
passed=0; failed=0
ref=docs/data/small
if [ ! -d "$ref" ]; then
    echo "FAIL $ref is missing (make results writes it)"; echo "0 passed, 1 failed"; exit 1
fi
if ! $py examples/results.py --small "$tmp/small" --no-cache > "$tmp/log" 2>&1; then
    echo "FAIL examples/results.py --small did not finish:"; tail -n 20 "$tmp/log" | sed 's/^/    /'
    echo "0 passed, 1 failed"; exit 1
fi
for f in $( (cd "$ref" && find . -type f; cd "$tmp/small" && find . -type f) | sort -u); do
    if [ ! -f "$ref/$f" ]; then
        failed=$((failed + 1)); echo "FAIL $f is written but not committed in $ref (rerun make results)"
    elif [ ! -f "$tmp/small/$f" ]; then
        failed=$((failed + 1)); echo "FAIL $ref/$f is no longer written"
    elif cmp -s "$ref/$f" "$tmp/small/$f"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $ref/$f differs from what the code now gives (rerun make results):"
        diff "$ref/$f" "$tmp/small/$f" | head -n 8 | sed 's/^/    /'
    fi
done
# The projection of the MPI simulator's speed on many hosts
# (docs/data/sim_projection.csv) is what examples/sim_projection.py makes of
# the committed bench_sim measurements (make sim-results writes both).
if [ -f docs/data/bench_sim.csv ] && $py examples/sim_projection.py docs/data/bench_sim.csv "$tmp/proj.csv" \
   && cmp -s "$tmp/proj.csv" docs/data/sim_projection.csv; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL docs/data/sim_projection.csv is not the projection of docs/data/bench_sim.csv (make sim-results)"
fi
# The options make results uses are parsed strictly: each bad value or
# contradiction stops seastar_sim with exit status 2 and one line naming it.
sim=build/examples/seastar_sim
for c in "--workload:--workload foo" "--jobs:--workload mix --jobs 0" "--jobs:--topo 4x4 --workload mix --jobs 512" \
         "--ranks:--topo 4x4x4 --workload alltoall --ranks 65" "--seeds:--seeds 2" "--load:--workload mix --load 0.2" \
         "--cycles:--workload ffte --cycles 100" "--halo:--halo 4" "--ranks:--ranks 4" "--nid-order:--workload mix --nid-order y" \
         "--iterations:--workload allreduce --iterations 0" "--seeds:--seeds 2 --csv --compare"; do
    name=${c%%:*}; args=${c#*:}
    # shellcheck disable=SC2086
    $sim $args > "$tmp/out" 2> "$tmp/err"; st=$?
    if [ "$st" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -e "$name" "$tmp/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL seastar_sim $args: exit status $st, not one line naming $name:"
        sed 's/^/    /' "$tmp/err" | head -n 3
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
