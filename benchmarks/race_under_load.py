"""The default race on a busy machine: each puzzle's race against its best entrant alone.

    python benchmarks/race_under_load.py [SET ...] [--rounds 3] [--busy 1] [--jobs 2]
        [--timeout 60] [--unique] [--entrants] [--fillsmt PATH] [--work DIR]

SET is a puzzle folder (default: the shared hard tail, ``../shared/instances/fillomino/hard-tail``).
While ``--busy`` busy-loop processes run beside it, each round runs one ``fillsmt bench`` with
``--jobs`` jobs over the sets: the default race (``yices/default/staged``, what ``fillsmt solve``
does) and, with ``--entrants``, each entrant of the race alone: the rules' search
(``rules/none/on``), the default encoding (``yices/default/on``) and the lazy region cuts
(``yices/lazy-local-general/on``); with ``--unique`` each of them also proves its solution unique
(the ``/unique`` configurations, beside the plain ones). Rounds go on one after the other, so
the race and its entrants meet the same load in each; the CSV of each round is kept in
``--work``.

The table gives, per puzzle and mode, the median over the rounds of the race's whole time, and
with ``--entrants`` the median of the best entrant's time alone (in each round the fastest
entrant that settled the question), their ratio and whether the race is within 1.5 × the best
entrant + 0.2 s. A last line per mode: how many races settled the puzzle, their median and the
slowest.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "instances" / "fillomino"
RACE = "yices/default/staged"
ENTRANTS = ("rules/none/on", "yices/default/on", "yices/lazy-local-general/on")
BUSY = [sys.executable, "-c", "while True: pass"]


def configs(unique: bool, entrants: bool) -> list[str]:
    plain = [RACE, *(ENTRANTS if entrants else ())]
    return plain + [f"{c}/unique" for c in plain] if unique else plain


def run_round(fillsmt: str, sets: list[Path], args, csv_path: Path) -> None:
    command = [fillsmt, "bench", *map(str, sets), "--jobs", str(args.jobs), "--timeout", str(args.timeout)]
    for config in configs(args.unique, args.entrants):
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
            seconds = float(row["total_s"]) if settled(row) else float("inf")
            puzzle = Path(row["puzzle"]).stem
            found.setdefault((puzzle, "unique" if unique else "plain"), {}).setdefault(config, []).append(seconds)
    return found


def table(found: dict, entrants: bool) -> str:
    head = "| puzzle | mode | race (s) |" + (
        " best entrant alone (s) | which | ratio | within 1.5× + 0.2 s |" if entrants else ""
    )
    rule = "|---|---|---:|" + ("---:|---|---:|---|" if entrants else "")
    lines = [head, rule]
    by_mode: dict = {}
    for (puzzle, mode), runs in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        race = statistics.median(runs[RACE])
        by_mode.setdefault(mode, []).append(race)
        line = f"| {puzzle} | {mode} | {race:.2f} |"
        if entrants:
            rounds = len(runs[RACE])
            best_each = [min(runs[c][i] for c in ENTRANTS if c in runs) for i in range(rounds)]
            best = statistics.median(best_each)
            which = min((c for c in ENTRANTS if c in runs), key=lambda c: statistics.median(runs[c]))
            ok = race <= 1.5 * best + 0.2
            line += f" {best:.2f} | {which} | {race / best:.2f} | {'yes' if ok else 'no'} |"
        lines.append(line)
    for mode, races in by_mode.items():
        done = [t for t in races if t != float("inf")]
        lines.append(
            f"\n{mode}: {len(done)}/{len(races)} settled, median {statistics.median(races):.2f} s, "
            f"slowest {max(races):.2f} s"
        )
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
    parser.add_argument("--fillsmt", default="fillsmt", help="the fillsmt command to run")
    parser.add_argument("--work", type=Path, default=Path("race-under-load"))
    args = parser.parse_args()
    sets = args.sets or [SHARED / "hard-tail" / "puzzles"]
    args.work.mkdir(parents=True, exist_ok=True)
    busy = [subprocess.Popen(BUSY) for _ in range(args.busy)]
    paths = []
    try:
        for n in range(1, args.rounds + 1):
            path = args.work / f"round-{n}.csv"
            run_round(args.fillsmt, sets, args, path)
            paths.append(path)
            print(f"round {n} done", file=sys.stderr)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    print(table(times(paths), args.entrants))


if __name__ == "__main__":
    main()
