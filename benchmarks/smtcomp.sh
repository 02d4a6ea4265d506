#!/bin/bash
# SMT-COMP's measurement and scores, on the puzzle files without the presolve (every solver run
# measured by BenchExec) and on the same puzzles exported as .smt2 files (the plain family, in the
# SMT-LIB library's layout) run as they are; the solved counts per solver must be the same.
#   janko-thesis100 and the hard tail: z3, yices and cvc5 (the tables were made before Fillomino had
#     a bit-vector encoding; Bitwuzla's Fillomino runs are bitwuzla.sh's);
#   suguru-sat-testcases (BlockNumber): z3, yices, cvc5 and Bitwuzla, which gets the bv encoding.
#   STEP      puzzles, files or all (default): each step is one locked run of its own
#   WORK      where the exported families and the JSON reports go (default /tmp/fillsmt-smtcomp)
#   MEMLIMIT  MB per solver run (default 4000)
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/janko-thesis100"
need_set "$SHARED/hard-tail"
SUGURU=${SUGURU:-$SHARED/../blocknumber/suguru-sat-testcases/puzzles}
STEP=${STEP:-all}
WORK=${WORK:-/tmp/fillsmt-smtcomp}
MEMLIMIT=${MEMLIMIT:-4000}
FILLOMINO=("$SHARED/janko-thesis100/puzzles" "$SHARED/hard-tail/puzzles")
common=(--jobs "$JOBS" --timeout "$TIMEOUT" --memlimit "$MEMLIMIT" --overwrite --no-progress)
mkdir -p "$WORK"

load() { echo "$1: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2; }

run() {  # NAME PUZZLES-OR-FOLDERS... -- SOLVER OPTIONS...: results/NAME.{csv,md}, WORK/NAME.json
    local name=$1
    shift
    local inputs=()
    while [ "$1" != -- ]; do inputs+=("$1"); shift; done
    shift
    load "$name before"
    "$FILLSMT" bench "${inputs[@]}" "$@" "${common[@]}" \
        --csv "$RESULTS/$name.csv" --summary "$RESULTS/$name.md" --json "$WORK/$name.json"
    load "$name after"
}

if [ "$STEP" = puzzles ] || [ "$STEP" = all ]; then
    run smtcomp-puzzles "${FILLOMINO[@]}" -- -s yices -s z3 -s cvc5 --presolve off
    run smtcomp-suguru "$SUGURU" -- -s yices -s z3 -s cvc5 -s bitwuzla --presolve off
fi
if [ "$STEP" = files ] || [ "$STEP" = all ]; then
    rm -rf "$WORK/family" "$WORK/suguru" "$WORK/suguru-bv"
    exported=(--family plain --layout library --generated-by "fillsmt benchmarks" --date 2026-12-01 --timeout 300)
    "$FILLSMT" export "${FILLOMINO[@]}" -o "$WORK/family" "${exported[@]}"
    "$FILLSMT" export "$SUGURU" -o "$WORK/suguru" "${exported[@]}"
    "$FILLSMT" export "$SUGURU" -o "$WORK/suguru-bv" -e bv "${exported[@]}"
    run smtcomp-files "$WORK/family" -- -s yices -s z3 -s cvc5
    run smtcomp-suguru-files "$WORK/suguru" -- -s yices -s z3 -s cvc5
    run smtcomp-suguru-files-bv "$WORK/suguru-bv" -- -s bitwuzla
    python3 - "$WORK" <<'EOF'
import json, sys
work = sys.argv[1]
def solved(name):
    views = json.load(open(f"{work}/{name}.json"))["smtcomp"]["views"]["parallel"]
    return {s["configuration"].split("/")[0]: (s["solved"], s["errors"]) for s in views}
for puzzles, files in (("smtcomp-puzzles", ["smtcomp-files"]),
                       ("smtcomp-suguru", ["smtcomp-suguru-files", "smtcomp-suguru-files-bv"])):
    by_file = {k: v for name in files for k, v in solved(name).items()}
    print(f"\n{puzzles}: solver | solved on the puzzle files | solved on the exported files | errors")
    for solver, (n, e) in solved(puzzles).items():
        m, f = by_file.get(solver, ("-", "-"))
        print(f"| {solver} | {n} | {m} | {e} / {f} |")
EOF
fi
