"""A fake solver that never answers: it starts a child that also hangs, records both PIDs in the
file named by $FILLSMT_TEST_PIDFILE, and sleeps. Used to prove time-outs kill the whole group."""
import os
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.environ["FILLSMT_TEST_PIDFILE"], "w") as f:
    f.write(f"{os.getpid()} {child.pid}\n")
time.sleep(600)
