"""Figures a reader cannot over-read (analytics/intervals.py, analytics/skill.py, issue 37):
Student's t, intervals clustered by session checked against the textbook formulas and by their
coverage, the difference of two players, the sessions still needed, the widening warning and
the skill meter against a known truth."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest

from analytics.intervals import (
    Z80,
    Z95,
    RateInterval,
    rate_difference,
    rate_interval,
    sessions_needed,
    student_t,
)
from analytics.skill import SessionRow, compare, figures, figures_and_neighbours, meter, split_half

# Student's t 97.5% points from the printed tables (Fisher and Yates).
T_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262, 19: 2.093, 30: 2.042}


@pytest.mark.parametrize(("df", "want"), sorted(T_TABLE.items()))
def test_student_t_matches_the_table(df: int, want: float) -> None:
    assert student_t(df) == pytest.approx(want, abs=0.005)


def test_student_t_refuses_no_degree_of_freedom() -> None:
    with pytest.raises(ValueError, match="degree of freedom"):
        student_t(0)


def test_equal_sessions_give_the_textbook_mean_and_standard_error() -> None:
    """With the same deals in every session the ratio is the mean of the sessions' rates and
    the clustered standard error is their sample SD over sqrt(G)."""
    rng = random.Random(1)
    rates = [rng.gauss(0.5, 3) for _ in range(12)]
    r = rate_interval({f"s{k}": (x * 20, 20.0) for k, x in enumerate(rates)})
    assert r is not None
    assert r.value == pytest.approx(statistics.fmean(rates))
    assert r.se == pytest.approx(statistics.stdev(rates) / math.sqrt(12))
    assert r.low == pytest.approx(r.value - student_t(11) * statistics.stdev(rates) / math.sqrt(12))
    assert rate_interval({"s": (3.0, 4.0)}) == RateInterval(0.75, None, None, None, None, 1)
    assert rate_interval({}) is None


def test_the_clustered_interval_covers_the_truth_95_times_in_100() -> None:
    """Sessions of varying length whose deals share a session effect: the interval clustered by
    session holds the true rate about 95% of the time (a per-deal interval would not)."""
    rng = random.Random(37)
    held = 0
    reps = 1500
    for _ in range(reps):
        cluster = {}
        for k in range(15):
            d = rng.randint(5, 30)
            mood = rng.gauss(0, 2)  # the session's own swing, shared by its deals
            cluster[f"s{k}"] = (sum(0.3 + mood + rng.gauss(0, 4) for _ in range(d)), float(d))
        r = rate_interval(cluster)
        assert r is not None and r.low is not None and r.high is not None
        held += r.low <= 0.3 <= r.high
    assert 0.925 <= held / reps <= 0.97


def test_a_difference_of_disjoint_sessions_adds_the_variances_and_shared_ones_pair() -> None:
    a = {"s1": (4.0, 2.0), "s2": (-2.0, 2.0), "s3": (1.0, 1.0)}
    b = {"t1": (1.0, 1.0), "t2": (5.0, 3.0), "t3": (-3.0, 2.0), "t4": (0.0, 1.0)}
    ra, rb = rate_interval(a), rate_interval(b)
    d = rate_difference(a, b)
    assert ra and rb and d and ra.se and rb.se and d.se
    assert d.value == pytest.approx(ra.value - rb.value)
    # Disjoint sessions: the influence terms add (each side's small-sample factor G/(G-1) is
    # taken over all 7 sessions here).
    ga, gb = 3, 4
    want = (ra.se**2 * (ga - 1) / ga + rb.se**2 * (gb - 1) / gb) * 7 / 6
    assert d.se == pytest.approx(math.sqrt(want))
    assert d.sessions == 7
    # The same sessions and deals: the paired differences' standard error.
    x = {f"s{k}": (float(v), 10.0) for k, v in enumerate([3, -1, 4, 1, -5, 9])}
    y = {f"s{k}": (float(v), 10.0) for k, v in enumerate([2, -7, 1, 8, -2, 8])}
    pair = rate_difference(x, y)
    diffs = [(x[s][0] - y[s][0]) / 10 for s in x]
    assert pair and pair.se == pytest.approx(statistics.stdev(diffs) / math.sqrt(6))


def test_sessions_needed_makes_the_interval_exclude_zero_with_the_power_asked() -> None:
    d = RateInterval(0.5, -0.7, 1.7, 0.55, 0.55 * math.sqrt(10), 10)
    n = sessions_needed(d)
    assert n is not None
    se_then = d.se * math.sqrt(d.sessions / n)  # type: ignore[operator]
    assert (Z95 + Z80) * se_then <= abs(d.value) + 1e-12
    se_before = d.se * math.sqrt(d.sessions / (n - 1))  # type: ignore[operator]
    assert (Z95 + Z80) * se_before > abs(d.value)
    assert sessions_needed(RateInterval(0.0, -1, 1, 0.5, 1.0, 4)) is None
    assert sessions_needed(RateInterval(1.0, None, None, None, None, 1)) is None


def _rows(player: str, nets: list[tuple[int, int, int]]) -> list[SessionRow]:
    """Sessions of ``(deals, net, adjusted)`` for ``player``, every deal measured."""
    return [
        SessionRow(f"s{k}", player, d, Fraction(n), d, Fraction(n), Fraction(a))
        for k, (d, n, a) in enumerate(nets)
    ]


def test_figures_side_by_side_with_the_share_measured_and_the_widening_warning() -> None:
    steady = _rows("Ann", [(10, 5, 3), (10, -4, -2), (10, 9, 4), (10, 0, 1)])
    wider = _rows("Rock", [(10, 1, 6), (10, -1, -7), (10, 2, 8), (10, 0, -5)])
    half = [
        SessionRow("s0", "Cy", 10, Fraction(4), 5, Fraction(1), Fraction(2)),
        SessionRow("s1", "Cy", 10, Fraction(-2), 0),
    ]
    got = {f.player: f for f in figures([*steady, *wider, *half])}
    ann = got["Ann"]
    assert ann.raw.value == pytest.approx(10 / 40) and ann.adjusted is not None
    assert ann.adjusted.value == pytest.approx(6 / 40)
    assert ann.measured == 1 and not ann.widens
    rock = got["Rock"]
    sd_adj = statistics.stdev([6, -7, 8, -5])
    sd_raw = statistics.stdev([1, -1, 2, 0])
    assert rock.spread_ratio == pytest.approx(sd_adj / sd_raw, rel=1e-9)
    assert rock.widens
    cy = got["Cy"]
    assert cy.measured == pytest.approx(5 / 20) and cy.adjusted is not None
    assert cy.adjusted.sessions == 1 and cy.adjusted.low is None


def test_two_players_are_not_yet_distinguishable_until_the_interval_excludes_zero() -> None:
    rng = random.Random(8)
    rows: list[SessionRow] = []
    for k in range(400):
        for p, edge in (("Ann", 1.0), ("Bob", -1.0)):
            a = Fraction(round(10 * (edge + rng.gauss(0, 6))), 10)
            rows.append(SessionRow(f"s{k}", p, 10, a, 10, a, a))
    early = compare([r for r in rows if int(r.session[1:]) < 8], "Ann", "Bob")
    late = compare(rows, "Ann", "Bob")
    assert early is not None and late is not None
    assert not early.distinguishable and "too close to call yet" in early.sentence()
    assert early.still is not None and early.still > 0
    assert late.distinguishable and "Ann is ahead" in late.sentence()
    assert late.still == 0 or late.still is None or late.distinguishable
    with pytest.raises(ValueError, match="two players"):
        compare(rows, "Ann", "Ann")


def test_split_half_and_the_meter_against_a_known_truth() -> None:
    """Players with true means of SD 1 and sessions of noise SD 4 (per-session reliability
    1/17): over n sessions each the reliability is n / (n + 16), and skill outweighs luck at
    16 sessions. Averaged over seasons the meter is within 0.05 of it."""
    rng = random.Random(11)
    for n in (8, 32):
        truth = n / (n + 16)
        got, outs = [], []
        for _ in range(120):
            values = {}
            for p in range(30):
                mu = rng.gauss(0, 1)
                values[f"P{p}"] = [mu + rng.gauss(0, 4) for _ in range(n)]
            r = split_half(values)
            assert r is not None
            got.append(r)
            m = meter(values, draws=0)
            assert m is not None and m.reliability == r and m.players == 30
            outs.append(math.inf if m.outweigh is None else m.outweigh)
        assert statistics.fmean(got) == pytest.approx(truth, abs=0.05)
        assert statistics.median(outs) == pytest.approx(16, rel=0.35)
    assert split_half({"a": [1.0, 2.0], "b": [3.0, 4.0]}) is None  # two players: no correlation


def test_the_meter_interval_is_seeded_and_holds_the_point() -> None:
    rng = random.Random(2)
    values = {f"P{p}": [p / 3 + rng.gauss(0, 1) for _ in range(10)] for p in range(12)}
    a, b = meter(values, draws=300, seed=4), meter(values, draws=300, seed=4)
    assert a == b and a is not None
    assert a.low <= a.reliability <= a.high


def test_the_meter_sentence_says_not_yet_while_its_interval_reaches_zero() -> None:
    from analytics.skill import Meter
    from analytics.skill_text import meter_how, meter_sentence

    wide = meter_sentence(Meter(0.8, -1.0, 1.0, 4, 8.0, 2.0))
    assert wide == (
        "Skill or luck in this club: too early to say: the share of the spread between players "
        "that is skill could still be none at all (anywhere up to 100%; 4 players, about 8 "
        "sessions each with every card recorded); more sessions or more players will narrow it."
    )
    sure = meter_sentence(Meter(0.6, 0.3, 0.8, 20, 60.0, 40.0))
    assert sure == (
        "Skill or luck in this club: about 60% of the spread between players is skill, not luck "
        "(somewhere from 30% to 80%; 20 players, about 60 sessions each with every card "
        "recorded); skill outweighs luck "
        "once a player has about 40 sessions."
    )
    assert "too early to say" in meter_sentence(None)
    # a range from nothing to next to nothing is said as such, not as "too early to say"
    none = meter_sentence(Meter(-1.0, -1.0, 0.001, 4, 3.0, None))
    assert none == (
        "Skill or luck in this club: no skill shows yet: the players' results so far differ as "
        "luck alone would make them (skill's share at most 0.1%; 4 players, about 3 sessions "
        "each with every card recorded); more sessions or more players will tell."
    )
    assert "too early to say" in meter_sentence(Meter(0.2, -0.1, 0.05, 4, 3.0, None))
    assert "reliability 0.60 (95% 0.30 to 0.80" in meter_how(Meter(0.6, 0.3, 0.8, 20, 60.0, 40.0))


def test_two_single_sessions_are_not_told_apart() -> None:
    """A walk's "Stan is ahead: +0.09 (95% +0.09 to +0.09, 2 sessions)": each player's one
    session says nothing of their spread, so there is no interval until each has two."""
    from analytics.intervals import rate_difference

    one = rate_difference({"s1": (9.0, 10.0)}, {"s2": (0.0, 10.0)})
    assert one is not None and one.value == pytest.approx(0.9)
    assert (one.low, one.high, one.se, one.sessions) == (None, None, None, 2)
    assert not one.excludes_zero
    two = rate_difference(
        {"s1": (9.0, 10.0), "s3": (5.0, 10.0)}, {"s2": (0.0, 10.0), "s4": (2.0, 10.0)}
    )
    assert two is not None and two.low is not None and two.high is not None
    assert two.low < two.value < two.high and two.sessions == 4


def test_players_who_never_met_are_not_compared_and_others_only_where_they_met() -> None:
    """A walk's "who is ahead" put side by side two players who never sat at the same table: now
    they are "never met"; two who met are compared over their sessions together only (the same
    table, the same opponents), never over sessions against other players."""
    from analytics.skill import adjacent

    def r(s: str, p: str, net: int) -> SessionRow:
        return SessionRow(s, p, 10, Fraction(net), 10, Fraction(net), Fraction(net))

    rows = [
        r("s1", "Ann", 30), r("s1", "Bob", -30),
        r("s2", "Ann", 20), r("s2", "Bob", -20),
        r("s3", "Ann", -50),  # Ann without Bob: not in their comparison
        r("s4", "Cy", 5), r("s5", "Cy", 7),  # Cy never met Ann or Bob
    ]  # fmt: skip
    ab = compare(rows, "Ann", "Bob")
    assert ab is not None and ab.met and ab.diff is not None
    assert ab.diff.sessions == 2 and ab.diff.value == pytest.approx((50 - (-50)) / 20)
    assert ab.sentence().startswith(
        "Ann and Bob: too close to call yet: at the same table Ann made 5.00 a deal more than "
        "Bob, luck of the cards taken out, give or take "
    )
    assert "(2 sessions together with every card recorded)" in ab.sentence()
    ac = compare(rows, "Ann", "Cy")
    assert ac is not None and not ac.met and not ac.distinguishable and ac.still is None
    assert ac.sentence() == "Ann and Cy: never met at a table: not compared"
    figs = figures(rows)
    assert [f.player for f in figs] == ["Cy", "Ann", "Bob"]
    got = [(c.a, c.b, c.met) for c in adjacent(rows, figs)]
    assert got == [("Cy", "Ann", False), ("Ann", "Bob", True)]


def test_the_figures_read_give_or_take_with_the_main_figure_first() -> None:
    from analytics.intervals import RateInterval
    from analytics.skill import Figures
    from analytics.skill_text import figure_lines, figure_rows, give_or_take

    raw = RateInterval(0.5, -0.7, 1.7, 0.5, 1.0, 4)
    adj = RateInterval(0.41, -0.9, 1.72, 0.6, 1.2, 4)
    f = Figures("Ann", 4, 120, 120, raw, adj, 0.8)
    assert give_or_take(adj) == "+0.41 ± 1.31"
    assert give_or_take(RateInterval(0.41, None, None, None, None, 1)) == (
        "+0.41 (one session: too few to say how sure)"
    )
    (row,) = figure_rows([f])
    assert list(row)[:2] == ["player", "luck taken out"] and row["luck taken out"] == "+0.41 ± 1.31"
    assert figure_lines(f) == (
        "+0.41 a deal with luck taken out, give or take 1.31",
        "as won +0.50 a deal, give or take 1.20 · 4 sessions · luck known for 100% of 120 deals",
    )


def test_a_player_without_luck_figures_does_not_break_the_chain_of_neighbours() -> None:
    """Walk: Ann (no deal of known luck, a real table) sorted between Sue and Tom made the chain
    "Sue and Ann: never met", "Ann and Tom: never met"; Sue and Tom, who sat together, were
    never compared. Only players with luck figures are chained now."""
    rows = []
    for k in range(6):
        for p, n in (("Sue", 30 + k), ("Tom", -20 - k)):
            rows.append(SessionRow(f"s{k}", p, 10, Fraction(n), 10, Fraction(n), Fraction(n)))
        rows.append(SessionRow(f"r{k}", "Ann", 10, Fraction(5 + k)))
    figs, chain = figures_and_neighbours(rows)
    assert "Ann" in [f.player for f in figs]
    assert [(c.a, c.b) for c in chain] == [("Sue", "Tom")]
    assert chain[0].diff is not None and chain[0].diff.sessions == 6


def test_too_close_to_call_never_says_zero_more_sessions() -> None:
    """Walk: "too close to call yet ... about 0 more sessions like these would tell them apart"
    (two sessions: the power figure, from the normal, already met; the t interval not)."""
    rows = []
    for k, (a, b) in enumerate(((50, -40), (60, -50))):
        rows.append(SessionRow(f"s{k}", "Pat", 10, Fraction(a), 10, Fraction(a), Fraction(a)))
        rows.append(SessionRow(f"s{k}", "Col", 10, Fraction(b), 10, Fraction(b), Fraction(b)))
    c = compare(rows, "Pat", "Col")
    assert c is not None and not c.distinguishable
    assert "about 0 more" not in c.sentence()
    assert c.still is None or c.still >= 1
