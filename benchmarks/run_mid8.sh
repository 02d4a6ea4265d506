#!/bin/bash
# Issue 17, eighth session (mid): main (OLD) and this branch (NEW) on the four sets, one after the
# other set by set (alternating which goes first between rounds), each `fillsmt bench --jobs 2
# --timeout 60`. OLD and NEW are source trees holding a fillsmt/ package (`git archive REV fillsmt
# | tar -x -C DIR`); VENV a virtual environment with fillsmt's dependencies but no fillsmt of its
# own (an editable install would win over PYTHONPATH), its bin/ holding yices-smt2 and z3.
#   bash benchmarks/run_mid8.sh OLD NEW VENV OUT ROUND [SETS]   (from the repository, beside ../shared)
#   SETS: any of hardtail janko baron scaling (default: all four); ROUND odd: OLD first, even: NEW first
#   JOBS=1 TOGETHER=1 bash benchmarks/run_mid8.sh ...: both at the same time, --jobs 1 each (as
#   run_small17.sh), so both see the same load
set -u
OLD=$1 NEW=$2 VENV=$3 OUT=$4 ROUND=$5
SETS=${6:-hardtail janko baron scaling}
JOBS=${JOBS:-2} TOGETHER=${TOGETHER:-0}
S=../shared/instances/fillomino
TWO="-c yices/default/staged -c yices/default/staged/unique"
bench() {  # tree-name tree set folder configs...
  local name=$1 tree=$2 set=$3 folder=$4; shift 4
  echo "$(date -u +%H:%M:%S) $set $name $(cut -d' ' -f1-3 /proc/loadavg)"
  env PYTHONPATH="$tree" "$VENV/bin/python" -m fillsmt bench "$folder" "$@" --jobs $JOBS --timeout 60 --overwrite \
      --csv "$OUT/mid8-R$ROUND-$set-$name.csv" --no-progress > /dev/null
}
for set in $SETS; do
  case $set in
    hardtail) folder=$S/hard-tail/puzzles; configs=$TWO ;;
    janko) folder=$S/janko-thesis100/puzzles; configs=$TWO ;;
    baron) folder=$S/baron-thesis60/puzzles; configs="-c yices/default/staged" ;;
    scaling) folder=instances/fillomino/scaling; configs=$TWO ;;
    *) echo "run_mid8.sh: unknown set $set" >&2; exit 2 ;;
  esac
  if [ "$TOGETHER" = 1 ]; then
    bench old "$OLD" $set "$folder" $configs &
    bench new "$NEW" $set "$folder" $configs
    wait
    continue
  fi
  if [ $((ROUND % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
  for name in $order; do
    if [ $name = old ]; then tree=$OLD; else tree=$NEW; fi
    bench $name "$tree" $set "$folder" $configs
  done
done
echo "$(date -u +%H:%M:%S) done $(cut -d' ' -f1-3 /proc/loadavg)"
