"""The tree encodings: golden text, widths, domains, and completeness on random puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GOLDEN, shared_or_skip, solver_or_skip
from gridgen import random_solution
from fillsmt.fillomino.encode_tree import (TreeEncoder, TreeOptions, bit_widths, closed_cells, default_domains,
                                           encode_tree)
from fillsmt.fillomino.encodings import ENCODINGS
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import number_var
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import count, solve
from fillsmt.smtlib.answer import Status
from test_backtrack import ALL_GRIDS, count_matching, random_clues

TREE_ENCODINGS = [e for e in ENCODINGS if e.startswith("tree")]
BIT_VECTOR = "tree-bfs-bv"
RANDOM_CASES = [(e, s) for e in TREE_ENCODINGS for s in ("yices", "z3")] + [(BIT_VECTOR, "bitwuzla")]
"""(encoding, solver): every tree encoding with yices and z3, the bit-vector one with Bitwuzla too."""


@pytest.mark.parametrize("name", TREE_ENCODINGS)
def test_golden_text(name):
    puzzle = read_puzzle(str(GOLDEN / "thesis-2x3.txt"))
    expected = (GOLDEN / f"{name}-2x3.smt2").read_text()
    assert ENCODINGS[name](puzzle, None).text() == expected


def test_default_domains_are_the_clue_or_the_area_bound():
    p = parse_puzzle("2 4\n3 0 0 1\n0 0 1 0")
    d = default_domains(p)
    assert d[0] == {3} and d[3] == {1}
    # the empty area {1, 2, 4, 5} has 4 cells > largest clue 3
    assert d[1] == d[4] == set(range(1, 5))
    assert d[7] == set(range(1, 4))  # cell 7 is alone in its area: bound is the largest clue


def test_domains_with_holes_exclude_them():
    p = parse_puzzle("1 2\n0 0")
    text = encode_tree(p, [frozenset({2, 5}), frozenset({2})]).text()
    assert "(assert (and (<= 2 n_0_0) (<= n_0_0 5) (not (= n_0_0 3)) (not (= n_0_0 4))))" in text
    assert "(assert (= n_0_1 2))" in text


def test_neighbours_with_disjoint_domains_get_no_parent_link():
    p = parse_puzzle("1 2\n1 2")
    text = encode_tree(p, [frozenset({1}), frozenset({2})]).text()
    assert "p_0_0_0_1" not in text and "p_0_1_0_0" not in text


@pytest.mark.parametrize("presolve", [False, True], ids=["plain", "presolved"])
@pytest.mark.parametrize("encoding, solver", RANDOM_CASES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), height=st.integers(1, 6), width=st.integers(1, 6),
       keep=st.sampled_from([0.0, 0.15, 0.4, 0.8]), max_size=st.sampled_from([4, 9, 16]))
def test_complete_and_sound_on_random_puzzles(presolve, encoding, solver, seed, height, width, keep, max_size):
    """Blanked valid solutions (unclued and large regions included) are always solved and checked."""
    driver = solver_or_skip(solver)
    rng = random.Random(seed)
    solution = random_solution(rng, height, width, max_size=max_size)
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    puzzle = Puzzle(height, width, cells)
    result = solve(puzzle, driver, encoding, timeout=60, presolve=presolve)
    assert result.status is Status.SAT, (cells, result.message)
    assert check_solution(cells, result.grid) == []


def agree_with_the_brute_force(encoding: str, presolve: bool, solver: str = "yices") -> list[str]:
    """Count and solve --unique random tiny puzzles (several solutions, one or none) under
    ``encoding`` with ``solver``; assert every solution is found, none more, and uniqueness is
    right. The messages of the unique solves, for callers that look for what the pipeline did."""
    driver = solver_or_skip(solver)
    rng = random.Random(f"{encoding}-{presolve}")
    messages = []
    for shape in [(2, 3), (3, 3), (2, 4)]:
        for _ in range(4):
            clues = random_clues(rng, *shape)
            expected = count_matching(ALL_GRIDS[shape], clues)
            puzzle = Puzzle(shape[0], shape[1], clues)
            found = count(puzzle, driver, limit=500, encoding=encoding, timeout=60, presolve=presolve)
            assert found.complete and sorted(found.grids) == expected, clues
            result = solve(puzzle, driver, encoding, timeout=60, presolve=presolve, unique=True)
            if not expected:
                assert result.status is Status.UNSAT, (clues, result.message)
                continue
            assert result.status is Status.SAT and result.grid in expected, (clues, result.message)
            assert result.unique is (len(expected) == 1)
            if len(expected) > 1:
                assert result.second_grid in expected and result.second_grid != result.grid
            messages.append(result.message)
    return messages


@pytest.mark.parametrize("presolve", [False, True], ids=["plain", "presolved"])
@pytest.mark.parametrize("encoding, solver", [("tree-bfs", "yices"), (BIT_VECTOR, "bitwuzla"), (BIT_VECTOR, "yices")])
def test_counts_and_uniqueness_agree_with_the_brute_force(encoding, solver, presolve):
    assert agree_with_the_brute_force(encoding, presolve, solver)


def test_the_bit_vector_script_is_the_integer_one_over_bit_vectors():
    """tree-bfs-bv has tree-bfs's assertions one for one, each over bit-vectors (QF_BV)."""
    puzzle = read_puzzle(str(GOLDEN / "thesis-2x3.txt"))
    ints, bits = (ENCODINGS[name](puzzle, None).commands for name in ("tree-bfs", BIT_VECTOR))
    assert [c.name for c in ints] == [c.name for c in bits]
    assert ("set-logic", ("QF_BV",)) in [(c.name, c.args) for c in bits]
    text = "".join(c.text() for c in bits)
    assert " Int" not in text and "(+ " not in text and "(<= " not in text


