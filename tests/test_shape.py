"""The repository's shape, checked on its files: small modules and functions, every command in
``fillsmt/cli``, drivers that know no puzzle kind, and text that speaks of the product."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fillsmt"
KIND_PACKAGES = ("fillomino", "blocknumber", "tiling")
MAX_LINES = 600
MAX_PARAMETERS = 10


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated as a click command or group (its parameters are the command's options)."""
    return any(re.search(r"\b(command|group)\b", ast.unparse(d)) for d in node.decorator_list)


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    return len([n for n in names if n not in ("self", "cls")])


def test_no_module_is_longer_than_the_limit():
    long = {str(p.relative_to(ROOT)): n for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_function_takes_more_than_the_limit_of_parameters():
    wide = [f"{p.relative_to(ROOT)}:{f.lineno} {f.name} ({_parameters(f)})" for p in _sources()
            for f in _functions(ast.parse(p.read_text(encoding="utf-8")))
            if _parameters(f) > MAX_PARAMETERS and not _is_command(f)]
    assert wide == []


def test_every_command_lives_in_the_cli_package():
    outside = [f"{p.relative_to(ROOT)}:{f.lineno} {f.name}" for p in _sources()
               if PACKAGE / "cli" not in p.parents
               for f in _functions(ast.parse(p.read_text(encoding="utf-8"))) if _is_command(f)]
    assert outside == []


def test_no_driver_imports_a_puzzle_kind():
    kinds = tuple(f"fillsmt.{k}" for k in KIND_PACKAGES)
    found = []
    for path in sorted((PACKAGE / "drivers").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}: {n}" for n in names if n.startswith(kinds)]
    assert found == []


ORDINALS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
            "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth")
HISTORY = re.compile(r"\bissues? #?\d+|\b(" + ORDINALS + r"|\d+(st|nd|rd|th)) " + "sess" + r"ion\b",
                     re.IGNORECASE)
"""Words about how the project was made: an issue's number, a numbered work session."""


def _tracked_text() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    keep = (".py", ".md", ".txt", ".toml", ".sh", ".json", ".csv", ".cfg", "")
    return [ROOT / f for f in listed.splitlines() if Path(f).suffix in keep and (ROOT / f).is_file()]


def test_the_repository_speaks_of_the_product_not_of_its_making():
    found = []
    for path in _tracked_text():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for n, line in enumerate(text.splitlines(), 1)
                  for m in [HISTORY.search(line)] if m]
    assert found == []


def test_the_history_pattern_finds_what_it_is_for():
    issue = "iss" + "ue"
    for words in (f"see {issue} 17", f"{issue.title()} #3", "the twelfth " + "sess" + "ion",
                  "in the 7th " + "sess" + "ion"):
        assert HISTORY.search(words), words
    for words in ("an incremental solver session", "the session's first check", "t" + issue + " 3"):
        assert not HISTORY.search(words), words
