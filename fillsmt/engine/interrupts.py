"""SIGINT, SIGTERM and SIGHUP end fillsmt promptly, with every solver process it started.

:func:`exit_on_signals` turns each of these signals into a :class:`Terminated` exception in the
main thread. The exception unwinds through the drivers, whose cleanup (``except BaseException``
and ``finally`` blocks, session ``with`` blocks) kills each solver's whole process group, and
becomes exit status 128 + the signal's number (130 for Ctrl-C): what a batch scheduler, ``timeout``
or BenchExec expects of a run they stop.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

_stopping = threading.Event()


class Terminated(BaseException):
    """fillsmt received ``signum`` and is stopping (a BaseException, like KeyboardInterrupt, so
    that no ``except Exception`` swallows it)."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def stopping() -> bool:
    """True once a signal has asked fillsmt to stop: cleanup should kill, not wait."""
    return _stopping.is_set()


_native_left = threading.Event()


def native_work_interrupted() -> None:
    """Called when a native call that fillsmt could not stop is left running in its helper
    thread (:func:`native_call`): the interpreter's normal shutdown would tear things down under
    it, so a signal exit then ends the process with ``os._exit`` once the message is out."""
    _native_left.set()


LET_GO = 0.5
"""Seconds an interrupted native call (:func:`native_call`) gets to return once asked to stop,
before fillsmt goes on without it (a signal must end fillsmt within a second)."""

_POLL = 0.05
"""Seconds of one wait for a native call: a :func:`_thread_limit`'s exception lands in between."""

_STOP_EVERY = 0.01
"""Seconds between two requests to stop an interrupted native call: libyices ignores one that
comes before its search has begun (while it still preprocesses), so the request is repeated."""


def native_call(
    work: Callable[[], Any],
    stop: Callable[[], None],
    name: str,
    left_running: Callable[[], None] = lambda: None,
    returned_late: Callable[[], None] = lambda: None,
) -> Any:
    """``work()`` (a long native call: a solver's search) in a daemon thread named ``name``
    while this thread waits, so that a signal or a time limit (:func:`exit_on_signals`,
    :func:`time_limit`) is handled at once; ``work``'s result, or its exception.

    When the wait is interrupted, ``stop()`` is called every :data:`_STOP_EVERY` seconds until
    ``work`` has returned, for at most :data:`LET_GO` seconds, and the exception goes on: the
    caller may then free what ``work`` used. If ``work`` is still running then, ``left_running()``
    is called (the caller must then free nothing ``work`` uses) and, in the helper thread once
    ``work`` returns, ``returned_late()`` (which may free it).

    The wait is an event, never ``Thread.join``: in CPython 3.11 a join interrupted by an
    exception releases the running thread's lock and marks it stopped (bpo-45274's fix), so any
    later join returns at once while the thread is still in native code; freeing the solver's
    context then crashed fillsmt with SIGSEGV."""
    lock, done, given_up = threading.Lock(), threading.Event(), [False]
    result: list = []

    def run() -> None:
        try:
            with lock:
                go = not given_up[0]
            if go:
                result.append((True, work()))
        except BaseException as e:  # handed to the waiting thread
            result.append((False, e))
        finally:
            with lock:
                done.set()
                late = given_up[0]
            if late:
                returned_late()

    helper = threading.Thread(target=run, name=name, daemon=True)
    try:
        helper.start()
        while not done.wait(_POLL):  # short waits: a time limit's exception lands in any thread
            _keep_handlers()
    except BaseException:
        _let_go(stop, done)
        with lock:
            given_up[0] = not done.is_set()
        if given_up[0]:
            native_work_interrupted()
            left_running()
        raise
    ok, value = result[0]
    if ok:
        return value
    raise value


def _keep_handlers() -> None:
    """Put fillsmt's signal handlers back in place in case native code replaced them: Z3 sets a
    SIGINT handler of its own while it searches, which would take Ctrl-C from :func:`_raise` and
    end the search with ``unknown`` instead of stopping fillsmt. Main thread only, as Python
    requires; only handlers :func:`exit_on_signals` installed are renewed."""
    if threading.current_thread() is not threading.main_thread():
        return
    for s in SIGNALS:
        if signal.getsignal(s) is _raise:
            signal.signal(s, _raise)


