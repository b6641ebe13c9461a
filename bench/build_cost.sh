#!/bin/sh
# build_cost.sh - what including seastar_arb.h costs a caller's build: the
# compile time (fastest of five, user CPU seconds) and the code size (text
# bytes) of one translation unit with gcc -O2, for a caller of
# sa_switch_allocate with every kind compiled (the default), for one that
# names the one kind it uses (SA_SWITCH_KINDS, here iSLIP), each with the
# SSE2 kernels and with SA_NO_SIMD (the reference only), and for a caller
# of the aging functions only.  CSV on stdout:
#
#   unit,build,seconds,text_bytes
#
# Usage: sh bench/build_cost.sh [CC]   (default gcc)
cc=${1:-gcc}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/alloc.c" <<'C'
#include "seastar_arb.h"
int call(sa_switch *a, const uint64_t *req, sa_match *m);
int call(sa_switch *a, const uint64_t *req, sa_match *m) { return sa_switch_allocate(a, req, NULL, NULL, m); }
C
{ echo '#define SA_SWITCH_KINDS (1u << SA_SWITCH_ISLIP)'; cat "$tmp/alloc.c"; } > "$tmp/alloc-islip.c"
cat > "$tmp/aging.c" <<'C'
#include "seastar_arb.h"
unsigned call(const sa_age_clock *clk, uint16_t f);
unsigned call(const sa_age_clock *clk, uint16_t f) { return sa_age_at_head(clk, f); }
C
echo "unit,build,seconds,text_bytes"
for unit in alloc alloc-islip aging; do
    for build in sse2 reference; do
        flags=""
        [ "$build" = reference ] && flags="-DSA_NO_SIMD"
        best=""
        for r in 1 2 3 4 5; do
            t=$( { /usr/bin/time -f "%U" "$cc" -O2 $flags -I. -c "$tmp/$unit.c" -o "$tmp/$unit.o"; } 2>&1 ) || exit 1
            best=$(printf '%s\n%s\n' "$t" "$best" | grep . | sort -n | head -n 1)
        done
        text=$(size "$tmp/$unit.o" | awk 'NR == 2 { print $1 }')
        echo "$unit,$build,$best,$text"
    done
done
