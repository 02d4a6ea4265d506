"""Issue 17, ninth session (proofs): each uniqueness proof against its plain solve, one bench CSV.

    python benchmarks/proof9_table.py benchmarks/results/proof9-janko-branch.csv [--top N]
    python benchmarks/proof9_table.py --rounds OLD.csv... -- NEW.csv...   # per-puzzle medians over rounds

Prints, per CSV: solved and proven counts, medians, the slowest, how many proofs are under 2x
their plain solve (``total_s`` of ``yices/default/staged/unique`` over ``yices/default/staged``),
and the N worst ratios with who answered (q: the quick search, s: the race's search, y: a solver).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys

PLAIN, UNIQUE = "yices/default/staged", "yices/default/staged/unique"


def _who(row: dict) -> str:
    message = row["message"]
    if "before any solver started" in message:
        return "q"
    if "rules' search" in message:
        return "s"
    if "deduction rules alone" in message:
        return "r"
    return "y"


def _runs(path: str) -> dict[str, dict[str, dict]]:
    """puzzle name -> configuration -> CSV row."""
    runs: dict[str, dict[str, dict]] = {}
    for row in csv.DictReader(open(path)):
        name = row["puzzle"].rsplit("/", 1)[-1].removesuffix(".txt")
        runs.setdefault(name, {})[row["key"].rsplit("|", 1)[1]] = row
    return runs


def _ratios(runs: dict[str, dict[str, dict]]) -> dict[str, float]:
    return {n: float(r[UNIQUE]["total_s"]) / float(r[PLAIN]["total_s"])
            for n, r in runs.items() if PLAIN in r and UNIQUE in r}


def _totals(paths: list[str], config: str) -> dict[str, list[float]]:
    """puzzle -> its total seconds in ``config``, one per CSV."""
    out: dict[str, list[float]] = {}
    for path in paths:
        for name, r in _runs(path).items():
            if config in r:
                out.setdefault(name, []).append(float(r[config]["total_s"]))
    return out


def rounds(old: list[str], new: list[str], top: int, names: list[str]) -> None:
    """Per puzzle, the median over the rounds of each side's ratio (unique / plain total)."""
    for config in (PLAIN, UNIQUE):
        o, n = _totals(old, config), _totals(new, config)
        if not n:
            continue
        per_round = lambda t, i: statistics.median(v[i] for v in t.values())  # noqa: E731
        print(f"- {config}: median total per round, old {', '.join(f'{per_round(o, i):.3f}' for i in range(len(old)))}"
              f"; new {', '.join(f'{per_round(n, i):.3f}' for i in range(len(new)))}; per-puzzle new / old "
              f"(medians over the rounds) median {statistics.median(statistics.median(n[k]) / statistics.median(o[k]) for k in n):.2f}")
    if names:
        o, n = _totals(old, UNIQUE), _totals(new, UNIQUE)
        print("\n| puzzle | unique old (s, each round) | unique new (s, each round) |\n|---|---|---|")
        for k in names:
            print(f"| {k} | {' '.join(f'{v:.3f}' for v in o[k])} | {' '.join(f'{v:.3f}' for v in n[k])} |")
    print()
    sides = []
    for paths in (old, new):
        each = [_ratios(_runs(p)) for p in paths]
        if not each[0]:
            return
        sides.append(({n: statistics.median(r[n] for r in each) for n in each[0]}, each))
    (old_med, old_each), (new_med, new_each) = sides
    for label, med, each in (("old", old_med, old_each), ("new", new_med, new_each)):
        print(f"- {label}: proofs under 2x their plain solve per round "
              f"{', '.join(str(sum(q < 2 for q in r.values())) for r in each)} of {len(med)}; "
              f"by the median over {len(each)} rounds {sum(q < 2 for q in med.values())}; "
              f"median ratio {statistics.median(med.values()):.2f}")
    print("\n| puzzle | old ratios | old median | new ratios | new median |\n|---|---|---:|---|---:|")
    for n in sorted(new_med, key=lambda n: -new_med[n])[:top]:
        print(f"| {n} | {' '.join(f'{r[n]:.2f}' for r in old_each)} | {old_med[n]:.2f} | "
              f"{' '.join(f'{r[n]:.2f}' for r in new_each)} | {new_med[n]:.2f} |")


def table(path: str, top: int) -> None:
    runs = _runs(path)
    both = {n: r for n, r in runs.items() if PLAIN in r and UNIQUE in r}
    print(f"\n**{path}**\n")
    for config in (PLAIN, UNIQUE):
        rows = [r[config] for r in runs.values() if config in r]
        times = [float(r["total_s"]) for r in rows]
        solved = sum(r["status"] == "sat" and r["checked"] == "true" for r in rows)
        proven = sum(r["unique"] == "true" for r in rows)
        slow = max(rows, key=lambda r: float(r["total_s"]))
        slow_name = slow["puzzle"].rsplit("/", 1)[-1].removesuffix(".txt")
        print(f"- {config}: {solved}/{len(rows)} solved and checked" +
              (f", {proven} proven unique" if config == UNIQUE else "") +
              f", median {statistics.median(times):.3f} s, slowest {slow_name} {max(times):.2f} s")
    if not both:
        return
    ratios = sorted(((q, n) for n, q in _ratios(runs).items()), reverse=True)
    under = sum(q < 2 for q, _ in ratios)
    print(f"- proofs under 2x their plain solve: {under} of {len(ratios)}; median ratio "
          f"{statistics.median(q for q, _ in ratios):.2f}\n")
    print("| puzzle | plain s | unique s | ratio | plain by | unique by |")
    print("|---|---:|---:|---:|---|---|")
    for q, n in ratios[:top]:
        p, u = both[n][PLAIN], both[n][UNIQUE]
        print(f"| {n} | {float(p['total_s']):.4f} | {float(u['total_s']):.4f} | {q:.2f} | {_who(p)} | {_who(u)} |")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--rounds", action="store_true", help="OLD.csv... -- NEW.csv...: medians over rounds")
    parser.add_argument("--puzzles", default="", help="with --rounds: comma-separated names to list")
    args = parser.parse_args(argv)
    if args.rounds:
        cut = argv.index("--")
        old = [a for a in argv[:cut] if a.endswith(".csv")]
        new = [a for a in argv[cut + 1:] if a.endswith(".csv")]
        rounds(old, new, args.top, [p for p in args.puzzles.split(",") if p])
        return
    for path in args.csv:
        table(path, args.top)


if __name__ == "__main__":
    main(sys.argv[1:])
