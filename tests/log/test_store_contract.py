"""The event store's contract, run against every backend: memory, SQLite and the real PostgreSQL
server (``BRAG_TEST_PG``, default ``postgresql://postgres@127.0.0.1:5432/test``; each test gets
its own schema, dropped afterwards). Under ``CI=true`` an unreachable server fails the run.

Concurrency with separate processes, crashes and the PostgreSQL follower are in
``test_writers_restarts_crashes.py``.
"""

from __future__ import annotations

import json
import random
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from log_helpers import backend_store, opened_store  # noqa: F401 (the fixture store)
from shared_paths import SCENARIOS, needs_shared
from store_helpers import (
    advance,
    choose,
    deal_batches,
    pg_store,
    pg_url,
    random_session,
    recorded,
    require_pg,
    start,
)

from engine.fold import complete, fold, summary
from engine.legal import can_void
from engine.state import initial_state
from events.codec import read_file
from events.errors import (
    BragError,
    ConcurrencyConflict,
    FormatError,
    IdConflict,
    ImportConflict,
    RuleViolation,
    StoreError,
    StoreUnavailable,
    UnknownSession,
)
from events.model import (
    Bet,
    DealerChosen,
    Dealt,
    Folded,
    Looked,
    PotWon,
    SessionStarted,
    Shuffled,
    Voided,
    content,
)
from log.open import open_store
from log.service import EventStore
from store.records import new_ids


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    with opened_store(request.param, f"sqlite:///{tmp_path / 'brag.db'}") as s:
        yield s


def card_example(session: str = "card-example") -> list[Any]:
    return [
        SessionStarted(session=session, seats=("A", "B", "C", "D"), cards="shown"),
        DealerChosen(player="D"),
        Shuffled(),
        Dealt(),
        Looked(player="A"),
        Looked(player="B"),
        Looked(player="C"),
        Looked(player="D"),
        Bet(player="A", level=2),
        Bet(player="B", level=2),
        Folded(player="C"),
        Folded(player="D"),
    ]


def contents(events: list[Any]) -> list[dict[str, Any]]:
    return [content(e) for e in events]


# --- append and read -----------------------------------------------------------------------------


def test_append_new_session_and_read_back(store: EventStore) -> None:
    events = card_example()
    got = store.append("card-example", events, expected_seq=0)
    assert [r.seq for r in got] == list(range(1, 13))
    rows = store.read("card-example")
    assert [r.seq for r in rows] == list(range(1, 13))
    assert [r.id for r in rows] == [r.id for r in got]
    assert [r.position for r in rows] == [r.position for r in got]
    assert contents([r.event for r in rows]) == contents(events)
    assert all(r.event.seq == r.seq and r.event.id == r.id for r in rows)
    assert len({r.id for r in rows}) == 12
    st = store.state("card-example")
    assert st.seq == 12 and st.pot == 8
    assert store.last_seq("card-example") == 12
    assert store.state("nobody").seq == 0 and store.read("nobody") == []


def test_derived_events_are_added_after_their_cause(store: EventStore) -> None:
    store.append("s", card_example("s"), 0)
    rows = store.append("s", [Bet(player="A", level=2), Folded(player="B")], 12)
    assert [r.type for r in rows] == ["bet", "folded", "pot_won"]
    won = rows[-1].event
    assert isinstance(won, PotWon) and won.player == "A" and won.amount == 10
    assert [r.seq for r in rows] == [13, 14, 15]
    # a caller may include the derived event: it is checked, not doubled
    store.append("t", card_example("t"), 0)
    same = store.append(
        "t",
        [
            Bet(player="A", level=2),
            Folded(player="B"),
            PotWon(deal=1, player="A", amount=10, showdown=False),
        ],
        12,
    )
    assert [r.type for r in same] == ["bet", "folded", "pot_won"]
    with pytest.raises(RuleViolation) as err:
        store.append(
            "u",
            [
                *card_example("u"),
                Bet(player="A", level=2),
                Folded(player="B"),
                PotWon(deal=1, player="B", amount=10, showdown=False),
            ],
            0,
        )
    assert err.value.rule == "5.6" and err.value.line == 15
    assert store.last_seq("u") == 0


