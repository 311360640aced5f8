"""The dashboard's write routes against a crafted HTTP client (issue 33, classes 2 and 6), over a
real ``streamlit run`` server on 127.0.0.1:

- a store that cannot answer (SQLite held ``BEGIN EXCLUSIVE`` by another program longer than an
  append waits, PostgreSQL down or its table locked as long, a full disk) is "unavailable":
  ``/api/tap`` answers 503 with ``Retry-After``, never the 409 of a refusal, and the same tap
  sent again once the store answers is recorded, once;
- the write routes take JSON only (415) and a request's ``Origin`` must be the server's own (403:
  a page served on another port of the same host cannot post a Deal with the organiser's cookie);
- every route bounds a body while reading it: a 600 MB ``Content-Length``, or a chunked body that
  never ends, is answered 413 after at most the route's limit, and the server's memory stays put;
- a tap's id is looked up in its own session; a tap's ``at`` in the future beyond
  :data:`service.tap.CLOCK_SKEW` or before the session began is refused in one line
  naming
  the field, while a tap made offline two hours ago is recorded with its own time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import dashboard
from disk_helpers import small_tmpfs

from dashboard.access import tokens
from dashboard.record import recorder
from log.open import open_store

SECRET = "a long enough organiser secret"
SEATS = ("Ann", "Bob", "Cal")


class Server:
    """The dashboard served for this module: its port, store and an unlocked device's token."""

    def __init__(self, port: int, db: str, token: str) -> None:
        self.port, self.db, self.token = port, db, token

    def post(
        self,
        path: str,
        body: Any,
        *,
        content_type: str | None = "application/json",
        headers: dict[str, str] | None = None,
        cookie: bool = True,
    ) -> tuple[int, dict[str, str], Any]:
        """``(status, headers, JSON answer or None)`` of one POST of ``body`` (JSON-encoded
        unless bytes)."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {"Host": f"127.0.0.1:{self.port}"}
        if content_type:
            sent["Content-Type"] = content_type
        if cookie:
            sent["Cookie"] = f"brag_device={self.token}"
        sent.update(headers or {})
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            c.request("POST", path, body=data, headers=sent)
            r = c.getresponse()
            raw = r.read()
            try:
                answer = json.loads(raw)
            except ValueError:
                answer = None
            return r.status, {k.lower(): v for k, v in r.getheaders()}, answer
        finally:
            c.close()

    def events(self, session: str) -> list[Any]:
        with open_store(self.db, readonly=True) as store:
            return list(store.events(session))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("writes")
    db = str(tmp / "brag.db")
    with open_store(db):
        pass
    env = {
        "BRAG_DB": db,
        "BRAG_ANALYTICS": str(tmp / "brag.duckdb"),
        "BRAG_ORGANISER_SECRET": SECRET,
    }
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        from dashboard.access import check as access

        token = access.issue_token()
        with dashboard(tmp, env, address="127.0.0.1") as url:
            yield Server(int(url.rsplit(":", 1)[1]), db, token)


def new_session(server: Server, name: str, began: datetime | None = None) -> None:
    """A session started (Cal dealing: Ann acts first) at ``began`` (default now)."""
    events = recorder.start_events(name, SEATS, "shown", dealer=SEATS[-1])
    events = recorder.stamped(events, (began or datetime.now(UTC)).replace(microsecond=0))
    with open_store(server.db) as store:
        store.append(name, events, 0)


def a_tap(session: str, seq: int, spot: str, at: datetime | str | None = None) -> dict[str, Any]:
    when = at if at is not None else datetime.now(UTC)
    return {
        "session": session,
        "seq": seq,
        "spot": spot,
        "id": str(uuid.uuid4()),
        "at": when if isinstance(when, str) else when.replace(microsecond=0).isoformat(),
        "by": "Ann",
        "cards": [],
    }


# --- class 2: only the rules refuse a tap --------------------------------------------------------


def test_a_locked_store_is_unavailable_and_the_tap_is_recorded_once_after(server: Server) -> None:
    new_session(server, "held")
    tap = a_tap("held", 2, "shuffle")
    holder = sqlite3.connect(server.db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program, longer than an append waits (10 s)
    try:
        status, headers, answer = server.post("/api/tap", tap)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert status == 503, answer
    assert answer["outcome"] == "unavailable"
    assert answer["message"].startswith("The store cannot be reached (")
    assert int(headers["retry-after"]) >= 1
    assert [e.type for e in server.events("held")] == ["session_started", "dealer_chosen"]
    status, _, answer = server.post("/api/tap", tap)  # the pad sends it again
    assert status == 200 and answer["outcome"] == "recorded", answer
    status, _, again = server.post("/api/tap", tap)  # and once more: the same event
    assert status == 200 and again["outcome"] == "recorded", again
    stored = server.events("held")
    assert [e.type for e in stored] == ["session_started", "dealer_chosen", "shuffled"]
    assert str(stored[-1].id) == tap["id"]


def test_a_tap_to_a_postgresql_store_that_is_down_is_unavailable(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on: "Connection refused" at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        "BRAG_DB": f"postgresql://postgres@127.0.0.1:{port}/test",
        "BRAG_ANALYTICS": str(tmp_path / "brag.duckdb"),
        "BRAG_ORGANISER_SECRET": SECRET,
    }

    # A token signed under the secret that the server cannot check against a store it has never
    # read: the store's error (503), never "locked" (403), so the pad keeps the tap.
    token = tokens.device_token(SECRET)
    with dashboard(tmp_path, env, address="127.0.0.1") as url:
        down = Server(int(url.rsplit(":", 1)[1]), "", token)
        status, headers, answer = down.post("/api/tap", a_tap("friday", 2, "shuffle"))
    assert status == 503 and answer["outcome"] == "unavailable", (status, answer)
    assert "Connection refused" in answer["message"] and "retry-after" in headers


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs (root only; skips when it cannot be mounted)."""
    with small_tmpfs(tmp_path, "4m") as where:
        yield where


