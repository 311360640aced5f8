"""Explore shows no server path, setting or folder, nor the store's address (issue 33, class 5),
and the copies of the statistics it reads are removed once their dashboard is gone (class 7).

The analysts' SQL runs on a snapshot of the projection (:func:`dashboard.stats.projection.snapshot`)
through :func:`analytics.explore.run_limited`: DuckDB's own catalog and settings are refused by
name,
the snapshot's ``meta`` holds no store address, and no result holds the snapshot's folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from store_helpers import drop_schema, new_schema, pg_url, require_pg

import analytics.explore
import analytics.tables
from brag.cli import main
from dashboard.stats import projection

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"

LEAKS = [
    "SELECT * FROM duckdb_databases()",
    "SELECT path FROM DuckDB_Databases",
    'SELECT * FROM "duckdb_settings"()',
    "FROM duckdb_settings() SELECT name, value",
    "SELECT current_setting('temp_directory')",
    "SELECT 'temp_directory'.current_setting()",
    "SELECT * FROM pragma_database_list",
    "SELECT * FROM pg_catalog.pg_settings",
    "SELECT * FROM duckdb_temporary_files()",
    "SELECT * FROM query('SELECT * FROM duckdb_databases()')",
    "SELECT * FROM query_table('duckdb_settings')",
    "EXPLAIN SELECT * FROM duckdb_databases()",
    "WITH d AS (SELECT * FROM duckdb_databases()) SELECT path FROM d",
    "SELECT (SELECT max(value) FROM duckdb_settings())",
]


def _rows_text(result: analytics.explore.Limited) -> str:
    return repr(result.rows) + repr(result.columns)


@pytest.fixture
def snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """A SQLite store in ``tmp_path/club`` with one session, its projection, and the snapshot
    Explore reads (the system's temporary folder is ``tmp_path/tmp``)."""
    club, tmp = tmp_path / "club", tmp_path / "tmp"
    club.mkdir()
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    db, proj = str(club / "brag.db"), str(club / "brag.duckdb")
    assert main(["import", "--db", db, str(LOG)]) == 0
    assert main(["analytics", "refresh", "--db", db, "--analytics", proj]) == 0
    return projection.snapshot(proj, 1), club


@pytest.mark.parametrize("sql", LEAKS)
def test_duckdbs_own_catalog_and_settings_are_refused(sql: str, snapshot: tuple[str, Path]) -> None:
    copy, _ = snapshot
    with pytest.raises(analytics.explore.ReadOnlyError, match="not DuckDB's own") as err:
        analytics.explore.run_limited(copy, sql)
    assert os.path.dirname(copy) not in str(err.value)


def test_no_result_shows_a_server_folder_or_the_stores_address(
    snapshot: tuple[str, Path],
) -> None:
    copy, club = snapshot
    meta = analytics.explore.run_limited(copy, "SELECT * FROM meta")
    keys = sorted(r[0] for r in meta.rows)
    # the store's address taken out; store_event: the event the statistics stand at (a copy of
    # a store told apart, issue 33), a position and an event id, no path or setting;
    # summaries: whether the per-player and per-night rows agree with the facts
    # (analytics/summaries.py)
    assert keys == ["schema_version", "store_event", "store_id", "summaries"]
    assert dict((r[0], r[1]) for r in meta.rows)["summaries"] == "kept"
    for sql in (
        "SELECT * FROM meta",
        "SELECT * FROM sessions",
        "SELECT table_catalog, table_schema, table_name FROM information_schema.tables",
        "SELECT count(*) AS n FROM events",
    ):
        text = _rows_text(analytics.explore.run_limited(copy, sql))
        for folder in (str(club), os.path.dirname(copy), tempfile.gettempdir()):
            assert folder not in text, (sql, folder)
    # the analysts' own questions still run
    assert analytics.explore.run_limited(copy, "SELECT count(*) FROM deals").rows[0][0] > 0


@pytest.mark.postgres
def test_a_postgres_password_is_not_in_the_statistics_meta(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_pg()
    schema = new_schema()
    url = (
        f"{pg_url()}?password=Open-Sesame-2&sslpassword=Open-Sesame-4"
        f"&options=-csearch_path%3D{schema}"
    )
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    proj = str(tmp_path / "brag.duckdb")
    try:
        from log.open import open_store

        with open_store(pg_url(), schema=schema) as store:
            store.import_log(str(LOG))
        assert main(["analytics", "refresh", "--db", url, "--analytics", proj]) == 0
        con = analytics.tables.connect(proj, read_only=True)
        try:
            recorded = dict(con.execute("SELECT key, value FROM meta").fetchall())
        finally:
            con.close()
        assert "Open-Sesame" not in repr(recorded)
        assert "***" in recorded["store"]
        copy = projection.snapshot(proj, 7)
        assert "Open-Sesame" not in _rows_text(
            analytics.explore.run_limited(copy, "SELECT * FROM meta")
        )
    finally:
        drop_schema(schema)


CHILD = """
import os, signal, sys
from dashboard.stats import projection
print(projection.snapshot(sys.argv[1], 1), flush=True)
if sys.argv[2] == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_explores_copies_go_with_their_dashboard(snapshot: tuple[str, Path]) -> None:
    """A dashboard that stops removes its copy; one killed leaves it, and the next start removes
    it (never the copy of a dashboard still running: this process's)."""
    mine, club = snapshot
    env = dict(os.environ, TMPDIR=tempfile.gettempdir(), PYTHONPATH=str(ROOT))
    proj = str(club / "brag.duckdb")
    copies = {}
    for how in ("stop", "kill"):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, proj, how], env=env, capture_output=True, text=True
        )
        assert done.returncode == (-signal.SIGKILL if how == "kill" else 0), done.stderr
        copies[how] = done.stdout.strip()
        named = projection.OURS.fullmatch(os.path.basename(os.path.dirname(copies[how])))
        assert named and int(named.group("pid")) != os.getpid()
    assert not os.path.exists(copies["stop"])  # removed as it stopped
    assert os.path.exists(copies["kill"])  # a killed one could not
    removed = projection.remove_leftovers()
    assert removed == [os.path.dirname(copies["kill"])]
    assert not os.path.exists(copies["kill"])
    assert os.path.exists(mine)  # this (running) dashboard's own copy is kept
