"""Issue 17, thirteenth session: lazy explanations (``fillsmt.fillomino.deduce.reasons``) against
the eager ones they replace, in one process, alternating.

    .venv/bin/python benchmarks/lazy13_ab.py [--rounds N] [--eager-from REF] PUZZLES... > OUT.csv

The eager ``ReasonState`` is read from git (``REF``, default ``a90f1f6``: main before the lazy
explanations) into a module of its own; ``backtrack`` takes whichever class it is handed
(``backtrack.ReasonState``), so each round runs, per puzzle presolved as ``pipeline.solve``
does, the quick proof (limit 2, as ``Kind.quick_search`` runs it) off, then with ``cbj`` and
``nogoods`` on the eager and on the lazy explanations, alternating; the minimum CPU seconds
(``time.process_time``) over the rounds and the nodes. Every variant must give the same answer;
the eager and the lazy explanations the same nodes (the lazy ones compute the same reasons).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fillsmt.fillomino import backtrack, features
from fillsmt.fillomino.deduce import reasons
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

ROOT = Path(__file__).resolve().parent.parent


def eager_class(ref: str):
    """The ``ReasonState`` of ``reasons.py`` at git ``ref``."""
    text = subprocess.run(["git", "show", f"{ref}:fillsmt/fillomino/deduce/reasons.py"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("eager_reasons", f.name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ReasonState


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--eager-from", default="a90f1f6")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    classes = {"eager": eager_class(a.eager_from), "lazy": reasons.ReasonState}
    variants = [("off", "off", "lazy")] + [(f"{kind}_{lr}", lr, kind) for lr in ("cbj", "nogoods")
                                           for kind in ("eager", "lazy")]
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{name}_{c}" for name, _, _ in variants for c in ("cpu", "nodes")] + ["unique"])
    for path in a.paths:
        presolved = KIND.presolve(read_puzzle(path)).puzzle
        if presolved is None:
            continue
        best: dict[str, float] = {}
        seen: dict[str, object] = {}
        for _ in range(a.rounds):
            for name, learning, kind in variants:
                features.QUICK_PROOF_LEARNING = learning
                backtrack.ReasonState = classes[kind]
                t = time.process_time()
                found = KIND.quick_search(presolved, 2)
                cpu = time.process_time() - t
                best[name] = min(best.get(name, cpu), cpu)
                seen[name] = found
        features.QUICK_PROOF_LEARNING = "off"
        backtrack.ReasonState = reasons.ReasonState
        if seen["off"] is None:
            continue  # no quick search on this grid
        answers = {(tuple(f.solutions), f.unique) for f in seen.values() if f.unique is not None}
        if len(answers) > 1:
            raise SystemExit(f"{path}: the variants disagree: {answers}")
        for lr in ("cbj", "nogoods"):
            if seen[f"eager_{lr}"].nodes != seen[f"lazy_{lr}"].nodes:
                raise SystemExit(f"{path}: eager and lazy {lr} differ in nodes")
        row = [Path(path).stem]
        for name, _, _ in variants:
            row += [round(best[name], 4), seen[name].nodes]
        out.writerow(row + [seen["off"].unique])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
