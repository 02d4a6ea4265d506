"""The search-only reasoning (fillsmt.fillomino.deduce.capacity, exit probing in
fillsmt.fillomino.search): sound against the brute force, and it does fire.

Soundness is what makes an exhausted search a proof, so every test here compares with the
brute-force enumerator of test_backtrack (written from the definition alone): no solution may
lose a value, and the strong search must find exactly the brute force's solutions.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from conftest import INSTANCES, SHARED
from test_backtrack import ALL_GRIDS, brute_force, count_matching, random_clues

from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES, capacity, distinct_regions
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.fillomino.search import STRONG_SEARCH, SearchOptions, solve_by_search, solve_strong


def settled(puzzle: Puzzle) -> tuple[State, str | None]:
    """The rules' fixpoint, then ``capacity``, alternating until neither changes anything."""
    state = State(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle),
                  [*ALL_RULES, *SEARCH_RULES])
    while True:
        why = fixpoint(state, ALL_RULES)
        if why is not None:
            return state, why
        before = len(state.changed_cells)
        try:
            capacity(state)
        except Contradiction as e:
            return state, str(e)
        if len(state.changed_cells) == before:
            return state, None


def tight_clues(rng: random.Random, solution, keep: float):
    """Clues from a valid grid: many clues make the counting tight, so capacity fires."""
    return tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (3, 4)])
def test_capacity_keeps_every_solution_and_fires(shape):
    rng = random.Random(f"capacity-{shape}")
    grids = ALL_GRIDS.get(shape) or brute_force(*shape)
    fired = 0
    for _ in range(40):
        clues = tight_clues(rng, rng.choice(grids), rng.choice([0.3, 0.5, 0.7]))
        puzzle = Puzzle(shape[0], shape[1], clues)
        solutions = count_matching(grids, clues)
        state, why = settled(puzzle)
        assert why is None, (clues, why)  # every puzzle here has a solution
        for grid in solutions:
            flat = [v for row in grid for v in row]
            assert all(state.dom[x] >> v & 1 for x, v in enumerate(flat)), (clues, grid)
        fired += state.removed_by_rule["capacity"] > 0
    assert fired >= 5  # the rule did something on a fair share of them


# The strong search against the brute force on random tiny puzzles, at each probing depth, is a
# parameter of test_backtrack.test_solution_counts_agree_with_the_brute_force.


def test_strong_search_on_3x4_with_tight_clues():
    """Larger grids than above, clued from valid grids so capacity and probing have work."""
    rng = random.Random(5)
    grids = brute_force(3, 4)
    for _ in range(15):
        clues = tight_clues(rng, rng.choice(grids), rng.choice([0.2, 0.4]))
        found = solve_by_search(Puzzle(3, 4, clues), SearchOptions(search_rules=SEARCH_RULES, probe_depth=0,
                                                                   probe_budget=10**6), limit=10**6)
        assert found.exhausted and sorted(found.solutions) == count_matching(grids, clues), clues


def unsettled(text: str) -> State:
    puzzle = parse_puzzle(text)
    return State(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle), [*ALL_RULES, *SEARCH_RULES])


def test_the_slack_counts_distinct_regions():
    """Two 3s four steps apart cannot share a region of 3 (1 + 1 + 3 cells > 3): two regions;
    two 4s two steps apart can (1 + 1 + 1 <= 4): one; complete groups count one each."""
    assert distinct_regions(unsettled("1 7\n3 0 0 0 3 0 0"), 3) == 2
    assert distinct_regions(unsettled("2 3\n4 0 4\n0 0 0"), 4) == 1
    assert distinct_regions(unsettled("2 3\n1 0 1\n0 0 0"), 1) == 2


def test_capacity_refutes_what_the_rules_do_not():
    """A 4 and a 6 lie in distinct regions of 10 cells; a 3x3 grid has 9. The rules alone
    leave it open (each can grow on its own); the count refutes it."""
    puzzle = parse_puzzle("3 3\n0 0 4\n0 6 0\n0 0 0")
    assert count_matching(brute_force(3, 3), puzzle.cells) == []
    state = State(Board.of(3, 3), initial_masks(puzzle), [*ALL_RULES, *SEARCH_RULES])
    assert fixpoint(state, ALL_RULES) is None
    with pytest.raises(Contradiction, match="need 10 cells, more than the grid's 9"):
        capacity(state)


