"""Annotations of a session, kept in the store beside (never in) its stream: notes on a step,
the organiser's hiding of a note, and a player's own remembered cards for a deal.

The game log, ``brag export``, the catalogue, the statistics and the Parquet lake read the events
only: an annotation changes none of them. The rows are append-only (:mod:`store.annotations`):
hiding a note is a later row naming it, never an update or a delete; cards entered again for the
same deal are a later row, and the latest one is in force.

A note and a player's cards point at an event, not a number (issue 32, :mod:`log.anchors`): added
by the step a replay shows (``brag notes add --deal D --step K``, the Replay page), a note keeps
the id of that step's event, and is read at the place that event has now: an Undo, a new tap or a
correction elsewhere never moves it to another action; a note whose action was withdrawn stays
listed, said to be on a withdrawn step. Every function takes the session's replay
(:class:`log.anchors.Numbered`, :class:`present.replay.Replay` built as recorded, so withdrawn
events are in it) and never numbers the steps itself.

- A note (:class:`Note`): at most :data:`NOTE_MAX_CHARS` characters, at most :data:`NOTES_MAX`
  notes shown in a session (hidden ones do not count: the organiser hiding a flood frees the
  places). Its text is data: shown as text, never markup (:func:`events.text.inert`). How often
  one client or one name may add a note is the dashboard's route's say
  (:mod:`dashboard.replay.notes_limits`); the organiser's terminal is not limited.
- A player's cards (:class:`PrivateCards`): one hand per (session, deal, player) in a session whose
  log records only the cards shown (``cards: "shown"``, FORMAT.md), three distinct cards
  (FORMAT.md notation), none shown in that deal by another player, and every card the player
  showed among them (RULES 3.5, 5.8). They are that player's alone: never in an export, the
  statistics or another player's view (the pages that read them show them to that player only).
  Cards on a deal whose ``dealt`` was withdrawn are no longer any deal's.
- :func:`touched`: the notes and cards on the events a correction withdraws or replaces, for its
  preview.

Refusals are one line: :class:`AnnotationRefused`, :class:`~events.errors.CardError`; a store
older than version 4 opened read-only shows no notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal
from uuid import UUID

from engine.state import State, card_texts
from events.cards import canonical, faces
from events.text import inert, same_name
from log.anchors import (
    AnnotationRefused,
    At,
    Numbered,
    anchored,
    deal_states,
    dealt_at,
    event_at,
    latest,
    redone,
    step_of,
    steps_of,
)
from log.service import EventStore
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
    "Touched",
    "add_note",
    "event_at",
    "hide_note",
    "notes",
    "private_cards",
    "set_private_cards",
    "step_of",
    "touched",
]

NOTE_MAX_CHARS: Final = 500
"""The longest note, in characters (after its surrounding spaces are taken off)."""
NOTES_MAX: Final = 500
"""The most notes a session shows: hidden notes are kept but do not count (issue 33: a flood the
organiser hid no longer keeps everyone from adding a note)."""
BY_MAX_CHARS: Final = 60
"""The longest name of a note's writer."""
CARDS_MAX: Final = 2000
"""The most entries of remembered cards a session keeps (all players, all deals, re-entries)."""


@dataclass(frozen=True, slots=True)
class Note:
    """A note by ``by`` at ``at`` (UTC) on the event ``event`` of ``session``, shown at step
    ``step`` of deal ``deal`` (where that event stands now, :func:`log.anchors.step_of`).

    ``id`` is the store's number of the note (global, never reused: what a link or a hiding
    names); ``number`` its number in its session, 1, 2, 3... in the order written, hidden notes
    counted (what people are shown: ``#1``, never changing); ``hidden``: the organiser hid it
    (the hiding is recorded beside it; the note is kept); ``withdrawn``: its action was taken
    back (an Undo, a correction), ``action`` that step's sentence: the note stays there, said to
    be on a withdrawn step, and never moves to another action."""

    id: int
    session: str
    deal: int
    step: int | str
    by: str
    text: str
    at: datetime
    hidden: bool = False
    event: str | None = None
    withdrawn: bool = False
    action: str = ""
    number: int = 0

    @property
    def where(self) -> str:
        """``deal 1, step 5 (B bets level 2)``, or ``deal 1, step 5, on a withdrawn step: B bets
        level 2``: the place as ``brag replay`` numbers it, and the action's words."""
        head = f"deal {self.deal}, step {self.step}"
        if self.withdrawn:
            return head + (f", on a withdrawn step: {self.action}" if self.action else
                           ", on a withdrawn step")  # fmt: skip
        return head + (f" ({self.action})" if self.action else "")


