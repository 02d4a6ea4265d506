"""The fewest cells of one region holding several k-groups: an exact node-weighted Steiner tree
(Dreyfus-Wagner), capped at k.

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

Made fast; each step keeps the answer exact:

- *Two groups*: the lightest set is the two groups and the cells of a shortest path between
  them, found by layers a shift at a time (:func:`_path`).
- *A simpler graph* (:func:`_drop_loose`, :func:`_contract`): a cell node with one neighbour at
  most ends no lightest set (dropped, again and again), and a chain of cell nodes of two
  neighbours each is taken whole or not at all by a lightest set (a part would end in a cell
  node it could do without): each chain becomes one edge whose cost is the chain's weight plus
  the far node's, and the recurrences' leaf step adds that cost.
- *Groups merged* (:func:`_merge_groups`): in the contracted graph a
  group's *links* are its edges, each a chain of ``inner`` cells (none for a plain neighbour)
  then the far node. (a) A group z with one link: every connected set holding z and another
  group holds that link and its far node (the only way out of z), so z, the link and the far
  node are merged into one group (of their summed weight). (b) A group z whose lightest link,
  by inner cells, ends in another group u (every other link of z has at least as many): some
  lightest set holds that link. Let X be a lightest set without it (with none of its inner
  cells, as a lightest set takes a chain whole or not at all, above; a link without inner cells
  every set holding z and u holds) and T a spanning tree of X. T's path from z to u leaves z by
  another link e' of z, which X holds whole and which has at least as many inner cells as the
  link to u, so at least one; each has two neighbours, so the path runs along all of them and
  T without them falls into z's side and u's side. No group is among them; the link to u joins
  the two sides again: a connected set holding every group, no heavier than X. So the lightest
  weight is that of the lightest set holding z, the link and u, merged into one group. Each
  merge keeps the lightest weight, so again and again while two groups are left; what is left
  is solved as below (one group: its weight; two: the shortest way between them, the first
  group's row). Each group merged away leaves a third of the splits.
- *Bounded search* (:func:`_bounded`), from three groups on. Rooted: one group q
  (the one farthest from the others, summed: :func:`_root`) is left out of S and the answer is
  ``best[all but q][q]`` (Dreyfus-Wagner's own form; a third of the splits). Split only at the
  *junctions* (:func:`_junctions`: the groups and the nodes of three neighbours or more): in a
  lightest set X taken as a tree rooted at q, two subtrees meet below the root only at a node
  with two children and a parent, or at a group; every other node of X is reached by the leaf
  step. So the rows keep their junction entries only. Pruned (an A*-like bound): the entries
  the recurrences use to reach w(X), X of weight at most k, are pairs (S, v) with a subtree T of
  X holding v and the groups S, whose *rest* (X less T, plus v) is connected -- T is v with some
  of the subtrees below v, or a path down to such a v -- and holds v, q and every group not in
  S. So w(X) = w(T) + w(rest) - w(v), and the rest, a connected set holding v and any set R of
  the groups outside S, weighs at least ``exact[R][v]``, the lightest such set. Hence every
  entry on the way to X has ``best[S][v] + exact[R][v] - w(v) <= w(T) + w(rest) - w(v) <= k``
  (its value is at most w(T): the entries below it are kept too, by the same argument); an
  entry failing that test, for some R outside S with ``exact[R]`` known, is on the way to no set
  of at most k cells and is dropped (after the splits and in the leaf step alike). The values
  kept are still weights of connected sets holding S and v, so the answer is exact when at most
  k and k + 1 otherwise. ``exact[R]`` is the plain recurrences' value capped at k + 1
  (a lower bound then too) for the *family* (:func:`_family`): every single group, and with
  seven groups or more every pair, with eight or more every triple holding q too; per node the
  family's values are kept sorted, largest first, so a test stops at the first one apart from
  S or below its threshold. Rows are dicts of the kept junctions: a split touches only the
  nodes both parts kept.
"""

from __future__ import annotations

import heapq

from fillsmt.fillomino.deduce.board import Board, cells_of

MAX_TERMINALS = 10
"""The most groups one call joins (3^10 splits of 1 024 subsets)."""


