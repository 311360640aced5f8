"""Issue 32 through the notes' routes, with a crafted client (ASGI, no browser): a note posted on
step 7 of deal 1 ("B bets level 2") is answered, after an Undo and a new tap ("B folds" now at
step 7), on that step said to be withdrawn with the bet's words; a note posted there now is on
the fold; and after an Undo and a Redo of the fold, the note on it is on the fold again."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from shared_paths import SCENARIOS, needs_shared
from starlette.applications import Starlette

from dashboard.record.recorder import redo
from dashboard.replay import notes_routes as notes_api
from dashboard.replay.notes_limits import NoteLimits
from events.codec import read_file
from events.model import Folded, Voided
from log.open import open_store
from log.service import EventStore
from present.replay import Replay

pytestmark = needs_shared  # the tests here read a scenario

S = "card-example"


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Starlette, EventStore]]:
    events = [e for _, e in read_file(str(SCENARIOS / "card_example.jsonl"))]
    with open_store(str(tmp_path / "brag.db")) as store:
        store.append(S, events[:10], 0)  # up to "B bets level 2", deal 1 step 7 (seq 10)
        rp = lambda s: Replay.of(store.events(s), recorded=True) if store.has(s) else None  # noqa: E731
        monkeypatch.setattr(notes_api, "_reader", lambda: store)
        monkeypatch.setattr(notes_api, "_writer", lambda: store)
        monkeypatch.setattr(notes_api, "_replay", rp)
        monkeypatch.setattr(notes_api, "LIMITS", NoteLimits())
        yield Starlette(routes=notes_api.routes()), store


def _asgi(app: Starlette, method: str, path: str, query: str, raw: bytes) -> dict[str, Any]:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if raw:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(raw))]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(),
        "query_string": query.encode(), "headers": headers, "client": ("10.1.0.1", 5000),
        "server": ("testserver", 80),
    }  # fmt: skip
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": raw, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    status = next(m for m in sent if m["type"] == "http.response.start")["status"]
    assert status == 200, sent
    body: dict[str, Any] = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    return body


def shown(app: Starlette, step: int) -> list[tuple[str, bool, str]]:
    """``GET /api/notes`` of deal 1's step: each note's (text, withdrawn, action)."""
    got = _asgi(app, "GET", "/api/notes", urlencode({"session": S, "deal": 1, "step": step}), b"")
    return [(n["text"], n["withdrawn"], n["action"]) for n in got["notes"]]


def post(app: Starlette, step: int, text: str) -> None:
    body = {"session": S, "deal": 1, "step": step, "text": text, "by": "Ann"}
    _asgi(app, "POST", "/api/notes", "", json.dumps(body).encode())


def test_the_route_keeps_a_note_on_its_action(api: tuple[Starlette, EventStore]) -> None:
    app, store = api
    post(app, 7, "fold, B")
    assert shown(app, 7) == [("fold, B", False, "B bets level 2: pays 2")]
    store.append(S, [Voided(seq=10)], 10)  # the Undo, and a new tap: B folds
    store.append(S, [Folded(player="B")], 11)
    assert shown(app, 7) == [("fold, B", True, "B bets level 2: pays 2")]
    post(app, 7, "B did fold")
    fold = ("B did fold", False, "B folds, leaving 1 in the pot")
    assert shown(app, 7) == [("fold, B", True, "B bets level 2: pays 2"), fold]
    assert shown(app, 6) == []
    store.append(S, [Voided(seq=12)], 12)  # the fold undone, then redone: the same action
    assert shown(app, 7) == [("fold, B", True, "B bets level 2: pays 2"), (fold[0], True, fold[2])]
    again = redo(store.events(S))
    assert again is not None
    store.append(S, [again], 13)
    assert shown(app, 7) == [("fold, B", True, "B bets level 2: pays 2"), fold]
