#!/bin/bash
# The hard tail: the six janko.at puzzles (9x9 to 50x64) the default configuration found hardest
# in a sweep of the whole janko.at archive. The default configuration (what `fillsmt solve`
# runs), solving and proving the solution unique (--unique).
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/hard-tail"
bench hard-tail "$SHARED/hard-tail/puzzles" -c yices/default/staged -c yices/default/staged/unique
