"""The state of one run: the domains as masks, the statistics, and what changed.

Bookkeeping that keeps a round cheap when domains hold hundreds of values (none of it changes
the fixpoint, only the work): the per-value rules run only for values some cell is fixed to, and
only when a cell lost that value or was fixed to it since the value was last looked at. A group's
budget search and a free area found large enough are remembered with the cells they looked at
(those cells and their neighbours) and redone only once one of them loses the value or is fixed
to it. A complete group whose neighbours have lost its value is not looked at again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from fillsmt.fillomino.deduce.board import Board, Contradiction, Groups, find_groups
from fillsmt.fillomino.deduce.masks import Mask, bit, describe, is_single, values_of
from fillsmt.fillomino.deduce.searches import Cells, budget_distances, reach_cells




Why = Union[Sequence[int], Sequence[Sequence[int]], None]
"""The cells that made a rule apply (see :meth:`State.restrict`)."""


@dataclass(eq=False)
class Noted:
    """A result about ``cells`` that depends only on whether some cells (the watched ones)
    allow, or are fixed to, one value. It stays ``valid`` until one of them loses the value or
    is fixed to it; ``analysed`` says forced-cell has looked at it."""

    cells: Cells
    watched: Cells = frozenset()
    """The cells whose change for the value ends it: ``cells`` and their neighbours."""
    valid: bool = True
    analysed: bool = False
    inherited: bool = False
    """Copied into a forked state (:meth:`State.fork`): no watcher there; the state checks
    ``watched`` against the cells it has changed since the fork instead."""
    origin: Noted | None = None
    """The result first noted (None: this one), which every handed-down copy shares: two
    live copies of one origin stand for one unchanged search."""

    def handed_down(self) -> Noted:
        """A copy for a forked state (its own flags, the same cells and origin)."""
        return Noted(self.cells, self.watched, True, self.analysed, True, self.first)

    @property
    def first(self) -> Noted:
        """The result first noted, of which this is the same or a handed-down copy."""
        return self.origin or self


class State:
    """The domains as masks, the statistics, and the bookkeeping of what changed."""

    hand_down: bool = True
    """Whether :meth:`fork` hands the noted searches down (False: the fifth session's fork,
    which dropped them; kept to measure and test the two side by side)."""

    remember_joins: bool = True
    """Whether ``capacity`` reuses a shared region of two groups (:attr:`joins`; False: found
    afresh each time, kept to test the two side by side)."""

    def __init__(self, board: Board, dom: list[Mask], rules: Sequence[str]):
        self.board = board
        self.dom = dom
        self.fixed_by_rule = {rule: 0 for rule in rules}
        self.removed_by_rule = {rule: 0 for rule in rules}
        self.fixed: dict[int, list[int]] = {}
        for x, m in enumerate(dom):
            if is_single(m):
                self.fixed.setdefault(m.bit_length() - 1, []).append(x)
        self.anchored: Mask = sum(bit(k) for k in self.fixed)
        """The values some cell is fixed to."""
        self.dirty: Mask = self.anchored
        """Values that lost a cell or gained a fixed cell since they were last looked at."""
        self.rounds = 0
        self.changed_cells: list[int] = []
        """Every cell whose domain shrank, in order (a cell may appear many times)."""
        self.seen_upto: dict[str, int] = {}
        """Per grid rule: how much of ``changed_cells`` it has taken into account."""
        self._watchers: dict[int, dict[int, list[Noted]]] = {}
        """Per value: the noted results that a change of each cell (for that value) ends."""
        self.closed: set[tuple[int, ...]] = set()
        """Complete groups none of whose neighbours allows their value any more (for good)."""
        self._regroup: Mask = 0
        self._groups: dict[int, Groups] = {}
        self._reach: dict[tuple[int, tuple[int, ...]], Noted] = {}
        self.joins: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[Noted, Noted, frozenset[int]]] = {}
        """``capacity``'s shared regions of two k-groups, with the budget searches (the
        ``first`` of each group's noted ``reach``) they were computed from."""
        self._roomy: dict[int, dict[int, Noted]] = {}
        self._touched: dict[int, set[int]] | None = None
        """Per value: the cells changed for it since the fork (forked states only), against
        which the noted results handed down by the parent are checked."""
        self._handed: dict[int, list[Noted]] = {}
        self._handed_checked: dict[int, int] = {}
        """Per value: how many cells ``_touched`` held when the handed-down free areas were
        last checked (none of them can have changed while it holds no more)."""
        """Per value: the distinct free areas handed down by the parent."""
        self._parent: State | None = None
        """The state forked from, whose free areas for a value are handed down when this one
        first asks for them (it is not changed after the fork)."""

    def fork(self) -> State:
        """A copy to narrow further (a search's child), its statistics at zero, that knows the
        domains it starts from are a fixpoint of the rules: its first round looks only at what
        changes after the fork, as a later round of one run does.

        Shared, not copied: the board and the k-groups found (immutable, valid until a cell is
        fixed to k, which ``_regroup`` tracks). Copied: the domains, the fixed cells, the closed
        groups (closed for good: domains only shrink). Handed down (issue 17, sixth session): the
        noted searches (``reach``, free areas) still valid here, as copies marked
        ``inherited``. The child registers no watcher for them (that registration is what
        makes a noted result costly); it records the cells it changes per value
        (``_touched``) and drops a handed-down result once one of its watched cells is among
        them. So a result is used only while no cell it looked at has lost its value or been
        fixed to it since it was found, in the parent's run (its watchers) or the child's
        (``_touched``): the condition under which one run reuses it. Sound whatever is kept or
        dropped: the caches only save work; every restriction a rule makes is sound on its own.
        Valid only on a state at the rules' fixpoint (no contradiction found)."""
        child = State.__new__(type(self))
        child.board = self.board
        child.dom = list(self.dom)
        child.fixed_by_rule = dict.fromkeys(self.fixed_by_rule, 0)
        child.removed_by_rule = dict.fromkeys(self.removed_by_rule, 0)
        child.fixed = {k: list(xs) for k, xs in self.fixed.items()}
        child.anchored = self.anchored
        child.dirty = 0
        child.rounds = 0
        child.changed_cells = []
        child.seen_upto = dict.fromkeys(self.seen_upto, 0)
        child._watchers = {}
        child.closed = set(self.closed)
        child._regroup = self._regroup
        child._groups = dict(self._groups)
        child._touched = {}
        child._reach = {key: n.handed_down() for key, n in self._reach.items()
                        if self._live(key[0], n)} if self.hand_down else {}
        child.joins = dict(self.joins) if self.hand_down else {}
        child._roomy = {}
        child._handed = {}
        child._handed_checked = {}
        child._parent = self if self.hand_down else None
        return child

    def _live(self, k: int, noted: Noted) -> bool:
        """Whether a noted result for value k still holds here (see :meth:`fork`)."""
        if noted.valid and noted.inherited and not noted.watched.isdisjoint(self._touched.get(k, ())):
            noted.valid = False
        return noted.valid

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
        old = self.dom[x]
        new = old & allowed
        if new == old:
            return
        removed = old & ~new
        self.dom[x] = new
        self.changed_cells.append(x)
        self.dirty |= removed
        if rule is not None:
            self.removed_by_rule[rule] += removed.bit_count()
        if new == 0:
            raise Contradiction(f"{self.board.where(x)} has no possible value left "
                                 f"({rule or 'a guess'} removed {describe(removed)})")
        touched = removed
        if is_single(new):
            k = new.bit_length() - 1
            if rule is not None:
                self.fixed_by_rule[rule] += 1
            self.fixed.setdefault(k, []).append(x)
            self.anchored |= new
            self.dirty |= new
            self._regroup |= new
            touched |= new
        for k in values_of(touched & self.anchored):
            for noted in self._watchers.get(k, {}).pop(x, ()):
                noted.valid = False
            if self._touched is not None:
                self._touched.setdefault(k, set()).add(x)

    def groups(self, k: int) -> Groups:
        """The k-groups (cached until a cell is fixed to k; borders do not depend on domains)."""
        if k not in self._groups or self._regroup & bit(k):
            self._groups[k] = find_groups(self.board, self.dom, k, self.fixed.get(k, ()))
            self._regroup &= ~bit(k)
        return self._groups[k]

    def note(self, k: int, cells: Cells) -> Noted:
        """A result about ``cells`` that depends on value k in them and their neighbours."""
        watched = cells.union(*(self.board.neighbours[x] for x in cells))
        noted = Noted(cells, watched)
        watchers = self._watchers.setdefault(k, {})
        for y in watched:
            watchers.setdefault(y, []).append(noted)
        return noted

    def reach(self, k: int, found: Groups, i: int) -> Noted:
        """The cells group i can reach within its budget (see :func:`budget_distances`).

        Remembered, and redone only when a cell the search looked at (those cells and their
        neighbours) has lost k or been fixed to k since: otherwise it would find the same.
        ``found`` must be the current k-groups.
        """
        key = (k, found.groups[i].cells)
        kept = self._reach.get(key)
        if kept is None or not self._live(k, kept):
            reach = budget_distances(self, k, found, [i])
            kept = self._reach[key] = self.note(k, reach_cells(found, reach, len(self.dom)))
        return kept

    def roomy(self, k: int) -> dict[int, Noted]:
        """Per cell: a noted free area of at least k cells around it (see ``area``)."""
        if k not in self._roomy:
            self._roomy[k] = {}
            if self._parent is not None:
                copies: dict[Noted, Noted | None] = {}
                kept = self._roomy[k]
                for x, n in self._parent.roomy(k).items():
                    if n not in copies:
                        copies[n] = n.handed_down() if self._parent._live(k, n) else None
                    c = copies[n]
                    if c is not None:
                        kept[x] = c
                self._handed[k] = [c for c in copies.values() if c is not None]
        handed = self._handed.get(k)
        if handed:
            touched = len(self._touched.get(k, ()))
            if self._handed_checked.get(k) != touched:
                for n in handed:
                    self._live(k, n)
                self._handed_checked[k] = touched
        return self._roomy[k]

