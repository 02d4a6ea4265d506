"""JSON for every puzzle kind: puzzles in and out, and the shape of a solve result.

The schema is documented in ``docs/json-schema.md`` (with JSON Schema files beside it):

* a puzzle is an object with ``kind``, ``height``, ``width`` and the kind's grids: ``cells``
  for ``fillomino`` (0 = empty, else a clue), ``givens`` (0 = empty) and ``blocks`` (any
  integer labels; equal labels make one block) for ``blocknumber``; ``pieces`` (each a
  ``name``, its ``cells`` as [row, column] pairs and an optional ``limit``), ``blocked``,
  ``rotations`` and ``reflections`` for ``tiling``;
* a solve result is one object per puzzle (see :func:`result_to_dict`).

Reading checks the structure first, naming the JSON path of what is wrong (``cells[2][3]:
expected an integer, found "x"``), then hands the grids to the kind's own plain-format reader, so
a JSON puzzle passes exactly the checks a puzzle file does (a clue larger than the grid, a
disconnected block, …) and gets the same messages. Every problem is a
:class:`~fillsmt.errors.FormatError` naming the source; JSON syntax errors name the line.

Adding a kind: its :class:`~fillsmt.protocol.JsonForm` capability's ``to_dict`` and ``from_dict``
(the latter with the :class:`Reader` below); the registry makes it known here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Callable

from fillsmt import kinds, limits
from fillsmt.engine.solutions import differing_cells
from fillsmt.errors import FormatError
from fillsmt.protocol import JsonForm, Optimises

RESULT_STATUSES = ("sat", "unsat", "unknown", "timeout", "error", "bad-input")
"""Every ``status`` a solve result may have: a solver status, or ``bad-input`` for a puzzle
that could not be read."""


class Reader:
    """Structural checks of a decoded JSON value; every problem raises a FormatError."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, problem: str):
        raise FormatError(self.source, None, problem)

    def object(self, value: Any, what: str) -> dict:
        if not isinstance(value, dict):
            self.fail(f"expected {what} (a JSON object), found {_kind_of(value)}")
        return value

    def keys(
        self, obj: dict, required: tuple[str, ...], optional: tuple[str, ...] = (), what: str = "the object"
    ) -> None:
        for key in required:
            if key not in obj:
                self.fail(f"{what} has no {key!r}; expected the keys {', '.join(map(repr, required))}")
        extra = [k for k in obj if k not in required and k not in optional]
        if extra:
            allowed = ", ".join(map(repr, required + optional))
            self.fail(f"{what} has an unexpected key {extra[0]!r}; the keys are {allowed}")

    def integer(self, value: Any, path: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{path}: expected an integer, found {_show(value)}")
        if minimum is not None and value < minimum:
            if minimum == 0:
                self.fail(f"{path}: {value} is negative; expected 0 or a positive integer")
            self.fail(f"{path}: must be at least {minimum}, found {value}")
        return value

    def side(self, obj: dict, key: str) -> int:
        value = self.integer(obj[key], key, 1)
        try:
            limits.check_side(value, f"{key}:")
        except ValueError as e:
            self.fail(str(e))
        return value

    def size(self, obj: dict, what: str = "grid") -> tuple[int, int]:
        """The ``height`` and ``width`` of ``obj``, within the limits (:mod:`fillsmt.limits`)."""
        height, width = self.side(obj, "height"), self.side(obj, "width")
        try:
            limits.check_cells(height, width, what)
        except ValueError as e:
            self.fail(str(e))
        return height, width

    def grid(
        self, value: Any, name: str, height: int, width: int, minimum: int | None = 0
    ) -> tuple[tuple[int, ...], ...]:
        """A list of ``height`` lists of ``width`` integers (each at least ``minimum``)."""
        if not isinstance(value, list):
            self.fail(f"{name}: expected a list of {height} rows, found {_kind_of(value)}")
        if len(value) != height:
            self.fail(f"{name}: expected {height} rows (the height), found {len(value)}")
        rows = []
        for r, row in enumerate(value):
            if not isinstance(row, list):
                self.fail(f"{name}[{r}]: expected a row (a list of {width} integers), found {_kind_of(row)}")
            if len(row) != width:
                self.fail(f"{name}[{r}]: expected {width} values (the width), found {len(row)}")
            rows.append(tuple(self.integer(v, f"{name}[{r}][{c}]", minimum) for c, v in enumerate(row)))
        return tuple(rows)

    def cells(self, value: Any, path: str) -> list[tuple[int, int]]:
        """A list of [row, column] pairs of integers from 0."""
        if not isinstance(value, list):
            self.fail(f"{path}: expected a list of [row, column] pairs, found {_kind_of(value)}")
        cells = []
        for i, pair in enumerate(value):
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail(f"{path}[{i}]: expected a [row, column] pair, found {_show(pair)}")
            cells.append((self.integer(pair[0], f"{path}[{i}][0]", 0), self.integer(pair[1], f"{path}[{i}][1]", 0)))
        return cells

    @staticmethod
    def show(value: Any) -> str:
        """A JSON value as a message quotes it (cut short when long)."""
        return _show(value)

    @staticmethod
    def plain_rows(rows) -> list[str]:
        """A grid's rows as lines of a plain puzzle file."""
        return [" ".join(map(str, row)) for row in rows]

    def reparse(self, parse: Callable[[str, str], Any], lines: list[str]) -> Any:
        """Run a kind's plain-format reader on the lines of a file made from the JSON (so a JSON
        puzzle passes the checks a file does); its line numbers mean nothing here."""
        try:
            return parse("\n".join(lines) + "\n", self.source)
        except FormatError as e:
            raise FormatError(self.source, None, e.problem) from None


def _kind_of(value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:29] + "…"


class _Kinds(Mapping):
    """The registry's kinds by name (a live view: a kind registered at run time is in it)."""

    def __getitem__(self, name: str):
        if name not in kinds.kind_names():
            raise KeyError(name)
        return kinds.get_kind(name)

    def __iter__(self):
        return iter(kinds.kind_names())

    def __len__(self) -> int:
        return len(kinds.kind_names())


KINDS: Mapping = _Kinds()
"""Every kind, by name; each reads and writes its JSON through ``from_dict`` and ``to_dict``."""


def kind_of(puzzle: Any) -> str:
    """The ``kind`` name of a puzzle object."""
    return kinds.kind_of(puzzle).name


# --- puzzles ---------------------------------------------------------------------------------


def puzzle_to_dict(puzzle: Any) -> dict:
    """The JSON object of a puzzle of any kind (``source`` is not part of it)."""
    return JsonForm.of(KINDS[kind_of(puzzle)], puzzle.source).to_dict(puzzle)


def dumps(obj: dict) -> str:
    """JSON text with one grid row per line: readable, and still one object."""
    lines = ["{"]
    items = list(obj.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
            rows = [f"    {json.dumps(row)}" for row in value]
            lines.append(f"  {json.dumps(key)}: [")
            lines.append(",\n".join(rows))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_puzzle(puzzle: Any) -> str:
    """A puzzle as JSON text (see :func:`dumps`)."""
    return dumps(puzzle_to_dict(puzzle))


def _json_int(text: str) -> int:
    return limits.checked_int(text, "an integer")


def loads(text: str, source: str) -> Any:
    """Decode JSON text; a syntax error, an integer of absurd size or nesting deeper than
    Python's JSON reader goes is a FormatError (naming the line when it can)."""
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as e:
        raise FormatError(source, e.lineno, f"not valid JSON: {e.msg} (column {e.colno})") from None
    except ValueError as e:
        raise FormatError(source, None, str(e)) from None
    except RecursionError:
        raise FormatError(source, None, "not valid JSON for fillsmt: nested too deeply") from None


def puzzle_from_dict(obj: Any, source: str = "<json>") -> Any:
    """The puzzle a decoded JSON object describes, checked as its kind's files are."""
    reader = Reader(source)
    obj = reader.object(obj, "a puzzle")
    if "kind" not in obj:
        reader.fail(f"the puzzle has no 'kind'; expected one of {', '.join(map(repr, KINDS))}")
    kind = obj["kind"]
    if kind not in KINDS:
        reader.fail(f"kind: {_show(kind)} is not a puzzle kind; expected one of {', '.join(map(repr, KINDS))}")
    return JsonForm.of(KINDS[kind], source).from_dict(obj, reader)


def parse_puzzle(text: str, source: str = "<json>") -> Any:
    """Read a puzzle of any kind from JSON text."""
    return puzzle_from_dict(loads(text, source), source)


# --- solve results ---------------------------------------------------------------------------


def _status_text(status: Any) -> str:
    return getattr(status, "value", status)


def _grid_or_none(grid) -> list[list[int]] | None:
    return [list(row) for row in grid] if grid is not None else None


def result_to_dict(result: Any, puzzle_name: str) -> dict:
    """The JSON object of one solve result of any kind (a ``fillsmt.engine.pipeline.SolveResult`` or alike):
    the one writer behind every command that prints a result.

    Keys, always: ``puzzle`` (the name it was given: a file, ``-``, a URL), ``kind``, ``status``,
    ``grid`` (the checked solution, or null), ``solver``, ``encoding``, ``height``, ``width``,
    ``times`` (stage → seconds), ``presolved_cells`` (or null) and ``message``. Then:
    ``unique`` (true / false, or null when not asked or not settled: a pipeline result always
    has it; with ``forced`` settled, every cell forced is true and a cell not forced false),
    ``second_grid`` and ``differing_cells`` (a second solution and where it differs), ``forced``,
    ``checks`` (the solver's check-sat calls), and the keys the kind adds (a tiling's ``covered``,
    ``optimal``, ``placements``, …).
    """
    puzzle = result.puzzle
    kind = kinds.kind_of(puzzle)
    obj = {
        "puzzle": puzzle_name,
        "kind": kind.name,
        "status": _status_text(result.status),
        "grid": None if result.grid is None else kind.solution_json(puzzle, result.grid),
        "solver": result.solver,
        "encoding": result.encoding,
        "height": puzzle.height,
        "width": puzzle.width,
        "times": {k: None if v is None else round(v, 6) for k, v in result.times.items()},
        "presolved_cells": getattr(result, "presolved_cells", None),
        "message": result.message,
    }
    if result.unique is not None or getattr(result, "unique_asked", None) is not None:
        obj["unique"] = getattr(result, "settled_unique", result.unique)
    if result.second_grid is not None:
        obj["second_grid"] = kind.solution_json(puzzle, result.second_grid)
        if result.grid is not None:
            obj["differing_cells"] = [[r, c] for r, c in differing_cells(result.grid, result.second_grid)]
    if result.forced is not None:
        obj["forced"] = _grid_or_none(result.forced)
    if getattr(result, "checks", None) is not None:
        obj["checks"] = result.checks
    if isinstance(kind, Optimises):
        obj.update(kind.result_fields(result))
    return obj


def count_to_dict(puzzle_name: str, puzzle: Any, found: Any, limit: int, seconds: float) -> dict:
    """The JSON object of ``fillsmt count``: how many solutions (``found`` is an
    :class:`~fillsmt.engine.solutions.Enumeration`), whether that is all, and the solutions."""
    kind = kinds.kind_of(puzzle)
    return {
        "puzzle": puzzle_name,
        "kind": kind.name,
        "count": len(found.grids),
        "complete": found.complete,
        "limit": limit,
        "status": _status_text(found.status),
        "solutions": [kind.solution_json(puzzle, g) for g in found.grids],
        "checks": found.checks,
        "seconds": round(seconds, 6),
        "message": found.message,
    }


def line(obj: dict) -> str:
    """One JSON object on one line, as every JSON-printing command writes it."""
    return json.dumps(obj)


def bad_input_dict(
    puzzle_name: str, message: str, *, solver: str = "", encoding: str | None = "", kind: str | None = None
) -> dict:
    """The JSON object for a puzzle that could not be read: ``status`` is ``bad-input``."""
    return {
        "puzzle": puzzle_name,
        "kind": kind,
        "status": "bad-input",
        "grid": None,
        "solver": solver,
        "encoding": encoding or "",
        "height": None,
        "width": None,
        "times": {},
        "presolved_cells": None,
        "message": message,
    }


RESULT_KEYS = (
    "puzzle",
    "kind",
    "status",
    "grid",
    "solver",
    "encoding",
    "height",
    "width",
    "times",
    "presolved_cells",
    "message",
)
RESULT_OPTIONAL = ("unique", "second_grid", "forced")
RESULT_DERIVED = ("differing_cells", "checks")
"""Keys a result may carry that follow from the others (read back, not required)."""


def parse_result(text: str, source: str = "<json>") -> dict:
    """Read back one solve-result object, checked; its grids become tuples of tuples."""
    reader = Reader(source)
    obj = reader.object(loads(text, source), "a solve result")
    reader.keys(
        {k: v for k, v in obj.items() if k not in RESULT_DERIVED}, RESULT_KEYS, RESULT_OPTIONAL, what="the solve result"
    )
    status = obj["status"]
    if status not in RESULT_STATUSES:
        reader.fail(f"status: {_show(status)} is not one of {', '.join(RESULT_STATUSES)}")
    for key in ("puzzle", "solver", "encoding", "message"):
        if not isinstance(obj[key], str):
            reader.fail(f"{key}: expected a string, found {_kind_of(obj[key])}")
    if not isinstance(obj["times"], dict) or any(
        isinstance(v, bool) or not isinstance(v, (int, float)) for v in obj["times"].values()
    ):
        reader.fail("times: expected an object of stage names to seconds")
    out = dict(obj)
    if obj["grid"] is not None or "second_grid" in obj or "forced" in obj:
        height, width = reader.size(obj)
        for key in ("grid", "second_grid", "forced"):
            if obj.get(key) is not None:
                out[key] = reader.grid(obj[key], key, height, width)
    if status == "sat" and obj["grid"] is None:
        reader.fail("grid: a result with status 'sat' must have the solution grid")
    return out
