#!/bin/sh
# Makes the generated BlockNumber puzzles of this folder (see README.md). Run from the
# repository root with fillsmt installed; the same commands always give the same files.
set -e
D=instances/blocknumber/generated
for size in 6x6 8x8 10x10 15x15; do
    fillsmt generate --kind blocknumber --size $size --seed blocknumber-$size --count 2 -o $D/$size-{n}.txt --force
done
