"""The searches behind the rules: budget distances, free areas, size caps."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Sequence

from fillsmt.fillomino.deduce.board import Board, Groups
from fillsmt.fillomino.deduce.masks import bit

if TYPE_CHECKING:
    from fillsmt.fillomino.deduce.state import State

Cells = int
"""A set of cells as an int: bit x set for cell x (issue 17, eighth session)."""

Layers = list[int]
"""A budget search's result (see :func:`budget_layers`): ``layers[d]``, for 1 <= d <= k, holds
the cells (bit x for cell x) of the nodes whose least count is d; ``layers[0]`` is empty."""


def budget_layers(state: State, k: int, found: Groups, sources: Sequence[int] = (),
                  start: Layers | None = None) -> Layers:
    """Least cell count of a region of k's joining a source group to each node, where <= k.

    Nodes are the k-groups and the other cells allowing k. Entering a cell costs 1, entering a
    group costs its size, and a source group starts at its size: along a simple path the nodes'
    cells are distinct and all lie in the region, so the cost is a lower bound on the region's
    size. ``found`` may predate some cells being fixed to k: such a cell then counts as an
    ordinary cell, which only lowers the costs, so the bound stays sound.

    ``start`` (instead of ``sources``) gives starting counts: ``start[d]`` the cells (whole
    groups, or cells of no group) that start at d; the least count then adds to a node's the
    cells of a path from it.

    A Dijkstra whose counts are the small integers 1..k, done on sets of cells as ints (issue
    17, eighth session): the layers are settled in increasing count, so a node's first layer is
    its least count; the nodes next to layer d's are its cells' neighbours
    (:meth:`~fillsmt.fillomino.deduce.board.Board.spread`) that allow k and are in no earlier
    layer: a cell of no group goes to layer d + 1, a group, entered whole, to d + its size.
    """
    board, allow = state.board, state.allowing(k)
    w, right, left = board.width, board.right, board.left  # board.spread, inlined
    grouped, masks, groups = found.cells, found.masks, found.groups
    layers = [0] * (k + 1) if start is None else list(start)
    for i in sources:
        layers[groups[i].size] |= masks[i]
    seen = 0
    for d in range(1, k + 1):
        new = layers[d] & ~seen
        layers[d] = new
        if not new:
            continue
        seen |= new
        if d == k:
            break
        nxt = (new | new << w | new >> w | (new & right) << 1 | (new & left) >> 1) & allow & ~seen
        if nxt & grouped:
            for j, gm in enumerate(masks):
                if nxt & gm:
                    nd = d + groups[j].size
                    if nd <= k:
                        layers[nd] |= gm
            nxt &= ~grouped
        if nxt:
            layers[d + 1] |= nxt
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
    ``top >= t`` connected to x number at least t (union-find, thresholds falling)."""
    order = sorted((x for x, t in enumerate(top) if t >= 1), key=lambda x: -top[x])
    levels = sorted({top[x] for x in order}, reverse=True) + [0]
    parent: dict[int, int] = {}
    size: dict[int, int] = {}
    members: dict[int, list[int]] = {}  # the components not yet given a cap
    caps: dict[int, int] = {}
    heap: list[tuple[int, int]] = []  # (-size, root) of components without a cap; stale ones skipped

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def settle(root: int, cap: int) -> None:
        for y in members.pop(root):
            caps[y] = cap

    def union(a: int, b: int, level: int) -> None:
        ra, rb = find(a), find(b)
        if ra == rb:
            return
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        if ra in members and rb in members:
            members[ra].extend(members.pop(rb))
            heapq.heappush(heap, (-size[ra], ra))
        elif ra in members:  # joins a component that had >= t cells at some t >= level
            settle(ra, level)
        elif rb in members:
            settle(rb, level)

    pos = 0
    for i, level in enumerate(levels[:-1]):
        while pos < len(order) and top[order[pos]] == level:
            x = order[pos]
            pos += 1
            parent[x], size[x], members[x] = x, 1, [x]
            heapq.heappush(heap, (-1, x))
            for y in board.neighbours[x]:
                if y in parent:
                    union(x, y, level)
        below = levels[i + 1]  # the component stays as it is for every t in (below, level]
        while heap and -heap[0][0] > below:
            neg, root = heapq.heappop(heap)
            if root in members and parent[root] == root and size[root] == -neg:
                settle(root, min(-neg, level))
    return caps

