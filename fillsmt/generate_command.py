"""The ``generate`` and ``rate`` commands: new unique puzzles, and how hard a puzzle is.

A thin layer, like :mod:`fillsmt.cli` (whose helpers it uses): the generators are
:mod:`fillsmt.fillomino.generate` and :mod:`fillsmt.blocknumber.generate`, their uniqueness
oracles :mod:`fillsmt.fillomino.oracle` and :mod:`fillsmt.blocknumber.oracle`, the rating
:mod:`fillsmt.fillomino.rating`. Every puzzle printed has been proved unique (by the oracle, or
by the deduction rules filling it alone) and its solution has passed the independent checker.
"""

from __future__ import annotations

import random
import re
import sys
import time

import click

from fillsmt import limits
from fillsmt.cli.common import CONTEXT, CliError, KindName, kind_option, reports_errors, timeout_option, warn
from fillsmt.cli.output import check_target, write_file
from fillsmt.errors import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, FillsmtError, InputError
from fillsmt.fillomino.search import CELL_ORDERS
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.blocknumber.make import DEFAULT_MAX_BLOCK, make_blocknumber
from fillsmt.fillomino.make import DEFAULT_MAX_EMPTY_AREA, SMALL_GRID, make_fillomino
from fillsmt.fillomino.rating import LABELS, METHODS
from fillsmt.generating import Made, Options
from fillsmt.interrupts import run_within
from fillsmt.registry import get_kind

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
        return random.SystemRandom().randrange(10 ** 9)
    return int(text) if re.fullmatch(r"-?[0-9]{1,18}", text.strip()) else text


def puzzle_seeds(seed: int | str, count: int) -> list[int | str]:
    """The seed of each puzzle: ``seed`` itself for one, ``SEED-1`` … ``SEED-K`` for K."""
    return [seed] if count == 1 else [f"{seed}-{i}" for i in range(1, count + 1)]


def output_paths(output: str | None, count: int, seeds: list[int | str], force: bool) -> list[str | None]:
    """Where each puzzle goes (None: standard output), checked before any work is done."""
    if output is None or output == "-":
        return [None] * count
    if count > 1 and "{n}" not in output and "{seed}" not in output:
        raise InputError(f"-o {output}: with --count {count}, the file name needs {{n}} (1, 2, …) or "
                         "{seed}, e.g. -o puzzles/p{n}.txt")
    paths = [output.replace("{n}", str(i)).replace("{seed}", str(s)) for i, s in enumerate(seeds, start=1)]
    for path in paths:
        check_target(path, force=force)
    return paths


def check_options(kind, size, solver, timeout, difficulty, unclued, max_region, max_empty_area) -> Options:
    """The request, checked: the size here, the rest by the kind (which fills in its defaults)."""
    height, width = parse_size(size)
    opts = Options(kind, height, width, solver, timeout, difficulty, True if unclued is None else unclued,
                   max_region, max_empty_area)
    asked = {"--difficulty": difficulty, "--unclued/--no-unclued": unclued, "--max-empty-area": max_empty_area}
    return get_kind(kind).check_request(opts, asked)


def session_driver(name: str):
    """The driver of an SMT oracle, after checking it can open an incremental session."""
    from fillsmt.drivers.registry import get_driver, session_solver_names

    driver = get_driver(name)
    if not driver.supports_session:
        *others, last = session_solver_names()
        raise InputError(f"--solver {name}: {driver.name} offers no incremental session; use "
                         f"{', '.join(others)}, {last} or search")
    driver.require()
    return driver


def _progress_bar(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="puzzle", desc="generate", file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, leave=False)


@click.command(context_settings=CONTEXT)
@click.option("--kind", "-k", type=KindName(generating=True), default="fillomino", show_default=True,
              metavar="KIND", help="The kind of puzzle to make: fillomino or blocknumber (any kind that can).")
@click.option("--size", "-s", "size", required=True, metavar="HxW",
              help=f"Height and width, e.g. 10x10 (one number for a square; at most {MAX_SIDE}).")
