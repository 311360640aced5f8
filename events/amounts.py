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

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Final

from events.errors import PlainError

_DECIMAL: Final = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
_FRACTION: Final = re.compile(r"[+-]?[0-9]+/[1-9][0-9]*")
# ASCII digits only: "\d" would take any Unicode digit ("٢" read as 2).

MAX_AMOUNT: Final = 10**12
"""The largest amount a log may hold, in stake units (docs/format.md "Bounds")."""
MAX_DENOMINATOR: Final = 10**6
"""The largest denominator of an amount (docs/format.md "Bounds")."""
MAX_AMOUNT_TEXT: Final = 40
"""The longest amount string or JSON number, in characters: parsing stays linear in the text."""
_BOUNDS: Final = (
    "amounts are at most 10^12 stake units, with a denominator of at most 10^6, in at most "
    f'{MAX_AMOUNT_TEXT} characters (docs/format.md "Bounds")'
)


class AmountError(PlainError, ValueError):
    """A value that is not an exact amount in any notation of FORMAT.md (a refusal of the one
    family)."""

    rule_name = "FORMAT"


def parse_amount(value: object, *, bounded: bool = True) -> Fraction:
    """The exact :class:`~fractions.Fraction` for an integer, decimal string or fraction string.

    A JSON number with a fraction part reaches us as :class:`~decimal.Decimal` (the codec parses
    floats that way) and is accepted exactly. A Python ``float`` or ``bool`` is refused
    (:class:`AmountError`): amounts never go through binary floating point (RULES 1.2).

    ``bounded`` (input from a log): at most :data:`MAX_AMOUNT` in size, a denominator of at most
    :data:`MAX_DENOMINATOR`, and at most :data:`MAX_AMOUNT_TEXT` characters, checked before any
    arithmetic, so the time is linear in the text (``1e40000000`` is refused at once, not turned
    into a 40-million-digit integer). Unbounded parsing is for rows already stored.
    """
    if isinstance(value, bool):
        raise AmountError("an amount is a number, not true/false")
    if isinstance(value, int):
        out = Fraction(value)
    elif isinstance(value, Fraction):
        out = value
    elif isinstance(value, Decimal):
        out = _from_decimal(value, bounded)
    elif isinstance(value, str):
        out = _from_text(value, bounded)
    elif isinstance(value, float):
        raise AmountError(f'{value!r} is a binary float; write amounts as 3, "1.5" or "3/2"')
    else:
        raise AmountError(f"{_short(value)} is not an amount")
    if bounded and (abs(out) > MAX_AMOUNT or out.denominator > MAX_DENOMINATOR):
        raise AmountError(f"{_short(format_amount(out))} is out of bounds: {_BOUNDS}")
    return out


def _from_decimal(value: Decimal, bounded: bool) -> Fraction:
    """A JSON number with a fraction part; ``bounded``: its digits and exponent checked first."""
    if not value.is_finite():
        raise AmountError(f"{value} is not a finite amount")
    if bounded:
        digits = value.as_tuple().digits
        exponent = int(value.as_tuple().exponent)
        if len(digits) > MAX_AMOUNT_TEXT or not -MAX_AMOUNT_TEXT <= exponent <= 12:
            raise AmountError(f"{_short(value)} is out of bounds: {_BOUNDS}")
    return Fraction(value)


def _from_text(value: str, bounded: bool) -> Fraction:
    """A decimal or fraction string; ``bounded``: its length checked first."""
    s = value.strip()
    if bounded and len(s) > MAX_AMOUNT_TEXT:
        raise AmountError(f"{_short(value)} is out of bounds: {_BOUNDS}")
    if not (_FRACTION.fullmatch(s) or _DECIMAL.fullmatch(s)):
        raise AmountError(f'{_short(value)} is not an amount (write 3, "1.5" or "3/2")')
    return Fraction(s)


def _short(value: object) -> str:
    """``repr`` of a value, cut to 40 characters (an error names it on one line)."""
    text = repr(value) if isinstance(value, str) else str(value)
    if len(text) > MAX_AMOUNT_TEXT:
        return text[: MAX_AMOUNT_TEXT - 1] + "…"
    return text


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


ROUNDED_TO: Final = Fraction(1, 4)
"""What an estimate (an average of money) is rounded to: a quarter of a stake unit, the finest
part an amount is written with glyphs (``¼``, ``½``, ``¾``), so an estimate reads as an amount
does (``≈ +6¼``, beside an exact ``-2¼``); rounding errs by at most an eighth of a unit."""


def rounded_text(value: Fraction, *, sign: bool = False) -> str:
    """A value shown exactly (:func:`amount_text`) when it is whole, a half or a quarter, else
    rounded to the nearest :data:`ROUNDED_TO` (halves away from 0) and written as an amount after
    ``≈`` (the mark of a rounded value, and only of one); ``sign``: with ``+`` for a positive
    value either way (a value that rounds to 0 is ``≈ 0``).

    >>> rounded_text(Fraction(-9, 4), sign=True), rounded_text(Fraction(10, 3), sign=True)
    ('-2¼', '≈ +3¼')
    >>> rounded_text(Fraction(56725, 606)), rounded_text(Fraction(-1, 10), sign=True)
    ('≈ 93½', '≈ 0')
    """
    if value.denominator in (1, 2, 4):
        return signed_text(value) if sign else amount_text(value)
    steps = math.floor(abs(value) / ROUNDED_TO + Fraction(1, 2))
    near = steps * ROUNDED_TO * (1 if value > 0 else -1)
    return f"≈ {signed_text(near) if sign else amount_text(near)}"


def margin_text(value: float) -> str:
    """A margin of money (a standard error, in stake units) as an amount, rounded UP to the next
    :data:`ROUNDED_TO` so that it is never shown smaller than it is (nor as 0 unless it is 0).

    >>> margin_text(0.8), margin_text(0.1), margin_text(0.0), margin_text(2.5)
    ('1', '¼', '0', '2½')
    """
    exact = Fraction(value)
    return amount_text(math.ceil(exact / ROUNDED_TO) * ROUNDED_TO)


def money_text(value: Fraction) -> str:
    """An exact amount of money (a night's settlement at its stake per unit, issue 36) as
    FORMAT.md writes an amount: a decimal when it has one (``"4.25"``, ``"-3"``), else the exact
    fraction (``"1/3"``: a third of a penny stays exact). ``brag night`` and the Night page both
    print money with it.

    >>> money_text(Fraction(17, 4)), money_text(Fraction(-3)), money_text(Fraction(1, 3))
    ('4.25', '-3', '1/3')
    """
    d, places = value.denominator, 0
    while d % 2 == 0 or d % 5 == 0:  # 10 = 2 * 5 takes one place, as 2 or 5 alone
        d //= 10 if d % 10 == 0 else 2 if d % 2 == 0 else 5
        places += 1
    if d != 1:
        return str(format_amount(value))
    if places == 0:
        return str(value.numerator)
    scaled = abs(value) * 10**places
    text = str(scaled.numerator).rjust(places + 1, "0")
    return f"{'-' if value < 0 else ''}{text[:-places]}.{text[-places:]}"
