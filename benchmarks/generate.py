"""How long ``fillsmt generate`` takes, over grid sizes and seeds: a median table.

Each (size, seed) runs ``fillsmt generate --size NxN --seed SEED`` as a whole process, one at a
time; its wall time and CPU time (user + system, of the process and the solvers it started) are recorded, with the clue
count and the proof of uniqueness from its summary line on standard error. A run that exits
other than 0, or whose summary names no proof, stops the script. Options after ``--`` go to
``fillsmt generate`` (e.g. ``-- --minimal``). Only fillsmt's command line is used.

    python benchmarks/generate.py --sizes 20,30,50 --seeds 1-5 [--busy 1] [--rate] [--summary OUT.md] [-- OPTIONS]
    python benchmarks/generate.py --sizes 10,15,20 --seeds 1-5 --published DIR,DIR [-- OPTIONS]

``--busy N`` runs N busy-loop processes beside the runs (default 0), as users run fillsmt beside
other work; ``--rate`` has ``fillsmt rate`` rate each puzzle made (not timed), and the table
gives those ratings (else the generator's own). ``--published`` (puzzle sets with ``puzzles/``
and ``solutions/``, read by ``janko_style.py``) gives instead a table of how the puzzles compare
with those published near their size (as :func:`fillsmt.fillomino.published.style_for` pools
them): clues, median (range), and the share of cells in regions of 1, 2, 3, 4–6, 7–10 and 11+
cells, of the puzzles' solutions (``fillsmt solve``, not timed) against the published ones.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

from busy import busy_loops
from janko_style import read_sets

from fillsmt.fillomino.published import BUCKETS, bucket_shares, style_for

SUMMARY = re.compile(
    r": (\d+) clues, (\w+), ((?:symmetric )?(?:rules-|symmetric-|near-)?minimal) "
    r"\(unique by (the deduction rules|the oracle)"
)


def seeds_of(text: str) -> list[int]:
    """``1-5`` or ``1,4,9`` (or both: ``1-3,7``)."""
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def rated(fillsmt: str, puzzle: str) -> str:
    """``fillsmt rate``'s label for the puzzle text (untimed)."""
    done = subprocess.run([fillsmt, "rate", "--format", "json", "-"], input=puzzle, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"fillsmt rate: exit {done.returncode}\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[0])["label"]


def solution_cells(fillsmt: str, puzzle: str) -> list[int]:
    """The cells of the puzzle's solution (``fillsmt solve``, untimed) by region size, as
    :attr:`fillsmt.fillomino.published.Published.cells` but with every size kept."""
    done = subprocess.run([fillsmt, "solve", "-"], input=puzzle, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"fillsmt solve: exit {done.returncode}\n{done.stderr}")
    rows = [[int(v) for v in line.split()] for line in done.stdout.strip().splitlines()[1:]]
    cells = [0] * max(v for row in rows for v in row)
    for row in rows:
        for v in row:
            cells[v - 1] += 1  # a region of v cells has v cells holding v
    return cells


def run_one(fillsmt: str, size: int, seed: int, extra: list[str], rate: bool = False, regions: bool = False) -> dict:
    args = [fillsmt, "generate", "--size", f"{size}x{size}", "--seed", str(seed), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # one child at a time: the delta is its
    found = SUMMARY.search(done.stderr)
    if done.returncode != 0 or found is None or not done.stdout.strip():
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return {
        "size": size,
        "seed": seed,
        "wall": wall,
        "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "clues": int(found.group(1)),
        "rating": found.group(2),
        "proof": found.group(4),
        "rated": rated(fillsmt, done.stdout) if rate else "",
        "cells": solution_cells(fillsmt, done.stdout) if regions else [],
    }


def ratings(rows: list[dict]) -> str:
    """How the puzzles were rated: by ``fillsmt rate`` where asked (``--rate``), else by the
    generator's summary; e.g. ``hard ×4, fiendish ×1``."""
    labels = [r["rated"] or r["rating"] for r in rows]
    return ", ".join(f"{label} ×{labels.count(label)}" for label in dict.fromkeys(labels))


def table(rows: list[dict], sizes: list[int]) -> str:
    lines = [
        "| size | seeds | median clues | median wall (s) | median CPU (s) | slowest wall (s) | unique by | rated |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for size in sizes:
        mine = [r for r in rows if r["size"] == size]
        proofs = sorted({r["proof"] for r in mine})
        lines.append(
            f"| {size}×{size} | {len(mine)} | {statistics.median(r['clues'] for r in mine):g} "
            f"| {statistics.median(r['wall'] for r in mine):.2f} | {statistics.median(r['cpu'] for r in mine):.2f} "
            f"| {max(r['wall'] for r in mine):.2f} | {', '.join(proofs)} | {ratings(mine)} |"
        )
    return "\n".join(lines) + "\n"


def compared(rows: list[dict], sizes: list[int], folders: list[str]) -> str:
    """The puzzles made against the published ones near their size (module text)."""
    published = read_sets(folders)
    lines = [
        "| size | seeds | clues | published clues | median wall (s) | slowest wall (s) | "
        + " | ".join(f"cells in {b}" for b in BUCKETS)
        + " |",
        "|---|---:|---:|---:|---:|---:|" + "---:|" * len(BUCKETS),
    ]
    for size in sizes:
        mine = [r for r in rows if r["size"] == size]
        clues = [r["clues"] for r in mine]
        style = style_for(size, size, published)
        target = "—" if style.clue_target is None else "{1:g} ({0}–{2})".format(*style.clue_target)
        made = [0] * max(len(r["cells"]) for r in mine)
        for r in mine:
            for i, n in enumerate(r["cells"]):
                made[i] += n
        ours, theirs = bucket_shares(tuple(made)), bucket_shares(style.cells)
        lines.append(
            f"| {size}×{size} | {len(mine)} | {statistics.median(clues):g} ({min(clues)}–{max(clues)}) | {target} "
            f"| {statistics.median(r['wall'] for r in mine):.2f} | {max(r['wall'] for r in mine):.2f} | "
            + " | ".join(f"{100 * ours[b]:.0f} / {100 * theirs[b]:.0f} %" for b in BUCKETS)
            + " |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    own, extra = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,30,50", help="square sizes, comma-separated (default 20,30,50)")
    parser.add_argument("--seeds", default="1-5", help="seeds: 1-5, 1,4,9 or both (default 1-5)")
    parser.add_argument("--fillsmt", default="fillsmt", help="the program (default: fillsmt on the PATH)")
    parser.add_argument("--summary", help="also write the table to this file")
    parser.add_argument("--busy", type=int, default=0, help="busy-loop processes beside the runs (default 0)")
    parser.add_argument("--rate", action="store_true", help="rate each puzzle with fillsmt rate (untimed)")
    parser.add_argument("--published", help="puzzle sets to compare with, comma-separated folders")
    opts = parser.parse_args(own)
    sizes = [int(s) for s in opts.sizes.split(",")]
    rows = []
    print(f"load average before: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    with busy_loops(opts.busy):
        for size in sizes:
            for seed in seeds_of(opts.seeds):
                row = run_one(opts.fillsmt, size, seed, extra, opts.rate, opts.published is not None)
                rows.append(row)
                said = f"{row['clues']} clues, {row['wall']:.2f} s wall, {row['cpu']:.2f} s CPU"
                print(f"{size}x{size} seed {seed}: {said}", file=sys.stderr, flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    text = table(rows, sizes) if opts.published is None else compared(rows, sizes, opts.published.split(","))
    print(text, end="")
    if opts.summary:
        with open(opts.summary, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
