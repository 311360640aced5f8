"""The statistics' date filter (issue 36 item 8, ``dates`` of :mod:`analytics.queries`): over
the whole bundled season projected once, the figures of a date range equal those of a projection
of only the sessions started in that range, and the nets equal the engine's fold of those logs.
The luck-adjusted figures are the exception: a session's luck terms read its players' earlier
sessions (analytics/priors.py), in the range or not, so they are compared apart."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from pathlib import Path

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics import queries
from analytics.sources import from_logs
from engine.fold import fold
from events.codec import read_file

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
RANGES = [
    (date(2026, 10, 8), date(2026, 10, 16)),  # four nights, two rooms
    (date(2026, 9, 25), date(2026, 9, 25)),  # one night
    (date(2026, 11, 19), date(2026, 12, 31)),  # the last two nights, past the season's end
]


def _projected(paths: list[Path]) -> duckdb.DuckDBPyConnection:
    con = analytics.tables.connect()
    analytics.projector.refresh(from_logs([str(p) for p in paths]), con)
    return con


@pytest.fixture(scope="module")
def whole() -> duckdb.DuckDBPyConnection:
    return _projected(SEASON)


def _no_luck(rows: list[dict]) -> list[dict]:
    """``rows`` without the figures the luck term makes (docs/luck.md)."""
    return [{k: v for k, v in r.items() if "luck" not in k and "adjusted" not in k} for r in rows]


def _within(dates: tuple[date, date]) -> list[Path]:
    """The season's logs whose session_started.at falls in ``dates`` (its own offset)."""
    out = []
    for path in SEASON:
        head = next(e for _, e in read_file(str(path)))
        assert head.at is not None
        if dates[0] <= head.at.date() <= dates[1]:
            out.append(path)
    return out


@pytest.mark.parametrize("dates", RANGES)
def test_a_date_range_equals_a_projection_of_its_sessions_alone(
    whole: duckdb.DuckDBPyConnection, dates: tuple[date, date]
) -> None:
    paths = _within(dates)
    assert 0 < len(paths) < len(SEASON)
    alone = _projected(paths)
    got = queries.player_stats(whole, dates=dates)
    assert _no_luck(got) == _no_luck(queries.player_stats(alone))
    assert got != queries.player_stats(whole)
    nets: dict[str, Fraction] = {}
    for path in paths:
        for p, v in fold([e for _, e in read_file(str(path))]).nets.items():
            nets[p] = nets.get(p, Fraction(0)) + v
    assert {r["player"]: r["net"] for r in got} == nets
    assert {r["player"]: r["sessions"] for r in got} == {
        p: sum(1 for path in paths if p in fold([e for _, e in read_file(str(path))]).nets)
        for p in nets
    }
    for r in got:
        p = r["player"]
        assert queries.showdown_hands(whole, player=p, dates=dates) == queries.showdown_hands(
            alone, player=p
        )
        filtered = queries.session_nets(whole, p, dates=dates)
        assert filtered == queries.session_nets(alone, p)
        assert sum((x["net"] for x in filtered), Fraction(0)) == nets[p]
        for statistic in ("net", "see_rate"):
            assert queries.deals_behind_total(
                whole, p, statistic, dates=dates
            ) == queries.deals_behind_total(alone, p, statistic)
            assert queries.deals_behind(whole, p, statistic, dates=dates) == queries.deals_behind(
                alone, p, statistic
            )
    assert queries.decisions(whole, dates=dates) == queries.decisions(alone)


def test_a_table_and_dates_together(whole: duckdb.DuckDBPyConnection) -> None:
    dates = (date(2026, 10, 1), date(2026, 10, 31))
    paths = [p for p in _within(dates) if "-top-" in p.name]
    got = queries.player_stats(whole, table="Top table", dates=dates)
    assert _no_luck(got) == _no_luck(queries.player_stats(_projected(paths)))


def test_no_session_in_the_dates_no_rows(whole: duckdb.DuckDBPyConnection) -> None:
    assert queries.player_stats(whole, dates=(date(2027, 1, 1), date(2027, 1, 31))) == []
    assert queries.dated(None) == {"date_from": None, "date_to": None}
