"""Numbers that never mix (issue 20, item 4): a store has an id, its projection records it, and a
projection of store A opened for store B is refused in one line naming both (a file the user
named) or rebuilt (the store's default file), never mixed. SQLite and PostgreSQL."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from projection_owner_helpers import A_LOG, B_LOG
from projection_owner_helpers import projected_sessions as _projected_sessions
from projection_owner_helpers import seated as _seated
from projection_owner_helpers import session_of as _session_of
from store_helpers import drop_schema, new_schema, pg_url, require_pg

from brag.cli import main


def _stats_players(argv: list[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    capsys.readouterr()
    assert main(["stats", *argv, "--format", "json"]) == 0
    return {r["player"] for r in json.loads(capsys.readouterr().out)}


def _refused(argv: list[str]) -> str:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    text = str(caught.value.code)
    assert "\n" not in text  # one line
    return text


def _store_id(db: str) -> str:
    from log.open import open_store

    with open_store(db, readonly=True) as store:
        return store.store_id


def test_a_writer_gives_the_store_an_id_that_readers_see(tmp_path: Path) -> None:
    from log.open import open_store

    db = str(tmp_path / "a.db")
    with open_store(db) as store:
        made = store.store_id
    assert len(made) == 36 and made.count("-") == 4  # a UUID
    assert _store_id(db) == made  # read back, unchanged
    with open_store(db) as store:  # a second writer keeps it
        assert store.store_id == made
    other = str(tmp_path / "b.db")
    with open_store(other) as store:
        assert store.store_id != made


def test_an_older_store_read_only_has_a_location_id_until_a_writer_gives_one(
    tmp_path: Path,
) -> None:
    from log.open import open_store

    db = tmp_path / "old.db"
    with open_store(str(db)) as store:
        store.import_log(str(A_LOG))
    with sqlite3.connect(db) as c:  # as a store made before ids were written
        c.execute("DELETE FROM brag_meta WHERE key = 'store_id'")
    assert _store_id(str(db)) == f"location:{db.resolve()}"
    assert _store_id(str(db)) == f"location:{db.resolve()}"  # stable
    with open_store(str(db)) as store:
        given = store.store_id
    assert not given.startswith("location:")
    assert _store_id(str(db)) == given


def _two_stores(tmp_path: Path) -> tuple[str, str]:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert main(["import", "--db", a, str(A_LOG)]) == 0
    assert main(["import", "--db", b, str(B_LOG)]) == 0
    return a, b


@pytest.mark.slow
def test_a_named_projection_of_store_a_is_refused_for_store_b(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _two_stores(tmp_path)
    proj = tmp_path / "club.duckdb"
    assert _stats_players(["--db", a, "--analytics", str(proj)], capsys) == _seated(A_LOG)
    before = proj.read_bytes()
    for argv in (
        ["stats", "--db", b, "--analytics", str(proj)],
        ["leaderboard", "--db", b, "--analytics", str(proj)],
        ["analytics", "refresh", "--db", b, "--analytics", str(proj)],
        ["analytics", "show", "player_stats", "--db", b, "--analytics", str(proj)],
        ["stats", "--db", b, "--analytics", str(proj), "--no-refresh"],
    ):
        said = _refused(argv)
        assert f"the statistics file {proj} belongs to the store {tmp_path / 'a.db'}" in said
        assert _store_id(a) in said and _store_id(b) in said
        assert f"not to {tmp_path / 'b.db'}" in said
        assert "--rebuild" in said
    assert proj.read_bytes() == before  # left as it was
    assert _projected_sessions(proj) == {_session_of(A_LOG)}
    # The user asked for a rebuild: the file is now store B's, and only B's.
    assert main(["analytics", "refresh", "--rebuild", "--db", b, "--analytics", str(proj)]) == 0
    assert _projected_sessions(proj) == {_session_of(B_LOG)}
    assert _stats_players(["--db", b, "--analytics", str(proj)], capsys) == _seated(B_LOG)


def test_the_default_projection_of_another_store_is_rebuilt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _two_stores(tmp_path)
    assert main(["analytics", "refresh", "--db", a]) == 0
    # Store A's projection lands where store B's default file is (e.g. both were once
    # ./brag.duckdb): B's statistics are rebuilt from B alone.
    shutil.copyfile(tmp_path / "a.duckdb", tmp_path / "b.duckdb")
    capsys.readouterr()
    assert main(["stats", "--db", b, "--format", "json"]) == 0
    out = capsys.readouterr()
    assert {r["player"] for r in json.loads(out.out)} == _seated(B_LOG)
    assert "rebuilt for" in out.err and str(tmp_path / "a.db") in out.err
    assert _projected_sessions(tmp_path / "b.duckdb") == {_session_of(B_LOG)}


def test_a_projection_that_names_no_store_is_not_taken_as_this_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = _two_stores(tmp_path)
    proj = tmp_path / "old.duckdb"
    assert main(["analytics", "refresh", "--db", a, "--analytics", str(proj)]) == 0
    with duckdb.connect(str(proj)) as con:  # as built before projections recorded their store
        con.execute("DELETE FROM meta WHERE key IN ('store_id', 'store')")
    said = _refused(["stats", "--db", a, "--analytics", str(proj)])
    assert "was built before statistics files recorded their store" in said


@pytest.fixture
def pg_db() -> Iterator[str]:
    require_pg()
    import psycopg

    schema = new_schema()
    with psycopg.connect(pg_url(), autocommit=True) as c:
        c.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{pg_url()}?options=-csearch_path%3D{schema}"
    try:
        yield url
    finally:
        drop_schema(schema)


def test_postgresql_and_sqlite_projections_never_mix(
    tmp_path: Path,
    pg_db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert main(["import", "--db", pg_db, str(B_LOG)]) == 0
    sqlite_db = str(tmp_path / "brag.db")
    assert main(["import", "--db", sqlite_db, str(A_LOG)]) == 0
    monkeypatch.chdir(tmp_path)
    from analytics.sources import default_projection

    # The server store's default file is its own, not ./brag.duckdb beside the SQLite store.
    pg_default = tmp_path / default_projection(pg_db)
    assert pg_default.name.startswith("brag-127.0.0.1-test-brag_test_")
    assert _stats_players(["--db", pg_db], capsys) == _seated(B_LOG)
    assert _stats_players(["--db", sqlite_db], capsys) == _seated(A_LOG)
    assert _projected_sessions(pg_default) == {_session_of(B_LOG)}
    assert _projected_sessions(tmp_path / "brag.duckdb") == {_session_of(A_LOG)}
    # The server store's projection named for the SQLite store: refused, naming both.
    said = _refused(["stats", "--db", sqlite_db, "--analytics", str(pg_default)])
    assert "belongs to the store postgresql://postgres@127.0.0.1" in said
    assert f"not to {tmp_path / 'brag.db'}" in said
    # And the SQLite store's projection named for the server store.
    said = _refused(["stats", "--db", pg_db, "--analytics", str(tmp_path / "brag.duckdb")])
    assert f"belongs to the store {tmp_path / 'brag.db'}" in said
    assert "not to postgresql://postgres@127.0.0.1" in said
    assert _projected_sessions(pg_default) == {_session_of(B_LOG)}
