"""Puzzle files × configurations → jobs, each with a key that is the same in every run.

A configuration is (solver, encoding, presolve[, unique]), written ``solver/encoding/on|off``,
e.g. ``z3/thesis/off``, with ``/unique`` added when each run also proves the solution unique
(``yices/tree-bfs/on/unique``). The encoding ``default`` is each puzzle kind's own default
(tree-bfs for Fillomino, onehot for BlockNumber, auto for tilings), so one configuration runs
a folder of mixed kinds; ``rules/none/on`` is the rules-plus-backtracking solver. A job is one
puzzle file under one configuration; its key, ``PUZZLE|solver/encoding/on|off``, is what
``--resume`` matches against the CSV.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple

from fillsmt.engine.result import NO_ENCODING
from fillsmt.errors import InputError

PUZZLE_GLOB = "*.txt"
DEFAULT = "default"
"""The encoding name that stands for each puzzle kind's own default encoding."""
SEARCH_ENCODING = NO_ENCODING
"""A solver that takes the puzzle itself (``--solver rules``: the deduction rules plus
backtracking) has no encoding; its runs are labelled ``rules/none/on``."""


def searches(solver: str) -> bool:
    """Whether ``solver`` (a ``--solver`` name) takes the puzzle itself, not a script."""
    from fillsmt.drivers.registry import get_driver

    try:
        return get_driver(solver).searches
    except InputError:  # an unknown name: refused where the job runs
        return False


class Config(NamedTuple):
    """One way of solving: a ``--solver`` name, an encoding, and whether the presolve runs."""

    solver: str
    encoding: str
    presolve: bool | str
    """True (on), False (off), ``race`` or ``staged``."""
    unique: bool = False

    @property
    def label(self) -> str:
        return f"{self.solver}/{self.encoding}/{on_off(self.presolve)}" + ("/unique" if self.unique else "")


def on_off(flag: bool | str) -> str:
    """A configuration's presolve as written: on, off, or a level's name (``race``)."""
    if isinstance(flag, str):
        return flag
    return "on" if flag else "off"


RACE = "race"
"""The presolve level that adds the rules' search racing the solver (``pipeline.PRESOLVE_LEVELS``)."""
STAGED = "staged"
"""The race plus the kind's other SMT configurations, each joining after its delay."""


def parse_config(text: str) -> Config:
    """``solver/encoding/on|off|race|staged[/unique]`` → :class:`Config`."""
    unique = text.endswith("/unique")
    parts = text.removesuffix("/unique").rsplit("/", 2)
    if len(parts) != 3 or not all(parts) or parts[2] not in ("on", "off", RACE, STAGED):
        raise InputError(
            f"configuration {text!r}: expected SOLVER/ENCODING/on|off|race|staged[/unique], e.g. z3/thesis/off"
        )
    return Config(parts[0], parts[1], parts[2] if parts[2] in (RACE, STAGED) else parts[2] == "on", unique)


@dataclass(frozen=True)
class Job:
    """One puzzle file under one configuration."""

    puzzle: str
    set: str
    config: Config

    @property
    def key(self) -> str:
        return f"{self.puzzle}|{self.config.label}"


def set_name(path: str) -> str:
    """The folder a puzzle belongs to: its parent, or its grandparent when the parent is ``puzzles``."""
    parent = Path(path).absolute().parent
    return parent.parent.name if parent.name == "puzzles" else parent.name


def _hidden(path: Path, below: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(below).parts)


def puzzle_files(paths: Iterable[str]) -> list[str]:
    """Each path that is a file, and every ``*.txt`` file under each folder (recursively, sorted,
    hidden folders skipped). A file named twice is kept once, in its first place."""
    found: list[str] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            inside = sorted(f for f in p.rglob(PUZZLE_GLOB) if f.is_file() and not _hidden(f, p))
            if not inside:
                raise InputError(f"{arg}: no {PUZZLE_GLOB} puzzle files in this folder")
            found.extend(str(f) for f in inside)
        elif p.exists():
            found.append(str(p))
        else:
            raise InputError(f"{arg}: no such file or folder")
    return list(dict.fromkeys(found))


def configurations(
    solvers: Iterable[str], encodings: Iterable[str], presolves: Iterable[bool | str], unique: bool = False
) -> list[Config]:
    """Every combination, in the order given; repeats dropped. A solver that takes the puzzle
    itself has no encoding and always uses its rules: one configuration, ``rules/none/on``."""
    return list(
        dict.fromkeys(
            Config(s, e, p, unique) if not searches(s) else Config(s, SEARCH_ENCODING, True, unique)
            for s in solvers
            for e in encodings
            for p in presolves
        )
    )


def expand(puzzles: Iterable[str], configs: Iterable[Config]) -> list[Job]:
    """Puzzle-major: all configurations of the first puzzle, then of the next, so that an
    interrupted run still compares the configurations on the same puzzles."""
    configs = list(configs)
    return [Job(path, set_name(path), config) for path in puzzle_files(puzzles) for config in configs]
