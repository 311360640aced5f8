"""A deal's frames for the browser replayer: the old home of :mod:`dashboard.viewmodels.frames`
(the frames, typed) and :mod:`dashboard.viewmodels.odds` (a step's chances and costs), whose
names it re-exports so that ``from dashboard.frames import deal_frames`` keeps working."""

from __future__ import annotations

from dashboard.viewmodels.frames import (
    DealChoice,
    DealFrames,
    Frame,
    Latest,
    ReplayerData,
    deal_frames,
)
from dashboard.viewmodels.odds import (
    TIE_RULE,
    OddsLine,
    action_costs,
    chance_text,
    no_odds_line,
    odds_lines,
    share_words,
)
from present.replay import FROM_NOTE

__all__ = [
    "FROM_NOTE",
    "TIE_RULE",
    "DealChoice",
    "DealFrames",
    "Frame",
    "Latest",
    "OddsLine",
    "ReplayerData",
    "action_costs",
    "chance_text",
    "deal_frames",
    "no_odds_line",
    "odds_lines",
    "share_words",
]
