"""Baseline: the thesis encoding with z3 and yices (binaries), on the issue-2 puzzle sets.

Runs every (puzzle, solver) pair through fillsmt's pipeline (encode, solve, decode, check),
at most --jobs solver processes at a time, writes one CSV row per run, and prints a Markdown
table of solved counts, medians and the yices/z3 ratio, all from this one run.

    python benchmarks/thesis_baseline.py --jobs 2 --timeout 300 \
        --csv benchmarks/results/thesis-baseline.csv \
        ../shared/instances/fillomino/minizinc-challenge \
        ../shared/instances/fillomino/baron-thesis60/puzzles/05x10-*.txt \
        ../shared/instances/fillomino/baron-thesis60/puzzles/10x10-*.txt
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fillsmt.drivers import get_driver
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve

SOLVERS = ["z3", "yices"]


def puzzle_files(args: list[str]) -> list[Path]:
    files: list[Path] = []
    for a in args:
        p = Path(a)
        files += sorted(p.glob("*.txt")) if p.is_dir() else [p]
    return files


def run_one(path: Path, solver: str, timeout: float) -> dict:
    result = solve(read_puzzle(str(path)), get_driver(solver), "thesis", timeout)
    return {"set": path.parent.name if path.parent.name != "puzzles" else path.parent.parent.name,
            "puzzle": path.stem, "solver": solver, "encoding": "thesis",
            "status": result.status.value, "checked": result.grid is not None,
            "encode_s": round(result.times["encode"], 4), "solve_s": round(result.times["solve"], 4),
            "total_s": round(result.times["total"], 4)}


def table(rows: list[dict]) -> str:
    out = ["| set | solver | solved & checked | median total (s) | mean (s) | max (s) |",
           "|---|---|---|---|---|---|"]
    medians = {}
    for s in sorted({r["set"] for r in rows}):
        for solver in SOLVERS:
            rs = [r for r in rows if r["set"] == s and r["solver"] == solver]
            ts = [r["total_s"] for r in rs]
            ok = sum(1 for r in rs if r["checked"])
            medians[s, solver] = statistics.median(ts)
            out.append(f"| {s} | {solver} | {ok}/{len(rs)} | {statistics.median(ts):.3f} | "
                       f"{statistics.mean(ts):.3f} | {max(ts):.3f} |")
    out.append("")
    out.append("| set | median ratio yices / z3 |")
    out.append("|---|---|")
    for s in sorted({r["set"] for r in rows}):
        out.append(f"| {s} | {medians[s, 'yices'] / medians[s, 'z3']:.2f} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--csv", required=True)
    args = ap.parse_args()
    jobs = [(p, s) for p in puzzle_files(args.puzzles) for s in SOLVERS]
    Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(args.csv, "w", newline="") as f, ThreadPoolExecutor(args.jobs) as pool:
        writer = None
        for i, row in enumerate(pool.map(lambda j: run_one(j[0], j[1], args.timeout), jobs), 1):
            writer = writer or csv.DictWriter(f, fieldnames=list(row))
            if i == 1:
                writer.writeheader()
            writer.writerow(row)
            f.flush()
            rows.append(row)
            print(f"[{i}/{len(jobs)}] {row['puzzle']} {row['solver']} {row['status']} {row['total_s']:.2f}s",
                  file=sys.stderr)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
