"""The commands between files: ``encode``, ``decode``, ``check``, ``convert`` and ``render``."""

from __future__ import annotations

import sys
from typing import Iterable

import click

from fillsmt.cli.common import (
    CONTEXT,
    CliError,
    EncodingName,
    encoding_option,
    format_option,
    kind_option,
    presolve_option,
    reports_errors,
    stopped_at,
    timeout_option,
    warn,
)
from fillsmt.cli.output import write_file
from fillsmt.errors import EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_SOLVER, FormatError, InputError
from fillsmt.pictures.svg import file_title
from fillsmt.protocol import Clues, Optimises, Pictures, UrlForm, pretty, script_encoding
from fillsmt.protocol import script as protocol_script

SHOWN_PROBLEMS = 3
"""How many of the checker's problems a refused answer's message names (the first, in the
checker's order: cell by cell, row by row)."""


def first_problems(problems: list[str], shown: int = SHOWN_PROBLEMS) -> str:
    """The first ``shown`` problems, and how many more there are: one short line however wrong
    the answer is (a grid of 1s breaks every region: thousands of sentences)."""
    more = len(problems) - shown
    return "; ".join(problems[:shown]) + (f"; and {more} more problem{'s' if more > 1 else ''}" if more > 0 else "")


def _emit(text: str | Iterable[str], output: str | None, force: bool, protect: str) -> None:
    """Standard output, or a file written safely (see :mod:`fillsmt.cli.output`); ``text`` may
    come in pieces, written as they are made."""
    if output is None or output == "-":
        for piece in [text] if isinstance(text, str) else text:
            click.echo(piece, nl=False)
    else:
        write_file(output, text, force=force, protect=protect)


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option("--output", "-o", metavar="FILE.smt2", help="Write the script here (default: standard output).")
@click.option("--force", is_flag=True, help="Replace FILE.smt2 if it already exists.")
@encoding_option(scripts=True)
@presolve_option
@kind_option
@click.option(
    "--bound",
    type=click.IntRange(min=0),
    metavar="K",
    help='Tilings only: write the question "is there a tiling covering at least K cells?" '
    "(for any solver) instead of z3's (maximize covered).",
)
@timeout_option("Stop reading, presolving, encoding and writing after this many seconds (exit 3)")
@reports_errors
def encode(puzzle, output, force, encoding, presolve, kind, bound, timeout):
    """Write the SMT-LIB 2.6 script of PUZZLE, for any SMT-LIB solver.

    The script says what it is in its header ((set-info :source |…|): the puzzle, its kind,
    the encoding, whether the presolve ran and how many cells it fixed, the fillsmt version),
    and ends with (check-sat), (get-value …) for every cell and (exit); feed the solver's
    output to `fillsmt decode`. An existing file is never replaced without --force, and the
    puzzle file itself never is.

    \b
    Examples:
      fillsmt encode puzzle.txt > puzzle.smt2
      fillsmt encode puzzle.txt -o puzzle.smt2
      fillsmt encode puzzle.txt | yices-smt2
      fillsmt encode instances/tiling/tetris-7x7.txt | z3 -in
      fillsmt encode --bound 48 instances/tiling/tetris-7x7.txt | yices-smt2

    \b
    A tiling problem's script asks z3 to (maximize covered); with --bound K it asks any solver
    for a tiling covering at least K cells.

    \b
    Only encodings whose script is exact on its own are written; a solving method (a
    relaxation refined in a session, or one that needs a solver's propagator) is refused with
    exit 2, as is bad input. Exit 1: the presolve proves there is no solution; 3: time-out.
    """
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of, kinds

    with stopped_at(timeout, "script"):
        p = load(puzzle, kind)
        found = kind_of(p)
        if bound is not None:
            if not isinstance(found, Optimises):
                optimised = " and ".join(k.name for k in kinds() if isinstance(k, Optimises))
                raise InputError(f"--bound is for {optimised} problems only (problems that are optimised)")
            script = found.encode_at_least(p, bound, script_encoding(found, encoding).name)
        else:
            script = protocol_script(found, p, encoding, presolve)
        _emit(script.chunks(), output, force, puzzle)


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("answer", metavar="ANSWER")
@format_option
@kind_option
@click.option(
    "--encoding",
    "-e",
    type=EncodingName(),
    default=None,
    metavar="NAME",
    help="The encoding the script was written with (BlockNumber: onehot answers are "
    "recognised by their is_R_C_V names; numbers otherwise).",
)
@reports_errors
def decode(puzzle, answer, fmt, kind, encoding):
    """Turn a solver's saved output (ANSWER) for PUZZLE's script into the checked grid.

    ANSWER is what the solver printed for the script of `fillsmt encode` (sat, then the
    get-value pairs). The grid is printed only if it passes the independent checker.
    PUZZLE and ANSWER cannot both be - (standard input).

    \b
    Examples:
      fillsmt encode puzzle.txt | z3 -in > answer.txt
      fillsmt decode puzzle.txt answer.txt
      fillsmt encode puzzle.txt | yices-smt2 | fillsmt decode puzzle.txt -
    """
    from fillsmt.drivers.base import interpret_output
    from fillsmt.engine.pipeline import EXIT_CODES
    from fillsmt.engine.result import decoded
    from fillsmt.formats.json_format import line, result_to_dict
    from fillsmt.formats.source import load
    from fillsmt.formats.text import read_text
    from fillsmt.kinds import kind_of
    from fillsmt.smtlib.answer import SExprError, Status, parse_answer

    if puzzle == "-" and answer == "-":
        raise click.UsageError("PUZZLE and ANSWER cannot both be - (standard input holds only one of them)")
    p = load(puzzle, kind)
    text, source = read_text(answer)
    try:
        parse_answer(text)
    except SExprError as e:
        raise CliError(f"{source}:{e.line}: {e.problem}", EXIT_BAD_INPUT) from None
    run = interpret_output("the solver", text)
    if run.status is not Status.SAT:
        if run.status is Status.UNSAT:
            raise CliError(f"{source}: the solver found no solution (unsat)", EXIT_NO_SOLUTION)
        raise CliError(f"{source}: {run.message or run.status.value}", EXIT_CODES[run.status])
    found = kind_of(p)
    encoding = encoding or found.guess_encoding(run.values)
    problem = found.problem(p, found.encode(p, encoding), encoding, source)
    try:
        solution = problem.decode(run.values)
    except FormatError as e:
        raise CliError(str(e), EXIT_SOLVER) from None
    problems = problem.check(solution)
    if problems:
        raise CliError(f"{source}'s answer fails the independent check: {first_problems(problems)}", EXIT_SOLVER)
    if fmt == "json":
        click.echo(line(result_to_dict(decoded(p, encoding, solution), puzzle)))
        return
    text = pretty(found, p, solution) if fmt == "pretty" else found.format_solution(p, solution)
    click.echo(text, nl=False)
    note = found.describe(p, solution)
    if note:
        warn(f"{source}: the {found.name} {note}")


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("solution", metavar="SOLUTION")
@kind_option
@reports_errors
def check(puzzle, solution, kind):
    """Check that SOLUTION (a filled grid, same format) solves PUZZLE.

    Clues must be kept, and every region of equal numbers must have exactly that many
    cells. Prints "valid" (exit 0) or each problem found (exit 1). For a tiling problem,
    SOLUTION is a labelled grid as `fillsmt solve` prints it (equal characters on one copy,
    . uncovered, # blocked): every copy must be an allowed image of a piece, inside the board,
    off the blocked cells, within the copy limits; "valid" then gives the cells covered.

    \b
    Examples:
      fillsmt check puzzle.txt solution.txt
      fillsmt solve puzzle.txt | fillsmt check puzzle.txt -
    """
    from fillsmt.formats.source import load
    from fillsmt.formats.text import read_text
    from fillsmt.kinds import kind_of

    if puzzle == "-" and solution == "-":
        raise click.UsageError("PUZZLE and SOLUTION cannot both be - (standard input holds only one of them)")
    p = load(puzzle, kind)
    text, source = read_text(solution)
    found = kind_of(p)
    grid = found.parse_solution(text, source, p)
    problems = found.check(p, grid)
    if problems:
        for problem in problems:
            click.echo(f"{source}: {problem}")
        click.echo(f"{source}: invalid ({len(problems)} problem{'s' if len(problems) > 1 else ''})")
        sys.exit(EXIT_NO_SOLUTION)
    note = found.describe(p, grid)
    click.echo(f"{source}: valid{f' ({note})' if note else ''}")


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option(
    "--to",
    "target",
    type=click.Choice(["url", "plain", "json"]),
    required=True,
    help="url: a puzz.link URL; plain: the kind's puzzle file format; json: see docs/json-schema.md.",
)
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    help="Write here (default: standard output); never replaces an existing file without --force.",
)
@click.option("--force", is_flag=True, help="Replace FILE if it already exists.")
@kind_option
@reports_errors
def convert(puzzle, target, output, force, kind):
    """Write PUZZLE (a file, -, or a puzz.link URL) as a URL, a plain puzzle file, or JSON.

    \b
    Examples:
      fillsmt convert instances/fillomino/g12-5x5.txt --to url
      fillsmt convert "https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n" --to plain -o p.txt
      fillsmt convert puzzle.txt --to json
    """
    from fillsmt.formats import json_format
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of

    p = load(puzzle, kind)
    if target == "url":
        text = UrlForm.of(kind_of(p), p.source).to_url(p) + "\n"
    elif target == "json":
        text = json_format.format_puzzle(p)
        text = text if text.endswith("\n") else text + "\n"
    else:
        text = kind_of(p).format_puzzle(p)
    _emit(text, output, force, puzzle)


