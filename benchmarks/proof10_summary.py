"""Issue 17, tenth session (proofs): summary of a ``proof10_designs.py`` CSV.

    python benchmarks/proof10_summary.py OUT.csv [--top N]

Per design: puzzles settled, proofs whose CPU ratio (presolve + proof) / (presolve + plain) is
under 2, the sum of proof CPU s and nodes, and the puzzles over 2 (ratio, nodes).
"""

from __future__ import annotations

import argparse
import csv


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.csv)))
    designs = [k[:-2] for k in rows[0] if k.endswith("_s") and k not in ("presolve_s", "plain_s")]
    print(f"{len(rows)} puzzles")
    print("| design | settled | ratio < 2 | proof CPU s (sum) | nodes (sum) | 286 s (nodes) | over 2 (ratio, nodes) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for d in designs:
        settled = [r for r in rows if r[f"{d}_unique"] == "True"]
        ratio = {r["puzzle"]: (float(r["presolve_s"]) + float(r[f"{d}_s"])) /
                 (float(r["presolve_s"]) + float(r["plain_s"])) for r in rows}
        over = sorted(((v, n) for n, v in ratio.items() if v >= 2 or n not in {r["puzzle"] for r in settled}),
                      reverse=True)
        nodes = {r["puzzle"]: r[f"{d}_nodes"] for r in rows}
        r286 = next((r for r in rows if r["puzzle"] == "286"), None)
        s286 = f"{float(r286[f'{d}_s']):.3f} ({r286[f'{d}_nodes']})" if r286 else "-"
        print(f"| {d} | {len(settled)} | {len(rows) - len(over)} | {sum(float(r[f'{d}_s']) for r in rows):.3f} | "
              f"{sum(int(r[f'{d}_nodes']) for r in rows)} | {s286} | "
              + ", ".join(f"{n} {v:.1f} ({nodes[n]})" for v, n in over[:a.top]) + " |")


if __name__ == "__main__":
    main()
