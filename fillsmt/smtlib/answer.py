"""What a solver said: the check-sat status, the get-value pairs, and any errors.

This one parser serves every driver that gets SMT-LIB text back (solver binaries, the Z3 API's
``eval_smtlib2_string``, the pysmt worker) and ``fillsmt decode`` for saved solver output, so
they all read answers the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard, Union

from fillsmt import limits
from fillsmt.smtlib.sexpr import SExprError, StringLit, iter_all
from fillsmt.smtlib.status import Status

Value = Union[int, bool, str]


_STATUS_WORDS = {"sat": Status.SAT, "unsat": Status.UNSAT, "unknown": Status.UNKNOWN}


@dataclass
class Answer:
    """A solver's answer, parsed.

    ``status`` is ``None`` when the text has no check-sat answer at all. ``values`` maps the
    printed text of each get-value term to its value (int, bool, or the raw text when the value
    is of no kind fillsmt reads). ``errors`` holds the solver's ``(error "…")`` messages and
    ``unexpected`` anything else it printed that is not part of an answer; the ``early_``
    lists hold those that came before the check-sat answer.
    """

    status: Status | None
    values: dict[str, Value] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    early_errors: list[str] = field(default_factory=list)
    early_unexpected: list[str] = field(default_factory=list)


def render_sexpr(x) -> str:
    """An s-expression read by :func:`~fillsmt.smtlib.sexpr.read_all`, printed back as SMT-LIB text."""
    if isinstance(x, list):
        return "(" + " ".join(render_sexpr(i) for i in x) + ")"
    if isinstance(x, StringLit):
        return '"' + x.replace('"', '""') + '"'
    text = str(x)
    if not text or any(ch.isspace() or ch in '();"|' for ch in text):  # read from a quoted symbol |…|
        return f"|{text}|"
    return text


def parse_value(x) -> Value:
    """An SMT-LIB value: numerals, ``(- n)``, ``true``/``false``, ``#b…``, ``#x…``, ``(_ bvN w)``."""
    if isinstance(x, str) and not isinstance(x, StringLit):
        if limits.is_int(x):
            return _numeral(x, 10)
        if x in ("true", "false"):
            return x == "true"
        if x.startswith("#b") and len(x) > 2 and set(x[2:]) <= {"0", "1"}:
            return _numeral(x[2:], 2)
        if x.startswith("#x") and len(x) > 2 and set(x[2:].lower()) <= set("0123456789abcdef"):
            return _numeral(x[2:], 16)
    if isinstance(x, list):
        if len(x) == 2 and x[0] == "-":
            inner = parse_value(x[1])
            if isinstance(inner, int) and not isinstance(inner, bool):
                return -inner
        if len(x) == 3 and x[0] == "_" and isinstance(x[1], str) and x[1].startswith("bv") and limits.is_int(x[1][2:]):
            return _numeral(x[1][2:], 10)
    return render_sexpr(x)


def _numeral(digits: str, base: int) -> Value:
    """The numeral's value; one of absurd length stays text (the decoders refuse it by name)."""
    try:
        return limits.checked_int(digits, "a numeral", base)
    except ValueError:
        return f"{digits[:12]}… ({len(digits)} digits)"


def _is_value_list(x: object) -> TypeGuard[list[list[Any]]]:
    return isinstance(x, list) and len(x) > 0 and all(isinstance(p, list) and len(p) == 2 for p in x)


def parse_answer(text: str) -> Answer:
    """Parse a solver's whole output. Raises :class:`SExprError` on malformed text."""
    answer = Answer(status=None)
    for item in iter_all(text):
        x = item.value
        if isinstance(x, str) and not isinstance(x, StringLit):
            if x in _STATUS_WORDS and answer.status is None:
                answer.status = _STATUS_WORDS[x]
                continue
            if x == "success":
                continue
        if isinstance(x, list) and len(x) >= 1 and x[0] == "error":
            message = " ".join(str(m) for m in x[1:])
            _keep(answer.errors if answer.status else answer.early_errors, message)
            continue
        if _is_value_list(x):
            for term, value in x:
                answer.values[render_sexpr(term)] = parse_value(value)
            continue
        _keep(answer.unexpected if answer.status else answer.early_unexpected, render_sexpr(x))
    return answer


_KEPT = 20  # errors and unexpected items kept for the message; a flood of them is not kept


def _keep(items: list[str], text: str) -> None:
    if len(items) < _KEPT:
        items.append(text if len(text) <= 300 else text[:299] + "…")


__all__ = ["Answer", "SExprError", "Status", "Value", "parse_answer", "parse_value", "render_sexpr"]
