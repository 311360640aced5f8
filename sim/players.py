"""Simulated players: five table styles a Brag player would recognise.

A simulated player decides **only** by choosing one of the actions that
:func:`engine.legal.legal_actions` lists for them; it never builds an event itself. What it may know
is in a :class:`View`: the public table (level, pot, who is still in and who is blind, the cards
turned at a showdown) and its *own* cards, and those only once it has looked at them (RULES 5.1).
An unseen hand is ``None`` in the view, so a blind player cannot play on cards it has not seen.

The styles (:data:`STYLES`):

``rock``
    The cautious player. Looks at once, plays only a pair or better, folds a modest hand to a raise,
    raises only with a run or better, and sees a seen opponent heads-up once it has bet twice.
``loose``
    Looks at once (now and then after one blind round) and plays most hands: stays in with anything
    better than a middling high card, keeps up with the level, raises with a pair or better and
    folds only when the level climbs well above what the hand is worth.
``blind``
    The blind lover. Plays blind as long as possible (half price, RULES 5.3), raises a little to
    keep the pressure on, retains a blind survivor's hand (RULES 6.2), and looks late: when the
    level gets high or after several blind bets. Heads-up it sees blind (RULES 5.7: the level).
``seer``
    The see-er. Looks at once, plays a fair range, and sees as soon as it is heads-up with the
    option (RULES 5.7), rather than betting on.
``bluffer``
    Raises with weak hands to buy the pot, plays the first round blind half the time, seldom sees:
    it would rather out-bet an opponent, and folds a weak hand only when the raising goes on.

Every style is bounded so that a deal always ends: no raise above :data:`LEVEL_CAP`, and after
:data:`MAX_BETS` bets in one deal a player sees when it may and folds otherwise.

All randomness comes from the ``random.Random`` the driver passes in: same seed, same choices.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import ClassVar, Final, Literal

from engine.hands import Category, category_of_strength, strength_codes
from engine.legal import LegalAction
from events.model import Bet, Conceded, Folded, Kept, Looked, Retained, Saw, Shown, Thrown

__all__ = [
    "LEVEL_CAP",
    "MAX_BETS",
    "STYLES",
    "BlindLover",
    "Bluffer",
    "Loose",
    "Player",
    "Rock",
    "Seer",
    "View",
    "percentile",
]

LEVEL_CAP: Final = 20
"""No simulated player raises the level above this (seen units)."""
MAX_BETS: Final = 10
"""After this many bets in one deal a simulated player sees if it may, and folds otherwise."""


def _all_strengths() -> list[int]:
    return sorted(strength_codes(a, b, c) for a, b, c in combinations(range(52), 3))


_SORTED: Final = _all_strengths()
_N: Final = len(_SORTED)


def percentile(key: int) -> float:
    """The share of the 22,100 hands (RULES 2.8) that a hand of strength ``key`` beats, counting
    equal hands as half: ~0.0 for the worst high card, ~0.74 for the lowest pair, ~1.0 for 3-3-3.
    """
    lo = bisect_left(_SORTED, key)
    hi = bisect_right(_SORTED, key)
    return (lo + (hi - lo) / 2) / _N


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know when it chooses: the public table and its own looked-at cards.

    ``cards`` is the hand the player has looked at (the one just looked at while holding two,
    RULES 6.4), else ``None``; ``strength`` its :func:`percentile` and ``category`` its RULES 2.2
    category. ``bets`` counts the player's bets and sees in this deal; ``raised`` says whether the
    level went up since the player's own last bet. ``opponent_blind`` is set when exactly two are
    left.
    """

    me: str
    seen: bool
    two_hands: bool
    cards: tuple[int, int, int] | None
    strength: float | None
    category: Category | None
    level: int | None
    pot: Fraction
    paid: Fraction
    bets: int
    raised: bool
    players: int
    active: int
    blind_opponents: int
    opponent_blind: bool | None
    carried: bool
    opponent_shown: tuple[int, ...] = ()

    @property
    def heads_up(self) -> bool:
        return self.active == 2

    @property
    def odds(self) -> float | None:
        """The chance that the looked-at hand beats every other hand still in, were those random
        hands: ``strength ** (active - 1)``. ``None`` for an unseen hand."""
        if self.strength is None:
            return None
        return float(self.strength ** max(self.active - 1, 1))


