"""Every write checks the device, inside the write (issue 33, class 3): the Record page drawn on
an unlocked device, then "Lock every device" (here, or on another dashboard of the store), then
a button already drawn clicked: its callback runs before the page's gate, and still stores
nothing, and the page says the device is locked. For each write the page makes (starting a
session, recording a deal's hands, storing a correction), the pad's tap and the organiser's
hiding of a note; on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from dashboard.access import tokens

pytest.importorskip("streamlit")
from apptest_helpers import APP, pick_hands
from streamlit.testing.v1 import AppTest

from dashboard.access import check as access
from log.open import open_store

SECRET = "open sesame please"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def record_url(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """An empty store the dashboard serves with the organiser secret set: a SQLite file, or a
    PostgreSQL schema of its own."""
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    if request.param == "sqlite":
        url = str(tmp_path / "brag.db")
        monkeypatch.setenv("BRAG_DB", url)
        yield url
        return
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as store:
        url = f"{pg_url()}?options=-csearch_path%3D{store.schema}"
        monkeypatch.setenv("BRAG_DB", url)
        yield url


def unlocked() -> AppTest:
    """The Record page, unlocked with the secret on this device."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("record/record_page.py").run()
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert access.device_unlocked(at.session_state["device_token"])
    return at


def said_locked(at: AppTest) -> None:
    """The page says the device is locked (above the secret's form) and asks for the secret."""
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any("This device is locked" in e and "nothing was stored" in e for e in errors), errors
    assert [t.key for t in at.text_input] == ["secret_input"]


def events(url: str, session: str) -> list[Any]:
    with open_store(url) as store:
        return list(store.events(session))


def fill_start(at: AppTest, name: str, cards: str = "shown") -> Any:
    """The start form filled in, not sent: the "Start the session" button as drawn."""
    at.radio(key="start_cards").set_value(cards)
    at.text_input(key="start_session").input(name)
    at.session_state["start_players"] = ["Ann", "Bob", "Cal"]
    at.run()
    at.selectbox(key="start_dealer").set_value("Cal").run()
    return next(b for b in at.button if b.label == "Start the session")


def tap(url: str, session: str, *spots: str) -> None:
    """Taps as the pad sends them, straight into the store (an unguarded test client)."""
    from dashboard.record import routes as pad_api

    with open_store(url) as store:
        for spot in spots:
            body = {
                "session": session,
                "seq": store.last_seq(session),
                "id": str(uuid.uuid4()),
                "at": datetime.now().astimezone().isoformat(timespec="seconds"),
                "spot": spot,
            }
            assert pad_api.record_tap(store, body)[0] == "recorded", spot


def test_a_start_drawn_before_lock_every_device_stores_nothing(record_url: str) -> None:
    at = unlocked()
    button = fill_start(at, "friday")
    access.revoke_all()  # "Lock every device" on another device of the store
    button.click().run()
    assert events(record_url, "friday") == []
    said_locked(at)
    # unlocked again, the same start is stored
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    fill_start(at, "friday").click().run()
    assert [e.type for e in events(record_url, "friday")] == ["session_started", "dealer_chosen"]


def test_a_correction_drawn_before_lock_every_device_stores_nothing(record_url: str) -> None:
    at = unlocked()
    fill_start(at, "friday").click().run()
    tap(record_url, "friday", "shuffle", "deal", "bet-0")
    at.run()
    before = events(record_url, "friday")
    at.selectbox(key="amend-friday-deal").set_value(1).run()  # deal 1, with Ann's bet
    deal = at.selectbox(key="amend-friday-deal").value
    # the latest step (Ann's bet): a correction that needs no repair, so its button is live
    step = list(at.selectbox(key=f"amend-friday-step-{deal}").options)[-1]
    at.selectbox(key=f"amend-friday-step-{deal}").set_value(step).run()
    store_it = at.button(key="amend-friday-store")
    assert store_it.label == "Store the correction"
    access.revoke_all()
    store_it.click().run()
    assert events(record_url, "friday") == before  # no voided, nothing at all
    said_locked(at)