def _let_go(stop: Callable[[], None], done: threading.Event) -> None:
    """Ask an interrupted native call to stop until it has returned or :data:`LET_GO` seconds
    have passed. A further signal or alarm meanwhile is dropped: the first one is on its way."""
    deadline = time.monotonic() + LET_GO
    while not done.is_set() and time.monotonic() < deadline:
        try:
            stop()
            done.wait(_STOP_EVERY)
        except BaseException:
            pass


def _leave(code: int) -> None:
    if _native_left.is_set():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    raise SystemExit(code)


_DEFER = 0.01
"""Seconds after which a signal or an alarm that came during a finalizer is delivered again."""


_collecting = [False]
"""True between the garbage collector's first ``start`` callback and its last ``stop`` one:
the finalizers and weakref callbacks a collection runs (which show nothing of it in their
frames) run in between."""


def _gc_started(phase: str, info: dict) -> None:
    if phase == "start":
        _collecting[0] = True


def _gc_stopped(phase: str, info: dict) -> None:
    if phase == "stop":
        _collecting[0] = False


gc.callbacks.insert(0, _gc_started)
gc.callbacks.append(_gc_stopped)

_UNINTERRUPTED: set = set()
"""The code of the functions marked :func:`uninterrupted`."""


def uninterrupted(function: Callable) -> Callable:
    """Mark ``function`` as one a stopping signal or a time limit does not interrupt: one that
    comes while it runs is delivered just after it returns (as for a finalizer,
    :func:`_must_not_raise`). For clean-up that must finish once begun, such as removing a solver
    run's folder: interrupted halfway, it would leave the folder behind."""
    _UNINTERRUPTED.add(function.__code__)
    return function


def _must_not_raise(frame) -> bool:
    """True when no exception may be raised at ``frame`` (where a signal interrupted Python): it
    runs inside a garbage collection
    (a finalizer or weakref callback it runs), a garbage-collector callback (hypothesis and
    distributed install some) or a ``__del__``: an exception raised there is dropped by Python
    as "unraisable" (pytest warns of it) and the run would go on. Also inside a function marked
    :func:`uninterrupted`, which must finish first."""
    if _collecting[0]:
        return True
    callbacks = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code in callbacks or code in _UNINTERRUPTED:
            return True
        frame = frame.f_back
    return False


