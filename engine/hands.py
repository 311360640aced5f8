"""Three-card hand ranking (RULES section 2).

A *hand* is exactly three distinct cards. :func:`strength` maps a hand to an ``int`` key: a larger
key is a better hand, and two hands get the same key exactly when RULES 2.7 calls them equal (suits
never break a tie). The keys of all C(52,3) = 22,100 hands are computed once at import into a
lookup table, so evaluating a hand is one dictionary look-up.

Key layout (stable, may be stored): ``category << 12 | tiebreak``, where ``category`` is the
:class:`Category` value 0..5 and ``tiebreak`` (< 4096) orders hands within the category:

* prial (RULES 2.3): the rank, with 3-3-3 scored 15 (above A-A-A = 14);
* running flush and run (RULES 2.4): the top card of the sequence, with A-2-3 scored 15, A-K-Q 14,
  K-Q-J 13, ... 4-3-2 4;
* flush and high card (RULES 2.5): ``r1 * 225 + r2 * 15 + r3`` for the ranks high to low, ace 14;
* pair (RULES 2.6): ``pair_rank * 15 + odd_rank``.

>>> from events.cards import Card
>>> hand = [Card.parse(t) for t in ("5s", "6h", "7d")]
>>> category(hand).label, describe(hand)
('run', 'run, 7-6-5')
>>> flush = [Card.parse(t) for t in ("Kc", "9c", "4c")]
>>> strength(hand) > strength(flush)
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from itertools import combinations
from typing import Final

from events.cards import Card

__all__ = [
    "Category",
    "category",
    "category_of_strength",
    "describe",
    "strength",
    "strength_codes",
]


class Category(enum.IntEnum):
    """The six hand categories of RULES 2.2, valued low (0) to high (5).

    >>> Category.RUNNING_FLUSH.label
    'running flush'
    >>> Category.from_label("high card") is Category.HIGH_CARD
    True
    >>> Category.RUN > Category.FLUSH   # RULES 2.2: any run beats any flush
    True
    """

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    RUN = 3
    RUNNING_FLUSH = 4
    PRIAL = 5

    @property
    def label(self) -> str:
        """The category's words as written in JSON output, e.g. ``"running flush"``."""
        return self.name.lower().replace("_", " ")

    @classmethod
    def from_label(cls, label: str) -> Category:
        """The category whose :attr:`label` is exactly ``label``.

        Raises ``ValueError`` for any other string (labels are lower case, words separated by
        one space: ``"high card"``, ``"pair"``, ``"flush"``, ``"run"``, ``"running flush"``,
        ``"prial"``).
        """
        for member in cls:
            if member.label == label:
                return member
        known = ", ".join(repr(m.label) for m in cls)
        raise ValueError(f"unknown hand category {label!r} (RULES 2.2: one of {known})")


_SHIFT: Final = 12
_TIEBREAK_MASK: Final = (1 << _SHIFT) - 1

_RANK_TEXT: Final = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
_RANK_NAME: Final = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}


def _plural(rank: int) -> str:
    name = _RANK_NAME[rank]
    return name + ("es" if name.endswith("x") else "s")


def _sequence_top(hi: int, mid: int, lo: int) -> int:
    """Tiebreak of a sequence (ranks given high to low), or 0 if they are not a sequence.

    RULES 2.4: A-2-3 is best (15), then A-K-Q (14), K-Q-J (13) ... 4-3-2 (4); no wrap (K-A-2).
    """
    if (hi, mid, lo) == (14, 3, 2):
        return 15
    if hi - mid == 1 and mid - lo == 1:
        return hi
    return 0


