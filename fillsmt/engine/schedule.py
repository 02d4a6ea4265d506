"""How the racers of one solve share the CPU: time slices among their processes.

A race runs several CPU-bound processes: the solver asked for, the kind's search (a forked
child), and the plan's other configurations (each a solver process of its own). Left to the
operating system, they would take as many cores as there are racers, and on a busy machine an
entrant lowered in priority would starve. Instead the race gives the CPU out itself:
:class:`TimeSlices` lets at most ``cpus`` of its racers run at once and stops the others
(``SIGSTOP`` to their process groups, ``SIGCONT`` when their turn comes), switching every
:data:`SLICE` seconds. Each racer (:class:`Share`) has a weight; the racers that run in a slice
are those that have had the fewest slices for their weight (a racer may also have a head start:
slices of its own before the others get theirs), but none may fall more than :data:`SLACK` behind
its equal share of what the race has used, counted at most one CPU's worth at a time (one CPU's
worth is all a racer alone could have had): on one CPU the racers' shares even out, on more the
CPU beyond one's worth goes by the weights. That holds whatever else runs on the machine, and no
racer's priority is ever lowered: a stopped racer is only waiting for its slice. On a busy
machine every racer that runs gets the operating system's share alike; running fewer at once
would not favour anyone for long (the equal shares above), and racers whose processes idle while
fillsmt's own process works for them (one interpreter for all their in-process work) would look
like a busy machine and lose CPUs that are free. While no more racers live than may run, nothing
is stopped at all.

A racer's processes are the process groups it :meth:`Share.joins` (a solver process, started in a
group of its own, through the driver's ``share.started(proc)``; the search child, which makes its
own group). Before its first group joins, a racer may be worked for in fillsmt's own process (its
problem encoded, its solver started: :meth:`Share.working`); that work cannot be stopped, so it
holds one of the ``cpus`` and the others wait for the rest. A group whose leader has ended (or is
a zombie) no longer counts. When the race ends (:meth:`TimeSlices.close`) every group still
stopped is continued, so that killing or closing it works as for any other process. Where
process groups cannot be stopped (no ``SIGSTOP``, no ``/proc``), every racer simply runs.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

SLICE = 0.05
"""Seconds (wall clock) between two choices of who runs."""
SLACK = 0.05
"""Seconds of CPU by which a racer may fall behind its equal share of what the race has used: the
plan's weights, head starts and delays favour racers within it, never beyond (the bound in
``docs/solving.md``: a race of k entrants takes at most about k × (its best entrant alone +
this + a slice), so k × this plus the slices' share stays within 0.3 s for the k = 3 of
today's plans)."""
CARRY = SLICE
"""Seconds of CPU used beyond one CPU's worth of wall time that a look carries over to the next
(:meth:`TimeSlices._accrue`): the CPU readings move by clock ticks, so one look may see a little
more than the time since the last and the next a little less; more is never owed."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_RACE_CPUS: list[int] = []
"""The process-wide limit of :func:`limit_race_cpus` (empty: none)."""
_BLOCK_LIMITS: dict[object, int] = {}
"""The limits of the :func:`race_cpus_at_most` blocks open now, one entry per block: blocks in
several threads at once (a Dask worker's jobs) may end in any order."""


def limit_race_cpus(cpus: int | None) -> None:
    """From now on, in this process, at most ``cpus`` processes of a race run at once (None: as
    many as :func:`usable_cpus`). ``fillsmt bench`` gives each of its ``--jobs`` workers 1, so
    that N jobs never run more than N CPU-bound processes."""
    _RACE_CPUS[:] = [] if cpus is None else [max(1, int(cpus))]


@contextmanager
def race_cpus_at_most(cpus: int) -> Iterator[None]:
    """Within the block, at most ``cpus`` processes of a race run at once (or fewer, if already
    so); then as before, whatever other blocks opened or closed meanwhile."""
    token = object()
    _BLOCK_LIMITS[token] = max(1, int(cpus))
    try:
        yield
    finally:
        del _BLOCK_LIMITS[token]


def race_cpus() -> int:
    """How many processes of a race may run at once in this process (:func:`limit_race_cpus`,
    :func:`race_cpus_at_most`)."""
    return min([*_RACE_CPUS[:1], *list(_BLOCK_LIMITS.values())] or [usable_cpus()])


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process(pid: int) -> tuple[bool, float]:
    """Whether process ``pid`` runs (exists and is not a zombie), and its CPU seconds so far."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False, 0.0
    fields = stat[stat.rfind(b")") + 2 :].split()
    return fields[0] not in (b"Z", b"X"), (int(fields[11]) + int(fields[12])) / _TICK


class _ThreadClock:
    """The CPU seconds of the thread that made it (from ``base``), readable from any thread: its
    CPU clock where the system has one per thread, else the wall clock (an upper bound). Once the
    thread has ended, its last reading."""

    def __init__(self, base: float = 0.0):
        self.base = base
        try:
            self._clock: int | None = time.pthread_getcpuclockid(threading.get_ident())
            self._start = time.clock_gettime(self._clock)
        except (AttributeError, OSError):
            self._clock, self._start = None, time.monotonic()
        self._last = base

    def seconds(self) -> float:
        try:
            now = time.monotonic() if self._clock is None else time.clock_gettime(self._clock)
        except OSError:  # the thread has ended
            return self._last
        self._last = max(self._last, self.base + now - self._start)
        return self._last


def can_slice() -> bool:
    """Whether this system lets the race stop and continue process groups and see them end."""
    return hasattr(signal, "SIGSTOP") and os.path.isdir("/proc/self")


class Share:
    """One racer's part of the CPU: its ``weight``, its process groups, and its account: the CPU it
    has used and its equal share of what the race has used (``accrued``, :meth:`TimeSlices._accrue`)."""

    def __init__(self, slices: "TimeSlices", name: str, weight: float):
        self.slices, self.name, self.weight = slices, name, float(weight)
        self.groups: list[int] = []
        self.granted = 0.0
        """Slices (in seconds) this racer has been let run while others were stopped."""
        self.running = True
        self.in_process = False
        """Whether the race's own process works for this racer now (:meth:`working`)."""
        self.cpu_seen: dict[int, float] = {}
        """Each of its groups' leader's CPU seconds when last seen (an ended one keeps its last)."""
        self.charged = 0.0
        """CPU seconds this racer used before the race (:meth:`charge`)."""
        self.worked = 0.0
        """CPU seconds the race's own process has worked for it (:meth:`working`: the thread its
        racer runs in, from encoding its problem to reading its last answer), counted as its CPU."""
        self._thread_clock: _ThreadClock | None = None
        self.accrued = 0.0
        """Its equal share of the CPU the race's racers have used while it was in the race (of at
        most one CPU's worth at a time: :meth:`TimeSlices._accrue`)."""
        self.finished = False
        """Its racer has answered or given up: it no longer takes a share."""
        self.due = threading.Event()
        """Set when a racer that waits for its delay must start now: it is :data:`SLACK` behind."""

    @property
    def used(self) -> float:
        """The CPU seconds this racer has used: its processes', and the race's work for it."""
        clock = self._thread_clock
        return self.charged + sum(self.cpu_seen.values()) + (self.worked if clock is None else clock.seconds())

    @property
    def behind(self) -> float:
        """How far (CPU seconds) this racer is behind its equal share of what the race has used."""
        return self.accrued - self.used

    @property
    def pending(self) -> bool:
        """In the race, but not started yet (waiting for its delay)."""
        return not (self.finished or self.groups or self.in_process or self.worked)

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of CPU this racer used before the race as used in it (the kind's
        quick search in fillsmt's own process, before the race: the search's racer): the
        others' equal shares grow by their part of it."""
        self.charged += max(0.0, seconds)

    def finish(self) -> None:
        """Its racer has ended (answered, or given up): the others share the CPU from now on."""
        self.slices.finish(self)

    def joins(self, pgid: int) -> None:
        """A process group of this racer's has started (its leader's pid is ``pgid``)."""
        self.slices.add(self, pgid)

    @contextmanager
    def working(self) -> Iterator[None]:
        """Within the block the race's own process works for this racer, in the thread that
        enters it: it encodes the racer's problem and starts its solver, and later reads the
        solver's answers and writes what a session asks next (a blocking clause, the lazy
        encodings' cuts). All of that thread's CPU in the block counts as the racer's. Until a
        process group of the racer's joins, that work cannot be stopped, so it holds one of the
        CPUs the racers share, and a racer whose turn it is not waits."""
        self.slices.work(self, True)
        try:
            yield
        finally:
            self.slices.work(self, False)

    def started(self, proc: Any) -> None:
        """A solver process of this racer's has started in a group of its own (the drivers'
        hook: ``subprocess.Popen``)."""
        self.joins(proc.pid)

    def look(self) -> tuple[bool, float]:
        """Whether a process group of this racer's runs, and the CPU seconds of its leaders (each
        seen also noted in :attr:`cpu_seen`)."""
        alive_any, cpu_sum = False, 0.0
        for pgid in self.groups:
            alive, cpu = _process(pgid)
            if alive:
                self.cpu_seen[pgid] = max(cpu, self.cpu_seen.get(pgid, 0.0))
            alive_any, cpu_sum = alive_any or alive, cpu_sum + cpu
        return alive_any, cpu_sum


class TimeSlices:
    """At most ``cpus`` racers' processes run at once, the others wait for their slice (see the
    module's text). Use as a context manager: the slicing thread runs inside it, and every
    group it stopped is continued when it ends."""

    def __init__(self, cpus: int | None = None, slice_seconds: float = SLICE):
        self.cpus = max(1, cpus if cpus is not None else race_cpus())
        self.slice = slice_seconds
        self.shares: list[Share] = []
        self._stopped: set[int] = set()
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self.enabled = can_slice()
        self.switches = 0
        """How many times a racer was stopped for another's slice."""
        self.slack = SLACK
        self._accounted = 0.0
        """The racers' CPU already seen by :meth:`_accrue`."""
        self._carried = 0.0
        """CPU seen but not shared out, up to :data:`CARRY` (:meth:`_accrue`)."""
        self._looked: float | None = None
        """When :meth:`_accrue` last looked (monotonic)."""

    def share(self, name: str, weight: float = 1.0, head_start: float = 0.0) -> Share:
        """A new racer's share of the CPU; with a ``head_start`` it runs before the others for
        that many seconds of slices (where they contend for the CPUs), then takes its share."""
        share = Share(self, name, weight)
        share.granted = -head_start * share.weight
        with self._lock:
            self.shares.append(share)
        return share

    def add(self, share: Share, pgid: int) -> None:
        """A group joins ``share``: it waits at once if it is not its racer's turn."""
        with self._lock:
            share.groups.append(pgid)
            share.in_process = False
            if not self._start():
                return
        self._turn(grant=False)

    def work(self, share: Share, on: bool) -> None:
        """The race's own process works for ``share`` (``on``), or no longer (:meth:`Share.working`)."""
        with self._lock:
            share.in_process = on and not share.groups
            if on and share._thread_clock is None:
                share._thread_clock = _ThreadClock(share.worked)
            elif not on and share._thread_clock is not None:
                share.worked = share._thread_clock.seconds()
                share._thread_clock = None
            if not self._start():
                return
        self._turn(grant=False)

    def finish(self, share: Share) -> None:
        """``share``'s racer has ended (:meth:`Share.finish`)."""
        with self._lock:
            self._accrue()
            share.finished = True

    def _start(self) -> bool:
        """Start the slicing thread if it is not running (under the lock); False where nothing is
        sliced (the system cannot, or the race has ended)."""
        if not self.enabled or self._done.is_set():
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="time-slices", daemon=True)
            self._thread.start()
        return True

    def __enter__(self) -> "TimeSlices":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _loop(self) -> None:
        while not self._done.wait(self.slice):
            self._turn()

    def _turn(self, grant: bool = True) -> None:
        """Choose who runs now; ``grant``: the ones chosen are granted the coming slice."""
        with self._lock:
            if self._done.is_set():
                return
            seen = {s: s.look() for s in self.shares if s.groups}
            live = [s for s, (alive, _) in seen.items() if alive]
            working = [s for s in self.shares if s.in_process]
            self._accrue()
            for s in self.shares:  # a racer waiting for its delay that has fallen behind starts now
                if s.pending and s.behind >= self.slack:
                    s.due.set()
            if len(live) + len(working) <= self.cpus:
                run, wait = live + working, []
            else:  # work in this process cannot wait: it holds its CPUs first
                # who has fallen SLACK behind its equal share runs first (the most behind first),
                # then the others by the plan's weights: the fewest slices for their weight first
                order = sorted(
                    live,
                    key=lambda s: (
                        s.behind < self.slack,
                        -s.behind if s.behind >= self.slack else s.granted / s.weight,
                        self.shares.index(s),
                    ),
                )
                free = max(0, self.cpus - len(working))
                run, wait = working + order[:free], order[free:]
                if grant:
                    for s in run:
                        s.granted += self.slice
            for s in wait:
                if s.running:
                    self.switches += 1
                self._signal(s, signal.SIGSTOP)
                s.running = False
            for s in run:
                self._signal(s, signal.SIGCONT)
                s.running = True

    def _accrue(self) -> None:
        """Share out the CPU the racers used since the last look equally among the racers in the
        race then (started or waiting for their delay; not the ended ones), under the lock, but
        never more than one CPU's worth: the wall time since the last look. A racer alone runs on
        one CPU at most, so a share of 1/k of that is all the bound needs (``docs/solving.md``);
        what the racers used beyond it, on more CPUs, goes by the plan's weights. What a look
        holds back is carried to the next up to :data:`CARRY` (the readings' clock ticks)."""
        total = sum(s.used for s in self.shares)
        fresh, self._accounted = total - self._accounted, total
        now = time.monotonic()
        cpu_worth = fresh if self._looked is None else now - self._looked
        self._looked = now
        seen = fresh + self._carried
        shared = min(seen, cpu_worth)
        self._carried = min(max(0.0, seen - shared), CARRY)
        active = [s for s in self.shares if not s.finished]
        if shared > 0 and active:
            for s in active:
                s.accrued += shared / len(active)

    def _signal(self, share: Share, sig: int) -> None:
        for pgid in share.groups:
            if sig == signal.SIGSTOP:
                if pgid in self._stopped:
                    continue
                self._stopped.add(pgid)
            elif pgid not in self._stopped:
                continue
            else:
                self._stopped.discard(pgid)
            try:
                os.killpg(pgid, sig)
            except (ProcessLookupError, PermissionError):
                self._stopped.discard(pgid)

    def close(self) -> None:
        """End the slicing: every group it stopped runs again."""
        with self._lock:
            self._done.set()
            stopped, self._stopped = list(self._stopped), set()
        for pgid in stopped:
            try:
                os.killpg(pgid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(1.0)


__all__ = [
    "SLACK",
    "SLICE",
    "Share",
    "TimeSlices",
    "can_slice",
    "limit_race_cpus",
    "race_cpus",
    "race_cpus_at_most",
    "usable_cpus",
]
