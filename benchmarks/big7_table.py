"""Before (main) and after (this branch) from the `fillsmt bench` CSVs of run_big7.sh (issue 17,
seventh session: big): fillsmt's total seconds per puzzle and configuration, who answered.

    python benchmarks/big7_table.py benchmarks/results/big7-hardtail-{before,after}.csv
    python benchmarks/big7_table.py benchmarks/results/big7-janko-{before,after}.csv --summary
"""
import csv
import statistics
import sys


def load(path):
    by = {}
    for r in csv.DictReader(open(path)):
        by[(r["puzzle"].rsplit("/", 1)[-1].removesuffix(".txt"), r["key"].rsplit("|", 1)[1])] = r
    return by


def cell(r):
    if r is None:
        return "–"
    if r["status"] != "sat" or r["checked"] not in ("True", "true"):
        return "t/o" if r["status"] == "timeout" else r["status"]
    who = " (search)" if "rules' search" in r["message"] else " (lazy)" if "lazy" in r["encoding"] + r["message"] \
        else " (z3-prop)" if "z3-prop" in r["message"] else ""
    return f"{float(r['total_s']):.2f}{' ✓' if r['unique'] in ('True', 'true') else ''}{who}"


def main(before_path, after_path, summary=False):
    before, after = load(before_path), load(after_path)
    configs = sorted({c for _, c in before} | {c for _, c in after})
    puzzles = sorted({p for p, _ in before} | {p for p, _ in after})
    if summary:
        print("| configuration | side | solved | median (s) | mean (s) | slowest (s) | per puzzle after ÷ before, median |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for c in configs:
            for name, side in (("before", before), ("after", after)):
                t = [(float(r["total_s"]), p) for (p, cc), r in side.items() if cc == c and r["status"] == "sat"]
                ratios = [float(after[(p, c)]["total_s"]) / float(before[(p, c)]["total_s"]) for p in puzzles
                          if (p, c) in after and (p, c) in before and float(before[(p, c)]["total_s"]) > 0]
                print(f"| {c} | {name} | {len(t)}/{sum(1 for (_, cc) in side if cc == c)} | "
                      f"{statistics.median(x for x, _ in t):.3f} | {statistics.mean(x for x, _ in t):.3f} | "
                      f"{max(t)[0]:.2f} ({max(t)[1]}) | {statistics.median(ratios):.3f} |")
        return
    print("| configuration | side | " + " | ".join(puzzles) + " |")
    print("|---|---|" + "---:|" * len(puzzles))
    for c in configs:
        for name, side in (("before", before), ("after", after)):
            print(f"| {c} | {name} | " + " | ".join(cell(side.get((p, c))) for p in puzzles) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--summary" in sys.argv[3:])
