"""janko 330's lazy loop with new loop variants side by side (issue 17, tenth session: big).

    python benchmarks/big10_loop.py PUZZLE --variant base --variant nopin:seed=1 ... [--passes N] [--csv FILE]
    python benchmarks/big10_loop.py --table FILE

Each pass runs every variant once in this process, one after the other. A variant is a list of
``:``-separated parts:

* ``base``: the default plan (presolve, ``lazy-local-general``, one yices session, ``Search``),
  with this branch's cuts (atoms false under the script's pins left out, trees through pinned cells);
* ``nopin``: the cuts as before the tenth session (no ``fixed`` cells or ``bounds`` passed to them);
* ``nobounds``: the cuts with the pinned cells only (the first kept form);
* ``seed=N``: ``(set-option :random-seed N)`` after ``set-logic`` (one variant over several search paths);
* ``fixfirst``: the first, hand-written form of the pinned cuts (measured, superseded by ``base``);
* ``dom``: ``fixfirst`` and also border / size atoms dropped that the presolve's domains make false (not kept);
* ``count``: each too-small component with a clue also gets "some cell of S is not k, or at least
  k - |S| cells within k - |S| steps are k" (a cardinality cut; not kept);
* ``logic=L``: the same script under another ``set-logic`` (QF_UFLIA, ALL; not kept);
* ``freeze:R=r[:from=f]``: from round f on, every open cell farther than r steps from every cell
  of a wrong component is held at its value by ``check-sat-assuming`` (a Boolean flag per
  (cell, value), defined once); ``unsat`` under the assumptions falls back to a plain
  ``check-sat`` (complete: the assumptions only narrow one check); with ``stable=S``, only cells
  unchanged for S rounds are held (not kept).

Columns: the stages' wall times, rounds (checks), full checks (not under assumptions), cuts, the
yices process's CPU (``/proc``) and its own counters after the loop (``get-info
:all-statistics``: propagations and pivots are totals over the session, the same under any
load; decisions and conflicts are the last check's).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from collections import deque

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.lazy import _cheap_tree, _components_with_trees
from fillsmt.grid import adjacency
from fillsmt.solutions import Search, Status

from big8_loop import _cpu_of, emit, table, timer  # noqa: E402 (benchmarks/ is the script's folder)

FIELDS = ["pass", "variant", "puzzle", "presolve", "encode", "load", "rounds", "full_checks", "cuts", "checks_s",
          "get_value_s", "cuts_s", "send_s", "solve", "total", "yices_cpu", "decisions", "conflicts",
          "propagations", "pivots"]


def yices_stats(session) -> dict:
    """The yices session's own counters (deterministic: the same under any load)."""
    import re
    out, _ = session._talk("(get-info :all-statistics)\n", 10)
    got = dict(re.findall(r":([a-z-]+) ([0-9.]+)", out))
    return {"decisions": int(got.get("decisions", 0)), "conflicts": int(got.get("conflicts", 0)),
            "propagations": int(got.get("boolean-propagations", 0)) + int(got.get("theory-propagations", 0)),
            "pivots": int(got.get("simplex-pivots", 0))}


def wrong_cells(grid) -> list[int]:
    out = []
    for k, cells, _ in _components_with_trees(grid):
        if len(cells) != k:
            out.extend(cells)
    return out


def far_cells(grid, sources: list[int], radius: int, adj) -> list[int]:
    dist = [-1] * (len(grid) * len(grid[0]))
    queue = deque(sources)
    for s in sources:
        dist[s] = 0
    while queue:
        x = queue.popleft()
        if dist[x] == radius:
            continue
        for y in adj[x]:
            if dist[y] < 0:
                dist[y] = dist[x] + 1
                queue.append(y)
    return [x for x, d in enumerate(dist) if d < 0]


def count_cuts(grid, domains, adj, fixed, depth_cap: int) -> list[str]:
    """For each too-small component S holding a fixed cell of number k: if all of S is k, the
    region holds k - |S| more cells, all k, within k - |S| steps of S through cells whose domain
    holds k: "some cell of S is not k, or at least k - |S| cells of that ball are k"."""
    out = []
    flat = [v for row in grid for v in row]
    for k, cells, _ in _components_with_trees(grid):
        need = k - len(cells)
        if need <= 1 or not any(x in fixed for x in cells):
            continue
        radius = min(need, depth_cap)
        inside = set(cells)
        seen, frontier, ball = set(cells), list(cells), []
        for _ in range(radius):
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if y not in seen and k in domains[y]:
                        seen.add(y)
                        nxt.append(y)
            ball += nxt
            frontier = nxt
        if radius < need:  # only a lower bound on the cells of the ball: need holds anyway? no: cap = radius
            pass
        conds = [f"(not (= n_{x} {k}))" for x in cells if x not in fixed]
        cand = [y for y in ball if y not in fixed]
        fixed_k = sum(1 for y in ball if y in fixed and flat[y] == k)
        m = need - fixed_k
        if m <= 1 or m > len(cand):
            if m > len(cand):
                out.append(conds[0] if len(conds) == 1 else f"(or {' '.join(conds)})" if conds else "false")
            continue
        total = " ".join(f"(ite (= n_{y} {k}) 1 0)" for y in cand)
        out.append(f"(or {' '.join(conds)} (<= {m} (+ {total})))" if conds else f"(<= {m} (+ {total}))")
    return out


