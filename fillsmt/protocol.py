"""The kind protocol: what fillsmt needs of one puzzle kind, as a small core and optional capabilities.

A kind is a package (``model``, ``plain_format``, ``encode…``, ``decode``, ``verify``, ``render``, …)
plus one object that ties its pieces together; the registry (:mod:`fillsmt.kinds`) names it, and
every puzzle object says its kind's name in its ``kind`` class attribute. The engine, the CLI,
the JSON writer and ``bench`` only ever talk to that object: nothing outside a kind's package
asks what class a puzzle is.

:class:`Kind` is the core every kind implements: read and write puzzles and solutions, encode a
puzzle as SMT-LIB, decode a solver's answer, check a solution (the independent referee), and say
which cell a variable belongs to. What a kind can do beyond that is a *capability*, a class of its
own (a :class:`Kind` with more to it) that the kind's class lists among its bases, and that a caller asks for by
``Capability.of(kind, source)`` (the kind, or a one-line :class:`~fillsmt.errors.InputError`
saying it cannot) or by ``isinstance``:

* :class:`JsonForm` — the puzzle as a JSON object (``convert --to json``, JSON input);
* :class:`UrlForm` — puzz.link URLs (``convert --to url``, URL input);
* :class:`Pictures` — the ``pretty`` text picture and the SVG picture (``render``);
* :class:`Presolves` — reasoning before any solver (Fillomino: the deduction rules);
* :class:`Searches` — a search of its own (``--solver rules``) and the plan by which it races
  SMT solvers;
* :class:`Rates` and :class:`Explains` — difficulty ratings, and step-by-step explanations;
* :class:`Generates` — new puzzles (``generate``);
* :class:`Clues` — clues added or removed (``repair``, ``minimize``);
* :class:`Optimises` — an optimisation problem (tilings): the best answer, not one answer.

Which of its encodings suits a solver that decides one logic only is the core's
:attr:`Kind.theory_encodings`. ``tests/toy_kind.py`` is a kind with the core alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, NamedTuple, TypeVar

from fillsmt.errors import InputError

if TYPE_CHECKING:  # a kind's registry entry is read at start-up: the solving machinery loads on first use
    from fillsmt.engine.plan import Plan
    from fillsmt.engine.solutions import Problem
    from fillsmt.smtlib import Script

PROPAGATOR_INFO = ":fillsmt-propagator"
"""The ``set-info`` attribute by which a script asks for a user propagator: its value is the
string ``"NAME ARG…"`` (integers), a name a kind registers in :attr:`Kind.propagators`."""


class Encoding(NamedTuple):
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
    how: str = ""
    """For a solving method: what solves it, in words, where the default words of :attr:`method`
    say less than the truth."""

    @property
    def lazy(self) -> bool:
        return self.cuts is not None

    @property
    def method(self) -> str:
        """ "" for a script that any SMT-LIB solver decides exactly on its own; else what solves it
        (a solving method: ``encode`` and ``export`` do not write it, and only a solver that
        can run it is given it, :func:`fillsmt.drivers.base.Driver.cannot_run`). The one test of
        "is this a script"."""
        if self.how and (self.propagator or self.lazy):
            return self.how
        if self.propagator:
            return f"exact only with the {self.propagator} propagator inside the solver's search"
        if self.lazy:
            return "a relaxation refined by region cuts in a solver session"
        return ""


class Presolved(NamedTuple):
    """What a kind's presolve proved before any solver ran.

    ``contradiction`` says why there is no solution; else ``grid`` is set when every cell was
    settled (the pipeline still checks it), else ``puzzle`` and ``hints`` are what to encode.
    """

    fixed_cells: int
    contradiction: str | None = None
    grid: Any = None
    puzzle: Any = None
    hints: Any = None


class Kind(ABC):
    """The core of a puzzle kind: what every kind implements (the methods without a body) or may
    override (the others). Subclasses set the class attributes."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    encodings: tuple[Encoding, ...] = ()
    default_encoding: str = ""
    question: ClassVar[str] = ""
    """What :meth:`encode`'s script asks, for its header, when not "a solution?"."""
    theory_encodings: ClassVar[dict[str, str]] = {}
    """Which of the kind's encodings suits a solver that decides one logic only (logic → encoding
    name, e.g. ``{"QF_BV": "bv"}``): what such a solver gets when no encoding is named
    (:meth:`fillsmt.drivers.base.Driver.encoding_for`)."""
    propagators: ClassVar[dict[str, str]] = {}
    """The user propagators the kind's encodings ask for: name → ``module:function`` making one,
    ``make(z3, solver, *args, atoms)`` with the script's integer arguments and its Boolean
    constants by name (Z3 with a propagator, ``z3-prop``, resolves it in its worker)."""

    # --- puzzles and solutions, read and written ---------------------------------------------------

    def looks_like(self, text: str) -> bool:
        """True when a file's text is clearly this kind's (for detection without ``--kind``)."""
        return False

    @abstractmethod
    def parse(self, text: str, source: str) -> Any:
        """The puzzle a file's text holds (a :class:`~fillsmt.errors.FormatError` naming ``source``,
        the line and what was expected, on bad input)."""

    @abstractmethod
    def format_puzzle(self, puzzle: Any) -> str:
        """The puzzle in the kind's file format (what :meth:`parse` reads back)."""

    @abstractmethod
    def parse_solution(self, text: str, source: str, puzzle: Any) -> Any:
        """A solution file's text, read for ``puzzle``."""

    @abstractmethod
    def format_solution(self, puzzle: Any, solution: Any) -> str:
        """A solution in the kind's file format (what ``solve`` prints)."""

    def solution_json(self, puzzle: Any, solution: Any) -> Any:
        """The solution as JSON data (a grid as rows of integers unless the kind says otherwise)."""
        return [list(row) for row in solution]

    # --- the referee ---------------------------------------------------------------------------------

    @abstractmethod
    def check(self, puzzle: Any, solution: Any) -> list[str]:
        """The independent checker: every problem found, empty when ``solution`` is right."""

    def describe(self, puzzle: Any, solution: Any) -> str:
        """A note on a checked solution, for ``check`` (e.g. the cells a tiling covers)."""
        return ""

    # --- SMT-LIB: encode, decode, the variables' cells -------------------------------------------------

    def encoding(self, name: str | None) -> Encoding:
        """The encoding called ``name`` (None: the default); an unknown name is an InputError."""
        name = name or self.default_encoding
        for e in self.encodings:
            if e.name == name:
                return e
        raise InputError(f"unknown {self.name} encoding {name!r}; choose one of {', '.join(encoding_names(self))}")

    def encode(
        self, puzzle: Any, encoding: str | None = None, hints: Any = None, presolve: str | None = None
    ) -> Script:
        """The SMT-LIB 2.6 script of ``puzzle`` under ``encoding`` (:func:`framed`); ``hints``
        what a presolve learnt, ``presolve`` what the header says of it (default: "on" with
        hints, else "off")."""
        found = self.encoding(encoding)
        said = presolve if presolve is not None else "on" if hints is not None else "off"
        return framed(self, puzzle, found.encode(puzzle, hints), found.name, said, self.question)

    @abstractmethod
    def decode(self, puzzle: Any, values: dict, encoding: str, source: str) -> Any:
        """The solution a solver's get-value answer describes (raises AnswerError / FormatError)."""

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


