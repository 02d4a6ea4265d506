"""The ``generate`` command: new puzzles with exactly one solution.

A thin layer over the kinds that make puzzles (:class:`~fillsmt.protocol.Generates`: each
kind's generator and its uniqueness oracle). Every puzzle printed has
been proved unique (by the oracle, or by the deduction rules filling it alone) and its solution
has passed the independent checker.
"""

from __future__ import annotations

import random
import re
import sys

import click

from fillsmt import limits
from fillsmt.cli.common import CONTEXT, CliError, KindName, LazyChoice, reports_errors, timeout_option, warn
from fillsmt.cli.output import check_target, write_file
from fillsmt.engine.interrupts import run_within
from fillsmt.errors import EXIT_UNKNOWN, InputError
from fillsmt.kinds import DEFAULT_KIND, get_kind, kind_names
from fillsmt.protocol import Generates
from fillsmt.setter.generation import Made, Options
from fillsmt.setter.symmetry import SYMMETRIES


def _makers() -> list[Generates]:
    """The registered kinds that make puzzles."""
    return [k for k in map(get_kind, kind_names()) if isinstance(k, Generates)]


def _makers_offer(values) -> list[str]:
    """What the kinds that make puzzles offer (``values(kind)``), in order, each once."""
    return list(dict.fromkeys(v for k in _makers() for v in values(k)))


class NotedOption(click.Option):
    """An option whose help holds ``{notes}``: what the kinds that make puzzles say of its
    default (:meth:`~fillsmt.protocol.Generates.option_notes`), filled in only when the help
    is shown, so that importing the command loads no kind."""

    def get_help_record(self, ctx):
        template = self.help or ""
        notes = "; ".join(n for k in _makers() if (n := k.option_notes().get(self.name or "")))
        self.help = template.replace("{notes}", notes or "the kind's")
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = template


MAX_SIDE = 60
"""The largest height or width ``generate`` accepts (a 30x30 Fillomino takes minutes)."""


# --- generate -----------------------------------------------------------------------------------


def parse_size(text: str) -> tuple[int, int]:
    """``HxW`` (or ``N`` for NxN) as (height, width), within 1..:data:`MAX_SIDE`."""
    found = re.fullmatch(r"\s*([0-9]+)\s*(?:[xX×]\s*([0-9]+))?\s*", text)
    if found is None:
        raise InputError(f"--size {text!r}: expected HEIGHTxWIDTH, e.g. 10x10 (or one number for a square)")
    try:
        height = limits.checked_int(found.group(1), "--size")
        width = limits.checked_int(found.group(2), "--size") if found.group(2) is not None else height
    except ValueError as e:
        raise InputError(str(e)) from None
    if height < 1 or width < 1:
        raise InputError(f"--size {text!r}: a grid needs at least one row and one column")
    if height > MAX_SIDE or width > MAX_SIDE:
        raise InputError(f"--size {text!r}: at most {MAX_SIDE} rows and {MAX_SIDE} columns")
    return height, width


def parse_seed(text: str | None) -> int | str:
    """An integer seed when the text is one, else the text itself (any words work)."""
    if text is None:
        return random.SystemRandom().randrange(10**9)
    return int(text) if re.fullmatch(r"-?[0-9]{1,18}", text.strip()) else text


def puzzle_seeds(seed: int | str, count: int) -> list[int | str]:
    """The seed of each puzzle: ``seed`` itself for one, ``SEED-1`` … ``SEED-K`` for K."""
    return [seed] if count == 1 else [f"{seed}-{i}" for i in range(1, count + 1)]


def output_paths(output: str | None, count: int, seeds: list[int | str], force: bool) -> list[str | None]:
    """Where each puzzle goes (None: standard output), checked before any work is done."""
    if output is None or output == "-":
        return [None] * count
    if count > 1 and "{n}" not in output and "{seed}" not in output:
        raise InputError(
            f"-o {output}: with --count {count}, the file name needs {{n}} (1, 2, …) or "
            "{seed}, e.g. -o puzzles/p{n}.txt"
        )
    series = "{n}" in output or "{seed}" in output
    paths = [output.replace("{n}", str(i)).replace("{seed}", str(s)) for i, s in enumerate(seeds, start=1)]
    for path in paths:
        check_target(path, force=force, series=series)  # a series' missing folders are made
    return list[str | None](paths)


def parse_clues(text: str | None) -> tuple[int, int] | None:
    """``--clues N`` or ``N-M`` as (fewest, most)."""
    if text is None:
        return None
    found = re.fullmatch(r"\s*([0-9]{1,6})\s*(?:-\s*([0-9]{1,6})\s*)?", text)
    if found is None:
        raise InputError(f"--clues {text!r}: expected a number of clues N or a range N-M, e.g. 19-56")
    fewest = int(found.group(1))
    most = int(found.group(2)) if found.group(2) is not None else fewest
    if fewest > most:
        raise InputError(f"--clues {text!r}: the range's first number is larger than its second")
    return fewest, most


