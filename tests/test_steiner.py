"""``capacity``'s Steiner count: the exact Steiner tree of
fillsmt.fillomino.deduce.steiner against a brute force over every set of cells, and the strong
search with the count on against the brute-force enumerator of test_backtrack (it fires, and an
over-estimating tree is caught); and the fast bounded search against the plain
recurrences kept here (:func:`plain_dreyfus_wagner`) at the cap and around it (a bound too high
is caught)."""

from __future__ import annotations

import functools
import random

import pytest
from conftest import SHARED
from test_backtrack import brute_force, count_matching

from fillsmt.fillomino.deduce import capacity as capacity_module
from fillsmt.fillomino.deduce import steiner
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.search import STRONG_SEARCH, SearchOptions, solve_by_search, solve_strong


def fewest_cells(board: Board, allow: int, groups: list[int]) -> int | None:
    """The fewest cells of a connected subset of ``allow`` holding every group, by trying every
    subset (None: none)."""
    cells = [x for x in range(board.height * board.width) if allow >> x & 1]
    need = 0
    for g in groups:
        need |= g
    best = None
    for pick in range(1 << len(cells)):
        chosen = 0
        for i, x in enumerate(cells):
            if pick >> i & 1:
                chosen |= 1 << x
        if chosen & need != need or (best is not None and chosen.bit_count() >= best):
            continue
        low = chosen & -chosen
        seen = low
        while True:
            grown = board.spread(seen) & chosen
            if grown == seen:
                break
            seen = grown
        if seen == chosen:
            best = chosen.bit_count()
    return best


def random_case(rng: random.Random, board: Board) -> tuple[int, list[int]]:
    """Cells allowed at random, and two to four groups in them (a cell or a domino each),
    pairwise apart and not touching."""
    n = board.height * board.width
    allow = sum(1 << x for x in range(n) if rng.random() < 0.8)
    groups: list[int] = []
    taken = 0
    for _ in range(rng.randint(2, 4)):
        for _ in range(20):
            x = rng.randrange(n)
            g = 1 << x
            if rng.random() < 0.4:
                y = rng.choice(board.neighbours[x])
                g |= 1 << y
            if g & allow == g and not board.spread(g) & taken:
                groups.append(g)
                taken |= g
                break
    return allow, groups


@pytest.mark.parametrize("shape", [(3, 4), (4, 4)])
def test_the_steiner_tree_is_the_fewest_cells_of_a_connected_set(shape):
    board = Board.of(*shape)
    rng = random.Random(f"steiner-{shape}")
    checked = cut = 0
    for _ in range(60):
        allow, groups = random_case(rng, board)
        if len(groups) < 2:
            continue
        best = fewest_cells(board, allow, groups)
        k = board.height * board.width
        found = steiner.lightest_region(board, allow, groups, k)
        assert found == (k + 1 if best is None else best), (allow, groups)
        if best is not None:
            assert steiner.lightest_region(board, allow, groups, best - 1) == best  # capped: k + 1
            assert steiner.fits(board, allow, groups, best) and not steiner.fits(board, allow, groups, best - 1)
            assert not steiner.joined(board, allow, groups, best - 1)  # never a set too small
            cut += 1
        checked += 1
    assert checked >= 40 and cut >= 20


