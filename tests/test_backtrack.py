"""The rules-plus-backtracking solver (fillsmt.fillomino.search): sound, complete, bounded.

Completeness is checked against a brute-force enumerator written here from the definition
alone (every partition of the grid into connected blocks, kept when the independent checker
accepts the grid of block sizes): solution counts agree on random tiny puzzles, with regions
clued or not, and with the rules switched off entirely.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest
from conftest import INSTANCES, SHARED

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.plain_format import parse_grid, parse_puzzle, read_puzzle
from fillsmt.fillomino.search import CELL_ORDERS, STRONG_SEARCH, SearchOptions, solve_by_search
from fillsmt.fillomino.verify import check_solution

G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


# --- the brute-force reference ------------------------------------------------------------------

def brute_force(height: int, width: int, clues: Grid | None = None) -> list[Grid]:
    """Every solution, by enumerating the partitions of the grid into connected blocks (a
    block's cells must allow its size; equal blocks may not touch) and keeping the grids the
    independent checker accepts. Fine up to about 12 cells, or more with many clues."""
    n = height * width
    flat = [v for row in clues for v in row] if clues else [0] * n
    nbrs = [[y for y in (x - width if x >= width else -1, x + width if x + width < n else -1,
                         x - 1 if x % width else -1, x + 1 if (x + 1) % width else -1) if y >= 0]
            for x in range(n)]
    size = [0] * n
    found: set[Grid] = set()

    def blocks(start: int, free: int) -> list[int]:
        """Every connected set of free cells containing ``start``, once each (as bit sets)."""
        out: list[int] = []

        def extend(block: int, frontier: list[int], banned: int) -> None:
            out.append(block)
            frontier = list(frontier)
            while frontier:
                y = frontier.pop()
                new = [z for z in nbrs[y] if free >> z & 1 and not (block | banned) >> z & 1
                       and z not in frontier]
                extend(block | 1 << y, frontier + new, banned)
                banned |= 1 << y

        extend(1 << start, [y for y in nbrs[start] if free >> y & 1], 0)
        return out

    def fill(free: int) -> None:
        if not free:
            grid = tuple(tuple(size[r * width + c] for c in range(width)) for r in range(height))
            if not check_solution(clues or [[0] * width] * height, grid):
                found.add(grid)
            return
        start = (free & -free).bit_length() - 1
        for bits in blocks(start, free):
            cells = [x for x in range(n) if bits >> x & 1]
            k = len(cells)
            if any(flat[x] not in (0, k) for x in cells):
                continue
            if any(size[y] == k for x in cells for y in nbrs[x] if not free >> y & 1):
                continue
            for x in cells:
                size[x] = k
            fill(free & ~bits)
            for x in cells:
                size[x] = 0

    fill((1 << n) - 1)
    return sorted(found)


ALL_GRIDS = {shape: brute_force(*shape) for shape in [(1, 1), (1, 4), (2, 3), (3, 3), (2, 4)]}


def test_the_brute_force_counts_known_numbers():
    """Anchors counted by hand: a 1x4 strip is 4444, 1333, 3331 or 1221."""
    assert ALL_GRIDS[1, 1] == [((1,),)]
    assert ALL_GRIDS[1, 4] == sorted([((4, 4, 4, 4),), ((1, 3, 3, 3),), ((3, 3, 3, 1),),
                                      ((1, 2, 2, 1),)])
    assert len(ALL_GRIDS[3, 3]) == 445 and len(ALL_GRIDS[2, 4]) == 138


def count_matching(grids: list[Grid], clues: Grid) -> list[Grid]:
    return [g for g in grids if all(k in (0, v) for row_k, row_g in zip(clues, g)
                                    for k, v in zip(row_k, row_g))]


def all_by_search(puzzle: Puzzle, **options) -> list[Grid]:
    """Every solution, by the search with ``options`` (:class:`SearchOptions` fields)."""
    found = solve_by_search(puzzle, SearchOptions(**options), limit=10**6)
    assert found.exhausted and not found.timed_out
    return found.solutions


# --- agreement with the brute force -------------------------------------------------------------

def random_clues(rng: random.Random, height: int, width: int) -> Grid:
    """Clues at random: from a random valid grid (often unique or few solutions) or arbitrary
    numbers (often none)."""
    if rng.random() < 0.6:
        grid = rng.choice(ALL_GRIDS[height, width])
        keep = rng.choice([0.2, 0.4, 0.6])
        return tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in grid)
    top = height * width
    return tuple(tuple(rng.randint(1, top) if rng.random() < 0.25 else 0 for _ in range(width))
                 for _ in range(height))


SEARCHES = [
    *(pytest.param(f"{{shape}}-{order}", 25, {"cell_order": order}, id=order) for order in CELL_ORDERS),
    # the strong search: the search-only rules and exit probing to each depth
    *(pytest.param(f"strong-{{shape}}-{depth}", 15, {"search_rules": SEARCH_RULES, "probe_depth": depth},
                   id=f"strong-probe{depth}") for depth in (-1, 0, 99)),
    # the last conflict's guess made again first, alone, in the thesis' own
    # search, and with what it may be combined with
    pytest.param("lc-{shape}", 60, {"search_rules": SEARCH_RULES, "last_conflict": True}, id="strong-last-conflict"),
    pytest.param("lc-thesis-{shape}", 40, {"last_conflict": True}, id="last-conflict"),
    # the second conflict of a wiped-out cell and the failure weights: each
    # alone, together (the quick proof's), in the thesis' own search, and with the other options
    pytest.param("wiped-{shape}", 60, {"search_rules": SEARCH_RULES, "last_conflict": True, "wiped_out": True},
                 id="strong-wiped-out"),
    pytest.param("weights-{shape}", 60, {"search_rules": SEARCH_RULES, "weights": True}, id="strong-weights"),
    pytest.param("wiped-weights-{shape}", 60, {"search_rules": SEARCH_RULES, "last_conflict": True,
                                               "wiped_out": True, "weights": True}, id="strong-wiped-out-weights"),
    pytest.param("wiped-weights-thesis-{shape}", 40, {"last_conflict": True, "wiped_out": True, "weights": True},
                 id="wiped-out-weights"),
    *(pytest.param(f"wiped-weights-{order}-{{shape}}", 25, {"last_conflict": True, "wiped_out": True, "weights": True,
                                                             "cell_order": order}, id=f"wiped-out-weights-{order}")
      for order in CELL_ORDERS[1:]),
    # guessing where the tight groups meet: at the root, one guess deep
    # (the quick proof's, with its other options), everywhere, in the thesis' own search too
    *(pytest.param(f"shared{depth}-{{shape}}", 40, {"search_rules": SEARCH_RULES, "shared_depth": depth},
                   id=f"strong-shared{depth}") for depth in (0, 1, 99)),
    pytest.param("shared-quick-{shape}", 60, {"search_rules": SEARCH_RULES, "last_conflict": True,
                                              "wiped_out": True, "weights": True, "shared_depth": 0},
                 id="strong-quick-proof-shared"),
    pytest.param("shared-thesis-{shape}", 40, {"shared_depth": 99}, id="shared"),
    # the failure weights from the root on (the second phase's weighted walk), with the race's
    # last conflict, and in the thesis' own search
    pytest.param("root-weights-{shape}", 60, {"search_rules": SEARCH_RULES, "last_conflict": True,
                                              "weights_from_root": True}, id="strong-weights-from-root"),
    pytest.param("root-weights-thesis-{shape}", 40, {"weights_from_root": True}, id="weights-from-root"),
]


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (2, 4)])
@pytest.mark.parametrize("seed, rounds, options", SEARCHES)
def test_solution_counts_agree_with_the_brute_force(shape, seed, rounds, options):
    """Every search (each cell order; the strong search at each probing depth) finds exactly
    the brute force's solutions of random tiny puzzles."""
    rng = random.Random(seed.format(shape=shape))
    for _ in range(rounds):
        clues = random_clues(rng, *shape)
        puzzle = Puzzle(shape[0], shape[1], clues)
        expected = count_matching(ALL_GRIDS[shape], clues)
        assert sorted(all_by_search(puzzle, **options)) == expected, clues


def test_counts_agree_without_any_rule():
    """Completeness does not rest on the rules: with none, the search still finds exactly the
    brute force's solutions (only the group checks prune)."""
    rng = random.Random(7)
    for _ in range(25):
        clues = random_clues(rng, 2, 3)
        expected = count_matching(ALL_GRIDS[2, 3], clues)
        assert sorted(all_by_search(Puzzle(2, 3, clues), rules=())) == expected, clues


def test_the_empty_grids_have_every_solution():
    for shape in [(2, 3), (3, 3)]:
        blank = tuple(tuple(0 for _ in range(shape[1])) for _ in range(shape[0]))
        assert sorted(all_by_search(Puzzle(*shape, blank))) == ALL_GRIDS[shape]


# --- published and shipped puzzles ---------------------------------------------------------------

def test_g12_has_its_published_solution_only():
    found = solve_by_search(read_puzzle(str(INSTANCES / "g12-5x5.txt")), limit=2)
    assert found.solutions == [G12_SOLUTION]
    assert found.exhausted and found.unique is True
    assert found.max_depth >= 1 and not found.root_solved  # the rules leave four cells


def test_first_nodes_stops_only_a_search_that_found_nothing():
    """``first_nodes`` (the quick proof's): that many fixpoints without a solution stop the
    search; a search that found its solution by then goes on to its proof (here 30 nodes to the
    solution, 65 to the end of the tree)."""
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    first = solve_by_search(puzzle, limit=1).nodes  # the node that finds the only solution
    assert first > 1
    stopped = solve_by_search(puzzle, limit=2, first_nodes=first - 1)
    assert stopped.timed_out and stopped.solutions == [] and stopped.nodes == first - 1 and stopped.unique is None
    found = solve_by_search(puzzle, limit=2, first_nodes=first)
    assert len(found.solutions) == 1 and found.exhausted and found.unique is True
    assert found.nodes > first and not found.timed_out
    assert check_solution(puzzle.cells, found.solutions[0]) == []


def test_without_probing_the_strong_search_stops_after_its_first_phase():
    """``second_phase=False`` (the quick proof's) is the first phase alone: past its nodes it
    ends unsettled, where the default goes on with probing to the proof."""
    from fillsmt.fillomino.search import solve_strong

    puzzle = read_puzzle(str(INSTANCES / "scaling" / "10x10-2.txt"))  # 109 nodes to its proof
    options = replace(STRONG_SEARCH, first_phase_budget=50 * 100)
    cut = solve_strong(puzzle, replace(options, second_phase=False), limit=2)
    assert cut.nodes == 50 and not cut.exhausted and not cut.timed_out and cut.unique is None
    assert len(cut.solutions) == 1
    full = solve_strong(puzzle, options, limit=2)
    assert full.exhausted and full.unique is True and full.nodes > 50


@pytest.mark.parametrize("name", ["formats-example-5x5", "random-4x7", "random-6x6", "random-7x7"])
def test_shipped_instances_are_unique(name):
    puzzle = read_puzzle(str(INSTANCES / f"{name}.txt"))
    found = solve_by_search(puzzle, limit=2)
    assert found.unique is True
    assert check_solution(puzzle.cells, found.solutions[0]) == []


def test_contradictory_puzzle_is_exhausted_with_no_solution():
    found = solve_by_search(read_puzzle(str(INSTANCES / "unsat-1x2.txt")), limit=2)
    assert found.solutions == [] and found.exhausted and found.unique is False
    assert found.max_depth == 0 and found.root_contradiction


def test_contradictions_the_rules_miss_are_found_by_search():
    """Puzzles with no solution that the rules alone do not refute: the search must exhaust."""
    rng = random.Random(11)
    seen = 0
    while seen < 5:
        clues = random_clues(rng, 3, 3)
        puzzle = Puzzle(3, 3, clues)
        if count_matching(ALL_GRIDS[3, 3], clues):
            continue
        found = solve_by_search(puzzle, limit=2)
        assert found.exhausted and found.solutions == []
        if found.root_contradiction is None:
            seen += 1
            assert found.max_depth >= 1


JANKO_QUICK = ["015", "024", "036", "038", "084", "088"]


@pytest.mark.parametrize("name", JANKO_QUICK)
def test_janko_published_solutions(name):
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    puzzle = read_puzzle(str(folder / "puzzles" / f"{name}.txt"))
    _, _, published = parse_grid((folder / "solutions" / f"{name}.txt").read_text())
    found = solve_by_search(puzzle, limit=2)
    assert found.solutions == [published] and found.exhausted


def _presolved_janko(name: str):
    """Janko ``name`` presolved (as the quick proof gets it) and its published solution; the
    test is skipped when the shared puzzles are absent."""
    from fillsmt.fillomino.kind import KIND

    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    _, _, published = parse_grid((folder / "solutions" / f"{name}.txt").read_text())
    return KIND.presolve(read_puzzle(str(folder / "puzzles" / f"{name}.txt"))).puzzle, published


def test_the_last_conflict_changes_the_tree_of_tiny_searches():
    """The agreement tests above test ``last_conflict`` where it acts: on random tiny puzzles
    (those tests' kind) it changes the search's tree (its nodes) on some."""
    rng = random.Random("last-conflict-acts")
    changed = 0
    for _ in range(80):
        puzzle = Puzzle(3, 3, random_clues(rng, 3, 3))
        plain = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES), limit=99)
        again = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, last_conflict=True), limit=99)
        assert sorted(plain.solutions) == sorted(again.solutions)
        changed += plain.nodes != again.nodes
    assert changed > 0


