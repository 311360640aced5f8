"""The session catalogue met through the CLI: an old store without the catalogue is read as it is by
brag sessions, then migrated by a writer. The catalogue itself is tested in
tests/log/test_catalogue.py."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from store_helpers import play_deal, start

from brag.cli import main
from engine.fold import replay
from engine.legal import can_void
from events.model import Voided
from log.open import open_store
from log.service import EventStore
from store.records import SessionFilter, SessionInfo, facets_of
from store.schema import CATALOGUE, META, STORE_VERSION

ROOT = Path(__file__).resolve().parents[2]


SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))


def folded(store: EventStore, info: SessionInfo) -> tuple[Any, ...]:
    """What the engine says of the session, folding its whole stream (RULES 1.4, 1.5, 6.1)."""
    rows = store.read(info.session)
    st = replay([r.event for r in rows])[-1]
    return (
        info.session,
        st.table,
        st.seats,
        st.cards_mode,
        st.deals,
        st.resolved,
        st.carried,
        st.finished,
        st.winners if st.finished else (),
        rows[-1].seq,
        rows[0].position,
        rows[-1].position,
        rows[0].event.at,
        next((r.event.at for r in reversed(rows) if r.event.at is not None), None),
    )


def shown(info: SessionInfo) -> tuple[Any, ...]:
    return (
        info.session,
        info.table,
        info.players,
        info.cards,
        info.deals,
        info.resolved_pots,
        info.carried_pots,
        info.finished,
        info.winners,
        info.last_seq,
        info.first_position,
        info.last_position,
        info.first_at,
        info.last_at,
    )


def check(store: EventStore) -> list[SessionInfo]:
    """The catalogue equals the events: the store's own recomputation, and the engine's fold;
    and its filters in SQL keep what :meth:`SessionFilter.keeps` keeps."""
    listed = store.sessions()
    every = store.recomputed_sessions()
    assert listed == every
    players, tables, dates = store.session_facets()
    assert (players, tables, dates) == facets_of(every)
    names = [i.session for i in every]
    assert store.session_infos([*names, "nosuch", *names[:2]]) == {i.session: i for i in every}
    assert store.session_infos(names[1:3]) == {i.session: i for i in every[1:3]}
    assert store.session_infos([]) == {}
    for where in (
        SessionFilter(players=tuple(players[:2])),
        SessionFilter(tables=(tables[0],)),
        SessionFilter(tables=(None,), unfinished=True),
        SessionFilter(dates=dates),
        SessionFilter(players=("no%one_",)),
    ):
        kept = [i for i in every if where.keeps(i)]
        assert store.sessions(where=where) == kept
        assert store.session_count(where=where) == len(kept)
    assert [shown(i) for i in listed] == [folded(store, i) for i in listed]
    assert all(i.events == i.last_seq for i in listed)
    return listed


def test_an_old_store_without_the_catalogue_is_read_then_migrated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    with open_store(str(db)) as s:
        for path in SEASON[:4]:
            s.import_log(path)
        s.append("void", [start("void", random.Random(1), pots=2)], 0)
        state = s.state("void")
        state, deal = play_deal(state, random.Random(2))
        rows = s.append("void", deal, 1)
        s.append("void", [Voided(seq=can_void(s.state("void")) or 0)], rows[-1].seq)
        want = s.sessions()
    # As version 2 left it: no catalogue.
    c = sqlite3.connect(db, isolation_level=None)
    c.execute(f"DROP TABLE {CATALOGUE}")
    c.execute(f"UPDATE {META} SET value = '2' WHERE key = 'version'")
    c.close()
    capsys.readouterr()
    assert main(["sessions", "--db", str(db), "--json"]) == 0  # a reader: read as it is
    before = capsys.readouterr().out
    with open_store(str(db), readonly=True) as ro:
        assert ro.version == 2  # type: ignore[attr-defined]
        assert ro.sessions() == want
    with sqlite3.connect(db) as c:
        assert not c.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (CATALOGUE,)).fetchall()
    with open_store(str(db)) as s:  # a writer migrates
        assert s.version == STORE_VERSION  # type: ignore[attr-defined]
        assert check(s) == want
    with sqlite3.connect(db) as c:
        assert dict(c.execute(f"SELECT key, value FROM {META}"))["version"] == str(STORE_VERSION)
        assert c.execute(f"SELECT count(*) FROM {CATALOGUE}").fetchone() == (5,)
    assert main(["sessions", "--db", str(db), "--json"]) == 0
    assert capsys.readouterr().out == before
    with open_store(str(db)) as s:  # a rebuild from the events gives the same rows
        assert s.rebuild_catalogue() == 5  # type: ignore[attr-defined]
        assert s.sessions() == want
