#!/bin/sh
# Makes the generated Fillomino puzzles of this folder (see README.md). Run from the
# repository root with fillsmt installed; with fillsmt as of commit 6349f02 it makes the files
# here byte for byte (README.md says why they stay as they are).
set -e
D=instances/fillomino/generated
for label in easy medium hard fiendish; do
    fillsmt generate --size 5x5 --difficulty $label --seed 5x5-$label --count 2 -o $D/5x5-$label-{n}.txt --force
    fillsmt generate --size 10x10 --difficulty $label --seed 10x10-$label --count 2 -o $D/10x10-$label-{n}.txt --force
done
fillsmt generate --size 10x10 --no-unclued --seed 10x10-clued --count 2 -o $D/10x10-clued-{n}.txt --force
fillsmt generate --size 15x15 --seed 15x15 --count 2 -o $D/15x15-{n}.txt --force
fillsmt generate --size 15x15 --difficulty hard --seed 15x15-hard -o $D/15x15-hard-1.txt --force
fillsmt generate --size 20x20 --seed 20x20 --count 2 -o $D/20x20-{n}.txt --force
fillsmt generate --size 30x30 --seed 30x30 -o $D/30x30-1.txt --force
