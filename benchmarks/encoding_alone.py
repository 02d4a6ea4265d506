"""The Fillomino scripts, each solver alone: solved, PAR-2 and CPU seconds.

    python benchmarks/encoding_alone.py [SET ...] [--limit 60] [--jobs 2] [--work DIR]
        [--csv FILE] [-e ENCODING ...] [-s SOLVER ...] [--table] [--common]

SET is a puzzle folder (default: janko-thesis100 and baron-thesis60 of the shared Fillomino
sets, ``../shared/instances/fillomino/NAME/puzzles``). For each puzzle the script writes the two
files ``fillsmt export`` writes (plain: "a solution?", sat; unique: "another solution than the
first?", unsat for a unique puzzle), with the encoder's own bounds and no presolve, for each
encoding:

* ``thesis`` — the thesis' encoding;
* ``tree-bfs-before`` — tree-bfs without its root counts and region budget (``TreeOptions(bfs=True,
  skip_closed=True)``);
* ``tree-bfs-no-budget`` — tree-bfs without its region budget (``TreeOptions(bfs=True,
  skip_closed=True, root_counts=10)``);
* ``tree-bfs`` — the default encoding as it is now;
* ``tree-bfs-presolve`` — the default encoding after the presolve, as ``fillsmt export
  --presolve`` writes it (the deduction rules' fixed cells written in, the others bounded);
* ``tree-bfs-bv`` — the default encoding over bit-vectors (QF_BV), the script of a solver that
  decides no integers.

The statuses are fillsmt's proof (:func:`fillsmt.bench.families.prove`: presolve, yices, ``--unique``,
every grid checked). Every file then runs under each solver's own binary (``z3``, ``yices-smt2``; Bitwuzla, whose
wheel ships no binary, through its Python API's SMT-LIB parser in a process of its own),
at most ``--jobs`` at once, each under a CPU limit of ``--limit`` seconds (RLIMIT_CPU); the time is
the solver process' user + system CPU (``os.wait4``), not wall time, so other work on the machine
disturbs it little. A run is solved when it answers the proved status within the limit. PAR-2 is
the mean over the files of the CPU time, 2 × limit for a file not solved; CPU is the total over the
files (an unsolved run counts the CPU it used). Rows go to ``--csv`` as they finish (a rerun with
the same file skips the runs it holds), and the table is printed at the end (``--table``: only
the table of the runs the CSV holds, nothing run; ``--common``: only the files that every
encoding and solver ran, for a table made while some runs are still missing).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from fillsmt.bench.families import DEFAULT_LICENSE, Family, benchmark_text, grid_values, prove, puzzle_name
from fillsmt.drivers.registry import get_driver
from fillsmt.engine.solutions import differs, get_value_terms
from fillsmt.fillomino.encode_tree import TreeOptions, encode_tree
from fillsmt.fillomino.encodings import ENCODINGS
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.kinds import kind_of
from fillsmt.protocol import presolved_input

SHARED = Path(__file__).resolve().parents[2] / "shared" / "instances" / "fillomino"
DEFAULT_SETS = ("janko-thesis100", "baron-thesis60")


def _presolved(puzzle):
    given = presolved_input(kind_of(puzzle), puzzle, True)
    if given.contradiction is not None:
        raise SystemExit(f"{puzzle.source}: the deduction rules prove there is no solution")
    return ENCODINGS["tree-bfs"](given.puzzle, given.hints), given.said


ENCODERS: dict[str, Callable] = {
    "thesis": lambda puzzle: (ENCODINGS["thesis"](puzzle, None), "off"),
    "tree-bfs-before": lambda puzzle: (encode_tree(puzzle, None, TreeOptions(bfs=True, skip_closed=True)), "off"),
    "tree-bfs-no-budget": lambda puzzle: (
        encode_tree(puzzle, None, TreeOptions(bfs=True, skip_closed=True, root_counts=10)),
        "off",
    ),
    "tree-bfs": lambda puzzle: (ENCODINGS["tree-bfs"](puzzle, None), "off"),
    "tree-bfs-presolve": _presolved,
    "tree-bfs-bv": lambda puzzle: (ENCODINGS["tree-bfs-bv"](puzzle, None), "off"),
}
"""The encodings measured: name → puzzle → (script, what its header says of the presolve)."""
BITWUZLA = (
    "import sys, bitwuzla as b; o = b.Options(); o.set(b.Option.PRODUCE_MODELS, True); "
    "b.Parser(b.TermManager(), o).parse(sys.argv[1], False, True)"
)
"""A Bitwuzla run of one SMT-LIB file: its own parser reads and runs the commands, printing the
answers as a solver binary does."""
SOLVERS = {"z3": ["z3", "-smt2"], "yices": ["yices-smt2"], "bitwuzla": [sys.executable, "-c", BITWUZLA]}
FIELDS = ("set", "puzzle", "family", "encoding", "solver", "status", "answer", "cpu")


def binary(name: str) -> str:
    """The solver's binary: beside this Python first (a virtual environment's bin/), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} is not installed")
    return found


