"""The race (issue 17): a kind's own search beside the SMT solver, the first decisive answer wins.

Fillomino's deduction rules plus backtracking (:mod:`fillsmt.fillomino.backtrack`) and the SMT
solver have different tails: the rules' search settles puzzles whose regions snake through
large open areas (janko 485: a 55-cell region; 207) where the solver's search, which has no
connectivity reasoning beyond the spanning tree, does not finish in 60 s, and the solver settles
others the search does not. So the kind's search (``Kind.search``) runs in a forked child
process beside the solver, and the first *decisive* answer wins; the other is stopped (the
solver's process group killed, or its session closed; the child killed and reaped). The child
waits ``delay`` seconds before it starts, so a puzzle the solver answers at once costs only the
fork. Nothing of either side is trusted: a grid the child sends is checked by the kind's
independent checker here, and again by the pipeline; the child's "no solution" (or "no other
solution") is the exhausted search of a sound and complete procedure (backtrack's module text:
the rules never remove a value some solution uses, and a guess splits the solutions between its
two children).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import threading
import time
from dataclasses import dataclass

from typing import Any

RACE_DELAY = 0.2
"""Seconds the rules' search waits before it starts (a solver answer before then costs nothing)."""


@dataclass
class RulesOutcome:
    """What the child's search sent back: up to ``limit`` checked grids and whether its search
    space was exhausted (then they are all the solutions)."""

    solutions: list[Any]
    exhausted: bool
    nodes: int
    max_depth: int
    limit: int = 1
    exhaustive: bool = False

    @property
    def decisive(self) -> bool:
        """It settles what was asked: ``limit`` solutions found, or all of them (exhausted). An
        ``exhaustive`` question (which cells every solution shares) needs all of them."""
        return self.exhausted or (not self.exhaustive and len(self.solutions) >= self.limit)


class RulesRace:
    """The kind's search in a forked child process: ``start`` the race, run the solver, and
    either leave (the solver answered: the child is killed and reaped) or let the watcher set the
    solver's stop event when the child's answer is decisive. Use as a context manager.

    Nothing is forked until ``delay`` seconds have passed without ``stop`` being set, so a puzzle
    the solver answers at once costs one waiting thread, not a fork (the fork, kill and reap
    cost 10-20 ms, a third of a typical janko puzzle's time). The child is forked from that
    thread while the solver runs; it closes every inherited descriptor but its own pipe at once,
    so it never holds the solver's pipes open."""

    def __init__(self, search, check, limit: int, timeout: float | None, delay: float = RACE_DELAY,
                 exhaustive: bool = False, niceness: int = 0):
        """``search(limit, deadline)`` is the kind's own search (``Kind.search``), run in the
        child; ``check(grid)`` the independent checker, run here on what it sends. With
        ``exhaustive`` only an exhausted search is decisive (``--forced``: a proof that the
        solutions found are all there are). The child adds ``niceness`` to its own (yields the
        CPU to the solvers where the search is the weak racer)."""
        self.search, self.check, self.limit, self.timeout, self.delay = search, check, limit, timeout, delay
        self.exhaustive = exhaustive
        self.niceness = niceness
        self.pid: int | None = None
        self.outcome: RulesOutcome | None = None
        self._thread: threading.Thread | None = None
        self._stop: threading.Event | None = None
        self._lock = threading.Lock()
        self._closed = False

    def __enter__(self) -> RulesRace:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self, stop: threading.Event, on_decisive=None) -> None:
        """Start the thread that forks the child after ``delay`` and then sets ``stop`` (and
        calls ``on_decisive``) once the child's answer is decisive."""
        self._stop = stop
        self._thread = threading.Thread(target=self._run, args=(stop, on_decisive), daemon=True)
        self._thread.start()

    def _run(self, stop: threading.Event, on_decisive) -> None:
        started = time.monotonic()
        if stop.wait(self.delay):
            return
        read, write = os.pipe()
        with self._lock:
            if self._closed:
                os.close(read)
                os.close(write)
                return
            parent = os.getpid()
            pid = os.fork()
            if pid == 0:  # the child: search, send, leave without running the parent's clean-up
                self._child(write, parent, started)
            self.pid = pid
        os.close(write)
        try:
            self._watch(read, stop, on_decisive)
        finally:
            os.close(read)

    def _child(self, write: int, parent: int, started: float) -> None:
        code = 0
        try:
            os.closerange(0, write)
            os.closerange(write + 1, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
            _orphan_guard(parent)
            if self.niceness:
                os.nice(self.niceness)
            deadline = None if self.timeout is None else started + self.timeout
            found = self.search(self.limit, deadline)
            data = pickle.dumps(RulesOutcome(found.solutions, found.exhausted, found.nodes, found.max_depth,
                                             self.limit, self.exhaustive))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)

    def _watch(self, fd: int, stop: threading.Event, on_decisive) -> None:
        chunks = []
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if not ready:
                    if self._closed:
                        return
                    continue
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError:
            return
        if not chunks or self._closed:
            return
        try:
            outcome = pickle.loads(b"".join(chunks))
        except Exception:
            return
        if any(self.check(g) for g in outcome.solutions):
            return  # the search checks its grids: a refused one would be a bug, never an answer
        self.outcome = outcome
        if outcome.decisive:
            stop.set()
            if on_decisive is not None:
                on_decisive()

    def stop(self) -> None:
        """End the race: no fork from now on; kill and reap the child if there is one."""
        with self._lock:
            self._closed = True
            pid, self.pid = self.pid, None
        if self._stop is not None:
            self._stop.set()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)


