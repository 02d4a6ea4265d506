"""Script size per constraint family of the tree encodings, after the presolve.

    python benchmarks/encoding_families.py PUZZLE... [--counts]

One line per family (a ``TreeEncoder`` constraint method): commands, kilobytes, share of the tree-bfs script;
with --counts also the root counts of ``tree-bfs-count``.
"""

from __future__ import annotations

import sys

from fillsmt.fillomino.encode_tree import TreeEncoder, TreeOptions
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle


def main(paths: list[str], counts: bool) -> None:
    for path in paths:
        found = KIND.presolve(read_puzzle(path))
        tree = TreeEncoder(found.puzzle, found.hints, TreeOptions(bfs=True, root_counts=counts))
        parts = [part for part in tree.constraints() if part.__name__ not in ("root_counts", "query")]
        rows = [(part.__name__, *_size(part)) for part in parts]
        extra = [("root_counts", *_size(tree.root_counts))] if counts else []
        total = sum(chars for _, _, chars in rows)
        open_cells = sum(1 for x in tree.cells if not tree.fixed(x))
        print(f"{path}: {len(tree.cells)} cells, {open_cells} open, tree-bfs {total / 1e6:.2f} MB")
        for name, n, chars in rows + extra:
            print(f"  {name:26s} {n:8d} commands {chars / 1e3:9.0f} KB {100 * chars / total:5.1f} %")


def _size(part) -> tuple[int, int]:
    n = chars = 0
    for command in part():
        n += 1
        chars += len(command.text())
    return n, chars


if __name__ == "__main__":
    args = sys.argv[1:]
    main([a for a in args if a != "--counts"], "--counts" in args)
