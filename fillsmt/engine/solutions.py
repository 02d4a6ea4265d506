"""The solve-block-solve loop: one solver session over one encoded puzzle, asked again and again.

:class:`Search` is the one abstraction every loop of that shape uses: a solve's session
(uniqueness, forced cells, counting), the uniqueness oracles of the generators, ``repair`` and
``minimize``, the tiling optimiser's bounds. It holds an incremental session
(:mod:`fillsmt.drivers.session`) over the script an encoder wrote, with its ``check-sat`` and
``get-value`` commands taken off, and answers three kinds of question, each model decoded and
checked by the kind before it is an answer: the next solution, blocked for the next check
(:meth:`Search.next_solution`); a solution under assertions of one question only, pushed and
popped, or under assumptions (:meth:`Search.ask`); and whether any solution is left
(:meth:`Search.check`). On top of it:

* a solution is blocked by asserting that at least one *get-value term* (the cell numbers, never
  the spanning-tree edges) differs from its value in that solution — two trees of the same
  regions are one solution — or by the kind's own clause with the same meaning
  (``Problem.block``: Fillomino's may name the solution's spanning trees or its pairs of
  neighbours instead, :mod:`fillsmt.fillomino.blocking`: the trees by default);
* the forced cells are the *backbone* of the cell terms: keep the candidate terms on which every
  solution seen so far agrees, ask (inside ``push``/``pop``) for a solution that differs on at
  least one of them, drop the terms it changes, and stop when the solver says ``unsat``. Every
  ``sat`` removes at least one candidate, so it needs at most one check per unforced cell, never
  an enumeration of all solutions.

Values are sent back as the solver printed them, so the same code serves integer, bit-vector
and Boolean encodings and every puzzle kind. Every grid returned has passed the kind's checker.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, Sequence

from fillsmt.smtlib import Script
from fillsmt.smtlib.answer import Value
from fillsmt.smtlib.script import render_term
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:
    from fillsmt.drivers.session import Session

REPLY_GRACE = 1.0
"""Seconds added to the time left for an exchange that answers at once (a pop after a check): a
solver that is only slow still answers (as :data:`fillsmt.drivers.session.REPLY_GRACE`)."""

Grid = tuple[tuple[int, ...], ...]
Cell = tuple[int, int]


def get_value_terms(script: Script) -> list[str]:
    """The terms the script's ``get-value`` asks for, as text."""
    return [render_term(t) for c in script.commands if c.name == "get-value" for t in c.args[0]]


@dataclass
class OracleStats:
    """Base of a uniqueness oracle's counters: :meth:`as_dict` gives them as JSON data."""

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.__dict__.items()}


