"""The forest value of a fresh deal (analytics/luck_forest.py, docs/luck.md, issue 37 item 1):
the stored trees walk as trees, the vectorised term equals one computed a node at a time, and its
mean over every way the dealt hands could have gone round the table is exactly 0 (RULES 3.4)."""

from __future__ import annotations

import gzip
import json
import random
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from luck_helpers import forest_term, walk_tree

from analytics.luck_forest import (
    FOREST,
    Forest,
    features,
    forest,
    forest_units,
    partly_fresh_units,
    reassignments,
    relabellings,
)

SIZES = [2, 3, 4, 5, 6, 7]


def _doc() -> dict:
    return json.loads(gzip.decompress(FOREST.read_bytes()))


def _random_deal(
    rng: random.Random, n: int
) -> tuple[list[tuple[int, int, int]], tuple[tuple[int, ...], ...], int]:
    """``n`` disjoint hands, each seat's posterior in whole 64ths, a dealer's seat."""
    cards = rng.sample(range(52), 3 * n)
    hands = [tuple(cards[3 * i : 3 * i + 3]) for i in range(n)]
    weights = []
    for _ in range(n):
        cuts = sorted(rng.randint(0, 64) for _ in range(4))
        weights.append(tuple(b - a for a, b in zip([0, *cuts], [*cuts, 64], strict=True)))
    return hands, tuple(weights), rng.randrange(n)  # type: ignore[return-value]  # 3 cards


def test_forests_are_stored_for_two_to_five_players() -> None:
    assert sorted(int(n) for n in _doc()["sizes"]) == SIZES
    assert forest(8) is None and forest_units([(0, 1, 2)] * 8, [(64, 0, 0, 0, 0)] * 8, 0) is None


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 10])
def test_reassignments_are_permutations_every_one_up_to_four_seats(n: int) -> None:
    got = reassignments(n)
    assert got[0].tolist() == list(range(n))  # the deal as dealt first
    assert all(sorted(row) == list(range(n)) for row in got.tolist())
    if n <= 4:
        assert sorted(map(tuple, got.tolist())) == sorted(permutations(range(n)))
    else:  # the n rotations of each of three fixed shuffles
        assert len(got) == 3 * n and len(set(map(tuple, got.tolist()))) == 3 * n
        assert [(s + 1) % n for s in range(n)] in got.tolist()


def _two_trees() -> dict:
    """tree 0: x0 <= 5 ? (x1 <= 0 ? 1 : 2) : (x1 <= 9 ? 3 : 4); tree 1: a leaf of 10."""
    return {
        "depth": 2,
        "features": 2,
        "base": 1000,
        "root": [0, 7],
        #           0  1  2  3  4  5  6  7
        "feature": [0, 1, 0, 0, 1, 0, 0, 0],
        "threshold": [5, 0, 0, 0, 9, 0, 0, 0],
        "left": [1, 2, 2, 3, 5, 5, 6, 7],
        "right": [4, 3, 2, 3, 6, 5, 6, 7],
        "value": [0, 0, 1, 2, 0, 3, 4, 10],
    }


