#!/bin/sh
# SPDX-License-Identifier: MIT
# Sum the runner logs of every test configuration; print the failures (and
# the optional steps skipped) and close with the single line "N passed, N
# failed".
passed=0; failed=0
for log in "$@"; do
    name=$(basename "$(dirname "$log")"); [ "$name" = build ] && name=$(basename "$log" .log)
    if [ ! -f "$log" ]; then
        echo "[$name] no log: the build failed"; failed=$((failed + 1)); continue
    fi
    if head -n 1 "$log" | grep -q '^skipped: '; then
        echo "[$name] $(head -n 1 "$log")"; continue
    fi
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    status=$(sed -n 's/^exit status //p' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "[$name] crashed or did not finish (exit status $status):"
        tail -n 20 "$log" | sed 's/^/    /'
        failed=$((failed + 1)); continue
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ] || [ "$status" != 0 ]; then
        echo "[$name] $p passed, $f failed (exit status $status):"
        grep -v -E '^[0-9]+ passed, [0-9]+ failed$|^exit status' "$log" | sed 's/^/    /'
        [ "$f" -eq 0 ] && failed=$((failed + 1))
    else
        echo "[$name] all $p passed"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
