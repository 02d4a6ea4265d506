"""``fillsmt count``: distinct solutions in one incremental session."""

from __future__ import annotations

import sys
import time

import click

from fillsmt.cli.common import (
    CONTEXT,
    CliError,
    encoding_option,
    kind_option,
    presolve_option,
    reports_errors,
    solver_cmd_option,
    solver_option,
    timeout_option,
    warn,
)
from fillsmt.errors import EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE, EXIT_OK, EXIT_SOLVER, EXIT_UNKNOWN
from fillsmt.smtlib.status import Status


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Stop after this many distinct solutions (the count is then shown as N+).",
)
@click.option("--show", is_flag=True, help="Print each solution found (checked), blank-line separated.")
@solver_option()
@solver_cmd_option
@encoding_option()
@timeout_option("Stop the whole count after this many seconds")
@presolve_option
@kind_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@reports_errors
def count(puzzle, limit, show, solver, solver_cmd, encoding, timeout, presolve, kind, as_json):
    """Count PUZZLE's distinct solutions, up to --limit, in one incremental solver session.

    With the default solver and encoding, a small Fillomino is first counted by the rules'
    search within a small budget (exhausted: the count is exact; every grid is checked), as
    `solve` does; the solver counts what it leaves.

    Prints the count ("2+" when the limit is hit: there may be more). Solutions differ in at
    least one cell's number; two spanning trees of the same regions are one solution. Exit
    code: 0 exactly one, 5 more than one, 1 none, 3 time-out before the count was settled.

    \b
    Examples:
      fillsmt count puzzle.txt
      fillsmt count --limit 10 --show puzzle.txt
      fillsmt count --solver z3 --json puzzle.txt
    """
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.pipeline import count as count_solutions
    from fillsmt.formats.json_format import count_to_dict, line
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of

    driver = get_driver(solver, solver_cmd)  # required once the puzzle is read and needs it
    p = load(puzzle, kind)
    start = time.perf_counter()
    found = count_solutions(p, driver, limit, encoding, timeout, presolve)
    seconds = time.perf_counter() - start
    n = len(found.grids)
    text = f"{n}" if found.complete else f"{n}+" if n >= limit else f"at least {n}"
    if as_json:
        click.echo(line(count_to_dict(puzzle, p, found, limit, seconds)))
    else:
        for grid in found.grids if show else []:
            click.echo(kind_of(p).format_solution(p, grid))
        click.echo(f"{p.source}: {text} solution{'' if n == 1 and found.complete else 's'}")
    if found.status is Status.ERROR:
        raise CliError(found.message, EXIT_SOLVER)
    if not found.complete and n < limit:
        why = f": {found.message}" if found.message else ""
        warn(f"{p.source}: the count stopped early ({found.status.value}){why}")
        sys.exit(EXIT_UNKNOWN)
    sys.exit(EXIT_NO_SOLUTION if n == 0 else EXIT_OK if n == 1 else EXIT_NOT_UNIQUE)
