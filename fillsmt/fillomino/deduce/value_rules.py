"""The rules run per value k, only for values some cell is fixed to (in this order).

``complete-group``
    A complete k-group is a whole region, so no outside neighbour holds k.
``join-overflow``
    A cell holding k joins the region of every k-group it touches; if 1 plus the sizes of the
    distinct k-groups around a cell exceed k, the cell cannot hold k.
``single-exit`` (thesis 5.2)
    An incomplete k-group's region must grow through a neighbour holding k; if exactly one
    outside neighbour allows k, that neighbour is k.
``area`` (thesis 5.4, generalised to unclued regions)
    A cell x holds k only inside a region of k cells that all allow k. Either that region holds
    a cell fixed to k, hence an incomplete k-group G (a complete one is its whole region), and
    then x is reachable from G by a path whose cells, counted together with G and with every
    k-group the path passes through, number at most k; or it holds no cell fixed to k, and then
    it lies in the *free area* of x: the connected cells that allow k, are not fixed to k and
    touch no cell fixed to k, which must number at least k. Otherwise x loses k.
``forced-cell`` (thesis 5.3, generalised)
    The region of an incomplete k-group G lies within the cells G can reach within its budget
    (as in ``area``, every cell of the region is such a cell). If without a cell e fewer than k
    of them stay connected to G, every completion of G uses e, so e is k.
"""

from __future__ import annotations

from fillsmt.fillomino.deduce.board import Board, Contradiction, recall, remember, stuck
from fillsmt.fillomino.deduce.masks import bit, values_of
from fillsmt.fillomino.deduce.searches import sort_free_area
from fillsmt.fillomino.deduce.state import State


def complete_group(state: State, k: int) -> None:
    """A complete k-group is a whole region: remove k from its outside neighbours.

    Only a group whose border still allows k has anything to remove (a set test: once its
    exits have lost k they cannot gain it back, and none of them can join it, which would
    overflow it)."""
    found = state.groups(k)
    if not found.complete:
        return
    groups, borders = found.groups, found.borders
    for i in found.complete:
        if borders[i] & state.allowing(k):
            g = groups[i]
            for y in g.exits(state.dom):
                state.restrict(y, ~bit(k), "complete-group", g.cells)


def join_overflow(state: State, k: int) -> None:
    """A cell holding k merges all k-groups it touches: 1 + their sizes must not exceed k."""
    found = state.groups(k)
    # Only a cell touching two groups, or one complete group, can overflow (1 + the size of
    # one incomplete group is at most k): the candidates (``crowded``) that allow k.
    candidates = found.crowded & state.allowing(k)
    if not candidates:
        return
    groups, group_of, neighbours = found.groups, found.group_of, state.board.neighbours
    for y in values_of(candidates):
        touched = {group_of[z] for z in neighbours[y] if z in group_of}
        if 1 + sum(groups[i].size for i in touched) > k:
            state.restrict(y, ~bit(k), "join-overflow", [groups[i].cells for i in touched])


def single_exit(state: State, k: int) -> None:
    """An incomplete k-group with one neighbour allowing k must grow into it."""
    found = state.groups(k)
    if not found.incomplete:
        return
    groups, borders = found.groups, found.borders
    allow = state.allowing(k)  # fixing an exit to k removes k from no cell
    for i in found.incomplete:
        exits = borders[i] & allow
        if not exits:
            raise stuck(state.board, groups[i])
        if not exits & (exits - 1):
            state.restrict(exits.bit_length() - 1, bit(k), "single-exit", groups[i].cells)


def area(state: State, k: int) -> None:
    """Remove k from a cell that lies in no possible region of k's (see the module text)."""
    bk = bit(k)
    found = state.groups(k)
    reached = 0
    for i in found.incomplete:
        reached |= state.reach(k, found, i).cells
    unreached = state.allowing(k) & ~reached
    if not unreached:
        return
    areas = state.roomy(k)
    changed = state._changed.get(k, 0)
    live = [n for n in areas if not (changed ^ n.base) & n.watched]  # state.live, inlined
    if len(live) < len(areas):
        areas[:] = live
    roomy = 0  # cells of free areas known to hold at least k cells
    for n in live:
        roomy |= n.cells
    cramped = 0
    free = None
    # the cells to look at, in increasing order: none fixed to k (``found.cells``: area only
    # removes k, so fixes no cell to k), none in a roomy area (dropped as the areas grow)
    todo = unreached & ~roomy & ~found.cells
    while todo:
        low = todo & -todo
        todo ^= low
        x = low.bit_length() - 1
        if not cramped & low:
            if free is None:  # only cramped cells lose k below, which changes no other area
                free = _free_cells(state, k)
            if free & low:
                seen = sort_free_area(free, state.board, k, x)
                if seen.bit_count() >= k:
                    areas.append(state.note(k, seen))
                    roomy |= seen
                    todo &= ~seen
                    continue
                cramped |= seen
        state.restrict(x, ~bk, "area")