@dataclass(frozen=True, slots=True)
class PrivateCards:
    """The three cards ``player`` remembers holding in deal ``deal`` of ``session`` (canonical
    FORMAT.md cards, as entered), entered at ``at`` (UTC); ``event``: the id of that deal's
    ``dealt`` event, which they stay on."""

    session: str
    deal: int
    player: str
    cards: tuple[str, ...]
    at: datetime
    event: str | None = None


@dataclass(frozen=True, slots=True)
class Touched:
    """A note (``kind`` ``"note"``, ``text`` its text) or a player's cards (``"cards"``, ``text``
    the three cards) on the event ``event`` a correction withdraws or replaces: ``id`` the
    annotation's number, ``by`` its writer (the player, for cards), ``deal`` and ``step`` the
    numbers it was written under."""

    kind: Literal["note", "cards"]
    id: int
    event: str
    by: str
    text: str
    deal: int | None
    step: int | None


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


def _hidden(rows: Iterable[Annotation]) -> set[int]:
    return {a.target for a in rows if a.kind == "hide" and a.target is not None}


def _counted(rows: list[Annotation], kind: str) -> int:
    """The annotations of ``kind`` that count toward the session's limit: hidden notes do not."""
    hidden = _hidden(rows) if kind == "note" else set()
    return sum(1 for a in rows if a.kind == kind and a.position not in hidden)


def _append(store: EventStore, row: AnnotationRow, most: int, what: str) -> tuple[Annotation, int]:
    """Stores ``row`` unless its session holds ``most`` annotations of its kind already (counted
    inside the store's write transaction: two writers never both take the last place). Returns
    the stored row and its number among its session's rows of its kind (hidden notes counted)."""
    with store.recorder.transaction() as tx:
        rows = tx.annotations(row.session)
        kept = _counted(rows, row.kind)
        if kept >= most:
            raise AnnotationRefused(
                f"session {row.session!r} has {kept} {what}, the most a session keeps; "
                "nothing was stored"
            )
        return tx.annotate(row, utc_now()), sum(1 for a in rows if a.kind == row.kind) + 1


def _numbers(rows: Iterable[Annotation]) -> dict[int, int]:
    """Each note's number in its session (by its id): 1, 2, 3... in the order written, hidden
    notes counted, so that a number never changes."""
    written = sorted(a.position for a in rows if a.kind == "note")
    return {position: k for k, position in enumerate(written, 1)}


# --- notes ------------------------------------------------------------------------------------


def _note(a: Annotation, hidden: set[int], event: str | None, at: At | None, number: int) -> Note:
    step: int | str
    if at is None:  # its event is not in the replay: withdrawn, shown where it was written
        deal, step, withdrawn, action = a.deal or 0, a.step or 0, True, ""
    else:
        deal, step, withdrawn, action = at.deal, at.step, at.withdrawn, at.text
    return Note(
        a.position, a.session, deal, step, a.who, a.body, a.at, a.position in hidden, event,
        withdrawn, action, number,
    )  # fmt: skip


