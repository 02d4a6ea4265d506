#!/bin/bash
# Every table of benchmarks/README.md, one after the other (nothing else should run meanwhile).
# The peer needs its binary: CSPUZ=/path/to/cspuz_fillomino (see peer_cspuz.sh).
set -eu
here=$(dirname "$0")
cd "$here/.."
SHARED=${SHARED:-../shared/instances/fillomino}
# BEFORE: another fillsmt program (an earlier checkout's installation) raced by turns, if set.
python benchmarks/race_under_load.py "$SHARED/hard-tail" "$SHARED/janko-dev100" "$SHARED/janko-thesis100" \
    instances/fillomino/scaling --unique --entrants --timeout 6 --rounds 3 --jobs 1 --busy 1 \
    ${BEFORE:+--against "$BEFORE"} --work benchmarks/results/race-under-load
python benchmarks/race_under_load.py "$SHARED/baron-thesis60" --unique --timeout 20 --rounds 3 --jobs 1 --busy 1 \
    ${BEFORE:+--against "$BEFORE"} --work benchmarks/results/race-thesis
python benchmarks/race_under_load.py "$SHARED/janko-thesis100/puzzles" instances/fillomino/scaling \
    --unique --rounds 2 --work benchmarks/results/race-janko-scaling
bash benchmarks/baron.sh
bash benchmarks/solvers.sh
bash benchmarks/bitwuzla.sh
bash benchmarks/smtcomp.sh
python benchmarks/encoding_alone.py --work /tmp/encoding-alone --csv benchmarks/results/encoding-alone.csv
python benchmarks/encoding_alone.py "$SHARED/hard-tail/puzzles" "$SHARED/janko-dev100/puzzles" \
    instances/fillomino/scaling -e tree-bfs --limit 60 --jobs 1 --work /tmp/encoding-alone-dev \
    --csv benchmarks/results/encoding-alone-dev.csv
python benchmarks/encoding_alone.py "$SHARED/hard-tail/puzzles" "$SHARED/janko-dev100/puzzles" \
    instances/fillomino/scaling -e tree-bfs-presolve --limit 60 --jobs 2 --work /tmp/encoding-alone-presolve \
    --csv benchmarks/results/encoding-alone-presolve.csv
python benchmarks/explain_sets.py --sets janko-thesis100,janko-dev100
python benchmarks/generate.py --sizes 20,30,50 --seeds 1-5 --busy 1
python benchmarks/generate.py --sizes 10,15,20 --seeds 1-3 --rate -- --difficulty hard
python benchmarks/generate.py --sizes 10,15,20 --seeds 1-3 --rate -- --difficulty fiendish
if [ -n "${CSPUZ:-}" ]; then bash benchmarks/peer_cspuz.sh; fi
python benchmarks/startup.py instances/fillomino/scaling/10x10-*.txt \
    $(ls "$SHARED/janko-thesis100/puzzles/"*.txt | head -3) --rounds 20 ${BEFORE:+--against "$BEFORE"}
if [ -n "${BEFORE:-}" ]; then
    python benchmarks/before_after.py "$SHARED/hard-tail" "$SHARED/janko-dev100" "$SHARED/janko-thesis100" \
        instances/fillomino/scaling --against "$BEFORE" --rounds 3
fi
