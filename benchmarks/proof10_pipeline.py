"""Issue 17, tenth session (proofs): plain solve and ``--unique`` through ``pipeline.solve`` in one
process, alternating, per puzzle: the minimum over the rounds of wall and CPU seconds, the ratio
unique / plain, who answered.

    .venv/bin/python benchmarks/proof10_pipeline.py [--rounds N] [--ab [--feature NAME [--values ON,OFF]]] PUZZLES... > OUT.csv

With ``--ab`` every round also runs ``--unique`` with the quick proof's ``pass_weak`` off
(``features.QUICK_PROOF_PASS_WEAK``; the columns ``unique_off_*``, ``ratio_off_*``): the kept
change against the code before it, in the same process and rounds. The plain solve does not use
it (the quick search with limit 1 never passes over weak guesses). ``--feature NAME`` makes the
A/B about another of ``features``' switches of the quick proof (fifteenth session:
``QUICK_PROOF_LAST_CONFLICT``): on in ``unique``, off in ``unique_off``; ``--values 90,40`` gives
the two values (Python literals) where the switch is a number (``QUICK_PROOF_FIRST``);
``--feature A,B`` switches several together (sixteenth session:
``QUICK_PROOF_WIPED_OUT,QUICK_PROOF_WEIGHTS``). Without ``--ab`` no switch is touched: the code
as it is (until the sixteenth session the ``unique`` run set ``pass_weak`` on even then, so the
runs without ``--ab`` measured the proof with ``pass_weak``, not the default).
"""

from __future__ import annotations

import argparse
import ast
import csv
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import features
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
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ab", action="store_true")
    ap.add_argument("--feature", default="QUICK_PROOF_PASS_WEAK")
    ap.add_argument("--values", default="True,False")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    names = a.feature.split(",")
    kept = {name: getattr(features, name) for name in names}
    on, off = ast.literal_eval(f"({a.values})")
    # without --ab the switches are left as they are (fixed in the sixteenth session: the
    # ``unique`` run used to set its ``on`` value, pass_weak, though the default has it off)
    runs = [("plain", False, on if a.ab else None), ("unique", True, on if a.ab else None)] \
        + ([("unique_off", True, off)] if a.ab else [])
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{key}_{c}" for key, _, _ in runs for c in ("wall", "cpu")]
                 + [f"ratio{key[6:]}_{c}" for key, _, _ in runs[1:] for c in ("wall", "cpu")]
                 + ["unique"] + [f"{key}_by" for key, _, _ in runs])
    for path in a.paths:
        puzzle = read_puzzle(path)
        best: dict[str, list[float]] = {}
        by, unique = {}, set()
        for _ in range(a.rounds):
            for key, asked, weak in runs:
                for name in names if weak is not None else ():
                    setattr(features, name, weak)
                t, c = time.perf_counter(), time.process_time()
                r = solve(puzzle, yices, timeout=30, unique=asked, presolve="staged")
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                old = best.get(key, [wall, cpu])
                best[key] = [min(old[0], wall), min(old[1], cpu)]
                by[key] = _who(r.message)
                if asked:
                    unique.add(r.unique)
        for name, value in kept.items():
            setattr(features, name, value)
        p = best["plain"]
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")]
                     + [f"{x:.4f}" for key, _, _ in runs for x in best[key]]
                     + [f"{best[key][i] / max(p[i], 1e-4):.2f}" for key, _, _ in runs[1:] for i in (0, 1)]
                     + ["/".join(str(u) for u in sorted(unique, key=str))] + [by[key] for key, _, _ in runs])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
