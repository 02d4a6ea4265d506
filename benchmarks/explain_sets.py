"""``fillsmt explain`` on whole puzzle sets: how many explanations need the solver, and how long.

Each puzzle of each set (``SHARED/<set>/puzzles/*.txt``) is explained by the real command line
(``fillsmt explain --format json --timeout T``), one run at a time. Prints a Markdown table, one
row per set: puzzles, explanations solved, puzzles with at least one ``solver-forced`` step,
such steps in all, steps in all, ``size-cap`` and ``size-caps`` steps, case-analysis steps
(``case-split``, ``whichever``, ``nested-split``), the total and the slowest wall seconds of a
run (process start included), and the load average at the start. ``--rows`` also writes one
JSON line per puzzle (its status, seconds and steps per rule).

    PATH=.venv/bin:$PATH python benchmarks/explain_sets.py [--sets janko-thesis100,janko-dev100]
    python benchmarks/explain_sets.py --fillsmt "python -m fillsmt"   # another checkout's code

Needs ../shared (the reference sets, or ``SHARED``); nothing is stored.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED", ROOT.parent / "shared" / "instances" / "fillomino"))
CASES = ("case-split", "whichever", "nested-split")


def explain(command: list[str], puzzle: Path, timeout: float) -> tuple[dict | None, float]:
    """One run: the explanation (None if the command printed none) and its wall seconds."""
    start = time.monotonic()
    ran = subprocess.run(
        [*command, "explain", "--format", "json", "--timeout", str(timeout), str(puzzle)],
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - start
    try:
        return json.loads(ran.stdout), seconds
    except json.JSONDecodeError:
        print(f"{puzzle}: exit {ran.returncode}: {ran.stderr.strip()}", file=sys.stderr)
        return None, seconds


def row(name: str, command: list[str], timeout: float, rows) -> str:
    files = sorted((SHARED / name / "puzzles").glob("*.txt"))
    load = os.getloadavg()[0]
    rules: Counter[str] = Counter()
    solved = forced_puzzles = 0
    total, slowest = 0.0, (0.0, "")
    for f in files:
        found, seconds = explain(command, f, timeout)
        total += seconds
        slowest = max(slowest, (seconds, f.stem))
        if found is None:
            continue
        counted = Counter(step["rule"] for step in found["steps"])
        if rows is not None:
            line = {"set": name, "puzzle": f.stem, "status": found["status"], "seconds": round(seconds, 2)}
            rows.write(json.dumps(line | {"rules": dict(counted)}) + "\n")
        rules += counted
        solved += found["status"] == "solved"
        forced_puzzles += counted["solver-forced"] > 0
    cases = sum(rules[r] for r in CASES)
    return (
        f"| {name} | {len(files)} | {solved} | {forced_puzzles} | {rules['solver-forced']} | "
        f"{sum(rules.values())} | {rules['size-cap']} / {rules['size-caps']} | {cases} | "
        f"{total:.1f} | {slowest[0]:.2f} ({slowest[1]}) | {load:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="janko-thesis100,janko-dev100")
    parser.add_argument("--fillsmt", default="fillsmt", help="the command that runs fillsmt")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--rows", metavar="FILE.jsonl", help="also write one line per puzzle")
    args = parser.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"{SHARED} is absent (the shared puzzle sets sit beside the checkout)")
    command = shlex.split(args.fillsmt)
    print(
        "| set | puzzles | solved | need a solver step | solver steps | steps | size-cap / size-caps "
        "| case steps | total s | slowest s | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = open(args.rows, "w") if args.rows else None
    for name in args.sets.split(","):
        print(row(name, command, args.timeout, rows), flush=True)


if __name__ == "__main__":
    main()
