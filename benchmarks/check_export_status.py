"""Confirm every exported benchmark file's :status with the z3 and yices binaries.

    python benchmarks/check_export_status.py DIR --timeout 60 --jobs 2 \
        --csv benchmarks/results/export-status.csv --md benchmarks/results/export-status.md

DIR is a folder written by ``fillsmt export`` (its manifest.csv lists the files). Each file is
run as it is (``z3 FILE``, ``yices-smt2 FILE``) with a time limit; a row per file and solver
records the answer. ``--cpu-limit`` bounds each run's CPU time instead of its wall time (a run
niced behind other work is judged by the CPU it got); ``--retry-timeouts`` runs again the pairs
whose last row in the CSV timed out, and the new row takes their place in the summary.
The summary counts, per solver × encoding × family, the files whose answer equals their :status (confirmed), that timed out, and that contradict it (must be none).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SOLVERS = {"z3": ["z3"], "yices": ["yices-smt2"]}


def run(solver: str, path: Path, timeout: float, cpu_limit: float | None = None) -> tuple[str, float]:
    """The solver's first word on PATH and the seconds it took: wall seconds, or with a CPU limit
    the CPU seconds the solver used (user + system); "timeout" when a limit ran out."""
    bindir = Path(sys.executable).parent
    argv = [str(bindir / SOLVERS[solver][0]), *SOLVERS[solver][1:], str(path)]
    if cpu_limit is None:
        start = time.perf_counter()
        try:
            out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start
        words = out.stdout.split()
        return (words[0] if words else "error"), time.perf_counter() - start
    limit = max(1, int(cpu_limit))

    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=bound)
    guard = threading.Timer(timeout, proc.kill)  # the wall limit: a safety net far above the CPU limit
    guard.start()
    try:
        stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # reaped here, so its CPU time is its own
    finally:
        guard.cancel()
        proc.stdout.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    words = stdout.split()
    # SIGXCPU from the CPU limit or SIGKILL from the guard; yices-smt2 catches SIGXCPU and exits
    # with code 21 and no answer (its rusage then reads a few seconds under the limit), so a
    # silent failure near the limit is a time-out too
    if proc.returncode < 0 or (not words and proc.returncode != 0 and cpu >= 0.9 * limit):
        return "timeout", cpu
    return (words[0] if words else "error"), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--timeout", type=float, default=60, help="wall seconds per run (default 60)")
    parser.add_argument("--cpu-limit", type=float,
                        help="CPU seconds per run; the wall limit (--timeout) then only guards against a hang")
    parser.add_argument("--retry-timeouts", action="store_true",
                        help="run again the (file, solver) pairs whose last row timed out under a wall "
                             "limit or a smaller CPU limit")
    parser.add_argument("--smallest-first", action="store_true",
                        help="run first the files the other solver already confirmed, then the smallest "
                             "(most files settled by both in a short session)")
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
    def weaker(last: dict) -> bool:  # timed out under a wall limit, or under a smaller CPU limit
        kind, _, seconds = (last.get("limit") or "wall 60").partition(" ")
        return kind == "wall" or not args.cpu_limit or float(seconds) < args.cpu_limit

    todo = [(row, solver) for row in files for solver in SOLVERS if (row["file"], solver) not in done
            or (args.retry_timeouts and done[(row["file"], solver)]["answer"] == "timeout"
                and weaker(done[(row["file"], solver)]))]
    if args.smallest_first:
        def other_confirmed(row: dict, solver: str) -> bool:
            return any(done.get((row["file"], s), {}).get("answer") == row["status"] for s in SOLVERS if s != solver)

        todo.sort(key=lambda pair: (not other_confirmed(*pair), (folder / pair[0]["file"]).stat().st_size))
    if args.summary_only:
        todo = []
    columns = ["file", "puzzle", "encoding", "family", "status", "solver", "answer", "seconds", "limit"]
    limit = f"cpu {args.cpu_limit:g}" if args.cpu_limit else f"wall {args.timeout:g}"
    new = not Path(args.csv).exists()
    with open(args.csv, "a", newline="") as out, ThreadPoolExecutor(args.jobs) as pool:
        writer = csv.DictWriter(out, fieldnames=columns)
        if new:
            writer.writeheader()
        futures = [(row, solver, pool.submit(run, solver, folder / row["file"], args.timeout, args.cpu_limit)) for row, solver in todo]
        for row, solver, future in futures:
            answer, seconds = future.result()
            record = {"file": row["file"], "puzzle": row["puzzle"], "encoding": row["encoding"],
                      "family": row["family"], "status": row["status"], "solver": solver, "answer": answer,
                      "seconds": f"{seconds:.3f}", "limit": limit}
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
    selected = {r["file"] for r in files}
    limits = Counter(r.get("limit") or "wall 60" for r in done.values() if r["file"] in selected)
    lines = [f"{len(files)} files, each run by z3 and yices-smt2; the row counted per file and solver is its last, "
             "run with these limits (seconds): " + ", ".join(f"{k} ({v} runs)" for k, v in sorted(limits.items())), "",
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
