"""fillsmt against a peer, semiexp's cspuz Fillomino solver (SAT with a region propagator, the
solver behind puzz.link), one puzzle at a time, each tool as a whole process.

cspuz's ``solve_fillomino`` finds a solution and proves every cell forced, so it is measured
against ``fillsmt solve --unique`` (a checked solution and the proof that no other exists). Per
puzzle both run one after the other, alternating which goes first; each run's wall time and its
CPU time (user + system, from ``os.wait4``) are recorded. A cspuz grid counts as solved when it
equals the published solution, or else when ``fillsmt check`` accepts it; fillsmt's own answers
are checked by fillsmt. Only fillsmt's command line is used, never its package.

    python benchmarks/peer_cspuz.py --cspuz PATH/cspuz_fillomino --csv OUT.csv --summary OUT.md \\
        PUZZLES_FOLDER [--solutions FOLDER] [--timeout 60] [--memory-gb 4]
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

UNIQUE = "unique"
FILLSMT_STATUS = {0: UNIQUE, 1: "unsat", 3: "timeout", 5: "not unique"}


def run(argv: list[str], timeout: float, memory_gb: float | None = None, env: dict | None = None) -> dict:
    """One process (in a process group of its own, its address space capped at ``memory_gb``):
    exit code, output, wall seconds, CPU seconds (its own and its children's: the difference of
    this process's children counters before and after it, one child at a time), and whether it
    ran out of time (then it gets SIGTERM, and SIGKILL 5 s later)."""

    def limit():
        os.setpgrp()
        if memory_gb:
            size = int(memory_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
        env=env,
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"code": proc.returncode, "out": out, "err": err, "wall_s": wall, "cpu_s": cpu, "timed_out": timed_out}


def grid_numbers(text: str) -> list[int]:
    return [int(t) for t in text.split()]


def check_cspuz(fillsmt: str, puzzle: Path, solutions: Path | None, output: str) -> bool:
    """Whether cspuz's printed grid is a solution: the published one, or one fillsmt check accepts."""
    published = solutions / puzzle.name if solutions else None
    if published is not None and published.exists() and grid_numbers(published.read_text()) == grid_numbers(output):
        return True
    done = subprocess.run([fillsmt, "check", str(puzzle), "-"], input=output, capture_output=True, text=True)
    return done.returncode == 0


def cspuz_row(r: dict, fillsmt: str, puzzle: Path, solutions: Path | None) -> tuple[str, bool]:
    if r["timed_out"]:
        return "timeout", False
    if r["code"] == 0:
        checked = check_cspuz(fillsmt, puzzle, solutions, r["out"])
        if not checked:
            return "wrong", False
        return ("not unique" if "undecided" in r["err"] else UNIQUE), True
    if r["code"] == 1:
        return "unsat", False
    return "error" if r["code"] is not None and r["code"] >= 0 else "killed (memory?)", False


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.3f}" if values else "–"


def summary(rows: list[dict], timeout: float) -> str:
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    by = {(r["tool"], r["puzzle"]): r for r in rows}
    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    lines = [
        f"{len(puzzles)} puzzles, time-out {timeout:g} s, one process per run, one run at a time "
        "(solved: a checked solution proven unique).",
        "",
        "| tool | solved | median wall (s) | median CPU (s) | slowest wall (s) | PAR-2 wall (s) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for tool in tools:
        mine = [by[(tool, p)] for p in puzzles]
        solved = [r for r in mine if r["status"] == UNIQUE]
        walls = [float(r["wall_s"]) for r in solved]
        par2 = statistics.fmean(float(r["wall_s"]) if r["status"] == UNIQUE else 2 * timeout for r in mine)
        lines.append(
            f"| {tool} | {len(solved)}/{len(mine)} | {median(walls)} | "
            f"{median([float(r['cpu_s']) for r in solved])} | {max(walls, default=0):.3f} | {par2:.3f} |"
        )
    if len(tools) == 2:
        a, b = tools
        both = [p for p in puzzles if by[(a, p)]["status"] == by[(b, p)]["status"] == UNIQUE]
        ratios = [float(by[(b, p)]["wall_s"]) / float(by[(a, p)]["wall_s"]) for p in both]
        faster = sum(1 for p in both if float(by[(a, p)]["wall_s"]) < float(by[(b, p)]["wall_s"]))
        if both:
            lines += [
                "",
                f"On the {len(both)} puzzles both solved: {a} faster on {faster}, {b} on "
                f"{len(both) - faster}; median of the per-puzzle ratio {b} / {a} (wall): "
                f"{statistics.median(ratios):.2f}.",
            ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", type=Path)
    parser.add_argument("--cspuz", required=True)
    parser.add_argument("--fillsmt", default="fillsmt")
    parser.add_argument("--solutions", type=Path)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--memory-gb", type=float, default=4.0, help="address-space limit of each cspuz run")
    parser.add_argument("--csv", required=True, type=Path)
    parser.add_argument("--summary", required=True, type=Path)
    args = parser.parse_args()
    puzzles = sorted(args.puzzles.glob("*.txt"))
    if not puzzles:
        sys.exit(f"{args.puzzles}: no *.txt puzzles")
    env = {**os.environ, "CSPUZ_FILLOMINO_MODE": "facts"}
    rows = []
    for i, puzzle in enumerate(puzzles):
        order = ["cspuz", "fillsmt"] if i % 2 == 0 else ["fillsmt", "cspuz"]
        for tool in order:
            if tool == "cspuz":
                r = run([args.cspuz, str(puzzle)], args.timeout, args.memory_gb, env=env)
                status, checked = cspuz_row(r, args.fillsmt, puzzle, args.solutions)
            else:
                r = run(
                    [args.fillsmt, "solve", "--unique", "--timeout", f"{args.timeout:g}", str(puzzle)],
                    args.timeout + 15,
                )
                status = "timeout" if r["timed_out"] else FILLSMT_STATUS.get(r["code"], "error")
                checked = status == UNIQUE
            rows.append(
                {
                    "puzzle": puzzle.name,
                    "tool": tool,
                    "status": status,
                    "checked": checked,
                    "wall_s": round(r["wall_s"], 4),
                    "cpu_s": round(r["cpu_s"], 4),
                }
            )
        print(
            f"{puzzle.name}: " + ", ".join(f"{x['tool']} {x['status']} {x['wall_s']:.2f} s" for x in rows[-2:]),
            file=sys.stderr,
        )
    rows.sort(key=lambda r: (r["tool"] != "fillsmt", r["puzzle"]))
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    with open(args.csv, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    text = summary(rows, args.timeout)
    args.summary.write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
