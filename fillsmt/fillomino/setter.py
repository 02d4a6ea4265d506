"""A new Fillomino puzzle for ``fillsmt generate``: the generator, its uniqueness oracle, the final
proof and the rating, put together (:meth:`fillsmt.fillomino.kind.Fillomino.generate`)."""

from __future__ import annotations

import time

from fillsmt.errors import InputError, OracleUndecided
from fillsmt.setter.generation import Made, Options, removal_warnings

DEFAULT_MAX_EMPTY_AREA = 20
"""``--max-empty-area`` by default for grids of more than :data:`SMALL_GRID` cells (see
:mod:`fillsmt.fillomino.generate`). With the oracle (``--minimal``, ``--difficulty``): about 10 %
more clues in about half the time on a 20x20, where the proofs over large empty areas took most
of it. Without: 4 to 6 % more clues for 10 % less CPU time on a 20x20, 15 % on a 30x30 and
nearly 30 % on a 50x50, where the rules' runs over large empty areas are the slow ones."""

SMALL_GRID = 225
"""Grids up to this many cells (15x15) get no ``--max-empty-area`` by default: minimal clue sets."""


def check_request(opts: Options) -> Options:
    """The request with Fillomino's defaults filled in (``--max-empty-area 0``: no limit)."""
    if opts.positions is not None:
        for name, given in (
            ("--symmetry", opts.symmetry != "none"),
            ("--clues", opts.clues is not None),
            ("--solution", opts.solution is not None),
            ("--difficulty", opts.difficulty is not None),
            ("--minimal", opts.minimal),
            ("--regions", opts.regions is not None),
        ):
            if given:
                raise InputError(f"--positions places every clue: it cannot go with {name}")
        if opts.solver == "search":
            raise InputError("--positions needs an SMT solver (--solver yices, z3, z3-api, pysmt), not search")
    if opts.solution is not None and opts.regions is not None:
        raise InputError("--solution gives the regions: it cannot go with --regions")
    from fillsmt.fillomino.published import region_weights

    region_weights(opts.height, opts.width, opts.regions or "published", opts.max_region)  # refuses what cannot be
    area = (
        opts.max_empty_area
        if opts.max_empty_area is not None
        else 0
        if opts.height * opts.width <= SMALL_GRID
        else DEFAULT_MAX_EMPTY_AREA
    )
    opts.max_empty_area = area or None
    return opts


def make_fillomino(opts: Options, seed: int | str, driver) -> Made:
    from fillsmt.fillomino.generate import RATING_NODES, RULES_ALONE, Style, generate
    from fillsmt.fillomino.oracle import search_based_oracle, smt_oracle, uniqueness_proof
    from fillsmt.fillomino.plain_format import format_puzzle
    from fillsmt.fillomino.rating import rate

    start = time.monotonic()
    deadline = None if opts.timeout is None else start + opts.timeout
    if opts.positions is not None:
        return _placed(opts, seed, driver, start, deadline)
    oracle = search_based_oracle(deadline) if driver is None else smt_oracle(driver, deadline)
    by_oracle = opts.minimal or (opts.difficulty or RULES_ALONE[0]) not in RULES_ALONE
    clues, published = opts.clues, default_clues(opts)
    if published is not None:
        clues = (published[0], published[2])
    floor = published is None or opts.symmetry != "none"  # without a symmetry, the rules' stage keeps its windows
    made = generate(
        opts.height,
        opts.width,
        seed=seed,
        unique_oracle=oracle if by_oracle else None,
        allow_unclued=opts.unclued,
        difficulty=opts.difficulty,
        max_seconds=opts.timeout,
        max_region=opts.max_region,
        max_empty_area=opts.max_empty_area,
        style=Style(opts.symmetry, clues, opts.solution, regions=opts.regions or "published", floor=floor),
    )
    oracle.deadline = None  # the last proof is not cut short
    proof = uniqueness_proof(oracle, made.puzzle, made.solution)
    seconds = time.monotonic() - start
    rating = made.rating or rate(made.puzzle, max_nodes=RATING_NODES)
    label = rating.label or "unrated"
    warnings = removal_warnings(made, opts, "clues")
    notes = [f"unique by {'the deduction rules' if proof == 'rules' else 'the oracle'}"]
    if opts.symmetry != "none":
        notes.append(f"{opts.symmetry} symmetric")
    if made.kept_for_area:
        notes.append(f"{made.kept_for_area} clues kept for --max-empty-area {opts.max_empty_area}")
    if made.kept_for_clues:
        said = "--clues" if published is None else "the published range"
        notes.append(f"clues kept for {said} {_range_text(clues)}")
    if clues is not None and not clues[0] <= made.clues <= clues[1]:
        wanted = (
            f"asked for {_range_text(clues)} clues"
            if published is None
            else f"published puzzles near {opts.height}x{opts.width} have {_range_text(clues)} clues "
            f"(median {published[1]})"
        )
        warnings.append(f"{wanted}, the closest found has {made.clues}")
    if opts.difficulty is not None and rating.label != opts.difficulty:
        warnings.append(f"asked for {opts.difficulty}, the closest found is {label}")
    stats = {
        **oracle.stats.as_dict(),
        "free_removals": made.free_removals,
        "kept_for_area": made.kept_for_area,
        "attempt": made.attempt,
    }
    return Made(
        format_puzzle(made.puzzle),
        seed,
        made.clues,
        label,
        made.minimal,
        seconds,
        notes,
        warnings,
        stats,
        made.minimality,
    )