def _orphan_guard(parent: int) -> None:
    """In the child: leave as soon as the parent is gone (a killed bench worker, say)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def can_race(driver) -> bool:
    """Whether ``driver.run`` honours a ``stop`` event (the driver declares ``supports_stop``)."""
    return bool(getattr(driver, "supports_stop", False))


class SessionRace:
    """A driver whose session the racing search may close: the session opened through
    :meth:`open_session` is killed by :meth:`kill` (called on a decisive search answer), so the
    session's waiting side gets a solver error or a time-out."""

    def __init__(self, driver):
        self.driver = driver
        self.name = driver.name
        self.session = None
        self.closed_by_race = threading.Event()
        self._lock = threading.Lock()

    def open_session(self):
        """The driver's session; closed at once if the search has already won."""
        session = self.driver.open_session()
        with self._lock:
            self.session = session
            lost = self.closed_by_race.is_set()
        if lost:
            _kill(session)
        return session

    def __getattr__(self, name: str):  # everything else is the driver's
        return getattr(self.driver, name)

    def kill(self) -> None:
        with self._lock:
            self.closed_by_race.set()
            session = self.session
        if session is not None:
            _kill(session)


class Entrants:
    """More SMT configurations in the race, each in a thread of this process, started only after
    its own delay (staging: a puzzle settled before then never pays for it). ``attempt()`` runs
    one configuration to its end (encode, then a one-shot run that honours the race's ``stop``
    event or a session that :meth:`SessionRace.kill` closes) and returns its checked result;
    the first result ``decisive`` accepts wins: ``stop`` is set and ``on_win`` called (it closes
    everyone else's sessions). The threads start no solver once the race is over: a one-shot run
    is stopped by ``stop``, a session through its :class:`SessionRace`."""

    def __init__(self, stop: threading.Event, decisive, on_win=None):
        self.stop, self.decisive, self.on_win = stop, decisive, on_win
        self.winner: Any = None
        self.winner_name = ""
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    def __enter__(self) -> Entrants:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def add(self, name: str, delay: float, attempt) -> None:
        thread = threading.Thread(target=self._run, args=(name, delay, attempt), name=f"race-{name}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _run(self, name: str, delay: float, attempt) -> None:
        if self.stop.wait(delay):
            return
        try:
            result = attempt()
        except Exception:  # closed by the race (a killed session), or a solver error: not an answer
            return
        if result is None or self._closed or not self.decisive(result):
            return
        with self._lock:
            if self.winner is not None or self._closed:
                return
            self.winner, self.winner_name = result, name
        self.stop.set()
        if self.on_win is not None:
            self.on_win()

    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def wait(self, deadline: float | None) -> None:
        """Until a racer has won, every racer has ended, or ``deadline`` (monotonic) has passed."""
        while self.running() and self.winner is None:
            if deadline is not None and time.monotonic() >= deadline:
                return
            self.stop.wait(0.05)

    def close(self, grace: float = 0.5) -> None:
        """End the race: ``stop`` set, then each thread joined (its run stopped, its session
        killed by the caller's ``on_win``/clean-up) for at most ``grace`` seconds in all."""
        with self._lock:
            self._closed = True
        self.stop.set()
        until = time.monotonic() + grace
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(max(0.0, until - time.monotonic()))


def _kill(session) -> None:
    """End a session at once: a solver process is killed, an in-process one closed."""
    try:
        session.close(kill=True)
    except TypeError:  # a session without a process (z3-api) has only close()
        session.close()


__all__ = ["RACE_DELAY", "Entrants", "RulesOutcome", "RulesRace", "SessionRace", "can_race"]
