"""The race's mechanism: a kind's own search beside SMT solvers, the first decisive answer wins.

A kind's search and an SMT solver have different tails: Fillomino's deduction rules plus
backtracking settle puzzles whose regions snake through large open areas, where the solver's
search, with no connectivity reasoning beyond its encoding, does not finish, and the solver
settles others the search does not. So the kind's search (``Kind.search``) runs in a forked child
process beside the solver, and the first *decisive* answer wins; the other is stopped (the
solver's process group killed, or its session closed; the child killed and reaped). The child
waits ``delay`` seconds before it starts, so a puzzle the solver answers at once costs only the
fork. Nothing of either side is trusted: a grid the child sends is checked by the kind's
independent checker here, and again by the pipeline; the child's "no solution" (or "no other
solution") is the exhausted search of a sound and complete procedure (:mod:`fillsmt.fillomino.search`'s text:
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

WATCH_EVERY = 0.05
"""Seconds between the race's looks at the search child (its answer, and its progress for ``watch``)."""


@dataclass(frozen=True)
class Progress:
    """Where the racing search is, as its child last wrote it (:class:`SearchProgress`):
    ``nodes`` computed, the ``deepest`` depth, the ``fewest_open`` cells (more than one value
    left) at any node without a contradiction, the ``solutions`` found, the child's ``cpu``
    seconds, and its ``cpu`` seconds when it last improved (fewer open cells or a solution)."""

    nodes: int
    deepest: int
    fewest_open: int
    solutions: int
    cpu: float
    improved_cpu: float

    @property
    def since_improved(self) -> float:
        """The child's CPU seconds since its search last improved."""
        return self.cpu - self.improved_cpu


class SearchProgress:
    """The search child's progress, in a few numbers of shared memory: the child writes them at
    every node (:meth:`node`, the search's ``progress``), the race reads them (:meth:`read`).
    Written and read without a lock: each number is one aligned word, and a read between two
    writes of one node only mixes two successive nodes' numbers. The memory is an anonymous
    shared mapping made before the fork, so parent and child see the same page."""

    _FIELDS = 6

    def __init__(self) -> None:
        import mmap  # only for a race that forks (a module import on every solve otherwise)

        self._memory = mmap.mmap(-1, 8 * self._FIELDS)
        self._words = memoryview(self._memory).cast("d")
        self._words[2] = -1.0  # no node yet: fewest_open unknown
        self._nodes = self._deepest = self._solutions = 0
        self._fewest = 1 << 62

    def node(self, depth: int, open_cells: int, solutions: int) -> None:
        """One more node of the search (in the child): its depth, its open cells (-1 at a
        contradiction) and the solutions found before it."""
        words, cpu = self._words, time.process_time()
        self._nodes += 1
        self._deepest = max(self._deepest, depth)
        if solutions > self._solutions or 0 <= open_cells < self._fewest:
            self._solutions = max(self._solutions, solutions)
            self._fewest = min(self._fewest, open_cells if open_cells >= 0 else self._fewest)
            words[2], words[3], words[5] = self._fewest, self._solutions, cpu
        words[0], words[1], words[4] = self._nodes, self._deepest, cpu

    def read(self) -> Progress:
        """What the child last wrote (all zero, fewest_open -1, before its first node)."""
        w = list(self._words)
        return Progress(int(w[0]), int(w[1]), int(w[2]), int(w[3]), w[4], w[5])


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

    def __init__(
        self,
        search,
        check,
        limit: int,
        timeout: float | None,
        delay: float = 0.0,
        exhaustive: bool = False,
        share=None,
        watch=None,
    ):
        """``search(limit, deadline, progress)`` is the kind's own search (``Kind.search``), run
        in the child, telling ``progress`` (a :class:`SearchProgress`) of its nodes;
        ``check(grid)`` the independent checker, run here on what it sends. With
        ``exhaustive`` only an exhausted search is decisive (``--forced``: a proof that the
        solutions found are all there are). The child runs in a process group of its own, which
        joins ``share`` (:class:`fillsmt.engine.schedule.Share`), if given. ``watch(progress)``, if given,
        is called here with the child's :class:`Progress` every :data:`WATCH_EVERY` seconds
        while it runs (from the race's thread: it must be quick)."""
        self.search, self.check, self.limit, self.timeout, self.delay = search, check, limit, timeout, delay
        self.exhaustive = exhaustive
        self.share = share
        self.watch = watch
        self.progress: SearchProgress | None = None
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
            self.progress = SearchProgress()
            pid = os.fork()
            if pid == 0:  # the child: search, send, leave without running the parent's clean-up
                self._child(write, parent, started)
            self.pid = pid
            try:
                os.setpgid(pid, pid)  # as the child does: whichever runs first
            except OSError:  # the child has already ended
                pass
            if self.share is not None:
                self.share.joins(pid)
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
            os.setpgid(0, 0)
            _orphan_guard(parent)
            deadline = None if self.timeout is None else started + self.timeout
            found = self.search(self.limit, deadline, self.progress)
            data = pickle.dumps(
                RulesOutcome(
                    found.solutions, found.exhausted, found.nodes, found.max_depth, self.limit, self.exhaustive
                )
            )
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
                ready, _, _ = select.select([fd], [], [], WATCH_EVERY)
                if not ready:
                    if self._closed:
                        return
                    if self.watch is not None and self.progress is not None:
                        self.watch(self.progress.read())
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

    def open_session(self, priority=None):
        """The driver's session; closed at once if the search has already won."""
        session = self.driver.open_session(priority)
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
        self._hurry = threading.Event()
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

    def hurry(self) -> None:
        """Start every configuration still waiting for its delay now (the search has stalled)."""
        self._hurry.set()

    def _run(self, name: str, delay: float, attempt) -> None:
        until = time.monotonic() + delay
        while not self._hurry.is_set():
            left = until - time.monotonic()
            if left <= 0 or self.stop.wait(min(left, WATCH_EVERY)):
                break
        if self.stop.is_set():
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


__all__ = [
    "WATCH_EVERY",
    "Entrants",
    "Progress",
    "RulesOutcome",
    "RulesRace",
    "SearchProgress",
    "SessionRace",
    "can_race",
]
