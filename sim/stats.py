"""Measurements over simulated streams: hand-category shares and how the styles play.

Both read only the event streams (``cards: "all"`` ones for the hands), the way an analyst would.

- :func:`category_counts`: the categories of every dealt hand, split into deals right after a
  shuffle and the others (deals from the unshuffled pack, RULES 3.2-3.3).
- :func:`style_table`: per style, the share of its deals played blind, the share in which it saw,
  folded, won, and its net per deal.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, sqrt
from typing import Final

from engine.hands import Category, category_of_strength, strength_codes
from engine.state import card_codes
from events.model import (
    AnyEvent,
    Bet,
    Dealt,
    Folded,
    Looked,
    PotWon,
    Saw,
    SessionEnded,
    SessionStarted,
    Shuffled,
    Thrown,
)

__all__ = [
    "RULES_2_8",
    "CategoryCounts",
    "StyleRow",
    "category_counts",
    "sigma_bounds",
    "style_table",
]

RULES_2_8: Final[dict[Category, int]] = {
    Category.PRIAL: 52,
    Category.RUNNING_FLUSH: 48,
    Category.RUN: 720,
    Category.FLUSH: 1096,
    Category.PAIR: 3744,
    Category.HIGH_CARD: 16440,
}
"""RULES 2.8's check figures: hands of each category out of C(52,3) = 22,100."""
HANDS: Final = comb(52, 3)


@dataclass
class CategoryCounts:
    """Dealt hands by category: ``after_shuffle`` (the deal right after a shuffle) and
    ``unshuffled`` (every other deal); ``deals_*`` count the deals."""

    after_shuffle: Counter[Category] = field(default_factory=Counter)
    unshuffled: Counter[Category] = field(default_factory=Counter)
    deals_after_shuffle: int = 0
    deals_unshuffled: int = 0

    @property
    def deals(self) -> int:
        return self.deals_after_shuffle + self.deals_unshuffled


def category_counts(
    streams: Iterable[Iterable[AnyEvent]], into: CategoryCounts | None = None
) -> CategoryCounts:
    """Counts the category of every dealt hand (``dealt.hands``; ``shown`` logs have none)."""
    out = into or CategoryCounts()
    for events in streams:
        fresh = False
        for e in events:
            if isinstance(e, Shuffled):
                fresh = True
            elif isinstance(e, Dealt) and e.hands is not None:
                target = out.after_shuffle if fresh else out.unshuffled
                for cards in e.hands.values():
                    target[category_of_strength(strength_codes(*card_codes(cards)))] += 1
                if fresh:
                    out.deals_after_shuffle += 1
                else:
                    out.deals_unshuffled += 1
                fresh = False
    return out


def sigma_bounds(n: int, category: Category, sigmas: float) -> tuple[float, float]:
    """The share of ``category`` among ``n`` random hands that lies within ``sigmas`` binomial
    standard deviations of RULES 2.8: ``(low, high)``."""
    p = RULES_2_8[category] / HANDS
    sd = sqrt(p * (1 - p) / n)
    return p - sigmas * sd, p + sigmas * sd


@dataclass
class StyleRow:
    """One style's totals over many player-deals."""

    deals: int = 0
    blind: int = 0
    bets: int = 0
    raises: int = 0
    saw: int = 0
    see_turns: int = 0
    folded: int = 0
    won: int = 0
    net: Fraction = Fraction(0)

    def rate(self, n: int) -> float:
        return n / self.deals if self.deals else 0.0


def style_table(
    streams: Iterable[Iterable[AnyEvent]], style_of: Mapping[str, str]
) -> dict[str, StyleRow]:
    """Per style: player-deals, deals where the player was still blind at its first bet, fold or
    see (``blind``), its bets and how many of them raised the level, deals where it paid to see
    (``saw``), its turns on which it could have seen (``see_turns``: heads-up, a level, and not
    seen against blind, RULES 5.7), folded, took the pot, and its net."""
    rows: dict[str, StyleRow] = defaultdict(StyleRow)
    for events in streams:
        watch = _StreamWatch(rows, style_of)
        for e in events:
            watch.event(e)
    return dict(rows)


@dataclass
class _StreamWatch:
    """What :func:`style_table` follows through one stream: the seats and, in the deal in
    progress, who has looked (``seen``), who has acted, who is still in, and the level."""

    rows: dict[str, StyleRow]
    style_of: Mapping[str, str]
    seats: tuple[str, ...] = ()
    seen: set[str] = field(default_factory=set)
    acted: set[str] = field(default_factory=set)
    active: set[str] = field(default_factory=set)
    level: Fraction = Fraction(0)

    def event(self, e: AnyEvent) -> None:
        if isinstance(e, SessionStarted):
            self.seats = e.seats
        elif isinstance(e, Dealt):
            self.seen, self.acted, self.active = set(), set(), set(self.seats)
            self.level = Fraction(0)
            for p in self.seats:
                self.rows[self.style_of[p]].deals += 1
        elif isinstance(e, Looked):
            self.seen.add(e.player)
        elif isinstance(e, Thrown):
            self.seen.discard(e.player)  # RULES 6.4: still blind, holding the other hand
        elif isinstance(e, Bet | Folded | Saw):
            self.decision(e)
        elif isinstance(e, PotWon):
            self.rows[self.style_of[e.player]].won += 1
        elif isinstance(e, SessionEnded):
            for p, v in e.nets.items():
                self.rows[self.style_of[p]].net += v

    def decision(self, e: Bet | Folded | Saw) -> None:
        """A bet, fold or see: blind at the player's first, a turn it could have seen, and the
        decision itself."""
        row = self.rows[self.style_of[e.player]]
        if e.player not in self.acted:
            self.acted.add(e.player)
            if e.player not in self.seen:
                row.blind += 1
        if len(self.active) == 2 and self.level:
            opponent = next(p for p in self.active if p != e.player)
            if not (e.player in self.seen and opponent not in self.seen):
                row.see_turns += 1
        if isinstance(e, Bet):
            row.bets += 1
            if self.level and e.level > self.level:
                row.raises += 1
            self.level = e.level
        elif isinstance(e, Saw):
            row.saw += 1
        else:
            row.folded += 1
            self.active.discard(e.player)
