"""Tiling: the format, orientations, bounds, encoder, checker and rendering (no solver needed)."""

from __future__ import annotations

import pytest

from conftest import DATA, ROOT
from fillsmt.errors import FormatError
from fillsmt.tiling.encode import bound_term, encode_bound, encode_maximize
from fillsmt.tiling.plain_format import format_problem, looks_like_tiling, parse_problem, read_problem
from fillsmt.tiling.model import (Piece, TilingProblem, best_sum, normalise, orientations, placements,
                                  upper_bounds)
from fillsmt.tiling.optimize import verified
from fillsmt.tiling.render import render_plain, render_pretty
from fillsmt.tiling.verify import check_tiling
from fillsmt.smtlib.script import render_term

TILING = DATA / "tiling"
INSTANCES = ROOT / "instances" / "tiling"


def cells(*rows: str):
    return normalise((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


SHAPES = {
    "O": cells("##", "##"),
    "I": cells("####"),
    "T": cells("###", ".#."),
    "L": cells("#.", "#.", "##"),
    "S": cells(".##", "##."),
    "X": cells(".#.", "###", ".#."),
}


@pytest.mark.parametrize("name, rotations, reflections, count", [
    ("O", True, True, 1), ("I", True, False, 2), ("I", True, True, 2), ("T", True, False, 4),
    ("T", True, True, 4), ("L", True, True, 8), ("L", True, False, 4), ("L", False, True, 2),
    ("S", True, True, 4), ("S", True, False, 2), ("X", True, True, 1), ("L", False, False, 1),
])
def test_orientation_counts(name, rotations, reflections, count):
    shapes = orientations(SHAPES[name], rotations, reflections)
    assert len(shapes) == count
    assert shapes[0] == SHAPES[name]
    assert len(set(shapes)) == count


# -- format ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, message", [
    ("empty-piece", "empty-piece.txt:2: piece 'A' has no cells (draw it below its 'piece' line with '#')"),
    ("disconnected", "disconnected.txt:3: piece 'A' is not connected (its cells must touch side by side)"),
    ("too-large", "too-large.txt:3: piece 'I' (1x4) does not fit on the 2x3 board in any allowed orientation"),
    ("bad-number", "bad-number.txt:1: the board width must be a positive whole number, got 'x'"),
    ("unknown-keyword", "unknown-keyword.txt:2: unknown keyword 'colour'; expected one of board, rotations, "
                        "reflections, blocked, piece"),
    ("duplicate", "duplicate.txt:4: piece name 'A' is used twice (first on line 2)"),
    ("blocked-outside", "blocked-outside.txt:2: blocked cell 3 1 is outside the 3x3 board (rows 0..2, columns 0..2)"),
])
def test_malformed_files(name, message):
    path = TILING / f"{name}.txt"
    with pytest.raises(FormatError) as e:
        read_problem(str(path))
    assert str(e.value) == f"{path.parent}/{message}"


@pytest.mark.parametrize("text, message", [
    ("piece A\n#\n", "t: no 'board' line: expected 'board HEIGHT WIDTH' before the pieces"),
    ("board 2 2\n", "t: no pieces: expected at least one 'piece NAME' with a picture"),
    ("board 0 2\npiece A\n#\n", "t:1: the board height must be a positive whole number, got '0'"),
    ("board 2 2\nrotations maybe\n", "t:2: expected 'rotations yes' or 'rotations no', got 'rotations maybe'"),
    ("board 2 2\npiece A max -1\n#\n", "t:2: the copy limit of piece 'A' must be a non-negative whole number, got '-1'"),
    ("board 2 2\nblocked 1\n", "t:2: expected 'blocked ROW COL, ROW COL, …', got '1' where a row and a column should be"),
    ("board 2 2\n.#\n", "t:2: the board picture has 1 rows, 'board' says 2"),
    ("rotations no\n.#\n", "t:2: picture row '.#' outside a piece or board picture"),
    ("board 2 2\nboard 2 2\n", "t:2: 'board' is given twice (first on line 1)"),
])
def test_malformed_texts(text, message):
    with pytest.raises(FormatError) as e:
        parse_problem(text, "t")
    assert str(e.value) == message


