"""A replay as the page and the terminal both show it, computed from the engine's states: pure
functions, no Streamlit, no terminal.

The replayer walks a session's stream (:func:`corrected` or as recorded), cut into deals
(:func:`deal_slices`); a position is ``(deal, step)`` with ``step`` 1-based inside the deal
(:class:`Position`, :func:`clamp`). At each step :func:`table_view` says what the table looks like
to a viewer: everyone (every card the log knows) or one player (RULES 3.5, 5.1: their own cards once
they have looked, and the cards shown at a showdown). :func:`sentence` says the step in words.

:func:`status` words a player's standing for both; :func:`step_table` is the table of steps
``brag replay`` prints.

Deal 0 holds what happens before the first deal (session start, the lot for the dealer, the first
shuffle); deal ``d`` starts with its ``dealt`` event and runs to the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from engine.state import Outcome, Phase, PlayerState, State, card_texts
from events.model import (
    AnyEvent,
    PotCarried,
    PotWon,
    SessionStarted,
    Shuffled,
    Voided,
    is_derived,
)
from log.steps import DealSlice, corrected, deal_slices
from present.narrate import StepLabel, names, numbered, pretty_cards, sentence
from present.numbers import amount, signed

__all__ = [
    "EVERYONE",
    "FROM_NOTE",
    "SPECTATOR",
    "DealSlice",
    "HandView",
    "Noted",
    "Position",
    "Replay",
    "SeatView",
    "Sight",
    "StepRow",
    "StepTable",
    "TableView",
    "clamp",
    "corrected",
    "deal_rows",
    "deal_slices",
    "event_rows",
    "in_play",
    "leaderboard",
    "move",
    "net_history",
    "seat_text",
    "status",
    "step_table",
    "table_view",
]

EVERYONE = "Everyone"
"""The viewer who sees every card the log knows."""

SPECTATOR = "Spectator"
"""The viewer who sees only the cards shown (RULES 3.5, 5.8): anyone but the organiser while a
deal is in play (:meth:`Replay.sight`). Never a player's own view, even of a player so named."""

# --- the stream as corrected and its deals: :mod:`log.steps` ---------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """Where the replayer stands: ``step`` (1-based) of deal ``deal``; ``index`` into the stream."""

    deal: int
    step: int
    index: int
    steps: int

    @property
    def first(self) -> bool:
        return self.step <= 1

    @property
    def last(self) -> bool:
        return self.step >= self.steps


def clamp(slices: Sequence[DealSlice], deal: Any, step: Any) -> Position:
    """The position nearest to ``(deal, step)`` as found in a link (strings, junk or ``None``).

    No deal given: the first real deal (1) when there is one; no step: the deal's first step. A step
    past the end means the last one. Raises ``ValueError`` when there are no events at all."""
    if not slices:
        raise ValueError("the session has no events")
    by_deal = {s.deal: s for s in slices}
    d = _int(deal)
    if d is None or d not in by_deal:
        d = 1 if 1 in by_deal and d is None else min(by_deal, key=lambda x: abs(x - (d or 0)))
    sl = by_deal[d]
    k = _int(step)
    k = 1 if k is None else min(max(k, 1), sl.steps)
    return Position(d, k, sl.start + k - 1, sl.steps)


def _int(value: Any) -> int | None:
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def move(slices: Sequence[DealSlice], pos: Position, how: str) -> Position:
    """The position after a control: ``first``, ``prev``, ``next``, ``last`` (within the deal),
    ``prev_deal``, ``next_deal``. ``next`` at a deal's end goes on to the next deal's first step,
    and ``prev`` at its start back to the previous deal's last step."""
    deals = [s.deal for s in slices]
    i = deals.index(pos.deal)
    if how == "first":
        return clamp(slices, pos.deal, 1)
    if how == "last":
        return clamp(slices, pos.deal, pos.steps)
    if how == "next":
        if pos.step < pos.steps or i + 1 == len(deals):
            return clamp(slices, pos.deal, pos.step + 1)
        return clamp(slices, deals[i + 1], 1)
    if how == "prev":
        if pos.step > 1 or i == 0:
            return clamp(slices, pos.deal, pos.step - 1)
        return clamp(slices, deals[i - 1], slices[i - 1].steps)
    if how == "next_deal":
        return clamp(slices, deals[min(i + 1, len(deals) - 1)], 1)
    if how == "prev_deal":
        return clamp(slices, deals[max(i - 1, 0)], 1)
    raise ValueError(f"unknown move {how!r}")


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


