"""Reading solver answers (real captured outputs and hand-made layouts) back into grids."""

from __future__ import annotations

import pytest

from conftest import DATA, INSTANCES
from fillsmt.drivers.base import interpret_output
from fillsmt.fillomino.decode import AnswerError, decode_grid
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.answer import SExprError, Status, parse_answer, parse_value

ANSWERS = DATA / "answers"
G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


@pytest.fixture
def g12():
    return read_puzzle(str(INSTANCES / "g12-5x5.txt"))


@pytest.mark.parametrize("name", ["g12.z3.out", "g12.yices.out", "g12.pysmt-z3.out"])
def test_real_captured_outputs_decode_to_the_published_solution(g12, name):
    answer = parse_answer((ANSWERS / name).read_text())
    assert answer.status is Status.SAT
    assert decode_grid(g12, answer.values) == G12_SOLUTION


@pytest.mark.parametrize("name", ["unsat.z3.out", "unsat.yices.out"])
def test_real_unsat_outputs(name):
    run = interpret_output("solver", (ANSWERS / name).read_text())
    assert run.status is Status.UNSAT
    assert run.values == {}


def _pairs_text(grid, width):
    return [f"(n_{r}_{c} {v})" for r, row in enumerate(grid) for c, v in enumerate(row)]


def test_all_pairs_on_one_line(g12):
    text = "sat\n(" + " ".join(_pairs_text(G12_SOLUTION, 5)) + ")\n"
    assert decode_grid(g12, parse_answer(text).values) == G12_SOLUTION


def test_one_pair_per_line_with_extra_whitespace(g12):
    text = "  sat \n\n" + "\n".join(f"  ( {p}   )\t" for p in _pairs_text(G12_SOLUTION, 5)) + "\n\n"
    assert decode_grid(g12, parse_answer(text).values) == G12_SOLUTION


def test_negative_numbers_and_other_value_forms():
    answer = parse_answer("sat\n((a (- 3)) (b  (-   12)) (c true) (d #b101) (e #x1F) (f (_ bv7 8)) (g 0))")
    assert answer.values == {"a": -3, "b": -12, "c": True, "d": 5, "e": 31, "f": 7, "g": 0}
    assert parse_value(["-", "x"]) == "(- x)"


def test_missing_value_is_named(g12):
    values = parse_answer("sat\n((n_0_0 1))").values
    with pytest.raises(AnswerError, match=r"no value for n_0_1 \(row 1, column 2\)"):
        decode_grid(g12, values)


def test_non_integer_value_is_refused(g12):
    values = {f"n_{r}_{c}": 1 for r in range(5) for c in range(5)} | {"n_1_2": True}
    with pytest.raises(AnswerError, match="the value of n_1_2 is True, expected an integer"):
        decode_grid(g12, values)


def test_a_decoded_wrong_grid_fails_the_checker(g12):
    values = {f"n_{r}_{c}": 1 for r in range(5) for c in range(5)}
    assert check_solution(g12.cells, decode_grid(g12, values))


@pytest.mark.parametrize("text, status, needle", [
    ("", Status.ERROR, "gave no answer"),
    ('(error "line 3 column 14: invalid function application")\nsat\n', Status.ERROR, "invalid function application"),
    ('sat\n(error "unknown constant n_99")\n', Status.ERROR, "said sat, then"),
    ("unknown\n", Status.UNKNOWN, "answered unknown"),
    ("Segmentation fault\n", Status.ERROR, "Segmentation"),
    ("sat\n((n_0 1)", Status.ERROR, "cannot read"),
])
def test_unexpected_outputs_are_reported_distinctly(text, status, needle):
    run = interpret_output("z3", text, exit_code=1)
    assert run.status is status
    assert needle in run.message


def test_reader_reports_the_line_of_a_malformed_answer():
    with pytest.raises(SExprError) as info:
        parse_answer("sat\n((n_0 1))\n((n_1 2)\n")
    assert info.value.line == 3
    with pytest.raises(SExprError, match="unexpected"):
        parse_answer("sat\n)\n")
