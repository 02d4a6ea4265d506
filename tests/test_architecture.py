"""Rules of the package's shape, checked on its source: no import cycles between modules (imports
inside functions count, typing-only ones do not); no module outside a kind's own package asks
what class a puzzle is; a small package root and a small core kind protocol; results built in
one module; and no solver that is a special case."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "fillsmt"
KIND_PACKAGES = ("fillomino", "blocknumber", "tiling")


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _typing_only(tree: ast.AST) -> set[int]:
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (``from pkg import submodule`` counts as the
    submodule, not the package)."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _typing_only(tree)
        package = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_two_modules_import_each_other():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_a_kinds_own_package_asks_what_class_a_puzzle_is():
    puzzle_classes = {"Puzzle", "FillominoPuzzle", "BlockPuzzle", "BlockNumberPuzzle", "TilingProblem", "Tiling"}
    kind_attributes = {"givens", "blocks", "pieces", "blocked", "cells"}
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in KIND_PACKAGES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2):
                continue
            second = ast.unparse(node.args[1])
            if node.func.id == "isinstance" and any(c in second for c in puzzle_classes):
                offenders.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
            if node.func.id == "hasattr" and second.strip("'\"") in kind_attributes:
                offenders.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert offenders == []


def _kind_name_comparisons(tree: ast.AST, names: set[str]) -> list[ast.Compare]:
    """The comparisons (``==``, ``!=``, ``in``, ``not in``, ``is``) that have a kind's name
    written as a string on one side, alone or in a tuple, list or set."""
    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return False

    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Compare) and any(named(n) for n in (node.left, *node.comparators))]


def test_only_a_kinds_own_package_and_the_registry_compare_kind_names():
    """What a kind can do is a capability of its Kind object (``Rates``, ``Explains``, ``Optimises``,
    ``Clues``, …, :mod:`fillsmt.protocol`), never a test of its name: a kind registered by a plugin
    then works everywhere the built-in ones do."""
    from fillsmt.kinds import kind_names

    names = set(kind_names())
    offenders = _outside_the_kinds(lambda tree: _kind_name_comparisons(tree, names), width=None)
    assert offenders == []


def _outside_the_kinds(finder, width: int | None) -> list[str]:
    """``finder``'s nodes in every module but a kind's own package and the registry, as
    ``path:line: code`` (the code cut to ``width`` characters)."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in KIND_PACKAGES or relative.as_posix() == "kinds.py":
            continue
        for node in finder(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{relative}:{node.lineno}: {ast.unparse(node)[:width]}")
    return offenders


def _kind_mentions(tree: ast.AST, names: set[str]) -> list[ast.AST]:
    """The imports of a kind's package and the strings that name a kind or its package, but
    documentation (a string alone as a statement: a docstring, an attribute's text)."""
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    packages = tuple(f"fillsmt.{name}" for name in KIND_PACKAGES)
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.startswith(packages) for a in node.names):
            found.append(node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(packages):
            found.append(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            if node.value in names or any(p in node.value for p in packages):
                found.append(node)
    return found


def test_no_module_but_a_kinds_own_and_the_registry_names_a_kind():
    """Code outside a kind's package reaches it through the registry and its capabilities only:
    no import of the kind's modules, no table or default holding its name."""
    names = set(KIND_PACKAGES)
    offenders = _outside_the_kinds(lambda tree: _kind_mentions(tree, names), width=80)
    assert offenders == []


def test_the_kind_mention_finder_finds_imports_and_names():
    tree = ast.parse('"""Docs: fillsmt.fillomino.x."""\nimport fillsmt.tiling.model\n'
                     'from fillsmt.fillomino.rating import LABELS\nK = "blocknumber"\n'
                     'M = "fillsmt.fillomino.kind:KIND"\nX = "fillominoes"\n"""fillomino, as prose"""\n')
    found = [ast.unparse(n) for n in _kind_mentions(tree, {"fillomino", "blocknumber", "tiling"})]
    assert found == ["import fillsmt.tiling.model", "from fillsmt.fillomino.rating import LABELS",
                     "'blocknumber'", "'fillsmt.fillomino.kind:KIND'"]


def test_the_kind_name_finder_finds_comparisons():
    tree = ast.parse('a = kind.name == "fillomino"\nb = "tiling" != k\nc = n in ("x", "blocknumber")\n'
                     'd = name == "fillomino-ish"\ne = {"fillomino": 1}[k]')
    found = [ast.unparse(n) for n in _kind_name_comparisons(tree, {"fillomino", "blocknumber", "tiling"})]
    assert found == ["kind.name == 'fillomino'", "'tiling' != k", "n in ('x', 'blocknumber')"]


ROOT_MODULES = 12
"""At most this many modules directly in ``fillsmt/``: the root keeps the public API and little
else; the engine, the setter tools, the pictures, each kind have packages of their own."""
CORE_METHODS = 15
"""At most this many methods in the core kind protocol (:class:`fillsmt.protocol.Kind`)."""


def test_the_package_root_keeps_the_public_api_and_little_else():
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= ROOT_MODULES, modules


def test_the_core_kind_protocol_is_small_and_the_rest_are_capabilities():
    from fillsmt.protocol import Capability, Kind

    methods = [name for name, value in vars(Kind).items() if callable(value) and not name.startswith("__")]
    assert len(methods) <= CORE_METHODS, methods
    assert issubclass(Capability, Kind)
    from fillsmt.kinds import kinds

    for kind in kinds():  # each built-in kind has the core and some capabilities
        assert isinstance(kind, Capability), kind.name


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and (isinstance(node.func, ast.Name) and node.func.id == name
                 or isinstance(node.func, ast.Attribute) and node.func.attr == name)]


def test_a_solve_result_is_built_in_one_module_and_is_frozen():
    import dataclasses

    import pytest

    from fillsmt.engine.result import SolveResult
    from fillsmt.smtlib.answer import Status

    builders = PACKAGE / "engine" / "result.py"
    outside = [f"{p.relative_to(PACKAGE)}:{c.lineno}" for p in PACKAGE.rglob("*.py") if p != builders
               for c in _calls(ast.parse(p.read_text(encoding="utf-8")), "SolveResult")]
    assert outside == []
    result = SolveResult(None, Status.SAT, "yices", "tree-bfs")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.status = Status.UNSAT  # type: ignore[misc]


def test_no_solver_is_a_special_case():
    """The solver that runs the kind's own search (``--solver rules``) is an ordinary solver of the
    registry: nothing but its driver, the registry and the plan (which names it as the kind's
    search among its racers) writes its name, and nothing compares a solver's name with it."""
    from fillsmt.drivers.registry import searching_solver_names

    names = set(searching_solver_names())
    allowed = {"drivers/rules.py", "drivers/registry.py", "engine/plan.py"}
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in allowed or relative.split("/")[0] in KIND_PACKAGES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += [f"{relative}:{n.lineno}" for n in ast.walk(tree)
                      if isinstance(n, ast.Constant) and n.value in names]
    assert offenders == []
