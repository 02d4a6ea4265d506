"""Lazy region cuts: the cuts against brute force, the relaxation against every solution, and
the whole loop (solve, count, --unique) against brute force with a real solver."""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import solver_or_skip
from fillsmt.fillomino.encodings import LAZY_ENCODINGS
from fillsmt.fillomino.lazy import components, cut_texts, encode_local, region_cuts, script_bounds
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import cell_of_number_var
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import count, solve
from fillsmt.smtlib.answer import Status
from fillsmt.smtlib.script import render_term
from test_backtrack import ALL_GRIDS, count_matching
from test_encode_tree import agree_with_the_brute_force


def holds(term, grid) -> bool:
    """The truth of a cut (or, not, =, <= over n_R_C and integers) in ``grid``."""

    def value(t):
        if isinstance(t, int):
            return t
        if isinstance(t, str) and t.startswith("n_"):
            r, c = cell_of_number_var(t)
            return grid[r][c]
        op, *args = t
        if op == "or":
            return any(value(a) for a in args)
        if op == "not":
            return not value(args[0])
        if op == "=":
            return value(args[0]) == value(args[1])
        if op == "<=":
            return value(args[0]) <= value(args[1])
        raise AssertionError(f"unexpected operator {op!r} in a cut")

    return value(term)


def random_grid(rng: random.Random, height: int, width: int, top: int):
    return tuple(tuple(rng.randint(1, top) for _ in range(width)) for _ in range(height))


def test_components_are_maximal_and_cover_the_grid():
    grid = ((2, 2, 1), (3, 3, 3), (1, 2, 2))
    found = sorted((k, sorted(cells)) for k, cells in components(grid))
    assert found == [(1, [2]), (1, [6]), (2, [0, 1]), (2, [7, 8]), (3, [3, 4, 5])]


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (2, 4)])
def test_cuts_hold_in_every_solution_and_refute_every_wrong_grid(shape):
    """Soundness of the cuts for the loop: a wrong grid gets at least one cut, each false in it
    (so it never comes back), and every cut holds in every solution of the shape (so none is
    lost); a solution gets none."""
    solutions = ALL_GRIDS[shape]
    for grid in solutions:
        assert region_cuts(grid) == []
    rng = random.Random(f"{shape}")
    for _ in range(150):
        grid = random_grid(rng, *shape, top=rng.choice([3, 5, shape[0] * shape[1]]))
        cuts = region_cuts(grid)
        wrong = bool(check_solution([[0] * shape[1]] * shape[0], grid))
        assert bool(cuts) == wrong, grid
        for cut in cuts:
            assert not holds(cut, grid), (grid, cut)
            assert all(holds(cut, s) for s in solutions), (grid, cut)


def test_the_cut_texts_are_the_rendered_cuts():
    """The session asserts :func:`cut_texts`, written directly as text: the same text as the
    tested terms of :func:`region_cuts`, rendered, on random grids of every shape up to 7x7."""
    rng = random.Random("texts")
    for _ in range(200):
        shape = (rng.randint(1, 7), rng.randint(1, 7))
        grid = random_grid(rng, *shape, top=rng.choice([2, 4, 9, 30]))
        assert cut_texts(grid) == [render_term(c) for c in region_cuts(grid)], grid


@pytest.mark.parametrize("with_bounds", [False, True], ids=["pins", "pins+bounds"])
@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (2, 4)])
def test_cuts_with_pinned_cells_hold_in_every_solution_that_keeps_the_pins(shape, with_bounds):
    """The cuts with ``fixed`` cells and ``bounds`` (left-out atoms false under them):
    for random pins and bounds taken around a solution, a wrong grid within them gets a cut,
    each cut is false in it, and each holds in every solution within the same pins and bounds;
    the text is the rendered term."""
    rng = random.Random(f"pinned {shape} {with_bounds}")
    solutions = ALL_GRIDS[shape]
    cells = shape[0] * shape[1]
    checked = 0
    for _ in range(300):
        base = rng.choice(solutions)
        flat = [v for row in base for v in row]
        fixed = frozenset(x for x in range(cells) if rng.random() < 0.5)
        bounds = [(v, v) if x in fixed else (rng.randint(1, v), rng.randint(v, cells)) if with_bounds else (1, cells)
                  for x, v in enumerate(flat)]

        def within(g) -> bool:
            return all(bounds[x][0] <= v <= bounds[x][1] for x, v in enumerate(v for row in g for v in row))

        keep = [s for s in solutions if within(s)]
        grid = tuple(tuple(rng.randint(*bounds[r * shape[1] + c]) for c in range(shape[1])) for r in range(shape[0]))
        cuts = region_cuts(grid, fixed, bounds if with_bounds else None)
        assert cut_texts(grid, fixed, bounds if with_bounds else None) == [render_term(c) for c in cuts]
        assert bool(cuts) == bool(check_solution([[0] * shape[1]] * shape[0], grid)), grid
        for cut in cuts:
            assert not holds(cut, grid), (grid, fixed, bounds, cut)
            assert all(holds(cut, s) for s in keep), (grid, fixed, bounds, cut)
            checked += 1
    assert checked > 100


