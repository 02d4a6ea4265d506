"""The wrong components of 330's lazy loop, round by round, by kind (issue 17, tenth session: big).

    python benchmarks/big10_classify.py [PUZZLE]

For each round: how many components are wrong, split by too big / too small, whether they hold
a cell the presolve fixed ("fix") or not ("free"), and how far their size is from their number
(k1: one cell, k2: two, k3+: more). Cuts as before this session (no pins, no bounds).
"""
import os, sys, time
from collections import Counter
from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.lazy import _components_with_trees
from fillsmt.solutions import Search, Status
p = sys.argv[1] if len(sys.argv) > 1 else '../shared/instances/fillomino/hard-tail/puzzles/330.txt'
puzzle=KIND.parse(open(p).read(),p)
found=KIND.presolve(puzzle)
script=KIND.encode(found.puzzle,"lazy-local-general",found.hints)
problem=KIND.problem(puzzle,script,"lazy-local-general","yices")
dom=found.hints
fixed=set(x for x in range(puzzle.height*puzzle.width) if len(dom[x])==1)
with get_driver("yices").open_session() as s:
    search=Search(problem,s); search.start()
    r=0
    while True:
        st=search.check(); r+=1
        grid,raw=search._decoded()
        c=Counter()
        for k,cells,_ in _components_with_trees(grid):
            if len(cells)==k: continue
            kind = "big" if len(cells)>k else "small"
            hasfix = any(x in fixed for x in cells)
            c[(kind, "fix" if hasfix else "free", "k1" if k-len(cells)==1 else ("k2" if abs(k-len(cells))==2 else "k3+"))]+=1
        print(r, sum(c.values()), sorted(c.items()))
        cuts=problem.cuts.func(grid)
        if not cuts: break
        s.send("".join(f"(assert {x})\n" for x in cuts))
