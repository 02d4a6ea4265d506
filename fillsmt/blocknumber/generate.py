"""Random BlockNumber solutions: a random partition into connected blocks with a valid filling.

Used by the property tests and by :func:`generate` (which then removes givens). Pure Python, no
solver. Random partitions are almost never fillable (with blocks of at most 5 cells the numbers
are only one more than the 4 that every 2×2 square needs), so blocks and their numbers are made
together: the first empty cell in row-major order seeds a block, grown to a random size (larger
sizes more likely, as in published puzzles) preferring cells that keep the empty area compact,
and numbered with a random permutation its touching neighbours allow. A block is kept only if
every empty cell near it can still take some number and the empty cells of each 2×2 square
around it can still take different ones; when no candidate block fits, the last few blocks are
taken back (more after repeated failures), and after too many steps the grid starts over.

:func:`generate` makes a puzzle: a random solution with every cell given, then the givens
visited in a seeded random order, each removed when ``unique_oracle(puzzle, grid)`` says the
solution stays the only one (the procedure of ``instances/blocknumber/make_instances.py``).
A given kept is kept for good (removing more never brings uniqueness back), so the result is
*minimal*. The same seed gives the same puzzle with any exact oracle; only ``max_seconds``
(which stops the removal early, the puzzle still unique) can make two runs differ.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from fillsmt.blocknumber.model import Grid, Puzzle, normalise_labels
from fillsmt.blocknumber.names import king_neighbours
from fillsmt.blocknumber.verify import check_solution
from fillsmt.errors import FillsmtError, InputError, OracleUndecided

CANDIDATES = 3
"""Random blocks tried at a seed before taking blocks back."""

STEPS_PER_CELL = 15
"""Steps (blocks tried) per cell before the grid starts over."""

MAX_ATTEMPTS = 200
"""Fresh starts before giving up."""


def _check_possible(height: int, width: int, max_block: int) -> None:
    if height < 1 or width < 1:
        raise ValueError(f"the grid must be at least 1x1, not {height}x{width}")
    if max_block < 1:
        raise ValueError(f"max_block must be at least 1, not {max_block}")
    if height >= 2 and width >= 2 and max_block < 4:
        raise ValueError(
            f"a {height}x{width} grid needs blocks of up to 4 cells (each 2x2 square holds "
            f"four different numbers); max_block is {max_block}"
        )
    if height * width >= 2 and max_block < 2:
        raise ValueError(f"a {height}x{width} grid needs blocks of up to 2 cells; max_block is {max_block}")


def _distinct_choice_exists(options: list[int]) -> bool:
    """Whether the cells with these value bitmasks can take pairwise different values."""
    options = sorted(options, key=int.bit_count)

    def pick(i: int, taken: int) -> bool:
        if i == len(options):
            return True
        free = options[i] & ~taken
        while free:
            bit = free & -free
            if pick(i + 1, taken | bit):
                return True
            free ^= bit
        return False

    return pick(0, 0)


class _Builder:
    """One attempt at a solution; cells are numbered row by row, ``x = r * width + c``."""

    def __init__(self, height: int, width: int, rng: random.Random, max_block: int):
        self.h, self.w, self.rng, self.max = height, width, rng, max_block
        n = height * width
        self.label, self.value = [-1] * n, [0] * n
        self.king = [
            [r * width + c for r, c in king_neighbours(height, width, x // width, x % width)] for x in range(n)
        ]
        self.side = [[y for y in self.king[x] if y // width == x // width or y % width == x % width] for x in range(n)]
        self.sizes = range(1, max_block + 1)
        self.size_weights = [s * s for s in self.sizes]
        self.blocks: list[list[int]] = []

    def used(self, x: int) -> int:
        """Bitmask of the numbers in the cells touching x."""
        mask = 0
        for y in self.king[x]:
            mask |= 1 << self.value[y]
        return mask & ~1

    def grow(self, seed: int) -> list[int]:
        """A random connected set of empty cells from ``seed``, of a random size; a cell with more
        taken (or outside) sides, and nearer the seed's row, is likelier to join, which keeps the
        empty area compact."""
        target = self.rng.choices(self.sizes, self.size_weights)[0]
        block, inside = [seed], {seed}
        seed_row = seed // self.w
        while len(block) < target:
            free = {y for x in block for y in self.side[x] if self.label[y] == -1 and y not in inside}
            if not free:
                break
            free_list = sorted(free)
            weights = []
            for y in free_list:
                taken = 4 - len(self.side[y]) + sum(1 for z in self.side[y] if self.label[z] != -1 or z in inside)
                weights.append((1 + taken) ** 2 / (1 + y // self.w - seed_row) ** 2)
            cell = self.rng.choices(free_list, weights)[0]
            block.append(cell)
            inside.add(cell)
        return block

    def numbers(self, block: list[int]) -> list[int] | None:
        """A random permutation of 1..len(block) over the block that its neighbours allow."""
        full = (1 << (len(block) + 1)) - 2
        allowed = [full & ~self.used(x) for x in block]
        order = sorted(range(len(block)), key=lambda i: allowed[i].bit_count())
        out = [0] * len(block)

        def place(k: int, taken: int) -> bool:
            if k == len(order):
                return True
            i = order[k]
            choices = [v for v in range(1, len(block) + 1) if (allowed[i] & ~taken) >> v & 1]
            self.rng.shuffle(choices)
            for v in choices:
                out[i] = v
                if place(k + 1, taken | 1 << v):
                    return True
            return False

        return out if place(0, 0) else None

    def empty_area(self, x: int, limit: int) -> int:
        """The size of the empty region around x, counted up to ``limit``."""
        seen, stack = {x}, [x]
        while stack and len(seen) < limit:
            for y in self.side[stack.pop()]:
                if self.label[y] == -1 and y not in seen:
                    seen.add(y)
                    stack.append(y)
        return min(len(seen), limit)

    def still_fillable(self, block: list[int]) -> bool:
        """Every empty cell touching the block can take a number its future block allows, and the
        empty cells of each 2x2 square around them can take different ones."""
        options = {}
        for x in {y for b in block for y in self.king[b] if self.label[y] == -1}:
            options[x] = ((1 << (self.empty_area(x, self.max) + 1)) - 2) & ~self.used(x)
            if not options[x]:
                return False
        corners = {x - dr * self.w - dc for x in options for dr in (0, 1) for dc in (0, 1)}
        for top_left in corners:
            r, c = divmod(top_left, self.w)
            if not (0 <= r < self.h - 1 and 0 <= c < self.w - 1):
                continue
            square = [top_left, top_left + 1, top_left + self.w, top_left + self.w + 1]
            empty = [options[x] for x in square if x in options]
            if len(empty) > 1 and not _distinct_choice_exists(empty):
                return False
        return True

    def put(self, block: list[int], numbers: list[int]) -> None:
        for x, v in zip(block, numbers):
            self.label[x], self.value[x] = len(self.blocks), v
        self.blocks.append(block)

    def take_back(self, count: int) -> int:
        """Remove the last ``count`` blocks; returns the smallest cell freed."""
        freed = []
        for _ in range(min(count, len(self.blocks))):
            for x in self.blocks.pop():
                self.label[x], self.value[x] = -1, 0
                freed.append(x)
        return min(freed, default=0)

    def build(self, max_steps: int) -> bool:
        seed, failures = 0, 0
        for _ in range(max_steps):
            while seed < len(self.label) and self.label[seed] != -1:
                seed += 1
            if seed == len(self.label):
                return True
            for _ in range(CANDIDATES):
                block = self.grow(seed)
                numbers = self.numbers(block)
                if numbers is None:
                    continue
                self.put(block, numbers)
                if self.still_fillable(block):
                    break
                self.take_back(1)
            else:
                failures += 1
                seed = min(seed, self.take_back(self.rng.randint(1, 1 + min(failures // 20, 3))))
        return False

    def grids(self) -> tuple[Grid, Grid]:
        rows = range(self.h)
        labels = [self.label[r * self.w : (r + 1) * self.w] for r in rows]
        return normalise_labels(labels), tuple(tuple(self.value[r * self.w : (r + 1) * self.w]) for r in rows)


def random_solution(height: int, width: int, rng: random.Random, max_block: int = 5) -> tuple[Grid, Grid]:
    """(blocks, grid): a random partition into connected blocks of at most ``max_block`` cells
    (labels normalised as in :class:`~fillsmt.blocknumber.model.Puzzle`) and a valid filling.

    Deterministic for a given ``rng`` state. Raises ValueError for shapes that have no solution
    with blocks that small (a grid of two or more rows and columns needs ``max_block >= 4``).
    """
    _check_possible(height, width, max_block)
    for _ in range(MAX_ATTEMPTS):
        builder = _Builder(height, width, rng, max_block)
        if builder.build(STEPS_PER_CELL * height * width):
            return builder.grids()
    raise ValueError(
        f"found no {height}x{width} solution with blocks of at most {max_block} cells in {MAX_ATTEMPTS} attempts"
    )


def check_request(height: int, width: int, max_block: int) -> None:
    """Raise :class:`~fillsmt.errors.InputError` for a shape that has no solution with blocks
    of at most ``max_block`` cells (the message of :func:`random_solution`'s ValueError)."""
    try:
        _check_possible(height, width, max_block)
    except ValueError as e:
        raise InputError(str(e)) from None


UniqueOracle = Callable[[Puzzle, Grid], bool]
"""``oracle(puzzle, grid)``: is ``grid`` the only solution of ``puzzle``? Exact, or it raises
:class:`~fillsmt.errors.OracleUndecided`."""


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated BlockNumber puzzle with its unique solution and how it was made."""

    puzzle: Puzzle
    solution: Grid
    seed: int | str
    givens_removed: int
    oracle_calls: int
    minimal: bool
    """No single given can be removed with the solution staying unique."""
    timed_out: bool
    undecided: int = 0
    """Givens kept because the oracle raised :class:`~fillsmt.errors.OracleUndecided`."""

    @property
    def clues(self) -> int:
        return sum(1 for _ in self.puzzle.given_cells())


def generate(
    height: int,
    width: int,
    *,
    seed: int | str,
    unique_oracle: UniqueOracle,
    max_block: int = 5,
    max_seconds: float | None = None,
) -> GeneratedPuzzle:
    """A BlockNumber puzzle with a unique solution and a minimal set of givens (module text)."""
    check_request(height, width, max_block)
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    rng = random.Random(seed)
    blocks, grid = random_solution(height, width, rng, max_block)
    givens = [list(row) for row in grid]
    order = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(order)
    source = f"generated-{height}x{width}-{seed}"
    removed = calls = undecided = 0
    timed_out = False
    for r, c in order:
        if deadline is not None and time.monotonic() >= deadline:
            timed_out = True
            break
        kept, givens[r][c] = givens[r][c], 0
        calls += 1
        try:
            unique = unique_oracle(Puzzle(height, width, tuple(map(tuple, givens)), blocks, source), grid)
        except OracleUndecided:
            unique = False
            undecided += 1
        if unique:
            removed += 1
        else:
            givens[r][c] = kept
    puzzle = Puzzle(height, width, tuple(map(tuple, givens)), blocks, source)
    if check_solution(puzzle.givens, puzzle.blocks, grid):
        raise FillsmtError(f"{source}: the generated solution fails the checker (a bug)")
    return GeneratedPuzzle(puzzle, grid, seed, removed, calls, not timed_out and not undecided, timed_out, undecided)
