#!/usr/bin/env bash
# The issue-4 benchmark: plain solve against solve + uniqueness proof (one incremental session),
# yices and z3, best encoding with presolve, on janko-thesis100; one run, 2 jobs, 60 s.
set -euo pipefail
S=${SHARED:-../shared/instances/fillomino}
fillsmt bench "$S/janko-thesis100/puzzles" \
    -c yices/tree-bfs/on -c yices/tree-bfs/on/unique -c z3/tree-bfs/on -c z3/tree-bfs/on/unique \
    --jobs 2 --timeout 60 --csv benchmarks/results/janko-unique.csv --resume \
    --summary benchmarks/results/janko-unique.md