def add_note(
    store: EventStore, rp: Numbered, deal: int, step: int | str, text: str, by: str
) -> Note:
    """Keeps ``text`` (at most :data:`NOTE_MAX_CHARS` characters) as ``by``'s note on the event
    ``rp`` shows at step ``step`` of deal ``deal`` (as ``brag replay`` numbers them; deal 0 is
    what comes before the first deal): the note points at that event (:func:`event_at`). Returns
    the stored note. Refused in one line, nothing stored (:class:`AnnotationRefused`): an empty or
    too long text or name, a deal or step the session does not have, a session showing
    :data:`NOTES_MAX` notes already; a store opened for reading:
    :class:`~events.errors.StoreError`."""
    body = _clean(text, "note", NOTE_MAX_CHARS)
    who = _clean(by, "writer's name", BY_MAX_CHARS)
    event = event_at(rp, deal, step)
    at = step_of(rp, event)
    row = AnnotationRow(rp.session, "note", who, body, deal=deal, step=_number(at), event=event)
    stored, number = _append(store, row, NOTES_MAX, "notes")
    return _note(stored, set(), event, at, number)


def _number(at: At | None) -> int | None:
    """The step number kept beside the event (history): an ``int`` when it is one."""
    step = at.step if at is not None else None
    return step if isinstance(step, int) else None


def notes(store: EventStore, rp: Numbered, *, include_hidden: bool = False) -> list[Note]:
    """The notes of ``rp``'s session, each where its event stands now in ``rp`` (a withdrawn one
    where it was, marked), by deal, place in the stream and the order written (the hidden ones
    only with ``include_hidden``, marked ``hidden``); none in an older store without notes."""
    rows = store.recorder.annotations(rp.session) if rp.session else []
    hidden = _hidden(rows)
    events = anchored(rp, rows)
    places = steps_of(rp, (events[a.position] for a in rows if a.kind == "note"))
    numbers = _numbers(rows)
    out = []
    for a in rows:
        if a.kind == "note":
            at = places.get(events[a.position] or "")
            key = (at.deal, at.index) if at is not None else (a.deal or 0, len(rp.events))
            note = _note(a, hidden, events[a.position], at, numbers[a.position])
            out.append((key, a.position, note))
    got = [n for _, _, n in sorted(out, key=lambda x: (x[0], x[1]))]
    return got if include_hidden else [n for n in got if not n.hidden]


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


def touched(store: EventStore, session: str, event_ids: Iterable[str]) -> list[Touched]:
    """The notes (not hidden) and the players' cards in force (each player's latest entry for a
    deal) on the events ``event_ids`` (ids as text): what a correction that withdraws or replaces
    those events touches, for its preview, in the order written. An annotation on an event
    recorded again by a Redo is on that Redo (:func:`log.anchors.redone`). Rows of an older store
    not migrated name no event and are not listed."""
    ids = {str(i) for i in event_ids}
    rows = store.recorder.annotations(session)
    if not ids or not rows:
        return []
    now = _followed(rows, redone(store.events(session)))
    hidden = _hidden(rows)
    held = [a for a in rows if a.kind == "cards" and a.position in now]
    cards = {(a.who.casefold(), now[a.position]): a for a in held}  # the latest entry in force
    out = []
    for a in rows:
        on = now.get(a.position)
        if on is None or on not in ids:
            continue
        shown = (
            a.position not in hidden if a.kind == "note" else cards.get((a.who.casefold(), on)) is a
        )
        if shown:
            kind: Literal["note", "cards"] = "note" if a.kind == "note" else "cards"
            out.append(Touched(kind, a.position, on, a.who, a.body, a.deal, a.step))
    return out


