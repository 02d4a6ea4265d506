"""The ``fillsmt`` command line: a thin layer over the library.

The library raises :class:`~fillsmt.errors.FillsmtError`; only this module turns errors into
messages and exit codes (0 solved/valid, 1 no solution/invalid, 2 bad input, 3 unknown or
time-out, 4 solver missing or failed).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import click

import importlib

from fillsmt import __version__
from fillsmt.drivers import SOLVERS, get_driver, trace
from fillsmt.drivers.base import interpret_output
from fillsmt.drivers.pysmt_driver import installed_backends
from fillsmt.errors import (EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE, EXIT_OK, EXIT_SOLVER,
                            EXIT_UNKNOWN, FillsmtError, InputError)
from fillsmt.fillomino.encodings import DEFAULT_ENCODING, ENCODINGS
from fillsmt.fillomino.model import Puzzle as FillominoPuzzle
from fillsmt.fillomino.plain_format import format_grid, read_text
from fillsmt.fillomino.render import render_pretty
from fillsmt.interrupts import exit_on_signals
from fillsmt.kinds import KIND_NAMES, kind_of, load
from fillsmt.pipeline import (DEFAULT_PRESOLVE, DEFAULT_SOLVER, EXIT_CODES, RULES_SOLVER, SolveResult, checked_grid,
                              encode, encode_presolved, require_rules_apply, solve, solve_with_rules)
from fillsmt.smtlib.answer import SExprError, Status, parse_answer
from fillsmt.tiling.model import TilingProblem

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class CliError(click.ClickException):
    """A message for the user and the exit code that goes with it."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code


def reports_errors(command):
    """Turn the library's errors into one-line messages with the documented exit codes."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except FillsmtError as e:
            raise CliError(str(e), e.exit_code) from None

    return wrapper


def warn(message: str) -> None:
    click.echo(f"fillsmt: {message}", err=True)


class LazyGroup(click.Group):
    """A group whose heavier commands are imported only when they are used."""

    lazy = {"bench": "fillsmt.bench.command:bench", "generate": "fillsmt.generate_command:generate",
            "rate": "fillsmt.generate_command:rate"}

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self.lazy])

    def main(self, *args, **kwargs):
        with exit_on_signals():  # SIGINT/SIGTERM/SIGHUP: solvers killed, exit 128 + N
            return super().main(*args, **kwargs)

    def get_command(self, ctx, name):
        if name in self.lazy:
            module, attr = self.lazy[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


def _start_trace(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--trace: check the file can be appended to, then record through FILLSMT_TRACE (which
    bench's worker processes inherit)."""
    if value is None:
        return None
    target = os.path.abspath(value)
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise click.BadParameter(f"cannot append to {value}: {e.strerror}", ctx, param) from None
    os.environ[trace.ENV] = target
    return target


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="fillsmt")
@click.option("--trace", metavar="FILE", callback=_start_trace, expose_value=False, is_eager=True,
              help="Append everything sent to a solver, and its answers as comments, to FILE "
                   "(also: the FILLSMT_TRACE environment variable). The file is never truncated.")
def main() -> None:
    """Solve grid logic puzzles with SMT solvers, and check the answers.

    Kinds: Fillomino (a puzzle file holds the height and width, then the grid row by row,
    0 for an empty cell), BlockNumber / Suguru (the givens, then the block labels), and
    polyomino tiling with maximum coverage (a `board` line, then the pieces). Every answer
    fillsmt prints has passed an independent checker.

    \b
    Examples:
      fillsmt solve instances/fillomino/g12-5x5.txt
      fillsmt solve --solver yices --format pretty instances/fillomino/*.txt
      fillsmt encode puzzle.txt -o puzzle.smt2
      z3 -in < puzzle.smt2 > answer.txt && fillsmt decode puzzle.txt answer.txt
      fillsmt solve puzzle.txt | fillsmt check puzzle.txt -
      fillsmt bench puzzles/ -s z3 -s yices -e thesis -e tree --csv runs.csv --plot cactus.png
      fillsmt solve instances/tiling/kalvelagen-61x61.txt
      fillsmt --trace traffic.smt2 solve --unique puzzle.txt

    \b
    Exit codes: 0 solved / valid, 1 no solution / invalid solution, 2 usage or bad input,
    3 unknown or time-out, 4 solver missing or failed, 5 solved but not unique (--unique).
    """


