"""Ratings against the thesis: backtracking depth on the Puzzle Baron set, labels on Janko.

Rates the 60 puzzles of baron-thesis60 (every region clued) with fillsmt's rules plus
backtracking (fillsmt.fillomino.rating) in three configurations, and compares the maximum
backtracking depth with the thesis' own (``thesis_max_backtrack_depth`` in thesis-times.csv)
by Spearman and Kendall (tau-b) rank correlation and by a table grouped by the thesis' depth.
Then rates the 100 Janko puzzles of janko-thesis100 (regions without clues) with the default
configuration: labels, depths, time per puzzle, agreement with the published solutions, and
the rank correlation of guesses with the thesis' Z3 times. Every puzzle gets its own deadline,
so nothing can hang; a search stopped there reports lower bounds.

    python benchmarks/rating_baron.py --deadline 30 \\
        --baron ../shared/instances/fillomino/baron-thesis60 \\
        --janko ../shared/instances/fillomino/janko-thesis100 \\
        --out benchmarks/results

Writes rating-baron.csv, rating-janko.csv and rating.md into --out.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.plain_format import parse_grid, read_puzzle
from fillsmt.fillomino.rating import LABELS, RULE_SETS, THESIS_RULES, Rating, rate

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "instances" / "fillomino"

CONFIGS = {
    "all rules, group-exit": (ALL_RULES, "group-exit", "rules"),
    "thesis rules, row-major": (THESIS_RULES, "row-major", "rules"),
    "thesis rules, group-exit": (THESIS_RULES, "group-exit", "rules"),
    "no-join rules, group-exit": (RULE_SETS["no-join"], "group-exit", "rules"),
    "thesis' solver rebuilt": (ALL_RULES, "group-exit", "thesis"),
}
"""Baron configurations (rules, guessing order, method): fillsmt's default, the thesis' rules
with its guessing order and with fillsmt's, every rule but join-overflow (``fillsmt rate --rules
no-join``), and the thesis' own solver rebuilt (``fillsmt rate --method thesis``; it has its own
rules and order)."""


# --- rank correlation (no scipy needed) ---------------------------------------------------------

def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float | None:
    """Pearson correlation of the ranks; None when either side is constant."""
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return None if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


def kendall_tau_b(x: list[float], y: list[float]) -> float | None:
    """Kendall's tau-b (ties in either variable accounted for); None when either is constant."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return None if denominator == 0 else (concordant - discordant) / denominator


def show(value: float | None) -> str:
    return "n/a (one side constant)" if value is None else f"{value:.3f}"


# --- running --------------------------------------------------------------------------------------

def rate_file(path: Path, deadline_s: float, rules, cell_order, method: str = "rules") -> Rating:
    return rate(read_puzzle(str(path)), deadline=time.monotonic() + deadline_s, rules=rules,
                cell_order=cell_order, method=method)


def row_of(rating: Rating, puzzle: str, config: str) -> dict:
    return {"puzzle": puzzle, "height": rating.height, "width": rating.width,
            "config": config, "status": rating.status, "label": rating.label or "",
            "max_depth": rating.max_depth, "solution_depth": rating.solution_depth,
            "guesses": rating.guesses, "nodes": rating.nodes, "clues": rating.clues,
            "rules_fixed": rating.rules_fixed, "rules_solve": rating.rules_solve,
            "seconds": rating.seconds}


def run_baron(folder: Path, deadline_s: float) -> list[dict]:
    thesis = {r["puzzle"]: r for r in csv.DictReader((folder / "thesis-times.csv").open())}
    rows = []
    for path in sorted((folder / "puzzles").glob("*.txt")):
        for config, (rules, order, method) in CONFIGS.items():
            rating = rate_file(path, deadline_s, rules, order, method)
            row = row_of(rating, path.stem, config)
            row["thesis_depth"] = int(thesis[path.stem]["thesis_max_backtrack_depth"])
            row["thesis_rules_backtracking_s"] = float(thesis[path.stem]["thesis_rules_backtracking_seconds"])
            rows.append(row)
            print(f"baron {path.stem} [{config}]: {rating.status} {rating.label} depth "
                  f"{rating.max_depth} guesses {rating.guesses} ({rating.seconds:.2f} s)",
                  file=sys.stderr, flush=True)
    return rows


