"""Reasoning for the search only: not in :data:`~.fixpoint.ALL_RULES`, so
``deduce``, ``explain``, ``hint`` and the rating see none of it.

``capacity``
    Count the cells the regions holding a fixed cell must take. Cells fixed to different values
    lie in different regions; two k-groups G, H whose cells are at least d steps apart can share
    a region only if |G| + |H| + (d - 1) <= k (a path between them adds d - 1 cells of its own).
    So k-groups that pairwise cannot share a region lie in as many distinct regions of k cells
    each (a complete group can share with nothing), and the regions holding a fixed cell take at
    least ``sum_k k * r_k`` cells, r_k the size of any such set of k-groups (found greedily: a
    smaller set only weakens the bound). The *slack* is the number of cells left, so every region
    without a fixed cell has at most ``slack`` cells. Hence (a) a value no cell is fixed to
    holds only in such regions: it is removed everywhere when it exceeds the slack; (b) a value k
    some cell is fixed to that exceeds the slack holds only in regions with a k-group: a cell
    outside every incomplete k-group's reach (as in ``area``) loses k. A negative slack is a
    contradiction. Sound: every removal follows from the counting above, which holds in every
    solution.

    *Joins* (part of the same rule, for such a k): two incomplete k-groups G, H that could share
    a region *must* share one when kept apart they would push the count past the grid (the
    bound computed again with G and H taken as distinct). Their region then holds a path between
    them and, for each of its cells x, a path from x to that path, so x costs at least
    ``dG(m) + dH(m) - size(m) + (path from m to x)`` for some node m, counted as ``area``'s
    budget search counts (cells and k-groups as nodes); cells whose least such count exceeds k
    leave G's and H's reach. No region can join G and H within k cells: a contradiction. (Two
    groups whose sizes and distance leave no cell to spare must join along a shortest path.)

    *Steiner count* (where the state's ``steiner`` says; the strong search sets it in proofs and
    in its second phase): when the pairwise count puts every incomplete k-group in one region (it counts
    one of them) though there are two or more, they may still need two: one region holding them
    all holds a connected set of cells allowing k through all of them, whose fewest cells are an
    exact node-weighted Steiner tree (:mod:`.steiner`, over at most ten of them: a subset no
    region holds is enough). When that exceeds k, the incomplete groups lie in at least two
    regions, and the count of k's regions is one more. The tree is computed only where the k
    cells more would matter (the slack falls below the largest value any cell allows), after a
    cheap heuristic tree (nearest group joined first) has not already found a set of k cells;
    a state forked from one that found the groups apart keeps the finding while each of those
    groups' cells lies in an incomplete group (each such group holds the old one's cells, and
    its cells allowing k are fewer: a region holding them all holds the old tree). Sound: the
    count counts distinct regions of k cells each in every solution of the state. (Ten single
    k-clues of which every pair, even every nine, fit in one region of k cells may need k + 1
    cells all together: two regions.)

    Which pairs must join (:func:`must_join`) is asked at every node where k
    exceeds the slack, of every pair of incomplete k-groups: the pairs that may share a region
    are kept per group as bit sets (:func:`share_rows`, with the groups), the count with a pair
    seeded is taken on them, and a pair whose count could not exceed the room even if every
    group that may share with neither of the two were counted is passed over without counting
    (most pairs, where many groups are open).

    The shared region's cells are remembered (``State.joins``) with the two groups' noted
    budget searches (``State.reach``) and reused while both are unchanged: its three searches
    look only at cells within G's reach (a node m starts at dG(m) + dH(m) - size(m) >= dG(m),
    and a path from m adds what G's own search would add) and H's, and at their neighbours,
    which are what those noted searches watch; so while neither is redone, the three searches
    would find the same cells again.
"""

from __future__ import annotations

from fillsmt.fillomino.deduce.board import Contradiction, Group, Groups, recall, remember
from fillsmt.fillomino.deduce.masks import bit, up_to, values_of
from fillsmt.fillomino.deduce.searches import budget_layers, layered
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.deduce.steiner import MAX_TERMINALS, fits

SEARCH_RULES: tuple[str, ...] = ("capacity",)
"""The search-only rules, in the order a search node applies them after the fixpoint."""


def _may_share(g: Group, h: Group, k: int, width: int) -> bool:
    """Whether two distinct k-groups may lie in one region: |g| + |h| + (d - 1) <= k, d the
    fewest steps between a cell of g and a cell of h (grid distance, walls ignored). Distinct
    groups are at least one step apart, and the search for a pair of cells within the allowed
    distance stops at the first one."""
    most = k + 1 - g.size - h.size
    if most < 1:
        return False
    near = [divmod(y, width) for y in h.cells]
    for x in g.cells:
        rx, cx = divmod(x, width)
        for ry, cy in near:
            if abs(rx - ry) + abs(cx - cy) <= most:
                return True
    return False


