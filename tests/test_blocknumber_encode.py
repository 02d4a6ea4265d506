"""The BlockNumber encoders: golden text, structure every solver accepts, domains, cell_is."""

from __future__ import annotations

import pytest

from conftest import DATA
from fillsmt.blocknumber.encode import bv_width, domains
from fillsmt.blocknumber.encodings import DEFAULT_ENCODING, ENCODINGS
from fillsmt.blocknumber.model import Puzzle
from fillsmt.blocknumber.names import king_neighbours, king_pairs, number_var, value_var
from fillsmt.blocknumber.plain_format import parse_puzzle, read_puzzle
from fillsmt.smtlib import render_term

GOLDEN = DATA / "blocknumber" / "golden"


def tiny() -> Puzzle:
    return read_puzzle(str(GOLDEN / "tiny-2x3.txt"))


@pytest.mark.parametrize("name", ENCODINGS)
def test_golden_text(name):
    expected = (GOLDEN / f"{name}-2x3.smt2").read_text()
    assert ENCODINGS[name].encode(tiny()).text() == expected


def test_every_encoding_has_a_golden_file_and_the_default_exists():
    assert {p.name.rsplit("-2x3", 1)[0] for p in GOLDEN.glob("*-2x3.smt2")} == set(ENCODINGS)
    assert DEFAULT_ENCODING in ENCODINGS


def _applications(term):
    if isinstance(term, tuple):
        yield term
        for t in term:
            yield from _applications(t)


@pytest.mark.parametrize("name", ENCODINGS)
def test_script_shape(name):
    """Header, logic, no chained comparisons (pysmt refuses them), check-sat then get-value."""
    p = read_puzzle(str(DATA.parent.parent / "instances" / "blocknumber" / "random-6x6.txt"))
    script = ENCODINGS[name].encode(p)
    commands = script.commands
    assert commands[0].text() == "(set-option :print-success false)"
    assert commands[1].text() == f"(set-logic {ENCODINGS[name].logic})"
    assert [c.name for c in commands[-2:]] == ["check-sat", "get-value"]
    assert script.count("check-sat") == 1
    for command in commands:
        for app in _applications(command.args):
            if app and app[0] in ("<=", "<", "bvule", "bvult"):
                assert len(app) == 3, render_term(app)
    if ENCODINGS[name].reads == "numbers":
        assert commands[-1].args[0] == tuple(number_var(r, c) for r in range(6) for c in range(6))


def test_domains_are_the_given_or_one_to_block_size():
    p = tiny()
    d = domains(p)
    assert d[0, 0] == range(1, 2) and d[0, 1] == range(1, 5) and d[1, 2] == range(1, 3)


def test_a_given_too_large_for_its_block_makes_an_empty_domain():
    p = Puzzle(1, 2, ((3, 0),), ((0, 0),))  # the parser refuses this; a hand-made Puzzle may hold it
    assert domains(p)[0, 0] == range(0)
    assert "(assert false)" in ENCODINGS["int-distinct"].encode(p).text()
    assert "(assert false)" in ENCODINGS["onehot"].encode(p).text()


def test_touching_cells_that_cannot_be_equal_get_no_constraint():
    text = ENCODINGS["int-distinct"].encode(tiny()).text()
    assert "(not (= b_0_2 b_1_1))" not in text  # domains 1..2 and {4}
    assert "(not (= b_0_1 b_0_2))" in text
    assert "(not (= b_0_0 b_0_1))" not in text  # same block: the distinct says so


def test_pairwise_states_each_pair_once():
    p = read_puzzle(str(DATA.parent.parent / "instances" / "blocknumber" / "random-8x8.txt"))
    asserts = [c.text() for c in ENCODINGS["int-pairwise"].encode(p).commands if c.name == "assert"]
    assert len(asserts) == len(set(asserts))
    assert not any("distinct" in a for a in asserts)


def test_bv_width_fits_the_largest_block():
    assert bv_width(tiny()) == 3  # 4 needs 3 bits
    assert bv_width(parse_puzzle("1 1 0 0")) == 1
    assert "(_ BitVec 3)" in ENCODINGS["bv"].encode(tiny()).text()


def test_cell_is_terms():
    p = tiny()
    assert render_term(ENCODINGS["int-distinct"].cell_is(p, 0, 1, 3)) == "(= b_0_1 3)"
    assert render_term(ENCODINGS["int-pairwise"].cell_is(p, 0, 1, 3)) == "(= b_0_1 3)"
    assert render_term(ENCODINGS["bv"].cell_is(p, 0, 1, 3)) == "(= b_0_1 (_ bv3 3))"
    assert render_term(ENCODINGS["bv"].cell_is(p, 0, 1, 9)) == "false"
    assert render_term(ENCODINGS["onehot"].cell_is(p, 0, 1, 3)) == "is_0_1_3"
    assert render_term(ENCODINGS["onehot"].cell_is(p, 1, 2, 3)) == "false"  # block of 2
    assert render_term(ENCODINGS["onehot"].cell_is(p, 1, 1, 4)) == "is_1_1_4"  # the given
    assert render_term(ENCODINGS["onehot"].cell_is(p, 1, 1, 3)) == "false"


def test_encoders_are_pure():
    assert ENCODINGS["onehot"].encode(tiny()) == ENCODINGS["onehot"].encode(tiny())


def test_names_and_geometry():
    assert number_var(2, 11) == "b_2_11" and value_var(2, 11, 3) == "is_2_11_3"
    assert king_neighbours(3, 3, 1, 1) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert king_neighbours(3, 3, 0, 0) == [(0, 1), (1, 0), (1, 1)]
    pairs = list(king_pairs(2, 2))
    assert len(pairs) == 6 and all(a < b for a, b in pairs)
