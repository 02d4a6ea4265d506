#!/usr/bin/env bash
# The fast configuration on janko-thesis100, plain and with the uniqueness proof, run N times
# (default 5), 2 jobs, 60 s: how much the slowest puzzle (286) and the proof ratios move from
# run to run. Then the table of benchmarks/results/janko-repeat.md.
set -euo pipefail
S=${SHARED:-../shared/instances/fillomino}
N=${N:-5}
OUT=benchmarks/results/janko-repeat
mkdir -p "$OUT"
for i in $(seq 1 "$N"); do
    fillsmt bench "$S/janko-thesis100/puzzles" -c yices/tree-bfs/on -c yices/tree-bfs/on/unique \
        --jobs 2 --timeout 60 --csv "$OUT/run$i.csv" --overwrite > /dev/null
done
python benchmarks/repeat_table.py "$OUT"/run*.csv > benchmarks/results/janko-repeat.md
