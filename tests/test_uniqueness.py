"""Uniqueness, counting and forced cells, against brute force and with every solver."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, shared_or_skip, solver_or_skip
from fillsmt.cli import main
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import count, solve
from fillsmt.smtlib.answer import Status
from fillsmt.engine.solutions import differing_cells
from gridgen import random_solution

SESSION_SOLVERS = ["z3", "yices", "z3-api", "pysmt"]

G12 = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
# G12 without its clue in row 1, column 5: six solutions (every one checked below by brute force
# on the cells the clue could change).
G12_OPEN = parse_puzzle("5 5\n1 0 0 0 0\n0 0 0 1 0\n2 4 0 0 0\n1 0 2 1 0\n3 0 1 0 2\n")


@pytest.fixture(params=SESSION_SOLVERS)
def driver(request):
    return solver_or_skip(request.param)


def all_solutions(puzzle):
    """Every solution, by trying every number in every empty cell (tiny grids only)."""
    empty = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if puzzle.cells[r][c] == 0]
    top = puzzle.height * puzzle.width
    out = []
    for values in itertools.product(range(1, top + 1), repeat=len(empty)):
        grid = [list(row) for row in puzzle.cells]
        for (r, c), v in zip(empty, values):
            grid[r][c] = v
        grid = tuple(tuple(row) for row in grid)
        if not check_solution(puzzle.cells, grid):
            out.append(grid)
    return out


def tiny_puzzles(seed: int, n: int):
    """Random 2x3 / 3x3 puzzles with a few clues kept: often several solutions, sometimes none."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        h, w = rng.choice([(2, 3), (3, 2), (2, 2), (1, 5), (3, 3)])
        if h * w > 6:  # 3x3 only with many clues, to keep brute force small
            keep = 5
        else:
            keep = rng.randint(0, 3)
        grid = random_solution(rng, h, w)
        cells = [(r, c) for r in range(h) for c in range(w)]
        clues = set(rng.sample(cells, keep))
        rows = [[grid[r][c] if (r, c) in clues else 0 for c in range(w)] for r in range(h)]
        if rng.random() < 0.15 and w > 1:  # now and then a contradiction: two 1s side by side
            rows[0][0] = rows[0][1] = 1
        out.append(parse_puzzle(f"{h} {w}\n" + "\n".join(" ".join(map(str, r)) for r in rows)))
    return out


@pytest.mark.parametrize("presolve", [False, True])
def test_g12_is_unique(driver, presolve):
    result = solve(G12, driver, unique=True, forced=True, presolve=presolve)
    assert result.status is Status.SAT and result.unique is True
    assert result.second_grid is None and result.differing_cells == []
    assert result.forced == result.grid
    assert result.exit_code == 0


def test_a_removed_clue_gives_two_checked_solutions(driver):
    result = solve(G12_OPEN, driver, unique=True, presolve=False)
    assert result.status is Status.SAT and result.unique is False
    assert check_solution(G12_OPEN.cells, result.grid) == []
    assert check_solution(G12_OPEN.cells, result.second_grid) == []
    assert result.grid != result.second_grid
    assert result.differing_cells == differing_cells(result.grid, result.second_grid)
    assert result.differing_cells and all(result.grid[r][c] != result.second_grid[r][c]
                                          for r, c in result.differing_cells)
    assert result.exit_code == 5


def test_no_solution_is_not_called_unique(driver):
    puzzle = read_puzzle(str(INSTANCES / "unsat-1x2.txt"))
    result = solve(puzzle, driver, unique=True, forced=True, presolve=False)
    assert result.status is Status.UNSAT
    assert result.unique is None and result.grid is None and result.forced is None
    assert result.exit_code == 1


def test_count_and_forced_agree_with_brute_force(driver):
    for puzzle in tiny_puzzles(seed=4, n=12):
        truth = all_solutions(puzzle)
        found = count(puzzle, driver, limit=50, presolve=False)
        assert found.complete, puzzle
        assert sorted(found.grids) == sorted(truth), puzzle
        result = solve(puzzle, driver, unique=True, forced=True, presolve=False)
        if not truth:
            assert result.status is Status.UNSAT
            continue
        assert result.unique is (len(truth) == 1)
        expected = tuple(tuple(v if all(g[r][c] == v for g in truth) else 0 for c, v in enumerate(row))
                         for r, row in enumerate(truth[0]))
        assert result.forced == expected, puzzle


