"""The table after one step as one viewer sees it (:func:`table_view`): everyone (every card the
log knows, but the hands still in play, :func:`in_play`), one player (RULES 3.5, 5.1: their own
cards once they have looked, and the cards shown at a showdown) or a :data:`SPECTATOR` (only the
cards shown); what a device may see of a deal (:class:`Sight`, :meth:`present.replay.Replay.sight`);
and each player's standing in words (:func:`status`, :func:`seat_text`), for the page and the
terminal both.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from engine.state import Hand, Outcome, Phase, PlayerState, State, card_texts
from present.narrate import pretty_cards
from present.numbers import amount

__all__ = [
    "EVERYONE",
    "FROM_NOTE",
    "SPECTATOR",
    "HandView",
    "Noted",
    "Public",
    "SeatView",
    "Secret",
    "Sight",
    "TableView",
    "in_play",
    "seat_text",
    "status",
    "table_view",
]

EVERYONE = "Everyone"
"""The viewer who sees every card the log knows."""

SPECTATOR = "Spectator"
"""The viewer who sees only the cards shown (RULES 3.5, 5.8): anyone but the organiser while a
deal is in play (:meth:`Replay.sight`). Never a player's own view, even of a player so named."""

# --- the table as one viewer sees it --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandView:
    """One hand at a seat: ``cards`` face up (canonical text) or ``None`` face down, in the order
    dealt; ``origin`` is ``"old"`` for a retained hand; ``known`` tells whether the log knows every
    card of it (``cards: "all"``) even where the viewer does not; ``thrown`` marks a folded hand;
    ``noted``: its cards are the viewer's own remembered ones (their private note, not the log:
    :func:`table_view`'s ``noted``)."""

    cards: tuple[str | None, ...]
    origin: Literal["old", "new"]
    known: bool
    folded: bool = False
    noted: bool = False

    @property
    def face_up(self) -> tuple[str, ...]:
        return tuple(c for c in self.cards if c is not None)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: ``status`` in words (``blind``, ``seen``, ``folded``, ``two hands``, ...),
    ``paid`` into this deal's pot (ante included), the session ``net`` so far, and the hands."""

    name: str
    seat: int
    dealer: bool
    turn: bool
    status: str
    paid: Fraction
    net: Fraction
    hands: tuple[HandView, ...]
    folded: bool = False
    blind: bool = False
    role: str | None = None
    winner: bool = False
    viewer: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    """The table after one step, as ``viewer`` sees it (``None``: everyone)."""

    session: str
    table: str | None
    deal: int
    pot: Fraction
    level: int | None
    turn: str | None
    dealer: str | None
    phase: str
    seats: tuple[SeatView, ...]
    resolved: int
    pots: int
    carried: int
    viewer: str | None
    sentence: str = ""
    cards_mode: str = "shown"
    result: str | None = None
    """How the deal ended, once the engine has decided it (from the step that decides it on):
    ``"Keith wins 21, uncontested"``, ``"Sandra wins 14 at the showdown"``, ``"pot of 12
    carried: Ann left in blind"`` (RULES 5.6, 5.9, 6.1); ``None`` while it is played."""

    @property
    def pot_text(self) -> str:
        return amount(self.pot)

    @property
    def centre(self) -> tuple[str, str]:
        """The two lines said under the pot: the level (``"Level 4"``, ``"No bet yet"``) and who
        is to act; once the deal is decided, its :attr:`result` and ``"deal over"``; between
        deals, ``""`` and the phase (``"between deals"``, ``"session over"``)."""
        if self.result:
            return self.result, "session over" if self.phase == "session over" else "deal over"
        if self.phase not in ("betting", "showdown"):
            return "", self.phase
        level = f"Level {self.level}" if self.level is not None else "No bet yet"
        return level, f"{self.turn} to act" if self.turn else self.phase

    @property
    def level_text(self) -> str:
        return "no bet yet" if self.level is None else str(self.level)

    def seat(self, name: str) -> SeatView:
        return next(s for s in self.seats if s.name == name)


_PHASE_WORDS = {
    Phase.NEW: "before the session",
    Phase.BETWEEN: "between deals",
    Phase.BETTING: "betting",
    Phase.SHOWDOWN: "showdown",
    Phase.CARRIED: "pot carried",
    Phase.OVER: "session over",
}


FROM_NOTE = "from your note"
"""How a hand drawn from the viewer's own remembered cards (:attr:`HandView.noted`) is marked."""

Noted = tuple[str, tuple[str, ...]]
"""A player's own remembered cards for one deal, ``(player, cards)`` (canonical card text): their
private note, drawn in that player's own view only (:func:`table_view`)."""

Secret = frozenset[tuple[str, tuple[int, ...]]]
"""Hands still in play, as ``(player, card codes)``: drawn face down (but for their cards shown)
to every viewer who is not their looked-at holder, everyone included (:func:`in_play`)."""

