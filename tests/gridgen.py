"""Random valid Fillomino solutions, for property tests, and published puzzles with clues removed (test-only).

Grow random connected regions until the grid is covered, then merge any two touching regions
of equal size (the merge is connected and strictly reduces the region count, so it ends).
"""

from __future__ import annotations

import random


def _regions(labels, height, width):
    cells: dict[int, list[tuple[int, int]]] = {}
    for r in range(height):
        for c in range(width):
            cells.setdefault(labels[r][c], []).append((r, c))
    return cells


def _touching_equal_pair(labels, height, width):
    sizes = {k: len(v) for k, v in _regions(labels, height, width).items()}
    for r in range(height):
        for c in range(width):
            for nr, nc in ((r + 1, c), (r, c + 1)):
                if nr < height and nc < width:
                    a, b = labels[r][c], labels[nr][nc]
                    if a != b and sizes[a] == sizes[b]:
                        return a, b
    return None


def random_solution(rng: random.Random, height: int, width: int, max_size: int = 6) -> tuple[tuple[int, ...], ...]:
    labels = [[-1] * width for _ in range(height)]
    next_label = 0
    order = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(order)
    for r0, c0 in order:
        if labels[r0][c0] != -1:
            continue
        target = rng.randint(1, max_size)
        region, frontier = [(r0, c0)], [(r0, c0)]
        labels[r0][c0] = next_label
        while len(region) < target and frontier:
            r, c = rng.choice(frontier)
            options = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if 0 <= r + dr < height and 0 <= c + dc < width and labels[r + dr][c + dc] == -1]
            if not options:
                frontier.remove((r, c))
                continue
            cell = rng.choice(options)
            labels[cell[0]][cell[1]] = next_label
            region.append(cell)
            frontier.append(cell)
        next_label += 1
    while (pair := _touching_equal_pair(labels, height, width)) is not None:
        a, b = pair
        labels = [[a if v == b else v for v in row] for row in labels]
    sizes = {k: len(v) for k, v in _regions(labels, height, width).items()}
    return tuple(tuple(sizes[labels[r][c]] for c in range(width)) for r in range(height))


def without_clues(puzzle, count: int, seed: str):
    """``puzzle`` with ``count`` of its clues removed, chosen by ``random.Random(seed)``: a
    puzzle with several solutions, made at run time from a published one (tests/test_command_limits.py,
    benchmarks/repair_janko.py)."""
    from fillsmt.setter.clues import clues_of, with_clues

    clues = clues_of(puzzle)
    dropped = set(random.Random(seed).sample(range(len(clues)), count))
    return with_clues(puzzle, [clue for i, clue in enumerate(clues) if i not in dropped])
