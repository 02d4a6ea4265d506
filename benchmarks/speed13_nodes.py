"""Issue 17, thirteenth session (speed13): the quick search's nodes, answers and CPU, so that
two versions of the rules can be compared: the same tree (nodes and answers identical on every
puzzle), at what cost per node.

    .venv/bin/python benchmarks/speed13_nodes.py [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/speed13_nodes.py --ab OTHER_PYTHON [--rounds N] PUZZLES... > OUT.csv
    .venv/bin/python benchmarks/speed13_nodes.py --compare OLD.csv NEW.csv [--near PUZZLE...]

Per puzzle, presolved as ``pipeline.solve`` does (``KIND.presolve(...).puzzle``; skipped when
the rules settle it), ``KIND.quick_search(presolved, limit)`` for limit 1 (the plain solve) and
limit 2 (the proof), with the quick search's seconds lifted (``features.QUICK_BASE`` and
``QUICK_PROOF`` set to 10^6), so that the nodes do not depend on the machine's speed: the
search stops only at its node budgets (40 nodes to a first solution for the proof, the strong
search's first phase). Recorded: nodes, whether the search was exhausted or stopped, the answer
(the number of solutions found, ``unique``, a digest of the grids), and the CPU seconds
(``time.process_time``), the minimum over the rounds.

``--pipeline`` (with ``--ab``): instead, ``pipeline.solve`` (yices, presolve staged, the quick
proof's learning off, its seconds as shipped) plain and ``--unique``, wall and CPU seconds of the
process (the race's solver processes not counted), min over the rounds, and each version's
``--unique`` / plain ratios, as ``proof12_cbj.py --pipeline`` measures them.

``--ab``: the same, alternating in every round between this interpreter and a worker process
started with ``OTHER_PYTHON`` (another worktree's venv, whose ``fillsmt`` it imports), each
row holding both versions' columns (``old_*`` the worker's, ``new_*`` this one's) and the ratio
new / old of the CPU. ``--compare``: two such CSVs (or one ``--ab`` CSV given twice), checks
that nodes and answers agree on every puzzle and prints the CPU ratios.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

FIELDS = ("nodes", "exhausted", "found", "unique", "digest", "cpu")
PIPELINE_FIELDS = ("unique", "wall", "cpu")


@contextmanager
def _lifted():
    """The quick search's seconds lifted (module text), restored after."""
    from fillsmt.fillomino import features

    kept = features.QUICK_BASE, features.QUICK_PROOF
    features.QUICK_BASE = features.QUICK_PROOF = 1e6
    try:
        yield
    finally:
        features.QUICK_BASE, features.QUICK_PROOF = kept


def _presolved(path: str):
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.plain_format import read_puzzle

    return KIND.presolve(read_puzzle(path)).puzzle


def _run(presolved, limit: int) -> dict:
    from fillsmt.fillomino.kind import KIND

    t = time.process_time()
    found = KIND.quick_search(presolved, limit)
    cpu = time.process_time() - t
    if found is None:
        return {"nodes": "", "exhausted": "", "found": "", "unique": "", "digest": "", "cpu": cpu}
    digest = hashlib.sha1(repr(found.solutions).encode()).hexdigest()[:12]
    return {"nodes": found.nodes, "exhausted": found.exhausted, "found": len(found.solutions),
            "unique": found.unique, "digest": digest, "cpu": cpu}


def _measure(path: str, cache: dict) -> dict:
    """One round on one puzzle: both limits."""
    if path not in cache:
        cache[path] = _presolved(path)
    presolved = cache[path]
    if presolved is None:
        return {}
    out = {}
    with _lifted():
        for limit, key in ((1, "plain"), (2, "proof")):
            for f, v in _run(presolved, limit).items():
                out[f"{key}_{f}"] = v
    return out


