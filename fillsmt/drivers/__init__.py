"""Solver drivers behind one interface (:class:`~fillsmt.drivers.base.Driver`), and the registry
that names them (:mod:`fillsmt.drivers.registry`).

Adding a solver means registering a driver; the encoders never change.
"""

from __future__ import annotations

from fillsmt.drivers.base import Driver, RunResult
from fillsmt.drivers.binaries import CommandDriver
from fillsmt.drivers.portfolio import PortfolioDriver
from fillsmt.drivers.pysmt_driver import PysmtDriver
from fillsmt.drivers.registry import _FACTORIES as SOLVERS, add_generic_solver, add_solver, get_driver
from fillsmt.drivers.z3api import Z3ApiDriver

__all__ = ["CommandDriver", "Driver", "PortfolioDriver", "PysmtDriver", "RunResult", "SOLVERS", "Z3ApiDriver",
           "add_generic_solver", "add_solver", "get_driver"]
