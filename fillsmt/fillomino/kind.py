"""Fillomino as a :class:`~fillsmt.protocol.Kind`: the package's pieces behind the one protocol."""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from fillsmt.fillomino import plain_format
from fillsmt.fillomino.encodings import (
    BY_AREA,
    DEFAULT_ENCODING,
    ENCODINGS,
    LAZY_ENCODINGS,
    PROPAGATED,
    SOLVING_BY_THEORY,
    Cuts,
)
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import PROPAGATOR_NAME, cell_of_number_var, index_of_number_var
from fillsmt.fillomino.render import render_pretty
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import grid_with
from fillsmt.protocol import (
    Clues,
    Encoding,
    Explains,
    Generates,
    JsonForm,
    Pictures,
    Presolved,
    Presolves,
    Rates,
    Searches,
    UrlForm,
)


def too_open(puzzle: Puzzle) -> bool:
    """True when the rules' domains would hold more (cell, value) pairs than
    :func:`~fillsmt.limits.max_presolve` allows: a large open area lets each of its cells hold
    any number up to the area's size, so the rules' work (and their domains' size, were they not
    shared) grows with cells x area. Such a grid is encoded with the sound bounds alone (the
    encoder's default domains: the same intervals), in time and memory linear in the grid; the
    rules find nothing in a clue-less area anyway."""
    from fillsmt.fillomino.deduce import initial_masks
    from fillsmt.limits import max_presolve

    return sum(m.bit_length() - 1 for m in initial_masks(puzzle)) > max_presolve()


