"""Issue 17, thirteenth session: how many nodes may the quick proof's first solution take
(``features.QUICK_PROOF_FIRST``) now that nodes are cheaper (speed13)?

    .venv/bin/python benchmarks/first13.py ROUNDS FIRST,FIRST... PUZZLES... > OUT.csv

Per puzzle, in one process: ``pipeline.solve`` (yices, presolve staged) plain, and ``--unique``
under each value of ``QUICK_PROOF_FIRST``, alternating in every round; min wall seconds over the
rounds, the ratio to the plain solve, and who answered the proof.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import features
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main() -> None:
    rounds, firsts, paths = int(sys.argv[1]), [int(v) for v in sys.argv[2].split(",")], sys.argv[3:]
    yices = get_driver("yices")
    shipped = features.QUICK_PROOF_FIRST
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "plain"] + [f"unique_{f}" for f in firsts] + [f"ratio_{f}" for f in firsts]
                 + [f"by_{f}" for f in firsts])
    for path in paths:
        puzzle = read_puzzle(path)
        best: dict[str, float] = {}
        by: dict[str, str] = {}
        for _ in range(rounds):
            for key, first in [("plain", None)] + [(f"unique_{f}", f) for f in firsts]:
                features.QUICK_PROOF_FIRST = shipped if first is None else first
                t = time.perf_counter()
                r = solve(puzzle, yices, timeout=60, presolve="staged", unique=first is not None)
                best[key] = min(best.get(key, 1e9), time.perf_counter() - t)
                if first is not None:
                    if r.unique is not True:
                        raise SystemExit(f"{path}: not proven unique with QUICK_PROOF_FIRST={first}")
                    by[key] = r.answered_by
        features.QUICK_PROOF_FIRST = shipped
        out.writerow([Path(path).stem, round(best["plain"], 4)] + [round(best[f"unique_{f}"], 4) for f in firsts]
                     + [round(best[f"unique_{f}"] / best["plain"], 2) for f in firsts] + [by[f"unique_{f}"] for f in firsts])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
