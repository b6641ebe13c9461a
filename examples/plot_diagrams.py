#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The explanatory diagrams of the docs, drawn with matplotlib from numbers
that build/examples/diagram_data computes with the library:

    docs/img/diagram_age_field.png     an age field through Procedures 1-3
    docs/img/diagram_route_lookup.png  a GLUT/LUT lookup and a fault detour
    docs/img/diagram_spaa.png          SPAA's three steps on a 4 x 3 example

    /usr/bin/python3 examples/plot_diagrams.py [IMGDIR]   (default docs/img)

Needs Debian's python3-matplotlib (make results installs it if missing).
"""
import os
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, "build", "examples", "diagram_data")
COLORS = {"age": "#9ecae1", "carry": "#fdae6b", "epoch": "#a1d99b", "unused": "#dddddd"}


def data():
    if not os.environ.get("DIAGRAM_DATA"):
        subprocess.run(["make", "-s", "-C", TOP, "build/examples/diagram_data"], check=True)
    out = subprocess.run([os.environ.get("DIAGRAM_DATA") or BIN], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    recs = []
    for line in out.strip().split("\n"):
        f = line.split(",")
        if "=" in f[1]:                  # no key: every field a value
            f.insert(1, "")
        kv = {}
        pos = []
        for x in f[2:]:
            if "=" in x:
                k, v = x.split("=", 1)
                kv[k] = v
            else:
                pos.append(x)
        recs.append((f[0], f[1], kv, pos))
    return recs


def bits(ax, x, y, value, title, w=0.32):
    """Draw an 11-bit age field at (x, y): bits 10..0, coloured by use."""
    for i in range(11):
        b = 10 - i
        kind = "unused" if b == 10 else "epoch" if b == 9 else "carry" if b == 8 else "age"
        ax.add_patch(Rectangle((x + i * w, y), w, 0.5, facecolor=COLORS[kind], edgecolor="black", lw=0.6))
        ax.text(x + i * w + w / 2, y + 0.25, str((value >> b) & 1), ha="center", va="center", fontsize=8,
                family="monospace")
        if i in (0, 1, 2, 3, 10):
            ax.text(x + i * w + w / 2, y - 0.15, str(b), ha="center", va="top", fontsize=6, color="#555555")
    ax.text(x + 5.5 * w, y + 0.7, title, ha="center", va="bottom", fontsize=8)


def age_field(recs, img):
    A = {k: kv for s, k, kv, _ in recs if s == "age" and not k.startswith("B")}
    heads = {kv["name"]: kv for s, k, kv, _ in recs if s == "age" and k == "at_head"}
    pk = {kv["name"]: kv for s, k, kv, _ in recs if s == "age" and k == "packet"}
    btick = [kv for s, k, kv, _ in recs if s == "age" and k == "B_tick"]
    B = {k: kv for s, k, kv, _ in recs if s == "age" and k.startswith("B_") and k != "B_tick"}
    fig = plt.figure(figsize=(12, 7.2))
    ax = fig.add_axes([0.02, 0.42, 0.96, 0.56])
    ax.set_xlim(0, 16)
    ax.set_ylim(0, 5.2)
    ax.axis("off")
    a = pk["A"]
    pa = A["after_procedure_1"]
    wt = A["waiting"]
    dep = A["after_departure"]
    ha = heads["A"]
    stages = [
        ("header arrives at input port %s\n(a response, VC%s)" % (a["port"], a["vc"]),
         int(A["before_arrival"]["field"], 16), "bits 7:0 = age %s\ntimestamp %s, epoch %s, cycle %s" % (
             a["header_age"], A["before_arrival"]["timestamp"], A["before_arrival"]["epoch"],
             A["before_arrival"]["cycle"])),
        ("Procedure 1 at the input port\n(sa_age_arrive)", int(pa["field"], 16),
         "age %s + RSP_AGE_BIAS %s = %d\n%d - timestamp %s = %d: bits 8:0 = %s\nbit 9 = epoch %s; packet_count[%s] = %s"
         % (a["header_age"], a["bias"], int(a["header_age"]) + int(a["bias"]), int(a["header_age"]) + int(a["bias"]),
            pa["timestamp"], int(a["header_age"]) + int(a["bias"]) - int(pa["timestamp"]), pa["bits_8_0"],
            pa["in_epoch"], pa["epoch"], pa["count%s" % pa["epoch"]])),
        ("Procedure 3 (sa_age_tick),\nevery cycle while it waits", int(wt["field"], 16),
         "AGE_CLOCK_PERIOD %s: the timestamp\nadvances %s -> %s in %d cycles;\nthe field does not change"
         % (a["period"], pa["timestamp"], wt["timestamp"], int(wt["cycle"]) - int(pa["cycle"]))),
        ("Procedure 2 at the staging head\n(sa_age_at_head, sa_age_depart)", int(dep["field"], 16),
         "%s + timestamp %s = age %s (%s ticks of waiting)\nthe winner leaves with bits 7:0 = %s;\n"
         "packet_count[%s] = %s" % (pa["bits_8_0"], ha["timestamp"], ha["age"],
                                    int(ha["age"]) - int(a["header_age"]) - int(a["bias"]), ha["age"],
                                    pa["in_epoch"], dep["count%s" % pa["in_epoch"]])),
    ]
    for i, (title, val, text) in enumerate(stages):
        x0 = 0.3 + i * 4.0
        ax.text(x0 + 1.75, 4.9, title, ha="center", va="top", fontsize=9, weight="bold")
        bits(ax, x0, 3.4, val, "field 0x%03X" % val)
        ax.text(x0 + 1.75, 3.0, text, ha="center", va="top", fontsize=8)
        if i < 3:
            ax.add_patch(FancyArrowPatch((x0 + 3.65, 3.65), (x0 + 4.25, 3.65), arrowstyle="->", mutation_scale=14))
    for i, (k, lab) in enumerate((("age", "bits 7:0 age"), ("carry", "bit 8 carry"), ("epoch", "bit 9 epoch"),
                                  ("unused", "bit 10 unused"))):
        ax.add_patch(Rectangle((0.3 + i * 2.6, 1.2), 0.3, 0.3, facecolor=COLORS[k], edgecolor="black", lw=0.6))
        ax.text(0.7 + i * 2.6, 1.35, lab, va="center", fontsize=8)
    ax.text(11.0, 1.35, "seed 000 Table 1; numbers computed by seastar_arb.h", va="center", fontsize=8,
            color="#555555")
    # packet B across the rollover
    b = pk["B"]
    bp = B["B_after_procedure_1"]
    ax2 = fig.add_axes([0.07, 0.08, 0.55, 0.28])
    cyc = [int(bp["cycle"])] + [int(t["cycle"]) for t in btick]
    ts = [int(bp["timestamp"])] + [int(t["timestamp"]) for t in btick]
    ag = [int(b["header_age"]) + int(b["bias"])] + [int(t["age"]) for t in btick]
    ep = [int(bp["epoch"])] + [int(t["epoch"]) for t in btick]
    ax2.step(cyc, ts, where="post", color="C1", label="timestamp (8 bits)")
    ax2.step(cyc, ag, where="post", color="C0", label="packet B's age at the head (Procedure 2)")
    for i in range(1, len(cyc)):
        if ep[i] != ep[i - 1]:
            ax2.axvline(cyc[i], color="gray", ls="--", lw=0.8)
            ax2.text(cyc[i], 120, " rollover: epoch %d -> %d" % (ep[i - 1], ep[i]), fontsize=8)
    ax2.set_xlabel("cycle")
    ax2.set_ylabel("value (0-255)")
    ax2.set_ylim(-5, 270)
    ax2.legend(fontsize=7, loc="center left")
    ax2.grid(True, alpha=0.3)
    ax3 = fig.add_axes([0.66, 0.06, 0.32, 0.32])
    ax3.axis("off")
    bw = B["B_waiting"]
    bits(ax3, 0.0, 0.55, int(bp["field"], 16), "B after Procedure 1: field 0x%s" % bp["field"][2:], w=0.28)
    ax3.set_xlim(0, 3.2)
    ax3.set_ylim(-0.6, 1.5)
    ax3.text(0.0, 0.15, "age %s + bias %s = %d, arriving at timestamp %s:\n"
             "%d - %s = %d, stored in 9 bits as %s (carry bit 8 set).\n"
             "After the rollover the packet's epoch (bit 9 = %s) is not\n"
             "the current one (%s), so Procedure 2 adds 256 + %s:\n"
             "%s + 256 + %s - 512 = %s, its age (%s ticks of waiting)."
             % (b["header_age"], b["bias"], int(b["header_age"]) + int(b["bias"]), bp["timestamp"],
                int(b["header_age"]) + int(b["bias"]), bp["timestamp"],
                int(b["header_age"]) + int(b["bias"]) - int(bp["timestamp"]), bp["bits_8_0"], bp["in_epoch"],
                bw["epoch"], bw["timestamp"], bp["bits_8_0"], bw["timestamp"], heads["B"]["age"],
                int(heads["B"]["age"]) - int(b["header_age"]) - int(b["bias"])), fontsize=8, va="top")
    fig.savefig(os.path.join(img, "diagram_age_field.png"), dpi=110, metadata={"Software": None})
    plt.close(fig)
    print("plot_diagrams: drew diagram_age_field.png")


def route_lookup(recs, img):
    rt = [kv for s, k, kv, _ in recs if s == "lookup" and k == "router"][0]
    dests = [kv for s, k, kv, _ in recs if s == "lookup" and k == "dest"]
    mesh = [kv for s, k, kv, _ in recs if s == "route" and k == "mesh"][0]
    fault = [kv for s, k, kv, _ in recs if s == "route" and k == "fault"][0]
    paths = {k: [int(x) for x in pos] for s, k, kv, pos in recs if s == "route" and k in ("dor", "detour")}
    vcname = {"0": "keep the VC", "1": "lower VC of the class", "2": "upper VC of the class"}
    fig = plt.figure(figsize=(12, 5.2))
    ax = fig.add_axes([0.01, 0.02, 0.6, 0.94])
    ax.set_xlim(0, 12)
    ax.set_ylim(0, 8)
    ax.axis("off")
    ax.text(6, 7.8, "One lookup per hop: router %s (partition %s) of a 16x16x32 torus, %s nodes"
            % (rt["node"], rt["partition"], rt["nodes"]), ha="center", va="top", fontsize=10, weight="bold")
    for i, d in enumerate(dests):
        y = 5.6 - i * 3.1
        dest = int(d["dest"])
        # destination field: bits 14:12 | 11:0
        ax.add_patch(Rectangle((0.3, y), 1.2, 0.7, facecolor="#fdd0a2", edgecolor="black"))
        ax.add_patch(Rectangle((1.5, y), 2.6, 0.7, facecolor="#c6dbef", edgecolor="black"))
        ax.text(0.9, y + 0.35, "%d" % (dest >> 12), ha="center", va="center", fontsize=10)
        ax.text(2.8, y + 0.35, "%d" % (dest & 0xFFF), ha="center", va="center", fontsize=10)
        ax.text(0.9, y + 0.85, "dest[14:12]", ha="center", fontsize=7)
        ax.text(2.8, y + 0.85, "dest[11:0]", ha="center", fontsize=7)
        ax.text(0.3, y - 0.35, "destination %d = (x %s, y %s, z %s)" % (dest, d["x"], d["y"], d["z"]), fontsize=8)
        same = d["table"] == "LUT"
        ax.text(5.2, y + 0.35, "partition %s %s %s\n(the router's own)" % (d["partition"], "=" if same else "!=",
                                                                         rt["partition"]),
                ha="center", va="center", fontsize=8, bbox=dict(boxstyle="round", fc="white", ec="gray"))
        ax.add_patch(FancyArrowPatch((4.15, y + 0.35), (4.35, y + 0.35), arrowstyle="->", mutation_scale=12))
        tab = "LUT[%s] (4096 entries)" % d["index"] if same else "GLUT[%s] (8 entries)" % d["index"]
        ax.add_patch(FancyArrowPatch((6.1, y + 0.35), (6.9, y + 0.35), arrowstyle="->", mutation_scale=12))
        ax.text(8.3, y + 0.35, tab, ha="center", va="center", fontsize=9,
                bbox=dict(boxstyle="square", fc="#c6dbef" if same else "#fdd0a2", ec="black"))
        ax.add_patch(FancyArrowPatch((9.7, y + 0.35), (10.1, y + 0.35), arrowstyle="->", mutation_scale=12))
        ax.text(11.0, y + 0.35, "port %s\n%s" % (d["port"], vcname.get(d["vc_update"], d["vc_update"])),
                ha="center", va="center", fontsize=8, bbox=dict(boxstyle="round", fc="#e5f5e0", ec="black"))
    ax.text(0.3, 0.3, "The table of the packet's input port; entries from sr_table_build_dor, "
            "read by sr_table_lookup (seed 001 \"Routing\").", fontsize=7, color="#555555")
    # the fault detour
    kx, ky = int(mesh["kx"]), int(mesh["ky"])
    ax2 = fig.add_axes([0.64, 0.1, 0.34, 0.8])

    def xy(n):
        return n // ky, n % ky          # node = x * ky + y
    for n in range(kx * ky):
        x, y = xy(n)
        ax2.add_patch(Rectangle((x - 0.18, y - 0.18), 0.36, 0.36, facecolor="white", edgecolor="black", zorder=3))
        ax2.text(x, y, str(n), ha="center", va="center", fontsize=8, zorder=4)
        if x + 1 < kx:
            ax2.plot([x, x + 1], [y, y], color="#cccccc", lw=1, zorder=1)
        if y + 1 < ky:
            ax2.plot([x, x], [y, y + 1], color="#cccccc", lw=1, zorder=1)
    for name, color, off, lab in (("dor", "C0", -0.07, "dimension order (x, then y), no fault"),
                                  ("detour", "C1", 0.07, "fault-aware tables (sr_tables_build_search)")):
        p = paths[name]
        xs = [xy(n)[0] + off for n in p]
        ys = [xy(n)[1] + off for n in p]
        ax2.plot(xs, ys, "-", color=color, lw=2.5, zorder=2, label=lab)
    fx, fy = xy(int(fault["node"]))
    ax2.plot([fx + 0.5], [fy], "x", color="red", markersize=16, markeredgewidth=3, zorder=5,
             label="failed link (node %s, port %s)" % (fault["node"], fault["port"]))
    ax2.set_xlim(-0.6, kx - 0.4)
    ax2.set_ylim(-0.6, ky + 0.9)
    ax2.set_xticks(range(kx))
    ax2.set_yticks(range(ky))
    ax2.set_xlabel("x")
    ax2.set_ylabel("y")
    ax2.set_aspect("equal")
    ax2.legend(fontsize=7, loc="upper center")
    ax2.set_title("%sx%s mesh: node %s to node %s" % (kx, ky, mesh["src"], mesh["dst"]), fontsize=9)
    fig.savefig(os.path.join(img, "diagram_route_lookup.png"), dpi=110, metadata={"Software": None})
    plt.close(fig)
    print("plot_diagrams: drew diagram_route_lookup.png")


def spaa(recs, img):
    cyc = [kv for s, k, kv, _ in recs if s == "spaa"]
    fig, ax = plt.subplots(1, len(cyc), figsize=(4.2 * len(cyc), 4.6))
    for a, c in zip(ax, cyc):
        n = 4
        for i in range(n):
            req, nom, gr = int(c["req%d" % i]), int(c["nom%d" % i]), int(c["grant%d" % i])
            for j in range(3):
                y = n - 1 - i
                face = "#eeeeee" if req >> j & 1 else "white"
                a.add_patch(Rectangle((j, y), 1, 1, facecolor=face, edgecolor="black", lw=0.8))
                if req >> j & 1:
                    a.text(j + 0.12, y + 0.8, "req", fontsize=7, color="#777777")
                if nom == j and gr == j:
                    a.add_patch(Rectangle((j + 0.2, y + 0.2), 0.6, 0.6, facecolor="#74c476", edgecolor="black"))
                    a.text(j + 0.5, y + 0.5, "granted", ha="center", va="center", fontsize=7)
                elif nom == j:
                    a.add_patch(Rectangle((j + 0.2, y + 0.2), 0.6, 0.6, facecolor="#fdae6b", edgecolor="black"))
                    a.text(j + 0.5, y + 0.5, "lost:\nreset", ha="center", va="center", fontsize=7)
        a.set_xlim(-0.1, 3.1)
        a.set_ylim(-0.1, n + 0.1)
        a.set_xticks([0.5, 1.5, 2.5])
        a.set_xticklabels(["O0", "O1", "O2"])
        a.set_yticks([n - 0.5 - i for i in range(n)])
        a.set_yticklabels(["I%d" % i for i in range(n)])
        a.set_xlabel("output arbiters (step 2: each grants the least\nrecently selected input among its nominations)",
                     fontsize=8)
        a.set_title("allocation %s" % c["cycle"], fontsize=10)
        a.set_aspect("equal")
    ax[0].set_ylabel("input arbiters (step 1: each nominates\none requested output)", fontsize=8)
    fig.suptitle("SPAA (seed 002 Section 3.3): 1 Nominate, 2 Grant, 3 Reset: a nomination that lost may be made again "
                 "next time; a granted packet leaves.\nComputed by sa_spaa_nominate and sa_spaa_grant "
                 "(seastar_arb.h); grey: requests, orange: nominated and not granted, green: granted.", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(img, "diagram_spaa.png"), dpi=110, metadata={"Software": None})
    plt.close(fig)
    print("plot_diagrams: drew diagram_spaa.png")


def main():
    img = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "docs", "img")
    os.makedirs(img, exist_ok=True)
    recs = data()
    age_field(recs, img)
    route_lookup(recs, img)
    spaa(recs, img)


if __name__ == "__main__":
    main()
