"""Annotations of a session, kept in the store beside (never in) its stream: notes on a step,
the organiser's hiding of a note, and a player's own remembered cards for a deal.

The game log, ``brag export``, the catalogue, the statistics and the Parquet lake read the events
only: an annotation changes none of them. The rows are append-only (:mod:`store.annotations`):
hiding a note is a later row naming it, never an update or a delete; cards entered again for the
same deal are a later row, and the latest one is in force.

- A note (:class:`Note`) names its deal and step as every replay numbers them (``brag replay``,
  the Replay page: the stream without its corrections, :mod:`log.steps`), and must name a step
  that exists; at most :data:`NOTE_MAX_CHARS` characters, at most :data:`NOTES_MAX` notes a
  session. Its text is data: shown as text, never markup (:func:`events.text.inert`).
- A player's cards (:class:`PrivateCards`): one hand per (session, deal, player) in a session whose
  log records only the cards shown (``cards: "shown"``, FORMAT.md), three distinct cards
  (FORMAT.md notation), none shown in that deal by another player, and every card the player
  showed among them (RULES 3.5, 5.8). They are that player's alone: never in an export, the
  statistics or another player's view (the pages that read them show them to that player only).

Refusals are one line: :class:`AnnotationRefused`, :class:`~events.errors.UnknownSession`, a
:class:`~events.errors.CardError`; a store older than version 4 opened read-only shows no notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from engine.fold import replay
from engine.state import State, card_texts
from events.cards import canonical
from events.errors import PlainError, UnknownSession
from events.text import inert, same_name
from log.service import EventStore
from log.steps import DealSlice, corrected, deal_slices
from store.annotations import Annotation, AnnotationRow
from store.records import utc_now

__all__ = [
    "BY_MAX_CHARS",
    "CARDS_MAX",
    "NOTES_MAX",
    "NOTE_MAX_CHARS",
    "AnnotationRefused",
    "Note",
    "PrivateCards",
    "add_note",
    "hide_note",
    "notes",
    "private_cards",
    "set_private_cards",
]

NOTE_MAX_CHARS: Final = 500
"""The longest note, in characters (after its surrounding spaces are taken off)."""
NOTES_MAX: Final = 500
"""The most notes a session keeps (hidden ones count: they are kept)."""
BY_MAX_CHARS: Final = 60
"""The longest name of a note's writer."""
CARDS_MAX: Final = 2000
"""The most entries of remembered cards a session keeps (all players, all deals, re-entries)."""


class AnnotationRefused(PlainError, ValueError):
    """A note, a hiding or a player's cards the store will not keep, said in one line (what and
    why); nothing was stored."""

    rule_name = "NOTE"


@dataclass(frozen=True, slots=True)
class Note:
    """A note on step ``step`` of deal ``deal`` of ``session``, written by ``by`` at ``at`` (UTC).

    ``id`` is the store's number of the note (global, never reused); ``hidden``: the organiser hid
    it (the hiding is recorded beside it; the note is kept)."""

    id: int
    session: str
    deal: int
    step: int
    by: str
    text: str
    at: datetime
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class PrivateCards:
    """The three cards ``player`` remembers holding in deal ``deal`` of ``session`` (canonical
    FORMAT.md cards, as entered), entered at ``at`` (UTC)."""

    session: str
    deal: int
    player: str
    cards: tuple[str, ...]
    at: datetime


# --- the session's stream as the replays number it --------------------------------------------


def _stream(store: EventStore, session: str) -> tuple[list[State], list[DealSlice]]:
    """The states of the session's corrected stream and its deals; an unknown session:
    :class:`UnknownSession`."""
    events = store.events(session)
    if not events:
        raise UnknownSession(session)
    states = replay(corrected(events))
    return states, deal_slices(states)


