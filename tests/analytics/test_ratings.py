"""The ratings (analytics/ratings.py, issue 37): the fast Plackett-Luce update is openskill's,
a winner's rating never falls, places share ties (RULES 1.5), and the rated sessions are those of
the projection whose every deal has a luck term, placed by their adjusted nets."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luck_helpers import luck_con, luck_src  # noqa: F401 (the fixtures con, src)
from openskill.models import PlackettLuce

from analytics.ratings import MODEL, START, places, rate, rebuild
from analytics.skill_rows import rated_sessions, skill_pair, skill_summary

REFERENCE = PlackettLuce(limit_sigma=True)
"""openskill itself, built apart from MODEL: the reference the fast update must equal."""


def _openskill(
    mus: list[float], sigmas: list[float], ranks: list[int]
) -> list[tuple[float, float]]:
    out = REFERENCE.rate(
        [[REFERENCE.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)],
        ranks=list(ranks),
    )
    return [(t[0].mu, t[0].sigma) for t in out]


def test_the_model_is_openskills_default_plackett_luce() -> None:
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.tau) == (25.0, 25 / 3, 25 / 6, 25 / 300)
    assert START == (25.0, 25 / 3)


def test_rate_equals_openskill_on_random_sessions_ties_included() -> None:
    rng = random.Random(37)
    for _ in range(500):
        k = rng.randint(2, 10)
        mus = [rng.gauss(25, 12) for _ in range(k)]
        sigmas = [rng.uniform(0.2, 9) for _ in range(k)]
        ranks = [rng.randint(1, k) for _ in range(k)]  # many ties
        got_mu, got_sigma = rate(mus, sigmas, ranks)
        want = _openskill(mus, sigmas, ranks)
        for (wm, ws), gm, gs in zip(want, got_mu, got_sigma, strict=True):
            assert gm == pytest.approx(wm, abs=1e-9)
            assert gs == pytest.approx(ws, abs=1e-9)


def test_places_share_equal_nets() -> None:
    assert places([Fraction(3), Fraction(-1), Fraction(3), Fraction(-5)]) == (1, 3, 1, 4)
    assert places([0, 0]) == (1, 1)
    assert places([7]) == (1,)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-6, 6), min_size=2, max_size=6),  # nets of seats 0.. (coarse: ties)
        min_size=1,
        max_size=40,
    ),
    st.randoms(use_true_random=False),
)
def test_a_winner_never_sees_the_rating_fall(sessions: list[list[int]], rng: random.Random) -> None:
    """Whatever the history: a player in first place leaves with mu, mu - 2 sigma and mu - 3
    sigma at least what they came in with, and no sigma grows."""
    names = [f"P{i}" for i in range(8)]
    history = [
        (f"s{k}", list(zip(rng.sample(names, len(nets)), nets, strict=True)))
        for k, nets in enumerate(sessions)
    ]
    ratings = rebuild(history)
    assert len(ratings.steps) == sum(len(n) for n in sessions)
    for s in ratings.steps:
        assert s.sigma_out <= s.sigma_in
        if s.place == 1:
            assert s.mu_out >= s.mu_in
            assert s.mu_out - 3 * s.sigma_out >= s.mu_in - 3 * s.sigma_in - 1e-12


def test_a_sole_winner_rises_by_the_model_and_a_tied_favourite_is_kept() -> None:
    """The rule matters only where players share first place: openskill lowers a favourite tied
    with an outsider; the ratings keep its mu."""
    fav, out = (40.0, 2.0), (10.0, 2.0)
    (fm, _), (om, _) = _openskill([fav[0], out[0]], [fav[1], out[1]], [1, 1])
    assert fm < fav[0] and om > out[0]  # the model alone would lower the favourite
    history = [
        ("s0", [("Fav", 40), ("Out", -40)]),
    ]
    first = rebuild(history).now
    assert [r.player for r in first] == ["Fav", "Out"]
    mu_fav = first[0].mu
    tied = rebuild([*history, ("s1", [("Fav", 0), ("Out", 0)])])
    step = tied.of("Fav")[-1]
    assert step.place == 1 and step.mu_in == pytest.approx(mu_fav)
    assert step.mu_out == step.mu_in  # kept, where the model would lower it
    assert tied.of("Out")[-1].mu_out > tied.of("Out")[-1].mu_in


def test_rebuild_follows_the_order_and_a_changed_session_rerates_from_there() -> None:
    rng = random.Random(5)
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    history = [
        (f"s{k}", [(p, rng.randint(-50, 50)) for p in rng.sample(names, rng.randint(2, 5))])
        for k in range(30)
    ]
    before = rebuild(history)
    changed = list(history)
    s, results = changed[12]
    changed[12] = (s, [(p, -n) for p, n in results])  # a correction turns session 12 round
    after = rebuild(changed)
    cut = sum(len(r) for _, r in history[:12])
    assert after.steps[:cut] == before.steps[:cut]  # nothing before it moves
    assert after.steps[cut:] != before.steps[cut:]
    # Each step enters with the rating the previous one left.
    for p in names:
        mine = after.of(p)
        assert mine[0].mu_in == START[0]
        assert all(a.mu_out == b.mu_in for a, b in itertools.pairwise(mine))


def test_rebuild_refuses_a_player_twice_in_a_session() -> None:
    with pytest.raises(ValueError, match="twice"):
        rebuild([("s", [("Ann", 1), ("Ann", -1)])])


def test_rated_sessions_are_the_whole_finished_ones_placed_by_adjusted_net(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """Each cards: all session, placed by the sum of its player_deals' adjusted nets (summed here
    straight from the deals); the cards: shown session is not rated."""
    rated = dict(rated_sessions(con))
    assert set(rated) == {f"all-{k}" for k in range(5)}
    for session, results in rated.items():
        want = dict(
            con.execute(
                "SELECT coalesce(n.player, d.player), sum(d.adjusted_net_t) FROM player_deals d "
                "LEFT JOIN player_names n USING (player_key) WHERE session = ? GROUP BY 1",
                [session],
            ).fetchall()
        )
        assert dict(results) == {p: int(v) for p, v in want.items()}
    summary = skill_summary(con)
    assert summary.rated_sessions == 5
    players = {p for r in rated.values() for p, _ in r}
    assert {r.player for r in summary.ratings} == players
    assert all(
        r.sessions == sum(r.player in dict(x) for x in rated.values()) for r in summary.ratings
    )
    pair = skill_pair(con, summary.ratings[0].player, summary.ratings[-1].player)
    assert [len(s) for s in pair.steps] == [
        r.sessions for r in (summary.ratings[0], summary.ratings[-1])
    ]
