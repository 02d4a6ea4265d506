"""Issue 17, sixteenth session (steiner16): what only janko 286's uniqueness proof pays, made
cheaper -- ``capacity``'s joins and the exact Steiner tree of its Steiner count. In one process,
variants alternating round by round, CPU seconds (``time.process_time``, the minimum over the
rounds):

    .venv/bin/python benchmarks/steiner16.py --calls [--rounds N] > OUT.csv
    .venv/bin/python benchmarks/steiner16.py --quick [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/steiner16.py --pipeline [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/steiner16.py --search [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/steiner16.py --summary OUT.csv...     # markdown tables

``--calls``: ``steiner.lightest_region`` on steiner15's sets of calls (``benchmarks/
steiner15_speed.py``: ``286``, janko 286's root call at k = 36 and 37; ``random``, 48 seeded
random calls; ``calls``, every call ``solve_strong`` makes with limit 1 and 2 on the big-region
puzzles and 286), per variant of :data:`CALL_VARIANTS`; every answer checked against
``steiner15``'s (the value when <= k, else > k). A row per call for ``286`` and ``random``, per
puzzle and number of groups for ``calls`` (CPU summed, ``answer`` the number of calls).

``--quick``: ``KIND.quick_search(presolved, limit)`` (as ``fillsmt solve [--unique]`` runs it
before any solver) for limit 1 (the plain quick search) and 2 (the quick proof) under each of
:data:`SEARCH_VARIANTS`: ``main`` (``capacity``, ``steiner`` and ``find_groups`` as at the
session's start, :data:`MAIN_COMMIT`, loaded from git), ``joins`` (this branch's ``capacity``,
the Steiner tree without merged groups, groups found afresh), ``merge`` (groups merged in the
Steiner tree), ``family`` (triples holding q in the bound from eight groups on), ``shipped``
(this branch: groups grown from the previous ones too). Nodes,
solutions and ``unique`` checked equal across variants (every change keeps each node's
deductions). The ratio is (presolve + proof) / (presolve + plain), CPU.

``--search``: ``solve_strong(presolved, limit)`` (the race's search) for limit 1 and 2 under
``main`` and ``shipped`` (nodes and answers checked equal).

``--pipeline``: ``pipeline.solve(puzzle, yices, unique=False / True, presolve="staged")`` under
``main`` and ``shipped``, CPU and wall seconds of this process (min over the rounds).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import subprocess
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import steiner15_speed as s15  # noqa: E402

from fillsmt.fillomino import backtrack  # noqa: E402
from fillsmt.fillomino.deduce import capacity, steiner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAIN_COMMIT = "6149ae4"
"""main at the session's start (steiner15 and lc15 merged)."""


