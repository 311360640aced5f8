"""The session state and the fold: ``apply(state, event) -> state`` (RULES 1 to 6).

A :class:`State` is immutable; :func:`apply` checks one event against the rules and returns the
next state, or raises :class:`~events.errors.RuleViolation` naming the RULES section and the player.
Nothing is mutated, so every earlier state stays valid (the replayer steps back and forth).

Money is exact. Inside the state, amounts are whole numbers of *ticks*, ``1 / scale`` stake units,
where ``scale = 2 * ante.denominator``: levels are whole units (RULES 5.5) and a blind player pays
half (RULES 5.3), so every amount is a whole number of ticks. The public properties
(:attr:`State.pot`, :meth:`State.net`, ...) return :class:`~fractions.Fraction` stake units.

The engine's conclusions are derived events (:class:`~events.model.PotWon`,
:class:`~events.model.PotCarried`, :class:`~events.model.SessionEnded`). A recorded event that
concludes something leaves them in :attr:`State.pending`; they must be the next events of the stream
(:func:`apply` checks each against the conclusion) before another recorded event is accepted.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal, TypeVar, assert_never

from engine.hands import Category, category_of_strength, strength_codes
from events.cards import RANKS, SUITS
from events.errors import FormatError, RuleViolation
from events.model import (
    AnyEvent,
    Bet,
    Conceded,
    DealerChosen,
    Dealt,
    DerivedEvent,
    Folded,
    Kept,
    Looked,
    PotCarried,
    PotWon,
    Retained,
    Rules,
    Saw,
    SessionEnded,
    SessionStarted,
    Shown,
    Shuffled,
    Thrown,
    Voided,
)

__all__ = [
    "Hand",
    "Outcome",
    "Phase",
    "PlayerState",
    "State",
    "apply",
    "initial_state",
    "without_history",
]

_CODE = {RANKS[r] + SUITS[s]: r * 4 + s for r in range(13) for s in range(4)}
_TEXT = {v: k for k, v in _CODE.items()}
_DEFAULT_RULES = Rules()


def card_codes(cards: tuple[str, ...]) -> tuple[int, ...]:
    """Canonical card strings to card codes (0..51)."""
    return tuple(_CODE[c] for c in cards)


def card_texts(codes: tuple[int, ...]) -> tuple[str, ...]:
    """Card codes to canonical card strings."""
    return tuple(_TEXT[c] for c in codes)


class Phase(enum.Enum):
    """Where the session stands."""

    NEW = "new"
    """Before ``session_started``."""
    BETWEEN = "between"
    """No deal in progress: before the first deal, or after a resolved pot."""
    BETTING = "betting"
    """A deal is in progress and the players bet, fold, look or see (RULES 5)."""
    SHOWDOWN = "showdown"
    """After a ``saw``: hands are reduced (RULES 6.6) and shown (RULES 5.8)."""
    CARRIED = "carried"
    """A blind survivor left the pot on the table and may retain their hand (RULES 6.1-6.2)."""
    OVER = "over"
    """The last pot is resolved (RULES 1.4)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of three cards held by a player.

    ``cards`` are card codes in the order dealt, or ``None`` when the log does not record them
    (``cards: "shown"``). ``origin`` is ``"old"`` for a retained hand and ``"new"`` for this deal's.
    """

    cards: tuple[int, int, int] | None
    origin: Literal["old", "new"] = "new"

    def texts(self) -> tuple[str, ...] | None:
        return None if self.cards is None else card_texts(self.cards)


@dataclass(frozen=True)
class PlayerState:
    """One player's part in the current deal.

    ``paid`` is in ticks (see the module doc); ``hands`` holds one hand, or two (old first) for the
    holder of a retained hand (RULES 6.3); ``looking`` is the hand (``"old"``/``"new"``) the holder
    has just looked at and must keep or throw at once (RULES 6.4); ``shown`` the cards turned face
    up at the showdown so far (codes).
    """

    name: str
    hands: tuple[Hand, ...] = ()
    seen: bool = False
    folded: bool = False
    paid: int = 0
    looking: Literal["old", "new"] | None = None
    shown: tuple[int, ...] = ()
    looked_at_turn: int | None = None
    bets: int = 0

    @property
    def blind(self) -> bool:
        return not self.seen

    @property
    def two_hands(self) -> bool:
        return len(self.hands) == 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended: ``result`` is ``"won"`` or ``"carried"``; amounts are Fractions."""

    deal: int
    dealer: str
    result: Literal["won", "carried"]
    winner: str | None
    amount: Fraction
    showdown: bool
    hand: str | None = None
    blind: str | None = None
    cards: tuple[str, ...] | None = None
    payer: str | None = None
    seen_player: str | None = None