solver_option = click.option(
    "--solver", "-s", default=DEFAULT_SOLVER, show_default=True, metavar="NAME",
    help=f"Solver: {', '.join(SOLVERS)}; pysmt:NAME for one of pysmt's solvers; "
         "portfolio:A,B,… to race solvers and take the first answer.")
solve_solver_option = click.option(
    "--solver", "-s", default=DEFAULT_SOLVER, show_default=True, metavar="NAME",
    help=f"Solver: {', '.join(SOLVERS)}; pysmt:NAME for one of pysmt's solvers; "
         "portfolio:A,B,… to race solvers and take the first answer; rules for the thesis' own "
         "solver, the deduction rules plus backtracking (Fillomino only, no SMT).")
solver_cmd_option = click.option(
    "--solver-cmd", metavar="CMD",
    help='Any other SMT-LIB 2 solver, run as CMD with the script on standard input '
         '(e.g. "cvc5 --lang smt2 --produce-models"). Overrides --solver.')
ALL_ENCODINGS = sorted({*ENCODINGS, "int-distinct", "int-pairwise", "onehot", "bv", "auto", "ladder", "pairwise",
                        "sum"})
encoding_option = click.option(
    "--encoding", "-e", type=click.Choice(ALL_ENCODINGS), default=None,
    help=f"How the puzzle is written as SMT-LIB [default: {DEFAULT_ENCODING} for Fillomino, "
         "onehot for BlockNumber, auto for tilings]. Fillomino: thesis, tree, tree-bfs, tree-bv, "
         "tree-bfs-bv; BlockNumber: onehot, int-distinct, int-pairwise, bv; tiling (at most one "
         "copy per cell): auto, ladder, pairwise, sum.")
def timeout_option(what: str):
    return click.option("--timeout", "-t", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
                        help=f"{what} (default: no limit).")


kind_option = click.option(
    "--kind", "-k", type=click.Choice(KIND_NAMES), default=None,
    help="The puzzle kind [default: from the file: a `board` line starts a tiling problem, two "
         "grids (givens, then block labels) are BlockNumber, one grid is Fillomino; a puzz.link "
         "URL or JSON says its kind].")
presolve_option = click.option(
    "--presolve/--no-presolve", default=DEFAULT_PRESOLVE, show_default=True,
    help="First fill what the deduction rules force, and bound every other cell's number; "
         "the solver then sees a smaller problem (the thesis encoding sees only the filled cells).")
format_option = click.option(
    "--format", "-f", "fmt", type=click.Choice(["plain", "pretty", "json"]), default="plain",
    show_default=True,
    help="plain: the puzzle file format (H W, then rows); pretty: region borders drawn; "
         "json: one object per puzzle per line.")


def _grid_text(puzzle, grid, fmt: str) -> str:
    kind = kind_of(puzzle)
    return kind.pretty(puzzle, grid) if fmt == "pretty" else kind.format_solution(grid)


def _json_line(result: SolveResult | None, path: str, *, status: str | None = None,
               message: str = "", solver: str = "", encoding: str = "") -> str:
    if result is None:
        obj = {"puzzle": path, "status": status, "grid": None, "solver": solver,
               "encoding": encoding, "times": {}, "message": message}
    else:
        obj = {
            "puzzle": path,
            "kind": kind_of(result.puzzle).name,
            "status": result.status.value,
            "grid": [list(row) for row in result.grid] if result.grid else None,
            "solver": result.solver,
            "encoding": result.encoding,
            "height": result.puzzle.height,
            "width": result.puzzle.width,
            "times": {k: round(v, 6) for k, v in result.times.items()},
            "presolved_cells": result.presolved_cells,
            "unique": result.unique,
            "message": result.message,
        }
        if result.second_grid is not None:
            obj["second_grid"] = [list(row) for row in result.second_grid]
            obj["differing_cells"] = [[r, c] for r, c in result.differing_cells]
        if result.forced is not None:
            obj["forced_cells"] = [[r, c, v] for r, row in enumerate(result.forced)
                                   for c, v in enumerate(row) if v]
        obj["checks"] = result.checks
    return json.dumps(obj)


