"""New Fillomino puzzles: a random solution, then clues removed while the solution stays unique.

:func:`random_solution` tiles the grid with random connected regions
(:mod:`~fillsmt.fillomino.random_grid`). Each region starts at a free cell with the fewest free
neighbours and grows, one random neighbouring free cell at a time, towards a size drawn with the
weights of the region sizes (by default those of published solutions of the grid's size,
:mod:`~fillsmt.fillomino.published`; never above ``max_region``), avoiding cells next to
finished regions of that size. A region that cannot reach its size keeps the longest prefix of
its growth (every prefix is connected) that touches no finished region of the same size, and its
other cells stay free for later regions. Equal regions can therefore never touch, so the grid is
a solution. When no prefix fits, another size is drawn; when none fits (a cell alone next to a
1), the cell joins a neighbouring region when that keeps the grid valid and within
``max_region``; otherwise the regions around it are undone and their cells covered again later
(after as many such repairs as there are cells, the tiling starts over, with the same random
generator, so still deterministically; after
:data:`~fillsmt.fillomino.random_grid.TILING_ATTEMPTS` tilings it gives up, which happens only
with regions of at most 3 cells).

:func:`generate` starts from every cell of a random solution as a clue and visits the cells in
a seeded random order, in two stages. First it removes each clue the deduction rules
(:func:`~fillsmt.fillomino.deduce.deduce`) do not need
(:class:`~fillsmt.fillomino.rules_clues.RulesRemoval`: each question asked of a window around
the clue, the whole grid checked after every few removals, a clue the whole grid needs given
back): the puzzle it leaves is solved by the rules alone, so unique, with no oracle asked. With
``unique_oracle=None`` that is the result (rated ``easy`` or ``medium``). With an oracle, it visits the clues
left in the same order and removes each one without which ``unique_oracle(puzzle, solution)``
still proves the solution unique (an SMT session in the CLI, :func:`search_oracle` here). A clue
kept is kept for good: removing further clues never brings uniqueness back, so when the visit
ends no single remaining clue can be removed (the clue set is *minimal*; without an oracle,
minimal among the sets the rules solve when the rules' stage could ask the whole grid, see
:mod:`~fillsmt.fillomino.rules_clues`). With ``allow_unclued=False`` the last clue of a region
is never removed, and the
set is minimal among those keeping one clue per region. With ``max_empty_area=N`` a clue is
kept when removing it would leave a connected area of more than N empty cells: the set is then
minimal among those without such areas (*near-minimal*; ``minimal`` is false when a clue was
kept for that). Large empty areas are what make uniqueness proofs expensive (a second solution
could put a large unclued region there) and the rules' runs slower, so the cap trades a few more
clues for faster generation of large grids, in both stages; it depends only on the puzzle,
never on the oracle.

An oracle that cannot settle a question (a solver's time-out or ``unknown``) raises
:class:`OracleUndecided`: the clue is kept (the puzzle stays unique) and ``undecided`` counts it.

``difficulty`` (a label of :data:`~fillsmt.fillomino.rating.LABELS`) steers the result. The
grades the rules reach alone (:data:`RULES_ALONE`) need no oracle: ``easy`` runs the rules'
stage with the thesis' basic strategies only (:data:`~fillsmt.fillomino.rating.THESIS_RULES`),
so that they solve the puzzle alone, ``medium`` with every rule; above them an oracle is
needed, and a clue is also kept when removing it would rate the puzzle harder than asked. An
attempt ending easier than asked (a ``medium`` one the basic strategies solve quickly too, an
oracle's one the rules solve alone) is dropped for the next one (its own sub-seed drawn from
``seed``), up to ``max_attempts``; then the attempt closest to the label is returned.
``rating`` then holds the result's rating, and ``minimal`` is false when a clue was kept only
for the difficulty.

Determinism: the same arguments give the same puzzle, always: every random choice comes from
``random.Random(seed)`` and the generators derived from it, the rating is capped by nodes, not
time (:data:`RATING_NODES`), an exact oracle's answers are facts about the puzzle (so any
exact oracle, SMT or search, gives the same puzzle), and nothing depends on the clock, except
``max_seconds`` (and an oracle's own time limit): when
that time runs out, the removal stops where it is (the puzzle is still unique, ``timed_out``
is set, ``minimal`` is false), and only then may two runs differ.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from fillsmt.errors import InputError, OracleUndecided
from fillsmt.fillomino.deduce import ALL_RULES, deduce
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.random_grid import random_solution
from fillsmt.fillomino.rating import LABELS, THESIS_RULES, TOP_NODES, Rating, rate
from fillsmt.fillomino.rules_clues import RulesRemoval
from fillsmt.fillomino.search import SearchOptions, solve_by_search
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import equal_areas
from fillsmt.setter.symmetry import check_symmetry, orbits

RATING_NODES = TOP_NODES + 1
"""The node cap of the ratings made for ``difficulty``: a cap, not a clock, so deterministic,
and enough to tell every label apart (a search stopped after more than
:data:`~fillsmt.fillomino.rating.TOP_NODES` nodes is in the top grade)."""

RULES_ALONE: tuple[str, ...] = LABELS[:2]
"""The grades whose puzzles the rules solve alone: made by the rules' stage, with no oracle."""

