"""Explanations the rules record as they go (issue 17, twelfth session): dependency masks.

A search path's decisions (its guesses "x is v" and complements "x is not v") are numbered by
their position on the path: decision i is bit i of a *reason*, an int. A :class:`ReasonState`
keeps, per cell x, ``dep[x]``: the union of the reasons of every value removed from x so far;
the values removed before the first decision (the puzzle, the root's fixpoint) have reason 0.
Every removal a rule makes gets the union of ``dep[y]`` over a set of cells y that holds its
*premises*, the cells whose state (the values y has lost, so also whether y is fixed) the
inference used; a contradiction gets the reason of the inference that found it (an emptied
cell: its ``dep``; a contradiction naming its premise cells, :class:`~.board.Contradiction`'s
``cells``: their ``dep``).

**Soundness.** Claim: every value y has lost is absent from y in every solution of the puzzle
that satisfies the decisions of ``dep[y]``. By induction over the removals in the order made: a
guess's removal follows from its decision, its reason; a rule's removal follows, by the rule's
own soundness argument, from the state of its premise cells (each rule below concludes from
them alone, in every solution, whatever the other cells hold), each of which follows from the
decisions in that cell's ``dep``, all within the reason. A superset of the premises only adds
decisions and stays sound; the union of every reason on the path (``alldep``) is the trivially
sound fallback for a rule not analysed. So a contradiction's reason names decisions no solution
satisfies together: a *conflict set*, what conflict-directed backjumping needs (``backtrack``'s
``cbj``). Cached results (a group's budget search ``reach``, free areas, ``joins``, a group's
``memo``) were computed in this state or one it was forked from (an ancestor on the path) from
cells whose ``dep`` has only grown since, so the ``dep`` of the cells a result looked at, taken
now, covers the premises it had when it was found.

The premises taken, per rule (k the value concerned):

``complete-group``, ``join-overflow``
    The cells of the groups the rule names (``why``): a complete k-group is its region, whatever
    else holds; a cell holding k joins the groups it touches.
``single-exit``, a group without an exit
    The group's cells and their neighbours: the region must grow through a neighbour, and all
    but one (none) have lost k.
``forced-cell``, a group whose reach is too small
    The cells the group's budget search looked at (its ``watched`` cells: the cells reached
    and their neighbours; the search's counts rest on which of them allow k and which are fixed
    to k) and the whole of every k-group among them (a group costs its size, so its cells
    beyond the watched ones are premises too: a guess that grows a group next to the search's
    edge shrinks the reach without changing a watched cell; :func:`search_premises`).
``area``
    Where x holds k, its region either holds a cell fixed to k, so is the region of a k-group
    (x is then in an incomplete group's reach), or lies in x's free area. So: every cell fixed
    to k, every incomplete k-group's budget search (as above), and x's free area with two rings
    around it (its outside neighbours lost k, are fixed to k or touch a cell fixed to k).
``neighbour-support``
    The cell's neighbours (a value k > 1 needs a neighbour allowing k).
``neighbour-fit``
    The cell's neighbours and theirs (what each neighbour can hold without the cell).
``size-cap``
    The values removed (none fixed anywhere, all above x's cap) hold in x only within the cells
    connected to x through cells allowing one of them, fewer than the least of them: those
    cells' outside neighbours, which allow none of them, are the premises.
``capacity`` (a search rule)
    The count rests on the groups it counts, each in a region of its own: any subset of them
    gives a sound count too. So a removal of values no cell is fixed to (all above the room the
    count leaves), or the count's contradiction, takes the groups' ``dep`` less the groups, newest
    decisions first, whose values the conclusion can spare. A removal of a value k some cell is
    fixed to takes every fixed cell (``fixdep``: the joins count again) and the k-groups' budget
    searches (as for ``area``; the joins look only within them).
``probe`` and any other
    ``alldep``, the union of every reason so far.
"""

from __future__ import annotations

from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.capacity import counted_groups
from fillsmt.fillomino.deduce.masks import Mask, bit, is_single, values_of
from fillsmt.fillomino.deduce.state import State, Why, search_premises


WHOLE_RULES = ("single-exit", "forced-cell")
"""Rules whose reason covers the whole of what they assert (that the cell holds k), not only
the values they remove."""


