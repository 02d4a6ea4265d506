"""Region reasoning inside Z3's search: a user propagator for Fillomino.

The propagator tracks the one-hot atoms ``v_x_k`` ("cell x holds k") of the ``onehot-prop``
encoding (:mod:`fillsmt.fillomino.encode_onehot`) through Z3's
``UserPropagateBase``. Z3 tells it each atom the search fixes (``fixed``), each new decision
level (``push``) and each backtrack (``pop``), and hands it the complete assignment before it
answers ``sat`` (``final``). :class:`RegionState` holds the partial grid (the number of each
cell whose true atom is known, and the numbers ruled out by false atoms) and finds, in terms of
atom indices, what to report; :class:`RegionPropagator` is the glue to Z3.

What it reports (``conflict(deps)`` says "not all of these atoms have their current values";
``propagate(e, deps)`` says "these atoms' current values imply e"):

* **too big**: a connected group of k+1 cells all holding k → conflict on their k+1 true atoms.
  Sound: those cells would lie in one region of more than k cells.
* **closed**: a connected group G of exactly k cells holding k → each neighbour y of G that may
  still hold k gets ``not v_y_k``, justified by G's atoms. Sound: y holding k would join G's
  region, making it bigger than k.
* **joining too much** (eager only): a free neighbour z of a group G (fewer than k cells of k)
  next to other groups of k, with more than k cells in G, z and those groups → ``not v_z_k``,
  justified by the atoms of G and of those groups. Sound: z holding k would make them one
  region of more than k cells.
* **too little room** (eager only): a group G of fewer than k cells holding k, and A, the cells
  reachable from G through cells that hold k or are open with k allowed (k in the domain, not
  ruled out), has fewer than k cells → conflict on G's true atoms and, for each cell z next to A
  outside it whose domain allows k, the atom that keeps z out (``v_z_k`` false if known, else
  z's true atom of another number). Sound: G's region is connected and holds only cells of
  number k, so it lies inside A, which is too small.
* **final**: on the complete assignment every maximal group of equal numbers is checked; a
  group bigger than its number gets the "too big" conflict (its first k+1 cells in BFS order
  are connected), a smaller one the conflict on its true atoms and its neighbours' false
  ``v_z_k`` atoms (the neighbours hold other numbers, so in a complete assignment ``v_z_k`` is
  false wherever k is in z's domain). Sound as above.

Completeness: every report is implied by the Fillomino rules, so no solution is ever cut off,
and ``final`` refuses exactly the complete assignments whose grid has a region of the wrong size:
the model Z3 gives is a valid grid (the ``onehot-prop`` encoding fixes one number per cell and nothing
else, so this check is what makes it exact). As each conflict blocks the current assignment of
the atoms involved, the search ends. :meth:`RegionState.assign` with ``eager=False`` leaves the
eager reports out (only the conflict of two numbers in one cell, and ``final``); Z3's propagator
is always eager.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from fillsmt.grid import neighbour_indices


@dataclass
class Report:
    """What one event found: conflicts (each a list of atom indices whose current values cannot
    stand together) and propagations (atom index to set false, justified by atom indices)."""

    conflicts: list[list[int]] = field(default_factory=list)
    falsified: list[tuple[int, list[int]]] = field(default_factory=list)


class RegionState:
    """The partial grid the search has fixed so far, undone on backtracking.

    Atoms are numbered 0..n-1; ``atoms[i] = (x, k)``."""

    def __init__(self, height: int, width: int, atoms: list[tuple[int, int]]):
        self.h, self.w = height, width
        cells = height * width
        self.adj = [neighbour_indices(height, width, x) for x in range(cells)]
        self.atoms = atoms
        self.atom_of: list[dict[int, int]] = [{} for _ in range(cells)]
        for i, (x, k) in enumerate(atoms):
            self.atom_of[x][k] = i
        self.value = [0] * cells  # the number a true atom gives the cell, 0 when unknown
        self.ruled_out: list[set[int]] = [set() for _ in range(cells)]
        self.trail: list[tuple[int, int]] = []  # (cell, k): k > 0 a value set, k < 0 -k ruled out
        self.levels: list[int] = []

    # -- backtracking ------------------------------------------------------------------------
    def push(self) -> None:
        self.levels.append(len(self.trail))

    def pop(self, n: int) -> None:
        target = self.levels[-n]
        del self.levels[-n:]
        while len(self.trail) > target:
            x, k = self.trail.pop()
            if k > 0:
                self.value[x] = 0
            else:
                self.ruled_out[x].discard(-k)

    # -- events --------------------------------------------------------------------------------
    def assign(self, i: int, truth: bool, eager: bool) -> Report:
        x, k = self.atoms[i]
        report = Report()
        if truth:
            old = self.value[x]
            if old == k:
                return report
            if old:
                report.conflicts.append([self.atom_of[x][old], i])
                return report
            self.value[x] = k
            self.trail.append((x, k))
            if eager:
                self._check_group(x, k, report)
        else:
            if k in self.ruled_out[x]:
                return report
            self.ruled_out[x].add(k)
            self.trail.append((x, -k))
            if eager:
                seen: set[int] = set()
                for y in self.adj[x]:
                    if self.value[y] == k and y not in seen:
                        group = self._group(y, k)
                        seen.update(group)
                        self._check_room(group, k, report)
        return report

    def final(self) -> Report:
        """Every maximal group of the complete grid checked (module text)."""
        report = Report()
        seen = [False] * len(self.value)
        for x, k in enumerate(self.value):
            if seen[x] or not k:
                continue
            group = self._group(x, k)
            for y in group:
                seen[y] = True
            if len(group) > k:
                report.conflicts.append([self.atom_of[y][k] for y in group[: k + 1]])
            elif len(group) < k:
                report.conflicts.append(self._closed_reason(group, k))
        return report

    # -- the checks ----------------------------------------------------------------------------
    def _group(self, x: int, k: int) -> list[int]:
        """The connected cells holding k around x, in BFS order from x."""
        value, adj = self.value, self.adj
        group, seen = [x], {x}
        i = 0
        while i < len(group):
            for y in adj[group[i]]:
                if y not in seen and value[y] == k:
                    seen.add(y)
                    group.append(y)
            i += 1
        return group

    def _check_group(self, x: int, k: int, report: Report) -> None:
        group = self._group(x, k)
        if len(group) > k:
            report.conflicts.append([self.atom_of[y][k] for y in group[: k + 1]])
        elif len(group) == k:
            reason = [self.atom_of[y][k] for y in group]
            inside = set(group)
            for y in group:
                for z in self.adj[y]:
                    if z in inside or self.value[z] or k in self.ruled_out[z]:
                        continue
                    atom = self.atom_of[z].get(k)
                    if atom is not None:
                        report.falsified.append((atom, reason))
                        inside.add(z)  # once per neighbour
        else:
            self._check_room(group, k, report)
            if not report.conflicts:
                self._check_joins(group, k, report)

    def _check_joins(self, group: list[int], k: int, report: Report) -> None:
        """A free neighbour z of ``group`` that would join it to other groups of k with more
        than k cells in all may not hold k."""
        inside = set(group)
        looked: set[int] = set()
        for y in group:
            for z in self.adj[y]:
                if z in inside or z in looked or self.value[z] or k in self.ruled_out[z] or k not in self.atom_of[z]:
                    continue
                looked.add(z)
                others: list[int] = []
                for u in self.adj[z]:
                    if self.value[u] == k and u not in inside and u not in others:
                        others.extend(self._group(u, k))
                if others and len(group) + 1 + len(others) > k:
                    reason = [self.atom_of[c][k] for c in group] + [self.atom_of[c][k] for c in others]
                    report.falsified.append((self.atom_of[z][k], reason))

    def _check_room(self, group: list[int], k: int, report: Report) -> None:
        """Conflict when the cells group's region could still take number fewer than k."""
        if len(group) >= k:
            return
        value, ruled_out, atom_of, adj = self.value, self.ruled_out, self.atom_of, self.adj
        area, seen = list(group), set(group)
        i = 0
        while i < len(area):  # breadth first; stops as soon as k cells are found
            for z in adj[area[i]]:
                if z in seen:
                    continue
                v = value[z]
                if v == k or (v == 0 and k in atom_of[z] and k not in ruled_out[z]):
                    seen.add(z)
                    area.append(z)
                    if len(area) >= k:
                        return
            i += 1
        reason = [atom_of[y][k] for y in group]
        blocked: set[int] = set()
        for y in area:
            for z in adj[y]:
                if z in seen or z in blocked or k not in atom_of[z]:
                    continue
                blocked.add(z)
                reason.append(self._keeps_out(z, k))
        report.conflicts.append(reason)

    def _keeps_out(self, z: int, k: int) -> int:
        """The atom whose current value keeps cell z from holding k (z's domain allows k)."""
        if k in self.ruled_out[z]:
            return self.atom_of[z][k]
        v = self.value[z]
        assert v and v != k, f"cell {z} is open for {k}, so it cannot keep a region out"
        return self.atom_of[z][v]

    def _closed_reason(self, group: list[int], k: int) -> list[int]:
        reason = [self.atom_of[y][k] for y in group]
        inside, blocked = set(group), set()
        for y in group:
            for z in self.adj[y]:
                if z not in inside and z not in blocked and k in self.atom_of[z]:
                    blocked.add(z)
                    reason.append(self._keeps_out(z, k))
        return reason


