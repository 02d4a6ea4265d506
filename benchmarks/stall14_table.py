"""Issue 17, fourteenth session: the A/B bench runs of ``stall14_ab.sh`` side by side.

    .venv/bin/python benchmarks/stall14_table.py TAG [janko]

Reads benchmarks/results/stall14-TAG[-janko]-{main,branch}-ROUND.csv and prints, per puzzle
and configuration (plain, --unique), each side's total seconds per round (a run that did not
end solved is marked), then the sums; with ``janko``, per side and round the median, the
largest time, and how many proofs were slower on the branch than on main in the same round
(by more than 10 % and 0.02 s).
"""

from __future__ import annotations

import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def load(tag: str):
    """{(config, puzzle): {(side, round): (seconds, ok, answered_by, stalled)}}."""
    runs = defaultdict(dict)
    for path in sorted(RESULTS.glob(f"stall14-{tag}-*-*.csv")):
        head, side, rnd = path.stem.rsplit("-", 2)
        if head != f"stall14-{tag}":
            continue  # another tag's (the janko runs beside the others)
        with open(path) as f:
            for row in csv.DictReader(f):
                config = "unique" if row["key"].endswith("/unique") else "plain"
                ok = row["status"] in ("sat", "unsat") and row["checked"] == "true" and \
                    (config == "plain" or row["unique"] != "")
                stalled = "stalled" in row["message"]
                runs[(config, Path(row["puzzle"]).stem)][(side, int(rnd))] = \
                    (float(row["total_s"]), ok, row["answered_by"], stalled)
    return runs


def cell(run) -> str:
    if run is None:
        return "-"
    seconds, ok, who, stalled = run
    text = f"{seconds:.2f}" if ok else f"**{seconds:.1f} ✗**"
    return text + ("*" if stalled else "")


def table(tag: str) -> None:
    runs = load(tag)
    rounds = sorted({r for by in runs.values() for _, r in by})
    print("| puzzle | config | main (rounds " + ", ".join(map(str, rounds)) + ") | branch | who answered on the branch |")
    print("|---|---|---|---|---|")
    sums = defaultdict(float)
    for (config, puzzle), by in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        for side in ("main", "branch"):
            for r in rounds:
                if (side, r) in by:
                    sums[(config, side, r)] += by[(side, r)][0]
        worth = any(by.get((s, r), (0,))[0] >= 1.0 for s in ("main", "branch") for r in rounds)
        if not worth:
            continue
        main = " / ".join(cell(by.get(("main", r))) for r in rounds)
        branch = " / ".join(cell(by.get(("branch", r))) for r in rounds)
        who = ", ".join(sorted({by[("branch", r)][2] for r in rounds if ("branch", r) in by}))
        print(f"| {puzzle} | {config} | {main} | {branch} | {who} |")
    for config in ("plain", "unique"):
        main = " / ".join(f"{sums[(config, 'main', r)]:.1f}" for r in rounds)
        branch = " / ".join(f"{sums[(config, 'branch', r)]:.1f}" for r in rounds)
        print(f"| sum of all | {config} | {main} | {branch} | |")


def janko(tag: str) -> None:
    runs = load(f"{tag}-janko")
    rounds = sorted({r for by in runs.values() for _, r in by})
    for config in ("plain", "unique"):
        for r in rounds:
            line = [f"{config} round {r}:"]
            for side in ("main", "branch"):
                times = [by[(side, r)][0] for (c, _), by in runs.items() if c == config and (side, r) in by]
                bad = sum(1 for (c, _), by in runs.items() if c == config and (side, r) in by and not by[(side, r)][1])
                stalled = sum(1 for (c, _), by in runs.items() if c == config and (side, r) in by and by[(side, r)][3])
                line.append(f"{side} median {statistics.median(times):.3f} max {max(times):.2f} "
                            f"n {len(times)} unsolved {bad} stalled {stalled};")
            slower = [p for (c, p), by in runs.items() if c == config and ("main", r) in by and ("branch", r) in by
                      and by[("branch", r)][0] > 1.1 * by[("main", r)][0] + 0.02]
            faster = [p for (c, p), by in runs.items() if c == config and ("main", r) in by and ("branch", r) in by
                      and by[("main", r)][0] > 1.1 * by[("branch", r)][0] + 0.02]
            line.append(f"branch slower on {len(slower)} {sorted(slower)}, faster on {len(faster)}")
            print(" ".join(line))


if __name__ == "__main__":
    if sys.argv[2:] == ["janko"]:
        janko(sys.argv[1])
    else:
        table(sys.argv[1])