# --- what the core gives, as functions of a kind -------------------------------------------------------


def encoding_names(kind: Kind) -> tuple[str, ...]:
    """The names of every encoding of ``kind``."""
    return tuple(e.name for e in kind.encodings)


def script_names(kind: Kind) -> tuple[str, ...]:
    """The encodings whose script is exact on its own (what ``encode`` and ``export`` write)."""
    return tuple(e.name for e in kind.encodings if not e.method)


def script_encoding(kind: Kind, name: str | None) -> Encoding:
    """:meth:`Kind.encoding`, refusing a solving method (an InputError, exit 2, on one line)."""
    found = kind.encoding(name)
    if found.method:
        raise InputError(
            f"{found.name} is a solving method, not a script ({found.method}); the {kind.name} "
            f"scripts are {', '.join(script_names(kind))}"
        )
    return found


def framed(kind: Kind, puzzle: Any, body: Script, encoding: str, presolve: str = "off", question: str = "") -> Script:
    """An encoder's ``body`` framed as SMT-LIB 2.6 (:func:`fillsmt.smtlib.header.standard`), its
    ``:source`` naming the puzzle as the user named it, ``kind``, ``encoding``, ``presolve`` and
    ``question`` (:func:`fillsmt.smtlib.header.describe`)."""
    from fillsmt.smtlib.header import describe, standard

    return standard(body, describe(puzzle.source, kind.name, encoding, presolve, question))


