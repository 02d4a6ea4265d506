"""Cutting a large board into blocks: a quick tiling to start the search from (pure: no solver).

Tilings of disjoint rectangles put side by side are a tiling of the board, when the pieces have
no copy limits. So the board is cut into a grid of blocks of about :data:`BLOCK_SIDE` cells a
side; each distinct block (its size and its blocked cells) is solved once, on its own, and
copied into place. The result covers at least as much as the blocks' optima add up to: when that
reaches the board's upper bound (:func:`~fillsmt.tiling.model.upper_bound`) the tiling is optimal
with nothing left to prove; otherwise it is the first incumbent of the bound search, which then
only looks for better.

Kalvelagen's 61×61 board cuts into 36 blocks of only four sizes (10 or 11 by 10 or 11), each
fully tileable with the nine fixed pieces: four small solves instead of one large one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fillsmt.tiling.model import Placement, TilingProblem

BLOCK_SIDE = 10
"""The side blocks aim at: a 10×10 block with pentominoes is solved in well under a second."""

MIN_SIDE = 2 * BLOCK_SIDE
"""Boards with both sides shorter than this are not cut (one block would be the board)."""


@dataclass(frozen=True)
class Block:
    top: int
    left: int
    problem: TilingProblem
    """The block as a problem of its own: its size, its blocked cells shifted to its corner."""


def sides(n: int, target: int = BLOCK_SIDE) -> list[int]:
    """``n`` cut into parts of ``target`` or ``target + 1`` cells (the larger ones first); a side
    shorter than twice the target stays whole."""
    if n < 2 * target:
        return [n]
    k = n // target
    base, extra = divmod(n, k)
    return [base + 1] * extra + [base] * (k - extra)


def can_split(problem: TilingProblem) -> bool:
    """Worth cutting: a large board, and no piece with a copy limit (limits do not add up
    block by block)."""
    return max(problem.height, problem.width) >= MIN_SIDE and all(piece.limit is None for piece in problem.pieces)


def blocks(problem: TilingProblem, target: int = BLOCK_SIDE) -> list[Block]:
    """The blocks covering ``problem``'s board, row by row."""
    out = []
    top = 0
    for height in sides(problem.height, target):
        left = 0
        for width in sides(problem.width, target):
            blocked = frozenset(
                (r - top, c - left) for r, c in problem.blocked if top <= r < top + height and left <= c < left + width
            )
            sub = replace(
                problem,
                height=height,
                width=width,
                blocked=blocked,
                source=f"{problem.source} block {height}x{width} at {top} {left}",
            )
            out.append(Block(top, left, sub))
            left += width
        top += height
    return out


def key(problem: TilingProblem) -> tuple:
    """Blocks with equal keys have the same tilings."""
    return problem.height, problem.width, problem.blocked


def shifted(placement: Placement, top: int, left: int) -> Placement:
    """A block's placement moved to the block's place on the board (a block has the board's
    pieces and orientations, so only the position changes)."""
    cells = tuple((r + top, c + left) for r, c in placement.cells)
    return Placement(placement.piece, placement.orientation, placement.row + top, placement.col + left, cells)


__all__ = ["BLOCK_SIDE", "Block", "blocks", "can_split", "key", "shifted", "sides"]
