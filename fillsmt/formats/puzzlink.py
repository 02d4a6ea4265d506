"""puzz.link / pzprjs URLs: the frame every URL shares and the codes of their bodies.

The kinds that have puzz.link puzzles (:class:`fillsmt.protocol.UrlForm`: Fillomino's ``fillomino``,
BlockNumber's ``suguru``) read and write their own bodies with these codes, in their packages
(``fillomino/url.py``, ``blocknumber/url.py``); :func:`parse_url` finds the kind by the URL's type.

A URL has the shape ``https://puzz.link/p?<type>/[<flag>/]<cols>/<rows>/<body>`` (columns
first). The older host ``pzv.jp/p.html?``, ``http://``, no scheme at all and ``www.`` are read
too, and so is one trailing ``/`` (pzprjs adds it when a body ends in a character that is not a
letter or a digit). :func:`to_url` always writes the ``https://puzz.link/p?`` form.

The body follows pzprjs (``shared/docs/FORMATS.md``):

* numbers, cell by cell, row by row: ``0``–``f`` one hex digit; ``-`` and 2 hex digits;
  ``+`` and 3 hex digits; ``=`` and 3 hex digits (4096 added) and ``%`` and 3 hex digits (8192
  added), so clues up to 12287; ``.`` a number that is not shown ("?"); ``g``–``z`` a run of
  1–20 empty cells (``g`` = 1, ``z`` = 20; longer runs take several letters);
* walls: first the (cols−1)×rows walls between side-by-side cells, row by row, then the
  cols×(rows−1) walls between stacked cells, row by row; each group is packed five walls to a
  base-32 digit (``0``–``9``, ``a``–``v``), first wall in the highest bit, the last digit padded
  with zero bits.

``fillomino``: the numbers, then given borders (walls) only when the puzzle has any, detected as
pzprjs does it: by characters left over after the last cell. ``suguru``: the walls, always, then
the numbers; the regions are the groups of cells no wall separates.

What fillsmt does with what its puzzle models have no place for:

* ``?`` clues (``.``) are refused by default. With ``unknown="empty"`` they are read as empty
  cells: exact for solving (a "?" cell holds whatever its region makes it, like an empty cell),
  but :func:`to_url` then writes an empty cell, so that URL does not come back unchanged.
* The ``t`` flag (Fillomino "tri": no region larger than 3) is refused, and so is any other flag
  (each named in the message): a rule the encoders do not know must not be dropped silently.
* Given borders in a fillomino URL are refused when any wall is drawn (a drawn border would be a
  rule: different regions on its two sides); a border section with no wall drawn means no borders.
* A suguru wall with the same region on both sides (a dead end inside a region) is dropped: the
  regions are the puzzle, and :func:`to_url` writes exactly the walls between different regions.

pzprjs reads leniently (an unknown character counts as an empty cell, a short body leaves the
remaining cells empty, a run may overshoot the last cell, padding bits are ignored); fillsmt
refuses each of these with a one-line :class:`~fillsmt.errors.FormatError` that names the URL
(shortened) and the problem, positions in the body counted from 1. Clues are checked as in the
plain formats: a fillomino clue is 1..H×W; a suguru puzzle goes through the BlockNumber reader's
own checks (a given larger than its region, two equal givens in a region or touching).

Round trips: ``to_url(parse_url(u)) == u`` for every URL as pzprjs writes it on the puzz.link
host, and ``parse_url(to_url(p), source=p.source) == p`` for every puzzle. (For clues of 4096
and more pzprjs writes the ``=``/``%`` digits without zero padding, which its own reader cannot
read back; fillsmt pads them to 3 digits.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from fillsmt import limits
from fillsmt.errors import FormatError, InputError

PUZZLINK_PREFIX = "https://puzz.link/p?"

MAX_CLUE = 8192 + 0xFFF
"""The largest number a puzz.link body can hold (``%`` and three hex digits)."""

UNKNOWN_CHOICES = ("refuse", "empty")

_URL = re.compile(r"(?:(?i:https?)://)?(?:(?i:www)\.)?(?i:puzz\.link/p|pzv\.jp/p\.html)\?(?P<query>[^\s#]*)(?:#\S*)?")
"""A puzz.link or pzv.jp URL; a ``#fragment`` at its end is for the browser and is ignored."""
_HEX = "0123456789abcdef"
_BASE32 = "0123456789abcdefghijklmnopqrstuv"
_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}
"""A prefix character → (how many hex digits follow, what is added to their value)."""
_RUN_MAX = 20
_SHORT = 60