Choice = LegalAction | None


def _of(actions: list[LegalAction], kind: type) -> list[LegalAction]:
    return [a for a in actions if isinstance(a.event, kind)]


class Player:
    """The common machinery of a style: routing a choice to the style's decisions, the bounds.

    Subclasses set :attr:`style` and override the decisions :meth:`look_now`, :meth:`play`,
    :meth:`keep` and :meth:`retain`. Every method returns one of the offered actions (or ``None``
    where passing is allowed), so a style can never record an event the rules would refuse.
    """

    style: ClassVar[str] = "player"
    blurb: ClassVar[str] = ""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def new_deal(self) -> None:
        """Called by the driver as each deal starts: a style may fix its plan for the deal here."""

    # --- the one entry point ----------------------------------------------------------------

    def choose(self, view: View, actions: list[LegalAction], *, may_pass: bool = False) -> Choice:
        """One of ``actions`` (all this player's), or ``None`` when ``may_pass`` and it passes.

        ``may_pass`` is the look before the first bet (RULES 5.1) and the retained hand (RULES
        6.2): both are optional, everything else is a turn that must be taken."""
        kept = _of(actions, Kept)
        if kept:
            return kept[0] if self.keep(view) else _of(actions, Thrown)[0]
        if _of(actions, Shown) or _of(actions, Conceded):
            return self.showdown(view, actions)
        retained = _of(actions, Retained)
        if retained:
            return self.rng.choice(retained) if self.retain(view) else None
        looks = _of(actions, Looked)
        betting = [a for a in actions if isinstance(a.event, Bet | Folded | Saw)]
        if looks and ((not betting and not may_pass) or self.look_now(view)):
            return self._which_look(looks)
        if not betting:
            return None
        return self._bounded(view, betting)

    def _which_look(self, looks: list[LegalAction]) -> LegalAction:
        if len(looks) == 1:
            return looks[0]
        # RULES 6.4: a holder of two hands looks at one of them; the styles prefer the new one.
        new = [a for a in looks if isinstance(a.event, Looked) and a.event.hand == "new"]
        return new[0] if new and self.rng.random() < 0.7 else looks[0]

    def _bounded(self, view: View, actions: list[LegalAction]) -> LegalAction:
        see = _of(actions, Saw)
        fold = _of(actions, Folded)[0]
        if view.bets >= MAX_BETS:
            return see[0] if see else fold
        capped = [
            a
            for a in actions
            if not isinstance(a.event, Bet) or a.event.level <= max(LEVEL_CAP, view.level or 0)
        ]
        return self.play(view, capped)

    # --- helpers for the styles ---------------------------------------------------------------

    @staticmethod
    def bet(actions: list[LegalAction], raise_by: int = 0) -> LegalAction:
        """The bet that keeps the level (or opens at the lowest), raised by ``raise_by`` where the
        offered bets allow, else the highest offered; the fold if no bet is offered."""
        bets = [a for a in actions if isinstance(a.event, Bet)]
        if not bets:
            return _of(actions, Folded)[0]
        k = min(max(raise_by, 0), len(bets) - 1)
        return bets[k]

    @staticmethod
    def fold(actions: list[LegalAction]) -> LegalAction:
        return _of(actions, Folded)[0]

    @staticmethod
    def see(actions: list[LegalAction]) -> LegalAction | None:
        see = _of(actions, Saw)
        return see[0] if see else None

    # --- the decisions a style makes ------------------------------------------------------------

    def look_now(self, view: View) -> bool:
        """A blind player: look now (before the first bet, or at the start of its turn)?"""
        return True

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        """Bet (keep or raise the level), fold or see: one of ``actions``."""
        return self.bet(actions)

    def keep(self, view: View) -> bool:
        """RULES 6.4: keep the hand just looked at (``view.cards``), throwing the other unseen?"""
        return view.strength is not None and view.strength >= 0.55

    def retain(self, view: View) -> bool:
        """RULES 6.2: retain the blind survivor's unseen hand for the next deal?"""
        return self.rng.random() < 0.5

    def showdown(self, view: View, actions: list[LegalAction]) -> LegalAction:
        """RULES 5.8: show, or concede when the player's own seen hand does not beat the shown one.

        The choice uses only what this player knows: its own looked-at cards and the opponent's
        shown cards; a blind payer turns its cards."""
        concede = _of(actions, Conceded)
        if (
            concede
            and view.cards is not None
            and len(view.opponent_shown) == 3
            and strength_codes(*view.cards) <= strength_codes(*view.opponent_shown)
            and self.rng.random() < 0.8
        ):
            return concede[0]
        shown = _of(actions, Shown)
        return shown[0] if shown else concede[0]


