"""What was asked of one solve: a :class:`Request`, made once (by the CLI or the API) and passed down.

A request names the question (a solution; with ``unique`` and ``forced`` also whether it is the
only one and which cells every solution shares; ``count`` solutions up to a limit; for an
optimisation kind, the best answer), the solver (a :class:`~fillsmt.drivers.base.Driver`), the
encoding resolved for the puzzle's kind, how much of the kind's own reasoning joins in (the
presolve level), and the limits. :func:`ask` makes one and refuses, before any work, what cannot
run (an encoding the solver cannot run, a session question for a solver without sessions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from fillsmt.engine.result import NO_ENCODING
from fillsmt.errors import InputError

if TYPE_CHECKING:
    from fillsmt.drivers.base import Driver
    from fillsmt.protocol import Kind

DEFAULT_SOLVER = "yices"
DEFAULT_PRESOLVE = True
"""Whether ``solve`` runs the kind's presolve (Fillomino: the deduction rules) unless told otherwise."""
DEFAULT_RACE = True
"""Whether ``solve`` races the kind's own search against the solver (:mod:`fillsmt.engine.race`)."""
DEFAULT_STAGED = True
"""Whether the race carries out the kind's whole plan (its quick search, lead encoding and other
configurations), not only its search against the solver."""
PRESOLVE_LEVELS = ("off", "on", "race", "staged")
"""How much kind-specific reasoning ``solve`` adds (bench configurations): none, the presolve
before encoding, the presolve and the kind's search racing the solver, or that race with the
kind's other SMT configurations joining it after their delays, preceded by the kind's quick
search in this process (``staged``; both with the default solver and encoding only)."""


def presolve_level(presolve: bool, race: bool, staged: bool = False) -> str:
    """The name in :data:`PRESOLVE_LEVELS` of ``solve``'s three switches."""
    if presolve and race:
        return "staged" if staged else "race"
    return "on" if presolve else "off"


def level_of(presolve: bool | str, race: bool | None = None, staged: bool | None = None) -> str:
    """The presolve level of ``solve``'s switches: ``presolve`` may be a level's name already;
    ``race`` and ``staged`` None mean :data:`DEFAULT_RACE` and :data:`DEFAULT_STAGED`."""
    if isinstance(presolve, str):
        if presolve not in PRESOLVE_LEVELS:
            raise InputError(f"unknown presolve level {presolve!r}; choose one of {', '.join(PRESOLVE_LEVELS)}")
        return presolve
    return presolve_level(
        presolve, DEFAULT_RACE if race is None else race, DEFAULT_STAGED if staged is None else staged
    )


class Request(NamedTuple):
    """One solve's question, solver, encoding, presolve level and limits."""

    kind: Kind
    driver: Driver
    encoding: str
    """The encoding resolved for the kind (:data:`~fillsmt.engine.result.NO_ENCODING` for a solver
    that takes the puzzle itself)."""
    level: str = "staged"
    unique: bool = False
    forced: bool = False
    timeout: float | None = None
    limit: int = 0
    """``count``: how many solutions to find (0: not a count)."""
    method: str = "auto"
    """An optimisation kind's method (``--method``)."""

    @property
    def proof(self) -> bool:
        """Whether the answer must also be proven (``unique`` or ``forced``)."""
        return self.unique or self.forced

    @property
    def presolves(self) -> bool:
        return self.level != "off"

    @property
    def races(self) -> bool:
        """Whether the kind's own search races the solver (levels ``race`` and ``staged``)."""
        return self.level in ("race", "staged")

    @property
    def default_choice(self) -> bool:
        """Whether the solver and encoding are the defaults: only then does a staged race add the
        kind's other configurations (a solver or an encoding the user named is what runs)."""
        return self.driver.name == DEFAULT_SOLVER and self.encoding == resolve_encoding(self.kind, self.driver, None)

    @property
    def staged(self) -> bool:
        """Whether the race carries out the kind's whole plan (:data:`DEFAULT_STAGED`)."""
        return self.level == "staged" and self.default_choice

    @property
    def lazy(self) -> bool:
        """Whether the encoding is a relaxation refined in a session (never run one-shot)."""
        return not self.driver.searches and self.kind.encoding(self.encoding).lazy


def resolve_encoding(kind: Kind, driver: Driver, named: str | None) -> str:
    """The encoding a solve of a ``kind`` puzzle with ``driver`` runs: none for a solver that takes
    the puzzle itself, else the one ``named``, else the driver's choice for the kind
    (:meth:`~fillsmt.drivers.base.Driver.encoding_for`), else the kind's default. A solver that
    decides one logic only, for a kind with no encoding in it, is refused (an InputError) unless
    an encoding is named."""
    if driver.searches:
        return NO_ENCODING
    if named is None and driver.theory and driver.theory not in kind.theory_encodings:
        raise InputError(
            f"{driver.name} decides {driver.theory} only, and {kind.name.capitalize()} has none of its "
            "encodings in it; name an encoding with -e, or choose another solver"
        )
    return kind.encoding(named or driver.encoding_for(kind)).name


def require_takes(driver: Driver, kind: Kind, source: str = "") -> None:
    """Refuse (an InputError naming ``source``) a solver that takes no puzzle of ``kind``."""
    why = driver.refusal(kind)
    if why:
        raise InputError(f"{source}: {why}" if source else why)


def ask(
    kind: Kind,
    driver: Driver,
    encoding: str | None = None,
    *,
    level: str = "staged",
    unique: bool = False,
    forced: bool = False,
    timeout: float | None = None,
    limit: int = 0,
    method: str = "auto",
) -> Request:
    """The request, its encoding resolved; what cannot run is refused here, before any work: an
    encoding the solver cannot run, a session question (``unique``, ``forced``, a count, a lazy
    encoding) for a solver without sessions, and a solver that cannot run here."""
    from fillsmt.drivers.registry import require_runs

    require_takes(driver, kind)
    request = Request(
        kind, driver, resolve_encoding(kind, driver, encoding), level, unique, forced, timeout, limit, method
    )
    driver.require_answers(request)
    if not driver.searches:
        require_runs(driver, kind.encoding(request.encoding))
        if unique or forced or limit or request.lazy:
            driver.require_session()
    driver.require()  # before any work: a solver that cannot run is an error whatever the rules could do
    return request


__all__ = [
    "DEFAULT_PRESOLVE",
    "DEFAULT_RACE",
    "DEFAULT_SOLVER",
    "DEFAULT_STAGED",
    "PRESOLVE_LEVELS",
    "Request",
    "ask",
    "level_of",
    "presolve_level",
    "require_takes",
    "resolve_encoding",
]