def _share(state: State, found: Groups, i: int, j: int, k: int) -> bool:
    """:func:`_may_share` for k-groups i and j, kept with the board (a function of the two
    groups alone, symmetric)."""
    masks = found.masks
    a, b = masks[i], masks[j]
    key = ("share", k, a, b) if a < b else ("share", k, b, a)
    board = state.board
    share = recall(board, key)
    if share is None:
        share = remember(board, key, _may_share(found.groups[i], found.groups[j], k, board.width))
    return share


def distinct_regions(state: State, k: int, seed: tuple[int, ...] = ()) -> int:
    """A lower bound on the number of regions of k's that hold a cell fixed to k (module
    text); with ``seed``, incomplete groups (indices) assumed to lie in distinct regions, the
    bound under that assumption. A function of the k-groups alone, so kept with them."""
    return len(counted_groups(state, k, seed))


def counted_groups(state: State, k: int, seed: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The k-groups (indices) :func:`distinct_regions` counts: every complete one, and a set of
    incomplete ones that pairwise cannot share a region (``seed`` first, then greedily). Each
    lies in a region of its own."""
    found = state.groups(k)
    memo = found.memo
    key = ("regions", seed)
    counted = memo.get(key)
    if counted is None:
        apart = list(seed)
        if seed:  # asked of every pair by must_join, which has the share rows: count on them
            rows = share_rows(state, found, k)[0]
            taken = 0
            for j in seed:
                taken |= 1 << j
            for i in found.incomplete:
                if not (taken >> i & 1 or rows[i] & taken):
                    apart.append(i)
                    taken |= 1 << i
        else:  # every node's count: ask only about the groups counted so far
            for i in found.incomplete:
                for j in apart:
                    if _share(state, found, i, j, k):
                        break
                else:  # may share a region with none counted so far
                    apart.append(i)
        counted = memo[key] = found.complete + tuple(apart)
    return counted


def share_rows(state: State, found: Groups, k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per k-group (index), the incomplete k-groups it may share a region with (bit j for group
    j, :func:`_share`; none for a complete group), and the *far* ones, the other incomplete
    groups it may not share one with. Kept with the groups. Two groups whose sizes leave room
    for a path across the whole grid (height + width - 2 steps, the farthest two cells are
    apart) may share one without looking further."""
    rows = found.memo.get("share rows")
    if rows is None:
        out = [0] * len(found.groups)
        open_ = found.incomplete
        board = state.board
        most = k + 1 - max(1, board.height + board.width - 2)  # |g| + |h| at most this: they may share
        sizes = [g.size for g in found.groups]
        every = 0
        for a, i in enumerate(open_):
            every |= 1 << i
            for j in open_[a + 1 :]:
                if sizes[i] + sizes[j] <= most or _share(state, found, i, j, k):
                    out[i] |= 1 << j
                    out[j] |= 1 << i
        far = tuple(every & ~(near | 1 << i) if every >> i & 1 else 0 for i, near in enumerate(out))
        rows = found.memo["share rows"] = (tuple(out), far)
    return rows


def capacity(state: State) -> None:
    """Apply ``capacity`` and ``joins`` (module text) once."""
    regions = {k: distinct_regions(state, k) for k in values_of(state.anchored)}
    taken = sum(k * r for k, r in regions.items())
    n = len(state.dom)
    room = n - taken
    if state.steiner:
        top = 0  # the largest value any cell allows, once asked for
        for k in sorted(regions, reverse=True):
            found = state.groups(k)
            if len(found.incomplete) < 2 or regions[k] - len(found.complete) != 1:
                continue  # the pairwise count has two regions of them already, or one group
            if not top:
                for m in state.dom:
                    top |= m
                top = top.bit_length() - 1
            if room - k < top and _steiner_apart(state, k, found):
                regions[k] += 1
                room -= k
    if room < 0:
        raise Contradiction(f"the regions around the fixed cells need {taken} cells, more than the grid's {n}")
    too_big = ~up_to(room)
    unanchored = too_big & ~state.anchored
    dom = state.dom
    if unanchored & ~state.gone:  # not removed from every cell before (domains only shrink)
        for x, m in enumerate(dom):
            if m & unanchored:
                state.restrict(x, ~unanchored, "capacity")
        state.gone |= unanchored
    for k in values_of(too_big & state.anchored):
        bk = bit(k)
        found = state.groups(k)
        reach = {i: state.reach(k, found, i).cells for i in found.incomplete}
        _joins(state, k, found, reach, n - (taken - k * regions[k]))
        reached = 0
        for cells in reach.values():
            reached |= cells
        for x in values_of(state.allowing(k) & ~reached):
            if dom[x] != bk:
                state.restrict(x, ~bk, "capacity")


def _steiner_apart(state: State, k: int, found: Groups) -> bool:
    """The Steiner count (module text): whether the incomplete k-groups (``found``, two or
    more), which the pairwise count puts in one region, need two: no region of k cells holds
    them all (an exact Steiner tree, :mod:`.steiner`, over at most
    :data:`~.steiner.MAX_TERMINALS` of them), or a state this one was forked from found so for
    groups each of which lies in an incomplete group here."""
    open_ = found.incomplete
    proven = state.apart.get(k)
    if proven is not None:
        meets = [i for i, gm in enumerate(found.masks) if gm & proven]
        if all(not found.groups[i].complete for i in meets):
            return True
    terminals = [found.masks[i] for i in open_][:MAX_TERMINALS]
    allow = state.allowing(k)
    key = ("steiner", k, found.cells, allow)
    board = state.board
    apart = recall(board, key)
    if apart is None:
        apart = remember(board, key, not fits(board, allow, terminals, k))
    if apart:
        union = 0
        for gm in terminals:
            union |= gm
        state.apart[k] = union
    return apart


def _joins(state: State, k: int, found, reach: dict[int, int], room: int) -> None:
    """Narrow ``reach`` (per incomplete k-group, the cells its region may hold) for every pair
    of k-groups that must share a region (:func:`must_join`)."""
    for i, j in must_join(state, k, found, room):
        inside = _shared_region_cells(state, k, found, i, j)
        reach[i] &= inside
        reach[j] &= inside


def must_join(state: State, k: int, found: Groups, room: int) -> list[tuple[int, int]]:
    """The pairs of incomplete k-groups (indices, in order) that may share a region and must:
    kept apart, they would need more than ``room`` cells (the grid's minus what the regions of
    other values take), as :func:`distinct_regions` counts with the two of them as its seed.
    That count is the complete groups, the two, and only groups that may share a region with
    neither (their ``far`` groups, :func:`share_rows`): a pair whose common far groups all fit
    in ``room`` (``spare``) may lie apart, and is passed over without counting. A function of
    the groups and ``room``, so kept with the groups."""
    open_ = found.incomplete
    if len(open_) < 2:
        return []
    key = ("must join", room)
    pairs = found.memo.get(key)
    if pairs is None:
        rows, far = share_rows(state, found, k)
        spare = room // k - len(found.complete) - 2
        pairs = []
        for i in open_:
            far_i = far[i]
            if far_i.bit_count() <= spare:
                continue  # every pair with i may lie apart (above)
            later = rows[i] & -(2 << i)  # the groups after i that may share a region with it
            while later:
                low = later & -later
                later ^= low
                j = low.bit_length() - 1
                if (far_i & far[j]).bit_count() > spare and k * distinct_regions(state, k, (i, j)) > room:
                    pairs.append((i, j))
        found.memo[key] = pairs
    return pairs


def _shared_region_cells(state: State, k: int, found, i: int, j: int) -> int:
    """The cells (a set, bit x for cell x) a region of k cells holding groups i and j may hold.
    Such a region holds a path between them and, for each of its cells x, a path from x to that
    path; counted as in :func:`budget_layers` (nodes: cells and k-groups), a node m of the first
    path costs at least dI(m) + dJ(m) - size(m), and x that plus the path from m. Cells past k
    are out."""
    groups = found.groups
    key = (k, groups[i].cells, groups[j].cells)
    reach_i, reach_j = state.reach(k, found, i), state.reach(k, found, j)
    origins = (reach_i.first, reach_j.first)
    kept = state.joins.get(key)
    if kept is not None and kept[0] is origins[0] and kept[1] is origins[1]:
        return kept[2]
    di, dj = reach_i.layers, reach_j.layers  # each group's budget search, live (State.reach)
    assert di is not None and dj is not None
    if not layered(di) & found.masks[j]:
        raise Contradiction(
            f"the {k}s at {state.board.where(groups[i].cells[0])} and "
            f"{state.board.where(groups[j].cells[0])} must share a region but "
            f"no region of {k} cells joins them"
        )
    start = [0] * (k + 1)
    plain = ~found.cells  # nodes that are single cells: size 1
    for d in range(1, k + 1):
        here = di[d] & plain
        if here:
            for e in range(1, k + 2 - d):  # d + e - 1 <= k
                both = here & dj[e]
                if both:
                    start[d + e - 1] |= both
    for g, cells in zip(groups, found.masks):  # group nodes: their cells share one layer
        d = _layer_of(di, cells)
        e = _layer_of(dj, cells) if d else 0
        if e and d + e - g.size <= k:
            start[d + e - g.size] |= cells
    inside = layered(budget_layers(state, k, found, start=start))
    state.joins[key] = (*origins, inside)
    return inside


def _layer_of(layers: list[int], cells: int) -> int:
    """The count of the layer holding ``cells`` (0: none)."""
    for d, layer in enumerate(layers):
        if layer & cells:
            return d
    return 0
