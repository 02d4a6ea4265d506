"""The numbers of a run, per configuration, and the Markdown tables that show them.

Who answered a run matters (the ``answered_by`` column): the presolve alone settles some puzzles
before any solver starts, and at the race levels the rules' search answers others. Neither is the
solver's work, so beside the numbers of every run (what a user waits), the solver's own numbers,
PAR-2, speed-ups and head to head count only the runs *left to the solver*: not settled by the
presolve, not answered by the rules' search. With several
solvers at the same presolve level the presolve settles the same puzzles for each, and the
summary says how many.

* solved: a ``sat`` answer that passed the independent checker, or ``unsat``;
* every run: median, mean and slowest total time (presolve + encode + solve + check) and median
  CPU time of the solved runs, whoever answered (what a user of the configuration waits);
* the runs left to the solver: the same medians and means over those alone;
* PAR-2: the mean over the runs left to the solver of the total time when solved, twice the
  time-out when not;
* speed-up: the baseline's median total time divided by this configuration's, both taken on
  the puzzles that both solvers solved (above 1: faster than the baseline).

The same split by stage gives the medians of the presolve, encode, solve and check times, and of
the CPU time (all, and the solver's child processes alone where measured).
Everything is computed from CSV rows (strings), so a summary can be redone from the file.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from fillsmt.bench.jobs import Config, parse_config
from fillsmt.bench.rows import STAGES

PRESOLVE = "presolve"
"""``answered_by`` of a run the presolve settled alone (no solver ran)."""


def config_of(row: dict) -> Config:
    return parse_config(row["key"].rsplit("|", 1)[1])


DECISIVE = ("sat", "unsat")


def wrong(row: dict) -> bool:
    """Whether the run answered against the status its input gives (an ``.smt2`` file's
    ``:status``; for an incremental file, any of its answers against its own ``:status``)."""
    expected, said = (row.get("expected") or "").split(), (row.get("answer") or "").split()
    return any(a in DECISIVE and e in DECISIVE and a != e for a, e in zip(said, expected))


def is_solved(row: dict) -> bool:
    """A ``sat`` answer whose model passed the independent checker (or that nothing could check:
    an ``.smt2`` file that did not come from ``export``), or ``unsat``; never a wrong answer."""
    if wrong(row):
        return False
    return (row["status"] == "sat" and row["checked"].lower() != "false") or row["status"] == "unsat"


def seconds(row: dict, stage: str = "total") -> float:
    return float(row[f"{stage}_s"] or 0.0)


def answered_by(row: dict) -> str:
    return row.get("answered_by") or ""


def by_presolve(row: dict) -> bool:
    """The presolve alone settled this run: no solver ran."""
    return answered_by(row) == PRESOLVE


def by_search(row: dict) -> bool:
    """The rules' search, racing an SMT configuration's solver, answered this run."""
    who = answered_by(row)
    return who not in ("", PRESOLVE) and "/" not in who and config_of(row).solver != who


def left_to_solver(row: dict) -> bool:
    """Whether the run is its solver's to win or lose: the presolve did not settle it and the
    rules' search did not answer it (a run of an older CSV, which does not say, counts)."""
    return not by_presolve(row) and not by_search(row)


def par2(rows: list[dict]) -> float | None:
    """Mean of the total time of each solved run and twice the run's time-out for the others
    (None for no runs)."""
    if not rows:
        return None
    return statistics.fmean(seconds(r) if is_solved(r) else 2 * float(r["timeout_s"]) for r in rows)


def speedup(base: list[dict], rows: list[dict], stage: str = "total") -> tuple[float | None, int]:
    """(median of the baseline / median of ``rows``, on the puzzles both solved; their number)."""
    base_times = {r["puzzle"]: seconds(r, stage) for r in base if is_solved(r)}
    times = {r["puzzle"]: seconds(r, stage) for r in rows if is_solved(r)}
    common = [p for p in times if p in base_times]
    if not common:
        return None, 0
    mine = statistics.median(times[p] for p in common)
    theirs = statistics.median(base_times[p] for p in common)
    if mine == 0:
        return (1.0 if theirs == 0 else None), len(common)
    return theirs / mine, len(common)


