"""Playing cards: the value type and the notations of FORMAT.md "Cards".

A card is written as two characters, rank then suit: ranks ``A K Q J T 9 8 7 6 5 4 3 2``
(RULES 2.1), suits ``c d h s``. Readers also accept ``10`` for ``T``, upper-case suits and the
symbols ``♣ ♦ ♥ ♠``; writers write the canonical form.

>>> Card.parse("10♥")
Card.parse('Th')
>>> str(Card.parse("qS"))
'Qs'
>>> Card.parse("Ah").rank, Card.parse("2c").rank
(14, 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from events.errors import PlainError

RANKS: Final = "23456789TJQKA"
"""Rank characters, low to high; a card's rank value is its index + 2 (2..14, ace high)."""
SUITS: Final = "cdhs"
"""Suit characters; suits have no order (RULES 2.1), this is only a stable numbering."""

_SUIT_ALIASES: Final = {
    "♣": "c",
    "♦": "d",
    "♥": "h",
    "♠": "s",
    "♧": "c",
    "♢": "d",
    "♡": "h",
    "♤": "s",
}


class CardError(PlainError, ValueError):
    """A card written in no notation that FORMAT.md accepts (a refusal of the one family)."""

    rule_name = "FORMAT"


class Card:
    """One card of the 52-card pack (RULES 2.1), immutable and hashable.

    ``code`` is ``(rank - 2) * 4 + suit`` in 0..51, ``rank`` is 2..14 (ace high), ``suit`` 0..3.
    """

    __slots__ = ("code",)
    code: int

    def __init__(self, code: int) -> None:
        if not 0 <= code < 52:
            raise CardError(f"card code {code} is not in 0..51")
        object.__setattr__(self, "code", code)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Reads a card in any accepted notation; raises :class:`CardError` otherwise."""
        return card(text)

    @property
    def rank(self) -> int:
        return self.code // 4 + 2

    @property
    def suit(self) -> int:
        return self.code % 4

    def __str__(self) -> str:
        return RANKS[self.code // 4] + SUITS[self.code % 4]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.code == self.code

    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code


def _parse_code(text: str) -> int:
    if not isinstance(text, str):
        raise CardError(f"a card is a string, not {type(text).__name__}")
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        rank_ch, suit_ch = "T", t[2]
    elif len(t) == 2:
        rank_ch, suit_ch = t[0].upper(), t[1]
    else:
        raise CardError(f"{text!r} is not a card (rank then suit, e.g. 'Kc', 'Td', '10♥')")
    suit_ch = _SUIT_ALIASES.get(suit_ch, suit_ch.lower())
    r = RANKS.find(rank_ch)
    s = SUITS.find(suit_ch)
    if r < 0 or s < 0 or len(suit_ch) != 1:
        raise CardError(f"{text!r} is not a card (rank then suit, e.g. 'Kc', 'Td', '10♥')")
    return r * 4 + s


FULL_PACK: Final = tuple(Card(c) for c in range(52))
"""The 52 cards, in code order."""

_CANONICAL: Final = {str(c): c for c in FULL_PACK}


def canonical(text: str) -> str:
    """The canonical two-character form of a card in any accepted notation (raises CardError)."""
    if text in _CANONICAL:
        return text
    return str(FULL_PACK[_parse_code(text)])


def card(text: str) -> Card:
    """The :class:`Card` for a canonical or accepted notation (raises CardError)."""
    c = _CANONICAL.get(text)
    return c if c is not None else FULL_PACK[_parse_code(text)]


_SUIT_SYMBOL: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def face(text: str) -> str:
    """A card as people read it, the one face of the terminal, the pages and the refusals: the
    rank as printed on the card, the suit as its symbol (``"Td"`` -> ``"10♦"``; any accepted
    notation, raises :class:`CardError`).

    >>> face("Td"), face("ah"), faces(["Kc", "9c", "4c"])
    ('10♦', 'A♥', 'K♣ 9♣ 4♣')
    """
    code = canonical(text)
    return ("10" if code[0] == "T" else code[0]) + _SUIT_SYMBOL[code[1]]


def faces(cards: Iterable[str]) -> str:
    """:func:`face` of each card, space-separated."""
    return " ".join(face(c) for c in cards)
