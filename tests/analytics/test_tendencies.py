"""The tendency value behind the luck term at two and five players (analytics/tendencies.py,
docs/luck.md; issue 37 item 1): the posterior, the value's exact averages against brute force, a
mean of exactly 0 over every fresh deal (RULES 3.2-3.4), and a term that reads the deals before
it and nothing of its own."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from luck_helpers import deal_kinds, tendency_values
from test_luck_partly_fresh import _fold, _luck_of, _nets_of

from analytics.luck import deal_ranks, deal_units, luck_units, order_average, rank_average
from analytics.tendencies import WEIGHT, Tendencies, TendencyValue, knows, posterior, styles
from engine.state import card_codes
from sim.replay import before_deals, replay_deal
from sim.table import SessionSpec


def _weights(n: int, seed: int) -> list[tuple[int, ...]]:
    """``n`` seats' style weights in whole 64ths, drawn at random (uneven: a value that differs
    from seat to seat, as one that knows the players does)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cuts = sorted(rng.randint(0, WEIGHT) for _ in range(len(styles()) - 1))
        out.append(tuple(b - a for a, b in zip([0, *cuts], [*cuts, WEIGHT], strict=True)))
    return out


def _hands(order: tuple[int, ...], n: int) -> list[tuple[int, int, int]]:
    """RULES 3.4: card ``p`` of the deal goes to seat ``p % n`` (seat 0 on the dealer's left)."""
    return [(order[i], order[n + i], order[2 * n + i]) for i in range(n)]


def test_the_model_knows_every_table_size() -> None:
    assert [n for n in range(2, 11) if knows(n)] == list(range(2, 11))  # RULES 1.3
    assert styles() == ("blind", "bluffer", "loose", "rock", "seer")


@pytest.mark.parametrize("n", [2, 4, 5, 7])
def test_posterior_is_even_with_nothing_seen_and_finds_the_style_played(n: int) -> None:
    even = posterior(n, [])
    assert sum(even) == WEIGHT and max(even) - min(even) <= 1
    # a player who looks at once and folds, deal after deal, is the rock (sim/players.py)
    rock = posterior(n, ["L-Fs"] * 10)
    assert sum(rock) == WEIGHT
    assert rock[styles().index("rock")] >= 48  # at seven everyone folds more: less sure
    # a player who bets blind and sees blind is the blind lover (RULES 5.3, 5.7)
    blind = posterior(n, ["Bb-Vb-Wb"] * 4)
    assert blind[styles().index("blind")] >= 60


def test_a_prior_of_earlier_sessions_counts_as_the_same_deals_seen_in_this_one() -> None:
    """``Tendencies(prior)`` (``bench/luck.py --history``): a player's signature counts from
    earlier sessions weigh exactly as the same signatures played in this session; without a
    prior the first deal's posterior is even."""
    seats = ("Ann", "Bob")
    fresh = Tendencies()
    fresh.dealt(seats)
    assert fresh.weights() == (posterior(2, []), posterior(2, []))
    known = Tendencies({"Ann": {"L-Fs": 6}})
    known.dealt(seats)
    played = Tendencies()
    for _ in range(7):
        played.dealt(seats)
        played.acted("looked", "Ann", False)
        played.acted("folded", "Ann", True)
    # six closed deals of "L-Fs" for Ann, Bob sat through them (his signature: nothing done)
    weights = played.weights()
    assert weights is not None and known.weights() is not None
    assert weights[0] == known.weights()[0] == posterior(2, {"L-Fs": 6})
    assert weights[0][styles().index("rock")] > posterior(2, [])[styles().index("rock")]


@pytest.mark.parametrize("n", [2, 5, 7])
def test_rows_match_one_order_at_a_time_and_each_deal_sums_to_zero(n: int) -> None:
    value = TendencyValue(n, _weights(n, n))
    every = list(permutations(range(1, n + 1)))
    rows = value.rows(np.array(every, dtype=np.int64))
    for ranks, row in zip(every, rows.tolist(), strict=True):
        assert list(value(ranks)) == [Fraction(x, value.den) for x in row]
        assert sum(row) == 0  # the values of a deal sum to 0: adjusted nets sum to nets
    assert len({tuple(r) for r in rows.tolist()}) > 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_rank_average_equals_brute_force(n: int) -> None:
    """The closed form (each rank 1/n, the best other hand's holder any other seat) against
    the average over every order of the ranks."""
    value = TendencyValue(n, _weights(n, 10 + n))
    every = list(permutations(range(1, n + 1)))
    brute = [sum((value(r)[i] for r in every), Fraction(0)) / len(every) for i in range(n)]
    assert list(rank_average(n, value)) == brute
    assert any(b != 0 for b in brute)  # uneven weights: a seat's average is not 0


