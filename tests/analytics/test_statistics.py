"""Analytics on the shared scenarios: every statistic against a value worked out by hand.

The hand computations follow RULES.md; each test names the scenario and the sections it rests on.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import duckdb
import pytest
from shared_paths import VALID_SCENARIOS, needs_shared

import analytics.explore
import analytics.lake
import analytics.projector
import analytics.tables
from analytics import queries
from analytics.facts import SessionFolder
from analytics.projector import Projector
from analytics.sources import MemorySource, from_logs, interleave
from analytics.sqlfiles import query
from analytics.strength import ALL_HANDS, OPPONENT_HANDS, hand_strength
from engine.fold import complete, fold, summary
from engine.hands import strength_codes
from events.codec import read_file
from sim.randplay import random_session

VALID = VALID_SCENARIOS


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = analytics.tables.connect()
    analytics.projector.refresh(from_logs(VALID), c, batch_size=50)
    return c


def _stats(con: duckdb.DuckDBPyConnection, session: str) -> dict[str, dict]:
    return {r["player"]: r for r in queries.player_stats(con, session=session)}


def _deal(con: duckdb.DuckDBPyConnection, session: str, deal: int) -> dict:
    cur = con.execute("SELECT * FROM deals WHERE session = ? AND deal = ?", [session, deal])
    names = [d[0] for d in cur.description]
    rows = cur.fetchall()
    assert len(rows) == 1
    return dict(zip(names, rows[0], strict=True))


def _pd(con: duckdb.DuckDBPyConnection, session: str) -> dict[tuple[int, str], dict]:
    cur = con.execute("SELECT * FROM player_deals WHERE session = ?", [session])
    names = [d[0] for d in cur.description]
    return {(r[1], r[3]): dict(zip(names, r, strict=True)) for r in cur.fetchall()}


@needs_shared
def test_scenarios_are_there() -> None:
    assert len(VALID) >= 15


# --- RULES 5.10, the card's worked example --------------------------------------------------------


@needs_shared
def test_card_example(con: duckdb.DuckDBPyConnection) -> None:
    s = _stats(con, "card-example")
    # B +9 (won 12, paid 3), A -7, C -1, D -1 (RULES 5.10).
    assert {p: r["net"] for p, r in s.items()} == {"A": -7, "B": 9, "C": -1, "D": -1}
    assert all(r["deals"] == 1 for r in s.values())
    b, a = s["B"], s["A"]
    assert (b["pots_won"], b["pots_won_showdown"], b["pots_won_uncontested"]) == (1, 1, 0)
    assert b["biggest_pot_won"] == Fraction(12)
    # Everyone looked before the first bet: no blind first action (RULES 5.1).
    assert all((r["blind_rate"], r["blind_rate_n"]) == (0.0, 1) for r in s.values())
    # A saw B with two left, seen against seen (RULES 5.7): one chance, one see.
    assert (a["see_rate"], a["see_rate_n"]) == (1.0, 1)
    assert (a["payer_win_rate"], a["payer_win_rate_n"]) == (0.0, 1)
    assert (b["seen_win_rate"], b["seen_win_rate_n"]) == (1.0, 1)
    assert (b["see_rate"], b["see_rate_n"]) == (None, 0)  # four were in when B bet
    # A and B bet once each at level 2, no raise; C and D never bet.
    assert (a["bet_share"], a["raise_rate"], a["raise_rate_n"]) == (1.0, 0.0, 1)
    assert (s["C"]["bet_share"], s["C"]["raise_rate"]) == (0.0, None)
    d = _deal(con, "card-example", 1)
    assert (d["pot_t"], d["den"], d["dealer"], d["players"]) == (24, 2, "D", 4)
    assert (d["result"], d["winner"], d["showdown"], d["payer"], d["seen_player"]) == (
        "won", "B", True, "A", "B",
    )  # fmt: skip
    assert (d["winning_category"], d["actions"], d["raises"], d["final_level"]) == ("run", 5, 0, 2)
    pd = _pd(con, "card-example")
    assert pd[(1, "A")]["left_how"] == "paid_to_see" and pd[(1, "B")]["left_how"] == "was_seen"
    assert pd[(1, "C")]["left_how"] == pd[(1, "D")]["left_how"] == "folded"
    assert pd[(1, "D")]["is_dealer"] and not pd[(1, "A")]["is_dealer"]
    assert (pd[(1, "B")]["hand_category"], pd[(1, "A")]["hand_category"]) == ("run", "flush")
    assert pd[(1, "C")]["hand_category"] is None  # never shown (RULES 3.5)


# --- RULES 5.3, 5.7: a blind player pays half and sees a seen one for the level -------------------


@needs_shared
def test_blind_pays_half(con: duckdb.DuckDBPyConnection) -> None:
    s = _stats(con, "blind-half")
    assert {p: r["net"] for p, r in s.items()} == {"A": -16, "B": 21, "C": -5}
    b, a = s["B"], s["A"]
    assert (b["blind_rate"], b["blind_rate_n"]) == (1.0, 1)
    assert (a["blind_rate"], s["C"]["blind_rate"]) == (0.0, 0.0)
    # B bet twice blind (2 then 3) and never looked.
    assert (b["avg_bets_before_looking"], b["avg_bets_before_looking_n"]) == (2.0, 1)
    # Raises: A 4 -> 5, B 5 -> 6; A's bet at 6 keeps the level (RULES 5.5).
    assert (a["raises"], a["raise_rate_n"], b["raises"], b["raise_rate_n"]) == (1, 3, 1, 2)
    # A, seen, could not see blind B (RULES 5.7); B, blind, saw seen A.
    assert (a["see_rate"], a["see_rate_n"]) == (None, 0)
    assert (b["see_rate"], b["see_rate_n"]) == (1.0, 1)
    assert (b["payer_win_rate"], b["payer_win_rate_n"]) == (1.0, 1)
    assert (a["seen_win_rate"], a["seen_win_rate_n"]) == (0.0, 1)
    assert b["biggest_pot_won"] == 33
    d = _deal(con, "blind-half", 1)
    assert (d["pot_t"], d["winning_category"], d["actions"], d["raises"]) == (66, "prial", 8, 2)
    pd = _pd(con, "blind-half")
    assert pd[(1, "B")]["looked_turn"] is None and pd[(1, "A")]["looked_turn"] == 0
    assert (pd[(1, "B")]["paid_t"], pd[(1, "B")]["won_t"]) == (24, 66)  # 12 and 33 units


# --- RULES 6.1, 6.2: a blind survivor's pot is carried --------------------------------------------


@needs_shared
def test_blind_survivor_pot_carried(con: duckdb.DuckDBPyConnection) -> None:
    s = _stats(con, "carry-simple")
    assert {p: r["net"] for p, r in s.items()} == {"A": 5, "B": -3, "C": -2}
    a = s["A"]
    assert (a["deals"], a["carried_caused"], a["pots_won"], a["pots_won_uncontested"]) == (
        2,
        1,
        1,
        1,
    )
    assert (a["blind_rate"], a["blind_rate_n"]) == (0.5, 2)
    assert a["biggest_pot_won"] == 9 and a["net_per_deal"] == Fraction(5, 2)
    d1, d2 = _deal(con, "carry-simple", 1), _deal(con, "carry-simple", 2)
    assert (d1["result"], d1["carried_by"], d1["retained"], d1["pot_t"]) == (
        "carried",
        "A",
        False,
        8,
    )
    assert (d2["carried_in_t"], d2["pot_t"], d2["winner"], d2["showdown"]) == (8, 18, "A", False)
    pd = _pd(con, "carry-simple")
    assert pd[(1, "A")]["left_how"] == "carried" and pd[(1, "A")]["net_t"] == -4
    # RULES 6.2, 6.3: when the blind survivor retains, the pot is carried in all the same.
    season = Path(__file__).resolve().parents[2] / "data" / "season" / "2026-09-24-top-3.jsonl"
    c = analytics.tables.connect()
    analytics.projector.refresh(from_logs([str(season)]), c)
    d4, d5 = _deal(c, "2026-09-24-top-3", 4), _deal(c, "2026-09-24-top-3", 5)
    assert (d4["result"], d4["retained"], d4["pot_t"]) == ("carried", True, 20)
    assert d5["carried_in_t"] == d4["pot_t"]
    assert c.execute("SELECT count(*) FROM deals WHERE carried_in_t > 0").fetchone() == (1,)
    assert pd[(2, "A")]["left_how"] == "won_uncontested" and pd[(2, "A")]["net_t"] == 14


# --- RULES 6.3, 6.4: two hands, keep the new one --------------------------------------------------


@needs_shared
def test_two_hands_keep_new(con: duckdb.DuckDBPyConnection) -> None:
    s = _stats(con, "keep-new")
    assert {p: r["net"] for p, r in s.items()} == {
        "A": Fraction(-9, 2),
        "B": -4,
        "C": Fraction(17, 2),
    }
    assert s["C"]["biggest_pot_won"] == Fraction(33, 2)
    assert (s["C"]["payer_win_rate"], s["A"]["seen_win_rate"]) == (1.0, 0.0)
    assert (s["A"]["blind_rate"], s["A"]["blind_rate_n"], s["A"]["carried_caused"]) == (0.5, 2, 1)
    pd = _pd(con, "keep-new")
    assert pd[(1, "A")]["left_how"] == "retained"
    assert pd[(2, "A")]["two_hands"] and not pd[(2, "B")]["two_hands"]
    assert pd[(2, "A")]["looked_turn"] == 0 and pd[(2, "A")]["first_action"] == "seen"
    assert pd[(2, "A")]["hand_category"] == "running flush"
    assert pd[(2, "C")]["hand_category"] == "prial"
    d1 = _deal(con, "keep-new", 1)
    assert (d1["retained"], d1["pot_t"], d1["den"]) == (True, 7, 2)


# --- RULES 5.8: both blind, cards turned one at a time --------------------------------------------


@needs_shared
def test_two_blind_showdown(con: duckdb.DuckDBPyConnection) -> None:
    s = _stats(con, "two-blind")
    assert {p: r["net"] for p, r in s.items()} == {"A": 9, "B": -6, "C": -3}
    a, b, c = s["A"], s["B"], s["C"]
    assert (a["blind_rate"], b["blind_rate"], c["blind_rate"]) == (1.0, 1.0, 0.0)
    # A could have seen at level 3 (two blind players left) but raised; B then saw.
    assert (a["see_rate"], a["see_rate_n"], b["see_rate"], b["see_rate_n"]) == (0.0, 1, 1.0, 1)
    assert (a["raises"], a["raise_rate_n"], b["avg_bets_before_looking"]) == (1, 2, 2.0)
    assert (a["seen_win_rate"], b["payer_win_rate"]) == (1.0, 0.0)
    pd = _pd(con, "two-blind")
    assert pd[(1, "A")]["hand_category"] == "running flush"
    assert pd[(1, "B")]["hand_category"] == "pair"


# --- RULES 1.4, 1.5: the shared win ---------------------------------------------------------------


@needs_shared
def test_leaderboard_shared_win(con: duckdb.DuckDBPyConnection) -> None:
    rows = queries.leaderboard(con, session="eight")
    assert [(r["player"], r["net"], r["place"], r["winner"], r["shared_by"]) for r in rows] == [
        ("A", 0, 1, True, 2),
        ("B", 0, 1, True, 2),
    ]
    rows = queries.leaderboard(con, session="card-example")
    assert [(r["player"], r["place"], r["top"], r["winner"], r["shared_by"]) for r in rows] == [
        ("B", 1, True, False, 1),  # leads, but the session is not over (RULES 1.4)
        ("C", 2, False, False, None),  # shared_by only where the highest net is held
        ("D", 2, False, False, None),
        ("A", 4, False, False, None),
    ]
    overall = {r["player"]: r for r in queries.overall_leaderboard(con)}
    # "eight" is the only finished session A and B share: 1/2 each.
    assert overall["A"]["shared_wins"] >= 1
    eight = {r["player"]: r for r in queries.leaderboard(con, session="eight")}
    assert eight["A"]["winner"] and eight["B"]["winner"]


@needs_shared
def test_winners_agree_with_the_engine(con: duckdb.DuckDBPyConnection) -> None:
    engine = {
        (s, p): w
        for s, p, w in con.execute(
            "SELECT session, player, winner FROM session_players WHERE winner IS NOT NULL"
        ).fetchall()
    }
    sql = {(r["session"], r["player"]): r["winner"] for r in queries.leaderboard(con)}
    assert engine and all(sql[k] == v for k, v in engine.items())


@needs_shared
def test_showdown_hands_beside_rules_2_8(con: duckdb.DuckDBPyConnection) -> None:
    rows = queries.showdown_hands(con, session="card-example")
    by = {r["category"]: r for r in rows}
    assert [r["category"] for r in rows] == [
        "prial", "running flush", "run", "flush", "pair", "high card",
    ]  # fmt: skip
    assert {c: r["rules_hands"] for c, r in by.items()} == {
        "prial": 52, "running flush": 48, "run": 720, "flush": 1096, "pair": 3744,
        "high card": 16440,
    }  # fmt: skip
    assert (by["run"]["shown"], by["run"]["won"], by["flush"]["shown"], by["flush"]["won"]) == (
        1, 1, 1, 0,
    )  # fmt: skip
    assert by["run"]["shown_n"] == 2 and by["run"]["shown_share"] == 0.5
    assert by["prial"]["shown"] == 0 and by["prial"]["win_rate"] is None


@needs_shared
def test_pot_sizes_and_deal_lengths(con: duckdb.DuckDBPyConnection) -> None:
    pots = {r["kind"]: r for r in queries.pot_sizes(con, session="carry-simple")}
    assert (pots["carried"]["deals"], pots["carried"]["pot_mean"]) == (1, 4)
    assert (pots["uncontested"]["pot_max"], pots["uncontested"]["carried_in_mean"]) == (9, 4)
    assert (pots["all"]["deals"], pots["all"]["pot_mean"], pots["all"]["pot_min"]) == (
        2, Fraction(13, 2), 4,
    )  # fmt: skip
    lengths = {r["kind"]: r for r in queries.deal_lengths(con, session="carry-simple")}
    # Deal 1: A bets, B folds, C folds; deal 2: B bets, C folds, A bets, B folds.
    assert (lengths["carried"]["actions_max"], lengths["uncontested"]["actions_max"]) == (3, 4)
    assert lengths["all"]["actions_mean"] == 3.5
    half = {r["kind"]: r for r in queries.pot_sizes(con, session="keep-new")}
    assert half["showdown"]["pot_max"] == Fraction(33, 2)  # exact halves (RULES 1.2)


def test_nets_equal_verify_for_every_scenario(con: duckdb.DuckDBPyConnection) -> None:
    for path in VALID:
        state = fold(st.event for st in complete(read_file(path)))
        expected = summary(state)["nets"]
        den = state.scale
        got = {
            p: str(Fraction(n, den)).replace(" ", "")
            for p, n in con.execute(
                "SELECT player, net_t FROM session_players WHERE session = ?", [state.session]
            ).fetchall()
        }
        assert got == {p: str(Fraction(v)) for p, v in expected.items()}, path
        # Summed over ended deals, the facts give the same nets once no deal is open.
        if state.phase.value in ("between", "over"):
            rows = dict(
                con.execute(
                    "SELECT player, sum(net_t) FROM player_deals WHERE session = ? GROUP BY 1",
                    [state.session],
                ).fetchall()
            )
            assert {p: Fraction(int(v), den) for p, v in rows.items()} == state.nets, path


# --- the projector --------------------------------------------------------------------------------


def _tables(c: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    from analytics.parallel import PROJECTED_TABLES

    out = {}
    for t in PROJECTED_TABLES:
        out[t] = sorted(c.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
    out["checkpoint"] = c.execute("SELECT position, events FROM checkpoint").fetchall()
    return out


def _random_store(seed: int, sessions: int = 12, void_rate: float = 0.03) -> MemorySource:
    rng = random.Random(seed)
    streams = {
        f"r{seed}-{k}": random_session(
            rng,
            f"r{seed}-{k}",
            players=rng.randint(2, 6),
            cards=rng.choice(["all", "shown"]),
            pots=rng.randint(1, 4),
            ante=rng.choice([1, 1, Fraction(1, 3), 2]),
            blind_play=rng.random() < 0.85,
            void_rate=void_rate,
            max_events=None if rng.random() < 0.8 else rng.randint(5, 120),
        )
        for k in range(sessions)
    }
    return interleave(streams, seed=seed)


@pytest.mark.slow
def test_incremental_equals_rebuild_and_each_event_once() -> None:
    src = _random_store(7)
    one = analytics.tables.connect()
    analytics.projector.refresh(src, one, batch_size=100_000)
    # Small batches, a new projector (folders re-folded from the store) every few batches.
    two = analytics.tables.connect()
    while True:
        report = Projector(src, two, batch_size=17).refresh(max_batches=3)
        if report.events == 0:
            break
    assert _tables(one) == _tables(two)
    n = len(src.events)
    assert one.execute("SELECT count(*), count(DISTINCT position) FROM events").fetchall() == [
        (n, n)
    ]
    assert analytics.projector.refresh(src, two).events == 0  # nothing twice
    # The summary kept batch by batch equals one aggregation of all the facts.
    kept = _tables(two)["player_session_summary"]
    assert kept
    sessions = [r[0] for r in two.execute("SELECT DISTINCT session FROM player_deals").fetchall()]
    two.execute("DELETE FROM player_session_summary")
    two.execute(query("schema.sql", "insert_summary").sql, {"sessions": sessions})
    assert _tables(two)["player_session_summary"] == kept


def test_refresh_follows_appends_and_rebuild_matches() -> None:
    src = MemorySource()
    rng = random.Random(3)
    streams = {f"s{k}": random_session(rng, f"s{k}", players=3, pots=3) for k in range(4)}
    c = analytics.tables.connect()
    proj = Projector(src, c, batch_size=5)
    cursor = dict.fromkeys(streams, 0)
    while any(cursor[s] < len(streams[s]) for s in streams):
        for s, evs in streams.items():
            n = rng.randint(0, 9)
            src.append(s, evs[cursor[s] : cursor[s] + n], gap=rng.randint(0, 2))
            cursor[s] += n
        proj.refresh()
    fresh = analytics.tables.connect()
    analytics.projector.rebuild(src, fresh)
    assert _tables(c) == _tables(fresh)


def test_void_reopens_a_deal() -> None:
    from engine.apply import apply
    from engine.legal import can_void
    from engine.state import initial_state
    from events.model import Voided

    rng = random.Random(11)
    stream = random_session(rng, "v", players=2, pots=2)
    # Cut the stream right after the first pot_won, void its cause, then play on.
    k = next(i for i, e in enumerate(stream) if e.type == "pot_won")
    head = stream[: k + 1]
    state = initial_state()
    for e in head:
        state = apply(state, e)
    src = MemorySource()
    src.append("v", head)
    c = analytics.tables.connect()
    proj = Projector(src, c, batch_size=1000)
    proj.refresh()
    ended = len(state.outcomes)  # a carried deal before it, if any, is settled at the next deal
    assert c.execute("SELECT count(*) FROM deals").fetchall() == [(ended,)]
    void = Voided(seq=can_void(state) or 0)
    src.append("v", [void])
    proj.refresh()
    assert c.execute("SELECT count(*) FROM deals").fetchall() == [(ended - 1,)]
    gone = c.execute("SELECT count(*) FROM player_deals WHERE deal = ?", [ended]).fetchall()
    assert gone == [(0,)]
    fresh = analytics.tables.connect()
    analytics.projector.refresh(src, fresh)
    assert _tables(c) == _tables(fresh)


def test_folder_refuses_a_gap() -> None:
    folder = SessionFolder("x")
    from analytics.facts import ProjectionError, Rows
    from events.model import SessionStarted

    with pytest.raises(ProjectionError, match="seq 2"):
        folder.apply(1, 2, SessionStarted(session="x", seats=("A", "B"), cards="shown"), Rows())


def test_money_is_exact_for_thirds() -> None:
    rng = random.Random(5)
    stream = random_session(rng, "third", players=3, pots=3, ante=Fraction(1, 3))
    src = MemorySource()
    src.append("third", stream)
    c = analytics.tables.connect()
    analytics.projector.refresh(src, c)
    state = fold(stream)
    stats = {r["player"]: r["net"] for r in queries.player_stats(c)}
    assert stats == state.nets
    assert c.execute("SELECT DISTINCT den FROM player_deals").fetchall() == [(6,)]


@needs_shared
def test_schema_readonly_and_parquet(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    tables = {t["table"]: t for t in analytics.explore.schema(con)}
    assert {"events", "deals", "player_deals", "sessions"} <= set(tables)
    comments = {c["name"]: c["comment"] for c in tables["player_deals"]["columns"]}
    assert "RULES 5.1" in comments["first_action"]
    names, rows = analytics.explore.run_readonly(con, "SELECT count(*) AS n FROM deals")
    assert names == ["n"] and rows[0][0] == tables["deals"]["rows"]
    for bad in ("DELETE FROM deals", "SELECT 1; DROP TABLE deals", "CREATE TABLE x (a INT)"):
        with pytest.raises(analytics.explore.ReadOnlyError):
            analytics.explore.run_readonly(con, bad)
    report = analytics.lake.export_lake(con, str(tmp_path / "pq"))
    from analytics.lake import PARTITIONED

    for table in PARTITIONED:
        cols = ", ".join(f'"{c["name"]}"' for c in tables[table]["columns"])
        glob = f"{report.tables[table]}/**/*.parquet"
        back = duckdb.sql(
            f"SELECT {cols} FROM read_parquet('{glob}', hive_partitioning = true)"
        ).fetchall()
        assert sorted(back, key=repr) == sorted(
            con.execute(f"SELECT * FROM {table}").fetchall(), key=repr
        )
    pyarrow = pytest.importorskip("pyarrow.parquet")
    hc = pyarrow.read_table(f"{report.tables['hand_categories']}/data.parquet")
    assert hc.num_rows == 6  # RULES 2.8: six categories


# --- hand strength --------------------------------------------------------------------------------


def test_hand_strength_by_enumeration() -> None:
    rng = random.Random(2)
    hands = [(48, 49, 50), (4, 5, 6), (0, 4, 9), (0, 5, 10)]  # A-A-A, 3-3-3, 2-3-4 mixed, ...
    hands += [tuple(sorted(rng.sample(range(52), 3))) for _ in range(3)]
    keys = {h: strength_codes(*h) for h in combinations(range(52), 3)}
    ordered = sorted(keys.values())
    for h in hands:
        k = keys[h]
        rest = [g for g in keys if not set(g) & set(h)]
        assert len(rest) == OPPONENT_HANDS
        wins = sum(keys[g] < k for g in rest)
        ties = sum(keys[g] == k for g in rest)
        hs = hand_strength(*h)
        assert (hs.wins, hs.ties, hs.losses) == (wins, ties, OPPONENT_HANDS - wins - ties)
        assert hs.beats == sum(x < k for x in ordered)
    assert hand_strength(4, 5, 6).beats == ALL_HANDS - 4  # 3-3-3 beats all but its equals


def test_hand_categories_table_is_rules_2_8(con: duckdb.DuckDBPyConnection) -> None:
    rows = dict(con.execute("SELECT category, hands FROM hand_categories").fetchall())
    assert rows == {
        "prial": 52, "running flush": 48, "run": 720, "flush": 1096, "pair": 3744,
        "high card": 16440,
    }  # fmt: skip


# --- the command line -----------------------------------------------------------------------------


def test_arrow_and_list_inserts_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    import analytics.inserts as projector

    src = _random_store(9, sessions=6)
    lists = analytics.tables.connect()
    Projector(src, lists, arrow=False).refresh()
    monkeypatch.setattr(projector, "ARROW_MIN_ROWS", 0)
    arrow = analytics.tables.connect()
    Projector(src, arrow, batch_size=333, arrow=True).refresh()
    assert _tables(lists) == _tables(arrow)


def test_whole_hand_table_is_quick_and_counts_rules_2_8() -> None:
    import time
    from collections import Counter

    from analytics.strength import table

    start = time.perf_counter()
    hands = table()
    assert time.perf_counter() - start < 30
    assert len(hands) == ALL_HANDS
    assert Counter(h.category for h in hands) == {
        "prial": 52, "running flush": 48, "run": 720, "flush": 1096, "pair": 3744,
        "high card": 16440,
    }  # fmt: skip
    assert len({h.strength for h in hands}) == 741  # RULES 2.8: 741 distinct strengths
    assert all(h.wins + h.ties + h.losses == OPPONENT_HANDS for h in hands)
