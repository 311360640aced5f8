"""What the Record page's start form asks before a session starts: the stored name a typed one
is (one name, one player: :func:`events.text.normal`), and whole numbers from a client checked
before they reach the engine."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from events.errors import PlainError
from events.text import inert, normal

__all__ = ["canonical", "seat_clash", "whole_number"]


def canonical(typed: str, known: Sequence[str]) -> str | None:
    """The name of ``known`` (the names already in the store) that ``typed`` is another spelling
    of (the same normal form: ``ann`` for ``Ann``, ``Аnn`` with a Cyrillic A), to offer in its
    place; ``None`` when ``typed`` is new, or is itself one of ``known``. The first of
    ``known`` with that form answers.

    >>> canonical("ann ", ["Bob", "Ann"])
    'Ann'
    >>> canonical("Ann", ["Ann"]) is None and canonical("Cy", ["Ann"]) is None
    True
    """
    if typed in known:
        return None
    key = normal(typed)
    return next((k for k in known if normal(k) == key), None)


def seat_clash(seats: Sequence[str]) -> str | None:
    """One sentence when two of ``seats`` are one name (RULES 1.3: seats are unique, by their
    normal form), else ``None``."""
    first: dict[str, str] = {}
    for seat in seats:
        other = first.setdefault(normal(seat), seat)
        if other != seat:
            return f"{inert(other)} and {inert(seat)} are one name; seats are unique (RULES 1.3)."
    return None


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    """``value`` from a client (a number input, a JSON body) as an ``int`` from ``low`` to
    ``high``; a :class:`~events.errors.PlainError` in one sentence otherwise: NaN, an infinity,
    a fraction, a bool or text never reach the engine.

    >>> whole_number(8.0, "Pots to play", 1, 50)
    8
    >>> whole_number(float("nan"), "Pots to play", 1, 50)
    Traceback (most recent call last):
    ...
    events.errors.PlainError: Pots to play must be a whole number from 1 to 50, not nan.
    """
    bad = PlainError(
        f"{what} must be a whole number from {low} to {high}, not {inert(str(value))}."
    )
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        raise bad
    number = int(value)
    if not low <= number <= high:
        raise bad
    return number
