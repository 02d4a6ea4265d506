"""The outcome of one solver run, apart from the answer's reader (:mod:`fillsmt.smtlib.answer`):
what the engine passes around, which a solve the rules settle needs without reading any answer."""

from __future__ import annotations

import enum


class Status(enum.Enum):
    """The outcome of one solver run."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"
