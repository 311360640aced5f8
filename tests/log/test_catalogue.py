"""The session catalogue (issue 15, item 1; store version 3): one row per session, written in the
same transaction as the events, equal to a recomputation from the events after random appends,
voids and concurrent writers, on SQLite and PostgreSQL; an old store is migrated when a writer
opens it."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from catalogue_helpers import SEASON, check
from store_helpers import PROCESSES, advance, pg_store, pg_url, play_deal, require_pg, start

from engine.legal import can_void
from engine.state import initial_state
from events.errors import ConcurrencyConflict
from events.model import Voided
from log.open import open_store
from log.service import EventStore
from store.records import SessionInfo, facets_of
from store.schema import FACETS, META, STORE_VERSION


def random_work(store: EventStore, rng: random.Random, steps: int, prefix: str) -> None:
    """Random appends to a few sessions: new sessions, deals (in one or several appends), voids
    of the latest recorded event (FORMAT.md), and stale appends refused as conflicts."""
    names: list[str] = []
    for _ in range(steps):
        roll = rng.random()
        if not names or roll < 0.15:
            name = f"{prefix}{len(names)}"
            first = start(name, rng, pots=rng.choice((2, 3)), table=rng.choice(("Top", None)))
            names.append(name)
            with contextlib.suppress(ConcurrencyConflict):  # another writer started it first
                store.append(name, [first], 0)
            continue
        name = rng.choice(names)
        state = store.state(name)
        seq = state.seq
        if state.finished:
            continue
        if roll < 0.3 and (target := can_void(state)):
            with contextlib.suppress(ConcurrencyConflict):
                store.append(name, [Voided(seq=target)], seq)
            continue
        _, deal = play_deal(state, rng)
        if not deal:
            continue
        cut = rng.randint(1, len(deal))
        try:
            rows = store.append(name, deal[:cut], seq)
            if cut < len(deal):
                store.append(name, deal[cut:], rows[-1].seq)
        except ConcurrencyConflict:
            pass  # another writer moved the session first; nothing was stored


def test_sqlite_catalogue_equals_the_events_after_random_appends_and_voids(
    tmp_path: Path,
) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        random_work(store, random.Random(15), 120, "s")
        listed = check(store)
    assert any(i.finished for i in listed) and any(not i.finished for i in listed)
    with open_store(str(tmp_path / "c.db"), readonly=True) as ro:
        assert ro.sessions() == listed  # what a reader lists is what was written


def _worker(url: str, schema: str | None, seed: int, prefix: str) -> None:
    store = open_store(url, schema=schema) if schema else open_store(url)
    random_work(store, random.Random(seed), 60, prefix)
    store.close()


def _concurrent(url: str, schema: str | None) -> None:
    """Two processes and the test itself write at once, two of them to the same sessions."""
    procs = [
        PROCESSES.Process(target=_worker, args=(url, schema, seed, prefix))
        for seed, prefix in ((1, "a"), (2, "shared"))
    ]
    for p in procs:
        p.start()
    store = open_store(url, schema=schema) if schema else open_store(url)
    try:
        random_work(store, random.Random(3), 60, "shared")
        for p in procs:
            p.join(timeout=120)
            assert p.exitcode == 0
        check(store)
    finally:
        store.close()


def test_sqlite_catalogue_equals_the_events_with_concurrent_writers(tmp_path: Path) -> None:
    path = str(tmp_path / "c.db")
    open_store(path).close()
    _concurrent(path, None)


@pytest.mark.postgres
def test_postgres_catalogue_equals_the_events_with_voids_and_concurrent_writers() -> None:
    require_pg()
    with pg_store() as store:
        assert store.version == STORE_VERSION  # type: ignore[attr-defined]
        random_work(store, random.Random(16), 60, "p")
        check(store)
        _concurrent(pg_url(), store.schema)  # type: ignore[attr-defined]


def test_listing_is_ordered_paged_and_filtered_by_the_catalogue(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        for path in reversed(SEASON[:6]):  # stored newest first
            store.import_log(path)
        rng = random.Random(4)
        first = start("open", rng, pots=3)
        store.append("open", [first, *play_deal(advance(initial_state(), first)[0], rng)[1]], 0)
        every = store.recomputed_sessions()
        assert [i.session for i in store.sessions()] == [i.session for i in every]
        oldest = [i.session for i in store.sessions(order="oldest")]
        by_start = sorted(every, key=lambda i: (i.started.timestamp(), i.first_position))
        assert oldest == [i.session for i in by_start]  # by the recorded start
        assert oldest[0] == "2026-09-24-top-1" and oldest[-1] == "open"
        assert store.sessions(order="newest")[0].session == "open"  # no time: when stored
        page = store.sessions(order="oldest", limit=2, offset=2)
        assert [i.session for i in page] == oldest[2:4]
        assert [i.session for i in store.sessions(unfinished=True)] == ["open"]
        assert store.session_count() == 7 and store.session_count(unfinished=True) == 1
        assert store.session_info("open") == next(i for i in every if i.session == "open")
        many = [f"nosuch-{k}" for k in range(40_000)]  # beyond SQLite's bound values per query
        assert store.session_infos([*many, "open"]) == {"open": store.session_info("open")}
        assert store.session_info("nosuch") is None
        with pytest.raises(ValueError, match="order is one of"):
            store.sessions(order="random")


def _facet_rows(conn: Any) -> set[tuple[str, str]]:
    return {(str(k), str(v)) for k, v in conn.execute(f"SELECT kind, value FROM {FACETS}")}


def _varied(store: EventStore) -> list[SessionInfo]:
    """Six season sessions (their tables and dates as recorded: two days), and two without times
    (their date: when they were stored), one of them without a table."""
    for path in SEASON[:6]:
        store.import_log(path)
    rng = random.Random(22)
    store.append("bare", [start("bare", rng, pots=2, table=None)], 0)
    store.append("timeless", [start("timeless", rng, pots=2, table="Back room")], 0)
    return store.recomputed_sessions()


def test_the_filter_choices_are_kept_with_the_catalogue(tmp_path: Path) -> None:
    """Store version 5 (issue 22): every player, table and start date in brag_facets, one row
    each, written by the appends themselves; what the Sessions page offers equals the catalogue's
    (facets_of) without reading every session's seats."""
    db = tmp_path / "f.db"
    with open_store(str(db)) as s:
        every = _varied(s)
        players, tables, dates = facets_of(every)
        assert s.session_facets() == (players, tables, dates)
        assert None in tables and "Back room" in tables and dates is not None
    with sqlite3.connect(db) as c:
        rows = _facet_rows(c)
    days = {str(i.started.date()) for i in every if i.started is not None}
    assert rows == {
        *(("player", p) for p in players),
        *(("table", t) for t in tables if t is not None),
        ("untabled", ""),
        *(("day", d) for d in days),
    }
    assert len(days) == 3 and (str(dates[0]), str(dates[1])) == (min(days), max(days))


