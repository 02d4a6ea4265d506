"""For puzzle solvers and setters: ``explain``, ``hint``, ``repair`` and ``minimize``.

Thin: the work is in each kind's explanations (:class:`~fillsmt.protocol.Explains`) and
:mod:`fillsmt.setter.repair`.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import Iterator

import click

from fillsmt.cli.common import (
    CONTEXT,
    CliError,
    kind_option,
    reports_errors,
    solver_cmd_option,
    solver_option,
    stopped_at,
    text_or_json_option,
    timeout_message,
    timeout_option,
    warn,
)
from fillsmt.errors import EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE, EXIT_OK, EXIT_UNKNOWN, InputError

text_or_json = text_or_json_option("one object (docs/explain.schema.json).")

EXPLAIN_EXIT = {
    "solved": EXIT_OK,
    "no-solution": EXIT_NO_SOLUTION,
    "multiple": EXIT_NOT_UNIQUE,
    "stopped": EXIT_UNKNOWN,
}
HINT_EXIT = {
    "step": EXIT_OK,
    "solved": EXIT_OK,
    "wrong": EXIT_NO_SOLUTION,
    "no-solution": EXIT_NO_SOLUTION,
    "multiple": EXIT_NOT_UNIQUE,
    "stopped": EXIT_UNKNOWN,
}


def _explained(source: str, kind: str | None):
    """The puzzle, and its kind as one that ``explain`` and ``hint`` know (:class:`~fillsmt.protocol.Explains`)."""
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of
    from fillsmt.protocol import Explains

    puzzle = load(source, kind)
    return puzzle, Explains.of(kind_of(puzzle), puzzle.source)


def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else time.monotonic() + timeout


def _timed_out(found, deadline: float | None, timeout: float | None, what: str) -> None:
    """A result the command's own deadline stopped (``stopped``, the deadline past) gets the
    message one the alarm stopped gets (:func:`~fillsmt.cli.common.stopped_at`), on standard
    error; what was found before still goes to standard output, and the exit code is 3."""
    if found.status == "stopped" and deadline is not None and time.monotonic() >= deadline:
        CliError(f"{timeout_message(what, timeout)}; what was found is printed", EXIT_UNKNOWN).show()


def _driver(solver: str, solver_cmd: str | None):
    from fillsmt.drivers.registry import get_driver

    driver = get_driver(solver, solver_cmd)
    driver.require()
    return driver


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@text_or_json
@click.option("--svg", "svg_file", metavar="FILE.svg", help="Also draw the grid with each filled cell's step number.")
@click.option("--force", is_flag=True, help="Replace FILE.svg if it already exists.")
@solver_option()
@timeout_option("Stop explaining after this many seconds")
@kind_option
@reports_errors
def explain(puzzle, fmt, svg_file, force, solver, timeout, kind):
    """Explain how to solve a Fillomino PUZZLE, step by numbered step.

    Each step names its rule (as `fillsmt rate` does), the cells it fixed or the candidates it
    removed, and the cells that made it apply. Where the rules stop, a case analysis follows,
    each branch closed by the rules: a case split (a cell and a number tried, and the chain of
    steps that ends in a contradiction), then "whichever" (every number of a cell tried: each
    narrows another cell alike), then a nested split (a number tried; the rules stop; every
    number of a second cell then ends in a contradiction). Where none is found in time, that is
    said, and the solver (which proves the solution unique) supplies one forced cell. Runs of
    size-cap steps that only remove numbers too large for a cell's room are folded into one
    size-caps step. Exit code: 0 explained to the solution, 1 no solution, 5 more than
    one solution, 3 stopped by --timeout.

    \b
    Examples:
      fillsmt explain instances/fillomino/g12-5x5.txt
      fillsmt explain --format json puzzle.txt
      fillsmt explain --svg steps.svg puzzle.txt
    """
    from fillsmt.cli.output import write_file
    from fillsmt.formats.json_format import line

    p, explainer = _explained(puzzle, kind)
    deadline = _deadline(timeout)
    with stopped_at(timeout, "explanation"):
        found = explainer.explain(p, deadline, solver)
    _timed_out(found, deadline, timeout, "explanation")
    if svg_file:
        write_file(svg_file, found.svg(), force=force, protect=puzzle, option="--svg")
    click.echo(line(found.as_dict()) if fmt == "json" else found.text(), nl=fmt == "json")
    sys.exit(EXPLAIN_EXIT[found.status])


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("progress", metavar="[PROGRESS]", required=False)
@text_or_json
@solver_option()
@timeout_option("Stop after this many seconds")
@kind_option
@reports_errors
def hint(puzzle, progress, fmt, solver, timeout, kind):
    """The next step for a Fillomino PUZZLE, or the wrong cells of a PROGRESS grid.

    PROGRESS is the player's grid in the puzzle's format (0 = not filled yet). When the puzzle
    has one solution and a number in PROGRESS is not in it, only those cells are named (nothing
    else of the solution is given away); otherwise the next step that fixes a cell, as
    `fillsmt explain` would give it. A puzzle with more than one solution is said to be so: a
    step is still given when the rules find one (it holds in every solution). Exit code: 0 a
    step (or the grid is finished), 1 wrong cells (or no solution agrees with PROGRESS), 5 the
    puzzle is not unique (with a step or without), 3 --timeout.

    \b
    Examples:
      fillsmt hint puzzle.txt
      fillsmt hint puzzle.txt my-grid.txt
      fillsmt hint --format json puzzle.txt my-grid.txt
    """
    from fillsmt.formats.json_format import line
    from fillsmt.formats.source import load

    if puzzle == "-" and progress == "-":
        raise click.UsageError("PUZZLE and PROGRESS cannot both be - (standard input holds only one of them)")
    p, explainer = _explained(puzzle, kind)
    grid = None
    if progress is not None:
        grid = load(progress, p.kind)  # the player's grid, read as the puzzle's kind
        if (grid.height, grid.width) != (p.height, p.width):
            raise InputError(
                f"{grid.source}: the progress grid is {grid.height}x{grid.width}, the puzzle {p.height}x{p.width}"
            )
    deadline = _deadline(timeout)
    with stopped_at(timeout, "hint"):
        found = explainer.hint(p, grid, deadline, solver)
    _timed_out(found, deadline, timeout, "hint")
    click.echo(line(found.as_dict()) if fmt == "json" else found.text(), nl=fmt == "json")
    code = HINT_EXIT[found.status]
    sys.exit(EXIT_NOT_UNIQUE if code == EXIT_OK and found.unique is False else code)


def _placed(clues) -> str:
    return ", ".join(f"r{r + 1}c{c + 1}={v}" for r, c, v in clues)


def _clue_command_options(command):
    """The options repair and minimize share: output format, solver, time-out and kind."""
    from fillsmt.setter.repair import DEFAULT_TIMEOUT

    limit = timeout_option(
        "Stop after this many seconds and print the best found so far, marked as such",
        default=DEFAULT_TIMEOUT,
        show_default=False,
    )
    for option in (kind_option, limit, solver_cmd_option, solver_option(), text_or_json):
        command = option(command)
    return command


@contextlib.contextmanager
def _nothing_within(timeout: float, what: str) -> Iterator[None]:
    """The block, whose :class:`~fillsmt.setter.repair.RepairUndecided` at or past ``timeout`` seconds
    (nothing found to print yet) becomes the time-out message of
    :func:`~fillsmt.cli.common.stopped_at`, and whose alarm does too."""
    from fillsmt.setter.repair import RepairUndecided

    start = time.monotonic()
    with stopped_at(timeout, what):
        try:
            yield
        except RepairUndecided as e:
            if time.monotonic() - start >= timeout:
                raise CliError(timeout_message(what, timeout), EXIT_UNKNOWN) from None
            raise CliError(str(e), e.exit_code) from None


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option(
    "--solution",
    "solution_file",
    metavar="FILE",
    help="The solution to keep (the setter's, a filled grid in the kind's solution format, checked "
    "against PUZZLE): the fewest of its numbers that make it the only solution are added, proven "
    "the fewest for it.",
)
@_clue_command_options
@reports_errors
def repair(puzzle, solution_file, fmt, solver, solver_cmd, timeout, kind):
    """Make PUZZLE unique with as few added clues as can be found, or name the clues that conflict.

    With several solutions: clues (cell and number, all from one solution) after which exactly
    one solution remains, proven by the solver; the repaired puzzle is printed in the kind's
    plain format and the added clues on standard error. First the fewest clues for the first
    solution found, then other solutions that might need fewer, until no solution can do with
    fewer (proven) or --timeout comes (default 60 s): the best repair found is then printed,
    marked as not proven the fewest, exit 3. With no solution: a small set of clues that cannot
    all hold (the solver's unsat core over named clue assertions, shrunk until each one is
    needed), exit 1. Fillomino and BlockNumber.

    \b
    Examples:
      fillsmt repair puzzle.txt > unique.txt
      fillsmt repair --timeout 300 --format json puzzle.txt
      fillsmt repair --solution my-solution.txt puzzle.txt > unique.txt

    \b
    Exit codes: 0 repaired with the fewest clues (proven) or already unique, 1 no solution,
    3 --timeout: the repair printed is unique but not proven the fewest, or nothing was found.
    """
    from fillsmt.formats.json_format import line, puzzle_to_dict
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of
    from fillsmt.setter.repair import repair as repair_puzzle

    p = load(puzzle, kind)
    solution = None
    if solution_file is not None:
        from fillsmt.formats.text import read_text

        text, source = read_text(solution_file)
        solution = kind_of(p).parse_solution(text, source, p)
    with _nothing_within(timeout, "repair"):
        found = repair_puzzle(p, _driver(solver, solver_cmd), timeout, solution)
    if fmt == "json":
        obj = found.as_dict()
        obj["repaired"] = puzzle_to_dict(found.repaired) if found.repaired is not None else None
        click.echo(line(obj))
    elif found.status == "repaired":
        click.echo(kind_of(p).format_puzzle(found.repaired), nl=False)
        n = len(found.added)
        fewest = (
            f"the fewest of {solution_file}'s numbers (proven; every repair keeping it needs {found.at_least})"
            if found.for_solution
            else "no solution needs fewer (proven)"
            if found.fewest_proven
            else f"not proven the fewest ({found.stopped}; the fewest for this solution, after trying "
            f"{found.solutions_tried} solution{'s' if found.solutions_tried != 1 else ''}; every repair "
            f"needs at least {found.at_least})"
        )
        warn(
            f"{p.source}: {n} clue{'s' if n != 1 else ''} added, now unique (proven); {fewest}: {_placed(found.added)}"
        )
    elif found.status == "unique":
        click.echo(kind_of(p).format_puzzle(p), nl=False)
        warn(f"{p.source}: already unique, nothing added")
    else:
        warn(f"{p.source}: no solution; these {len(found.core)} clues cannot all hold: {_placed(found.core)}")
    sys.exit(EXIT_NO_SOLUTION if found.status == "no-solution" else EXIT_OK if found.fewest_proven else EXIT_UNKNOWN)


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option(
    "--keep-rated",
    is_flag=True,
    help="Keep a clue also when removing it would change the difficulty label of `fillsmt rate` (Fillomino).",
)
@click.option(
    "--symmetric",
    is_flag=True,
    help="Keep the symmetry of the clue layout (a half turn, a quarter turn, a mirror: each one "
    "it has): clues go only a symmetric group at a time. Exit 2 when the layout has none.",
)
@_clue_command_options
@reports_errors
def minimize(puzzle, keep_rated, symmetric, fmt, solver, solver_cmd, timeout, kind):
    """Remove the clues PUZZLE does not need: it stays unique, and no clue left can go.

    Clues are tried in reading order; each removal is kept when the solution stays the only one
    (proven as `fillsmt generate` proves it). The minimized puzzle is printed in the kind's plain
    format, what was removed on standard error. When --timeout comes first (default 60 s), the
    puzzle with the clues removed so far is printed (unique, but some clue left may not be
    needed), exit 3. Fillomino and BlockNumber.

    \b
    Examples:
      fillsmt minimize puzzle.txt > minimal.txt
      fillsmt minimize --keep-rated --timeout 300 puzzle.txt
      fillsmt minimize --symmetric symmetric-puzzle.txt

    \b
    Exit codes: 0 minimal, 2 not unique or no solution, 3 --timeout: the puzzle printed is unique
    but not proven minimal, or nothing was found.
    """
    from fillsmt.formats.json_format import line, puzzle_to_dict
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of
    from fillsmt.setter.minimize import minimize as minimize_puzzle

    p = load(puzzle, kind)
    with _nothing_within(timeout, "minimized puzzle"):
        found = minimize_puzzle(
            p, _driver(solver, solver_cmd), keep_rated=keep_rated, timeout=timeout, symmetric=symmetric
        )
    if fmt == "json":
        obj = found.as_dict()
        obj["minimized"] = puzzle_to_dict(found.puzzle)
        click.echo(line(obj))
    else:
        click.echo(kind_of(p).format_puzzle(found.puzzle), nl=False)
        label = f", still {found.label}" if found.label else ""
        kept = f"{' and '.join(found.symmetries)} symmetric, " if found.symmetries else ""
        needed = (
            f"{kept}every symmetric group of clues left is needed"
            if found.minimal and found.symmetries
            else "every clue left is needed"
            if found.minimal
            else f"not minimal: {found.stopped} after {found.tried} of {found.clues_before} clues"
        )
        warn(
            f"{p.source}: {len(found.removed)} of {found.clues_before} clues removed{label}, "
            f"{needed} ({found.seconds:.2f} s)" + (f": {_placed(found.removed)}" if found.removed else "")
        )
    sys.exit(EXIT_OK if found.minimal else EXIT_UNKNOWN)


__all__ = ["explain", "hint", "minimize", "repair"]
