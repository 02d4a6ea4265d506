"""Issue 17, tenth session (proofs): could the proof split into independent parts?

    .venv/bin/python benchmarks/proof10_parts.py PUZZLES...

Two sets of open cells are independent when no cell of one touches a cell of the other and no
incomplete group touches both (a region then lies in one of them with the groups it touches,
and two regions of the two sides never touch): the solutions would be the products of the
parts', and a proof the sum of the parts' trees, not their product. For every internal node of
the proof's tree (the strong search's first phase, limit 2), the sizes of these parts: the
nodes with two or more parts of at least 3 cells are what splitting could shorten.
"""

from __future__ import annotations

import sys

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.backtrack import SEARCH_RULES, solve_by_search
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.grid import neighbour_indices


def parts(h: int, w: int, dom: list[int]) -> list[int]:
    """The sizes of the independent parts of the open cells, largest first."""
    parent = {x: x for x, m in enumerate(dom) if m & (m - 1)}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(cells) -> None:
        cells = [find(y) for y in cells]
        for y in cells[1:]:
            parent[y] = cells[0]
    for x in list(parent):
        join([x] + [y for y in neighbour_indices(h, w, x) if y in parent])
    seen: set[int] = set()
    for start, m in enumerate(dom):
        if m & (m - 1) or start in seen:
            continue
        group, stack = [start], [start]
        seen.add(start)
        while stack:
            for y in neighbour_indices(h, w, stack.pop()):
                if dom[y] == m and y not in seen:
                    seen.add(y)
                    group.append(y)
                    stack.append(y)
        if len(group) < m.bit_length() - 1:  # incomplete: its region takes cells of every part it touches
            touched = {y for x in group for y in neighbour_indices(h, w, x) if y in parent}
            if touched:
                join(list(touched))
    sizes: dict[int, int] = {}
    for x in parent:
        sizes[find(x)] = sizes.get(find(x), 0) + 1
    return sorted(sizes.values(), reverse=True)


def main(paths: list[str]) -> None:
    expand = backtrack._Search.expand
    for path in paths:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        if puzzle is None:
            continue
        found: list[list[int]] = []

        def counting(self, node):
            children = expand(self, node)
            if children:
                found.append(parts(puzzle.height, puzzle.width, node.state.dom))
            return children
        backtrack._Search.expand = counting
        try:
            result = solve_by_search(puzzle, limit=2, search_rules=SEARCH_RULES, max_nodes=2000)
        finally:
            backtrack._Search.expand = expand
        split = sum(1 for s in found if len(s) > 1 and s[1] >= 3)
        print(path.rsplit("/", 1)[-1], f"nodes {result.nodes}, internal {len(found)}, "
              f"with two or more parts of 3+ cells: {split}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
