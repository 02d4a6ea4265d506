"""Cheap features of a presolved Fillomino puzzle that choose the staged race's plan: its lead
encoding (``Fillomino.staged_lead``), its extra racer (``Fillomino.staged_racers``), whether the
rules' search races and who yields the CPU.

Measured after the presolve (benchmarks/README.md, "Issue 17, sixth session"): the largest
connected area of open cells is 186–596 on the hard-tail puzzles the lazy region cuts win or tie
(207, 330, 620), 156 on 299 (the tree encoding wins), 61–72 on 266 (Z3 with the region
propagator won then; the rules' search since the seventh session) and 485 (the rules' search wins), at most 44 on the scaling puzzles and at most
70 on janko-thesis100 (the tree encoding wins; the lazy cuts lose janko's tail: 286, 234). The
eighth session's table of every set's features beside each racer's CPU time alone
(``benchmarks/race_features.py``) chose :data:`LAZY_NOW_AREA` and :func:`quick_search_budget`.
"""

from __future__ import annotations

import time

from fillsmt.fillomino.model import Puzzle

LAZY_AREA = 100
"""Open cells in one connected area from which the staged race adds the lazy region cuts."""
LAZY_NOW_AREA = 180
"""Open cells in one connected area from which the lazy region cuts join at once; on a smaller
area (:data:`LAZY_AREA` up to this) they join only after :data:`LAZY_DELAY` seconds, a fallback.
Measured alone (CPU s, benchmarks/README.md, "issue 17, eighth session"): the lazy cuts settle
207 (area 186) in 0.4 s and 620 (284) in 1.0 s, where tree-bfs takes 19 s and more; on 299
(156) they take 10.5 s against tree-bfs's 2.5 s and the search's 3.3 s, so started at once they
share the cores with the winner (with 2 bench jobs the branch without them was faster on 299 in
4 of 6 rounds under load; one process at a time no slower)."""
LAZY_DELAY = 10.0
"""Seconds the lazy region cuts wait on an open area below :data:`LAZY_NOW_AREA`: like
:data:`PROP_DELAY`, a fallback for a puzzle neither tree-bfs nor the search settles by then (a
shorter wait, 3 s, still let them join 299 on a loaded machine: eighth session)."""
PROP_OPEN = 150
"""Open cells up to which Z3 with the region propagator joins (it won only on 10×10 and smaller
grids: 266 and 485 alone, and time-outs on 207, 299, 330 and 620; the 20×20 to 30×30 scaling
puzzles keep 144–294 cells open after the presolve)."""
PROP_DELAY = 3.0
"""Seconds the Z3 propagator racer waits on a puzzle without such an area, when only a solution
is asked: a fallback for a small puzzle neither yices nor the rules' search settles in that
time. It joined after 1.5 s in the sixth session, when it won hard-tail 266; once the search
settled 266 (about 4 s of CPU then) the third process only took CPU from the winner there (266
with it 21.7 s, without 14.8 s, quiet; it won no other puzzle: benchmarks/README.md, "issue 17,
seventh session: small"), so it waited 10 s. 3 s since the thirteenth session: the search
settles 266 in about 1 s of CPU, and on the big-region puzzles made here
(``instances/fillomino/big-regions``), where the search can get nowhere (12x12-big-1) or take
14 s alone (12x12-big-11), a quiet ``fillsmt bench`` (2 jobs, two A/B rounds) took
12x12-big-1 21.6-22.1 -> 14.6-15.3 s and 12x12-big-11 8.8-9.0 -> 7.0-7.5 s, the hard tail
unchanged (266 2.1 -> 2.0 s); benchmarks/README.md, "Issue 17, thirteenth session: big-region
puzzles made here"."""
PROP_DELAY_PROOF = 10.0
"""The same wait when the race must also prove (``--unique``, ``--forced``): there the
propagator's own proof is slower than the search's or yices's, and started at 3 s it only took
their CPU (the same runs: 12x12-big-11 9.1-9.3 -> 10.4-10.8 s, 12x12-big-12 9.7-10.3 -> 12.0-12.6
s, 12x12-big-4 7.6-7.7 -> 9.9-10.0 s)."""


