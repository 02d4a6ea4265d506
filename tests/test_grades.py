"""The grades of `fillsmt rate` through the command line: ordered by the number behind them, and
what `fillsmt generate --difficulty` makes is what `rate` then says (seeded, so deterministic)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT
from fillsmt.cli import main
from fillsmt.fillomino.rating import LABELS

GENERATED = ROOT / "instances" / "fillomino" / "generated"
NEARLY_FULL = "2 3\n1 0 3\n2 2 0\n"  # the basic strategies fill it alone


def rate_json(*args, input=None) -> list[dict]:
    out = CliRunner().invoke(main, ["rate", "--format", "json", *map(str, args)], input=input)
    assert out.exit_code == 0, out.output
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_the_grades_are_ordered_by_their_nodes():
    """Five puzzles, one of each grade: sorted by the search's nodes (then the basic strategies'
    nodes), their grades come in the scale's order, each inside its bounds."""
    rated = rate_json("--max-nodes", "101", "-", INSTANCES / "random-7x7.txt", INSTANCES / "g12-5x5.txt",
                      GENERATED / "10x10-hard-1.txt", GENERATED / "15x15-1.txt", input=NEARLY_FULL)
    by_number = sorted(rated, key=lambda r: (r["nodes"], r["basic_nodes"] or 0))
    assert [r["label"] for r in by_number] == list(LABELS)
    easy, medium, hard, fiendish, extreme = by_number
    assert easy["nodes"] == medium["nodes"] == 1 and easy["basic_nodes"] <= 10 < medium["basic_nodes"]
    assert 2 <= hard["nodes"] <= 10 < fiendish["nodes"] <= 100 < extreme["nodes"]
    assert extreme["status"] == "stopped"  # at --max-nodes 101: the top grade is already certain
    assert all(r["basic_nodes"] is None for r in (hard, fiendish, extreme))


def test_the_text_shows_the_number_and_the_scale():
    out = CliRunner().invoke(main, ["rate", str(GENERATED / "10x10-hard-1.txt")])
    grade = out.stdout.splitlines()[-1]
    assert grade.startswith("  grade: fiendish, 15 nodes (the scale, in nodes to the first solution: easy 1 and ")
    assert grade.endswith("hard 2-10, fiendish 11-100, extreme over 100)")
    stopped = CliRunner().invoke(main, ["rate", "--max-nodes", "150", str(GENERATED / "15x15-1.txt")])
    assert stopped.exit_code == 0 and "  grade: extreme, at least 150 nodes (" in stopped.stdout
    undecided = CliRunner().invoke(main, ["rate", "--max-nodes", "50", str(GENERATED / "15x15-1.txt")])
    assert undecided.exit_code == 3 and "grade:" not in undecided.stdout


@pytest.mark.parametrize("size, seed", [("8x8", "1")])
def test_each_difficulty_is_what_rate_says_and_a_puzzle_of_its_own(yices, size, seed):
    made = {}
    for label in LABELS[:-1]:
        out = CliRunner().invoke(main, ["generate", "--size", size, "--seed", seed, "--difficulty", label])
        assert out.exit_code == 0 and f", {label}, " in out.stderr, out.output
        (rated,) = rate_json("-", input=out.stdout)
        assert rated["label"] == label
        made[label] = out.stdout
    assert len(set(made.values())) == len(made)


def test_an_extreme_difficulty_is_what_rate_says(yices):
    out = CliRunner().invoke(main, ["generate", "--size", "10x10", "--seed", "1", "--difficulty", "extreme"])
    assert out.exit_code == 0 and ", extreme, " in out.stderr, out.output
    (rated,) = rate_json("-", input=out.stdout)
    assert rated["label"] == "extreme" and rated["nodes"] > 100
