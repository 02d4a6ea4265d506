"""The ``fillsmt bench`` command: expand the jobs, run them, write the CSV, summarize, plot.

Errors from the library are :class:`~fillsmt.errors.FillsmtError`; this module turns them into
one-line messages with their exit codes (2 usage or bad input, 4 solver missing), like
``fillsmt.cli`` does for the other commands.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

import click

from fillsmt.bench.jobs import (
    DEFAULT,
    RACE,
    SEARCH_ENCODING,
    STAGED,
    Config,
    Job,
    configurations,
    expand,
    parse_config,
    searches,
    solver_commands,
)
from fillsmt.cli.common import CONTEXT, CliError, LazyChoice, Seconds
from fillsmt.cli.output import check_target, write_file
from fillsmt.drivers import get_driver
from fillsmt.drivers.registry import searching_solver_names, solver_names
from fillsmt.engine.interrupts import Terminated
from fillsmt.engine.pipeline import DEFAULT_PRESOLVE, DEFAULT_RACE, DEFAULT_SOLVER, DEFAULT_STAGED, presolve_level
from fillsmt.errors import FillsmtError, InputError
from fillsmt.kinds import all_encodings

ALL_SOLVERS = "all"
"""``--solver all``: every installed solver (:func:`installed_solvers`)."""

EXIT_INTERRUPTED = 130
PRESOLVE_CHOICES = {
    "off": (False,),
    "on": (True,),
    "both": (False, True),
    RACE: (RACE,),
    STAGED: (STAGED,),
    "all": (False, True, RACE),
}
SINGLE_LEVEL = presolve_level(DEFAULT_PRESOLVE, DEFAULT_RACE, DEFAULT_STAGED)
"""The --presolve default for one solver and one encoding: the level ``fillsmt solve`` runs."""
COMPARE_LEVEL = "on"
"""The --presolve default when several solvers or encodings are compared: every one gets the same
presolved script and runs alone, with no race, no search of the rules' own and no staged racers
(those answer some puzzles before, or instead of, the solver named)."""


def _note(message: str) -> None:
    click.echo(f"fillsmt bench: {message}", err=True)


def _output_path(option: str, path: str | None, suffix: str) -> None:
    """An output file's name, checked before the run as every written file is (exit 2)."""
    if path is None:
        return
    if Path(path).suffix.lower() != suffix:
        raise InputError(f"{option} {path}: the file name should end in {suffix}")
    check_target(path, option=option, make_folder=True)


def _baseline(text: str | None, configs: list[Config], option: str = "--baseline") -> Config | None:
    if text is None:
        return None
    chosen = parse_config(text)
    if chosen not in configs:
        raise InputError(
            f"{option} {text}: not one of this run's configurations ({', '.join(c.label for c in configs)})"
        )
    return chosen


def _solver_versions(solvers: list[str], commands: dict[str, str]) -> dict[str, str]:
    """Each solver's version line; raises SolverMissing (exit 4) for one that is not installed."""
    versions = {}
    for name in solvers:
        driver = get_driver(name, solver_cmd=commands.get(name))
        driver.require()
        versions[name] = driver.version() or ""
    return versions


def _check_same_timeout(done: dict[str, dict], jobs: list[Job], timeout: float, csv_path: str) -> None:
    earlier = {float(done[j.key]["timeout_s"]) for j in jobs if j.key in done}
    other = sorted(t for t in earlier if t != timeout)
    if other:
        raise InputError(
            f"{csv_path}: its runs had --timeout {other[0]:g}; resume with the same "
            "time-out, or give another --csv file"
        )


def _check_same_memlimit(done: dict[str, dict], jobs: list[Job], memlimit: int | None, csv_path: str) -> None:
    """Resuming refuses to mix runs of another --memlimit (rows that were measured say theirs)."""
    earlier = {done[j.key].get("memlimit_mb", "") for j in jobs if j.key in done and done[j.key].get("measured")}
    earlier.discard("")
    other = sorted(m for m in earlier if m != str(memlimit or ""))
    if other or (earlier and memlimit is None):
        was = other[0] if other else next(iter(earlier))
        raise InputError(
            f"{csv_path}: its runs had --memlimit {was}; resume with the same memory limit, or give another --csv file"
        )