def write_files(folder: Path, work: Path, encodings: list[str]) -> list[dict]:
    """The plain and unique file of every puzzle in ``folder`` under each encoding; one dict per
    file (set, puzzle, family, encoding, status, path)."""
    driver = get_driver("yices")
    out = []
    for path in sorted(folder.glob("*.txt")):
        puzzle = read_puzzle(str(path))
        kind = kind_of(puzzle)
        name = puzzle_name(str(path))
        proof = None
        for encoding in encodings:
            files = {f: work / f"{name}.{encoding}{'' if f == 'plain' else '.' + f}.smt2" for f in ("plain", "unique")}
            statuses = work / f"{name}.status"
            if not all(p.exists() for p in files.values()) or not statuses.exists():
                proof = proof or prove(puzzle, driver, None)
                if proof.first is None:
                    raise SystemExit(f"{path}: no solution proved ({proof.message})")
                script, said = ENCODERS[encoding](puzzle)
                first = grid_values(puzzle, script, proof.first)
                block = differs(first, get_value_terms(script))
                for family, extra, status in (("plain", [], proof.plain), ("unique", [block], proof.unique)):
                    text = benchmark_text(
                        puzzle,
                        kind,
                        encoding,
                        Family(family, script, extra, status, None, presolve=said),
                        DEFAULT_LICENSE,
                        name,
                        None,
                    )
                    files[family].write_text(text)
                statuses.write_text(f"{proof.plain.value} {proof.unique.value}\n")
            plain, unique = statuses.read_text().split()
            for family, status in (("plain", plain), ("unique", unique)):
                out.append(
                    {
                        "set": folder.parent.name if folder.name == "puzzles" else folder.name,
                        "puzzle": path.stem,
                        "family": family,
                        "encoding": encoding,
                        "status": status,
                        "path": files[family],
                    }
                )
    return out


