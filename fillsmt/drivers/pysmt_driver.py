"""pysmt: the same SMT-LIB text, parsed and solved by pysmt with one of its installed solvers.

The work happens in :mod:`fillsmt.drivers.pysmt_worker`, run as a child process through the
same process runner as the solver binaries, so ``--timeout`` kills it the same way.
"""

from __future__ import annotations

import functools
import importlib.util
import sys

from fillsmt.drivers.base import Driver, RunResult
from fillsmt.drivers.binaries import outcome_result
from fillsmt.drivers.process import run_process
from fillsmt.errors import SolverMissing


@functools.lru_cache(maxsize=None)
def installed_backends() -> tuple[str, ...]:
    if importlib.util.find_spec("pysmt") is None:
        return ()
    from fillsmt.drivers.pysmt_worker import installed_solvers

    return tuple(installed_solvers())


class PysmtDriver(Driver):
    install_hint = "pip install pysmt z3-solver"
    supports_session = True
    supports_stop = True

    def __init__(self, backend: str = "auto"):
        self.backend = backend
        self.name = "pysmt" if backend == "auto" else f"pysmt:{backend}"

    def _backend(self) -> str | None:
        solvers = installed_backends()
        if self.backend == "auto":
            return solvers[0] if solvers else None
        return self.backend if self.backend in solvers else None

    def available(self) -> bool:
        return self._backend() is not None

    def version(self) -> str | None:
        backend = self._backend()
        if backend is None:
            return None
        import pysmt

        return f"pysmt {pysmt.__version__} with {backend}"

    def location(self) -> str:
        spec = importlib.util.find_spec("pysmt")
        return spec.origin if spec and spec.origin else ""

    def missing_message(self) -> str:
        if importlib.util.find_spec("pysmt") is None:
            return "solver 'pysmt' needs the pysmt package; install it with: pip install pysmt"
        have = ", ".join(installed_backends()) or "none"
        return (
            f"pysmt has no solver {self.backend!r} installed (installed: {have}); "
            f"install one with: pip install z3-solver (or cvc5)"
        )

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        backend = self._backend()
        if backend is None:
            raise SolverMissing(self.missing_message())
        argv = [sys.executable, "-m", "fillsmt.drivers.pysmt_worker", backend]
        outcome = run_process(argv, script, timeout, stop)
        return outcome_result(self.name, outcome, timeout)

    def open_session(self, share=None):
        """pysmt's SMT-LIB interpreter in a worker process that answers command by command."""
        from fillsmt.drivers.session import ProcessSession

        backend = self._backend()
        if backend is None:
            raise SolverMissing(self.missing_message())
        session = ProcessSession(
            [sys.executable, "-m", "fillsmt.drivers.pysmt_worker", backend, "--incremental"], self.name
        )
        session.reads_packed = False  # pysmt's interpreter: no define-fun
        return session
