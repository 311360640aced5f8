"""``dashboard.common.live.follow``: the poll that lets a page follow a session recorded elsewhere.
Under
``AppTest`` (no browser; the timed reruns are the real-browser tests' part): it draws nothing while
the store's last seq is the one the page was drawn from, calls ``on_new`` with the new last seq
once another writer appended, and reruns the page once, not again and again, for a page that
draws from an older seq than it gives."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.common import stores

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from dashboard.common import polling
from engine.fold import complete
from events.codec import read_file
from events.model import AnyEvent, is_derived
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
SESSION = "2026-10-15-top-1"
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"


def _recorded() -> list[AnyEvent]:
    """The bundled session's recorded events (derived ones left to the store)."""
    return [s.event for s in complete(read_file(str(LOG))) if not is_derived(s.event)]


def _page(session: str, rerun: bool) -> None:
    import streamlit as st

    from dashboard.common import cache, live

    seen = int(st.query_params.get("seen", "0"))
    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    st.caption(f"drawn at {seen}")
    live.follow(session, seen, rerun=rerun, on_new=lambda last: st.caption(f"new at {last}"))
    assert cache.last_seq("no such session") == 0


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = str(tmp_path / "brag.db")
    recorded = _recorded()
    with open_store(url) as store:
        store.append(SESSION, recorded[:8], 0)
    monkeypatch.setenv("BRAG_DB", url)
    yield url


def _captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def test_quiet_while_nothing_moved_then_the_new_last_seq(db: str) -> None:
    at = AppTest.from_function(_page, args=(SESSION, False))
    at.query_params["seen"] = "8"
    at.run()
    assert not at.exception
    assert _captions(at) == ["drawn at 8"]
    recorded = _recorded()
    with open_store(db) as store:
        store.append(SESSION, recorded[8:12], 8)
    time.sleep(polling.FRESH)  # the poll's last seq is shared for up to FRESH seconds
    at.run()
    assert _captions(at) == ["drawn at 8", "new at 12"]


def test_viewers_of_a_session_share_one_lookup(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many pages polling one session ask the store once per FRESH seconds, from one thread."""
    poller = polling.Poller(db, stores._store)
    store = stores._store(db)
    asked: list[str] = []
    real = store.last_seq

    def counted(session: str) -> int:
        asked.append(threading.current_thread().name)
        return int(real(session))

    monkeypatch.setattr(store, "last_seq", counted)
    monkeypatch.setattr(polling, "FRESH", 60.0)
    got = [poller.last_seq(SESSION) for _ in range(50)]
    assert got == [8] * 50
    assert len(asked) == 1
    monkeypatch.setattr(polling, "FRESH", 0.0)
    with open_store(db) as other:
        other.append(SESSION, _recorded()[8:9], 8)
    threads = [threading.Thread(target=poller.last_seq, args=(SESSION,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert poller.last_seq(SESSION) == 9
    assert len(asked) == 6
    assert len(set(asked)) == 1  # one thread: one store connection for every poll


def test_a_stale_page_is_rerun_once_not_forever(db: str) -> None:
    at = AppTest.from_function(_page, args=(SESSION, True))
    at.query_params["seen"] = "5"  # a page drawn from an older seq than the store's
    at.run()
    assert not at.exception
    # the first run saw 8 != 5 and asked for one rerun of the app; the rerun did not ask again
    assert at.session_state["runs"] == 2
    assert at.session_state[f"_live_live_{SESSION}"] == 8
    at.run()
    assert at.session_state["runs"] == 3
