"""Faults end in one line, and the page comes back by itself (issue 24, item 3): a store that
cannot be reached is one line on every page (under ``AppTest``; the real outage in Chromium is
``tests/browser/test_store_down_page.py``); reading pages never wait on a writer's lock; a
projection is
built beside the old one and renamed into place, so a full disk leaves a readable one or none;
a full disk is said "disk full"; the server's health answers at once after a refused cross-origin
websocket; Explore's errors name no server path."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from browser_helpers import dashboard
from disk_helpers import small_tmpfs

from dashboard.common.pages import PAGE_FILES

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from brag.cli import main
from log.open import open_store

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
SECRET = "open sesame please"
DOWN = "The store cannot be reached"
READING = ["sessions", "session", "replay", "players", "decisions", "explore"]


def run_page(name: str, runs: list[float] | None = None, **params: str) -> AppTest:
    """The app on page ``NAME`` (:data:`dashboard.common.pages.PAGE_FILES`) with these query
    parameters (the Record page unlocked);
    ``runs`` gets the seconds each run took."""
    at = AppTest.from_file(APP, default_timeout=60)

    def timed(run: AppTest) -> AppTest:
        started = time.monotonic()
        done = run.run()
        if runs is not None:
            runs.append(time.monotonic() - started)
        return done

    timed(at)
    at.switch_page(PAGE_FILES[name])
    timed(at)
    if name == "record":
        at.text_input(key="secret_input").input(SECRET)
        timed(at.button[0].click())
    for k, v in params.items():
        at.query_params[k] = v
    return timed(at)


# --- a store that cannot be reached: one line on every page, the Record page too -------------


@pytest.mark.parametrize("name", [*READING, "record"])
def test_a_store_that_cannot_be_reached_is_one_line_on_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    with socket.socket() as s:  # a port nobody listens on: "Connection refused" at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("BRAG_DB", f"postgresql://postgres@127.0.0.1:{port}/test")
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    at = run_page(name)
    assert not at.exception, [e.value for e in at.exception]
    lines = [e.value for e in at.error if DOWN in e.value]
    assert lines == [
        "The store cannot be reached: Connection refused; nothing was recorded; trying again"
    ], [e.value for e in at.error]


# --- reading pages never wait on a writer's lock -----------------------------------------------

HOLD = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture
def locked_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A store with two sessions held ``BEGIN EXCLUSIVE`` by another process."""
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, *SEASON[:2]]) == 0
    warm = tmp_path / "warm"  # the pages' imports done once, on another store, unlocked
    warm.mkdir()
    shutil.copyfile(db, warm / "brag.db")
    monkeypatch.setenv("BRAG_DB", str(warm / "brag.db"))
    monkeypatch.setenv("BRAG_ANALYTICS", str(warm / "brag.duckdb"))
    for name in ("session", "replay"):
        run_page(name, session=Path(SEASON[0]).stem)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, db], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        monkeypatch.setenv("BRAG_DB", db)
        monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
        monkeypatch.delenv("BRAG_ORGANISER_SECRET", raising=False)
        yield db
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.timing  # each run under 2 s
@pytest.mark.parametrize("name", ["sessions", "session", "replay"])
def test_reading_pages_of_a_store_locked_by_another_program_show_at_once(
    locked_store: str, name: str
) -> None:
    runs: list[float] = []  # each run is what a visitor opening a page waits for
    at = run_page(name, runs, session=Path(SEASON[0]).stem)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert max(runs) < 2.0, f"{name}: runs of {', '.join(f'{r:.1f}' for r in runs)} s"
    if name == "sessions":
        assert any("2 of 2 sessions" in c.value for c in at.caption)


# --- the projection: built beside, renamed into place; a full disk said so -----------------------


