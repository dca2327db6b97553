#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Merges dmlcl-bench's CSV and peers.py's into one side-by-side table and a
PNG bar chart; with the chain CSVs (dmlcl-bench-chains --csv-file, peers.py
--chains) a second table for the chains.

Bandwidth is the workload's unavoidable traffic (output bytes written plus
the 64-byte input lines read) over its median time, for every system alike;
the chart draws each workload's limit (the same traffic at the best copy
mechanism's speed) as a black line over its bars. The dispatch-overhead rows
(dmlcl's dispatch against an empty kernel of 1 and of 8 arguments and a
hand-written gather, pipelined and synchronous) make a table of their own.
usage: report.py DMLCL_CSV PEERS_CSV PNG [CHAINS_CSV CHAIN_PEERS_CSV]
"""
import csv
import sys

SYSTEMS = ["numpy", "openvino", "onnxruntime"]


def read_peers(path):
    peers = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            peers.setdefault(row["workload"], {})[row["system"]] = float(row["seconds"])
    return peers


def workloads_table(dmlcl_csv, peers):
    rows, chart = [], []
    with open(dmlcl_csv) as f:
        rows = list(csv.DictReader(f))
    print("| workload | traffic MB | dmlcl ms (min) | ratio to limit [q1-q3] | limit | "
          "vs naive OpenCL | " + " | ".join(f"vs {s}" for s in SYSTEMS) + " | dmlcl GB/s |")
    print("|---" * (7 + len(SYSTEMS)) + "|")
    for row in rows:
        w, t = row["workload"], float(row["dmlcl_s"])
        if w.startswith("dispatch"):
            continue  # dispatch_table
        traffic = int(row["bytes"]) + int(row["read_bytes"])
        versus = float(row["naive_over_dmlcl"])  # 0: the workload has no naive kernel
        naive = f"{versus:.2f}x" if versus else "n/a"
        p = peers.get(w, {})
        speed = [f"{p[s] / t:.2f}x" if s in p else "n/a" for s in SYSTEMS]
        print(f"| {w} | {1e-6 * traffic:.1f} | {1e3 * t:.2f} ({1e3 * float(row['dmlcl_min_s']):.2f})"
              f" | {float(row['ratio']):.2f} [{float(row['ratio_q1']):.2f}-"
              f"{float(row['ratio_q3']):.2f}] | {1e3 * float(row['limit_s']):.2f} ms "
              f"{row['limit_mechanism']} | {naive} | "
              + " | ".join(speed) + f" | {1e-9 * traffic / t:.1f} |")
        gbs = lambda s: 1e-9 * traffic / s
        naive_s = float(row["naive_s"])
        bars = [gbs(t), gbs(naive_s) if naive_s else 0] + [gbs(p[s]) if s in p else 0 for s in SYSTEMS]
        chart.append((w, bars, gbs(float(row["limit_s"]))))
    return chart


def dispatch_table(dmlcl_csv):
    """The dispatch-overhead rows: dispatch-MODE-REFERENCE, the reference's time in limit_s,
    ratio = reference / dmlcl per round (median, quartiles; an odd count of rounds, so
    1 / ratio's median and quartiles are 1 / the ratio's)."""
    with open(dmlcl_csv) as f:
        rows = [r for r in csv.DictReader(f) if r["workload"].startswith("dispatch")]
    if not rows:
        return
    print("\n| dispatch overhead | dmlcl us per dispatch (min) | reference | reference us (min) | "
          "dmlcl / reference [q1-q3] | rounds |")
    print("|---" * 6 + "|")
    for row in rows:
        mode = row["workload"].split("-")[1]
        over = lambda k: 1 / float(row[k]) if float(row[k]) else float("nan")
        print(f"| {mode} | {1e6 * float(row['dmlcl_s']):.1f} "
              f"({1e6 * float(row['dmlcl_min_s']):.1f}) | {row['limit_mechanism']} | "
              f"{1e6 * float(row['limit_s']):.1f} ({1e6 * float(row['limit_min_s']):.1f}) | "
              f"{over('ratio'):.2f}x [{over('ratio_q3'):.2f}-{over('ratio_q1'):.2f}] | "
              f"{row['rounds']} |")


def chains_table(chains_csv, peers):
    print("\n| chain | output MB | fused graph ms (min) | nodes one by one | copy of the output / "
          "graph [q1-q3] | " + " | ".join(f"vs {s}" for s in SYSTEMS) + " |")
    print("|---" * (5 + len(SYSTEMS)) + "|")
    with open(chains_csv) as f:
        for row in csv.DictReader(f):
            c, t = row["chain"], float(row["graph_s"])
            p = peers.get(c, {})
            speed = [f"{p[s] / t:.2f}x" if s in p else "n/a" for s in SYSTEMS]
            print(f"| {c} | {1e-6 * int(row['bytes']):.1f} | {1e3 * t:.2f} "
                  f"({1e3 * float(row['graph_min_s']):.2f}) | {float(row['nodes_s']) / t:.2f}x "
                  f"slower | {float(row['ratio']):.2f} [{float(row['ratio_q1']):.2f}-"
                  f"{float(row['ratio_q3']):.2f}] | " + " | ".join(speed) + " |")


def draw(chart, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib missing, no chart", file=sys.stderr)
        return
    labels = ["dmlcl", "naive OpenCL kernel"] + SYSTEMS
    fig, ax = plt.subplots(figsize=(13, 5))
    width = 0.16
    for k, label in enumerate(labels):
        ax.bar([i + k * width for i in range(len(chart))], [v[k] for _, v, _ in chart], width,
               label=label)
    for i, (_, _, limit) in enumerate(chart):
        ax.plot([i - width / 2, i + (len(labels) - 0.5) * width], [limit, limit], color="black",
                linewidth=2, label="limit (best copy of the traffic)" if i == 0 else None)
    ax.set_xticks([i + 2 * width for i in range(len(chart))])
    ax.set_xticklabels([w for w, _, _ in chart], rotation=20, ha="right")
    ax.set_ylabel("GB/s of unavoidable traffic")
    ax.set_title("dmlcl vs its limit and the peers, same machine")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"\nchart: {png}")


def main():
    if len(sys.argv) not in (4, 6):
        sys.exit(__doc__)
    chart = workloads_table(sys.argv[1], read_peers(sys.argv[2]))
    dispatch_table(sys.argv[1])
    if len(sys.argv) == 6:
        chains_table(sys.argv[4], read_peers(sys.argv[5]))
    draw(chart, sys.argv[3])


if __name__ == "__main__":
    main()
