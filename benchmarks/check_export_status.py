"""Confirm every exported benchmark file's :status with the z3 and yices binaries.

    python benchmarks/check_export_status.py DIR --timeout 60 --jobs 2 \
        --csv benchmarks/results/export-status.csv --md benchmarks/results/export-status.md

DIR is a folder written by ``fillsmt export`` (its manifest.csv lists the files). Each file is
run as it is (``z3 FILE``, ``yices-smt2 FILE``) with a time limit; a row per file and solver
records the answer. The summary counts, per solver × encoding × family, the files whose answer
equals their :status (confirmed), that timed out, and that contradict it (must be none).
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SOLVERS = {"z3": ["z3"], "yices": ["yices-smt2"]}


def run(solver: str, path: Path, timeout: float) -> tuple[str, float]:
    bindir = Path(sys.executable).parent
    argv = [str(bindir / SOLVERS[solver][0]), *SOLVERS[solver][1:], str(path)]
    start = time.perf_counter()
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    words = out.stdout.split()
    return (words[0] if words else "error"), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--md", required=True)
    parser.add_argument("--encoding", action="append", help="check only the files of this encoding (repeatable)")
    parser.add_argument("--match", action="append",
                        help="check only the files whose name holds this text (repeatable)")
    parser.add_argument("--summary-only", action="store_true", help="run nothing; summarize the CSV's rows")
    args = parser.parse_args()
    folder = Path(args.folder)
    with open(folder / "manifest.csv", newline="") as f:
        files = [r for r in csv.DictReader(f) if (not args.encoding or r["encoding"] in args.encoding)
                 and (not args.match or any(m in r["file"] for m in args.match))]
    done: dict[tuple[str, str], dict] = {}
    if Path(args.csv).exists():
        with open(args.csv, newline="") as f:
            done = {(r["file"], r["solver"]): r for r in csv.DictReader(f)}
    todo = [(row, solver) for row in files for solver in SOLVERS if (row["file"], solver) not in done]
    if args.summary_only:
        todo = []
    columns = ["file", "puzzle", "encoding", "family", "status", "solver", "answer", "seconds"]
    new = not Path(args.csv).exists()
    with open(args.csv, "a", newline="") as out, ThreadPoolExecutor(args.jobs) as pool:
        writer = csv.DictWriter(out, fieldnames=columns)
        if new:
            writer.writeheader()
        futures = [(row, solver, pool.submit(run, solver, folder / row["file"], args.timeout)) for row, solver in todo]
        for row, solver, future in futures:
            answer, seconds = future.result()
            record = {"file": row["file"], "puzzle": row["puzzle"], "encoding": row["encoding"],
                      "family": row["family"], "status": row["status"], "solver": solver, "answer": answer,
                      "seconds": f"{seconds:.3f}"}
            writer.writerow(record)
            out.flush()
            done[(row["file"], solver)] = record
    counts: Counter = Counter()
    wrong = []
    for r in done.values():
        verdict = ("confirmed" if r["answer"] == r["status"] else "timeout" if r["answer"] == "timeout"
                   else "status unknown" if r["status"] == "unknown" else "contradicted")
        counts[(r["solver"], r["encoding"], r["family"], verdict)] += 1
        if verdict == "contradicted":
            wrong.append(f"- {r['file']}: :status {r['status']}, {r['solver']} answered {r['answer']}")
    statuses = Counter((r["encoding"], r["family"], r["status"]) for r in files)
    lines = [f"{len(files)} files, each run by z3 and yices-smt2 with a {args.timeout:g} s limit.", "",
             "| encoding | family | files (sat / unsat / unknown) | solver | confirmed | timed out | contradicted |",
             "|---|---|---|---|---:|---:|---:|"]
    for encoding in sorted({r["encoding"] for r in files}):
        for family in ("plain", "unique"):
            n = [statuses[(encoding, family, s)] for s in ("sat", "unsat", "unknown")]
            if not sum(n):
                continue
            for solver in SOLVERS:
                c = {v: counts[(solver, encoding, family, v)] for v in ("confirmed", "timeout", "contradicted")}
                lines.append(f"| {encoding} | {family} | {sum(n)} ({n[0]} / {n[1]} / {n[2]}) | {solver} | "
                             f"{c['confirmed']} | {c['timeout']} | {c['contradicted']} |")
    lines += ["", "Per file: confirmed by both solvers / by one / by neither (time-outs) / not run yet:", "",
              "| encoding | family | both | one | neither | not run |", "|---|---|---:|---:|---:|---:|"]
    for encoding in sorted({r["encoding"] for r in files}):
        for family in ("plain", "unique"):
            mine = [r for r in files if (r["encoding"], r["family"]) == (encoding, family)]
            if not mine:
                continue
            tally: Counter = Counter()
            for r in mine:
                runs = [done.get((r["file"], s)) for s in SOLVERS]
                if None in runs:
                    tally["not run"] += 1
                else:
                    tally[{2: "both", 1: "one", 0: "neither"}[sum(x["answer"] == x["status"] for x in runs)]] += 1
            lines.append(f"| {encoding} | {family} | {tally['both']} | {tally['one']} | {tally['neither']} | "
                         f"{tally['not run']} |")
    lines += ["", "Contradictions:" if wrong else "No file's answer contradicts its :status.", *wrong]
    Path(args.md).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