def test_must_join_confines_a_region_to_the_paths_between_its_clues():
    """Two 5s at the ends of a 5-cell diagonal distance: if apart they would need 10 of the 9
    cells (3x3); together they are a shortest path, so the corners off every such path lose 5."""
    puzzle = parse_puzzle("3 3\n5 0 0\n0 0 0\n0 0 5")
    state, why = settled(puzzle)
    assert why is None
    expected = {tuple(tuple(v for v in row) for row in g) for g in count_matching(brute_force(3, 3), puzzle.cells)}
    assert expected  # e.g. a staircase of 5s
    for grid in expected:
        assert all(state.dom[r * 3 + c] >> grid[r][c] & 1 for r in range(3) for c in range(3))
    # every cell outside the 5-region of some solution has lost 5 unless some solution uses it
    used = {r * 3 + c for g in expected for r in range(3) for c in range(3) if g[r][c] == 5}
    assert all(state.dom[x] >> 5 & 1 == (x in used) for x in range(9))


@pytest.mark.parametrize("name", ["286"])
def test_strong_search_proves_janko_286_unique(name):
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    puzzle = read_puzzle(str(folder / "puzzles" / f"{name}.txt"))
    found = solve_strong(puzzle, limit=2)
    assert found.exhausted and found.unique is True


WALKS = [(False, False), (True, False), (True, True)]
SECOND_ONLY = replace(STRONG_SEARCH, first_phase_budget=0)
"""The strong search with no node for its first phase: every answer comes from the second."""


@pytest.mark.parametrize("last_conflict, weighted_walk", WALKS)
def test_the_second_phase_finds_exactly_the_brute_force_solutions(last_conflict, weighted_walk):
    """With no node for the first phase, every answer comes from the probing phase (its walks
    making a refuted guess again first, or not; one weighing from its root on, or none)."""
    seed = "second-phase" + (f"-{last_conflict}" if last_conflict else "") + ("-instead" if weighted_walk else "")
    rng = random.Random(seed)
    options = replace(SECOND_ONLY, last_conflict=last_conflict, weighted_walk=weighted_walk)
    for _ in range(15 + 25 * last_conflict):
        clues = random_clues(rng, 3, 3)
        found = solve_strong(Puzzle(3, 3, clues), options, limit=10**6)
        assert found.exhausted and sorted(found.solutions) == count_matching(ALL_GRIDS[3, 3], clues)


@pytest.mark.parametrize("last_conflict, weighted_walk", WALKS)
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_second_phases_walks_together_find_distinct_brute_force_solutions(limit, last_conflict, weighted_walk):
    """The second phase's walks (one per order, by turns) stop at ``limit`` distinct solutions
    found by any of them together, or when one is exhausted: on tiny puzzles with 0 to many
    solutions, every answer is ``min(limit, all)`` distinct brute-force solutions, exhausted only
    when none is left, and ``unique`` is right."""
    options = replace(SECOND_ONLY, second_phase_orders=("big-value", "group-exit", "row-major"),
                      last_conflict=last_conflict, weighted_walk=weighted_walk)
    rng = random.Random(f"turns-{limit}")
    several = 0
    for _ in range(40):
        clues = random_clues(rng, 3, 3)
        expected = count_matching(ALL_GRIDS[3, 3], clues)
        found = solve_strong(Puzzle(3, 3, clues), options, limit=limit)
        assert len(found.solutions) == min(limit, len(expected))
        assert len(set(found.solutions)) == len(found.solutions)
        assert set(found.solutions) <= set(expected)
        if len(expected) < limit:
            assert found.exhausted
        if len(expected) > limit:  # solutions are left: not all of the space was explored
            assert not found.exhausted
        if limit == 2:
            assert found.unique is (len(expected) == 1)
        several += len(expected) > limit
    assert several >= 5  # the walks' solutions are pooled on these