def _partial(kind: Clues, puzzle, grid, source: str, name: str):
    """A player's partial ``grid``, its empty clue cells filled with the clues; every number
    written on a clue must be that clue."""
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        shape = f"{len(grid)}x{len(grid[0]) if grid else 0}"
        raise InputError(f"{source}: the partial grid is {shape}, the puzzle {name} is {puzzle.height}x{puzzle.width}")
    rows = [list(row) for row in grid]
    wrong = []
    for r, c, v in kind.clues(puzzle):
        if rows[r][c] and rows[r][c] != v:
            wrong.append(f"r{r + 1}c{c + 1} holds {rows[r][c]}, the clue is {v}")
        rows[r][c] = v
    if wrong:
        raise CliError(
            f"{source}: the partial grid does not keep the clues of {name}: {first_problems(wrong)}", EXIT_NO_SOLUTION
        )
    return tuple(tuple(row) for row in rows)


@click.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("solution", metavar="[SOLUTION]", required=False)
@click.option(
    "--output", "-o", metavar="FILE.svg", required=True, help="Where to write the SVG picture; - is standard output."
)
@click.option("--force", is_flag=True, help="Replace FILE.svg if it already exists.")
@click.option(
    "--solve", "solve_it", is_flag=True, help="Solve the puzzle first (default solver) and draw the solution."
)
@kind_option
@reports_errors
def render(puzzle, solution, output, force, solve_it, kind):
    """Draw PUZZLE as an SVG picture, solved when a SOLUTION file (checked first) or --solve is given.

    Thin cell lines, heavy region borders, clues in bold black, solved numbers in blue. A
    SOLUTION with empty cells (0) is a player's partial grid (Fillomino, BlockNumber): its
    numbers are drawn as they are, borders only between filled cells of different numbers
    (Fillomino); it must have the puzzle's size and keep its clues (exit 1 otherwise). The
    picture's title is the puzzle's file name (no folders).

    \b
    Examples:
      fillsmt render instances/fillomino/g12-5x5.txt -o g12.svg
      fillsmt render instances/fillomino/g12-5x5.txt --solve -o g12-solved.svg
      fillsmt solve puzzle.txt | fillsmt render puzzle.txt - -o solved.svg
      fillsmt render instances/fillomino/g12-5x5.txt -o - > g12.svg
    """
    from fillsmt.cli.solve import status_words
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.pipeline import DEFAULT_SOLVER, solve
    from fillsmt.formats.source import load
    from fillsmt.formats.text import read_text
    from fillsmt.kinds import kind_of

    if puzzle == "-" and solution == "-":
        raise click.UsageError("PUZZLE and SOLUTION cannot both be - (standard input holds only one of them)")
    p = load(puzzle, kind)
    found = kind_of(p)
    grid = None
    if solution is not None:
        text, source = read_text(solution)
        grid = found.parse_solution(text, source, p)
        if isinstance(found, Clues) and any(not v for row in grid for v in row):
            grid = _partial(found, p, grid, source, puzzle)
        else:
            problems = found.check(p, grid)
            if problems:
                raise CliError(f"{source}: not a solution of {puzzle}: {first_problems(problems)}", EXIT_NO_SOLUTION)
    elif solve_it:
        driver = get_driver(DEFAULT_SOLVER)
        driver.require()
        result = solve(p, driver)
        if result.grid is None:
            raise CliError(f"{puzzle}: {status_words(result)}", result.exit_code)
        grid = result.grid
    _emit(Pictures.of(found, p.source).svg(p, grid, title=file_title(p.source)), output, force, puzzle)
