"""The events of a session log (FORMAT.md), as frozen pydantic models.

Recorded events say what happened at the table; derived events are the engine's conclusions
(pot won, pot carried, session ended), appended right after the recorded event that causes them.
Every model is frozen, forbids unknown fields and carries its FORMAT.md ``type`` tag and schema
version ``v``. :data:`Event` is the discriminated union of them all and :data:`EVENT_ADAPTER`
the one :class:`~pydantic.TypeAdapter` built for it.

Amounts are :class:`~fractions.Fraction` in stake units (RULES 1.2); cards are canonical
two-character strings (``"Kc"``; FORMAT.md "Cards").
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Annotated, Any, Final, Literal, TypeAlias
from uuid import UUID

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    TypeAdapter,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)

from events.amounts import format_amount, parse_amount
from events.bounds import (
    ANTE_DENOMINATORS,
    MAX_ANTE,
    MAX_LEVEL,
    MAX_NAME,
    MAX_OPEN,
    MAX_POTS,
    MAX_SEQ,
    MAX_SESSION_ID,
    _ante_bound,
    _at_most_open,
    _at_most_pots,
    _level_bound,
    _name,
    _session_id,
    _stored,
)
from events.cards import canonical
from events.text import inert, normal

Name = Annotated[str, AfterValidator(_name)]
"""A player's, table's or recorder's name: printable text of 1 to :data:`MAX_NAME` characters."""
SessionId = Annotated[str, AfterValidator(_session_id)]
"""A session id: printable text of 1 to :data:`MAX_SESSION_ID` characters."""

_WHOLE: Final = {k: Fraction(k) for k in range(-64, 1025)}
"""The common whole amounts, made once (a Fraction is immutable, so one object serves all)."""


def _amount(value: Any, info: ValidationInfo) -> Fraction:
    """:func:`~events.amounts.parse_amount` (bounded, but for stored rows), with the common whole
    amounts looked up."""
    if type(value) is int:
        whole = _WHOLE.get(value)
        if whole is not None:
            return whole
    return parse_amount(value, bounded=not _stored(info))


Amount = Annotated[
    Fraction,
    PlainValidator(_amount),
    PlainSerializer(format_amount),
    WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
]
"""An exact amount in stake units: reads ``3``, ``"1.5"`` or ``"3/2"``; writes ``3`` or
``"3/2"``."""


def _card(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"a card is a string such as 'Kc', not {value!r}")
    return canonical(value)


CardText = Annotated[str, PlainValidator(_card), WithJsonSchema({"type": "string"})]
"""A card in any accepted notation, stored in the canonical form (``"Td"``)."""

Hand3 = tuple[CardText, CardText, CardText]
HandChoice = Literal["old", "new"]
"""Which of two held hands (RULES 6.3, 6.4): the retained ``old`` one or the ``new`` one."""

CURRENT_VERSION: Final = 1
"""The schema version every event type has today (FORMAT.md ``v``)."""


class _Event(BaseModel):
    """The envelope of FORMAT.md: optional on import, written on export."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    v: int = 1
    id: UUID | None = None
    seq: Annotated[int, Field(ge=1, le=MAX_SEQ)] | None = None
    at: AwareDatetime | None = None
    by: Name | None = None


# --- recorded events ---------------------------------------------------------------------------


class Rules(BaseModel):
    """The rule parameters of a session (FORMAT.md ``rules``; RULES 1.4, 4.1, 5.1, 5.5).

    ``ante`` in stake units; ``open_min``/``open_max`` bound the opening level and ``raise_max`` a
    raise, in whole seen units; ``pots`` is the number of resolved pots that ends the session;
    ``blind_play`` off is the card's practice profile (everyone is seen from the deal).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    ante: Annotated[Amount, AfterValidator(_ante_bound)] = Fraction(1)
    open_min: Annotated[int, Field(ge=1), AfterValidator(_at_most_open)] = 1
    open_max: Annotated[int, Field(ge=1), AfterValidator(_at_most_open)] = 5
    raise_max: Annotated[int, Field(ge=0), AfterValidator(_at_most_open)] = 5
    pots: Annotated[int, Field(ge=1), AfterValidator(_at_most_pots)] = 8
    blind_play: bool = True


def _nonneg(x: Fraction) -> Fraction:
    if x < 0:
        raise ValueError("must not be negative")
    return x


class SessionStarted(_Event):
    """RULES 1: the session, its seats clockwise, which cards are recorded, and the rules."""

    type: Literal["session_started"] = "session_started"
    session: SessionId
    table: Name | None = None
    seats: tuple[Name, ...]
    cards: Literal["all", "shown"]
    rules: Rules | None = None

    @model_validator(mode="after")
    def _one_name_one_seat(self, info: ValidationInfo) -> SessionStarted:
        """RULES 1.3 seats are unique, and two spellings of one name (the same
        :func:`events.text.normal` form: ``Ann`` and ``ann``) are one name. A stored row is read
        as it is (a store written before this check may hold both)."""
        if _stored(info):
            return self
        first: dict[str, str] = {}
        for seat in self.seats:
            key = normal(seat)
            other = first.setdefault(key, seat)
            if other != seat:
                raise ValueError(
                    f"{inert(other)} and {inert(seat)} are one name (RULES 1.3: seats are "
                    'unique; docs/format.md "Choices where RULES.md is silent": the same '
                    "name in another case, width or spacing, or with look-alike letters)"
                )
        return self