@pytest.mark.parametrize("name, before, at_most", [("285", 99, 60), ("246", 53, 20), ("231", 45, 30)])
def test_the_last_conflict_shortens_janko_proofs(name, before, at_most):
    """The quick proof's search (its first phase, limit 2) with ``last_conflict``: the published
    solution, proven unique, in fewer nodes: these proofs refute one cell's choices again and
    again under guesses the refutation does not need (``before``: the nodes without it)."""
    from fillsmt.fillomino.search import solve_strong

    puzzle, published = _presolved_janko(name)
    plain = solve_strong(puzzle, replace(STRONG_SEARCH, second_phase=False), limit=2)
    again = solve_strong(puzzle, replace(STRONG_SEARCH, second_phase=False, last_conflict=True), limit=2)
    assert plain.solutions == again.solutions == [published] and again.unique is True
    assert plain.nodes == before and again.nodes <= at_most, (plain.nodes, again.nodes)


@pytest.mark.parametrize("options", [{"last_conflict": True, "wiped_out": True}, {"weights": True}],
                         ids=["wiped-out", "weights"])
def test_the_second_conflict_and_the_weights_change_the_tree_of_tiny_searches(options):
    """The agreement tests above test ``wiped_out`` and ``weights`` where they act: on random
    tiny puzzles each changes the search's tree (its nodes) on some, against the search
    without it (with ``last_conflict`` for ``wiped_out``, which needs it)."""
    rng = random.Random(f"acts-{sorted(options)}")
    base = {"last_conflict": True} if "wiped_out" in options else {}
    changed = 0
    for _ in range(120):
        puzzle = Puzzle(3, 3, random_clues(rng, 3, 3))
        plain = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, **base), limit=10**6)
        again = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, **options), limit=10**6)
        assert sorted(plain.solutions) == sorted(again.solutions)
        changed += plain.nodes != again.nodes
    assert changed > 0