def _from_git(path: str, name: str) -> types.ModuleType:
    text = subprocess.run(["git", "show", f"{MAIN_COMMIT}:{path}"], capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout
    module = sys.modules[name] = types.ModuleType(name)  # (dataclasses look their module up)
    exec(compile(text, name, "exec"), module.__dict__)
    return module


def main_pieces():
    """main's ``capacity`` rule (calling main's ``steiner.fits``) and main's ``find_groups``
    (its contradictions, groups and kept results this branch's own objects: the same classes)."""
    from fillsmt.fillomino.deduce import board

    old_steiner = _from_git("fillsmt/fillomino/deduce/steiner.py", "steiner_main")
    old = _from_git("fillsmt/fillomino/deduce/capacity.py", "capacity_main")
    old.fits = old_steiner.fits
    old_board = _from_git("fillsmt/fillomino/deduce/board.py", "board_main")
    for name in ("Contradiction", "Group", "Groups", "recall", "remember", "cells_of"):
        setattr(old_board, name, getattr(board, name))

    def find_groups(board, dom, k, fixed, previous=None):
        return old_board.find_groups(board, dom, k, fixed)
    return old.capacity, find_groups


def _family(name: str):
    """A family of the bounded search's bound (the shipped ``_family`` with another choice at
    some numbers of groups; ``steiner15``: pairs at seven and eight groups, as at the start)."""
    shipped = steiner._family

    def family(t: int, q: int) -> list[int]:
        pairs = [s for s in range(1, 1 << t) if s.bit_count() == 2]
        if name == "steiner15" and t == 8 or name == "pairs-6" and t == 6:
            return pairs
        if name == "triples-q-7" and t == 7:
            return [s for s in range(1, 1 << t) if s.bit_count() == 2 or s.bit_count() == 3 and s >> q & 1]
        return shipped(t, q)
    return family


@contextlib.contextmanager
def _steiner(merge: bool, family: str | None = None):
    kept = steiner.MERGE_GROUPS, steiner._family
    steiner.MERGE_GROUPS = merge
    if family:
        steiner._family = _family(family)
    try:
        yield
    finally:
        steiner.MERGE_GROUPS, steiner._family = kept


CALL_VARIANTS = {
    "steiner15": dict(merge=False, family="steiner15"),  # main's lightest_region
    "merge": dict(merge=True, family="steiner15"),  # groups merged along their lightest links
    "shipped": dict(merge=True),  # and pairs + triples holding q from eight groups on (was nine)
    "shipped, pairs + triples-q at 7 too": dict(merge=True, family="triples-q-7"),
    "shipped, pairs at 6": dict(merge=True, family="pairs-6"),
}


def calls(rounds: int) -> None:
    sets = []
    if s15.JANKO_286.exists():
        found = [c for c in s15.spied_calls([str(s15.JANKO_286)]) if len(c[3]) == 10]
        sets += [("286", c) for c in found] + [("286", c[:4] + (c[4] + 1,)) for c in found]
    sets += [("random", c) for c in s15.random_calls("steiner15", 24)]
    paths = sorted(str(p) for p in (ROOT / "instances" / "fillomino" / "big-regions").glob("*.txt"))
    sets += [("calls", c) for c in s15.spied_calls(paths + ([str(s15.JANKO_286)] if s15.JANKO_286.exists() else []))]
    best: dict[tuple[int, str], float] = {}
    answers: dict[tuple[int, str], int] = {}
    merged: dict[int, int] = {}
    for _ in range(rounds):
        for name, how in CALL_VARIANTS.items():
            with _steiner(**how):
                for i, (_, (case, board, allow, groups, k)) in enumerate(sets):
                    t = time.process_time()
                    answers[i, name] = steiner.lightest_region(board, allow, groups, k)
                    cpu = time.process_time() - t
                    best[i, name] = min(cpu, best.get((i, name), cpu))
    out = csv.writer(sys.stdout)
    out.writerow(["set", "case", "groups", "merged_groups", "k", "answer", "variant", "cpu_s"])
    summed: dict[tuple[str, int, str], list] = {}
    for i, (kind, (case, board, allow, groups, k)) in enumerate(sets):
        truth = answers[i, "steiner15"]
        merged[i] = _merged_groups(board, allow, groups)
        for name in CALL_VARIANTS:
            got = answers[i, name]
            assert got == truth if truth <= k else got > k, (kind, case, k, name, got, truth)
            if kind == "calls":
                n, cpu, m = summed.get((case, len(groups), name), [0, 0.0, 0])
                summed[case, len(groups), name] = [n + 1, cpu + best[i, name], m + merged[i]]
            else:
                out.writerow([kind, case, len(groups), merged[i], k, truth if truth <= k else k + 1, name,
                              f"{best[i, name]:.6f}"])
    for (case, groups, name), (n, cpu, m) in summed.items():
        out.writerow(["calls", case, groups, m, "", n, name, f"{cpu:.6f}"])


def _merged_groups(board, allow: int, groups: list[int]) -> int:
    """The groups left after merging (the groups given for fewer than three)."""
    t = len(groups)
    if t < 3:
        return t
    weight, adj = steiner._graph(board, allow, groups)
    steiner._drop_loose(weight, adj, t)
    weight, adj = steiner._contract(weight, adj, t)
    return steiner._merge_groups(weight, adj, t)[2]


@contextlib.contextmanager
def search_variant(name: str, old):
    """``main``: main's capacity, Steiner tree and find_groups; ``joins``: this branch's
    capacity, groups not merged in the Steiner tree, groups found afresh; ``merge``: and groups
    merged; ``family``: and the bound's family of triples holding q from eight groups on;
    ``shipped``: this branch (groups grown from the previous ones too)."""
    from fillsmt.fillomino.deduce import state

    kept = backtrack.SEARCH_RULE_FUNCTIONS["capacity"], state.find_groups, state.INCREMENTAL_GROUPS
    if name == "main":
        backtrack.SEARCH_RULE_FUNCTIONS["capacity"], state.find_groups = old
    state.INCREMENTAL_GROUPS = name == "shipped"
    try:
        with _steiner(merge=name in ("merge", "family", "shipped"),
                      family=None if name in ("family", "shipped") else "steiner15"):
            yield
    finally:
        backtrack.SEARCH_RULE_FUNCTIONS["capacity"], state.find_groups, state.INCREMENTAL_GROUPS = kept


SEARCH_VARIANTS = ("main", "joins", "merge", "family", "shipped")


def _cpu(run):
    t = time.process_time()
    found = run()
    return time.process_time() - t, found


def quick(rounds: int, paths: list[str]) -> None:
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    old = main_pieces()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "presolve_cpu"] + [f"{v}_{c}" for v in SEARCH_VARIANTS
                                               for c in ("plain_cpu", "proof_cpu", "plain_nodes", "proof_nodes", "ratio")])
    for path in paths:
        found = KIND.presolve(read_puzzle(path))
        if found.grid is not None or found.contradiction is not None:
            continue
        pre = min(_cpu(lambda: KIND.presolve(read_puzzle(path)))[0] for _ in range(rounds))
        target = found.puzzle
        best: dict[tuple[str, int], float] = {}
        seen: dict[tuple[str, int], tuple] = {}
        settled: dict[int, set] = {}
        for _ in range(rounds):
            for name in SEARCH_VARIANTS:
                with search_variant(name, old):
                    for limit in (1, 2):
                        cpu, r = _cpu(lambda: KIND.quick_search(target, limit))
                        got = None if r is None else (r.nodes, tuple(r.solutions), r.exhausted)
                        if got is not None and (r.exhausted or len(r.solutions) >= limit):
                            settled.setdefault(limit, set()).add(got)  # (a deadline may cut a round)
                        if cpu < best.get((name, limit), cpu + 1):
                            best[name, limit] = cpu
                            seen[name, limit] = got
        for limit, answers in settled.items():
            assert len(answers) == 1, (path, limit, answers)
        row = [Path(path).stem, f"{pre:.4f}"]
        for name in SEARCH_VARIANTS:
            settled = seen[name, 2] is not None and (seen[name, 2][2] or len(seen[name, 2][1]) >= 2)
            row += [f"{best[name, 1]:.4f}", f"{best[name, 2]:.4f}",
                    seen[name, 1] and seen[name, 1][0], seen[name, 2] and seen[name, 2][0],
                    f"{(pre + best[name, 2]) / (pre + best[name, 1]):.2f}" if settled else ""]
        out.writerow(row)
        sys.stdout.flush()


