"""Where one lazy-loop solve's time goes, phase by phase (issue 17, twelfth session: loop12).

    python benchmarks/loop12_phases.py PUZZLE [--runs N] [--label NAME] [--csv FILE]

Runs ``pipeline.solve`` (the default plan, as ``fillsmt solve`` does) in this process with
timers around the lazy loop's pieces: the session's check-sats, get-values, sends (the cuts:
mostly yices parsing and asserting them), the decoding (``Search._decoded`` less its get-value)
and the cuts (``Problem.cuts``); also the presolve, the encoding and the yices process's CPU.
Whichever ``fillsmt`` is imported is measured (run it as a script, so its folder, not the
working directory, comes first on ``sys.path``; ``PYTHONPATH=<checkout>`` picks the side).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
from collections import defaultdict

import fillsmt
from fillsmt import pipeline
from fillsmt.drivers import session as session_module
from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.kind import KIND
from fillsmt.solutions import Search

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from big8_loop import emit, timer  # noqa: E402

FIELDS = ["label", "puzzle", "presolve", "encode", "solve", "total", "checks", "cuts", "check_s", "get_value_s",
          "send_s", "decode_s", "cuts_s", "python_cpu", "children_cpu"]


def one_run(path: str, label: str) -> dict:
    spent: dict[str, float] = defaultdict(float)
    S = session_module.Session
    saved = (S.check, S.get_values_and_texts, S.send, Search._decoded, KIND.problem)
    S.check = timer(spent, "check_s", S.check)
    S.get_values_and_texts = timer(spent, "get_value_s", S.get_values_and_texts)
    S.send = timer(spent, "send_s", S.send)
    Search._decoded = timer(spent, "decode_s", Search._decoded)

    def problem(*a, **k):
        found = saved[4](*a, **k)
        if found.cuts is not None:
            found.cuts = timer(spent, "cuts_s", found.cuts)
        return found

    KIND.problem = problem
    try:
        before = resource.getrusage(resource.RUSAGE_SELF)
        child_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        puzzle = KIND.parse(open(path).read(), path)
        result = pipeline.solve(puzzle, get_driver("yices"), timeout=60)
        after = resource.getrusage(resource.RUSAGE_SELF)
        child_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        S.check, S.get_values_and_texts, S.send, Search._decoded, KIND.problem = saved
    assert result.grid is not None, result.message
    times = result.times
    checks, cuts = 0, 0
    if result.message and "region cuts" in result.message:
        words = result.message.split()
        checks, cuts = int(words[0]), int(words[2])
    row = {"label": label, "puzzle": os.path.basename(path), "presolve": times.get("presolve", 0.0),
           "encode": times.get("encode", 0.0), "solve": times.get("solve", 0.0), "total": times["total"],
           "checks": checks, "cuts": cuts, **{k: spent[k] for k in ("check_s", "get_value_s", "send_s", "cuts_s")},
           "decode_s": spent["decode_s"] - 0.0,
           "python_cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
           "children_cpu": (child_after.ru_utime + child_after.ru_stime)
           - (child_before.ru_utime + child_before.ru_stime)}
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("puzzle")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--label", default="")
    ap.add_argument("--csv")
    args = ap.parse_args()
    print(f"# fillsmt from {os.path.dirname(fillsmt.__file__)}", file=sys.stderr)
    for _ in range(args.runs):
        emit(one_run(args.puzzle, args.label), FIELDS, args.csv)


if __name__ == "__main__":
    main()