def _grid_file(path: str, kind: str, option: str):
    """A grid file's cells (in the kind's puzzle format) and its size."""
    from fillsmt.formats.source import load

    puzzle = load(path, kind)
    if not isinstance(getattr(puzzle, "cells", None), tuple):
        raise InputError(f"{option} {path}: a {kind} grid has no cells to take")
    return puzzle


def style_options(kind: str, size: str | None, solution: str | None, positions: str | None):
    """(height, width, the solution's cells or None, the clue cells or None) from --size,
    --solution FILE (every cell filled, a valid solution) and --positions FILE (non-zero: a clue)."""
    sizes = []
    grid = cells = None
    if solution is not None:
        given = _grid_file(solution, kind, "--solution")
        empty = [(r, c) for r, row in enumerate(given.cells) for c, v in enumerate(row) if not v]
        if empty:
            raise InputError(
                f"--solution {solution}: not a filled grid (r{empty[0][0] + 1}c{empty[0][1] + 1} is empty)"
            )
        grid = given.cells
        sizes.append(("--solution", given.height, given.width))
    if positions is not None:
        marked = _grid_file(positions, kind, "--positions")
        cells = frozenset((r, c) for r, row in enumerate(marked.cells) for c, v in enumerate(row) if v)
        if not cells:
            raise InputError(f"--positions {positions}: no cell is marked (non-zero) for a clue")
        sizes.append(("--positions", marked.height, marked.width))
    if size is not None:
        sizes.append(("--size", *parse_size(size)))
    if not sizes:
        raise InputError("--size is needed (or --solution FILE or --positions FILE, which have a size)")
    (first, height, width), *others = sizes
    for name, h, w in others:
        if (h, w) != (height, width):
            raise InputError(f"{name} is {h}x{w}, {first} {height}x{width}")
    return height, width, grid, cells


def check_options(kind, size, solver, timeout, asked: dict | None = None) -> Options:
    """The request, checked: the size and the files here, the rest by the kind (which fills in
    its defaults). ``asked``: the other options given (``difficulty``, ``unclued``,
    ``max_region``, ``max_empty_area``, ``minimal``, ``symmetry``, ``clues``, ``solution``,
    ``positions``: the last two file names, ``regions``), None for those not given."""
    given = asked or {}
    difficulty, unclued, minimal = given.get("difficulty"), given.get("unclued"), given.get("minimal", False)
    max_region, max_empty_area = given.get("max_region"), given.get("max_empty_area")
    symmetry, clues = given.get("symmetry"), given.get("clues")
    solution, positions, regions = given.get("solution"), given.get("positions"), given.get("regions")
    height, width, grid, cells = style_options(kind, size, solution, positions)
    opts = Options(
        kind,
        height,
        width,
        solver,
        timeout,
        difficulty,
        True if unclued is None else unclued,
        max_region,
        max_empty_area,
        minimal,
        symmetry or "none",
        parse_clues(clues),
        grid,
        cells,
        regions,
    )
    asked = {
        "--difficulty": difficulty,
        "--unclued/--no-unclued": unclued,
        "--max-empty-area": max_empty_area,
        "--minimal": True if minimal else None,
        "--symmetry": symmetry,
        "--clues": clues,
        "--solution": solution,
        "--positions": positions,
        "--regions": regions,
    }
    return Generates.of(get_kind(kind)).check_request(opts, asked)


def session_driver(name: str):
    """The driver of an SMT oracle, after checking it can open an incremental session."""
    from fillsmt.drivers.registry import get_driver, session_solver_names

    driver = get_driver(name)
    if not driver.supports_session:
        *others, last = session_solver_names()
        raise InputError(
            f"--solver {name}: {driver.name} offers no incremental session; use {', '.join(others)}, {last} or search"
        )
    driver.require()
    return driver


def _progress_bar(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit="puzzle",
        desc="generate",
        file=sys.stderr,
        disable=not enabled,
        dynamic_ncols=True,
        leave=False,
    )


