#!/bin/sh
# Issue 17, fourteenth session: main's install against this branch's, alternately (A/B, then
# B/A), the default staged race plain and --unique, 60 s, on the big-region set with the hard
# tail, and on janko-thesis100; ROUNDS rounds with JOBS bench jobs. The load (uptime) before
# each run goes to benchmarks/results/stall14-load.txt.
#   sh benchmarks/stall14_ab.sh ROUNDS JOBS TAG [janko]
set -e
ROUNDS=$1 JOBS=$2 TAG=$3 JANKO=${4:-}
MAIN=/work/main/.venv/bin/fillsmt
BRANCH=.venv/bin/fillsmt
S=../shared/instances/fillomino
OUT=benchmarks/results
run() {  # side fillsmt round
    echo "$(date -u +%H:%M:%S) $TAG $1 round $3 jobs $JOBS: $(uptime)" >> $OUT/stall14-load.txt
    $2 bench instances/fillomino/big-regions $S/hard-tail/puzzles -c yices/default/staged \
        -c yices/default/staged/unique --jobs $JOBS --timeout 60 --overwrite \
        --csv $OUT/stall14-$TAG-$1-$3.csv > /dev/null
    if [ -n "$JANKO" ]; then
        $2 bench $S/janko-thesis100/puzzles -c yices/default/staged -c yices/default/staged/unique \
            --jobs $JOBS --timeout 60 --overwrite --csv $OUT/stall14-$TAG-janko-$1-$3.csv > /dev/null
    fi
}
r=1
while [ $r -le $ROUNDS ]; do
    if [ $((r % 2)) -eq 1 ]; then run main $MAIN $r; run branch $BRANCH $r
    else run branch $BRANCH $r; run main $MAIN $r; fi
    r=$((r + 1))
done