def test_one_second_phase_order_is_the_plain_second_phase_node_for_node():
    """With one order the second phase is the probing search of that order, as before the
    walks took turns: the same solutions and the same nodes and probes."""
    rng = random.Random("one-order")
    for _ in range(20):
        puzzle = Puzzle(3, 3, random_clues(rng, 3, 3))
        found = solve_strong(puzzle, replace(SECOND_ONLY, second_phase_orders=("big-value",)), limit=2)
        alone = solve_by_search(puzzle, replace(STRONG_SEARCH, probe_depth=0, cell_order="big-value"), limit=2)
        assert (found.solutions, found.exhausted, found.probes) == (alone.solutions, alone.exhausted, alone.probes)
        assert found.nodes == alone.nodes


def test_the_weighted_walk_walks_another_tree_than_its_order():
    """``weighted_walk``'s walk is its order's walk with failure weights from its root on: in
    the second phase alone (instead of the order's only walk), it finds the brute force's
    solutions and walks another tree than its order without weights on some random tiny puzzles;
    and it does not wait for a solution: 10x10-big-5's plain solve (instances/, presolved) takes
    28 nodes where the order alone takes 38, to the same solution."""
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.search import WEIGHTED_WALK_ORDER

    alone = replace(SECOND_ONLY, second_phase_orders=(WEIGHTED_WALK_ORDER,), last_conflict=True)

    def both(puzzle, limit):
        return (solve_strong(puzzle, alone, limit=limit),
                solve_strong(puzzle, replace(alone, weighted_walk=True), limit=limit))

    rng = random.Random("weighted-walk")
    changed = 0
    for _ in range(60):
        clues = random_clues(rng, 3, 3)
        plain, weighed = both(Puzzle(3, 3, clues), 10**6)
        assert weighed.exhausted and sorted(weighed.solutions) == count_matching(ALL_GRIDS[3, 3], clues)
        changed += plain.nodes != weighed.nodes
    assert changed > 0
    puzzle = KIND.presolve(read_puzzle(str(INSTANCES / "big-regions" / "10x10-big-5.txt"))).puzzle
    plain, weighed = both(puzzle, 1)
    assert len(plain.solutions) == 1 and weighed.solutions == plain.solutions
    assert (plain.nodes, weighed.nodes) == (38, 28)


def test_the_race_search_takes_the_weighing_switches():
    """``Fillomino.search`` (the race's) runs ``RACE_SEARCH``, whose second phase's group-exit walk
    weighs from its root on: 10x10-big-5's plain solve (instances/, presolved) in the first
    phase, 38 nodes, the same as the race's search; in a second phase of the group-exit walk
    alone, 38, 28 with that walk weighing instead."""
    from fillsmt.fillomino.kind import KIND
    from fillsmt.fillomino.search import RACE_SEARCH

    puzzle = KIND.presolve(read_puzzle(str(INSTANCES / "big-regions" / "10x10-big-5.txt"))).puzzle
    assert RACE_SEARCH.weighted_walk and RACE_SEARCH.last_conflict
    race = KIND.search(puzzle, 1, None)
    walk = replace(RACE_SEARCH, first_phase_budget=0, second_phase_orders=("group-exit",))
    found = [solve_strong(puzzle, replace(RACE_SEARCH, weighted_walk=False), limit=1),
             solve_strong(puzzle, replace(walk, weighted_walk=False), limit=1),
             solve_strong(puzzle, walk, limit=1)]
    assert [f.nodes for f in found] == [38, 38, 28] and race.nodes == 38
    assert all(f.solutions == race.solutions and len(f.solutions) == 1 for f in found)


def test_the_walks_by_turns_cost_at_most_their_number_times_the_best_one():
    """Taking turns node by node, the walks end within k times the nodes of the best of the k
    orders alone (plus the root each later walk settles again): on random tiny puzzles, for the
    proof (limit 2) and all solutions."""
    orders = ("big-value", "group-exit")
    rng = random.Random("bound")
    for _ in range(20):
        puzzle = Puzzle(3, 3, random_clues(rng, 3, 3))
        for limit in (2, 10**6):
            found = solve_strong(puzzle, replace(SECOND_ONLY, second_phase_orders=orders), limit=limit)
            best = min(solve_by_search(puzzle, replace(STRONG_SEARCH, probe_depth=0, cell_order=o), limit=limit).nodes
                       for o in orders)
            assert found.nodes <= len(orders) * best + len(orders) - 1


