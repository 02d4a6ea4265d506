"""The alarm of :func:`fillsmt.engine.interrupts.time_limit` and the signal handlers: they
fire where Python can raise, never inside a finalizer or a garbage-collector callback, where the
exception would be dropped as "unraisable" (and pytest would warn of it)."""

from __future__ import annotations

import gc
import os
import queue
import signal
import sys
import threading
import time

import pytest

from fillsmt.engine.interrupts import (
    OutOfTime,
    Terminated,
    exit_on_signals,
    resending,
    time_limit,
    uninterrupted,
)

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


@pytest.fixture
def unraisable(monkeypatch):
    """Every exception Python drops as unraisable while the test runs."""
    dropped: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: dropped.append(u.exc_type))
    return dropped


def _busy(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_an_alarm_during_a_gc_callback_fires_just_after_it(unraisable):
    def slow(phase, info):
        if phase == "start":
            _busy(0.3)  # the alarm comes in here

    gc.callbacks.append(slow)
    try:
        start = time.monotonic()
        with pytest.raises(OutOfTime):
            with time_limit(0.05):
                gc.collect()
                _busy(5)
        assert time.monotonic() - start < 1.0  # right after the callback, not at the next re-fire
    finally:
        gc.callbacks.remove(slow)
    assert unraisable == []


def test_an_alarm_during_a_finalizer_fires_just_after_it(unraisable):
    class Slow:
        def __del__(self):
            _busy(0.3)

    with pytest.raises(OutOfTime):
        with time_limit(0.05):
            Slow()  # dropped at once: __del__ runs here
            _busy(5)
    assert unraisable == []


def _plain(done: list) -> None:
    _busy(0.3)  # the alarm or the signal comes in here
    done.append("finished")


@uninterrupted
def _finishing(done: list) -> None:
    _plain(done)  # what it calls is not interrupted either


def test_an_alarm_during_an_uninterrupted_function_fires_just_after_it():
    interrupted: list = []
    with pytest.raises(OutOfTime):
        with time_limit(0.05):
            _plain(interrupted)  # not marked: the alarm stops it halfway
    assert interrupted == []
    done: list = []
    start = time.monotonic()
    with pytest.raises(OutOfTime):
        with time_limit(0.05):
            _finishing(done)
            _busy(5)
    assert done == ["finished"]
    assert time.monotonic() - start < 1.0


def test_a_signal_during_an_uninterrupted_function_stops_the_run_just_after_it():
    done: list = []
    with pytest.raises(SystemExit) as stopped:
        with exit_on_signals():
            threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGTERM)).start()
            _finishing(done)
            _busy(5)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert done == ["finished"]


def test_a_limit_outside_the_main_thread_waits_for_an_uninterrupted_function():
    def limited() -> list:
        done: list = []
        try:
            with time_limit(0.05):
                _finishing(done)
                _busy(5)
        except OutOfTime:
            done.append("out of time")
        return done

    assert _in_a_thread(limited) == ["finished", "out of time"]


def test_a_signal_during_a_finalizer_stops_the_run_just_after_it(unraisable):
    class Slow:
        def __del__(self):
            signal.raise_signal(signal.SIGTERM)
            _busy(0.2)

    start = time.monotonic()
    with pytest.raises(SystemExit) as stopped:
        with exit_on_signals():
            Slow()
            _busy(5)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert time.monotonic() - start < 1.0
    assert unraisable == []


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs pthread_kill")
def test_a_signal_another_thread_takes_stops_a_main_thread_waiting_on_a_lock():
    """The kernel may hand a signal sent to the process to any thread, and Python's handler then
    waits for the main thread to run Python code: a main thread waiting 30 s for a solver's
    reply must still stop at once. Here another thread takes SIGTERM itself."""

    def take() -> None:
        time.sleep(0.2)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

    start = time.monotonic()
    with pytest.raises(SystemExit) as stopped:
        with exit_on_signals():
            threading.Thread(target=take, daemon=True).start()
            queue.Queue().get(timeout=30)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert time.monotonic() - start < 1.5


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs pthread_kill")
def test_a_handler_of_its_own_gets_the_signal_another_thread_took():
    """A bench worker's SIGTERM handler (one that raises SystemExit) gets the same help."""
    class Stop(Exception):
        pass

    def stop(signum, frame):
        signal.signal(signum, signal.SIG_IGN)
        raise Stop

    def take() -> None:
        time.sleep(0.2)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)

    previous = signal.signal(signal.SIGUSR1, stop)
    try:
        start = time.monotonic()
        with pytest.raises(Stop):
            with resending(stop, (signal.SIGUSR1,)):
                threading.Thread(target=take, daemon=True).start()
                queue.Queue().get(timeout=30)
        assert time.monotonic() - start < 1.5
    finally:
        signal.signal(signal.SIGUSR1, previous)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_signal_a_forked_child_takes_leaves_its_parent_running():
    """The rules' search races in a forked child: a signal that child takes is its own, not
    passed on to the parent waiting for it."""
    with exit_on_signals():
        pid = os.fork()
        if pid == 0:  # the child: a handler of its own, and the signal
            try:
                signal.signal(signal.SIGTERM, lambda *_: os._exit(7))
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(2)
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        time.sleep(0.3)  # a signal passed on to this process would stop it here
    assert os.waitstatus_to_exitcode(status) == 7