def _classify(a: int, b: int, c: int) -> tuple[Category, int, tuple[int, int, int]]:
    """Category, tiebreak and ranks high to low of three distinct card codes (no checks)."""
    hi, mid, lo = sorted((a // 4 + 2, b // 4 + 2, c // 4 + 2), reverse=True)
    suited = a % 4 == b % 4 == c % 4
    ranks = (hi, mid, lo)
    if hi == lo:
        return Category.PRIAL, (15 if hi == 3 else hi), ranks
    if hi == mid or mid == lo:
        pair, odd = (hi, lo) if hi == mid else (lo, hi)
        return Category.PAIR, pair * 15 + odd, ranks
    top = _sequence_top(hi, mid, lo)
    if top:
        return (Category.RUNNING_FLUSH if suited else Category.RUN), top, ranks
    return (Category.FLUSH if suited else Category.HIGH_CARD), hi * 225 + mid * 15 + lo, ranks


def _build_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for a, b, c in combinations(range(52), 3):
        cat, tiebreak, _ = _classify(a, b, c)
        table[(1 << a) | (1 << b) | (1 << c)] = (cat << _SHIFT) | tiebreak
    return table


_BY_MASK: Final[dict[int, int]] = {}
"""Strength of the hands ranked so far, keyed by the 52-bit mask ``sum(1 << code)``: each of the
22,100 hands is classified the first time it is looked up (:func:`_ranked`), rather than all of
them when the engine is imported (a third of its import time, for a command that ranks a few
hands or none). :func:`_build_table` is the whole table at once."""


def _ranked(mask: int) -> int | None:
    """The strength of the hand whose cards are the three bits of ``mask`` below bit 52,
    remembered in :data:`_BY_MASK`; ``None`` for any other mask (exactly the masks the whole
    table lacks)."""
    if mask < 0 or mask >= 1 << 52 or mask.bit_count() != 3:
        return None
    a, b, c = (code for code in range(52) if mask >> code & 1)
    cat, tiebreak, _ = _classify(a, b, c)
    key = _BY_MASK[mask] = (cat << _SHIFT) | tiebreak
    return key


def _bad_codes(codes: tuple[object, ...]) -> Exception:
    """The error explaining why ``codes`` is not a hand of three distinct card codes."""
    if len(codes) != 3:
        return ValueError(f"a brag hand is exactly three cards, got {len(codes)} (RULES 2.2)")
    for code in codes:
        if not isinstance(code, int) or isinstance(code, bool):
            return TypeError(f"card code {code!r} is not an int")
        if not 0 <= code < 52:
            return ValueError(f"card code {code} is not in 0..51")
    return ValueError(
        "a brag hand is three distinct cards from one pack, got a repeated card: "
        + " ".join(str(Card(code)) for code in codes if isinstance(code, int))
        + " (RULES 2.1)"
    )


def strength_codes(a: int, b: int, c: int) -> int:
    """Strength key of the hand made of the card codes ``a``, ``b``, ``c`` (any order).

    Codes are :attr:`events.cards.Card.code` values, 0..51. Returns the same key as
    :func:`strength` (see the module docstring for its layout); implements RULES 2.2-2.7.
    Raises ``ValueError`` if a code is outside 0..51 or two codes are equal, ``TypeError`` if a
    code is not an ``int``.

    >>> strength_codes(0, 1, 2) == strength_codes(1, 2, 3)   # 2-2-2, suits never matter
    True
    """
    try:
        mask = (1 << a) | (1 << b) | (1 << c)
    except (TypeError, ValueError):  # non-int or negative code
        raise _bad_codes((a, b, c)) from None
    key = _BY_MASK.get(mask)
    if key is None:
        key = _ranked(mask)
        if key is None:
            raise _bad_codes((a, b, c))
    return key


def strength(cards: Iterable[Card]) -> int:
    """Strength key of a hand: an iterable of exactly three distinct :class:`Card` values.

    Larger is better; equal hands (RULES 2.7) get equal keys, so keys compare exactly as
    RULES 2.2-2.7 rank hands. Raises ``ValueError`` for fewer or more than three cards or a
    repeated card, ``TypeError`` if an item is not a :class:`Card`.

    >>> from events.cards import Card
    >>> def hand(text: str) -> list[Card]:
    ...     return [Card.parse(t) for t in text.split()]
    >>> strength(hand("3c 3d 3h")) > strength(hand("Ac Ad Ah"))   # RULES 2.3
    True
    >>> strength(hand("7s 7h Qc")) == strength(hand("7c 7d Qd"))  # RULES 2.7
    True
    """
    cs = tuple(cards)
    if len(cs) == 3:
        try:
            mask = (1 << cs[0].code) | (1 << cs[1].code) | (1 << cs[2].code)
        except AttributeError:
            mask = 0
        key = _BY_MASK.get(mask)
        if key is None:
            key = _ranked(mask)
        if key is not None:
            return key
    if len(cs) == 3:
        for item in cs:
            if not isinstance(item, Card):
                raise TypeError(f"a hand holds Card values, not {type(item).__name__}")
    raise _bad_codes(tuple(getattr(item, "code", item) for item in cs))


def category_of_strength(key: int) -> Category:
    """The :class:`Category` (RULES 2.2) of a key returned by :func:`strength`.

    Raises ``ValueError`` if ``key`` is not a possible strength key.

    >>> category_of_strength(strength_codes(48, 49, 50)).label   # A-A-A
    'prial'
    """
    cat = key >> _SHIFT if key >= 0 else -1
    if not 0 <= cat <= Category.PRIAL:
        raise ValueError(f"{key!r} is not a hand strength key")
    return Category(cat)


def category(cards: Iterable[Card]) -> Category:
    """The :class:`Category` (RULES 2.2) of a hand of exactly three distinct cards.

    Raises as :func:`strength` does.
    """
    return Category(strength(cards) >> _SHIFT)


def describe(cards: Iterable[Card]) -> str:
    """Short English description of a hand of three distinct cards, e.g. ``"pair of queens, 9"``.

    Forms: ``"prial of threes"``, ``"running flush, A-2-3"``, ``"run, 4-3-2"``,
    ``"flush, K-9-4"``, ``"pair of queens, 9"`` (the odd card after the comma),
    ``"high card, A-7-2"``. Ranks are written ``A K Q J 10 9 ... 2``; sequences are written high to
    low except A-2-3 (RULES 2.4). Raises as :func:`strength` does.

    >>> from events.cards import Card
    >>> describe([Card.parse(t) for t in ("Qh", "9c", "Qs")])
    'pair of queens, 9'
    >>> describe([Card.parse(t) for t in ("2d", "Ad", "3d")])
    'running flush, A-2-3'
    """
    cs = tuple(cards)
    strength(cs)  # validates
    cat, _, (hi, mid, lo) = _classify(cs[0].code, cs[1].code, cs[2].code)
    if cat is Category.PRIAL:
        return f"prial of {_plural(hi)}"
    if cat is Category.PAIR:
        pair, odd = (hi, lo) if hi == mid else (lo, hi)
        return f"pair of {_plural(pair)}, {_RANK_TEXT[odd]}"
    order = (14, 2, 3) if (hi, mid, lo) == (14, 3, 2) else (hi, mid, lo)
    return f"{cat.label}, " + "-".join(_RANK_TEXT[r] for r in order)
