"""Symmetry of a clue layout, for every kind with clues: the cells that go together.

A layout is symmetric when the set of clue cells is mapped onto itself (the numbers may differ):

* ``180`` — a half turn, (r, c) to (H-1-r, W-1-c), as most published Fillomino are;
* ``90`` — a quarter turn, (r, c) to (c, H-1-r), on square grids only (it implies ``180``);
* ``mirror`` — left to right, (r, c) to (r, W-1-c);
* ``none`` — every cell alone.

An *orbit* is a cell with its images: the cells a symmetric layout has all clued or all empty.
The generator and ``minimize --symmetric`` remove clues an orbit at a time.
"""

from __future__ import annotations

from typing import Iterable

from fillsmt.errors import InputError

SYMMETRIES = ("none", "180", "90", "mirror")

Cell = tuple[int, int]


def check_symmetry(symmetry: str, height: int, width: int) -> None:
    """Refuse a symmetry the grid cannot have (an unknown name, a quarter turn of a rectangle)."""
    if symmetry not in SYMMETRIES:
        raise InputError(f"unknown symmetry {symmetry!r}; the symmetries are {', '.join(SYMMETRIES)}")
    if symmetry == "90" and height != width:
        raise InputError(f"--symmetry 90 needs a square grid, not {height}x{width}")


def images(symmetry: str, height: int, width: int, cell: Cell) -> list[Cell]:
    """The cell and its images under the symmetry, each once, in a fixed order."""
    r, c = cell
    if symmetry == "none":
        found = [cell]
    elif symmetry == "180":
        found = [cell, (height - 1 - r, width - 1 - c)]
    elif symmetry == "mirror":
        found = [cell, (r, width - 1 - c)]
    elif symmetry == "90":
        found = [cell]
        for _ in range(3):
            r, c = c, height - 1 - r
            found.append((r, c))
    else:
        raise InputError(f"unknown symmetry {symmetry!r}; the symmetries are {', '.join(SYMMETRIES)}")
    return sorted(set(found))


def orbits(symmetry: str, height: int, width: int) -> list[tuple[Cell, ...]]:
    """Every cell in exactly one orbit, the orbits in reading order of their first cell."""
    check_symmetry(symmetry, height, width)
    seen: set[Cell] = set()
    found = []
    for r in range(height):
        for c in range(width):
            if (r, c) not in seen:
                orbit = tuple(images(symmetry, height, width, (r, c)))
                seen.update(orbit)
                found.append(orbit)
    return found


def joint_orbits(symmetries: Iterable[str], height: int, width: int) -> list[tuple[Cell, ...]]:
    """The orbits under every symmetry of ``symmetries`` together (a layout with a half turn and
    a mirror keeps both), in reading order of their first cell."""
    chosen = list(symmetries)
    parent: dict[Cell, Cell] = {}

    def root(x: Cell) -> Cell:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for s in chosen:
        for orbit in orbits(s, height, width):
            first = root(orbit[0])
            for x in orbit[1:]:
                other = root(x)
                if other != first:
                    parent[max(other, first)] = min(other, first)
                    first = min(other, first)
    groups: dict[Cell, list[Cell]] = {}
    for r in range(height):
        for c in range(width):
            groups.setdefault(root((r, c)), []).append((r, c))
    return sorted(tuple(g) for g in groups.values())


def is_symmetric(symmetry: str, height: int, width: int, clued: Iterable[Cell]) -> bool:
    """Is the set of clue cells mapped onto itself?"""
    cells = set(clued)
    return all(set(images(symmetry, height, width, x)) <= cells for x in cells)


def symmetries_of(height: int, width: int, clued: Iterable[Cell]) -> list[str]:
    """The symmetries (other than ``none``) the layout has."""
    cells = set(clued)
    return [s for s in SYMMETRIES[1:] if (s != "90" or height == width) and is_symmetric(s, height, width, cells)]


__all__ = ["SYMMETRIES", "check_symmetry", "images", "is_symmetric", "joint_orbits", "orbits", "symmetries_of"]
