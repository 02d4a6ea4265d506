#!/bin/bash
# Issue 17, tenth session (big): what benchmarks/README.md's section "(issue 17, tenth session:
# big)" reports. Run from the repository root with the venv made as the brief says.
# Usage: run_big10.sh BEFORE_CHECKOUT [STEP...]   STEP: loop variants bench (default: all three)
#   loop      330's lazy loop, this branch's cuts (base) against the pins alone (nobounds) and the
#             old cuts (nopin), yices seeds 0-5, one process: results/big10-loop-330.csv
#   variants  the other loop variants measured and not kept: results/big10-variants-330.csv
#   bench     BEFORE and this branch one after the other (before first, then the branch first),
#             2 jobs, 60 s, hard-tail staged and staged/unique: results/big10-R{1,2}-hardtail-*.csv
set -eu
BEFORE=$(realpath "$1"); shift
STEPS=${*:-loop variants bench}
PY=.venv/bin/python
S=../shared/instances/fillomino
R=benchmarks/results
for step in $STEPS; do
    case $step in
    loop)
        V=""; for sd in 0 1 2 3 4 5; do
            for v in base nobounds nopin; do V="$V --variant $v:seed=$sd"; done
        done
        $PY benchmarks/big10_loop.py $S/hard-tail/puzzles/330.txt $V --csv $R/big10-loop-330.csv
        $PY benchmarks/big10_loop.py --table $R/big10-loop-330.csv ;;
    variants)
        $PY benchmarks/big10_loop.py $S/hard-tail/puzzles/330.txt --variant base --variant nopin \
            --variant freeze:R=4 --variant freeze:R=1 --variant freeze:stable=2:R=1 --variant count \
            --variant logic=QF_UFLIA --variant dom --csv $R/big10-variants-330.csv
        $PY benchmarks/big10_loop.py --table $R/big10-variants-330.csv ;;
    bench)
        for round in 1 2; do
            order="$BEFORE $(pwd)"; [ $round = 2 ] && order="$(pwd) $BEFORE"
            bash benchmarks/big9_ab.sh "$R/big10-R$round-hardtail" $S/hard-tail/puzzles "$order" \
                -c yices/default/staged -c yices/default/staged/unique
        done ;;
    *) echo "run_big10.sh: unknown step $step (loop, variants, bench)" >&2; exit 2 ;;
    esac
done
uptime
