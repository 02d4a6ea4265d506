#!/bin/sh
# Makes the scaling set (see README.md): generated unique Fillomino puzzles,
# three fixed seeds per size. Run from the repository root with fillsmt installed.
# 10x10 and 20x20 are reproducible exactly (near-minimal clue sets: --max-empty-area 20, the
# default above 15x15). 30x30 to 50x50 stop removing clues after --timeout seconds (the
# generator would take many minutes per puzzle there), so they are unique but hold more clues
# than needed, and a faster or slower machine may stop at another clue.
set -e
D=instances/fillomino/scaling
fillsmt generate --size 10x10 --seed scaling-10 --count 3 -o $D/10x10-{n}.txt --force
fillsmt generate --size 20x20 --seed scaling-20 --count 3 -o $D/20x20-{n}.txt --force
fillsmt generate --size 30x30 --seed scaling-30 --count 3 --timeout 120 -o $D/30x30-{n}.txt --force
fillsmt generate --size 40x40 --seed scaling-40 --count 3 --timeout 150 -o $D/40x40-{n}.txt --force
fillsmt generate --size 50x50 --seed scaling-50 --count 3 --timeout 180 -o $D/50x50-{n}.txt --force