def lightest_region(board: Board, allow: int, groups: list[int], k: int) -> int:
    """The fewest cells of a connected set of cells in ``allow`` (bit x for cell x) that holds
    every set of ``groups`` (disjoint, each connected, within ``allow``, none touching another),
    counted as the module text says; k + 1 when over k."""
    t = len(groups)
    if t < 2:
        return min(sum(g.bit_count() for g in groups), k + 1)
    if t == 2:
        return _path(board, allow, groups[0], groups[1], k)
    weight, loose = _graph(board, allow, groups)
    _drop_loose(weight, loose, t)
    weight, adj = _contract(weight, loose, t)
    weight, adj, t = _merge_groups(weight, adj, t)
    inf = k + 1
    rows: dict[int, list[int]] = {}
    _rows(rows, [1 << i for i in range(t)], weight, adj, inf)
    if t < 3:
        return rows[1][t - 1]
    q = _root(rows, t)
    _rows(rows, _family(t, q), weight, adj, inf)
    return _bounded(rows, q, t, weight, adj, k, _junctions(adj, t))


def _path(board: Board, allow: int, a: int, b: int, k: int) -> int:
    """Two groups: their cells and the cells between them on a shortest path within ``allow``
    (the lightest set holding both: a path from one to the other, each cell of weight 1), by
    layers grown from ``a`` a shift at a time (:meth:`Board.spread`); k + 1 when over k."""
    base = a.bit_count() + b.bit_count()
    seen = frontier = a
    between = 0
    while frontier and base + between <= k:
        frontier = board.spread(frontier) & allow & ~seen
        if frontier & b:
            return base + between
        seen |= frontier
        between += 1
    return k + 1


def _graph(board: Board, allow: int, groups: list[int]) -> tuple[list[int], list[set[int]]]:
    """The nodes' weights and neighbours: node i < t is group i, then the other cells of
    ``allow`` (module text)."""
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
    neighbours = board.neighbours
    adj: list[set[int]] = [set() for _ in weight]
    for x, v in index.items():
        for y in neighbours[x]:
            u = index.get(y)
            if u is not None and u != v:
                adj[v].add(u)
    return weight, adj


def _drop_loose(weight: list[int], adj: list[set[int]], t: int) -> None:
    """Drop every cell node with one neighbour at most, again and again (a lightest set holding
    the groups has no such node: without it the set is still connected, holds the groups and
    is lighter); a dropped node keeps its weight and has no neighbours."""
    loose = [v for v in range(t, len(weight)) if len(adj[v]) < 2]
    while loose:
        v = loose.pop()
        for u in adj[v]:
            adj[u].discard(v)
            if u >= t and len(adj[u]) == 1:
                loose.append(u)
        adj[v] = set()


Edges = list[tuple[tuple[int, int], ...]]
"""Per node, its neighbours u with the cost of stepping to u: the weight of u and of the
cells passed on the way (:func:`_contract`)."""


def _contract(weight: list[int], adj: list[set[int]], t: int) -> tuple[list[int], Edges]:
    """The graph with every chain of cell nodes of two neighbours each made one edge from the
    node before it to the node after it, costing the chain's weight (a lightest set takes all
    of such a chain or none of it: a part would end in a cell of one neighbour in the set,
    which it then does without), the lighter of two edges between the same two nodes; nodes
    without neighbours left out (but the groups), the rest numbered anew, groups first."""
    inner = [len(a) == 2 and v >= t for v, a in enumerate(adj)]
    kept = [v for v, a in enumerate(adj) if v < t or a and not inner[v]]
    number = {v: i for i, v in enumerate(kept)}
    edges: Edges = []
    for v in kept:
        out: dict[int, int] = {}
        for u in adj[v]:
            cost, before = 0, v
            while inner[u]:  # walk the chain to its far end
                cost += weight[u]
                a, b = adj[u]
                before, u = u, (b if a == before else a)
            if u != v:
                cost += weight[u]
                if cost < out.get(number[u], cost + 1):
                    out[number[u]] = cost
        edges.append(tuple(out.items()))
    return [weight[v] for v in kept], edges


