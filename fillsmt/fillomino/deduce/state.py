"""The state of one run: the domains as masks, the statistics, and what changed.

Bookkeeping that keeps a round cheap when domains hold hundreds of values (none of it changes
the fixpoint, only the work): the per-value rules run only for values some cell is fixed to, and
only when a cell lost that value or was fixed to it since the value was last looked at. A group's
budget search and a free area found large enough are remembered with the cells they looked at
(those cells and their neighbours) and redone only once one of them loses the value or is fixed
to it. A complete group whose neighbours have lost its value is passed over (its border, a set,
meets no cell that allows the value).

Sets of cells are ints (bit x for cell x): the budget searches run on
them layer by layer, and a noted result is checked, when next asked for, against the cells
changed for its value since it was found (one int per value, see :class:`Noted`) instead of
registering a watcher on each of its cells.
"""

from __future__ import annotations

from typing import Sequence, Union

from fillsmt.fillomino.deduce.board import Board, Contradiction, Groups, find_groups
from fillsmt.fillomino.deduce.masks import Mask, bit, describe, is_single
from fillsmt.fillomino.deduce.searches import Cells, budget_layers, layered

Why = Union[Sequence[int], Sequence[Sequence[int]], None]
"""The cells that made a rule apply (see :meth:`State.restrict`)."""


class Noted:
    """A result about ``cells`` that depends only on whether some cells (the watched ones)
    allow, or are fixed to, one value. It holds until one of them loses the value or is fixed
    to it (:meth:`State.live`); ``analysed`` says forced-cell has looked at it.

    A cell changes for a value at most once: once it has lost the value it cannot gain it
    back, and once it is fixed to it any further change empties it (a contradiction). So the
    cells changed for the value since the result was found are those a state has changed for it
    (``State._changed``) less those changed when it was found (``base``), and a result can be
    shared by every state forked from the one that found it, unchanged.

    ``watched`` are the cells whose change for the value ends it: ``cells`` and their
    neighbours; ``base`` the cells changed for the value when it was found. ``owner`` is the
    token (:attr:`State.token`) of the state whose ``analysed`` this is: another state copies
    the result before setting it (:meth:`State.to_analyse`). A token, not the state: a state
    holds its noted results, and a result holding its state would make a reference cycle that
    only the cyclic garbage collector frees (a search makes many). ``origin`` is the result
    first noted (None: this one), which every copy shares: two live copies of one origin stand
    for one unchanged search. A budget search's result (:meth:`State.reach`) also keeps its
    ``layers`` (:func:`~.searches.budget_layers`): while it is live, the search would find them
    again, layer for layer, since it looks at no cell but the watched ones."""

    __slots__ = ("cells", "watched", "base", "owner", "analysed", "origin", "layers")

    def __init__(
        self,
        cells: Cells,
        watched: Cells,
        base: Cells,
        owner: object = None,
        analysed: bool = False,
        origin: Noted | None = None,
        layers: list[int] | None = None,
    ) -> None:
        self.cells, self.watched, self.base = cells, watched, base
        self.owner, self.analysed, self.origin = owner, analysed, origin
        self.layers = layers

    @property
    def first(self) -> Noted:
        """The result first noted, of which this is the same or a copy."""
        return self.origin or self