def test_a_tap_on_a_full_disk_is_unavailable_then_recorded_once(full_disk: Path) -> None:
    from dashboard.record.routes import record_tap
    from events.errors import StoreUnavailable

    db = str(full_disk / "brag.db")
    events = recorder.start_events("full", SEATS, "shown", dealer=SEATS[-1])
    with open_store(db) as store:
        store.append("full", recorder.stamped(events), 0)
        filler = full_disk / "filler"
        with open(filler, "wb", buffering=0) as f:  # the disk filled to its last byte
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * 4096)
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0")
        tap = a_tap("full", 2, "shuffle")
        with pytest.raises(StoreUnavailable, match="disk full"):  # not a refusal
            record_tap(store, tap)
        filler.unlink()
        assert record_tap(store, tap)[0] == "recorded"
        assert record_tap(store, tap)[0] == "recorded"
        assert [e.type for e in store.events("full")] == [
            "session_started",
            "dealer_chosen",
            "shuffled",
        ]


@pytest.mark.postgres
def test_a_postgresql_store_locked_longer_than_an_append_waits_is_unavailable() -> None:
    import psycopg
    from psycopg import sql
    from store_helpers import pg_store, pg_url, require_pg

    from dashboard.record.routes import record_tap
    from events.errors import StoreUnavailable
    from store.schema import TABLE

    require_pg()
    with pg_store() as store:
        events = recorder.start_events("pg", SEATS, "shown", dealer=SEATS[-1])
        store.append("pg", recorder.stamped(events), 0)
        tap = a_tap("pg", 2, "shuffle")
        with psycopg.connect(pg_url(), connect_timeout=5) as other:  # another program
            other.execute(
                sql.SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(
                    sql.Identifier(store.schema, TABLE)
                )
            )
            with pytest.raises(StoreUnavailable, match="locked"):  # not a refusal
                record_tap(store, tap)
            other.rollback()
        assert record_tap(store, tap)[0] == "recorded"
        assert [e.type for e in store.events("pg")][-1] == "shuffled"
        assert len(store.events("pg")) == 3


