"""SMT-LIB scripts held as data and printed as text.

A term is a symbol (``str``), an integer literal (``int``, negative ones are printed
``(- 3)`` as SMT-LIB requires) or an application: a ``tuple`` whose items are terms, printed
in parentheses (``()`` for the empty tuple, as in ``(declare-fun x () Int)``).
A :class:`Command` is one top-level command; a :class:`Script` is a sequence of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

Term = Union[str, int, tuple]


def _render_into(term: Term, out: list[str]) -> None:
    kind = type(term)
    if kind is str:
        out.append(term)
    elif kind is tuple:
        out.append("(")
        for i, item in enumerate(term):
            if i:
                out.append(" ")
            _render_into(item, out)
        out.append(")")
    elif kind is int:
        out.append(str(term) if term >= 0 else f"(- {-term})")
    elif kind is bool:  # refuse rather than print 0/1
        raise TypeError("Boolean literals are the symbols 'true' and 'false'")
    elif isinstance(term, str):  # str subclasses
        out.append(str(term))
    else:
        raise TypeError(f"not an SMT-LIB term: {term!r}")


def render_term(term: Term) -> str:
    """The SMT-LIB text of one term."""
    out: list[str] = []
    _render_into(term, out)
    return "".join(out)


@dataclass(frozen=True)
class Command:
    """One SMT-LIB command, e.g. ``Command("assert", (("=", "x", 1),))``."""

    name: str
    args: tuple = ()

    def text(self) -> str:
        return render_term((self.name, *self.args))


def declare(name: str, sort: Term) -> Command:
    """``(declare-fun name () sort)``."""
    return Command("declare-fun", (name, (), sort))


def assertion(term: Term) -> Command:
    """``(assert term)``."""
    return Command("assert", (term,))


def conj(terms: list[Term]) -> Term:
    """The conjunction of one or more terms (the term itself when there is one)."""
    return terms[0] if len(terms) == 1 else ("and", *terms)


def disj(terms: list[Term]) -> Term:
    """The disjunction of one or more terms (the term itself when there is one)."""
    return terms[0] if len(terms) == 1 else ("or", *terms)


@dataclass(frozen=True)
class Script:
    """A whole SMT-LIB script."""

    commands: tuple[Command, ...]

    @classmethod
    def of(cls, commands: Iterable[Command]) -> "Script":
        return cls(tuple(commands))

    def text(self) -> str:
        """The script as text, one command per line."""
        out: list[str] = []
        for c in self.commands:
            _render_into((c.name, *c.args), out)
            out.append("\n")
        return "".join(out)

    def count(self, name: str) -> int:
        return sum(1 for c in self.commands if c.name == name)


_QUESTIONS = {"check-sat", "check-sat-assuming", "get-value", "get-model", "exit"}


def script_body(script: Script, joined: bool = False) -> str:
    """The script without its questions: declarations and assertions only, for a session.

    ``joined`` sends every assertion as one conjunction after the other commands, for a solver
    that prepares each ``assert`` on its own in incremental mode (yices: one conjunction gets the
    whole-problem preprocessing of its one-shot mode).
    """
    kept = [c for c in script.commands if c.name not in _QUESTIONS]
    if joined:
        terms = [c.args[0] for c in kept if c.name == "assert"]
        kept = [c for c in kept if c.name != "assert"] + ([assertion(conj(terms))] if terms else [])
    return Script.of(kept).text()
