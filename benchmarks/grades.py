"""How ``fillsmt rate`` grades puzzle sets, and whether ``generate --difficulty`` makes what ``rate`` says.

Two tables, from fillsmt's command line only (whole processes):

* ``--sets DIR...``: every puzzle of each folder rated by ``fillsmt rate --format json`` (one
  process per folder, ``--timeout`` a puzzle): how many puzzles each grade holds per set, with
  the range of their search nodes.
* ``--sizes``, ``--seeds``: for each size, difficulty and seed, ``fillsmt generate --size NxN
  --seed SEED --difficulty D`` then ``fillsmt rate --format json -`` on its puzzle: the grade
  ``rate`` gives it, its nodes and the generation's wall time; and whether the difficulties of
  one size and seed gave different puzzles.

    python benchmarks/grades.py --sets ../shared/instances/fillomino/janko-thesis100/puzzles \\
        ../shared/instances/fillomino/janko-dev100/puzzles --sizes 10,15 --seeds 1-3

A generated puzzle rated other than asked is reported in the table (not an error); a command
that fails stops the script.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from generate import seeds_of


def labels_of(fillsmt: str) -> list[str]:
    """The grades, easiest first, as ``fillsmt generate --help`` lists the choices of ``--difficulty``."""
    done = subprocess.run([fillsmt, "generate", "--help"], capture_output=True, text=True, check=True)
    found = re.search(r"--difficulty \[([\w|]+)\]", done.stdout)
    if found is None:
        raise SystemExit("fillsmt generate --help names no --difficulty choices")
    return found.group(1).split("|")


def rate_lines(fillsmt: str, args: list[str], text: str | None = None) -> list[dict]:
    done = subprocess.run([fillsmt, "rate", "--format", "json", *args], input=text, capture_output=True, text=True)
    if done.returncode not in (0, 3):
        raise SystemExit(f"fillsmt rate {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def set_table(fillsmt: str, folders: list[str], timeout: float) -> str:
    labels = labels_of(fillsmt) + ["not rated"]
    lines = ["| set | puzzles | " + " | ".join(labels) + " |", "|---|---:|" + "---:|" * len(labels)]
    for folder in folders:
        rows = rate_lines(fillsmt, ["--timeout", str(timeout), folder])
        name = Path(folder).resolve().parent.name if Path(folder).name == "puzzles" else Path(folder).name
        cells = []
        for label in labels:
            mine = [r for r in rows if (r.get("label") or "not rated") == label]
            if not mine:
                cells.append("0")
                continue
            nodes = sorted(r.get("nodes", 0) for r in mine)
            low, high = nodes[0], nodes[-1]
            high_text = f"≥{high}" if any(r["status"] == "stopped" for r in mine) else str(high)
            span = f"{low}" if low == high and "≥" not in high_text else f"{low}–{high_text}"
            cells.append(f"{len(mine)} ({100 * len(mine) / len(rows):.0f} %; {span})")
        lines.append(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def difficulty_table(fillsmt: str, sizes: list[int], seeds: list[int], extra: list[str]) -> str:
    lines = [
        "| size | difficulty | seed | rated by `fillsmt rate` | nodes | clues | generate wall (s) |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    clashes = []
    for size in sizes:
        for seed in seeds:
            made: dict[str, str] = {}
            for label in labels_of(fillsmt):
                args = [fillsmt, "generate", "--size", f"{size}x{size}", "--seed", str(seed), "--difficulty", label]
                start = time.monotonic()
                done = subprocess.run([*args, *extra], capture_output=True, text=True)
                wall = time.monotonic() - start
                if done.returncode != 0 or not done.stdout.strip():
                    raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
                (rated,) = rate_lines(fillsmt, ["-"], done.stdout)
                same = [other for other, text in made.items() if text == done.stdout]
                clashes += [f"{size}x{size} seed {seed}: {label} = {other}" for other in same]
                made[label] = done.stdout
                mark = "" if rated["label"] == label else " (asked " + label + ")"
                lines.append(
                    f"| {size}×{size} | {label} | {seed} | {rated['label']}{mark} | {rated['nodes']} "
                    f"| {rated['clues']} | {wall:.1f} |"
                )
                print(f"{size}x{size} {label} seed {seed}: {rated['label']}, {wall:.1f} s", file=sys.stderr, flush=True)
    lines.append("")
    lines.append(
        "Same puzzle for two difficulties: " + ("; ".join(clashes) if clashes else "none (every one differs).")
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    own, extra = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", default=[], help="folders of puzzles to grade")
    parser.add_argument("--timeout", type=float, default=30.0, help="rate's --timeout a puzzle (default 30)")
    parser.add_argument("--sizes", default="", help="square sizes for the difficulty check, comma-separated")
    parser.add_argument("--seeds", default="1-3", help="seeds: 1-3, 1,4,9 or both (default 1-3)")
    parser.add_argument("--fillsmt", default="fillsmt", help="the program (default: fillsmt on the PATH)")
    opts = parser.parse_args(own)
    print(f"load average before: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    if opts.sets:
        print(set_table(opts.fillsmt, opts.sets, opts.timeout))
    if opts.sizes:
        sizes = [int(s) for s in opts.sizes.split(",")]
        print(difficulty_table(opts.fillsmt, sizes, seeds_of(opts.seeds), extra))
    print(f"load average after: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