def test_a_refusal_of_the_rules_is_409(server: Server) -> None:
    new_session(server, "ruled")
    status, _, answer = server.post("/api/tap", a_tap("ruled", 2, "deal"))  # before a shuffle
    assert status == 409 and answer["outcome"] == "refused", answer
    assert answer["message"].startswith("Not recorded: ")
    assert len(server.events("ruled")) == 2


# --- class 6: requests that cannot hurt others ---------------------------------------------------

WRITES = ["/api/tap", "/api/device-cookie", "/api/notes", "/api/notes/hide"]


@pytest.mark.parametrize("path", WRITES)
def test_a_write_takes_json_only(server: Server, path: str) -> None:
    body = json.dumps({"session": "x"}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        status, _, answer = server.post(path, body, content_type=kind)
        assert status == 415, (kind, status, answer)
        assert answer["message"] == "Not taken: send the request as application/json."


def test_a_page_of_another_port_cannot_post_a_deal(server: Server) -> None:
    new_session(server, "crossed")
    own = f"http://127.0.0.1:{server.port}"
    for origin in (f"http://127.0.0.1:{server.port + 1}", "http://evil.example", "null"):
        status, _, answer = server.post(
            "/api/tap", a_tap("crossed", 2, "shuffle"), headers={"Origin": origin}
        )
        assert status == 403, (origin, answer)
        assert answer["message"] == "Not taken: the request comes from another site's page."
    for site in ("same-site", "cross-site"):  # a browser's word for the page it was made on
        status, _, _ = server.post(
            "/api/tap", a_tap("crossed", 2, "shuffle"), headers={"Sec-Fetch-Site": site}
        )
        assert status == 403, site
    for path in WRITES[1:]:
        status, _, _ = server.post(path, {}, headers={"Origin": "http://127.0.0.1:1"})
        assert status == 403, path
    assert len(server.events("crossed")) == 2  # nothing stored
    status, _, answer = server.post(
        "/api/tap",
        a_tap("crossed", 2, "shuffle"),
        headers={"Origin": own, "Sec-Fetch-Site": "same-origin"},
    )
    assert status == 200 and answer["outcome"] == "recorded", answer


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://localhost:8501", "localhost:8501", True),
        ("http://localhost:8502", "localhost:8501", False),  # another port of the same host
        ("http://127.0.0.1:8501", "localhost:8501", False),
        ("https://club.example", "club.example", True),  # behind a TLS proxy
        ("https://club.example:443", "club.example", True),
        ("http://club.example", "club.example:8501", False),
        ("http://[::1]:8501", "[::1]:8501", True),
        ("null", "localhost:8501", False),
        ("file://", "localhost", False),
        ("http://localhost:x", "localhost:8501", False),
    ],
)
def test_an_origin_is_the_request_own_host_and_port(origin: str, host: str, same: bool) -> None:
    from dashboard.access.guard import same_origin

    assert same_origin(origin, host) is same


