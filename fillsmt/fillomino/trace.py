"""The deduction rules with their reasons: each rule application as a step a person can follow.

:class:`TracingState` is a :class:`~fillsmt.fillomino.deduce.state.State` that records every
domain change with the rule and the cells that made it apply (the ``why`` the rules hand to
:meth:`~fillsmt.fillomino.deduce.state.State.restrict`). It only records: the rules, their order
and their results are those of :func:`~fillsmt.fillomino.deduce.deduce` (a test compares the
two). :func:`steps_of` groups the changes into :class:`Step` objects: consecutive changes of one
rule with the same reason are one step.

Cells are ``x = row * width + col`` inside, ``(row, col)`` from 0 in every step, and ``r3c5``
(from 1) in the words of a step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.masks import Mask, bit, is_single, values_of
from fillsmt.fillomino.deduce.state import State, Why

Cell = tuple[int, int]
Placed = tuple[int, int, int]
"""A cell and a number: (row, col, number), counted from 0."""


@dataclass(frozen=True)
class Change:
    """One call of ``restrict`` that shrank a domain."""

    cell: int
    old: Mask
    new: Mask
    rule: str
    key: Any
    because: tuple[int, ...]


class TracingState(State):
    """A state that records each domain change with its rule and reason (module text)."""

    def __init__(self, board: Board, dom: list[Mask], rules: Sequence[str]):
        super().__init__(board, dom, rules)
        self.changes: list[Change] = []

    def restrict(self, x: int, allowed: Mask, rule: str, why: Why = None) -> None:
        old = self.dom[x]
        if old & allowed != old:
            key: tuple[str, Mask | tuple[int, ...]]
            if why is None:
                key, because = (rule, old & ~allowed), walled_in(self, x, old & ~allowed)
            else:
                because = flatten(why)
                key = (rule, because)
            self.changes.append(Change(x, old, old & allowed, rule, key, because))
        super().restrict(x, allowed, rule, why)


def flatten(why: Why) -> tuple[int, ...]:
    """A reason's cells: a sequence of cells, or of groups of cells."""
    out: set[int] = set()
    for item in why or ():
        if isinstance(item, int):
            out.add(item)
        else:
            out.update(item)
    return tuple(sorted(out))


def walled_in(state: State, x: int, removed: Mask) -> tuple[int, ...]:
    """The reason of ``area`` and ``size-cap`` (which have no cells at hand): the fixed cells
    around the connected cells that allow a removed value, starting at x — the wall that
    leaves too little room."""
    dom, nbrs = state.dom, state.board.neighbours
    seen, stack, wall = {x}, [x], set()
    while stack:
        y = stack.pop()
        for z in nbrs[y]:
            if z in seen:
                continue
            if dom[z] & removed and not is_single(dom[z]):
                seen.add(z)
                stack.append(z)
            elif is_single(dom[z]):
                wall.add(z)
    return tuple(sorted(wall))


@dataclass
class Case:
    """One branch of a case analysis: the number ``tried`` in a cell, the ``chain`` of rule
    steps that follow from it (not proven facts), and the ``contradiction`` they end in (None:
    the rules stop there)."""

    tried: Placed
    chain: list[Step]
    contradiction: str | None

    def as_dict(self) -> dict:
        return {
            "tried": list(self.tried),
            "chain": [s.as_dict() for s in self.chain],
            "contradiction": self.contradiction,
        }


@dataclass
class Step:
    """One step of an explanation.

    ``cells`` are the cells it fixed (proven), ``removed`` the candidates it removed from cells
    it did not fix, ``because`` the cells that made the rule apply. A case split (``rule`` is
    ``case-split``) holds the number it ``tried`` and the ``chain`` of steps from that
    hypothesis to the ``contradiction``; only its conclusion is in ``cells``/``removed``. A
    nested split (``nested-split``) holds the same, the chain ending where the rules stop, and
    the ``cases`` of the second cell, each refuted; a ``whichever`` step holds the ``cases`` of
    one cell, none refuted, each narrowing the cell it concludes on
    (:mod:`fillsmt.fillomino.cases`). A ``size-caps`` step is a run of size-cap steps that only
    removed candidates, folded into one (:func:`fold_size_caps`).
    """

    rule: str
    cells: list[Placed]
    removed: list[Placed]
    because: list[Cell]
    text: str
    tried: Placed | None = None
    chain: list[Step] = field(default_factory=list)
    contradiction: str | None = None
    cases: list[Case] = field(default_factory=list)

    def as_dict(self) -> dict:
        out: dict[str, Any] = {
            "rule": self.rule,
            "cells": [list(p) for p in self.cells],
            "removed": [list(p) for p in self.removed],
            "because": [list(c) for c in self.because],
            "text": self.text,
        }
        if self.tried is not None:
            out["tried"] = list(self.tried)
            out["chain"] = [s.as_dict() for s in self.chain]
        if self.contradiction is not None:
            out["contradiction"] = self.contradiction
        if self.cases:
            out["cases"] = [case.as_dict() for case in self.cases]
        return out


