"""Where z3-prop's time goes: one puzzle, the presolve, the encoding, then the z3-prop backend
in this process with its propagator's event counts and the seconds spent in its callbacks.

    python benchmarks/prop_profile.py PUZZLE [-e onehot-prop] [--timeout T]
        [--param smt.phase_selection=1]…
"""

from __future__ import annotations

import argparse
import threading
import time

from fillsmt.drivers.z3_backend import Z3PropBackend
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import parse_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.script import script_body


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzle")
    ap.add_argument("-e", "--encoding", default="onehot-prop")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--param", action="append", default=[], help="a Z3 parameter NAME=VALUE (z3.set_param)")
    args = ap.parse_args()
    import z3

    for pair in args.param:
        name, value = pair.split("=", 1)
        z3.set_param(name, value)
    puzzle = parse_puzzle(open(args.puzzle).read(), args.puzzle)
    t0 = time.perf_counter()
    d = deduce(puzzle)
    script = KIND.encoding(args.encoding).encode(d.filled_puzzle(puzzle), d.domains)
    t1 = time.perf_counter()
    backend = Z3PropBackend()
    printed: list[str] = []
    backend.run(script_body(script), printed.append)
    t2 = time.perf_counter()
    timer = threading.Timer(args.timeout, lambda: backend.z3.main_ctx().interrupt())
    timer.daemon = True
    timer.start()
    backend.run("(check-sat)\n", printed.append)
    t3 = time.perf_counter()
    timer.cancel()
    status = printed[-1].strip()
    grid_ok = ""
    if status == "sat":
        terms = [c for c in script.commands if c.name == "get-value"][0].args[0]
        model = backend.solver.model()
        values = [model.eval(v, model_completion=True).as_long() for v in backend._parse(list(terms))]
        grid = tuple(tuple(values[r * puzzle.width:(r + 1) * puzzle.width]) for r in range(puzzle.height))
        grid_ok = "checked" if not check_solution(puzzle.cells, grid) else "WRONG"
    prop = backend.propagator
    print(f"{args.puzzle} {args.encoding} : {status} {grid_ok} "
          f"presolve+encode {t1 - t0:.2f} s, load {t2 - t1:.2f} s, check {t3 - t2:.2f} s, "
          f"{' '.join(args.param)} events {prop.events if prop else None}, callbacks {getattr(prop, 'seconds', 0):.2f} s")


if __name__ == "__main__":
    main()
