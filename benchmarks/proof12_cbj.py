"""Issue 17, twelfth session: the quick proof with the rules' own explanations
(``fillsmt.fillomino.deduce.reasons``), off / ``cbj`` / ``nogoods``, one process.

    .venv/bin/python benchmarks/proof12_cbj.py [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/proof12_cbj.py --pipeline [--rounds N] PUZZLES... > OUT.csv

Search mode (default): per puzzle presolved as ``pipeline.solve`` does (skipped when the rules
settle it), the quick search as ``Kind.quick_search`` runs it, alternating in every round: the
plain solve (limit 1) and the proof (limit 2) under each learning
(``features.QUICK_PROOF_LEARNING``); the minimum CPU seconds (``time.process_time``) over the
rounds, the nodes (and children skipped), the answer; beside them the oracle's ``cbj`` and
``unit`` nodes from ``results/proof11-nogoods.csv`` where it has the puzzle.

Pipeline mode: ``pipeline.solve`` (yices, presolve staged) plain and ``--unique`` under each
learning, alternating, min of the rounds, wall and CPU, and the ratios unique / plain, as
``proof10_pipeline.py`` measures them.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from fillsmt.fillomino import features
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

LEARNINGS = features.QUICK_PROOF_LEARNINGS
ORACLE = Path(__file__).parent / "results" / "proof11-nogoods.csv"


def _oracle() -> dict[tuple[str, str], str]:
    if not ORACLE.exists():
        return {}
    with ORACLE.open() as f:
        return {(row["puzzle"], row["variant"]): row["nodes"] for row in csv.DictReader(f)}


def _quick(presolved, limit: int, learning: str):
    features.QUICK_PROOF_LEARNING = learning
    t = time.process_time()
    found = KIND.quick_search(presolved, limit)
    return time.process_time() - t, found


def search_mode(paths: list[str], rounds: int) -> None:
    oracle = _oracle()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "solve_cpu", "solve_nodes"]
                 + [f"{lr}_{c}" for lr in LEARNINGS for c in ("cpu", "nodes", "skipped", "unique", "ratio")]
                 + ["oracle_cbj", "oracle_unit"])
    for path in paths:
        name = Path(path).stem
        presolved = KIND.presolve(read_puzzle(path)).puzzle
        if presolved is None:
            continue
        best: dict[str, float] = {}
        seen: dict[str, object] = {}
        for _ in range(rounds):
            for key, limit, learning in [("solve", 1, "off")] + [(lr, 2, lr) for lr in LEARNINGS]:
                cpu, found = _quick(presolved, limit, learning)
                best[key] = min(best.get(key, cpu), cpu)
                seen[key] = found
        if seen["solve"] is None:
            continue  # no quick search on this grid
        row = [name, round(best["solve"], 4), seen["solve"].nodes]
        answers = set()
        for lr in LEARNINGS:
            found = seen[lr]
            if found.unique is not None:  # None: the quick search gave up (the solver's turn)
                answers.add((tuple(found.solutions), found.unique))
            row += [round(best[lr], 4), found.nodes, found.skipped, found.unique,
                    round(best[lr] / best["solve"], 2)]
        if len(answers) > 1:
            raise SystemExit(f"{name}: the learnings disagree: {answers}")
        row += [oracle.get((name, "cbj"), ""), oracle.get((name, "unit"), "")]
        out.writerow(row)
        sys.stdout.flush()
    features.QUICK_PROOF_LEARNING = "off"


def pipeline_mode(paths: list[str], rounds: int) -> None:
    from fillsmt.drivers.registry import get_driver
    from fillsmt.pipeline import solve

    yices = get_driver("yices")
    runs = [("plain", False, "off")] + [(f"unique_{lr}", True, lr) for lr in LEARNINGS]
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{key}_{c}" for key, _, _ in runs for c in ("wall", "cpu")]
                 + [f"ratio_{lr}_{c}" for lr in LEARNINGS for c in ("wall", "cpu")] + ["unique"])
    for path in paths:
        puzzle = read_puzzle(path)
        best: dict[str, list[float]] = {}
        unique = set()
        for _ in range(rounds):
            for key, asked, learning in runs:
                features.QUICK_PROOF_LEARNING = learning
                t, c = time.perf_counter(), time.process_time()
                r = solve(puzzle, yices, timeout=30, unique=asked, presolve="staged")
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                old = best.get(key, [wall, cpu])
                best[key] = [min(old[0], wall), min(old[1], cpu)]
                if asked:
                    unique.add(r.unique)
        features.QUICK_PROOF_LEARNING = "off"
        unique.discard(None)
        if len(unique) != 1:
            raise SystemExit(f"{path}: the learnings disagree on uniqueness: {unique}")
        row = [Path(path).stem] + [round(v, 4) for key, _, _ in runs for v in best[key]]
        row += [round(best[f"unique_{lr}"][i] / best["plain"][i], 2) for lr in LEARNINGS for i in (0, 1)]
        out.writerow(row + [unique.pop()])
        sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pipeline", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    (pipeline_mode if a.pipeline else search_mode)(a.paths, a.rounds)


if __name__ == "__main__":
    main()