def test_the_walks_by_turns_prove_a_big_region_puzzle_the_big_value_order_gets_lost_in():
    """12x12-big-12 (instances/): ``big-value`` alone proves it unique in 10 418 nodes (first
    phase 347, second 10 071), ``group-exit`` after the same probing in 797; by turns the proof
    takes under 2 600 (a node count, not a time: the same on every machine)."""
    puzzle = read_puzzle(str(INSTANCES / "big-regions" / "12x12-big-12.txt"))
    from fillsmt.kinds import get_kind

    presolved = get_kind("fillomino").presolve(puzzle).puzzle
    found = solve_strong(presolved, limit=2)
    assert found.unique is True
    assert found.nodes < 2600


def test_hard_tail_299_is_settled_by_probing():
    """The plain search gets lost in 299 (thousands of nodes); probing the root settles it."""
    folder = SHARED / "hard-tail"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    from fillsmt.fillomino.plain_format import parse_grid

    puzzle = read_puzzle(str(folder / "puzzles" / "299.txt"))
    _, _, published = parse_grid((folder / "solutions" / "299.txt").read_text())
    found = solve_strong(puzzle, limit=2)
    assert found.solutions == [published] and found.exhausted
    assert found.probes > 0 and found.refuted > 0


def test_strong_search_finds_the_thesis_searchs_solutions_on_janko_with_clues_removed():
    """10x10 grids with many solutions (janko's solutions, 25-40 % of the clues taken away):
    the strong search finds exactly the solutions the thesis' search (checked against the brute
    force above) finds, wherever the latter exhausts within its node cap."""
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    from fillsmt.fillomino.plain_format import parse_grid

    rng = random.Random(3)
    compared = 0
    for name in ["007", "008", "015", "016", "017", "018", "024", "029"]:
        _, _, solution = parse_grid((folder / "solutions" / f"{name}.txt").read_text())
        for keep in (0.6, 0.75):
            clues = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
            puzzle = Puzzle(len(solution), len(solution[0]), clues)
            reference = solve_by_search(puzzle, limit=200, max_nodes=1500)
            if not reference.exhausted:
                continue
            found = solve_strong(puzzle, limit=200)
            assert found.exhausted and sorted(found.solutions) == sorted(reference.solutions), (name, keep)
            compared += len(reference.solutions) > 1
    assert compared >= 8  # most of them have several solutions


def _forks_without_hand_down(monkeypatch) -> None:
    """``State.fork`` as if it handed nothing down: the child's noted budget searches, shared
    regions and free areas start empty."""
    real = State.fork

    def fork(self):
        child = real(self)
        child._reach, child.joins, child._parent = {}, {}, None
        return child

    monkeypatch.setattr(State, "fork", fork)


def test_handed_down_searches_change_no_node(monkeypatch):
    """A forked state reuses its parent's noted budget searches and free areas (State.fork):
    only work may change, never a node's domains. So the strong search finds the same solutions
    in the same number of nodes with and without handing them down, on 10x10 grids with many
    solutions (janko's, a third of the clues taken away) and on the brute-force 3x3s."""
    puzzles = _thinned_janko(["007", "015", "024", "029", "286"], 17)
    runs = _with_and_without(monkeypatch, _forks_without_hand_down, puzzles, limit=50, max_nodes=400)
    for kept, dropped in zip(runs[True], runs[False]):
        assert kept.solutions == dropped.solutions
        assert (kept.nodes, kept.probes, kept.refuted) == (dropped.nodes, dropped.probes, dropped.refuted)
    assert sum(len(r.solutions) for r in runs[True]) >= 10


