"""janko 330's lazy loop by hand, with variants side by side (issue 17, ninth session: big).

    python benchmarks/big9_loop.py PUZZLE --variant base --variant seed=3 ... [--passes N] [--csv FILE]
    python benchmarks/big9_loop.py --table FILE      # medians per variant (Markdown)

Each pass runs every variant once, one after the other, in this process (the imports are paid
once), so the variants are compared within one pass under the same load. A variant is a
comma-separated list of:

* ``base``: the default plan (presolve, ``lazy-local-general``, one yices session);
* ``opt:NAME=V``: ``(set-option :NAME V)`` after the script's ``set-logic`` (e.g.
  ``opt:random-seed=3``, ``opt:yices-randomness=0``);
* ``skipclosed``: no local rules for the cells of closed regions (the ninth session's try);
* ``nopack``: the session asks for every open cell by name (no packed get-value);
* ``skip:RULE``: the presolve without that deduction rule (e.g. ``skip:size-cap``);
* ``argv:ARG``: one more command-line argument for the solver (e.g. ``argv:--mcsat``);
* ``profile``: the whole variant under cProfile (top 25 by cumulative time to stderr).

The solver is ``yices`` unless the environment variable ``B9_SOLVER`` names another.

Columns: presolve, encode, load, the solve stage, its rounds and cuts, the check-sats' wall
time, get-value, cuts, send, and the yices process's CPU (from /proc).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.kind import KIND
from fillsmt.smtlib import Command, Script
from fillsmt.solutions import Search

from big8_loop import _cpu_of, emit, table, timer  # noqa: E402 (benchmarks/ is the script's folder)

FIELDS = ["pass", "variant", "puzzle", "presolve", "encode", "load", "rounds", "cuts", "checks_s", "get_value_s",
          "cuts_s", "send_s", "solve", "total", "yices_cpu"]


def _without_closed_rules(found) -> Script:
    """The local relaxation with no local rules for the cells of closed regions (each holds of
    their fixed numbers; measured in the ninth session, no gain, not kept in the encoder)."""
    from fillsmt.fillomino.encode_tree import closed_cells
    from fillsmt.fillomino.lazy import _Local

    class WithoutClosed(_Local):
        def local_rules(self):
            closed = closed_cells(self.p.height, self.p.width, self.d)
            keep, self.cells = self.cells, [x for x in self.cells if x not in closed]
            try:
                yield from super().local_rules()
            finally:
                self.cells = keep

    return WithoutClosed(found.puzzle, found.hints, 2).script()


def _with_options(script: Script, options: list[tuple[str, str]]) -> Script:
    commands = list(script.commands)
    at = next(i for i, c in enumerate(commands) if c.name == "set-logic") + 1
    extra = [Command("set-option", (f":{k}", v)) for k, v in options]
    return Script.of(commands[:at] + extra + commands[at:])


def run_variant(path: str, variant: str) -> dict:
    parts = variant.split(",")
    options = [tuple(p[4:].split("=", 1)) for p in parts if p.startswith("opt:")]
    t0 = time.perf_counter()
    puzzle = KIND.parse(open(path).read(), path)
    skipped = {p[5:] for p in parts if p.startswith("skip:")}
    if skipped:  # the presolve without some rules (e.g. skip:size-cap)
        from fillsmt.fillomino.deduce import deduce
        from fillsmt.fillomino.deduce.fixpoint import ALL_RULES
        from fillsmt.kind import Presolved
        d = deduce(puzzle, [r for r in ALL_RULES if r not in skipped])
        found = Presolved(d.fixed_count, puzzle=d.filled_puzzle(puzzle), hints=d.domains)
    else:
        found = KIND.presolve(puzzle)
    t1 = time.perf_counter()
    encoding = "lazy-local-general"
    if "skipclosed" in parts:  # closed regions' cells without their local rules (measured, not kept)
        script = _without_closed_rules(found)
    else:
        script = KIND.encode(found.puzzle, encoding, found.hints)
    if options:
        script = _with_options(script, options)
    problem = KIND.problem(puzzle, script, encoding, "yices")
    if "nopack" in parts:  # every cell asked for by name, as before the ninth session
        problem.value_bits = 0
    problem.asked  # noqa: B018 (rendered here, as the pipeline's first check would)
    t2 = time.perf_counter()
    spent = {"check": 0.0, "get": 0.0, "cuts": 0.0, "send": 0.0}

    def timed(name, f):
        return timer(spent, name, f)

    driver = get_driver(os.environ.get("B9_SOLVER", "yices"))
    extra = [p[5:] for p in parts if p.startswith("argv:")]
    if extra:  # more command-line arguments for the solver (e.g. argv:--mcsat)
        import copy
        driver = copy.copy(driver)
        driver.session_args = (*driver.session_args, *extra)
    with driver.open_session() as session:
        session.check = timed("check", session.check)
        session.get_values_and_texts = timed("get", session.get_values_and_texts)
        session.send = timed("send", session.send)
        problem.cuts = timed("cuts", problem.cuts)
        search = Search(problem, session)
        search.start()
        t3 = time.perf_counter()
        status, first = search.solution()
        t4 = time.perf_counter()
        if first is None:
            sys.exit(f"{path}: {status.value}")
        cpu = _cpu_of(session.pid)
    return {"variant": variant, "puzzle": os.path.basename(path), "presolve": t1 - t0, "encode": t2 - t1,
            "load": t3 - t2, "rounds": search.checks, "cuts": search.cuts, "checks_s": spent["check"],
            "get_value_s": spent["get"], "cuts_s": spent["cuts"], "send_s": spent["send"], "solve": t4 - t3,
            "total": t4 - t0, "yices_cpu": cpu}


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        print(table(sys.argv[2], "variant", [c for c in FIELDS if c not in ("pass", "variant", "puzzle")]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("puzzle")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--csv")
    args = parser.parse_args()
    for n in range(args.passes):
        for variant in args.variant or ["base"]:
            if "profile" in variant.split(","):
                import cProfile
                import pstats
                prof = cProfile.Profile()
                row = prof.runcall(run_variant, args.puzzle, variant)
                pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
            else:
                row = run_variant(args.puzzle, variant)
            row["pass"] = n + 1
            emit(row, FIELDS, args.csv)


if __name__ == "__main__":
    main()
