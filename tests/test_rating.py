"""Puzzle ratings (fillsmt.fillomino.rating): the numbers, the labels, and their sanity."""

from __future__ import annotations

import json
import time

import pytest

from conftest import INSTANCES, SHARED
from test_backtrack import G12_SOLUTION
from fillsmt.fillomino.search import solve_by_search
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.rating import (EASY_BASIC_NODES, GRADES, LABELS, RULE_SETS, THESIS_RULES, TOP_NODES,
                                      label_for, parse_rules, rate)


def test_rules_alone_the_stronger_ones_make_it_medium():
    """The rules solve random-7x7 alone, the thesis' four basic strategies not within 10 nodes."""
    puzzle = read_puzzle(str(INSTANCES / "random-7x7.txt"))
    r = rate(puzzle)
    assert (r.status, r.label, r.max_depth, r.guesses, r.nodes) == ("solved", "medium", 0, 0, 1)
    assert r.rules_solve and r.rules_fixed == puzzle.empty_cells
    assert sum(r.rules_used.values()) == puzzle.empty_cells
    assert r.basic_nodes == EASY_BASIC_NODES + 1 and r.level == 1
    assert rate(puzzle, rules=THESIS_RULES, max_nodes=EASY_BASIC_NODES).status == "stopped"


def test_a_full_grid_needs_nothing():
    r = rate(parse_puzzle("2 3\n1 3 3\n2 2 3"))
    assert r.label == "easy" and r.rules_fixed == 0 and r.rules_used == {} and r.nodes == 1 and r.basic_nodes == 1
    assert r.level == 0


def test_g12_needs_one_guess():
    """The rules fix 21 of 25 cells; one guess in the open 4-region settles the rest."""
    r = rate(read_puzzle(str(INSTANCES / "g12-5x5.txt")))
    assert r.status == "solved" and not r.rules_solve
    assert r.rules_fixed == 21 - r.clues
    assert r.max_depth == 1 and r.nodes == 3 and r.label == "hard" and r.basic_nodes is None
    assert r.solution == G12_SOLUTION
    assert r.as_dict()["solution"][0] == list(G12_SOLUTION[0])


def test_no_solution_has_no_label():
    r = rate(read_puzzle(str(INSTANCES / "unsat-1x2.txt")))
    assert r.status == "no-solution" and r.label is None and r.level is None


def test_labels_follow_the_nodes_on_a_scale_of_tens():
    assert label_for(1, 1) == label_for(1, EASY_BASIC_NODES) == "easy"
    assert label_for(1, EASY_BASIC_NODES + 1) == label_for(1) == "medium"
    assert label_for(2) == label_for(10) == "hard"
    assert label_for(11) == label_for(100) == "fiendish" and TOP_NODES == 100
    assert label_for(101) == label_for(10**6) == "extreme"
    assert [name for name, _ in GRADES] == list(LABELS)
    # monotone: more nodes never make a puzzle easier
    levels = [LABELS.index(label_for(n)) for n in range(1, 2000)]
    assert levels == sorted(levels)


def test_clues_given_back_make_it_easier_here():
    """The formats example with its solution's cells given back one by one, row by row: here
    the depth only falls (not a law, more clues can mislead a fixed guessing order), down to
    an easy puzzle."""
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    start = rate(puzzle)
    assert start.status == "solved" and start.max_depth >= 1
    solution = solve_by_search(puzzle).solutions[0]
    cells = [list(row) for row in puzzle.cells]
    depths = [start.max_depth]
    for r in range(5):
        for c in range(5):
            cells[r][c] = solution[r][c]
        given = parse_puzzle("5 5\n" + "\n".join(" ".join(map(str, row)) for row in cells))
        depths.append(rate(given).max_depth)
    assert depths == sorted(depths, reverse=True) and depths[-1] == 0
    assert rate(given).label == "easy"


def test_rating_is_deterministic_and_serialisable():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    a, b = rate(puzzle).as_dict(), rate(puzzle).as_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    data = json.loads(json.dumps(rate(puzzle).as_dict()))
    assert data["label"] in LABELS and data["rules"][0] == "complete-group"
    assert set(data) >= {"label", "max_depth", "guesses", "rules_used", "rules_fixed", "rules_solve"}


def test_rules_fixed_matches_deduce():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    d = deduce(puzzle)
    r = rate(puzzle)
    assert r.rules_fixed == d.fixed_count - r.clues
    assert r.rules_used == {k: v for k, v in d.fixed_by_rule.items() if v}


def test_fewer_rules_never_rate_easier():
    """A subset of the rules can only need as much guessing or more on the G12 example."""
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    full = rate(puzzle)
    weak = rate(puzzle, rules=("single-exit", "forced-cell"))
    assert weak.rules_fixed <= full.rules_fixed
    assert weak.status == "solved" and weak.level >= full.level


def test_a_stopped_rating():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    late = rate(puzzle, deadline=time.monotonic() - 1)
    assert late.status == "stopped" and late.label is None
    capped = rate(puzzle, max_nodes=2)
    assert capped.status == "stopped" and capped.label is None  # 2 nodes so far: undecided


@pytest.mark.parametrize("name", ["015", "084", "036"])
def test_janko_puzzles_need_guessing(name):
    path = SHARED / "janko-thesis100" / "puzzles" / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    r = rate(read_puzzle(str(path)))
    assert r.status == "solved" and not r.rules_solve and r.label != "easy"
    assert r.max_depth >= 1 and r.guesses >= r.max_depth


@pytest.mark.parametrize("text, expected", [
    ("all", ALL_RULES),
    ("thesis", THESIS_RULES),
    ("no-join", tuple(r for r in ALL_RULES if r != "join-overflow")),
    ("all,-join-overflow", RULE_SETS["no-join"]),
    ("size-cap, single-exit", ("single-exit", "size-cap")),  # ALL_RULES order, spaces ignored
    ("thesis,size-cap,-area", ("complete-group", "single-exit", "forced-cell", "size-cap")),
])
def test_parse_rules(text, expected):
    assert parse_rules(text) == expected


@pytest.mark.parametrize("text, message", [
    ("bogus", "unknown rule or rule set 'bogus'"),
    ("thesis,-nope", "unknown rule or rule set 'nope'"),
    ("", "unknown rule or rule set ''"),
    ("thesis,-thesis", "no rules left"),
])
def test_parse_rules_refuses(text, message):
    with pytest.raises(InputError, match=message):
        parse_rules(text)


def test_the_rule_sets_rate_a_baron_puzzle_differently():
    """20x20-06 (the thesis' deepest, 17): all rules solve it alone; without join-overflow it
    needs guesses, with the thesis' rules in row-major order more of them."""
    path = SHARED / "baron-thesis60" / "puzzles" / "20x20-06.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    puzzle = read_puzzle(str(path))
    full, nojoin = rate(puzzle), rate(puzzle, rules=RULE_SETS["no-join"])
    thesis = rate(puzzle, rules=THESIS_RULES, cell_order="row-major")
    assert full.label == "easy" and full.rules_solve and full.basic_nodes <= EASY_BASIC_NODES
    assert nojoin.status == "solved" and nojoin.max_depth >= 1 and not nojoin.rules_solve
    assert thesis.status == "solved" and thesis.guesses > nojoin.guesses
    assert full.solution == nojoin.solution == thesis.solution
