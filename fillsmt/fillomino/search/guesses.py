"""Where a node guesses: the orders, the last conflict, failure weights, shared exits.

A node the rules leave open is split on one cell x and one value v of its domain: first "x is
v" (the guess), then "x is not v" (the complement). The two children split the node's
solutions between them whichever x and v are taken, so everything here changes only the shape
of the tree, never which solutions it holds: every choice below keeps the search complete and
sound.

The orders (``cell_order``; a *group* is a maximal set of connected cells fixed to one value k,
*incomplete* with fewer than k cells, its *exits* the outside neighbours still allowing k):

``group-exit``
    Grow a region: the incomplete group with the fewest exits, then the fewest cells missing,
    then the first cell in row-major order; guess that its exit with the fewest values
    (row-major among equals) is k. With no incomplete group, as ``smallest-domain``.
``big-value``
    As ``group-exit``, taking the incomplete group of the largest value first (ties: the
    fewest exits, then the first cell): the largest regions grow first.
``smallest-domain``
    An unfixed cell with the fewest values (row-major among equals), guessing its smallest value.
``row-major``
    The first unfixed cell row by row, guessing its smallest value: the thesis' order, which
    tries a cell's values in turn.

*Last conflict* (Lecoutre, Saïs, Tabary and Vidal, "Reasoning from last conflict(s) in
constraint programming", 2009): a guess "x is v" refuted at its own fixpoint becomes the
conflict, and every node expanded afterwards where x is unfixed and may still be v guesses "x is
v" first, until such a guess is not refuted (the conflict is forgotten) or another guess is (it
becomes the conflict). *Wiped out*: a complement "x is not v" refuted at its own fixpoint
leaves x without a value there, and (x, v) becomes a second conflict, guessed where the first
does not apply, forgotten the same way (:class:`Conflicts`).

*Failure weights*, as dom/wdeg (Boussemart, Hemery, Lecoutre and Sais, 2004) on cells: a
refuted node adds :data:`WEIGHT_DECISION` to its decision's cell and 1 to every cell its
fixpoint changed (:func:`add_failure`). When the weights are on (once a solution is found, or
from the root on), the groups tied on the order's first criterion are taken by the most weight
on their exits, a group's exit by the fewest values then the most weight, and without an
incomplete group the cell with the fewest values then the most weight. All weights zero, this is
the order itself.

*Shared exits*: among the groups tied on the order's first criterion, an exit's share is the
number of them it is an exit of; the group taken is the one with the most shared exit, then as
the order (and the weights) say, and its exit is its most shared one, then the fewest values,
then the most weight (:func:`shared_group_exit`). Deciding an exit several of the tightest
groups depend on settles them all on both sides of the guess.
"""

from __future__ import annotations

from typing import Iterator

from fillsmt.fillomino.deduce.board import cells_of
from fillsmt.fillomino.deduce.masks import Mask, values_of
from fillsmt.fillomino.deduce.state import State

GROUP_KEYS = {  # the incomplete group to grow: the least key of (exits, value, size, first cell)
    "group-exit": lambda exits, k, size, start: (exits, k - size, start),
    "big-value": lambda exits, k, size, start: (-k, exits, start),
}

WEIGHT_DECISION = 3
"""What a refuted node adds to its decision's cell's failure weight (every other cell its
fixpoint changed gets 1)."""


class Conflicts:
    """One search's last conflict and wiped-out guess (module text), each (cell, value) or
    None."""

    __slots__ = ("last", "second")

    def __init__(self) -> None:
        self.last: tuple[int, int] | None = None
        self.second: tuple[int, int] | None = None

    def note(self, guess: bool, cell: int, allowed: Mask, value: int, refuted: bool, wiped_out: bool) -> None:
        """A node settled: the guess (``guess``) or complement on ``cell`` that made it, the
        values it keeps (``allowed``) and the value its parent's guess named (-1 when the guess
        kept several values: ``avoid``), and whether its fixpoint was refuted."""
        if guess and not allowed & (allowed - 1):
            named = (cell, allowed.bit_length() - 1)
            if refuted:
                self.last = named
            elif self.last == named:
                self.last = None
        if wiped_out and value >= 0:
            named = (cell, value)
            if not guess and refuted:
                self.second = named
            elif guess and not refuted and self.second == named:
                self.second = None

    def guess(self, masks: list[Mask]) -> tuple[int, int] | None:
        """The last conflict's guess, else the second one's, where its cell is unfixed and may
        still take its value; else None."""
        for named in (self.last, self.second):
            if named is not None and still_open(named, masks):
                return named
        return None


