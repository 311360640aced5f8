"""The projector's one error, in a module of its own: what reads a projection (the owner check, the
statistics) can name it without importing the engine that :mod:`analytics.facts` folds with."""

from __future__ import annotations

from events.errors import PlainError

__all__ = ["ProjectionError"]


class ProjectionError(PlainError, RuntimeError):
    """An event the projector cannot apply (the store holds a stream the engine refuses)."""

    rule_name = "PROJECTION"
