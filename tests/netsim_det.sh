#!/bin/sh
# SPDX-License-Identifier: MIT
# Determinism of the network simulator across compilers and flags (make
# test): examples/netsim.c built with gcc -O0 (C11), g++ -O2 as C++ and
# clang -O2 (where installed) must print, byte for byte, what the default
# build (build/examples/netsim, gcc -std=c99 -O2) prints for the same
# command lines: a torus, a dragonfly with adaptive routing and random
# intermediates, a HyperX with minimal adaptive routing, a folded Clos.
# Counted like tests; ends with "N passed, N failed".
#
#   sh tests/netsim_det.sh [BUILDDIR]
cd "$(dirname "$0")/.." || exit 2
b=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
ref=$b/examples/netsim
W="-Wall -Wextra -Wpedantic -Werror -Wshadow -D_POSIX_C_SOURCE=200809L"
set -- \
  "gcc-O0:gcc -std=c11 $W -O0" \
  "g++:g++ -x c++ -std=c++11 $W -O2"
command -v clang >/dev/null 2>&1 && set -- "$@" "clang-O2:clang -std=c99 $W -O2"
runs="--topo torus:5x4 --load 0.4 --sizes 1,4 --cycles 1500 --warmup 200
--topo dragonfly:2,4,2 --routing ugal-l --pattern groupshift --load 0.3 --cycles 1500 --warmup 200
--topo hyperx:4x3:2 --routing min-adaptive --va pim --load 0.5 --cycles 1500 --warmup 200
--topo clos:3/3,4 --pattern bitrev --load 0.4 --cycles 1500 --warmup 200"
for cfg in "$@"; do
    name=${cfg%%:*}; cc=${cfg#*:}
    # shellcheck disable=SC2086
    if ! $cc examples/netsim.c -o "$tmp/netsim_$name" -lm 2> "$tmp/err"; then
        failed=$((failed + 1)); echo "FAIL $name: examples/netsim.c does not build"; head -n 5 "$tmp/err"; continue
    fi
    echo "$runs" | while read -r args; do
        # shellcheck disable=SC2086
        "$ref" $args --csv --quiet > "$tmp/ref.csv" 2>&1
        # shellcheck disable=SC2086
        "$tmp/netsim_$name" $args --csv --quiet > "$tmp/got.csv" 2>&1
        if [ -s "$tmp/ref.csv" ] && cmp -s "$tmp/ref.csv" "$tmp/got.csv"; then echo ok; else echo "bad $args"; fi
    done > "$tmp/res"
    while read -r line; do
        case $line in
        ok) passed=$((passed + 1)) ;;
        *) failed=$((failed + 1)); echo "FAIL $name prints what the default build prints: ${line#bad }" ;;
        esac
    done < "$tmp/res"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
