"""Issue 17, twelfth session: the quick search's budget on the wall clock against the process's
CPU clock (``features.QUICK_CLOCK``), under load. In one process, per puzzle and round, the plain
solve and ``--unique`` through ``pipeline.solve`` with each clock, alternating; ``--load N``
keeps N busy-looping processes running meanwhile (a loaded machine, as two ``bench`` jobs with
their solver children make it). Per run: wall and CPU seconds, who answered.

    .venv/bin/python benchmarks/quick12_clock.py [--rounds N] [--load N] PUZZLES... > OUT.csv
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import features
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve

CLOCKS = {"wall": time.monotonic, "cpu": time.process_time}


def _busy() -> None:
    while True:
        pass


def _who(message: str) -> str:
    return "quick" if "before any solver" in message else "race"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--load", type=int, default=0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(a.load)]
    for h in hogs:
        h.start()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "round", "asked", "clock", "wall", "cpu", "by", "unique"])
    try:
        for path in a.paths:
            puzzle = read_puzzle(path)
            for r in range(a.rounds):
                for asked in (False, True):
                    for name in (("wall", "cpu") if r % 2 == 0 else ("cpu", "wall")):
                        features.QUICK_CLOCK = CLOCKS[name]
                        t, c = time.perf_counter(), time.process_time()
                        res = solve(puzzle, yices, timeout=30, unique=asked, presolve="staged")
                        wall, cpu = time.perf_counter() - t, time.process_time() - c
                        out.writerow([path.rsplit("/", 1)[-1], r, "unique" if asked else "plain", name,
                                      f"{wall:.4f}", f"{cpu:.4f}", _who(res.message), res.unique])
                        sys.stdout.flush()
    finally:
        for h in hogs:
            h.kill()


if __name__ == "__main__":
    main()
