"""The searches behind the rules: budget distances, free areas, size caps."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Sequence

from fillsmt.fillomino.deduce.board import Board, Groups

if TYPE_CHECKING:
    from fillsmt.fillomino.deduce.state import State

Cells = int
"""A set of cells as an int: bit x set for cell x."""

Layers = list[int]
"""A budget search's result (see :func:`budget_layers`): ``layers[d]``, for 1 <= d <= k, holds
the cells (bit x for cell x) of the nodes whose least count is d; ``layers[0]`` is empty."""


def budget_layers(
    state: State, k: int, found: Groups, sources: Sequence[int] = (), start: Layers | None = None
) -> Layers:
    """Least cell count of a region of k's joining a source group to each node, where <= k.

    Nodes are the k-groups and the other cells allowing k. Entering a cell costs 1, entering a
    group costs its size, and a source group starts at its size: along a simple path the nodes'
    cells are distinct and all lie in the region, so the cost is a lower bound on the region's
    size. ``found`` may predate some cells being fixed to k: such a cell then counts as an
    ordinary cell, which only lowers the costs, so the bound stays sound.

    ``start`` (instead of ``sources``) gives starting counts: ``start[d]`` the cells (whole
    groups, or cells of no group) that start at d; the least count then adds to a node's the
    cells of a path from it.

    A Dijkstra whose counts are the small integers 1..k, done on sets of cells as ints: the
    layers are settled in increasing count, so a node's first layer is its least count; the
    nodes next to layer d's are its cells' neighbours (:meth:`.board.Board.spread`) that allow k
    and are in no earlier layer: a cell of no group goes to layer d + 1, a group, entered whole,
    to d + its size."""
    board, allow = state.board, state.allowing(k)
    w, right, left = board.width, board.right, board.left  # board.spread, inlined
    grouped, masks, groups = found.cells, found.masks, found.groups
    if start is None:
        layers, last = [0] * (k + 1), 0  # last: no layer beyond it holds a cell
    else:
        layers = list(start)
        last = max((d for d, cells in enumerate(layers) if cells), default=0)
    for i in sources:
        size = groups[i].size
        layers[size] |= masks[i]
        if size > last:
            last = size
    seen = 0
    d = 0
    while d < last:  # d = 1 .. k, but the empty layers past the last one
        d += 1
        new = layers[d] & ~seen
        layers[d] = new
        if not new:
            continue
        seen |= new
        if d == k:
            break
        nxt = (new | new << w | new >> w | (new & right) << 1 | (new & left) >> 1) & allow & ~seen
        hit = nxt & grouped
        if hit:
            group_of = found.group_of
            while hit:  # each group entered, found by its lowest cell entered
                j = group_of[(hit & -hit).bit_length() - 1]
                gm = masks[j]
                hit &= ~gm
                nd = d + groups[j].size
                if nd <= k:
                    layers[nd] |= gm
                    if nd > last:
                        last = nd
            nxt &= ~grouped
        if nxt:
            layers[d + 1] |= nxt
            if d + 1 > last:
                last = d + 1
    return layers


def layered(layers: Layers) -> int:
    """Every cell of a budget search's layers."""
    out = 0
    for cells in layers:
        out |= cells
    return out


def sort_free_area(free: Cells, board: Board, k: int, start: int) -> Cells:
    """The free area of ``start`` for k within ``free`` (the cells that allow k, are not fixed
    to k and touch no cell fixed to k; ``start`` must be one), grown ring by ring from ``start``
    and stopped once it holds k cells: the whole area when it holds fewer, else at least k of
    its cells, connected."""
    w, right, left = board.width, board.right, board.left  # board.spread, inlined
    seen = 1 << start
    count = 1
    while count < k:
        grown = (seen | seen << w | seen >> w | (seen & right) << 1 | (seen & left) >> 1) & free
        if grown == seen:
            break
        seen = grown
        count = seen.bit_count()
    return seen


def threshold_caps(board: Board, top: list[int]) -> dict[int, int]:
    """For every cell with ``top[x] >= 1``: the largest t <= top[x] such that the cells with
    ``top >= t`` connected to x number at least t (union-find, thresholds falling).

    The cells come in falling ``top`` (row-major among equals), and the caps in the order the
    components are settled (``size-cap`` restricts in that order). Lists indexed by cell, the
    union-find inlined."""
    order = sorted((x for x, t in enumerate(top) if t >= 1), key=top.__getitem__, reverse=True)
    levels = sorted({top[x] for x in order}, reverse=True) + [0]
    parent = [-1] * len(top)  # -1: not yet added
    size = [0] * len(top)
    members: dict[int, list[int]] = {}  # the components not yet given a cap
    caps: dict[int, int] = {}
    heap: list[tuple[int, int]] = []  # (-size, root) of components without a cap; stale ones skipped
    push, pop = heapq.heappush, heapq.heappop
    neighbours = board.neighbours

    def settle(root: int, cap: int) -> None:
        for y in members.pop(root):
            caps[y] = cap

    pos, count = 0, len(order)
    for i in range(len(levels) - 1):
        level = levels[i]
        while pos < count and top[order[pos]] == level:
            x = order[pos]
            pos += 1
            parent[x], size[x], members[x] = x, 1, [x]
            push(heap, (-1, x))
            for y in neighbours[x]:
                if parent[y] < 0:
                    continue
                # union(x, y): the roots, by path halving
                ra = x
                while parent[ra] != ra:
                    parent[ra] = parent[parent[ra]]
                    ra = parent[ra]
                rb = y
                while parent[rb] != rb:
                    parent[rb] = parent[parent[rb]]
                    rb = parent[rb]
                if ra == rb:
                    continue
                if size[ra] < size[rb]:
                    ra, rb = rb, ra
                parent[rb] = ra
                size[ra] += size[rb]
                if ra in members:
                    if rb in members:
                        members[ra].extend(members.pop(rb))
                        push(heap, (-size[ra], ra))
                    else:  # joins a component that had >= t cells at some t >= level
                        settle(ra, level)
                elif rb in members:
                    settle(rb, level)
        below = levels[i + 1]  # the component stays as it is for every t in (below, level]
        while heap and -heap[0][0] > below:
            neg, root = pop(heap)
            if root in members and parent[root] == root and size[root] == -neg:
                settle(root, min(-neg, level))
    return caps