@dataclass
class Problem:
    """What a session needs from one encoded puzzle of any kind.

    ``decode`` turns get-value values into a grid (raising on a bad answer), ``check`` is the
    kind's independent checker (a list of problems, empty when the grid is right), and
    ``term_cell`` says which cell a get-value term belongs to (several terms may share a cell).
    """

    script: Script
    decode: Callable[[dict], Grid]
    check: Callable[[Grid], list[str]]
    term_cell: Callable[[str], Hashable]
    cuts: Callable[[Grid], list[str]] | None = None
    """A lazy encoding's refinement (:mod:`fillsmt.fillomino.lazy`): the clauses, true in every
    solution, that a decoded grid breaks (none when it is a solution). The script is then a
    relaxation: :meth:`Search.solution` asserts the cuts and checks again."""
    value_bits: int = 0
    """When positive: the script bounds every get-value term to an integer in
    [0, 2**value_bits) in every model, so a session may read them packed (:attr:`packing`)."""
    block: Callable[["Found", Callable[[list[str]], dict[str, str]]], str] | None = None
    """The kind's own "another solution than ``found``" (:meth:`excluding`): an assertion that
    ``found`` breaks and every *other* solution of the puzzle satisfies (a model of a lazy
    relaxation that is no solution may break it too: its cuts refute it anyway), given
    ``found`` and a reader of other terms' values in the same model (as the solver printed
    them). None: the generic one, :func:`differs` over every get-value term."""

    def excluding(self, found: "Found", read: Callable[[list[str]], dict[str, str]]) -> str:
        """The assertion that blocks ``found`` and no other solution (:attr:`block`)."""
        return self.block(found, read) if self.block is not None else differs(found.raw, self.terms)

    @cached_property
    def terms(self) -> list[str]:
        """The get-value terms, rendered once (a session asks for them after every check)."""
        return get_value_terms(self.script)

    @cached_property
    def pinned(self) -> dict[str, str]:
        """The get-value terms the script itself fixes, ``(assert (= term numeral))`` at the top
        level, with the numeral's text: every model gives them that value (later assertions, in
        a scope or not, only add to the script's), so a session need not ask for them (a
        presolved Fillomino grid pins most of its cells: janko 330, 1759 of 3200)."""
        wanted = set(self.terms)
        pinned = {}
        for c in self.script.commands:
            if c.name != "assert":
                continue
            term = c.args[0]
            if type(term) is tuple and len(term) == 3 and term[0] == "=":
                for name, value in ((term[1], term[2]), (term[2], term[1])):
                    if type(name) is str and name in wanted and type(value) is int and value >= 0:
                        pinned[name] = str(value)
        return pinned

    @cached_property
    def pinned_values(self) -> dict[str, int]:
        """:attr:`pinned` with the numerals read (once: a lazy session adds them to every model)."""
        return {term: int(text) for term, text in self.pinned.items()}

    @cached_property
    def asked(self) -> list[str]:
        """The get-value terms a session asks for: :attr:`terms` but the :attr:`pinned` ones."""
        return [t for t in self.terms if t not in self.pinned]

    @cached_property
    def packing(self) -> "Packing | None":
        """How a session reads :attr:`asked` when :attr:`value_bits` bounds them, else None."""
        return Packing.of(self.asked, self.value_bits) if self.value_bits > 0 and self.asked else None


PACK_TERMS = 32
"""Terms per packed term (:class:`Packing`): 330's 1441 open cells in 46 numerals of about 116 digits."""


@dataclass(frozen=True)
class Packing:
    """Integer terms known to lie in [0, 2**bits) read :data:`PACK_TERMS` at a time: the session
    defines ``packed_values_j`` as ``t0 + 2**bits * (t1 + 2**bits * (t2 + ...))`` once, and each
    get-value asks for these few numerals instead of every term (a lazy session reads a model
    every round: a 50×64 grid's loop asks for 1441 cells 71 times, and the solver's time for a
    get-value grows with the number of terms it prints). Exact: with every term in [0, 2**bits),
    the numeral's base-2**bits digits are the terms' values, lowest first."""

    groups: tuple[tuple[str, ...], ...]
    bits: int

    @classmethod
    def of(cls, terms: list[str], bits: int) -> "Packing":
        return cls(tuple(tuple(terms[i : i + PACK_TERMS]) for i in range(0, len(terms), PACK_TERMS)), bits)

    @property
    def names(self) -> list[str]:
        return [f"packed_values_{j}" for j in range(len(self.groups))]

    def definitions(self) -> str:
        """The ``define-fun`` commands of the packed terms."""
        scale = 1 << self.bits
        out = []
        for name, group in zip(self.names, self.groups):
            term = group[-1]
            for t in reversed(group[:-1]):
                term = f"(+ {t} (* {scale} {term}))"
            out.append(f"(define-fun {name} () Int {term})\n")
        return "".join(out)

    def unpack(self, texts: dict[str, str]) -> tuple[dict[str, int], dict[str, str]]:
        """The terms' values and their texts from the packed numerals as the solver printed them."""
        values = self.values(texts)
        return values, _texts(values)

    def values(self, texts: dict[str, str]) -> dict[str, int]:
        """The terms' values from the packed numerals as the solver printed them."""
        mask = (1 << self.bits) - 1
        values: dict[str, int] = {}
        for name, group in zip(self.names, self.groups):
            number = int(texts[name])
            for t in group:
                values[t] = number & mask
                number >>= self.bits
        return values


def _texts(values: dict[str, int]) -> dict[str, str]:
    """Integer values as a solver prints them (a numeral, for the non-negative ones packed reads
    and pinned terms hold)."""
    return {t: str(v) for t, v in values.items()}


class WrongAnswer(Exception):
    """The solver's model failed to decode or failed the independent check."""


@dataclass
class Found:
    grid: Grid
    raw: dict[str, str]


