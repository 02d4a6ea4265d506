"""cvc5, Bitwuzla and Z3-with-a-propagator through their Python APIs (pip wheels), each run in a
worker process.

Neither API can be stopped from another thread, so the SMT-LIB text goes to
:mod:`fillsmt.drivers.api_worker` in a child process: one-shot runs through the process runner,
sessions through :class:`~fillsmt.drivers.session.ProcessSession`, and a time-out kills the
worker's whole process group as it does a solver binary's.
"""

from __future__ import annotations

import importlib.util
import re
import sys

from fillsmt.drivers.base import Driver, RunResult
from fillsmt.drivers.binaries import outcome_result
from fillsmt.drivers.process import run_process
from fillsmt.drivers.session import ProcessSession
from fillsmt.errors import InputError, SolverMissing

_INTEGER_LOGIC = re.compile(r"\(set-logic\s+\S*(?:LIA|LIRA|NIA|IDL)\S*\)")


class ApiWorkerDriver(Driver):
    """A solver's Python API behind :mod:`fillsmt.drivers.api_worker`."""

    supports_session = True
    supports_stop = True
    #: the Python module the worker imports, and the pip distribution that provides it
    module: str
    distribution: str
    label: str

    def _argv(self, incremental: bool) -> list[str]:
        argv = [sys.executable, "-m", "fillsmt.drivers.api_worker", self.name]
        return argv + ["--incremental"] if incremental else argv

    def available(self) -> bool:
        return importlib.util.find_spec(self.module) is not None

    def version(self) -> str | None:
        import importlib.metadata  # here, not at the top: 28 ms of every command's start-up

        if not self.available():
            return None
        try:
            return f"{self.label} {importlib.metadata.version(self.distribution)} (Python API, worker process)"
        except importlib.metadata.PackageNotFoundError:
            return f"{self.label} (Python API, worker process)"

    def location(self) -> str:
        spec = importlib.util.find_spec(self.module)
        return spec.origin or "" if spec else ""

    def missing_message(self) -> str:
        return (
            f"solver {self.name!r} needs the {self.module} Python package; install it with: "
            f"pip install {self.distribution} (or pip install 'fillsmt[{self.name}]')"
        )

    def refuse(self, script: str) -> None:
        """Raise :class:`InputError` for a script this solver cannot take (none by default)."""

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        self.require()
        self.refuse(script)
        outcome = run_process(self._argv(False), script, timeout, stop, share)
        return outcome_result(self.name, outcome, timeout)

    def open_session(self, share=None):
        self.require()
        return GuardedSession(self, self._argv(True), share)


class Cvc5Driver(ApiWorkerDriver):
    name = "cvc5"
    module = "cvc5"
    distribution = "cvc5"
    label = "cvc5"
    install_hint = "pip install cvc5"


class BitwuzlaDriver(ApiWorkerDriver):
    """Bitwuzla decides bit-vectors, arrays and floating point: no integers."""

    name = "bitwuzla"
    module = "bitwuzla"
    distribution = "bitwuzla"
    label = "Bitwuzla"
    install_hint = "pip install bitwuzla"
    theory = "QF_BV"

    def refuse(self, script: str) -> None:
        if _INTEGER_LOGIC.search(script[:4000]) or "Int)" in script[:4000]:
            raise InputError(
                "bitwuzla decides bit-vectors and Booleans, not integers: choose a bit-vector or "
                "Boolean encoding (`fillsmt encode --help` lists them), or leave -e out to get the "
                "kind's bit-vector encoding, where it has one"
            )


class Z3PropDriver(ApiWorkerDriver):
    """Z3 with a kind's user propagator inside its search (the one the script's ``set-info``
    names), eager checks at every fixed atom; a script without it is solved by plain Z3."""

    name = "z3-prop"
    module = "z3"
    distribution = "z3-solver"
    label = "Z3 with the region propagator"
    install_hint = "pip install z3-solver"

    @property
    def propagators(self) -> frozenset[str]:  # type: ignore[override]
        """Every propagator a registered kind declares (:attr:`fillsmt.protocol.Kind.propagators`)."""
        from fillsmt.kinds import propagator_names

        return propagator_names()


class GuardedSession(ProcessSession):
    """A worker session that refuses a script its solver cannot take before sending it."""

    reads_packed = False  # the workers run the commands through their own APIs (no define-fun)

    def __init__(self, driver: ApiWorkerDriver, argv: list[str], share=None):
        self._driver = driver
        super().__init__(argv, driver.name, share=share)

    def load(self, script, timeout: float | None = None) -> None:
        try:
            self._driver.refuse(script.text()[:4000])
        except InputError:
            self.close()
            raise
        super().load(script, timeout)


__all__ = ["ApiWorkerDriver", "BitwuzlaDriver", "Cvc5Driver", "SolverMissing", "Z3PropDriver"]
