"""The decision explorer (analytics.spots, brag decisions) against an independent recount.

The projection is built by the projector from random legal sessions (sim.randplay, corrections
among them) played by one pool of names, and from the shared scenarios. The reference below reads
the ``decisions`` rows and ``player_deals`` with plain SELECTs and filters, groups and sums in
Python, written apart from ``spots.sql``: every count, total, exact mean net and standard error,
and every drill-down list must agree exactly; each listed decision is checked against the stored
event it stands for. Intervals are checked against figures worked out by hand and a published
example (Newcombe 1998).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import duckdb
import pytest
from decision_explorer_helpers import NAMES, explorer_con  # noqa: F401 (the fixture con)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_paths import VALID_SCENARIOS, needs_shared

import analytics.projector
import analytics.tables
from analytics import spots
from analytics.sources import from_logs
from analytics.spots import Spot, SpotError, newcombe, wilson
from events.text import normal

MIN_DEALS = 5


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


# --- the reference ----------------------------------------------------------------------------


def _within(value: int | None, low: int | None, high: int | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def matches(d: dict[str, Any], spec: dict[str, Any]) -> bool:
    """The spot ``spec`` (plain bounds, written apart from Spot.params) holds for decision ``d``."""
    level = d["level"] or 0
    pot = Fraction(d["pot_t"], d["den"])
    return (
        _within(d["players_in"], *spec.get("players", (None, None)))
        and (spec.get("actor") is None or d["actor_seen"] == (spec["actor"] == "seen"))
        and _within(d["opponents_blind"], *spec.get("ob", (None, None)))
        and _within(d["opponents_seen"], *spec.get("os", (None, None)))
        and _within(level, *spec.get("level", (None, None)))
        and (spec.get("pot_lo") is None or pot >= spec["pot_lo"])
        and (spec.get("pot_hi") is None or pot < spec["pot_hi"])
        and (spec.get("hand") is None or d["hand_category"] == spec["hand"])
    )


def winners(con: duckdb.DuckDBPyConnection, min_deals: int = MIN_DEALS) -> set[str]:
    """Players with a total net above 0 over at least ``min_deals`` ended deals (from
    player_deals, not the summary the SQL reads)."""
    net: dict[str, Fraction] = defaultdict(Fraction)
    deals: dict[str, int] = defaultdict(int)
    for r in _rows(con, "SELECT player_key, net_t, den FROM player_deals"):
        net[r["player_key"]] += Fraction(r["net_t"], r["den"])
        deals[r["player_key"]] += 1
    return {p for p in net if net[p] > 0 and deals[p] >= min_deals}


def members(con: duckdb.DuckDBPyConnection, player: str | None) -> dict[str, Callable[[str], bool]]:
    pk = normal(player) if player else None
    won = winners(con) - {pk}
    out: dict[str, Callable[[str], bool]] = {
        "field": lambda k: k != pk,
        "winners": lambda k: k in won,
    }
    if pk is not None:
        out["player"] = lambda k: k == pk
    return out


SPOTS = [
    ("", {}),
    ("actor=seen", {"actor": "seen"}),
    ("actor=blind,opp_seen=0", {"actor": "blind", "os": (0, 0)}),
    ("players=2", {"players": (2, 2)}),
    ("players=3+,opp_blind=1-2", {"players": (3, None), "ob": (1, 2)}),
    ("level=0", {"level": (0, 0)}),
    ("level=3-5,actor=seen", {"level": (3, 5), "actor": "seen"}),
    ("pot=10-20", {"pot_lo": Fraction(10), "pot_hi": Fraction(20)}),
    ("pot=5/2-15/2", {"pot_lo": Fraction(5, 2), "pot_hi": Fraction(15, 2)}),
    ("pot=20+,opp_seen=1+", {"pot_lo": Fraction(20), "os": (1, None)}),
    ("hand=pair", {"hand": "pair"}),
    ("hand=high card,actor=seen", {"hand": "high card", "actor": "seen"}),
]


@pytest.mark.parametrize(("text", "spec"), SPOTS)
@pytest.mark.parametrize("player", [None, "Ann", "cat"])
def test_counts_means_and_drill_down_equal_a_recount(
    con: duckdb.DuckDBPyConnection, text: str, spec: dict[str, Any], player: str | None
) -> None:
    every = _rows(con, "SELECT * FROM decisions")
    picked = [d for d in every if matches(d, spec)]
    answer = spots.explore(con, Spot.parse(text), player, min_deals=MIN_DEALS)
    groups = members(con, player)
    assert list(answer.totals) == [g for g in spots.GROUPS if g in groups]
    events = {(r["session"], r["seq"]): r for r in _rows(con, "SELECT * FROM events")}
    voided = {(r["session"], r["voids_seq"]) for r in events.values() if r["type"] == "voided"}
    for g, member in groups.items():
        mine = [d for d in picked if member(d["player_key"])]
        assert answer.totals[g] == len(mine)
        # the denominator's decisions, then each action's (the numerators)
        listed = spots.behind(con, Spot.parse(text), g, None, player, min_deals=MIN_DEALS)
        assert [(r["session"], r["seq"]) for r in listed] == sorted(
            (d["session"], d["seq"]) for d in mine
        )
        for r in listed:  # each decision is the stored event it stands for, in force
            ev = events[(r["session"], r["seq"])]
            assert ev["type"] == _EVENT_OF[r["action"]] and ev["player"] == r["player"]
            assert ev["deal"] == r["deal"] and (r["session"], r["seq"]) not in voided
        for action in spots.ACTIONS:
            hits = [d for d in mine if d["action"] == action]
            cell = answer.cell(g, action)
            if cell is None:
                assert not any(d["action"] == action for d in picked)
                continue
            assert (cell.count, cell.total) == (len(hits), len(mine))
            behind = spots.behind(con, Spot.parse(text), g, action, player, min_deals=MIN_DEALS)
            assert sorted((r["session"], r["deal"], r["step"], r["seq"]) for r in behind) == sorted(
                (d["session"], d["deal"], d["step"], d["seq"]) for d in hits
            )
            nets = [Fraction(d["net_t"], d["den"]) for d in hits]
            ordered = sorted(hits, key=lambda d: (d["session"], d["deal"], d["seq"]))
            assert [r["net"] for r in behind] == [Fraction(d["net_t"], d["den"]) for d in ordered]
            if not hits:
                assert cell.net_mean is None and cell.share == 0
                continue
            assert cell.net_mean == sum(nets, Fraction(0)) / len(nets)
            if len(nets) >= 2:
                sd = statistics.stdev(float(x) for x in nets)
                assert cell.net_se == pytest.approx(sd / math.sqrt(len(nets)), rel=1e-9, abs=1e-12)
            else:
                assert cell.net_se is None
            assert cell.share == len(hits) / len(mine)
            assert (cell.low, cell.high) == wilson(len(hits), len(mine))


_EVENT_OF = {
    "look": "looked",
    "bet": "bet",
    "see": "saw",
    "fold": "folded",
    "concede": "conceded",
    "retain": "retained",
    "keep": "kept",
    "throw": "thrown",
}


def test_the_fixture_has_what_the_tests_need(con: duckdb.DuckDBPyConnection) -> None:
    """Several actions, winners and non-winners, hand categories known and unknown."""
    every = _rows(con, "SELECT action, hand_category, level FROM decisions")
    assert {"look", "bet", "see", "fold"} <= {d["action"] for d in every}
    assert any(d["hand_category"] is None for d in every)
    assert any(d["hand_category"] == "pair" for d in every)
    assert any(d["level"] is None for d in every)
    won = winners(con)
    assert 0 < len(won) < len(NAMES)
    assert set(spots.winning_players(con, min_deals=MIN_DEALS)) == won


@needs_shared
@pytest.mark.slow
def test_scenarios_drill_down_lists_each_cell(tmp_path: Any) -> None:
    """Every shared scenario: each cell of every decision's own spot (players in, actor, the
    opponents) lists exactly the decisions counted."""
    c = analytics.tables.connect()
    analytics.projector.refresh(from_logs(VALID_SCENARIOS), c, batch_size=50)
    every = _rows(c, "SELECT * FROM decisions")
    assert every
    seen = set()
    for d in every:
        text = (
            f"players={d['players_in']},actor={'seen' if d['actor_seen'] else 'blind'},"
            f"opp_blind={d['opponents_blind']},opp_seen={d['opponents_seen']}"
        )
        if text in seen:
            continue
        seen.add(text)
        spot = Spot.parse(text)
        answer = spots.explore(c, spot, min_deals=1)
        same = [
            e
            for e in every
            if (e["players_in"], e["actor_seen"], e["opponents_blind"], e["opponents_seen"])
            == (d["players_in"], d["actor_seen"], d["opponents_blind"], d["opponents_seen"])
        ]
        assert answer.totals["field"] == len(same)
        for cell in (x for x in answer.cells if x.group == "field"):
            rows = spots.behind(c, spot, "field", cell.action, min_deals=1)
            assert len(rows) == cell.count
            assert {(r["session"], r["seq"]) for r in rows} == {
                (e["session"], e["seq"]) for e in same if e["action"] == cell.action
            }


def _range(lo: int | None, width: int | None) -> tuple[str, tuple[int | None, int | None]]:
    if lo is None:
        return "", (None, None)
    if width is None:
        return f"{lo}+", (lo, None)
    return (f"{lo}" if width == 0 else f"{lo}-{lo + width}"), (lo, lo + width)


small = st.one_of(st.none(), st.integers(0, 4))
widths = st.one_of(st.none(), st.integers(0, 3))
pots = st.tuples(
    st.fractions(0, 40, max_denominator=6),
    st.one_of(st.none(), st.fractions(1, 30, max_denominator=3)),
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actor=st.sampled_from([None, "blind", "seen"]),
    players=st.tuples(st.one_of(st.none(), st.integers(2, 6)), widths),
    ob=st.tuples(small, widths),
    os_=st.tuples(small, widths),
    level=st.tuples(st.one_of(st.none(), st.integers(0, 8)), widths),
    pot=st.one_of(st.none(), pots),
    hand=st.sampled_from([None, "high card", "pair", "flush", "run"]),
    player=st.sampled_from([None, "Ann", "fay"]),
)
def test_any_spot_counts_and_lists_what_a_recount_finds(
    con: duckdb.DuckDBPyConnection,
    actor: str | None,
    players: tuple[int | None, int | None],
    ob: tuple[int | None, int | None],
    os_: tuple[int | None, int | None],
    level: tuple[int | None, int | None],
    pot: tuple[Fraction, Fraction | None] | None,
    hand: str | None,
    player: str | None,
) -> None:
    """Random spots (fractional pot edges among them): the counts and every cell's drill-down
    equal the recount."""
    parts, spec = [], {}
    ranges = (("players", "players", players), ("opp_blind", "ob", ob),
              ("opp_seen", "os", os_), ("level", "level", level))  # fmt: skip
    for name, key_, (lo, width) in ranges:
        text, bounds = _range(lo, width)
        if text:
            parts.append(f"{name}={text}")
            spec[key_] = bounds
    if actor:
        parts.append(f"actor={actor}")
        spec["actor"] = actor
    if pot is not None:
        low, width = pot
        high = None if width is None else low + width
        parts.append(f"pot={low}+" if high is None else f"pot={low}-{high}")
        spec["pot_lo"], spec["pot_hi"] = low, high
    if hand:
        parts.append(f"hand={hand}")
        spec["hand"] = hand
    spot = Spot.parse(",".join(parts))
    picked = [d for d in _rows(con, "SELECT * FROM decisions") if matches(d, spec)]
    answer = spots.explore(con, spot, player, min_deals=MIN_DEALS)
    for g, member in members(con, player).items():
        mine = [d for d in picked if member(d["player_key"])]
        assert answer.totals[g] == len(mine)
        for action in (None, *answer.actions()):
            hits = [d for d in mine if action is None or d["action"] == action]
            listed = spots.behind(con, spot, g, action, player, min_deals=MIN_DEALS)
            assert [(r["session"], r["deal"], r["step"]) for r in listed] == sorted(
                (d["session"], d["deal"], d["step"]) for d in hits
            )
            if action is not None:
                cell = answer.cell(g, action)
                assert cell is not None and cell.count == len(hits)


GRID = ["", "actor=seen", "opp_blind=1,opp_seen=0", "opp_blind=3+", "players=7+,level=11+",
        "level=0", "level=3-5,pot=10-20", "level=1-10,pot=20+", "hand=pair,actor=blind",
        "players=2-4,opp_seen=1-2,level=6-10,pot=0-40"]  # fmt: skip
OFF_GRID = ["level=4", "pot=5/2-15/2", "opp_blind=3", "players=7", "level=2-5", "pot=10-30"]


@pytest.mark.parametrize("text", GRID + OFF_GRID)
@pytest.mark.parametrize(("player", "table", "cards"), [(None, None, None), ("Ann", None, "all")])
def test_the_cube_answers_as_the_decisions(
    con: duckdb.DuckDBPyConnection,
    cube: spots.Cube,
    text: str,
    player: str | None,
    table: str | None,
    cards: str | None,
) -> None:
    spot = Spot.parse(text)
    assert (cube.params(spot) is None) == (text in OFF_GRID)
    kw: dict[str, Any] = {"table": table, "cards": cards, "min_deals": MIN_DEALS}
    assert spots.explore(con, spot, player, cube=cube, **kw) == spots.explore(con, spot, player,
                                                                              **kw)  # fmt: skip
    assert spots.winning_players(con, cube=cube, **kw) == spots.winning_players(con, **kw)
    listed = spots.behind(con, spot, "winners", None, player, cube=cube, **kw)
    assert listed == spots.behind(con, spot, "winners", None, player, **kw)


def test_the_cube_answers_as_the_decisions_for_one_table() -> None:
    """Season sessions at two tables, cards all and shown: the scope's filters agree too."""
    from pathlib import Path

    season = sorted(
        str(p) for p in (Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl")
    )
    c = analytics.tables.connect()
    analytics.projector.refresh(from_logs(season[:4]), c, batch_size=500)
    tables = {r[0] for r in c.execute("SELECT table_name FROM sessions").fetchall()}
    assert {"Top table", "Window table"} <= tables
    cube = spots.Cube(c)
    for text in ("", "actor=seen,level=3-5", "opp_blind=1,pot=10-20", "hand=pair"):
        for table, cards in (("Top table", None), ("window TABLE", "shown"), (None, "all")):
            kw: dict[str, Any] = {"table": table, "cards": cards, "min_deals": 10}
            spot = Spot.parse(text)
            answer = spots.explore(c, spot, "Sandra", cube=cube, **kw)
            assert answer == spots.explore(c, spot, "Sandra", **kw)
            assert spots.winning_players(c, cube=cube, **kw) == spots.winning_players(c, **kw)
    assert (
        spots.explore(c, Spot(), table="Top table", min_deals=10, cube=cube).totals["field"]
        == (
            c.execute(
                "SELECT count(*) FROM decisions d JOIN sessions s USING (session)"
                " WHERE s.table_name = 'Top table'"
            ).fetchone()[0]  # type: ignore[index]
        )
    )


@pytest.fixture(scope="module")
def cube(con: duckdb.DuckDBPyConnection) -> spots.Cube:
    return spots.Cube(con)


# --- intervals --------------------------------------------------------------------------------


def test_wilson_by_hand() -> None:
    # 3 of 10: p = 0.3, z = 1.96: centre (0.3 + 0.19208) / 1.38415 = 0.355598; half-width
    # 1.96 / 1.38415 * sqrt(0.021 + 0.0096040) = 0.247737 -> 0.1079 to 0.6033.
    lo, hi = wilson(3, 10)
    assert (lo, hi) == pytest.approx((0.10779, 0.60322), abs=1e-4)
    # 0 of 5: the lower bound is 0, the upper z^2 / (n + z^2) = 3.8415 / 8.8415 = 0.43448
    assert wilson(0, 5) == pytest.approx((0.0, 0.43448), abs=1e-4)
    assert wilson(5, 5) == pytest.approx((1 - 0.43448, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(4, 3)


def test_newcombe_published_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17, 873-890, table II example (a): 56/70 vs 48/80,
    # method 10 (hybrid score): 0.0524 to 0.3339.
    d, lo, hi = newcombe(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert (lo, hi) == pytest.approx((0.0524, 0.3339), abs=1e-4)


# --- the spot's text --------------------------------------------------------------------------


def test_spot_text_round_trips_and_binds() -> None:
    spot = Spot.parse(" actor=seen , opp_blind=1, level=3-5, pot=5/2-10, hand=running_flush ")
    assert str(spot) == "actor=seen,opp_blind=1,level=3-5,pot=5/2-10,hand=running flush"
    assert Spot.parse(str(spot)) == spot
    p = spot.params()
    assert (p["ob_lo"], p["ob_hi"], p["level_lo"], p["level_hi"]) == (1, 1, 3, 5)
    assert (p["pot_lo_num"], p["pot_lo_den"], p["pot_hi_num"], p["pot_hi_den"]) == (5, 2, 10, 1)
    assert p["actor_seen"] is True and p["players_lo"] is None and p["hand"] == "running flush"
    assert Spot.parse("pot=2.5+").pot == Spot.parse("pot=5/2+").pot
    assert Spot.parse("any") == Spot.parse("") == Spot.parse("actor=any")
    assert Spot.parse("level=0").words() == "no bet yet"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("actor=sen", "blind or seen"),
        ("pot=4", "a pot is a band"),
        ("level=2.5", "whole number"),
        ("level=5-3", "below its start"),
        ("opp=1", "keys: players"),
        ("hand=straight", "one of prial"),
        ("level=1,level=2", "given twice"),
        ("players=x", "not a number"),
    ],
)
def test_spot_text_refused_in_one_line(text: str, says: str) -> None:
    with pytest.raises(SpotError) as err:
        Spot.parse(text)
    assert says in str(err.value) and "\n" not in str(err.value)


# --- biggest differences ----------------------------------------------------------------------


def test_differences_recomputed(con: duckdb.DuckDBPyConnection) -> None:
    found = spots.differences(con, "Ann", min_deals=MIN_DEALS, top=None)
    assert found
    ann = normal("Ann")
    won = winners(con) - {ann}
    every = _rows(con, "SELECT * FROM decisions")
    mine_all = sum(1 for d in every if d["player_key"] == ann)
    scores = [f.score for f in found]
    assert scores == sorted(scores, reverse=True)
    for f in found:
        spec = {
            "actor": f.spot.actor,
            "ob": f.spot.opp_blind.bounds() if f.spot.opp_blind else (None, None),
            "os": f.spot.opp_seen.bounds() if f.spot.opp_seen else (None, None),
            "level": f.spot.level.bounds() if f.spot.level else (None, None),
            "pot_lo": f.spot.pot.low if f.spot.pot else None,
            "pot_hi": f.spot.pot.high if f.spot.pot else None,
        }
        here = [d for d in every if matches(d, spec)]
        mine = [d for d in here if d["player_key"] == ann]
        theirs = [d for d in here if d["player_key"] in won]
        assert (f.player_total, f.winners_total) == (len(mine), len(theirs))
        k_p = sum(d["action"] == f.action for d in mine)
        k_w = sum(d["action"] == f.action for d in theirs)
        assert (f.player_count, f.winners_count) == (k_p, k_w)
        _, lo, hi = newcombe(k_p, len(mine), k_w, len(theirs))
        w = len(mine) / mine_all
        assert f.weight == pytest.approx(w)
        assert f.score == pytest.approx(100 * w * max(lo, -hi, 0.0))
        # the action listed has the spot's highest score
        for a in {x["action"] for x in mine} | {x["action"] for x in theirs}:
            _, lo_a, hi_a = newcombe(
                sum(x["action"] == a for x in mine), len(mine),
                sum(x["action"] == a for x in theirs), len(theirs),
            )  # fmt: skip
            assert 100 * w * max(lo_a, -hi_a, 0.0) <= f.score + 1e-12
