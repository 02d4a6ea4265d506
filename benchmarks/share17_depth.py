"""Issue 17, seventeenth session: the quick proof's guess where the tight groups meet
(``backtrack``'s ``shared_depth``), at each depth, in one process, alternating; CPU s (the
minimum over the rounds) and nodes.

    .venv/bin/python benchmarks/share17_depth.py [--rounds N] [--depths=-1,0,1,2,3,99] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/share17_depth.py --summary OUT.csv

Each depth runs the quick proof's search (``solve_strong``, limit 2, no probing, a first solution
within ``features.quick_proof_budget``'s nodes, its CPU seconds, the last conflict, the wiped-out
cell and the failure weights on) with ``shared_depth`` set to it (-1: off, the sixteenth
session's quick proof). Puzzles the rules settle are left out. A row's ratio is (presolve + proof) / (presolve + the plain
quick search), CPU, where the plain quick search (``KIND.quick_search``, limit 1) finds a
solution (``plain`` empty where it does not: the plain solve is then the race's); ``ok`` 0: the
proof did not settle within the quick proof's bounds (it goes to the race). Every settled proof
must have the plain search's solution, or the run stops with an error.

``--summary`` prints, per depth: nodes and CPU in all, the proofs settled, those at 2x or more
and at 1.8x or more, the highest ratios, and the puzzles any depth leaves unsettled.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from wdeg16_variants import presolved

from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle


def rows(puzzle, depths: list[int], rounds: int):
    """(presolve CPU, plain quick search CPU or None where it finds nothing, {depth: (CPU,
    nodes, settled)}), minimum over the rounds; None where the rules settle the puzzle."""
    start = presolved(puzzle)
    if start is None:
        return None
    pre, target, first, whole = start
    plain_cpu, known, best = None, None, {}
    for _ in range(rounds):
        t = time.process_time()
        plain = KIND.quick_search(target, 1)
        cpu = time.process_time() - t
        if plain is not None and plain.solutions:  # its seconds may run out in one round, not in another
            plain_cpu = cpu if plain_cpu is None else min(plain_cpu, cpu)
            known = plain.solutions
        for depth in depths:
            t = time.process_time()
            result = solve_strong(target, limit=2, probing=False, first_nodes=first,
                                  deadline=time.process_time() + whole, clock=time.process_time,
                                  last_conflict=True, wiped_out=True, weights=True, shared_depth=depth)
            cpu = time.process_time() - t
            if known is not None and result.exhausted and result.solutions[:1] != known:
                raise SystemExit(f"{puzzle.source}, depth {depth}: another solution than the plain search's")
            if depth not in best or cpu < best[depth][0]:
                best[depth] = (cpu, result.nodes, result.exhausted and len(result.solutions) == 1)
    return pre, plain_cpu, best


def summary(path: str) -> None:
    table = list(csv.DictReader(open(path)))
    depths = [c.removesuffix("_cpu") for c in table[0] if c.endswith("_cpu")]
    print(f"{len(table)} puzzles")
    print("| shared_depth | nodes | CPU s | settled | at 2x or more | at 1.8x or more | highest ratios |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for d in depths:
        ratios = sorted(((float(r["pre"]) + float(r[f"{d}_cpu"])) / (float(r["pre"]) + float(r["plain"])), r["puzzle"])
                        for r in table if r[f"{d}_ok"] == "1" and r["plain"])
        ratios.reverse()
        print(f"| {d} | {sum(int(r[f'{d}_nodes']) for r in table)} | {sum(float(r[f'{d}_cpu']) for r in table):.3f} "
              f"| {sum(r[f'{d}_ok'] == '1' for r in table)} | {sum(x >= 2 for x, _ in ratios)} "
              f"| {sum(x >= 1.8 for x, _ in ratios)} | " + ", ".join(f"{p} {x:.2f}" for x, p in ratios[:4]) + " |")
    for r in table:
        if len({r[f"{d}_ok"] for d in depths}) > 1:
            print(f"{r['puzzle']}: " + ", ".join(f"{d} {r[f'{d}_nodes']} nodes{'' if r[f'{d}_ok'] == '1' else ' (unsettled)'}"
                                                 for d in depths))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--depths", default="-1,0,1,2,3,99")
    ap.add_argument("--summary", action="store_true", help="summarize a CSV this script wrote")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    if a.summary:
        for path in a.paths:
            summary(path)
        return
    depths = [int(d) for d in a.depths.split(",")]
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "pre", "plain"] + [f"{d}_{c}" for d in depths for c in ("cpu", "nodes", "ok")])
    for path in a.paths:
        found = rows(read_puzzle(path), depths, a.rounds)
        if found is not None:
            pre, plain, best = found
            out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt"), f"{pre:.4f}", "" if plain is None else f"{plain:.4f}"]
                         + [x for d in depths for x in (f"{best[d][0]:.4f}", best[d][1], int(best[d][2]))])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
