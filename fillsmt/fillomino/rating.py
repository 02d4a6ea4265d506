"""How hard is a Fillomino puzzle? Its grade by the rules-plus-backtracking search's nodes.

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
(``seconds`` aside). The grade (:data:`LABELS`, easiest first) reads how much search a solver
with rules needs, counted in *nodes* (the fixpoints of the rules it computed: the root, then
each guess "x is v" and each complement "x is not v" it explored) on a scale of tens: each grade
above ``medium`` takes up to ten times the search of the one before (:data:`GRADES`).

``easy``
    The rules alone solve it (1 node), and so would the thesis' four basic strategies
    (:data:`THESIS_RULES`) with at most :data:`EASY_BASIC_NODES` nodes of search
    (``basic_nodes``): a few guesses at most for a solver that knows only those.
``medium``
    The rules alone solve it (1 node), but the basic strategies alone would need more search:
    fillsmt's stronger rules (``join-overflow``, ``size-cap``, ``neighbour-*``) do the work.
``hard``
    2 to 10 nodes: a guess or a few, each soon settled by the rules (a human's "if this were a
    3, that 2 would have nowhere to go").
``fiendish``
    11 to 100 nodes: tens of guesses, some nested.
``extreme``
    More than 100 nodes: search rather than reasoning.

The bounds are powers of ten, not fitted to a set; on janko.at's puzzles (janko-thesis100 and
janko-dev100) no grade holds more than two fifths of either set (``benchmarks/grades.py``).
The rules alone solve more than half of janko-dev100, hence two grades for them. The
depth and the guesses are reported beside the nodes (the thesis' measure is the depth) but do
not make the grade. ``basic_nodes`` is searched only for a puzzle the rules solve alone, and
only up to one node past :data:`EASY_BASIC_NODES` (None otherwise); with ``method="thesis"``
the thesis' solver is itself the basic one, so a puzzle it solves alone is ``easy``.

A search that stops early (``deadline`` or ``max_nodes``) knows only a lower bound of its nodes:
its label is the top grade once they pass :data:`TOP_NODES`, else None (``status`` is then
``stopped``). A puzzle without solution is labelled None with ``status`` ``no-solution`` (for
the thesis' solver: none in which every region holds a clue). The labels are only as good as
the rules: stronger rules make more puzzles easy or medium.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Sequence

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.search import CELL_ORDERS, SearchOptions, solve_by_search

EASY_BASIC_NODES = 10
"""The most nodes the basic strategies' search may take on an ``easy`` puzzle."""

GRADES: tuple[tuple[str, int | None], ...] = (
    ("easy", 1),
    ("medium", 1),
    ("hard", 10),
    ("fiendish", 100),
    ("extreme", None),
)
"""Each grade with the most nodes of the rules' search it may take (None: no bound), easiest
first; ``easy`` and ``medium`` differ by ``basic_nodes`` (module text)."""

LABELS: tuple[str, ...] = tuple(name for name, _ in GRADES)
"""The difficulty scale, easiest first (module text)."""

TOP_NODES: int = max(most for _, most in GRADES if most is not None)
"""The nodes past which a puzzle is in the top grade: a search stopped after more than this many
nodes has its label, however far it is from its first solution."""


def label_for(nodes: int, basic_nodes: int | None = None) -> str:
    """The grade of a finished search of ``nodes`` nodes, and for ``nodes == 1`` of the basic
    strategies' ``basic_nodes`` (module text)."""
    if nodes <= 1:
        return LABELS[0] if basic_nodes is not None and basic_nodes <= EASY_BASIC_NODES else LABELS[1]
    return next(name for name, most in GRADES if most is None or nodes <= most)


def scale_text() -> str:
    """The scale in words, as ``rate`` prints it."""
    parts, low = [], 2
    for name, most in GRADES[2:]:
        parts.append(f"{name} over {low - 1}" if most is None else f"{name} {low}-{most}")
        low = (most or 0) + 1
    return f"easy 1 and at most {EASY_BASIC_NODES} with the basic strategies, medium 1, " + ", ".join(parts)


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
    basic_nodes: int | None
    """Nodes the basic strategies' search took, for a puzzle the rules solve alone (up to one
    past :data:`EASY_BASIC_NODES`: more is not counted); None otherwise (module text)."""
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
        if self.label is not None:
            nodes = ("at least " if self.status == "stopped" else "") + _plural(self.nodes, "node")
            if self.basic_nodes is not None and self.method != "thesis":
                more = "more than " if self.basic_nodes > EASY_BASIC_NODES else ""
                nodes += f", {more}{_plural(min(self.basic_nodes, EASY_BASIC_NODES), 'node')} with the basic strategies"
            lines.append(f"  grade: {self.label}, {nodes} (the scale, in nodes to the first solution: {scale_text()})")
        return "\n".join(lines) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


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
    clues = sum(1 for _ in puzzle.clues())
    basic_nodes = None
    if found.solutions and found.nodes == 1:
        basic_nodes = 1 if method == "thesis" else _basic_nodes(puzzle)
    seconds = time.monotonic() - start
    if found.solutions:
        status, label = "solved", label_for(found.nodes, basic_nodes)
    elif found.exhausted:
        status, label = "no-solution", None
    else:
        status = "stopped"
        # the nodes can only grow as the search goes on: past TOP_NODES the grade is certain
        label = LABELS[-1] if found.nodes > TOP_NODES else None
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
        basic_nodes=basic_nodes,
        seconds=round(seconds, 4),
        rules=names,
        cell_order=cell_order,
        method=method,
        solution=found.solutions[0] if found.solutions else None,
    )


def _basic_nodes(puzzle: Puzzle) -> int:
    """The nodes the basic strategies' search takes to the first solution, counted up to one
    past :data:`EASY_BASIC_NODES` (a search stopped there counts as that; so few nodes need no
    deadline)."""
    found = solve_by_search(puzzle, SearchOptions(rules=THESIS_RULES), limit=1, max_nodes=EASY_BASIC_NODES + 1)
    return found.nodes if found.solutions else EASY_BASIC_NODES + 1


__all__ = [
    "EASY_BASIC_NODES",
    "GRADES",
    "LABELS",
    "METHODS",
    "RULE_SETS",
    "THESIS_RULES",
    "TOP_NODES",
    "Rating",
    "label_for",
    "parse_rules",
    "rate",
    "scale_text",
]
