"""Names loaded on first use: how fillsmt starts a command without importing what it does not need.

A registry (of kinds, solvers, commands) names each entry as ``module:attribute`` and
:func:`resolve` imports it when it is first asked for; a package that re-exports names from its
modules does so through :func:`lazy_exports`. ``tests/test_startup.py`` checks, in a fresh
process, which modules ``fillsmt --version`` and friends load.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def resolve(name: str) -> Any:
    """The object at ``"package.module:attribute"`` (``attribute`` may be dotted), its module
    imported if it is not yet. (``pkgutil.resolve_name`` does this too, but importing pkgutil
    costs a solve about a millisecond of its start-up.) Raises ImportError, AttributeError, or
    ValueError for a name without ``:``."""
    module, colon, attribute = name.partition(":")
    if not colon or not module or not attribute:
        raise ValueError(f"expected module:attribute, found {name!r}")
    found = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any], list[str]]:
    """The module ``__getattr__`` (PEP 562) and ``__all__`` of ``package``, which re-exports each
    name of ``exports`` from the module it maps to (``module`` for the same name there, or
    ``module:attribute``), imported when the name is first used."""

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        target = exports[name]
        value = resolve(target if ":" in target else f"{target}:{name}")
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__, sorted(exports)
