"""Issue 17, seventeenth session (walk17): a third, weighted walk in the strong search's second
phase (``backtrack``'s ``weighted_walk``), against main's two walks and the sixteenth session's
weights from the root in the group-exit walks. The strong search alone (the race's and
``solve --solver rules``: ``Fillomino.search``'s options, both phases), plain (limit 1) and
proof (limit 2), in one process, the variants alternating, CPU s (the minimum over the rounds)
and nodes.

    .venv/bin/python benchmarks/walk17_third.py [--rounds N] [--variants A,B,...] [--seconds S] PUZZLES... > OUT.csv

Variants (each with the last conflict, as ``features.SEARCH_LAST_CONFLICT``):

- ``main``: the two walks of ``SECOND_PHASE_ORDERS`` (big-value, group-exit), no weights;
- ``three``: the two and a weighted walk beside them (``weighted_walk="beside"``: group-exit,
  failure weights from its root on), by turns;
- ``swap``: the group-exit walk weighted instead of the plain one (``weighted_walk="instead"``):
  big-value and the weighted walk;
- ``first``: the first phase breaks its ties by failure weights from the root on
  (``weighted_first``), then main's two walks;
- ``first+three``: ``first`` and the third walk;
- ``first+swap``: ``first`` and ``swap`` (``features.SEARCH_WEIGHTED_FIRST`` on and
  ``SEARCH_WEIGHTED_WALK`` ``"instead"``; both off, ``benchmarks/README.md`` says why): the same
  trees as ``rootge``;
- ``rootge``: the sixteenth session's ``lc+both+exits+rootge`` (``wdeg16_variants.py``): every
  group-exit search, the first phase and the second phase's group-exit walk, breaks its ties by
  failure weights from the root on; the big-value walk has none; two walks.

A run that settles nothing within ``--seconds`` (wall, the deadline) has settled False. Every
settled answer must be the first settled one's of its limit (the same solutions), or the run
stops with an error.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
import time

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

DEFAULT_VARIANTS = "main,three,swap,first,first+three,rootge"


@contextlib.contextmanager
def _variant(name: str):
    """Patch ``backtrack`` for one variant (module text); yields the ``solve_strong`` options."""
    options = {"last_conflict": True}
    if name == "main":
        yield options
    elif name == "three":
        yield dict(options, weighted_walk="beside")
    elif name == "first":
        yield dict(options, weighted_first=True)
    elif name == "first+three":
        yield dict(options, weighted_first=True, weighted_walk="beside")
    elif name == "swap":
        yield dict(options, weighted_walk="instead")
    elif name == "first+swap":
        yield dict(options, weighted_first=True, weighted_walk="instead")
    elif name == "rootge":
        kept = backtrack._Search.expand

        def expand(search, node):
            if search.cell_order == "group-exit":
                search.weights_from_root = True
            else:
                search.weights = None
            return kept(search, node)

        backtrack._Search.expand = expand
        try:
            yield dict(options, weights=True)
        finally:
            backtrack._Search.expand = kept
    else:
        raise SystemExit(f"unknown variant {name!r}")


def search_rows(puzzle, variants: list[str], rounds: int, seconds: float):
    """Per (limit, variant): the strong search's (CPU s, nodes, settled), the minimum over the
    rounds; None where the rules settle the puzzle."""
    found = KIND.presolve(puzzle)
    if found.grid is not None or found.contradiction is not None:
        return None
    best: dict = {}
    answers: dict = {}
    for _ in range(rounds):
        for limit in (1, 2):
            for name in variants:
                with _variant(name) as options:
                    t = time.process_time()
                    result = solve_strong(found.puzzle, limit=limit, deadline=time.monotonic() + seconds, **options)
                    cpu = time.process_time() - t
                settled = len(result.solutions) >= limit or result.exhausted
                if settled:
                    if answers.setdefault(limit, result.solutions) != result.solutions:
                        raise SystemExit(f"{puzzle.source}: {name} answers otherwise (limit {limit})")
                if (limit, name) not in best or cpu < best[limit, name][0]:
                    best[limit, name] = (cpu, result.nodes, settled)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    variants = a.variants.split(",")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{kind}_{v}_{c}" for kind in ("plain", "proof") for v in variants
                               for c in ("cpu", "nodes", "settled")])
    for path in a.paths:
        best = search_rows(read_puzzle(path), variants, a.rounds, a.seconds)
        if best is not None:
            out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")]
                         + [x for limit in (1, 2) for v in variants
                            for x in (f"{best[limit, v][0]:.3f}", best[limit, v][1], best[limit, v][2])])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