@main.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@solve_solver_option
@solver_cmd_option
@encoding_option
@timeout_option("Stop the solver after this many seconds; with --unique/--forced, the whole session")
@presolve_option
@kind_option
@click.option("--unique", is_flag=True,
              help="Also prove the solution unique, or show a second one and the cells where "
                   "the two differ (exit 5 when not unique). One incremental solver session.")
@click.option("--forced", is_flag=True,
              help="Also find the cells that hold the same number in every solution (what an "
                   "author needs to see where a clue is missing).")
@click.option("--method", type=click.Choice(["auto", "bounds", "maximize", "split"]), default="auto",
              show_default=True,
              help="Tilings only: bounds = a search on covered >= k in one session (any solver); "
                   "maximize = z3's (maximize covered); split = tile blocks of about 10x10 first "
                   "(optimal when they reach the upper bound), then bounds; auto = split on boards "
                   "with a side of 20 or more and no copy limits, else bounds.")
@format_option
@reports_errors
def solve_cmd(puzzles, solver, solver_cmd, encoding, timeout, presolve, kind, unique, forced, method, fmt):
    """Solve each PUZZLE file (- reads standard input) and print the checked solution.

    Plain output is in the puzzle file format, so it can be fed back to `fillsmt check`;
    several solutions are separated by blank lines. Problems go to standard error, and the
    exit code is the largest of the puzzles' codes.

    \b
    Examples:
      fillsmt solve instances/fillomino/g12-5x5.txt
      fillsmt solve --solver yices --timeout 60 puzzles/*.txt
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
    rules = solver == RULES_SOLVER and not solver_cmd
    driver = None if rules else get_driver(solver, solver_cmd)
    if driver is not None:
        driver.require()
    worst, printed = EXIT_OK, 0
    for path in puzzles:
        start = time.perf_counter()
        try:
            puzzle = load(path, kind)
            if rules:
                require_rules_apply(puzzle)
        except InputError as e:
            worst = max(worst, e.exit_code)
            if fmt == "json":
                click.echo(_json_line(None, path, status="bad-input", message=str(e),
                                      solver=solver if rules else driver.name, encoding=encoding))
            warn(str(e))
            continue
        if isinstance(puzzle, TilingProblem):
            code, shown = _solve_tiling(puzzle, path, driver, encoding, timeout, method, unique or forced, fmt,
                                        printed, start)
            worst, printed = max(worst, code, key=_severity), printed + shown
            continue
        if rules:
            result = solve_with_rules(puzzle, timeout, unique=unique, forced=forced)
        else:
            result = solve(puzzle, driver, encoding, timeout, presolve=presolve, unique=unique, forced=forced)
        result.times["total"] = time.perf_counter() - start
        worst = max(worst, result.exit_code, key=_severity)
        if fmt == "json":
            click.echo(_json_line(result, path))
        elif result.grid is not None:
            if printed:
                click.echo()
            if fmt == "pretty":
                by = result.solver if result.message != "solved by the deduction rules alone" else "the deduction rules"
                by = f"the rules plus backtracking ({result.message})" if rules else by
                fixed = f" ({result.presolved_cells} cells fixed by the rules first)" \
                    if result.presolved_cells is not None and by != "the deduction rules" else ""
                click.echo(f"{puzzle.source}: solved by {by} in {result.times['total']:.2f} s{fixed}")
            click.echo(_grid_text(puzzle, result.grid, fmt), nl=False)
            _echo_extra(result, fmt)
            printed += 1
        if result.status is not Status.SAT or result.grid is None:
            warn(f"{puzzle.source}: {_status_words(result)}")
        elif unique:
            warn(f"{puzzle.source}: {_unique_words(result)}")
    sys.exit(worst)


def _solve_tiling(problem, path, driver, encoding, timeout, method, asked_unique, fmt, printed, start):
    """Solve one tiling problem for the most covered cells; print it; (exit code, grids shown)."""
    from fillsmt.tiling.optimize import Outcome, optimize, to_json
    from fillsmt.tiling.render import render_plain, render_pretty

    if asked_unique:
        raise InputError(f"{problem.source}: --unique and --forced are for puzzles with one answer, "
                         "not for tilings (which look for the most covered cells)")
    result = optimize(problem, driver, timeout, method=method, amo=encoding or "auto")
    total = time.perf_counter() - start
    code = EXIT_OK if result.optimal else EXIT_UNKNOWN
    if result.optimal:
        how = f"proven optimal in {result.time_proven:.2f} s"
    else:
        why = "time-out" if result.status is Outcome.TIMEOUT else f"the solver answered {result.status.value}"
        how = f"not proven optimal ({why}; no tiling covers more than {result.upper_bound})"
    summary = f"{problem.source}: covers {result.covered} of {problem.free_cells} cells, {how}"
    if fmt == "json":
        obj = {"puzzle": path, "kind": "tiling", **to_json(result)}
        obj["times"]["total"] = round(total, 6)
        obj["grid"] = render_plain(problem, result.placements).splitlines()
        click.echo(json.dumps(obj))
        if not result.optimal:
            warn(summary)
        return code, 0
    if printed:
        click.echo()
    if fmt == "pretty":
        click.echo(f"{summary} (solver {result.solver}, {result.checks} checks, {total:.2f} s in all)")
        click.echo(render_pretty(problem, result.placements), nl=False)
    else:
        click.echo(render_plain(problem, result.placements), nl=False)
        warn(summary)
    return code, 1


def _severity(code: int) -> tuple[int, int]:
    """Exit codes by how bad they are: 5 (solved, not unique) ranks just above 0."""
    return (1, 0) if code == EXIT_NOT_UNIQUE else (code, 0) if code == EXIT_OK else (code + 1, 0)


def _cells_text(cells) -> str:
    return ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def _unique_words(result: SolveResult) -> str:
    if result.unique is True:
        if result.solver == RULES_SOLVER:
            return "unique (the rules plus backtracking searched every alternative)"
        if result.checks == 0:
            return "unique (the deduction rules force every cell)"
        return "unique (the solver proved there is no other solution)"
    if result.unique is False:
        cells = result.differing_cells
        return f"multiple solutions; a second one differs in {len(cells)} cells: {_cells_text(cells)}"
    return f"uniqueness not settled: {result.message or 'unknown'}"


def _echo_extra(result: SolveResult, fmt: str) -> None:
    """After the grid: the second solution (with --unique) and the forced cells (with --forced)."""
    if result.second_grid is not None:
        click.echo()
        if fmt == "pretty" and isinstance(result.puzzle, FillominoPuzzle):
            click.echo(f"a second solution (differing cells marked *): {_cells_text(result.differing_cells)}")
            click.echo(_mark_cells(render_pretty(result.second_grid), result.second_grid, result.differing_cells),
                       nl=False)
        else:
            if fmt == "pretty":
                click.echo(f"a second solution, differing in {_cells_text(result.differing_cells)}:")
            click.echo(_grid_text(result.puzzle, result.second_grid, fmt), nl=False)
    if result.forced is not None and fmt == "pretty":
        count = sum(1 for row in result.forced for v in row if v)
        click.echo(f"cells forced in every solution ({count}; . = not forced):")
        width = max(len(str(v)) for row in result.forced for v in row)
        for row in result.forced:
            click.echo(" ".join((str(v) if v else ".").rjust(width) for v in row))
    elif result.forced is not None:
        click.echo()  # the forced cells as a grid: 0 where solutions disagree
        click.echo(format_grid(result.forced), nl=False)


def _mark_cells(text: str, grid, cells) -> str:
    """Mark ``cells`` in a pretty grid: the digit's padding before it becomes ``*``."""
    lines = text.splitlines(keepends=True)
    width = max(len(str(v)) for row in grid for v in row)
    for r, c in cells:
        line_no = 1 + 2 * r
        line = lines[line_no]
        # each cell is "│ vv " (border, space, value, space): find the c-th value column
        start = 1 + c * (width + 3)
        lines[line_no] = line[:start] + "*" + line[start + 1:]
    return "".join(lines)


