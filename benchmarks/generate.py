"""How long ``fillsmt generate`` takes, over grid sizes and seeds: a median table.

Each (size, seed) runs ``fillsmt generate --size NxN --seed SEED`` as a whole process, one at a
time; its wall time and CPU time (user + system, of the process and the solvers it started) are recorded, with the clue
count and the proof of uniqueness from its summary line on standard error. A run that exits
other than 0, or whose summary names no proof, stops the script. Options after ``--`` go to
``fillsmt generate`` (e.g. ``-- --minimal``). Only fillsmt's command line is used.

    python benchmarks/generate.py --sizes 20,30,50 --seeds 1-5 [--summary OUT.md] [-- OPTIONS]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

SUMMARY = re.compile(r": (\d+) clues, (\w+), (near-minimal|minimal) \(unique by (the deduction rules|the oracle)")


def seeds_of(text: str) -> list[int]:
    """``1-5`` or ``1,4,9`` (or both: ``1-3,7``)."""
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def run_one(fillsmt: str, size: int, seed: int, extra: list[str]) -> dict:
    args = [fillsmt, "generate", "--size", f"{size}x{size}", "--seed", str(seed), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # one child at a time: the delta is its
    found = SUMMARY.search(done.stderr)
    if done.returncode != 0 or found is None or not done.stdout.strip():
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return {
        "size": size,
        "seed": seed,
        "wall": wall,
        "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "clues": int(found.group(1)),
        "rating": found.group(2),
        "proof": found.group(4),
    }


def table(rows: list[dict], sizes: list[int]) -> str:
    lines = [
        "| size | seeds | median clues | median wall (s) | median CPU (s) | slowest wall (s) | unique by |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for size in sizes:
        mine = [r for r in rows if r["size"] == size]
        proofs = sorted({r["proof"] for r in mine})
        lines.append(
            f"| {size}×{size} | {len(mine)} | {statistics.median(r['clues'] for r in mine):g} "
            f"| {statistics.median(r['wall'] for r in mine):.2f} | {statistics.median(r['cpu'] for r in mine):.2f} "
            f"| {max(r['wall'] for r in mine):.2f} | {', '.join(proofs)} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    own, extra = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,30,50", help="square sizes, comma-separated (default 20,30,50)")
    parser.add_argument("--seeds", default="1-5", help="seeds: 1-5, 1,4,9 or both (default 1-5)")
    parser.add_argument("--fillsmt", default="fillsmt", help="the program (default: fillsmt on the PATH)")
    parser.add_argument("--summary", help="also write the table to this file")
    opts = parser.parse_args(own)
    sizes = [int(s) for s in opts.sizes.split(",")]
    rows = []
    print(f"load average before: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for size in sizes:
        for seed in seeds_of(opts.seeds):
            row = run_one(opts.fillsmt, size, seed, extra)
            rows.append(row)
            print(
                f"{size}x{size} seed {seed}: {row['clues']} clues, {row['wall']:.2f} s wall, {row['cpu']:.2f} s CPU",
                file=sys.stderr,
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    text = table(rows, sizes)
    print(text, end="")
    if opts.summary:
        with open(opts.summary, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
