"""Annotations beside the stream (issue 21, item 2 and item 4's storage): notes on a step, the
organiser's hiding of a note, a player's remembered cards; on every backend (memory, SQLite, the
real PostgreSQL server), the store's migration to version 4, the table's append-only triggers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared
from store_helpers import pg_store, require_pg

from events.cards import CardError
from events.errors import StoreError
from log.annotations import (
    CARDS_MAX,
    NOTE_MAX_CHARS,
    NOTES_MAX,
    AnnotationRefused,
    add_note,
    hide_note,
    notes,
    private_cards,
    set_private_cards,
)
from log.open import open_store
from log.service import EventStore
from present.replay import Replay
from store.annotations import ANNOTATIONS
from store.schema import META, STORE_VERSION

pytestmark = needs_shared  # every test here reads the scenarios


def _rp(store: EventStore, session: str = "card-example") -> Replay:
    """The session as recorded, as ``brag notes`` and the notes' route read it."""
    return Replay.of(store.events(session), recorded=True)


CARD_EXAMPLE = SCENARIOS / "card_example.jsonl"
"""Deal 0: its 3 lines before ``dealt``; deal 1: its 12 lines from ``dealt`` and the ``pot_won`` the
engine adds (13 steps); B shows 5s 6h 7d, A shows Kc 9c 4c; C and D fold."""
BACKENDS = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    kind = request.param
    if kind == "memory":
        s = open_store("memory://")
    elif kind == "sqlite":
        s = open_store(str(tmp_path / "brag.db"))
    else:
        require_pg()
        with pg_store() as s:
            s.import_log(CARD_EXAMPLE)
            yield s
        return
    s.import_log(CARD_EXAMPLE)
    yield s
    s.close()


def test_a_note_is_kept_beside_the_stream_which_stays_byte_for_byte(store: EventStore) -> None:
    export = list(store.export_lines("card-example"))
    rows = store.read("card-example")
    last = store.last_position()
    n = add_note(store, _rp(store), 1, 5, "  should have folded here  ", "Ann")
    assert (n.session, n.deal, n.step, n.by, n.text, n.hidden) == (
        "card-example", 1, 5, "Ann", "should have folded here", False,
    )  # fmt: skip
    assert notes(store, _rp(store)) == [n]
    assert list(store.export_lines("card-example")) == export
    assert store.read("card-example") == rows
    assert store.last_position() == last
    assert notes(store, _rp(store, "nosuch")) == []
    again = store.reopen()  # as after a restart
    assert notes(again, _rp(again)) == [n]


def test_notes_are_listed_by_deal_step_and_order_written(store: EventStore) -> None:
    a = add_note(store, _rp(store), 1, 13, "the last step", "Bo")
    b = add_note(store, _rp(store), 0, 1, "before the deal", "Cy")
    c = add_note(store, _rp(store), 1, 13, "a second one here", "Di")
    assert [x.text for x in notes(store, _rp(store))] == [b.text, a.text, c.text]
    assert a.id < b.id < c.id


@pytest.mark.parametrize(
    ("deal", "step", "text", "by", "said"),
    [
        (1, 14, "x", "Ann", "deal 1 of session 'card-example' has no step 14 (its steps are 1 to"),
        (1, 0, "x", "Ann", "has no step 0"),
        (2, 1, "x", "Ann", "session 'card-example' has no deal 2 (its deals are 1 to 1)"),
        (0, 4, "x", "Ann", "deal 0 of session 'card-example' has no step 4 (its steps are 1 to 3)"),
        (1, 1, " \n ", "Ann", "the note is empty"),
        (1, 1, "x" * (NOTE_MAX_CHARS + 1), "Ann", f"at most {NOTE_MAX_CHARS} are kept"),
        (1, 1, "x", "", "the writer's name is empty"),
        (1, 1, "nul \x00 here", "Ann", "holds a character no store keeps"),
    ],
)  # fmt: skip
def test_a_refused_note_is_one_line_and_stores_nothing(
    store: EventStore, deal: int, step: int, text: str, by: str, said: str
) -> None:
    with pytest.raises(AnnotationRefused, match=said.replace("(", r"\(").replace(")", r"\)")) as e:
        add_note(store, _rp(store), deal, step, text, by)
    assert "\n" not in str(e.value)
    assert notes(store, _rp(store), include_hidden=True) == []


