"""The sizes fillsmt accepts, and the one reader of the integers every format holds.

Every reader of a number (plain files of all kinds, JSON, the tiling format, puzz.link URLs,
solution files, solver answers) goes through :func:`parse_int`, which accepts only ASCII digits
(an optional leading ``-`` where allowed) and refuses absurd sizes before converting, so a
5000-digit integer or a superscript ``²`` is a clear message, never a traceback.

The caps are documented in the README; each can be raised with its environment variable:

=========================  ==========  ================================================
variable                   default     what it bounds
=========================  ==========  ================================================
``FILLSMT_MAX_SIDE``       10000       a grid's or board's height and width
``FILLSMT_MAX_CELLS``      250000      a grid's or board's number of cells (clues too)
``FILLSMT_MAX_INPUT``      64 MiB      bytes read from one input file or standard input
``FILLSMT_MAX_OUTPUT``     64 MiB      bytes a solver may print for one run or exchange
``FILLSMT_MAX_DEPTH``      1000        nesting of a JSON document or a solver's answer
=========================  ==========  ================================================
"""

from __future__ import annotations

import os

from fillsmt.errors import InputError

_DEFAULTS = {
    "FILLSMT_MAX_SIDE": 10_000,
    "FILLSMT_MAX_CELLS": 250_000,
    "FILLSMT_MAX_INPUT": 64 * 1024 * 1024,
    "FILLSMT_MAX_OUTPUT": 64 * 1024 * 1024,
    "FILLSMT_MAX_DEPTH": 1000,
}

#: Integers with more digits than this are refused before any conversion (far above every cap).
MAX_DIGITS = 30


def limit(name: str) -> int:
    """The cap ``name`` (one of the ``FILLSMT_MAX_…`` variables): its environment value if set."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return _DEFAULTS[name]
    value = text.strip().replace("_", "")
    if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS or int(value) < 1:
        raise InputError(f"{name}={text!r}: expected a positive whole number")
    return int(value)


def max_side() -> int:
    return limit("FILLSMT_MAX_SIDE")


def max_cells() -> int:
    return limit("FILLSMT_MAX_CELLS")


def max_input() -> int:
    return limit("FILLSMT_MAX_INPUT")


def max_output() -> int:
    return limit("FILLSMT_MAX_OUTPUT")


def max_depth() -> int:
    return limit("FILLSMT_MAX_DEPTH")


def is_int(text: str, negative: bool = False) -> bool:
    """True when ``text`` is an integer written in ASCII digits (with ``negative``, a leading
    ``-`` is allowed) — whatever its size."""
    digits = text[1:] if negative and text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


def parse_int(text: str, what: str = "a number", *, negative: bool = False,
              maximum: int | None = None) -> int:
    """``text`` as an integer, or :class:`ValueError` saying why not: only ASCII digits (and,
    with ``negative``, a leading ``-``), at most ``maximum`` (default: :data:`MAX_DIGITS` digits).

    The message reads after a location, e.g. ``f"{where}: {e}"``."""
    if not is_int(text, negative):
        raise ValueError(f"expected {what} (ASCII digits), found {_shown(text)}")
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"{what} {digits[:12]}… ({len(digits)} digits) is far too large")
    value = int(text)
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} {value} is larger than the limit {maximum}{_raise_hint(maximum)}")
    return value


def _shown(text: str, limit_: int = 20) -> str:
    return repr(text if len(text) <= limit_ else text[:limit_] + "…")


def _raise_hint(maximum: int) -> str:
    for name in ("FILLSMT_MAX_SIDE", "FILLSMT_MAX_CELLS"):
        if maximum == limit(name):
            return f" (raise it with the environment variable {name})"
    return ""


def check_size(height: int, width: int, where: str, what: str = "grid") -> None:
    """Raise :class:`InputError` (naming ``where``) when a ``height`` × ``width`` grid or board
    is beyond :func:`max_side` or :func:`max_cells`."""
    side, cells = max_side(), max_cells()
    if height > side or width > side:
        raise InputError(f"{where}: a {height}×{width} {what} is larger than the limit of {side} rows "
                         f"or columns (raise it with the environment variable FILLSMT_MAX_SIDE)")
    if height * width > cells:
        raise InputError(f"{where}: a {height}×{width} {what} has {height * width} cells, more than the limit "
                         f"of {cells} (raise it with the environment variable FILLSMT_MAX_CELLS)")


def read_bounded(stream, where: str) -> bytes:
    """At most :func:`max_input` bytes of a binary ``stream``; :class:`InputError` if it holds more."""
    cap = max_input()
    data = stream.read(cap + 1)
    if len(data) > cap:
        raise InputError(f"{where}: larger than the limit of {cap} bytes "
                         f"(raise it with the environment variable FILLSMT_MAX_INPUT)")
    return data
