"""A statistic's cell as a person reads it: the one formatter of ``brag stats``, ``brag
leaderboard`` and ``brag analytics show`` (the terminal's tables) and of the Players page
(``dashboard.stats.figures.stat_text``).

Both read the rows of ``analytics.queries`` (each rate beside its count, ``blind_rate_n``); the
terminal reads them as ``public_rows`` make them (money as FORMAT.md text, ``"-17/2"``), the page
as they come (money as :class:`~fractions.Fraction`). The rules they share:

- no value (``None``): a dash;
- a share (a ``float`` statistic named ``…rate…`` or ``…share…``): a percentage, then ``of`` and
  its count;
- another ``float``, an average: two decimals, then ``over`` and its count;
- an average of money (``…net_per_deal``, ``…_mean``): exact where it is whole, a half or a
  quarter, else ``≈`` the nearest quarter, written as any amount (``≈ +6¼``:
  :func:`events.amounts.rounded_text`); a net per deal with its sign;
- other money (a ``Fraction``, amount text with ``/``, ``net``, ``biggest_pot_won``): exact,
  ``8½`` (:func:`events.amounts.amount_text`);
- a flag: ``yes`` or nothing; anything else as it is.

Where the two surfaces differ, the style says (:data:`TERMINAL`, :data:`PAGE`):

============================  =============================  ===============================
                              ``TERMINAL`` (brag)            ``PAGE`` (the Players page)
============================  =============================  ===============================
no value                      ``-`` (a hyphen)               ``–`` (an en dash)
a share                       one decimal, never 0% or 100%  whole percent (``43%``); one
                              unless exactly so              decimal where that would read
                              (:func:`present.numbers.share`)
                                                             0% or 100% untrue (``99.6%``)
``net``                       unsigned (``9``)               signed (``+9``)
the count                     ``{name}_n`` beside any        the statistic's own count
                              ``float``, shown when there    (:data:`PAGE_COUNTS`: a habit's
                              (``of 231``)                   ``_n``, ``luck_deals``) with its
                                                             unit (``of 51 deals``); no count
                                                             (or 0): no value
============================  =============================  ===============================

>>> row = {"blind_rate": 230 / 231, "blind_rate_n": 231, "net": "17/2"}
>>> stat_cell(row, "blind_rate"), stat_cell(row, "net"), stat_cell(row, "see_rate")
('99.6% of 231', '8½', '-')
>>> page = {"blind_rate": 230 / 231, "blind_rate_n": 231, "net": Fraction(17, 2)}
>>> stat_cell(page, "blind_rate", PAGE), stat_cell(page, "net", PAGE)
('99.6% of 231 deals', '+8½')
>>> stat_cell({"see_rate": 0.5, "see_rate_n": 0}, "see_rate", PAGE)
'–'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from events.amounts import amount_text, rounded_text, signed_text
from present.numbers import share, whole_share

__all__ = ["COUNT_WORDS", "PAGE", "PAGE_COUNTS", "TERMINAL", "CellStyle", "stat_cell"]

MONEY: Final = ("net", "net_per_deal", "biggest_pot_won")
"""Statistics that are money whatever their type (a whole amount written ``"9"``)."""

COUNT_WORDS: Final[Mapping[str, str]] = {
    "blind_rate": "deals",
    "avg_bets_before_looking": "deals",
    "bet_share": "deals",
    "raise_rate": "bets",
    "see_rate": "chances",
    "payer_win_rate": "showdowns",
    "seen_win_rate": "showdowns",
}
"""What a habit's count counts (``43% of 51 deals``)."""

PAGE_COUNTS: Final[Mapping[str, tuple[str, str]]] = {
    **{name: (f"{name}_n", unit) for name, unit in COUNT_WORDS.items()},
    # over the deals with a luck term (docs/luck.md)
    "adjusted_net_per_deal": ("luck_deals", "deals"),
}
"""The statistics the page shows with their count: the count's column and its unit."""


@dataclass(frozen=True)
class CellStyle:
    """How one surface writes what the two write differently (the table in the module's
    docstring)."""

    missing: str
    """The cell of no value."""
    percent: Callable[[float], str]
    """A share as a percentage."""
    signed_net: bool
    """``net`` with its sign (``+9``)."""
    counts: Mapping[str, tuple[str, str]] | None
    """The statistics shown with a count: its column and unit; none, or a count of 0: no value.
    ``None``: the count ``{name}_n`` beside any ``float`` statistic, shown when there."""


TERMINAL: Final = CellStyle(missing="-", percent=share, signed_net=False, counts=None)
"""``brag``'s tables: ``99.6% of 231``, ``-``."""
PAGE: Final = CellStyle(missing="–", percent=whole_share, signed_net=True, counts=PAGE_COUNTS)
"""The Players page: ``43% of 51 deals``, ``99.6% of 231 deals``, ``–``."""


def stat_cell(row: Mapping[str, Any], name: str, style: CellStyle = TERMINAL) -> str:
    """The statistic ``name`` of ``row`` as ``style`` shows it (see the module's docstring).

    >>> stat_cell({"avg_bets_before_looking": 816 / 231, "avg_bets_before_looking_n": 231},
    ...           "avg_bets_before_looking")
    '3.53 over 231'
    >>> stat_cell({"pot_mean": "56725/606"}, "pot_mean"), stat_cell({"x": True}, "x")
    ('≈ 93½', 'yes')
    >>> stat_cell({"adjusted_net_per_deal": Fraction(-7, 3), "luck_deals": 9},
    ...           "adjusted_net_per_deal", PAGE)
    '≈ -2¼ over 9 deals'
    """
    value = row.get(name)
    if style.counts is not None and name in style.counts:
        column, unit = style.counts[name]
        n = row.get(column) or 0
        if value is None or not n:
            return style.missing
        return f"{_value_text(name, value, style)}{_joint(name, value)}{n} {unit}"
    if value is None:
        return style.missing
    text = _value_text(name, value, style)
    n = row.get(f"{name}_n") if style.counts is None and isinstance(value, float) else None
    return text if n is None else f"{text}{_joint(name, value)}{n}"


def _is_share(name: str, value: Any) -> bool:
    return isinstance(value, float) and ("rate" in name or "share" in name)


def _joint(name: str, value: Any) -> str:
    """What joins a value to its count: a share is ``of`` it, an average ``over`` it."""
    return " of " if _is_share(name, value) else " over "


def _value_text(name: str, value: Any, style: CellStyle) -> str:
    """The value alone (not ``None``)."""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return style.percent(value) if _is_share(name, value) else f"{value:.2f}"
    if (name.endswith("net_per_deal") or name.endswith("_mean")) and value != "":
        # An average: exact where it is whole, a half or a quarter, else "≈" the nearest quarter
        # (exact in JSON and CSV).
        return rounded_text(Fraction(value), sign=name.endswith("net_per_deal"))
    if isinstance(value, Fraction) or (isinstance(value, str) and "/" in value) or name in MONEY:
        try:
            amount = Fraction(value)
        except (ValueError, ZeroDivisionError):
            return str(value)
        return signed_text(amount) if style.signed_net and name == "net" else amount_text(amount)
    return str(value)
