#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every fuzz harness for SECONDS each (make check-long; make fuzz builds
# them): libFuzzer harnesses when clang is installed, else the same
# harnesses on tests/fuzz/driver.c's random inputs.  A failing input is kept
# in build/fuzz/artifacts/; replay it with build/fuzz/fuzz_NAME FILE.
# Ends with the line "N passed, N failed".
#
#   sh tests/fuzz/run.sh [SECONDS] [BINDIR]     (default 20, build/fuzz)
secs=${1:-20}
dir=${2:-build/fuzz}
mkdir -p "$dir/artifacts" "$dir/corpus"
passed=0; failed=0
for bin in "$dir"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    mkdir -p "$dir/corpus/$name"
    log="$dir/$name.log"
    if (cd "$dir/artifacts" && ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
          "../$name" -max_total_time="$secs" -seed=1 -print_final_stats=1 -artifact_prefix="$name-" \
          "../corpus/$name") > "$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p; s/^driver: \([0-9]*\) random inputs ran.*/\1/p' "$log" | tail -n 1)
        echo "PASS $name (${runs:-?} inputs in $secs s)"
        passed=$((passed + 1))
    else
        echo "FAIL $name (log: $log)"
        { grep -A1 'check failed' "$log"; grep -E 'runtime error|ERROR: (AddressSanitizer|LeakSanitizer)' "$log"; } \
            | head -n 4 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
