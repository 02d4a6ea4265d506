"""Solver drivers behind one interface, and the registry that names them.

Adding a solver means adding a driver here; the encoders never change.
"""

from __future__ import annotations

from typing import Callable

from fillsmt.drivers.api_drivers import BitwuzlaDriver, Cvc5Driver
from fillsmt.drivers.base import Driver, RunResult
from fillsmt.drivers.binaries import CommandDriver, yices_binary, z3_binary
from fillsmt.drivers.portfolio import PortfolioDriver, portfolio
from fillsmt.drivers.pysmt_driver import PysmtDriver
from fillsmt.drivers.yices_api import YicesApiDriver
from fillsmt.drivers.z3api import Z3ApiDriver
from fillsmt.errors import InputError

SOLVERS: dict[str, Callable[[], Driver]] = {
    "z3": z3_binary,
    "yices": yices_binary,
    "z3-api": Z3ApiDriver,
    "pysmt": PysmtDriver,
    "yices-api": YicesApiDriver,
    "cvc5": Cvc5Driver,
    "bitwuzla": BitwuzlaDriver,
    "portfolio": lambda: portfolio(None, get_driver),
}
"""The solvers ``--solver`` names. ``pysmt:NAME`` picks one of pysmt's solvers;
``portfolio:A,B`` races solvers A and B (default: yices and z3)."""


def get_driver(name: str, solver_cmd: str | None = None) -> Driver:
    """The driver for ``--solver name`` (or for ``--solver-cmd``, which wins when given)."""
    if solver_cmd is not None:
        return CommandDriver.from_command_line(solver_cmd)
    if name in SOLVERS:
        return SOLVERS[name]()
    if name.startswith("pysmt:") and len(name) > len("pysmt:"):
        return PysmtDriver(name.split(":", 1)[1])
    if name.startswith("portfolio:"):
        return portfolio(name.split(":", 1)[1], get_driver)
    raise InputError(f"unknown solver {name!r}; choose one of {', '.join(SOLVERS)}, pysmt:NAME, "
                     f"or give --solver-cmd")


__all__ = ["CommandDriver", "Driver", "PortfolioDriver", "PysmtDriver", "RunResult", "SOLVERS", "Z3ApiDriver", "get_driver"]
