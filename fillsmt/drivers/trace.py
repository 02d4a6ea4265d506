"""The solver traffic log: what fillsmt sends to each solver and what the solver answers.

Set the environment variable ``FILLSMT_TRACE`` to a file (the command line's ``fillsmt --trace
FILE`` does that) and every one-shot run and every session exchange is appended to it. The file
is itself SMT-LIB: what was sent is kept as it was sent, and everything else is a comment — a
``; >>>`` line before what went to a solver, a ``; <<<`` line before its answer, and the answer's
lines behind ``; ``. One run of a one-shot solver can therefore be cut out and replayed as it is.

Each record is one ``write`` to a file opened for appending, so the records of parallel runs
(``bench --jobs``, the portfolio) do not mix inside one another; a trace file is never truncated.
Without the variable, recording costs one dictionary lookup.
"""

from __future__ import annotations

import os
from datetime import datetime

ENV = "FILLSMT_TRACE"


def path() -> str | None:
    """Where traffic is recorded, or None when it is not."""
    return os.environ.get(ENV) or None


def _write(record: str) -> None:
    target = path()
    if target is None:
        return
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, record.encode("utf-8", errors="replace"))
    finally:
        os.close(fd)


def _stamp() -> str:
    return datetime.now().strftime("%H:%M:%S.%f")[:-3]


def sent(solver: str, channel: str, text: str) -> None:
    """Record ``text`` as sent to ``solver`` (``channel`` tells runs apart: a pid, a session)."""
    if path() is None:
        return
    body = text if text.endswith("\n") or not text else text + "\n"
    _write(f"; >>> {_stamp()} to {solver} ({channel})\n{body}")


def received(solver: str, channel: str, text: str, note: str = "") -> None:
    """Record ``solver``'s answer as comment lines (``note``: a time-out, an exit code)."""
    if path() is None:
        return
    lines = "".join(f"; {line}\n" for line in text.splitlines())
    extra = f" [{note}]" if note else ""
    _write(f"; <<< {_stamp()} from {solver} ({channel}){extra}\n{lines}")


__all__ = ["ENV", "path", "received", "sent"]
