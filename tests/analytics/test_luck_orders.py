"""The array ranking behind a partly fresh deal's average (analytics/luck_orders.py) agrees with
the one-deal ranking of RULES 2 (:func:`analytics.luck.deal_ranks`), placing by placing."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

import numpy as np

from analytics.luck import deal_ranks
from analytics.luck_orders import hand_order, placings, ranks_of, shuffled_orders


def test_hand_order_is_deal_ranks_order() -> None:
    """Every hand has one place; over random deals of 2..10 seats the places rank the hands as
    :func:`deal_ranks` does (RULES 2, ties RULES 2.7 by the cards)."""
    table = hand_order()
    assert (table >= 0).sum() == comb(52, 3) and sorted(table[table >= 0]) == list(range(22_100))
    rng = random.Random(37)
    for _ in range(400):
        n = rng.randint(2, 10)
        cards = rng.sample(range(52), 3 * n)
        hands = [tuple(cards[3 * i : 3 * i + 3]) for i in range(n)]
        got = ranks_of([()] * n, np.array([cards]))
        assert tuple(got[0].tolist()) == deal_ranks(hands)  # type: ignore[arg-type]


def test_ranks_of_each_placing_with_kept_cards() -> None:
    """Seats holding kept cards take the next cards of the row: each row's ranks are those of
    the hands it makes."""
    kept = [(51, 50), (0,), (13, 26, 39)]  # a pair of aces kept, a 2 kept, 5-8-J all kept
    pool = [5, 9, 17]
    rows = placings(pool, [1, 2, 0])
    assert rows.shape == (3, 3)
    for row, ranks in zip(rows.tolist(), ranks_of(kept, rows).tolist(), strict=True):
        hands = [(51, 50, row[0]), (0, row[1], row[2]), (13, 26, 39)]
        assert tuple(ranks) == deal_ranks(hands)


def test_placings_are_every_split_once() -> None:
    """Seven unseen cards into groups of 3, 2, 2: 7!/(3!2!2!) = 210 distinct placings."""
    rows = placings([1, 2, 3, 4, 5, 6, 7], [3, 2, 2])
    assert rows.shape == (210, 7)
    splits = {(frozenset(r[:3]), frozenset(r[3:5]), frozenset(r[5:])) for r in rows.tolist()}
    assert len(splits) == 210


def test_shuffled_orders_are_seeded_and_uniform() -> None:
    """The same seed gives the same orders, another seed others; each card lands in each place
    about equally often (chi-square over 6,000 orders of 4 cards)."""
    a = shuffled_orders([3, 8, 20, 41], 6_000, b"known")
    assert (a == shuffled_orders([3, 8, 20, 41], 6_000, b"known")).all()
    assert not (a == shuffled_orders([3, 8, 20, 41], 6_000, b"other")).all()
    assert all(sorted(r) == [3, 8, 20, 41] for r in a[:50].tolist())
    counts = Counter((place, card) for r in a.tolist() for place, card in enumerate(r))
    chi2 = sum((c - 1_500) ** 2 / 1_500 for c in counts.values())
    assert len(counts) == 16 and chi2 < 30.6  # 9 degrees of freedom: p = 0.0003