def test_the_longest_note_is_kept_as_written(store: EventStore) -> None:
    text = "é<b>*" * (NOTE_MAX_CHARS // 5)
    assert len(text) == NOTE_MAX_CHARS
    assert add_note(store, _rp(store), 1, 1, text, "Ann").text == text


@pytest.mark.slow
def test_a_session_keeps_at_most_its_number_of_notes(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "brag.db")) as s:
        s.import_log(CARD_EXAMPLE)
        for k in range(NOTES_MAX):
            add_note(s, _rp(s), 1, 1 + k % 13, f"note {k}", "Ann")
        with pytest.raises(AnnotationRefused, match=f"has {NOTES_MAX} notes, the most"):
            add_note(s, _rp(s), 1, 1, "one more", "Ann")
        # Issue 33: a hidden note is kept but no longer counts, so the organiser hiding a flood
        # frees its places for everyone else.
        hide_note(s, notes(s, _rp(s))[0].id, "organiser")
        kept = add_note(s, _rp(s), 1, 1, "one more", "Ann")
        with pytest.raises(AnnotationRefused, match=f"has {NOTES_MAX} notes, the most"):
            add_note(s, _rp(s), 1, 1, "and another", "Ann")
        every = notes(s, _rp(s), include_hidden=True)
        assert len(every) == NOTES_MAX + 1 and sum(n.hidden for n in every) == 1
        assert kept in notes(s, _rp(s))


def test_a_hidden_note_is_kept_and_left_out(store: EventStore) -> None:
    a = add_note(store, _rp(store), 1, 5, "keep", "Ann")
    b = add_note(store, _rp(store), 1, 5, "rude", "Bob")
    hide_note(store, b.id, "organiser")
    hide_note(store, b.id, "organiser")  # once recorded is enough
    assert notes(store, _rp(store)) == [a]
    every = notes(store, _rp(store), include_hidden=True)
    assert [(n.id, n.text, n.hidden) for n in every] == [
        (a.id, "keep", False),
        (b.id, "rude", True),
    ]
    rows = store.recorder.annotations("card-example")
    assert [(r.kind, r.target, r.who) for r in rows] == [
        ("note", None, "Ann"), ("note", None, "Bob"), ("hide", b.id, "organiser"),
    ]  # fmt: skip
    with pytest.raises(AnnotationRefused, match="there is no note 999"):
        hide_note(store, 999, "organiser")


# --- a player's remembered cards -----------------------------------------------------------------


def test_a_players_cards_are_theirs_and_the_latest_entry_is_in_force(store: EventStore) -> None:
    export = list(store.export_lines("card-example"))
    first = set_private_cards(store, _rp(store), 1, "C", ["Ah", "ad", "A♣"])
    assert (first.deal, first.player, first.cards) == (1, "C", ("Ah", "Ad", "Ac"))
    later = set_private_cards(store, _rp(store), 1, "c", ["2h", "3h", "4h"])  # one name
    assert private_cards(store, _rp(store), "C") == {1: later}
    assert later.cards == ("2h", "3h", "4h") and later.player == "C"
    assert private_cards(store, _rp(store), "D") == {}
    assert private_cards(store, _rp(store), "A") == {}
    # A's shown hand, given back as A remembers it (every card A showed).
    a = set_private_cards(store, _rp(store), 1, "A", ["4c", "Kc", "9c"])
    assert private_cards(store, _rp(store), "A") == {1: a}
    assert notes(store, _rp(store), include_hidden=True) == []
    assert list(store.export_lines("card-example")) == export