def _status_words(result: SolveResult) -> str:
    if result.status is Status.UNSAT:
        if result.message and result.message != "no solution":
            return f"no solution: {result.message}"
        return "no solution (the solver proved the puzzle unsatisfiable)"
    words = {Status.UNKNOWN: "the solver could not decide", Status.TIMEOUT: "time-out",
             Status.ERROR: "solver failure"}[result.status]
    return f"{words}: {result.message}" if result.message else words


main.add_command(solve_cmd, name="solve")


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option("--limit", "-n", type=click.IntRange(min=1), default=2, show_default=True,
              help="Stop after this many distinct solutions (the count is then shown as N+).")
@click.option("--show", is_flag=True, help="Print each solution found (checked), blank-line separated.")
@solver_option
@solver_cmd_option
@encoding_option
@timeout_option("Stop the whole count after this many seconds")
@presolve_option
@kind_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@reports_errors
def count_cmd(puzzle, limit, show, solver, solver_cmd, encoding, timeout, presolve, kind, as_json):
    """Count PUZZLE's distinct solutions, up to --limit, in one incremental solver session.

    Prints the count ("2+" when the limit is hit: there may be more). Solutions differ in at
    least one cell's number; two spanning trees of the same regions are one solution. Exit
    code: 0 exactly one, 5 more than one, 1 none, 3 time-out before the count was settled.

    \b
    Examples:
      fillsmt count puzzle.txt
      fillsmt count --limit 10 --show puzzle.txt
      fillsmt count --solver z3 --json puzzle.txt
    """
    from fillsmt.pipeline import count

    driver = get_driver(solver, solver_cmd)
    driver.require()
    p = load(puzzle, kind)
    if isinstance(p, TilingProblem):
        raise InputError(f"{puzzle}: count is for puzzles with one answer, not for tilings "
                         "(solve one for the most covered cells with `fillsmt solve`)")
    start = time.perf_counter()
    found = count(p, driver, limit, encoding, timeout, presolve)
    seconds = time.perf_counter() - start
    n = len(found.grids)
    text = f"{n}" if found.complete else f"{n}+" if n >= limit else f"at least {n}"
    if as_json:
        click.echo(json.dumps({"puzzle": puzzle, "count": n, "complete": found.complete, "limit": limit,
                               "status": found.status.value, "solutions": [[list(r) for r in g] for g in found.grids],
                               "checks": found.checks, "seconds": round(seconds, 6), "message": found.message}))
    else:
        for grid in found.grids if show else []:
            click.echo(kind_of(p).format_solution(grid))
        click.echo(f"{p.source}: {text} solution{'' if n == 1 and found.complete else 's'}")
    if found.status is Status.ERROR:
        raise CliError(found.message, EXIT_SOLVER)
    if not found.complete and n < limit:
        warn(f"{p.source}: the count stopped early ({found.status.value}){': ' + found.message if found.message else ''}")
        sys.exit(EXIT_UNKNOWN)
    sys.exit(EXIT_NO_SOLUTION if n == 0 else EXIT_OK if n == 1 else EXIT_NOT_UNIQUE)


