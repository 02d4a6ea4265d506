"""The numbers of fillsmt/fillomino/published.py are what janko.at's puzzle sets say: derived again
here, with code of this file's own (its own reading of the files, its own flood fill), from
../shared/instances/fillomino/janko-thesis100 and janko-dev100; and the pooling of style_for."""

from __future__ import annotations

from collections import Counter, defaultdict

from conftest import shared_or_skip
from fillsmt.fillomino.published import PUBLISHED, Published, style_for


def _numbers(text: str) -> tuple[int, int, list[int]]:
    words = text.split()
    height, width = int(words[0]), int(words[1])
    return height, width, [int(w) for w in words[2 : 2 + height * width]]


def _region_sizes(height: int, width: int, values: list[int]) -> list[int]:
    """The size of each region of equal numbers (cells joined side by side)."""
    seen = [False] * len(values)
    sizes = []
    for start in range(len(values)):
        if seen[start]:
            continue
        seen[start], stack, size = True, [start], 0
        while stack:
            x = stack.pop()
            size += 1
            r, c = divmod(x, width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                y = rr * width + cc
                if 0 <= rr < height and 0 <= cc < width and not seen[y] and values[y] == values[x]:
                    seen[y] = True
                    stack.append(y)
        sizes.append(size)
    return sizes


def test_the_published_table_is_derived_from_the_sets():
    clues: dict[tuple[int, int], list[int]] = defaultdict(list)
    cells: dict[tuple[int, int], Counter] = defaultdict(Counter)
    for name in ("janko-thesis100", "janko-dev100"):
        folder = shared_or_skip(name)
        for path in sorted((folder / "puzzles").glob("*.txt")):
            h, w, given = _numbers(path.read_text())
            clues[(h, w)].append(sum(1 for v in given if v))
            sh, sw, solution = _numbers((folder / "solutions" / path.name).read_text())
            assert (sh, sw) == (h, w)
            for size in _region_sizes(h, w, solution):
                cells[(h, w)][min(size, 11)] += size
    derived = {
        size: Published(tuple(sorted(clues[size])), tuple(cells[size][s] for s in range(1, 12))) for size in clues
    }
    assert derived == PUBLISHED
    assert sum(len(p.clues) for p in PUBLISHED.values()) == 200


def test_style_for_pools_the_sizes_near_the_grid():
    ten = style_for(10, 10)
    assert ten.sizes == ((9, 9), (10, 10)) and ten.puzzles == len(PUBLISHED[(9, 9)].clues) + len(PUBLISHED[(10, 10)].clues)
    densities = sorted(c / (h * w) for h, w in ten.sizes for c in PUBLISHED[(h, w)].clues)
    assert ten.clue_target == (round(densities[0] * 100), 34, round(densities[-1] * 100)) == (22, 34, 50)
    assert ten.cells == tuple(a + b for a, b in zip(PUBLISHED[(9, 9)].cells, PUBLISHED[(10, 10)].cells))
    lone = style_for(6, 6)  # one published 6x6 near: too few for a target; every solution's regions
    assert lone.clue_target is None and lone.sizes == () and lone.puzzles == 200