def min_tree(cells, fixed, adj, limit=None):
    """lazy's own tree for the cuts (fixed-fixed edges first), over all of ``cells`` by default."""
    return _cheap_tree(cells, fixed, adj, len(cells) if limit is None else limit)


def fixfirst_cuts(grid, fixed, adj) -> list[str]:
    """The general cuts with each tree grown through fixed cells first, and the size atom on a
    fixed cell when there is one (so more of each clause's atoms are constants)."""
    out = []
    for k, cells, _ in _components_with_trees(grid):
        size = len(cells)
        if size == k:
            continue
        if size > k:
            taken, edges = min_tree(cells, fixed, adj, k + 1)
            t = next((x for x in taken if x in fixed), taken[0])
            parts = [f"(not (= n_{x} n_{y}))" for x, y in edges if not (x in fixed and y in fixed)]
            if t not in fixed:
                parts.append(f"(<= {k + 1} n_{t})")
        else:
            inside = set(cells)
            taken, edges = min_tree(cells, fixed, adj)
            t = next((x for x in cells if x in fixed), cells[0])
            parts = [f"(not (= n_{x} n_{y}))" for x, y in edges if not (x in fixed and y in fixed)]
            parts += [f"(= n_{x} n_{y})" for x in cells for y in adj[x] if y not in inside]
            if t not in fixed:
                parts.append(f"(= n_{t} {size})")
        out.append(parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})")
    return out


def dom_cuts(grid, fixed, adj, domains) -> list[str]:
    """:func:`fixfirst_cuts`, and atoms false under the domains left out: a border atom
    n_x = n_y when y's domain shares no value with every cell of S (under "S all equal" it is
    false in every solution), the size atom when no value of S's common domain reaches it."""
    out = []
    for k, cells, _ in _components_with_trees(grid):
        size = len(cells)
        if size == k:
            continue
        if size > k:
            taken, edges = min_tree(cells, fixed, adj, k + 1)
            common = set.intersection(*(set(domains[x]) for x in taken))
            t = next((x for x in taken if x in fixed), taken[0])
            parts = [f"(not (= n_{x} n_{y}))" for x, y in edges if not (x in fixed and y in fixed)]
            if t not in fixed and max(common) >= k + 1:
                parts.append(f"(<= {k + 1} n_{t})")
        else:
            inside = set(cells)
            taken, edges = min_tree(cells, fixed, adj)
            common = set.intersection(*(set(domains[x]) for x in cells))
            t = next((x for x in cells if x in fixed), cells[0])
            parts = [f"(not (= n_{x} n_{y}))" for x, y in edges if not (x in fixed and y in fixed)]
            parts += [f"(= n_{x} n_{y})" for x in cells for y in adj[x]
                      if y not in inside and not common.isdisjoint(domains[y])]
            if t not in fixed and size in common:
                parts.append(f"(= n_{t} {size})")
        out.append("false" if not parts else parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})")
    return out


