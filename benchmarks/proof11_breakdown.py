"""Issue 17, eleventh session: where a plain solve's and a ``--unique`` run's wall time goes,
stage by stage, through ``pipeline.solve`` (default configuration), one process, the two
alternating; each stage's start and length in ms since ``solve`` was called, per round. With
``--quick``: the in-process quick search alone, as the plain solve runs it (limit 1, the time
budget) and as ``--unique`` runs it (limit 2, the 40-node bound), min of 5 each, and how long
the quick proof's search takes to its first solution (limit 1, the 40-node bound, no time
budget; min of 3): what a time bound on that first solution would keep or lose.

    .venv/bin/python benchmarks/proof11_breakdown.py [--rounds N] [--quick] PUZZLES... > OUT.txt

Stages: ``presolve`` (the rules), ``quick_search``, ``encode`` (the script as a recipe: its text
is written in ``oneshot`` or ``load``), ``oneshot`` (a plain yices run: start, parse, check),
``spawn`` / ``load`` / ``check`` / ``get_values_and_texts`` / ``assert_term`` / ``close`` (the
session's exchanges: ``--unique`` checks twice), ``_race`` (everything after the quick search).
"""

from __future__ import annotations

import argparse
import functools
import time

from fillsmt import pipeline
from fillsmt.drivers import binaries
from fillsmt.drivers import session as sessions
from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.features import QUICK_PROOF_FIRST
from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve
from fillsmt.registry import kind_of

LOG: list[tuple[str, float, float]] = []


def _timed(owner, name: str, label: str | None = None) -> None:
    """Wrap ``owner.name`` so each call is logged as (label, start, end)."""
    f = getattr(owner, name)

    @functools.wraps(f)
    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            LOG.append((label or name, t, time.perf_counter()))

    setattr(owner, name, timed)


def breakdown(paths: list[str], rounds: int) -> None:
    for name in ("load", "check", "get_values_and_texts", "assert_term"):
        _timed(sessions.Session, name)
    _timed(sessions.ProcessSession, "close")
    _timed(sessions.ProcessSession, "__init__", "spawn")
    for name in ("presolve", "quick_search", "encode"):
        _timed(Fillomino, name)
    _timed(binaries.CommandDriver, "run", "oneshot")
    _timed(pipeline, "_race")
    yices = get_driver("yices")
    for path in paths:
        puzzle = read_puzzle(path)
        print(path)
        for _ in range(rounds):
            for unique in (False, True):
                LOG.clear()
                t0 = time.perf_counter()
                r = solve(puzzle, yices, timeout=30, unique=unique, presolve="staged")
                total = time.perf_counter() - t0
                stages = " ".join(f"{n}@{(a - t0) * 1000:.0f}+{(b - a) * 1000:.1f}" for n, a, b in LOG)
                print(f"  {'unique' if unique else 'plain '} total {total * 1000:.0f} ms ({r.unique}): {stages}")


def quick(paths: list[str]) -> None:
    plain_sum = unique_sum = 0.0
    for path in paths:
        puzzle = read_puzzle(path)
        kind = kind_of(puzzle)
        found = kind.presolve(puzzle)
        if found is None or found.puzzle is None or found.grid is not None:
            continue
        best = {}
        for _ in range(5):
            for limit in (1, 2):
                t = time.perf_counter()
                r = kind.quick_search(found.puzzle, limit)
                spent = time.perf_counter() - t
                if limit not in best or spent < best[limit][0]:
                    best[limit] = (spent, r)
        (p, rp), (u, ru) = best[1], best[2]
        plain_sum, unique_sum = plain_sum + p, unique_sum + u
        first = min(_first_solution(found.puzzle) for _ in range(3))
        print(f"{path.rsplit('/', 1)[-1]}: plain {p * 1000:.0f} ms ({rp.nodes} nodes, {len(rp.solutions)} solutions), "
              f"--unique {u * 1000:.0f} ms ({ru.nodes} nodes, {len(ru.solutions)} solutions), "
              f"first solution within {QUICK_PROOF_FIRST} nodes: "
              + (f"{first[0] * 1000:.0f} ms ({first[1]} nodes)" if first[1] else "none"))
    print(f"sum: plain {plain_sum * 1000:.0f} ms, --unique {unique_sum * 1000:.0f} ms")


def _first_solution(presolved) -> tuple[float, int]:
    """Seconds and nodes of the quick proof's search (no time budget) to its first solution
    within :data:`QUICK_PROOF_FIRST` nodes; (seconds, 0) when it finds none."""
    t = time.perf_counter()
    r = solve_strong(presolved, limit=1, first_nodes=QUICK_PROOF_FIRST, probing=False)
    return time.perf_counter() - t, r.nodes if r.solutions else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    if a.quick:
        quick(a.paths)
    else:
        breakdown(a.paths, a.rounds)


if __name__ == "__main__":
    main()
