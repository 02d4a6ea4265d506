"""Incremental solver sessions: one solver kept open, asked again and again.

A session is opened by :meth:`~fillsmt.drivers.base.Driver.open_session` and used as a context
manager::

    with driver.open_session() as session:
        session.send(script_without_check_sat)
        if session.check(timeout=10) is Status.SAT:
            values = session.get_values(["n_0", "n_1"])
        session.push()
        session.send("(assert (not (= n_0 3)))")
        session.check()
        session.pop()

Every exchange ends with an ``(echo "…")`` marker, so fillsmt knows where the solver's reply ends
without one round trip per command. A ``check`` that runs past its time-out kills the solver
process (its whole process group): the check reports ``TIMEOUT`` and the session is closed —
z3 could be interrupted and kept, yices-smt2 cannot, so all sessions behave the same way.
Leaving the ``with`` block, or :meth:`Session.close`, always ends the process.
"""

from __future__ import annotations

import codecs
import itertools
import os
import queue
import re
import shlex
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from typing import IO, Iterable, Literal, Sequence, overload

from fillsmt import limits
from fillsmt.drivers import trace
from fillsmt.drivers.base import quote_output
from fillsmt.drivers.process import OWN_GROUP, kill_group
from fillsmt.engine import interrupts
from fillsmt.errors import EXIT_UNKNOWN, SolverError
from fillsmt.smtlib import Script
from fillsmt.smtlib.answer import SExprError, Status, Value, parse_value, render_sexpr
from fillsmt.smtlib.script import script_pieces
from fillsmt.smtlib.sexpr import read_all

_STATUS = {"sat": Status.SAT, "unsat": Status.UNSAT, "unknown": Status.UNKNOWN}


REPLY_GRACE = 1.0
"""Seconds added to the time left for exchanges that should answer at once (get-value after
``sat``, pop): a solver that is only slow still answers; one that never does is stopped."""


class SessionTimeout(SolverError):
    """Commands sent to a session got no reply within the time-out; the session is closed."""

    exit_code = EXIT_UNKNOWN


