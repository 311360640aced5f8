"""The season (issue 36 item 7, :mod:`service.season`): on the bundled season every formula's
scores equal a recomputation here from the engine's fold of each log file, grouped by date (an
independent path: no store, no night); ties share places; a season is provisional while a night
is; a correction (:mod:`service.amend`) republishes the standings on the next read through the
cache, which folds nothing while the log has not moved."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from amend_helpers import withdraw_last
from hypothesis import given
from hypothesis import strategies as st

from engine.fold import fold
from events.codec import read_file
from events.model import Rules, SessionStarted
from log.open import open_store
from log.register import merge, seated_of
from log.service import EventStore
from service.night_facts import finalise, reopen
from service.report import rules_name
from service.season import (
    POINTS,
    Best,
    NightResult,
    Points,
    SeasonCache,
    SeasonRefused,
    Total,
    night_points,
    parse_formula,
    rank,
    season_of,
    season_state,
    term_of,
    terms_between,
)

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
ALL = (date(2026, 9, 1), date(2026, 12, 31))


@pytest.fixture(scope="module")
def season() -> Iterator[EventStore]:
    """Every bundled season log in one in-memory store."""
    with open_store("memory://") as s:
        for path in SEASON:
            s.import_log(str(path))
        yield s


def _nights(first: date = ALL[0], last: date = ALL[1]) -> list[dict[str, Fraction]]:
    """Each date's nets (player -> sum over that date's logs), oldest date first, from the
    engine's fold of each log file."""
    out: dict[date, dict[str, Fraction]] = defaultdict(dict)
    for path in SEASON:
        events = [e for _, e in read_file(str(path))]
        head = events[0]
        assert isinstance(head, SessionStarted) and head.at is not None
        if not first <= head.at.date() <= last:
            continue
        day = out[head.at.date()]
        for p, net in fold(events).nets.items():
            day[p] = day.get(p, Fraction(0)) + net
    return [out[d] for d in sorted(out)]


def _points_of(nets: dict[str, Fraction], table: tuple[int, ...]) -> dict[str, Fraction]:
    """Points by place, counted per player: the places above (higher nets) and those level."""
    out = {}
    for p, v in nets.items():
        above = sum(1 for w in nets.values() if w > v)
        level = sum(1 for w in nets.values() if w == v)
        share = sum(table[k] if k < len(table) else 0 for k in range(above, above + level))
        out[p] = Fraction(share, level)
    return out


def _expected(nights: list[dict[str, Fraction]], formula: str) -> dict[str, Fraction]:
    players = {p for n in nights for p in n}
    if formula == "total":
        return {p: sum((n.get(p, Fraction(0)) for n in nights), Fraction(0)) for p in players}
    if formula.startswith("best"):
        _, n, m = formula.split(":")
        last = nights[-int(m) :]
        return {
            p: sum(sorted((x[p] for x in last if p in x), reverse=True)[: int(n)], Fraction(0))
            for p in players
        }
    table = POINTS if formula == "points" else tuple(int(x) for x in formula[7:].split("-"))
    got = {p: Fraction(0) for p in players}
    for night in nights:
        for p, pts in _points_of(night, table).items():
            got[p] += pts
    return got


@pytest.mark.parametrize("formula", ["total", "best:3:5", "best:4:17", "points", "points:3-2-1"])
def test_each_formula_equals_the_fold_per_night(season: EventStore, formula: str) -> None:
    nights = _nights()
    assert len(nights) == 17
    got = season_of(season, *ALL, [parse_formula(formula), Total()])
    assert len(got.nights) == 17 and [r.formula for r in got.rankings] == [formula, "total"]
    expected = _expected(nights, formula)
    rows = got.rankings[0].standings
    assert {r.player: r.score for r in rows} == expected
    totals = _expected(nights, "total")
    assert {r.player: r.net for r in rows} == totals
    assert {r.player: r.nights for r in rows} == {
        p: sum(1 for n in nights if p in n) for p in expected
    }
    keys = [(-r.score, -r.net, r.nights) for r in rows]
    assert keys == sorted(keys)
    assert sum(r.net for r in rows) == 0  # RULES 1.5: every pot of a finished night was won
    assert got.rules == (rules_name(Rules()),)  # the bundled logs record no rules: the card's
    assert got.position == season.last_position() and got.state == "provisional"


def test_a_date_range_keeps_only_its_nights(season: EventStore) -> None:
    first, last = date(2026, 10, 8), date(2026, 10, 16)
    nights = _nights(first, last)
    got = season_of(season, first, last, [Points()])
    assert [n.day for n in got.nights] == [
        date(2026, 10, 8), date(2026, 10, 9), date(2026, 10, 15), date(2026, 10, 16)
    ]  # fmt: skip
    assert {r.player: r.score for r in got.rankings[0].standings} == _expected(nights, "points")