main.add_command(count_cmd, name="count")


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option("--output", "-o", metavar="FILE.smt2", help="Write the script here (default: standard output).")
@click.option("--force", is_flag=True, help="Replace FILE.smt2 if it already exists.")
@encoding_option
@presolve_option
@kind_option
@click.option("--bound", type=click.IntRange(min=0), metavar="K",
              help="Tilings only: write the question \"is there a tiling covering at least K cells?\" "
                   "(for any solver) instead of z3's (maximize covered).")
@reports_errors
def encode_cmd(puzzle, output, force, encoding, presolve, kind, bound):
    """Write the SMT-LIB script of PUZZLE, for any SMT-LIB 2 solver.

    The script ends with (check-sat) and (get-value …) for every cell; feed the solver's
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
    """
    p = load(puzzle, kind)
    if bound is not None and not isinstance(p, TilingProblem):
        raise InputError("--bound is for tiling problems only")
    if bound is not None:
        from fillsmt.tiling.encode import encode_bound

        text = encode_bound(p, bound, encoding or "auto").text()
    elif isinstance(p, FillominoPuzzle):
        encoding = encoding or DEFAULT_ENCODING
        text = encode_presolved(p, encoding) if presolve else encode(p, encoding)
    else:
        found = kind_of(p)
        text = found.encode(p, encoding or found.default_encoding).text()
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    _write_new_file(output, text, force, protect=puzzle)


