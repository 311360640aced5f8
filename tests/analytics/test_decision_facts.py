"""The ``decisions`` facts (analytics/facts.py, columns.py): one row per recorded decision in
force, its context as the engine saw it before the decision.

- Counts per player and action equal a recount straight from the events, with an independent
  small reading of FORMAT.md ``voided`` (it withdraws the latest recorded event in force, with the
  derived events after it), for every shared scenario and for random and simulated sessions
  (hypothesis, both ``cards`` modes, with voids and unfinished sessions).
- Each row's ``step`` lands on its own event in the Replay page's numbering.
- The context of hand-worked decisions: RULES 5.10's worked example and a blind/seen see
  (RULES 5.3, 5.7), worked out by hand from the RULES text.
- A withdrawn decision is not a row; the lake, ``api.load_decisions`` and ``brag analytics show
  decisions`` give the same counts.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
import pytest
from decision_recount_helpers import in_force, recount
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_paths import VALID_SCENARIOS, needs_shared

import analytics.projector
import analytics.tables
from analytics import api, queries
from analytics.lake import export_lake
from analytics.projector import Projector
from analytics.sources import MemorySource, from_logs, interleave
from engine.fold import complete
from events.codec import read_file
from events.model import (
    AnyEvent,
    Bet,
    DealerChosen,
    Dealt,
    Folded,
    Looked,
    Retained,
    Rules,
    SessionStarted,
    Shuffled,
    Voided,
)
from present.replay import Replay
from sim import simulate_session
from sim.randplay import random_session


def projected(con: duckdb.DuckDBPyConnection, session: str) -> Counter[tuple[str, str]]:
    rows = con.execute(
        "SELECT player, action::VARCHAR, count(*) FROM decisions WHERE session = ? GROUP BY ALL",
        [session],
    ).fetchall()
    return Counter({(p, a): n for p, a, n in rows})


def rows_of(con: duckdb.DuckDBPyConnection, session: str) -> list[dict[str, Any]]:
    cur = con.execute("SELECT * FROM decisions WHERE session = ? ORDER BY seq", [session])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def check_steps(stream: list[AnyEvent], rows: list[dict[str, Any]]) -> None:
    """Every row's ``(deal, step)`` is where the Replay page puts its own event (seq)."""
    replay = Replay.of(stream)
    seqs = {id(e): s for s, e in in_force(stream)}
    for r in rows:
        pos = replay.position(r["deal"], r["step"])
        assert (pos.deal, pos.step) == (r["deal"], r["step"]), r
        assert seqs[id(replay.events[pos.index])] == r["seq"], r


# --- every shared scenario ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scenarios() -> tuple[duckdb.DuckDBPyConnection, dict[str, list[AnyEvent]]]:
    streams: dict[str, list[AnyEvent]] = {}
    for path in VALID_SCENARIOS:
        steps = list(complete(read_file(path)))
        streams[steps[-1].state.session] = [s.event for s in steps]
    con = analytics.tables.connect()
    analytics.projector.refresh(from_logs(VALID_SCENARIOS), con, batch_size=50)
    return con, streams


@needs_shared
def test_every_scenario_recounted(
    scenarios: tuple[duckdb.DuckDBPyConnection, dict[str, list[AnyEvent]]],
) -> None:
    con, streams = scenarios
    assert len(streams) >= 15
    total = 0
    for session, stream in streams.items():
        expect = recount(stream)
        assert projected(con, session) == expect, session
        check_steps(stream, rows_of(con, session))
        total += sum(expect.values())
    assert total > 100  # the scenarios hold decisions of every kind but concede, at least
    kinds = {a for (a,) in con.execute("SELECT DISTINCT action::VARCHAR FROM decisions").fetchall()}
    assert {"look", "bet", "see", "fold", "retain", "keep", "throw"} <= kinds