@dataclass
class Search:
    """An open session over one problem, with a deadline for everything asked of it."""

    problem: Problem
    session: Session
    deadline: float | None = None
    solutions: list[Found] = field(default_factory=list)
    checks: int = 0
    cuts: int = 0

    @classmethod
    @contextmanager
    def opened(
        cls, problem: Problem, driver: Any, deadline: float | None = None, share: Any = None
    ) -> Iterator[Search]:
        """A started search in a new session of ``driver``, closed when the block ends."""
        with driver.open_session(share) as session:
            search = cls(problem, session, deadline)
            search.start()
            yield search

    def start(self) -> None:
        self.session.load(self.problem.script, self._remaining())
        if self._packing is not None:
            self.session.send(self._packing.definitions(), self._remaining())

    def ask(
        self, assertions: Sequence[str] = (), assumptions: Sequence[str] = (), timeout: float | None = None
    ) -> tuple[Status, Found | None]:
        """One question: is there a solution with ``assertions`` (SMT-LIB terms, asserted in a scope
        of their own: pushed, then popped) and the Boolean ``assumptions`` (``check-sat-assuming``)?
        On SAT its solution, decoded and checked (a lazy problem's models refined as in
        :meth:`solution`). ``timeout``: seconds for the check (default: what the deadline leaves)."""
        if assertions:
            self.session.push(self._remaining())
            for term in assertions:
                self.session.assert_term(term, self._remaining())
        answer = self.solution(assumptions=assumptions, timeout=timeout)
        if assertions and self.session.alive:
            self.session.pop(self._remaining(REPLY_GRACE))  # a pop answers at once: grace, not the time left
        return answer

    @property
    def _packing(self) -> "Packing | None":
        """The problem's packing when this session's solver reads packed values, else None."""
        return self.problem.packing if self.session.reads_packed else None

    def _remaining(self, grace: float = 0.0) -> float | None:
        """Seconds left before the deadline (None: no deadline), for every exchange; ``grace`` more
        for one that should answer at once."""
        if self.deadline is None:
            return None
        return max(0.001, self.deadline - time.monotonic()) + grace

    def check(self, before: str = "", assumptions: Sequence[str] = (), timeout: float | None = None) -> Status:
        """Check (``before``: assertions sent with the check-sat, :meth:`Session.check`), assuming
        ``assumptions``, within ``timeout`` seconds (default: what the deadline leaves)."""
        self.checks += 1
        left = self._remaining() if timeout is None else timeout
        return self.session.check(timeout=left, assumptions=assumptions, before=before)

    def model(self) -> Found:
        return self._checked(*self._decoded())

    def _decoded(self) -> tuple[Grid, dict[str, str]]:
        """The model's grid (not yet checked) and the values as the solver printed them."""
        grid, values, raw = self._read()
        return grid, raw if raw is not None else _texts(values)

    def _read(self) -> tuple[Grid, dict, dict[str, str] | None]:
        """The model's grid (not yet checked), the values, and the values as the solver printed
        them; None for those when read packed (every value an integer, printed as ``str`` of it:
        :func:`_texts` makes them when asked; a lazy loop's models but the last are only cut)."""
        packing = self._packing
        values: dict[str, Value] | dict[str, int]
        raw: dict[str, str] | None
        if packing is None:
            values, raw = self.session.get_values_and_texts(self.problem.asked, self._remaining())
            raw.update(self.problem.pinned)
        else:
            try:
                values = packing.values(self.session.get_values_and_texts(packing.names, self._remaining())[1])
            except (KeyError, ValueError) as e:
                raise WrongAnswer(f"{self.session.name} gave an unreadable packed value: {e}") from None
            raw = None
        values.update(self.problem.pinned_values)
        try:
            return self.problem.decode(values), values, raw
        except Exception as e:  # the decoders raise FormatError subclasses with the reason
            raise WrongAnswer(str(e)) from None

    def _checked(self, grid: Grid, raw: dict[str, str]) -> Found:
        problems = self.problem.check(grid)
        if problems:
            raise WrongAnswer(f"{self.session.name}'s answer fails the independent check: {'; '.join(problems)}")
        return Found(grid, raw)

    def solution(self, assumptions: Sequence[str] = (), timeout: float | None = None) -> tuple[Status, Found | None]:
        """Check (assuming ``assumptions``, within ``timeout``); on SAT the model's (checked)
        solution. A lazy problem (``problem.cuts``) has each refuted model's cuts asserted and is
        checked again, until a model is a solution or the answer is not SAT."""
        cuts_text = ""  # the last model's cuts, asserted with the next check-sat (one round trip)
        while True:
            status = self.check(cuts_text, assumptions, timeout)
            if status is not Status.SAT or self.problem.cuts is None:
                return status, self.model() if status is Status.SAT else None
            grid, values, raw = self._read()
            cuts = self.problem.cuts(grid)
            if not cuts:
                return status, self._checked(grid, raw if raw is not None else _texts(values))
            self.cuts += len(cuts)
            cuts_text = "".join(f"(assert {c})\n" for c in cuts)

    def next_solution(self) -> tuple[Status, Found | None]:
        """Check again; on SAT, record the (checked) solution and block it for the next check."""
        status, found = self.solution()
        if found is None:
            return status, None
        self.solutions.append(found)
        read = lambda terms: self.session.get_values_and_texts(terms, self._remaining())[1]  # noqa: E731
        self.session.assert_term(self.problem.excluding(found, read), self._remaining())
        return status, found


