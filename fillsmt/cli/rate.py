"""The ``rate`` command: how hard a Fillomino puzzle is for a solver that reasons like a person.

A thin layer over :mod:`fillsmt.fillomino.rating`.
"""

from __future__ import annotations

import sys
import time

import click

from fillsmt.cli.common import (
    CONTEXT,
    kind_option,
    puzzle_paths,
    reports_errors,
    text_or_json_option,
    timeout_option,
    warn,
)
from fillsmt.engine.interrupts import run_within
from fillsmt.errors import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, FillsmtError, InputError
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.rating import METHODS
from fillsmt.fillomino.search import CELL_ORDERS
from fillsmt.protocol import Rates

DEFAULT_TIMEOUT = 30.0
"""Seconds of each puzzle's search without ``--timeout``: a 15x15 puzzle that ``generate`` made
can take the search many minutes to its first solution, and its label is usually certain
(fiendish) within seconds."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _rating_text(path: str, r) -> str:
    """A few lines about one rating (``--format text``)."""
    search = (
        f"  search: max depth {r.max_depth}, {_plural(r.guesses, 'guess')}, {_plural(r.nodes, 'node')}, "
        f"{r.seconds:.2f} s{' (stopped early: lower bounds)' if r.status == 'stopped' else ''}"
    )
    if r.status == "no-solution":
        why = (
            " in which every region holds a clue (the thesis' solver knows only that variant)"
            if r.method == "thesis"
            else ""
        )
        return f"{path}: no solution{why}\n{search}\n"
    empty = r.height * r.width - r.clues
    lines = [
        f"{path}: {r.label or 'not rated (stopped before the label was certain)'}",
        f"  rules alone: {'solve it' if r.rules_solve else 'do not solve it'} "
        f"({r.rules_fixed} of {empty} empty cells fixed)",
        "  rules that fixed cells: " + (", ".join(f"{name} {n}" for name, n in r.rules_used.items()) or "none"),
    ]
    if r.method == "thesis":
        lines.append(f"  rated with the thesis' solver: {', '.join(r.rules)}; guesses {r.cell_order}")
    elif r.rules != ALL_RULES or r.cell_order != CELL_ORDERS[0]:
        lines.append(f"  rated with the rules {', '.join(r.rules)}; guesses {r.cell_order}")
    if not r.rules_solve:
        lines.append(
            "  over the whole search: "
            + (", ".join(f"{name} {n}" for name, n in r.search_rules_used.items()) or "none")
        )
    lines.append(search)
    return "\n".join(lines) + "\n"


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@text_or_json_option("one object per puzzle per line.")
@timeout_option(
    "Stop each puzzle's search after this many seconds: the depth and guesses so far are then "
    "lower bounds, which may already make the puzzle fiendish",
    default=DEFAULT_TIMEOUT,
)
@click.option(
    "--max-nodes",
    type=click.IntRange(min=1),
    metavar="N",
    help="Stop each puzzle's search after N nodes (deterministic, unlike --timeout).",
)
@click.option(
    "--rules",
    "rule_text",
    default="all",
    show_default=True,
    metavar="RULES",
    help="The deduction rules the rating may use: a set (all; thesis: the thesis' four; "
    "no-join: all but join-overflow) or comma-separated rule names, `-name` dropping "
    "one (all,-size-cap). Fewer rules: more puzzles need guesses.",
)
@click.option(
    "--cell-order",
    type=click.Choice(CELL_ORDERS),
    default=CELL_ORDERS[0],
    show_default=True,
    help="Where the search guesses: group-exit grows the incomplete group with the fewest "
    "exits; row-major takes the first open cell row by row, as the thesis does.",
)
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default=METHODS[0],
    show_default=True,
    help="rules: fillsmt's solver (any puzzle; --rules, --cell-order); thesis: the thesis' "
    "own solver rebuilt (its three strategies, row-major guesses), whose depth is the "
    "thesis' measure; only for puzzles whose regions all hold a clue.",
)
@kind_option
@reports_errors
def rate(puzzles, fmt, timeout, max_nodes, rule_text, cell_order, method, kind):
    """Rate how hard each Fillomino PUZZLE (a file, -, or a folder of them) is for a solver that
    reasons like a person.

    The thesis' measure: the deduction rules first (do they solve it alone? how many cells,
    by which rules?), then rules plus backtracking to the first solution: the deepest run of
    nested guesses, the guesses and the nodes. The label: easy (the rules alone), medium
    (depth 1), hard (depth 2-3, at most 50 guesses), fiendish (more). Each search stops at
    --timeout (default 30 s): its numbers are then lower bounds ("stopped early"), and the
    label is given when they already make it certain.

    \b
    Examples:
      fillsmt rate instances/fillomino/g12-5x5.txt
      fillsmt rate --format json instances/fillomino/generated/*.txt
      fillsmt generate --size 10x10 --seed 1 | fillsmt rate -
      fillsmt rate --timeout 10 big-puzzle.txt
      fillsmt rate --rules no-join puzzle.txt
      fillsmt rate --method thesis baron-puzzle.txt   # the thesis' own solver and depth

    \b
    Exit codes (the largest over the puzzles): 0 rated, 1 no solution, 2 bad input or not a
    Fillomino puzzle, 3 stopped by --timeout/--max-nodes before a label was certain.
    """
    from fillsmt.fillomino.rating import parse_rules
    from fillsmt.fillomino.rating import rate as rate_puzzle
    from fillsmt.formats.json_format import line
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of

    rules = parse_rules(rule_text)
    if method == "thesis" and (rules != ALL_RULES or cell_order != CELL_ORDERS[0]):
        raise InputError(
            "--rules and --cell-order choose fillsmt's solver; --method thesis has its own "
            "(single-exit, forced-cell, reachability; row-major guesses)"
        )
    worst = EXIT_OK
    paths = list(puzzle_paths(puzzles))
    for path, problem in paths:
        try:
            if problem is not None:
                raise problem
            puzzle = load(path, kind)
            if not isinstance(kind_of(puzzle), Rates):
                raise InputError(
                    f"{path}: a {kind_of(puzzle).name} puzzle; rate knows Fillomino only "
                    "(its deduction rules and search are Fillomino's)"
                )
        except FillsmtError as e:
            if len(paths) == 1:
                raise
            warn(str(e))
            worst = max(worst, e.exit_code)
            continue
        deadline = None if timeout is None else time.monotonic() + timeout
        r = run_within(
            timeout,
            lambda: rate_puzzle(
                puzzle, deadline=deadline, max_nodes=max_nodes, rules=rules, cell_order=cell_order, method=method
            ),
            lambda: None,
        )
        if r is None:  # a stage that does not watch the deadline ran past it
            worst = max(worst, EXIT_UNKNOWN)
            click.echo(
                line({"puzzle": path, "status": "stopped", "label": None})
                if fmt == "json"
                else f"{path}: not rated (stopped by --timeout {timeout:g})"
            )
            continue
        code = EXIT_NO_SOLUTION if r.status == "no-solution" else EXIT_UNKNOWN if r.label is None else EXIT_OK
        worst = max(worst, code)
        if fmt == "json":
            click.echo(line({"puzzle": path, **r.as_dict()}))
        else:
            click.echo(_rating_text(path, r), nl=False)
    sys.exit(worst)


__all__ = ["rate"]
