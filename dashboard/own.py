"""A player's own history as the My sessions page lists it: the old home of
:mod:`dashboard.viewmodels.own`, whose names it re-exports so that ``from dashboard import own``
keeps working."""

from __future__ import annotations

from dashboard.viewmodels.own import (
    ALL_MINE,
    CARDS,
    RANKS,
    SUITS,
    card_label,
    deal_rows,
    my_deals,
    nets,
    sat_in,
    session_rows,
    shown_by,
)

__all__ = [
    "ALL_MINE",
    "CARDS",
    "RANKS",
    "SUITS",
    "card_label",
    "deal_rows",
    "my_deals",
    "nets",
    "sat_in",
    "session_rows",
    "shown_by",
]
