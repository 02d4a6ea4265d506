"""The default race on a busy machine: each puzzle's race against its entrants alone, or against
another fillsmt.

    python benchmarks/race_under_load.py [SET ...] [--rounds 3] [--busy 1] [--jobs 2]
        [--timeout 60] [--unique] [--entrants] [--against FILLSMT] [--fillsmt PATH] [--work DIR]

SET is a puzzle folder, or a set's folder whose ``puzzles/`` it then runs (default: the shared
hard tail, ``../shared/instances/fillomino/hard-tail/puzzles``).
While ``--busy`` busy-loop processes run beside it, each round runs one ``fillsmt bench`` with
``--jobs`` jobs over the sets: the default race (``yices/default/staged``, what ``fillsmt solve``
does) and, with ``--entrants``, each entrant of the race alone: the rules' search
(``rules/none/on``), the default encoding (``yices/default/on``) and the lazy region cuts
(``yices/lazy-local-general/on``); with ``--unique`` each of them also proves its solution unique
(the ``/unique`` configurations, beside the plain ones). With ``--against`` each round then runs
the same bench with that other fillsmt program (another installation), so the two meet the same
load by turns. Rounds go on one after the other; the CSV of each bench is kept in ``--work``.

The table gives, per puzzle and mode, the median over the rounds of the race's whole time; with
``--entrants`` the median of the best entrant's time alone (in each round the fastest entrant
that settled the question), k (how many racers the default plan names for the presolved puzzle,
computed with fillsmt's own plan, as ``solve`` does), their ratio and whether the race is within
the schedule's bound, k × the best entrant + 0.3 s (``docs/solving.md``); with ``--against`` the
other program's race and the ratio. A last line per mode: how many races settled the puzzle,
their median and the slowest (and the other program's), and with ``--entrants`` how many are
within the bound and under 5 s. ``--only-misses`` prints only the rows outside the bound or over 5 s.
The one-shot solver runs (an entrant alone without ``--unique``) are measured by ``getrusage``
(``bench --measure rlimit``), as the race's own runs are: BenchExec's cgroup reads would add
about 0.13 s to each of them and nothing to the race.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
from pathlib import Path

from busy import busy_loops

SHARED = Path(__file__).resolve().parents[2] / "shared" / "instances" / "fillomino"
RACE = "yices/default/staged"
ENTRANTS = ("rules/none/on", "yices/default/on", "yices/lazy-local-general/on")
INF = float("inf")


def configs(unique: bool, entrants: bool) -> list[str]:
    plain = [RACE, *(ENTRANTS if entrants else ())]
    return plain + [f"{c}/unique" for c in plain] if unique else plain


def run_round(fillsmt: str, sets: list[Path], args, entrants: bool, csv_path: Path, measure: bool = True) -> None:
    command = [fillsmt, "bench", *map(str, sets), "--jobs", str(args.jobs), "--timeout", str(args.timeout)]
    if measure:  # the one-shot runs as the race's own runs are: no cgroup reads (BenchExec's)
        command += ["--measure", "rlimit"]
    for config in configs(args.unique, entrants):
        command += ["-c", config]
    command += ["--csv", str(csv_path), "--overwrite", "--no-progress"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def settled(row: dict) -> bool:
    if row["status"] not in ("sat", "unsat"):
        return False
    return not row["key"].endswith("/unique") or row["status"] == "unsat" or row["unique"] in ("true", "false")


def times(paths: list[Path]) -> dict:
    """(puzzle, mode) → config → list of seconds over the rounds (inf: not settled)."""
    found: dict = {}
    for path in paths:
        for row in csv.DictReader(path.open()):
            unique = row["key"].endswith("/unique")
            config = row["key"].split("|")[-1].removesuffix("/unique")
            seconds = float(row["total_s"]) if settled(row) else INF
            puzzle = Path(row["puzzle"]).stem
            found.setdefault((puzzle, "unique" if unique else "plain"), {}).setdefault(config, []).append(seconds)
    return found


def racers(paths: dict[str, Path]) -> dict:
    """(puzzle, mode) → how many racers the default plan names for the presolved puzzle (1 where
    the presolve settles it or nothing races)."""
    from fillsmt.formats.source import load
    from fillsmt.kinds import kind_of
    from fillsmt.protocol import Presolves, Searches

    found = {}
    for puzzle, path in paths.items():
        loaded = load(str(path))
        kind = kind_of(loaded)
        presolved = kind.presolve(loaded) if isinstance(kind, Presolves) else None
        for mode, proof in (("plain", False), ("unique", True)):
            if presolved is None or presolved.puzzle is None or not isinstance(kind, Searches):
                found[(puzzle, mode)] = 1
            else:
                found[(puzzle, mode)] = len(kind.plan(presolved.puzzle, proof).racers)
    return found


BOUND_EXTRA = 0.3
"""Seconds the schedule's bound allows on top of k × the best entrant (``docs/solving.md``)."""
UNDER = 5.0


