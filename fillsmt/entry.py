"""The ``fillsmt`` program (and ``python -m fillsmt``): the command line of :mod:`fillsmt.cli`,
which is imported only when a command needs it.

``fillsmt --version`` (or ``-V``) alone answers here, without importing click and the CLI (most of
that command's time: ``benchmarks/startup.py`` measures the whole process), with the text the
CLI's own ``--version`` option prints (:mod:`fillsmt.version`).
"""

from __future__ import annotations

import sys

from fillsmt.version import VERSION_OPTIONS, version_line


def main() -> None:
    if len(sys.argv) == 2 and sys.argv[1] in VERSION_OPTIONS:
        sys.stdout.write(version_line() + "\n")
        sys.exit(0)
    from fillsmt.cli import main as cli

    cli()
