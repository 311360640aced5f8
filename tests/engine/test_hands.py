"""Hand ranking, RULES section 2: check figures, named orderings and comparison vectors."""

from __future__ import annotations

import doctest
from collections import Counter, defaultdict
from itertools import combinations, pairwise

import pytest

import engine.hands
from engine.hands import (
    Category,
    category,
    category_of_strength,
    describe,
    strength,
    strength_codes,
)
from events.cards import FULL_PACK, Card


def hand(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def s(text: str) -> int:
    return strength(hand(text))


ALL_HANDS = list(combinations(FULL_PACK, 3))


# --- RULES 2.8 check figures -------------------------------------------------------------------


def test_all_hands_count() -> None:
    assert len(ALL_HANDS) == 22_100


def test_category_counts_rules_2_8() -> None:
    counts = Counter(category(h) for h in ALL_HANDS)
    assert counts == {
        Category.PRIAL: 52,
        Category.RUNNING_FLUSH: 48,
        Category.RUN: 720,
        Category.FLUSH: 1_096,
        Category.PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


def test_distinct_strengths_rules_2_8() -> None:
    keys = {strength(h) for h in ALL_HANDS}
    assert len(keys) == 741
    per_cat: dict[Category, set[int]] = defaultdict(set)
    for key in keys:
        per_cat[category_of_strength(key)].add(key)
    assert {c: len(v) for c, v in per_cat.items()} == {
        Category.PRIAL: 13,
        Category.RUNNING_FLUSH: 12,
        Category.RUN: 12,
        Category.FLUSH: 274,
        Category.PAIR: 156,
        Category.HIGH_CARD: 274,
    }


def test_categories_are_contiguous_bands() -> None:
    """Every key of a higher category exceeds every key of a lower one (RULES 2.2)."""
    by_cat: dict[Category, list[int]] = defaultdict(list)
    for h in ALL_HANDS:
        by_cat[category(h)].append(strength(h))
    ordered = sorted(Category)
    for lower, higher in pairwise(ordered):
        assert max(by_cat[lower]) < min(by_cat[higher]), (lower, higher)


def test_codes_and_cards_agree_and_order_free() -> None:
    for a, b, c in ALL_HANDS:
        key = strength((a, b, c))
        assert strength_codes(a.code, b.code, c.code) == key
        assert strength_codes(c.code, a.code, b.code) == key
        assert strength(iter([b, c, a])) == key
        assert category_of_strength(key) == category([a, b, c])


# --- An independent reference ranking, written straight from RULES 2.2-2.7 ------------------------

_SEQUENCES_BEST_FIRST = [{14, 2, 3}] + [{top, top - 1, top - 2} for top in range(14, 3, -1)]
_PRIALS_BEST_FIRST = [3, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2]


def reference_key(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    ranks = sorted((c.rank for c in cards), reverse=True)
    suited = len({c.suit for c in cards}) == 1
    counts = Counter(ranks)
    if len(counts) == 1:
        return (5, (-_PRIALS_BEST_FIRST.index(ranks[0]),))
    if set(ranks) in _SEQUENCES_BEST_FIRST:
        place = -_SEQUENCES_BEST_FIRST.index(set(ranks))
        return (4 if suited else 3, (place,))
    if len(counts) == 2:
        (pair, _), (odd, _) = counts.most_common()
        return (1, (pair, odd))
    return (2 if suited else 0, tuple(ranks))


def test_matches_reference_ranking_exactly() -> None:
    """strength orders and equates all 22,100 hands exactly as the reference does."""
    ref_to_key: dict[tuple[int, tuple[int, ...]], int] = {}
    for h in ALL_HANDS:
        key = strength(h)
        assert ref_to_key.setdefault(reference_key(h), key) == key
    assert len(set(ref_to_key.values())) == len(ref_to_key) == 741
    refs = sorted(ref_to_key)
    keys = [ref_to_key[r] for r in refs]
    assert keys == sorted(keys)


# --- RULES 2.3 to 2.7 named orderings -------------------------------------------------------------


def test_prials_rules_2_3() -> None:
    assert s("3c 3d 3h") > s("Ac Ad Ah") > s("Kc Kd Ks") > s("Qc Qd Qh") > s("4c 4d 4s")
    assert s("4c 4d 4s") > s("2c 2d 2h")
    prials = {strength(h) for h in ALL_HANDS if category(h) is Category.PRIAL}
    assert min(prials) == s("2c 2d 2s")
    assert max(prials) == s("3d 3h 3s")


@pytest.mark.parametrize("suited", [True, False])
def test_sequences_rules_2_4(suited: bool) -> None:
    def seq(ranks: str) -> int:
        suits = "ccc" if suited else "cdh"
        return s(" ".join(r + x for r, x in zip(ranks.split(), suits, strict=True)))

    order = ["A 2 3", "A K Q", "K Q J", "Q J T", "J T 9", "T 9 8", "9 8 7", "8 7 6", "7 6 5"]
    order += ["6 5 4", "5 4 3", "4 3 2"]
    keys = [seq(r) for r in order]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == 12
    want = Category.RUNNING_FLUSH if suited else Category.RUN
    assert all(category_of_strength(k) is want for k in keys)


def test_any_running_flush_beats_any_run_beats_any_flush() -> None:
    assert s("4s 3s 2s") > s("Ah 2d 3c")  # lowest running flush > best run
    assert s("4s 3h 2d") > s("Ac Kc Jc")  # lowest run > best flush (RULES 2.2)
    assert s("2c 3c 5c") > s("Ac Ad Kh")  # lowest flush > best pair
    assert s("2c 2d 3h") > s("Ac Kd Jh")  # lowest pair > best high card


def test_wrap_is_not_a_sequence_rules_2_4() -> None:
    assert category(hand("Kc Ad 2h")) is Category.HIGH_CARD
    assert category(hand("Kc Ac 2c")) is Category.FLUSH
    assert category(hand("Qc Kd Ah")) is Category.RUN
    assert category(hand("Qh Kh Ah")) is Category.RUNNING_FLUSH
    assert category(hand("Ac 2d 3h")) is Category.RUN
    assert s("Kc Ad 2h") < s("Ah Kd 3s")  # K-A-2 is just A-K-2 high
    assert s("Kc Ad 2h") > s("Qc Jd 9h")


def test_high_card_and_flush_rules_2_5() -> None:
    for suits in ("cdh", "sss"):

        def h(ranks: str, suits: str = suits) -> int:
            return s(" ".join(r + x for r, x in zip(ranks.split(), suits, strict=True)))

        assert h("A 7 2") > h("K Q T")
        assert h("K 9 2") > h("Q T 5") > h("Q T 3") > h("Q 9 8")
    assert category(hand("Ac 7c 2c")) is Category.FLUSH
    assert category(hand("Ac 7d 2c")) is Category.HIGH_CARD


def test_pairs_rules_2_6() -> None:
    assert s("9c 9d 3h") > s("8c 8d Kh") > s("8h 8s Jd")
    assert s("Ac Ad Kh") > s("Ks Kh Ad")
    assert s("3c 3d 2h") > s("2c 2s Ad") > s("2h 2d Kc") > s("2c 2s 3d")


def test_equal_hands_rules_2_7() -> None:
    assert s("7s 7h Qc") == s("7c 7d Qd")
    assert s("As 2s 3s") == s("Ah 2h 3h")
    assert s("Kc 9c 4c") == s("Kd 9d 4d")
    assert s("5s 6h 7d") == s("5c 6c 7d")


def test_worked_example_rules_5_10() -> None:
    b, a = hand("5s 6h 7d"), hand("Kc 9c 4c")
    assert category(b) is Category.RUN
    assert category(a) is Category.FLUSH
    assert strength(b) > strength(a)


# --- Comparison vectors derived from RULES 2 ------------------------------------------------------

VECTORS = [
    # (hand a, hand b, expected comparison of a with b, reason)
    ("Ah Ad Kc", "Kh Qd Jc", "<", "2.2 run beats pair"),
    ("2c 2d 2h", "Ac Kc Qc", ">", "2.2 prial beats running flush"),
    ("Ac 2c 3c", "Ad Kd Qd", ">", "2.4 A-2-3 beats A-K-Q"),
    ("Ac 2d 3h", "Kc Qc Jc", "<", "2.4 running flush beats run"),
    ("4c 3d 2h", "Ac Kc Jc", ">", "2.2 run beats flush"),
    ("2c 3c 5c", "Ah Ad Kc", ">", "2.2 flush beats pair"),
    ("2c 3d 2h", "Ac Kd Jh", ">", "2.2 pair beats high card"),
    ("Kc Ad 2h", "Qc Jd 9h", ">", "2.4/2.5 K-A-2 is ace-high"),
    ("Kc Ad 2h", "Ah Kd 3s", "<", "2.5 third card decides"),
    ("Kc Ac 2c", "Kd Ad 3d", "<", "2.5 flush third card"),
    ("Kc Ac 2c", "4h 3d 2s", "<", "2.4 K-A-2 flush is no run"),
    ("Qc Kd Ah", "Jc Qd Kh", ">", "2.4 A-K-Q beats K-Q-J"),
    ("3c 3d 3h", "Ac Ad Ah", ">", "2.3 3-3-3 best prial"),
    ("As 2s 3s", "Ah 2h 3h", "=", "2.7 suits never tie-break"),
    ("Kc 9c 4c", "Kd 9d 4d", "=", "2.7 equal flushes"),
    ("9c 9d 3h", "8c 8d Kh", ">", "2.6 pair rank first"),
    ("8c 8d Kh", "8h 8s Kd", "=", "2.7 equal pairs"),
    ("8c 8d Kh", "8h 8s Jd", ">", "2.6 odd card second"),
    ("Ac 7d 2h", "Kc Qd Th", ">", "2.5 highest card first"),
    ("Ac 7c 2c", "Kd Qd Td", ">", "2.5 flush highest card first"),
    ("5s 6h 7d", "Kc 9c 4c", ">", "5.10 run beats flush"),
    ("Ac 2d 3h", "Ad Kh Qs", ">", "2.4 A-2-3 run beats A-K-Q run"),
    ("2c 3d 4h", "Ac Kd Qh", "<", "2.4 4-3-2 is the lowest run"),
    ("4s 3s 2s", "Ah Kh Qd", ">", "2.4 any running flush beats any run"),
    ("2c 2d 2h", "3s 4s 5s", ">", "2.2 lowest prial beats running flush"),
    ("Ac Ad 2h", "Kc Kd Qh", ">", "2.6 aces are the top pair"),
    ("2c 2d Ah", "3c 3d 4h", "<", "2.6 twos are the bottom pair"),
    ("Ac Kd 9h", "Ac Qd Jh", ">", "2.5 second card decides"),
]


@pytest.mark.parametrize(("a", "b", "cmp", "reason"), VECTORS, ids=[v[3] for v in VECTORS])
def test_comparison_vectors(a: str, b: str, cmp: str, reason: str) -> None:
    ka, kb = s(a), s(b)
    got = ">" if ka > kb else "<" if ka < kb else "="
    assert got == cmp, reason


# --- Category labels, describe, strength_codes ----------------------------------------------------


def test_category_labels() -> None:
    assert [c.label for c in Category] == [
        "high card",
        "pair",
        "flush",
        "run",
        "running flush",
        "prial",
    ]
    assert [int(c) for c in Category] == [0, 1, 2, 3, 4, 5]
    for c in Category:
        assert Category.from_label(c.label) is c
    for bad in ("High Card", "straight", "", "running_flush"):
        with pytest.raises(ValueError, match="unknown hand category"):
            Category.from_label(bad)


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ("3c 3d 3h", "prial of threes"),
        ("6c 6d 6h", "prial of sixes"),
        ("2d Ad 3d", "running flush, A-2-3"),
        ("4s 2s 3s", "running flush, 4-3-2"),
        ("Qc Kd Ah", "run, A-K-Q"),
        ("Tc Jd 9h", "run, J-10-9"),
        ("Kc 4c 9c", "flush, K-9-4"),
        ("Qh 9c Qs", "pair of queens, 9"),
        ("2h Ac 2s", "pair of twos, A"),
        ("Ac 7d 2h", "high card, A-7-2"),
        ("Kc Ad 2h", "high card, A-K-2"),
    ],
)
def test_describe(cards: str, text: str) -> None:
    assert describe(hand(cards)) == text


def test_category_of_strength_rejects_non_keys() -> None:
    for bad in (-1, 6 << 12, 1 << 40):
        with pytest.raises(ValueError):
            category_of_strength(bad)


# --- Errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["Kc 2d", "Kc 2d 3h 4s", "", "Kc", "Kc Kc 2d", "2d 2d 2d"])
def test_bad_hands_raise_value_error(cards: str) -> None:
    for fn in (strength, category, describe):
        with pytest.raises(ValueError, match=r"RULES 2\.[12]"):
            fn(hand(cards))


def test_repeated_card_message_names_the_cards() -> None:
    with pytest.raises(ValueError, match="repeated card: Kc Kc 2d"):
        strength(hand("Kc Kc 2d"))


@pytest.mark.parametrize(("a", "b", "c"), [(1, 1, 2), (0, 0, 0), (-1, 2, 3), (1, 2, 52)])
def test_bad_codes_raise_value_error(a: int, b: int, c: int) -> None:
    with pytest.raises(ValueError):
        strength_codes(a, b, c)


def test_non_cards_raise_type_error() -> None:
    with pytest.raises(TypeError):
        strength(["Kc", "2d", "3h"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        strength_codes(1.0, 2, 3)  # type: ignore[arg-type]


def test_doctests() -> None:
    result = doctest.testmod(engine.hands)
    assert result.attempted >= 8
    assert result.failed == 0
