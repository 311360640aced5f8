"""A deal's frames for the browser replayer: every step drawn once, sent once (pure, no Streamlit).

:func:`deal_frames` turns one deal of a :class:`~present.replay.Replay` into JSON-ready data for
the replayer component (:mod:`dashboard.replayer`): for each step its number (one numbering,
:func:`present.narrate.numbered`), its sentence, the table as the viewer knows it (two pre-drawn
SVGs: wide, and compact for a phone), the pot, the level and who is to act, the odds of each hand
the viewer can see (:mod:`engine.odds`) and what each legal action costs the player to act
(:func:`engine.legal.legal_actions`). The browser then steps through them without asking the server.

A frame for a viewer holds only what that viewer knew at that step (RULES 3.5, 5.1, 5.8); the
browser puts one frame in the page at a time, and the events list only up to the current step
when a player is viewed or spoilers are hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dashboard.view import link
from engine.legal import LegalAction, legal_actions
from engine.odds import HandOdds, showdown_odds
from engine.state import Phase, State, card_codes
from present import table_svg
from present.narrate import pretty_cards
from present.numbers import amount
from present.replay import EVERYONE, SPECTATOR, Replay, TableView, table_view

__all__ = ["OddsLine", "action_costs", "chance_text", "deal_frames", "odds_lines"]


def chance_text(p: Fraction, ways: int, *, exact: bool = True, margin: float = 0.0) -> str:
    """A chance as read: a percentage (one decimal; ``<0.1%`` for a chance above 0 that rounds to
    0) and the exact count over ``ways``, the one denominator every chance of a hand shares
    (``94.6% (17,421/18,424)``); an estimate from ``ways`` deals drawn as
    ``≈ 54.6% ± 1.6% (2,183/4,000)``. Raises ``ValueError`` for a chance that is no count over
    ``ways``."""
    count = p * ways
    if count.denominator != 1:
        raise ValueError(f"the chance {p} is no count over {ways} ways")
    pct = "<0.1%" if 0 < p < Fraction(1, 2000) else f"{float(p) * 100:.1f}%"
    counted = f"({int(count):,}/{ways:,})"
    if not exact:
        return f"≈ {pct} ± {margin * 100:.1f}% {counted}"
    return f"{pct} {counted}"


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
        o = self.odds
        if o.ways == 1:  # every card known: no chance left, only the fact
            fact = "holds the best hand" if o.best else "ties for best" if o.tied else "is beaten"
            return f"{self.player} {self.cards}: {fact} (every card known)"
        how = (
            f"exact over {o.ways:,} ways"
            if o.exact
            else f"estimate from {o.ways:,} deals drawn (fixed seed)"
        )
        parts = [f"best {chance_text(o.best, o.ways, exact=o.exact, margin=o.margin)}"]
        if o.tied:
            parts.append(f"tie {chance_text(o.tied, o.ways, exact=o.exact, margin=0.0)}")
        parts.append(f"beaten {chance_text(o.beaten, o.ways, exact=o.exact, margin=o.margin)}")
        return f"{self.player} {self.cards}: " + ", ".join(parts) + f" ({how})"

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
    cards the view shows are used, so in a ``cards: "shown"`` session only what the log has.
    Empty outside the betting and the showdown, with fewer than two players in, or while a
    player holds two hands (RULES 6.4-6.6: one is thrown before any showdown)."""
    if state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        return []
    live = [s for s in view.seats if s.hands and not s.folded]
    if len(live) < 2 or any(len(s.hands) != 1 for s in live):
        return []
    hands = [card_codes(s.hands[0].face_up) for s in live]
    if not any(hands):
        return []
    dead = [c for s in view.seats if s.folded for h in s.hands for c in card_codes(h.face_up)]
    odds = showdown_odds(hands, dead)
    return [
        OddsLine(s.name, pretty_cards(s.hands[0].face_up), o)
        for s, h, o in zip(live, hands, odds, strict=True)
        if h
    ]


def _span(values: list[Fraction]) -> str:
    lo, hi = min(values), max(values)
    return amount(lo) if lo == hi else f"{amount(lo)}–{amount(hi)}"