def is_puzzle_url(text: str) -> bool:
    """True when ``text`` (surrounding whitespace aside) is a puzz.link or pzv.jp puzzle URL.

    Only the host and ``?`` are looked at; :func:`parse_url` reports what is wrong after them.
    """
    return _URL.fullmatch(text.strip()) is not None


def shorten(url: str, limit: int = _SHORT) -> str:
    """The URL as messages name it: whole when short, else its first characters and an ellipsis."""
    url = url.strip()
    return url if len(url) <= limit else url[: limit - 1] + "…"


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def at(index: int, width: int) -> str:
    r, c = divmod(index, width)
    return f"row {r + 1}, column {c + 1}"


class Body:
    """A URL body being read from left to right; every problem raises a FormatError."""

    def __init__(self, text: str, source: str):
        self.text, self.source, self.pos = text, source, 0

    def fail(self, problem: str):
        raise FormatError(self.source, None, problem)

    def where(self, i: int) -> str:
        return f"at position {i + 1} of the body"

    def numbers(self, count: int, width: int) -> list[int | None]:
        """``count`` cells of numbers: a value, 0 for an empty cell, None for a ``?``.

        A clue 0 is refused (``width`` names its row and column): no kind read here has one.
        """
        values: list[int | None] = []
        text = self.text
        while len(values) < count:
            i = self.pos
            if i >= len(text):
                if not text:
                    self.fail(f"the body is empty; expected the {count} cells")
                self.fail(f"the body ends after {len(values)} of the {count} cells")
            ch = text[i]
            if ch in _HEX:
                values.append(self.clue(int(ch, 16), len(values), width))
                self.pos += 1
            elif ch in _WIDE:
                n, offset = _WIDE[ch]
                digits = text[i + 1 : i + 1 + n]
                if len(digits) < n or any(d not in _HEX for d in digits):
                    self.fail(f"{ch!r} {self.where(i)} must be followed by {n} hex digits, found {digits!r}")
                values.append(self.clue(int(digits, 16) + offset, len(values), width))
                self.pos += 1 + n
            elif ch == ".":
                values.append(None)
                self.pos += 1
            elif "g" <= ch <= "z":
                run, left = ord(ch) - ord("f"), count - len(values)
                if run > left:
                    self.fail(
                        f"the run of {run} empty cells {ch!r} {self.where(i)} goes past the last cell ({left} left)"
                    )
                values.extend([0] * run)
                self.pos += 1
            else:
                self.fail(
                    f"unexpected character {ch!r} {self.where(i)}; expected a hex digit 0-f, "
                    f"'-', '+', '=', '%', '.' or a run letter g-z"
                )
        return values

    def clue(self, value: int, index: int, width: int) -> int:
        if value == 0:
            self.fail(f"the clue 0 at {at(index, width)}: a clue is at least 1")
        return value

    def wall_group(self, count: int) -> list[bool]:
        """``count`` walls packed five to a base-32 digit, highest bit first."""
        nchars = (count + 4) // 5
        start = self.pos
        chunk = self.text[start : start + nchars]
        bits: list[bool] = []
        for k, ch in enumerate(chunk):
            if ch not in _BASE32:
                self.fail(f"unexpected character {ch!r} {self.where(start + k)}; walls are base-32 digits 0-9, a-v")
            value = int(ch, 32)
            bits.extend(bool(value >> (4 - b) & 1) for b in range(5))
        if any(bits[count:]):
            self.fail(f"the wall digit {chunk[-1]!r} {self.where(start + nchars - 1)} sets bits past the last wall")
        self.pos += nchars
        return bits[:count]

    def walls(self, cols: int, rows: int) -> tuple[list[bool], list[bool]]:
        return self.wall_group((cols - 1) * rows), self.wall_group(cols * (rows - 1))

    def rest(self) -> str:
        return self.text[self.pos :]


def wall_chars(cols: int, rows: int) -> int:
    """How many characters the walls of a cols×rows grid take."""
    return ((cols - 1) * rows + 4) // 5 + (cols * (rows - 1) + 4) // 5