# --- random and simulated sessions (property) ----------------------------------------------------


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    cards=st.sampled_from(["all", "shown"]),
    void_rate=st.sampled_from([0.0, 0.05, 0.2]),
    cut=st.one_of(st.none(), st.integers(10, 200)),
    styled=st.booleans(),
    batch=st.integers(3, 60),
    restart=st.booleans(),
)
def test_random_sessions_recounted(
    seed: int,
    players: int,
    cards: str,
    void_rate: float,
    cut: int | None,
    styled: bool,
    batch: int,
    restart: bool,
) -> None:
    """``restart``: a new projector for each batch, so every session's folder is folded again
    from the store's events (voids included) in the middle of a deal."""
    rng = random.Random(seed)
    streams = {
        "r": random_session(
            rng, "r", players=players, cards=cards, void_rate=void_rate, max_events=cut, pots=3
        ),
        "q": random_session(rng, "q", players=3, cards=cards, void_rate=void_rate, pots=2),
    }
    if styled:
        streams["s"] = simulate_session(seed, players, cards, session="s")  # type: ignore[arg-type]
    con = analytics.tables.connect()
    source = interleave(streams, seed=seed)
    if restart:
        while Projector(source, con, batch_size=batch).refresh(max_batches=1).events:
            pass
    else:
        analytics.projector.refresh(source, con, batch_size=batch)
    for session, stream in streams.items():
        assert projected(con, session) == recount(stream), session
        check_steps(stream, rows_of(con, session))
    # what followed: each row's net and win are its player's in the deal (player_deals)
    off = con.execute(
        "SELECT count(*) FROM decisions d JOIN player_deals p USING (session, deal, player) "
        "WHERE d.net_t <> p.net_t OR d.won <> p.won"
    ).fetchone()
    assert off == (0,)


# --- hand-worked context --------------------------------------------------------------------------


@needs_shared
def test_card_example_context(
    scenarios: tuple[duckdb.DuckDBPyConnection, dict[str, list[AnyEvent]]],
) -> None:
    """RULES 5.10 (the card's example), den 2 (ticks of half a unit, ante 1): D deals, so A is
    first (RULES 5.2); everyone looks before the first bet (5.1); antes 4 units = 8 ticks."""
    con, _ = scenarios
    rows = {(r["player"], r["action"]): r for r in rows_of(con, "card-example")}
    assert len(rows_of(con, "card-example")) == 9
    look_a, look_b = rows[("A", "look")], rows[("B", "look")]
    assert (look_a["step"], look_b["step"]) == (2, 3)  # step 1 is the deal
    assert look_a["players_in"] == 4 and look_a["blind_in"] == 4 and not look_a["actor_seen"]
    assert look_a["level"] is None and look_a["pot_t"] == 8
    # A's turn: a blind opening bet of 1..5 costs half of it, 1..5 ticks (RULES 5.3, 5.5)
    assert look_a["options"] == "look|bet 1..5:1..5|fold"
    assert look_b["options"] == "look"  # not B's turn: only the look (RULES 5.1)
    bet_a = rows[("A", "bet")]
    assert bet_a["step"] == 6 and bet_a["actor_seen"] and bet_a["seen_in"] == 4
    assert (bet_a["level"], bet_a["pot_t"], bet_a["cost_t"], bet_a["bet_level"]) == (None, 8, 4, 2)
    assert bet_a["options"] == "bet 1..5:2..10|fold"  # seen: the level in full
    bet_b = rows[("B", "bet")]
    assert (bet_b["level"], bet_b["pot_t"], bet_b["cost_t"]) == (2, 12, 4)
    assert bet_b["options"] == "bet 2..7:4..14|fold"  # keep 2 or raise by up to 5
    fold_c, fold_d = rows[("C", "fold")], rows[("D", "fold")]
    assert (fold_c["players_in"], fold_c["pot_t"], fold_c["cost_t"]) == (4, 16, 0)
    assert (fold_d["players_in"], fold_d["opponents_seen"]) == (3, 2)
    see = rows[("A", "see")]
    # two left, both seen: A pays 2 x level = 4 units = 8 ticks (RULES 5.7); pot 8 units before
    assert (see["step"], see["players_in"], see["opponents_seen"], see["opponents_blind"]) == (
        10,
        2,
        1,
        0,
    )
    assert (see["level"], see["pot_t"], see["see_cost_t"], see["cost_t"]) == (2, 16, 8, 8)
    assert see["options"] == "bet 2..7:4..14|fold|see:8"
    # what followed: A -7, B +9, C and D -1 (RULES 5.10), in ticks; the shown hands' categories
    assert (see["net_t"], see["won"], see["hand_category"]) == (-14, False, "flush")
    assert (bet_b["net_t"], bet_b["won"], bet_b["hand_category"]) == (18, True, "run")
    assert (fold_c["net_t"], fold_c["hand_category"]) == (-2, None)  # never shown (RULES 3.5)
    assert sum(v for v in (-14, 18, -2, -2)) == 0