@click.command(context_settings=CONTEXT)
@click.option(
    "--kind",
    "-k",
    type=KindName(generating=True),
    default=DEFAULT_KIND,
    show_default=True,
    metavar="KIND",
    help="The kind of puzzle to make: fillomino or blocknumber (any kind that can).",
)
@click.option(
    "--size",
    "-s",
    "size",
    metavar="HxW",
    help=f"Height and width, e.g. 10x10 (one number for a square; at most {MAX_SIDE}); "
    "needed unless --solution or --positions gives it.",
)
@click.option(
    "--seed",
    metavar="SEED",
    help="An integer or any text; the same seed (and options) always gives the same puzzle. "
    "Default: a random one, printed on standard error so the run can be repeated.",
)
@click.option(
    "--count",
    "-n",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Make this many puzzles; puzzle i uses the seed SEED-i (so --seed SEED-i alone "
    "makes it again). On standard output they are separated by blank lines.",
)
@click.option(
    "--difficulty",
    "-d",
    type=LazyChoice(lambda: _makers_offer(lambda k: k.difficulties)),
    help="Fillomino only: aim for this rating (see `fillsmt rate`): easy and medium by the "
    "deduction rules alone (easy: the basic ones), above them with the oracle; clues that would "
    "make the puzzle harder are kept, and easier attempts are dropped (up to 20).",
)
@click.option(
    "--unclued/--no-unclued",
    default=None,
    help="Fillomino only: may a region of the solution be left without any clue? [default: --unclued]",
)
@click.option(
    "--max-region",
    cls=NotedOption,
    type=click.IntRange(min=1),
    metavar="N",
    help="The largest region or block of the solution [default: {notes}].",
)
@click.option(
    "--regions",
    type=LazyChoice(lambda: _makers_offer(lambda k: k.region_styles)),
    help="Fillomino only: the sizes of the solution's regions: published (as in janko.at's puzzles "
    "of about the grid's size: mostly 1 to 6 cells, a few of 7 to 10, rarely more) or big (about "
    "40 % of the cells in regions of 11 cells or more, up to --max-region, and at least one such "
    "region). [default: published]",
)
@click.option(
    "--max-empty-area",
    cls=NotedOption,
    type=click.IntRange(min=0),
    metavar="N",
    help="Fillomino only: keep a clue when removing it would leave a connected area of "
    "more than N empty cells; the clue set is then minimal among those without larger "
    "areas (near-minimal). 0: no limit, minimal clue sets [default: {notes}; large empty "
    "areas slow the deduction rules and the proofs down].",
)
@click.option(
    "--minimal",
    is_flag=True,
    help="Fillomino only: remove every clue without which the solution stays unique, as "
    "proved by the oracle (fewer clues, harder puzzles, far slower on large grids). "
    "Default: remove the clues the deduction rules do not need, so that they solve the "
    "puzzle alone (rated easy or medium; unique by them).",
)
@click.option(
    "--symmetry",
    type=click.Choice(SYMMETRIES),
    help="Fillomino only: the symmetry of the clue layout: 180 (a half turn, as most published "
    "puzzles), 90 (a quarter turn, square grids), mirror (left to right) or none; clues are "
    "removed a symmetric group at a time. [default: none]",
)
@click.option(
    "--clues",
    cls=NotedOption,
    metavar="N|N-M",
    help="Fillomino only: the number of clues wanted, or a range: no removal goes below N, and "
    "an attempt ending with more than M is dropped for the next one (up to 20; a warning "
    "names the closest when none fits). [default: {notes}]",
)
@click.option(
    "--solution",
    "solution_file",
    metavar="FILE",
    help="Fillomino only: the solution the puzzle must have, a filled grid in the puzzle format "
    "(checked); clues are removed from it as from a random one.",
)
@click.option(
    "--positions",
    "positions_file",
    metavar="FILE",
    help="Fillomino only: where the clues go, a grid in the puzzle format whose non-zero cells "
    "mark the clue cells; a solution is searched for whose numbers there make a unique puzzle "
    "(with the SMT solver of --solver).",
)
@click.option(
    "--solver",
    default="yices",
    show_default=True,
    metavar="NAME",
    help="The uniqueness oracle's exact check: an SMT solver with incremental sessions "
    "(yices, z3, z3-api, pysmt, pysmt:NAME), or `search` (Fillomino only: the rules "
    "plus backtracking, no solver needed, slow beyond 8x8).",
)
@timeout_option(
    "Stop removing clues after this many seconds per puzzle; the puzzle printed is "
    "then unique but not minimal, with a warning"
)
@click.option(
    "--output",
    "-o",
    metavar="FILE",
    help="Write to FILE instead of standard output (-: standard output); with --count, FILE "
    "must contain {n} (1, 2, …) or {seed}, e.g. -o 'puzzles/p{n}.txt', whose missing "
    "folders are then made; a single FILE's folder must exist. Existing files are "
    "replaced only with --force.",
)
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("--quiet", "-q", is_flag=True, help="No summary lines on standard error (warnings stay).")
@reports_errors
def generate(
    kind,
    size,
    seed,
    count,
    difficulty,
    unclued,
    max_region,
    regions,
    max_empty_area,
    minimal,
    symmetry,
    clues,
    solution_file,
    positions_file,
    solver,
    timeout,
    output,
    force,
    quiet,
):
    """Make new puzzles with exactly one solution, in the kind's plain puzzle format.

    A random valid solution (Fillomino: random regions sized as in published puzzles of about
    the grid's size, --regions; BlockNumber: random blocks and numbers), every cell a clue,
    then the clues visited in a seeded random order, each removed while the solution stays the
    only one. A Fillomino keeps by default the clues the deduction rules need to solve it alone
    (so it is unique), within the clue range of published puzzles of about its size (--clues);
    with --minimal or a --difficulty above medium, the oracle removes more: the deduction rules
    and a local search settle most questions, an SMT solver session the rest (--solver). The
    same seed gives the same puzzle whichever exact oracle is used. A
    summary per puzzle goes to standard error: size, seed, clues, rating (Fillomino), seconds.

    \b
    Examples:
      fillsmt generate --size 10x10 --seed 1
      fillsmt generate --size 10x10 --seed 1 --difficulty hard -o hard.txt
      fillsmt generate --size 15x15 --no-unclued --count 5 -o puzzles/p{n}.txt
      fillsmt generate --kind blocknumber --size 8x8 --seed 3
      fillsmt generate --size 6x6 --solver search --seed words-work-too
      fillsmt generate --size 20x20 --seed 7 --minimal --max-empty-area 0 --timeout 600
      fillsmt generate --size 10x10 --symmetry 180 --clues 19-56 --seed 2
      fillsmt generate --size 12x12 --regions big --max-region 24 --seed 3
      fillsmt generate --solution my-solution.txt --minimal
      fillsmt generate --positions my-layout.txt --seed 1

    \b
    The summary says what is known of the clue set: minimal (no single clue can go, the
    oracle's proof), symmetric-minimal (no symmetric group can go), rules-minimal (no clue can
    go with the deduction rules still solving it: the default's puzzles, unique, though the
    oracle might remove more), near-minimal (clues kept for an option or the time).

    \b
    Exit codes: 0 made (warnings for a --timeout or a missed --difficulty), 2 bad options,
    4 solver missing or failed.
    """
    asked = {
        "difficulty": difficulty,
        "unclued": unclued,
        "max_region": max_region,
        "max_empty_area": max_empty_area,
        "minimal": minimal,
        "symmetry": symmetry,
        "clues": clues,
        "solution": solution_file,
        "positions": positions_file,
        "regions": regions,
    }
    opts = check_options(kind, size, solver, timeout, asked)
    chosen = parse_seed(seed)
    seeds = puzzle_seeds(chosen, count)
    paths = output_paths(output, count, seeds, force)
    driver = None if solver == "search" else session_driver(solver)
    if seed is None:
        warn(f"no --seed given; using --seed {chosen}")
    maker = Generates.of(get_kind(kind))
    bar = _progress_bar(count, count > 1 and not quiet and sys.stderr.isatty())
    say = bar.write if not bar.disable else lambda text: click.echo(text, err=True)
    with bar:
        for i, (puzzle_seed, path) in enumerate(zip(seeds, paths)):
            made = run_within(
                timeout, lambda: maker.generate(opts, puzzle_seed, driver), lambda: _no_puzzle(puzzle_seed, timeout)
            )
            if path is None:
                click.echo(("\n" if i else "") + made.text, nl=False)
            else:
                write_file(path, made.text, force=force)
            for message in made.warnings:
                say(f"fillsmt: seed {made.seed}: {message}")
            if not quiet:
                rated = maker.generated_words(made)
                say(
                    f"fillsmt: {opts.height}x{opts.width} {kind}, seed {made.seed}: {rated}, "
                    f"{made.minimal_words} ({'; '.join(made.notes)}), "
                    f"{made.seconds:.2f} s" + (f" -> {path}" if path else "")
                )
            bar.update(1)


def _no_puzzle(seed, timeout: float):
    """A generation still running :data:`~fillsmt.engine.interrupts.GRACE` seconds past ``--timeout``
    (a stage that did not stop at it) was stopped: one line, exit 3."""
    raise CliError(
        f"seed {seed}: time-out: no puzzle within the time-out of {timeout:g} s "
        f"(the clue removal stops at it; what came after did not end in time)",
        EXIT_UNKNOWN,
    )


__all__ = [
    "Made",
    "Options",
    "check_options",
    "generate",
    "parse_clues",
    "parse_seed",
    "parse_size",
    "puzzle_seeds",
    "session_driver",
]