def action_costs(state: State) -> list[str]:
    """What each legal action costs the player to act (RULES 5.2-5.8), one phrase a kind:
    ``"bet level 2: pays 2"``, ``"raise to level 3–7: pays 3–7"``, ``"see: pays 4"``,
    ``"fold: free"``. Empty when no player is to act."""
    who = state.turn_name
    if who is None or state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        return []
    acts: list[LegalAction] = [a for a in legal_actions(state) if a.player == who]
    out: list[str] = []
    bets = [a for a in acts if a.kind == "bet"]
    level = state.level
    keep = [a for a in bets if level is None or int(getattr(a.event, "level", 0)) <= level]
    raises = [a for a in bets if a not in keep]
    for group, word in ((keep, "bet"), (raises, "raise to")):
        if group:
            levels = [Fraction(int(getattr(a.event, "level", 0))) for a in group]
            out.append(f"{word} level {_span(levels)}: pays {_span([a.cost for a in group])}")
    words = {
        "saw": "see",
        "looked": "look",
        "folded": "fold",
        "conceded": "concede",
        "kept": "keep",
        "thrown": "throw",
        "shown": "show",
    }
    done: set[str] = set()
    for a in acts:
        if a.kind == "bet" or a.kind in done:
            continue
        done.add(a.kind)
        w = words.get(a.kind, a.kind)
        out.append(f"{w}: pays {amount(a.cost)}" if a.cost else f"{w}: free")
    return out


def _line(view: TableView) -> str:
    """Pot, level and who is to act on one line."""
    parts = [f"Pot {view.pot_text}", f"Level {view.level}" if view.level else "No bet yet"]
    parts.append(f"{view.turn} to act" if view.turn else view.phase)
    return " · ".join(parts)


def deal_frames(
    rp: Replay,
    deal: int,
    viewer: str | None = None,
    *,
    organiser: bool = False,
    start: int | None = None,
    odds: bool = True,
) -> dict[str, Any]:
    """The data the replayer component needs for one deal, as ``viewer`` knows it
    (``None``/:data:`~present.replay.EVERYONE`: every card the log knows), as far as the device
    may see it (:meth:`~present.replay.Replay.sight`): unless ``organiser`` (the organiser's
    unlocked device), a deal still in play is drawn as a spectator sees it, only the cards
    shown, in its pictures and its odds alike, and a hand still in play stays face down in
    every deal. ``note`` says in one line why the frames show less than was asked.

    Keys: ``session``, ``deal``, ``view`` (``""`` for everyone), ``log`` (``"recorded"`` or
    ``""``), ``frames`` (one per step: ``step``, ``label``, ``kind`` (``""``, ``"withdrawn"``,
    ``"correction"``), ``text``, ``svg``, ``compact``, ``line``, ``pot``, ``odds`` (phrases),
    ``odds_plain`` (the same while spoiler-free: no outcome the view already knows,
    :attr:`OddsLine.plain`), ``acts`` (phrases)), ``deals`` (``deal``, ``full``, ``plain``
    (no winner), ``steps``),
    ``viewers``, ``note``, ``corrections``, ``start`` (the frame to open on: ``start`` if given, a
    0-based index in the deal), ``links`` (the base link). Text is data: the browser writes it
    with ``textContent``; the SVGs escape every name (:mod:`present.table_svg`)."""
    sight = rp.sight(deal, viewer, organiser=organiser)
    who = sight.viewer if sight.viewer != SPECTATOR else None
    sl = rp.slice(deal)
    frames = []
    for k in range(sl.start, sl.stop):
        state = rp.states[k]
        lab = rp.labels[k]
        view = table_view(state, sight.viewer, lab.text, secret=sight.secret)
        kind = "correction" if lab.correction else "withdrawn" if lab.withdrawn else ""
        lines = odds_lines(state, view) if odds else []
        frames.append(
            {
                "step": lab.step,
                "label": lab.label,
                "kind": kind,
                "text": lab.text,
                "svg": table_svg.render(view),
                "compact": table_svg.render(view, compact=True),
                "line": _line(view),
                "pot": view.pot_text,
                "odds": [o.text for o in lines],
                "odds_plain": [o.plain for o in lines],
                "acts": action_costs(state),
            }
        )
    deals = [
        {
            "deal": s.deal,
            "full": rp.deal_label(s.deal),
            "plain": rp.deal_label(s.deal, spoilers=False),
            "steps": s.steps,
        }
        for s in rp.slices
    ]
    return {
        "session": rp.session,
        "deal": deal,
        "view": who or "",
        "note": sight.note,
        "log": "recorded" if rp.recorded else "",
        "frames": frames,
        "deals": deals,
        "viewers": [EVERYONE, *rp.seats],
        "corrections": rp.corrections,
        "start": max(0, min(start if start is not None else 0, len(frames) - 1)),
        "base": link(rp.session),
    }
