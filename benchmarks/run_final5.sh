#!/bin/bash
# Final quiet benchmarks of the fifth session (run from /work/main, after all merges)
set -u
cd "$(dirname "$0")/.."
F=.venv/bin/fillsmt
S=../shared/instances/fillomino
R=benchmarks/results
$F --version
$F bench $S/hard-tail/puzzles -c yices/default/race -c yices/default/race/unique \
   -c yices/lazy-local-general/race -c yices/lazy-local-general/race/unique \
   -c z3-prop/default/race -c z3-prop/default/race/unique \
   --jobs 2 --timeout 60 --overwrite --csv $R/final5-hardtail.csv --summary $R/final5-hardtail.md --no-progress
$F bench $S/janko-thesis100/puzzles -c yices/default/race -c yices/default/race/unique \
   --jobs 2 --timeout 60 --overwrite --csv $R/final5-janko.csv --summary $R/final5-janko.md --no-progress
$F bench $S/baron-thesis60/puzzles -c yices/default/race \
   --jobs 2 --timeout 60 --overwrite --csv $R/final5-baron.csv --summary $R/final5-baron.md --no-progress
$F bench instances/fillomino/scaling -c yices/default/race -c yices/lazy-local-general/race \
   --jobs 2 --timeout 60 --overwrite --csv $R/final5-scaling.csv --summary $R/final5-scaling.md --no-progress
