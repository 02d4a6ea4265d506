"""The referee: is a list of placed pieces a legal tiling?

Deliberately imports nothing from fillsmt and shares no code with the encoder: it takes plain
data (the board, the pieces' cells as drawn, the rules) and applies the rules directly. Pieces
may be turned when ``rotations`` is true (quarter turns) and mirrored left–right when
``reflections`` is true; a copy must be exactly one such image of its piece, shifted.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

Cell = tuple[int, int]


def _shifted_to_origin(cells: Iterable[Sequence[int]]) -> frozenset[Cell]:
    points = [tuple(c) for c in cells]
    top = min(r for r, _ in points)
    left = min(c for _, c in points)
    return frozenset((r - top, c - left) for r, c in points)


def allowed_images(cells: Iterable[Cell], rotations: bool, reflections: bool) -> set[frozenset[Cell]]:
    """Every shape (at the origin) a piece may take."""
    shapes = {_shifted_to_origin(cells)}
    if reflections:
        shapes |= {_shifted_to_origin((r, -c) for r, c in s) for s in shapes}
    if rotations:
        for _ in range(3):
            shapes |= {_shifted_to_origin((c, -r) for r, c in s) for s in shapes}
    return shapes


def check_tiling(
    height: int,
    width: int,
    blocked: Iterable[Cell],
    pieces: Mapping[str, Iterable[Cell]],
    limits: Mapping[str, int | None],
    rotations: bool,
    reflections: bool,
    placed: Sequence[tuple[str, Sequence[Cell]]],
    covered: int | None = None,
) -> list[str]:
    """Every rule the tiling ``placed`` (piece name, cells) breaks; an empty list means legal.

    ``covered``, when given, is the claimed number of covered cells."""
    blocked_cells = {tuple(c) for c in blocked}
    images = {name: allowed_images(cells, rotations, reflections) for name, cells in pieces.items()}
    problems: list[str] = []
    owner: dict[Cell, int] = {}
    used: dict[str, int] = {}
    for i, (name, drawn) in enumerate(placed, start=1):
        cells = [tuple(c) for c in drawn]
        what = f"copy {i} ({name})"
        if name not in images:
            problems.append(f"{what} is not one of the pieces ({', '.join(sorted(images))})")
            continue
        used[name] = used.get(name, 0) + 1
        if len(set(cells)) != len(cells) or not cells or _shifted_to_origin(cells) not in images[name]:
            problems.append(f"{what} at {sorted(cells)} is not an allowed image of piece {name}")
        for r, c in cells:
            if not (0 <= r < height and 0 <= c < width):
                problems.append(f"{what} has cell {r} {c} outside the {height}x{width} board")
            elif (r, c) in blocked_cells:
                problems.append(f"{what} covers blocked cell {r} {c}")
            elif (r, c) in owner and owner[(r, c)] != i:
                problems.append(f"{what} overlaps copy {owner[(r, c)]} on cell {r} {c}")
            else:
                owner[(r, c)] = i
    for name, n in sorted(used.items()):
        limit = limits.get(name)
        if limit is not None and n > limit:
            problems.append(f"piece {name} is used {n} times, its limit is {limit}")
    if covered is not None and covered != len(owner) and not problems:
        problems.append(f"the tiling covers {len(owner)} cells, not {covered} as claimed")
    return problems
