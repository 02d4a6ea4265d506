#!/bin/bash
# Final quiet benchmarks of the sixth session (run from /work/main, after all merges)
set -u
cd "$(dirname "$0")/.."
F=.venv/bin/fillsmt
S=../shared/instances/fillomino
R=benchmarks/results
$F --version
$F bench $S/hard-tail/puzzles -c yices/default/staged -c yices/default/staged/unique \
   -c yices/default/race -c yices/default/race/unique \
   --jobs 2 --timeout 60 --overwrite --csv $R/final6-hardtail.csv --summary $R/final6-hardtail.md --no-progress
$F bench $S/janko-thesis100/puzzles -c yices/default/staged -c yices/default/staged/unique \
   --jobs 2 --timeout 60 --overwrite --csv $R/final6-janko.csv --summary $R/final6-janko.md --no-progress
$F bench $S/baron-thesis60/puzzles -c yices/default/staged \
   --jobs 2 --timeout 60 --overwrite --csv $R/final6-baron.csv --summary $R/final6-baron.md --no-progress
$F bench instances/fillomino/scaling -c yices/default/staged \
   --jobs 2 --timeout 60 --overwrite --csv $R/final6-scaling.csv --summary $R/final6-scaling.md --no-progress
