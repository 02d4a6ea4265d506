"""Where the lazy region cuts' time goes on one puzzle, in one process (issue 17, eighth session).

    python benchmarks/big8_loop.py PUZZLE [--unique] [--label NAME] [--csv FILE]
    python benchmarks/big8_loop.py --table FILE      # median of each column per label (Markdown)

Runs the default plan for a huge open area by hand (presolve, ``lazy-local-general``, one yices
session) with timers around the stages and the session's calls: the check-sats, the get-value
exchanges with their decoding, and the cuts. Also the yices process's CPU time (from /proc) and
this process's. Whichever ``fillsmt`` is imported is measured: run it with
``PYTHONPATH=<other checkout>`` to time another branch in the same conditions.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time

t_start = time.perf_counter()
from fillsmt.drivers.registry import get_driver  # noqa: E402
from fillsmt.fillomino.kind import KIND  # noqa: E402
from fillsmt.solutions import Search, differs  # noqa: E402

t_imported = time.perf_counter()

FIELDS = ["label", "puzzle", "imports", "presolve", "encode", "load", "rounds", "checks_s", "get_value_s", "cuts_s",
          "solve", "unique", "unique_checks", "proven", "yices_cpu", "python_cpu", "total"]


def _cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timer(spent: dict, name: str, f):
    """``f`` with the seconds of each call added to ``spent[name]``."""
    def run(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            spent[name] += time.perf_counter() - t
    return run


def emit(row: dict, fields: list[str], path: str | None) -> None:
    """Print ``row`` (floats to 3 places) as key=value pairs and append it to the CSV ``path``."""
    out = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}
    print(" ".join(f"{k}={out[k]}" for k in fields), flush=True)
    if path:
        new = not os.path.exists(path)
        with open(path, "a", newline="") as f:
            writer = csv.DictWriter(f, fields)
            if new:
                writer.writeheader()
            writer.writerow(out)


def table(path: str, key: str = "label", columns: list[str] | None = None) -> str:
    """The median of every timing column per ``key`` value, as a Markdown table (in file order)."""
    from statistics import median

    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    labels = list(dict.fromkeys(r[key] for r in rows))
    columns = columns or [c for c in FIELDS if c not in ("label", "puzzle", "proven", "unique_checks")]
    lines = ["| " + " | ".join([key, "runs", *columns]) + " |", "|---|" + "---:|" * (len(columns) + 1)]
    for label in labels:
        mine = [r for r in rows if r[key] == label]
        cells = [f"{median(float(r[c]) for r in mine if r[c] != ''):.2f}" if any(r[c] != '' for r in mine) else ""
                 for c in columns]
        lines.append("| " + " | ".join([label, str(len(mine)), *cells]) + " |")
    return "\n".join(lines)


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        print(table(sys.argv[2]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("puzzle")
    parser.add_argument("--unique", action="store_true")
    parser.add_argument("--label", default="")
    parser.add_argument("--csv")
    parser.add_argument("--solver", default="yices", help="a session solver (yices-api: its CPU is this process's)")
    args = parser.parse_args()
    row = {"label": args.label, "puzzle": os.path.basename(args.puzzle), "imports": t_imported - t_start}
    puzzle = KIND.parse(open(args.puzzle).read(), args.puzzle)
    t0 = time.perf_counter()
    found = KIND.presolve(puzzle)
    t1 = time.perf_counter()
    encoding = "lazy-local-general"
    problem = KIND.problem(puzzle, KIND.encode(found.puzzle, encoding, found.hints), encoding, args.solver)
    t2 = time.perf_counter()
    spent = {"check": 0.0, "get": 0.0, "cuts": 0.0}

    def timed(name, f):
        return timer(spent, name, f)

    with get_driver(args.solver).open_session() as session:
        session.check = timed("check", session.check)
        session.get_values_and_texts = timed("get", session.get_values_and_texts)
        problem.cuts = timed("cuts", problem.cuts)
        search = Search(problem, session)
        search.start()
        t3 = time.perf_counter()
        status, first = search.solution()
        t4 = time.perf_counter()
        row.update(presolve=t1 - t0, encode=t2 - t1, load=t3 - t2, rounds=search.checks, checks_s=spent["check"],
                   get_value_s=spent["get"], cuts_s=spent["cuts"], solve=t4 - t3, unique="", unique_checks="",
                   proven="")
        if first is None:
            sys.exit(f"{args.puzzle}: {status.value}")
        if args.unique:
            search.solutions.append(first)
            session.assert_term(differs(first.raw, problem.terms))
            before = search.checks
            second, _ = search.solution()
            row.update(unique=time.perf_counter() - t4, unique_checks=search.checks - before,
                       proven=second.value == "unsat")
        row["yices_cpu"] = _cpu_of(session.pid) if hasattr(session, "pid") else ""
    times = os.times()
    row["python_cpu"] = times.user + times.system
    row["total"] = time.perf_counter() - t_start
    emit(row, FIELDS, args.csv)


if __name__ == "__main__":
    main()
