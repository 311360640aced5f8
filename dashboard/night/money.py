"""The club's money on the Night page (issue 36.5): an exact amount as the commands print it
(``brag night --settle --stake``: a decimal when it has one, ``"4.25"``, else ``"n/d"``), and
money typed on the desk read back exact (``0.50`` or ``1/2``), never through a float."""

from __future__ import annotations

from fractions import Fraction

from events.amounts import format_amount

__all__ = ["money_text", "parse_money"]


def money_text(value: Fraction) -> str:
    """``value`` (exact money) as a decimal when it has one (``"4.25"``, ``"-3"``), else as the
    exact fraction (``"1/3"``: a third of a penny stays exact), as ``brag night`` prints it."""
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


def parse_money(text: str, what: str) -> Fraction:
    """``text`` (``"0.50"``, ``"1/2"``, ``"2"``) as exact money above 0. Raises ``ValueError``
    with one line naming ``what`` otherwise."""
    got = text.strip()
    try:
        value = Fraction(got)
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or value <= 0 or len(got) > 20:
        raise ValueError(f"{what} {got!r}: give money above 0, as a decimal (0.50) or a fraction")
    return value
