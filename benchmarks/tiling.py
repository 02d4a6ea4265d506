"""Benchmark: the four tiling instances with yices and z3, each with the default method (auto:
blocks first on the large boards, then the bound search) and the plain bound search, at most two
solver processes at a time; writes benchmarks/results/tiling.csv and tiling.md.

    python benchmarks/tiling.py [--timeout 120] [--jobs 2]
"""

from __future__ import annotations

import argparse
import csv
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fillsmt.tiling.plain_format import read_problem  # noqa: E402
from fillsmt.tiling.model import placements  # noqa: E402
from fillsmt.tiling.optimize import optimize  # noqa: E402

INSTANCES = ["kalvelagen-11x11", "tetris-7x7", "kalvelagen-41x41", "kalvelagen-61x61"]
CONFIGS = [("yices", "auto"), ("z3", "auto"), ("yices", "bounds"), ("z3", "bounds")]
FIELDS = ["instance", "solver", "method", "amo", "placements", "covered", "upper_bound", "optimal", "status",
          "time_first", "time_best", "time_proven", "total", "checks", "log"]


def run_one(job: tuple[str, str, str, str, float]) -> dict:
    name, solver, method, amo, timeout = job
    problem = read_problem(str(ROOT / "instances" / "tiling" / f"{name}.txt"))
    start = time.perf_counter()
    try:
        r = optimize(problem, solver, timeout, method=method, amo=amo)
    except Exception as e:  # noqa: BLE001 - a row per run, whatever happens
        return {"instance": name, "solver": solver, "method": method, "amo": amo, "status": f"error: {e}"}
    total = time.perf_counter() - start

    def t(x):
        return "" if x is None else f"{x:.2f}"
    return {"instance": name, "solver": solver, "method": r.method, "amo": r.amo,
            "placements": len(placements(problem)), "covered": r.covered, "upper_bound": r.upper_bound,
            "optimal": r.optimal, "status": r.status.value, "time_first": t(r.time_first),
            "time_best": t(r.time_best), "time_proven": t(r.time_proven), "total": f"{total:.2f}",
            "checks": r.checks, "log": " ".join(f"{k}:{a}:{s}" for k, a, s in r.log)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--amo", default="auto")
    ap.add_argument("--instances", nargs="*", default=INSTANCES)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "tiling"))
    args = ap.parse_args(argv)
    jobs = [(name, solver, method, args.amo, args.timeout) for name in args.instances for solver, method in CONFIGS]
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(run_one, jobs):
            rows.append(row)
            print(row, flush=True)
    out = Path(args.out)
    with open(out.with_suffix(".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    command = "python benchmarks/tiling.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    lines = ["# Tiling benchmark", "", f"Command: `{command.strip()}` (2 cores shared, "
             f"{args.jobs} solver processes at a time, time-out {args.timeout:g} s per run).", "",
             "Times are seconds from the start of `optimize` (encoding included): the first tiling, the best "
             "tiling, and the optimality proof (empty when not proven).", "",
             "| instance | solver | method | placements | covered | upper bound | optimal | first | best | proven | total | checks |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| " + " | ".join(str(r.get(k, "")) for k in
                                         ["instance", "solver", "method", "placements", "covered", "upper_bound",
                                          "optimal", "time_first", "time_best", "time_proven", "total", "checks"]) + " |")
    lines += ["", "Log per run (`bound:answer:seconds`; for the blocks, `covered:block HxW [optimal]:seconds`):", ""]
    lines += [f"- {r['instance']} / {r['solver']}: {r.get('log') or r.get('status')}" for r in rows]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