def run_variant(path: str, variant: str) -> dict:
    parts = dict(p.split("=", 1) if "=" in p else (p, "") for p in variant.split(":"))
    t0 = time.perf_counter()
    puzzle = KIND.parse(open(path).read(), path)
    found = KIND.presolve(puzzle)
    t1 = time.perf_counter()
    encoding = "lazy-local-general"
    script = KIND.encode(found.puzzle, encoding, found.hints)
    if "logic" in parts:  # another logic for the same script, e.g. logic=QF_UFLIA
        from fillsmt.smtlib import Command, Script
        script = Script.of([Command("set-logic", (parts["logic"],)) if c.name == "set-logic" else c
                            for c in script.commands])
    if "seed" in parts:  # yices' random seed, to see a variant over several search paths
        from fillsmt.smtlib import Command, Script
        commands = list(script.commands)
        at = next(i for i, c in enumerate(commands) if c.name == "set-logic") + 1
        script = Script.of(commands[:at] + [Command("set-option", (":random-seed", parts["seed"]))] + commands[at:])
    problem = KIND.problem(puzzle, script, encoding, "yices")
    if "nopin" in parts:  # the cuts as before the tenth session: no atoms left out for pinned cells
        problem.cuts = problem.cuts.func
    if "nobounds" in parts:  # atoms left out for pinned cells only, not for the bounds
        problem.cuts = partial(problem.cuts.func, fixed=problem.cuts.keywords["fixed"])
    problem.asked  # noqa: B018
    t2 = time.perf_counter()
    spent = {"check": 0.0, "get": 0.0, "cuts": 0.0, "send": 0.0}

    def timed(name, f):
        return timer(spent, name, f)

    driver = get_driver(os.environ.get("B9_SOLVER", "yices"))
    full = 0
    with driver.open_session() as session:
        session.check = timed("check", session.check)
        session.get_values_and_texts = timed("get", session.get_values_and_texts)
        session.send = timed("send", session.send)
        problem.cuts = timed("cuts", problem.cuts)
        search = Search(problem, session)
        search.start()
        t3 = time.perf_counter()
        height, width = puzzle.height, puzzle.width
        adj = adjacency(height, width)
        fixed = {x for x in range(height * width) if len(found.hints[x]) == 1}
        if "dom" in parts:
            problem.cuts = timed("cuts", lambda g: dom_cuts(g, fixed, adj, found.hints))
        if "fixfirst" in parts:
            problem.cuts = timed("cuts", lambda g: fixfirst_cuts(g, fixed, adj))
        if "freeze" not in parts and "count" not in parts:
            status, first = search.solution()
            full = search.checks
        else:
            radius, start = int(parts.get("R", 4)), int(parts.get("from", 10**9 if "freeze" not in parts else 1))
            height, width = puzzle.height, puzzle.width
            adj = adjacency(height, width)
            open_cells = {int(t[2:]) for t in problem.asked}
            flags: set[tuple[int, int]] = set()
            age, prev = [0] * (height * width), []
            assumptions: list[str] = []
            first = None
            while True:
                status = search.check() if not assumptions else session.check(assumptions=assumptions)
                if assumptions:
                    search.checks += 1
                else:
                    full += 1
                if status is Status.UNSAT and assumptions:
                    assumptions = []
                    continue
                if status is not Status.SAT:
                    break
                grid, raw = search._decoded()
                cuts = problem.cuts(grid)
                if cuts and "count" in parts:
                    cuts = cuts + count_cuts(grid, found.hints, adj, fixed, int(parts.get("D", 999)))
                if not cuts:
                    first = search._checked(grid, raw)
                    break
                search.cuts += len(cuts)
                text = "".join(f"(assert {c})\n" for c in cuts)
                assumptions = []
                flat = [v for row in grid for v in row]
                if "stable" in parts:  # cells unchanged for S rounds, in right components, off the wrong ones
                    for x in range(len(flat)):
                        age[x] = age[x] + 1 if prev and prev[x] == flat[x] else 0
                    prev[:] = flat
                    far = set(far_cells(grid, wrong_cells(grid), radius, adj))
                    frozen = [x for x in range(len(flat)) if age[x] >= int(parts["stable"]) and x in far]
                else:
                    frozen = far_cells(grid, wrong_cells(grid), radius, adj) if search.checks >= start else []
                if frozen:
                    for x in frozen:
                        if x in open_cells:
                            v = flat[x]
                            if (x, v) not in flags:
                                flags.add((x, v))
                                text += f"(declare-fun f_{x}_{v} () Bool)(assert (= f_{x}_{v} (= n_{x} {v})))\n"
                            assumptions.append(f"f_{x}_{v}")
                session.send(text)
                if os.environ.get("B10_ROUNDS"):
                    print(len(cuts), len(assumptions), file=sys.stderr, end="; ")
        t4 = time.perf_counter()
        if first is None:
            sys.exit(f"{path}: {status.value}")
        cpu = _cpu_of(session.pid)
        stats = yices_stats(session)
        if os.environ.get("B10_ROUNDS"):
            print(variant, " ".join(f"{t*1000:.0f}" for t in session.check_seconds), file=sys.stderr)
    return {"variant": variant, "puzzle": os.path.basename(path), "presolve": t1 - t0, "encode": t2 - t1,
            "load": t3 - t2, "rounds": search.checks, "full_checks": full, "cuts": search.cuts,
            "checks_s": spent["check"], "get_value_s": spent["get"], "cuts_s": spent["cuts"],
            "send_s": spent["send"], "solve": t4 - t3, "total": t4 - t0, "yices_cpu": cpu, **stats}


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
            row = run_variant(args.puzzle, variant)
            row["pass"] = n + 1
            emit(row, FIELDS, args.csv)


if __name__ == "__main__":
    main()
