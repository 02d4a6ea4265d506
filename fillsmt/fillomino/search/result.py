"""What a search returns: :class:`SearchResult`, and :class:`SearchError`."""

from __future__ import annotations

from dataclasses import dataclass, field

from fillsmt.errors import FillsmtError
from fillsmt.fillomino.model import Grid


@dataclass
class SearchResult:
    """What a search found, and how much work it took.

    ``solutions`` holds at most ``limit`` grids, in the order found. ``exhausted`` is true when
    nothing of the search space is left unexplored, so ``len(solutions)`` is then the exact
    number of solutions (or at least ``limit`` of them, when it equals ``limit``). It is false
    when the search stopped early: at ``limit`` solutions with alternatives still open, after
    ``max_nodes`` nodes, or at the deadline (``timed_out``).

    ``nodes`` counts the fixpoints of the rules computed (the root included); ``guesses`` the
    guesses explored ("x is v" children). ``max_depth`` is the deepest guess reached (the
    package text says how depth counts); ``solution_depth`` the number of guesses on the way to
    the first solution (None if none). ``rules_used`` adds up, over every node, the cells each
    rule fixed (a guessed cell itself not included); ``root_*`` describe the root alone: the
    rules without any guess.
    """

    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = False
    max_depth: int = 0
    solution_depth: int | None = None
    guesses: int = 0
    nodes: int = 0
    rules_used: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False
    root_fixed: int = 0
    """Cells with one value left at the root, clues included (0 after a contradiction)."""
    root_solved: bool = False
    root_contradiction: str | None = None
    root_rules: dict[str, int] = field(default_factory=dict)
    """The cells each rule fixed at the root (only rules that fixed some)."""
    probes: int = 0
    """Exits probed, and how many of them were refuted."""
    refuted: int = 0

    @property
    def unique(self) -> bool | None:
        """Whether the puzzle has exactly one solution, when the search settled it (a second
        solution found, or the search exhausted); None otherwise."""
        if len(self.solutions) >= 2:
            return False
        if self.exhausted:
            return len(self.solutions) == 1
        return None


class SearchError(FillsmtError):
    """The rules fixed every cell to a grid the independent checker rejects (a bug)."""
