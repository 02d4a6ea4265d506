"""The ``rate`` command: how hard a Fillomino puzzle is for a solver that reasons like a person.

A thin layer over :mod:`fillsmt.fillomino.rating`.
"""

from __future__ import annotations

import sys
import time

import click

from fillsmt.cli.common import (
    CONTEXT,
    LazyChoice,
    kind_option,
    puzzle_paths,
    reports_errors,
    text_or_json_option,
    timeout_option,
    warn,
)
from fillsmt.engine.interrupts import run_within
from fillsmt.errors import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, FillsmtError
from fillsmt.protocol import Rates

DEFAULT_TIMEOUT = 30.0
"""Seconds of each puzzle's search without ``--timeout``: a 15x15 puzzle that ``generate`` made
can take the search many minutes to its first solution, and its label is usually certain
(extreme) within seconds."""


def _offered(attribute: str) -> list[str]:
    """What the kinds that rate offer for an option (``methods``, ``cell_orders``), in order."""
    from fillsmt.kinds import get_kind, kind_names

    rating = [k for k in map(get_kind, kind_names()) if isinstance(k, Rates)]
    return list(dict.fromkeys(choice for k in rating for choice in getattr(k, attribute)))


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@text_or_json_option("one object per puzzle per line.")
@timeout_option(
    "Stop each puzzle's search after this many seconds: the nodes so far are then "
    "a lower bound, which may already make the puzzle extreme",
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
    metavar="RULES",
    help="The deduction rules the rating may use: a set (all; thesis: the thesis' four; "
    "no-join: all but join-overflow) or comma-separated rule names, `-name` dropping "
    "one (all,-size-cap). Fewer rules: more puzzles need guesses.  [default: all]",
)
@click.option(
    "--cell-order",
    type=LazyChoice(lambda: _offered("cell_orders")),
    help="Where the search guesses: group-exit grows the incomplete group with the fewest "
    "exits; row-major takes the first open cell row by row, as the thesis does.  [default: group-exit]",
)
@click.option(
    "--method",
    type=LazyChoice(lambda: _offered("methods")),
    help="rules: fillsmt's solver (any puzzle; --rules, --cell-order); thesis: the thesis' "
    "own solver rebuilt (its three strategies, row-major guesses), whose depth is the "
    "thesis' measure; only for puzzles whose regions all hold a clue.  [default: rules]",
)
@kind_option
@reports_errors
def rate(puzzles, fmt, timeout, max_nodes, rule_text, cell_order, method, kind):
    """Rate how hard each Fillomino PUZZLE (a file, -, or a folder of them) is for a solver that
    reasons like a person.

    The thesis' measure: the deduction rules first (do they solve it alone? how many cells,
    by which rules?), then rules plus backtracking to the first solution: the deepest run of
    nested guesses, the guesses and the nodes (the rules' fixpoints: the root, each guess and
    each complement). The grade reads the nodes, on a scale of tens: easy and medium 1 (the
    rules alone; easy when the thesis' four basic strategies alone need at most 10 nodes
    too: "basic_nodes"), hard 2-10, fiendish 11-100, extreme over 100. Each search stops at
    --timeout (default 30 s): its numbers are then lower bounds ("stopped early"), and the
    label is given when they already make it certain (over 100 nodes).

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
    from fillsmt.formats.json_format import line
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of

    worst = EXIT_OK
    paths = list(puzzle_paths(puzzles))
    for path, problem in paths:
        try:
            if problem is not None:
                raise problem
            puzzle = load(path, kind)
            rater = Rates.of(kind_of(puzzle), path)
        except FillsmtError as e:
            if len(paths) == 1:
                raise
            warn(str(e))
            worst = max(worst, e.exit_code)
            continue
        deadline = None if timeout is None else time.monotonic() + timeout
        r = run_within(
            timeout,
            lambda: rater.rate(puzzle, deadline, max_nodes, rule_text, cell_order, method),
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
            click.echo(r.text(path), nl=False)
    sys.exit(worst)


__all__ = ["rate"]
