"""Explanations the rules record as they go (issue 17, twelfth session), found lazily
(thirteenth session): dependency masks.

A search path's decisions (its guesses "x is v" and complements "x is not v") are numbered by
their position on the path: decision i is bit i of a *reason*, an int. A :class:`ReasonState`
keeps, per cell x, its *steps* (``history``): each removal from x, newest first, with the
values it excluded, a sequence number (shared by forked states, so a step is numbered after
every step on the path before it), what x kept, and its *cause*. The values removed before the
first decision (the puzzle, the root's fixpoint) have reason 0. ``dep`` of x *before* a number
s is the union of the reasons of x's steps numbered below s. A rule's removal has the reason
of its *premises*, the cells whose state (the values they had lost, so also whether they were
fixed) the inference used: the union of their ``dep`` before the removal's number (for a value
k, only the steps that hold a fact about k: :meth:`ReasonState._kdeps`); a contradiction has
the reason of the inference that found it, with every step so far (an emptied cell: its
steps; a contradiction naming its premise cells, :class:`~.board.Contradiction`'s ``cells``:
theirs).

**Lazily.** A removal records only its cause: the premises as the rule holds them (its
``why``, a budget search's watched cells and the groups it looked at, the cell and the values
removed), or a *node* shared by the removals of one application of a rule (``area``'s free area
and the k-groups' budget searches, ``capacity``'s count and fixed cells), itself numbered when
made. Its reason is computed only when a conflict's analysis reaches it (:meth:`ReasonState.
resolve`): the steps its premises rest on first (each resolved as the cause's evaluation reads
it, up to :data:`INLINE_DEPTH` within one another, deeper ones on a stack), then its own, which
replaces the cause on the step, shared by every state forked since. What a cause needs of the
state then (whether a cell allowed k, was fixed to k, a free area, a size-cap's area) is read
from the steps numbered below it (each step keeps the values its cell kept), never from the
state as it is. The reasons so computed are the eager ones (twelfth session) exactly, but two:
``forced-cell`` takes the k-groups the rule looked at, not found again after the cells it fixed
(fewer cells: finer); a free area's node serves every cell of it (the area as the first of them
saw it). The explanation of a contradiction, and so the search, are unchanged: the same nodes
(``benchmarks/lazy13_ab.py`` checks it on janko-thesis100).

**Soundness.** Claim: every value y has lost is absent from y in every solution of the puzzle
that satisfies the decisions of the reason of the step that removed it. By induction over the
steps in the order numbered: a guess's step follows from its decision, its reason; a rule's
step follows, by the rule's own soundness argument, from the state of its premise cells before
it (each rule below concludes from them alone, in every solution, whatever the other cells
hold), that is from their steps numbered below it, each of which follows (induction) from the
decisions of its reason, all within the step's reason. A superset of the premises only adds
decisions and stays sound, and so does a later cut-off (a state later on the path holds every
fact an earlier one did: domains only shrink); the union of every reason on the path is the
trivially sound fallback for a rule not analysed. So a contradiction's reason names decisions
no solution satisfies together: a *conflict set*, what conflict-directed backjumping needs
(``backtrack``'s ``cbj``). Cached results (a group's budget search ``reach``, free areas,
``joins``, a group's ``memo``) were computed in this state or one it was forked from (an
ancestor on the path) from the state then; the premises taken, read before the removal, cover
the facts they rest on.

The lazy computation keeps this: (1) the steps numbered below s are the same in every state
that holds a step numbered s (chains are shared, new steps go on top with higher numbers), so a
reason computed in any of them, memoized on the shared step, is the one the claim is about;
(2) a cause's reason is kept only once every step it reads has its reason (a step read before
is resolved then, or, too deep, pushed and resolved first, the cause evaluated again; a premise
is always numbered below its step, so both end); (3) a reason equal to every decision before
its step (``every``) is complete however many premises are left unread (no reason holds more),
so it is kept at once. ``tests/test_backtrack.py`` checks the searches against the brute force
(resolving inline and on the stack alike) and catches a reason without its newest decision and
one kept while a premise is unresolved.

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
    fixed to takes every fixed cell (the joins count again) and the k-groups' budget searches
    (as for ``area``; the joins look only within them).
``probe`` and any other
    Every step so far.
"""

