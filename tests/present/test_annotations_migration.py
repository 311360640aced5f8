"""Store version 6 (issue 32): an older store's notes and remembered cards, kept by ``(deal,
step)``, are given their event once, by the numbering they were written under (the stream as it
stands: the corrected stream cut at each ``dealt``, :func:`store.annotations.v5_anchors`); a
reader of the older store, not migrated, places them the same way; once migrated they stay on
their action through a later Undo. On SQLite and the real PostgreSQL server."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import HAVE_SHARED, NO_SHARED, SCENARIOS
from store_helpers import pg_store, require_pg

from events.codec import read_file
from events.model import Bet, Folded, Voided
from log.annotations import notes, private_cards
from log.open import open_store
from log.service import EventStore
from present.replay import Replay
from store.annotations import ANNOTATIONS
from store.schema import META, STORE_VERSION

if not HAVE_SHARED:  # the module reads a scenario as it is imported
    pytest.skip(NO_SHARED, allow_module_level=True)

S = "card-example"
EVENTS = [e for _, e in read_file(str(SCENARIOS / "card_example.jsonl"))]
AT = "2026-01-02T20:00:00+00:00"
OLD_ROWS = [  # as version 5 wrote them: (kind, deal, step, who, body)
    ("note", 1, 7, "Ann", "on step 7"),
    ("note", 0, 2, "Bo", "on the lot"),
    ("note", 1, 99, "Cy", "on a step long gone"),
    ("cards", 1, None, "C", "Ah Ad Ac"),
]


def _rp(store: EventStore) -> Replay:
    return Replay.of(store.events(S), recorded=True)


def _stream(store: EventStore) -> None:
    """Deal 1 up to B's bet (seq 10), undone, and B folding instead: step 7 of deal 1 is the
    fold as the stream stands (seq 12)."""
    store.append(S, EVENTS[:10], 0)
    store.append(S, [Voided(seq=10)], 10)
    store.append(S, [Folded(player="B")], 11)


def _as_version_5(execute: Callable[..., Any], mark: str) -> None:
    """The annotations table as version 5 left it, holding :data:`OLD_ROWS`."""
    execute(f"ALTER TABLE {ANNOTATIONS} DROP COLUMN event")
    execute(f"UPDATE {META} SET value = '5' WHERE key = 'version'")
    for kind, deal, step, who, body in OLD_ROWS:
        execute(
            f"INSERT INTO {ANNOTATIONS} (session, kind, deal, step, who, body, at) "
            f"VALUES ({', '.join([mark] * 7)})",
            (S, kind, deal, step, who, body, AT),
        )


def _check_placed(store: EventStore) -> None:
    rp = _rp(store)
    ids = {e.seq: str(e.id) for e in rp.events if e.type != "voided"}
    got = {n.text: (n.deal, n.step, n.withdrawn, n.event) for n in notes(store, rp)}
    assert got == {
        "on the lot": (0, 2, False, ids[2]),
        "on step 7": (1, 7, False, ids[12]),  # the fold: the best that can be known
        "on a step long gone": (1, 99, True, None),
    }
    assert private_cards(store, rp, "C")[1].event == ids[4]


def _check_undo_keeps_them(store: EventStore) -> None:
    fold = next(n for n in notes(store, _rp(store)) if n.text == "on step 7")
    store.append(S, [Voided(seq=12)], 12)  # the fold undone: B bets level 3 instead
    store.append(S, [Bet(player="B", level=3)], 13)
    rp = _rp(store)
    moved = next(n for n in notes(store, rp) if n.text == "on step 7")
    assert (moved.event, moved.deal, moved.step, moved.withdrawn) == (fold.event, 1, 7, True)
    assert moved.action.startswith("B folds")
    assert private_cards(store, rp, "C")[1].cards == ("Ah", "Ad", "Ac")


def test_a_sqlite_store_of_version_5_is_read_and_migrated(tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    with open_store(db) as s:
        _stream(s)
        export = list(s.export_lines(S))
    c = sqlite3.connect(db, isolation_level=None)
    _as_version_5(c.execute, "?")
    c.close()
    ro = open_store(db, readonly=True)  # a reader of the older store, kept open
    assert ro.version == 5
    _check_placed(ro)
    with open_store(db) as w:  # a writer migrates
        assert w.version == STORE_VERSION == 9
        _check_placed(w)
        _check_undo_keeps_them(w)
        assert list(w.export_lines(S))[:12] == export
    moved = next(n for n in notes(ro, _rp(ro)) if n.text == "on step 7")
    assert moved.withdrawn  # the reader kept open reads the migrated rows
    ro.close()
    with sqlite3.connect(db) as c:
        rows = c.execute(f"SELECT body, event FROM {ANNOTATIONS} ORDER BY position").fetchall()
        triggers = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            c.execute(f"UPDATE {ANNOTATIONS} SET event = NULL")
    assert [(b, e is not None) for b, e in rows] == [
        ("on step 7", True),
        ("on the lot", True),
        ("on a step long gone", False),
        ("Ah Ad Ac", True),
    ]
    assert {f"{ANNOTATIONS}_no_update", f"{ANNOTATIONS}_no_delete"} <= triggers


@pytest.fixture
def pg() -> Iterator[EventStore]:
    require_pg()
    with pg_store() as s:
        yield s


@pytest.mark.postgres
def test_a_postgres_store_of_version_5_is_read_and_migrated(pg: EventStore) -> None:
    import psycopg

    _stream(pg)
    conn = pg.recorder.connection()  # type: ignore[attr-defined]
    _as_version_5(conn.execute, "%s")
    ro = open_store(pg.url, readonly=True, schema=pg.schema)
    assert ro.version == 5
    _check_placed(ro)
    w = pg.reopen()  # a writer migrates
    assert w.version == STORE_VERSION
    _check_placed(w)
    _check_undo_keeps_them(w)
    with pytest.raises(psycopg.Error, match="append-only"):
        w.recorder.connection().execute(f"UPDATE {ANNOTATIONS} SET event = NULL")  # type: ignore[attr-defined]
    ro.close()
    w.close()
