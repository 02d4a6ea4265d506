"""The default solve of two fillsmt installations, puzzle by puzzle by turns, in warm processes.

Each installation gets one long-lived worker process (its own interpreter, its ``fillsmt``
imported once) that solves the puzzles it is sent through the API, as ``fillsmt solve`` does by
default (``fillsmt.solve(fillsmt.load(path))``, or with ``unique=True``), and reports the wall
time of each solve and the worker's own CPU time (its racers' solver and search processes not
counted). Every puzzle goes to both workers in turn, the order swapped from one puzzle to the
next and from one round to the next, so that a change in the machine's load falls on both
alike; start-up is left out (``startup.py`` measures it). Prints, per puzzle folder, the median
wall and CPU time of each installation and their ratio, the CPU of all its runs, and the runs
either left unsettled; with ``--slow SECONDS``, then every puzzle whose median wall time (of
either installation) is at least that, with both medians and their ratio. ``--solver NAME``
solves with that solver instead of the default race (``rules``: the kind's own search alone, all
in the worker's process), ``--timeout`` bounds each solve.

    python benchmarks/before_after.py ../shared/instances/fillomino/hard-tail \\
        ../shared/instances/fillomino/janko-dev100 ../shared/instances/fillomino/janko-thesis100 \\
        instances/fillomino/scaling --against $BEFORE --rounds 3
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
from pathlib import Path

from startup import python_of

WORKER = """
import sys, time
import fillsmt
unique = sys.argv[1] == "unique"
options = {"solver": sys.argv[2]} if sys.argv[2] else {}
if sys.argv[3]:
    options["timeout"] = float(sys.argv[3])
for line in sys.stdin:
    puzzle = fillsmt.load(line.strip())
    wall, cpu = time.perf_counter(), time.process_time()
    result = fillsmt.solve(puzzle, unique=unique, **options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    settled = result.status.value in ("sat", "unsat") and (not unique or result.unique is not None)
    print(f"{wall:.6f} {cpu:.6f} {int(settled)}", flush=True)
"""


class Worker:
    """One installation's warm process: a puzzle's path in, its solve's wall, CPU and settledness out."""

    def __init__(self, program: str, unique: bool, solver: str = "", timeout: float | None = None) -> None:
        self.process = subprocess.Popen(
            [python_of(program), "-c", WORKER, "unique" if unique else "plain", solver, str(timeout or "")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd="/",  # the installation's fillsmt, not a checkout's source tree in the working folder
        )

    def solve(self, path: Path) -> tuple[float, float, bool]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path.resolve()}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline().split()
        if len(line) != 3:
            raise SystemExit(f"the worker of {self.process.args[0]} failed on {path}")
        return float(line[0]), float(line[1]), line[2] == "1"

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def puzzles(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.txt") if p.parent.name != "solutions" and p.name != "README.txt")


def set_name(folder: Path) -> str:
    """A set's name: its folder's, or the parent's for a ``puzzles`` folder (as ``fillsmt bench``
    names sets)."""
    folder = folder.resolve()
    return folder.parent.name if folder.name == "puzzles" else folder.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="puzzle folders")
    parser.add_argument("--against", required=True, help="the other installation's fillsmt program (before)")
    parser.add_argument("--fillsmt", default=shutil.which("fillsmt") or "fillsmt", help="the program measured (after)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--unique", action="store_true", help="solve with unique=True (--unique)")
    parser.add_argument(
        "--solver", default="", help="solve with this solver (rules: the search alone); default: the race"
    )
    parser.add_argument("--timeout", type=float, help="seconds a solve may take (default: no limit)")
    parser.add_argument("--slow", type=float, help="also list each puzzle whose median wall is at least this (s)")
    args = parser.parse_args()
    workers = {
        name: Worker(program, args.unique, args.solver, args.timeout)
        for name, program in (("before", args.against), ("after", args.fillsmt))
    }
    runs: dict[tuple[str, str], list[tuple[float, float, bool]]] = {}
    walls: dict[tuple[Path, Path, str], list[float]] = {}
    try:
        turn = 0
        for _ in range(args.rounds):
            for folder in args.sets:
                for path in puzzles(folder):
                    order = ("before", "after") if turn % 2 == 0 else ("after", "before")
                    turn += 1
                    for name in order:
                        run = workers[name].solve(path)
                        runs.setdefault((folder, name), []).append(run)
                        walls.setdefault((folder, path, name), []).append(run[0])
            turn += 1  # the next round starts each puzzle with the other installation
    finally:
        for worker in workers.values():
            worker.close()
    mode = "unique" if args.unique else "plain"
    what = f"--solver {args.solver}" if args.solver else "default solve"
    print(f"{what} ({mode}), {args.rounds} rounds, medians over every run (s), and the CPU of all runs (s):")
    print(
        "| set | runs | wall before | wall after | after / before | CPU before | CPU after | after / before |"
        " all CPU before / after | unsettled before / after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for folder in args.sets:
        before, after = runs[(folder, "before")], runs[(folder, "after")]
        wall = [statistics.median(r[0] for r in x) for x in (before, after)]
        cpu = [statistics.median(r[1] for r in x) for x in (before, after)]
        total = [sum(r[1] for r in x) for x in (before, after)]
        missed = [sum(1 for r in x if not r[2]) for x in (before, after)]
        print(
            f"| {set_name(folder)} | {len(after)} | {wall[0]:.4f} | {wall[1]:.4f} | {wall[1] / wall[0]:.2f} |"
            f" {cpu[0]:.4f} | {cpu[1]:.4f} | {cpu[1] / cpu[0]:.2f} | {total[0]:.2f} / {total[1]:.2f} |"
            f" {missed[0]} / {missed[1]} |"
        )
    if args.slow is not None:
        print(f"\nEvery puzzle whose median wall is {args.slow} s or more (s):")
        print("| set | puzzle | wall before | wall after | after / before |")
        print("|---|---|---:|---:|---:|")
        for folder in args.sets:
            for path in puzzles(folder):
                before, after = (statistics.median(walls[(folder, path, name)]) for name in ("before", "after"))
                if max(before, after) >= args.slow:
                    print(f"| {set_name(folder)} | {path.stem} | {before:.3f} | {after:.3f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