class State:
    """The domains as masks, the statistics, and the bookkeeping of what changed."""

    steiner: bool = False
    """Whether ``capacity`` raises its count by a Steiner tree (``capacity``'s module text):
    set on a search's root (forks copy it; the strong search's proofs, ``solve_strong``); a
    state that explains its removals never does (its count's reason knows pairs only)."""

    def __init__(self, board: Board, dom: list[Mask], rules: Sequence[str]):
        self.board = board
        self.dom = dom
        self.fixed_by_rule = {rule: 0 for rule in rules}
        self.removed_by_rule = {rule: 0 for rule in rules}
        self.fixed: dict[int, Cells] = {}
        """Per value some cell is fixed to: those cells (bit x for cell x)."""
        for x, m in enumerate(dom):
            if is_single(m):
                k = m.bit_length() - 1
                self.fixed[k] = self.fixed.get(k, 0) | 1 << x
        self.anchored: Mask = sum(bit(k) for k in self.fixed)
        """The values some cell is fixed to."""
        self.dirty: Mask = self.anchored
        """Values that lost a cell or gained a fixed cell since they were last looked at."""
        self.rounds = 0
        self.changed_cells: list[int] = []
        """Every cell whose domain shrank, in order (a cell may appear many times)."""
        self.seen_upto: dict[str, int] = {}
        """Per grid rule: how much of ``changed_cells`` it has taken into account."""
        self._changed: dict[int, Cells] = {}
        """Per value some cell is fixed to: the cells changed for it (lost it or were fixed to
        it) since it was; against it a noted result is checked (:meth:`live`)."""
        self._allow: dict[int, Cells] = {}
        """Per value asked for (:meth:`allowing`): the cells that allow it, kept up to date."""
        self._allow_values: Mask = 0
        self.gone: Mask = 0
        """Values ``capacity`` has removed from every cell (for good: domains only shrink)."""
        self.capped: tuple[Mask, list[int]] | None = None
        """What size-cap's last sweep looked at (the values fixed to, each cell's largest other
        value), shared with forked states."""
        self._regroup: Mask = 0
        self._groups: dict[int, Groups] = {}
        self._reach: dict[tuple[int, tuple[int, ...]], Noted] = {}
        """The last noted budget search per value and group, live or not."""
        self.joins: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[Noted, Noted, int]] = {}
        """``capacity``'s shared regions of two k-groups, with the budget searches (the
        ``first`` of each group's noted ``reach``) they were computed from."""
        self._roomy: dict[int, list[Noted]] = {}
        self.apart: dict[int, int] = {}
        """``capacity``'s Steiner count: per value k, the cells of k-groups no region of k
        cells holds together (found here or in a state forked from)."""
        self.token = object()
        """This state's identity for the results it notes (:attr:`Noted.owner`)."""
        self._parent: State | None = None
        """The state forked from, whose free areas are handed down when this one first asks
        for them."""

    def fork(self) -> State:
        """A copy to narrow further (a search's child), its statistics at zero, that knows the
        domains it starts from are a fixpoint of the rules: its first round looks only at what
        changes after the fork, as a later round of one run does.

        Shared, not copied: the board and the k-groups found (immutable, valid until a cell is
        fixed to k, which ``_regroup`` tracks). Copied: the domains, the fixed cells, the cells
        changed per value. Handed down: the noted searches (``reach``: the parent's dict, copied;
        free areas: the parent's live ones, when the child first asks for them), shared, not
        copied (see :class:`Noted`). The child checks each against its own cells changed per
        value, which hold the parent's: so a result is used only while no cell it looked at
        has lost its value or been fixed to it since it was found, in the parent's run or the
        child's: the condition under which one run reuses it. Sound whatever is kept or
        dropped: the caches only save work; every restriction a rule makes is sound on its own.
        Valid only on a state at the rules' fixpoint (no contradiction found). The search
        changes a state no more once it has forked the children it goes on with (a probe's
        child is dropped before its parent changes)."""
        child = State.__new__(type(self))
        child.board = self.board
        child.dom = list(self.dom)
        child.fixed_by_rule = dict.fromkeys(self.fixed_by_rule, 0)
        child.removed_by_rule = dict.fromkeys(self.removed_by_rule, 0)
        child.fixed = dict(self.fixed)
        child.anchored = self.anchored
        child.dirty = 0
        child.rounds = 0
        child.changed_cells = []
        child.seen_upto = dict.fromkeys(self.seen_upto, 0)
        child._changed = dict(self._changed)
        child._allow = dict(self._allow)
        child._allow_values = self._allow_values
        child.capped = self.capped
        child.gone = self.gone
        child._regroup = self._regroup
        child._groups = dict(self._groups)
        child._reach = dict(self._reach)
        child.joins = dict(self.joins)
        child._roomy = {}
        child.apart = dict(self.apart)
        child.steiner = self.steiner
        child._parent = self
        child.token = object()
        return child

    def live(self, k: int, noted: Noted) -> bool:
        """Whether a noted result for value k still holds here: none of its watched cells has
        changed for k since it was found (see :class:`Noted`)."""
        return not (self._changed.get(k, 0) ^ noted.base) & noted.watched

    def allowing(self, k: int) -> Cells:
        """The cells that allow k (bit x for cell x)."""
        cells = self._allow.get(k)
        if cells is None:
            bk = bit(k)
            cells = sum(1 << x for x, m in enumerate(self.dom) if m & bk)
            self._allow[k] = cells
            self._allow_values |= bk
        return cells

    def assume(self, x: int, allowed: Mask) -> None:
        """Keep only ``allowed`` values in cell x by a guess, not a rule (counted nowhere)."""
        self._narrow(x, allowed, None)

    def restrict(self, x: int, allowed: Mask, rule: str, why: Why = None) -> None:
        """Keep only ``allowed`` values in cell x; an empty domain is a contradiction.

        ``why`` (ignored here, recorded by a tracing state such as
        :class:`fillsmt.fillomino.explain.TracingState`) names the cells that made the rule
        apply, as the rule already holds them: a group's cells, a cell's neighbours, or a list of
        groups' cells; None when the rule has no such cells at hand (``area``, ``size-cap``)."""
        self._narrow(x, allowed, rule)

    def _narrow(self, x: int, allowed: Mask, rule: str | None) -> None:
        dom = self.dom
        old = dom[x]
        new = old & allowed
        if new == old:
            return
        removed = old ^ new
        dom[x] = new
        self.changed_cells.append(x)
        self.dirty |= removed
        if rule is not None:
            self.removed_by_rule[rule] += removed.bit_count()
        if new == 0:
            raise Contradiction(
                f"{self.board.where(x)} has no possible value left ({rule or 'a guess'} removed {describe(removed)})"
            )
        kept = removed & self._allow_values
        if kept:
            gone = ~(1 << x)
            allow = self._allow
            while kept:  # values_of, inlined (a hot loop)
                low = kept & -kept
                k = low.bit_length() - 1
                allow[k] &= gone
                kept ^= low
        touched = removed
        if not new & (new - 1):  # fixed
            k = new.bit_length() - 1
            if rule is not None:
                self.fixed_by_rule[rule] += 1
            fixed = self.fixed
            fixed[k] = fixed.get(k, 0) | 1 << x
            self.anchored |= new
            self.dirty |= new
            self._regroup |= new
            touched |= new
        logged = touched & self.anchored
        if logged:
            cell = 1 << x
            changed = self._changed
            while logged:
                low = logged & -logged
                k = low.bit_length() - 1
                changed[k] = changed.get(k, 0) | cell
                logged ^= low

    def groups(self, k: int) -> Groups:
        """The k-groups (cached until a cell is fixed to k; borders do not depend on domains)."""
        found = self._groups.get(k)
        if found is None or self._regroup >> k & 1:
            found = self._groups[k] = find_groups(self.board, self.dom, k, self.fixed.get(k, 0), found)
            self._regroup &= ~bit(k)
        return found

    def note(self, k: int, cells: Cells, layers: list[int] | None = None) -> Noted:
        """A result about ``cells`` that depends on value k in them and their neighbours (a
        budget search's with its ``layers``)."""
        return Noted(cells, self.board.spread(cells), self._changed.get(k, 0), self.token, layers=layers)

    def reach(self, k: int, found: Groups, i: int) -> Noted:
        """The cells group i can reach within its budget (see :func:`budget_layers`).

        Remembered, and redone only when a cell the search looked at (those cells and their
        neighbours) has lost k or been fixed to k since: otherwise it would find the same.
        ``found`` must be the current k-groups.
        """
        key = (k, found.groups[i].cells)
        kept = self._reach.get(key)
        if kept is not None and not (self._changed.get(k, 0) ^ kept.base) & kept.watched:  # live
            return kept
        layers = budget_layers(self, k, found, [i])
        fresh = self._reach[key] = self.note(k, layered(layers), layers)
        if kept is not None and kept.cells == fresh.cells:
            # forced-cell's analysis depends only on the group and these cells, and the cells it
            # fixed then are fixed still (domains only shrink): no need to look again
            fresh.analysed = kept.analysed
        return fresh

    def to_analyse(self, k: int, found: Groups, i: int) -> Noted | None:
        """Group i's live budget search (:meth:`reach`) if forced-cell has not looked at it here
        or in a state this one was forked from, marked looked at (in this state only); None if
        it has."""
        noted = self.reach(k, found, i)
        if noted.analysed:
            return None
        if noted.owner is not self.token:  # shared with the states forked from the same parent
            noted = self._reach[(k, found.groups[i].cells)] = Noted(
                noted.cells, noted.watched, noted.base, self.token, False, noted.first, noted.layers
            )
        noted.analysed = True
        return noted

    def roomy(self, k: int) -> list[Noted]:
        """The noted free areas of at least k cells (see ``area``; some may be no longer live),
        the parent's live ones handed down when first asked for."""
        areas = self._roomy.get(k)
        if areas is None:
            parent = self._parent
            areas = self._roomy[k] = [] if parent is None else [n for n in parent.roomy(k) if self.live(k, n)]
        return areas
