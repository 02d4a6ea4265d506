"""The plain puzzle format: layouts accepted, round trips, and every malformed file's message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, INSTANCES, SHARED
from fillsmt.errors import FormatError, InputError
from fillsmt.fillomino.plain_format import (format_grid, format_puzzle, parse_grid, parse_puzzle,
                                            read_puzzle)

MALFORMED = DATA / "malformed"


def test_reads_the_g12_example():
    p = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert (p.height, p.width) == (5, 5)
    assert p.cells[0] == (1, 0, 0, 0, 1)
    assert list(p.clues())[:3] == [(0, 0, 1), (0, 4, 1), (1, 3, 1)]
    assert p.empty_cells == 14


def test_any_whitespace_layout_is_accepted():
    one_line = parse_puzzle("2 3 1 0 0 0 0 3")
    ragged = parse_puzzle("\t2\n3\n\n1   0\n0 0\r\n0   3  \n")
    assert one_line.cells == ragged.cells == ((1, 0, 0), (0, 0, 3))


def test_clues_above_nine_are_kept():
    p = parse_puzzle("3 4\n12 0 0 0\n0 0 0 0\n0 0 0 0\n")
    assert p.cells[0][0] == 12


def test_writer_right_aligns_columns():
    assert format_grid(((10, 1), (2, 10))) == "2 2\n10  1\n 2 10\n"


grids = st.integers(1, 8).flatmap(
    lambda h: st.integers(1, 8).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, h * w), min_size=w, max_size=w), min_size=h, max_size=h)))


@given(grids)
def test_round_trip_write_then_read(rows):
    grid = tuple(tuple(r) for r in rows)
    assert parse_grid(format_grid(grid))[2] == grid
    puzzle = parse_puzzle(format_grid(grid))
    assert parse_puzzle(format_puzzle(puzzle)).cells == grid


@given(grids, st.lists(st.sampled_from([" ", "  ", "\n", "\t", " \n "]), min_size=1))
def test_round_trip_through_any_separators(rows, seps):
    tokens = [str(len(rows)), str(len(rows[0]))] + [str(v) for row in rows for v in row]
    text = "".join(tok + seps[i % len(seps)] for i, tok in enumerate(tokens))
    assert parse_grid(text)[2] == tuple(tuple(r) for r in rows)


@pytest.mark.parametrize("name, line, problem", [
    ("empty.txt", 1, "the file is empty; expected the height and width, then the grid"),
    ("blank-lines.txt", 1, "the file is empty; expected the height and width, then the grid"),
    ("one-number.txt", 1, "expected the height and the width, found only one number"),
    ("non-integer.txt", 2, "expected an integer for the cell at row 1, column 2, found 'x'"),
    ("decimal.txt", 2, "expected an integer for the cell at row 1, column 2, found '2.5'"),
    ("negative.txt", 2, "the cell at row 1, column 2 is negative (-3); expected 0 or a positive integer"),
    ("too-few.txt", 3, "expected 4 cell values (2 rows of 2), found 3"),
    ("too-many.txt", 4, "expected 4 cell values (2 rows of 2), found 5; the first extra value is '7'"),
    ("zero-height.txt", 1, "the height must be at least 1, found 0"),
    ("zero-width.txt", 1, "the width must be at least 1, found 0"),
    ("absurd.txt", 1, "the height 5000 is larger than the limit of 1000 "
                      "(raise it with the environment variable FILLSMT_MAX_SIDE)"),
    ("negative-width.txt", 1, "the width is negative (-2); expected 0 or a positive integer"),
    ("clue-too-large.txt", 3, "the clue 5 at row 2, column 2 is larger than the grid (2x2 = 4 cells)"),
    ("binary.txt", 1, "not a text file (invalid UTF-8)"),
])
def test_malformed_files_name_file_line_and_problem(name, line, problem):
    path = str(MALFORMED / name)
    with pytest.raises(FormatError) as info:
        read_puzzle(path)
    assert info.value.line == line
    assert info.value.problem == problem
    assert str(info.value) == f"{path}:{line}: {problem}"


def test_missing_file_and_directory():
    with pytest.raises(InputError, match=r"^nope\.txt: no such file$"):
        read_puzzle("nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_puzzle(str(DATA))


@pytest.mark.parametrize("path", sorted(INSTANCES.glob("*.txt")), ids=lambda p: p.name)
def test_every_project_instance_parses(path):
    p = read_puzzle(str(path))
    assert p.height * p.width == sum(len(r) for r in p.cells)


def test_shared_solutions_parse_as_grids():
    folder = SHARED / "janko-thesis100" / "solutions"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    for path in sorted(folder.glob("*.txt")):
        h, w, rows = parse_grid(path.read_text(), str(path))
        assert all(v > 0 for row in rows for v in row)