@pytest.mark.parametrize(
    ("deal", "player", "cards", "error", "said"),
    [
        (1, "C", ["Ah", "Ad"], AnnotationRefused, "a hand is 3 different cards; 2 given"),
        (1, "C", ["Ah", "Ah", "Ad"], AnnotationRefused, "3 different cards; 3 given"),
        (1, "C", ["Ah", "Ad", "Zz"], CardError, "'Zz' is not a card"),
        (1, "C", ["Ah", "Ad", "6h"], AnnotationRefused, "6♥ was shown by B in deal 1, so C"),
        (1, "A", ["Kc", "9c", "Ah"], AnnotationRefused, "A showed 4♣ in deal 1: the hand must"),
        (1, "C", ["Ah", "Ad"], AnnotationRefused, r"2 given \(A♥ A♦\)"),
        (1, "Zed", ["Ah", "Ad", "Ac"], AnnotationRefused, "'Zed' has no seat in session"),
        (2, "C", ["Ah", "Ad", "Ac"], AnnotationRefused, "has no deal 2"),
        (0, "C", ["Ah", "Ad", "Ac"], AnnotationRefused, "has no deal 0"),
    ],
)  # fmt: skip
def test_refused_cards_are_one_line_and_store_nothing(
    store: EventStore, deal: int, player: str, cards: list[str], error: Any, said: str
) -> None:
    with pytest.raises(error, match=said) as e:
        set_private_cards(store, _rp(store), deal, player, cards)
    assert "\n" not in str(e.value)
    assert store.recorder.annotations("card-example") == []


def test_cards_are_refused_for_a_deal_the_player_folded_blind(
    store: EventStore, tmp_path: Path
) -> None:
    """Issue 35 (item 6f): D folds without ever looking at their cards (RULES 5.1: a player who
    leaves them untouched plays blind), so D has no cards to remember: refused in one line
    naming the rule, nothing stored; C, who looked before folding, may keep theirs."""
    lines = CARD_EXAMPLE.read_text(encoding="utf-8").splitlines()
    blind = [ln.replace("card-example", "blind-fold") for ln in lines if ln != LOOKS_D]
    assert len(blind) == len(lines) - 1
    path = tmp_path / "blind_fold.jsonl"
    path.write_text("\n".join(blind) + "\n", encoding="utf-8")
    store.import_log(path)
    rp = _rp(store, "blind-fold")
    with pytest.raises(AnnotationRefused) as e:
        set_private_cards(store, rp, 1, "D", ["Ah", "Ad", "Ac"])
    assert str(e.value).endswith(
        "RULES 5.1: D folded blind in deal 1, never having looked at their cards, so there are "
        "no cards to remember"
    )
    assert "\n" not in str(e.value)
    assert store.recorder.annotations("blind-fold") == []
    assert set_private_cards(store, rp, 1, "C", ["Ah", "Ad", "Ac"]).cards == ("Ah", "Ad", "Ac")


LOOKS_D = '{"type": "looked", "player": "D"}'


def test_cards_are_refused_where_the_log_records_every_card(store: EventStore) -> None:
    store.import_log(SCENARIOS / "random_all_11.jsonl")
    session = store.read_all()[-1].session
    seat = store.state(session).seats[0]
    with pytest.raises(AnnotationRefused, match="records every player's cards"):
        set_private_cards(store, _rp(store, session), 1, seat, ["Ah", "Ad", "Ac"])


def test_a_session_keeps_at_most_its_entries_of_cards() -> None:
    with open_store("memory://") as s:
        s.import_log(CARD_EXAMPLE)
        hands = [["Ah", "Ad", "Ac"], ["2h", "3h", "4h"]]
        for k in range(CARDS_MAX):
            set_private_cards(s, _rp(s), 1, "C", hands[k % 2])
        with pytest.raises(AnnotationRefused, match=f"has {CARDS_MAX} entries of cards, the most"):
            set_private_cards(s, _rp(s), 1, "D", ["Ah", "Ad", "Ac"])
        assert private_cards(s, _rp(s), "C")[1].cards == ("2h", "3h", "4h")