def test_stale_writer_is_refused_with_a_typed_conflict(store: EventStore) -> None:
    store.append("s", card_example("s"), 0)
    other = store.reopen()  # a second device, validated against seq 12
    n = store.last_position()
    store.append("s", [Bet(player="A", level=3)], 12)  # the first device takes seq 13
    with pytest.raises(ConcurrencyConflict) as err:
        other.append("s", [Bet(player="A", level=2)], 12)
    c = err.value
    assert (c.session, c.expected, c.actual) == ("s", 12, 13)
    assert isinstance(c, BragError) and "seq 13" in str(c)
    assert store.last_seq("s") == 13 and store.last_position() == n + 1
    # a caller claiming to have seen more than there is, too
    with pytest.raises(ConcurrencyConflict) as err:
        other.append("s", [Folded(player="B")], 20)
    assert (err.value.expected, err.value.actual) == (20, 13)
    # and a new session that already exists
    with pytest.raises(ConcurrencyConflict):
        other.append("s", card_example("s")[:1], 0)
    # the stale device reloads and goes on
    other.append("s", [Folded(player="B")], other.last_seq("s"))
    assert store.state("s").resolved == 1


def test_a_batch_whose_last_event_breaks_a_rule_stores_nothing(store: EventStore) -> None:
    store.append("s", card_example("s")[:4], 0)
    before = (store.last_seq("s"), store.last_position())
    batch = [*card_example("s")[4:], Bet(player="A", level=1)]  # RULES 5.5: below the level
    with pytest.raises(RuleViolation) as err:
        store.append("s", batch, 4)
    assert err.value.rule == "5.5" and err.value.line == len(batch) and err.value.event == "bet"
    assert (store.last_seq("s"), store.last_position()) == before
    assert store.reopen().state("s").seq == 4
    # and the whole batch is fine without it
    store.append("s", batch[:-1], 4)
    assert store.last_seq("s") == 12


def test_a_new_session_must_start_and_match_its_id(store: EventStore) -> None:
    with pytest.raises(FormatError):
        store.append("s", [DealerChosen(player="A")], 0)
    with pytest.raises(FormatError) as err:
        store.append("s", card_example("other"), 0)
    assert err.value.field == "session"
    with pytest.raises(FormatError):  # an envelope seq that is not where the event goes
        store.append("s", [card_example("s")[0].model_copy(update={"seq": 3})], 0)
    assert store.sessions() == []


def test_retrying_with_the_same_ids_stores_nothing_new(store: EventStore) -> None:
    events = [e.model_copy(update={"id": uuid.uuid4()}) for e in card_example("s")]
    first = store.append("s", events[:8], 0)
    second = store.append("s", events[8:], 8)
    n = store.last_position()
    again = store.append("s", events[8:], 8)  # the answer was lost: the same call again
    assert [(r.seq, r.id, r.position) for r in again] == [(r.seq, r.id, r.position) for r in second]
    restarted = store.reopen()  # a restart: no cache, the stream as stored
    assert [r.seq for r in restarted.append("s", events[:8], 0)] == [r.seq for r in first]
    assert store.last_position() == n and store.last_seq("s") == 12
    # the derived events of the original batch come back with it
    ids = [e.model_copy(update={"id": uuid.uuid4()}) for e in (Bet(player="A", level=2),)]
    fold_ = [Folded(player="B").model_copy(update={"id": uuid.uuid4()})]
    done = store.append("s", ids + fold_, 12)
    assert [r.type for r in done] == ["bet", "folded", "pot_won"]
    assert [r.type for r in restarted.append("s", ids + fold_, 12)] == ["bet", "folded", "pot_won"]
    assert store.last_seq("s") == 15


