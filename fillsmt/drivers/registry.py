"""The one registry of solvers: each ``--solver`` name and how its driver is made.

Adding an SMT-LIB 2 solver binary is one call, in the spirit of pysmt's ``add_generic_solver``::

    from fillsmt.drivers.registry import add_generic_solver
    add_generic_solver("cvc5", ["cvc5", "--lang", "smt2", "--produce-models"],
                       session_argv=["cvc5", "--lang", "smt2", "--produce-models", "--incremental"])

A driver written in Python (a library API) is added with :func:`add_solver`. What each solver
can do (sessions, being stopped, optimisation) is declared by its driver, never typed out here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from fillsmt.errors import InputError
from fillsmt.imports import resolve

if TYPE_CHECKING:
    from fillsmt.drivers.base import Driver
    from fillsmt.drivers.binaries import CommandDriver


def _built_in(path: str) -> Callable[..., Driver]:
    """The factory at ``module:name``, imported when a driver is first made (so naming the
    solvers, e.g. in ``--help``, loads no driver module)."""

    def make(*args) -> Driver:
        return resolve(path)(*args)

    make.__qualname__ = make.__name__ = path.rpartition(":")[2]
    return make


_pysmt_driver = _built_in("fillsmt.drivers.pysmt_driver:PysmtDriver")
_portfolio = _built_in("fillsmt.drivers.portfolio:portfolio")

_FACTORIES: dict[str, Callable[[], Driver]] = {
    "z3": _built_in("fillsmt.drivers.binaries:z3_binary"),
    "yices": _built_in("fillsmt.drivers.binaries:yices_binary"),
    "z3-api": _built_in("fillsmt.drivers.z3api:Z3ApiDriver"),
    "pysmt": _pysmt_driver,
    "yices-api": _built_in("fillsmt.drivers.yices_api:YicesApiDriver"),
    "cvc5": _built_in("fillsmt.drivers.api_drivers:Cvc5Driver"),
    "bitwuzla": _built_in("fillsmt.drivers.api_drivers:BitwuzlaDriver"),
    "z3-prop": _built_in("fillsmt.drivers.api_drivers:Z3PropDriver"),
    "portfolio": lambda: _portfolio(None, get_driver),
    "rules": _built_in("fillsmt.drivers.rules:RulesDriver"),
}
_SEARCHING = {"rules"}
"""The solvers that take the puzzle itself, not a script (``Driver.searches``), known without
making their drivers (for ``--help``)."""


def add_solver(name: str, factory: Callable[[], Driver], searches: bool = False) -> None:
    """Make ``--solver name`` build its driver with ``factory()``; ``searches``: the driver takes
    the puzzle itself, not a script (``Driver.searches``)."""
    _FACTORIES[name] = factory
    if searches:
        _SEARCHING.add(name)
    else:
        _SEARCHING.discard(name)


def add_generic_solver(
    name: str,
    argv: list[str],
    session_argv: list[str] | None = None,
    install_hint: str = "",
    optimisation: bool = False,
) -> None:
    """Register any SMT-LIB 2 binary reading the script on standard input: ``argv`` for one-shot
    runs, ``session_argv`` (default: ``argv``) for an incremental session kept open on a pipe."""
    session = list(session_argv or argv)
    if session[: len(argv)] != list(argv):
        raise InputError(f"solver {name!r}: the session command must start with the one-shot command {argv}")

    def make() -> CommandDriver:
        from fillsmt.drivers.binaries import CommandDriver

        driver = CommandDriver(
            list(argv), name=name, install_hint=install_hint, session_args=tuple(session[len(argv) :])
        )
        driver.supports_optimisation = optimisation
        return driver

    add_solver(name, make)


def remove_solver(name: str) -> None:
    _FACTORIES.pop(name, None)
    _SEARCHING.discard(name)


def solver_names(searching: bool = True) -> list[str]:
    """The registered solvers' names; without ``searching``, only those that take a script."""
    return [n for n in _FACTORIES if searching or n not in _SEARCHING]


def searching_solver_names() -> list[str]:
    """The registered solvers that take the puzzle itself (each kind's own search)."""
    return [n for n in _FACTORIES if n in _SEARCHING]


def get_driver(name: str, solver_cmd: str | None = None) -> Driver:
    """The driver for ``--solver name`` (or for ``--solver-cmd``, which wins when given)."""
    if solver_cmd is not None:
        from fillsmt.drivers.binaries import CommandDriver

        return CommandDriver.from_command_line(solver_cmd)
    if name in _FACTORIES:
        return _FACTORIES[name]()
    if name.startswith("pysmt:") and len(name) > len("pysmt:"):
        return _pysmt_driver(name.split(":", 1)[1])
    if name.startswith("portfolio:"):
        return _portfolio(name.split(":", 1)[1], get_driver)
    raise InputError(
        f"unknown solver {name!r}; choose one of {', '.join(_FACTORIES)}, pysmt:NAME, or give --solver-cmd"
    )


def require_runs(driver: Driver, encoding) -> None:
    """Refuse (an InputError, exit 2) a solver that cannot run ``encoding`` (a
    :class:`fillsmt.protocol.Encoding`), naming the registered solvers that can."""
    why = driver.cannot_run(encoding)
    if why:
        able = [n for n in _FACTORIES if n != "portfolio" and not get_driver(n).cannot_run(encoding)]
        raise InputError(f"{why}; use --solver {' or '.join(able)}" if able else why)


def session_solver_names(first: str = "yices") -> list[str]:
    """The registered solvers that offer an incremental session, ``first`` first."""
    names = [n for n in _FACTORIES if get_driver(n).supports_session]
    return sorted(names, key=lambda n: n != first)


__all__ = [
    "add_generic_solver",
    "add_solver",
    "get_driver",
    "remove_solver",
    "require_runs",
    "searching_solver_names",
    "session_solver_names",
    "solver_names",
]