Public = frozenset[tuple[str, str]]
"""The cards a :data:`SPECTATOR` of a guarded deal may see face up, as ``(player, card)``
(canonical text): the cards shown in force (:func:`present.sight.public_cards`); a card shown by
a ``shown`` a correction withdrew is not among them."""


def _hand_view(
    state: State,
    p: PlayerState,
    k: int,
    viewer: str | None,
    secret: Secret,
    noted: tuple[str, ...] | None = None,
    public: Public | None = None,
) -> HandView:
    h = p.hands[k]
    texts = h.texts()
    shown = set(card_texts(p.shown)) if k == 0 and len(p.hands) == 1 else set()
    if public is not None:  # a guarded deal: only the cards shown in force (present.sight)
        shown = {c for c in shown if (p.name, c) in public}
    own = _looked_at(p, h, viewer)
    if texts is None:
        return _unknown(p, h, shown, noted if own else None, public)
    if own or (viewer is None and (p.name, h.cards) not in secret):
        return HandView(texts, h.origin, known=True, folded=p.folded)
    return HandView(tuple(c if c in shown else None for c in texts), h.origin, True, p.folded)


def _looked_at(p: PlayerState, h: Hand, viewer: str | None) -> bool:
    """Whether ``viewer`` is ``p`` and has looked at hand ``h`` (RULES 5.1, 6.4)."""
    return (
        viewer == p.name
        and viewer != SPECTATOR
        and ((p.seen and len(p.hands) == 1) or (p.looking is not None and p.looking == h.origin))
    )


def _unknown(
    p: PlayerState,
    h: Hand,
    shown: set[str],
    noted: tuple[str, ...] | None,
    public: Public | None = None,
) -> HandView:
    """Hand ``h`` of a ``cards: "shown"`` log, which does not know its cards: ``noted``, the
    cards of the viewer's own looked-at hand from their note, else what was ``shown``."""
    if noted is not None and len(p.hands) == 1:
        # cards: "shown": the viewer's own hand, once looked at (RULES 5.1), from their note
        return HandView(tuple(noted), h.origin, known=False, folded=p.folded, noted=True)
    # cards: "shown": only what was shown is known, in the order it was shown.
    up = tuple(card_texts(p.shown)) if shown else ()
    if public is not None:
        up = tuple(c for c in up if (p.name, c) in public)
    cards: tuple[str | None, ...] = (*up, *([None] * (3 - len(up))))
    return HandView(cards, h.origin, known=False, folded=p.folded)


def in_play(state: State) -> Secret:
    """The hands still in play after ``state`` (a session's latest state), whose cards not shown
    only the organiser may see, in any deal they appear in: every hand of a deal in play (the
    betting or the showdown), the blind survivor's while a carried pot waits for their choice
    (RULES 6.1-6.2), and a retained hand until the next deal is dealt and beyond (6.2-6.3)."""
    out: set[tuple[str, tuple[int, ...]]] = set()
    if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
        out |= {(p.name, h.cards) for p in state.players for h in p.hands if h.cards}
    elif state.phase is Phase.CARRIED and state.survivor is not None:
        p = state.players[state.survivor]
        out |= {(p.name, h.cards) for h in p.hands if h.cards}
    if state.retained is not None and state.retained[1].cards is not None:
        out.add((state.seats[state.retained[0]], state.retained[1].cards))
    return frozenset(out)


def table_view(
    state: State,
    viewer: str | None = None,
    text: str = "",
    *,
    secret: Secret = frozenset(),
    noted: Noted | None = None,
    public: Public | None = None,
) -> TableView:
    """The table after a step as ``viewer`` may know it (``None``: everyone, every card the log
    knows but the ``secret`` hands still in play; :data:`SPECTATOR`: only the cards shown). A
    player sees their own cards only once they have looked (RULES 5.1, 6.4), and anyone's cards
    only when shown at a showdown (RULES 3.5, 5.8). Which viewer a page may draw is
    :meth:`Replay.sight`'s say.

    ``noted``: ``(player, cards)``, the three cards a player remembers holding in this deal (their
    private note, ``log.annotations.private_cards``) for a ``cards: "shown"`` log, which does not
    know them: drawn face up in that player's own hand (marked :attr:`HandView.noted`) from when
    they looked at it, as a ``cards: "all"`` log's would be, only when ``viewer`` is that player;
    never in any other viewer's table, and never while the player holds two hands (RULES 6.4:
    which hand the note is of is not known).

    ``public``: a guarded deal's cards shown in force (:func:`present.sight.sight_for`): a card
    shown that is not among them (a ``shown`` a correction withdrew) is drawn face down."""
    if viewer not in (None, SPECTATOR) and viewer not in (state.index or {}):
        viewer = None
    decided = _decided(state)
    seats = tuple(
        _seat_view(state, i, viewer, decided, secret, noted, public)
        for i in range(len(state.seats))
    )
    in_deal = state.phase in (Phase.BETTING, Phase.SHOWDOWN)
    return TableView(
        session=state.session,
        table=state.table,
        deal=state.deals,
        pot=state.pot_on_table,
        level=state.level if in_deal else None,
        turn=state.turn_name if in_deal else None,
        dealer=state.dealer_name
        or (state.seats[state.first_dealer] if state.first_dealer is not None else None),
        phase=_PHASE_WORDS[state.phase],
        seats=seats,
        resolved=state.resolved,
        pots=state.rules.pots,
        carried=state.carried,
        viewer=viewer,
        sentence=text,
        cards_mode=state.cards_mode,
        result=_result_words(decided),
    )