def test_guessing_where_the_tight_groups_meet_agrees_with_the_brute_force_where_it_acts():
    """``shared_depth`` seldom changes a tree as small as the agreement tests' (tied groups
    sharing an exit need groups of two values side by side): on random 3x4 puzzles, every search
    with it finds the search's solutions without it, and where it changes the tree (some must)
    exactly the brute force's."""
    rng = random.Random("shared-acts")
    acted = 0
    for _ in range(300):
        clues = tuple(tuple(rng.randint(1, 5) if rng.random() < 0.4 else 0 for _ in range(4)) for _ in range(3))
        puzzle = Puzzle(3, 4, clues)
        plain = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES), limit=10**6)
        shared = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, shared_depth=99), limit=10**6)
        assert plain.exhausted and shared.exhausted
        assert sorted(shared.solutions) == sorted(plain.solutions), clues
        if plain.nodes != shared.nodes:
            acted += 1
            assert sorted(shared.solutions) == brute_force(3, 4, clues), clues
    assert acted >= 5


def test_the_shared_exit_is_where_the_tight_groups_meet():
    """``shared_group_exit`` on a 2x3 board: the 2 at r0c0 and the 3 at r1c1 have two exits
    each and share r1c0. The order takes the 2 (fewer cells missing) and its first exit, r0c1;
    where the tight groups meet, r1c0 (decided, it settles both groups' ways out)."""
    from fillsmt.fillomino.deduce.board import Board
    from fillsmt.fillomino.deduce.state import State
    from fillsmt.fillomino.search.guesses import shared_group_exit, tightest_group_exit

    masks = [1 << 2, 0b110, 0b1010,
             0b1100, 1 << 3, 0b1010]
    state = State(Board.of(2, 3), masks, [])
    assert tightest_group_exit(state) == (1, 2)
    assert shared_group_exit(state) == (3, 2)
    weights = [0, 0, 0, 0, 0, 9]  # the 3's other exit: the weights rank groups after the share
    assert shared_group_exit(state, weights=weights) == (3, 3)