@dataclass
class ConfigSummary:
    """One configuration's numbers. ``runs``, ``solved``, ``counts`` and the ``all_`` fields cover
    every run, whoever answered it (what a user of the configuration waits); ``median``, ``mean``,
    ``par2``, ``speedup``, ``common``, the stage medians and the CPU medians only the runs left to
    the solver (:func:`left_to_solver`)."""

    config: Config
    runs: int
    solved: int
    counts: dict[str, int]
    median: float | None
    mean: float | None
    par2: float | None
    speedup: float | None
    common: int
    stage_medians: dict[str, float | None] = field(default_factory=dict)
    solve_speedup: float | None = None
    unique_counts: dict[str, int] = field(default_factory=dict)
    presolved: int = 0
    """Runs the presolve settled alone (counted in ``solved``, left out of the times)."""
    searched: int = 0
    """Runs the rules' search answered, racing the solver (the same)."""
    cpu: float | None = None
    """Median CPU time (worker and children) of the solved runs left to the solver."""
    solver_cpu: float | None = None
    """Median CPU time of the solver's child processes, where the rows measure it."""
    left_solved: int = 0
    """The solved runs among those left to the solver."""
    all_median: float | None = None
    """Median total time of every solved run, whoever answered."""
    all_mean: float | None = None
    all_slowest: float | None = None
    all_cpu: float | None = None
    """Median CPU time of every solved run, whoever answered."""

    @property
    def left(self) -> int:
        """The runs left to the solver."""
        return self.runs - self.presolved - self.searched


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _column_median(rows: list[dict], column: str) -> float | None:
    """The median of a column over the rows that fill it (None when none does)."""
    return _median([float(r[column]) for r in rows if r.get(column)])


def summarize(rows: Iterable[dict], baseline: Config | None = None) -> list[ConfigSummary]:
    """One summary per configuration, in the order configurations first appear in ``rows``.
    ``baseline`` defaults to the first configuration."""
    groups: dict[Config, list[dict]] = {}
    for row in rows:
        groups.setdefault(config_of(row), []).append(row)
    if not groups:
        return []
    baseline = baseline or next(iter(groups))
    base = [r for r in groups.get(baseline, []) if left_to_solver(r)]
    out = []
    for config, rs in groups.items():
        solved = [r for r in rs if is_solved(r)]
        left = [r for r in rs if left_to_solver(r)]
        left_solved = [r for r in left if is_solved(r)]
        times = [seconds(r) for r in left_solved]
        every = [seconds(r) for r in solved]
        counts = {kind: sum(1 for r in rs if r["status"] == kind) for kind in ("unsat", "timeout")}
        counts["sat"] = len(solved) - counts["unsat"]
        counts["other"] = len(rs) - len(solved) - counts["timeout"]
        ratio, common = speedup(base, left)
        out.append(
            ConfigSummary(
                config,
                len(rs),
                len(solved),
                counts,
                _median(times),
                statistics.fmean(times) if times else None,
                par2(left),
                ratio,
                common,
                {
                    stage: _median([seconds(r, stage) for r in left_solved])
                    for stage in (*STAGES, "unique")
                    if stage != "unique" or config.unique
                },
                speedup(base, left, "solve")[0],
                {
                    k: sum(1 for r in rs if r["status"] == "sat" and r["unique"].lower() == k)
                    for k in ("true", "false", "")
                },
                presolved=sum(1 for r in rs if by_presolve(r)),
                searched=sum(1 for r in rs if by_search(r)),
                cpu=_column_median(left_solved, "cpu_s"),
                solver_cpu=_column_median(left_solved, "solver_cpu_s"),
                left_solved=len(left_solved),
                all_median=_median(every),
                all_mean=statistics.fmean(every) if every else None,
                all_slowest=max(every, default=None),
                all_cpu=_column_median(solved, "cpu_s"),
            )
        )
    return out


def disagreements(rows: Iterable[dict]) -> list[str]:
    """Puzzles that one configuration solved (checked) and another proved unsatisfiable."""
    seen: dict[str, dict[str, list[str]]] = {}
    for row in rows:
        if is_solved(row):
            seen.setdefault(row["puzzle"], {}).setdefault(row["status"], []).append(config_of(row).label)
    return [
        f"{p}: sat for {', '.join(v['sat'])}; unsat for {', '.join(v['unsat'])}" for p, v in seen.items() if len(v) == 2
    ]


