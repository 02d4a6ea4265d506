"""The pretty picture: heavy lines along block borders, light lines inside blocks."""

from __future__ import annotations

import unicodedata

from conftest import DATA
from fillsmt.blocknumber.plain_format import parse_puzzle, read_puzzle
from fillsmt.blocknumber.render import HEAVY, JUNCTION, LIGHT, NONE, render_pretty

GOLDEN = DATA / "blocknumber" / "golden"


def test_golden_puzzle_and_solution():
    p = read_puzzle(str(GOLDEN / "tiny-2x3.txt"))
    assert render_pretty(p) == (GOLDEN / "tiny-2x3.pretty.txt").read_text()
    assert render_pretty(p, None) == render_pretty(p)
    assert render_pretty(p, ((1, 3, 2), (2, 4, 1))) == (GOLDEN / "tiny-2x3.solved.pretty.txt").read_text()


def test_columns_widen_for_large_numbers():
    p = parse_puzzle("1 10\n10 0 0 0 0 0 0 0 0 0\n" + "1 " * 10)
    first = render_pretty(p).splitlines()[1]
    assert first.startswith("┃ 10 │ .  │ .  │")


def test_a_single_cell():
    assert render_pretty(parse_puzzle("1 1 0 0"), ((1,),)) == "┏━━━┓\n┃ 1 ┃\n┗━━━┛\n"


def test_every_junction_has_a_glyph_of_those_arms():
    weights = (NONE, LIGHT, HEAVY)
    assert set(JUNCTION) == {(u, d, l, r) for u in weights for d in weights for l in weights for r in weights}
    assert JUNCTION[HEAVY, HEAVY, LIGHT, LIGHT] == "╂"
    assert JUNCTION[NONE, LIGHT, NONE, HEAVY] == "┍"
    assert JUNCTION[LIGHT, NONE, HEAVY, NONE] == "┙"
    assert unicodedata.name(JUNCTION[HEAVY, LIGHT, HEAVY, LIGHT]) == "BOX DRAWINGS LEFT UP HEAVY AND RIGHT DOWN LIGHT"
