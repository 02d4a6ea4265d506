"""SMT-LIB variable names and king-move geometry for BlockNumber: the one place they are made.

Rows and columns are counted from 0 at the top-left corner in the names (the messages users
read count from 1). Every BlockNumber encoder names its variables with these functions, and the
decoder reads the grid back through the same ones:

* ``b_R_C`` — the number in row R, column C (an ``Int`` or a bit-vector, by encoding);
* ``is_R_C_V`` — Boolean: the cell in row R, column C holds V (the one-hot encoding).

:func:`read_var` reads either name back.
"""

from __future__ import annotations

from typing import Iterator

KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The eight king moves, in row-major order of the cell they reach."""


def number_var(r: int, c: int) -> str:
    """The number written in row ``r``, column ``c``."""
    return f"b_{r}_{c}"


def value_var(r: int, c: int, v: int) -> str:
    """Boolean: the cell in row ``r``, column ``c`` holds ``v``."""
    return f"is_{r}_{c}_{v}"


def read_var(name: str) -> tuple[int, int, int | None]:
    """(row, column, v) of a :func:`value_var` name, (row, column, None) of a :func:`number_var`
    name; ValueError for any other name."""
    prefix, *numbers = name.split("_")
    count = {"b": 2, "is": 3}.get(prefix)
    if count is None or len(numbers) != count or not all(p.isascii() and p.isdigit() for p in numbers):
        raise ValueError(f"{name!r} is not a BlockNumber variable (b_R_C or is_R_C_V)")
    r, c, *v = (int(p) for p in numbers)
    return r, c, v[0] if v else None


def king_neighbours(height: int, width: int, r: int, c: int) -> list[tuple[int, int]]:
    """The cells that touch (r, c), diagonals included, in row-major order."""
    return [(r + dr, c + dc) for dr, dc in KING_STEPS if 0 <= r + dr < height and 0 <= c + dc < width]


def king_pairs(height: int, width: int) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    """Every unordered pair of touching cells once, the row-major smaller cell first."""
    for r in range(height):
        for c in range(width):
            for nr, nc in king_neighbours(height, width, r, c):
                if (nr, nc) > (r, c):
                    yield (r, c), (nr, nc)
