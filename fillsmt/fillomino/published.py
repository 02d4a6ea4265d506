"""What published Fillomino look like, for ``generate``'s defaults: the clue count to aim at and
the sizes of the solution's regions.

:data:`PUBLISHED` holds, per grid size, the sorted clue counts of janko.at's puzzles and the
cells of their solutions in regions of 1, 2, …, 10 and (last) 11 or more cells. It was derived
from the puzzles and solutions of ``../shared/instances/fillomino/janko-thesis100`` and
``janko-dev100`` (200 puzzles) by ``python benchmarks/janko_style.py FOLDERS --table``;
``tests/test_published_style.py`` derives it again, with code of its own, when the sets are there.

:func:`style_for` pools the published sizes whose cell count is within a factor :data:`POOL` of
the grid's (a 15x15 has only 8 published puzzles, a 20x20 only 4; with their neighbours, 44 and
23): the clue target is the smallest, the median and the largest clue density (clues per cell)
of the pooled puzzles, times the grid's cells, rounded, and its region sizes follow the pooled
solutions. A grid with fewer than :data:`FEWEST_PUZZLES` published puzzles that near has no clue
target, and the region sizes of every published solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from fillsmt.errors import InputError


@dataclass(frozen=True)
class Published:
    """The published puzzles of one grid size."""

    clues: tuple[int, ...]
    """Each puzzle's clue count, sorted."""
    cells: tuple[int, ...]
    """The cells of all their solutions in regions of 1, 2, …, 10 cells, and last of 11 or more."""


# fmt: off
PUBLISHED: dict[tuple[int, int], Published] = {
    (6, 6): Published(clues=(16,), cells=(2, 0, 3, 4, 15, 12, 0, 0, 0, 0, 0)),
    (7, 7): Published(clues=(19,), cells=(6, 10, 3, 0, 0, 30, 0, 0, 0, 0, 0)),
    (8, 8): Published(clues=(32,), cells=(6, 0, 0, 0, 20, 0, 0, 0, 27, 0, 11)),
    (9, 9): Published(clues=(19, 26, 35), cells=(32, 20, 48, 24, 15, 24, 14, 24, 9, 10, 23)),
    (10, 10): Published(
        clues=(22, 24, 24, 26, 27, 27, 28, 28, 28, 28, 28, 28, 28, 29, 30, 30, 30, 30, 30, 30, 30, 31, 31, 32, 32, 32,
               32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 33, 34, 34, 34, 34,
               34, 34, 34, 34, 34, 34, 34, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 36, 38, 38, 38,
               38, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 42, 42, 43, 44, 44, 44, 44, 44,
               44, 46, 46, 46, 46, 48, 48, 50, 50, 50, 50),
        cells=(896, 1516, 1932, 2136, 1740, 1206, 847, 480, 333, 90, 324),
    ),
    (10, 18): Published(clues=(80, 80, 82, 86, 90), cells=(109, 140, 99, 208, 250, 60, 0, 16, 18, 0, 0)),
    (11, 15): Published(clues=(70,), cells=(30, 34, 30, 24, 5, 12, 21, 0, 9, 0, 0)),
    (12, 12): Published(clues=(57, 59, 74, 76, 78, 82, 84), cells=(161, 168, 183, 156, 115, 78, 42, 56, 27, 10, 12)),
    (12, 20): Published(clues=(86,), cells=(34, 58, 57, 64, 15, 12, 0, 0, 0, 0, 0)),
    (13, 15): Published(clues=(82,), cells=(20, 28, 45, 48, 35, 12, 7, 0, 0, 0, 0)),
    (14, 14): Published(clues=(73, 75, 76, 77, 79), cells=(22, 90, 150, 152, 130, 138, 105, 112, 81, 0, 0)),
    (14, 24): Published(
        clues=(132, 134, 138, 156, 156, 162, 168),
        cells=(223, 288, 306, 500, 520, 228, 91, 80, 45, 10, 61),
    ),
    (15, 15): Published(
        clues=(79, 84, 91, 92, 93, 93, 94, 96),
        cells=(302, 114, 150, 280, 230, 156, 245, 128, 162, 10, 23),
    ),
    (15, 20): Published(clues=(104,), cells=(19, 28, 33, 44, 80, 96, 0, 0, 0, 0, 0)),
    (16, 16): Published(
        clues=(130, 130, 132, 142, 146, 146, 152, 158, 164),
        cells=(417, 474, 498, 388, 270, 114, 63, 40, 27, 0, 13),
    ),
    (16, 18): Published(clues=(132,), cells=(37, 46, 54, 44, 10, 90, 7, 0, 0, 0, 0)),
    (16, 22): Published(
        clues=(176, 176, 180, 180, 186, 186, 196),
        cells=(420, 520, 555, 444, 190, 126, 91, 80, 27, 0, 11),
    ),
    (17, 17): Published(
        clues=(80, 108, 109, 111, 112, 112, 114, 115, 116, 118, 119, 121, 124, 126),
        cells=(97, 442, 540, 676, 525, 516, 504, 440, 306, 0, 0),
    ),
    (20, 20): Published(clues=(196, 204, 218, 226), cells=(286, 352, 387, 248, 185, 66, 56, 8, 0, 0, 12)),
    (20, 26): Published(clues=(276, 282, 286, 288, 292), cells=(465, 566, 558, 428, 270, 162, 49, 64, 27, 0, 11)),
    (20, 36): Published(clues=(260, 290, 303), cells=(66, 218, 303, 308, 270, 258, 217, 184, 171, 0, 165)),
}
# fmt: on
"""Per grid size, janko.at's puzzles (module text)."""