def _hand_view(
    state: State,
    p: PlayerState,
    k: int,
    viewer: str | None,
    secret: Secret,
    noted: tuple[str, ...] | None = None,
) -> HandView:
    h = p.hands[k]
    texts = h.texts()
    shown = set(card_texts(p.shown)) if k == 0 and len(p.hands) == 1 else set()
    own = (
        viewer == p.name
        and viewer != SPECTATOR
        and ((p.seen and len(p.hands) == 1) or (p.looking is not None and p.looking == h.origin))
    )
    if texts is None and own and noted is not None and len(p.hands) == 1:
        # cards: "shown": the viewer's own hand, once looked at (RULES 5.1), from their note
        return HandView(tuple(noted), h.origin, known=False, folded=p.folded, noted=True)
    if texts is None:
        # cards: "shown": only what was shown is known, in the order it was shown.
        up = tuple(card_texts(p.shown)) if shown else ()
        cards: tuple[str | None, ...] = (*up, *([None] * (3 - len(up))))
        return HandView(cards, h.origin, known=False, folded=p.folded)
    if own or (viewer is None and (p.name, h.cards) not in secret):
        return HandView(texts, h.origin, known=True, folded=p.folded)
    return HandView(tuple(c if c in shown else None for c in texts), h.origin, True, p.folded)


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
    which hand the note is of is not known)."""
    if viewer not in (None, SPECTATOR) and viewer not in (state.index or {}):
        viewer = None
    decided = _decided(state)
    won_by = decided.winner if decided is not None else None
    seats: list[SeatView] = []
    for i, name in enumerate(state.seats):
        p = state.players[i] if state.players else None
        role = None
        if state.phase is Phase.SHOWDOWN or (p is not None and p.shown):
            if state.payer == i:
                role = "paid to see"  # RULES 5.7-5.8: the payer
            elif state.opponent == i:
                role = "shows first"  # RULES 5.8: the player seen, the payer's opponent
        if decided is not None and decided.blind == name:
            role = "pot carried"  # RULES 6.1: the blind survivor
        if p is None:
            seats.append(
                SeatView(
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
            )
            continue
        mine = noted[1] if noted is not None and viewer == name == noted[0] else None
        hands = tuple(_hand_view(state, p, k, viewer, secret, mine) for k in range(len(p.hands)))
        seats.append(
            SeatView(
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
                role=role,
                winner=won_by == name,
                viewer=viewer == name,
            )
        )
    return TableView(
        session=state.session,
        table=state.table,
        deal=state.deals,
        pot=state.pot_on_table,
        level=state.level if state.phase in (Phase.BETTING, Phase.SHOWDOWN) else None,
        turn=state.turn_name if state.phase in (Phase.BETTING, Phase.SHOWDOWN) else None,
        dealer=state.dealer_name
        or (state.seats[state.first_dealer] if state.first_dealer is not None else None),
        phase=_PHASE_WORDS[state.phase],
        seats=tuple(seats),
        resolved=state.resolved,
        pots=state.rules.pots,
        carried=state.carried,
        viewer=viewer,
        sentence=text,
        cards_mode=state.cards_mode,
        result=_result_words(decided),
    )


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


# --- the sentence for each event ------------------------------------------------------------------


# --- lists beside the table -----------------------------------------------------------------------


def event_rows(
    events: Sequence[AnyEvent], states: Sequence[State], sl: DealSlice, current: int | None = None
) -> list[dict[str, Any]]:
    """One row per step of a deal: ``step``, ``seq``, ``event`` (the sentence), ``pot`` after it,
    ``current`` (this is the step shown)."""
    rows = []
    for k in range(sl.start, sl.stop):
        before = states[k - 1] if k > 0 else State()
        e = events[k]
        rows.append(
            {
                "step": k - sl.start + 1,
                "seq": e.seq if e.seq is not None else k + 1,
                "event": sentence(before, e, states[k]),
                "pot": amount(states[k].pot_on_table),
                "current": k == current,
            }
        )
    return rows


def deal_rows(states: Sequence[State], slices: Sequence[DealSlice]) -> list[dict[str, Any]]:
    """One row per deal of a replayed session: ``deal``, ``dealer``, ``pot`` (the whole pot at the
    end), ``result`` (won at a showdown, won uncontested, carried forward, in progress),
    ``winner``, ``hand`` (the winning hand at a showdown), ``cards``, ``carried_in`` (the pot
    carried into this deal)."""
    if not states:
        return []
    final = states[-1]
    outcomes = {o.deal: o for o in final.outcomes}
    rows = []
    for sl in slices:
        if sl.deal == 0:
            continue
        o = outcomes.get(sl.deal)
        before = states[sl.start - 1] if sl.start > 0 else State()
        dealer = states[sl.start].dealer_name
        if o is None:
            result, winner, hand, cards, pot = "in progress", "", "", "", states[sl.stop - 1].pot
        elif o.result == "carried":
            result, winner, hand, cards, pot = (
                f"carried forward ({o.blind} blind)",
                "",
                "",
                "",
                o.amount,
            )
        else:
            result = "showdown" if o.showdown else "uncontested"
            winner, hand = o.winner or "", o.hand or ""
            cards = pretty_cards(o.cards) if o.cards else ""
            pot = o.amount
        rows.append(
            {
                "deal": sl.deal,
                "dealer": dealer or "",
                "pot": amount(pot),
                "result": result,
                "winner": winner,
                "hand": hand,
                "cards": cards,
                "carried_in": amount(before.pot) if before.pot else "",
                "steps": sl.steps,
            }
        )
    return rows


def leaderboard(state: State) -> list[dict[str, Any]]:
    """RULES 1.5: each player's net, highest first; ``winner`` marks every player with the highest
    net (exactly equal highest nets share the win, ``shared``); ``pots`` counts pots won."""
    won: dict[str, int] = {}
    for o in state.outcomes:
        if o.winner:
            won[o.winner] = won.get(o.winner, 0) + 1
    winners = set(state.winners) if state.seats else set()
    shared = len(winners) > 1
    rows = [
        {
            "player": p,
            "net": signed(v),
            "pots won": won.get(p, 0),
            "winner": ("shared win" if shared else "winner")
            if p in winners and state.finished
            else ("leading" if p in winners and any(state.nets.values()) else ""),
        }
        for p, v in state.nets.items()
    ]
    order = sorted(range(len(rows)), key=lambda k: -state.nets[str(rows[k]["player"])])
    return [rows[k] for k in order]


def net_history(states: Sequence[State], slices: Sequence[DealSlice]) -> dict[str, list[Any]]:
    """Each player's net after every deal (``deal`` gives the x axis), for a line chart.

    Floats here are only for drawing; every figure shown as text stays exact."""
    if not states or not states[-1].seats:
        return {}
    seats = states[-1].seats
    out: dict[str, list[Any]] = {"deal": []}
    for p in seats:
        out[p] = []
    for sl in slices:
        if sl.deal == 0:
            continue
        s = states[sl.stop - 1]
        out["deal"].append(sl.deal)
        for p in seats:
            out[p].append(float(s.net(p)))
    return out


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


# --- a whole session, ready to step through -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    """A session's stream replayed once: ``events[k]`` is followed by ``states[k]``.

    ``recorded`` is the log as recorded (corrections and what they withdrew included); otherwise
    the stream is :func:`corrected`. Build with :meth:`of`; the states are the engine's."""

    session: str
    events: tuple[AnyEvent, ...]
    states: tuple[State, ...]
    slices: tuple[DealSlice, ...]
    recorded: bool
    corrections: int
    labels: tuple[StepLabel, ...] = ()

    @classmethod
    def of(
        cls,
        events: Sequence[AnyEvent],
        *,
        recorded: bool = False,
        states: Sequence[State] | None = None,
    ) -> Replay:
        """``states``: the states after each of ``events`` when they are known already (the
        store's fold of a stored stream, ``recorded`` then)."""
        from engine.fold import replay as engine_replay

        stream = list(events) if recorded else corrected(events)
        states = list(states) if states is not None and recorded else engine_replay(stream)
        voids = sum(1 for e in events if isinstance(e, Voided))
        session = states[0].session if states else ""
        return cls(
            session,
            tuple(stream),
            tuple(states),
            tuple(deal_slices(states)),
            recorded,
            voids,
            tuple(numbered(stream, states)),
        )

    @property
    def seats(self) -> tuple[str, ...]:
        return self.states[-1].seats if self.states else ()

    @property
    def final(self) -> State:
        return self.states[-1] if self.states else State()

    def slice(self, deal: int) -> DealSlice:
        return next(s for s in self.slices if s.deal == deal)

    def position(self, deal: Any, step: Any) -> Position:
        """The position of a link's ``(deal, step)``: ``step`` is the step number every replay
        shows (:func:`present.narrate.numbered`), resolved to the event in force with that number
        (a withdrawn event or a correction only when no event in force has it); junk, ``None`` or
        a step out of range lands on a real step as :func:`clamp` says."""
        pos = clamp(self.slices, deal, step)
        k = _int(step)
        if k is None or not self.labels:
            return pos
        sl = self.slice(pos.deal)
        found = [i for i in range(sl.start, sl.stop) if self.labels[i].step == k]
        if not found:
            return pos
        best = next(
            (i for i in found if not self.labels[i].withdrawn and not self.labels[i].correction),
            found[-1],
        )
        return clamp(self.slices, pos.deal, best - sl.start + 1)

    def at_seq(self, seq: Any) -> Position | None:
        """The position of the event with envelope ``seq`` (the numbering ``brag replay`` printed
        before steps; old notes and links may carry it), or ``None``."""
        n = _int(seq)
        if n is None:
            return None
        for k, e in enumerate(self.events):
            if (e.seq if e.seq is not None else k + 1) == n:
                sl = next(s for s in self.slices if s.start <= k < s.stop)
                return clamp(self.slices, sl.deal, k - sl.start + 1)
        return None

    def label(self, pos: Position) -> StepLabel:
        """The step number and sentence at ``pos``."""
        return self.labels[pos.index]

    def last_position(self) -> Position:
        """The latest step of the session."""
        sl = self.slices[-1]
        return clamp(self.slices, sl.deal, sl.steps)

    def move(self, pos: Position, how: str) -> Position:
        return move(self.slices, pos, how)

    def before(self, index: int) -> State:
        return self.states[index - 1] if index > 0 else State()

    def sentence(self, index: int) -> str:
        return sentence(self.before(index), self.events[index], self.states[index])

    @property
    def live_deal(self) -> int | None:
        """The session's latest deal while it is still in play (the betting or the showdown),
        else ``None``."""
        s = self.final
        return s.deals if s.phase in (Phase.BETTING, Phase.SHOWDOWN) and s.deals else None

    def sight(self, deal: int, viewer: str | None = None, *, organiser: bool = False) -> Sight:
        """What a device may see of ``deal`` when it asks for ``viewer`` (``None``/``""``/
        :data:`EVERYONE`: every card; a player; an unknown name: everyone). The organiser's
        unlocked device sees what it asks. Any other sees a deal still in play (:attr:`live_deal`)
        as a :data:`SPECTATOR`, whatever it asked: only the cards shown (RULES 3.5), since
        viewing as a player is for finished deals; so too a finished deal dealt from the same
        pack (:meth:`same_pack`), whose cards would tell the live deal's; and in every deal the
        hands still in play (a retained hand, :func:`in_play`) face down."""
        who = None if viewer in (None, "", EVERYONE) else viewer
        if who is not None and who != SPECTATOR and who not in self.seats:
            who = None
        if organiser:
            return Sight(who)
        secret = in_play(self.final)
        live = self.live_deal
        if live is not None and (deal == live or self.same_pack(deal, live)):
            if deal != live:
                note = (
                    f"Deal {deal} was dealt from the pack deal {live} is dealt from (no shuffle "
                    "since, RULES 3.2-3.3): only the cards shown are face up until deal "
                    f"{live} ends."
                )
            elif who not in (None, SPECTATOR):
                note = (
                    f"Deal {deal} is still in play: viewing as {who} waits until it ends (or "
                    "the organiser's device); meanwhile only the cards shown are face up."
                )
            else:
                note = (
                    f"Deal {deal} is still in play: only the cards shown are face up until it "
                    "ends (RULES 3.5)."
                )
            return Sight(SPECTATOR, secret, note)
        sl = self.slice(deal)
        held = sorted(
            {
                p.name
                for s in self.states[sl.start : sl.stop]
                for p in s.players
                for h in p.hands
                if (p.name, h.cards) in secret
            }
        )
        note = ""
        if held and who != SPECTATOR:
            note = (
                f"{names(held)}'s unseen hand is still in play (RULES 6.2), so it stays face down."
            )
        return Sight(who, secret, note)

    def same_pack(self, deal: int, later: int) -> bool:
        """Whether ``deal`` was dealt from the pack ``later`` is dealt from: no shuffle between
        them (RULES 3.2). The cards of a finished deal then go under that pack in an order the
        log tells (3.3), so with every card recorded they tell the cards of a later deal once
        the pack has gone round: while ``later`` is in play they are no more to be seen than
        its own."""
        if not 0 < deal < later:
            return False
        a, b = self.slice(deal).start, self.slice(later).start
        return not any(isinstance(e, Shuffled) for e in self.events[a:b])

    def view(
        self, pos: Position, viewer: str | None = None, *, organiser: bool = False
    ) -> TableView:
        """The table at ``pos`` as ``viewer`` knows it (``None`` or :data:`EVERYONE`: everyone),
        as far as the device may see it (:meth:`sight`; ``organiser``: its unlocked device)."""
        sight = self.sight(pos.deal, viewer, organiser=organiser)
        return table_view(
            self.states[pos.index], sight.viewer, self.sentence(pos.index), secret=sight.secret
        )

    def pot_change(self, pos: Position) -> Fraction:
        return self.states[pos.index].pot - self.before(pos.index).pot

    def rows(self, pos: Position) -> list[dict[str, Any]]:
        return event_rows(self.events, self.states, self.slice(pos.deal), pos.index)

    def deal_label(self, deal: int, *, spoilers: bool = True) -> str:
        """``"Deal 3: Bob deals, Ann wins 12 at the showdown"`` for a deal picker; without
        ``spoilers``, only who deals (``"Deal 3: Bob deals"``)."""
        if deal == 0:
            return "Before the first deal"
        sl = self.slice(deal)
        s = self.states[sl.start]
        o = next((o for o in self.final.outcomes if o.deal == deal), None)
        head = f"Deal {deal}: {s.dealer_name} deals"
        if not spoilers:
            return head
        if o is None:
            return head + ", in progress"
        if o.result == "carried":
            return head + f", pot of {amount(o.amount)} carried ({o.blind} blind)"
        how = "at the showdown" if o.showdown else "uncontested"
        return head + f", {o.winner} wins {amount(o.amount)} {how}"

    def deal_rows(self) -> list[dict[str, Any]]:
        return deal_rows(self.states, self.slices)

    def leaderboard(self) -> list[dict[str, Any]]:
        return leaderboard(self.final)

    def net_history(self) -> dict[str, list[Any]]:
        return net_history(self.states, self.slices)


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