def _two_player_start(session: str) -> list[AnyEvent]:
    return [
        SessionStarted(session=session, seats=("A", "B"), cards="shown", rules=Rules(pots=1)),
        DealerChosen(player="B"),
        Shuffled(),
        Dealt(),
    ]


def full(recorded: list[AnyEvent]) -> list[AnyEvent]:
    """The stream of recorded events with the engine's derived events in their places."""
    return [s.event for s in complete(enumerate(recorded, start=1))]


def _project(stream: list[AnyEvent], session: str) -> duckdb.DuckDBPyConnection:
    src = MemorySource()
    src.append(session, full(stream))
    con = analytics.tables.connect()
    analytics.projector.refresh(
        src, con, batch_size=2
    )  # a void may come in a later batch than its event
    return con


def test_blind_against_seen_context() -> None:
    """RULES 5.3, 5.7 by hand: B deals, A (blind) opens at 2 and pays 1 unit (2 ticks); B,
    blind at the start of the turn, could see for the level (2 units); B looks and, seen against
    a blind A, may not see (bet 2..7 at 4..14 ticks, or fold); B bets 2 (4 ticks); A, blind
    against seen B, may see for the level, 2 units = 4 ticks, and folds: the pot (antes 2
    units, bets 3: 10 ticks) goes to B, seen (RULES 5.6)."""
    stream = [
        *_two_player_start("bs"),
        Bet(player="A", level=Fraction(2)),
        Looked(player="B"),
        Bet(player="B", level=Fraction(2)),
        Folded(player="A"),
    ]
    rows = rows_of(_project(stream, "bs"), "bs")
    assert [(r["player"], r["action"], r["step"]) for r in rows] == [
        ("A", "bet", 2),
        ("B", "look", 3),
        ("B", "bet", 4),
        ("A", "fold", 5),
    ]
    a_bet, b_look, b_bet, a_fold = rows
    assert (a_bet["cost_t"], a_bet["pot_t"], a_bet["see_cost_t"]) == (2, 4, None)
    # B's own turn, still blind against blind A: a see costs the level, 2 units = 4 ticks
    assert b_look["options"] == "look|bet 2..7:2..7|fold|see:4"
    assert b_look["see_cost_t"] == 4
    assert b_bet["actor_seen"] and b_bet["opponents_blind"] == 1
    assert (b_bet["see_cost_t"], b_bet["options"]) == (None, "bet 2..7:4..14|fold")
    assert (a_fold["level"], a_fold["pot_t"], a_fold["see_cost_t"]) == (2, 10, 4)
    assert a_fold["options"] == "look|bet 2..7:2..7|fold|see:4"
    # A paid the ante and a blind 1 (2 units); B won the 5 units and paid the ante and 2 (3)
    assert [r["net_t"] for r in rows] == [-4, 4, 4, -4]


def test_a_withdrawn_decision_is_not_a_row() -> None:
    """FORMAT.md ``voided``: A's bet at 2 (seq 5) is withdrawn and A bets 3 instead (seq 7); the
    row is the bet at 3, at the step the withdrawn one had, as the Replay page numbers it. B
    folds and A, blind, survives: the pot is carried (RULES 6.1, the derived event is step 4)
    and A retains the hand (6.2), which ends the deal's facts."""
    stream = [
        *_two_player_start("vd"),
        Bet(player="A", level=Fraction(2)),
        Voided(seq=5),
        Bet(player="A", level=Fraction(3)),
        Folded(player="B"),
        Retained(player="A"),
    ]
    con = _project(stream, "vd")
    rows = rows_of(con, "vd")
    assert [(r["seq"], r["action"], r["bet_level"], r["step"]) for r in rows] == [
        (7, "bet", 3, 2),
        (8, "fold", None, 3),
        (10, "retain", None, 5),
    ]
    bet, fold, keep = rows
    assert (bet["cost_t"], fold["see_cost_t"]) == (3, 6)  # B blind v blind: the level, 3 units
    assert (keep["phase"], keep["players_in"], keep["options"]) == ("carried", 1, "retain|give_up")
    assert keep["pot_t"] == 7  # the antes, 2 units = 4 ticks, and A's blind half of 3: 3 ticks
    assert [r["hand_category"] for r in rows] == [None, None, None]  # cards: shown, none shown
    check_steps(full(stream), rows)


