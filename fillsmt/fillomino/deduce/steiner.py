"""The fewest cells of one region holding several k-groups: an exact node-weighted Steiner tree
(Dreyfus-Wagner), capped at k (issue 17, fourteenth session).

A region of k's holding the incomplete k-groups G_1..G_t is a connected set of cells that allow
k and holds every G_i's cells; its cells are at least the weight of the lightest connected set
of *nodes* holding the t groups, where the nodes are the cells allowing k and fixed to no k (each
of weight 1) and the incomplete k-groups (each of weight its size): a group lies wholly in any
region meeting it. (A complete k-group is a region of its own, and its neighbours have lost k, so
no such region meets it.) So when that weight exceeds k, no region of k cells holds all t
groups, in any solution of the current domains.

Dreyfus-Wagner computes that weight exactly: ``best[S][v]``, the lightest connected set holding
the groups in S and node v, is ``w(v)`` for S = {i}, v = G_i; is ``best[A][v] + best[S - A][v]
- w(v)`` at the node where a lightest tree splits into two subtrees (A a proper part of S); and
is ``best[S][u] + w(v)`` when v is a leaf hanging from its neighbour u (a shortest-path pass from
the split values, costs being small integers: a bucket queue). Every value above k is cut to
``INF`` (a set over k cells is never wanted, and a part of a tree costs no more than the tree:
so no tree of at most k cells is lost). The answer is ``min_v best[all][v]``. Exact, so sound
whatever the groups: ``fits`` says False only when no region of k cells holds them all.

The work is 3^t times the nodes: :data:`MAX_TERMINALS` bounds t (a caller with more groups asks
about a subset: a subset no region holds is enough).
"""

from __future__ import annotations

from fillsmt.fillomino.deduce.board import Board, cells_of

MAX_TERMINALS = 10
"""The most groups one call joins (3^10 splits of 1 024 subsets)."""


def lightest_region(board: Board, allow: int, groups: list[int], k: int) -> int:
    """The fewest cells of a connected set of cells in ``allow`` (bit x for cell x) that holds
    every set of ``groups`` (disjoint, each connected, within ``allow``, none touching another),
    counted as the module text says; k + 1 when over k."""
    inf = k + 1
    t = len(groups)
    if t == 0:
        return 0
    index: dict[int, int] = {}
    weight: list[int] = []
    for gm in groups:  # node i < t: group i
        for x in cells_of(gm):
            index[x] = len(weight)
        weight.append(gm.bit_count())
    free = allow
    for gm in groups:
        free &= ~gm
    for x in cells_of(free):
        index[x] = len(weight)
        weight.append(1)
    n = len(weight)
    neighbours = board.neighbours
    adj: list[set[int]] = [set() for _ in range(n)]
    for x, v in index.items():
        for y in neighbours[x]:
            u = index.get(y)
            if u is not None and u != v:
                adj[v].add(u)
    adj_t = [tuple(a) for a in adj]
    full = (1 << t) - 1
    best: list[list[int] | None] = [None] * (full + 1)
    for i in range(t):
        row = [inf] * n
        row[i] = weight[i]
        _relax(row, adj_t, weight, inf)
        best[1 << i] = row
    for s in range(1, full + 1):
        if s & (s - 1) == 0:
            continue
        row = [inf] * n
        low = s & -s
        rest = s ^ low
        sub = rest
        while True:  # A = low | sub', every split once (A holds S's lowest group)
            a = best[low | sub]
            b = best[rest ^ sub] if rest ^ sub else None
            if b is not None:
                row = [r if r <= x + y - w else x + y - w
                       for r, x, y, w in zip(row, a, b, weight)]
            if not sub:
                break
            sub = (sub - 1) & rest
        for v in range(n):
            if row[v] > k:
                row[v] = inf
        _relax(row, adj_t, weight, inf)
        best[s] = row
    return min(best[full])


def _relax(row: list[int], adj: list[tuple[int, ...]], weight: list[int], inf: int) -> None:
    """Shortest paths from the row's values (a node's cost: its predecessor's plus its own
    weight), costs below ``inf`` only: a bucket queue over the small integer costs."""
    buckets: list[list[int]] = [[] for _ in range(inf + 1)]
    for v, c in enumerate(row):
        if c < inf:
            buckets[c].append(v)
    for c in range(inf):
        for v in buckets[c]:
            if row[v] != c:
                continue
            for u in adj[v]:
                nc = c + weight[u]
                if nc < row[u]:
                    row[u] = nc
                    buckets[nc].append(u)


def fits(board: Board, allow: int, groups: list[int], k: int) -> bool:
    """Whether one region of at most k cells may hold every group of ``groups`` (module text):
    at once when :func:`joined` finds such a set, else by :func:`lightest_region`."""
    return joined(board, allow, groups, k) or lightest_region(board, allow, groups, k) <= k


def joined(board: Board, allow: int, groups: list[int], k: int) -> bool:
    """Whether a connected set of at most k cells of ``allow`` holding every group is found by
    joining the nearest group to what is joined so far, one shortest path at a time (a
    heuristic: True proves that such a set exists, False proves nothing). A group a path
    crosses is taken whole (it is connected, so the set stays connected)."""
    w, right, left = board.width, board.right, board.left
    tree = groups[0]
    rest = list(groups[1:])
    while rest:
        layers = [tree]
        seen = tree
        hit = 0
        while not hit:
            new = layers[-1]
            nxt = (new | new << w | new >> w | (new & right) << 1 | (new & left) >> 1) & allow & ~seen
            if not nxt or tree.bit_count() + len(layers) > k:
                return False
            for gm in rest:
                if gm & nxt:
                    hit = gm & nxt
                    break
            layers.append(nxt)
            seen |= nxt
        cell = hit & -hit
        path = cell
        for layer in reversed(layers[1:-1]):  # walk back one layer at a time
            around = (cell | cell << w | cell >> w | (cell & right) << 1 | (cell & left) >> 1)
            step = around & layer
            cell = step & -step
            path |= cell
        tree |= path
        grown = True
        while grown:
            grown = False
            for i, gm in enumerate(rest):
                if gm & tree:
                    tree |= gm
                    del rest[i]
                    grown = True
                    break
        if tree.bit_count() > k:
            return False
    return True
