#!/usr/bin/env bash
# The issue-5 benchmark: BlockNumber (Suguru) through `fillsmt bench`, the default one-hot
# encoding with yices and z3, plain and with the uniqueness proof; one run, 2 jobs (JOBS=1 on a
# busy machine), 60 s.
# The summary's stage table splits solver time (solve) from end-to-end time (total), and its
# size table gives both per puzzle size (15x15 included).
set -euo pipefail
S=${SHARED:-../shared/instances/blocknumber}
fillsmt bench "$S/suguru-sat-testcases/puzzles" \
    -c yices/onehot/on -c yices/onehot/on/unique -c z3/onehot/on -c z3/onehot/on/unique \
    --jobs "${JOBS:-2}" --timeout 60 --csv benchmarks/results/suguru-bench.csv --resume \
    --summary benchmarks/results/suguru-bench.md
