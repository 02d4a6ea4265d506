"""``fillsmt solve``: every kind through the one pipeline, printed as text or JSON."""

from __future__ import annotations

import sys
import time

import click

from fillsmt.cli.common import (
    CONTEXT,
    encoding_option,
    format_option,
    kind_option,
    presolve_option,
    puzzle_paths,
    reports_errors,
    severity,
    solver_cmd_option,
    solver_option,
    timeout_option,
    warn,
)
from fillsmt.errors import EXIT_OK, InputError
from fillsmt.protocol import Optimises, Pictures, pretty
from fillsmt.smtlib.status import Status


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@solver_option(searching=True)
@solver_cmd_option
@encoding_option()
@timeout_option("Stop the solver after this many seconds; with --unique/--forced, the whole session")
@presolve_option
@click.option(
    "--race/--no-race",
    default=None,
    help="Run the rules' search (the deduction rules plus backtracking) beside the solver; "
    "the first answer wins (both are checked). Needs --presolve; with --forced the search wins "
    "only by exhausting the solutions. "
    "[default: race]",
)
@click.option(
    "--staged/--no-staged",
    default=None,
    help="With --race, let the kind choose the encoding for the presolved grid and let its other "
    "SMT configurations join the race, each after its delay (Fillomino: yices on the lazy region "
    "cuts in place of the default encoding where 180 or more open cells form one area, else beside "
    "it after 10 s, or sooner when they fall behind their share of the CPU). Only with the default "
    "solver and encoding. "
    "[default: staged]",
)
@kind_option
@click.option(
    "--unique",
    is_flag=True,
    help="Also prove the solution unique, or show a second one and the cells where "
    "the two differ (exit 5 when not unique). One incremental solver session.",
)
@click.option(
    "--forced",
    is_flag=True,
    help="Also find the cells that hold the same number in every solution (what an "
    "author needs to see where a clue is missing); a cell not forced means several "
    "solutions: they are named on standard error, exit 5.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "bounds", "maximize", "split"]),
    default="auto",
    show_default=True,
    help="Tilings only: bounds = a search on covered >= k in one session (any solver); "
    "maximize = z3's (maximize covered); split = tile blocks of about 10x10 first "
    "(optimal when they reach the upper bound), then bounds; auto = split on boards "
    "with a side of 20 or more and no copy limits, else bounds.",
)
@format_option
@reports_errors
def solve(puzzles, solver, solver_cmd, encoding, timeout, presolve, race, staged, kind, unique, forced, method, fmt):
    """Solve each PUZZLE file (- reads standard input) and print the checked solution.

    A folder stands for the puzzle files in it (every *.txt below it, as `fillsmt bench` reads
    a folder), one result each. Plain output is in the puzzle file format, so it can be fed
    back to `fillsmt check`; several solutions are separated by blank lines. Problems go to standard error, and the
    exit code is the largest of the puzzles' codes.

    \b
    Examples:
      fillsmt solve instances/fillomino/g12-5x5.txt
      fillsmt solve --solver yices --timeout 60 puzzles/*.txt
      fillsmt solve --format json instances/fillomino/
      fillsmt solve --solver z3-api --format json puzzle.txt
      fillsmt solve --solver portfolio --encoding tree --presolve puzzle.txt
      fillsmt solve --unique --format pretty puzzle.txt
      fillsmt solve --unique --forced --format json puzzle.txt
      fillsmt solve --solver rules --unique --format pretty puzzle.txt
      fillsmt solve --solver-cmd "cvc5 --lang smt2 --produce-models" puzzle.txt
      cat puzzle.txt | fillsmt solve -
      fillsmt solve --format pretty instances/blocknumber/random-6x6.txt
      fillsmt solve --timeout 60 --format json instances/tiling/kalvelagen-41x41.txt

    \b
    A tiling problem is solved for the most covered cells: the plain output is the labelled
    grid (one letter per placed copy, . uncovered, # blocked), and the exit code is 0 when the
    coverage is proven optimal, 3 when the time ran out first (the best tiling found is still
    printed, checked, and marked as not proven).
    """
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine import result as results
    from fillsmt.engine.pipeline import ask_for, run
    from fillsmt.engine.request import require_takes
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of

    driver = get_driver(solver, solver_cmd)  # required when a puzzle needs it
    worst, printed = EXIT_OK, 0
    for path, problem in puzzle_paths(puzzles):
        start = time.perf_counter()
        try:
            if problem is not None:
                raise problem
            puzzle = load(path, kind)
            require_takes(driver, kind_of(puzzle), puzzle.source)
        except InputError as e:
            worst = max(worst, e.exit_code)
            if fmt == "json":
                from fillsmt.formats.json_format import bad_input_dict, line

                click.echo(line(bad_input_dict(path, str(e), solver=driver.name, encoding=encoding)))
            warn(str(e))
            continue
        request = ask_for(
            puzzle, driver, encoding, timeout, presolve, race, staged, unique=unique, forced=forced, method=method
        )
        result = results.with_total(run(puzzle, request, start), time.perf_counter() - start)
        worst = max(worst, result.exit_code, key=severity)
        if fmt == "json":
            from fillsmt.formats.json_format import line, result_to_dict

            click.echo(line(result_to_dict(result, path)))
        if result.optimum is not None:
            printed += _show_optimum(result, fmt, printed)
            continue
        if fmt != "json" and result.grid is not None:
            if printed:
                click.echo()
            _show_solution(result, fmt, result.searched)
            printed += 1
        if result.status is not Status.SAT or result.grid is None:
            warn(f"{puzzle.source}: {_status_words(result)}")
        elif unique:
            warn(f"{puzzle.source}: {_unique_words(result, result.searched)}")
        elif forced and result.forced is not None:
            warn(f"{puzzle.source}: {_forced_words(result)}")
    sys.exit(worst)


