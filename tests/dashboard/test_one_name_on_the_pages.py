"""One name, one player (issue 24 item 4), on the Record page: a session name differing only in case
from a stored one is refused (the page's start is an append at seq 0), and the start form refuses a
number out of bounds in one line."""

from __future__ import annotations

import json
import math

import pytest

from dashboard.record.recorder import start_events
from events.errors import ImportConflict
from log.open import open_store


def _start(session: str, seats: list[str], **extra: object) -> str:
    return json.dumps(
        {"type": "session_started", "session": session, "seats": seats, "cards": "shown", **extra}
    )


def _log(session: str, seats: tuple[str, str] = ("Ann", "Bob")) -> list[str]:
    return [_start(session, list(seats)), f'{{"type": "dealer_chosen", "player": "{seats[1]}"}}']


def test_a_session_name_differing_only_in_case_is_refused_in_one_line() -> None:
    with open_store("memory://") as store:
        store.import_log(_log("Oak Night"))
        assert store.import_log(_log("Oak Night")).stored == 0  # the very same: unchanged
        with pytest.raises(ImportConflict) as err:
            store.import_log(_log("oak  NIGHT"))
        assert "a session called Oak Night is already stored" in str(err.value)
        assert "\n" not in str(err.value)
        with pytest.raises(ImportConflict):  # the Record page's start: an append at seq 0
            store.append("OAK NIGHT", start_events("OAK NIGHT", ("Cy", "Di"), "shown"), 0)
        assert [i.session for i in store.sessions()] == ["Oak Night"]
        store.append("Elm", start_events("Elm", ("Cy", "Di"), "shown"), 0)
        assert store.namesake("elm") == "Elm" and store.namesake("Elm") is None


def test_the_start_form_refuses_nan_pots_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.record import start as ui_start

    said: list[tuple[str, str]] = []
    monkeypatch.setattr(ui_start, "flash", lambda kind, text, *a: said.append((kind, text)))
    monkeypatch.setattr(
        ui_start, "start_session", lambda *a, **k: pytest.fail("nothing is recorded")
    )
    state = {"start_session": "s", "start_players": ["Ann", "Bob"], "start_pots": math.nan}
    monkeypatch.setattr(ui_start.st, "session_state", state)
    ui_start._start()
    assert said == [
        ("error", "Refused: Pots to play must be a whole number from 1 to 50, not nan.")
    ]
