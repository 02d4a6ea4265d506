"""The scripts fillsmt writes are SMT-LIB 2.6 and say what they are: every kind, every script
encoding, presolve on and off; encode and export refuse a solving method; the header's golden
text; a session loads a framed script and keeps going."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from conftest import GOLDEN, INSTANCES, ROOT, solver_or_skip
from fillsmt import __version__
from fillsmt.protocol import script_names
from fillsmt.cli import main
from fillsmt.kinds import kinds
from fillsmt.smtlib.answer import render_sexpr
from fillsmt.smtlib.header import quoted_symbol
from fillsmt.smtlib.sexpr import StringLit, read_all

BLOCKNUMBER = ROOT / "instances" / "blocknumber"
RING = "board 3 3\nblocked 1 1\nrotations yes\npiece L\n#.\n##\n"
"""Eight cells round a blocked centre, L-trominoes in any rotation: at most 6 covered."""
RING_BEST = 6


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def here(monkeypatch):
    """Commands run from the repository, with relative puzzle names (as a user types them)."""
    monkeypatch.chdir(ROOT)
    return ROOT


@pytest.fixture
def ring(here, tmp_path):
    path = tmp_path / "ring.txt"
    path.write_text(RING)
    return os.path.relpath(path, here)


def puzzles(ring: str) -> list[tuple[str, str, list[str]]]:
    """(kind, a tiny puzzle as a relative path, the arguments that ask for its script)."""
    return [("fillomino", "instances/fillomino/g12-5x5.txt", []),
            ("blocknumber", "instances/blocknumber/random-5x5.txt", []),
            ("tiling", ring, ["--bound", str(RING_BEST)])]


def script_cases(ring: str):
    """Every kind × script encoding × presolve on/off: (kind, encoding, presolve, path, args)."""
    for kind in kinds():
        for name, path, extra in puzzles(ring):
            if name == kind.name:
                for encoding in script_names(kind):
                    for presolve in ("--presolve", "--no-presolve"):
                        yield kind.name, encoding, presolve, path, [*extra, "-e", encoding, presolve, path]


# --- the smallest logic -----------------------------------------------------------------------------

ARITH = {"+", "-", "*", "<=", "<", ">=", ">", "div", "mod", "abs"}
INT_COMPARE = {"<=", "<", ">=", ">"}


def _walk(term, found: set) -> None:
    if isinstance(term, list):
        if term and isinstance(term[0], str):
            found.add(term[0])
        for item in term:
            _walk(item, found)
    elif isinstance(term, str) and not isinstance(term, StringLit):
        if term.isdigit():
            found.add("<numeral>")
        elif term.startswith(("#b", "#x")) or term.startswith("bv"):
            found.add("<bv>")


def _numeral(t) -> bool:
    return isinstance(t, str) and not isinstance(t, StringLit) and t.isdigit()


def _difference_atoms_only(assertions: list, ints: set[str]) -> bool:
    """Whether every arithmetic atom is QF_IDL's ``(op x y)`` or ``(op (- x y) n)``: no sum or
    product, no integer ite, no variable compared with a numeral (``(<= 1 x)``)."""
    stack = list(assertions)
    while stack:
        t = stack.pop()
        if not isinstance(t, list) or not t:
            continue
        head, args = t[0], t[1:]
        if head in ("+", "*") or head == "ite" and any(_numeral(a) for a in args[1:]):
            return False
        if head in INT_COMPARE | {"=", "distinct"} and any(a in ints for a in args if isinstance(a, str)) \
                and any(_numeral(a) for a in args):
            return False
        stack.extend(args)
    return True


def smallest_logic(commands: list) -> str:
    """The smallest standard logic a script's declarations and assertions fit: QF_UF (pure
    Boolean, or uninterpreted functions), QF_IDL / QF_LIA / QF_NIA over integers, QF_BV over
    bit-vectors (QF_UF… with uninterpreted functions beside a theory)."""
    sorts, functions, ints = set(), False, set()
    assertions = []
    for c in commands:
        if c[0] in ("declare-fun", "declare-const"):
            sort = render_sexpr(c[-1])
            sorts.add("BitVec" if sort.startswith("(_ BitVec") else sort)
            functions |= c[0] == "declare-fun" and bool(c[2])
            if sort == "Int":
                ints.add(c[1])
        elif c[0] == "declare-sort":
            functions = True
        elif c[0] in ("assert", "define-fun", "maximize", "minimize"):
            assertions.append(c[-1])
    ops: set = set()
    for t in assertions:
        _walk(t, ops)
    integers = "Int" in sorts or bool(ops & ARITH)
    bitvectors = "BitVec" in sorts or any(o.startswith("bv") for o in ops if isinstance(o, str))
    nonlinear = False
    for t in assertions:
        stack = [t]
        while stack:
            x = stack.pop()
            if isinstance(x, list):
                if x[:1] == ["*"] and sum(1 for a in x[1:] if not (isinstance(a, str) and a.isdigit())) > 1:
                    nonlinear = True
                stack.extend(x)
    uf = "UF" if functions else ""
    if bitvectors and not integers:
        return f"QF_{uf}BV"
    if integers:
        theory = "NIA" if nonlinear else "IDL" if _difference_atoms_only(assertions, ints) else "LIA"
        return f"QF_{uf}{theory}"
    return "QF_UF"


def test_the_smallest_logic_is_told_apart():
    def logic(text: str) -> str:
        return smallest_logic([c.value for c in read_all(text)])

    assert logic("(declare-fun a () Bool)(assert a)") == "QF_UF"
    assert logic("(declare-fun x () Int)(declare-fun y () Int)(assert (<= (- x y) 3))") == "QF_IDL"
    assert logic("(declare-fun x () Int)(assert (<= 1 x))") == "QF_LIA"
    assert logic("(declare-fun x () Int)(declare-fun y () Int)(assert (= (+ x y) 3))") == "QF_LIA"
    assert logic("(declare-fun x () Int)(declare-fun y () Int)(assert (= (* x y) 3))") == "QF_NIA"
    assert logic("(declare-fun x () (_ BitVec 3))(assert (bvule x (_ bv2 3)))") == "QF_BV"
    assert logic("(declare-fun f (Int) Int)(declare-fun x () Int)(assert (= (f x) (+ x 1)))") == "QF_UFLIA"


# --- the frame ------------------------------------------------------------------------------------

def check_frame(text: str, path: str, kind: str, encoding: str, presolve: str) -> list:
    """Assert the standard frame of a script ``encode`` wrote; returns its commands."""
    commands = [c.value for c in read_all(text)]
    names = [c[0] for c in commands]
    assert commands[0] == ["set-info", ":smt-lib-version", "2.6"]
    assert commands[-1] == ["exit"] and names.count("exit") == 1
    assert names.count("set-logic") == 1
    logic_at = names.index("set-logic")
    assert all(i < logic_at for i, n in enumerate(names) if n == "set-option")
    assert ["set-option", ":produce-models", "true"] in commands
    models_at = commands.index(["set-option", ":produce-models", "true"])
    assert all(models_at < i for i, n in enumerate(names) if n == "get-value")
    assert "get-value" in names and "check-sat" in names
    sources = [c[2] for c in commands if c[:2] == ["set-info", ":source"]]
    assert len(sources) == 1
    source = sources[0]
    assert f"{kind} puzzle {path};" in source and f"encoding {encoding};" in source
    assert f"written by fillsmt {__version__}" in source
    assert os.getcwd() not in source  # the name as given, not made absolute
    if presolve == "--no-presolve" or kind == "tiling":  # a bound's script: tilings have no presolve
        assert "presolve off;" in source
    elif kind == "fillomino":
        assert "presolve on, " in source and "cells fixed (clues included)" in source
    else:
        assert f"presolve asked for, but {kind} has none" in source
    assert commands[logic_at][1] == smallest_logic(commands), (kind, encoding)
    return commands


def test_every_script_is_smtlib_2_6_and_says_what_it_is(ring):
    seen = set()
    for kind, encoding, presolve, path, args in script_cases(ring):
        out = run("encode", *args)
        assert out.exit_code == 0, (args, out.output)
        check_frame(out.stdout, path, kind, encoding, presolve)
        seen.add((kind, encoding))
    assert {k for k, _ in seen} == {"fillomino", "blocknumber", "tiling"}
    assert {e for k, e in seen if k == "fillomino"} == {"thesis", "tree", "tree-bfs", "tree-bfs-bv"}


def test_the_logics_are_the_smallest_that_fit(ring):
    """Each encoding's declared logic (checked against the scan in every frame above), by name."""
    logics = {}
    for kind, encoding, presolve, path, args in script_cases(ring):
        text = run("encode", *args).stdout
        logics[kind, encoding] = next(c.value[1] for c in read_all(text) if c.value[0] == "set-logic")
    assert logics["fillomino", "thesis"] == "QF_LIA"  # appendix B says QF_UFLIA, and uses no function
    assert {logics["fillomino", e] for e in ("tree", "tree-bfs")} == {"QF_LIA"}
    assert logics["blocknumber", "onehot"] == "QF_UF" and logics["blocknumber", "bv"] == "QF_BV"
    assert logics["tiling", "pairwise"] == "QF_LIA" and logics["tiling", "bv"] == "QF_BV"