def pipeline(rounds: int, paths: list[str]) -> None:
    from fillsmt.drivers.registry import get_driver
    from fillsmt.fillomino.plain_format import read_puzzle
    from fillsmt.pipeline import solve

    old = main_pieces()
    yices = get_driver("yices")
    out = csv.writer(sys.stdout)
    names = ("main", "shipped")
    out.writerow(["puzzle"] + [f"{v}_{u}_{c}" for v in names for u in ("plain", "unique") for c in ("wall", "cpu")]
                 + [f"{v}_ratio_{c}" for v in names for c in ("wall", "cpu")] + ["unique"])
    for path in paths:
        puzzle = read_puzzle(path)
        best: dict[tuple[str, bool], list[float]] = {}
        answers = set()
        for _ in range(rounds):
            for name in names:
                with search_variant(name, old):
                    for unique in (False, True):
                        wall, cpu = time.perf_counter(), time.process_time()
                        r = solve(puzzle, yices, timeout=30, unique=unique, presolve="staged")
                        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                        o = best.get((name, unique), [wall, cpu])
                        best[name, unique] = [min(o[0], wall), min(o[1], cpu)]
                        if unique:
                            answers.add(r.unique)
        row = [Path(path).stem] + [f"{x:.4f}" for v in names for u in (False, True) for x in best[v, u]]
        row += [f"{best[v, True][i] / max(best[v, False][i], 1e-4):.2f}" for v in names for i in (0, 1)]
        out.writerow(row + ["/".join(sorted(map(str, answers)))])
        sys.stdout.flush()


