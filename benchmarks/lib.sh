# Settings shared by the suite scripts (sourced, not run). Every table is made by `fillsmt bench`
# through its command line; override any of these from the environment:
#   FILLSMT  the fillsmt program (default: fillsmt on the PATH)
#   SHARED   the reference puzzle sets (default: ../shared/instances/fillomino beside the checkout;
#            a path relative to the checkout, as the CSVs' puzzle column then is)
#   JOBS     runs at once (default 2: the machine's two cores)
#   TIMEOUT  seconds per run (default 60)
set -eu
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
FILLSMT=${FILLSMT:-fillsmt}
SHARED=${SHARED:-../shared/instances/fillomino}
JOBS=${JOBS:-2}
TIMEOUT=${TIMEOUT:-60}
RESULTS=benchmarks/results

need_set() {  # a reference set that is not here: say so and stop (exit 0: nothing to measure)
    if [ ! -d "$1" ]; then
        echo "$(basename "$0"): $1 is not here; set SHARED to the folder that holds it" >&2
        exit 0
    fi
}

bench() {  # NAME PUZZLES [fillsmt bench options...]: results/NAME.csv and results/NAME.md
    local name=$1 puzzles=$2
    shift 2
    echo "$name: load average before $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
    "$FILLSMT" bench "$puzzles" "$@" --jobs "$JOBS" --timeout "$TIMEOUT" --overwrite --no-progress \
        --csv "$RESULTS/$name.csv" --summary "$RESULTS/$name.md"
    echo "$name: load average after $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
}

mkdir -p "$RESULTS"
"$FILLSMT" --version
