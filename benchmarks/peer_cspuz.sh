#!/bin/bash
# fillsmt against semiexp's cspuz Fillomino solver on janko-thesis100, each as a whole process,
# one run at a time: cspuz proves every cell forced, so it is set against `fillsmt solve --unique`.
# cspuz is measuring equipment, not part of fillsmt: build it as ../shared/peers/cspuz/README.md
# says (about a minute of compiling) and give its binary:
#   CSPUZ=/path/to/cspuz_fillomino bash benchmarks/peer_cspuz.sh
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/janko-thesis100"
: "${CSPUZ:?set CSPUZ to the cspuz_fillomino binary (see ../shared/peers/cspuz/README.md)}"
python3 benchmarks/peer_cspuz.py "$SHARED/janko-thesis100/puzzles" --solutions "$SHARED/janko-thesis100/solutions" \
    --cspuz "$CSPUZ" --fillsmt "$FILLSMT" --timeout "$TIMEOUT" \
    --csv "$RESULTS/peer-cspuz-janko-thesis100.csv" --summary "$RESULTS/peer-cspuz-janko-thesis100.md"
