"""Issue 17, eleventh session (janko 257's yices proof): the *second check* of a ``--unique``
session (the uniqueness proof, after the first solution is blocked) under several designs, on
the solver binary alone, per puzzle: yices's own CPU for that check (``:total-run-time`` before
and after it, in the same process), its conflicts (load-independent; left blank where yices's counter went down across the checks: its
statistics are not always cumulative in a session, nor is its decision count, left out), and the
check's answer. Every design is sound and complete (module text of each below); the answers are
compared with the current design's and a disagreement is printed as ``MISMATCH``.

    .venv/bin/python benchmarks/proof11_second.py [--rounds N] [--designs a,b] PUZZLES... > OUT.csv

The script is what ``fillsmt solve --unique`` sends (presolve, tree-bfs, the assertions as one
conjunction, ``yices-smt2 --incremental``); the first solution S is yices's own first model. The
designs (``DESIGNS``):

* ``inc-cells`` (current): after the first check, assert "some cell's number differs from S"
  (``fillsmt.solutions.differs`` over every cell term) and check again.
* ``inc-open``: the same clause over the cells the script does not pin (a pinned cell's literal
  is false in every model, so the clause is equivalent).
* ``inc-split``: each cell's literal written ``(or (< n v) (> n v))`` (bound atoms instead of
  an equality atom; equivalent over the integers).
* ``inc-bound``: "some pair of neighbours is equal in one and unequal in the other": a Fillomino
  solution's regions are the connected groups of equal neighbours, and each cell's number is
  its region's size, so two solutions with the same equal/unequal pattern on every pair of
  neighbours are the same grid (sound: S breaks the clause; complete: any other solution
  satisfies it). Pairs both of whose cells are pinned are constant and left out.
* ``inc-tree``: "some parent pointer ``p_x_y`` or root flag ``t_x`` differs from the first
  model's" (Boolean variables only): tree-bfs has exactly one tree per solution (the BFS tree
  from the region's canonical root, each cell's parent the first neighbour one step closer), and
  the tree's components are the regions, so the same tree means the same grid and another grid
  another tree. Needs one more get-value (the tree's variables).
* ``inc-both``: ``inc-cells`` and ``inc-bound`` asserted together (each follows from the other
  and the puzzle's constraints, so the models are the same).
* ``inc-seed-K``: ``inc-cells`` with yices's random seed set to K before the second check (how
  much of the check's cost is the luck of the search order); ``inc-bound-seed-K`` likewise;
  ``cells-sK``, ``bound-sK``, ``both-sK`` (K = 1..8): the three clauses under the same eight
  seeds, to tell a clause's own effect from the luck of one seed.
* ``fresh-cells`` / ``fresh-bound``: a new yices process loaded with the script and the clause,
  one check (no state kept from the first check; the load is counted in ``load_s``).
* ``fresh-bv``: the same, on the bit-vector tree encoding (``tree-bfs-bv``'s options with the
  closed regions left out, as tree-bfs; the clause over bit-vector constants).
* ``z3-fresh``: z3 on the script and the clause (CPU by rusage, whole process; its load
  counted in it).
* ``probe-pinned``: first the rules refute "x != S[x]" cell by cell (one fixpoint each from the
  presolve's domains, ``deduce.propagate_masks``): a refuted cell holds S[x] in every solution
  (the rules are sound), so ``(= n_x S[x])`` is asserted and x leaves the clause; the rest as
  ``inc-open``. All refuted: unique without a check. The probes' Python CPU is ``extra_s``.

Columns: puzzle, design, answer, check_s (yices CPU of the second check; for fresh designs the
check alone), load_s (fresh designs: the load; else 0), extra_s, conflicts,
first_s (the first check's CPU, once per puzzle: the plain solve's solver work), plain_load_s.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import resource
import subprocess
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.deduce.fixpoint import propagate_masks
from fillsmt.fillomino.deduce.masks import bit
from fillsmt.fillomino.encode_tree import TreeOptions, encode_tree
from fillsmt.fillomino.names import cell_of_number_var, neighbour_indices, number_var
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.registry import kind_of
from fillsmt.smtlib.script import script_body
from fillsmt.solutions import Search, differs

STATS = "(get-info :all-statistics)\n"


def _stats(text: str) -> list[dict[str, float]]:
    """Every ``(get-info :all-statistics)`` reply of yices in ``text``, in order."""
    out = []
    for block in re.findall(r"\(\s*\n(.*?)\n\)", text, re.S):
        out.append({k: float(v) for k, v in re.findall(r":([\w-]+) ([\d.]+)", block)})
    return out


def _answers(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() in ("sat", "unsat", "unknown")]


class Case:
    """One puzzle: the presolved script, the first model S, and what the designs need."""

    def __init__(self, path: str):
        self.path = path
        self.puzzle = read_puzzle(path)
        kind = kind_of(self.puzzle)
        self.found = kind.presolve(self.puzzle)
        if self.found is None or self.found.grid is not None or self.found.contradiction is not None:
            raise ValueError("settled by the presolve")
        self.script = kind.encode(self.found.puzzle, "tree-bfs", self.found.hints)
        self.problem = kind.problem(self.puzzle, self.script, "tree-bfs", "yices")
        self.body = script_body(self.script, joined=True)
        self.yices = get_driver("yices").executable()
        with get_driver("yices").open_session() as session:
            search = Search(self.problem, session)
            search.start()
            _, first = search.solution()
            trees = re.findall(r"\(declare-fun ((?:p|t)_[\d_]+) \(\) Bool\)", self.body)
            self.tree = session.get_values_and_texts(trees)[1] if trees else {}
        self.raw = first.raw
        self.grid = first.grid
        self.width = self.puzzle.width
        self.value = {cell_of_number_var(t): int(v) for t, v in self.raw.items()}
        self.pinned = {cell_of_number_var(t) for t in self.problem.pinned}
        self.open = [cell_of_number_var(t) for t in self.problem.asked]

    # -- the clauses ------------------------------------------------------------------------
    def cells_clause(self, cells=None) -> str:
        terms = self.problem.terms if cells is None else [number_var(x) for x in cells]
        return differs(self.raw, terms)

    def split_clause(self) -> str:
        parts = [f"(or (< {number_var(x)} {self.value[x]}) (> {number_var(x)} {self.value[x]}))" for x in self.open]
        return f"(or {' '.join(parts)})" if len(parts) > 1 else parts[0]

    def bound_clause(self) -> str:
        h, w = self.puzzle.height, self.width
        parts = []
        for x in range(h * w):
            for y in neighbour_indices(h, w, x):
                if y < x or (x in self.pinned and y in self.pinned):
                    continue
                eq = f"(= {number_var(x)} {number_var(y)})"
                parts.append(f"(not {eq})" if self.value[x] == self.value[y] else eq)
        return f"(or {' '.join(parts)})" if len(parts) > 1 else parts[0]

    def tree_clause(self) -> str:
        """"Some parent pointer or root flag differs from the first model's": tree-bfs has
        exactly one tree per solution (a canonical BFS tree from a canonical root), and the
        tree's components are the regions, so this blocks the first solution and no other."""
        parts = [(f"(not {t})" if v == "true" else t) for t, v in self.tree.items()]
        return f"(or {' '.join(parts)})"

    def probes(self) -> tuple[list[int], float]:
        """The open cells whose "x != S[x]" the rules refute, and the probes' CPU seconds."""
        from fillsmt.fillomino.deduce import initial_masks

        c0 = time.process_time()
        masks = [sum(bit(v) for v in d) for d in self.found.hints] if self.found.hints else initial_masks(self.found.puzzle)
        refuted = []
        for x in self.open:
            tried = list(masks)
            tried[x] &= ~bit(self.value[x])
            _, _, contradiction = propagate_masks(self.found.puzzle, tried)
            if contradiction is not None:
                refuted.append(x)
        return refuted, time.process_time() - c0

    # -- the runs ---------------------------------------------------------------------------
    def yices_run(self, text: str) -> str:
        return subprocess.run([self.yices, "--incremental"], input=text, capture_output=True, text=True).stdout

    def incremental(self, after_first: str) -> dict:
        out = self.yices_run(self.body + "(check-sat)\n" + STATS + after_first + "(check-sat)\n" + STATS)
        (a, b), ans = _stats(out), _answers(out)
        spent = b["conflicts"] - a["conflicts"]
        return {"answer": ans[-1], "check_s": b["total-run-time"] - a["total-run-time"], "load_s": 0.0,
                "conflicts": spent if spent >= 0 else "",
                "first_ok": ans[0] == "sat"}

    def fresh(self, body: str, clause: str) -> dict:
        out = self.yices_run(body + STATS + f"(assert {clause})\n(check-sat)\n" + STATS)
        (a, b), ans = _stats(out), _answers(out)
        return {"answer": ans[-1], "check_s": b["total-run-time"] - a["total-run-time"],
                "load_s": a["total-run-time"], "conflicts": b["conflicts"]}

    def first(self) -> dict:
        out = self.yices_run(self.body + STATS + "(check-sat)\n" + STATS)
        (a, b) = _stats(out)
        return {"first_s": b["total-run-time"] - a["total-run-time"], "plain_load_s": a["total-run-time"]}

    def bv_body(self) -> tuple[str, str]:
        script = encode_tree(self.found.puzzle, self.found.hints,
                             TreeOptions(bfs=True, bitvector=True, skip_closed=True))
        body = script_body(script, joined=True)
        width = int(re.search(r"\(declare-fun n_0 \(\) \(_ BitVec (\d+)\)\)", body).group(1))
        parts = [f"(not (= {number_var(x)} (_ bv{self.value[x]} {width})))" for x in self.open]
        return body, (f"(or {' '.join(parts)})" if len(parts) > 1 else parts[0])

    def z3(self, clause: str) -> dict:
        text = self.body + f"(assert {clause})\n(check-sat)\n"
        z3 = get_driver("z3").executable()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([z3, "-in", "-smt2"], input=text, capture_output=True, text=True).stdout
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        return {"answer": _answers(out)[-1], "check_s": cpu, "load_s": 0.0, "conflicts": 0}