def differs(raw: dict[str, str], terms: list[str]) -> str:
    """The assertion "at least one of ``terms`` has another value than in ``raw``"."""
    if not terms:
        return "false"
    parts = [f"(not (= {t} {raw[t]}))" for t in terms]
    return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"


def differing_cells(a: Grid, b: Grid) -> list[Cell]:
    """The (row, column) of every cell, 0-based, where two grids differ, row by row."""
    return [(r, c) for r, row in enumerate(a) for c, v in enumerate(row) if b[r][c] != v]


@dataclass
class Enumeration:
    """Distinct solutions found, up to a limit. ``complete`` is True when the solver proved there
    are no more (so ``len(grids)`` is the exact count)."""

    grids: list[Grid]
    complete: bool
    status: Status  # the last check's answer: UNSAT when complete, else SAT / UNKNOWN / TIMEOUT
    checks: int
    message: str = ""


def enumerate_solutions(search: Search, limit: int) -> Enumeration:
    """Find up to ``limit`` distinct solutions; when the limit is reached, one more check says
    whether there are more (then the count is shown as ``limit+``). Stops early at a time-out or
    an unknown."""
    status = Status.UNSAT
    while len(search.solutions) < limit:
        status, _ = search.next_solution()
        if status is not Status.SAT:
            break
    if len(search.solutions) >= limit:  # a lazy problem's sat must be a solution, not a relaxation's model
        status = search.check() if search.problem.cuts is None else search.solution()[0]
    grids = [f.grid for f in search.solutions]
    return Enumeration(grids, status is Status.UNSAT, status, search.checks)


@dataclass
class Backbone:
    """The cells every solution agrees on (by the cell of each term), or None when not proven."""

    forced: dict[Hashable, bool]  # cell -> True when forced
    status: Status  # UNSAT when proven; TIMEOUT / UNKNOWN when the search stopped early
    checks: int


def backbone(search: Search, first: Found) -> Backbone:
    """Which get-value terms have the same value in every solution, found with push/pop."""
    terms = search.problem.terms
    candidates = {t for t in terms}
    for other in search.solutions[1:]:
        candidates -= {t for t in candidates if other.raw[t] != first.raw[t]}
    checks0 = search.checks
    status = Status.UNSAT
    while candidates:
        status, found = search.ask([differs(first.raw, sorted(candidates))])
        if found is not None:
            candidates -= {t for t in candidates if found.raw[t] != first.raw[t]}
        if status is not Status.SAT:
            break
    if status is not Status.UNSAT and candidates:
        return Backbone({}, status, search.checks - checks0)
    forced: dict[Hashable, bool] = {}
    for t in terms:
        cell = search.problem.term_cell(t)
        forced[cell] = forced.get(cell, True) and t in candidates
    return Backbone(forced, Status.UNSAT, search.checks - checks0)


__all__ = [
    "Backbone",
    "Enumeration",
    "Found",
    "PACK_TERMS",
    "Packing",
    "Problem",
    "Search",
    "WrongAnswer",
    "backbone",
    "differing_cells",
    "differs",
    "enumerate_solutions",
]