class Rock(Player):
    style = "rock"
    blurb = "cautious: looks at once, plays pairs and better, folds to raises"

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        s, w, cat = view.strength, view.odds, view.category
        if s is None or w is None or cat is None or cat < Category.PAIR:
            return self.fold(actions)  # only a pair or better is played
        if cat == Category.PAIR:
            return self._pair(view, actions, s, w)
        return self._flush_or_better(view, actions, cat)

    def _pair(self, view: View, actions: list[LegalAction], s: float, w: float) -> LegalAction:
        """A pair (strength ``s``, odds ``w``): folds to a raise unless high; sees after 2 bets."""
        level = view.level or 0
        if view.raised and s < 0.85:
            return self.fold(actions)  # a modest pair folds to a raise
        if w < 0.3 + 0.06 * view.bets or level > 3 + int((s - 0.74) * 20):
            return self.fold(actions)
        see = self.see(actions)
        if see and view.bets >= 2:
            return see
        return self.bet(actions)

    def _flush_or_better(
        self, view: View, actions: list[LegalAction], cat: Category
    ) -> LegalAction:
        """A flush plays on unless the level runs high; a run or better raises."""
        level = view.level or 0
        see = self.see(actions)
        if see and view.bets >= (2 if cat == Category.FLUSH else 3):
            return see
        if cat == Category.FLUSH:
            if level > 8 or (view.raised and level >= 6):
                return self.fold(actions)
            return self.bet(actions)
        if level < 8:  # a run or better: raise
            return self.bet(actions, 1 if cat == Category.RUN else 2)
        return self.bet(actions)

    def retain(self, view: View) -> bool:
        return False


class Loose(Player):
    style = "loose"
    blurb = "plays most hands: stays in with a middling hand, keeps up with the level"

    blind_rounds = 0

    def new_deal(self) -> None:
        self.blind_rounds = 0 if self.rng.random() < 0.85 else 1

    def look_now(self, view: View) -> bool:
        return view.bets >= self.blind_rounds

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        s, w, level = view.strength, view.odds, view.level or 0
        if s is None or w is None:  # blind for a round: keep up with the level
            return self.bet(actions)
        see = self.see(actions)
        if w < 0.06 + 0.03 * view.bets + 0.01 * level:
            return self.fold(actions)
        if level > 2 + int(s * 10) and self.rng.random() < 0.8:
            return self.fold(actions)
        if see and view.bets >= 2 + self.rng.randrange(3):
            return see
        if s >= 0.75 and level < 8 and self.rng.random() < 0.4:
            return self.bet(actions, 1 + (s >= 0.92))
        return self.bet(actions)