class DealerChosen(_Event):
    """RULES 3.1: the first dealer, chosen by lot, once before the first deal."""

    type: Literal["dealer_chosen"] = "dealer_chosen"
    player: Name


class Shuffled(_Event):
    """RULES 3.2: the pack is shuffled; ``order`` (top first, 52 cards) when it was recorded."""

    type: Literal["shuffled"] = "shuffled"
    order: tuple[CardText, ...] | None = None


class Dealt(_Event):
    """RULES 3.4, 4.1: a new deal; every player antes; ``hands`` (player → 3 cards in the order
    dealt) exactly when the session records ``cards: "all"``."""

    type: Literal["dealt"] = "dealt"
    hands: dict[Name, Hand3] | None = None


class Looked(_Event):
    """RULES 5.1, 6.4: a player looks at their hand (``hand`` names one of two held hands)."""

    type: Literal["looked"] = "looked"
    player: Name
    hand: HandChoice | None = None


class Kept(_Event):
    """RULES 6.4: keep the hand just looked at; the other is thrown under the pack unseen."""

    type: Literal["kept"] = "kept"
    player: Name


class Thrown(_Event):
    """RULES 6.4: throw the hand just looked at under the pack; keep the other, still blind."""

    type: Literal["thrown"] = "thrown"
    player: Name


class Bet(_Event):
    """RULES 5.3-5.5: a bet; ``level`` is the level after it in seen units, ``paid`` is checked."""

    type: Literal["bet"] = "bet"
    player: Name
    level: Annotated[Amount, AfterValidator(_level_bound)]
    paid: Amount | None = None


class Folded(_Event):
    """RULES 5.6: the player leaves the deal and forfeits what they paid into this pot."""

    type: Literal["folded"] = "folded"
    player: Name


class Saw(_Event):
    """RULES 5.7: ``player`` (the payer) sees the other player left; ``paid`` is checked."""

    type: Literal["saw"] = "saw"
    player: Name
    paid: Amount | None = None


def _one_or_three(cards: tuple[str, ...]) -> tuple[str, ...]:
    if len(cards) not in (1, 3):
        raise ValueError(
            f"a showing is 3 cards, or 1 at a time when both are blind, not {len(cards)}"
        )
    if len(set(cards)) != len(cards):
        raise ValueError("the same card twice")
    return cards


class Shown(_Event):
    """RULES 5.8: cards shown at the showdown (three, or one at a time when both are blind)."""

    type: Literal["shown"] = "shown"
    player: Name
    cards: Annotated[tuple[CardText, ...], AfterValidator(_one_or_three)]


class Conceded(_Event):
    """RULES 5.8: a losing payer gives up the showdown without showing."""

    type: Literal["conceded"] = "conceded"
    player: Name


class Retained(_Event):
    """RULES 6.2, 6.7: the blind survivor keeps their unseen hand for the next deal."""

    type: Literal["retained"] = "retained"
    player: Name
    hand: HandChoice | None = None


class Voided(_Event):
    """FORMAT.md: withdraws the latest recorded event still in force (and its derived events).

    Here ``seq`` is not the envelope's position but the seq of the withdrawn event (FORMAT.md's
    table); a ``voided`` event's own position is given by its place in the stream."""

    type: Literal["voided"] = "voided"
    seq: Annotated[int, Field(ge=1, le=MAX_SEQ)]


CorrectableEvent: TypeAlias = Annotated[
    DealerChosen
    | Shuffled
    | Dealt
    | Looked
    | Kept
    | Thrown
    | Bet
    | Folded
    | Saw
    | Shown
    | Conceded
    | Retained,
    Field(discriminator="type"),
]
"""What an ``amended`` may record in place of an event, or before it: an action at the table
(never the session's start, a correction, or an engine's conclusion)."""

AmendAction = Literal["withdraw", "replace", "insert"]


class Amended(_Event):
    """docs/format.md ``amended`` (FORMAT.md "Corrections of an earlier step"): one correction of
    an earlier recorded event still in force, named by its ``target`` id and ``target_seq``.

    ``action`` ``withdraw``: the target is no longer in force; ``replace``: ``event`` stands in
    its place (and takes its step number); ``insert``: ``event`` is put just before the target.
    ``event`` carries an ``id`` of its own (a later correction or a note may name it); it is
    absent for ``withdraw``. Unlike ``voided``, the envelope ``seq`` is this event's own place in
    the stream; the target's seq is ``target_seq``, checked against the target."""

    type: Literal["amended"] = "amended"
    action: AmendAction
    target: UUID
    target_seq: Annotated[int, Field(ge=1, le=MAX_SEQ)]
    event: CorrectableEvent | None = None

    @model_validator(mode="after")
    def _event_given(self) -> Amended:
        if (self.event is None) != (self.action == "withdraw"):
            need = "no event" if self.action == "withdraw" else "the event it records"
            raise ValueError(f"an amended {self.action} carries {need} (docs/format.md)")
        return self


