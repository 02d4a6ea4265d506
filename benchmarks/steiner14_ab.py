"""Issue 17, fourteenth session (steiner14): ``capacity``'s Steiner count on and off, in one
process, rounds alternating.

    .venv/bin/python benchmarks/steiner14_ab.py [--rounds N] [--cap S] PUZZLES... > OUT.csv

Per puzzle, presolved as ``pipeline.solve`` does (``KIND.presolve(...).puzzle``), ``solve_strong(presolved, limit, steiner=...)`` for limit 1 (the plain
solve: off by default, on measures the gate) and limit 2 (the proof: on by default), each with
the Steiner count off and on, alternating in every round; at most ``--cap`` CPU seconds a run
(``time.process_time``). Recorded: nodes, whether the search was exhausted or timed out, the
number of solutions and a digest of them, and the CPU seconds (the minimum over the rounds).
The answers of the two modes are checked to agree wherever neither timed out.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import time
from pathlib import Path


def main() -> None:
    from fillsmt.fillomino.backtrack import solve_strong
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("puzzles", nargs="+")
    a = ap.parse_args()
    out = csv.writer(sys.stdout)
    out.writerow(["set", "puzzle", "limit", "off_nodes", "on_nodes", "off_cpu", "on_cpu", "ratio",
                  "off_timed_out", "on_timed_out", "solutions", "exhausted", "digest"])
    for path in a.puzzles:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        for limit in (1, 2):
            best: dict[bool, dict] = {}
            for _ in range(a.rounds):
                for mode in (False, True):
                    t = time.process_time()
                    found = solve_strong(puzzle, limit=limit, steiner=mode, clock=time.process_time,
                                         deadline=time.process_time() + a.cap)
                    cpu = time.process_time() - t
                    row = {"nodes": found.nodes, "cpu": cpu, "timed_out": found.timed_out,
                           "solutions": len(found.solutions), "exhausted": found.exhausted,
                           "digest": hashlib.sha1(repr(found.solutions).encode()).hexdigest()[:12]}
                    if mode in best:
                        row["cpu"] = min(row["cpu"], best[mode]["cpu"])
                    best[mode] = row
                if best[True]["timed_out"] and best[False]["timed_out"]:
                    break  # both at the cap: another round says nothing more
            off, on = best[False], best[True]
            if not off["timed_out"] and not on["timed_out"]:
                assert (off["solutions"], off["digest"], off["exhausted"]) == \
                    (on["solutions"], on["digest"], on["exhausted"]), (path, limit)
            answer = on if not on["timed_out"] else off
            out.writerow([Path(path).parent.parent.name if Path(path).parent.name == "puzzles" else Path(path).parent.name,
                          Path(path).stem, limit, off["nodes"], on["nodes"], f"{off['cpu']:.4f}",
                          f"{on['cpu']:.4f}", f"{on['cpu'] / max(off['cpu'], 1e-9):.3f}", off["timed_out"],
                          on["timed_out"], answer["solutions"], answer["exhausted"], answer["digest"]])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
