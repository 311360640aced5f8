"""The session driver: plays one whole session with simulated players through the engine.

:func:`play` runs the engine in ``cards: "all"`` mode with the pack tracked, whatever the log
will record: the lot for the first dealer, a shuffle with a recorded order before the first deal
and after a showdown won by a prial (RULES 3.2), and every other deal taken from the unshuffled
pack exactly as the engine's tracked pack says (RULES 3.3; the ``dealt`` event comes from
:func:`~engine.legal.legal_actions`, so it cannot differ). Every other event is a choice a
:class:`~sim.players.Player` made among its legal actions. The engine's derived events follow their
cause, so the result is a complete stream.

:func:`finish` gives the stream its envelope (``seq``, a stable ``id``, ``at``, ``by``) and, for
a ``cards: "shown"`` log, keeps only what an organiser at a real table records: the dealt hands
and the shuffle orders are dropped and only showdown cards remain.

:func:`simulate` does both for a :class:`SessionSpec`; same spec, same events, byte for byte.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from engine.fold import record
from engine.legal import LegalAction, legal_actions
from engine.state import Phase, PlayerState, State, card_texts, initial_state
from events.errors import PlainError
from events.model import (
    AnyEvent,
    Bet,
    DealerChosen,
    Dealt,
    Rules,
    SessionStarted,
    Shuffled,
    is_derived,
)
from sim.clock import event_seconds
from sim.names import STYLE_OF
from sim.players import STYLES, Player, View, view_category

__all__ = [
    "BY",
    "NAMESPACE",
    "SessionSpec",
    "event_id",
    "finish",
    "play",
    "simulate",
    "view_of",
]

BY: Final = "simulator"
"""The ``by`` of every simulated event (FORMAT.md envelope)."""
NAMESPACE: Final = uuid.UUID("5b2a1c7e-8f0d-4e55-9a43-b7a9c1d0e2f3")
"""The namespace of the name-based bits of simulated event ids (see :func:`event_id`)."""
MAX_DEALS: Final = 500
"""A guard: a session that has not ended after this many deals is a simulator bug."""

Cards = Literal["all", "shown"]


@dataclass(frozen=True, slots=True)
class SessionSpec:
    """Everything that fixes one simulated session.

    ``seats`` lists ``(name, style)`` clockwise (styles from :data:`sim.players.STYLES`); ``seed``
    seeds the session's own ``random.Random`` objects (play and clock are drawn separately, so the
    ``all`` and ``shown`` logs of one spec record the same game); ``start`` is the ``at`` of
    ``session_started``, or ``None`` for a log without times.
    """

    session: str
    seats: tuple[tuple[str, str], ...]
    seed: int | str
    cards: Cards = "all"
    table: str | None = None
    start: datetime | None = None
    rules: Rules | None = None
    by: str = BY


class SimulationError(PlainError, RuntimeError):
    """A simulated player or the driver did something the engine refused: a bug, never input."""

    rule_name = "SIM"


@dataclass
class _Deal:
    """Public memory of the deal in progress (the engine's state has the rest)."""

    last_level: dict[str, int] = field(default_factory=dict)
    carried: bool = False


def view_of(state: State, name: str, memory: _Deal | None = None) -> View:
    """What ``name`` may know now: the public table and only the cards it has looked at."""
    i = state.seat(name)
    p = state.players[i]
    cards = _looked_at(p)
    strength, category = view_category(cards)
    active = state.active
    others = [j for j in active if j != i]
    blind_opponents = sum(1 for j in others if state.players[j].blind)
    opponent_blind = state.players[others[0]].blind if len(active) == 2 and i in active else None
    last = memory.last_level.get(name) if memory is not None else None
    return View(
        me=name,
        seen=p.seen,
        two_hands=p.two_hands,
        cards=cards,
        strength=strength,
        category=category,
        level=state.level,
        pot=state.pot,
        paid=state.paid_in_deal(name),
        bets=p.bets,
        raised=last is not None and state.level is not None and state.level > last,
        players=len(state.seats),
        active=len(active),
        blind_opponents=blind_opponents,
        opponent_blind=opponent_blind,
        carried=memory.carried if memory is not None else False,
        opponent_shown=_shown_to(state, i),
    )


def _looked_at(p: PlayerState) -> tuple[int, int, int] | None:
    """The cards the player knows: the hand it has just looked at (holding two, RULES 6.4), else
    its one hand once seen; ``None`` for a blind hand."""
    if p.looking is not None:
        return next(h.cards for h in p.hands if h.origin == p.looking)
    if p.seen and len(p.hands) == 1:
        return p.hands[0].cards
    return None


def _shown_to(state: State, i: int) -> tuple[int, ...]:
    """At a showdown, the cards the other of its two players has turned so far (to seat ``i``)."""
    if state.phase is Phase.SHOWDOWN and state.payer is not None and state.opponent is not None:
        o = state.opponent if i == state.payer else state.payer
        return state.players[o].shown
    return ()


class _Table:
    def __init__(self, spec: SessionSpec) -> None:
        self.spec = spec
        self.rng = random.Random(f"{spec.seed}/play")
        self.state = initial_state()
        self.events: list[AnyEvent] = []
        self.players: dict[str, Player] = {
            name: STYLES[style](name, random.Random(f"{spec.seed}/player/{k}/{name}"))
            for k, (name, style) in enumerate(spec.seats)
        }
        self.deal = _Deal()

    def record(self, event: AnyEvent) -> None:
        try:
            s, stream = record(self.state, event)
            self.events += stream
        except ValueError as err:
            raise SimulationError(
                f"{self.spec.session}: the engine refused {event!r}: {err}"
            ) from err
        self.state = s
        if isinstance(event, Bet):
            self.deal.last_level[event.player] = int(event.level)

    def ask(self, name: str, actions: list[LegalAction], *, may_pass: bool = False) -> bool:
        """Let ``name`` choose among its ``actions``; records the choice. False if it passed."""
        view = view_of(self.state, name, self.deal)
        choice = self.players[name].choose(view, actions, may_pass=may_pass)
        if choice is None:
            if not may_pass:
                raise SimulationError(f"{name} passed where a choice must be made")
            return False
        if choice not in actions:
            raise SimulationError(f"{name} chose {choice!r}, which was not offered")
        self.record(choice.event)
        return True

    def run(self) -> list[AnyEvent]:
        spec = self.spec
        self.record(
            SessionStarted(
                session=spec.session,
                table=spec.table,
                seats=tuple(name for name, _ in spec.seats),
                cards="all",
                rules=spec.rules,
            )
        )
        while self.state.phase is not Phase.OVER:
            if self.state.deals > MAX_DEALS:
                raise SimulationError(f"{spec.session}: no end after {MAX_DEALS} deals")
            self.step()
        return self.events

    def step(self) -> None:
        state = self.state
        legal = legal_actions(state)
        if not legal:
            raise SimulationError(f"no legal action in phase {state.phase}")
        phase = state.phase
        if phase is Phase.BETWEEN:
            self.table_action(legal)
        elif phase is Phase.CARRIED:
            self.carried(legal)
        elif phase is Phase.BETTING:
            looking = [p.name for p in state.players if p.looking is not None]
            self.turn(looking[0] if looking else state.turn_name, legal)
        else:  # the showdown: one player acts at a time
            self.turn(legal[0].player, legal)

    def carried(self, legal: list[LegalAction]) -> None:
        """A carried pot: the blind survivor may retain its hand (RULES 6.2), else the table goes
        on."""
        state = self.state
        survivor = state.seats[state.survivor] if state.survivor is not None else None
        mine = [a for a in legal if a.player == survivor]
        if not (survivor and mine and self.ask(survivor, mine, may_pass=True)):
            self.table_action([a for a in legal if a.player is None])

    def turn(self, actor: str | None, legal: list[LegalAction]) -> None:
        """``actor`` must choose among its legal actions."""
        assert actor is not None
        self.ask(actor, [a for a in legal if a.player == actor])

    def table_action(self, legal: list[LegalAction]) -> None:
        """The lot for the dealer, a shuffle with its order, or the deal (then the first looks)."""
        a = legal[0]
        if isinstance(a.event, DealerChosen):
            choice = self.rng.choice([x for x in legal if isinstance(x.event, DealerChosen)])
            self.record(choice.event)
        elif isinstance(a.event, Shuffled):
            order = list(range(52))
            self.rng.shuffle(order)
            self.record(Shuffled(order=card_texts(tuple(order))))
        elif isinstance(a.event, Dealt):
            if a.needs:
                raise SimulationError("the deal needs hands: the pack is not tracked")
            carried = bool(self.state.outcomes) and self.state.outcomes[-1].result == "carried"
            self.deal = _Deal(carried=carried)
            for p in self.players.values():
                p.new_deal()
            self.record(a.event)
            self.first_looks()
        else:
            raise SimulationError(f"unexpected table action {a.event!r}")

    def first_looks(self) -> None:
        """RULES 5.1: before the first bet each blind player may look, from the dealer's left."""
        state = self.state
        n = len(state.seats)
        assert state.dealer is not None
        for k in range(n):
            name = state.seats[(state.dealer + 1 + k) % n]
            while True:
                p = self.state.players[self.state.seat(name)]
                if p.seen:
                    break
                looks = [
                    a
                    for a in legal_actions(self.state)
                    if a.player == name and a.event.type == "looked"
                ]
                if not looks or not self.ask(name, looks, may_pass=True):
                    break
                if self.state.players[self.state.seat(name)].looking is not None:
                    keep = [a for a in legal_actions(self.state) if a.player == name]
                    self.ask(name, keep)


def play(spec: SessionSpec) -> list[AnyEvent]:
    """The complete ``cards: "all"`` stream of the session, derived events included, no envelope."""
    return _Table(spec).run()


def _shown_only(event: AnyEvent) -> AnyEvent:
    if isinstance(event, SessionStarted):
        return event.model_copy(update={"cards": "shown"})
    if isinstance(event, Dealt):
        return event.model_copy(update={"hands": None})
    if isinstance(event, Shuffled):
        return event.model_copy(update={"order": None})
    return event


def event_id(session: str, cards: str, seq: int, at: datetime | None) -> uuid.UUID:
    """The id of a simulated event: stable across runs, and time-ordered like the recorder's.

    With a time, a UUID version 7 (RFC 9562 section 5.7) whose 48-bit timestamp is ``at`` in Unix
    milliseconds, as :func:`store.records.new_ids` gives the events it records, so that the store's
    unique index on ``id`` grows at its end instead of at a random page per event. Its other 74
    bits come from ``uuid5(NAMESPACE, "<session>/<cards>/<seq>")``, so the same spec gives the same
    bytes. Without a time, that ``uuid5`` itself."""
    named = uuid.uuid5(NAMESPACE, f"{session}/{cards}/{seq}")
    if at is None:
        return named
    epoch = _EPOCH if at.tzinfo is not None else _EPOCH.replace(tzinfo=None)
    ms = (at - epoch) // timedelta(milliseconds=1)
    # ms (48 bits) | version 7 (4) | rand_a (12) | variant 0b10 (2) | rand_b (62): the uuid5's
    # last 76 bits (its variant bits are already 0b10) under the time and version.
    low = named.int & ((1 << 76) - 1)
    return uuid.UUID(int=(ms & 0xFFFF_FFFF_FFFF) << 80 | 0x7 << 76 | low)


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def finish(
    events: Iterable[AnyEvent],
    spec: SessionSpec,
) -> list[AnyEvent]:
    """The stream as the log records it: ``cards`` applied, envelope filled in.

    ``at`` advances by a plausible time per action (:func:`sim.clock.event_seconds`) from
    ``spec.start``; derived events carry the time of their cause."""
    clock = random.Random(f"{spec.seed}/clock")
    at = spec.start
    out: list[AnyEvent] = []
    for seq, event in enumerate(events, start=1):
        if spec.cards == "shown":
            event = _shown_only(event)
        if at is not None and not is_derived(event):
            at = at + timedelta(seconds=event_seconds(event, clock))
        out.append(
            event.model_copy(
                update={
                    "seq": seq,
                    "id": event_id(spec.session, spec.cards, seq, at),
                    "at": at,
                    "by": spec.by,
                }
            )
        )
    return out


def simulate(spec: SessionSpec) -> list[AnyEvent]:
    """The finished log of one simulated session (see :func:`play` and :func:`finish`)."""
    return finish(play(spec), spec)


def seats_for(names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``(name, style)`` seats for names of :data:`sim.names.NAMES` (others play ``loose``)."""
    return tuple((n, STYLE_OF.get(n, "loose")) for n in names)
