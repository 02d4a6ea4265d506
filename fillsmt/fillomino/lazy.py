"""Lazy region cuts: a relaxation solved again and again, refined by the wrong regions.

The relaxation (:func:`encode_local`) leaves out the region-size constraint. A session
(:class:`fillsmt.engine.solutions.Search`) solves it, decodes the grid, and asks :func:`cut_texts` for
clauses the grid breaks; they are asserted and the session checks again, until a grid has no
wrong region (it is then a solution, and the kind's independent checker still has the last
word) or the solver says ``unsat``. ``--unique`` blocks the solution found and goes on with the
same loop; ``unsat`` is then the proof.

**The cuts.** For every maximal connected component S of cells holding one number k in the
grid, a cut over *shapes* (so that one cut refutes a shape whatever number the solver tries in
it next; E the edges of a spanning tree of the cells, B the (inside, outside) pairs of
neighbours across S's border):

* *too big* (``|S| > k``): T the first k + 1 cells of S in breadth-first order (connected);
  ``OR_{(x,y) in E(T)} n_x != n_y  OR  n_t >= |T|`` (t a cell of T): connected cells that are
  all equal are one region's, so their number is at least how many they are;
* *too small* (``|S| < k``): ``OR_{(x,y) in E(S)} n_x != n_y  OR  OR_{(x,y) in B} n_x = n_y  OR
  n_s = |S|``: connected equal cells that differ from every neighbour are a whole region, whose
  number is its size. (With |S| = 1 this is "a number above 1 has an equal neighbour".)

**Pinned cells** (``fixed``: the cells the script itself fixes at the top level, so every
model of it, and every solution, has them at their grid values). The cut of a component
that holds a pinned cell is written from a spanning tree grown from that cell through pinned
cells first (``_cheap_tree``: a 0-1 breadth-first search in which an edge between two pinned
cells costs nothing), and the atoms false in every model of the script are left out: an edge atom
between two pinned cells (both hold S's number), the size atom, put on the pinned first cell
(it holds S's number k, and k is not the size: too big, ``k >= k + 1`` is false; too small,
``k = |S|`` is false), a border atom between two pinned cells (they differ: S is maximal). The
cut is the same clause in every model of the script, so still true in every solution and false
in the grid; fewer of its atoms are open (10-20 % fewer propagations over the loop on a large
grid). Components without a pinned cell get the cuts
above unchanged.

**Bounds** (``bounds``: each cell's lowest and highest number in every model of the script,
:func:`script_bounds`). Under a cut's condition "every cell of the tree is equal", their number
lies in [low, high], the intersection of their bounds; so a too-small cut leaves out a border
atom ``n_x = n_y`` when y's bounds miss [low, high], and its size atom when |S| is outside it,
and a too-big cut its size atom when high < k + 1. Each left-out atom is false in every model in
which the condition holds, and where it does not, an edge atom of the cut is true: the clause is
the same in every model of the script (330: yices CPU -6 % in sum over 6 seeds against the pins alone).

Each cut holds in every solution (so no solution is ever cut off: *completeness*, ``unsat`` is a
proof) and is false in the grid it came from (that grid has all of S at k, and for a too-small S
no neighbour at k: S is maximal), so the same grid never comes back. The numbers range over
finite domains, so the loop ends. A grid without a wrong component has every maximal component
of number k of exactly k cells, the clues and domains kept (the relaxation asserts them), so it is
a solution (*soundness*; checked again by the referee).

**The relaxation** (:func:`encode_local`): only the cell numbers, their domains (the presolve's
when given), and local consequences of the rules, each true in every solution: a number above 1
has an equal neighbour; two neighbours are not both 1; no three connected cells are all 2 (a
cell and two of its neighbours: every connected 3-set is one).

Measured (``benchmarks/README.md``, "Lazy region cuts"): these cuts on this relaxation
(``lazy-local-general``) win on grids with large open areas, where the tree encoding is weak.
"""

from __future__ import annotations

from collections import deque
from typing import Iterator, Sequence

from fillsmt.fillomino.encode_tree import Arithmetic, Domains, default_domains
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.names import neighbour_indices, number_vars
from fillsmt.grid import adjacency, equal_areas
from fillsmt.smtlib import Command, Script, Term
from fillsmt.smtlib.script import assertion, conj, declare, disj

Bounds = Sequence[tuple[int, int]]
"""Each cell's (lowest, highest) number in every model of a script (:func:`script_bounds`)."""
UNBOUNDED = (-(1 << 62), 1 << 62)
"""A cell's bounds when the script asserts none."""


# --- the cuts -------------------------------------------------------------------------------------