def _s(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _x(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


MAX_SIZE_ROWS = 20
"""The table by puzzle size is left out when the runs have more sizes than this."""


def _size(row: dict) -> tuple[int, int] | None:
    try:
        return int(row["height"]), int(row["width"])
    except (KeyError, ValueError):
        return None


def by_size(rows: list[dict], summaries: list[ConfigSummary]) -> list[str]:
    """Markdown lines: per puzzle size, each configuration's median solve and total time of its
    solved runs, whoever answered (nothing when all puzzles have one size, or there are too many
    sizes)."""
    sizes = sorted({s for s in map(_size, rows) if s is not None})
    if not 1 < len(sizes) <= MAX_SIZE_ROWS:
        return []
    configs = [s.config for s in summaries]
    lines = [
        "",
        "By puzzle size: median solve / median total time of the solved runs, whoever answered (s), solved/runs:",
        "",
        "| size | " + " | ".join(c.label for c in configs) + " |",
        "|---|" + "---:|" * len(configs),
    ]
    for size in sizes:
        cells = []
        for config in configs:
            rs = [r for r in rows if _size(r) == size and config_of(r) == config]
            solved = [r for r in rs if is_solved(r)]
            cells.append(
                f"{_s(_median([seconds(r, 'solve') for r in solved]))} / "
                f"{_s(_median([seconds(r) for r in solved]))} ({len(solved)}/{len(rs)})"
                if rs
                else "–"
            )
        lines.append(f"| {size[0]}x{size[1]} | " + " | ".join(cells) + " |")
    return lines


MAX_PUZZLE_ROWS = 12
"""The table per puzzle is given only when the runs cover at most this many puzzles."""


def _cell(row: dict | None) -> str:
    if row is None:
        return "–"
    if not is_solved(row):
        return row["status"]
    cpu = f", CPU {float(row['cpu_s']):.3f}" if row.get("cpu_s") else ""
    who = f" ({row['answered_by']})" if row.get("answered_by") else ""
    return f"{seconds(row):.3f}{cpu}{who}"


def per_puzzle(rows: list[dict], summaries: list[ConfigSummary]) -> list[str]:
    """Markdown lines: each puzzle's total time, CPU time and who answered, per configuration
    (nothing for more than :data:`MAX_PUZZLE_ROWS` puzzles)."""
    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    if len(puzzles) > MAX_PUZZLE_ROWS:
        return []
    table = {(r["puzzle"], config_of(r)): r for r in rows}
    configs = [s.config for s in summaries]
    lines = [
        "",
        "Per puzzle: total time (s), CPU time (s) and who answered; or why not solved:",
        "",
        "| puzzle | " + " | ".join(c.label for c in configs) + " |",
        "|---|" + "---:|" * len(configs),
    ]
    for p in puzzles:
        lines.append(
            f"| {p.replace(chr(92), '/').rsplit('/', 1)[-1]} | "
            + " | ".join(_cell(table.get((p, c))) for c in configs)
            + " |"
        )
    return lines


def answered(rows: list[dict], summaries: list[ConfigSummary]) -> list[str]:
    """Per configuration, whose answers its solved runs were (the ``answered_by`` column: the
    presolve, the rules' search or a racing SOLVER/ENCODING), most frequent first; nothing when no
    row says (a CSV of an older fillsmt)."""
    by_config: dict[str, Counter] = {}
    for r in rows:
        if is_solved(r) and r.get("answered_by"):
            by_config.setdefault(config_of(r).label, Counter())[r["answered_by"]] += 1
    if not by_config:
        return []
    lines = [
        "",
        "Who answered (solved runs; a race's answer is its first decisive, checked one):",
        "",
        "| configuration | answered by |",
        "|---|---|",
    ]
    for s in summaries:
        counts = by_config.get(s.config.label)
        if counts:
            lines.append(
                f"| {s.config.label} | "
                + ", ".join(f"{who} {n}" for who, n in sorted(counts.items(), key=lambda c: (-c[1], c[0])))
                + " |"
            )
    return lines


def who_else(rows: list[dict], summaries: list[ConfigSummary]) -> list[str]:
    """Markdown lines on the runs no solver answered: how many the presolve settled (the same
    puzzles for every configuration that presolves, unless a presolve timed out), and a warning
    for each configuration whose runs the rules' search answered. Nothing for an older CSV, whose
    rows do not say who answered."""
    if not any(answered_by(r) for r in rows):
        return []
    lines = []
    puzzles = len({r["puzzle"] for r in rows})
    presolving = [s for s in summaries if s.config.presolve is not False]
    counts = {s.presolved for s in presolving}
    if len(counts) == 1:
        n = counts.pop()
        which = (
            "every configuration"
            if len(presolving) == len(summaries)
            else "each configuration that presolves (" + ", ".join(s.config.label for s in presolving) + ")"
        )
        lines += [
            "",
            f"Presolve settled {n} of the {puzzles} puzzles in {which}: no solver ran for those. They count "
            "as solved in every run's numbers, and are left out of the runs left to the solver, on which "
            "PAR-2, speed-ups and head to head compare the solvers.",
        ]
    elif counts:
        lines += [
            "",
            "Presolve settled a different number of puzzles per configuration ("
            + ", ".join(f"{s.config.label} {s.presolved}" for s in presolving)
            + f", of {puzzles}): a "
            "presolve that ran out of time in one run. Those runs are left out of the runs left to the "
            "solver, PAR-2, speed-ups and head to head.",
        ]
    searched = [s for s in summaries if s.searched]
    if searched:
        lines += [
            "",
            "**Warning: the rules' search answered some runs, not the solver**: "
            + ", ".join(f"{s.config.label} {s.searched} of {s.runs}" for s in searched)
            + ". At the race "
            "and staged levels the rules' search races the solver; those runs are left out of their "
            "configuration's runs left to the solver, PAR-2, speed-ups and head to head, which then cover a "
            "different set of puzzles per configuration. To compare solvers on the same presolved scripts "
            "and nothing else, use --presolve on (the default when several solvers or encodings are named).",
        ]
    return lines


def markdown(rows: list[dict], baseline: Config | str | None = None) -> str:
    """The summary tables (totals, then the split by stage) as Markdown."""
    if isinstance(baseline, str):
        baseline = parse_config(baseline)
    summaries = summarize(rows, baseline)
    if not summaries:
        return "No finished runs.\n"
    base = (baseline or summaries[0].config).label
    timeouts = sorted({float(r["timeout_s"]) for r in rows})
    lines = [
        f"{len(rows)} runs, time-out {' / '.join(f'{t:g}' for t in timeouts)} s; speed-up versus {base}.",
        "",
        "Every run, whoever answered it (what a user of the configuration waits):",
        "",
        "| configuration | solved | sat ✓ | unsat | time-out | other | by presolve | by rules' search | median (s) "
        "| mean (s) | slowest (s) | median CPU (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.config.label} | {s.solved}/{s.runs} | {s.counts['sat']} | {s.counts['unsat']} | "
            f"{s.counts['timeout']} | {s.counts['other']} | {s.presolved} | {s.searched} | {_s(s.all_median)} | "
            f"{_s(s.all_mean)} | {_s(s.all_slowest)} | {_s(s.all_cpu)} |"
        )
    lines += [
        "",
        "The runs left to the solver (neither settled by the presolve nor answered by the rules' search): "
        "what the solver itself did. PAR-2, speed-ups and head to head count only these.",
        "",
        "| configuration | runs | solved | median (s) | mean (s) | median CPU (s) | PAR-2 (s) | speed-up "
        "| both solved |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.config.label} | {s.left} | {s.left_solved} | {_s(s.median)} | {_s(s.mean)} | "
            f"{_s(s.cpu)} | {_s(s.par2)} | {_x(s.speedup)} | {s.common} |"
        )
    lines += [
        "",
        "Median time by stage, solved runs left to the solver (s):",
        "",
        "| configuration | presolve | encode | solve | check | uniqueness | total | CPU | solver CPU "
        "| solve speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        m = s.stage_medians
        lines.append(
            f"| {s.config.label} | {_s(m['presolve'])} | {_s(m['encode'])} | "
            f"{_s(m['solve'])} | {_s(m['check'])} | {_s(m.get('unique'))} | {_s(m['total'])} | "
            f"{_s(s.cpu)} | {_s(s.solver_cpu)} | {_x(s.solve_speedup)} |"
        )
    lines += [
        "",
        "solved: sat answers that passed the independent checker, plus unsat (by presolve: settled before "
        "any solver started; by rules' search: answered by the search racing the solver). Times are fillsmt's "
        "own wall-clock times (no process start-up); CPU: user + system time of the worker process and its "
        "children for the run; solver CPU: the solver's child processes alone (not measured for solvers that "
        "run inside fillsmt, yices-api and z3-api, nor in a race). PAR-2: mean of the total time when solved, 2 × "
        f"time-out when not. speed-up: median total time of {base} / that of the configuration, on the "
        'puzzles both solvers solved (counted in "both solved"); above 1 is faster. solve speed-up: the '
        "same for the solve stage alone. uniqueness: for /unique configurations, the time of the second "
        "check (the proof that no other solution exists), included in total.",
    ]
    lines += who_else(rows, summaries)
    unique_counts = [(s.config.label, s.unique_counts) for s in summaries if s.config.unique]
    if unique_counts:
        lines += [
            "",
            "| configuration | proven unique | not unique | sat, uniqueness not settled |",
            "|---|---:|---:|---:|",
        ]
        lines += [f"| {label} | {c['true']} | {c['false']} | {c['']} |" for label, c in unique_counts]
    lines += answered(rows, summaries)
    lines += by_size(rows, summaries)
    lines += per_puzzle(rows, summaries)
    tilings = [r for r in rows if r.get("covered")]
    if tilings:
        lines += [
            "",
            "Tilings (solved = the best tiling proven optimal in time):",
            "",
            "| puzzle | configuration | covered | optimal | time (s) |",
            "|---|---|---:|---|---:|",
        ]
        lines += [
            f"| {r['puzzle']} | {config_of(r).label} | {r['covered']} | "
            f"{'yes' if r['optimal'].lower() == 'true' else 'not proven'} | {_s(seconds(r))} |"
            for r in tilings
        ]
    problems = disagreements(rows)
    if problems:
        lines += ["", "**The configurations disagree** (a sound encoding and solver cannot):", ""]
        lines += [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"


_INTEGERS = ("height", "width", "presolved_cells", "covered", "memlimit_mb")
_FLAGS = ("checked", "unique", "optimal")


def _typed(row: dict) -> dict:
    """A CSV row with JSON types: numbers, true/false, null for an empty cell."""
    out: dict = {}
    for column, value in row.items():
        if value in ("", None):
            out[column] = None
        elif column in _FLAGS:
            out[column] = str(value).lower() == "true"
        elif column in _INTEGERS:
            out[column] = int(value)
        elif column.endswith("_s") or column == "memory_mb":
            out[column] = float(value)
        else:
            out[column] = value
    return out


def json_report(rows: list[dict], baseline: Config | str | None = None) -> dict:
    """The runs (as typed objects, one per CSV row) and each configuration's summary numbers,
    the same as :func:`markdown`'s, for ``--json``."""
    if isinstance(baseline, str):
        baseline = parse_config(baseline)
    summaries = summarize(rows, baseline)

    def rounded(value):
        return round(value, 4) if isinstance(value, float) else value

    configurations = [
        {
            "configuration": s.config.label,
            "runs": s.runs,
            "solved": s.solved,
            "sat": s.counts["sat"],
            "unsat": s.counts["unsat"],
            "timeout": s.counts["timeout"],
            "other": s.counts["other"],
            "by_presolve": s.presolved,
            "by_rules_search": s.searched,
            "left_to_solver": s.left,
            "median_s": s.median,
            "mean_s": s.mean,
            "median_cpu_s": s.cpu,
            "median_solver_cpu_s": s.solver_cpu,
            "par2_s": s.par2,
            "speedup": s.speedup,
            "both_solved": s.common,
            "solve_speedup": s.solve_speedup,
            "left_solved": s.left_solved,
            "all_median_s": s.all_median,
            "all_mean_s": s.all_mean,
            "all_slowest_s": s.all_slowest,
            "all_median_cpu_s": s.all_cpu,
            "stage_medians_s": s.stage_medians,
        }
        for s in summaries
    ]
    configurations = [
        {
            k: ({stage: rounded(t) for stage, t in v.items()} if isinstance(v, dict) else rounded(v))
            for k, v in c.items()
        }
        for c in configurations
    ]
    return {
        "baseline": (baseline or summaries[0].config).label if summaries else None,
        "configurations": configurations,
        "runs": [_typed(r) for r in rows],
    }
