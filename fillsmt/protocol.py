"""The Kind protocol: everything fillsmt needs of one puzzle kind, as one object.

A kind is a package of the same shape (``model``, ``plain_format``, ``encode…``, ``decode``,
``verify``, ``render``, …) plus one subclass of :class:`Kind` that ties them together; the
registry (:mod:`fillsmt.kinds`) names it, and every puzzle object says its kind's name in its
``kind`` class attribute. The pipeline, the CLI, the JSON writer and ``bench`` only ever talk to
a :class:`Kind`: nothing outside a kind's package asks what class a puzzle is.

A kind is either a satisfaction problem (``problem_type = SATISFY``: one answer per puzzle, which
the pipeline encodes, solves, decodes and checks) or an optimisation problem (``MAXIMIZE``: the
kind's :meth:`Kind.optimize` finds the best answer with a driver).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable

from fillsmt.engine.plan import Plan, RacingSearch
from fillsmt.errors import InputError

if TYPE_CHECKING:  # a kind's registry entry is read at start-up: the solving machinery loads on first use
    from fillsmt.engine.solutions import Problem
    from fillsmt.smtlib import Script

SATISFY = "satisfy"
MAXIMIZE = "maximize"

PROPAGATOR_INFO = ":fillsmt-propagator"
"""The ``set-info`` attribute by which a script asks for a user propagator: its value is the
string ``"NAME ARG…"`` (integers), a name a kind registers in :attr:`Kind.propagators`."""


@dataclass(frozen=True)
class Encoding:
    """One way to write a kind's puzzle as SMT-LIB: ``encode(puzzle, hints)`` → a script, where
    ``hints`` is what the kind's presolve learnt (None without one).

    A *lazy* encoding also has ``cuts(grid)``: its script is a relaxation, solved in a session
    that asserts the clauses ``cuts`` finds broken by each decoded grid and checks again
    (:meth:`fillsmt.engine.solutions.Search.solution`), never in a one-shot run. A *propagated* one
    names the ``propagator`` a solver must run inside its search for the script to be exact
    (:attr:`fillsmt.drivers.base.Driver.propagators`). Either is a solving method, not a script
    (:attr:`method`)."""

    name: str
    encode: Callable[[Any, Any], Script]
    summary: str = ""
    cuts: Callable[[Any], list[str]] | None = None
    propagator: str = ""

    @property
    def lazy(self) -> bool:
        return self.cuts is not None

    @property
    def method(self) -> str:
        """ "" for a script that any SMT-LIB solver decides exactly on its own; else what solves it
        (a solving method: ``encode`` and ``export`` do not write it, and only a solver that
        can run it is given it, :func:`fillsmt.drivers.base.Driver.cannot_run`). The one test of
        "is this a script"."""
        if self.propagator:
            return f"exact only with the {self.propagator} propagator inside the solver's search"
        if self.lazy:
            return "a relaxation refined by region cuts in a solver session"
        return ""


@dataclass
class Presolved:
    """What a kind's presolve proved before any solver ran.

    ``contradiction`` says why there is no solution; else ``grid`` is set when every cell was
    settled (the pipeline still checks it), else ``puzzle`` and ``hints`` are what to encode.
    """

    fixed_cells: int
    contradiction: str | None = None
    grid: Any = None
    puzzle: Any = None
    hints: Any = None


class Kind:
    """One puzzle kind. Subclasses set the class attributes and implement the methods; the
    optional ones (JSON, URL, SVG, presolve, optimisation) refuse politely by default."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    problem_type: ClassVar[str] = SATISFY
    encodings: tuple[Encoding, ...] = ()
    default_encoding: str = ""
    question: ClassVar[str] = ""
    """What :meth:`encode`'s script asks, for its header, when not "a solution?"."""

    # --- reading and writing puzzles -----------------------------------------------------------

    def looks_like(self, text: str) -> bool:
        """True when a file's text is clearly this kind's (for detection without ``--kind``)."""
        return False

    def parse(self, text: str, source: str) -> Any:
        raise NotImplementedError

    def format_puzzle(self, puzzle: Any) -> str:
        raise NotImplementedError

    def to_dict(self, puzzle: Any) -> dict:
        """The puzzle as a JSON object (``kind``, ``height``, ``width``, then the kind's keys)."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no JSON form")

    def from_dict(self, obj: dict, reader: Any) -> Any:
        """The puzzle from a JSON object; ``reader`` is a :class:`fillsmt.formats.json_format.Reader`."""
        raise InputError(f"{reader.source}: {self.name} puzzles have no JSON form")

    def to_url(self, puzzle: Any) -> str:
        raise InputError(f"{puzzle.source}: puzz.link has no {self.name} puzzles; convert it --to json or --to plain")

    # --- solutions ------------------------------------------------------------------------------

    def parse_solution(self, text: str, source: str, puzzle: Any) -> Any:
        raise NotImplementedError

    def format_solution(self, puzzle: Any, solution: Any) -> str:
        raise NotImplementedError

    def solution_json(self, puzzle: Any, solution: Any) -> Any:
        """The solution as JSON data (a grid as rows of integers unless the kind says otherwise)."""
        return [list(row) for row in solution]

    def pretty(self, puzzle: Any, solution: Any) -> str:
        return self.format_solution(puzzle, solution)

    def pretty_marked(self, puzzle: Any, solution: Any, cells: list[tuple[int, int]]) -> str | None:
        """The pretty picture with ``cells`` marked, or None when the kind cannot mark cells."""
        return None

    def svg(self, puzzle: Any, solution: Any, title: str | None = None, style: Any = None) -> str:
        raise InputError(f"{puzzle.source}: no SVG picture for {self.name} puzzles")

    def check(self, puzzle: Any, solution: Any) -> list[str]:
        """The independent checker: every problem found, empty when ``solution`` is right."""
        raise NotImplementedError

    def describe(self, puzzle: Any, solution: Any) -> str:
        """A note on a checked solution, for ``check`` (e.g. the cells a tiling covers)."""
        return ""

    # --- solving -------------------------------------------------------------------------------

    theory_encodings: ClassVar[dict[str, str]] = {}
    """Which of the kind's encodings suits a solver that decides one logic only (logic → encoding
    name, e.g. ``{"QF_BV": "bv"}``): what such a solver gets when no encoding is named
    (:meth:`fillsmt.drivers.base.Driver.encoding_for`)."""

    propagators: ClassVar[dict[str, str]] = {}
    """The user propagators the kind's encodings ask for: name → ``module:function`` making one,
    ``make(z3, solver, *args, atoms)`` with the script's integer arguments and its Boolean
    constants by name (Z3 with a propagator, ``z3-prop``, resolves it in its worker)."""

    has_search: ClassVar[bool] = False
    """Whether :meth:`search` solves without an SMT solver (``--solver rules``)."""

    def plan(self, presolved: Any, proof: bool) -> Plan:
        """How the ``presolved`` puzzle is raced (:class:`fillsmt.engine.plan.Plan`); ``proof``: the
        race must also prove (``--unique`` or ``--forced``). By default the kind's search races
        the solver where the kind has one."""
        return Plan(search=RacingSearch() if self.has_search else None)

    def search(
        self,
        puzzle: Any,
        limit: int,
        deadline: float | None = None,
        progress: Any = None,
        options: Any = None,
        budget: float | None = None,
    ) -> Any:
        """Up to ``limit`` solutions by the kind's own search (see ``has_search``) until
        ``deadline`` (monotonic) or within ``budget`` seconds of the ``options``' clock, telling
        ``progress`` (:class:`fillsmt.engine.racers.SearchProgress`, or None) of its nodes; ``options``
        are the kind's (from its :meth:`plan`; None: those of ``--solver rules``)."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no search of their own")

    def presolve(self, puzzle: Any) -> Presolved | None:
        """Logic before any solver; None when the kind has none."""
        return None

    def quick_answer(self, puzzle: Any) -> Any | None:
        """A solution found without any search when the puzzle is trivially open (a Fillomino
        grid without clues), else None; the pipeline checks it like any other."""
        return None

    @property
    def encoding_names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.encodings)

    @property
    def script_names(self) -> tuple[str, ...]:
        """The encodings whose script is exact on its own (what ``encode`` and ``export`` write)."""
        return tuple(e.name for e in self.encodings if not e.method)

    def script_encoding(self, name: str | None) -> Encoding:
        """:meth:`encoding`, refusing a solving method (an InputError, exit 2, on one line)."""
        found = self.encoding(name)
        if found.method:
            raise InputError(
                f"{found.name} is a solving method, not a script ({found.method}); the {self.name} "
                f"scripts are {', '.join(self.script_names)}"
            )
        return found

    def encoding(self, name: str | None) -> Encoding:
        """The encoding called ``name`` (None: the default); an unknown name is an InputError."""
        name = name or self.default_encoding
        for e in self.encodings:
            if e.name == name:
                return e
        raise InputError(f"unknown {self.name} encoding {name!r}; choose one of {', '.join(self.encoding_names)}")

    def encode(
        self, puzzle: Any, encoding: str | None = None, hints: Any = None, presolve: str | None = None
    ) -> Script:
        """The SMT-LIB 2.6 script of ``puzzle`` under ``encoding`` (:meth:`standard`); ``hints``
        what a presolve learnt, ``presolve`` what the header says of it (default: "on" with
        hints, else "off")."""
        found = self.encoding(encoding)
        said = presolve if presolve is not None else "on" if hints is not None else "off"
        return self.standard(puzzle, found.encode(puzzle, hints), found.name, said, self.question)

    def standard(self, puzzle: Any, body: Script, encoding: str, presolve: str = "off", question: str = "") -> Script:
        """An encoder's ``body`` framed as SMT-LIB 2.6 (:func:`fillsmt.smtlib.header.standard`),
        its ``:source`` naming the puzzle as the user named it, this kind, ``encoding``,
        ``presolve`` and ``question`` (:func:`fillsmt.smtlib.header.describe`)."""
        from fillsmt.smtlib.header import describe, standard

        return standard(body, describe(puzzle.source, self.name, encoding, presolve, question))

    def script(self, puzzle: Any, encoding: str | None = None, presolve: bool = True) -> Script:
        """The script ``fillsmt encode`` writes: a script encoding (:meth:`script_encoding`),
        after the kind's presolve when ``presolve`` (its fixed cells written in, its hints as
        bounds; :class:`~fillsmt.errors.NoSolution` when it proves there is none), its header
        saying whether the presolve ran and how many cells it fixed."""
        from fillsmt.errors import NoSolution

        name = self.script_encoding(encoding).name
        found = self.presolve(puzzle) if presolve else None
        if found is None:
            said = "off" if not presolve else f"asked for, but {self.name} has none for this puzzle"
            return self.encode(puzzle, name, presolve=said)
        if found.contradiction is not None:
            raise NoSolution(f"{puzzle.source}: the deduction rules prove there is no solution: {found.contradiction}")
        cells = puzzle.height * puzzle.width
        said = f"on, {found.fixed_cells} of {cells} cells fixed (clues included)"
        return self.encode(puzzle if found.puzzle is None else found.puzzle, name, found.hints, presolve=said)

    def decode(self, puzzle: Any, values: dict, encoding: str, source: str) -> Any:
        """The solution a solver's get-value answer describes (raises AnswerError / FormatError)."""
        raise NotImplementedError

    def guess_encoding(self, values: dict) -> str:
        """The encoding a saved answer was written with, judged from its variable names."""
        return self.default_encoding

    def term_cell(self, puzzle: Any, term: str) -> Hashable:
        """The cell a get-value term belongs to (several terms may share one)."""
        return term

    def term_value(self, puzzle: Any, term: str, number: int) -> int | bool:
        """The value of the get-value ``term`` when its cell (:meth:`term_cell`) holds ``number``
        (by default the number itself: a cell's number term)."""
        return number

    def problem(self, puzzle: Any, script: Script, encoding: str, solver: str) -> Problem:
        """What a session or a one-shot run needs: the script, the decoder and the checker."""
        from fillsmt.engine.solutions import Problem

        return Problem(
            script=script,
            decode=lambda values: self.decode(puzzle, values, encoding, f"{solver}'s answer"),
            check=lambda solution: self.check(puzzle, solution),
            term_cell=lambda term: self.term_cell(puzzle, term),
            cuts=self.encoding(encoding).cuts,
        )

    def encode_at_least(self, puzzle: Any, bound: int, encoding: str | None = None) -> Script:
        """MAXIMIZE kinds: the question "is there an answer worth at least ``bound``?" for any solver."""
        raise InputError("--bound is for tiling problems only (problems that are optimised)")

    def optimize(
        self, puzzle: Any, driver: Any, timeout: float | None, encoding: str | None, method: str = "auto"
    ) -> Any:
        """MAXIMIZE kinds: the best checked answer found with ``driver``."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles are solved, not optimised")

    # --- clues (repair, minimize) -------------------------------------------------------------

    clue_encoding: ClassVar[str] = ""
    """An encoding with one integer variable per cell, :meth:`cell_var` ("": no clues)."""

    def clues(self, puzzle: Any) -> list[tuple[int, int, int]]:
        """The puzzle's clues as (row, col, number), row by row."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no clues to add or remove")

    def with_clues(self, puzzle: Any, clues: list[tuple[int, int, int]]) -> Any:
        """The same puzzle with exactly ``clues`` as its clues."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no clues to add or remove")

    def cell_var(self, puzzle: Any, row: int, col: int) -> str:
        """The integer variable of a cell's number under :attr:`clue_encoding`."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no clues to add or remove")

    def cell_is(self, puzzle: Any, row: int, col: int, number: int) -> str:
        """The SMT-LIB term "the cell holds number" under :attr:`clue_encoding`."""
        return f"(= {self.cell_var(puzzle, row, col)} {number})"

    def clue_free_script(self, puzzle: Any) -> Script:
        """The puzzle without clues under :attr:`clue_encoding`, with no bound that the clues
        imply (so that clues asserted on top of it conflict only among themselves)."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles have no clues to add or remove")

    def swap_context(self, puzzle: Any, a: Any, b: Any) -> set[tuple[int, int]] | None:
        """For two solutions ``a`` and ``b`` of ``puzzle`` (grids): cells such that every
        solution that agrees with ``a`` on them stays a solution with ``b``'s numbers put in
        where ``a`` and ``b`` differ; None when the kind cannot tell. ``repair`` learns from it
        which other solutions need a clue where ``a`` and ``b`` differ (:mod:`fillsmt.setter.repair`)."""
        return None

    def uniqueness_oracle(self, driver: Any, deadline: float | None) -> Any:
        """The kind's exact uniqueness oracle, as the generator uses it: ``oracle(puzzle,
        solution) -> bool`` (True when ``solution`` is the puzzle's only solution), with a
        ``close()``; ``driver``'s solver settles what the oracle's own layers do not."""
        raise InputError(f"{self.name} puzzles have no uniqueness oracle to minimize with")

    # --- reasoning like a person (rate, explain, hint) --------------------------------------------

    rates: ClassVar[bool] = False
    """Whether ``fillsmt rate`` and :meth:`rating_label` rate the kind's puzzles."""

    explains: ClassVar[bool] = False
    """Whether ``fillsmt explain`` and ``fillsmt hint`` know the kind's deduction rules."""

    def rating_label(self, puzzle: Any, deadline: float | None = None) -> str | None:
        """The difficulty label of ``fillsmt rate``; None when ``deadline`` (a
        ``time.monotonic()`` value) came before the label was certain."""
        raise InputError(f"{puzzle.source}: {self.name} puzzles are not rated")

    # --- new puzzles ---------------------------------------------------------------------------

    can_generate: ClassVar[bool] = False
    """Whether :meth:`generate` makes new puzzles (``fillsmt generate --kind``)."""

    def check_request(self, opts: Any, asked: dict) -> Any:
        """A ``generate`` request (:class:`fillsmt.setter.generation.Options`) checked against the kind,
        its defaults filled in; ``asked`` maps each kind-specific option to the value given."""
        raise InputError(f"fillsmt cannot make {self.name} puzzles")

    def generate(self, opts: Any, seed: Any, driver: Any) -> Any:
        """A new puzzle with one solution (:class:`fillsmt.setter.generation.Made`); ``driver`` is the
        uniqueness oracle's solver (None: the kind's own search)."""
        raise InputError(f"fillsmt cannot make {self.name} puzzles")

    def generated_words(self, made: Any) -> str:
        """How ``generate``'s summary line counts a made puzzle's clues."""
        return f"{made.clues} clues"

    # --- results -------------------------------------------------------------------------------

    def result_summary(self, result: Any) -> str:
        """One line on an optimisation result (what it reached, whether proven); "" otherwise."""
        return ""

    def result_fields(self, result: Any) -> dict:
        """Extra JSON keys of a result of this kind (an optimisation's bound, …)."""
        return {}


__all__ = ["Encoding", "Kind", "MAXIMIZE", "Presolved", "SATISFY"]
