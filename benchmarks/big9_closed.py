"""tree-bfs with and without the closed regions (issue 17, ninth session: big), by CPU time.

    python benchmarks/big9_closed.py PUZZLE_OR_FOLDER... [--rounds N] [--csv FILE]

For each puzzle (after the presolve): the encoding's text made with ``tree-bfs`` (closed regions
left out) and ``tree-bfs-full`` (every cell's tree), the best of three encoding times, and
``yices-smt2`` run on each text N times (alternating), its user + system CPU read from
``getrusage`` of the children: deterministic work measured by CPU, not by wall time (the
machine is shared). Puzzles the presolve settles are skipped.
"""

from __future__ import annotations

import argparse
import csv
import glob
import os
import resource
import subprocess
import sys
import tempfile
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.encode_tree import closed_cells
from fillsmt.fillomino.kind import KIND

ENCODINGS = ("tree-bfs", "tree-bfs-full")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(path: str, rounds: int, yices: str) -> dict | None:
    puzzle = KIND.parse(open(path).read(), path)
    found = KIND.presolve(puzzle)
    if found is None or found.grid is not None or found.contradiction is not None:
        return None
    row: dict = {"puzzle": os.path.relpath(path), "cells": puzzle.height * puzzle.width,
                 "fixed": found.fixed_cells,
                 "closed": len(closed_cells(puzzle.height, puzzle.width, found.hints))}
    files = {}
    for name in ENCODINGS:
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            text = KIND.encode(found.puzzle, name, found.hints).text()
            best = min(best, time.perf_counter() - t)
        row[f"{name}_encode"] = round(best, 4)
        row[f"{name}_chars"] = len(text)
        f = tempfile.NamedTemporaryFile("w", suffix=".smt2", delete=False)
        f.write(text)
        f.close()
        files[name] = f.name
    cpu = {name: [] for name in ENCODINGS}
    for _ in range(rounds):
        for name in ENCODINGS:
            before = _children_cpu()
            out = subprocess.run([yices, files[name]], capture_output=True, text=True).stdout
            cpu[name].append(_children_cpu() - before)
            if not out.startswith("sat"):
                sys.exit(f"{path} {name}: {out[:80]}")
    for name in ENCODINGS:
        row[f"{name}_yices"] = round(sorted(cpu[name])[len(cpu[name]) // 2], 3)
        os.unlink(files[name])
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--csv")
    args = parser.parse_args()
    yices = get_driver("yices").executable()
    paths = []
    for p in args.paths:
        paths += sorted(glob.glob(os.path.join(p, "**", "*.txt"), recursive=True)) if os.path.isdir(p) else [p]
    rows = [r for r in (measure(p, args.rounds, yices) for p in paths) if r is not None]
    for r in rows:
        print(" ".join(f"{k}={v}" for k, v in r.items()), flush=True)
    if args.csv and rows:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    for name in ENCODINGS:
        print(name, "sum encode", round(sum(r[f"{name}_encode"] for r in rows), 3),
              "sum yices CPU (median of rounds)", round(sum(r[f"{name}_yices"] for r in rows), 3))


if __name__ == "__main__":
    main()
