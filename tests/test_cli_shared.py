"""The pieces every command shares: each registered command has help, --timeout is validated once,
output files are written safely (clean errors, umask modes, never the input), and the two-stdin
usage errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, solver_or_skip
from fillsmt.cli import COMMANDS, main

G12 = INSTANCES / "g12-5x5.txt"
TETRIS = ROOT / "instances" / "tiling" / "tetris-7x7.txt"


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


def test_every_command_is_registered_once_and_has_help():
    listed = run("--help").stdout
    for name in COMMANDS:
        assert f"  {name} " in listed, name
        result = run(name, "--help")
        assert result.exit_code == 0, (name, result.output)
        assert result.stdout.startswith(f"Usage: main {name} ") or result.stdout.startswith("Usage: "), name
        assert "Example" in result.stdout, name
    assert "-cmd" not in listed  # no command is registered a second time under its function's name


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e309", "soon", ""])
@pytest.mark.parametrize("command", [["solve"], ["solve", "--unique"], ["count"]])
def test_a_bad_timeout_is_a_usage_error(command, value):
    result = run(*command, "--timeout", value, G12)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].startswith("Error: Invalid value for '--timeout'"), result.stderr


def test_bench_and_rate_validate_the_timeout_the_same_way(tmp_path):
    for args in (["bench", G12, "--csv", tmp_path / "r.csv"], ["rate", G12], ["generate", "-s", "4x4"]):
        result = run(*args, "--timeout", "nan")
        assert result.exit_code == 2 and "Invalid value for '--timeout'" in result.stderr, args


@pytest.mark.parametrize("value", ["1e10", "2592000", "1e308"])
@pytest.mark.parametrize("options", [[], ["--unique"], ["--no-presolve", "-s", "z3"]])
def test_long_timeouts_simply_work(value, options):
    solver_or_skip("yices")
    solver_or_skip("z3")
    result = run("solve", "--timeout", value, *options, G12)
    assert result.exit_code == 0, result.output


def test_long_timeout_on_a_tiling_and_a_count():
    solver_or_skip("yices")
    assert run("solve", "--timeout", "1e10", TETRIS).exit_code == 0
    assert run("count", "--timeout", "2592000", G12).exit_code == 0


def _outputs(tmp_path, target):
    return [("encode", G12, "-o", target), ("convert", G12, "--to", "json", "-o", target),
            ("render", G12, "-o", target), ("generate", "-s", "4x4", "--seed", "1", "-q", "-o", target)]


@pytest.fixture
def locked(tmp_path):
    if os.geteuid() == 0:  # root writes in any folder of ours; /sys refuses new files even to root
        if not os.path.isdir("/sys"):
            pytest.skip("root may write anywhere, and there is no /sys to be refused by")
        yield Path("/sys")
        return
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    yield folder
    folder.chmod(0o700)


def test_an_unwritable_folder_is_a_clean_error(tmp_path, locked):
    solver_or_skip("yices")  # generate needs it before it writes
    for args in _outputs(tmp_path, locked / "out.txt"):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.count("\n") == 1 and "cannot write" in result.stderr, result.stderr


def test_bench_outputs_in_an_unwritable_folder_are_clean_errors(tmp_path, locked):
    for option, name in (("--csv", "r.csv"), ("--plot", "p.png"), ("--summary", "s.md")):
        args = ["bench", G12, "--csv", tmp_path / "runs.csv"] if option != "--csv" else ["bench", G12]
        result = run(*args, option, locked / "deeper" / name)
        assert result.exit_code == 2, (option, result.output)
        assert result.stderr.startswith(f"Error: {option} ") and result.stderr.count("\n") == 1, result.stderr


def test_a_missing_folder_is_a_clean_error(tmp_path):
    solver_or_skip("yices")
    for args in _outputs(tmp_path, tmp_path / "no" / "out.txt"):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "does not exist" in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_new_files_get_the_mode_the_umask_gives(tmp_path):
    solver_or_skip("yices")
    old = os.umask(0o022)
    try:
        for i, args in enumerate(_outputs(tmp_path, tmp_path / "out.txt")):
            target = tmp_path / f"out{i}.txt"
            result = run(*args[:-1], target)
            assert result.exit_code == 0, (args, result.output)
            assert stat.S_IMODE(target.stat().st_mode) == 0o644, args
        os.umask(0o077)
        result = run("encode", G12, "-o", tmp_path / "private.smt2")
        assert result.exit_code == 0 and stat.S_IMODE((tmp_path / "private.smt2").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_writing_never_clobbers_the_input_and_leaves_no_temporary_file(tmp_path):
    puzzle = tmp_path / "p.txt"
    text = G12.read_text()
    puzzle.write_text(text)
    for args in (("encode", puzzle, "-o", puzzle, "--force"), ("convert", puzzle, "--to", "plain", "-o", puzzle, "--force"),
                 ("render", puzzle, "-o", puzzle, "--force")):
        result = run(*args)
        assert result.exit_code == 2 and "refusing to overwrite the puzzle file itself" in result.stderr
    assert puzzle.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]


def test_two_standard_inputs_are_a_usage_error():
    for args in (("decode", "-", "-"), ("check", "-", "-"), ("render", "-", "-", "-o", "x.svg")):
        result = run(*args, input="5 5\n")
        assert result.exit_code == 2, (args, result.output)
        assert "cannot both be - (standard input" in result.stderr
