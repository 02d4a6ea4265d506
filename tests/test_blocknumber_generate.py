"""Random BlockNumber solutions: valid, connected, deterministic, and fast enough at 15x15."""

from __future__ import annotations

import random
import time

import pytest

from fillsmt.blocknumber.generate import random_solution
from fillsmt.blocknumber.model import normalise_labels
from fillsmt.blocknumber.verify import check_solution


@pytest.mark.parametrize("height, width, max_block", [
    (1, 1, 5), (1, 2, 2), (1, 9, 2), (9, 1, 3), (2, 2, 4), (3, 3, 4), (2, 7, 5), (4, 4, 4),
    (5, 5, 5), (6, 6, 5), (7, 4, 6), (8, 8, 5), (10, 10, 8),
])
def test_solutions_are_valid(height, width, max_block):
    for seed in range(5):
        blocks, grid = random_solution(height, width, random.Random(seed), max_block)
        assert check_solution([[0] * width] * height, blocks, grid) == []
        assert blocks == normalise_labels(blocks)
        sizes = {}
        for row in blocks:
            for label in row:
                sizes[label] = sizes.get(label, 0) + 1
        assert max(sizes.values()) <= max_block


def test_deterministic_for_a_seed_and_varied_across_seeds():
    assert random_solution(6, 6, random.Random(7)) == random_solution(6, 6, random.Random(7))
    assert len({random_solution(6, 6, random.Random(s)) for s in range(10)}) == 10


def test_blocks_are_mostly_large_as_in_published_puzzles():
    blocks, _ = random_solution(10, 10, random.Random(1))
    sizes = {}
    for row in blocks:
        for label in row:
            sizes[label] = sizes.get(label, 0) + 1
    assert sum(s for s in sizes.values() if s >= 4) >= 60


def test_fifteen_by_fifteen_is_quick():
    start = time.perf_counter()
    for seed in range(3):
        blocks, grid = random_solution(15, 15, random.Random(seed))
        assert check_solution([[0] * 15] * 15, blocks, grid) == []
    assert time.perf_counter() - start < 20  # typically about 0.2 s each


@pytest.mark.parametrize("height, width, max_block, message", [
    (3, 3, 3, "a 3x3 grid needs blocks of up to 4 cells (each 2x2 square holds four different numbers); "
              "max_block is 3"),
    (1, 3, 1, "a 1x3 grid needs blocks of up to 2 cells; max_block is 1"),
    (0, 3, 5, "the grid must be at least 1x1, not 0x3"),
    (2, 2, 0, "max_block must be at least 1, not 0"),
])
def test_impossible_requests(height, width, max_block, message):
    with pytest.raises(ValueError) as info:
        random_solution(height, width, random.Random(0), max_block)
    assert str(info.value) == message
