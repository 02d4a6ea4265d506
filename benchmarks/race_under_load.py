"""The default race on a busy machine: each puzzle's race against its entrants alone, or against
another fillsmt.

    python benchmarks/race_under_load.py [SET ...] [--rounds 3] [--busy 1] [--jobs 2]
        [--timeout 60] [--unique] [--entrants] [--against FILLSMT] [--fillsmt PATH] [--work DIR]

SET is a puzzle folder (default: the shared hard tail, ``../shared/instances/fillomino/hard-tail``).
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
that settled the question), their ratio and whether the race is within 1.5 × the best entrant +
0.2 s; with ``--against`` the other program's race and the ratio. A last line per mode: how
many races settled the puzzle, their median and the slowest (and the other program's).
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


def run_round(fillsmt: str, sets: list[Path], args, entrants: bool, csv_path: Path) -> None:
    command = [fillsmt, "bench", *map(str, sets), "--jobs", str(args.jobs), "--timeout", str(args.timeout)]
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


def table(found: dict, entrants: bool, other: dict | None) -> str:
    head, rule = "| puzzle | mode | race (s) |", "|---|---|---:|"
    if entrants:
        head += " best entrant alone (s) | which | ratio | within 1.5× + 0.2 s |"
        rule += "---:|---|---:|---|"
    if other is not None:
        head += " other fillsmt's race (s) | ratio |"
        rule += "---:|---:|"
    lines = [head, rule]
    by_mode: dict = {}
    for (puzzle, mode), runs in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        race = statistics.median(runs[RACE])
        line = f"| {puzzle} | {mode} | {race:.2f} |"
        if entrants:
            rounds = len(runs[RACE])
            best = statistics.median([min(runs[c][i] for c in ENTRANTS if c in runs) for i in range(rounds)])
            which = min((c for c in ENTRANTS if c in runs), key=lambda c: statistics.median(runs[c]))
            ok = race <= 1.5 * best + 0.2
            line += f" {best:.2f} | {which} | {race / best:.2f} | {'yes' if ok else 'no'} |"
        theirs = None
        if other is not None:
            theirs = statistics.median(other[(puzzle, mode)][RACE])
            line += f" {theirs:.2f} | {race / theirs:.2f} |"
        by_mode.setdefault(mode, []).append((race, theirs))
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
    args = parser.parse_args()
    sets = args.sets or [Path(os.path.relpath(SHARED / "hard-tail" / "puzzles"))]  # rows name it as a user would
    args.work.mkdir(parents=True, exist_ok=True)
    ours, theirs = [], []
    with busy_loops(args.busy):
        for n in range(1, args.rounds + 1):
            ours.append(args.work / f"round-{n}.csv")
            run_round(args.fillsmt, sets, args, args.entrants, ours[-1])
            if args.against:
                theirs.append(args.work / f"round-{n}-other.csv")
                run_round(args.against, sets, args, False, theirs[-1])
            print(f"round {n} done", file=sys.stderr)
    print(table(times(ours), args.entrants, times(theirs) if args.against else None))


if __name__ == "__main__":
    main()