def test_script_bounds_read_pins_and_domains():
    """:func:`script_bounds` reads the local relaxation's pins and domains (presolved 2x3)."""
    from fillsmt.fillomino.deduce import deduce

    puzzle = Puzzle(2, 3, ((0, 0, 0), (0, 0, 3)))
    found = deduce(puzzle)
    bounds = script_bounds(encode_local(puzzle, found.domains), 2, 3)
    assert bounds == [(min(d), max(d)) for d in found.domains]
    assert script_bounds(encode_local(puzzle), 2, 3)[5] == (3, 3)


def _fixed(script_text: str, grid) -> str:
    body = script_text.split("(check-sat)")[0]
    numbers = "".join(f"(assert (= n_{r}_{c} {v}))\n" for r, row in enumerate(grid) for c, v in enumerate(row))
    return body + numbers + "(check-sat)\n"


RELAXATIONS = {
    "local": lambda p: encode_local(p),
}


@pytest.mark.parametrize("relaxation", RELAXATIONS)
def test_every_solution_satisfies_the_relaxation(relaxation):
    """Completeness of the relaxation: each solution of random clue sets, its numbers fixed,
    is a model (yices, one-shot)."""
    driver = solver_or_skip("yices")
    rng = random.Random(relaxation)
    for shape in [(2, 3), (3, 3)]:
        for _ in range(4):
            grid = rng.choice(ALL_GRIDS[shape])
            clues = tuple(tuple(v if rng.random() < 0.3 else 0 for v in row) for row in grid)
            text = RELAXATIONS[relaxation](Puzzle(shape[0], shape[1], clues)).text()
            run = driver.run(_fixed(text, grid), timeout=30)
            assert run.status is Status.SAT, (relaxation, clues, grid)


def test_the_local_relaxation_alone_admits_wrong_grids():
    """The loop is needed: 3 3 3 3 on a 1x4 with a clue 3 keeps the local rules; a cut refutes it."""
    driver = solver_or_skip("yices")
    text = encode_local(Puzzle(1, 4, ((3, 0, 0, 0),))).text()
    assert driver.run(_fixed(text, ((3, 3, 3, 3),)), timeout=30).status is Status.SAT
    assert region_cuts(((3, 3, 3, 3),)) != []


@pytest.mark.parametrize("encoding", LAZY_ENCODINGS)
@pytest.mark.parametrize("presolve", [False, True], ids=["plain", "presolved"])
def test_counts_and_uniqueness_agree_with_the_brute_force(encoding, presolve):
    messages = agree_with_the_brute_force(encoding, presolve)
    assert any("region cuts" in m for m in messages)  # the cuts were needed somewhere, not only the relaxation


def test_an_empty_grid_is_counted_exactly_through_the_cuts():
    driver = solver_or_skip("yices")
    empty = Puzzle(2, 4, tuple(tuple(0 for _ in range(4)) for _ in range(2)))
    for encoding in ["lazy-local-general"]:
        found = count(empty, driver, limit=1000, encoding=encoding, timeout=60, presolve=False)
        assert found.complete and sorted(found.grids) == ALL_GRIDS[2, 4]


def test_a_plain_solve_runs_the_loop_in_a_session():
    driver = solver_or_skip("yices")
    puzzle = Puzzle(1, 4, ((3, 0, 0, 0),))
    result = solve(puzzle, driver, "lazy-local-general", timeout=30, presolve=False)
    assert result.status is Status.SAT and check_solution(puzzle.cells, result.grid) == []
    assert result.grid == ((3, 3, 3, 1),)
    assert result.checks >= 1


def test_forced_cells_with_cuts_match_the_brute_force():
    driver = solver_or_skip("yices")
    puzzle = Puzzle(2, 3, ((0, 0, 0), (0, 0, 3)))
    truth = count_matching(ALL_GRIDS[2, 3], puzzle.cells)
    assert len(truth) > 1
    result = solve(puzzle, driver, "lazy-local-general", timeout=60, presolve=False, unique=True, forced=True)
    expected = tuple(tuple(v if all(g[r][c] == v for g in truth) else 0 for c, v in enumerate(row))
                     for r, row in enumerate(truth[0]))
    assert result.forced == expected
    assert list(itertools.chain(*expected)).count(0) > 0  # not every cell forced: a real test


