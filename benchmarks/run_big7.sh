#!/bin/bash
# Issue 17, seventh session (big): main (before) and this branch (after) side by side, each
# `--jobs 1`, run at the same time (two jobs in all). Usage: run_big7.sh BEFORE_CHECKOUT [SET...]
# SET: hardtail janko baron scaling (default: all four). Results: benchmarks/results/big7-SET-{before,after}.{csv,md}
set -u
cd "$(dirname "$0")/.."
BEFORE=$1; shift
SETS=${*:-hardtail janko baron scaling}
S=$(realpath ../shared/instances/fillomino)
R=$(realpath benchmarks/results)
AFTER=$(pwd)
for set in $SETS; do
    case $set in
        hardtail) src=$S/hard-tail/puzzles; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
        janko) src=$S/janko-thesis100/puzzles; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
        baron) src=$S/baron-thesis60/puzzles; cfg="-c yices/default/staged" ;;
        scaling) src=$AFTER/instances/fillomino/scaling; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
    esac
    uptime
    for side in before after; do
        dir=$AFTER; [ $side = before ] && dir=$BEFORE
        (cd "$dir" && .venv/bin/fillsmt bench "$src" $cfg --jobs 1 --timeout 60 --overwrite \
            --csv "$R/big7-$set-$side.csv" --summary "$R/big7-$set-$side.md" --no-progress) &
    done
    wait
    uptime
done
