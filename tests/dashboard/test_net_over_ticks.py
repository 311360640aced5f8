"""The Players page's net over time summed in ticks (``net_over_ticks``) draws the same points
as from exact Fractions (``net_over_sessions``): sessions in the order they started (untimed
last), each player's running net, exact until divided once to draw (RULES 5: nets in stake
units)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction

from dashboard.stats.tables import net_over_sessions, net_over_ticks, session_labels

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _micros(day: int) -> int:
    return (datetime(2026, 10, day, 19, tzinfo=UTC) - _EPOCH) // timedelta(microseconds=1)


def test_ticks_give_the_fractions_points() -> None:
    """Two players, sessions of two dens (an ante of 1: den 2; an ante of 1/3: den 6), one
    session without a time (listed last): the running nets are the exact sums."""
    ticks = {
        "Ann": [("b", _micros(9), 7, 2), ("a", _micros(2), -3, 6), ("z", None, 1, 6)],
        "Bob": [("a", _micros(2), 5, 6), ("c", _micros(16), -4, 2)],
    }
    got = net_over_ticks(ticks)
    # order: a (2 Oct), b (9 Oct), c (16 Oct), z (untimed); no point where one did not play
    ann = [Fraction(-3, 6), Fraction(-3, 6) + Fraction(7, 2)]
    ann += [None, ann[-1] + Fraction(1, 6)]
    bob = [Fraction(5, 6), None, Fraction(5, 6) - 2, None]
    assert got["session"] == [1, 2, 3, 4]
    assert got["Ann"] == [None if x is None else float(x) for x in ann]
    assert got["Bob"] == [None if x is None else float(x) for x in bob]
    as_fractions = {
        p: [
            {
                "session": s,
                "started": None if t is None else _EPOCH + timedelta(microseconds=t),
                "net": Fraction(n, d),
            }
            for s, t, n, d in rows
        ]
        for p, rows in ticks.items()
    }
    assert net_over_sessions(as_fractions) == got


def test_each_point_is_named_by_its_date_and_session() -> None:
    """The tooltips' names are the sessions in the chart's order, each with the date it started
    (UTC) unless its id already starts with it; an untimed session by its id alone."""
    ticks = {
        "Ann": [
            ("top-2", _micros(9), 1, 2),
            ("2026-10-02-back", _micros(2), 1, 2),
            ("z", None, 1, 2),
        ],
        "Bob": [("top-3", _micros(16), 1, 2), ("top-2", _micros(9), 1, 2)],
    }
    assert session_labels(ticks) == [
        "2026-10-02-back",
        "2026-10-09 · top-2",
        "2026-10-16 · top-3",
        "z",
    ]
    assert len(session_labels(ticks)) == len(net_over_ticks(ticks)["session"])
    assert session_labels({"Ann": []}) == []


def test_no_sessions() -> None:
    assert net_over_ticks({"Ann": []}) == {"session": [], "Ann": []}


def test_the_projection_gives_each_start_as_its_instant() -> None:
    """``analytics.queries.session_net_ticks`` reads each session's start as DuckDB computes the
    instant (UTC microseconds) from the recorded text: the instant Python reads from the same
    text, whatever its offset, with or without fractions of a second; a log without times
    gives ``None`` (the dashboard then asks the store)."""
    import random

    import analytics.projector
    import analytics.tables
    from analytics import queries
    from analytics.sources import MemorySource
    from sim.randplay import random_session

    offsets = [timedelta(hours=1), timedelta(hours=-5, minutes=-30), timedelta(0), None]
    src = MemorySource()
    for k, offset in enumerate(offsets):
        events = random_session(random.Random(k), f"s{k}", players=("Ann", "Bob"), pots=2)
        if offset is not None:
            zone = UTC if offset == timedelta(0) else timezone(offset)
            at = datetime(2026, 10, 2 + k, 19, 30, 15, 250_000 * k, tzinfo=zone)
            events[0] = events[0].model_copy(update={"at": at})
        src.append(f"s{k}", events)
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con)
    got = {s: us for s, us, _, _ in queries.session_net_ticks(con, "Ann")}
    want = {
        r["session"]: None
        if r["started"] is None
        else (r["started"] - _EPOCH) // timedelta(microseconds=1)
        for r in queries.session_nets(con, "Ann")
    }
    assert got == want
    assert got["s3"] is None and len({v for v in got.values() if v is not None}) == 3
    assert got["s1"] == (
        datetime(2026, 10, 3, 19, 30, 15, 250_000, tzinfo=UTC)
        + timedelta(hours=5, minutes=30)
        - _EPOCH
    ) // timedelta(microseconds=1)