@dataclass(frozen=True)
class Url:
    """A puzz.link URL taken apart: ``source`` names it in messages, ``type`` is its puzzle type,
    ``flag`` what stands before the sizes ("" for none), then the sizes and the ``body``."""

    source: str
    type: str
    flag: str
    cols: int
    rows: int
    body: str


def _split(url: str, source: str | None) -> Url:
    """A URL taken apart; the shape is checked, not the body."""
    text = url.strip()
    src = source if source is not None else shorten(text)
    m = _URL.fullmatch(text)
    if m is None:
        raise FormatError(src, None, "not a puzz.link URL; expected https://puzz.link/p?<type>/<cols>/<rows>/<body>")
    parts = m["query"].split("/")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # the trailing '/' pzprjs may add
    kind, rest = parts[0], parts[1:]
    if not kind:
        raise FormatError(src, None, "the puzzle type is missing; expected p?<type>/<cols>/<rows>/<body>")
    types = url_types()
    if kind not in types:
        raise FormatError(
            src, None, f"the puzzle type {kind!r} is not supported; fillsmt reads {' and '.join(types)} URLs"
        )
    flag = ""
    if rest and rest[0] and not limits.is_int(rest[0]):
        flag = rest.pop(0)
    if len(rest) < 2:
        found = "/".join(rest)
        raise FormatError(src, None, f"expected the number of columns and rows after '{kind}/', found {found!r}")
    cols = _size(rest[0], "number of columns", src)
    rows = _size(rest[1], "number of rows", src)
    try:
        limits.check_cells(rows, cols)
    except ValueError as e:
        raise FormatError(src, None, str(e)) from None
    return Url(src, kind, flag, cols, rows, "/".join(rest[2:]))


def url_types() -> dict[str, Any]:
    """Each puzz.link type the registered kinds read, and the kind that reads it."""
    from fillsmt.kinds import kinds
    from fillsmt.protocol import UrlForm

    return {t: kind for kind in kinds() if isinstance(kind, UrlForm) for t in kind.url_types}


def _size(text: str, name: str, src: str) -> int:
    if not limits.is_int(text):
        raise FormatError(src, None, f"the {name} {limits.shown(text)} is not a positive integer")
    try:
        value = limits.checked_int(text, f"the {name}")
        if value < 1:
            raise ValueError(f"the {name} must be at least 1, found {value}")
        limits.check_side(value, f"the {name}")
    except ValueError as e:
        raise FormatError(src, None, str(e)) from None
    return value


def parse_url(url: str, source: str | None = None, *, unknown: str = "refuse") -> Any:
    """The puzzle a puzz.link URL describes.

    The kind that reads the URL's type makes it (:meth:`fillsmt.protocol.UrlForm.from_url`).
    ``source`` names the puzzle in messages and becomes its ``source`` (default: the URL,
    shortened). ``unknown`` says what a
    ``?`` clue becomes: ``"refuse"`` (a FormatError) or ``"empty"`` (an empty cell).
    """
    if unknown not in UNKNOWN_CHOICES:
        raise ValueError(f"unknown= must be one of {UNKNOWN_CHOICES}, not {unknown!r}")
    found = _split(url, source)
    return url_types()[found.type].from_url(found, unknown)


def refuse_flag(url: Url, named: dict[str, str] | None = None) -> None:
    """Refuse a flag before the sizes: a rule the encoders do not know must not be dropped
    silently. ``named``: the flags of the URL's type that the kind knows, with what to say of each."""
    said = (named or {}).get(url.flag)
    if said is not None:
        raise FormatError(url.source, None, said)
    if url.flag:
        raise FormatError(
            url.source,
            None,
            f"the flag {url.flag!r} before the sizes is not supported; fillsmt reads {url.type} URLs without flags",
        )


def clue_values(values: Sequence[int | None], width: int, src: str, unknown: str) -> list[int]:
    """The numbers with ``?`` resolved by ``unknown``."""
    out = []
    for i, v in enumerate(values):
        if v is None:
            if unknown == "refuse":
                raise FormatError(
                    src,
                    None,
                    f"'?' clues (cells whose number is not shown) are not "
                    f"supported yet; the first is at {at(i, width)}",
                )
            v = 0
        out.append(v)
    return out