def test_the_same_id_with_other_content_is_a_typed_error(store: EventStore) -> None:
    events = [e.model_copy(update={"id": uuid.uuid4()}) for e in card_example("s")]
    store.append("s", events, 0)
    changed = events[-1].model_copy(update={"player": "C"})
    with pytest.raises(IdConflict) as err:
        store.append("s", [changed], 12)
    assert err.value.seq == 12 and err.value.id == events[-1].id
    elsewhere = SessionStarted(session="t", seats=("A", "B"), cards="shown", id=events[0].id)
    with pytest.raises(IdConflict):
        store.append("t", [elsewhere], 0)
    twice = Bet(player="A", level=2, id=uuid.uuid4())
    with pytest.raises(FormatError):
        store.append("s", [twice, twice.model_copy(update={"level": 3})], 12)
    assert store.last_seq("s") == 12 and store.last_seq("t") == 0


def test_an_already_stored_event_in_a_longer_batch_is_a_no_op(store: EventStore) -> None:
    events = [e.model_copy(update={"id": uuid.uuid4()}) for e in card_example("s")]
    store.append("s", events[:10], 0)
    got = store.append("s", events[9:], 10)  # events[9] is stored: skipped, the rest appended
    assert [r.seq for r in got] == [11, 12]
    assert contents(store.events("s")) == contents(events)


def test_an_id_met_only_by_the_insert_is_still_a_no_op(store: EventStore) -> None:
    # Bet X is stored at seq 13 and voided at 14: sent again at 14 it is valid, and the seq
    # matches, so only the table's unique id meets it; the append is redone looking at ids first.
    store.append("s", card_example("s"), 0)
    x = Bet(player="A", level=2, id=uuid.uuid4())
    store.append("s", [x], 12)
    store.append("s", [Voided(seq=13)], 13)
    n = store.last_position()
    again = store.append("s", [x], 14)
    assert [(r.seq, r.id) for r in again] == [(13, x.id)]
    assert store.last_position() == n and store.last_seq("s") == 14
    with pytest.raises(IdConflict):
        store.append("s", [x.model_copy(update={"level": 3})], 14)


def test_at_and_by_are_kept_and_derived_events_take_their_cause_time(store: EventStore) -> None:
    t0 = datetime(2026, 5, 1, 20, 15, tzinfo=timezone(timedelta(hours=2)))
    events = [
        e.model_copy(update={"at": t0 + timedelta(minutes=k), "by": "Dora"})
        for k, e in enumerate([*card_example("s"), Bet(player="A", level=2), Folded(player="B")])
    ]
    store.append("s", events, 0)
    rows = store.read("s")
    assert rows[0].at == t0 and rows[0].at.utcoffset() == timedelta(hours=2)
    assert rows[0].by == "Dora" and rows[0].event.by == "Dora"
    assert rows[-1].type == "pot_won" and rows[-1].at == events[-1].at and rows[-1].by is None
    assert all(r.stored_at.tzinfo is not None for r in rows)
    assert abs(rows[0].stored_at - datetime.now(UTC)) < timedelta(minutes=5)
    line = json.loads(next(iter(store.export_lines("s"))))
    assert line["at"] == "2026-05-01T20:15:00+02:00" and line["by"] == "Dora"


def test_voided_gets_a_seq_in_the_store_and_withdraws_its_event(store: EventStore) -> None:
    store.append("s", card_example("s"), 0)
    store.append("s", [Bet(player="A", level=5)], 12)
    rows = store.append("s", [Voided(seq=13)], 13)
    assert rows[0].seq == 14 and rows[0].event.seq == 13  # payload seq: the withdrawn event
    assert store.state("s").level == 2
    store.append("s", [Bet(player="A", level=3), Folded(player="B")], 14)
    info = store.sessions()[0]
    assert info.resolved_pots == 1 and info.deals == 1
    back = list(complete(enumerate(store.export("s"), start=1)))
    assert fold([s.event for s in back]).resolved == 1


