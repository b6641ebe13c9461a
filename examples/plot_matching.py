#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Plot the standalone matching study (seed 002 Figures 8 and 9).

Reads DIR/fig8.csv, DIR/fig9.csv and DIR/effects.csv written by
build/examples/matching_study and writes DIR/fig8.png, DIR/fig9.png and
DIR/effects.png.  Usage: /usr/bin/python3 examples/plot_matching.py DIR
Needs Debian's python3-matplotlib (make study installs it if missing).
"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"MCM": "k-", "PIM": "b--", "WFA": "g-.", "WFA_wrapped": "c:",
         "PIM1": "m-", "SPAA": "r-", "SPAA_8": "r:"}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows


def curve_plot(rows, xkey, xlabel, title, out, xscale=1.0):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    xs = [float(r[xkey]) * xscale for r in rows]
    for name, style in STYLE.items():
        ax.plot(xs, [float(r[name]) for r in rows], style, marker="o", ms=3,
                label=name.replace("_", "-"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("arbitration matches per cycle")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, 7.3)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def effects_plot(rows, out):
    variants = []
    for r in rows:
        if r["variant"] not in variants:
            variants.append(r["variant"])
    occs = sorted({float(r["occupancy"]) for r in rows})
    fig, axes = plt.subplots(1, len(occs), figsize=(4.2 * len(occs), 4.2), sharey=False)
    algs = ["MCM", "PIM", "WFA", "PIM1", "SPAA", "SPAA_8"]
    width = 0.8 / len(variants)
    for ax, occ in zip(axes, occs):
        for k, v in enumerate(variants):
            row = [r for r in rows if r["variant"] == v and float(r["occupancy"]) == occ][0]
            ax.bar([i + k * width for i in range(len(algs))],
                   [float(row[a]) for a in algs], width, label=v)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(algs))])
        ax.set_xticklabels([a.replace("_", "-") for a in algs], fontsize=7)
        ax.set_title("output occupancy %d%%" % round(100 * occ), fontsize=10)
        lo = min(float(r[a]) for r in rows if float(r["occupancy"]) == occ for a in algs)
        ax.set_ylim(lo * 0.9, None)
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("matches per cycle at MCM saturation load")
    axes[-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/study"
    curve_plot(read(d + "/fig8.csv"), "load_fraction",
               "input load / MCM saturation load",
               "21364 standalone model, all outputs free (cf. seed 002 Fig. 8)",
               d + "/fig8.png")
    curve_plot(read(d + "/fig9.csv"), "occupancy", "output port occupancy (%)",
               "21364 standalone model at MCM saturation load (cf. Fig. 9)",
               d + "/fig9.png", xscale=100.0)
    effects_plot(read(d + "/effects.csv"), d + "/effects.png")
    print("wrote %s/fig8.png, fig9.png, effects.png" % d)


if __name__ == "__main__":
    main()
