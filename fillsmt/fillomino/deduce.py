"""Deduction rules for Fillomino: shrink every cell's set of possible numbers by sound logic.

:func:`deduce` starts from a domain per cell (a clue's value; otherwise 1 up to a sound bound)
and applies the rules below until none changes anything (a fixpoint). A cell whose domain has
one value is *fixed*. Every rule is **sound for the general variant**, where a region may carry
few clues or none at all: a rule removes a value from a cell only when no solution writes that
value there. So the deduced domains contain every solution, the SMT encoders may use them as
bounds, and an empty domain proves that the puzzle has no solution.

Words used below. A *k-group* is a maximal orthogonally connected set of cells fixed to k; in
every solution it lies inside one region of k's (equal neighbours share a region), so that
region holds at least the group's cells. A k-group of k cells is *complete* (it is the whole
region); a smaller one is *incomplete*. Two facts are always checked, whatever the rules: a
k-group of more than k cells, or an incomplete k-group with no neighbour allowing k, proves
that there is no solution.

The rules (names as in :data:`ALL_RULES`, applied in that order in every round):

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

Bookkeeping that keeps a round cheap when domains hold hundreds of values (none of it changes
the fixpoint, only the work): domains are bit masks; the first five rules run per value, only
for values some cell is fixed to (the other values are left to the last three), and only when a
cell lost that value or was fixed to it since the value was last looked at. A group's budget
search and a free area found large enough are remembered with the cells they looked at (those
cells and their neighbours) and redone only once one of them loses the value or is fixed to it.
A complete group whose neighbours have lost its value is not looked at again.
``neighbour-support`` and ``neighbour-fit`` re-check only cells near a change, and ``size-cap``
sweeps only after a change.

The module is pure: a puzzle in, a :class:`Deduction` out.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from fillsmt.errors import InputError
from fillsmt.fillomino.model import Grid, Puzzle

ALL_RULES: tuple[str, ...] = (
    "complete-group", "join-overflow", "single-exit", "area", "forced-cell",
    "neighbour-support", "neighbour-fit", "size-cap",
)
"""Every rule, in the order a round applies them."""

Mask = int
"""A set of values as a bit mask: bit v is set when value v is allowed (bit 0 is never set)."""


@dataclass(frozen=True)
class Deduction:
    """What the rules proved about a puzzle.

    ``domains[x]`` is the set of values cell ``x = row * width + col`` may still hold. After a
    contradiction the domains are those at the moment it was found (one may be empty).
    ``fixed_by_rule`` counts the cells each rule left with one value (clues not included);
    ``removed_by_rule`` the (cell, value) pairs each rule removed.
    """

    domains: tuple[frozenset[int], ...]
    fixed_by_rule: dict[str, int]
    removed_by_rule: dict[str, int]
    contradiction: str | None
    rounds: int
    height: int
    width: int

    @property
    def fixed_count(self) -> int:
        """Cells with exactly one possible value, clues included."""
        return sum(1 for d in self.domains if len(d) == 1)

    @property
    def solved(self) -> bool:
        """Every cell is fixed and no contradiction was found."""
        return self.contradiction is None and self.fixed_count == len(self.domains)

    def filled_puzzle(self, puzzle: Puzzle) -> Puzzle:
        """``puzzle`` with every fixed cell written in as a clue."""
        cells = tuple(
            tuple(_only(self.domains[r * self.width + c]) for c in range(self.width))
            for r in range(self.height))
        return Puzzle(puzzle.height, puzzle.width, cells, puzzle.source)

    def grid(self) -> Grid | None:
        """The solved grid, or None unless :attr:`solved`."""
        if not self.solved:
            return None
        return tuple(
            tuple(next(iter(self.domains[r * self.width + c])) for c in range(self.width))
            for r in range(self.height))


def _only(domain: frozenset[int]) -> int:
    return next(iter(domain)) if len(domain) == 1 else 0


# --- bit masks ----------------------------------------------------------------------------------

def _bit(v: int) -> Mask:
    return 1 << v


def _up_to(v: int) -> Mask:
    """The values 1..v."""
    return (2 << v) - 2 if v >= 1 else 0


def _is_single(m: Mask) -> bool:
    return m != 0 and m & (m - 1) == 0


def _values(m: Mask) -> Iterator[int]:
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def _describe(m: Mask) -> str:
    values = list(_values(m))
    shown = ", ".join(map(str, values[:8])) + (", …" if len(values) > 8 else "")
    return f"{'value' if len(values) == 1 else 'values'} {shown}"


# --- the board, the groups, and the state of one run --------------------------------------------

@dataclass(frozen=True)
class _Board:
    height: int
    width: int
    neighbours: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, height: int, width: int) -> _Board:
        def around(x: int) -> tuple[int, ...]:
            r, c = divmod(x, width)
            cand = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            return tuple(rr * width + cc for rr, cc in cand if 0 <= rr < height and 0 <= cc < width)
        return cls(height, width, tuple(around(x) for x in range(height * width)))

    def where(self, x: int) -> str:
        r, c = divmod(x, self.width)
        return f"row {r + 1}, column {c + 1}"


class _Contradiction(Exception):
    """The puzzle has no solution; the message says why."""


@dataclass(frozen=True)
class _Group:
    """A k-group and its border (the outside neighbours of its cells)."""

    value: int
    cells: tuple[int, ...]
    border: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def complete(self) -> bool:
        return len(self.cells) == self.value

    def exits(self, dom: list[Mask]) -> list[int]:
        """The border cells that still allow the group's value."""
        bk = _bit(self.value)
        return [y for y in self.border if dom[y] & bk]


