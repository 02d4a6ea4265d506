"""What published Fillomino look like, from puzzle sets with their solutions: per grid size, the
number of puzzles, their clue counts and the cells of their solutions in regions of each size.

    python benchmarks/janko_style.py ../shared/instances/fillomino/janko-thesis100 \
        ../shared/instances/fillomino/janko-dev100 [--table] [--sizes 10,15,20]

Each folder holds ``puzzles/`` and ``solutions/`` (the same file names). ``--table`` prints the
Python table of :mod:`fillsmt.fillomino.published` (``PUBLISHED``) as it is written there; without
it, a Markdown table per square size of ``--sizes``: clues median (range) and the share of cells in
regions of 1, 2, 3, 4–6, 7–10 and 11+ cells, over the published puzzles that
:func:`fillsmt.fillomino.published.style_for` pools for that size.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

from fillsmt.fillomino.plain_format import parse_puzzle
from fillsmt.fillomino.published import BUCKETS, Published, bucket_shares, style_for
from fillsmt.grid import equal_areas

TAIL = 11
"""Region sizes from this one up are counted together (the last entry of ``cells``)."""


def read_sets(folders: list[str]) -> dict[tuple[int, int], Published]:
    """Per (height, width): the puzzles' clue counts and their solutions' cells by region size."""
    clues: dict[tuple[int, int], list[int]] = defaultdict(list)
    cells: dict[tuple[int, int], Counter] = defaultdict(Counter)
    for folder in folders:
        for path in sorted((Path(folder) / "puzzles").glob("*.txt")):
            puzzle = parse_puzzle(path.read_text(), str(path))
            solution = parse_puzzle((Path(folder) / "solutions" / path.name).read_text(), path.name)
            size = (puzzle.height, puzzle.width)
            clues[size].append(sum(1 for _ in puzzle.clues()))
            for area in equal_areas(solution.cells):
                cells[size][min(len(area), TAIL)] += len(area)
    return {
        size: Published(tuple(sorted(clues[size])), tuple(cells[size][s] for s in range(1, TAIL + 1)))
        for size in sorted(clues)
    }


def table_text(found: dict[tuple[int, int], Published]) -> str:
    """The table as written in fillsmt/fillomino/published.py (lines of at most 120 characters)."""
    lines = ["# fmt: off", "PUBLISHED: dict[tuple[int, int], Published] = {"]
    for (h, w), p in found.items():
        line = f"    ({h}, {w}): Published(clues={p.clues!r}, cells={p.cells!r}),"
        if len(line) <= 120:
            lines.append(line)
            continue
        lines.append(f"    ({h}, {w}): Published(")
        lines += textwrap.wrap(
            f"clues={p.clues!r},", 120, initial_indent=" " * 8, subsequent_indent=" " * 15, break_long_words=False
        )
        lines += [f"        cells={p.cells!r},", "    ),"]
    return "\n".join(lines + ["}", "# fmt: on"]) + "\n"


def summary(found: dict[tuple[int, int], Published], sizes: list[int]) -> str:
    lines = [
        "| size | published puzzles pooled | clues median (range) | " + " | ".join(BUCKETS) + " |",
        "|---|---|---:|" + "---:|" * len(BUCKETS),
    ]
    for n in sizes:
        style = style_for(n, n, found)
        target = style.clue_target
        said = "—" if target is None else f"{target[1]} ({target[0]}–{target[2]})"
        shares = bucket_shares(style.cells)
        lines.append(
            f"| {n}×{n} | {style.puzzles} ({', '.join(f'{h}×{w}' for h, w in style.sizes)}) | {said} | "
            + " | ".join(f"{100 * shares[b]:.0f} %" for b in BUCKETS)
            + " |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", help="puzzle sets, each with puzzles/ and solutions/")
    parser.add_argument("--table", action="store_true", help="print the table of fillsmt/fillomino/published.py")
    parser.add_argument("--sizes", default="10,15,20", help="square sizes of the summary (default 10,15,20)")
    opts = parser.parse_args(argv)
    found = read_sets(opts.folders)
    print(table_text(found) if opts.table else summary(found, [int(s) for s in opts.sizes.split(",")]), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
