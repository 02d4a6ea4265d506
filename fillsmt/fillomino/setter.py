"""A new Fillomino puzzle for ``fillsmt generate``: the generator, its uniqueness oracle, the final
proof and the rating, put together (:meth:`fillsmt.fillomino.kind.Fillomino.generate`)."""

from __future__ import annotations

import time

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
    from fillsmt.fillomino.generate import RATING_NODES, generate
    from fillsmt.fillomino.oracle import search_based_oracle, smt_oracle, uniqueness_proof
    from fillsmt.fillomino.plain_format import format_puzzle
    from fillsmt.fillomino.rating import LABELS, rate

    start = time.monotonic()
    deadline = None if opts.timeout is None else start + opts.timeout
    oracle = search_based_oracle(deadline) if driver is None else smt_oracle(driver, deadline)
    by_oracle = opts.minimal or LABELS.index(opts.difficulty or "easy") > 0
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
    )
    oracle.deadline = None  # the last proof is not cut short
    proof = uniqueness_proof(oracle, made.puzzle, made.solution)
    seconds = time.monotonic() - start
    rating = made.rating or rate(made.puzzle, max_nodes=RATING_NODES)
    label = rating.label or "unrated"
    notes = [f"unique by {'the deduction rules' if proof == 'rules' else 'the oracle'}"]
    if made.kept_for_area:
        notes.append(f"{made.kept_for_area} clues kept for --max-empty-area {opts.max_empty_area}")
    warnings = removal_warnings(made, opts, "clues")
    if opts.difficulty is not None and rating.label != opts.difficulty:
        warnings.append(f"asked for {opts.difficulty}, the closest found is {label}")
    stats = {
        **oracle.stats.as_dict(),
        "free_removals": made.free_removals,
        "kept_for_area": made.kept_for_area,
        "attempt": made.attempt,
    }
    return Made(format_puzzle(made.puzzle), seed, made.clues, label, made.minimal, seconds, notes, warnings, stats)


__all__ = ["DEFAULT_MAX_EMPTY_AREA", "SMALL_GRID", "check_request", "make_fillomino"]