class Session(ABC):
    """An open solver that keeps its assertions between checks."""

    name: str = "solver"
    #: :meth:`load` sends a script's assertions as one conjunction (:func:`~fillsmt.smtlib.script.script_body`).
    joined_assertions: bool = False
    #: The solver takes ``define-fun`` and prints any numeral in a get-value answer, so a search
    #: may read integer terms packed (:class:`fillsmt.engine.solutions.Packing`): the solver binaries.
    reads_packed: bool = False

    def __init__(self) -> None:
        self.checks = 0
        self.check_seconds: list[float] = []

    # -- what a subclass provides ------------------------------------------------------------
    @abstractmethod
    def _exchange(self, text: str, timeout: float | None) -> tuple[str, bool]:
        """Send ``text`` (whole commands) and return (everything the solver printed, timed_out)."""

    @property
    @abstractmethod
    def alive(self) -> bool:
        """False once the session was closed or its solver stopped."""

    @abstractmethod
    def close(self) -> None:
        """End the session and its solver; safe to call twice."""

    @property
    def channel(self) -> str:
        """What tells this session apart from others in the traffic log."""
        return f"session {id(self):x}"

    def _talk(self, text: str, timeout: float | None) -> tuple[str, bool]:
        """:meth:`_exchange`, recorded in the traffic log (:mod:`fillsmt.drivers.trace`) if on."""
        if trace.path() is None:
            return self._exchange(text, timeout)
        trace.sent(self.name, self.channel, text)
        try:
            output, timed_out = self._exchange(text, timeout)
        except SolverError as e:
            trace.received(self.name, self.channel, "", f"failed: {e}")
            raise
        trace.received(self.name, self.channel, output, "no reply in time, closed" if timed_out else "")
        return output, timed_out

    # -- the commands ------------------------------------------------------------------------
    def _items(self, output: str, what: str) -> list:
        word = output.strip()
        if not word or word in _STATUS:  # nothing, or a check's answer alone: as read_all reads it
            return [word] if word else []
        try:
            items = [i.value for i in read_all(output)]
        except SExprError as e:
            raise SolverError(
                f"{self.name} printed something fillsmt cannot read after {what} ({e}): {quote_output(output)!r}"
            ) from None
        errors = [" ".join(str(m) for m in x[1:]) for x in items if isinstance(x, list) and x[:1] == ["error"]]
        if errors:
            raise SolverError(f"{self.name} reported an error after {what}: {quote_output('; '.join(errors))!r}")
        return [x for x in items if x not in ("success", "unsupported")]

    def _require_alive(self) -> None:
        if not self.alive:
            raise SolverError(f"the {self.name} session is closed (after a time-out, an error, or close())")

    def send(self, text: str, timeout: float | None = None) -> None:
        """Run commands that print nothing when they succeed (declarations, assertions, push, pop).
        Raises :class:`SessionTimeout` (and closes the session) when they take past ``timeout``."""
        self._require_alive()
        output, timed_out = self._talk(text, timeout)
        if timed_out:
            raise SessionTimeout(f"{self.name} gave no reply in time and was stopped")
        extra = self._items(output, "the commands sent")
        if extra:
            raise SolverError(f"{self.name} answered commands that should print nothing: {quote_output(output)!r}")

    def load(self, script: Script, timeout: float | None = None) -> None:
        """Send ``script``'s declarations and assertions (its questions left out), in the form
        this solver takes best (:attr:`joined_assertions`). A session closed while the text is
        written (a race that ended, a signal) stops the writing: a huge grid's takes a second."""
        pieces = []
        for piece in script_pieces(script, self.joined_assertions):
            self._require_alive()
            pieces.append(piece)
        self.send("".join(pieces), timeout)

    def assert_term(self, term: str, timeout: float | None = None) -> None:
        self.send(f"(assert {term})\n", timeout)

    def push(self, timeout: float | None = None) -> None:
        self.send("(push 1)\n", timeout)

    def pop(self, timeout: float | None = None) -> None:
        self.send("(pop 1)\n", timeout)

    def check(self, timeout: float | None = None, assumptions: Sequence[str] = (), before: str = "") -> Status:
        """``check-sat`` (or ``check-sat-assuming`` with Boolean symbols / their negations).
        ``before``: commands that print nothing when they succeed (a lazy loop's cuts), sent in
        the same exchange ahead of the check (one round trip, not two; an error they cause is
        reported as :meth:`send` would, as a :class:`SolverError`).

        Returns SAT, UNSAT, UNKNOWN, or TIMEOUT (the session is then closed)."""
        self._require_alive()
        command = f"(check-sat-assuming ({' '.join(assumptions)}))\n" if assumptions else "(check-sat)\n"
        command = before + command
        start = time.perf_counter()
        output, timed_out = self._talk(command, timeout)
        self.checks += 1
        self.check_seconds.append(time.perf_counter() - start)
        if timed_out:
            return Status.TIMEOUT
        items = self._items(output, "check-sat")
        if len(items) != 1 or not isinstance(items[0], str) or items[0] not in _STATUS:
            raise SolverError(f"{self.name} gave no check-sat answer: {quote_output(output)!r}")
        return _STATUS[items[0]]

    @overload
    def get_values(
        self, terms: Iterable[str], raw: Literal[False] = False, timeout: float | None = None
    ) -> dict[str, Value]: ...

    @overload
    def get_values(self, terms: Iterable[str], raw: Literal[True], timeout: float | None = None) -> dict[str, str]: ...

    @overload
    def get_values(
        self, terms: Iterable[str], raw: bool, timeout: float | None = None
    ) -> dict[str, Value] | dict[str, str]: ...

    def get_values(
        self, terms: Iterable[str], raw: bool = False, timeout: float | None = None
    ) -> dict[str, Value] | dict[str, str]:
        """The model's values of ``terms`` (after a SAT check), keyed by the terms' text; with
        ``raw``, each value as the solver printed it (SMT-LIB text of any sort, fit to be sent
        back in an assertion). A solver that gives no answer within ``timeout`` (plus
        :data:`REPLY_GRACE`: the model is already there) is stopped: :class:`SessionTimeout`."""
        values, texts = self.get_values_and_texts(terms, timeout)
        return texts if raw else values

    def get_values_and_texts(
        self, terms: Iterable[str], timeout: float | None = None
    ) -> tuple[dict[str, Value], dict[str, str]]:
        """Both forms of :meth:`get_values` from one get-value exchange."""
        self._require_alive()
        terms = list(terms)
        if not terms:
            return {}, {}
        output, timed_out = self._talk(
            f"(get-value ({' '.join(terms)}))\n", None if timeout is None else timeout + REPLY_GRACE
        )
        if timed_out:
            raise SessionTimeout(f"{self.name} gave no get-value answer in time and was stopped")
        simple = _simple_values(output)
        if simple is not None:
            return simple
        items = self._items(output, "get-value")
        if len(items) != 1 or not isinstance(items[0], list):
            raise SolverError(f"{self.name} gave no get-value answer: {quote_output(output)!r}")
        values, texts = {}, {}
        for pair in items[0]:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise SolverError(f"{self.name} gave a malformed get-value answer: {quote_output(output)!r}")
            term = render_sexpr(pair[0])
            values[term], texts[term] = parse_value(pair[1]), render_sexpr(pair[1])
        return values, texts

    def get_unsat_core(self, timeout: float | None = None) -> list[str]:
        """The names of the named assertions in the last ``unsat`` check's core (the session
        must have been started with ``(set-option :produce-unsat-cores true)``). A solver that
        gives no answer within ``timeout`` (plus :data:`REPLY_GRACE`: the core is already there)
        is stopped: :class:`SessionTimeout`."""
        self._require_alive()
        output, timed_out = self._talk("(get-unsat-core)\n", None if timeout is None else timeout + REPLY_GRACE)
        if timed_out:
            raise SessionTimeout(f"{self.name} gave no get-unsat-core answer in time and was stopped")
        items = self._items(output, "get-unsat-core")
        if len(items) != 1 or not isinstance(items[0], list):
            raise SolverError(f"{self.name} gave no get-unsat-core answer: {quote_output(output)!r}")
        return [render_sexpr(name) for name in items[0]]

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close()


