"""Issue 17, seventeenth session (walk17): the ``fillsmt bench`` runs of the hard tail and the
big-region set, main's and the variants' by turns, as one Markdown table: per puzzle and
configuration (plain, ``--unique``) the whole run's seconds in each round (who answered, in the
first round), rows where some run took 0.5 s or more; then the sums, the maxima and the hard
tail's maxima (a run unsolved, unchecked or not proven unique counts 60 s).

    .venv/bin/python benchmarks/walk17_bench_table.py benchmarks/results/walk17-bench main,first-instead 1,2
"""

from __future__ import annotations

import collections
import csv
import sys

HARD_TAIL = ("207", "266", "299", "330", "485", "620")


def runs(prefix: str, variant: str, round_: str) -> dict:
    """(puzzle, configuration) -> (seconds, answered by) of one bench CSV."""
    out = {}
    for row in csv.DictReader(open(f"{prefix}-{variant}-{round_}.csv")):
        config = "unique" if row["key"].endswith("/unique") else "plain"
        ok = row["status"] in ("sat", "unsat") and row["checked"] == "true" and \
            (config == "plain" or row["unique"] == "true")
        puzzle = row["puzzle"].rsplit("/", 1)[-1].removesuffix(".txt")
        out[puzzle, config] = (float(row["total_s"]) if ok else 60.0, row["answered_by"])
    return out


def main() -> None:
    prefix, variants, rounds = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    data = collections.defaultdict(dict)
    for v in variants:
        data[v] = [runs(prefix, v, r) for r in rounds]
    keys = sorted(data[variants[0]][0])
    print("| puzzle | | " + " | ".join(variants) + " |")
    print("|---|---|" + "---:|" * len(variants))
    for key in keys:
        if all(run[key][0] < 0.5 for v in variants for run in data[v]):
            continue
        print(f"| {key[0]} | {key[1]} | " + " | ".join(
            " / ".join(f"{run[key][0]:.2f}" for run in data[v]) + f" ({data[v][0][key][1]})" for v in variants) + " |")
    for config in ("plain", "unique"):
        for name, among in (("sum", keys), ("max", keys), ("hard-tail max", [k for k in keys if k[0] in HARD_TAIL])):
            if not among:
                continue  # a set without the hard tail (the big-region set alone)
            agg = sum if name == "sum" else max
            print(f"| {name} | {config} | " + " | ".join(
                " / ".join(f"{agg(run[k][0] for k in among if k[1] == config):.2f}" for run in data[v])
                for v in variants) + " |")


if __name__ == "__main__":
    main()
