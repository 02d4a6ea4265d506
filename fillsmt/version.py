"""How the program names itself and says its version: ``fillsmt --version`` answers from these,
both in :mod:`fillsmt.entry` (the option alone, before click loads) and in :mod:`fillsmt.cli`'s
``--version`` option (every other command line that asks for it)."""

from __future__ import annotations

from fillsmt import __version__

PROG = "fillsmt"
VERSION_OPTIONS = ("-V", "--version")
VERSION_MESSAGE = "%(prog)s, version %(version)s"


def version_line() -> str:
    return VERSION_MESSAGE % {"prog": PROG, "version": __version__}
