"""Puzzle files × configurations → jobs, each with a key that is the same in every run.

A configuration is (solver, encoding, presolve[, unique]), written ``solver/encoding/on|off``,
e.g. ``z3/thesis/off``, with ``/unique`` added when each run also proves the solution unique
(``yices/tree-bfs/on/unique``). The encoding ``default`` is each puzzle kind's own default
(tree-bfs for Fillomino, onehot for BlockNumber, auto for tilings), so one configuration runs
a folder of mixed kinds; ``rules/none/on`` is the rules-plus-backtracking solver. A job is one
puzzle file under one configuration; its key, ``PUZZLE|solver/encoding/on|off``, is what
``--resume`` matches against the CSV.

An ``.smt2`` file is a benchmark of its own: it runs as it is, once per solver, under the
configuration ``SOLVER/file/off`` (:data:`FILE`), and is judged by its ``:status``
(:mod:`fillsmt.bench.scripts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple

from fillsmt.drivers.measure import Limits
from fillsmt.engine.result import NO_ENCODING
from fillsmt.errors import InputError

PUZZLE_GLOB = "*.txt"
SCRIPT_GLOB = "*.smt2"
FILE = "file"
"""The encoding of an ``.smt2`` benchmark's runs: the file's own script, run as it is."""
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
    """One puzzle file (or ``.smt2`` benchmark) under one configuration, measured under
    ``limits`` (None: as fillsmt measures a solve); ``command`` is the solver's command line when
    it was named with ``--solver-cmd NAME=COMMAND``."""

    puzzle: str
    set: str
    config: Config
    limits: Limits | None = None
    command: str | None = None

    @property
    def is_script(self) -> bool:
        """Whether the job runs an ``.smt2`` benchmark as it is."""
        return self.config.encoding == FILE

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
    return _files(paths, (PUZZLE_GLOB,))


def _files(paths: Iterable[str], globs: tuple[str, ...]) -> list[str]:
    """Each path that is a file, and every file matching ``globs`` under each folder."""
    found: list[str] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            inside = sorted(f for glob in globs for f in p.rglob(glob) if f.is_file() and not _hidden(f, p))
            if not inside:
                raise InputError(f"{arg}: no {PUZZLE_GLOB} puzzle files in this folder")
            found.extend(str(f) for f in inside)
        elif p.exists():
            found.append(str(p))
        else:
            raise InputError(f"{arg}: no such file or folder")
    return list(dict.fromkeys(found))


def is_script(path: str) -> bool:
    return Path(path).suffix.lower() == ".smt2"


def bench_files(paths: Iterable[str]) -> list[str]:
    """What ``bench`` runs: each path that is a file, and every ``*.txt`` puzzle and ``*.smt2``
    benchmark under each folder (recursively, sorted, hidden folders skipped)."""
    return _files(paths, (PUZZLE_GLOB, SCRIPT_GLOB))


def solver_commands(texts: Iterable[str], taken: Iterable[str]) -> dict[str, str]:
    """``--solver-cmd NAME=COMMAND`` options → {NAME: COMMAND}; a NAME in ``taken`` (the solvers'
    own names) is refused."""
    taken = set(taken)
    commands: dict[str, str] = {}
    for text in texts:
        name, equals, command = text.partition("=")
        name = name.strip()
        if not equals or not name or not command.strip() or "/" in name or "|" in name:
            raise InputError(
                f"--solver-cmd {text!r}: expected NAME=COMMAND, e.g. --solver-cmd 'mathsat=mathsat -input=smt2' "
                "(a NAME without / or |)"
            )
        if name in taken:
            raise InputError(f"--solver-cmd {text!r}: {name} is a --solver name; give the command another name")
        commands[name] = command
    return commands


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


def script_configs(configs: Iterable[Config]) -> list[Config]:
    """The configurations an ``.smt2`` benchmark runs under: ``SOLVER/file/off`` for each solver of
    ``configs`` (the rules have no SMT-LIB solver)."""
    return list(dict.fromkeys(Config(c.solver, FILE, False) for c in configs if not searches(c.solver)))


def expand(
    puzzles: Iterable[str],
    configs: Iterable[Config],
    limits: Limits | None = None,
    commands: dict[str, str] | None = None,
) -> list[Job]:
    """Puzzle-major: all configurations of the first puzzle, then of the next, so that an
    interrupted run still compares the configurations on the same puzzles; an ``.smt2`` file
    gets one job per solver (:func:`script_configs`). ``commands`` maps the ``--solver-cmd`` names
    to their command lines."""
    configs = list(configs)
    scripts = script_configs(configs)
    commands = commands or {}
    return [
        Job(path, set_name(path), config, limits, commands.get(config.solver))
        for path in bench_files(puzzles)
        for config in (scripts if is_script(path) else configs)
    ]