def script(kind: Kind, puzzle: Any, encoding: str | None = None, presolve: bool = True) -> Script:
    """The script ``fillsmt encode`` writes: a script encoding (:func:`script_encoding`), after
    the kind's presolve when ``presolve`` and the kind :class:`Presolves` (its fixed cells written
    in, its hints as bounds; :class:`~fillsmt.errors.NoSolution` when it proves there is none),
    its header saying whether the presolve ran and how many cells it fixed."""
    from fillsmt.errors import NoSolution

    name = script_encoding(kind, encoding).name
    found = presolved_input(kind, puzzle, presolve)
    if found.contradiction is not None:
        raise NoSolution(f"{puzzle.source}: the deduction rules prove there is no solution: {found.contradiction}")
    return kind.encode(found.puzzle, name, found.hints, presolve=found.said)


class PresolvedInput(NamedTuple):
    """What an encoder is given after the presolve (:func:`presolved_input`): the puzzle (with the
    fixed cells written in), the hints (None: none), what the script's header says of the
    presolve, and the contradiction when the presolve proved there is no solution (then
    ``puzzle`` is the puzzle as given and ``hints`` None)."""

    puzzle: Any
    hints: Any
    said: str
    contradiction: str | None = None


def presolved_input(kind: Kind, puzzle: Any, presolve: bool) -> PresolvedInput:
    """The puzzle and hints to encode, with the kind's presolve when ``presolve`` and the kind
    :class:`Presolves`, and the header's words for it: "off", "asked for, but … has none for this
    puzzle", or "on, N of M cells fixed (clues included)"."""
    found = kind.presolve(puzzle) if presolve and isinstance(kind, Presolves) else None
    if found is None:
        said = "off" if not presolve else f"asked for, but {kind.name} has none for this puzzle"
        return PresolvedInput(puzzle, None, said)
    if found.contradiction is not None:
        return PresolvedInput(puzzle, None, "on, no solution", str(found.contradiction))
    cells = puzzle.height * puzzle.width
    said = f"on, {found.fixed_cells} of {cells} cells fixed (clues included)"
    return PresolvedInput(puzzle if found.puzzle is None else found.puzzle, found.hints, said)


# --- the capabilities ---------------------------------------------------------------------------------

C = TypeVar("C", bound="Capability")


class Capability(Kind):
    """Base of the optional capabilities: a kind has one when its class lists it among its bases
    (``class Fillomino(JsonForm, Pictures, …)``; a capability is a kind with more to it, so a kind
    with the core alone lists :class:`Kind`)."""

    refusal: ClassVar[str] = "{source}: {kind} puzzles cannot do that"
    """The message when a kind lacks the capability (``{source}``: the puzzle's name; ``{kind}``)."""

    @classmethod
    def of(cls: type[C], kind: Kind, source: str = "") -> C:
        """``kind`` as this capability, or an InputError (exit 2) saying it has none."""
        if isinstance(kind, cls):
            return kind
        raise InputError(cls.refusal.format(source=source, kind=kind.name).lstrip(": "))


