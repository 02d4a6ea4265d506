"""The one place fillsmt runs solver processes: feed stdin, collect output, kill on time-out.

Each solver runs in a new session (its own process group), so a time-out, a stop, an interrupt
or a signal kills the solver and every child it started, and the process is always reaped.
Standard input is written and standard output and error read together by one select loop, so a
script of any size reaches the solver however long it takes to answer, and what the solver
prints is bounded (:func:`fillsmt.limits.max_output`).
"""

from __future__ import annotations

import os
import resource
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, Callable

from fillsmt import limits
from fillsmt.drivers import trace


@dataclass
class ProcessOutcome:
    stdout: str
    stderr: str
    returncode: int | None
    timed_out: bool
    seconds: float
    stopped: bool = False
    #: True when the solver printed more than :func:`fillsmt.limits.max_output` bytes and was killed.
    overflowed: bool = False
    #: True when the run hit its memory limit (a measured run: :mod:`fillsmt.drivers.measure`).
    memout: bool = False
    #: The solver process's own resource usage (``wait4``), where asked for.
    usage: resource.struct_rusage | None = None


#: How a solver process starts: in a process group of its own, so that killing the group ends
#: the solver and anything it started, and the race can stop and continue it for its time slices
#: (:mod:`fillsmt.engine.schedule`). From Python 3.11 only a new group, in fillsmt's session: a new
#: session (``setsid``) would also put the solver in a scheduling group of its own under Linux's
#: autogroup (on by default on most distributions), where it gets as much CPU as the whole of
#: fillsmt. Python 3.10 has no ``process_group``; it keeps the session.
OWN_GROUP: dict = {"process_group": 0} if sys.version_info >= (3, 11) else {"start_new_session": True}


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc``'s whole process group (it was started in a group of its own, :data:`OWN_GROUP`),
    and ``proc`` itself while it is not reaped. Never reaps it: :meth:`subprocess.Popen.kill` would
    (it polls first), and a caller that reads the solver's resource usage with ``wait4`` would find
    no child to wait for."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if proc.returncode is None:  # not reaped: the pid is still this child's
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


_POLL = 0.02  # seconds between looks at the stop event; the process's own exit is seen at once
_CHUNK = 1 << 16


class _Exchange:
    """Standard input written, standard output and error read, with one selector."""

    def __init__(self, proc: subprocess.Popen, data: bytes):
        # Started with all three streams as pipes (run_process).
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.proc = proc
        self.streams: tuple[IO[bytes], IO[bytes], IO[bytes]] = (proc.stdin, proc.stdout, proc.stderr)
        self.data = memoryview(data)
        self.sent = 0
        self.stdin_fd = proc.stdin.fileno()
        self.chunks: dict[int, list[bytes]] = {proc.stdout.fileno(): [], proc.stderr.fileno(): []}
        self.size = 0
        self.selector = selectors.DefaultSelector()
        for stream in (proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream.fileno(), selectors.EVENT_READ)
        os.set_blocking(self.stdin_fd, False)
        if data:
            self.selector.register(self.stdin_fd, selectors.EVENT_WRITE)
        else:
            self._close_stdin()

    def _close_stdin(self) -> None:
        try:
            self.streams[0].close()
        except OSError:
            pass

    @property
    def open(self) -> bool:
        return bool(self.selector.get_map())

    def step(self, wait: float | None, cap: int) -> bool:
        """Move data for at most ``wait`` seconds; False when the output went past ``cap``."""
        for key, _ in self.selector.select(wait):
            fd = key.fd
            if fd == self.stdin_fd:
                self._write(fd)
                continue
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(fd)
                continue
            self.chunks[fd].append(chunk)
            self.size += len(chunk)
            if self.size > cap:
                return False
        return True

    def _write(self, fd: int) -> None:
        try:
            self.sent += os.write(fd, self.data[self.sent : self.sent + _CHUNK])
        except BlockingIOError:
            return
        except (BrokenPipeError, OSError):  # the solver stopped reading: its answer says why
            self.sent = len(self.data)
        if self.sent >= len(self.data):
            self.selector.unregister(fd)
            self._close_stdin()

    def text(self, stream: IO[bytes]) -> str:
        return b"".join(self.chunks[stream.fileno()]).decode("utf-8", errors="replace")

    def close(self) -> None:
        self.selector.close()
        for stream in self.streams:
            try:
                stream.close()
            except OSError:
                pass


