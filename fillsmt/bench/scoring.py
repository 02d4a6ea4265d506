"""SMT-COMP's scores of a benchmark's runs, beside PAR-2: errors first, then solved, then time.

SMT-COMP (single query track) scores each solver on each benchmark with its errors (a wrong
answer), whether it solved it, and its wall-clock and CPU time, adds them up over the benchmarks,
and ranks the solvers by the fewest errors, then the most solved, then the least wall time (the
least CPU time for the sequential view). Its views:

* ``sequential``: an answer counts only when its CPU time is within the time-out;
* ``parallel``: an answer counts when its wall time is within the time-out;
* ``sat`` and ``unsat``: the parallel view over the benchmarks whose status is sat (unsat), or,
  where it is unknown, that some run answered so; a run answering the other way on them is left
  out (times 0), so its wrong answers are errors of the view of what it answered;
* ``24 s``: the parallel view with a time-out of 24 seconds.

A run's time is the solver's own where BenchExec (or the ``rlimit`` fallback) measured it
(``solver_wall_s``, ``solver_cpu_s``), else the run's (``total_s``, ``cpu_s``). A time-out, a
memout, and any run past a view's time-out, is charged the view's time-out and counts as unsolved.
Time scores add up every run, solved or not.

What a run is judged against: an ``.smt2`` file's ``:status`` (the ``expected`` column); for a
puzzle, fillsmt's checked status: ``sat`` when some run's model passed the independent checker,
``unsat`` when fillsmt's own deduction rules (sound) proved there is none, else unknown (any
answer then counts as solved, as SMT-COMP counts it, unless two answers disagree: then the
benchmark is left out, and listed). An error is a ``sat``/``unsat`` answer against that, a ``sat``
whose model fails the checker, or, unlike SMT-COMP, a solver's ``(error …)`` reply: a solver that
cannot read a well-formed script of its logic ranks below every one that can.

An incremental file (several ``check-sat``) scores the number of its answers that match their
``:status`` up to the first wrong one (an error), as SMT-COMP's incremental track does.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Iterable

from fillsmt.bench.summary import DECISIVE, config_of, seconds

MEASURED = ("benchexec", "rlimit")
VIEWS = ("sequential", "parallel", "sat", "unsat", "24 s")
SHORT_TIMEOUT = 24.0
UNKNOWN = "unknown"


@dataclass
class Score:
    """One configuration's score in one view, and its rank there (1 is the best)."""

    configuration: str
    errors: int = 0
    wrong: int = 0
    error_replies: int = 0
    solved: int = 0
    solved_sat: int = 0
    solved_unsat: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    unsolved: int = 0
    timeouts: int = 0
    memouts: int = 0
    abstained: int = 0
    rank: int = 0


def times(row: dict) -> tuple[float, float]:
    """(wall, CPU) seconds of a run: the solver's measured ones where there are, else the run's."""
    if row.get("measured") in MEASURED and row.get("solver_wall_s"):
        return float(row["solver_wall_s"]), float(row.get("solver_cpu_s") or row["solver_wall_s"])
    wall = seconds(row)
    return wall, float(row.get("cpu_s") or wall)


def incremental(row: dict) -> bool:
    return len((row.get("expected") or "").split()) > 1


def expected_statuses(rows: Iterable[dict]) -> dict[str, str]:
    """Each one-shot benchmark's expected status (see the module's text)."""
    out: dict[str, str] = {}
    for row in rows:
        given = row.get("expected") or ""
        if given:
            out[row["puzzle"]] = given
            continue
        now = out.get(row["puzzle"], UNKNOWN)
        if row["status"] == "sat" and row["checked"].lower() == "true":
            out[row["puzzle"]] = "sat"
        elif now == UNKNOWN and row["status"] == "unsat" and row.get("answered_by") == "presolve":
            out[row["puzzle"]] = "unsat"
        else:
            out.setdefault(row["puzzle"], UNKNOWN)
    return out