def test_bit_vectors_are_wide_enough_for_every_sum():
    """The widths of bit_widths: sizes of up to four children of a large domain, and roots."""
    # 1x2, the cell 0 allows 1..5, its one neighbour 1..7: s_0 <= 1 + 7 = 8 needs 4 bits
    assert bit_widths(2, [5, 7], [[1], [0]], [0, 1]) == (4, 1)
    # a 50x64 empty grid: every cell up to 3200, four neighbours: 1 + 4 * 3200 = 12801 < 2**14
    cells = 50 * 64
    hi, link = [cells] * cells, [[0, 1, 2, 3]] * cells
    assert bit_widths(cells, hi, link, range(cells)) == (14, 12)
    # a clue larger than any sum sets the width by itself
    assert bit_widths(1, [300], [[]], [0]) == (9, 1)


def test_regions_are_rooted_at_fixed_cells_within_reach():
    # 1x5: a 3 at column 1, a 3 at column 3, a 2 at column 5.
    p = parse_puzzle("1 5\n3 0 3 0 2")
    text = encode_tree(p).text()
    assert "(assert (= r_0_0 0))" in text  # the first fixed cell roots its region
    assert "(assert (or (= r_0_2 0) (= r_0_2 2)))" in text  # a 3 two steps after the first 3
    assert "(assert (ite a_0_1 (or (= r_0_1 0) (= r_0_1 2)) (<= r_0_1 1)))" in text
    # cell 3 allows 3 and 2: the 3 one step away and the 2 one step away may root it, the 3
    # three steps away (cell 0) may not
    assert "(assert (ite a_0_3 (or (= r_0_3 2) (= r_0_3 4)) (<= r_0_3 3)))" in text
    assert "(=> (= r_0_1 2)" not in text  # one step: a depth of at least 1 needs no bound
    bfs = encode_tree(p, options=TreeOptions(bfs=True)).text()
    assert "(assert (=> (= r_0_2 0) (<= 2 d_0_2)))" in bfs


def test_a_cell_out_of_every_fixed_cells_reach_has_no_anchor_flag():
    p = parse_puzzle("1 4\n2 0 0 0")
    text = encode_tree(p).text()
    assert "a_0_1" in text and "a_0_2" not in text and "a_0_3" not in text
    assert "(assert (<= r_0_3 3))" in text


@pytest.mark.parametrize("solver, bitvector", [("yices", False), ("z3", False), ("bitwuzla", True)])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), keep=st.sampled_from([0.0, 0.3, 0.7]))
def test_bfs_gives_each_solution_exactly_one_tree(solver, bitvector, seed, keep):
    """With the solution's numbers fixed, the tree (parents, roots, depths, sizes) is forced."""
    driver = solver_or_skip(solver)
    rng = random.Random(seed)
    solution = random_solution(rng, 3, 4, max_size=6)
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    script = encode_tree(Puzzle(3, 4, cells), options=TreeOptions(bfs=True, bitvector=bitvector))
    literal = _literals(script)
    body = "".join(c.text() + "\n" for c in script.commands if c.name not in ("check-sat", "get-value"))
    numbers = "".join(f"(assert (= n_{r}_{c} {literal[f'n_{r}_{c}'](v)}))\n"
                      for r, row in enumerate(solution) for c, v in enumerate(row))
    tree = [c.args[0] for c in script.commands if c.name == "declare-fun" and c.args[0][0] in "prstd"]
    first = driver.run(body + numbers + f"(check-sat)\n(get-value ({' '.join(tree)}))\n", timeout=60)
    assert first.status is Status.SAT, first.message
    other = " ".join(f"(not (= {v} {literal[v](first.values[v])}))" for v in tree)
    second = driver.run(body + numbers + f"(assert (or {other}))\n(check-sat)\n", timeout=60)
    assert second.status is Status.UNSAT, (cells, solution)


