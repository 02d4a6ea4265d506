"""Reading a puzzle or answer file as text, for every kind: ``-`` is standard input.

At most :func:`fillsmt.limits.max_input` bytes are read (``/dev/zero`` is a clean error, not
the end of the memory); :func:`tokens` splits the plain formats into words.
"""

from __future__ import annotations

import sys
from typing import Callable

from fillsmt import limits
from fillsmt.errors import FormatError, InputError


def read_text(path: str) -> tuple[str, str]:
    """Read a file (``-`` is standard input) as text. Returns (text, display name)."""
    if path == "-":
        data = limits.read_bounded(sys.stdin.buffer, "<stdin>")
        source = "<stdin>"
    else:
        try:
            with open(path, "rb") as f:
                data = limits.read_bounded(f, path)
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


def tokens(text: str, source: str) -> list[tuple[str, int]]:
    """The whitespace-separated words of a plain file and their lines. The plain formats have
    no comments: a word starting with ``#`` is refused where it stands."""
    out: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        for word in words:
            if word.startswith("#"):
                raise FormatError(
                    source,
                    number,
                    f"found {limits.shown(word)}: the plain format has no "
                    f"comments, only the height, the width and the numbers",
                )
        out.extend((tok, number) for tok in words)
    return out


def read_size(
    toks: list[tuple[str, int]], source: str, then: str, side: Callable[[tuple[str, int], str], int]
) -> tuple[int, int]:
    """The height and width from a plain file's first two words, each read by the kind's
    ``side(word, "the height")`` and then held to at least 1 and the limits
    (:mod:`fillsmt.limits`); ``then`` says what follows them, for an empty file."""
    if not toks:
        raise FormatError(source, 1, f"the file is empty; expected the height and width, then {then}")
    if len(toks) < 2:
        raise FormatError(source, toks[0][1], "expected the height and the width, found only one number")
    dims = []
    for tok, name in zip(toks[:2], ("the height", "the width")):
        value = side(tok, name)
        if value < 1:
            raise FormatError(source, tok[1], f"{name} must be at least 1, found {value}")
        try:
            limits.check_side(value, name)
        except ValueError as e:
            raise FormatError(source, tok[1], str(e)) from None
        dims.append(value)
    try:
        limits.check_cells(dims[0], dims[1])
    except ValueError as e:
        raise FormatError(source, toks[1][1], str(e)) from None
    return dims[0], dims[1]


def looks_like_json(text: str) -> bool:
    """True when the text's first non-blank character opens a JSON object or list (no plain
    format starts so; a list is then refused as JSON, by name)."""
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


__all__ = ["looks_like_json", "read_size", "read_text", "tokens"]
