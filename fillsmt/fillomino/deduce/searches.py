"""The searches behind the rules: budget distances, free areas, cut vertices, size caps."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from fillsmt.fillomino.deduce.board import Board, Groups
from fillsmt.fillomino.deduce.masks import bit

if TYPE_CHECKING:
    from fillsmt.fillomino.deduce.state import Noted, State

Reach = dict[int, int]
"""A budget search's result: node -> least region size (see :func:`budget_distances`)."""

Cells = frozenset[int]


def budget_distances(state: State, k: int, found: Groups, sources: list[int],
                     start: Reach | None = None) -> Reach:
    """Least cell count of a region of k's joining a source group to each node, where <= k.

    Nodes are the k-groups (key: number of cells + group index) and the other cells allowing k
    (key: the cell). Entering a cell costs 1, entering a group costs its size, and a source
    group starts at its size: along a simple path the nodes' cells are distinct and all lie in
    the region, so the cost is a lower bound on the region's size. ``found`` may predate some
    cells being fixed to k: such a cell then counts as an ordinary cell, which only lowers the
    costs, so the bound stays sound.

    ``start`` (instead of ``sources``) gives nodes with a starting count each: the least count
    then adds to a node's the cells of a path from it.
    """
    bk = bit(k)
    dom, nbrs = state.dom, state.board.neighbours
    groups, group_of = found.groups, found.group_of
    base = len(dom)
    dist = {base + i: groups[i].size for i in sources} if start is None else dict(start)
    heap = [(d, node) for node, d in dist.items()]
    heapq.heapify(heap)
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        for y in groups[node - base].border if node >= base else nbrs[node]:
            i = group_of.get(y)
            if i is not None:
                nxt, nd = base + i, d + groups[i].size
            elif dom[y] & bk:
                nxt, nd = y, d + 1
            else:
                continue
            if nd <= k and nd < dist.get(nxt, k + 1):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


def reach_cells(found: Groups, reach: Reach, base: int) -> set[int]:
    """The cells of the nodes of a budget search."""
    out: set[int] = set()
    for node in reach:
        if node >= base:
            out.update(found.groups[node - base].cells)
        else:
            out.add(node)
    return out


def sort_free_area(state: State, k: int, start: int, roomy: dict[int, Noted],
                    cramped: set[int]) -> None:
    """Explore the free area of ``start`` for k (cells that allow k, are not fixed to k and
    touch no cell fixed to k). Cells of an area of at least k cells go to ``roomy``, noted with
    the k cells seen (the search stops there), the others to ``cramped``."""
    bk = bit(k)
    dom, nbrs = state.dom, state.board.neighbours

    def free(x: int) -> bool:
        m = dom[x]
        if not m & bk or m == bk:
            return False
        for y in nbrs[x]:
            if dom[y] == bk:
                return False
        return True

    if not free(start):
        cramped.add(start)
        return
    seen, stack = {start}, [start]
    while stack and len(seen) < k:
        x = stack.pop()
        for y in nbrs[x]:
            if y not in seen and free(y):
                seen.add(y)
                stack.append(y)
    if len(seen) < k:
        cramped.update(seen)
        return
    noted = state.note(k, frozenset(seen))
    for x in seen:
        roomy[x] = noted


def cut_off_counts(board: Board, inside: set[int], root: int) -> dict[int, int]:
    """For each cell e of ``inside``: how many other cells of ``inside`` lose every path to
    ``root`` when e is removed (articulation points with subtree sizes, iterative DFS; the
    cells are numbered in the order the DFS discovers them, so a discovery time is an index)."""
    nbrs = board.neighbours
    disc = {root: 0}
    cells, low, size, up = [root], [0], [1], [-1]
    cut: dict[int, int] = {}
    stack = [(0, iter(nbrs[root]))]
    while stack:
        u, it = stack[-1]
        for v in it:
            if v not in inside:
                continue
            d = disc.get(v)
            if d is None:
                d = disc[v] = len(cells)
                cells.append(v)
                low.append(d)
                size.append(1)
                up.append(u)
                stack.append((d, iter(nbrs[v])))
                break
            if d != up[u] and d < low[u]:
                low[u] = d
        else:
            stack.pop()
            p = up[u]
            if p >= 0:
                size[p] += size[u]
                if low[u] < low[p]:
                    low[p] = low[u]
                if low[u] >= p:
                    c = cells[p]
                    cut[c] = cut.get(c, 0) + size[u]
    return cut


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

