"""A device per table (issue 36, item 2), through the pad's routes and the gate's link route with
a crafted ASGI client (no server, no browser), on SQLite and PostgreSQL:

- a token for one table carries its name; an organiser's token (four claims) is taken as before;
- a table's device taps its own table's session, and a tap on another table's session is refused
  in one line naming the table ("This device records Top table only ..."), 409 (the pad's "not
  recorded", never "locked"), nothing stored; the store's guard refuses it inside the append too,
  and a session started at another table;
- two devices polling sessions of the same table are told of each other at once (the second at
  its first poll, the first at its next), by label, and a device on another table is not;
- the organiser's link for a table sets the device's cookie (HttpOnly, SameSite=Strict) once;
- a table's device is not the organiser's: it sees as a visitor and cannot lock every device."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.applications import Starlette

from dashboard.access import check as access
from dashboard.access import presence, tokens
from dashboard.access import routes as gate_api
from dashboard.record import recorder
from dashboard.record import routes as pad_api
from events.model import Shuffled
from log.open import open_store
from service.start import StartSession, start_session

SECRET = "a long enough organiser secret"
SEATS = ("Ann", "Bob", "Cal")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """An empty store the routes serve with the organiser secret set: a SQLite file, or a
    PostgreSQL schema of its own."""
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    access._seen.clear()
    presence.PRESENCE.forget()
    if request.param == "sqlite":
        url = str(tmp_path / "brag.db")
        monkeypatch.setenv("BRAG_DB", url)
        with open_store(url):
            pass
        yield url
    else:
        from store_helpers import pg_store, pg_url, require_pg

        require_pg()
        with pg_store() as store:
            url = f"{pg_url()}?options=-csearch_path%3D{store.schema}"
            monkeypatch.setenv("BRAG_DB", url)
            yield url
    presence.PRESENCE.forget()


def new_session(db: str, name: str, table: str | None) -> None:
    events = recorder.start_events(name, SEATS, "shown", table=table, dealer=SEATS[-1])
    with open_store(db) as store:
        store.append(name, recorder.stamped(events, datetime.now(UTC).replace(microsecond=0)), 0)


def stored(db: str, session: str) -> int:
    with open_store(db, readonly=True) as store:
        return int(store.last_seq(session))


APP = Starlette(routes=[*pad_api.routes(), *gate_api.routes()])


def call(
    method: str, path: str, token: str | None, body: Any = None, by: str | None = None
) -> tuple[int, dict[str, str], Any]:
    """One request through the routes: ``(status, headers, JSON or text)``."""
    target, _, query = path.partition("?")
    raw = b"" if body is None else json.dumps(body).encode()
    cookies = [f"brag_device={token}"] if token else []
    if by:
        cookies.append(f"brag_by={quote(by)}")
    headers = [(b"host", b"testserver")]
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    if raw:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(raw))]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": target, "raw_path": target.encode(),
        "query_string": query.encode(), "headers": headers, "client": ("10.1.0.1", 5000),
        "server": ("testserver", 80),
    }  # fmt: skip
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": raw, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(APP(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    head: dict[str, str] = {}
    for k, v in start["headers"]:
        head.setdefault(k.decode().lower(), v.decode())
    try:
        out: Any = json.loads(data)
    except ValueError:
        out = data.decode()
    return start["status"], head, out


def tap(token: str, session: str, seq: int, spot: str) -> tuple[int, dict[str, Any]]:
    body = {
        "session": session, "seq": seq, "spot": spot, "id": str(uuid.uuid4()),
        "at": datetime.now(UTC).replace(microsecond=0).isoformat(), "cards": [],
    }  # fmt: skip
    status, _, answer = call("POST", "/api/tap", token, body)
    return status, answer


def poll(token: str, session: str, by: str | None = None) -> dict[str, Any]:
    status, _, answer = call("GET", f"/api/pad?session={quote(session)}&since=-1", token, by=by)
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


def test_a_table_token_carries_its_table() -> None:
    t = tokens.device_token(SECRET, table="Top table", token_id="ab" * 8)
    claims = tokens.token_claims(SECRET, t)
    assert claims is not None and (claims.id, claims.table) == ("ab" * 8, "Top table")
    organiser = tokens.token_claims(SECRET, tokens.device_token(SECRET))
    assert organiser is not None and organiser.table == ""
    # a fifth claim that is not a table's name is no token
    signer = tokens._signer(SECRET)
    for fifth in ("", 2, ["Top table"]):
        forged = signer.dumps(["ab" * 8, 0, int(time.time()) + 60, "0" * 16, fifth])
        assert tokens.token_claims(SECRET, forged) is None


def test_a_table_device_taps_its_table_only(db: str) -> None:
    new_session(db, "top", "Top table")
    new_session(db, "window", "Window table")
    device = access.issue_token("top TABLE")  # keyed as names are keyed everywhere
    status, answer = tap(device, "top", 2, "shuffle")
    assert (status, answer["outcome"]) == (200, "recorded")
    assert stored(db, "top") == 3
    status, answer = tap(device, "window", 2, "shuffle")
    assert (status, answer["outcome"], answer["doc"]) == (409, "refused", None)
    assert answer["message"] == (
        "Not recorded: This device records top TABLE only (this session is at Window "
        "table): nothing was stored."
    )
    assert stored(db, "window") == 2
    # the organiser's device records every table
    status, answer = tap(access.issue_token(), "window", 2, "shuffle")
    assert (status, answer["outcome"]) == (200, "recorded")
    # a table named "2" is said "table 2"
    assert access.table_words("2") == "table 2"
    assert access.table_words("Top table") == "Top table"


def test_the_store_guard_refuses_another_table_inside_the_write(db: str) -> None:
    new_session(db, "bare", None)
    device = access.issue_token("2")
    now = datetime.now(UTC).replace(microsecond=0)
    with open_store(db) as store:
        guarded = access.guarded(store, device)
        events = recorder.stamped(
            recorder.start_events("x", SEATS, "shown", table="Top table", dealer="Ann"), now
        )
        with pytest.raises(access.OtherTable) as err:
            guarded.append("x", events, 0)
        assert str(err.value) == (
            "This device records table 2 only (this session is at Top table): nothing was stored."
        )
        assert not store.has("x")
        started = start_session(
            guarded,
            StartSession("y", SEATS, "Window table", "Ann", "shown", 8, "Ann", now),
            lambda cmd: recorder.stamped(
                recorder.start_events(
                    cmd.name, cmd.seats, cmd.cards, table=cmd.table, dealer=cmd.dealer
                ),
                now,
            ),
            locked=(access.DeviceLocked,),
        )
        assert started.outcome == "refused"
        assert "This device records table 2 only (this session is at Window table)" in (
            started.message
        )
        assert not store.has("y")
        with pytest.raises(access.OtherTable, match=r"this session is at no table\)"):
            guarded.append("bare", recorder.stamped([Shuffled()], now), 2)
        assert store.last_seq("bare") == 2
        # its own table (keyed: " 2 " is table 2): started
        ok = recorder.stamped(
            recorder.start_events("z", SEATS, "shown", table=" 2 ", dealer="Ann"), now
        )
        assert len(guarded.append("z", ok, 0)) == 2


def test_two_devices_on_one_table_are_told_of_each_other(db: str) -> None:
    new_session(db, "top", "Top table")
    new_session(db, "top-2", "Top table")  # another session at the same table
    new_session(db, "window", "Window table")
    a = access.issue_token("Top table")
    b = access.issue_token()  # the organiser's own device, recording the same table
    c = access.issue_token("Window table")
    ida = tokens.token_claims(SECRET, a).id[:4]  # type: ignore[union-attr]
    idb = tokens.token_claims(SECRET, b).id[:4]  # type: ignore[union-attr]
    first = poll(a, "top", by="Ann")
    assert (first["others"], first["warning"], first["only"]) == ([], "", "")
    second = poll(b, "top-2")
    assert second["others"] == [f"Ann ({ida})"]
    assert second["warning"] == f"Another device records Top table too: Ann ({ida})."
    assert poll(a, "top", by="Ann")["others"] == [f"device {idb}"]
    assert poll(c, "window", by="Cy")["others"] == []
    # a tap's answer says it too
    status, answer = tap(b, "top-2", 2, "shuffle")
    assert status == 200 and answer["others"] == [f"Ann ({ida})"]
    # a table's device looking at another table's session is told it records its own only
    other = poll(a, "window", by="Ann")
    assert other["only"].startswith("Not recorded: This device records Top table only")


def test_presence_forgets_a_device_gone_quiet() -> None:
    now = [100.0]
    p = presence.Presence(clock=lambda: now[0])
    assert p.seen("s", "table:top", "a", "A") == []
    now[0] += presence.RECENT_SECONDS
    assert p.seen("s", "table:top", "b", "B") == ["A"]
    now[0] += 0.5
    assert p.seen("s", "table:top", "b", "B") == []  # A quiet for longer than RECENT_SECONDS
    assert p.seen("other store", "table:top", "c", "C") == []
    assert presence.table_key(" TOP  table", "s") == presence.table_key("top table", "t")
    assert presence.table_key(None, "s") != presence.table_key(None, "t")
    assert presence.device_label("3f2a9c", "Bob%20Smith") == "Bob Smith (3f2a)"


def test_the_organisers_link_unlocks_one_device_once(db: str) -> None:
    token = access.issue_token("Top table")
    link = gate_api.table_link("http://testserver", token)
    path = link.removeprefix("http://testserver")
    status, head, _ = call("GET", path, None)
    assert status == 303 and head["location"] == "../record"
    cookie = head["set-cookie"]
    assert cookie.startswith(f"brag_device={token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    status, _, text = call("GET", path, None)  # once only
    assert status == 403 and text == (
        "This link was used already or is out of date: ask the organiser for a new one."
    )
    status, _, _ = call("GET", "/api/table-device?code=nope", None)
    assert status == 403


def test_a_table_device_is_not_the_organisers(db: str) -> None:
    device = access.issue_token("Top table")
    assert access.recording_unlocked(device)
    assert not access.device_unlocked(device)  # the sight rule's organiser: not this one
    assert access.device_unlocked(access.issue_token())
    with pytest.raises(access.OtherTable, match="only the organiser's device locks every"):
        access.revoke_all(by=device)
    assert access.recording_unlocked(device)  # nothing was locked
    access.revoke_all(by=access.issue_token())
    assert not access.recording_unlocked(device)  # the organiser's Lock every device locks it


def test_the_record_page_of_a_table_device(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Record page a table's device is told the one table it records (and offered no
    link for another device, no "Lock every device"); on another table's session it is shown
    neither the pad nor the table, one line instead."""
    import sys

    pytest.importorskip("streamlit")
    from apptest_helpers import APP
    from streamlit.testing.v1 import AppTest

    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    new_session(db, "top", "Top table")
    new_session(db, "window", "Window table")
    device = access.issue_token("Top table")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.session_state["device_token"] = device
    at.query_params["session"] = "window"
    at.switch_page("record/record_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any(
        "This device records Top table only: window is at Window table" in e for e in errors
    ), errors
    assert "This device records Top table only (the organiser unlocked it for that table)." in [
        i.value for i in at.info
    ]
    labels = [b.label for b in at.button]
    assert "Lock this device" in labels
    assert "Lock every device" not in labels and "Make the table's link" not in labels
    at.query_params["session"] = "top"
    at.run()
    assert not at.error, [e.value for e in at.error]
    # opened without a link, it is offered its table's sessions only, and its one in progress
    # is the one opened
    at.query_params.pop("session")
    at.session_state["recording"] = None
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    picker = at.selectbox(key="record_session")
    assert picker.value == "top" and "window" not in picker.options
    # the organiser's device is offered the table link
    at.session_state["device_token"] = access.issue_token()
    at.run()
    assert "Make the table's link" in [b.label for b in at.button]
