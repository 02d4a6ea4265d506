"""What a command imports: the CLI starts without loading what the command does not use.

Each test runs the command in a fresh Python process (the ``fillsmt`` program's entry point,
:func:`fillsmt.entry.main`, with that command line) and reads the modules it ended up with from ``sys.modules``: the solver libraries (z3,
pysmt, the yices bindings), the kinds a command did not ask for, the drivers and the solving
machinery must load on first use only. Timings are not measured here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PUZZLE = REPO / "instances" / "fillomino" / "g12-5x5.txt"
MARK = "MODULES:"

CHILD = f"""
import sys
sys.argv = ["fillsmt", *sys.argv[1:]]
from fillsmt.entry import main
try:
    main()
except SystemExit:
    pass
print("\\n{MARK}" + " ".join(sorted(sys.modules)))
"""

SOLVER_LIBRARIES = ("z3", "pysmt", "yices", "yices_api", "cvc5", "bitwuzla")
KIND_PACKAGES = ("fillsmt.fillomino", "fillsmt.blocknumber", "fillsmt.tiling")
SOLVING = ("fillsmt.engine.pipeline", "fillsmt.engine.solutions", "fillsmt.engine.racers", "fillsmt.smtlib", "fillsmt.drivers.base",
           "fillsmt.drivers.binaries", "fillsmt.drivers.session", "fillsmt.drivers.registry", "fillsmt.bench",
           "fillsmt.formats")
HEAVY_STDLIB = ("importlib.metadata", "ctypes", "subprocess", "pickle", "json", "multiprocessing", "statistics")


def modules_after(*args: str) -> set[str]:
    """The modules loaded once ``fillsmt ARGS`` has run in a fresh process (its exit code aside)."""
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120)
    line = next((x for x in done.stdout.splitlines() if x.startswith(MARK)), None)
    assert line is not None, f"the child printed no module list: {done.stdout[-500:]} {done.stderr[-2000:]}"
    return set(line[len(MARK):].split())


def loaded(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that are one of ``roots`` or inside one."""
    return sorted(m for m in modules if any(m == r or m.startswith(r + ".") for r in roots))


def test_loaded_matches_a_module_and_what_is_inside_it_only():
    assert loaded({"z3", "z3.z3core", "z3x", "fillsmt.engine.pipeline", "fillsmt.pipelines"}, ("z3", "fillsmt.engine.pipeline")) \
        == ["fillsmt.engine.pipeline", "z3", "z3.z3core"]


@pytest.mark.parametrize("option", ["--version", "-V"])
def test_version_alone_loads_neither_click_nor_the_cli(option):
    modules = modules_after(option)
    assert "fillsmt.entry" in modules  # the child did run the program
    assert loaded(modules, ("click", "fillsmt.cli", "fillsmt.kinds", "fillsmt.protocol", "typing")
                  + SOLVER_LIBRARIES + KIND_PACKAGES + SOLVING + HEAVY_STDLIB) == []


@pytest.mark.parametrize("args", [["--version"], ["-V"], ["--version", "solve"]])
def test_the_program_prints_the_version_as_the_cli_option_does(args):
    from click.testing import CliRunner

    from fillsmt.cli import main

    done = subprocess.run([sys.executable, "-m", "fillsmt", *args], capture_output=True, text=True, timeout=120)
    expected = CliRunner().invoke(main, args)
    assert (done.returncode, done.stdout, done.stderr) == (expected.exit_code, expected.output, "")
    assert done.stdout.startswith("fillsmt, version ")


def test_version_with_another_option_loads_the_cli_but_no_kind_and_no_solver():
    modules = modules_after("--trace", "/dev/null", "--version")
    assert "fillsmt.cli" in modules
    assert loaded(modules, SOLVER_LIBRARIES + KIND_PACKAGES + SOLVING + HEAVY_STDLIB) == []
    assert loaded(modules, ("fillsmt.protocol", "fillsmt.cli.solve")) == []


SOLVER_DRIVERS = ("fillsmt.drivers.z3api", "fillsmt.drivers.yices_api", "fillsmt.drivers.pysmt_driver",
                  "fillsmt.drivers.api_drivers", "fillsmt.drivers.portfolio", "fillsmt.drivers.binaries")


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"]], ids=["help", "solve-help"])
def test_help_loads_no_solver_library_no_solver_driver_and_no_bench_runner(args):
    modules = modules_after(*args)
    assert "fillsmt.cli" in modules
    assert loaded(modules, SOLVER_LIBRARIES + SOLVER_DRIVERS) == []  # the solvers' names come from the registry
    assert loaded(modules, ("fillsmt.bench.run", "fillsmt.bench.summary", "multiprocessing", "statistics",
                            "importlib.metadata")) == []


