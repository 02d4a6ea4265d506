"""What the SMT community reads beside the totals: configurations head to head, the virtual
best configuration, and the log-log scatter plot of two configurations.

* head to head: for each pair (A, B), over the puzzles both ran, A *wins* a puzzle when it solved
  it and B did not, or both solved it and A's total time is lower by more than the tie margin
  (:data:`TIE_RATIO` of the faster time, and at least :data:`TIE_SECONDS`); a *tie* is both
  unsolved or both within that margin;
* the virtual best configuration (VBS) takes, per puzzle, the fastest configuration that solved
  it; it shows what a perfect per-puzzle choice among the configurations would give, and how
  often each configuration is that choice.

Both count only the runs left to a solver (:func:`~fillsmt.bench.summary.left_to_solver`): a
puzzle the presolve settled, or a run the rules' search answered, is no solver's win. Like
:mod:`fillsmt.bench.summary`, everything is computed from CSV rows.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import BinaryIO

from fillsmt.bench.jobs import Config
from fillsmt.bench.summary import config_of, is_solved, left_to_solver, seconds

TIE_RATIO = 0.10
TIE_SECONDS = 0.01


def _by_config(rows: list[dict]) -> dict[Config, dict[str, dict]]:
    """Configuration → puzzle → run, for the runs left to the solver; every configuration of
    ``rows`` is a key, even one whose runs the presolve all settled."""
    table: dict[Config, dict[str, dict]] = {}
    for row in rows:
        runs = table.setdefault(config_of(row), {})
        if left_to_solver(row):
            runs[row["puzzle"]] = row
    return table


def outcome(a: dict, b: dict) -> int:
    """1 when run ``a`` beats run ``b``, -1 when it loses, 0 for a tie."""
    sa, sb = is_solved(a), is_solved(b)
    if sa != sb:
        return 1 if sa else -1
    if not sa:
        return 0
    ta, tb = seconds(a), seconds(b)
    if abs(ta - tb) <= max(TIE_SECONDS, TIE_RATIO * min(ta, tb)):
        return 0
    return 1 if ta < tb else -1


def head_to_head(rows: list[dict]) -> dict[tuple[Config, Config], tuple[int, int, int]]:
    """(wins, losses, ties) of A against B for every ordered pair of configurations, over the
    puzzles both left to their solvers."""
    table = _by_config(rows)
    out = {}
    for a, runs_a in table.items():
        for b, runs_b in table.items():
            if a == b:
                continue
            common = [p for p in runs_a if p in runs_b]
            results = [outcome(runs_a[p], runs_b[p]) for p in common]
            out[(a, b)] = (results.count(1), results.count(-1), results.count(0))
    return out


def virtual_best(rows: list[dict]) -> tuple[dict[str, tuple[Config, float]], list[str]]:
    """Per puzzle, the fastest configuration that solved it and its time; and the puzzles none solved
    (both over the runs left to the solver: a puzzle the presolve settled everywhere is in neither)."""
    best: dict[str, tuple[Config, float]] = {}
    puzzles: dict[str, None] = {}
    for row in rows:
        if not left_to_solver(row):
            continue
        puzzles[row["puzzle"]] = None
        if is_solved(row):
            t = seconds(row)
            if row["puzzle"] not in best or t < best[row["puzzle"]][1]:
                best[row["puzzle"]] = (config_of(row), t)
    return best, [p for p in puzzles if p not in best]


def markdown_lines(rows: list[dict]) -> list[str]:
    """The head-to-head table and the virtual best configuration, as Markdown lines."""
    configs = list(_by_config(rows))
    if len(configs) < 2:
        return []
    pairs = head_to_head(rows)
    lines = [
        "",
        "Head to head: wins–losses–ties of the row's configuration against the column's, over the "
        "puzzles both left to their solver (not settled by presolve, not answered by the rules' search; "
        f"a win: solved and the other not, or faster by more than "
        f"{TIE_RATIO:.0%} and {TIE_SECONDS:g} s; a tie: both unsolved or within that):",
        "",
        "| | " + " | ".join(c.label for c in configs) + " |",
        "|---|" + "---:|" * len(configs),
    ]
    for a in configs:
        cells = ["–" if a == b else "{}–{}–{}".format(*pairs[(a, b)]) for b in configs]
        lines.append(f"| {a.label} | " + " | ".join(cells) + " |")
    best, unsolved = virtual_best(rows)
    times = [t for _, t in best.values()]
    timeout = max((float(r["timeout_s"]) for r in rows), default=0.0)
    total = len(best) + len(unsolved)
    par2 = statistics.fmean([*times, *[2 * timeout] * len(unsolved)]) if total else 0.0
    chosen = {c: sum(1 for cfg, _ in best.values() if cfg == c) for c in configs}
    lines += [
        "",
        "Virtual best configuration (per puzzle left to the solvers, the fastest configuration that solved it):",
        "",
        "| solved | median (s) | mean (s) | PAR-2 (s) |",
        "|---:|---:|---:|---:|",
        f"| {len(best)}/{total} | {statistics.median(times) if times else 0:.3f} | "
        f"{statistics.fmean(times) if times else 0:.3f} | {par2:.3f} |",
        "",
        "Fastest on how many puzzles: " + ", ".join(f"{c.label} {n}" for c, n in chosen.items()) + ".",
    ]
    return lines


def scatter_plot(rows: list[dict], x: Config, y: Config, path: str | Path | BinaryIO, title: str = "") -> None:
    """The log-log scatter plot of ``y``'s total time against ``x``'s, one point per puzzle both
    left to their solvers; an unsolved run is drawn at the time-out (the dashed lines), the diagonal is equal time."""
    from fillsmt.bench.plot import SMALLEST, _pyplot, save

    plt = _pyplot()
    table = _by_config(rows)
    runs_x, runs_y = table.get(x, {}), table.get(y, {})
    common = [p for p in runs_x if p in runs_y]
    timeout = max((float(r["timeout_s"]) for r in rows), default=1.0)

    def t(row: dict) -> float:
        return max(seconds(row), SMALLEST) if is_solved(row) else timeout

    xs, ys = [t(runs_x[p]) for p in common], [t(runs_y[p]) for p in common]
    fig, ax = plt.subplots(figsize=(6, 6), dpi=120)
    ax.scatter(xs, ys, s=14, alpha=0.7)
    low = min([*xs, *ys, timeout]) / 2
    ax.plot([low, timeout * 1.5], [low, timeout * 1.5], color="grey", linewidth=1)
    for f in (0.1, 10):
        ax.plot([low, timeout * 1.5], [low * f, timeout * 1.5 * f], color="grey", linewidth=0.5, linestyle=":")
    ax.axhline(timeout, color="grey", linestyle="--", linewidth=1)
    ax.axvline(timeout, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, timeout * 1.5)
    ax.set_ylim(low, timeout * 1.5)
    ax.set_xlabel(f"{x.label}: total time (s)")
    ax.set_ylabel(f"{y.label}: total time (s)")
    below = sum(1 for a, b in zip(xs, ys) if b < a)
    ax.set_title(title or f"{len(common)} puzzles; {below} below the diagonal ({y.label} faster)", fontsize=9)
    ax.grid(True, which="major", alpha=0.4)
    save(fig, path)