def run_janko(folder: Path, deadline_s: float) -> list[dict]:
    z3 = {r["puzzle"]: r for r in csv.DictReader((folder / "thesis-z3-times.csv").open())}
    rows = []
    for path in sorted((folder / "puzzles").glob("*.txt")):
        rating = rate_file(path, deadline_s, ALL_RULES, "group-exit")
        row = row_of(rating, path.stem, "all rules, group-exit")
        _, _, published = parse_grid((folder / "solutions" / path.name).read_text())
        row["matches_published"] = "" if rating.solution is None else rating.solution == published
        row["empty_cells"] = int(z3[path.stem]["empty_cells"])
        row["thesis_z3_s"] = z3[path.stem]["thesis_z3_seconds"]  # ">300": the thesis' time-out
        rows.append(row)
        print(f"janko {path.stem}: {rating.status} {rating.label} depth {rating.max_depth} "
              f"guesses {rating.guesses} ({rating.seconds:.2f} s)", file=sys.stderr, flush=True)
    return rows


def write_csv(rows: list[dict], path: Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


# --- the report ---------------------------------------------------------------------------------

def baron_tables(rows: list[dict]) -> list[str]:
    out = ["| configuration | solved | stopped | rules alone solve | Spearman (depth) | "
           "Kendall tau-b (depth) | Spearman (guesses) |", "|---|---|---|---|---|---|---|"]
    for config in CONFIGS:
        rs = [r for r in rows if r["config"] == config]
        thesis = [r["thesis_depth"] for r in rs]
        depth = [r["max_depth"] for r in rs]
        guesses = [r["guesses"] for r in rs]
        out.append(f"| {config} | {sum(r['status'] == 'solved' for r in rs)}/{len(rs)} | "
                   f"{sum(r['status'] == 'stopped' for r in rs)} | "
                   f"{sum(bool(r['rules_solve']) for r in rs)} | {show(spearman(thesis, depth))} | "
                   f"{show(kendall_tau_b(thesis, depth))} | {show(spearman(thesis, guesses))} |")
    out += ["", "Grouped by the thesis' depth (medians over the puzzles of each group):", "",
            "| thesis depth | puzzles | " + " | ".join(f"{c}: depth / guesses" for c in CONFIGS) + " |",
            "|---|---|" + "---|" * len(CONFIGS)]
    for depth in sorted({r["thesis_depth"] for r in rows}):
        cells = []
        for config in CONFIGS:
            rs = [r for r in rows if r["config"] == config and r["thesis_depth"] == depth]
            cells.append(f"{statistics.median(r['max_depth'] for r in rs):g} / "
                         f"{statistics.median(r['guesses'] for r in rs):g}")
        count = sum(1 for r in rows if r["config"] == next(iter(CONFIGS)) and r["thesis_depth"] == depth)
        out.append(f"| {depth} | {count} | " + " | ".join(cells) + " |")
    deep = [r for r in rows if r["thesis_depth"] > 0 or r["max_depth"] > 0]
    if deep:
        out += ["", "Every puzzle where the thesis or fillsmt needed a guess:", "",
                "| puzzle | thesis depth | thesis rules+backtracking (s) | "
                + " | ".join(f"{c}: depth / guesses / s" for c in CONFIGS) + " |",
                "|---|---|---|" + "---|" * len(CONFIGS)]
        for name in sorted({r["puzzle"] for r in deep}):
            rs = {r["config"]: r for r in rows if r["puzzle"] == name}
            first = next(iter(rs.values()))
            cells = [f"{rs[c]['max_depth']}{'+' if rs[c]['status'] == 'stopped' else ''} / "
                     f"{rs[c]['guesses']} / {rs[c]['seconds']:.2f}" for c in CONFIGS]
            out.append(f"| {name} | {first['thesis_depth']} | {first['thesis_rules_backtracking_s']:g} | "
                       + " | ".join(cells) + " |")
    return out


def z3_seconds(row: dict) -> float:
    """The thesis' Z3 time; a time-out (">300") ranks above every finished time."""
    text = row["thesis_z3_s"]
    return math.inf if text.startswith(">") else float(text)


def janko_tables(rows: list[dict]) -> list[str]:
    labels = Counter(r["label"] or f"({r['status']})" for r in rows)
    secs = [r["seconds"] for r in rows]
    solved = [r for r in rows if r["status"] == "solved"]
    out = ["| label | puzzles |", "|---|---|"]
    out += [f"| {label} | {labels[label]} |" for label in [*LABELS, "(stopped)", "(no-solution)"]
            if labels[label]]
    out += ["", "| max depth | puzzles |", "|---|---|"]
    depth_bins = Counter(min(r["max_depth"], 20) for r in rows)
    out += [f"| {d if d < 20 else '20+'} | {depth_bins[d]} |" for d in sorted(depth_bins)]
    out += ["", "| measure | value |", "|---|---|",
            f"| solved | {len(solved)}/{len(rows)} |",
            f"| stopped at the deadline | {sum(r['status'] == 'stopped' for r in rows)} |",
            f"| solution equals the published one | {sum(r['matches_published'] is True for r in rows)}"
            f"/{len(solved)} |",
            f"| rules alone solve | {sum(bool(r['rules_solve']) for r in rows)} |",
            f"| seconds per puzzle: median / mean / max | {statistics.median(secs):.3f} / "
            f"{statistics.fmean(secs):.3f} / {max(secs):.2f} |",
            f"| median depth / guesses (solved) | {statistics.median(r['max_depth'] for r in solved):g} / "
            f"{statistics.median(r['guesses'] for r in solved):g} |",
            f"| Spearman: guesses vs thesis Z3 seconds | "
            f"{show(spearman([r['guesses'] for r in rows], [z3_seconds(r) for r in rows]))} |",
            f"| Spearman: max depth vs thesis Z3 seconds | "
            f"{show(spearman([r['max_depth'] for r in rows], [z3_seconds(r) for r in rows]))} |",
            f"| Spearman: empty cells vs thesis Z3 seconds | "
            f"{show(spearman([r['empty_cells'] for r in rows], [z3_seconds(r) for r in rows]))} |"]
    return out


def report(baron: list[dict], janko: list[dict], command: str, deadline_s: float) -> str:
    lines = ["# Ratings: backtracking depth against the thesis", "",
             "One run on the project's machine (2 cores, shared). Made by:", "", "```sh",
             command, "```", "",
             f"Every puzzle is rated by fillsmt's rules plus backtracking "
             f"(`fillsmt.fillomino.rating.rate`), with a deadline of {deadline_s:g} s per puzzle "
             "and configuration; a search stopped there reports lower bounds (`+`). The depth is "
             "the thesis' measure (6.2): the longest run of successive guesses before the first "
             "solution; a guess \"x is v\" is one level deeper, its complement \"x is not v\" is "
             "not a guess. \"thesis rules\" are complete-group, single-exit, area and "
             "forced-cell (5.2-5.4 in their general-variant form); \"all rules\" adds "
             "join-overflow, neighbour-support, neighbour-fit and size-cap; \"no-join rules\" are all "
             "but join-overflow (the four the thesis needed guesses for are exactly among the 11 "
             "puzzles these rules leave open: without join-overflow no rule set solves them). "
             "Each is `fillsmt rate --rules all|thesis|no-join --cell-order ...`. \"thesis' solver rebuilt\" "
             "is `fillsmt rate --method thesis` (`fillsmt/fillomino/thesis_solver.py`): the thesis' "
             "strategies on the grid of numbers as its text describes them (no domains; forced cells "
             "from every completion of a group; reachability in the basic variant), row-major "
             "guesses of each reachable number. `row-major` guesses in "
             "the first open cell row by row, as the thesis does; `group-exit` grows the "
             "incomplete group with the fewest exits.", "",
             "## baron-thesis60 (60 puzzles, every region clued)", ""]
    lines += baron_tables(baron)
    lines += ["", "## janko-thesis100 (100 puzzles 10×10, regions without clues)", "",
              "Configuration: all rules, group-exit.", ""]
    lines += janko_tables(janko)
    lines += ["", "Raw rows: [`rating-baron.csv`](rating-baron.csv), "
              "[`rating-janko.csv`](rating-janko.csv).", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baron", type=Path, default=SHARED / "baron-thesis60")
    parser.add_argument("--janko", type=Path, default=SHARED / "janko-thesis100")
    parser.add_argument("--deadline", type=float, default=30.0, help="seconds per puzzle and configuration")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    for folder in (args.baron, args.janko):
        if not folder.exists():
            parser.error(f"{folder} is absent (the shared puzzle sets sit beside the checkout)")
    baron = run_baron(args.baron, args.deadline)
    janko = run_janko(args.janko, args.deadline)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(baron, args.out / "rating-baron.csv")
    write_csv(janko, args.out / "rating-janko.csv")
    given = argv if argv is not None else sys.argv[1:]
    command = " ".join(["python", "benchmarks/rating_baron.py", *given])
    (args.out / "rating.md").write_text(report(baron, janko, command, args.deadline))
    print((args.out / "rating.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