class BlindLover(Player):
    style = "blind"
    blurb = "plays blind as long as possible, looks late, sees blind heads-up, retains"

    look_level = 8
    look_bets = 5

    def new_deal(self) -> None:
        self.look_level = 6 + self.rng.randrange(4)
        self.look_bets = 3 + self.rng.randrange(4)

    def look_now(self, view: View) -> bool:
        if view.level is None:
            return False  # never before the first bet
        return view.level >= self.look_level or view.bets >= self.look_bets

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        see = self.see(actions)
        level = view.level or 0
        s, w = view.strength, view.odds
        if s is None or w is None:  # blind
            if see and view.bets >= (2 if not view.opponent_blind else 3):
                return see
            if level < 4 and self.rng.random() < 0.2:
                return self.bet(actions, 1)
            return self.bet(actions)
        # seen at last: played like a loose player who has paid enough to stay in
        if w < 0.1 + 0.02 * level or level > 4 + int(s * 10):
            return self.fold(actions)
        if see:
            return see
        return self.bet(actions, 1 if s >= 0.9 and level < 10 else 0)

    def keep(self, view: View) -> bool:
        return view.strength is not None and view.strength >= 0.74  # a pair or better

    def retain(self, view: View) -> bool:
        return True


class Seer(Player):
    style = "seer"
    blurb = "looks at once, plays a fair range, sees as soon as it is heads-up"

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        s, w, level = view.strength, view.odds, view.level or 0
        if s is None or w is None:
            return self.fold(actions)
        see = self.see(actions)
        if see and s >= 0.3:
            return see  # heads-up with the option: see at once
        if w < 0.1 + 0.03 * view.bets or level > 3 + int(s * 8):
            return self.fold(actions)
        if s >= 0.9 and level < 6:
            return self.bet(actions, 1)
        return self.bet(actions)


class Bluffer(Player):
    style = "bluffer"
    blurb = "raises with weak hands to buy the pot, seldom sees"

    blind_rounds = 0

    def new_deal(self) -> None:
        self.blind_rounds = self.rng.randrange(2)

    def look_now(self, view: View) -> bool:
        return view.bets >= self.blind_rounds

    def play(self, view: View, actions: list[LegalAction]) -> LegalAction:
        s, w, level = view.strength, view.odds, view.level or 0
        see = self.see(actions)
        if s is None or w is None:  # the first round blind, raising
            return self.bet(actions, 1)
        if see and (view.bets >= 6 or (s >= 0.9 and view.bets >= 4)):
            return see
        if self._gives_up(view, s, w):
            return self.fold(actions)
        if level < (12 if s >= 0.8 else 8) and self.rng.random() < 0.45:
            return self.bet(actions, 1 + self.rng.randrange(2))
        return self.bet(actions)

    def _gives_up(self, view: View, s: float, w: float) -> bool:
        """Folds a weak hand (strength ``s``, odds ``w``) when the raising goes on or the level
        runs high."""
        level = view.level or 0
        if s < 0.6 and (level > 8 or (view.raised and view.bets >= 2 + self.rng.randrange(3))):
            return True
        return w < 0.03 * view.bets or (s < 0.85 and level > 12)

    def keep(self, view: View) -> bool:
        return view.strength is not None and view.strength >= 0.4


STYLES: Final[dict[str, type[Player]]] = {
    cls.style: cls for cls in (Rock, Loose, BlindLover, Seer, Bluffer)
}
"""Every style by its name: ``rock``, ``loose``, ``blind``, ``seer``, ``bluffer``."""

StyleName = Literal["rock", "loose", "blind", "seer", "bluffer"]


def view_category(cards: tuple[int, int, int] | None) -> tuple[float | None, Category | None]:
    """The percentile and category of a looked-at hand, ``(None, None)`` for an unseen one."""
    if cards is None:
        return None, None
    key = strength_codes(*cards)
    return percentile(key), category_of_strength(key)
