"""Z3 in-process: the same SMT-LIB text, evaluated by the Z3 Python API.

``Z3_eval_smtlib2_string`` runs every command of the script (check-sat and get-value included)
and returns what the z3 binary would print, so the answer is read by the same parser. A
time-out interrupts the context from a watchdog thread; the run then reports a time-out.
"""

from __future__ import annotations

import threading
import time

from fillsmt.drivers import trace
from fillsmt.drivers.base import Driver, RunResult, in_process_result
from fillsmt.drivers.session import Session
from fillsmt.engine.interrupts import native_call
from fillsmt.errors import SolverMissing


class Z3ApiDriver(Driver):
    name = "z3-api"
    in_process = True
    install_hint = "pip install z3-solver"
    supports_session = True
    supports_optimisation = True

    def missing_message(self) -> str:
        return "solver 'z3-api' needs the z3 Python module; install it with: pip install z3-solver"

    def _z3(self):
        try:
            import z3
        except ImportError:
            raise SolverMissing(self.missing_message()) from None
        return z3

    def available(self) -> bool:
        try:
            self._z3()
        except SolverMissing:
            return False
        return True

    def version(self) -> str | None:
        try:
            return "Z3 " + self._z3().get_version_string() + " (Python API)"
        except SolverMissing:
            return None

    def location(self) -> str:
        try:
            return self._z3().__file__
        except SolverMissing:
            return ""

    def open_session(self, share=None) -> "Z3ApiSession":
        return Z3ApiSession(self._z3())

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        z3 = self._z3()
        ctx = z3.Context()
        trace.sent(self.name, "in-process", script)
        output, fired, seconds = _evaluate(z3, ctx, script, timeout)
        trace.received(self.name, "in-process", output, "interrupted at the time-out" if fired else "")
        return in_process_result(self.name, output, fired, seconds, timeout, "interrupted")


def _evaluate(z3, ctx, script: str, timeout: float | None) -> tuple[str, bool, float]:
    """Run SMT-LIB commands in ``ctx``: (what they printed, whether the time-out fired, seconds).

    Z3 works in a helper thread while this one waits, so a signal (:mod:`fillsmt.engine.interrupts`)
    is handled at once: it interrupts the context and propagates."""
    fired = threading.Event()
    printed: list[str] = []

    def interrupt() -> None:
        fired.set()
        ctx.interrupt()

    def work() -> None:
        try:
            printed.append(z3.Z3_eval_smtlib2_string(ctx.ref(), script))
        except z3.Z3Exception as e:
            # The exception carries everything the commands printed, errors included
            # (e.g. ``unsat`` followed by get-value's "model is not available").
            printed.append(e.value.decode() if isinstance(e.value, bytes) else str(e.value))

    timer = threading.Timer(timeout, interrupt) if timeout else None
    start = time.perf_counter()
    if timer:
        timer.daemon = True
        timer.start()
    try:
        native_call(work, ctx.interrupt, "z3-api")
    finally:
        if timer:
            timer.cancel()
    return "".join(printed), fired.is_set(), time.perf_counter() - start


class Z3ApiSession(Session):
    """One Z3 context kept between calls: ``Z3_eval_smtlib2_string`` keeps its declarations,
    assertions and push/pop levels. A time-out interrupts the check and closes the session, as
    for the solver processes."""

    name = "z3-api"

    def __init__(self, z3):
        super().__init__()
        self._z3 = z3
        self._ctx = z3.Context()
        self._open = True

    @property
    def alive(self) -> bool:
        return self._open

    def _exchange(self, text: str, timeout: float | None) -> tuple[str, bool]:
        output, fired, _ = _evaluate(self._z3, self._ctx, text, timeout)
        if fired:
            self.close()
            return output, True
        return output, False

    def close(self) -> None:
        self._open = False
