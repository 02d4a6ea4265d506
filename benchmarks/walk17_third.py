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

from wdeg16_variants import write_search_rows

from fillsmt.fillomino import backtrack

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    write_search_rows(a.paths, a.variants.split(","), a.rounds, a.seconds, _variant)


if __name__ == "__main__":
    main()
