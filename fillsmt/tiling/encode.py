"""Tiling → SMT-LIB (pure: no files, no processes, no clocks).

One Boolean per placement (:func:`~fillsmt.tiling.names.placement_var`); one Boolean per
coverable cell, true exactly when a chosen placement covers it, with at most one chosen
placement per cell; a piece's copy limit as a sum; and

    covered = Σ over coverable cells (ite c_R_C 1 0)

Cells no placement can cover get no variable. "At most one placement on a cell" is written one
of three ways (``amo``), all accepted by z3 and yices:

* ``ladder`` — a sequential ladder ``s_i = s_(i-1) ∨ p_i``, ``¬(s_(i-1) ∧ p_i)``,
  whose last rung is the cell's coverage: clauses only, linear in size;
* ``pairwise`` — ``(not (and p q))`` for every two placements on the cell;
* ``sum`` — ``(<= (+ (ite p 1 0) …) 1)``;
* ``auto`` (default) — pairwise while the pairs stay few (:data:`PAIRWISE_LIMIT`), else ladder;
* ``bv`` — ``auto``'s at-most-one, with the counts (covered cells, copy limits) as bit-vector
  sums in ``QF_BV``, for solvers without integers (Bitwuzla).

:func:`bound_term` says ``covered >= k``; when k is every coverable cell it is the conjunction of
the cell variables (pure clauses, which propagate far better than the sum).
"""

from __future__ import annotations

from fillsmt.errors import InputError
from fillsmt.smtlib.script import Command, Script, Term, assertion, declare
from fillsmt.tiling.model import TilingProblem, cover_lists, placements, upper_bound
from fillsmt.tiling.names import cell_var, ladder_var, placement_var

AMO_ENCODINGS = ("auto", "ladder", "pairwise", "sum", "bv")

PAIRWISE_LIMIT = 2_000_000
"""``auto`` writes ``pairwise`` up to this many pair clauses in all, ``ladder`` beyond: pairwise
needs no auxiliary variables where it fits; the 61x61 instance would need 3.7 million pairs."""