def _memory(pid: int) -> float:
    """The resident memory of ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _server_pid(port: int) -> int:
    """The pid of the process listening on 127.0.0.1:``port`` (from ``/proc/net/tcp``)."""
    inode = next(
        line.split()[9]
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if line.split()[1] == f"0100007F:{port:04X}" and line.split()[3] == "0A"
    )
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return int(pid)
            except OSError:
                continue
    raise AssertionError("no server process")


def offer(server: Server, path: str, megabytes: int, *, chunked: bool) -> tuple[str, int]:
    """Offers a body of ``megabytes`` MB to ``path`` (declared, or chunked and never ended), 1 MB
    at a time until the server answers: ``(its status line, bytes sent)``."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {megabytes << 20}"
    s.sendall(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/json\r\nCookie: brag_device={server.token}\r\n"
            f"{length}\r\n\r\n"
        ).encode()
    )
    if not chunked:  # refused on its header alone: the answer is awaited before a byte is sent
        # (sending into a connection the server has answered and closed can reset it, and a reset
        # loses the answer: what a loaded machine showed)
        s.settimeout(10)
        with contextlib.suppress(TimeoutError):
            return s.recv(4096).decode("latin-1").split("\r\n")[0], 0
    piece = b"[" * (1 << 20)
    if chunked:
        piece = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sent = 0
    try:
        for _ in range(megabytes):
            s.settimeout(0.05)
            with contextlib.suppress(TimeoutError):
                sent += s.send(piece)
            # the server's answer is awaited before another piece: a piece sent into a connection
            # the server has answered and closed resets it, and a reset loses the answer (a
            # loaded machine answers after more than 50 ms: seen in CI)
            s.settimeout(2)
            try:
                got = s.recv(4096)
            except TimeoutError:
                continue
            return got.decode("latin-1").split("\r\n")[0], sent
        s.settimeout(10)
        return s.recv(4096).decode("latin-1").split("\r\n")[0], sent
    except OSError as err:  # the server closed the connection after answering
        return f"closed: {err.__class__.__name__}", sent
    finally:
        s.close()


@pytest.mark.parametrize("path", [*WRITES, "/api/ping", "/", "/_stcore/health"])
def test_a_body_is_bounded_while_it_is_read(server: Server, path: str) -> None:
    """A declared length over the route's limit is refused before a byte is read; a chunked
    body, read by a write route, is cut at its limit (a route that reads no body reads none)."""
    pid = _server_pid(server.port)
    before = _memory(pid)
    for chunked in (False, True) if path in WRITES else (False,):
        status, sent = offer(server, path, 200, chunked=chunked)
        assert status == "HTTP/1.1 413 Request Entity Too Large", (chunked, status, sent)
        assert sent < 64 << 20, sent  # stopped long before the end
    assert _memory(pid) - before < 40, (before, _memory(pid))


def test_a_tap_whose_id_is_an_event_of_another_session_is_refused(server: Server) -> None:
    new_session(server, "first")
    new_session(server, "second")
    tap = a_tap("first", 2, "shuffle")
    assert server.post("/api/tap", tap)[0] == 200
    status, _, answer = server.post("/api/tap", {**tap, "session": "second"})
    assert status == 409 and answer["outcome"] == "refused", answer
    assert answer["message"] == (
        f"Not recorded: the tap's id {tap['id']} is an event of another session."
    )
    assert len(server.events("second")) == 2


def test_a_tap_time_is_checked(server: Server) -> None:
    from service.tap import CLOCK_SKEW

    began = datetime.now(UTC) - timedelta(hours=3)
    new_session(server, "timed", began)
    now = datetime.now(UTC)
    for at, why in (
        (now + CLOCK_SKEW + timedelta(minutes=1), "is in the future"),
        (datetime(1, 1, 1, tzinfo=UTC), "is before the session began"),
        (began - CLOCK_SKEW - timedelta(minutes=1), "is before the session began"),
        ("yesterday", "is not a time"),
        ("2026-10-15T20:00:00", "is not a time"),  # no UTC offset
    ):
        status, _, answer = server.post("/api/tap", a_tap("timed", 2, "shuffle", at))
        assert status in (400, 409) and answer["outcome"] == "refused", (at, answer)
        assert answer["message"].startswith("Not recorded: field 'at': "), answer
        assert why in answer["message"], answer
        assert "\n" not in answer["message"]
    assert len(server.events("timed")) == 2
    offline = (now - timedelta(hours=2)).replace(microsecond=0)  # tapped offline, sent now
    status, _, answer = server.post("/api/tap", a_tap("timed", 2, "shuffle", offline))
    assert status == 200 and answer["outcome"] == "recorded", answer
    stored = server.events("timed")[-1]
    assert stored.type == "shuffled" and stored.at == offline
    skewed = now + CLOCK_SKEW - timedelta(minutes=1)  # a device clock a little ahead
    status, _, answer = server.post("/api/tap", a_tap("timed", 3, "deal", skewed))
    assert status == 200 and answer["outcome"] == "recorded", answer
