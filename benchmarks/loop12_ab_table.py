"""Per-puzzle totals of two bench CSVs of the same puzzles side by side (issue 17, twelfth session).

    python benchmarks/loop12_ab_table.py A.csv B.csv [A2.csv B2.csv ...]
    python benchmarks/loop12_ab_table.py --process FILE.csv    # benchmarks/loop12_ab.sh's runs

Pairs of CSVs (one A/B round each, ``fillsmt bench --csv``): for every (puzzle, configuration)
the total seconds of each side in every round ("t/o" when not solved, "✓" when proven unique),
and per round the median over the puzzles of B's total divided by A's.
"""

from __future__ import annotations

import csv
import os
import statistics
import sys


def rows(path: str) -> dict[tuple[str, str], dict]:
    with open(path) as f:
        return {(os.path.basename(r["puzzle"]), r["key"].rsplit("|", 1)[1]): r for r in csv.DictReader(f)}


def cell(r: dict | None) -> str:
    if r is None:
        return "–"
    if r["status"] != "sat":
        return r["status"]
    mark = " ✓" if r.get("unique") in ("True", "true", "1") else ""
    return f"{float(r['total_s']):.2f}{mark}"


def process(path: str) -> None:
    """Per puzzle: median wall and CPU (user + sys) seconds of each side, branch ÷ main, and the
    median of the paired (same round) wall differences, branch − main."""
    with open(path) as f:
        runs = list(csv.DictReader(f))
    puzzles = list(dict.fromkeys(r["puzzle"] for r in runs))
    print("| puzzle | runs | main wall | branch wall | wall ratio | paired wall diff | branch faster | main CPU | "
          "branch CPU | CPU ratio | answered (branch) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for p in puzzles:
        side = {s: [r for r in runs if r["puzzle"] == p and r["side"] == s and r["wall"]] for s in ("main", "branch")}
        wall = {s: statistics.median(float(r["wall"]) for r in side[s]) for s in side}
        cpu = {s: statistics.median(float(r["user"]) + float(r["sys"]) for r in side[s]) for s in side}
        bad = sum(1 for s in side for r in side[s] if r["status"] != "sat")
        answered = ", ".join(sorted({r["answered"] for r in side["branch"]}))
        by_round = {s: {r["round"]: float(r["wall"]) for r in side[s]} for s in side}
        diffs = [by_round["branch"][k] - by_round["main"][k] for k in by_round["main"] if k in by_round["branch"]]
        print(f"| {p} | {len(side['main'])} + {len(side['branch'])}{f' ({bad} not sat)' if bad else ''} | "
              f"{wall['main']:.2f} | {wall['branch']:.2f} | {wall['branch'] / wall['main']:.2f} | "
              f"{statistics.median(diffs):+.2f} | {sum(d < 0 for d in diffs)} of {len(diffs)} | "
              f"{cpu['main']:.2f} | {cpu['branch']:.2f} | {cpu['branch'] / cpu['main']:.2f} | {answered} |")


def main(paths: list[str]) -> None:
    if paths[:1] == ["--process"]:
        process(paths[1])
        return
    pairs = [(rows(a), rows(b)) for a, b in zip(paths[::2], paths[1::2])]
    keys = sorted({k for a, b in pairs for k in (*a, *b)})
    head = " | ".join(f"r{i + 1} A → B" for i in range(len(pairs)))
    print(f"| puzzle | configuration | {head} |")
    print("|---|---|" + "---:|" * len(pairs))
    for k in keys:
        print(f"| {k[0]} | {k[1]} | " + " | ".join(f"{cell(a.get(k))} → {cell(b.get(k))}" for a, b in pairs) + " |")
    for i, (a, b) in enumerate(pairs):
        ratios = [float(b[k]["total_s"]) / float(a[k]["total_s"]) for k in keys
                  if k in a and k in b and a[k]["status"] == b[k]["status"] == "sat" and float(a[k]["total_s"]) > 0]
        sa = sum(float(a[k]["total_s"]) for k in keys if k in a)
        sb = sum(float(b[k]["total_s"]) for k in keys if k in b)
        print(f"\nround {i + 1}: per-puzzle median B ÷ A {statistics.median(ratios):.2f} over {len(ratios)}; "
              f"sum {sa:.2f} → {sb:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