def _deliver_again(signum: int) -> None:
    """Send ``signum`` to this process again in :data:`_DEFER` seconds (a timer thread; the
    handler then runs in the main thread, outside the finalizer)."""
    timer = threading.Timer(_DEFER, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def deferred(signum: int, frame) -> bool:
    """For a signal handler that raises: True when ``frame`` is in a finalizer (an exception
    raised there would be dropped), and then ``signum`` comes again just after it (from the
    :func:`resending` block's thread when there is one, else from a timer: one way, not two)."""
    if _must_not_raise(frame):
        if not any(signum in r.signals for r in _resenders):
            _deliver_again(signum)
        return True
    return False


def _raise(signum, frame) -> None:
    if deferred(signum, frame):
        return
    # The first signal stops the run; repeats while the solvers are being killed are ignored.
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    _stopping.set()
    raise Terminated(signum)


RESEND = 0.05
"""Seconds a stopping signal may wait for its handler before :class:`_Resender` sends it to the
main thread again."""


class _Resender:
    """Sees that a signal reaches its handler while the main thread waits on a lock.

    Python runs a handler in the main thread, when that thread next runs Python code; a lock
    wait (a solver's reply, up to the time-out) ends early only when the signal interrupts that
    very wait. It does not when the kernel hands the signal to another thread (any thread that
    does not block it may take one sent to the process), nor when it lands in the main thread
    just before the wait begins (while the thread hands the interpreter's lock to another one):
    a SIGTERM then ended a staged race 9 s late. So every signal is also written to a pipe
    (:func:`signal.set_wakeup_fd`); a thread reading it sends each of ``signals`` to the main
    thread again (:func:`signal.pthread_kill`) every :data:`RESEND` seconds while ``handler``
    is still its handler: the handler, once it has run, ignores the signal (as :func:`_raise`
    does) or a signal that came during a finalizer (:func:`deferred`) comes again."""

    def __init__(self, handler: Callable, signals: tuple[int, ...]) -> None:
        self.handler, self.signals = handler, signals
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._before = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._main = threading.get_ident()
        self._lock, self._done = threading.Lock(), threading.Event()
        self._thread = threading.Thread(target=self._watch, name="signal-resend", daemon=True)
        self._thread.start()
        _resenders.append(self)

    def _watch(self) -> None:
        while not self._done.is_set():
            try:
                got = os.read(self._read, 64)
            except OSError:
                return
            for signum in set(got).intersection(self.signals):
                while signal.getsignal(signum) is self.handler and not self._done.wait(RESEND):
                    with self._lock:
                        if self._done.is_set() or signal.getsignal(signum) is not self.handler:
                            break
                        signal.pthread_kill(self._main, signum)

    def close(self) -> None:
        """Stop resending (once this returns, no signal is sent again) and put back the wakeup
        file descriptor there was before."""
        with self._lock:
            self._done.set()
        try:
            os.write(self._write, b"\0")  # wakes the reading thread
        except OSError:  # a full pipe: the thread has bytes to read, and wakes anyway
            pass
        self._thread.join(1.0)
        signal.set_wakeup_fd(self._before)
        self._forget()

    def _forget(self) -> None:
        self._done.set()
        if self in _resenders:
            _resenders.remove(self)
        for fd in (self._read, self._write):
            try:
                os.close(fd)
            except OSError:
                pass


_resenders: list[_Resender] = []


def _after_fork() -> None:
    """In a forked child (the rules' search racing): the parent's pipe and thread are not its
    own; a signal the child takes must not reach the parent's resender."""
    if _resenders:
        signal.set_wakeup_fd(-1)
        for r in list(_resenders):
            r._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


@contextlib.contextmanager
def resending(handler: Callable, signals: tuple[int, ...] = SIGNALS) -> Iterator[None]:
    """Within the block (in the main thread, where ``handler`` is installed for ``signals``),
    each of them reaches ``handler`` however the main thread waits (:class:`_Resender`);
    ``handler`` must ignore its signal once it has run. Elsewhere, or without POSIX threads'
    signals, nothing more happens."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_kill"):
        yield
        return
    resender = _Resender(handler, signals)
    try:
        yield
    finally:
        resender.close()


@contextlib.contextmanager
def exit_on_signals() -> Iterator[None]:
    """Within the block, SIGINT/SIGTERM/SIGHUP raise :class:`Terminated`; leaving the block on
    one prints a line and exits with 128 + its number. Outside the main thread, does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        # An ignored SIGINT or SIGHUP (a background job, nohup) stays ignored, as Python does for SIGINT.
        if previous[s] is not signal.SIG_IGN or s == signal.SIGTERM:
            signal.signal(s, _raise)
    try:
        with resending(_raise):
            yield
    except Terminated as e:
        print(f"fillsmt: {e}", file=sys.stderr)
        _leave(e.exit_code)
    except KeyboardInterrupt:  # a SIGINT that came before the handler was in place
        print("fillsmt: stopped by SIGINT", file=sys.stderr)
        _leave(128 + signal.SIGINT)
    except SystemExit as e:  # any exit (a time-out too) after a native search was interrupted
        if _native_left.is_set():
            _leave(e.code if isinstance(e.code, int) else 0 if e.code is None else 1)
        raise
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _stopping.clear()


GRACE = 1.0
"""Seconds past a run's time-out before :func:`time_limit` stops whatever is still running: the
solvers stop themselves at the time-out; this covers the stages around them."""

START_ALLOWANCE = 1.0
"""Seconds of fillsmt's own start (the interpreter, the imports, reading the puzzle: 0.3 s of CPU
time) that a command line's first time limit does not count (:func:`count_the_start`)."""

_counted_start: list = [None]
"""The process whose start the next time limit counts (set by :func:`count_the_start`)."""


def count_the_start() -> None:
    """Make this process's next time limit count its start beyond :data:`START_ALLOWANCE`:
    ``--timeout T`` then ends a command line within T + :data:`GRACE` + the allowance of the
    process's start, however slowly it started. A starved process (5% of a CPU, as under
    ``nice 10`` at load 12) takes 7 s to reach its first limit, and ``--timeout 150`` ended at
    159 s. Called for a real command line only (not for a command run inside a test)."""
    _counted_start[0] = os.getpid()


def process_age() -> float:
    """Seconds since this process started (Linux's /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/stat") as stat:
            started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def _slow_start() -> float:
    """The seconds of this process's start beyond :data:`START_ALLOWANCE`, once after
    :func:`count_the_start` in this process; otherwise 0."""
    if _counted_start[0] != os.getpid():
        return 0.0
    _counted_start[0] = None
    return max(0.0, process_age() - START_ALLOWANCE)


class OutOfTime(BaseException):
    """A :func:`time_limit` ran out (a BaseException, so that no ``except Exception`` on the way,
    a decoder's or a bench job's, mistakes it for a failure of its own)."""


_AGAIN = 0.25
"""Seconds after which a time limit's alarm fires again until the limit's block is left: should
the exception be lost on its way (swallowed by code that catches everything), the run must not go
on without limit because of it."""


def _out_of_time(signum, frame) -> None:
    if _must_not_raise(frame):  # raised there, it would be dropped: come back just after
        signal.setitimer(signal.ITIMER_REAL, _DEFER)
        return
    _stopping.set()  # cleanup on the way out kills its solvers rather than ask them to exit
    signal.setitimer(signal.ITIMER_REAL, _AGAIN)
    raise OutOfTime()


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`OutOfTime` in the block once ``seconds`` have passed, whatever it is doing
    (presolve, encoding, sending, waiting for a solver: the drivers' cleanup kills their solvers
    as it propagates). Nested limits keep the earlier end. ``None`` sets no limit. In the main
    thread the alarm is SIGALRM; in another thread (a ``bench --dask`` worker's), where no signal
    is delivered, a timer thread raises the exception in it (:func:`_thread_limit`). The first
    limit after :func:`count_the_start` ends that much earlier as the process was slow to start."""
    if seconds is None:
        yield
        return
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        with _thread_limit(seconds):
            yield
        return
    previous_handler = signal.signal(signal.SIGALRM, _out_of_time)
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    seconds -= _slow_start()
    started, stopping = time.monotonic(), _stopping.is_set()
    signal.setitimer(signal.ITIMER_REAL, max(0.001, min(seconds, outer) if outer else seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if not stopping:
            _stopping.clear()
        if outer:  # the enclosing limit goes on with what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(0.001, outer - (time.monotonic() - started)))


@functools.cache
def _async_exc() -> Callable[[int, Any], None] | None:
    """``exc`` raised in thread ``ident`` (None: the one set is cleared) through CPython's
    ``PyThreadState_SetAsyncExc``, or None without that API; ctypes loads on first use."""
    import ctypes

    set_async_exc = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
    if set_async_exc is None:
        return None
    return lambda ident, exc: set_async_exc(ctypes.c_ulong(ident), exc and ctypes.py_object(exc))


@contextlib.contextmanager
def _thread_limit(seconds: float) -> Iterator[None]:
    """:func:`time_limit` for a thread other than the main one: a timer raises
    :class:`OutOfTime` in the thread (CPython's ``PyThreadState_SetAsyncExc``) once ``seconds``
    have passed, again every :data:`_AGAIN` seconds until the block is left, and just after a
    finalizer it interrupted. It lands when the thread next runs Python code (the drivers'
    waits are short polls). Without that API (not CPython) it sets no limit."""
    set_async_exc = _async_exc()
    if set_async_exc is None:
        yield
        return
    ident, lock, armed = threading.get_ident(), threading.Lock(), [True]

    def fire() -> None:
        with lock:
            if not armed[0]:
                return
            frame = sys._current_frames().get(ident)
            if frame is not None and _must_not_raise(frame):
                return schedule(_DEFER)
            set_async_exc(ident, OutOfTime)
            schedule(_AGAIN)

    def schedule(delay: float) -> None:
        timer = threading.Timer(delay, fire)
        timer.daemon = True
        timers.append(timer)
        timer.start()

    timers: list[threading.Timer] = []
    schedule(seconds)
    try:
        yield
    finally:
        with lock:
            armed[0] = False
            set_async_exc(ident, None)  # one set but not yet raised goes too
        for timer in timers:
            timer.cancel()


def run_within(timeout: float | None, run: Callable[[], Any], timed_out: Callable[[], Any]) -> Any:
    """``run()``, stopped :data:`GRACE` seconds past ``timeout`` whatever stage it is in (the
    stages check ``timeout`` themselves; this stops one that does not): then ``timed_out()``.
    Every command's ``--timeout`` goes through here (``solve``, ``count``, ``generate``, ``rate``,
    ``bench``'s jobs)."""
    try:
        with time_limit(None if timeout is None else timeout + GRACE):
            return run()
    except OutOfTime:
        return timed_out()
