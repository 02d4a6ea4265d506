"""Issue 17, fifteenth session (steiner15): ``steiner.lightest_region`` (the exact Steiner tree
behind ``capacity``'s Steiner count) made fast. Every variant tried, in one process, rounds
alternating, CPU seconds (``time.process_time``, the minimum over the rounds) per call:

    .venv/bin/python benchmarks/steiner15_speed.py [--rounds N] [--calls PUZZLES...] > OUT.csv
    .venv/bin/python benchmarks/steiner15_speed.py --summary OUT.csv      # markdown tables
    .venv/bin/python benchmarks/steiner15_speed.py --pipeline [--rounds N] [PUZZLE]
    .venv/bin/python benchmarks/steiner15_speed.py --search PUZZLES... [--rounds N]

Sets of calls (each call: board, allowed cells, groups, k):

- ``286``: the one call of janko 286's proof (spied on ``solve_strong(presolved, limit=2)``:
  ten single cells, k = 36, answer 37), and the same at k = 37 (the answer found);
- ``random``: seeded random boards (10x10 and 12x12, 75-90 % of the cells allowed) with five to
  ten groups of one to three cells, each at k = its optimum - 1 (answer k + 1: the bound's
  boundary) and at k = its optimum;
- ``calls``: every call ``solve_strong`` (limit 1 and 2, at most 20 CPU s each) makes on the
  puzzles given (default: instances/fillomino/big-regions/ and janko 286), as the search asks.

Variants (``VARIANTS``): ``main`` is the fourteenth session's module (git show e7805f5, the
plain recurrences over every subset); the others build on the shipped module's pieces, one step
at a time up to ``shipped`` (= ``steiner.lightest_region``), then the alternatives that lost
(another family for the bound, another root). Every variant's answer is checked against
``main``'s (the value when <= k, else > k). Calls of one or two groups run the shipped path in
every variant but ``main`` (two groups: a shortest path). The CSV has a row per call and variant
for ``286`` and ``random``; for ``calls``, a row per puzzle, number of groups and variant (the
CPU summed over those calls, ``k`` empty, ``answer`` the number of calls).

``--pipeline``: ``pipeline.solve(puzzle, yices, unique=True / False, presolve="staged")`` with
``main``'s and the shipped ``lightest_region`` (``steiner.fits`` looks it up when called),
alternating, CPU and wall seconds of this process (min over the rounds).

``--search PUZZLES...``: ``solve_strong(presolved, limit)`` for limit 1 and 2 the same way (CPU
seconds, min over the rounds; the nodes and solutions checked equal: the function is exact).
"""

from __future__ import annotations

import argparse
import csv
import random
import subprocess
import sys
import time
import types
from pathlib import Path

from fillsmt.fillomino.deduce import steiner
from fillsmt.fillomino.deduce.board import Board

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "instances" / "fillomino"
JANKO_286 = SHARED / "janko-thesis100" / "puzzles" / "286.txt"
MAIN_COMMIT = "e7805f5"


def main_module() -> types.ModuleType:
    """The fourteenth session's steiner module, from git."""
    text = subprocess.run(["git", "show", f"{MAIN_COMMIT}:fillsmt/fillomino/deduce/steiner.py"],
                          capture_output=True, text=True, check=True, cwd=ROOT).stdout
    module = types.ModuleType("steiner_main")
    exec(compile(text, "steiner_main", "exec"), module.__dict__)
    return module


def graph(board: Board, allow: int, groups: list[int], how: str):
    """The nodes' weights and edges: ``plain`` (every cell), ``loose`` (cells of one neighbour
    dropped), ``contract`` (and chains made edges: the shipped graph)."""
    weight, adj = steiner._graph(board, allow, groups)
    if how != "plain":
        steiner._drop_loose(weight, adj, len(groups))
    if how == "contract":
        return steiner._contract(weight, adj, len(groups))
    return weight, [tuple((u, weight[u]) for u in a) for a in adj]


