#!/bin/bash
# Issue 17, eighth session (big): main (BEFORE, a checkout imported through PYTHONPATH with this
# worktree's venv) and this branch, one after the other, each `--jobs 2`, 60 s.
# Usage: run_big8.sh BEFORE_CHECKOUT [SET...]   SET: hardtail scaling (default: both)
# Results: benchmarks/results/big8-SET-{main,branch}.{csv,md}
set -u
cd "$(dirname "$0")/.."
BEFORE=$(realpath "$1"); shift
SETS=${*:-hardtail scaling}
S=$(realpath ../shared/instances/fillomino)
R=$(realpath benchmarks/results)
for set in $SETS; do
    case $set in
        hardtail) src=$S/hard-tail/puzzles ;;
        scaling) src=$(pwd)/instances/fillomino/scaling ;;
    esac
    for side in main branch; do
        code=$(pwd); [ $side = main ] && code=$BEFORE
        uptime
        PYTHONPATH=$code .venv/bin/python -m fillsmt bench "$src" -c yices/default/staged \
            -c yices/default/staged/unique --jobs 2 --timeout 60 --overwrite \
            --csv "$R/big8-$set-$side.csv" --summary "$R/big8-$set-$side.md" --no-progress
    done
done
uptime