@dataclass(frozen=True)
class State:
    """The whole session after some events; build the first with :func:`initial_state`.

    Indices are seat numbers (0-based, clockwise as listed in ``session_started``). Money fields
    ending in ``_t`` are ticks (``1/scale`` units); use the Fraction properties outside the engine.
    """

    phase: Phase = Phase.NEW
    seq: int = 0
    session: str = ""
    table: str | None = None
    seats: tuple[str, ...] = ()
    index: dict[str, int] | None = None
    cards_mode: Literal["all", "shown"] = "shown"
    rules: Rules = _DEFAULT_RULES
    scale: int = 2
    first_dealer: int | None = None
    dealer: int | None = None
    deals: int = 0
    shuffled_once: bool = False
    shuffle_due: bool = True
    pack: tuple[int, ...] | None = None
    pot_t: int = 0
    paid_t: tuple[int, ...] = ()
    won_t: tuple[int, ...] = ()
    players: tuple[PlayerState, ...] = ()
    turn: int | None = None
    level: int | None = None
    actions: int = 0
    payer: int | None = None
    opponent: int | None = None
    both_blind: bool | None = None
    survivor: int | None = None
    retained: tuple[int, Hand] | None = None
    resolved: int = 0
    carried: int = 0
    outcomes: tuple[Outcome, ...] = ()
    pending: tuple[DerivedEvent, ...] = ()
    last_event: AnyEvent | None = None
    undo: State | None = None
    recorded_seq: int | None = None

    # --- money in stake units -------------------------------------------------------------------

    def units(self, ticks: int) -> Fraction:
        """Ticks to exact stake units."""
        return Fraction(ticks, self.scale)

    @property
    def pot(self) -> Fraction:
        """The pot on the table, in stake units (a carried pot included)."""
        return Fraction(self.pot_t, self.scale)

    @property
    def pot_on_table(self) -> Fraction:
        """The pot as the table sees it, in stake units: :attr:`pot` plus a pot the rules have
        just awarded whose ``pot_won`` is still pending (the engine moves the money at the event
        that decides it; the winner takes it at ``pot_won``, RULES 5.6 and 5.9). Replays show this
        one, so the pot leaves the table on the ``pot_won`` line, not one line before."""
        awarded = sum((d.amount for d in self.pending if isinstance(d, PotWon)), Fraction(0))
        return self.pot + awarded

    def net(self, player: str) -> Fraction:
        """Everything won minus everything paid over the session (RULES 1.5), in stake units."""
        i = self.seat(player)
        return Fraction(self.won_t[i] - self.paid_t[i], self.scale)

    @property
    def nets(self) -> dict[str, Fraction]:
        """Each player's net (RULES 1.5); ``sum(nets) + pot == 0`` always."""
        return {
            p: Fraction(w - d, self.scale)
            for p, w, d in zip(self.seats, self.won_t, self.paid_t, strict=True)
        }

    def paid_in_deal(self, player: str) -> Fraction:
        """What the player has paid into the current pot in this deal (ante included)."""
        return (
            Fraction(self.players[self.seat(player)].paid, self.scale)
            if self.players
            else Fraction(0)
        )

    # --- questions -------------------------------------------------------------------------------

    def seat(self, player: str) -> int:
        """The seat index of ``player``; RuleViolation (RULES 1.3) for someone not seated."""
        idx = self.index.get(player) if self.index is not None else None
        if idx is None:
            raise RuleViolation("1.3", f"{player} is not seated at this table", player=player)
        return idx

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def in_deal(self) -> bool:
        return self.phase in (Phase.BETTING, Phase.SHOWDOWN)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the deal (not folded)."""
        return tuple(i for i, p in enumerate(self.players) if not p.folded)

    @property
    def dealer_name(self) -> str | None:
        return None if self.dealer is None else self.seats[self.dealer]

    @property
    def turn_name(self) -> str | None:
        return None if self.turn is None else self.seats[self.turn]

    @property
    def winners(self) -> tuple[str, ...]:
        """Everyone with the highest net (RULES 1.5: exactly equal highest nets share the win)."""
        nets = [w - d for w, d in zip(self.won_t, self.paid_t, strict=True)]
        if not nets:
            return ()
        top = max(nets)
        return tuple(p for p, n in zip(self.seats, nets, strict=True) if n == top)

    @property
    def betting_started(self) -> bool:
        return self.actions > 0

    def cost(self, player: int, level: int) -> int:
        """Ticks a player pays for a bet at ``level``: the level seen, half of it blind (5.3)."""
        full = level * self.scale
        return full if self.players[player].seen else full // 2


_R = TypeVar("_R", State, PlayerState)
_FIELDS: dict[type, frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in (State, PlayerState)
}


def replace(obj: _R, /, **changes: Any) -> _R:
    """``dataclasses.replace(obj, **changes)`` for :class:`State` and :class:`PlayerState`, made
    for the fold's hot path: the new record's attributes are the old ones updated with
    ``changes`` in one dictionary copy, instead of introspecting the fields and re-running the
    frozen ``__init__`` on every call. Same result; the old record is not touched."""
    source = obj.__dict__
    attrs = source.copy()
    attrs.update(changes)
    if len(attrs) != len(source):  # a name that is not a field was added
        cls = type(obj)
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - _FIELDS[cls])}")
    out = _new(type(obj))
    _set_attr(out, "__dict__", attrs)
    return out


_new = object.__new__
_set_attr = object.__setattr__


def without_history(state: State) -> State:
    """``state`` without its undo chain (every earlier state, kept for ``voided``): for a cache
    that holds many sessions' latest states, at a few hundred bytes each instead of ~2 KB per
    event of the session. Everything else is equal; a ``voided`` applied to it is refused with a
    FormatError (no recorded event in force to void), so a holder must fold the stream again (from
    its log) before it applies a correction."""
    if state.undo is None:
        return state
    return replace(state, undo=None)


_NEW, _BETTING, _OVER = Phase.NEW, Phase.BETTING, Phase.OVER
_MAY_LEAVE_LOOKING = frozenset({Looked, Voided})
"""The only events after which a holder of two hands can be looking at one (RULES 6.4)."""

_UNKNOWN_NEW = (Hand(None, "new"),)
"""A fresh hand whose cards the log does not record (``cards: "shown"``); immutable, so shared."""
_NEW_PLAYER = PlayerState(name="")
"""A player's state at the start of a deal, before name, hands, seen and the ante are filled in."""


