"""``log.gc_pause.paused_gc``: the collector paused only in a command's main thread, turned back
on after the block (also on an error), and left alone by pauses that nest or run in another
thread (the dashboard's threaded refresh)."""

from __future__ import annotations

import gc
import threading

import pytest

from log.gc_pause import paused_gc


@pytest.fixture(autouse=True)
def _collector_on() -> None:
    gc.enable()


def test_the_main_thread_pauses_and_turns_it_back_on_also_on_an_error() -> None:
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: does not turn it back on early
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), paused_gc():
        raise ValueError("boom")
    assert gc.isenabled()


def test_another_thread_leaves_the_collector_alone() -> None:
    seen: list[bool] = []

    def refresh() -> None:
        with paused_gc():
            seen.append(gc.isenabled())

    worker = threading.Thread(target=refresh)
    worker.start()
    worker.join()
    assert seen == [True] and gc.isenabled()
    # a main-thread pause is not ended by another thread's block
    with paused_gc():
        worker = threading.Thread(target=refresh)
        worker.start()
        worker.join()
        assert not gc.isenabled()
    assert seen == [True, False] and gc.isenabled()
