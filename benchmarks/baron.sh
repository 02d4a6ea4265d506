#!/bin/bash
# baron-thesis60: the thesis' 60 Puzzle Baron puzzles, 5x10 to 20x20, every region clued. The
# default configuration.
source "$(dirname "$0")/lib.sh"
need_set "$SHARED/baron-thesis60"
bench baron-thesis60 "$SHARED/baron-thesis60/puzzles" -c yices/default/staged
