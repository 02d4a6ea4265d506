"""Benchmark families in SMT-LIB's own form: one ``.smt2`` per puzzle × encoding × family.

Each file starts with the SMT-LIB benchmark header (``:smt-lib-version``, ``set-logic``,
``:source``, ``:license``, ``:category "crafted"``, ``:status``; made by
:func:`fillsmt.smtlib.header.standard`, as ``encode``'s is), holds the encoding's declarations and
assertions, and ends at ``(check-sat)`` and ``(exit)``: no options, no ``get-value``.

The two families:

* ``plain`` — the puzzle itself: ``sat`` when it has a solution;
* ``unique`` — "another solution?": the first solution blocked (at least one cell's number
  differs), ``unsat`` exactly when the puzzle is unique. For a tiling, the hard half is "at
  least best + 1 cells covered", ``unsat`` when the best tiling is proven optimal (and the plain
  file asks for the best, ``sat``).

Two more are incremental benchmarks, one script each with a ``:status`` before every
``check-sat`` (:mod:`fillsmt.bench.library`, which also writes each as SMT-COMP's trace executor
reads it):

* ``incremental`` — the uniqueness question in one session: a solution? (``sat``), then, with the
  first one blocked, another? (``unsat`` exactly when the puzzle is unique);
* ``count`` — counting up to a limit: each solution fillsmt counted is blocked in turn, and the
  last check asks for one more (``unsat`` when they were all, ``sat`` past the limit).

The statuses are fillsmt's proof about the puzzle, made once per puzzle with the kind's default
encoding in one solver session after the deduction rules (:func:`fillsmt.engine.pipeline.solve` with
``unique``; the rules are sound, and the grids are checked against the puzzle itself; for tilings
:func:`fillsmt.tiling.optimize.optimize`): every grid found passed the independent checker, and a
second solution must differ from the first. Every encoding is exact, so the status holds for each;
every ``sat`` file is also confirmed in its own encoding by solving it with its cells pinned to the
checked grid (the answer must be ``sat``; the manifest's ``confirmed`` column says ``yes``, or
``time-out`` past :data:`CONFIRM_SECONDS`). ``unknown`` marks a puzzle the solver did not settle in
time.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from fillsmt.bench.library import (
    FLAT,
    INCREMENTAL_FAMILIES,
    TRACE_SUFFIX,
    Provenance,
    folder,
    incremental_script,
    source_fields,
    trace_text,
)
from fillsmt.drivers.base import Driver
from fillsmt.engine.solutions import differs, get_value_terms
from fillsmt.errors import FillsmtError, InputError
from fillsmt.kinds import kind_of
from fillsmt.protocol import (
    Kind,
    Optimises,
    PresolvedInput,
    encoding_names,
    presolved_input,
    script_encoding,
    script_names,
)
from fillsmt.smtlib import Script
from fillsmt.smtlib.header import describe, info, logic, quoted_symbol, standard
from fillsmt.smtlib.script import Command, assertion, conj, render_term
from fillsmt.smtlib.status import Status

ONE_SHOT = ("plain", "unique")
FAMILIES = (*ONE_SHOT, *INCREMENTAL_FAMILIES)
DEFAULT_COUNT_LIMIT = 3
"""The ``count`` family's limit unless told: the solutions counted before the last question."""
DEFAULT_LICENSE = "https://creativecommons.org/licenses/by/4.0/"
MANIFEST = "manifest.csv"
COLUMNS = (
    "file",
    "puzzle",
    "kind",
    "encoding",
    "family",
    "logic",
    "status",
    "size",
    "seconds",
    "confirmed",
    "presolve",
)
"""The manifest's columns; ``presolve`` is ``on`` for a file the presolve was asked for
(``export --presolve``), ``off`` for the puzzle as given (a manifest without the column: off). What
the presolve did (cells fixed; none for a grid too open for it; no solution) the file's
``:source`` says."""
CONFIRM_SECONDS = 30.0
"""The longest a ``sat`` file's own-encoding confirmation may take (the thesis encoding needs
minutes for some 20x20 grids even with every cell pinned); past it the manifest says ``time-out``."""
_DROPPED = {
    "set-option",
    "set-logic",
    "set-info",
    "check-sat",
    "check-sat-assuming",
    "get-value",
    "get-model",
    "exit",
    "maximize",
    "minimize",
}