def test_the_weights_wait_for_the_first_solution():
    """Before its first solution the search with ``weights`` walks the same tree as without:
    a plain solve (limit 1) is node for node the same, on puzzles where the weights change the
    whole search's tree."""
    rng = random.Random("weights-wait")
    changed = 0
    for _ in range(120):
        puzzle = Puzzle(3, 3, random_clues(rng, 3, 3))
        for limit, same in ((1, True), (10**6, False)):
            plain = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES), limit=limit)
            weighed = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, weights=True), limit=limit)
            assert plain.solutions[:1] == weighed.solutions[:1]
            if same:
                assert plain.nodes == weighed.nodes, puzzle.cells
            else:
                changed += plain.nodes != weighed.nodes
    assert changed > 0


def test_the_weights_from_the_root_act_before_the_first_solution():
    """``weights_from_root`` (the second phase's weighted walk) does not wait for a
    solution (``test_the_weights_wait_for_the_first_solution``): 10x10-big-10's plain solve
    (instances/, presolved; the search rules and the last conflict, as the race's first phase)
    finds the same solution in another number of nodes (65 without, 43 with)."""
    from fillsmt.fillomino.kind import KIND

    puzzle = KIND.presolve(read_puzzle(str(INSTANCES / "big-regions" / "10x10-big-10.txt"))).puzzle
    plain = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, last_conflict=True), limit=1)
    weighed = solve_by_search(puzzle, SearchOptions(search_rules=SEARCH_RULES, last_conflict=True,
                                                    weights_from_root=True), limit=1)
    assert len(plain.solutions) == 1 and weighed.solutions == plain.solutions
    assert (plain.nodes, weighed.nodes) == (65, 43)


