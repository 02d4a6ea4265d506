#!/bin/bash
# --forced on the hard tail: race vs no race, interleaved, one at a time
cd "$(dirname "$0")/.."
H=${SHARED:-../shared}/instances/fillomino/hard-tail/puzzles
for p in $H/*.txt; do for r in --race --no-race; do
  s=$(date +%s.%N); out=$(timeout 90 .venv/bin/fillsmt solve --forced --timeout 60 $r --format json "$p" 2>&1 | python3 -c "import json,sys
try:
  d=json.load(sys.stdin); f=d.get('forced'); print(d.get('status'), 'forced' if f else 'noforced', sum(1 for row in (f or []) for v in row if v), d.get('message','')[:60])
except Exception as e: print('bad', e)"); e=$(date +%s.%N)
  echo "$(basename $p) $r $(echo "$e - $s" | bc) $out"
done; done
