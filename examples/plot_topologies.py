#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The topology diagrams of docs/topologies.rst, drawn with matplotlib from
the wiring that build/examples/topology_edges prints (every link comes from
sr_net_neighbor; nothing here knows a topology's rules):

    docs/img/topology_dragonfly.png  the dragonfly of seed 004 Figure 4.10
                                     (p = h = 2, a = 4, g = 9) and a smaller
                                     one (g = 5), consecutive and palm-tree
                                     global links
    docs/img/topology_fbfly.png      the flattened butterflies 2-ary 4-flat
                                     (Eq 4.5's R4' example) and 4-ary 3-flat,
                                     links coloured by dimension

    /usr/bin/python3 examples/plot_topologies.py [IMGDIR]   (default docs/img)

Needs Debian's python3-matplotlib (make results installs it if missing).
"""
import math
import os
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, "build", "examples", "topology_edges")
DIM_COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"]


def data():
    """{name: {"net": [...], "routers": {id: coords}, "links": [(a, b, kind, dim)]}}"""
    if not os.environ.get("TOPOLOGY_EDGES"):
        subprocess.run(["make", "-s", "-C", TOP, "build/examples/topology_edges"], check=True)
    out = subprocess.run([os.environ.get("TOPOLOGY_EDGES") or BIN], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    nets = {}
    for line in out.strip().split("\n"):
        f = line.split(",")
        if f[0] == "net":
            nets[f[1]] = {"net": [int(x) for x in f[3:]], "routers": {}, "links": []}
        elif f[0] == "router":
            nets[f[1]]["routers"][int(f[2])] = [int(x) for x in f[3:]]
        elif f[0] == "link":
            nets[f[1]]["links"].append((int(f[2]), int(f[3]), f[4], int(f[5])))
    return nets


def line(ax, p, q, color, lw, alpha=1.0, rad=0.0, z=1):
    ax.add_patch(FancyArrowPatch(p, q, arrowstyle="-", connectionstyle="arc3,rad=%g" % rad, color=color, lw=lw,
                                 alpha=alpha, zorder=z, shrinkA=0, shrinkB=0))


def dragonfly_panel(ax, net, title):
    routers, a, g = net["routers"], net["net"][3], net["net"][5]
    pos = {}
    for r, (grp, idx) in routers.items():
        ang = 2 * math.pi * grp / g + math.pi / 2
        cx, cy = math.cos(ang), math.sin(ang)
        tx, ty = -cy, cx                     # the group's routers on a short line across the radius
        off = (idx - (a - 1) / 2.0) * 0.13
        pos[r] = (cx + tx * off, cy + ty * off)
        if idx == 0:
            ax.text(1.22 * cx, 1.22 * cy, "G%d" % grp, ha="center", va="center", fontsize=8)
    for (u, v, kind, _) in net["links"]:
        gu, gv = routers[u][0], routers[v][0]
        if kind == "local":
            line(ax, pos[u], pos[v], "#777777", 0.6, rad=0.5, z=1)
        elif gu == 0 or gv == 0:
            line(ax, pos[u], pos[v], DIM_COLORS[0], 1.4, z=3)
        else:
            line(ax, pos[u], pos[v], "#1f77b4", 0.6, alpha=0.45, z=2)
    for r, (x, y) in pos.items():
        ax.plot([x], [y], "o", ms=4, color="black", zorder=4)
    ax.set_title(title, fontsize=9)
    frame(ax, (-1.4, 1.4), (-1.4, 1.4))


def dragonflies(nets, img):
    fig, axes = plt.subplots(2, 2, figsize=(10, 10))
    panels = [("df9_consecutive", "consecutive"), ("df9_palmtree", "palm-tree"),
              ("df5_consecutive", "consecutive"), ("df5_palmtree", "palm-tree")]
    for ax, (name, arr) in zip(axes.flat, panels):
        net = nets[name]
        p, a, h, g = net["net"][2:6]
        dragonfly_panel(ax, net, "p = %d, a = %d, h = %d, g = %d, %s global links\n"
                        "%d routers, %d terminals, %d channel(s) between two groups"
                        % (p, a, h, g, arr, net["net"][0], net["net"][1], a * h // (g - 1)))
    fig.text(0.5, 0.015, "Each group's a routers sit on a short line; grey arcs: local channels; blue: global "
             "channels; red: group G0's global channels.\nWiring from sr_net_neighbor (seastar_topo.h); top: seed 004 "
             "Figure 4.10, N = 72.", ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    path = os.path.join(img, "topology_dragonfly.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)


def routers_and_legend(ax, place, label, size, dims, legend):
    """Routers as labelled circles, and a legend of the dimensions' colours."""
    for r, (x, y) in place.items():
        ax.plot([x], [y], "o", ms=size, color="white", markeredgecolor="black", zorder=4)
        ax.text(x, y, label % r, ha="center", va="center", fontsize=7, zorder=5)
    for d in range(dims):
        ax.plot([], [], color=DIM_COLORS[d], label="dimension %d" % (d + 1))
    ax.legend(fontsize=7, **legend)


def frame(ax, xlim, ylim):
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.axis("off")


def fbfly_small(ax, net):
    """The 2-ary 4-flat: routers R0'..R7' as the corners of a cube drawing."""
    routers = net["routers"]
    place = {}
    for r, c in routers.items():
        x = c[0] * 1.0 + c[2] * 0.45
        y = c[1] * 1.0 + c[2] * 0.35
        place[r] = (x, y)
    for (u, v, kind, dim) in net["links"]:
        line(ax, place[u], place[v], DIM_COLORS[dim], 2.2 if 4 in (u, v) else 1.0, z=2)
    routers_and_legend(ax, place, "R%d'", 16, 3, dict(loc="lower right"))
    ax.set_title("2-ary 4-flat (8 routers, 3 dimensions, 2 terminals each):\n"
                 "R4' reaches R5', R6', R0' in dimensions 1, 2, 3 (Eq 4.5)", fontsize=9)
    frame(ax, (-0.4, 1.9), (-0.4, 1.8))


def fbfly_grid(ax, net):
    """The 4-ary 3-flat: a 4 x 4 grid, each row and each column fully connected."""
    routers = net["routers"]
    place = {r: (c[0] * 1.0, c[1] * 1.0) for r, c in routers.items()}
    for (u, v, kind, dim) in net["links"]:
        cu, cv = routers[u], routers[v]
        span = abs(cu[dim] - cv[dim])
        rad = 0.0 if span == 1 else (0.35 if span == 2 else 0.45)
        line(ax, place[u], place[v], DIM_COLORS[dim], 0.9, rad=rad, z=2)
    routers_and_legend(ax, place, "%d", 13, 2, dict(loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=2))
    ax.set_title("4-ary 3-flat (16 routers of radix 10, 4 terminals each):\n"
                 "the HyperX L = 2, S = T = 4", fontsize=9)
    frame(ax, (-0.8, 3.8), (-0.8, 3.8))


def flattened(nets, img):
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.4))
    fbfly_small(axes[0], nets["fbfly_2ary4flat"])
    fbfly_grid(axes[1], nets["fbfly_4ary3flat"])
    fig.text(0.5, 0.01, "Wiring from sr_net_neighbor (seastar_topo.h), sr_fbfly_desc; router numbers as in Eq 4.5.",
             ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    path = os.path.join(img, "topology_fbfly.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)


def main():
    img = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "docs", "img")
    nets = data()
    dragonflies(nets, img)
    flattened(nets, img)


if __name__ == "__main__":
    main()