class JsonForm(Capability):
    """The puzzle as a JSON object (``docs/puzzle.schema.json``)."""

    refusal = "{source}: {kind} puzzles have no JSON form"

    @abstractmethod
    def to_dict(self, puzzle: Any) -> dict:
        """The puzzle as a JSON object (``kind``, ``height``, ``width``, then the kind's keys)."""

    @abstractmethod
    def from_dict(self, obj: dict, reader: Any) -> Any:
        """The puzzle from a JSON object; ``reader`` is a :class:`fillsmt.formats.json_format.Reader`
        (it checks the object and can hand a plain file made from it to the kind's reader with
        ``Reader.reparse``)."""


class UrlForm(Capability):
    """puzz.link URLs of the kind's puzzles (:mod:`fillsmt.formats.puzzlink` reads the URL's frame
    and the shared body codes; the kind reads and writes its own body)."""

    refusal = "{source}: puzz.link has no {kind} puzzles; convert it --to json or --to plain"
    url_types: ClassVar[tuple[str, ...]] = ()
    """The puzz.link puzzle types this kind reads (the first is the one it writes)."""

    @abstractmethod
    def to_url(self, puzzle: Any) -> str:
        """The ``https://puzz.link/p?…`` URL of the puzzle."""

    @abstractmethod
    def from_url(self, url: Any, unknown: str) -> Any:
        """The puzzle of a URL (a :class:`fillsmt.formats.puzzlink.Url`: its type, flag, sizes and
        body); ``unknown`` says what a ``?`` clue becomes (``"refuse"`` or ``"empty"``)."""


class Pictures(Capability):
    """Pictures of puzzles and solutions: a text picture for ``--format pretty`` and an SVG one."""

    refusal = "{source}: no SVG picture for {kind} puzzles"

    @abstractmethod
    def pretty(self, puzzle: Any, solution: Any) -> str:
        """The solution drawn as text (box-drawing lines along region borders)."""

    def pretty_marked(self, puzzle: Any, solution: Any, cells: list[tuple[int, int]]) -> str | None:
        """The pretty picture with ``cells`` marked, or None when the kind cannot mark cells."""
        return None

    @abstractmethod
    def svg(self, puzzle: Any, solution: Any, title: str | None = None, style: Any = None) -> str:
        """The SVG picture of the puzzle, solved when ``solution`` is given
        (:mod:`fillsmt.pictures.svg` draws it)."""


def pretty(kind: Kind, puzzle: Any, solution: Any) -> str:
    """The text picture of a solution: the kind's :class:`Pictures`, else its solution format."""
    if isinstance(kind, Pictures):
        return kind.pretty(puzzle, solution)
    return kind.format_solution(puzzle, solution)


class Presolves(Capability):
    """Reasoning before any solver (Fillomino: the deduction rules)."""

    @abstractmethod
    def presolve(self, puzzle: Any) -> Presolved | None:
        """What the reasoning settles; None when it has nothing for this puzzle."""

    def quick_answer(self, puzzle: Any) -> Any | None:
        """A solution found without any search when the puzzle is trivially open (a Fillomino
        grid without clues), else None; the engine checks it like any other."""
        return None


class Searches(Capability):
    """A search of the kind's own (``--solver rules``), and the plan by which it races SMT solvers."""

    refusal = "{source}: {kind} puzzles have no search of their own"

    @abstractmethod
    def search(
        self,
        puzzle: Any,
        limit: int,
        deadline: float | None = None,
        progress: Any = None,
        options: Any = None,
        budget: float | None = None,
    ) -> Any:
        """Up to ``limit`` solutions by the kind's own search until ``deadline`` (monotonic) or
        within ``budget`` seconds of the ``options``' clock, telling ``progress``
        (:class:`fillsmt.engine.racers.SearchProgress`, or None) of its nodes; ``options`` are the
        kind's (from its :meth:`plan`; None: those of ``--solver rules``)."""

    def plan(self, presolved: Any, proof: bool) -> Plan:
        """How the ``presolved`` puzzle is raced (:class:`fillsmt.engine.plan.Plan`); ``proof``: the
        race must also prove (``--unique`` or ``--forced``). By default the kind's search races
        the solver."""
        from fillsmt.engine.plan import Plan, search_entrant

        return Plan.of(search=search_entrant())


