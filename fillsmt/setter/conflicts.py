"""The clues of a puzzle without a solution that cannot all hold (``repair`` on such a puzzle):
an unsatisfiable core of the clues, shrunk until each one is needed."""

from __future__ import annotations

import time
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.errors import FillsmtError
from fillsmt.setter.clues import Placed, cell_is, clue_kind, clues_of, settled
from fillsmt.smtlib.status import Status


def _clue_name(r: int, c: int) -> str:
    return f"clue_{r}_{c}"


def unsat_core(puzzle: Any, driver: Driver, deadline: float | None = None) -> list[Placed]:
    """Clues of ``puzzle`` that cannot all hold, each one needed. The clue-free
    puzzle is encoded with every number up to the board's size allowed (Fillomino) or its
    blocks (BlockNumber), so the core owes nothing to bounds derived from the other clues."""
    clue_kind(puzzle)
    clues = {(r, c): v for r, c, v in clues_of(puzzle)}
    session = driver.open_session()
    remaining = (lambda: None) if deadline is None else (lambda: max(0.001, deadline - time.monotonic()))
    try:
        session.send("(set-option :produce-unsat-cores true)\n", remaining())
        session.load(clue_kind(puzzle).clue_free_script(puzzle), remaining())

        def core_of(cells: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
            session.push(remaining())
            for r, c in cells:
                session.send(
                    f"(assert (! {cell_is(puzzle, r, c, clues[(r, c)])} :named {_clue_name(r, c)}))\n", remaining()
                )
            status = settled(session.check(remaining()), "looking for conflicting clues")
            core = None
            if status is Status.UNSAT:
                named = {_clue_name(r, c): (r, c) for r, c in cells}
                core = sorted(named[n] for n in session.get_unsat_core(remaining()))
            session.pop(remaining())
            return core

        core = core_of(sorted(clues))
        if core is None:
            raise FillsmtError(f"{puzzle.source}: the clues are consistent on their own; the puzzle has a solution")
        for cell in list(core):
            if cell in core:
                smaller = core_of([x for x in core if x != cell])
                if smaller is not None:
                    core = smaller
    finally:
        session.close()
    return [(r, c, clues[(r, c)]) for r, c in core]


__all__ = ["unsat_core"]