def initial_state() -> State:
    """The state before any event."""
    return State()


# --- helpers -------------------------------------------------------------------------------------


def _viol(rule: str, message: str, player: str | None = None) -> RuleViolation:
    return RuleViolation(rule, message, player=player)


def _next_active(players: tuple[PlayerState, ...], start: int) -> int:
    n = len(players)
    i = (start + 1) % n
    while players[i].folded:
        i = (i + 1) % n
    return i


def _set_player(
    players: tuple[PlayerState, ...], i: int, p: PlayerState
) -> tuple[PlayerState, ...]:
    out = list(players)
    out[i] = p
    return tuple(out)


def _under(pack: tuple[int, ...] | None, hands: tuple[Hand, ...]) -> tuple[int, ...] | None:
    """RULES 3.3: cards go face down under the pack, in the order they were dealt."""
    if pack is None:
        return None
    if len(hands) == 1:
        cards = hands[0].cards
        return None if cards is None else pack + cards
    add: list[int] = []
    for h in hands:
        if h.cards is None:
            return None
        add.extend(h.cards)
    return pack + tuple(add)


def _the_hand(p: PlayerState, choice: str | None) -> int:
    """Index in ``p.hands`` named by ``choice`` ("old"/"new")."""
    for k, h in enumerate(p.hands):
        if h.origin == choice:
            return k
    raise _viol("6.4", f"{p.name} holds no {choice} hand", p.name)


def _amount(value: Fraction, scale: int) -> int | None:
    t = value * scale
    return t.numerator if t.denominator == 1 else None


def _check_paid(state: State, given: Fraction | None, ticks: int, rule: str, who: str) -> None:
    if given is not None and given * state.scale != ticks:
        raise _viol(
            rule,
            f"{who} pays {_fmt(Fraction(ticks, state.scale))}, not {_fmt(given)}",
            who,
        )


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# --- the fold ------------------------------------------------------------------------------------


_DERIVED = (PotWon, PotCarried, SessionEnded)
"""The derived event classes, as a tuple for ``isinstance`` (built once, not per event)."""
_DERIVED_CLASSES = frozenset(_DERIVED)
"""The same as a set of exact classes: ``type(e) in ...`` is much cheaper than pydantic's
``isinstance`` on the fold's hot path (event classes are not subclassed)."""


def apply(state: State, event: AnyEvent) -> State:
    """The state after ``event``; raises RuleViolation (or FormatError for a malformed stream).

    Shape: ``State x event -> State``; the input state is never changed. Recorded events are checked
    against RULES 1-6; a derived event must equal the engine's next conclusion in ``state.pending``.
    The envelope (``id``, ``seq``, ``at``, ``by``) is not checked here: the stream owner does that.
    """
    if not state.pending and state.phase is not _NEW and state.phase is not _OVER:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            # The usual case: a recorded event during the session (the checks below in short).
            return _recorded(state, event, handler(state, event))
    if state.pending:
        expected = state.pending[0]
        if not isinstance(event, _DERIVED):
            raise FormatError(
                f"the engine's conclusion {expected.type} must come first "
                f"({_describe_derived(expected)})",
                event=event.type,
            )
        if not _agrees(event, expected):
            raise _viol(
                _derived_rule(expected),
                f"the log says {_describe_derived(event)}, "
                f"but the rules give {_describe_derived(expected)}",
            )
        return replace(state, pending=state.pending[1:], seq=state.seq + 1, last_event=event)
    if type(event) in _DERIVED_CLASSES:
        assert isinstance(event, _DERIVED)
        raise _viol(
            _derived_rule(event),
            f"the log says {_describe_derived(event)}, but the rules conclude nothing here",
        )
    if state.phase is Phase.NEW:
        if not isinstance(event, SessionStarted):
            raise FormatError("a session log starts with session_started", event=event.type)
        # The session's start is position 1 of the stream (FORMAT.md ``seq``).
        return replace(_session_started(state, event), seq=state.seq + 1, last_event=event)
    if type(event) is Voided:
        assert isinstance(event, Voided)
        return _voided(state, event)
    if state.phase is Phase.OVER:
        raise _viol(
            "1.4",
            f"the session ended when its {_ordinal(state.rules.pots)} pot was resolved; "
            "nothing may follow"
            + (f" ({who}'s {event.type})" if (who := getattr(event, "player", None)) else ""),
            getattr(event, "player", None),
        )
    return _recorded(state, event, _dispatch(state, event))


def _recorded(state: State, event: AnyEvent, new: State) -> State:
    """``new`` (the state a rule built from ``state``) after the recorded ``event``: the next seq,
    the event, and ``state`` kept for a ``voided``."""
    if new is state:
        new = replace(state)
    # ``new`` is a fresh record no one else holds yet: fill in its envelope in place rather than
    # copying it once more (the fold's hot path).
    attrs = new.__dict__
    attrs["seq"] = attrs["recorded_seq"] = state.seq + 1
    attrs["last_event"] = event
    attrs["undo"] = state
    return new


