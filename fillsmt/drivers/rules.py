"""``--solver rules``: the kind's own search as a solver (Fillomino: the deduction rules plus
backtracking, the thesis' sections 6.1–6.2).

It takes the puzzle itself, not a script (``searches``), so the engine hands it the puzzle: alone
it searches in fillsmt's process, racing it searches in a forked child
(:mod:`fillsmt.engine.attempt`). It answers a solution and, with ``--unique``, whether there is
another; the forced cells and counts need an SMT solver session.
"""

from __future__ import annotations

from fillsmt.drivers.base import Driver, RunResult
from fillsmt.errors import InputError, SolverError


class RulesDriver(Driver):
    """The kind's own search (:class:`fillsmt.protocol.Searches`), as a solver of the registry."""

    name = "rules"
    searches = True
    supports_stop = True

    @property
    def title(self) -> str:
        return "the rules' search"

    def available(self) -> bool:
        return True

    def version(self) -> str | None:
        from fillsmt import __version__

        return f"fillsmt {__version__}"

    def location(self) -> str:
        return "built in: each kind's own search (Fillomino: deduction rules + backtracking)"

    def refusal(self, kind) -> str:
        from fillsmt.kinds import kinds
        from fillsmt.protocol import Searches

        if isinstance(kind, Searches):
            return ""
        able = " and ".join(k.name.capitalize() for k in kinds() if isinstance(k, Searches))
        return f"--solver {self.name} solves {able} puzzles only; this is a {kind.name} puzzle"

    def require_answers(self, request) -> None:
        if request.forced:
            raise InputError(f"--forced needs an SMT solver session; --solver {self.name} does not offer it")
        if request.limit:
            raise InputError(f"count needs an SMT solver session; --solver {self.name} does not offer it")

    def cannot_run(self, encoding) -> str:
        return f"solver {self.name!r} runs the kind's own search, not an encoding"

    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        raise SolverError(f"solver {self.name!r} runs the kind's own search on the puzzle itself, not a script")


__all__ = ["RulesDriver"]