def test_cached_state_is_never_used_stale(store: EventStore) -> None:
    rng = random.Random(7)
    a, b = store, store.reopen()
    state = initial_state()
    state, new = advance(state, start("s", rng, players=3, cards="all"))
    a.append("s", new, 0)
    for k in range(60):
        e = choose(state, rng)
        if e is None:
            break
        writer = a if k % 3 else b  # the other object's cache falls behind now and then
        state, new = advance(state, e)
        writer.append("s", [e], writer.last_seq("s"))
    assert a.state("s").seq == b.state("s").seq == state.seq
    assert summary(a.state("s")) == summary(b.state("s")) == summary(state)


def test_new_ids_are_time_ordered_version_7() -> None:
    ids = [uuid.UUID(x) for x in new_ids(2000)]
    assert all(u.version == 7 for u in ids) and len(set(ids)) == 2000
    assert ids == sorted(ids)  # increasing within the process, also within one millisecond
    now_ms = datetime.now(UTC).timestamp() * 1000
    assert abs((ids[0].int >> 80) - now_ms) < 60_000


def test_voids_in_later_batches_walk_back_through_earlier_ones(store: EventStore) -> None:
    # The store caches states without their undo chain (engine.state.without_history): each
    # batch holding a voided folds the session again from the log, so a void may reach back into
    # a batch stored long before (FORMAT.md voided: the latest recorded event still in force).
    example = card_example("s")
    store.append("s", example, 0)  # seq 1..12
    store.append("s", [Bet(player="A", level=2)], 12)  # 13
    store.append("s", [Voided(seq=13)], 13)  # 14: A's bet withdrawn
    store.append("s", [Bet(player="A", level=3)], 14)  # 15
    store.append("s", [Voided(seq=15)], 15)  # 16
    assert can_void(store.state("s")) == 12  # now the example's last event is the latest in force
    store.append("s", [Voided(seq=12)], 16)  # 17: back into the first batch
    assert summary(store.state("s")) == summary(fold(example[:11]))
    assert store.state("s").seq == 17 and can_void(store.state("s")) == 11
    with pytest.raises(FormatError, match="seq 11"):
        store.append("s", [Voided(seq=12)], 17)  # 12 is withdrawn already; 11 is in force
    assert store.last_seq("s") == 17


def test_random_sessions_deal_by_deal_fold_like_the_engine(store: EventStore) -> None:
    rng = random.Random(11)
    sessions = {f"r{k}": random_session(f"r{k}", rng, max_events=400) for k in range(6)}
    for name, events in sessions.items():
        seq = 0
        for batch in deal_batches(events):
            rows = store.append(name, recorded(batch), seq)
            assert contents([r.event for r in rows]) == contents(batch)
            seq = rows[-1].seq
    for name, events in sessions.items():
        assert contents(store.events(name)) == contents(events)
        assert summary(store.reopen().state(name)) == summary(fold(events))


def test_read_all_follows_global_positions(store: EventStore) -> None:
    store.append("a", card_example("a"), 0)
    store.append("b", card_example("b")[:5], 0)
    store.append("a", [Bet(player="A", level=2)], 12)
    every = store.read_all()
    assert len(every) == 18 and store.last_position() == every[-1].position
    assert [r.position for r in every] == sorted(r.position for r in every)
    assert [r.session for r in every].count("b") == 5
    got, after = [], 0
    while page := store.read_all(after=after, limit=4):
        got += page
        after = page[-1].position
    assert [r.id for r in got] == [r.id for r in every]
    assert store.read_all(after=store.last_position()) == []


