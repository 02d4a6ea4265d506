"""The SVG pictures: well-formed, the right texts and heavy borders, and what a rasteriser draws."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from conftest import INSTANCES
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.blocknumber.render import svg_picture as render_blocknumber
from fillsmt.fillomino.render import svg_picture as render_fillomino
from fillsmt.pictures.svg import CellText, Style, grid_svg, region_edges, render_labelled, render_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def _texts(root: ET.Element) -> list[ET.Element]:
    return root.findall("svg:g[@id='numbers']/svg:text", NS)


def _borders(root: ET.Element) -> list[ET.Element]:
    return root.findall("svg:g[@id='borders']/svg:line", NS)


def _g12():
    return read_puzzle(str(INSTANCES / "g12-5x5.txt"))


def test_unsolved_puzzle_shows_clues_grid_and_frame_only():
    root = _parse(render_svg(_g12()))
    texts = _texts(root)
    assert len(texts) == 11  # 25 cells, 14 empty
    assert all(t.get("class") == "clue" and t.get("font-weight") == "bold" for t in texts)
    assert _borders(root) == []
    assert len(root.findall("svg:g[@id='grid']/svg:line", NS)) == 4 + 4
    assert root.find("svg:rect[@id='frame']", NS) is not None
    assert root.get("width") == root.get("height") == str(2 * 10 + 5 * 40)


def test_solved_puzzle_shows_every_number_and_the_region_borders():
    root = _parse(render_svg(_g12(), G12_SOLUTION))
    texts = _texts(root)
    assert len(texts) == 25
    assert sum(t.get("class") == "solved" for t in texts) == 14
    assert {t.get("fill") for t in texts if t.get("class") == "solved"} == {Style().solved_colour}
    # the first row reads 1 4 2 2 1
    assert [t.text for t in texts[:5]] == ["1", "4", "2", "2", "1"]
    assert len(_borders(root)) == 28


def test_small_solved_grid_has_exactly_its_region_borders():
    p = Puzzle(2, 3, ((1, 0, 0), (0, 0, 3)))
    root = _parse(render_fillomino(p, ((1, 2, 2), (3, 3, 3))))
    # 1 | 2 2 over 3 3 3: one wall between 1 and 2, and three between the rows
    lines = {(l.get("x1"), l.get("y1"), l.get("x2"), l.get("y2")) for l in _borders(root)}
    assert lines == {("50", "10", "50", "50"), ("10", "50", "50", "50"), ("50", "50", "90", "50"),
                     ("90", "50", "130", "50")}


def test_region_edges_in_cell_units():
    assert region_edges(((1, 2, 2), (3, 3, 3))) == [(1, 0, 1, 1), (0, 1, 1, 1), (1, 1, 2, 1), (2, 1, 3, 1)]
    assert region_edges(((7, 7), (7, 7))) == []


def test_blocknumber_draws_block_borders_even_unsolved():
    plain = pytest.importorskip("fillsmt.blocknumber.plain_format", reason="fillsmt.blocknumber is not there yet")
    p = plain.parse_puzzle("2 3\n2 0 0\n0 1 0\n0 0 1\n2 2 1\n")
    root = _parse(render_svg(p))
    assert len(_borders(root)) == 4
    assert [t.text for t in _texts(root)] == ["2", "1"]
    solved = _parse(render_blocknumber(p, ((2, 1, 2), (2, 1, 1))))
    assert len(_texts(solved)) == 6
    assert len(_borders(solved)) == 4


def test_labelled_grid_shades_uncovered_cells():
    root = _parse(render_labelled(["AAB.", "ACBB", "CC.B", "DDDD"]))
    assert len(root.findall("svg:g[@id='shading']/svg:rect", NS)) == 2
    texts = _texts(root)
    assert len(texts) == 14 and {t.get("class") for t in texts} == {"label"}
    edges = region_edges(["AAB.", "ACBB", "CC.B", "DDDD"])
    assert len(_borders(root)) == len(edges)
    assert len(_texts(_parse(render_labelled([[1, 1], [2, "."]], show_labels=False)))) == 0


def test_long_numbers_get_a_smaller_font():
    root = _parse(grid_svg(1, 2, texts=[CellText(0, 0, "7"), CellText(0, 1, "123")]))
    one, three = (float(t.get("font-size")) for t in _texts(root))
    assert three < one


def test_text_is_escaped_and_the_title_kept():
    svg = render_labelled([["<a>", "&"]], title="tiling <1>")
    root = _parse(svg)
    assert root.find("svg:title", NS).text == "tiling <1>"
    assert [t.text for t in _texts(root)] == ["<a>", "&"]


def test_shape_mismatches_are_refused():
    with pytest.raises(ValueError, match="the solution grid is 1x2, the puzzle is 5x5"):
        render_svg(_g12(), ((1, 1),))
    with pytest.raises(TypeError):
        render_svg(object())
    with pytest.raises(ValueError):
        grid_svg(0, 3)


# --- rasterised: what a person would see ------------------------------------------------------

def _rasterise(svg: str) -> bytes:
    try:
        import resvg_py
    except ImportError:
        resvg_py = None
    if resvg_py is not None:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    try:
        import cairosvg
        return cairosvg.svg2png(bytestring=svg.encode())
    except (ImportError, OSError):  # cairosvg also needs the system's libcairo
        pytest.skip("no SVG rasteriser installed (pip install resvg-py, or cairosvg with libcairo)")


def test_rasterised_solution_has_heavy_lines_thin_lines_and_readable_numbers():
    Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    png = _rasterise(render_svg(_g12(), G12_SOLUTION))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (220, 220)

    def dark(p):
        return sum(p) < 150

    # the frame and the heavy line right of the top-left 1; the thin grey line between the 2 2
    assert dark(image.getpixel((10, 100)))
    assert dark(image.getpixel((50, 30)))
    grey = image.getpixel((130, 30))
    assert not dark(grey) and grey != (255, 255, 255)

    def count(box, test):
        x0, y0 = box
        return sum(test(image.getpixel((x, y))) for x in range(x0 + 6, x0 + 34) for y in range(y0 + 6, y0 + 34))

    # a bold black clue in the top-left cell, a blue solved number beside it
    assert count((10, 10), dark) > 30
    assert count((50, 10), lambda p: p[2] > 150 and p[0] < 120) > 30
