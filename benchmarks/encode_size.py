"""Time, peak memory and script size of `fillsmt encode` on empty square grids (issue 20).

    python benchmarks/encode_size.py [--sizes 100 200 300] [--timeout T]

Each run is its own `fillsmt encode` process, one at a time, writing to a temporary file; peak
memory is the process's maximum resident set (``wait4``). Prints a markdown table: wall time,
peak memory, script size, and both per cell (linear growth shows as flat per-cell columns).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(args: list[str]) -> tuple[int, float, int]:
    """(exit code, seconds, peak KiB) of ``fillsmt ARGS``."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "fillsmt", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 300])
    parser.add_argument("--timeout", type=float)
    args = parser.parse_args()
    print("| grid | presolve | exit | time (s) | peak memory (MB) | script (MB) | ms per cell | KB memory per cell | bytes of script per cell |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            grid = Path(tmp) / f"empty-{n}.txt"
            grid.write_text(f"{n} {n}\n" + "\n".join(" ".join(["0"] * n) for _ in range(n)) + "\n")
            for presolve in ("--presolve", "--no-presolve"):
                out = Path(tmp) / "out.smt2"
                out.unlink(missing_ok=True)
                extra = ["--timeout", str(args.timeout)] if args.timeout else []
                code, seconds, kib = run(["encode", presolve, *extra, str(grid), "-o", str(out)])
                size = out.stat().st_size if out.exists() else 0
                cells = n * n
                print(f"| {n}x{n} | {presolve.lstrip('-')} | {code} | {seconds:.1f} | {kib / 1024:.0f} | "
                      f"{size / 1e6:.1f} | {1000 * seconds / cells:.2f} | {kib / cells:.2f} | {size / cells:.0f} |",
                      flush=True)


if __name__ == "__main__":
    main()