def _probe_pinned(case: Case) -> dict:
    refuted, spent = case.probes()
    rest = [x for x in case.open if x not in set(refuted)]
    if not rest:
        return {"answer": "unsat", "check_s": 0.0, "load_s": 0.0, "conflicts": 0, "extra_s": spent,
                "note": f"{len(refuted)}/{len(case.open)} refuted"}
    pins = "".join(f"(assert (= {number_var(x)} {case.value[x]}))\n" for x in refuted)
    got = case.incremental(pins + f"(assert {case.cells_clause(rest)})\n")
    got.update(extra_s=spent, note=f"{len(refuted)}/{len(case.open)} refuted")
    return got


DESIGNS = {
    "inc-cells": lambda c: c.incremental(f"(assert {c.cells_clause()})\n"),
    "inc-open": lambda c: c.incremental(f"(assert {c.cells_clause(c.open)})\n"),
    "inc-split": lambda c: c.incremental(f"(assert {c.split_clause()})\n"),
    "inc-bound": lambda c: c.incremental(f"(assert {c.bound_clause()})\n"),
    "inc-both": lambda c: c.incremental(f"(assert {c.cells_clause()})\n(assert {c.bound_clause()})\n"),
    **{f"inc-seed-{k}": (lambda c, k=k: c.incremental(f"(set-option :yices-random-seed {k})\n"
                                                       f"(assert {c.cells_clause()})\n")) for k in (1, 2, 3, 4)},
    **{f"inc-bound-seed-{k}": (lambda c, k=k: c.incremental(f"(set-option :yices-random-seed {k})\n"
                                                             f"(assert {c.bound_clause()})\n")) for k in (1, 2, 3, 4)},
    **{f"{name}-s{k}": (lambda c, k=k, clause=clause: c.incremental(f"(set-option :yices-random-seed {k})\n"
                                                                     f"(assert {clause(c)})\n"))
       for name, clause in (("cells", lambda c: c.cells_clause()), ("bound", lambda c: c.bound_clause()),
                            ("both", lambda c: f"(and {c.cells_clause()} {c.bound_clause()})"))
       for k in range(1, 9)},
    "inc-branch-pos": lambda c: c.incremental(f"(set-option :yices-branching positive)\n(assert {c.cells_clause()})\n"),
    "inc-tree": lambda c: c.incremental(f"(assert {c.tree_clause()})\n"),
    **{f"tree-s{k}": (lambda c, k=k: c.incremental(f"(set-option :yices-random-seed {k})\n"
                                                   f"(assert {c.tree_clause()})\n")) for k in range(1, 9)},
    "fresh-cells": lambda c: c.fresh(c.body, c.cells_clause(c.open)),
    "fresh-bound": lambda c: c.fresh(c.body, c.bound_clause()),
    "fresh-bv": lambda c: c.fresh(*c.bv_body()),
    "z3-fresh": lambda c: c.z3(c.cells_clause(c.open)),
    "probe-pinned": _probe_pinned,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--designs", default=",".join(DESIGNS))
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    names = a.designs.split(",")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "design", "answer", "check_s", "load_s", "extra_s", "conflicts",
                  "first_s", "plain_load_s", "note"])
    for path in a.paths:
        try:
            case = Case(path)
        except ValueError:
            continue
        best: dict[str, dict] = {}
        firsts = []
        for _ in range(a.rounds):
            firsts.append(case.first())
            for name in names:  # the designs alternate within every round
                got = DESIGNS[name](case)
                old = best.get(name)
                if old is None or got["check_s"] + got.get("extra_s", 0) < old["check_s"] + old.get("extra_s", 0):
                    best[name] = got
        first = min(firsts, key=lambda f: f["first_s"])
        reference = best.get("inc-cells", {}).get("answer")
        for name in names:
            got = best[name]
            answer = got["answer"] if reference in (None, got["answer"]) else f"MISMATCH {got['answer']}"
            out.writerow([os.path.basename(path).removesuffix(".txt"), name, answer, f"{got['check_s']:.4f}",
                          f"{got['load_s']:.4f}", f"{got.get('extra_s', 0.0):.4f}", got["conflicts"] if got["conflicts"] == "" else int(got["conflicts"]), f"{first['first_s']:.4f}", f"{first['plain_load_s']:.4f}",
                          got.get("note", "")])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
