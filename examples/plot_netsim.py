#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Draw the network simulator's figures of the docs from the tables that
examples/results.py writes (the experiment "netsim"; make results runs
both): latency against offered load, and saturation throughputs.

    /usr/bin/python3 examples/plot_netsim.py [DATADIR [IMGDIR]]
    (defaults docs/data and docs/img)

Error bars are 95% confidence intervals over the seeds; a curve stops where
the network saturates (the accepted load falls below 95% of the offered).
Needs Debian's python3-matplotlib (make results installs it if missing).
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_seastar import TOP, rows, save  # noqa: E402  (the figures' common helpers)

PANELS = [
    ("df", "uniform", "1,056-terminal dragonfly, uniform random"),
    ("df", "groupshift", "1,056-terminal dragonfly, worst case (group i to i+1)"),
    ("fb", "uniform", "8-ary 3-flat flattened butterfly, uniform random"),
    ("fb", "tornado", "8-ary 3-flat flattened butterfly, tornado"),
    ("clos", "uniform", "folded Clos (1,024 terminals), uniform random"),
    ("clos", "perm", "folded Clos (1,024 terminals), a random permutation"),
]


def num(x):
    return float(x) if x not in ("", "inf") else float("nan")


def latency_load(data, img):
    ll = rows(os.path.join(data, "netsim_latency_load.csv"))
    fig, axes = plt.subplots(3, 2, figsize=(11, 11))
    for a, (net, pat, title) in zip(axes.flat, PANELS):
        for k, routing in enumerate(sorted(set(r["routing"] for r in ll if r["network"] == net))):
            pts = [r for r in ll if r["network"] == net and r["pattern"] == pat and r["routing"] == routing]
            pts.sort(key=lambda r: num(r["offered"]))
            # below saturation only: the latency of a saturated run is the
            # time its packets waited in capped source queues
            pts = [r for r in pts if num(r["accepted"]) >= 0.95 * num(r["offered"])]
            if not pts:
                continue
            a.errorbar([num(r["accepted"]) for r in pts], [num(r["mean latency (cycles)"]) for r in pts],
                       yerr=[num(r["latency +/-"]) for r in pts], marker="o", ms=4, capsize=2, color="C%d" % k,
                       label=routing)
        a.set_title(title, fontsize=10)
        a.set_xlabel("accepted load (flits per terminal per cycle)")
        a.set_ylabel("mean packet latency (cycles)")
        a.set_xlim(left=0)
        a.grid(True, alpha=0.3)
        a.legend(fontsize=8)
    save(fig, img, "netsim_latency_load.png")


def saturation(data, img):
    sat = rows(os.path.join(data, "netsim_saturation.csv"))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for a, net, pats, title in ((axes[0], "df", ("uniform", "groupshift"), "dragonfly p=4 a=8 h=4"),
                                (axes[1], "fb", ("uniform", "tornado"), "flattened butterfly 8-ary 3-flat"),
                                (axes[2], "clos", ("uniform", "bitrev", "perm"), "folded Clos, 1,024 terminals")):
        routings = sorted(set(r["routing"] for r in sat if r["network"] == net))
        w = 0.8 / len(pats)
        for j, pat in enumerate(pats):
            v = [next((r for r in sat if r["network"] == net and r["routing"] == x and r["pattern"] == pat), None)
                 for x in routings]
            a.bar([i + (j - (len(pats) - 1) / 2) * w for i in range(len(routings))],
                  [num(r["saturation throughput"]) if r else 0 for r in v], w,
                  yerr=[num(r["+/-"]) if r else 0 for r in v], capsize=2, label=pat, color="C%d" % j)
        if net == "df":
            a.axhline(0.5, color="k", lw=0.8, ls="--")
            a.text(len(routings) - 0.5, 0.5, "1/2 (Valiant's bound)", fontsize=8, ha="right", va="bottom")
            a.axhline(1 / 32, color="k", lw=0.8, ls=":")
            a.text(len(routings) - 0.5, 1 / 32, "1/(ap)", fontsize=8, ha="right", va="bottom")
        a.set_xticks(range(len(routings)))
        a.set_xticklabels(routings, fontsize=9)
        a.set_title(title, fontsize=10)
        a.set_ylabel("saturation throughput (flits/terminal/cycle)")
        a.grid(True, axis="y", alpha=0.3)
        a.legend(fontsize=8)
    save(fig, img, "netsim_saturation.png")


def main():
    dirs = sys.argv[1:3] + [os.path.join(TOP, "docs", d) for d in ("data", "img")][len(sys.argv[1:3]):]
    os.makedirs(dirs[1], exist_ok=True)
    latency_load(*dirs)
    saturation(*dirs)


if __name__ == "__main__":
    main()
