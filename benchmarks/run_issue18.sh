#!/usr/bin/env bash
# Issue 18: every SMT solver side by side, and the exported benchmark family checked.
#
# 1. One bench run over janko-thesis100: z3, yices, yices-api and cvc5 on the default encoding
#    (tree-bfs), Bitwuzla on its bit-vector twin (tree-bfs-bv), and yices on tree-bfs-bv too, so
#    Bitwuzla has a same-encoding partner; no presolve (the solvers do all the work); 2 jobs, 60 s.
# 2. fillsmt export of janko-thesis100 and baron-thesis60, default and thesis encodings, both
#    families, into a folder outside the repository (the puzzles' texts stay in shared/).
# 3. Every exported file run by the z3 and yices binaries against its :status (the thesis files
#    with a shorter limit: z3 and yices need 7-10 s for the median janko puzzle in that encoding).
set -euo pipefail
S=${SHARED:-../shared/instances/fillomino}
OUT=${EXPORT_DIR:-/tmp/fillsmt-export/family2}
fillsmt bench "$S/janko-thesis100/puzzles" \
    -c yices/tree-bfs/off -c yices-api/tree-bfs/off -c z3/tree-bfs/off -c cvc5/tree-bfs/off \
    -c bitwuzla/tree-bfs-bv/off -c yices/tree-bfs-bv/off \
    --jobs "${JOBS:-2}" --timeout 60 --csv benchmarks/results/janko-solvers.csv --resume \
    --summary benchmarks/results/janko-solvers.md --plot benchmarks/results/janko-solvers-cactus.png \
    --scatter benchmarks/results/janko-solvers-scatter.png --scatter-against yices-api/tree-bfs/off --no-progress
fillsmt export "$S/janko-thesis100/puzzles" "$S/baron-thesis60/puzzles" -o "$OUT" \
    -e default -e thesis -t 120 --resume
python benchmarks/check_export_status.py "$OUT" --encoding tree-bfs --timeout 60 --jobs 1 \
    --csv benchmarks/results/export-status.csv --md benchmarks/results/export-status.md
python benchmarks/check_export_status.py "$OUT" --encoding thesis --timeout "${CHECK_TIMEOUT:-10}" --jobs 1 \
    --csv benchmarks/results/export-status-thesis.csv --md benchmarks/results/export-status-thesis.md