@click.option("--seed", metavar="SEED",
              help="An integer or any text; the same seed (and options) always gives the same puzzle. "
                   "Default: a random one, printed on standard error so the run can be repeated.")
@click.option("--count", "-n", type=click.IntRange(min=1), default=1, show_default=True,
              help="Make this many puzzles; puzzle i uses the seed SEED-i (so --seed SEED-i alone "
                   "makes it again). On standard output they are separated by blank lines.")
@click.option("--difficulty", "-d", type=click.Choice(LABELS),
              help="Fillomino only: aim for this rating (see `fillsmt rate`); clues that would make "
                   "the puzzle harder are kept, and easier attempts are dropped (up to 20).")
@click.option("--unclued/--no-unclued", default=None,
              help="Fillomino only: may a region of the solution be left without any clue? "
                   "[default: --unclued]")
@click.option("--max-region", type=click.IntRange(min=1), metavar="N",
              help=f"The largest region (Fillomino, default 10) or block (BlockNumber, default "
                   f"{DEFAULT_MAX_BLOCK}) of the solution.")
@click.option("--max-empty-area", type=click.IntRange(min=0), metavar="N",
              help="Fillomino only: keep a clue when removing it would leave a connected area of "
                   "more than N empty cells; the clue set is then minimal among those without larger "
                   "areas (near-minimal). 0: no limit, minimal clue sets [default: 0 up to "
                   f"{SMALL_GRID} cells (15x15), {DEFAULT_MAX_EMPTY_AREA} for larger grids, where "
                   "proofs over large empty areas take most of the time].")
@click.option("--solver", default="yices", show_default=True, metavar="NAME",
              help="The uniqueness oracle's exact check: an SMT solver with incremental sessions "
                   "(yices, z3, z3-api, pysmt, pysmt:NAME), or `search` (Fillomino only: the rules "
                   "plus backtracking, no solver needed, slow beyond 8x8).")
@timeout_option("Stop removing clues after this many seconds per puzzle; the puzzle printed is "
                "then unique but not minimal, with a warning")
