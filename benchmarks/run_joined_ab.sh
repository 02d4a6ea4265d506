#!/usr/bin/env bash
# A/B of how a yices session receives the problem (issue 4): commit 141b6df sent every assert
# on its own, the commits after it send one conjunction. Both versions run interleaved, N pairs
# (default 5), the fast configuration plain and with the uniqueness proof on janko-thesis100,
# 2 jobs, 60 s. Each version runs as `python -m fillsmt` from its own folder (the older one a
# git worktree), with the same interpreter and the same yices binary. Table: benchmarks/results/joined-ab.md.
set -euo pipefail
S=$(realpath "${SHARED:-../shared/instances/fillomino}")
N=${N:-5}
BEFORE=${BEFORE:-141b6df}
OUT=$PWD/benchmarks/results/joined-ab
WT=$(mktemp -d)
trap 'git worktree remove --force "$WT/before" >/dev/null 2>&1 || true; rm -rf "$WT"' EXIT
git worktree add --detach "$WT/before" "$BEFORE" >/dev/null 2>&1
mkdir -p "$OUT"
for i in $(seq 1 "$N"); do
    for side in separate joined; do
        src=$PWD
        [ "$side" = separate ] && src="$WT/before"
        (cd "$src" && python -m fillsmt bench "$S/janko-thesis100/puzzles" \
            -c yices/tree-bfs/on -c yices/tree-bfs/on/unique \
            --jobs 2 --timeout 60 --csv "$OUT/$side-run$i.csv" --overwrite > /dev/null)
    done
done
{
    echo "### one assert per constraint (before, $BEFORE)"; echo
    python benchmarks/repeat_table.py "$OUT"/separate-run*.csv; echo
    echo "### one conjunction (now)"; echo
    python benchmarks/repeat_table.py "$OUT"/joined-run*.csv
} > benchmarks/results/joined-ab.md