def test_a_forest_goes_left_at_or_below_its_threshold() -> None:
    x = np.array([[5, 0], [5, 1], [6, 9], [6, 10], [-3, -3]])
    assert Forest(_two_trees()).predict(x).tolist() == [1011, 1012, 1013, 1014, 1011]
    assert [walk_tree(_two_trees(), row) for row in x.tolist()] == [1011, 1012, 1013, 1014, 1011]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"depth": 1}, "deeper than its depth 1"),
        ({"value": [0, 0, 1]}, "differ in length"),
        ({"feature": [0, 2, 0, 0, 1, 0, 0, 0]}, "outside its width"),
        ({"right": [4, 3, 2, 3, 6, 5, 6, 8]}, "outside its arrays"),
        ({"root": [0, 4]}, "a node is unreached or shared"),
        (
            {"left": [1, 2, 2, 3, 5, 5, 6, 7], "right": [4, 3, 2, 3, 6, 5, 6, 7], "root": [0, 1]},
            "a node is unreached or shared",
        ),
    ],
)
def test_a_forest_that_is_not_trees_of_its_depth_is_refused(change: dict, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Forest({**_two_trees(), **change})


@pytest.mark.parametrize("n", SIZES)
def test_the_stored_forest_walks_as_its_trees(n: int) -> None:
    """Random integer rows within the features' ranges: the vectorised walk equals each tree
    walked from its root one node at a time."""
    doc = _doc()["sizes"][str(n)]
    model = forest(n)
    assert model is not None and model.width == 8 + 7 * (n - 1)
    rng = np.random.default_rng(n)
    x = rng.integers(0, 64, size=(40, model.width))
    x[:, 0] = rng.integers(0, 22_100, size=40)
    got = model.predict(x).tolist()
    assert got == [walk_tree(doc, row) for row in x.tolist()]


def test_features_name_each_seat_then_the_others_from_the_best_hand_down() -> None:
    """Three seats, the dealer seat 2 (so seat 0 speaks first, RULES 5.2): seat 1 holds the best
    hand, seat 0 the worst."""
    places = np.array([0, 1, 2])
    ranked = np.array([10, 20_000, 500])  # places among the 22,100 hands
    weights = np.array([[64, 0, 0, 0, 0], [0, 64, 0, 0, 0], [0, 0, 32, 32, 0]])
    rows = features(places, ranked[None, :], weights).tolist()
    assert rows[0] == [10, 2, 0, 64, 0, 0, 0, 0, 20_000, 1, 0, 64, 0, 0, 0, 500, 2, 0, 0, 32, 32, 0]
    assert rows[1][:3] == [20_000, 0, 1] and rows[1][8:10] == [500, 2] and rows[1][15:17] == [10, 0]
    swapped = features(places, ranked[np.array([[1, 0, 2]])], weights).tolist()
    assert swapped[0][:3] == [20_000, 0, 0]  # seat 0 now holds the best hand, at its own place


@pytest.mark.parametrize("n", SIZES)
def test_the_term_equals_one_computed_a_node_at_a_time(n: int) -> None:
    rng = random.Random(f"forest/{n}")
    for _ in range(3):
        hands, weights, dealer = _random_deal(rng, n)
        got = forest_units(hands, weights, dealer)
        assert got is not None and sum(got) == 0  # a deal's terms sum to 0
        assert got == forest_term(hands, weights, dealer)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_term_averages_to_zero_exactly_over_every_way_the_hands_went_round(n: int) -> None:
    """Given the past and the set of hands dealt, a fresh deal's hands go to the seats in any
    order alike (RULES 3.4): over all n! orders each seat's term averages to exactly 0, whatever
    the forest says and whatever the posteriors and the dealer. (Seven players take the same
    path as five and six, the rotations and three shuffles, over 5,040 orders: left out.)"""
    rng = random.Random(f"mean/{n}")
    for _ in range(2 if n < 6 else 1):
        hands, weights, dealer = _random_deal(rng, n)
        total = [Fraction(0)] * n
        spread = set()
        for p in permutations(range(n)):
            got = forest_units([hands[j] for j in p], weights, dealer)
            assert got is not None
            total = [t + g for t, g in zip(total, got, strict=True)]
            spread.add(got)
        assert total == [0] * n
        assert len(spread) > 1  # the term does depend on who got which hand


def _sharings(pool: list[int], counts: list[int]) -> list[list[tuple[int, ...]]]:
    """Every way of giving each seat ``counts[i]`` of the ``pool`` (as sets)."""
    if not counts:
        return [[]]
    out = []
    for part in combinations(pool, counts[0]):
        rest = [c for c in pool if c not in part]
        out += [[part, *tail] for tail in _sharings(rest, counts[1:])]
    return out


@pytest.mark.parametrize(
    ("n", "counts"), [(2, [2, 1]), (2, [3, 2]), (3, [2, 1, 2]), (5, [2, 1, 2, 1, 1])]
)
def test_a_partly_fresh_term_averages_to_zero_exactly_over_every_sharing_of_the_unseen(
    n: int, counts: list[int]
) -> None:
    """A partly fresh deal (RULES 3.3-3.4): each seat's cards from under the pack are known
    before the deal, and so is the set of unseen cards; how the unseen cards were shared among
    the seats' places is the chance, every sharing alike. Over every sharing each seat's term
    averages to exactly 0; it equals the term computed a node at a time; a deal's terms sum to
    0."""
    rng = random.Random(f"partly/{n}/{counts}")
    _, weights, dealer = _random_deal(rng, n)
    cards = rng.sample(range(52), 3 * n)
    pool, under = cards[: sum(counts)], cards[sum(counts) :]
    kept, at = [], 0
    for c in counts:
        kept.append(tuple(under[at : at + 3 - c]))
        at += 3 - c
    total, spread, checked = [Fraction(0)] * n, set(), 0
    for sharing in _sharings(pool, counts):
        hands = [tuple(sorted(k + s)) for k, s in zip(kept, sharing, strict=True)]
        got = partly_fresh_units(hands, set(pool), weights, dealer)  # type: ignore[arg-type]
        assert got is not None and sum(got) == 0
        if checked < 2:
            assert got == forest_term(hands, weights, dealer, set(pool))  # type: ignore[arg-type]
            checked += 1
        total = [t + g for t, g in zip(total, got, strict=True)]
        spread.add(got)
    assert total == [0] * n
    assert len(spread) > 1


def test_relabellings_are_permutations_every_one_up_to_four_cards() -> None:
    assert sorted(map(tuple, relabellings(3).tolist())) == sorted(permutations(range(3)))
    many = relabellings(7).tolist()
    assert len(many) == 15 and all(sorted(r) == list(range(7)) for r in many)
    assert partly_fresh_units([(0, 1, 2)] * 8, {0}, [(64, 0, 0, 0, 0)] * 8, 0) is None  # no forest
