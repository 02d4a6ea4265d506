"""fillsmt export: SMT-LIB benchmark files whose :status z3 and yices confirm."""

from __future__ import annotations

import csv
import re
import subprocess

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, SHARED, solver_or_skip
from fillsmt.cli import main
from fillsmt.smtlib.sexpr import read_all
from test_scripts import smallest_logic

TINY_TILING = "board 3 3\nblocked 1 1\npiece L\n##\n#.\n"  # 8 free cells: at most 2 L-trominoes, 6 cells


def export(*args):
    return CliRunner().invoke(main, ["export", *map(str, args)])


def manifest(folder) -> list[dict]:
    with open(folder / "manifest.csv", newline="") as f:
        return list(csv.DictReader(f))


def answer(solver: str, path) -> str:
    """What a solver binary prints first for a benchmark file."""
    driver = solver_or_skip(solver)
    out = subprocess.run([driver.executable(), str(path)], capture_output=True, text=True, timeout=120)
    return out.stdout.split()[0]


@pytest.fixture
def puzzles(tmp_path):
    multi = tmp_path / "multi.txt"
    multi.write_text("1 3\n0 0 0\n")  # 3 3 3, 1 2 2, 2 2 1: not unique
    tiling = tmp_path / "tiny-tiling.txt"
    tiling.write_text(TINY_TILING)
    return [INSTANCES / "g12-5x5.txt", INSTANCES / "unsat-1x2.txt", multi,
            ROOT / "instances" / "blocknumber" / "random-5x5.txt", tiling]


def test_every_kind_exports_with_the_header_and_statuses_z3_and_yices_confirm(tmp_path, puzzles):
    out = export(*puzzles, "-o", tmp_path / "out")
    assert out.exit_code == 0, out.output
    rows = manifest(tmp_path / "out")
    assert list(rows[0]) == ["file", "puzzle", "kind", "encoding", "family", "logic", "status", "size", "seconds",
                             "confirmed", "presolve"]
    assert {r["presolve"] for r in rows} == {"off"}
    assert {r["confirmed"] for r in rows if r["status"] == "sat"} == {"yes"}
    assert {r["confirmed"] for r in rows if r["status"] == "unsat"} == {"-"}
    expected = {("fillomino-g12-5x5", "plain"): "sat", ("fillomino-g12-5x5", "unique"): "unsat",
                ("fillomino-unsat-1x2", "plain"): "unsat", ("fillomino-unsat-1x2", "unique"): "unsat",
                ("multi", "plain"): "sat", ("multi", "unique"): "sat",
                ("blocknumber-random-5x5", "plain"): "sat", ("blocknumber-random-5x5", "unique"): "unsat",
                ("tiny-tiling", "plain"): "sat", ("tiny-tiling", "unique"): "unsat"}
    got = {(r["file"].split(".")[0].removeprefix(tmp_path.name + "-"), r["family"]): r["status"] for r in rows}
    assert got == expected
    assert {r["kind"] for r in rows} == {"fillomino", "blocknumber", "tiling"}
    for row in rows:
        path = tmp_path / "out" / row["file"]
        text = path.read_text()
        assert text.startswith("(set-info :smt-lib-version 2.6)\n(set-logic " + row["logic"] + ")\n(set-info :source |")
        for line in ('(set-info :category "crafted")', f"(set-info :status {row['status']})", "(set-info :license "):
            assert line in text
        assert text.endswith("(check-sat)\n(exit)\n")
        assert "get-value" not in text and "set-option" not in text
        assert row["logic"] == smallest_logic([c.value for c in read_all(text)]), row["file"]
        assert int(row["size"]) == len(text.encode())
        for solver in ("z3", "yices"):
            assert answer(solver, path) == row["status"], (solver, row["file"])


def test_encodings_families_and_resume(tmp_path):
    folder = tmp_path / "out"
    out = export(INSTANCES / "g12-5x5.txt", "-o", folder, "-e", "thesis", "-e", "tree", "--family", "unique")
    assert out.exit_code == 0, out.output
    assert sorted(r["file"] for r in manifest(folder)) == ["fillomino-g12-5x5.thesis.unique.smt2",
                                                          "fillomino-g12-5x5.tree.unique.smt2"]
    again = export(INSTANCES / "g12-5x5.txt", "-o", folder, "-e", "thesis")
    assert again.exit_code == 2
    assert "already holds a manifest.csv; use --resume" in again.stderr
    resumed = export(INSTANCES / "g12-5x5.txt", "-o", folder, "-e", "thesis", "-e", "tree", "--resume")
    assert resumed.exit_code == 0, resumed.output
    files = [r["file"] for r in manifest(folder)]
    assert len(files) == len(set(files)) == 4
    assert "2 files written" in resumed.stderr