UniqueOracle = Callable[[Puzzle, Grid], bool]
"""``oracle(puzzle, solution)``: does ``puzzle`` have ``solution`` as its only solution? It
must be exact (module text), or raise :class:`OracleUndecided`."""


# --- clue removal -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle with its unique solution and how it was made (module text)."""

    puzzle: Puzzle
    solution: Grid
    seed: int | str
    attempt: int
    """Which attempt gave it (0 unless ``difficulty`` made the generator try again)."""
    clues_removed: int
    free_removals: int
    """Clues removed by the rules' stage, with no oracle asked: the rules still solve the
    puzzle without them (:mod:`~fillsmt.fillomino.rules_clues`). All of ``clues_removed``
    without an oracle; with one, the oracle's stage removed the rest."""
    oracle_calls: int
    minimal: bool
    """With an oracle: no single clue can be removed with the solution staying unique. Without
    one: no single clue can be removed with the rules still solving the puzzle, which is known
    only on grids whose every question went to the whole grid (at most
    :data:`~fillsmt.fillomino.rules_clues.WHOLE_GRID_CELLS` cells); on larger ones the set is
    near-minimal and this is false. Within the one-clue-per-region rule when ``allow_unclued``
    is false; false when a clue was kept for ``max_empty_area``, the difficulty, an undecided
    oracle or the time."""
    timed_out: bool
    rating: Rating | None
    """The result's rating when ``difficulty`` was asked for, else None."""
    kept_for_area: int = 0
    """Clues kept without asking, because ``max_empty_area`` forbade removing them."""
    undecided: int = 0
    """Clues kept because the oracle raised :class:`OracleUndecided`."""
    minimality: str = "near-minimal"
    """What is known of the clue set, in words (:data:`MINIMALITIES`): ``minimal`` exactly when
    ``minimal``."""
    kept_for_clues: int = 0
    """Clues kept because removing them would go below the smallest clue count asked for."""

    @property
    def clues(self) -> int:
        return sum(1 for _ in self.puzzle.clues())


MINIMALITIES = {
    "minimal": "no single clue can be removed with the solution staying unique (the oracle's proof)",
    "symmetric-minimal": "no symmetric group of clues (an orbit of --symmetry) can be removed with the solution "
    "staying unique; a single clue might",
    "rules-minimal": "no single clue can be removed with the deduction rules still solving the puzzle; with the "
    "oracle some could",
    "symmetric rules-minimal": "no symmetric group of clues can be removed with the deduction rules still solving "
    "the puzzle",
    "as placed": "the clues are at the cells --positions gave, none removed; minimal or not",
    "near-minimal": "clues were kept for --max-empty-area, --clues, the difficulty, an undecided oracle or the time "
    "(or the rules asked windows, not the whole grid)",
}
"""The words ``generate`` says of a clue set, strongest first, and what each means."""

