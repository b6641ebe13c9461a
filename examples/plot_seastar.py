#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Draw the SeaStar simulator figures from the CSV files that
examples/plot_seastar.sh writes.  Usage: plot_seastar.py CSVDIR IMGDIR

Run by plot_seastar.sh with Debian's /usr/bin/python3 and python3-matplotlib.
Writes PNGs and the small CSV tables the docs include into IMGDIR.
"""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def latency_vs_load(src, img):
    data = rows(os.path.join(src, "latency_load.csv"))
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for label, style in (("round-robin", "o-"), ("age p8 bias 3,2,1", "s-")):
        pts = [r for r in data if r["label"] == label]
        x = [float(r["offered"]) for r in pts]
        ax[0].plot(x, [float(r["lat_mean"]) for r in pts], style, label=label)
        ax[1].plot(x, [float(r["lat_max"]) for r in pts], style, label=label)
    ax[0].set_ylabel("mean latency (cycles)")
    ax[1].set_ylabel("maximum latency (cycles)")
    for a in ax:
        a.set_xlabel("offered load (flits/node/cycle)")
        a.set_yscale("log")
        a.grid(True, alpha=0.3)
        a.legend()
    fig.suptitle("8x8x8 torus, uniform random traffic, 9-flit packets")
    fig.tight_layout()
    fig.savefig(os.path.join(img, "seastar_latency_load.png"), dpi=110)
    plt.close(fig)


def merging(src, img):
    paper = {
        "mesh": [1 / 64, 1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2],
        "torus": [1 / 4, 1 / 8, 1 / 8, 1 / 16, 1 / 16, 1 / 8, 1 / 4],
    }
    fig, ax = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    out = []
    for i, topo in enumerate(("mesh", "torus")):
        share = {}
        for arb in ("rr", "age"):
            data = rows(os.path.join(src, "merging_%s_%s.csv" % (topo, arb)))
            share[arb] = [float(r["share"]) for r in data][:7]
        x = range(7)
        w = 0.27
        ax[i].bar([j - w for j in x], paper[topo], w, label="paper (round-robin)", color="#bbbbbb")
        ax[i].bar(list(x), share["rr"], w, label="round-robin (ours)")
        ax[i].bar([j + w for j in x], share["age"], w, label="age-based (ours)")
        ax[i].axhline(1 / 7, color="k", lw=0.8, ls="--")
        ax[i].set_xticks(list(x))
        ax[i].set_xticklabels(["P%d" % j for j in x])
        ax[i].set_title("8-ary 1-%s, P0..P6 -> P7" % topo)
        ax[i].set_ylabel("share of P7's bandwidth")
        ax[i].legend(fontsize=8)
        for j in x:
            out.append([topo, "P%d" % j, "%.4f" % paper[topo][j], "%.4f" % share["rr"][j],
                        "%.4f" % share["age"][j]])
    fig.tight_layout()
    fig.savefig(os.path.join(img, "seastar_merging.png"), dpi=110)
    sweep = os.path.join(src, "merging_sweep.csv")
    if os.path.exists(sweep):
        data = rows(sweep)
        per = [r["period"] for r in data if r["network"] == "mesh"]
        with open(os.path.join(img, "seastar_merging_sweep.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["AGE_CLOCK_PERIOD", "mesh: smallest share", "mesh: max/min",
                        "torus: smallest share", "torus: max/min"])
            for p in per:
                m = [r for r in data if r["period"] == p and r["network"] == "mesh"][0]
                t = [r for r in data if r["period"] == p and r["network"] == "torus"][0]
                label = "0x%x" % int(p) if int(p) >= 256 else p
                w.writerow([label, m["share_min"], m["max_over_min"], t["share_min"], t["max_over_min"]])
    plt.close(fig)
    with open(os.path.join(img, "seastar_merging.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["network", "source", "paper (round-robin)", "round-robin", "age-based"])
        w.writerows(out)


def table5(src, img):
    data = rows(os.path.join(src, "table5.csv"))
    out = []
    for r in data:
        arb = "round robin" if r["arb"] == "rr" else r["period"]
        bias = r["bias"].replace(":", ",")
        out.append([arb, bias] + ["%.2f" % float(r[k]) for k in
                                  ("occ_py", "occ_px", "occ_pz", "occ_mz", "occ_mx", "occ_my")]
                   + ["%.0f" % float(r[k]) for k in ("q_x", "q_y", "q_z")]
                   + ["%.0f" % float(r["lat_mean"]), "%.0f" % float(r["lat_std"]), r["lat_max"],
                      "%.4f" % float(r["accepted"])])
    with open(os.path.join(img, "seastar_table5.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["age clock period", "bias x,y,z", "+y", "+x", "+z", "-z", "-x", "-y",
                    "Q(x)", "Q(y)", "Q(z)", "mean latency", "std dev", "max latency", "accepted"])
        w.writerows(out)
    fig, ax = plt.subplots(figsize=(8, 4))
    labels = [o[0] + ("" if o[0] == "round robin" else " / " + o[1]) for o in out]
    ax.bar(range(len(out)), [float(o[11]) for o in out], color=["#888888"] + ["C0"] * (len(out) - 1))
    ax.set_xticks(range(len(out)))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel("mean latency (cycles)")
    ax.set_title("11x12x16 torus near saturation (Table 5 configurations)")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(img, "seastar_table5.png"), dpi=110)
    plt.close(fig)


def figure5(src, img):
    data = rows(os.path.join(src, "figure5.csv"))
    fig, ax = plt.subplots(1, len(data), figsize=(4 * len(data), 3.6), sharey=True)
    buckets = ["age_0_63", "age_64_127", "age_128_191", "age_192_255"]
    out = []
    for a, r in zip(ax, data):
        v = [max(int(r[b]), 0) for b in buckets]
        a.bar(range(4), [max(x, 0.5) for x in v])
        a.set_yscale("log")
        a.set_xticks(range(4))
        a.set_xticklabels(["0-63", "64-127", "128-191", "192-255"])
        a.set_title("age clock period = %s" % ("0x%x" % int(r["period"]) if int(r["period"]) >= 256 else r["period"]))
        a.set_xlabel("packet age")
        out.append([r["period"]] + [str(x) for x in v])
    ax[0].set_ylabel("packets (all network ports)")
    fig.tight_layout()
    fig.savefig(os.path.join(img, "seastar_age_histogram.png"), dpi=110)
    plt.close(fig)
    with open(os.path.join(img, "seastar_figure5.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["age clock period", "0-63", "64-127", "128-191", "192-255"])
        w.writerows(out)


def period_sweep(src, img):
    data = rows(os.path.join(src, "period_sweep.csv"))
    p = [int(r["period"]) for r in data]
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot(p, [float(r["lat_mean"]) for r in data], "o-", label="age-based, bias 3,2,1")
    ax[1].plot(p, [float(r["occ_px"]) for r in data], "o-", label="+x stalled cycles/packet")
    rr = rows(os.path.join(src, "period_rr.csv"))[0]
    ax[0].axhline(float(rr["lat_mean"]), color="gray", ls=":", label="round-robin")
    ax[1].axhline(float(rr["occ_px"]), color="gray", ls=":", label="round-robin")
    for a in ax:
        a.axvline(18, color="r", ls="--", lw=0.8, label="Section 3 estimate (18)")
        a.set_xscale("log", base=2)
        a.set_xlabel("AGE_CLOCK_PERIOD")
        a.grid(True, alpha=0.3)
        a.legend(fontsize=8)
    ax[0].set_ylabel("mean latency (cycles)")
    ax[1].set_ylabel("Eq 17 occupancy, +x")
    fig.suptitle("11x12x16 torus near saturation: which age clock period is best?")
    fig.tight_layout()
    fig.savefig(os.path.join(img, "seastar_period.png"), dpi=110)
    plt.close(fig)
    with open(os.path.join(img, "seastar_period.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["age clock period", "mean latency", "max latency", "+x occupancy", "accepted"])
        w.writerow(["round robin", "%.0f" % float(rr["lat_mean"]), rr["lat_max"], "%.2f" % float(rr["occ_px"]),
                    "%.4f" % float(rr["accepted"])])
        for r in data:
            w.writerow([r["period"], "%.0f" % float(r["lat_mean"]), r["lat_max"], "%.2f" % float(r["occ_px"]),
                        "%.4f" % float(r["accepted"])])


def main():
    src, img = sys.argv[1], sys.argv[2]
    os.makedirs(img, exist_ok=True)
    for name, fn in (("latency_load.csv", latency_vs_load), ("merging_mesh_rr.csv", merging),
                     ("table5.csv", table5), ("figure5.csv", figure5), ("period_sweep.csv", period_sweep)):
        if os.path.exists(os.path.join(src, name)):
            fn(src, img)
            print("plot_seastar: drew", name)


if __name__ == "__main__":
    main()
