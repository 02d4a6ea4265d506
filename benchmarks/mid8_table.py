"""Issue 17, eighth session (mid): the tables of `run_mid8.sh`'s rounds, main (old) → branch (new).

    python benchmarks/mid8_table.py DIR ROUND... [--set hardtail|janko|baron|scaling]

Reads DIR/mid8-R{ROUND}-{set}-{old,new}.csv (``search_ab_table.load``). hardtail: each puzzle's
total seconds per configuration and round, old → new, with who answered (s: the rules' search in
the race, q: the quick search before any solver, l: the lazy cuts; none: yices on the lead
encoding) and ``u`` for a proven unique; janko and baron: median, mean and slowest per round,
the per-puzzle median ratio new ÷ old, and for janko the proofs under 2× their solve; scaling:
the median total per size.
"""

from __future__ import annotations

import argparse
import statistics

from search_ab_table import load

SETS = ("hardtail", "janko", "baron", "scaling")


def who(row: dict) -> str:
    message = row["message"]
    if "before any solver" in message:
        return "q"
    if "rules' search" in message:
        return "s"
    if "lazy" in message or "region cuts" in message or row["encoding"].startswith("lazy"):
        return "l"
    return ""


def cell(row: dict | None) -> str:
    if row is None:
        return "–"
    if row["status"] not in ("sat", "unsat"):
        return "t/o"
    mark = who(row)
    return f"{float(row['total_s']):.2f}" + (" u" if row["unique"] == "true" else "") + (f" {mark}" if mark else "")


def ok_times(rows: dict, config: str) -> dict[str, float]:
    return {p: float(r["total_s"]) for (p, c), r in rows.items() if c == config and r["status"] in ("sat", "unsat")}


def per_puzzle(directory: str, rounds: list[str], name: str) -> None:
    runs = [(r, load(f"{directory}/mid8-R{r}-{name}-old.csv"), load(f"{directory}/mid8-R{r}-{name}-new.csv"))
            for r in rounds]
    configs = sorted({c for _, old, _ in runs for _, c in old})
    puzzles = sorted({p for _, old, _ in runs for p, _ in old})
    heads = [f"{c.removeprefix('yices/default/')} R{r}" for c in configs for r, _, _ in runs]
    print("| puzzle | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * len(heads))
    for p in puzzles:
        print(f"| {p} | " + " | ".join(f"{cell(old.get((p, c)))} → {cell(new.get((p, c)))}"
                                     for c in configs for _, old, new in runs) + " |")


def summary(directory: str, rounds: list[str], name: str) -> None:
    print("| configuration | round | solved old / new | median old → new (s) | mean old → new (s) | "
          "slowest old → new (s) | per-puzzle new ÷ old (median) | proofs under 2× solve old / new |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for r in rounds:
        old, new = load(f"{directory}/mid8-R{r}-{name}-old.csv"), load(f"{directory}/mid8-R{r}-{name}-new.csv")
        for c in sorted({c for _, c in old}):
            a, b = ok_times(old, c), ok_times(new, c)
            ratio = statistics.median(b[p] / a[p] for p in a if p in b and a[p] > 0)
            under = "–"
            if c.endswith("/unique"):
                plain = c.removesuffix("/unique")
                under = " / ".join(str(sum(1 for p, t in proofs.items() if p in solves and t < 2 * solves[p]))
                                   for proofs, solves in ((a, ok_times(old, plain)), (b, ok_times(new, plain))))
            slow = lambda t: f"{max(t.values()):.2f} ({max(t, key=t.get)})"  # noqa: E731
            print(f"| {c} | R{r} | {len(a)} / {len(b)} | {statistics.median(a.values()):.3f} → "
                  f"{statistics.median(b.values()):.3f} | {statistics.mean(a.values()):.3f} → "
                  f"{statistics.mean(b.values()):.3f} | {slow(a)} → {slow(b)} | {ratio:.2f} | {under} |")


def sizes(directory: str, rounds: list[str]) -> None:
    runs = [(r, load(f"{directory}/mid8-R{r}-scaling-old.csv"), load(f"{directory}/mid8-R{r}-scaling-new.csv"))
            for r in rounds]
    configs = sorted({c for _, old, _ in runs for _, c in old})
    heads = [f"{c.removeprefix('yices/default/')} R{r}" for c in configs for r, _, _ in runs]
    print("| size (median, slowest) | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * len(heads))
    for size in sorted({p.split("-")[0] for _, old, _ in runs for p, _ in old}, key=lambda s: int(s.split("x")[0])):
        cells = []
        for c in configs:
            for _, old, new in runs:
                pair = []
                for rows in (old, new):
                    t = [v for p, v in ok_times(rows, c).items() if p.split("-")[0] == size]
                    pair.append(f"{statistics.median(t):.2f}, {max(t):.2f}" if t else "–")
                cells.append(" → ".join(pair))
        print(f"| {size} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("directory")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--set", choices=SETS, action="append")
    args = ap.parse_args()
    for name in args.set or SETS:
        print(f"\n{name}\n")
        if name == "hardtail":
            per_puzzle(args.directory, args.rounds, name)
        elif name == "scaling":
            sizes(args.directory, args.rounds)
            print()
            summary(args.directory, args.rounds, name)
        else:
            summary(args.directory, args.rounds, name)


if __name__ == "__main__":
    main()