def test_the_command_list_loads_no_kind():
    modules = modules_after("--help")
    assert "fillsmt.cli.bench" in modules  # every command was imported for its line of help
    assert loaded(modules, ("fillsmt.fillomino.kind", "fillsmt.blocknumber.kind", "fillsmt.tiling.kind")) == []


def test_solve_help_loads_no_solving_machinery():
    modules = modules_after("solve", "--help")
    assert "fillsmt.cli.solve" in modules
    assert loaded(modules, ("fillsmt.engine.pipeline", "fillsmt.engine.solutions", "fillsmt.engine.racers", "fillsmt.bench")) == []


def test_solving_a_fillomino_loads_neither_the_other_kinds_nor_another_solver():
    modules = modules_after("solve", str(PUZZLE))
    assert "fillsmt.fillomino.kind" in modules and "fillsmt.engine.pipeline" in modules  # it did solve
    assert loaded(modules, SOLVER_LIBRARIES) == []
    assert loaded(modules, ("fillsmt.blocknumber.kind", "fillsmt.tiling.kind", "fillsmt.bench")) == []
    others = ("fillsmt.drivers.z3api", "fillsmt.drivers.yices_api", "fillsmt.drivers.pysmt_driver",
              "fillsmt.drivers.portfolio")  # (the staged race makes, not starts, a z3-prop driver: api_drivers)
    assert loaded(modules, others) == []


SCRIPT_WORK = ("fillsmt.smtlib.script", "fillsmt.smtlib.header", "fillsmt.fillomino.encode_tree",
               "fillsmt.fillomino.encode_onehot", "fillsmt.fillomino.encode_thesis", "fillsmt.fillomino.lazy",
               "fillsmt.fillomino.blocking", "fillsmt.engine.solutions", "fillsmt.engine.racers",
               "fillsmt.drivers.process", "fillsmt.drivers.session", "fillsmt.drivers.api_drivers",
               "fillsmt.smtlib.answer", "fillsmt.smtlib.sexpr", "fillsmt.fillomino.decode")
"""What writes a script, reads a solver's answer, runs a solver or races: a solve that the rules
settle needs none of it."""
UNNEEDED_STDLIB = ("pkgutil", "sysconfig")
"""What a solve the rules settle has no use for: resolving a lazy name needs no pkgutil, and the
solver's binary (which the request checks for) is found beside the interpreter without sysconfig."""


@pytest.mark.parametrize("puzzle, how", [
    (REPO / "instances" / "fillomino" / "random-7x7.txt", "solved by the deduction rules"),
    # three nodes (a guess): well inside the quick search's CPU budget on a loaded machine, as a
    # test of what the solve imports must be (12 nodes of a 10x10 came within a few ms of it)
    (REPO / "instances" / "fillomino" / "g12-5x5.txt", "before any solver started"),
], ids=["presolve", "quick-search"])
def test_a_solve_the_rules_settle_writes_no_script_and_starts_no_process(puzzle, how):
    """The solve path's imports, pinned: a puzzle the presolve fills, and one the in-process search
    settles before the race, load the kind, its rules and search, and nothing of the scripts,
    the solvers' processes or the race's."""
    done = subprocess.run([sys.executable, "-m", "fillsmt", "solve", "--format", "pretty", str(puzzle)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and how in done.stdout + done.stderr, done.stdout + done.stderr
    modules = modules_after("solve", str(puzzle))
    assert "fillsmt.fillomino.deduce" in modules and "fillsmt.fillomino.verify" in modules  # it did solve
    assert loaded(modules, SCRIPT_WORK + HEAVY_STDLIB + UNNEEDED_STDLIB + ("shlex", "mmap")) == []


@pytest.mark.parametrize("spec, why", [("no_such_module:Kind", "No module named 'no_such_module'"),
                                       ("fillsmt.protocol", "expected module:Class"),
                                       ("fillsmt.protocol:NoSuchKind", "has no attribute 'NoSuchKind'")])
def test_a_plugin_kind_that_cannot_be_resolved_is_a_one_line_error(spec, why):
    import os

    done = subprocess.run([sys.executable, "-m", "fillsmt", "solve", str(PUZZLE)], capture_output=True, text=True,
                          env={**os.environ, "FILLSMT_KINDS": spec}, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith(f"fillsmt: FILLSMT_KINDS: cannot load the kind {spec!r}: ")
    assert why in done.stderr and len(done.stderr.strip().splitlines()) == 1