def table(found: dict, entrants: bool, other: dict | None, k: dict | None = None, only_misses: bool = False) -> str:
    head, rule = "| puzzle | mode | race (s) |", "|---|---|---:|"
    if entrants:
        head += " best entrant alone (s) | which | k | ratio | within k × best + 0.3 s |"
        rule += "---:|---|---:|---:|---|"
    if other is not None:
        head += " other fillsmt's race (s) | ratio |"
        rule += "---:|---:|"
    lines = [head, rule]
    by_mode: dict = {}
    kept = {}
    for (puzzle, mode), runs in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        race = statistics.median(runs[RACE])
        line = f"| {puzzle} | {mode} | {race:.2f} |"
        ok = True
        if entrants:
            rounds = len(runs[RACE])
            best = statistics.median([min(runs[c][i] for c in ENTRANTS if c in runs) for i in range(rounds)])
            which = min((c for c in ENTRANTS if c in runs), key=lambda c: statistics.median(runs[c]))
            n = (k or {}).get((puzzle, mode), 2)
            ok = race <= n * best + BOUND_EXTRA
            kept.setdefault(mode, []).append((ok, race < UNDER))
            line += f" {best:.2f} | {which} | {n} | {race / best:.2f} | {'yes' if ok else 'no'} |"
        theirs = None
        if other is not None:
            theirs = statistics.median(other[(puzzle, mode)][RACE])
            line += f" {theirs:.2f} | {race / theirs:.2f} |"
        by_mode.setdefault(mode, []).append((race, theirs))
        if not only_misses or not ok or race >= UNDER:
            lines.append(line)
    for mode, pairs in by_mode.items():
        races = [r for r, _ in pairs]
        line = (
            f"\n{mode}: {sum(r != INF for r in races)}/{len(races)} settled, "
            f"median {statistics.median(races):.3f} s, slowest {max(races):.2f} s"
        )
        if other is not None:
            theirs = [t for _, t in pairs]
            line += (
                f"; other fillsmt: {sum(t != INF for t in theirs)}/{len(theirs)}, "
                f"median {statistics.median(theirs):.3f} s, slowest {max(theirs):.2f} s"
            )
        if mode in kept:
            marks = kept[mode]
            line += (
                f"; within k × best + {BOUND_EXTRA:g} s: {sum(a for a, _ in marks)}/{len(marks)}, "
                f"under {UNDER:g} s: {sum(b for _, b in marks)}/{len(marks)}"
            )
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", type=Path, help="puzzle folders (default: the shared hard tail)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", type=int, default=1, help="busy-loop processes beside the runs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--unique", action="store_true", help="also the /unique configurations")
    parser.add_argument("--entrants", action="store_true", help="also each entrant alone")
    parser.add_argument("--against", help="another fillsmt program whose race runs by turns")
    parser.add_argument("--fillsmt", default="fillsmt", help="the fillsmt command to run")
    parser.add_argument("--work", type=Path, default=Path("race-under-load"))
    parser.add_argument("--only-misses", action="store_true", help="print only the rows outside the bound or over 5 s")
    parser.add_argument("--table-only", action="store_true", help="no runs: the table of the CSVs in --work")
    args = parser.parse_args()
    sets = args.sets or [Path(os.path.relpath(SHARED / "hard-tail" / "puzzles"))]  # rows name it as a user would
    # a shared set's folder holds puzzles/ and solutions/ with the same names: run the puzzles only
    sets = [s / "puzzles" if (s / "puzzles").is_dir() else s for s in sets]
    args.work.mkdir(parents=True, exist_ok=True)
    ours = [args.work / f"round-{n}.csv" for n in range(1, args.rounds + 1)]
    theirs = [args.work / f"round-{n}-other.csv" for n in range(1, args.rounds + 1)] if args.against else []
    if not args.table_only:
        with busy_loops(args.busy):
            for n in range(args.rounds):
                run_round(args.fillsmt, sets, args, args.entrants, ours[n])
                if args.against:
                    run_round(args.against, sets, args, False, theirs[n], measure=False)
                print(f"round {n + 1} done", file=sys.stderr)
    paths = {p.stem: p for s in sets for p in sorted(s.rglob("*.txt")) if p.parent.name != "solutions"}
    k = racers(paths) if args.entrants else None
    print(table(times(ours), args.entrants, times(theirs) if args.against else None, k, args.only_misses))


if __name__ == "__main__":
    main()
