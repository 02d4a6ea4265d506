"""A misbehaving SMT-LIB solver for the hostile-input tests; what it does is its first argument.

Every mode first records its PID (and those of any children) in $FILLSMT_TEST_PIDFILE when set.

* ``count FILE``: read standard input to its end, write the number of bytes to FILE, then hang.
* ``flood N``: print N bytes of atoms, then exit.
* ``nested N``: answer ``sat`` and a get-value answer nested N lists deep.
* ``bignum``: answer ``sat`` and a get-value answer holding a 5000-digit integer.
* ``superscript``: answer ``sat`` and a get-value answer holding ``²``.
* ``mute-get-value``: a session solver that answers every check-sat with ``sat`` and every echo,
  and never answers get-value (nor get-unsat-core).
* ``deep-get-value N``: the same, but it answers get-value with a list nested N deep.
* ``listed-sat``: an incremental solver that answers every check-sat with ``(sat)``, a list.
* ``hang``: start a child that sleeps too, and sleep.
"""
import os
import subprocess
import sys
import time


def record(*pids: int) -> None:
    path = os.environ.get("FILLSMT_TEST_PIDFILE")
    if path:
        with open(path, "a") as f:
            f.write(" ".join(str(p) for p in pids) + "\n")


def answer_with(value: str) -> None:
    sys.stdin.read()
    sys.stdout.write(f"sat\n((n_0_0 {value}))\n")


def session(depth: int | None, sat: str = "sat") -> None:
    for line in sys.stdin:
        if "(check-sat" in line:
            print(sat, flush=True)
        if "(get-unsat-core" in line:
            time.sleep(600)
        if "(get-value" in line:
            if depth is None:
                time.sleep(600)
            print("(" * depth + ")" * depth, flush=True)
        if '(echo "' in line:
            print(line.split('"')[1], flush=True)


def main() -> None:
    mode = sys.argv[1]
    if mode == "hang":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        record(os.getpid(), child.pid)
        time.sleep(600)
    record(os.getpid())
    if mode == "count":
        n = len(sys.stdin.buffer.read())
        with open(sys.argv[2], "w") as f:
            f.write(str(n))
        time.sleep(600)
    elif mode == "flood":
        n, line = int(sys.argv[2]), "x " * 50 + "\n"
        for _ in range(n // len(line)):
            sys.stdout.write(line)
    elif mode == "nested":
        n = int(sys.argv[2])
        answer_with("(" * n + "1" + ")" * n)
    elif mode == "bignum":
        answer_with("9" * 5000)
    elif mode == "superscript":
        answer_with("\u00b2")
    elif mode == "mute-get-value":
        session(None)
    elif mode == "deep-get-value":
        session(int(sys.argv[2]))
    elif mode == "listed-sat":
        session(None, "(sat)")
    else:
        raise SystemExit(f"unknown mode {mode}")


main()
