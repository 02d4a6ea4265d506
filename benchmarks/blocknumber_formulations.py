"""BlockNumber formulations: every encoding with the z3 and yices binaries on the Suguru set.

Runs every (puzzle, encoding, solver) triple, at most --jobs solver processes at a time:
encode, run the binary through its fillsmt driver, decode, check with the independent referee
and compare with the published solution. Solver time is the solver process' wall time
(``RunResult.seconds``, else the time around ``driver.run``); each script also ends with
``(get-info :all-statistics)``, from which the solver's own time is read (yices
``:total-run-time``, z3 ``:time``). A second pass asks yices (one-hot) whether each puzzle's
published solution is its only one. Writes one CSV row per run and a Markdown table (median
and max solver time per size class and per formulation), and prints the table.

    python benchmarks/blocknumber_formulations.py --jobs 2 --timeout 60 \
        --csv benchmarks/results/blocknumber-formulations.csv \
        --md benchmarks/results/blocknumber-formulations.md \
        ../shared/instances/blocknumber/suguru-sat-testcases
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fillsmt.blocknumber.decode import decode_grid
from fillsmt.blocknumber.encodings import ENCODINGS
from fillsmt.blocknumber.model import Grid, Puzzle
from fillsmt.blocknumber.plain_format import read_grid, read_puzzle
from fillsmt.blocknumber.verify import check_solution
from fillsmt.drivers import get_driver
from fillsmt.fillomino.decode import AnswerError
from fillsmt.smtlib import Command, Script
from fillsmt.smtlib.answer import Status

SOLVERS = ["yices", "z3"]
OWN_TIME = re.compile(r":(?:total-run-time|time)\s+([0-9.]+)")
FIELDS = ["size", "puzzle", "solver", "encoding", "status", "checked", "matches_published", "solver_s",
          "solver_own_s", "encode_s", "asserts", "script_kb"]


def size_class(puzzle: Puzzle) -> str:
    return f"{puzzle.height}x{puzzle.width}"


def run_one(puzzle: Puzzle, published: Grid, solver: str, encoding: str, timeout: float) -> dict:
    t0 = time.perf_counter()
    script = ENCODINGS[encoding].encode(puzzle)
    text = script.text() + "(get-info :all-statistics)\n"
    t1 = time.perf_counter()
    result = get_driver(solver).run(text, timeout)
    wall = result.seconds or (time.perf_counter() - t1)
    checked = matches = False
    if result.status is Status.SAT:
        try:
            grid = decode_grid(puzzle, result.values, encoding, f"{solver}'s answer")
            checked = check_solution(puzzle.givens, puzzle.blocks, grid) == []
            matches = grid == published
        except AnswerError as e:
            print(f"{puzzle.source} {solver}/{encoding}: {e}", file=sys.stderr)
    own = OWN_TIME.search(result.output)
    return {"size": size_class(puzzle), "puzzle": Path(puzzle.source).stem, "solver": solver, "encoding": encoding,
            "status": result.status.value, "checked": checked, "matches_published": matches,
            "solver_s": round(wall, 4), "solver_own_s": float(own.group(1)) if own else "",
            "encode_s": round(t1 - t0, 4), "asserts": script.count("assert"), "script_kb": round(len(text) / 1024, 1)}


def is_unique(puzzle: Puzzle, published: Grid, timeout: float) -> str:
    """'yes' when yices proves no grid but the published one solves the puzzle, 'no', or the status."""
    enc = ENCODINGS["onehot"]
    commands = list(enc.encode(puzzle).commands)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    differs = ("or", *(("not", enc.cell_is(puzzle, r, c, published[r][c])) for r, c in cells))
    at = next(i for i, cmd in enumerate(commands) if cmd.name == "check-sat")
    commands.insert(at, Command("assert", (differs,)))
    status = get_driver("yices").run(Script.of(commands).text(), timeout).status
    return {Status.UNSAT: "yes", Status.SAT: "no"}.get(status, status.value)


def _order(size: str) -> tuple[int, int]:
    h, w = size.split("x")
    return int(h), int(w)


def table(rows: list[dict], unique: dict[str, str], counts: dict[str, int]) -> str:
    configs = [(e, s) for e in ENCODINGS for s in SOLVERS]
    out = ["### Median / max solver time (s) per size class", "",
           "| size | puzzles | " + " | ".join(f"{e} {s}" for e, s in configs) + " |",
           "|---|---|" + "---|" * len(configs)]
    for size in sorted({r["size"] for r in rows}, key=_order):
        cells = []
        for e, s in configs:
            ts = [r["solver_s"] for r in rows if r["size"] == size and r["encoding"] == e and r["solver"] == s]
            cells.append(f"{statistics.median(ts):.3f} / {max(ts):.3f}")
        out.append(f"| {size} | {counts[size]} | " + " | ".join(cells) + " |")
    out += ["", "### Per formulation, all puzzles", "",
            "| encoding | solver | solved & checked | = published | median (s) | mean (s) | max (s) | "
            "median own time (s) | median asserts | median script (KiB) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for e, s in sorted(configs, key=lambda c: statistics.median(
            r["solver_s"] for r in rows if (r["encoding"], r["solver"]) == c)):
        rs = [r for r in rows if r["encoding"] == e and r["solver"] == s]
        ts = [r["solver_s"] for r in rs]
        own = [r["solver_own_s"] for r in rs if r["solver_own_s"] != ""]
        out.append(f"| {e} | {s} | {sum(r['checked'] for r in rs)}/{len(rs)} | "
                   f"{sum(r['matches_published'] for r in rs)}/{len(rs)} | {statistics.median(ts):.3f} | "
                   f"{statistics.mean(ts):.3f} | {max(ts):.3f} | "
                   f"{statistics.median(own) if own else float('nan'):.3f} | "
                   f"{statistics.median(r['asserts'] for r in rs):.0f} | "
                   f"{statistics.median(r['script_kb'] for r in rs):.1f} |")
    verdicts = sorted(set(unique.values()))
    out += ["", "Published solution unique (yices, one-hot, blocking clause): "
            + ", ".join(f"{v}: {sum(1 for u in unique.values() if u == v)}" for v in verdicts) + "."]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("testcases", help="the suguru-sat-testcases folder (puzzles/ and solutions/)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--md", required=True)
    args = ap.parse_args()
    base = Path(args.testcases)
    puzzles = [read_puzzle(str(p)) for p in sorted((base / "puzzles").glob("*.txt"))]
    published = {p.source: read_grid(str(base / "solutions" / Path(p.source).name), p.height, p.width)
                 for p in puzzles}
    jobs = [(p, s, e) for p in puzzles for e in ENCODINGS for s in SOLVERS]
    Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(args.csv, "w", newline="") as f, ThreadPoolExecutor(args.jobs) as pool:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        results = pool.map(lambda j: run_one(j[0], published[j[0].source], j[1], j[2], args.timeout), jobs)
        for i, row in enumerate(results, 1):
            writer.writerow(row)
            f.flush()
            rows.append(row)
            print(f"[{i}/{len(jobs)}] {row['puzzle']} {row['solver']} {row['encoding']} {row['status']} "
                  f"{row['solver_s']:.3f}s", file=sys.stderr)
        unique = dict(zip((p.source for p in puzzles),
                          pool.map(lambda p: is_unique(p, published[p.source], args.timeout), puzzles)))
    counts = {}
    for p in puzzles:
        counts[size_class(p)] = counts.get(size_class(p), 0) + 1
    versions = ", ".join(f"{s}: {get_driver(s).version()}" for s in SOLVERS)
    command = ("python benchmarks/blocknumber_formulations.py --jobs {0} --timeout {1:g} --csv {2} --md {3} {4}"
               .format(args.jobs, args.timeout, args.csv, args.md, args.testcases))
    text = (f"# BlockNumber formulations\n\n`{command}`\n\n{len(puzzles)} puzzles × {len(ENCODINGS)} encodings × "
            f"{len(SOLVERS)} solvers, at most {args.jobs} solver processes at a time; {versions}. "
            f"Solver time = wall time of the solver process (start to exit, including parsing the "
            f"script); own time = the solver's `(get-info :all-statistics)` time.\n\n"
            + table(rows, unique, counts) + "\n")
    Path(args.md).write_text(text)
    print(text)
    bad = [r for r in rows if not r["checked"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