def test_a_projection_that_fails_to_build_leaves_the_old_one(tmp_path: Path) -> None:
    import analytics.building
    import analytics.projector

    db = str(tmp_path / "brag.db")
    path = str(tmp_path / "brag.duckdb")
    assert main(["import", "--db", db, SEASON[0]]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    before = analytics.building.current_checkpoint(path)
    assert before
    assert main(["import", "--db", db, SEASON[1]]) == 0
    store = open_store(db, readonly=True)
    with pytest.raises(RuntimeError), analytics.building.replacing(path) as con:
        analytics.projector.refresh(store, con)
        raise RuntimeError("the disk filled here")
    assert analytics.building.current_checkpoint(path) == before
    assert [p for p in os.listdir(tmp_path) if "duckdb" in p] == ["brag.duckdb"]


def test_rebuild_replaces_a_file_that_is_not_a_projection(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    path = tmp_path / "brag.duckdb"
    assert main(["import", "--db", db, SEASON[0]]) == 0
    path.write_bytes(b"")  # what a build killed at its start used to leave
    assert main(["analytics", "refresh", "--db", db]) == 0
    path.write_bytes(b"not a projection" * 100)
    with pytest.raises(SystemExit) as refused:
        main(["analytics", "refresh", "--db", db])
    assert "--rebuild replaces it" in str(refused.value)
    assert main(["analytics", "refresh", "--rebuild", "--jobs", "1", "--db", db]) == 0
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("SELECT count(*) FROM events").fetchone()[0] > 0
    con.close()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 12 MiB tmpfs (a projection of two sessions is 3.6 MB; a catch-up holds two): root
    only, skips when it cannot be mounted."""
    with small_tmpfs(tmp_path, "12m") as where:
        yield where


def _fill(folder: Path) -> Path:
    """Fills the disk of ``folder`` to the last byte; the filler's path."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
        try:
            while True:
                f.write(b"\0")
        except OSError:
            pass
    return filler


def test_a_refresh_on_a_full_disk_leaves_a_readable_projection_or_none(
    small_disk: Path, tmp_path: Path
) -> None:
    import analytics.building

    db = str(tmp_path / "brag.db")  # the store elsewhere: the projection's disk fills
    path = small_disk / "brag.duckdb"
    refresh = ["analytics", "refresh", "--db", db, "--analytics", str(path)]
    assert main(["import", "--db", db, SEASON[0]]) == 0
    filler = _fill(small_disk)
    with pytest.raises(SystemExit) as failed:  # the first build: none is left, not 0 bytes
        main(refresh)
    assert "disk full" in str(failed.value), failed.value
    assert not path.exists() or analytics.building.current_checkpoint(str(path)) is not None
    assert [p for p in os.listdir(small_disk) if p != "filler"] == []
    filler.unlink()
    assert main(refresh) == 0
    before = analytics.building.current_checkpoint(str(path))
    assert before
    assert main(["import", "--db", db, SEASON[1]]) == 0
    filler = _fill(small_disk)
    with pytest.raises(SystemExit) as failed:  # a catch-up: the old one stays
        main(refresh)
    assert "disk full" in str(failed.value), failed.value
    assert "cannot rollback" not in str(failed.value)
    assert analytics.building.current_checkpoint(str(path)) == before
    assert [p for p in os.listdir(small_disk) if p.endswith(".building")] == []
    filler.unlink()
    assert main([*refresh, "--rebuild", "--jobs", "1"]) == 0
    assert analytics.building.current_checkpoint(str(path)) == open_store(db).last_position()


def test_a_store_on_a_full_disk_is_said_disk_full(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(small_disk / "brag.db")
    assert main(["import", "--db", db, SEASON[0]]) == 0
    capsys.readouterr()
    _fill(small_disk)
    code = main(["sessions", "--db", db])  # a reader that cannot make its -shm file
    err = capsys.readouterr().err
    assert code == 0 or ("disk full" in err and "disk I/O error" not in err), err
    code = main(["import", "--db", db, SEASON[1]])
    err = capsys.readouterr().err
    assert code != 0 and "disk full" in err and "disk I/O error" not in err, err


# --- the server's health after a refused cross-origin websocket -----------------------------


@pytest.mark.timing  # health under 0.5 s
def test_health_answers_at_once_after_a_refused_cross_origin_websocket(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, SEASON[0]]) == 0
    # A network that answers slowly, made here: every outside request of the server goes to a
    # proxy that takes the connection and never answers (Streamlit's external-IP lookup waits
    # its 1 s timeout twice; a slow DNS did the same for 5 s).
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)
    proxy = f"http://127.0.0.1:{silent.getsockname()[1]}"
    env = {
        "BRAG_DB": db,
        "BRAG_ANALYTICS": str(tmp_path / "brag.duckdb"),
        "HTTP_PROXY": proxy,
        "HTTPS_PROXY": proxy,
        "NO_PROXY": "localhost,127.0.0.1",
    }
    with silent, dashboard(tmp_path, env) as url:
        host, port = url.split("//")[1].split(":")

        def knock() -> None:
            with socket.create_connection((host, int(port)), timeout=10) as s:
                s.sendall(
                    (
                        "GET /_stcore/stream HTTP/1.1\r\n"
                        f"Host: {host}:{port}\r\n"
                        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n"
                        "Origin: http://elsewhere.example\r\n\r\n"
                    ).encode()
                )
                s.recv(1024)

        slowest = 0.0
        for _ in range(3):
            t = threading.Thread(target=knock)
            t.start()
            time.sleep(0.05)  # the refusal is being worked out
            started = time.monotonic()
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=30) as r:
                assert r.status == 200
            slowest = max(slowest, time.monotonic() - started)
            t.join(timeout=30)
        print(f"/_stcore/health after a refused cross-origin websocket: {slowest:.3f} s")
        assert slowest < 0.5, f"/_stcore/health took {slowest:.2f} s"


