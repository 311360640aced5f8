"""Exact amounts in stake units (FORMAT.md "Amounts", RULES 1.2).

Readers accept an integer, a decimal string (``"1.5"``) or a fraction string (``"3/2"``) and
never go through a binary float. Writers write an integer when the amount is whole, else the
fraction string.

>>> parse_amount("3/2"), parse_amount("1.5"), parse_amount(7)
(Fraction(3, 2), Fraction(3, 2), Fraction(7, 1))
>>> format_amount(Fraction(35, 2)), format_amount(Fraction(-4))
('35/2', -4)
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Final

_DECIMAL: Final = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_FRACTION: Final = re.compile(r"[+-]?\d+/[1-9]\d*")


class AmountError(ValueError):
    """A value that is not an exact amount in any notation of FORMAT.md."""


def parse_amount(value: object) -> Fraction:
    """The exact :class:`~fractions.Fraction` for an integer, decimal string or fraction string.

    A JSON number with a fraction part reaches us as :class:`~decimal.Decimal` (the codec parses
    floats that way) and is accepted exactly. A Python ``float`` or ``bool`` is refused
    (:class:`AmountError`): amounts never go through binary floating point (RULES 1.2).
    """
    if isinstance(value, bool):
        raise AmountError("an amount is a number, not true/false")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise AmountError(f"{value} is not a finite amount")
        return Fraction(value)
    if isinstance(value, str):
        s = value.strip()
        if _FRACTION.fullmatch(s) or _DECIMAL.fullmatch(s):
            return Fraction(s)
        raise AmountError(f'{value!r} is not an amount (write 3, "1.5" or "3/2")')
    if isinstance(value, float):
        raise AmountError(f'{value!r} is a binary float; write amounts as 3, "1.5" or "3/2"')
    raise AmountError(f"{value!r} is not an amount")


def format_amount(value: Fraction) -> int | str:
    """The canonical written form: an ``int`` when whole, else ``"n/d"`` (FORMAT.md "Amounts")."""
    if value.denominator == 1:
        return value.numerator
    return f"{value.numerator}/{value.denominator}"


def amount_text(value: Fraction) -> str:
    """A person's form: ``"17/2"`` as ``"8½"``, whole amounts plain, other fractions as ``n/d``."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = abs(value.numerator) // 2
        sign = "-" if value < 0 else ""
        return f"{sign}{whole}½" if whole else f"{sign}½"
    return f"{value.numerator}/{value.denominator}"