def _write_new_file(output: str, text: str, force: bool, protect: str) -> None:
    target = Path(output)
    if protect != "-" and target.exists() and Path(protect).exists() and target.samefile(protect):
        raise InputError(f"{output}: refusing to overwrite the puzzle file itself")
    if target.is_dir():
        raise InputError(f"{output}: is a directory; give a file name")
    if target.exists() and not force:
        raise InputError(f"{output}: already exists; use --force to replace it")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{output}: the directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


main.add_command(encode_cmd, name="encode")


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("answer", metavar="ANSWER")
@format_option
@kind_option
@click.option("--encoding", "-e", type=click.Choice(ALL_ENCODINGS), default=None,
              help="The encoding the script was written with (BlockNumber: onehot answers are "
                   "recognised by their is_R_C_V names; numbers otherwise).")
@reports_errors
def decode_cmd(puzzle, answer, fmt, kind, encoding):
    """Turn a solver's saved output (ANSWER) for PUZZLE's script into the checked grid.

    ANSWER is what the solver printed for the script of `fillsmt encode` (sat, then the
    get-value pairs). The grid is printed only if it passes the independent checker.

    \b
    Examples:
      fillsmt encode puzzle.txt | z3 -in > answer.txt
      fillsmt decode puzzle.txt answer.txt
      fillsmt encode puzzle.txt | yices-smt2 | fillsmt decode puzzle.txt -
    """
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
    if isinstance(p, FillominoPuzzle):
        grid, why = checked_grid(p, run.values, source)
    else:
        grid, why = _decoded_other(p, run.values, source, encoding)
    if grid is None:
        raise CliError(why, EXIT_SOLVER)
    if fmt == "json" and isinstance(p, TilingProblem):
        from fillsmt.tiling.optimize import placements_json

        click.echo(json.dumps({"puzzle": puzzle, "status": "sat", "covered": grid.covered,
                               "grid": kind_of(p).format_solution(grid).splitlines(),
                               "placements": placements_json(p, grid.placements)}))
    elif fmt == "json":
        click.echo(json.dumps({"puzzle": puzzle, "status": "sat", "grid": [list(r) for r in grid]}))
    else:
        click.echo(_grid_text(p, grid, fmt), nl=False)
        if isinstance(p, TilingProblem):
            warn(f"{source}: the tiling covers {grid.covered} of {p.free_cells} cells")


def _decoded_other(p, values, source, encoding):
    kind = kind_of(p)
    if encoding is None and kind.name == "blocknumber":
        encoding = "onehot" if any(k.startswith("is_") for k in values) else "int-distinct"
    encoding = encoding or kind.default_encoding
    problem = kind.problem(p, kind.encode(p, encoding), encoding, source)
    try:
        grid = problem.decode(values)
    except InputError as e:
        return None, str(e)
    except FillsmtError as e:
        return None, f"{source}: {e}"
    problems = problem.check(grid)
    if problems:
        return None, f"{source}: the answer fails the independent check: {'; '.join(problems)}"
    return grid, ""


main.add_command(decode_cmd, name="decode")


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("solution", metavar="SOLUTION")
@kind_option
@reports_errors
def check_cmd(puzzle, solution, kind):
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
    covers = f" (covers {grid.covered} of {p.free_cells} cells)" if isinstance(p, TilingProblem) else ""
    click.echo(f"{source}: valid{covers}")


