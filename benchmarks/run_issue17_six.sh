#!/bin/bash
# Issue 17, sixth session: the old default (yices/default/race) beside the staged race
# (yices/default/staged) on every set, one bench run per set, 2 jobs, 60 s (run from the checkout).
set -u
cd "$(dirname "$0")/.."
F=.venv/bin/fillsmt
S=../shared/instances/fillomino
R=benchmarks/results
C="-c yices/default/race -c yices/default/staged -c yices/default/race/unique -c yices/default/staged/unique"
$F --version
uptime
$F bench $S/hard-tail/puzzles $C --jobs 2 --timeout 60 --overwrite --csv $R/six-hardtail.csv --summary $R/six-hardtail.md --no-progress
uptime
$F bench $S/janko-thesis100/puzzles $C --jobs 2 --timeout 60 --overwrite --csv $R/six-janko.csv --summary $R/six-janko.md --no-progress
uptime
$F bench instances/fillomino/scaling $C --jobs 2 --timeout 60 --overwrite --csv $R/six-scaling.csv --summary $R/six-scaling.md --no-progress
uptime
$F bench $S/baron-thesis60/puzzles -c yices/default/race -c yices/default/staged --jobs 2 --timeout 60 --overwrite --csv $R/six-baron.csv --summary $R/six-baron.md --no-progress
uptime
