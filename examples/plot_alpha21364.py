#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Figures 10 and 11 of seed 002 from the Alpha 21364 timing model.

    /usr/bin/python3 examples/plot_alpha21364.py --run     # sweeps, then plots
    /usr/bin/python3 examples/plot_alpha21364.py           # plots the saved CSV

--run runs build/examples/alpha21364 for every panel and algorithm (several
processes at once, --jobs), writing each point into docs/data/alpha21364.csv
as soon as it is done (and the simulators' progress, with rate and time
left, to stderr); at the end the rows are put in a fixed order.  The plots go
to docs/img/alpha21364_fig10.png and alpha21364_fig11.png, and the numbers
the paper quotes (throughput ratios at a given average latency) to
docs/data/alpha21364_summary.txt.  Needs Debian's python3-matplotlib; the
script installs it with apt-get if it is missing.
"""
import argparse
import csv
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, "build", "examples", "alpha21364")
DATA = os.path.join(TOP, "docs", "data")
IMG = os.path.join(TOP, "docs", "img")
ALGS = ["PIM1", "WFA-base", "WFA-rotary", "SPAA-base", "SPAA-rotary"]
FIG11_ALGS = ["PIM1", "WFA-rotary", "SPAA-rotary"]
# (figure, size, pattern, pipeline, outstanding, algorithms, extra options)
# Figures "10s" and "10w" are ours, not the paper's: Figure 10's 8x8 uniform
# panel with adaptive buffers of 2 packets (the sensitivity run of
# docs/timing21364.rst), and WFA-base with a 3-cycle (unpipelined)
# arbitration, the Section 5.2 "not shown" comparison.
PANELS = [
    ("10", "4x4", "uniform", 1, 16, ALGS, []),
    ("10", "4x4", "bitrev", 1, 16, ALGS, []),
    ("10", "4x4", "shuffle", 1, 16, ALGS, []),
    ("10", "8x8", "uniform", 1, 16, ALGS, []),
    ("10", "8x8", "bitrev", 1, 16, ALGS, []),
    ("10", "8x8", "shuffle", 1, 16, ALGS, []),
    ("11a", "8x8", "uniform", 2, 16, FIG11_ALGS, []),
    ("11b", "8x8", "uniform", 1, 64, FIG11_ALGS, []),
    ("11c", "12x12", "uniform", 1, 16, FIG11_ALGS, []),
    ("10s", "8x8", "uniform", 1, 16, ALGS, ["--buf-adaptive", "2"]),
    ("10w", "8x8", "uniform", 1, 16, ["WFA-base"], ["--arb-cycles", "3"]),
]
STYLE = {"PIM1": ("tab:green", "s", "-"), "WFA-base": ("tab:blue", "o", "--"),
         "WFA-rotary": ("tab:blue", "o", "-"), "SPAA-base": ("tab:red", "^", "--"),
         "SPAA-rotary": ("tab:red", "^", "-")}
# The comparisons the paper quotes: (figure, size, pattern, better, worse, latency ns, paper's gain %)
CLAIMS = [
    ("10", "4x4", "uniform", "SPAA-base", "PIM1", 83, 11),
    ("10", "4x4", "uniform", "SPAA-base", "WFA-base", 83, 11),
    ("10", "8x8", "uniform", "SPAA-base", "PIM1", 122, 24),
    ("10", "8x8", "uniform", "SPAA-base", "WFA-base", 122, 24),
    ("10", "8x8", "uniform", "WFA-rotary", "WFA-base", 280, 16),
    ("10", "8x8", "uniform", "SPAA-rotary", "SPAA-base", 280, 43),
    ("11a", "8x8", "uniform", "SPAA-rotary", "PIM1", 100, 60),
    ("11a", "8x8", "uniform", "SPAA-rotary", "WFA-rotary", 100, 60),
    ("11b", "8x8", "uniform", "SPAA-rotary", "WFA-rotary", 200, 13),
    ("11c", "12x12", "uniform", "SPAA-rotary", "WFA-rotary", 200, 18),
    ("10s", "8x8", "uniform", "WFA-rotary", "WFA-base", 280, 16),
    ("10s", "8x8", "uniform", "SPAA-rotary", "SPAA-base", 280, 43),
    ("10s", "8x8", "uniform", "SPAA-base", "PIM1", 122, 24),
    ("10", "8x8", "uniform", "SPAA-base", "10w:WFA-base", 122, 8),
]


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("installing python3-matplotlib with apt-get", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "python3-matplotlib"], check=True)
    import matplotlib
    matplotlib.use("Agg")


HEADER = ("figure,size,pattern,pipeline,outstanding,algorithm,miss_rate,throughput,latency_ns,"
          "p99_ns,outstanding_avg,escape_fraction,packets,drains,cycles")


def row_order(line):
    """Sort key of a CSV row: the order of PANELS, then of ALGS, then the rate."""
    c = line.split(",")
    panel = next((i for i, p in enumerate(PANELS) if (p[0], p[1], p[2]) == (c[0], c[1], c[2])), len(PANELS))
    alg = ALGS.index(c[5]) if c[5] in ALGS else len(ALGS)
    return (panel, alg, float(c[6]))


def run_sweeps(args):
    binary = args.bin or BIN
    if not args.bin:
        subprocess.run(["make", "-s", "-C", TOP, "build/examples/alpha21364"], check=True)
    os.makedirs(DATA, exist_ok=True)
    jobs = []
    for fig, size, pat, pipe, outst, algs, extra in PANELS:
        if args.figure and fig not in args.figure.split(","):
            continue
        for alg in algs:
            if args.algs and alg not in args.algs.split(","):
                continue
            jobs.append([binary, "--label", fig, "--size", size, "--pattern", pat, "--pipeline", str(pipe),
                         "--outstanding", str(outst), "--alg", alg, "--cycles", str(args.cycles),
                         "--warmup", str(args.warmup), "--seed", str(args.seed)] + extra
                        + (["--rates", args.rates] if args.rates else []))
    # The slow panels first, so the pool ends evenly.
    jobs.sort(key=lambda j: -(int(j[4].split("x")[0]) ** 2 * (2 if "--buf-adaptive" in j else 1)))
    rows = []
    if args.algs or args.figure:
        # keep the saved rows of the runs not redone (columns: figure, ...,
        # algorithm in the sixth)
        redone = {(j[2], j[4], j[6], j[8], j[10], j[12]) for j in jobs}
        with open(args.csv) as f:
            lines = f.read().strip().split("\n")
        for line in lines[1:]:
            c = line.split(",")
            if (c[0], c[1], c[2], c[3], c[4], c[5]) not in redone:
                rows.append(line)
    # Every point goes into the CSV as soon as its run prints it; the
    # simulator's progress (rate, time left) goes straight to stderr.
    lock = threading.Lock()
    out = open(args.csv, "w")
    out.write(HEADER + "\n" + "".join(r + "\n" for r in rows))
    out.flush()
    print("alpha-plots: %d runs, %d at a time; rows go to %s as they finish" % (len(jobs), args.jobs, args.csv),
          file=sys.stderr, flush=True)

    def one(cmd):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        first = True
        for line in p.stdout:
            line = line.rstrip("\n")
            if first:
                first = False
                if line != HEADER:
                    raise RuntimeError("%s: unexpected CSV header %r" % (" ".join(cmd), line))
                continue
            with lock:
                out.write(line + "\n")
                out.flush()
                rows.append(line)
        if p.wait() != 0:
            raise RuntimeError("%s failed (exit status %d)" % (" ".join(cmd), p.returncode))
        print("done: %s" % " ".join(cmd[2:12]), file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        list(ex.map(one, jobs))
    out.close()
    rows.sort(key=row_order)
    with open(args.csv, "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")
    print("wrote %s (%d rows)" % (args.csv, len(rows)), file=sys.stderr)


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    curves = {}
    for r in rows:
        key = (r["figure"], r["size"], r["pattern"], r["algorithm"])
        curves.setdefault(key, []).append((float(r["miss_rate"]), float(r["throughput"]), float(r["latency_ns"])))
    for k in curves:
        curves[k].sort()
    return curves


def throughput_at(curve, lat):
    """Delivered throughput where the BNF curve (in order of offered load)
    first reaches average latency lat, by linear interpolation; None if it
    never does."""
    for (_, t0, l0), (_, t1, l1) in zip(curve, curve[1:]):
        if l0 <= lat <= l1 and l1 > l0:
            return t0 + (t1 - t0) * (lat - l0) / (l1 - l0)
    return None


def summary(curves):
    out = ["Throughput (flits/router/ns) at the paper's average latencies, ours vs the paper's gain", ""]
    out.append("%-4s %-6s %-8s %-24s %6s %8s %8s %7s %7s" %
               ("fig", "size", "pattern", "comparison", "lat", "better", "worse", "ours%", "paper%"))
    for fig, size, pat, a, b, lat, paper in CLAIMS:
        fb, bb = b.split(":") if ":" in b else (fig, b)
        ca, cb = curves.get((fig, size, pat, a)), curves.get((fb, size, pat, bb))
        if not ca or not cb:
            continue
        ta, tb = throughput_at(ca, lat), throughput_at(cb, lat)
        if ta is None or tb is None:
            gain = "n/a"
            ta_s = "%.3f" % ta if ta is not None else "never"
            tb_s = "%.3f" % tb if tb is not None else "never"
        else:
            gain = "%+.0f" % (100 * (ta / tb - 1))
            ta_s, tb_s = "%.3f" % ta, "%.3f" % tb
        out.append("%-4s %-6s %-8s %-24s %6d %8s %8s %7s %7s" %
                   (fig, size, pat, a + " vs " + b, lat, ta_s, tb_s, gain, "+%d" % paper))
    out.append("")
    out.append("Beyond saturation (the highest offered load): Rotary Rule against base")
    for fig, size, pat in sorted({(k[0], k[1], k[2]) for k in curves}):
        for rot, base in (("WFA-rotary", "WFA-base"), ("SPAA-rotary", "SPAA-base")):
            ca, cb = curves.get((fig, size, pat, rot)), curves.get((fig, size, pat, base))
            if ca and cb:
                out.append("%-4s %-6s %-8s %-24s %.3f at %.0f ns vs %.3f at %.0f ns: %+.0f%%" %
                           (fig, size, pat, rot + " vs " + base, ca[-1][1], ca[-1][2], cb[-1][1], cb[-1][2],
                            100 * (ca[-1][1] / cb[-1][1] - 1)))
    out.append("")
    out.append("Zero-load latency (lowest offered load) and peak throughput per curve")
    for (fig, size, pat, alg), c in sorted(curves.items()):
        out.append("%-4s %-6s %-8s %-12s zero-load %6.1f ns  peak %.3f flits/router/ns  last %.3f at %.0f ns" %
                   (fig, size, pat, alg, c[0][2], max(t for _, t, _ in c), c[-1][1], c[-1][2]))
    return "\n".join(out) + "\n"


def plot(curves, path_prefix):
    import matplotlib.pyplot as plt
    os.makedirs(IMG, exist_ok=True)
    figs = [("10", [p for p in PANELS if p[0] == "10"], 2, 3),
            ("11", [p for p in PANELS if p[0].startswith("11")], 1, 3),
            ("10s", [p for p in PANELS if p[0] == "10s"], 1, 1),
            ("10w", [p for p in PANELS if p[0] == "10w"], 1, 1)]
    for name, panels, nr, nc in figs:
        fig, axes = plt.subplots(nr, nc, figsize=(5 * nc, 4 * nr), squeeze=False)
        for ax, (f, size, pat, pipe, outst, algs, extra) in zip(axes.flat, panels):
            series = [((f, size, pat, alg), alg, STYLE[alg]) for alg in algs]
            if f == "10w":  # against Figure 10's curves of the same panel
                series = [(("10", size, pat, "SPAA-base"), "SPAA-base (3 cycles, pipelined)", STYLE["SPAA-base"]),
                          (("10", size, pat, "WFA-base"), "WFA-base (4 cycles, every 3)", STYLE["WFA-base"]),
                          ((f, size, pat, "WFA-base"), "WFA-base (3 cycles, every 3)", ("tab:purple", "D", "-"))]
            for key, label, (col, mk, ls) in series:
                c = curves.get(key)
                if not c:
                    continue
                ax.plot([t for _, t, _ in c], [l for _, _, l in c], color=col, marker=mk, linestyle=ls,
                        markersize=3, label=label)
            title = "Fig %s: %s %s" % (f, size, pat)
            if pipe == 2:
                title += ", 2x pipeline"
            if outst != 16:
                title += ", %d outstanding" % outst
            if extra:
                title += ", %s %s" % (extra[0].lstrip("-"), extra[1])
            ax.set_title(title)
            ax.set_xlabel("delivered throughput (flits/router/ns)")
            ax.set_ylabel("average packet latency (ns)")
            ax.set_ylim(bottom=0)
            ax.set_xlim(left=0)
            ax.grid(alpha=0.3)
            if ax.lines:
                ax.legend(fontsize=8)
        fig.tight_layout()
        out = "%s_fig%s.png" % (path_prefix, name)
        fig.savefig(out, dpi=90)
        plt.close(fig)
        print("wrote %s" % out, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", action="store_true", help="run the sweeps first (else plot the saved CSV)")
    ap.add_argument("--csv", default=os.path.join(DATA, "alpha21364.csv"))
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once (2)")
    ap.add_argument("--cycles", type=int, default=75000, help="router cycles per point (75000)")
    ap.add_argument("--warmup", type=int, default=10000, help="warm-up cycles (10000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rates", default=None, help="offered loads (default: the example's sweep)")
    ap.add_argument("--figure", default=None, help="only these figures, e.g. 10,11a")
    ap.add_argument("--algs", default=None,
                    help="only these algorithms, e.g. PIM1 (with --figure or --algs, --run replaces "
                         "just those rows of the saved CSV)")
    ap.add_argument("--bin", default=None, help="the alpha21364 binary (default: build it)")
    args = ap.parse_args()
    ensure_matplotlib()
    if args.run:
        run_sweeps(args)
    curves = load(args.csv)
    text = summary(curves)
    os.makedirs(DATA, exist_ok=True)
    with open(os.path.join(DATA, "alpha21364_summary.txt"), "w") as f:
        f.write(text)
    print(text)
    plot(curves, os.path.join(IMG, "alpha21364"))


if __name__ == "__main__":
    main()
