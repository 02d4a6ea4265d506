"""Pictures in Jupyter: puzzles and solve results show as their SVG picture (``_repr_svg_``).

Jupyter calls ``_repr_svg_`` on the last value of a cell; the picture is the kind's own
(:meth:`fillsmt.protocol.Pictures.svg`), the one ``fillsmt render`` writes.
"""

from __future__ import annotations

from typing import Any

from fillsmt.kinds import kind_of


def picture(puzzle: Any, solution: Any = None) -> str:
    """The SVG picture of a puzzle, solved when ``solution`` is given."""
    from fillsmt.pictures.svg import file_title
    from fillsmt.protocol import Pictures

    kind = kind_of(puzzle)
    return Pictures.of(kind, puzzle.source).svg(puzzle, solution, title=file_title(getattr(puzzle, "source", None)))


class ShowsAsSvg:
    """A puzzle mixin: Jupyter shows the puzzle as its SVG picture."""

    def _repr_svg_(self) -> str:
        return picture(self)


__all__ = ["ShowsAsSvg", "picture"]