LEAD_AREA = 400
"""Open cells in one connected area from which the lazy region cuts run alone in a staged race:
no tree-bfs script (janko 330, area 596: its encoding takes 1.7 s and yices 12 s CPU, where the
lazy cuts settle it in about 8 s; measured in benchmarks/README.md, "issue 17, seventh session")."""
LEAD_OPEN = 100
"""Open cells from which the lazy region cuts also lead where every open area is small (below
:data:`LAZY_AREA`): the 20×20 and 30×30 scaling puzzles (144–294 open cells in areas of at most
19). Measured (benchmarks/README.md, "issue 17, twelfth session: loop12"): in one process the
default race takes 0.36–1.56 s there with tree-bfs leading, 0.19–0.68 s with the lazy cuts
(30×30-3 1.56 → 0.67 s); the eighth session measured this plan slower under two bench jobs
(30×30-3 1.26 → 1.36 s), before the lazy loop read packed models and wrote pinned cuts. No
janko-thesis100 puzzle keeps 100 open cells (at most 73), nor hard-tail 266 or 485."""
SEARCH_OPEN = 1000
"""Open cells above which the rules' search does not race (janko 330, 1441 open cells: its root
probing alone does not end in 36 s CPU, and every racer past two shares the two cores)."""


QUICK_BASE = 0.02
"""Seconds of the in-process search before any solver starts (:func:`quick_search_budget`)."""
QUICK_PER_CELL = 20e-6
"""Seconds more per cell of the grid (a node's deduction costs more on a larger grid, and so do
the encoding and the solver the quick search can spare): 0.022 s on a 10×10, 0.052 s on a 40×40."""


def quick_search_budget(presolved: Puzzle) -> float:
    """How long the rules' search runs in this process before the race (0: not at all): on at
    most :data:`PROP_OPEN` open cells, :data:`QUICK_BASE` + :data:`QUICK_PER_CELL` per cell.
    Measured alone (CPU, eighth session): the search settles 47 of the 73 janko-thesis100
    puzzles the rules leave open within 0.03 s (median 0.021 s) where yices alone takes a median
    0.036 s after an encoding of 0.02-0.05 s; the 40×40 scaling puzzles (2-15 open cells) in
    0.03-0.06 s against yices's 0.5 s; on grids with more open cells it is the weaker racer."""
    if open_cells(presolved) > PROP_OPEN:
        return 0.0
    return QUICK_BASE + QUICK_PER_CELL * presolved.height * presolved.width


QUICK_CLOCK = time.process_time
"""What the quick search's seconds (:func:`quick_search_budget`, :func:`quick_proof_budget`) are
measured on: this process's CPU time (nothing else runs in it before the race)."""

QUICK_PROOF_FIRST = 120
"""With ``--unique`` or ``--forced``: the nodes (fixpoints) within which the quick search must
find its first solution to go on to its proof (:func:`quick_proof_budget`); a count, not seconds,
so that the choice does not depend on the machine's load. 40 until the fifteenth session; with
the last conflict (:data:`~fillsmt.fillomino.search.QUICK_PROOF_SEARCH`) the janko-thesis100
proofs that find no first solution within 40 nodes find it at nodes 44-86 (031, 041, 247, 260, 268, 269), at 103
(292) or later; measured through ``pipeline.solve`` (``benchmarks/README.md``, "Issue 17, fifteenth
session: the last conflict"), 041's ``--unique`` 0.072 -> 0.030 s and 268's 0.076 -> 0.053 s,
where the puzzles whose proof still goes to the race pay 50 more nodes first (257 0.077 -> 0.096
s, still 1.6x its plain solve); the scaling, hard-tail and big-region puzzles lose nothing.
120 since the sixteenth session: with ``wiped_out`` the janko-thesis100 proofs
past 90 nodes find their first solution at nodes 103 (257), 107 (292), 113 (249) or past 190,
and their proofs end by node 229 (``benchmarks/README.md``, "Issue 17, sixteenth session"):
through ``pipeline.solve`` (one process, min of 5) 257's ``--unique`` 0.094 -> 0.055 s (its plain
solve, yices', 0.057 s; it was 2.01x in a final bench run of the fifteenth session), 249's 0.083
-> 0.045 s, 292's 0.081 -> 0.076 s; the seven proofs that still go to the race pay 30 more nodes
first (171 0.153 -> 0.169 s, 1.53x its plain solve; 066 1.22x -> 1.36x), 12x12-big-4's 1.68 ->
1.88 s; the scaling and Baron puzzles lose nothing."""
QUICK_PROOF = 3.0
"""With ``--unique`` or ``--forced``: seconds of :data:`QUICK_CLOCK` (plus :data:`QUICK_PER_CELL`
per cell) the quick search may take in all: the search is also bounded by nodes, to the strong
search's first phase (:data:`~fillsmt.fillomino.search.FIRST_PHASE_BUDGET`, 500 nodes on a
10×10, about 1 s of CPU there). A wall-clock bound of 1.5 s (ninth session) threw janko 286's
proof (0.7 s CPU) away under load 8-9 and left it to the race (3.8-4.7 s); the bound has been
CPU time since the twelfth session."""


