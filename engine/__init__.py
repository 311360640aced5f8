"""The rules engine: the pure fold of a session's events (RULES 1 to 6).

``apply(state, event) -> state`` checks one event and returns the next immutable state;
``replay(events)`` gives every state; ``legal_actions(state)`` lists every legal next recorded
event with its cost. Refusals are :class:`~events.errors.RuleViolation` (a ``ValueError``) carrying
the RULES section. This package imports no database, DuckDB or Streamlit.

Each name has one address, its module: ``from engine.fold import replay``, ``from engine.apply
import
apply``, ``from engine.legal import legal_actions``. This file imports nothing.
"""
