"""What every command shares: error reporting, the shared options and their value types.

The library raises :class:`~fillsmt.errors.FillsmtError`; only the CLI turns errors into
messages and exit codes (0 solved/valid, 1 no solution/invalid, 2 bad input, 3 unknown or
time-out, 4 solver missing or failed, 5 solved but not unique).
"""

from __future__ import annotations

import contextlib
import functools
import math
from typing import Callable, Iterable, Iterator

import click

from fillsmt import kinds
from fillsmt.engine.interrupts import GRACE, OutOfTime, time_limit
from fillsmt.errors import EXIT_NOT_UNIQUE, EXIT_OK, EXIT_UNKNOWN, FillsmtError, InputError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

LONGEST_WAIT = 2**31 // 1000 - 1
"""The longest time-out a wait in the operating system takes (``poll`` counts milliseconds in
32 bits): about 24.8 days. A longer ``--timeout`` is clamped to it, which in practice is no limit."""


class CliError(click.ClickException):
    """A message for the user and the exit code that goes with it."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click declares it a class default; each error has its own


def reports_errors(command):
    """Turn the library's errors into one-line messages with the documented exit codes."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except FillsmtError as e:
            raise CliError(str(e), e.exit_code) from None

    return wrapper


@contextlib.contextmanager
def stopped_at(timeout: float | None, what: str) -> Iterator[None]:
    """The block, stopped by the alarm of :func:`~fillsmt.engine.interrupts.time_limit` once it runs
    :data:`~fillsmt.engine.interrupts.GRACE` seconds past ``timeout``, whatever it is doing (presolve,
    encoding, a session, writing; stages that watch the time-out themselves end before): then a
    one-line message, ``time-out: no WHAT within T s``, and exit 3. ``None``: no limit."""
    try:
        with time_limit(None if timeout is None else timeout + GRACE):
            yield
    except OutOfTime:
        raise CliError(timeout_message(what, timeout), EXIT_UNKNOWN) from None


def timeout_message(what: str, timeout: float | None) -> str:
    """The one-line message of a command stopped by its ``--timeout``."""
    return f"time-out: no {what} within {timeout:g} s" if timeout is not None else f"time-out: no {what}"


def puzzle_paths(paths: Iterable[str]) -> Iterator[tuple[str, InputError | None]]:
    """Each PUZZLE argument, with a folder replaced by the puzzle files in it, read as ``bench``
    reads a folder (every ``*.txt`` below it, sorted; :func:`fillsmt.bench.jobs.puzzle_files`):
    (path, None), or (the folder, the error) for a folder without puzzle files. Anything else
    (a file, ``-``, a URL) goes through as given, to be read or refused by the command."""
    import os

    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield path, None
            continue
        from fillsmt.bench.jobs import puzzle_files

        try:
            found = puzzle_files([path])
        except InputError as e:
            yield path, e
            continue
        for inside in found:
            yield inside, None


def warn(message: str) -> None:
    click.echo(f"fillsmt: {message}", err=True)


def severity(code: int) -> tuple[int, int]:
    """Exit codes by how bad they are: 5 (solved, not unique) ranks just above 0."""
    return (1, 0) if code == EXIT_NOT_UNIQUE else (code, 0) if code == EXIT_OK else (code + 1, 0)


# --- value types ------------------------------------------------------------------------------------


