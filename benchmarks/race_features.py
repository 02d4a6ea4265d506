"""Issue 17, eighth session (mid): which features of a presolved Fillomino grid say who wins the race.

    .venv/bin/python benchmarks/race_features.py PUZZLE.txt ... --csv out.csv [--cpu-limit 20] [--no-solve]

For each puzzle, after the presolve: the cheap features (:mod:`fillsmt.fillomino.features`:
open cells, largest open area, largest clue, open cells no clue's group can reach…), whether the
race gives the CPU to the search (``search_first``), and, unless ``--no-solve``, the CPU seconds of
the main racers alone, one after the other in this process: the rules' search
(``Kind.search``, limit 1, its deadline read on the process clock) and yices on the default
encoding, one-shot (``yices-smt2`` as a child process under an ``RLIMIT_CPU`` limit; its CPU from
``RUSAGE_CHILDREN``), and with ``--lazy`` yices on the lazy region cuts (a session, its
time-out the limit in wall seconds). CPU seconds are the fairer measure on a shared machine. Every grid either
side finds passes the independent checker, or the row says so.
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import time
import types

import fillsmt.fillomino.backtrack as backtrack
from fillsmt.drivers import get_driver
from fillsmt.fillomino import features
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import checked
from fillsmt.registry import kind_of
from fillsmt.smtlib.answer import parse_answer


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def yices_cpu(kind, puzzle, target, hints, limit: float) -> tuple[float, str]:
    """yices-smt2 on the default encoding of the presolved ``target``: (CPU s, sat / unsat / time-out / error)."""
    driver = get_driver("yices")
    encoding = kind.encoding(driver.encoding_for(kind.name, None)).name
    script = kind.encode(target, encoding, hints)
    problem = kind.problem(puzzle, script, encoding, driver.name)
    before = _children_cpu()
    ran = subprocess.run(["yices-smt2"], input=script.text(), capture_output=True, text=True,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 1)))
    cpu = _children_cpu() - before
    first = ran.stdout.split("\n", 1)[0].strip()
    if first != "sat":
        return cpu, first or "time-out"
    solution, why = checked(problem, parse_answer(ran.stdout).values, "yices")
    return cpu, "sat" if solution is not None else f"refused: {why}"


def search_cpu(kind, target, limit: float) -> tuple[float, str, int]:
    """The rules' search alone on ``target`` (limit 1): (CPU s, solved / time-out, nodes)."""
    start = time.process_time()
    found = kind.search(target, 1, start + limit)
    return time.process_time() - start, "solved" if found.solutions else (
        "time-out" if found.timed_out else "exhausted"), found.nodes


def lazy_cpu(puzzle, limit: float) -> tuple[float, str]:
    """yices on the lazy region cuts (a session, no race), presolve included: (CPU s of this
    process and its children, status)."""
    from fillsmt.pipeline import solve as solve_one

    own, children = time.process_time(), _children_cpu()
    result = solve_one(puzzle, get_driver("yices"), "lazy-local-general", limit, presolve=True, race=False)
    return time.process_time() - own + _children_cpu() - children, result.status.value


def row(path: str, limit: float, solve: bool, lazy: bool = False) -> dict:
    puzzle = read_puzzle(path)
    kind = kind_of(puzzle)
    start = time.process_time()
    found = kind.presolve(puzzle)
    presolve = time.process_time() - start
    target = puzzle if found is None or found.puzzle is None else found.puzzle
    settled = found is not None and (found.grid is not None or found.contradiction is not None)
    clues = [v for r in puzzle.cells for v in r if v]
    out = {"puzzle": _name(path), "size": f"{puzzle.height}x{puzzle.width}",
           "cells": puzzle.height * puzzle.width, "presolve_cpu": round(presolve, 3), "settled": settled,
           "open": features.open_cells(target), "largest_area": features.largest_open_area(target),
           "largest_clue": max(clues, default=0),
           "search_first": features.search_first(target)}
    if solve and not settled:
        if features.races_search(target):
            out["search_cpu"], out["search"], out["nodes"] = search_cpu(kind, target, limit)
        out["yices_cpu"], out["yices"] = yices_cpu(kind, puzzle, target, found.hints if found else None, limit)
        if lazy:
            out["lazy_cpu"], out["lazy"] = lazy_cpu(puzzle, limit)
    for key in ("search_cpu", "yices_cpu", "lazy_cpu"):
        if key in out:
            out[key] = round(out[key], 3)
    return out


def _name(path: str) -> str:
    parts = path.rstrip("/").split("/")
    name = parts[-1].removesuffix(".txt")
    folder = parts[-3] if len(parts) >= 3 and parts[-2] == "puzzles" else parts[-2] if len(parts) >= 2 else ""
    return f"{folder}/{name}"


FIELDS = ["puzzle", "size", "cells", "presolve_cpu", "settled", "open", "largest_area", "largest_clue",
          "search_first", "search_cpu", "search", "nodes", "yices_cpu", "yices", "lazy_cpu", "lazy"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--cpu-limit", type=float, default=20.0, help="CPU seconds for each racer alone")
    ap.add_argument("--no-solve", action="store_true", help="features only")
    ap.add_argument("--lazy", action="store_true", help="also yices on the lazy region cuts alone (a session)")
    args = ap.parse_args()
    backtrack.time = types.SimpleNamespace(monotonic=time.process_time)  # the search's deadline clock
    with open(args.csv, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        writer.writeheader()
        for path in args.puzzles:
            values = row(path, args.cpu_limit, not args.no_solve, args.lazy)
            writer.writerow(values)
            out.flush()
            print(values, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