def quick_proof_budget(presolved: Puzzle) -> tuple[int, float]:
    """With ``--unique`` or ``--forced``: (nodes to a first solution, seconds in all) for the
    in-process search before the race, (0, 0.0) where :func:`quick_search_budget` is 0. The
    alternative here is a solver session (first solution, then the proof), not a one-shot run:
    yices on tree-bfs, one session, no race, takes 0.04-0.49 s (median 0.1 s) on the
    janko-thesis100 puzzles the rules leave open, 286 aside (2.3 s). Measured alone (CPU, ninth
    session, ``benchmarks/README.md``): every janko-thesis100 and scaling puzzle whose search
    finds a first solution within 40 nodes has its whole search tree, the proof, done within
    0.24 s, except janko 286 (first solution at node 16, proof 413 nodes, 0.67 s, where yices'
    session needs 2.3 s and 1.3 s in the race), and the search's proof beat yices' session on
    every one; so a search that found a solution early goes on to prove it."""
    if quick_search_budget(presolved) <= 0:
        return 0, 0.0
    return QUICK_PROOF_FIRST, QUICK_PROOF + QUICK_PER_CELL * presolved.height * presolved.width


def largest_open_area(puzzle: Puzzle) -> int:
    """The number of cells of the largest 4-connected area of empty (0) cells."""
    h, w = puzzle.height, puzzle.width
    empty = [v == 0 for row in puzzle.cells for v in row]
    seen = [False] * (h * w)
    best = 0
    for start in range(h * w):
        if not empty[start] or seen[start]:
            continue
        seen[start], stack, size = True, [start], 0
        while stack:
            x = stack.pop()
            size += 1
            r, c = divmod(x, w)
            for y, ok in ((x - w, r > 0), (x + w, r < h - 1), (x - 1, c > 0), (x + 1, c < w - 1)):
                if ok and empty[y] and not seen[y]:
                    seen[y] = True
                    stack.append(y)
        best = max(best, size)
    return best


def open_cells(puzzle: Puzzle) -> int:
    """The number of empty (0) cells."""
    return sum(1 for row in puzzle.cells for v in row if v == 0)


def staged_racers(presolved: Puzzle, proof: bool = False) -> tuple[tuple[str, str, float], ...]:
    """On a large open area, yices on the lazy region cuts (at once from :data:`LAZY_NOW_AREA`
    cells, else after :data:`LAZY_DELAY` seconds); else, on a small puzzle (at most
    :data:`PROP_OPEN` open cells), Z3 with the region propagator after :data:`PROP_DELAY`
    seconds (:data:`PROP_DELAY_PROOF` when the race must also prove: ``proof``); else none."""
    area = largest_open_area(presolved)
    if area >= LAZY_AREA:
        return (("yices", "lazy-local-general", 0.0 if area >= LAZY_NOW_AREA else LAZY_DELAY),)
    if open_cells(presolved) <= PROP_OPEN:
        return (("z3-prop", "onehot-prop", PROP_DELAY_PROOF if proof else PROP_DELAY),)
    return ()


def staged_lead(presolved: Puzzle) -> str | None:
    """``lazy-local-general`` in place of the default encoding on an open area of at least
    :data:`LEAD_AREA` cells, or on at least :data:`LEAD_OPEN` open cells in areas all smaller
    than :data:`LAZY_AREA`; else None (an area of :data:`LAZY_AREA` up to :data:`LEAD_AREA`
    cells keeps tree-bfs, with the lazy cuts racing: :func:`staged_racers`)."""
    area = largest_open_area(presolved)
    if area >= LEAD_AREA or (area < LAZY_AREA and open_cells(presolved) >= LEAD_OPEN):
        return "lazy-local-general"
    return None


