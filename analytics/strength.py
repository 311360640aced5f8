"""Exact strength of a shown hand: what share of all hands it beats, and its heads-up chances.

For a hand ``H`` of three cards (RULES 2):

- ``beats``: how many of all C(52,3) = 22,100 hands have a strictly lower strength key
  (:func:`engine.hands.strength_codes`); hands sharing cards with ``H`` count too. The *strength
  share* is ``beats / 22100``.
- ``wins``, ``ties``, ``losses``: against each of the C(49,3) = 18,424 hands that can be dealt
  from the other 49 cards, ``H`` is strictly better, equal (RULES 2.7) or worse. The *heads-up
  win chance* is ``wins / 18424``; a tie is reported apart because who takes it depends on who
  paid (RULES 5.8).

Computed exactly without enumerating 22,100 x 18,424 pairs: the hands below (or level with) ``H``
that share a card with ``H`` are counted by inclusion-exclusion over ``H``'s three cards, from the
strength keys of the 1,275 hands holding each card and the 50 holding each pair of cards, kept
sorted (``bisect``). The whole table of 22,100 hands takes well under a second and is built once per
process (:func:`table`); a single hand needs only the sorted lists (:func:`hand_strength`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from engine.hands import category_of_strength, strength_codes

__all__ = ["ALL_HANDS", "OPPONENT_HANDS", "HandStrength", "hand_strength", "table"]

ALL_HANDS: Final = 22_100
"""C(52,3): every hand of the pack (RULES 2.8)."""
OPPONENT_HANDS: Final = 18_424
"""C(49,3): the hands one opponent can hold once three cards are known."""


@dataclass(frozen=True, slots=True)
class HandStrength:
    """The exact standing of one hand (see the module doc); counts are whole numbers."""

    cards: tuple[int, int, int]
    """Card codes, ascending."""
    strength: int
    """The engine's strength key (larger is better)."""
    category: str
    """RULES 2.2 category label."""
    beats: int
    """Hands of all 22,100 strictly weaker."""
    wins: int
    """Of the 18,424 hands from the other 49 cards, strictly weaker."""
    ties: int
    """... equal (RULES 2.7)."""
    losses: int
    """... strictly stronger."""

    @property
    def beats_share(self) -> float:
        return self.beats / ALL_HANDS

    @property
    def win_chance(self) -> float:
        return self.wins / OPPONENT_HANDS


class _Index:
    """Sorted strength keys: of all hands, of the hands holding each card and each pair."""

    def __init__(self) -> None:
        every: list[int] = []
        by_card: list[list[int]] = [[] for _ in range(52)]
        by_pair: dict[tuple[int, int], list[int]] = {}
        for a, b, c in combinations(range(52), 3):
            k = strength_codes(a, b, c)
            every.append(k)
            by_card[a].append(k)
            by_card[b].append(k)
            by_card[c].append(k)
            for p in ((a, b), (a, c), (b, c)):
                by_pair.setdefault(p, []).append(k)
        every.sort()
        for lst in by_card:
            lst.sort()
        for lst in by_pair.values():
            lst.sort()
        self.every = every
        self.by_card = by_card
        self.by_pair = by_pair

    def count_disjoint(self, cards: tuple[int, int, int], key: int, *, inclusive: bool) -> int:
        """Hands sharing no card with ``cards`` whose key is < ``key`` (or <= when inclusive)."""
        count = bisect_right if inclusive else bisect_left
        a, b, c = cards
        n = count(self.every, key)
        n -= count(self.by_card[a], key) + count(self.by_card[b], key) + count(self.by_card[c], key)
        n += (
            count(self.by_pair[(a, b)], key)
            + count(self.by_pair[(a, c)], key)
            + count(self.by_pair[(b, c)], key)
        )
        if inclusive:  # the hand itself holds all three cards and is level with itself
            n -= 1
        return n


@cache
def _index() -> _Index:
    return _Index()


@cache
def hand_strength(a: int, b: int, c: int) -> HandStrength:
    """The :class:`HandStrength` of the hand of card codes ``a``, ``b``, ``c`` (any order).

    >>> h = hand_strength(48, 49, 50)   # A-A-A: only the four 3-3-3 are better (RULES 2.3)
    >>> h.category, h.beats, h.wins, h.ties, h.losses
    ('prial', 22092, 18420, 0, 4)
    """
    cards = tuple(sorted((a, b, c)))
    assert len(cards) == 3
    x, y, z = cards
    key = strength_codes(x, y, z)
    idx = _index()
    below = idx.count_disjoint((x, y, z), key, inclusive=False)
    level = idx.count_disjoint((x, y, z), key, inclusive=True)
    return HandStrength(
        cards=(x, y, z),
        strength=key,
        category=category_of_strength(key).label,
        beats=bisect_left(idx.every, key),
        wins=below,
        ties=level - below,
        losses=OPPONENT_HANDS - level,
    )


def table() -> list[HandStrength]:
    """All 22,100 hands, in ascending order of their card codes."""
    return [hand_strength(a, b, c) for a, b, c in combinations(range(52), 3)]
