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


_GLYPHS: Final = {(1, 2): "½", (1, 4): "¼", (3, 4): "¾"}


def amount_text(value: Fraction) -> str:
    """A person's exact form (the one helper the terminal and the dashboard share): whole amounts
    plain, halves and quarters with their glyph, other fractions as ``n/d``.

    >>> amount_text(Fraction(17, 2)), amount_text(Fraction(-9, 4)), amount_text(Fraction(3, 4))
    ('8½', '-2¼', '¾')
    >>> amount_text(Fraction(-7, 3))
    '-7/3'
    """
    if value.denominator == 1:
        return str(value.numerator)
    whole, part = divmod(abs(value.numerator), value.denominator)
    glyph = _GLYPHS.get((part, value.denominator))
    sign = "-" if value < 0 else ""
    if glyph is not None:
        return f"{sign}{whole or ''}{glyph}"
    return f"{value.numerator}/{value.denominator}"


def signed_text(value: Fraction) -> str:
    """:func:`amount_text` with its sign where a sign is meant (a net, a change): ``+9``, ``-2¼``,
    ``0``.

    >>> signed_text(Fraction(9)), signed_text(Fraction(-9, 4)), signed_text(Fraction(0))
    ('+9', '-2¼', '0')
    """
    return f"+{amount_text(value)}" if value > 0 else amount_text(value)


def rounded_text(value: Fraction, *, sign: bool = False, places: int = 2) -> str:
    """A value shown exactly (:func:`amount_text`) when it is whole, a half or a quarter, else
    rounded to ``places`` decimals after ``≈`` (the mark of a rounded value, and only of one);
    ``sign``: with ``+`` for a positive value either way.

    >>> rounded_text(Fraction(-9, 4), sign=True), rounded_text(Fraction(10, 3), sign=True)
    ('-2¼', '≈ +3.33')
    """
    if value.denominator in (1, 2, 4):
        return signed_text(value) if sign else amount_text(value)
    text = f"{float(round(value, places)):.{places}f}"  # rounded exactly; the float only prints
    return f"≈ {'+' if sign and value > 0 else ''}{text}"