def _answer(row: dict) -> str:
    said = (row.get("answer") or "").split()
    if said:
        return said[0]
    return row["status"] if row["status"] in DECISIVE else ""  # a CSV of an older fillsmt


def _bad_model(row: dict) -> bool:
    """A ``sat`` whose model failed the independent checker."""
    return _answer(row) == "sat" and row["status"] == "error" and row["checked"].lower() == "false"


def disputed(rows: list[dict], expected: dict[str, str]) -> list[str]:
    """Benchmarks of unknown status on which two runs gave opposite answers (left out)."""
    seen: dict[str, set[str]] = {}
    for row in rows:
        if expected.get(row["puzzle"]) == UNKNOWN and _answer(row) in DECISIVE and not _bad_model(row):
            seen.setdefault(row["puzzle"], set()).add(_answer(row))
    return [p for p, answers in seen.items() if len(answers) == 2]


def _view(name: str, timeout: float) -> tuple[float, bool, str | None]:
    """(time-out, whether CPU time decides, the status filter) of a view."""
    return {
        "sequential": (timeout, True, None),
        "parallel": (timeout, False, None),
        "sat": (timeout, False, "sat"),
        "unsat": (timeout, False, "unsat"),
        "24 s": (min(timeout, SHORT_TIMEOUT), False, None),
    }[name]


def _score_run(score: Score, row: dict, expected: str, limit: float, by_cpu: bool, keep: bool) -> None:
    """Add one one-shot run to ``score`` (``keep``: the run counts in this view at all)."""
    wall, cpu = times(row)
    answer = _answer(row)
    timeout, memout = row["status"] == "timeout", row["status"] == "memout"
    if memout or timeout:  # stopped at a limit: charged the view's time-out, as SMT-COMP's runs are
        wall = cpu = limit
    if (cpu if by_cpu else wall) > limit:
        wall, cpu, answer, timeout = limit, limit, "", not memout
    if not keep:
        return
    score.wall_s += wall
    score.cpu_s += cpu
    score.timeouts += timeout
    score.memouts += memout
    against = answer in DECISIVE and expected in DECISIVE and answer != expected
    wrong = against or (answer == "sat" and _bad_model(row))
    reply = answer == "error"
    score.wrong += wrong
    score.error_replies += reply
    score.errors += wrong or reply
    if answer in DECISIVE and not wrong:
        score.solved += 1
        score.solved_sat += answer == "sat"
        score.solved_unsat += answer == "unsat"
    else:
        score.unsolved += 1


def view_scores(rows: list[dict], view: str) -> list[Score]:
    """Every configuration's score in ``view`` over its one-shot runs, ranked."""
    expected = expected_statuses(rows)
    left_out = set(disputed(rows, expected))
    one_shot = [r for r in rows if not incremental(r) and r["puzzle"] not in left_out]
    if not one_shot:
        return []
    wanted = _view(view, 1.0)[2]
    chosen = {r["puzzle"] for r in one_shot if _in_view(expected[r["puzzle"]], _answer(r), wanted)}
    scores: dict[str, Score] = {}
    by_cpu = view == "sequential"
    for row in one_shot:
        label = config_of(row).label
        score = scores.setdefault(label, Score(label))
        inside, answer = row["puzzle"] in chosen, _answer(row)
        if wanted is None:
            counted = True
        elif answer in DECISIVE and answer != wanted:  # answered the other way: not this view's (SMT-COMP since 2021)
            counted = False
            score.unsolved += inside
        else:  # a benchmark of the view's status, or one answered so against its status (an error)
            counted = inside or answer == wanted
        score.abstained += not inside and not counted
        cap = _view(view, float(row["timeout_s"]))[0]
        _score_run(score, row, expected[row["puzzle"]], cap, by_cpu, counted)
    return _ranked(list(scores.values()), by_cpu)