@dataclass(frozen=True)
class _Groups:
    """All k-groups, and which group each cell fixed to k belongs to."""

    groups: tuple[_Group, ...]
    group_of: dict[int, int]

    @property
    def incomplete(self) -> list[int]:
        """The indices of the incomplete groups."""
        return [i for i, g in enumerate(self.groups) if not g.complete]


def _find_groups(board: _Board, dom: list[Mask], k: int, fixed: Iterable[int]) -> _Groups:
    """The k-groups (``fixed``: the cells fixed to k); a group of more than k cells is a
    contradiction."""
    bk = _bit(k)
    group_of: dict[int, int] = {}
    groups = []
    for start in sorted(fixed):
        if start in group_of:
            continue
        index = len(groups)
        group_of[start] = index
        cells, border, stack = [start], set(), [start]
        while stack:
            x = stack.pop()
            for y in board.neighbours[x]:
                if dom[y] != bk:
                    border.add(y)
                elif y not in group_of:
                    group_of[y] = index
                    cells.append(y)
                    stack.append(y)
        if len(cells) > k:
            raise _Contradiction(f"the {k}s at {board.where(min(cells))} form a group of "
                                 f"{len(cells)} cells, more than {k}")
        groups.append(_Group(k, tuple(sorted(cells)), tuple(sorted(border))))
    return _Groups(tuple(groups), group_of)


def _stuck(board: _Board, g: _Group) -> _Contradiction:
    return _Contradiction(f"the group of {g.value}s at {board.where(g.cells[0])} has {g.size} "
                          f"of {g.value} cells and no neighbour can join it")


Reach = dict[int, int]
"""A budget search's result: node -> least region size (see :func:`_budget_distances`)."""

Cells = frozenset[int]


@dataclass(eq=False)
class _Noted:
    """A result about ``cells`` that depends only on whether some cells (the watched ones)
    allow, or are fixed to, one value. It stays ``valid`` until one of them loses the value or
    is fixed to it; ``analysed`` says forced-cell has looked at it."""

    cells: Cells
    valid: bool = True
    analysed: bool = False