class Rates(Capability):
    """Difficulty ratings (``fillsmt rate``, ``minimize --keep-rated``)."""

    refusal = "{source}: {kind} puzzles are not rated"
    methods: tuple[str, ...] = ()
    """The ways of rating ``rate --method`` offers, the default first."""
    cell_orders: tuple[str, ...] = ()
    """The orders of guesses ``rate --cell-order`` offers, the default first."""

    @abstractmethod
    def rating_label(self, puzzle: Any, deadline: float | None = None) -> str | None:
        """The difficulty label of ``fillsmt rate``; None when ``deadline`` (a
        ``time.monotonic()`` value) came before the label was certain."""

    @abstractmethod
    def rate(
        self,
        puzzle: Any,
        deadline: float | None = None,
        max_nodes: int | None = None,
        rules: str | None = None,
        cell_order: str | None = None,
        method: str | None = None,
    ) -> Any:
        """The rating ``fillsmt rate`` prints: an object with ``status`` (``solved``,
        ``no-solution`` or ``stopped``), ``label`` (None when not certain), ``as_dict()`` (its
        JSON data) and ``text(path)`` (its lines for ``--format text``). ``rules`` is the text of
        ``--rules``; an option None is the kind's default; one that does not fit the kind or the
        others raises :class:`~fillsmt.errors.InputError`."""


class Explains(Capability):
    """Step-by-step explanations by the kind's deduction rules (``fillsmt explain``, ``hint``)."""

    refusal = "{source}: {kind} puzzles have no deduction rules to explain them with"

    @abstractmethod
    def explain(self, puzzle: Any, deadline: float | None, solver: str) -> Any:
        """The steps that solve ``puzzle`` (``fillsmt explain``): an object with ``status``,
        ``as_dict()``, ``text()`` and ``svg()``; ``solver`` names the solver that settles what
        the rules cannot (uniqueness, a forced cell)."""

    @abstractmethod
    def hint(self, puzzle: Any, progress: Any, deadline: float | None, solver: str) -> Any:
        """The next step for a player whose grid is ``progress`` (a puzzle of this kind, read from the
        player's file; None: the puzzle as printed),
        or the cells of it that are wrong (``fillsmt hint``): an object with ``status``,
        ``as_dict()`` and ``text()``."""


class Generates(Capability):
    """New puzzles with one solution (``fillsmt generate --kind``)."""

    refusal = "fillsmt cannot make {kind} puzzles"
    difficulties: tuple[str, ...] = ()
    """The ratings ``generate --difficulty`` can aim for (none: the option is not the kind's)."""
    region_styles: tuple[str, ...] = ()
    """The styles of solution regions ``generate --regions`` offers (none: the option is not the kind's)."""

    def option_notes(self) -> dict[str, str]:
        """What ``generate --help`` says of the kind's defaults, by option (``max_region``,
        ``max_empty_area``): a phrase each, naming the kind."""
        return {}

    @abstractmethod
    def check_request(self, opts: Any, asked: dict) -> Any:
        """A ``generate`` request (:class:`fillsmt.setter.generation.Options`) checked against the
        kind, its defaults filled in; ``asked`` maps each kind-specific option to the value given."""

    @abstractmethod
    def generate(self, opts: Any, seed: Any, driver: Any) -> Any:
        """A new puzzle with one solution (:class:`fillsmt.setter.generation.Made`); ``driver`` is
        the uniqueness oracle's solver (None: the kind's own search)."""

    def generated_words(self, made: Any) -> str:
        """How ``generate``'s summary line counts a made puzzle's clues."""
        return f"{made.clues} clues"


