"""The race's mechanism: the racers, each in a thread, the kind's search in a forked child.

A kind's search and an SMT solver have different tails: Fillomino's deduction rules plus
backtracking settle puzzles whose regions snake through large open areas, where the solver's
search, with no connectivity reasoning beyond its encoding, does not finish, and the solver
settles others the search does not. So they race, and the first *decisive* answer wins; the
others are stopped (a solver's process group killed, or its session closed; the search's child
killed and reaped). :class:`Entrants` runs each racer but the lead in a thread of its own, each
started after its delay, so a puzzle the lead answers at once costs nothing more;
:class:`SearchChild` runs the kind's search in a forked child for its racer's thread, and
:class:`SessionRace` lets the race close a racer's session. Nothing of any side is trusted: a grid
the child sends is checked by the kind's independent checker here, and again by the engine; the
child's "no solution" (or "no other solution") is the exhausted search of a sound and complete
procedure (:mod:`fillsmt.fillomino.search`'s text: the rules never remove a value some solution
uses, and a guess splits the solutions between its two children).
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

from fillsmt.engine.result import SearchOutcome

READY = b"\x00"
"""The search child's first byte: it holds no descriptor of this process's but its pipe."""
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


class SearchChild:
    """The kind's search in a forked child process, for one racer: :meth:`run` forks the child,
    waits for its answer (checked here) and returns it, or kills and reaps the child when the
    race's ``stop`` is set first. Use as a context manager, which reaps the child whatever happens.

    The child closes every inherited descriptor but its own pipe at once, so it never holds the
    solvers' pipes open; it runs in a process group of its own, which joins ``share``
    (:class:`fillsmt.engine.schedule.Share`), if given, and it leaves as soon as this process is
    gone. ``watch(progress)``, if given, is called here with the child's :class:`Progress` every
    :data:`WATCH_EVERY` seconds while it runs (it must be quick)."""

    def __init__(
        self, search, check, limit: int, timeout: float | None, exhaustive: bool = False, share=None, watch=None
    ):
        """``search(limit, deadline, progress)`` is the kind's own search (``Searches.search``),
        run in the child, telling ``progress`` (a :class:`SearchProgress`) of its nodes;
        ``check(grid)`` the independent checker, run here on what it sends. With ``exhaustive``
        only an exhausted search is decisive (``--forced``: a proof that the solutions found are
        all there are)."""
        self.search, self.check, self.limit, self.timeout = search, check, limit, timeout
        self.exhaustive, self.share, self.watch = exhaustive, share, watch
        self.progress: SearchProgress | None = None
        self.pid: int | None = None
        self._lock = threading.Lock()
        self._closed = False

    def __enter__(self) -> SearchChild:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def run(self, stop: threading.Event) -> SearchOutcome | None:
        """Fork the child and wait: its outcome (every grid it sends checked), or None when
        ``stop`` came first, the child failed, or a grid it sent fails the check."""
        started = time.monotonic()
        read, write = os.pipe()
        with self._lock:
            if self._closed or stop.is_set():
                os.close(read)
                os.close(write)
                return None
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
        os.close(write)
        try:
            if not self._ready(read, stop):
                return None
            if self.share is not None:  # only now may the child be stopped for another's slice
                self.share.joins(pid)
            return self._wait(read, stop)
        finally:
            os.close(read)
            self.stop()

    def _ready(self, fd: int, stop: threading.Event) -> bool:
        """Wait for the child's first byte: it has closed the descriptors it inherited. Until
        then it must not be stopped: a descriptor this process is about to close (a solver's
        pipe being made in another thread) would stay open in it, and the other thread wait."""
        while True:
            ready, _, _ = select.select([fd], [], [], WATCH_EVERY)
            if ready:
                try:
                    return os.read(fd, 1) == READY
                except OSError:
                    return False
            if self._closed or stop.is_set():
                return False

    def _child(self, write: int, parent: int, started: float) -> None:
        code = 0
        try:
            os.closerange(0, write)
            os.closerange(write + 1, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
            os.setpgid(0, 0)
            os.write(write, READY)
            _orphan_guard(parent)
            deadline = None if self.timeout is None else started + self.timeout
            found = self.search(self.limit, deadline, self.progress)
            data = pickle.dumps(SearchOutcome.of(found, self.limit, self.exhaustive))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)

    def _wait(self, fd: int, stop: threading.Event) -> SearchOutcome | None:
        chunks = []
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], WATCH_EVERY)
                if not ready:
                    if self._closed or stop.is_set():
                        return None
                    if self.watch is not None and self.progress is not None:
                        self.watch(self.progress.read())
                    continue
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError:
            return None
        if not chunks or self._closed:
            return None
        try:
            outcome = pickle.loads(b"".join(chunks))
        except Exception:
            return None
        if any(self.check(g) for g in outcome.solutions):
            return None  # the search checks its grids: a refused one would be a bug, never an answer
        return outcome

    def stop(self) -> None:
        """No fork from now on; kill and reap the child if there is one."""
        with self._lock:
            self._closed = True
            pid, self.pid = self.pid, None
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _orphan_guard(parent: int) -> None:
    """In the child: leave as soon as the parent is gone (a killed bench worker, say)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


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

    def add(self, name: str, delay: float, attempt, due: threading.Event | None = None) -> None:
        """Run ``attempt()`` in a thread of its own after ``delay`` seconds, or at once when
        ``due`` is set (the racer has fallen behind its share: :class:`fillsmt.engine.schedule.Share`)."""
        thread = threading.Thread(target=self._run, args=(name, delay, attempt, due), name=f"race-{name}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def hurry(self) -> None:
        """Start every configuration still waiting for its delay now (the search has stalled)."""
        self._hurry.set()

    def _run(self, name: str, delay: float, attempt, due: threading.Event | None = None) -> None:
        until = time.monotonic() + delay
        while not self._hurry.is_set() and not (due is not None and due.is_set()):
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
    "SearchChild",
    "SearchProgress",
    "SessionRace",
]