def test_staged_rounds_change_no_node(monkeypatch):
    """The strong search's staged rounds (``fixpoint``'s ``staged``) reach the plain rounds'
    fixpoint: the same solutions in the same nodes on the thinned janko grids."""
    from fillsmt.fillomino.search import tree

    puzzles = _thinned_janko(["007", "015", "024", "029", "286"], 17)
    runs = {}
    for on in (True, False):
        if not on:
            monkeypatch.setattr(tree, "fixpoint", lambda state, rules, staged=False: fixpoint(state, rules))
        options = SearchOptions(search_rules=SEARCH_RULES, probe_depth=1, probe_budget=10**6)
        runs[on] = [solve_by_search(p, options, limit=50, max_nodes=400) for p in puzzles]
    for staged, plain in zip(runs[True], runs[False]):
        assert staged.solutions == plain.solutions
        assert (staged.nodes, staged.probes, staged.refuted) == (plain.nodes, plain.probes, plain.refuted)
    assert sum(len(r.solutions) for r in runs[True]) >= 10


@pytest.mark.parametrize("schedule", ["staged", "grid_last"])
def test_staged_rounds_reach_the_same_fixpoint(schedule):
    """``fixpoint(..., staged=True)`` (and ``grid_last=True``, the presolve's rounds) against the
    plain rounds, from the shipped puzzles' domains with random cells narrowed to one of their
    values (as guesses do): a contradiction in both or in neither, and the same domains when
    there is none."""
    from conftest import INSTANCES

    rng = random.Random("staged")
    compared = contradictions = 0
    for path in sorted((INSTANCES / "generated").glob("*.txt")):
        puzzle = read_puzzle(str(path))
        board = Board.of(puzzle.height, puzzle.width)
        for _ in range(10):
            masks = initial_masks(puzzle)
            for x in rng.sample(range(len(masks)), rng.randint(1, 2)):
                values = [k for k in range(masks[x].bit_length()) if masks[x] >> k & 1]
                masks[x] = 1 << rng.choice(values)
            plain, staged = (State(board, list(masks), ALL_RULES) for _ in range(2))
            found = fixpoint(plain, ALL_RULES), fixpoint(staged, ALL_RULES, **{schedule: True})
            assert (found[0] is None) == (found[1] is None), (path.name, found)
            if found[0] is None:
                assert plain.dom == staged.dom, path.name
                compared += 1
            else:
                contradictions += 1
    assert compared >= 20 and contradictions >= 5, (compared, contradictions)


def _thinned_janko(names: list[str], seed: int) -> list[Puzzle]:
    """janko-thesis100 solutions with about a third of their cells emptied (many solutions)."""
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    from fillsmt.fillomino.plain_format import parse_grid

    rng = random.Random(seed)
    puzzles = []
    for name in names:
        _, _, solution = parse_grid((folder / "solutions" / f"{name}.txt").read_text())
        clues = tuple(tuple(v if rng.random() < 0.67 else 0 for v in row) for row in solution)
        puzzles.append(Puzzle(len(solution), len(solution[0]), clues))
    return puzzles


def _with_and_without(monkeypatch, turn_off, puzzles: list[Puzzle], cell_order: str = "group-exit",
                      **search) -> dict:
    """The strong search over ``puzzles`` as it is (True) and with a cache turned off by
    ``turn_off(monkeypatch)`` (False)."""
    options = SearchOptions(search_rules=SEARCH_RULES, probe_depth=1, probe_budget=10**6, cell_order=cell_order)
    runs = {True: [solve_by_search(p, options, **search) for p in puzzles]}
    turn_off(monkeypatch)
    runs[False] = [solve_by_search(p, options, **search) for p in puzzles]
    return runs


def _joins_found_afresh(monkeypatch) -> None:
    """``capacity``'s shared regions of two groups found afresh each time (``State.joins`` not
    reused)."""
    import fillsmt.fillomino.deduce.capacity as cap

    real = cap._shared_region_cells

    def afresh(state, k, found, i, j):
        state.joins.pop((k, found.groups[i].cells, found.groups[j].cells), None)
        return real(state, k, found, i, j)

    monkeypatch.setattr(cap, "_shared_region_cells", afresh)


