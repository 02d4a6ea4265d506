"""The ``fillsmt`` program (and ``python -m fillsmt``): the command line of :mod:`fillsmt.cli`,
which is imported only when a command needs it.

``fillsmt --version`` (or ``-V``) alone answers here, without importing click and the CLI (most of
that command's time: ``benchmarks/startup.py`` measures the whole process), with the text the
CLI's own ``--version`` option prints (:mod:`fillsmt.version`).

When a command has run, every object left is moved out of the garbage collector's sight
(:func:`gc.freeze`) before the interpreter exits: its shutdown would otherwise walk them all in
its last collections (about 13 ms of a small puzzle's whole ``fillsmt solve`` here, measured by
``benchmarks/startup.py``), and nothing fillsmt leaves behind needs one (every file it writes is
closed by then, every solver process ended).
"""

from __future__ import annotations

import sys

from fillsmt.version import VERSION_OPTIONS, version_line


def main() -> None:
    if len(sys.argv) == 2 and sys.argv[1] in VERSION_OPTIONS:
        sys.stdout.write(version_line() + "\n")
        sys.exit(0)
    import gc

    from fillsmt.cli import main as cli

    try:
        cli()
    finally:
        gc.freeze()