main.add_command(check_cmd, name="check")


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.option("--to", "target", type=click.Choice(["url", "plain", "json"]), required=True,
              help="url: a puzz.link URL; plain: the kind's puzzle file format; json: see docs/json-schema.md.")
@click.option("--output", "-o", metavar="FILE", help="Write here (default: standard output); never replaces "
                                                      "an existing file without --force.")
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
    from fillsmt.formats import json_format, puzzlink

    p = load(puzzle, kind)
    if target == "url":
        if isinstance(p, TilingProblem):
            raise InputError(f"{puzzle}: puzz.link has no tiling puzzles; convert it --to json or --to plain")
        text = puzzlink.to_url(p) + "\n"
    elif target == "json":
        text = json_format.format_puzzle(p)
        text = text if text.endswith("\n") else text + "\n"
    else:
        text = kind_of(p).format_puzzle(p)
    if output is None or output == "-":
        click.echo(text, nl=False)
    else:
        _write_new_file(output, text, force, protect=puzzle)


@main.command(context_settings=CONTEXT)
@click.argument("puzzle", metavar="PUZZLE")
@click.argument("solution", metavar="[SOLUTION]", required=False)
@click.option("--output", "-o", metavar="FILE.svg", required=True, help="Where to write the SVG picture.")
@click.option("--force", is_flag=True, help="Replace FILE.svg if it already exists.")
@click.option("--solve", "solve_it", is_flag=True, help="Solve the puzzle first (default solver) and draw the solution.")
@kind_option
@reports_errors
def render(puzzle, solution, output, force, solve_it, kind):
    """Draw PUZZLE as an SVG picture, solved when a SOLUTION file (checked first) or --solve is given.

    Thin cell lines, heavy region borders, clues in bold black, solved numbers in blue.

    \b
    Examples:
      fillsmt render instances/fillomino/g12-5x5.txt -o g12.svg
      fillsmt render instances/fillomino/g12-5x5.txt --solve -o g12-solved.svg
      fillsmt solve puzzle.txt | fillsmt render puzzle.txt - -o solved.svg
    """
    from fillsmt.svg import render_svg

    p = load(puzzle, kind)
    found = kind_of(p)
    grid = None
    if solution is not None:
        text, source = read_text(solution)
        grid = found.parse_solution(text, source, p)
        problems = found.check(p, grid)
        if problems:
            raise CliError(f"{source}: not a solution of {puzzle}: {'; '.join(problems)}", EXIT_NO_SOLUTION)
    elif solve_it and isinstance(p, TilingProblem):
        from fillsmt.tiling.optimize import optimize
        from fillsmt.tiling.solution import Tiling

        best = optimize(p, DEFAULT_SOLVER)
        grid = Tiling(p, tuple(best.placements))
    elif solve_it:
        driver = get_driver(DEFAULT_SOLVER)
        driver.require()
        result = solve(p, driver)
        if result.grid is None:
            raise CliError(f"{puzzle}: {_status_words(result)}", result.exit_code)
        grid = result.grid
    _write_new_file(output, render_svg(p, grid, title=p.source), force, protect=puzzle)


@main.command(context_settings=CONTEXT)
@reports_errors
def solvers():
    """List the solvers fillsmt can drive, whether each is installed, and its version.

    \b
    Example:
      fillsmt solvers
    """
    names = list(SOLVERS) + [f"pysmt:{b}" for b in installed_backends()]
    rows = []
    for name in names:
        driver = get_driver(name)
        ok = driver.available()
        version = driver.version() if ok else f"not installed ({driver.install_hint})"
        rows.append((name, "yes" if ok else "no", version or "?", driver.location() if ok else ""))
    rows.append((RULES_SOLVER, "yes", f"fillsmt {__version__}", "built in: deduction rules + backtracking (Fillomino)"))
    widths = [max(len(r[i]) for r in rows + [("SOLVER", "AVAILABLE", "VERSION", "LOCATION")]) for i in range(4)]
    for row in [("SOLVER", "AVAILABLE", "VERSION", "LOCATION")] + rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())


if __name__ == "__main__":  # pragma: no cover
    main()
