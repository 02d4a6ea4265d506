#!/bin/bash
# Bitwuzla on Fillomino: janko-thesis100 and the hard tail, the whole puzzle to the solver
# (--presolve off: no presolve, no race, as `fillsmt solve --solver bitwuzla --no-race
# --no-presolve` runs it), plain and --unique; Bitwuzla gets the kind's choice for bit-vectors
# (bv-by-area: the lazy cuts over bit-vectors on a large open area, else tree-bfs-bv) by default.
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/janko-thesis100"
need_set "$SHARED/hard-tail"
name=bitwuzla-fillomino
echo "$name: load average before $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
"$FILLSMT" bench "$SHARED/janko-thesis100/puzzles" "$SHARED/hard-tail/puzzles" \
    -c bitwuzla/default/off -c bitwuzla/default/off/unique \
    --jobs "$JOBS" --timeout "$TIMEOUT" --overwrite --no-progress \
    --csv "$RESULTS/$name.csv" --summary "$RESULTS/$name.md"
echo "$name: load average after $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
