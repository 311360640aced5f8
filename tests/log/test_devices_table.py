"""The devices beside the log (store version 7, issue 33 class 4): a table of the store, so every
handle on the store (another folder, a symlink, another connection to the same PostgreSQL
schema) reads the same revocations and the same dashboard holding it; a version 6 store gains
the table when a writer opens it, and a reader of one sees no revocation. (The version that made
the table is ``store.devices.VERSION``: the tests name the one before it as that minus one.)"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared

from log.open import open_store
from store.devices import DEVICES, Holder, Revocations
from store.devices import VERSION as DEVICES_VERSION
from store.schema import META, STORE_VERSION

pytestmark = needs_shared  # the tests here read a scenario

CARD = str(SCENARIOS / "card_example.jsonl")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_handles(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """Two handles on one store: a SQLite file and a symlink to it, or two connections (two
    URLs) to one PostgreSQL schema."""
    if request.param == "sqlite":
        db = tmp_path / "a.db"
        link = tmp_path / "elsewhere" / "b.db"
        link.parent.mkdir()
        first = open_store(str(db))
        link.symlink_to(db)
        second = open_store(str(link))
        yield first, second
        first.close()
        second.close()
        return
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as first:
        url = f"{pg_url()}?options=-csearch_path%3D{first.schema}&application_name=other"
        second = open_store(url)
        yield first, second
        second.close()


def test_revocations_and_the_holder_are_the_stores_own(two_handles: tuple[Any, Any]) -> None:
    a, b = two_handles
    assert a.store_id == b.store_id and a.version == b.version == STORE_VERSION >= DEVICES_VERSION
    assert a.recorder.revocations() == b.recorder.revocations() == Revocations()
    with a.recorder.transaction() as tx:
        tx.devices().revoke("ab12", 2_000_000_000, 1_000)
        tx.devices().revoke("old", 999, 1_000)  # expired already: not kept
    with b.recorder.transaction() as tx:
        assert tx.devices().revoke_all() == 1
    assert a.recorder.revocations() == Revocations(1, {"ab12": 2_000_000_000})
    assert a.recorder.revocations().locks("cd34", 0)  # an earlier generation
    assert a.recorder.revocations().locks("ab12", 1)  # revoked
    assert not a.recorder.revocations().locks("cd34", 1)
    held = Holder("h1", 4321, "club-pc", "http://localhost:8501", 2_000_000_000)
    with a.recorder.transaction() as tx:
        tx.devices().hold(held)
    with b.recorder.transaction() as tx:
        assert tx.devices().holder() == held
        tx.devices().let_go("someone else")  # not the holder: kept
    with b.recorder.transaction() as tx:
        assert tx.devices().holder() == held
        tx.devices().let_go("h1")
    with a.recorder.transaction() as tx:
        assert tx.devices().holder() is None


def test_a_rolled_back_write_leaves_the_revocations(two_handles: tuple[Any, Any]) -> None:
    a, b = two_handles
    with pytest.raises(RuntimeError), a.recorder.transaction() as tx:
        tx.devices().revoke_all()
        raise RuntimeError("the append failed")
    assert b.recorder.revocations() == Revocations()


def test_the_memory_store_keeps_them_too() -> None:
    store = open_store("memory://")
    with store.recorder.transaction() as tx:
        tx.devices().revoke("ab12", 2_000_000_000, 1_000)
        tx.devices().revoke_all()
    assert store.reopen().recorder.revocations() == Revocations(1, {"ab12": 2_000_000_000})


PREVIOUS = DEVICES_VERSION - 1
"""The store version before the devices table."""


def test_a_store_of_the_previous_version_gains_the_table_when_a_writer_opens_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "five.db"
    with open_store(str(db)) as s:
        s.import_log(CARD)
        sid = s.store_id
    with sqlite3.connect(db) as c:  # the store as the previous version left it
        c.execute(f"DROP TABLE {DEVICES}")
        c.execute(f"UPDATE {META} SET value = '{PREVIOUS}' WHERE key = 'version'")
    with open_store(str(db), readonly=True) as r:
        assert r.version == PREVIOUS and r.recorder.revocations() == Revocations()
    with open_store(str(db)) as w:  # the writer migrates past the devices' version
        assert w.version == STORE_VERSION and w.store_id == sid
        assert w.recorder.revocations() == Revocations()
        assert len(w.events("card-example")) == 16
    with sqlite3.connect(db) as c:
        assert c.execute(f"SELECT count(*) FROM {DEVICES}").fetchone() == (0,)
        assert dict(c.execute(f"SELECT key, value FROM {META}"))["version"] == str(STORE_VERSION)


@pytest.mark.postgres
def test_a_postgres_store_of_the_previous_version_gains_the_table() -> None:
    import psycopg
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as s:
        s.import_log(CARD)
        with psycopg.connect(pg_url(), autocommit=True) as c:
            c.execute(f'SET search_path TO "{s.schema}"')
            c.execute(f"DROP TABLE {DEVICES}")
            c.execute(f"UPDATE {META} SET value = '{PREVIOUS}' WHERE key = 'version'")
        again = open_store(pg_url(), schema=s.schema)
        assert again.version == STORE_VERSION and again.recorder.revocations() == Revocations()
        with again.recorder.transaction() as tx:
            tx.devices().revoke_all()
        assert s.recorder.revocations().generation == 1
        again.close()
