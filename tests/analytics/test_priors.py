"""Each player's earlier sessions as the prior of the luck term (analytics/priors.py,
analytics/prior_rows.py, docs/luck.md): what a session's fold takes, by date and not by the order
the logs were stored; a correction of an early session folds again the luck of the next ten
sessions of its players and no more; an incremental refresh, a rebuild and a parallel rebuild
hold the same rows."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import duckdb
import pytest
from luck_helpers import NAMES, earlier_priors, session_signatures
from luck_helpers import dated_season as _season

import analytics.projector
import analytics.tables
from analytics.priors import HISTORY, Entry, digest, order_key, window
from analytics.sources import MemorySource, interleave
from events.model import AnyEvent

NIGHT = datetime(2026, 9, 4, 20, 0, tzinfo=UTC)


def _store(streams: dict[str, list[AnyEvent]], order: list[str]) -> MemorySource:
    out = MemorySource()
    for name in order:
        out.append(name, streams[name])
    return out


def _luck(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, int, str], int | None]:
    rows = con.execute("SELECT session, deal, player, luck_t FROM player_deals").fetchall()
    return {(s, d, p): t for s, d, p, t in rows}


def _tables(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    out = {}
    for t in ("player_deals", "deals", "player_session_summary", "luck_history", "decisions"):
        out[t] = sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
    return out


def _projected(src: MemorySource, batch_size: int = 10_000) -> duckdb.DuckDBPyConnection:
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=batch_size)
    return con


def test_the_window_is_the_latest_ten_earlier_sessions() -> None:
    entries = [Entry((0, k, k), Counter({f"g{k}": 1}), None, True) for k in range(15)]
    got = window(reversed(entries), (0, 13, 13))  # any order in
    assert got == Counter({f"g{k}": 1 for k in range(3, 13)})
    assert len(got) == HISTORY == 10
    assert window(entries, (0, 0, 0)) == Counter()
    # by time first, then by the position stored; a session without a time after all with one
    late = order_key(NIGHT + timedelta(hours=1), 1)
    assert order_key(NIGHT, 99) < late < order_key(None, 0)
    assert order_key(NIGHT.replace(tzinfo=None), 5) == order_key(NIGHT, 5)  # no offset: UTC
    assert digest({"a": 1, "b": 0}) == digest({"a": 1}) != digest({"a": 2})


def test_the_fold_takes_the_players_earlier_sessions_by_date() -> None:
    """Stored in any order, each session's luck is that of the sessions dated before it: the
    projection of a season stored backwards equals that of the season stored in date order, and
    the rows of what each session tells equal the counts recounted here from the events."""
    streams = _season(5, seed=3)
    forwards = _projected(_store(streams, sorted(streams)))
    backwards = _projected(_store(streams, sorted(streams, reverse=True)))
    assert _luck(forwards) == _luck(backwards)
    nones = _projected(MemorySource())  # nothing: an empty projection has the table
    assert nones.execute("SELECT count(*) FROM luck_history").fetchone() == (0,)
    rows = forwards.execute("SELECT session, player_key, signatures FROM luck_history").fetchall()
    import json

    got = {(s, p): Counter(json.loads(g)) for s, p, g in rows}
    want = {
        (s, n.casefold()): c
        for s, evs in streams.items()
        for n, c in session_signatures(evs).items()
    }
    assert got == want
    # the luck differs from a fold of each session alone: the priors are read
    alone = {}
    for name, events in streams.items():
        one = MemorySource()
        one.append(name, events)
        alone.update(_luck(_projected(one)))
    assert alone.keys() == _luck(forwards).keys()
    assert alone != _luck(forwards)
    assert all(alone[k] == v for k, v in _luck(forwards).items() if k[0] == "s00")
    priors = earlier_priors(
        [(e.position, e.session, e.event) for e in _store(streams, sorted(streams)).events]
    )
    assert priors["s00"] == {n: Counter() for n in NAMES}
    assert sum(priors["s04"]["Ann"].values()) == sum(
        sum(session_signatures(streams[s])["Ann"].values()) for s in ("s00", "s01", "s02", "s03")
    )


def test_batches_and_interleaved_tables_give_the_rows_of_one_fold() -> None:
    """Sessions recorded at once (their events interleaved: a player's earlier session still
    open when a later one is folded), in small batches: the luck of one fold in date order; and
    a refresh after each night's log, loaded newest first, equals a rebuild of the same store."""
    streams = _season(6, seed=5)
    whole = _projected(_store(streams, sorted(streams)))
    mixed = _projected(interleave(streams, seed=2), batch_size=37)
    assert _luck(mixed) == _luck(whole)
    assert _history(mixed) == _history(whole)
    src = MemorySource()
    con = analytics.tables.connect()
    for name in sorted(streams, reverse=True):  # each night's log loaded late, newest first
        src.append(name, streams[name])
        analytics.projector.refresh(src, con, batch_size=50)
    assert _luck(con) == _luck(whole)
    again = analytics.tables.connect()
    analytics.projector.rebuild(src, again)
    assert _tables(con) == _tables(again)


