"""Issue 17, eleventh session: the strong search with the rules' plain rounds, the staged rounds
(the default since this session) and the staged rounds plus ``learn`` (facts learned at the
root), side by side in one process: per puzzle and limit (1: a solution, 2: the proof), the
nodes and the minimum CPU seconds over the rounds, the three alternating within each round.

    .venv/bin/python benchmarks/proof11_staged.py [--rounds N] [--quick] PUZZLES... > OUT.csv

The search is the quick search's and quick proof's (``solve_strong`` without probing, at most
``QUICK_PROOF_FIRST`` nodes to a first solution) with ``--quick``, else the race's whole strong
search (both phases, no node bound). Answers are compared across the three: a settled answer
(unique or not) must be the same.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.features import QUICK_PROOF_FIRST
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

DESIGNS = {"plain-rounds": (False, False), "staged": (True, False), "staged-learn": (True, True)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "limit"] + [f"{d}_{c}" for d in DESIGNS for c in ("nodes", "cpu")] + ["answer"])
    for path in a.paths:
        presolved = KIND.presolve(read_puzzle(path)).puzzle
        if presolved is None:
            continue  # the rules settle it: no search
        for limit in (1, 2):
            best: dict[str, float] = {}
            found = {}
            for _ in range(a.rounds):
                for name, (staged, learn) in DESIGNS.items():
                    backtrack.STAGED_SETTLE = staged
                    kw = {"probing": False, "first_nodes": QUICK_PROOF_FIRST} if a.quick else {}
                    t = time.process_time()
                    r = backtrack.solve_strong(presolved, limit=limit, learn=learn, **kw)
                    cpu = time.process_time() - t
                    best[name] = min(best.get(name, cpu), cpu)
                    found[name] = r
            answers = {r.unique for r in found.values()} - {None}
            if len(answers) > 1:
                raise SystemExit(f"{path}: the designs disagree: {answers}")
            out.writerow([Path(path).stem, limit] + [v for d in DESIGNS for v in (found[d].nodes, f"{best[d]:.4f}")]
                         + [next(iter(answers), "")])
            sys.stdout.flush()
    backtrack.STAGED_SETTLE = True


if __name__ == "__main__":
    main()
