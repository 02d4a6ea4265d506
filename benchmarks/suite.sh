#!/bin/bash
# Every table of benchmarks/README.md, one after the other (nothing else should run meanwhile).
# The peer needs its binary: CSPUZ=/path/to/cspuz_fillomino (see peer_cspuz.sh).
set -eu
here=$(dirname "$0")
bash "$here/hard_tail.sh"
bash "$here/janko.sh"
bash "$here/baron.sh"
bash "$here/scaling.sh"
bash "$here/solvers.sh"
if [ -n "${CSPUZ:-}" ]; then bash "$here/peer_cspuz.sh"; fi