def test_picture_board_limits_and_round_trip():
    p = read_problem(str(TILING / "pictured.txt"))
    assert (p.height, p.width) == (3, 3)
    assert p.blocked == {(0, 2), (2, 0)}
    assert p.rotations and p.reflections
    assert [(q.name, q.limit, len(q.cells)) for q in p.pieces] == [("L", 2, 3), ("D", None, 2)]
    again = parse_problem(format_problem(p), p.source)
    assert again == p


@pytest.mark.parametrize("name", ["kalvelagen-11x11", "kalvelagen-41x41", "kalvelagen-61x61", "tetris-7x7"])
def test_instances_read_and_round_trip(name):
    p = read_problem(str(INSTANCES / f"{name}.txt"))
    assert parse_problem(format_problem(p), p.source) == p
    assert looks_like_tiling((INSTANCES / f"{name}.txt").read_text())


def test_looks_like_tiling():
    assert looks_like_tiling("# c\n\nboard 2 2\n")
    assert looks_like_tiling("piece A\n#\n")
    assert not looks_like_tiling("5 5\n1 0 0 0 1\n")
    assert not looks_like_tiling("")
    assert not looks_like_tiling(None)  # type: ignore[arg-type]


# -- model: placements and bounds --------------------------------------------------------------
def problem(h, w, *shapes, blocked=(), rotations=False, reflections=False, limits=None):
    limits = limits or [None] * len(shapes)
    pieces = tuple(Piece(f"P{i}", normalise(s), lim) for i, (s, lim) in enumerate(zip(shapes, limits)))
    return TilingProblem(h, w, frozenset(blocked), pieces, rotations, reflections, "test")


def test_seed_placement_counts():
    # seed 004: "Number of indices in ok: 458" for the 11x11 board with the five tetrominoes
    assert len(placements(read_problem(str(INSTANCES / "kalvelagen-11x11.txt")))) == 458
    # 41x41 and shapes9: "Number of indices in ok: 13800"
    assert len(placements(read_problem(str(INSTANCES / "kalvelagen-41x41.txt")))) == 13800


def test_upper_bounds():
    assert best_sum(121, [(4, None)]) == 120
    assert best_sum(11, [(4, None), (5, None)]) == 10
    assert best_sum(100, [(4, 2), (5, 1)]) == 13
    b = upper_bounds(read_problem(str(INSTANCES / "kalvelagen-11x11.txt")))
    assert (b.free, b.coverable, b.sums, b.best) == (121, 121, 120, 120)
    # a square on a 3x3 board with the centre blocked fits nowhere
    assert upper_bounds(problem(3, 3, SHAPES["O"], blocked={(1, 1)})).best == 0
    # two 3x1 corridors separated by a blocked column: each holds at most one domino
    corridors = upper_bounds(problem(3, 3, cells("#", "#"), blocked={(0, 1), (1, 1), (2, 1)}))
    assert (corridors.free, corridors.sums, corridors.components) == (6, 6, 4)
    # a cell no placement reaches
    assert upper_bounds(problem(2, 3, cells("##", "##"))).coverable == 6
    lonely = upper_bounds(problem(3, 3, cells("##"), blocked={(0, 1), (1, 0)}))
    assert (lonely.free, lonely.coverable, lonely.best) == (7, 5, 4)


# -- encoder ------------------------------------------------------------------------------------
def test_encoding_shapes():
    p = problem(2, 2, cells("##"))
    text = encode_bound(p, 4).text()
    assert "(declare-fun x_0_0_0_0 () Bool)" in text
    assert "(assert (and c_0_0 c_0_1 c_1_0 c_1_1))" in text
    assert text.endswith("(check-sat)\n(get-value (x_0_0_0_0 x_0_0_1_0))\n")
    assert render_term(bound_term(p, 3)) == ("(>= (+ (ite c_0_0 1 0) (ite c_0_1 1 0) (ite c_1_0 1 0) "
                                              "(ite c_1_1 1 0)) 3)")
    assert render_term(bound_term(p, 5)) == "false"
    assert render_term(bound_term(p, 0)) == "true"
    m = encode_maximize(p).text()
    assert "(maximize (+ (ite c_0_0 1 0)" in m and "(assert (<= (+ (ite c_0_0 1 0)" in m
    for amo in ("pairwise", "sum"):
        assert "(check-sat)" in encode_bound(p, 2, amo).text()


