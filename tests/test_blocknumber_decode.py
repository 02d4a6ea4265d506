"""The BlockNumber decoder on real captured Z3 and Yices answers, and on broken answers."""

from __future__ import annotations

import re

import pytest

from conftest import DATA
from fillsmt.blocknumber.decode import decode_grid
from fillsmt.blocknumber.plain_format import read_puzzle
from fillsmt.errors import InputError
from fillsmt.fillomino.decode import AnswerError
from fillsmt.smtlib.answer import Status, parse_answer

ANSWERS = DATA / "blocknumber" / "answers"
TINY = read_puzzle(str(DATA / "blocknumber" / "golden" / "tiny-2x3.txt"))
SOLVED = ((1, 3, 2), (2, 4, 1))


@pytest.mark.parametrize("encoding", ["int-distinct", "onehot", "bv"])
@pytest.mark.parametrize("solver", ["z3", "yices"])
def test_real_answers_decode(encoding, solver):
    answer = parse_answer((ANSWERS / f"tiny-2x3.{encoding}.{solver}.out").read_text())
    assert answer.status is Status.SAT
    assert decode_grid(TINY, answer.values, encoding) == SOLVED


@pytest.mark.parametrize("solver", ["z3", "yices"])
def test_real_unsat_answers(solver):
    answer = parse_answer((ANSWERS / f"unsat-1x2.int-distinct.{solver}.out").read_text())
    assert answer.status is Status.UNSAT


def _values(encoding: str) -> dict:
    return dict(parse_answer((ANSWERS / f"tiny-2x3.{encoding}.z3.out").read_text()).values)


def test_missing_number():
    values = _values("int-distinct")
    del values["b_1_2"]
    with pytest.raises(AnswerError) as info:
        decode_grid(TINY, values, "int-pairwise", "z3's answer")
    assert str(info.value) == "z3's answer: no value for b_1_2 (row 2, column 3) in the solver's answer"


@pytest.mark.parametrize("bad", [True, "(ite x 1 2)"])
def test_number_of_the_wrong_kind(bad):
    values = _values("int-distinct")
    values["b_0_1"] = bad
    with pytest.raises(AnswerError, match=re.escape(f"the value of b_0_1 is {bad!r}, expected an integer")):
        decode_grid(TINY, values, "int-distinct")


def test_onehot_missing_wrong_kind_none_and_two():
    values = _values("onehot")
    del values["is_0_1_2"]
    with pytest.raises(AnswerError) as info:
        decode_grid(TINY, values, "onehot")
    assert str(info.value) == "<answer>: no value for is_0_1_2 (row 1, column 2) in the solver's answer"
    values = _values("onehot")
    values["is_0_1_2"] = 1
    with pytest.raises(AnswerError, match=r"the value of is_0_1_2 is 1, expected true or false$"):
        decode_grid(TINY, values, "onehot")
    values = _values("onehot")
    values["is_0_1_3"] = False
    with pytest.raises(AnswerError) as info:
        decode_grid(TINY, values, "onehot")
    assert info.value.problem == "row 1, column 2: none of is_0_1_1..is_0_1_4 is true in the solver's answer"
    values = _values("onehot")
    values["is_0_1_1"] = True
    with pytest.raises(AnswerError) as info:
        decode_grid(TINY, values, "onehot")
    assert info.value.problem == ("row 1, column 2: is_0_1_1 and is_0_1_3 are true together in the solver's "
                                  "answer; exactly one should be")


def test_unknown_encoding():
    with pytest.raises(InputError, match="unknown encoding 'nope'; choose one of int-distinct, "):
        decode_grid(TINY, {}, "nope")
