"""A new BlockNumber puzzle for ``fillsmt generate``: the generator, its session oracle and the
final proof, put together (:meth:`fillsmt.blocknumber.kind.BlockNumber.generate`)."""

from __future__ import annotations

import time

from fillsmt.errors import InputError
from fillsmt.setter.generation import Made, Options, removal_warnings

DEFAULT_MAX_BLOCK = 5
"""The largest BlockNumber block by default (as in published Suguru)."""


def check_request(opts: Options, asked: dict) -> Options:
    """Refuse what is for Fillomino only (``asked``: option -> the value given, None if not)."""
    for name, why in (
        ("--difficulty", "BlockNumber puzzles are not rated"),
        ("--unclued/--no-unclued", "BlockNumber blocks are given"),
        ("--max-empty-area", "BlockNumber givens are always minimal"),
        ("--minimal", "BlockNumber givens are always minimal"),
        ("--symmetry", "BlockNumber givens are removed one at a time"),
        ("--clues", "BlockNumber givens are removed one at a time"),
        ("--solution", "BlockNumber solutions are made with their blocks"),
        ("--positions", "BlockNumber solutions are made with their blocks"),
        ("--regions", "BlockNumber blocks have at most --max-region cells"),
    ):
        if asked.get(name) is not None:
            raise InputError(f"{name} is for Fillomino only ({why})")
    if opts.solver == "search":
        raise InputError(
            "--solver search is for Fillomino only; BlockNumber needs an SMT solver (yices, z3, z3-api, pysmt)"
        )
    from fillsmt.blocknumber.generate import check_request as check_size

    check_size(opts.height, opts.width, opts.max_region or DEFAULT_MAX_BLOCK)
    return opts


def make_blocknumber(opts: Options, seed: int | str, driver) -> Made:
    from fillsmt.blocknumber.generate import generate
    from fillsmt.blocknumber.oracle import SessionOracle, uniqueness_proof
    from fillsmt.blocknumber.plain_format import format_puzzle

    start = time.monotonic()
    deadline = None if opts.timeout is None else start + opts.timeout
    with SessionOracle(driver, deadline) as oracle:
        made = generate(
            opts.height,
            opts.width,
            seed=seed,
            unique_oracle=oracle,
            max_block=opts.max_region or DEFAULT_MAX_BLOCK,
            max_seconds=opts.timeout,
        )
        oracle.deadline = None
        proof = uniqueness_proof(oracle, made.puzzle, made.solution)
    seconds = time.monotonic() - start
    warnings = removal_warnings(made, opts, "givens")
    return Made(
        format_puzzle(made.puzzle),
        seed,
        made.clues,
        "unrated",
        made.minimal,
        seconds,
        [f"unique by {'its givens' if proof == 'givens' else 'the oracle'}"],
        warnings,
        oracle.stats.as_dict(),
    )


__all__ = ["DEFAULT_MAX_BLOCK", "check_request", "make_blocknumber"]
