"""The board's neighbour table, the k-groups of fixed cells, and the contradiction error.

A *k-group* is a maximal orthogonally connected set of cells fixed to k; in every solution it
lies inside one region of k's. A k-group of k cells is *complete*; a smaller one *incomplete*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from fillsmt.fillomino.deduce.masks import Mask, bit


@dataclass(frozen=True)
class Board:
    """The grid's shape and neighbour table. Sets of cells as ints (bit x for cell x; issue 17,
    eighth session) grow by their neighbours in a few shifts (:meth:`spread`)."""

    height: int
    width: int
    neighbours: tuple[tuple[int, ...], ...]
    full: int = 0
    """Every cell (bit x set for each cell x)."""
    left: int = 0
    """The cells that have a left neighbour (all but the first column)."""
    right: int = 0
    """The cells that have a right neighbour (all but the last column)."""

    @classmethod
    def of(cls, height: int, width: int) -> Board:
        def around(x: int) -> tuple[int, ...]:
            r, c = divmod(x, width)
            cand = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            return tuple(rr * width + cc for rr, cc in cand if 0 <= rr < height and 0 <= cc < width)
        n = height * width
        first = sum(1 << (r * width) for r in range(height))  # the first column
        full = (1 << n) - 1
        return cls(height, width, tuple(around(x) for x in range(n)), full,
                   full & ~first, full & ~(first << (width - 1)))

    def spread(self, cells: int) -> int:
        """The cells and their neighbours, as a set of cells (bit x for cell x): up and down are
        shifts by the width, left and right by one within a row."""
        w = self.width
        return (cells | cells << w | cells >> w | (cells & self.right) << 1
                | (cells & self.left) >> 1) & self.full

    def where(self, x: int) -> str:
        r, c = divmod(x, self.width)
        return f"row {r + 1}, column {c + 1}"


class Contradiction(Exception):
    """The puzzle has no solution; the message says why. ``cells``: a set of cells (bit x for
    cell x) whose state alone the contradiction rests on, when the check that found it names
    them (:mod:`.reasons` explains it by them), else None; ``value``: the k when only whether
    they allow k and whether they are fixed to k matters (a per-value check), else None;
    ``slack``: for ``capacity``'s count, the cells it may lose and still exceed the grid's, else
    None. ``deps``: the explanation (a set of decisions) when a state that explains its removals
    has already found it (an emptied cell), else None."""

    def __init__(self, message: str, cells: int | None = None, value: int | None = None,
                 slack: int | None = None):
        super().__init__(message)
        self.cells = cells
        self.value = value
        self.slack = slack
        self.deps: int | None = None


@dataclass(frozen=True)
class Group:
    """A k-group and its border (the outside neighbours of its cells)."""

    value: int
    cells: tuple[int, ...]
    border: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def complete(self) -> bool:
        return len(self.cells) == self.value

    def exits(self, dom: list[Mask]) -> list[int]:
        """The border cells that still allow the group's value."""
        bk = bit(self.value)
        return [y for y in self.border if dom[y] & bk]


@dataclass(frozen=True)
class Groups:
    """All k-groups, and which group each cell fixed to k belongs to."""

    groups: tuple[Group, ...]
    group_of: dict[int, int]
    masks: tuple[int, ...] = ()
    """Each group's cells as a set (bit x for cell x)."""
    cells: int = 0
    """Every group's cells as a set."""
    borders: tuple[int, ...] = ()
    """Each group's border as a set."""
    incomplete: tuple[int, ...] = ()
    """The indices of the incomplete groups."""
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    """What is computed from the groups alone, kept with them (see ``capacity``)."""


def find_groups(board: Board, dom: list[Mask], k: int, fixed: Iterable[int]) -> Groups:
    """The k-groups (``fixed``: the cells fixed to k); a group of more than k cells is a
    contradiction."""
    bk = bit(k)
    group_of: dict[int, int] = {}
    groups, masks, borders = [], [], []
    for start in sorted(fixed):
        if start in group_of:
            continue
        index = len(groups)
        group_of[start] = index
        cells, border, stack = [start], set(), [start]
        mask = 1 << start
        while stack:
            x = stack.pop()
            for y in board.neighbours[x]:
                if dom[y] != bk:
                    border.add(y)
                elif y not in group_of:
                    group_of[y] = index
                    cells.append(y)
                    stack.append(y)
                    mask |= 1 << y
        if len(cells) > k:
            raise Contradiction(f"the {k}s at {board.where(min(cells))} form a group of "
                                 f"{len(cells)} cells, more than {k}", mask, k)
        groups.append(Group(k, tuple(sorted(cells)), tuple(sorted(border))))
        masks.append(mask)
        edge = 0
        for y in border:
            edge |= 1 << y
        borders.append(edge)
    every = 0
    for mask in masks:
        every |= mask
    return Groups(tuple(groups), group_of, tuple(masks), every, tuple(borders),
                  tuple(i for i, g in enumerate(groups) if not g.complete))


def stuck(board: Board, g: Group) -> Contradiction:
    """An incomplete group without an exit: its cells and their neighbours (which have lost its
    value) are the premises."""
    return Contradiction(f"the group of {g.value}s at {board.where(g.cells[0])} has {g.size} "
                          f"of {g.value} cells and no neighbour can join it",
                          board.spread(sum(1 << x for x in g.cells)), g.value)