class Clues(Capability):
    """Clues to add or remove (``repair``, ``minimize``)."""

    refusal = "{source}: {kind} puzzles have no clues to add or remove"
    clue_encoding: ClassVar[str] = ""
    """An encoding with one integer variable per cell, :meth:`cell_var`."""

    @abstractmethod
    def clues(self, puzzle: Any) -> list[tuple[int, int, int]]:
        """The puzzle's clues as (row, col, number), row by row."""

    @abstractmethod
    def with_clues(self, puzzle: Any, clues: list[tuple[int, int, int]]) -> Any:
        """The same puzzle with exactly ``clues`` as its clues."""

    @abstractmethod
    def cell_var(self, puzzle: Any, row: int, col: int) -> str:
        """The integer variable of a cell's number under :attr:`clue_encoding`."""

    def cell_is(self, puzzle: Any, row: int, col: int, number: int) -> str:
        """The SMT-LIB term "the cell holds number" under :attr:`clue_encoding`."""
        return f"(= {self.cell_var(puzzle, row, col)} {number})"

    @abstractmethod
    def clue_free_script(self, puzzle: Any) -> Script:
        """The puzzle without clues under :attr:`clue_encoding`, with no bound that the clues
        imply (so that clues asserted on top of it conflict only among themselves)."""

    def swap_context(self, puzzle: Any, a: Any, b: Any) -> set[tuple[int, int]] | None:
        """For two solutions ``a`` and ``b`` of ``puzzle`` (grids): cells such that every
        solution that agrees with ``a`` on them stays a solution with ``b``'s numbers put in
        where ``a`` and ``b`` differ; None when the kind cannot tell. ``repair`` learns from it
        which other solutions need a clue where ``a`` and ``b`` differ (:mod:`fillsmt.setter.repair`)."""
        return None

    def first_tries(self, puzzle: Any) -> list[Any]:
        """Solutions of ``puzzle`` (grids) that ``repair`` tries before any other: those the kind
        knows a single clue can make unique (none by default)."""
        return []

    @abstractmethod
    def uniqueness_oracle(self, driver: Any, deadline: float | None) -> Any:
        """The kind's exact uniqueness oracle, as the generator uses it: ``oracle(puzzle,
        solution) -> bool`` (True when ``solution`` is the puzzle's only solution), with a
        ``close()``; ``driver``'s solver settles what the oracle's own layers do not."""


class Optimises(Capability):
    """An optimisation problem (tilings): the engine hands a puzzle to :meth:`optimize`, which finds
    the best checked answer, instead of solving it for one answer."""

    refusal = "{source}: {kind} puzzles are solved, not optimised"

    @abstractmethod
    def optimize(
        self, puzzle: Any, driver: Any, timeout: float | None, encoding: str | None, method: str = "auto"
    ) -> Any:
        """The best checked answer found with ``driver``."""

    @abstractmethod
    def encode_at_least(self, puzzle: Any, bound: int, encoding: str | None = None) -> Script:
        """The question "is there an answer worth at least ``bound``?" for any solver."""

    @abstractmethod
    def result_summary(self, result: Any) -> str:
        """One line on an optimisation result (what it reached, whether proven)."""

    def result_fields(self, result: Any) -> dict:
        """Extra JSON keys of a result of this kind (an optimisation's bound, …)."""
        return {}

    @abstractmethod
    def answer_values(self, puzzle: Any, answer: Any) -> dict[str, str]:
        """Each get-value term's value (SMT-LIB text) in ``answer`` (the optimiser's: a tiling's
        placements), to confirm a written script is satisfied by it."""


__all__ = [
    "Capability",
    "Clues",
    "Encoding",
    "Explains",
    "Generates",
    "JsonForm",
    "Kind",
    "Optimises",
    "PROPAGATOR_INFO",
    "Pictures",
    "Presolved",
    "Presolves",
    "Rates",
    "Searches",
    "UrlForm",
    "encoding_names",
    "framed",
    "pretty",
    "script",
    "script_encoding",
    "script_names",
]
