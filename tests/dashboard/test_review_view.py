"""The Review page's view model (issue 38.3, 38.4) on a simulated heads-up session of every card:
coverage, phases, moments and the deck recomputed from the review's rows and the engine's states;
withheld deals give nothing; the luck of a fresh deal is its hand's rank value."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import parse_qs, urlparse

import pytest
from review_helpers import SESSION, events, reviewed

from analytics.luck_forest import forest_units
from analytics.tendencies import posterior
from dashboard.stats import review_view as rv
from engine.hands import strength_codes
from events.cards import Card
from events.model import Dealt, Saw
from present.replay import Replay
from solver.grades import rank
from solver.review import Review
from timeline.core import Timeline
from timeline.steps import Step

Done = tuple[Timeline, Review]


def _phase(st: Step, player: str) -> str:
    if isinstance(st.event, Saw):
        return "showdown"
    return "blind" if st.before.players[st.before.seat(player)].blind else "seen"


@pytest.fixture(scope="module")
def done() -> tuple[Timeline, Review]:
    t, r = reviewed(events())
    return t, r


def test_the_summary_counts_every_decision_once_and_recomputes_the_phases(done: Done) -> None:
    t, r = done
    steps = {(s.label.deal, str(s.label)): s for s in t.steps}
    for player in ("Ann", "Bob"):
        mine = [x for x in r.rows if x.player == player]
        s = rv.summarise(SESSION, r.rows, (), player)
        graded = [x for x in mine if x.ev_loss is not None]
        assert s.decisions == len(mine) > 0 and s.graded == len(graded) > 0
        assert s.graded + sum(s.reasons.values()) == s.decisions and s.withheld == 0
        assert s.ev_lost == pytest.approx(sum(x.ev_loss or 0.0 for x in graded))
        for ph in rv.PHASES:  # the phase from the engine's state before the step
            got = [x for x in graded if _phase(steps[(x.deal, x.step)], player) == ph]
            if not got:
                assert ph not in s.phases
                continue
            n, good, loss = s.phases[ph]
            assert n == len(got)
            assert good == pytest.approx(sum(rank(x.grade) >= rank("good") for x in got) / n)
            assert loss == pytest.approx(sum(x.ev_loss or 0.0 for x in got) / n)
        assert f"graded {s.graded} of {s.decisions} decisions" in s.coverage_line()


def test_the_moments_are_the_largest_swings_each_a_link_to_its_step(done: Done) -> None:
    t, r = done
    rp = Replay.from_timeline(t)
    s = rv.summarise(SESSION, r.rows)
    assert 0 < len(s.moments) <= 3
    losses = sorted((x.ev_loss for x in r.rows if x.ev_loss and x.ev_loss > 0.02), reverse=True)
    costs = sorted((-m.swing for m in s.moments if m.swing < 0), reverse=True)
    assert costs == pytest.approx(losses[: len(costs)]) and len(costs) >= min(2, len(losses))
    assert len(s.moments) == min(3, sum(x.ev_loss is not None for x in r.rows))
    for m in s.moments:
        q = parse_qs(urlparse(m.href).query)
        assert q["session"] == [SESSION] and q["view"] == [m.row.player]
        pos = rp.position(q["deal"][0], q["step"][0])
        k = pos.index
        assert rp.labels[k].number == m.row.step and rp.labels[k].deal == m.row.deal
        if m.swing < 0:
            assert m.row.ev_loss == pytest.approx(-m.swing)


def test_a_hidden_deal_gives_no_grade_no_moment_no_card_and_no_luck(done: Done) -> None:
    t, r = done
    deals = {x.deal for x in r.rows}
    s = rv.summarise(SESSION, r.rows, deals, "Ann")
    assert s.graded == 0 and s.withheld == s.decisions > 0 and not s.moments
    assert rv.WITHHELD in s.coverage_line()
    assert rv.deck_cards(SESSION, r.rows, "Ann", {}, deals) == []
    assert rv.luck_by_player(t.steps, deals) == {}


def test_the_deck_holds_the_decisions_lost_by_the_margin_as_the_player_saw_them(done: Done) -> None:
    t, r = done
    steps = {(s.label.deal, str(s.label)): s for s in t.steps}
    hands = {s.label.deal: s.event.hands or {} for s in t.steps if isinstance(s.event, Dealt)}
    for player in ("Ann", "Bob"):
        want = [x for x in r.rows if x.player == player and (x.ev_loss or 0) >= rv.DECK_MARGIN]
        pos = rv.positions(t.steps, {}, r.rows)
        cards = rv.deck_cards(SESSION, r.rows, player, pos)
        assert [(c.deal, c.step) for c in cards] == [(x.deal, x.step) for x in want]
        for c in cards:
            st = steps[(c.deal, c.step)]
            assert max(v for _, v in c.choices) - dict(c.choices).get(c.best, 0) == pytest.approx(0)
            mine = hands[c.deal][player]
            shown = any(
                Card.parse(x).code >= 0 and rv._card(x) in " ".join(c.seen_as) for x in mine
            )
            assert shown == (not st.before.players[st.before.seat(player)].blind)
            other = next(p for p in hands[c.deal] if p != player)
            assert not any(rv._card(x) in " ".join(c.seen_as) for x in hands[c.deal][other])


def test_the_luck_of_the_first_deal_is_the_forests_term_for_its_hands(done: Done) -> None:
    t, _ = done
    later = {s.label.deal for s in t.steps} - {1}
    first = next(s for s in t.steps if isinstance(s.event, Dealt))
    h = first.event.hands or {}
    seats = first.after.seats
    power = {p: strength_codes(*(Card.parse(c).code for c in cards)) for p, cards in h.items()}
    best = max(power, key=lambda p: power[p])
    luck = rv.luck_by_player(t.steps, later)
    # nothing played before the first deal: both players' tendencies are the even posterior, and
    # a fresh heads-up deal is valued by the forest (analytics/luck_forest.py) against its hands
    # swapped
    even = posterior(2, [])
    hands = [tuple(Card.parse(c).code for c in h[p]) for p in seats]
    exact = forest_units(hands, [even, even], first.after.dealer)  # type: ignore[arg-type]
    assert exact is not None
    scale = t.steps[-1].after.scale
    for p, term in zip(seats, exact, strict=True):
        assert abs(luck[p] - term) < Fraction(1, scale)
    assert sum(luck.values()) == 0 and luck[best] > 0  # the best hand's luck is good luck


def test_the_reasons_read_plainly_and_a_review_grading_nothing_says_why() -> None:
    """The solver's words stay in the rows (``brag review --json``); the page says them plainly."""
    from solver.review import Row

    assert rv.plain_reason("no reference: off the solution's path") == (
        "the play left the lines the reference plays, so it has no sure figure here"
    )
    assert rv.plain_reason("more than two in") == (
        "more than two players were still in when the betting began"
    )
    assert rv.plain_reason("something new") == "something new"  # unknown: as it is
    for why in rv.PLAIN_REASONS.values():
        for word in ("solution", "abstraction", "solved game", "no reference"):
            assert word not in why
    club = [Row(k, f"{k}.1", "Ann", "bet 1", None, None, "no reference: more than two in", "seen")
            for k in (1, 2, 3)]  # fmt: skip
    club.append(Row(4, "4.1", "Ann", "bet 1", None, None, "no reference: off the solution's path"))
    s = rv.summarise("club-1", club, (), "Ann")
    assert s.graded == 0 and s.decisions == 4
    assert s.coverage_line() == (
        "graded 0 of 4 decisions; not graded: 3 because more than two players were still in when "
        "the betting began; 1 because the play left the lines the reference plays, so it has no "
        "sure figure here"
    )
    assert rv.nothing_graded(s) == "more than two players were in at most bets"
    every = rv.summarise("club-1", club[:3], (), "Ann")
    assert rv.nothing_graded(every) == "more than two players were in at every bet"
    assert rv.nothing_graded(rv.summarise("club-1", club, {1, 2, 3, 4}, "Ann")) == (
        "its deals open when the session ends"
    )
    assert rv.nothing_graded(rv.summarise("club-1", club, (), "Bob")) == "no decision was recorded"
    graded = [*club, Row(5, "5.1", "Ann", "fold", "fold", 0.0, "best", "seen")]
    assert rv.nothing_graded(rv.summarise("club-1", graded, (), "Ann")) is None
