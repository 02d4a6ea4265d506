#!/bin/bash
# Issue 17, seventh session (small): main and this branch side by side, --jobs 1 each (two jobs
# in all), 60 s. OLD and NEW are source trees holding a fillsmt/ package (e.g. `git archive HEAD
# fillsmt | tar -x -C DIR` of each checkout, so that a merge into main during the run changes
# nothing); VENV a virtual environment with fillsmt's dependencies but without an editable
# fillsmt (its bin/ holding yices-smt2 and z3), so that PYTHONPATH chooses the code.
#   bash benchmarks/run_small17.sh OLD NEW VENV OUT   (run from the directory above the
#   repository, beside shared/: the puzzle paths below are relative to it)
set -u
OLD=$1 NEW=$2 VENV=$3 OUT=$4
S=shared/instances/fillomino
SCALING=$(cd "$(dirname "$0")/.." && pwd)/instances/fillomino/scaling
one() {  # $1 old|new, $2 its tree
  P="env PYTHONPATH=$2 $VENV/bin/python -m fillsmt bench"
  $P $S/hard-tail/puzzles -c yices/default/staged -c yices/default/staged/unique \
     --jobs 1 --timeout 60 --overwrite --csv $OUT/B-hardtail-$1.csv --no-progress
  $P $S/janko-thesis100/puzzles -c yices/default/staged -c yices/default/staged/unique \
     --jobs 1 --timeout 60 --overwrite --csv $OUT/B-janko-$1.csv --no-progress
  $P $S/baron-thesis60/puzzles -c yices/default/staged \
     --jobs 1 --timeout 60 --overwrite --csv $OUT/B-baron-$1.csv --no-progress
  $P $SCALING -c yices/default/staged -c yices/default/staged/unique \
     --jobs 1 --timeout 60 --overwrite --csv $OUT/B-scaling-$1.csv --no-progress
}
uptime
one old "$OLD" > $OUT/B-old.log 2>&1 &
one new "$NEW" > $OUT/B-new.log 2>&1 &
wait
uptime
