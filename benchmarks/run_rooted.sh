#!/usr/bin/env bash
# After the tree encodings were rooted at the clues (commit "Tree encodings: regions rooted at
# their smallest fixed cell"): the fast configurations again, plain and with the uniqueness
# proof, one run per set, 2 jobs, 60 s. The thesis configurations are not re-run (their encoding
# did not change; see run_issue3.sh for their run).
set -euo pipefail
S=${SHARED:-../shared/instances/fillomino}
fillsmt bench "$S/janko-thesis100/puzzles" \
    -c yices/tree-bfs/on -c yices/tree-bfs/on/unique -c z3/tree-bfs/on -c z3/tree-bfs/on/unique -c yices/tree/on \
    --jobs 2 --timeout 60 --csv benchmarks/results/janko-rooted.csv --resume \
    --summary benchmarks/results/janko-rooted.md
fillsmt bench "$S/baron-thesis60/puzzles" \
    -c yices/tree-bfs/on -c yices/tree-bfs/on/unique -c z3/tree-bfs/on -c yices/tree-bfs/off \
    --jobs 2 --timeout 60 --csv benchmarks/results/baron-rooted.csv --resume \
    --summary benchmarks/results/baron-rooted.md
