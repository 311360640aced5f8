"""The store's schema (issue 13, items 3, 9 and 11): the ``brag_meta`` marker and version, the
append-only guard against ``INSERT OR REPLACE``/``REPLACE``/UPSERT, old stores migrated by a writer
and read as they are by a reader, foreign tables and databases refused, reading commands that
create nothing, and a tampered stream refused in one line naming the session and the seq."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from schema_helpers import CARD, club_store, digest, dump  # noqa: F401 (the fixture club)
from shared_paths import SCENARIOS, needs_shared
from store_helpers import pg_store, pg_url, require_pg

from events.errors import StoreUnavailable
from log.open import open_store
from store.schema import (
    META,
    STORE_VERSION,
)

# --- the marker and the version -------------------------------------------------------------------


@needs_shared
def test_a_new_sqlite_store_is_marked(club: Path) -> None:
    with sqlite3.connect(club) as c:
        meta = dict(c.execute(f"SELECT key, value FROM {META}"))
        triggers = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    assert uuid.UUID(meta.pop("store_id")).version == 4  # the store's id (issue 20)
    assert meta == {"schema": "bragbook", "version": str(STORE_VERSION)}
    assert STORE_VERSION == 9  # 3: the session catalogue (issue 15); 4: annotations (issue 21);
    # 5: the listing's filter choices (issue 22); 6: annotations point at an event (issue 32);
    # 7: the devices beside the log (issue 33); 8: the players' register (issue 35);
    # 9: the club night's facts (issue 36)
    assert triggers == {
        "events_no_update", "events_no_delete", "events_no_overwrite",
        "brag_annotations_no_update", "brag_annotations_no_delete",
        "brag_register_no_update", "brag_register_no_delete",
        "brag_night_no_update", "brag_night_no_delete",
    }  # fmt: skip


@needs_shared
@pytest.mark.postgres
def test_a_new_postgres_store_is_marked_and_refuses_upsert() -> None:
    require_pg()
    import psycopg

    with pg_store() as s:
        s.import_log(CARD)
        schema = s.schema  # type: ignore[attr-defined]
        with psycopg.connect(pg_url(), autocommit=True) as c:
            c.execute(f'SET search_path TO "{schema}"')
            meta = dict(c.execute(f"SELECT key, value FROM {META}").fetchall())
            assert uuid.UUID(meta.pop("store_id")).version == 4
            assert meta == {"schema": "bragbook", "version": str(STORE_VERSION)}
            before = c.execute("SELECT * FROM events ORDER BY position").fetchall()
            row = before[-1]
            upsert = (
                "INSERT INTO events (session, seq, id, type, v, payload, stored_at) "
                "VALUES (%s, %s, %s, %s, 1, %s::json, now()) ON CONFLICT ({}) DO UPDATE "
                "SET payload = excluded.payload"
            )
            args = (row[1], row[2], row[3], row[4], '{"player": "A", "amount": "1400"}')
            for target in ("id", "session, seq"):
                with pytest.raises(psycopg.Error, match="append-only"):
                    c.execute(upsert.format(target), args)
            c.execute(
                "INSERT INTO events (session, seq, id, type, v, payload, stored_at) "
                "VALUES (%s, %s, %s, %s, 1, %s::json, now()) ON CONFLICT DO NOTHING",
                args,
            )
            assert c.execute("SELECT * FROM events ORDER BY position").fetchall() == before
        s.close()
        again = open_store(pg_url(), schema=schema, readonly=True)
        assert [e.type for e in again.events("card-example")][-1] == "pot_won"
        with pytest.raises(Exception, match="opened for reading"):
            again.import_log(str(SCENARIOS / "eight_pots_shared_win.jsonl"))
        again.close()


@pytest.mark.postgres
def test_a_postgres_look_alike_table_is_refused() -> None:
    require_pg()
    import psycopg
    from store_helpers import drop_schema, new_schema

    schema = new_schema()
    try:
        with psycopg.connect(pg_url(), autocommit=True) as c:
            c.execute(f'CREATE SCHEMA "{schema}"')
            c.execute(
                f'CREATE TABLE "{schema}".events (position bigserial, session text, seq int, '
                "id uuid, type text, v int, payload json, at text, by text, stored_at timestamptz)"
            )
        for readonly in (False, True):
            with pytest.raises(StoreUnavailable) as err:
                open_store(pg_url(), schema=schema, readonly=readonly)
            assert "is not Bragbook's event log" in str(err.value)
            assert "\n" not in str(err.value)
        with psycopg.connect(pg_url(), autocommit=True) as c:
            n = c.execute(
                "SELECT count(*) FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid "
                "JOIN pg_namespace n ON n.oid = r.relnamespace WHERE n.nspname = %s",
                (schema,),
            ).fetchone()
            assert n == (0,)  # no trigger added to another program's table
            tables = c.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)
            ).fetchall()
            assert tables == [("events",)]  # and no brag_meta
    finally:
        drop_schema(schema)


# --- REPLACE, UPSERT and friends on a plain sqlite3 connection ----------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        # the same id, another amount (the trial's 14 -> 1,400)
        "INSERT OR REPLACE INTO events (session, seq, id, type, v, payload, stored_at) "
        "VALUES (:session, :seq, :id, 'pot_won', 1, :payload, 'x')",
        # the same (session, seq) under a new id
        "REPLACE INTO events (session, seq, id, type, v, payload, stored_at) "
        "VALUES (:session, :seq, 'f0000000-0000-4000-8000-000000000000', 'pot_won', 1, "
        ":payload, 'x')",
        # the same position
        "REPLACE INTO events (position, session, seq, id, type, v, payload, stored_at) "
        "VALUES (:position, 'other', 1, 'f0000000-0000-4000-8000-000000000001', 'pot_won', 1, "
        ":payload, 'x')",
        # an UPSERT on either unique key
        "INSERT INTO events (session, seq, id, type, v, payload, stored_at) "
        "VALUES (:session, :seq, :id, 'pot_won', 1, :payload, 'x') "
        "ON CONFLICT (id) DO UPDATE SET payload = excluded.payload",
        "INSERT INTO events (session, seq, id, type, v, payload, stored_at) "
        "VALUES (:session, :seq, 'f0000000-0000-4000-8000-000000000002', 'pot_won', 1, :payload, "
        "'x') ON CONFLICT (session, seq) DO UPDATE SET payload = excluded.payload",
        # OR IGNORE: refused too, and certainly without a side effect
        "INSERT OR IGNORE INTO events (session, seq, id, type, v, payload, stored_at) "
        "VALUES (:session, :seq, :id, 'pot_won', 1, :payload, 'x')",
        "UPDATE OR REPLACE events SET payload = :payload WHERE seq = :seq",
    ],
)
@needs_shared
def test_no_statement_rewrites_a_stored_event(club: Path, sql: str) -> None:
    before = dump(club)
    position, session, seq, id_ = before[-1][:4]
    assert before[-1][4] == "pot_won"
    c = sqlite3.connect(club, isolation_level=None)
    params = {
        "position": position,
        "session": session,
        "seq": seq,
        "id": id_,
        "payload": json.dumps({"player": "A", "amount": "1400"}),
    }
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        c.execute(sql, params)
    c.close()
    assert dump(club) == before
    with open_store(str(club), readonly=True) as s:
        assert [e.type for e in s.export("card-example")][-1] == "pot_won"


# --- old stores, foreign tables, other programs' databases ----------------------------------------


@needs_shared
@pytest.mark.slow
def test_reading_commands_work_for_a_user_who_may_not_write() -> None:
    """``brag sessions``/``export``/``replay`` on a store its user may read but not write (the
    trial: "attempt to write a readonly database"), and the file is unchanged."""
    home = Path(tempfile.mkdtemp(prefix="brag-readonly-"))  # pytest's folders are private
    try:
        db = home / "club.db"
        with open_store(str(db)) as s:
            s.import_log(CARD)
        for p in home.iterdir():
            p.chmod(0o644)
        home.chmod(0o755)
        before = digest(db)
        if os.geteuid() == 0:
            prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        else:  # an ordinary user: take write permission away instead
            prefix = []
            db.chmod(0o444)
            home.chmod(0o555)
        brag = [sys.executable, "-m", "brag.cli"]
        outputs = []
        for argv in (["sessions"], ["export", "card-example"], ["replay", "card-example"]):
            got = subprocess.run(
                [*prefix, *brag, "--db", str(db), *argv],
                capture_output=True,
                text=True,
                cwd=home,
                timeout=60,
                env={**os.environ, "HOME": str(home)},
            )
            assert got.returncode == 0, (argv, got.stderr)
            outputs.append(got.stdout)
        assert "card-example" in outputs[0]
        assert len(outputs[1].splitlines()) == 16
        assert "after step 13 of deal 1: 1 of 8 pots resolved" in outputs[2]
        home.chmod(0o755)
        assert digest(db) == before
        assert not (home / "club.db-wal").exists()
    finally:
        home.chmod(0o755)
        shutil.rmtree(home)