def test_points_of_equal_nets_share_their_places_exactly() -> None:
    nets = {
        "Ann": Fraction(7, 2),
        "Bob": Fraction(7, 2),
        "Cy": Fraction(7, 2),
        "Di": Fraction(-21, 2),
    }
    got = night_points(nets, POINTS)
    assert got == {p: Fraction(10 + 8 + 6, 3) for p in ("Ann", "Bob", "Cy")} | {"Di": Fraction(5)}
    assert night_points({"A": Fraction(0)}, (3, 2, 1)) == _points_of({"A": Fraction(0)}, (3, 2, 1))
    many = {str(k): Fraction(-k) for k in range(10)}  # places past the table earn 0
    assert night_points(many, (3, 2, 1))["9"] == 0 and night_points(many, (3, 2, 1))["0"] == 3


def test_tie_breakers_net_then_fewer_nights_then_a_shared_place() -> None:
    f = Fraction
    nights = [
        NightResult(
            date(2026, 1, 1), {"Ann": f(4), "Bob": f(4), "Cy": f(-4), "Di": f(-4)}, "final"
        ),
        NightResult(date(2026, 1, 2), {"Ann": f(1), "Bob": f(-1), "Eve": f(0)}, "final"),
        NightResult(date(2026, 1, 3), {"Cy": f(2), "Di": f(2), "Eve": f(-4)}, "final"),
    ]
    got = rank(nights, Best(1))  # best one night: Ann 4, Bob 4, Cy 2, Di 2, Eve 0
    rows = [(r.player, r.place, r.score, r.net, r.nights) for r in got.standings]
    assert rows == [
        ("Ann", 1, f(4), f(5), 2),  # Ann and Bob: same score, Ann's net is higher
        ("Bob", 2, f(4), f(3), 2),
        ("Cy", 3, f(2), f(-2), 2),  # Cy and Di equal on score, net and nights: one place
        ("Di", 3, f(2), f(-2), 2),
        ("Eve", 5, f(0), f(-4), 2),
    ]
    fewer = [
        NightResult(date(2026, 1, 1), {"Ann": f(3), "Bob": f(3), "Cy": f(-6)}, "final"),
        NightResult(date(2026, 1, 2), {"Bob": f(0), "Cy": f(0)}, "final"),
    ]
    rows2 = [(r.player, r.place) for r in rank(fewer, Total()).standings]
    assert rows2 == [("Ann", 1), ("Bob", 2), ("Cy", 3)]  # Ann: the same net in fewer nights


def test_best_of_the_last_m_counts_a_missed_night_as_no_result() -> None:
    f = Fraction
    nights = [
        NightResult(date(2026, 1, 1), {"Ann": f(50), "Bob": f(-50)}, "final"),
        NightResult(date(2026, 1, 2), {"Ann": f(-3), "Bob": f(3)}, "final"),
        NightResult(date(2026, 1, 3), {"Bob": f(-2), "Cy": f(2)}, "final"),
    ]
    got = {r.player: r.score for r in rank(nights, Best(2, 2)).standings}
    assert got == {"Ann": f(-3), "Bob": f(1), "Cy": f(2)}  # Ann's 50 is before the last 2
    assert {r.player: r.score for r in rank(nights, Best(2)).standings}["Ann"] == 47


def test_provisional_while_any_night_is() -> None:
    f = Fraction
    final = NightResult(date(2026, 1, 1), {"Ann": f(1), "Bob": f(-1)}, "final")
    going = NightResult(date(2026, 1, 2), {"Ann": f(1), "Bob": f(-1)}, "provisional")
    assert season_state([final, final]) == "final"
    assert season_state([final, going]) == "provisional"


def test_a_session_in_progress_keeps_its_season_provisional(store: EventStore) -> None:
    events = [e for _, e in read_file(str(SEASON[0]))]
    store.append("2026-09-24-top-1", events[:40], 0)  # the first 40 events: the session is not over
    day = events[0].at.date() if events[0].at else date.today()
    got = season_of(store, day, day, [Total()])
    assert got.state == "provisional"
    assert {r.player: r.net for r in got.rankings[0].standings} == dict(fold(events[:40]).nets)


def test_formulas_parse_and_refuse_in_one_line() -> None:
    assert parse_formula("best:3:5") == parse_formula("Best 3 of 5") == Best(3, 5)
    assert parse_formula(" points:12-10-8 ").name == "points:12-10-8"
    assert parse_formula("best 2") == Best(2) and parse_formula("TOTAL") == Total()
    for bad in ("median", "best:0", "best:5:3", "points:1-2-3", "best:3:x"):
        with pytest.raises(SeasonRefused, match="formula"):
            parse_formula(bad)