class _State:
    """The domains as masks, the statistics, and the bookkeeping of what changed."""

    def __init__(self, board: _Board, dom: list[Mask], rules: Sequence[str]):
        self.board = board
        self.dom = dom
        self.fixed_by_rule = {rule: 0 for rule in rules}
        self.removed_by_rule = {rule: 0 for rule in rules}
        self.fixed: dict[int, list[int]] = {}
        for x, m in enumerate(dom):
            if _is_single(m):
                self.fixed.setdefault(m.bit_length() - 1, []).append(x)
        self.anchored: Mask = sum(_bit(k) for k in self.fixed)
        """The values some cell is fixed to."""
        self.dirty: Mask = self.anchored
        """Values that lost a cell or gained a fixed cell since they were last looked at."""
        self.rounds = 0
        self.changed_cells: list[int] = []
        """Every cell whose domain shrank, in order (a cell may appear many times)."""
        self.seen_upto: dict[str, int] = {}
        """Per grid rule: how much of ``changed_cells`` it has taken into account."""
        self._watchers: dict[int, dict[int, list[_Noted]]] = {}
        """Per value: the noted results that a change of each cell (for that value) ends."""
        self.closed: set[tuple[int, ...]] = set()
        """Complete groups none of whose neighbours allows their value any more (for good)."""
        self._regroup: Mask = 0
        self._groups: dict[int, _Groups] = {}
        self._reach: dict[tuple[int, tuple[int, ...]], _Noted] = {}
        self._roomy: dict[int, dict[int, _Noted]] = {}

    def restrict(self, x: int, allowed: Mask, rule: str) -> None:
        """Keep only ``allowed`` values in cell x; an empty domain is a contradiction."""
        old = self.dom[x]
        new = old & allowed
        if new == old:
            return
        removed = old & ~new
        self.dom[x] = new
        self.changed_cells.append(x)
        self.dirty |= removed
        self.removed_by_rule[rule] += removed.bit_count()
        if new == 0:
            raise _Contradiction(f"{self.board.where(x)} has no possible value left "
                                 f"({rule} removed {_describe(removed)})")
        touched = removed
        if _is_single(new):
            k = new.bit_length() - 1
            self.fixed_by_rule[rule] += 1
            self.fixed.setdefault(k, []).append(x)
            self.anchored |= new
            self.dirty |= new
            self._regroup |= new
            touched |= new
        for k in _values(touched & self.anchored):
            for noted in self._watchers.get(k, {}).pop(x, ()):
                noted.valid = False

    def groups(self, k: int) -> _Groups:
        """The k-groups (cached until a cell is fixed to k; borders do not depend on domains)."""
        if k not in self._groups or self._regroup & _bit(k):
            self._groups[k] = _find_groups(self.board, self.dom, k, self.fixed.get(k, ()))
            self._regroup &= ~_bit(k)
        return self._groups[k]

    def note(self, k: int, cells: Cells) -> _Noted:
        """A result about ``cells`` that depends on value k in them and their neighbours."""
        noted = _Noted(cells)
        watchers = self._watchers.setdefault(k, {})
        for y in cells.union(*(self.board.neighbours[x] for x in cells)):
            watchers.setdefault(y, []).append(noted)
        return noted

    def reach(self, k: int, found: _Groups, i: int) -> _Noted:
        """The cells group i can reach within its budget (see :func:`_budget_distances`).

        Remembered, and redone only when a cell the search looked at (those cells and their
        neighbours) has lost k or been fixed to k since: otherwise it would find the same.
        ``found`` must be the current k-groups.
        """
        key = (k, found.groups[i].cells)
        kept = self._reach.get(key)
        if kept is None or not kept.valid:
            reach = _budget_distances(self, k, found, [i])
            kept = self._reach[key] = self.note(k, _reach_cells(found, reach, len(self.dom)))
        return kept

    def roomy(self, k: int) -> dict[int, _Noted]:
        """Per cell: a noted free area of at least k cells around it (see ``area``)."""
        return self._roomy.setdefault(k, {})


# --- rules run per value (only for values some cell is fixed to) --------------------------------

def _complete_group(state: _State, k: int) -> None:
    """A complete k-group is a whole region: remove k from its outside neighbours."""
    for g in state.groups(k).groups:
        if g.complete and g.cells not in state.closed:
            for y in g.exits(state.dom):
                state.restrict(y, ~_bit(k), "complete-group")
            state.closed.add(g.cells)


