"""Issue 17, fourteenth session (steiner14): ``capacity``'s Steiner count on and off, in one
process, rounds alternating.

    .venv/bin/python benchmarks/steiner14_ab.py [--rounds N] [--cap S] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/steiner14_ab.py --summary OUT.csv...   # a markdown table per set

Per puzzle, presolved as ``pipeline.solve`` does (``KIND.presolve(...).puzzle``), ``solve_strong(presolved, limit, steiner=...)`` for limit 1 (the plain
solve: off by default, on measures the gate) and limit 2 (the proof: on by default), each with
the Steiner count off and on (with ``--default``, on as ``solve_strong``'s default has it:
for a plain solve, in its second phase only), alternating in every round; at most ``--cap`` CPU seconds a run
(``time.process_time``). Recorded: nodes, whether the search was exhausted or timed out, the
number of solutions and a digest of them, and the CPU seconds (the minimum over the rounds).
The answers of the two modes are checked to agree wherever neither timed out.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import time
from pathlib import Path


def summary(paths: list[str]) -> None:
    """Per set and limit: puzzles, sums of nodes and CPU off and on (runs at the cap counted at
    the cap), the median ratio on / off, and the puzzles more than 10 % faster or slower (CPU
    over 0.01 s either way)."""
    import statistics

    rows = [r for p in paths for r in csv.DictReader(open(p))]
    print("| set | limit | puzzles | nodes off | nodes on | CPU s off | CPU s on | median on/off | faster > 10 % | slower > 10 % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for key in sorted({(r["set"], r["limit"]) for r in rows}):
        part = [r for r in rows if (r["set"], r["limit"]) == key]
        off = sum(float(r["off_cpu"]) for r in part)
        on = sum(float(r["on_cpu"]) for r in part)
        ratio = statistics.median(float(r["ratio"]) for r in part)
        big = [r for r in part if max(float(r["off_cpu"]), float(r["on_cpu"])) > 0.01]
        faster = [r["puzzle"] for r in big if float(r["ratio"]) < 0.9]
        slower = [r["puzzle"] for r in big if float(r["ratio"]) > 1.1]
        print(f"| {key[0]} | {key[1]} | {len(part)} | {sum(int(r['off_nodes']) for r in part)} | "
              f"{sum(int(r['on_nodes']) for r in part)} | {off:.2f} | {on:.2f} | {ratio:.3f} | "
              f"{len(faster)} | {len(slower)}: {', '.join(slower)} |")


def main() -> None:
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2:])
        return
    from fillsmt.fillomino.backtrack import solve_strong
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--limits", default="1,2", help="the solution limits to run")
    ap.add_argument("--default", action="store_true",
                    help="'on' is solve_strong's default (steiner=None: a plain solve counts by Steiner trees "
                         "in its second phase only) instead of steiner=True")
    ap.add_argument("puzzles", nargs="+")
    a = ap.parse_args()
    out = csv.writer(sys.stdout)
    out.writerow(["set", "puzzle", "limit", "off_nodes", "on_nodes", "off_cpu", "on_cpu", "ratio",
                  "off_timed_out", "on_timed_out", "solutions", "exhausted", "digest"])
    for path in a.puzzles:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        for limit in map(int, a.limits.split(",")):
            best: dict[bool, dict] = {}
            for _ in range(a.rounds):
                for mode in (False, True):
                    t = time.process_time()
                    steiner = None if mode and a.default else mode
                    found = solve_strong(puzzle, limit=limit, steiner=steiner, clock=time.process_time,
                                         deadline=time.process_time() + a.cap)
                    cpu = time.process_time() - t
                    row = {"nodes": found.nodes, "cpu": cpu, "timed_out": found.timed_out,
                           "solutions": len(found.solutions), "exhausted": found.exhausted,
                           "digest": hashlib.sha1(repr(found.solutions).encode()).hexdigest()[:12]}
                    if mode in best:
                        row["cpu"] = min(row["cpu"], best[mode]["cpu"])
                    best[mode] = row
                if best[True]["timed_out"] and best[False]["timed_out"]:
                    break  # both at the cap: another round says nothing more
            off, on = best[False], best[True]
            if not off["timed_out"] and not on["timed_out"]:
                assert (off["solutions"], off["digest"], off["exhausted"]) == \
                    (on["solutions"], on["digest"], on["exhausted"]), (path, limit)
            answer = on if not on["timed_out"] else off
            out.writerow([Path(path).parent.parent.name if Path(path).parent.name == "puzzles" else Path(path).parent.name,
                          Path(path).stem, limit, off["nodes"], on["nodes"], f"{off['cpu']:.4f}",
                          f"{on['cpu']:.4f}", f"{on['cpu'] / max(off['cpu'], 1e-9):.3f}", off["timed_out"],
                          on["timed_out"], answer["solutions"], answer["exhausted"], answer["digest"]])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