def test_nested_limits_keep_the_earlier_end():
    start = time.monotonic()
    with pytest.raises(OutOfTime):
        with time_limit(0.2):
            with time_limit(10):
                _busy(5)
    assert time.monotonic() - start < 1.0
    assert Terminated(signal.SIGINT).exit_code == 130


def _in_a_thread(run):
    import threading

    out: list = []
    worker = threading.Thread(target=lambda: out.append(run()))
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    return out[0]


def test_a_limit_outside_the_main_thread_stops_the_block():
    from fillsmt.engine.interrupts import run_within

    def stuck() -> str:
        _busy(30)
        return "ran to its end"

    start = time.monotonic()
    assert _in_a_thread(lambda: run_within(0.2, stuck, lambda: "stopped")) == "stopped"
    assert time.monotonic() - start < 0.2 + 1 + 1  # the time-out, the grace, slack


def test_a_limit_left_in_time_outside_the_main_thread_raises_nothing_later():
    def quick() -> str:
        with time_limit(0.3):
            pass
        _busy(1.0)  # past where the limit would have fired
        return "done"

    assert _in_a_thread(quick) == "done"


def test_an_alarm_during_a_weakref_callback_of_a_collection_fires_just_after_it(unraisable):
    import weakref

    class Node:
        pass

    def slow(ref):
        _busy(0.3)  # the alarm comes in here, inside gc.collect(), in no __del__ nor gc callback

    with pytest.raises(OutOfTime):
        with time_limit(0.05):
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: only the collector frees it
            keep = weakref.ref(a, slow)
            del a, b
            gc.collect()
            _busy(5)
    assert keep() is None
    assert unraisable == []


class _NativeCall:
    """A stand-in for a native search in :func:`fillsmt.engine.interrupts.native_call`: it ignores
    the first ``ignored`` requests to stop (as libyices does before its search has begun), then
    takes ``notice`` seconds to return; or, with ``release``, returns only once that is set."""

    def __init__(self, ignored: int = 0, notice: float = 0.0, release=None):
        import threading

        self.ignored, self.notice, self.release = ignored, notice, release
        self.asked = 0
        self.stopped, self.returned, self.late = threading.Event(), threading.Event(), threading.Event()
        self.left = []

    def stop(self) -> None:
        self.asked += 1
        if self.asked > self.ignored:
            self.stopped.set()

    def work(self) -> str:
        if self.release is not None:
            self.release.wait(30)
        else:
            self.stopped.wait(30)
            time.sleep(self.notice)
        self.returned.set()
        return "interrupted"

    def call(self):
        from fillsmt.engine.interrupts import native_call

        return native_call(self.work, self.stop, "test-native", lambda: self.left.append(True), self.late.set)


def test_an_interrupted_native_call_has_returned_when_the_exception_goes_on():
    # the caller frees what the call used as the exception passes: the call must be over by then
    # (a Thread.join interrupted once returns at once when joined again, which once ended in a SIGSEGV)
    native = _NativeCall(ignored=3, notice=0.05)
    start = time.monotonic()
    with pytest.raises(OutOfTime):
        with time_limit(0.05):
            native.call()
    assert native.returned.is_set()
    assert native.asked > 3 and native.left == []
    assert time.monotonic() - start < 1.0


def test_a_native_call_that_does_not_stop_is_left_to_its_thread():
    import threading

    from fillsmt.engine import interrupts

    release = threading.Event()
    native = _NativeCall(release=release)
    start = time.monotonic()
    try:
        with pytest.raises(OutOfTime):
            with time_limit(0.05):
                native.call()
        assert time.monotonic() - start < 0.05 + interrupts.LET_GO + 0.5
        assert native.left == [True] and not native.returned.is_set()
        assert interrupts._native_left.is_set()  # a signal exit now leaves with os._exit
        release.set()
        assert native.late.wait(5)  # the thread frees what it used once the call returns
    finally:
        release.set()
        interrupts._native_left.clear()  # this test process must exit normally


def test_a_native_call_returns_its_result_or_raises_its_error():
    from fillsmt.engine.interrupts import native_call

    assert native_call(lambda: 42, lambda: None, "test-native") == 42

    def fails():
        raise ValueError("from the native side")

    with pytest.raises(ValueError, match="from the native side"):
        native_call(fails, lambda: None, "test-native")


def test_a_limit_outside_the_main_thread_interrupts_a_native_call():
    native = _NativeCall(notice=0.05)

    def limited() -> str:
        try:
            with time_limit(0.2):
                native.call()
        except OutOfTime:
            return "stopped" if native.returned.is_set() else "left running"
        return "ran to its end"

    start = time.monotonic()
    assert _in_a_thread(limited) == "stopped"
    assert time.monotonic() - start < 1.5
