#!/bin/sh
# Issue 17, fourteenth session: the janko-thesis100 puzzles that reach the race (the quick search
# does not settle them), one solve at a time, main's install and this branch's alternately
# (order swapped every round), plain and --unique; wall seconds from /usr/bin/time.
#   sh benchmarks/stall14_janko_ab.sh ROUNDS PUZZLE... > benchmarks/results/stall14-janko-ab.csv
ROUNDS=$1; shift
MAIN=/work/main/.venv/bin/fillsmt
BRANCH=.venv/bin/fillsmt
echo "round,puzzle,mode,side,wall"
r=1
while [ $r -le $ROUNDS ]; do
    for p in "$@"; do
        for mode in plain unique; do
            flag=""; [ $mode = unique ] && flag="--unique"
            if [ $((r % 2)) -eq 1 ]; then order="main branch"; else order="branch main"; fi
            for side in $order; do
                bin=$MAIN; [ $side = branch ] && bin=$BRANCH
                /usr/bin/time -f "%e" -o /tmp/stall14-time.$$ $bin solve $p $flag > /dev/null 2>&1
                t=$(cat /tmp/stall14-time.$$)
                echo "$r,$(basename $p .txt),$mode,$side,$t"
            done
        done
    done
    r=$((r + 1))
done
