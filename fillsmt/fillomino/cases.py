"""Case analyses a person can follow, for where the deduction rules stop (``fillsmt explain``).

Three techniques, tried in this order at a fixpoint of the rules, the first that finds anything
giving the next step (each branch of each is closed by the named rules alone):

- **case split** (``case-split``): suppose cell x holds v; the rules end in a contradiction; so x
  is not v. Every unfixed cell is tried, the fewest candidates first: every candidate of a cell
  with at most :data:`FEW_CANDIDATES`, the numbers some cell is fixed to in the others. Every
  refutation that fixes a cell becomes a step (the shortest first); without one, the shortest
  refutation does. The refutations not used are kept and tried first at the next stop
  (:class:`Cases`).
- **whichever** (``whichever``): every number x may hold is tried and none is refuted, but in
  every branch some other cell y loses the same candidates: whichever number x takes, y is w
  (or is not w). Each branch's chain is cut after its last step that narrows y.
- **nested split** (``nested-split``): suppose x holds v; the rules stop without a
  contradiction; then every candidate of some cell y, tried in turn, ends in a contradiction by
  the rules: so x is not v. Two levels deep at most.

The search tries hypotheses on forks of one state at the rules' fixpoint (the search's own way:
a fork's first round looks only at what changed), within a budget of hypotheses per
search (:data:`CASE_TRIALS`, :data:`NESTED_TRIALS`: the same explanation on a busy machine as
on a quiet one), :data:`SECONDS` and the caller's deadline; the step it returns is
traced afresh with the rules' reasons (:mod:`fillsmt.fillomino.trace`) and checked: a branch
the tracing does not close as the search did is not used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.masks import Mask, bit, is_single, values_of
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.trace import Case, Step, TracingState, fold_size_caps, name, numbers, steps_of

CASE_TRIALS = 2000
"""The most hypotheses one search for a case split or a whichever step tries."""

NESTED_TRIALS = 2000
"""The most hypotheses one search for a nested split tries."""

NO_LIMIT = 2**62
"""A search's ``left`` when no explanation shares it."""

TOTAL_CELL_TRIALS = 3_000_000
"""Cells times hypotheses one explanation tries in all its searches (30,000 on a 10x10, 4,166 on
a 20x36); past them every stop of the rules takes its cell from the solver. A hypothesis is one
fixpoint of the rules, whose work grows with the grid, so this bounds the case analyses' work
on any grid (without it hard-tail 620, a 20x36, took three minutes)."""

SECONDS = 10.0
"""The longest one search runs, whatever its trials (a bound for very large grids)."""

FEW_CANDIDATES = 4
"""A cell with at most this many candidates has each tried; one with more only the numbers some
cell is fixed to (a person does not suppose a 37 in an open area)."""

NESTED_CANDIDATES = 3
"""A nested split supposes numbers of cells with at most this many candidates, and refutes
every candidate of a cell with at most this many (a person nests on few)."""


@dataclass
class _Tried:
    """One hypothesis on a fork of the fixpoint: cell x holds one of ``allowed``; the state the
    rules leave, the contradiction they found (None: they stopped), and how many domains
    changed."""

    cell: int
    allowed: Mask
    state: State
    contradiction: str | None

    @property
    def cost(self) -> int:
        return len(self.state.changed_cells)


def _suppose(base: State, x: int, allowed: Mask) -> _Tried:
    child = base.fork()
    child.assume(x, allowed)
    return _Tried(x, allowed, child, fixpoint(child, ALL_RULES))


def _unfixed(masks: list[Mask], most: int | None = None) -> list[int]:
    """The unfixed cells, the fewest candidates first (at most ``most`` of them)."""
    out = sorted((m.bit_count(), x) for x, m in enumerate(masks) if not is_single(m))
    return [x for n, x in out if most is None or n <= most]


