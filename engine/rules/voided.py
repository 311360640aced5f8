"""Corrections (FORMAT.md ``voided``): the latest recorded event still in force is withdrawn and
the state goes back to the one before it. Not a table rule: no RULES section; a void that does not
fit is a :class:`~events.errors.FormatError`.
"""

from __future__ import annotations

from engine.state import Phase, State, replace
from events.errors import FormatError
from events.model import Voided

__all__ = ["can_void", "voided"]


def can_void(state: State) -> int | None:
    """The seq of the recorded event a ``voided`` may withdraw now, or ``None`` (FORMAT.md)."""
    if state.undo is None or state.recorded_seq is None or state.undo.phase is Phase.NEW:
        return None
    return state.recorded_seq


def voided(state: State, e: Voided) -> State:
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