class Seconds(click.ParamType):
    """A time-out: a positive, finite number of seconds (clamped to :data:`LONGEST_WAIT`)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if math.isnan(number) or math.isinf(number) or number <= 0:
            self.fail(f"{value!r}: expected a positive, finite number of seconds", param, ctx)
        return min(number, LONGEST_WAIT)


class EncodingName(click.ParamType):
    """An encoding of some registered kind (checked against the puzzle's kind later)."""

    name = "encoding"

    def convert(self, value, param, ctx):
        try:
            known = kinds.all_encodings()
        except FillsmtError as e:
            self.fail(str(e), param, ctx)
        if value not in known:
            self.fail(f"{value!r} is not one of {', '.join(map(repr, known))}", param, ctx)
        return value


class LazyChoice(click.Choice):
    """A :class:`click.Choice` whose choices come from ``make()`` when first needed (parsing the
    option, or its command's help): importing the command, e.g. for ``fillsmt --help``'s list,
    does not load what they are made from (``bench``'s encodings: every kind)."""

    def __init__(self, make: Callable[[], Iterable[str]], case_sensitive: bool = True):
        self._make: Callable[[], Iterable[str]] = make
        self._choices: tuple[str, ...] | None = None
        super().__init__((), case_sensitive)

    @property
    def choices(self) -> tuple[str, ...]:
        if self._choices is None:
            self._choices = tuple(self._make())
        return self._choices

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ sets it; ours come from make()
        pass


class KindName(click.ParamType):
    """A registered kind's name (with ``generating``: one whose kind can make new puzzles)."""

    name = "kind"

    def __init__(self, generating: bool = False):
        self.generating = generating

    def convert(self, value, param, ctx):
        from fillsmt.protocol import Generates

        try:
            if self.generating:
                names = [k.name for k in kinds.kinds() if isinstance(k, Generates)]
            else:
                names = list(kinds.kind_names())
        except FillsmtError as e:
            self.fail(str(e), param, ctx)
        if value not in names:
            self.fail(f"{value!r} is not one of {', '.join(map(repr, names))}", param, ctx)
        return value


# --- options ----------------------------------------------------------------------------------------


def solver_option(*, searching: bool = False):
    """``--solver``; ``searching``: the command also takes the solvers that run the kind's own
    search instead of an SMT solver (``solve``)."""
    from fillsmt.drivers.registry import searching_solver_names, solver_names

    own = searching_solver_names() if searching else []
    extra = (
        f"; {' or '.join(own)} for the kind's own search, no SMT (Fillomino: the thesis' deduction rules "
        "plus backtracking)"
        if own
        else ""
    )
    return click.option(
        "--solver",
        "-s",
        default="yices",
        show_default=True,
        metavar="NAME",
        help=f"Solver: {', '.join(solver_names(searching=False))}; pysmt:NAME for one of pysmt's solvers; "
        f"portfolio:A,B,… to race solvers and take the first answer{extra}.",
    )


solver_cmd_option = click.option(
    "--solver-cmd",
    metavar="CMD",
    help="Any other SMT-LIB 2 solver, run as CMD with the script on standard input "
    '(e.g. "cvc5 --lang smt2 --produce-models"). Overrides --solver.',
)


class KindsHelpOption(click.Option):
    """An option whose help ends with every registered kind's encodings, listed when shown
    (with ``scripts``, only those whose script is exact on its own: :attr:`fillsmt.protocol.Encoding.method`)."""

    def __init__(self, *args, scripts: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.scripts = scripts

    def get_help_record(self, ctx):
        from fillsmt.protocol import encoding_names, script_names

        record = super().get_help_record(ctx)
        if record is None:
            return None
        listed = "; ".join(
            f"{kind.name}: {', '.join(script_names(kind) if self.scripts else encoding_names(kind))} "
            f"[default: {kind.default_encoding}]"
            for kind in kinds.kinds()
        )
        return record[0], f"{record[1]} {listed}."


def encoding_option(scripts: bool = False):
    """``--encoding``; ``scripts``: the help lists only the scripts (``encode``, ``export``)."""
    return click.option(
        "--encoding",
        "-e",
        cls=KindsHelpOption,
        scripts=scripts,
        type=EncodingName(),
        default=None,
        metavar="NAME",
        help="How the puzzle is written as SMT-LIB [default: the kind's own]. By kind:",
    )


def timeout_option(what: str, **kwargs):
    return click.option(
        "--timeout",
        "-t",
        type=Seconds(),
        metavar="SECONDS",
        help=f"{what} (default: {kwargs.get('default') or 'no limit'}; a positive number; "
        f"over {LONGEST_WAIT} s, about 24 days, counts as that).",
        **kwargs,
    )


kind_option = click.option(
    "--kind",
    "-k",
    type=KindName(),
    default=None,
    metavar="KIND",
    help="The puzzle kind: fillomino, blocknumber, tiling, or one registered by a plugin [default: "
    "from the file: a `board` line starts a tiling problem, two grids (givens, then block "
    "labels) are BlockNumber, one grid is Fillomino; a puzz.link URL or JSON says its kind].",
)
presolve_option = click.option(
    "--presolve/--no-presolve",
    default=True,
    show_default=True,
    help="First fill what the deduction rules force, and bound every other cell's number; "
    "the solver then sees a smaller problem (the thesis encoding sees only the filled cells).",
)


def text_or_json_option(json_help: str):
    """``--format text|json`` (text by default) for a command whose text is for a person;
    ``json_help`` says what the JSON is."""
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help=f"text for a person; json: {json_help}",
    )


format_option = click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["plain", "pretty", "json"]),
    default="plain",
    show_default=True,
    help="plain: the puzzle file format (H W, then rows); pretty: region borders drawn; "
    "json: one object per puzzle per line.",
)
