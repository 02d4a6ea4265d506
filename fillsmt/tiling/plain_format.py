"""The tiling text format: read, write, recognise.

::

    # comment
    board 11 11               (or `board` alone, then a picture: `.` free, `#` blocked)
    rotations no              (yes / no; default no)
    reflections no            (yes / no; default no)
    blocked 0 0, 3 4          (optional, any number of lines; row col, counted from 0)
    piece T max 3             (a name, then an optional copy limit)
    ###
    .#.
    piece L
    #.
    #.
    ##

A piece's picture follows its ``piece`` line: ``#`` is a cell, ``.`` a gap; rows may be of
different lengths. Outside a picture, a line starting with ``#`` is a comment; inside one, a
line starting with ``#`` is a comment only when it holds more than ``#`` and ``.``.
Blank lines are ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fillsmt import limits
from fillsmt.errors import FormatError

if TYPE_CHECKING:  # the model loads when a problem is read or written, not when a file's kind is told
    from fillsmt.tiling.model import Piece, TilingProblem

KEYWORDS = ("board", "rotations", "reflections", "blocked", "piece")


def _is_picture_row(line: str) -> bool:
    return bool(line) and set(line) <= {"#", "."}


def _number(word: str, source: str, line: int, what: str, minimum: int) -> int:
    try:
        value = limits.checked_int(word, what) if limits.is_int(word) else None
    except ValueError as e:
        raise FormatError(source, line, str(e)) from None
    if value is None or value < minimum:
        kind = "positive" if minimum > 0 else "non-negative"
        raise FormatError(source, line, f"{what} must be a {kind} whole number, got {limits.shown(word)}")
    return value


def _yes_no(words: list[str], source: str, line: int) -> bool:
    if len(words) != 2 or words[1] not in ("yes", "no"):
        raise FormatError(source, line, f"expected '{words[0]} yes' or '{words[0]} no', got {' '.join(words)!r}")
    return words[1] == "yes"


class _Reader:
    def __init__(self, source: str):
        self.source = source
        self.size: tuple[int, int] | None = None
        self.board_line: int | None = None
        self.board_rows: list[tuple[int, str]] = []
        self.blocked: list[tuple[int, tuple[int, int]]] = []
        self.rotations = False
        self.reflections = False
        self.seen_option: dict[str, int] = {}
        self.pieces: list[dict] = []  # name, limit, line, rows
        self.picture: list | None = None  # the rows list pictures are appended to

    def fail(self, line: int | None, problem: str) -> FormatError:
        return FormatError(self.source, line, problem)

    def line(self, n: int, raw: str) -> None:
        text = raw.strip()
        if not text:
            return
        if self.picture is not None and _is_picture_row(text):
            self.picture.append((n, text))
            return
        if text.startswith("#"):
            return
        if _is_picture_row(text):
            raise self.fail(n, f"picture row {text!r} outside a piece or board picture")
        words = text.split()
        keyword = words[0]
        self.picture = None
        if keyword == "board":
            self.board(n, words)
        elif keyword in ("rotations", "reflections"):
            if keyword in self.seen_option:
                raise self.fail(n, f"'{keyword}' is given twice (first on line {self.seen_option[keyword]})")
            self.seen_option[keyword] = n
            setattr(self, keyword, _yes_no(words, self.source, n))
        elif keyword == "blocked":
            self.blocked_cells(n, text[len("blocked") :])
        elif keyword == "piece":
            self.piece(n, words)
        elif set(text) <= {"#", ".", " ", "\t"}:
            raise self.fail(n, f"picture row {text!r} has spaces inside")
        else:
            raise self.fail(n, f"unknown keyword {keyword!r}; expected one of {', '.join(KEYWORDS)}")

    def board(self, n: int, words: list[str]) -> None:
        if self.board_line is not None:
            raise self.fail(n, f"'board' is given twice (first on line {self.board_line})")
        self.board_line = n
        if len(words) == 1:
            self.picture = self.board_rows
            return
        if len(words) != 3:
            raise self.fail(n, f"expected 'board HEIGHT WIDTH' (or 'board' and a picture), got {' '.join(words)!r}")
        self.size = (
            _number(words[1], self.source, n, "the board height", 1),
            _number(words[2], self.source, n, "the board width", 1),
        )
        self.check_size(n, *self.size)
        self.picture = self.board_rows

    def check_size(self, n: int | None, height: int, width: int) -> None:
        try:
            limits.check_cells(height, width, "board")
        except ValueError as e:
            raise self.fail(n, str(e)) from None

    def blocked_cells(self, n: int, rest: str) -> None:
        for part in rest.split(","):
            words = part.split()
            if len(words) != 2:
                raise self.fail(
                    n,
                    f"expected 'blocked ROW COL, ROW COL, …', got {part.strip()!r} where a row and a column should be",
                )
            r = _number(words[0], self.source, n, "a blocked cell's row", 0)
            c = _number(words[1], self.source, n, "a blocked cell's column", 0)
            self.blocked.append((n, (r, c)))

    def piece(self, n: int, words: list[str]) -> None:
        if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "max"):
            raise self.fail(n, f"expected 'piece NAME' or 'piece NAME max COUNT', got {' '.join(words)!r}")
        name = words[1]
        if name.startswith("#") or name.startswith("."):
            raise self.fail(n, f"a piece name may not start with '#' or '.', got {name!r}")
        for other in self.pieces:
            if other["name"] == name:
                raise self.fail(n, f"piece name {name!r} is used twice (first on line {other['line']})")
        limit = _number(words[3], self.source, n, f"the copy limit of piece {name!r}", 0) if len(words) == 4 else None
        rows: list[tuple[int, str]] = []
        self.pieces.append({"name": name, "limit": limit, "line": n, "rows": rows})
        self.picture = rows

    # -- after the last line -------------------------------------------------------------------
    def board_size(self) -> tuple[int, int]:
        if self.board_line is None:
            raise self.fail(None, "no 'board' line: expected 'board HEIGHT WIDTH' before the pieces")
        rows = self.board_rows
        if self.size is None:
            if not rows:
                raise self.fail(
                    self.board_line, "'board' without a size needs a picture below it ('.' free, '#' blocked)"
                )
            width = len(rows[0][1])
            for n, text in rows:
                if len(text) != width:
                    raise self.fail(n, f"board picture rows must all be {width} wide, this one is {len(text)}")
            self.check_size(self.board_line, len(rows), width)
            return len(rows), width
        height, width = self.size
        if rows:
            if len(rows) != height:
                raise self.fail(rows[0][0], f"the board picture has {len(rows)} rows, 'board' says {height}")
            for n, text in rows:
                if len(text) != width:
                    raise self.fail(n, f"board picture rows must all be {width} wide, this one is {len(text)}")
        return height, width

    def problem(self) -> TilingProblem:
        from fillsmt.tiling.model import TilingProblem

        height, width = self.board_size()
        blocked = {(r, c) for r, (_, text) in enumerate(self.board_rows) for c, ch in enumerate(text) if ch == "#"}
        for n, (r, c) in self.blocked:
            if not (r < height and c < width):
                raise self.fail(
                    n,
                    f"blocked cell {r} {c} is outside the {height}x{width} board "
                    f"(rows 0..{height - 1}, columns 0..{width - 1})",
                )
            blocked.add((r, c))
        if not self.pieces:
            raise self.fail(None, "no pieces: expected at least one 'piece NAME' with a picture")
        pieces = tuple(self.make_piece(p, height, width) for p in self.pieces)
        return TilingProblem(height, width, frozenset(blocked), pieces, self.rotations, self.reflections, self.source)

    def make_piece(self, p: dict, height: int, width: int) -> Piece:
        from fillsmt.tiling.model import Piece, extent, is_connected, normalise, orientations

        name, n = p["name"], p["line"]
        cells = normalise((r, c) for r, (_, text) in enumerate(p["rows"]) for c, ch in enumerate(text) if ch == "#")
        if not cells:
            raise self.fail(n, f"piece {name!r} has no cells (draw it below its 'piece' line with '#')")
        if not is_connected(cells):
            raise self.fail(n, f"piece {name!r} is not connected (its cells must touch side by side)")
        fits = [
            s
            for s in orientations(cells, self.rotations, self.reflections)
            if extent(s)[0] <= height and extent(s)[1] <= width
        ]
        if not fits:
            h, w = extent(cells)
            raise self.fail(
                n, f"piece {name!r} ({h}x{w}) does not fit on the {height}x{width} board in any allowed orientation"
            )
        return Piece(name, cells, p["limit"])


def parse_problem(text: str, source: str = "<text>") -> TilingProblem:
    """The :class:`TilingProblem` written in ``text``; a :class:`FormatError` names ``source``,
    the line and what was expected."""
    reader = _Reader(source)
    for n, raw in enumerate(text.splitlines(), start=1):
        reader.line(n, raw)
    return reader.problem()


def read_problem(path: str) -> TilingProblem:
    """Read a problem file (``-``: standard input)."""
    from fillsmt.formats.text import read_text

    text, source = read_text(path)
    return parse_problem(text, source)


def looks_like_tiling(text: str) -> bool:
    """True when the first meaningful word of ``text`` is a tiling keyword (never raises)."""
    try:
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            return line.split()[0] in KEYWORDS
        return False
    except Exception:  # noqa: BLE001 - detection must never fail
        return False


def picture(cells) -> list[str]:
    """The rows of a piece's picture (``#`` cell, ``.`` gap)."""
    from fillsmt.tiling.model import extent

    h, w = extent(cells)
    return ["".join("#" if (r, c) in cells else "." for c in range(w)) for r in range(h)]


def format_problem(p: TilingProblem) -> str:
    """``p`` in the text format; :func:`parse_problem` reads it back to an equal problem."""
    lines = [
        f"board {p.height} {p.width}",
        f"rotations {'yes' if p.rotations else 'no'}",
        f"reflections {'yes' if p.reflections else 'no'}",
    ]
    blocked = sorted(p.blocked)
    for i in range(0, len(blocked), 10):
        lines.append("blocked " + ", ".join(f"{r} {c}" for r, c in blocked[i : i + 10]))
    for piece in p.pieces:
        limit = f" max {piece.limit}" if piece.limit is not None else ""
        lines.append(f"piece {piece.name}{limit}")
        lines.extend(picture(piece.cells))
    return "\n".join(lines) + "\n"
