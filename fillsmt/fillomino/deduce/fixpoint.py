"""The fixpoint: apply the rules round after round until none changes anything."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple, Sequence

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce.board import Board, Contradiction, stuck
from fillsmt.fillomino.deduce.grid_rules import neighbour_fit, neighbour_support, size_cap
from fillsmt.fillomino.deduce.masks import Mask, bit, up_to, values_of
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.deduce.value_rules import area, complete_group, forced_cell, join_overflow, single_exit
from fillsmt.fillomino.model import Grid, Puzzle

ALL_RULES: tuple[str, ...] = (
    "complete-group",
    "join-overflow",
    "single-exit",
    "area",
    "forced-cell",
    "neighbour-support",
    "neighbour-fit",
    "size-cap",
)
"""Every rule, in the order a round applies them."""


class Deduction(NamedTuple):
    """What the rules proved about a puzzle.

    ``domains[x]`` is the set of values cell ``x = row * width + col`` may still hold. After a
    contradiction the domains are those at the moment it was found (one may be empty).
    ``fixed_by_rule`` counts the cells each rule left with one value (clues not included);
    ``removed_by_rule`` the (cell, value) pairs each rule removed.
    """

    domains: tuple[frozenset[int], ...]
    fixed_by_rule: dict[str, int]
    removed_by_rule: dict[str, int]
    contradiction: str | None
    rounds: int
    height: int
    width: int

    @property
    def fixed_count(self) -> int:
        """Cells with exactly one possible value, clues included."""
        return sum(1 for d in self.domains if len(d) == 1)

    @property
    def solved(self) -> bool:
        """Every cell is fixed and no contradiction was found."""
        return self.contradiction is None and self.fixed_count == len(self.domains)

    def filled_puzzle(self, puzzle: Puzzle) -> Puzzle:
        """``puzzle`` with every fixed cell written in as a clue."""
        cells = tuple(
            tuple(_only(self.domains[r * self.width + c]) for c in range(self.width)) for r in range(self.height)
        )
        return Puzzle(puzzle.height, puzzle.width, cells, puzzle.source)

    def grid(self) -> Grid | None:
        """The solved grid, or None unless :attr:`solved`."""
        if not self.solved:
            return None
        return tuple(
            tuple(next(iter(self.domains[r * self.width + c])) for c in range(self.width)) for r in range(self.height)
        )


def _only(domain: frozenset[int]) -> int:
    return next(iter(domain)) if len(domain) == 1 else 0


VALUE_RULES: dict[str, Callable[[State, int], None]] = {
    "complete-group": complete_group,
    "join-overflow": join_overflow,
    "single-exit": single_exit,
    "area": area,
    "forced-cell": forced_cell,
}
GRID_RULES: dict[str, Callable[[State], None]] = {
    "neighbour-support": neighbour_support,
    "neighbour-fit": neighbour_fit,
    "size-cap": size_cap,
}


def initial_masks(puzzle: Puzzle) -> list[Mask]:
    """Domains before any rule, as masks: a clue's value; else 1..max(largest clue, size of
    the cell's connected area of empty cells).

    Sound: a region holding a clue k has k cells and k <= the largest clue; a region without
    clues lies inside one connected area of empty cells. The cells of one area share one mask
    (memory linear in the grid, not cells x area size).
    """
    flat = [v for row in puzzle.cells for v in row]
    board = Board.of(puzzle.height, puzzle.width)
    largest = max(flat, default=0)
    area = [0] * len(flat)
    for start, v in enumerate(flat):
        if v or area[start]:
            continue
        members, stack = [start], [start]
        area[start] = -1
        while stack:
            x = stack.pop()
            for y in board.neighbours[x]:
                if not flat[y] and not area[y]:
                    area[y] = -1
                    members.append(y)
                    stack.append(y)
        for x in members:
            area[x] = len(members)
    shared: dict[int, Mask] = {}  # one mask per distinct bound: an open area's cells share it

    def domain(v: int) -> Mask:
        if v not in shared:
            shared[v] = up_to(v)
        return shared[v]

    return [bit(v) if v else domain(max(largest, area[x])) for x, v in enumerate(flat)]


def check_groups(state: State) -> None:
    """The two facts: no k-group has more than k cells; every incomplete one can grow."""
    for k in state.fixed:
        found = state.groups(k)  # the cached groups: found afresh once a cell joins
        if found.incomplete:
            allow = state.allowing(k)
            for i in found.incomplete:
                if not found.borders[i] & allow:  # no exit
                    raise stuck(state.board, found.groups[i])


CHEAP_RULES: tuple[str, ...] = ("complete-group", "join-overflow", "single-exit")
"""The per-value rules a staged round (:func:`run_rules`' ``staged``) runs first, to their own
fixpoint: each looks at one group and its border."""
DEAR_RULES: tuple[str, ...] = ("forced-cell", "area")
"""The other per-value rules, in the order a staged round runs them: both search the cells a
group can reach; forced-cell, which finds most of the contradictions in a search's proof,
first."""


def run_rules(state: State, rules: Sequence[str], staged: bool = False, grid_last: bool = False) -> None:
    """Apply the rules until a whole round changes nothing.

    ``grid_last``: each round runs the per-value rules again and again until they change
    nothing, and only then the grid rules (each a sweep over the grid, so on a large grid they
    run far fewer times). The run still ends only when a whole round changes nothing, so at a
    fixpoint of every rule: the same domains as the plain round. The presolve uses it
    (:func:`deduce`); the counts per rule differ, so ``explain`` and the rating keep the plain
    round.

    ``staged``: each round first runs the cheap per-value rules (:data:`CHEAP_RULES`) to their
    own fixpoint, then the others (:data:`DEAR_RULES`) on every value the cheap ones looked at,
    going back to the cheap ones' fixpoint whenever one of them changed a cell, then the grid
    rules. Each rule still looks at every value changed since it last looked (a value the cheap
    rules took off ``dirty`` is kept for the others), and the run ends only when a whole round
    changes nothing: so it ends at a fixpoint of every rule, as the plain round does, and a
    contradiction the cheap rules find comes before the costly ones run. The search's nodes
    use it (the strong search); ``deduce``, ``explain`` and the rating keep the plain round,
    whose order of rules their counts report."""
    if staged:
        _run_staged(state, rules)
        return
    value_rules = [VALUE_RULES[r] for r in ALL_RULES if r in rules and r in VALUE_RULES]
    grid_rules = [GRID_RULES[r] for r in ALL_RULES if r in rules and r in GRID_RULES]
    while True:
        state.rounds += 1
        before = len(state.changed_cells)
        while True:
            mark = len(state.changed_cells)
            todo = state.dirty & state.anchored if value_rules else 0
            for k in values_of(todo):
                state.dirty &= ~bit(k)
                for rule in value_rules:
                    rule(state, k)
            if not grid_last or len(state.changed_cells) == mark:
                break
        for grid_rule in grid_rules:
            grid_rule(state)
        if len(state.changed_cells) == before:
            return


@lru_cache(maxsize=32)
def _staged_rules(rules: tuple[str, ...]) -> tuple[list, list, list]:
    """The cheap and the dear per-value rules and the grid rules among ``rules``, in the order a
    staged round runs them (found once per set of rules)."""
    cheap = [VALUE_RULES[r] for r in CHEAP_RULES if r in rules]
    dear = [
        VALUE_RULES[r]
        for r in DEAR_RULES + tuple(r for r in VALUE_RULES if r not in CHEAP_RULES + DEAR_RULES)
        if r in rules
    ]
    grid_rules = [GRID_RULES[r] for r in ALL_RULES if r in rules and r in GRID_RULES]
    return cheap, dear, grid_rules


def _run_staged(state: State, rules: Sequence[str]) -> None:
    """:func:`run_rules` with ``staged``."""
    cheap, dear, grid_rules = _staged_rules(tuple(rules))
    pending = 0  # values the cheap rules took off ``dirty`` that the dear ones have yet to see

    def settle_cheap() -> None:
        nonlocal pending
        while True:
            todo = state.dirty & state.anchored
            if not todo:
                return
            pending |= todo
            for k in values_of(todo):
                state.dirty &= ~bit(k)
                for rule in cheap:
                    rule(state, k)

    while True:
        state.rounds += 1
        before = len(state.changed_cells)
        settle_cheap()
        todo, pending = pending, 0
        for k in values_of(todo):
            for rule in dear:
                mark = len(state.changed_cells)
                rule(state, k)
                if len(state.changed_cells) != mark:
                    settle_cheap()
        for grid_rule in grid_rules:
            grid_rule(state)
        if len(state.changed_cells) == before:
            return


def domain_sets(masks: list[Mask]) -> tuple[frozenset[int], ...]:
    cache: dict[Mask, frozenset[int]] = {}
    out = []
    for m in masks:
        if m not in cache:
            cache[m] = frozenset(values_of(m))
        out.append(cache[m])
    return tuple(out)


def deduce(puzzle: Puzzle, rules: Sequence[str] = ALL_RULES, grid_last: bool = False) -> Deduction:
    """Apply ``rules`` (names from :data:`ALL_RULES`) to a fixpoint and report the domains;
    ``grid_last``: in :func:`run_rules`' rounds with ``grid_last`` (the same domains, sooner
    on big grids; other counts per rule)."""
    unknown = [r for r in rules if r not in ALL_RULES]
    if unknown:
        raise InputError(f"unknown deduction rule {unknown[0]!r}; the rules are {', '.join(ALL_RULES)}")
    board = Board.of(puzzle.height, puzzle.width)
    state = State(board, initial_masks(puzzle), [r for r in ALL_RULES if r in rules])
    contradiction = fixpoint(state, rules, grid_last=grid_last)
    return Deduction(
        domain_sets(state.dom),
        dict(state.fixed_by_rule),
        dict(state.removed_by_rule),
        contradiction,
        state.rounds,
        puzzle.height,
        puzzle.width,
    )


def propagate_masks(
    puzzle: Puzzle, masks: list[Mask], rules: Sequence[str] = ALL_RULES
) -> tuple[list[Mask], dict[str, int], str | None]:
    """The rules' fixpoint from the given domains (bit masks) rather than the puzzle's own: the
    new masks, the cells each rule fixed, and the contradiction found (None if none)."""
    state = State(Board.of(puzzle.height, puzzle.width), list(masks), [r for r in ALL_RULES if r in rules])
    contradiction = fixpoint(state, rules)
    return state.dom, dict(state.fixed_by_rule), contradiction


def fixpoint(state: State, rules: Sequence[str], staged: bool = False, grid_last: bool = False) -> str | None:
    """Run ``rules`` on ``state`` (any :class:`State`, a tracing one too) to their fixpoint,
    with the two facts checked before and after: the contradiction found, or None. ``staged``:
    the rounds of :func:`run_rules` with ``staged`` (the same fixpoint); ``grid_last`` likewise."""
    try:
        if 0 in state.dom:
            raise Contradiction(f"{state.board.where(state.dom.index(0))} has no possible value left")
        check_groups(state)
        run_rules(state, rules, staged, grid_last)
        check_groups(state)
    except Contradiction as e:
        return str(e)
    return None