def _deal(slices: Sequence[DealSlice], session: str, deal: int, *, real: bool) -> DealSlice:
    found = next((s for s in slices if s.deal == deal), None)
    if found is None or (real and deal < 1):
        last = slices[-1].deal if slices else 0
        have = f"its deals are 1 to {last}" if last >= 1 else "it has no deal yet"
        raise AnnotationRefused(f"session {session!r} has no deal {deal} ({have})")
    return found


def _clean(text: str, what: str, most: int) -> str:
    """``text`` without its surrounding spaces; refused when empty, too long, or holding what no
    store keeps (NUL, lone surrogates)."""
    t = text.strip()
    if not t:
        raise AnnotationRefused(f"the {what} is empty")
    if len(t) > most:
        raise AnnotationRefused(f"the {what} is {len(t)} characters; at most {most} are kept")
    if "\x00" in t or any("\ud800" <= ch <= "\udfff" for ch in t):
        raise AnnotationRefused(f"the {what} holds a character no store keeps (NUL or a lone "
                                "surrogate)")  # fmt: skip
    return t


def _append(store: EventStore, row: AnnotationRow, most: int, what: str) -> Annotation:
    """Stores ``row`` unless its session holds ``most`` annotations of its kind already (counted
    inside the store's write transaction: two writers never both take the last place)."""
    with store.recorder.transaction() as tx:
        kept = sum(1 for a in tx.annotations(row.session) if a.kind == row.kind)
        if kept >= most:
            raise AnnotationRefused(
                f"session {row.session!r} has {kept} {what}, the most a session keeps; "
                "nothing was stored"
            )
        return tx.annotate(row, utc_now())


# --- notes ------------------------------------------------------------------------------------


def _note(a: Annotation, hidden: set[int]) -> Note:
    return Note(
        a.position, a.session, a.deal or 0, a.step or 0, a.who, a.body, a.at, a.position in hidden
    )


def add_note(store: EventStore, session: str, deal: int, step: int, text: str, by: str) -> Note:
    """Keeps ``text`` (at most :data:`NOTE_MAX_CHARS` characters) as ``by``'s note on step
    ``step`` of deal ``deal`` (numbered as ``brag replay`` numbers them; deal 0 is what comes
    before the first deal). Returns the stored note. Refused in one line, nothing stored
    (:class:`AnnotationRefused`): an empty or too long text or name, a deal or step the session
    does not have, a session holding :data:`NOTES_MAX` notes already; an unknown session:
    :class:`UnknownSession`; a store opened for reading: :class:`~events.errors.StoreError`."""
    body = _clean(text, "note", NOTE_MAX_CHARS)
    who = _clean(by, "writer's name", BY_MAX_CHARS)
    _, slices = _stream(store, session)
    sl = _deal(slices, session, deal, real=False)
    if not 1 <= step <= sl.steps:
        raise AnnotationRefused(
            f"deal {deal} of session {session!r} has no step {step} (its steps are 1 to {sl.steps})"
        )
    row = AnnotationRow(session, "note", who, body, deal=deal, step=step)
    return _note(_append(store, row, NOTES_MAX, "notes"), set())


def notes(store: EventStore, session: str, *, include_hidden: bool = False) -> list[Note]:
    """The session's notes by deal, step and the order written (the hidden ones only with
    ``include_hidden``, marked ``hidden``); none for an unknown session or an older store."""
    rows = store.recorder.annotations(session)
    hidden = {a.target for a in rows if a.kind == "hide" and a.target is not None}
    out = [_note(a, hidden) for a in rows if a.kind == "note"]
    out.sort(key=lambda n: (n.deal, n.step, n.id))
    return out if include_hidden else [n for n in out if not n.hidden]


