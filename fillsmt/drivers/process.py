"""The one place fillsmt runs solver processes: feed stdin, collect output, kill on time-out.

Each solver runs in a new session (its own process group), so a time-out or an interrupt kills
the solver and every child it started, and the process is always reaped.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from fillsmt.drivers import trace


@dataclass
class ProcessOutcome:
    stdout: str
    stderr: str
    returncode: int | None
    timed_out: bool
    seconds: float
    stopped: bool = False


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


_POLL = 0.02  # seconds between looks at the stop event; the process's own exit is seen at once


def _communicate(proc: subprocess.Popen, stdin_text: str, timeout: float | None,
                 stop: threading.Event | None) -> tuple[str, str, bool, bool]:
    """(stdout, stderr, timed_out, stopped), killing the group at the deadline or on ``stop``."""
    if stop is None:
        try:
            out, err = proc.communicate(stdin_text, timeout=timeout)
            return out, err, False, False
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            return out, err, True, False
    # communicate() without a time-out in a thread, watched from here: a communicate() retried
    # after a time slice no longer writes the rest of standard input (CPython registers stdin
    # only on the first call), so a script longer than one slice's worth never arrived.
    box: dict = {}

    def talk() -> None:
        try:
            box["out"] = proc.communicate(stdin_text)
        except BaseException as e:  # handed to the caller below
            box["error"] = e

    talker = threading.Thread(target=talk, daemon=True)
    talker.start()
    deadline = None if timeout is None else time.monotonic() + timeout
    timed_out = stopped = False
    try:
        while talker.is_alive():
            talker.join(_POLL if deadline is None else max(0.0, min(_POLL, deadline - time.monotonic())))
            if not talker.is_alive():
                break
            timed_out = deadline is not None and time.monotonic() >= deadline
            stopped = not timed_out and stop.is_set()
            if timed_out or stopped:
                _kill_group(proc)
                talker.join()
    except BaseException:
        _kill_group(proc)
        talker.join()
        raise
    if "error" in box:
        raise box["error"]
    out, err = box.get("out", ("", ""))
    return out, err, timed_out, stopped


def run_process(argv: list[str], stdin_text: str, timeout: float | None,
                stop: threading.Event | None = None) -> ProcessOutcome:
    """Run ``argv`` with ``stdin_text`` on standard input; kill its group at ``timeout`` seconds,
    or as soon as ``stop`` is set (used by the portfolio to stop the losers).

    Raises ``OSError`` when the program cannot be started.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, text=True, encoding="utf-8", errors="replace",
    )
    tracing = trace.path() is not None
    if tracing:
        who, channel = shlex.join(argv), f"pid {proc.pid}"
        trace.sent(who, channel, stdin_text)
    try:
        out, err, timed_out, stopped = _communicate(proc, stdin_text, timeout, stop)
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
    if tracing:
        note = "timed out, killed" if timed_out else "stopped" if stopped else f"exit code {proc.returncode}"
        trace.received(who, channel, (out or "") + (err or ""), note)
    return ProcessOutcome(out or "", err or "", proc.returncode, timed_out, time.perf_counter() - start, stopped)
