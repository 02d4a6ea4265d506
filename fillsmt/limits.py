"""The sizes fillsmt accepts, and the one reader of the integers every format holds.

Every reader of a number (plain files of all kinds, JSON, the tiling format, puzz.link URLs,
solution files, solver answers) goes through :func:`integer` (or :func:`checked_int`), which accepts only ASCII digits
(an optional leading ``-`` where allowed) and refuses absurd sizes before converting, so a
5000-digit integer or a superscript ``²`` is a clear message, never a traceback.

The caps are documented in docs/cli.md; each can be raised with its environment variable:

=========================  ==========  ================================================
variable                   default     what it bounds
=========================  ==========  ================================================
``FILLSMT_MAX_SIDE``       1000        a grid's or board's height and width
``FILLSMT_MAX_CELLS``      250000      a grid's or board's number of cells (clues too)
``FILLSMT_MAX_INPUT``      16 MiB      bytes read from one input file or standard input
``FILLSMT_MAX_OUTPUT``     32 MiB      bytes a solver may print for one run or exchange
``FILLSMT_MAX_DEPTH``      200         nesting of a solver's answer (s-expressions)
=========================  ==========  ================================================
"""

from __future__ import annotations

import os

from fillsmt.errors import InputError

_DEFAULTS = {
    "FILLSMT_MAX_SIDE": 1000,
    "FILLSMT_MAX_CELLS": 250_000,
    "FILLSMT_MAX_INPUT": 16 * 1024 * 1024,
    "FILLSMT_MAX_OUTPUT": 32 * 1024 * 1024,
    "FILLSMT_MAX_DEPTH": 200,
    "FILLSMT_MAX_PRESOLVE": 1 << 24,
}

#: Integers with more digits than this are refused before any conversion (far above every cap).
MAX_DIGITS = 18


def limit(name: str) -> int:
    """The cap ``name`` (one of the ``FILLSMT_MAX_…`` variables): its environment value if set."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return _DEFAULTS[name]
    value = text.strip().replace("_", "")
    if not is_int(value) or len(value) > MAX_DIGITS or int(value) < 1:
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


def max_presolve() -> int:
    return limit("FILLSMT_MAX_PRESOLVE")


def is_int(text: str, negative: bool = False) -> bool:
    """True when ``text`` is an integer written in ASCII digits (with ``negative``, a leading
    ``-`` is allowed), whatever its size. Unicode digits (``²``, ``٣``) are not."""
    digits = text[1:] if negative and text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


def integer(text: str, what: str, *, negative: bool = False) -> int:
    """``text`` as an integer, or :class:`ValueError` with a message that names ``what``: only
    ASCII digits (and, with ``negative``, a leading ``-``), at most :data:`MAX_DIGITS` of them.
    Callers turn the message into their own error, with the file and line."""
    if not is_int(text, negative=True):
        raise ValueError(f"expected an integer for {what}, found {shown(text)}")
    if not negative and text.startswith("-"):
        raise ValueError(f"{what} is negative ({shown(text, quote=False)}); expected 0 or a positive integer")
    return checked_int(text, what)


def checked_int(text: str, what: str, base: int = 10) -> int:
    """``int(text, base)`` for text already known to hold only digits of ``base``, refused
    (:class:`ValueError`) beyond :data:`MAX_DIGITS` digits: Python itself refuses 4300."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"{what} has {digits} digits ({text[:12]}…), far beyond any limit")
    return int(text, base)


def shown(text: str, width: int = 20, quote: bool = True) -> str:
    """``text`` cut to ``width`` characters for a message, quoted as repr() does."""
    cut = text if len(text) <= width else text[:width] + "…"
    return repr(cut) if quote else cut


def check_side(value: int, name: str) -> None:
    """:class:`ValueError` when ``value``, a height or width called ``name``, is beyond :func:`max_side`."""
    side = max_side()
    if value > side:
        raise ValueError(
            f"{name} {value} is larger than the limit of {side} "
            f"(raise it with the environment variable FILLSMT_MAX_SIDE)"
        )


def check_cells(height: int, width: int, what: str = "grid") -> None:
    """:class:`ValueError` when a ``height`` × ``width`` grid or board is beyond :func:`max_side`
    or :func:`max_cells`."""
    check_side(height, f"the {what}'s height")
    check_side(width, f"the {what}'s width")
    cells = max_cells()
    if height * width > cells:
        raise ValueError(
            f"a {height}x{width} {what} has {height * width} cells, more than the limit of {cells} "
            f"(raise it with the environment variable FILLSMT_MAX_CELLS)"
        )


def read_bounded(stream, where: str) -> bytes:
    """At most :func:`max_input` bytes of a binary ``stream``; :class:`InputError` if it holds more."""
    cap = max_input()
    data = stream.read(cap + 1)
    if len(data) > cap:
        raise InputError(
            f"{where}: larger than the limit of {cap} bytes (raise it with the environment variable FILLSMT_MAX_INPUT)"
        )
    return data
