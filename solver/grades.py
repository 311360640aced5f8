"""Grades of a decision by its EV loss against the solution's best action, in antes.

Fixed thresholds (docs/review.md), best to worst: ``only`` (the best, and every other action
loses more than :data:`ONLY_GAP`: written "the only see"), ``best`` (within :data:`BEST` of the
best: the solution's own precision), ``good``, ``inaccuracy``, ``mistake``, ``blunder``. The grade
never gets better as the loss grows.

>>> grade(0.0, 1.2, "see"), grade(0.0, 0.1, "see"), grade(0.05, 0.0, "bet")
('the only see', 'best', 'good')
>>> [grade(x, 0.0, "fold") for x in (0.2, 0.5, 3.0)]
['inaccuracy', 'mistake', 'blunder']
"""

from __future__ import annotations

from typing import Final

__all__ = ["BEST", "GRADES", "LIMITS", "ONLY_GAP", "grade", "rank"]

BEST: Final = 0.02
"""A loss up to this (antes) is the best: CFR+ leaves actions of a mixed choice this close."""
ONLY_GAP: Final = 0.5
"""The best is "the only" one when every other action loses more than this (antes)."""
LIMITS: Final = ((BEST, "best"), (0.1, "good"), (0.25, "inaccuracy"), (0.6, "mistake"))
"""Upper limits (antes, inclusive) of each grade after "best"; above the last: ``blunder``."""
GRADES: Final = ("blunder", "mistake", "inaccuracy", "good", "best", "only")
"""Worst to best (``only`` is written "the only <action>")."""


def grade(ev_loss: float, runner_up_loss: float, action: str) -> str:
    """The grade of a decision losing ``ev_loss`` antes (>= 0), where the next best action
    (another than the best) loses ``runner_up_loss``; ``action`` names the action taken.

    Raises ``ValueError`` for a negative or NaN loss.
    """
    if not ev_loss >= 0:
        raise ValueError(f"an EV loss is 0 or more, not {ev_loss!r}")
    if ev_loss <= BEST and runner_up_loss > ONLY_GAP:
        return f"the only {action}"
    for limit, name in LIMITS:
        if ev_loss <= limit:
            return name
    return "blunder"


def rank(text: str) -> int:
    """0 (blunder) to 5 (the only ...): the grade's place, for comparing grades."""
    return GRADES.index("only" if text.startswith("the only ") else text)
