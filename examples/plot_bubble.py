#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The bubble deadlock of the textbook rule, drawn from the witness that
build/examples/bubble_check found (docs/data/bubble_witness.csv):

    docs/img/bubble_deadlock.png   the ring after each move of the witness,
                                   the last one deadlocked

    /usr/bin/python3 examples/plot_bubble.py [CSV [IMGDIR]]

Needs Debian's python3-matplotlib (make results installs it if missing).
"""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST_COLORS = ["#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc", "#fc9272", "#d9d9d9", "#c7e9c0", "#fdd0a2"]
FULL = 8   # chunks of a full-sized packet: the tokens a move needs


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def buffers(row):
    out = []
    for b in row["buffers"].split("|"):
        out.append([(int(p.split(">")[0]), int(p.split(">")[1])) for p in b.split()] if b else [])
    return out


def draw_ring(ax, row, chunks, nodes, last):
    """One state: each node's bubble buffer as a bar of `chunks` cells,
    head at the right (next to the link out), packets coloured by
    destination."""
    bufs = buffers(row)
    toks = [int(t) for t in row["tokens"].split("|")]
    ax.set_xlim(-1.6, chunks + 3.2)
    ax.set_ylim(-0.9, nodes * 1.6)
    ax.axis("off")
    for i in range(nodes):
        y = (nodes - 1 - i) * 1.6
        ax.text(-0.3, y + 0.4, "node %d" % i, ha="right", va="center", fontsize=8, weight="bold")
        for c in range(chunks):
            ax.add_patch(Rectangle((c, y), 1, 0.8, facecolor="white", edgecolor="#bbbbbb", lw=0.5))
        # head first in the list; draw the head at the right end
        x = chunks
        for j, (size, dest) in enumerate(bufs[i]):
            x -= size
            ax.add_patch(Rectangle((x, y), size, 0.8, facecolor=DEST_COLORS[dest % len(DEST_COLORS)],
                                   edgecolor="black", lw=1.4 if j == 0 else 0.8))
            ax.text(x + size / 2, y + 0.4, ("%d>%d" % (size, dest)) if size > 1 else str(dest), ha="center",
                    va="center", fontsize=7 if size > 1 else 6)
        blocked = bool(bufs[i]) and bufs[i][0][1] != i and toks[(i + 1) % nodes] < FULL
        head = ""
        if bufs[i]:
            size, dest = bufs[i][0]
            nxt = (i + 1) % nodes
            head = "head ejects" if dest == i else "head waits: node %d\nhas %d < %d tokens" % (
                nxt, toks[nxt], FULL) if blocked else "head may advance"
        free = "%d token%s free" % (toks[i], "" if toks[i] == 1 else "s")
        ax.text(chunks + 0.2, y + 0.4, "%s\n%s" % (free, head) if head else free,
                va="center", fontsize=6.5, color="#b30000" if blocked and last else "#333333")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "docs", "data", "bubble_witness.csv")
    img = sys.argv[2] if len(sys.argv) > 2 else os.path.join(TOP, "docs", "img")
    os.makedirs(img, exist_ok=True)
    rows = read(path)
    nodes, chunks = int(rows[0]["nodes"]), int(rows[0]["chunks"])
    steps = rows[1:]
    cols = 3
    nrows = (len(steps) + cols - 1) // cols
    fig = plt.figure(figsize=(13, 2.0 * nrows + 0.9))
    for k, row in enumerate(steps):
        ax = fig.add_subplot(nrows, cols, k + 1)
        last = k == len(steps) - 1
        draw_ring(ax, row, chunks, nodes, last)
        m = row["move"]
        if m == "enter":
            what = "enters at node %s: %s chunk%s for node %s" % (row["node"], row["size"],
                                                                "" if row["size"] == "1" else "s", row["dest"])
        elif m == "advance":
            what = "node %s's head (%s>%s) advances" % (row["node"], row["size"], row["dest"])
        else:
            what = "node %s's head ejects" % row["node"]
        ax.set_title("%s. %s%s" % (row["step"], what, "\nDEADLOCK: every head waits" if last else ""),
                     fontsize=8, color="#b30000" if last else "black", loc="left")
    fig.suptitle("The textbook bubble rule deadlocks (seed 003 line 53): a ring of %d nodes, bubble buffers of %d "
                 "chunks, packets of 1 and 8 chunks.\nEach bar is node i's bubble VC buffer, fed by node i-1 (node 0's by "
                 "node %d); its head (at the right) moves on to node i+1.  Labels: size>destination (a 1-chunk packet: its\n"
                 "destination), colour: destination.  "
                 "An advance needs %d tokens (a full-sized packet), an entry %d.  At the end the free space "
                 "(%s tokens) would hold a full-sized packet, but it is split over %d buffers."
                 % (nodes, chunks, nodes - 1, FULL, 2 * FULL, " + ".join(steps[-1]["tokens"].split("|")), nodes),
                 fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.55 / (2.0 * nrows + 0.9)))
    out = os.path.join(img, "bubble_deadlock.png")
    fig.savefig(out, dpi=100, metadata={"Software": None})
    plt.close(fig)
    print("plot_bubble: drew %s" % os.path.relpath(out, TOP))


if __name__ == "__main__":
    main()
