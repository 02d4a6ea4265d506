#!/bin/sh
# deduce() time with and without the explain instrumentation, interleaved pairs (issue 19).
# Usage (from the repository root, shared sets beside it): sh benchmarks/deduce_overhead.sh BASE_COMMIT [PAIRS]
set -e
BASE=$1; PAIRS=${2:-5}
S=../shared/instances/fillomino
DIR=$(mktemp -d)
# -S: no site-packages, so the editable install cannot shadow PYTHONPATH (deduce needs only the standard library)
git archive "$BASE" fillsmt | tar -x -C "$DIR"
FILES="$S/baron-thesis60/puzzles/*.txt $S/janko-thesis100/puzzles/*.txt"
for i in $(seq "$PAIRS"); do
  echo "base $(PYTHONPATH=$DIR python -S benchmarks/deduce_timing.py --rounds 3 $FILES) this $(PYTHONPATH=. python -S benchmarks/deduce_timing.py --rounds 3 $FILES)"
done
rm -rf "$DIR"
