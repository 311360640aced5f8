"""engine.odds: each hand's chance to be the best at a showdown (RULES 2.2-2.7), checked against a
brute-force enumeration written here from the ranking alone, on hand-worked spots."""

from __future__ import annotations

import doctest
from fractions import Fraction
from itertools import combinations

import pytest

import engine.odds
from engine.hands import strength_codes
from engine.odds import showdown_odds
from engine.state import card_codes


def codes(text: str) -> tuple[int, ...]:
    return card_codes(tuple(text.split()))


def brute(hands: list[tuple[int, ...]]) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Every way to fill the unknown places, one by one, from the cards nobody holds."""
    pool = [c for c in range(52) if c not in {c for h in hands for c in h}]
    opens = [k for k, h in enumerate(hands) if len(h) < 3]
    wins = [[0, 0, 0] for _ in hands]
    total = 0

    def go(k: int, left: list[int], filled: dict[int, tuple[int, ...]]) -> None:
        nonlocal total
        if k == len(opens):
            full = [hands[i] + filled.get(i, ()) for i in range(len(hands))]
            keys = [strength_codes(*h) for h in full]
            top = max(keys)
            tops = keys.count(top)
            for i, key in enumerate(keys):
                wins[i][0 if key == top and tops == 1 else 1 if key == top else 2] += 1
            total += 1
            return
        i = opens[k]
        for chosen in combinations(left, 3 - len(hands[i])):
            go(k + 1, [c for c in left if c not in chosen], {**filled, i: chosen})

    go(0, pool, {})
    return [(Fraction(b, total), Fraction(t, total), Fraction(x, total)) for b, t, x in wins]


def test_doctests() -> None:
    assert doctest.testmod(engine.odds).failed == 0


def test_a_seen_a23_against_one_unknown_hand_by_hand() -> None:
    """A-2-3 of hearts (RULES 2.4: the best sequence) loses only to a prial (RULES 2.2): 4 of
    each of 10 ranks and 1 each of aces, twos and threes left = 43 hands of C(49,3) = 18,424;
    it ties with the 3 other suits' A-2-3 running flushes (RULES 2.7)."""
    me, them = showdown_odds([codes("Ah 2h 3h"), ()])
    assert (me.beaten, me.tied) == (Fraction(43, 18424), Fraction(3, 18424))
    assert me.best == 1 - Fraction(46, 18424) and me.exact and me.ways == 18424
    assert (them.best, them.tied) == (me.beaten, me.tied)


@pytest.mark.parametrize(
    "spot",
    [
        ["Ah 2h 3h", ""],  # the A-2-3 above
        ["Kc 9c 4c", ""],  # a flush: any run beats it (RULES 2.2)
        ["7s 7h Qc", ""],  # a pair (RULES 2.6)
        ["5s 6h", "Kd Qd Jd"],  # a blind showdown half turned (RULES 5.8)
        ["5s 6h 7d", "Kc 9c 4c", "2d"],  # the card's worked example, a third hand barely known
    ],
)
def test_odds_equal_brute_force_and_sum_to_one(spot: list[str]) -> None:
    hands = [codes(h) if h else () for h in spot]
    got = showdown_odds(hands)
    want = brute(hands)
    for o, (b, t, x) in zip(got, want, strict=True):
        assert o.exact and (o.best, o.tied, o.beaten) == (b, t, x)
        assert o.best + o.tied + o.beaten == 1
    # with ties: exactly one hand is best, or the best is shared
    assert sum(o.best for o in got) + max(o.tied for o in got) <= 1


def test_every_card_known_is_certain() -> None:
    """RULES 5.10's example: B's run beats A's flush (any run beats any flush)."""
    a, b = showdown_odds([codes("Kc 9c 4c"), codes("5s 6h 7d")])
    assert (a.best, a.beaten, b.best, a.ways) == (0, 1, 1, 1)
    same = showdown_odds([codes("7s 7h Qc"), codes("7c 7d Qd")])  # RULES 2.7: equal hands
    assert all(o.tied == 1 for o in same)


def test_a_dead_card_is_not_dealt_again() -> None:
    """A card the viewer knows elsewhere (a folded hand seen) cannot be in an unknown hand."""
    alive = showdown_odds([codes("Ah 2h 3h"), ()])[0]
    dead = showdown_odds([codes("Ah 2h 3h"), ()], codes("Ks Kd Kc"))[0]
    assert dead.ways == 15180  # C(46,3)
    assert dead.beaten == Fraction(43 - 4, 15180)  # the four K-K-K prials are gone (one K left)
    assert alive.beaten != dead.beaten


def test_three_unknown_hands_are_a_fixed_seed_estimate_with_its_margin() -> None:
    one = showdown_odds([codes("Ah Kd 7c"), (), (), ()])
    assert not one[0].exact and one[0].ways == engine.odds.SAMPLES
    engine.odds._odds.cache_clear()
    assert one == showdown_odds([codes("Ah Kd 7c"), (), (), ()])  # the same answer every time
    assert 0 < one[0].margin < 0.03
    assert one[0].best + one[0].tied + one[0].beaten == 1
    # the estimate is near the truth: heads-up it is exact, and 3 opponents make it smaller
    heads_up = showdown_odds([codes("Ah Kd 7c"), ()])[0].best
    assert one[0].best < heads_up


@pytest.mark.parametrize(
    "hands, message",
    [
        ([codes("Ah 2h 3h")], "at least two hands"),
        ([codes("Ah 2h 3h"), codes("Ah")], "known twice"),
        ([(1, 2, 3, 4), ()], "three cards"),
        ([(60,), ()], "0..51"),
    ],
)
def test_bad_questions_are_refused(hands: list[tuple[int, ...]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        showdown_odds(hands)