def make_propagator(z3, solver, height: int, width: int, terms: dict[str, object]):
    """A :class:`RegionPropagator` on ``solver`` tracking the ``v_R_C_K`` terms among ``terms``
    (name to Z3 Boolean constant), each as the atom (index ``R * width + C``, K)."""
    from fillsmt.fillomino.names import cell_value_of_var

    atoms, tracked = [], []
    for name, term in terms.items():
        try:
            row, col, k = cell_value_of_var(name)
        except ValueError:
            continue
        if row < height and col < width:
            atoms.append((row * width + col, k))
            tracked.append(term)
    return _propagator_class(z3)(solver, RegionState(height, width, atoms), tracked)


_CLASSES: dict[int, type] = {}


def _propagator_class(z3) -> type:
    """The Z3 glue, defined once per z3 module (z3 is imported by the caller, not here)."""
    if id(z3) in _CLASSES:
        return _CLASSES[id(z3)]

    class RegionPropagator(z3.UserPropagateBase):
        """Hands Z3's events to a :class:`RegionState` and its reports back to Z3."""

        def __init__(self, solver, state: RegionState, terms: list):
            super().__init__(solver)
            self.state, self.terms = state, terms
            # Z3 hands ``fixed`` the terms' AST pointers: looked up as integers, without wrapping
            # each in a Python object first as UserPropagateBase.add_fixed would (measured: that
            # wrapping cost more than the region reasoning itself).
            self.index = {t.as_ast().value: i for i, t in enumerate(terms)}
            self.true_ast = z3.BoolVal(True, self.ctx()).as_ast().value
            self.negated: dict[int, object] = {}
            self.events = {"fixed": 0, "final": 0, "conflicts": 0, "propagations": 0}
            self.seconds = 0.0  # inside the callbacks
            self._raw_fixed = z3.Z3_fixed_eh(self._fixed)  # kept alive as long as the propagator
            z3.Z3_solver_propagate_fixed(self.ctx_ref(), solver.solver, self._raw_fixed)
            self.add_final(self._final)
            for t in terms:
                self.add(t)

        def push(self) -> None:
            self.state.push()

        def pop(self, num_scopes: int) -> None:
            self.state.pop(num_scopes)

        def fresh(self, new_ctx):  # Z3 clones a solver (not done by fillsmt's plain checks)
            raise z3.Z3Exception("the region propagator cannot be copied into another context")

        cb: Any  # UserPropagateBase's callback handle: _fixed sets its own while it runs

        def _fixed(self, _ctx, cb, term, value) -> None:
            start = perf_counter()
            self.events["fixed"] += 1
            old, self.cb = self.cb, cb
            report = self.state.assign(self.index[term], value == self.true_ast, True)
            if report.conflicts or report.falsified:
                self._report(report)
            self.cb = old
            self.seconds += perf_counter() - start

        def _final(self) -> None:
            start = perf_counter()
            self.events["final"] += 1
            self._report(self.state.final())
            self.seconds += perf_counter() - start

        def _report(self, report: Report) -> None:
            terms = self.terms
            for atoms in report.conflicts:
                self.events["conflicts"] += 1
                self.conflict([terms[i] for i in atoms])
            if report.conflicts:
                return
            for atom, reason in report.falsified:
                self.events["propagations"] += 1
                neg = self.negated.get(atom)
                if neg is None:
                    neg = self.negated[atom] = z3.Not(terms[atom])
                self.propagate(neg, [terms[i] for i in reason])

    _CLASSES[id(z3)] = RegionPropagator
    return RegionPropagator


__all__ = ["RegionState", "Report", "make_propagator"]
