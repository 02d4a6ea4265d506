"""The region propagator (``--solver z3-prop``): its reports one by one, and its solver against
brute force on tiny puzzles."""

from __future__ import annotations

import os
import time

import pytest

from conftest import INSTANCES, solver_or_skip
from fillsmt.fillomino.encode_onehot import encode_onehot
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.fillomino.propagator import RegionState
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import count, solve
from fillsmt.smtlib.answer import Status
from test_uniqueness import G12, G12_OPEN, all_solutions, tiny_puzzles

PROP_SOLVERS = ["z3-prop"]
PROP_ENCODINGS = ["onehot-prop"]


def state_1x5(top: int = 5) -> RegionState:
    """A 1x5 strip, every cell allowing 1..top; atom of (x, k) is x * top + k - 1."""
    return RegionState(1, 5, [(x, k) for x in range(5) for k in range(1, top + 1)])


def atom(x: int, k: int, top: int = 5) -> int:
    return x * top + k - 1


# --- the reports ---------------------------------------------------------------------------------

def test_three_connected_twos_are_a_conflict_on_exactly_three_atoms():
    s = state_1x5()
    assert s.assign(atom(0, 2), True, eager=True).conflicts == []
    first = s.assign(atom(1, 2), True, eager=True)
    assert first.conflicts == []
    # the group {0, 1} of 2s is complete: its free neighbour 2 may not hold 2
    assert first.falsified == [(atom(2, 2), [atom(1, 2), atom(0, 2)])]
    third = s.assign(atom(2, 2), True, eager=True)
    assert len(third.conflicts) == 1 and sorted(third.conflicts[0]) == [atom(0, 2), atom(1, 2), atom(2, 2)]


def test_two_numbers_in_one_cell_conflict_even_when_lazy():
    s = state_1x5()
    s.assign(atom(3, 4), True, eager=False)
    assert s.assign(atom(3, 2), True, eager=False).conflicts == [[atom(3, 4), atom(3, 2)]]


def test_a_group_without_room_is_a_conflict_naming_what_blocks_it():
    s = state_1x5()
    s.assign(atom(1, 1), True, eager=True)       # cell 1 is a 1
    s.assign(atom(4, 3), False, eager=True)      # cell 4 cannot be 3
    report = s.assign(atom(2, 3), True, eager=True)  # a 3 at cell 2: room is cells 2, 3 only
    assert len(report.conflicts) == 1
    assert sorted(report.conflicts[0]) == sorted([atom(2, 3), atom(1, 1), atom(4, 3)])
    lazy = state_1x5()
    lazy.assign(atom(1, 1), True, eager=False)
    lazy.assign(atom(4, 3), False, eager=False)
    assert lazy.assign(atom(2, 3), True, eager=False).conflicts == []


def test_backtracking_forgets_the_level():
    s = state_1x5()
    s.assign(atom(0, 2), True, eager=True)
    s.push()
    s.assign(atom(1, 2), True, eager=True)
    s.assign(atom(2, 3), False, eager=True)
    s.pop(1)
    assert s.value == [2, 0, 0, 0, 0] and s.ruled_out[2] == set()
    assert s.assign(atom(1, 2), True, eager=True).conflicts == []


def test_final_refuses_exactly_the_wrong_regions():
    s = state_1x5()
    for x, k in enumerate([1, 2, 2, 2, 1]):  # three 2s in a row: too big
        s.assign(atom(x, k), True, eager=False)
        for j in range(1, 6):
            if j != k:
                s.assign(atom(x, j), False, eager=False)
    assert [sorted(c) for c in s.final().conflicts] == [[atom(1, 2), atom(2, 2), atom(3, 2)]]
    good = state_1x5()
    for x, k in enumerate([1, 2, 2, 1, 1]):
        good.assign(atom(x, k), True, eager=False)
        for j in range(1, 6):
            if j != k:
                good.assign(atom(x, j), False, eager=False)
    final = good.final()
    assert final.conflicts == [[atom(3, 1), atom(4, 1)]]  # two 1s side by side: too big
    small = state_1x5()
    for x, k in enumerate([3, 3, 1, 2, 2]):  # 3s closed at two cells
        small.assign(atom(x, k), True, eager=False)
        for j in range(1, 6):
            if j != k:
                small.assign(atom(x, j), False, eager=False)
    assert [sorted(c) for c in small.final().conflicts] == [sorted([atom(0, 3), atom(1, 3), atom(2, 3)])]


