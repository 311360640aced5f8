"""The projection's rows per player (issue 37 item 5, ``analytics/summaries.py``): the Players
page's first table read from ``player_totals`` and its names from ``player_seated`` give the
rows the aggregation over every (session, player) gives (``stats.sql`` player_stats, the path
kept for filters), after a refresh of any batch size, catch-ups in one transaction, voids, a
correction of an early step, a merge in the club's register, a parallel rebuild and a refresh
cut short; and the readers never take rows that may not agree with the facts."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics import queries, summaries
from analytics.projector import Projector, one_transaction
from analytics.sources import MemorySource
from events.model import AnyEvent
from sim.randplay import random_session

# Spellings of four players (one key each: events.text.normal), and antes of two denominators.
_SEATS = (("Ann", "Bob", "Cy"), ("ann", "Dee", "Bob"), ("ANN", "Cy", "dee", "Bob"))


def _streams(n: int, seed: int = 7) -> dict[str, list[AnyEvent]]:
    rng = random.Random(seed)
    out = {}
    for k in range(n):
        seats = _SEATS[k % len(_SEATS)]
        ante = Fraction(1, 3) if k % 4 == 3 else Fraction(1)
        events = random_session(rng, f"s{k:02d}", players=seats, pots=3, ante=ante, void_rate=0.05)
        if k % 5 != 4:  # a night of its own offset's date; every fifth session without a time
            at = datetime(2026, 10, 1 + k % 3, 20 + k % 4, tzinfo=timezone(timedelta(hours=k % 3)))
            events[0] = events[0].model_copy(update={"at": at})
        out[f"s{k:02d}"] = events
    return out


def _both(con: duckdb.DuckDBPyConnection) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """player_stats' raw rows from the kept rows and from the aggregation, the same ``den``."""
    den = queries.common_den(con)
    kept = queries.run(con, "player_stats", {"den": den, "kept": True, "totals": True})
    summed = queries.run(con, "player_stats", {"den": den, "kept": False, "totals": False})
    return kept, summed


def _nights(con: duckdb.DuckDBPyConnection) -> tuple[dict, set, dict]:
    """The nights added up in Python from the sessions' and seats' rows: per (night, den)
    [sessions, going, pot, seqs, last position], the rule sets, per (night, name, den) the net."""
    totals: dict[tuple[str, int], list[int]] = {}
    rules = set()
    for started, den, finished, pot_t, seq, pos, *rule in con.execute(
        "SELECT started, den, finished, pot_t, last_seq, last_position, ante_t, open_min, "
        "open_max, raise_max, pots_rule, blind_play FROM sessions WHERE started IS NOT NULL"
    ).fetchall():
        day = datetime.fromisoformat(started).date().isoformat()  # in its own offset
        t = totals.setdefault((day, den), [0, 0, 0, 0, 0])
        t[0], t[1], t[2], t[3] = t[0] + 1, t[1] + (not finished), t[2] + pot_t, t[3] + seq
        t[4] = max(t[4], pos)
        rules.add((day, rule[0], den, *rule[1:]))
    nets: dict[tuple[str, str, int], int] = defaultdict(int)
    for started, player, den, net_t in con.execute(
        "SELECT s.started, p.player, p.den, p.net_t FROM session_players p "
        "JOIN sessions s USING (session) WHERE s.started IS NOT NULL"
    ).fetchall():
        nets[(datetime.fromisoformat(started).date().isoformat(), player, den)] += net_t
    return totals, rules, dict(nets)


def _agree(con: duckdb.DuckDBPyConnection) -> None:
    assert summaries.kept(con)
    kept, summed = _both(con)
    assert summed, "no player: nothing compared"
    assert kept == summed
    totals, rules, nets = _nights(con)
    got = {(d, den): list(r) for d, den, *r in con.execute("FROM night_totals").fetchall()}
    assert got == totals
    assert set(con.execute("FROM night_rule_sets").fetchall()) == rules
    got_nets = {(d, p, den): n for d, p, den, n in con.execute("FROM night_player_nets").fetchall()}
    assert got_nets == nets


@pytest.mark.parametrize("batch", [7, 60, 10_000])
def test_any_batch_size_gives_the_aggregations_rows(batch: int) -> None:
    src = MemorySource()
    for session, events in _streams(12).items():
        src.append(session, events)
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=batch)
    _agree(con)
    keys = con.execute("SELECT count(DISTINCT player_key), count(*) FROM player_totals").fetchone()
    assert keys == (4, 8)  # four players, each at antes of two denominators
    names = {r["player"] for r in queries.player_stats(con)}
    assert names == {"Ann", "Bob", "Cy", "Dee"}  # each key under the spelling seated most


def test_a_catch_up_event_by_event_keeps_them_at_every_checkpoint() -> None:
    """Sessions recorded a few events at a time, each caught up in one transaction (as the
    dashboard's writer does): after each, the kept rows are the aggregation's."""
    streams = _streams(5, seed=3)
    src = MemorySource()
    con = analytics.tables.connect()
    proj = Projector(src, con, batch_size=5)
    rng = random.Random(1)
    left = {s: list(e) for s, e in streams.items()}
    checks = 0
    while left:
        session = rng.choice(sorted(left))
        take, left[session] = left[session][:9], left[session][9:]
        src.append(session, take)
        if not left[session]:
            del left[session]
        with one_transaction(con):
            proj.refresh()
        if con.execute("SELECT count(*) FROM player_session_summary").fetchone()[0]:
            _agree(con)
            checks += 1
    assert checks > 20