class ExportError(FillsmtError):
    """A file could not be written as proven (its own-encoding confirmation failed)."""


@dataclass
class Proof:
    """What fillsmt proved about one puzzle: the plain and unique families' statuses, the
    checked grids behind them (``first``, and ``second`` when there is another solution), and the
    seconds it took. For a tiling, ``best`` is the most covered cells found."""

    plain: Status
    unique: Status
    first: Any = None
    second: Any = None
    best: int | None = None
    seconds: float = 0.0
    message: str = ""
    counted: list | None = None
    """For the ``count`` family: the checked solutions counted (up to the limit)."""
    beyond: Status | None = None
    """And the answer to "one more?" once they are all blocked."""


def puzzle_name(source: str) -> str:
    """A short, distinct name for a puzzle file: ``SET-STEM`` (``janko-thesis100-001``), the set
    being the folder (or the folder above ``puzzles/``)."""
    path = Path(source)
    folder = path.parent.parent if path.parent.name == "puzzles" else path.parent
    return f"{folder.name}-{path.stem}" if folder.name not in ("", ".") else path.stem


def prove(puzzle, driver: Driver, timeout: float | None, count_limit: int | None = None) -> Proof:
    """Settle the families for ``puzzle`` (see the module's docstring); with ``count_limit``,
    also count its solutions up to it (:func:`fillsmt.engine.pipeline.count`)."""
    proof = _prove(puzzle, driver, timeout)
    if count_limit is not None and not isinstance(kind_of(puzzle), Optimises):
        from fillsmt.engine.pipeline import count

        start = time.perf_counter()
        found = count(puzzle, driver, count_limit, None, timeout)
        proof.counted = list(found.grids)
        proof.beyond = Status.UNSAT if found.complete else Status.SAT if found.status is Status.SAT else Status.UNKNOWN
        proof.seconds += time.perf_counter() - start
    return proof


def _prove(puzzle, driver: Driver, timeout: float | None) -> Proof:
    start = time.perf_counter()
    kind = kind_of(puzzle)
    if isinstance(kind, Optimises):
        found = kind.optimize(puzzle, driver, timeout, None)
        plain = Status.SAT if found.placements or found.covered == 0 else Status.UNKNOWN
        unique = Status.UNSAT if found.optimal else Status.UNKNOWN
        return Proof(plain, unique, first=found.placements, best=found.covered, seconds=time.perf_counter() - start)
    from fillsmt.engine.pipeline import solve

    result = solve(puzzle, driver, None, timeout, presolve=True, unique=True)
    seconds = time.perf_counter() - start
    if result.status is Status.UNSAT:
        return Proof(Status.UNSAT, Status.UNSAT, seconds=seconds)
    if result.status is Status.ERROR:
        raise ExportError(f"{puzzle.source}: {result.message}")
    if result.grid is None:
        return Proof(Status.UNKNOWN, Status.UNKNOWN, seconds=seconds, message=result.message)
    proven: dict[bool | None, Status] = {True: Status.UNSAT, False: Status.SAT}
    unique = proven.get(result.unique, Status.UNKNOWN)
    return Proof(
        Status.SAT, unique, first=result.grid, second=result.second_grid, seconds=seconds, message=result.message
    )


def _declared_sorts(script: Script) -> dict[str, Any]:
    return {c.args[0]: c.args[2] for c in script.commands if c.name == "declare-fun" and not c.args[1]}


def _value_text(value: int | bool, sort) -> str:
    if sort == "Bool":
        return "true" if value else "false"
    if isinstance(sort, tuple) and sort[:2] == ("_", "BitVec"):
        return render_term(("_", f"bv{int(value)}", sort[2]))
    return render_term(int(value))


def grid_values(puzzle, script: Script, grid) -> dict[str, str]:
    """The text of each get-value term of ``script`` in the solution ``grid``, read through the
    kind's names (:meth:`fillsmt.protocol.Kind.term_cell`, :meth:`~fillsmt.protocol.Kind.term_value`)."""
    kind = kind_of(puzzle)
    sorts = _declared_sorts(script)
    values = {}
    for term in get_value_terms(script):
        try:
            r, c = cast("tuple[int, int]", kind.term_cell(puzzle, term))  # not a pair: refused below
        except (TypeError, ValueError):
            raise InputError(f"fillsmt cannot pin the term {term} to a grid") from None
        values[term] = _value_text(kind.term_value(puzzle, term, grid[r][c]), sorts[term])
    return values


