"""The review page's luck (dashboard/stats/review_view.py) agrees with the projection's when the
players' earlier sessions are given as the projection holds them (analytics/priors.py)."""

from __future__ import annotations

from luck_helpers import NAMES, dated_season

import analytics.projector
import analytics.tables
from analytics.prior_rows import session_priors
from analytics.sources import MemorySource
from dashboard.stats.review_view import luck_by_player
from timeline import Timeline


def test_a_replay_given_the_sessions_priors_has_the_projections_luck() -> None:
    """The review page replays a session with its players' priors as the projection holds them
    (:func:`analytics.prior_rows.session_priors`): each player's luck over the session is the sum
    of the projection's terms, and without them (the session alone) it is not."""
    streams = dated_season(4, seed=8)
    src = MemorySource()
    for name in sorted(streams):
        src.append(name, streams[name])
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con)
    for name in ("s00", "s03"):
        prior = session_priors(con, name)
        assert set(prior) == set(NAMES)
        steps = Timeline.of(streams[name]).steps
        got = luck_by_player(steps, (), prior)
        want = dict(
            con.execute(
                "SELECT player, sum(luck_t) FROM player_deals WHERE session = $s GROUP BY player",
                {"s": name},
            ).fetchall()
        )
        assert {p: v * 2 for p, v in got.items()} == want  # den 2: ticks of half a unit
        if name == "s00":
            assert all(not c for c in prior.values())
        else:
            assert all(prior.values())
            assert luck_by_player(steps) != got
    assert session_priors(con, "nowhere") == {}
