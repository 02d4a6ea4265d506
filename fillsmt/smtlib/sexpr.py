"""A small reader for the s-expressions solvers print (answers, not scripts).

Atoms come back as ``str`` (symbols, keywords, numerals as text) or :class:`StringLit`;
lists as Python lists. Positions are kept so errors can name the line. The reader is iterative
(no recursion) and refuses nesting deeper than :func:`fillsmt.limits.max_depth`, so whatever a
solver prints, reading it ends with values or an :class:`SExprError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from fillsmt import limits


class SExprError(ValueError):
    """The text is not a well-formed sequence of s-expressions."""

    def __init__(self, line: int, problem: str):
        self.line = line
        self.problem = problem
        super().__init__(f"line {line}: {problem}")


class StringLit(str):
    """An SMT-LIB string literal (its contents, quotes removed)."""


@dataclass(frozen=True)
class Located:
    """A top-level s-expression and the line it starts on."""

    value: object
    line: int


def _tokens(text: str):
    """Yield (token, line) pairs: '(', ')', atoms and StringLit."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "()":
            yield ch, line
            i += 1
        elif ch == '"':
            start_line = line
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise SExprError(start_line, "unterminated string literal")
                if text[j] == '"':
                    if j + 1 < n and text[j + 1] == '"':  # "" is an escaped quote
                        buf.append('"')
                        j += 2
                        continue
                    break
                if text[j] == "\n":
                    line += 1
                buf.append(text[j])
                j += 1
            yield StringLit("".join(buf)), start_line
            i = j + 1
        elif ch == "|":
            j = text.find("|", i + 1)
            if j < 0:
                raise SExprError(line, "unterminated quoted symbol")
            line += text.count("\n", i, j)
            yield text[i + 1 : j], line
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();"|':
                j += 1
            yield text[i:j], line
            i = j


def read_all(text: str) -> list[Located]:
    """Read every top-level s-expression of ``text``."""
    return list(iter_all(text))


def iter_all(text: str) -> Iterator[Located]:
    """Each top-level s-expression of ``text`` in turn (an error is raised when reached)."""
    depth = limits.max_depth()
    stack: list[tuple[list, int]] = []
    for tok, line in _tokens(text):
        if tok == "(" and not isinstance(tok, StringLit):
            if len(stack) >= depth:
                raise SExprError(
                    line,
                    f"nested more than {depth} levels deep "
                    f"(raise the limit with the environment variable FILLSMT_MAX_DEPTH)",
                )
            stack.append(([], line))
        elif tok == ")" and not isinstance(tok, StringLit):
            if not stack:
                raise SExprError(line, "unexpected ')'")
            items, start = stack.pop()
            if stack:
                stack[-1][0].append(items)
            else:
                yield Located(items, start)
        elif stack:
            stack[-1][0].append(tok)
        else:
            yield Located(tok, line)
    if stack:
        raise SExprError(stack[-1][1], "unbalanced '(' (the text ends inside an expression)")