def _dispatch(state: State, event: AnyEvent) -> State:
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        # The fast path: one dictionary look-up instead of the ``match`` below, whose class
        # patterns each call pydantic's (slow) ``isinstance``. The ``match`` stays the reference
        # and the type check that every event type is handled.
        return handler(state, event)
    match event:
        case Bet():
            return _bet(state, event)
        case Folded():
            return _folded(state, event)
        case Looked():
            return _looked(state, event)
        case Shown():
            return _shown(state, event)
        case Dealt():
            return _dealt(state, event)
        case Saw():
            return _saw(state, event)
        case Conceded():
            return _conceded(state, event)
        case Retained():
            return _retained(state, event)
        case Kept() | Thrown():
            return _kept_or_thrown(state, event)
        case Shuffled():
            return _shuffled(state, event)
        case DealerChosen():
            return _dealer_chosen(state, event)
        case SessionStarted():
            return _session_started_again(state, event)
        case Voided() | PotWon() | PotCarried() | SessionEnded():
            raise AssertionError("handled in apply")
        case _:
            assert_never(event)


def _session_started_again(state: State, event: SessionStarted) -> State:
    raise FormatError("a session starts only once", event=event.type)


_HANDLERS: dict[type, Callable[[State, Any], State]] = {}
"""Recorded event class -> its rule: filled in below, once every handler is defined."""


def _agrees(logged: DerivedEvent, expected: DerivedEvent) -> bool:
    """A derived event of the log agrees with the engine's conclusion (FORMAT.md: "where present
    they must agree"): the same content (the envelope aside), except that the optional ``hand``
    and ``cards`` of a ``pot_won`` may be left out, the cards may be listed in any order, and
    ``winners`` is a set. Compared field by field (amounts exactly), not through JSON dumps."""
    if isinstance(logged, PotWon) and isinstance(expected, PotWon):
        if logged.hand is not None and logged.hand != expected.hand:
            return False
        if logged.cards is not None and (
            expected.cards is None or sorted(logged.cards) != sorted(expected.cards)
        ):
            return False
        return (logged.deal, logged.player, logged.amount, logged.showdown) == (
            expected.deal,
            expected.player,
            expected.amount,
            expected.showdown,
        )
    if isinstance(logged, PotCarried) and isinstance(expected, PotCarried):
        return (logged.deal, logged.player, logged.amount) == (
            expected.deal,
            expected.player,
            expected.amount,
        )
    if isinstance(logged, SessionEnded) and isinstance(expected, SessionEnded):
        return logged.nets == expected.nets and sorted(logged.winners) == sorted(expected.winners)
    return False


def _derived_rule(e: DerivedEvent) -> str:
    if isinstance(e, PotWon):
        return "5.9" if e.showdown else "5.6"
    if isinstance(e, PotCarried):
        return "6.1"
    return "1.5"


def _describe_derived(e: DerivedEvent) -> str:
    if isinstance(e, PotWon):
        how = "at a showdown" if e.showdown else "uncontested"
        return f"{e.player} wins the pot of {_fmt(e.amount)} {how}"
    if isinstance(e, PotCarried):
        return f"the pot of {_fmt(e.amount)} is carried forward (blind survivor {e.player})"
    nets = ", ".join(f"{p} {_fmt(v)}" for p, v in e.nets.items())
    return f"the session ends (nets {nets}; winners {', '.join(e.winners)})"


# --- session set-up ------------------------------------------------------------------------------


