"""Numbers as a person reads them, the same on the terminal and the page: exact amounts (``8½``,
``+9``), shares as percentages that never round to 0% or 100% unless exactly so."""

from __future__ import annotations

from fractions import Fraction

from events.amounts import amount_text, signed_text

__all__ = ["amount", "share", "signed"]


def amount(x: Fraction) -> str:
    """An exact amount for people: ``8½``, ``-3``, ``7/3``."""
    return amount_text(x)


def signed(x: Fraction) -> str:
    """An amount with its sign: ``+9``, ``-7``, ``0``."""
    return signed_text(x)


def share(v: float) -> str:
    """A share as a percentage to one decimal that reads 0% or 100% only when it is exactly so
    (4999/5000 is ">99.9%", not "100.0%")."""
    if v in (0.0, 1.0):
        return f"{v:.0%}"
    text = f"{v:.1%}"
    if text == "100.0%":
        return ">99.9%"
    if text == "0.0%":
        return "<0.1%"
    return text
