"""Issue 17, fifth and sixth sessions: the rules' search under each design, side by side (CPU time).

    PATH=.venv/bin:$PATH python benchmarks/search_designs.py PUZZLE.txt ... \
        --design thesis --design strong --limit 1 --limit 2 --timeout 60 --csv out.csv

Runs :func:`~fillsmt.fillomino.backtrack.solve_by_search` (or ``solve_strong``) in this process,
one puzzle and design at a time, and writes one CSV row each: wall and CPU seconds (CPU is the
fairer measure on a shared machine), nodes, probes (refuted), depth, solutions, exhausted.
``--cpu`` makes the time-out CPU seconds of this process (the search's deadline reads the
process clock), so a loaded machine slows a run without cutting it short.
A row's solutions are checked by the search itself (every grid passes the independent checker).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from fillsmt.fillomino.backtrack import solve_by_search, solve_strong
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.plain_format import read_puzzle

DESIGNS = {
    "thesis": {},
    "smallest-domain": {"cell_order": "smallest-domain"},
    "row-major": {"cell_order": "row-major"},
    "capacity": {"search_rules": SEARCH_RULES},
    "capacity-row-major": {"search_rules": SEARCH_RULES, "cell_order": "row-major"},
    "cap-big-group": {"search_rules": SEARCH_RULES, "cell_order": "big-group"},
    "cap-big-value": {"search_rules": SEARCH_RULES, "cell_order": "big-value"},
    "cap-small-group": {"search_rules": SEARCH_RULES, "cell_order": "small-group"},
    "cap-smallest-domain": {"search_rules": SEARCH_RULES, "cell_order": "smallest-domain"},
    "probe-root": {"search_rules": SEARCH_RULES, "probe_depth": 0},
    "probe-every-node": {"search_rules": SEARCH_RULES, "probe_depth": 10**6},
    "strong": None,  # solve_strong: capacity; past FIRST_PHASE_BUDGET, again with root probing
    "strong-group-exit": None,  # solve_strong, its second phase in group-exit order
    "strong-fifth": None,  # solve_strong as the fifth session kept it (no hand-down,
                           # second phase group-exit, probe budget 100 000)
}


DROPPED = "-drop"
"""A design name ending so runs that design with the fifth session's fork, which drops the
noted searches (``State.hand_down`` False), e.g. ``capacity-drop``, ``strong-drop``."""


def run(path: str, design: str, limit: int, timeout: float, clock) -> dict:
    puzzle = read_puzzle(path)
    base = design.removesuffix(DROPPED)
    State.hand_down = base == design
    wall, cpu = time.monotonic(), time.process_time()
    deadline = clock() + timeout
    if DESIGNS[base] is None:
        import fillsmt.fillomino.backtrack as backtrack

        saved = backtrack.SECOND_PHASE_ORDERS, backtrack.PROBE_BUDGET
        if base == "strong-fifth":  # as the fifth session kept it
            State.hand_down, backtrack.SECOND_PHASE_ORDERS, backtrack.PROBE_BUDGET = False, ("group-exit",), 100_000
        elif base == "strong-group-exit":
            backtrack.SECOND_PHASE_ORDERS = ("group-exit",)
        found = solve_strong(puzzle, limit=limit, deadline=deadline)
        backtrack.SECOND_PHASE_ORDERS, backtrack.PROBE_BUDGET = saved
    else:
        found = solve_by_search(puzzle, limit=limit, deadline=deadline, **DESIGNS[base])
    State.hand_down = True
    return {"puzzle": path.rsplit("/", 1)[-1], "cells": puzzle.height * puzzle.width, "design": design,
            "limit": limit, "wall_s": round(time.monotonic() - wall, 3),
            "cpu_s": round(time.process_time() - cpu, 3), "nodes": found.nodes,
            "probes": found.probes, "refuted": found.refuted, "max_depth": found.max_depth,
            "solutions": len(found.solutions), "exhausted": found.exhausted,
            "timed_out": found.timed_out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--design", action="append",
                    choices=sorted([*DESIGNS, *(d + DROPPED for d in DESIGNS)]))
    ap.add_argument("--limit", action="append", type=int)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run (wall, or --cpu)")
    ap.add_argument("--cpu", action="store_true", help="the time-out counts CPU seconds")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--probe-budget", type=int, help="solve_strong's PROBE_BUDGET (cells x probes)")
    args = ap.parse_args()
    if args.probe_budget is not None:
        import fillsmt.fillomino.backtrack as backtrack

        backtrack.PROBE_BUDGET = args.probe_budget
    clock = time.monotonic
    if args.cpu:
        import types

        import fillsmt.fillomino.backtrack as backtrack

        clock = time.process_time
        backtrack.time = types.SimpleNamespace(monotonic=clock)  # the search's deadline clock
    with open(args.csv, "w", newline="") as out:
        writer = None
        for path in args.puzzles:
            for limit in args.limit or [1]:
                for design in args.design or ["thesis", "strong"]:
                    row = run(path, design, limit, args.timeout, clock)
                    if writer is None:
                        writer = csv.DictWriter(out, fieldnames=list(row))
                        writer.writeheader()
                    writer.writerow(row)
                    out.flush()
                    print(row, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
