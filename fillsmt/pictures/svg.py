"""SVG pictures of puzzles and solutions, drawn the way puzzle sites draw them.

One core, :func:`grid_svg`, draws any rectangular grid: thin grey cell lines, a heavy line
between every two side-by-side cells whose region labels differ, a heavy outer frame, optional
shaded cells, and a number or letter in each cell (clues bold black, solved numbers in blue).
Each kind's picture is a thin layer over it, in the kind's own package (its ``render`` module, behind
the kind's :class:`~fillsmt.protocol.Pictures`); here are what they share:

* :func:`number_texts` — clues bold, solved numbers blue;
* :func:`render_labelled` — a labelled grid (each placed piece of a tiling has its label, ``.``
  marks an uncovered cell, drawn shaded), heavy lines between different labels;
* :func:`render_svg` — the picture of a puzzle of any kind, through its kind;
* :func:`file_title` — a puzzle's source as a title: its file name, never the folders.

Pure functions from data to text (``xml.etree.ElementTree``, no other dependency); the groups
carry ids (``grid``, ``borders``, ``numbers``, ``shading``, ``frame``) so tests and stylesheets
can find the parts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Sequence

SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True)
class Style:
    """Sizes in pixels and colours of a picture."""

    cell: int = 40
    margin: int = 10
    thin: float = 1.0
    thick: float = 3.5
    grid_colour: str = "#a0a0a0"
    border_colour: str = "#000000"
    clue_colour: str = "#000000"
    solved_colour: str = "#1f5fd0"
    label_colour: str = "#303030"
    shade_colour: str = "#d8d8d8"
    background: str = "#ffffff"
    font_family: str = "Helvetica, Arial, 'DejaVu Sans', 'Liberation Sans', sans-serif"


DEFAULT_STYLE = Style()


@dataclass(frozen=True)
class CellText:
    """Text written in one cell; ``role`` is ``clue`` (bold black), ``solved`` (blue) or ``label``."""

    row: int
    col: int
    text: str
    role: str = "clue"


def region_edges(labels: Sequence[Sequence[Hashable]]) -> list[tuple[int, int, int, int]]:
    """The inner cell edges between side-by-side cells of different labels.

    Each edge is (x1, y1, x2, y2) in cell units, x along the columns and y down the rows; the
    outer frame is not included. A cell labelled None (not known yet, as an empty cell of a
    player's grid) has no edge on any side.
    """
    height, width = len(labels), len(labels[0]) if labels else 0

    def differ(a: Hashable, b: Hashable) -> bool:
        return a is not None and b is not None and a != b

    edges = []
    for r in range(height):
        for c in range(width - 1):
            if differ(labels[r][c], labels[r][c + 1]):
                edges.append((c + 1, r, c + 1, r + 1))
    for r in range(height - 1):
        for c in range(width):
            if differ(labels[r][c], labels[r + 1][c]):
                edges.append((c, r + 1, c + 1, r + 1))
    return edges


def _number(x: float) -> str:
    return f"{x:g}"


class _Canvas:
    def __init__(self, height: int, width: int, style: Style, title: str | None):
        self.style, self.height, self.width = style, height, width
        s = style
        self.size = (2 * s.margin + width * s.cell, 2 * s.margin + height * s.cell)
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "version": "1.1",
                "width": str(self.size[0]),
                "height": str(self.size[1]),
                "viewBox": f"0 0 {self.size[0]} {self.size[1]}",
            },
        )
        if title:
            ET.SubElement(self.root, "title").text = title
        ET.SubElement(
            self.root,
            "rect",
            {"x": "0", "y": "0", "width": str(self.size[0]), "height": str(self.size[1]), "fill": s.background},
        )

    def x(self, col: float) -> float:
        return self.style.margin + col * self.style.cell

    def y(self, row: float) -> float:
        return self.style.margin + row * self.style.cell

    def group(self, gid: str, **attrs: str) -> ET.Element:
        return ET.SubElement(self.root, "g", {"id": gid, **attrs})

    def line(self, parent: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
        ET.SubElement(
            parent,
            "line",
            {
                "x1": _number(self.x(x1)),
                "y1": _number(self.y(y1)),
                "x2": _number(self.x(x2)),
                "y2": _number(self.y(y2)),
            },
        )

    def shading(self, cells: Iterable[tuple[int, int]]) -> None:
        cells = list(cells)
        if not cells:
            return
        g = self.group("shading", fill=self.style.shade_colour)
        for r, c in cells:
            ET.SubElement(
                g,
                "rect",
                {
                    "x": _number(self.x(c)),
                    "y": _number(self.y(r)),
                    "width": str(self.style.cell),
                    "height": str(self.style.cell),
                },
            )

    def grid_lines(self) -> None:
        g = self.group("grid", stroke=self.style.grid_colour, **{"stroke-width": _number(self.style.thin)})
        for c in range(1, self.width):
            self.line(g, c, 0, c, self.height)
        for r in range(1, self.height):
            self.line(g, 0, r, self.width, r)

    def borders(self, edges: Sequence[tuple[int, int, int, int]]) -> None:
        g = self.group(
            "borders",
            stroke=self.style.border_colour,
            **{"stroke-width": _number(self.style.thick), "stroke-linecap": "square"},
        )
        for x1, y1, x2, y2 in edges:
            self.line(g, x1, y1, x2, y2)

    def texts(self, texts: Iterable[CellText]) -> None:
        s = self.style
        g = self.group("numbers", **{"font-family": s.font_family, "text-anchor": "middle"})
        colours = {"clue": s.clue_colour, "solved": s.solved_colour, "label": s.label_colour}
        for t in texts:
            size = s.cell * min(0.62, 1.1 / max(len(t.text), 1))
            attrs = {
                "x": _number(self.x(t.col + 0.5)),
                # about a third of the font size below the centre puts the digits' middle there
                "y": _number(round(self.y(t.row + 0.5) + 0.35 * size, 2)),
                "font-size": _number(round(size, 2)),
                "fill": colours[t.role],
                "class": t.role,
            }
            if t.role == "clue":
                attrs["font-weight"] = "bold"
            ET.SubElement(g, "text", attrs).text = t.text

    def notes(self, notes: Iterable[CellText]) -> None:
        """Small text in the top left corner of cells (e.g. the step that filled a cell)."""
        notes = list(notes)
        if not notes:
            return
        s = self.style
        size = round(s.cell * 0.26, 2)
        g = self.group(
            "notes",
            **{"font-family": s.font_family, "font-size": _number(size), "fill": s.label_colour, "class": "note"},
        )
        for t in notes:
            ET.SubElement(
                g,
                "text",
                {
                    "x": _number(round(self.x(t.col) + 0.08 * s.cell, 2)),
                    "y": _number(round(self.y(t.row) + 0.08 * s.cell + size * 0.8, 2)),
                },
            ).text = t.text

    def frame(self) -> None:
        s = self.style
        ET.SubElement(
            self.root,
            "rect",
            {
                "id": "frame",
                "x": _number(self.x(0)),
                "y": _number(self.y(0)),
                "width": str(self.width * s.cell),
                "height": str(self.height * s.cell),
                "fill": "none",
                "stroke": s.border_colour,
                "stroke-width": _number(s.thick),
                "stroke-linejoin": "miter",
            },
        )

    def text(self) -> str:
        ET.indent(self.root)
        return ET.tostring(self.root, encoding="unicode") + "\n"


def grid_svg(
    height: int,
    width: int,
    *,
    labels: Sequence[Sequence[Hashable]] | None = None,
    texts: Iterable[CellText] = (),
    shaded: Iterable[tuple[int, int]] = (),
    style: Style = DEFAULT_STYLE,
    title: str | None = None,
    notes: Iterable[CellText] = (),
) -> str:
    """The core picture: a height×width grid with heavy lines between different ``labels``.

    Without ``labels`` only the thin cell lines and the outer frame are drawn. ``shaded`` cells
    are filled grey under everything else; ``notes`` are small texts in cells' top left corners.
    """
    if height < 1 or width < 1:
        raise ValueError(f"a grid needs at least one cell, not {height}x{width}")
    if labels is not None:
        check_shape(labels, height, width, "labels")
    canvas = _Canvas(height, width, style, title)
    canvas.shading(shaded)
    canvas.grid_lines()
    canvas.borders(region_edges(labels) if labels is not None else [])
    canvas.texts(texts)
    canvas.notes(notes)
    canvas.frame()
    return canvas.text()


def file_title(source: str | None) -> str | None:
    """A puzzle's source as a picture's title: the file name alone (a picture is shared, the
    folders it came from are the author's own); a URL or ``<stdin>`` stays as it is."""
    if not source or "://" in source:
        return source
    return source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or source


def check_shape(grid: Sequence[Sequence[Any]], height: int, width: int, name: str) -> None:
    if len(grid) != height or any(len(row) != width for row in grid):
        shape = f"{len(grid)}x{len(grid[0]) if grid else 0}"
        raise ValueError(f"the {name} grid is {shape}, the puzzle is {height}x{width}")


def number_texts(givens: Sequence[Sequence[int]], grid: Sequence[Sequence[int]] | None) -> list[CellText]:
    """Clues in bold; with a solution, every other cell's number as solved."""
    texts = []
    for r, row in enumerate(givens):
        for c, given in enumerate(row):
            if given:
                texts.append(CellText(r, c, str(given), "clue"))
            elif grid is not None and grid[r][c]:
                texts.append(CellText(r, c, str(grid[r][c]), "solved"))
    return texts


def render_labelled(
    labels: Sequence[Sequence[Hashable]],
    *,
    empty: Hashable = ".",
    show_labels: bool = True,
    style: Style = DEFAULT_STYLE,
    title: str | None = None,
) -> str:
    """A labelled grid (e.g. a tiling): heavy lines between different labels, ``empty`` shaded.

    Each label is written in its cells when ``show_labels``; an ``empty`` cell gets no text.
    """
    height, width = len(labels), len(labels[0]) if labels else 0
    shaded = [(r, c) for r in range(height) for c in range(width) if labels[r][c] == empty]
    texts = [
        CellText(r, c, str(labels[r][c]), "label")
        for r in range(height)
        for c in range(width)
        if show_labels and labels[r][c] != empty
    ]
    return grid_svg(height, width, labels=labels, texts=texts, shaded=shaded, style=style, title=title)


def render_svg(
    puzzle: Any, grid: Sequence[Sequence[int]] | None = None, *, style: Style = DEFAULT_STYLE, title: str | None = None
) -> str:
    """The picture of a puzzle of any kind (its kind's ``svg``), solved when ``grid`` is given."""
    from fillsmt.kinds import kind_of
    from fillsmt.protocol import Pictures

    return Pictures.of(kind_of(puzzle), puzzle.source).svg(puzzle, grid, title=title, style=style)