def _join_overflow(state: _State, k: int) -> None:
    """A cell holding k merges all k-groups it touches: 1 + their sizes must not exceed k."""
    found = state.groups(k)
    groups, group_of = found.groups, found.group_of
    open_groups = [g for g in groups if g.cells not in state.closed]
    candidates = sorted({y for g in open_groups for y in g.exits(state.dom)})
    for y in candidates:
        touched = {group_of[z] for z in state.board.neighbours[y] if z in group_of}
        if 1 + sum(groups[i].size for i in touched) > k:
            state.restrict(y, ~_bit(k), "join-overflow")


def _single_exit(state: _State, k: int) -> None:
    """An incomplete k-group with one neighbour allowing k must grow into it."""
    found = state.groups(k)
    for i in found.incomplete:
        exits = found.groups[i].exits(state.dom)
        if not exits:
            raise _stuck(state.board, found.groups[i])
        if len(exits) == 1:
            state.restrict(exits[0], _bit(k), "single-exit")


def _area(state: _State, k: int) -> None:
    """Remove k from a cell that lies in no possible region of k's (see the module text)."""
    bk = _bit(k)
    found = state.groups(k)
    reached: set[int] = set()
    for i in found.incomplete:
        reached |= state.reach(k, found, i).cells
    roomy = state.roomy(k)
    cramped: set[int] = set()
    unreached = [x for x, m in enumerate(state.dom) if m & bk and m != bk and x not in reached]
    for x in unreached:
        noted = roomy.get(x)
        if x not in cramped and (noted is None or not noted.valid):
            _sort_free_area(state, k, x, roomy, cramped)
        if x in cramped:
            state.restrict(x, ~bk, "area")


def _forced_cell(state: _State, k: int) -> None:
    """Fix to k every cell without which an incomplete k-group cannot reach k cells."""
    bk = _bit(k)
    done: set[tuple[int, ...]] = set()
    first = state.groups(k)
    for start in [first.groups[i].cells[0] for i in first.incomplete]:
        found = state.groups(k)  # afresh: a cell fixed below may have joined groups
        i = found.group_of[start]
        g = found.groups[i]
        if g.complete or g.cells in done:
            continue
        done.add(g.cells)
        reach = state.reach(k, found, i)
        cells = reach.cells
        if reach.analysed:
            continue  # nothing it depends on has changed since forced-cell last looked
        reach.analysed = True
        if len(cells) < k:
            raise _Contradiction(f"the group of {k}s at {state.board.where(g.cells[0])} can reach "
                                 f"only {len(cells)} cells, fewer than {k}")
        cut = _cut_off_counts(state.board, cells, g.cells[0])
        for e in sorted(cells):
            if state.dom[e] != bk and len(cells) - 1 - cut.get(e, 0) < k:
                state.restrict(e, bk, "forced-cell")


# --- the searches behind area and forced-cell ---------------------------------------------------

def _budget_distances(state: _State, k: int, found: _Groups, sources: list[int]) -> Reach:
    """Least cell count of a region of k's joining a source group to each node, where <= k.

    Nodes are the k-groups (key: number of cells + group index) and the other cells allowing k
    (key: the cell). Entering a cell costs 1, entering a group costs its size, and a source
    group starts at its size: along a simple path the nodes' cells are distinct and all lie in
    the region, so the cost is a lower bound on the region's size. ``found`` may predate some
    cells being fixed to k: such a cell then counts as an ordinary cell, which only lowers the
    costs, so the bound stays sound.
    """
    bk = _bit(k)
    dom, nbrs = state.dom, state.board.neighbours
    groups, group_of = found.groups, found.group_of
    base = len(dom)
    dist = {base + i: groups[i].size for i in sources}
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


def _reach_cells(found: _Groups, reach: Reach, base: int) -> set[int]:
    """The cells of the nodes of a budget search."""
    out: set[int] = set()
    for node in reach:
        if node >= base:
            out.update(found.groups[node - base].cells)
        else:
            out.add(node)
    return out