class ReasonState(State):
    """A :class:`State` that records each removal's reason (module text) and, on a
    contradiction, its explanation (:attr:`conflict`). Decisions are made by :meth:`assume`
    on a forked state: a fork of the root is at position 0 (bit 0), its forks at 1, and so on;
    so a state forked once per decision (the search's children) numbers them by depth."""

    def __init__(self, board: Board, dom: list[Mask], rules):
        super().__init__(board, dom, rules)
        self.dep: list[int] = [0] * len(dom)
        self.history: list[tuple | None] = [None] * len(dom)
        """Per cell, its steps newest first, as a chain (values excluded, reason, older):
        shared, not copied, by forked states. A step excludes the values it removed, or, when
        its reason covers the whole of what it asserts (a decision, a rule fixing the cell, a
        nogood), every value the cell started with outside those it keeps."""
        self.start = list(dom)
        """The domains the state started with (shared by forked states)."""
        self.alldep = 0
        """The union of every reason so far."""
        self.fixdep = 0
        """The union of the ``dep`` of every fixed cell."""
        self.level = 0
        """Decisions on the path to this state (its :meth:`assume` is decision ``level - 1``)."""
        self.conflict: int | None = None
        """The contradiction's explanation, once a run on this state found one."""
        self._shared: dict = {}
        """Premises shared by the removals of one rule's application (:meth:`inference`)."""

    def fork(self) -> ReasonState:
        child = super().fork()
        child.dep = list(self.dep)
        child.history = list(self.history)
        child.start = self.start
        child.alldep = self.alldep
        child.fixdep = self.fixdep
        child.level = self.level + 1
        child.conflict = None
        child._shared = {}
        return child

    def failed(self, contradiction: Contradiction) -> None:
        deps, slack = contradiction.deps, contradiction.slack
        if deps is None and slack is not None:
            deps = self._count_reason(slack)
        if deps is None:
            cells, value = contradiction.cells, contradiction.value
            if cells is None:
                deps = self.alldep
            elif value is None:
                deps = self.deps_of(cells)
            else:
                deps = self.kdeps(cells, value)
        self.conflict = deps

    def deps_of(self, cells: int) -> int:
        """The union of ``dep`` over a set of cells (bit x for cell x): the reasons of their
        whole state."""
        dep, r = self.dep, 0
        for y in values_of(cells):
            r |= dep[y]
        return r

    def lost(self, y: int, values: Mask) -> int:
        """The reasons of y's removals of any of ``values``."""
        r = 0
        h = self.history[y]
        while h is not None:
            if h[0] & values:
                r |= h[1]
            h = h[2]
        return r

    def kdeps(self, cells: int, k: int) -> int:
        """The reasons of the cells' state for k: of a cell fixed to k, the oldest single step
        that excludes every other value it started with (a guess, single-exit, forced-cell),
        else its whole ``dep``; of one that lost k, the oldest step that excludes k; of one
        that allows k among others, nothing (no fact about k holds there)."""
        bk = bit(k)
        dom, dep, history, start = self.dom, self.dep, self.history, self.start
        r = 0
        # only the cells fixed to k and those that lost k hold a fact about k
        for y in self.fixed.get(k, ()):
            if cells >> y & 1:
                others = start[y] & ~bk
                best = dep[y]
                h = history[y]
                while h is not None:
                    if h[0] & others == others and h[1].bit_length() <= best.bit_length():
                        best = h[1]
                    h = h[2]
                r |= best
        for y in values_of(cells & ~self.allowing(k)):
            if start[y] & bk:
                best = None
                h = history[y]
                while h is not None:
                    if h[0] & bk and (best is None or h[1].bit_length() <= best.bit_length()):
                        best = h[1]
                    h = h[2]
                r |= best
        return r

    def assume(self, x: int, allowed: Mask) -> None:
        """The decision this state was forked for: keep only ``allowed`` in x. As a literal, a
        decision keeping one value v asserts that x is v; any other, that x holds none of the
        values it removes (:func:`decision_literal`)."""
        old = self.dom[x]
        if old & allowed != old:
            self._step(x, allowed, None, 1 << max(self.level - 1, 0), is_single(allowed))

    def narrow_by(self, x: int, allowed: Mask, reason: int) -> None:
        """Keep only ``allowed`` in x for a reason given (a learned nogood's), by no rule."""
        old = self.dom[x]
        if old & allowed != old:
            self._step(x, allowed, None, reason, True)

    def restrict(self, x: int, allowed: Mask, rule: str, why: Why = None) -> None:
        old = self.dom[x]
        if old & allowed != old:
            # before any decision every reason is 0 (each ``dep`` lies within ``alldep``)
            reason = self.reason(x, allowed, rule, why) if self.alldep else 0
            self._step(x, allowed, rule, reason, rule in WHOLE_RULES)

    def reason(self, x: int, allowed: Mask, rule: str, why: Why) -> int:
        """The union of the reasons of the removal's premises (module text)."""
        dep = self.dep
        r = 0
        if rule == "complete-group":
            for y in why:
                r |= dep[y]
        elif rule == "join-overflow":
            for cells in why:
                for y in cells:
                    r |= dep[y]
        elif rule == "single-exit":
            k = allowed.bit_length() - 1
            group = sum(1 << y for y in why)
            r = self.kdeps(self.board.spread(group), k)
        elif rule == "forced-cell":
            k = allowed.bit_length() - 1
            noted = self._reach.get((k, tuple(why)))
            r = self.alldep if noted is None else self.kdeps(search_premises(self, k, noted), k)
        elif rule == "area":
            r = self._area_reason(x, (~allowed).bit_length() - 1)
        elif rule == "neighbour-support":
            removed = self.dom[x] & ~allowed
            for y in self.board.neighbours[x]:
                r |= self.lost(y, removed)
        elif rule == "neighbour-fit":
            nbrs = self.board.neighbours
            for y in nbrs[x]:
                r |= dep[y]
                for z in nbrs[y]:
                    r |= dep[z]
        elif rule == "size-cap":
            r = self._cap_reason(x, self.dom[x] & ~allowed)
        elif rule == "capacity":
            k = ~allowed & self.anchored
            if k:
                k = k.bit_length() - 1
                r = self._shared.get(k)
                if r is None:
                    r = self._shared[k] = self.fixdep | self.kdeps(self._reaches(k), k)
            else:  # values no cell is fixed to, all above the room the count leaves
                removed = self.dom[x] & ~allowed
                least = (removed & -removed).bit_length() - 1
                r = self._count_reason(least - 1 - (len(self.dom) - self._counted()[0]))
        else:
            r = self.alldep
        return r

    def inference(self) -> None:
        self._shared = {}

    def _counted(self) -> tuple[int, list[tuple[int, int]]]:
        """``capacity``'s count: the cells it takes, and per group counted its reason (the
        ``dep`` of its cells) and value, the newest decisions first (found once per
        :meth:`inference`: the count's premises are the groups when it counted)."""
        counted = self._shared.get("count")
        if counted is None:
            units = []
            for k in values_of(self.anchored):
                found = self.groups(k)
                for i in counted_groups(self, k):
                    units.append((self.deps_of(found.masks[i]), k))
            units.sort(key=lambda u: -u[0].bit_length())
            counted = self._shared["count"] = (sum(k for _, k in units), units)
        return counted

    def _count_reason(self, slack: int) -> int:
        """The reason of a conclusion of ``capacity``'s count that holds as long as the count
        takes more than ``slack`` fewer cells: groups left out, newest decisions first, while
        their values fit in the slack (a subset of the groups counted gives a count as sound,
        each in a region of its own); the union of the rest's reasons."""
        r = 0
        for dep, k in self._counted()[1]:
            if dep and k <= slack:
                slack -= k
            else:
                r |= dep
        return r

    def _reaches(self, k: int) -> int:
        """Every cell fixed to k and the premises of every incomplete k-group's budget search."""
        found = self.groups(k)
        cells = found.cells
        for i in found.incomplete:
            cells |= self.reach(k, found, i).watched
        for mask in found.masks:  # every group is there already
            cells |= mask
        return cells

    def _area_reason(self, x: int, k: int) -> int:
        """``area`` removes k from x (module text)."""
        spread = self.board.spread
        fixed = self.groups(k).cells
        free = self.allowing(k) & ~spread(fixed)
        area = 1 << x
        while True:
            grown = spread(area) & free | area
            if grown == area:
                break
            area = grown
        if (area & free).bit_count() >= k:
            return self.alldep  # not a cramped area (cannot happen): the fallback
        reaches = self._shared.get(k)
        if reaches is None:
            reaches = self._shared[k] = self.kdeps(self._reaches(k), k)
        return reaches | self.kdeps(spread(spread(area)), k)

    def _cap_reason(self, x: int, removed: Mask) -> int:
        """``size-cap`` removes ``removed`` from x (module text)."""
        spread = self.board.spread
        dom = self.dom
        area = 1 << x
        while True:
            grown = area
            for y in values_of(spread(area) & ~area):
                if dom[y] & removed:
                    grown |= 1 << y
            if grown == area:
                break
            area = grown
        if area.bit_count() >= (removed & -removed).bit_length() - 1:
            return self.alldep  # not the cap's area (cannot happen): the fallback
        r = 0
        for y in values_of(spread(area) & ~area):
            r |= self.lost(y, removed)
        return r

    def _step(self, x: int, allowed: Mask, rule: str | None, reason: int, whole: bool = False) -> None:
        d = self.dep[x] | reason
        self.dep[x] = d
        self.alldep |= reason
        old = self.dom[x]
        try:
            self._narrow(x, allowed, rule)
        except Contradiction as e:
            e.deps = d
            raise
        new = self.dom[x]
        self.history[x] = ((self.start[x] if whole else old) & ~allowed, reason, self.history[x])
        if is_single(new):
            self.fixdep |= d


def decision_literal(x: int, before: Mask, allowed: Mask) -> tuple[int, Mask]:
    """A decision keeping ``allowed`` of x's values ``before`` as the literal it asserts
    (:meth:`ReasonState.assume`): (x, the values x's value lies within)."""
    return (x, allowed) if is_single(allowed) else (x, ~(before & ~allowed))


__all__ = ["ReasonState", "WHOLE_RULES", "decision_literal"]
