"""deduce() of this tree against a base commit's, in one process, puzzle by puzzle (issue 19).

The base commit's ``fillsmt`` is exported and renamed ``fillsmt_base`` (imports rewritten), so
both versions run side by side: for each puzzle, ROUNDS alternating timings of each, the best
kept. A machine whose load drifts slows both alike. Also checks both give the same domains.

    python benchmarks/deduce_ab.py f83c82e ../shared/instances/fillomino/{baron-thesis60,janko-thesis100}/puzzles/*.txt
"""

from __future__ import annotations

import importlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 5


def export_base(commit: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", commit, "fillsmt"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "fillsmt").rename(into / "fillsmt_base")
    for path in (into / "fillsmt_base").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\bfillsmt([.\s])", r"fillsmt_base\1", text), encoding="utf-8")


def main() -> None:
    commit, files = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        export_base(commit, Path(tmp))
        sys.path.insert(0, tmp)
        base = importlib.import_module("fillsmt_base.fillomino.deduce")
        base_read = importlib.import_module("fillsmt_base.fillomino.plain_format").read_puzzle
        from fillsmt.fillomino.deduce import deduce
        from fillsmt.fillomino.plain_format import read_puzzle

        ratios, totals = [], [0.0, 0.0]
        for name in files:
            a, b = base_read(name), read_puzzle(name)
            best = [float("inf"), float("inf")]
            for _ in range(ROUNDS):
                for i, (fn, p) in enumerate(((base.deduce, a), (deduce, b))):
                    t = time.perf_counter()
                    result = fn(p)
                    best[i] = min(best[i], time.perf_counter() - t)
            if base.deduce(a).domains != deduce(b).domains:
                raise SystemExit(f"{name}: the two versions deduce different domains")
            ratios.append(best[1] / best[0])
            totals[0] += best[0]
            totals[1] += best[1]
        print(f"puzzles {len(files)}; sum of best times: base {totals[0]:.3f} s, this {totals[1]:.3f} s "
              f"(ratio {totals[1] / totals[0]:.3f}); per puzzle this/base: median {statistics.median(ratios):.3f}, "
              f"quartiles {statistics.quantiles(ratios, n=4)[0]:.3f}–{statistics.quantiles(ratios, n=4)[2]:.3f}; "
              f"same domains on every puzzle")


if __name__ == "__main__":
    main()
