"""Issue 17, sixteenth session: the quick proof's group-exit order with a *degree* tie-break
(dom/deg, Bessiere and Regin 1996), measured, not kept. A group's degree is how many times its
exits border another incomplete group; an exit's, how many incomplete groups it borders. Only
the proof (limit 2) uses a variant; the plain quick search keeps its order. CPU, one process,
min of 3 rounds; ratio = (presolve + proof) / (presolve + plain quick search).

    .venv/bin/python benchmarks/deg16_order.py --variants off,deg,degbefore,degafter [PUZZLES...]   # default: janko-thesis100

- ``off``: the kept order (the failure weights after the first solution, ``backtrack``'s text);
- ``deg``: (fewest exits, most failure weight, most degree, fewest cells missing, first cell),
  the exit by the fewest values, then the most degree;
- ``degbefore``: the degree before the first solution, the failure weights (alone) after it;
- ``degafter``: the degree after the first solution only;
- ``degroot``: the degree at the root's guess only (made before any failure could weigh);
- ``miss``: the most cells missing before the fewest (after the exits and the weights: a big
  group first, as janko 286's corner 36-clue with two exits); ``missroot``: at the root's guess
  only; ``missbefore``: before the first solution only.

Prints, per variant, the proofs at 2x or more and at 1.8x or more, the CPU and nodes in all,
and the seven highest ratios (ratio, puzzle, nodes).
"""

from __future__ import annotations

import argparse
import glob
import time

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

JANKO = "../shared/instances/fillomino/janko-thesis100/puzzles"
KEPT = backtrack._tightest_group_exit


def _variant_exit(variant: str):
    """``backtrack._tightest_group_exit`` for a variant (module text), for one search."""
    calls = [0]

    def tightest(puzzle, masks, order=backtrack.GROUP_KEYS["group-exit"], weights=None):
        calls[0] += 1
        groups = list(backtrack._incomplete_groups(puzzle, masks))
        bordering: dict[int, int] = {}
        for _, _, exits, _ in groups:
            for e in exits:
                bordering[e] = bordering.get(e, 0) + 1
        use_degree = {"deg": True, "degbefore": weights is None, "degafter": weights is not None,
                      "degroot": calls[0] == 1}.get(variant, False)
        best_key, best = None, None
        for start, size, exits, k in groups:
            degree = sum(bordering[e] - 1 for e in exits) if use_degree else 0
            weight = 0 if weights is None else sum(weights[x] for x in exits)
            key = (len(exits), -weight, -degree, k - size, start)
            if variant == "miss":
                key = (len(exits), -weight, -(k - size), start)
            elif variant == "missroot":
                key = (len(exits), -weight, -(k - size) if calls[0] == 1 else k - size, start)
            elif variant == "missbefore":
                key = (len(exits), -weight, -(k - size) if weights is None else k - size, start)
            if best_key is None or key < best_key:
                best_key = key
                best = (min(exits, key=lambda x: (masks[x].bit_count(), -(bordering[x] if use_degree else 0),
                                                  -(weights[x] if weights else 0), x)), k)
        return best
    return tightest


def _cpu(run):
    t = time.process_time()
    found = run()
    return time.process_time() - t, found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", default="off,deg,degbefore,degafter")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    variants = a.variants.split(",")
    rows = []
    for path in a.paths or sorted(glob.glob(f"{JANKO}/*.txt")):
        pre, found = _cpu(lambda: KIND.presolve(read_puzzle(path)))
        if found.grid is not None or found.contradiction is not None:
            continue
        best: dict = {}
        for _ in range(a.rounds):
            cpu, plain = _cpu(lambda: KIND.quick_search(found.puzzle, 1))
            if plain is None or not plain.solutions:
                break
            best["plain"] = min(best.get("plain", cpu), cpu)
            for variant in variants:
                backtrack._tightest_group_exit = KEPT if variant == "off" else _variant_exit(variant)
                try:
                    cpu, proof = _cpu(lambda: KIND.quick_search(found.puzzle, 2))
                finally:
                    backtrack._tightest_group_exit = KEPT
                settled = proof is not None and proof.exhausted and len(proof.solutions) == 1
                if settled and proof.solutions != plain.solutions:
                    raise SystemExit(f"{variant}: another solution than the plain search's")
                old = best.get(variant)
                best[variant] = (cpu, proof.nodes if proof else 0, settled) if old is None or cpu < old[0] else old
        if "plain" in best:
            rows.append((path.rsplit("/", 1)[-1].removesuffix(".txt"), pre, best))
    for variant in variants:
        ratios = sorted(((((pre + b[variant][0]) / (pre + b["plain"])) if b[variant][2] else 99.0, name, b[variant][1])
                         for name, pre, b in rows), reverse=True)
        print(f"{variant}: {len(ratios)} proofs, >= 2x {sum(r >= 2 for r, _, _ in ratios)}, >= 1.8x "
              f"{sum(r >= 1.8 for r, _, _ in ratios)}, CPU {sum(b[variant][0] for _, _, b in rows):.3f} s, nodes "
              f"{sum(b[variant][1] for _, _, b in rows)}; highest: "
              + ", ".join(f"{name} {r:.2f} ({nodes})" for r, name, nodes in ratios[:7]))


if __name__ == "__main__":
    main()
