"""The uniqueness-proof designs measured in the tenth session (``benchmarks/proof10_designs.py``;
none was kept in fillsmt, README "issue 17, tenth session: proofs"): their answers, on which the
measured table rests, agree with the brute-force enumerator of test_backtrack on random tiny
puzzles: unique exactly when there is one solution, every grid a solution, a second grid distinct
from the first; and each settles every tiny puzzle that has a solution."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from test_race import _random_puzzle

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "proof10_designs.py"


def _benchmark(script: Path):
    """A benchmark script loaded as a module (skipped where the tree has no benchmarks/)."""
    if not script.exists():
        pytest.skip(f"{script} is not in this tree")
    spec = importlib.util.spec_from_file_location(script.stem, script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def designs():
    return _benchmark(SCRIPT).DESIGNS


@pytest.mark.parametrize("seed", range(30))
def test_every_proof_design_agrees_with_brute_force(seed, designs):
    puzzle, expected = _random_puzzle(random.Random(900 + seed), seed)
    for name, design in designs.items():
        result = design(puzzle)
        assert all(grid in expected for grid in result.solutions), name
        if not expected:
            assert not result.solutions and result.unique is not True, name
            continue
        assert result.unique is (len(expected) == 1), (name, result)
        if len(result.solutions) == 2:
            assert result.solutions[0] != result.solutions[1], name


NOGOODS = SCRIPT.parent / "proof11_nogoods.py"


@pytest.fixture(scope="module")
def nogoods():
    return _benchmark(NOGOODS)


@pytest.mark.parametrize("seed", range(30))
def test_every_nogood_variant_agrees_with_brute_force(seed, nogoods):
    """The eleventh session's oracle (``benchmarks/proof11_nogoods.py``): backjumping, nogoods,
    their unit propagation and the root's facts keep the search's answer (unique exactly when
    there is one solution), on which its node counts rest."""
    puzzle, expected = _random_puzzle(random.Random(1100 + seed), seed)
    for variant in nogoods.VARIANTS:
        found = nogoods.run(puzzle, variant)
        if not expected:
            assert found["unique"] is not True, variant
            continue
        assert found["unique"] is (len(expected) == 1), (variant, found)
