"""The rules engine: the pure fold of a session's events (RULES 1 to 6).

``apply(state, event) -> state`` checks one event and returns the next immutable state;
``replay(events)`` gives every state; ``legal_actions(state)`` lists every legal next recorded
event with its cost. Refusals are :class:`~events.errors.RuleViolation` (a ``ValueError``) carrying
the RULES section. This package imports no database, DuckDB or Streamlit.
"""

from engine.apply import apply
from engine.fold import Step, complete, conclude, fold, record, replay, summary, verify_events
from engine.state import Hand, Outcome, Phase, PlayerState, State, initial_state
from events.errors import BragError, FormatError, RuleViolation

__all__ = [
    "BragError",
    "FormatError",
    "Hand",
    "Outcome",
    "Phase",
    "PlayerState",
    "RuleViolation",
    "State",
    "Step",
    "apply",
    "complete",
    "conclude",
    "fold",
    "initial_state",
    "record",
    "replay",
    "summary",
    "verify_events",
]
