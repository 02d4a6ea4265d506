"""The search's tree, pinned: cheaper nodes must leave the same tree.

Work that only makes a node cheaper must leave every node, guess and answer as it was: the node
counts of the searches on random small puzzles and of the quick search on janko proofs are
pinned here (the random ones as main a90f1f6 found them). A change that alters the tree on
purpose (another rule, another guess) updates them knowingly. The answers
are checked elsewhere (``test_backtrack.py``, against the brute force and the published
solutions); here also the k-groups found on sets of cells against a cell-by-cell flood.
"""

from __future__ import annotations

import random

import pytest
from conftest import SHARED

from fillsmt.fillomino.deduce.board import Board, Contradiction, find_groups
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES
from fillsmt.fillomino.deduce.masks import bit
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.search import SearchOptions, solve_by_search

SEARCHES = {
    "thesis": SearchOptions(),
    "strong": SearchOptions(search_rules=SEARCH_RULES),
}

PINNED = {  # nodes of each search (limit 2) on the 30 puzzles of _puzzles(), in turn, on main a90f1f6
    "thesis": [1, 11, 13, 10, 5, 1, 1, 1, 12, 5, 8, 1, 15, 21, 10, 10, 4, 1, 1, 13, 1, 1, 1, 3, 1, 5, 1, 15, 1, 1],
    "strong": [8, 1, 13, 1, 10, 13, 5, 3, 3, 1, 9, 12, 10, 10, 1, 12, 1, 1, 9, 6, 1, 12, 18, 10, 3, 11, 9, 8, 15, 8],
}


def _puzzles(rng: random.Random, count: int = 30):
    """Random puzzles of 12-20 cells, about a third of the cells clued 1-5."""
    for _ in range(count):
        h, w = rng.choice([(3, 4), (4, 4), (4, 5)])
        yield Puzzle(h, w, tuple(tuple(rng.randint(1, 5) if rng.random() < 0.3 else 0 for _ in range(w))
                                 for _ in range(h)))


def test_the_searches_keep_their_trees_on_small_puzzles():
    """The same number of nodes as on main, for the thesis' search and the strong search (each
    its own stream of the same generator)."""
    rng = random.Random(13)
    for name, options in SEARCHES.items():
        counts = [solve_by_search(p, options, limit=2).nodes for p in _puzzles(rng)]
        assert counts == PINNED[name], name


QUICK = {  # janko-thesis100: the quick search's nodes, plain solve (limit 1) and proof (limit 2), on main
    # (the proofs' heuristics, QUICK_PROOF_SEARCH, each shortened some: git log has the counts before)
    "285": (11, 39), "231": (12, 27), "250": (6, 19), "246": (16, 19), "211": (15, 33), "008": (21, 13),
    "286": (16, 23), "268": (57, 107), "067": (39, 85),
}


@pytest.mark.parametrize("name", sorted(QUICK))
def test_the_quick_search_keeps_its_tree_on_janko(name, monkeypatch):
    """The quick search as ``pipeline.solve`` runs it on the presolved puzzle, its seconds lifted
    (so that only its node budgets stop it): the nodes on main, and the proof proves the plain
    solve's solution unique."""
    from fillsmt.fillomino.kind import KIND

    path = SHARED / "janko-thesis100" / "puzzles" / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    presolved = KIND.presolve(read_puzzle(str(path))).puzzle
    found = []
    for proof in (False, True):
        run = KIND.plan(presolved, proof).quick
        found.append(KIND.search(presolved, 2 if proof else 1, options=run.options, budget=1e6))
    plain, proof = found
    assert (plain.nodes, proof.nodes) == QUICK[name]
    assert proof.unique and proof.solutions == plain.solutions


def _groups_by_flood(board: Board, dom: list[int], k: int):
    """The k-groups cell by cell (the definition): in order of their first cells, each group's
    cells and border (the outside neighbours not fixed to k) sorted."""
    bk = bit(k)
    seen: set[int] = set()
    out = []
    for start in range(len(dom)):
        if dom[start] != bk or start in seen:
            continue
        cells, border, stack = {start}, set(), [start]
        while stack:
            for y in board.neighbours[stack.pop()]:
                if dom[y] != bk:
                    border.add(y)
                elif y not in cells:
                    cells.add(y)
                    stack.append(y)
        seen |= cells
        out.append((tuple(sorted(cells)), tuple(sorted(border))))
    return out


