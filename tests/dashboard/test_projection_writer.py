"""The statistics pages only read (issue 34, item 4): the projection is caught up by one writer,
a background thread of the server (``dashboard.stats.stats_cache._Writer``), every
``REFRESH_EVERY`` seconds when the store has moved and when asked; a page read with new events
in the store moves neither the file nor its checkpoint."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import page

from analytics.building import current_checkpoint
from dashboard.stats import projection, stats_cache
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
MORE = ROOT / "data" / "season" / "2026-09-24-top-2.jsonl"


def _seen(path: str) -> tuple[int | None, int]:
    """The projection's checkpoint and its file's mtime, read as the pages read (under the
    dashboard's lock: the writer may be writing it)."""
    with projection.LOCK:
        return current_checkpoint(path), os.stat(path).st_mtime_ns


def _writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that catch this test's projection up, from now on. Only this
    test's (``BRAG_ANALYTICS``): the writers of earlier tests' stores in this process still run
    (one per store and file, never stopped), and one whose store is gone tries again at every
    ``REFRESH_EVERY``, which a loaded CI run showed as five more catch-ups in a second."""
    where: list[str] = []
    catch_up = stats_cache._catch_up
    mine = os.environ["BRAG_ANALYTICS"]

    def recorded(url: str, path: str) -> tuple[int, int]:
        if path == mine:
            where.append(threading.current_thread().name)
        return catch_up(url, path)

    monkeypatch.setattr(stats_cache, "_catch_up", recorded)
    return where


def _stored_more(url: str) -> int:
    with open_store(url) as store:
        store.import_log(str(MORE))
        return store.last_position()


def test_a_page_read_does_not_write_the_projection(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats_cache, "REFRESH_EVERY", 3600.0)  # the writer only when asked
    where = _writes(monkeypatch)
    path = os.environ["BRAG_ANALYTICS"]
    at = page("players")
    assert not at.exception, [e.value for e in at.exception]
    first, mtime = _seen(path)
    assert first is not None and stats_cache.analytics_version() == first
    last = _stored_more(store_url)
    assert last > first
    for name in ("players", "decisions", "explore"):
        at = page(name)
        assert not at.exception, [e.value for e in at.exception]
        assert not at.warning, [w.value for w in at.warning]
        assert _seen(path) == (first, mtime), name
    assert stats_cache.analytics_version() == first
    assert stats_cache.refresh_analytics() == last  # a "Refresh": the writer catches up
    assert _seen(path)[0] == last
    assert stats_cache.analytics_version() == last
    assert where and set(where) == {"bragbook-projection"}, where


def test_the_writer_catches_up_by_itself_when_the_store_moves(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats_cache, "REFRESH_EVERY", 0.2)
    where = _writes(monkeypatch)
    path = os.environ["BRAG_ANALYTICS"]
    at = page("players")
    assert not at.exception, [e.value for e in at.exception]
    first = stats_cache.analytics_version()
    time.sleep(1.0)  # several looks at a store that has not moved: nothing written
    assert len(where) == 1
    last = _stored_more(store_url)
    deadline = time.monotonic() + 60
    while stats_cache.analytics_version() != last and time.monotonic() < deadline:
        time.sleep(0.1)
    assert first < last == stats_cache.analytics_version() == _seen(path)[0]
    assert len(where) == 2 and set(where) == {"bragbook-projection"}, where