def test_void_of_a_deal_end_drops_its_rows() -> None:
    """A fold that ends the deal writes the deal's rows; withdrawing it (FORMAT.md ``voided``, in
    a later refresh) takes them away, the deal being open again; the deal's end recorded anew
    writes them again, with the new fold's seq."""
    recorded: list[AnyEvent] = [
        *_two_player_start("ve"),
        Looked(player="A"),  # seen, so the fold leaves a seen survivor who takes the pot (5.6)
        Bet(player="A", level=Fraction(1)),
        Folded(player="B"),
    ]
    src = MemorySource()
    stored = 0

    def store(*more: AnyEvent) -> None:
        nonlocal stored
        recorded.extend(more)
        stream = full(recorded)
        src.append("ve", stream[stored:])
        stored = len(stream)

    store()
    con = analytics.tables.connect()
    projector = Projector(src, con, batch_size=100)
    projector.refresh()
    first = [(r["seq"], r["action"]) for r in rows_of(con, "ve")]
    assert first == [(5, "look"), (6, "bet"), (7, "fold")]
    store(Voided(seq=7))  # the fold; its pot_won and session_ended go with it
    projector.refresh()
    assert rows_of(con, "ve") == []
    store(Looked(player="B"), Bet(player="B", level=Fraction(1)))
    projector.refresh()
    assert rows_of(con, "ve") == []  # the deal is still in play
    store(Folded(player="A"))
    projector.refresh()
    rows = rows_of(con, "ve")
    assert [(r["seq"], r["action"], r["player"], r["step"]) for r in rows] == [
        (5, "look", "A", 2),
        (6, "bet", "A", 3),
        (11, "look", "B", 4),
        (12, "bet", "B", 5),
        (13, "fold", "A", 6),
    ]
    assert projected(con, "ve") == recount(full(recorded))
    check_steps(full(recorded), rows)


# --- the same counts everywhere -------------------------------------------------------------------


@needs_shared
@pytest.mark.slow
def test_show_api_and_lake_agree(
    scenarios: tuple[duckdb.DuckDBPyConnection, dict[str, list[AnyEvent]]],
    tmp_path: Path,
) -> None:
    con, streams = scenarios
    expect: Counter[tuple[str, str]] = Counter()
    for stream in streams.values():
        expect += recount(stream)
    shown = queries.decisions(con)
    by_name = {(r["player"], r["action"]): r for r in shown}
    assert Counter({k: r["decisions"] for k, r in by_name.items()}) == expect
    for r in shown:
        assert r["share"] == pytest.approx(r["decisions"] / r["decisions_n"])
    path = tmp_path / "p.duckdb"
    disk = duckdb.connect(str(path))
    analytics.projector.refresh(from_logs(VALID_SCENARIOS), disk)
    disk.close()
    lake = tmp_path / "lake"
    disk = duckdb.connect(str(path), read_only=True)
    export_lake(disk, str(lake))
    disk.close()
    assert list((lake / "decisions").glob("table_name=*/month=*/part_*.parquet"))
    for source in (path, lake):
        rel = api.load_decisions(source)
        got = Counter({(p, str(a)): n for p, a, n in rel.aggregate("player, action, count(*)")
                       .fetchall()})  # fmt: skip
        assert got == expect, source
    one = api.load_decisions(path, session="card-example", action="see").fetchall()
    assert len(one) == 1
    words = {r["column"]: r["definition"] for r in api.dictionary(lake).df().to_dict("records")
             if r["table"] == "decisions"}  # fmt: skip
    for column in ("session", "deal", "seq", "step", "player", "action", "options", "see_cost_t"):
        assert words.get(column), column
    # a lake exported before decisions existed still opens, its other facts whole
    shutil.rmtree(lake / "decisions")
    old, now = api.load_player_deals(lake), api.load_player_deals(path)
    assert len(old.fetchall()) == len(now.fetchall()) > 0
