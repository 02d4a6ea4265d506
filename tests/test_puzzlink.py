"""puzz.link / pzprjs URLs: the FORMATS.md example, exact round trips, every malformed URL's message."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, INSTANCES, ROOT
from fillsmt.errors import FormatError, InputError
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_grid, read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.formats.puzzlink import (MAX_CLUE, encode_numbers, encode_walls, is_puzzle_url,
                                      parse_url, regions_from_walls, shorten, to_url,
                                      walls_from_regions)

URLS = DATA / "puzzlink"
SHARED_ROOT = ROOT.parent / "shared" / "instances"
EXAMPLE = "https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n"


def _canonical_urls() -> list[str]:
    lines = (URLS / "canonical.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def _blocknumber():
    return pytest.importorskip("fillsmt.blocknumber.plain_format",
                               reason="fillsmt.blocknumber is not there yet")


# --- the worked example and real URLs ---------------------------------------------------------

def test_the_formats_md_worked_example():
    p = parse_url(EXAMPLE)
    assert (p.height, p.width) == (5, 5)
    assert p.cells == ((0, 1, 0, 0, 0),
                       (0, 0, 3, 4, 0),
                       (2, 0, 0, 5, 0),
                       (0, 4, 0, 0, 0),
                       (0, 0, 0, 0, 0))
    assert p.cells == read_puzzle(str(INSTANCES / "formats-example-5x5.txt")).cells
    assert to_url(p) == EXAMPLE


@pytest.mark.parametrize("url", _canonical_urls())
def test_real_urls_come_back_unchanged(url):
    assert to_url(parse_url(url)) == url


def test_pzprjs_test_puzzle_has_its_published_solution():
    p = parse_url("https://puzz.link/p?fillomino/6/6/h4j53g2k5233k2g14j3h")
    assert p.cells == read_puzzle(str(URLS / "pzprjs-6x6.txt")).cells
    _, _, solution = read_grid(str(URLS / "pzprjs-6x6.solution.txt"))
    assert check_solution(p.cells, solution) == []


def test_two_digit_clues_use_the_dash_form():
    p = parse_url(_canonical_urls()[5])  # the 15x15 has a '-10'
    assert 16 in {v for row in p.cells for v in row}


@pytest.mark.parametrize("url", [
    "http://pzv.jp/p.html?fillomino/5/5/g1k34g2h5h4n",
    "https://pzv.jp/p.html?fillomino/5/5/g1k34g2h5h4n",
    "puzz.link/p?fillomino/5/5/g1k34g2h5h4n",
    "pzv.jp/p.html?fillomino/5/5/g1k34g2h5h4n",
    "http://puzz.link/p?fillomino/5/5/g1k34g2h5h4n",
    "https://www.puzz.link/p?fillomino/5/5/g1k34g2h5h4n",
    "HTTPS://PUZZ.LINK/p?fillomino/5/5/g1k34g2h5h4n",
    "  https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n/\n",
])
def test_other_hosts_and_spellings_read_the_same_puzzle(url):
    assert is_puzzle_url(url)
    p = parse_url(url)
    assert p.cells == parse_url(EXAMPLE).cells
    assert to_url(p) == EXAMPLE


@pytest.mark.parametrize("text", [
    "instances/fillomino/g12-5x5.txt", "5 5\n1 0 0 0 1", "https://example.com/p?fillomino/5/5/g",
    "https://puzz.link/list", "p?fillomino/5/5/g1k34g2h5h4n", "",
])
def test_is_puzzle_url_refuses_other_text(text):
    assert not is_puzzle_url(text)


# --- tokens -----------------------------------------------------------------------------------

@pytest.mark.parametrize("value, token", [
    (1, "1"), (9, "9"), (10, "a"), (15, "f"), (16, "-10"), (255, "-ff"), (256, "+100"),
    (4095, "+fff"), (4096, "=000"), (8191, "=fff"), (8192, "%000"), (MAX_CLUE, "%fff"),
])
def test_number_tokens(value, token):
    assert encode_numbers([value]) == token


@pytest.mark.parametrize("empties, token", [
    (1, "g"), (2, "h"), (19, "y"), (20, "z"), (21, "zg"), (40, "zz"), (45, "zzk"),
])
def test_runs_of_empty_cells(empties, token):
    assert encode_numbers([0] * empties) == token
    assert encode_numbers([0] * empties + [3]) == token + "3"


def test_long_runs_read_back():
    p = Puzzle(1, 45, tuple([(0,) * 20 + (2, 2) + (0,) * 23]))
    url = to_url(p)
    assert url == "https://puzz.link/p?fillomino/45/1/z22zi"
    assert parse_url(url, source=p.source) == p


def test_large_clues_round_trip():
    cells = [0] * (100 * 125)
    for i, v in enumerate([16, 255, 256, 4095, 4096, 8191, 8192, MAX_CLUE]):
        cells[i * 3] = v
    p = Puzzle(100, 125, tuple(tuple(cells[r * 125 : (r + 1) * 125]) for r in range(100)))
    url = to_url(p)
    assert "-10" in url and "=fff" in url and "%fff" in url
    assert parse_url(url, source=p.source) == p


def test_a_clue_past_the_url_range_cannot_be_written():
    p = Puzzle(1, 1, ((MAX_CLUE + 1,),), "big.txt")
    with pytest.raises(InputError, match=r"^big\.txt: the clue 12288 at row 1, column 1 is too large "
                                         r"for a puzz\.link URL \(at most 12287\)$"):
        to_url(p)


def test_walls_pack_five_to_a_digit_highest_bit_first():
    assert encode_walls([True, False, False, False, False]) == "g"
    assert encode_walls([False, False, False, False, True]) == "1"
    assert encode_walls([True] * 5 + [True]) == "vg"
    assert encode_walls([]) == ""


def test_regions_and_walls_are_inverse():
    labels = ((0, 0, 1), (2, 2, 1))
    vertical, horizontal = walls_from_regions(labels)
    assert vertical == [False, True, False, True]
    assert horizontal == [True, True, False]
    assert regions_from_walls(3, 2, vertical, horizontal) == labels


# --- round trips ------------------------------------------------------------------------------

grids = st.integers(1, 7).flatmap(
    lambda h: st.integers(1, 7).flatmap(
        lambda w: st.lists(st.lists(st.one_of(st.just(0), st.integers(1, h * w)), min_size=w, max_size=w),
                           min_size=h, max_size=h)))


@given(grids)
def test_any_fillomino_puzzle_round_trips(rows):
    p = Puzzle(len(rows), len(rows[0]), tuple(tuple(r) for r in rows), "p.txt")
    url = to_url(p)
    assert is_puzzle_url(url)
    assert parse_url(url, source="p.txt") == p
    assert to_url(parse_url(url)) == url


@pytest.mark.parametrize("path", sorted(INSTANCES.glob("*.txt")), ids=lambda p: p.name)
def test_every_project_fillomino_instance_round_trips(path):
    p = read_puzzle(str(path))
    assert parse_url(to_url(p), source=p.source) == p


def _shared(kind: str, pattern: str) -> list[Path]:
    folder = SHARED_ROOT / kind
    return sorted(folder.glob(pattern)) if folder.exists() else []


def test_every_shared_fillomino_puzzle_round_trips():
    paths = [p for p in _shared("fillomino", "**/*.txt") if "solutions" not in p.parts
             and p.name != "README.txt"]
    if not paths:
        pytest.skip(f"{SHARED_ROOT / 'fillomino'} is absent (the shared sets sit beside the checkout)")
    for path in paths:
        p = read_puzzle(str(path))
        url = to_url(p)
        assert parse_url(url, source=p.source) == p, path
        assert to_url(parse_url(url)) == url


def test_every_blocknumber_instance_round_trips():
    plain = _blocknumber()
    paths = sorted((ROOT / "instances" / "blocknumber").glob("*.txt"))
    paths += [p for p in _shared("blocknumber", "**/puzzles/*.txt")]
    if not paths:
        pytest.skip("no BlockNumber instances in instances/blocknumber or the shared sets")
    for path in paths:
        p = plain.read_puzzle(str(path))
        url = to_url(p)
        assert url.startswith("https://puzz.link/p?suguru/")
        assert parse_url(url, source=p.source) == p, path
        assert to_url(parse_url(url)) == url


# --- suguru -----------------------------------------------------------------------------------

def test_suguru_walls_then_numbers():
    _blocknumber()
    # 3 columns, 2 rows; blocks A A B / C C B; givens 2 at the top left, 1 below its right
    url = "https://puzz.link/p?suguru/3/2/ao2i1g"
    p = parse_url(url)
    assert p.givens == ((2, 0, 0), (0, 1, 0))
    assert p.blocks == ((0, 0, 1), (2, 2, 1))
    assert to_url(p) == url


def test_a_dead_end_wall_inside_a_region_is_dropped():
    _blocknumber()
    p = parse_url("https://puzz.link/p?suguru/2/2/g0j")
    assert p.blocks == ((0, 0), (0, 0))
    assert to_url(p) == "https://puzz.link/p?suguru/2/2/00j"


def test_suguru_rules_are_checked_by_the_blocknumber_reader():
    _blocknumber()
    with pytest.raises(FormatError) as info:
        parse_url("https://puzz.link/p?suguru/2/1/0g3")
    assert info.value.line is None
    assert info.value.problem.startswith("the given 3 at row 1, column 2 is larger than its block")


# --- what the puzzle models have no place for -------------------------------------------------

QUESTION = "https://puzz.link/p?fillomino/5/5/-10-10-10-10-10-108.8-10-10.1.-10-108.8-10-10-10g-10-10"


def test_question_mark_clues_are_refused_by_default():
    with pytest.raises(FormatError) as info:
        parse_url(QUESTION)
    assert info.value.problem == ("'?' clues (cells whose number is not shown) are not supported yet; "
                                  "the first is at row 2, column 3")


def test_question_mark_clues_can_be_read_as_empty_cells():
    p = parse_url(QUESTION, unknown="empty")
    assert p.cells[1] == (16, 8, 0, 8, 16)
    assert p.cells[2] == (16, 0, 1, 0, 16)
    with pytest.raises(ValueError):
        parse_url(QUESTION, unknown="guess")


def test_given_borders_with_no_wall_drawn_mean_no_borders():
    assert parse_url(EXAMPLE + "00000000").cells == parse_url(EXAMPLE).cells


# --- malformed URLs ---------------------------------------------------------------------------

@pytest.mark.parametrize("url, problem", [
    ("https://example.com/p?fillomino/5/5/g",
     "not a puzz.link URL; expected https://puzz.link/p?<type>/<cols>/<rows>/<body>"),
    ("https://puzz.link/p?/5/5/g", "the puzzle type is missing; expected p?<type>/<cols>/<rows>/<body>"),
    ("https://puzz.link/p?slither/5/5/g",
     "the puzzle type 'slither' is not supported; fillsmt reads fillomino and suguru URLs"),
    ("https://puzz.link/p?fillomino", "expected the number of columns and rows after 'fillomino/', found ''"),
    ("https://puzz.link/p?fillomino/5", "expected the number of columns and rows after 'fillomino/', found '5'"),
    ("https://puzz.link/p?fillomino/5/x/g", "the number of rows 'x' is not a positive integer"),
    ("https://puzz.link/p?fillomino/0/5/g", "the number of columns must be at least 1, found 0"),
    ("https://puzz.link/p?fillomino/5/5000/g", "the number of rows 5000 is larger than the limit of 1000 "
                                               "(raise it with the environment variable FILLSMT_MAX_SIDE)"),
    ("https://puzz.link/p?fillomino/t/5/5/g1k34g2h5h4n",
     "the 't' flag (Fillomino tri: no region larger than 3 cells) is not supported yet"),
    ("https://puzz.link/p?fillomino/v:/5/5/g1k34g2h5h4n",
     "the flag 'v:' before the sizes is not supported; fillsmt reads fillomino URLs without flags"),
    ("https://puzz.link/p?fillomino/5/5/", "the body is empty; expected the 25 cells"),
    ("https://puzz.link/p?fillomino/5/5/g1k34", "the body ends after 9 of the 25 cells"),
    ("https://puzz.link/p?fillomino/5/5/g1k34g2h5h4p",
     "the run of 10 empty cells 'p' at position 12 of the body goes past the last cell (8 left)"),
    ("https://puzz.link/p?fillomino/5/5/g1K34g2h5h4n",
     "unexpected character 'K' at position 3 of the body; expected a hex digit 0-f, "
     "'-', '+', '=', '%', '.' or a run letter g-z"),
    ("https://puzz.link/p?fillomino/5/5/-1g", "'-' at position 1 of the body must be followed by 2 hex "
                                              "digits, found '1g'"),
    ("https://puzz.link/p?fillomino/5/5/+12", "'+' at position 1 of the body must be followed by 3 hex "
                                              "digits, found '12'"),
    ("https://puzz.link/p?fillomino/5/5/0z", "the clue 0 at row 1, column 1: a clue is at least 1"),
    ("https://puzz.link/p?fillomino/2/2/5i", "the clue 5 at row 1, column 1 is larger than the grid "
                                             "(2x2 = 4 cells)"),
    ("https://puzz.link/p?fillomino/5/5/g1k34g2h5h4ng",
     "1 character after the 25 cells ('g'); given borders of a 5x5 grid take 8"),
    ("https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n000000000",
     "9 characters after the 25 cells ('000000000'); given borders of a 5x5 grid take 8"),
    ("https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n0000000w",
     "unexpected character 'w' at position 20 of the body; walls are base-32 digits 0-9, a-v"),
    ("https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n00100000",
     "given borders (walls drawn in the puzzle) are not supported yet"),
    ("https://puzz.link/p?fillomino/3/1/3h1",
     "the wall digit '1' at position 3 of the body sets bits past the last wall"),
])
def test_malformed_fillomino_urls(url, problem):
    with pytest.raises(FormatError) as info:
        parse_url(url)
    assert info.value.problem == problem
    assert info.value.line is None
    assert str(info.value) == f"{shorten(url)}: {problem}"


@pytest.mark.parametrize("url, problem", [
    ("https://puzz.link/p?suguru/3/3/",
     "the body is empty; the region walls of a 3x3 grid take 4, then come the cells"),
    ("https://puzz.link/p?suguru/3/3/00",
     "the body has only 2 characters; the region walls of a 3x3 grid take 4, then come the cells"),
    ("https://puzz.link/p?suguru/3/3/0000i", "the body ends after 3 of the 9 cells"),
    ("https://puzz.link/p?suguru/2/1/0hg", "1 unexpected character after the 2 cells: 'g'"),
    ("https://puzz.link/p?suguru/2/1/81g", "the wall digit '8' at position 1 of the body sets bits "
                                           "past the last wall"),
    ("https://puzz.link/p?suguru/2/1/x1g", "unexpected character 'x' at position 1 of the body; walls are "
                                           "base-32 digits 0-9, a-v"),
    ("https://puzz.link/p?suguru/2/1/0.g", "'?' clues (cells whose number is not shown) are not supported "
                                           "yet; the first is at row 1, column 1"),
    ("https://puzz.link/p?suguru/t/2/1/0h", "the flag 't' before the sizes is not supported; fillsmt reads "
                                            "suguru URLs without flags"),
])
def test_malformed_suguru_urls(url, problem):
    _blocknumber()
    with pytest.raises(FormatError) as info:
        parse_url(url)
    assert info.value.problem == problem


def test_a_long_url_is_shortened_in_messages_and_source_overrides_it():
    with pytest.raises(FormatError) as info:
        parse_url(QUESTION)
    assert str(info.value).startswith("https://puzz.link/p?fillomino/5/5/-10-10-10-10-10-108.8-10-…: ")
    with pytest.raises(FormatError, match=r"^puzzle 3: "):
        parse_url(QUESTION, source="puzzle 3")
    assert parse_url(EXAMPLE, source="ex").source == "ex"
    assert parse_url(EXAMPLE).source == EXAMPLE


def test_to_url_refuses_what_has_no_puzzlink_type():
    with pytest.raises(TypeError):
        to_url(object())