def test_the_brute_force_catches_a_second_conflict_without_its_complement(monkeypatch):
    """The agreement test can fail for ``wiped_out``: a search that, guessing the second
    conflict, drops the guess's complement (as if the cell could only take that value) loses
    solutions the brute force has."""
    from fillsmt.fillomino.search.tree import Search

    honest = Search.expand

    def careless(self, node):
        children = honest(self, node)
        second = self.conflicts.second  # as the guess saw it
        if len(children) == 2 and second is not None and children[0].decision == (second[0], 1 << second[1]):
            return children[:1]
        return children

    monkeypatch.setattr(Search, "expand", careless)
    assert _wrong_counts("careless-wiped-out", last_conflict=True, wiped_out=True) > 0


@pytest.mark.parametrize("name, before, at_most", [("268", 183, 120), ("285", 53, 45), ("067", 103, 90)])
def test_the_second_conflict_and_the_weights_shorten_janko_proofs(name, before, at_most):
    """The quick proof's search (its first phase, limit 2, with ``last_conflict``) with
    ``wiped_out`` and ``weights``: the published solution, proven unique, in fewer nodes (268's
    proof refutes a few left-column cells under every guess on the right; ``before``: the nodes
    without them)."""
    from fillsmt.fillomino.search import solve_strong

    puzzle, published = _presolved_janko(name)
    plain = solve_strong(puzzle, replace(STRONG_SEARCH, second_phase=False, last_conflict=True), limit=2)
    again = solve_strong(puzzle, replace(STRONG_SEARCH, second_phase=False, last_conflict=True, wiped_out=True,
                                         weights=True), limit=2)
    assert plain.solutions == again.solutions == [published] and again.unique is True
    assert plain.nodes == before and again.nodes <= at_most, (plain.nodes, again.nodes)