@pytest.mark.parametrize(
    ("n", "unseen", "under"),
    [
        (2, "Ah Kh 3c 7d", "Ac 2d"),
        (2, "2c 2d 3c", "3d 4c 4d"),  # equal hands (RULES 2.7) among the placings
        (5, "Ah Ad Ac Kh Qh Jh 2s", "3s 4d 5c 6h 7s 8d 9c Th"),
    ],
)
def test_partly_fresh_average_equals_brute_force_and_the_term_averages_to_zero(
    n: int, unseen: str, under: str
) -> None:
    top, rest = card_codes(tuple(unseen.split())), card_codes(tuple(under.split()))
    value = TendencyValue(n, _weights(n, 20 + n))
    perms = list(permutations(top))
    brute = [Fraction(0)] * n
    for p in perms:
        for i, v in enumerate(value(deal_ranks(_hands((*p, *rest), n)))):
            brute[i] += v
    brute = [b / len(perms) for b in brute]
    assert list(order_average(_hands((*top, *rest), n), set(top), value)) == brute
    total = [Fraction(0)] * n
    for p in perms:
        terms = deal_units(_hands((*p, *rest), n), set(top), value)
        assert terms is not None and sum(terms) == 0
        total = [t + x for t, x in zip(total, terms, strict=True)]
    assert total == [0] * n


def test_every_fresh_heads_up_deal_of_eight_cards_averages_to_zero_exactly() -> None:
    """A fresh deal hands two disjoint hands from the unseen cards, every order alike (RULES
    3.2-3.4): over all 560 deals of eight unseen cards each seat's term sums to exactly 0,
    though the value differs from seat to seat and from the rank baseline."""
    cards = card_codes(("Ah", "Kh", "Qh", "3s", "3c", "9d", "2c", "2d"))
    value = TendencyValue(2, [(40, 10, 6, 4, 4), (0, 4, 10, 40, 10)])
    total, deals, differs = [Fraction(0)] * 2, 0, 0
    for a in combinations(cards, 3):
        left = [c for c in cards if c not in a]
        for b in combinations(left, 3):
            hands = [a, b]
            terms = deal_units(hands, set(a) | set(b), value)
            assert terms is not None and sum(terms) == 0
            total = [t + x for t, x in zip(total, terms, strict=True)]
            differs += terms != luck_units(deal_ranks(hands))
            deals += 1
    assert deals == 560 and total == [0, 0] and differs == deals


def _fresh(events: list) -> list[int]:
    """The fresh deals (1-based): none of their cards dealt since the last shuffle."""
    return [d for d, kind in enumerate(deal_kinds(events), start=1) if kind == "fresh"]


@pytest.mark.parametrize("n", [5, 2])
def test_a_deals_term_reads_the_deals_before_it_and_nothing_of_its_own(n: int) -> None:
    """A simulated session; a fresh deal after the first is played again from just before it
    with other choices (every player's generator reseeded): its nets change and its terms do not,
    though they read the seats' tendencies (the forest's value, analytics/luck_forest.py, reads
    their posteriors); the next deal's tendencies change with what was played in it."""
    played = ("bluffer", "loose") if n == 2 else ("rock", "blind", "loose", "seer", "bluffer")
    seats = tuple((f"P{i}", s) for i, s in enumerate(played))
    events, snaps = before_deals(SessionSpec(session="s", seats=seats, seed=11))
    deal = next(d for d in _fresh(events) if d >= 2)
    nets, terms, next_values = set(), set(), set()
    for k in range(6):
        replayed, _ = replay_deal(snaps[deal - 1], f"other-{k}")
        rows = _fold(replayed)
        nets.add(_nets_of(rows, deal))
        terms.add(_luck_of(rows, deal))
        after = tendency_values(replayed, then=True)[deal]  # the value a next deal would get
        assert after is not None
        next_values.add(after(tuple(range(1, n + 1))))
    assert len(nets) >= 2, "other choices gave other nets"
    assert len(terms) == 1
    assert terms == {_luck_of(_fold(events), deal)}
    assert len(next_values) >= 2, "the next deal's value follows what was played before it"
