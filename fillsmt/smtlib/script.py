"""SMT-LIB scripts held as data and printed as text.

A term is a symbol (``str``), an integer literal (``int``, negative ones are printed
``(- 3)`` as SMT-LIB requires) or an application: a ``tuple`` whose items are terms, printed
in parentheses (``()`` for the empty tuple, as in ``(declare-fun x () Int)``).
A :class:`Command` is one top-level command; a :class:`Script` is a sequence of them, held
either as a tuple or, for a large encoding, as a recipe that makes the commands afresh each time
they are read (:meth:`Script.streamed`): then the script's text can be written out in chunks
(:meth:`Script.chunks`) without ever holding every command, or the whole text, in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence, Union

Term = Union[str, int, tuple]


def _render(term: Term) -> str:
    """The SMT-LIB text of one term (see the module text)."""
    if type(term) is tuple:
        return _application(term)
    if type(term) is str:
        return term
    if type(term) is int:
        return str(term) if term >= 0 else f"(- {-term})"
    if type(term) is bool:  # refuse rather than print 0/1
        raise TypeError("Boolean literals are the symbols 'true' and 'false'")
    if isinstance(term, str):  # str subclasses
        return str(term)
    raise TypeError(f"not an SMT-LIB term: {term!r}")


def _application(term: tuple) -> str:
    """The text of an application: its items joined, the common ones (symbols, applications,
    non-negative numerals) without a call to :func:`_render` each. Writing whole strings per
    application, not one fragment per token into a list, halves the time of a Fillomino script's
    text (a tenth of a 10×10 puzzle's solving time)."""
    parts = []
    for item in term:
        kind = type(item)
        if kind is str:
            parts.append(item)
        elif kind is tuple:
            parts.append(_application(item))
        elif kind is int and item >= 0:
            parts.append(str(item))
        else:
            parts.append(_render(item))
    return "(" + " ".join(parts) + ")"


def render_term(term: Term) -> str:
    """The SMT-LIB text of one term."""
    return _render(term)


@dataclass(frozen=True)
class Command:
    """One SMT-LIB command, e.g. ``Command("assert", (("=", "x", 1),))``."""

    name: str
    args: tuple = ()

    def text(self) -> str:
        return _application((self.name, *self.args))


def declare(name: str, sort: Term) -> Command:
    """``(declare-fun name () sort)``."""
    return Command("declare-fun", (name, (), sort))


def assertion(term: Term) -> Command:
    """``(assert term)``."""
    return Command("assert", (term,))


def conj(terms: Sequence[Term]) -> Term:
    """The conjunction of one or more terms (the term itself when there is one)."""
    return terms[0] if len(terms) == 1 else ("and", *terms)


def disj(terms: Sequence[Term]) -> Term:
    """The disjunction of one or more terms (the term itself when there is one)."""
    return terms[0] if len(terms) == 1 else ("or", *terms)


HOLD = 100_000
"""A streamed script of at most this many commands (a Fillomino grid of about 2300 cells, some
80 MB) is kept after its first complete reading, and read again from there: the pipeline reads
a script up to four times (the get-value terms, the text, a session's declarations and its
assertions), and making it again each time would cost what it saves on a small grid."""


class Replayed:
    """Commands made afresh by ``produce()`` each time they are iterated (see
    :meth:`Script.streamed`), unless there are at most :data:`HOLD` of them."""

    def __init__(self, produce: Callable[[], Iterable[Command]], hold: int = HOLD):
        self._produce, self._hold = produce, hold
        self._held: tuple[Command, ...] | None = None

    def __iter__(self) -> Iterator[Command]:
        return iter(self._held) if self._held is not None else self._first_reading()

    def _first_reading(self) -> Iterator[Command]:
        kept: list[Command] | None = []
        for command in self._produce():
            if kept is not None:
                kept.append(command)
                if len(kept) > self._hold:
                    kept = None  # a large script: made again at each reading, never held
            yield command
        if kept is not None:
            self._held = tuple(kept)


CHUNK = 1 << 16
"""About how many characters :meth:`Script.chunks` puts in one piece of text."""


@dataclass(frozen=True)
class Script:
    """A whole SMT-LIB script."""

    commands: tuple[Command, ...] | Replayed

    @classmethod
    def of(cls, commands: Iterable[Command]) -> "Script":
        return cls(tuple(commands))

    @classmethod
    def streamed(cls, produce: Callable[[], Iterable[Command]]) -> "Script":
        """A script whose commands ``produce()`` yields, made again each time they are read:
        its memory is the encoder's, not the script's (linear and small for a huge grid)."""
        return cls(Replayed(produce))

    def chunks(self, size: int = CHUNK) -> Iterator[str]:
        """The script's text (one command per line) in pieces of about ``size`` characters
        (whole lines: a piece ends with the line that reaches ``size``)."""
        out: list[str] = []
        held = 0
        for c in self.commands:
            line = _application((c.name, *c.args))
            out.append(line)
            out.append("\n")
            held += len(line) + 1
            if held >= size:
                yield "".join(out)
                out.clear()
                held = 0
        if out:
            yield "".join(out)

    def text(self) -> str:
        """The script as text, one command per line."""
        return "".join(self.chunks())

    def count(self, name: str) -> int:
        return sum(1 for c in self.commands if c.name == name)


_QUESTIONS = {"check-sat", "check-sat-assuming", "get-value", "get-model", "exit"}


def script_body(script: Script, joined: bool = False) -> str:
    """The script without its questions: declarations and assertions only, for a session.

    ``joined`` sends every assertion as one conjunction after the other commands, for a solver
    that prepares each ``assert`` on its own in incremental mode (yices: one conjunction gets the
    whole-problem preprocessing of its one-shot mode). Written from the commands as they come
    (a streamed script is never held as commands, only as the text).
    """
    return "".join(script_pieces(script, joined))


def script_pieces(script: Script, joined: bool = False) -> Iterator[str]:
    """:func:`script_body`'s text in pieces of about :data:`CHUNK` characters, as they are written."""
    kept = Script.streamed(
        lambda: (c for c in script.commands if c.name not in _QUESTIONS and not (joined and c.name == "assert"))
    )
    yield from kept.chunks()
    if joined:
        yield from _conjunction(c.args[0] for c in script.commands if c.name == "assert")


def _conjunction(terms: Iterable[Term]) -> Iterator[str]:
    """The text of ``(assert (and …))`` over ``terms`` (of the one term alone; nothing for none)."""
    out: list[str] = []
    held = 0
    first: Term | None = None
    count = 0
    for term in terms:
        count += 1
        if count == 1:
            first = term
            continue
        if count == 2:
            assert first is not None  # set by the first term
            out.append("(assert (and ")
            out.append(_render(first))
        text = _render(term)
        out.append(" ")
        out.append(text)
        held += len(text) + 1
        if held >= CHUNK:
            yield "".join(out)
            out.clear()
            held = 0
    if count == 1:
        yield render_term(("assert", first)) + "\n"
    elif count > 1:
        out.append("))\n")
        yield "".join(out)