def _placed(opts: Options, seed: int | str, driver, start: float, deadline: float | None) -> Made:
    """The puzzle of ``--positions``: a solution found for the layout (:mod:`fillsmt.setter.positions`),
    proven unique once more by a fresh oracle."""
    from fillsmt.fillomino.generate import RATING_NODES
    from fillsmt.fillomino.model import Puzzle
    from fillsmt.fillomino.oracle import smt_oracle, uniqueness_proof
    from fillsmt.fillomino.plain_format import format_puzzle
    from fillsmt.fillomino.rating import rate
    from fillsmt.setter.clues import RepairUndecided
    from fillsmt.setter.positions import solve_layout

    assert opts.positions is not None and driver is not None  # check_request
    blank = Puzzle(opts.height, opts.width, tuple((0,) * opts.width for _ in range(opts.height)), "--positions")
    try:
        layout = solve_layout(blank, opts.positions, driver, deadline)
    except RepairUndecided as e:
        raise OracleUndecided(f"--positions: {e}") from None
    puzzle = Puzzle(opts.height, opts.width, layout.puzzle.cells, f"generated-{opts.height}x{opts.width}-{seed}")
    proof = uniqueness_proof(smt_oracle(driver, None), puzzle, layout.solution)
    rating = rate(puzzle, max_nodes=RATING_NODES)
    notes = [
        f"unique by {'the deduction rules' if proof == 'rules' else 'the oracle'}",
        f"a solution for the layout after {layout.rounds} proposed",
    ]
    clues = sum(1 for _ in puzzle.clues())
    return Made(
        format_puzzle(puzzle),
        seed,
        clues,
        rating.label or "unrated",
        False,
        time.monotonic() - start,
        notes,
        [],
        {"rounds": layout.rounds},
        "as placed",
    )


def default_clues(opts: Options) -> tuple[int, int, int] | None:
    """The clue count aimed at when none is asked for: (fewest, median, most) of the published
    puzzles near the grid's size (:func:`fillsmt.fillomino.published.style_for`), for a random
    solution and no ``--difficulty`` (whose rating decides); None otherwise, and for a size with
    no published puzzles near it."""
    if opts.clues is not None or opts.difficulty is not None or opts.solution is not None:
        return None
    from fillsmt.fillomino.published import style_for

    return style_for(opts.height, opts.width).clue_target


def _range_text(clues: tuple[int, int] | None) -> str:
    assert clues is not None
    return str(clues[0]) if clues[0] == clues[1] else f"{clues[0]}-{clues[1]}"


__all__ = ["DEFAULT_MAX_EMPTY_AREA", "SMALL_GRID", "check_request", "default_clues", "make_fillomino"]