def test_sessions_lists_each_session(store: EventStore) -> None:
    rng = random.Random(5)
    full = random_session("full", rng, players=3, cards="all")
    store.append("full", recorded(full), 0)
    store.append("card", card_example("card"), 0)
    infos = {i.session: i for i in store.sessions()}
    assert list(infos) == ["full", "card"]
    f, c = infos["full"], infos["card"]
    end = fold(full)
    assert f.finished and f.winners == end.winners and f.resolved_pots == 8
    assert (f.deals, f.carried_pots, f.players, f.last_seq) == (
        end.deals,
        end.carried,
        ("Ann", "Bob", "Cal"),
        len(full),
    )
    assert not c.finished and c.winners == () and c.deals == 1 and c.resolved_pots == 0
    assert c.players == ("A", "B", "C", "D") and c.started is not None


# --- import and export ---------------------------------------------------------------------------


def scenario_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*.jsonl"))


@needs_shared
def test_every_scenario_imports_or_is_refused_whole(store: EventStore) -> None:
    files = scenario_files()
    assert len(files) >= 30
    valid = 0
    for path in files:
        expected = json.loads(
            path.with_name(path.name.replace(".jsonl", ".expected.json")).read_text()
        )
        before = store.last_position()
        if "error" in expected:
            with pytest.raises(BragError) as err:
                store.import_log(path)
            assert (err.value.line, err.value.rule) == (
                expected["error"]["line"],
                expected["error"]["rule"],
            ), path.name
            assert store.last_position() == before, path.name
            continue
        valid += 1
        result = store.import_log(path)
        assert result.stored == result.events > 0 and result.unchanged == 0
        st = store.state(result.session)
        got = summary(st)
        for key in ("deals", "resolved_pots", "carried_pots", "finished"):
            assert got[key] == expected[key], (path.name, key)
        # export gives back the same events, the engine's conclusions included
        completed = [s.event for s in complete(read_file(str(path)))]
        assert contents(store.export(result.session)) == contents(completed)
        # importing the same file again changes nothing
        again = store.import_log(path)
        assert again.stored == 0 and again.unchanged == result.events
    assert valid >= 15
    assert len(store.sessions()) == valid


@needs_shared
def test_import_export_import_is_a_fixed_point(store: EventStore, tmp_path: Path) -> None:
    src = SCENARIOS / "random_all_11.jsonl"
    session = store.import_log(src).session
    first = list(store.export_lines(session))
    out = tmp_path / "export.jsonl"
    out.write_text("\n".join(first) + "\n", encoding="utf-8")
    assert store.import_log(out).stored == 0  # into the same store: nothing new
    other = open_store("memory://")
    assert other.import_log(out).stored == len(first)  # into another: the same ids, seqs, times
    assert list(other.export_lines(session)) == first
    assert store.import_log(iter(first)).stored == 0  # lines work as well as a path
    # every backend gives back the very text it was given (key order too: nets in seat order)
    canon = list(other.export_lines(session))
    third = open_store("memory://")
    third.import_log(canon)
    assert list(third.export_lines(session)) == canon
    end = json.loads(canon[-1])
    assert end["type"] == "session_ended" and list(end["nets"]) == ["Ann", "Bob", "Cal"]


@needs_shared
def test_every_backend_keeps_the_text_it_was_given(store: EventStore) -> None:
    src = open_store("memory://")
    session = src.import_log(SCENARIOS / "random_all_12.jsonl").session
    lines = list(src.export_lines(session))
    store.import_log(lines)
    assert list(store.export_lines(session)) == lines


@needs_shared
def test_import_appends_to_a_stored_prefix_and_refuses_a_different_log(
    store: EventStore, tmp_path: Path
) -> None:
    lines = (SCENARIOS / "card_example.jsonl").read_text().splitlines()
    store.import_log(lines[:9])
    result = store.import_log(lines)
    assert (result.stored, result.unchanged) == (len(result_events(lines)) - 9, 9)
    changed = [*lines[:14], lines[14].replace('"4c"', '"3c"')]  # another flush that loses
    n = store.last_position()
    with pytest.raises(ImportConflict):
        store.import_log(changed)
    assert store.last_position() == n