def test_a_deals_hands_drawn_before_lock_this_device_store_nothing(record_url: str) -> None:
    at = unlocked()
    fill_start(at, "digital", cards="all").click().run()
    tap(record_url, "digital", "shuffle")  # no order: the deal lists every hand
    at.run()
    hands = {"Ann": ["As", "Ks", "Qs"], "Bob": ["2h", "3h", "4h"], "Cal": ["9d", "9c", "9s"]}
    pick_hands(at, hands)
    record = next(b for b in at.button if b.label == "Record the deal")
    assert not record.disabled
    before = events(record_url, "digital")
    assert access.revoke(at.session_state["device_token"])  # "Lock this device", elsewhere
    record.click().run()
    assert events(record_url, "digital") == before
    said_locked(at)


def test_a_tap_that_passed_its_route_check_stores_nothing_once_revoked(record_url: str) -> None:
    """The pad's route checks the cookie when the request arrives; the append checks it again
    inside its transaction: a "Lock every device" between the two stores nothing."""
    from dashboard.common import stores
    from dashboard.record import routes as pad_api

    at = unlocked()
    token = at.session_state["device_token"]
    fill_start(at, "friday").click().run()
    store = stores.writer()
    last = store.last_seq("friday")
    body = {"session": "friday", "seq": last, "id": str(uuid.uuid4()), "spot": "shuffle",
            "at": datetime.now().astimezone().isoformat(timespec="seconds")}  # fmt: skip
    assert access.device_unlocked(token)  # what the route saw
    access.revoke_all()
    outcome, message, status = pad_api.record_tap(access.guarded(store, token), body)
    assert (outcome, status) == ("refused", 403) and "locked" in message
    assert store.last_seq("friday") == last and not store.recorder.find([body["id"]])
    from events.model import Shuffled

    with pytest.raises(access.DeviceLocked, match="This device is locked"):
        access.guarded_append(token, store, "friday", [Shuffled()], last)
    assert store.last_seq("friday") == last


def test_hiding_a_note_checks_the_device_inside_the_write(record_url: str) -> None:
    from log.annotations import add_note, hide_note, notes

    at = unlocked()
    token = at.session_state["device_token"]
    fill_start(at, "friday").click().run()
    from dashboard.common import stores
    from present.replay import Replay

    store = stores.writer()
    rp = Replay.of(store.events("friday"), recorded=True)  # as the notes' route reads it
    note = add_note(store, rp, 0, 1, "a note", "Ann")
    access.revoke(token)
    with pytest.raises(access.DeviceLocked):
        hide_note(access.guarded(store, token), note.id, "organiser")
    assert [n.id for n in notes(store, rp)] == [note.id]  # still shown: nothing stored


def test_no_token_or_a_forged_one_writes_nothing(record_url: str) -> None:
    from dashboard.common import stores
    from events.model import DealerChosen, SessionStarted

    store = stores.writer()
    made = [SessionStarted(session="s", seats=["Ann", "Bob"], cards="shown"),
            DealerChosen(player="Bob")]  # fmt: skip
    forged = tokens.device_token("another secret long enough")
    for token in (None, "", "1.2.3.4.5", forged):
        with pytest.raises(access.DeviceLocked):
            access.guarded_append(token, store, "s", made, 0)
    assert store.last_seq("s") == 0
    good = access.issue_token()
    assert len(access.guarded_append(good, store, "s", made, 0)) == 2
    assert os.environ["BRAG_DB"] == record_url


def test_lock_every_device_pressed_on_a_device_locked_since_locks_nobody(record_url: str) -> None:
    from dashboard.common import stores

    at = unlocked()
    other = access.issue_token()  # another device, unlocked after this one
    assert access.revoke(at.session_state["device_token"])  # this one locked elsewhere
    generation = access.revocations().generation
    at.button(key="lock_all").click().run()
    assert access.revocations().generation == generation  # nobody locked by it
    assert access.device_unlocked(other)
    said_locked(at)
    assert stores.writer().recorder.revocations().generation == generation