from __future__ import annotations

from itertools import count

from fillsmt.fillomino.deduce.board import Board, Contradiction, cells_of
from fillsmt.fillomino.deduce.capacity import counted_groups
from fillsmt.fillomino.deduce.masks import Mask, bit, is_single, values_of
from fillsmt.fillomino.deduce.state import State, Why, search_premises


WHOLE_RULES = ("single-exit", "forced-cell")
"""Rules whose reason covers the whole of what they assert (that the cell holds k), not only
the values they remove."""


NOW = 1 << 62
"""A cut-off later than every step: the state as it is."""

INLINE_DEPTH = 100
"""Steps resolved within one another at most (each a few Python frames), past which
:meth:`ReasonState.resolve`'s stack takes over."""


class ReasonState(State):
    """A :class:`State` that records each removal's cause and, on a contradiction, its
    explanation (:attr:`conflict`), computing the reasons of the removals the explanation rests
    on then (module text: lazily). Decisions are made by :meth:`assume` on a forked state: a
    fork of the root is at position 0 (bit 0), its forks at 1, and so on; so a state forked
    once per decision (the search's children) numbers them by depth."""

    steiner = False  # capacity's count explained by pairs only: no Steiner count

    def __init__(self, board: Board, dom: list[Mask], rules):
        super().__init__(board, dom, rules)
        self.history: list[list | None] = [None] * len(dom)
        """Per cell, its steps newest first, as a chain of ``[values excluded, seq, cause,
        older, values kept, every, kept reasons]``: shared, not copied, by forked states. A
        step excludes the values it removed, or, when its reason covers the whole of what it
        asserts (a decision, a rule fixing the cell, a nogood), every value the cell started
        with outside those it keeps. Its cause is its reason (an int) once known, else what it
        is computed from (module text); ``every``: the decisions before it (no reason of it
        holds more); the kept reasons (a dict or None): the cell's per k (:meth:`_kdeps`) and
        whole (0, :meth:`_deps_over`) as of this step."""
        self.start = list(dom)
        """The domains the state started with (shared by forked states)."""
        self.level = 0
        """Decisions on the path to this state (its :meth:`assume` is decision ``level - 1``)."""
        self.every = 0
        """Every decision on the path (``level`` bits): what any reason here lies within."""
        self.conflict: int | None = None
        """The contradiction's explanation, once a run on this state found one."""
        self._seq = count()
        """The steps' sequence numbers (shared by forked states: a step is numbered after every
        step of the states it was forked from)."""
        self._emptied = 0
        """The cell a removal emptied, once one has."""
        self.touched = 0
        """The cells changed since the first decision (only their steps have reasons)."""
        self._full = 0
        """While :meth:`resolve` evaluates a cause: every decision before it."""
        self._depth = 0
        """Steps being resolved within one another (:meth:`_reason_of`)."""
        self._shared: dict = {}
        """Causes shared by the removals of one rule's application (:meth:`inference`)."""

    def fork(self) -> ReasonState:
        child = super().fork()
        child.history = list(self.history)
        child.start = self.start
        child.level = self.level + 1
        child.every = (1 << child.level) - 1
        child.conflict = None
        child._seq = self._seq
        child._emptied = 0
        child._full = child._depth = 0
        child.touched = self.touched
        child._shared = {}
        return child

    # --- recording: cheap, at every removal ---------------------------------------------------

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
            # before any decision every reason is 0
            cause = self.cause(x, allowed, rule, why) if self.level else 0
            self._step(x, allowed, rule, cause, rule in WHOLE_RULES)

    def cause(self, x: int, allowed: Mask, rule: str, why: Why):
        """What the removal's reason is computed from, when asked for (module text): the
        premises as the rule holds them (a tuple), or a node (:meth:`_node`) shared by the
        removals of one application of the rule."""
        describe = CAUSES.get(rule)
        return ("all",) if describe is None else describe(self, x, allowed, why)

    def _capacity_cause(self, x: int, allowed: Mask, why: Why):
        k = ~allowed & self.anchored
        if k:
            k = k.bit_length() - 1
            return self._node(("anchored", k), lambda: ("anchored", self._reaches(k), k))
        # values no cell is fixed to, all above the room the count leaves
        removed = self.dom[x] & ~allowed
        least = (removed & -removed).bit_length() - 1
        total, units = self._count_units()
        slack = least - 1 - (len(self.dom) - total)
        return self._node(("count", slack), lambda: ("count", units, slack))

    def _forced_cause(self, x: int, allowed: Mask, why: Why):
        k = allowed.bit_length() - 1
        noted, found = self._reach.get((k, tuple(why))), self._groups.get(k)
        # the k-groups the rule looked at (``found``, not found again after the cells it
        # fixed: as many as when the budget search ran, or more)
        return ("all",) if noted is None or found is None else ("forced", noted, k, found)

    def _node(self, key, cause) -> list:
        """The node ``key`` shared by the removals of one application of a rule (forgotten by
        :meth:`inference`), made (:meth:`_fresh`) when first asked for: its premises are the
        state then, which ``cause()`` describes."""
        node = self._shared.get(key)
        if node is None:
            node = self._shared[key] = self._fresh(cause())
        return node

    def _fresh(self, cause) -> list:
        """A node ``[0, seq, cause, None, 0, every]``, laid out as a step that excludes nothing
        and is in no cell's chain: its reason is found, once, from the steps before it
        (numbered below ``seq``)."""
        return [0, next(self._seq), cause, None, 0, self.every]

    def _area_node(self, x: int, allowed: Mask, why: Why = None) -> list:
        """``area`` removes k from x (module text): a node per free area, shared by its cells."""
        k = (~allowed).bit_length() - 1
        areas = self._shared.setdefault(("areas", k), [])
        for cells, node in areas:
            if cells >> x & 1:
                return node
        spread = self.board.spread
        free = self.allowing(k) & ~spread(self.groups(k).cells)
        area = 1 << x
        while True:
            grown = spread(area) & free | area
            if grown == area:
                break
            area = grown
        if (area & free).bit_count() >= k:
            return ("all",)  # not a cramped area (cannot happen): the fallback
        reaches = self._node(("reaches", k), lambda: ("k", self._reaches(k), k))
        node = self._fresh(("k", spread(spread(area)), k, reaches))
        areas.append((area, node))
        return node


    def inference(self) -> None:
        self._shared = {}

    def _count_units(self) -> tuple[int, list[tuple[int, int]]]:
        """``capacity``'s count: the cells it takes, and the groups counted (cells, value),
        found once per :meth:`inference` (the count's premises are the groups when it counted)."""
        counted = self._shared.get("count")
        if counted is None:
            units = []
            for k in values_of(self.anchored):
                found = self.groups(k)
                units.extend((found.masks[i], k) for i in counted_groups(self, k))
            counted = self._shared["count"] = (sum(k for _, k in units), units)
        return counted

    def _reaches(self, k: int) -> int:
        """Every cell fixed to k and the premises of every incomplete k-group's budget search."""
        found = self.groups(k)
        cells = found.cells
        for i in found.incomplete:
            cells |= self.reach(k, found, i).watched
        for mask in found.masks:  # every group is there already
            cells |= mask
        return cells

    def _step(self, x: int, allowed: Mask, rule: str | None, cause, whole: bool = False) -> None:
        old = self.dom[x]
        if self.level:
            self.touched |= 1 << x
        # recorded first: a removal that empties x is part of the contradiction's explanation
        self.history[x] = [(self.start[x] if whole else old) & ~allowed, next(self._seq), cause,
                           self.history[x], old & allowed, self.every, None]
        try:
            self._narrow(x, allowed, rule)
        except Contradiction as e:
            self._emptied = 1 << x  # still in ``allowing`` (the state is at its end)
            e.deps = self.explain(("mask", 1 << x))
            raise

    # --- explaining: on demand, memoized on the steps -----------------------------------------

    def failed(self, contradiction: Contradiction) -> None:
        deps, slack = contradiction.deps, contradiction.slack
        if deps is None:
            cells, value = contradiction.cells, contradiction.value
            if slack is not None:
                cause = ("count", self._count_units()[1], slack)
            elif cells is None:
                cause = ("all",)
            elif value is None:
                cause = ("mask", cells)
            else:
                cause = ("k", cells, value)
            deps = self.explain(cause)
        self.conflict = deps

    def explain(self, cause: tuple) -> int:
        """The reason of a fact about the state as it is (``cause``, as :meth:`cause` gives)."""
        return self.resolve([0, NOW, cause, None, 0, self.every])

    def lost(self, y: int, values: Mask) -> int:
        """The reasons of y's removals of any of ``values`` so far."""
        return self.explain(("lost", (y,), values))

    def resolve(self, node: list) -> int:
        """A step's (or node's) reason: the steps its cause rests on resolved first, the
        newest pending on top (a stack, not recursion: a cone may be deep), each reason kept on
        its step in place of its cause (module text)."""
        if type(node[2]) is int:
            return node[2]
        todo = [node]
        while todo:
            top = todo[-1]
            cause = top[2]
            if type(cause) is int:
                todo.pop()
                continue
            missing: list = []
            self._full = top[5]
            reason = self.evaluate(cause, top[1], missing)
            if missing and reason != top[5]:  # not every decision before it yet
                todo.extend(missing)
            else:
                top[2] = reason
                todo.pop()
        return node[2]

    def evaluate(self, cause, cut: int, missing: list) -> int:
        """The reason of a cause from the steps numbered below ``cut`` (module text); steps
        and nodes whose reason is not known yet go to ``missing`` (counted as 0: the caller
        resolves them and evaluates again)."""
        if type(cause) is list:  # a node
            v = cause[2]
            if type(v) is not int:
                v = self._reason_of(cause, missing)
            return v if v >= 0 else 0
        return EVALUATE[cause[0]](self, cause, cut, missing)

    def _reason_of(self, step: list, missing: list) -> int:
        """The reason of a step (or node) a cause reads, not known yet: found at once, its
        own premises likewise, while the nesting stays within :data:`INLINE_DEPTH`; else it
        goes to ``missing`` (-1): :meth:`resolve` finds it before evaluating the cause again."""
        if self._depth >= INLINE_DEPTH:
            missing.append(step)
            return -1
        outer, self._full = self._full, step[5]
        self._depth += 1
        inner: list = []
        try:
            reason = self.evaluate(step[2], step[1], inner)
        finally:
            self._depth -= 1
            self._full = outer
        if inner and reason != step[5]:
            missing.append(step)
            return -1
        step[2] = reason
        return reason

    def _k_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("k", cells, k[, node]): the cells' state for k (and a node's reason)."""
        r = self._kdeps(cause[1], cause[2], cut, missing)
        return r | self.evaluate(cause[3], cut, missing) if len(cause) > 3 else r

    def _exit_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("exit", group, k): the group's and its border's state for k."""
        group = 0
        for y in cause[1]:
            group |= 1 << y
        return self._kdeps(self.board.spread(group), cause[2], cut, missing)

    def _forced_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("forced", noted, k, groups): a budget search's premises."""
        _, noted, k, groups = cause
        return self._kdeps(search_premises(self, k, noted, groups), k, cut, missing)

    def _cells_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("cells", cells): their whole state."""
        return self._deps_over(cause[1], cut, missing)

    def _groups_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("groups", [cells, ...]): their whole state."""
        r = 0
        for cells in cause[1]:
            r |= self._deps_over(cells, cut, missing)
        return r

    def _mask_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("mask", set of cells): their whole state."""
        return self._deps_over(values_of(cause[1]), cut, missing)

    def _near_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("near", x): the whole state of x's neighbours and theirs."""
        spread = self.board.spread
        return self._deps_over(values_of(spread(spread(1 << cause[1]))), cut, missing)

    def _lost_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("lost", cells, values): the cells' removals of any of the values."""
        r = 0
        for y in cause[1]:
            r |= self._lost(y, cause[2], cut, missing)
        return r

    def _anchored_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("anchored", cells, k): every fixed cell's state and the cells' state for k."""
        fixed = [y for y in range(len(self.dom)) if is_single(self._dom_at(y, cut))]
        return self._deps_over(fixed, cut, missing) | self._kdeps(cause[1], cause[2], cut, missing)

    def _all_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("all",): every cell's state (the fallback)."""
        return self._deps_over(range(len(self.dom)), cut, missing)

    def _dom_at(self, y: int, cut: int) -> Mask:
        """y's values before the steps numbered from ``cut`` on."""
        if cut == NOW:
            return self.dom[y]
        h = self.history[y]
        while h is not None and h[1] >= cut:
            h = h[3]
        return self.start[y] if h is None else h[4]

    def _deps_over(self, cells, cut: int, missing: list) -> int:
        """The reasons of the cells' whole state: their steps numbered below ``cut`` (kept,
        under 0, on the newest of them)."""
        history, r, touched = self.history, 0, self.touched
        for y in cells:
            if not touched >> y & 1:
                continue
            h = history[y]
            while h is not None and h[1] >= cut:
                h = h[3]
            if h is None:
                continue
            kept = h[6]
            if kept is not None and 0 in kept:
                r |= kept[0]
                continue
            d, pending, step = 0, False, h
            while step is not None:
                v = step[2]
                if type(v) is not int:
                    v = self._reason_of(step, missing)
                if v >= 0:
                    d |= v
                else:
                    pending = True
                step = step[3]
            if not pending:
                if kept is None:
                    kept = h[6] = {}
                kept[0] = d
            r |= d
        return r

    def _lost(self, y: int, values: Mask, cut: int, missing: list) -> int:
        """The reasons of y's steps numbered below ``cut`` that removed any of ``values``."""
        r = 0
        h = self.history[y]
        while h is not None and h[1] >= cut:
            h = h[3]
        while h is not None:
            if h[0] & values:
                v = h[2]
                if type(v) is not int:
                    v = self._reason_of(h, missing)
                if v >= 0:
                    r |= v
            h = h[3]
        return r

    def _kdeps(self, cells: int, k: int, cut: int, missing: list) -> int:
        """The reasons of the cells' state for k before ``cut``: of a cell fixed to k, the
        oldest of the least steps (by newest decision) that exclude every other value it started
        with (a guess, single-exit, forced-cell), else all its steps; of one that lost k, the
        oldest of the least steps that exclude k; of one that allows k among others, nothing (no
        fact about k holds there); of one that never allowed k, nothing the search did. Kept per
        k on the cell's newest step before ``cut``, from which alone it follows."""
        bk = bit(k)
        history, start, full = self.history, self.start, self._full
        # a cell fixed to k or without k then is so now (in this state, the one that recorded
        # the steps or one forked from it): only those can hold a fact about k
        facts = ~self.allowing(k) | self._emptied
        for y in self.fixed.get(k, ()):
            facts |= 1 << y
        r = 0
        cells &= self.touched  # the others changed only before the first decision: reason 0
        for y in values_of(cells & facts):
            h = history[y]
            while h is not None and h[1] >= cut:
                h = h[3]
            if h is None or not start[y] & bk:
                continue  # unchanged since the start, or never allowed k
            kept = h[6]
            if kept is not None and k in kept:
                r |= kept[k]
            else:
                now = h[4]
                fixed = now == bk
                if now & bk and not fixed:
                    continue
                want = start[y] & ~bk if fixed else bk
                best, pending, step = None, False, h
                while step is not None:
                    if step[0] & want == want if fixed else step[0] & bk:
                        v = step[2]
                        if type(v) is not int:
                            v = self._reason_of(step, missing)
                        if v < 0:
                            pending = True
                        elif best is None or v.bit_length() <= best.bit_length():
                            best = v
                    step = step[3]
                if best is None and fixed and not pending:
                    best = self._deps_over((y,), cut, missing)
                if best is None or missing:
                    continue
                if kept is None:
                    kept = h[6] = {}
                kept[k] = best
                r |= best
            if r == full:
                return r  # every decision before it: nothing to add
        return r

    def _count_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("count", units, slack): the reason of a conclusion of ``capacity``'s count that holds as long as the count
        takes more than ``slack`` fewer cells: groups left out, newest decisions first, while
        their values fit in the slack (a subset of the groups counted gives a count as sound,
        each in a region of its own); the union of the rest's reasons."""
        _, units, slack = cause
        deps = sorted(((self._deps_over(values_of(mask), cut, missing), k) for mask, k in units),
                      key=lambda u: -u[0].bit_length())
        r = 0
        for dep, k in deps:
            if dep and k <= slack:
                slack -= k
            else:
                r |= dep
        return r

    def _cap_reason(self, cause: tuple, cut: int, missing: list) -> int:
        """("cap", x, removed): ``size-cap`` removes ``removed`` from x (module text), from the
        domains before ``cut``: the outside neighbours of the cells connected to x through
        cells allowing one of them lost them all."""
        _, x, removed = cause
        nbrs = self.board.neighbours
        area, frontier = 1 << x, [x]
        while frontier:
            for z in nbrs[frontier.pop()]:
                if not area >> z & 1 and self._dom_at(z, cut) & removed:
                    area |= 1 << z
                    frontier.append(z)
        if area.bit_count() >= (removed & -removed).bit_length() - 1:
            return self._all_reason(cause, cut, missing)  # not the cap's area (cannot happen)
        r = 0
        for y in cells_of(self.board.spread(area) & ~area):
            r |= self._lost(y, removed, cut, missing)
        return r