def _smt(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value >= 0 else f"(- {-value})"


def _empty(n: int, m: int) -> Puzzle:
    return Puzzle(n, m, tuple(tuple(0 for _ in range(m)) for _ in range(n)), "empty")


@pytest.mark.parametrize("encoding", ["tree", "tree-bfs"])
def test_an_empty_grids_script_grows_linearly_with_its_cells(encoding):
    """An empty grid's cells each allow 1..cells, yet the script holds no per-value
    term for them (an interval needs two bounds), so its size per cell barely grows."""
    small, large = (len(ENCODINGS[encoding](_empty(n, n), None).text()) / (n * n) for n in (8, 32))
    assert large < 1.3 * small


def test_equal_default_domains_are_one_shared_set():
    domains = default_domains(_empty(30, 30))
    assert domains[0] == frozenset(range(1, 901))
    assert len({id(d) for d in domains}) == 1


def test_closed_cells_are_whole_regions_no_neighbour_can_join():
    one, two = frozenset({1}), frozenset({2})
    open_ = frozenset({1, 2, 3})
    # row 0: a closed 2-region (cells 0, 1), an open cell that cannot be 2, a 1 next to it that
    # is not closed (the open cell allows 1); row 1: a closed 1 (cell 4), a 3 alone, an open
    # cell, and a 2 alone (not closed: one cell, and its neighbour allows 2)
    domains = [two, two, frozenset({1, 3}), one,
               one, frozenset({3}), open_, two]
    assert closed_cells(2, 4, domains) == {0, 1, 4}
    # a group of fixed cells larger or smaller than its number is not closed
    assert closed_cells(1, 3, [two, two, two]) == set()
    assert closed_cells(1, 3, [frozenset({3}), frozenset({3}), frozenset({1})]) == {2}


def test_closed_regions_get_no_tree_but_keep_their_numbers():
    p = parse_puzzle("1 4\n2 2 0 0")
    domains = [frozenset({2}), frozenset({2}), frozenset({1, 3}), frozenset({1, 3})]
    lean = encode_tree(p, domains, TreeOptions(bfs=True, skip_closed=True)).text()
    full = encode_tree(p, domains, TreeOptions(bfs=True)).text()
    assert "(assert (= n_0_0 2))" in lean and "(assert (= n_0_1 2))" in lean
    for name in ("s_0_0", "r_0_0", "t_0_0", "d_0_0", "p_0_0_0_1", "p_0_1_0_0", "s_0_1"):
        assert name not in lean and name in full
    assert "s_0_2" in lean and "p_0_2_0_3" in lean  # the open cells keep theirs


def script_grids(puzzle: Puzzle, options: TreeOptions, solver: str, limit: int = 60) -> list:
    """Every grid the script of ``puzzle`` (no presolve) allows, decoded from its models: solve,
    read the numbers, block that grid, again; None past ``limit`` grids."""
    script = encode_tree(puzzle, None, options)
    names = [number_var(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    literal = _literals(script)
    grids = []
    with solver_or_skip(solver).open_session() as session:
        session.load(script)
        while session.check(timeout=60) is Status.SAT:
            if len(grids) == limit:
                return None
            values = session.get_values(names)
            grids.append(tuple(tuple(values[number_var(r, c)] for c in range(puzzle.width))
                               for r in range(puzzle.height)))
            session.assert_term("(or " + " ".join(f"(not (= {n} {literal[n](values[n])}))" for n in names) + ")")
    return sorted(grids)


def _literals(script) -> dict:
    """Per declared variable, how its value is written back: a numeral, a Boolean, or a
    bit-vector constant of its width."""
    out = {}
    for c in script.commands:
        if c.name == "declare-fun":
            name, sort = c.args[0], c.args[2]
            if isinstance(sort, tuple):  # (_ BitVec w)
                out[name] = lambda v, w=sort[2]: f"(_ bv{v} {w})"
            else:
                out[name] = _smt
    return out


ROOT_COUNTED = [TreeOptions(bfs=True, skip_closed=True, root_counts=2), TreeOptions(root_counts=2)]
"""Every region of two cells or more counted (a one-cell region's count is ``t_z`` itself)."""
ROOT_COUNTED_CASES = [
    *((options, solver, name) for options, name in zip(ROOT_COUNTED, ["bfs", "plain-tree"]) for solver in ("yices", "z3")),
    (TreeOptions(bfs=True, skip_closed=True, root_counts=2, bitvector=True), "bitwuzla", "bfs-bv"),
    (TreeOptions(bfs=True, skip_closed=True, root_counts=2, bitvector=True), "yices", "bfs-bv"),
]


@pytest.mark.parametrize("options, solver", [c[:2] for c in ROOT_COUNTED_CASES],
                         ids=[f"{c[2]}-{c[1]}" for c in ROOT_COUNTED_CASES])
def test_root_counted_scripts_allow_exactly_the_brute_force_solutions(options, solver):
    """The decoded models of the script with root counts, no presolve, are exactly the brute
    force's solutions of random tiny puzzles: clues from a valid grid (often one large region
    with few or no clues), or arbitrary ones (often none)."""
    _agrees_with_brute_force(options, solver, f"root-counts-{options.bfs}-{options.bitvector}-{solver}")


def _agrees_with_brute_force(options: TreeOptions, solver: str, seed: str) -> None:
    rng = random.Random(seed)
    checked = 0
    for shape in [(1, 4), (2, 3), (3, 3), (2, 4)]:
        for _ in range(10):
            clues = random_clues(rng, *shape)
            expected = count_matching(ALL_GRIDS[shape], clues)
            if len(expected) > 40:
                continue
            assert script_grids(Puzzle(shape[0], shape[1], clues), options, solver) == expected, clues
            checked += 1
    assert checked >= 25


BUDGETED_CASES = [
    (TreeOptions(bfs=True, skip_closed=True, region_budget=True), "yices", "bfs"),
    (TreeOptions(bfs=True, skip_closed=True, region_budget=True), "z3", "bfs"),
    (TreeOptions(region_budget=True), "yices", "plain-tree"),
    (TreeOptions(bfs=True, skip_closed=True, region_budget=True, bitvector=True), "bitwuzla", "bfs-bv"),
    (TreeOptions(bfs=True, skip_closed=True, region_budget=True, bitvector=True), "yices", "bfs-bv"),
]
"""The region budget alone (no root counts), over integers and bit-vectors."""


@pytest.mark.parametrize("options, solver", [c[:2] for c in BUDGETED_CASES],
                         ids=[f"{c[2]}-{c[1]}" for c in BUDGETED_CASES])
def test_budgeted_scripts_allow_exactly_the_brute_force_solutions(options, solver):
    """With the region budget, no presolve, the decoded models are exactly the brute force's
    solutions of random tiny puzzles (clues from a valid grid, where the clued regions need
    most of the grid, or arbitrary ones, where no grid may have room for them)."""
    _agrees_with_brute_force(options, solver, f"region-budget-{options.bfs}-{options.bitvector}-{solver}")


def test_the_region_budget_sums_each_possible_roots_value_once_within_the_tree_cells():
    # 1x5: 3 3 . . 2 : the second 3 is joined to the first (never a root): no term for it
    p = parse_puzzle("1 5\n3 3 0 0 2")
    text = encode_tree(p, options=TreeOptions(bfs=True, region_budget=True)).text()
    budget = [line for line in text.splitlines() if line.startswith("(assert (<= (")]
    assert budget == ["(assert (<= (+ (ite t_0_0 3 0) (ite t_0_4 2 0)) 5))"]
    # 1x4: 2 2 1 . : the 2s are a closed region, no tree cells and no root of the sum
    closed = encode_tree(parse_puzzle("1 4\n2 2 1 0"), options=TreeOptions(bfs=True, skip_closed=True, region_budget=True))
    assert "(assert (<= (ite t_0_2 1 0) 2))" in closed.text().splitlines()
    bits = encode_tree(p, options=TreeOptions(bfs=True, region_budget=True, bitvector=True)).text()
    # the sum can reach 3 + 2 = 5 and the bound is 5: three bits, no wrap-round
    assert "(assert (bvule (bvadd (ite t_0_0 (_ bv3 3) (_ bv0 3)) (ite t_0_4 (_ bv2 3) (_ bv0 3))) (_ bv5 3)))" in bits


def test_candidate_roots_are_counted_in_steps_through_cells_that_allow_their_value():
    # 3 1 .      the 3 is two steps from (0,2) as the crow flies, but the 1 is in the way:
    # . . .      round it, four steps; (1,1) is two steps away through (1,0)
    p = parse_puzzle("2 3\n3 1 0\n0 0 0")
    encoder = TreeEncoder(p, default_domains(p), TreeOptions(bfs=True))
    assert encoder.anchors[2] == [] and encoder.anchors[5] == []
    assert encoder.anchors[4] == [0] and encoder.anchors[3] == [0]
    assert encoder.anchors[1] == [1]  # the 1 roots itself, and no 3 passes through it
    text = encode_tree(p, options=TreeOptions(bfs=True)).text()
    assert "(= r_0_2 0)" not in text and "(=> (= r_1_1 0) (<= 2 d_1_1))" in text


def test_root_counts_sum_each_fixed_cells_candidates_once():
    # 1x5: 3 3 . . 2 : the second 3 is joined to the first (never a root): no count for it
    p = parse_puzzle("1 5\n3 3 0 0 2")
    text = encode_tree(p, options=TreeOptions(bfs=True, root_counts=2)).text()
    counts = [line for line in text.splitlines() if line.startswith("(assert (= (+") or "(ite t_" in line]
    assert "(assert (= (+ (ite (= r_0_0 0) 1 0) (ite (= r_0_1 0) 1 0) (ite (= r_0_2 0) 1 0)) (ite t_0_0 3 0)))" in counts
    assert "(assert (= (+ (ite (= r_0_3 4) 1 0) (ite (= r_0_4 4) 1 0)) (ite t_0_4 2 0)))" in counts
    assert not any("t_0_1 3" in line for line in counts)
    assert len(counts) == 2
    only_threes = encode_tree(p, options=TreeOptions(bfs=True, root_counts=3)).text()
    assert "(ite t_0_0 3 0)" in only_threes and "(ite t_0_4 2 0)" not in only_threes


@pytest.mark.solver
@pytest.mark.parametrize("solver", ["yices", "z3"])
def test_janko_291_is_settled_without_presolve(solver):
    """janko 291 (a 76-cell region round eight clues, two closed regions inside), its default
    script without presolve, one-shot: without the root counts neither solver settled it in 60 s
    of CPU; with them, a solution and (the published one blocked) no other, each in seconds."""
    _settled_without_presolve(solver, "janko-thesis100", "291")


@pytest.mark.solver
@pytest.mark.parametrize("solver", ["yices", "z3"])
def test_hard_tail_266_is_settled_without_presolve(solver):
    """Hard tail 266 (a 9×9 whose 17 clues need 78 of its 81 cells if each value has one
    region: so the two 15s, the two 11s and the two 9s must each share one), its default
    script without presolve, one-shot: without the region budget yices took 10-35 s of CPU and
    z3 14-36 s; with it, a solution and (the published one blocked) no other, each in seconds."""
    _settled_without_presolve(solver, "hard-tail", "266")


def _settled_without_presolve(solver: str, shared_set: str, name: str) -> None:
    """The puzzle's default script without presolve, one-shot: a solution, the published one,
    and with it blocked no other."""
    driver = solver_or_skip(solver)
    folder = shared_or_skip(shared_set)
    puzzle = read_puzzle(str(folder / "puzzles" / f"{name}.txt"))
    published = read_puzzle(str(folder / "solutions" / f"{name}.txt")).cells
    script = ENCODINGS["tree-bfs"](puzzle, None)
    body = "".join(c.text() + "\n" for c in script.commands if c.name not in ("check-sat", "get-value"))
    names = [number_var(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    first = driver.run(script.text(), timeout=120)
    assert first.status is Status.SAT, first.message
    grid = tuple(tuple(first.values[number_var(r, c)] for c in range(puzzle.width)) for r in range(puzzle.height))
    assert grid == published
    other = " ".join(f"(not (= {n} {v}))" for n, v in zip(names, (v for row in published for v in row)))
    second = driver.run(body + f"(assert (or {other}))\n(check-sat)\n", timeout=120)
    assert second.status is Status.UNSAT, second.message
