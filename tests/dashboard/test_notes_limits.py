"""Issue 33, class 6, with a crafted client (the notes' routes called as ASGI, no browser): notes
are limited per client address and per writer's name within a window (429 with
``Retry-After``), a note the store refuses gives its place back, hidden notes do not count toward
the session's limit, and the organiser's terminal (``brag notes add``) is not limited.

Before: one anonymous visitor posted a session's 500 notes in 5 s, and hidden notes kept
counting, so nobody could add a note to that session again."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from notes_limits_helpers import S, notes_app  # noqa: F401 (the fixture app)
from notes_limits_helpers import rp as _rp
from shared_paths import needs_shared
from starlette.applications import Starlette

from dashboard.replay.notes_limits import (
    NOTES_PER_CLIENT,
    NOTES_PER_NAME,
    NOTES_WINDOW_S,
)
from log.annotations import notes

pytestmark = needs_shared  # the tests here read a scenario


def call(
    app: Starlette, path: str, body: dict[str, Any], client: str, cookies: str = ""
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """One POST of ``body`` as JSON from address ``client``: status, headers, JSON answer."""
    raw = json.dumps(body).encode()
    headers = [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(raw)).encode()),
    ]
    if cookies:
        headers.append((b"cookie", cookies.encode()))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "headers": headers, "client": (client, 50000), "server": ("testserver", 80),
    }  # fmt: skip
    sent: list[dict[str, Any]] = []
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if given:
            return {"type": "http.disconnect"}
        given = True
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    head = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], head, json.loads(text)


def note(step: int, by: str, text: str = "a note") -> dict[str, Any]:
    return {"session": S, "deal": 1, "step": step, "text": text, "by": by}


def test_one_client_is_limited_within_the_window(app: tuple[Starlette, Any]) -> None:
    api, (store, clock, _) = app
    for k in range(NOTES_PER_CLIENT):  # a new name each time: only the address counts here
        status, _, got = call(api, "/api/notes", note(5, f"Visitor {k}"), "10.0.0.1")
        assert status == 200, got
    status, head, got = call(api, "/api/notes", note(5, "Someone else"), "10.0.0.1")
    assert status == 429 and head["retry-after"] == str(int(NOTES_WINDOW_S))
    assert got["message"].startswith("Not stored: too many notes from you")
    assert len(notes(store, _rp(store))) == NOTES_PER_CLIENT
    assert call(api, "/api/notes", note(5, "Neighbour"), "10.0.0.2")[0] == 200  # another client
    clock.now += 20
    assert call(api, "/api/notes", note(5, "Later"), "10.0.0.1")[1]["retry-after"] == "40"
    clock.now += NOTES_WINDOW_S - 20
    assert call(api, "/api/notes", note(5, "Later"), "10.0.0.1")[0] == 200


def test_one_name_is_limited_from_any_address(app: tuple[Starlette, Any]) -> None:
    api, (store, _, _) = app
    for k in range(NOTES_PER_NAME):
        assert call(api, "/api/notes", note(3, "Eve"), f"10.0.1.{k}")[0] == 200
    status, head, _ = call(api, "/api/notes", note(3, "  EVE "), "10.0.2.1")  # the same name
    assert status == 429 and int(head["retry-after"]) == NOTES_WINDOW_S
    # one name as events.text.same_name says: a Cyrillic capital Ie typed for the E is Eve too
    assert call(api, "/api/notes", note(3, "\u0415ve"), "10.0.2.2")[0] == 429
    assert call(api, "/api/notes", note(3, "Evelyn"), "10.0.2.1")[0] == 200
    assert [n.by for n in notes(store, _rp(store))].count("Eve") == NOTES_PER_NAME


def test_a_note_the_store_refuses_gives_its_place_back(app: tuple[Starlette, Any]) -> None:
    api, _ = app
    for _ in range(NOTES_PER_CLIENT + 2):
        status, _, got = call(api, "/api/notes", note(99, "Ann"), "10.0.0.3")
        assert status == 400 and "has no step 99" in got["message"]
    assert call(api, "/api/notes", note(2, "Ann"), "10.0.0.3")[0] == 200


def test_hidden_notes_do_not_count_toward_the_sessions_limit(
    app: tuple[Starlette, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, (store, _, db) = app
    monkeypatch.setattr("log.annotations.NOTES_MAX", 3)
    for k in range(3):
        assert call(api, "/api/notes", note(4, f"V{k}", "spam"), f"10.0.3.{k}")[0] == 200
    status, _, got = call(api, "/api/notes", note(4, "Ann", "a real note"), "10.0.4.1")
    assert status == 400 and "has 3 notes, the most a session keeps" in got["message"]
    from dashboard.access import check as access

    monkeypatch.setenv("BRAG_DB", db)  # the organiser's device, unlocked for this store: the
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", "a long organiser secret for the test")
    cookie = f"brag_device={access.issue_token()}"  # token is checked inside the hiding
    first = notes(store, _rp(store))[0]
    status, _, got = call(
        api, "/api/notes/hide", {"session": S, "id": first.id}, "10.0.0.9", cookie
    )
    assert status == 200 and [n["text"] for n in got["notes"]] == ["spam", "spam"]
    status, _, got = call(api, "/api/notes", note(4, "Ann", "a real note"), "10.0.4.1")
    assert status == 200 and [n["text"] for n in got["notes"]][-1] == "a real note"
    assert len(notes(store, _rp(store), include_hidden=True)) == 4
