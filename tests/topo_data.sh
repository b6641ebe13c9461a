#!/bin/sh
# SPDX-License-Identifier: MIT
# The drift check of the topology tables of make test: rerun
# examples/topology_formulas (seed 004's formulas next to the library's
# values, and the metrics of example networks) and compare what it writes,
# byte for byte, with the committed docs/data/topology_formulas.csv and
# docs/data/topology_metrics.csv; check the formulas table's columns and
# verdicts.  A change to seastar_topo.h that moves a number makes this fail
# until `make results` (or the command below) is rerun and its output
# committed.  Each check counts as one test.
#
#   sh tests/topo_data.sh [BINDIR]     (default build/examples)
#   ./build/examples/topology_formulas --out docs/data     (regenerates)
cd "$(dirname "$0")/.." || exit 2
bin=${1:-build/examples}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
if ! "$bin/topology_formulas" --out "$tmp" > "$tmp/log" 2>&1; then
    echo "FAIL $bin/topology_formulas --out did not finish:"; sed 's/^/    /' "$tmp/log" | head -n 5
    echo "0 passed, 1 failed"; exit 1
fi
for f in topology_formulas.csv topology_metrics.csv; do
    if cmp -s "docs/data/$f" "$tmp/$f"; then passed=$((passed + 1)); continue; fi
    failed=$((failed + 1))
    echo "FAIL docs/data/$f is missing or differs from what the code now gives (rerun make results):"
    diff "docs/data/$f" "$tmp/$f" 2>&1 | head -n 8 | sed 's/^/    /'
done
# The required columns first, in order; every verdict from the list.
if head -n 1 "$tmp/topology_formulas.csv" | grep -q '^id,seed_line,quantity,paper_value,ours,verdict'; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL topology_formulas.csv does not start with id,seed_line,quantity,paper_value,ours,verdict"
fi
bad=$(tail -n +2 "$tmp/topology_formulas.csv" | grep -v -E ',(equal|print-error-corrected|approximation|bound-holds|convention|not-printed),' | head -n 3)
if [ -z "$bad" ]; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL rows without a known verdict:"; echo "$bad" | sed 's/^/    /'; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