def families(t: int, q: int, name: str) -> list[int]:
    """The bound's family beyond the single groups (``adaptive``: the shipped one)."""
    if name == "adaptive":
        return steiner._family(t, q)
    size = {"pairs": lambda s: s.bit_count() == 2,
            "triples-q": lambda s: s.bit_count() == 2 or s.bit_count() == 3 and s >> q & 1,
            "triples": lambda s: 2 <= s.bit_count() <= 3,
            "quads-q": lambda s: 2 <= s.bit_count() <= 3 or s.bit_count() == 4 and s >> q & 1,
            "singles": lambda s: False}[name]
    return [s for s in range(1, 1 << t) if size(s)]


def roots(rows, t: int, name: str) -> int:
    d = [sum(rows[1 << i][:t]) for i in range(t)]
    return {"farthest": d.index(max(d)), "nearest": d.index(min(d)), "last": t - 1}[name]


def variant(how: str, family: str | None, root: str, junctions: bool):
    """A lightest_region from the shipped pieces: ``family`` None = the rooted plain
    recurrences (no bound); else the bounded search with that family."""
    def run(board: Board, allow: int, groups: list[int], k: int) -> int:
        t = len(groups)
        if t < 3:
            return steiner.lightest_region(board, allow, groups, k)
        weight, adj = graph(board, allow, groups, how)
        inf = k + 1
        rows: dict[int, list[int]] = {}
        steiner._rows(rows, [1 << i for i in range(t)], weight, adj, inf)
        q = roots(rows, t, root)
        full = (1 << t) - 1
        if family is None:
            steiner._rows(rows, [s for s in range(1, full + 1) if s & (s - 1) and not s >> q & 1],
                          weight, adj, inf)
            return rows[full ^ (1 << q)][q]
        steiner._rows(rows, families(t, q, family), weight, adj, inf)
        where = steiner._junctions(adj, t) if junctions else set(range(len(weight)))
        return steiner._bounded(rows, q, t, weight, adj, k, where)
    return run


VARIANTS = {
    "main": None,  # filled in by main_module()
    "rooted": variant("plain", None, "farthest", False),
    "bound-pairs": variant("plain", "pairs", "farthest", False),
    "bound-triples-q": variant("plain", "triples-q", "farthest", False),
    "+junctions": variant("plain", "triples-q", "farthest", True),
    "+loose": variant("loose", "triples-q", "farthest", True),
    "+chains": variant("contract", "triples-q", "farthest", True),
    "shipped": steiner.lightest_region,  # = variant("contract", "adaptive", "farthest", True)
    "family-singles": variant("contract", "singles", "farthest", True),
    "family-pairs": variant("contract", "pairs", "farthest", True),
    "family-triples": variant("contract", "triples", "farthest", True),
    "family-quads-q": variant("contract", "quads-q", "farthest", True),
    "root-nearest": variant("contract", "adaptive", "nearest", True),
    "root-last": variant("contract", "adaptive", "last", True),
}


def spied_calls(paths: list[str]) -> list[tuple[str, Board, int, list[int], int]]:
    """Every lightest_region call solve_strong makes (limit 1 and 2) on the puzzles."""
    from fillsmt.fillomino.backtrack import solve_strong
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    calls = []
    real = steiner.lightest_region
    name = [""]

    def spy(board, allow, groups, k):
        calls.append((name[0], board, allow, list(groups), k))
        return real(board, allow, groups, k)

    steiner.lightest_region = spy
    try:
        for path in paths:
            name[0] = Path(path).stem
            puzzle = KIND.presolve(read_puzzle(path)).puzzle
            for limit in (1, 2):
                solve_strong(puzzle, limit=limit, clock=time.process_time, deadline=time.process_time() + 20)
    finally:
        steiner.lightest_region = real
    return calls