def choose_amo(problem: TilingProblem, amo: str = "auto") -> str:
    """The at-most-one encoding ``amo`` stands for on ``problem``; an unknown name is an
    InputError (it comes from ``--encoding``)."""
    if amo not in AMO_ENCODINGS:
        raise InputError(f"unknown tiling encoding {amo!r}; choose one of {', '.join(AMO_ENCODINGS)}")
    if amo not in ("auto", "bv"):
        return amo
    if amo == "bv":
        return "bv"
    pairs = sum(len(xs) * (len(xs) - 1) // 2 for xs in cover_lists(problem).values())
    return "pairwise" if pairs <= PAIRWISE_LIMIT else "ladder"


def _bv(value: int, width: int) -> Term:
    return ("_", f"bv{value}", width)


def _count_width(problem: TilingProblem) -> int:
    """Bits for any count of the problem's cells or placements (no bit-vector sum overflows)."""
    return max(len(cover_lists(problem)), len(placements(problem)), 1).bit_length() + 1


def _ite_sum(literals: list[str], width: int | None = None) -> Term:
    """The number of true ``literals``: an integer, or a ``width``-bit bit-vector."""
    one, zero = (1, 0) if width is None else (_bv(1, width), _bv(0, width))
    if not literals:
        return zero
    terms = [("ite", v, one, zero) for v in literals]
    return terms[0] if len(terms) == 1 else ("+" if width is None else "bvadd", *terms)


def _at_most(literals: list[str], k: int, width: int | None) -> Term:
    return ("<=", _ite_sum(literals), k) if width is None else ("bvule", _ite_sum(literals, width), _bv(k, width))


def _cell_constraints(cell: tuple[int, int], xs: list[str], amo: str) -> list[Command]:
    r, c = cell
    cv = cell_var(r, c)
    out = [declare(cv, "Bool")]
    if len(xs) == 1:
        out.append(assertion(("=", cv, xs[0])))
        return out
    if amo == "ladder":
        prev = xs[0]
        for i, x in enumerate(xs[1:], start=1):
            rung = cv if i == len(xs) - 1 else ladder_var(r, c, i)
            if rung != cv:
                out.append(declare(rung, "Bool"))
            out.append(assertion(("=", rung, ("or", prev, x))))
            out.append(assertion(("not", ("and", prev, x))))
            prev = rung
        return out
    out.append(assertion(("=", cv, ("or", *xs))))
    if amo == "pairwise":
        out.extend(assertion(("not", ("and", a, b))) for i, a in enumerate(xs) for b in xs[i + 1 :])
    elif amo == "sum":
        out.append(assertion(("<=", _ite_sum(xs), 1)))
    else:
        raise ValueError(f"unknown at-most-one encoding {amo!r}; choose one of {', '.join(AMO_ENCODINGS)}")
    return out


def encode_body(problem: TilingProblem, amo: str = "auto", counts: bool = True) -> list[Command]:
    """Declarations and constraints, without any bound, check-sat or get-value. The logic is
    the smallest that fits: with a count (``counts``: a bound or an objective to come; a copy
    limit; the ``sum`` at-most-one) QF_LIA, or QF_BV under the ``bv`` encoding; without one the
    script is pure Boolean, QF_UF."""
    amo = choose_amo(problem, amo)
    width = _count_width(problem) if amo == "bv" else None
    cell_amo = choose_amo(problem, "auto") if amo == "bv" else amo
    places = placements(problem)
    names = [placement_var(p) for p in places]
    limits = []
    for k, piece in enumerate(problem.pieces):
        if piece.limit is None:
            continue
        mine = [names[i] for i, p in enumerate(places) if p.piece == k]
        if len(mine) > piece.limit:
            limits.append(assertion(_at_most(mine, piece.limit, width)))
    sums = counts or limits or cell_amo == "sum"
    logic = "QF_UF" if not sums else "QF_LIA" if width is None else "QF_BV"
    out = [Command("set-option", (":print-success", "false")), Command("set-logic", (logic,))]
    out.extend(declare(n, "Bool") for n in names)
    for cell, indices in cover_lists(problem).items():
        out.extend(_cell_constraints(cell, [names[i] for i in indices], cell_amo))
    out.extend(limits)
    return out


def covered_term(problem: TilingProblem) -> Term:
    """The number of covered cells."""
    return _ite_sum([cell_var(r, c) for r, c in cover_lists(problem)])


def bound_counts(problem: TilingProblem, k: int) -> bool:
    """Whether :func:`bound_term` writes ``covered >= k`` as a count (else as clauses)."""
    return 0 < k < len(cover_lists(problem))


def bound_term(problem: TilingProblem, k: int, amo: str = "auto") -> Term:
    """``covered >= k`` (in bit-vectors under the ``bv`` encoding)."""
    cells = [cell_var(r, c) for r, c in cover_lists(problem)]
    if k <= 0:
        return "true"
    if k > len(cells):
        return "false"
    if k == len(cells):
        return cells[0] if len(cells) == 1 else ("and", *cells)
    if amo == "bv":
        width = _count_width(problem)
        return ("bvuge", _ite_sum(cells, width), _bv(k, width))
    return (">=", _ite_sum(cells), k)


def placement_names(problem: TilingProblem) -> list[str]:
    return [placement_var(p) for p in placements(problem)]


def get_value_commands(problem: TilingProblem) -> list[Command]:
    """The get-value command for every placement variable (none when there are no placements)."""
    names = placement_names(problem)
    return [Command("get-value", (tuple(names),))] if names else []


def encode_bound(problem: TilingProblem, k: int, amo: str = "auto") -> Script:
    """A script for any SMT-LIB solver: is there a tiling covering at least ``k`` cells?"""
    body = encode_body(problem, amo, counts=bound_counts(problem, k))
    return Script.of(
        [*body, assertion(bound_term(problem, k, amo)), Command("check-sat"), *get_value_commands(problem)]
    )


def encode_maximize(problem: TilingProblem, amo: str = "auto") -> Script:
    """A z3 script: ``(maximize covered)``, then check-sat and the placements' values.

    It also asserts ``covered <= upper_bound(problem)`` (a proven bound): z3 then stops as soon
    as a tiling reaches it, instead of proving by search that one more cell is impossible."""
    if choose_amo(problem, amo) == "bv":
        raise InputError(
            "the bv tiling encoding has no maximize script (z3 only): use --method bounds, or encode --bound K"
        )
    covered = covered_term(problem)
    return Script.of(
        [
            *encode_body(problem, amo),
            assertion(("<=", covered, upper_bound(problem))),
            Command("maximize", (covered,)),
            Command("check-sat"),
            *get_value_commands(problem),
        ]
    )
