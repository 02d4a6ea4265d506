"""Issue 17, ninth session: whole-process time of short CLI commands, two installs side by side.

    python benchmarks/startup_table.py --before VENV --after VENV [--runs 20] [--puzzle FILE] [--csv out.csv]

Each VENV is a virtual environment with fillsmt installed (``VENV/bin/fillsmt``). Every command
below (and, for the floor, ``python -c pass`` and ``python -c 'import click'``) runs ``--runs`` times per VENV, the two alternating run by run (before first on even runs,
after first on odd ones) so that load from other processes falls on both alike, after two
warm-up runs each (which also write the byte-code caches a normal install has). A run's wall time
is from start to exit; its CPU time is the process's and everything it started (solvers, the
search child). The table gives the median and the 90th percentile of each, and after/before of the
medians. A run whose exit code is not 0 stops the benchmark: a fast failure is not a result.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import time

DEFAULT_PUZZLE = "../shared/instances/fillomino/janko-thesis100/puzzles/250.txt"
FALLBACK_PUZZLE = "instances/fillomino/g12-5x5.txt"


def commands(puzzle: str) -> list[tuple[str, list[str]]]:
    """(label, the command line: a program in the venv's bin/ and its arguments); the first two
    are the floor, what any click program started from that venv costs."""
    return [
        ("python -c pass", ["python", "-c", "pass"]),
        ("python -c 'import click'", ["python", "-c", "import click"]),
        ("fillsmt --version", ["fillsmt", "--version"]),
        ("fillsmt --help", ["fillsmt", "--help"]),
        ("fillsmt solve --help", ["fillsmt", "solve", "--help"]),
        ("fillsmt solve PUZZLE", ["fillsmt", "solve", puzzle]),
        ("fillsmt solve --unique PUZZLE", ["fillsmt", "solve", "--unique", puzzle]),
    ]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(venv: str, command: list[str], env: dict) -> tuple[float, float]:
    argv = [os.path.join(venv, "bin", command[0]), *command[1:]]
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env)
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"startup_table: {' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return wall, cpu


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the venv of the tree before (main)")
    ap.add_argument("--after", required=True, help="the venv of the tree after (the branch)")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--puzzle", default=None, help=f"default {DEFAULT_PUZZLE}, else {FALLBACK_PUZZLE}")
    ap.add_argument("--csv", default=None, help="one row per run")
    args = ap.parse_args()
    puzzle = args.puzzle or (DEFAULT_PUZZLE if os.path.exists(DEFAULT_PUZZLE) else FALLBACK_PUZZLE)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as a user's install runs
    sides = [("before", args.before), ("after", args.after)]
    rows = []
    for name, argv in commands(puzzle):
        for _, venv in sides:
            for _ in range(2):
                run_once(venv, argv, env)
        for r in range(args.runs):
            for side, venv in sides if r % 2 == 0 else sides[::-1]:
                wall, cpu = run_once(venv, argv, env)
                rows.append({"command": name, "side": side, "run": r, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4)})
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    print(f"puzzle: {puzzle}; {args.runs} runs per command and side; seconds\n")
    print("| command | wall median before → after | wall p90 before → after | CPU median before → after "
          "| after/before (wall median) |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in commands(puzzle):
        got = {side: [x for x in rows if x["command"] == name and x["side"] == side] for side, _ in sides}
        wall = {s: [x["wall_s"] for x in v] for s, v in got.items()}
        cpu = {s: [x["cpu_s"] for x in v] for s, v in got.items()}
        mb, ma = statistics.median(wall["before"]), statistics.median(wall["after"])
        print(f"| `{name}` | {mb:.3f} → {ma:.3f} | {p90(wall['before']):.3f} → {p90(wall['after']):.3f} "
              f"| {statistics.median(cpu['before']):.3f} → {statistics.median(cpu['after']):.3f} | {ma / mb:.2f} |")


if __name__ == "__main__":
    main()