def test_a_refresh_cut_short_leaves_them_unread_until_the_next() -> None:
    """A refresh that commits batch by batch and stops before its end (a crash): the rows are
    marked stale, the page aggregates the facts, and the next refresh makes them whole."""
    streams = _streams(6, seed=11)
    src = MemorySource()
    for session, events in list(streams.items())[:3]:
        src.append(session, events)
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=40)
    _agree(con)
    before = queries.player_stats(con)
    for session, events in list(streams.items())[3:]:
        src.append(session, events)

    proj = Projector(src, con, batch_size=40)

    class _Cut(Exception):
        pass

    def cut(*_: Any, **__: Any) -> None:
        raise _Cut

    proj._rows = summaries.Following()
    real = summaries.Following.finish
    summaries.Following.finish = cut  # type: ignore[method-assign]
    try:
        with pytest.raises(_Cut):
            proj.refresh()
    finally:
        summaries.Following.finish = real  # type: ignore[method-assign]
    assert not summaries.kept(con)  # the batches committed, the rows owed not made
    now = queries.player_stats(con)
    assert now != before  # the new sessions' deals are counted: the aggregation was read
    kept, summed = _both(con)
    assert kept != summed  # what the stale rows would have said
    analytics.projector.refresh(src, con)
    _agree(con)
    assert queries.player_stats(con) == now


def test_a_correction_of_an_early_step_keeps_them() -> None:
    """A look withdrawn from deal 2 of a projected session (``amended``, issue 32): the session
    is folded again in the catch-up and its players' rows follow."""
    from events.model import Looked
    from log.amend import plan_stored, store_amendment
    from log.open import open_store

    for seed in range(100):
        events = random_session(random.Random(seed), "s", players=("Ann", "Bob", "Cy", "Dee"))
        store = open_store("memory://")
        store.append("s", events, 0)
        store.append("t", random_session(random.Random(seed + 1), "t", players=_SEATS[0]), 0)
        look = next(
            (x for x in store.timeline("s").steps
             if isinstance(x.event, Looked) and x.label.deal == 2),
            None,
        )  # fmt: skip
        if look is not None:
            break
    else:
        raise AssertionError("no seed gives a look in deal 2")
    con = analytics.tables.connect()
    analytics.projector.refresh(store, con)
    _agree(con)
    before = queries.player_stats(con)
    store_amendment(store, plan_stored(store, "s", look, None), repair=True)
    with one_transaction(con):
        analytics.projector.refresh(store, con)
    _agree(con)
    blind = {r["player"]: r["blind_first"] for r in queries.player_stats(con)}
    assert blind != {r["player"]: r["blind_first"] for r in before}  # the look is gone


def test_a_merge_in_the_register_moves_them() -> None:
    """A merge in the club's register rekeys every session (analytics.register.rekey): every
    player's rows are made again at the refresh's end, the merged name's deals under the name
    it goes by now (a session seating both keeps them apart, RULES 1.3)."""
    from datetime import UTC, datetime

    from log.register import Register
    from store.register import RegisterFact

    src = MemorySource()
    for session, events in _streams(8, seed=5).items():
        src.append(session, events)
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=50)
    _agree(con)
    deals = {r["player"]: r["deals"] for r in queries.player_stats(con)}
    at = datetime(2026, 12, 6, tzinfo=UTC)
    fact = RegisterFact(1, "merge", "Dee", "Cy", None, at, "organiser")
    src.register_facts = lambda: [fact]  # type: ignore[attr-defined]  # the store's register
    apart = sum(  # Dee's deals in the sessions seating Cy too stay Dee's
        r["deals"]
        for s in ("s02", "s05")
        for r in queries.player_stats(con, session=s)
        if r["player"] in ("Dee", "dee")
    )
    analytics.projector.refresh(src, con)  # nothing new to apply: the register followed
    assert Register((fact,)).version == 1
    _agree(con)
    now = {r["player"]: r["deals"] for r in queries.player_stats(con)}
    assert now["Cy"] == deals["Cy"] + deals["Dee"] - apart
    assert now["dee"] == apart > 0  # the spelling those sessions seat


def test_a_parallel_rebuild_makes_them(tmp_path: Any) -> None:
    """A parallel rebuild (the workers' rows merged) makes every player's rows."""
    from analytics.parallel import rebuild_parallel
    from analytics.sources import open_source
    from log.open import open_store

    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = open_store(url)
    for session, events in _streams(8, seed=9).items():
        store.append(session, events, 0)
    store.close()
    path = str(tmp_path / "club.duckdb")
    con = duckdb.connect(path)
    source = open_source(url)
    try:
        rebuild_parallel(url, source, con, jobs=2)
        _agree(con)
    finally:
        con.close()
        source.close()
