"""Random BlockNumber solutions: a random partition into connected blocks, and a valid filling.

Used by the property tests and by puzzle generators (which then blank cells). Pure Python, no
solver: blocks are grown from random seeds (larger sizes more likely, as in published puzzles),
a partition that cannot be filled for an obvious reason (a 2×2 square needs four different
numbers, so its blocks must offer them) is drawn again, and the filling is a randomised
backtracking search (most constrained cell first, with forward checking) that starts over on a
fresh partition when it takes too long.
"""

from __future__ import annotations

import random

from fillsmt.blocknumber.model import Grid, normalise_labels
from fillsmt.blocknumber.names import king_neighbours

Cell = tuple[int, int]

MAX_ATTEMPTS = 500
"""Partitions tried before giving up (only reachable for shapes with no solution at all)."""


class _GiveUp(Exception):
    """The filling search used up its node budget."""


def _check_possible(height: int, width: int, max_block: int) -> None:
    if height < 1 or width < 1:
        raise ValueError(f"the grid must be at least 1x1, not {height}x{width}")
    if max_block < 1:
        raise ValueError(f"max_block must be at least 1, not {max_block}")
    if height >= 2 and width >= 2 and max_block < 4:
        raise ValueError(f"a {height}x{width} grid needs blocks of up to 4 cells (each 2x2 square holds "
                         f"four different numbers); max_block is {max_block}")
    if height * width >= 2 and max_block < 2:
        raise ValueError(f"a {height}x{width} grid needs blocks of up to 2 cells; max_block is {max_block}")


def _side_neighbours(height: int, width: int, r: int, c: int) -> list[Cell]:
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < height and 0 <= c + dc < width]


def random_partition(height: int, width: int, rng: random.Random, max_block: int = 5) -> list[list[int]]:
    """Labels of a random partition into connected blocks of 1..max_block cells."""
    labels = [[-1] * width for _ in range(height)]
    sizes: list[int] = []
    order = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(order)
    weights = [s * s for s in range(1, max_block + 1)]
    for seed in order:
        if labels[seed[0]][seed[1]] != -1:
            continue
        target = rng.choices(range(1, max_block + 1), weights)[0]
        label, block, frontier = len(sizes), [seed], [seed]
        labels[seed[0]][seed[1]] = label
        while len(block) < target and frontier:
            r, c = rng.choice(frontier)
            free = [n for n in _side_neighbours(height, width, r, c) if labels[n[0]][n[1]] == -1]
            if not free:
                frontier.remove((r, c))
                continue
            cell = rng.choice(free)
            labels[cell[0]][cell[1]] = label
            block.append(cell)
            frontier.append(cell)
        sizes.append(len(block))
    _merge_singletons(labels, sizes, height, width, rng, max_block)
    return labels


def _merge_singletons(labels, sizes, height, width, rng, max_block) -> None:
    """Join most blocks of one cell (stranded by the growth) to a neighbouring block with room."""
    for r in range(height):
        for c in range(width):
            label = labels[r][c]
            if sizes[label] != 1 or rng.random() < 0.2:
                continue
            hosts = [labels[n[0]][n[1]] for n in _side_neighbours(height, width, r, c)]
            hosts = [h for h in hosts if sizes[h] < max_block]
            if hosts:
                host = rng.choice(hosts)
                labels[r][c] = host
                sizes[host] += 1
                sizes[label] = 0


def _squares_can_differ(labels, sizes, height: int, width: int) -> bool:
    """Each 2x2 square's cells can hold four different numbers (Hall's condition for the
    nested domains 1..size: the k-th smallest block size is at least k)."""
    for r in range(height - 1):
        for c in range(width - 1):
            square = sorted(sizes[labels[rr][cc]] for rr in (r, r + 1) for cc in (c, c + 1))
            if any(s < k for k, s in enumerate(square, start=1)):
                return False
    return True


def random_filling(labels, height: int, width: int, rng: random.Random, node_limit: int) -> list[list[int]] | None:
    """A random valid filling of the partition, or None when none was found within ``node_limit``
    search nodes."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    index = {cell: i for i, cell in enumerate(cells)}
    members: dict[int, list[int]] = {}
    for i, (r, c) in enumerate(cells):
        members.setdefault(labels[r][c], []).append(i)
    neighbours = []
    for i, (r, c) in enumerate(cells):
        near = {index[n] for n in king_neighbours(height, width, r, c)} | set(members[labels[r][c]])
        near.discard(i)
        neighbours.append(sorted(near))
    domain = [(1 << (len(members[labels[r][c]]) + 1)) - 2 for r, c in cells]  # bits 1..size
    value = [0] * len(cells)
    tiebreak = [rng.random() for _ in cells]
    budget = [node_limit]

    def search(open_cells: set[int]) -> bool:
        if not open_cells:
            return True
        x = min(open_cells, key=lambda i: (domain[i].bit_count(), tiebreak[i]))
        choices = [v for v in range(1, domain[x].bit_length()) if domain[x] >> v & 1]
        rng.shuffle(choices)
        open_cells.discard(x)
        for v in choices:
            budget[0] -= 1
            if budget[0] < 0:
                raise _GiveUp
            bit, pruned, alive = 1 << v, [], True
            for y in neighbours[x]:
                if not value[y] and domain[y] & bit:
                    domain[y] &= ~bit
                    pruned.append(y)
                    if not domain[y]:
                        alive = False
                        break
            if alive:
                value[x] = v
                if search(open_cells):
                    return True
                value[x] = 0
            for y in pruned:
                domain[y] |= bit
        open_cells.add(x)
        return False

    try:
        found = search(set(range(len(cells))))
    except _GiveUp:
        return None
    return [value[r * width : (r + 1) * width] for r in range(height)] if found else None


def random_solution(height: int, width: int, rng: random.Random, max_block: int = 5) -> tuple[Grid, Grid]:
    """(blocks, grid): a random partition into connected blocks of at most ``max_block`` cells
    (labels normalised as in :class:`~fillsmt.blocknumber.model.Puzzle`) and a valid filling.

    Raises ValueError for shapes that have no solution with blocks that small.
    """
    _check_possible(height, width, max_block)
    node_limit = 50 * height * width
    for _ in range(MAX_ATTEMPTS):
        labels = random_partition(height, width, rng, max_block)
        sizes: dict[int, int] = {}
        for row in labels:
            for label in row:
                sizes[label] = sizes.get(label, 0) + 1
        if not _squares_can_differ(labels, sizes, height, width):
            continue
        grid = random_filling(labels, height, width, rng, node_limit)
        if grid is not None:
            return normalise_labels(labels), tuple(tuple(row) for row in grid)
    raise ValueError(f"found no {height}x{width} solution with blocks of at most {max_block} cells "
                     f"in {MAX_ATTEMPTS} attempts")
