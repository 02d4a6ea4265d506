"""The board's neighbour table, the k-groups of fixed cells, and the contradiction error.

A *k-group* is a maximal orthogonally connected set of cells fixed to k; in every solution it
lies inside one region of k's. A k-group of k cells is *complete*; a smaller one *incomplete*.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from fillsmt.fillomino.deduce.masks import Mask, bit


class Board:
    """The grid's shape and neighbour table. Sets of cells are ints (bit x for cell x) and grow
    by their neighbours in a few shifts (:meth:`spread`).

    ``full`` is every cell (bit x set for each cell x), ``left`` the cells that have a left
    neighbour (all but the first column), ``right`` those with a right neighbour. ``kept`` holds
    results that depend on nothing but their key and this board, kept for the states that ask
    again (:func:`recall`, :func:`remember`): the k-groups by value and cells fixed to it
    (:func:`find_groups`), forced-cell's cut cells, whether two groups may share a region. None
    (the default): nothing kept, as one run of the rules never asks twice; a search's board
    keeps them (``Board.of(..., keep=True)``), its states on other branches meeting the same.
    A board is never changed once made (``kept`` aside)."""

    def __init__(
        self,
        height: int,
        width: int,
        neighbours: tuple[tuple[int, ...], ...],
        full: int = 0,
        left: int = 0,
        right: int = 0,
        kept: dict | None = None,
    ) -> None:
        self.height, self.width, self.neighbours = height, width, neighbours
        self.full, self.left, self.right, self.kept = full, left, right, kept

    @classmethod
    def of(cls, height: int, width: int, keep: bool = False) -> Board:
        """The board of that shape (its tables shared with every board of the shape); ``keep``:
        it keeps results (``kept``, its own)."""
        return cls(height, width, *_geometry(height, width), {} if keep else None)

    @cached_property
    def others(self) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        """Per cell x, per neighbour y of x (in ``neighbours`` order): y and y's neighbours
        other than x (``neighbour-fit``'s table, built once per shape)."""
        return _others(self.height, self.width)

    def spread(self, cells: int) -> int:
        """The cells and their neighbours, as a set of cells (bit x for cell x): up and down are
        shifts by the width, left and right by one within a row."""
        w = self.width
        return (cells | cells << w | cells >> w | (cells & self.right) << 1 | (cells & self.left) >> 1) & self.full

    def where(self, x: int) -> str:
        r, c = divmod(x, self.width)
        return f"row {r + 1}, column {c + 1}"


@lru_cache(maxsize=64)
def _geometry(height: int, width: int) -> tuple[tuple[tuple[int, ...], ...], int, int, int]:
    """A shape's neighbour table, every cell, the cells with a left and with a right neighbour
    (:class:`Board`'s fields; built once per shape)."""

    def around(x: int) -> tuple[int, ...]:
        r, c = divmod(x, width)
        cand = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return tuple(rr * width + cc for rr, cc in cand if 0 <= rr < height and 0 <= cc < width)

    n = height * width
    first = sum(1 << (r * width) for r in range(height))  # the first column
    full = (1 << n) - 1
    return tuple(around(x) for x in range(n)), full, full & ~first, full & ~(first << (width - 1))


@lru_cache(maxsize=64)
def _others(height: int, width: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """:attr:`Board.others` of a shape."""
    nbrs = _geometry(height, width)[0]
    return tuple(tuple((y, tuple(z for z in nbrs[y] if z != x)) for y in nbrs[x]) for x in range(len(nbrs)))


class Contradiction(Exception):
    """The puzzle has no solution (in the current domains); the message says why."""


class Group:
    """A k-group and its border (the outside neighbours of its cells). Immutable. A plain class
    with slots (the search builds many): ``size`` and
    ``complete`` are kept with it, the border as a set (``edge``, bit y for cell y), its cells
    listed only when asked for."""

    __slots__ = ("value", "cells", "edge", "size", "complete")

    def __init__(self, value: int, cells: tuple[int, ...], edge: int):
        self.value = value
        self.cells = cells
        self.edge = edge
        self.size = len(cells)
        self.complete = len(cells) == value

    @property
    def border(self) -> tuple[int, ...]:
        """The border's cells, in increasing order."""
        return tuple(cells_of(self.edge))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Group):
            return NotImplemented
        return (self.value, self.cells, self.edge) == (other.value, other.cells, other.edge)

    def __hash__(self) -> int:
        return hash((self.value, self.cells, self.edge))

    def __repr__(self) -> str:
        return f"Group(value={self.value!r}, cells={self.cells!r}, border={self.border!r})"

    def exits(self, dom: list[Mask]) -> list[int]:
        """The border cells that still allow the group's value."""
        bk = bit(self.value)
        return [y for y in cells_of(self.edge) if dom[y] & bk]


def cells_of(cells: int) -> list[int]:
    """The cells of a set (bit x for cell x), in increasing order."""
    out = []
    while cells:
        low = cells & -cells
        out.append(low.bit_length() - 1)
        cells ^= low
    return out


class Groups:
    """All k-groups, and which group each cell fixed to k belongs to: ``masks`` holds each
    group's cells as a set (bit x for cell x), ``cells`` every group's cells as a set,
    ``borders`` each group's border as a set, ``incomplete`` and ``complete`` the indices of the
    incomplete and of the complete groups; ``crowded`` the cells that touch a complete group or
    two incomplete ones, as a set: where a cell holding k may merge more than k cells
    (``join-overflow``'s candidates); ``group_of`` each cell's group (built when first asked
    for, as few rules ask). ``memo`` keeps what is computed from the groups alone (see
    ``capacity``). Never changed once made (``memo`` and ``group_of``'s table aside)."""

    __slots__ = ("groups", "_group_of", "masks", "cells", "borders", "incomplete", "complete", "crowded", "memo")

    def __init__(
        self,
        groups: tuple[Group, ...],
        masks: tuple[int, ...] = (),
        cells: int = 0,
        borders: tuple[int, ...] = (),
        incomplete: tuple[int, ...] = (),
        complete: tuple[int, ...] = (),
        crowded: int = 0,
    ) -> None:
        self.groups, self.masks, self.cells = groups, masks, cells
        self.borders, self.incomplete, self.complete, self.crowded = borders, incomplete, complete, crowded
        self._group_of: dict[int, int] | None = None
        self.memo: dict = {}

    @property
    def group_of(self) -> dict[int, int]:
        """The index of the group of each cell fixed to k."""
        table = self._group_of
        if table is None:
            table = self._group_of = {x: index for index, g in enumerate(self.groups) for x in g.cells}
        return table


KEPT = 8192
"""The results a board keeps at most (``Board.kept``; all dropped when full): a search meets the
same cells fixed to k, the same reach, the same pair of groups again on other branches."""
KEPT_CELLS = 1 << 20
"""On a large board fewer: at most this many divided by the board's cells (a result holds up
to a set of cells: 327 on a board of 3200, 8192 on one of 100)."""


def recall(board: Board, key: tuple):
    """The result kept under ``key`` with the board (``Board.kept``), or None."""
    kept = board.kept
    return None if kept is None else kept.get(key)


def remember(board: Board, key: tuple, value):
    """Keep ``value`` under ``key`` with the board if it keeps results (``Board.kept``); the
    value."""
    kept = board.kept
    if kept is not None:
        if len(kept) >= min(KEPT, KEPT_CELLS // len(board.neighbours)):
            kept.clear()
        kept[key] = value
    return value


def find_groups(board: Board, dom: list[Mask], k: int, fixed: int, previous: Groups | None = None) -> Groups:
    """The k-groups (``fixed``: the cells fixed to k, that is every cell whose domain is k
    alone, as a set, bit x for cell x, as :class:`~.state.State` keeps them); a group of more
    than k cells is a contradiction.

    The result depends on the board, k and the cells fixed to k alone: it is kept with the
    board (``Board.kept``) and shared by every state that asks for the same, with its
    ``memo`` (which holds only what follows from the groups). On sets of cells: a group is
    grown from its first cell by
    :meth:`Board.spread` within the cells fixed to k, and its border is what the last spread
    adds outside them; the groups come in the order of their first cells, each group's cells
    and border in increasing order, as the flood fill cell by cell found them. ``dom`` is not
    looked at (the cells fixed to k are ``fixed``); it stays in the signature for callers.

    ``previous``: the k-groups of fewer cells fixed to k (a subset of
    these; else it is not used), whose groups no newly fixed cell touches are groups here too
    (each is connected, and every cell fixed to k next to it is one of its own) and are taken
    as they are; only the rest is grown. The result is the same."""
    found = recall(board, (k, fixed))
    if found is not None:
        return found
    w, full, right, left = board.width, board.full, board.right, board.left
    parts: list[tuple[int, Group]] = []  # (cells as a set, group), in the order of first cells
    remaining = fixed
    if previous is not None and not previous.cells & ~fixed:
        near = board.spread(fixed & ~previous.cells)
        for g, mask in zip(previous.groups, previous.masks):
            if not mask & near:
                parts.append((mask, g))
                remaining &= ~mask
    fresh = []
    while remaining:
        mask = remaining & -remaining
        while True:
            around = (mask | mask << w | mask >> w | (mask & right) << 1 | (mask & left) >> 1) & full
            grown = around & fixed
            if grown == mask:
                break
            mask = grown
        remaining &= ~mask
        size = mask.bit_count()
        if size > k:
            low = (mask & -mask).bit_length() - 1
            raise Contradiction(f"the {k}s at {board.where(low)} form a group of {size} cells, more than {k}")
        fresh.append((mask, Group(k, tuple(cells_of(mask)), around & ~mask)))
    if parts:
        parts = sorted(parts + fresh, key=lambda part: part[0] & -part[0])
    else:
        parts = fresh
    groups, masks, borders, incomplete, complete = [], [], [], [], []
    once = crowded = 0
    for index, (mask, group) in enumerate(parts):
        edge = group.edge
        groups.append(group)
        masks.append(mask)
        borders.append(edge)
        if group.complete:
            complete.append(index)
            crowded |= edge
        else:
            incomplete.append(index)
            crowded |= once & edge
            once |= edge
    return remember(
        board,
        (k, fixed),
        Groups(tuple(groups), tuple(masks), fixed, tuple(borders), tuple(incomplete), tuple(complete), crowded),
    )


def stuck(board: Board, g: Group) -> Contradiction:
    """An incomplete group without an exit."""
    return Contradiction(
        f"the group of {g.value}s at {board.where(g.cells[0])} has {g.size} "
        f"of {g.value} cells and no neighbour can join it"
    )
