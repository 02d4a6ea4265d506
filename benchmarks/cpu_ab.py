"""Issue 17, eighth session (mid): two source trees side by side, one whole `fillsmt solve` process
at a time, alternating per puzzle: wall seconds and CPU seconds (the process and every process
it started: solvers, the search child), which a loaded machine changes far less than wall time.

    python benchmarks/cpu_ab.py --old OLD --new NEW --venv VENV PUZZLE... --csv out.csv [--unique] [--rounds N]

OLD and NEW hold a fillsmt/ package (``git archive REV fillsmt | tar -x -C DIR``); VENV has
fillsmt's dependencies but no fillsmt of its own. Each run is ``VENV/bin/python -m fillsmt solve
--format json --timeout 60 [--unique] PUZZLE`` with PYTHONPATH set to the tree; its answer is the
CLI's (checked before it prints). Round r runs OLD first when r is even, NEW first when odd.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(tree: str, venv: str, puzzle: str, unique: bool) -> dict:
    argv = [f"{venv}/bin/python", "-m", "fillsmt", "solve", "--format", "json", "--timeout", "60", puzzle]
    if unique:
        argv.insert(4, "--unique")
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": tree})
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    answer = json.loads(done.stdout.splitlines()[0]) if done.stdout.strip() else {}
    return {"status": answer.get("status", f"exit {done.returncode}"), "unique": answer.get("unique"),
            "solver": answer.get("solver", ""), "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "message": answer.get("message", "")[:80]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--venv", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--unique", action="store_true")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    rows = []
    with open(args.csv, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=["puzzle", "round", "tree", "status", "unique", "solver", "wall_s",
                                                 "cpu_s", "message"])
        writer.writeheader()
        for r in range(args.rounds):
            for puzzle in args.puzzles:
                order = [("old", args.old), ("new", args.new)]
                for name, tree in order if r % 2 == 0 else order[::-1]:
                    row = {"puzzle": puzzle.rsplit("/", 1)[-1].removesuffix(".txt"), "round": r, "tree": name,
                           **run(tree, args.venv, puzzle, args.unique)}
                    writer.writerow(row)
                    out.flush()
                    rows.append(row)
    for key in ("wall_s", "cpu_s"):
        old = {(x["puzzle"], x["round"]): x[key] for x in rows if x["tree"] == "old"}
        new = {(x["puzzle"], x["round"]): x[key] for x in rows if x["tree"] == "new"}
        ratio = statistics.median(new[k] / old[k] for k in old if k in new and old[k] > 0)
        print(f"{key}: median old {statistics.median(old.values()):.3f} new {statistics.median(new.values()):.3f}, "
              f"per-run new/old median {ratio:.2f}, sum old {sum(old.values()):.1f} new {sum(new.values()):.1f}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