@click.option("--output", "-o", metavar="FILE",
              help="Write to FILE instead of standard output; with --count, FILE must contain {n} "
                   "(1, 2, …) or {seed}, e.g. -o puzzles/p{n}.txt. Existing files are replaced "
                   "only with --force.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("--quiet", "-q", is_flag=True, help="No summary lines on standard error (warnings stay).")
@reports_errors
def generate(kind, size, seed, count, difficulty, unclued, max_region, max_empty_area, solver, timeout,
             output, force, quiet):
    """Make new puzzles with exactly one solution, in the kind's plain puzzle format.

    A random valid solution (Fillomino: random regions of varied sizes; BlockNumber: random
    blocks and numbers), every cell a clue, then the clues visited in a seeded random order,
    each removed while the solution stays the only one. Uniqueness is proved by the oracle:
    the deduction rules and a local search settle most questions, an SMT solver session the
    rest (--solver). The same seed gives the same puzzle whichever exact oracle is used. A
    summary per puzzle goes to standard error: size, seed, clues, rating (Fillomino), seconds.

    \b
    Examples:
      fillsmt generate --size 10x10 --seed 1
      fillsmt generate --size 10x10 --seed 1 --difficulty hard -o hard.txt
      fillsmt generate --size 15x15 --no-unclued --count 5 -o puzzles/p{n}.txt
      fillsmt generate --kind blocknumber --size 8x8 --seed 3
      fillsmt generate --size 6x6 --solver search --seed words-work-too
      fillsmt generate --size 20x20 --seed 7 --max-empty-area 0 --timeout 600

    \b
    Exit codes: 0 made (warnings for a --timeout or a missed --difficulty), 2 bad options,
    4 solver missing or failed.
    """
    opts = check_options(kind, size, solver, timeout, difficulty, unclued, max_region, max_empty_area)
    chosen = parse_seed(seed)
    seeds = puzzle_seeds(chosen, count)
    paths = output_paths(output, count, seeds, force)
    driver = None if solver == "search" else session_driver(solver)
    if seed is None:
        warn(f"no --seed given; using --seed {chosen}")
    maker = get_kind(kind)
    bar = _progress_bar(count, count > 1 and not quiet and sys.stderr.isatty())
    say = bar.write if not bar.disable else lambda text: click.echo(text, err=True)
    with bar:
        for i, (puzzle_seed, path) in enumerate(zip(seeds, paths)):
            made = run_within(timeout, lambda: maker.generate(opts, puzzle_seed, driver),
                              lambda: _no_puzzle(puzzle_seed, timeout))
            if path is None:
                click.echo(("\n" if i else "") + made.text, nl=False)
            else:
                write_file(path, made.text, force=force)
            for message in made.warnings:
                say(f"fillsmt: seed {made.seed}: {message}")
            if not quiet:
                rated = maker.generated_words(made)
                say(f"fillsmt: {opts.height}x{opts.width} {kind}, seed {made.seed}: {rated}, "
                    f"{'minimal' if made.minimal else 'near-minimal'} ({'; '.join(made.notes)}), "
                    f"{made.seconds:.2f} s" + (f" -> {path}" if path else ""))
            bar.update(1)


def _no_puzzle(seed, timeout: float):
    """A generation still running :data:`~fillsmt.interrupts.GRACE` seconds past ``--timeout``
    (a stage that did not stop at it) was stopped: one line, exit 3."""
    raise CliError(f"seed {seed}: time-out: no puzzle within the time-out of {timeout:g} s "
                   f"(the clue removal stops at it; what came after did not end in time)", EXIT_UNKNOWN)


# --- rate ---------------------------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _rating_text(path: str, r) -> str:
    """A few lines about one rating (``--format text``)."""
    search = (f"  search: max depth {r.max_depth}, {_plural(r.guesses, 'guess')}, {_plural(r.nodes, 'node')}, "
              f"{r.seconds:.2f} s{' (stopped early: lower bounds)' if r.status == 'stopped' else ''}")
    if r.status == "no-solution":
        why = " in which every region holds a clue (the thesis' solver knows only that variant)" \
            if r.method == "thesis" else ""
        return f"{path}: no solution{why}\n{search}\n"
    empty = r.height * r.width - r.clues
    lines = [f"{path}: {r.label or 'not rated (stopped before the label was certain)'}",
             f"  rules alone: {'solve it' if r.rules_solve else 'do not solve it'} "
             f"({r.rules_fixed} of {empty} empty cells fixed)",
             "  rules that fixed cells: " + (", ".join(f"{name} {n}" for name, n in r.rules_used.items()) or "none")]
    if r.method == "thesis":
        lines.append(f"  rated with the thesis' solver: {', '.join(r.rules)}; guesses {r.cell_order}")
    elif r.rules != ALL_RULES or r.cell_order != CELL_ORDERS[0]:
        lines.append(f"  rated with the rules {', '.join(r.rules)}; guesses {r.cell_order}")
    if not r.rules_solve:
        lines.append("  over the whole search: "
                     + (", ".join(f"{name} {n}" for name, n in r.search_rules_used.items()) or "none"))
    lines.append(search)
    return "\n".join(lines) + "\n"


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLE...")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a few lines per puzzle; json: one object per puzzle per line.")
@timeout_option("Stop each puzzle's search after this many seconds")
@click.option("--max-nodes", type=click.IntRange(min=1), metavar="N",
              help="Stop each puzzle's search after N nodes (deterministic, unlike --timeout).")
@click.option("--rules", "rule_text", default="all", show_default=True, metavar="RULES",
              help="The deduction rules the rating may use: a set (all; thesis: the thesis' four; "
                   "no-join: all but join-overflow) or comma-separated rule names, `-name` dropping "
                   "one (all,-size-cap). Fewer rules: more puzzles need guesses.")