# --- derived events ----------------------------------------------------------------------------


class PotWon(_Event):
    """Derived (RULES 5.6, 5.9): ``player`` takes the pot of ``amount`` in deal ``deal``.

    ``showdown`` tells a showdown from an uncontested pot; at a showdown ``hand`` is the winning
    hand's category and ``cards`` its cards when they were shown (absent when unknown)."""

    type: Literal["pot_won"] = "pot_won"
    deal: Annotated[int, Field(ge=1, le=MAX_SEQ)]
    player: Name
    amount: Annotated[Amount, AfterValidator(_nonneg)]
    showdown: bool
    hand: str | None = None
    cards: tuple[CardText, ...] | None = None


class PotCarried(_Event):
    """Derived (RULES 6.1): the blind survivor ``player`` leaves the pot of ``amount`` on the
    table."""

    type: Literal["pot_carried"] = "pot_carried"
    deal: Annotated[int, Field(ge=1, le=MAX_SEQ)]
    player: Name
    amount: Annotated[Amount, AfterValidator(_nonneg)]


class SessionEnded(_Event):
    """Derived (RULES 1.4, 1.5): the last pot is resolved; ``nets`` per player and the ``winners``
    (every player with the highest net)."""

    type: Literal["session_ended"] = "session_ended"
    nets: dict[Name, Amount]
    winners: tuple[Name, ...]


RecordedEvent: TypeAlias = (
    SessionStarted
    | DealerChosen
    | Shuffled
    | Dealt
    | Looked
    | Kept
    | Thrown
    | Bet
    | Folded
    | Saw
    | Shown
    | Conceded
    | Retained
    | Voided
    | Amended
)
DerivedEvent: TypeAlias = PotWon | PotCarried | SessionEnded
Event: TypeAlias = Annotated[RecordedEvent | DerivedEvent, Field(discriminator="type")]

EVENT_ADAPTER: Final[TypeAdapter[RecordedEvent | DerivedEvent]] = TypeAdapter(Event)
"""Validates one raw event (a dict) into its model: ``EVENT_ADAPTER.validate_python(raw)``."""

RECORDED_TYPES: Final = frozenset(m.model_fields["type"].default for m in RecordedEvent.__args__)
DERIVED_TYPES: Final = frozenset(m.model_fields["type"].default for m in DerivedEvent.__args__)
DERIVED_CLASSES: Final = frozenset(DerivedEvent.__args__)
"""The derived event classes (RULES 6: written by the engine, never recorded): ``PotWon``,
``PotCarried``, ``SessionEnded``."""
EVENT_CLASSES: Final[dict[str, type[_Event]]] = {
    m.model_fields["type"].default: m for m in (*RecordedEvent.__args__, *DerivedEvent.__args__)
}

AnyEvent: TypeAlias = RecordedEvent | DerivedEvent


def is_derived(event: AnyEvent) -> bool:
    """True for the engine's conclusions (pot won, pot carried, session ended)."""
    return isinstance(event, PotWon | PotCarried | SessionEnded)


def content(event: AnyEvent) -> dict[str, Any]:
    """The event's meaning without its envelope (``v``, ``id``, ``seq``, ``at``, ``by``), as JSON
    data.

    Two events with equal content say the same thing; used for idempotent retries and to check
    derived events against the engine's conclusions."""
    data = event.model_dump(mode="json", exclude={"v", "id", "seq", "at", "by"}, exclude_none=True)
    if isinstance(event, Voided):
        data["seq"] = event.seq
    return data


__all__ = [
    "ANTE_DENOMINATORS",
    "CURRENT_VERSION",
    "DERIVED_TYPES",
    "EVENT_ADAPTER",
    "EVENT_CLASSES",
    "MAX_ANTE",
    "MAX_LEVEL",
    "MAX_NAME",
    "MAX_OPEN",
    "MAX_POTS",
    "MAX_SEQ",
    "MAX_SESSION_ID",
    "RECORDED_TYPES",
    "AmendAction",
    "Amended",
    "Amount",
    "AnyEvent",
    "Bet",
    "CardText",
    "Conceded",
    "CorrectableEvent",
    "DealerChosen",
    "Dealt",
    "DerivedEvent",
    "Event",
    "Folded",
    "Kept",
    "Looked",
    "Name",
    "PotCarried",
    "PotWon",
    "RecordedEvent",
    "Retained",
    "Rules",
    "Saw",
    "SessionEnded",
    "SessionId",
    "SessionStarted",
    "Shown",
    "Shuffled",
    "Thrown",
    "Voided",
    "content",
    "datetime",
    "is_derived",
]
