"""The alarm of :func:`fillsmt.interrupts.time_limit` and the signal handlers (issue 20): they
fire where Python can raise, never inside a finalizer or a garbage-collector callback, where the
exception would be dropped as "unraisable" (and pytest would warn of it)."""

from __future__ import annotations

import gc
import signal
import sys
import time

import pytest

from fillsmt.interrupts import OutOfTime, Terminated, exit_on_signals, time_limit

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


def test_nested_limits_keep_the_earlier_end():
    start = time.monotonic()
    with pytest.raises(OutOfTime):
        with time_limit(0.2):
            with time_limit(10):
                _busy(5)
    assert time.monotonic() - start < 1.0
    assert Terminated(signal.SIGINT).exit_code == 130
