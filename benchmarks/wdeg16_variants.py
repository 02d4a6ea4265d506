"""Issue 17, sixteenth session: the quick proof's wiped-out conflict and failure weights
(``backtrack``'s ``wiped_out`` and ``weights``), and the variants measured beside them, in one
process, alternating, CPU s (the minimum over the rounds) and nodes.

    .venv/bin/python benchmarks/wdeg16_variants.py [--rounds N] [--variants A,B,...] PUZZLES... > OUT.csv
    # the strong search alone (the race's and ``solve --solver rules``: both phases), plain
    # (limit 1) and proof (limit 2), each variant within --seconds (wall)
    .venv/bin/python benchmarks/wdeg16_variants.py --search [--rounds N] [--variants A,B,...] PUZZLES... > OUT.csv

Each variant runs the quick proof's search (``solve_strong``, limit 2, no probing, a first
solution within ``features.quick_proof_budget``'s nodes, its CPU seconds) with the last conflict
on. A variant's name is ``CONFLICT[+WEIGHTS[+KEY[+WHEN]]]``:

- CONFLICT: ``lc`` (the fifteenth session's last conflict alone) or ``wiped`` (with the
  wiped-out cell's second conflict);
- WEIGHTS, what a refuted node weighs: ``cell`` (1 to its decision's cell), ``changed`` (1 to
  every cell its fixpoint changed), ``both`` (the kept: ``WEIGHT_DECISION`` to the decision's cell
  and 1 to the changed ones), ``bothN`` (N to the decision's cell), ``guess`` (1 to the decision's
  cell, refuted guesses only);
- KEY, how the weights rank the groups: ``exits`` (the kept: the most weight among the groups
  tied on the order's first criterion, ``group-exit``'s fewest exits), ``max`` (the same with the largest exit weight), ``ratio`` (exits / (1 +
  weight)), ``tie`` (after the fewest missing cells), ``first`` (the most weight before the exits);
  every KEY but ``exits`` ranks by ``group-exit``'s criteria whatever the walk's order;
- WHEN: ``after`` (the kept: once a solution is found), ``root`` (from the root on) or
  ``rootge`` (from the root on, in the walks of the ``group-exit`` order only: the strong
  search's second phase walks ``big-value`` too).

Defaults: ``both``, ``exits``, ``after``. The ratio is (presolve + proof) / (presolve + the plain
quick search), CPU; ``t/o``: the proof did not settle within the quick proof's bounds. Every
settled proof must have the plain search's solution, or the run stops with an error.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
import time

from fillsmt.fillomino import backtrack, features
from fillsmt.fillomino.backtrack import GROUP_KEYS, solve_strong
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

DEFAULT_VARIANTS = ("lc,wiped,lc+both,wiped+both,lc+cell,lc+changed,lc+guess,lc+both+exits+root,"
                    "wiped+both+exits+root,lc+cell+exits+root,lc+both1,lc+both6,lc+both12,"
                    "lc+both+max,lc+both+ratio,lc+both+tie,lc+both+first")


def _weigher(kind: str):
    """``_Search.weigh`` for a WEIGHTS name (module text)."""
    if kind.startswith("both"):
        bonus = int(kind[4:] or backtrack.WEIGHT_DECISION)

        def weigh(search, cell, changed):
            search.weights[cell] += bonus
            for x in set(changed):
                search.weights[x] += 1
    elif kind in ("cell", "guess"):
        def weigh(search, cell, changed):
            search.weights[cell] += 1
    elif kind == "changed":
        def weigh(search, cell, changed):
            for x in set(changed):
                search.weights[x] += 1
    else:
        raise SystemExit(f"unknown weights {kind!r}")
    return weigh


def _group_key(key: str):
    """The group ranking for a KEY name: (exits, k, size, start, exit weights) -> key."""
    plain = GROUP_KEYS["group-exit"]
    return {
        "exits": lambda n, k, size, start, ws: (n, -sum(ws), k - size, start),
        "max": lambda n, k, size, start, ws: (n, -max(ws), k - size, start),
        "ratio": lambda n, k, size, start, ws: (n / (1 + sum(ws)), k - size, start),
        "tie": lambda n, k, size, start, ws: (n, k - size, -sum(ws), start),
        "first": lambda n, k, size, start, ws: (-sum(ws), n, k - size, start),
        "plain": lambda n, k, size, start, ws: plain(n, k, size, start),
    }[key]


@contextlib.contextmanager
def _variant(name: str):
    """Patch ``backtrack`` for one variant (module text); yields the ``solve_strong`` options."""
    parts = name.split("+")
    conflict, weights = parts[0], parts[1] if len(parts) > 1 else None
    key, when = (parts[2] if len(parts) > 2 else "exits"), (parts[3] if len(parts) > 3 else "after")
    if conflict not in ("lc", "wiped") or when not in ("after", "root", "rootge"):
        raise SystemExit(f"unknown variant {name!r}")
    options = {"last_conflict": True, "wiped_out": conflict == "wiped", "weights": weights is not None}
    if weights is None:
        yield options
        return
    kept = backtrack._Search.weigh, backtrack._Search.expand, backtrack._tightest_group_exit
    rank, weigh, current = _group_key(key), _weigher(weights), []

    def careful_weigh(search, cell, changed):
        if weights != "guess" or search.__dict__.get("guessing"):
            weigh(search, cell, changed)

    def expand(search, node):
        current[:] = [search]
        search.guessing = node.guess
        return kept[1](search, node)

    def tightest(puzzle, masks, order=GROUP_KEYS["group-exit"], ws=None):
        if when == "rootge" and order is not GROUP_KEYS["group-exit"]:
            ws = None
        elif ws is None and when in ("root", "rootge"):
            ws = current[0].weights
        if ws is None or key == "exits":
            return kept[2](puzzle, masks, order, ws)
        best_key, best = None, None
        for start, size, exits, k in backtrack._incomplete_groups(puzzle, masks):
            k_ = rank(len(exits), k, size, start, [ws[x] for x in exits])
            if best_key is None or k_ < best_key:
                best_key, best = k_, (min(exits, key=lambda x: (masks[x].bit_count(), -ws[x], x)), k)
        return best

    backtrack._Search.weigh, backtrack._Search.expand, backtrack._tightest_group_exit = careful_weigh, expand, tightest
    try:
        yield options
    finally:
        backtrack._Search.weigh, backtrack._Search.expand, backtrack._tightest_group_exit = kept


def presolved(puzzle):
    """(the presolve's CPU s, the presolved puzzle, the quick proof's nodes to a first solution
    and its seconds: ``features.quick_proof_budget``); None where the rules settle the puzzle.
    ``share17_depth.py`` uses it too."""
    t = time.process_time()
    found = KIND.presolve(puzzle)
    pre = time.process_time() - t
    if found.grid is not None or found.contradiction is not None:
        return None
    return (pre, found.puzzle) + features.quick_proof_budget(found.puzzle)


def rows(puzzle, variants: list[str], rounds: int):
    """The presolve's and the plain quick search's CPU and, per variant, (CPU s, nodes,
    settled); None where the rules settle the puzzle or the plain quick search finds nothing."""
    start = presolved(puzzle)
    if start is None:
        return None
    pre, target, first, whole = start
    best: dict = {}
    for _ in range(rounds):
        t = time.process_time()
        plain = KIND.quick_search(target, 1)
        best["plain"] = min(best.get("plain", 1e9), time.process_time() - t)
        if plain is None or not plain.solutions:
            return None
        for name in variants:
            with _variant(name) as options:
                t = time.process_time()
                result = solve_strong(target, limit=2, probing=False, first_nodes=first,
                                      deadline=time.process_time() + whole, clock=time.process_time, **options)
                cpu = time.process_time() - t
            settled = result.exhausted and len(result.solutions) == 1
            if result.exhausted and result.solutions[:1] != plain.solutions:
                raise SystemExit(f"{name}: another solution than the plain search's")
            if name not in best or cpu < best[name][0]:
                best[name] = (cpu, result.nodes, settled)
    return pre, best


def search_rows(puzzle, variants: list[str], rounds: int, seconds: float, variant=None):
    """Per (limit, variant): the strong search's (CPU s, nodes, settled), the minimum over the
    rounds; None where the rules settle the puzzle. ``variant``: a variant name's patches and
    ``solve_strong`` options (this script's ``_variant`` by default; ``walk17_third.py`` gives its
    own). Every settled search of a limit must give the same answer, or the run stops."""
    variant = variant or _variant
    found = KIND.presolve(puzzle)
    if found.grid is not None or found.contradiction is not None:
        return None
    best: dict = {}
    answers: dict = {}
    for _ in range(rounds):
        for limit in (1, 2):
            for name in variants:
                with variant(name) as options:
                    t = time.process_time()
                    result = solve_strong(found.puzzle, limit=limit, deadline=time.monotonic() + seconds, **options)
                    cpu = time.process_time() - t
                settled = len(result.solutions) >= limit or result.exhausted
                if settled and answers.setdefault(limit, result.solutions) != result.solutions:
                    raise SystemExit(f"{puzzle.source}: {name} answers otherwise (limit {limit})")
                if (limit, name) not in best or cpu < best[limit, name][0]:
                    best[limit, name] = (cpu, result.nodes, settled)
    return best


def write_search_rows(paths: list[str], variants: list[str], rounds: int, seconds: float, variant=None) -> None:
    """``--search``'s CSV on standard output (module text), a row per puzzle the rules leave open;
    ``variant`` as for :func:`search_rows`."""
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{kind}_{v}_{c}" for kind in ("plain", "proof") for v in variants
                               for c in ("cpu", "nodes", "settled")])
    for path in paths:
        best = search_rows(read_puzzle(path), variants, rounds, seconds, variant)
        if best is not None:
            out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")]
                         + [x for limit in (1, 2) for v in variants
                            for x in (f"{best[limit, v][0]:.3f}", best[limit, v][1], best[limit, v][2])])
            sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    ap.add_argument("--search", action="store_true")
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    variants = a.variants.split(",")
    if a.search:
        write_search_rows(a.paths, variants, a.rounds, a.seconds)
        return
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "presolve_cpu", "plain_cpu"] + [f"{v}_{c}" for v in variants for c in ("cpu", "nodes", "ratio")])
    for path in a.paths:
        found = rows(read_puzzle(path), variants, a.rounds)
        if found is None:
            continue
        pre, best = found
        plain = pre + best["plain"]
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt"), f"{pre:.4f}", f"{best['plain']:.4f}"]
                     + [x for v in variants for x in (f"{best[v][0]:.4f}", best[v][1],
                                                      f"{(pre + best[v][0]) / plain:.2f}" if best[v][2] else "t/o")])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