def test_guessing_where_the_tight_groups_meet_shortens_janko_286s_proof():
    """The quick proof's search (its first phase, limit 2, its options) with ``shared_depth`` 0:
    janko 286's published solution, proven unique, in fewer nodes (its root's guess on the cell
    three groups of two exits share, where the order takes a 2-group in the middle: 33 nodes)."""
    from fillsmt.fillomino.search import solve_strong

    puzzle, published = _presolved_janko("286")
    options = replace(STRONG_SEARCH, second_phase=False, last_conflict=True, wiped_out=True, weights=True)
    plain = solve_strong(puzzle, options, limit=2)
    again = solve_strong(puzzle, replace(options, shared_depth=0), limit=2)
    assert plain.solutions == again.solutions == [published] and again.unique is True
    assert plain.nodes == 33 and again.nodes <= 25, (plain.nodes, again.nodes)


@pytest.mark.parametrize("options", [{}, {"last_conflict": True, "wiped_out": True, "weights": True}],
                         ids=["strong", "quick-proof"])
def test_the_search_makes_no_reference_cycles(options):
    """A search's states, their noted results and its nodes are freed by reference counting
    alone: with the cyclic collector off, a whole proof leaves nothing for it to find (a noted
    result that held its state would make cycles at every node)."""
    import gc

    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.search import solve_strong

    puzzle = KIND.presolve(read_puzzle(str(INSTANCES / "big-regions" / "12x12-big-13.txt"))).puzzle
    gc.collect()
    gc.disable()
    try:
        found = solve_strong(puzzle, replace(STRONG_SEARCH, second_phase=False, **options), limit=2)
        left = gc.collect()
    finally:
        gc.enable()
    assert found.exhausted and found.nodes > 20
    assert left == 0


def _wrong_counts(seed: str, **options) -> int:
    """How many of 60 random 3x3 puzzles a search (``options``) answers unlike the brute force."""
    rng = random.Random(seed)
    wrong = 0
    for _ in range(60):
        clues = random_clues(rng, 3, 3)
        expected = count_matching(ALL_GRIDS[3, 3], clues)
        wrong += sorted(all_by_search(Puzzle(3, 3, clues), search_rules=SEARCH_RULES, **options)) != expected
    return wrong


@pytest.mark.parametrize("name", [*(f"baron-thesis60/puzzles/{n}" for n in ("05x10-01", "10x10-09", "15x20-05")),
                                  *(f"minizinc-challenge/{n}" for n in ("11", "12", "15", "19", "5x5_1"))])
def test_published_unique_puzzles_are_solved_and_unique(name):
    path = SHARED / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    puzzle = read_puzzle(str(path))
    found = solve_by_search(puzzle, limit=2)
    assert found.unique is True
    assert check_solution(puzzle.cells, found.solutions[0]) == []


def test_minizinc_counts_agree_with_the_brute_force():
    """The 4x4 instance 07 has 19 solutions; 08 has many (2538): a second one is found."""
    folder = SHARED / "minizinc-challenge"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    p07 = read_puzzle(str(folder / "07.txt"))
    assert sorted(all_by_search(p07)) == brute_force(4, 4, p07.cells)
    assert len(brute_force(4, 4, p07.cells)) == 19
    p08 = read_puzzle(str(folder / "08.txt"))
    two = solve_by_search(p08, limit=2)
    assert len(two.solutions) == 2 and two.unique is False and not two.exhausted
    assert all(check_solution(p08.cells, g) == [] for g in two.solutions)


# --- a clue removed: more than one solution -----------------------------------------------------

def test_a_removed_clue_makes_two_solutions():
    """1 3 3 / 2 2 3 is the only solution with the 1 given; without it, (0,0) and (0,1) can
    also take other values, and the search counts what the brute force counts."""
    unique = parse_puzzle("2 3\n1 0 3\n2 2 3")
    assert [g for g in all_by_search(unique)] == brute_force(2, 3, unique.cells)
    assert len(brute_force(2, 3, unique.cells)) == 1
    loose = parse_puzzle("2 3\n0 0 3\n2 0 3")
    expected = brute_force(2, 3, loose.cells)
    assert len(expected) >= 2
    two = solve_by_search(loose, limit=2)
    assert two.unique is False and len(two.solutions) == 2
    assert set(two.solutions) <= set(expected)
    assert sorted(all_by_search(loose)) == expected


