"""``fillsmt repair --solution`` on janko-thesis100 puzzles with clues taken out: the published
solution kept, clues added, proven fewest, seconds.

Each puzzle of the set loses 2, 3 or 4 of its clues (how many and which chosen by
``random.Random`` seeded with the puzzle's name, ``tests/gridgen.without_clues`` as the tests do),
is written to a temporary file and repaired by the real command line, one run at a time:
``fillsmt repair --solution PUBLISHED --format json --timeout T``. A row says whether the repaired
puzzle's solution (solved again by ``fillsmt solve --unique``, so the repair is not taken on its
word) is the published one, how many clues were added against how many were removed, the proven
lower bound, whether "fewest" was proven, and wall and CPU seconds (fillsmt and its solvers). The
last lines count the puzzles that kept their solution, added no more clues than were removed, and
were proven fewest, with the median and slowest wall time.

    PATH=.venv/bin:$PATH python benchmarks/repair_janko.py [--timeout 60] [--limit N]

Needs ../shared (the janko set); the puzzles are made at run time, never stored.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gridgen import without_clues  # noqa: E402

import fillsmt  # noqa: E402
from fillsmt.kinds import kind_of  # noqa: E402

JANKO = ROOT.parent / "shared" / "instances" / "fillomino" / "janko-thesis100"


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def fillsmt_json(*args: str) -> tuple[dict | None, str]:
    done = subprocess.run([sys.executable, "-m", "fillsmt", *args], capture_output=True, text=True)
    if done.stdout.strip():
        return json.loads(done.stdout.splitlines()[0]), ""
    return None, (done.stderr.strip().splitlines() or ["no output"])[-1]


def repair_one(name: str, removed: int, tmp: Path, timeout: float) -> dict:
    puzzle = without_clues(fillsmt.load(str(JANKO / "puzzles" / f"{name}.txt")), removed, f"{name}-{removed}")
    path = tmp / f"janko-{name}-minus-{removed}.txt"
    path.write_text(kind_of(puzzle).format_puzzle(puzzle))
    published = JANKO / "solutions" / f"{name}.txt"
    cpu, start = children_cpu(), time.monotonic()
    obj, error = fillsmt_json(
        "repair", "--solution", str(published), "--format", "json", "--timeout", str(timeout), str(path)
    )
    row = {"name": name, "removed": removed, "wall": time.monotonic() - start, "cpu": children_cpu() - cpu}
    if obj is None:
        return {**row, "error": error}
    repaired = path  # still unique without the clues taken out: nothing to add
    if obj["repaired"] is not None:
        repaired = path.with_suffix(".repaired.json")  # the puzzle's JSON form, as fillsmt reads it
        repaired.write_text(json.dumps(obj["repaired"]))
    solved, error = fillsmt_json("solve", "--unique", "--format", "json", str(repaired))
    kept = solved is not None and solved.get("unique") is True
    kept = kept and [list(r) for r in solved["grid"]] == [list(r) for r in fillsmt.load(str(published)).cells]
    return {
        **row,
        "added": len(obj["added_clues"]),
        "at_least": obj["fewest_at_least"] or 0,
        "proven": bool(obj["fewest_proven"]),
        "kept": kept,
        "error": error,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    args = parser.parse_args()
    if not JANKO.is_dir():
        sys.exit(f"{JANKO} is absent (the shared puzzle sets sit beside the checkout)")
    names = sorted(p.stem for p in (JANKO / "puzzles").glob("*.txt"))[: args.limit]
    print(f"`fillsmt repair --solution PUBLISHED --timeout {args.timeout:g}`, load average {os.getloadavg()[0]:.1f}\n")
    print("| puzzle | clues removed | clues added | needs at least | fewest proven | solution kept | wall s | CPU s |")
    print("|---|---:|---:|---:|---|---|---:|---:|")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            row = repair_one(name, random.Random(name).randint(2, 4), Path(tmp), args.timeout)
            rows.append(row)
            if "added" in row:
                yes = ("no", "yes")
                cells = (row["added"], row["at_least"], yes[row["proven"]], "yes" if row["kept"] else "NO")
            else:
                cells = ("-", "-", "-", row["error"])
            print(
                f"| {name} | {row['removed']} | {' | '.join(map(str, cells))} | {row['wall']:.1f} | {row['cpu']:.1f} |",
                flush=True,
            )
    done = [r for r in rows if "added" in r]
    walls = [r["wall"] for r in rows]
    print(
        f"\n{len(rows)} puzzles: {sum(r['kept'] for r in done)} kept the published solution, "
        f"{sum(r['added'] <= r['removed'] for r in done)} added no more clues than were removed, "
        f"{sum(r['proven'] for r in done)} proven fewest; wall median {statistics.median(walls):.1f} s, "
        f"slowest {max(walls):.1f} s; {len(rows) - len(done)} failed"
    )


if __name__ == "__main__":
    main()
