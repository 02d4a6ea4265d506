"""Issue 17, eleventh session: how many nodes would the quick proof's search need with
conflict-directed backjumping and nogood learning, if every contradiction came with a minimal
explanation? An oracle measurement, not a solver: the explanations are found by re-settling.

    .venv/bin/python benchmarks/proof11_nogoods.py PUZZLES... > OUT.csv

The search is the quick proof's (the strong search's first phase, group-exit guesses, the
search rules on, limit 2), written recursively with binary branching: a guess "x is v" and its
complement "x is not v" (a tautology between them). A node's *decisions* are the guesses and
complements on its path. Each contradiction gets a conflict set: the decisions, less every one
whose removal still leaves a contradiction when the rules settle the presolved root with the
rest assumed (deletion, the most recent decision tried first, so that the set keeps old ones);
that is the oracle, paid for in ``oracle`` settles that the node counts leave out. An inner
node whose children are both refuted gets the union of their sets less its own guess and
complement (resolution on the tautology: sound), and

``cbj``
    skips the complement child when the guess child's set lacks the guess: the node is refuted
    by decisions above it (conflict-directed backjumping);
``learn``
    also keeps every set as a *nogood* (no solution satisfies all its decisions) and refutes a
    node whose domains entail one after its settling (each decision "x in m": the cell's domain
    within m), which also reaches subtrees on other branches (the twins under the first
    solution's path, which backjumping cannot skip);
``unit``
    also narrows a cell when a nogood has all decisions but that cell's entailed (the cell then
    keeps only the values outside its decision), settling again.

A subtree holding a solution gets no set (every decision counts). Every set is checked by a
settle, or derived by resolution from checked ones, so the search stays sound; it is complete
because a child is skipped only when its parent is refuted. The columns: nodes to the first
solution and in all (settles of the search itself), oracle settles, nogoods kept, and whether
the answer (unique) matches the plain search's.
"""

from __future__ import annotations

import csv
import sys
import time

from fillsmt.fillomino.backtrack import SEARCH_RULES, SearchResult, _guess, _Search, _solution
from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

sys.setrecursionlimit(10_000)

VARIANTS = ("plain", "cbj", "learn", "unit", "root1")
MAX_NODES = 5000
DEBUG = False


class _Stop(Exception):
    pass