def _history(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    """``luck_history`` but the positions (which the order of storing sets)."""
    return sorted(
        con.execute(
            "SELECT session, player_key, order_at, luck, signatures, prior FROM luck_history"
        ).fetchall()
    )


def test_a_correction_refolds_the_next_ten_sessions_of_its_players_and_no_more() -> None:
    """A look withdrawn from the first of 13 sessions changes what it tells of its player: the
    luck of sessions 2 to 11 (whose latest ten earlier sessions hold it) is folded again, that of
    sessions 12 and 13 is not; the projection then equals a rebuild of the corrected store."""
    from log.amend import plan_stored, store_amendment
    from log.open import open_store

    streams = _season(13, seed=11)
    for seed in range(40):
        store = open_store("memory://")
        for name in sorted(streams):
            store.append(name, streams[name], 0)
        con = analytics.tables.connect()
        analytics.projector.refresh(store, con)
        before = _luck(con)
        priors = dict(
            con.execute("SELECT session || player_key, prior FROM luck_history").fetchall()
        )
        t = store.timeline("s00")
        looks = [s for s in t.steps if s.event.type == "looked"]
        if not looks:
            streams = _season(13, seed=100 + seed)
            continue
        store_amendment(store, plan_stored(store, "s00", looks[0], None), repair=True)
        analytics.projector.refresh(store, con)
        after = _luck(con)
        new = dict(con.execute("SELECT session || player_key, prior FROM luck_history").fetchall())
        moved = {k[:-3] for k in new if new[k] != priors.get(k)}
        assert moved <= {f"s{k:02}" for k in range(1, 11)}
        assert moved, "the correction changed no later session's prior"
        for s in ("s11", "s12"):
            assert {k: v for k, v in after.items() if k[0] == s} == {
                k: v for k, v in before.items() if k[0] == s
            }
        again = analytics.tables.connect()
        analytics.projector.rebuild(store, again)
        assert _tables(again) == _tables(con)
        return
    pytest.fail("no season with a look to withdraw")


def test_a_rebuild_reads_the_late_sessions_ahead_and_folds_each_session_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A season stored newest first: every session but the first stored is stored after a
    later-dated one (``out_of_order``); read ahead (``foreseen``: what each tells of its
    players, equal to what the fold writes), no session is folded again, and the rows equal
    those of the season stored in date order."""
    import json

    from analytics.facts import SessionFolder
    from analytics.prior_rows import foreseen, out_of_order

    streams = _season(6, seed=21)
    backwards = _store(streams, sorted(streams, reverse=True))
    assert out_of_order(backwards) == sorted(streams, reverse=True)[1:]
    assert out_of_order(_store(streams, sorted(streams))) == []
    again: list[str] = []
    monkeypatch.setattr(SessionFolder, "relucked", lambda self, out: again.append(self.session))
    con = _projected(backwards)
    assert again == []
    assert _luck(con) == _luck(_projected(_store(streams, sorted(streams))))
    ahead = foreseen(backwards)
    rows = con.execute("SELECT session, player_key, signatures FROM luck_history").fetchall()
    assert {(s, p): Counter(json.loads(g)) for s, p, g in rows} == {
        (s, p): e.counts for s, players in ahead.items() for p, e in players.items()
    }
