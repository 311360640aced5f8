"""The session state: the data the fold builds (RULES 1 to 6), and nothing that decides.

A :class:`State` is immutable; :func:`engine.apply.apply` checks one event against the rules (in
:mod:`engine.rules`) and returns the next state. Nothing is mutated, so every earlier state stays
valid (the replayer steps back and forth).

Money is exact. Inside the state, amounts are whole numbers of *ticks*, ``1 / scale`` stake units,
where ``scale = 2 * ante.denominator``: levels are whole units (RULES 5.5) and a blind player pays
half (RULES 5.3), so every amount is a whole number of ticks. The public properties
(:attr:`State.pot`, :meth:`State.net`, ...) return :class:`~fractions.Fraction` stake units.

The engine's conclusions are derived events (:class:`~events.model.PotWon`,
:class:`~events.model.PotCarried`, :class:`~events.model.SessionEnded`). A recorded event that
concludes something leaves them in :attr:`State.pending`; they must be the next events of the stream
(:func:`~engine.apply.apply` checks each against the conclusion) before another recorded event is
accepted.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal, TypeVar

from events.cards import RANKS, SUITS
from events.errors import RuleViolation
from events.model import AnyEvent, DerivedEvent, PotWon, Rules

__all__ = [
    "Hand",
    "Outcome",
    "Phase",
    "PlayerState",
    "Sightings",
    "State",
    "card_codes",
    "card_texts",
    "initial_state",
    "replace",
    "without_history",
]

CODE = {RANKS[r] + SUITS[s]: r * 4 + s for r in range(13) for s in range(4)}
"""Canonical card string -> card code (0..51): ``rank * 4 + suit``."""
TEXT = {v: k for k, v in CODE.items()}
"""Card code -> canonical card string."""
DEFAULT_RULES = Rules()


def card_codes(cards: tuple[str, ...]) -> tuple[int, ...]:
    """Canonical card strings to card codes (0..51)."""
    return tuple(CODE[c] for c in cards)


def card_texts(codes: tuple[int, ...]) -> tuple[str, ...]:
    """Card codes to canonical card strings."""
    return tuple(TEXT[c] for c in codes)


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
    ``slots`` are the hand's places in the tracked pack, in the order dealt (RULES 3.3-3.4): the
    cards themselves where a shuffle's order is recorded, the slots of :mod:`engine.pack` at a
    ``cards: "shown"`` table, ``None`` where the pack is not tracked.
    """

    cards: tuple[int, int, int] | None
    origin: Literal["old", "new"] = "new"
    slots: tuple[int, ...] | None = None

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
class Sightings:
    """What the cards shown since the last shuffle say of the pack at a ``cards: "shown"`` table
    (RULES 3.2-3.4; :mod:`engine.pack` decides with it). ``places``: card code -> the slots it can
    be in (those of every hand it was shown from); ``card_in``: slot -> card code, one assignment
    of every shown card to a slot of its own; ``last``: card code -> (deal, player) of its latest
    showing. The dictionaries are never changed once a state holds them (a new showing copies
    them)."""

    places: dict[int, frozenset[int]]
    card_in: dict[int, int]
    last: dict[int, tuple[int, str]]


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
    rules: Rules = DEFAULT_RULES
    scale: int = 2
    first_dealer: int | None = None
    dealer: int | None = None
    deals: int = 0
    shuffled_once: bool = False
    shuffle_due: bool = True
    pack: tuple[int, ...] | None = None
    sightings: Sightings | None = None
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


_R = TypeVar("_R", State, PlayerState)
_FIELDS: dict[type, frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in (State, PlayerState)
}


def _evolve(obj: _R, fresh: bool = False, /, **changes: Any) -> _R:
    """A copy of the frozen record ``obj`` (a :class:`State` or a :class:`PlayerState`) with
    ``changes``: ``dataclasses.replace(obj, **changes)``, the one place the engine writes a frozen
    record's attributes directly.

    Why: speed. The fold makes a new state for every event (and new player records inside it);
    ``dataclasses.replace`` introspects the fields and re-runs the frozen ``__init__`` each time.
    Here the new record's attribute dictionary is the old one's copied once and updated with
    ``changes``, set on a bare instance through ``object.__setattr__`` (which the frozen
    ``__setattr__`` would refuse).

    Measured for issue 34 (Python 3.11, CPU time, best of 5): one copy of a :class:`State` (35
    fields) takes ~13 us with ``dataclasses.replace`` (its loop over the fields, then the frozen
    ``__init__`` setting each field through ``object.__setattr__``; ``State(**fields)`` ~11 us,
    ``slots=True`` no better) against ~0.9 us here; a :class:`PlayerState` ~5 us against ~0.9 us.
    The fold makes ~3.3 copies per event: with ``dataclasses.replace`` throughout, folding
    bench/replay.py's 1,000 sessions (305,412 events) took 7.96 s instead of 1.83 s (4.3x), with
    it for :class:`PlayerState` only 2.8-3.0 s instead of 1.8-1.9 s, and without ``fresh`` (a
    copy in :func:`engine.apply.apply` too) 2.06 s instead of 1.86 s; bench/replay.py's full
    verification (read, parse, fold) took 11.9 and 11.7 s instead of 4.6 and 4.9 s (22x the bare
    parse instead of 9x, on a loaded machine).

    What it promises: the result is a new object, equal to what ``dataclasses.replace`` gives
    (a name that is not a field is a TypeError); ``obj`` never changes, so every earlier state
    stays valid. Exported as :func:`replace` (the name :mod:`engine.rules` uses).

    The one exception, ``fresh=True`` (positional, never a field): ``obj`` is a record the caller
    has just had made here and that no one else holds yet (:func:`engine.apply.apply` filling in
    the envelope of the state a rule returned for this event); it gets ``changes`` in place and
    is returned, which spares the fold's hot path a second copy per event (about a tenth of
    ``engine.fold.fold``). A record anyone else may hold is never changed."""
    if fresh:
        attrs = obj.__dict__
        size = len(attrs)
        attrs.update(changes)
        if len(attrs) != size:  # a name that is not a field was added
            cls = type(obj)
            raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - _FIELDS[cls])}")
        return obj
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

replace = _evolve
"""``dataclasses.replace`` for :class:`State` and :class:`PlayerState`, made for the fold's hot
path: see :func:`_evolve` (the same function)."""


def without_history(state: State) -> State:
    """``state`` without its undo chain (every earlier state, kept for ``voided``): for a cache
    that holds many sessions' latest states, at a few hundred bytes each instead of ~2 KB per
    event of the session. Everything else is equal; a ``voided`` applied to it is refused with a
    FormatError (no recorded event in force to void), so a holder must fold the stream again (from
    its log) before it applies a correction."""
    if state.undo is None:
        return state
    return replace(state, undo=None)


def initial_state() -> State:
    """The state before any event."""
    return State()
