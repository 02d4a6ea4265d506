"""The old default (race) against the staged race, from the `fillsmt bench` CSVs of
run_issue17_six.sh (issue 17, sixth session).

    python benchmarks/staged_table.py hardtail benchmarks/results/six-hardtail.csv
    python benchmarks/staged_table.py summary benchmarks/results/six-janko.csv [PUZZLE]
    python benchmarks/staged_table.py sizes benchmarks/results/six-scaling.csv

`hardtail`: fillsmt's total seconds per puzzle and configuration, who answered (search, lazy
cuts, z3-prop), t/o for no answer in the time-out, ✓ for a proven-unique run. `summary`: solved,
median, mean, slowest, how many at or over 0.5 s, PUZZLE's time, and the proof ÷ plain ratios.
`sizes`: median total per grid size (the HxW prefix of the file name).
"""
import csv
import statistics
import sys

BASE, NEW = "yices/default/race", "yices/default/staged"
CONFIGS = [BASE, NEW, BASE + "/unique", NEW + "/unique"]


def load(path):
    by = {}
    for r in csv.DictReader(open(path)):
        by.setdefault(r["puzzle"].rsplit("/", 1)[-1].removesuffix(".txt"), {})[r["key"].rsplit("|", 1)[1]] = r
    return by


def solved(r):
    return r["status"] == "sat" and r["checked"] in ("True", "true")


def who(r):
    m, e = r["message"], r["encoding"]
    if "rules' search" in m:
        return " (search)"
    if e == "lazy-local-general":
        return " (lazy)"
    if e == "onehot-prop":
        return " (z3-prop)"
    return ""


def cell(r, unique):
    if not solved(r):
        return "t/o" if r["status"] == "timeout" else r["status"]
    done = r["unique"] in ("True", "true") if unique else True
    mark = " ✓" if unique and done else ""
    return f"{float(r['total_s']):.2f}{who(r)}{mark}" if done else f"{float(r['total_s']):.2f} (not proven)"


def hardtail(by):
    names = sorted(by)
    print("| configuration | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for c in CONFIGS:
        if all(c in by[p] for p in names):
            print(f"| {c} | " + " | ".join(cell(by[p][c], c.endswith('/unique')) for p in names) + " |")


def summary(by, show):
    configs = [c for c in CONFIGS if all(c in by[p] for p in by)]
    print(f"| configuration | solved | proven unique | median (s) | mean (s) | slowest (s) | at or over 0.5 s | {show} (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for c in configs:
        t = [float(by[p][c]["total_s"]) for p in by]
        ok = sum(1 for p in by if solved(by[p][c]))
        un = sum(1 for p in by if by[p][c]["unique"] in ("True", "true"))
        slow = max((float(by[p][c]["total_s"]), p) for p in by)
        shown = f"{float(by[show][c]['total_s']):.3f}" if show in by else "–"
        print(f"| {c} | {ok}/{len(by)} | {un if c.endswith('/unique') else '–'} | {statistics.median(t):.3f} | "
              f"{statistics.mean(t):.3f} | {slow[0]:.3f} ({slow[1]}) | {sum(1 for x in t if x >= 0.5)} | {shown} |")
    print()
    for base in (BASE, NEW):
        if base in configs and base + "/unique" in configs:
            ratios = {p: float(by[p][base + "/unique"]["total_s"]) / float(by[p][base]["total_s"]) for p in by}
            over = sorted((p, round(v, 2)) for p, v in ratios.items() if v >= 2)
            print(f"- {base}/unique ÷ {base}: median {statistics.median(ratios.values()):.2f}, "
                  f"{sum(1 for v in ratios.values() if v < 2)} of {len(by)} under 2×; at or over: {over}")
    if BASE in configs and NEW in configs:
        per = [float(by[p][NEW]["total_s"]) / float(by[p][BASE]["total_s"]) for p in by]
        print(f"- {NEW} ÷ {BASE} per puzzle: median {statistics.median(per):.3f}")
        for c in configs:
            extra = sorted(p for p in by if who(by[p][c]) in (" (lazy)", " (z3-prop)"))
            if extra:
                print(f"- {c}: answered by an extra racer on {extra}")


def sizes(by):
    configs = [c for c in CONFIGS if all(c in by[p] for p in by)]
    groups = {}
    for p in by:
        groups.setdefault(p.split("-")[0], []).append(p)
    print("| size | " + " | ".join(configs) + " |")
    print("|---|" + "---:|" * len(configs))
    for size in sorted(groups, key=lambda s: int(s.split("x")[0])):
        meds = [statistics.median(float(by[p][c]["total_s"]) for p in groups[size]) for c in configs]
        print(f"| {size} | " + " | ".join(f"{m:.3f}" for m in meds) + " |")


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    data = load(path)
    if mode == "hardtail":
        hardtail(data)
    elif mode == "summary":
        summary(data, sys.argv[3] if len(sys.argv) > 3 else "286")
    else:
        sizes(data)
