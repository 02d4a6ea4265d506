"""Busy-loop processes beside a benchmark: the load users run fillsmt beside."""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` processes spinning on a CPU each while the block runs; killed when it ends."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for p in loops:
            p.kill()
            p.wait()
