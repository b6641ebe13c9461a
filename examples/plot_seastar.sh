#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproduce the SeaStar simulator results and draw them:
#
#   sh examples/plot_seastar.sh [CSVDIR]      (default build/plots)
#
# Runs build/examples/seastar_sim for each experiment (CSV files into
# CSVDIR, each point written as soon as it is done; the simulator's
# progress, with rate and time left, on stderr), then examples/plot_seastar.py draws PNGs and writes the small
# CSV tables into docs/img/, which docs/simulator.rst includes.  Uses
# Debian's /usr/bin/python3 with python3-matplotlib, installed with apt-get
# if missing.  QUICK=1 runs shorter windows (a smoke test, noisier numbers);
# ONLY="merging table5" runs only the named experiments (latency_load,
# merging, table5, figure5, period) and redraws everything that has data.
#
# Experiments (seed 000 Sections 1-4, seed 004 Section 8.2.4.1):
#   latency_load  8x8x8 torus, uniform, round-robin vs age, offered load sweep
#   merging       8-ary 1-mesh and 1-torus, P0..P6 -> P7 at saturation
#   table5        11x12x16 torus near saturation: round-robin, periods 4/8/16
#                 with biases 1,1,1 and 3,2,1
#   figure5       age histograms, periods 0x1000, 8, 4
#   period_sweep  the best AGE_CLOCK_PERIOD against the Section 3 estimate 18
set -e
cd "$(dirname "$0")/.."
out=${1:-build/plots}
img=docs/img
mkdir -p "$out" "$img"
make -s build/examples/seastar_sim
sim=./build/examples/seastar_sim

if [ "${QUICK:-0}" = 1 ]; then W=1000; C=3000; MW=2000; MC=10000
else W=2000; C=12000; MW=5000; MC=40000; fi
T5LOAD=${T5LOAD:-0.16}       # near saturation of the 11x12x16 torus (see docs)
AGE="--period 8 --bias 3,2,1"

run() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) ;; *) return 1;; esac; echo "plot_seastar: $2"; }

if run latency_load "latency against offered load (8x8x8)"; then
loads=0.05,0.1,0.15,0.2,0.25,0.28,0.31,0.34,0.37,0.4
{
    $sim --topo 8x8x8 --arb rr --loads $loads --warmup $W --cycles $C --label round-robin
    $sim --topo 8x8x8 $AGE --loads $loads --warmup $W --cycles $C --no-header \
         --label "age p8 bias 3,2,1"
} > "$out/latency_load.csv"
fi

if run merging "merging shares (Figure 4) and their period sweep"; then
merge() {  # topology-flag arbitration-flags output
    $sim --topo 8 $1 --tie plus --pattern hotspot --hotspot 7 --load 1 --srcq 16 $2 \
         --warmup $MW --cycles $MC --per-source "$3" --quiet > /dev/null
}
merge "--mesh x" "--arb rr" "$out/merging_mesh_rr.csv"
merge "--mesh x" "--period 13" "$out/merging_mesh_age.csv"
merge "" "--arb rr" "$out/merging_torus_rr.csv"
merge "" "--period 8" "$out/merging_torus_age.csv"
echo "network,period,share_min,share_max,max_over_min" > "$out/merging_sweep.csv"
for topo in mesh torus; do
    m=""; [ $topo = mesh ] && m="--mesh x"
    for p in 1 4 6 8 10 11 12 13 14 16 24 32 64 4096; do
        echo "plot_seastar: merging sweep, $topo, period $p" >&2
        merge "$m" "--period $p" "$out/tmp_share.csv"
        awk -F, -v t=$topo -v p=$p 'NR>1 && NR<=8 { if (mn == "" || $4 < mn) mn = $4; if ($4 > mx) mx = $4 }
            END { printf "%s,%s,%.4f,%.4f,%.2f\n", t, p, mn, mx, mx / mn }' "$out/tmp_share.csv" >> "$out/merging_sweep.csv"
    done
done
rm -f "$out/tmp_share.csv"
fi

if run table5 "Table 5 configurations on 11x12x16 at load $T5LOAD"; then
{
    $sim --topo 11x12x16 --arb rr --load $T5LOAD --warmup $W --cycles $C --csv --label rr
    for p in 4 8 16; do
        for b in 1,1,1 3,2,1; do
            $sim --topo 11x12x16 --period $p --bias $b --load $T5LOAD --warmup $W --cycles $C \
                 --csv --no-header --label "p$p b$b"
        done
    done
} > "$out/table5.csv"
fi

if run figure5 "age histograms (Figure 5; periods 8 and 4 come from the Table 5 runs)"; then
{
    $sim --topo 11x12x16 --period 0x1000 --load $T5LOAD --warmup $W --cycles $C --csv --label fig5
    grep '^"p8 b1,1,1"' "$out/table5.csv"
    grep '^"p4 b1,1,1"' "$out/table5.csv"
} > "$out/figure5.csv"
fi

if run period "age clock period sweep (Section 3 estimate 18)"; then
head -2 "$out/table5.csv" > "$out/period_rr.csv"     # the round-robin run of Table 5
{
    first=1
    for p in 2 4 6 8 10 12 14 16 18 20 24 32 48 64 128; do
        h="--no-header"; [ $first = 1 ] && h=""; first=0
        $sim --topo 11x12x16 --period $p --bias 3,2,1 --load $T5LOAD --warmup $W --cycles $C --csv $h --label sweep
    done
} > "$out/period_sweep.csv"
fi

py=/usr/bin/python3
if ! $py -c 'import matplotlib' >/dev/null 2>&1; then
    echo "plot_seastar: installing Debian's python3-matplotlib"
    sudo=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
    $sudo apt-get install -y python3-matplotlib >/dev/null 2>&1 || \
        { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y python3-matplotlib >/dev/null; }
fi
$py examples/plot_seastar.py "$out" "$img"
echo "plot_seastar: PNGs and tables in $img, raw CSV in $out"
