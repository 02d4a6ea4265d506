"""The rules run over the whole grid each round (in this order), re-checking only near changes.

``neighbour-support``
    A region of k > 1 cells is connected, so a cell holding k > 1 has a neighbour allowing k.
``neighbour-fit``
    A cell x may hold k only if each neighbour y can still hold a value that fits: k itself
    (k > 1; they share the region), or a value other than k that y can hold without x's help:
    1, or a value j > 1 that another neighbour of y allows (y's region of j > 1 cells needs a
    neighbour of y, and that is not x). So a 1 needs neighbours that can be something else,
    which settles two cells walled in by other values: neither can be the 1.
``size-cap``
    For a value k no cell is fixed to, a region of k's holds only unfixed cells that allow k,
    so only cells whose largest such value is at least k; the connected area of those around x
    must have at least k cells. One sweep over decreasing thresholds (union-find) caps every
    cell at once. It covers an area walled in by complete regions: its cells' values that no
    cell is fixed to are capped by the area's size.
"""

from __future__ import annotations

from typing import Iterable

from fillsmt.fillomino.deduce.masks import bit, up_to
from fillsmt.fillomino.deduce.searches import threshold_caps
from fillsmt.fillomino.deduce.state import State


def near_changes(state: State, rule: str, steps: int) -> Iterable[int]:
    """The cells within ``steps`` of a cell changed since ``rule`` last ran (all, at first)."""
    start = state.seen_upto.get(rule)
    state.seen_upto[rule] = len(state.changed_cells)
    if start is None:
        return range(len(state.dom))
    ring = set(state.changed_cells[start:])
    for _ in range(steps):
        ring.update(*(state.board.neighbours[x] for x in list(ring)))
    return sorted(ring)


def neighbour_support(state: State) -> None:
    """Keep a value k > 1 only where some neighbour allows k too."""
    dom, nbrs = state.dom, state.board.neighbours
    one = bit(1)
    for x in near_changes(state, "neighbour-support", 1):
        support = one
        for y in nbrs[x]:
            support |= dom[y]
        if dom[x] & ~support:
            state.restrict(x, support, "neighbour-support", nbrs[x])


def neighbour_fit(state: State) -> None:
    """Keep k at an unfixed cell x only where every neighbour has a value that fits with it."""
    dom, nbrs, others = state.dom, state.board.neighbours, state.board.others
    one = bit(1)
    for x in near_changes(state, "neighbour-fit", 2):
        dx = dom[x]
        if not dx & (dx - 1):  # fixed (is_single, inlined)
            continue
        allowed = ~0
        for y, around in others[x]:
            helped = one
            for z in around:  # y's neighbours but x
                helped |= dom[z]
            dy = dom[y]
            alone = dy & helped  # the values y can hold without x in its region
            fits_one = one if alone & ~one else 0
            fits_more = ~one if alone else dy & ~one
            allowed &= fits_one | fits_more
        if dx & ~allowed:
            state.restrict(x, allowed, "neighbour-fit", nbrs[x])


def size_cap(state: State) -> None:
    """Cap the values no cell is fixed to by the size of the area that could hold them.

    For such a value k, let T_k be the unfixed cells whose largest such value is >= k. A region
    of k's lies inside T_k, so x keeps k only if k <= cap(x), the largest t with x in T_t and
    |component of x in T_t| >= t. T_t only grows as t falls, so all caps come from one sweep.

    The caps depend only on the largest such values (``top``) and the values fixed to: when
    both are what the last sweep of this state (or of the state it was forked from) saw, that
    sweep's restrictions are in the domains already (they only shrink), and it is not redone.
    """
    if state.seen_upto.get("size-cap") == len(state.changed_cells):
        return  # nothing changed since the last sweep
    state.seen_upto["size-cap"] = len(state.changed_cells)
    dom = state.dom
    free = ~state.anchored
    top = [(m & free).bit_length() - 1 if m & (m - 1) else -1 for m in dom]  # -1: fixed
    if state.capped == (state.anchored, top):
        return
    state.capped = (state.anchored, top)
    for x, cap in threshold_caps(state.board, top).items():
        if cap < top[x]:
            state.restrict(x, ~(free & ~up_to(cap)), "size-cap")