@needs_shared
def test_import_of_the_same_events_under_other_ids_changes_nothing(store: EventStore) -> None:
    # An earlier export from another device, or the bundled season of an earlier version (its ids
    # were version 5): the same events under other ids are already stored; the stored ids stay.
    def with_new_ids(lines: list[str]) -> list[str]:
        return [json.dumps({**json.loads(x), "id": str(uuid.uuid4())}) for x in lines]

    lines = (SCENARIOS / "card_example.jsonl").read_text().splitlines()
    first = with_new_ids(lines[:9])
    store.import_log(first)
    kept = [str(r.id) for r in store.read("card-example")]
    assert kept == [json.loads(x)["id"] for x in first]
    again = with_new_ids(lines)  # the whole session, every id different
    result = store.import_log(again)
    assert (result.stored, result.unchanged, result.other_ids) == (16 - 9, 9, 9)
    rows = store.read("card-example")
    assert [str(r.id) for r in rows[:9]] == kept  # the stored ids are kept
    assert [str(r.id) for r in rows[9:15]] == [json.loads(x)["id"] for x in again[9:15]]
    n = store.last_position()
    result = store.import_log(with_new_ids(lines))
    assert (result.stored, result.unchanged, result.other_ids) == (0, 16, 15)  # pot_won: no id
    assert store.last_position() == n


def result_events(lines: list[str]) -> list[Any]:
    from events.codec import read_events

    return [s.event for s in complete(read_events(lines))]


@needs_shared
def test_an_invalid_import_names_line_event_and_rule(store: EventStore) -> None:
    with pytest.raises(RuleViolation) as err:
        store.import_log(SCENARIOS / "bet_below_level.jsonl")
    assert (err.value.line, err.value.event, err.value.rule) == (8, "bet", "5.5")
    with pytest.raises(FormatError) as ferr:
        store.import_log(['{"type": "session_started", "session": "x"', ""])
    assert ferr.value.line == 1
    assert store.sessions() == []


def test_export_of_an_unknown_session(store: EventStore) -> None:
    with pytest.raises(UnknownSession):
        store.export("nope")


# --- the SQL backends ---------------------------------------------------------------------------


def test_update_and_delete_are_refused_by_the_database(sql_store: EventStore) -> None:
    sql_store.append("s", card_example("s"), 0)
    conn = sql_store.recorder.connection()  # type: ignore[attr-defined]
    for stmt in (
        "UPDATE events SET by = 'mallory' WHERE seq = 1",
        "UPDATE events SET payload = payload",
        "DELETE FROM events WHERE seq = 12",
        "DELETE FROM events",
    ):
        with pytest.raises(Exception, match="append-only") as err:
            conn.execute(stmt)
        assert "append-only" in str(err.value)
        if isinstance(err.value, sqlite3.Error):
            conn.execute("ROLLBACK") if conn.in_transaction else None
    assert [r.by for r in sql_store.read("s")] == [None] * 12
    assert sql_store.last_seq("s") == 12


def test_the_table_is_the_sqlmodel_class() -> None:
    from sqlmodel import SQLModel

    from store.schema import EventRecord

    assert issubclass(EventRecord, SQLModel)
    t = EventRecord.__table__  # type: ignore[attr-defined]
    assert t.name == "events"
    uniques = {
        tuple(c.name for c in u.columns)
        for u in t.constraints
        if u.__class__.__name__ == "UniqueConstraint"
    }
    assert {("session", "seq"), ("id",)} <= uniques


def test_sqlite_settings_are_checked_on_open(tmp_path: Path) -> None:
    s = open_store(str(tmp_path / "x.db"))
    assert s.settings() == {"journal_mode": "wal", "synchronous": 2, "busy_timeout": 10000}  # type: ignore[attr-defined]
    s.append("a", card_example("a"), 0)
    conn = sqlite3.connect(tmp_path / "x.db")
    ddl = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
    assert "AUTOINCREMENT" in ddl
    assert conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()[0] == 12
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    s.close()
    with pytest.raises(StoreUnavailable):
        open_store("sqlite://")  # in-memory SQLite has no WAL
    with pytest.raises(StoreUnavailable):
        open_store(str(tmp_path / "no" / "such" / "dir" / "x.db"))


