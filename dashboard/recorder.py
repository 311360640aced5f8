"""The organiser's recorder, without Streamlit: what may be recorded next, and the events to append.

The Record page shows :func:`choices` as large buttons (each the engine's
:class:`~engine.legal.LegalAction` with its cost in the label), completes a choice that needs input
with :func:`complete` (the cards shown at a real table, the hands of a deal, a shuffle's order) and
takes back the latest recorded action with :func:`undo`, a ``voided`` event (FORMAT.md). The rules
are the engine's: nothing here decides what is legal.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.legal import LegalAction, can_void, legal_actions
from engine.state import Phase, State, card_texts
from events.cards import FULL_PACK
from events.errors import PlainError
from events.model import (
    AnyEvent,
    DealerChosen,
    RecordedEvent,
    Rules,
    SessionStarted,
    Shown,
    Shuffled,
    Voided,
    is_derived,
)
from present.numbers import amount

__all__ = [
    "TOKEN_HOURS",
    "Choice",
    "Key",
    "TokenClaims",
    "check_secret",
    "choices",
    "complete",
    "device_token",
    "free_cards",
    "now_in",
    "pad_rows",
    "parse_seats",
    "redo",
    "stamped",
    "start_events",
    "token_claims",
    "token_valid",
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


# --- the device token -----------------------------------------------------------------------------

TOKEN_HOURS = 12
"""How long an unlocked device stays unlocked (a reload, a restored tab, a page switch)."""


def _token_key(secret: str) -> bytes:
    """The key that signs device tokens, derived from the organiser secret (never the secret
    itself), so that a token tells nothing of the secret and changing the secret revokes every
    device."""
    return hashlib.sha256(b"bragbook device token v2\0" + secret.encode()).digest()


@dataclass(frozen=True, slots=True)
class TokenClaims:
    """What a valid device token says: its ``id`` (what "Lock this device" revokes), the
    ``generation`` of the devices it was issued in (what "Lock every device" moves on) and its
    ``expiry`` in Unix seconds."""

    id: str
    generation: int
    expiry: int


def device_token(
    secret: str,
    now: datetime | None = None,
    hours: float = TOKEN_HOURS,
    *,
    generation: int = 0,
    token_id: str | None = None,
) -> str:
    """A signed, expiring token for a device the organiser unlocked:
    ``"ID.GENERATION.EXPIRY.SIGNATURE"``, a random id (16 hex digits, unless ``token_id``), the
    generation of the devices, the expiry in Unix seconds and an HMAC-SHA256 of the three (hex)
    under a key derived from ``secret``. Kept in the device's cookie; :func:`token_claims`
    checks it (and :func:`dashboard.access.device_unlocked` its revocation)."""
    when = now if now is not None else datetime.now(UTC)
    expiry = int(when.timestamp() + hours * 3600)
    tid = token_id if token_id is not None else secrets.token_hex(8)
    body = f"{tid}.{int(generation)}.{expiry}"
    sig = hmac.new(_token_key(secret), body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{sig}"


def token_claims(
    secret: str | None, token: str | None, now: datetime | None = None
) -> TokenClaims | None:
    """What ``token`` says when it was signed under ``secret`` (constant-time check) and has not
    expired at ``now``; ``None`` for no secret, no token, a malformed, forged or expired one."""
    if not secret or not token or token.count(".") != 3:
        return None
    tid, generation, expiry, sig = token.split(".")
    if not (re.fullmatch(r"[0-9a-f]{1,64}", tid) and generation.isdigit() and expiry.isdigit()):
        return None
    body = f"{tid}.{generation}.{expiry}"
    good = hmac.new(_token_key(secret), body.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(good.encode(), sig.encode()):
        return None
    when = now if now is not None else datetime.now(UTC)
    if when.timestamp() >= int(expiry):
        return None
    return TokenClaims(tid, int(generation), int(expiry))


def token_valid(secret: str | None, token: str | None, now: datetime | None = None) -> bool:
    """True when ``token`` was signed under ``secret`` and has not expired at ``now``
    (:func:`token_claims`); revocation is :func:`dashboard.access.device_unlocked`'s."""
    return token_claims(secret, token, now) is not None


# --- redo -----------------------------------------------------------------------------------------