def _show_optimum(result, fmt: str, printed: int) -> int:
    """Print an optimisation result (the best answer and whether it is proven); grids shown."""
    summary = Optimises.of(result.kind).result_summary(result)
    optimal = result.status is Status.SAT
    if fmt == "json":
        if not optimal:
            warn(summary)
        return 0
    if printed:
        click.echo()
    if fmt == "pretty":
        click.echo(f"{summary} (solver {result.solver}, {result.checks} checks, {result.times['total']:.2f} s in all)")
        click.echo(pretty(result.kind, result.puzzle, result.grid), nl=False)
    else:
        click.echo(result.kind.format_solution(result.puzzle, result.grid), nl=False)
        warn(summary)
    return 1


def _show_solution(result, fmt: str, rules: bool) -> None:
    kind, puzzle = result.kind, result.puzzle
    if fmt == "pretty":
        by = "the deduction rules" if result.settled_by_presolve else result.solver
        by = f"the rules plus backtracking ({result.message})" if rules else by
        fixed = (
            f" ({result.presolved_cells} cells fixed by the rules first)"
            if result.presolved_cells is not None and not result.settled_by_presolve
            else ""
        )
        click.echo(f"{puzzle.source}: solved by {by} in {result.times['total']:.2f} s{fixed}")
    click.echo(_solution_text(kind, puzzle, result.grid, fmt), nl=False)
    if result.second_grid is not None:
        click.echo()
        cells = result.differing_cells
        marked = (
            kind.pretty_marked(puzzle, result.second_grid, cells)
            if fmt == "pretty" and isinstance(kind, Pictures)
            else None
        )
        if marked is not None:
            click.echo(f"a second solution (differing cells marked *): {_cells_text(cells)}")
            click.echo(marked, nl=False)
        else:
            if fmt == "pretty":
                click.echo(f"a second solution, differing in {_cells_text(cells)}:")
            click.echo(_solution_text(kind, puzzle, result.second_grid, fmt), nl=False)
    if result.forced is not None and fmt == "pretty":
        count = sum(1 for row in result.forced for v in row if v)
        click.echo(f"cells forced in every solution ({count}; . = not forced):")
        width = max(len(str(v)) for row in result.forced for v in row)
        for row in result.forced:
            click.echo(" ".join((str(v) if v else ".").rjust(width) for v in row))
    elif result.forced is not None:
        click.echo()  # the forced cells as a grid: 0 where solutions disagree
        click.echo(kind.format_solution(puzzle, result.forced), nl=False)


def _solution_text(kind, puzzle, solution, fmt: str) -> str:
    return pretty(kind, puzzle, solution) if fmt == "pretty" else kind.format_solution(puzzle, solution)


def _cells_text(cells) -> str:
    return ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def _unique_words(result, rules: bool) -> str:
    if result.unique is True:
        if rules:
            return "unique (the rules plus backtracking searched every alternative)"
        if result.checks == 0:
            return "unique (the deduction rules force every cell)"
        return "unique (the solver proved there is no other solution)"
    if result.unique is False:
        cells = result.differing_cells
        return f"multiple solutions; a second one differs in {len(cells)} cells: {_cells_text(cells)}"
    return f"uniqueness not settled: {result.message or 'unknown'}"


def _forced_words(result) -> str:
    cells = result.unforced_cells
    if not cells:
        return "unique (every cell is forced)"
    n = len(cells)
    cell = "cell" if n == 1 else "cells"
    return f"multiple solutions: {n} {cell} not forced (the solutions differ there): {_cells_text(cells)}"


def status_words(result) -> str:
    """What an unsolved result's status means, for a message."""
    if result.status is Status.UNSAT:
        if result.message and result.message != "no solution":
            return f"no solution: {result.message}"
        return "no solution (the solver proved the puzzle unsatisfiable)"
    words = {
        Status.UNKNOWN: "the solver could not decide",
        Status.TIMEOUT: "time-out",
        Status.ERROR: "solver failure",
        Status.SAT: "solved",
    }[result.status]
    return f"{words}: {result.message}" if result.message else words


_status_words = status_words