@pytest.mark.parametrize("order", ["big-value"])
def test_every_search_order_finds_exactly_the_brute_force_solutions(order):
    """The strong search's orders pick another group to grow; the split stays complete."""
    from fillsmt.fillomino.search import SEARCH_ORDERS

    assert order in SEARCH_ORDERS
    rng = random.Random(f"order-{order}")
    for shape in [(3, 3), (2, 4)]:
        for _ in range(12):
            clues = random_clues(rng, *shape)
            expected = count_matching(ALL_GRIDS[shape], clues)
            found = solve_by_search(Puzzle(shape[0], shape[1], clues),
                                    SearchOptions(search_rules=SEARCH_RULES, cell_order=order), limit=10**6)
            assert found.exhausted and sorted(found.solutions) == expected, clues
    grids = brute_force(3, 4)
    for _ in range(10):
        clues = tight_clues(rng, rng.choice(grids), 0.3)
        found = solve_by_search(Puzzle(3, 4, clues), SearchOptions(search_rules=SEARCH_RULES, cell_order=order,
                                                                   probe_depth=0, probe_budget=10**6), limit=10**6)
        assert found.exhausted and sorted(found.solutions) == count_matching(grids, clues), clues


def test_remembered_joins_change_no_node(monkeypatch):
    """``capacity`` reuses the shared region of two groups that must join while both groups'
    budget searches are unchanged (State.joins): only work may change, never a node. So the
    strong search finds the same solutions in the same nodes, probes and refutations with and
    without it, on hard-tail 266 (whose two 15s must join) cut short, and on janko grids with a
    third of their clues taken away."""
    hard = SHARED / "hard-tail" / "puzzles" / "266.txt"
    if not hard.exists():
        pytest.skip(f"{hard} is absent")
    puzzles = [read_puzzle(str(hard))] + _thinned_janko(["015", "286"], 1717)
    runs = _with_and_without(monkeypatch, _joins_found_afresh, puzzles, limit=20, max_nodes=300,
                             cell_order="big-value")
    for kept, afresh in zip(runs[True], runs[False]):
        assert kept.solutions == afresh.solutions
        assert (kept.nodes, kept.probes, kept.refuted) == (afresh.nodes, afresh.probes, afresh.refuted)
    assert runs[True][0].nodes == 300  # 266 is not settled in 300 nodes: the cache was exercised


def test_a_remembered_join_is_what_a_fresh_search_finds(monkeypatch):
    """Every time ``capacity`` reuses a shared region (State.joins), the three budget searches
    run afresh on the same state find exactly the same cells (hard-tail 266, whose two 15s
    must join, 400 nodes of the strong search's second-phase order, with probing)."""
    import fillsmt.fillomino.deduce.capacity as cap

    hard = SHARED / "hard-tail" / "puzzles" / "266.txt"
    if not hard.exists():
        pytest.skip(f"{hard} is absent")
    original = cap._shared_region_cells
    reused = []

    def compared(state, k, found, i, j):
        key = (k, found.groups[i].cells, found.groups[j].cells)
        kept = state.joins.get(key)
        got = original(state, k, found, i, j)
        if kept is not None and state.joins.get(key) is kept:  # reused, not found again
            del state.joins[key]
            assert got == original(state, k, found, i, j)
            state.joins[key] = kept
            reused.append(key)
        return got

    monkeypatch.setattr(cap, "_shared_region_cells", compared)
    solve_by_search(read_puzzle(str(hard)), SearchOptions(search_rules=SEARCH_RULES, probe_depth=0, probe_budget=10**5,
                                                          cell_order="big-value"), max_nodes=400)
    assert len(reused) >= 100


def _cut_off_brute(board: Board, inside: set[int], root: int) -> dict[int, int]:
    """For forced-cell's definition: remove e, count the cells of ``inside`` that no longer reach ``root``
    (for the root itself: every other cell it reaches)."""

    def reached(without: int | None) -> set[int]:
        seen, stack = {root}, [root]
        while stack:
            for y in board.neighbours[stack.pop()]:
                if y in inside and y != without and y not in seen:
                    seen.add(y)
                    stack.append(y)
        return seen

    every = reached(None)
    out = {root: len(every) - 1} if len(every) > 1 else {}
    for e in every - {root}:
        lost = len(every) - 1 - len(reached(e))
        if lost:
            out[e] = lost
    return out