def _pipeline(path: str, cache: dict) -> dict:
    """One round of ``pipeline.solve`` (yices, presolve staged, learning off) plain and
    ``--unique``: wall and CPU seconds of this process, and the answer."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.fillomino.plain_format import read_puzzle
    from fillsmt.pipeline import solve

    if path not in cache:
        cache[path] = read_puzzle(path)
    out = {}
    for key, unique in (("plain", False), ("proof", True)):
        t, c = time.perf_counter(), time.process_time()
        r = solve(cache[path], get_driver("yices"), timeout=30, unique=unique, presolve="staged")
        out[f"{key}_wall"] = time.perf_counter() - t
        out[f"{key}_cpu"] = time.process_time() - c
        out[f"{key}_unique"] = r.unique
    return out


def _worker() -> None:
    """Read lines "MODE PATH" from stdin (MODE: search or pipeline); answer each with one
    round as a JSON line."""
    import fillsmt

    print(json.dumps({"fillsmt": fillsmt.__file__}), flush=True)
    cache: dict = {}
    for line in sys.stdin:
        mode, path = line.rstrip("\n").split(" ", 1)
        print(json.dumps((_pipeline if mode == "pipeline" else _measure)(path, cache)), flush=True)


def _merge(best: dict, got: dict) -> None:
    for key, v in got.items():
        if key.endswith("_cpu") or key.endswith("_wall"):
            best[key] = min(best.get(key, v), v)
        elif best.setdefault(key, v) != v:
            raise SystemExit(f"not deterministic: {key} {best[key]} then {v}")


def run(paths: list[str], rounds: int, other: str | None, pipeline: bool = False) -> None:
    worker = None
    if other:
        worker = subprocess.Popen([other, __file__, "--worker"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        print(f"# old: {json.loads(worker.stdout.readline())['fillsmt']}", file=sys.stderr)
    import fillsmt

    print(f"# new: {fillsmt.__file__}", file=sys.stderr)
    fields = PIPELINE_FIELDS if pipeline else FIELDS
    measure = _pipeline if pipeline else _measure
    cols = [f"{key}_{f}" for key in ("plain", "proof") for f in fields]
    out = csv.writer(sys.stdout)
    if worker:
        out.writerow(["puzzle"] + [f"{v}_{c}" for v in ("old", "new") for c in cols]
                     + ["plain_ratio", "proof_ratio", "same"]
                     + ([f"{v}_unique_over_plain_{c}" for v in ("old", "new") for c in ("wall", "cpu")]
                        if pipeline else []))
    else:
        out.writerow(["puzzle"] + cols)
    cache: dict = {}
    for path in paths:
        new: dict = {}
        old: dict = {}
        for _ in range(rounds):
            if worker:
                worker.stdin.write(f"{'pipeline' if pipeline else 'search'} {path}\n")
                _merge(old, json.loads(worker.stdout.readline()))
            _merge(new, measure(path, cache))
        if not new:
            continue  # the presolve settles it
        row = [Path(path).stem]
        if worker:
            same = all(old[c] == new[c] for c in cols if not c.endswith(("_cpu", "_wall")))
            row += [_fmt(old[c]) for c in cols] + [_fmt(new[c]) for c in cols]
            row += [round(new[f"{k}_cpu"] / old[f"{k}_cpu"], 3) for k in ("plain", "proof")]
            row.append(same)
            if pipeline:  # --unique / plain, each version
                row += [round(v[f"proof_{c}"] / v[f"plain_{c}"], 3) for v in (old, new) for c in ("wall", "cpu")]
        else:
            row += [_fmt(new[c]) for c in cols]
        out.writerow(row)
        sys.stdout.flush()
    if worker:
        worker.stdin.close()
        worker.wait()


def _fmt(v):
    return round(v, 5) if isinstance(v, float) else v


def compare(a: str, b: str, near: list[str] = ()) -> None:
    """Nodes and answers identical; CPU ratios b / a (an ``--ab`` file: new / old); for the
    puzzles ``near``, a table of both versions' CPU and proof / plain ratios (markdown)."""
    def load(path: str, prefix: str) -> dict:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if rows and f"{prefix}plain_nodes" not in rows[0]:
            prefix = ""
        return {r["puzzle"]: {k[len(prefix):]: v for k, v in r.items() if k.startswith(prefix)}
                for r in rows}
    old, new = load(a, "old_"), load(b, "new_")
    if old.keys() != new.keys():
        raise SystemExit(f"different puzzles: {sorted(old.keys() ^ new.keys())}")
    differ = [p for p in old for f in FIELDS[:-1] for k in ("plain", "proof")
              if old[p][f"{k}_{f}"] != new[p][f"{k}_{f}"]]
    print(f"puzzles: {len(old)}; nodes and answers differ on: {sorted(set(differ)) or 'none'}")
    for k in ("plain", "proof"):
        ratios = sorted((float(new[p][f"{k}_cpu"]) / float(old[p][f"{k}_cpu"]), p) for p in old
                        if old[p][f"{k}_cpu"] and float(old[p][f"{k}_cpu"]) > 0)
        so = sum(float(old[p][f"{k}_cpu"]) for p in old)
        sn = sum(float(new[p][f"{k}_cpu"]) for p in old)
        print(f"{k}: CPU new/old median {statistics.median(r for r, _ in ratios):.3f}, "
              f"best {ratios[0][0]:.3f} ({ratios[0][1]}), worst {ratios[-1][0]:.3f} ({ratios[-1][1]}); "
              f"sums {so:.3f} -> {sn:.3f} s ({sn / so:.3f})")
    if near:
        print("| puzzle | nodes plain / proof | plain CPU old → new (s) | proof CPU old → new (s) "
              "| proof / plain old → new |")
        print("|---|---|---|---|---|")
    for p in near:
        o, n = old[p], new[p]
        po, pn, qo, qn = (float(v[f"{k}_cpu"]) for k in ("plain", "proof") for v in (o, n))
        print(f"| {p} | {n['plain_nodes']} / {n['proof_nodes']} | {po:.4f} → {pn:.4f} ({pn / po:.2f}) "
              f"| {qo:.4f} → {qn:.4f} ({qn / qo:.2f}) | {qo / po:.2f} → {qn / pn:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ab", metavar="OTHER_PYTHON")
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--compare", nargs=2, metavar="CSV")
    ap.add_argument("--near", nargs="*", default=[], help="with --compare: puzzles to tabulate")
    ap.add_argument("--pipeline", action="store_true")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    if a.worker:
        _worker()
    elif a.compare:
        compare(*a.compare, a.near)
    else:
        run(a.paths, a.rounds, a.ab, a.pipeline)


if __name__ == "__main__":
    main()