def search(rounds: int, paths: list[str]) -> None:
    """``solve_strong(presolved, limit)`` (the race's search) for limit 1 and 2 under ``main``
    and ``shipped``, alternating, CPU s (min over the rounds); nodes and answers checked equal."""
    from fillsmt.fillomino.backtrack import solve_strong
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    old = main_pieces()
    names = ("main", "shipped")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "limit", "nodes"] + [f"{v}_cpu" for v in names])
    for path in paths:
        found = KIND.presolve(read_puzzle(path))
        if found.grid is not None or found.contradiction is not None:
            continue
        for limit in (1, 2):
            best: dict[str, float] = {}
            seen = set()
            for _ in range(rounds):
                for name in names:
                    with search_variant(name, old):
                        cpu, r = _cpu(lambda: solve_strong(found.puzzle, limit=limit))
                    best[name] = min(cpu, best.get(name, cpu))
                    seen.add((r.nodes, tuple(r.solutions), r.exhausted))
            assert len(seen) == 1, (path, limit, seen)
            out.writerow([Path(path).stem, limit, seen.pop()[0]] + [f"{best[v]:.4f}" for v in names])
            sys.stdout.flush()


def summary(paths: list[str]) -> None:
    rows = [r for p in paths for r in csv.DictReader(open(p))]
    if rows and "set" in rows[0]:
        names = list(dict.fromkeys(r["variant"] for r in rows))
        print("| variant | 286, k=36 | 286, k=37 | random: sum | random: max | calls: sum | calls, >= 7 groups |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name in names:
            mine = [r for r in rows if r["variant"] == name]
            ms = lambda sel: [1000 * float(r["cpu_s"]) for r in mine if sel(r)]  # noqa: E731
            cells = [sum(ms(lambda r: r["set"] == "286" and r["k"] == "36")),
                     sum(ms(lambda r: r["set"] == "286" and r["k"] == "37")),
                     sum(ms(lambda r: r["set"] == "random")), max(ms(lambda r: r["set"] == "random"), default=0),
                     sum(ms(lambda r: r["set"] == "calls")),
                     sum(ms(lambda r: r["set"] == "calls" and int(r["groups"]) >= 7))]
            print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
        first = [r for r in rows if r["variant"] == names[0]]
        n = sum(1 if r["set"] != "calls" else int(r["answer"]) for r in first if int(r["groups"]) >= 3)
        m = sum(int(r["groups"]) - int(r["merged_groups"]) for r in first
                if r["set"] != "calls" and int(r["groups"]) >= 3)
        print(f"\ncalls of three groups or more: {n}; groups merged away in the 286 and random sets: {m}")
        return
    print(f"rows: {len(rows)}")


def run_main() -> None:
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2:])
        return
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--calls", action="store_true")
    mode.add_argument("--quick", action="store_true")
    mode.add_argument("--pipeline", action="store_true")
    mode.add_argument("--search", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    if a.calls:
        calls(a.rounds)
    elif a.quick:
        quick(a.rounds, a.paths)
    elif a.search:
        search(a.rounds, a.paths)
    else:
        pipeline(a.rounds, a.paths)


if __name__ == "__main__":
    run_main()