def infos(status: Status, license_: str) -> list[Command]:
    """The benchmark header's ``:license``, ``:category`` and ``:status``."""
    quoted = '"' + license_.replace('"', '""') + '"'  # an SMT-LIB string literal
    return [
        info(":license", quoted),
        info(":category", '"crafted"'),
        info(":status", status.value if status in (Status.SAT, Status.UNSAT) else "unknown"),
    ]


def body(script: Script, extra: list) -> list[str]:
    """The declarations and assertions of ``script``, then ``extra`` assertions (terms)."""
    return [c.text() for c in _body_commands(script, extra)]


def _body_commands(script: Script, extra: list) -> list[Command]:
    return [c for c in script.commands if c.name not in _DROPPED] + [assertion(t) for t in extra]


def logic_of(script: Script) -> str:
    return logic(script.commands)


@dataclass
class Family:
    """One file to write: its script, extra assertions, status, and the assignment that must
    satisfy it (None for unsat/unknown); an incremental family's statuses, one per check-sat,
    and the assertions between them."""

    name: str
    script: Script
    extra: list
    status: Status
    pin: dict[str, str] | None
    statuses: list[str] | None = None
    blocks: list[str] | None = None
    presolve: str = "off"
    """What the header says of the presolve (:func:`fillsmt.protocol.presolved_input`)."""

    @property
    def incremental(self) -> bool:
        return self.statuses is not None

    @property
    def status_text(self) -> str:
        """The manifest's status: the one-shot file's, or the incremental file's, space-separated."""
        return " ".join(self.statuses) if self.statuses is not None else _status_word(self.status)


def _status_word(status: Status | None) -> str:
    return status.value if status in (Status.SAT, Status.UNSAT) else "unknown"


def families(puzzle, kind: Kind, encoding: str, proof: Proof, given: PresolvedInput | None = None) -> list[Family]:
    """The files of one puzzle under one encoding: of the puzzle as given, or of ``given``, the
    puzzle after the kind's presolve (:func:`fillsmt.protocol.presolved_input`: its fixed cells
    written in, its bounds asserted, as ``encode --presolve`` writes it). The presolve keeps every
    solution (the rules are sound), so each file's status is the proof's either way."""
    if given is None:
        given = presolved_input(kind, puzzle, False)
    said = given.said
    if given.contradiction is not None:  # the proof says unsat; so does the puzzle as given
        said = "asked for; the deduction rules prove there is no solution, so the script is the puzzle as given"
    made = _encoded_families(given.puzzle, kind, encoding, proof, given.hints)
    for family in made:
        family.presolve = said
    return made


def _encoded_families(puzzle, kind: Kind, encoding: str, proof: Proof, hints) -> list[Family]:
    """The families of ``puzzle`` (as given or presolved) encoded with ``hints``."""
    if isinstance(kind, Optimises):  # "worth at least the best found", then one more
        best = proof.best or 0
        pin = kind.answer_values(puzzle, proof.first or ())
        return [
            Family(
                "plain",
                kind.encode_at_least(puzzle, best, encoding),
                [],
                proof.plain,
                pin if proof.plain is Status.SAT else None,
            ),
            Family("unique", kind.encode_at_least(puzzle, best + 1, encoding), [], proof.unique, None),
        ]
    script = kind.encode(puzzle, encoding, hints)
    terms = get_value_terms(script)
    if proof.first is None:  # no solution (or none found in time): one question each
        word = [_status_word(proof.plain)]
        return [
            Family("plain", script, [], proof.plain, None),
            Family("unique", script, [], proof.unique, None),
            Family("incremental", script, [], proof.plain, None, word, []),
            *([Family("count", script, [], proof.plain, None, word, [])] if proof.counted is not None else []),
        ]
    first = grid_values(puzzle, script, proof.first)
    block = differs(first, terms)
    second = grid_values(puzzle, script, proof.second) if proof.second is not None else None
    return [
        Family("plain", script, [], proof.plain, first),
        Family("unique", script, [block], proof.unique, second if proof.unique is Status.SAT else None),
        Family("incremental", script, [], proof.plain, None, ["sat", _status_word(proof.unique)], [block]),
        *_count_family(puzzle, script, terms, proof),
    ]


