"""The one registry of solvers: each ``--solver`` name and how its driver is made.

Adding an SMT-LIB 2 solver binary is one call, in the spirit of pysmt's ``add_generic_solver``::

    from fillsmt.drivers.registry import add_generic_solver
    add_generic_solver("cvc5", ["cvc5", "--lang", "smt2", "--produce-models"],
                       session_argv=["cvc5", "--lang", "smt2", "--produce-models", "--incremental"])

A driver written in Python (a library API) is added with :func:`add_solver`. What each solver
can do (sessions, being stopped, optimisation) is declared by its driver, never typed out here.
"""

from __future__ import annotations

from typing import Callable

from fillsmt.drivers.api_drivers import BitwuzlaDriver, Cvc5Driver, Z3PropDriver, Z3PropLazyDriver
from fillsmt.drivers.base import Driver
from fillsmt.drivers.binaries import CommandDriver, yices_binary, z3_binary
from fillsmt.drivers.portfolio import portfolio
from fillsmt.drivers.pysmt_driver import PysmtDriver
from fillsmt.drivers.yices_api import YicesApiDriver
from fillsmt.drivers.z3api import Z3ApiDriver
from fillsmt.errors import InputError

_FACTORIES: dict[str, Callable[[], Driver]] = {
    "z3": z3_binary,
    "yices": yices_binary,
    "z3-api": Z3ApiDriver,
    "pysmt": PysmtDriver,
    "yices-api": YicesApiDriver,
    "cvc5": Cvc5Driver,
    "bitwuzla": BitwuzlaDriver,
    "z3-prop": Z3PropDriver,
    "z3-prop-lazy": Z3PropLazyDriver,
    "portfolio": lambda: portfolio(None, get_driver),
}


def add_solver(name: str, factory: Callable[[], Driver]) -> None:
    """Make ``--solver name`` build its driver with ``factory()``."""
    _FACTORIES[name] = factory


def add_generic_solver(name: str, argv: list[str], session_argv: list[str] | None = None,
                       install_hint: str = "", optimisation: bool = False) -> None:
    """Register any SMT-LIB 2 binary reading the script on standard input: ``argv`` for one-shot
    runs, ``session_argv`` (default: ``argv``) for an incremental session kept open on a pipe."""
    session = list(session_argv or argv)
    if session[: len(argv)] != list(argv):
        raise InputError(f"solver {name!r}: the session command must start with the one-shot command {argv}")

    def make() -> CommandDriver:
        driver = CommandDriver(list(argv), name=name, install_hint=install_hint,
                               session_args=tuple(session[len(argv):]))
        driver.supports_optimisation = optimisation
        return driver

    add_solver(name, make)


def remove_solver(name: str) -> None:
    _FACTORIES.pop(name, None)


def solver_names() -> list[str]:
    return list(_FACTORIES)


def get_driver(name: str, solver_cmd: str | None = None) -> Driver:
    """The driver for ``--solver name`` (or for ``--solver-cmd``, which wins when given)."""
    if solver_cmd is not None:
        return CommandDriver.from_command_line(solver_cmd)
    if name in _FACTORIES:
        return _FACTORIES[name]()
    if name.startswith("pysmt:") and len(name) > len("pysmt:"):
        return PysmtDriver(name.split(":", 1)[1])
    if name.startswith("portfolio:"):
        return portfolio(name.split(":", 1)[1], get_driver)
    raise InputError(f"unknown solver {name!r}; choose one of {', '.join(_FACTORIES)}, pysmt:NAME, "
                     f"or give --solver-cmd")


def session_solver_names(first: str = "yices") -> list[str]:
    """The registered solvers that offer an incremental session, ``first`` first."""
    names = [n for n in _FACTORIES if get_driver(n).supports_session]
    return sorted(names, key=lambda n: n != first)


__all__ = ["add_generic_solver", "add_solver", "get_driver", "remove_solver", "session_solver_names",
           "solver_names"]
