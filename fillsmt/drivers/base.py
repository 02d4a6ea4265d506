"""The one small interface every solver driver implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from fillsmt.errors import SolverError, SolverMissing
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:
    from fillsmt.drivers.session import Session
    from fillsmt.smtlib.answer import Answer, Value


class RunResult:
    """One solver run: the status, the get-value values, and what the solver printed."""

    __slots__ = ("status", "values", "output", "message", "seconds")

    def __init__(
        self,
        status: Status,
        values: dict[str, Value] | None = None,
        output: str = "",
        message: str = "",
        seconds: float = 0.0,
    ) -> None:
        self.status = status
        self.values: dict[str, Value] = {} if values is None else values
        self.output, self.message, self.seconds = output, message, seconds


class Driver(ABC):
    """A way to hand an SMT-LIB script to a solver and get its answer.

    A driver declares what it can do: ``supports_session`` (:meth:`open_session` gives an
    incremental session), ``supports_stop`` (:meth:`run` honours a ``stop`` event, so it can race
    in a portfolio), ``supports_optimisation`` (it takes ``(maximize …)``) and ``in_process``
    (it runs inside this process, not in child processes).
    """

    name: str
    install_hint: str = ""
    supports_session: bool = False
    supports_stop: bool = False
    supports_optimisation: bool = False
    in_process: bool = False
    """True when the solver runs inside the calling process (a library called in-process), so its
    CPU time cannot be told apart from fillsmt's own; False when it runs in child processes."""
    searches: bool = False
    """True for a solver that takes the puzzle itself, not a script: the kind's own search
    (:mod:`fillsmt.drivers.rules`), which needs the kind's :class:`~fillsmt.protocol.Searches`."""
    theory: str = ""
    """The one SMT-LIB logic this solver decides, when it is not any (Bitwuzla: ``QF_BV``): a
    puzzle whose encoding is not named gets its kind's encoding for that logic
    (:attr:`fillsmt.protocol.Kind.theory_encodings`)."""
    propagators: frozenset[str] = frozenset()
    """The propagators this solver runs inside its search: an encoding that names one
    (:attr:`fillsmt.protocol.Encoding.propagator`) is exact only on such a solver."""

    @property
    def title(self) -> str:
        """How messages name this solver (its name, unless it says otherwise)."""
        return self.name

    def refusal(self, kind) -> str:
        """Why this solver takes no puzzle of ``kind`` (a :class:`fillsmt.protocol.Kind`), or ""
        (by default it takes every kind's scripts)."""
        return ""

    def require_answers(self, request) -> None:
        """Raise an InputError (exit 2) for a request (:class:`fillsmt.engine.request.Request`)
        this solver cannot answer whatever the encoding; by default it can answer any."""

    def cannot_run(self, encoding) -> str:
        """Why this solver cannot run ``encoding`` (a :class:`fillsmt.protocol.Encoding`), or ""."""
        if encoding.propagator and encoding.propagator not in self.propagators:
            return (
                f"solver {self.name!r} cannot run the encoding {encoding.name}: it is {encoding.method}, "
                f"and {self.name} has no such propagator"
            )
        return ""

    def encoding_for(self, kind) -> str | None:
        """The encoding of ``kind`` (a :class:`fillsmt.protocol.Kind`) this solver gets when the
        user names none: the first of the kind's encodings that needs a propagator this solver
        runs, else the kind's encoding for this solver's :attr:`theory`, else None (the kind's
        default)."""
        for encoding in kind.encodings:
            if encoding.propagator and encoding.propagator in self.propagators:
                return encoding.name
        return kind.theory_encodings.get(self.theory) if self.theory else None

    @abstractmethod
    def available(self) -> bool:
        """True when the solver can be run here."""

    @abstractmethod
    def version(self) -> str | None:
        """The solver's own version line, or None when it is not available."""

    def location(self) -> str:
        """Where the solver was found (a path, or a module)."""
        return ""

    def missing_message(self) -> str:
        """One line saying the solver is missing and how to install it."""
        hint = f"; install it with: {self.install_hint}" if self.install_hint else ""
        return f"solver {self.name!r} is not installed{hint}"

    def require(self) -> None:
        """Raise :class:`SolverMissing` unless the solver can run here."""
        if not self.available():
            raise SolverMissing(self.missing_message())

    @abstractmethod
    def run(self, script: str, timeout: float | None = None, stop=None, share=None) -> RunResult:
        """Solve ``script`` (SMT-LIB text) within ``timeout`` seconds (None: no limit); a driver
        that ``supports_stop`` gives up when the ``stop`` event (a ``threading.Event``) is set.
        ``share`` (a :class:`fillsmt.engine.schedule.Share`, or None) is told of each solver process
        started (``share.started(proc)``), so that the race can give it its time slices; an
        in-process solver ignores it."""

    def require_session(self) -> None:
        """Raise :class:`SolverError` unless the driver ``supports_session``."""
        if not self.supports_session:
            raise SolverError(
                f"solver {self.name!r} offers no incremental session; `fillsmt solvers` lists the solvers that have one"
            )

    def open_session(self, share=None) -> "Session":
        """An incremental session (:mod:`fillsmt.drivers.session`) with this solver; ``share``
        as for :meth:`run`."""
        self.require_session()
        raise NotImplementedError