def test_the_light_encoding_names_the_grid_and_one_atom_per_allowed_number():
    text = encode_onehot(G12).text()
    assert '(set-info :fillsmt-propagator "fillomino-regions 5 5")' in text
    assert "(declare-fun v_0_0_1 () Bool)" in text and "(define-fun n_0_0 () Int" in text
    assert "v_0_0_2" not in text  # the clue 1 in the corner allows nothing else


# --- the solver against brute force --------------------------------------------------------------

@pytest.fixture(params=PROP_SOLVERS)
def prop(request):
    return solver_or_skip(request.param)


@pytest.mark.parametrize("encoding", PROP_ENCODINGS)
def test_counts_agree_with_brute_force(prop, encoding):
    for puzzle in tiny_puzzles(seed=5, n=8):
        truth = all_solutions(puzzle)
        found = count(puzzle, prop, limit=50, encoding=encoding, presolve=False)
        assert found.complete, puzzle
        assert sorted(found.grids) == sorted(truth), puzzle
        if truth and encoding == "onehot-prop":  # forced cells: push/pop checks in one session
            result = solve(puzzle, prop, encoding=encoding, forced=True, presolve=False, race=False)
            expected = tuple(tuple(v if all(g[r][c] == v for g in truth) else 0 for c, v in enumerate(row))
                             for r, row in enumerate(truth[0]))
            assert result.forced == expected, puzzle


@pytest.mark.parametrize("encoding", PROP_ENCODINGS)
def test_g12_open_has_six_solutions_and_g12_is_unique(prop, encoding):
    found = count(G12_OPEN, prop, limit=20, encoding=encoding, presolve=False)
    assert found.complete and len(set(found.grids)) == 6
    result = solve(G12, prop, encoding=encoding, unique=True, presolve=False)
    assert result.status is Status.SAT and result.unique is True and result.solver == prop.name
    assert check_solution(G12.cells, result.grid) == []


def test_the_default_encoding_is_the_light_one_and_no_solution_is_unsat(prop):
    result = solve(read_puzzle(str(INSTANCES / "unsat-1x2.txt")), prop, presolve=False)
    assert result.status is Status.UNSAT and result.encoding == "onehot-prop"


def _children() -> list[int]:
    me = str(os.getpid())
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[1] == me:
                    out.append(int(pid))
        except OSError:
            continue
    return out


def test_the_time_out_is_hard_and_leaves_no_worker():
    driver = solver_or_skip("z3-prop")
    # an empty 12x12 with a few clues far apart: open enough that no search ends in 0.5 s
    puzzle = parse_puzzle("12 12\n" + "\n".join(
        " ".join("9" if (r, c) in {(0, 0), (11, 11)} else "0" for c in range(12)) for r in range(12)))
    before = set(_children())  # other tests' helpers may still be around
    started = time.perf_counter()
    result = solve(puzzle, driver, timeout=0.5, presolve=False, race=False)
    assert time.perf_counter() - started < 5
    if result.status is Status.SAT:  # solved within 0.5 s on a fast machine: still checked
        assert check_solution(puzzle.cells, result.grid) == []
    else:
        assert result.status is Status.TIMEOUT
    assert set(_children()) - before == set()


def test_golden_text_of_the_light_encoding():
    from conftest import GOLDEN
    from fillsmt.fillomino.encodings import PROPAGATED

    puzzle = read_puzzle(str(GOLDEN / "thesis-2x3.txt"))
    assert PROPAGATED["onehot-prop"][0](puzzle, None).text() == (GOLDEN / "onehot-prop-2x3.smt2").read_text()
