"""The one-hot encoding for the region propagator (``--solver z3-prop``).

Every cell ``x`` gets one Boolean per number its domain allows, ``v_x_k`` ("x holds k",
:func:`~fillsmt.fillomino.names.value_var`). The script announces the grid to the solver with
``(set-info :fillsmt-propagator "fillomino-regions H W")``: ``z3-prop``
(:mod:`fillsmt.fillomino.propagator`) then tracks the ``v`` atoms and does the region
reasoning inside Z3's search.

* ``onehot-prop`` (light, pure Boolean): at least one atom per cell, ``n_x`` defined (``define-fun``)
  as the number of the first true atom, and two local facts implied by the rules (a 1 has no
  neighbour 1; a number above 1 has a neighbour of the same number). "At most one atom per
  cell" and every region size are left to the propagator (it raises a conflict on two true
  atoms of one cell); written out, at most one cost 3-4x on janko 286. So **it is complete but
  not sound on its own**: any other solver may answer with a grid of wrong regions, which the
  independent checker then refuses. Only with the propagator (whose final check refuses every
  wrong grid) is it an exact encoding: a solving method, not a script to hand to any solver.

Pure: puzzle (and optional domains) in, :class:`~fillsmt.smtlib.Script` out.
"""

from __future__ import annotations

from typing import Iterator

from fillsmt.fillomino.encode_tree import Domains, default_domains
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import PROPAGATOR_NAME, GridNames, neighbour_indices
from fillsmt.protocol import PROPAGATOR_INFO
from fillsmt.smtlib import Command, Script, Term
from fillsmt.smtlib.script import assertion, declare, disj


def propagator_info(puzzle: Puzzle) -> Command:
    """``(set-info :fillsmt-propagator "fillomino-regions H W")`` (a string: z3 refuses other
    attribute values)."""
    return Command("set-info", (PROPAGATOR_INFO, f'"{PROPAGATOR_NAME} {puzzle.height} {puzzle.width}"'))


def _sorted_domains(puzzle: Puzzle, domains: Domains | None) -> list[list[int]]:
    chosen = domains if domains is not None else default_domains(puzzle)
    cache: dict[int, list[int]] = {}
    return [cache.setdefault(id(d), sorted(d)) for d in chosen]


def _local(puzzle: Puzzle, doms: list[list[int]]) -> Iterator[Command]:
    """A 1 has no neighbour 1; a number k > 1 has a neighbour that may hold k and does."""
    sets = [frozenset(d) for d in doms]
    value_var = GridNames(puzzle.height, puzzle.width).value
    for x, dom in enumerate(doms):
        around = neighbour_indices(puzzle.height, puzzle.width, x)
        for k in dom:
            if k == 1:
                for y in around:
                    if y > x and 1 in sets[y]:
                        yield assertion(("not", ("and", value_var(x, 1), value_var(y, 1))))
                continue
            partners = [value_var(y, k) for y in around if k in sets[y]]
            yield assertion(("=>", value_var(x, k), disj(partners)) if partners else ("not", value_var(x, k)))


def _query(puzzle: Puzzle) -> Iterator[Command]:
    yield Command("check-sat")
    yield Command("get-value", (GridNames(puzzle.height, puzzle.width).numbers,))


def encode_onehot(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    """The light one-hot encoding (module text): exact only with the region propagator."""
    doms = _sorted_domains(puzzle, domains)
    header = [
        Command("set-option", (":print-success", "false")),
        Command("set-logic", ("QF_LIA",)),
        propagator_info(puzzle),
    ]
    v = GridNames(puzzle.height, puzzle.width)
    atoms = [declare(v.value(x, k), "Bool") for x, dom in enumerate(doms) for k in dom]
    numbers = [Command("define-fun", (v.number(x), (), "Int", _first_true(v, x, dom))) for x, dom in enumerate(doms)]
    some = [assertion(disj([v.value(x, k) for k in dom])) for x, dom in enumerate(doms)]
    return Script.of([*header, *atoms, *numbers, *some, *_local(puzzle, doms), *_query(puzzle)])


def _first_true(v: GridNames, x: int, dom: list[int]) -> Term:
    """``n_x`` as the first k of the domain whose atom is true (the propagator keeps at most one
    true, so this is the cell's number)."""
    term: Term = dom[-1]
    for k in reversed(dom[:-1]):
        term = ("ite", v.value(x, k), k, term)
    return term


__all__ = ["encode_onehot", "propagator_info"]
