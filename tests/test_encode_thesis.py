"""The thesis encoder: exact golden text, and agreement with appendix B's own emission (with the
documented departures: cells named by row and column, the logic QF_LIA, the empty sum 0)."""

from __future__ import annotations

import re

import pytest

from conftest import GOLDEN, INSTANCES
from fillsmt.fillomino.encode_thesis import encode_thesis
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle

GOLDEN_CASES = sorted(p.stem for p in GOLDEN.glob("thesis-*.txt"))


def test_there_are_golden_cases():
    assert len(GOLDEN_CASES) >= 4


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden_text(name):
    puzzle = read_puzzle(str(GOLDEN / f"{name}.txt"))
    expected = (GOLDEN / f"{name}.smt2").read_text()
    assert encode_thesis(puzzle).text() == expected


def appendix_b(rows: int, cols: int, nums: list[tuple[int, int, int]]) -> str:
    """A line-by-line Python transcription of the thesis' appendix B emitter, as the oracle."""
    def adj(r, c):
        out = []
        if r - 1 >= 0: out.append((r - 1, c))
        if r + 1 < rows: out.append((r + 1, c))
        if c - 1 >= 0: out.append((r, c - 1))
        if c + 1 < cols: out.append((r, c + 1))
        return out

    cells = [(r, c) for r in range(rows) for c in range(cols)]
    o = ["(set-option :print-success false)\n", "(set-logic QF_UFLIA)\n"]
    for r1, c1 in cells:
        x = r1 * cols + c1
        for r2, c2 in adj(r1, c1):
            y = r2 * cols + c2
            o.append(f"(declare-fun e_{x}_{y} () Int)\n(assert (or (= e_{x}_{y} 0) (= e_{x}_{y} 1)))\n")
    for r1, c1 in cells:
        x = r1 * cols + c1
        for r2, c2 in adj(r1, c1):
            y = r2 * cols + c2
            o.append(f"(assert (<= (+ e_{x}_{y} e_{y}_{x}) 1))\n")
    for r1, c1 in cells:
        x = r1 * cols + c1
        o.append("(assert (<= (+\n" + "".join(f"e_{r2 * cols + c2}_{x}\n" for r2, c2 in adj(r1, c1)) + ") 1))\n")
    o += [f"(declare-fun n_{r * cols + c} () Int)\n" for r, c in cells]
    o += [f"(assert (= n_{i * cols + j} {k}))\n" for i, j, k in nums]
    o += [f"(declare-fun s_{r * cols + c} () Int)\n" for r, c in cells]
    for r1, c1 in cells:
        x = r1 * cols + c1
        o.append(f"(assert (= s_{x} (+ 1\n" + "".join(
            f"(ite (= e_{x}_{r2 * cols + c2} 1) s_{r2 * cols + c2} 0)\n" for r2, c2 in adj(r1, c1)) + ")))\n")
    for r1, c1 in cells:
        x = r1 * cols + c1
        o.append("(assert (=> (= (+\n" + "".join(f"e_{r2 * cols + c2}_{x}\n" for r2, c2 in adj(r1, c1))
                 + f") 0) (= s_{x} n_{x})))\n")
    for r1, c1 in cells:
        x = r1 * cols + c1
        for r2, c2 in adj(r1, c1):
            y = r2 * cols + c2
            o.append(f"(assert (=> (= e_{x}_{y} 1) (= n_{x} n_{y})))\n")
    o += [f"(declare-fun r_{r * cols + c} () Int)\n" for r, c in cells]
    for r1, c1 in cells:
        x = r1 * cols + c1
        o.append("(assert (=> (= (+\n" + "".join(f"e_{r2 * cols + c2}_{x}\n" for r2, c2 in adj(r1, c1))
                 + f") 0) (= r_{x} {x})))\n")
    for r1, c1 in cells:
        x = r1 * cols + c1
        for r2, c2 in adj(r1, c1):
            y = r2 * cols + c2
            o.append(f"(assert (=> (= n_{x} n_{y}) (= r_{x} r_{y})))\n")
    o.append("(check-sat)\n")
    o += [f"(get-value (n_{r * cols + c}))\n" for r, c in cells]
    return "".join(o)


def tokens(text: str) -> list[str]:
    return re.findall(r"[()]|[^\s()]+", text)


def renamed(text: str, cols: int) -> str:
    """Appendix B's text with cell ``x``'s variables named by its row and column (``n_R_C``,
    ``e_R_C_R2_C2``) and the logic QF_LIA: the encoder's two departures besides the empty sum."""
    def cell(x: str) -> str:
        return "_".join(map(str, divmod(int(x), cols)))

    text = re.sub(r"\be_(\d+)_(\d+)\b", lambda m: f"e_{cell(m[1])}_{cell(m[2])}", text)
    text = re.sub(r"\b([nsr])_(\d+)\b", lambda m: f"{m[1]}_{cell(m[2])}", text)
    return text.replace("(set-logic QF_UFLIA)", "(set-logic QF_LIA)")


@pytest.mark.parametrize("text", [
    "2 2\n1 0\n0 0",
    "1 3\n0 2 0",
    "3 2\n0 0\n0 3\n0 0",
    "5 5\n1 0 0 0 1\n0 0 0 1 0\n2 4 0 0 0\n1 0 2 1 0\n3 0 1 0 2",
    "4 6\n0 0 0 0 0 12\n0 0 0 0 0 0\n3 0 0 0 0 0\n0 0 0 0 0 1",
])
def test_same_commands_as_appendix_b(text):
    """Token for token the thesis' emitter's output: only line breaks may differ."""
    p = parse_puzzle(text)
    assert tokens(encode_thesis(p).text()) == tokens(renamed(appendix_b(p.height, p.width, list(p.clues())), p.width))


def test_one_by_one_writes_the_empty_sum_as_zero():
    """A documented departure: appendix B would print `(+)`, which solvers reject."""
    text = encode_thesis(parse_puzzle("1 1\n1")).text()
    assert "(+)" not in text
    assert "(assert (<= 0 1))" in text
    assert tokens(text.replace(" 0 1))", " (+ ) 1))").replace("(= 0 0)", "(= (+ ) 0)")) == \
        tokens(renamed(appendix_b(1, 1, [(0, 0, 1)]), 1))


def test_counts_follow_the_grid():
    p = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    script = encode_thesis(p)
    directed_edges = 2 * (5 * 4 + 4 * 5)
    assert script.count("declare-fun") == directed_edges + 3 * 25
    assert script.count("get-value") == 25
    clues = len(list(p.clues()))
    # 8.2, 8.3, 8.8, 8.10 per edge; 8.4, 8.6, 8.7, 8.9 per cell; 8.5 per clue.
    assert script.count("assert") == 4 * directed_edges + 4 * 25 + clues
    assert script.commands[-26].name == "check-sat"
