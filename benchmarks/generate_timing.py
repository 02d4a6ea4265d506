"""Benchmark: how long `fillsmt generate` takes to make a unique puzzle (issue 8).

Runs the generator exactly as the CLI does (``fillsmt.cli.generate.make_fillomino`` /
``make_blocknumber``: generation, the final uniqueness proof, the rating), one puzzle at a time
(so at most one solver process at a time), with the yices oracle and the CLI's defaults unless
a configuration says otherwise. Per puzzle: seconds (generation and proof; the rating after it
is reported apart), clues, rating label, and where the oracle's time went (probe, local search,
exact SMT checks). Writes CSV rows and a Markdown summary with the command that made them.

    python benchmarks/generate_timing.py --out benchmarks/results/generate
    python benchmarks/generate_timing.py --quick          # a smaller run, for a look
"""

from __future__ import annotations

import argparse
import csv
import shlex
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fillsmt.cli.generate import check_options, make_blocknumber, make_fillomino, session_driver  # noqa: E402

# (name, kind, size, seeds, extra options); seeds are 1..N
CONFIGS = [
    ("fillomino 10x10", "fillomino", "10x10", 10, {}),
    ("fillomino 15x15", "fillomino", "15x15", 5, {}),
    ("fillomino 20x20", "fillomino", "20x20", 5, {}),
    ("fillomino 20x20, --max-empty-area 0", "fillomino", "20x20", 3, {"max_empty_area": 0}),
    ("fillomino 30x30", "fillomino", "30x30", 1, {}),
    ("fillomino 10x10, --difficulty hard", "fillomino", "10x10", 5, {"difficulty": "hard"}),
    ("blocknumber 6x6", "blocknumber", "6x6", 5, {}),
    ("blocknumber 8x8", "blocknumber", "8x8", 5, {}),
    ("blocknumber 10x10", "blocknumber", "10x10", 5, {}),
    ("blocknumber 15x15", "blocknumber", "15x15", 5, {}),
]
QUICK = {"fillomino 10x10": 3, "fillomino 20x20": 1, "blocknumber 15x15": 2}

FIELDS = ["config", "kind", "size", "seed", "seconds", "rating_seconds", "clues", "cells", "label", "minimal",
          "calls", "by_probe", "by_local", "exact_unique", "exact_multiple", "probe_seconds", "local_seconds",
          "exact_seconds", "free_removals", "kept_for_area", "unique", "multiple", "sessions"]

TARGETS = {"fillomino 10x10": 5.0, "fillomino 20x20": 60.0}
"""Issue 8's targets: mean seconds per unique puzzle."""


def run_one(config: str, kind: str, size: str, seed: int, extra: dict, solver: str) -> dict:
    opts = check_options(kind, size, solver, None, extra.get("difficulty"), None, None,
                         extra.get("max_empty_area"))
    make = make_fillomino if kind == "fillomino" else make_blocknumber
    start = time.monotonic()
    made = make(opts, seed, session_driver(solver))
    total = time.monotonic() - start
    row = {"config": config, "kind": kind, "size": size, "seed": seed, "seconds": round(made.seconds, 3),
           "rating_seconds": round(total - made.seconds, 3), "clues": made.clues,
           "cells": opts.height * opts.width, "label": made.label, "minimal": made.minimal}
    row.update({k: v for k, v in made.stats.items() if k in FIELDS})
    return row


def summary(rows: list[dict], command: str, solver: str) -> str:
    lines = ["# Generating unique puzzles (issue 8)", "",
             f"Command: `{command}` — one puzzle at a time (one solver process), oracle `{solver}`, "
             "the CLI's defaults otherwise (`--max-empty-area` 0 up to 15x15, 20 above). Seconds are "
             "generation plus the final uniqueness proof; the rating printed in the summary line "
             "comes after and is not included. Every puzzle was proved unique and its solution checked.",
             "",
             "| configuration | puzzles | mean (s) | median (s) | max (s) | target | clues (min–max) "
             "| minimal | labels | oracle calls (mean) | exact checks (mean) | time in exact checks |",
             "|---|---:|---:|---:|---:|---|---|---:|---|---:|---:|---:|"]
    for config in dict.fromkeys(r["config"] for r in rows):
        group = [r for r in rows if r["config"] == config]
        secs = [r["seconds"] for r in group]
        clues = [r["clues"] for r in group]
        labels = Counter(r["label"] for r in group)
        target = TARGETS.get(config)
        mean = statistics.fmean(secs)
        verdict = "" if target is None else f"< {target:g} s: {'met' if mean < target else 'missed'}"
        exact = [r.get("exact_unique", r.get("unique", 0)) + r.get("exact_multiple", r.get("multiple", 0))
                 for r in group]
        exact_s = sum(r.get("exact_seconds", 0) or 0 for r in group)
        share = f"{100 * exact_s / sum(secs):.0f} %" if group[0]["kind"] == "fillomino" else "all (one session)"
        lines.append(
            f"| {config} | {len(group)} | {mean:.2f} | {statistics.median(secs):.2f} | {max(secs):.2f} | "
            f"{verdict} | {statistics.fmean(clues):.1f} ({min(clues)}–{max(clues)}) | "
            f"{sum(bool(r['minimal']) for r in group)}/{len(group)} | "
            f"{', '.join(f'{k} {v}' for k, v in sorted(labels.items()))} | "
            f"{statistics.fmean(r['calls'] for r in group):.0f} | {statistics.fmean(exact):.1f} | {share} |")
    lines += ["", "Per-puzzle rows, with the oracle's layers (probe, local search, exact checks) and their "
              "seconds: [`generate.csv`](generate.csv)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "generate"),
                        help="output path without extension (.csv and .md are written)")
    parser.add_argument("--solver", default="yices")
    parser.add_argument("--quick", action="store_true", help="fewer configurations and seeds")
    parser.add_argument("--only", action="append", default=[], help="run only configurations containing this text")
    args = parser.parse_args(argv)
    command = "python benchmarks/generate_timing.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    out = Path(args.out)
    rows = []
    with out.with_suffix(".csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for config, kind, size, count, extra in CONFIGS:
            if args.quick:
                if config not in QUICK:
                    continue
                count = QUICK[config]
            if args.only and not any(text in config for text in args.only):
                continue
            for seed in range(1, count + 1):
                row = run_one(config, kind, size, seed, extra, args.solver)
                rows.append(row)
                writer.writerow(row)
                f.flush()
                print(f"{config} seed {seed}: {row['seconds']:.2f} s, {row['clues']} clues, {row['label']}",
                      file=sys.stderr, flush=True)
    out.with_suffix(".md").write_text(summary(rows, command.strip(), args.solver))
    return 0


if __name__ == "__main__":
    sys.exit(main())