def _free_cells(state: State, k: int) -> int:
    """The cells that allow k, are not fixed to k and touch no cell fixed to k (a set)."""
    return state.allowing(k) & ~state.board.spread(state.fixed.get(k, 0))


def forced_cell(state: State, k: int) -> None:
    """Fix to k every cell without which an incomplete k-group cannot reach k cells."""
    bk = bit(k)
    done: set[tuple[int, ...]] = set()
    first = state.groups(k)
    for i in first.incomplete:
        found = state.groups(k)  # afresh: a cell fixed below may have joined groups
        if found is not first:
            i = found.group_of[first.groups[i].cells[0]]
        g = found.groups[i]
        if g.complete or g.cells in done:
            continue
        done.add(g.cells)
        noted = state.to_analyse(k, found, i)
        if noted is None:
            continue  # nothing it depends on has changed since forced-cell last looked
        cells = noted.cells
        size = cells.bit_count()
        if size < k:
            raise Contradiction(
                f"the group of {k}s at {state.board.where(g.cells[0])} can reach only {size} cells, fewer than {k}"
            )
        if size == k:  # every cell of the reach is forced (size - 1 - cut < k)
            for e in values_of(cells):
                if state.dom[e] != bk:
                    state.restrict(e, bk, "forced-cell", g.cells)
            continue
        for e in values_of(_forced_kept(state.board, cells, found.masks[i], k)):
            if state.dom[e] != bk:
                state.restrict(e, bk, "forced-cell", g.cells)


def _forced_kept(board: Board, cells: int, group: int, k: int) -> int:
    """:func:`_forced`, kept with the board (a function of its arguments alone)."""
    key = ("forced", k, group, cells)
    forced = recall(board, key)
    if forced is None:
        forced = remember(board, key, _forced(board, cells, group, k))
    return forced


def _forced(board: Board, cells: int, group: int, k: int) -> int:
    """The cells of ``cells`` (a group's reach, more than k cells) without which fewer than k
    of them stay connected to the group (``group``, its cells), as a set.

    Grown ring by ring from the group (ring d: the cells at distance d within ``cells``), a
    cell e of ring d leaves connected every cell at distance at most d but itself (each keeps
    a shortest path through nearer cells): once those number k or more, no cell of ring d or
    beyond is forced, and the rings stop. For a cell e of an earlier ring, the cells connected
    without it are grown from there, within ``cells`` less e, until they number k (e is not
    forced) or stop growing (e is); or until they hold every neighbour of e in ``cells``:
    every cell of ``cells`` is connected to the group, and a
    path from it that passes e can leave e, for the last time, only to a neighbour already
    connected, so every cell but e is, k or more of them (e is not forced)."""
    # board.spread inlined (within ``cells``, which lie on the board)
    w, right, left = board.width, board.right, board.left
    rings, seen = [], group
    while True:
        ring = (seen | seen << w | seen >> w | (seen & right) << 1 | (seen & left) >> 1) & cells & ~seen
        if not ring or (seen | ring).bit_count() > k:  # less any one cell, still k or more
            break
        rings.append((seen, ring))
        seen |= ring
    forced = 0
    whole = cells.bit_count() - 1 >= k  # every cell but one is k or more
    for inner, ring in rings:
        rest = ring
        while rest:
            low = rest & -rest
            rest ^= low
            without = cells & ~low
            reached = inner | (ring ^ low)
            # e's neighbours in the reach: once all are reached without e, so is every cell but e
            around = (low << w | low >> w | (low & right) << 1 | (low & left) >> 1) & cells
            count = reached.bit_count()
            while count < k:
                if whole and not around & ~reached:
                    count = k  # every cell but e, k or more
                    break
                grown = (
                    reached | reached << w | reached >> w | (reached & right) << 1 | (reached & left) >> 1
                ) & without
                if grown == reached:
                    break
                reached = grown
                count = reached.bit_count()
            if count < k:
                forced |= low
    return forced