_SIMPLE_REPLY = re.compile(r"\s*\((?:\s*\([^()\s\"|;]+\s+(?:[0-9]+|true|false)\s*\))*\s*\)\s*")
_SIMPLE_PAIR = re.compile(r"\(\s*([^()\s\"|;]+)\s+([0-9]+|true|false)\s*\)")


def _simple_values(output: str) -> tuple[dict[str, Value], dict[str, str]] | None:
    """A get-value reply whose terms are plain symbols and whose values are numerals or
    Booleans, read with two regular expressions (a reply of thousands of cell numbers each
    round of the lazy region cuts); None for any other reply, which the general reader takes."""
    if not _SIMPLE_REPLY.fullmatch(output):
        return None
    values: dict[str, Value] = {}
    texts: dict[str, str] = {}
    for term, text in _SIMPLE_PAIR.findall(output):
        if text[0] in "tf":
            values[term] = text == "true"
        elif len(text) > limits.MAX_DIGITS:
            values[term] = parse_value(text)  # as the general reader keeps it (the packed reads' numerals)
        else:
            values[term] = int(text)
        texts[term] = text
    return values, texts


_markers = itertools.count(1)


def _marker() -> str:
    return f"fillsmt-done-{os.getpid()}-{next(_markers)}"


def _before_marker(buffer: str, marker: str, start: int = 0) -> tuple[str, str] | None:
    """(everything before the complete line that is ``marker`` or ``"marker"``, everything after
    that line), or None while ``buffer`` holds no such line. ``start``: a line start before
    which the buffer was searched already."""
    at = buffer.find(marker, start)
    while at >= 0:
        begin = buffer.rfind("\n", 0, at) + 1
        end = buffer.find("\n", at)
        if end < 0:
            return None  # the line is not complete yet
        if buffer[begin:end].strip() in (marker, f'"{marker}"'):
            return buffer[:begin], buffer[end + 1 :]
        at = buffer.find(marker, end)
    return None


DIRECT_WRITE = 1024
"""Characters up to which :meth:`ProcessSession._send` writes without a thread."""