def _seat_view(
    state: State,
    i: int,
    viewer: str | None,
    decided: Outcome | None,
    secret: Secret,
    noted: Noted | None,
    public: Public | None = None,
) -> SeatView:
    """Seat ``i`` of :func:`table_view`'s table."""
    name = state.seats[i]
    p = state.players[i] if state.players else None
    if p is None:
        return SeatView(
            name,
            i,
            state.dealer == i or (state.dealer is None and state.first_dealer == i),
            False,
            "waiting",
            Fraction(0),
            state.net(name),
            (),
            viewer=viewer == name,
        )
    mine = noted[1] if noted is not None and viewer == name == noted[0] else None
    hands = tuple(
        _hand_view(state, p, k, viewer, secret, mine, public) for k in range(len(p.hands))
    )
    return SeatView(
        name=name,
        seat=i,
        dealer=state.dealer == i,
        turn=state.turn == i and state.phase is Phase.BETTING,
        status=status(p),
        paid=state.paid_in_deal(name),
        net=state.net(name),
        hands=hands,
        folded=p.folded,
        blind=p.blind,
        role=_role(state, i, name, p, decided),
        winner=(decided.winner if decided is not None else None) == name,
        viewer=viewer == name,
    )


def _role(state: State, i: int, name: str, p: PlayerState, decided: Outcome | None) -> str | None:
    """:attr:`SeatView.role`: the blind survivor's, else at a showdown the payer's or the
    player seen's."""
    if decided is not None and decided.blind == name:
        return "pot carried"  # RULES 6.1: the blind survivor
    if state.phase is Phase.SHOWDOWN or p.shown:
        if state.payer == i:
            return "paid to see"  # RULES 5.7-5.8: the payer
        if state.opponent == i:
            return "shows first"  # RULES 5.8: the player seen, the payer's opponent
    return None


def _decided(state: State) -> Outcome | None:
    """The outcome of the deal on the table once the engine has decided it (the fold that
    leaves one player, the showdown's last card, RULES 5.6, 5.9, 6.1), ``None`` while it is
    played and before the first deal."""
    if state.phase in (Phase.BETTING, Phase.SHOWDOWN) or not state.outcomes:
        return None
    last = state.outcomes[-1]
    return last if last.deal == state.deals else None


def _result_words(o: Outcome | None) -> str | None:
    """:attr:`TableView.result` in words."""
    if o is None:
        return None
    if o.result == "carried":
        return f"pot of {amount(o.amount)} carried: {o.blind} left in blind"
    how = "at the showdown" if o.showdown else ", uncontested"
    return f"{o.winner} wins {amount(o.amount)}" + (f" {how}" if o.showdown else how)


# --- who may see what: the one rule every page draws by ------------------------------------------


@dataclass(frozen=True, slots=True)
class Sight:
    """What a page may draw of one deal for one device (:meth:`Replay.sight`): the ``viewer`` to
    draw it as (``None``: every card, :data:`SPECTATOR`, or a player), the ``secret`` hands still
    in play (:func:`in_play`), face down whoever the viewer is, and ``note``, the one line saying
    why the page shows less than was asked (``""`` when it shows what was asked)."""

    viewer: str | None
    secret: Secret = frozenset()
    note: str = ""


# --- a player's status, in a word or a phrase -----------------------------------------------------


def status(p: PlayerState, *, short: bool = False) -> str:
    """Where a player stands, decided once for the page and the terminal: ``folded``, ``seen``,
    ``blind``, or with two hands (RULES 6.4) ``looking at the old hand`` / ``blind, two hands``;
    ``short`` (a terminal column): ``two hands, looking at old`` / ``two hands``."""
    if p.folded:
        return "folded"
    if short and p.two_hands:
        return "two hands" + (f", looking at {p.looking}" if p.looking else "")
    if not short and p.looking is not None:
        return f"looking at the {p.looking} hand"
    if not short and p.two_hands:
        return "blind, two hands"
    return "seen" if p.seen else "blind"


def seat_text(p: PlayerState, state: State) -> str:
    """A player's cell of the terminal's replay: the short status, what they paid in this deal
    and the cards known (``blind 2 6♣ 9♥ Q♥``)."""
    cards = ""
    if p.hands and p.hands[-1].cards is not None and not p.folded:
        cards = " " + pretty_cards(p.hands[-1].texts() or ())
    elif p.shown:
        cards = " " + pretty_cards(card_texts(p.shown))
    return f"{status(p, short=True)} {amount(state.paid_in_deal(p.name))}{cards}"