# --- Explore's errors name no server path ----------------------------------------------------


def test_explore_errors_name_no_server_path() -> None:
    from analytics.explore import without_paths

    text = (
        'IO Error: Failed to open "/tmp/brag-explore-x1/projection.duckdb.tmp/spill" '
        "and /root/.duckdb/extensions/v1.1/linux_amd64/json.duckdb_extension; 1/0 is fine"
    )
    out = without_paths(text)
    assert "/tmp" not in out and "/root" not in out and "brag-explore" not in out
    assert out.startswith('IO Error: Failed to open "…" and …') and out.endswith("1/0 is fine")


def test_an_extension_explore_may_not_install_is_refused_without_the_servers_paths(
    tmp_path: Path,
) -> None:
    import analytics.explore

    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, SEASON[0]]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    with pytest.raises(analytics.explore.QueryError) as refused:  # autoloading sqlite_scanner
        analytics.explore.run_limited(
            str(tmp_path / "brag.duckdb"), f"SELECT * FROM sqlite_scan('{db}', 'events')"
        )
    shown = str(refused.value)
    assert "/root" not in shown and ".duckdb/extensions" not in shown and str(tmp_path) not in shown
    assert "sqlite_scan" in shown and "\n" not in shown  # one line, the function it refused
    assert "file system operations are disabled" in shown or "not in the catalog" in shown


def test_a_store_handle_whose_connection_was_cut_connects_again() -> None:
    """A kept handle (the dashboard's) after its server connection was cut (a server restart,
    a proxy's timeout): the query that meets the cut is a StoreUnavailable, the next connects."""
    import psycopg
    from store_helpers import drop_schema, new_schema, pg_url, require_pg

    from events.errors import StoreUnavailable

    require_pg()
    schema = new_schema()
    try:
        with open_store(pg_url(), schema=schema) as store:
            store.import_log(SEASON[0])
        reader = open_store(f"{pg_url()}?options=-csearch_path%3D{schema}", readonly=True)
        last = reader.last_position()
        pid = reader.recorder.connection().info.backend_pid
        with psycopg.connect(pg_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StoreUnavailable):
            reader.last_position()
        assert reader.last_position() == last
        reader.close()
    finally:
        drop_schema(schema)