class ProcessSession(Session):
    """A solver binary reading SMT-LIB 2 on a pipe (``z3 -in``, ``yices-smt2 --incremental``)."""

    reads_packed = True

    def __init__(self, argv: list[str], name: str, joined_assertions: bool = False, share=None):
        super().__init__()
        self.name = name
        self.joined_assertions = joined_assertions
        self.argv = argv
        # Its own process group, so closing kills the solver and anything it started.
        self._proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **OWN_GROUP,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        # All three streams are pipes.
        assert self._proc.stdin is not None and self._proc.stdout is not None and self._proc.stderr is not None
        self._stdin: IO[str] = self._proc.stdin
        self._streams: tuple[IO[str], IO[str], IO[str]] = (self._proc.stdin, self._proc.stdout, self._proc.stderr)
        if share is not None:
            share.started(self._proc)
        self._chunks: queue.Queue[str | None] = queue.Queue()
        self._pending = ""  # what the solver printed past the last reply's marker (normally nothing)
        self._stderr: list[str] = []
        self._threads = [
            threading.Thread(target=self._pump_chunks, args=(self._proc.stdout, self._chunks.put), daemon=True),
            threading.Thread(target=self._pump, args=(self._proc.stderr, self._stderr.append), daemon=True),
        ]
        for t in self._threads:
            t.start()

    @staticmethod
    def _pump(stream, put) -> None:
        # Lines come in pieces of at most 64 KiB, so a line without end cannot fill the memory.
        while line := stream.readline(1 << 16):
            put(line)
        put(None)

    @staticmethod
    def _pump_chunks(stream, put) -> None:
        """The solver's output in whatever pieces the pipe gives (at most 64 KiB each), not line
        by line: a get-value reply of thousands of lines is then a few hand-overs between
        threads instead of one per line (a hand-over per line can take a third of the lazy region
        cuts' time on a large grid)."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = stream.fileno()
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                data = b""
            if not data:
                break
            text = decoder.decode(data)
            if text:
                put(text)
        tail = decoder.decode(b"", final=True)
        if tail:
            put(tail)
        put(None)

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def _died(self, output: str) -> SolverError:
        self.close(kill=True)
        detail = "".join(line for line in self._stderr if line).strip() or output.strip() or "nothing"
        return SolverError(
            f"{self.name} stopped during the session (exit code {self._proc.returncode}): {quote_output(detail)!r}"
        )

    def _exchange(self, text: str, timeout: float | None) -> tuple[str, bool]:
        marker = _marker()
        deadline = None if timeout is None else time.monotonic() + timeout
        self._send(f'{text}(echo "{marker}")\n', deadline)
        buffer, self._pending = self._pending, ""
        searched, cap = 0, limits.max_output()
        while True:
            reply = _before_marker(buffer, marker, searched)
            if reply is not None:
                out, self._pending = reply
                return out, False
            searched = max(0, buffer.rfind("\n") + 1)  # the marker is on a line of its own
            if len(buffer) > cap:
                self.close(kill=True)
                raise SolverError(
                    f"{self.name} printed more than {cap} characters in one reply and was stopped "
                    f"(raise the limit with the environment variable FILLSMT_MAX_OUTPUT)"
                )
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                chunk = self._chunks.get(timeout=wait)
            except queue.Empty:
                self.close(kill=True)
                return buffer, True
            if chunk is None:
                raise self._died(buffer)
            buffer += chunk

    def _send(self, text: str, deadline: float | None) -> None:
        """Write ``text`` to the solver by ``deadline``: a thread writes, so a solver that stops
        reading cannot hold fillsmt past its time-out (it is killed, which ends the write). A
        text of at most :data:`DIRECT_WRITE` characters is written here: every exchange waits for
        the solver's reply, so the solver has read everything sent before and the pipe is empty,
        and a pipe holds at least one page (4096 bytes, 4 per character at most): such a write
        cannot block (a lazy session sends three commands a round; janko 330: 216 threads)."""
        if len(text) <= DIRECT_WRITE:
            try:
                self._stdin.write(text)
                self._stdin.flush()
            except (OSError, ValueError):  # a broken pipe, or closed by a kill
                raise self._died("") from None
            return
        failed: list[BaseException] = []

        def write() -> None:
            try:
                self._stdin.write(text)
                self._stdin.flush()
            except (OSError, ValueError) as e:  # a broken pipe, or closed by a kill
                failed.append(e)

        writer = threading.Thread(target=write, name=f"{self.name}-stdin", daemon=True)
        writer.start()
        writer.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        if writer.is_alive():  # the answer cannot come in time either: the wait below reports it
            return
        if failed:
            raise self._died("")

    def close(self, kill: bool = False) -> None:
        """Ask the solver to exit (or, with ``kill``, do not ask), then kill its process group;
        the kill happens whatever interrupts the asking (a signal, a time limit)."""
        proc = self._proc
        try:
            if proc.poll() is None and not kill and not interrupts.stopping():
                try:
                    self._stdin.write("(exit)\n")
                    self._stdin.flush()
                except (BrokenPipeError, OSError, ValueError):
                    pass
                try:
                    proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            kill_group(proc)
            proc.wait()
            for t in self._threads:
                t.join(timeout=1.0)
            for stream in self._streams:
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def channel(self) -> str:
        return f"session, {shlex.join(self.argv)}, pid {self._proc.pid}"


__all__ = ["ProcessSession", "Session", "SessionTimeout"]
