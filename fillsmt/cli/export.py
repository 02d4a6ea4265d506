"""The ``export`` command: a benchmark family in SMT-LIB's conventions (:mod:`fillsmt.bench.families`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from fillsmt.bench.families import DEFAULT_LICENSE, FAMILIES, MANIFEST, export_puzzle, read_manifest
from fillsmt.cli.common import (
    CONTEXT,
    KindsHelpOption,
    kind_option,
    reports_errors,
    solver_option,
    timeout_option,
    warn,
)
from fillsmt.drivers import get_driver
from fillsmt.engine.interrupts import run_within
from fillsmt.errors import EXIT_UNKNOWN, InputError
from fillsmt.formats.source import load


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True)
@click.option(
    "--output",
    "-o",
    "directory",
    required=True,
    metavar="DIR",
    help="The folder for the .smt2 files and manifest.csv (made if missing).",
)
@click.option(
    "--encoding",
    "-e",
    "encodings",
    multiple=True,
    metavar="ENCODING",
    cls=KindsHelpOption,
    scripts=True,
    help="An encoding of the puzzles' kind, or default (the kind's own); repeat for several "
    "[default: default]. By kind:",
)
@click.option(
    "--family",
    type=click.Choice(["plain", "unique", "both"]),
    default="both",
    show_default=True,
    help="plain: does the puzzle have a solution? unique: another one than the first? (unsat "
    "exactly for unique puzzles; for a tiling: one cell more than the best?)",
)
@click.option("--resume", is_flag=True, help="Skip the files manifest.csv already lists (and that exist).")
@click.option(
    "--license",
    "license_",
    default=DEFAULT_LICENSE,
    show_default=True,
    metavar="TEXT",
    help="The :license of the files.",
)
@solver_option()
@timeout_option("Seconds for proving one puzzle's statuses")
@kind_option
@reports_errors
def export(puzzles, directory, encodings, family, resume, license_, solver, timeout, kind):
    """Write SMT-LIB benchmark files: one per puzzle × encoding × family, with the benchmark header
    (:smt-lib-version 2.6, :source, :license, :category "crafted", :status as fillsmt proved it, every
    sat model checked), ending at (check-sat) and (exit), and a manifest.csv (file, puzzle, kind,
    encoding, family, logic, status, size, seconds, confirmed).

    \b
    Examples:
      fillsmt export ../shared/instances/fillomino/janko-thesis100/puzzles/*.txt -o bench/ -e default -e thesis
      fillsmt export instances/tiling/tetris-7x7.txt -o out/ --family plain
      fillsmt export puzzles/*.txt -o bench/ --resume

    \b
    Exit codes: 0 written, 2 bad input (or an encoding that is a solving method, not a script),
    3 a puzzle not exported within --timeout (the others are), 4 solver missing or failed.
    """
    from fillsmt.bench.jobs import puzzle_files

    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise InputError(f"--output {directory}: is a file; give a folder")
    target.mkdir(parents=True, exist_ok=True)
    if not resume and (target / MANIFEST).exists():
        raise InputError(
            f"--output {directory}: already holds a {MANIFEST}; use --resume to add to it, or choose another folder"
        )
    driver = get_driver(solver)
    driver.require()
    wanted = FAMILIES if family == "both" else (family,)
    done = read_manifest(target)
    written = skipped = 0
    statuses: dict[str, int] = {}
    files = puzzle_files(puzzles)
    late = 0
    for path in files:
        puzzle = load(path, kind)
        rows = run_within(
            timeout,
            lambda: export_puzzle(
                puzzle, target, list(encodings) or ["default"], wanted, driver, timeout, license_, done
            ),
            lambda: None,
        )
        if rows is None:  # a stage that does not watch the time-out (writing a huge encoding) ran past it
            warn(f"{path}: time-out: not exported within {timeout:g} s (run again with --resume for the rest)")
            late += 1
            continue
        written += len(rows)
        skipped += not rows
        for row in rows:
            statuses[row["status"]] = statuses.get(row["status"], 0) + 1
            if row["status"] == "unknown":
                warn(f"{row['file']}: status unknown ({solver} did not settle {path} in time)")
    counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    warn(
        f"{written} files written to {directory} ({counts or 'none'})"
        + (f"; {skipped} puzzles already done" if resume and skipped else "")
    )
    if late:
        sys.exit(EXIT_UNKNOWN)