def _merge_groups(weight: list[int], adj: Edges, t: int) -> tuple[list[int], Edges, int]:
    """The contracted graph with groups merged, again and again, while t > 1: a group z with
    one link (an edge of :data:`Edges`: the cells between z and the far node, then that node)
    is merged with its link and the far node (every connected set holding z and another group
    holds them); a group z whose lightest link by its cells between (``inner``) ends in
    another group u is merged with that link and u (some lightest set holds them, module
    text). Groups first in the result, numbered anew; t the groups left."""
    if all(len(adj[z]) > 1 and all(u >= t for u, _ in adj[z]) for z in range(t)):
        return weight, adj, t  # no group has one link, or a link to another group
    n = len(weight)
    inner = [{u: c - weight[u] for u, c in a} for a in adj]
    weight = list(weight)
    group = [v < t for v in range(n)]
    alive = [True] * n
    left = t
    merged = True
    while merged and left > 1:
        merged = False
        for z in range(n):
            links = inner[z]
            if not (group[z] and alive[z] and links) or left < 2:
                continue
            u = _merge_target(links, group)
            if u is None:
                continue
            if group[u]:
                left -= 1
            group[u] = True
            weight[u] += weight[z] + links.pop(u)
            alive[z] = False
            into = inner[u]
            del into[z]
            for y, c in links.items():
                del inner[y][z]
                if c < into.get(y, c + 1):
                    into[y] = inner[y][u] = c
            inner[z] = {}
            merged = True
    order = [v for v in range(n) if alive[v] and group[v]]
    order += [v for v in range(n) if alive[v] and not group[v] and inner[v]]
    number = {v: i for i, v in enumerate(order)}
    edges: Edges = [tuple((number[u], c + weight[u]) for u, c in inner[v].items()) for v in order]
    return [weight[v] for v in order], edges, left


def _merge_target(links: dict[int, int], group: list[bool]) -> int | None:
    """The node a group with ``links`` (far node: cells between) is merged with
    (:func:`_merge_groups`): its only link's far node, or the far group of a lightest link; None
    if neither."""
    if len(links) == 1:
        return next(iter(links))
    least = min(links.values())
    return next((u for u, c in links.items() if c == least and group[u]), None)


def _root(rows: dict[int, list[int]], t: int) -> int:
    """The group the bounded search leaves out of S: the one farthest from the others, summed
    over its single row."""
    return max(range(t), key=lambda i: sum(rows[1 << i][:t]))


def _family(t: int, q: int) -> list[int]:
    """The family of the bounded search's bound beyond the single groups, in an order that puts
    each after its own subsets: none below seven groups, every pair at seven, and every pair
    and every triple holding q from eight on (a larger family bounds more and costs more)."""
    if t < 7:
        return []
    if t < 8:
        return [s for s in range(1, 1 << t) if s.bit_count() == 2]
    return [s for s in range(1, 1 << t) if s.bit_count() == 2 or s.bit_count() == 3 and s >> q & 1]


def _junctions(adj: Edges, t: int) -> set[int]:
    """The nodes where the bounded search splits: the groups and the nodes of three neighbours
    or more (module text)."""
    return {v for v, a in enumerate(adj) if v < t or len(a) > 2}


def _rows(rows: dict[int, list[int]], subsets, weight: list[int], adj: Edges, inf: int) -> None:
    """Add ``best[S]`` (a list over the nodes, values over k cut to ``inf``) to ``rows`` for
    every S of ``subsets`` (each after its own subsets, which ``rows`` holds or which come
    before it): the plain recurrences of the module text."""
    n = len(weight)
    for s in subsets:
        row = [inf] * n
        if s & (s - 1) == 0:
            row[s.bit_length() - 1] = min(weight[s.bit_length() - 1], inf)
        else:
            low = s & -s
            rest = s ^ low
            sub = rest
            while sub:  # S - A = sub, A = S - sub holds S's lowest group: every split once
                a = rows[s ^ sub]
                b = rows[sub]
                row = [r if r <= x + y - w else x + y - w for r, x, y, w in zip(row, a, b, weight)]
                sub = (sub - 1) & rest
            k = inf - 1
            for v in range(n):
                if row[v] > k:
                    row[v] = inf
        _relax(row, adj, inf)
        rows[s] = row