def redo(events: Sequence[AnyEvent], by: str | None = None) -> RecordedEvent | None:
    """After an undo, the withdrawn event to record again: when the stream (as recorded, with
    seqs) ends with a ``voided``, a copy of the recorded event it withdrew without its envelope
    (a new event with a new id; the log keeps both, FORMAT.md), ``by`` whoever records it now.
    ``None`` when the last event is not a ``voided``. The store checks it like any append."""
    if not events or not isinstance(events[-1], Voided):
        return None
    target = events[-1].seq
    old = next((e for e in events if e.seq == target and not isinstance(e, Voided)), None)
    if old is None or is_derived(old):
        return None
    data = old.model_dump(exclude_none=True, exclude={"id", "seq", "at", "by"})
    if by:
        data["by"] = by
    return type(old).model_validate(data)  # type: ignore[return-value]


# --- the pad --------------------------------------------------------------------------------------

Tone = Literal["fold", "bet", "see", "look", "table", "show", "plain", "empty", "undo"]


@dataclass(frozen=True, slots=True)
class Key:
    """One key of the pad at its ``spot``, a place that is the same for the whole session
    (:func:`pad_grid`): ``label`` and ``sub`` (what it costs) are what the key says, ``title`` the
    engine's full sentence, ``tone`` its colour; ``choice`` is the legal action it records."""

    spot: str
    label: str
    sub: str
    tone: Tone
    title: str
    choice: Choice | None = None


BET_ROW = 6
"""Bet keys in one row of the pad."""


def bet_slots(rules: Rules) -> int:
    """How many bet places the pad keeps for a session played under ``rules`` (RULES 5.5): the
    opening bets ``open_min..open_max`` or, later, the level as it stands and each raise up to
    ``raise_max``; at most four rows of :data:`BET_ROW`."""
    return min(max(rules.open_max - rules.open_min + 1, rules.raise_max + 1), 4 * BET_ROW)


def pad_grid(seats: int, rules: Rules, cards: str) -> list[list[str]]:
    """The pad's places, row by row, for a session of ``seats`` players under ``rules`` with
    ``cards`` recorded: the same for the whole session, whatever the state, so that a key never
    moves under the thumb. Each place holds its key when that action is legal, else an empty slot.

    - ``look`` | ``see`` | ``fold``: the player to act (RULES 5.1, 5.7, 5.6);
    - ``bet-0`` ...: slot ``k`` is the opening bet ``open_min + k``, later the level as it stands
      plus ``k`` (``bet-0`` keeps the level, ``bet-1`` raises by one: RULES 5.5);
    - ``peek-0`` ...: seat ``k``'s look out of turn (RULES 5.1; a holder of two hands: at the old
      hand), five a row; before the first deal the seat chosen to deal first (RULES 3.1);
    - ``hand-a`` | ``hand-b`` | ``concede``: a holder of two hands keeps or throws the hand
      looked at, or looks at the new hand (``hand-b``; at a showdown the old one is ``hand-a``:
      RULES 6.4-6.6), the blind survivor retains (RULES 6.2), the payer concedes (RULES 5.8);
    - ``shuffle`` | ``deal`` | ``order``: between deals (RULES 3.2-3.3; ``order`` shuffles here
      and records the order, at a table recording every card);
    - ``show`` | ``show-1`` | ``show-2``: the showdown (RULES 5.8), a card each when both are blind;
    - ``undo`` | ``redo``.
    """
    bets = [f"bet-{k}" for k in range(bet_slots(rules))]
    peeks = [f"peek-{k}" for k in range(seats)]
    rows = [["look", "see", "fold"]]
    rows += [bets[k : k + BET_ROW] for k in range(0, len(bets), BET_ROW)]
    per = 5 if seats > 5 else max(seats, 1)
    rows += [peeks[k : k + per] for k in range(0, len(peeks), per)]
    rows.append(["hand-a", "hand-b", "concede"])
    rows.append(["shuffle", "deal", "order"] if cards == "all" else ["shuffle", "deal"])
    rows.append(["show", "show-1", "show-2"])
    rows.append(["undo", "redo"])
    return rows


def _cost(c: Choice) -> str:
    return "free" if c.action.cost == 0 else f"pays {amount(c.action.cost)}"