# --- the replay as a table of steps (brag replay) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepRow:
    """One step of the replay table: its ``deal``, ``step`` label (``"14"``, ``"↺14"``) and
    sentence, the ``pot`` on the table, the ``level`` and whose ``turn`` (in a deal only), and
    each seat's :func:`seat_text` (``""`` before the player is dealt in); ``derived`` marks an
    event the engine added."""

    deal: int
    step: str
    text: str
    pot: str
    level: str
    turn: str
    seats: tuple[str, ...]
    derived: bool


@dataclass(frozen=True, slots=True)
class StepTable:
    """A session (or one deal of it) step by step: ``title``, the ``seats`` (a column each),
    the ``rows`` and the closing ``summary`` line; ``deal`` is the deal asked for, if any."""

    title: str
    seats: tuple[str, ...]
    rows: tuple[StepRow, ...]
    summary: str
    deal: int | None = None


def step_table(rp: Replay, deal: int | None = None) -> StepTable:
    """The table ``brag replay`` prints of ``rp`` (a replay as recorded, corrections included),
    one row a step, and the line that closes it: how the deal asked for ended, the session's
    winners, or where it stands (a deal it does not have: no rows)."""
    last = rp.final
    first = rp.events[0]
    assert isinstance(first, SessionStarted)
    title = rp.session + (f" at {first.table}" if first.table else "")
    title += f", deal {deal} of {last.deals}" if deal else f", {last.deals} deals"
    ended: str | None = None  # how the deal asked for ended: its pot_won / pot_carried sentence
    rows: list[StepRow] = []
    for k, (ev, st) in enumerate(zip(rp.events, rp.states, strict=True)):
        lab = rp.labels[k]
        if deal is not None and lab.deal != deal:
            continue
        if type(ev) in (PotWon, PotCarried):
            ended = sentence(rp.before(k), ev, st)
        in_deal = st.phase in (Phase.BETTING, Phase.SHOWDOWN)
        by_name = {p.name: p for p in st.players}
        rows.append(
            StepRow(
                deal=lab.deal,
                step=lab.label,
                text=lab.text,
                pot=amount(st.pot_on_table),
                level=str(st.level) if st.level is not None and in_deal else "",
                turn=(st.turn_name or "") if in_deal else "",
                seats=tuple(seat_text(by_name[n], st) if n in by_name else "" for n in first.seats),
                derived=is_derived(ev),
            )
        )
    return StepTable(title, tuple(first.seats), tuple(rows), _summary(rp, deal, ended), deal)


def _summary(rp: Replay, deal: int | None, ended: str | None) -> str:
    last = rp.final
    if deal is not None:
        # Whether the deal ended is the final state's say (a voided may have withdrawn a pot_won
        # shown above); its last pot_won / pot_carried line is then the one in force.
        if ended and any(o.deal == deal for o in last.outcomes):
            return f"deal {deal}: {ended}"
        return f"deal {deal} is in progress: pot on the table {amount(last.pot)}"
    if last.finished:
        return f"the session is over; its winner(s) (RULES 1.5): {', '.join(last.winners)}"
    at = rp.labels[-1]
    return (
        f"after step {at.step} of deal {at.deal}: {last.resolved} of {last.rules.pots} pots "
        f"resolved; pot on the table {amount(last.pot)}"
    )