def test_positions_are_never_reused(sql_store: EventStore) -> None:
    sql_store.append("a", card_example("a"), 0)
    with pytest.raises(RuleViolation):
        sql_store.append("a", [Bet(player="A", level=1)], 12)
    sql_store.append("b", card_example("b")[:1], 0)
    positions = [r.position for r in sql_store.read_all()]
    assert positions == sorted(set(positions)) and positions[-1] >= 13


@pytest.mark.parametrize(
    "url",
    ["mysql://root@localhost/x", "sqlite:///", "postgresql://nobody@127.0.0.1:1/none", "::bad::"],
)
def test_a_store_that_cannot_be_opened_is_one_clear_error(url: str, tmp_path: Path) -> None:
    if url == "::bad::":
        url = str(tmp_path / "dir-missing" / "x.db")
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert "\n" not in str(err.value)


def _open_connections(store: EventStore) -> int:
    """The connections open to ``store`` now, seen from outside the store: on SQLite the file
    descriptors this process holds on the store's file; on PostgreSQL the server's backends for
    this database whose client is a TCP port of this process, less the one asking (other test
    workers share the server: their connections are not this store's)."""
    path = getattr(store, "path", None)
    if path is not None:
        target = str(Path(path).resolve())
        fds = Path("/proc/self/fd")
        return sum(1 for fd in fds.iterdir() if _link(fd) == target)
    import psutil
    import psycopg
    from store_helpers import pg_url

    with psycopg.connect(pg_url(), autocommit=True) as c:
        ours = [s.laddr.port for s in psutil.Process().net_connections(kind="tcp") if s.laddr]
        row = c.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND client_port = ANY(%s)",
            (ours,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def _link(fd: Path) -> str | None:
    try:
        return str(fd.readlink())
    except OSError:
        return None


def test_connections_of_ended_threads_are_closed(sql_store: EventStore) -> None:
    """A server that serves each request on a new thread (Streamlit runs every page run on one)
    holds a connection per live thread, not one per request ever served: 40 requests on 40
    short-lived threads leave at most two connections more than before them."""
    import threading

    sql_store.append("card-example", card_example()[:3], expected_seq=0)
    before = _open_connections(sql_store)
    seen: list[int] = []

    def request() -> None:
        seen.append(sql_store.last_seq("card-example"))

    for _ in range(40):
        t = threading.Thread(target=request)
        t.start()
        t.join()
    assert seen == [sql_store.last_seq("card-example")] * 40
    # each new thread's connection closed those of the threads ended before it: what is left is
    # bounded (the last thread's, which the next new connection closes), not one per request
    assert _open_connections(sql_store) <= before + 2


@pytest.mark.postgres
def test_postgres_lends_an_ended_threads_connection_to_the_next_thread() -> None:
    """PostgreSQL's connections come from the store's pool (``sqlalchemy.pool.QueuePool``): a
    new thread is lent the connection of a thread that has ended, not a new one; a connection the
    server cut is replaced by the pool, and the query that met the cut is one StoreUnavailable."""
    import threading

    import psycopg

    require_pg()
    with pg_store() as s:
        s.append("card-example", card_example()[:3], expected_seq=0)
        pids: list[int] = []

        def request() -> None:
            assert s.last_seq("card-example") == 3
            pids.append(s.recorder.connection().info.backend_pid)

        for _ in range(3):
            t = threading.Thread(target=request)
            t.start()
            t.join()
        assert len(set(pids)) == 1
        mine = s.recorder.connection().info.backend_pid
        with psycopg.connect(pg_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (mine,))
        with pytest.raises(StoreUnavailable) as err:
            s.last_seq("card-example")
        assert str(err.value).startswith("PostgreSQL store ") and "\n" not in str(err.value)
        assert s.last_seq("card-example") == 3
        assert s.recorder.connection().info.backend_pid != mine
