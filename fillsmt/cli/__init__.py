"""The ``fillsmt`` command line: a thin layer over the library.

Every command is registered once, in :data:`COMMANDS` (name → the module and function that
hold it), and imported only when it is used; the options, error reporting and file writing they
share live in :mod:`.common` and :mod:`.output`.
"""

from __future__ import annotations

import os

import click

from fillsmt import __version__
from fillsmt.cli.common import CONTEXT, CliError, reports_errors, warn
from fillsmt.engine.interrupts import count_the_start, exit_on_signals
from fillsmt.errors import EXIT_BAD_INPUT
from fillsmt.imports import resolve
from fillsmt.version import PROG, VERSION_MESSAGE, VERSION_OPTIONS

COMMANDS = {
    "bench": "fillsmt.cli.bench:bench",
    "check": "fillsmt.cli.files:check",
    "convert": "fillsmt.cli.files:convert",
    "count": "fillsmt.cli.count:count",
    "decode": "fillsmt.cli.files:decode",
    "encode": "fillsmt.cli.files:encode",
    "explain": "fillsmt.cli.setter:explain",
    "export": "fillsmt.cli.export:export",
    "generate": "fillsmt.cli.generate:generate",
    "hint": "fillsmt.cli.setter:hint",
    "minimize": "fillsmt.cli.setter:minimize",
    "rate": "fillsmt.cli.rate:rate",
    "render": "fillsmt.cli.files:render",
    "repair": "fillsmt.cli.setter:repair",
    "solve": "fillsmt.cli.solve:solve",
    "solvers": "fillsmt.cli.solvers:solvers",
}
"""Every command, by name: ``module:function``."""


class LazyGroup(click.Group):
    """The command group: each command is imported from :data:`COMMANDS` when it is used."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        return resolve(COMMANDS[name])

    def main(self, *args, **kwargs):
        if (args[0] if args else kwargs.get("args")) is None:  # this process's own command line
            count_the_start()  # a starved start counts against the first --timeout
        with exit_on_signals():  # SIGINT/SIGTERM/SIGHUP: solvers killed, exit 128 + N
            try:
                return super().main(*args, **kwargs)
            except OSError as e:  # click itself ends a broken pipe (EPIPE); any other failure lands here
                _failed_output(e)


def _failed_output(error: OSError) -> None:
    """An error of the operating system no command turned into a message (standard output on a
    full disk, ``> /dev/full``): one line and exit 2, as for a file that cannot be written. The
    text still waiting in standard output's buffer goes to /dev/null, so that the interpreter's
    last flush does not fail again on the way out."""
    import sys

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    what = f"{error.filename}: " if error.filename else "cannot write the output: "
    try:
        warn(f"{what}{error.strerror or error}")
    except OSError:
        pass
    raise SystemExit(EXIT_BAD_INPUT)


def _start_trace(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--trace: check the file can be appended to, then record through FILLSMT_TRACE (which
    bench's worker processes inherit)."""
    if value is None:
        return None
    from fillsmt.drivers import trace

    target = os.path.abspath(value)
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise click.BadParameter(f"cannot append to {value}: {e.strerror}", ctx, param) from None
    os.environ[trace.ENV] = target
    return target


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(__version__, *VERSION_OPTIONS, prog_name=PROG, message=VERSION_MESSAGE)
@click.option(
    "--trace",
    metavar="FILE",
    callback=_start_trace,
    expose_value=False,
    is_eager=True,
    help="Append everything sent to a solver, and its answers as comments, to FILE "
    "(also: the FILLSMT_TRACE environment variable). The file is never truncated.",
)
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

    Output: - is standard output; the folder of a file named on its own (-o, --csv, --plot,
    --summary) must exist; the folders of a series of files (a name with {n} or {seed}) and
    an output folder (export -o DIR) are made when missing. An existing file is replaced only
    with --force (or where a command says so), never the puzzle itself.

    \b
    Exit codes: 0 solved / valid, 1 no solution / invalid solution, 2 usage or bad input,
    3 unknown or time-out, 4 solver missing or failed, 5 solved but not unique (--unique, --forced).
    """


__all__ = ["COMMANDS", "CliError", "main", "reports_errors", "warn"]
