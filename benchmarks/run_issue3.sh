#!/usr/bin/env bash
# The issue-3 benchmark: the thesis encoding with z3 and yices (60 s limit) against the fast
# configurations, one `fillsmt bench` run per set, 2 jobs at a time. Re-run with the same
# command to finish an interrupted run (--resume keeps the rows already written).
set -euo pipefail
S=${SHARED:-../shared/instances/fillomino}
CONFIGS=(-c z3/thesis/off -c yices/thesis/off -c yices/tree-bfs/on -c z3/tree-bfs/on -c yices/tree/on -c yices/tree-bfs/off)
fillsmt bench "$S/janko-thesis100/puzzles" "${CONFIGS[@]}" \
    --jobs 2 --timeout 60 --baseline z3/thesis/off \
    --csv benchmarks/results/janko-thesis100.csv --resume \
    --plot benchmarks/results/janko-thesis100-cactus.png --summary benchmarks/results/janko-thesis100.md
fillsmt bench "$S/baron-thesis60/puzzles" "${CONFIGS[@]}" \
    --jobs 2 --timeout 60 --baseline z3/thesis/off \
    --csv benchmarks/results/baron-thesis60.csv --resume \
    --plot benchmarks/results/baron-thesis60-cactus.png --summary benchmarks/results/baron-thesis60.md