def _layers_as_counts(layers, found, base):
    """A budget search's layers as node -> least count (groups: base + index)."""
    from fillsmt.fillomino.deduce.masks import values_of

    out = {}
    for d, cells in enumerate(layers):
        for x in values_of(cells):
            i = found.group_of.get(x)
            out[x if i is None else base + i] = d
    return out


def _counts_as_layers(counts, found, base, k):
    layers = [0] * (k + 1)
    for node, d in counts.items():
        layers[d] |= found.masks[node - base] if node >= base else 1 << node
    return layers


def test_budget_distances_match_a_relaxation_to_fixpoint():
    """The layered Dijkstra on sets of cells (``budget_layers``) against relaxing every node's
    count until nothing changes (Bellman-Ford), from a group and from given starting counts, on
    the k-groups of random partly fixed boards."""
    from fillsmt.fillomino.deduce.board import find_groups
    from fillsmt.fillomino.deduce.masks import bit
    from fillsmt.fillomino.deduce.searches import budget_layers

    rng = random.Random(2017)
    checked = 0
    for _ in range(300):
        h, w = rng.randint(2, 6), rng.randint(2, 6)
        board = Board.of(h, w)
        k = rng.randint(2, 9)
        dom = [rng.choice([bit(k), bit(k) | bit(1), bit(1), bit(k) | bit(2)]) for _ in range(h * w)]
        fixed = sum(1 << x for x, m in enumerate(dom) if m == bit(k))
        try:
            found = find_groups(board, dom, k, fixed)
        except Contradiction:
            continue
        if not found.groups:
            continue
        state = State(board, dom, [])
        base = len(dom)
        starts = [None, {base + i: g.size for i, g in enumerate(found.groups) if rng.random() < 0.5}
                  | {x: rng.randint(1, k) for x in range(h * w) if dom[x] & bit(k) and x not in found.group_of
                     and rng.random() < 0.2}]
        for start in starts:
            sources = [rng.randrange(len(found.groups))] if start is None else []
            got = _layers_as_counts(budget_layers(
                state, k, found, sources, None if start is None else _counts_as_layers(start, found, base, k)),
                found, base)
            want = dict(start) if start is not None else {base + i: found.groups[i].size for i in sources}
            changed = True
            while changed:
                changed = False
                for node, d in list(want.items()):
                    if d > k:
                        continue
                    for y in found.groups[node - base].border if node >= base else board.neighbours[node]:
                        i = found.group_of.get(y)
                        nxt, nd = (base + i, d + found.groups[i].size) if i is not None else (y, d + 1)
                        if i is None and not dom[y] & bit(k):
                            continue
                        if nd <= k and nd < want.get(nxt, k + 1):
                            want[nxt] = nd
                            changed = True
            assert got == want, (h, w, k, dom, start)
            checked += 1
    assert checked >= 200


def test_forced_cells_match_their_definition():
    """forced-cell's cells (``_forced``: rings from the group, then growing without each
    candidate) against the definition: removing each cell in turn, fewer than k cells stay
    connected to the group; on random regions around random groups and budgets k."""
    from fillsmt.fillomino.deduce.value_rules import _forced

    rng = random.Random(817)
    some = none = 0
    for _ in range(600):
        h, w = rng.randint(2, 7), rng.randint(2, 7)
        board = Board.of(h, w)
        root = rng.randrange(h * w)
        inside = {root} | {x for x in range(h * w) if rng.random() < rng.uniform(0.4, 1.0)}
        group = {root} | {y for y in board.neighbours[root] if y in inside and rng.random() < 0.5}
        seen, stack = set(group), list(group)  # the reach: the cells connected to the group
        while stack:
            for y in board.neighbours[stack.pop()]:
                if y in inside and y not in seen:
                    seen.add(y)
                    stack.append(y)
        if len(seen) < 2:
            continue
        k = rng.randint(1, len(seen) - 1)
        brute = {e for e, lost in _cut_off_brute(board, seen, root).items()
                 if e not in group and len(seen) - 1 - lost < k}
        brute |= {e for e in seen - group if len(seen) - 1 < k}
        got = _forced(board, sum(1 << x for x in seen), sum(1 << x for x in group), k)
        assert {x for x in seen if got >> x & 1} == brute, (h, w, seen, group, k)
        some += bool(brute)
        none += not brute
    assert some > 50 and none > 50


