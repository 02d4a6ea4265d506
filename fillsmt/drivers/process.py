"""The one place fillsmt runs solver processes: feed stdin, collect output, kill on time-out.

Each solver runs in a new session (its own process group), so a time-out or an interrupt kills
the solver and every child it started, and the process is always reaped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass


@dataclass
class ProcessOutcome:
    stdout: str
    stderr: str
    returncode: int | None
    timed_out: bool
    seconds: float


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run_process(argv: list[str], stdin_text: str, timeout: float | None) -> ProcessOutcome:
    """Run ``argv`` with ``stdin_text`` on standard input; at ``timeout`` seconds kill its group.

    Raises ``OSError`` when the program cannot be started.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, text=True, encoding="utf-8", errors="replace",
    )
    try:
        try:
            out, err = proc.communicate(stdin_text, timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            timed_out = True
    except BaseException:
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        # The solver may have left children in its group even when it exited by itself.
        if proc.returncode is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    return ProcessOutcome(out or "", err or "", proc.returncode, timed_out, time.perf_counter() - start)