ORACLE_FIRST_BUDGET = 64
"""The nodes :func:`search_oracle` gives each order at first."""


def search_oracle(puzzle: Puzzle, solution: Grid, deadline: float | None = None) -> bool:
    """Uniqueness by the rules plus backtracking, exact (no cap): is ``solution`` the only one?

    A hunt for a solution other than ``solution`` (``avoid`` of
    :func:`~fillsmt.fillomino.search.solve_by_search`). Neither guessing order wins
    everywhere (growing groups is far better on published puzzles, row-major on some puzzles
    with large regions), so the two take turns with node budgets growing fourfold until one
    settles it: a few times the work of the better one, and still deterministic. Exact, but
    slow on puzzles with large regions and few clues: beyond small grids, use an SMT solver.
    ``deadline`` (a :func:`time.monotonic` value) stops it with :class:`OracleUndecided`.
    """
    if check_solution(puzzle.cells, solution):
        return False
    budget = ORACLE_FIRST_BUDGET
    while True:
        for order in ("group-exit", "row-major"):
            found = solve_by_search(
                puzzle, SearchOptions(cell_order=order), limit=1, max_nodes=budget, avoid=solution, deadline=deadline
            )
            if found.solutions:
                return False
            if found.exhausted:
                return True
            if found.timed_out:
                raise OracleUndecided(f"{puzzle.source}: the search ran out of time")
        budget *= 4


@dataclass(frozen=True)
class Style:
    """What :func:`generate` is asked of the layout beyond the defaults."""

    symmetry: str = "none"
    """One of :data:`~fillsmt.setter.symmetry.SYMMETRIES`."""
    clues: tuple[int, int] | None = None
    """(fewest, most) clues."""
    solution: Grid | None = None
    """The solution to keep."""
    attempts: int = 20
    """Attempts at most, where a ``difficulty`` or ``clues`` is aimed at."""
    regions: str = "published"
    """The region sizes of a random solution (:data:`~fillsmt.fillomino.published.REGION_STYLES`)."""
    floor: bool = True
    """Is ``clues``' fewest a floor that no removal goes below (every removal then asked of the
    whole grid's rules)? False: the range only ranks the attempts, and without a symmetry the
    rules' stage works in windows (:mod:`~fillsmt.fillomino.rules_clues`), far faster on large
    grids."""


