#!/bin/bash
# The solvers side by side on janko-thesis100: each gets the same presolved script and runs
# alone (--presolve on: no race, no search of the rules' own), so the rows answered by the
# presolve are the same for every solver and the ratios compare the solvers alone.
#   SOLVERS   the solvers (default: z3 yices yices-api cvc5 bitwuzla; bitwuzla gets the
#             bit-vector twin of the default encoding, its own default)
#   PRESOLVE  on (default) or off (the solvers get the whole puzzle)
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/janko-thesis100"
SOLVERS=${SOLVERS:-z3 yices yices-api cvc5 bitwuzla}
PRESOLVE=${PRESOLVE:-on}
args=()
for s in $SOLVERS; do args+=(-s "$s"); done
case " $SOLVERS " in *" yices "*) args+=(--baseline "yices/default/$PRESOLVE") ;; esac
bench "solvers-janko-thesis100-$PRESOLVE" "$SHARED/janko-thesis100/puzzles" "${args[@]}" --presolve "$PRESOLVE" \
    --json "$RESULTS/solvers-janko-thesis100-$PRESOLVE.json"
