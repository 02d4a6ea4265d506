"""Make the generated example puzzles of this folder (see README.md); run from the repository root:

    python instances/blocknumber/make_instances.py

Each puzzle: ``random_solution(H, W, random.Random(SEED))``, every cell given, then the givens
removed one at a time in a random order (same seed), each removal kept only while Z3 (the ``z3``
binary, one run per step) proves the solution still unique: the puzzle plus the blocking clause
"some cell differs from the solution" must be unsat. The result is a minimal puzzle: removing
any one more given would allow a second solution.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from fillsmt.blocknumber import ENCODINGS, Puzzle, format_puzzle, random_solution
from fillsmt.drivers import get_driver
from fillsmt.smtlib import Command, Script
from fillsmt.smtlib.answer import Status

HERE = Path(__file__).resolve().parent
ENCODING = ENCODINGS["onehot"]
PUZZLES = [("random-5x5", 5, 5, 1), ("random-6x6", 6, 6, 2), ("random-8x8", 8, 8, 3),
           ("random-10x10", 10, 10, 4), ("random-15x15", 15, 15, 5)]


def differs_somewhere(puzzle: Puzzle, grid) -> Command:
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    return Command("assert", (("or", *(("not", ENCODING.cell_is(puzzle, r, c, grid[r][c])) for r, c in cells)),))


def is_unique(puzzle: Puzzle, grid, solver) -> bool:
    commands = list(ENCODING.encode(puzzle).commands)
    at = next(i for i, cmd in enumerate(commands) if cmd.name == "check-sat")
    commands[at:] = [differs_somewhere(puzzle, grid), Command("check-sat")]
    result = solver.run(Script.of(commands).text(), 600)
    if result.status not in (Status.SAT, Status.UNSAT):
        raise SystemExit(f"{solver.name}: {result.status.value}: {result.message}")
    return result.status is Status.UNSAT


def minimal_puzzle(name: str, height: int, width: int, seed: int, solver) -> Puzzle:
    rng = random.Random(seed)
    blocks, grid = random_solution(height, width, rng)
    givens = [list(row) for row in grid]
    order = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(order)
    for r, c in order:
        kept, givens[r][c] = givens[r][c], 0
        candidate = Puzzle(height, width, tuple(map(tuple, givens)), blocks, name)
        if not is_unique(candidate, grid, solver):
            givens[r][c] = kept
    return Puzzle(height, width, tuple(map(tuple, givens)), blocks, name)


def main() -> int:
    solver = get_driver("z3")
    solver.require()
    for name, height, width, seed in PUZZLES:
        puzzle = minimal_puzzle(name, height, width, seed, solver)
        (HERE / f"{name}.txt").write_text(format_puzzle(puzzle))
        givens = height * width - puzzle.empty_cells
        print(f"{name}.txt: {height}x{width}, seed {seed}, {givens} givens", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
