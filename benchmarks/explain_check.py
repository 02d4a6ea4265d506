"""The full explain check of issue 19 over baron-thesis60 and janko-thesis100, and its timings.

For every puzzle: ``explain`` to the end; every number a step fixes must agree with the
reference solution and no candidate a step removes may be the reference's; replaying the steps
must give the reference. The reference is the published solution (janko-thesis100/solutions);
the Baron set has none published, so there it is yices' solution, proven unique and checked by
the independent checker. Then ``hint`` on the bare puzzle (its first step) is timed too.

    python benchmarks/explain_check.py --csv benchmarks/results/explain-check.csv \\
        --summary benchmarks/results/explain-check.md ../shared/instances/fillomino/{baron-thesis60,janko-thesis100}

One process (no parallel runs); times are wall-clock seconds of fillsmt's own work.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

import fillsmt
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.explain import explain, hint, replay
from fillsmt.fillomino.plain_format import read_grid, read_puzzle

FIELDS = ["set", "puzzle", "rules_alone", "status", "steps", "fixing_steps", "case_splits", "solver_forced",
          "agrees", "replays", "explain_s", "hint_s", "problem"]


def reference(base: Path, path: Path, puzzle):
    published = base / "solutions" / path.name
    if published.exists():
        return read_grid(str(published))[2], "published"
    result = fillsmt.solve(puzzle, solver="yices", unique=True)
    if result.unique is not True:
        raise SystemExit(f"{path}: not proven unique ({result.status})")
    return result.grid, "yices, proven unique"


def check(base: Path, path: Path) -> dict:
    puzzle = read_puzzle(str(path))
    solution, _ = reference(base, path, puzzle)
    start = time.perf_counter()
    e = explain(puzzle)
    explain_s = time.perf_counter() - start
    start = time.perf_counter()
    h = hint(puzzle)
    hint_s = time.perf_counter() - start
    problem = ""
    agrees = True
    for i, step in enumerate(e.steps, 1):
        bad = [c for c in step.cells if solution[c[0]][c[1]] != c[2]] + \
              [c for c in step.removed if solution[c[0]][c[1]] == c[2]]
        if bad:
            agrees, problem = False, problem or f"step {i} ({step.rule}) disagrees at {bad[0]}"
    replays = e.status == "solved" and replay(puzzle, e.steps) == solution
    if h.step is None or any(solution[r][c] != v for r, c, v in h.step.cells):
        problem = problem or f"hint: {h.status}"
    return {"set": base.name, "puzzle": path.stem, "rules_alone": deduce(puzzle).solved, "status": e.status,
            "steps": len(e.steps), "fixing_steps": sum(1 for s in e.steps if s.cells),
            "case_splits": sum(1 for s in e.steps if s.rule == "case-split"),
            "solver_forced": sum(1 for s in e.steps if s.rule == "solver-forced"),
            "agrees": agrees, "replays": replays, "explain_s": round(explain_s, 4), "hint_s": round(hint_s, 4),
            "problem": problem}


def summary(rows: list[dict]) -> str:
    out = ["| set | puzzles | explained to the end | steps agree | replay = reference | hint right | "
           "rules alone | case splits (median, max) | solver-forced cells (median, max) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in sorted({r["set"] for r in rows}):
        rs = [r for r in rows if r["set"] == name]
        cs = [r["case_splits"] for r in rs]
        sf = [r["solver_forced"] for r in rs]
        out.append(f"| {name} | {len(rs)} | {sum(r['status'] == 'solved' for r in rs)} | {sum(r['agrees'] for r in rs)} | "
                   f"{sum(r['replays'] for r in rs)} | {sum(not r['problem'].startswith('hint') for r in rs)} | "
                   f"{sum(r['rules_alone'] for r in rs)} | {statistics.median(cs)}, {max(cs)} | "
                   f"{statistics.median(sf)}, {max(sf)} |")
    out += ["", "Seconds per puzzle:", "",
            "| set | puzzles | explain median | explain max | hint median | hint max |",
            "|---|---:|---:|---:|---:|---:|"]
    groups = []
    for name in sorted({r["set"] for r in rows}):
        rs = [r for r in rows if r["set"] == name]
        groups.append((name, rs))
        groups.append((f"{name}, solved by the rules alone", [r for r in rs if r["rules_alone"]]))
        groups.append((f"{name}, not by the rules alone", [r for r in rs if not r["rules_alone"]]))
    for name, rs in groups:
        if not rs:
            continue
        ex = [r["explain_s"] for r in rs]
        hi = [r["hint_s"] for r in rs]
        out.append(f"| {name} | {len(rs)} | {statistics.median(ex):.3f} | {max(ex):.3f} | "
                   f"{statistics.median(hi):.3f} | {max(hi):.3f} |")
    problems = [f"- {r['set']}/{r['puzzle']}: {r['problem']}" for r in rows if r["problem"]]
    return "\n".join(out + ([""] + problems if problems else [])) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", type=Path)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--summary", required=True)
    args = ap.parse_args()
    rows = []
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        for base in args.sets:
            for path in sorted((base / "puzzles").glob("*.txt")):
                row = check(base, path)
                rows.append(row)
                writer.writerow(row)
                f.flush()
                print(f"{base.name}/{path.name}: {row['status']} {row['explain_s']:.2f} s {row['problem']}",
                      file=sys.stderr, flush=True)
    Path(args.summary).write_text(summary(rows))
    print(Path(args.summary).read_text())


if __name__ == "__main__":
    main()
