#!/bin/sh
# SPDX-License-Identifier: MIT
# The SeaStar half of `make results`: run the SeaStar experiments (merging,
# Table 5 and its sensitivity study, the period sweep, Table 6, latency
# against load; 5 seeds each), redo every table in docs/data and draw the
# figures in docs/img (docs/results.rst shows them).
#
#   sh examples/plot_seastar.sh
#
# examples/results.py prints the expected duration and each finished run;
# runs already done with the same simulator binary are taken from
# build/results-cache.  `make results` also runs the Alpha 21364 experiments
# and writes the drift-check copy docs/data/small.
set -e
cd "$(dirname "$0")/.."
make -s build/examples/seastar_sim build/examples/diagram_data
/usr/bin/python3 examples/results.py --only merging,table5,sensitivity,period,table6,table6_sweep,latency_load
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || {
    echo "plot_seastar: installing Debian's python3-matplotlib"
    sudo=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
    $sudo apt-get install -y python3-matplotlib >/dev/null 2>&1 || \
        { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y python3-matplotlib >/dev/null; }
}
/usr/bin/python3 examples/plot_seastar.py