def _progress_bar(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="run", desc="bench", file=sys.stderr, disable=not enabled, dynamic_ncols=True)


@click.command(context_settings=CONTEXT)
@click.argument("puzzles", nargs=-1, required=True, metavar="PUZZLES...", type=click.Path(exists=True))
@click.option(
    "--solver",
    "-s",
    "solvers",
    multiple=True,
    default=[DEFAULT_SOLVER],
    show_default=True,
    metavar="NAME",
    help=f"A solver to run ({', '.join(solver_names(searching=False))}, pysmt:NAME, portfolio:A,B, or "
    f"{' or '.join(searching_solver_names())}: the kind's own search, Fillomino's deduction rules plus "
    "backtracking); repeat the option to "
    f"compare several; {ALL_SOLVERS}: every installed solver of that list but the portfolio.",
)
@click.option(
    "--encoding",
    "-e",
    "encodings",
    multiple=True,
    type=LazyChoice(lambda: [DEFAULT, *all_encodings()]),
    default=[DEFAULT],
    show_default=True,
    help="An encoding to run; repeat the option to compare several. default: each puzzle "
    "kind's own (tree-bfs for Fillomino, onehot for BlockNumber, auto for tilings).",
)
@click.option(
    "--presolve",
    type=click.Choice(list(PRESOLVE_CHOICES)),
    default=None,
    help="Run the deduction rules first (on), not (off), or each puzzle both ways (both); "
    "race: the rules first, then their search racing the solver; staged: that race, with the "
    "kind's other SMT configurations joining after their delays; all: off, on and race. "
    f"[default: {COMPARE_LEVEL} when several solvers or encodings are named, so that each gets the "
    f"same presolved script and nothing else; {SINGLE_LEVEL} (what fillsmt solve does) for one]",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Each run also proves its solution unique (one incremental session); the "
    "proof's time is its own column. Adds /unique to the configurations.",
)
@click.option(
    "--config",
    "-c",
    "config_texts",
    multiple=True,
    metavar="SOLVER/ENCODING/on|off|race|staged[/unique]",
    help="Run exactly this configuration (repeatable), instead of every combination of "
    "--solver, --encoding and --presolve.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="How many jobs run at once, each in its own worker process.",
)
@click.option(
    "--timeout",
    "-t",
    type=Seconds(),
    default=60,
    show_default=True,
    metavar="SECONDS",
    help="The solver's time limit for each run.",
)
@click.option(
    "--csv",
    "csv_path",
    required=True,
    metavar="FILE.csv",
    help="Where the rows go, one per run, written as each run finishes.",
)
@click.option("--resume", is_flag=True, help="Keep FILE.csv's rows and run only the jobs it does not hold yet.")
@click.option("--overwrite", is_flag=True, help="Empty FILE.csv first and run everything.")
@click.option(
    "--baseline",
    metavar="SOLVER/ENCODING/on|off",
    help="The configuration speed-ups are measured against (default: the first).",
)
@click.option("--plot", metavar="FILE.png", help="Write the cactus plot here (replaced if present).")
@click.option(
    "--scatter",
    metavar="FILE.png",
    help="Write the log-log scatter plot of two configurations here: the baseline (x) against --scatter-against (y).",
)
@click.option(
    "--scatter-against",
    metavar="SOLVER/ENCODING/on|off",
    help="The scatter plot's second configuration (default: the first one after the baseline).",
)
@click.option(
    "--summary", "summary_path", metavar="FILE.md", help="Also write the summary tables here (replaced if present)."
)
@click.option(
    "--json",
    "json_path",
    metavar="FILE.json",
    help="Also write the runs and the summary numbers here as JSON (replaced if present).",
)
@click.option(
    "--dask",
    metavar="ADDRESS",
    help="Run the jobs on this Dask scheduler (e.g. tcp://10.0.0.5:8786) instead of "
    "local worker processes; --jobs is then the cluster's business.",
)
@click.option(
    "--solver-cmd",
    "solver_cmds",
    multiple=True,
    metavar="NAME=COMMAND",
    help="Also run this SMT-LIB 2 solver command (reading the script on standard input), named NAME in "
    "the tables, as a --solver would be (without --solver, only the commands run); repeatable.",
)
@click.option(
    "--memlimit",
    type=click.IntRange(min=1),
    default=None,
    metavar="MB",
    help="Each solver run's memory limit in MB (10^6 bytes); a run past it is a memout. [default: none]",
)
@click.option(
    "--cores",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Pin each measured solver run to N cores of its own (BenchExec; the --jobs runs at once get "
    "different cores). [default: not pinned]",
)
@click.option(
    "--measure",
    type=LazyChoice(lambda: _measure().MODES),
    default="auto",
    show_default=True,
    help="How one-shot solver runs are measured and limited: benchexec (cgroups: CPU time of every "
    "process, peak memory, memory limit, pinned cores), rlimit (getrusage and an address-space limit: "
    "approximate memory), auto (benchexec where cgroups can be used).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on standard error [default: when it is a terminal].",
)
def bench(
    puzzles,
    solvers,
    encodings,
    presolve,
    unique,
    config_texts,
    jobs,
    timeout,
    csv_path,
    resume,
    overwrite,
    baseline,
    plot,
    scatter,
    scatter_against,
    summary_path,
    json_path,
    dask,
    solver_cmds,
    memlimit,
    cores,
    measure,
    progress,
):
    """Run every PUZZLES file (folders: every *.txt inside, recursively) with every --solver,
    --encoding and --presolve choice, write one CSV row per run, and print a summary. An .smt2 file
    (folders: every *.smt2 inside) runs as it is with every solver, judged by its :status.

    Every answer counted as solved passed the independent checker (or was unsat). A run that
    is unsolved, fails or meets a bad puzzle file is a row too, and the benchmark goes on.
    Rows are flushed as they come, so an interrupted benchmark keeps its finished runs; an
    existing FILE.csv is only added to with --resume, or emptied with --overwrite.

    Several solvers or encodings get the same pipeline: by default each runs on the same
    presolved script and alone (--presolve on); the race levels, where the rules' search answers
    some puzzles instead of the solver, run only when asked for. Each row says who answered it
    (answered_by: presolve, rules, or SOLVER/ENCODING) and its CPU time beside its wall time.

    The summary has Markdown tables per configuration (solver/encoding/presolve): every run
    (solved count, how many the presolve settled, the same for every solver, and how many the
    rules' search answered; median, mean and slowest time, median CPU time), then the runs left
    to the solver alone (median and mean time, median CPU time, PAR-2 score, and the speed-up of
    the median over the --baseline on the puzzles both solved), the median time of each stage,
    SMT-COMP's scores (errors first: wrong answers and (error …) replies; then solved, wall and
    CPU time; sequential, parallel, SAT, UNSAT and 24 s views), memory, and head to head. It covers
    this command's runs, including those kept by --resume.

    Every one-shot solver run (a binary, a --solver-cmd command, an API solver's worker process) is
    measured and limited by BenchExec where cgroups can be used (else by getrusage and an
    address-space limit, said in one line); sessions (/unique), races and in-process solvers keep
    fillsmt's own measurement. The measured column says which, for every row.

    \b
    Examples:
      fillsmt bench instances/fillomino --csv results.csv
      fillsmt bench puzzles/ -s z3 -s yices -e thesis -e tree --presolve both \\
          --timeout 300 --csv runs.csv --plot cactus.png --summary summary.md
      fillsmt bench puzzles/ -s z3 -s yices --csv runs.csv --resume
      fillsmt bench puzzles/ -s z3 -s yices --presolve race --csv runs.csv --json runs.json
      fillsmt bench puzzles/ -s yices --baseline yices/thesis/off --csv runs.csv --resume
      fillsmt bench puzzles/ -c z3/thesis/off -c yices/tree-bfs/on --csv runs.csv
      fillsmt bench puzzles/ -c yices/tree-bfs/on -c yices/tree-bfs/on/unique --csv runs.csv
      fillsmt bench puzzles/ --dask tcp://scheduler:8786 --csv runs.csv
      fillsmt bench puzzles/ -s rules -s yices --csv runs.csv
      fillsmt bench instances/blocknumber -s yices -s z3 --unique --csv suguru.csv
      fillsmt bench instances/tiling -s yices -s z3 --timeout 120 --csv tiling.csv
      fillsmt bench puzzles/ -s yices -s z3 -s cvc5 --presolve off --memlimit 4000 --csv runs.csv
      fillsmt bench family/ -s yices --solver-cmd 'mathsat=mathsat -input=smt2' --csv files.csv

    \b
    Every kind runs through the same command: a folder may mix Fillomino, BlockNumber and tiling
    files (--encoding default picks each kind's own encoding). A tiling run is solved when its
    best tiling is proven optimal in time; the columns covered and optimal hold what it found.

    \b
    Exit codes: 0 the benchmark ran (unsolved puzzles are results, not failures),
    2 usage error (e.g. FILE.csv exists without --resume or --overwrite), 4 a solver is
    missing, 130 interrupted by Ctrl-C (143 by SIGTERM, 129 by SIGHUP; run again with --resume
    to finish).
    """
    try:
        commands = solver_commands(solver_cmds, [*solver_names(), ALL_SOLVERS])
        named = [*solvers, *commands] if ctx_given("solvers") or not commands else list(commands)
        configs = _chosen_configs(named, encodings, presolve, config_texts, unique)
        outputs = _Outputs(csv_path, summary_path, json_path, plot, (scatter, scatter_against))
        run = _Run(jobs, timeout, _limits(measure, memlimit, cores, jobs, dask), commands, dask, progress)
        code = _bench(puzzles, configs, run, resume, overwrite, baseline, outputs)
    except FillsmtError as e:
        raise CliError(str(e), e.exit_code) from None
    sys.exit(code)


def installed_solvers() -> list[str]:
    """Every solver ``--solver all`` stands for: the named solvers installed here, but the portfolio
    (a race of the others)."""
    return [name for name in solver_names() if name != "portfolio" and get_driver(name).available()]


def default_level(solvers, encodings) -> str:
    """The --presolve level when none is given: :data:`COMPARE_LEVEL` for several solvers or
    encodings, else :data:`SINGLE_LEVEL`."""
    return COMPARE_LEVEL if len(set(solvers)) > 1 or len(set(encodings)) > 1 else SINGLE_LEVEL


def _chosen_configs(solvers, encodings, presolve, config_texts, unique=False) -> list[Config]:
    """The --config list when given, else every combination of --solver, --encoding, --presolve."""
    if ALL_SOLVERS in solvers:
        solvers = list(dict.fromkeys(n for s in solvers for n in (installed_solvers() if s == ALL_SOLVERS else [s])))
    if not config_texts:
        level = presolve or default_level(solvers, encodings)
        return configurations(solvers, encodings, PRESOLVE_CHOICES[level], unique)
    ctx = click.get_current_context()
    for name, flag in (
        ("solvers", "--solver"),
        ("encodings", "--encoding"),
        ("presolve", "--presolve"),
        ("unique", "--unique"),
    ):
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
            raise InputError(f"give either --config or {flag}, not both")
    configs = list(dict.fromkeys(parse_config(t) for t in config_texts))
    known = [DEFAULT, *all_encodings()]
    for c in configs:
        if searches(c.solver):
            if (c.encoding, c.presolve) != (SEARCH_ENCODING, True):
                raise InputError(
                    f"--config {c.label}: the {c.solver} solver has no encoding; write "
                    f"{c.solver}/{SEARCH_ENCODING}/on{'/unique' if c.unique else ''}"
                )
        elif c.encoding not in known:
            raise InputError(f"--config {c.label}: unknown encoding {c.encoding!r}; choose one of {', '.join(known)}")
    return configs


class _Outputs(NamedTuple):
    """Where a run's results go: the CSV rows, the Markdown summary, the JSON report, the cactus
    plot, and (file, against) of the scatter plot."""

    csv: str
    summary: str | None = None
    json: str | None = None
    plot: str | None = None
    scatter: tuple[str | None, str | None] = (None, None)


class _Run(NamedTuple):
    """How the jobs run: at most ``jobs`` at once, each solver run within ``timeout`` seconds and
    measured under ``limits``; ``commands`` the --solver-cmd names and commands; the Dask scheduler
    (None: local workers); whether a progress bar shows (None: when standard error is a terminal)."""

    jobs: int
    timeout: float
    limits: Any
    commands: dict[str, str]
    dask: str | None = None
    progress: bool | None = None


def ctx_given(name: str) -> bool:
    """Whether the option ``name`` was given on the command line."""
    return click.get_current_context().get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


def _measure():
    """:mod:`fillsmt.drivers.measure`, loaded for a run (or --help), not for every command."""
    from fillsmt.drivers import measure

    return measure


def _limits(mode: str, memlimit: int | None, cores: int | None, jobs: int, dask: str | None):
    """The measurement of every job, checked here: BenchExec where asked (or, for auto, where
    cgroups can be used: else the fallback, with a note), --cores only with BenchExec and within
    this machine's cores for --jobs runs at once."""
    measure = _measure()
    reason = measure.benchexec_reason()
    if mode == measure.BENCHEXEC and reason:
        raise InputError(f"--measure benchexec: {reason}; use --measure rlimit")
    if mode == measure.AUTO and reason and not dask:  # the workers are this machine's: the fallback for all
        _note(
            f"{reason}: solver runs are measured with getrusage, and --memlimit is an address-space "
            "limit (RLIMIT_AS): memory and memouts are approximate"
        )
        mode = measure.RLIMIT
    if cores is not None:
        if measure.resolve(mode) != measure.BENCHEXEC or not measure.can_pin():
            raise InputError("--cores: pinning runs to cores needs BenchExec with the cpuset cgroup")
        usable = len(os.sched_getaffinity(0))
        if cores * jobs > usable and not dask:
            raise InputError(
                f"--cores {cores} with --jobs {jobs}: needs {cores * jobs} cores; this machine has {usable}"
            )
    return measure.Limits(mode, memlimit, cores)


def _bench(puzzles, configs, run: _Run, resume, overwrite, baseline, outputs: _Outputs) -> int:
    csv_path, summary_path, json_path, plot, scatter = outputs
    jobs, timeout, dask, progress = run.jobs, run.timeout, run.dask, run.progress
    from fillsmt.bench import scoring
    from fillsmt.bench.compare import markdown_lines  # the running and the summing up load for a run, not for --help
    from fillsmt.bench.results import ResultsFile
    from fillsmt.bench.run import run_pool
    from fillsmt.bench.summary import is_solved, markdown

    if resume and overwrite:
        raise InputError("give --resume or --overwrite, not both")
    check_target(csv_path, option="--csv", make_folder=True)
    _output_path("--plot", plot, ".png")
    _output_path("--scatter", scatter[0], ".png")
    pair = _scatter_pair(scatter, baseline, configs)
    _output_path("--summary", summary_path, ".md")
    _output_path("--json", json_path, ".json")
    solvers = list(dict.fromkeys(c.solver for c in configs))
    base = _baseline(baseline, configs)
    all_jobs = expand(puzzles, configs, run.limits, run.commands)
    if Path(csv_path).resolve() in {Path(j.puzzle).resolve() for j in all_jobs}:
        raise InputError(f"--csv {csv_path}: is one of the puzzle files; give another file name")
    if dask:
        from fillsmt.bench.dask_runner import require_dask

        require_dask()
    versions = _solver_versions(list(dict.fromkeys(solvers)), run.commands)
    results = ResultsFile(csv_path, resume=resume, overwrite=overwrite)
    with results:
        _check_same_timeout(results.done, all_jobs, timeout, csv_path)
        _check_same_memlimit(results.done, all_jobs, run.limits.memlimit_mb, csv_path)
        rows = {j.key: results.done[j.key] for j in all_jobs if j.key in results.done}
        todo = [j for j in all_jobs if j.key not in rows]
        where = f"on the Dask cluster at {dask}" if dask else f"{min(jobs, max(len(todo), 1))} at a time"
        kept = f" ({len(rows)} already in {csv_path})" if rows else ""
        _note(f"{len(todo)} of {len(all_jobs)} runs to do{kept}, {where}, time-out {timeout:g} s")
        bar = _progress_bar(len(todo), sys.stderr.isatty() if progress is None else progress)

        def on_row(job: Job, row: dict) -> None:
            row["solver_version"] = versions[job.config.solver]
            rows[job.key] = results.write(row)
            bar.set_postfix(solved=sum(1 for r in rows.values() if is_solved(r)), refresh=False)
            bar.update(1)

        try:
            if dask:
                from fillsmt.bench.dask_runner import run_on_dask

                run_on_dask(dask, todo, timeout, on_row)
            else:
                run_pool(todo, timeout, jobs, on_row)
        except (KeyboardInterrupt, Terminated) as e:  # the workers are stopped; fillsmt exits 128 + N
            bar.close()
            left = len(all_jobs) - len(rows)
            _note(
                f"interrupted; {len(rows)} finished runs are in {csv_path}; run the same "
                f"command with --resume to do the other {left}"
            )
            if isinstance(e, KeyboardInterrupt):
                return EXIT_INTERRUPTED
            raise
        bar.close()
    ordered = [rows[j.key] for j in all_jobs]
    table = markdown(ordered, base)
    extra = [*scoring.markdown_lines(ordered), *markdown_lines(ordered)]
    table += "\n".join(extra) + "\n" if extra else ""
    click.echo(table, nl=False)
    if summary_path:
        write_file(summary_path, table, force=True, option="--summary", make_folder=True)
    if json_path:
        import json

        from fillsmt.bench.summary import json_report

        report = json_report(ordered, base)
        report["smtcomp"] = scoring.json_scores(ordered)
        write_file(
            json_path,
            json.dumps(report, indent=1, ensure_ascii=False) + "\n",
            force=True,
            option="--json",
            make_folder=True,
        )
    if plot:
        from fillsmt.bench.plot import cactus_plot

        picture = io.BytesIO()
        cactus_plot(
            ordered,
            picture,
            title=f"fillsmt bench: {len({r['puzzle'] for r in ordered})} puzzles, time-out {timeout:g} s",
        )
        write_file(plot, picture.getvalue(), force=True, option="--plot", make_folder=True)
    if pair:
        from fillsmt.bench.compare import scatter_plot

        picture = io.BytesIO()
        scatter_plot(ordered, *pair, picture)
        assert scatter[0] is not None  # a pair is chosen only with --scatter FILE
        write_file(scatter[0], picture.getvalue(), force=True, option="--scatter", make_folder=True)
    return 0


def _scatter_pair(scatter, baseline: str | None, configs: list[Config]) -> tuple[Config, Config] | None:
    """The (x, y) configurations of --scatter: the baseline, and --scatter-against or the next one."""
    path, against = scatter
    if path is None:
        if against is not None:
            raise InputError("--scatter-against needs --scatter FILE.png")
        return None
    x = _baseline(baseline, configs) or configs[0]
    y = _baseline(against, configs, "--scatter-against") if against else next((c for c in configs if c != x), None)
    if y is None or y == x:
        raise InputError("--scatter needs two configurations (give two solvers, encodings or --config)")
    return x, y