@pytest.mark.parametrize("encoding, solver", [("thesis", "yices"), ("tree", "yices"), ("tree-bfs", "yices"),
                                              ("tree-bfs-bv", "yices"), ("tree-bfs-bv", "bitwuzla")])
def test_every_encoding_counts_the_same(encoding, solver):
    driver = solver_or_skip(solver)
    found = count(G12_OPEN, driver, limit=20, encoding=encoding, presolve=False)
    assert found.complete and len(found.grids) == 6
    assert len(set(found.grids)) == 6


def test_two_trees_of_the_same_regions_are_one_solution():
    # A 2x2 block of 4s has four spanning trees (and more roots): still one solution.
    driver = solver_or_skip("z3")
    puzzle = parse_puzzle("2 2\n4 0\n0 0\n")
    found = count(puzzle, driver, limit=10, presolve=False)
    assert found.complete and found.grids == [((4, 4), (4, 4))]


def test_the_limit_is_respected(driver):
    found = count(G12_OPEN, driver, limit=3, presolve=False)
    assert len(found.grids) == 3 and not found.complete


def test_presolve_keeps_every_solution():
    driver = solver_or_skip("yices")
    for puzzle in tiny_puzzles(seed=11, n=15):
        with_rules = count(puzzle, driver, limit=50, presolve=True)
        without = count(puzzle, driver, limit=50, presolve=False)
        assert sorted(with_rules.grids) == sorted(without.grids), puzzle


def test_published_janko_puzzles_are_unique():
    puzzles = shared_or_skip("janko-thesis100", "puzzles")
    driver = solver_or_skip("yices")
    for path in sorted(puzzles.glob("*.txt"))[:10]:
        result = solve(read_puzzle(str(path)), driver, unique=True, timeout=60)
        assert (result.status, result.unique) == (Status.SAT, True), path


def test_published_janko_puzzle_with_a_clue_removed_is_not_unique():
    puzzles = shared_or_skip("janko-thesis100", "puzzles")
    driver = solver_or_skip("yices")
    hits = 0
    for path in sorted(puzzles.glob("*.txt"))[:6]:
        puzzle = read_puzzle(str(path))
        for r, c, v in list(puzzle.clues())[:3]:
            rows = [list(row) for row in puzzle.cells]
            rows[r][c] = 0
            weaker = parse_puzzle(f"{puzzle.height} {puzzle.width}\n" + "\n".join(" ".join(map(str, x)) for x in rows))
            result = solve(weaker, driver, unique=True, timeout=60)
            assert result.status is Status.SAT
            if result.unique is False:
                hits += 1
                assert check_solution(weaker.cells, result.second_grid) == []
                assert check_solution(weaker.cells, result.grid) == []
    assert hits > 0


# -- the command line ------------------------------------------------------------------------

def write(tmp_path, puzzle) -> str:
    path = tmp_path / "p.txt"
    path.write_text(f"{puzzle.height} {puzzle.width}\n" + "\n".join(" ".join(map(str, r)) for r in puzzle.cells) + "\n")
    return str(path)


def test_cli_unique_json(tmp_path):
    solver_or_skip("yices")
    path = write(tmp_path, G12_OPEN)
    out = CliRunner().invoke(main, ["solve", "--unique", "--no-presolve", "-f", "json", path])
    assert out.exit_code == 5, out.output
    obj = json.loads(out.stdout)
    assert obj["unique"] is False
    assert check_solution(G12_OPEN.cells, tuple(map(tuple, obj["second_grid"]))) == []
    assert obj["differing_cells"] == [list(c) for c in differing_cells(tuple(map(tuple, obj["grid"])),
                                                                       tuple(map(tuple, obj["second_grid"])))]
    unique = CliRunner().invoke(main, ["solve", "--unique", "-f", "json", str(INSTANCES / "g12-5x5.txt")])
    assert unique.exit_code == 0 and json.loads(unique.stdout)["unique"] is True
    plain = CliRunner().invoke(main, ["solve", "-f", "json", str(INSTANCES / "g12-5x5.txt")])
    assert json.loads(plain.stdout)["unique"] is None


def test_cli_unique_plain_and_message(tmp_path):
    solver_or_skip("yices")
    path = write(tmp_path, G12_OPEN)
    out = CliRunner().invoke(main, ["solve", "--unique", path])
    assert out.exit_code == 5
    grids = out.stdout.strip().split("\n\n")
    assert len(grids) == 2
    assert "multiple solutions; a second one differs in" in out.stderr


