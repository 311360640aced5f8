"""One store, one identity (issue 33, class 4): the devices' revocations and the hold of the
dashboard serving a store are the store's own (``brag_devices``), so a dashboard reaching the
same store by another path (a symlink to the SQLite file, another folder, another URL of the same
PostgreSQL schema) sees "Lock every device" at once and is not started beside the first; a
token names the store it unlocks, and a token signed with the same secret unlocks no other
store. On SQLite and PostgreSQL."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared_paths import needs_shared
from store_identity_helpers import SECRET, two_urls_of_one_store  # noqa: F401 (the fixture two_urls)

from dashboard.access import check as access
from dashboard.access import tokens
from events.model import DealerChosen, SessionStarted
from log import holding
from log.open import open_store
from store.devices import Holder

pytestmark = needs_shared  # the tests here read a scenario


def as_dashboard(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("BRAG_DB", url)


def start_events(session: str) -> list[object]:
    return [SessionStarted(session=session, seats=["Ann", "Bob"], cards="shown"),
            DealerChosen(player="Bob")]  # fmt: skip


def test_lock_every_device_on_one_dashboard_locks_the_other(
    two_urls: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard.common import stores

    first, second = two_urls
    as_dashboard(monkeypatch, first)
    token = access.issue_token()
    assert access.device_unlocked(token)
    as_dashboard(monkeypatch, second)
    assert access.device_unlocked(token)  # the same store: the same devices
    access.revoke_all()  # "Lock every device" on the second dashboard
    as_dashboard(monkeypatch, first)
    assert not access.device_unlocked(token)
    with pytest.raises(access.DeviceLocked):
        access.guarded_append(token, stores.writer(), "friday", start_events("friday"), 0)
    assert stores.writer().last_seq("friday") == 0
    fresh = access.issue_token()  # unlocked again on the first: good on both
    as_dashboard(monkeypatch, second)
    assert len(access.guarded_append(fresh, stores.writer(), "friday", start_events("friday"), 0))
    access.revoke(fresh)  # "Lock this device" on the second
    as_dashboard(monkeypatch, first)
    assert not access.device_unlocked(fresh)


def test_a_token_of_one_store_unlocks_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard.common import stores

    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)  # the same secret for both
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    as_dashboard(monkeypatch, a)
    token = access.issue_token()
    claims = tokens.token_claims(SECRET, token)
    assert claims is not None and claims.store == tokens.store_tag(stores.writer().store_id)
    as_dashboard(monkeypatch, b)
    assert not access.device_unlocked(token)
    with pytest.raises(access.DeviceLocked):
        access.guarded_append(token, stores.writer(), "s", start_events("s"), 0)
    assert stores.writer().last_seq("s") == 0
    assert access.device_unlocked(access.issue_token())  # b's own token


# --- one dashboard per store ----------------------------------------------------------------------


def test_a_dead_or_expired_holder_frees_the_store(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "h.db"))
    try:
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        gone = Holder("old", dead.pid, socket.gethostname(), "http://localhost:1")
        assert holding.hold(store, gone) is None
        assert not holding.live(holding_row(store))  # its process ended on this host
        mine = holding.me("http://localhost:8501")
        assert holding.hold(store, mine) is None  # taken over at once
        other = holding.me("http://localhost:8502")
        assert holding.hold(store, other) == holding_row(store)  # mine is live: refused
        elsewhere = Holder("far", 1, "another-host", "http://club:8501")
        with store.recorder.transaction() as tx:
            tx.devices().hold(Holder("far", 1, "another-host", "http://club:8501",
                                     int(time.time()) + 5))  # fmt: skip
        assert holding.hold(store, mine) is not None  # live elsewhere until its time
        assert not holding.live(holding_row(store), now=time.time() + 6)
        assert elsewhere.holder == "far"
    finally:
        store.close()


def holding_row(store: object) -> Holder | None:
    with store.recorder.transaction() as tx:  # type: ignore[attr-defined]
        found: Holder | None = tx.devices().holder()
        return found
