"""The kinds: the one registry of puzzle kinds.

The built-in kinds are named here with the module that holds each :class:`~fillsmt.protocol.Kind`
object and imported only when first asked for; :func:`register` adds a kind at run time (a
plugin, or a test's toy kind) with no other edit. A puzzle names its kind in its ``kind`` class
attribute, so :func:`kind_of` needs no ``isinstance``.

Kinds registered at run time are also listed, as ``module:Class``, in the ``FILLSMT_KINDS``
environment variable, so the worker processes ``bench`` starts know them too; a user can set it to
load a plugin kind (``FILLSMT_KINDS=mypackage.kind:MyKind``, comma-separated).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Iterator

from fillsmt.errors import InputError
from fillsmt.imports import resolve

if TYPE_CHECKING:
    from fillsmt.protocol import Kind

_BUILT_IN = {
    "fillomino": "fillsmt.fillomino.kind:KIND",
    "blocknumber": "fillsmt.blocknumber.kind:KIND",
    "tiling": "fillsmt.tiling.kind:KIND",
}
_DETECTORS = {
    "blocknumber": "fillsmt.blocknumber.plain_format:looks_like_blocknumber",
    "tiling": "fillsmt.tiling.plain_format:looks_like_tiling",
}
"""The built-in kinds' file detectors (what their ``looks_like`` calls), so telling a file's kind
imports only its format modules, not every kind's encoders."""

FALLBACK = "fillomino"
"""The kind of a plain file no kind claims (the oldest format: ``H W`` and one grid)."""
DEFAULT_KIND = FALLBACK
"""The kind ``generate`` makes when none is named."""

ENV = "FILLSMT_KINDS"

_names: list[str] = list(_BUILT_IN)
_loaded: dict[str, Kind] = {}
_plugins: dict[str, str] = {}  # name -> module:Class of the kinds registered at run time


def _class_path(kind: Kind) -> str:
    return f"{type(kind).__module__}:{type(kind).__qualname__}"


def _publish() -> None:
    if _plugins:
        os.environ[ENV] = ",".join(_plugins.values())
    else:
        os.environ.pop(ENV, None)


def register(kind: Kind) -> Kind:
    """Make ``kind`` known by its name (replacing a kind of that name); its class must be
    importable and constructible without arguments for ``bench``'s workers to know it."""
    if kind.name not in _names:
        _names.append(kind.name)
    _loaded[kind.name] = kind
    if kind.name not in _BUILT_IN:
        _plugins[kind.name] = _class_path(kind)
        _publish()
    return kind


def unregister(name: str) -> None:
    """Forget a kind added with :func:`register` (the built-in kinds stay)."""
    if name not in _BUILT_IN and name in _names:
        _names.remove(name)
        _loaded.pop(name, None)
        _plugins.pop(name, None)
        _publish()


def _load_plugins() -> None:
    """The kinds ``FILLSMT_KINDS`` names (``module:Class``, comma-separated)."""
    for spec in filter(None, (s.strip() for s in os.environ.get(ENV, "").split(","))):
        try:
            if ":" not in spec:
                raise ValueError("expected module:Class")
            cls = resolve(spec)
        except (ImportError, AttributeError, ValueError) as e:
            raise InputError(f"{ENV}: cannot load the kind {spec!r}: {e}") from None
        register(cls())


_plugins_loaded = False


def _ensure_plugins() -> None:
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        _load_plugins()


def kind_names() -> tuple[str, ...]:
    """Every kind's name, the built-in ones first."""
    _ensure_plugins()
    return tuple(_names)


def get_kind(name: str) -> Kind:
    _ensure_plugins()
    if name not in _names:
        raise InputError(f"unknown puzzle kind {name!r}; choose one of {', '.join(_names)}")
    if name not in _loaded:
        _loaded[name] = resolve(_BUILT_IN[name])
    return _loaded[name]


def kinds() -> Iterator[Kind]:
    for name in kind_names():
        yield get_kind(name)


def propagator_maker(name: str) -> Callable[..., Any] | None:
    """The function making the user propagator ``name`` that a registered kind declares
    (:attr:`Kind.propagators`), or None when no kind does."""
    for kind in kinds():
        if name in kind.propagators:
            return resolve(kind.propagators[name])
    return None


def propagator_names() -> frozenset[str]:
    """Every user propagator the registered kinds declare."""
    return frozenset(name for kind in kinds() for name in kind.propagators)


def kind_of(puzzle: Any) -> Kind:
    """The kind a puzzle object belongs to (its ``kind`` attribute)."""
    name = getattr(puzzle, "kind", None)
    if not isinstance(name, str):
        raise TypeError(f"a {type(puzzle).__name__} is not a puzzle: it has no 'kind' name")
    return get_kind(name)


def detect(text: str) -> str:
    """The kind of a puzzle file's text: the first kind that claims it (tilings by their
    keywords, BlockNumber by its two grids, …), else the fallback, Fillomino."""
    for name in kind_names():
        if name == FALLBACK:
            continue
        if name in _DETECTORS and name not in _loaded:
            claims = resolve(_DETECTORS[name])(text)
        else:
            claims = get_kind(name).looks_like(text)
        if claims:
            return name
    return FALLBACK


def all_encodings() -> list[str]:
    """Every kind's encoding names, sorted (a name two kinds share is listed once)."""
    from fillsmt.protocol import encoding_names

    return sorted({e for kind in kinds() for e in encoding_names(kind)})


__all__ = [
    "FALLBACK",
    "all_encodings",
    "detect",
    "get_kind",
    "kind_names",
    "kind_of",
    "kinds",
    "propagator_maker",
    "propagator_names",
    "register",
    "unregister",
]
