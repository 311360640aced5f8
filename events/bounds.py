"""The bounds of docs/format.md ("Bounds") and the validators that keep a log's values in them;
a row the store already holds is read as it is (:func:`_stored`). Re-exported by
:mod:`events.model`."""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from pydantic import ValidationInfo

from events.amounts import AmountError, format_amount

# --- bounds (docs/format.md "Bounds") ------------------------------------------------------------
# Every value a log may hold is stored exactly by the store and the analytics projection (32-bit
# counts and levels, 64-bit ticks of 1/den stake units, den = 2 x the ante's denominator).
MAX_NAME: Final = 64
"""Characters in a player's name, a table's name or a recorder (``by``)."""
MAX_SESSION_ID: Final = 128
"""Characters in a session id."""
MAX_POTS: Final = 1000
"""``rules.pots``: 1 to 1,000 resolved pots."""
MAX_OPEN: Final = 1000
"""``rules.open_min``, ``open_max`` and ``raise_max``: at most 1,000 seen units."""
MAX_LEVEL: Final = 10**6
"""A bet's ``level``: at most 1,000,000 seen units."""
MAX_ANTE: Final = 10**6
"""``rules.ante``: at most 1,000,000 stake units."""
ANTE_DENOMINATORS: Final = 25200
"""``rules.ante``'s denominator divides 25,200 (1 to 10, 12, 16, 20, 25, 100 ... all do): the
statistics over many sessions use a common denominator, which then divides 50,400."""
MAX_SEQ: Final = 2**31 - 1
"""``seq``, ``deal`` and a ``voided`` event's ``seq``: what a 32-bit column holds."""


def _stored(info: ValidationInfo) -> bool:
    """Validation of a row the store already holds (``context={"stored": True}``): its values
    were checked when they were written, or by an older version; they are read as they are and
    shown inert (:func:`events.text.inert`), never refused for a bound added since."""
    ctx = info.context
    return isinstance(ctx, dict) and bool(ctx.get("stored"))


def _printable(value: str, limit: int, what: str) -> str:
    if not value or value.isspace():
        raise ValueError(f"{what} cannot be empty")
    if len(value) > limit:
        raise ValueError(
            f'{what} is {len(value)} characters long; at most {limit} (docs/format.md "Bounds")'
        )
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        raise ValueError(
            f"{what} holds U+{ord(bad):04X}, which is not printable: names and ids are "
            "printable text (no control, format or bidi characters, no lone surrogates; "
            'docs/format.md "Bounds")'
        )
    return value


def _name(value: str, info: ValidationInfo) -> str:
    return value if _stored(info) else _printable(value, MAX_NAME, "a name")


def _session_id(value: str, info: ValidationInfo) -> str:
    return value if _stored(info) else _printable(value, MAX_SESSION_ID, "a session id")


def _ante_bound(x: Fraction, info: ValidationInfo) -> Fraction:
    if _stored(info):
        return x
    if abs(x) > MAX_ANTE or ANTE_DENOMINATORS % x.denominator:
        raise AmountError(
            f"the ante {format_amount(x)} is out of bounds: at most {MAX_ANTE:,} stake units, "
            f'its denominator dividing {ANTE_DENOMINATORS:,} (docs/format.md "Bounds")'
        )
    return x


def _at_most(value: int, limit: int, info: ValidationInfo) -> int:
    if value > limit and not _stored(info):
        text = str(value) if value < 10**40 else f"{str(value)[:20]}…"
        raise ValueError(f'{text} is out of bounds: at most {limit} (docs/format.md "Bounds")')
    return value


def _at_most_open(value: int, info: ValidationInfo) -> int:
    return _at_most(value, MAX_OPEN, info)


def _at_most_pots(value: int, info: ValidationInfo) -> int:
    return _at_most(value, MAX_POTS, info)


def _level_bound(x: Fraction, info: ValidationInfo) -> Fraction:
    if not _stored(info) and abs(x) > MAX_LEVEL:
        raise AmountError(
            f"the level {format_amount(x)} is out of bounds: at most {MAX_LEVEL:,} "
            '(docs/format.md "Bounds")'
        )
    return x