def _in_view(expected: str, answer: str, wanted: str | None) -> bool:
    """Whether a benchmark is one of a view's: every one, or those of its status (of unknown
    status: that a run answered so)."""
    return wanted is None or expected == wanted or (expected == UNKNOWN and answer == wanted)


def _ranked(scores: list[Score], by_cpu: bool) -> list[Score]:
    def key(s: Score):
        first, second = (s.cpu_s, s.wall_s) if by_cpu else (s.wall_s, s.cpu_s)
        return (s.errors, -s.solved, round(first, 6), round(second, 6))

    ordered = sorted(scores, key=key)
    for i, s in enumerate(ordered):
        s.rank = i + 1 if i == 0 or key(ordered[i - 1]) != key(s) else ordered[i - 1].rank
    return ordered


@dataclass
class IncrementalScore:
    """One configuration's incremental score: its correct answers up to each file's first wrong one."""

    configuration: str
    errors: int = 0
    correct: int = 0
    checks: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    timeouts: int = 0
    memouts: int = 0
    rank: int = 0


def correct_answers(row: dict) -> tuple[int, bool]:
    """(the answers that match their status before the first wrong one, whether one was wrong)."""
    correct = 0
    for said, wanted in zip((row.get("answer") or "").split(), row["expected"].split()):
        if said not in DECISIVE:
            return correct, said == "error"
        if wanted in DECISIVE and said != wanted:
            return correct, True
        correct += 1
    return correct, False


def incremental_scores(rows: list[dict]) -> list[IncrementalScore]:
    """Every configuration's score over its incremental files (parallel: within the wall-clock
    time-out), ranked by errors, then correct answers, then wall time."""
    scores: dict[str, IncrementalScore] = {}
    for row in rows:
        if not incremental(row):
            continue
        label = config_of(row).label
        score = scores.setdefault(label, IncrementalScore(label))
        wall, cpu = times(row)
        limit = float(row["timeout_s"])
        memout = row["status"] == "memout"
        correct, wrong = correct_answers(row)
        if memout or row["status"] == "timeout" or wall > limit:
            wall = cpu = limit
        score.checks += len(row["expected"].split())
        score.correct += correct
        score.errors += wrong
        score.wall_s += wall
        score.cpu_s += cpu
        score.timeouts += row["status"] == "timeout"
        score.memouts += memout
    ordered = sorted(scores.values(), key=lambda s: (s.errors, -s.correct, s.wall_s, s.cpu_s))
    for i, s in enumerate(ordered):
        s.rank = i + 1
    return ordered


def memory(rows: list[dict]) -> list[dict]:
    """Per configuration: how its runs were measured, and the median and largest peak memory (MB)."""
    by: dict[str, list[dict]] = {}
    for row in rows:
        by.setdefault(config_of(row).label, []).append(row)
    out = []
    for label, rs in by.items():
        mb = [float(r["memory_mb"]) for r in rs if r.get("memory_mb")]
        out.append(
            {
                "configuration": label,
                "measured": dict(Counter(r.get("measured") or "–" for r in rs)),
                "median_memory_mb": statistics.median(mb) if mb else None,
                "max_memory_mb": max(mb) if mb else None,
                "memouts": sum(1 for r in rs if r["status"] == "memout"),
            }
        )
    return out


