"""The one solver registry: drivers declare what they can do, and any SMT-LIB binary is one call."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, solver_or_skip
from fillsmt.cli import main
from fillsmt.drivers.registry import add_generic_solver, get_driver, remove_solver, session_solver_names, solver_names
from fillsmt.errors import InputError, SolverError

G12 = INSTANCES / "g12-5x5.txt"


def test_drivers_declare_what_they_can_do():
    can = {name: (d.supports_session, d.supports_stop, d.supports_optimisation)
           for name in ("z3", "yices", "z3-api", "pysmt", "portfolio", "yices-api", "cvc5", "bitwuzla", "z3-prop")
           for d in [get_driver(name)]}
    assert can == {"z3": (True, True, True), "yices": (True, True, False), "z3-api": (True, False, True),
                   "pysmt": (True, True, False), "portfolio": (False, True, False),
                   "yices-api": (True, False, False), "cvc5": (True, True, False), "bitwuzla": (True, True, False),
                   "z3-prop": (True, True, False)}
    assert session_solver_names() == ["yices", "z3", "z3-api", "pysmt", "yices-api", "cvc5", "bitwuzla", "z3-prop"]
    with pytest.raises(SolverError, match="offers no incremental session"):
        get_driver("portfolio").require_session()
    with pytest.raises(InputError, match="cannot run in a portfolio"):
        get_driver("portfolio:yices,z3-api")


def test_a_generic_binary_is_one_call_and_serves_every_mode():
    solver_or_skip("yices")
    add_generic_solver("my-yices", ["yices-smt2"], session_argv=["yices-smt2", "--incremental"])
    try:
        assert "my-yices" in solver_names()
        driver = get_driver("my-yices")
        assert (driver.name, driver.supports_session, driver.session_args) == ("my-yices", True, ("--incremental",))
        runner = CliRunner()
        plain = runner.invoke(main, ["solve", "-s", "my-yices", "--no-presolve", str(G12)])
        assert plain.exit_code == 0, plain.output
        unique = runner.invoke(main, ["solve", "-s", "my-yices", "--unique", "--no-presolve", str(G12)])
        assert unique.exit_code == 0 and "unique (the solver proved there is no other solution)" in unique.stderr
        counted = runner.invoke(main, ["count", "-s", "my-yices", str(G12)])
        assert (counted.exit_code, counted.stdout) == (0, f"{G12}: 1 solution\n")
        assert "my-yices" in runner.invoke(main, ["solvers"]).stdout
    finally:
        remove_solver("my-yices")
    assert "my-yices" not in solver_names()


def test_a_session_command_must_extend_the_one_shot_command():
    with pytest.raises(InputError, match="must start with the one-shot command"):
        add_generic_solver("odd", ["a", "b"], session_argv=["c"])
    assert "odd" not in solver_names()