def add_failure(weights: list[int], cell: int, changed: list[int]) -> None:
    """A node refuted by its decision on ``cell``, its fixpoint having changed ``changed``."""
    weights[cell] += WEIGHT_DECISION
    for x in set(changed):
        weights[x] += 1


def still_open(named: tuple[int, int], masks: list[Mask]) -> bool:
    """Whether a guess (cell, value) may be made: its cell is unfixed and may still take its value."""
    cell, value = named
    m = masks[cell]
    return bool(m & (m - 1) and m >> value & 1)


def guess(
    state: State,
    unfixed: list[int],
    cell_order: str,
    weights: list[int] | None = None,
    shared: bool = False,
) -> tuple[int, int]:
    """The cell to guess and the value to guess in it, by ``cell_order`` (module text);
    ``weights``: failure weights breaking the order's ties (None: none); ``shared``: a group
    order guesses where the tight groups meet."""
    masks = state.dom
    if cell_order in GROUP_KEYS:
        exit_ = (shared_group_exit if shared else tightest_group_exit)(state, GROUP_KEYS[cell_order], weights)
        if exit_ is not None:
            return exit_
    if cell_order == "row-major":
        cell = unfixed[0]
    elif weights is None:
        cell = min(unfixed, key=lambda x: (masks[x].bit_count(), x))
    else:
        cell = min(unfixed, key=lambda x: (masks[x].bit_count(), -weights[x], x))
    m = masks[cell]
    return cell, (m & -m).bit_length() - 1


def tightest_group_exit(
    state: State, order=GROUP_KEYS["group-exit"], weights: list[int] | None = None
) -> tuple[int, int] | None:
    """The exit and value of the incomplete group with the least ``order`` key, the key's first
    criterion followed by the most failure weight on the group's exits when ``weights`` are
    given; None when no group is incomplete."""
    best_key, best = None, None
    for start, size, exits, k in incomplete_groups(state):
        key = _weighed(order(len(exits), k, size, start), exits, weights)
        if best_key is None or key < best_key:
            best_key, best = key, (exits, k)
    return None if best is None else (_exit(best[0], state.dom, weights), best[1])


def shared_group_exit(
    state: State, order=GROUP_KEYS["group-exit"], weights: list[int] | None = None
) -> tuple[int, int] | None:
    """:func:`tightest_group_exit` where the tight groups meet (module text): among the groups
    tied on ``order``'s first criterion, the group with the exit most of them share, then by
    ``order`` (and ``weights``); its most shared exit, then the fewest values, then the most
    weight. None when no group is incomplete."""
    groups = [(order(len(exits), k, size, start), exits, k) for start, size, exits, k in incomplete_groups(state)]
    if not groups:
        return None
    first = min(key[0] for key, _, _ in groups)
    tied = [group for group in groups if group[0][0] == first]
    share: dict[int, int] = {}
    for _, exits, _ in tied:
        for x in exits:
            share[x] = share.get(x, 0) + 1
    best_key, best = None, tied[0][1:]
    for key, exits, k in tied:
        key = (-max(share[x] for x in exits),) + _weighed(key, exits, weights)
        if best_key is None or key < best_key:
            best_key, best = key, (exits, k)
    return _exit(best[0], state.dom, weights, share), best[1]


def _weighed(key: tuple, exits, weights: list[int] | None) -> tuple:
    """A group's ``order`` key with, after its first criterion, the most failure weight on its
    exits (None: the key itself)."""
    return key if weights is None else (key[0], -sum(weights[x] for x in exits)) + key[1:]


def _exit(exits, masks: list[Mask], weights: list[int] | None = None, share: dict[int, int] | None = None) -> int:
    """The exit of a group to guess: the most shared (``share``), then the fewest values, then
    the most failure weight, then the first cell."""
    return min(exits, key=lambda x: (-share[x] if share else 0, masks[x].bit_count(), -weights[x] if weights else 0, x))


def incomplete_groups(state: State) -> Iterator[tuple[int, int, list[int], int]]:
    """Every group with fewer than k cells and an exit: its first cell (row-major), size, exits
    (in increasing order) and k, value by value (each order above ends its key with the first
    cell, so no two groups tie and the order they come in chooses nothing). A group without an
    exit is skipped (the rules have then found a contradiction). The state's own groups
    (:meth:`~fillsmt.fillomino.deduce.state.State.groups`), kept between its nodes."""
    for k in values_of(state.anchored):
        found = state.groups(k)
        if not found.incomplete:
            continue
        allow, groups, borders = state.allowing(k), found.groups, found.borders
        for i in found.incomplete:
            exits = borders[i] & allow
            if exits:
                g = groups[i]
                yield g.cells[0], g.size, cells_of(exits), k