def source_of(text: str) -> str:
    return re.search(r"\(set-info :source \|([^|]*)\|\)", text).group(1)


def test_presolve_writes_the_rules_fixed_cells_in_and_keeps_every_status(tmp_path, puzzles):
    """The same puzzles as above, each file written as given and after the presolve: same statuses,
    which both solvers give for the presolved files too; the header says what the presolve did."""
    plain, presolved = tmp_path / "off", tmp_path / "on"
    assert export(*puzzles, "-o", plain).exit_code == 0
    out = export(*puzzles, "-o", presolved, "--presolve")
    assert out.exit_code == 0, out.output
    off, on = manifest(plain), manifest(presolved)
    assert {r["presolve"] for r in on} == {"on"}
    assert [r["file"].replace(".presolve", "") for r in on] == [r["file"] for r in off]
    assert [(r["puzzle"], r["family"], r["status"]) for r in on] == [(r["puzzle"], r["family"], r["status"]) for r in off]
    sources = {r["file"].split(".")[0].removeprefix(tmp_path.name + "-"): source_of((presolved / r["file"]).read_text())
               for r in on}
    encoded = CliRunner().invoke(main, ["encode", str(INSTANCES / "g12-5x5.txt")])  # presolve on by default
    said = re.search(r"presolve on, \d+ of 25 cells fixed \(clues included\)", source_of(encoded.stdout)).group(0)
    assert f"; {said};" in sources["fillomino-g12-5x5"]
    assert "presolve asked for; the deduction rules prove there is no solution" in sources["fillomino-unsat-1x2"]
    assert "presolve asked for, but tiling has none for this puzzle" in sources["tiny-tiling"]
    g12 = [r for r in on if "g12" in r["file"]]
    assert all((presolved / r["file"]).stat().st_size < (plain / r["file"].replace(".presolve", "")).stat().st_size
               for r in g12)
    for row in on:
        for solver in ("z3", "yices"):
            assert answer(solver, presolved / row["file"]) == row["status"], (solver, row["file"])


def test_resume_tells_presolved_files_from_the_others(tmp_path):
    folder = tmp_path / "out"
    assert export(INSTANCES / "g12-5x5.txt", "-o", folder, "--family", "plain").exit_code == 0
    resumed = export(INSTANCES / "g12-5x5.txt", "-o", folder, "--family", "plain", "--resume", "--presolve")
    assert resumed.exit_code == 0, resumed.output
    assert "1 files written" in resumed.stderr
    again = export(INSTANCES / "g12-5x5.txt", "-o", folder, "--family", "plain", "--resume", "--presolve")
    assert "0 files written" in again.stderr and "1 puzzles already done" in again.stderr
    assert sorted((r["file"], r["presolve"]) for r in manifest(folder)) == [
        ("fillomino-g12-5x5.tree-bfs.presolve.smt2", "on"), ("fillomino-g12-5x5.tree-bfs.smt2", "off")]


def test_an_encoding_of_another_kind_is_refused(tmp_path):
    out = export(INSTANCES / "g12-5x5.txt", "-o", tmp_path / "out", "-e", "onehot")
    assert out.exit_code == 2
    assert "'onehot' is not a fillomino encoding" in out.stderr


def test_a_few_shared_puzzles(tmp_path):
    """Two janko puzzles in the default encoding (both families), a small Baron one in the thesis'."""
    janko, baron = SHARED / "janko-thesis100" / "puzzles", SHARED / "baron-thesis60" / "puzzles"
    if not (janko.exists() and baron.exists()):
        pytest.skip(f"{SHARED} is absent (the shared puzzle sets sit beside the checkout)")
    out = export(*sorted(janko.glob("*.txt"))[:2], "-o", tmp_path / "out", "-t", "120")
    assert out.exit_code == 0, out.output
    out = export(sorted(baron.glob("05x10-*.txt"))[0], "-o", tmp_path / "out", "-e", "thesis", "--family", "plain",
                 "--resume", "-t", "120")
    assert out.exit_code == 0, out.output
    rows = manifest(tmp_path / "out")
    assert len(rows) == 5
    for row in rows:
        assert re.fullmatch(r"sat|unsat", row["status"])
        for solver in ("z3", "yices"):
            assert answer(solver, tmp_path / "out" / row["file"]) == row["status"], (solver, row["file"])
