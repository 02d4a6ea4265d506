"""Processes as Linux's /proc shows them, for the tests that check no solver or worker outlives
fillsmt (tests/test_signals.py, tests/test_bench.py)."""

from __future__ import annotations

from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, parent, …); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def parents() -> dict[int, int]:
    """Every process's parent."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                out[int(entry.name)] = int(fields[1])
    return out


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    return {child for child, parent in parents().items() if parent == pid}


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (children, their children, …)."""
    table = parents()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in table.items() if parent in frontier} - found
        found |= frontier
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user + system), 0 if it is gone."""
    import os

    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
