#!/bin/bash
# Issue 17, ninth session (start-up): whole-process wall and CPU time of short commands
# (`--version`, `--help`, `solve --help`, `solve` and `solve --unique` of a small Fillomino) as a
# user runs them: two regular (not editable) installs, each in a fresh venv made by pip from a
# git revision, BEFORE (default main) and AFTER (default HEAD); 20 alternating runs of each
# command (benchmarks/startup_table.py), rows in benchmarks/results/startup9.csv.
#
#   bash benchmarks/run_startup9.sh [BEFORE_REV] [AFTER_REV]
#
# Editable installs (pip install -e) pay about 10 ms more at every start (setuptools' finder
# imports pathlib and urllib), the same on both sides.
set -eu
cd "$(dirname "$0")/.."
BEFORE=${1:-main}
AFTER=${2:-HEAD}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fillsmt-startup9.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for side in before after; do
    rev=$BEFORE; [ "$side" = after ] && rev=$AFTER
    mkdir -p "$WORK/$side-src"
    git archive "$rev" | tar -x -C "$WORK/$side-src"
    python3 -m venv "$WORK/$side"
    "$WORK/$side/bin/pip" install -q "$WORK/$side-src" 2>&1 | grep -v '^WARNING: Location' || true
    echo "$side: $rev ($(git rev-parse --short "$rev"))"
done
mkdir -p benchmarks/results
python3 benchmarks/startup_table.py --before "$WORK/before" --after "$WORK/after" --runs 20 \
    --csv benchmarks/results/startup9.csv
