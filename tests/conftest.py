"""Shared test support: where things are, and skips for solvers that are not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from fillsmt.drivers import get_driver

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances" / "fillomino"
DATA = Path(__file__).resolve().parent / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"
SHARED = ROOT.parent / "shared" / "instances" / "fillomino"

SOLVER_NAMES = ["z3", "yices", "z3-api", "pysmt", "pysmt:cvc5"]


def solver_or_skip(name: str):
    driver = get_driver(name)
    if not driver.available():
        pytest.skip(f"solver {name!r} is not installed ({driver.install_hint})")
    return driver


@pytest.fixture(scope="session")
def yices():
    """The yices driver, or the test is skipped."""
    return solver_or_skip("yices")


@pytest.fixture(scope="session")
def z3():
    """The z3 driver, or the test is skipped."""
    return solver_or_skip("z3")


def shared_or_skip(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared puzzle sets sit beside the checkout)")
    return path


@pytest.fixture(params=SOLVER_NAMES)
def any_solver(request):
    return solver_or_skip(request.param)


def patch_plan(monkeypatch, **fields) -> None:
    """Make Fillomino's plan (``Fillomino.plan``) the default one with some of its parts
    (``Plan.of``'s arguments: ``encoding``, ``quick``, ``search``, ``entrants``, ``weight``)
    replaced; a callable value is called with (presolved, proof) for the part's value."""
    from fillsmt.engine.plan import Plan
    from fillsmt.fillomino.kind import Fillomino

    real = Fillomino.plan

    def plan(self, presolved, proof):
        changes = {name: value(presolved, proof) if callable(value) else value for name, value in fields.items()}
        return Plan.of(**{**real(self, presolved, proof).parts(), **changes})

    monkeypatch.setattr(Fillomino, "plan", plan)


TIMED = (
    "test_signals.py",
    "test_interrupts.py",
    "test_command_limits.py",
    "test_race_staged.py",
    "test_race_stall.py",
    "test_cpu_share.py",
)
"""The test files that time how fast a signal or a limit ends a command: with pytest -n they run
on one worker, one test at a time (``--dist loadgroup`` in pyproject.toml)."""


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in TIMED:
            item.add_marker(pytest.mark.xdist_group("timing"))
