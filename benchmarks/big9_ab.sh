#!/bin/bash
# Two checkouts' fillsmt side by side (issue 17, ninth session: big): bench --jobs 2, one side after
# the other, from a neutral working directory so that PYTHONPATH decides which fillsmt runs (run
# from the worktree itself, `python -m` puts the worktree first on sys.path and both sides would run
# the worktree's code; each side prints the file it imports).
# Usage: big9_ab.sh OUT_PREFIX PUZZLES "A_DIR B_DIR" CONFIG...   (sides in the order given; a side
# is named after its folder, "branch" for this worktree; results OUT_PREFIX-NAME.csv, OUT_PREFIX.load)
set -u
ROOT=$(realpath "$(dirname "$0")/..")
OUT=$(realpath -m "$1"); SRC=$(realpath "$2"); SIDES=$3; shift 3
cd /tmp
for code in $SIDES; do
    code=$(realpath "$code")
    name=$(basename "$code"); [ "$code" = "$ROOT" ] && name=branch
    PYTHONPATH=$code "$ROOT/.venv/bin/python" -c "import fillsmt, sys; sys.stderr.write('side ' + fillsmt.__file__ + '\n')"
    echo "$name $(uptime)" >> "$OUT.load"
    PYTHONPATH=$code "$ROOT/.venv/bin/python" -m fillsmt bench "$SRC" "$@" --jobs 2 --timeout 60 --overwrite \
        --csv "$OUT-$name.csv" --no-progress > /dev/null 2>&1
done