def test_a_lazy_encoding_is_neither_exported_nor_encoded(tmp_path):
    from click.testing import CliRunner

    from conftest import INSTANCES
    from fillsmt.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["export", str(INSTANCES / "g12-5x5.txt"), "-o", str(tmp_path / "out"),
                               "-e", "lazy-local-general"])
    assert out.exit_code == 2
    assert "lazy-local-general is a solving method, not a script (a relaxation refined by region cuts" in out.stderr
    encoded = runner.invoke(main, ["encode", str(INSTANCES / "g12-5x5.txt"), "-e", "lazy-local-general"])
    assert encoded.exit_code == 2 and encoded.stdout == ""
    assert encoded.stderr == ("Error: lazy-local-general is a solving method, not a script (a relaxation refined by "
                              "region cuts in a solver session); the fillomino scripts are thesis, tree, tree-bfs, tree-bfs-bv\n")


@pytest.mark.parametrize("encoding", ["lazy-local-general"])
def test_a_count_at_its_limit_asks_for_a_solution_not_a_model(encoding):
    """At the limit, "are there more?" must be a solution of the puzzle, not a relaxation's model:
    six solutions with limit 6 is the exact count, with limit 5 it is "5+"."""
    driver = solver_or_skip("yices")
    puzzle = Puzzle(2, 3, ((0, 0, 0), (0, 0, 3)))
    truth = count_matching(ALL_GRIDS[2, 3], puzzle.cells)
    exact = count(puzzle, driver, limit=len(truth), encoding=encoding, timeout=60, presolve=False)
    assert exact.complete and sorted(exact.grids) == truth
    short = count(puzzle, driver, limit=len(truth) - 1, encoding=encoding, timeout=60, presolve=False)
    assert not short.complete and len(short.grids) == len(truth) - 1


def test_packed_values_unpack_to_every_term():
    from fillsmt.engine.solutions import PACK_TERMS, Packing

    rng = random.Random(7)
    terms = [f"n_{x}" for x in range(2 * PACK_TERMS + 5)]
    values = {t: rng.randrange(0, 1 << 12) for t in terms}
    packing = Packing.of(terms, 12)
    assert [len(g) for g in packing.groups] == [PACK_TERMS, PACK_TERMS, 5]
    texts = {}
    for name, group in zip(packing.names, packing.groups):
        texts[name] = str(sum(values[t] << (12 * i) for i, t in enumerate(group)))
    unpacked, raw = packing.unpack(texts)
    assert unpacked == values and raw == {t: str(v) for t, v in values.items()}
    assert "(define-fun packed_values_2 () Int (+ n_64 (* 4096 (+ n_65 (* 4096 " in packing.definitions()


def test_a_lazy_session_reads_the_same_model_packed_and_by_name():
    """The packed get-value (``Problem.value_bits``, set for Fillomino's lazy encodings) gives
    every open cell's value exactly as asking for each cell does, in the same session."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.fillomino.kind import KIND
    from fillsmt.engine.solutions import Search

    solver_or_skip("yices")
    rng = random.Random(11)
    grid = rng.choice(ALL_GRIDS[3, 3])
    puzzle = Puzzle(3, 3, tuple(tuple(v if rng.random() < 0.3 else 0 for v in row) for row in grid))
    problem = KIND.problem(puzzle, KIND.encode(puzzle, "lazy-local-general"), "lazy-local-general", "yices")
    assert problem.value_bits == 4 and problem.packing is not None  # 9 cells: numbers below 16
    with get_driver("yices").open_session() as session:
        search = Search(problem, session)
        search.start()
        for _ in range(3):
            assert search.check() is Status.SAT
            packed, raw = search._decoded()
            by_name, texts = session.get_values_and_texts(problem.asked)
            assert all(packed[cell_of_number_var(t)[0]][cell_of_number_var(t)[1]] == v for t, v in by_name.items())
            assert all(raw[t] == texts[t] for t in problem.asked)
            cuts = problem.cuts(packed)
            if not cuts:
                break
            session.send("".join(f"(assert {c})\n" for c in cuts))


@pytest.mark.parametrize("solver", ["yices", "z3", "cvc5", "yices-api", "z3-api", "pysmt"])
def test_every_session_solver_runs_the_loop(solver):
    """The packed reads go only to the solver binaries (``Session.reads_packed``); sessions that
    run the commands through an API (no ``define-fun``) are asked cell by cell, and every one of
    them finds this puzzle's three solutions and no more."""
    driver = solver_or_skip(solver)
    puzzle = Puzzle(2, 4, ((0, 0, 0, 3), (0, 1, 0, 0)))
    truth = count_matching(ALL_GRIDS[2, 4], puzzle.cells)
    assert len(truth) == 3
    result = solve(puzzle, driver, "lazy-local-general", timeout=60, presolve=False, unique=True)
    assert result.status is Status.SAT and result.unique is False, result.message
    assert result.grid in truth and result.second_grid in truth and result.grid != result.second_grid
    found = count(puzzle, driver, limit=10, encoding="lazy-local-general", timeout=60, presolve=False)
    assert found.complete and sorted(found.grids) == truth