def scattered(rng: random.Random, grids, height: int, width: int):
    """Clues from a valid grid (30 % of them, but its largest value), and three or four clues of
    that largest value put anywhere: same-value clues a region may or may not join."""
    grid = rng.choice(grids)
    k = max(v for row in grid for v in row)
    clues = [[v if rng.random() < 0.3 and v != k else 0 for v in row] for row in grid]
    for _ in range(rng.choice([3, 4])):
        x = rng.randrange(height * width)
        clues[x // width][x % width] = k
    return tuple(map(tuple, clues))


def _answers(grids, rounds: int, seed: str) -> tuple[int, int, int]:
    """Over random 3x5 puzzles (``scattered``): how many the strong search with the Steiner count
    answers unlike the brute force, on how many the count raised the number of regions, and
    how many of those have solutions."""
    rng = random.Random(seed)
    wrong = fired = solved = 0
    raised = [0]
    apart = capacity_module._steiner_apart

    def counting(state, k, groups):
        found = apart(state, k, groups)
        raised[0] += found
        return found

    capacity_module._steiner_apart = counting
    try:
        for _ in range(rounds):
            clues = scattered(rng, grids, 3, 5)
            before = raised[0]
            found = solve_by_search(Puzzle(3, 5, clues), SearchOptions(search_rules=SEARCH_RULES, steiner=True),
                                    limit=10**6)
            expected = count_matching(grids, clues)
            assert found.exhausted
            wrong += sorted(found.solutions) != expected
            fired += raised[0] > before
            solved += raised[0] > before and bool(expected)
    finally:
        capacity_module._steiner_apart = apart
    return wrong, fired, solved


@pytest.fixture(scope="module")
def grids_3x5():
    return brute_force(3, 5)


def test_the_search_with_the_steiner_count_finds_exactly_the_brute_force_solutions(grids_3x5):
    wrong, fired, solved = _answers(grids_3x5, 80, "steiner-search")
    assert wrong == 0
    assert fired >= 5 and solved >= 2  # the count did raise the regions, on solvable puzzles too


def test_the_brute_force_catches_a_tree_one_cell_too_heavy(grids_3x5, monkeypatch):
    """The agreement above can fail: a Steiner tree that counts one cell too many (and no
    heuristic set to say it fits) loses solutions the brute force has."""
    real = steiner.lightest_region
    monkeypatch.setattr(steiner, "lightest_region", lambda b, a, g, k: real(b, a, g, k) + 1)
    monkeypatch.setattr(steiner, "joined", lambda *args: False)
    wrong, _, _ = _answers(grids_3x5, 80, "steiner-search")
    assert wrong > 0


def test_the_count_is_off_without_steiner_and_in_plain_solves():
    """``solve_strong`` counts by Steiner trees in proofs and its second phase only: not in a
    plain solve its first phase settles."""
    from fillsmt.fillomino.deduce.state import State

    assert State.steiner is False
    seen = []
    real = capacity_module._steiner_apart

    def spy(state, k, groups):
        seen.append(state.steiner)
        return real(state, k, groups)

    capacity_module._steiner_apart = spy
    try:
        solve_strong(Puzzle(1, 5, ((3, 0, 0, 0, 3),)), limit=1)
        assert seen == []
    finally:
        capacity_module._steiner_apart = real


def test_janko_286_needs_two_36_regions_and_its_proof_is_short():
    """286's ten 36-clues fit in no region of 36 cells (its tree has 37) though every pair may
    share one: the count finds two 36-regions at the root, and the proof takes a tenth of its
    nodes (413 without the count)."""
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    from fillsmt.fillomino.kind import KIND

    puzzle = KIND.presolve(read_puzzle(str(folder / "puzzles" / "286.txt"))).puzzle
    off = solve_by_search(puzzle, STRONG_SEARCH, limit=2)  # its first phase, without the count
    on = solve_strong(puzzle, limit=2)
    assert on.exhausted and off.exhausted and on.solutions == off.solutions and len(on.solutions) == 1
    assert off.nodes == 413 and on.nodes < 50


def plain_dreyfus_wagner(board: Board, allow: int, groups: list[int], k: int) -> int:
    """The plain Dreyfus-Wagner recurrences, the reference for the bounded search: every subset,
    every node, no bound (the module text's recurrences alone)."""
    inf = k + 1
    t = len(groups)
    index: dict[int, int] = {}
    weight: list[int] = []
    for gm in groups:
        for x in range(board.height * board.width):
            if gm >> x & 1:
                index[x] = len(weight)
        weight.append(gm.bit_count())
    free = allow
    for gm in groups:
        free &= ~gm
    for x in range(board.height * board.width):
        if free >> x & 1:
            index[x] = len(weight)
            weight.append(1)
    n = len(weight)
    adj: list[set[int]] = [set() for _ in range(n)]
    for x, v in index.items():
        for y in board.neighbours[x]:
            u = index.get(y)
            if u is not None and u != v:
                adj[v].add(u)

    def relax(row: list[int]) -> None:
        changed = True
        while changed:  # Bellman-Ford: slow and plain
            changed = False
            for v in range(n):
                for u in adj[v]:
                    if row[v] + weight[u] < min(row[u], inf):
                        row[u] = row[v] + weight[u]
                        changed = True

    full = (1 << t) - 1
    best: dict[int, list[int]] = {}
    for s in range(1, full + 1):
        row = [inf] * n
        if s & (s - 1) == 0:
            row[s.bit_length() - 1] = weight[s.bit_length() - 1]
        else:
            for a in range(1, s):
                if a & s == a:
                    row = [min(r, x + y - w) for r, x, y, w in zip(row, best[a], best[s ^ a], weight)]
            row = [x if x <= k else inf for x in row]
        relax(row)
        best[s] = row
    return min(best[full])


def apart_groups(rng: random.Random, board: Board, allow: int, count: int) -> list[int]:
    """Up to ``count`` groups of one to three cells in ``allow``, pairwise apart and not
    touching (``lightest_region``'s condition)."""
    n = board.height * board.width
    groups: list[int] = []
    taken = 0
    for _ in range(count):
        for _ in range(30):
            x = rng.randrange(n)
            g = 1 << x
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                y = rng.choice([y for z in range(n) if g >> z & 1 for y in board.neighbours[z]])
                g |= 1 << y
            if g & allow == g and not board.spread(g) & taken:
                groups.append(g)
                taken |= g
                break
    return groups


def _random_board(rng: random.Random, least_height: int, densities: tuple[float, float]) -> tuple[Board, int]:
    """A board of ``least_height``-7 rows and 5-8 columns and its allowed cells, each allowed with a
    probability drawn from ``densities``."""
    board = Board.of(rng.randint(least_height, 7), rng.randint(5, 8))
    density = rng.uniform(*densities)
    return board, sum(1 << x for x in range(board.height * board.width) if rng.random() < density)


@functools.lru_cache(maxsize=None)
def bounded_cases(seed: str, rounds: int) -> list[tuple[Board, int, list[int], int]]:
    """Random boards (5x5 to 7x8, 70-95 % of the cells allowed) with two to nine groups (one
    round in ten: nine or ten), and their lightest set by the plain recurrences (cases with none
    skipped; made once per seed and rounds)."""
    rng = random.Random(seed)
    cases = []
    for i in range(rounds):
        board, allow = _random_board(rng, 5, (0.7, 0.95))
        n = board.height * board.width
        groups = apart_groups(rng, board, allow, rng.choice([9, 10] if i % 10 == 0 else [2, 3, 4, 5, 6, 7, 8]))
        best = plain_dreyfus_wagner(board, allow, groups, n)
        if len(groups) >= 2 and best <= n:
            cases.append((board, allow, groups, best))
    return cases


def test_the_bounded_search_is_exact_at_the_cap_and_around_it():
    """Against the plain recurrences, with k the optimum (it must be found), one below (k + 1
    must come back: the bound's boundary), one above and a random k (the value when <= k)."""
    checked = 0
    regimes = set()
    rng = random.Random("bounded-k")
    for board, allow, groups, best in bounded_cases("bounded", 150):
        for k in {best - 1, best, best + 1, best + rng.randint(2, 8), max(best - rng.randint(2, 8), 3)}:
            if k < max(g.bit_count() for g in groups):
                continue
            found = steiner.lightest_region(board, allow, groups, k)
            assert found == (best if best <= k else k + 1), (board.height, board.width, allow, groups, k, best)
            checked += 1
        regimes.add(min(len(groups), 9) if len(groups) >= 7 else min(len(groups), 3))
    assert checked >= 500 and regimes == {2, 3, 7, 8, 9}  # a shortest path, and every family


def _janko_286s_calls(monkeypatch) -> list:
    """The calls of ``steiner.lightest_region`` in janko 286's proof (the strong search, limit
    2): (board, allowed cells, groups, k) each; the test is skipped when the shared puzzles are
    absent."""
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    from fillsmt.fillomino.kind import KIND

    calls = []
    real = steiner.lightest_region

    def spy(board, allow, groups, k):
        calls.append((board, allow, list(groups), k))
        return real(board, allow, groups, k)

    monkeypatch.setattr(steiner, "lightest_region", spy)
    solve_strong(KIND.presolve(read_puzzle(str(folder / "puzzles" / "286.txt"))).puzzle, limit=2)
    monkeypatch.setattr(steiner, "lightest_region", real)
    return calls


def test_the_bounded_search_equals_the_plain_one_on_janko_286s_calls(monkeypatch):
    """The call that motivated it (steiner15): 286's proof asks once, at the root, about ten
    single cells (k = 36, answer 37); the bounded search answers as the plain recurrences, at
    that k and around it."""
    calls = _janko_286s_calls(monkeypatch)
    real = steiner.lightest_region
    assert [(len(g), k) for _, _, g, k in calls] == [(10, 36)]
    board, allow, groups, k = calls[0]
    assert plain_dreyfus_wagner(board, allow, groups, 40) == 37
    for k in (35, 36, 37, 38):
        assert real(board, allow, groups, k) == (37 if k >= 37 else k + 1)


def test_the_comparison_catches_a_bound_one_too_high(monkeypatch):
    """The agreement above can fail: a bound whose sets holding the root (the bound's alone:
    the rows never hold q) count one cell too many drops entries a lightest set needs, and some
    case at k = the optimum comes back k + 1."""
    real = steiner._bounded

    def inflated(exact, q, t, *rest):
        return real({s: [x + 1 for x in row] if s >> q & 1 else row for s, row in exact.items()},
                    q, t, *rest)

    monkeypatch.setattr(steiner, "_bounded", inflated)
    wrong = 0
    for board, allow, groups, best in bounded_cases("bounded", 150):
        if len(groups) >= 3:
            wrong += steiner.lightest_region(board, allow, groups, best) != best
    assert wrong > 0


@functools.lru_cache(maxsize=None)
def corridor_cases(seed: str, rounds: int) -> list[tuple[Board, int, list[int], int]]:
    """Sparser boards than :func:`bounded_cases` (45-75 % of the cells allowed: chains of cells
    between groups are common, so groups get merged), three to eight groups of one to three
    cells, and their lightest set by the plain recurrences (cases with none skipped)."""
    rng = random.Random(seed)
    cases = []
    for _ in range(rounds):
        board, allow = _random_board(rng, 4, (0.45, 0.75))
        n = board.height * board.width
        groups = apart_groups(rng, board, allow, rng.randint(3, 8))
        if len(groups) < 3:
            continue
        best = plain_dreyfus_wagner(board, allow, groups, n)
        if best <= n:
            cases.append((board, allow, groups, best))
    return cases


def _merged(board: Board, allow: int, groups: list[int]) -> int:
    """The groups left once :func:`steiner._merge_groups` has merged what it may."""
    t = len(groups)
    weight, adj = steiner._graph(board, allow, groups)
    steiner._drop_loose(weight, adj, t)
    weight, edges = steiner._contract(weight, adj, t)
    return steiner._merge_groups(weight, edges, t)[2]


def test_merging_groups_keeps_the_lightest_weight():
    """Groups merged along their lightest links against the plain
    recurrences, at the optimum, one below and one above; the merges do happen (on most of
    these sparse boards, down to one or two groups on many)."""
    checked = merged = down_to_two = 0
    for board, allow, groups, best in corridor_cases("corridors", 260) + bounded_cases("bounded", 150):
        if len(groups) < 3:
            continue
        left = _merged(board, allow, groups)
        merged += left < len(groups)
        down_to_two += left <= 2
        for k in (best - 1, best, best + 1):
            if k < max(g.bit_count() for g in groups):
                continue
            found = steiner.lightest_region(board, allow, groups, k)
            assert found == (best if best <= k else k + 1), (board.height, board.width, allow, groups, k, best)
            checked += 1
    assert merged >= 80 and down_to_two >= 20 and checked >= 550


def test_the_comparison_catches_a_careless_merge(monkeypatch):
    """The agreement above can fail: merging a group with another along any link to it, not
    only along its lightest link, loses lighter sets, and some case at the optimum comes back
    heavier."""
    def careless(links, group):
        return next((u for u in links if group[u]), None) if len(links) > 1 else next(iter(links))

    monkeypatch.setattr(steiner, "_merge_target", careless)
    wrong = 0
    for board, allow, groups, best in corridor_cases("corridors", 260):
        wrong += steiner.lightest_region(board, allow, groups, best) != best
    assert wrong > 0


def test_janko_286s_root_call_merges_two_of_its_ten_groups(monkeypatch):
    """286's ten 36-clues: two lie on a chain of three cells between two others, and are merged
    into them; the bounded search then joins eight groups."""
    board, allow, groups, _ = _janko_286s_calls(monkeypatch)[0]
    assert _merged(board, allow, groups) == 8
