"""What a search returns: :class:`SearchResult`, and :class:`SearchError`."""

from __future__ import annotations

from fillsmt.errors import FillsmtError
from fillsmt.fillomino.model import Grid


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

    ``root_fixed`` counts the cells with one value left at the root, clues included (0 after a
    contradiction); ``root_rules`` the cells each rule fixed there (only rules that fixed some).
    ``probes`` counts the exits probed and ``refuted`` how many of them were refuted.
    """

    def __init__(
        self,
        *,
        rules_used: dict[str, int] | None = None,
        root_fixed: int = 0,
        root_solved: bool = False,
        root_contradiction: str | None = None,
        root_rules: dict[str, int] | None = None,
    ) -> None:
        self.solutions: list[Grid] = []
        self.exhausted = False
        self.max_depth = 0
        self.solution_depth: int | None = None
        self.guesses = 0
        self.nodes = 0
        self.rules_used: dict[str, int] = {} if rules_used is None else rules_used
        self.timed_out = False
        self.root_fixed = root_fixed
        self.root_solved = root_solved
        self.root_contradiction = root_contradiction
        self.root_rules: dict[str, int] = {} if root_rules is None else root_rules
        self.probes = 0
        self.refuted = 0

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