def in_process_result(
    solver: str, output: str, fired: bool, seconds: float, timeout: float | None, how: str
) -> RunResult:
    """What an in-process run printed, read as a solver's output; a run its time-out stopped
    (``fired``) that gave no decisive answer is a TIMEOUT ("… and was ``how``")."""
    result = interpret_output(solver, output, seconds=seconds)
    if fired and result.status in (Status.UNKNOWN, Status.ERROR):
        return RunResult(
            Status.TIMEOUT,
            output=output,
            seconds=seconds,
            message=f"{solver} gave no answer within {timeout:g} s and was {how}",
        )
    return result


def quote_output(text: str, limit: int = 300) -> str:
    """What a solver printed, on one line and cut to ``limit`` characters, for a message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def interpret_output(
    solver: str, output: str, *, stderr: str = "", exit_code: int | None = 0, seconds: float = 0.0
) -> RunResult:
    """Turn the text a solver printed into a :class:`RunResult`.

    An error before the check-sat answer, or any error after ``sat``, makes the run an ERROR
    that quotes the solver; the errors that follow ``unsat``/``unknown`` (get-value has no model
    then) are expected and ignored.
    """
    from fillsmt.smtlib.answer import SExprError, parse_answer  # here: a solve the rules settle reads no answer

    try:
        answer: Answer = parse_answer(output)
    except SExprError as e:
        return RunResult(
            Status.ERROR,
            output=output,
            seconds=seconds,
            message=f"{solver} printed something fillsmt cannot read ({e}): {quote_output(output)!r}",
        )
    code = f" (exit code {exit_code})" if exit_code not in (0, None) else ""
    if answer.early_errors:
        return RunResult(
            Status.ERROR,
            output=output,
            seconds=seconds,
            message=f"{solver} reported an error{code}: {quote_output('; '.join(answer.early_errors))!r}",
        )
    if answer.status is None or answer.early_unexpected:
        detail = "; ".join(answer.errors) or output.strip() or stderr.strip() or "nothing"
        return RunResult(
            Status.ERROR,
            output=output,
            seconds=seconds,
            message=f"{solver} gave no answer{code}: {quote_output(detail)!r}",
        )
    if answer.status is Status.SAT and answer.errors:
        return RunResult(
            Status.ERROR,
            output=output,
            seconds=seconds,
            values=answer.values,
            message=f"{solver} said sat, then: {quote_output('; '.join(answer.errors))!r}",
        )
    message = {Status.SAT: "", Status.UNSAT: "no solution", Status.UNKNOWN: f"{solver} answered unknown"}
    return RunResult(
        answer.status, values=answer.values, output=output, seconds=seconds, message=message.get(answer.status, "")
    )
