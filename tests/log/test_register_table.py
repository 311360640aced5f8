"""The players' register beside the log (store version 8, issue 35 item 2): merges, renames and
their undoing are facts of the store, append-only, read the same by every handle on it (SQLite,
PostgreSQL, memory), never events; :class:`log.register.Register` folds them into one answer."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared

from events.errors import PlainError
from log.open import open_store
from log.register import Seated, merge, register_of, rename, undo
from store.register import REGISTER
from store.register import VERSION as REGISTER_VERSION
from store.schema import META, STORE_VERSION

CARD = str(SCENARIOS / "card_example.jsonl")
CLUB = Seated(["Jean", "Jaen", "Bob"], [("Jean", "Bob"), ("Jaen", "Bob")])


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "memory":
        yield open_store("memory://")
        return
    if request.param == "sqlite":
        with open_store(str(tmp_path / "club.db")) as s:
            yield s
        return
    from store_helpers import pg_store, require_pg

    require_pg()
    with pg_store() as s:
        yield s


def test_a_merge_its_undo_and_a_rename_are_facts_of_the_store(store: Any) -> None:
    assert store.version in (0, STORE_VERSION) and register_of(store).version == 0
    m = merge(store, "jaen", "JEAN", CLUB, by="Ann")  # names matched by their normal form
    assert (m.kind, m.name, m.target, m.by) == ("merge", "Jaen", "Jean", "Ann")
    reg = register_of(store.reopen())  # another handle reads the same register
    assert reg.resolve("Jaen") == "Jean" and reg.key("jaen") == "jean" and reg.version == m.position
    u = undo(store, by="Ann")
    assert (u.kind, u.undoes) == ("undo", m.position)
    assert register_of(store).resolve("Jaen") == "Jaen"
    r = rename(store, "Jean", "Jean Smith", CLUB, by="Ann")
    reg = register_of(store)
    assert [f.kind for f in reg.facts] == ["merge", "undo", "rename"]
    assert reg.resolve("Jean") == "Jean Smith" and reg.resolve("Jaen") == "Jaen"
    assert reg.in_force() == [r]
    with pytest.raises(PlainError, match="nothing to undo"):
        undo(store, by="Ann"), undo(store, by="Ann")


def test_refusals_are_one_sentence(store: Any) -> None:
    with pytest.raises(PlainError, match="no player named Jon; did you mean Jean"):
        merge(store, "Jon", "Jean", Seated(["Jean", "Bob"]), by="o")
    with pytest.raises(PlainError, match=r"sat in one session.*RULES 1\.3"):
        merge(store, "Bob", "Jean", CLUB, by="o")
    with pytest.raises(PlainError, match="merge Jean into them instead"):
        rename(store, "Jean", "bob", CLUB, by="o")
    merge(store, "Jaen", "Jean", CLUB, by="o")
    with pytest.raises(PlainError, match="Jaen is Jean already"):
        merge(store, "Jaen", "Jean", CLUB, by="o")
    assert len(register_of(store).facts) == 1  # nothing written by a refusal


def test_a_rename_back_and_a_chain(store: Any) -> None:
    merge(store, "Jaen", "Jean", CLUB, by="o")
    rename(store, "Jean", "Jean Smith", CLUB, by="o")
    reg = register_of(store)
    assert reg.resolve("Jaen") == "Jean Smith"
    assert [a for a, _ in reg.also("Jean Smith", ["Jean", "Jaen", "Bob"])] == ["Jean", "Jaen"]
    rename(store, "Jean Smith", "Jean", Seated(["Jean", "Jaen", "Bob"]), by="o")
    reg = register_of(store)
    assert reg.resolve("Jean") == "Jean" and reg.resolve("Jaen") == "Jean"  # no cycle


def test_two_seats_of_one_session_stay_two_players() -> None:
    """A session stored after a merge that seats both names keeps them apart (RULES 1.3)."""
    store = open_store("memory://")
    merge(store, "Jaen", "Jean", CLUB, by="o")
    reg = register_of(store)
    assert reg.seats(["Jaen", "Bob"]) == {"Jaen": "Jean", "Bob": "Bob"}
    assert reg.seats(["Jaen", "Jean"]) == {"Jaen": "Jaen", "Jean": "Jean"}


@needs_shared
def test_the_table_is_append_only_and_a_version_7_store_gains_it(tmp_path: Path) -> None:
    db = tmp_path / "seven.db"
    with open_store(str(db)) as s:
        s.import_log(CARD)
        merge(s, "A", "B", Seated(["A", "B"]), by="o")
    with sqlite3.connect(db) as c, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        c.execute(f"DELETE FROM {REGISTER}")
    with sqlite3.connect(db) as c:  # the store as version 7 left it
        c.execute(f"DROP TABLE {REGISTER}")
        c.execute(f"UPDATE {META} SET value = '{REGISTER_VERSION - 1}' WHERE key = 'version'")
    with open_store(str(db), readonly=True) as r:
        assert r.version == REGISTER_VERSION - 1 and register_of(r).facts == ()
    with open_store(str(db)) as w:
        assert w.version == STORE_VERSION and register_of(w).facts == ()
        assert len(w.events("card-example")) == 16  # the log untouched


@needs_shared
def test_a_reader_opened_before_the_migration_sees_the_facts_written_after(tmp_path: Path) -> None:
    db = tmp_path / "seven.db"
    with open_store(str(db)) as s:
        s.import_log(CARD)
    with sqlite3.connect(db) as c:  # the store as version 7 left it
        c.execute(f"DROP TABLE {REGISTER}")
        c.execute(f"UPDATE {META} SET value = '{REGISTER_VERSION - 1}' WHERE key = 'version'")
    with open_store(str(db), readonly=True) as reader:  # a dashboard's reading handle
        assert register_of(reader).facts == ()
        with open_store(str(db)) as writer:  # its writer migrates, then a merge is stored
            merge(writer, "A", "B", Seated(["A", "B"]), by="o")
        assert [f.kind for f in register_of(reader).facts] == ["merge"]
