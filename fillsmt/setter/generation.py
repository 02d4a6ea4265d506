"""Making new puzzles, for every kind that can: what was asked (:class:`Options`) and what was
made (:class:`Made`). Each kind's :meth:`~fillsmt.protocol.Generates.generate` does the work with its own
generator and uniqueness oracle; ``fillsmt generate`` is the thin command over it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Options:
    """What ``generate`` was asked for, checked against the kind."""

    kind: str
    height: int
    width: int
    solver: str
    timeout: float | None
    difficulty: str | None
    unclued: bool
    max_region: int | None
    max_empty_area: int | None
    minimal: bool = False
    """Fillomino: remove every clue the oracle proves the puzzle unique without, not only
    those the deduction rules do not need."""
    symmetry: str = "none"
    """The symmetry of the clue layout (:data:`~fillsmt.setter.symmetry.SYMMETRIES`)."""
    clues: tuple[int, int] | None = None
    """The fewest and the most clues wanted."""
    solution: tuple[tuple[int, ...], ...] | None = None
    """The solution the puzzle must have (a filled grid), instead of a random one."""
    positions: frozenset[tuple[int, int]] | None = None
    """The cells the clues must be at (and no others), instead of cells chosen by removal."""
    regions: str | None = None
    """The style of the solution's region sizes (None: the kind's default)."""


@dataclass
class Made:
    """One generated puzzle, ready to print."""

    text: str
    seed: int | str
    clues: int
    label: str
    minimal: bool
    seconds: float
    notes: list[str]
    warnings: list[str]
    stats: dict
    """The oracle's counts and seconds (for the benchmark)."""
    minimality: str = ""
    """What is known of the clue set in words ("minimal", "near-minimal", …); "" for
    ``minimal``'s word alone."""

    @property
    def minimal_words(self) -> str:
        return self.minimality or ("minimal" if self.minimal else "near-minimal")


def removal_warnings(made, opts: Options, clues: str) -> list[str]:
    """Why the clue removal may have stopped short of a minimal set (``clues``: what the kind
    calls its clues)."""
    warnings = []
    if made.timed_out:
        warnings.append(
            f"--timeout {opts.timeout:g} reached: the puzzle is unique, but some {clues} could still be removed"
        )
    if made.undecided:
        warnings.append(f"{made.undecided} {clues} kept because the solver could not settle them in time")
    return warnings


__all__ = ["Made", "Options", "removal_warnings"]