def _session_started(state: State, e: SessionStarted) -> State:
    seats = e.seats
    if not 2 <= len(seats) <= 10:
        raise _viol("1.3", f"a session seats 2 to 10 players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        dup = next(s for s in seats if seats.count(s) > 1)
        raise _viol("1.3", f"{dup} is seated twice; seats are unique", dup)
    if any(not s.strip() for s in seats):
        raise _viol("1.3", "a seat needs a player's name")
    rules = e.rules or _DEFAULT_RULES
    if rules.open_min > rules.open_max:
        raise FormatError(
            f"open_min {rules.open_min} is above open_max {rules.open_max}",
            event=e.type,
            field="rules",
        )
    if rules.ante < 0:
        raise FormatError("the ante cannot be negative", event=e.type, field="rules.ante")
    n = len(seats)
    return replace(
        state,
        phase=Phase.BETWEEN,
        session=e.session,
        table=e.table,
        seats=seats,
        index={s: i for i, s in enumerate(seats)},
        cards_mode=e.cards,
        rules=rules,
        scale=2 * rules.ante.denominator,
        paid_t=(0,) * n,
        won_t=(0,) * n,
    )


def _dealer_chosen(state: State, e: DealerChosen) -> State:
    i = state.seat(e.player)
    if state.first_dealer is not None:
        raise _viol(
            "3.1",
            f"the first dealer is chosen once; {e.player} cannot be chosen again",
            e.player,
        )
    if state.deals:
        raise _viol("3.1", "the dealer is chosen before the first deal", e.player)
    return replace(state, first_dealer=i)


def _shuffled(state: State, e: Shuffled) -> State:
    if state.phase is not Phase.BETWEEN or not state.shuffle_due:
        if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
            why = "the pack is not shuffled during a deal"
        elif state.phase is Phase.CARRIED:
            why = (
                "the pack is shuffled only after a showdown won by a prial, not after a carried pot"
            )
        elif state.shuffled_once and state.deals == 0:
            why = "the pack is already shuffled for the first deal"
        else:
            why = (
                "the pack is shuffled only before the first deal "
                "and after a showdown won by a prial"
            )
        raise _viol("3.2", why)
    pack: tuple[int, ...] | None = None
    if e.order is not None:
        codes = card_codes(e.order)
        if len(codes) != 52 or len(set(codes)) != 52:
            raise FormatError(
                f"the order lists {len(set(codes))} different cards of {len(codes)}; a shuffled "
                "pack has each of the 52 cards once",
                event=e.type,
                field="order",
            )
        pack = codes
    return replace(state, shuffle_due=False, shuffled_once=True, pack=pack)


def _dealt(state: State, e: Dealt) -> State:
    if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
        raise _viol(
            "3.4", f"deal {state.deals} is still in progress; a new deal starts after it ends"
        )
    if state.first_dealer is None:
        raise _viol("3.1", "the first dealer must be chosen by lot before the first deal")
    if state.shuffle_due:
        if state.deals == 0:
            raise _viol("3.2", "the pack must be shuffled before the first deal")
        raise _viol(
            "3.2", "the last deal ended in a showdown won by a prial: shuffle before dealing"
        )
    n = len(state.seats)
    pack = state.pack
    retained = state.retained
    if state.phase is Phase.CARRIED and state.survivor is not None:
        # The blind survivor did not retain: their hand(s) go under the pack (RULES 3.3, 6.2).
        pack = _under(pack, state.players[state.survivor].hands)
        retained = None
    dealer = state.first_dealer if state.deals == 0 else (state.dealer or 0) + 1
    dealer %= n
    order = [(dealer + 1 + k) % n for k in range(n)]
    hands: list[tuple[int, int, int] | None] = [None] * n
    if state.cards_mode == "all":
        if e.hands is None:
            raise FormatError(
                "every dealt card is recorded in this session (cards: all)",
                event=e.type,
                field="hands",
            )
        if set(e.hands) != set(state.seats):
            missing = [s for s in state.seats if s not in e.hands]
            extra = [s for s in e.hands if s not in state.index]  # type: ignore[operator]
            what = f"missing {', '.join(missing)}" if missing else f"not seated: {', '.join(extra)}"
            raise _viol("3.4", f"every seated player is dealt a hand ({what})")
        kept: dict[int, str] = {}  # card -> the retained hand it is in
        if retained is not None and retained[1].cards is not None:
            for c in retained[1].cards:
                kept[c] = f"{state.seats[retained[0]]}'s retained hand"
        dealt_to: dict[int, str] = {}  # card -> the player it was dealt to
        for i in order:
            name = state.seats[i]
            a, b, c3 = e.hands[name]
            codes = (_CODE[a], _CODE[b], _CODE[c3])
            for c in codes:
                if c in kept or c in dealt_to:
                    where = kept.get(c) or f"{dealt_to[c]}'s hand"
                    raise _viol("3.4", f"{_TEXT[c]} dealt to {name} is already in {where}", name)
                dealt_to[c] = name
            hands[i] = codes
        if pack is not None:
            for k, i in enumerate(order):
                expect = (pack[k], pack[n + k], pack[2 * n + k])  # one card a round (RULES 3.4)
                if expect != hands[i]:
                    name = state.seats[i]
                    want = " ".join(card_texts(expect))
                    got = " ".join(card_texts(hands[i] or ()))
                    raise _viol(
                        "3.3",
                        f"{name} must be dealt {want} from the top of the pack, not {got}",
                        name,
                    )
            pack = pack[3 * n :]
    elif e.hands is not None:
        raise FormatError(
            "dealt cards are not recorded in a session with cards: shown",
            event=e.type,
            field="hands",
        )
    ante = _amount(state.rules.ante, state.scale) or 0
    blind_play = state.rules.blind_play
    players = []
    for i, name in enumerate(state.seats):
        h = hands[i]
        held: tuple[Hand, ...] = (Hand(h, "new"),) if h is not None else _UNKNOWN_NEW
        if retained is not None and retained[0] == i:
            held = (Hand(retained[1].cards, "old"), Hand(h, "new"))
        players.append(replace(_NEW_PLAYER, name=name, hands=held, seen=not blind_play, paid=ante))
    return replace(
        state,
        phase=Phase.BETTING,
        dealer=dealer,
        deals=state.deals + 1,
        pack=pack,
        pot_t=state.pot_t + ante * n,
        paid_t=tuple(p + ante for p in state.paid_t),
        players=tuple(players),
        turn=order[0],
        level=None,
        actions=0,
        payer=None,
        opponent=None,
        both_blind=None,
        survivor=None,
        retained=None,
    )


# --- betting -------------------------------------------------------------------------------------


def _acting(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    """Common checks for an action in a deal: a deal in progress, a seated player still in."""
    if state.phase is Phase.BETWEEN:
        raise _viol("5.2", f"no deal is in progress: {player} cannot {what}", player)
    if state.phase is Phase.CARRIED:
        raise _viol("5.2", f"the deal has ended (pot carried): {player} cannot {what}", player)
    i = state.index.get(player) if state.index is not None else None
    if i is None:
        i = state.seat(player)  # raises RULES 1.3
    players = state.players
    p = players[i]
    if p.folded:
        raise _viol("5.6", f"{player} has folded and is out of this deal", player)
    if type(state.last_event) not in _MAY_LEAVE_LOOKING:
        return i, p  # nobody can be looking at one of two hands now
    for q in players:
        if q.looking is not None and q.name != player:
            raise _viol(
                "6.4",
                f"{q.name} looked at one of two hands and must keep or throw it at once",
                q.name,
            )
    return i, p


def _betting_turn(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    i = state.turn
    if i is not None and state.phase is _BETTING and player == state.seats[i]:
        # The usual case, checked first: the player whose turn it is bets, folds or sees. Only a
        # ``looked`` (or a ``voided`` going back to one) can leave someone looking (RULES 6.4).
        p = state.players[i]
        if not p.folded:
            if type(state.last_event) not in _MAY_LEAVE_LOOKING:
                return i, p
            if all(q.looking is None for q in state.players):
                return i, p
    i, p = _acting(state, player, what)
    if state.phase is Phase.SHOWDOWN:
        raise _viol("5.8", f"the showdown has begun: {player} cannot {what}", player)
    if p.looking is not None:
        raise _viol(
            "6.4",
            f"{player} looked at the {p.looking} hand and must keep or throw it first",
            player,
        )
    if state.turn != i:
        raise _viol("5.2", f"it is {state.turn_name}'s turn, not {player}'s", player)
    return i, p


def _looked(state: State, e: Looked) -> State:
    i, p = _acting(state, e.player, "look")
    if not state.rules.blind_play:
        raise _viol("5.1", f"blind play is off: {e.player} is seen from the deal", e.player)
    if p.seen:
        raise _viol(
            "5.1",
            f"{e.player} has already looked; a seen player never becomes blind again",
            e.player,
        )
    if p.looking is not None:
        raise _viol(
            "6.4",
            f"{e.player} looked at the {p.looking} hand and must keep or throw it "
            "before looking again",
            e.player,
        )
    if state.phase is Phase.SHOWDOWN:
        if not p.two_hands:
            raise _viol(
                "5.8", f"at the showdown {e.player}'s cards are shown, not looked at", e.player
            )
    elif state.actions > 0 and state.turn != i:  # betting has started
        raise _viol(
            "5.1",
            f"betting has begun: blind {e.player} may look only at the start of their own turn "
            f"(it is {state.turn_name}'s)",
            e.player,
        )
    if len(p.hands) == 2:
        if e.hand is None:
            raise _viol(
                "6.4", f"{e.player} holds two hands and must say which one is looked at", e.player
            )
        _the_hand(p, e.hand)
        return replace(state, players=_set_player(state.players, i, replace(p, looking=e.hand)))
    if e.hand is not None and p.hands[0].origin != e.hand:
        raise _viol("6.4", f"{e.player} holds one hand, not an {e.hand} one", e.player)
    q = replace(p, seen=True, looked_at_turn=p.bets)
    return replace(state, players=_set_player(state.players, i, q))


def _kept_or_thrown(state: State, e: Kept | Thrown) -> State:
    i = state.seat(e.player) if state.players else -1
    if i < 0 or state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        raise _viol("6.4", f"{e.player} has not just looked at one of two hands", e.player)
    p = state.players[i]
    if p.looking is None:
        raise _viol("6.4", f"{e.player} has not just looked at one of two hands", e.player)
    k = _the_hand(p, p.looking)
    looked, other = p.hands[k], p.hands[1 - k]
    if isinstance(e, Kept):
        # Keep the looked-at hand; the other goes under the pack unseen (RULES 6.4, 3.3).
        pack = _under(state.pack, (other,))
        q = replace(p, hands=(looked,), seen=True, looking=None, looked_at_turn=p.bets)
    else:
        pack = _under(state.pack, (looked,))
        q = replace(p, hands=(other,), looking=None)
    return replace(state, pack=pack, players=_set_player(state.players, i, q))


def _bet(state: State, e: Bet) -> State:
    i, p = _betting_turn(state, e.player, "bet")
    lv = e.level
    if lv.denominator != 1:
        raise _viol("5.5", f"levels are whole units; {e.player} bet level {_fmt(lv)}", e.player)
    level = lv.numerator
    r = state.rules
    if state.level is None:
        if not r.open_min <= level <= r.open_max:
            raise _viol(
                "5.5",
                f"the first bet sets the level to {r.open_min}..{r.open_max}; "
                f"{e.player} bet level {level}",
                e.player,
            )
    elif level < state.level:
        raise _viol(
            "5.5",
            f"a bet keeps or raises the level ({state.level}); {e.player} bet level {level}",
            e.player,
        )
    elif level > state.level + r.raise_max:
        raise _viol(
            "5.5",
            f"a raise is at most {r.raise_max} on the level ({state.level}); "
            f"{e.player} bet level {level}",
            e.player,
        )
    full = level * state.scale
    ticks = full if p.seen else full // 2  # RULES 5.3 (State.cost)
    if e.paid is not None:
        _check_paid(state, e.paid, ticks, "5.3", e.player)
    q = _pays(p, ticks)
    players = _set_player(state.players, i, q)
    return replace(
        state,
        players=players,
        pot_t=state.pot_t + ticks,
        paid_t=_add(state.paid_t, i, ticks),
        level=level,
        actions=state.actions + 1,
        turn=_next_active(players, i),
    )


def _pays(p: PlayerState, ticks: int) -> PlayerState:
    """``replace(p, paid=p.paid + ticks, bets=p.bets + 1)``, spelt out for the hot path."""
    attrs = p.__dict__.copy()
    attrs["paid"] = p.paid + ticks
    attrs["bets"] = p.bets + 1
    out = _new(PlayerState)
    _set_attr(out, "__dict__", attrs)
    return out


def _add(values: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    out = list(values)
    out[i] += x
    return tuple(out)


def _folded(state: State, e: Folded) -> State:
    i, p = _betting_turn(state, e.player, "fold")
    q = replace(p, folded=True)
    players = _set_player(state.players, i, q)
    pack = _under(state.pack, p.hands)  # RULES 3.3: under the pack as it folds, old then new
    left = [k for k, x in enumerate(players) if not x.folded]
    if len(left) > 1:  # the deal goes on
        return replace(
            state,
            players=players,
            pack=pack,
            actions=state.actions + 1,
            turn=_next_active(players, i),
        )
    state = replace(state, players=players, pack=pack, actions=state.actions + 1)
    s = left[0]
    survivor = players[s]
    if survivor.seen:
        # RULES 5.6: a seen survivor takes the pot without showing.
        pack = _under(pack, survivor.hands)
        return _award(replace(state, pack=pack), s, showdown=False, hand=None, cards=None)
    # RULES 6.1: a blind survivor does not take the pot; it is carried forward whole.
    amount = state.pot
    out = Outcome(
        deal=state.deals,
        dealer=state.seats[state.dealer or 0],
        result="carried",
        winner=None,
        amount=amount,
        showdown=False,
        blind=survivor.name,
    )
    derived = PotCarried(deal=state.deals, player=survivor.name, amount=amount)
    return replace(
        state,
        phase=Phase.CARRIED,
        turn=None,
        survivor=s,
        carried=state.carried + 1,
        outcomes=(*state.outcomes, out),
        pending=(derived,),
    )


def _award(
    state: State,
    winner: int,
    *,
    showdown: bool,
    hand: Category | None,
    cards: tuple[int, ...] | None,
) -> State:
    """The pot goes to ``winner`` (RULES 5.6, 5.9); the 8th resolution ends the session (1.4)."""
    amount = state.pot
    name = state.seats[winner]
    texts = card_texts(cards) if cards is not None and len(cards) == 3 else None
    out = Outcome(
        deal=state.deals,
        dealer=state.seats[state.dealer or 0],
        result="won",
        winner=name,
        amount=amount,
        showdown=showdown,
        hand=hand.label if hand is not None else None,
        cards=texts,
        payer=state.seats[state.payer] if state.payer is not None else None,
        seen_player=state.seats[state.opponent] if state.opponent is not None else None,
    )
    derived: list[DerivedEvent] = [
        PotWon(
            deal=state.deals,
            player=name,
            amount=amount,
            showdown=showdown,
            hand=out.hand,
            cards=texts,
        )
    ]
    won_t = _add(state.won_t, winner, state.pot_t)
    resolved = state.resolved + 1
    phase = Phase.BETWEEN
    shuffle_due = showdown and hand is Category.PRIAL  # RULES 3.2
    new = replace(
        state,
        phase=phase,
        pot_t=0,
        won_t=won_t,
        resolved=resolved,
        turn=None,
        shuffle_due=shuffle_due,
        outcomes=(*state.outcomes, out),
    )
    if resolved >= state.rules.pots:
        derived.append(SessionEnded(nets=new.nets, winners=new.winners))
        new = replace(new, phase=Phase.OVER)
    return replace(new, pending=tuple(derived))


def _saw(state: State, e: Saw) -> State:
    i, p = _betting_turn(state, e.player, "see")
    left = [k for k, x in enumerate(state.players) if not x.folded]
    if len(left) != 2:
        raise _viol(
            "5.7",
            f"a see needs exactly two players left; {len(left)} are in, "
            f"so {e.player} must bet or fold",
            e.player,
        )
    if state.level is None:
        raise _viol(
            "5.7", f"nothing has been bet yet: {e.player} cannot see before the first bet", e.player
        )
    o = left[0] if left[1] == i else left[1]
    opp = state.players[o]
    if p.seen and opp.blind:
        raise _viol(
            "5.7",
            f"{e.player} is seen and cannot see a blind player ({opp.name}); bet or fold",
            e.player,
        )
    full = state.level * state.scale
    ticks = 2 * full if p.seen else full  # seen v seen: 2 x level; blind: the level (RULES 5.7)
    _check_paid(state, e.paid, ticks, "5.7", e.player)
    q = _pays(p, ticks)
    return replace(
        state,
        phase=Phase.SHOWDOWN,
        players=_set_player(state.players, i, q),
        pot_t=state.pot_t + ticks,
        paid_t=_add(state.paid_t, i, ticks),
        actions=state.actions + 1,
        payer=i,
        opponent=o,
        turn=o,
        both_blind=None,
    )


# --- showdown ------------------------------------------------------------------------------------


def _showdown_checks(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    if state.phase is not Phase.SHOWDOWN:
        raise _viol(
            "5.8", f"there is no showdown: {player} cannot {what} (only after a see)", player
        )
    i = state.seat(player)
    if i not in (state.payer, state.opponent):
        raise _viol("5.8", f"{player} is not in the showdown", player)
    for k in (state.opponent, state.payer):
        assert k is not None
        q = state.players[k]
        if q.two_hands or q.looking is not None:
            raise _viol(
                "6.6",
                f"{q.name} holds two hands and must reduce them to one (look, keep or throw) "
                "before any card is shown",
                q.name,
            )
    return i, state.players[i]


def _shown(state: State, e: Shown) -> State:
    i, p = _showdown_checks(state, e.player, "show")
    assert state.payer is not None and state.opponent is not None
    pi, oi = state.payer, state.opponent
    payer, opp = state.players[pi], state.players[oi]
    both_blind = state.both_blind
    if both_blind is None:
        both_blind = payer.blind and opp.blind
    cards = card_codes(e.cards)
    if both_blind:
        # RULES 5.8: turned one at a time, alternately, the payer's opponent first.
        if len(cards) != 1:
            raise _viol(
                "5.8",
                "both players are blind: cards are turned one at a time, "
                f"{e.player} showed {len(cards)}",
                e.player,
            )
        n_opp, n_pay = len(opp.shown), len(payer.shown)
        nxt: int | None = oi if n_opp == n_pay else pi
        if n_opp == 3 and n_pay == 3:
            nxt = None
        if i != nxt:
            who = state.seats[nxt] if nxt is not None else "nobody"
            raise _viol(
                "5.8",
                f"the cards are turned alternately: {who} turns the next card, not {e.player}",
                e.player,
            )
    else:
        if len(cards) != 3:
            raise _viol(
                "5.8",
                f"{e.player} shows all three cards (only two blind players turn one at a time)",
                e.player,
            )
        if i == state.payer and len(opp.shown) < 3:
            raise _viol("5.8", f"{opp.name}, the one seen, shows first", e.player)
        if len(p.shown) == 3:
            raise _viol("5.8", f"{e.player} has already shown", e.player)
    hand = p.hands[0].cards
    for c in cards:
        if c in p.shown:
            raise _viol("5.8", f"{e.player} has already shown {_TEXT[c]}", e.player)
        if hand is not None and c not in hand:
            raise _viol(
                "5.8",
                f"{e.player} holds {' '.join(card_texts(hand))}; {_TEXT[c]} is not in that hand",
                e.player,
            )
        other = state.players[state.payer if i == state.opponent else state.opponent]
        if c in other.shown:
            raise _viol(
                "3.4", f"{e.player} shows {_TEXT[c]}, already shown by {other.name}", e.player
            )
    q = replace(p, shown=p.shown + cards)
    players = _set_player(state.players, i, q)
    state = replace(state, players=players, both_blind=both_blind)
    payer, opp = players[pi], players[oi]
    if len(payer.shown) == 3 and len(opp.shown) == 3:
        ks_pay = strength_codes(*payer.shown)
        ks_opp = strength_codes(*opp.shown)
        # RULES 5.8: the payer wins only with a strictly better hand.
        if ks_pay > ks_opp:
            w, key, wcards = pi, ks_pay, payer.shown
        else:
            w, key, wcards = oi, ks_opp, opp.shown
        pack = _under(state.pack, opp.hands + payer.hands)  # RULES 3.3: opponent's, then payer's
        return _award(
            replace(state, pack=pack),
            w,
            showdown=True,
            hand=category_of_strength(key),
            cards=wcards,
        )
    return replace(state, turn=pi if i == oi else oi)


def _conceded(state: State, e: Conceded) -> State:
    i, p = _showdown_checks(state, e.player, "concede")
    assert state.payer is not None and state.opponent is not None
    if i != state.payer:
        raise _viol("5.8", f"only the payer may concede; {e.player} was seen and shows", e.player)
    opp = state.players[state.opponent]
    if len(opp.shown) < 3:
        raise _viol(
            "5.8", f"{e.player} may concede only once {opp.name}'s three cards are shown", e.player
        )
    ks_opp = strength_codes(*opp.shown)
    mine = p.hands[0].cards
    if mine is not None and strength_codes(*mine) > ks_opp:
        raise _viol(
            "5.8",
            f"{e.player}'s hand {' '.join(card_texts(mine))} beats {opp.name}'s; "
            "only a losing payer concedes",
            e.player,
        )
    pack = _under(state.pack, opp.hands + p.hands)
    return _award(
        replace(state, pack=pack),
        state.opponent,
        showdown=True,
        hand=category_of_strength(ks_opp),
        cards=opp.shown,
    )


# --- carried pot and retained hands --------------------------------------------------------------


def _retained(state: State, e: Retained) -> State:
    if state.phase is not Phase.CARRIED or state.survivor is None:
        raise _viol(
            "6.2",
            f"only a blind survivor whose pot was carried may retain a hand ({e.player})",
            e.player,
        )
    i = state.seat(e.player)
    if i != state.survivor:
        raise _viol(
            "6.2",
            f"{e.player} did not survive blind; only {state.seats[state.survivor]} may retain",
            e.player,
        )
    p = state.players[i]
    if p.two_hands:
        if e.hand is None:
            raise _viol(
                "6.7",
                f"{e.player} holds two unseen hands and may retain only one; "
                "say which (old or new)",
                e.player,
            )
        k = _the_hand(p, e.hand)
        keep, give_up = p.hands[k], p.hands[1 - k]
        pack = _under(state.pack, (give_up,))
    else:
        keep = p.hands[0]
        if e.hand is not None and e.hand != keep.origin:
            raise _viol("6.7", f"{e.player} holds only the {keep.origin} hand", e.player)
        pack = state.pack
    return replace(state, phase=Phase.BETWEEN, retained=(i, keep), survivor=None, pack=pack)


# --- corrections ---------------------------------------------------------------------------------


def _voided(state: State, e: Voided) -> State:
    if state.undo is None or state.recorded_seq is None:
        raise FormatError("there is no recorded event in force to void", event=e.type, field="seq")
    if e.seq != state.recorded_seq:
        raise FormatError(
            f"only the latest recorded event still in force (seq {state.recorded_seq}) may be "
            f"voided, not seq {e.seq}",
            event=e.type,
            field="seq",
        )
    if state.undo.phase is Phase.NEW:
        raise FormatError("the session's start cannot be voided", event=e.type, field="seq")
    return replace(state.undo, seq=state.seq + 1, last_event=e)


_HANDLERS.update(
    {
        Bet: _bet,
        Folded: _folded,
        Looked: _looked,
        Shown: _shown,
        Dealt: _dealt,
        Saw: _saw,
        Conceded: _conceded,
        Retained: _retained,
        Kept: _kept_or_thrown,
        Thrown: _kept_or_thrown,
        Shuffled: _shuffled,
        DealerChosen: _dealer_chosen,
        SessionStarted: _session_started_again,
    }
)
