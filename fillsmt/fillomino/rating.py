"""How hard is a Fillomino puzzle? Its rating by the rules and the backtracking depth.

:func:`rate` runs a rules-plus-backtracking solver until the first solution and reports what it
took. Two solvers (:data:`METHODS`): fillsmt's (:func:`~fillsmt.fillomino.search.solve_by_search`,
the default, any puzzle, with a choice of rules and guessing order), and the thesis' own, rebuilt
(:func:`~fillsmt.fillomino.thesis_solver.solve_as_thesis`, puzzles whose regions all hold a clue),
whose depths order the thesis' Puzzle Baron puzzles exactly as the thesis' table does. Reported:

* the cells the rules fix alone, before any guess, and whether that solves the puzzle;
* the rules that fixed them (name → cells), and over the whole search;
* the maximum backtracking depth (thesis 6.2: the longest run of successive guesses made before
  the solution was found; see :mod:`~fillsmt.fillomino.search` for how guesses are counted),
  the guesses and the nodes (fixpoints of the rules).

Everything is deterministic: the same puzzle, rules and cell order give the same numbers
(``seconds`` aside). The scale (:data:`LABELS`, easiest first) reads the depth:

``easy``
    The rules alone solve it (depth 0).
``medium``
    Depth 1: one guess at a time, each settled by the rules alone (a human's "if this were a 3,
    that 2 would have nowhere to go").
``hard``
    Depth 2 or 3, with at most :data:`HARD_GUESSES` guesses: a few nested guesses.
``fiendish``
    Deeper, or more guesses: search rather than reasoning.

A search that stops early (``deadline`` or ``max_nodes``) knows only lower bounds: its label is
``fiendish`` when the bounds already say so, else None (``status`` is then ``stopped``). A
puzzle without solution is labelled None with ``status`` ``no-solution`` (for the thesis'
solver: none in which every region holds a clue). The labels are only as good as the rules:
stronger rules make more puzzles easy.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Sequence

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.search import CELL_ORDERS, SearchOptions, solve_by_search

LABELS: tuple[str, ...] = ("easy", "medium", "hard", "fiendish")
"""The difficulty scale, easiest first (module text)."""

HARD_GUESSES = 50
"""The most guesses a ``hard`` puzzle takes; more make it ``fiendish``."""

HARD_DEPTH = 3
"""The deepest a ``hard`` puzzle goes; deeper makes it ``fiendish``."""

THESIS_RULES: tuple[str, ...] = ("complete-group", "single-exit", "area", "forced-cell")
"""The thesis' strategies (5.2 single exit, 5.3 forced cells, 5.4 reachability, in their
general-variant form) and the check that a complete group admits no equal neighbour."""

RULE_SETS: dict[str, tuple[str, ...]] = {
    "all": ALL_RULES,
    "thesis": THESIS_RULES,
    "no-join": tuple(r for r in ALL_RULES if r != "join-overflow"),
}
"""Named rule sets for :func:`parse_rules`: every rule (the default), the thesis' four, and every
rule but ``join-overflow`` (of fillsmt's rule sets, the one whose depths follow the thesis' depth
column on the Puzzle Baron puzzles best; the thesis' own solver, ``method="thesis"``, follows it
exactly: ``fillsmt rate --format json ../shared/instances/fillomino/baron-thesis60/puzzles`` beside
the set's ``thesis-times.csv``)."""


def parse_rules(text: str) -> tuple[str, ...]:
    """Rules from a name in :data:`RULE_SETS` or a comma-separated list of rule names, where
    ``-name`` drops a rule from the set before it (``all,-size-cap``). In :data:`ALL_RULES`
    order; an unknown name raises :class:`~fillsmt.errors.InputError`."""
    chosen: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        drop = item.startswith("-")
        name = item[1:] if drop else item
        names = RULE_SETS.get(name, (name,))
        unknown = [n for n in names if n not in ALL_RULES]
        if not name or unknown:
            raise InputError(
                f"unknown rule or rule set {name!r} in {text!r}; the sets are "
                f"{', '.join(RULE_SETS)}, the rules {', '.join(ALL_RULES)}"
            )
        chosen = [r for r in chosen if r not in names] if drop else chosen + [n for n in names if n not in chosen]
    if not chosen:
        raise InputError(f"no rules left in {text!r}")
    return tuple(r for r in ALL_RULES if r in chosen)


@dataclass(frozen=True)
class Rating:
    """The rating of one puzzle (module text); :meth:`as_dict` gives it as JSON data."""

    source: str
    height: int
    width: int
    clues: int
    status: str
    """``solved``, ``no-solution`` or ``stopped`` (the deadline or the node cap came first)."""
    label: str | None
    rules_fixed: int
    """Cells the rules fix alone, clues not included."""
    rules_solve: bool
    rules_used: dict[str, int]
    """Cells each rule fixed alone (before any guess); only rules that fixed some."""
    search_rules_used: dict[str, int]
    """Cells each rule fixed over the whole search, every node added up."""
    max_depth: int
    solution_depth: int | None
    guesses: int
    nodes: int
    seconds: float
    rules: tuple[str, ...]
    cell_order: str
    method: str
    """``rules`` (fillsmt's solver) or ``thesis`` (the thesis' own, :data:`METHODS`)."""
    solution: Grid | None
    """The solution found (checked by the independent checker), None if none."""

    @property
    def level(self) -> int | None:
        """The label's position in :data:`LABELS` (0 = easy), None without a label."""
        return None if self.label is None else LABELS.index(self.label)

    def as_dict(self) -> dict:
        """Plain data for JSON (tuples as lists)."""
        out = asdict(self)
        out["rules"] = list(self.rules)
        out["solution"] = None if self.solution is None else [list(row) for row in self.solution]
        return out

    def text(self, path: str) -> str:
        """A few lines about the rating of the puzzle at ``path`` (``rate --format text``)."""
        search = (
            f"  search: max depth {self.max_depth}, {_plural(self.guesses, 'guess')}, {_plural(self.nodes, 'node')}, "
            f"{self.seconds:.2f} s{' (stopped early: lower bounds)' if self.status == 'stopped' else ''}"
        )
        if self.status == "no-solution":
            why = (
                " in which every region holds a clue (the thesis' solver knows only that variant)"
                if self.method == "thesis"
                else ""
            )
            return f"{path}: no solution{why}\n{search}\n"
        empty = self.height * self.width - self.clues
        used = ", ".join(f"{name} {n}" for name, n in self.rules_used.items()) or "none"
        lines = [
            f"{path}: {self.label or 'not rated (stopped before the label was certain)'}",
            f"  rules alone: {'solve it' if self.rules_solve else 'do not solve it'} "
            f"({self.rules_fixed} of {empty} empty cells fixed)",
            f"  rules that fixed cells: {used}",
        ]
        if self.method == "thesis":
            lines.append(f"  rated with the thesis' solver: {', '.join(self.rules)}; guesses {self.cell_order}")
        elif self.rules != ALL_RULES or self.cell_order != CELL_ORDERS[0]:
            lines.append(f"  rated with the rules {', '.join(self.rules)}; guesses {self.cell_order}")
        if not self.rules_solve:
            lines.append(
                "  over the whole search: "
                + (", ".join(f"{name} {n}" for name, n in self.search_rules_used.items()) or "none")
            )
        lines.append(search)
        return "\n".join(lines) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def label_for(max_depth: int, guesses: int) -> str:
    """The label of a finished search's depth and guesses (module text)."""
    if max_depth == 0:
        return "easy"
    if max_depth == 1:
        return "medium"
    if max_depth <= HARD_DEPTH and guesses <= HARD_GUESSES:
        return "hard"
    return "fiendish"


METHODS: tuple[str, ...] = ("rules", "thesis")
"""How :func:`rate` searches: ``rules`` is fillsmt's solver (:mod:`~fillsmt.fillomino.search`
with ``rules`` and ``cell_order``); ``thesis`` the thesis' own solver rebuilt
(:mod:`~fillsmt.fillomino.thesis_solver`: basic variant only, every region clued), whose depth is
the thesis' measure itself."""


def rate_with_options(
    puzzle: Puzzle,
    deadline: float | None = None,
    max_nodes: int | None = None,
    rules: str | None = None,
    cell_order: str | None = None,
    method: str | None = None,
) -> Rating:
    """:func:`rate` with the options as ``fillsmt rate`` gives them (None: the default; ``rules``
    the text :func:`parse_rules` reads); ``--rules`` and ``--cell-order`` choose fillsmt's
    solver, so they do not go with ``method="thesis"``."""
    if method == "thesis" and (rules is not None or cell_order is not None):
        raise InputError(
            "--rules and --cell-order choose fillsmt's solver; --method thesis has its own "
            "(single-exit, forced-cell, reachability; row-major guesses)"
        )
    return rate(
        puzzle,
        deadline=deadline,
        max_nodes=max_nodes,
        rules=ALL_RULES if rules is None else parse_rules(rules),
        cell_order=cell_order or CELL_ORDERS[0],
        method=method or METHODS[0],
    )


def rate(
    puzzle: Puzzle,
    *,
    deadline: float | None = None,
    max_nodes: int | None = None,
    rules: Sequence[str] = ALL_RULES,
    cell_order: str = CELL_ORDERS[0],
    method: str = METHODS[0],
) -> Rating:
    """Rate ``puzzle`` (module text). ``deadline`` is a :func:`time.monotonic` value; it and
    ``max_nodes`` bound the search. ``rules`` and ``cell_order`` are passed to fillsmt's search;
    ``method="thesis"`` rates with the thesis' solver instead (they are then not used)."""
    if method not in METHODS:
        raise InputError(f"unknown rating method {method!r}; the methods are {', '.join(METHODS)}")
    start = time.monotonic()
    if method == "thesis":
        from fillsmt.fillomino.thesis_solver import THESIS_STRATEGIES, solve_as_thesis

        found = solve_as_thesis(puzzle, deadline=deadline, max_nodes=max_nodes)
        names, cell_order = THESIS_STRATEGIES, "row-major"
    else:
        found = solve_by_search(
            puzzle,
            SearchOptions(rules=tuple(rules), cell_order=cell_order),
            limit=1,
            max_nodes=max_nodes,
            deadline=deadline,
        )
        names = tuple(r for r in ALL_RULES if r in rules)
    seconds = time.monotonic() - start
    clues = sum(1 for _ in puzzle.clues())
    if found.solutions:
        status, label = "solved", label_for(found.max_depth, found.guesses)
    elif found.exhausted:
        status, label = "no-solution", None
    else:
        status = "stopped"
        # max_depth and guesses can only grow as the search goes on
        fiendish = found.max_depth > HARD_DEPTH or found.guesses > HARD_GUESSES
        label = "fiendish" if fiendish else None
    return Rating(
        source=puzzle.source,
        height=puzzle.height,
        width=puzzle.width,
        clues=clues,
        status=status,
        label=label,
        rules_fixed=max(0, found.root_fixed - clues) if found.root_contradiction is None else 0,
        rules_solve=found.root_solved,
        rules_used=dict(found.root_rules),
        search_rules_used={r: n for r, n in found.rules_used.items() if n},
        max_depth=found.max_depth,
        solution_depth=found.solution_depth,
        guesses=found.guesses,
        nodes=found.nodes,
        seconds=round(seconds, 4),
        rules=names,
        cell_order=cell_order,
        method=method,
        solution=found.solutions[0] if found.solutions else None,
    )


__all__ = [
    "HARD_DEPTH",
    "HARD_GUESSES",
    "LABELS",
    "METHODS",
    "RULE_SETS",
    "THESIS_RULES",
    "Rating",
    "label_for",
    "parse_rules",
    "rate",
]
