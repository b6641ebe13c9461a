#!/bin/sh
# SPDX-License-Identifier: MIT
# Cache misses per router-cycle of the SeaStar simulator, by valgrind's
# cachegrind (perf's hardware counters are not available everywhere).
# Two runs of the same seed differ only in their measured cycles, C1 and
# C2, after the same warm-up, so set-up and warm-up cancel in the
# difference.  The simulated caches: a 32 KiB 8-way D1 and a last level
# given as SIZE,WAYS,LINE (e.g. 524288,8,64 for an L2, 33554432,16,64 for
# an L3).  Uniform traffic, 1-flit packets, load 0.2, seed 1.  Prints one
# CSV line with a header.  Slow: cachegrind runs the simulator some 20 to 50
# times slower (a 32x32x32 cycle takes seconds).
#
#   sh bench/sim_cache_misses.sh K WARMUP C1 C2 LL [SIM]
#   (SIM: default build/examples/seastar_sim)
set -e
if [ $# -lt 5 ]; then
    echo "usage: sh bench/sim_cache_misses.sh K WARMUP C1 C2 SIZE,WAYS,LINE [SIM]" >&2; exit 2
fi
k=$1; warm=$2; c1=$3; c2=$4; ll=$5; sim=${6:-build/examples/seastar_sim}
for v in "$k" "$warm" "$c1" "$c2"; do
    case $v in ''|*[!0-9]*) echo "sim_cache_misses.sh: '$v' is not a whole number (K WARMUP C1 C2)" >&2; exit 2;; esac
done
case $ll in *[!0-9,]*|,*|*,|*,,*) ok=0;; *,*,*) ok=1;; *) ok=0;; esac
[ "$ok" = 1 ] || { echo "sim_cache_misses.sh: last level '$ll' is not SIZE,WAYS,LINE" >&2; exit 2; }
[ "$c2" -gt "$c1" ] && [ "$c1" -ge 1 ] || { echo "sim_cache_misses.sh: need 1 <= C1 < C2" >&2; exit 2; }
[ -x "$sim" ] || { echo "sim_cache_misses.sh: no simulator at $sim (make examples)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "sim_cache_misses.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for c in "$c1" "$c2"; do
    valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL="$ll" --cachegrind-out-file="$tmp/cg.$c" \
        "$sim" --topo "${k}x${k}x${k}" --sizes 1 --load 0.2 --warmup "$warm" --cycles "$c" --quiet --csv \
        > "$tmp/out.$c" 2> "$tmp/log.$c" &
done
wait
for c in "$c1" "$c2"; do
    grep -q "LLd misses" "$tmp/log.$c" || { echo "sim_cache_misses.sh: the cachegrind run of $c cycles failed:" >&2; tail -n 5 "$tmp/log.$c" >&2; exit 1; }
done
echo "routers,warmup,cycles_compared,last_level,instructions_per_router_cycle,d1_misses_per_router_cycle,ll_misses_per_router_cycle"
awk -v k="$k" -v w="$warm" -v c1="$c1" -v c2="$c2" -v ll="$ll" '
    function num(s) { gsub(/,/, "", s); return s + 0 }
    FILENAME ~ /log\./ && /I +refs:/      { i[FILENAME] = num($4) }
    FILENAME ~ /log\./ && /D1 +misses:/   { d[FILENAME] = num($4) }
    FILENAME ~ /log\./ && /LLd +misses:/  { l[FILENAME] = num($4) }
    END {
        a = ARGV[1]; b = ARGV[2]; rc = (c2 - c1) * k * k * k
        printf "%d,%d,%d,%s,%.0f,%.2f,%.2f\n", k * k * k, w, c2 - c1, "\"" ll "\"",
               (i[b] - i[a]) / rc, (d[b] - d[a]) / rc, (l[b] - l[a]) / rc
    }' "$tmp/log.$c1" "$tmp/log.$c2"