def test_no_session_in_the_dates_is_refused(season: EventStore) -> None:
    with pytest.raises(SeasonRefused, match="no session started from 2027-01-01"):
        season_of(season, date(2027, 1, 1), date(2027, 2, 1))
    with pytest.raises(SeasonRefused, match="after its last"):
        season_of(season, date(2026, 12, 1), date(2026, 9, 1))


def test_a_correction_republishes_the_season_on_the_next_read(first_night: EventStore) -> None:
    store = first_night
    day = date(2026, 9, 24)
    cache = SeasonCache()
    before = cache.season(store, day, day, [Total(), Points()])
    assert cache.season(store, day, day, [Total(), Points()]) == before and cache.folded == 1

    session = "2026-09-24-top-2"
    withdraw_last(store, session, datetime(2026, 9, 25, 9, 0, tzinfo=UTC))

    after = cache.season(store, day, day, [Total(), Points()])
    assert cache.folded == 2 and after.position > before.position
    nets: dict[str, Fraction] = {}
    for s in ("2026-09-24-top-1", "2026-09-24-window-1", session, "2026-09-24-top-3"):
        for p, v in store.state(s).nets.items():  # the corrected session: its pot withdrawn
            nets[p] = nets.get(p, Fraction(0)) + v
    assert {r.player: r.score for r in after.rankings[0].standings} == nets
    assert after.rankings[0].standings != before.rankings[0].standings
    assert {r.player: r.score for r in after.rankings[1].standings} == _points_of(nets, POINTS)


def test_a_merge_in_the_register_republishes_too(first_night: EventStore) -> None:
    store = first_night
    day = date(2026, 9, 24)
    cache = SeasonCache()
    before = {r.player for r in cache.season(store, day, day).rankings[0].standings}
    assert "Gary" in before and "Keith" in before  # never seated together that night
    merge(store, "Keith", "Gary", seated_of(store), by="organiser")
    after = {r.player for r in cache.season(store, day, day).rankings[0].standings}
    assert after == before - {"Keith"} and cache.folded == 2


def test_named_seasons_are_the_clubs_terms() -> None:
    got = terms_between(date(2026, 3, 5), date(2027, 1, 2))
    assert [(t.name, t.start, t.end) for t in got] == [
        ("Spring 2027", date(2027, 1, 1), date(2027, 4, 30)),
        ("Autumn 2026", date(2026, 9, 1), date(2026, 12, 31)),
        ("Summer 2026", date(2026, 5, 1), date(2026, 8, 31)),
        ("Spring 2026", date(2026, 1, 1), date(2026, 4, 30)),
    ]
    assert term_of(date(2028, 2, 29)).name == "Spring 2028"
    for t in got:  # every date of a term is in that term
        assert term_of(t.start) == term_of(t.end) == t


def test_after_a_correction_only_its_night_is_folded_again(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        for path in SEASON[:8]:  # 2026-09-24 and 2026-09-25
            store.import_log(str(path))
        first, last = date(2026, 9, 24), date(2026, 9, 25)
        cache = SeasonCache()
        before = cache.season(store, first, last)
        session = "2026-09-25-back-2"
        withdraw_last(store, session, datetime(2026, 9, 26, 9, 0, tzinfo=UTC))
        after = cache.season(store, first, last)
        assert after.nights[0] is before.nights[0]  # the 24th: kept, not folded again
        assert after.nights[1] is not before.nights[1] and after.nights[1] != before.nights[1]
        assert after.nights == season_of(store, first, last).nights  # as made without a memo


@given(
    st.dictionaries(
        st.sampled_from(["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]),
        st.integers(-3, 3).map(lambda k: Fraction(k, 2)),
        min_size=1,
    ),
    st.lists(st.integers(0, 12), min_size=1, max_size=10).map(
        lambda xs: tuple(sorted(xs, reverse=True))
    ),
)
def test_a_nights_points_give_out_its_places_exactly(
    nets: dict[str, Fraction], table: tuple[int, ...]
) -> None:
    got = night_points(nets, table)
    assert got == _points_of(nets, table)
    assert sum(got.values()) == sum(table[: len(nets)])  # every place's points, no more
    for a in nets:
        for b in nets:
            if nets[a] > nets[b]:
                assert got[a] >= got[b]
            if nets[a] == nets[b]:
                assert got[a] == got[b]


def test_a_night_finalised_makes_the_season_final_on_the_next_read(
    first_night: EventStore,
) -> None:
    day = date(2026, 9, 24)
    cache = SeasonCache()
    assert cache.season(first_night, day, day).state == "provisional"
    position = first_night.last_position()
    finalise(first_night, day, by="director")  # a fact beside the log: no event appended
    assert first_night.last_position() == position
    final = cache.season(first_night, day, day)
    assert final.state == "final" and final.nights[0].state == "final" and cache.folded == 2
    reopen(first_night, day, by="director", reason="a late flag")
    assert cache.season(first_night, day, day).state == "provisional"
