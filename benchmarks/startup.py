"""How long a whole ``fillsmt solve`` process takes on small puzzles, against Python importing click.

A 10×10 puzzle is settled in a few milliseconds once fillsmt runs; what a user waits for is mostly
the process: the interpreter, click, and what fillsmt imports. This runs, by turns, ``python -c
'import click'`` and ``fillsmt solve PUZZLE`` for each puzzle (whole processes, started the same
way, in an order that rotates from one puzzle to the next), ``--rounds`` times, and prints the
median wall time of each and of their difference. With ``--against OTHER_FILLSMT`` another
installation's program (an earlier checkout's venv) runs by turns with them, so that both are
measured in one run.

    python benchmarks/startup.py instances/fillomino/scaling/10x10-*.txt --rounds 20
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(argv: list[str]) -> float:
    """Wall seconds of one whole process (its output thrown away; it must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit code {done.returncode}")
    return seconds


def python_of(program: str) -> str:
    """The interpreter of a console script (its ``#!`` line), so that click is timed with the
    same Python and site packages as the program."""
    first = Path(program).read_text(encoding="utf-8", errors="replace").splitlines()[0]
    return first[2:].strip() if first.startswith("#!") else sys.executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (small ones: start-up is what is measured)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--fillsmt", default=shutil.which("fillsmt") or "fillsmt", help="the program measured")
    parser.add_argument("--against", help="another fillsmt program, measured by turns in the same run")
    args = parser.parse_args()
    programs = {"fillsmt": args.fillsmt} | ({"against": args.against} if args.against else {})
    python = python_of(args.fillsmt)
    click: list[float] = []
    solve: dict[str, list[float]] = {name: [] for name in programs}
    turn = 0
    for _ in range(args.rounds):
        for puzzle in args.puzzles:
            # click and each program by turns, the order rotated from one run to the next: the
            # process that runs after another one comes out a few ms faster
            runs = [("click", [python, "-c", "import click"])]
            runs += [(name, [program, "solve", puzzle]) for name, program in programs.items()]
            turn += 1
            for name, argv in runs[turn % len(runs) :] + runs[: turn % len(runs)]:
                (click if name == "click" else solve[name]).append(timed(argv))
    base = statistics.median(click)
    print(f"{len(args.puzzles)} puzzles x {args.rounds} rounds, medians of whole processes (s):")
    print(f"  python -c 'import click'   {base:.4f}")
    for name, times in solve.items():
        median = statistics.median(times)
        print(f"  {name:<10} solve          {median:.4f}   (+{(median - base) * 1000:.1f} ms over import click)")


if __name__ == "__main__":
    main()
