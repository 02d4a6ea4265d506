"""Write the command reference, docs/cli.md, from the commands' own help texts.

    python3 docs/make_cli_md.py > docs/cli.md

``tests/test_readme.py`` fails when docs/cli.md differs from what this prints, so the reference
says what ``fillsmt COMMAND --help`` says. The help is laid out 78 columns wide, as an
80-column terminal shows it.
"""

from __future__ import annotations

import click

from fillsmt import limits
from fillsmt.cli import COMMANDS, main

WIDTH = 78

INTRO = """\
# Command reference

Every command of `fillsmt`, with the help text that `fillsmt COMMAND --help` prints (this page is
made from it: `python3 docs/make_cli_md.py > docs/cli.md`). A PUZZLE is a file, `-` for standard
input, a puzz.link URL or a JSON puzzle; the exit codes are in the [README](../README.md#limits-and-exit-codes).
"""


CAPS = {
    "FILLSMT_MAX_SIDE": "a grid's or board's height and width, in every format",
    "FILLSMT_MAX_CELLS": "a grid's or board's cells (clues are at most the cells)",
    "FILLSMT_MAX_INPUT": "bytes read from one file or standard input",
    "FILLSMT_MAX_OUTPUT": "bytes a solver may print in one run or one session reply (past it the solver "
                          "is killed)",
    "FILLSMT_MAX_DEPTH": "nesting of a solver's answer",
    "FILLSMT_MAX_PRESOLVE": "(cell, possible number) pairs Fillomino's deduction rules reason about; a "
                            "grid with larger open areas is encoded without them, with bounds that need "
                            "no deduction",
}
"""What each cap bounds; the defaults are :mod:`fillsmt.limits`' own."""

OUTRO = """\
## Limits and the environment

Every number fillsmt reads (puzzle files of every kind, JSON, URLs, solution files, solver
answers) goes through one reader: ASCII digits only, at most {digits} of them, then these caps.
Each is an environment variable, raised by setting it (`FILLSMT_MAX_SIDE=2000 fillsmt solve
big.txt`); past one, the message names the variable and the exit code is 2 (a puzzle or a file)
or 4 (a solver's answer).

| variable | default | bounds |
|---|---:|---|
{caps}

`FILLSMT_TRACE=FILE` does what `fillsmt --trace FILE` does: every script and session exchange
sent to a solver, and its answers as comments, are appended to FILE. `FILLSMT_KINDS=module:Class`
(comma-separated) loads puzzle kinds from other packages ([architecture.md](architecture.md#adding-a-kind)).

`--timeout SECONDS` must be a positive, finite number (`0`, `-1`, `nan` are a usage error, exit
2); more than about 24 days counts as that. It bounds every stage of a command: the solver is
stopped at the time-out, and whatever still runs a second later (reading, the deduction rules,
the encoding) is stopped too; the command says so in one line and exits 3 (`solve` and `rate`
per puzzle, going on with the others; `export` marks a puzzle the solver did not settle in time
`unknown`). A command with a result so far prints it, marked as such, and exits 3: `repair` the
best repair found (unique, not proven the fewest), `minimize` the clues removed so far (unique,
not proven minimal), `rate` the search's lower bounds ("stopped early", with the label when they
make it certain), `explain` the steps so far, `count` the solutions found so far. Where no limit
could mean a wait without end there is a default: `repair` and `minimize` 60 s, `rate` 30 s a
puzzle, `bench` 60 s a run; elsewhere, without `--timeout` there is no limit.

SIGINT (Ctrl-C), SIGTERM and SIGHUP end any command within a second, with every solver process
and worker it started, and exit with 128 + the signal's number (130, 143, 129); `bench` keeps the
rows that finished (`--resume` runs the rest).

A file a command writes (`encode -o`, `convert -o`, `render -o`, `generate -o`, `explain --svg`,
`bench --csv`, `--plot`, `--summary`) is written under a temporary name and moved into place. An
existing file is replaced only with `--force` (`bench --csv`: `--resume` or `--overwrite`;
`bench --plot`, `--scatter` and `--summary` are replaced), the puzzle file never, nor anything
that is not a regular file. One rule for folders: the folder of a file named on its own must
exist (exit 2 otherwise: a misspelt folder is not made), `bench`'s outputs included; the folders
of a series of files (a name with `{{n}}` or `{{seed}}`, as in `generate --count 5 -o
'puzzles/p{{n}}.txt'`) and an output folder (`export -o DIR`) are made when missing. `-` as an
output (`encode`, `convert`, `render`, `generate`) is standard output. Two arguments cannot both
be `-` (standard input).
"""


def _caps() -> str:
    rows = []
    for name, what in CAPS.items():
        value = limits._DEFAULTS[name]
        shown = f"{value // (1024 * 1024)} MiB" if name in ("FILLSMT_MAX_INPUT", "FILLSMT_MAX_OUTPUT") else str(value)
        rows.append(f"| `{name}` | {shown} | {what} |")
    assert set(CAPS) == set(limits._DEFAULTS), "a cap without a description here"
    return "\n".join(rows)


def _help(command: click.Command, name: str, parent: click.Context | None) -> tuple[str, click.Context]:
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    ctx = click.Context(command, info_name=name, parent=parent, **settings)
    return command.get_help(ctx), ctx


def reference() -> str:
    """The whole page."""
    top, ctx = _help(main, "fillsmt", None)
    names = sorted(COMMANDS)
    parts = [INTRO, "Commands: " + ", ".join(f"[{n}](#fillsmt-{n})" for n in names) + ".\n",
             "## fillsmt\n", f"```text\n{top}\n```\n"]
    for name in names:
        text, _ = _help(main.get_command(ctx, name), name, ctx)
        parts += [f"## fillsmt {name}\n", f"```text\n{text}\n```\n"]
    parts.append(OUTRO.format(digits=limits.MAX_DIGITS, caps=_caps()))
    return "\n".join(parts)


if __name__ == "__main__":
    print(reference(), end="")
