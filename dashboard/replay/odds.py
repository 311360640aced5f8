"""What one step of a replayed deal says of its chances and its costs (pure, no Streamlit).

For each step of the replayer's frames (:mod:`dashboard.replay.frames`): the odds of each
hand the view can see to be the best at a showdown (:mod:`engine.odds`), in words and as exact
counts (:class:`OddsLine`), why a step shows none (:func:`no_odds_line`), and what each legal
action costs the player to act (:func:`engine.legal.legal_actions`, :func:`action_costs`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from engine.legal import LegalAction, legal_actions
from engine.odds import HandOdds, margin, showdown_odds
from engine.state import Phase, State, card_codes
from present.narrate import pretty_cards
from present.numbers import amount, count_of
from present.replay import FROM_NOTE, SPECTATOR, HandView, SeatView, TableView

__all__ = [
    "TIE_RULE",
    "OddsLine",
    "action_costs",
    "chance_text",
    "no_odds_line",
    "odds_lines",
    "share_words",
]


def chance_text(p: Fraction, ways: int, *, exact: bool = True, within: float = 0.0) -> str:
    """A chance as read: a percentage (one decimal; ``<0.1%`` for a chance above 0 that rounds to
    0) and the exact count over ``ways``, the one denominator every chance of a hand shares
    (``94.6% (17,421/18,424)``); an estimate from ``ways`` deals drawn as
    ``≈ 54.6% ± 1.6% (2,183/4,000)``, its margin ``within`` (a fraction of 1) rounded up to
    the tenth of a percent, so never shown as a "± 0.0%". Raises ``ValueError`` for a chance that
    is no count over ``ways``."""
    count = p * ways
    if count.denominator != 1:
        raise ValueError(f"the chance {p} is no count over {ways} ways")
    pct = "<0.1%" if 0 < p < Fraction(1, 2000) else f"{float(p) * 100:.1f}%"
    counted = f"({int(count):,}/{ways:,})"
    if not exact:
        tenths = math.ceil(round(within * 1000, 9))  # up, never down: a margin is not understated
        return f"≈ {pct} ± {tenths / 10:.1f}% {counted}"
    return f"{pct} {counted}"


def share_words(p: Fraction, *, exact: bool = True) -> str:
    """A chance in words, a whole percent: ``"95%"``; ``"under 1%"`` and ``"over 99%"`` for a
    chance near but not at 0 or 1 (never a rounded "0%" or "100%" for what may still happen);
    ``"about 55%"`` for an estimate ("under 1%" and "over 99%" already say it is not exact)."""
    pct = int(p * 100 + Fraction(1, 2))  # to the nearest whole percent, exactly
    if p > 0 and pct == 0:
        text = "under 1%"
    elif p < 1 and pct == 100:
        text = "over 99%"
    else:
        text = f"{pct}%"
    return text if exact or not text[0].isdigit() else f"about {text}"


TIE_RULE = "an equal hand loses for the player who paid to see"
"""RULES 5.8: the payer wins only with a strictly better hand."""


@dataclass(frozen=True, slots=True)
class OddsLine:
    """One visible hand's chances (RULES 2.2-2.7) against the hands still unknown to the view."""

    player: str
    cards: str
    odds: HandOdds

    @property
    def certain(self) -> bool:
        """Whether the outcome is known in this view (every card known, or no way to change it)."""
        o = self.odds
        return o.exact and (o.ways == 1 or 1 in (o.best, o.tied, o.beaten))

    @property
    def text(self) -> str:
        """The chances in words, read first: ``"Ann 10♣ Q♠ 5♣: best of the hands still in 95%
        of the time, beaten 5%; equal under 1% (an equal hand loses for the player who paid to
        see)"``; every card known: ``"... holds the best hand (every card known)"``. The exact
        counts are :attr:`exact`."""
        o = self.odds
        head = f"{self.player} {self.cards}: "
        if o.ways == 1:  # every card known: no chance left, only the fact
            if o.tied:
                return head + f"equal to the best hand (every card known): {TIE_RULE}"
            fact = "holds the best hand" if o.best else "is beaten"
            return head + f"{fact} (every card known)"
        words = (
            f"best of the hands still in {share_words(o.best, exact=o.exact)} of the time, "
            f"beaten {share_words(o.beaten, exact=o.exact)}"
        )
        if o.tied:
            words += f"; equal {share_words(o.tied, exact=o.exact)} ({TIE_RULE})"
        return head + words + ("" if o.exact else " (an estimate)")

    @property
    def exact(self) -> str:
        """The chances as counts, shown on a tap: ``"best 94.6% (17,421/18,424), equal <0.1%
        (3/18,424), beaten 5.4% (1,000/18,424): exact over 18,424 ways"``, or an estimate's
        ``≈ … ± …`` over the deals drawn; ``""`` when every card is known."""
        o = self.odds
        if o.ways == 1:
            return ""
        how = (
            f"exact over {o.ways:,} ways"
            if o.exact
            else f"estimate from {count_of(o.ways, 'deal')} drawn (fixed seed)"
        )
        parts = [
            f"{word} {chance_text(p, o.ways, exact=o.exact, within=margin(p, o.ways))}"
            for word, p in (("best", o.best), ("equal", o.tied), ("beaten", o.beaten))
            if p or word != "equal"
        ]
        return ", ".join(parts) + f": {how}"

    @property
    def plain(self) -> str:
        """:attr:`text` while spoilers are hidden: a hand whose outcome the view already knows
        (:attr:`certain`) says so without saying it; an uncertain one keeps its chances."""
        if not self.certain:
            return self.text
        return f"{self.player} {self.cards}: outcome known in this view, hidden while spoiler-free"