# -- the checker --------------------------------------------------------------------------------
BOARD = dict(height=3, width=3, blocked={(2, 2)}, pieces={"L": [(0, 0), (1, 0), (1, 1)], "D": [(0, 0), (0, 1)]},
             limits={"L": 1, "D": None}, rotations=False, reflections=False)


def check(placed, covered=None, **changes):
    args = {**BOARD, **changes}
    return check_tiling(args["height"], args["width"], args["blocked"], args["pieces"], args["limits"],
                        args["rotations"], args["reflections"], placed, covered)


def test_checker_accepts_a_legal_tiling():
    assert check([("L", [(0, 0), (1, 0), (1, 1)]), ("D", [(0, 1), (0, 2)]), ("D", [(2, 0), (2, 1)])], 7) == []


@pytest.mark.parametrize("placed, covered, changes, expected", [
    ([("Q", [(0, 0)])], None, {}, "copy 1 (Q) is not one of the pieces (D, L)"),
    ([("L", [(0, 0), (0, 1), (1, 0)])], None, {}, "copy 1 (L) at [(0, 0), (0, 1), (1, 0)] is not an allowed image of piece L"),
    ([("D", [(0, 0), (1, 0)])], None, {}, "copy 1 (D) at [(0, 0), (1, 0)] is not an allowed image of piece D"),
    ([("L", [(0, 1), (0, 0), (1, 1)])], None, {"reflections": True}, "copy 1 (L) at [(0, 0), (0, 1), (1, 1)] is not an allowed image of piece L"),
    ([("D", [(0, 2), (0, 3)])], None, {}, "copy 1 (D) has cell 0 3 outside the 3x3 board"),
    ([("D", [(2, 1), (2, 2)])], None, {}, "copy 1 (D) covers blocked cell 2 2"),
    ([("D", [(0, 0), (0, 1)]), ("D", [(0, 1), (0, 2)])], None, {}, "copy 2 (D) overlaps copy 1 on cell 0 1"),
    ([("L", [(0, 0), (1, 0), (1, 1)]), ("L", [(0, 1), (1, 1), (1, 2)])], None, {"limits": {"L": 1, "D": None}},
     "piece L is used 2 times, its limit is 1"),
    ([("D", [(0, 0), (0, 1)])], 3, {}, "the tiling covers 2 cells, not 3 as claimed"),
])
def test_checker_catches(placed, covered, changes, expected):
    assert expected in check(placed, covered, **changes)


def test_checker_allows_turned_and_mirrored_copies_only_when_allowed():
    turned = [("D", [(0, 0), (1, 0)])]
    assert check(turned, rotations=True) == []
    mirrored = [("L", [(0, 1), (1, 0), (1, 1)])]
    assert check(mirrored, reflections=True) == []
    assert check(mirrored, rotations=True) == []  # an L-tromino's mirror is also a turn of it
    assert check([("L", [(0, 0), (0, 1), (1, 1)])], rotations=True) == []
    four = {"L": [(0, 0), (1, 0), (2, 0), (2, 1)], "D": [(0, 0), (0, 1)]}
    mirrored4 = [("L", [(0, 1), (1, 1), (2, 1), (2, 0)])]
    assert check(mirrored4, rotations=True, pieces=four) != []  # an L-tetromino's mirror is not
    assert check(mirrored4, reflections=True, pieces=four) == []


def test_verified_refuses_a_bad_tiling():
    from fillsmt.errors import SolverError
    from fillsmt.tiling.model import Placement
    p = problem(2, 2, cells("##"))
    with pytest.raises(SolverError, match="fails the checker"):
        verified(p, [Placement(0, 0, 0, 0, ((0, 0), (0, 1))), Placement(0, 0, 0, 1, ((0, 1), (0, 2)))])


# -- rendering ----------------------------------------------------------------------------------
def test_render():
    p = problem(2, 3, cells("##"), blocked={(1, 2)})
    places = placements(p)
    chosen = [q for q in places if q.cells in (((0, 0), (0, 1)), ((1, 0), (1, 1)))]
    assert render_plain(p, chosen) == "AA.\nBB#\n"
    assert render_pretty(p, chosen) == (
        "┌─────────┬────┐\n"
        "│ P0   P0 │ .  │\n"
        "├─────────┼────┤\n"
        "│ P0   P0 │ #  │\n"
        "└─────────┴────┘\n")