def generate(
    height: int,
    width: int,
    *,
    seed: int | str,
    unique_oracle: UniqueOracle | None,
    allow_unclued: bool = True,
    difficulty: str | None = None,
    max_seconds: float | None = None,
    max_region: int | None = None,
    max_empty_area: int | None = None,
    style: Style = Style(),
) -> GeneratedPuzzle:
    """A puzzle with a unique solution and a minimal clue set (module text). ``symmetry`` (of
    :data:`~fillsmt.setter.symmetry.SYMMETRIES`) makes the clue layout symmetric: clues are
    removed an orbit at a time, each removal asked of the whole grid's rules, then of the
    oracle. ``clues`` = (fewest, most): no removal goes below the fewest, and an attempt ending
    above the most is dropped for the next one (as for ``difficulty``). ``solution``: the
    solution to keep (a valid filled grid of ``height`` x ``width``) instead of a random one;
    these and the attempts are the ``style`` (:class:`Style`)."""
    symmetry, clues, solution, max_attempts = style.symmetry, style.clues, style.solution, style.attempts
    if difficulty is not None and difficulty not in LABELS:
        raise InputError(f"unknown difficulty {difficulty!r}; the labels are {', '.join(LABELS)}")
    if unique_oracle is None and difficulty is not None and difficulty not in RULES_ALONE:
        raise InputError(
            f"a {difficulty} puzzle needs a uniqueness oracle: the rules alone make {' and '.join(RULES_ALONE)} ones"
        )
    if max_attempts < 1:
        raise InputError(f"max_attempts must be at least 1, not {max_attempts}")
    if max_empty_area is not None and max_empty_area < 1:
        raise InputError(f"the largest empty area must have at least 1 cell, not {max_empty_area}")
    check_symmetry(symmetry, height, width)
    if clues is not None and not 0 <= clues[0] <= clues[1]:
        raise InputError(f"a clue count range needs 0 <= fewest <= most, not {clues[0]}-{clues[1]}")
    if solution is not None:
        problems = check_solution([[0] * width] * height, solution)
        if len(solution) != height or any(len(row) != width for row in solution) or problems:
            raise InputError(f"--solution: not a valid {height}x{width} Fillomino solution: {'; '.join(problems[:3])}")
    floor = clues is not None and style.floor
    grouped = None if symmetry == "none" and not floor else orbits(symmetry, height, width)
    retry = difficulty is not None or clues is not None
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    master = random.Random(seed)
    best: GeneratedPuzzle | None = None
    for attempt in range(max_attempts if retry else 1):
        rng = random.Random(master.getrandbits(64))
        filled = (
            solution
            if solution is not None
            else random_solution(height, width, rng, max_region=max_region, regions=style.regions)
        )
        made = _Removal(
            filled,
            rng,
            unique_oracle,
            allow_unclued,
            difficulty,
            deadline,
            max_empty_area,
            grouped,
            clues[0] if floor and clues is not None else 0,
        ).run()
        result = GeneratedPuzzle(
            puzzle=made.puzzle(f"generated-{height}x{width}-{seed}"),
            solution=filled,
            seed=seed,
            attempt=attempt,
            clues_removed=made.removed,
            free_removals=made.free,
            oracle_calls=made.oracle_calls,
            minimal=made.minimal,
            timed_out=made.timed_out,
            rating=made.rating,
            kept_for_area=made.kept_for_area,
            undecided=made.undecided,
            minimality=made.minimality,
            kept_for_clues=made.kept_for_clues,
        )
        if not retry:
            return result
        if _distance(result, difficulty, clues) == (0, 0) or made.timed_out:
            return result
        if best is None or _distance(result, difficulty, clues) < _distance(best, difficulty, clues):
            best = result
    assert best is not None  # at least one attempt (max_attempts >= 1)
    return best


def _distance(made: GeneratedPuzzle, difficulty: str | None, clues: tuple[int, int] | None) -> tuple[int, int]:
    """How far an attempt is from what was asked: (labels from the difficulty, clues beyond the range)."""
    labels = 0
    if difficulty is not None:
        level = made.rating.level if made.rating is not None else None
        labels = len(LABELS) if level is None else abs(level - LABELS.index(difficulty))
    beyond = 0 if clues is None else max(0, clues[0] - made.clues, made.clues - clues[1])
    return labels, beyond


