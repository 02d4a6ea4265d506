"""The numbers of a run, per configuration, and the Markdown tables that show them.

* solved: a ``sat`` answer that passed the independent checker, or ``unsat``;
* median and mean: of the total times (presolve + encode + solve + check) of the solved runs;
* PAR-2: the mean over all runs of the total time when solved, twice the time-out when not;
* speed-up: the baseline's median total time divided by this configuration's, both taken on
  the puzzles that both solved (above 1: faster than the baseline).

The same split by stage gives the medians of the presolve, encode, solve and check times.
Everything is computed from CSV rows (strings), so a summary can be redone from the file.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from fillsmt.bench.jobs import Config, parse_config
from fillsmt.bench.run import STAGES



def config_of(row: dict) -> Config:
    return parse_config(row["key"].rsplit("|", 1)[1])


def is_solved(row: dict) -> bool:
    return (row["status"] == "sat" and row["checked"].lower() == "true") or row["status"] == "unsat"


def seconds(row: dict, stage: str = "total") -> float:
    return float(row[f"{stage}_s"] or 0.0)


def par2(rows: list[dict]) -> float:
    """Mean of the total time of each solved run and twice the run's time-out for the others."""
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
    config: Config
    runs: int
    solved: int
    counts: dict[str, int]
    median: float | None
    mean: float | None
    par2: float
    speedup: float | None
    common: int
    stage_medians: dict[str, float | None] = field(default_factory=dict)
    solve_speedup: float | None = None
    unique_counts: dict[str, int] = field(default_factory=dict)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarize(rows: Iterable[dict], baseline: Config | None = None) -> list[ConfigSummary]:
    """One summary per configuration, in the order configurations first appear in ``rows``.
    ``baseline`` defaults to the first configuration."""
    groups: dict[Config, list[dict]] = {}
    for row in rows:
        groups.setdefault(config_of(row), []).append(row)
    if not groups:
        return []
    baseline = baseline or next(iter(groups))
    base = groups.get(baseline, [])
    out = []
    for config, rs in groups.items():
        solved = [r for r in rs if is_solved(r)]
        times = [seconds(r) for r in solved]
        counts = {kind: sum(1 for r in rs if r["status"] == kind) for kind in ("unsat", "timeout")}
        counts["sat"] = len(solved) - counts["unsat"]
        counts["other"] = len(rs) - len(solved) - counts["timeout"]
        ratio, common = speedup(base, rs)
        out.append(ConfigSummary(
            config, len(rs), len(solved), counts, _median(times),
            statistics.fmean(times) if times else None, par2(rs), ratio, common,
            {stage: _median([seconds(r, stage) for r in solved])
             for stage in (*STAGES, "unique") if stage != "unique" or config.unique},
            speedup(base, rs, "solve")[0],
            {k: sum(1 for r in rs if r["status"] == "sat" and r["unique"].lower() == k)
             for k in ("true", "false", "")}))
    return out


def disagreements(rows: Iterable[dict]) -> list[str]:
    """Puzzles that one configuration solved (checked) and another proved unsatisfiable."""
    seen: dict[str, dict[str, list[str]]] = {}
    for row in rows:
        if is_solved(row):
            seen.setdefault(row["puzzle"], {}).setdefault(row["status"], []).append(config_of(row).label)
    return [f"{p}: sat for {', '.join(v['sat'])}; unsat for {', '.join(v['unsat'])}"
            for p, v in seen.items() if len(v) == 2]


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
    solved runs (nothing when all puzzles have one size, or there are too many sizes)."""
    sizes = sorted({s for s in map(_size, rows) if s is not None})
    if not 1 < len(sizes) <= MAX_SIZE_ROWS:
        return []
    configs = [s.config for s in summaries]
    lines = ["", "By puzzle size: median solve / median total time of the solved runs (s), solved/runs:", "",
             "| size | " + " | ".join(c.label for c in configs) + " |",
             "|---|" + "---:|" * len(configs)]
    for size in sizes:
        cells = []
        for config in configs:
            rs = [r for r in rows if _size(r) == size and config_of(r) == config]
            solved = [r for r in rs if is_solved(r)]
            cells.append(f"{_s(_median([seconds(r, 'solve') for r in solved]))} / "
                         f"{_s(_median([seconds(r) for r in solved]))} ({len(solved)}/{len(rs)})" if rs else "–")
        lines.append(f"| {size[0]}x{size[1]} | " + " | ".join(cells) + " |")
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
    lines = ["", "Who answered (solved runs; a race's answer is its first decisive, checked one):", "",
             "| configuration | answered by |", "|---|---|"]
    for s in summaries:
        counts = by_config.get(s.config.label)
        if counts:
            lines.append(f"| {s.config.label} | " + ", ".join(f"{who} {n}" for who, n in
                                                           sorted(counts.items(), key=lambda c: (-c[1], c[0]))) + " |")
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
        f"{len(rows)} runs, time-out {' / '.join(f'{t:g}' for t in timeouts)} s; speed-up versus "
        f"{base}.",
        "",
        "| configuration | solved | sat ✓ | unsat | time-out | other | median (s) | mean (s) "
        "| PAR-2 (s) | speed-up | both solved |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.config.label} | {s.solved}/{s.runs} | {s.counts['sat']} | {s.counts['unsat']} | "
            f"{s.counts['timeout']} | {s.counts['other']} | {_s(s.median)} | {_s(s.mean)} | {s.par2:.3f} | "
            f"{_x(s.speedup)} | {s.common} |")
    lines += [
        "",
        "Median time by stage, solved runs (s):",
        "",
        "| configuration | presolve | encode | solve | check | uniqueness | total | solve speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        m = s.stage_medians
        lines.append(f"| {s.config.label} | {_s(m['presolve'])} | {_s(m['encode'])} | "
                     f"{_s(m['solve'])} | {_s(m['check'])} | {_s(m.get('unique'))} | {_s(m['total'])} | "
                     f"{_x(s.solve_speedup)} |")
    lines += [
        "",
        "solved: sat answers that passed the independent checker, plus unsat. Times are fillsmt's "
        "own (no process start-up). PAR-2: mean of the total time when solved, 2 × time-out when "
        f"not. speed-up: median total time of {base} / that of the configuration, on the puzzles "
        "both solved (counted in \"both solved\"); above 1 is faster. solve speed-up: the same "
        "for the solve stage alone. uniqueness: for /unique configurations, the time of the second "
        "check (the proof that no other solution exists), included in total.",
    ]
    unique_counts = [(s.config.label, s.unique_counts) for s in summaries if s.config.unique]
    if unique_counts:
        lines += ["", "| configuration | proven unique | not unique | sat, uniqueness not settled |", "|---|---:|---:|---:|"]
        lines += [f"| {label} | {c['true']} | {c['false']} | {c['']} |" for label, c in unique_counts]
    lines += answered(rows, summaries)
    lines += by_size(rows, summaries)
    tilings = [r for r in rows if r.get("covered")]
    if tilings:
        lines += ["", "Tilings (solved = the best tiling proven optimal in time):", "",
                  "| puzzle | configuration | covered | optimal | time (s) |", "|---|---|---:|---|---:|"]
        lines += [f"| {r['puzzle']} | {config_of(r).label} | {r['covered']} | "
                  f"{'yes' if r['optimal'].lower() == 'true' else 'not proven'} | {_s(seconds(r))} |" for r in tilings]
    problems = disagreements(rows)
    if problems:
        lines += ["", "**The configurations disagree** (a sound encoding and solver cannot):", ""]
        lines += [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"
