"""Issue 17, fourteenth session (steiner14): ``fillsmt solve`` plain and ``--unique`` through
``pipeline.solve`` in one process, the Steiner count on and off (``backtrack.STEINER_IN_PROOFS``
and ``STEINER_SECOND_PHASE`` together; the race's search is forked, so it sees the same), rounds
alternating: the minimum over the rounds of wall and CPU seconds (this process's; the race's
children not counted) and who answered.

    .venv/bin/python benchmarks/steiner14_pipeline.py [--rounds N] PUZZLES... > OUT.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import backtrack
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def _who(message: str) -> str:
    if "before any solver" in message:
        return "quick"
    if "rules' search" in message:
        return "search"
    return "rules" if "rules alone" in message else "solver"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    runs = [("plain_off", False, False), ("plain_on", False, True), ("unique_off", True, False),
            ("unique_on", True, True)]
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{key}_{c}" for key, _, _ in runs for c in ("wall", "cpu")]
                 + ["unique"] + [f"{key}_by" for key, _, _ in runs])
    for path in a.paths:
        puzzle = read_puzzle(path)
        best: dict[str, list[float]] = {}
        by, unique = {}, set()
        for _ in range(a.rounds):
            for key, asked, steiner in runs:
                backtrack.STEINER_IN_PROOFS = backtrack.STEINER_SECOND_PHASE = steiner
                t, c = time.perf_counter(), time.process_time()
                r = solve(puzzle, yices, timeout=a.timeout, unique=asked, presolve="staged")
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                old = best.get(key, [wall, cpu])
                best[key] = [min(old[0], wall), min(old[1], cpu)]
                by[key] = _who(r.message)
                if asked:
                    unique.add(r.unique)
        backtrack.STEINER_IN_PROOFS = backtrack.STEINER_SECOND_PHASE = True
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")]
                     + [f"{x:.4f}" for key, _, _ in runs for x in best[key]]
                     + ["/".join(str(u) for u in sorted(unique, key=str))] + [by[key] for key, _, _ in runs])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