def _count_family(puzzle, script: Script, terms: list[str], proof: Proof) -> list[Family]:
    """The ``count`` file: a check per solution counted, each blocked after it, then one more."""
    if proof.counted is None:
        return []
    blocks = [differs(grid_values(puzzle, script, grid), terms) for grid in proof.counted]
    statuses = ["sat"] * len(blocks) + [_status_word(proof.beyond)]
    return [Family("count", script, [], proof.plain, None, statuses, blocks)]


def confirm(driver: Driver, family: Family, timeout: float | None) -> str:
    """A ``sat`` file's own encoding with its terms pinned to the checked solution must be sat:
    ``yes``, ``time-out`` (not settled within :data:`CONFIRM_SECONDS`), or ``-`` for a file that
    is not ``sat``; any other answer is an :class:`ExportError`."""
    if family.pin is None:
        return "-"
    pins = [("=", t, v) for t, v in family.pin.items()]
    text = "\n".join(
        [
            f"(set-logic {logic_of(family.script)})",
            *body(family.script, family.extra),
            assertion(conj(pins) if pins else "true").text(),
            "(check-sat)",
            "",
        ]
    )
    run = driver.run(text, min(timeout or CONFIRM_SECONDS, CONFIRM_SECONDS))
    if run.status in (Status.TIMEOUT, Status.UNKNOWN):
        return "time-out"
    if run.status is not Status.SAT:
        raise ExportError(
            f"the checked solution does not satisfy the {family.name} file in its own encoding "
            f"({driver.name} answered {run.status.value}: {run.message})"
        )
    return "yes"


def benchmark_text(
    puzzle, kind: Kind, encoding: str, family: Family, license_: str, set_name: str, provenance: Provenance | None
) -> str:
    """The file of one family: the benchmark header (:func:`fillsmt.smtlib.header.standard`; with
    ``provenance``, the library's ``:source`` fields), the declarations and assertions, then
    ``(check-sat)`` (an incremental family's checks, each after its ``:status``) and ``(exit)``."""
    what = {
        "plain": "Does the puzzle have a solution?",
        "unique": "Does the puzzle have a solution other than a given one (the first solution fillsmt found, "
        "blocked: at least one cell's number differs)? unsat exactly when the puzzle is unique.",
        "incremental": "Incremental: does the puzzle have a solution? Then, with the first solution fillsmt found "
        "blocked (at least one cell's number differs), another? unsat exactly when the puzzle is unique.",
        "count": "Incremental: counting solutions. Each check-sat but the last is followed by a blocking of "
        "one of the solutions fillsmt counted; the last asks for one more.",
    }
    if isinstance(kind, Optimises):
        what = {
            "plain": "Is there a tiling covering at least the best number of cells fillsmt found?",
            "unique": "Is there a tiling covering one cell more than the best fillsmt found? "
            "unsat when that best is optimal.",
        }
    question = (
        f"{what[family.name]} The status is fillsmt's proof (fillsmt export), every sat model checked by "
        f"its independent checker"
    )
    source = describe(f"{set_name} ({puzzle.source})", kind.name, encoding, family.presolve, question)
    quoted = source_fields(provenance, source) if provenance is not None else quoted_symbol(source)
    if family.incremental:
        assert family.statuses is not None and family.blocks is not None  # an incremental family has both
        body = _body_commands(family.script, family.extra)
        heads = infos(family.status, license_)[:-1]  # no :status of its own: one before each check-sat
        script = incremental_script(body, logic_of(family.script), family.statuses, family.blocks, quoted, heads)
        return script.text()
    framed = Script.of(
        [
            Command("set-logic", (logic_of(family.script),)),
            *_body_commands(family.script, family.extra),
            Command("check-sat"),
        ]
    )
    return standard(framed, source, infos(family.status, license_), options=(), quoted_source=quoted).text()


def read_manifest(directory: Path) -> dict[str, dict]:
    path = directory / MANIFEST
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {row["file"]: row for row in csv.DictReader(f)}


def append_manifest(directory: Path, row: dict) -> None:
    path = directory / MANIFEST
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def file_name(set_name: str, encoding: str, family: str, presolve: bool = False) -> str:
    """``SET.ENCODING[.presolve][.FAMILY].smt2`` (no family for the plain one)."""
    return f"{set_name}.{encoding}{'.presolve' if presolve else ''}{'' if family == 'plain' else '.' + family}.smt2"


