"""Stored streams through the engine: the states of a stored session, a log file checked before
it is stored, and the sessions' catalogue lines computed from their events."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from engine.fold import Step, complete
from engine.state import State, initial_state
from events.codec import read_events, read_file
from events.errors import BragError, CorruptSession, FormatError
from store.port import Recorder
from store.records import Row, SessionInfo, StoredEvent
from timeline import Timeline

if TYPE_CHECKING:
    from events.model import AnyEvent

__all__ = [
    "checked_log",
    "corrected_log",
    "fold_rows",
    "recomputed",
    "session_row",
    "stored_states",
    "stored_timeline",
]


def stored_timeline(session: str, rows: Sequence[StoredEvent]) -> Timeline:
    """The :class:`~timeline.Timeline` of a stored session read from seq 1;
    :class:`CorruptSession` naming the session and the seq of the first row the rules refuse (a
    store changed outside Bragbook), never the engine's error about a "line"."""
    try:
        return Timeline.of([r.event for r in rows])
    except BragError as err:
        k = (err.line or 1) - 1
        r = rows[k] if 0 <= k < len(rows) else rows[-1]
        raise CorruptSession(
            session,
            r.seq,
            r.type,
            f"the stored stream no longer folds ({err.heading()}: {err.message})",
        ) from None


def stored_states(session: str, rows: Sequence[StoredEvent]) -> list[State]:
    """The state after each stored row of a session read from seq 1 (the timeline's log: each
    the corrected end state as it stood then); :class:`CorruptSession` as
    :func:`stored_timeline`."""
    return [r.state for r in stored_timeline(session, rows).log]


def fold_rows(session: str, rows: Sequence[StoredEvent]) -> State:
    """The state after the stored ``rows``; :class:`CorruptSession` as :func:`stored_timeline`."""
    return stored_timeline(session, rows).state if rows else initial_state()


def checked_log(source: str | os.PathLike[str] | Iterable[str]) -> list[Step]:
    """A session log (a FORMAT.md file path, or its lines) read and folded by the engine, derived
    events added: every step of the full stream, nothing stored. What
    :meth:`log.EventStore.import_log` checks first; raises its :class:`~events.errors.BragError`
    (line, event, rule), or OSError for a file that cannot be read."""
    if isinstance(source, str | os.PathLike):
        lines = read_file(os.fspath(source))
    else:
        lines = list(read_events(source))
    if not lines:
        raise FormatError("the log is empty: a session log starts with session_started")
    if any(e.type == "amended" for _, e in lines):
        return corrected_log(lines)
    return list(complete(lines))


def corrected_log(lines: list[tuple[int, AnyEvent]]) -> list[Step]:
    """:func:`checked_log` of a log holding ``amended`` corrections: folded by its
    :class:`~timeline.Timeline` (each step the event and the corrected end state after it), the
    derived events a log leaves out added; errors name the file's line."""
    events = [e for _, e in lines]
    try:
        t = Timeline().extend_all(events, conclude=True, fill=False)
    except BragError as err:
        k = (err.line or 1) - 1
        raise err.at(line=lines[k][0] if 0 <= k < len(lines) else None) from None
    line_of = {id(e): n for n, e in lines}
    return [Step(line_of.get(id(r.event)), r.event, r.state) for r in t.log]


_Counts = tuple[str | None, tuple[str, ...], int, int, int, bool, tuple[str, ...], str]
"""A catalogue line's counts: table, players, deals, resolved and carried pots, finished, winners,
cards mode."""


def _counts(state: State) -> _Counts:
    """The catalogue's counts as the engine tells them (a voided event's conclusions withdrawn)."""
    winners = state.winners if state.finished else ()
    return (
        state.table, state.seats, state.deals, state.resolved, state.carried, state.finished,
        winners, state.cards_mode,
    )  # fmt: skip


def _line(
    session: str,
    counts: _Counts,
    *,
    last_seq: int,
    started: datetime | None,
    last_at: datetime | None,
    first_position: int,
    last_position: int,
    stored: datetime | None,
    first_at: datetime | None,
) -> SessionInfo:
    """One catalogue line from its counts and its place in the store."""
    table, players, deals, resolved, carried, finished, winners, cards = counts
    return SessionInfo(
        session=session, table=table, started=started, players=players, deals=deals,
        resolved_pots=resolved, carried_pots=carried, finished=finished, winners=winners,
        last_seq=last_seq, cards=cards, last_at=last_at, events=last_seq,
        first_position=first_position, last_position=last_position, stored=stored,
        first_at=first_at,
    )  # fmt: skip


def session_row(
    session: str,
    state: State,
    rows: Sequence[Row],
    positions: Sequence[int],
    now: datetime,
) -> SessionInfo:
    """The catalogue's line for ``session`` after an append of ``rows`` (at ``positions``, stored
    at ``now``) that leaves it in ``state``, as if the append started the session (a recorder
    keeps the first time, store time and position it holds). The counts are the engine's (a
    voided event's conclusions withdrawn)."""
    last_at = next((r.at_dt for r in reversed(rows) if r.at_dt is not None), None)
    first_at = rows[0].at_dt
    return _line(
        session, _counts(state), last_seq=rows[-1].seq, started=first_at or now, last_at=last_at,
        first_position=positions[0], last_position=positions[-1], stored=now, first_at=first_at,
    )  # fmt: skip


def recomputed(
    recorder: Recorder, state_at: Callable[[str, int], State] | None = None
) -> list[SessionInfo]:
    """Every session's catalogue line computed from the events, in the order first stored.

    Counts come from the recorder's summaries (derived events counted in SQL); a session with a
    ``voided`` event is folded through the engine instead (``state_at(session, seq)``, by default
    from the stored rows), since a withdrawn event's conclusions do not count."""
    if state_at is None:

        def state_at(session: str, seq: int) -> State:
            return fold_rows(session, recorder.load(session, upto=seq))

    out: list[SessionInfo] = []
    for s in recorder.summaries():
        counts: _Counts = (
            _counts(state_at(s.session, s.last_seq))
            if s.voided
            else (
                s.table, s.seats, s.deals, s.won, s.carried, s.winners is not None,
                s.winners or (), s.cards,
            )
        )  # fmt: skip
        out.append(
            _line(
                s.session,
                counts,
                last_seq=s.last_seq,
                started=s.first_at or s.stored_at,
                last_at=s.last_at,
                first_position=s.first_position,
                last_position=s.last_position,
                stored=s.stored_at,
                first_at=s.first_at,
            )
        )
    return out
