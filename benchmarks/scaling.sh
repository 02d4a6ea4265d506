#!/bin/bash
# Growth with size: instances/fillomino/scaling, generated unique puzzles, three per size from
# 10x10 to 50x50 (made by its make.sh). The default configuration, solving and --unique.
source "$(dirname "$0")/lib.sh"
bench scaling instances/fillomino/scaling -c yices/default/staged -c yices/default/staged/unique