class _Removal:
    """Remove the clues of one solution in a random order (module text): first those the rules
    do not need (:class:`~fillsmt.fillomino.rules_clues.RulesRemoval`), then, with
    ``by_oracle``, each clue left that the oracle proves the puzzle unique without."""

    def __init__(
        self,
        solution: Grid,
        rng: random.Random,
        oracle: UniqueOracle | None,
        allow_unclued: bool,
        difficulty: str | None,
        deadline: float | None,
        max_empty_area: int | None = None,
        grouped: list[tuple[tuple[int, int], ...]] | None = None,
        fewest: int = 0,
    ):
        self.solution = solution
        self.h, self.w = len(solution), len(solution[0])
        self.cells = [v for row in solution for v in row]
        self.rng, self.oracle = rng, oracle
        self.allow_unclued = allow_unclued
        self.ceiling = None if difficulty is None else LABELS.index(difficulty)
        self.by_oracle = oracle is not None and difficulty not in RULES_ALONE
        self.stage_rules = THESIS_RULES if difficulty == LABELS[0] else ALL_RULES
        """The rules that must solve the puzzle after the rules' stage: the basic ones for ``easy``."""
        self.deadline = deadline
        self.max_area = max_empty_area
        self.removed = self.free = self.oracle_calls = self.kept_for_difficulty = 0
        self.kept_for_area = self.undecided = self.kept_for_clues = 0
        self.groups = None if grouped is None else [[r * self.w + c for r, c in g] for g in grouped]
        self.symmetric = grouped is not None and any(len(g) > 1 for g in grouped)
        self.fewest = fewest
        self.timed_out = False
        self.rules_exact = False
        self.rating: Rating | None = None
        self.region, self.clues_in = _regions(solution)

    @property
    def minimal(self) -> bool:
        """Is the clue set minimal among the unique ones: no single clue can go (module text)?"""
        return self.minimality == "minimal"

    @property
    def minimality(self) -> str:
        """What is known of the clue set (:data:`MINIMALITIES`)."""
        if self.timed_out or self.kept_for_area or self.undecided or self.kept_for_difficulty or self.kept_for_clues:
            return "near-minimal"
        if self.by_oracle:
            return "symmetric-minimal" if self.symmetric and not self.singles_needed else "minimal"
        if self.rules_exact:
            return "symmetric rules-minimal" if self.symmetric else "rules-minimal"
        return "near-minimal"

    def puzzle(self, source: str = "<generated>") -> Puzzle:
        cells = tuple(tuple(self.cells[r * self.w : (r + 1) * self.w]) for r in range(self.h))
        return Puzzle(self.h, self.w, cells, source)

    def run(self) -> _Removal:
        order = list(range(len(self.cells)))
        self.rng.shuffle(order)
        self.singles_needed = False
        if self.groups is not None:
            return self.run_grouped(order)
        stage = RulesRemoval(self.solution, self.cells, self.region, self.clues_in, self.stage_rules)
        self.visit(order, stage.try_remove)
        stage.finish()
        self.removed = self.free = len(stage.removed_at)
        self.rules_exact = stage.exact
        if self.by_oracle and not self.timed_out:
            assert self.oracle is not None  # by_oracle
            known = getattr(self.oracle, "known_unique", None)
            if known is not None:
                known(self.puzzle(), self.solution)
            self.kept_for_area = 0
            self.visit([x for x in order if self.cells[x]], self.oracle_allows)
        if self.ceiling is not None:
            self.rating = rate(self.puzzle(), max_nodes=RATING_NODES)
        return self

    def run_grouped(self, order: list[int]) -> _Removal:
        """The removal an orbit at a time (symmetry, a clue floor): the whole grid's rules first,
        then the oracle; with a symmetry and the oracle, every clue left is then tried alone,
        so that a set no single clue of which can go is called minimal."""
        assert self.groups is not None  # run_grouped is the grouped removal
        first = {x: i for i, x in enumerate(order)}
        groups = sorted(self.groups, key=lambda g: min(first[x] for x in g))
        self.visit_groups(groups, self.rules_allow)
        self.free = self.removed
        self.rules_exact = True  # every removal was asked of the whole grid
        if self.by_oracle and not self.timed_out:
            assert self.oracle is not None  # by_oracle
            known = getattr(self.oracle, "known_unique", None)
            if known is not None:
                known(self.puzzle(), self.solution)
            self.kept_for_area = self.kept_for_clues = 0  # counted again by the oracle's visit
            self.visit_groups([g for g in groups if self.cells[g[0]]], self.oracle_allows)
            if self.symmetric and self.minimality == "symmetric-minimal":
                self.singles_needed = not any(
                    self.oracle_unique([x]) for x in order if self.cells[x] and not self.timed_out
                )
        if self.ceiling is not None:
            self.rating = rate(self.puzzle(), max_nodes=RATING_NODES)
        return self

    def visit_groups(self, groups: list[list[int]], removable: Callable[[list[int]], bool]) -> None:
        """Offer each group of clues to ``removable``, which removes all of them or none, unless
        the options keep them."""
        for group in groups:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.timed_out = True
                return
            if not all(self.cells[x] for x in group):
                continue
            if sum(1 for v in self.cells if v) - len(group) < self.fewest:
                self.kept_for_clues += len(group)
                continue
            if not self.allow_unclued and any(
                self.clues_in[self.region[x]] <= sum(1 for y in group if self.region[y] == self.region[x])
                for x in group
            ):
                continue  # a region's last clues
            if self.max_area is not None and self.empty_area_without(group) > self.max_area:
                self.kept_for_area += len(group)
                continue
            removable(group)

    def empty_area_without(self, group: list[int]) -> int:
        """The largest connected area of empty cells with the clues of ``group`` gone."""
        kept = [self.cells[x] for x in group]
        for x in group:
            self.cells[x] = 0
        try:
            return max(self.empty_area_with(x) for x in group)
        finally:
            for x, v in zip(group, kept):
                self.cells[x] = v

    def rules_allow(self, group: list[int]) -> bool:
        """Remove the clues of ``group`` if the rules still solve the whole grid without them."""
        if not deduce(self.without(group), self.stage_rules, grid_last=True).solved:
            return False
        self.remove(group)
        return True

    def visit(self, order: list[int], removable: Callable[[int], bool]) -> None:
        """Offer each clue of ``order`` to ``removable``, which removes it or not, unless the
        options keep it."""
        for x in order:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.timed_out = True
                return
            if not self.allow_unclued and self.clues_in[self.region[x]] == 1:
                continue  # the region's last clue
            if self.max_area is not None and self.empty_area_with(x) > self.max_area:
                self.kept_for_area += 1
                continue
            removable(x)

    def remove(self, cells: list[int]) -> None:
        for x in cells:
            self.cells[x] = 0
            self.clues_in[self.region[x]] -= 1
        self.removed += len(cells)

    def empty_area_with(self, x: int) -> int:
        """The connected area of empty cells that x would join if its clue went (counted up to
        one more than ``max_area``)."""
        assert self.max_area is not None  # asked only when the area is limited
        seen, stack = {x}, [x]
        while stack and len(seen) <= self.max_area:
            r, c = divmod(stack.pop(), self.w)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                y = rr * self.w + cc
                if 0 <= rr < self.h and 0 <= cc < self.w and y not in seen and not self.cells[y]:
                    seen.add(y)
                    stack.append(y)
        return len(seen)

    def without(self, cells: list[int]) -> Puzzle:
        kept = self.cells[:]
        for x in cells:
            kept[x] = 0
        return Puzzle(self.h, self.w, tuple(tuple(kept[r * self.w : (r + 1) * self.w]) for r in range(self.h)))

    def oracle_unique(self, cells: list[int]) -> bool:
        """Does the oracle prove the puzzle unique without the clues of ``cells``? (False when
        it cannot settle it, counted in ``undecided``.)"""
        assert self.oracle is not None  # asked only with by_oracle
        self.oracle_calls += 1
        try:
            return self.oracle(self.without(cells), self.solution)
        except OracleUndecided:
            self.undecided += 1
            return False

    def oracle_allows(self, cells: int | list[int]) -> bool:
        """Remove clue ``cells`` (one, or a group) if the oracle proves the puzzle unique without
        it (and the rating, for a difficulty, is not above it)."""
        group = [cells] if isinstance(cells, int) else cells
        if not self.oracle_unique(group):
            return False
        puzzle = self.without(group)
        if self.ceiling is not None and self.ceiling < len(LABELS) - 1:
            level = rate(puzzle, max_nodes=RATING_NODES).level
            if level is None or level > self.ceiling:
                self.kept_for_difficulty += 1
                return False
        self.remove(group)
        return True


def _regions(solution: Grid) -> tuple[list[int], list[int]]:
    """Each cell's region index, and each region's number of cells (= its clues at first)."""
    areas = equal_areas(solution)
    region = [-1] * (len(solution) * len(solution[0]))
    for i, cells in enumerate(areas):
        for x in cells:
            region[x] = i
    return region, [len(cells) for cells in areas]


__all__ = [
    "GeneratedPuzzle",
    "MINIMALITIES",
    "OracleUndecided",
    "RATING_NODES",
    "RULES_ALONE",
    "Style",
    "UniqueOracle",
    "generate",
    "random_solution",
    "search_oracle",
]
