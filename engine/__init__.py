"""The rules engine: the pure fold of a session's events (RULES 1 to 6).

``apply(state, event) -> state`` checks one event and returns the next immutable state;
``replay(events)`` gives every state; ``legal_actions(state)`` lists every legal next recorded
event with its cost. Refusals are :class:`~events.errors.RuleViolation` (a ``ValueError``) carrying
the RULES section. This package imports no database, DuckDB or Streamlit.

Importing :mod:`engine` (or one of its modules, ``engine.hands``) loads none of the others: each
name below is imported from its module on first use (PEP 562).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from events.lazy import LazyNames

if TYPE_CHECKING:
    from engine.apply import apply
    from engine.fold import Step, complete, conclude, fold, record, replay, summary, verify_events
    from engine.state import Hand, Outcome, Phase, PlayerState, State, initial_state
    from events.errors import BragError, FormatError, RuleViolation

_WHERE = {
    "apply": "engine.apply",
    "Step": "engine.fold",
    "complete": "engine.fold",
    "conclude": "engine.fold",
    "fold": "engine.fold",
    "record": "engine.fold",
    "replay": "engine.fold",
    "summary": "engine.fold",
    "verify_events": "engine.fold",
    "Hand": "engine.state",
    "Outcome": "engine.state",
    "Phase": "engine.state",
    "PlayerState": "engine.state",
    "State": "engine.state",
    "initial_state": "engine.state",
    "BragError": "events.errors",
    "FormatError": "events.errors",
    "RuleViolation": "events.errors",
}

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


_NAMES = LazyNames(__name__, _WHERE, __all__)


def __getattr__(name: str) -> Any:
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return _NAMES.dir()


class _Engine(types.ModuleType):
    """The package's module type: ``engine.apply`` and ``engine.fold`` stay the functions of
    those names (what the eager ``from engine.apply import apply`` left), not the modules of the
    same names that the import system sets here once it has loaded them."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("apply", "fold") and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Engine
