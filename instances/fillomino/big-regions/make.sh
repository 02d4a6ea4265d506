#!/bin/sh
# Makes the big-region Fillomino puzzles of this folder (see README.md). Run from the
# repository root with fillsmt installed; the same commands always give the same files.
# Seeds missing from the lists (10x10: 3; 12x12: 9, 14) were stopped after 200 s of generating.
set -e
D=instances/fillomino/big-regions
for n in 1 2 4 5 6 7 8 9 10; do
    fillsmt generate --size 10x10 --seed big-$n --max-region 30 --difficulty fiendish -o $D/10x10-big-$n.txt --force
done
for n in 1 2 3 4 5 6 7 8 10 11 12 13 15 16; do
    fillsmt generate --size 12x12 --seed big-$n --max-region 30 --difficulty fiendish -o $D/12x12-big-$n.txt --force
done