def test_clues_removed_from_unique_tiny_puzzles():
    """For random unique 3x3 puzzles, drop each clue in turn: the count always matches the
    brute force, and when it is above one, limit=2 stops at two without exhausting."""
    rng = random.Random(5)
    checked = 0
    while checked < 8:
        grid = rng.choice(ALL_GRIDS[3, 3])
        clues = tuple(tuple(v if rng.random() < 0.5 else 0 for v in row) for row in grid)
        if len(count_matching(ALL_GRIDS[3, 3], clues)) != 1:
            continue
        checked += 1
        for r, c in [(r, c) for r in range(3) for c in range(3) if clues[r][c]]:
            fewer = tuple(tuple(0 if (i, j) == (r, c) else v for j, v in enumerate(row))
                          for i, row in enumerate(clues))
            expected = count_matching(ALL_GRIDS[3, 3], fewer)
            found = solve_by_search(Puzzle(3, 3, fewer), limit=2)
            assert found.unique is (len(expected) == 1)
            assert set(found.solutions) <= set(expected)


# --- the bookkeeping ------------------------------------------------------------------------------

def test_rules_alone_mean_depth_zero():
    puzzle = read_puzzle(str(INSTANCES / "random-7x7.txt"))
    found = solve_by_search(puzzle)
    assert found.root_solved and found.max_depth == 0 and found.guesses == 0 and found.nodes == 1
    assert found.exhausted  # nothing was left to explore
    assert found.solution_depth == 0


def test_counters_are_consistent():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    found = solve_by_search(puzzle, limit=2)
    assert found.nodes <= 2 * found.guesses + 1  # each guess and its complement, and the root
    assert found.guesses >= found.max_depth >= 1
    assert sum(found.rules_used.values()) > sum(found.root_rules.values())
    assert all(found.rules_used[r] >= n for r, n in found.root_rules.items())


def test_search_is_deterministic():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    a, b = solve_by_search(puzzle, limit=2), solve_by_search(puzzle, limit=2)
    assert (a.solutions, a.nodes, a.max_depth, a.guesses) == (b.solutions, b.nodes, b.max_depth, b.guesses)


def test_deadline_and_node_cap_stop_cleanly():
    puzzle = read_puzzle(str(INSTANCES / "formats-example-5x5.txt"))
    late = solve_by_search(puzzle, deadline=time.monotonic() - 1)
    assert late.timed_out and not late.exhausted and late.nodes == 0 and late.unique is None
    capped = solve_by_search(puzzle, limit=2, max_nodes=3)
    assert capped.nodes == 3 and not capped.exhausted and not capped.timed_out
    assert capped.unique is None


def test_avoid_hunts_for_another_solution():
    g12 = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    other = solve_by_search(g12, avoid=G12_SOLUTION)
    assert other.solutions == [] and other.exhausted  # unique: nothing else exists
    loose = parse_puzzle("2 3\n0 0 3\n2 0 3")
    every = brute_force(2, 3, loose.cells)
    found = solve_by_search(loose, avoid=every[0])
    assert found.solutions and found.solutions[0] in every[1:]


def test_bad_arguments():
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    with pytest.raises(InputError, match="limit"):
        solve_by_search(puzzle, limit=0)
    with pytest.raises(InputError, match="cell order"):
        solve_by_search(puzzle, SearchOptions(cell_order="random"))
    with pytest.raises(InputError, match="rule"):
        solve_by_search(puzzle, SearchOptions(rules=("guessing",)))


def test_large_unclued_regions_keep_their_solution():
    """Random solutions with regions up to 8 cells, half the clues gone: the search always
    finds solutions, and when it lists them all, the grid the puzzle came from is among them."""
    from gridgen import random_solution

    listed = 0
    for seed in range(12):
        rng = random.Random(seed)
        solution = random_solution(rng, 4, 4, max_size=8)
        clues = tuple(tuple(v if rng.random() < 0.5 else 0 for v in row) for row in solution)
        found = solve_by_search(Puzzle(4, 4, clues), limit=300, max_nodes=3000)
        assert found.solutions, clues
        if found.exhausted:
            listed += 1
            assert solution in found.solutions
    assert listed >= 6