def rows_of(values: Sequence[int], rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows))


def regions_from_walls(
    cols: int, rows: int, vertical: Sequence[bool], horizontal: Sequence[bool]
) -> tuple[tuple[int, ...], ...]:
    """Region labels 0, 1, … (row-major order of first cell) of the groups no wall separates.

    ``vertical[r*(cols-1) + c]`` is the wall right of (r, c); ``horizontal[r*cols + c]`` the
    wall below (r, c).
    """
    label = [[-1] * cols for _ in range(rows)]
    count = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if label[r0][c0] >= 0:
                continue
            label[r0][c0] = count
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                steps = []
                if c + 1 < cols and not vertical[r * (cols - 1) + c]:
                    steps.append((r, c + 1))
                if c > 0 and not vertical[r * (cols - 1) + c - 1]:
                    steps.append((r, c - 1))
                if r + 1 < rows and not horizontal[r * cols + c]:
                    steps.append((r + 1, c))
                if r > 0 and not horizontal[(r - 1) * cols + c]:
                    steps.append((r - 1, c))
                for nr, nc in steps:
                    if label[nr][nc] < 0:
                        label[nr][nc] = count
                        stack.append((nr, nc))
            count += 1
    return tuple(tuple(row) for row in label)


def walls_from_regions(labels: Sequence[Sequence[int]]) -> tuple[list[bool], list[bool]]:
    """(vertical, horizontal) walls: one between every two side-by-side cells of different labels."""
    rows, cols = len(labels), len(labels[0])
    vertical = [labels[r][c] != labels[r][c + 1] for r in range(rows) for c in range(cols - 1)]
    horizontal = [labels[r][c] != labels[r + 1][c] for r in range(rows - 1) for c in range(cols)]
    return vertical, horizontal


# --- writing ---------------------------------------------------------------------------------


def _number_token(value: int) -> str:
    if value < 16:
        return format(value, "x")
    if value < 256:
        return "-" + format(value, "02x")
    if value < 4096:
        return "+" + format(value, "03x")
    if value < 8192:
        return "=" + format(value - 4096, "03x")
    return "%" + format(value - 8192, "03x")


def encode_numbers(values: Iterable[int]) -> str:
    """Cells (0 = empty) as number tokens and runs of empty cells, as pzprjs writes them."""
    out, run = [], 0
    for v in values:
        if v == 0:
            run += 1
            if run == _RUN_MAX:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("f") + run))
            run = 0
        out.append(_number_token(v))
    if run:
        out.append(chr(ord("f") + run))
    return "".join(out)


def encode_walls(walls: Sequence[bool]) -> str:
    """Walls packed five to a base-32 digit, highest bit first, the last digit zero-padded."""
    out = []
    for start in range(0, len(walls), 5):
        group = walls[start : start + 5]
        value = sum(1 << (4 - b) for b, wall in enumerate(group) if wall)
        out.append(_BASE32[value])
    return "".join(out)


def check_clues(grid: Sequence[Sequence[int]], source: str) -> list[int]:
    width = len(grid[0])
    flat = [v for row in grid for v in row]
    for i, v in enumerate(flat):
        if v > MAX_CLUE:
            raise InputError(
                f"{source}: the clue {v} at {at(i, width)} is too large for a puzz.link URL (at most {MAX_CLUE})"
            )
        if v < 0:
            raise InputError(f"{source}: the cell at {at(i, width)} is negative ({v})")
    return flat


def make_url(kind: str, cols: int, rows: int, body: str) -> str:
    """The URL of a ``kind`` puzzle of ``cols`` × ``rows`` cells with ``body``, as pzprjs writes it."""
    url = f"{PUZZLINK_PREFIX}{kind}/{cols}/{rows}/{body}"
    return url if url[-1].isalnum() else url + "/"


def to_url(puzzle: Any) -> str:
    """The ``https://puzz.link/p?…`` URL of a puzzle whose kind has one (:class:`fillsmt.protocol.UrlForm`)."""
    from fillsmt.kinds import kind_of
    from fillsmt.protocol import UrlForm

    kind = kind_of(puzzle)
    return UrlForm.of(kind, puzzle.source).to_url(puzzle)
