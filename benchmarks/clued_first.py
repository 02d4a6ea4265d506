"""Experiment (not kept in fillsmt): solve under "every region of more than one cell holds a
fixed cell" first, and fall back to the whole problem when that is unsat.

Why: janko 286 is the one puzzle over the issue-3 (1 s) and issue-4 (2x) limits, and its
solution has a single unclued region, a 1. Under the assumption the solver never tries an
unclued region of 2 or more cells. The assumption is a fresh Boolean ``g`` with
``g => (a_x or n_x = 1)`` for every cell x that has an anchored flag ``a_x`` (tree encodings,
``fillsmt/fillomino/encode_tree.py``), so a model found under ``g`` is a solution of the full
problem, and when ``check-sat-assuming (g)`` is unsat the same session checks again without it:
complete either way.

Part 1, every puzzle of the set (yices session, tree-bfs, rules' domains): the first check of a
plain session against the staged one (under g, then without), interleaved, --reps times; every
model is decoded and passes the independent checker. Part 2, the uniqueness proof of
--split puzzles cut into the same two cases: after the first solution, the blocking clause (a
grid differing in some cell) with ``C`` (all regions of more than one cell anchored), with
``not C``, and alone, each in a fresh session.

    python benchmarks/clued_first.py --reps 3 --split 286,171,295 \\
        --md benchmarks/results/clued-first.md ../shared/instances/fillomino/janko-thesis100
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fillsmt.drivers import get_driver
from fillsmt.fillomino.decode import decode_grid
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.encodings import ENCODINGS
from fillsmt.fillomino.names import GridNames
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.answer import Status

def _setup(path: Path):
    puzzle = read_puzzle(path)
    deduction = deduce(puzzle)
    if deduction.solved:
        return puzzle, None, []
    script = ENCODINGS["tree-bfs"](puzzle, deduction.domains)
    declared = {c.args[0] for c in script.commands if c.name == "declare-fun"}
    v = GridNames(puzzle.height, puzzle.width)
    anchored = [x for x in range(puzzle.height * puzzle.width) if v.anchored(x) in declared]
    return puzzle, script, anchored


def _all_clued(puzzle, anchored: list[int]) -> str:
    v = GridNames(puzzle.height, puzzle.width)
    return "(and " + " ".join(f"(or {v.anchored(x)} (= {v.number(x)} 1))" for x in anchored) + ")"


def _checked_grid(session, puzzle):
    cells = GridNames(puzzle.height, puzzle.width).numbers
    grid = decode_grid(puzzle, session.get_values(cells))
    problems = check_solution(puzzle.cells, grid)
    if problems:
        raise SystemExit(f"{puzzle.source}: the model fails the checker: {problems[0]}")
    return grid


def _first_check(puzzle, script, anchored, staged: bool) -> tuple[float, str]:
    with get_driver("yices").open_session() as session:
        session.load(script)
        start = time.perf_counter()
        stage = "-"
        if staged and anchored:
            session.send(f"(declare-fun g () Bool)\n(assert (=> g {_all_clued(puzzle, anchored)}))\n")
            status = session.check(assumptions=["g"])
            stage = status.value
            if status is Status.UNSAT:
                status = session.check()
        else:
            status = session.check()
        seconds = time.perf_counter() - start
        if status is not Status.SAT:
            raise SystemExit(f"{puzzle.source}: {status.value}")
        _checked_grid(session, puzzle)
    return seconds, stage


def _proof_case(puzzle, script, anchored, case: str) -> float:
    with get_driver("yices").open_session() as session:
        session.load(script)
        if session.check() is not Status.SAT:
            raise SystemExit(f"{puzzle.source}: no first solution")
        grid = _checked_grid(session, puzzle)
        w = puzzle.width
        free = [x for x in range(puzzle.height * w) if not puzzle.cells[x // w][x % w]]
        n = GridNames(puzzle.height, w).numbers
        session.assert_term("(or " + " ".join(f"(not (= {n[x]} {grid[x // w][x % w]}))"
                                              for x in free) + ")")
        if case == "C":
            session.assert_term(_all_clued(puzzle, anchored))
        elif case == "not C":
            session.assert_term(f"(not {_all_clued(puzzle, anchored)})")
        start = time.perf_counter()
        status = session.check()
        seconds = time.perf_counter() - start
        if status is not Status.UNSAT:
            raise SystemExit(f"{puzzle.source}: case {case}: {status.value}, expected unsat")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a puzzle set (its puzzles/ folder is read)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--split", default="286", help="puzzles (name stems) whose proof is cut into the two cases")
    ap.add_argument("--md", type=Path, help="write the tables here (Markdown)")
    args = ap.parse_args()
    paths = sorted((args.folder / "puzzles").glob("*.txt"))
    rows = []
    for path in paths:
        puzzle, script, anchored = _setup(path)
        if script is None:
            continue
        plain, staged, stages = [], [], set()
        for _ in range(args.reps):
            plain.append(_first_check(puzzle, script, anchored, staged=False)[0])
            seconds, stage = _first_check(puzzle, script, anchored, staged=True)
            staged.append(seconds)
            stages.add(stage)
        rows.append((path.stem, statistics.median(plain), statistics.median(staged), "/".join(sorted(stages))))
        print(f"{path.stem} plain {rows[-1][1]:.3f} staged {rows[-1][2]:.3f} under g: {rows[-1][3]}", flush=True)
    lines = ["| first check, median of %d (s) | plain session | staged (under g, then without) |" % args.reps,
             "|---|---:|---:|"]
    for label, f in (("median", statistics.median), ("mean", statistics.mean), ("max", max), ("sum", sum)):
        lines.append(f"| {label} over {len(rows)} puzzles | {f(r[1] for r in rows):.3f} | {f(r[2] for r in rows):.3f} |")
    counts = {s: sum(1 for r in rows if r[3] == s) for s in sorted({r[3] for r in rows})}
    lines += ["", "Answer under g: " + ", ".join(f"{s}: {n}" for s, n in counts.items()), "",
              "| puzzle | plain | staged | under g |", "|---|---:|---:|---|"]
    lines += [f"| {r[0]} | {r[1]:.3f} | {r[2]:.3f} | {r[3]} |" for r in rows
              if r[2] > 1.5 * r[1] or r[2] < r[1] / 1.5 or r[1] > 0.3]
    lines += ["", "| puzzle | proof, case C (s) | proof, case not C (s) | proof, whole (s) |", "|---|---:|---:|---:|"]
    for stem in args.split.split(","):
        puzzle, script, anchored = _setup(args.folder / "puzzles" / f"{stem}.txt")
        times = {case: statistics.median(_proof_case(puzzle, script, anchored, case) for _ in range(args.reps))
                 for case in ("C", "not C", "whole")}
        lines.append(f"| {stem} | {times['C']:.3f} | {times['not C']:.3f} | {times['whole']:.3f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        args.md.write_text(text)


if __name__ == "__main__":
    main()