def _reap(proc: subprocess.Popen) -> resource.struct_rusage:
    """Wait for ``proc`` with ``wait4``, for its own resource usage (only where nothing else waits
    for it: a race's scheduler polls its processes)."""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage


def _communicate(
    proc: subprocess.Popen, data: bytes, timeout: float | None, stop: threading.Event | None, usage: list | None
) -> tuple[str, str, bool, bool, bool]:
    """(stdout, stderr, timed_out, stopped, overflowed), killing the group at the deadline, on
    ``stop``, or when the solver prints more than the limit; ``usage`` (a list) gets the process's
    resource usage."""
    deadline = None if timeout is None else time.monotonic() + timeout
    cap = limits.max_output()
    exchange = _Exchange(proc, data)
    timed_out = stopped = overflowed = False
    try:
        while exchange.open:
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                timed_out = True
            elif stop is not None and stop.is_set():
                stopped = True
            if timed_out or stopped:
                break
            wait = None if stop is None else _POLL
            if deadline is not None:
                wait = deadline - now if wait is None else min(wait, deadline - now)
            if not exchange.step(wait, cap):
                overflowed = True
                break
        if timed_out or stopped or overflowed:
            kill_group(proc)
        if usage is None:
            proc.wait()
        else:
            usage.append(_reap(proc))
        _, stdout, stderr = exchange.streams
        return exchange.text(stdout), exchange.text(stderr), timed_out, stopped, overflowed
    finally:
        exchange.close()


OneShotRunner = Callable[[list[str], str, "float | None"], "ProcessOutcome | None"]
_one_shot_runner: OneShotRunner | None = None


def measure_one_shot_runs(runner: OneShotRunner | None) -> None:
    """From now on, hand every one-shot run (no ``stop``, no ``share``) to ``runner(argv,
    stdin_text, timeout)`` (:mod:`fillsmt.drivers.measure`), which runs it or, returning None,
    leaves it to run as always; None: every run as always."""
    global _one_shot_runner
    _one_shot_runner = runner


def run_process(
    argv: list[str],
    stdin_text: str,
    timeout: float | None,
    stop: threading.Event | None = None,
    share: Any = None,
) -> ProcessOutcome:
    """Run ``argv`` with ``stdin_text`` on standard input; kill its group at ``timeout`` seconds,
    as soon as ``stop`` is set (used by the portfolio to stop the losers), or when it prints more
    than :func:`fillsmt.limits.max_output` bytes. ``share`` (:class:`fillsmt.engine.schedule.Share`) is
    told of the process as soon as it starts. While a benchmark measures its runs
    (:func:`measure_one_shot_runs`), a run with neither ``stop`` nor ``share`` is the measurer's.

    Raises ``OSError`` when the program cannot be started.
    """
    if _one_shot_runner is not None and stop is None and share is None:
        measured = _one_shot_runner(argv, stdin_text, timeout)
        if measured is not None:
            return measured
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **OWN_GROUP)
    if share is not None:
        share.started(proc)
    return exchange(proc, stdin_text, timeout, stop, start)


def exchange(
    proc: subprocess.Popen,
    stdin_text: str,
    timeout: float | None,
    stop: threading.Event | None,
    start: float,
    usage: bool = False,
) -> ProcessOutcome:
    """Feed a started solver process ``stdin_text`` and collect what it prints (:func:`run_process`);
    with ``usage``, the outcome holds the process's own resource usage."""
    data = stdin_text.encode("utf-8")
    tracing = trace.path() is not None
    if tracing:
        who, channel = shlex.join(proc.args if isinstance(proc.args, list) else [str(proc.args)]), f"pid {proc.pid}"
        trace.sent(who, channel, stdin_text)
    used: list | None = [] if usage else None
    try:
        out, err, timed_out, stopped, overflowed = _communicate(proc, data, timeout, stop, used)
    except BaseException:
        kill_group(proc)
        proc.wait()
        raise
    finally:
        # The solver may have left children in its group even when it exited by itself.
        kill_group(proc)
    if tracing:
        note = (
            "timed out, killed"
            if timed_out
            else "stopped"
            if stopped
            else "printed too much, killed"
            if overflowed
            else f"exit code {proc.returncode}"
        )
        trace.received(who, channel, out + err, note)
    return ProcessOutcome(
        out,
        err,
        proc.returncode,
        timed_out,
        time.perf_counter() - start,
        stopped,
        overflowed,
        usage=used[0] if used else None,
    )