def random_calls(seed: str, count: int) -> list[tuple[str, Board, int, list[int], int]]:
    """``count`` random instances, each at k = optimum - 1 and k = optimum (module text)."""
    rng = random.Random(seed)
    calls = []
    while len(calls) < 2 * count:
        board = Board.of(*rng.choice([(10, 10), (12, 12)]))
        n = board.height * board.width
        density = rng.uniform(0.75, 0.9)
        allow = sum(1 << x for x in range(n) if rng.random() < density)
        t = rng.randint(5, 10)
        groups, taken = [], 0
        while len(groups) < t:
            x = rng.randrange(n)
            g = 1 << x
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                y = rng.choice([y for z in range(n) if g >> z & 1 for y in board.neighbours[z]])
                g |= 1 << y
            if g & allow == g and not board.spread(g) & taken:
                groups.append(g)
                taken |= g
        best = steiner.lightest_region(board, allow, groups, n)
        if best > n:
            continue  # not connected
        case = f"r{len(calls) // 2}-{board.height}x{board.width}-t{t}"
        calls += [(case, board, allow, groups, best - 1), (case, board, allow, groups, best)]
    return calls


def measure(rounds: int, paths: list[str]) -> None:
    VARIANTS["main"] = main_module().lightest_region
    sets = []
    if JANKO_286.exists():
        found = [c for c in spied_calls([str(JANKO_286)]) if len(c[3]) == 10]
        sets += [("286", c) for c in found] + [("286", c[:4] + (c[4] + 1,)) for c in found]
    sets += [("random", c) for c in random_calls("steiner15", 24)]
    sets += [("calls", c) for c in spied_calls(paths)]
    best: dict[tuple[int, str], float] = {}
    answers: dict[tuple[int, str], int] = {}
    for _ in range(rounds):
        for i, (_, (case, board, allow, groups, k)) in enumerate(sets):
            for name, run in VARIANTS.items():
                t = time.process_time()
                answers[i, name] = run(board, allow, groups, k)
                cpu = time.process_time() - t
                best[i, name] = min(cpu, best.get((i, name), cpu))
    out = csv.writer(sys.stdout)
    out.writerow(["set", "case", "groups", "k", "answer", "variant", "cpu_s"])
    summed: dict[tuple[str, int, str], list[float]] = {}
    for i, (kind, (case, board, allow, groups, k)) in enumerate(sets):
        truth = answers[i, "main"]
        for name in VARIANTS:
            got = answers[i, name]
            assert got == truth if truth <= k else got > k, (kind, case, k, name, got, truth)
            if kind == "calls":
                calls, cpu = summed.get((case, len(groups), name), [0, 0.0])
                summed[case, len(groups), name] = [calls + 1, cpu + best[i, name]]
            else:
                out.writerow([kind, case, len(groups), k, truth if truth <= k else k + 1, name,
                              f"{best[i, name]:.6f}"])
    for (case, groups, name), (calls, cpu) in summed.items():
        out.writerow(["calls", case, groups, "", calls, name, f"{cpu:.6f}"])


def summary(paths: list[str]) -> None:
    """Per variant: the 286 call (k = 36 and 37), the random calls (sum, and the largest), the
    solve_strong calls (sum, and those of seven groups or more), in CPU milliseconds."""
    rows = [r for p in paths for r in csv.DictReader(open(p))]
    names = list(dict.fromkeys(r["variant"] for r in rows))

    def ms(select) -> list[float]:
        return [1000 * float(r["cpu_s"]) for r in rows if select(r)]

    print("| variant | 286, k=36 | 286, k=37 | random: sum | random: max | calls: sum | calls, >= 7 groups: sum |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        mine = [r for r in rows if r["variant"] == name]
        cells = []
        for k in ("36", "37"):
            cells.append(sum(1000 * float(r["cpu_s"]) for r in mine if r["set"] == "286" and r["k"] == k))
        rnd = [1000 * float(r["cpu_s"]) for r in mine if r["set"] == "random"]
        calls = [1000 * float(r["cpu_s"]) for r in mine if r["set"] == "calls"]
        big = [1000 * float(r["cpu_s"]) for r in mine if r["set"] == "calls" and int(r["groups"]) >= 7]
        cells += [sum(rnd), max(rnd, default=0), sum(calls), sum(big)]
        print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    print("\nPer number of groups (CPU ms summed; +chains is the triples-q family at every size):\n")
    shown = ["main", "family-singles", "family-pairs", "+chains", "family-triples", "shipped"]
    print("| set | groups | calls | " + " | ".join(shown) + " |")
    print("|---|---:|---:|" + "---:|" * len(shown))
    for kind in ("calls", "random", "286"):
        for groups in sorted({int(r["groups"]) for r in rows if r["set"] == kind}):
            if groups < 3:
                continue
            part = [r for r in rows if r["set"] == kind and int(r["groups"]) == groups]
            calls = sum(1 if kind != "calls" else int(r["answer"]) for r in part if r["variant"] == "main")
            cells = [sum(1000 * float(r["cpu_s"]) for r in part if r["variant"] == name) for name in shown]
            print(f"| {kind} | {groups} | {calls} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    counts = {s: sum(1 if s != "calls" else int(r["answer"]) for r in rows
                     if r["set"] == s and r["variant"] == names[0]) for s in ("286", "random", "calls")}
    print(f"\ncalls per set: {counts}")


