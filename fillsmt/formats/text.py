"""Reading a puzzle or answer file as text, for every kind: ``-`` is standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from fillsmt.errors import FormatError, InputError

MAX_SIDE = 1000
"""The largest height or width accepted: larger values are taken as a broken file."""


def read_text(path: str) -> tuple[str, str]:
    """Read a file (``-`` is standard input) as text. Returns (text, display name)."""
    if path == "-":
        data = sys.stdin.buffer.read()
        source = "<stdin>"
    else:
        p = Path(path)
        try:
            data = p.read_bytes()
        except IsADirectoryError:
            raise InputError(f"{path}: is a directory, expected a puzzle file") from None
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except OSError as e:
            raise InputError(f"{path}: cannot read: {e.strerror}") from None
        source = path
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(source, line, "not a text file (invalid UTF-8)") from None


__all__ = ["MAX_SIDE", "read_text"]