def _greedy_count(state: State, k: int, seed: tuple[int, ...]) -> int:
    """The count of :func:`distinct_regions` pair by pair, the reference: the complete k-groups,
    the seed, then each incomplete group that may share a region with none
    counted so far, by :func:`~capacity._may_share` pair by pair."""
    from fillsmt.fillomino.deduce.capacity import _may_share

    found = state.groups(k)
    apart = list(seed)
    count = len(found.complete)
    for i in found.incomplete:
        if i not in seed and not any(_may_share(found.groups[i], found.groups[j], k, state.board.width)
                                     for j in apart):
            apart.append(i)
    return count + len(apart)


def many_groups(rng: random.Random) -> State:
    """A board of 6x6 to 9x10 with clues of a few values (3 to 30) scattered over it, some of
    them side by side: many groups of each value, some large enough to share no region; on half
    of them, single cells in the corners."""
    height, width = rng.randint(6, 9), rng.randint(6, 10)
    values = rng.sample([3, 4, 5, 6, 8, 10, 12, 16, 20, 30], 3)
    clues = [[0] * width for _ in range(height)]
    for _ in range(rng.randint(6, 18)):
        v = rng.choice(values)
        r, c = rng.randrange(height), rng.randrange(width)
        for _ in range(rng.choice([1, 1, 2, 3])):
            clues[r][c] = v
            r, c = min(height - 1, r + rng.randint(0, 1)), min(width - 1, c + rng.randint(0, 1))
    if rng.random() < 0.5:  # two single cells as far apart as the board allows: they may share a
        # region of k exactly when k >= height + width - 1 (share_rows' shortcut at its edge)
        clues[0][0] = clues[height - 1][width - 1] = height + width - 2
        clues[0][width - 1] = clues[height - 1][0] = height + width - 1
    return State(Board.of(height, width, keep=True), initial_masks(Puzzle(height, width, tuple(map(tuple, clues)))),
                 [*ALL_RULES, *SEARCH_RULES])


def test_the_share_rows_and_the_pairs_that_must_join_agree_with_the_pairwise_count():
    """``capacity``'s share rows (bit sets, and no distance test where any path fits) against
    ``_may_share`` pair by pair; the seeded count against the greedy count of the reference;
    ``must_join`` (which passes over pairs whose common far groups fit)
    against every sharing pair counted by that greedy count, at rooms around the counts."""
    from fillsmt.fillomino.deduce.capacity import _may_share, must_join, share_rows

    rng = random.Random("share-rows")
    pairs = joined = 0
    for _ in range(150):
        state = many_groups(rng)
        for k in sorted(state.fixed):
            try:
                found = state.groups(k)
            except Contradiction:
                continue  # a group of more than k cells
            rows, far = share_rows(state, found, k)
            open_ = found.incomplete
            shared = [(i, j) for a, i in enumerate(open_) for j in open_[a + 1:]
                      if _may_share(found.groups[i], found.groups[j], k, state.board.width)]
            assert [(i, j) for a, i in enumerate(open_) for j in open_[a + 1:] if rows[i] >> j & 1] == shared
            assert all(rows[i] >> j & 1 for i, j in shared) and not any(rows[i] for i in found.complete)
            assert far == tuple(sum(1 << j for j in open_ if j != i and not rows[i] >> j & 1) if i in open_ else 0
                                for i in range(len(found.groups)))
            counts = {(i, j): _greedy_count(state, k, (i, j)) for i, j in shared}
            for (i, j), count in counts.items():
                assert distinct_regions(state, k, (i, j)) == count
            for room in sorted({k * c + d for c in counts.values() for d in (-1, 0)} | {0, 10**6}):
                expected = [(i, j) for i, j in shared if k * counts[i, j] > room]
                assert must_join(state, k, found, room) == expected, (k, room)
                joined += len(expected)
            pairs += len(shared)
    assert pairs >= 300 and joined >= 300