@click.option("--cell-order", type=click.Choice(CELL_ORDERS), default=CELL_ORDERS[0], show_default=True,
              help="Where the search guesses: group-exit grows the incomplete group with the fewest "
                   "exits; row-major takes the first open cell row by row, as the thesis does.")
@click.option("--method", type=click.Choice(METHODS), default=METHODS[0], show_default=True,
              help="rules: fillsmt's solver (any puzzle; --rules, --cell-order); thesis: the thesis' "
                   "own solver rebuilt (its three strategies, row-major guesses), whose depth is the "
                   "thesis' measure; only for puzzles whose regions all hold a clue.")
@kind_option
@reports_errors
def rate(puzzles, fmt, timeout, max_nodes, rule_text, cell_order, method, kind):
    """Rate how hard each Fillomino PUZZLE is for a solver that reasons like a person.

    The thesis' measure: the deduction rules first (do they solve it alone? how many cells,
    by which rules?), then rules plus backtracking to the first solution: the deepest run of
    nested guesses, the guesses and the nodes. The label: easy (the rules alone), medium
    (depth 1), hard (depth 2-3, at most 50 guesses), fiendish (more).

    \b
    Examples:
      fillsmt rate instances/fillomino/g12-5x5.txt
      fillsmt rate --format json instances/fillomino/generated/*.txt
      fillsmt generate --size 10x10 --seed 1 | fillsmt rate -
      fillsmt rate --timeout 10 big-puzzle.txt
      fillsmt rate --rules no-join puzzle.txt
      fillsmt rate --method thesis baron-puzzle.txt   # the thesis' own solver and depth

    \b
    Exit codes (the largest over the puzzles): 0 rated, 1 no solution, 2 bad input or not a
    Fillomino puzzle, 3 stopped by --timeout/--max-nodes before a label was certain.
    """
    from fillsmt.fillomino.rating import parse_rules, rate as rate_puzzle
    from fillsmt.formats.json_format import line
    from fillsmt.kinds import kind_of, load

    rules = parse_rules(rule_text)
    if method == "thesis" and (rules != ALL_RULES or cell_order != CELL_ORDERS[0]):
        raise InputError("--rules and --cell-order choose fillsmt's solver; --method thesis has its own "
                         "(single-exit, forced-cell, reachability; row-major guesses)")
    worst = EXIT_OK
    for path in puzzles:
        try:
            puzzle = load(path, kind)
            if kind_of(puzzle).name != "fillomino":
                raise InputError(f"{path}: a {kind_of(puzzle).name} puzzle; rate knows Fillomino only "
                                 "(its deduction rules and search are Fillomino's)")
        except FillsmtError as e:
            if len(puzzles) == 1:
                raise
            warn(str(e))
            worst = max(worst, e.exit_code)
            continue
        deadline = None if timeout is None else time.monotonic() + timeout
        r = run_within(timeout, lambda: rate_puzzle(puzzle, deadline=deadline, max_nodes=max_nodes, rules=rules,
                                                    cell_order=cell_order, method=method), lambda: None)
        if r is None:  # a stage that does not watch the deadline ran past it
            worst = max(worst, EXIT_UNKNOWN)
            click.echo(line({"puzzle": path, "status": "stopped", "label": None}) if fmt == "json" else
                       f"{path}: not rated (stopped by --timeout {timeout:g})")
            continue
        code = EXIT_NO_SOLUTION if r.status == "no-solution" else EXIT_UNKNOWN if r.label is None else EXIT_OK
        worst = max(worst, code)
        if fmt == "json":
            click.echo(line({"puzzle": path, **r.as_dict()}))
        else:
            click.echo(_rating_text(path, r), nl=False)
    sys.exit(worst)


__all__ = ["DEFAULT_MAX_BLOCK", "DEFAULT_MAX_EMPTY_AREA", "Made", "Options", "SMALL_GRID", "check_options", "generate",
           "make_blocknumber", "make_fillomino", "parse_seed", "parse_size", "puzzle_seeds", "rate", "session_driver"]
