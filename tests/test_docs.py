"""The docs stay true: every file, module, encoding and command that the README, ``docs/``,
``benchmarks/README.md`` and the package's docstrings name exists.

Files are paths under the checkout's folders (``fillsmt/``, ``benchmarks/``, ``docs/``,
``tests/``, ``instances/``; ``results/`` is ``benchmarks/results/``; ``../shared/`` where the
shared sets are here), globs and brace lists expanded; modules are dotted ``fillsmt.…`` names,
imported (an attribute may follow); commands are the word after ``fillsmt`` in code (a code span
or block, a console line); encodings are what ``-e``/``--encoding`` is given in such a command.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
PATH = re.compile(r"(?<![\w./-])((?:\.\./shared/|fillsmt/|benchmarks/|docs/|tests/|instances/|results/)[\w./*+{},-]*[\w*}])")
MODULE = re.compile(r"(?<![\w./])(fillsmt(?:\.\w+)+)")
CODE = re.compile(r"(?s:```.*?```)|``[^`]+``|`[^`\n]+`|^(?:    |\t| *\$ ).*$", re.M)
"""Code in a page or a docstring: fenced blocks, code spans (Markdown and reST), indented or
console lines."""
COMMAND_LINE = re.compile(r"(?:^[\s`$]*|[|;&(]\s*)fillsmt\s+([a-z][\w-]*)((?:[ \t]+[^\s`|;&)]+)*)", re.M)
"""``fillsmt COMMAND ARGS`` where a command line starts: at the start of a code line or span, or
after a pipe, ``;``, ``&&`` or ``(``."""
ENCODING_OPTION = re.compile(r"(?:-e|--encoding)[ =]([\w-]+)|(?:-c|--config)[ =][\w.:,-]+/([\w-]+)/")
"""An encoding in a command line: ``-e NAME``, or a bench configuration ``-c SOLVER/NAME/…``."""


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node)
            if text:
                found.append(text)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            found.append(node.value.value)  # an attribute's docstring
    return found


def _texts() -> list[tuple[str, str, Path]]:
    """(where, text, the folder its relative paths start from)."""
    texts = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"), p.parent) for p in PAGES]
    for path in sorted((ROOT / "fillsmt").rglob("*.py")):
        texts += [(path.relative_to(ROOT).as_posix(), inspect.cleandoc(text), ROOT) for text in _docstrings(path)]
    return texts


def _expand(path: str) -> list[str]:
    """``a.{csv,md}`` → ``a.csv``, ``a.md``."""
    m = re.search(r"\{([^{}]*)\}", path)
    if m is None:
        return [path]
    return [e for part in m.group(1).split(",") for e in _expand(path[: m.start()] + part + path[m.end() :])]


def _unlisted(path: str) -> str:
    """The path up to a comma outside braces (a CSV line, a list in prose)."""
    depth = 0
    for i, ch in enumerate(path):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            return path[:i]
    return path


def _exists(path: str, here: Path) -> bool:
    bases = [ROOT / "benchmarks"] if path.startswith("results/") else [ROOT, here]
    return any(list(base.glob(path)) if "*" in path else (base / path).exists() for base in bases)


def missing_paths() -> list[str]:
    shared = (ROOT.parent / "shared").exists()
    out = []
    for where, text, here in _texts():
        for m in PATH.finditer(text):
            for path in _expand(_unlisted(m.group(1)).rstrip(".")):
                if path.startswith("../shared/") and not shared:
                    continue
                if not _exists(path, here):
                    out.append(f"{where}: {path}")
    return sorted(set(out))


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def missing_modules() -> list[str]:
    return sorted({f"{where}: {m.group(1)}" for where, text, _ in _texts() for m in MODULE.finditer(text)
                   if not _resolves(m.group(1).rstrip("."))})


def _command_lines():
    for where, text, _ in _texts():
        for code in CODE.finditer(text.replace("\\\n", " ")):  # a command continued on the next line
            for m in COMMAND_LINE.finditer(code.group(0)):
                yield where, m.group(1), m.group(2)


def missing_commands() -> list[str]:
    from fillsmt.cli import COMMANDS

    return sorted({f"{where}: fillsmt {command}" for where, command, _ in _command_lines() if command not in COMMANDS})


def missing_encodings() -> list[str]:
    from fillsmt.kinds import all_encodings

    known = {*all_encodings(), "default", "none", "NAME", "ENCODING"}
    return sorted({f"{where}: encoding {e}" for where, _, rest in _command_lines()
                   for pair in ENCODING_OPTION.findall(rest) for e in pair if e and e not in known})


@pytest.mark.parametrize("finder", [missing_paths, missing_modules, missing_commands, missing_encodings],
                         ids=["files", "modules", "commands", "encodings"])
def test_every_name_the_docs_give_exists(finder):
    assert finder() == []


def test_the_finders_find_what_is_missing(tmp_path):
    assert _expand("results/a.{csv,md}") == ["results/a.csv", "results/a.md"]
    assert not _exists("benchmarks/no-such-script.sh", ROOT) and _exists("benchmarks/README.md", ROOT)
    assert not _resolves("fillsmt.no_such_module") and _resolves("fillsmt.engine.pipeline.solve")
    text = "$ fillsmt solve -e tree-bfs p.txt\nfillsmt solves it, as ``fillsmt encode`` does"
    assert [code.group(0) for code in CODE.finditer(text)] == ["$ fillsmt solve -e tree-bfs p.txt", "``fillsmt encode``"]
    assert _unlisted("instances/a.txt,yices,sat") == "instances/a.txt" and _unlisted("a.{csv,md}") == "a.{csv,md}"
