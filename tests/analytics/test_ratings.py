"""The ratings (analytics/ratings.py, issue 37 item 3): the Gaussian update is the exact
posterior of the player's skill given their adjusted net, the margin and the table count, the
noise is estimated from the rows before the session, a winner's rating never falls, and the rated
sessions are those of the projection whose every deal has a luck term, in stake units."""

from __future__ import annotations

import itertools
import math
import random
from datetime import date
from fractions import Fraction

import duckdb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luck_helpers import luck_con, luck_src  # noqa: F401 (the fixtures con, src)

from analytics.ratings import NOISE_START, NOISE_WEIGHT, START, places, rate, rebuild
from analytics.skill_rows import rated_sessions, skill_pair, skill_summary


def _posterior(mus: list[float], sigmas: list[float], nets: list[float], noise: float
               ) -> list[tuple[float, float]]:  # fmt: skip
    """Each player's posterior mean and SD of skill given their own net alone, by conditioning
    the joint normal of (skills, that net) with numpy: the reference the update must equal."""
    k = len(mus)
    a = np.full((k, k), -1 / (k - 1)) + np.eye(k) * (1 + 1 / (k - 1))  # y = A s + e
    cov_s = np.diag(np.square(sigmas))
    out = []
    for i in range(k):
        cov_sy = cov_s @ a[i]  # cov(s, y_i)
        var_y = a[i] @ cov_s @ a[i] + noise**2
        mean_y = a[i] @ np.array(mus)
        post_mu = mus[i] + cov_sy[i] / var_y * (nets[i] - mean_y)
        post_var = cov_s[i, i] - cov_sy[i] ** 2 / var_y
        out.append((float(post_mu), math.sqrt(post_var)))
    return out


def test_a_newcomer_is_zero_plus_or_minus_25_stake_units_a_session() -> None:
    assert START == (0.0, 25.0)
    assert (NOISE_START, NOISE_WEIGHT) == (100.0, 50)


def test_rate_is_the_posterior_of_each_players_skill_given_their_net() -> None:
    rng = random.Random(37)
    for _ in range(300):
        k = rng.randint(2, 10)
        mus = [rng.gauss(0, 20) for _ in range(k)]
        sigmas = [rng.uniform(0.5, 30) for _ in range(k)]
        nets = [rng.gauss(0, 100) for _ in range(k)]
        noise = rng.uniform(20, 200)
        got_mu, got_sigma = rate(mus, sigmas, nets, noise)
        for (wm, ws), gm, gs in zip(_posterior(mus, sigmas, nets, noise), got_mu, got_sigma,
                                    strict=True):  # fmt: skip
            assert gm == pytest.approx(wm, abs=1e-9)
            assert gs == pytest.approx(ws, abs=1e-9)


def test_two_newcomers_heads_up_by_hand() -> None:
    """0 ± 25 each, noise 100, nets +60 and -60: v = 625 + 625 + 10,000 = 11,250, gain 1/18,
    so the winner rises by 60/18 = 3.33 and sigma^2 shrinks to 625 (17/18)."""
    mus, sigmas = rate([0.0, 0.0], [25.0, 25.0], [60.0, -60.0], 100.0)
    assert mus == pytest.approx([60 / 18, -60 / 18])
    assert sigmas == pytest.approx([math.sqrt(625 * 17 / 18)] * 2)


def test_the_margin_counts_and_so_does_who_sat_at_the_table() -> None:
    """Same places, a wider margin: a bigger change. The same net won from strong players moves
    the rating more than one won from weak ones."""
    small, _ = rate([0.0, 0.0, 0.0], [10.0] * 3, [10.0, 0.0, -10.0], 100.0)
    wide, _ = rate([0.0, 0.0, 0.0], [10.0] * 3, [90.0, 0.0, -90.0], 100.0)
    assert places([10, 0, -10]) == places([90, 0, -90])
    assert wide[0] - 0 > 8 * (small[0] - 0) > 0
    strong, _ = rate([0.0, 20.0, 20.0], [10.0] * 3, [30.0, -15.0, -15.0], 100.0)
    weak, _ = rate([0.0, -20.0, -20.0], [10.0] * 3, [30.0, -15.0, -15.0], 100.0)
    assert strong[0] > weak[0] > 0


def test_rate_refuses_a_session_of_one_or_lengths_that_differ() -> None:
    with pytest.raises(ValueError, match="two players"):
        rate([0.0], [25.0], [0.0], 100.0)
    with pytest.raises(ValueError, match="two players"):
        rate([0.0, 0.0], [25.0, 25.0], [1.0], 100.0)


def test_places_share_equal_nets() -> None:
    assert places([Fraction(3), Fraction(-1), Fraction(3), Fraction(-5)]) == (1, 3, 1, 4)
    assert places([0, 0]) == (1, 1)
    assert places([7]) == (1,)