def races_search(presolved: Puzzle) -> bool:
    """Whether the rules' search races: on at most :data:`SEARCH_OPEN` open cells."""
    return open_cells(presolved) <= SEARCH_OPEN


STALL_CPU = 2.0
"""CPU seconds of the racing search (its child's own) without a better node, no solution found:
then it has stalled (:func:`search_stalled`). Measured (benchmarks/README.md, "Issue 17,
fourteenth session: a race that watches its search"; ``benchmarks/stall14_progress.py`` and
``stall14_gaps.py``, the race's search alone): a winning search and a hopeless one look alike
in their first second (depth 24-26, the fewest open cells a quarter of the grid's: hard-tail 266
21 of 65 from 0.2 s, 12x12-big-1 23 of 89 from 0.5 s); what differs is how long they then go
without a better node. Before its first solution, the longest such stretch is at most 0.30 s
on every janko-thesis100 and big-region puzzle the search settles, 0.90 s on 266 (settled at
1.07 s) and 1.09 s on janko 262 (3.0 s; yices wins it in 0.1 s); it is 4.0 s on 12x12-big-11
(settled at 9.1 s) and 14.6 s on 12x12-big-1 (unsettled in 20 s). So 1.5 s: 1.7x 266's. It is
counted on the child's CPU, so a search starved by a loaded machine is not judged on work it
did not do (at load 6 on 2 cores that took 12x12-big-11's search 9.5 s of wall time). 2.0 s
since the strong search's second phase walks two orders by turns (``search.SECOND_PHASE_ORDERS``,
the same session): 266's longest stretch is then 1.20 s (settled at 1.75 s), so 2.0 s keeps the
margin at 1.7x; 12x12-big-11's is 4.59 s (settled at 11.7 s) and 12x12-big-1's 4.76 s (settled
at 5.8 s), so both still stall (``stall14_gaps.py 20`` on the merged code)."""
STALL_HURRIES_PROOF = False
"""Whether the staged racers (the region propagator) join a race that must also prove as soon as
the search stalls, as they do a race for a solution (:func:`stall_hurries`): no, the propagator's
proofs are slower than yices's (:data:`PROP_DELAY_PROOF`)."""


def search_stalled(progress) -> bool:
    """Whether the racing search (``progress``: :class:`fillsmt.race.Progress`) has stalled:
    no solution yet, and :data:`STALL_CPU` seconds of its CPU since it last reached a node with
    fewer open cells. A search that found a solution is never stalled (in a proof it goes on to
    the second one or the end of its tree: the search settles the big-region proofs 12x12-big-4
    and -12, each 5-10 s for every prover alone)."""
    return progress.solutions == 0 and progress.since_improved >= STALL_CPU


def stall_hurries(proof: bool) -> bool:
    """Whether the staged racers join at once when the search stalls: in a race for a solution
    (:data:`STALL_HURRIES_PROOF` where it must also prove)."""
    return STALL_HURRIES_PROOF or not proof


def search_first(presolved: Puzzle) -> bool:
    """Whether the racing solver yields the CPU to the rules' search after a while (until the
    search stalls: :func:`search_stalled`): on at most :data:`PROP_OPEN` open cells, where the search settles what the solver is slow on (hard-tail
    266, 485). On larger grids the solver is the usual winner (the 20×20 and 30×30 scaling
    puzzles lost 2× when it yielded there; benchmarks/README.md, seventh session)."""
    return open_cells(presolved) <= PROP_OPEN


__all__ = ["LAZY_AREA", "LAZY_DELAY", "LAZY_NOW_AREA", "LEAD_AREA", "LEAD_OPEN", "PROP_DELAY", "PROP_DELAY_PROOF", "PROP_OPEN", "QUICK_BASE", "QUICK_CLOCK", "QUICK_PER_CELL", "QUICK_PROOF", "QUICK_PROOF_FIRST", "SEARCH_OPEN", "STALL_CPU", "STALL_HURRIES_PROOF",
           "largest_open_area", "open_cells", "quick_proof_budget", "quick_search_budget",
           "races_search", "search_first", "search_stalled", "stall_hurries", "staged_lead", "staged_racers"]