def odds_lines(state: State, view: TableView) -> list[OddsLine]:
    """The odds of each hand visible in ``view`` (at least one card face up, the player still in)
    to be the best at a showdown, against the hands of the other players still in, whose unknown
    cards may be any card the view has not seen (:func:`engine.odds.showdown_odds`). Only the
    cards the view shows are used, so in a ``cards: "shown"`` session only what the log has and
    the viewer's own cards from their note (marked "from your note", :attr:`HandView.noted`).
    Empty outside the betting and the showdown, with fewer than two players in, or while a
    player holds two hands (RULES 6.4-6.6: one is thrown before any showdown)."""
    live = _live(state, view)
    if len(live) < 2 or any(len(s.hands) != 1 for s in live):
        return []
    hands = [card_codes(s.hands[0].face_up) for s in live]
    if not any(hands):
        return []
    dead = [c for s in view.seats if s.folded for h in s.hands for c in card_codes(h.face_up)]
    odds = showdown_odds(hands, dead)
    return [
        OddsLine(s.name, pretty_cards(s.hands[0].face_up) + _noted(s.hands[0]), o)
        for s, h, o in zip(live, hands, odds, strict=True)
        if h
    ]


def _noted(hand: HandView) -> str:
    return f" ({FROM_NOTE})" if hand.noted else ""


def _live(state: State, view: TableView) -> list[SeatView]:
    """The seats of ``view`` still in the deal (dealt a hand, not folded); none outside the
    betting and the showdown (no odds and no costs then)."""
    if state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        return []
    return [s for s in view.seats if s.hands and not s.folded]


def no_odds_line(state: State, view: TableView, *, own: bool = False) -> str:
    """Why a step of a deal in play shows no chances (``""`` when it shows some, or when the
    deal is not being played): at a real table (``cards: "shown"``) only the cards shown at a
    showdown are recorded (RULES 3.5); a player who has not looked knows no card of their own
    (RULES 5.1); a spectator sees none while the deal is in play (RULES 3.5); a player holding
    two hands throws one before any showdown (RULES 6.4-6.6). ``own``: the view is this browser's
    own player (the ``me`` preference); only then does the line say where to enter their cards."""
    live = _live(state, view)
    if len(live) < 2:
        return ""
    two = [s.name for s in live if len(s.hands) != 1]
    if two:
        return (
            f"No odds while {two[0]} holds two hands: one is thrown before any showdown "
            "(RULES 6.4-6.6)."
        )
    if any(h.face_up for s in live for h in s.hands):
        return ""
    return _no_card_known(state, view, live, own=own)


def _no_card_known(state: State, view: TableView, live: list[SeatView], *, own: bool) -> str:
    """:func:`no_odds_line` when no card of a hand still in is known in ``view``: why not."""
    if view.cards_mode == "shown":
        line = (
            "No odds yet: at a real table only the cards shown at a showdown are recorded "
            "(RULES 3.5), and no hand still in has been shown."
        )
        if own and view.viewer in state.seats:  # their own cards, from their note (My sessions)
            line += f" {view.viewer}'s own cards, as remembered: My sessions, Your cards."
        return line
    if view.viewer == SPECTATOR:
        return "No odds while the deal is in play: no card is shown yet (RULES 3.5)."
    me = next((s for s in live if s.name == view.viewer), None)
    if me is not None and not any(h.face_up for h in me.hands):
        return f"No odds yet: {me.name} has not looked at their cards (RULES 5.1)."
    return "No odds yet: no card of a hand still in is known in this view."


def _span(values: list[Fraction]) -> str:
    lo, hi = min(values), max(values)
    return amount(lo) if lo == hi else f"{amount(lo)}–{amount(hi)}"


_ACTION_WORDS = {
    "saw": "see",
    "looked": "look",
    "folded": "fold",
    "conceded": "concede",
    "kept": "keep",
    "thrown": "throw",
    "shown": "show",
}
"""An action's kind (the event it records) as the verb a cost phrase names it by."""


def action_costs(state: State) -> list[str]:
    """What each legal action costs the player to act (RULES 5.2-5.8), one phrase a kind:
    ``"bet level 2: pays 2"``, ``"raise to level 3–7: pays 3–7"``, ``"see: pays 4"``,
    ``"fold: free"``. Empty when no player is to act."""
    who = state.turn_name
    if who is None or state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        return []
    acts: list[LegalAction] = [a for a in legal_actions(state) if a.player == who]
    return _bet_costs(state, acts) + _other_costs(acts)


def _bet_level(a: LegalAction) -> int:
    return int(getattr(a.event, "level", 0))


def _bet_costs(state: State, acts: list[LegalAction]) -> list[str]:
    """The bets of ``acts`` at most the level (``"bet level …"``) and above it (``"raise to
    level …"``), one phrase each kind, with the span of levels and of costs."""
    bets = [a for a in acts if a.kind == "bet"]
    level = state.level
    keep = [a for a in bets if level is None or _bet_level(a) <= level]
    raises = [a for a in bets if a not in keep]
    out: list[str] = []
    for group, word in ((keep, "bet"), (raises, "raise to")):
        if group:
            levels = [Fraction(_bet_level(a)) for a in group]
            out.append(f"{word} level {_span(levels)}: pays {_span([a.cost for a in group])}")
    return out


def _other_costs(acts: list[LegalAction]) -> list[str]:
    """Every other kind of action in ``acts``, once each in the order first met: ``"see: pays
    4"``, ``"fold: free"``."""
    out: list[str] = []
    done: set[str] = set()
    for a in acts:
        if a.kind == "bet" or a.kind in done:
            continue
        done.add(a.kind)
        w = _ACTION_WORDS.get(a.kind, a.kind)
        out.append(f"{w}: pays {amount(a.cost)}" if a.cost else f"{w}: free")
    return out
