"""The people and places of simulated sessions.

:data:`NAMES` is 40 first names of the kind heard round a British club's card table, each with the
style (:data:`sim.players.STYLES`) that person plays, so a name behaves the same in every simulated
session and an analyst can find the styles again in the statistics. The styles go round in the
order rock, loose, blind, seer, bluffer, so any eight consecutive names hold every style.

:data:`TABLES` are the tables of a simulated club night.
"""

from __future__ import annotations

from typing import Final

from sim.players import STYLES

_FIRST_NAMES: Final = (
    "Margaret", "Dave", "Sandra", "Keith", "Tony", "Pauline", "Gary", "Jean", "Colin", "Bev",
    "Alan", "Linda", "Steve", "Carol", "Mick", "Janet", "Pete", "Brenda", "Ray", "Sue",
    "Terry", "Maureen", "Barry", "Denise", "Graham", "Lesley", "Nigel", "Tracey", "Clive", "Wendy",
    "Derek", "Shirley", "Phil", "Karen", "Roy", "Angela", "Kevin", "Julie", "Stan", "Irene",
)  # fmt: skip

_STYLE_ORDER: Final = tuple(STYLES)

NAMES: Final[tuple[tuple[str, str], ...]] = tuple(
    (name, _STYLE_ORDER[k % len(_STYLE_ORDER)]) for k, name in enumerate(_FIRST_NAMES)
)
"""``(first name, style)`` pairs: Margaret plays the rock, Dave loose, Sandra blind, Keith sees,
Tony bluffs, and so on round the five styles."""

STYLE_OF: Final[dict[str, str]] = dict(NAMES)
"""The style of each name of :data:`NAMES`."""

TABLES: Final = ("Top table", "Window table", "Back room")
"""Table names of a club night (``session_started.table``)."""