def test_the_noise_is_the_running_mean_square_of_the_rows_before_the_session() -> None:
    """Each session's step is :func:`rate` with the noise of the rows rated before it (the guess
    weighing 50 rows): recomputed here from the nets."""
    rng = random.Random(11)
    names = ["Ann", "Bob", "Cy", "Di"]
    history = [
        (f"s{k}", [(p, round(rng.gauss(0, 300), 1)) for p in rng.sample(names, rng.randint(2, 4))])
        for k in range(25)
    ]
    steps = iter(rebuild(history).steps)
    squares, rows = 100.0**2 * 50, 50
    for _, results in history:
        mine = [next(steps) for _ in results]
        nets = [float(n) for _, n in results]
        mus, sigmas = rate([s.mu_in for s in mine], [s.sigma_in for s in mine], nets,
                           math.sqrt(squares / rows))  # fmt: skip
        for s, mu, sigma, y in zip(mine, mus, sigmas, nets, strict=True):
            assert s.net == y and s.sigma_out == pytest.approx(sigma, abs=1e-12)
            assert s.mu_out == pytest.approx(max(mu, s.mu_in) if y > 0 or s.place == 1 else mu)
        squares += sum(y * y for y in nets)
        rows += len(nets)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-300, 300), min_size=2, max_size=6),  # nets of seats 0..
        min_size=1,
        max_size=40,
    ),
    st.randoms(use_true_random=False),
)
def test_a_winner_never_sees_the_rating_fall(sessions: list[list[int]], rng: random.Random) -> None:
    """Whatever the history: a player with a positive adjusted net, or first by it, leaves with
    mu and mu - 2 sigma at least what they came in with; no sigma grows; any other player moves
    the way their net beat or missed the rating's prediction (their mu less the others')."""
    names = [f"P{i}" for i in range(8)]
    history = [
        (f"s{k}", list(zip(rng.sample(names, len(nets)), nets, strict=True)))
        for k, nets in enumerate(sessions)
    ]
    ratings = rebuild(history)
    assert len(ratings.steps) == sum(len(n) for n in sessions)
    want = [pl for _, r in history for pl in places([n for _, n in r])]
    assert [s.place for s in ratings.steps] == want
    steps = iter(ratings.steps)
    for _, results in history:
        mine = [next(steps) for _ in results]
        total = sum(s.mu_in for s in mine)
        for s in mine:
            assert s.sigma_out <= s.sigma_in
            if s.net > 0 or s.place == 1:
                assert s.mu_out >= s.mu_in
                assert s.mu_out - 2 * s.sigma_out >= s.mu_in - 2 * s.sigma_in
            else:
                predicted = s.mu_in - (total - s.mu_in) / (len(mine) - 1)
                assert (s.mu_out - s.mu_in) * (s.net - predicted) >= 0


def test_the_rule_keeps_a_favourite_who_wins_by_less_than_expected() -> None:
    """The model alone lowers a strong player who wins by less than it expected; the ratings
    keep its rating. A loser by less than expected rises."""
    history = [(f"s{k}", [("Fav", 300), ("Out", -300)]) for k in range(10)]
    fav = rebuild(history).now[0]
    assert fav.player == "Fav" and fav.mu > 50
    (model_fav, _), _ = rate([fav.mu, -fav.mu], [fav.sigma, fav.sigma], [5.0, -5.0], 200.0)
    assert model_fav < fav.mu  # the model would lower it
    after = rebuild([*history, ("s10", [("Fav", 5), ("Out", -5)])])
    step = after.of("Fav")[-1]
    assert step.mu_in == pytest.approx(fav.mu) and step.mu_out == step.mu_in
    out = after.of("Out")[-1]
    assert out.net < 0 and out.mu_out > out.mu_in


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
        assert (mine[0].mu_in, mine[0].sigma_in) == START
        assert all(a.mu_out == b.mu_in for a, b in itertools.pairwise(mine))


def test_rebuild_refuses_a_player_twice_in_a_session() -> None:
    with pytest.raises(ValueError, match="twice"):
        rebuild([("s", [("Ann", 1), ("Ann", -1)])])


def test_rated_sessions_are_the_whole_finished_ones_by_adjusted_net_in_stake_units(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """Each cards: all session, with the sum of its player_deals' adjusted nets in stake units
    (summed here straight from the deals); the cards: shown session is not rated."""
    rated = dict(rated_sessions(con))
    assert set(rated) == {f"all-{k}" for k in range(5)}
    for session, results in rated.items():
        rows = con.execute(
            "SELECT coalesce(n.player, d.player), sum(d.adjusted_net_t), max(d.den) "
            "FROM player_deals d LEFT JOIN player_names n USING (player_key) "
            "WHERE session = ? GROUP BY 1",
            [session],
        ).fetchall()
        want = {p: Fraction(int(t), int(den)) for p, t, den in rows}
        assert dict(results) == {p: float(v) for p, v in want.items()}  # stake units
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
    second on are those of a rebuild over the corrected results (which the projection holds).
    The third session's results may move too (its luck terms read the players' earlier sessions,
    analytics/priors.py): as a projection rebuilt from the corrected store has them."""
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
        assert dict(after)["s0"] == dict(before)["s0"]
        again = analytics.tables.connect()
        analytics.projector.rebuild(store, again)
        assert rated_sessions(again) == after
        old, new = rebuild(before), rebuild(after)
        assert new.steps[:3] == old.steps[:3]  # s0: untouched
        assert new.steps[3:] != old.steps[3:]  # s1 re-rated, and s2 after it
        assert [s.session for s in new.steps] == [s.session for s in old.steps]
        return
    pytest.fail("no seed gives a correction that changes a place")