def pipeline(rounds: int, path: str) -> None:
    """pipeline.solve with main's and the shipped lightest_region, alternating (module text)."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.fillomino.plain_format import read_puzzle
    from fillsmt.pipeline import solve

    shipped = steiner.lightest_region
    runs = {"main": main_module().lightest_region, "shipped": shipped}
    puzzle = read_puzzle(path)
    yices = get_driver("yices")
    best: dict[tuple[str, bool], list[float]] = {}
    try:
        for _ in range(rounds):
            for unique in (False, True):
                for name, run in runs.items():
                    steiner.lightest_region = run
                    wall, cpu = time.perf_counter(), time.process_time()
                    r = solve(puzzle, yices, timeout=60, unique=unique, presolve="staged")
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    old = best.get((name, unique), [wall, cpu])
                    best[name, unique] = [min(old[0], wall), min(old[1], cpu)]
                    assert not unique or r.unique is True, r.message
    finally:
        steiner.lightest_region = shipped
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "unique", "variant", "wall_s", "cpu_s"])
    for (name, unique), (wall, cpu) in best.items():
        out.writerow([Path(path).stem, unique, name, f"{wall:.4f}", f"{cpu:.4f}"])


def search(rounds: int, paths: list[str]) -> None:
    """solve_strong with main's and the shipped lightest_region, alternating (module text)."""
    from fillsmt.fillomino.backtrack import solve_strong
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    shipped = steiner.lightest_region
    runs = {"main": main_module().lightest_region, "shipped": shipped}
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "limit", "variant", "nodes", "cpu_s"])
    try:
        for path in paths:
            puzzle = KIND.presolve(read_puzzle(path)).puzzle
            for limit in (1, 2):
                best: dict[str, float] = {}
                seen = {}
                for _ in range(rounds):
                    for name, run in runs.items():
                        steiner.lightest_region = run
                        cpu = time.process_time()
                        found = solve_strong(puzzle, limit=limit)
                        cpu = time.process_time() - cpu
                        best[name] = min(cpu, best.get(name, cpu))
                        seen[name] = (found.nodes, found.solutions, found.exhausted)
                assert seen["main"] == seen["shipped"], path
                for name in runs:
                    out.writerow([Path(path).stem, limit, name, seen[name][0], f"{best[name]:.4f}"])
                sys.stdout.flush()
    finally:
        steiner.lightest_region = shipped


def run_main() -> None:
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2:])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pipeline", action="store_true")
    ap.add_argument("--search", nargs="+", default=None)
    ap.add_argument("--calls", nargs="*", default=None)
    ap.add_argument("puzzle", nargs="?", default=str(JANKO_286))
    a = ap.parse_args()
    if a.pipeline:
        pipeline(a.rounds, a.puzzle)
        return
    if a.search:
        search(a.rounds, a.search)
        return
    paths = a.calls if a.calls is not None else sorted(
        str(p) for p in (ROOT / "instances" / "fillomino" / "big-regions").glob("*.txt"))
    measure(a.rounds, paths)


if __name__ == "__main__":
    run_main()