class Fillomino(JsonForm, UrlForm, Pictures, Presolves, Searches, Rates, Explains, Generates, Clues):
    name = "fillomino"
    summary = "divide the grid into regions; a region of n cells holds the number n in every cell"
    encodings = (
        tuple(Encoding(name, encode) for name, encode in ENCODINGS.items())
        + tuple(Encoding(name, encode, cuts=cuts) for name, (encode, cuts) in LAZY_ENCODINGS.items())
        + tuple(Encoding(name, encode, cuts=cuts, how=how) for name, (encode, cuts, how) in BY_AREA.items())
        + tuple(Encoding(name, encode, propagator=p) for name, (encode, p) in PROPAGATED.items())
    )
    default_encoding = DEFAULT_ENCODING
    theory_encodings = SOLVING_BY_THEORY

    def parse(self, text: str, source: str) -> Puzzle:
        return plain_format.parse_puzzle(text, source)

    def format_puzzle(self, puzzle: Puzzle) -> str:
        return plain_format.format_puzzle(puzzle)

    def to_dict(self, puzzle: Puzzle) -> dict:
        return {
            "kind": "fillomino",
            "height": puzzle.height,
            "width": puzzle.width,
            "cells": [list(row) for row in puzzle.cells],
        }

    def from_dict(self, obj: dict, reader: Any) -> Puzzle:
        reader.keys(obj, ("kind", "height", "width", "cells"), what="a fillomino puzzle")
        height, width = reader.size(obj)
        cells = reader.grid(obj["cells"], "cells", height, width)
        return reader.reparse(plain_format.parse_puzzle, [f"{height} {width}", *reader.plain_rows(cells)])

    url_types = ("fillomino",)

    def to_url(self, puzzle: Puzzle) -> str:
        from fillsmt.fillomino.url import to_url

        return to_url(puzzle)

    def from_url(self, url, unknown: str) -> Puzzle:
        from fillsmt.fillomino.url import parse

        return parse(url, unknown)

    def parse_solution(self, text: str, source: str, puzzle: Puzzle):
        return plain_format.parse_grid(text, source)[2]

    def format_solution(self, puzzle: Puzzle, grid) -> str:
        return plain_format.format_grid(grid)

    def pretty(self, puzzle: Puzzle, grid) -> str:
        return render_pretty(grid)

    def pretty_marked(self, puzzle: Puzzle, grid, cells: list[tuple[int, int]]) -> str:
        return render_pretty(grid, marked=cells)

    def svg(self, puzzle: Puzzle, grid, title: str | None = None, style: Any = None) -> str:
        from fillsmt.fillomino.render import svg_picture

        return svg_picture(puzzle, grid, title=title, style=style)

    def check(self, puzzle: Puzzle, grid) -> list[str]:
        return check_solution(puzzle.cells, grid)

    def presolve(self, puzzle: Puzzle) -> Presolved | None:
        """The deduction rules: fixed cells become clues, and every cell's domain bounds it.
        None (no presolve) for a grid too open for them: see :func:`too_open`."""
        from fillsmt.fillomino.deduce import deduce

        if too_open(puzzle):
            return None
        deduction = deduce(puzzle, grid_last=True)
        if deduction.contradiction is not None:
            return Presolved(deduction.fixed_count, contradiction=deduction.contradiction)
        return Presolved(
            deduction.fixed_count,
            grid=deduction.grid(),
            puzzle=deduction.filled_puzzle(puzzle),
            hints=deduction.domains,
        )

    def quick_answer(self, puzzle: Puzzle):
        """A clue-less grid's answer: a valid tiling (:mod:`fillsmt.fillomino.clueless`)."""
        from fillsmt.fillomino.clueless import clueless_solution

        return clueless_solution(puzzle)

    propagators = {PROPAGATOR_NAME: "fillsmt.fillomino.propagator:make_propagator"}

    def plan(self, presolved: Puzzle, proof: bool):
        """The default plan (:func:`fillsmt.fillomino.strategy.plan`)."""
        from fillsmt.fillomino.strategy import plan

        return plan(presolved, proof)

    def search(
        self,
        puzzle: Puzzle,
        limit: int,
        deadline: float | None = None,
        progress=None,
        options=None,
        budget: float | None = None,
    ):
        """The deduction rules plus backtracking (:func:`~fillsmt.fillomino.search.solve_strong`)
        with the option set ``options`` names (a :class:`~fillsmt.fillomino.strategy.SearchUse`:
        ``"quick"``, ``"quick-proof"`` or ``"race"``, the named sets of
        :mod:`fillsmt.fillomino.search.options`; None: the race's, which ``--solver rules`` runs
        too); ``budget`` is in seconds of :data:`~fillsmt.fillomino.strategy.QUICK_CLOCK`."""
        from fillsmt.fillomino.search import QUICK_PROOF_SEARCH, QUICK_SEARCH, RACE_SEARCH, solve_strong
        from fillsmt.fillomino.strategy import QUICK_CLOCK

        use = "race" if options is None else options.name
        chosen = {"quick": QUICK_SEARCH, "quick-proof": QUICK_PROOF_SEARCH, "race": RACE_SEARCH}[use]
        first_nodes = options.first_nodes if use == "quick-proof" else None
        clock = {}
        if budget is not None:
            deadline = QUICK_CLOCK() + budget
            clock = {"clock": QUICK_CLOCK}
        return solve_strong(
            puzzle, chosen, limit=limit, deadline=deadline, first_nodes=first_nodes, progress=progress, **clock
        )

    def check_request(self, opts, asked: dict):
        from fillsmt.fillomino.setter import check_request

        return check_request(opts)

    def generate(self, opts, seed, driver):
        from fillsmt.fillomino.setter import make_fillomino

        return make_fillomino(opts, seed, driver)

    def generated_words(self, made) -> str:
        return f"{made.clues} clues, {made.label}"

    @property
    def difficulties(self) -> tuple[str, ...]:  # type: ignore[override]
        from fillsmt.fillomino.rating import LABELS

        return LABELS

    @property
    def region_styles(self) -> tuple[str, ...]:  # type: ignore[override]
        from fillsmt.fillomino.published import REGION_STYLES

        return REGION_STYLES

    def option_notes(self) -> dict[str, str]:
        from fillsmt.fillomino.published import BIG_TOP, TAIL_TOP, style_for
        from fillsmt.fillomino.setter import DEFAULT_MAX_EMPTY_AREA, SMALL_GRID

        larger = f"{DEFAULT_MAX_EMPTY_AREA} for larger grids"
        ranges = ", ".join(
            f"{lo}-{hi} (median {mid}) for {n}x{n}"
            for n in (10, 15, 20)
            for lo, mid, hi in [style_for(n, n).clue_target or (0, 0, 0)]
        )
        return {
            "clues": "Fillomino, without --difficulty or --solution: the range of janko.at's puzzles of "
            f"about the grid's size, {ranges}; none where fewer than ten are published near the size "
            "(without --symmetry, the range only ranks the attempts)",
            "max_region": f"Fillomino: {TAIL_TOP} and a quarter of the grid at most "
            f"({BIG_TOP} and half the grid with --regions big)",
            "max_empty_area": f"Fillomino: 0 up to {SMALL_GRID} cells (15x15), {larger}",
        }

    def problem(self, puzzle: Puzzle, script, encoding: str, solver: str):
        """Another solution is asked for as :mod:`fillsmt.fillomino.blocking` says
        (``Problem.block``). A lazy encoding's session reads the cell numbers packed
        (``Problem.value_bits``; over integers: a bit-vector script's are read one by one): its
        relaxations (:mod:`fillsmt.fillomino.lazy`) assert every cell's domain, so every number
        fits in :func:`~fillsmt.fillomino.lazy.number_bits` bits."""
        found = super().problem(puzzle, script, encoding, solver)
        found.block = _block(found, encoding)
        if self.encoding(encoding).lazy:
            from fillsmt.fillomino.lazy import number_bits, script_bounds
            from fillsmt.smtlib.header import logic

            if logic(script.commands) != "QF_BV":  # packed as an integer sum (bit-vectors: read one by one)
                found.value_bits = number_bits(puzzle.cells)
            # the cuts leave out atoms the script's pins make false (fillsmt.fillomino.lazy)
            pinned = frozenset(index_of_number_var(t, puzzle.width) for t in found.pinned)
            assert found.cuts is not None  # a lazy encoding's problem has its cuts
            cuts: Cuts = found.cuts  # cuts(grid, fixed=…, bounds=…), as encodings.Cuts says
            # the bounds are read once, at the first cut: bv-by-area's tree-bfs-bv script needs none
            bounds = cache(partial(script_bounds, script, puzzle.height, puzzle.width))
            found.cuts = partial(cuts, fixed=pinned, bounds=bounds)
        return found

    def decode(self, puzzle: Puzzle, values: dict, encoding: str, source: str):
        from fillsmt.fillomino.decode import decode_grid  # here: a solve the rules settle reads no answer

        return decode_grid(puzzle, values, source=source)

    def term_cell(self, puzzle: Puzzle, term: str) -> tuple[int, int]:
        return cell_of_number_var(term)

    clue_encoding = "tree-bfs"

    def clues(self, puzzle: Puzzle) -> list[tuple[int, int, int]]:
        return list(puzzle.clues())

    def with_clues(self, puzzle: Puzzle, clues: list[tuple[int, int, int]]) -> Puzzle:
        return Puzzle(puzzle.height, puzzle.width, grid_with(puzzle.height, puzzle.width, clues), puzzle.source)

    def cell_var(self, puzzle: Puzzle, row: int, col: int) -> str:
        from fillsmt.fillomino.names import number_var

        return number_var(row, col)

    def clue_free_script(self, puzzle: Puzzle):
        """Every cell 1 up to the number of cells (the largest region there can be)."""
        bare = self.with_clues(puzzle, [])
        every = frozenset(range(1, puzzle.height * puzzle.width + 1))
        return ENCODINGS[self.clue_encoding](bare, [every] * (puzzle.height * puzzle.width))

    def first_tries(self, puzzle: Puzzle) -> list:
        """The grid of one region, every cell H*W, when no clue forbids it: one clue of H*W
        anywhere makes it the only solution."""
        n = puzzle.height * puzzle.width
        if any(v != n for _, _, v in puzzle.clues()):
            return []
        return [tuple((n,) * puzzle.width for _ in range(puzzle.height))]

    def swap_context(self, puzzle: Puzzle, a, b) -> set[tuple[int, int]]:
        """The cells where ``a`` and ``b`` differ and their neighbours, every region of ``a``
        or of ``b`` that holds one of these, and the neighbours of all that. A solution that
        agrees with ``a`` there has, around the changed cells, exactly ``b``'s regions, each
        bordered as in ``b``, and elsewhere its own regions, none touching a changed cell: so
        every maximal region of equal numbers keeps its size with ``b``'s numbers put in."""
        from fillsmt.grid import neighbours

        height, width = puzzle.height, puzzle.width

        def around(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
            return cells | {n for r, c in cells for n in neighbours(height, width, r, c)}

        def region(grid, start: tuple[int, int]) -> set[tuple[int, int]]:
            number, seen, todo = grid[start[0]][start[1]], {start}, [start]
            while todo:
                r, c = todo.pop()
                for n in neighbours(height, width, r, c):
                    if n not in seen and grid[n[0]][n[1]] == number:
                        seen.add(n)
                        todo.append(n)
            return seen

        changed = {(r, c) for r in range(height) for c in range(width) if a[r][c] != b[r][c]}
        inner = set(changed)
        for cell in around(changed):
            inner |= region(a, cell) | region(b, cell)
        return around(inner)

    def uniqueness_oracle(self, driver, deadline: float | None):
        from fillsmt.fillomino.oracle import smt_oracle

        return smt_oracle(driver, deadline)

    def explain(self, puzzle: Puzzle, deadline, solver: str):
        from fillsmt.fillomino.explain import explain

        return explain(puzzle, deadline=deadline, solver=solver)

    def hint(self, puzzle: Puzzle, progress: Puzzle | None, deadline, solver: str):
        from fillsmt.fillomino.explain import hint

        return hint(puzzle, None if progress is None else progress.cells, deadline=deadline, solver=solver)

    @property
    def methods(self) -> tuple[str, ...]:  # type: ignore[override]
        from fillsmt.fillomino.rating import METHODS

        return METHODS

    @property
    def cell_orders(self) -> tuple[str, ...]:  # type: ignore[override]
        from fillsmt.fillomino.search.options import CELL_ORDERS

        return CELL_ORDERS

    def rate(self, puzzle: Puzzle, deadline=None, max_nodes=None, rules=None, cell_order=None, method=None):
        from fillsmt.fillomino.rating import rate_with_options

        return rate_with_options(puzzle, deadline, max_nodes, rules, cell_order, method)

    def rating_label(self, puzzle: Puzzle, deadline: float | None = None) -> str | None:
        """The label of ``fillsmt rate``, from a search capped at
        :data:`~fillsmt.fillomino.generate.RATING_NODES` nodes: one stopped there is already in
        the top grade, long before its first solution (janko 007: minutes to finish)."""
        from fillsmt.fillomino.generate import RATING_NODES
        from fillsmt.fillomino.rating import rate

        return rate(puzzle, deadline=deadline, max_nodes=RATING_NODES).label


def _block(problem, encoding: str):
    """``Problem.block`` for :data:`fillsmt.fillomino.blocking.BLOCKING` on ``encoding`` (None:
    the generic clause over every cell)."""
    from fillsmt.engine.solutions import WrongAnswer
    from fillsmt.fillomino import blocking
    from fillsmt.fillomino.encodings import CANONICAL_TREES

    if blocking.BLOCKING == "boundaries":
        return lambda found, read: blocking.boundary_clause(
            found.grid, [index_of_number_var(t, len(found.grid[0])) for t in problem.pinned]
        )
    if blocking.BLOCKING != "trees" or encoding not in CANONICAL_TREES:
        return None

    terms: list[str] = []  # the script's tree variables, found at the first solution blocked

    def block(found, read) -> str:
        if not terms:
            terms.extend(
                blocking.tree_terms((c.args[0], c.args[2]) for c in problem.script.commands if c.name == "declare-fun")
            )
        try:
            return blocking.tree_clause(read(terms))
        except ValueError as e:
            raise WrongAnswer(f"the solver's tree: {e}") from None

    return block


KIND = Fillomino()