def pad_keys(state: State) -> dict[str, Key]:
    """The legal next recorded events after ``state`` at their places of :func:`pad_grid`, each
    legal choice exactly once (Undo and Redo are the page's, not the engine's). A place with no
    legal action is not in the mapping (an empty slot). The rules are the engine's
    (:func:`engine.legal.legal_actions`); this only says where each key stands and what it says."""
    cs = choices(state)
    keys: dict[str, Key] = {}
    spare = ["hand-a", "hand-b", "concede"]

    def put(spot: str, label: str, sub: str, tone: Tone, c: Choice) -> None:
        if spot in keys:  # never lose a legal action: the next spare place of the hands row
            spot = next((s for s in spare if s not in keys), "")
            if not spot:
                return
        keys[spot] = Key(spot, label, sub, tone, c.label, c)

    turn = state.turn_name
    base = state.rules.open_min if state.level is None else (state.level or 0)
    shows = 0
    for c in cs:
        a, p = c.action, c.action.player
        kind = a.kind
        seat = state.seat(p) if p is not None and p in state.seats else -1
        two = 0 <= seat < len(state.players) and state.players[seat].two_hands
        if kind == "dealer_chosen":
            put(f"peek-{seat}", p or "", "deals first", "table", c)
        elif kind == "shuffled":
            put("shuffle", "Shuffle", "the pack", "table", c)
            if state.cards_mode == "all":
                keys["order"] = Key("order", "Shuffle here", "and record the order", "table", "", c)
        elif kind == "dealt":
            survivor = state.players[state.survivor].name if state.survivor is not None else None
            if survivor is not None:
                put("deal", f"{survivor} gives it up", "deal", "table", c)
            else:
                put("deal", "Deal", "", "table", c)
        elif kind == "retained":
            hand = getattr(a.event, "hand", None)
            label = f"{p} retains the {hand} hand" if hand else f"{p} retains the hand"
            put("hand-b" if hand == "new" else "hand-a", label, "RULES 6.2", "plain", c)
        elif kind in ("kept", "thrown"):
            verb = "keeps" if kind == "kept" else "throws"
            label = f"{p} {verb} the {state.players[seat].looking} hand"
            put("hand-a" if kind == "kept" else "hand-b", label, "free", "plain", c)
        elif kind == "conceded":
            put("concede", f"{p} concedes", "free", "fold", c)
        elif kind == "shown":
            spot = "show" if shows == 0 else f"show-{shows}"
            shows += 1
            put(spot, c.label, "", "show", c)
        elif kind == "looked":
            hand = getattr(a.event, "hand", None)
            if state.phase is Phase.SHOWDOWN:  # RULES 6.6: a holder of two reduces them first
                spot = "hand-b" if hand == "new" else "hand-a"
                put(spot, f"{p} looks at the {hand} hand", "free", "look", c)
            elif hand == "new":  # a holder of two: the new hand's look has a place of its own
                put("hand-b", f"{p} looks at the new hand", "free", "look", c)
            elif p == turn:
                put("look", "Look at the old hand" if two else "Look", "free", "look", c)
            elif hand is not None:
                put(f"peek-{seat}", f"{p} looks at the old hand", "free", "look", c)
            else:
                put(f"peek-{seat}", p or "", "looks", "look", c)
        elif kind == "saw":
            put("see", "See", _cost(c), "see", c)
        elif kind == "folded":
            put("fold", "Fold", "free", "fold", c)
        elif kind == "bet":
            level = int(getattr(a.event, "level", 0))
            word = "Raise to" if state.level is not None and level > state.level else "Bet"
            put(f"bet-{level - base}", f"{word} {level}", _cost(c), "bet", c)
        else:  # an action the pad has no place for yet: a spare place, never dropped
            put("hand-a", c.label, _cost(c), "plain", c)
    return keys


def pad_rows(state: State) -> list[list[Key]]:
    """The keys of :func:`pad_keys` in the rows of :func:`pad_grid` (Undo and Redo left out): a
    place with no legal action is an empty key (``tone="empty"``, ``choice=None``)."""
    keys = pad_keys(state)
    grid = pad_grid(len(state.seats), state.rules, state.cards_mode or "shown")
    empty: Tone = "empty"
    return [
        [keys.get(spot) or Key(spot, "", "", empty, "") for spot in row]
        for row in grid
        if row != ["undo", "redo"]
    ]


class TapRefused(PlainError, ValueError):
    """A tap that does not name a key of the pad as it now stands (a stale or unknown spot)."""

    rule_name = "TAP"


def tapped_event(
    state: State,
    spot: str,
    *,
    cards: Sequence[str] = (),
    by: str | None = None,
    rng: random.Random | None = None,
) -> RecordedEvent:
    """The event a tap on ``spot`` of :func:`pad_rows` records after ``state``: the key's choice
    completed with the ``cards`` picked (a showdown at a ``shown`` table) or, for ``table-2``, a
    shuffled order. Raises :class:`TapRefused` for a spot with no legal key, and what
    :func:`complete` raises for bad cards; the store checks the rules when it is appended."""
    key = pad_keys(state).get(spot)
    if key is None or key.choice is None:
        raise TapRefused(f"nothing to record at {spot!r} now")
    c = key.choice
    if c.needs == ("cards",):
        return complete(c, cards=cards, by=by)
    if c.needs == ("order",):
        return complete(c, order=random_order(rng) if spot == "order" else None, by=by)
    return complete(c, by=by)