POOL = 1.3
"""Published sizes whose cell count is within this factor of a grid's are pooled for it."""

FEWEST_PUZZLES = 10
"""A clue target needs at least this many published puzzles pooled (a 6x6 has one near it)."""

REGION_STYLES = ("published", "big")
"""``generate --regions``: ``published``, the region sizes of published puzzles of the size
(sizes above 10 rare, up to :data:`TAIL_TOP`); ``big``, :data:`BIG_SHARE` of the cells in
regions of 11 cells or more (up to :data:`BIG_TOP`), the rest as published, and always one
region above 10 cells."""

TAIL_TOP = 20
"""``published``: the largest region by default, and at most a quarter of the grid's cells. The
share of cells that published solutions have in regions of 11 or more is spread evenly over the
sizes 11 to this (published regions above it are a few outliers: a 36 and a 76 among 115 10x10s)."""

BIG_SHARE = 0.4
"""``big``: the share of cells aimed at in regions of 11 cells or more."""

BIG_TOP = 30
"""``big``: the largest region by default, and at most half the grid's cells."""

BUCKETS = ("1", "2", "3", "4-6", "7-10", "11+")
"""The region sizes the tables compare, as shares of cells."""


@dataclass(frozen=True)
class SizeStyle:
    """What published puzzles near one grid size look like (:func:`style_for`)."""

    sizes: tuple[tuple[int, int], ...]
    """The published sizes pooled (none: too few near, every published puzzle's regions, and no
    clue target)."""
    puzzles: int
    clue_target: tuple[int, int, int] | None
    """(fewest, median, most) clues for the grid, or None."""
    cells: tuple[int, ...]
    """The pooled solutions' cells by region size, as :attr:`Published.cells`."""


def style_for(height: int, width: int, table: Mapping[tuple[int, int], Published] = PUBLISHED) -> SizeStyle:
    """The published puzzles pooled for a ``height`` x ``width`` grid (module text)."""
    area = height * width
    near = [size for size in table if area / POOL <= size[0] * size[1] <= area * POOL]
    if sum(len(table[s].clues) for s in near) < FEWEST_PUZZLES:
        cells = tuple(map(sum, zip(*(p.cells for p in table.values()))))
        return SizeStyle((), sum(len(p.clues) for p in table.values()), None, cells)
    cells = tuple(map(sum, zip(*(table[s].cells for s in near))))
    density = sorted(c / (h * w) for h, w in near for c in table[(h, w)].clues)
    target = (round(density[0] * area), round(_median(density) * area), round(density[-1] * area))
    return SizeStyle(tuple(sorted(near)), len(density), target, cells)


def _median(values: list[float]) -> float:
    """The median of sorted ``values`` (the statistics module is not loaded for this)."""
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def bucket_shares(cells: tuple[int, ...]) -> dict[str, float]:
    """The share of cells in each of :data:`BUCKETS`, from cells by region size (as
    :attr:`Published.cells`, or longer: every size from 11 on counts as 11+)."""
    total = sum(cells) or 1
    by = {b: 0 for b in BUCKETS}
    for size, n in enumerate(cells, start=1):
        by[bucket_of(size)] += n
    return {b: by[b] / total for b in BUCKETS}


def bucket_of(size: int) -> str:
    """The bucket of :data:`BUCKETS` a region of ``size`` cells is counted in."""
    if size <= 3:
        return str(size)
    return "4-6" if size <= 6 else "7-10" if size <= 10 else "11+"


def region_weights(
    height: int, width: int, regions: str = "published", max_region: int | None = None
) -> dict[int, float]:
    """The relative weight of each region size a region grows towards (module text): a size's
    share of cells divided by the size, so that the cells fall into the sizes as the shares say.
    ``max_region`` caps the sizes (and is the top of those above 10)."""
    if regions not in REGION_STYLES:
        raise InputError(f"unknown region style {regions!r}; the styles are {', '.join(REGION_STYLES)}")
    cells = style_for(height, width).cells
    total = sum(cells)
    shares = {s: n / total for s, n in enumerate(cells[:-1], start=1)}
    tail = cells[-1] / total
    area = height * width
    if regions == "big":
        shares = {s: v * (1 - BIG_SHARE) / (1 - tail) for s, v in shares.items()}
        tail = BIG_SHARE
        top = max_region if max_region is not None else min(BIG_TOP, area // 2)
        if top <= 10 or area <= 10:
            raise InputError(
                f"--regions big needs regions above 10 cells: a larger grid than {height}x{width}"
                if area <= 10
                else f"--regions big needs --max-region above 10, not {top}"
            )
    else:
        top = max_region if max_region is not None else min(TAIL_TOP, area // 4)
    big = range(len(cells), top + 1)
    for s in big:
        shares[s] = tail / len(big)
    return {s: v / s for s, v in shares.items() if v > 0 and (max_region is None or s <= max_region)}


__all__ = [
    "BIG_SHARE",
    "BIG_TOP",
    "BUCKETS",
    "FEWEST_PUZZLES",
    "POOL",
    "PUBLISHED",
    "Published",
    "REGION_STYLES",
    "SizeStyle",
    "TAIL_TOP",
    "bucket_of",
    "bucket_shares",
    "region_weights",
    "style_for",
]