def test_a_bound_at_every_cell_is_pure_boolean(ring):
    """Covering all 8 cells of the ring is written as clauses: no count, so QF_UF."""
    text = run("encode", "--bound", "8", "-e", "pairwise", ring).stdout
    commands = check_frame(text, ring, "tiling", "pairwise", "--presolve")
    assert next(c for c in commands if c[0] == "set-logic")[1] == "QF_UF"


def test_a_puzzle_read_from_standard_input_is_named_so(here):
    out = CliRunner().invoke(main, ["encode", "-"], input=(INSTANCES / "g12-5x5.txt").read_text())
    assert out.exit_code == 0
    assert "(set-info :source |fillomino puzzle <stdin>; encoding tree-bfs; presolve on, " in out.stdout


def test_a_source_is_one_quoted_symbol_whatever_the_name():
    assert quoted_symbol("a|b\\c\nd  e") == "|a/b/c d e|"
    commands = [c.value for c in read_all(f"(set-info :source {quoted_symbol('x (y); z')})")]
    assert commands == [["set-info", ":source", "x (y); z"]]


@pytest.mark.parametrize("name, args", [
    ("encode-thesis-2x3.smt2", ["-e", "thesis", "--no-presolve"]),
    ("encode-tree-bfs-2x3.smt2", ["-e", "tree-bfs", "--presolve"]),
])
def test_golden_scripts_with_their_header(here, name, args):
    """``fillsmt encode`` of the golden 2x3 puzzle, exact text (``VERSION`` stands for the
    version in the golden file)."""
    out = run("encode", *args, "tests/golden/thesis-2x3.txt")
    assert out.exit_code == 0, out.output
    expected = (GOLDEN / name).read_text().replace("fillsmt VERSION|", f"fillsmt {__version__}|")
    assert out.stdout == expected