def name(cell: Cell) -> str:
    """``r3c5``: a cell in a player's words (from 1)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def names(cells: Sequence[Cell], most: int = 6) -> str:
    shown = [name(c) for c in cells[:most]]
    if len(cells) > most:
        shown.append(f"… ({len(cells)} cells)")
    return ", ".join(shown)


def steps_of(changes: Sequence[Change], board: Board) -> list[Step]:
    """Group consecutive changes of one rule with one reason into steps."""
    steps: list[Step] = []
    run: list[Change] = []
    for change in changes:
        if run and change.key != run[-1].key:
            steps.append(_step(run, board))
            run = []
        run.append(change)
    if run:
        steps.append(_step(run, board))
    return steps


def _step(run: list[Change], board: Board) -> Step:
    w = board.width
    final: dict[int, Mask] = {}
    first: dict[int, Mask] = {}
    for ch in run:
        first.setdefault(ch.cell, ch.old)
        final[ch.cell] = ch.new
    cells: list[Placed] = []
    removed: list[Placed] = []
    for x in sorted(final):
        r, c = divmod(x, w)
        if is_single(final[x]) and final[x] != first[x]:
            cells.append((r, c, final[x].bit_length() - 1))
        else:
            removed.extend((r, c, v) for v in values_of(first[x] & ~final[x]))
    because_x = sorted({y for ch in run for y in ch.because} - set(final))
    because = [divmod(y, w) for y in because_x]
    rule = run[0].rule
    gone = 0
    for ch in run:
        gone |= ch.old & ~ch.new
    return Step(rule, cells, removed, because, describe_step(rule, cells, removed, because, gone))


def numbers(mask: Mask, last: str = ", ", run_from: int = 7) -> str:
    """The numbers of a mask in words: ``2, 3, 5`` (``last`` before the last one: ``2, 3 or
    5``), a run of ``run_from`` or more consecutive numbers as ``7–12``."""
    vals = list(values_of(mask))
    if len(vals) >= run_from and vals == list(range(vals[0], vals[-1] + 1)):
        return f"{vals[0]}–{vals[-1]}"
    if len(vals) > 6:
        return ", ".join(map(str, vals[:6])) + ", …"
    if len(vals) < 2:
        return ", ".join(map(str, vals))
    return ", ".join(map(str, vals[:-1])) + last + str(vals[-1])


def _result(cells: list[Placed], removed: list[Placed]) -> str:
    parts = []
    if cells:
        parts.append("so " + ", ".join(f"{name((r, c))} is {v}" for r, c, v in cells))
    if removed:
        by_cell: dict[Cell, list[int]] = {}
        for r, c, v in removed:
            by_cell.setdefault((r, c), []).append(v)
        shown = [f"{name(cell)} is not {numbers(sum(bit(v) for v in vs))}" for cell, vs in list(by_cell.items())[:4]]
        if len(by_cell) > 4:
            shown.append(f"… ({len(by_cell)} cells)")
        parts.append(("so " if not cells else "and ") + ", ".join(shown))
    return " ".join(parts)


def describe_step(rule: str, cells: list[Placed], removed: list[Placed], because: list[Cell], gone: Mask) -> str:
    """The step in a player's words."""
    k = numbers(gone)
    around = names(because)
    touched = [name((r, c)) for r, c, _ in cells] or sorted({name((r, c)) for r, c, _ in removed})
    target = ", ".join(touched[:4]) + (" …" if len(touched) > 4 else "")
    if rule == "single-exit":
        v = cells[0][2] if cells else k
        why = f"the {v} at {around} can only grow through {target}"
    elif rule == "forced-cell":
        v = cells[0][2] if cells else k
        why = f"every way to complete the {v} at {around} passes through {target}"
    elif rule == "complete-group":
        why = f"the {k}s at {around} are complete, so no cell next to them is {k}"
    elif rule == "join-overflow":
        why = f"a {k} at {target} would join the {k}s at {around} into more than {k} cells"
    elif rule == "area":
        why = (
            f"no region of {k} cells fits through {target}: the cells around it that may hold "
            f"{k} are walled in" + (f" by {around}" if around else "") + " and no group of "
            f"{k}s can reach it"
        )
    elif rule == "size-cap":
        why = f"the open cells around {target} are too few for a region of {k}" + (
            f" (walled in by {around})" if around else ""
        )
    elif rule == "neighbour-support":
        why = f"no neighbour of {target} ({around}) can share {k} with it"
    elif rule == "neighbour-fit":
        why = f"with {k} at {target}, a neighbour ({around}) would have no number that fits"
    else:
        why = f"{rule} at {target}"
    return f"{why}; {_result(cells, removed)}"


def fold_size_caps(steps: Sequence[Step]) -> list[Step]:
    """Each run of consecutive ``size-cap`` steps that fix no cell (they only remove numbers
    too large for the room around a cell) as one ``size-caps`` step, in the run's place: the
    same removals, in the same order relative to every other step. A run of one is kept."""
    out: list[Step] = []
    run: list[Step] = []

    def close() -> None:
        if len(run) == 1:
            out.append(run[0])
        elif run:
            out.append(_folded(run))
        run.clear()

    for step in steps:
        if step.rule == "size-cap" and not step.cells:
            run.append(step)
            continue
        close()
        out.append(step)
    close()
    return out


def _folded(run: list[Step]) -> Step:
    removed = [p for s in run for p in s.removed]
    because = sorted({c for s in run for c in s.because})
    by_cell: dict[Cell, Mask] = {}
    for r, c, v in removed:
        by_cell[(r, c)] = by_cell.get((r, c), 0) | bit(v)
    shown = [f"{name(cell)} is not {numbers(m, run_from=3)}" for cell, m in list(by_cell.items())[:4]]
    if len(by_cell) > 4:
        shown.append(f"… ({len(by_cell)} cells)")
    text = (
        f"the open cells around {len(by_cell)} cells are too few for their largest numbers "
        f"(each walled in by the fixed cells near it); so {', '.join(shown)}"
    )
    return Step("size-caps", [], removed, because, text)


__all__ = ["Case", "Change", "Step", "TracingState", "describe_step", "fold_size_caps", "name", "numbers", "steps_of"]