def _bounded(
    exact: dict[int, list[int]], q: int, t: int, weight: list[int], adj: Edges, k: int, junctions: set[int]
) -> int:
    """The bounded search (module text): ``best[all but q][q]`` over the entries that pass the
    family's bound, rows as dicts of their nodes in ``junctions`` (where splits happen);
    ``exact``: the family's rows."""
    inf = k + 1
    family = list(exact)
    keyed = [[c << t | r for c in exact[r]] for r in family]
    order = [sorted(col, reverse=True) for col in zip(*keyed)]  # per node: value << t | R

    def kept(v: int, x: int, s: int) -> bool:
        """Whether no family set R apart from s has exact[R][v] + x - w(v) > k."""
        limit = (k - x + weight[v] + 1) << t
        for key in order[v]:
            if key < limit:
                return True
            if not key & s:
                return False
        return True

    others = ((1 << t) - 1) ^ (1 << q)
    rows: dict[int, dict[int, int]] = {}
    for s in range(1, others + 1):
        if s >> q & 1:
            continue
        known = exact.get(s)
        if known is not None:
            rows[s] = {v: x for v, x in enumerate(known) if x <= k and v in junctions and kept(v, x, s)}
            continue
        row: dict[int, int] = {}
        low = s & -s
        rest = s ^ low
        sub = rest
        while sub:
            a = rows[s ^ sub]
            if a:
                b = rows[sub]
                if b:
                    if len(b) < len(a):
                        a, b = b, a
                    for v, x in a.items():
                        y = b.get(v)
                        if y is not None:
                            x += y - weight[v]
                            if x < row.get(v, inf):
                                row[v] = x
            sub = (sub - 1) & rest
        row = {v: x for v, x in row.items() if kept(v, x, s)}
        if row:  # the shortest-path pass over the kept entries, dropping what fails the bound
            heap = [(x, v) for v, x in row.items()]
            heapq.heapify(heap)
            while heap:
                x, v = heapq.heappop(heap)
                if row[v] != x:
                    continue
                for u, c in adj[v]:
                    y = x + c
                    if y < row.get(u, inf) and kept(u, y, s):
                        row[u] = y
                        heapq.heappush(heap, (y, u))
        rows[s] = {v: x for v, x in row.items() if v in junctions}
    return rows[others].get(q, inf)


def _relax(row: list[int], adj: Edges, inf: int) -> None:
    """Shortest paths from the row's values (a node's cost: its predecessor's plus the step's,
    :data:`Edges`), costs below ``inf`` only: a bucket queue over the small integer costs."""
    buckets: list[list[int]] = [[] for _ in range(inf + 1)]
    for v, c in enumerate(row):
        if c < inf:
            buckets[c].append(v)
    for c in range(inf):
        for v in buckets[c]:
            if row[v] != c:
                continue
            for u, step in adj[v]:
                nc = c + step
                if nc < row[u]:
                    row[u] = nc
                    buckets[nc].append(u)


def fits(board: Board, allow: int, groups: list[int], k: int) -> bool:
    """Whether one region of at most k cells may hold every group of ``groups`` (module text):
    from three groups on, at once when :func:`joined` finds such a set; else by
    :func:`lightest_region` (whose two-group case is :func:`joined`'s own search, exact there,
    so it is not run twice)."""
    if len(groups) > 2 and joined(board, allow, groups, k):
        return True
    return lightest_region(board, allow, groups, k) <= k


def joined(board: Board, allow: int, groups: list[int], k: int) -> bool:
    """Whether a connected set of at most k cells of ``allow`` holding every group is found by
    joining the nearest group to what is joined so far, one shortest path at a time (a
    heuristic: True proves that such a set exists, False proves nothing). A group a path
    crosses is taken whole (it is connected, so the set stays connected)."""
    tree = groups[0]
    rest = list(groups[1:])
    while rest:
        layers = [tree]
        seen = tree
        hit = 0
        while not hit:
            nxt = board.spread(layers[-1]) & allow & ~seen
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
            step = board.spread(cell) & layer
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
