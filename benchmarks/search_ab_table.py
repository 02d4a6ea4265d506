"""Before/after table of two `fillsmt bench` CSVs run at the same time (issue 17, fifth session).

    python benchmarks/search_ab_table.py BEFORE.csv AFTER.csv [--per-puzzle]

Per configuration: solved (and proven unique) counts, median, mean and slowest total seconds of
the solved runs; with --per-puzzle one row per puzzle and configuration, before -> after
(a time-out shown as "t/o"), with the nodes the rules' search reported when it answered.
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics


def load(path: str) -> dict[tuple[str, str], dict]:
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            path, config = row["key"].rsplit("|", 1)
            rows[path.rsplit("/", 1)[-1].removesuffix(".txt"), config] = row
    return rows


def cell(row: dict | None) -> str:
    if row is None:
        return "–"
    if row["status"] not in ("sat", "unsat"):
        return "t/o"
    text = f"{float(row['total_s']):.2f}"
    if row["unique"] == "true":
        text += " u"
    nodes = re.search(r"(\d+) nodes", row["message"])
    if nodes:
        text += f" ({nodes.group(1)} nodes)"
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--per-puzzle", action="store_true")
    args = ap.parse_args()
    before, after = load(args.before), load(args.after)
    configs = sorted({c for _, c in before} | {c for _, c in after})
    if args.per_puzzle:
        puzzles = sorted({p for p, _ in before} | {p for p, _ in after})
        print("| puzzle | " + " | ".join(configs) + " |")
        print("|---|" + "---:|" * len(configs))
        for p in puzzles:
            print(f"| {p} | " + " | ".join(f"{cell(before.get((p, c)))} → {cell(after.get((p, c)))}"
                                         for c in configs) + " |")
        return
    print("| configuration | code | runs | solved | unique proven | median (s) | mean (s) | slowest (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for c in configs:
        for label, rows in (("before", before), ("after", after)):
            mine = [r for (p, cc), r in rows.items() if cc == c]
            ok = [r for r in mine if r["status"] in ("sat", "unsat")]
            times = [float(r["total_s"]) for r in ok]
            unique = sum(r["unique"] == "true" for r in ok)
            if times:
                slow = max(ok, key=lambda r: float(r["total_s"]))
                stats = (f"{statistics.median(times):.3f} | {statistics.mean(times):.3f} | "
                         f"{float(slow['total_s']):.2f} ({slow['puzzle'].rsplit('/', 1)[-1].removesuffix('.txt')})")
            else:
                stats = "– | – | –"
            print(f"| {c} | {label} | {len(mine)} | {len(ok)} | {unique} | {stats} |")


if __name__ == "__main__":
    main()
