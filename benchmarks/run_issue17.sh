#!/bin/sh
# Issue 17 (the hard tail) and the scaling table: the plain configuration (deduction rules, then
# yices) against the race (the rules' search beside yices), plain solve and with the uniqueness
# proof, one run per set, 2 jobs. Run from the repository root with the shared sets beside it;
# re-running resumes (--resume).
set -e
S=../shared/instances/fillomino
R=benchmarks/results
C="-c yices/tree-bfs/on -c yices/tree-bfs/race -c yices/tree-bfs/on/unique -c yices/tree-bfs/race/unique"
fillsmt bench $S/hard-tail/puzzles $C --jobs 2 --timeout 60 --csv $R/hardtail.csv --resume --summary $R/hardtail.md
fillsmt bench $S/janko-thesis100/puzzles $C --jobs 2 --timeout 60 --csv $R/janko-race.csv --resume --summary $R/janko-race.md
fillsmt bench $S/baron-thesis60/puzzles -c yices/tree-bfs/on -c yices/tree-bfs/race --jobs 2 --timeout 60 \
    --csv $R/baron-race.csv --resume --summary $R/baron-race.md
fillsmt bench instances/fillomino/scaling $C --jobs 2 --timeout 60 --csv $R/scaling.csv --resume --summary $R/scaling.md
