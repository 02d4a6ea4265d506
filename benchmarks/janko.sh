#!/bin/bash
# janko-thesis100: the thesis' 100 janko.at 10x10 puzzles. The default configuration, solving
# and proving the solution unique (--unique).
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/janko-thesis100"
bench janko-thesis100 "$SHARED/janko-thesis100/puzzles" -c yices/default/staged -c yices/default/staged/unique
