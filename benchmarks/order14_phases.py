"""Issue 17, fourteenth session (order14): the strong search's second phase, one order against
orders taking turns (``backtrack.SECOND_PHASE_ORDERS``), as the race's search child runs it.

    .venv/bin/python benchmarks/order14_phases.py [--rounds N] [--cap S] [--limits 1,2] \\
        [--designs big-value:big-value,group-exit] PUZZLES... > OUT.csv

Per puzzle, presolved as ``pipeline.solve`` does (skipped when the rules settle it), then
``solve_strong(presolved, limit)`` (the search of ``Fillomino.search``: first phase, then the
second) for every design (a name and its orders, ``+``-separated: ``big-value`` is main's
second phase) and limit, designs alternating within each round, with a deadline of ``--cap``
CPU seconds. Recorded: nodes, probes, the answer (solutions found, exhausted, timed out, a
digest of the grids), CPU seconds (``time.process_time``), the minimum over the rounds. With
``--orders-alone`` every order of ``SEARCH_ORDERS`` in the second phase's place is also run alone
(the table of which order settles what).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import time

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.registry import get_kind

KIND = get_kind("fillomino")


def run(presolved, orders: tuple[str, ...], limit: int, cap: float) -> dict:
    saved = backtrack.SECOND_PHASE_ORDERS
    backtrack.SECOND_PHASE_ORDERS = orders
    try:
        start = time.process_time()
        found = backtrack.solve_strong(presolved, limit=limit, deadline=start + cap, clock=time.process_time)
        cpu = time.process_time() - start
    finally:
        backtrack.SECOND_PHASE_ORDERS = saved
    digest = hashlib.sha1(repr(sorted(found.solutions)).encode()).hexdigest()[:10]
    return {"cpu_s": round(cpu, 4), "nodes": found.nodes, "probes": found.probes,
            "solutions": len(found.solutions), "exhausted": found.exhausted,
            "timed_out": found.timed_out, "digest": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--cap", type=float, default=30.0)
    parser.add_argument("--limits", default="1,2")
    parser.add_argument("--designs", default="main:big-value,turns:big-value+group-exit")
    parser.add_argument("--orders-alone", action="store_true")
    args = parser.parse_args()
    designs = [(name, tuple(orders.split("+"))) for name, orders in
               (d.split(":") for d in args.designs.split(","))]
    if args.orders_alone:
        designs += [(f"alone-{o}", (o,)) for o in ("group-exit", "big-value", "big-group", "small-group")]
    out = csv.DictWriter(sys.stdout, ["puzzle", "limit", "design", "orders", "cpu_s", "nodes", "probes",
                                      "solutions", "exhausted", "timed_out", "digest"])
    out.writeheader()
    for path in args.puzzles:
        presolved = KIND.presolve(read_puzzle(path)).puzzle
        if all(v for row in presolved.cells for v in row):
            continue
        for limit in (int(x) for x in args.limits.split(",")):
            best: dict[str, dict] = {}
            for _ in range(args.rounds):
                for name, orders in designs:
                    row = run(presolved, orders, limit, args.cap)
                    if name not in best or row["cpu_s"] < best[name]["cpu_s"]:
                        best[name] = row
            for name, orders in designs:
                out.writerow({"puzzle": path.rsplit("/", 1)[-1], "limit": limit, "design": name,
                              "orders": "+".join(orders), **best[name]})
                sys.stdout.flush()


if __name__ == "__main__":
    main()
