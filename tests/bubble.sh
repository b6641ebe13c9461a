#!/bin/sh
# SPDX-License-Identifier: MIT
# The drift check of the bubble model check, in make test: rerun the rows
# of examples/bubble_check.c's grid marked small (bubble_check --small) and
# compare each with the row of the same configuration and rule in the
# committed docs/data/bubble_check.csv, every column but the wall-clock
# seconds; and the witness (docs/data/bubble_witness.csv, the moves of the
# first deadlock, which the small rows find) byte for byte.  A change to the
# library's bubble rule or to the search that moves a verdict, a state count
# or the witness fails here until make results (make bubble-results) is
# rerun and its output committed.  Each compared row or file counts as one
# test.
#
#   sh tests/bubble.sh [BINARY]     (default build/examples/bubble_check)
cd "$(dirname "$0")/.." || exit 2
bin=${1:-build/examples/bubble_check}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
csv=docs/data/bubble_check.csv
wit=docs/data/bubble_witness.csv
if ! "$bin" --small --quiet --out "$tmp/small.csv" --witness "$tmp/witness.csv" 2> "$tmp/err"; then
    echo "FAIL $bin --small did not finish:"; sed 's/^/    /' "$tmp/err" | head -n 5
    echo "0 passed, 1 failed"; exit 1
fi
if [ "$(head -n 1 "$tmp/small.csv")" = "$(head -n 1 "$csv")" ]; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL the header of $csv differs from what bubble_check writes"; fi
tail -n +2 "$tmp/small.csv" > "$tmp/rows"
rows=0
while IFS= read -r line; do
    rows=$((rows + 1))
    key=$(printf '%s\n' "$line" | cut -d, -f1-5)
    now=$(printf '%s\n' "$line" | cut -d, -f1-8)
    then=$(cut -d, -f1-8 "$csv" | grep -F -x -e "$now")
    if [ -n "$then" ]; then passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $csv, $key: the code now gives"
        echo "    $now"
        echo "    committed: $(cut -d, -f1-8 "$csv" | grep -F -e "$key," | head -n 1)"
    fi
done < "$tmp/rows"
if [ "$rows" -lt 2 ]; then failed=$((failed + 1)); echo "FAIL bubble_check --small wrote $rows rows"; fi
if cmp -s "$tmp/witness.csv" "$wit"; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL $wit differs from what the code now gives:"; diff "$wit" "$tmp/witness.csv" | head -n 8 | sed 's/^/    /'; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