def run(puzzle, variant: str) -> dict:
    active = list(ALL_RULES) + list(SEARCH_RULES)
    result = SearchResult(rules_used=dict.fromkeys(active, 0))
    search = _Search(puzzle, ALL_RULES, SEARCH_RULES, -1, None, None, "group-exit", None, result)
    root = State(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle), active)
    full = (1 << (max(m.bit_length() for m in root.dom) + 1)) - 1
    stats = {"nodes": 0, "first": None, "oracle": 0, "solutions": [], "nogood_hits": 0}
    nogoods: list[tuple[tuple[int, int], ...]] = []
    root1 = variant == "root1"
    cbj, learn, unit = variant not in ("plain", "root1"), variant in ("learn", "unit"), variant == "unit"
    facts: list[tuple[int, int]] = []  # root1: (x, m) no solution has: x's value within m
    t0 = time.process_time()

    def by_nogoods(state: State) -> bool:
        """Whether the state entails a nogood (``unit``: narrowing cells on the way)."""
        if not learn:
            return False
        again = True
        while again:
            again = False
            for ng in nogoods:
                if any(not state.dom[x] & m for x, m in ng):
                    continue  # a decision that cannot hold: the nogood is satisfied
                out = [(x, m) for x, m in ng if state.dom[x] & ~m]
                if not out:
                    return True
                if unit and len(out) == 1:
                    x, m = out[0]
                    try:
                        state.assume(x, full & ~m)
                    except Contradiction:
                        return True
                    if search.settle(state) is not None:
                        return True
                    again = True
        return False

    def settled(decisions) -> State | None:
        """The root with the decisions assumed and settled; None at a contradiction."""
        s = root.fork()
        try:
            for x, m in decisions:
                s.assume(x, m)
        except Contradiction:
            return None
        if search.settle(s) is not None or by_nogoods(s):
            return None
        return s

    def refutes(decisions) -> bool:
        stats["oracle"] += 1
        return settled(decisions) is None

    def explain(decisions):
        if not refutes(decisions):
            return None  # the caches' fixpoint differs from a fresh one: no set
        conflict = list(decisions)
        for lit in reversed(decisions):
            trial = [d for d in conflict if d != lit]
            if refutes(trial):
                conflict = trial
        return conflict

    def apply_facts(state: State) -> bool:
        """root1: narrow the state by the facts learned; False at a contradiction."""
        try:
            for x, m in facts:
                state.assume(x, full & ~m)
        except Contradiction:
            return False
        return True

    def learn_fact(lit) -> None:
        facts.append(lit)
        try:
            root.assume(lit[0], full & ~lit[1])
        except Contradiction:
            return
        search.settle(root)

    def visit(state: State, decisions: list) -> list | None:
        stats["nodes"] += 1
        if stats["nodes"] > MAX_NODES:
            raise _Stop
        if root1 and not apply_facts(state) or search.settle(state) is not None or by_nogoods(state):
            if root1 and decisions:
                last = decisions[-1]
                kind = "guess" if last[1] & (last[1] - 1) == 0 else "rest"
                if len(decisions) == 1:
                    learn_fact(last)
                    stats.setdefault("free", 0)
                    stats["free"] += 1
                else:
                    t = time.process_time()
                    ok = refutes([last])
                    key = (kind, ok)
                    stats.setdefault("tests", {}).setdefault(key, [0, 0.0])
                    stats["tests"][key][0] += 1
                    stats["tests"][key][1] += time.process_time() - t
                    if ok:
                        learn_fact(last)
            if not cbj:
                return []
            conflict = explain(decisions)
            if conflict is not None and learn:
                nogoods.append(tuple(conflict))
            return conflict
        unfixed = [x for x, m in enumerate(state.dom) if m & (m - 1)]
        if not unfixed:
            stats["solutions"].append(_solution(puzzle, state.dom))
            if stats["first"] is None:
                stats["first"] = stats["nodes"]
            if len(stats["solutions"]) >= 2:
                raise _Stop
            return None
        x, v = _guess(puzzle, state.dom, unfixed, "group-exit")
        guess, rest = (x, 1 << v), (x, full & ~(1 << v))
        children = []
        for lit in (guess, rest):
            child = state.fork()
            child.assume(x, lit[1] & state.dom[x])
            children.append(child)
        c1 = visit(children[0], decisions + [guess])
        if not cbj:
            visit(children[1], decisions + [rest])
            return []
        if c1 is not None and guess not in c1:
            return c1
        c2 = visit(children[1], decisions + [rest])
        if c1 is None or c2 is None:
            return None
        if rest not in c2:
            return c2
        conflict = [d for d in decisions if d in c1 or d in c2]
        if learn:
            nogoods.append(tuple(conflict))
        return conflict

    stopped = False
    try:
        if search.settle(root) is None:
            visit(root.fork(), [])
    except _Stop:
        stopped = True
    exhausted = not stopped or len(stats["solutions"]) >= 2
    unique = (len(stats["solutions"]) == 1) if exhausted and len(stats["solutions"]) < 2 else (
        False if len(stats["solutions"]) >= 2 else None)
    if DEBUG:
        print("  tests", {k: (n, round(t * 1000, 1)) for k, (n, t) in stats.get("tests", {}).items()}, "free", stats.get("free"), file=sys.stderr)
        print("  nogood sizes", sorted(len(n) for n in nogoods), "depths", sorted(max((i for i, _ in enumerate(n)), default=-1) for n in nogoods), file=sys.stderr)
    return {"nodes": stats["nodes"], "first": stats["first"], "oracle": stats["oracle"],
            "nogoods": len(nogoods), "unique": unique, "cpu": round(time.process_time() - t0, 4)}


def main(paths: list[str]) -> None:
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "variant", "first", "nodes", "oracle", "nogoods", "unique", "cpu"])
    for path in paths:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        if puzzle is None:
            continue
        for variant in VARIANTS:
            r = run(puzzle, variant)
            out.writerow([path.rsplit("/", 1)[-1][:-4], variant, r["first"], r["nodes"], r["oracle"],
                          r["nogoods"], r["unique"], r["cpu"]])
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