def test_a_version_4_store_is_read_as_it_is_and_given_its_filter_choices_by_a_writer(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    with open_store(str(db)) as s:
        want = facets_of(_varied(s))
    c = sqlite3.connect(db, isolation_level=None)  # as version 4 left it
    c.execute(f"DROP TABLE {FACETS}")
    c.execute(f"UPDATE {META} SET value = '4' WHERE key = 'version'")
    c.close()
    with open_store(str(db), readonly=True) as ro:  # a reader: from the catalogue's rows
        assert ro.version == 4
        assert ro.session_facets() == want
    with open_store(str(db)) as s:  # a writer migrates: filled from the catalogue
        assert s.version == STORE_VERSION == 9  # 5, 6, 7, 8 then 9
        assert s.session_facets() == want
        with sqlite3.connect(db) as c:
            c.execute(f"DELETE FROM {FACETS} WHERE kind = 'player'")  # lost around Bragbook
        assert s.session_facets() != want
        assert s.rebuild_catalogue() == 8  # refills them
        assert s.session_facets() == want


@pytest.mark.postgres
def test_postgres_keeps_and_migrates_the_filter_choices() -> None:
    require_pg()
    with pg_store() as s:
        want = facets_of(_varied(s))
        assert s.session_facets() == want
        conn = s.recorder.connection()
        schema = s.schema
        conn.execute(f"DROP TABLE {FACETS}")
        conn.execute(f"UPDATE {META} SET value = '4' WHERE key = 'version'")
        conn.commit()
        with open_store(pg_url(), schema=schema, readonly=True) as ro:
            assert ro.version == 4
            assert ro.session_facets() == want
        with open_store(pg_url(), schema=schema) as w:
            assert w.version == STORE_VERSION
            assert w.session_facets() == want
            conn = w.recorder.connection()  # type: ignore[attr-defined]  # SQL recorders have one
            rows = _facet_rows(conn)
        assert ("untabled", "") in rows and len(rows) == len(want[0]) + len(want[1]) + len(
            {i.started.date() for i in s.sessions()}
        )


def test_a_store_without_a_catalogue_answers_the_same_from_its_events() -> None:
    with open_store("memory://") as store:
        for path in SEASON[:3]:
            store.import_log(path)
        every = store.recomputed_sessions()
        assert not store.recorder.catalogued
        assert store.session_infos([every[1].session, "nosuch"]) == {every[1].session: every[1]}
        assert store.session_facets() == facets_of(every)
