"""Notes on the steps of a session (issue 21, item 2; issue 32): anyone adds one
(:class:`AddNote`, :func:`add_note`), the organiser hides one (:class:`HideNote`,
:func:`hide_note`); each answered by a :class:`NoteResult`.

A note points at the event the session's replay as recorded shows at that step
(:func:`log.annotations.add_note`: at most 500 characters, 500 shown a session, on a step that
exists); hiding one is recorded beside it, the note kept (:func:`log.annotations.hide_note`). The
replay is the caller's (``replay``: the session as recorded, withdrawn steps in it, ``None`` when
the store has none; the Replay page passes its cached one). The outcomes (:data:`Outcome`):
``stored`` (with the deal and step whose notes to show), ``refused`` (one line, nothing stored),
``missing`` (no such note shown in the session), ``locked`` (the guarded store refused the
writer), ``unavailable`` (the store could not answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from events.errors import BragError, StoreUnavailable, UnknownSession
from events.text import inert
from log import annotations as notes_log
from log.service import EventStore
from present.replay import Replay

__all__ = [
    "AddNote",
    "HideNote",
    "NoteResult",
    "Outcome",
    "Replays",
    "add_note",
    "hide_note",
    "unreachable",
]

Outcome = Literal["stored", "refused", "missing", "locked", "unavailable"]
"""What became of a note or of its hiding (see the module)."""

Replays = Callable[[str], Replay | None]
"""The session's replay as recorded (withdrawn steps in it), ``None`` when the store has none."""


@dataclass(frozen=True, slots=True)
class AddNote:
    """``by``'s note ``text`` on step ``step`` (as a replay numbers it: ``"7"``, ``"7a"``) of
    deal ``deal`` (0: before the first deal) of ``session``."""

    session: str
    deal: int
    step: str
    text: str
    by: str


@dataclass(frozen=True, slots=True)
class HideNote:
    """``by`` (the organiser) hides the note numbered ``id`` of ``session``."""

    session: str
    id: int
    by: str


@dataclass(frozen=True, slots=True)
class NoteResult:
    """The outcome (:data:`Outcome`) and, unless ``stored``, its one-line ``message``; when
    ``stored``, the ``deal`` and ``step`` the note is shown on."""

    outcome: Outcome
    message: str = ""
    deal: int = 0
    step: int | str = ""


def unreachable(err: Exception) -> NoteResult:
    """``unavailable``: the store could not answer (``err``, its first line, inert)."""
    why = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
    return NoteResult("unavailable", f"The store cannot be reached ({inert(why)}); try again.")


def _failed(err: Exception) -> NoteResult:
    """A store that could not answer, or a refusal in one line (nothing stored)."""
    if isinstance(err, StoreUnavailable) or not isinstance(err, BragError):
        return unreachable(err)
    return NoteResult("refused", f"Not stored: {inert(str(err))}")


def add_note(store: EventStore, note: AddNote, replay: Replays) -> NoteResult:
    """Keeps ``note`` in ``store`` on the event ``replay`` shows at its step: ``stored``, or
    ``refused`` (an empty or too long text or name, a deal or step the session does not have, a
    session with no events or showing 500 notes already) or ``unavailable``."""
    try:
        rp = replay(note.session)
        if rp is None:
            raise UnknownSession(note.session)
        notes_log.add_note(store, rp, note.deal, note.step, note.text, note.by)
    except Exception as err:
        return _failed(err)
    return NoteResult("stored", deal=note.deal, step=note.step)


def hide_note(
    store: EventStore,
    hide: HideNote,
    replay: Replays,
    *,
    locked: tuple[type[BragError], ...] = (),
) -> NoteResult:
    """Records that ``hide.by`` hid the note ``hide.id``, when ``replay`` of its session shows
    it: ``stored`` (with where it was shown), ``missing``, ``locked`` (``locked``: the errors of
    a guarded store that refuse the writer), ``refused`` or ``unavailable``."""
    try:
        rp = replay(hide.session)
        shown = {n.id: n for n in notes_log.notes(store, rp)} if rp is not None else {}
        if hide.id not in shown:
            return NoteResult(
                "missing", f"Session {inert(hide.session)!r} shows no note {hide.id}."
            )
        notes_log.hide_note(store, hide.id, hide.by)
    except locked as err:
        return NoteResult("locked", f"Not hidden: {err.message}")
    except Exception as err:
        return _failed(err)
    return NoteResult("stored", deal=shown[hide.id].deal, step=shown[hide.id].step)
