#!/bin/bash
# A session's final quiet benchmarks (run after all merges, nothing else running): the hard tail,
# janko-thesis100, Baron thesis60, the scaling set and (finalN) the big-region set, 2 jobs, 60 s, each set's CSV and summary in
# benchmarks/results/SESSION-{hardtail,janko,baron,scaling,bigregions}.{csv,md}.
#
#   bash benchmarks/run_final.sh final5   # fifth session: race, lazy-local-general, z3-prop
#   bash benchmarks/run_final.sh final6   # sixth session: staged (the new default) and race
#   bash benchmarks/run_final.sh final7   # seventh session: staged (the default) only
#   bash benchmarks/run_final.sh final8   # eighth session: the same configurations as final7
#   bash benchmarks/run_final.sh final9   # ninth session: the same configurations as final7
#   bash benchmarks/run_final.sh final10  # any later finalN: the same configurations as final7
#
# A session that changes the configurations adds its case above the finalN default below.
set -u
cd "$(dirname "$0")/.."
F=.venv/bin/fillsmt
S=../shared/instances/fillomino
R=benchmarks/results
SESSION=${1:?usage: run_final.sh finalN (final5, final6, or any later N)}
case "$SESSION" in
final5)
    HARDTAIL="-c yices/default/race -c yices/default/race/unique -c yices/lazy-local-general/race
              -c yices/lazy-local-general/race/unique -c z3-prop/default/race -c z3-prop/default/race/unique"
    JANKO="-c yices/default/race -c yices/default/race/unique"
    BARON="-c yices/default/race"
    SCALING="-c yices/default/race -c yices/lazy-local-general/race" ;;
final6)
    HARDTAIL="-c yices/default/staged -c yices/default/staged/unique -c yices/default/race -c yices/default/race/unique"
    JANKO="-c yices/default/staged -c yices/default/staged/unique"
    BARON="-c yices/default/staged"
    SCALING="-c yices/default/staged" ;;
final[0-9]*)
    HARDTAIL="-c yices/default/staged -c yices/default/staged/unique"
    JANKO="-c yices/default/staged -c yices/default/staged/unique"
    BARON="-c yices/default/staged"
    SCALING="-c yices/default/staged -c yices/default/staged/unique"
    BIGREGIONS="-c yices/default/staged -c yices/default/staged/unique" ;;
*)
    echo "run_final.sh: unknown session $SESSION; expected finalN (final5, final6, final7, ...)" >&2
    exit 2 ;;
esac
run() {  # set name, puzzle folder, configurations (one word each)
    $F bench "$2" $3 --jobs 2 --timeout 60 --overwrite --csv "$R/$SESSION-$1.csv" --summary "$R/$SESSION-$1.md" --no-progress
}
$F --version
run hardtail "$S/hard-tail/puzzles" "$HARDTAIL"
run janko "$S/janko-thesis100/puzzles" "$JANKO"
run baron "$S/baron-thesis60/puzzles" "$BARON"
run scaling instances/fillomino/scaling "$SCALING"
if [ -n "${BIGREGIONS:-}" ]; then  # finalN: the big-region puzzles made here (added in the thirteenth session)
    run bigregions instances/fillomino/big-regions "$BIGREGIONS"
fi
