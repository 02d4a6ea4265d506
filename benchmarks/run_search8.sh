#!/bin/bash
# Issue 17, eighth session (search): main and this branch side by side.
#   bash benchmarks/run_search8.sh OLD NEW VENV OUT   (OUT: a path prefix, e.g.
#   repo/benchmarks/results/search8; run from the directory above the repository,
#   beside shared/: the puzzle paths below are relative to it)
# OLD and NEW are source trees holding fillsmt/ and benchmarks/ (e.g. `git archive HEAD fillsmt
# benchmarks | tar -x -C DIR` of each checkout, so that a merge during the run changes nothing);
# VENV a virtual environment with fillsmt's dependencies (its bin/ holding yices-smt2 and z3), whose
# python PYTHONPATH points at the code to run.
# 1. The search alone (CPU s, nodes), old then new, twice: 266 solve and proof, 286 proof, 299,
#    485, 207 (search_designs.py, design strong, 30 s CPU each).
# 2. fillsmt bench, hard-tail and janko-thesis100, staged and staged/unique, 60 s, the two trees
#    at the same time, --jobs 1 each (two jobs in all).
set -u
OLD=$1 NEW=$2 VENV=$3 OUT=$4
S=shared/instances/fillomino
H=$S/hard-tail/puzzles
mkdir -p "$(dirname "$OUT")"
search() {  # $1 old|new, $2 its tree, $3 run
  env PYTHONPATH=$2 $VENV/bin/python $2/benchmarks/search_designs.py \
    $H/266.txt $S/janko-thesis100/puzzles/286.txt $H/299.txt $H/485.txt $H/207.txt \
    --design strong --limit 1 --limit 2 --cpu --timeout 30 --csv $OUT-search-$1-$3.csv 2>/dev/null
}
uptime
for run in 1 2; do search old "$OLD" $run; search new "$NEW" $run; done
bench() {  # $1 old|new, $2 its tree
  P="env PATH=$VENV/bin:$PATH PYTHONPATH=$2 $VENV/bin/python -m fillsmt bench"
  $P $H -c yices/default/staged -c yices/default/staged/unique \
     --jobs 1 --timeout 60 --overwrite --csv $OUT-hardtail-$1.csv --no-progress
  $P $S/janko-thesis100/puzzles -c yices/default/staged -c yices/default/staged/unique \
     --jobs 1 --timeout 60 --overwrite --csv $OUT-janko-$1.csv --no-progress
}
uptime
bench old "$OLD" > $OUT-bench-old.log 2>&1 &
bench new "$NEW" > $OUT-bench-new.log 2>&1 &
wait
uptime
