"""Numbers as a person reads them, the same on the terminal and the page: exact amounts (``8½``,
``+9``), shares as percentages that never round to 0% or 100% unless exactly so."""

from __future__ import annotations

from fractions import Fraction

from events.amounts import amount_text, signed_text

__all__ = ["amount", "count_of", "plural", "share", "signed", "whole_share"]


def amount(x: Fraction) -> str:
    """An exact amount for people: ``8½``, ``-3``, ``7/3``."""
    return amount_text(x)


def signed(x: Fraction) -> str:
    """An amount with its sign: ``+9``, ``-7``, ``0``."""
    return signed_text(x)


def plural(n: int, word: str, many: str | None = None) -> str:
    """The word for ``n`` of a thing: ``word`` for exactly one, else ``many`` (``word + "s"``
    when not given). For a count printed anywhere (the terminal and the page alike).

    >>> plural(1, "deal"), plural(2, "deal"), plural(0, "deal"), plural(3, "batch", "batches")
    ('deal', 'deals', 'deals', 'batches')
    """
    if n == 1:
        return word
    return many if many is not None else word + "s"


def count_of(n: int, word: str, many: str | None = None) -> str:
    """``n`` and its word (:func:`plural`), the number with thousands separated: ``"1 deal"``,
    ``"0 deals"``, ``"1,204 events"``.

    >>> count_of(1, "deal"), count_of(2, "step"), count_of(0, "session"), count_of(1204, "event")
    ('1 deal', '2 steps', '0 sessions', '1,204 events')
    """
    return f"{n:,} {plural(n, word, many)}"


def whole_share(v: float) -> str:
    """A share as a whole percentage that reads 0% or 100% only when it is exactly so: else
    :func:`share`'s one decimal (a reader takes "100%" for "every one").

    >>> whole_share(0.4286), whole_share(230 / 231), whole_share(1.0), whole_share(1 / 400)
    ('43%', '99.6%', '100%', '0.2%')
    """
    text = f"{v:.0%}"
    if text in ("0%", "100%") and v not in (0.0, 1.0):
        return share(v)
    return text


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