def run(command: list[str], path: Path, limit: float) -> tuple[str, float]:
    """The solver's first output line and its CPU seconds, under an RLIMIT_CPU of ``limit``."""
    seconds = int(limit) + 1

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    process = subprocess.Popen([*command, str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=cap)
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace").split()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    answer = output[0] if output else "killed"
    return ("time-out" if cpu > limit or answer not in ("sat", "unsat") else answer), cpu


def common(rows: list[dict]) -> list[dict]:
    """The rows of the files that every encoding and solver of ``rows`` ran."""
    configs = {(r["encoding"], r["solver"]) for r in rows}
    ran: dict[tuple[str, str, str], set] = {}
    for r in rows:
        ran.setdefault((r["set"], r["puzzle"], r["family"]), set()).add((r["encoding"], r["solver"]))
    return [r for r in rows if ran[(r["set"], r["puzzle"], r["family"])] == configs]


def table(rows: list[dict], limit: float) -> str:
    """Markdown: one line per set (and all sets) × solver × encoding."""
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for r in rows:
        for s in (r["set"], "all"):
            groups.setdefault((s, r["solver"], r["encoding"]), []).append(r)
    lines = [
        "| set | solver | encoding | solved | PAR-2 (s) | CPU (s) | slowest solved (s) | unsolved |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    sets = sorted({k[0] for k in groups}, key=lambda s: (s == "all", s))
    for s in sets:
        for solver in SOLVERS:
            for encoding in ENCODERS:
                group = groups.get((s, solver, encoding))
                if not group:
                    continue
                solved = [r for r in group if r["answer"] == r["status"]]
                par2 = sum(float(r["cpu"]) if r in solved else 2 * limit for r in group) / len(group)
                cpu = sum(float(r["cpu"]) for r in group)
                slowest = max((float(r["cpu"]) for r in solved), default=0.0)
                missing = [f"{r['puzzle']}{'' if r['family'] == 'plain' else '/u'}" for r in group if r not in solved]
                lines.append(
                    f"| {s} | {solver} | {encoding} | {len(solved)}/{len(group)} | {par2:.2f} | {cpu:.1f} | "
                    f"{slowest:.2f} | {' '.join(missing[:8])}{' …' if len(missing) > 8 else ''} |"
                )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", help="puzzle folders (default: janko-thesis100, baron-thesis60)")
    parser.add_argument("--limit", type=float, default=60.0, help="CPU seconds per run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--common", action="store_true", help="table only the files every encoding ran")
    parser.add_argument("--work", type=Path, default=Path("encoding-alone"), help="folder for the .smt2 files")
    parser.add_argument("--csv", type=Path, default=None, help="rows file (default: WORK/runs.csv)")
    parser.add_argument("-e", "--encoding", action="append", choices=list(ENCODERS), help="repeat; default all")
    parser.add_argument("-s", "--solver", action="append", choices=list(SOLVERS), help="repeat; default z3 and yices")
    parser.add_argument("--table", action="store_true", help="only print the table of the runs the CSV holds")
    args = parser.parse_args()
    if args.table:
        with (args.csv or args.work / "runs.csv").open(newline="") as f:
            held = [
                r
                for r in csv.DictReader(f)
                if r["encoding"] in (args.encoding or ENCODERS) and r["solver"] in (args.solver or SOLVERS)
            ]
        print(table(common(held) if args.common else held, args.limit))
        return
    folders = [Path(s) for s in args.sets] or [SHARED / name / "puzzles" for name in DEFAULT_SETS]
    for folder in folders:
        if not folder.is_dir():
            raise SystemExit(f"{folder} is not a folder of puzzles")
    encodings = args.encoding or list(ENCODERS)
    solvers = args.solver or ["z3", "yices"]
    args.work.mkdir(parents=True, exist_ok=True)
    rows_path = args.csv or args.work / "runs.csv"
    files = [f for folder in folders for f in write_files(folder, args.work, encodings)]
    done: dict[tuple, dict] = {}
    if rows_path.exists():
        with rows_path.open(newline="") as f:
            done = {(r["set"], r["puzzle"], r["family"], r["encoding"], r["solver"]): r for r in csv.DictReader(f)}
    commands = {s: [binary(SOLVERS[s][0]), *SOLVERS[s][1:]] for s in solvers}
    todo = [
        (f, s) for f in files for s in solvers if (f["set"], f["puzzle"], f["family"], f["encoding"], s) not in done
    ]
    new = not rows_path.exists()
    with rows_path.open("a", newline="") as out, cf.ThreadPoolExecutor(args.jobs) as pool:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        if new:
            writer.writeheader()
        futures = {pool.submit(run, commands[s], f["path"], args.limit): (f, s) for f, s in todo}
        for future in cf.as_completed(futures):
            f, s = futures[future]
            answer, cpu = future.result()
            row = {k: f[k] for k in ("set", "puzzle", "family", "encoding", "status")}
            row.update(solver=s, answer=answer, cpu=f"{cpu:.3f}")
            writer.writerow(row)
            out.flush()
            done[(f["set"], f["puzzle"], f["family"], f["encoding"], s)] = row
    wanted = {(f["set"], f["puzzle"], f["family"], f["encoding"], s) for f in files for s in solvers}
    rows = [r for k, r in done.items() if k in wanted]
    print(table(common(rows) if args.common else rows, args.limit))


if __name__ == "__main__":
    main()
