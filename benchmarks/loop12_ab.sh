#!/bin/bash
# Whole-process A/B of two fillsmt installs (issue 17, twelfth session: loop12): `fillsmt solve PUZZLE
# --timeout 60` under /usr/bin/time, the sides alternating (which side goes first alternates by
# round), from /tmp. One CSV line per run: round,side,puzzle,wall,user,sys,status,answered (a side
# whose path holds "main" is main). Compile both sides' modules first (python -m compileall): with
# PYTHONDONTWRITEBYTECODE set (as in this session's shells) a checkout without __pycache__ compiles
# every module it imports at each start, 0.03-0.05 s that no installed package pays; the sides
# used here (benchmarks/README.md, twelfth session) were wrappers running one python with
# PYTHONPATH=<compiled copy of main> or <this worktree, compiled>.
# Usage: loop12_ab.sh OUT.csv ROUNDS "A_FILLSMT B_FILLSMT" PUZZLE... [-- EXTRA SOLVE ARGS]
set -u
OUT=$(realpath -m "$1"); ROUNDS=$2; read -r A B <<< "$3"; shift 3
PUZZLES=(); EXTRA=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; EXTRA=("$@"); break; fi
    PUZZLES+=("$(realpath "$1")"); shift
done
[ -f "$OUT" ] || echo "round,side,puzzle,wall,user,sys,status,answered" > "$OUT"
cd /tmp
side_name() { case "$1" in */main/*|*main-*) echo main ;; *) echo branch ;; esac; }
for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then ORDER="$A $B"; else ORDER="$B $A"; fi
    for p in "${PUZZLES[@]}"; do
        for exe in $ORDER; do
            /usr/bin/time -o /tmp/loop12_ab_time -f "%e,%U,%S" "$exe" solve "$p" --timeout 60 --format json "${EXTRA[@]}" \
                > /tmp/loop12_ab_out.json 2>/dev/null; t=$(tail -1 /tmp/loop12_ab_time)
            st=$(python3 -c "import json; d=json.load(open('/tmp/loop12_ab_out.json')); print(d['status'] + ',' + (d.get('solver') or '') + '/' + (d.get('encoding') or ''))" 2>/dev/null || echo "error,")
            echo "$r,$(side_name "$exe"),$(basename "$p"),$t,$st" >> "$OUT"
        done
    done
done
