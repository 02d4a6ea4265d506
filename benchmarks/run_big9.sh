#!/bin/bash
# Issue 17, ninth session (big): what benchmarks/README.md's section "(issue 17, ninth session:
# big)" reports. BEFORE is a checkout of main imported through PYTHONPATH with this worktree's
# venv (both sides run the same yices); results in benchmarks/results/big9-*.
# Usage: run_big9.sh BEFORE_CHECKOUT [STEP...]   STEP: loop closed nice bench (default: all four)
#   loop    janko 330's lazy loop in one process, the variants side by side, 3 passes
#   closed  tree-bfs with and without the closed regions, encoding time and yices CPU
#   nice    the search child at niceness 5 against 19 (SEARCH_BEHIND), 20x20 and 30x30, 4 rounds
#   bench   main and this branch alternately (main first, then branch first), 2 jobs, 60 s:
#           hard-tail and scaling (staged, staged/unique), janko (staged, staged/unique), baron
set -u
cd "$(dirname "$0")/.."
BEFORE=$(realpath "$1"); shift
STEPS=${*:-loop closed nice bench}
PY=.venv/bin/python
S=$(realpath ../shared/instances/fillomino)
R=benchmarks/results
for step in $STEPS; do
    case $step in
    loop)
        uptime
        $PY benchmarks/big9_loop.py "$S/hard-tail/puzzles/330.txt" --passes 3 --csv $R/big9-loop-330.csv \
            --variant base --variant nopack --variant skipclosed --variant nopack,skipclosed \
            --variant opt:yices-randomness=0 --variant opt:random-seed=1 --variant opt:random-seed=2
        $PY benchmarks/big9_loop.py --table $R/big9-loop-330.csv ;;
    closed)
        uptime
        $PY benchmarks/big9_closed.py instances/fillomino/scaling "$S/hard-tail/puzzles/299.txt" \
            "$S/hard-tail/puzzles/207.txt" --csv $R/big9-closed-scaling.csv
        $PY benchmarks/big9_closed.py "$S/janko-thesis100/puzzles" "$S/baron-thesis60/puzzles" \
            --csv $R/big9-closed-janko-baron.csv ;;
    bench)
        # main and this branch through benchmarks/big9_ab.sh (a neutral working directory, so
        # that PYTHONPATH picks the side's code), main first then the branch first
        for round in 1 2; do
            order="$BEFORE $(pwd)"; [ $round = 2 ] && order="$(pwd) $BEFORE"
            for set in hardtail scaling janko baron; do
                case $set in
                    hardtail) src=$S/hard-tail/puzzles; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
                    scaling) src=instances/fillomino/scaling; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
                    janko) src=$S/janko-thesis100/puzzles; cfg="-c yices/default/staged -c yices/default/staged/unique" ;;
                    baron) src=$S/baron-thesis60/puzzles; cfg="-c yices/default/staged" ;;
                esac
                bash benchmarks/big9_ab.sh "$R/big9-R$round-$set" "$src" "$order" $cfg
            done
        done ;;
    nice)
        # the search child at niceness 5 (a copy of this branch's fillsmt in NICE5) against 19
        NICE5=/tmp/big9-nice5; rm -rf $NICE5; mkdir -p $NICE5; cp -r fillsmt $NICE5/
        sed -i 's/^SEARCH_BEHIND = 19$/SEARCH_BEHIND = 5/' $NICE5/fillsmt/pipeline.py
        mkdir -p /tmp/big9-s2030; cp instances/fillomino/scaling/[23]0x*.txt /tmp/big9-s2030/
        for round in 1 2 3 4; do
            order="$NICE5 $(pwd)"; [ $((round % 2)) = 0 ] && order="$(pwd) $NICE5"
            bash benchmarks/big9_ab.sh "$R/big9-nice-r$round" /tmp/big9-s2030 "$order" \
                -c yices/default/staged -c yices/default/staged/unique
        done ;;
    *) echo "run_big9.sh: unknown step $step (loop, closed, nice, bench)" >&2; exit 2 ;;
    esac
done
uptime