# --- the table: append-only, and the migration of an older store --------------------------------


def test_the_annotations_table_refuses_update_and_delete(tmp_path: Path) -> None:
    db = tmp_path / "brag.db"
    with open_store(str(db)) as s:
        s.import_log(CARD_EXAMPLE)
        add_note(s, _rp(s), 1, 1, "x", "Ann")
    c = sqlite3.connect(db)
    for sql in (f"UPDATE {ANNOTATIONS} SET body = 'y'", f"DELETE FROM {ANNOTATIONS}"):
        with pytest.raises(sqlite3.IntegrityError, match="annotations table is append-only"):
            c.execute(sql)
    c.close()


@pytest.mark.postgres
def test_the_postgres_annotations_table_refuses_update_delete_and_truncate() -> None:
    require_pg()
    import psycopg

    with pg_store() as s:
        s.import_log(CARD_EXAMPLE)
        add_note(s, _rp(s), 1, 1, "x", "Ann")
        conn = s.recorder.connection()  # type: ignore[attr-defined]
        for sql in (
            f"UPDATE {ANNOTATIONS} SET body = 'y'",
            f"DELETE FROM {ANNOTATIONS}",
            f"TRUNCATE {ANNOTATIONS}",
        ):
            with pytest.raises(psycopg.Error, match="annotations table is append-only"):
                conn.execute(sql)
        assert [n.text for n in notes(s, _rp(s))] == ["x"]


def test_an_older_store_is_read_without_notes_and_migrated_by_a_writer(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with open_store(str(db)) as s:
        s.import_log(CARD_EXAMPLE)
        export = list(s.export_lines("card-example"))
    c = sqlite3.connect(db, isolation_level=None)  # as version 3 left it
    c.execute(f"DROP TABLE {ANNOTATIONS}")
    c.execute(f"UPDATE {META} SET value = '3' WHERE key = 'version'")
    c.close()
    ro = open_store(str(db), readonly=True)  # a reader (the dashboard's) kept open
    assert ro.version == 3
    assert notes(ro, _rp(ro)) == []
    assert private_cards(ro, _rp(ro), "C") == {}
    with pytest.raises(StoreError, match="opened for reading"):
        add_note(ro, _rp(ro), 1, 1, "x", "Ann")
    with open_store(str(db)) as s:  # a writer migrates
        assert s.version == STORE_VERSION
        assert notes(s, _rp(s)) == []
        n = add_note(s, _rp(s), 1, 2, "after the migration", "Ann")
        assert notes(s, _rp(s)) == [n]
        assert list(s.export_lines("card-example")) == export
    assert notes(ro, _rp(ro)) == [n]  # the reader sees the migrated store's notes
    ro.close()
    with sqlite3.connect(db) as c:
        assert dict(c.execute(f"SELECT key, value FROM {META}"))["version"] == str(STORE_VERSION)


@pytest.mark.postgres
def test_an_older_postgres_store_is_migrated_by_a_writer() -> None:
    require_pg()
    with pg_store() as s:
        s.import_log(CARD_EXAMPLE)
        conn = s.recorder.connection()  # type: ignore[attr-defined]
        conn.execute(f"DROP TABLE {ANNOTATIONS}")  # as version 3 left it
        conn.execute(f"UPDATE {META} SET value = '3' WHERE key = 'version'")
        ro = open_store(s.url, readonly=True, schema=s.schema)
        assert ro.version == 3 and notes(ro, _rp(ro)) == []
        again = s.reopen()  # a writer migrates
        assert again.version == STORE_VERSION
        n = add_note(again, _rp(again), 1, 3, "kept", "Ann")
        assert notes(ro, _rp(ro)) == [n] == notes(again, _rp(again))
        ro.close()
        again.close()
