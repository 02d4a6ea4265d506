"""The BlockNumber plain format: layouts, labels, round trips, kind detection, every malformed
file's exact message, and solution grids."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, ROOT
from fillsmt.blocknumber.model import Puzzle, normalise_labels
from fillsmt.blocknumber.plain_format import (format_grid, format_puzzle, looks_like_blocknumber, parse_grid,
                                              parse_puzzle, read_grid, read_puzzle)
from fillsmt.errors import FormatError

MALFORMED = DATA / "blocknumber" / "malformed"
INSTANCES = ROOT / "instances" / "blocknumber"
SUGURU = ROOT.parent / "shared" / "instances" / "blocknumber" / "suguru-sat-testcases"
FILLOMINO_SHARED = ROOT.parent / "shared" / "instances" / "fillomino"


def test_reads_a_puzzle_and_normalises_labels():
    p = parse_puzzle("2 3\n1 0 2\n0 4 0\n3 3 8\n3 3 8\n", "tiny")
    assert (p.height, p.width, p.source) == (2, 3, "tiny")
    assert p.givens == ((1, 0, 2), (0, 4, 0))
    assert p.blocks == ((0, 0, 1), (0, 0, 1))
    assert p.block_cells() == [[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (1, 2)]]
    assert p.block_sizes() == [4, 2] and p.block_size(1, 2) == 2 and p.block_count == 2
    assert list(p.given_cells()) == [(0, 0, 1), (0, 2, 2), (1, 1, 4)]
    assert p.empty_cells == 3 and p.block_of(1, 2) == 1


def test_any_integer_labels_and_any_layout():
    one_line = parse_puzzle("2 2 0 0 0 0 -5 -5 0 0")
    ragged = parse_puzzle("\t2\n2\n\n0   0\r\n0\n0  -5 -5\n 0   0\n")
    assert one_line.blocks == ragged.blocks == ((0, 0), (1, 1))


def test_labels_are_normalised_in_row_major_order_of_first_appearance():
    assert normalise_labels([[9, 9, 4], [7, 4, 4]]) == ((0, 0, 1), (2, 1, 1))
    made = Puzzle(2, 3, [[0, 0, 0], [0, 0, 0]], [[9, 9, 4], [7, 4, 4]])
    assert made.blocks == ((0, 0, 1), (2, 1, 1)) and made.givens == ((0, 0, 0), (0, 0, 0))
    assert made.block_sizes() == [2, 3, 1]


def test_givens_above_nine_are_kept():
    p = parse_puzzle("1 10\n10 0 0 0 0 0 0 0 0 0\n" + "1 " * 10)
    assert p.givens[0][0] == 10 and p.block_size(0, 0) == 10


def test_writer_aligns_each_grid():
    p = parse_puzzle("2 6\n10 0 0 0 0 0\n0 0 0 0 0 0\n1 1 1 1 1 1\n1 1 1 1 1 2\n")
    assert format_puzzle(p) == "2 6\n10  0  0  0  0  0\n 0  0  0  0  0  0\n0 0 0 0 0 0\n0 0 0 0 0 1\n"
    assert format_grid(((10, 1), (2, 10))) == "2 2\n10  1\n 2 10\n"


@st.composite
def puzzles(draw) -> Puzzle:
    """Random puzzles whose blocks are rows (always connected), with a few legal givens."""
    height, width = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    labels = [[draw(st.integers(-3, 3)) * 10 + r] * width for r in range(height)]
    givens = [[0] * width for _ in range(height)]
    for r in range(0, height, 2):  # givens on every other row, all different in a row
        c = draw(st.integers(0, width - 1))
        givens[r][c] = draw(st.integers(1, width))
    return Puzzle(height, width, tuple(map(tuple, givens)), normalise_labels(labels))


@given(puzzles())
def test_round_trip_write_then_read(puzzle):
    assert parse_puzzle(format_puzzle(puzzle), "<puzzle>") == puzzle
    assert looks_like_blocknumber(format_puzzle(puzzle))


@given(puzzles(), st.lists(st.sampled_from([" ", "  ", "\n", "\t", " \n "]), min_size=1))
def test_round_trip_through_any_separators(puzzle, seps):
    tokens = format_puzzle(puzzle).split()
    text = "".join(tok + seps[i % len(seps)] for i, tok in enumerate(tokens))
    assert parse_puzzle(text, "<puzzle>") == puzzle


@pytest.mark.parametrize("name, line, problem", [
    ("empty.txt", 1, "the file is empty; expected the height and width, then the givens and the block labels"),
    ("blank-lines.txt", 1, "the file is empty; expected the height and width, then the givens and the block labels"),
    ("one-number.txt", 1, "expected the height and the width, found only one number"),
    ("non-integer-size.txt", 1, "expected an integer for the height, found 'two'"),
    ("zero-height.txt", 1, "the height must be at least 1, found 0"),
    ("negative-width.txt", 1, "the width is negative (-2); expected a positive integer"),
    ("absurd.txt", 1, "the height 5000 is larger than the limit of 1000 "
                      "(raise it with the environment variable FILLSMT_MAX_SIDE)"),
    ("only-givens.txt", 3, "expected 8 values after the height and width (2 rows of 2 givens, then 2 rows of 2 "
                           "block labels), found only 4: the block labels are missing"),
    ("too-few.txt", 5, "expected 8 values after the height and width (2 rows of 2 givens, then 2 rows of 2 "
                       "block labels), found 7"),
    ("too-many.txt", 6, "expected 8 values after the height and width (2 rows of 2 givens, then 2 rows of 2 "
                        "block labels), found 9; the first extra value is '7'"),
    ("non-integer-given.txt", 2, "expected an integer for the given at row 1, column 2, found 'x'"),
    ("decimal-given.txt", 3, "expected an integer for the given at row 2, column 1, found '2.5'"),
    ("negative-given.txt", 2, "the given at row 1, column 2 is negative (-3); expected 0 or a positive integer"),
    ("non-integer-label.txt", 4, "expected an integer for the block label at row 1, column 1, found 'a'"),
    ("disconnected.txt", 5, "the block labelled 7 is not connected: row 1, column 1 and row 1, column 3 are both "
                            "labelled 7, but no path of side-by-side cells labelled 7 joins them"),
    ("diagonal-only.txt", 5, "the block labelled 5 is not connected: row 1, column 1 and row 2, column 2 are both "
                             "labelled 5, but no path of side-by-side cells labelled 5 joins them"),
    ("given-too-large.txt", 2, "the given 3 at row 1, column 1 is larger than its block (label 1, 2 cells); "
                               "a block of n cells holds 1..n"),
    ("equal-givens-in-block.txt", 2, "the givens at row 1, column 1 and row 1, column 3 are both 2, in the same "
                                     "block (label 4); a block holds each number once"),
    ("touching-givens.txt", 3, "the givens at row 1, column 1 and row 2, column 2 are both 1 and touch "
                               "diagonally; touching cells must hold different numbers"),
    ("side-by-side-givens.txt", 2, "the givens at row 1, column 1 and row 1, column 2 are both 2 and touch "
                                   "side by side; touching cells must hold different numbers"),
    ("binary.txt", 2, "not a text file (invalid UTF-8)"),
])
def test_malformed_files_name_file_line_and_problem(name, line, problem):
    path = str(MALFORMED / name)
    with pytest.raises(FormatError) as info:
        read_puzzle(path)
    assert (info.value.line, info.value.problem) == (line, problem)
    assert str(info.value) == f"{path}:{line}: {problem}"


def test_every_malformed_file_is_tested():
    tested = {p[0] for p in test_malformed_files_name_file_line_and_problem.pytestmark[0].args[1]}
    assert tested == {p.name for p in MALFORMED.iterdir()}


def test_read_puzzle_from_stdin(monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 2\n0 0\n4 5\n")))
    p = read_puzzle("-")
    assert p.source == "<stdin>" and p.blocks == ((0, 1),)


def test_solution_grid():
    assert parse_grid("2 3\n1 3 2\n2 4 1\n", "s", 2, 3) == ((1, 3, 2), (2, 4, 1))
    assert parse_grid(format_grid(((1, 3, 2), (2, 4, 1)))) == ((1, 3, 2), (2, 4, 1))


@pytest.mark.parametrize("text, line, problem", [
    ("2 2\n1 2\n3\n", 3, "expected 4 cell values (2 rows of 2), found 3"),
    ("2 2\n1 2\n3 4 5\n", 3, "expected 4 cell values (2 rows of 2), found 5; the first extra value is '5'"),
    ("2 2\n1 2\n3 4\n1 1\n1 1\n", 4, "expected 4 cell values (2 rows of 2), found 8: this looks like a puzzle file "
                                     "(givens, then block labels), not a solution grid"),
    ("2 2\n1 2\n3 x\n", 3, "expected an integer for the cell at row 2, column 2, found 'x'"),
    ("2 2\n1 2\n-3 4\n", 3, "the cell at row 2, column 1 is negative (-3); expected 0 or a positive integer"),
    ("1 2\n1 2\n", 1, "the grid is 1x2, but the puzzle is 2x2"),
    ("", 1, "the file is empty; expected the height and width, then the grid"),
])
def test_malformed_solution_grids(text, line, problem):
    with pytest.raises(FormatError) as info:
        parse_grid(text, "sol.txt", 2, 2)
    assert (info.value.line, info.value.problem) == (line, problem)


def test_read_grid_checks_the_shape(tmp_path):
    path = tmp_path / "sol.txt"
    path.write_text("1 2\n1 2\n")
    assert read_grid(str(path), 1, 2) == ((1, 2),)


def test_looks_like_blocknumber_on_our_files():
    for path in INSTANCES.glob("*.txt"):
        assert looks_like_blocknumber(path.read_text()), path
    for path in (ROOT / "instances" / "fillomino").glob("*.txt"):
        assert not looks_like_blocknumber(path.read_text()), path
    for path in (DATA / "malformed").glob("*.txt"):  # Fillomino's malformed corpus
        assert not looks_like_blocknumber(path.read_bytes().decode("utf-8", "replace")), path


@pytest.mark.parametrize("text", ["", "   ", "1", "x y", "2 2 0 0 0 0", "0 0", "-1 -1 3", "1 1 1",
                                  "9" * 500 + " 9", "\ufeff1 1 0 0 9", "1 1 0 0\x00"])
def test_looks_like_blocknumber_never_raises(text):
    assert looks_like_blocknumber(text) in (True, False)
    assert looks_like_blocknumber("\ufeff1 1 0 7")
    assert not looks_like_blocknumber("2 2 0 0 0 0")  # a Fillomino 2x2 puzzle


def test_looks_like_blocknumber_on_the_shared_sets():
    if not SUGURU.exists() and not FILLOMINO_SHARED.exists():
        pytest.skip(f"{SUGURU.parent.parent} is absent (the shared puzzle sets sit beside the checkout)")
    for path in sorted(SUGURU.glob("puzzles/*.txt")):
        assert looks_like_blocknumber(path.read_text()), path
    for path in sorted(SUGURU.glob("solutions/*.txt")):
        assert not looks_like_blocknumber(path.read_text()), path
    fillomino = sorted(FILLOMINO_SHARED.rglob("*.txt"))
    for path in fillomino[:: max(1, len(fillomino) // 200)]:
        assert not looks_like_blocknumber(path.read_bytes().decode("utf-8", "replace")), path


def test_the_shared_puzzles_parse():
    if not SUGURU.exists():
        pytest.skip(f"{SUGURU} is absent (the shared puzzle sets sit beside the checkout)")
    files = sorted(SUGURU.glob("puzzles/*.txt"))
    assert len(files) == 90
    for path in files:
        p = read_puzzle(str(path))
        assert p.height * p.width == sum(p.block_sizes())
