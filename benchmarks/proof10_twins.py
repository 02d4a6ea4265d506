"""Issue 17, tenth session (proofs): how much of a proof's tree repeats itself.

    .venv/bin/python benchmarks/proof10_twins.py PUZZLES...

The proof's tree (the strong search's first phase, limit 2, the quick proof's search) walked
depth first as the search walks it. A node whose two children's subtrees have the same shape
(the same guesses' outcomes, node for node) made a guess the rest of the search did not need:
both sides were refuted (or solved) the same way. Printed per puzzle: the nodes, the nodes in
the second of each such pair of twins (outermost twins only: what skipping the second twin would
save if one could prove it unneeded), and the outermost twins' guesses (row, column, value).
"""

from __future__ import annotations

import sys

from fillsmt.fillomino.backtrack import SEARCH_RULES, SearchResult, _Node, _Search
from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

sys.setrecursionlimit(10_000)


def main(paths: list[str]) -> None:
    for path in paths:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        if puzzle is None:
            continue
        active = list(ALL_RULES) + list(SEARCH_RULES)
        result = SearchResult(rules_used=dict.fromkeys(active, 0))
        search = _Search(puzzle, ALL_RULES, SEARCH_RULES, -1, None, None, "group-exit", None, result)
        root = State(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle), active)
        saved, guesses = [0], []

        def walk(node: _Node) -> tuple:
            """The subtree's shape; twins found on the way are counted."""
            children = search.expand(node)
            guess = [(x // puzzle.width + 1, x % puzzle.width + 1, m.bit_length() - 1)
                     for x, m in enumerate(children[0].state.dom) if m != node.state.dom[x]] if children else []
            shapes = [walk(child) for child in children]
            if len(shapes) == 2 and shapes[0] == shapes[1] and shapes[0]:
                guesses.append((_size(shapes[1]), guess))
                return ("twin", shapes[0])
            return tuple(shapes)

        def outer(shape) -> None:
            if shape and shape[0] == "twin":
                saved[0] += _size(shape[1])
                return
            for s in shape:
                outer(s)
        outer(walk(_Node(root, 0, False)))
        print(path.rsplit("/", 1)[-1], f"nodes {result.nodes}, in second twins {saved[0]}, twins (nodes, guess):",
              sorted(guesses, reverse=True)[:4], flush=True)


def _size(shape) -> int:
    if shape and shape[0] == "twin":
        return 1 + 2 * _size(shape[1])
    return 1 + sum(_size(s) for s in shape)


if __name__ == "__main__":
    main(sys.argv[1:])