def test_groups_found_on_sets_of_cells_match_a_flood():
    """``find_groups`` (grown by spreads on sets of cells, kept with the board) against the
    definition on random boards: the groups in the same order with the same cells, borders,
    masks and index of each cell; the complete and incomplete ones; ``crowded`` (the cells
    touching a complete group or two incomplete ones); and an overflowing group refused."""
    rng = random.Random(1713)
    checked = refused = 0
    for _ in range(400):
        h, w = rng.randint(1, 7), rng.randint(1, 7)
        board = Board.of(h, w, keep=rng.random() < 0.5)
        k = rng.randint(1, 6)
        dom = [rng.choice([bit(k), bit(k), bit(k) | bit(1), bit(2), bit(k) | bit(3)]) for _ in range(h * w)]
        fixed = sum(1 << x for x, m in enumerate(dom) if m == bit(k))
        want = _groups_by_flood(board, dom, k)
        if any(len(cells) > k for cells, _ in want):
            with pytest.raises(Contradiction):
                find_groups(board, dom, k, fixed)
            refused += 1
            continue
        found = find_groups(board, dom, k, fixed)
        assert [(g.cells, g.border) for g in found.groups] == want
        assert found.masks == tuple(sum(1 << x for x in cells) for cells, _ in want)
        assert found.borders == tuple(sum(1 << y for y in border) for _, border in want)
        assert found.group_of == {x: i for i, (cells, _) in enumerate(want) for x in cells}
        assert found.complete == tuple(i for i, (cells, _) in enumerate(want) if len(cells) == k)
        assert found.incomplete == tuple(i for i, (cells, _) in enumerate(want) if len(cells) < k)
        touching = [sum(1 for i in found.incomplete if y in want[i][1]) for y in range(h * w)]
        crowded = {y for y in range(h * w) if touching[y] >= 2
                   or any(y in want[i][1] for i in found.complete)}
        assert found.crowded == sum(1 << y for y in crowded)
        again = find_groups(board, list(dom), k, fixed)
        assert (again is found) == (board.kept is not None)  # kept with a search's board
        checked += 1
    assert checked > 150 and refused > 30


def _fields(found):
    return ([(g.cells, g.edge, g.size, g.complete) for g in found.groups], found.group_of, found.masks,
            found.cells, found.borders, found.incomplete, found.complete, found.crowded)


def test_groups_grown_from_the_previous_ones_are_the_groups_found_afresh():
    """``find_groups`` given the groups of fewer fixed cells (``previous``: the groups no new
    cell touches are taken as they are) against the groups found afresh, as
    cells are fixed to k one to three at a time on random boards: every field the same, the same
    overflow refused; the untouched groups are taken over (the same objects) on most steps."""
    rng = random.Random(1716)
    steps = reused = refused = 0
    for _ in range(200):
        h, w = rng.randint(2, 9), rng.randint(2, 9)
        board = Board.of(h, w)  # keeps nothing: every call grows its groups
        k = rng.randint(2, 12)
        free = list(range(h * w))
        rng.shuffle(free)
        fixed: list[int] = []
        previous = None
        while free:
            for _ in range(rng.randint(1, 3)):
                if free:
                    fixed.append(free.pop())
            dom = [bit(k) if x in fixed else bit(k) | bit(1) for x in range(h * w)]
            cells = sum(1 << x for x in fixed)
            try:
                fresh = find_groups(board, dom, k, cells)
            except Contradiction as e:
                with pytest.raises(Contradiction) as again:
                    find_groups(board, dom, k, cells, previous)
                assert str(again.value) == str(e)
                refused += 1
                break
            found = find_groups(board, dom, k, cells, previous)
            assert _fields(found) == _fields(fresh)
            if previous is not None:
                reused += any(g is p for g in found.groups for p in previous.groups)
            steps += 1
            previous = found
    assert steps > 1000 and reused > steps // 2 and refused > 50, (steps, reused, refused)