def components(grid: Grid) -> list[tuple[int, list[int]]]:
    """Every maximal connected component of equal numbers: (number, its cells in BFS order)."""
    width = len(grid[0])
    return [(grid[cells[0] // width][cells[0] % width], cells) for cells in equal_areas(grid)]


def _components_with_trees(grid: Grid) -> Iterator[tuple[int, list[int], list[int]]]:
    """:func:`components` with each cell's BFS parent: (number, cells in BFS order from the
    first cell in row-major order, the parent of each cell but the first, in the same order).
    A BFS prefix of the cells is connected, and its parent edges span it."""
    adj = adjacency(len(grid), len(grid[0]))
    flat = [v for row in grid for v in row]
    seen = [False] * len(flat)
    for start, k in enumerate(flat):
        if seen[start]:
            continue
        seen[start] = True
        cells, parents, i = [start], [], 0
        while i < len(cells):
            x = cells[i]
            i += 1
            for y in adj[x]:
                if not seen[y] and flat[y] == k:
                    seen[y] = True
                    cells.append(y)
                    parents.append(x)
        yield k, cells, parents


class _TermCuts:
    """The cuts' atoms as terms (:func:`region_cuts`), over the cells' number names by index."""

    def __init__(self, names: Sequence[str]):
        self.n = names

    def differ(self, x: int, y: int) -> Term:
        return ("not", ("=", self.n[x], self.n[y]))

    def same(self, x: int, y: int) -> Term:
        return ("=", self.n[x], self.n[y])

    def is_(self, x: int, k: int) -> Term:
        return ("=", self.n[x], k)

    def at_least(self, x: int, k: int) -> Term:
        return ("<=", k, self.n[x])

    any_of = staticmethod(disj)


class _TextCuts:
    """The same atoms as SMT-LIB text, written directly (:func:`cut_texts`: each term would be
    built and then rendered; janko 330 asserts 7 667 cuts in 71 rounds); over bit-vectors of
    ``bits`` bits when ``bits`` (the numbers of :func:`encode_local` with ``bitvector``)."""

    def __init__(self, names: Sequence[str], bits: int = 0):
        self.n = names
        self.bits = bits

    def _const(self, k: int) -> str:
        return f"(_ bv{k} {self.bits})" if self.bits else str(k)

    def differ(self, x: int, y: int) -> str:
        return f"(not (= {self.n[x]} {self.n[y]}))"

    def same(self, x: int, y: int) -> str:
        return f"(= {self.n[x]} {self.n[y]})"

    def is_(self, x: int, k: int) -> str:
        return f"(= {self.n[x]} {self._const(k)})"

    def at_least(self, x: int, k: int) -> str:
        return f"({'bvule' if self.bits else '<='} {self._const(k)} {self.n[x]})"

    @staticmethod
    def any_of(parts: list[str]) -> str:
        return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"


def _cheap_tree(cells: Sequence[int], fixed, adj, limit: int) -> tuple[list[int], list[tuple[int, int]]]:
    """``limit`` connected cells of the component ``cells`` and a spanning tree of them, grown
    from a ``fixed`` cell of it (else its first) by a 0-1 breadth-first search in which an edge
    between two fixed cells costs nothing: the tree holds as many fixed-fixed edges as any (for
    all of ``cells``: each fixed group inside is spanned by its own edges)."""
    inside = set(cells)
    start = next((x for x in cells if x in fixed), cells[0])
    taken, edges, seen = [start], [], {start}
    todo = deque((start, y) for y in adj[start] if y in inside)
    while todo and len(taken) < limit:
        x, y = todo.popleft()
        if y in seen:
            continue
        seen.add(y)
        taken.append(y)
        edges.append((x, y))
        for z in adj[y]:
            if z in inside and z not in seen:
                if y in fixed and z in fixed:
                    todo.appendleft((y, z))
                else:
                    todo.append((y, z))
    return taken, edges


def _pruned(k: int, cells: list[int], parents: list[int], too_big: bool, fixed, bounds, adj, atoms) -> Term:
    """The cut of a wrong component with the atoms that are false in every model of the
    script left out (module text: pinned cells, bounds). With a pinned cell, the tree is grown
    from it through pinned cells first and the size atom is put on it."""
    if fixed.isdisjoint(cells):
        taken = sorted(cells[: k + 1]) if too_big else cells
        edges = sorted(zip(parents[:k], cells[1 : k + 1]) if too_big else zip(parents, cells[1:]))
    else:
        taken, edges = _cheap_tree(cells, fixed, adj, k + 1 if too_big else len(cells))
    parts = [atoms.differ(x, y) for x, y in edges if x not in fixed or y not in fixed]
    # under "every cell of the tree is equal", their number lies in [low, high]
    low = max(bounds[x][0] for x in taken) if bounds else UNBOUNDED[0]
    high = min(bounds[x][1] for x in taken) if bounds else UNBOUNDED[1]
    size = len(taken)
    if too_big:
        if taken[0] not in fixed and high >= size:
            parts.append(atoms.at_least(taken[0], size))
    else:
        inside = set(cells)
        parts += [
            atoms.same(x, y)
            for x, y in sorted({(x, y) for x in cells for y in adj[x] if y not in inside})
            if (x not in fixed or y not in fixed)  # two pinned cells across S's border differ (S is maximal)
            and not (bounds and (bounds[y][1] < low or bounds[y][0] > high))
        ]
        if taken[0] not in fixed and low <= size <= high:
            parts.append(atoms.is_(cells[0] if fixed.isdisjoint(cells) else taken[0], size))
    return atoms.any_of(parts) if parts else "false"


def _too_big(cells: Sequence[int], edges, atoms) -> Term:
    return atoms.any_of([atoms.differ(x, y) for x, y in edges] + [atoms.at_least(cells[0], len(cells))])


def _too_small(cells: Sequence[int], edges, border_edges, atoms) -> Term:
    return atoms.any_of(
        [atoms.differ(x, y) for x, y in edges]
        + [atoms.same(x, y) for x, y in border_edges]
        + [atoms.is_(cells[0], len(cells))]
    )


def _cuts(grid: Grid, spelling, fixed: frozenset[int] = frozenset(), bounds=None) -> list:
    """The cuts of :func:`region_cuts`, their atoms written by ``spelling`` (a class, or a
    function of the cells' number names that makes one). ``bounds`` may also be a function that
    returns them, called at the first wrong component only (a grid without one needs none)."""
    adj = adjacency(len(grid), len(grid[0]))
    atoms = spelling(number_vars(len(grid), len(grid[0])))
    cuts: list = []
    for k, cells, parents in _components_with_trees(grid):
        size = len(cells)
        if size == k:
            continue
        if callable(bounds):
            bounds = bounds()
        if fixed or bounds:
            cuts.append(_pruned(k, cells, parents, size > k, fixed, bounds, adj, atoms))
        elif size > k:  # the BFS prefix of k + 1 cells from the first cell
            cuts.append(_too_big(sorted(cells[: k + 1]), sorted(zip(parents[:k], cells[1 : k + 1])), atoms))
        else:
            inside = set(cells)
            border = sorted({(x, y) for x in cells for y in adj[x] if y not in inside})
            cuts.append(_too_small(cells, sorted(zip(parents, cells[1:])), border, atoms))
    return cuts


def region_cuts(grid: Grid, fixed: frozenset[int] = frozenset(), bounds: Bounds | None = None) -> list[Term]:
    """The clauses ``grid`` breaks, one per wrong component (module text); empty when every
    component has the size of its number. ``fixed``: cells (by index ``row * width + col``) the
    script pins at their grid values
    (the cuts then leave out atoms the pins make false; module text); ``bounds``: each cell's
    (lowest, highest) number in every model of the script (:func:`script_bounds`)."""
    return _cuts(grid, _TermCuts, fixed, bounds)


def cut_texts(
    grid: Grid, fixed: frozenset[int] = frozenset(), bounds: Bounds | None = None, bits: int = 0
) -> list[str]:
    """:func:`region_cuts` as SMT-LIB text, ready to assert (written directly, the same text as
    rendering the terms); over bit-vectors of ``bits`` bits when ``bits`` (the script of
    :func:`encode_local` with ``bitvector``: :func:`number_bits` of ``grid``)."""
    return _cuts(grid, lambda names: _TextCuts(names, bits), fixed, bounds)


def number_bits(grid: Grid) -> int:
    """The width of the numbers of :func:`encode_local` with ``bitvector``, from the puzzle's
    grid or any grid of its models (the same width): every number lies in [1, max(largest clue,
    cells of the grid)] (the default domains, or the presolve's subsets of them), and a model
    holds the largest clue, so the bits of that bound hold every number and every constant of
    the script and its cuts (a cut's constant is the size of a set of cells, or a number of the
    grid). No term adds or subtracts: nothing wraps round, and each bit-vector atom means its
    integer twin."""
    largest = max((v for row in grid for v in row), default=0)
    return max(largest, len(grid) * len(grid[0]), 1).bit_length()


def _numeral(t) -> int | None:
    """An integer constant, or a bit-vector one ``(_ bvK W)``, as a number; else None."""
    if type(t) is int:
        return t
    if type(t) is tuple and len(t) == 3 and t[0] == "_" and type(t[1]) is str and t[1].startswith("bv"):
        return int(t[1][2:])
    return None


def script_bounds(script: Script, height: int, width: int) -> Bounds:
    """Each cell's (lowest, highest) number, by index, as the script asserts them at the top
    level: a pin ``(= n_x c)`` or the local relaxation's domain ``(and (<= lo n_x) (<= n_x hi)
    ...)``; :data:`UNBOUNDED` for a cell with neither. Every model of the script keeps them."""
    index = {name: x for x, name in enumerate(number_vars(height, width))}
    bounds = [UNBOUNDED] * (height * width)
    for c in script.commands:
        if c.name != "assert":
            continue
        t = c.args[0]
        if type(t) is not tuple or len(t) < 3:
            continue
        if t[0] == "=" and type(t[1]) is str and t[1] in index and _numeral(t[2]) is not None:
            value = _numeral(t[2])
            bounds[index[t[1]]] = (value, value)  # type: ignore[assignment]
        elif (
            t[0] == "and"
            and type(t[1]) is tuple
            and type(t[2]) is tuple
            and t[1][0] in ("<=", "bvule")
            and t[2][0] == t[1][0]
            and _numeral(t[1][1]) is not None
            and type(t[1][2]) is str
            and t[1][2] == t[2][1]
            and _numeral(t[2][2]) is not None
            and t[1][2] in index
        ):
            bounds[index[t[1][2]]] = (_numeral(t[1][1]), _numeral(t[2][2]))  # type: ignore[assignment]
    return bounds


# --- the local relaxation (design a) --------------------------------------------------------------


class _Local:
    """The cell numbers with their domains and the local rules (module text)."""

    def __init__(self, puzzle: Puzzle, domains: Domains, bitvector: bool = False):
        self.p, self.d = puzzle, list(domains)
        self.n = number_vars(puzzle.height, puzzle.width)
        self.cells = range(puzzle.height * puzzle.width)
        self.adj = [neighbour_indices(puzzle.height, puzzle.width, x) for x in self.cells]
        self.a = Arithmetic(number_bits(puzzle.cells) if bitvector else 0)

    def commands(self) -> Iterator[Command]:
        n, a = self.n, self.a
        for x in self.cells:
            yield declare(n[x], a.sort)
        for x in self.cells:
            dom = self.d[x]
            lo, hi = min(dom), max(dom)
            if lo == hi:
                yield assertion(("=", n[x], a.const(lo)))
                continue
            parts: list[Term] = [a.le(a.const(lo), n[x]), a.le(n[x], a.const(hi))]
            if len(dom) != hi - lo + 1:  # the holes (none in most domains: janko 330, 329 in all)
                parts += [("not", ("=", n[x], a.const(v))) for v in range(lo + 1, hi) if v not in dom]
            yield assertion(conj(parts))
        yield from self.local_rules()

    def _allows(self, cells: Sequence[int], k: int) -> bool:
        return all(k in self.d[x] for x in cells)

    def local_rules(self) -> Iterator[Command]:
        n, a = self.n, self.a
        one, two = a.const(1), a.const(2)
        for x in self.cells:
            partners = [y for y in self.adj[x] if not self.d[x].isdisjoint(self.d[y])]
            if max(self.d[x]) > 1:
                if partners:
                    yield assertion(("=>", a.lt(one, n[x]), disj([("=", n[x], n[y]) for y in partners])))
                else:
                    yield assertion(("=", n[x], one))
            for y in self.adj[x]:
                if y > x and self._allows((x, y), 1):
                    yield assertion(("not", ("and", ("=", n[x], one), ("=", n[y], one))))
            around = [y for y in self.adj[x] if self._allows((x, y), 2)]
            for i, y in enumerate(around):
                for z in around[i + 1 :]:
                    yield assertion(disj([("not", ("=", n[c], two)) for c in (x, y, z)]))

    def script(self) -> Script:
        logic = "QF_BV" if self.a.bits else "QF_LIA"
        header = [Command("set-option", (":print-success", "false")), Command("set-logic", (logic,))]
        query = [Command("check-sat"), Command("get-value", (tuple(self.n),))]
        return Script.of([*header, *self.commands(), *query])


def encode_local(puzzle: Puzzle, domains: Domains | None = None, bitvector: bool = False) -> Script:
    """The local relaxation (module text); solve it with :func:`cut_texts`. ``bitvector``: the
    numbers as bit-vectors of :func:`number_bits` bits (QF_BV, unsigned comparisons), for a
    solver that decides no integers; the cuts then take ``bits``."""
    domains = domains if domains is not None else default_domains(puzzle)
    return _Local(puzzle, domains, bitvector).script()


__all__ = [
    "Bounds",
    "UNBOUNDED",
    "components",
    "cut_texts",
    "encode_local",
    "number_bits",
    "region_cuts",
    "script_bounds",
]
