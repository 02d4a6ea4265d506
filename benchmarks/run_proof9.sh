#!/bin/bash
# Issue 17, ninth session (proofs): each uniqueness proof against its plain solve, same run.
# janko-thesis100 with both configurations in one bench run, the hard tail with --unique (and the
# plain solve, for the ratio), Baron plain, the scaling set both; 2 jobs, 60 s. CSVs and summaries in
# benchmarks/results/proof9-{janko,hardtail,baron,scaling}-TAG.{csv,md}; the table: benchmarks/proof9_table.py.
#
#   bash benchmarks/run_proof9.sh branch                          # this tree's .venv
#   python3 -m venv /tmp/venv9 && /tmp/venv9/bin/pip install /work/main   # main, NOT editable
#   F=/tmp/venv9/bin/fillsmt bash benchmarks/run_proof9.sh main
# (PYTHONPATH does not override an editable install: its import hook comes first.)
set -u
cd "$(dirname "$0")/.."
F=${F:-.venv/bin/fillsmt}
S=../shared/instances/fillomino
R=benchmarks/results
TAG=${1:?usage: run_proof9.sh TAG}
run() {  # set name, puzzle folder, configurations
    echo "$(date -u +%T) $1 $TAG: $(uptime | sed 's/.*load/load/')"
    $F bench "$2" $3 --jobs 2 --timeout 60 --overwrite --csv "$R/proof9-$1-$TAG.csv" --summary "$R/proof9-$1-$TAG.md" --no-progress
}
$F --version
run janko "$S/janko-thesis100/puzzles" "-c yices/default/staged -c yices/default/staged/unique"
run hardtail "$S/hard-tail/puzzles" "-c yices/default/staged -c yices/default/staged/unique"
run baron "$S/baron-thesis60/puzzles" "-c yices/default/staged"
run scaling instances/fillomino/scaling "-c yices/default/staged -c yices/default/staged/unique"
echo "$(date -u +%T) done: $(uptime | sed 's/.*load/load/')"