# --- solving methods are not scripts --------------------------------------------------------------

@pytest.mark.parametrize("method, why", [
    ("onehot-prop", "exact only with the fillomino-regions propagator inside the solver's search"),
    ("lazy-local-general", "a relaxation refined by region cuts in a solver session"),
])
def test_encode_and_export_refuse_a_solving_method_on_one_line(tmp_path, method, why):
    g12 = str(INSTANCES / "g12-5x5.txt")
    out = run("encode", "-e", method, g12)
    assert (out.exit_code, out.stdout) == (2, "")
    assert out.stderr == (f"Error: {method} is a solving method, not a script ({why}); the fillomino scripts are "
                          "thesis, tree, tree-bfs, tree-bfs-bv\n")
    exported = run("export", g12, "-o", str(tmp_path / "out"), "-e", method)
    assert exported.exit_code == 2
    assert exported.stderr == f"Error: {g12}: {method} is a solving method, not a script ({why}); the fillomino " \
                              "scripts are thesis, tree, tree-bfs, tree-bfs-bv\n"
    assert not list((tmp_path / "out").glob("*.smt2"))


def test_the_help_of_encode_and_export_lists_only_scripts():
    def help_text(command: str) -> str:  # one line, words that click broke at a hyphen joined again
        return " ".join(run(command, "--help").stdout.split()).replace("- ", "-")

    for command in ("encode", "export"):
        text = help_text(command)
        assert "fillomino: thesis, tree, tree-bfs, tree-bfs-bv [default: tree-bfs]" in text, command
        assert "onehot-prop" not in text and "lazy-local-general" not in text, command
    solve = help_text("solve")
    assert "fillomino: thesis, tree, tree-bfs, tree-bfs-bv, lazy-local-general, lazy-local-general-bv, bv-by-area, onehot-prop [default: tree-bfs]" in solve


def test_a_solver_that_cannot_run_an_encoding_is_refused_before_any_work(monkeypatch):
    from fillsmt.fillomino.kind import Fillomino

    def no_work(*args, **kwargs):
        raise AssertionError("work began")

    for stage in ("presolve", "quick_answer", "plan", "search"):
        monkeypatch.setattr(Fillomino, stage, no_work)
    for command in (["solve"], ["count"]):
        out = run(*command, "--solver", "yices", "-e", "onehot-prop", str(INSTANCES / "g12-5x5.txt"))
        assert out.exit_code == 2, out.output
        assert out.stderr == ("Error: solver 'yices' cannot run the encoding onehot-prop: it is exact only with the "
                              "fillomino-regions propagator inside the solver's search, and yices has no such "
                              "propagator; use --solver z3-prop\n")


# --- sessions -------------------------------------------------------------------------------------

@pytest.mark.parametrize("solver", ["yices", "z3", "cvc5", "bitwuzla", "z3-api", "yices-api", "pysmt"])
def test_a_session_loads_a_framed_script_and_keeps_going(solver):
    """The header's options and set-info go to the session; its (exit) does not: the solver
    answers check after check."""
    from fillsmt.formats.source import load

    driver = solver_or_skip(solver)
    path = BLOCKNUMBER / "random-5x5.txt"
    puzzle = load(str(path))
    kind = next(k for k in kinds() if k.name == "blocknumber")
    script = kind.encode(puzzle, "bv" if solver == "bitwuzla" else "onehot")
    assert [c.name for c in script.commands][-1] == "exit"
    with driver.open_session() as session:
        session.load(script, timeout=60)
        for _ in range(2):
            assert session.check(timeout=60).value == "sat"
            assert session.alive
