#!/bin/sh
# yices_cpu.sh SCRIPT.smt2 [CPU-LIMIT] [SEED]: one one-shot yices-smt2 run, CPU seconds (user +
# system, under `ulimit -t`), its answer, decisions and conflicts; SEED sets :random-seed.
# CPU time is what a loaded machine disturbs least (issue 17, sixth session).
f=$1; limit=${2:-60}; seed=$3
script=$f
if [ -n "$seed" ]; then
    script=$(mktemp --suffix=.smt2)
    { head -1 "$f"; echo "(set-option :random-seed $seed)"; tail -n +2 "$f"; } > "$script"
fi
out=$( (ulimit -t "$limit"; /usr/bin/time -f "CPU %U %S" yices-smt2 --stats "$script") 2>&1 |
    grep -E "^(sat|unsat|unknown)|:conflicts |:decisions |^CPU")
cpu=$(echo "$out" | awk '/^CPU/ {print $2 + $3}')
answer=$(echo "$out" | grep -E "^(sat|unsat)" || echo "time-out")
printf "%s seed=%s %s %s %s\n" "$(basename "$f" .smt2)" "$seed" "$cpu" "$answer" \
    "$(echo "$out" | grep -E "conflicts|decisions" | tr '\n' ' ')"
if [ -n "$seed" ]; then rm -f "$script"; fi
