"""Issue 17, fifteenth session: the last-conflict heuristic (``backtrack``'s ``last_conflict``),
off and on in the same process, alternating, CPU s (the minimum over the rounds) and nodes.

    # the strong search alone, as the race's search and ``solve --solver rules`` run it, plain
    # (limit 1) and proof (limit 2), each within --seconds (wall)
    .venv/bin/python benchmarks/lc15_search.py --search [--rounds N] PUZZLES... > OUT.csv
    # the quick search in-process, as ``fillsmt solve [--unique]`` runs it before any solver:
    # the plain solve (unchanged) and the proof, QUICK_PROOF_LAST_CONFLICT off and on; the ratio
    # is (presolve + proof) / (presolve + plain), CPU
    .venv/bin/python benchmarks/lc15_search.py --quick [--rounds N] PUZZLES... > OUT.csv
    # the quick proof's variants (first solution within 90 nodes, as the quick proof's): the kept
    # last conflict (lc1), a list of the last k conflicts (lc2, lc3, lc5: the most recent one
    # that applies is guessed; one whose guess is not refuted leaves the list), and the last
    # conflict with nogoods, with backjumping, with passing over weak guesses
    .venv/bin/python benchmarks/lc15_search.py --variants [--rounds N] PUZZLES... > OUT.csv

Every answer is the presolved puzzle's; a run whose answers differ (solutions found, or
``unique``) between off and on stops with an error.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
import time

from fillsmt.fillomino import features
from fillsmt.fillomino import backtrack
from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle


def _cpu(run):
    t = time.process_time()
    found = run()
    return time.process_time() - t, found


def _settled(found, limit: int) -> bool:
    return found is not None and (found.exhausted or len(found.solutions) >= limit)


def _answer(found):
    return None if found is None else (tuple(found.solutions[:1]), found.unique if found.exhausted else None)


def search_rows(puzzle, rounds: int, seconds: float):
    """(limit, on) -> (CPU s, nodes, settled) for the strong search alone."""
    best: dict = {}
    for _ in range(rounds):
        for limit in (1, 2):
            for on in (False, True):
                cpu, found = _cpu(lambda: solve_strong(puzzle, limit=limit, deadline=time.monotonic() + seconds,
                                                       last_conflict=on))
                row = (cpu, found.nodes, _settled(found, limit), _answer(found) if _settled(found, limit) else None)
                old = best.get((limit, on))
                best[limit, on] = row if old is None or cpu < old[0] else old
    for limit in (1, 2):
        a, b = best[limit, False][3], best[limit, True][3]
        if a is not None and b is not None and (a[1] != b[1] or limit == 1 and a[0] == () != b[0]):
            raise SystemExit(f"answers differ (limit {limit}): {a} / {b}")
    return best


def quick_rows(puzzle, rounds: int):
    """The presolve's CPU and, per side, the plain quick search and the quick proof:
    (CPU s, nodes, settled)."""
    pre = min(_cpu(lambda: KIND.presolve(puzzle))[0] for _ in range(rounds))
    found = KIND.presolve(puzzle)
    if found.grid is not None or found.contradiction is not None:
        return None
    target = found.puzzle
    kept = features.QUICK_PROOF_LAST_CONFLICT
    best: dict = {}
    try:
        for _ in range(rounds):
            for key, on, limit in (("plain", False, 1), ("off", False, 2), ("on", True, 2)):
                features.QUICK_PROOF_LAST_CONFLICT = on
                cpu, result = _cpu(lambda: KIND.quick_search(target, limit))
                row = (cpu, 0 if result is None else result.nodes, _settled(result, limit),
                       _answer(result) if _settled(result, limit) else None)
                old = best.get(key)
                best[key] = row if old is None or cpu < old[0] else old
    finally:
        features.QUICK_PROOF_LAST_CONFLICT = kept
    a, b = best["off"][3], best["on"][3]
    if a is not None and b is not None and a[1] != b[1]:
        raise SystemExit(f"answers differ: {a} / {b}")
    return pre, best


@contextlib.contextmanager
def _last_conflicts(k: int):
    """``lc<k>`` (module text): ``_Search``'s conflict kept as a list of the last ``k`` (a
    throw-away variant, measured and not kept)."""
    kept = backtrack._Search.note_conflict, backtrack._Search.conflict_guess

    def note(search, decision, refuted):
        if decision is None or decision[1] & (decision[1] - 1):
            return
        c = (decision[0], decision[1].bit_length() - 1)
        recent = search.__dict__.setdefault("recent", [])
        if c in recent:
            recent.remove(c)
        if refuted:
            recent.insert(0, c)
            del recent[k:]

    def guess(search, masks):
        for cell, value in search.__dict__.get("recent", []):
            if masks[cell] & (masks[cell] - 1) and masks[cell] >> value & 1:
                return cell, value
        return None
    backtrack._Search.note_conflict, backtrack._Search.conflict_guess = note, guess
    try:
        yield
    finally:
        backtrack._Search.note_conflict, backtrack._Search.conflict_guess = kept


VARIANTS = {"off": ({}, 1), "lc1": ({"last_conflict": True}, 1), "lc2": ({"last_conflict": True}, 2),
            "lc3": ({"last_conflict": True}, 3), "lc5": ({"last_conflict": True}, 5),
            "lc-nogoods": ({"last_conflict": True, "nogoods": True}, 1),
            "lc-cbj": ({"last_conflict": True, "cbj": True}, 1),
            "lc-pass-weak": ({"last_conflict": True, "pass_weak": True}, 1)}


def variant_rows(puzzle, rounds: int):
    """The presolve's and the plain quick search's CPU, and per variant of the quick proof
    (:data:`VARIANTS`) its (CPU s, nodes, settled); None where the plain quick search finds no
    solution (its puzzle goes to the race)."""
    pre = min(_cpu(lambda: KIND.presolve(puzzle))[0] for _ in range(rounds))
    found = KIND.presolve(puzzle)
    if found.grid is not None or found.contradiction is not None:
        return None
    target = found.puzzle
    first, whole = features.quick_proof_budget(target)
    best: dict = {}
    for _ in range(rounds):
        cpu, plain = _cpu(lambda: KIND.quick_search(target, 1))
        best["plain"] = min(best.get("plain", cpu), cpu)
        if plain is None or not plain.solutions:
            return None
        for name, (options, k) in VARIANTS.items():
            with _last_conflicts(k) if k > 1 else contextlib.nullcontext():
                cpu, result = _cpu(lambda: solve_strong(target, limit=2, probing=False, first_nodes=first,
                                                        deadline=time.process_time() + whole,
                                                        clock=time.process_time, **options))
            if result.exhausted and result.solutions[:1] != plain.solutions:
                raise SystemExit(f"{name}: another solution than the plain search's")
            old = best.get(name)
            row = (cpu, result.nodes, result.exhausted)
            best[name] = row if old is None or cpu < old[0] else old
    return pre, best


def main() -> None:
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--search", action="store_true")
    mode.add_argument("--quick", action="store_true")
    mode.add_argument("--variants", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    out = csv.writer(sys.stdout)
    if a.search:
        out.writerow(["puzzle"] + [f"{kind}_{side}_{c}" for kind in ("plain", "proof") for side in ("off", "on")
                                   for c in ("cpu", "nodes", "settled")])
    elif a.variants:
        out.writerow(["puzzle", "presolve_cpu", "plain_cpu"] + [f"{v}_{c}" for v in VARIANTS for c in ("cpu", "nodes", "ratio")])
    else:
        out.writerow(["puzzle", "presolve_cpu", "plain_cpu", "plain_nodes", "plain_settled",
                      "proof_off_cpu", "proof_off_nodes", "proof_off_settled",
                      "proof_on_cpu", "proof_on_nodes", "proof_on_settled", "ratio_off", "ratio_on"])
    for path in a.paths:
        name = path.rsplit("/", 1)[-1].removesuffix(".txt")
        puzzle = read_puzzle(path)
        if a.search:
            presolved = KIND.presolve(puzzle)
            if presolved.grid is not None or presolved.contradiction is not None:
                continue
            best = search_rows(presolved.puzzle, a.rounds, a.seconds)
            out.writerow([name] + [x for limit in (1, 2) for on in (False, True)
                                   for x in (f"{best[limit, on][0]:.4f}", best[limit, on][1], best[limit, on][2])])
        elif a.variants:
            rows = variant_rows(puzzle, a.rounds)
            if rows is None:
                continue
            pre, best = rows
            plain = pre + best["plain"]
            out.writerow([name, f"{pre:.4f}", f"{best['plain']:.4f}"]
                         + [x for v in VARIANTS for x in (f"{best[v][0]:.4f}", best[v][1],
                                                          f"{(pre + best[v][0]) / plain:.2f}" if best[v][2] else "")])
        else:
            rows = quick_rows(puzzle, a.rounds)
            if rows is None:
                continue
            pre, best = rows
            plain = pre + best["plain"][0]
            out.writerow([name, f"{pre:.4f}"] + [x for key in ("plain", "off", "on")
                                                for x in (f"{best[key][0]:.4f}", best[key][1], best[key][2])]
                         + [f"{(pre + best[key][0]) / plain:.2f}" if best[key][2] else "" for key in ("off", "on")])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