def test_cli_forced_plain_is_a_puzzle_file(tmp_path):
    solver_or_skip("yices")
    path = write(tmp_path, G12_OPEN)
    out = CliRunner().invoke(main, ["solve", "--forced", path])
    assert out.exit_code == 5  # several solutions: said so, and exit 5
    solution_text, forced_text = out.stdout.split("\n\n")
    forced = parse_puzzle(forced_text)
    truth = count(G12_OPEN, solver_or_skip("yices"), limit=50).grids
    for r, c, v in forced.clues():
        assert all(g[r][c] == v for g in truth)
    assert sum(1 for _ in forced.clues()) == sum(
        1 for r in range(5) for c in range(5) if len({g[r][c] for g in truth}) == 1)


def test_cli_count(tmp_path):
    solver_or_skip("yices")
    path = write(tmp_path, G12_OPEN)
    runner = CliRunner()
    two = runner.invoke(main, ["count", path])
    assert (two.exit_code, two.stdout) == (5, f"{path}: 2+ solutions\n")
    six = runner.invoke(main, ["count", "--limit", "6", path])
    assert (six.exit_code, six.stdout) == (5, f"{path}: 6 solutions\n")
    one = runner.invoke(main, ["count", str(INSTANCES / "g12-5x5.txt")])
    assert (one.exit_code, one.stdout) == (0, f"{INSTANCES / 'g12-5x5.txt'}: 1 solution\n")
    none = runner.invoke(main, ["count", str(INSTANCES / "unsat-1x2.txt")])
    assert none.exit_code == 1 and none.stdout.endswith("0 solutions\n")
    shown = runner.invoke(main, ["count", "--limit", "10", "--show", "--json", path])
    obj = json.loads(shown.stdout)
    assert obj["count"] == 6 and obj["complete"] is True and len(obj["solutions"]) == 6
    listed = runner.invoke(main, ["count", "--limit", "3", "--show", path])
    blocks = listed.stdout.split("\n\n")
    assert len(blocks) == 4 and blocks[-1] == f"{path}: 3+ solutions\n"
    assert all(check_solution(G12_OPEN.cells, parse_puzzle(b).cells) == [] for b in blocks[:3])


def test_cli_session_needs_a_session_solver(tmp_path):
    out = CliRunner().invoke(main, ["solve", "--unique", "--solver", "portfolio", "--no-presolve",
                                    str(INSTANCES / "g12-5x5.txt")])
    assert out.exit_code == 4
    assert "offers no incremental session" in out.stderr


def test_a_session_asks_only_for_the_terms_the_script_does_not_pin(driver):
    """``Problem.pinned``: terms the script fixes at the top level are filled in, not asked for;
    the solutions, blocking clauses and forced cells are those of asking for every term."""
    from fillsmt.smtlib.script import Command, Script, assertion, declare
    from fillsmt.engine.solutions import Problem, Search, backbone

    script = Script.of([Command("set-logic", ("QF_LIA",)), *(declare(v, "Int") for v in ("a", "b", "c")),
                        assertion(("=", "a", 3)), assertion(("=", 2, "b")), assertion(("and", ("<=", 0, "c"), ("<=", "c", 1))),
                        assertion(("=", "c", ("-", "a", "b"))),  # pins c too, but not in a form read as pinned
                        Command("check-sat"), Command("get-value", (("a", "b", "c"),))])
    asked: list[list[str]] = []
    problem = Problem(script, decode=lambda values: ((values["a"], values["b"], values["c"]),), check=lambda g: [],
                      term_cell=lambda t: t)
    assert problem.pinned == {"a": "3", "b": "2"} and problem.asked == ["c"]
    with driver.open_session() as session:
        original = session.get_values_and_texts

        def recording(terms, timeout=None):
            asked.append(list(terms))
            return original(terms, timeout)

        session.get_values_and_texts = recording
        search = Search(problem, session)
        search.start()
        status, found = search.next_solution()
        assert status is Status.SAT and found.grid == ((3, 2, 1),) and found.raw == {"a": "3", "b": "2", "c": "1"}
        assert backbone(search, found).forced == {"a": True, "b": True, "c": True}
        assert search.next_solution()[0] is Status.UNSAT
    assert asked and all(terms == ["c"] for terms in asked)