# --- over bit-vectors ------------------------------------------------------------------------------


def test_script_bounds_read_bit_vector_pins_and_domains():
    """The bit-vector relaxation's pins ``(= n (_ bvK W))`` and domains (``bvule``) read as the
    integer one's do."""
    from fillsmt.fillomino.deduce import deduce

    puzzle = Puzzle(2, 3, ((0, 0, 0), (0, 0, 3)))
    found = deduce(puzzle)
    bits = encode_local(puzzle, found.domains, bitvector=True)
    assert "(_ BitVec 3)" in bits.text() and "QF_BV" in bits.text()
    assert script_bounds(bits, 2, 3) == script_bounds(encode_local(puzzle, found.domains), 2, 3)


def test_the_bit_vector_cuts_are_the_integer_cuts_over_bit_vectors():
    """Each bit-vector cut is its integer twin with ``(_ bvK W)`` for K and ``bvule`` for <=, and
    holds in every solution of the grid's model (solved by yices over QF_BV: the cuts of a wrong
    grid refute it, a solution's cuts are none)."""
    from fillsmt.fillomino.lazy import number_bits

    rng = random.Random("bv cuts")
    for _ in range(30):
        grid = random_grid(rng, 2, 4, 5)
        ints, bits = cut_texts(grid), cut_texts(grid, bits=number_bits(grid))
        assert len(ints) == len(bits)
        for i, b in zip(ints, bits):
            twin = b.replace("bvule", "<=")
            for k in range(1, 9):
                twin = twin.replace(f"(_ bv{k} {number_bits(grid)})", str(k))
            assert twin == i
    assert number_bits(((3, 0, 0, 0),)) == 3 and number_bits(((0,) * 6,) * 6) == 6


def test_bit_vector_lazy_cuts_with_bitwuzla_agree_with_the_brute_force():
    solver_or_skip("bitwuzla")
    messages = agree_with_the_brute_force("lazy-local-general-bv", False, "bitwuzla")
    assert any("region cuts" in m for m in messages)


def test_bv_by_area_writes_the_relaxation_on_a_large_open_area_and_tree_bfs_bv_elsewhere():
    from fillsmt.fillomino.kind import Fillomino

    kind = Fillomino()
    small = Puzzle(2, 3, ((0, 0, 0), (0, 0, 3)))
    assert kind.encode(small, "bv-by-area").text() == kind.encode(small, "tree-bfs-bv").text().replace(
        "encoding tree-bfs-bv", "encoding bv-by-area")
    open_area = Puzzle(14, 14, tuple(tuple(3 if (r, c) == (0, 0) else 0 for c in range(14)) for r in range(14)))
    relaxation = kind.encode(open_area, "bv-by-area").text()
    assert relaxation == kind.encode(open_area, "lazy-local-general-bv").text().replace(
        "encoding lazy-local-general-bv", "encoding bv-by-area")
    assert "(declare-fun p_" not in relaxation  # no tree: the relaxation


def test_bitwuzla_gets_bv_by_area_and_its_lazy_branch_agrees_with_the_brute_force(monkeypatch):
    """With the plan's thresholds lowered, every tiny puzzle takes the lazy branch: the loop's
    counts and uniqueness still agree with the brute force (Bitwuzla)."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.fillomino import strategy
    from fillsmt.fillomino.kind import Fillomino

    solver_or_skip("bitwuzla")
    assert get_driver("bitwuzla").encoding_for(Fillomino()) == "bv-by-area"
    monkeypatch.setattr(strategy, "THRESHOLDS", strategy.THRESHOLDS._replace(lead_area=1))
    messages = agree_with_the_brute_force("bv-by-area", False, "bitwuzla")
    assert any("region cuts" in m for m in messages)


def test_bv_by_area_is_refused_by_encode_in_words_true_of_both_its_branches():
    from click.testing import CliRunner

    from conftest import INSTANCES
    from fillsmt.cli import main

    encoded = CliRunner().invoke(main, ["encode", str(INSTANCES / "g12-5x5.txt"), "-e", "bv-by-area"])
    assert encoded.exit_code == 2 and encoded.stdout == ""
    assert ("bv-by-area is a solving method, not a script (run in a solver session with region cuts: on a large "
            "open area a relaxation they refine, else the tree-bfs-bv script)") in encoded.stderr