@dataclass
class Cases:
    """The case analyses of one explanation. ``pool`` keeps the hypotheses the last full scan
    refuted and no step has used yet, (cell, numbers): the domains only shrink, so they are
    tried again first (and traced afresh) before the next full scan."""

    board: Board
    pool: list[tuple[int, Mask]] = field(default_factory=list)
    left: list[int] = field(init=False)
    """The hypotheses this explanation may still try (:data:`TOTAL_CELL_TRIALS` over its cells),
    shared by its searches."""

    def __post_init__(self) -> None:
        self.left = [TOTAL_CELL_TRIALS // (self.board.height * self.board.width)]

    def next(self, masks: list[Mask], deadline: float | None) -> tuple[list[Step], list[Mask]] | None:
        """The next steps of case analysis from ``masks`` (a fixpoint of the rules, no
        contradiction) and the domains after them, or None when none is found in time."""
        board = self.board
        base = State(board, list(masks), ALL_RULES)
        if fixpoint(base, ALL_RULES) is not None:
            return None
        end = _Budget.of(CASE_TRIALS, deadline, self.left)
        refuted: list[_Tried] = self._from_pool(base, end)
        agreed: list[tuple[int, int, list[_Tried]]] = []
        if not refuted:
            refuted, agreed = _scan(base, end)
        found = _splits(board, masks, refuted)
        if found is not None:
            steps, now, unused = found
            self.pool = [(t.cell, t.allowed) for t in unused] + self.pool
            return steps, now
        found_which = _best_whichever(board, masks, agreed)
        if found_which is not None:
            return found_which
        nested = _nested(board, base, _Budget.of(NESTED_TRIALS, deadline, self.left))
        return None if nested is None else ([nested[0]], nested[1])

    def _from_pool(self, base: State, end: _Budget) -> list[_Tried]:
        """The pool's hypotheses still refuted, those that would fix a cell first; the first
        one that would not ends the look (the rest stay in the pool)."""
        masks = base.dom
        live = [(x, a) for x, a in self.pool if masks[x] & a and not is_single(masks[x])]
        live.sort(key=lambda h: _tier(masks, *h))
        refuted: list[_Tried] = []
        for i, (x, allowed) in enumerate(live):
            if end.spent():
                self.pool = live[i:]
                return refuted
            tried = _suppose(base, x, allowed)
            if tried.contradiction is None:
                continue
            refuted.append(tried)
            if _tier(masks, x, allowed):
                self.pool = live[i + 1 :]
                return refuted
        self.pool = []
        return refuted


def _tier(masks: list[Mask], x: int, allowed: Mask) -> int:
    """0: refuting ``allowed`` fixes x; 1: x has few candidates; 2: the others."""
    if is_single(masks[x] & ~allowed):
        return 0
    return 1 if masks[x].bit_count() <= FEW_CANDIDATES else 2


@dataclass
class _Budget:
    """What one search may still spend: hypotheses, of its own and of the explanation's
    (``left``, shared), and time up to ``end``."""

    trials: int
    end: float
    left: list[int] = field(default_factory=lambda: [NO_LIMIT])

    @classmethod
    def of(cls, trials: int, deadline: float | None, left: list[int]) -> _Budget:
        end = time.monotonic() + SECONDS
        return cls(trials, end if deadline is None else min(end, deadline), left)

    def spent(self) -> bool:
        """Whether the search must stop; else one hypothesis is charged."""
        if self.trials <= 0 or self.left[0] <= 0 or time.monotonic() >= self.end:
            return True
        self.trials -= 1
        self.left[0] -= 1
        return False


def _scan(base: State, end: _Budget) -> tuple[list[_Tried], list[tuple[int, int, list[_Tried]]]]:
    """The hypotheses refuted within the budget, and the cells whose every number was tried
    and agreed on narrowing another cell (with the branches' cost). The cells are taken the
    fewest candidates first, so the scan ends once no cell left can give a refutation of a
    better tier (:func:`_tier`) than one found."""
    masks = base.dom
    refuted: list[_Tried] = []
    agreed: list[tuple[int, int, list[_Tried]]] = []
    for x in _unfixed(masks):
        n = masks[x].bit_count()
        if refuted and (n > FEW_CANDIDATES or n > 2 and not min(_tier(masks, t.cell, t.allowed) for t in refuted)):
            break  # no cell left can give a better tier (``_splits`` takes the best tier only)
        tried_all = masks[x].bit_count() <= FEW_CANDIDATES or not masks[x] & ~base.anchored
        branches: list[_Tried] = []
        for v in values_of(masks[x] if tried_all else masks[x] & base.anchored):
            if end.spent():
                return refuted, agreed
            tried = _suppose(base, x, bit(v))
            (refuted if tried.contradiction is not None else branches).append(tried)
        if tried_all and len(branches) == masks[x].bit_count():  # every number tried, none refuted
            target = _agreement(masks, branches)
            if target is not None:
                agreed.append((sum(t.cost for t in branches), x, branches))
    return refuted, agreed


def _splits(
    board: Board, masks: list[Mask], refuted: list[_Tried]
) -> tuple[list[Step], list[Mask], list[_Tried]] | None:
    """The refutations that fix a cell, as steps (the shortest first); if there are none, the
    shortest on a cell with few candidates, else the shortest. Each is proven from ``masks``
    and concludes on the domains the steps before it left. Also the refutations not used."""
    if not refuted:
        return None
    top = min(_tier(masks, t.cell, t.allowed) for t in refuted)
    steps: list[Step] = []
    now = list(masks)
    unused: list[_Tried] = []
    for tried in sorted(refuted, key=lambda t: (_tier(masks, t.cell, t.allowed), t.cost)):
        if _tier(masks, tried.cell, tried.allowed) != top or (steps and top):
            unused.append(tried)  # one refutation that fixes nothing at a time: the rules go on from it
            continue
        if not now[tried.cell] & tried.allowed:
            continue  # the steps before removed these already
        made = split_step(board, masks, tried.cell, tried.allowed.bit_length() - 1, now)
        if made is not None:
            steps.append(made[0])
            now = made[1]
    return (steps, now, unused) if steps else None


def _agreement(masks: list[Mask], branches: list[_Tried]) -> int | None:
    """The cell every branch narrows alike (its union of branch domains smaller than its
    domain), one fixed by it first; None if there is none."""
    union = [0] * len(masks)
    for t in branches:
        for x, m in enumerate(t.state.dom):
            union[x] |= m
    narrowed = [x for x, m in enumerate(union) if m != masks[x] and x != branches[0].cell]
    if not narrowed:
        return None
    return min(narrowed, key=lambda x: (not is_single(union[x]), union[x].bit_count()))


def _best_whichever(board: Board, masks: list[Mask], agreed: list) -> tuple[list[Step], list[Mask]] | None:
    for _, x, branches in sorted(agreed, key=lambda a: a[0]):
        y = _agreement(masks, branches)
        assert y is not None
        made = whichever_step(board, masks, x, y)
        if made is not None:
            return [made[0]], made[1]
    return None


def _nested(board: Board, base: State, end: _Budget) -> tuple[Step, list[Mask]] | None:
    """The first nested split found (hypotheses on the cells with the fewest candidates first),
    as a step, or None."""
    masks = base.dom
    for x in _unfixed(masks, NESTED_CANDIDATES):
        for v in values_of(masks[x]):
            if end.spent():
                return None
            outer = _suppose(base, x, bit(v))
            if outer.contradiction is not None:
                continue  # a case split; the search before found none it could trace
            for y in _unfixed(outer.state.dom, NESTED_CANDIDATES):
                refuted = True
                for w in values_of(outer.state.dom[y]):
                    if end.spent():
                        return None
                    if _suppose(outer.state, y, bit(w)).contradiction is None:
                        refuted = False
                        break
                if refuted:
                    made = nested_step(board, masks, x, v, y)
                    if made is not None:
                        return made
    return None


# -- the steps, traced with the rules' reasons ---------------------------------------------------


def _traced(board: Board, masks: list[Mask], x: int, allowed: Mask) -> tuple[TracingState, str | None]:
    trial = list(masks)
    trial[x] &= allowed
    state = TracingState(board, trial, ALL_RULES)
    return state, fixpoint(state, ALL_RULES)


def _case(board: Board, x: int, v: int, state: TracingState, contradiction: str | None) -> Case:
    """A branch: x holds v, the rules' chain, how it ends."""
    return Case(divmod(x, board.width) + (v,), fold_size_caps(steps_of(state.changes, board)), contradiction)


def _conclusion(board: Board, masks: list[Mask], x: int, keep: Mask) -> tuple[list, list, str, list[Mask]]:
    """Cell x narrowed to ``keep``: the cells fixed, the candidates removed, the words, the new
    domains."""
    r, c = divmod(x, board.width)
    new = list(masks)
    new[x] = keep
    if is_single(keep):
        w = keep.bit_length() - 1
        return [(r, c, w)], [], f"{name((r, c))} is {w}", new
    gone = masks[x] & ~keep
    return [], [(r, c, w) for w in values_of(gone)], f"{name((r, c))} is not {numbers(gone)}", new


def split_step(
    board: Board, masks: list[Mask], x: int, v: int, now: list[Mask] | None = None
) -> tuple[Step, list[Mask]] | None:
    """Suppose x holds v: the rules' chain from ``masks`` to a contradiction, so x is not v;
    the conclusion on ``now`` (the domains when the step is taken, ``masks`` by default). None
    if the rules find no contradiction."""
    now = masks if now is None else now
    state, contradiction = _traced(board, masks, x, bit(v))
    if contradiction is None:
        return None
    case = _case(board, x, v, state, contradiction)
    cells, removed, result, new = _conclusion(board, now, x, now[x] & ~bit(v))
    text = (
        f"suppose {name(case.tried[:2])} were {v}: {len(case.chain)} steps follow and end in a "
        f"contradiction ({contradiction}); so {result}"
    )
    step = Step(
        "case-split",
        cells,
        removed,
        [case.tried[:2]],
        text,
        tried=case.tried,
        chain=case.chain,
        contradiction=contradiction,
    )
    return step, new


def _until_touched(chain: list[Step], cell: tuple[int, int]) -> list[Step]:
    """The chain up to its last step that narrows ``cell``."""
    last = max(
        (i for i, s in enumerate(chain) if any((r, c) == cell for r, c, _ in s.cells + s.removed)),
        default=len(chain) - 1,
    )
    return chain[: last + 1]


def whichever_step(board: Board, masks: list[Mask], x: int, y: int) -> tuple[Step, list[Mask]] | None:
    """Whichever number x takes, the rules narrow y alike: y keeps only what some branch left
    it (None if a traced branch ends in a contradiction or narrows nothing)."""
    cases: list[Case] = []
    keep = 0
    ycell = divmod(y, board.width)
    for v in values_of(masks[x]):
        state, contradiction = _traced(board, masks, x, bit(v))
        if contradiction is not None:
            return None
        keep |= state.dom[y]
        case = _case(board, x, v, state, None)
        cases.append(Case(case.tried, _until_touched(case.chain, ycell), None))
    if keep == masks[y]:
        return None
    cells, removed, result, new = _conclusion(board, masks, y, keep)
    xcell = divmod(x, board.width)
    branches = "; ".join(f"if {v}, {len(case.chain)} steps" for case, v in zip(cases, values_of(masks[x])))
    text = (
        f"whichever number {name(xcell)} takes ({numbers(masks[x], ' or ')}), the rules narrow "
        f"{name(ycell)} alike ({branches}); so {result}"
    )
    return Step("whichever", cells, removed, [xcell], text, cases=cases), new


def nested_step(board: Board, masks: list[Mask], x: int, v: int, y: int) -> tuple[Step, list[Mask]] | None:
    """Suppose x is v: the rules stop; then every candidate of y ends in a contradiction; so x
    is not v (None if the tracing does not close every branch)."""
    outer, contradiction = _traced(board, masks, x, bit(v))
    if contradiction is not None:
        return split_step(board, masks, x, v)
    inner_masks = outer.dom
    if is_single(inner_masks[y]):
        return None
    cases = []
    for w in values_of(inner_masks[y]):
        inner, why = _traced(board, inner_masks, y, bit(w))
        if why is None:
            return None
        cases.append(_case(board, y, w, inner, why))
    chain = fold_size_caps(steps_of(outer.changes, board))
    xcell, ycell = divmod(x, board.width), divmod(y, board.width)
    cells, removed, result, new = _conclusion(board, masks, x, masks[x] & ~bit(v))
    contradiction = f"{name(ycell)} can hold none of {numbers(inner_masks[y], ', ')}"
    refutations = "; ".join(f"if {c.tried[2]}, {len(c.chain)} steps to a contradiction" for c in cases)
    text = (
        f"suppose {name(xcell)} were {v}: {len(chain)} steps follow and the rules stop; then "
        f"every number {name(ycell)} may hold ({numbers(inner_masks[y], ' or ')}) ends in a "
        f"contradiction ({refutations}); so {result}"
    )
    step = Step(
        "nested-split",
        cells,
        removed,
        [xcell, ycell],
        text,
        tried=xcell + (v,),
        chain=chain,
        contradiction=contradiction,
        cases=cases,
    )
    return step, new


__all__ = ["CASE_TRIALS", "NESTED_TRIALS", "Cases", "nested_step", "split_step", "whichever_step"]
