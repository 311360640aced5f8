"""The club night's facts beside the log (store version 9, issue 36): append-only (UPDATE and
DELETE refused by triggers on SQLite and PostgreSQL), written only in the store's write
transaction (a transaction that fails keeps none), read the same by every handle on the store,
never events; a version 8 store gains the table when a writer opens it, and a reader opened
before that sees the facts written after. :func:`log.night_facts.night_facts` folds them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared

from log.night_facts import facts_of, night_facts
from log.open import open_store
from store.night import NIGHT, NightFact
from store.night import VERSION as NIGHT_VERSION
from store.schema import META, STORE_VERSION

CARD = str(SCENARIOS / "card_example.jsonl")
DAY = "2026-12-05"
AT = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


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


def _add(store: Any, kind: str, subject: str = "", value: str = "{}", undoes: Any = None,
         club: str = "") -> NightFact:  # fmt: skip
    with store.recorder.transaction() as tx:
        return tx.night().add(DAY, club, kind, subject, value, undoes, AT, "Ann")  # type: ignore[no-any-return]


def test_facts_are_the_stores_own_and_fold_to_one_answer(store: Any) -> None:
    assert store.version in (0, STORE_VERSION) and store.recorder.night_facts(DAY) == []
    a = _add(store, "present", "Jean")
    _add(store, "present", "Bob")
    _add(store, "absent", "jean")  # names by their normal form
    _add(store, "stake", value='{"stake": "1/2", "limit": null}')
    f = _add(store, "flag", "s1", '{"deal": 2, "step": "7a", "reason": "wrong cards"}')
    _add(store, "corrected", str(f.position), '{"reason": "amended"}', f.position)
    final = _add(store, "final", value='{"position": 41}')
    _add(store, "present", "Cy", club="Other")  # another club's night
    got = store.reopen().recorder.night_facts(DAY)  # another handle reads the same rows
    assert [x.kind for x in got] == ["present", "present", "absent", "stake", "flag",
                                     "corrected", "final"]  # fmt: skip
    assert got[0] == a and got[0].at == AT and got[5].undoes == f.position
    facts = night_facts(got)
    assert facts.present == ("Bob",) and facts.state == "final" and facts.final_at == 41
    assert facts.stake is not None and facts.stake.money == Fraction(1, 2)
    [flag] = facts.flags
    assert (flag.session, flag.deal, flag.step, flag.status, flag.resolution) == (
        "s1", 2, "7a", "corrected", "amended",
    )  # fmt: skip
    assert facts.corrected_after_final == ()  # corrected before the final fact
    _add(store, "reopen", value='{"reason": "late"}', undoes=final.position)
    assert facts_of(store, date(2026, 12, 5)).state == "provisional"
    assert facts_of(store, date(2026, 12, 5), "Other").present == ("Cy",)


def test_a_failed_transaction_keeps_no_fact(store: Any) -> None:
    with pytest.raises(RuntimeError), store.recorder.transaction() as tx:
        tx.night().add(DAY, "", "present", "Jean", "{}", None, AT, "Ann")
        raise RuntimeError("boom")
    assert store.recorder.night_facts(DAY) == []


def test_a_kind_not_known_is_refused_by_the_table(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "club.db")) as s, pytest.raises(Exception, match="CHECK"):
        _add(s, "win")


def test_the_table_is_append_only_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with open_store(str(db)) as s:
        _add(s, "present", "Jean")
    for stmt in (f"DELETE FROM {NIGHT}", f"UPDATE {NIGHT} SET subject = 'Bob'"):
        with sqlite3.connect(db) as c, pytest.raises(sqlite3.IntegrityError, match="append-only"):
            c.execute(stmt)
    with open_store(str(db), readonly=True) as r:
        assert [f.subject for f in r.recorder.night_facts(DAY)] == ["Jean"]


@pytest.mark.postgres
def test_the_table_is_append_only_on_postgresql() -> None:
    import psycopg
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as s:
        _add(s, "present", "Jean")
        for stmt in (f"DELETE FROM {NIGHT}", f"UPDATE {NIGHT} SET subject = 'Bob'",
                     f"TRUNCATE {NIGHT}"):  # fmt: skip
            with psycopg.connect(pg_url()) as c:
                c.execute(f'SET search_path TO "{s.schema}"')
                with pytest.raises(psycopg.Error, match="append-only"):
                    c.execute(stmt)
        assert [f.subject for f in s.recorder.night_facts(DAY)] == ["Jean"]


@needs_shared
def test_a_version_8_store_gains_the_table_and_a_reader_sees_it_after(tmp_path: Path) -> None:
    db = tmp_path / "eight.db"
    with open_store(str(db)) as s:
        s.import_log(CARD)
    with sqlite3.connect(db) as c:  # the store as version 8 left it
        c.execute(f"DROP TABLE {NIGHT}")
        c.execute(f"UPDATE {META} SET value = '{NIGHT_VERSION - 1}' WHERE key = 'version'")
    with open_store(str(db), readonly=True) as reader:  # a dashboard's reading handle
        assert reader.version == NIGHT_VERSION - 1 and reader.recorder.night_facts(DAY) == []
        with open_store(str(db)) as writer:  # its writer migrates, then a fact is stored
            assert writer.version == STORE_VERSION
            _add(writer, "final", value='{"position": 16}')
            assert len(writer.events("card-example")) == 16  # the log untouched
        assert [f.kind for f in reader.recorder.night_facts(DAY)] == ["final"]