def _followed(rows: Iterable[Annotation], again: dict[UUID, UUID]) -> dict[int, str]:
    """Each row's event (by its position) followed through its Redos (:func:`latest`); rows
    naming no event (a hide, an older store's row) left out."""
    now: dict[int, str] = {}
    for a in rows:
        with suppress(ValueError, TypeError):
            now[a.position] = str(latest(UUID(a.event), again))  # None: TypeError
    return now


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
    states: Sequence[State], deal: int, seat: str, cards: Sequence[str]
) -> tuple[str, ...]:
    """The three cards in canonical form, checked against the cards the deal showed."""
    got = tuple(canonical(c) for c in cards)
    if len(got) != 3 or len(set(got)) != 3:
        raise AnnotationRefused(
            f"a hand is 3 different cards; {len(got)} given ({faces(got) or 'none'})"
        )
    shown: dict[str, set[str]] = {}
    for state in states:
        for p in state.players:
            shown.setdefault(p.name, set()).update(card_texts(p.shown))
    for name, theirs in shown.items():
        clash = sorted(theirs & set(got)) if name != seat else []
        if clash:
            raise AnnotationRefused(
                f"{faces(clash)} was shown by {inert(name)} in deal {deal}, so {inert(seat)} "
                "cannot have held it"
            )
    missing = sorted(shown.get(seat, set()) - set(got))
    if missing:
        raise AnnotationRefused(
            f"{inert(seat)} showed {faces(missing)} in deal {deal}: the hand must hold it"
        )
    return got


def _looked(states: Sequence[State], deal: int, seat: str) -> None:
    """Refuses (:class:`AnnotationRefused`, RULES 5.1) the cards of a player who folded in deal
    ``deal`` (``states``: the deal's) without ever looking at their hand or showing a card of
    it: they played blind to their fold, so they have no cards to remember. (A player still
    blind in a deal in play may yet look: not refused.)"""
    mine = [p for state in states for p in state.players if p.name == seat]
    if any(p.seen or p.shown for p in mine) or not any(p.folded for p in mine):
        return
    raise AnnotationRefused(
        f"RULES 5.1: {inert(seat)} folded blind in deal {deal}, never having looked at their "
        "cards, so there are no cards to remember"
    )


def set_private_cards(
    store: EventStore, rp: Numbered, deal: int, player: str, cards: Sequence[str]
) -> PrivateCards:
    """Keeps the three cards ``player`` remembers holding in deal ``deal`` of ``rp``'s session (a
    session recording only the cards shown, FORMAT.md ``cards: "shown"``), on that deal's
    ``dealt`` event (:func:`log.anchors.dealt_at`); an entry for the same deal replaces the
    earlier one (both are kept; the latest is in force). Returns it. Refused in one line, nothing
    stored: not 3 distinct cards (:class:`~events.errors.CardError` for one that is no card), a
    card another player showed in that deal, a card the player showed left out, a player who
    never looked at their cards in that deal nor showed one (RULES 5.1: folded blind), a player
    without a seat, no such deal, a session recording every card, a session holding
    :data:`CARDS_MAX` entries (:class:`AnnotationRefused`)."""
    final = rp.states[-1]
    session = rp.session
    if final.cards_mode != "shown":
        raise AnnotationRefused(
            f"session {session!r} records every player's cards (cards: {final.cards_mode}): "
            "there is nothing to remember"
        )
    seat = _seat(final, session, player)
    event = dealt_at(rp, deal)
    states = deal_states(rp, deal)
    _looked(states, deal, seat)
    got = _checked_cards(states, deal, seat, cards)
    row = AnnotationRow(session, "cards", seat, " ".join(got), deal=deal, event=event)
    a, _ = _append(store, row, CARDS_MAX, "entries of cards")
    return PrivateCards(session, deal, seat, got, a.at, event)


def private_cards(store: EventStore, rp: Numbered, player: str) -> dict[int, PrivateCards]:
    """The cards ``player`` entered for each deal of ``rp``'s session (deal -> the latest entry),
    each on the deal its ``dealt`` event has now; entries on a withdrawn ``dealt`` (the deal was
    taken back) are no deal's and left out. Empty when none (or in an older store). For that
    player's own view only."""
    rows = store.recorder.annotations(rp.session) if rp.session else []
    rows = [a for a in rows if a.kind == "cards" and same_name(a.who, player)]
    events = anchored(rp, rows)
    places = steps_of(rp, events.values())
    out: dict[int, PrivateCards] = {}
    for a in rows:
        at = places.get(events[a.position] or "")
        if at is not None and not at.withdrawn:
            cards = tuple(a.body.split())
            out[at.deal] = PrivateCards(a.session, at.deal, a.who, cards, a.at, events[a.position])
    return out