def _sort_free_area(state: _State, k: int, start: int, roomy: dict[int, _Noted],
                    cramped: set[int]) -> None:
    """Explore the free area of ``start`` for k (cells that allow k, are not fixed to k and
    touch no cell fixed to k). Cells of an area of at least k cells go to ``roomy``, noted with
    the k cells seen (the search stops there), the others to ``cramped``."""
    bk = _bit(k)
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


def _cut_off_counts(board: _Board, inside: set[int], root: int) -> dict[int, int]:
    """For each cell e of ``inside``: how many other cells of ``inside`` lose every path to
    ``root`` when e is removed (articulation points with subtree sizes, iterative DFS)."""
    nbrs = board.neighbours
    disc = {root: 0}
    low = {root: 0}
    size = {root: 1}
    parent: dict[int, int] = {}
    cut: dict[int, int] = {}
    stack = [(root, iter(nbrs[root]))]
    while stack:
        u, it = stack[-1]
        for v in it:
            if v not in inside:
                continue
            if v not in disc:
                disc[v] = low[v] = len(disc)
                size[v] = 1
                parent[v] = u
                stack.append((v, iter(nbrs[v])))
                break
            if v != parent.get(u):
                low[u] = min(low[u], disc[v])
        else:
            stack.pop()
            p = parent.get(u)
            if p is not None:
                size[p] += size[u]
                low[p] = min(low[p], low[u])
                if low[u] >= disc[p]:
                    cut[p] = cut.get(p, 0) + size[u]
    return cut


# --- rules run over the whole grid each round ---------------------------------------------------

def _near_changes(state: _State, rule: str, steps: int) -> Iterable[int]:
    """The cells within ``steps`` of a cell changed since ``rule`` last ran (all, at first)."""
    start = state.seen_upto.get(rule)
    state.seen_upto[rule] = len(state.changed_cells)
    if start is None:
        return range(len(state.dom))
    ring = set(state.changed_cells[start:])
    for _ in range(steps):
        ring.update(*(state.board.neighbours[x] for x in list(ring)))
    return sorted(ring)


def _neighbour_support(state: _State) -> None:
    """Keep a value k > 1 only where some neighbour allows k too."""
    dom, nbrs = state.dom, state.board.neighbours
    for x in _near_changes(state, "neighbour-support", 1):
        support = _bit(1)
        for y in nbrs[x]:
            support |= dom[y]
        if dom[x] & ~support:
            state.restrict(x, support, "neighbour-support")


def _neighbour_fit(state: _State) -> None:
    """Keep k at an unfixed cell x only where every neighbour has a value that fits with it."""
    dom, nbrs = state.dom, state.board.neighbours
    one = _bit(1)
    for x in _near_changes(state, "neighbour-fit", 2):
        if _is_single(dom[x]):
            continue
        allowed = ~0
        for y in nbrs[x]:
            helped = one
            for z in nbrs[y]:
                if z != x:
                    helped |= dom[z]
            alone = dom[y] & helped  # the values y can hold without x in its region
            fits_one = one if alone & ~one else 0
            fits_more = ~one if alone else dom[y] & ~one
            allowed &= fits_one | fits_more
        if dom[x] & ~allowed:
            state.restrict(x, allowed, "neighbour-fit")


def _size_cap(state: _State) -> None:
    """Cap the values no cell is fixed to by the size of the area that could hold them.

    For such a value k, let T_k be the unfixed cells whose largest such value is >= k. A region
    of k's lies inside T_k, so x keeps k only if k <= cap(x), the largest t with x in T_t and
    |component of x in T_t| >= t. T_t only grows as t falls, so all caps come from one sweep.
    """
    if state.seen_upto.get("size-cap") == len(state.changed_cells):
        return  # nothing changed since the last sweep
    state.seen_upto["size-cap"] = len(state.changed_cells)
    dom = state.dom
    free = ~state.anchored
    top = [(m & free).bit_length() - 1 if not _is_single(m) else -1 for m in dom]
    for x, cap in _threshold_caps(state.board, top).items():
        if cap < top[x]:
            state.restrict(x, ~(free & ~_up_to(cap)), "size-cap")


