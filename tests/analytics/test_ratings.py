"""The ratings (analytics/ratings.py, issue 37): the fast Plackett-Luce update is openskill's,
a winner's rating never falls, places share ties (RULES 1.5), and the rated sessions are those of
the projection whose every deal has a luck term, placed by their adjusted nets."""

from __future__ import annotations

import itertools
import random
from datetime import date
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
    want = [pl for _, r in history for pl in places([n for _, n in r])]
    assert [s.place for s in ratings.steps] == want
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
    # A season: the dates of the sessions' starts in their own offsets bound what counts.
    days = sorted(
        {str(d)[:10] for (d,) in con.execute("SELECT started FROM sessions").fetchall() if d}
    )
    if days:
        first = date.fromisoformat(days[0])
        season = skill_summary(con, since=first, until=first)
        on_day = {s for (s, d) in con.execute("SELECT session, started FROM sessions").fetchall()
                  if d and str(d)[:10] == days[0] and s in rated}  # fmt: skip
        assert season.rated_sessions == len(on_day)
    assert skill_summary(con, since=date(2999, 1, 1)).figures == ()
    pair = skill_pair(con, summary.ratings[0].player, summary.ratings[-1].player)
    assert [len(s) for s in pair.steps] == [
        r.sessions for r in (summary.ratings[0], summary.ratings[-1])
    ]


def _one_look_withdrawn(store: object, session: str) -> bool:
    """Withdraws the first look of deal 2 of ``session`` (a correction, issue 32), repairs
    included; False when the session has none or the plan cannot be stored."""
    from events.model import Looked
    from log.amend import AmendRefused, plan_stored, store_amendment

    t = store.timeline(session)  # type: ignore[attr-defined]
    look = next((s for s in t.steps if isinstance(s.event, Looked) and s.label.deal == 2), None)
    if look is None:
        return False
    try:
        store_amendment(store, plan_stored(store, session, look, None), repair=True)  # type: ignore[arg-type]
    except AmendRefused:
        return False
    return True


def test_a_correction_rerates_what_it_touches_and_after() -> None:
    """Three sessions of the same players stored and projected; a correction to the second
    changes its places by adjusted net: the first session's steps stay, the ratings from the
    second on are those of a rebuild over the corrected results (which the projection holds)."""
    import analytics.projector
    import analytics.tables
    from log.open import open_store
    from sim.randplay import random_session

    for seed in range(200):
        store = open_store("memory://")
        names = ["Ann", "Bob", "Cat"]
        for k in range(3):
            events = random_session(random.Random(seed * 10 + k), f"s{k}", players=names, pots=3)
            store.append(f"s{k}", events, 0)
        con = analytics.tables.connect()
        analytics.projector.refresh(store, con)
        before = rated_sessions(con)
        if [s for s, _ in before] != ["s0", "s1", "s2"] or not _one_look_withdrawn(store, "s1"):
            continue
        analytics.projector.refresh(store, con)
        after = rated_sessions(con)
        if "s1" not in dict(after):
            continue  # the repairs left it unfinished: rightly not rated (an open session)
        moved = [places([n for _, n in dict(x)["s1"]]) for x in (before, after)]
        if moved[0] == moved[1]:
            continue  # this correction changed no place: try another
        assert dict(after)["s0"] == dict(before)["s0"] and dict(after)["s2"] == dict(before)["s2"]
        old, new = rebuild(before), rebuild(after)
        assert new.steps[:3] == old.steps[:3]  # s0: untouched
        assert new.steps[3:] != old.steps[3:]  # s1 re-rated, and s2 after it
        assert [s.session for s in new.steps] == [s.session for s in old.steps]
        return
    pytest.fail("no seed gives a correction that changes a place")
