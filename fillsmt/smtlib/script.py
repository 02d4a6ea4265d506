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


def render_term(term: Term) -> str:
    """The SMT-LIB text of one term."""
    if isinstance(term, bool):  # bool is an int subclass: refuse it rather than print 0/1
        raise TypeError("Boolean literals are the symbols 'true' and 'false'")
    if isinstance(term, int):
        return str(term) if term >= 0 else f"(- {-term})"
    if isinstance(term, str):
        return term
    if isinstance(term, tuple):
        return "(" + " ".join(render_term(t) for t in term) + ")"
    raise TypeError(f"not an SMT-LIB term: {term!r}")


@dataclass(frozen=True)
class Command:
    """One SMT-LIB command, e.g. ``Command("assert", (("=", "x", 1),))``."""

    name: str
    args: tuple = ()

    def text(self) -> str:
        return render_term((self.name, *self.args))


@dataclass(frozen=True)
class Script:
    """A whole SMT-LIB script."""

    commands: tuple[Command, ...]

    @classmethod
    def of(cls, commands: Iterable[Command]) -> "Script":
        return cls(tuple(commands))

    def text(self) -> str:
        """The script as text, one command per line."""
        return "".join(c.text() + "\n" for c in self.commands)

    def count(self, name: str) -> int:
        return sum(1 for c in self.commands if c.name == name)
