"""The organiser's recorder, without Streamlit: what may be recorded next, and the events to append.

The Record page shows :func:`choices` as large buttons (each the engine's
:class:`~engine.legal.LegalAction` with its cost in the label), completes a choice that needs input
with :func:`complete` (the cards shown at a real table, the hands of a deal, a shuffle's order) and
takes back the latest recorded action with :func:`undo`, a ``voided`` event (FORMAT.md). The rules
are the engine's: nothing here decides what is legal.
"""

from __future__ import annotations

import hmac
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.legal import LegalAction, can_void, legal_actions
from engine.state import Phase, State, card_texts
from events.cards import FULL_PACK
from events.model import (
    AnyEvent,
    DealerChosen,
    RecordedEvent,
    Rules,
    SessionStarted,
    Shown,
    Shuffled,
    Voided,
)

__all__ = [
    "Choice",
    "check_secret",
    "choices",
    "complete",
    "free_cards",
    "now_in",
    "parse_seats",
    "stamped",
    "start_events",
    "undo",
]

Group = Literal["table", "turn", "look", "showdown", "after"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One button: ``key`` is stable for the widget, ``label`` says who does what and what it costs,
    ``group`` places it on the page, ``action`` is the engine's legal action."""

    key: str
    label: str
    group: Group
    action: LegalAction

    @property
    def needs(self) -> tuple[str, ...]:
        return self.action.needs

    @property
    def card_count(self) -> int:
        """How many cards the organiser picks for a ``shown`` (1 when both are blind, else 3)."""
        return len(self.action.event.cards) if isinstance(self.action.event, Shown) else 0


def _group(state: State, a: LegalAction) -> Group:
    t = a.kind
    if a.player is None or t in ("dealer_chosen", "shuffled", "dealt"):
        return "table"
    if t == "retained":
        return "after"
    if state.phase is Phase.SHOWDOWN:
        return "showdown"
    if t == "looked" and (not state.betting_started or a.player != state.turn_name):
        return "look"
    return "turn"


def choices(state: State) -> list[Choice]:
    """The legal next recorded events after ``state`` as buttons, in the engine's order."""
    out = []
    for n, a in enumerate(legal_actions(state)):
        label = a.label or a.kind
        if a.needs == ("order",):
            label = "shuffle the pack"
        key = f"{state.seq}-{n}-{a.kind}-{a.player or 'table'}"
        out.append(Choice(key, label[0].upper() + label[1:], _group(state, a), a))
    return out


def complete(
    choice: Choice,
    *,
    cards: Sequence[str] = (),
    hands: dict[str, Sequence[str]] | None = None,
    order: Sequence[str] | None = None,
    by: str | None = None,
) -> RecordedEvent:
    """The event to record for ``choice``, with the input it needs filled in.

    ``cards``: the cards shown (``needs == ("cards",)``); ``hands``: each player's three dealt
    cards (``"hands"``); ``order``: a shuffle's order, top first (``"order"``, optional). The
    engine checks the result when it is appended."""
    e = choice.action.event
    update: dict[str, object] = {}
    if "cards" in choice.needs:
        update["cards"] = tuple(cards)
    if "hands" in choice.needs:
        update["hands"] = {p: tuple(cs) for p, cs in (hands or {}).items()}
    if "order" in choice.needs and order is not None:
        update["order"] = tuple(order)
    if by:
        update["by"] = by
    if not update:
        return e
    # Revalidate so that cards are read in any notation and checked (FORMAT.md "Cards").
    data = e.model_dump(exclude_none=True)
    data.update(update)
    return type(e).model_validate(data)


_E = TypeVar("_E", bound=AnyEvent)


def now_in(zone: str | None, now: datetime | None = None) -> datetime:
    """``now`` (default: the clock now), to the second, in the IANA time zone ``zone`` (the
    organiser's browser's, e.g. ``Europe/London``), else in this machine's own zone when ``zone``
    is missing or unknown. Always with its UTC offset (FORMAT.md ``at``)."""
    when = (now if now is not None else datetime.now(UTC)).replace(microsecond=0)
    if zone:
        try:
            return when.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return when.astimezone()


def stamped(events: Sequence[_E], at: datetime | None = None) -> list[_E]:
    """``events`` with ``at`` (FORMAT.md: when it happened at the table) set to ``at``; by
    default this machine's clock now, to the second, with its UTC offset
    (``2026-11-29T22:31:05+00:00``; the Record page passes the time in the organiser's browser's
    zone). An event that already has a time keeps it. Raises ValueError for a time without an
    offset. Without times, a session recorded live would seem, once exported and imported
    elsewhere, to have started when it was imported."""
    when = at if at is not None else datetime.now().astimezone().replace(microsecond=0)
    if when.tzinfo is None:
        raise ValueError("a recorded time needs its UTC offset (FORMAT.md at)")
    out: list[_E] = []
    for e in events:
        out.append(e if e.at is not None else e.model_copy(update={"at": when}))  # type: ignore[arg-type]
    return out


def random_order(rng: random.Random | None = None) -> tuple[str, ...]:
    """A shuffled pack, top first, for a digital table that records the order."""
    pack = [str(c) for c in FULL_PACK]
    (rng or random.SystemRandom()).shuffle(pack)
    return tuple(pack)


def free_cards(state: State) -> list[str]:
    """Cards the organiser may still pick in this deal: not already shown at this showdown."""
    taken: set[int] = set()
    for p in state.players:
        taken.update(p.shown)
    return [str(c) for c in FULL_PACK if c.code not in taken]


def dealt_cards_needed(state: State) -> list[str]:
    """The players, in dealing order, whose three cards a ``dealt`` with ``hands`` must list."""
    n = len(state.seats)
    if state.first_dealer is None or n == 0:
        return list(state.seats)
    dealer = state.first_dealer if state.deals == 0 else (state.dealer or 0) + 1
    return [state.seats[(dealer + 1 + k) % n] for k in range(n)]


def undo(state: State, by: str | None = None) -> Voided | None:
    """The ``voided`` event that takes back the latest recorded event in force, or ``None`` when
    there is nothing to take back (FORMAT.md: only the latest, and never the session's start)."""
    seq = can_void(state)
    if seq is None:
        return None
    return Voided(seq=seq, by=by) if by else Voided(seq=seq)


def undo_index(states: Sequence[State]) -> int | None:
    """The index, in the recorded stream replayed as ``states``, of the event :func:`undo` would
    withdraw (its seq is its 1-based position), or ``None``."""
    if not states:
        return None
    target = can_void(states[-1])
    if target is None or target > len(states):
        return None
    return target - 1


def parse_seats(text: str) -> tuple[str, ...]:
    """Seat names from what the organiser typed: one per line or separated by commas, in order
    clockwise, blanks dropped. The engine checks 2 to 10 unique names (RULES 1.3)."""
    return tuple(s.strip() for s in re.split(r"[,\n]", text) if s.strip())


def start_events(
    session: str,
    seats: Sequence[str],
    cards: Literal["all", "shown"],
    *,
    table: str | None = None,
    dealer: str | None = None,
    rules: Rules | None = None,
    rng: random.Random | None = None,
    by: str | None = None,
) -> list[RecordedEvent]:
    """``session_started`` and ``dealer_chosen`` for a new session. ``dealer=None`` draws the first
    dealer by lot here (RULES 3.1); otherwise it records the lot drawn at the table."""
    first = dealer if dealer else (rng or random.SystemRandom()).choice(list(seats))
    env = {"by": by} if by else {}
    return [
        SessionStarted(
            session=session,
            table=table or None,
            seats=tuple(seats),
            cards=cards,
            rules=rules,
            **env,
        ),
        DealerChosen(player=first, **env),
    ]


def shuffle_event(with_order: bool, rng: random.Random | None = None) -> Shuffled:
    """A ``shuffled`` event; with the order recorded the engine tracks the pack (RULES 3.3)."""
    return Shuffled(order=random_order(rng)) if with_order else Shuffled()


def check_secret(expected: str | None, given: str | None) -> bool:
    """True when an organiser secret is configured and ``given`` matches it (constant time)."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


def shown_so_far(state: State) -> dict[str, tuple[str, ...]]:
    """At a showdown, each player's cards turned face up so far."""
    return {p.name: card_texts(p.shown) for p in state.players if p.shown}
