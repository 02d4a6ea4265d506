"""Faster spanning-tree encodings: the thesis' idea, made to propagate.

Every region is still one spanning tree whose root carries the region's size, as in the thesis;
what changes is how the tree is written down (below, x is a cell's index ``row * width + col``
and ``n_x`` its number; the scripts name each variable by the cell's row and column,
:mod:`fillsmt.fillomino.names`, e.g. ``n_R_C`` and ``p_R_C_R2_C2``):

* **Boolean parent pointers** ``p_x_y`` ("x's parent is y") and a Boolean root flag ``t_x``,
  exactly one of them true per cell, instead of 0/1 integer edges;
* **bounded domains** for the numbers: a clue is a constant, any other cell lies between 1 and a
  sound upper bound (the largest clue or the size of the empty area it lies in), or within the
  domain a presolve computed;
* **size ≤ number** on every cell (``1 <= s_x <= n_x``), not only at the root;
* **roots at fixed cells**: a region holding a fixed cell (a clue, or a cell the presolve fixed)
  is rooted at its smallest-index fixed cell, any other region at its smallest-index cell, so
  each region has exactly one admissible root. For a fixed cell x of value k, ``r_x`` is one of
  the fixed cells z <= x of value k at most k - 1 steps away; for any other cell, ``a_x``
  ("anchored") says its region holds a fixed cell, and then ``r_x`` is one of the fixed cells z
  whose value k the cell allows, at most k - 1 steps away, else ``r_x <= x``. The steps are
  counted through cells whose domains allow k (a clue of another value is in the way), so a
  dense field of clues leaves each cell few candidate roots;
  Anchoring the trees at the clues tells the solver where most regions grow from, which is what
  makes puzzles with large regions cheap;
* ``n_x = n_y ⇔ r_x = r_y`` for neighbours, and a cell with a number above 1 must have an
  equal neighbour (both implied by the rules, stated so the solver need not discover them);
* optionally (``bfs``) a **canonical BFS tree**: ``d_x`` is the exact distance to the root inside
  the region (``n_x = n_y ⇒ d_x <= d_y + 1``; a parent is one step closer) and a cell's parent is
  the first of its neighbours (in :func:`~fillsmt.fillomino.names.neighbour_indices` order) that
  is in its region and one step closer, so each solution has exactly one tree; a cell rooted at
  a fixed cell z is at least as deep as its Manhattan distance to z. One tree per solution is
  what keeps a uniqueness proof (``unsat`` once the first solution is blocked) short;
* optionally (``skip_closed``) no tree for the cells of *closed* regions (:func:`closed_cells`):
  their numbers are declared and fixed, nothing more;
* optionally (``root_counts``) each region of at least that many cells **counted at its fixed
  root**: the cells x with ``r_x = z`` number k when the fixed cell z of value k is a root, none
  otherwise, a sum of the ``r_x = z`` atoms the roots already use
  (:meth:`TreeEncoder.root_counts`). It restates the rules, and lets the solver see at once that
  a clue's region cannot reach its k cells, which the size sums of a tree show only once the
  whole tree is built: without it, a 76-cell region round a few clues (janko 291) is settled by
  neither z3 nor yices in 60 s of CPU; with it, in under a second;
* optionally (``region_budget``) the **cells the clued regions need, within the grid's**: the
  values k of the fixed cells that are roots add up to at most the number of tree cells
  (:meth:`TreeEncoder.region_budget`). It restates the rules too (distinct roots, disjoint
  regions), but it is the one constraint that sees the whole grid at once: where two clues of one
  value must share a region because the grid has no room for two (hard tail 266, a 9×9 whose
  clues need 78 of its 81 cells if each value has a region of its own), the solver learns it from
  one sum instead of from the size sums of many partial trees;
* optionally (``bitvector``) the same script over **bit-vectors** (QF_BV) for a solver without
  integers: every number, size, depth and root an unsigned bit-vector just wide enough that no
  term wraps round (:func:`bit_widths`), so each assertion means its integer twin.

Completeness: every solution has a model (take its regions, as each region's root its
smallest-index fixed cell if it has one, else its smallest-index cell, and a BFS tree from the
root; a path inside a region of k cells has at most k - 1 steps, each through a cell that holds
k, so the root is among the candidates above: :meth:`TreeEncoder._all_anchors`), so no
solution is lost, whatever the regions' sizes or clues. Soundness does not rest on the roots'
candidates: cells share ``r`` exactly when they share a region, and each region's tree has one
root whose size is its number.
The module is pure: puzzle (and optional domains) in, :class:`~fillsmt.smtlib.Script` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import GridNames, neighbour_indices
from fillsmt.grid import connected_areas
from fillsmt.smtlib import Command, Script, Term
from fillsmt.smtlib.script import assertion, conj, declare, disj

Domains = Sequence[frozenset[int]]


@dataclass(frozen=True)
class TreeOptions:
    bfs: bool = False
    """The canonical BFS tree (module text): one tree per solution."""
    skip_closed: bool = False
    """Leave the cells of closed regions (:func:`closed_cells`) out of the tree: only their
    numbers are declared and fixed."""
    root_counts: int = 0
    """Count the regions of at least this many cells at their fixed roots
    (:meth:`TreeEncoder.root_counts`): the cells whose root is a fixed cell z of value k number
    k when z is a root, none otherwise; 0 counts none."""
    region_budget: bool = False
    """The values of the fixed cells that are roots add up to at most the number of tree cells
    (:meth:`TreeEncoder.region_budget`)."""
    bitvector: bool = False
    """Write the numbers, sizes, depths and roots as bit-vectors (QF_BV) instead of integers
    (QF_LIA), each just wide enough that no term can wrap round (:func:`bit_widths`)."""


def default_domains(puzzle: Puzzle) -> list[frozenset[int]]:
    """Sound domains without any deduction: a clue's value, else 1..max(largest clue, area).

    A region with a clue of value k has k cells; a region without clues lies inside one
    connected area of empty cells, so it is no larger than that area.
    """
    flat = [v for row in puzzle.cells for v in row]
    largest_clue = max(flat, default=0)
    area = _empty_area_sizes(puzzle, flat)
    shared: dict[int, frozenset[int]] = {}  # one set per distinct domain: linear size in the grid

    def domain(v: int) -> frozenset[int]:
        if v not in shared:
            shared[v] = frozenset(range(1, v + 1))
        return shared[v]

    return [frozenset({v}) if v else domain(max(largest_clue, area[x])) for x, v in enumerate(flat)]


def _empty_area_sizes(puzzle: Puzzle, flat: list[int]) -> list[int]:
    """Per cell, the size of the connected area of empty cells it lies in (0 for a clue)."""
    size_of = [0] * len(flat)
    for area in connected_areas(puzzle.height, puzzle.width, lambda x: not flat[x]):
        for x in area:
            size_of[x] = len(area)
    return size_of


class TreeEncoder:
    """The tree encoding of one puzzle; each constraint method yields the commands of one named
    constraint, and :meth:`constraints` lists them in the script's order.

    Its state: ``p`` (the puzzle), ``o`` (the :class:`TreeOptions`), ``d`` (each cell's domain),
    ``lo`` / ``hi`` (its bounds), ``cells``, ``adj`` (neighbours), ``link`` (the neighbours that
    may share its region), ``fixed_cells`` and ``anchors`` (per cell, the fixed cells that may
    root its region), with :meth:`fixed` and :meth:`steps`.
    """

    def __init__(self, puzzle: Puzzle, domains: Domains, options: TreeOptions):
        self.p, self.o = puzzle, options
        self.d = _shared_sets(domains)
        bounds: dict[int, tuple[int, int, int]] = {}
        for d in self.d:  # once per distinct domain (not per cell: min() of a huge area's set is slow)
            if id(d) not in bounds:
                bounds[id(d)] = (min(d), max(d), len(d))
        self.lo = [bounds[id(d)][0] for d in self.d]
        self.hi = [bounds[id(d)][1] for d in self.d]
        self.interval = [bounds[id(d)][2] == bounds[id(d)][1] - bounds[id(d)][0] + 1 for d in self.d]
        self.cells = range(puzzle.height * puzzle.width)
        self.v = GridNames(puzzle.height, puzzle.width)
        self.n = self.v.numbers
        self.adj = [neighbour_indices(puzzle.height, puzzle.width, x) for x in self.cells]
        # Only neighbours that can hold the same number can be in one region.
        self.link = [[y for y in self.adj[x] if not self.d[x].isdisjoint(self.d[y])] for x in self.cells]
        self.closed = closed_cells(puzzle.height, puzzle.width, self.d) if options.skip_closed else set()
        self.tree_cells = [x for x in self.cells if x not in self.closed]
        self.fixed_cells = [x for x in self.tree_cells if self.fixed(x)]
        self.anchors = self._all_anchors()
        if options.bitvector:
            value_bits, index_bits = bit_widths(len(self.cells), self.hi, self.link, self.tree_cells)
            self.num, self.ix = Arithmetic(value_bits), Arithmetic(index_bits)
        else:
            self.num = self.ix = Arithmetic(0)

    def counts(self, bound: int) -> Arithmetic:
        """The arithmetic of a sum whose value (and whose constants) are at most ``bound``."""
        return Arithmetic(max(bound.bit_length(), 1)) if self.o.bitvector else self.num

    def fixed(self, x: int) -> bool:
        return self.lo[x] == self.hi[x]

    def steps(self, x: int, y: int) -> int:
        """How many steps apart x and y are as the crow flies (the Manhattan distance): a lower
        bound on a cell's depth below a root (:meth:`bfs_depths`)."""
        (rx, cx), (ry, cy) = divmod(x, self.p.width), divmod(y, self.p.width)
        return abs(rx - ry) + abs(cx - cy)

    def _all_anchors(self) -> list[list[int]]:
        """Per cell x, the fixed cells that may root x's region (module text): for a fixed x,
        those of its value at index <= x (x itself included); for another cell, those of a value
        it allows. Either way reached from x in at most value - 1 steps through cells that allow
        that value.

        Why no solution loses its root: in a solution, a region of k cells rooted at the fixed
        cell z holds k in each of its cells (each domain allows k) and is connected, so a path
        inside it leads from z to any of its cells x in at most k - 1 steps; the breadth-first
        search from z through cells whose domain holds k finds x at most that many steps away.
        Each fixed cell z of value k is searched from only as far as k - 1 steps (the work is the
        sum of its reaches, never cells × fixed cells). In increasing z per cell.

        (The depth bound of :meth:`bfs_depths` stays the steps as the crow flies, sound too and
        weaker: with these steps there, z3 took 1.16 × the CPU on janko-dev100's exported files
        and did not settle hard tail 620's plain file in 60 s, which it does in 12 s; yices took
        1.04 ×.)"""
        out: list[list[int]] = [[] for _ in self.cells]
        for z in self.fixed_cells:  # increasing: each cell's list comes out sorted
            k = self.lo[z]
            reached, frontier = {z}, {z}
            for _ in range(k - 1):  # one step further each time, through cells that allow k
                frontier = {y for x in frontier for y in self.adj[x] if k in self.d[y] and y not in reached}
                reached |= frontier
            for x in reached:
                if z <= x or not self.fixed(x):
                    out[x].append(z)
        return out

    def declarations(self) -> Iterator[Command]:
        value, index = self.num.sort, self.ix.sort
        for x in self.cells:
            yield declare(self.n[x], value)
            if x in self.closed:
                continue
            yield declare(self.v.size(x), value)
            yield declare(self.v.root(x), index)
            yield declare(self.v.is_root(x), "Bool")
            if not self.fixed(x) and self.anchors[x]:
                yield declare(self.v.anchored(x), "Bool")
            if self.o.bfs:
                yield declare(self.v.depth(x), value)
            for y in self.link[x]:
                yield declare(self.v.parent(x, y), "Bool")

    def number_domains(self) -> Iterator[Command]:
        n = self.n
        for x in self.cells:
            dom, lo, hi = self.d[x], self.lo[x], self.hi[x]
            if lo == hi:
                yield assertion(("=", n[x], self.num.const(lo)))
                continue
            c, le = self.num.const, self.num.le
            parts: list[Term] = [le(c(lo), n[x]), le(n[x], c(hi))]
            if not self.interval[x]:
                parts += [("not", ("=", n[x], c(v))) for v in range(lo + 1, hi) if v not in dom]
            yield assertion(conj(parts))

    def one_parent_or_root(self) -> Iterator[Command]:
        for x in self.tree_cells:
            options = [self.v.is_root(x)] + [self.v.parent(x, y) for y in self.link[x]]
            yield assertion(disj(options))
            for i, a in enumerate(options):
                for b in options[i + 1 :]:
                    yield assertion(("not", ("and", a, b)))

    def roots(self) -> Iterator[Command]:
        """The root is the region's smallest-index fixed cell, else its smallest-index cell
        (module text); a root's size is its number."""
        for x in self.tree_cells:
            at = self.ix.const
            at_anchor = disj([("=", self.v.root(x), at(z)) for z in self.anchors[x]])
            lowest = self.ix.le(self.v.root(x), at(x))
            if self.fixed(x):
                yield assertion(at_anchor)
            elif self.anchors[x]:
                yield assertion(("ite", self.v.anchored(x), at_anchor, lowest))
            else:
                yield assertion(lowest)
            yield assertion(("=", self.v.is_root(x), ("=", self.v.root(x), at(x))))
            yield assertion(("=>", self.v.is_root(x), ("=", self.v.size(x), self.n[x])))

    def sizes(self) -> Iterator[Command]:
        """1 <= s_x <= n_x, and s_x = 1 + the sizes of x's children."""
        for x in self.tree_cells:
            c, le = self.num.const, self.num.le
            yield assertion(("and", le(c(1), self.v.size(x)), le(self.v.size(x), self.n[x])))
            children = [("ite", self.v.parent(y, x), self.v.size(y), c(0)) for y in self.link[x]]
            yield assertion(("=", self.v.size(x), self.num.add(c(1), *children)))

    def parents(self) -> Iterator[Command]:
        """A parent has the same number and root; no two cells are each other's parent."""
        for x in self.tree_cells:
            for y in self.link[x]:
                yield assertion(
                    (
                        "=>",
                        self.v.parent(x, y),
                        ("and", ("=", self.n[x], self.n[y]), ("=", self.v.root(x), self.v.root(y))),
                    )
                )
                if y > x:
                    yield assertion(("not", ("and", self.v.parent(x, y), self.v.parent(y, x))))

    def same_number_same_region(self) -> Iterator[Command]:
        """Neighbours hold equal numbers exactly when they share a root (are one region)."""
        for x in self.tree_cells:
            for y in self.link[x]:
                if y > x:
                    yield assertion(("=", ("=", self.n[x], self.n[y]), ("=", self.v.root(x), self.v.root(y))))

    def needs_a_partner(self) -> Iterator[Command]:
        """A number above 1 needs an equal neighbour."""
        for x in self.tree_cells:
            if self.hi[x] == 1:
                continue
            partners = [("=", self.n[x], self.n[y]) for y in self.link[x]]
            if partners:
                yield assertion(("=>", self.num.lt(self.num.const(1), self.n[x]), disj(partners)))
            else:
                yield assertion(("=", self.n[x], self.num.const(1)))

    def bfs_depths(self) -> Iterator[Command]:
        """d_x is the distance to the root inside the region; the parent is the first
        neighbour of the region one step closer."""
        for x in self.tree_cells:
            d, c, le = self.v.depth(x), self.num.const, self.num.le
            yield assertion(self.num.lt(d, self.n[x]))
            yield assertion(("=", self.v.is_root(x), ("=", d, c(0))))
            closer: list[Term] = []  # "y is in x's region, one step closer", for earlier y
            for y in self.link[x]:
                below = self.num.add(self.v.depth(y), c(1))
                one_step = ("=", d, below)
                yield assertion(("=>", self.v.parent(x, y), conj([one_step, *(("not", t) for t in closer)])))
                yield assertion(("=>", ("=", self.n[x], self.n[y]), le(d, below)))
                closer.append(("and", ("=", self.n[x], self.n[y]), one_step))
            for z in self.anchors[x]:
                if self.steps(x, z) > 1:
                    yield assertion(("=>", ("=", self.v.root(x), self.ix.const(z)), le(c(self.steps(x, z)), d)))

    def counted_roots(self) -> dict[int, list[int]]:
        """Per fixed cell z that may be a root, the cells x that list z among their candidate
        roots (``z in anchors[x]``), z itself included, in increasing x. A fixed cell joined to a
        smaller-index fixed cell by fixed cells of its value is left out: the smaller one lies in
        the same region, so z is never the region's root."""
        members: dict[int, list[int]] = {z: [] for z in self.possible_roots()}
        for x in self.tree_cells:
            for z in self.anchors[x]:
                if z in members:
                    members[z].append(x)
        return members

    def possible_roots(self) -> list[int]:
        """The fixed cells that may root their region, in increasing index: all but those joined
        to a smaller-index fixed cell by fixed cells of their value (the smaller one lies in the
        same region, so such a cell is never the region's root)."""
        joined = self._joined_to_a_smaller_fixed_cell()
        return [z for z in self.fixed_cells if z not in joined]

    def _joined_to_a_smaller_fixed_cell(self) -> set[int]:
        """The fixed cells connected, through fixed cells of their value, to a smaller-index one."""
        joined: set[int] = set()
        seen: set[int] = set()
        for start in self.fixed_cells:  # increasing index: each group is entered at its smallest cell
            if start in seen:
                continue
            seen.add(start)
            group, k = [start], self.lo[start]
            for x in group:
                for y in self.adj[x]:
                    if y not in seen and y not in self.closed and self.fixed(y) and self.lo[y] == k:
                        seen.add(y)
                        joined.add(y)
                        group.append(y)
        return joined

    def root_counts(self) -> Iterator[Command]:
        """For each fixed cell z of value k that may be a root: the number of cells x with
        ``r_x = z`` is k if z is a root (``t_z``), else 0.

        Why every solution satisfies it (the model of the completeness argument, module text):
        there ``r_x`` is the root of x's region for every cell, so the cells with ``r_x = z`` are
        exactly z's region when z is a root, k cells since z holds k, and no cell at all when z
        is not a root. Each of them lists z among its candidate roots (it holds k, lies at most
        k - 1 steps from z, and is not a smaller-index fixed cell of value k, which would be the
        root instead), so summing over :meth:`counted_roots` misses none. The same holds in every
        model of the script without the counts (its regions are the classes of equal ``r``, each
        with one root whose size is its number), so the counts only restate the rules: no
        solution is lost and none is added. They are what lets the solver see early that a
        clue's region cannot reach its k cells (a large region, such as 76 cells round a few
        clues, is otherwise found only through the size sums of a whole tree).

        Only values k of at least ``root_counts`` are counted (tree-bfs: 10): a small region is
        settled by its size sums alone, and counting every region of two cells or more made
        yices 13-20 % slower on the Puzzle Baron set without presolve, where counting from 10 on
        did not (``benchmarks/encoding_alone.py``)."""
        for z, members in self.counted_roots().items():
            if self.lo[z] < self.o.root_counts:
                continue
            count = self.counts(max(len(members), self.lo[z]))
            c = count.const
            ones = [("ite", ("=", self.v.root(x), self.ix.const(z)), c(1), c(0)) for x in members]
            yield assertion(("=", count.add(*ones), ("ite", self.v.is_root(z), c(self.lo[z]), c(0))))

    def region_budget(self) -> Iterator[Command]:
        """The sum of ``ite(t_z, k, 0)`` over the fixed cells z of :meth:`possible_roots` (k the
        value of z) is at most the number of tree cells.

        Why every model satisfies it, so that it removes no solution and lets none through: the
        regions of a model are the classes of equal ``r``, disjoint sets of tree cells, and each
        holds exactly one cell with ``t`` (its root: ``t_x`` is ``r_x = x``, and a class's cells
        all have the class's ``r``). A root z's size is its number, k for a fixed cell, and its
        size counts the cells of its tree, its region; so the roots' values sum the sizes of
        disjoint regions, at most the tree cells together. The fixed cells left out of
        :meth:`possible_roots` are never roots; leaving a term out could only weaken the sum.
        Over bit-vectors the sum gets the bits of every term's value added up
        (:meth:`counts`), so it cannot wrap round. Of the grid's cells, those of closed regions
        are not tree cells and their fixed cells are not among the roots: both sides leave
        them out."""
        roots = self.possible_roots()
        if not roots:
            return
        total = sum(self.lo[z] for z in roots)
        count = self.counts(max(total, len(self.tree_cells)))
        c = count.const
        terms = [("ite", self.v.is_root(z), c(self.lo[z]), c(0)) for z in roots]
        yield assertion(count.le(count.add(*terms), c(len(self.tree_cells))))

    def query(self) -> Iterator[Command]:
        yield Command("check-sat")
        yield Command("get-value", (tuple(self.n[x] for x in self.cells),))

    def constraints(self) -> list[Callable[[], Iterator[Command]]]:
        """The constraint methods whose commands make the script, in order (the query last)."""
        parts: list[Callable[[], Iterator[Command]]] = [
            self.declarations,
            self.number_domains,
            self.one_parent_or_root,
            self.roots,
            self.sizes,
            self.parents,
            self.same_number_same_region,
            self.needs_a_partner,
        ]
        if self.o.bfs:
            parts.append(self.bfs_depths)
        if self.o.root_counts:
            parts.append(self.root_counts)
        if self.o.region_budget:
            parts.append(self.region_budget)
        parts.append(self.query)
        return parts

    def script(self) -> Script:
        parts = self.constraints()
        logic = "QF_BV" if self.o.bitvector else "QF_LIA"
        header = [Command("set-option", (":print-success", "false")), Command("set-logic", (logic,))]
        return Script.streamed(lambda: (cmd for part in [lambda: iter(header), *parts] for cmd in part()))


@dataclass(frozen=True)
class Arithmetic:
    """The terms of one kind of quantity: integers (``bits`` 0: ``Int``, ``<=``, ``+``) or
    bit-vectors of ``bits`` bits (unsigned ``bvule``, ``bvult``, ``bvadd``). A bit-vector term
    means what the integer term means as long as no value and no sum reaches ``2 ** bits``:
    :func:`bit_widths` chooses the widths so that none can."""

    bits: int

    @property
    def sort(self) -> Term:
        return ("_", "BitVec", self.bits) if self.bits else "Int"

    def const(self, v: int) -> Term:
        return ("_", f"bv{v}", self.bits) if self.bits else v

    def le(self, a: Term, b: Term) -> Term:
        return ("bvule" if self.bits else "<=", a, b)

    def lt(self, a: Term, b: Term) -> Term:
        return ("bvult" if self.bits else "<", a, b)

    def add(self, *terms: Term) -> Term:
        return terms[0] if len(terms) == 1 else ("bvadd" if self.bits else "+", *terms)


def bit_widths(
    cells: int, hi: Sequence[int], link: Sequence[Sequence[int]], tree_cells: Sequence[int]
) -> tuple[int, int]:
    """The widths of the ``bitvector`` script: (numbers, sizes and depths; roots).

    Why no bit-vector term of the script ever wraps round, in any assignment that satisfies its
    assertions, so that each assertion means exactly its integer twin, with the variables' values
    read as natural numbers (and every solution's integer model, whose values are natural numbers
    below the bounds here, is a bit-vector model): every cell's number is asserted to lie in its
    domain, at most ``hi[x]``; every tree cell's size ``1 <= s_x <= n_x``, its depth
    ``d_x < n_x``. The largest sum is a size, ``1 + Σ ite(p_y_x, s_y, 0)`` over the linked
    neighbours y of x (all tree cells: a closed cell is linked to none), at most
    ``1 + Σ hi[y]``; a depth plus one, ``d_y + 1``, is at most ``hi[y]``, and the depth bounds'
    constants (steps to a fixed cell of value k) are below k. So every value and sum is at most
    ``top = max(hi, 1 + Σ hi[y])`` and ``top.bit_length()`` bits hold them all. A root ``r_x``
    is asserted equal to a cell index or at most ``x``, so it is a cell index: below ``cells``.
    The root counts' sums have their own width (:meth:`TreeEncoder.counts`): at most the number
    of cells counted, or the clue's value; so has the region budget's sum: at most its values
    added up, or the number of tree cells."""
    top = max(max(hi, default=1), 1)
    for x in tree_cells:
        top = max(top, 1 + sum(hi[y] for y in link[x]))
    return top.bit_length(), max((cells - 1).bit_length(), 1)


def closed_cells(height: int, width: int, domains: Domains) -> set[int]:
    """The cells of *closed* regions: a connected group G of cells fixed to one number k (each
    domain ``{k}``), maximal among such cells, with exactly k cells, and no neighbour outside G
    whose domain holds k. In every solution G is a whole region (its cells hold k, are
    connected, and no neighbour holds k), so the tree encoding needs nothing there but the
    numbers: no other cell is linked to G's cells (their domains are disjoint from ``{k}``),
    and a fixed cell of G never roots another cell's region (a region with a cell of G is G),
    so leaving G's tree out, and G's cells out of the candidate roots, keeps every solution and
    lets no grid through that the full encoding refuses (the model of the completeness
    argument, with G's tree dropped, is a model of the smaller script and vice versa)."""
    adj = [neighbour_indices(height, width, x) for x in range(height * width)]
    value = [next(iter(d)) if len(d) == 1 else 0 for d in domains]
    seen = [False] * len(value)
    closed: set[int] = set()
    for start, k in enumerate(value):
        if not k or seen[start]:
            continue
        seen[start] = True
        group, i, outside = [start], 0, False
        while i < len(group):
            x = group[i]
            i += 1
            for y in adj[x]:
                if value[y] == k:
                    if not seen[y]:
                        seen[y] = True
                        group.append(y)
                elif k in domains[y]:
                    outside = True
        if len(group) == k and not outside:
            closed.update(group)
    return closed


def _shared_sets(domains: Domains) -> list[frozenset[int]]:
    """The domains as frozensets, equal ones shared (an empty grid's cells all have the same
    large domain: one copy keeps the encoder's memory linear in the grid)."""
    seen: dict[frozenset[int], frozenset[int]] = {}
    out = []
    for d in domains:
        f = d if isinstance(d, frozenset) else frozenset(d)
        out.append(seen.setdefault(f, f))
    return out


def encode_tree(puzzle: Puzzle, domains: Domains | None = None, options: TreeOptions = TreeOptions()) -> Script:
    """The tree encoding of ``puzzle``; ``domains[x]`` (if given) bounds cell x's number."""
    return TreeEncoder(puzzle, domains if domains is not None else default_domains(puzzle), options).script()