def _n(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def markdown_lines(rows: list[dict]) -> list[str]:
    """The SMT-COMP tables, then memory and how each configuration was measured, as Markdown lines."""
    lines: list[str] = []
    views = {view: view_scores(rows, view) for view in VIEWS}
    if any(views.values()):
        lines += [
            "",
            "SMT-COMP scores, ranked as SMT-COMP ranks them (fewest errors, then most solved, then least wall "
            "time; least CPU time in the sequential view):",
            "",
            "| view | rank | configuration | errors | solved | sat | unsat | wall (s) | CPU (s) | unsolved "
            "| time-out | memout | abstained |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for view, scores in views.items():
            lines += [
                f"| {view} | {s.rank} | {s.configuration} | {_errors(s)} | {s.solved} | {s.solved_sat} | "
                f"{s.solved_unsat} | {s.wall_s:.3f} | {s.cpu_s:.3f} | {s.unsolved} | {s.timeouts} | {s.memouts} | "
                f"{s.abstained} |"
                for s in scores
            ]
        expected = expected_statuses(rows)
        left_out = disputed(rows, expected)
        lines += [
            "",
            "errors: wrong answers (against an .smt2 file's :status, or a puzzle's checked status: sat when "
            "some run's model passed the checker, unsat when the deduction rules proved it) and sat models that "
            "fail the checker, plus (error …) replies (w + e when both). Times: the solver's own, as BenchExec "
            "measured it, where the measured column says benchexec (or rlimit), else the run's; a time-out or "
            "memout is charged the time-out. sequential: answers within the CPU time-out; parallel: within the "
            "wall time-out; sat/unsat: the parallel view on sat (unsat) benchmarks; 24 s: the parallel view "
            "with a time-out of 24 s. abstained: runs on benchmarks outside the view.",
        ]
        if left_out:
            lines += ["", "Left out (unknown status, opposite answers): " + ", ".join(left_out) + "."]
    lines += _incremental_lines(rows)
    lines += _memory_lines(rows)
    return lines


def _errors(s: Score) -> str:
    if s.wrong and s.error_replies:
        return f"{s.errors} ({s.wrong} w + {s.error_replies} e)"
    return str(s.errors)


def _incremental_lines(rows: list[dict]) -> list[str]:
    scores = incremental_scores(rows)
    if not scores:
        return []
    return [
        "",
        "Incremental files, scored as SMT-COMP's incremental track: the answers that match their :status "
        "up to each file's first wrong one (an error):",
        "",
        "| rank | configuration | errors | correct answers | check-sat | wall (s) | CPU (s) | time-out | memout |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
        *[
            f"| {s.rank} | {s.configuration} | {s.errors} | {s.correct} | {s.checks} | {s.wall_s:.3f} | "
            f"{s.cpu_s:.3f} | {s.timeouts} | {s.memouts} |"
            for s in scores
        ],
    ]


def _memory_lines(rows: list[dict]) -> list[str]:
    table = memory(rows)
    if not any(t["median_memory_mb"] is not None for t in table):
        return []
    return [
        "",
        "Memory (peak of the solver and every process it started, MB of 10^6 bytes) and how each run was "
        "measured (benchexec: cgroups; rlimit: getrusage, approximate; session, race, in-process: fillsmt's "
        "own times, no memory; none: no solver ran):",
        "",
        "| configuration | median memory (MB) | largest (MB) | memout | measured |",
        "|---|---:|---:|---:|---|",
        *[
            f"| {t['configuration']} | {_n(t['median_memory_mb'])} | {_n(t['max_memory_mb'])} | {t['memouts']} | "
            + ", ".join(f"{how} {n}" for how, n in sorted(t["measured"].items()))
            + " |"
            for t in table
        ],
    ]


def json_scores(rows: list[dict]) -> dict:
    """The same numbers for ``--json``."""
    expected = expected_statuses(rows)

    def rounded(d: dict) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in d.items()}

    return {
        "views": {view: [rounded(asdict(s)) for s in view_scores(rows, view)] for view in VIEWS},
        "incremental": [rounded(asdict(s)) for s in incremental_scores(rows)],
        "left_out": disputed(rows, expected),
        "memory": memory(rows),
    }


__all__ = [
    "IncrementalScore",
    "Score",
    "VIEWS",
    "correct_answers",
    "expected_statuses",
    "incremental_scores",
    "json_scores",
    "markdown_lines",
    "memory",
    "times",
    "view_scores",
]
