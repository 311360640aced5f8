"""The session catalogue checked against the events (shared by tests/log/test_catalogue.py and
tests/cli/test_catalogue_on_the_commands.py): log layer and below."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.fold import replay
from log.service import EventStore
from store.records import SessionFilter, SessionInfo, facets_of

ROOT = Path(__file__).resolve().parents[1]
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
