"""``fillsmt repair`` on janko 10x10 puzzles with clues taken out: seconds, clues added, proven.

Each puzzle of ``PUZZLES`` loses the given number of clues (``tests/gridgen.without_clues``,
seeded by the puzzle's name and the number, as the tests do), is written to a temporary file
and repaired by the real command line (``fillsmt repair --format json --timeout T``), one run at a
time. Prints a Markdown table: puzzle, clues removed, solutions the search tried, clues added,
the fewest clues every repair was proven to need, whether no solution needs fewer was proven,
wall seconds, CPU seconds of fillsmt and its solvers, and the load average at the start.

    PATH=.venv/bin:$PATH python benchmarks/repair_janko.py [--timeout 30]

Needs ../shared (the janko set); the puzzles are made at run time, never stored.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gridgen import without_clues  # noqa: E402

import fillsmt  # noqa: E402
from fillsmt.kinds import kind_of  # noqa: E402

JANKO = ROOT.parent / "shared" / "instances" / "fillomino" / "janko-thesis100" / "puzzles"
PUZZLES = [("007", 4), ("008", 2), ("015", 3), ("016", 4), ("017", 2), ("018", 3)]


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    if not JANKO.is_dir():
        sys.exit(f"{JANKO} is absent (the shared puzzle sets sit beside the checkout)")
    print(f"`fillsmt repair --timeout {args.timeout:g}`, load average at the start of each run in the last column\n")
    print(
        "| puzzle | clues removed | solutions tried | clues added | needs at least | fewest proven | wall s | CPU s "
        "| load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, removed in PUZZLES:
            puzzle = without_clues(fillsmt.load(str(JANKO / f"{name}.txt")), removed, f"{name}-{removed}")
            path = Path(tmp) / f"janko-{name}-minus-{removed}.txt"
            path.write_text(kind_of(puzzle).format_puzzle(puzzle))
            load = os.getloadavg()[0]
            cpu, start = children_cpu(), time.monotonic()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "fillsmt",
                    "repair",
                    "--format",
                    "json",
                    "--timeout",
                    str(args.timeout),
                    str(path),
                ],
                capture_output=True,
                text=True,
            )
            wall, cpu = time.monotonic() - start, children_cpu() - cpu
            if done.stdout.strip():
                obj = json.loads(done.stdout)
                row = (
                    obj["solutions_tried"],
                    len(obj["added_clues"]),
                    obj["fewest_at_least"],
                    "yes" if obj["fewest_proven"] else "no",
                )
            else:
                row = ("-", "-", "-", done.stderr.strip().splitlines()[-1])
            print(
                f"| {name} | {removed} | {' | '.join(map(str, row))} | {wall:.1f} | {cpu:.1f} | {load:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