@dataclass(frozen=True)
class Form:
    """How a family is written: ``layout`` (:data:`fillsmt.bench.library.LAYOUTS`), the
    ``:source`` fields of the library (``provenance``; None: the one-line ``:source``), and the
    ``count`` family's limit."""

    layout: str = FLAT
    provenance: Provenance | None = None
    count_limit: int = DEFAULT_COUNT_LIMIT
    presolve: bool = False
    """Ask for the kind's presolve before each file (:func:`families`): its name carries
    ``.presolve`` and its manifest row ``presolve`` is ``on`` whatever the presolve found; its
    ``:source`` says what that was."""


def _done(done: dict[str, dict], directory: Path) -> set[tuple[str, str, str, bool]]:
    """(puzzle, encoding, family, presolve) of every manifest row whose file is there."""
    return {
        (r["puzzle"], r["encoding"], r["family"], r.get("presolve") == "on")
        for r in done.values()
        if (directory / r["file"]).exists()
    }


def export_puzzle(
    puzzle,
    directory: Path,
    encodings: list[str],
    wanted: tuple[str, ...],
    driver: Driver,
    timeout: float | None,
    license_: str,
    done: dict[str, dict],
    form: Form = Form(),
) -> list[dict]:
    """Write the files of one puzzle not already in ``done``; returns their manifest rows."""
    kind = kind_of(puzzle)
    chosen = [kind.default_encoding if e == "default" else e for e in encodings]
    for e in chosen:
        if e not in encoding_names(kind):
            raise InputError(
                f"{puzzle.source}: {e!r} is not a {kind.name} encoding (those are "
                f"{', '.join(script_names(kind))}, or default)"
            )
        try:
            script_encoding(kind, e)
        except InputError as error:
            raise InputError(f"{puzzle.source}: {error}") from None
    if isinstance(kind, Optimises):  # a tiling's question is a bound, not a session's: no incremental files
        wanted = tuple(f for f in wanted if f in ONE_SHOT)
    there = _done(done, directory)
    todo = [(e, f) for e in dict.fromkeys(chosen) for f in wanted if (puzzle.source, e, f, form.presolve) not in there]
    if not todo:
        return []
    proof = prove(puzzle, driver, timeout, form.count_limit if any(f == "count" for _, f in todo) else None)
    given = presolved_input(kind, puzzle, form.presolve)
    rows = []
    for encoding in dict.fromkeys(e for e, _ in todo):
        for family in families(puzzle, kind, encoding, proof, given):
            if (encoding, family.name) in todo:
                rows.append(_write(puzzle, kind, encoding, family, directory, (driver, timeout, license_), proof, form))
    return rows


def _write(puzzle, kind: Kind, encoding: str, family: Family, directory: Path, how, proof: Proof, form: Form) -> dict:
    """Write one family's file (and, for an incremental one, its trace-executor file); its manifest row."""
    driver, timeout, license_ = how
    start = time.perf_counter()
    confirmed = confirm(driver, family, timeout)
    set_name = puzzle_name(puzzle.source)
    logic = logic_of(family.script)
    provenance = form.provenance
    where = folder(form.layout, family.incremental, logic, provenance) if provenance else Path()
    name = (where / file_name(set_name, encoding, family.name, form.presolve)).as_posix()
    text = benchmark_text(puzzle, kind, encoding, family, license_, set_name, provenance)
    (directory / where).mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(text)
    if family.statuses is not None:
        (directory / name).with_suffix(TRACE_SUFFIX).write_text(trace_text(family.statuses, text))
    row = {
        "file": name,
        "puzzle": puzzle.source,
        "kind": kind.name,
        "encoding": encoding,
        "family": family.name,
        "logic": logic,
        "status": family.status_text,
        "size": len(text.encode()),
        "seconds": f"{proof.seconds + time.perf_counter() - start:.3f}",
        "confirmed": confirmed,
        "presolve": "on" if form.presolve else "off",
    }
    append_manifest(directory, row)
    return row


__all__ = [
    "COLUMNS",
    "DEFAULT_LICENSE",
    "FAMILIES",
    "Form",
    "MANIFEST",
    "ONE_SHOT",
    "Proof",
    "export_puzzle",
    "families",
    "grid_values",
    "prove",
    "puzzle_name",
    "read_manifest",
]