def hide_note(store: EventStore, note_id: int, by: str) -> None:
    """Records that ``by`` (the organiser) hid note ``note_id``: the note is kept, and
    :func:`notes` leaves it out. Hiding a hidden note again records nothing. No such note:
    :class:`AnnotationRefused`."""
    who = _clean(by, "name of who hides it", BY_MAX_CHARS)
    with store.recorder.transaction() as tx:
        target = tx.annotation(note_id)
        if target is None or target.kind != "note":
            raise AnnotationRefused(f"there is no note {note_id}")
        rows = tx.annotations(target.session)
        if any(a.kind == "hide" and a.target == note_id for a in rows):
            return
        tx.annotate(AnnotationRow(target.session, "hide", who, target=note_id), utc_now())


# --- a player's own remembered cards ----------------------------------------------------------


def _seat(state: State, session: str, player: str) -> str:
    seat = next((s for s in state.seats if same_name(s, player)), None)
    if seat is None:
        raise AnnotationRefused(
            f"{inert(player)!r} has no seat in session {session!r} (seats: "
            f"{', '.join(inert(s) for s in state.seats)})"
        )
    return seat


def _checked_cards(
    states: Sequence[State], sl: DealSlice, seat: str, cards: Sequence[str]
) -> tuple[str, ...]:
    """The three cards in canonical form, checked against the cards the deal showed."""
    got = tuple(canonical(c) for c in cards)
    if len(got) != 3 or len(set(got)) != 3:
        raise AnnotationRefused(
            f"a hand is 3 different cards; {len(got)} given ({' '.join(got) or 'none'})"
        )
    shown: dict[str, set[str]] = {}
    for state in states[sl.start : sl.stop]:
        for p in state.players:
            shown.setdefault(p.name, set()).update(card_texts(p.shown))
    for name, theirs in shown.items():
        clash = sorted(theirs & set(got)) if name != seat else []
        if clash:
            raise AnnotationRefused(
                f"{' '.join(clash)} was shown by {inert(name)} in deal {sl.deal}, so {inert(seat)} "
                "cannot have held it"
            )
    missing = sorted(shown.get(seat, set()) - set(got))
    if missing:
        raise AnnotationRefused(
            f"{inert(seat)} showed {' '.join(missing)} in deal {sl.deal}: the hand must hold it"
        )
    return got


def set_private_cards(
    store: EventStore, session: str, deal: int, player: str, cards: Sequence[str]
) -> PrivateCards:
    """Keeps the three cards ``player`` remembers holding in deal ``deal`` (a deal of a session
    recording only the cards shown, FORMAT.md ``cards: "shown"``); an entry for the same deal
    replaces the earlier one (both are kept; the latest is in force). Returns it. Refused in one
    line, nothing stored: not 3 distinct cards (:class:`~events.errors.CardError` for one that is
    no card), a card another player showed in that deal, a card the player showed left out,
    a player without a seat, no such deal, a session recording every card, a session holding
    :data:`CARDS_MAX` entries (:class:`AnnotationRefused`); an unknown session:
    :class:`UnknownSession`."""
    states, slices = _stream(store, session)
    final = states[-1]
    if final.cards_mode != "shown":
        raise AnnotationRefused(
            f"session {session!r} records every player's cards (cards: {final.cards_mode}): "
            "there is nothing to remember"
        )
    seat = _seat(final, session, player)
    sl = _deal(slices, session, deal, real=True)
    got = _checked_cards(states, sl, seat, cards)
    row = AnnotationRow(session, "cards", seat, " ".join(got), deal=deal)
    a = _append(store, row, CARDS_MAX, "entries of cards")
    return PrivateCards(session, deal, seat, got, a.at)


def private_cards(store: EventStore, session: str, player: str) -> dict[int, PrivateCards]:
    """The cards ``player`` entered for each deal of ``session`` (deal -> the latest entry);
    empty when none (or in an older store). For that player's own view only."""
    out: dict[int, PrivateCards] = {}
    for a in store.recorder.annotations(session):
        if a.kind == "cards" and a.deal is not None and same_name(a.who, player):
            out[a.deal] = PrivateCards(session, a.deal, a.who, tuple(a.body.split()), a.at)
    return out