def _threshold_caps(board: _Board, top: list[int]) -> dict[int, int]:
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


# --- the fixpoint -------------------------------------------------------------------------------

_VALUE_RULES: dict[str, Callable[[_State, int], None]] = {
    "complete-group": _complete_group,
    "join-overflow": _join_overflow,
    "single-exit": _single_exit,
    "area": _area,
    "forced-cell": _forced_cell,
}
_GRID_RULES: dict[str, Callable[[_State], None]] = {
    "neighbour-support": _neighbour_support,
    "neighbour-fit": _neighbour_fit,
    "size-cap": _size_cap,
}


def initial_masks(puzzle: Puzzle) -> list[Mask]:
    """Domains before any rule, as masks: a clue's value; else 1..max(largest clue, size of
    the cell's connected area of empty cells).

    Sound: a region holding a clue k has k cells and k <= the largest clue; a region without
    clues lies inside one connected area of empty cells.
    """
    flat = [v for row in puzzle.cells for v in row]
    board = _Board.of(puzzle.height, puzzle.width)
    largest = max(flat, default=0)
    area = [0] * len(flat)
    for start, v in enumerate(flat):
        if v or area[start]:
            continue
        members, stack = [start], [start]
        area[start] = -1
        while stack:
            x = stack.pop()
            for y in board.neighbours[x]:
                if not flat[y] and not area[y]:
                    area[y] = -1
                    members.append(y)
                    stack.append(y)
        for x in members:
            area[x] = len(members)
    return [_bit(v) if v else _up_to(max(largest, area[x])) for x, v in enumerate(flat)]


def _check_groups(state: _State) -> None:
    """The two facts: no k-group has more than k cells; every incomplete one can grow."""
    for k, cells in state.fixed.items():
        for g in _find_groups(state.board, state.dom, k, cells).groups:
            if not g.complete and not g.exits(state.dom):
                raise _stuck(state.board, g)


def _run(state: _State, rules: Sequence[str]) -> None:
    """Apply the rules until a whole round changes nothing."""
    value_rules = [_VALUE_RULES[r] for r in ALL_RULES if r in rules and r in _VALUE_RULES]
    grid_rules = [_GRID_RULES[r] for r in ALL_RULES if r in rules and r in _GRID_RULES]
    while True:
        state.rounds += 1
        before = len(state.changed_cells)
        todo = state.dirty & state.anchored if value_rules else 0
        for k in _values(todo):
            state.dirty &= ~_bit(k)
            for rule in value_rules:
                rule(state, k)
        for grid_rule in grid_rules:
            grid_rule(state)
        if len(state.changed_cells) == before:
            return


def _domain_sets(masks: list[Mask]) -> tuple[frozenset[int], ...]:
    cache: dict[Mask, frozenset[int]] = {}
    out = []
    for m in masks:
        if m not in cache:
            cache[m] = frozenset(_values(m))
        out.append(cache[m])
    return tuple(out)


def deduce(puzzle: Puzzle, rules: Sequence[str] = ALL_RULES) -> Deduction:
    """Apply ``rules`` (names from :data:`ALL_RULES`) to a fixpoint and report the domains."""
    unknown = [r for r in rules if r not in ALL_RULES]
    if unknown:
        raise InputError(f"unknown deduction rule {unknown[0]!r}; the rules are {', '.join(ALL_RULES)}")
    board = _Board.of(puzzle.height, puzzle.width)
    state = _State(board, initial_masks(puzzle), [r for r in ALL_RULES if r in rules])
    contradiction = None
    try:
        _check_groups(state)
        _run(state, rules)
        _check_groups(state)
    except _Contradiction as e:
        contradiction = str(e)
    return Deduction(_domain_sets(state.dom), dict(state.fixed_by_rule), dict(state.removed_by_rule),
                     contradiction, state.rounds, puzzle.height, puzzle.width)


__all__ = ["ALL_RULES", "Deduction", "deduce", "initial_masks"]
