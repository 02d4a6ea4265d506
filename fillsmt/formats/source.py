"""Where a puzzle comes from: what the user gave, read as a puzzle of its kind.

:func:`load` reads a file, standard input (``-``) or a puzz.link URL, and tells the kind from
the text (``{``: JSON, which names its kind; otherwise the first kind that claims the text, see
:func:`fillsmt.kinds.detect`) unless ``--kind`` says it.
"""

from __future__ import annotations

from typing import Any

from fillsmt.errors import InputError
from fillsmt.kinds import detect, get_kind, kind_of


def load(source: str, kind: str | None = None) -> Any:
    """A puzzle from a file name, ``-`` (standard input), a puzz.link / pzv.jp URL, or JSON text
    in a file; ``kind`` (``--kind``) overrides the detection and must match a URL's type."""
    from fillsmt.formats.text import looks_like_json, read_text

    if _may_be_url(source):
        from fillsmt.formats import puzzlink

        if puzzlink.is_puzzle_url(source):
            puzzle = puzzlink.parse_url(source)
            found = kind_of(puzzle).name
            if kind is not None and kind != found:
                raise InputError(f"{puzzlink.shorten(source)}: a {found} URL, but --kind {kind} was given")
            return puzzle
    text, name = read_text(source)
    if looks_like_json(text):
        from fillsmt.formats import json_format

        puzzle = json_format.parse_puzzle(text, name)
        found = kind_of(puzzle).name
        if kind is not None and kind != found:
            raise InputError(f"{name}: a {found} puzzle, but --kind {kind} was given")
        return puzzle
    return get_kind(kind or detect(text)).parse(text, name)


def _may_be_url(source: str) -> bool:
    """Whether ``source`` names a puzz.link or pzv.jp host (then :mod:`fillsmt.formats.puzzlink`
    judges it): a file name seldom does, so reading a file loads no URL code."""
    lowered = source.lower()
    return "puzz.link" in lowered or "pzv.jp" in lowered


__all__ = ["load"]
