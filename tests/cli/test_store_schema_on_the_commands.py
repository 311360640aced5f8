"""The store's marker, version and guards met through the CLI: a tampered stream or a row that is
not JSON is one line on every reading command, an old store is read as it is and migrated by a
writer, a foreign table or a file that is not SQLite is refused and left alone. The store's side of
each is in tests/log/test_schema_and_migrations.py."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import pytest
from schema_helpers import CARD, club_store, digest, dump  # noqa: F401 (the fixture club)
from shared_paths import needs_shared

from brag.cli import main
from events.errors import CorruptSession
from log.open import open_store
from store.schema import (
    META,
    SQLITE_TRIGGERS,
    STORE_VERSION,
    create_table_sql,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def legacy_store(path: Path) -> None:
    """A store as Bragbook made it before the marker (version 1): the table, the UPDATE and
    DELETE triggers, no brag_meta."""
    from sqlalchemy.dialects import sqlite

    with open_store(str(path.with_suffix(".tmp.db"))) as s:
        s.import_log(CARD)
    rows = dump(path.with_suffix(".tmp.db"))
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute(create_table_sql(sqlite.dialect()))
    c.execute(SQLITE_TRIGGERS["events_no_update"])
    c.execute(SQLITE_TRIGGERS["events_no_delete"])
    c.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    c.close()


@needs_shared
def test_a_tampered_stream_is_one_line_on_every_reading_command(
    club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Triggers dropped by another program and pot_won rewritten (14 -> 1,400): replay, export and
    the statistics each refuse in one line naming the session and the seq."""
    c = sqlite3.connect(club, isolation_level=None)
    c.execute("DROP TRIGGER events_no_update")
    c.execute(
        "UPDATE events SET payload = json_set(payload, '$.amount', '1400') WHERE type = 'pot_won'"
    )
    # and put the trigger back so the store is still recognised as ours
    c.execute(SQLITE_TRIGGERS["events_no_update"])
    c.close()
    for argv in (
        ("replay", "card-example"),
        ("export", "card-example"),
        ("export", "card-example", "-o", str(club.parent / "out.jsonl")),
    ):
        code, out, err = run(capsys, "--db", str(club), *argv)
        line = one_error_line(err)
        assert code == 1, argv
        assert "session 'card-example', seq 16 (pot_won): the stored stream no longer folds" in line
        assert out == ""
    assert not (club.parent / "out.jsonl").exists()


@needs_shared
def test_a_row_that_is_not_json_is_one_line(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = sqlite3.connect(club, isolation_level=None)
    c.execute("DROP TRIGGER events_no_overwrite")
    c.execute(
        "INSERT INTO events (session, seq, id, type, v, payload, stored_at) VALUES "
        "('card-example', 17, 'f0000000-0000-4000-8000-000000000009', 'dealt', 1, '{oops', 'x')"
    )
    c.execute(SQLITE_TRIGGERS["events_no_overwrite"])
    c.close()
    code, _, err = run(capsys, "--db", str(club), "replay", "card-example")
    assert code == 1
    assert "session 'card-example', seq 17 (dealt): the stored event cannot be read" in (
        one_error_line(err)
    )
    with open_store(str(club), readonly=True) as s, pytest.raises(CorruptSession) as e:
        s.read("card-example")
    assert e.value.seq == 17


@needs_shared
def test_an_old_store_is_read_as_it_is_and_migrated_by_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    legacy_store(db)
    before = digest(db)
    code, out, _ = run(capsys, "--db", str(db), "sessions")
    assert code == 0 and "card-example" in out
    code, out, _ = run(capsys, "--db", str(db), "export", "card-example")
    assert code == 0 and len(out.splitlines()) == 16
    assert digest(db) == before  # read without writing: no marker, no trigger added
    with open_store(str(db), readonly=True) as s:
        assert s.version == 1  # type: ignore[attr-defined]
    with open_store(str(db)) as s:
        assert s.version == STORE_VERSION  # type: ignore[attr-defined]
    with sqlite3.connect(db) as c:
        meta = dict(c.execute(f"SELECT key, value FROM {META}"))
        assert uuid.UUID(meta.pop("store_id")).version == 4  # given by the migrating writer
        assert meta == {"schema": "bragbook", "version": str(STORE_VERSION)}
        names = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    assert "events_no_overwrite" in names


LOOK_ALIKE = (
    "CREATE TABLE events (position INTEGER PRIMARY KEY, session TEXT, seq INTEGER, id TEXT, "
    "type TEXT, v INTEGER, payload TEXT, at TEXT, by TEXT, stored_at TEXT)"
)


@pytest.mark.parametrize(
    ("ddl", "why"),
    [
        # the trial's look-alike: Bragbook's column names, no constraints, no triggers
        ([LOOK_ALIKE], "is not Bragbook's event log (its columns' types or constraints differ"),
        # our very table, but without the append-only triggers
        (["OURS"], "is not Bragbook's event log (no append-only trigger events_no_update"),
        # a marker of someone else
        (
            [
                LOOK_ALIKE,
                f"CREATE TABLE {META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                f"INSERT INTO {META} VALUES ('schema', 'ledger'), ('version', '2')",
            ],
            "does not mark a Bragbook store (schema 'ledger')",
        ),
        # a store of a newer Bragbook
        (
            [
                "OURS",
                f"CREATE TABLE {META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                f"INSERT INTO {META} VALUES ('schema', 'bragbook'), ('version', '99')",
            ],
            "store version 99 was made by a newer Bragbook",
        ),
        # another program's database
        (
            ["CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)"],
            "is another program's database (tables moz_places)",
        ),
    ],
)
def test_a_foreign_table_or_database_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ddl: list[str], why: str
) -> None:
    from sqlalchemy.dialects import sqlite

    db = tmp_path / "other.db"
    c = sqlite3.connect(db, isolation_level=None)
    for stmt in ddl:
        c.execute(create_table_sql(sqlite.dialect()) if stmt == "OURS" else stmt)
    c.close()
    before = digest(db)
    for argv in (("import", CARD), ("sessions",), ("stats",), ("analytics", "refresh")):
        code, _, err = run(capsys, "--db", str(db), *argv)
        assert code != 0, argv
        line = one_error_line(err)
        assert why in line, (argv, line)
        assert f"{db}: " in line
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]  # no .duckdb, no -wal


def test_a_file_that_is_not_sqlite_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "notsqlite.db"
    db.write_text("just some notes, not a database\n" * 40)
    for argv in (("stats",), ("leaderboard",), ("sessions",), ("import", CARD)):
        code, _, err = run(capsys, "--db", str(db), *argv)
        assert code != 0
        assert "not a database" in one_error_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notsqlite.db"]