CAUSES = {
    "capacity": ReasonState._capacity_cause,
    "size-cap": lambda state, x, allowed, why: ("cap", x, state.dom[x] & ~allowed),
    "single-exit": lambda state, x, allowed, why: ("exit", why, allowed.bit_length() - 1),
    "forced-cell": ReasonState._forced_cause,
    "area": ReasonState._area_node,
    "complete-group": lambda state, x, allowed, why: ("cells", why),
    "neighbour-support": lambda state, x, allowed, why: ("lost", state.board.neighbours[x], state.dom[x] & ~allowed),
    "neighbour-fit": lambda state, x, allowed, why: ("near", x),
    "join-overflow": lambda state, x, allowed, why: ("groups", why),
}
"""Per rule, what a removal's cause records (module text: the premises per rule)."""

EVALUATE = {
    "k": ReasonState._k_reason, "exit": ReasonState._exit_reason, "forced": ReasonState._forced_reason,
    "cells": ReasonState._cells_reason, "groups": ReasonState._groups_reason, "mask": ReasonState._mask_reason,
    "near": ReasonState._near_reason, "lost": ReasonState._lost_reason, "cap": ReasonState._cap_reason,
    "anchored": ReasonState._anchored_reason, "count": ReasonState._count_reason, "all": ReasonState._all_reason,
}
"""Per kind of cause, how its reason is found."""


def decision_literal(x: int, before: Mask, allowed: Mask) -> tuple[int, Mask]:
    """A decision keeping ``allowed`` of x's values ``before`` as the literal it asserts
    (:meth:`ReasonState.assume`): (x, the values x's value lies within)."""
    return (x, allowed) if is_single(allowed) else (x, ~(before & ~allowed))


__all__ = ["ReasonState", "WHOLE_RULES", "decision_literal"]
