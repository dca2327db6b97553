#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Merges dmlcl-bench --csv and peers.py output into one side-by-side table
(GB/s per system, dmlcl's ratio to the same-bytes copy or fill, and dmlcl's
speedup over each peer) and a PNG bar chart.

GB/s counts the output bytes twice (each is read once and written once).
usage: report.py DMLCL_CSV PEERS_CSV PNG
"""
import csv
import sys


def main():
    dmlcl_csv, peers_csv, png = sys.argv[1:4]
    dmlcl, limit, nbytes = {}, {}, {}
    with open(dmlcl_csv) as f:
        for row in csv.DictReader(f):
            dmlcl[row["workload"]] = float(row["dmlcl_s"])
            limit[row["workload"]] = float(row["ratio"])
            nbytes[row["workload"]] = int(row["bytes"])
    peers = {}
    with open(peers_csv) as f:
        for row in csv.DictReader(f):
            peers.setdefault(row["workload"], {})[row["system"]] = float(row["seconds"])
    systems = ["numpy", "openvino", "onnxruntime"]
    gbs = lambda w, s: 2e-9 * nbytes[w] / s
    print("| workload | dmlcl GB/s | ratio to copy/fill | "
          + " | ".join(f"{s} GB/s" for s in systems) + " | "
          + " | ".join(f"vs {s}" for s in systems) + " |")
    print("|---" * (3 + 2 * len(systems)) + "|")
    chart = []
    for w, t in dmlcl.items():
        if w.startswith("dispatch"):
            print(f"| {w} | {1e6 * t:.1f} us per dispatch | empty kernel / dmlcl = {limit[w]:.2f} "
                  + "| " * (2 * len(systems)) + "|")
            continue
        p = peers.get(w, {})
        cells = [f"{gbs(w, p[s]):.2f}" if s in p else "n/a" for s in systems]
        speed = [f"{p[s] / t:.2f}x" if s in p else "n/a" for s in systems]
        print(f"| {w} | {gbs(w, t):.2f} | {limit[w]:.2f} | " + " | ".join(cells) + " | "
              + " | ".join(speed) + " |")
        chart.append((w, [gbs(w, t)] + [gbs(w, p[s]) if s in p else 0 for s in systems]))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib missing, no chart", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.2
    for k, label in enumerate(["dmlcl"] + systems):
        ax.bar([i + k * width for i in range(len(chart))], [v[k] for _, v in chart], width,
               label=label)
    ax.set_xticks([i + 1.5 * width for i in range(len(chart))])
    ax.set_xticklabels([w for w, _ in chart], rotation=20, ha="right")
    ax.set_ylabel("GB/s (output bytes read + written)")
    ax.set_title("dmlcl vs peers, same machine, same run")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"\nchart: {png}")


if __name__ == "__main__":
    main()
